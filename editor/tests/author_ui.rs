//! Headless tests of authoring in the editor: egui_kittest
//! drives the real app to create a variant, add, rename and delete
//! characters and make one musterable, and the saved folder is then loaded
//! and compiled as `titan check` does.

mod common;

use common::{click, harness, repo, type_into, workspace};
use std::path::Path;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::format::Needs;
use titan_editor::{EditorApp, Tab};

/// What `titan check` does with a folder: load (bases resolved) and compile.
fn check(dir: &Path) {
    let loaded =
        titan_core::load::load_data(dir, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"));
    if let Err(e) = titan_core::compile(&loaded) {
        panic!("{} does not check: {e:?}", dir.display());
    }
}

#[test]
fn create_a_variant_add_a_creature_make_it_musterable_and_save() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let mut h = harness(&root.join("titan"));
    let titan_characters = h.state().project.as_ref().unwrap().data().characters.len();

    // New variant extending titan (the edited variant is the default base).
    click(&mut h, "New variant...");
    type_into(&mut h, "Folder and id:", "house");
    click(&mut h, "Create");
    let dir = root.join("house");
    assert_eq!(h.state().project.as_ref().unwrap().dir(), dir);
    let manifest = std::fs::read_to_string(dir.join("variant.ron")).unwrap();
    assert!(manifest.contains("extends: \"titan\""), "{manifest}");
    assert_eq!(
        h.state().project.as_ref().unwrap().data().characters.len(),
        titan_characters
    );

    // A new creature, renamed in its form.
    click(&mut h, "Characters");
    click(&mut h, "Add character");
    assert_eq!(
        h.state().selected_character.as_deref(),
        Some("New creature")
    );
    // A name taken is refused, with the reason shown.
    type_into(&mut h, "Name:", "Wyvern");
    click(&mut h, "Rename");
    assert!(
        h.query_by_label("there is already a character \"Wyvern\"")
            .is_some()
    );
    type_into(&mut h, "Name:", "Basilisk");
    click(&mut h, "Rename");
    let project = h.state().project.as_ref().unwrap();
    assert!(project.character("Basilisk").is_some());
    assert!(project.character("New creature").is_none());
    assert_eq!(h.state().selected_character.as_deref(), Some("Basilisk"));

    // Musterable in the Brush: a new row, its character chosen from the menu.
    click(&mut h, "Mustering");
    click(&mut h, "Brush");
    let rows = |h: &Harness<'_, EditorApp>| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .muster_table("Brush")
            .unwrap()
            .rows
            .clone()
    };
    let n = rows(&h).len();
    click(&mut h, "Add row");
    assert_eq!(rows(&h).len(), n + 1);
    // The last menu on the page is the new row's character.
    h.get_all_by_role(Role::ComboBox).last().unwrap().click();
    h.run_steps(2);
    // The new creature is the menu's last entry: scrolled to first.
    h.get_by_label("Basilisk").scroll_to_me();
    h.run_steps(2);
    h.get_by_label("Basilisk").click_accesskit();
    h.run_steps(2);
    assert_eq!(rows(&h)[n].character, "Basilisk");
    // Its need: two of the previous row's character, as a form.
    // On one line (it wrapped to three).
    let button = h.get_all_by_label("add need").last().unwrap().rect();
    assert!(button.height() < 30.0, "{button:?}");
    h.get_all_by_label("add need").last().unwrap().click();
    h.run_steps(2);
    assert_eq!(rows(&h)[n].needs, [Needs::Previous(2)]);

    // Undo and redo across the row's edits.
    h.state_mut().project.as_mut().unwrap().undo();
    h.run_steps(1);
    assert!(rows(&h)[n].needs.is_empty());
    h.state_mut().project.as_mut().unwrap().redo();
    h.run_steps(1);
    assert_eq!(rows(&h)[n].needs, [Needs::Previous(2)]);

    assert!(
        h.state().project.as_ref().unwrap().problems().is_empty(),
        "{:?}",
        h.state().project.as_ref().unwrap().problems()
    );
    click(&mut h, "Save");
    assert!(!h.state().is_dirty());
    check(&dir);
    let characters = std::fs::read_to_string(dir.join("characters.ron")).unwrap();
    assert!(characters.contains("\"Basilisk\""), "{characters}");
    // A table's rows one per line, as the bundled files have them.
    let mustering = std::fs::read_to_string(dir.join("mustering.ron")).unwrap();
    assert!(
        mustering.contains("        (character: \"Basilisk\", needs: [Previous(2)]),\n    ]),"),
        "{mustering}"
    );
    // Titan's own files are untouched.
    for f in ["characters.ron", "mustering.ron", "variant.ron"] {
        assert_eq!(
            std::fs::read(root.join("titan").join(f)).unwrap(),
            std::fs::read(repo().join("variants/titan").join(f)).unwrap()
        );
    }
}

