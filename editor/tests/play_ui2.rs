//! Headless tests of the game window, continued (`play_ui.rs` holds the
//! first): the board's terrains, selecting among legions sharing a land,
//! the start screen, phases that pass by themselves, the computer taking a
//! seat over, and buttons that keep their place. egui_kittest drives the
//! real app by its labels and by clicks where the app drew lands.

mod common;

use common::play::{click, game, harness, take_screen};

use common::repo;
use std::path::Path;

use egui::{Pos2, Shape, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};
use titan_editor::PlayApp;
use titan_editor::play::Seat;
use titan_editor::session::LocalSession;

/// A primary click at a screen position.
fn click_at(h: &mut Harness<'_, PlayApp>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
}

fn seats(names: &[(&str, bool)]) -> Vec<Seat> {
    names
        .iter()
        .map(|(n, c)| Seat {
            computer: *c,
            ..Seat::person(n)
        })
        .collect()
}

/// The app on a scenario position of `tests/scenarios`.
fn on_position(data: &Path, file: &str, who: &[(&str, bool)]) -> Harness<'static, PlayApp> {
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let pos = Position::read(&repo().join("tests/scenarios").join(file)).unwrap();
    let game = pos.to_game(variant).unwrap();
    let mut h = harness(data);
    h.state_mut().open_game(
        Box::new(LocalSession::new(game, Vec::new())),
        seats(who),
        &dir,
    );
    h.run_steps(3);
    h
}

/// The app on a game of `variant` set up by `setup` (the session's
/// actions), every seat a person.
fn on_game(
    data: &Path,
    variant: &str,
    game: titan_core::game::Game,
    events: Vec<titan_core::game::Event>,
    setup: impl FnOnce(&mut LocalSession),
) -> Harness<'static, PlayApp> {
    use titan_editor::session::GameSession;
    let dir = repo().join("variants").join(variant);
    let mut session = LocalSession::new(game, events);
    setup(&mut session);
    let names: Vec<String> = session
        .view(titan_editor::session::SPECTATOR)
        .players
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let mut h = harness(data);
    h.state_mut().open_game(
        Box::new(session),
        names.iter().map(|n| Seat::person(n)).collect(),
        &dir,
    );
    h.run_steps(3);
    h
}

/// A position of Titan given as text.
fn position(data: &Path, text: &str) -> titan_core::game::Game {
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let file = data.join("position.ron");
    std::fs::write(&file, text).unwrap();
    Position::read(&file).unwrap().to_game(variant).unwrap()
}

