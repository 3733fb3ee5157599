//! Limits on what a player musters in one turn (`legions.muster_per_turn`,
//! docs/variant-format.md), as Gods of Titan 22.2 (EN 470) has it: "No
//! player may ever muster more than one End-Creature with all of his Legions
//! per Game-Turn"; 8.4 (EN 207): "A player may muster only one End-Creature
//! per Game-Turn".

mod common;

use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, Game, PlayerId};

/// Two of Red's legions in Marsh lands, each able to muster a Troll (two
/// Ogres), in his muster phase.
fn game(variant: &str) -> Game {
    let dir = common::root().join(variant);
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let text = r#"(
        seed: 3,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 41, characters: ["Ogre", "Ogre", "Centaur"], moved: true, entered_from: Some(40)),
            (marker: "P1-02", land: 8, characters: ["Ogre", "Ogre", "Gargoyle"], moved: true, entered_from: Some(7)),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
        turn: 3,
    )"#;
    let pos: Position = ron::from_str(text).unwrap();
    pos.to_game(v).unwrap()
}

fn troll(g: &Game, marker: &str) -> Option<Action> {
    g.legal_actions(PlayerId(0)).into_iter().find(|a| match a {
        Action::Muster {
            legion, recruit, ..
        } => legion.to_string() == marker && g.variant.character(*recruit).name == "Troll",
        _ => false,
    })
}

#[test]
fn a_player_musters_at_most_the_limit_a_turn_with_all_his_legions() {
    // Without the limit (`titan`), both legions muster a Troll.
    let mut plain = game("variants/titan");
    let a = troll(&plain, "P1-01").unwrap();
    plain.apply(PlayerId(0), &a).unwrap();
    assert!(troll(&plain, "P1-02").is_some());

    let mut g = game("tests/fixtures/muster-per-turn");
    let a = troll(&g, "P1-01").unwrap();
    let b = troll(&g, "P1-02").unwrap();
    g.apply(PlayerId(0), &a).unwrap();
    // The second is no longer offered, and refused, the game unchanged.
    assert!(troll(&g, "P1-02").is_none());
    let before = g.fingerprint();
    let e = g.apply(PlayerId(0), &b).unwrap_err();
    assert!(e.to_string().contains("Troll this turn already"), "{e}");
    assert_eq!(g.fingerprint(), before);
    // Another recruit is still offered to the other legion (an Ogre).
    assert!(g.legal_actions(PlayerId(0)).iter().any(|a| matches!(a,
        Action::Muster { legion, recruit, .. }
            if legion.to_string() == "P1-02" && g.variant.character(*recruit).name == "Ogre")));
    // The next turn the limit starts again (kept in the state, saved).
    let save = g.to_save();
    let replay = Game::from_save(Arc::clone(&g.variant), &save).unwrap();
    assert_eq!(replay.state, g.state);
    g.apply(PlayerId(0), &Action::EndTurn).unwrap();
    assert!(g.state.mustered.is_empty());
}

#[test]
fn a_limit_naming_no_character_or_of_zero_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root();
    common::copy_dir(&root.join("tests/fixtures/muster-per-turn"), dir.path());
    let rules = dir.path().join("rules.ron");
    let text = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(
        &rules,
        text.replace("[\"Troll\"], count: 1", "[\"Trol\"], count: 0"),
    )
    .unwrap();
    let e = titan_core::load(dir.path(), &common::options()).unwrap_err();
    let text = format!("{e:#?}");
    assert!(
        text.contains("no character is named") && text.contains("Trol"),
        "{text}"
    );
    assert!(text.contains("a count of 0"), "{text}");
}