#[test]
fn renaming_a_character_carries_its_mustering_rows_and_start() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let mut h = harness(&root.join("titan-shorter"));
    h.state_mut().tab = Tab::Characters;
    h.state_mut().selected_character = Some("Troll".into());
    h.run_steps(2);
    type_into(&mut h, "Name:", "Mountain troll");
    click(&mut h, "Rename");
    let p = h.state().project.as_ref().unwrap();
    assert!(p.problems().is_empty(), "{:?}", p.problems());
    assert!(p.character("Troll").is_none());
    let names_it = |t: &str| {
        p.muster_table(t)
            .unwrap()
            .rows
            .iter()
            .any(|r| r.character == "Mountain troll")
    };
    assert!(names_it("Swamp") && names_it("Tower"));
    let start = p.data().rules.start.as_ref().unwrap();
    assert!(
        start
            .characters
            .iter()
            .any(|c| c.character == "Mountain troll")
    );
    // A character of the base is renamed through `remove` and an override.
    h.state_mut().project.as_mut().unwrap().save().unwrap();
    check(&root.join("titan-shorter"));
    let manifest = std::fs::read_to_string(root.join("titan-shorter/variant.ron")).unwrap();
    assert!(manifest.contains("\"Troll\""), "{manifest}");
    // One undo step takes it all back.
    let p = h.state_mut().project.as_mut().unwrap();
    p.undo();
    assert!(p.character("Troll").is_some());
    assert!(p.character("Mountain troll").is_none());
}

#[test]
fn deleting_a_character_shows_what_refers_to_it_first() {
    let tmp = workspace();
    let mut h = harness(&tmp.path().join("variants/titan"));
    h.state_mut().tab = Tab::Characters;
    h.state_mut().selected_character = Some("Ogre".into());
    h.run_steps(2);
    click(&mut h, "Delete character...");
    assert!(
        h.query_by_label_contains("Its rows go from the mustering tables of: Hills")
            .is_some()
    );
    click(&mut h, "Cancel");
    assert!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .character("Ogre")
            .is_some()
    );
    click(&mut h, "Delete character...");
    click(&mut h, "Delete");
    let p = h.state().project.as_ref().unwrap();
    assert!(p.character("Ogre").is_none());
    assert!(
        p.data()
            .mustering
            .iter()
            .all(|t| t.rows.iter().all(|r| r.character != "Ogre"))
    );
    h.state_mut().project.as_mut().unwrap().undo();
    assert!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .character("Ogre")
            .is_some()
    );
}

#[test]
fn save_as_copy_writes_the_edits_to_a_new_folder_and_opens_it() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let mut h = harness(&root.join("titan"));
    let mut ogre = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .character("Ogre")
        .unwrap()
        .clone();
    ogre.power = 7;
    h.state_mut()
        .project
        .as_mut()
        .unwrap()
        .set_character("Ogre", ogre);
    click(&mut h, "Save as copy...");
    type_into(&mut h, "Folder and id:", "my-titan");
    click(&mut h, "Create");
    let copy = root.join("my-titan");
    let p = h.state().project.as_ref().unwrap();
    assert_eq!(p.dir(), copy);
    assert!(!p.is_dirty());
    assert_eq!(p.character("Ogre").unwrap().power, 7);
    assert_eq!(p.data().manifest.id, "my-titan");
    check(&copy);
    // The original is as it was; the copy keeps its comments.
    assert_eq!(
        std::fs::read(root.join("titan/characters.ron")).unwrap(),
        std::fs::read(repo().join("variants/titan/characters.ron")).unwrap()
    );
    let text = std::fs::read_to_string(copy.join("characters.ron")).unwrap();
    assert!(text.starts_with("//"));
    assert!(copy.join("README.md").is_file());
}

