//! Headless tests of the game window: egui_kittest drives the real app
//! (buttons by their labels, the masterboard and battleland by clicks at the
//! places the app drew lands and hexes) and the tests check what is rendered
//! and the game reached. Saves go to a temporary data folder.

mod common;

use common::repo;
use std::path::Path;

use egui::{Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::battle::{self, Status};
use titan_core::game::save::Position;
use titan_core::game::{Action, Phase, PlayerId};
use titan_editor::PlayApp;
use titan_editor::play::{GameScreen, Seat};
use titan_editor::session::{LocalSession, SPECTATOR};

fn harness(data: &Path) -> Harness<'static, PlayApp> {
    let app = PlayApp::new(&repo().join("variants"), data);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    h
}

/// A primary click at a screen position.
fn click_at(h: &mut Harness<'_, PlayApp>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
}

fn click(h: &mut Harness<'_, PlayApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(2);
}

/// Picks who plays seat `n` on the start screen from its list ("person",
/// "computer (simple)").
fn seat_kind(h: &mut Harness<'_, PlayApp>, n: usize, kind: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, &format!("Player {n}:"))
        .click();
    h.run_steps(2);
    click(h, &format!("Player {n}: {kind}"));
}

fn game<'a>(h: &'a Harness<'_, PlayApp>) -> &'a GameScreen {
    h.state().game().expect("a game on screen")
}

/// Takes the screen when it is to be passed ("I am Blue: show my game").
fn take_screen(h: &mut Harness<'_, PlayApp>) -> bool {
    let Some(p) = game(h).pass_to else {
        return false;
    };
    let name = game(h).seats[p.0 as usize].name.clone();
    click(h, &format!("I am {name}: show my game"));
    true
}

/// The split editor's columns (sizes), and whether it is open.
fn split_columns(h: &Harness<'_, PlayApp>) -> (Vec<usize>, bool) {
    match &game(h).split {
        Some(e) => (e.columns.iter().map(Vec::len).collect(), true),
        None => (Vec::new(), false),
    }
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

#[test]
fn a_hot_seat_game_starts_divides_and_moves() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    // Seat 2 is a computer by default: make it a person.
    seat_kind(&mut h, 2, "person");
    h.state_mut().form.seed = "11".into();
    click(&mut h, "Start game");
    assert!(game(&h).seats.iter().all(|s| !s.computer));
    let first = game(&h).session.to_act()[0];
    // Both divide their starting characters, the screen passed between.
    for _ in 0..2 {
        take_screen(&mut h);
        let me = game(&h).viewer;
        assert!(game(&h).session.to_act().contains(&me));
        // Moving the Titan across makes the division illegal; back, legal.
        click(&mut h, "Titan");
        assert!(h.query_by_label("(not a legal division)").is_some());
        click(&mut h, "Titan");
        assert!(h.query_by_label("(not a legal division)").is_none());
        // Dragging works too: the Titan dragged onto the other legion's
        // column, and back.
        for _ in 0..2 {
            let from = h.get_by_label("Titan").rect().center();
            let other = if from.x < 1300.0 {
                from.x + 120.0
            } else {
                from.x - 120.0
            };
            let to = Pos2::new(other, from.y);
            let (before, _) = split_columns(&h);
            h.drag_at(from);
            h.step();
            for k in 1..=6 {
                h.hover_at(from + (to - from) * (k as f32 / 6.0));
                h.step();
            }
            h.drop_at(to);
            h.run_steps(2);
            let (after, _) = split_columns(&h);
            assert_ne!(before, after, "the drag moved nothing");
        }
        assert!(h.query_by_label("(not a legal division)").is_none());
        click(&mut h, "Divide");
        let legions = game(&h).session.view(me).legions;
        assert_eq!(legions.iter().filter(|l| l.owner == me).count(), 2);
    }
    // The first player's turn: a pass screen hides everything.
    take_screen(&mut h);
    assert_eq!(game(&h).viewer, first);
    // No splitting on the first turn (reference sheet, Setup): it moves.
    assert_eq!(game(&h).view().phase, Phase::Move);
    click(&mut h, "Roll the die");
    let roll = game(&h).view().roll.expect("rolled");
    assert!(h.query_by_label(&format!("die: {roll}")).is_some());
    // Select a legion on the board, see its moves, click one.
    let mine = game(&h)
        .view()
        .legions
        .into_iter()
        .find(|l| l.owner == first)
        .unwrap();
    let pos = game(&h).marker_screen_pos(mine.marker).unwrap();
    click_at(&mut h, pos);
    assert_eq!(game(&h).selected, Some(mine.marker));
    let actions = game(&h).my_actions();
    let targets = game(&h).targets(&actions);
    let (to, list) = targets
        .moves
        .iter()
        .find(|(_, l)| l.len() == 1)
        .cloned()
        .expect("a land with one way in");
    assert!(matches!(list[0], Action::Move { .. }));
    let number = game(&h).session.variant().board.land(to).number;
    let at = game(&h).land_screen_pos(number).unwrap();
    click_at(&mut h, at);
    let moved = game(&h)
        .view()
        .legions
        .into_iter()
        .find(|l| l.marker == mine.marker)
        .unwrap();
    assert_eq!(moved.land, to, "{}", game(&h).status);
    assert!(
        h.query_all_by_label_contains("moves from land")
            .next()
            .is_some()
    );
}

