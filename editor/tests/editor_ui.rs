//! Headless tests of the editor: egui_kittest drives the real app (its
//! buttons by their labels, its canvases by pointer events at the places
//! the app drew lands, borders and hexes), and the tests check the app's
//! state and the files on disk. Each test works on a copy of the bundled
//! variants in a temporary folder.

mod common;

use common::workspace;
use std::path::Path;
use std::time::{Duration, Instant};

use egui::{Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::format::{LandDef, Side, Sign};
use titan_editor::{EditorApp, Pending, Tab};

fn harness(dir: &Path, watch: bool) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::new(dir, dir.parent().unwrap());
    app.watch = watch;
    assert!(app.project.is_some(), "{:?}", app.open_errors);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
    h.run_steps(3);
    h
}

/// A primary click at a screen position.
fn click_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
}

fn land(h: &Harness<'_, EditorApp>, n: u32) -> LandDef {
    h.state().project.as_ref().unwrap().land(n).unwrap().clone()
}

/// Steps the app until `done` holds (the watcher works in real time).
fn wait_for(h: &mut Harness<'_, EditorApp>, done: impl Fn(&EditorApp) -> bool) -> Duration {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            // A bound against a hang, not a speed check: a loaded CI machine
            // may be slow to deliver the watcher's events.
            start.elapsed() < Duration::from_secs(60),
            "the app did not get there in 60 s; status {:?}, problems {:?}",
            h.state().status,
            h.state().project.as_ref().map(|p| p.problems().to_vec())
        );
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    start.elapsed()
}

#[test]
fn change_a_lands_terrain_and_save() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let before = std::fs::read_to_string(dir.join("hazards.ron")).unwrap();
    let mut h = harness(&dir, false);
    let pos = h.state().land_screen_pos(1).unwrap();
    click_at(&mut h, pos);
    assert_eq!(h.state().selected_land, Some(1));
    assert_eq!(land(&h, 1).terrain, "Plains");

    h.get_by_label("Desert").click();
    h.run_steps(2);
    assert_eq!(land(&h, 1).terrain, "Desert");
    assert!(h.state().is_dirty());

    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(!h.state().is_dirty());
    let reloaded = titan_core::load_data(&dir, &Default::default()).unwrap();
    let saved = reloaded
        .data
        .masterboard
        .lands
        .iter()
        .find(|l| l.number == 1)
        .unwrap();
    assert_eq!(saved.terrain, "Desert");
    // Only the board was written; its comment header is kept.
    assert_eq!(
        std::fs::read_to_string(dir.join("hazards.ron")).unwrap(),
        before
    );
    let board = std::fs::read_to_string(dir.join("masterboard.ron")).unwrap();
    assert!(board.starts_with("// The masterboard of the Avalon Hill Titan"));
    // A changed land still takes one line.
    assert!(
        board
            .lines()
            .any(|l| l.trim_start().starts_with("(number: 1,") && l.contains("\"Desert\"")),
        "{}",
        &board[..600]
    );
}

#[test]
fn add_and_change_a_sign_by_clicking_the_border() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    // Land 1 and a neighbour it has no sign towards.
    let one = land(&h, 1);
    let project = h.state().project.as_ref().unwrap();
    let to = titan_editor::app::neighbours(one.position)
        .into_iter()
        .filter_map(|p| project.land_at(p))
        .map(|l| l.number)
        .find(|n| !one.exits.iter().any(|e| e.to == *n))
        .expect("land 1 has a border without a sign");

    let pos = h.state().land_screen_pos(1).unwrap();
    click_at(&mut h, pos);
    let border = h.state().border_screen_pos(1, to).unwrap();
    click_at(&mut h, border);
    let sign =
        |h: &Harness<'_, EditorApp>| land(h, 1).exits.iter().find(|e| e.to == to).map(|e| e.sign);
    assert_eq!(sign(&h), Some(Sign::Block), "a click adds a block");
    click_at(&mut h, border);
    assert_eq!(
        sign(&h),
        Some(Sign::Arch),
        "the next click makes it an arch"
    );
    // The land stays selected throughout.
    assert_eq!(h.state().selected_land, Some(1));
    // An unanswered block is what `titan check` reports (Law of Titan 7.D).
    let problems = h.state().project.as_ref().unwrap().problems().to_vec();
    assert!(
        problems.iter().any(|d| d.message.contains(&to.to_string())),
        "{problems:?}"
    );
}

