//! `titan rules strike|los|reach` as a user runs them: JSON on stdout, hexes
//! by label, characters by name; errors on stderr with exit code 1.

mod common;

use common::titan;

fn json(args: &[&str]) -> serde_json::Value {
    let out = titan(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Reference sheet, "Strike Phase": a slope native striking down adds a die,
/// and the bonus bars carry-over to an enemy it does not apply to.
#[test]
fn strike_reports_contact_strike_number_dice_and_carry_over() {
    let j = json(&[
        "rules",
        "strike",
        "--variant",
        "titan",
        "--battleland",
        "Mountains",
        "--striker",
        "Ogre@B2",
        "--target",
        "Troll@B3",
        "--place",
        "Troll@A1",
        "--place",
        "Lion@F4",
    ]);
    assert_eq!(j["contact"], true);
    assert_eq!(j["strike_number"], 4);
    assert_eq!(j["dice"], 7);
    let carry = j["carry_over"].as_array().unwrap();
    assert_eq!(carry.len(), 2);
    assert!(carry.iter().all(|c| c["carry"] == false), "{carry:?}");
}

/// Reference sheet, "Strike Phase": carry-over to a target needing no higher
/// strike number.
#[test]
fn strike_allows_carry_over_to_an_easier_target() {
    let j = json(&[
        "rules",
        "strike",
        "--variant",
        "titan",
        "--battleland",
        "Plains",
        "--striker",
        "Cyclops@C3",
        "--target",
        "Centaur@C4",
        "--place",
        "Ogre@D3",
    ]);
    assert_eq!(j["strike_number"], 6);
    assert_eq!(j["carry_over"][0]["character"], "Ogre");
    assert_eq!(j["carry_over"][0]["hex"], "D3");
    assert_eq!(j["carry_over"][0]["carry"], true);
}

/// Cliffs break contact (Law of the Battlelands 26.C, footnote).
#[test]
fn strike_across_a_cliff_is_not_in_contact() {
    let j = json(&[
        "rules",
        "strike",
        "--variant",
        "titan",
        "--battleland",
        "Mountains",
        "--striker",
        "Ogre@B1",
        "--target",
        "Troll@C2",
    ]);
    assert_eq!(j["contact"], false);
}

/// Gods of Titan 12.7 (Cliff with a Dune, EN 905): `titan rules los` names
/// the `SightCrossed` rule a line breaks.
#[test]
fn los_explains_a_rule_counted_over_the_line() {
    let j = json(&[
        "rules",
        "los",
        "--variant",
        "gods-of-titan",
        "--battleland",
        "Desert",
        "--striker",
        "Ranger@A1",
        "--target",
        "Troll@D4",
    ]);
    assert_eq!(j["possible"], false);
    assert_eq!(
        j["reason"],
        "the line crosses a Dune once: an end must stand atop one"
    );
}

/// Hazard chart (Cliff): blocked unless an end is atop.
#[test]
fn los_reports_range_path_and_reason() {
    let j = json(&[
        "rules",
        "los",
        "--variant",
        "titan",
        "--battleland",
        "Desert",
        "--striker",
        "Giant@D5",
        "--target",
        "Troll@D3",
    ]);
    assert_eq!(j["range"], 3);
    assert_eq!(j["path"], serde_json::json!(["D5", "D4", "D3"]));
    assert_eq!(j["possible"], false);
    assert!(j["reason"].as_str().unwrap().contains("Cliff"));
    let j = json(&[
        "rules",
        "los",
        "--variant",
        "titan",
        "--battleland",
        "Plains",
        "--striker",
        "Giant@A1",
        "--target",
        "Troll@C2",
        "--ally",
        "Ogre@B1",
    ]);
    assert_eq!(j["possible"], true);
    assert_eq!(j["path"], serde_json::json!(["A1", "B2", "C2"]));
    assert!(j.get("reason").is_none());
}

/// Law of the Battlelands 26.B-C: skill hexes, slowed by bramble.
#[test]
fn reach_lists_the_hexes() {
    let j = json(&[
        "rules",
        "reach",
        "--variant",
        "titan",
        "--battleland",
        "Brush",
        "--character",
        "Troll@A1",
        "--place",
        "Lion@C2",
    ]);
    assert_eq!(
        j["hexes"],
        serde_json::json!(["A2", "B1", "B2", "B3", "C1"])
    );
    let j = json(&[
        "rules",
        "reach",
        "--variant",
        "titan",
        "--battleland",
        "Brush",
        "--character",
        "Troll@A1",
        "--place",
        "Lion@A2",
    ]);
    assert_eq!(j["hexes"], serde_json::json!([]), "locked in contact");
}

#[test]
fn bad_input_is_a_clear_error() {
    for args in [
        &[
            "rules",
            "reach",
            "--variant",
            "titan",
            "--battleland",
            "Brush",
            "--character",
            "Troll@Z1",
        ][..],
        &[
            "rules",
            "reach",
            "--variant",
            "titan",
            "--battleland",
            "Moon",
            "--character",
            "Troll@A1",
        ][..],
        &[
            "rules",
            "los",
            "--variant",
            "titan",
            "--battleland",
            "Brush",
            "--striker",
            "Trol@A1",
            "--target",
            "Ogre@C1",
        ][..],
        &[
            "rules",
            "los",
            "--variant",
            "titan",
            "--battleland",
            "Brush",
            "--striker",
            "Troll@A1",
            "--target",
            "Ogre@A1",
        ][..],
        &[
            "rules",
            "reach",
            "--variant",
            "no-such-variant",
            "--battleland",
            "Brush",
            "--character",
            "Troll@A1",
        ][..],
    ] {
        let out = titan(args);
        // Status 2, as every `titan rules` question gives for bad input
        // (README, "Unknown variants, lands, terrains or characters").
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("titan rules: "), "{err}");
        if args.contains(&"no-such-variant") {
            assert!(err.contains("no variant \"no-such-variant\""), "{err}");
            assert!(err.contains("bundled: "), "{err}");
        }
    }
}

#[test]
fn every_rules_command_has_help() {
    for cmd in ["strike", "los", "reach"] {
        let out = titan(&["rules", cmd, "--help"]);
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("--place"));
    }
}

/// `--variant` defaults to `titan` here as in `titan rules moves|recruits`
/// and every other command: the same strike (reference sheet, Battle: the
/// Strike Chart, 4 + the target's skill - the striker's = 4 + 2 - 2; power
/// 6, six dice) with and without it.
#[test]
fn the_variant_defaults_to_titan() {
    let strike = |extra: &[&str]| {
        let mut args = vec![
            "rules",
            "strike",
            "--battleland",
            "Plains",
            "--striker",
            "Ogre@C3",
            "--target",
            "Troll@C4",
        ];
        args.extend_from_slice(extra);
        let out = titan(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let plain = strike(&[]);
    assert_eq!(plain, strike(&["--variant", "titan"]));
    assert_eq!(plain["strike_number"], 4);
    assert_eq!(plain["dice"], 6);
}
