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

use serde::Serialize;
use serde::de::DeserializeOwned;
use titan_core::battleland::HexId;
use titan_core::diag::Diagnostic;
use titan_core::format::{
    BattlelandDef, CharacterDef, ExitDef, GridPos, HazardDef, HexDef, LandDef, Manifest,
    MasterboardDef, MusterTable, RulesDef, Side, Sign, TerrainDef, VariantData,
};
use titan_core::load::{LoadOptions, Loaded, Origins, Overlay, load_data_with, ron_options};
use titan_core::write::write_atomic;

mod author;
mod rules;
mod scripts;
mod terrains;
pub use author::{References, create_extending, valid_variant_id};

/// The manifest's file name inside a variant folder.
pub const MANIFEST: &str = "variant.ron";

/// The parsed value of one file of the edited variant.
// A project holds one manifest: boxing it would save nothing worth the noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum FileValue {
    Manifest(Manifest),
    Terrains(Vec<TerrainDef>),
    Hazards(Vec<HazardDef>),
    Characters(Vec<CharacterDef>),
    Mustering(Vec<MusterTable>),
    Masterboard(MasterboardDef),
    Battleland(BattlelandDef),
    Rules(RulesDef),
    /// A Lua script of the variant: its text, written as it is.
    Script(String),
}

/// What kind of file a name in the manifest is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Manifest,
    Terrains,
    Hazards,
    Characters,
    Mustering,
    Masterboard,
    Battleland,
    Rules,
    Script,
}

impl FileKind {
    /// Parses a file's text as this kind, with the loader's RON dialect.
    pub fn parse(self, text: &str) -> Result<FileValue, ron::error::SpannedError> {
        fn p<T: DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
            ron_options().from_str(text)
        }
        Ok(match self {
            FileKind::Manifest => FileValue::Manifest(p(text)?),
            FileKind::Terrains => FileValue::Terrains(p(text)?),
            FileKind::Hazards => FileValue::Hazards(p(text)?),
            FileKind::Characters => FileValue::Characters(p(text)?),
            FileKind::Mustering => FileValue::Mustering(p(text)?),
            FileKind::Masterboard => FileValue::Masterboard(p(text)?),
            FileKind::Battleland => FileValue::Battleland(p(text)?),
            FileKind::Rules => FileValue::Rules(p(text)?),
            FileKind::Script => FileValue::Script(text.to_string()),
        })
    }
}

/// The files a manifest names, with their kinds (the manifest first).
pub fn files_of(manifest: &Manifest) -> Vec<(String, FileKind)> {
    let f = &manifest.files;
    let mut out = vec![(MANIFEST.to_string(), FileKind::Manifest)];
    let singles = [
        (&f.terrains, FileKind::Terrains),
        (&f.hazards, FileKind::Hazards),
        (&f.characters, FileKind::Characters),
        (&f.mustering, FileKind::Mustering),
        (&f.masterboard, FileKind::Masterboard),
        (&f.rules, FileKind::Rules),
    ];
    for (name, kind) in singles {
        if let Some(name) = name {
            out.push((name.clone(), kind));
        }
    }
    for name in &f.battlelands {
        out.push((name.clone(), FileKind::Battleland));
    }
    // The variant's own scripts (shared ones live outside its folder).
    for name in &f.scripts {
        if !name.starts_with(titan_core::load::SHARED_PREFIX) {
            out.push((name.clone(), FileKind::Script));
        }
    }
    out
}

/// The leading comment block of a file (its first lines that are `//`
/// comments or blank), kept when the file is rewritten.
pub fn leading_comments(text: &str) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.is_empty() || t.starts_with("//") {
            end += line.len();
        } else {
            break;
        }
    }
    &text[..end]
}

/// The canonical text of a file: its leading comments from `original`, then
/// the value as pretty RON, nested structures past the second level on one
/// line (one land, hex or character per line, as the bundled files are).
///
/// ```
/// use titan_editor::project::{render, FileKind, FileValue};
/// use titan_core::format::TerrainDef;
/// let value = FileValue::Terrains(vec![TerrainDef { name: "Tower".into(), color: "#a0a0a0".parse().unwrap(), tower: true }]);
/// let text = render(&value, Some("// Terrains.\n[]\n"));
/// assert!(text.starts_with("// Terrains.\n[\n    (name: \"Tower\""));
/// assert_eq!(FileKind::Terrains.parse(&text).unwrap(), value);
/// ```
pub fn render(value: &FileValue, original: Option<&str>) -> String {
    render_with(value, original, None)
}

