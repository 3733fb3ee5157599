//! The `titan` command as a user runs it.

mod common;

use common::titan;

use std::process::{Command, Output};

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn check_json_reports_the_titan_variant() {
    let out = titan(&["check", "--json", "variants/titan"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reports = json_lines(&out);
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(r["variant"], "titan");
    assert_eq!(r["lands"], 96);
    assert_eq!(r["battlelands"], 11);
    assert_eq!(r["hexes"], 297);
    assert_eq!(r["characters"], 24);
    assert_eq!(r["terrains"], 11);
    assert!(r["exits"].as_u64().unwrap() > 96);
    assert!(r["scripts"].is_u64());
    assert_eq!(r["errors"], serde_json::json!([]));
}

#[test]
fn check_without_arguments_checks_every_bundled_variant() {
    // In a folder holding a copy of the bundled variants: a user's own
    // variant in the repository (perhaps half written) is not this test's.
    let dir = tempfile::tempdir().unwrap();
    common::copy_bundled_into(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_titan"))
        .arg("check")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("titan: 96 lands"), "{text}");
    assert!(text.contains("titan-shorter:"), "{text}");
}

#[test]
fn check_reports_errors_with_their_place_and_fails() {
    let out = titan(&[
        "check",
        "--json",
        "tests/broken/dangling-exit",
        "variants/titan",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let reports = json_lines(&out);
    assert_eq!(reports.len(), 2);
    let errors = reports[0]["errors"].as_array().unwrap();
    assert!(!errors.is_empty());
    let e = &errors[0];
    assert!(
        e["file"]
            .as_str()
            .unwrap()
            .ends_with("dangling-exit/masterboard.ron")
    );
    assert_eq!(e["line"], 4);
    assert!(e["column"].as_u64().unwrap() > 1);
    assert!(e["message"].as_str().unwrap().contains("999"));
    assert_eq!(reports[1]["errors"], serde_json::json!([]));

    let text = titan(&["check", "tests/broken/lua-io"]);
    assert_eq!(text.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("lua-io/bad.lua:2:"), "{stdout}");
}

#[test]
fn a_folder_without_a_variant_is_an_error_not_a_panic() {
    let out = titan(&["check", "--json", "docs"]);
    assert_eq!(out.status.code(), Some(1));
    let reports = json_lines(&out);
    assert!(
        reports[0]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no variant.ron")
    );
}

#[test]
fn every_command_has_help() {
    for args in [
        &["--help"][..],
        &["check", "--help"],
        &["import", "colossus", "--help"],
    ] {
        let out = titan(args);
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

/// Absurd numbers for the online commands are refused by the command line,
/// clearly and with status 2, before anything is built from them: a
/// `--seats` count once made the bot allocate a list of that many seats and
/// abort, and a huge `--lease` overflowed the server's clock in its games.
#[test]
fn absurd_numbers_for_bot_and_serve_are_refused_not_a_crash() {
    for (args, says) in [
        (
            &[
                "bot",
                "--server",
                "127.0.0.1:1",
                "--user",
                "ann",
                "--password",
                "secret1",
                "--create",
                "titan",
                "--seats",
                "99999999999",
            ][..],
            "--seats <N>",
        ),
        (&["serve", "--lease", "18446744073709551615"][..], "--lease"),
        (&["serve", "--lease", "0"][..], "--lease"),
    ] {
        let out = titan(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Every option of `titan bot` is explained in its help.
#[test]
fn bot_help_explains_the_password() {
    let out = titan(&["bot", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("--password"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("6 to 256 bytes"), "{line}");
}

/// `titan serve` opening a SQLite database not yet made, in the forms a
/// user types: `sqlite:///ABSOLUTE` (as sqlx documents it, without
/// `?mode=rwc`), `sqlite://RELATIVE`, and a plain path, relative or
/// absolute. Each makes the file (docs/online.md, "Running a server"). The
/// port is taken, so the server stops right after opening the database,
/// saying why.
#[test]
fn serve_makes_a_new_sqlite_file_in_every_form_of_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let listen = taken.local_addr().unwrap().to_string();
    let abs = |name: &str| dir.path().join(name);
    let cases = [
        (
            format!("sqlite://{}", abs("a.sqlite").display()),
            abs("a.sqlite"),
        ),
        (
            "sqlite://relative.sqlite".to_string(),
            abs("relative.sqlite"),
        ),
        ("plain.sqlite".to_string(), abs("plain.sqlite")),
        (
            abs("plain abs.sqlite").display().to_string(),
            abs("plain abs.sqlite"),
        ),
    ];
    for (url, file) in cases {
        assert!(!file.exists());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
            .args(["serve", "--listen", &listen, "--database", &url])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{url}: {err}");
        assert!(err.contains("cannot listen"), "{url}: {err}");
        assert!(file.is_file(), "{url}: {} not made; {err}", file.display());
    }
    drop(taken);
}

/// Output that cannot be written (a full disk: `/dev/full`) is said in one
/// line and fails, for every command that prints; never a panic, never a
/// success that lost its output.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_an_error_not_a_panic() {
    for args in [
        &["check", "variants/titan"][..],
        &["check", "--json", "variants/titan"][..],
        &["rules", "moves", "--land", "1", "--roll", "1"][..],
        &[
            "rules",
            "strike",
            "--variant",
            "titan",
            "--battleland",
            "Plains",
            "--striker",
            "Ogre@C3",
            "--target",
            "Troll@C4",
        ][..],
        &["simulate", "battles", "--n", "1"][..],
        &["simulate", "games", "--n", "1", "--json"][..],
        &[
            "odds",
            "--battleland",
            "Plains",
            "--attacker",
            "Ogre",
            "--defender",
            "Ogre",
            "--play",
            "random",
            "--n",
            "1",
        ][..],
        &["engine"][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_titan"))
            .args(args)
            .current_dir(common::root())
            .stdin(std::process::Stdio::piped())
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            // Commands other than `engine` do not read it (and may be gone).
            let _ = writeln!(stdin, r#"{{"cmd": "variants"}}"#);
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_count_of_one_is_singular() {
    // The audit's "1 battles" and "played 1 random games": every count goes
    // through one helper, in every command that prints counts.
    let text = |args: &[&str]| {
        let out = titan(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let check = text(&[
        "check",
        "variants/titan",
        "--play",
        "1",
        "--max-actions",
        "1",
    ]);
    assert!(
        check.contains("played 1 random game: 0 finished"),
        "{check}"
    );
    assert!(
        check.contains("seed 0: unfinished after 1 action\n"),
        "{check}"
    );
    let battles = text(&["simulate", "battles", "-n", "1"]);
    assert!(
        battles.starts_with("1 random battle of titan (seed 0):"),
        "{battles}"
    );
    let games = text(&[
        "simulate",
        "games",
        "--players",
        "2",
        "-n",
        "1",
        "--max-turns",
        "1",
    ]);
    assert!(
        games.starts_with("1 random 2-player game of titan (seed 0, at most 1 turn):"),
        "{games}"
    );
    let odds = text(&[
        "odds",
        "--battleland",
        "Plains",
        "--attacker",
        "Ogre",
        "--defender",
        "Ogre",
        "--play",
        "random",
        "-n",
        "1",
    ]);
    assert!(
        odds.starts_with("1 battle of titan on the Plains battleland"),
        "{odds}"
    );
    assert!(odds.contains("(seed 0):"), "{odds}");
    // Two stay plural.
    let two = text(&["simulate", "battles", "-n", "2", "--seed", "5"]);
    assert!(
        two.starts_with("2 random battles of titan (seeds 5 to 6):"),
        "{two}"
    );
}

#[test]
fn check_refuses_a_variants_or_scripts_folder_that_is_not_one() {
    // As other bad input: one line on stderr naming it, exit 2, nothing checked.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    for (option, path, says) in [
        ("--variants", &missing, "no such folder"),
        ("--variants", &file, "a file, not a folder"),
        ("--scripts", &missing, "no such folder"),
    ] {
        let out = titan(&["check", option, path.to_str().unwrap(), "variants/titan"]);
        assert_eq!(out.status.code(), Some(2), "{option} {path:?}");
        assert!(out.stdout.is_empty(), "{option} {path:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("{option} {}: {says}", path.display())),
            "{err}"
        );
    }
}

#[test]
fn check_play_json_gives_each_outcome_as_fields() {
    // Structured as `titan engine` gives an outcome (docs/protocol.md):
    // {"Winner": seat} or {"Draw": [seats]}, seats from 0; null unfinished.
    let out = titan(&["check", "--json", "variants/titan", "--play", "2"]);
    assert!(out.status.success());
    let play = &json_lines(&out)[0]["play"];
    let outcomes = play["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    let mut ended = 0;
    for (seed, o) in outcomes.iter().enumerate() {
        assert_eq!(o["seed"], seed as u64);
        let text = o["text"].as_str().unwrap();
        let actions = o["actions"].as_u64().unwrap();
        assert!(text.ends_with(&format!(" after {actions} actions")), "{o}");
        if let Some(seat) = o["outcome"]["Winner"].as_u64() {
            ended += 1;
            assert!(o["stopped"].is_null(), "{o}");
            assert!(
                text.starts_with(&format!("seed {seed}: Player {} wins", seat + 1)),
                "{o}"
            );
        } else if let Some(seats) = o["outcome"]["Draw"].as_array() {
            ended += 1;
            assert!(seats.len() > 1, "{o}");
        } else {
            assert!(o["outcome"].is_null() && o["stopped"].is_string(), "{o}");
        }
    }
    assert_eq!(play["finished"], ended);

    // Cut short: no outcome, and why it stopped.
    let out = titan(&[
        "check",
        "--json",
        "variants/titan",
        "--play",
        "1",
        "--max-actions",
        "3",
    ]);
    let o = &json_lines(&out)[0]["play"]["outcomes"][0];
    assert!(o["outcome"].is_null(), "{o}");
    assert_eq!(o["stopped"], "max_actions");
    assert_eq!(o["actions"], 3);
    assert_eq!(o["text"], "seed 0: unfinished after 3 actions");
}

#[test]
fn check_warns_of_an_option_nothing_reads() {
    // docs/variant-format.md, "options": an option neither the engine nor
    // a script names (a misspelt `point_limit`) is a warning at its line,
    // not an error; options the scripts read are not warned of.
    let out = titan(&["check", "tests/fixtures/options-typo"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "a warning does not fail: {text}");
    assert!(
        text.contains(
            "options-typo/variant.ron:9:16: warning: option `point_limt` is read by neither the engine nor any script"
        ),
        "{text}"
    );
    let out = titan(&["check", "--json", "tests/fixtures/options-typo"]);
    let w = &json_lines(&out)[0]["warnings"];
    assert_eq!(w.as_array().unwrap().len(), 1, "{w}");
    assert_eq!(w[0]["line"], 9);
    let out = titan(&[
        "check",
        "--json",
        "tests/fixtures/house-options",
        "variants/titan",
    ]);
    for r in json_lines(&out) {
        assert_eq!(r["warnings"], serde_json::json!([]), "{r}");
    }
}

/// `titan serve` takes its options from the environment too
/// (TITAN_LISTEN, TITAN_DATABASE), the command line winning; `titan bot`
/// reads its password from TITAN_PASSWORD or a file, so that it need not
/// show in `ps`.
#[test]
fn serve_and_bot_take_their_options_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let listen = taken.local_addr().unwrap().to_string();
    let titan = || {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_titan"));
        c.current_dir(dir.path())
            .env_remove("TITAN_LISTEN")
            .env_remove("TITAN_DATABASE")
            .env_remove("TITAN_PASSWORD")
            .env_remove("TITAN_PASSWORD_FILE");
        c
    };
    // The database named by the environment is made, and the address the
    // environment names is the one refused (it is taken).
    let out = titan()
        .args(["serve"])
        .env("TITAN_LISTEN", &listen)
        .env("TITAN_DATABASE", "from-env.sqlite")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot listen") && err.contains(&listen),
        "{err}"
    );
    assert!(dir.path().join("from-env.sqlite").is_file(), "{err}");
    // The command line wins over the environment.
    let out = titan()
        .args([
            "serve",
            "--listen",
            &listen,
            "--database",
            "from-flag.sqlite",
        ])
        .env("TITAN_DATABASE", "not-this.sqlite")
        .output()
        .unwrap();
    assert!(dir.path().join("from-flag.sqlite").is_file());
    assert!(!dir.path().join("not-this.sqlite").exists());
    assert_eq!(out.status.code(), Some(1));
    drop(taken);
    // The bot: no password at all is a usage error naming the ways to give
    // one; an empty password file is refused before connecting.
    let bot = || {
        let mut c = titan();
        c.args([
            "bot",
            "--server",
            "127.0.0.1:1",
            "--user",
            "bob",
            "--join",
            "g",
        ]);
        c
    };
    let out = bot().output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--password-file"), "{err}");
    std::fs::write(dir.path().join("empty"), "").unwrap();
    let out = bot()
        .env("TITAN_PASSWORD_FILE", dir.path().join("empty"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is empty"), "{err}");
    // `--help` names the variables, never a password's value.
    let out = titan()
        .args(["bot", "--help"])
        .env("TITAN_PASSWORD", "sekrit-pw")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("TITAN_PASSWORD"), "{help}");
    assert!(!help.contains("sekrit-pw"), "{help}");
}

/// `titan serve` refuses to start with no variants to offer, and says at
/// start which database (without its password) and which variants it serves.
#[test]
fn serve_names_its_database_and_variants_and_refuses_none() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database", "x.sqlite"])
        .arg("--variants")
        .arg(&empty)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no variants under"), "{err}");
    assert!(!dir.path().join("x.sqlite").exists(), "nothing made: {err}");
    // With the bundled variants, on a taken address: it names them and the
    // database before failing to listen.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let listen = taken.local_addr().unwrap().to_string();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--listen", &listen, "--database", "y.sqlite"])
        .arg("--variants")
        .arg(&root)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("database=y.sqlite"), "{said}");
    assert!(said.contains("titan,titan-1980,titan-shorter"), "{said}");
    assert_eq!(out.status.code(), Some(1));
    drop(taken);
}

/// A database that cannot be reached at start is said at once, with the
/// reason ("Connection refused"), not after the pool's wait as "timed out".
#[test]
fn serve_says_at_once_that_its_database_refuses() {
    // A port nobody listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database"])
        .arg(format!("postgres://titan:pw@127.0.0.1:{port}/titan"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.to_lowercase().contains("refused"), "{err}");
    assert!(!err.contains("pw@"), "the password is not shown: {err}");
}
