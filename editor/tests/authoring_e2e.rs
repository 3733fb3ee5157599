//! The editor's end-to-end authoring test: egui_kittest drives the real
//! app, by clicks and typing only, to make a new game
//! extending `titan`: a Lua script with an ability and a hazard hook, a new
//! creature with that ability, a new terrain with a new hazard whose effect
//! is the hook and whose native the creature is, its battleland painted, the
//! creature musterable there, a land of the masterboard made of it; saved.
//! Then the saved folder passes `titan check`, a seeded battle on the new
//! battleland shows the ability and the hazard acting, and undo takes every
//! step away again (from the state and from the pages drawn) and redo puts
//! it all back, identical to what was saved.

mod common;

use std::path::Path;

use common::{click, harness, repo, type_into, workspace};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::battle::position::Position;
use titan_core::battle::{Action, Battle, BattleEvent, BattleSide, Phase};
use titan_core::battleland::HexId;
use titan_core::format::{Effect, Needs, VariantData};
use titan_core::rng::GameRng;
use titan_editor::{EditorApp, HexTool, Tab};

/// The script the author types: an ability (two more dice when the
/// creature strikes) and a hazard hook (two hits at the end of each strike
/// phase to whoever is not native), docs/scripting.md "Hook points".
const SCRIPT: &str = "\
-- Fire breath: a Salamander strikes with two more dice.
titan.hook(\"fire_breath\", function(is_striker, ranged, n, dice)
  if is_striker and not ranged then return n, dice + 2 end
  return n, dice
end)
-- Cinders burn whoever is not native to them.
titan.hook(\"scorching\", function(power, skill, damage, native)
  if native then return 0 end
  return 2
end)
";

/// The options `titan check` uses for a folder under `root`'s `variants/`.
fn options(root: &Path) -> titan_core::LoadOptions {
    titan_core::LoadOptions {
        search_paths: vec![root.join("variants")],
        shared_scripts: Some(root.join("scripts")),
    }
}

/// What `titan check DIR` does (src/check.rs, `check_one`): load, bases
/// resolved, and compile; any error fails.
fn titan_check(root: &Path, dir: &Path) -> titan_core::Variant {
    let loaded = titan_core::load_data(dir, &options(root))
        .unwrap_or_else(|e| panic!("{} does not load: {e:?}", dir.display()));
    titan_core::compile(&loaded)
        .unwrap_or_else(|e| panic!("{} does not check: {e:?}", dir.display()))
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

/// Chooses `item` in the menu whose current value is `value`.
fn choose(h: &mut Harness<'_, EditorApp>, value: &str, item: &str) {
    h.get_by_value(value).click();
    h.run_steps(2);
    h.get_by_label(item).scroll_to_me();
    // (A long menu scrolls the item into view, animated.)
    h.run_steps(20);
    h.get_by_label(item).click();
    h.run_steps(2);
}

/// What an undo or redo must bring back: the merged data and the scripts.
#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    data: VariantData,
    scripts: Vec<(String, String)>,
}

fn snapshot(h: &Harness<'_, EditorApp>) -> Snapshot {
    let p = h.state().project.as_ref().unwrap();
    Snapshot {
        data: p.data().clone(),
        scripts: p
            .script_names()
            .into_iter()
            .map(|n| {
                let text = p.script_text(&n).unwrap().to_string();
                (n, text)
            })
            .collect(),
    }
}

/// Whether the (only) widget labelled `label` is shown selected.
fn toggled(h: &Harness<'_, EditorApp>, label: &str) -> Option<bool> {
    use egui::accesskit::Toggled;
    use egui_kittest::kittest::NodeT;
    h.get_by_label(label)
        .accesskit_node()
        .toggled()
        .map(|t| t == Toggled::True)
}