#[test]
fn a_new_variant_needs_a_free_folder_name() {
    let tmp = workspace();
    let mut h = harness(&tmp.path().join("variants/titan"));
    click(&mut h, "New variant...");
    type_into(&mut h, "Folder and id:", "titan-shorter");
    click(&mut h, "Create");
    assert!(h.state().new_variant.as_ref().unwrap().error.is_some());
    type_into(&mut h, "Folder and id:", "bad name");
    click(&mut h, "Create");
    assert!(
        h.state()
            .new_variant
            .as_ref()
            .unwrap()
            .error
            .as_ref()
            .unwrap()
            .contains("cannot name")
    );
    click(&mut h, "Cancel");
    assert!(h.state().new_variant.is_none());
    assert!(h.state().project.as_ref().unwrap().dir().ends_with("titan"));
}

#[test]
fn every_kind_of_need_is_a_form_and_tables_come_and_go() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir);
    click(&mut h, "Mustering");
    click(&mut h, "Tower");
    // The Tower's needs in words and menus, never program text.
    assert!(h.query_by_label_contains("Identical {").is_none());
    assert!(h.query_by_label_contains("Character {").is_none());
    // (A menu's value is its choice.)
    assert!(h.query_by_value("identical").is_some());
    assert!(h.query_by_value("creature").is_some());
    assert!(h.query_by_value("Titan").is_some());
    let needs = |h: &Harness<'_, EditorApp>, row: usize| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .muster_table("Tower")
            .unwrap()
            .rows[row]
            .needs
            .clone()
    };
    assert_eq!(
        needs(&h, 4),
        [Needs::Character {
            name: "Titan".into(),
            count: 1
        }]
    );
    // The Warlock's need becomes a hook chosen from the scripts' hooks.
    h.get_by_value("of a character").click();
    h.run_steps(2);
    h.get_by_label("script hook").click_accesskit();
    h.run_steps(2);
    assert_eq!(needs(&h, 4), [Needs::Hook(String::new())]);
    h.state_mut().project.as_mut().unwrap().undo();
    h.run_steps(2);
    assert_eq!(
        needs(&h, 4),
        [Needs::Character {
            name: "Titan".into(),
            count: 1
        }]
    );
    let row = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .muster_table("Tower")
        .unwrap()
        .rows
        .len();
    assert_eq!(row, 5);
    // A table removed and added again.
    click(&mut h, "Remove table");
    assert!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .muster_table("Tower")
            .is_none()
    );
    assert!(
        h.query_by_label("No mustering table for this terrain.")
            .is_some()
    );
    click(&mut h, "Add table");
    let p = h.state().project.as_ref().unwrap();
    assert!(p.muster_table("Tower").unwrap().rows.is_empty());
    h.state_mut().project.as_mut().unwrap().undo();
    h.state_mut().project.as_mut().unwrap().undo();
    h.run_steps(2);
    assert_eq!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .muster_table("Tower")
            .unwrap()
            .rows
            .len(),
        5
    );
    assert!(!h.state().is_dirty());
}

/// A primary click at a screen position (the canvases).
fn click_at(h: &mut Harness<'_, EditorApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
}