/// Every text the last frame painted (the board's words are painted, not
/// widgets).
fn painted_texts(h: &Harness<'_, PlayApp>) -> Vec<String> {
    fn walk(shape: &Shape, out: &mut Vec<String>) {
        match shape {
            Shape::Text(t) => out.push(t.galley.text().to_string()),
            Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}

/// Hovers `pos` long enough for a tooltip to show.
fn hover(h: &mut Harness<'_, PlayApp>, pos: Pos2) {
    h.hover_at(pos);
    h.run_steps(40);
}

/// The text of the label shown that contains `part` (a tooltip's).
fn tooltip(h: &Harness<'_, PlayApp>, part: &str) -> Option<String> {
    h.query_all_by_label_contains(part)
        .filter_map(|n| n.accesskit_node().label())
        .max_by_key(String::len)
}

#[test]
fn the_board_names_each_lands_terrain_and_hovering_a_land_says_what_it_is() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(data.path(), "muster.ron", &[("Red", false), ("Blue", true)]);
    h.state_mut().game_mut().unwrap().paused = true;
    h.run_steps(2);
    // Each terrain's name is written on its lands, and the legend lists them.
    let painted = painted_texts(&h);
    for t in ["Marsh", "Plains", "Tower", "Brush"] {
        assert!(
            painted.iter().any(|p| p == t),
            "{t} not written on the board"
        );
        assert!(h.query_by_label(t).is_some(), "{t} missing from the legend");
    }
    assert!(h.query_by_label("Terrains:").is_some());
    // Hovering a land without a selection: its number, terrain, battleland.
    let v = game(&h).session.variant().clone();
    let at = game(&h).land_screen_pos(8).unwrap();
    hover(&mut h, at);
    let tip = tooltip(&h, "Land 8: Marsh").expect("a tooltip naming the land's terrain");
    assert!(tip.contains("Battleland: Marsh"), "{tip}");
    assert!(!tip.contains("could muster"), "{tip}");
    // With P1-03 (three Ogres) selected: what it could muster there. In a
    // Marsh, Ogres muster an Ogre and (two of them) a Troll, not a Ranger
    // (two Trolls).
    let p103 = "P1-03".parse().unwrap();
    let pos = game(&h).marker_screen_pos(p103).unwrap();
    click_at(&mut h, pos);
    assert_eq!(game(&h).selected, Some(p103));
    hover(&mut h, at);
    let tip = tooltip(&h, "Land 8: Marsh").expect("a tooltip naming the land's terrain");
    assert!(
        tip.contains("P1-03 could muster here: Ogre, Troll"),
        "{tip}"
    );
    assert!(!tip.contains("Ranger"), "{tip}");
    // In a Desert, Ogres muster nothing.
    let desert = v
        .board
        .lands()
        .map(|id| v.board.land(id))
        .find(|l| v.terrains[l.terrain.index()].name == "Desert")
        .unwrap()
        .number;
    let at = game(&h).land_screen_pos(desert).unwrap();
    hover(&mut h, at);
    let tip = tooltip(&h, &format!("Land {desert}: Desert")).expect("a tooltip");
    assert!(tip.contains("P1-03 could muster here: nothing"), "{tip}");
}

#[test]
fn the_move_buttons_name_the_terrain() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "move-from-land-1.ron",
        &[("Red", false), ("Blue", true)],
    );
    h.state_mut().game_mut().unwrap().paused = true;
    h.run_steps(2);
    if h.query_by_label("Roll the die").is_some() {
        click(&mut h, "Roll the die");
    }
    let view = game(&h).view();
    let mine = view
        .legions
        .iter()
        .find(|l| l.owner == PlayerId(0))
        .unwrap()
        .marker;
    let pos = game(&h).marker_screen_pos(mine).unwrap();
    click_at(&mut h, pos);
    let actions = game(&h).my_actions();
    let v = game(&h).session.variant().clone();
    let to = actions
        .iter()
        .find_map(|a| match a {
            Action::Move { legion, to, .. } if *legion == mine => Some(*to),
            _ => None,
        })
        .expect("a move");
    let land = v.board.land(to);
    let name = &v.terrains[land.terrain.index()].name;
    let label = format!("to land {} ({name})", land.number);
    assert!(
        h.query_all_by_label_contains(&label).next().is_some(),
        "no button says {label}"
    );
}

#[test]
fn the_first_click_on_a_marker_selects_that_markers_legion() {
    // Red's P1-01 and Blue's P2-01 share land 5 (an engagement).
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "engagement.ron",
        &[("Red", false), ("Blue", true), ("Green", true)],
    );
    h.state_mut().game_mut().unwrap().paused = true;
    h.run_steps(2);
    for m in ["P2-01", "P1-01", "P2-01"] {
        let m = m.parse().unwrap();
        // Nothing selected first, so each click is a first one.
        h.state_mut().game_mut().unwrap().selected = None;
        let pos = game(&h).marker_screen_pos(m).unwrap();
        click_at(&mut h, pos);
        assert_eq!(game(&h).selected, Some(m), "a click on {m}");
    }
    // A second click on the selected marker lets it go.
    let m = "P2-01".parse().unwrap();
    let pos = game(&h).marker_screen_pos(m).unwrap();
    click_at(&mut h, pos);
    assert_eq!(game(&h).selected, None);
}