/// The names a canvas's legend lists ("Terrains: Brush, Desert, ..." is
/// the canvas's label).
fn legend(h: &Harness<'_, EditorApp>, title: &str) -> Vec<String> {
    use egui_kittest::kittest::NodeT;
    let prefix = format!("{title}: ");
    let label = h
        .get_by_label_contains(&prefix)
        .accesskit_node()
        .label()
        .unwrap_or_default();
    label[prefix.len()..]
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// Opens the page `tab` by its label in the toolbar.
fn page(h: &mut Harness<'_, EditorApp>, tab: Tab) {
    let label = match tab {
        Tab::Masterboard => "Masterboard",
        Tab::Battlelands => "Battlelands",
        Tab::Characters => "Characters",
        Tab::Mustering => "Mustering",
        Tab::Terrains => "Terrains and hazards",
        Tab::Scripts => "Scripts",
        other => unreachable!("{other:?}"),
    };
    click(h, label);
    // (A side panel settles to its width on the page's second frame.)
    h.run_steps(2);
    assert_eq!(h.state().tab, tab);
}

/// Whether the page `tab` shows a widget labelled exactly `label`.
fn shows(h: &mut Harness<'_, EditorApp>, tab: Tab, label: &str) -> bool {
    page(h, tab);
    h.query_all_by_label(label).next().is_some()
}

#[test]
fn make_a_new_game_in_the_app_check_it_battle_it_undo_and_redo_it_all() {
    let tmp = workspace();
    let root = tmp.path().to_path_buf();
    let mut h = harness(&root.join("variants/titan"));
    let titan_land_1 = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .land(1)
        .unwrap()
        .terrain
        .clone();

    // 1. "New variant extending ...": the edited titan is the base.
    click(&mut h, "New variant...");
    type_into(&mut h, "Folder and id:", "forge");
    click(&mut h, "Create");
    let dir = root.join("variants/forge");
    assert_eq!(h.state().project.as_ref().unwrap().dir(), dir);
    assert!(!h.state().project.as_ref().unwrap().can_undo());
    // Each checkpoint is the state after a step of the walk, for undo.
    let mut steps: Vec<(&str, Snapshot)> = vec![("fresh", snapshot(&h))];

    // 2. A script with the two hooks, typed in the script page.
    click(&mut h, "Scripts");
    type_into(&mut h, "New script:", "forge");
    click(&mut h, "Add script");
    let script = "scripts/forge.lua";
    assert_eq!(h.state().script_forms.script.as_deref(), Some(script));
    h.get_by_role(Role::MultilineTextInput).focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.get_by_role(Role::MultilineTextInput).type_text(SCRIPT);
    h.run_steps(3);
    {
        let p = h.state().project.as_ref().unwrap();
        assert_eq!(p.script_text(script), Some(SCRIPT));
        assert!(p.problems().is_empty(), "{:?}", p.problems());
        assert_eq!(p.hooks(), ["fire_breath", "scorching"]);
    }
    assert!(
        h.query_by_label("Hooks the scripts register: fire_breath, scorching")
            .is_some()
    );
    steps.push(("script", snapshot(&h)));

    // 3. A new creature: named, its power set, the ability chosen among the
    // hooks the scripts register.
    click(&mut h, "Characters");
    click(&mut h, "Add character");
    type_into(&mut h, "Name:", "Salamander");
    click(&mut h, "Rename");
    assert_eq!(h.state().selected_character.as_deref(), Some("Salamander"));
    h.get_by_role_and_label(Role::SpinButton, "power")
        .set_value_accesskit(6.0);
    h.run_steps(2);
    type_into(&mut h, "plural", "Salamanders");
    choose(&mut h, "add ability", "fire_breath");
    {
        let p = h.state().project.as_ref().unwrap();
        let s = p.character("Salamander").unwrap();
        assert_eq!((s.power, s.skill), (6, 3));
        assert_eq!(s.plural, "Salamanders");
        assert_eq!(s.abilities, ["fire_breath"]);
    }
    steps.push(("creature", snapshot(&h)));

    // 4. A new terrain on a blank board, and a new hex hazard whose effect
    // is the scorching hook; the Salamander is native to it.
    click(&mut h, "Terrains and hazards");
    type_into(&mut h, "New terrain:", "Caldera");
    click(&mut h, "Add terrain");
    steps.push(("terrain", snapshot(&h)));
    click(&mut h, "Add hex hazard");
    type_into(&mut h, "Hazard name:", "Cinders");
    click(&mut h, "Rename hazard");
    click(&mut h, "Add effect");
    choose(&mut h, "no contact", "script hook");
    // The first hook is offered first; the author picks the hazard's.
    choose(&mut h, "fire_breath", "scorching");
    h.get_by_role_and_label(Role::CheckBox, "Salamander")
        .click();
    h.run_steps(2);
    {
        let p = h.state().project.as_ref().unwrap();
        let cinders = p
            .data()
            .hazards
            .iter()
            .find(|x| x.name == "Cinders")
            .unwrap();
        assert_eq!(cinders.effects, [Effect::Hook("scorching".into())]);
        assert_eq!(p.character("Salamander").unwrap().natives, ["Cinders"]);
    }
    steps.push(("hazard", snapshot(&h)));

    // 5. Its battleland painted: Cinders on C3 and C4.
    click(&mut h, "Edit its battleland");
    assert_eq!(h.state().tab, Tab::Battlelands);
    assert_eq!(h.state().battleland.as_deref(), Some("Caldera"));
    // (The side panel settles to its width on the page's second frame.)
    h.run_steps(2);
    h.get_by_label("hex: Cinders").click();
    h.run_steps(2);
    assert_eq!(h.state().hex_tool, HexTool::Hazard("Cinders".into()));
    for hex in ["C3", "C4"] {
        let pos = h.state().hex_screen_pos(hex).unwrap();
        click_at(&mut h, pos);
    }
    {
        let p = h.state().project.as_ref().unwrap();
        let land = p.battleland("Caldera").unwrap();
        assert_eq!(land.hexes["C3"].hazard, "Cinders");
        assert_eq!(land.hexes["C4"].hazard, "Cinders");
    }
    // The battleland's legend lists the new hazard.
    assert!(legend(&h, "Hazards").contains(&"Cinders".to_string()));
    steps.push(("battleland", snapshot(&h)));

    // 6. Musterable: the Caldera's table gets a row of the Salamander,
    // mustered by any legion there.
    click(&mut h, "Mustering");
    click(&mut h, "Caldera");
    click(&mut h, "Add row");
    let first = h.state().project.as_ref().unwrap().data().characters[0]
        .name
        .clone();
    choose(&mut h, &first, "Salamander");
    {
        let p = h.state().project.as_ref().unwrap();
        let rows = &p.muster_table("Caldera").unwrap().rows;
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].character, "Salamander");
        assert_eq!(rows[0].needs, Vec::<Needs>::new());
    }
    steps.push(("mustering", snapshot(&h)));

    // 7. Land 1 becomes a Caldera.
    click(&mut h, "Masterboard");
    let pos = h.state().land_screen_pos(1).unwrap();
    click_at(&mut h, pos);
    assert_eq!(h.state().selected_land, Some(1));
    click(&mut h, "Caldera");
    assert_eq!(
        h.state().project.as_ref().unwrap().land(1).unwrap().terrain,
        "Caldera"
    );
    // The masterboard's legend has the new terrain's colour.
    assert!(legend(&h, "Terrains").contains(&"Caldera".to_string()));
    steps.push(("land", snapshot(&h)));

    // 8. Saved, nothing left to fix.
    {
        let p = h.state().project.as_ref().unwrap();
        assert!(p.problems().is_empty(), "{:?}", p.problems());
    }
    assert!(h.query_by_label("none: titan check would pass").is_some());
    click(&mut h, "Save");
    assert!(!h.state().is_dirty());
    let saved = snapshot(&h);
    let files = saved_files(&dir);

    // (a) `titan check` on the saved folder passes.
    let variant = titan_check(&root, &dir);
    assert!(variant.hooks.contains(&"scorching".to_string()));
    // The files read as an author writes them: one item a line, no run-ons.
    for (name, text) in &files {
        assert!(
            !text.contains("),    ") && !text.contains("],    "),
            "{name} has a run-on line:\n{text}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join(script)).unwrap(),
        SCRIPT,
        "a script is written as typed"
    );
    // A long `files` is opened a field per line, as titan's is.
    let manifest = &files["variant.ron"];
    assert!(
        manifest.contains("    files: (\n        terrains: \"terrains.ron\",\n"),
        "{manifest}"
    );
    assert!(
        manifest.contains("        scripts: [\"scripts/forge.lua\"],\n    ),\n)"),
        "{manifest}"
    );
    let mustering = &files["mustering.ron"];
    assert!(
        mustering.contains(
            "(terrain: \"Caldera\", rows: [\n        (character: \"Salamander\"),\n    ]),"
        ),
        "{mustering}"
    );
    // Titan's own files are untouched.
    for f in [
        "characters.ron",
        "terrains.ron",
        "hazards.ron",
        "variant.ron",
    ] {
        assert_eq!(
            std::fs::read(root.join("variants/titan").join(f)).unwrap(),
            std::fs::read(repo().join("variants/titan").join(f)).unwrap(),
            "{f}"
        );
    }

    // (b) A seeded battle on the Caldera's battleland: the Salamander (on
    // Cinders, native) strikes an Ogre (on Cinders, not native).
    battle_on_the_new_terrain(&titan_core::load(&dir, &options(&root)).unwrap());

    // Undo everything, with the toolbar's button, back to the fresh variant:
    // each step's checkpoint comes back in turn, and its piece is gone from
    // the pages drawn.
    for k in (0..steps.len() - 1).rev() {
        let (name, want) = &steps[k];
        let mut clicks = 0;
        while snapshot(&h) != *want {
            assert!(
                h.state().project.as_ref().unwrap().can_undo(),
                "undo cannot reach the state after {name}"
            );
            h.get_by_label("Undo").click();
            h.run_steps(2);
            clicks += 1;
            assert!(clicks < 50, "undo does not come back to {name}");
        }
        assert!(clicks > 0, "{name}: nothing to undo");
        let undone = steps[k + 1].0;
        match undone {
            "land" => {
                let p = h.state().project.as_ref().unwrap();
                assert_eq!(p.land(1).unwrap().terrain, titan_land_1);
                // Land 1 is still selected: its panel marks its old terrain.
                page(&mut h, Tab::Masterboard);
                assert_eq!(h.state().selected_land, Some(1));
                assert_eq!(toggled(&h, "Caldera"), Some(false));
                assert_eq!(toggled(&h, &titan_land_1), Some(true));
            }
            "mustering" => {
                let p = h.state().project.as_ref().unwrap();
                assert!(p.muster_table("Caldera").unwrap().rows.is_empty());
                page(&mut h, Tab::Mustering);
                click(&mut h, "Caldera");
                // (A row's character is its menu's value.)
                assert!(h.query_by_value("Salamander").is_none());
                assert!(h.query_by_label("Add row").is_some());
            }
            "battleland" => {
                let p = h.state().project.as_ref().unwrap();
                let land = p.battleland("Caldera").unwrap();
                assert!(land.hexes.values().all(|x| x.hazard != "Cinders"));
                // The hex panel says what C3 is now (picked with "select").
                page(&mut h, Tab::Battlelands);
                h.get_by_label("select").click();
                h.run_steps(2);
                let pos = h.state().hex_screen_pos("C3").unwrap();
                click_at(&mut h, pos);
                assert!(h.query_by_label("Hex C3: Plains, elevation 0").is_some());
                assert_eq!(legend(&h, "Hazards"), ["Plains"]);
            }
            "hazard" => {
                let p = h.state().project.as_ref().unwrap();
                assert!(p.data().hazards.iter().all(|x| x.name != "Cinders"));
                assert!(p.character("Salamander").unwrap().natives.is_empty());
                assert!(!shows(&mut h, Tab::Terrains, "Cinders"));
                assert!(!shows(&mut h, Tab::Battlelands, "hex: Cinders"));
            }
            "terrain" => {
                let p = h.state().project.as_ref().unwrap();
                assert!(p.data().terrains.iter().all(|t| t.name != "Caldera"));
                assert!(p.battleland("Caldera").is_none());
                assert!(p.muster_table("Caldera").is_none());
                assert!(!shows(&mut h, Tab::Terrains, "Caldera"));
                assert!(!shows(&mut h, Tab::Mustering, "Caldera"));
                page(&mut h, Tab::Masterboard);
                assert!(!legend(&h, "Terrains").contains(&"Caldera".to_string()));
                assert!(legend(&h, "Terrains").contains(&titan_land_1));
            }
            "creature" => {
                assert!(
                    h.state()
                        .project
                        .as_ref()
                        .unwrap()
                        .character("Salamander")
                        .is_none()
                );
                assert!(!shows(&mut h, Tab::Characters, "Salamander"));
                assert!(!shows(&mut h, Tab::Characters, "New creature"));
            }
            "script" => {
                let p = h.state().project.as_ref().unwrap();
                assert!(p.script_names().is_empty());
                assert!(p.hooks().is_empty());
                assert!(!shows(&mut h, Tab::Scripts, "scripts/forge.lua"));
                assert!(h.query_by_label("none yet").is_some());
            }
            other => unreachable!("{other}"),
        }
    }
    assert!(!h.state().project.as_ref().unwrap().can_undo());
    assert_eq!(snapshot(&h), steps[0].1);
    assert!(h.state().is_dirty(), "the saved pieces are undone");

    // Redo everything: the same variant as saved, so nothing to save.
    let mut clicks = 0;
    while h.state().project.as_ref().unwrap().can_redo() {
        h.get_by_label("Redo").click();
        h.run_steps(2);
        clicks += 1;
        assert!(clicks < 100);
    }
    assert_eq!(snapshot(&h), saved);
    assert!(!h.state().is_dirty());
    assert!(shows(&mut h, Tab::Characters, "Salamander"));
    assert!(shows(&mut h, Tab::Terrains, "Cinders"));
    assert!(shows(&mut h, Tab::Scripts, "scripts/forge.lua"));
    click(&mut h, "Save");
    assert_eq!(saved_files(&dir), files);
    assert!(
        h.state().project.as_ref().unwrap().problems().is_empty(),
        "{:?}",
        h.state().project.as_ref().unwrap().problems()
    );
    titan_check(&root, &dir);
}

