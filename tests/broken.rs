//! The corpus of broken variants under `tests/broken/`: each must fail to load
//! with a clear error at the right file and line, and never panic or hang.
//!
//! Each case folder holds a variant and `expect.ron`: the file the error must
//! name (a suffix of the path), the lines it may be on (empty: any), and a
//! part of the message.
//!
//! Each folder is a test of its own (a libtest-like harness, `harness =
//! false` in Cargo.toml), named by its path under `tests/`
//! (`broken/lua-loop`), so that a failure names its case and hides none of
//! the others; a new folder is a new test without more ado.

mod common;

use libtest_mimic::{Arguments, Failed, Trial};
use serde::Deserialize;

#[derive(Deserialize)]
struct Expect {
    file: String,
    lines: Vec<usize>,
    message: String,
}

fn check_case(dir: &std::path::Path) -> Result<(), String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(dir.join("expect.ron"))
        .map_err(|e| format!("{name}: no expect.ron: {e}"))?;
    let expect: Expect = ron::from_str(&text).map_err(|e| format!("{name}: expect.ron: {e}"))?;
    let errors = match titan_core::load(dir, &common::options()) {
        Ok(_) => return Err(format!("{name}: loaded without error")),
        Err(errors) => errors,
    };
    let fits = |e: &titan_core::Diagnostic| {
        e.file.replace('\\', "/").ends_with(&expect.file)
            && (expect.lines.is_empty() || expect.lines.contains(&e.line))
            && e.message.contains(&expect.message)
            && !e.message.trim().is_empty()
    };
    if errors.iter().any(fits) {
        Ok(())
    } else {
        let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Err(format!(
            "{name}: expected an error in {} at line {:?} containing {:?}; got:\n    {}",
            expect.file,
            expect.lines,
            expect.message,
            got.join("\n    ")
        ))
    }
}

/// "compile reports every error it finds, not just the first"
/// (ARCHITECTURE.md): a variant broken in four places in three files is
/// reported in all four.
fn compile_reports_every_error() {
    let dir = common::root().join("tests/fixtures/many-errors");
    let errors = titan_core::load(&dir, &common::options()).unwrap_err();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let expected = [
        ("variant.ron", "only 5 tower lands"),
        ("rules.ron", "min_split_size 8 is larger than max_size 7"),
        ("mustering.ron", "Warbear needs 99 characters shown"),
        ("mustering.ron", "\"Orc\", which is no character"),
    ];
    for (file, message) in expected {
        assert!(
            errors
                .iter()
                .any(|e| e.file.ends_with(file) && e.message.contains(message)),
            "{file}: {message}\n{text:#?}"
        );
    }
    assert_eq!(errors.len(), expected.len(), "{text:#?}");
}

/// `lua-os` asks the shell for a harmless marker file: a sandbox that let
/// `os.execute` through would create it.
fn the_sandbox_runs_no_program() {
    let marker = std::path::Path::new("lua-os-marker.txt");
    let _ = std::fs::remove_file(marker);
    let dir = common::root().join("tests/broken/lua-os");
    assert!(titan_core::load(&dir, &common::options()).is_err());
    assert!(!marker.exists(), "os.execute ran: the sandbox is broken");
    assert!(!common::root().join("lua-os-marker.txt").exists());
}

fn main() {
    let args = Arguments::from_args();
    // Every folder, a variant.ron in it or not: each is a case.
    let mut cases: Vec<_> = std::fs::read_dir(common::root().join("tests/broken"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let n = cases.len();
    let mut trials = vec![
        Trial::test("compile_reports_every_error", || {
            compile_reports_every_error();
            Ok(())
        }),
        Trial::test("the_sandbox_runs_no_program", || {
            the_sandbox_runs_no_program();
            Ok(())
        }),
        // The corpus found at all (a moved folder must not leave nothing
        // to run).
        Trial::test("broken-cases-found", move || {
            if n >= 50 {
                Ok(())
            } else {
                Err(Failed::from(format!("only {n} case folders found")))
            }
        }),
    ];
    trials.extend(cases.into_iter().map(|dir| {
        let name = format!("broken/{}", dir.file_name().unwrap().to_string_lossy());
        Trial::test(name, move || check_case(&dir).map_err(Failed::from))
    }));
    libtest_mimic::run(&args, trials).exit();
}
