//! The Titan rules engine: the variant model, its loader and validator, and
//! the sandboxed Lua host that runs variant scripts.
//!
//! A variant is a folder of RON files and Lua scripts (see
//! `docs/variant-format.md`). [`load`] reads one, merges the variants it
//! extends, validates it and compiles it into a [`Variant`], in which every
//! name is resolved to an id. Nothing here draws, reads the clock (but to
//! end a script run that takes too long) or keeps global state; randomness
//! comes only from a seeded [`rng::GameRng`].
//!
//! ```
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
//! let titan = titan_core::load(&dir, &Default::default()).expect("titan loads");
//! assert_eq!(titan.board.land_count(), 96);
//! let ogre = titan.character_by_name("Ogre").unwrap();
//! assert_eq!(titan.character(ogre).power, 6);
//! ```
#![forbid(unsafe_code)]

pub mod ai;
pub mod battle;
pub mod battleland;
pub mod compile;
pub mod diag;
pub mod files;
pub mod format;
pub mod game;
pub mod ids;
pub mod load;
pub mod lua;
pub mod model;
pub mod rng;
pub mod rules_patch;
pub mod script;
pub mod state;
pub mod vars;
pub mod write;

use std::path::Path;

pub use compile::compile;
pub use diag::Diagnostic;
pub use load::{LoadOptions, Loaded, load_data};
pub use model::{Summary, Variant};
pub use write::write_flat;

/// The bundled `titan` variant, for the unit tests of every module.
#[cfg(test)]
pub(crate) fn titan_for_tests() -> Variant {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    load(&dir, &LoadOptions::default()).expect("the bundled titan variant loads")
}

/// Loads, validates and compiles the variant in `dir`.
pub fn load(dir: &Path, opts: &LoadOptions) -> Result<Variant, Vec<Diagnostic>> {
    compile(&load_data(dir, opts)?)
}