#[test]
fn the_start_screen_says_options_and_seats_in_words() {
    let data = tempfile::tempdir().unwrap();
    let h = harness(data.path());
    // Titan's options by their names in words, not as written in the file.
    assert!(h.query_by_label("Point limit").is_some());
    assert!(h.query_by_label("Mulligan").is_some());
    assert!(h.query_by_label_contains("point_limit").is_none());
    // Their descriptions wrap inside the form's column (half the window).
    let d = h
        .query_all_by_label_contains("End the game at the end of the turn")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Label)
        .expect("the point limit's description");
    assert!(d.rect().right() < 760.0, "{:?}", d.rect());
    // Who plays each seat, in words.
    let seat = |n: usize| {
        let label = format!("Player {n}:");
        let c = h.get_by_role_and_label(egui::accesskit::Role::ComboBox, &label);
        c.value().unwrap_or_default()
    };
    assert_eq!(seat(1), "person");
    assert_eq!(seat(2), "computer (strong)");
}

#[test]
fn the_ui_scale_is_set_on_the_start_screen_or_by_keys_and_remembered() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    click(&mut h, "Larger");
    h.run_steps(2);
    assert!((h.ctx.zoom_factor() - 1.1).abs() < 1e-3);
    assert!(h.query_by_label("UI scale 110%").is_some());
    // Ctrl + twice, Ctrl - once, anywhere: 1.2.
    for key in [egui::Key::Plus, egui::Key::Plus, egui::Key::Minus] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, key);
        h.run_steps(2);
    }
    assert!((h.ctx.zoom_factor() - 1.2).abs() < 1e-3);
    drop(h);
    // The next run starts at that scale.
    let h = harness(data.path());
    assert!(
        (h.ctx.zoom_factor() - 1.2).abs() < 1e-3,
        "{}",
        h.ctx.zoom_factor()
    );
    assert!(h.query_by_label("UI scale 120%").is_some());
}

#[test]
fn a_phase_with_nothing_to_do_ends_by_itself_without_a_pass_screen() {
    // Red ends his turn; Blue's one legion (two characters) cannot split:
    // his split phase ends by itself, and the screen is passed to him for
    // his movement phase only.
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "muster.ron",
        &[("Red", false), ("Blue", false)],
    );
    click(&mut h, "End turn");
    let blue = PlayerId(1);
    let v = game(&h).session.view(titan_editor::session::SPECTATOR);
    assert_eq!(v.active, blue);
    assert_eq!(
        v.phase,
        titan_core::game::Phase::Move,
        "the split phase waits"
    );
    assert_eq!(game(&h).pass_to, Some(blue));
    click(&mut h, "I am Blue: show my game");
    assert!(h.query_by_label("Roll the die").is_some());
    // The log says the phase ended.
    assert!(
        h.query_by_label_contains("Blue has nothing to do in the split phase")
            .is_some()
    );
}

#[test]
fn a_pass_screen_for_someone_with_nothing_left_to_do_goes() {
    // Red in front of the screen and to act; a pass screen for Blue, who
    // is not to act, is not shown.
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "muster.ron",
        &[("Red", false), ("Blue", false)],
    );
    h.state_mut().game_mut().unwrap().pass_to = Some(PlayerId(1));
    h.state_mut().game_mut().unwrap().update_viewer();
    h.run_steps(2);
    assert_eq!(game(&h).pass_to, None);
    assert!(h.query_by_label("End turn").is_some());
}

/// A new game of Titan from the start screen, Red a person and Blue as
/// given, the screen taken, the computer at its quickest but one (the
/// pace slider's step: one action a frame here).
fn new_game(data: &Path, blue_person: bool) -> Harness<'static, PlayApp> {
    let mut h = harness(data);
    if blue_person {
        seat_kind(&mut h, 2, "person");
    }
    h.state_mut().form.seed = "3".into();
    click(&mut h, "Start game");
    if let Some(p) = game(&h).pass_to {
        let name = game(&h).seats[usize::from(p.0)].name.clone();
        click(&mut h, &format!("I am {name}: show my game"));
    }
    h.state_mut().game_mut().unwrap().pace = 0.05;
    h
}

/// Picks who plays seat `n` on the start screen from its list.
fn seat_kind(h: &mut Harness<'_, PlayApp>, n: usize, kind: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, &format!("Player {n}:"))
        .click();
    h.run_steps(2);
    click(h, &format!("Player {n}: {kind}"));
}

