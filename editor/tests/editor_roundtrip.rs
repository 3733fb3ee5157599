//! Loading and saving an unchanged variant changes no byte of any file, for
//! every bundled variant and the hooked fixture; an edit that is undone
//! writes nothing either; and a saved edit changes only its own file.

mod common;

use common::{copy_tree, repo};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use titan_editor::project::Project;

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Every bundled variant and the fixtures, copied beside a scripts folder.
fn workspace() -> (tempfile::TempDir, Vec<PathBuf>) {
    let tmp = common::workspace();
    for f in std::fs::read_dir(repo().join("tests/fixtures")).unwrap() {
        let f = f.unwrap();
        copy_tree(&f.path(), &tmp.path().join("variants").join(f.file_name()));
    }
    // All of them, not only those the other tests edit (house-spells has
    // script variables and actions, gods-of-titan is the largest).
    for v in common::BUNDLED {
        copy_tree(
            &repo().join("variants").join(v),
            &tmp.path().join("variants").join(v),
        );
    }
    let dirs = titan_editor::project::variant_folders(&tmp.path().join("variants"));
    for v in common::BUNDLED {
        assert!(dirs.iter().any(|d| d.ends_with(v)), "{v} is not tested");
    }
    (tmp, dirs)
}

#[test]
fn opening_and_saving_every_bundled_variant_changes_no_byte() {
    let (tmp, dirs) = workspace();
    assert!(dirs.len() >= 3, "{dirs:?}");
    let before = snapshot(tmp.path());
    for dir in &dirs {
        let mut project = Project::open(dir).unwrap();
        assert!(!project.is_dirty(), "{}", dir.display());
        assert_eq!(project.save().unwrap(), Vec::<String>::new());
        // Through the app and its Save action, too.
        let mut app = titan_editor::EditorApp::new(dir, dir.parent().unwrap());
        app.watch = false;
        app.save();
    }
    assert_eq!(snapshot(tmp.path()), before);
}

/// `save` writes only edited files, so the test above cannot see the
/// writer: here every file of every variant goes through it. Rendered over
/// its own text, each file's value gives back the same bytes; rendered from
/// scratch (the canonical form, as for a file new to a variant), it reads
/// back as the same value, and that value rendered over the original text
/// gives the original bytes again.
#[test]
fn every_file_goes_through_the_writer_and_back() {
    use titan_editor::project::{kind_of, render_with};
    let (_tmp, dirs) = workspace();
    let mut files = 0;
    let mut script_data = 0;
    for dir in &dirs {
        let project = Project::open(dir).unwrap();
        for (name, value) in project.own_files() {
            if matches!(
                kind_of(value),
                titan_editor::project::FileKind::Variables
                    | titan_editor::project::FileKind::Actions
            ) {
                script_data += 1;
            }
            let original = std::fs::read_to_string(dir.join(name)).unwrap();
            let ctx = format!("{}/{name}", dir.display());
            // A partial rules.ron section is read completed from the base.
            let base = project.base_rules();
            let render = |v, o| render_with(v, o, base);
            assert_eq!(render(value, Some(&original)), original, "{ctx}");
            let canonical = render(value, None);
            let back = kind_of(value)
                .parse(&canonical)
                .unwrap_or_else(|e| panic!("{ctx}: {e}\n{canonical}"));
            assert_eq!(&back, value, "{ctx}");
            assert_eq!(render(&back, Some(&original)), original, "{ctx}");
            files += 1;
        }
    }
    assert!(files > 20, "{files} files");
    // house-spells' variables.ron and actions.ron went through, at least.
    assert!(script_data >= 2, "{script_data} variables/actions files");
}

#[test]
fn an_undone_edit_writes_nothing() {
    let (tmp, dirs) = workspace();
    let before = snapshot(tmp.path());
    for dir in &dirs {
        let mut project = Project::open(dir).unwrap();
        let mut land = project.land(1).unwrap().clone();
        land.terrain = "Tower".into();
        project.set_land(land);
        let hills = project.battleland("Hills").unwrap().hexes["A1"].clone();
        project.set_hex("Hills", "A1", "Tree", 3);
        assert!(project.is_dirty());
        project.undo();
        project.undo();
        assert!(!project.is_dirty(), "{}", dir.display());
        assert_eq!(project.battleland("Hills").unwrap().hexes["A1"], hills);
        assert!(project.save().unwrap().is_empty());
    }
    assert_eq!(snapshot(tmp.path()), before);
}

#[test]
fn a_saved_edit_rewrites_only_its_file_and_reloads_the_same() {
    let (tmp, dirs) = workspace();
    let titan = dirs.iter().find(|d| d.ends_with("titan")).unwrap();
    let before = snapshot(tmp.path());
    let mut project = Project::open(titan).unwrap();
    project.set_hexside("Brush", "C3", titan_core::format::Side::N, Some("Cliff"));
    let edited = project.data().clone();
    assert_eq!(project.save().unwrap(), vec!["battlelands/brush.ron"]);
    let after = snapshot(tmp.path());
    let changed: Vec<&PathBuf> = after
        .iter()
        .filter(|(p, bytes)| before.get(*p) != Some(*bytes))
        .map(|(p, _)| p)
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].ends_with("battlelands/brush.ron"));
    // What was saved loads to what was edited, and saves again unchanged.
    let again = Project::open(titan).unwrap();
    assert_eq!(again.data(), &edited);
    assert!(again.problems().is_empty(), "{:?}", again.problems());
    let mut again = again;
    assert!(again.save().unwrap().is_empty());
    assert_eq!(snapshot(tmp.path()), after);
}

