//! `titan import colossus` and Colossus's `MarkersName`: the markers a
//! player has and their names, each Colossus colour's as the seat of the
//! like colour's (Red seat 1, Blue 2, Green 3, Gold 4, Purple 5, Sky 6), on
//! the hand-written fixtures (`tests/fixtures/colossus/variants/Base/
//! MarkersName`, which `Mini` finds through its `<depend>`), bad lines, and
//! Colossus's Default when a checkout is beside the repository.

mod common;

use common::{copy_dir, root};
use std::path::{Path, PathBuf};

use titan_import::{Out, colossus};

/// The fixtures in a temporary `variants/` folder, to be spoilt.
fn fixtures() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &root().join("tests/fixtures/colossus/variants"),
        &tmp.path().join("variants"),
    );
    tmp
}

/// Imports `src` to `out` and loads the result as the game would.
fn import(src: &Path, out: &Path) -> titan_core::model::Variant {
    colossus(src, Out::Given(out), true).unwrap_or_else(|e| panic!("{e:?}"));
    titan_core::load(out, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn marker(s: &str) -> titan_core::game::Marker {
    s.parse().unwrap()
}

#[test]
fn the_names_of_the_seats_colours_are_imported_by_number() {
    let tmp = fixtures();
    let out = tmp.path().join("mini");
    let v = import(&tmp.path().join("variants/Mini"), &out);
    let legions = &v.rules.legions;
    // The fewest markers of a colour (Black's 4); Red's five names cut to
    // four, in the order of their numbers; Mini has two seats, and the
    // file has no Blue, so seat 2 has none.
    assert_eq!(legions.markers_per_player, 4);
    assert_eq!(
        legions.marker_names,
        vec![vec!["Quill", "Anchor", "Lyre", "Crown"]]
    );
    assert_eq!(v.marker_label(marker("P1-02")), "P1-02 (Anchor)");
    assert_eq!(v.marker_label(marker("P2-02")), "P2-02");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        readme.contains(
            "The legion markers' names (`MarkersName`, `rules.legions.marker_names`): Red as seat 1"
        ),
        "{readme}"
    );
    assert!(!readme.contains("not imported: marker names"), "{readme}");
    let rules = std::fs::read_to_string(out.join("rules.ron")).unwrap();
    assert!(rules.contains("marker_names"), "{rules}");
}

/// Imports `variant` of the spoilt copy: refused, naming `MarkersName` at
/// `line` and saying `what`.
fn refused(tmp: &tempfile::TempDir, line: u32, what: &str) {
    let out = tmp.path().join("out");
    let errors =
        colossus(&tmp.path().join("variants/Mini"), Out::Given(&out), false).expect_err("refused");
    let e = &errors[0];
    assert!(e.file.ends_with("Base/MarkersName"), "{e}");
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains(what), "{e} says {what:?}");
    assert!(!out.exists(), "nothing written");
}

fn spoil(tmp: &tempfile::TempDir, from: &str, to: &str) {
    let path = tmp.path().join("variants/Base/MarkersName");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_line_that_is_no_marker_is_named_at_its_line() {
    let tmp = fixtures();
    spoil(&tmp, "Rd03 = Lyre", "Rd03 Lyre");
    refused(&tmp, 9, "expected a line like `Bk01 = Axes`");
}

#[test]
fn a_bad_key_a_missing_name_and_a_gap_are_named_at_their_line() {
    for (from, to, line, what) in [
        ("Gd02 = Cup", "Gold2 = Cup", 14, "\"Gold2\" is no marker"),
        ("Bk03 = Die", "Bk03 =", 4, "marker Bk03 has no name"),
        (
            "Rd04 = Crown",
            "Rd01 = Crown",
            10,
            "named twice (first at line 8)",
        ),
        ("Gd04 = Flag", "Gd07 = Flag", 17, "Gd04 is missing"),
    ] {
        let tmp = fixtures();
        spoil(&tmp, from, to);
        refused(&tmp, line, what);
    }
}

/// Colossus's own Default: twelve markers a colour, Red's as seat 1's and
/// Gold's as seat 4's; the variant checks and plays.
#[test]
fn colossus_default_names_every_seats_markers() {
    let dir = std::env::var_os("TITAN_COLOSSUS_VARIANTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../colossus/Colossus/variants"))
        .join("Default");
    if !dir.is_dir() {
        println!("skipped: no Colossus Default at {}", dir.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let v = import(&dir, &tmp.path().join("default"));
    let names = &v.rules.legions.marker_names;
    assert_eq!(v.rules.legions.markers_per_player, 12);
    assert_eq!(names.len(), 6);
    assert!(names.iter().all(|seat| seat.len() == 12), "{names:?}");
    // Every seat's names are its own colour's: no two seats share one.
    let all: std::collections::BTreeSet<&String> = names.iter().flatten().collect();
    assert_eq!(all.len(), 72);
}
