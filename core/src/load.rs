//! Reading a variant folder: the manifest, the files it names, and the
//! variants it extends, merged into one [`VariantData`].
//!
//! A variant that `extends` a base names only the files it changes. Each file
//! is merged over the base's by key: terrains, hazards and characters by name,
//! mustering tables and battlelands by terrain, lands by number, rule options
//! by name, and `rules.ron` section by section. Scripts of the base run first.
//! `remove` in the manifest takes characters (with the mustering rows naming
//! them) or lands (with the exits leading to them) away from the base.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::diag::{Diagnostic, FileId, Sources};
use crate::format::ScriptSource;
use crate::format::{
    BattlelandDef, CharacterDef, HazardDef, Manifest, MasterboardDef, MusterTable, Needs, RulesDef,
    TerrainDef, VariableDef, VariantData,
};

/// The prefix of a script path that points into the shared `scripts/` folder.
pub const SHARED_PREFIX: &str = "shared:";

/// Where to look for what a variant refers to outside its own folder.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Folders searched for a base variant (a folder named by the id in
    /// `extends`), after the folder that holds the variant itself.
    pub search_paths: Vec<PathBuf>,
    /// The shared scripts folder. When absent: `scripts/` beside the folder
    /// that holds the variant (the repository's layout).
    pub shared_scripts: Option<PathBuf>,
}

/// Where each merged item was defined, to place errors found later.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    pub manifest: FileId,
    pub terrains: HashMap<String, FileId>,
    pub hazards: HashMap<String, FileId>,
    pub characters: HashMap<String, FileId>,
    pub mustering: HashMap<String, FileId>,
    pub lands: HashMap<u32, FileId>,
    /// By terrain and alternative.
    pub battlelands: HashMap<(String, u32), FileId>,
    pub variables: HashMap<String, FileId>,
    pub actions: HashMap<String, FileId>,
    /// Per section of `rules.ron` (`"start"`, `"battle"`, ...).
    pub rules: HashMap<&'static str, FileId>,
}

impl Origins {
    /// The file a rules section came from (the manifest when none did).
    pub fn rules_file(&self, section: &str) -> FileId {
        self.rules.get(section).copied().unwrap_or(self.manifest)
    }
}

/// A variant read and merged, not yet validated.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub dir: PathBuf,
    pub data: VariantData,
    pub sources: Sources,
    pub origins: Origins,
}

/// The RON dialect of variant files: `Some(..)` may be left out.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Reads the variant in `dir` and the variants it extends.
pub fn load_data(dir: &Path, opts: &LoadOptions) -> Result<Loaded, Vec<Diagnostic>> {
    load_data_with(dir, opts, &Overlay::new())
}

/// Texts that stand in for files on disk, by the path the loader forms
/// (`dir.join(name)`): an editor validates unsaved edits through the same
/// loader without writing them.
pub type Overlay = HashMap<PathBuf, String>;

/// [`load_data`], reading the files in `overlay` from it instead of the disk
/// (a file in the overlay need not exist on disk).
///
/// ```
/// use std::path::Path;
/// use titan_core::load::{load_data_with, Overlay};
/// let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
/// let mut overlay = Overlay::new();
/// overlay.insert(dir.join("terrains.ron"), "[]".into());
/// let loaded = load_data_with(&dir, &Default::default(), &overlay).unwrap();
/// assert!(loaded.data.terrains.is_empty());
/// ```
pub fn load_data_with(
    dir: &Path,
    opts: &LoadOptions,
    overlay: &Overlay,
) -> Result<Loaded, Vec<Diagnostic>> {
    let mut sources = Sources::default();
    let mut chain = Vec::new();
    let (data, origins) = load_layer(dir, opts, overlay, &mut sources, &mut chain)?;
    Ok(Loaded {
        dir: dir.to_path_buf(),
        data,
        sources,
        origins,
    })
}

/// Reads and parses one RON file.
fn parse<T: DeserializeOwned>(
    sources: &mut Sources,
    overlay: &Overlay,
    path: &Path,
) -> Result<(T, FileId), Diagnostic> {
    parse_with(sources, overlay, path, &|t: &str| t.to_string())
}

