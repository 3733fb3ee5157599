//! `titan engine` refuses what its documentation says it refuses
//! (docs/protocol.md, "Requests and responses"), with a clear error, and
//! echoes each request's `id` exactly as sent.

mod common;

use serde_json::Value;

/// Runs one engine session on these lines; the raw response lines.
fn session(lines: &[&str]) -> Vec<String> {
    common::engine_session(&common::root(), None, lines)
}

fn json(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

/// Each line must be refused with an error of `kind` whose message contains
/// the text; the session goes on.
fn refused(cases: &[(&str, &str, &str)]) {
    let lines: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let out = session(&lines);
    assert_eq!(out.len(), cases.len());
    for ((line, kind, text), answer) in cases.iter().zip(&out) {
        let a = json(answer);
        assert_eq!(a["ok"], false, "{line} -> {answer}");
        assert_eq!(a["error"]["kind"], *kind, "{line} -> {answer}");
        let message = a["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(text),
            "{line} -> {message:?}, expected {text:?}"
        );
    }
}

#[test]
fn duplicate_keys_are_refused_at_any_depth() {
    refused(&[
        (
            r#"{"cmd": "to_act", "cmd": "variants"}"#,
            "json",
            "the key \"cmd\" is given twice",
        ),
        (
            r#"{"cmd": "moves", "variant": "titan", "land": 1, "roll": 1, "roll": 6}"#,
            "json",
            "the key \"roll\" is given twice",
        ),
        (
            r#"{"cmd": "new_game", "variant": "titan", "players": ["A", "B"], "options": {"mulligan": true, "mulligan": false}}"#,
            "json",
            "the key \"mulligan\" is given twice",
        ),
    ]);
}

#[test]
fn unknown_fields_are_refused_on_every_command() {
    refused(&[
        (
            r#"{"cmd": "to_act", "player": 0}"#,
            "request",
            "unknown field `player`",
        ),
        (
            r#"{"cmd": "variants", "verbose": true}"#,
            "request",
            "unknown field `verbose`",
        ),
    ]);
}

/// Players are named by name (docs/protocol.md, "Names on the wire"): names
/// are non-empty, distinct, and at most 64 bytes.
#[test]
fn player_names_must_be_distinct_present_and_short() {
    let long = format!(
        r#"{{"cmd": "new_game", "variant": "titan", "players": ["Ann", "{}"]}}"#,
        "n".repeat(1 << 20)
    );
    refused(&[
        (
            r#"{"cmd": "new_game", "variant": "titan", "players": ["Ann", "Ann"]}"#,
            "setup",
            "two players are named \"Ann\"",
        ),
        (
            r#"{"cmd": "new_game", "variant": "titan", "players": ["Ann", ""]}"#,
            "setup",
            "player 1 has an empty name",
        ),
        (
            &long,
            "setup",
            "player 1's name is 1048576 bytes long; the most is 64",
        ),
    ]);
}

/// Options have the type of their default and the manifest's bounds; a
/// wrong one is refused, not replaced by the default.
#[test]
fn options_of_the_wrong_type_or_out_of_range_are_refused() {
    let new = |o: &str| {
        format!(
            r#"{{"cmd": "new_game", "variant": "titan", "players": ["A", "B"], "options": {o}}}"#
        )
    };
    let (a, b, c, d, e) = (
        new(r#"{"mulligan": 3}"#),
        new(r#"{"point_limit": "lots"}"#),
        new(r#"{"point_limit": -5}"#),
        new(r#"{"point_limit": 2.5}"#),
        new(r#"{"speed": 1}"#),
    );
    refused(&[
        (&a, "setup", "option \"mulligan\" is true or false, not 3"),
        (
            &b,
            "setup",
            "option \"point_limit\" is an integer, not \"lots\"",
        ),
        (&c, "setup", "option \"point_limit\" is at least 0, not -5"),
        (
            &d,
            "request",
            "option \"point_limit\": 2.5 is no option value",
        ),
        (
            &e,
            "setup",
            "titan has no option \"speed\" (its options: mulligan, point_limit, tower_order)",
        ),
    ]);
    let ok = session(&[&new(r#"{"point_limit": 200, "mulligan": false}"#)]);
    assert_eq!(json(&ok[0])["ok"], true, "{}", ok[0]);
    // A position's options are checked the same way.
    let position = r#"{"cmd": "load_position", "variant": "titan", "position": {"options": {"mulligan": 3}, "players": [{"name": "Ann", "tower": 500}, {"name": "Bob", "tower": 200}], "legions": [{"marker": "P1-01", "land": 100, "characters": ["Titan"]}], "active": 0, "phase": "Move"}}"#;
    refused(&[(
        position,
        "load",
        "option \"mulligan\" is true or false, not 3",
    )]);
}

/// Legion markers have one spelling, "P2-01" (docs/protocol.md, "Names on
/// the wire").
#[test]
fn markers_have_one_spelling() {
    let setup = r#"{"cmd": "load_position", "variant": "titan", "position": {"players": [{"name": "Ann", "tower": 500}, {"name": "Bob", "tower": 200}], "legions": [{"marker": "P1-01", "land": 100, "characters": ["Titan", "Ogre", "Ogre"]}, {"marker": "P2-01", "land": 3, "characters": ["Gargoyle", "Centaur", "Lion"]}], "active": 0, "phase": "Muster"}}"#;
    let bad_position = setup.replace("\"P2-01\"", "\"P2-0001\"");
    let out = session(&[
        setup,
        r#"{"cmd": "apply", "player": 0, "action": {"action": "Muster", "legion": "P1-0001", "recruit": "Ogre", "reveal": ["Ogre"]}}"#,
        r#"{"cmd": "apply", "player": 0, "action": {"action": "Muster", "legion": "P1-1", "recruit": "Ogre", "reveal": ["Ogre"]}}"#,
        &bad_position,
    ]);
    assert_eq!(json(&out[0])["ok"], true, "{}", out[0]);
    for (answer, spelled) in [(&out[1], "P1-0001"), (&out[2], "P1-1")] {
        let a = json(answer);
        assert_eq!(a["error"]["kind"], "request", "{answer}");
        let m = a["error"]["message"].as_str().unwrap();
        assert!(
            m.contains(&format!("{spelled:?} is no legion marker: write it P1-01")),
            "{m}"
        );
    }
    let a = json(&out[3]);
    assert_eq!(a["ok"], false, "{}", out[3]);
    assert!(
        a["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"P2-0001\" is no legion marker")
    );
}

/// docs/protocol.md: "Any request may carry an id (any JSON value); the
/// response echoes it", as sent, byte for byte.
#[test]
fn the_id_is_echoed_exactly_as_sent() {
    let ids = [
        "1",
        "1.0",
        "1e2",
        "-0",
        "123456789012345678901234567890",
        r#""\u0041b""#,
        r#"{"b": [1, 2.50], "a": null}"#,
        "null",
        "[]",
    ];
    let lines: Vec<String> = ids
        .iter()
        .flat_map(|id| {
            [
                format!(r#"{{"id": {id}, "cmd": "to_act"}}"#),
                format!(
                    r#"{{"cmd": "moves", "variant": "titan", "land": 1, "roll": 1, "id": {id}}}"#
                ),
            ]
        })
        .collect();
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&refs);
    for (i, id) in ids.iter().enumerate() {
        for answer in [&out[2 * i], &out[2 * i + 1]] {
            assert!(
                answer.starts_with(&format!("{{\"id\":{id},")),
                "{id} -> {answer}"
            );
            json(answer);
        }
        assert_eq!(json(&out[2 * i])["ok"], false);
        assert_eq!(json(&out[2 * i + 1])["ok"], true);
    }
}

/// A failing script is a script error, never a rule refusal: a Lua error
/// names the script and line and is never confused with a rule refusal
/// (docs/scripting.md, "Errors"); a query that met one says so beside its
/// answer.
#[test]
fn failing_scripts_are_reported_as_script_errors() {
    let position = r#"{"players": [{"name": "Red", "tower": 100, "score": 150}, {"name": "Blue", "tower": 400, "score": 250}], "legions": [{"marker": "P1-01", "land": 20, "characters": ["Titan", "Ogre", "Ogre"], "moved": true, "entered_from": 19}, {"marker": "P1-02", "land": 100, "characters": ["Angel", "Centaur", "Centaur"]}, {"marker": "P2-01", "land": 20, "characters": ["Titan", "Lion", "Gargoyle"]}, {"marker": "P2-02", "land": 41, "characters": ["Angel", "Troll", "Troll"]}], "active": 0, "phase": "Engage", "turn": 9}"#;
    let load = format!(
        r#"{{"id": 1, "cmd": "load_position", "variant": "tests/fixtures/failing-hooks", "position": {position}}}"#
    );
    let out = session(&[
        &load,
        r#"{"id": 2, "cmd": "apply", "player": "Red", "action": {"action": "Engage", "land": 20}}"#,
        r#"{"id": 3, "cmd": "apply", "player": "Blue", "action": {"action": "Concede"}}"#,
        r#"{"id": 4, "cmd": "view", "player": "Red"}"#,
    ]);
    let a: Vec<Value> = out.iter().map(|l| json(l)).collect();
    assert_eq!(a[0]["ok"], true, "{}", out[0]);
    assert_eq!(a[1]["ok"], true, "{}", out[1]);
    // Blue's Titan power (250 points) comes from a hook that fails.
    assert_eq!(a[2]["ok"], false, "{}", out[2]);
    assert_eq!(a[2]["error"]["kind"], "script", "{}", out[2]);
    let message = a[2]["error"]["message"].as_str().unwrap();
    assert!(message.contains("hooks.lua:9:"), "{message}");
    // The view shows Blue's Titan power from the data, and says why.
    assert_eq!(a[3]["ok"], true, "{}", out[3]);
    let error = a[3]["script_error"].as_str().expect("script_error");
    assert!(error.contains("hooks.lua:9:"), "{error}");
}