#[test]
fn the_pass_screen_hides_the_other_seat() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "engagement.ron",
        &[("Red", false), ("Blue", false), ("Green", true)],
    );
    // Red's engagement phase; Red is in front of the screen.
    assert_eq!(game(&h).viewer, PlayerId(0));
    let full = |h: &Harness<'_, PlayApp>, marker: &str| {
        let g = game(h).session.save_file();
        let _ = g;
        let view = game(h).session.view(SPECTATOR);
        let l = view
            .legions
            .iter()
            .find(|l| l.marker.to_string() == marker)
            .unwrap()
            .clone();
        // What the owner knows: the whole legion.
        let owner_view = game(h).session.view(l.owner);
        let cs = owner_view
            .legions
            .iter()
            .find(|o| o.marker == l.marker)
            .and_then(|o| o.characters.clone())
            .unwrap();
        let words = game(h).words(&[]);
        format!(
            "{marker} in {}: {}",
            words.land(l.land),
            words.characters(&cs)
        )
    };
    assert!(h.query_by_label(&full(&h, "P1-02")).is_some());
    assert!(
        h.query_by_label("P2-02 in land 400: 3 characters")
            .is_some()
    );
    click(&mut h, "Resolve the engagement in land 5");
    // The defender decides: the screen is to be passed, and shows nothing
    // of either seat.
    assert_eq!(game(&h).pass_to, Some(PlayerId(1)));
    assert!(h.query_by_label("Pass the screen to Blue").is_some());
    for hidden in [
        "P1-", "P2-", "Angel", "Centaur", "Titan", "Lion", "Legions", "Log",
    ] {
        assert!(
            h.query_by_label_contains(hidden).is_none(),
            "{hidden} shown on the pass screen"
        );
    }
    take_screen(&mut h);
    // Blue sees Blue's legions, and of Red's only what was revealed.
    assert!(h.query_by_label(&full(&h, "P2-02")).is_some());
    assert!(
        h.query_by_label("P1-02 in land 100: 3 characters")
            .is_some()
    );
    assert!(h.query_by_label_contains("Centaur").is_none());
}