#[test]
fn add_a_terrain_with_a_new_hazard_paint_its_battleland_and_assign_it_to_a_land() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let mut h = harness(&root.join("titan"));
    click(&mut h, "New variant...");
    type_into(&mut h, "Folder and id:", "volcanic");
    click(&mut h, "Create");
    let dir = root.join("volcanic");
    click(&mut h, "Terrains and hazards");

    // A terrain with a blank battleland.
    type_into(&mut h, "New terrain:", "Volcano");
    click(&mut h, "Add terrain");
    let p = h.state().project.as_ref().unwrap();
    // In a colour far from every other terrain's (it was #909090, next to
    // the Tower's #a0a0a0).
    let data = p.data();
    let new = data.terrains.iter().find(|t| t.name == "Volcano").unwrap();
    for t in data.terrains.iter().filter(|t| t.name != "Volcano") {
        let d: i32 = (0..3)
            .map(|i| (i32::from(new.color.0[i]) - i32::from(t.color.0[i])).abs())
            .sum();
        assert!(d > 60, "{} {:?} is like {:?}", t.name, t.color, new.color);
    }
    let board = p.battleland("Volcano").unwrap();
    assert_eq!(board.hexes.len(), 27);
    assert!(
        board
            .hexes
            .values()
            .all(|x| x.elevation == 0 && x.sides.is_empty())
    );

    // A hex hazard that burns: a damage effect chosen in the effect form.
    click(&mut h, "Add hex hazard");
    type_into(&mut h, "Hazard name:", "Lava");
    click(&mut h, "Rename hazard");
    assert!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .data()
            .hazards
            .iter()
            .any(|x| x.name == "Lava")
    );
    click(&mut h, "Add effect");
    h.get_by_value("no contact").click();
    h.run_steps(2);
    h.get_by_label("damage").click_accesskit();
    h.run_steps(2);
    let lava = |h: &Harness<'_, EditorApp>| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .data()
            .hazards
            .iter()
            .find(|x| x.name == "Lava")
            .unwrap()
            .clone()
    };
    assert_eq!(
        lava(&h).effects,
        [titan_core::format::Effect::Damage {
            who: titan_core::format::Who::Anyone,
            hits: 1
        }]
    );
    // Dragons are native to it.
    h.get_by_role_and_label(Role::CheckBox, "Dragon").click();
    h.run_steps(2);
    let p = h.state().project.as_ref().unwrap();
    assert!(
        p.character("Dragon")
            .unwrap()
            .natives
            .contains(&"Lava".to_string())
    );

    // Paint it on the new battleland.
    click(&mut h, "Edit its battleland");
    assert_eq!(h.state().tab, Tab::Battlelands);
    assert_eq!(h.state().battleland.as_deref(), Some("Volcano"));
    // (The tool list is longer than the panel: chosen through accesskit.)
    h.get_by_label("hex: Lava").click_accesskit();
    h.run_steps(2);
    let pos = h.state().hex_screen_pos("C3").unwrap();
    click_at(&mut h, pos);

    assert_eq!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .battleland("Volcano")
            .unwrap()
            .hexes["C3"]
            .hazard,
        "Lava"
    );

    // Land 1 becomes a Volcano.
    h.state_mut().tab = Tab::Masterboard;
    h.run_steps(2);
    let pos = h.state().land_screen_pos(1).unwrap();
    click_at(&mut h, pos);
    click(&mut h, "Volcano");
    assert_eq!(
        h.state().project.as_ref().unwrap().land(1).unwrap().terrain,
        "Volcano"
    );

    // Its mustering table starts empty (a problem says so) until a row is
    // added.
    assert!(
        h.state().project.as_ref().unwrap().problems()[0]
            .message
            .contains("the mustering table of Volcano has no rows")
    );
    click(&mut h, "Mustering");
    click(&mut h, "Volcano");
    click(&mut h, "Add row");
    h.state_mut().tab = Tab::Masterboard;
    h.run_steps(2);

    // Undo and redo across these.
    let p = h.state_mut().project.as_mut().unwrap();
    p.undo();
    p.undo();
    assert_eq!(p.land(1).unwrap().terrain, "Plains");
    p.undo();
    assert_eq!(
        p.battleland("Volcano").unwrap().hexes["C3"].hazard,
        "Plains"
    );
    p.redo();
    p.redo();
    p.redo();
    assert_eq!(p.land(1).unwrap().terrain, "Volcano");
    assert!(p.problems().is_empty(), "{:?}", p.problems());
    click(&mut h, "Save");
    check(&dir);
    let manifest = std::fs::read_to_string(dir.join("variant.ron")).unwrap();
    assert!(manifest.contains("battlelands/volcano.ron"), "{manifest}");
    let hazards = std::fs::read_to_string(dir.join("hazards.ron")).unwrap();
    // In a colour of its own (far from every other hazard's).
    let lava = hazards
        .lines()
        .find(|l| l.contains("(name: \"Lava\", place: Hex, color: \"#"))
        .expect(&hazards);
    assert!(
        lava.ends_with("\", effects: [Damage(hits: 1)]),"),
        "{hazards}"
    );
}