#[test]
fn the_computer_plays_a_persons_seat_and_hands_it_back() {
    // Red (a person) divides his characters, against Blue (the computer).
    let data = tempfile::tempdir().unwrap();
    let mut h = new_game(data.path(), false);
    let red = PlayerId(0);
    assert!(h.query_by_label("Divide").is_some());
    // A level from the computer seats' own.
    h.get_by_label("computer level").click();
    h.run_steps(2);
    click(&mut h, "play at simple");
    click(&mut h, "Let the computer play for me");
    assert!(game(&h).seats[0].computer);
    assert_eq!(game(&h).seats[0].level, "simple");
    // The game goes on past Red's phases with no click.
    for _ in 0..300 {
        if game(&h).view().turn > 2 {
            break;
        }
        h.run_steps(1);
    }
    assert!(game(&h).view().turn > 2, "the game stood still");
    // Red still sees his own seat, and takes it back.
    assert_eq!(game(&h).viewer, red);
    click(&mut h, "Take my seat back");
    assert!(!game(&h).seats[0].computer);
    for _ in 0..300 {
        if game(&h).session.to_act().contains(&red) {
            break;
        }
        h.run_steps(1);
    }
    assert!(game(&h).session.to_act().contains(&red));
    // His phase waits for him again.
    let n = game(&h).session.history_len();
    h.run_steps(10);
    assert_eq!(game(&h).session.history_len(), n);
}

#[test]
fn the_computer_finishes_a_hot_seat_game() {
    let data = tempfile::tempdir().unwrap();
    let mut h = new_game(data.path(), true);
    let n = game(&h).session.history_len();
    click(&mut h, "Let the computer finish the game");
    assert!(game(&h).seats.iter().all(|s| s.computer));
    h.run_steps(30);
    assert!(
        game(&h).session.history_len() > n + 10,
        "the game stood still"
    );
    assert_eq!(game(&h).pass_to, None, "a pass screen between computers");
    // Either seat may be taken back.
    assert!(h.query_by_label("Take Red's seat back").is_some());
    assert!(h.query_by_label("Take Blue's seat back").is_some());
}

#[test]
fn the_log_shows_a_dozen_lines_and_is_resized_by_its_edge() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(data.path(), "muster.ron", &[("Red", false), ("Blue", true)]);
    h.state_mut().game_mut().unwrap().paused = true;
    h.run_steps(2);
    let heading = |h: &Harness<'_, PlayApp>| h.get_by_label("Log").rect();
    let top = heading(&h).top();
    // Room below the heading for more than seven lines (it had about 7).
    let line = 21.0;
    assert!(1000.0 - heading(&h).bottom() > 9.0 * line, "{top}");
    // Dragging the panel's top edge up makes it taller.
    // The panel's edge: its frame's margin above the heading.
    let edge = Pos2::new(300.0, top - 2.0);
    h.hover_at(edge);
    h.step();
    h.drag_at(edge);
    h.step();
    for k in 1..=5 {
        h.hover_at(edge - Vec2::new(0.0, 20.0 * k as f32));
        h.step();
    }
    h.drop_at(edge - Vec2::new(0.0, 100.0));
    h.run_steps(3);
    assert!(
        heading(&h).top() < top - 50.0,
        "{} {top}",
        heading(&h).top()
    );
}

#[test]
fn the_final_scores_are_centred() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "muster.ron",
        &[("Red", false), ("Blue", false)],
    );
    // Blue leaves the game: Red wins.
    let g = h.state_mut().game_mut().unwrap();
    g.session.apply(PlayerId(1), &Action::ConcedeGame).unwrap();
    h.run_steps(4);
    assert!(h.query_by_label("Game over").is_some());
    let (left, right) = (
        h.get_by_label("Red").rect().left(),
        h.get_by_label("eliminated").rect().right(),
    );
    let middle = (left + right) / 2.0;
    assert!((middle - 750.0).abs() < 20.0, "{left} {right}");
}

