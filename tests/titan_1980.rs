//! The masterplay rules of the `titan-1980` variant that differ from the
//! `titan` variant's, each test naming the rule of the 1980 Law of Titan it
//! checks (the battles are scenario files under
//! `variants/titan-1980/tests/battle/`).

mod common;

use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("variants/titan-1980");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

/// Law of Titan 1980, 4.E ("Any Legion that contains seven Characters
/// cannot be moved") and 8.D (nor teleported): with a roll of 6 in its
/// tower, the full legion has no move and no teleport, and a move of it is
/// refused; the legion of six beside it moves.
#[test]
fn a_legion_of_seven_does_not_move_law_of_titan_1980_4e() {
    let text = r#"(
        seed: 3,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Ogre", "Ogre", "Troll", "Troll", "Centaur", "Centaur"]),
            (marker: "P1-02", land: 1, characters: ["Angel", "Centaur", "Centaur", "Gargoyle", "Ogre", "Ogre"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Lion", "Lion"]),
        ],
        active: 0,
        phase: Move,
        roll: Some(6),
        turn: 3,
    )"#;
    let pos: Position = ron::from_str(text).unwrap();
    let mut g = pos.to_game(variant()).unwrap();
    let full: titan_core::game::Marker = "P1-01".parse().unwrap();
    let six: titan_core::game::Marker = "P1-02".parse().unwrap();
    let actions = g.legal_actions(PlayerId(0));
    let moves_of = |m| {
        actions
            .iter()
            .filter(|a| {
                matches!(a, Action::Move { legion, .. } | Action::Teleport { legion, .. } if *legion == m)
            })
            .count()
    };
    assert_eq!(moves_of(full), 0, "{actions:?}");
    assert!(moves_of(six) > 0);
    let to = g.variant.board.by_number(6).unwrap();
    let before = g.fingerprint();
    let err = g
        .apply(
            PlayerId(0),
            &Action::Move {
                legion: full,
                to,
                entered_from: g.variant.board.by_number(100).unwrap(),
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("is full"), "{err}");
    assert_eq!(g.fingerprint(), before);
}
