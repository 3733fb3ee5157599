//! Limits per legion (`per_legion` of a character or class,
//! docs/variant-format.md): a legion at a character's limit musters no more
//! of it, as Gods of Titan 4.3 has it ("only two End-Creatures of same type
//! may occur in the same Legion").

mod common;

use std::sync::Arc;

use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};

fn game(variant: &str) -> titan_core::game::Game {
    let dir = common::root().join(variant);
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let text = r#"(
        seed: 3,
        players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
        legions: [
            (marker: "P1-01", land: 41, characters: ["Ogre", "Ogre", "Centaur"], moved: true, entered_from: Some(40)),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
        turn: 3,
    )"#;
    let pos: Position = ron::from_str(text).unwrap();
    pos.to_game(v).unwrap()
}

fn recruits(g: &titan_core::game::Game) -> Vec<String> {
    let mut out: Vec<String> = g
        .legal_actions(PlayerId(0))
        .iter()
        .filter_map(|a| match a {
            Action::Muster { recruit, .. } => Some(g.variant.character(*recruit).name.clone()),
            _ => None,
        })
        .collect();
    out.dedup();
    out
}

#[test]
fn a_legion_at_its_limit_musters_no_more_of_that_character() {
    // The Marsh: two Ogres muster an Ogre or a Troll in `titan`.
    let plain = game("variants/titan");
    assert!(recruits(&plain).contains(&"Ogre".to_string()));
    let limited = game("tests/fixtures/per-legion");
    let r = recruits(&limited);
    assert!(!r.contains(&"Ogre".to_string()), "{r:?}");
    assert!(r.contains(&"Troll".to_string()), "{r:?}");
    // Taking it anyway is refused, the game unchanged.
    let mut g = limited;
    let before = g.fingerprint();
    let ogre = g.variant.character_by_name("Ogre").unwrap();
    let err = g
        .apply(
            PlayerId(0),
            &Action::Muster {
                legion: "P1-01".parse().unwrap(),
                recruit: ogre,
                reveal: vec![ogre],
            },
        )
        .unwrap_err();
    assert!(!err.to_string().is_empty());
    assert_eq!(g.fingerprint(), before);
}