#[test]
fn set_a_hexside_cliff_then_undo_and_redo() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    h.get_by_label("Battlelands").click();
    h.run_steps(2);
    assert_eq!(h.state().tab, Tab::Battlelands);
    h.get_by_label("Hills").click();
    h.run_steps(2);
    h.get_by_label("side: Cliff").click();
    h.run_steps(3);
    let pos = h.state().hexside_screen_pos("C3", Side::N).unwrap();
    click_at(&mut h, pos);
    let side = |h: &Harness<'_, EditorApp>| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .battleland("Hills")
            .unwrap()
            .hexes["C3"]
            .sides
            .get(&Side::N)
            .cloned()
    };
    assert_eq!(h.state().selected_hex.as_deref(), Some("C3"));
    assert_eq!(side(&h).as_deref(), Some("Cliff"));

    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(side(&h), None);
    assert!(!h.state().is_dirty());
    h.get_by_label("Redo").click();
    h.run_steps(2);
    assert_eq!(side(&h).as_deref(), Some("Cliff"));
    // The keyboard does the same.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(side(&h), None);
}

#[test]
fn set_a_hex_hazard_and_elevation() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    h.state_mut().tab = Tab::Battlelands;
    h.state_mut().battleland = Some("Plains".into());
    h.run_steps(2);
    h.get_by_label("hex: Bramble").click();
    h.run_steps(2);
    let pos = h.state().hex_screen_pos("D3").unwrap();
    click_at(&mut h, pos);
    h.get_by_label("elevation 2").click();
    h.run_steps(2);
    click_at(&mut h, pos);
    let hex = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .battleland("Plains")
        .unwrap()
        .hexes["D3"]
        .clone();
    assert_eq!((hex.hazard.as_str(), hex.elevation), ("Bramble", 2));
}

#[test]
fn a_broken_file_shows_its_error_and_the_last_good_board_then_an_external_edit_appears() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let board_path = dir.join("masterboard.ron");
    let good = std::fs::read_to_string(&board_path).unwrap();
    let mut h = harness(&dir, true);
    h.run_steps(2);

    std::fs::write(&board_path, "(\n    lands: [ this is not RON\n").unwrap();
    wait_for(&mut h, |app| {
        app.project
            .as_ref()
            .unwrap()
            .problems()
            .iter()
            .any(|d| d.file.ends_with("masterboard.ron"))
    });
    let p = h.state().project.as_ref().unwrap();
    let d = p
        .problems()
        .iter()
        .find(|d| d.file.ends_with("masterboard.ron"))
        .unwrap();
    assert_eq!(d.line, 2, "{d}");
    assert!(d.column > 0, "{d}");
    assert_eq!(p.data().masterboard.lands.len(), 96, "the last good board");
    // The error is shown in the problems panel.
    assert!(
        h.query_by_label_contains("masterboard.ron:2:").is_some(),
        "the problems panel lists it"
    );

    // Fixing the file (with a change) clears the error and shows the change.
    let fixed = good.replacen(
        "(number: 1, terrain: \"Plains\"",
        "(number: 1, terrain: \"Swamp\"",
        1,
    );
    std::fs::write(&board_path, fixed).unwrap();
    wait_for(&mut h, |app| {
        let p = app.project.as_ref().unwrap();
        p.land(1).unwrap().terrain == "Swamp" && p.problems().is_empty()
    });
    assert!(!h.state().is_dirty(), "a change on disk is no unsaved edit");
}