/// [`render`] for a file of a variant whose `rules.ron` sections may give
/// only some of their fields: `base` (the base variant's rules) completes
/// them when the original text is read (`titan_core::rules_patch`), so a
/// partial section that did not change keeps its text.
pub fn render_with(value: &FileValue, original: Option<&str>, base: Option<&RulesDef>) -> String {
    if let FileValue::Script(text) = value {
        return text.clone();
    }
    if let Some(text) = original.and_then(|o| patch_file(value, o, base)) {
        return text;
    }
    canonical(value, original)
}

/// Parses a file's text; a `rules.ron` is first completed from `base`.
pub fn parse_with(
    kind: FileKind,
    text: &str,
    base: Option<&RulesDef>,
) -> Result<FileValue, ron::error::SpannedError> {
    match (kind, base) {
        (FileKind::Rules, Some(base)) => kind.parse(&titan_core::rules_patch::complete(text, base)),
        _ => kind.parse(text),
    }
}

/// The kind of a file value.
pub fn kind_of(value: &FileValue) -> FileKind {
    match value {
        FileValue::Manifest(_) => FileKind::Manifest,
        FileValue::Terrains(_) => FileKind::Terrains,
        FileValue::Hazards(_) => FileKind::Hazards,
        FileValue::Characters(_) => FileKind::Characters,
        FileValue::Mustering(_) => FileKind::Mustering,
        FileValue::Masterboard(_) => FileKind::Masterboard,
        FileValue::Battleland(_) => FileKind::Battleland,
        FileValue::Rules(_) => FileKind::Rules,
        FileValue::Script(_) => FileKind::Script,
    }
}

/// `original` with only the items that changed rewritten (see
/// [`crate::patch`]); `None` when that cannot give `value`.
fn patch_file(value: &FileValue, original: &str, base: Option<&RulesDef>) -> Option<String> {
    use crate::patch::{field_value, one_line, patch_items, top_value};
    fn list<T: Serialize + DeserializeOwned + PartialEq + Clone>(
        original: &str,
        open: usize,
        items: &[T],
        key: impl Fn(&T) -> String,
    ) -> Option<String> {
        let keyed: Vec<(String, T)> = items.iter().map(|i| (key(i), i.clone())).collect();
        patch_items(
            original,
            open,
            &keyed,
            |t| {
                let v: T = ron_options().from_str(t).ok()?;
                Some((key(&v), v))
            },
            |_, v| one_line(v),
        )
    }
    let old = parse_with(kind_of(value), original, base).ok()?;
    if old == *value {
        return Some(original.to_string());
    }
    let text = match (value, &old) {
        (FileValue::Terrains(v), _) => list(original, top_value(original), v, |t| t.name.clone()),
        (FileValue::Hazards(v), _) => list(original, top_value(original), v, |t| t.name.clone()),
        (FileValue::Characters(v), _) => list(original, top_value(original), v, |t| t.name.clone()),
        (FileValue::Mustering(v), _) => {
            let keyed: Vec<(String, MusterTable)> =
                v.iter().map(|t| (t.terrain.clone(), t.clone())).collect();
            patch_items(
                original,
                top_value(original),
                &keyed,
                |t| {
                    let v: MusterTable = ron_options().from_str(t).ok()?;
                    Some((v.terrain.clone(), v))
                },
                |_, t| muster_table_text(t, "    "),
            )
        }
        (FileValue::Masterboard(v), _) => {
            list(original, field_value(original, "lands")?, &v.lands, |l| {
                l.number.to_string()
            })
        }
        (FileValue::Battleland(v), FileValue::Battleland(o))
            if v.terrain == o.terrain
                && v.attacker_edge == o.attacker_edge
                && v.defender_area == o.defender_area =>
        {
            let items: Vec<(String, HexDef)> = v
                .hexes
                .iter()
                .map(|(k, h)| (k.clone(), h.clone()))
                .collect();
            patch_items(
                original,
                field_value(original, "hexes")?,
                &items,
                |t| {
                    let colon = t.find(':')?;
                    let key: String = ron_options().from_str(t[..colon].trim()).ok()?;
                    let hex: HexDef = ron_options().from_str(t[colon + 1..].trim()).ok()?;
                    Some((key, hex))
                },
                |k, h| Some(format!("{k:?}: {}", one_line(h)?)),
            )
        }
        (FileValue::Manifest(_) | FileValue::Rules(_), _) => patch_struct(original, &old, value),
        _ => None,
    }?;
    (parse_with(kind_of(value), &text, base).ok()? == *value).then_some(text)
}