#[test]
fn gods_of_titan_moves_without_dice() {
    // Gods of Titan (8.4): no roll and no distance to choose: each legion
    // moves its own distance, 1 to 6 lands; the panel shows no die and the
    // log no roll.
    use titan_editor::session::GameSession;
    let data = tempfile::tempdir().unwrap();
    let dir = repo().join("variants/gods-of-titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let names = ["Red".to_string(), "Blue".to_string(), "Green".to_string()];
    let (start, events) =
        titan_core::game::Game::new(variant, Default::default(), &names, 7).unwrap();
    let mut h = on_game(data.path(), "gods-of-titan", start, events, |s| {
        for _ in 0..20 {
            let p = s.to_act()[0];
            let legal = s.legal_actions(p);
            if legal.iter().any(|a| matches!(a, Action::Move { .. })) {
                assert!(!legal.iter().any(|a| matches!(a, Action::Roll { .. })));
                return;
            }
            let a = legal
                .iter()
                .find(|a| matches!(a, Action::InitialSplit { .. } | Action::DoneSplitting))
                .expect("a way to the movement phase")
                .clone();
            s.apply(p, &a).unwrap();
        }
        panic!("no movement phase");
    });
    if let Some(p) = game(&h).pass_to {
        let name = game(&h).seats[usize::from(p.0)].name.clone();
        click(&mut h, &format!("I am {name}: show my game"));
    }
    assert!(h.query_by_label_contains("rolls a").is_none());
    assert!(h.query_by_label("Movement roll").is_none());
    assert!(h.query_by_label("Roll the die").is_none());
    assert!(h.query_by_label("Move 3").is_none());
}

#[test]
fn the_panel_says_why_done_moving_is_not_offered() {
    use titan_editor::session::GameSession;
    let data = tempfile::tempdir().unwrap();
    let start = position(
        data.path(),
        r#"(
    seed: 4,
    players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
    legions: [
        (marker: "P1-01", land: 100, characters: ["Titan", "Angel", "Ogre", "Ogre", "Centaur", "Centaur", "Gargoyle"]),
        (marker: "P2-01", land: 400, characters: ["Titan", "Angel", "Lion", "Lion"]),
    ],
    active: 0,
    phase: Split,
    turn: 2,
)"#,
    );
    let red = PlayerId(0);
    let h = on_game(data.path(), "titan", start, Vec::new(), |s| {
        let split = s
            .legal_actions(red)
            .into_iter()
            .find(|a| matches!(a, Action::Split { .. }))
            .expect("a split");
        s.apply(red, &split).unwrap();
        s.apply(red, &Action::DoneSplitting).unwrap();
        s.apply(red, &Action::Roll { distance: None }).unwrap();
    });
    assert_eq!(game(&h).viewer, red);
    assert!(!game(&h).my_actions().contains(&Action::DoneMoving));
    assert!(
        h.query_by_label_contains("\"Done moving\" comes once legions that split move apart")
            .is_some()
    );
}

#[test]
fn the_phase_end_and_conceding_keep_their_places() {
    // Red's movement phase, three legions, a 2 rolled.
    let data = tempfile::tempdir().unwrap();
    let start = position(
        data.path(),
        r#"(
    seed: 11,
    players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
    legions: [
        (marker: "P1-01", land: 1, characters: ["Titan", "Ogre", "Ogre", "Troll"]),
        (marker: "P1-02", land: 100, characters: ["Angel", "Centaur", "Centaur", "Gargoyle"]),
        (marker: "P1-03", land: 10, characters: ["Ogre", "Ogre", "Troll"]),
        (marker: "P2-01", land: 400, characters: ["Titan", "Lion", "Lion"]),
    ],
    active: 0,
    phase: Move,
    roll: 2,
    turn: 3,
)"#,
    );
    let mut h = on_game(data.path(), "titan", start, Vec::new(), |_| {});
    let move_first = |h: &mut Harness<'static, PlayApp>, marker: &str| {
        let m = marker.parse().unwrap();
        let pos = game(h).marker_screen_pos(m).unwrap();
        click_at(h, pos);
        assert_eq!(game(h).selected, Some(m));
        let prefix = format!("Move {marker} to ");
        h.get_all_by_label_contains(&prefix).next().unwrap().click();
        h.run_steps(2);
    };
    move_first(&mut h, "P1-02");
    // P1-01 selected: its moves make the panel long.
    let m = "P1-01".parse().unwrap();
    let pos = game(&h).marker_screen_pos(m).unwrap();
    click_at(&mut h, pos);
    let done = h.get_by_label("Done moving").rect();
    let concede = h.get_by_label("Concede the game").rect();
    assert!(concede.left() > done.right() + 40.0, "{done:?} {concede:?}");
    // It moves: the panel is shorter, the buttons stay.
    h.get_all_by_label_contains("Move P1-01 to ")
        .next()
        .unwrap()
        .click();
    h.run_steps(3);
    assert!(
        h.query_all_by_label_contains("Move P1-01 to ")
            .next()
            .is_none()
    );
    assert_eq!(h.get_by_label("Done moving").rect(), done);
    assert_eq!(h.get_by_label("Concede the game").rect(), concede);
}

