//! Writing variant data back to RON files.
//!
//! [`write_flat`] writes a merged variant as one self-contained folder (no
//! `extends`): what the round-trip test reloads, and what an author gets when
//! detaching a variant from its base. Every file is written atomically.

use std::io;
use std::path::Path;

use serde::Serialize;

use crate::format::{Files, Manifest, MasterboardDef, Removals, VariantData};
use crate::load::ron_options;

/// RON text of a value, in the dialect the loader reads.
pub fn to_ron<T: Serialize>(value: &T) -> Result<String, ron::Error> {
    let pretty = ron::ser::PrettyConfig::new()
        .indentor("    ".to_string())
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
    ron_options().to_string_pretty(value, pretty)
}

/// Writes `contents` to `path` through a temporary file in the same folder and
/// a rename, so a reader never sees half a file and a failure loses nothing.
/// (See [`crate::files::write_atomic`].)
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    crate::files::write_atomic(path, contents)
}

/// Where a terrain's battleland is written in a variant folder:
/// `battlelands/<terrain in lower case, other characters ->.ron`.
pub fn battleland_file(terrain: &str) -> String {
    format!("battlelands/{}.ron", file_stem(terrain))
}

/// Where a terrain's battleland number `alternative` is written: the
/// first as [`battleland_file`], the others `battlelands/<stem>-<n>.ron`.
pub fn alternative_file(terrain: &str, alternative: u32) -> String {
    match alternative {
        1 => battleland_file(terrain),
        n => format!("battlelands/{}-{n}.ron", file_stem(terrain)),
    }
}

fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// Writes merged variant data as a self-contained variant folder.
pub fn write_flat(data: &VariantData, dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir.join("battlelands"))?;
    std::fs::create_dir_all(dir.join("scripts"))?;
    let ron = |e: ron::Error| io::Error::other(e.to_string());
    let put = |name: &str, text: String| write_atomic(&dir.join(name), text.as_bytes());

    let mut scripts = Vec::new();
    for (i, s) in data.scripts.iter().enumerate() {
        let base = Path::new(&s.name)
            .file_name()
            .map_or("script.lua".into(), |n| n.to_string_lossy().into_owned());
        let name = format!("scripts/{i:02}-{base}");
        put(&name, s.code.clone())?;
        scripts.push(name);
    }
    let mut battlelands = Vec::new();
    for b in &data.battlelands {
        let name = alternative_file(&b.terrain, b.alternative);
        put(&name, to_ron(b).map_err(ron)?)?;
        battlelands.push(name);
    }
    let manifest = Manifest {
        extends: None,
        remove: Removals::default(),
        files: Files {
            terrains: Some("terrains.ron".into()),
            hazards: Some("hazards.ron".into()),
            characters: Some("characters.ron".into()),
            mustering: Some("mustering.ron".into()),
            masterboard: Some("masterboard.ron".into()),
            rules: Some("rules.ron".into()),
            battlelands,
            scripts,
            variables: (!data.variables.is_empty()).then(|| "variables.ron".into()),
            actions: (!data.actions.is_empty()).then(|| "actions.ron".into()),
        },
        ..data.manifest.clone()
    };
    put("terrains.ron", to_ron(&data.terrains).map_err(ron)?)?;
    put("hazards.ron", to_ron(&data.hazards).map_err(ron)?)?;
    put("characters.ron", to_ron(&data.characters).map_err(ron)?)?;
    put("mustering.ron", to_ron(&data.mustering).map_err(ron)?)?;
    let board = MasterboardDef {
        lands: data.masterboard.lands.clone(),
        one_way_signs: data.masterboard.one_way_signs,
    };
    put("masterboard.ron", to_ron(&board).map_err(ron)?)?;
    put("rules.ron", to_ron(&data.rules).map_err(ron)?)?;
    if !data.actions.is_empty() {
        put("actions.ron", to_ron(&data.actions).map_err(ron)?)?;
    }
    if !data.variables.is_empty() {
        put("variables.ron", to_ron(&data.variables).map_err(ron)?)?;
    }
    put("variant.ron", to_ron(&manifest).map_err(ron)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ron");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
    }

    #[test]
    fn atomic_write_into_missing_folder_fails_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        let e = write_atomic(&dir.path().join("no/such/a.ron"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound, "{e}");
        // Nothing made: no folder, no temporary file.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Every file `write_flat` writes, read back, holds its part of the
    /// data (the scripts byte for byte), and the manifest names exactly
    /// the files written; a variant with a base, scripts, script actions
    /// and variables (`house-spells`).
    #[test]
    fn a_flat_variant_holds_the_data_it_was_written_from() {
        use crate::format::{
            ActionDef, BattlelandDef, CharacterDef, HazardDef, MusterTable, RulesDef, TerrainDef,
            VariableDef,
        };
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
        let data = crate::load_data(&root.join("house-spells"), &Default::default())
            .unwrap()
            .data;
        assert!(!data.scripts.is_empty() && !data.actions.is_empty());
        assert!(!data.variables.is_empty() && data.manifest.extends.is_some());
        let out = tempfile::tempdir().unwrap();
        write_flat(&data, out.path()).unwrap();
        let text = |name: &str| {
            std::fs::read_to_string(out.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        fn parse<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> T {
            ron_options()
                .from_str(text)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        }
        let m: Manifest = parse("variant.ron", &text("variant.ron"));
        assert_eq!(m.extends, None);
        assert_eq!(m.remove, Removals::default());
        assert_eq!(
            (&m.id, &m.title, &m.version, &m.options),
            (
                &data.manifest.id,
                &data.manifest.title,
                &data.manifest.version,
                &data.manifest.options
            )
        );
        // The files the manifest names are the files written, all of them.
        let f = &m.files;
        let mut named: Vec<String> = [
            &f.terrains,
            &f.hazards,
            &f.characters,
            &f.mustering,
            &f.masterboard,
            &f.rules,
            &f.variables,
            &f.actions,
        ]
        .into_iter()
        .map(|n| n.clone().expect("every file named"))
        .chain(f.battlelands.iter().cloned())
        .chain(f.scripts.iter().cloned())
        .chain(["variant.ron".to_string()])
        .collect();
        named.sort();
        let mut written = Vec::new();
        for sub in ["", "battlelands", "scripts"] {
            for e in std::fs::read_dir(out.path().join(sub)).unwrap() {
                let e = e.unwrap();
                if e.file_type().unwrap().is_file() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    written.push(if sub.is_empty() {
                        name
                    } else {
                        format!("{sub}/{name}")
                    });
                }
            }
        }
        written.sort();
        assert_eq!(written, named);
        // Each file's content, read back.
        let get = |n: &Option<String>| text(n.as_deref().unwrap());
        let terrains: Vec<TerrainDef> = parse("terrains", &get(&f.terrains));
        assert_eq!(terrains, data.terrains);
        let hazards: Vec<HazardDef> = parse("hazards", &get(&f.hazards));
        assert_eq!(hazards, data.hazards);
        let characters: Vec<CharacterDef> = parse("characters", &get(&f.characters));
        assert_eq!(characters, data.characters);
        let mustering: Vec<MusterTable> = parse("mustering", &get(&f.mustering));
        assert_eq!(mustering, data.mustering);
        let board: MasterboardDef = parse("masterboard", &get(&f.masterboard));
        assert_eq!(board.lands, data.masterboard.lands);
        let rules: RulesDef = parse("rules", &get(&f.rules));
        assert_eq!(rules, data.rules);
        let variables: Vec<VariableDef> = parse("variables", &get(&f.variables));
        assert_eq!(variables, data.variables);
        let actions: Vec<ActionDef> = parse("actions", &get(&f.actions));
        assert_eq!(actions, data.actions);
        assert_eq!(f.battlelands.len(), data.battlelands.len());
        for (name, b) in f.battlelands.iter().zip(&data.battlelands) {
            let read: BattlelandDef = parse(name, &text(name));
            assert_eq!(&read, b, "{name}");
        }
        assert_eq!(f.scripts.len(), data.scripts.len());
        for (name, s) in f.scripts.iter().zip(&data.scripts) {
            assert_eq!(text(name), s.code, "{name}");
        }
    }
}
