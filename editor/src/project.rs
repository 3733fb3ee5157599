//! The variant being edited, without any GUI: its own files as values, the
//! merged view validated as `titan check` does, edits with undo and redo,
//! saving, and reloading files changed on disk.
//!
//! # How files stay byte-stable
//!
//! The editor keeps, for every file of the edited variant (not its bases),
//! the text read from disk and the value parsed from it. An edit changes the
//! value only. Saving writes just the files whose value differs from the one
//! on disk, each through [`render`] (a canonical RON layout close to the
//! hand-written one, keeping the file's leading comment block), atomically.
//! So opening and saving an unchanged variant writes nothing and changes no
//! byte, and an edit that is undone writes nothing either.
//!
//! # Edits land in the edited variant
//!
//! The merged view comes from the same loader as `titan check`, with the
//! edited files laid over the disk ([`titan_core::load::load_data_with`]). An
//! edit of an item that comes from a base variant is written into the edited
//! variant's own file as an override (the file is created and named in
//! `variant.ron` when missing); the base's files are never written.
//!
//! ```
//! use titan_editor::project::Project;
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
//! let mut project = Project::open(&dir).unwrap();
//! let mut land = project.land(1).unwrap().clone();
//! land.terrain = "Desert".into();
//! project.set_land(land);
//! assert_eq!(project.land(1).unwrap().terrain, "Desert");
//! assert!(project.is_dirty());
//! project.undo();
//! assert!(!project.is_dirty());
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use titan_core::battleland::Board;
use titan_core::diag::Diagnostic;
use titan_core::format::{
    BattlelandDef, CharacterDef, ExitDef, GridPos, HexDef, LandDef, Manifest, MasterboardDef,
    MusterTable, RulesDef, Side, Sign, VariantData,
};
use titan_core::load::{LoadOptions, Loaded, Origins, Overlay, load_data_with, ron_options};
use titan_core::write::write_atomic;

mod author;
mod board;
mod format;
mod rules;
mod scripts;
mod terrains;
mod vars;
pub use author::{References, create_extending, valid_variant_id};
pub use format::*;
pub use vars::default_of;

/// The manifest's file name inside a variant folder.
pub const MANIFEST: &str = "variant.ron";

/// A file of the edited variant as it is on disk.
#[derive(Debug, Clone)]
struct OnDisk {
    /// The last text that parsed (what is kept when the file breaks).
    text: String,
    value: FileValue,
}

/// A file changed on disk while the editor holds unsaved edits of it: the
/// user chooses which side wins.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub file: String,
    /// The value now on disk.
    pub theirs: FileValue,
    pub text: String,
}

/// One reading of a line of sight: the hexes it crosses, both ends
/// included, and why it is blocked, if it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SightLine {
    pub hexes: Vec<String>,
    pub blocked: Option<String>,
}

/// What an error in the problems panel is about, to select it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Land(u32),
    Hex { terrain: String, label: String },
    Character(String),
    Mustering(String),
    File,
}

/// The variant being edited.
pub struct Project {
    dir: PathBuf,
    opts: LoadOptions,
    /// The edited variant's own files, by name relative to `dir`.
    own: BTreeMap<String, FileValue>,
    disk: BTreeMap<String, OnDisk>,
    undo: Vec<BTreeMap<String, FileValue>>,
    redo: Vec<BTreeMap<String, FileValue>>,
    /// Consecutive edits with the same key (dragging a number) undo as one.
    last_key: Option<String>,
    last_edit: Option<std::time::Instant>,
    /// The compiled variant, when the current state passes validation.
    compiled: Option<titan_core::Variant>,
    /// The hooks the scripts register, known even when the variant does not
    /// pass its check (so the actions page can say which actions have a
    /// script while another one has none).
    script_hooks: Vec<String>,
    /// The last merged view that loaded.
    loaded: Loaded,
    /// What `titan check` would say about the current edits, plus files
    /// that no longer parse on disk.
    problems: Vec<Diagnostic>,
    /// Files on disk that no longer parse, with their error.
    broken: BTreeMap<String, Diagnostic>,
    conflicts: Vec<Conflict>,
    /// Bumped whenever the merged view changes (for tests and the UI).
    generation: u64,
    /// The base variant's merged rules, which complete the sections of an
    /// extending variant's `rules.ron` that give only some fields.
    base_rules: Option<RulesDef>,
    /// The base variant's rule options (shown beside an override).
    base_options: Vec<titan_core::format::RuleOption>,
}