#[test]
fn strikes_with_nothing_in_contact_end_by_themselves() {
    // Red attacks Blue in land 5; Blue, the defender, enters first: with
    // all his characters on, his maneuver ends; nothing is in contact, so
    // his strikes and Red's strike back end by themselves too, and the
    // screen goes to Red for his maneuver.
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "engagement.ron",
        &[("Red", false), ("Blue", false), ("Green", true)],
    );
    click(&mut h, "Resolve the engagement in land 5");
    take_screen(&mut h);
    click(&mut h, "Stand and fight");
    take_screen(&mut h);
    click(&mut h, "Fight");
    take_screen(&mut h);
    let blue = PlayerId(1);
    assert_eq!(game(&h).viewer, blue);
    // The concessions (of the battle and of the game) are apart from the
    // phase's end.
    let end = h.get_by_label("End maneuver").rect();
    for c in ["Concede the battle", "Concede the game"] {
        assert!(!h.get_by_label(c).rect().intersects(end), "{c} over it");
    }
    // Blue brings each of his characters on; with nothing left to do, his
    // maneuver ends by itself.
    loop {
        let moves = game(&h).battle_actions();
        let Some(m) = moves
            .iter()
            .find(|a| matches!(a, titan_core::battle::Action::Move { .. }))
            .cloned()
        else {
            break;
        };
        let before = game(&h).session.history_len();
        h.state_mut()
            .game_mut()
            .unwrap()
            .act(&Action::Battle { battle: m });
        h.run_steps(2);
        assert!(
            game(&h).session.history_len() > before,
            "{}",
            game(&h).status
        );
    }
    take_screen(&mut h);
    let red = PlayerId(0);
    assert_eq!(game(&h).viewer, red);
    let b = game(&h).session.battle(red).expect("the battle");
    assert_eq!(b.view.phase, titan_core::battle::Phase::Maneuver);
    assert_eq!(b.view.moving, titan_core::battle::BattleSide::Attacker);
    for line in [
        "Blue has nothing to do in the maneuver",
        "Blue has nothing to do in the strikes",
        "Red has nothing to do in the strikes",
    ] {
        assert!(h.query_by_label_contains(line).is_some(), "{line}");
    }
}