/// Every file of the variant's folder, by its path in it.
fn saved_files(dir: &Path) -> std::collections::BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let name = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
                out.insert(name, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = Default::default();
    walk(dir, dir, &mut out);
    out
}

/// A battle on the saved variant's Caldera: the fire breath gives the
/// Salamander two more dice, and the Cinders burn the Ogre (not native) for
/// two hits at the end of the strike phase, not the Salamander (native).
/// (docs/scripting.md, hook points "abilities of a character" and "hazard
/// effect Hook".)
fn battle_on_the_new_terrain(v: &titan_core::Variant) {
    let position = Position::from_ron(
        r#"(
            battleland: "Caldera",
            moving: Attacker,
            phase: Strike,
            attacker: [(character: "Salamander", hex: "C3")],
            defender: [(character: "Ogre", hex: "C4")],
        )"#,
    )
    .unwrap();
    let mut b = Battle::from_position(v, &position, GameRng::new(13)).unwrap();
    let at = |b: &Battle, l: &str| b.unit_at(HexId::from_label(l).unwrap()).unwrap();
    let (salamander, ogre) = (at(&b, "C3"), at(&b, "C4"));
    // Power 6 and two more dice; skill 3 against the Ogre's 2 needs a 3
    // (the strike chart).
    let report = b.strike_report(salamander, ogre).unwrap();
    assert_eq!((report.strike_number, report.dice), (3, 8), "{report:?}");
    // The Ogre striking back is not helped by the Salamander's ability.
    assert_eq!(b.strike_report(ogre, salamander).unwrap().dice, 6);
    // Eight dice, two of them hits.
    b.fix_dice([1, 1, 1, 1, 1, 2, 3, 6]);
    let events = b
        .apply(Action::Strike {
            unit: salamander,
            target: ogre,
            strike_number: None,
            forgo_bonus: false,
        })
        .unwrap();
    assert!(
        events.iter().any(|e| matches!(e,
            BattleEvent::Struck { rolls, hits: 2, .. } if rolls.len() == 8)),
        "{events:?}"
    );
    assert_eq!(b.fixed_dice_left(), 0);
    // The strike phase ends (the attacker's strikes, then the Ogre's
    // strikes back, six dice, no hit): the hazard's hook is called then.
    let mut events = b.apply(Action::EndStrikes).unwrap();
    b.fix_dice([1; 6]);
    events.extend(
        b.apply(Action::Strike {
            unit: ogre,
            target: salamander,
            strike_number: None,
            forgo_bonus: false,
        })
        .unwrap(),
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, BattleEvent::HazardDamage { .. })),
        "{events:?}"
    );
    events.extend(b.apply(Action::EndStrikes).unwrap());
    assert_eq!(b.fixed_dice_left(), 0);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, BattleEvent::HazardDamage { unit, hits: 2 } if *unit == ogre)),
        "{events:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, BattleEvent::HazardDamage { unit, hits } if *unit == salamander && *hits > 0)),
        "{events:?}"
    );
    assert_eq!(b.units()[ogre as usize].damage, 4);
    assert_eq!(b.units()[salamander as usize].damage, 0);
    assert_eq!(b.moving(), BattleSide::Defender);
    assert_eq!(b.phase(), Phase::Maneuver, "{events:?}");
}

