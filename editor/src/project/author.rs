//! Authoring beyond changing what exists: new variants, copies, and adding,
//! renaming and deleting characters with the references that follow them.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use titan_core::format::{CharacterDef, Manifest, MusterTable, Needs, RulesDef};
use titan_core::load::ron_options;
use titan_core::write::write_atomic;

use super::{FileKind, FileValue, MANIFEST, Project};

/// Whether `id` may name a new variant: a folder name other variants can
/// `extends` (letters, digits, `-` and `_`).
pub fn valid_variant_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Creates `root/<id>/variant.ron`: a variant that extends the variant in
/// the sibling folder `base` and has nothing of its own yet. Returns the
/// new folder. Refuses a bad name, a missing base and an existing folder.
///
/// ```
/// let tmp = tempfile::tempdir().unwrap();
/// let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
/// std::fs::create_dir_all(tmp.path().join("titan")).unwrap();
/// std::fs::copy(root.join("titan/variant.ron"), tmp.path().join("titan/variant.ron")).unwrap();
/// let dir = titan_editor::project::create_extending(tmp.path(), "house", "titan").unwrap();
/// assert!(dir.join("variant.ron").is_file());
/// assert!(titan_editor::project::create_extending(tmp.path(), "house", "titan").is_err());
/// ```
pub fn create_extending(root: &Path, id: &str, base: &str) -> Result<PathBuf, String> {
    if !valid_variant_id(id) {
        return Err(format!(
            "{id:?} cannot name a variant: use letters, digits, '-' and '_'"
        ));
    }
    if !root.join(base).join(MANIFEST).is_file() {
        return Err(format!("there is no variant {base:?} to extend"));
    }
    let dir = root.join(id);
    if dir.exists() {
        return Err(format!("{} already exists", dir.display()));
    }
    // Written as an author would: a comment, then one field per line.
    let text = format!(
        "// {id}: a variant of `{base}`. Files named under `files` replace or add to the\n\
         // base's items; `remove` takes characters or lands away.\n\
         (\n    id: {id:?},\n    title: {id:?},\n    version: \"0.1.0\",\n    extends: {base:?},\n)\n"
    );
    debug_assert!(FileKind::Manifest.parse(&text).is_ok());
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    write_atomic(&dir.join(MANIFEST), text.as_bytes())
        .map_err(|e| format!("cannot write the manifest: {e}"))?;
    Ok(dir)
}

/// Copies a folder tree (a flat variant's README, scripts and other files
/// come along).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// A text replacement of a quoted name through a value's RON text: every
/// string equal to `old` becomes `new` (names are whole strings, so a
/// longer name holding `old` is left alone).
fn renamed<T: Serialize + DeserializeOwned>(value: &T, old: &str, new: &str) -> Option<T> {
    let text = ron_options().to_string(value).ok()?;
    let (from, to) = (format!("{old:?}"), format!("{new:?}"));
    if !text.contains(&from) {
        return None;
    }
    ron_options().from_str(&text.replace(&from, &to)).ok()
}

/// What refers to a character, for showing before it is deleted or renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct References {
    /// Terrains whose mustering table names it.
    pub mustering: Vec<String>,
    /// Sections of `rules.ron` that name it.
    pub rules: Vec<String>,
    /// Scripts whose text mentions the name (left as they are).
    pub scripts: Vec<String>,
}

impl References {
    pub fn is_empty(&self) -> bool {
        self.mustering.is_empty() && self.rules.is_empty() && self.scripts.is_empty()
    }
}

/// The sections of `rules.ron`, by name, as RON values (for comparing and
/// renaming one section at a time).
fn rule_sections(rules: &RulesDef) -> Vec<(&'static str, String)> {
    fn s<T: Serialize>(v: &Option<T>) -> String {
        ron_options().to_string(v).unwrap_or_default()
    }
    vec![
        ("classes", s(&rules.classes)),
        ("legions", s(&rules.legions)),
        ("start", s(&rules.start)),
        ("movement", s(&rules.movement)),
        ("titan", s(&rules.titan)),
        ("scoring", s(&rules.scoring)),
        ("strike_chart", s(&rules.strike_chart)),
        ("battle", s(&rules.battle)),
        ("scripts", s(&rules.scripts)),
    ]
}