#[test]
fn an_external_edit_of_edited_data_asks_which_side_wins() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let board_path = dir.join("masterboard.ron");
    let good = std::fs::read_to_string(&board_path).unwrap();
    let mut h = harness(&dir, true);
    let mut one = land(&h, 1);
    one.terrain = "Desert".into();
    h.state_mut().project.as_mut().unwrap().set_land(one);

    let theirs = good.replacen(
        "(number: 2, terrain: \"Woods\"",
        "(number: 2, terrain: \"Brush\"",
        1,
    );
    std::fs::write(&board_path, theirs).unwrap();
    wait_for(&mut h, |app| {
        !app.project.as_ref().unwrap().conflicts().is_empty()
    });
    h.run_steps(2);
    // Nothing is lost while the question is open.
    assert_eq!(land(&h, 1).terrain, "Desert");
    h.get_by_label("Take the file on disk").click();
    h.run_steps(2);
    assert_eq!(land(&h, 1).terrain, "Plains");
    assert_eq!(land(&h, 2).terrain, "Brush");
    assert!(!h.state().is_dirty());
    // And taking theirs can be undone, back to my edit.
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(land(&h, 1).terrain, "Desert");
}

#[test]
fn keeping_my_edits_in_a_conflict_saves_them_over_the_disk() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let board_path = dir.join("masterboard.ron");
    let good = std::fs::read_to_string(&board_path).unwrap();
    let mut h = harness(&dir, true);
    let mut one = land(&h, 1);
    one.terrain = "Desert".into();
    h.state_mut().project.as_mut().unwrap().set_land(one);
    std::fs::write(&board_path, good.replacen("\"Woods\"", "\"Brush\"", 1)).unwrap();
    wait_for(&mut h, |app| {
        !app.project.as_ref().unwrap().conflicts().is_empty()
    });
    h.run_steps(2);
    h.get_by_label("Keep my edits").click();
    h.run_steps(2);
    assert_eq!(land(&h, 1).terrain, "Desert");
    assert!(h.state().is_dirty());
    h.state_mut().save();
    let saved = std::fs::read_to_string(&board_path).unwrap();
    assert!(saved.contains("(number: 1, terrain: \"Desert\""));
}

#[test]
fn closing_with_unsaved_edits_asks_first() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    let mut one = land(&h, 1);
    one.terrain = "Desert".into();
    h.state_mut().project.as_mut().unwrap().set_land(one);
    h.state_mut().request(Pending::Close);
    h.run_steps(2);
    assert!(!h.state().may_close);
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!h.state().may_close);
    assert_eq!(land(&h, 1).terrain, "Desert", "cancel keeps the edit");

    // Switching variant asks too; "Save" saves, then switches.
    let shorter = dir.parent().unwrap().join("titan-shorter");
    h.state_mut().request(Pending::Switch(shorter.clone()));
    h.run_steps(2);
    h.get_by_label("Save first").click();
    h.run_steps(2);
    assert_eq!(h.state().project.as_ref().unwrap().dir(), shorter);
    let saved = std::fs::read_to_string(dir.join("masterboard.ron")).unwrap();
    assert!(saved.contains("(number: 1, terrain: \"Desert\""));
}

#[test]
fn clicking_a_problem_selects_the_land_it_is_about() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    let mut five = land(&h, 5);
    five.exits.push(titan_core::format::ExitDef {
        to: 4242,
        sign: Sign::Arch,
    });
    h.state_mut().project.as_mut().unwrap().set_land(five);
    h.run_steps(2);
    h.get_by_label_contains("4242").click();
    h.run_steps(2);
    assert_eq!(h.state().tab, Tab::Masterboard);
    assert_eq!(h.state().selected_land, Some(5));
}

#[test]
fn an_edit_of_an_inherited_land_is_saved_in_the_extending_variant() {
    let tmp = workspace();
    let base = tmp.path().join("variants/titan");
    let dir = tmp.path().join("variants/titan-shorter");
    let base_board = std::fs::read(base.join("masterboard.ron")).unwrap();
    let mut h = harness(&dir, false);
    let pos = h.state().land_screen_pos(7).unwrap();
    click_at(&mut h, pos);
    assert!(h.state().project.as_ref().unwrap().land_is_inherited(7));
    h.get_by_label("Swamp").click();
    h.run_steps(2);
    h.get_by_label("Save").click();
    h.run_steps(2);

    assert_eq!(
        std::fs::read(base.join("masterboard.ron")).unwrap(),
        base_board,
        "the base is never written"
    );
    let own = std::fs::read_to_string(dir.join("masterboard.ron")).unwrap();
    assert_eq!(own.matches("(number:").count(), 1, "{own}");
    let manifest = std::fs::read_to_string(dir.join("variant.ron")).unwrap();
    assert!(
        manifest.contains("masterboard: \"masterboard.ron\""),
        "{manifest}"
    );
    assert!(manifest.starts_with("// Titan, for a shorter game"));
    let merged = titan_core::load(&dir, &Default::default()).unwrap();
    let seven = merged.data.masterboard.lands.iter().find(|l| l.number == 7);
    assert_eq!(seven.unwrap().terrain, "Swamp");
}

