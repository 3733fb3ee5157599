//! Shared helpers of the editor's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Copies the folder `from` into `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A copy of the bundled variants and `scripts/` in a temporary folder (the
/// bundled variants only: a user's own beside them is not the tests').
pub fn workspace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for v in ["battlelands-1981", "titan", "titan-shorter"] {
        copy_tree(
            &repo().join("variants").join(v),
            &tmp.path().join("variants").join(v),
        );
    }
    copy_tree(&repo().join("scripts"), &tmp.path().join("scripts"));
    tmp
}