#[test]
fn a_new_terrain_may_copy_another_battleland_and_renames_follow() {
    let tmp = workspace();
    let mut h = harness(&tmp.path().join("variants/titan"));
    let p = h.state_mut().project.as_mut().unwrap();
    p.add_terrain("Ash", Some("Desert")).unwrap();
    assert_eq!(
        p.battleland("Ash").unwrap().hexes,
        p.battleland("Desert").unwrap().hexes
    );
    assert!(p.add_terrain("Ash", None).is_err(), "a name taken");
    // Renaming a hazard carries the battlelands and natives that name it.
    let mut bramble = p
        .data()
        .hazards
        .iter()
        .find(|x| x.name == "Bramble")
        .unwrap()
        .clone();
    bramble.name = "Thorns".into();
    p.set_hazard("Bramble", bramble).unwrap();
    // (Only Ash's empty mustering table is a problem.)
    assert!(
        p.problems()
            .iter()
            .all(|d| d.message.contains("of Ash has no rows")),
        "{:?}",
        p.problems()
    );
    assert!(p.character("Gargoyle").is_some());
    assert!(
        p.data()
            .characters
            .iter()
            .any(|c| c.natives.contains(&"Thorns".to_string()))
    );
    assert!(
        p.data()
            .battlelands
            .iter()
            .all(|b| b.hexes.values().all(|x| x.hazard != "Bramble"))
    );
    // Renaming a terrain carries its lands, battleland and table.
    let mut desert = p
        .data()
        .terrains
        .iter()
        .find(|t| t.name == "Desert")
        .unwrap()
        .clone();
    desert.name = "Sands".into();
    p.set_terrain("Desert", desert).unwrap();
    // (Only Ash's empty mustering table is a problem.)
    assert!(
        p.problems()
            .iter()
            .all(|d| d.message.contains("of Ash has no rows")),
        "{:?}",
        p.problems()
    );
    assert!(p.battleland("Sands").is_some() && p.muster_table("Sands").is_some());
    assert!(
        p.data()
            .masterboard
            .lands
            .iter()
            .all(|l| l.terrain != "Desert")
    );
    p.undo();
    assert!(p.battleland("Desert").is_some());
}