/// A struct file (`variant.ron`, `rules.ron`) with only its changed
/// top-level fields rewritten: a field is compared by its canonical text
/// in the old and new value; a changed one is written in the canonical
/// style, the others keep their text and comments.
fn patch_struct(original: &str, old: &FileValue, new: &FileValue) -> Option<String> {
    use crate::patch::{field_value, patch_items, split_fields, top_value};
    let old_fields = split_fields(&compact_struct(old)?)?;
    let new_fields = split_fields(&compact_struct(new)?)?;
    let in_original = |name: &str| field_value(original, name).is_some();
    let items: Vec<(String, String)> = new_fields
        .iter()
        .filter(|(name, text)| {
            in_original(name)
                || old_fields.iter().find(|(n, _)| n == name).map(|f| &f.1) != Some(text)
        })
        .cloned()
        .collect();
    patch_items(
        original,
        top_value(original),
        &items,
        |t| {
            let name = t[..t.find(':')?].trim().to_string();
            let text = old_fields.iter().find(|(n, _)| *n == name)?.1.clone();
            Some((name, text))
        },
        |name, text| Some(format!("{name}: {text}")),
    )
}

/// A struct file with each top-level field on one line, defaults left out.
fn compact_struct(value: &FileValue) -> Option<String> {
    fn ron<T: Serialize>(value: &T) -> Option<String> {
        let pretty = ron::ser::PrettyConfig::new()
            .indentor("    ".to_string())
            .depth_limit(1);
        ron_options().to_string_pretty(value, pretty).ok()
    }
    let text = match value {
        FileValue::Manifest(v) => ron(v)?,
        FileValue::Rules(v) => ron(v)?,
        _ => return None,
    };
    let kind = kind_of(value);
    Some(crate::patch::strip_defaults(text, |t| {
        kind.parse(t).ok().as_ref() == Some(value)
    }))
}

/// The whole file in the canonical layout.
fn canonical(value: &FileValue, original: Option<&str>) -> String {
    fn ron<T: Serialize>(value: &T, depth: usize) -> String {
        let pretty = ron::ser::PrettyConfig::new()
            .indentor("    ".to_string())
            .depth_limit(depth);
        // The loader's options already allow a bare value for `Some(..)`.
        ron_options()
            .to_string_pretty(value, pretty)
            .unwrap_or_else(|e| format!("// cannot write this file: {e}\n"))
    }
    let comments = original.map(leading_comments).unwrap_or("");
    if let Some(body) = one_item_per_line(value) {
        return format!("{comments}{body}\n");
    }
    // A manifest or rules file: a field per line, defaults left out.
    if let Some(body) = compact_struct(value)
        && kind_of(value).parse(&body).ok().as_ref() == Some(value)
    {
        return format!("{comments}{body}\n");
    }
    let body = match value {
        FileValue::Manifest(v) => ron(v, 2),
        FileValue::Terrains(v) => ron(v, 1),
        FileValue::Hazards(v) => ron(v, 2),
        FileValue::Characters(v) => ron(v, 1),
        FileValue::Mustering(v) => ron(v, 2),
        FileValue::Masterboard(v) => ron(v, 2),
        FileValue::Battleland(v) => ron(v, 2),
        FileValue::Rules(v) => ron(v, 2),
        FileValue::Script(text) => return text.clone(),
    };
    format!("{comments}{body}\n")
}

