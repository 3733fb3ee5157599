//! Helpers of the game window's tests: the app at a fixed size, clicks by
//! label, the game on screen and the hot-seat pass screen.

use std::path::Path;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_editor::PlayApp;
use titan_editor::play::GameScreen;

use super::repo;

/// The app on its start screen, its data (settings, saves) in `data`.
pub fn harness(data: &Path) -> Harness<'static, PlayApp> {
    let app = PlayApp::new(&repo().join("variants"), data);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    h
}

/// The app with a game of the variant in `variants/<variant>` open at the
/// position in `position`, hot-seat by `seats`.
pub fn on_position(
    data: &Path,
    variant: &str,
    position: &Path,
    seats: Vec<titan_editor::play::Seat>,
) -> Harness<'static, PlayApp> {
    let dir = repo().join("variants").join(variant);
    let v = titan_editor::play::load_variant(&dir).unwrap();
    let g = titan_core::game::save::Position::read(position)
        .unwrap()
        .to_game(v)
        .unwrap();
    let mut h = harness(data);
    h.state_mut().open_game(
        Box::new(titan_editor::session::LocalSession::new(g, Vec::new())),
        seats,
        &dir,
    );
    h.run_steps(3);
    h
}

pub fn click(h: &mut Harness<'_, PlayApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

pub fn game<'a>(h: &'a Harness<'_, PlayApp>) -> &'a GameScreen {
    h.state().game().expect("a game on screen")
}

/// Past a hot-seat pass screen, if one is up.
pub fn take_screen(h: &mut Harness<'_, PlayApp>) {
    if let Some(p) = game(h).pass_to {
        let name = game(h).seats[usize::from(p.0)].name.clone();
        click(h, &format!("I am {name}: show my game"));
    }
}

/// A battle action to take next: commit, move or strike first; end the phase
/// when nothing else is offered (what the panel offers, the rules allow).
pub fn eager(actions: &[titan_core::battle::Action]) -> Option<titan_core::battle::Action> {
    use titan_core::battle::Action as B;
    actions
        .iter()
        .find(|a| matches!(a, B::Move { .. } | B::Strike { .. } | B::CarryOver { .. }))
        .or_else(|| {
            actions
                .iter()
                .find(|a| matches!(a, B::EndManeuver | B::EndStrikes))
        })
        .cloned()
}

/// Takes battle action `a` through the game window, and checks the game
/// took it.
pub fn act_battle(h: &mut Harness<'_, PlayApp>, a: &titan_core::battle::Action) {
    let before = game(h).session.history_len();
    h.state_mut()
        .game_mut()
        .unwrap()
        .act(&titan_core::game::Action::Battle { battle: a.clone() });
    h.run_steps(2);
    assert!(
        game(h).session.history_len() > before,
        "{a:?} refused: {}",
        game(h).status
    );
}