#[test]
fn characters_and_mustering_are_edited_in_grids() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    h.get_by_label("Characters").click();
    h.run_steps(2);
    assert!(h.query_by_label("Ogre").is_some());
    h.get_by_label("Mustering").click();
    h.run_steps(2);
    h.get_by_label("Brush").click();
    h.run_steps(2);
    let rows = |h: &Harness<'_, EditorApp>| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .muster_table("Brush")
            .unwrap()
            .rows
            .len()
    };
    let n = rows(&h);
    h.get_by_label("Add row").click();
    h.run_steps(2);
    assert_eq!(rows(&h), n + 1);
    h.get_all_by_label("remove").last().unwrap().click();
    h.run_steps(2);
    assert_eq!(rows(&h), n);
    assert!(!h.state().is_dirty());
}

#[test]
fn add_and_delete_a_land() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    h.get_by_label("Add land").click();
    h.run_steps(2);
    // An empty cell left of the board.
    let project = h.state().project.as_ref().unwrap();
    let min_x = project
        .data()
        .masterboard
        .lands
        .iter()
        .map(|l| l.position.x)
        .min()
        .unwrap();
    let y = project.land(1).unwrap().position.y;
    let cell = titan_core::format::GridPos { x: min_x - 1, y };
    assert!(project.land_at(cell).is_none());
    let [a, b, c] = titan_editor::app::triangle(cell);
    let centre = Pos2::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
    // Board units to screen: through a land whose screen position we know.
    let one = project.land(1).unwrap().position;
    let [p, q, r] = titan_editor::app::triangle(one);
    let one_centre = Pos2::new((p.x + q.x + r.x) / 3.0, (p.y + q.y + r.y) / 3.0);
    let one_screen = h.state().land_screen_pos(1).unwrap();
    let other = h.state().land_screen_pos(2).unwrap();
    let two = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .land(2)
        .unwrap()
        .position;
    let [p2, q2, r2] = titan_editor::app::triangle(two);
    let two_centre = Pos2::new((p2.x + q2.x + r2.x) / 3.0, (p2.y + q2.y + r2.y) / 3.0);
    let zoom = (other - one_screen).length() / (two_centre - one_centre).length();
    let screen = one_screen + (centre - one_centre) * zoom;
    click_at(&mut h, screen);
    let new = h.state().selected_land.expect("the new land is selected");
    assert_eq!(
        h.state()
            .project
            .as_ref()
            .unwrap()
            .land(new)
            .unwrap()
            .position,
        cell
    );
    h.get_by_label("Delete land").click();
    h.run_steps(2);
    assert!(h.state().project.as_ref().unwrap().land(new).is_none());
}

#[test]
fn a_selected_land_shows_where_a_legion_could_move() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    let pos = h.state().land_screen_pos(1).unwrap();
    click_at(&mut h, pos);
    h.get_by_label("roll 1").click();
    h.run_steps(2);
    // Reference sheet, "Movement Signs": off a land without a block, a
    // legion may take any arch or triple arrow; land 1 has a triple arrow
    // to 2 and an arch to the tower 1000.
    assert_eq!(h.state().move_targets(), vec![2, 1000]);
    assert!(h.query_by_label("2 lands: 2 1000").is_some());
    h.get_by_label("roll 3").click();
    h.run_steps(2);
    let three = h.state().move_targets();
    assert!(!three.is_empty() && !three.contains(&1), "{three:?}");
    // A block added on land 1 must then be followed (same sheet).
    let one = land(&h, 1);
    let project = h.state().project.as_ref().unwrap();
    let to = titan_editor::app::neighbours(one.position)
        .into_iter()
        .filter_map(|p| project.land_at(p))
        .map(|l| l.number)
        .find(|n| !one.exits.iter().any(|e| e.to == *n))
        .unwrap();
    h.state_mut()
        .project
        .as_mut()
        .unwrap()
        .set_sign(1, to, Some(Sign::Block));
    h.get_by_label("roll 1").click();
    h.run_steps(2);
    // The variant no longer validates (an unanswered block), so no moves.
    assert_eq!(h.state().move_targets(), Vec::<u32>::new());
}