/// Does one battle action through the screen: a move or a strike by
/// clicking the character (or its waiting button) and then the hex, any
/// other action by its button.
fn battle_step(h: &mut Harness<'_, PlayApp>) -> bool {
    take_screen(h);
    let g = game(h);
    let Some(info) = g.session.battle(g.viewer) else {
        return false;
    };
    let actions = g.battle_actions();
    let Some(a) = actions.first().cloned() else {
        return false;
    };
    // Prefer moving and striking, so that the battle ends.
    let pick = actions
        .iter()
        .find(|a| {
            matches!(
                a,
                battle::Action::Strike { .. } | battle::Action::Rangestrike { .. }
            )
        })
        .or_else(|| {
            actions.iter().find(|a| {
                matches!(a, battle::Action::Move { unit, .. }
                    if info.view.units[usize::from(*unit)].status != Status::Waiting
                        || actions.iter().all(|b| !matches!(b, battle::Action::EndManeuver)))
            })
        })
        .cloned()
        .unwrap_or(a);
    let before = g.session.history_len();
    let hex_of = |u: u8| match info.view.units[usize::from(u)].status {
        Status::OnBoard(h) => Some(h.label()),
        _ => None,
    };
    match &pick {
        battle::Action::Move { unit, to } => {
            match hex_of(*unit) {
                Some(from) => {
                    let p = game(h).hex_screen_pos(&from).unwrap();
                    click_at(h, p);
                }
                None => {
                    let u = &info.view.units[usize::from(*unit)];
                    // As the panel words it: factors and marks.
                    let marks =
                        titan_editor::counters::Marks::of_name(g.session.variant(), &u.character)
                            .unwrap();
                    let badges = marks.badges();
                    let label = format!(
                        "{} {}{}{badges}",
                        u.character,
                        marks.factors(u.power, u.skill),
                        if badges.is_empty() { "" } else { " " }
                    );
                    h.get_all_by_label(&label).next().unwrap().click();
                    h.run_steps(2);
                }
            }
            let p = game(h).hex_screen_pos(&to.label()).unwrap();
            click_at(h, p);
        }
        battle::Action::Strike { unit, target, .. }
        | battle::Action::Rangestrike { unit, target } => {
            let from = hex_of(*unit).unwrap();
            let to = hex_of(*target).unwrap();
            let p = game(h).hex_screen_pos(&from).unwrap();
            click_at(h, p);
            // The strike number and dice are offered before the roll.
            assert!(h.query_all_by_label_contains(": needs ").next().is_some());
            let p = game(h).hex_screen_pos(&to).unwrap();
            click_at(h, p);
        }
        battle::Action::Summon { choice, to } | battle::Action::Reinforce { choice, to } => {
            let words = game(h).words(&info.view.units);
            let label = match &pick {
                battle::Action::Summon { .. } => {
                    let (m, c) = info.request.summonable[usize::from(*choice)];
                    format!("Summon {} from {m}", words.character(c))
                }
                _ => format!(
                    "Reinforce with {}",
                    words.character(info.request.reinforcements[usize::from(*choice)])
                ),
            };
            click(h, &label);
            let p = game(h).hex_screen_pos(&to.label()).unwrap();
            click_at(h, p);
        }
        other => {
            let words = game(h).words(&info.view.units);
            let label = words.battle_action(other);
            h.get_all_by_label(&label).next().unwrap().click();
            h.run_steps(2);
        }
    }
    assert!(
        game(h).session.history_len() > before,
        "{pick:?} was not done: {}",
        game(h).status
    );
    true
}

#[test]
fn an_engagement_is_fought_by_clicking_hexes_and_the_winner_musters() {
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
    let mut steps = 0;
    // The log tells the striking side's phase from the other side's strike
    // back (Law of the Battlelands, Strike), and who won in words.
    let (mut back, mut over) = (false, false);
    while game(&h)
        .view()
        .engagement
        .as_ref()
        .is_some_and(|e| e.step == titan_core::game::EngagementStep::Battle)
    {
        assert!(battle_step(&mut h), "stuck: {}", game(&h).status);
        back |= h
            .query_all_by_label_contains("strikes back")
            .next()
            .is_some();
        // The panel says it the same way (it said "the defender strikes
        // (attacker striking)").
        assert!(h.query_all_by_label_contains("striking)").next().is_none());
        over |= h
            .query_all_by_label_contains("The battle is over: the ")
            .next()
            .is_some();
        steps += 1;
        assert!(steps < 400, "the battle did not end");
    }
    over |= h
        .query_all_by_label_contains("The battle is over: the ")
        .next()
        .is_some();
    assert!(back, "no strike back in the log");
    assert!(over, "no winner in words in the log");
    // Strikes were made, their dice shown in the log, by the characters'
    // names still now that the battle is over.
    use egui_kittest::kittest::NodeT;
    let strikes: Vec<String> = h
        .query_all_by_label_contains(": rolls ")
        .filter_map(|n| {
            n.accesskit_node()
                .label()
                .or_else(|| n.accesskit_node().value())
        })
        .collect();
    assert!(!strikes.is_empty());
    for line in &strikes {
        assert!(!line.contains("unit "), "{line}");
    }
    // The battle was drawn and ended; whatever the winner may do after is
    // offered as buttons, then Red musters.
    let mut guard = 0;
    while game(&h).view().phase == Phase::Engage {
        take_screen(&mut h);
        let actions = game(&h).my_actions();
        let a = actions
            .iter()
            .find(|a| **a != Action::ConcedeGame)
            .cloned()
            .unwrap();
        let label = game(&h).words(&[]).action(&a);
        h.get_all_by_label(&label).next().unwrap().click();
        h.run_steps(2);
        guard += 1;
        assert!(guard < 20);
    }
    take_screen(&mut h);
    assert_eq!(game(&h).view().phase, Phase::Muster);
    let muster = game(&h)
        .my_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Muster { .. }));
    // Red's legion that moved, or its neighbour, may muster (reference
    // sheet, Enlistment); the choice names what must be shown.
    let m = muster.expect("Red may muster");
    let label = game(&h).words(&[]).action(&m);
    assert!(label.contains("showing"), "{label}");
    click(&mut h, &label);
    // Red, with nothing else to do, ends his turn by itself: the screen
    // goes to Blue.
    take_screen(&mut h);
    // The log says it in the game's words, with what was shown and where.
    let legion = match &m {
        Action::Muster { legion, .. } => *legion,
        _ => unreachable!(),
    };
    let line = format!("Red's legion {legion} (showing ");
    assert!(
        h.query_all_by_label_contains(&line).next().is_some(),
        "{line}"
    );
    assert!(h.query_by_label_contains("Battle in land 5").is_some());
}