#[test]
fn a_double_click_ends_one_phase_only() {
    // Red moves a legion; "Done moving" leads to his muster phase,
    // whose "End turn" takes its place: the second click of a double click
    // does not end the turn.
    let data = tempfile::tempdir().unwrap();
    let start = position(
        data.path(),
        r#"(
    seed: 11,
    players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
    legions: [
        (marker: "P1-01", land: 1, characters: ["Titan", "Ogre", "Ogre", "Troll"]),
        (marker: "P1-02", land: 100, characters: ["Angel", "Centaur", "Centaur", "Gargoyle"]),
        (marker: "P2-01", land: 400, characters: ["Titan", "Lion", "Lion"]),
    ],
    active: 0,
    phase: Move,
    roll: 2,
    turn: 3,
)"#,
    );
    // Frames a sixtieth of a second apart, as on a screen: a double click
    // spans a few.
    let dir = repo().join("variants/titan");
    let app = PlayApp::new(&repo().join("variants"), data.path());
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.state_mut().open_game(
        Box::new(LocalSession::new(start, Vec::new())),
        seats(&[("Red", false), ("Blue", false)]),
        &dir,
    );
    h.run_steps(3);
    // One legion to a land where it may muster (so that the muster phase
    // waits for Red).
    let v = game(&h).session.variant().clone();
    let view = game(&h).view();
    let (m, to) = game(&h)
        .my_actions()
        .iter()
        .find_map(|a| match a {
            Action::Move { legion: m, to, .. } => {
                let l = view.legions.iter().find(|l| l.marker == *m)?;
                let mut legion = l.characters.clone()?;
                legion.sort();
                let terrain = v.board.land(*to).terrain;
                let mut judge = |_, _, _: &[_]| false;
                (!titan_core::model::muster::options(&v, terrain, &legion, &mut judge).is_empty())
                    .then_some((*m, v.board.land(*to).number))
            }
            _ => None,
        })
        .expect("a land to muster in");
    let pos = game(&h).marker_screen_pos(m).unwrap();
    click_at(&mut h, pos);
    h.get_all_by_label_contains(&format!("Move {m} to land {to} "))
        .next()
        .unwrap()
        .click();
    // "Done moving" shows, and a moment later takes clicks.
    h.run_steps(30);
    let done = h.get_by_label("Done moving").rect();
    // A double click where "Done moving" is: 0.15 s between the releases.
    let press = |h: &mut Harness<'static, PlayApp>, pressed: bool| {
        h.event(egui::Event::PointerButton {
            pos: done.center(),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        h.step();
    };
    h.hover_at(done.center());
    h.step();
    press(&mut h, true);
    press(&mut h, false);
    h.run_steps(2);
    assert_eq!(game(&h).view().phase, titan_core::game::Phase::Muster);
    h.run_steps(3);
    press(&mut h, true);
    press(&mut h, false);
    h.run_steps(2);
    let view = game(&h).view();
    assert_eq!(view.phase, titan_core::game::Phase::Muster);
    assert_eq!(view.active, PlayerId(0));
    // A moment later, "End turn" takes a click where "Done moving" was.
    h.run_steps(30);
    let end = h.get_by_label("End turn").rect();
    assert_eq!(end.left_top(), done.left_top());
    h.get_by_label("End turn").click();
    h.run_steps(3);
    assert_eq!(game(&h).view().active, PlayerId(1));
}

#[test]
fn the_last_strikes_dice_stay_on_their_lines() {
    // An engagement fought (by random moves, strikes first) up to its
    // first strike with several dice; then the battle panel's dice row.
    use titan_core::battle::{Action as B, BattleEvent};
    use titan_core::game::Event;
    use titan_editor::session::GameSession;
    let data = tempfile::tempdir().unwrap();
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let pos = Position::read(&repo().join("tests/scenarios/engagement.ron")).unwrap();
    let start = pos.to_game(variant).unwrap();
    let mut h = on_game(data.path(), "titan", start, Vec::new(), |s| {
        let mut rng = titan_core::rng::GameRng::new(3);
        for _ in 0..3000 {
            let p = s.to_act()[0];
            let legal: Vec<Action> = s
                .legal_actions(p)
                .into_iter()
                .filter(|a| {
                    !matches!(
                        a,
                        Action::ConcedeGame
                            | Action::Concede
                            | Action::Flee
                            | Action::Propose { .. }
                            | Action::Battle {
                                battle: B::Concede(_)
                            }
                    )
                })
                .collect();
            let strike = legal
                .iter()
                .find(|a| {
                    matches!(
                        a,
                        Action::Battle {
                            battle: B::Strike { .. }
                        }
                    )
                })
                .cloned();
            let a = match strike {
                Some(a) => a,
                None => titan_core::game::random::choose(legal, &mut rng).unwrap(),
            };
            let events = s.apply(p, &a).unwrap();
            let struck = events.iter().any(|e| match e {
                Event::Battle { events } => events
                    .iter()
                    .any(|b| matches!(b, BattleEvent::Struck { rolls, .. } if rolls.len() >= 4)),
                _ => false,
            });
            if struck {
                return;
            }
        }
        panic!("no strike of four dice or more");
    });
    take_screen(&mut h);
    assert!(game(&h).session.battle(game(&h).viewer).is_some());
    let row = h
        .query_by_label_contains("Last strike, needing")
        .expect("the last strike's dice");
    assert!(row.rect().height() < 24.0, "{:?}", row.rect());
    // "= 2 hits" (the log's lines say "2 hits" too).
    let hits = h
        .query_all_by_label_contains(" hits")
        .find(|n| {
            let node = n.accesskit_node();
            let text = node.label().or_else(|| node.value()).unwrap_or_default();
            text.starts_with("= ")
        })
        .expect("the hits")
        .rect();
    assert!(hits.height() < 24.0, "{hits:?}");
    // Each die a die, its number told to screen readers, no text beside it.
    let dice: Vec<egui::Rect> = h
        .query_all_by_label_contains("die: ")
        .map(|n| n.rect())
        .collect();
    assert!(dice.len() >= 4, "{dice:?}");
    for d in dice {
        assert_eq!((d.width(), d.height()), (28.0, 28.0), "{d:?}");
    }
}

