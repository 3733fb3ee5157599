//! `titan play` (and `titan` alone): open the game window on its start
//! screen. Without a display, say so and point at what works without one.

use std::process::ExitCode;

use crate::check::variants_root;

pub fn run() -> ExitCode {
    match titan_editor::run_play(&variants_root()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "titan: cannot open the game window: {e}.\n\
                 The game window needs a display. Without one:\n  \
                 titan engine   plays games over stdin/stdout in JSON lines (docs/protocol.md)\n  \
                 titan check    loads and validates the variants"
            );
            ExitCode::FAILURE
        }
    }
}