/// A list file, board or battleland with one item per line, as the bundled
/// files are written (checked to read back the same).
fn one_item_per_line(value: &FileValue) -> Option<String> {
    use crate::patch::one_line;
    fn lines<T: Serialize + DeserializeOwned + PartialEq>(
        items: &[T],
        indent: &str,
    ) -> Option<String> {
        items
            .iter()
            .map(|i| Some(format!("{indent}{},\n", one_line(i)?)))
            .collect()
    }
    let text = match value {
        FileValue::Mustering(v) => {
            let tables: Option<String> = v
                .iter()
                .map(|t| Some(format!("    {},\n", muster_table_text(t, "    ")?)))
                .collect();
            format!("[\n{}]", tables?)
        }
        FileValue::Terrains(v) => format!("[\n{}]", lines(v, "    ")?),
        FileValue::Hazards(v) => format!("[\n{}]", lines(v, "    ")?),
        FileValue::Characters(v) => format!("[\n{}]", lines(v, "    ")?),
        FileValue::Masterboard(v) => {
            format!("(\n    lands: [\n{}    ],\n)", lines(&v.lands, "        ")?)
        }
        FileValue::Battleland(b) => {
            let mut t = format!("(\n    terrain: {:?},\n    hexes: {{\n", b.terrain);
            for (label, hex) in &b.hexes {
                t.push_str(&format!("        {label:?}: {},\n", one_line(hex)?));
            }
            t.push_str("    },\n");
            if let Some(edge) = b.attacker_edge {
                t.push_str(&format!("    attacker_edge: {edge:?},\n"));
            }
            if !b.defender_area.is_empty() {
                t.push_str(&format!("    defender_area: {:?},\n", b.defender_area));
            }
            t.push(')');
            t
        }
        _ => return None,
    };
    (kind_of(value).parse(&text).ok()? == *value).then_some(text)
}