impl Project {
    /// Opens the variant in `dir` (its `extends` resolved as `titan check`
    /// does). Fails only when nothing at all can be shown.
    pub fn open(dir: &Path) -> Result<Project, Vec<Diagnostic>> {
        Project::open_with(dir, LoadOptions::default())
    }

    pub fn open_with(dir: &Path, opts: LoadOptions) -> Result<Project, Vec<Diagnostic>> {
        let dir = dir.to_path_buf();
        let loaded = load_data_with(&dir, &opts, &Overlay::new())?;
        let mut own = BTreeMap::new();
        let mut disk = BTreeMap::new();
        let manifest_text = read(&dir.join(MANIFEST)).map_err(|d| vec![d])?;
        // The loader parsed it a moment ago, but the file may have changed.
        let manifest = match FileKind::Manifest.parse(&manifest_text) {
            Ok(FileValue::Manifest(m)) => m,
            Ok(_) => unreachable!("a manifest parses as a manifest"),
            Err(e) => return Err(vec![spanned(&dir.join(MANIFEST), &manifest_text, &e)]),
        };
        let (base_rules, base_options) = rules::base_rules(&dir, &manifest, &opts).unzip();
        for (name, kind) in files_of(&manifest) {
            let path = dir.join(&name);
            let text = read(&path).map_err(|d| vec![d])?;
            let value = parse_with(kind, &text, base_rules.as_ref())
                .map_err(|e| vec![spanned(&path, &text, &e)])?;
            own.insert(name.clone(), value.clone());
            disk.insert(name, OnDisk { text, value });
        }
        let mut project = Project {
            dir,
            opts,
            own,
            disk,
            undo: Vec::new(),
            redo: Vec::new(),
            last_key: None,
            last_edit: None,
            compiled: None,
            script_hooks: Vec::new(),
            loaded,
            problems: Vec::new(),
            broken: BTreeMap::new(),
            conflicts: Vec::new(),
            generation: 0,
            base_rules,
            base_options: base_options.unwrap_or_default(),
        };
        project.revalidate();
        Ok(project)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The merged variant as last loaded (with unsaved edits).
    pub fn data(&self) -> &VariantData {
        &self.loaded.data
    }

    pub fn origins(&self) -> &Origins {
        &self.loaded.origins
    }

    /// Errors of the current state, as `titan check` reports them.
    pub fn problems(&self) -> &[Diagnostic] {
        &self.problems
    }

    /// Files changed on disk that conflict with unsaved edits.
    pub fn conflicts(&self) -> &[Conflict] {
        &self.conflicts
    }

    /// The files on disk that no longer parse (the editor keeps their last
    /// good version).
    pub fn broken_files(&self) -> Vec<String> {
        self.broken.keys().cloned().collect()
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The edited variant's own files and their current values.
    pub fn own_files(&self) -> &BTreeMap<String, FileValue> {
        &self.own
    }

    /// Whether any file differs from what is on disk.
    pub fn is_dirty(&self) -> bool {
        !self.dirty_files().is_empty()
    }

    /// The files whose value differs from the disk.
    pub fn dirty_files(&self) -> Vec<String> {
        self.own
            .iter()
            .filter(|(name, value)| self.disk.get(*name).is_none_or(|d| d.value != **value))
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Every folder whose changes should reload this variant: its own, its
    /// bases' and the shared scripts folder.
    pub fn watched_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![self.dir.clone()];
        let mut current = self.dir.clone();
        let mut base = self.manifest().extends.clone();
        let mut guard = 0;
        while let Some(id) = base.take() {
            guard += 1;
            let beside = current.parent().map(|p| p.join(&id));
            let found = beside
                .into_iter()
                .chain(self.opts.search_paths.iter().map(|p| p.join(&id)))
                .find(|c| c.join(MANIFEST).is_file());
            let Some(found) = found else { break };
            base = std::fs::read_to_string(found.join(MANIFEST))
                .ok()
                .and_then(|t| ron_options().from_str::<Manifest>(&t).ok())
                .and_then(|m| m.extends);
            dirs.push(found.clone());
            current = found;
            if guard > 16 {
                break;
            }
        }
        let scripts = self.opts.shared_scripts.clone().unwrap_or_else(|| {
            let variants = self.dir.parent().unwrap_or(Path::new("."));
            variants.parent().unwrap_or(Path::new(".")).join("scripts")
        });
        if scripts.is_dir() {
            dirs.push(scripts);
        }
        dirs
    }

    fn manifest(&self) -> &Manifest {
        match self.own.get(MANIFEST) {
            Some(FileValue::Manifest(m)) => m,
            _ => unreachable!("a project always has its manifest"),
        }
    }

    fn manifest_mut(&mut self) -> &mut Manifest {
        match self.own.get_mut(MANIFEST) {
            Some(FileValue::Manifest(m)) => m,
            _ => unreachable!("a project always has its manifest"),
        }
    }

    /// The overlay the loader reads: every own file, rendered when edited,
    /// else the last text that parsed (so a broken file keeps its last good
    /// version).
    fn overlay(&self) -> Overlay {
        self.own
            .iter()
            .map(|(name, value)| {
                let text = match self.disk.get(name) {
                    Some(d) if d.value == *value => d.text.clone(),
                    d => render_with(value, d.map(|d| d.text.as_str()), self.base_rules.as_ref()),
                };
                (self.dir.join(name), text)
            })
            .collect()
    }

    /// Reloads the merged view from the own files and the disk, and
    /// validates it.
    fn revalidate(&mut self) {
        let mut problems: Vec<Diagnostic> = self.broken.values().cloned().collect();
        match load_data_with(&self.dir, &self.opts, &self.overlay()) {
            Ok(loaded) => {
                match titan_core::compile(&loaded) {
                    Ok(variant) => {
                        self.script_hooks = variant.hooks.clone();
                        self.compiled = Some(variant);
                    }
                    Err(errors) => {
                        problems.extend(errors);
                        self.compiled = None;
                        // A script error is among the problems already.
                        self.script_hooks = titan_core::compile::run_scripts(&loaded.data, 0)
                            .map(|host| host.hook_names())
                            .unwrap_or_default();
                    }
                }
                self.loaded = loaded;
            }
            // Keep the last good view; say why the new one does not load.
            Err(errors) => problems.extend(errors),
        }
        self.problems = problems;
        self.generation += 1;
    }

    /// Applies an edit to the own files, as one undo step (or merged into
    /// the last one when `key` is the same, as while dragging a number).
    fn edit(&mut self, key: &str, f: impl FnOnce(&mut Project)) {
        let before = self.own.clone();
        f(self);
        if self.own == before {
            return;
        }
        // The same item edited again within a moment (a drag, typing) is
        // one undo step.
        let recent = self
            .last_edit
            .is_some_and(|t| t.elapsed() < std::time::Duration::from_millis(1500));
        if self.last_key.as_deref() != Some(key) || !recent {
            self.undo.push(before);
            self.last_key = Some(key.to_string());
        }
        self.last_edit = Some(std::time::Instant::now());
        self.redo.clear();
        self.revalidate();
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo(&mut self) {
        if let Some(prev) = self.undo.pop() {
            let now = std::mem::replace(&mut self.own, prev);
            self.redo.push(now);
            self.last_key = None;
            self.revalidate();
        }
    }

    pub fn redo(&mut self) {
        if let Some(next) = self.redo.pop() {
            let now = std::mem::replace(&mut self.own, next);
            self.undo.push(now);
            self.last_key = None;
            self.revalidate();
        }
    }

    /// Writes every edited file (and only those) atomically. Returns the
    /// names written.
    pub fn save(&mut self) -> std::io::Result<Vec<String>> {
        let mut written = Vec::new();
        for name in self.dirty_files() {
            let value = self.own[&name].clone();
            let original = self.disk.get(&name).map(|d| d.text.as_str());
            let text = render_with(&value, original, self.base_rules.as_ref());
            let path = self.dir.join(&name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            write_atomic(&path, text.as_bytes())?;
            self.disk.insert(name.clone(), OnDisk { text, value });
            written.push(name);
        }
        self.last_key = None;
        Ok(written)
    }

    /// Drops every unsaved edit.
    pub fn revert(&mut self) {
        if self.is_dirty() {
            let before = self.own.clone();
            self.own = self
                .disk
                .iter()
                .map(|(n, d)| (n.clone(), d.value.clone()))
                .collect();
            self.undo.push(before);
            self.redo.clear();
            self.last_key = None;
            self.revalidate();
        }
    }

    // -----------------------------------------------------------------------
    // Hot reloading
    // -----------------------------------------------------------------------

    /// Rereads the files after a change on disk. A file that no longer parses
    /// is reported and its last good version kept; a file changed on disk
    /// while the editor has unsaved edits of it becomes a [`Conflict`].
    /// Files of bases and scripts are read again by the loader.
    pub fn reload_from_disk(&mut self) {
        self.refresh_base_rules();
        let mut broken = BTreeMap::new();
        // The manifest first: it says which files there are.
        let mut names: Vec<(String, FileKind)> = files_of(self.manifest());
        if let Ok(text) = std::fs::read_to_string(self.dir.join(MANIFEST))
            && let Ok(FileValue::Manifest(m)) = FileKind::Manifest.parse(&text)
        {
            for entry in files_of(&m) {
                if !names.contains(&entry) {
                    names.push(entry);
                }
            }
        }
        for (name, kind) in names {
            let path = self.dir.join(&name);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue; // not on disk (yet): nothing changed there
            };
            if self.disk.get(&name).is_some_and(|d| d.text == text) {
                continue;
            }
            let value = match parse_with(kind, &text, self.base_rules.as_ref()) {
                Ok(v) => v,
                Err(e) => {
                    broken.insert(name.clone(), spanned(&path, &text, &e));
                    continue;
                }
            };
            let edited = match (self.own.get(&name), self.disk.get(&name)) {
                (Some(mine), Some(d)) => *mine != d.value,
                (Some(_), None) => true,
                _ => false,
            };
            if edited && self.own.get(&name) != Some(&value) {
                self.conflicts.retain(|c| c.file != name);
                self.conflicts.push(Conflict {
                    file: name.clone(),
                    theirs: value,
                    text,
                });
                continue;
            }
            self.own.insert(name.clone(), value.clone());
            self.disk.insert(name, OnDisk { text, value });
        }
        self.broken = broken;
        self.revalidate();
    }

    /// Settles a conflict: `theirs` takes the file on disk (dropping the
    /// unsaved edits of that file), else the editor's version stays.
    pub fn resolve(&mut self, file: &str, theirs: bool) {
        let Some(i) = self.conflicts.iter().position(|c| c.file == file) else {
            return;
        };
        let c = self.conflicts.remove(i);
        if theirs {
            self.undo.push(self.own.clone());
            self.redo.clear();
            self.own.insert(c.file.clone(), c.theirs.clone());
        }
        // Either way the disk now holds their text; mine stays unsaved.
        self.disk.insert(
            c.file,
            OnDisk {
                text: c.text,
                value: c.theirs,
            },
        );
        self.last_key = None;
        self.revalidate();
    }

    // -----------------------------------------------------------------------
    // The own file of each kind, created on first edit
    // -----------------------------------------------------------------------

    /// The own file of a kind, created (and named in the manifest) if the
    /// variant has none yet.
    fn own_file(&mut self, kind: FileKind, default_name: &str) -> &mut FileValue {
        let existing = files_of(self.manifest())
            .into_iter()
            .find(|(_, k)| *k == kind)
            .map(|(n, _)| n);
        let name = match existing {
            Some(n) => n,
            None => {
                let files = &mut self.manifest_mut().files;
                let slot = match kind {
                    FileKind::Terrains => &mut files.terrains,
                    FileKind::Hazards => &mut files.hazards,
                    FileKind::Characters => &mut files.characters,
                    FileKind::Mustering => &mut files.mustering,
                    FileKind::Masterboard => &mut files.masterboard,
                    FileKind::Rules => &mut files.rules,
                    FileKind::Variables => &mut files.variables,
                    FileKind::Actions => &mut files.actions,
                    FileKind::Manifest | FileKind::Battleland | FileKind::Script => {
                        unreachable!("not a single file")
                    }
                };
                *slot = Some(default_name.to_string());
                self.own.insert(default_name.to_string(), empty_file(kind));
                default_name.to_string()
            }
        };
        // Named but missing (the file was not on disk): start it empty.
        if !self.own.contains_key(&name) {
            self.own.insert(name.clone(), empty_file(kind));
        }
        self.own.get_mut(&name).expect("inserted above")
    }

    /// `None` when the manifest names one file for two kinds.
    fn own_lands(&mut self) -> Option<&mut Vec<LandDef>> {
        match self.own_file(FileKind::Masterboard, "masterboard.ron") {
            FileValue::Masterboard(b) => Some(&mut b.lands),
            _ => None,
        }
    }

    /// `None` when the manifest names one file for two kinds.
    fn own_characters(&mut self) -> Option<&mut Vec<CharacterDef>> {
        match self.own_file(FileKind::Characters, "characters.ron") {
            FileValue::Characters(c) => Some(c),
            _ => None,
        }
    }

    /// `None` when the manifest names one file for two kinds.
    fn own_mustering(&mut self) -> Option<&mut Vec<MusterTable>> {
        match self.own_file(FileKind::Mustering, "mustering.ron") {
            FileValue::Mustering(m) => Some(m),
            _ => None,
        }
    }

    /// The own battleland file of a terrain, created from the merged one
    /// (the base's) when the variant has none.
    /// A terrain with several battlelands: the one shown, the first.
    fn own_battleland(&mut self, terrain: &str) -> Option<&mut BattlelandDef> {
        let shown = self.battleland(terrain).map_or(1, |b| b.alternative);
        let name = self.own.iter().find_map(|(n, v)| match v {
            FileValue::Battleland(b) if b.terrain == terrain && b.alternative == shown => {
                Some(n.clone())
            }
            _ => None,
        });
        let name = match name {
            Some(n) => n,
            None => {
                let base = self.battleland(terrain)?.clone();
                let stem: String = terrain
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() {
                            c.to_ascii_lowercase()
                        } else {
                            '-'
                        }
                    })
                    .collect();
                let name = format!("battlelands/{stem}.ron");
                self.manifest_mut().files.battlelands.push(name.clone());
                self.own.insert(name.clone(), FileValue::Battleland(base));
                name
            }
        };
        match self.own.get_mut(&name) {
            Some(FileValue::Battleland(b)) => Some(b),
            _ => None,
        }
    }

    // -----------------------------------------------------------------------
    // Placing problems
    // -----------------------------------------------------------------------

    /// What a diagnostic is about: the land, hex, character or mustering
    /// table whose entry in the file holds its line.
    pub fn subject(&self, d: &Diagnostic) -> Subject {
        let path = PathBuf::from(&d.file);
        let text = path
            .strip_prefix(&self.dir)
            .ok()
            .and_then(|rel| self.overlay().remove(&self.dir.join(rel)))
            .or_else(|| std::fs::read_to_string(&path).ok())
            .unwrap_or_default();
        subject_at(&text, d.line)
    }
}

/// What the entry around line `line` (1-based) of a variant file is.
pub fn subject_at(text: &str, line: usize) -> Subject {
    let lines: Vec<&str> = text.lines().collect();
    let upto = line.min(lines.len());
    let quoted = |l: &str, key: &str| -> Option<String> {
        let at = l.find(key)? + key.len();
        let rest = l[at..].trim_start().strip_prefix('"')?;
        Some(rest[..rest.find('"')?].to_string())
    };
    let terrain = lines.iter().find_map(|l| quoted(l, "terrain:"));
    if text.contains("hexes:") {
        for l in lines[..upto].iter().rev() {
            let t = l.trim_start();
            if let Some(rest) = t.strip_prefix('"')
                && let Some(end) = rest.find('"')
            {
                return Subject::Hex {
                    terrain: terrain.unwrap_or_default(),
                    label: rest[..end].to_string(),
                };
            }
        }
        return Subject::File;
    }
    for l in lines[..upto].iter().rev() {
        if let Some(at) = l.find("(number:") {
            let digits: String = l[at + 8..]
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(n) = digits.parse() {
                return Subject::Land(n);
            }
        }
        if let Some(name) = quoted(l, "(name:")
            && text.contains("plural:")
        {
            return Subject::Character(name);
        }
        if let Some(t) = quoted(l, "(terrain:")
            && text.contains("rows:")
        {
            return Subject::Mustering(t);
        }
    }
    Subject::File
}

/// The value of a new, empty file of a kind that is one file.
fn empty_file(kind: FileKind) -> FileValue {
    match kind {
        FileKind::Terrains => FileValue::Terrains(Vec::new()),
        FileKind::Hazards => FileValue::Hazards(Vec::new()),
        FileKind::Characters => FileValue::Characters(Vec::new()),
        FileKind::Mustering => FileValue::Mustering(Vec::new()),
        FileKind::Masterboard => FileValue::Masterboard(MasterboardDef {
            lands: Vec::new(),
            one_way_signs: None,
        }),
        FileKind::Variables => FileValue::Variables(Vec::new()),
        FileKind::Actions => FileValue::Actions(Vec::new()),
        _ => FileValue::Rules(RulesDef::default()),
    }
}

fn read(path: &Path) -> Result<String, Diagnostic> {
    std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::file(path, format!("cannot read the file: {e}")))
}