#[test]
fn counters_show_factors_with_the_flyers_star_and_marks_for_lords_and_natives() {
    // An engagement fought by random moves until both sides have entered;
    // then the battle's counters and legend.
    use titan_core::battle::{Action as B, BattleEvent};
    use titan_core::game::Event;
    use titan_editor::session::GameSession;
    let data = tempfile::tempdir().unwrap();
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let pos = Position::read(&repo().join("tests/scenarios/engagement.ron")).unwrap();
    let start = pos.to_game(variant).unwrap();
    let mut h = on_game(data.path(), "titan", start, Vec::new(), |s| {
        let mut rng = titan_core::rng::GameRng::new(3);
        let mut entered = [false; 2];
        for _ in 0..3000 {
            let p = s.to_act()[0];
            let legal: Vec<Action> = s
                .legal_actions(p)
                .into_iter()
                .filter(|a| {
                    !matches!(
                        a,
                        Action::ConcedeGame
                            | Action::Concede
                            | Action::Flee
                            | Action::Propose { .. }
                            | Action::Battle {
                                battle: B::Concede(_) | B::EndManeuver
                            }
                    )
                })
                .collect();
            let legal = if legal.is_empty() {
                s.legal_actions(p)
                    .into_iter()
                    .filter(|a| !matches!(a, Action::ConcedeGame | Action::Concede | Action::Flee))
                    .collect()
            } else {
                legal
            };
            let a = titan_core::game::random::choose(legal, &mut rng).unwrap();
            for e in s.apply(p, &a).unwrap() {
                if let Event::Battle { events } = e {
                    for b in events {
                        if let BattleEvent::Moved { from: None, .. } = b {
                            entered[usize::from(p != PlayerId(0))] = true;
                        }
                    }
                }
            }
            if entered == [true, true] {
                return;
            }
        }
        panic!("the sides never both entered");
    });
    take_screen(&mut h);
    assert!(game(&h).session.battle(game(&h).viewer).is_some());
    let texts = painted_texts(&h);
    // The Gargoyles fly: a star between their factors (Law of Titan 1980,
    // 3.B); the Titan walks, and the Cyclopes waiting to enter.
    assert!(texts.iter().any(|t| t == "4*3"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "6-4"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "Cyclops 9-2"), "{texts:?}");
    // The Titan's crown: a gold polygon on its counter.
    let gold = h
        .output()
        .shapes
        .iter()
        .any(|c| matches!(&c.shape, Shape::Path(p) if p.fill == egui::Color32::GOLD));
    assert!(gold, "no crown drawn");
    // The legend of the marks drawn on the counters.
    assert!(h.query_by_label_contains("4*3: flies").is_some());
    assert!(h.query_by_label("lord").is_some());
    assert!(h.query_by_label("rangestrikes").is_some());
}
