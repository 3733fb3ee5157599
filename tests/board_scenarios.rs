//! The board scenarios under `tests/scenarios/` (positions the game tests
//! start from): each loads by path over `titan engine`, and each owner's view
//! shows its legions where the file puts them, with the characters it names.
//!
//! Each file is a test of its own (a libtest-like harness, `harness = false`
//! in Cargo.toml), named by its path under `tests/`
//! (`scenarios/engagement.ron`), so that a failure names its file.

mod common;

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};

fn legion<'a>(view: &'a Value, marker: &str) -> Result<&'a Value, String> {
    view["legions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| l["marker"] == marker)
        .ok_or_else(|| format!("no legion {marker} in {view}"))
}

fn check(name: &str, file: &Path) -> Result<(), Failed> {
    let position = titan_core::game::save::Position::read(file)
        .map_err(|e| format!("{name}: not read: {e}"))?;
    // One session: the load, then a view as each legion's owner, then one
    // as the first player (for the phase).
    let mut requests = vec![json!({"cmd": "load_position", "variant": "titan", "path": file})];
    for l in &position.legions {
        requests.push(json!({"cmd": "view", "player": u64::from(l.marker.player.0)}));
    }
    requests.push(json!({"cmd": "view", "player": 0}));
    let answers: Vec<Value> =
        common::engine_session(&common::root(), Some(&std::env::temp_dir()), &requests)
            .iter()
            .map(|a| serde_json::from_str(a).map_err(|e| format!("{a:?} is no JSON: {e}")))
            .collect::<Result<_, _>>()?;
    if answers.len() != requests.len() {
        return Err(format!(
            "{name}: {} requests, {} answers",
            requests.len(),
            answers.len()
        )
        .into());
    }
    for (request, answer) in requests.iter().zip(&answers) {
        if answer["ok"] != true {
            return Err(format!("{name}: {request} -> {answer}").into());
        }
    }
    for (l, answer) in position.legions.iter().zip(&answers[1..]) {
        let seen = legion(&answer["view"], &l.marker.to_string())?;
        if seen["land"] != l.land {
            return Err(format!(
                "{name}: {} is on {}, not {}",
                l.marker, seen["land"], l.land
            )
            .into());
        }
        let mut want = l.characters.clone();
        want.sort();
        let mut got: Vec<String> = seen["characters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(String::from))
            .collect();
        got.sort();
        if got != want {
            return Err(format!("{name}: {} holds {got:?}, not {want:?}", l.marker).into());
        }
    }
    let phase = &answers.last().unwrap()["view"]["phase"];
    if *phase != json!(position.phase) {
        return Err(format!("{name}: phase {phase}, not {:?}", position.phase).into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let dir = common::root().join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    let n = files.len();
    let mut trials = vec![Trial::test("scenarios-found", move || {
        if n > 0 {
            Ok(())
        } else {
            Err("no file in tests/scenarios".into())
        }
    })];
    trials.extend(files.into_iter().map(|path| {
        let name = format!("scenarios/{}", path.file_name().unwrap().to_string_lossy());
        Trial::test(name.clone(), move || check(&name, &path))
    }));
    libtest_mimic::run(&args, trials).exit();
}