impl Project {
    /// Writes the variant, unsaved edits included, to the new folder
    /// `root/<id>` with that id, and returns the folder. A flat variant is
    /// copied file by file (comments, README and scripts kept, each edited
    /// file patched as saving would); a variant that extends another is
    /// written flat, merged with its bases (`titan_core::write::write_flat`).
    pub fn save_as_copy(&self, root: &Path, id: &str) -> Result<PathBuf, String> {
        if !valid_variant_id(id) {
            return Err(format!(
                "{id:?} cannot name a variant: use letters, digits, '-' and '_'"
            ));
        }
        let dir = root.join(id);
        if dir.exists() {
            return Err(format!("{} already exists", dir.display()));
        }
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", dir.display());
        if self.manifest().extends.is_some() {
            let mut data = self.data().clone();
            data.manifest.id = id.to_string();
            data.manifest.title = format!("{} ({id})", data.manifest.title);
            titan_core::write::write_flat(&data, &dir).map_err(fail)?;
            return Ok(dir);
        }
        copy_tree(&self.dir, &dir).map_err(fail)?;
        for (name, value) in &self.own {
            let mut value = value.clone();
            if let FileValue::Manifest(m) = &mut value {
                m.id = id.to_string();
                m.title = format!("{} ({id})", m.title);
            }
            let original = self.disk.get(name).map(|d| d.text.as_str());
            let text = super::render_with(&value, original, self.base_rules.as_ref());
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(fail)?;
            }
            write_atomic(&path, text.as_bytes()).map_err(fail)?;
        }
        Ok(dir)
    }

    /// What refers to character `name` in the merged variant.
    pub fn character_references(&self, name: &str) -> References {
        let quoted = format!("{name:?}");
        let mustering = self
            .data()
            .mustering
            .iter()
            .filter(|t| {
                ron_options()
                    .to_string(&t.rows)
                    .is_ok_and(|s| s.contains(&quoted))
            })
            .map(|t| t.terrain.clone())
            .collect();
        let rules = rule_sections(&self.data().rules)
            .into_iter()
            .filter(|(_, text)| text.contains(&quoted))
            .map(|(s, _)| s.to_string())
            .collect();
        let scripts = self
            .data()
            .scripts
            .iter()
            .filter(|s| s.code.contains(name))
            .map(|s| s.name.clone())
            .collect();
        References {
            mustering,
            rules,
            scripts,
        }
    }

    /// Adds a character with a name not yet used (`New creature`, then
    /// `New creature 2`, ...), a creature of the first class. Returns its
    /// name.
    pub fn add_character(&mut self) -> String {
        let mut name = "New creature".to_string();
        let mut n = 1;
        while self.character(&name).is_some() {
            n += 1;
            name = format!("New creature {n}");
        }
        let class = self
            .data()
            .rules
            .classes
            .iter()
            .flatten()
            .map(|c| c.name.clone())
            .find(|c| c == "creature")
            .or_else(|| {
                self.data()
                    .rules
                    .classes
                    .iter()
                    .flatten()
                    .last()
                    .map(|c| c.name.clone())
            })
            .unwrap_or_default();
        let character = CharacterDef {
            per_legion: None,
            name: name.clone(),
            plural: format!("{name}s"),
            power: 4,
            skill: 3,
            class,
            flies: false,
            rangestrike: None,
            natives: Vec::new(),
            count: 10,
            summonable: false,
            value: None,
            abilities: Vec::new(),
            uncounted: false,
        };
        self.last_key = None;
        self.set_character(&name, character);
        self.last_key = None;
        name
    }

    /// Renames a character; the mustering tables and rules that name it
    /// follow (as overrides when they come from a base). Scripts are not
    /// changed ([`Project::character_references`] lists them). Refuses a
    /// name already taken or empty. One undo step.
    pub fn rename_character(&mut self, old: &str, new: &str) -> Result<(), String> {
        let new = new.trim();
        if new.is_empty() {
            return Err("a character needs a name".into());
        }
        if old == new {
            return Ok(());
        }
        if self.character(new).is_some() {
            return Err(format!("there is already a character {new:?}"));
        }
        let Some(mut character) = self.character(old).cloned() else {
            return Err(format!("there is no character {old:?}"));
        };
        let inherited = self.character_is_inherited(old);
        character.name = new.to_string();
        let tables: Vec<MusterTable> = self
            .data()
            .mustering
            .iter()
            .filter_map(|t| renamed(t, old, new))
            .collect();
        let rules = renamed(&self.data().rules, old, new);
        let old = old.to_string();
        self.last_key = None;
        self.edit(&format!("rename character {old}"), |p| {
            if let Some(list) = p.own_characters() {
                match list.iter_mut().find(|c| c.name == old) {
                    Some(slot) => *slot = character,
                    None => list.push(character),
                }
            }
            if inherited && !p.manifest().remove.characters.contains(&old) {
                p.manifest_mut().remove.characters.push(old.clone());
            }
            for table in tables {
                if let Some(list) = p.own_mustering() {
                    match list.iter_mut().find(|t| t.terrain == table.terrain) {
                        Some(slot) => *slot = table,
                        None => list.push(table),
                    }
                }
            }
            if let Some(rules) = rules {
                p.override_rule_sections(&rules);
            }
        });
        self.last_key = None;
        Ok(())
    }

    /// Deletes a character: from the own file, or through `remove.characters`
    /// when a base has it; the mustering rows naming it go too (as the
    /// loader does for a removal). References in rules stay and show as
    /// problems. One undo step.
    pub fn delete_character(&mut self, name: &str) {
        if self.character(name).is_none() {
            return;
        }
        let inherited = self.character_is_inherited(name);
        let tables: Vec<MusterTable> = self
            .data()
            .mustering
            .iter()
            .filter(|t| t.rows.iter().any(|r| r.character == name))
            .map(|t| {
                let mut t = t.clone();
                let mut i = 0;
                while i < t.rows.len() {
                    if t.rows[i].character != name {
                        i += 1;
                        continue;
                    }
                    t.rows.remove(i);
                    // "n of the previous" meant the row now gone.
                    if let Some(next) = t.rows.get_mut(i) {
                        next.needs.retain(|n| !matches!(n, Needs::Previous(_)));
                    }
                }
                t
            })
            .collect();
        let name = name.to_string();
        self.last_key = None;
        self.edit(&format!("delete character {name}"), |p| {
            if let Some(FileValue::Characters(list)) = p
                .manifest()
                .files
                .characters
                .clone()
                .and_then(|n| p.own.get_mut(&n))
            {
                list.retain(|c| c.name != name);
            }
            if inherited {
                if !p.manifest().remove.characters.contains(&name) {
                    p.manifest_mut().remove.characters.push(name.clone());
                }
            } else {
                for table in tables {
                    if let Some(list) = p.own_mustering() {
                        match list.iter_mut().find(|t| t.terrain == table.terrain) {
                            Some(slot) => *slot = table,
                            None => list.push(table),
                        }
                    }
                }
            }
        });
        self.last_key = None;
    }

    /// Whether a base variant has the character (its edits are overrides).
    pub fn character_is_inherited(&self, name: &str) -> bool {
        self.origin_is_base(self.origins().characters.get(name).copied())
    }

    /// Writes into the own `rules.ron` every section of `rules` that
    /// differs from the merged rules.
    pub(super) fn override_rule_sections(&mut self, rules: &RulesDef) {
        let merged = self.data().rules.clone();
        let own = match self.own_file(FileKind::Rules, "rules.ron") {
            FileValue::Rules(r) => r,
            _ => return,
        };
        macro_rules! section {
            ($($f:ident),*) => {$(
                if rules.$f != merged.$f {
                    own.$f = rules.$f.clone();
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

    /// The variant as edited, compiled, when it passes its check.
    pub fn compiled(&self) -> Option<&titan_core::Variant> {
        self.compiled.as_ref()
    }

    /// The hooks the variant's scripts register: what abilities, hook
    /// rangestrikes, hook needs and hazard hook effects choose from. Also
    /// while the variant does not pass its check (a new terrain's empty
    /// mustering table must not hide the hooks its hazard needs); none when
    /// a script fails to run. The functions of `titan.action` actions are
    /// not hooks the data can name, so they are left out.
    pub fn hooks(&self) -> Vec<String> {
        self.script_hooks
            .iter()
            .filter(|h| !h.starts_with("action:"))
            .cloned()
            .collect()
    }

    /// Whether the edited variant's own mustering file has the terrain's
    /// table (only such a table can be removed: a base's cannot).
    pub fn muster_table_is_own(&self, terrain: &str) -> bool {
        self.manifest()
            .files
            .mustering
            .as_ref()
            .and_then(|n| self.own.get(n))
            .is_some_and(
                |v| matches!(v, FileValue::Mustering(l) if l.iter().any(|t| t.terrain == terrain)),
            )
    }

    /// Removes the terrain's table from the own mustering file.
    pub fn delete_muster_table(&mut self, terrain: &str) {
        let terrain = terrain.to_string();
        self.last_key = None;
        self.edit(&format!("delete mustering {terrain}"), |p| {
            if let Some(FileValue::Mustering(list)) = p
                .manifest()
                .files
                .mustering
                .clone()
                .and_then(|n| p.own.get_mut(&n))
            {
                list.retain(|t| t.terrain != terrain);
            }
        });
        self.last_key = None;
    }

    /// The manifest as edited (for the UI: its id, title, `extends`).
    pub fn manifest_value(&self) -> &Manifest {
        self.manifest()
    }
}
