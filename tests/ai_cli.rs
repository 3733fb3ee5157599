//! `titan tournament` and `titan odds` as a user runs them: counts that add
//! up and repeat for a seed, and bad input refused with a clear message.

mod common;

use common::titan;

use serde_json::Value;

/// The JSON report without its timings (which differ run to run).
fn report(args: &[&str]) -> Value {
    let out = titan(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("cpu_seconds");
    v
}

/// The message of a refused command (exit status 2).
fn refused(args: &[&str]) -> String {
    let out = titan(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn a_tournament_counts_every_game_and_repeats() {
    let args = [
        "tournament",
        "--seats",
        "simple,random",
        "--games",
        "4",
        "--seed",
        "7",
        "--max-turns",
        "60",
        "--json",
    ];
    let r = report(&args);
    let seats = r["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["level"], "simple");
    let unfinished = r["unfinished"].as_u64().unwrap();
    for s in seats {
        let total = s["wins"].as_u64().unwrap()
            + s["draws"].as_u64().unwrap()
            + s["losses"].as_u64().unwrap();
        assert_eq!(total + unfinished, 4, "{s}");
        let [lo, hi] = [
            s["win_rate_95"][0].as_f64().unwrap(),
            s["win_rate_95"][1].as_f64().unwrap(),
        ];
        let rate = s["win_rate"].as_f64().unwrap();
        assert!(lo <= rate && rate <= hi, "{s}");
    }
    assert_eq!(r["refused"], 0);
    assert_eq!(report(&args), r);
    // The text form names each seat and its interval.
    let out = titan(&args[..args.len() - 1]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1. simple") && text.contains("(95%: "),
        "{text}"
    );
}

#[test]
fn odds_count_every_battle_and_repeat() {
    let args = [
        "odds",
        "--battleland",
        "Plains",
        "--attacker",
        "Titan,Angel,Ogre,Ogre",
        "--defender",
        "Centaur,Centaur,Lion",
        "--play",
        "simple",
        "--n",
        "6",
        "--json",
    ];
    let r = report(&args);
    let n = r["attacker_wins"].as_u64().unwrap()
        + r["defender_wins"].as_u64().unwrap()
        + r["mutual"].as_u64().unwrap();
    assert_eq!(n, 6);
    assert!(r["time_losses"].as_u64().unwrap() <= r["defender_wins"].as_u64().unwrap());
    assert_eq!(report(&args), r);
    let strong = report(&[
        "odds",
        "--battleland",
        "Plains",
        "--attacker",
        "Ogre,Ogre",
        "--defender",
        "Ogre",
        "--n",
        "2",
        "--budget",
        "200",
        "--json",
    ]);
    assert_eq!(strong["play"], "strong");
    assert_eq!(strong["battles"], 2);
}

/// Odds of an engagement as in a game: the attacker enters the battleland
/// by the side it came from (Law of the Battlelands 25.A), derived from the
/// engaged land and the land it entered from; the Tower fixes its own
/// (25.B).
#[test]
fn odds_use_the_side_the_attacker_enters_by() {
    let side = |args: &[&str]| {
        let mut all = vec![
            "odds",
            "--attacker",
            "Ogre,Ogre",
            "--defender",
            "Troll",
            "--play",
            "simple",
            "--n",
            "1",
            "--json",
        ];
        all.extend_from_slice(args);
        let r = report(&all);
        (
            r["battleland"].as_str().unwrap().to_string(),
            r["entry_side"].as_str().unwrap().to_string(),
        )
    };
    // Land 2 (Woods) is entered from land 1 or land 7, by two sides.
    let a = side(&["--land", "2", "--from", "1"]);
    let b = side(&["--land", "2", "--from", "7"]);
    assert_eq!(a.0, "Woods");
    assert_ne!(a.1, b.1, "{a:?} {b:?}");
    // The same side given by name.
    assert_eq!(side(&["--battleland", "Woods", "--entry-side", &b.1]), b);
    // The Tower battleland fixes the attacker's side, wherever it came from.
    let tower = side(&["--battleland", "Tower"]);
    for from in ["3", "41", "101"] {
        assert_eq!(side(&["--land", "100", "--from", from]), tower);
    }
    let m = refused(&[
        "odds",
        "--land",
        "2",
        "--from",
        "5",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
    ]);
    assert!(
        m.contains("no exit into land 2") && m.contains("1, 7"),
        "{m}"
    );
    let m = refused(&[
        "odds",
        "--land",
        "2",
        "--battleland",
        "Plains",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
    ]);
    assert!(m.contains("not the terrain of land 2"), "{m}");
    // Another side than the one the Tower fixes is refused rather than
    // printed as the side while the battle uses the Tower's (25.B); a side
    // the attacker never enters by is refused at once (25.A), not met by
    // every battle.
    let m = refused(&[
        "odds",
        "--battleland",
        "Tower",
        "--edge",
        "West",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
    ]);
    assert!(
        m.contains("always enters the Tower battleland by SouthWest"),
        "{m}"
    );
    let tower_by_name = side(&["--battleland", "Tower", "--entry-side", &tower.1]);
    assert_eq!(tower_by_name, tower);
    let m = refused(&[
        "odds",
        "--battleland",
        "Plains",
        "--entry-side",
        "NorthEast",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
    ]);
    assert!(m.contains("one of NorthWest, East, SouthWest"), "{m}");
}

#[test]
fn bad_input_is_refused_clearly() {
    let m = refused(&["tournament", "--seats", "strong,expert", "--games", "1"]);
    assert!(m.contains("\"expert\" is no player level"), "{m}");
    let m = refused(&["tournament", "--seats", "strong", "--games", "1"]);
    assert!(m.contains("lists 1 player,") && m.contains("2 to"), "{m}");
    let m = refused(&[
        "tournament",
        "--seats",
        "strong,simple",
        "--games",
        "1",
        "--budget",
        "0",
    ]);
    assert!(m.contains("budget of 0"), "{m}");
    let m = refused(&["tournament", "--seats", "strong,simple", "--games", "0"]);
    assert!(m.contains("--games 0"), "{m}");
    let m = refused(&[
        "odds",
        "--battleland",
        "Plains",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
        "--play",
        "clever",
    ]);
    assert!(m.contains("\"clever\" is no player level"), "{m}");
    let m = refused(&[
        "odds",
        "--battleland",
        "Nowhere",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
    ]);
    assert!(m.contains("Nowhere"), "{m}");
    let m = refused(&[
        "odds",
        "--battleland",
        "Plains",
        "--attacker",
        "Ogre",
        "--defender",
        "Nobody",
    ]);
    assert!(m.contains("Nobody"), "{m}");
    for cmd in ["tournament", "odds"] {
        let out = titan(&[cmd, "--help"]);
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("--json"));
    }
}

/// A variant whose characters cannot strike cannot be played: the loader
/// refuses it (a character needs skill 1), and so would the players
/// (`titan_core::ai::check_variant`, tested in core).
#[test]
fn a_variant_without_strikers_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_bundled_into(dir.path());
    let chars = dir.path().join("variants/titan/characters.ron");
    let text = std::fs::read_to_string(&chars).unwrap();
    let text = regex_free_skill_zero(&text);
    std::fs::write(&chars, text).unwrap();
    let v = dir.path().join("variants/titan");
    let v = v.to_str().unwrap();
    let m = refused(&[
        "tournament",
        "--variant",
        v,
        "--seats",
        "simple,simple",
        "--games",
        "1",
    ]);
    assert!(m.contains("skill of at least 1"), "{m}");
}

/// Every `skill: N` of a characters file set to 0.
fn regex_free_skill_zero(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("skill:") {
        out.push_str(&rest[..i + 6]);
        rest = &rest[i + 6..];
        let digits = rest
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let skip = rest.len() - rest.trim_start().len() + digits;
        out.push_str(" 0");
        rest = &rest[skip..];
    }
    out.push_str(rest);
    out
}
