//! Writing the imported folders: each is built in a temporary folder beside
//! its destination and renamed into place once every one has been built, so
//! a failure leaves nothing behind.

use std::path::{Path, PathBuf};

use serde::Serialize;
use titan_core::write::to_ron;

use crate::Error;
use crate::convert::Converted;

fn io(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::at(path, 0, format!("cannot write: {e}"))
}

fn put<T: Serialize>(dir: &Path, name: &str, header: &str, value: &T) -> Result<(), Error> {
    let path = dir.join(name);
    let text = to_ron(value).map_err(|e| io(&path, e))?;
    std::fs::write(&path, format!("// {header}\n{text}\n")).map_err(|e| io(&path, e))
}

fn build(c: &Converted, tmp: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(tmp.join("battlelands")).map_err(|e| io(tmp, e))?;
    let from = format!(
        "Imported from the Colossus variant {}; see README.md.",
        c.notes.name
    );
    put(tmp, "variant.ron", &from, &c.data.manifest)?;
    put(tmp, "terrains.ron", &from, &c.data.terrains)?;
    put(tmp, "hazards.ron", &from, &c.data.hazards)?;
    put(tmp, "characters.ron", &from, &c.data.characters)?;
    put(tmp, "mustering.ron", &from, &c.data.mustering)?;
    put(tmp, "masterboard.ron", &from, &c.data.masterboard)?;
    put(tmp, "rules.ron", &from, &c.data.rules)?;
    for b in &c.data.battlelands {
        let name = titan_core::write::alternative_file(&b.terrain, b.alternative);
        put(tmp, &name, &from, b)?;
    }
    if !c.data.variables.is_empty() {
        put(tmp, "variables.ron", &from, &c.data.variables)?;
    }
    for f in &c.scripts {
        let path = tmp.join(f.name.as_ref());
        std::fs::write(&path, f.text.as_bytes()).map_err(|e| io(&path, e))?;
    }
    let readme = tmp.join("README.md");
    std::fs::write(&readme, c.notes.render()).map_err(|e| io(&readme, e))
}

fn beside(dest: &Path, what: &str) -> PathBuf {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dest.with_file_name(format!(".{name}.{what}-{}", std::process::id()))
}

/// Builds every folder, then renames each into place (an existing one is
/// moved aside first and removed after).
pub fn all(built: &[(Converted, PathBuf)]) -> Result<(), Error> {
    let mut tmps = Vec::new();
    for (c, dest) in built {
        if let Some(parent) = dest.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        let tmp = beside(dest, "import");
        let _ = std::fs::remove_dir_all(&tmp);
        tmps.push(tmp.clone());
        if let Err(e) = build(c, &tmp) {
            for t in &tmps {
                let _ = std::fs::remove_dir_all(t);
            }
            return Err(e);
        }
    }
    for ((_, dest), tmp) in built.iter().zip(&tmps) {
        let old = beside(dest, "replaced");
        let had = dest.exists();
        if had {
            std::fs::rename(dest, &old).map_err(|e| io(dest, e))?;
        }
        std::fs::rename(tmp, dest).map_err(|e| io(dest, e))?;
        if had {
            let _ = std::fs::remove_dir_all(&old);
        }
    }
    Ok(())
}
