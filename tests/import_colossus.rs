//! `titan import colossus`: the importer checked against the bundled
//! `titan` variant (Colossus's Default is the same game), on hand-written
//! Colossus-format fixtures (`tests/fixtures/colossus/`), and on bad input.

#[path = "import_colossus/writer.rs"]
mod writer;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use titan_core::format::VariantData;
use titan_import::{Out, colossus};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(dir: &Path) -> VariantData {
    match titan_core::load_data(dir, &Default::default()) {
        Ok(l) => l.data,
        Err(d) => panic!("{} does not load: {d:?}", dir.display()),
    }
}

/// Imports one Colossus variant folder into `out`, checks it compiles, and
/// returns its data.
fn import(src: &Path, out: &Path) -> VariantData {
    if let Err(e) = colossus(src, Out::Given(out), true) {
        panic!("import of {} failed: {e:?}", src.display());
    }
    let v = titan_core::load(out, &Default::default());
    assert!(
        v.is_ok(),
        "{} does not compile: {:?}",
        out.display(),
        v.err()
    );
    load(out)
}

/// Every land, exit, sign, character, mustering row and battleland hex of
/// `got` is `want`'s.
fn assert_agrees(got: &VariantData, want: &VariantData) {
    let lands = |d: &VariantData| {
        d.masterboard
            .lands
            .iter()
            .map(|l| {
                let mut exits: Vec<_> = l.exits.iter().map(|e| (e.to, e.sign)).collect();
                exits.sort();
                (l.number, l.terrain.clone(), l.position, exits)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(lands(got), lands(want), "lands, exits and signs");
    let chars = |d: &VariantData| {
        let mut v: Vec<_> = d
            .characters
            .iter()
            .map(|c| {
                let natives: BTreeSet<_> = c.natives.iter().cloned().collect();
                let range = c.rangestrike.as_ref().map(|r| (r.magic, r.strikes));
                let what = (c.power, c.skill, c.class.clone(), c.flies, range, c.count);
                (
                    c.name.clone(),
                    c.plural.clone(),
                    what,
                    natives,
                    c.summonable,
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(chars(got), chars(want), "characters");
    let tables = |d: &VariantData| {
        let mut v = d.mustering.clone();
        v.sort_by(|a, b| a.terrain.cmp(&b.terrain));
        v
    };
    assert_eq!(tables(got), tables(want), "mustering");
    let lands_of = |d: &VariantData| {
        let mut v: Vec<_> = d
            .battlelands
            .iter()
            .map(|b| {
                let area: BTreeSet<_> = b.defender_area.iter().cloned().collect();
                (b.terrain.clone(), b.hexes.clone(), b.attacker_edge, area)
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(lands_of(got), lands_of(want), "battlelands");
    let start = |d: &VariantData| {
        let mut v: Vec<_> = d.rules.start.as_ref().unwrap().characters.clone();
        v.sort_by(|a, b| a.character.cmp(&b.character));
        v
    };
    assert_eq!(start(got), start(want), "starting characters");
    assert_eq!(got.rules.scoring, want.rules.scoring, "acquiring");
    let towers = |d: &VariantData| {
        d.terrains
            .iter()
            .map(|t| (t.name.clone(), t.tower))
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(towers(got), towers(want), "terrains and towers");
}

#[test]
fn titan_written_in_colossus_form_imports_as_titan() {
    let titan = load(&root().join("variants/titan"));
    let tmp = tempfile::tempdir().unwrap();
    writer::variant(&titan, tmp.path(), "Default");
    let got = import(&tmp.path().join("Default"), &tmp.path().join("out"));
    assert_agrees(&got, &titan);
}

#[test]
fn colossus_default_reference_imports_as_titan() {
    let reference = root().join("../shared/reference/colossus-default");
    if !reference.is_dir() {
        println!("skipped: no reference at {}", reference.display());
        return;
    }
    let titan = load(&root().join("variants/titan"));
    let tmp = tempfile::tempdir().unwrap();
    let got = import(&reference, &tmp.path().join("default"));
    assert_agrees(&got, &titan);
}
