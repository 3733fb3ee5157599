//! A Colossus variant's manifest (`*Var.xml`) and where its files come from:
//! its own folder, then the variants it `<depend>`s on (and theirs), then
//! Default, as Colossus looks them up.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::xml::{XmlFile, children, root};

/// A file a manifest names, with the line naming it.
#[derive(Debug, Clone)]
pub struct Named {
    pub file: String,
    pub line: u32,
}

/// What a `*Var.xml` says.
#[derive(Debug, Clone)]
pub struct VarXml {
    pub name: String,
    pub path: PathBuf,
    pub map: Option<Named>,
    pub creatures: Vec<Named>,
    pub terrains: Option<Named>,
    pub depends: Vec<Named>,
    pub max_players: Option<u8>,
    /// AI hint classes (`<hint classname>`): not rules.
    pub hints: Vec<String>,
}

/// A variant ready to read: its manifest and the folders its files are
/// looked up in, in order.
pub struct Source {
    pub var: VarXml,
    pub dir: PathBuf,
    pub search: Vec<PathBuf>,
    /// Default's manifest, for the files this one does not name.
    pub default: Option<VarXml>,
}

/// The `*Var.xml` of a variant folder: `<folder>Var.xml`, else the only
/// `*Var.xml` in it.
pub fn find_var_xml(dir: &Path) -> Option<PathBuf> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let own = dir.join(format!("{name}Var.xml"));
    if own.is_file() {
        return Some(own);
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.to_string_lossy().ends_with("Var.xml"))
        .collect();
    found.sort();
    (found.len() == 1).then(|| found.remove(0))
}

/// Reads a `*Var.xml`.
pub fn read_var(path: &Path) -> Result<VarXml, Error> {
    let file = XmlFile::read(path, None)?;
    let doc = file.parse()?;
    let r = root(&file, &doc, "variant")?;
    let name = match r.attribute("name") {
        Some(n) => n.to_string(),
        None => path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let named = |tag: &str| -> Result<Vec<Named>, Error> {
        children(r, tag)
            .map(|n| {
                Ok(Named {
                    file: file.attr(&doc, n, "filename")?.to_string(),
                    line: file.line(&doc, n),
                })
            })
            .collect()
    };
    let mut depends = Vec::new();
    for d in children(r, "depends") {
        for n in children(d, "depend") {
            depends.push(Named {
                file: file.attr(&doc, n, "variant")?.to_string(),
                line: file.line(&doc, n),
            });
        }
    }
    let mut max_players = None;
    for n in children(r, "max_players") {
        max_players = Some(file.num::<u8>(&doc, n, "num")?);
    }
    let hints = children(r, "hint")
        .filter_map(|n| n.attribute("classname").map(str::to_string))
        .collect();
    Ok(VarXml {
        name,
        path: path.to_path_buf(),
        map: named("strategic_map")?.pop(),
        creatures: named("creatures")?,
        terrains: named("terrain_recruits")?.pop(),
        depends,
        max_players,
        hints,
    })
}

impl Source {
    /// Reads the manifest of the variant in `dir` and of every variant it
    /// depends on; an unknown variant is an error at its `<depend>` line.
    pub fn open(dir: &Path) -> Result<Source, Error> {
        let var_path = find_var_xml(dir)
            .ok_or_else(|| Error::at(dir, 0, "no *Var.xml here: not a Colossus variant folder"))?;
        let var = read_var(&var_path)?;
        let root_dir = dir.parent().unwrap_or(Path::new("."));
        let mut search = vec![dir.to_path_buf()];
        let mut queue = vec![var.clone()];
        while let Some(v) = queue.pop() {
            for d in &v.depends {
                let ddir = root_dir.join(&d.file);
                if search.contains(&ddir) {
                    continue;
                }
                let Some(p) = find_var_xml(&ddir) else {
                    return Err(Error::at(
                        &v.path,
                        d.line,
                        format!(
                            "depends on variant {:?}, which is not in {}",
                            d.file,
                            root_dir.display()
                        ),
                    ));
                };
                search.push(ddir);
                queue.insert(0, read_var(&p)?);
            }
        }
        let default_dir = root_dir.join("Default");
        let default = match find_var_xml(&default_dir) {
            Some(p) if default_dir != dir => Some(read_var(&p)?),
            _ => None,
        };
        if default.is_some() && !search.contains(&default_dir) {
            search.push(default_dir);
        }
        Ok(Source {
            var,
            dir: dir.to_path_buf(),
            search,
            default,
        })
    }

    /// The first file of this name in the search folders.
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        self.search
            .iter()
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    }

    /// Reads a file the manifest names (or Default's manifest, when this
    /// one names none); missing: an error at the naming line.
    pub fn read_named(&self, named: &Named, manifest: &Path) -> Result<XmlFile, Error> {
        match self.find(&named.file) {
            Some(p) => XmlFile::read(&p, None),
            None => Err(Error::at(
                manifest,
                named.line,
                format!(
                    "names {:?}, which is in none of {}",
                    named.file,
                    self.search
                        .iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// The named file of this manifest, else of Default's; `what` says
    /// which element, for the error when neither has it.
    pub fn file_of(
        &self,
        own: impl Fn(&VarXml) -> Option<Named>,
        what: &str,
    ) -> Result<XmlFile, Error> {
        if let Some(n) = own(&self.var) {
            return self.read_named(&n, &self.var.path);
        }
        match self.default.as_ref().and_then(|d| own(d).map(|n| (d, n))) {
            Some((d, n)) => self.read_named(&n, &d.path),
            None => Err(Error::at(
                &self.var.path,
                1,
                format!(
                    "names no <{what}>, and there is no Default variant beside it to take it from"
                ),
            )),
        }
    }

    /// The creature files: this manifest's, else Default's.
    pub fn creature_files(&self) -> Result<Vec<XmlFile>, Error> {
        let (list, path) = if !self.var.creatures.is_empty() {
            (&self.var.creatures, &self.var.path)
        } else if let Some(d) = self.default.as_ref().filter(|d| !d.creatures.is_empty()) {
            (&d.creatures, &d.path)
        } else {
            return Err(Error::at(
                &self.var.path,
                1,
                "names no <creatures>, and there is no Default variant beside it to take them from",
            ));
        };
        list.iter().map(|n| self.read_named(n, path)).collect()
    }
}
