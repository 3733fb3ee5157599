//! `titan import colossus` and Colossus's random battlelands
//! (`Battlelands/*.rnd`): titan's interpreter of the randomizer language on
//! hand-written programs (`tests/fixtures/colossus/rnd/`), a variant with
//! one imported as drawn battlelands, and every Colossus variant when a
//! Colossus checkout is at hand.

mod common;

use common::{copy_dir, root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use titan_import::rnd::{Generated, Program};
use titan_import::{Out, colossus};

fn program(name: &str) -> Program {
    let path = root().join("tests/fixtures/colossus/rnd").join(name);
    Program::read(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn hexes_of(g: &Generated, hazard: &str) -> BTreeSet<String> {
    g.hexes
        .iter()
        .filter(|(_, h)| h.hazard == hazard)
        .map(|(l, _)| l.clone())
        .collect()
}

fn set(labels: &[&str]) -> BTreeSet<String> {
    labels.iter().map(|l| l.to_string()).collect()
}

/// The neighbours of C3, D3 and D4 on the 27-hex battleland, not themselves.
const AROUND_MIDDLE: &[&str] = &["B2", "B3", "C2", "C4", "D2", "D5", "E2", "E3", "E4"];

#[test]
fn labels_usedup_leftover_surroundings_and_pairs() {
    let p = program("labels.rnd");
    let mut layouts = BTreeSet::new();
    for seed in 0..40 {
        let g = p.generate(seed).unwrap();
        assert_eq!(g.hexes.len(), 27);
        assert_eq!(
            hexes_of(&g, "Tree"),
            set(&["C3", "D3", "D4"]),
            "seed {seed}"
        );
        let bogs = hexes_of(&g, "Bog");
        let sand = hexes_of(&g, "Sand");
        assert_eq!((bogs.len(), sand.len()), (2, 1), "seed {seed}");
        // The bogs among the trees' surroundings; the sand among those the
        // bogs left over.
        assert!(
            bogs.union(&sand)
                .all(|l| AROUND_MIDDLE.contains(&l.as_str()))
        );
        assert!(bogs.is_disjoint(&sand));
        for l in &bogs {
            assert_eq!(g.hexes[l].elevation, 2);
        }
        for l in &sand {
            assert_eq!(g.hexes[l].elevation, 1);
        }
        // Hexsides only on the bogs, toward low plains: slopes (the more
        // precise pair), never walls (the pair given again with 0%).
        for (l, h) in &g.hexes {
            if h.hazard != "Bog" {
                assert!(h.sides.is_empty(), "seed {seed}: {l} has {:?}", h.sides);
            }
            assert!(h.sides.values().all(|s| s == "Slope"), "seed {seed}: {l}");
        }
        let slopes: usize = bogs.iter().map(|l| g.hexes[l].sides.len()).sum();
        assert!(slopes > 0, "seed {seed}: a bog has plains beside it");
        assert_eq!(g.start_list, ["C3", "D3", "D4"]);
        assert!(g.tower);
        layouts.insert(format!("{bogs:?} {sand:?}"));
    }
    assert!(layouts.len() > 5, "seeds give different battlelands");
}

#[test]
fn someof_substract_coordinates_and_chances() {
    let p = program("lists.rnd");
    let inside = set(&[
        "B2", "B3", "C2", "C3", "C4", "D2", "D3", "D4", "D5", "E2", "E3", "E4",
    ]);
    for seed in 0..40 {
        let g = p.generate(seed).unwrap();
        let drifts = hexes_of(&g, "Drift");
        assert_eq!(drifts.len(), 2, "seed {seed}: SOMEOF(2, ...)");
        assert!(drifts.is_subset(&inside));
        assert_eq!(g.start_list, drifts.iter().cloned().collect::<Vec<_>>());
        assert_eq!(hexes_of(&g, "Volcano"), set(&["D6"]));
        assert_eq!(g.hexes["D6"].elevation, 2);
        assert!(hexes_of(&g, "Tree").is_empty(), "0% never comes");
        let bramble = hexes_of(&g, "Bramble");
        assert_eq!(
            bramble.len(),
            1,
            "`Brambles,50`: elevation 50 is 0, and it always comes"
        );
        assert!(bramble.is_subset(&set(&["A1", "A2", "A3"])));
        assert!(
            g.hexes
                .values()
                .all(|h| h.elevation == 0 || h.hazard == "Volcano")
        );
        assert!(!g.tower);
    }
}

#[test]
fn the_same_seed_gives_the_same_battleland() {
    for name in ["labels.rnd", "lists.rnd", "plains.rnd"] {
        let p = program(name);
        for seed in [0, 1, 99, u64::MAX] {
            assert_eq!(p.generate(seed).unwrap(), p.generate(seed).unwrap());
        }
    }
}

#[test]
fn bad_programs_are_named_at_their_line() {
    let bad = root().join("tests/fixtures/colossus/rnd/bad.rnd");
    let e = Program::read(&bad).unwrap_err();
    assert!(e.file.ends_with("rnd/bad.rnd"), "{e}");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("unexpected ','"), "{e}");
    let cases = [
        ("AREA (x HAZARDS Tree", 1, "')' after a label"),
        ("\n\nAREA C3 HAZARDS Oak", 3, "unknown hazard \"Oak\""),
        ("AREA A4 HAZARDS Tree", 1, "A4 is no hex"),
        (
            "PAIR (Tree,1)(Plains,0) HEXSIDES x,50.",
            1,
            "unknown hexside \"x\"",
        ),
        (
            "PAIR (Tree,1)(Plains,0) HEXSIDES c,50",
            1,
            "written with a point",
        ),
        ("PAIR (Tree,3)(Plains,0) HEXSIDES c", 1, "elevation 3"),
        ("# fine\nLABEL x = C3 $", 2, "unexpected character '$'"),
        ("TITLE \"open", 1, "not closed"),
        ("FOO", 1, "a statement"),
    ];
    for (text, line, what) in cases {
        let e = Program::parse(Path::new("t.rnd"), text).unwrap_err();
        assert_eq!(
            (e.line, e.file.as_path()),
            (line, Path::new("t.rnd")),
            "{text}: {e}"
        );
        assert!(e.message.contains(what), "{text}: {e}");
    }
    // A label used before it is defined: an error of the run, at its line.
    let p = Program::parse(Path::new("t.rnd"), "LABEL a = C3\n\nAREA (b) HAZARDS Tree").unwrap();
    let e = p.generate(1).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("no label \"b\""), "{e}");
}

/// The Mini and Base fixtures in a temporary `variants/` folder, Mini's
/// Plains random (`plains.rnd`).
fn random_mini() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let variants = tmp.path().join("variants");
    copy_dir(&root().join("tests/fixtures/colossus/variants"), &variants);
    std::fs::copy(
        root().join("tests/fixtures/colossus/rnd/plains.rnd"),
        variants.join("Mini/Battlelands/Plains.rnd"),
    )
    .unwrap();
    tmp
}

fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|e| {
            let p = e.unwrap().path();
            if p.is_dir() {
                files_of(&p)
            } else {
                vec![(p.display().to_string(), std::fs::read(&p).unwrap())]
            }
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_random_battleland_is_imported_as_drawn_alternatives() {
    let tmp = random_mini();
    let src = tmp.path().join("variants/Mini");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    colossus(&src, Out::Given(&a), false).unwrap();
    colossus(&src, Out::Given(&b), false).unwrap();
    let strip = |d: &Path| -> Vec<Vec<u8>> { files_of(d).into_iter().map(|f| f.1).collect() };
    assert_eq!(
        strip(&a),
        strip(&b),
        "an import is reproducible byte for byte"
    );
    for n in 2..=12 {
        assert!(
            a.join(format!("battlelands/plains-{n}.ron")).is_file(),
            "{n}"
        );
    }
    let readme = std::fs::read_to_string(a.join("README.md")).unwrap();
    assert!(
        readme.contains("Random battlelands (`Battlelands/*.rnd`")
            && readme.contains("of Plains: ")
            && readme.contains("each game draws one of them per terrain"),
        "{readme}"
    );
    let v = Arc::new(titan_core::load(&a, &Default::default()).unwrap());
    let plains = v.terrain_by_name("Plains").unwrap();
    let tower = v.terrain_by_name("Tower").unwrap();
    assert_eq!(v.alternative_count(plains), 12);
    assert_eq!(v.alternative_count(tower), 1);
    // The twelve are not all alike, and hold the program's hazards.
    let lands = &v.alternatives.defs[plains.index()];
    let distinct: BTreeSet<String> = lands.iter().map(|l| format!("{:?}", l.hexes)).collect();
    assert!(distinct.len() > 6, "{}", distinct.len());
    let names: BTreeSet<&str> = lands
        .iter()
        .flat_map(|l| l.hexes.values().map(|h| h.hazard.as_str()))
        .collect();
    assert!(names.is_subset(&BTreeSet::from(["Plains", "Tree", "Bramble", "Sand"])));
    // Sand beside plains gets dunes, from the sand's side.
    let dune = |l: &titan_core::format::BattlelandDef| {
        l.hexes
            .iter()
            .any(|(_, h)| h.hazard == "Sand" && h.sides.values().any(|s| s == "Dune"))
    };
    assert!(lands.iter().any(dune));
    // Games draw among them.
    let names = vec!["Ann".to_string(), "Bob".to_string()];
    let drawn: BTreeSet<u8> = (0..30)
        .map(|seed| {
            let (g, _) =
                titan_core::game::Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            g.state.battlelands[plains.index()]
        })
        .collect();
    assert!(drawn.len() > 5, "{drawn:?}");
}

#[test]
fn a_bad_random_battleland_is_named_and_nothing_is_written() {
    let tmp = random_mini();
    let rnd = tmp.path().join("variants/Mini/Battlelands/Plains.rnd");
    let text = std::fs::read_to_string(&rnd).unwrap();
    std::fs::write(&rnd, text.replace("Sand,50.", "Quicksand,50.")).unwrap();
    let out = tmp.path().join("out");
    let errors = colossus(&tmp.path().join("variants/Mini"), Out::Given(&out), false).unwrap_err();
    let e = &errors[0];
    assert!(e.file.ends_with("Mini/Battlelands/Plains.rnd"), "{e}");
    assert_eq!(e.line, 5, "{e}");
    assert!(e.message.contains("unknown hazard \"Quicksand\""), "{e}");
    assert!(!out.exists(), "nothing written");
}

/// Every variant of a Colossus checkout (`TITAN_COLOSSUS_VARIANTS`, else
/// `../colossus/Colossus/variants` beside the repository) imports and
/// compiles; Random's terrains draw among twelve battlelands each.
#[test]
fn every_colossus_variant_imports() {
    let dir = std::env::var_os("TITAN_COLOSSUS_VARIANTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../colossus/Colossus/variants"));
    if !dir.is_dir() {
        println!("skipped: no Colossus variants at {}", dir.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let imported =
        colossus(&dir, Out::Under(tmp.path()), false).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(imported.len() >= 26, "{}", imported.len());
    for i in &imported {
        let v = titan_core::load(&i.out, &Default::default())
            .unwrap_or_else(|e| panic!("{} does not load: {e:?}", i.name));
        if i.name == "Random" {
            assert!(v.terrains.iter().enumerate().all(|(t, _)| {
                v.alternative_count(titan_core::model::TerrainId(t as u8)) == 12
            }));
            assert!(
                !i.not_imported
                    .iter()
                    .any(|n| n.contains("random battlelands"))
            );
        }
    }
}