#[test]
fn a_partial_rules_file_opens_shows_the_base_and_stays_partial() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/fewer");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("variant.ron"),
        "(id: \"fewer\", title: \"Fewer\", version: \"1\", extends: \"titan\", files: (rules: \"rules.ron\"))\n",
    )
    .unwrap();
    let partial = "// Fewer markers.\n(\n    legions: (markers_per_player: 8),\n)\n";
    std::fs::write(dir.join("rules.ron"), partial).unwrap();
    let mut h = harness(&dir);
    let p = h.state().project.as_ref().unwrap();
    assert!(p.problems().is_empty(), "{:?}", p.problems());
    assert_eq!(
        p.data().rules.legions.as_ref().unwrap().markers_per_player,
        8
    );
    click(&mut h, "Rules and options");
    // The overridden field shows the base's value beside it.
    assert!(h.query_by_label("base: 12").is_some());
    assert!(h.query_by_label("(given here, over the base)").is_some());
    // Saving with nothing changed writes nothing.
    h.state_mut().project.as_mut().unwrap().save().unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("rules.ron")).unwrap(),
        partial
    );
    // A change elsewhere adds that section; the partial one keeps its text.
    let p = h.state_mut().project.as_mut().unwrap();
    let mut rules = p.data().rules.clone();
    rules.battle.as_mut().unwrap().max_range = 5;
    p.set_rules(rules);
    let options = h.state().project.as_ref().unwrap().rule_options().len();
    // Below the fold of the page: clicked through accesskit.
    h.get_by_label("Add on/off option").click_accesskit();
    h.run_steps(2);
    assert_eq!(
        h.state().project.as_ref().unwrap().rule_options().len(),
        options + 1
    );
    click(&mut h, "Save");
    let text = std::fs::read_to_string(dir.join("rules.ron")).unwrap();
    assert!(
        text.contains("    legions: (markers_per_player: 8),\n"),
        "{text}"
    );
    assert!(text.contains("max_range: 5"), "{text}");
    check(&dir);
    let manifest = std::fs::read_to_string(dir.join("variant.ron")).unwrap();
    // Written as an author would: a field per line, defaults left out.
    assert!(
        manifest.contains("    options: [(name: \"new_option\", default: Bool(false))],\n"),
        "{manifest}"
    );
    assert!(
        !manifest.contains("description: \"\"") && !manifest.contains("None"),
        "{manifest}"
    );
}

#[test]
fn write_a_script_see_its_error_at_its_line_fix_it_and_save() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let dir = titan_editor::project::create_extending(&root, "scripted", "titan").unwrap();
    let mut h = harness(&dir);
    click(&mut h, "Scripts");
    type_into(&mut h, "New script:", "abilities");
    click(&mut h, "Add script");
    let name = "scripts/abilities.lua";
    assert_eq!(h.state().script_forms.script.as_deref(), Some(name));
    // Typed with a syntax error on line 3: shown at its line.
    h.get_by_role(Role::MultilineTextInput).focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.get_by_role(Role::MultilineTextInput)
        .type_text("titan.hook(\"burn\", function(x)\n  return x +\nend)\n");
    h.run_steps(3);
    let p = h.state().project.as_ref().unwrap();
    let problems = p.script_problems(name);
    assert_eq!(problems.len(), 1, "{:?}", p.problems());
    assert_eq!(problems[0].line, 3, "{problems:?}");
    assert!(h.query_by_label_contains("line 3: ").is_some());
    // Fixed: the hook is registered and offered to the forms.
    h.get_by_role(Role::MultilineTextInput).focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.get_by_role(Role::MultilineTextInput)
        .type_text("titan.hook(\"burn\", function(x)\n  return x + 1\nend)\n");
    h.run_steps(3);
    let p = h.state().project.as_ref().unwrap();
    assert!(p.problems().is_empty(), "{:?}", p.problems());
    assert_eq!(p.hooks(), ["burn"]);
    assert!(
        h.query_by_label("Hooks the scripts register: burn")
            .is_some()
    );
    click(&mut h, "Save");
    assert_eq!(
        std::fs::read_to_string(dir.join(name)).unwrap(),
        "titan.hook(\"burn\", function(x)\n  return x + 1\nend)\n"
    );
    let manifest = std::fs::read_to_string(dir.join("variant.ron")).unwrap();
    assert!(manifest.contains("scripts/abilities.lua"), "{manifest}");
    check(&dir);
    // Undo goes back through the script's edits to before it existed.
    let p = h.state_mut().project.as_mut().unwrap();
    while p.can_undo() {
        p.undo();
    }
    assert!(p.script_names().is_empty());
}

#[test]
fn the_status_line_says_when_a_file_on_disk_is_broken() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir);
    std::fs::write(dir.join("mustering.ron"), "[ (terrain: ").unwrap();
    h.state_mut().reload_from_disk();
    h.run_steps(2);
    let status = h.state().status.clone();
    assert!(status.contains("mustering.ron does not parse"), "{status}");
    assert!(h.query_by_label_contains("does not parse").is_some());
    std::fs::copy(
        repo().join("variants/titan/mustering.ron"),
        dir.join("mustering.ron"),
    )
    .unwrap();
    h.state_mut().reload_from_disk();
    assert_eq!(h.state().status, "reloaded from disk");
}

