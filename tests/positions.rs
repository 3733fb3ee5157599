//! Positions are checked as strictly as variants: a position a game of the
//! variant could never reach is refused with a message saying what is wrong.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::game::save::Position;

fn titan() -> Arc<Variant> {
    let dir = common::root().join("variants/titan");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

/// A valid position of two players, with `edit` applied to its text.
fn position(edit: impl Fn(String) -> String) -> Result<(), String> {
    let text = r#"(
        players: [(name: "Ann", tower: 100), (name: "Bob", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Ogre"]),
        ],
        active: 0,
        phase: Move,
        roll: 3,
    )"#;
    let p: Position = titan_core::load::ron_options()
        .from_str(&edit(text.to_string()))
        .map_err(|e| format!("not read: {e}"))?;
    p.to_game(titan()).map(|_| ()).map_err(|e| e.to_string())
}

fn refused(edit: impl Fn(String) -> String, expected: &str) {
    match position(edit) {
        Ok(()) => panic!("accepted; expected an error containing {expected:?}"),
        Err(e) => assert!(e.contains(expected), "{e:?} does not say {expected:?}"),
    }
}

#[test]
fn the_base_position_is_valid() {
    position(|t| t).unwrap();
}

/// Law of Titan 4.2, reference sheet "Setup": each player has a set of 12
/// legion markers (`markers_per_player`), each on one legion at most.
#[test]
fn a_marker_beyond_the_players_markers_is_refused() {
    refused(
        |t| t.replace("P1-01", "P1-99"),
        "legion P1-99: a player's markers are numbered 1 to 12",
    );
    refused(
        |t| t.replace("\"P2-01\"", "\"P3-01\""),
        "legion P3-01 belongs to no player",
    );
    refused(
        |t| t.replace("P2-01\", land: 400", "P1-01\", land: 400"),
        "legion P1-01 is listed twice",
    );
}

/// Reference sheet, Setup 4: each player places his legions on the tower
/// his die roll gave him (ties re-roll): one tower each.
#[test]
fn towers_must_be_towers_and_distinct() {
    refused(
        |t| t.replace("tower: 400", "tower: 100"),
        "two players start in tower 100",
    );
    refused(
        |t| t.replace("tower: 400", "tower: 1"),
        "land 1 is no tower",
    );
    refused(
        |t| t.replace("tower: 400", "tower: 7777"),
        "there is no land 7777",
    );
}

/// Reference sheet, Movement: the movement roll is one die (1 to 6).
#[test]
fn a_roll_off_the_die_is_refused() {
    refused(
        |t| t.replace("roll: 3", "roll: 99"),
        "a roll of 99: the movement die has sides 1 to 6",
    );
    refused(|t| t.replace("roll: 3", "roll: 0"), "a roll of 0");
}

/// A finished game has nobody to act: it is no position to play from.
#[test]
fn a_position_that_is_over_is_refused() {
    refused(
        |t| t.replace("phase: Move", "phase: Over"),
        "a position cannot be over",
    );
    refused(
        |t| {
            t.replace(
                "(name: \"Ann\", tower: 100)",
                "(name: \"Ann\", tower: 100, alive: false)",
            )
        },
        "Ann, is out of the game",
    );
}

/// Options are the variant's, typed and bounded as its manifest says.
#[test]
fn options_are_the_variants_and_well_typed() {
    refused(
        |t| t.replacen("(", "(options: {\"colour\": Text(\"red\")},", 1),
        "titan has no option \"colour\" (its options: mulligan, point_limit, tower_order)",
    );
    refused(
        |t| t.replacen("(", "(options: {\"mulligan\": Int(3)},", 1),
        "option \"mulligan\" is true or false, not 3",
    );
    refused(
        |t| t.replacen("(", "(options: {\"point_limit\": Int(-5)},", 1),
        "option \"point_limit\" is at least 0, not -5",
    );
    refused(
        |t| t.replacen("(", "(options: {\"point_limit\": Text(\"lots\")},", 1),
        "option \"point_limit\" is an integer, not \"lots\"",
    );
    position(|t| t.replacen("(", "(options: {\"point_limit\": Int(200)},", 1)).unwrap();
}

/// Players are named by name: names are present, distinct and short.
#[test]
fn player_names_are_distinct_and_short() {
    refused(
        |t| t.replace("\"Bob\"", "\"Ann\""),
        "two players are named \"Ann\"",
    );
    refused(
        |t| t.replace("\"Bob\"", "\" \""),
        "player 1 has an empty name",
    );
    let long = "x".repeat(65);
    refused(
        |t| t.replace("Bob", &long),
        "player 1's name is 65 bytes long; the most is 64",
    );
    refused(
        |t| t.replace("characters: [\"Titan\", \"Ogre\"]", "characters: []"),
        "legion P2-01 has no characters",
    );
}

/// The manifest's bounds hold their option's default and bound integers
/// only: a variant that breaks this does not load.
#[test]
fn option_bounds_are_checked_in_the_variant() {
    let dir = tempfile::tempdir().unwrap();
    for (default, bounds, ok) in [
        ("Int(5)", "min: 0, max: 10", true),
        ("Int(-1)", "min: 0", false),
        ("Int(11)", "max: 10", false),
        ("Bool(true)", "min: 0", false),
    ] {
        std::fs::write(
            dir.path().join("variant.ron"),
            format!(
                r#"(id: "bounded", title: "Bounded", version: "0.0.1", extends: "titan",
                    options: [(name: "limit", default: {default}, {bounds})])"#
            ),
        )
        .unwrap();
        match titan_core::load(dir.path(), &common::options()) {
            Ok(_) => assert!(ok, "{default} {bounds} loaded"),
            Err(errors) => {
                assert!(!ok, "{default} {bounds}: {errors:?}");
                assert!(
                    errors.iter().any(|e| e.file.ends_with("variant.ron")
                        && e.line == 2
                        && e.message.contains("option \"limit\": min and max bound")),
                    "{errors:?}"
                );
            }
        }
    }
}

/// Only the player whose turn it is moves onto an enemy (Law of Titan 1982
/// 8.0, reference sheet "Movement"): two other players' legions never share
/// a land. Found by loading random positions: the engine listed an
/// engagement there that it then refused.
#[test]
fn an_engagement_of_two_other_players_is_refused() {
    let three = |t: String| {
        t.replace(
            r#"(name: "Bob", tower: 400)],"#,
            r#"(name: "Bob", tower: 400), (name: "Cy", tower: 600)],"#,
        )
        .replace(
            r#"(marker: "P2-01", land: 400, characters: ["Titan", "Ogre"]),"#,
            r#"(marker: "P2-01", land: 5, characters: ["Titan", "Ogre"]),
            (marker: "P3-01", land: 5, characters: ["Titan", "Ogre"]),"#,
        )
    };
    refused(three, "neither of them the one whose turn it is");
    // The same land shared with the player to move is an engagement.
    position(|t| {
        three(t)
            .replace(
                r#"(marker: "P3-01", land: 5"#,
                r#"(marker: "P3-01", land: 600"#,
            )
            .replace(
                r#"land: 100, characters"#,
                r#"land: 5, moved: true, entered_from: 4, characters"#,
            )
    })
    .unwrap();
}