/// [`parse`], reading the text as `prepare` makes it (its lines unmoved).
fn parse_with<T: DeserializeOwned>(
    sources: &mut Sources,
    overlay: &Overlay,
    path: &Path,
    prepare: &dyn Fn(&str) -> String,
) -> Result<(T, FileId), Diagnostic> {
    let text = read_text(overlay, path, &sources.roots)
        .map_err(|e| Diagnostic::file(path, format!("cannot read the file: {e}")))?;
    let id = sources.add(path.to_path_buf(), text);
    let text = prepare(&sources.get(id).text);
    match ron_options().from_str::<T>(&text) {
        Ok(value) => Ok((value, id)),
        Err(e) => Err(Diagnostic {
            file: path.display().to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: crate::diag::ron_message(&text, &e),
        }),
    }
}

/// A file's text, from the overlay when it has it. The file must lie in one
/// of `roots` (symbolic links resolved) and be a regular file of at most
/// [`crate::files::MAX_VARIANT_FILE_BYTES`].
fn read_text(overlay: &Overlay, path: &Path, roots: &[PathBuf]) -> std::io::Result<String> {
    if !crate::files::inside(path, roots) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the path leads out of the variant (a variant reads only its folder, the folders of the variants it extends and the shared scripts folder)",
        ));
    }
    match overlay.get(path) {
        Some(text) => Ok(text.clone()),
        None => crate::files::read_regular(path, crate::files::MAX_VARIANT_FILE_BYTES),
    }
}

