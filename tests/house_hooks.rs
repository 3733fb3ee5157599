//! Masterplay rules a variant changes by data and Lua hooks, with no Rust
//! change: a chosen movement distance, the Titan's power, the end of the
//! game, and a mustering special case.

mod common;

use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, Game, Outcome, Phase, PlayerId};

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("tests/fixtures/house-hooks");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn names() -> Vec<String> {
    ["A", "B"].map(String::from).to_vec()
}

#[test]
fn the_mover_chooses_the_distance() {
    let (mut g, _) = Game::new(variant(), Default::default(), &names(), 1).unwrap();
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let a = g.legal_actions(p).remove(0);
        g.apply(p, &a).unwrap();
    }
    let p = g.state.active;
    let rolls: Vec<Action> = g
        .legal_actions(p)
        .into_iter()
        .filter(|a| matches!(a, Action::Roll { .. }))
        .collect();
    assert_eq!(rolls.len(), 6);
    assert!(g.apply(p, &Action::Roll { distance: None }).is_err());
    assert!(g.apply(p, &Action::Roll { distance: Some(7) }).is_err());
    g.apply(p, &Action::Roll { distance: Some(4) }).unwrap();
    assert_eq!(g.state.roll, Some(4));
}

fn muster_phase_at_turn(turn: u32) -> Game {
    let pos = format!(
        r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
        turn: {turn},
    )"#
    );
    let position: Position = titan_core::load::ron_options().from_str(&pos).unwrap();
    position.to_game(variant()).unwrap()
}

#[test]
fn titan_power_and_game_end_are_hooks() {
    let mut g = muster_phase_at_turn(2);
    g.state.players[0].score = 250;
    assert_eq!(g.titan_power(PlayerId(0)), 6 + 4, "two per hundred points");
    g.apply(PlayerId(0), &Action::EndTurn).unwrap();
    assert_eq!(g.state.phase, Phase::Split, "turn 2 goes on");
    let mut g = muster_phase_at_turn(3);
    g.apply(PlayerId(0), &Action::EndTurn).unwrap();
    assert_eq!(g.state.outcome, Some(Outcome::Winner(PlayerId(0))));
}

#[test]
fn a_mustering_special_case_by_hook() {
    let v = variant();
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 2, characters: ["Titan", "Centaur", "Lion", "Lion"], moved: true, entered_from: 1),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
    )"#;
    let position: Position = titan_core::load::ron_options().from_str(pos).unwrap();
    let g = position.to_game(v.clone()).unwrap();
    let unicorn = v.character_by_name("Unicorn").unwrap();
    // Woods (land 2): two Lions qualify for a Unicorn through the hook, with
    // nothing shown.
    assert!(g.legal_actions(PlayerId(0)).contains(&Action::Muster {
        legion: "P1-01".parse().unwrap(),
        recruit: unicorn,
        reveal: vec![],
    }));
}