#[test]
fn save_load_and_replay_reach_the_same_position() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    seat_kind(&mut h, 2, "person");
    h.state_mut().form.seed = "5".into();
    click(&mut h, "Start game");
    for _ in 0..2 {
        take_screen(&mut h);
        click(&mut h, "Divide");
    }
    take_screen(&mut h);
    click(&mut h, "Roll the die");
    let saved = game(&h).session.view(SPECTATOR);
    let hash = game(&h).session.save_file().state_hash;
    h.state_mut().game_mut().unwrap().save_name = "mine".into();
    click(&mut h, "Save");
    assert!(data.path().join("saves/mine.ron").is_file());
    assert!(data.path().join("autosave.ron").is_file());
    click(&mut h, "Start screen");
    click(&mut h, "Load mine");
    assert!(h.state().status.is_empty(), "{}", h.state().status);
    take_screen(&mut h);
    assert_eq!(game(&h).session.view(SPECTATOR), saved);
    assert_eq!(game(&h).session.save_file().state_hash, hash);
    click(&mut h, "Start screen");
    click(&mut h, "Replay mine");
    assert_eq!(game(&h).session.history_len(), 0);
    click(&mut h, "Forward >");
    click(&mut h, "Forward >");
    assert_eq!(game(&h).session.history_len(), 2);
    click(&mut h, "< Back");
    assert_eq!(game(&h).session.history_len(), 1);
    click(&mut h, ">|");
    assert_eq!(game(&h).session.view(SPECTATOR), saved);
    // The autosave continues the same game.
    click(&mut h, "Start screen");
    click(&mut h, "Continue the last game");
    take_screen(&mut h);
    assert!(game(&h).session.history_len() >= 2);
}

#[test]
fn two_computer_seats_play_to_the_end() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    {
        let app = h.state_mut();
        app.form.seats[0].computer = true;
        app.form.seed = "2".into();
        // A short game: it ends in the turn someone reaches 100 points
        // (reference sheet, For a Shorter Game).
        app.form.options.insert(
            "point_limit".into(),
            titan_core::format::OptionValue::Int(100),
        );
    }
    click(&mut h, "Start game");
    h.state_mut().game_mut().unwrap().pace = 0.0;
    let mut frames = 0;
    while h.state().game().is_some_and(|g| g.view().outcome.is_none()) {
        h.step();
        frames += 1;
        assert!(frames < 20_000, "no end after {frames} frames");
    }
    h.run_steps(2);
    assert!(h.query_by_label("Game over").is_some());
    assert!(h.query_by_label_contains("Final scores").is_some());
}

#[test]
fn a_game_without_a_human_shows_what_everyone_sees() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    h.state_mut().form.seats[0].computer = true;
    click(&mut h, "Start game");
    assert_eq!(game(&h).viewer, SPECTATOR);
    assert!(game(&h).my_actions().is_empty());
    // One action a second: the harness's frames are a quarter second of
    // simulated time each (no clock is read), so 8 frames make 2 actions.
    h.state_mut().game_mut().unwrap().pace = 1.0;
    h.run_steps(1);
    let n = game(&h).session.history_len();
    h.run_steps(8);
    let paced = game(&h).session.history_len() - n;
    assert!(
        (1..=3).contains(&paced),
        "{paced} actions in 2 s at 1 a second"
    );
    // Paused: nothing.
    h.state_mut().game_mut().unwrap().paused = true;
    let n = game(&h).session.history_len();
    h.run_steps(5);
    assert_eq!(game(&h).session.history_len(), n, "paused, yet it played");
    // Instant: a batch in one frame.
    let g = h.state_mut().game_mut().unwrap();
    g.paused = false;
    g.pace = 0.0;
    h.run_steps(1);
    assert!(
        game(&h).session.history_len() > n + 5,
        "instant is not instant"
    );
}

