//! Files and paths through `titan engine` and `titan check`: only regular
//! files are read, with a size limit (a FIFO or `/dev/zero` is an error, not
//! a hang); load errors never quote a foreign file; saves stay below the
//! saves folder and replace only saves; leftovers of killed saves go.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

/// Runs one engine session with saves below `saves`; returns the answers.
fn session(saves: &Path, requests: &[Value]) -> Vec<Value> {
    common::engine_session(&common::root(), Some(saves), requests)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn new_game() -> Value {
    json!({"cmd": "new_game", "variant": "titan", "players": ["A", "B"], "seed": 1})
}

fn message(answer: &Value) -> String {
    assert_eq!(answer["ok"], false, "{answer}");
    answer["error"]["message"].as_str().unwrap().to_string()
}

#[test]
fn loads_read_only_regular_files_of_bounded_size_and_quote_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.ron");
    // A sparse file past the limit: refused before it is read.
    let f = std::fs::File::create(&junk).unwrap();
    f.set_len(titan_core::files::MAX_SAVE_BYTES + 1).unwrap();
    let foreign = dir.path().join("shadow");
    std::fs::write(&foreign, "root:$6$secret-hash:19000:0:99999:7:::\n").unwrap();
    let mut requests = vec![
        json!({"cmd": "load", "path": junk}),
        json!({"cmd": "load", "path": foreign}),
        json!({"cmd": "load_position", "variant": "titan", "path": foreign}),
        json!({"cmd": "load", "path": dir.path()}),
    ];
    #[cfg(unix)]
    {
        let fifo = dir.path().join("fifo.ron");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        requests.push(json!({"cmd": "load", "path": fifo}));
        requests.push(json!({"cmd": "load_position", "variant": "titan", "path": fifo}));
        requests.push(json!({"cmd": "load", "path": "/dev/zero"}));
    }
    let answers = session(dir.path(), &requests);
    assert_eq!(answers.len(), requests.len());
    assert!(message(&answers[0]).contains("larger than the limit"));
    for a in &answers[1..3] {
        let m = message(a);
        assert!(
            m.contains("is not a save") || m.contains("is not a position"),
            "{m}"
        );
        assert!(!m.contains("root") && !m.contains("secret"), "{m}");
    }
    for a in &answers[3..] {
        assert!(message(a).contains("not a regular file"), "{a}");
    }
}

#[test]
fn saves_stay_below_the_saves_folder_and_replace_only_saves() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    std::fs::create_dir(&saves).unwrap();
    let not_a_save = saves.join("notes.ron");
    std::fs::write(&not_a_save, "my notes").unwrap();
    let outside = dir.path().join("outside.ron");
    let answers = session(
        &saves,
        &[
            new_game(),
            json!({"cmd": "save", "path": "../outside.ron"}),
            json!({"cmd": "save", "path": outside}),
            json!({"cmd": "save", "path": "notes.ron"}),
            json!({"cmd": "save", "path": "sub/game.ron"}),
            json!({"cmd": "load", "path": "sub/game.ron"}),
        ],
    );
    assert!(message(&answers[1]).contains("leaves the saves folder"));
    assert!(message(&answers[2]).contains("leaves the saves folder"));
    assert!(message(&answers[3]).contains("not a save"));
    assert!(!outside.exists());
    assert_eq!(std::fs::read_to_string(&not_a_save).unwrap(), "my notes");
    assert_eq!(answers[4]["ok"], true, "{}", answers[4]);
    assert!(saves.join("sub/game.ron").is_file());
    assert_eq!(answers[5]["ok"], true, "{}", answers[5]);
    #[cfg(unix)]
    {
        // A symbolic link inside the saves folder does not lead out of it.
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, saves.join("link")).unwrap();
        std::os::unix::fs::symlink(&outside, saves.join("game2.ron")).unwrap();
        let answers = session(
            &saves,
            &[
                new_game(),
                json!({"cmd": "save", "path": "link/game.ron"}),
                json!({"cmd": "save", "path": "game2.ron"}),
            ],
        );
        assert!(message(&answers[1]).contains("symbolic link"));
        assert!(message(&answers[2]).contains("symbolic link"));
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        assert!(!outside.exists());
    }
}

#[test]
fn leftovers_of_killed_saves_are_cleaned() {
    let dir = tempfile::tempdir().unwrap();
    let leftover = dir.path().join(".game.ron.tmp31337");
    std::fs::write(&leftover, "half").unwrap();
    let answers = session(
        dir.path(),
        &[new_game(), json!({"cmd": "save", "path": "game.ron"})],
    );
    assert_eq!(answers[1]["ok"], true, "{}", answers[1]);
    assert!(!leftover.exists(), "the next save removes it");
    std::fs::write(&leftover, "half").unwrap();
    let answers = session(dir.path(), &[json!({"cmd": "load", "path": "game.ron"})]);
    assert_eq!(answers[0]["ok"], true, "{}", answers[0]);
    assert!(!leftover.exists(), "the next load removes it");
}

/// A variant file that is a FIFO, a device or too large is an error of
/// `titan check`, not a hang.
#[cfg(unix)]
#[test]
fn variant_files_are_regular_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let variant = dir.path().join("v");
    std::fs::create_dir(&variant).unwrap();
    std::fs::write(
        variant.join("variant.ron"),
        r#"(id: "v", title: "v", version: "1", extends: "titan",
            files: (characters: "fifo.ron", hazards: "huge.ron", scripts: ["zero.lua"]))"#,
    )
    .unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(variant.join("fifo.ron"))
            .status()
            .unwrap()
            .success()
    );
    let huge = std::fs::File::create(variant.join("huge.ron")).unwrap();
    huge.set_len(titan_core::files::MAX_VARIANT_FILE_BYTES + 1)
        .unwrap();
    std::os::unix::fs::symlink("/dev/zero", variant.join("zero.lua")).unwrap();
    let errors = titan_core::load(&variant, &common::options()).unwrap_err();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let has = |file: &str, what: &str| {
        errors
            .iter()
            .any(|e| e.file.ends_with(file) && e.message.contains(what))
            || text.iter().any(|t| t.contains(file) && t.contains(what))
    };
    assert!(has("fifo.ron", "not a regular file"), "{text:#?}");
    assert!(has("huge.ron", "larger than the limit"), "{text:#?}");
    // /dev/zero is outside the variant, and not a regular file either.
    assert!(has("zero.lua", "out of the variant"), "{text:#?}");
}
