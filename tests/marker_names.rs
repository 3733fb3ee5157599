//! Legion markers' names (`rules.legions.marker_names`): labels a variant
//! may give each seat's markers. They load and are validated (the broken
//! cases `tests/broken/marker-names-*`), are shown beside the numbers, and
//! change nothing of the game: a variant without them is answered as before.

mod common;

use std::sync::Arc;

use titan_core::game::random::random_action;
use titan_core::game::{Game, Marker};
use titan_core::model::Variant;
use titan_core::rng::GameRng;

fn load(path: &str) -> Arc<Variant> {
    let dir = common::root().join(path);
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn marker(s: &str) -> Marker {
    s.parse().unwrap()
}

#[test]
fn names_load_per_seat_and_number() {
    let v = load("tests/fixtures/marker-names");
    assert_eq!(v.marker_name(marker("P1-01")), Some("Anvil"));
    assert_eq!(v.marker_name(marker("P1-12")), Some("Lantern"));
    assert_eq!(v.marker_name(marker("P2-03")), Some("Comet"));
    // Past a seat's list, a seat with an empty list, a seat with none.
    for unnamed in ["P2-04", "P3-01", "P4-01"] {
        assert_eq!(v.marker_name(marker(unnamed)), None, "{unnamed}");
    }
    assert_eq!(v.marker_label(marker("P1-03")), "P1-03 (Crown)");
    assert_eq!(v.marker_label(marker("P3-03")), "P3-03");
    // The other rules are the base's (the section is merged field by field).
    assert_eq!(v.rules.legions.markers_per_player, 12);
    assert_eq!(v.rules.legions.max_size, 7);
}

#[test]
fn a_variant_without_names_labels_markers_by_number() {
    let v = load("variants/titan");
    assert!(v.rules.legions.marker_names.is_empty());
    assert_eq!(v.marker_label(marker("P2-07")), "P2-07");
}

/// Names are labels: the same seed and actions give the same game with
/// them as without.
#[test]
fn names_change_nothing_of_the_game() {
    let named = load("tests/fixtures/marker-names");
    let plain = load("variants/titan");
    let players = ["Ann".to_string(), "Bob".into(), "Cy".into()];
    let (mut a, _) = Game::new(named, Default::default(), &players, 5).unwrap();
    let (mut b, _) = Game::new(plain, Default::default(), &players, 5).unwrap();
    let mut rng = GameRng::new(5);
    for _ in 0..400 {
        let Some((p, action)) = random_action(&a, &mut rng) else {
            break;
        };
        a.apply(p, &action).unwrap();
        b.apply(p, &action).unwrap();
        assert_eq!(a.state, b.state);
    }
}

#[test]
fn titan_check_accepts_the_names() {
    let out = common::titan(&["check", "tests/fixtures/marker-names"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("marker-names: ") && text.contains(": ok"),
        "{text}"
    );
}

/// `titan engine` tells a client the names with the variant's other facts
/// (`new_game`); a variant without names is answered as before.
#[test]
fn the_engine_names_the_markers_of_a_game() {
    let fixture = common::root().join("tests/fixtures/marker-names");
    let lines = common::engine_session(
        &common::root(),
        None,
        &[
            serde_json::json!({"cmd": "new_game", "variant": fixture, "players": ["Ann", "Bob"]}),
            serde_json::json!({"cmd": "new_game", "variant": "titan", "players": ["Ann", "Bob"]}),
        ],
    );
    let answers: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers[0]["ok"], true, "{}", lines[0]);
    assert_eq!(answers[0]["marker_names"][0][2], "Crown");
    assert_eq!(answers[0]["marker_names"][1].as_array().unwrap().len(), 3);
    assert_eq!(answers[1]["ok"], true, "{}", lines[1]);
    assert!(answers[1].get("marker_names").is_none(), "{}", lines[1]);
}
