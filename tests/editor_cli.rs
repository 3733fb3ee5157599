//! `titan edit` and `titan play` as a user runs them, without a display: the
//! help, a variant that does not exist, the message instead of a window. (The
//! editor and the game window are tested headlessly in `editor/tests/`.)

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
    // Said plainly, as `titan play` says it, not as the windowing library's
    // error with its source file.
    assert!(err.contains("no display"), "{err}");
    assert!(!err.contains(".rs:"), "{err}");
}

/// `titan` alone and `titan play` open the game window; without a display
/// they say so and point at what works without one.
#[test]
fn play_without_a_display_says_what_to_use_instead() {
    for args in [&[][..], &["play"][..]] {
        let out = titan(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot open the game window"), "{err}");
        assert!(err.contains("titan engine"), "{err}");
        assert!(err.contains("titan check"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
