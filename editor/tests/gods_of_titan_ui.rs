//! Headless tests of Gods of Titan in the app: the
//! editor opens the variant and shows its characters, hazards and
//! battlelands; the play window offers its spells and abilities through the
//! generic battle action buttons, and one is taken by a click.

mod common;

use common::repo;

use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use titan_core::battle;
use titan_core::game::save::Position;
use titan_core::game::{Action, PlayerId};
use titan_editor::app::Tab;
use titan_editor::play::Seat;
use titan_editor::session::LocalSession;
use titan_editor::{EditorApp, PlayApp};

fn gods() -> std::path::PathBuf {
    repo().join("variants/gods-of-titan")
}

#[test]
fn the_editor_shows_its_characters_hazards_and_battlelands() {
    let mut h = common::harness(&gods());
    let project = |h: &Harness<'_, EditorApp>| h.state().project.as_ref().unwrap().data().clone();
    let data = project(&h);
    assert_eq!(data.characters.len(), 66);

    h.get_by_label("Characters").click();
    h.run_steps(2);
    assert_eq!(h.state().tab, Tab::Characters);
    // Characters of each class of 16.6, by the names only Gods of Titan has.
    for name in [
        "God",
        "Necromancer",
        "Golem",
        "Pegasus",
        "Priestess",
        "Deathbringer",
        "Seaserpent",
    ] {
        assert!(
            h.query_all_by_label_contains(name).next().is_some(),
            "{name} is not listed"
        );
    }

    h.get_by_label("Terrains and hazards").click();
    h.run_steps(2);
    assert_eq!(h.state().tab, Tab::Terrains);
    // Hazards of 12.7 the Titan game does not have.
    for name in ["Darkness", "Cloud", "Fog", "Water"] {
        assert!(
            h.query_all_by_label_contains(name).next().is_some(),
            "hazard {name} is not shown"
        );
    }

    // Every terrain has its battleland, and each opens in the battleland
    // editor with its hexes drawn.
    let terrains: Vec<String> = data.terrains.iter().map(|t| t.name.clone()).collect();
    assert!(terrains.len() >= 20, "{terrains:?}");
    for t in &terrains {
        h.state_mut().tab = Tab::Battlelands;
        h.state_mut().battleland = Some(t.clone());
        h.run_steps(2);
        let board = h.state().project.as_ref().unwrap().battleland(t);
        assert!(
            board.is_some_and(|b| b.hexes.len() == 27),
            "{t} has no battleland"
        );
        assert!(h.state().hex_screen_pos("D4").is_some(), "{t} not drawn");
    }
}

/// The play window on a Gods of Titan battle: a legion with Casters
/// (Warlock, Priest) defends against one without a Master (15.5: no spell
/// while a Master is on the battleland).
#[test]
fn the_play_window_offers_spells_and_abilities_as_buttons() {
    let dir = gods();
    let variant = titan_editor::play::load_variant(&dir).unwrap();
    let pos: Position = titan_core::load::ron_options()
        .from_str(
            r#"(
        players: [(name: "Red", tower: 307), (name: "Blue", tower: 319), (name: "Green", tower: 331)],
        legions: [
            (marker: "P1-01", land: 206, characters: ["Ogre", "Ogre", "Centaur"], moved: true, entered_from: 207),
            (marker: "P1-02", land: 307, characters: ["Titan", "Ogre"]),
            (marker: "P2-01", land: 206, characters: ["Warlock", "Priest", "Ogre"]),
            (marker: "P2-02", land: 319, characters: ["Titan", "Ogre"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Engage,
        // After the treaty (8.3: no engagement through game turn 10).
        turn: 11,
    )"#,
        )
        .unwrap();
    let mut game = pos.to_game(variant).unwrap();
    let land = game.legion("P1-01".parse().unwrap()).unwrap().land;
    game.apply(PlayerId(0), &Action::Engage { land }).unwrap();
    for a in [Action::Stand, Action::Fight] {
        if game.battle_request().is_none() {
            let _ = game.apply(PlayerId(1), &a);
        }
    }
    assert!(game.battle_request().is_some());

    let data = tempfile::tempdir().unwrap();
    let app = PlayApp::new(&repo().join("variants"), data.path());
    let mut h = Harness::builder()
        .with_size(Vec2::new(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut PlayApp| app.ui(ui), app);
    h.run_steps(2);
    let seats = ["Red", "Blue", "Green"].map(Seat::person).to_vec();
    h.state_mut()
        .open_game(Box::new(LocalSession::new(game, Vec::new())), seats, &dir);
    h.run_steps(3);

    // Plays the battle by its first non-script action (entering, moving,
    // striking, ending phases) until a variant action is offered.
    let mut offered = None;
    for _ in 0..300 {
        let g = h.state().game().unwrap();
        if let Some(p) = g.pass_to {
            let name = g.seats[p.0 as usize].name.clone();
            h.get_by_label(&format!("I am {name}: show my game"))
                .click();
            h.run_steps(2);
            continue;
        }
        let actions = g.battle_actions();
        if actions.is_empty() {
            break;
        }
        if let Some(a) = actions
            .iter()
            .find(|a| matches!(a, battle::Action::Script { .. }))
        {
            offered = Some((a.clone(), actions.clone()));
            break;
        }
        let pick = actions
            .iter()
            .find(|a| matches!(a, battle::Action::Move { .. }))
            .or_else(|| {
                actions
                    .iter()
                    .find(|a| !matches!(a, battle::Action::Concede(_)))
            })
            .cloned()
            .unwrap();
        h.state_mut()
            .game_mut()
            .unwrap()
            .act(&Action::Battle { battle: pick });
        h.run_steps(1);
    }
    let (spell, actions) = offered.expect("no spell or ability was offered");
    let g = h.state().game().unwrap();
    let info = g.session.battle(g.viewer).unwrap();
    let words = g.words(&info.view.units);
    // The variant actions offered, grouped by who does what (actions.ron's
    // labels): one header per group, with a button per choice inside.
    let parts: Vec<(String, String)> = actions
        .iter()
        .filter_map(|a| words.battle_script_parts(a))
        .collect();
    let (what, args) = words.battle_script_parts(&spell).unwrap();
    drop(words);
    // The Casters' spells of 15.6.
    for spell in [
        "Shield (spell, grade 2)",
        "Teleport (spell, grade 3)",
        "Quake (spell, grade 3)",
    ] {
        assert!(
            parts.iter().any(|(w, _)| w.contains(spell)),
            "{spell} not offered: {parts:?}"
        );
    }
    let count = |w: &str| parts.iter().filter(|(x, _)| x == w).count();
    for (w, a) in &parts {
        let n = count(w);
        let shown = if n == 1 {
            if a.is_empty() {
                w.clone()
            } else {
                format!("{w}: {a}")
            }
        } else {
            format!("{w} ({n} choices)")
        };
        assert!(h.query_by_label(&shown).is_some(), "no button {shown:?}");
    }
    // Taken by clicking: its header, then its choice.
    let before = h.state().game().unwrap().session.history_len();
    let n = count(&what);
    if n == 1 {
        h.get_by_label(&if args.is_empty() {
            what.clone()
        } else {
            format!("{what}: {args}")
        })
        .click();
    } else {
        h.get_by_label(&format!("{what} ({n} choices)")).click();
        h.run_steps(2);
        h.get_by_label(&args).click();
    }
    h.run_steps(2);
    let g = h.state().game().unwrap();
    assert!(
        g.session.history_len() > before,
        "{what} {args} was not taken: {}",
        g.status
    );
}