/// A mustering table as the bundled files write one: its terrain and flags
/// on the first line, then a row per line (`indent` is the table's).
fn muster_table_text(table: &MusterTable, indent: &str) -> Option<String> {
    use crate::patch::one_line;
    let empty = MusterTable {
        rows: Vec::new(),
        ..table.clone()
    };
    let head = one_line(&empty)?;
    if table.rows.is_empty() {
        return Some(head);
    }
    let open = head.strip_suffix("rows: [])")?;
    let mut text = format!("{open}rows: [\n");
    for row in &table.rows {
        text.push_str(&format!("{indent}    {},\n", one_line(row)?));
    }
    text.push_str(&format!("{indent}])"));
    Some(text)
}

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
            Err(e) => return Err(vec![spanned(&dir.join(MANIFEST), &e)]),
        };
        let (base_rules, base_options) = rules::base_rules(&dir, &manifest, &opts).unzip();
        for (name, kind) in files_of(&manifest) {
            let path = dir.join(&name);
            let text = read(&path).map_err(|d| vec![d])?;
            let value = parse_with(kind, &text, base_rules.as_ref())
                .map_err(|e| vec![spanned(&path, &e)])?;
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
                    Ok(variant) => self.compiled = Some(variant),
                    Err(errors) => {
                        problems.extend(errors);
                        self.compiled = None;
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
                    broken.insert(name.clone(), spanned(&path, &e));
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
                    FileKind::Manifest | FileKind::Battleland | FileKind::Script => {
                        unreachable!("not a single file")
                    }
                };
                *slot = Some(default_name.to_string());
                let empty = match kind {
                    FileKind::Terrains => FileValue::Terrains(Vec::new()),
                    FileKind::Hazards => FileValue::Hazards(Vec::new()),
                    FileKind::Characters => FileValue::Characters(Vec::new()),
                    FileKind::Mustering => FileValue::Mustering(Vec::new()),
                    FileKind::Masterboard => {
                        FileValue::Masterboard(MasterboardDef { lands: Vec::new() })
                    }
                    _ => FileValue::Rules(RulesDef::default()),
                };
                self.own.insert(default_name.to_string(), empty);
                default_name.to_string()
            }
        };
        // Named but missing (the file was not on disk): start it empty.
        if !self.own.contains_key(&name) {
            let empty = match kind {
                FileKind::Terrains => FileValue::Terrains(Vec::new()),
                FileKind::Hazards => FileValue::Hazards(Vec::new()),
                FileKind::Characters => FileValue::Characters(Vec::new()),
                FileKind::Mustering => FileValue::Mustering(Vec::new()),
                FileKind::Masterboard => {
                    FileValue::Masterboard(MasterboardDef { lands: Vec::new() })
                }
                _ => FileValue::Rules(RulesDef::default()),
            };
            self.own.insert(name.clone(), empty);
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
    fn own_battleland(&mut self, terrain: &str) -> Option<&mut BattlelandDef> {
        let name = self.own.iter().find_map(|(n, v)| match v {
            FileValue::Battleland(b) if b.terrain == terrain => Some(n.clone()),
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
    // Reading the merged view
    // -----------------------------------------------------------------------

    pub fn land(&self, number: u32) -> Option<&LandDef> {
        self.data()
            .masterboard
            .lands
            .iter()
            .find(|l| l.number == number)
    }

    pub fn land_at(&self, pos: GridPos) -> Option<&LandDef> {
        self.data()
            .masterboard
            .lands
            .iter()
            .find(|l| l.position == pos)
    }

    pub fn battleland(&self, terrain: &str) -> Option<&BattlelandDef> {
        self.data()
            .battlelands
            .iter()
            .find(|b| b.terrain == terrain)
    }

    pub fn character(&self, name: &str) -> Option<&CharacterDef> {
        self.data().characters.iter().find(|c| c.name == name)
    }

    pub fn muster_table(&self, terrain: &str) -> Option<&MusterTable> {
        self.data().mustering.iter().find(|m| m.terrain == terrain)
    }

    /// The lands where a legion alone on the board, on land `from`, may end
    /// its move with `roll`, following the signs (the masterplay engine's
    /// movement, Law of Titan 7; teleports not included). `None` while the
    /// variant does not validate.
    ///
    /// ```
    /// use titan_editor::project::Project;
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    /// let project = Project::open(&dir).unwrap();
    /// let ends = project.moves_from(1, 2).unwrap();
    /// assert!(!ends.is_empty());
    /// ```
    pub fn moves_from(&self, from: u32, roll: u8) -> Option<Vec<u32>> {
        use titan_core::game::{Exits, Occupancy};
        let variant = self.compiled.as_ref()?;
        let start = variant.board.by_number(from)?;
        let empty = vec![Occupancy::Empty; variant.board.land_count()];
        let mut ends: Vec<u32> = Exits::new(variant)
            .moves(start, roll, &empty)
            .into_iter()
            .map(|t| variant.board.land(t.land).number)
            .collect();
        ends.sort_unstable();
        ends.dedup();
        Some(ends)
    }

    /// The line of sight between two hexes of a terrain's battleland, with
    /// no character on it, as the battle engine draws it: each reading of
    /// the centre-to-centre line (two where it runs along a hexside; the
    /// rangestriker picks, reference sheet "Rangestriking") with the hexes
    /// it crosses and what blocks it, if anything (a non-magic rangestrike;
    /// magic ones are never blocked). `None` while the variant does not
    /// validate or the labels are wrong.
    ///
    /// ```
    /// use titan_editor::project::Project;
    /// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    /// let project = Project::open(&dir).unwrap();
    /// let lines = project.line_of_sight("Plains", "A1", "A3").unwrap();
    /// assert_eq!(lines[0].hexes, ["A1", "A2", "A3"]);
    /// assert_eq!(lines[0].blocked, None);
    /// ```
    pub fn line_of_sight(&self, terrain: &str, from: &str, to: &str) -> Option<Vec<SightLine>> {
        use titan_core::battle::geometry::{blocked, sight_lines};
        let variant = self.compiled.as_ref()?;
        let land = variant.battleland(variant.terrain_by_name(terrain)?);
        let (a, b) = (HexId::from_label(from)?, HexId::from_label(to)?);
        let (first, second) = sight_lines(a, b);
        Some(
            std::iter::once(first)
                .chain(second)
                .map(|path| SightLine {
                    blocked: if path.len() > 2 {
                        blocked(variant, land, &path, &|_| None)
                    } else {
                        None
                    },
                    hexes: path.iter().map(|h| h.label()).collect(),
                })
                .collect(),
        )
    }

    /// Whether an item of the merged view comes from a base variant rather
    /// than the edited one (an edit of it becomes an override).
    pub fn land_is_inherited(&self, number: u32) -> bool {
        self.origin_is_base(self.origins().lands.get(&number).copied())
    }

    fn origin_is_base(&self, file: Option<titan_core::diag::FileId>) -> bool {
        file.is_some_and(|f| {
            let path = &self.loaded.sources.get(f).path;
            !path.starts_with(&self.dir)
        })
    }

    // -----------------------------------------------------------------------
    // Edits
    // -----------------------------------------------------------------------

    /// Replaces (or adds) a land, keyed by its number.
    pub fn set_land(&mut self, land: LandDef) {
        let key = format!("land {}", land.number);
        self.edit(&key, |p| {
            if let Some(lands) = p.own_lands() {
                match lands.iter_mut().find(|l| l.number == land.number) {
                    Some(slot) => *slot = land,
                    None => lands.push(land),
                }
            }
        });
    }

    /// Adds a land at a free grid cell, of the first terrain, with the
    /// next free number. Returns its number.
    pub fn add_land(&mut self, position: GridPos) -> Option<u32> {
        if self.land_at(position).is_some() {
            return None;
        }
        let number = self
            .data()
            .masterboard
            .lands
            .iter()
            .map(|l| l.number)
            .filter(|n| *n < 1000)
            .max()
            .unwrap_or(0)
            + 1;
        let terrain = self.data().terrains.first()?.name.clone();
        self.last_key = None;
        self.set_land(LandDef {
            number,
            name: None,
            terrain,
            position,
            exits: Vec::new(),
        });
        self.last_key = None;
        Some(number)
    }

    /// Deletes a land and the signs leading to it. A land a base variant
    /// has is removed through the manifest's `remove.lands`.
    pub fn delete_land(&mut self, number: u32) {
        if self.land(number).is_none() {
            return;
        }
        let in_base = self.base_has_land(number);
        let pointing: Vec<LandDef> = self
            .data()
            .masterboard
            .lands
            .iter()
            .filter(|l| l.number != number && l.exits.iter().any(|e| e.to == number))
            .cloned()
            .collect();
        self.last_key = None;
        self.edit(&format!("delete land {number}"), |p| {
            if let Some(FileValue::Masterboard(b)) = p
                .manifest()
                .files
                .masterboard
                .clone()
                .and_then(|n| p.own.get_mut(&n))
            {
                b.lands.retain(|l| l.number != number);
            }
            if in_base && !p.manifest().remove.lands.contains(&number) {
                p.manifest_mut().remove.lands.push(number);
            }
            if !in_base {
                for mut land in pointing {
                    land.exits.retain(|e| e.to != number);
                    if let Some(lands) = p.own_lands() {
                        match lands.iter_mut().find(|l| l.number == land.number) {
                            Some(slot) => *slot = land,
                            None => lands.push(land),
                        }
                    }
                }
            }
        });
        self.last_key = None;
    }

    /// Gives land `old` the number `new` (if free), and points the signs
    /// leading to it at the new number.
    pub fn renumber_land(&mut self, old: u32, new: u32) {
        if self.land(new).is_some() {
            return;
        }
        let Some(mut land) = self.land(old).cloned() else {
            return;
        };
        land.number = new;
        let in_base = self.base_has_land(old);
        let pointing: Vec<LandDef> = self
            .data()
            .masterboard
            .lands
            .iter()
            .filter(|l| l.number != old && l.exits.iter().any(|e| e.to == old))
            .cloned()
            .collect();
        self.last_key = None;
        self.edit(&format!("renumber land {old}"), |p| {
            let Some(lands) = p.own_lands() else {
                return;
            };
            lands.retain(|l| l.number != old);
            lands.push(land);
            for mut l in pointing {
                for e in &mut l.exits {
                    if e.to == old {
                        e.to = new;
                    }
                }
                match lands.iter_mut().find(|x| x.number == l.number) {
                    Some(slot) => *slot = l,
                    None => lands.push(l),
                }
            }
            if in_base && !p.manifest().remove.lands.contains(&old) {
                p.manifest_mut().remove.lands.push(old);
            }
        });
        self.last_key = None;
    }

    /// Whether the base variant (merged) has land `number`.
    fn base_has_land(&self, number: u32) -> bool {
        if self.manifest().extends.is_none() {
            return false;
        }
        let Some(base_dir) = self.watched_dirs().get(1).cloned() else {
            return false;
        };
        load_data_with(&base_dir, &self.opts, &Overlay::new())
            .is_ok_and(|b| b.data.masterboard.lands.iter().any(|l| l.number == number))
    }

    /// Sets or clears the sign on `from`'s border towards `to`.
    pub fn set_sign(&mut self, from: u32, to: u32, sign: Option<Sign>) {
        let Some(mut land) = self.land(from).cloned() else {
            return;
        };
        land.exits.retain(|e| e.to != to);
        if let Some(sign) = sign {
            // Keep the printed order: by the neighbour's number.
            land.exits.push(ExitDef { to, sign });
        }
        self.last_key = None;
        self.set_land(land);
        self.last_key = None;
    }

    /// Sets a hex's hazard and elevation.
    pub fn set_hex(&mut self, terrain: &str, label: &str, hazard: &str, elevation: u8) {
        let key = format!("hex {terrain} {label}");
        let (terrain, label, hazard) = (terrain.to_string(), label.to_string(), hazard.to_string());
        self.edit(&key, |p| {
            if let Some(b) = p.own_battleland(&terrain) {
                let hex = b.hexes.entry(label).or_insert_with(|| HexDef {
                    hazard: hazard.clone(),
                    elevation: 0,
                    sides: BTreeMap::new(),
                });
                hex.hazard = hazard;
                hex.elevation = elevation;
            }
        });
    }

    /// Sets or clears the hexside hazard on `side` of hex `label`, which
    /// becomes its top side; one on the same hexside written on the
    /// neighbour is cleared.
    pub fn set_hexside(&mut self, terrain: &str, label: &str, side: Side, hazard: Option<&str>) {
        let neighbour = HexId::from_label(label)
            .and_then(|h| h.neighbour(side))
            .map(HexId::label);
        let (terrain, label) = (terrain.to_string(), label.to_string());
        let hazard = hazard.map(str::to_string);
        self.last_key = None;
        self.edit(&format!("hexside {terrain} {label} {side:?}"), |p| {
            if let Some(b) = p.own_battleland(&terrain) {
                if let Some(n) = neighbour.and_then(|n| b.hexes.get_mut(&n)) {
                    n.sides.remove(&side.opposite());
                }
                if let Some(hex) = b.hexes.get_mut(&label) {
                    match hazard {
                        Some(h) => {
                            hex.sides.insert(side, h);
                        }
                        None => {
                            hex.sides.remove(&side);
                        }
                    }
                }
            }
        });
        self.last_key = None;
    }

    /// Replaces (or adds) a character, keyed by `old_name` (so renaming
    /// works).
    pub fn set_character(&mut self, old_name: &str, character: CharacterDef) {
        let key = format!("character {old_name}");
        let old = old_name.to_string();
        self.edit(&key, |p| {
            if let Some(list) = p.own_characters() {
                match list.iter_mut().find(|c| c.name == old) {
                    Some(slot) => *slot = character,
                    None => list.push(character),
                }
            }
        });
    }

    /// Replaces (or adds) a terrain's mustering table as an undo step of its
    /// own (adding a row or a need, choosing from a menu), unlike
    /// [`Project::set_muster_table`], which merges with a moment-ago edit
    /// of the same table (dragging a number).
    pub fn set_muster_table_step(&mut self, table: MusterTable) {
        self.last_key = None;
        self.set_muster_table(table);
        self.last_key = None;
    }

    /// Replaces (or adds) a terrain's mustering table.
    pub fn set_muster_table(&mut self, table: MusterTable) {
        let key = format!("mustering {}", table.terrain);
        self.edit(&key, |p| {
            if let Some(list) = p.own_mustering() {
                match list.iter_mut().find(|t| t.terrain == table.terrain) {
                    Some(slot) => *slot = table,
                    None => list.push(table),
                }
            }
        });
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
                && HexId::from_label(&rest[..end]).is_some()
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

fn read(path: &Path) -> Result<String, Diagnostic> {
    std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::file(path, format!("cannot read the file: {e}")))
}

fn spanned(path: &Path, e: &ron::error::SpannedError) -> Diagnostic {
    Diagnostic {
        file: path.display().to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
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
