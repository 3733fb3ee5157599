//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use titan_core::LoadOptions;

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
