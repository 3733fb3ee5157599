//! Importers of other Titan programs' variants into titan's variant format.
//!
//! [`colossus`] reads a checkout of Colossus (the Java Titan): its
//! `variants/` folder or one variant's folder, and writes one titan variant
//! folder per Colossus variant. Each file is titan-core's format types
//! serialised to RON, so the output is well-formed by construction; each
//! folder's README says what was imported and what was not. Bad input is an
//! [`Error`] naming the Colossus file and line, and then nothing is written:
//! every folder is built in a temporary folder beside its destination and
//! renamed into place only when all have been built.
#![forbid(unsafe_code)]

mod battlelands;
mod colors;
mod convert;
mod creatures;
mod hazards;
mod java;
mod manifest;
mod map;
mod markers;
mod readme;
pub mod rnd;
mod terrains;
mod write;
mod xml;

use std::fmt;
use std::path::{Path, PathBuf};

pub use convert::id_of;

/// A problem with the Colossus input, at a file and line (0: the file as a
/// whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Error {
    pub fn at(file: &Path, line: u32, message: impl Into<String>) -> Error {
        Error {
            file: file.to_path_buf(),
            line,
            column: 0,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}: {}", self.file.display(), self.message),
            (l, 0) => write!(f, "{}:{l}: {}", self.file.display(), self.message),
            (l, c) => write!(f, "{}:{l}:{c}: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for Error {}

/// One variant imported.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The Colossus variant's name.
    pub name: String,
    /// The titan id (and folder name) it was given.
    pub id: String,
    pub out: PathBuf,
    /// The README's "not imported" lines.
    pub not_imported: Vec<String>,
}

/// Where to write.
pub enum Out<'a> {
    /// One variant: this folder. Several: a folder of that name under it.
    Given(&'a Path),
    /// `<dir>/<id>` for each (the variants folder).
    Under(&'a Path),
}

/// The Colossus variant folders under `path`: itself when it is one (holds
/// a `*Var.xml`), else its subfolders that are, sorted by name.
pub fn colossus_variants(path: &Path) -> Result<Vec<PathBuf>, Error> {
    if !path.is_dir() {
        return Err(Error::at(path, 0, "no such folder"));
    }
    if manifest::find_var_xml(path).is_some() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| Error::at(path, 0, e.to_string()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && manifest::find_var_xml(p).is_some())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(Error::at(
            path,
            0,
            "neither a Colossus variant (no *Var.xml) nor a folder of them",
        ));
    }
    Ok(dirs)
}

/// Imports the Colossus variant at `path`, or every variant of the
/// Colossus `variants/` folder at `path`. All or nothing: on any error,
/// every error is returned and nothing is written. An existing destination
/// is replaced only with `replace`.
pub fn colossus(path: &Path, out: Out, replace: bool) -> Result<Vec<Imported>, Vec<Error>> {
    let dirs = colossus_variants(path).map_err(|e| vec![e])?;
    let single = dirs.len() == 1 && dirs[0] == path;
    let mut built = Vec::new();
    let mut errors = Vec::new();
    for dir in &dirs {
        let converted = manifest::Source::open(dir).and_then(|s| convert::convert(&s));
        match converted {
            Ok(c) => {
                let dest = match out {
                    Out::Given(p) if single => p.to_path_buf(),
                    Out::Given(p) | Out::Under(p) => p.join(&c.id),
                };
                if dest.exists() && !replace {
                    errors.push(Error::at(
                        &dest,
                        0,
                        "already exists (give --force to replace it)",
                    ));
                }
                built.push((c, dest));
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    write::all(&built).map_err(|e| vec![e])?;
    Ok(built
        .into_iter()
        .map(|(c, out)| Imported {
            name: c.notes.name.clone(),
            id: c.id.clone(),
            out,
            not_imported: c.notes.not_imported.clone(),
        })
        .collect())
}
