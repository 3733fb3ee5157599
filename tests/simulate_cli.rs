//! `titan simulate battles|games` as a user runs it: reproducible counts that
//! add up, limits respected, bad input refused with a clear message.

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
    for timing in [
        "seconds",
        "cpu_seconds",
        "battles_per_second",
        "games_per_second",
        "actions_per_second",
        "peak_memory_kib",
    ] {
        o.remove(timing);
    }
    v
}

const SEVEN_ON_SEVEN: [&str; 6] = [
    "--battleland",
    "Mountains",
    "--attacker",
    "Ogre,Troll,Lion,Minotaur,Giant,Dragon,Colossus",
    "--defender",
    "Cyclops,Warbear,Unicorn,Behemoth,Hydra,Gorgon,Ranger",
];

#[test]
fn battles_add_up_and_repeat_for_a_seed() {
    let mut args = vec!["simulate", "battles", "--n", "40", "--seed", "5", "--json"];
    args.extend(SEVEN_ON_SEVEN);
    let a = report(&args);
    assert_eq!(a, report(&args), "the same seed plays the same battles");
    let n = |k: &str| a[k].as_u64().unwrap();
    assert_eq!(n("battles"), 40);
    assert_eq!(n("attacker_wins") + n("defender_wins") + n("mutual"), 40);
    assert!(n("time_losses") <= n("defender_wins"));
    assert_eq!(a["errors"], serde_json::json!([]));
    // A battle lasts at most 7 rounds (Law of the Battlelands 25.E).
    let rounds = a["average_rounds"].as_f64().unwrap();
    assert!((1.0..=7.0).contains(&rounds), "{rounds}");
    // The histogram of rounds counts every battle, each within the limit
    // (a battle lost on time counts the 7 rounds it lasted).
    let bins = a["rounds"].as_array().unwrap();
    let counted: u64 = bins.iter().map(|b| b["battles"].as_u64().unwrap()).sum();
    assert_eq!(counted, 40);
    assert!(bins.iter().all(|b| b["last_round"].as_u64().unwrap() <= 7));
    args[5] = "6";
    assert_ne!(a, report(&args), "another seed, other battles");
}