#[test]
fn the_status_line_says_why_a_variant_switched_to_does_not_open() {
    let tmp = workspace();
    let root = tmp.path().join("variants");
    let mut h = harness(&root.join("titan"));
    std::fs::write(root.join("titan-shorter/mustering.ron"), "[ (terrain: ").unwrap();
    // The variant menu of the toolbar (its value is the variant shown).
    h.get_by_value("titan").click();
    h.run_steps(2);
    h.get_by_label("titan-shorter").click_accesskit();
    h.run_steps(3);
    assert!(h.state().project.is_none());
    let status = h.state().status.clone();
    assert!(
        status.starts_with("cannot open ") && status.contains("mustering.ron:1:"),
        "{status}"
    );
    assert!(!status.contains("opened"), "{status}");
    assert!(h.query_by_label_contains("cannot open ").is_some());
    // Fixed on disk: it opens (what the watcher's reload does).
    std::fs::copy(
        repo().join("variants/titan-shorter/mustering.ron"),
        root.join("titan-shorter/mustering.ron"),
    )
    .unwrap();
    h.state_mut().reload_from_disk();
    h.run_steps(2);
    assert!(h.state().project.is_some());
    assert!(h.state().status.starts_with("opened "));
}

#[test]
fn without_scripts_the_hook_choices_say_where_hooks_come_from() {
    let tmp = workspace();
    let mut h = harness(&tmp.path().join("variants/titan"));
    h.state_mut().tab = Tab::Characters;
    h.state_mut().selected_character = Some("Ogre".into());
    h.run_steps(2);
    // No empty "add ability" menu: a pointer to the Scripts page.
    assert!(h.query_by_value("add ability").is_none());
    assert!(h.query_by_label_contains("no hooks yet").is_some());
    // A hazard's script hook effect says the same.
    click(&mut h, "Terrains and hazards");
    click(&mut h, "Bramble");
    let effects = |h: &Harness<'_, EditorApp>| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .data()
            .hazards
            .iter()
            .find(|x| x.name == "Bramble")
            .unwrap()
            .effects
            .len()
    };
    let n = effects(&h);
    click(&mut h, "Add effect");
    h.get_by_value("no contact").click();
    h.run_steps(2);
    h.get_by_label("script hook").click_accesskit();
    h.run_steps(2);
    assert_eq!(effects(&h), n + 1);
    assert!(h.query_by_label_contains("no hooks yet").is_some());
}

#[test]
fn the_functions_of_script_actions_are_not_offered_as_hooks() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/house-spells");
    common::copy_tree(&repo().join("variants/house-spells"), &dir);
    let mut h = harness(&dir);
    // Its script registers only actions (titan.action), whose functions
    // the engine keeps as "action:<name>:legal" and ":apply": no data may
    // name them, so no ability menu offers them.
    assert!(h.state().project.as_ref().unwrap().hooks().is_empty());
    assert_eq!(
        h.state().project.as_ref().unwrap().script_actions(),
        ["fireball", "heal", "reroll"]
    );
    h.state_mut().tab = Tab::Characters;
    h.state_mut().selected_character = Some("Ogre".into());
    h.run_steps(2);
    assert!(h.query_by_value("add ability").is_none());
    assert!(h.query_by_label_contains("action:").is_none());
    click(&mut h, "Scripts");
    assert!(
        h.query_by_label_contains("Hooks the scripts register")
            .is_none()
    );
}