/// A parse error of `text` (the file at `path`), as the loader words it.
fn spanned(path: &Path, text: &str, e: &ron::error::SpannedError) -> Diagnostic {
    Diagnostic {
        file: path.display().to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: titan_core::diag::ron_message(text, e),
    }
}

/// The names of the variant folders under `root` (what the variant picker
/// offers).
pub fn variant_folders(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.join(MANIFEST).is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// The lands whose exits name `number`, for removing signs with a land.
pub fn lands_pointing_to(data: &VariantData, number: u32) -> BTreeSet<u32> {
    data.masterboard
        .lands
        .iter()
        .filter(|l| l.exits.iter().any(|e| e.to == number))
        .map(|l| l.number)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titan() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan")
    }

    #[test]
    fn leading_comments_stop_at_the_first_value_line() {
        let t = "// a\n// b\n\n(\n// not this\n)";
        assert_eq!(leading_comments(t), "// a\n// b\n\n");
        assert_eq!(leading_comments("[]"), "");
    }

    #[test]
    fn every_bundled_file_renders_to_text_that_parses_back() {
        let project = Project::open(&titan()).unwrap();
        for (name, value) in project.own_files() {
            let kind = files_of(project.manifest())
                .into_iter()
                .find(|(n, _)| n == name)
                .unwrap()
                .1;
            let text = render(value, Some(&project.disk[name].text));
            assert_eq!(&kind.parse(&text).unwrap(), value, "{name}");
            // Stable: rendering the reparsed value gives the same text.
            assert_eq!(render(&kind.parse(&text).unwrap(), Some(&text)), text);
        }
    }

    #[test]
    fn subjects_are_found_by_line() {
        let board = "(\n    lands: [\n        (number: 1, terrain: \"Plains\"),\n        (number: 22, terrain: \"Woods\"),\n    ],\n)";
        assert_eq!(subject_at(board, 4), Subject::Land(22));
        assert_eq!(subject_at(board, 1), Subject::File);
        let hexes = "(\n    terrain: \"Hills\",\n    hexes: {\n        \"A1\": (hazard: \"Plains\"),\n        \"B2\": (hazard: \"Tree\"),\n    },\n)";
        assert_eq!(
            subject_at(hexes, 5),
            Subject::Hex {
                terrain: "Hills".into(),
                label: "B2".into()
            }
        );
    }

    #[test]
    fn an_edit_of_an_unknown_land_changes_nothing() {
        let mut project = Project::open(&titan()).unwrap();
        project.set_sign(9999, 1, Some(Sign::Arch));
        assert!(!project.is_dirty());
        assert!(!project.can_undo());
    }
}
