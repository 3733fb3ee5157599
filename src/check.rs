//! `titan check`: load and validate variants.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use titan_core::{Diagnostic, LoadOptions, Summary};

/// What `titan check --json` prints for one variant.
#[derive(Serialize)]
struct Report {
    variant: String,
    #[serde(flatten)]
    summary: Summary,
    errors: Vec<Diagnostic>,
}

/// The `variants/` folder: `./variants`, or one in a folder above, or the one
/// this program was built from.
pub fn variants_root() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    cwd.ancestors()
        .map(|a| a.join("variants"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"))
}

/// Every folder under `root` that holds a variant.ron, sorted.
fn all_variants(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.join("variant.ron").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn check_one(dir: &Path, opts: &LoadOptions) -> Report {
    let fallback_id = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match titan_core::load_data(dir, opts) {
        Err(errors) => Report {
            variant: fallback_id,
            summary: Summary::default(),
            errors,
        },
        Ok(loaded) => {
            let summary = Summary::of(&loaded.data);
            let variant = loaded.data.manifest.id.clone();
            let errors = titan_core::compile(&loaded).err().unwrap_or_default();
            Report {
                variant,
                summary,
                errors,
            }
        }
    }
}

pub fn run(
    dirs: Vec<PathBuf>,
    json: bool,
    variants: Option<PathBuf>,
    scripts: Option<PathBuf>,
) -> ExitCode {
    let root = variants.unwrap_or_else(variants_root);
    let shared = scripts.unwrap_or_else(|| root.parent().unwrap_or(Path::new(".")).join("scripts"));
    let opts = LoadOptions {
        search_paths: vec![root.clone()],
        shared_scripts: Some(shared),
    };
    let dirs = if dirs.is_empty() {
        all_variants(&root)
    } else {
        dirs
    };
    if dirs.is_empty() {
        eprintln!("titan check: no variants found under {}", root.display());
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for dir in &dirs {
        let report = check_one(dir, &opts);
        failed |= !report.errors.is_empty();
        let written = if json {
            serde_json::to_string(&report)
                .map_err(std::io::Error::other)
                .and_then(|line| writeln!(out, "{line}"))
        } else {
            print_text(&mut out, &report)
        };
        if written.is_err() {
            // stdout closed (e.g. piped into `head`): nothing more to say.
            break;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn print_text(out: &mut impl Write, r: &Report) -> std::io::Result<()> {
    let s = &r.summary;
    let verdict = if r.errors.is_empty() {
        "ok".to_string()
    } else {
        format!(
            "{} error{}",
            r.errors.len(),
            if r.errors.len() == 1 { "" } else { "s" }
        )
    };
    writeln!(
        out,
        "{}: {} lands, {} exits, {} battlelands, {} hexes, {} characters, {} terrains, {} scripts: {verdict}",
        r.variant, s.lands, s.exits, s.battlelands, s.hexes, s.characters, s.terrains, s.scripts
    )?;
    for e in &r.errors {
        writeln!(out, "  {e}")?;
    }
    Ok(())
}