/// Saved files stay formatted as an author writes them: a rules section
/// changed in the app is written with a field per line and its list an item
/// per line when it would not fit on one, not as one long run-on line; the
/// unchanged sections are not written at all (they come from the base).
#[test]
fn a_changed_rules_section_is_written_a_field_per_line() {
    let tmp = workspace();
    let root = tmp.path().to_path_buf();
    let mut h = harness(&root.join("variants/titan"));
    click(&mut h, "New variant...");
    type_into(&mut h, "Folder and id:", "bigger");
    click(&mut h, "Create");
    let dir = root.join("variants/bigger");
    click(&mut h, "Rules and options");
    // A sixth starting character (reference sheet, Setup: the starting
    // characters are `rules.start`).
    click(&mut h, "add starting character");
    let p = h.state().project.as_ref().unwrap();
    assert_eq!(p.data().rules.start.as_ref().unwrap().characters.len(), 6);
    assert!(p.problems().is_empty(), "{:?}", p.problems());
    click(&mut h, "Save");
    let rules = std::fs::read_to_string(dir.join("rules.ron")).unwrap();
    assert!(
        rules.contains(
            "    start: (\n        characters: [\n            (character: \"Titan\", count: 1),\n"
        ),
        "{rules}"
    );
    assert!(rules.contains("        legions: 2,\n"), "{rules}");
    assert!(!rules.contains("battle:"), "{rules}");
    for line in rules.lines() {
        assert!(line.len() <= 100, "a run-on line: {line}\n{rules}");
    }
    titan_check(&root, &dir);
}

/// Two new hazards (or terrains) are told apart on the boards and legends:
/// each gets a colour none has yet.
#[test]
fn new_terrains_and_hazards_get_colours_of_their_own() {
    let tmp = workspace();
    let mut h = harness(&tmp.path().join("variants/titan"));
    click(&mut h, "Terrains and hazards");
    for name in ["Ash", "Ember"] {
        type_into(&mut h, "New terrain:", name);
        click(&mut h, "Add terrain");
    }
    click(&mut h, "Add hex hazard");
    click(&mut h, "Add hex hazard");
    click(&mut h, "Add hexside hazard");
    let data = h.state().project.as_ref().unwrap().data().clone();
    let mut terrains: Vec<_> = data.terrains.iter().map(|t| t.color).collect();
    let mut hazards: Vec<_> = data.hazards.iter().map(|x| x.color).collect();
    let (nt, nh) = (terrains.len(), hazards.len());
    terrains.sort_by_key(|c| c.0);
    terrains.dedup();
    hazards.sort_by_key(|c| c.0);
    hazards.dedup();
    assert_eq!(terrains.len(), nt, "{:?}", data.terrains);
    assert_eq!(hazards.len(), nh, "{:?}", data.hazards);
}