#[test]
fn the_text_report_draws_shares_and_lengths() {
    let mut args = vec!["simulate", "battles", "--n", "100", "--seed", "1"];
    args.extend(SEVEN_ON_SEVEN);
    let out = titan(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rounds the battles lasted:"), "{text}");
    let bars = text.lines().filter(|l| l.contains('█')).count();
    assert!(bars >= 3, "a bar per outcome and per round range: {text}");
    let out = titan(&["simulate", "games", "--n", "30", "--seed", "1", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let finished = v["games"].as_u64().unwrap() - v["unfinished"].as_u64().unwrap();
    let counted: u64 = v["finished_lengths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["games"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, finished, "every finished game is in the histogram");
}

#[test]
fn random_legions_on_random_battlelands() {
    let a = report(&["simulate", "battles", "--n", "30", "--json"]);
    let n = |k: &str| a[k].as_u64().unwrap();
    assert_eq!(n("attacker_wins") + n("defender_wins") + n("mutual"), 30);
}

#[test]
fn games_add_up_and_stop_at_the_turn_limit() {
    let args = [
        "simulate",
        "games",
        "--players",
        "3",
        "--n",
        "4",
        "--seed",
        "2",
        "--json",
    ];
    let a = report(&args);
    assert_eq!(a, report(&args));
    let wins: u64 = a["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(a["wins"].as_array().unwrap().len(), 3);
    assert_eq!(
        wins + a["draws"].as_u64().unwrap() + a["unfinished"].as_u64().unwrap(),
        4
    );
    // Nobody wins the first game turn: every game stopped there is unfinished.
    let short = report(&[
        "simulate",
        "games",
        "--players",
        "random,random",
        "--n",
        "3",
        "--max-turns",
        "1",
        "--json",
    ]);
    assert_eq!(short["unfinished"], 3);
    assert_eq!(short["average_turns"], 1.0);
}

#[test]
fn text_report_names_rates() {
    let out = titan(&["simulate", "battles", "--n", "5"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("5 random battles of titan"), "{text}");
    assert!(text.contains("battles per second"), "{text}");
}

#[test]
fn bad_input_is_refused_clearly() {
    for (args, says) in [
        (
            vec![
                "simulate",
                "battles",
                "--attacker",
                "Ogre,Nobody",
                "--n",
                "1",
            ],
            "\"Nobody\" is no character of titan",
        ),
        (
            vec!["simulate", "battles", "--battleland", "Moon", "--n", "1"],
            "\"Moon\" is no terrain of titan",
        ),
        (
            vec!["simulate", "battles", "--edge", "Up", "--n", "1"],
            "\"Up\" is no edge",
        ),
        (
            vec!["simulate", "games", "--players", "7", "--n", "1"],
            "played by 2 to 6 players, not 7",
        ),
        (
            vec![
                "simulate",
                "games",
                "--variant",
                "variants/gods-of-titan",
                "--n",
                "1",
            ],
            "gods-of-titan is played by 3 players, not 4",
        ),
        (
            vec![
                "simulate",
                "games",
                "--players",
                "random,genius",
                "--n",
                "1",
            ],
            "\"genius\" is no player level",
        ),
        (
            vec!["simulate", "games", "--variant", "nowhere", "--n", "1"],
            "no variant \"nowhere\"",
        ),
        // Nothing to play is refused, as by `titan odds` and `titan tournament`.
        (
            vec!["simulate", "battles", "--n", "0"],
            "--n 0 plays nothing",
        ),
        (vec!["simulate", "games", "-n", "0"], "--n 0 plays nothing"),
        // Run i uses seed + i: seeds past the largest are refused, not
        // wrapped round to 0.
        (
            vec![
                "simulate",
                "battles",
                "--n",
                "3",
                "--seed",
                "18446744073709551615",
            ],
            "goes past the largest seed, 18446744073709551615: give --seed 18446744073709551613 at most",
        ),
        (
            vec![
                "tournament",
                "--seats",
                "random,random",
                "--games",
                "2",
                "--seed",
                "18446744073709551615",
            ],
            "give --seed 18446744073709551614 at most",
        ),
        // An edge the attacker may not enter by is refused at once, not
        // met by every battle (Law of the Battlelands 25.A), and so is
        // another side than the Tower's (25.B), which the battle ignores.
        (
            vec!["simulate", "battles", "--edge", "NorthEast", "--n", "1"],
            "one of NorthWest, East, SouthWest",
        ),
        (
            vec![
                "simulate",
                "battles",
                "--battleland",
                "Tower",
                "--edge",
                "West",
                "--n",
                "1",
            ],
            "always enters the Tower battleland by SouthWest",
        ),
    ] {
        let out = titan(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn help_describes_both_simulations() {
    let out = titan(&["simulate", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("battles") && text.contains("games"), "{text}");
}

#[test]
fn battles_alone_read_the_variants_option_defaults() {
    // docs/scripting.md, `ctx:option`: a battle started alone has no game
    // setting; its handlers read the options' defaults.
    let a = report(&[
        "simulate",
        "battles",
        "--variant",
        "tests/fixtures/house-options",
        "--n",
        "10",
        "--json",
    ]);
    assert_eq!(a["errors"], serde_json::json!([]));
    assert_eq!(a["battles"], 10);
}

#[test]
fn scripts_names_the_shared_scripts_folder_as_for_check() {
    // README, `titan simulate` / `odds` / `tournament`: `--scripts DIR` reads
    // a variant's `shared:` scripts from DIR, as `titan check --scripts`.
    let dir = tempfile::tempdir().unwrap();
    let variant = dir.path().join("elsewhere");
    let shared = dir.path().join("my-scripts");
    std::fs::create_dir_all(&variant).unwrap();
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(
        variant.join("variant.ron"),
        r#"(id: "elsewhere", title: "Titan, shared scripts elsewhere", version: "0.1.0", extends: "titan",
            files: (scripts: ["shared:elsewhere.lua"]))"#,
    )
    .unwrap();
    std::fs::write(
        shared.join("elsewhere.lua"),
        "titan.on(\"battle_phase_start\", function(ctx) end)\n",
    )
    .unwrap();
    let (v, s) = (variant.to_str().unwrap(), shared.to_str().unwrap());
    let runs: [&[&str]; 3] = [
        &["simulate", "battles", "--n", "2"],
        &[
            "odds",
            "--battleland",
            "Plains",
            "--attacker",
            "Ogre",
            "--defender",
            "Troll",
            "--n",
            "2",
        ],
        &[
            "tournament",
            "--seats",
            "random,random",
            "--games",
            "1",
            "--max-turns",
            "2",
        ],
    ];
    for args in runs {
        let with = |extra: &[&str]| {
            let mut a = args.to_vec();
            a.extend(["--variant", v]);
            a.extend(extra);
            titan(&a)
        };
        let out = with(&["--scripts", s]);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Without it, the repository's scripts/ has no such script.
        let out = with(&[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("elsewhere.lua"), "{args:?}: {err}");
        // A --scripts that is not a folder is refused and said.
        let out = with(&["--scripts", "no/such/folder"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("--scripts no/such/folder: no such folder"),
            "{args:?}: {err}"
        );
    }
}
