//! `titan rules moves` and `titan rules recruits` against facts of the Titan
//! board (variants/titan/masterboard.ron, mustering.ron) and the reference
//! sheet.

mod common;

use common::titan;

use serde_json::{Value, json};

/// Runs a query that must succeed and answer one JSON line.
fn answer(args: &[&str]) -> Value {
    let out = titan(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

fn moves(land: &str, roll: &str) -> Value {
    answer(&[
        "rules",
        "moves",
        "--variant",
        "titan",
        "--land",
        land,
        "--roll",
        roll,
    ])
}

/// The recruits as (recruit, reveal) pairs of names.
fn recruits(place: &[&str], legion: &str) -> Vec<(String, Vec<String>)> {
    let mut args = vec!["rules", "recruits", "--variant", "titan"];
    args.extend_from_slice(place);
    args.extend_from_slice(&["--legion", legion]);
    let a = answer(&args);
    a["recruits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let reveal = r["reveal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            (r["recruit"].as_str().unwrap().to_string(), reveal)
        })
        .collect()
}

fn names(r: &[(String, Vec<String>)]) -> Vec<&str> {
    let mut n: Vec<&str> = r.iter().map(|(c, _)| c.as_str()).collect();
    n.dedup();
    n
}

/// Reference sheet, "Movement Signs": land 1 has a Triple Arrow to 2 and a
/// Sphere (arch) to 1000; a legion starting there may begin either way.
#[test]
fn from_land_one_a_roll_of_one_reaches_two_and_one_thousand() {
    assert_eq!(
        moves("1", "1"),
        json!({"land": 1, "roll": 1, "moves": [
            {"land": 2, "entered_from": 1},
            {"land": 1000, "entered_from": 1},
        ]})
    );
}

/// Reference sheet, "Movement Signs": continuing through land 2 the Triple
/// Arrow (to 3) must be followed; through 1000 either single Arrow (to 2000
/// or 6000), never back.
#[test]
fn from_land_one_a_roll_of_two_follows_the_arrows() {
    assert_eq!(
        moves("1", "2")["moves"],
        json!([
            {"land": 3, "entered_from": 2},
            {"land": 2000, "entered_from": 1000},
            {"land": 6000, "entered_from": 1000},
        ])
    );
}

/// Reference sheet, "Movement Signs": "a Legion starting on a Land from which
/// a Block points must begin its next move in that direction" (1000 to 1).
#[test]
fn a_block_must_be_followed() {
    assert_eq!(
        moves("1000", "1")["moves"],
        json!([{"land": 1, "entered_from": 1000}])
    );
}

/// Reference sheet, "Movement Signs": "a Legion starting on a Tower may begin
/// its next move in the direction of any of the Arrows" (100: to 3, 41, 101).
#[test]
fn from_a_tower_any_arrow() {
    assert_eq!(
        moves("100", "1")["moves"],
        json!([
            {"land": 3, "entered_from": 100},
            {"land": 41, "entered_from": 100},
            {"land": 101, "entered_from": 100},
        ])
    );
}

/// Every answer ends on a land of the board, entered through a sign that
/// points from the land before it into it (signs are followed, never
/// crossed backwards), for every land and roll.
#[test]
fn every_move_follows_a_sign_into_its_land() {
    let v = titan_core::load(&common::root().join("variants/titan"), &common::options()).unwrap();
    for land in [1, 42, 100, 1000, 6000, 115] {
        for roll in 1..=6 {
            let a = moves(&land.to_string(), &roll.to_string());
            for m in a["moves"].as_array().unwrap() {
                let to = v
                    .board
                    .by_number(m["land"].as_u64().unwrap() as u32)
                    .unwrap();
                let from = v
                    .board
                    .by_number(m["entered_from"].as_u64().unwrap() as u32)
                    .unwrap();
                assert!(
                    v.board.exits(from).any(|(_, t)| t == to),
                    "from {land} with {roll}: {m} follows no sign"
                );
                if roll == 1 {
                    assert_eq!(m["entered_from"], land);
                }
            }
        }
    }
}

/// Reference sheet, "Tower Lands": one Centaur, Gargoyle or Ogre for anyone;
/// a Warlock for a legion with its Titan; no Guardian without three
/// identical creatures.
#[test]
fn tower_recruits() {
    let r = recruits(&["--land", "100"], "Titan,Angel");
    assert_eq!(names(&r), ["Centaur", "Gargoyle", "Ogre", "Warlock"]);
    assert!(r.contains(&("Ogre".into(), vec![])));
    assert!(r.contains(&("Warlock".into(), vec!["Titan".into()])));
    let r = recruits(&["--terrain", "Tower"], "Angel,Troll,Troll,Troll");
    assert!(
        r.contains(&("Guardian".into(), vec!["Troll".into(); 3])),
        "{r:?}"
    );
    assert!(!names(&r).contains(&"Warlock"));
    // Three Angels are no creatures.
    let r = recruits(&["--terrain", "Tower"], "Angel,Angel,Angel");
    assert!(!names(&r).contains(&"Guardian"), "{r:?}");
}

/// Reference sheet, "Tower Lands" and "Enlistment": each distinct choice
/// once. A free Ogre is not offered again as "reveal an Ogre" (a choice
/// showing more than it must); a Warlock for a Warlock or for the Titan are
/// two choices.
#[test]
fn tower_recruits_list_each_choice_once() {
    let r = recruits(
        &["--land", "100"],
        "Titan,Ogre,Ogre,Ogre,Centaur,Gargoyle,Warlock",
    );
    assert_eq!(
        r,
        [
            ("Centaur".to_string(), vec![]),
            ("Gargoyle".into(), vec![]),
            ("Ogre".into(), vec![]),
            ("Warlock".into(), vec!["Warlock".into()]),
            ("Warlock".into(), vec!["Titan".into()]),
            ("Guardian".into(), vec!["Ogre".into(); 3]),
        ]
    );
}

/// Reference sheet, "Enlistment": a like creature, a lesser one, or an
/// upgrade for the required number (Marsh: Ogre, Troll for two Ogres, Ranger
/// for two Trolls).
#[test]
fn marsh_recruits() {
    let r = recruits(&["--terrain", "Marsh"], "Ogre,Ogre,Troll");
    assert!(r.contains(&("Ogre".into(), vec!["Ogre".into()])));
    assert!(r.contains(&("Ogre".into(), vec!["Troll".into()])));
    assert!(r.contains(&("Troll".into(), vec!["Ogre".into(), "Ogre".into()])));
    assert!(r.contains(&("Troll".into(), vec!["Troll".into()])));
    assert!(
        !names(&r).contains(&"Ranger"),
        "one Troll is not two: {r:?}"
    );
    // Land 8 is a Marsh: the same answer by land, with the land named.
    let by_land = answer(&[
        "rules",
        "recruits",
        "--land",
        "8",
        "--legion",
        "Ogre,Ogre,Troll",
    ]);
    assert_eq!(by_land["terrain"], "Marsh");
    assert_eq!(by_land["land"], 8);
    assert_eq!(by_land["legion"], json!(["Ogre", "Ogre", "Troll"]));
    // Nothing to muster is an empty answer, not an error.
    assert!(recruits(&["--terrain", "Marsh"], "Centaur,Centaur").is_empty());
}

/// Usage errors exit with 2 and say what is wrong.
#[test]
fn unknown_names_are_usage_errors() {
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "rules",
                "moves",
                "--variant",
                "nowhere",
                "--land",
                "1",
                "--roll",
                "1",
            ],
            "no variant \"nowhere\"",
        ),
        (
            &["rules", "moves", "--land", "99", "--roll", "1"],
            "no land 99",
        ),
        (&["rules", "moves", "--land", "1", "--roll", "9"], "1 to 6"),
        (
            &["rules", "recruits", "--terrain", "Lava", "--legion", "Ogre"],
            "\"Lava\" is no terrain",
        ),
        (
            &["rules", "recruits", "--land", "8", "--legion", "Ogre,Orc"],
            "\"Orc\" is no character",
        ),
        (&["rules", "recruits", "--legion", "Ogre"], "--land"),
    ];
    for (args, says) in cases {
        let out = titan(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn every_rules_command_has_help() {
    for args in [
        &["rules", "--help"][..],
        &["rules", "moves", "--help"],
        &["rules", "recruits", "--help"],
        &["engine", "--help"],
    ] {
        let out = titan(args);
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

/// A `Hook` need is asked of the variant's scripts, as in a game: the
/// fixture's Marsh gives a Ranger to any legion of five or more.
#[test]
fn a_hook_need_runs_the_variant_script() {
    let hooked = |legion: &str| {
        let a = answer(&[
            "rules",
            "recruits",
            "--variant",
            "tests/fixtures/muster-hook",
            "--terrain",
            "Marsh",
            "--legion",
            legion,
        ]);
        a["recruits"].as_array().unwrap().clone()
    };
    let ranger = json!({"recruit": "Ranger", "reveal": []});
    assert!(hooked("Ogre,Ogre,Troll,Centaur,Centaur").contains(&ranger));
    assert!(!hooked("Ogre,Ogre,Troll").contains(&ranger));
}