/// The battle procedure is edited on the rules page like any other rule:
/// a house rule of Titan 1982's masterboard with placement battles
/// (docs/variant-format.md, "The battle procedure"), saved, and loaded.
#[test]
fn the_battle_procedure_is_chosen_on_the_rules_page_and_saved() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/placing");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("variant.ron"),
        "(id: \"placing\", title: \"Placing\", version: \"1\", extends: \"titan\", files: (rules: \"rules.ron\"))\n",
    )
    .unwrap();
    std::fs::write(dir.join("rules.ron"), "(\n    battle: (max_range: 4),\n)\n").unwrap();
    let mut h = harness(&dir);
    click(&mut h, "Rules and options");
    assert!(h.query_by_label("procedure").is_some());
    // The movement's choice shows the 1982 default; pick placement phases.
    let movement = h
        .get_all_by_role(Role::ComboBox)
        .find(|n| n.value().as_deref() == Some("Maneuver"))
        .expect("the movement's menu");
    movement.click();
    h.run_steps(2);
    h.get_by_label("Placement").click_accesskit();
    h.run_steps(2);
    click(&mut h, "Save");
    let text = std::fs::read_to_string(dir.join("rules.ron")).unwrap();
    assert!(text.contains("movement: Placement"), "{text}");
    check(&dir);
    let v = titan_core::load(&dir, &Default::default()).unwrap();
    assert_eq!(
        v.rules.battle.procedure.movement,
        titan_core::format::Maneuvering::Placement
    );
}

#[test]
fn marker_names_are_typed_on_the_rules_page_and_saved() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/named");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("variant.ron"),
        "(id: \"named\", title: \"Named\", version: \"1\", extends: \"titan\", files: (rules: \"rules.ron\"))\n",
    )
    .unwrap();
    std::fs::write(dir.join("rules.ron"), "(\n    legions: (max_size: 7),\n)\n").unwrap();
    let mut h = harness(&dir);
    click(&mut h, "Rules and options");
    h.get_by_label("marker_names").click_accesskit();
    h.run_steps(2);
    // Seat 2 names its first marker; seat 1 names none.
    let field = || Role::MultilineTextInput;
    h.get_by_role_and_label(field(), "seat 2 marker names")
        .focus();
    h.run_steps(2);
    h.get_by_role_and_label(field(), "seat 2 marker names")
        .type_text("Anvil");
    h.run_steps(2);
    click(&mut h, "Save");
    let text = std::fs::read_to_string(dir.join("rules.ron")).unwrap();
    assert!(text.contains("marker_names"), "{text}");
    check(&dir);
    let v = titan_core::load(&dir, &Default::default()).unwrap();
    assert_eq!(
        v.rules.legions.marker_names,
        vec![Vec::<String>::new(), vec!["Anvil".to_string()]]
    );
    assert_eq!(v.marker_label("P2-01".parse().unwrap()), "P2-01 (Anvil)");
}

/// A showdown (docs/variant-format.md, "Showdowns") is edited on the rules
/// page of a variant extending Titan 1980 (strikes in any order), saved and
/// loaded.
#[test]
fn the_showdown_is_edited_on_the_rules_page_and_saved() {
    let tmp = workspace();
    common::copy_tree(
        &common::repo().join("variants/titan-1980"),
        &tmp.path().join("variants/titan-1980"),
    );
    let dir = tmp.path().join("variants/no-reckoning");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("variant.ron"),
        "(id: \"no-reckoning\", title: \"No Reckoning\", version: \"1\", extends: \"titan-1980\", files: (rules: \"rules.ron\"))\n",
    )
    .unwrap();
    std::fs::write(dir.join("rules.ron"), "(\n    battle: (max_range: 4),\n)\n").unwrap();
    let mut h = harness(&dir);
    click(&mut h, "Rules and options");
    assert!(h.query_by_label("showdown").is_some());
    assert!(
        h.query_by_label("right_to_left").is_some(),
        "the form shows it on"
    );
    h.get_by_label("each team strikes from right to left")
        .click();
    h.run_steps(2);
    click(&mut h, "Save");
    let v = titan_core::load(&dir, &Default::default()).unwrap();
    let sd = v.rules.battle.showdown.clone().expect("still a showdown");
    assert!(!sd.right_to_left);
    assert_eq!(sd.terrain, "Reckoning");
}