#[test]
fn line_of_sight_between_two_hexes_follows_the_edits() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    h.state_mut().tab = Tab::Battlelands;
    h.state_mut().battleland = Some("Desert".into());
    h.run_steps(2);
    h.get_by_label("line of sight").click();
    h.run_steps(2);
    let d5 = h.state().hex_screen_pos("D5").unwrap();
    let d3 = h.state().hex_screen_pos("D3").unwrap();
    click_at(&mut h, d5);
    click_at(&mut h, d3);
    // Hazard chart (Cliff); reference sheet, "Rangestriking": from D5,
    // neither end is atop the cliff between D4 and D3, so it blocks (the
    // battle engine's scenario tests/battle/sight-desert-cliff-blocked.ron).
    let lines = h.state().sight_lines().unwrap();
    assert_eq!(lines[0].hexes, ["D5", "D4", "D3"]);
    let why = lines[0].blocked.clone().unwrap();
    assert!(why.contains("Cliff between D4 and D3"), "{why}");
    assert!(
        h.query_by_label_contains("Cliff between D4 and D3")
            .is_some(),
        "the panel says why"
    );
    // Clear that hexside: the line is clear at once.
    h.get_by_label("clear side").click();
    h.run_steps(2);
    let side = h.state().hexside_screen_pos("D4", Side::S).unwrap();
    click_at(&mut h, side);
    h.state_mut().sight = Some(("D5".into(), Some("D3".into())));
    h.run_steps(2);
    let lines = h.state().sight_lines().unwrap();
    assert_eq!(lines[0].blocked, None, "{lines:?}");
}

