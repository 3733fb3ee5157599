//! The autosave follows every action: an app killed in the middle of a
//! battle loses nothing ("Continue the last game" opens the same position).

mod common;

use common::play::{click, game, harness, take_screen};

use common::repo;

use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};
use titan_editor::play::Seat;
use titan_editor::session::LocalSession;

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