/// Reference sheet, Engagement: either side may propose an agreement; in
/// hot-seat the proposer hands the screen over and the other accepts.
#[test]
fn an_agreement_is_proposed_passed_and_accepted() {
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "engagement.ron",
        &[("Red", false), ("Blue", false), ("Green", true)],
    );
    click(&mut h, "Resolve the engagement in land 5");
    take_screen(&mut h);
    click(&mut h, "Stand and fight");
    // Blue offers to give up the whole legion, then lets Red decide.
    let propose = game(&h)
        .my_actions()
        .into_iter()
        .find(
            |a| matches!(a, Action::Propose { attacker_losses, .. } if attacker_losses.is_empty()),
        )
        .unwrap();
    let label = game(&h).words(&[]).action(&propose);
    click(&mut h, &label);
    click(&mut h, "Let Red decide (pass the screen)");
    assert!(h.query_by_label("Pass the screen to Red").is_some());
    take_screen(&mut h);
    assert!(
        h.query_all_by_label_contains("Blue proposes")
            .next()
            .is_some()
    );
    click(&mut h, "Accept the proposal");
    let view = game(&h).view();
    assert!(
        view.engagement.is_none()
            || !matches!(
                view.engagement.as_ref().unwrap().step,
                titan_core::game::EngagementStep::Negotiate { .. }
            )
    );
    assert!(!view.legions.iter().any(|l| l.marker.to_string() == "P2-01"));
}

/// A variant's fewest seats cannot be removed: at two seats the start
/// screen offers no "remove seat" (it did, and the button did nothing).
/// A seat's problem is told by the seat's number as shown.
#[test]
fn the_start_screen_offers_to_remove_a_seat_only_above_the_fewest() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    assert_eq!(h.state().form.seats.len(), 2);
    assert!(h.query_by_label("remove seat 1").is_none());
    assert!(h.query_by_label("remove seat 2").is_none());
    click(&mut h, "Add a seat");
    assert_eq!(h.state().form.seats.len(), 3);
    // A seat without a name is named as the form numbers it (seat 3, not
    // the engine's "player 2").
    let old = std::mem::take(&mut h.state_mut().form.seats[2].name);
    click(&mut h, "Start game");
    assert!(h.state().game().is_none());
    assert_eq!(h.state().status, "Cannot start: seat 3 has no name");
    assert!(
        h.query_by_label("Cannot start: seat 3 has no name")
            .is_some()
    );
    h.state_mut().form.seats[2].name = old;
    click(&mut h, "remove seat 1");
    let names: Vec<&str> = h
        .state()
        .form
        .seats
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["Blue", "Green"]);
    assert!(h.query_by_label("remove seat 1").is_none());
}

/// Leaving a game for the start screen mid-turn loses nothing: "Continue
/// the last game" picks it up where it was left, not at the turn's start.
#[test]
fn leaving_mid_turn_continues_where_it_was_left() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    h.state_mut().form.seed = "4".into();
    click(&mut h, "Start game");
    h.state_mut().game_mut().unwrap().paused = true;
    click(&mut h, "Divide");
    h.state_mut().game_mut().unwrap().paused = false;
    let mut frames = 0;
    while !game(&h)
        .my_actions()
        .iter()
        .any(|a| matches!(a, Action::Roll { .. }))
    {
        h.step();
        frames += 1;
        assert!(frames < 500, "Red's turn never came");
    }
    click(&mut h, "Roll the die");
    let roll = game(&h).view().roll.expect("rolled");
    let position = game(&h).session.view(SPECTATOR);
    let n = game(&h).session.history_len();
    click(&mut h, "Start screen");
    click(&mut h, "Continue the last game");
    assert_eq!(game(&h).session.history_len(), n);
    assert_eq!(game(&h).session.view(SPECTATOR), position);
    assert!(h.query_by_label(&format!("die: {roll}")).is_some());
    // Closing the window autosaves too.
    let g = h.state_mut().game_mut().unwrap();
    g.paused = true;
    let a = g
        .my_actions()
        .into_iter()
        .find(|a| *a != Action::ConcedeGame)
        .unwrap();
    g.act(&a);
    let n = game(&h).session.history_len();
    h.state_mut().on_exit();
    let saved = titan_editor::session::read_save(&data.path().join("autosave.ron")).unwrap();
    assert_eq!(saved.actions.len(), n);
}

