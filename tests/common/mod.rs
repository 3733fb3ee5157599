//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use titan_core::LoadOptions;

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies a folder and everything under it (fixtures to be spoilt).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), dest).unwrap();
        }
    }
}

/// Runs the `titan` command in the repository's root.
pub fn titan(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("titan runs")
}

/// Runs one `titan engine` session in `dir` (saves below `saves`, when
/// given), sending it these request lines; its response lines.
pub fn engine_session<L: std::fmt::Display>(
    dir: &Path,
    saves: Option<&Path>,
    requests: &[L],
) -> Vec<String> {
    use std::io::Write;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_titan"));
    command.arg("engine");
    if let Some(saves) = saves {
        command.arg("--saves").arg(saves);
    }
    let mut child = command
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("titan engine starts");
    let mut input = child.stdin.take().unwrap();
    for r in requests {
        writeln!(input, "{r}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "titan engine ends well at end of input"
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Load options as the `titan` command uses them in this repository.
pub fn options() -> LoadOptions {
    LoadOptions {
        search_paths: vec![root().join("variants")],
        shared_scripts: Some(root().join("scripts")),
    }
}

/// Every folder with a variant.ron under `dir`, sorted.
pub fn variant_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("variant.ron").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The variants this repository ships. The tests look at these only, so a
/// user's own variant beside them under `variants/` (as the docs suggest)
/// never breaks `cargo test`.
pub const BUNDLED: [&str; 7] = [
    "battlelands-1981",
    "gods-of-titan",
    "house-regeneration",
    "house-spells",
    "titan",
    "titan-1980",
    "titan-shorter",
];

/// The bundled variants' folders, sorted.
pub fn bundled_dirs() -> Vec<PathBuf> {
    BUNDLED
        .iter()
        .map(|n| root().join("variants").join(n))
        .collect()
}

/// Copies the bundled variants into `dir/variants`, so a `titan` run in
/// `dir` sees them and nothing else.
pub fn copy_bundled_into(dir: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    for (name, from) in BUNDLED.iter().zip(bundled_dirs()) {
        copy(&from, &dir.join("variants").join(name));
    }
}
