//! `titan edit`: open the variant editor.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::check::variants_root;

/// The folder of `variant`: a path to a variant folder, or the name of one
/// under `variants/`.
pub fn variant_dir(variant: &str, root: &Path) -> PathBuf {
    let as_path = PathBuf::from(variant);
    if as_path.join("variant.ron").is_file() {
        as_path
    } else {
        root.join(variant)
    }
}

pub fn run(variant: String) -> ExitCode {
    let root = variants_root();
    let dir = variant_dir(&variant, &root);
    if !dir.join("variant.ron").is_file() {
        eprintln!(
            "titan edit: no variant {variant:?} (neither a folder with a variant.ron nor one under {})",
            root.display()
        );
        return ExitCode::FAILURE;
    }
    let root = dir.parent().map_or(root, Path::to_path_buf);
    match titan_editor::run(&dir, &root) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("titan edit: cannot open a window: {e}");
            ExitCode::FAILURE
        }
    }
}