/// The editor opened from the start screen, left with unsaved edits: it
/// asks first; "Discard" or "Save first" returns to the start screen (it
/// closed the whole window instead).
#[test]
fn leaving_the_editor_with_unsaved_edits_asks_then_returns_to_the_start_screen() {
    use titan_editor::play::Screen;
    let tmp = common::workspace();
    let data = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("variants/titan");
    let board = std::fs::read_to_string(dir.join("masterboard.ron")).unwrap();
    let app = PlayApp::new(&tmp.path().join("variants"), data.path());
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    let editor = |h: &mut Harness<'_, PlayApp>| match &mut h.state_mut().screen {
        Screen::Editor(e) => {
            e.watch = false;
            Some(e.land_screen_pos(1).unwrap())
        }
        _ => None,
    };
    for choice in ["Discard", "Save first"] {
        click(&mut h, "Open the editor");
        h.run_steps(2);
        let land = editor(&mut h).expect("the editor is open");
        click_at(&mut h, land);
        click(&mut h, "Desert");
        let dirty = match &h.state().screen {
            Screen::Editor(e) => (e.selected_land, e.is_dirty()),
            _ => (None, false),
        };
        assert_eq!(dirty, (Some(1), true), "no edit made");
        click(&mut h, "Back to the start screen");
        h.run_steps(2);
        assert!(
            h.query_all_by_label_contains("There are unsaved edits")
                .next()
                .is_some(),
            "not asked"
        );
        assert!(matches!(h.state().screen, Screen::Editor(_)));
        click(&mut h, choice);
        assert!(
            matches!(h.state().screen, Screen::Start),
            "{choice}: still in the editor"
        );
        assert!(h.query_by_label("Start game").is_some());
        let now = std::fs::read_to_string(dir.join("masterboard.ron")).unwrap();
        if choice == "Discard" {
            assert_eq!(now, board, "discarded edits were written");
        } else {
            assert_ne!(now, board, "the edit was not saved");
        }
        // The start screen plays the variant as it now is on disk.
        let v = h.state().form.variant.clone().unwrap();
        let land = v.board.land(v.board.by_number(1).unwrap());
        let terrain = &v.terrains[land.terrain.index()].name;
        assert_eq!(
            terrain,
            if choice == "Discard" {
                "Plains"
            } else {
                "Desert"
            }
        );
    }
}

/// A variant made in the editor opened from the start screen is offered
/// there on coming back, without restarting the window.
#[test]
fn a_variant_made_in_the_editor_is_offered_on_the_start_screen() {
    let tmp = common::workspace();
    let data = tempfile::tempdir().unwrap();
    let app = PlayApp::new(&tmp.path().join("variants"), data.path());
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    assert!(h.query_by_label("forge").is_none());
    click(&mut h, "Open the editor");
    if let titan_editor::play::Screen::Editor(e) = &mut h.state_mut().screen {
        e.watch = false;
    }
    click(&mut h, "New variant...");
    h.run_steps(2);
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Folder and id:")
        .focus();
    h.run_steps(2);
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Folder and id:")
        .type_text("forge");
    h.run_steps(2);
    click(&mut h, "Create");
    assert!(tmp.path().join("variants/forge/variant.ron").is_file());
    click(&mut h, "Back to the start screen");
    assert!(h.query_by_label("forge").is_some(), "forge is not offered");
    click(&mut h, "forge");
    assert_eq!(h.state().form.variant.as_ref().unwrap().id, "forge");
    click(&mut h, "Start game");
    assert!(h.state().game().is_some(), "{}", h.state().status);
}

/// A save that cannot be opened (not a save at all, or one whose replay
/// reaches another position) says which file and why on the start screen,
/// and the file is left as it was.
#[test]
fn a_broken_save_says_which_file_and_why_and_is_left_alone() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    seat_kind(&mut h, 2, "person");
    h.state_mut().form.seed = "8".into();
    click(&mut h, "Start game");
    take_screen(&mut h);
    click(&mut h, "Divide");
    take_screen(&mut h);
    h.state_mut().game_mut().unwrap().save_name = "good".into();
    click(&mut h, "Save");
    click(&mut h, "Start screen");
    let saves = data.path().join("saves");
    let good = std::fs::read_to_string(saves.join("good.ron")).unwrap();
    std::fs::write(saves.join("junk.ron"), "(variant: \"titan\", garbage").unwrap();
    // The same game, its state hash changed.
    let hash = titan_editor::session::read_save(&saves.join("good.ron"))
        .unwrap()
        .state_hash;
    let moved = good.replace(&hash.to_string(), &(hash ^ 1).to_string());
    assert_ne!(moved, good);
    std::fs::write(saves.join("moved.ron"), &moved).unwrap();
    click(&mut h, "Refresh");
    for (name, why) in [
        ("junk", "is not a valid save"),
        ("moved", "another position than the one saved"),
    ] {
        click(&mut h, &format!("Load {name}"));
        assert!(h.state().game().is_none(), "{name} opened");
        let status = h.state().status.clone();
        assert!(
            status.contains(&format!("{name}.ron")) && status.contains(why),
            "{status}"
        );
        assert!(h.query_by_label(&status).is_some(), "the message is shown");
    }
    assert_eq!(
        std::fs::read_to_string(saves.join("moved.ron")).unwrap(),
        moved
    );
    // A broken seats file beside a good save is refused (it was taken for
    // a missing one: every seat a person), and left as it was.
    std::fs::copy(saves.join("good.ron"), saves.join("seated.ron")).unwrap();
    std::fs::write(saves.join("seated.seats.ron"), "(variant_dir: ").unwrap();
    click(&mut h, "Refresh");
    click(&mut h, "Load seated");
    assert!(h.state().game().is_none(), "seated opened");
    assert!(
        h.state()
            .status
            .contains("seated.seats.ron is not a valid seats file"),
        "{}",
        h.state().status
    );
    assert_eq!(
        std::fs::read_to_string(saves.join("seated.seats.ron")).unwrap(),
        "(variant_dir: "
    );
    // The good save still loads.
    click(&mut h, "Load good");
    assert!(h.state().game().is_some(), "{}", h.state().status);
}

