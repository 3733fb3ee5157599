//! An acquirable character limited to terrains (`scoring.acquire`'s
//! `terrains`): offered only to a winning legion in a land of one of them.

mod common;

use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};

/// Red (380 points) has entered Blue's legion (an Ogre and two Trolls: 44
/// points) on `land`; Blue flees (half: 22), and Red's score passes 400.
fn won_at(land: u32) -> Vec<Action> {
    let dir = common::root().join("tests/fixtures/acquire-terrains");
    let variant = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let text = format!(
        r#"(
        seed: 2,
        players: [
            (name: "Red", tower: 100, score: 380),
            (name: "Blue", tower: 400, score: 120),
            (name: "Green", tower: 600),
        ],
        legions: [
            (marker: "P1-01", land: {land}, characters: ["Centaur", "Centaur"], moved: true, entered_from: None),
            (marker: "P1-02", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: {land}, characters: ["Ogre", "Troll", "Troll"]),
            (marker: "P2-02", land: 400, characters: ["Titan", "Angel"]),
            (marker: "P3-01", land: 600, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        turn: 6,
    )"#
    );
    let pos: Position = ron::from_str(&text).unwrap();
    let mut g = pos.to_game(variant).unwrap();
    let at = g.variant.board.by_number(land).unwrap();
    g.apply(PlayerId(0), &Action::Engage { land: at }).unwrap();
    g.apply(PlayerId(1), &Action::Flee).unwrap();
    assert_eq!(g.state.players[0].score, 380 + 22);
    g.legal_actions(PlayerId(0))
}

#[test]
fn an_acquirable_of_some_terrains_is_offered_only_there() {
    let angel = |actions: &[Action]| actions.iter().any(|a| matches!(a, Action::Acquire { .. }));
    // Land 41 is a Marsh: the Angel is offered.
    let marsh = won_at(41);
    assert!(angel(&marsh), "{marsh:?}");
    // Land 20 is in the Plains: nothing to acquire, only done.
    let plains = won_at(20);
    assert!(!angel(&plains), "{plains:?}");
    assert!(plains.contains(&Action::DoneAfter));
}