fn load_layer(
    dir: &Path,
    opts: &LoadOptions,
    overlay: &Overlay,
    sources: &mut Sources,
    chain: &mut Vec<String>,
) -> Result<(VariantData, Origins), Vec<Diagnostic>> {
    let manifest_path = dir.join("variant.ron");
    if !manifest_path.is_file() && !overlay.contains_key(&manifest_path) {
        return Err(vec![Diagnostic::file(
            &manifest_path,
            format!("no variant here: {} has no variant.ron", dir.display()),
        )]);
    }
    sources.roots.push(dir.to_path_buf());
    let manifest = parse(sources, overlay, &manifest_path);
    sources.roots.pop();
    let (manifest, manifest_id): (Manifest, FileId) = manifest.map_err(|d| vec![d])?;

    if let Some(seen) = chain.iter().position(|id| *id == manifest.id) {
        let mut cycle = chain[seen..].to_vec();
        cycle.push(manifest.id.clone());
        return Err(vec![sources.at(
            manifest_id,
            &["extends:"],
            format!("`extends` makes a cycle: {}", cycle.join(" -> ")),
        )]);
    }
    chain.push(manifest.id.clone());

    // The base first, so that this layer merges over it.
    let (mut data, mut origins) = match &manifest.extends {
        Some(base_id) => {
            let Some(base_dir) = find_base(base_id, dir, opts) else {
                return Err(vec![sources.at(
                    manifest_id,
                    &["extends:", &format!("\"{base_id}\"")],
                    format!(
                        "`extends` names variant {base_id:?}, but there is no folder {base_id:?} with a variant.ron beside this one{}",
                        if opts.search_paths.is_empty() { "" } else { " or in the search path" }
                    ),
                )]);
            };
            let (base, origins) = load_layer(&base_dir, opts, overlay, sources, chain)?;
            if base.manifest.id != *base_id {
                return Err(vec![sources.at(
                    manifest_id,
                    &["extends:"],
                    format!(
                        "`extends` names {base_id:?}, but {} holds variant {:?}",
                        base_dir.display(),
                        base.manifest.id
                    ),
                )]);
            }
            (base, origins)
        }
        None => (empty_data(manifest.clone()), Origins::default()),
    };
    chain.pop();
    // This layer reads in its folder and its bases' (pushed before this).
    sources.roots.push(dir.to_path_buf());

    let mut errors = Vec::new();
    let mut files = manifest.files.clone();
    confine(&mut files, dir, opts, sources, manifest_id, &mut errors);
    let read = |name: &Option<String>| name.as_ref().map(|n| dir.join(n));

    if let Some(path) = read(&files.terrains) {
        match parse::<Vec<TerrainDef>>(sources, overlay, &path) {
            Ok((list, file)) => merge(
                &mut data.terrains,
                list,
                |t| t.name.clone(),
                &mut origins.terrains,
                file,
                sources,
                &mut errors,
            ),
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.hazards) {
        match parse::<Vec<HazardDef>>(sources, overlay, &path) {
            Ok((list, file)) => merge(
                &mut data.hazards,
                list,
                |h| h.name.clone(),
                &mut origins.hazards,
                file,
                sources,
                &mut errors,
            ),
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.characters) {
        match parse::<Vec<CharacterDef>>(sources, overlay, &path) {
            Ok((list, file)) => merge(
                &mut data.characters,
                list,
                |c| c.name.clone(),
                &mut origins.characters,
                file,
                sources,
                &mut errors,
            ),
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.mustering) {
        match parse::<Vec<MusterTable>>(sources, overlay, &path) {
            Ok((list, file)) => merge(
                &mut data.mustering,
                list,
                |m| m.terrain.clone(),
                &mut origins.mustering,
                file,
                sources,
                &mut errors,
            ),
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.masterboard) {
        match parse::<MasterboardDef>(sources, overlay, &path) {
            Ok((board, file)) => {
                if board.one_way_signs.is_some() {
                    data.masterboard.one_way_signs = board.one_way_signs;
                }
                merge(
                    &mut data.masterboard.lands,
                    board.lands,
                    |l| l.number,
                    &mut origins.lands,
                    file,
                    sources,
                    &mut errors,
                )
            }
            Err(d) => errors.push(d),
        }
    }
    // One file per battleland in a layer: a name listed twice, or two files
    // of one terrain and alternative, would silently keep only the last. A
    // layer that gives a terrain battlelands replaces all the base's.
    let mut listed: Vec<&String> = Vec::new();
    let mut given: HashMap<(String, u32), PathBuf> = HashMap::new();
    for name in &files.battlelands {
        if listed.contains(&name) {
            errors.push(sources.at(
                manifest_id,
                &[
                    "battlelands",
                    &format!("\"{name}\""),
                    &format!("\"{name}\""),
                ],
                format!("battleland file {name:?} is listed twice"),
            ));
            continue;
        }
        listed.push(name);
        match parse::<BattlelandDef>(sources, overlay, &dir.join(name)) {
            Ok((land, file)) => {
                let key = (land.terrain.clone(), land.alternative);
                if let Some(other) = given.get(&key) {
                    let which = match land.alternative {
                        1 => String::new(),
                        n => format!(" (alternative {n})"),
                    };
                    errors.push(sources.at(
                        file,
                        &["terrain"],
                        format!(
                            "this file is the battleland of {:?}{which}, which {} already is: one file per terrain and alternative",
                            land.terrain,
                            other.display()
                        ),
                    ));
                    continue;
                }
                let fresh = !given.keys().any(|(t, _)| *t == land.terrain);
                given.insert(key, dir.join(name));
                add_battleland(
                    &mut data.battlelands,
                    &mut origins.battlelands,
                    land,
                    file,
                    fresh,
                );
            }
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.rules) {
        // Sections merge field by field over the base's (crate::rules_patch).
        let base = data.rules.clone();
        let complete = move |t: &str| crate::rules_patch::complete(t, &base);
        match parse_with::<RulesDef>(sources, overlay, &path, &complete) {
            Ok((rules, file)) => merge_rules(&mut data.rules, rules, &mut origins, file),
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.variables) {
        match parse::<Vec<VariableDef>>(sources, overlay, &path) {
            Ok((list, file)) => merge(
                &mut data.variables,
                list,
                |v| v.name.clone(),
                &mut origins.variables,
                file,
                sources,
                &mut errors,
            ),
            Err(d) => errors.push(d),
        }
    }
    if let Some(path) = read(&files.actions) {
        match parse::<Vec<crate::format::ActionDef>>(sources, overlay, &path) {
            Ok((list, file)) => merge(
                &mut data.actions,
                list,
                |a| a.name.clone(),
                &mut origins.actions,
                file,
                sources,
                &mut errors,
            ),
            Err(d) => errors.push(d),
        }
    }
    for name in &files.scripts {
        let path = match name.strip_prefix(SHARED_PREFIX) {
            Some(shared) => shared_dir(dir, opts).join(shared),
            None => dir.join(name),
        };
        let display = path.display().to_string();
        if data.scripts.iter().any(|s| s.name == display) {
            continue; // a base already runs it
        }
        let roots = match name.strip_prefix(SHARED_PREFIX) {
            Some(_) => vec![shared_dir(dir, opts)],
            None => sources.roots.clone(),
        };
        match read_text(overlay, &path, &roots) {
            Ok(code) => {
                sources.add(path.clone(), code.clone());
                data.scripts.push(ScriptSource {
                    name: display,
                    code,
                });
            }
            Err(e) => errors.push(sources.at(
                manifest_id,
                &["scripts", name],
                format!("cannot read script {}: {e}", path.display()),
            )),
        }
    }

    remove(
        &mut data,
        &mut origins,
        &manifest,
        manifest_id,
        sources,
        &mut errors,
    );

    // The manifest of the merged variant is this layer's, inheriting what it
    // leaves out.
    let mut options = std::mem::take(&mut data.manifest.options);
    for option in manifest.options.clone() {
        match options.iter_mut().find(|o| o.name == option.name) {
            Some(slot) => *slot = option,
            None => options.push(option),
        }
    }
    let players = manifest.players.or(data.manifest.players);
    data.manifest = Manifest {
        players,
        options,
        ..manifest
    };
    origins.manifest = manifest_id;

    if errors.is_empty() {
        Ok((data, origins))
    } else {
        Err(errors)
    }
}

fn empty_data(manifest: Manifest) -> VariantData {
    VariantData {
        manifest,
        terrains: Vec::new(),
        hazards: Vec::new(),
        characters: Vec::new(),
        mustering: Vec::new(),
        masterboard: MasterboardDef {
            lands: Vec::new(),
            one_way_signs: None,
        },
        battlelands: Vec::new(),
        rules: RulesDef::default(),
        scripts: Vec::new(),
        variables: Vec::new(),
        actions: Vec::new(),
    }
}

/// Drops (as errors at the manifest) the file names that lead out of the
/// folders this layer may read: its own and its bases' (`sources.roots`),
/// and the shared scripts folder for `shared:` scripts.
fn confine(
    files: &mut crate::format::Files,
    dir: &Path,
    opts: &LoadOptions,
    sources: &Sources,
    manifest_id: FileId,
    errors: &mut Vec<Diagnostic>,
) {
    let mut keep = |name: &String, shared: bool| {
        let (path, roots) = match name.strip_prefix(SHARED_PREFIX) {
            Some(rest) if shared => {
                let root = shared_dir(dir, opts);
                (root.join(rest), vec![root])
            }
            _ => (dir.join(name), sources.roots.clone()),
        };
        let inside = crate::files::inside(&path, &roots);
        if !inside {
            errors.push(sources.at(
                manifest_id,
                &["files", name],
                format!(
                    "{name:?} leads out of the variant: a variant reads only files in its folder, the folders of the variants it extends{}",
                    if shared { " and the shared scripts folder" } else { "" }
                ),
            ));
        }
        inside
    };
    for slot in [
        &mut files.terrains,
        &mut files.hazards,
        &mut files.characters,
        &mut files.mustering,
        &mut files.masterboard,
        &mut files.rules,
        &mut files.variables,
        &mut files.actions,
    ] {
        if slot.as_ref().is_some_and(|n| !keep(n, false)) {
            *slot = None;
        }
    }
    files.battlelands.retain(|n| keep(n, false));
    files.scripts.retain(|n| keep(n, true));
}

/// The folder of a base variant named `id`.
fn find_base(id: &str, dir: &Path, opts: &LoadOptions) -> Option<PathBuf> {
    let beside = dir.parent().map(|p| p.join(id));
    beside
        .into_iter()
        .chain(opts.search_paths.iter().map(|p| p.join(id)))
        .find(|candidate| candidate.join("variant.ron").is_file())
}

fn shared_dir(dir: &Path, opts: &LoadOptions) -> PathBuf {
    opts.shared_scripts.clone().unwrap_or_else(|| {
        // variants/<name>/ -> scripts/ beside variants/
        let variants = dir.parent().unwrap_or(Path::new("."));
        variants.parent().unwrap_or(Path::new(".")).join("scripts")
    })
}

/// Merges `overlay` over `base` by key: an item with a key the base has
/// replaces it in place; a new key is appended. A key twice in one file is an
/// error.
fn merge<T, K: Eq + Hash + Clone + std::fmt::Display>(
    base: &mut Vec<T>,
    overlay: Vec<T>,
    key: impl Fn(&T) -> K,
    origins: &mut HashMap<K, FileId>,
    file: FileId,
    sources: &Sources,
    errors: &mut Vec<Diagnostic>,
) {
    let mut seen = HashSet::new();
    for item in overlay {
        let k = key(&item);
        if !seen.insert(k.clone()) {
            let quoted = format!("\"{k}\"");
            let plain = k.to_string();
            // The second occurrence: a name is quoted, a land number is not.
            let text = &sources.get(file).text;
            let needle = if text.contains(&quoted) {
                quoted
            } else {
                plain
            };
            errors.push(sources.at(
                file,
                &[&needle, &needle],
                format!("{k} is defined twice in this file"),
            ));
            continue;
        }
        origins.insert(k.clone(), file);
        match base.iter_mut().find(|b| key(b) == k) {
            Some(slot) => *slot = item,
            None => base.push(item),
        }
    }
}

/// Adds a layer's battleland: the first of its terrain in the layer
/// (`fresh`) takes the place of all the base's of that terrain, the others
/// follow it.
fn add_battleland(
    lands: &mut Vec<BattlelandDef>,
    origins: &mut HashMap<(String, u32), FileId>,
    land: BattlelandDef,
    file: FileId,
    fresh: bool,
) {
    let terrain = land.terrain.clone();
    let at = if fresh {
        let at = lands.iter().position(|b| b.terrain == terrain);
        lands.retain(|b| b.terrain != terrain);
        origins.retain(|(t, _), _| *t != terrain);
        at.unwrap_or(lands.len())
    } else {
        lands
            .iter()
            .rposition(|b| b.terrain == terrain)
            .map_or(lands.len(), |i| i + 1)
    };
    origins.insert((terrain, land.alternative), file);
    lands.insert(at, land);
}

fn merge_rules(base: &mut RulesDef, overlay: RulesDef, origins: &mut Origins, file: FileId) {
    macro_rules! section {
        ($($field:ident),*) => {$(
            if overlay.$field.is_some() {
                base.$field = overlay.$field;
                origins.rules.insert(stringify!($field), file);
            }
        )*};
    }
    section!(
        classes,
        legions,
        start,
        movement,
        titan,
        scoring,
        strike_chart,
        battle,
        scripts
    );
}

/// Applies a layer's `remove` to the merged data.
fn remove(
    data: &mut VariantData,
    origins: &mut Origins,
    manifest: &Manifest,
    manifest_id: FileId,
    sources: &Sources,
    errors: &mut Vec<Diagnostic>,
) {
    for name in &manifest.remove.characters {
        let before = data.characters.len();
        data.characters.retain(|c| c.name != *name);
        if data.characters.len() == before {
            errors.push(sources.at(
                manifest_id,
                &["remove", &format!("\"{name}\"")],
                format!("cannot remove character {name:?}: there is no such character"),
            ));
            continue;
        }
        origins.characters.remove(name);
        for table in &mut data.mustering {
            let mut i = 0;
            while i < table.rows.len() {
                if table.rows[i].character != *name {
                    i += 1;
                    continue;
                }
                table.rows.remove(i);
                // The row above is gone, so "n of the previous" means nothing now.
                if let Some(next) = table.rows.get_mut(i) {
                    next.needs.retain(|n| !matches!(n, Needs::Previous(_)));
                }
            }
        }
    }
    for &number in &manifest.remove.lands {
        let before = data.masterboard.lands.len();
        data.masterboard.lands.retain(|l| l.number != number);
        if data.masterboard.lands.len() == before {
            errors.push(sources.at(
                manifest_id,
                &["remove", &number.to_string()],
                format!("cannot remove land {number}: there is no such land"),
            ));
            continue;
        }
        origins.lands.remove(&number);
        for land in &mut data.masterboard.lands {
            land.exits.retain(|e| e.to != number);
        }
    }
}