/// A variant's files changed on disk after the start screen read them (in
/// a text editor, say): the game started plays them as they are now.
#[test]
fn a_game_starts_from_the_variant_as_it_is_on_disk() {
    let tmp = common::workspace();
    let data = tempfile::tempdir().unwrap();
    let app = PlayApp::new(&tmp.path().join("variants"), data.path());
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    let file = tmp.path().join("variants/titan/masterboard.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    let from = "(number: 1, terrain: \"Plains\"";
    assert!(text.contains(from));
    std::fs::write(&file, text.replace(from, "(number: 1, terrain: \"Desert\"")).unwrap();
    h.state_mut().form.seed = "3".into();
    click(&mut h, "Start game");
    let v = game(&h).variant();
    let land = v.board.land(v.board.by_number(1).unwrap());
    assert_eq!(v.terrains[land.terrain.index()].name, "Desert");
}

/// Three, four or five legions in one land (a split into three parts, an
/// enemy come to fight them): every marker lies inside its land, none
/// spills over into the next one, and none covers another.
#[test]
fn markers_of_many_legions_stay_inside_their_land() {
    use titan_editor::draw::{in_triangle, triangle};
    let data = tempfile::tempdir().unwrap();
    let dir = repo().join("variants/titan");
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    // Lands 1 and 2 are neighbours: one triangle points up, the other down.
    for (number, n) in [1u32, 2]
        .into_iter()
        .flat_map(|l| (1..=6usize).map(move |n| (l, n)))
    {
        // A position puts one legion of a player in a land; the state is
        // then gathered in one land (as splits and an attack would).
        let mut legions = Vec::new();
        for i in 1..=n {
            let (marker, lord) = match i {
                1 => ("P1-01".to_string(), "Titan"),
                i if i == n && n > 1 => ("P2-01".to_string(), "Titan"),
                i => (format!("P1-0{i}"), "Centaur"),
            };
            legions.push(format!(
                r#"(marker: "{marker}", land: {}, characters: ["{lord}", "Ogre"])"#,
                i
            ));
        }
        let text = format!(
            r#"(players: [(name: "Red", tower: 100), (name: "Blue", tower: 400)],
                legions: [{}], active: 0, phase: Move, roll: 1)"#,
            legions.join(", ")
        );
        let pos: Position = titan_core::load::ron_options().from_str(&text).unwrap();
        let mut state = pos.to_game(variant.clone()).unwrap().state;
        let land = variant.board.by_number(number).unwrap();
        for l in &mut state.legions {
            l.land = land;
        }
        let markers: Vec<_> = state.legions.iter().map(|l| l.marker).collect();
        let played =
            titan_core::game::Game::from_state(variant.clone(), Default::default(), state).unwrap();
        let mut h = harness(data.path());
        h.state_mut().open_game(
            Box::new(LocalSession::new(played, Vec::new())),
            seats(&[("Red", false), ("Blue", false)]),
            &dir,
        );
        h.run_steps(3);
        let g = game(&h);
        let [a, b, c] =
            triangle(variant.board.land(land).position).map(|p| g.board_view.to_screen(p));
        let rects: Vec<egui::Rect> = markers
            .iter()
            .map(|&m| g.marker_screen_rect(m).expect("drawn"))
            .collect();
        for r in &rects {
            assert!(
                r.width() > 3.0,
                "{n} legions: a marker of {} points",
                r.width()
            );
            for p in [
                r.left_top(),
                r.right_top(),
                r.left_bottom(),
                r.right_bottom(),
            ] {
                assert!(
                    in_triangle(p, a, b, c),
                    "{n} legions: a marker at {r:?} leaves land {number} ({a:?} {b:?} {c:?})"
                );
            }
        }
        for (i, r) in rects.iter().enumerate() {
            for s in &rects[i + 1..] {
                assert!(!r.intersects(*s), "{n} legions: {r:?} covers {s:?}");
            }
        }
    }
}

/// A save named like a seats file (`x.seats`, whose file would be taken for
/// save `x`'s seats and left out of the list) is saved as `x-seats`, said,
/// and listed.
#[test]
fn a_save_named_like_a_seats_file_is_listed() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    seat_kind(&mut h, 2, "person");
    h.state_mut().form.seed = "8".into();
    click(&mut h, "Start game");
    take_screen(&mut h);
    h.state_mut().game_mut().unwrap().save_name = "x.seats".into();
    click(&mut h, "Save");
    let status = game(&h).status.clone();
    assert!(status.contains("x-seats.ron"), "{status}");
    assert!(status.contains("kept for seats files"), "{status}");
    click(&mut h, "Start screen");
    click(&mut h, "Refresh");
    assert!(h.query_by_label("Load x-seats").is_some());
    click(&mut h, "Load x-seats");
    assert!(h.state().game().is_some(), "{}", h.state().status);
}