/// The lines of `after` that are not in `before` (a rough line diff).
fn new_lines(before: &str, after: &str) -> Vec<String> {
    let old: std::collections::HashSet<&str> = before.lines().collect();
    after
        .lines()
        .filter(|l| !old.contains(l))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_saved_edit_changes_only_the_lines_of_what_was_edited() {
    let (_tmp, dirs) = workspace();
    let titan = dirs.iter().find(|d| d.ends_with("titan")).unwrap();
    let board_before = std::fs::read_to_string(titan.join("masterboard.ron")).unwrap();
    let brush_before = std::fs::read_to_string(titan.join("battlelands/brush.ron")).unwrap();
    let mut project = Project::open(titan).unwrap();
    let mut land = project.land(42).unwrap().clone();
    land.terrain = "Tundra".into();
    project.set_land(land);
    project.set_hexside("Brush", "C3", titan_core::format::Side::N, Some("Cliff"));
    project.save().unwrap();
    let board = std::fs::read_to_string(titan.join("masterboard.ron")).unwrap();
    let brush = std::fs::read_to_string(titan.join("battlelands/brush.ron")).unwrap();
    assert_eq!(board.lines().count(), board_before.lines().count());
    let changed = new_lines(&board_before, &board);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].contains("(number: 42,") && changed[0].contains("\"Tundra\""));
    let changed = new_lines(&brush_before, &brush);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].contains("\"C3\"") && changed[0].contains("N: \"Cliff\""));
}

#[test]
fn an_override_in_an_extending_variant_keeps_its_manifest_comments() {
    let (_tmp, dirs) = workspace();
    let shorter = dirs.iter().find(|d| d.ends_with("titan-shorter")).unwrap();
    let manifest_before = std::fs::read_to_string(shorter.join("variant.ron")).unwrap();
    let mut project = Project::open(shorter).unwrap();
    project.set_hex("Tower", "A1", "Bramble", 0);
    project.delete_land(42);
    let written = project.save().unwrap();
    // A base land is removed through `remove.lands`; no board file needed.
    assert_eq!(written, vec!["battlelands/tower.ron", "variant.ron"]);
    let manifest = std::fs::read_to_string(shorter.join("variant.ron")).unwrap();
    // The comment inside the manifest survives; only files and remove change.
    assert!(manifest.contains("// \"Remove Centaurs, Gargoyles, and Ogres from the game.\""));
    let changed = new_lines(&manifest_before, &manifest);
    assert_eq!(changed.len(), 2, "{changed:?}\n{manifest}");
    let loaded = titan_core::load(shorter, &Default::default()).unwrap();
    assert!(!loaded.data.masterboard.lands.iter().any(|l| l.number == 42));
    let tower = loaded
        .data
        .battlelands
        .iter()
        .find(|b| b.terrain == "Tower")
        .unwrap();
    assert_eq!(tower.hexes["A1"].hazard, "Bramble");
}

#[test]
fn a_file_new_to_the_variant_is_written_one_item_per_line() {
    let (_tmp, dirs) = workspace();
    let shorter = dirs.iter().find(|d| d.ends_with("titan-shorter")).unwrap();
    let mut project = Project::open(shorter).unwrap();
    project.set_hex("Brush", "A1", "Bog", 1);
    project.save().unwrap();
    let text = std::fs::read_to_string(shorter.join("battlelands/brush.ron")).unwrap();
    // The base's battleland, copied: 27 hexes, one per line, no noise.
    assert_eq!(
        text.lines()
            .filter(|l| l.trim_start().starts_with("\""))
            .count(),
        27
    );
    assert!(
        text.contains("\"A1\": (hazard: \"Bog\", elevation: 1),"),
        "{text}"
    );
    assert!(
        !text.contains("None") && !text.contains("sides: {}"),
        "{text}"
    );
}

#[test]
fn an_edit_of_a_terrain_with_several_battlelands_changes_its_first() {
    let (_tmp, dirs) = workspace();
    let dir = dirs
        .iter()
        .find(|d| d.ends_with("drawn-battlelands"))
        .unwrap();
    let mut project = Project::open(dir).unwrap();
    assert_eq!(project.battleland("Plains").unwrap().alternative, 1);
    project.set_hex("Plains", "A1", "Tree", 1);
    assert_eq!(project.save().unwrap(), vec!["battlelands/plains.ron"]);
    let again = Project::open(dir).unwrap();
    let plains: Vec<_> = again
        .data()
        .battlelands
        .iter()
        .filter(|b| b.terrain == "Plains")
        .map(|b| (b.alternative, b.hexes["A1"].hazard.clone()))
        .collect();
    assert_eq!(
        plains,
        [
            (1, "Tree".into()),
            (2, "Plains".into()),
            (3, "Plains".into())
        ]
    );
}
