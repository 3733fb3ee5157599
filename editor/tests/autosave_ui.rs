//! The autosave follows every action: an app killed in the middle of a
//! battle loses nothing ("Continue the last game" opens the same position).

mod common;

use common::repo;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};
use titan_editor::PlayApp;
use titan_editor::play::{GameScreen, Seat};
use titan_editor::session::LocalSession;

fn harness(data: &std::path::Path) -> Harness<'static, PlayApp> {
    let app = PlayApp::new(&repo().join("variants"), data);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    h
}

fn click(h: &mut Harness<'_, PlayApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

fn game<'a>(h: &'a Harness<'_, PlayApp>) -> &'a GameScreen {
    h.state().game().expect("a game on screen")
}

fn take_screen(h: &mut Harness<'_, PlayApp>) {
    if let Some(p) = game(h).pass_to {
        let name = game(h).seats[usize::from(p.0)].name.clone();
        click(h, &format!("I am {name}: show my game"));
    }
}

#[test]
fn an_action_in_a_battle_is_autosaved_at_once() {
    let data = tempfile::tempdir().unwrap();
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let pos = Position::read(&repo().join("tests/scenarios/engagement.ron")).unwrap();
    let game0 = pos.to_game(variant).unwrap();
    let mut h = harness(data.path());
    h.state_mut().open_game(
        Box::new(LocalSession::new(game0, Vec::new())),
        vec![
            Seat::person("Red"),
            Seat::person("Blue"),
            Seat::computer("Green"),
        ],
        &dir,
    );
    h.run_steps(3);
    click(&mut h, "Resolve the engagement in land 5");
    take_screen(&mut h);
    click(&mut h, "Stand and fight");
    take_screen(&mut h);
    click(&mut h, "Fight");
    take_screen(&mut h);
    assert_eq!(game(&h).viewer, PlayerId(1));
    // Blue brings a character on: one action in the battle's maneuver.
    let m = game(&h)
        .battle_actions()
        .into_iter()
        .find(|a| matches!(a, titan_core::battle::Action::Move { .. }))
        .expect("a move in the battle");
    let before = game(&h).session.history_len();
    h.state_mut()
        .game_mut()
        .unwrap()
        .act(&Action::Battle { battle: m });
    h.step();
    let g = game(&h);
    assert_eq!(g.session.history_len(), before + 1, "{}", g.status);
    assert!(g.session.battle(PlayerId(1)).is_some());
    let hash = g.session.save_file().state_hash;

    // The app is killed here (dropped, no closing): a new one continues the
    // last game, in the battle, after Blue's move.
    drop(h);
    let mut h = harness(data.path());
    click(&mut h, "Continue the last game");
    let g = game(&h);
    assert_eq!(g.session.history_len(), before + 1);
    assert_eq!(g.session.save_file().state_hash, hash);
    assert!(
        g.session.battle(PlayerId(1)).is_some(),
        "the battle is lost"
    );
}