#[test]
fn conceding_the_game_asks_first_and_one_click_changes_nothing() {
    // A click on "Concede the game" (which a shorter panel can bring under
    // the pointer where a phase's button was) only asks; the game goes on
    // until the player answers yes, with a button elsewhere.
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(data.path());
    seat_kind(&mut h, 2, "person");
    h.state_mut().form.seed = "11".into();
    click(&mut h, "Start game");
    take_screen(&mut h);
    let before = game(&h).session.history_len();
    click(&mut h, "Concede the game");
    assert_eq!(game(&h).confirm, Some(Action::ConcedeGame));
    assert!(
        h.query_by_label_contains("Concede the game? Your legions leave")
            .is_some()
    );
    assert_eq!(game(&h).session.history_len(), before, "one click conceded");
    // "No": nothing happened.
    click(&mut h, "No, go on playing");
    assert_eq!(game(&h).confirm, None);
    assert!(h.query_by_label_contains("Concede the game?").is_none());
    assert_eq!(game(&h).session.history_len(), before);
    // Asked again and confirmed: the player concedes.
    let me = game(&h).viewer;
    click(&mut h, "Concede the game");
    click(&mut h, "Yes, concede the game");
    assert_eq!(game(&h).confirm, None);
    assert_eq!(game(&h).session.history_len(), before + 1);
    assert!(
        !game(&h).session.view(me).players[me.0 as usize].alive,
        "the player who confirmed is out"
    );
}

#[test]
fn conceding_a_battle_asks_first() {
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
    let before = game(&h).session.history_len();
    h.query_all_by_label_contains("Concede the battle")
        .next()
        .expect("a battle concession offered")
        .click();
    h.run_steps(2);
    assert!(matches!(
        game(&h).confirm,
        Some(Action::Battle {
            battle: battle::Action::Concede(_)
        })
    ));
    assert_eq!(game(&h).session.history_len(), before, "one click conceded");
    click(&mut h, "Yes, concede the battle");
    assert_eq!(game(&h).session.history_len(), before + 1);
    assert_eq!(game(&h).confirm, None);
}

#[test]
fn the_panel_says_whose_turn_it_is_as_the_top_bar_does() {
    // Red's engagement phase, Red a computer held by the pause: Blue, in
    // front of the screen, answers Red's engagement in Red's phase. The
    // panel says so (it said "Blue: your engagement phase" under a top bar
    // saying "Red's engagement phase").
    let data = tempfile::tempdir().unwrap();
    let mut h = on_position(
        data.path(),
        "engagement.ron",
        &[("Red", true), ("Blue", false), ("Green", true)],
    );
    h.state_mut().game_mut().unwrap().paused = true;
    h.run_steps(2);
    assert_eq!(game(&h).view().active, PlayerId(0));
    assert_eq!(game(&h).viewer, PlayerId(1));
    assert!(
        h.query_all_by_label_contains("Red's engage")
            .next()
            .is_some()
    );
    assert!(h.query_by_label_contains("Blue: your engage").is_none());
    assert!(
        h.query_by_label_contains("Blue: yours to act in Red's engagement phase")
            .is_some()
    );
}