#[test]
fn the_board_zooms_about_the_pointer_and_pans() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/titan");
    let mut h = harness(&dir, false);
    let (a, b) = (
        h.state().land_screen_pos(1).unwrap(),
        h.state().land_screen_pos(2).unwrap(),
    );
    h.hover_at(a);
    h.step();
    h.event(egui::Event::Zoom(2.0));
    h.run_steps(2);
    let (a2, b2) = (
        h.state().land_screen_pos(1).unwrap(),
        h.state().land_screen_pos(2).unwrap(),
    );
    assert!(((b2 - a2).length() / (b - a).length() - 2.0).abs() < 0.05);
    assert!((a2 - a).length() < 1.0, "the point under the pointer stays");
    // A right-drag pans.
    h.event(egui::Event::PointerButton {
        pos: a2,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    for i in 1..=5 {
        h.hover_at(a2 + Vec2::new(20.0 * i as f32, 0.0));
        h.step();
    }
    h.event(egui::Event::PointerButton {
        pos: a2 + Vec2::new(100.0, 0.0),
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(2);
    let a3 = h.state().land_screen_pos(1).unwrap();
    assert!((a3.x - a2.x) > 50.0, "{a2:?} -> {a3:?}");
}

/// A battleland on a board of its own (docs/variant-format.md, "Boards") is
/// drawn from its hexes' coordinates: five hexes where the file puts them,
/// neighbours a hex apart, and a click on one edits that hex.
#[test]
fn a_board_of_its_own_is_drawn_from_its_coordinates() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/boards");
    common::copy_tree(&common::repo().join("tests/fixtures/boards"), &dir);
    let mut h = harness(&dir, false);
    h.state_mut().tab = Tab::Battlelands;
    h.state_mut().battleland = Some("Plains".into());
    h.run_steps(2);
    let at = |h: &Harness<'_, EditorApp>, l: &str| h.state().hex_screen_pos(l).unwrap();
    // Titan's labels are not this board's.
    assert!(h.state().hex_screen_pos("D3").is_none());
    let (w1, w2, w3, n1) = (at(&h, "W1"), at(&h, "W2"), at(&h, "W3"), at(&h, "N1"));
    let step = w1.distance(w2);
    assert!(step > 10.0, "{step}");
    assert!((w2.distance(w3) - step).abs() < 0.5);
    assert!((w1.distance(n1) - step).abs() < 0.5);
    assert!(n1.y < w1.y, "N1 is drawn above W1");
    h.get_by_label("hex: Bramble").click();
    h.run_steps(2);
    let n2 = at(&h, "N2");
    click_at(&mut h, n2);
    assert_eq!(h.state().selected_hex.as_deref(), Some("N2"));
    let hex = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .battleland("Plains")
        .unwrap()
        .hexes["N2"]
        .clone();
    assert_eq!(hex.hazard, "Bramble");
}

/// A board is reshaped on the battlelands page: a hex added where there was
/// none, put in a zone, another removed (with its edges and zones), saved
/// and loaded; a battleland on the 27-hex board gets a board of its own.
#[test]
fn a_board_is_reshaped_hexes_added_and_removed_and_zones_named() {
    let tmp = workspace();
    let dir = tmp.path().join("variants/boards");
    common::copy_tree(&common::repo().join("tests/fixtures/boards"), &dir);
    let mut h = harness(&dir, false);
    h.state_mut().tab = Tab::Battlelands;
    h.state_mut().battleland = Some("Plains".into());
    h.run_steps(2);
    let at = |h: &Harness<'_, EditorApp>, l: &str| h.state().hex_screen_pos(l).unwrap();
    // Above W2 (the step W3 makes to N2), between N1 and N2: no hex there.
    let (w2, w3, n2) = (at(&h, "W2"), at(&h, "W3"), at(&h, "N2"));
    h.get_by_label("add hex").click();
    h.run_steps(2);
    click_at(&mut h, w2 + (n2 - w3));
    let board = |h: &Harness<'_, EditorApp>| {
        h.state()
            .project
            .as_ref()
            .unwrap()
            .battleland("Plains")
            .unwrap()
            .clone()
    };
    assert_eq!(
        board(&h).board.as_ref().unwrap().hexes.get("H1"),
        Some(&(1, -2))
    );
    assert!(board(&h).hexes.contains_key("H1"));
    // The new hex is selected: put it in the attacker's zone.
    assert_eq!(h.state().selected_hex.as_deref(), Some("H1"));
    h.get_by_label("zone attacker").click();
    h.run_steps(2);
    assert!(board(&h).board.unwrap().zones["attacker"].contains(&"H1".to_string()));
    // W1 removed: from the hexes, its edge and its zone.
    h.get_by_label("remove hex").click();
    h.run_steps(2);
    let w1 = at(&h, "W1");
    click_at(&mut h, w1);
    let b = board(&h);
    let shape = b.board.as_ref().unwrap();
    assert!(!b.hexes.contains_key("W1") && !shape.hexes.contains_key("W1"));
    assert!(shape.edges.values().all(|l| !l.contains(&"W1".to_string())));
    assert!(!shape.zones["attacker"].contains(&"W1".to_string()));
    h.get_by_label("Save").click();
    h.run_steps(2);
    let v = titan_core::load(&dir, &Default::default()).unwrap();
    let plains = &v.battleland(v.terrain_by_name("Plains").unwrap()).board;
    assert_eq!(plains.len(), 5);
    let h1 = plains.hex("H1").unwrap();
    assert_ne!(
        plains.zone("attacker").unwrap() & titan_core::battleland::hexset::bit(h1),
        0
    );

    // The Mountains stand on the 27-hex board until given one of their own.
    h.state_mut().battleland = Some("Mountains".into());
    h.run_steps(2);
    assert!(h.query_by_label("add hex").is_none());
    h.get_by_label("Give this battleland a board of its own")
        .click();
    h.run_steps(2);
    let own = h
        .state()
        .project
        .as_ref()
        .unwrap()
        .battleland("Mountains")
        .unwrap()
        .board
        .clone()
        .unwrap();
    assert_eq!(own.hexes.len(), 27);
    let standard = titan_core::battleland::Board::standard();
    let d4 = standard.coord(standard.hex("D4").unwrap());
    assert_eq!(own.hexes["D4"], (d4.x, d4.y));
    assert!(h.query_by_label("add hex").is_some());
}
