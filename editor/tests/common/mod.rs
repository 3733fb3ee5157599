//! Shared helpers of the editor's integration tests.
#![allow(dead_code)]

pub mod play;

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The variants this repository ships (the root's tests/common/mod.rs
/// lists the same): the tests look at these only, so a user's own variant
/// beside them never breaks `cargo test`.
pub const BUNDLED: [&str; 7] = [
    "battlelands-1981",
    "gods-of-titan",
    "house-regeneration",
    "house-spells",
    "titan",
    "titan-1980",
    "titan-shorter",
];

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

/// The editor on the variant in `dir` (its parent the variants folder),
/// not watching the disk, its first frames drawn.
pub fn harness(dir: &Path) -> egui_kittest::Harness<'static, titan_editor::EditorApp> {
    use titan_editor::EditorApp;
    let mut app = EditorApp::new(dir, dir.parent().unwrap());
    app.watch = false;
    assert!(app.project.is_some(), "{:?}", app.open_errors);
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(1500.0, 950.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
    h.run_steps(3);
    h
}

/// Replaces the text of the text field labelled `label` by `text`, typed.
pub fn type_into(
    h: &mut egui_kittest::Harness<'_, titan_editor::EditorApp>,
    label: &str,
    text: &str,
) {
    use egui::accesskit::Role;
    use egui::{Key, Modifiers};
    use egui_kittest::kittest::Queryable;
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run_steps(2);
}

/// Clicks the widget labelled `label`.
pub fn click(h: &mut egui_kittest::Harness<'_, titan_editor::EditorApp>, label: &str) {
    use egui_kittest::kittest::Queryable;
    h.get_by_label(label).click();
    h.run_steps(2);
}
