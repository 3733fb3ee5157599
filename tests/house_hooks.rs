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

fn failing() -> Arc<titan_core::Variant> {
    let dir = common::root().join("tests/fixtures/failing-hooks");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn failing_at(position: &str) -> Game {
    let position: Position = titan_core::load::ron_options().from_str(position).unwrap();
    position.to_game(failing()).unwrap()
}

/// Refuses `action` with a script error naming the script and line, and
/// checks that the game did not change.
fn refused_by_script(g: &mut Game, p: PlayerId, action: Action, line: u32) {
    let before = (format!("{:?}", g.state), g.state_hash(), g.history.len());
    let e = g
        .apply(p, &action)
        .expect_err("a failing hook refuses the action");
    assert!(
        e.message.starts_with("script error: ")
            && e.message.contains(&format!("hooks.lua:{line}:"))
            && e.rule == "the variant's scripts",
        "{e}"
    );
    assert_eq!(
        before,
        (format!("{:?}", g.state), g.state_hash(), g.history.len()),
        "a refused action changes nothing"
    );
}

/// Masterplay hook points report a failing script as battle hooks do: the
/// action is refused with the script error (not played on the data's
/// fallback), and the game is unchanged.
#[test]
fn failing_game_over_hooks_refuse_the_action() {
    let at_turn = |turn: u32| {
        failing_at(&format!(
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
        ))
    };
    at_turn(4).apply(PlayerId(0), &Action::EndTurn).unwrap();
    refused_by_script(&mut at_turn(5), PlayerId(0), Action::EndTurn, 16);
    // An endless loop in the hook: the instruction budget ends it.
    let mut g = at_turn(7);
    refused_by_script(&mut g, PlayerId(0), Action::EndTurn, 15);
    assert!(g.take_script_failure().is_none(), "reported once");
}

#[test]
fn failing_titan_power_hooks_refuse_the_action() {
    // The Titan duel of tests/scenarios/titan-duel.ron: conceding scores
    // the Titan by its power.
    let duel = |score: u32| {
        failing_at(&format!(
            r#"(
            players: [(name: "Red", tower: 100, score: 150), (name: "Blue", tower: 400, score: {score})],
            legions: [
                (marker: "P1-01", land: 20, characters: ["Titan", "Ogre", "Ogre"], moved: true, entered_from: 19),
                (marker: "P1-02", land: 100, characters: ["Angel", "Centaur", "Centaur"]),
                (marker: "P2-01", land: 20, characters: ["Titan", "Lion", "Gargoyle"]),
                (marker: "P2-02", land: 41, characters: ["Angel", "Troll", "Troll"]),
            ],
            active: 0,
            phase: Engage,
            turn: 9,
        )"#
        ))
    };
    let engage = |g: &mut Game| {
        let land = g.legion("P1-01".parse().unwrap()).unwrap().land;
        g.apply(PlayerId(0), &Action::Engage { land }).unwrap();
        g.take_script_failure();
    };
    let mut g = duel(120);
    engage(&mut g);
    g.apply(PlayerId(1), &Action::Concede).unwrap();
    let mut g = duel(250);
    engage(&mut g);
    refused_by_script(&mut g, PlayerId(1), Action::Concede, 9);
    let mut g = duel(350);
    engage(&mut g);
    refused_by_script(&mut g, PlayerId(1), Action::Concede, 7);
    // A query that met the failing hook answers with the data's value and
    // says so.
    g.titan_power(PlayerId(1));
    assert!(g.take_script_failure().is_some());
}

#[test]
fn failing_mustering_hooks_refuse_the_action() {
    let v = failing();
    let mut g = failing_at(
        r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 2, characters: ["Titan", "Centaur", "Lion", "Lion"], moved: true, entered_from: 1),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
    )"#,
    );
    let unicorn = Action::Muster {
        legion: "P1-01".parse().unwrap(),
        recruit: v.character_by_name("Unicorn").unwrap(),
        reveal: vec![],
    };
    assert!(!g.legal_actions(PlayerId(0)).contains(&unicorn));
    let failure = g
        .take_script_failure()
        .expect("listing met the failing hook");
    assert!(failure.message.contains("instruction budget"), "{failure}");
    // The pattern bomb in the hook ends by the budget, at its line.
    refused_by_script(&mut g, PlayerId(0), unicorn, 22);
}

#[test]
fn character_power_and_reinforcements_are_hooks() {
    // docs/scripting.md, "Masterplay": `character_power` gives a legion's
    // character (not the Titan) its power in a battle; `reinforcements`
    // what its defender may reinforce with.
    let v = variant();
    let pos = r#"(
        players: [(name: "A", tower: 100, score: 150), (name: "B", tower: 400, score: 320)],
        legions: [
            (marker: "P1-01", land: 20, characters: ["Titan", "Ogre", "Gargoyle"], moved: true, entered_from: 19),
            (marker: "P2-01", land: 20, characters: ["Angel", "Gargoyle", "Lion"]),
        ],
        active: 0,
        phase: Engage,
        turn: 4,
    )"#;
    let position: Position = titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(v.clone()).unwrap();
    let land = g.legion("P1-01".parse().unwrap()).unwrap().land;
    g.apply(PlayerId(0), &Action::Engage { land }).unwrap();
    g.apply(PlayerId(1), &Action::Fight).unwrap();
    assert!(g.take_script_failure().is_none());
    let req = g.battle_request().expect("a battle");
    let gargoyle = v.character_by_name("Gargoyle").unwrap();
    let power = |list: &[(titan_core::model::CharacterId, u8)], c| {
        list.iter().find(|(x, _)| *x == c).map(|(_, p)| *p)
    };
    assert_eq!(power(&req.attacker_characters, gargoyle), Some(4 + 1));
    assert_eq!(power(&req.defender_characters, gargoyle), Some(4 + 3));
    // Others keep the chart's power (the hook answers nil).
    let ogre = v.character_by_name("Ogre").unwrap();
    assert_eq!(power(&req.attacker_characters, ogre), Some(6));
    // `reinforcements`: the defender, with an Angel, may reinforce with an
    // Archangel besides what its land's table offers.
    let archangel = v.character_by_name("Archangel").unwrap();
    assert!(
        req.reinforcements.contains(&archangel),
        "{:?}",
        req.reinforcements
    );
}
