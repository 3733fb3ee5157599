//! `titan edit` as a user runs it, without a display: its help, and a
//! variant that does not exist. (The editor itself is tested headlessly in
//! `editor/tests/`.)

mod common;

use std::process::{Command, Output};

fn titan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(args)
        .current_dir(common::root())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("titan runs")
}

#[test]
fn edit_has_help() {
    let out = titan(&["edit", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Usage: titan edit [VARIANT]"), "{help}");
    assert!(help.contains("[default: titan]"), "{help}");
}

#[test]
fn edit_refuses_a_variant_that_is_not_there() {
    let out = titan(&["edit", "no-such-variant"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no variant \"no-such-variant\""), "{err}");
}

#[test]
fn edit_without_a_display_fails_cleanly() {
    let out = titan(&["edit", "titan"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("titan edit: cannot open a window"), "{err}");
}
