//! The scripting platform (docs/scripting.md): variables owned by the
//! engine, masterplay events with `ctx` and effects, script errors that
//! refuse an action without changing the game, and a Lua VM per game whose
//! globals are not game state.

mod common;

use std::sync::Arc;

use titan_core::format::VarValue;
use titan_core::game::random::random_action;
use titan_core::game::view::view;
use titan_core::game::{Action, Game, Phase, PlayerId};
use titan_core::rng::GameRng;
use titan_core::vars::VarTarget;

fn variant(name: &str) -> Arc<titan_core::Variant> {
    let dir = common::root().join("tests/fixtures").join(name);
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn names() -> Vec<String> {
    ["A", "B"].map(String::from).to_vec()
}

fn var(g: &Game, name: &str, of: VarTarget) -> VarValue {
    let def = g.variant.variable(name).unwrap();
    g.state.vars.get(def, of).clone()
}

/// Plays `n` random actions; an action a script fails is refused and the
/// game goes on (the fixture's `curse` always fails).
fn play(g: &mut Game, n: usize, seed: u64) {
    let mut rng = GameRng::new(seed);
    for _ in 0..n {
        let Some((p, a)) = random_action(g, &mut rng) else {
            break;
        };
        if let Err(e) = g.apply(p, &a) {
            assert!(e.is_script_failure(), "{a:?}: {e}");
        }
    }
}

#[test]
fn variables_live_in_the_state_saves_and_views() {
    let (mut g, _) = Game::new(variant("scripted"), Default::default(), &names(), 3).unwrap();
    // game_start ran once, at set-up.
    assert_eq!(var(&g, "started", VarTarget::Game), VarValue::Bool(true));
    play(&mut g, 400, 5);
    let VarValue::Int(turns) = var(&g, "turns", VarTarget::Game) else {
        panic!()
    };
    assert!(turns >= 2, "turns {turns}");
    let moves = |p| var(&g, "moves", VarTarget::Player(PlayerId(p)));
    assert!(matches!(moves(0), VarValue::Int(n) if n > 0));
    // A save replays to the same state, variables and hash included.
    let save = g.to_save();
    let back = Game::from_save(Arc::clone(&g.variant), &save).unwrap();
    assert_eq!(back.state, g.state);
    assert_eq!(back.state_hash(), g.state_hash());
    // Views: the owner sees his own `moves`, not the other's; nobody sees
    // `secret`; everyone sees `turns`.
    let v0 = view(&g, PlayerId(0));
    let seen: Vec<_> = v0
        .vars
        .iter()
        .map(|e| (e.variable.as_str(), e.of))
        .collect();
    assert!(seen.contains(&("moves", VarTarget::Player(PlayerId(0)))));
    assert!(!seen.contains(&("moves", VarTarget::Player(PlayerId(1)))));
    assert!(seen.contains(&("turns", VarTarget::Game)));
    assert!(!seen.iter().any(|(n, _)| *n == "secret"));
}

#[test]
fn a_variant_without_variables_saves_as_before() {
    let (mut g, _) = Game::new(variant("scripted"), Default::default(), &names(), 3).unwrap();
    let titan = common::root().join("variants/titan");
    let titan = Arc::new(titan_core::load(&titan, &common::options()).unwrap());
    let (mut t, _) = Game::new(titan, Default::default(), &names(), 3).unwrap();
    play(&mut t, 50, 5);
    let text = ron::to_string(&t.state).unwrap();
    assert!(!text.contains("vars"), "no variables, no field: {text}");
    // With variables, the field is there.
    play(&mut g, 50, 5);
    assert!(ron::to_string(&g.state).unwrap().contains("vars"));
}

#[test]
fn handlers_draw_from_the_game_generator_and_leave_it_advanced() {
    // The secret is drawn with math.random at each turn start: the game's
    // generator moves on, and a replay draws the same secrets.
    let (mut g, _) = Game::new(variant("scripted"), Default::default(), &names(), 9).unwrap();
    play(&mut g, 300, 2);
    let secret = var(&g, "secret", VarTarget::Game);
    assert_ne!(secret, VarValue::Int(0));
    let replay = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
    assert_eq!(var(&replay, "secret", VarTarget::Game), secret);
    assert_eq!(replay.fingerprint(), g.fingerprint());
}

#[test]
fn lua_globals_are_not_game_state() {
    // The script counts turn starts in a global. A game replayed in a new
    // VM (global at 0) and the original (global counted on, also through
    // refused actions) are the same game: the global reaches only the log.
    let (mut g, _) = Game::new(variant("scripted"), Default::default(), &names(), 4).unwrap();
    play(&mut g, 200, 8);
    let mut copy = g.clone(); // shares the VM, as the AI's search does
    play(&mut copy, 50, 1);
    let replay = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
    assert_eq!(replay.state, g.state);
}

/// Plays random actions to the end (or `n` of them) and returns the game.
fn play_out(mut g: Game, n: usize, seed: u64) -> Game {
    let mut rng = GameRng::new(seed);
    for _ in 0..n {
        if g.state.outcome.is_some() {
            break;
        }
        let Some((p, a)) = random_action(&g, &mut rng) else {
            break;
        };
        g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
    g
}

#[test]
fn a_game_started_on_an_earlier_games_scripts_plays_as_on_fresh_ones() {
    // A run of many games (simulate, tournament) starts the variant's VM
    // once: the second game, on the scripts the first left, takes the same
    // actions to the same state as on scripts started for it alone.
    let got = Arc::new(
        titan_core::load(
            &common::root().join("variants/gods-of-titan"),
            &common::options(),
        )
        .unwrap(),
    );
    let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
    let start = |seed| {
        Game::new(Arc::clone(&got), Default::default(), &names, seed)
            .unwrap()
            .0
    };
    // While a copy of a game (a computer player's) uses its VM, nobody
    // else may.
    let first = play_out(start(1), 3000, 1);
    let copy = first.clone();
    assert!(first.into_scripts().is_none());
    drop(copy);
    let scripts = play_out(start(1), 3000, 1)
        .into_scripts()
        .expect("the scripts, left clean");
    let (second, _) = Game::new_on(
        Arc::clone(&got),
        Default::default(),
        &names,
        2,
        Some(scripts),
    )
    .unwrap();
    let reused = play_out(second, 3000, 2);
    let fresh = play_out(start(2), 3000, 2);
    assert!(reused.history.len() > 100, "{}", reused.history.len());
    assert_eq!(reused.history, fresh.history);
    assert_eq!(reused.state, fresh.state);
    // Scripts of another variant are left: fresh ones start.
    let two: Vec<String> = ["A", "B"].map(String::from).to_vec();
    let (mut g, _) = Game::new_on(
        variant("scripted"),
        Default::default(),
        &two,
        4,
        reused.into_scripts(),
    )
    .unwrap();
    play(&mut g, 50, 4);
    assert!(!g.history.is_empty());
}

#[test]
fn a_failing_handler_refuses_the_action_and_the_game_goes_on() {
    let (mut g, _) = Game::new(variant("script-errors"), Default::default(), &names(), 1).unwrap();
    while g.state.phase == Phase::InitialSplit {
        let p = g.state.active;
        let a = g.legal_actions(p).remove(0);
        g.apply(p, &a).unwrap();
    }
    let p = g.state.active;
    g.apply(p, &Action::Roll { distance: None }).unwrap();
    let mv = g
        .legal_actions(p)
        .into_iter()
        .find(|a| matches!(a, Action::Move { .. }))
        .expect("a move is legal");
    let before = g.fingerprint();
    let e = g.apply(p, &mv).unwrap_err();
    assert!(e.is_script_failure(), "{e}");
    assert!(e.message.contains("failing.lua:4:"), "{e}");
    assert!(e.message.contains("holds Int values"), "{e}");
    assert_eq!(g.fingerprint(), before, "a refused action changes nothing");
    // The game goes on with other actions.
    g.apply(p, &Action::Mulligan).unwrap();
}

fn spells() -> Arc<titan_core::Variant> {
    let dir = common::root().join("variants/house-spells");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn set(g: &mut Game, name: &str, of: VarTarget, value: VarValue) {
    let def = g.variant.variable(name).unwrap().clone();
    g.state.vars.set(&def, of, value);
}

#[test]
fn mana_buys_a_second_movement_roll() {
    // variants/house-spells/README.md: spend 20 mana to re-roll the
    // movement die, before a legion has moved on that roll.
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel", "Ogre"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Move,
        roll: 3,
    )"#;
    let position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(spells()).unwrap();
    let reroll = Action::Script {
        name: "reroll".into(),
        args: vec![],
    };
    let p = PlayerId(0);
    // Without mana: not offered, and refused with its cost.
    assert!(!g.legal_actions(p).contains(&reroll));
    let e = g.apply(p, &reroll).unwrap_err();
    assert!(e.message.contains("costs 20 mana"), "{e}");
    set(&mut g, "mana", VarTarget::Player(p), VarValue::Int(25));
    assert!(g.legal_actions(p).contains(&reroll));
    // The other player may not, out of his turn.
    assert!(!g.legal_actions(PlayerId(1)).contains(&reroll));
    let events = g.apply(p, &reroll).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, titan_core::game::Event::Rolled { .. })),
        "{events:?}"
    );
    assert_eq!(var(&g, "mana", VarTarget::Player(p)), VarValue::Int(5));
    assert!(!g.legal_actions(p).contains(&reroll));
    // Mana is the owner's secret.
    let seen = |me| {
        view(&g, PlayerId(me))
            .vars
            .iter()
            .any(|e| e.variable == "mana")
    };
    assert!(seen(0));
    assert!(!seen(1));
    // After a move, no re-roll even with mana.
    set(&mut g, "mana", VarTarget::Player(p), VarValue::Int(40));
    let mv = g
        .legal_actions(p)
        .into_iter()
        .find(|a| matches!(a, Action::Move { .. }))
        .unwrap();
    g.apply(p, &mv).unwrap();
    assert!(!g.legal_actions(p).contains(&reroll));
    assert!(g.apply(p, &reroll).is_err());
}

#[test]
fn a_masterplay_cost_of_a_game_variable_is_paid_by_the_game() {
    // docs/scripting.md, "Actions", `cost`: a Game variable is one stock
    // for every player; the test variant's treasury holds one piece.
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel", "Ogre"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Move,
        roll: 3,
    )"#;
    let position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    let dir = common::root().join("tests/battle/variants/costs");
    let costs = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let mut g = position.to_game(costs).unwrap();
    let levy = Action::Script {
        name: "levy".into(),
        args: vec![],
    };
    let p = PlayerId(0);
    assert!(g.legal_actions(p).contains(&levy));
    g.apply(p, &levy).unwrap();
    assert_eq!(var(&g, "treasury", VarTarget::Game), VarValue::Int(0));
    assert!(!g.legal_actions(p).contains(&levy));
    let e = g.apply(p, &levy).unwrap_err();
    assert!(e.message.contains("costs 1 treasury"), "{e}");
    // Refilled, it pays again; the player's own mana is untouched.
    set(&mut g, "treasury", VarTarget::Game, VarValue::Int(2));
    g.apply(p, &levy).unwrap();
    assert_eq!(var(&g, "treasury", VarTarget::Game), VarValue::Int(1));
    assert_eq!(var(&g, "mana", VarTarget::Player(p)), VarValue::Int(3));
}

#[test]
fn mana_is_earned_ten_per_battle_won_and_spells_are_played() {
    // variants/house-spells/README.md: 10 mana per battle won. Random games
    // (the random player takes the variant's actions as any other) keep the
    // books: mana held + 20 per re-roll = 10 per battle won.
    let mut wins = 0;
    let mut spent = 0;
    let mut spells_cast = 0;
    let mut all_wins = 0;
    for seed in 0..6 {
        let (mut g, _) = Game::new(spells(), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed + 100);
        for _ in 0..3000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let events = g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            for e in &events {
                match e {
                    titan_core::game::Event::Battle { events } => {
                        for b in events {
                            match b {
                                titan_core::battle::BattleEvent::Ended(w)
                                    if *w != titan_core::battle::Winner::Neither =>
                                {
                                    wins += 1
                                }
                                titan_core::battle::BattleEvent::ScriptAction { .. } => {
                                    spells_cast += 1
                                }
                                _ => {}
                            }
                        }
                    }
                    titan_core::game::Event::ScriptAction { name, .. } if name == "reroll" => {
                        spent += 20
                    }
                    _ => {}
                }
            }
        }
        let held: i64 = (0..2)
            .map(|p| match var(&g, "mana", VarTarget::Player(PlayerId(p))) {
                VarValue::Int(n) => n,
                _ => 0,
            })
            .sum();
        assert_eq!(held + spent, 10 * wins, "seed {seed}");
        all_wins += wins;
        wins = 0;
        spent = 0;
    }
    assert!(all_wins > 0, "battles are won");
    assert!(spells_cast > 0, "the random player casts spells");
}

#[test]
fn the_engine_describes_variant_actions_returns_the_log_and_marks_script_errors() {
    // docs/protocol.md, "Variant actions" and "log".
    let position = r#"{"players": [{"name": "Ann", "tower": 100}, {"name": "Bob", "tower": 400}], "legions": [{"marker": "P1-01", "land": 100, "characters": ["Titan", "Ogre"]}, {"marker": "P2-01", "land": 400, "characters": ["Titan", "Ogre"]}], "active": 0, "phase": "Move", "roll": 2}"#;
    let lines = common::engine_session(
        &common::root(),
        None,
        &[
            format!(r#"{{"id": 1, "cmd": "load_position", "variant": "tests/fixtures/scripted", "position": {position}}}"#),
            r#"{"id": 2, "cmd": "legal_actions", "player": 0}"#.to_string(),
            r#"{"id": 3, "cmd": "apply", "player": 0, "action": {"action": "Script", "name": "bless", "args": [{"legion": "P1-01"}]}}"#.to_string(),
            r#"{"id": 4, "cmd": "apply", "player": 0, "action": {"action": "Script", "name": "bless", "args": [{"legion": "P1-01"}]}}"#.to_string(),
            r#"{"id": 5, "cmd": "apply", "player": 0, "action": {"action": "Script", "name": "curse", "args": []}}"#.to_string(),
            r#"{"id": 6, "cmd": "view", "player": 0}"#.to_string(),
        ],
    );
    let r: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(r[0]["ok"], true, "{}", lines[0]);
    let actions = r[1]["actions"].as_array().unwrap();
    assert!(
        actions.contains(
            &serde_json::json!({"action": "Script", "name": "bless", "args": [{"legion": "P1-01"}]})
        ),
        "{}",
        lines[1]
    );
    let bless = &r[1]["script_actions"]["bless"];
    assert_eq!(bless["label"], "Bless a legion");
    assert_eq!(bless["parameters"][0]["kind"], "Legion");
    assert_eq!(bless["when"], "Move");
    // Taken: its event, and the script's log with the response.
    assert_eq!(r[2]["ok"], true, "{}", lines[2]);
    assert_eq!(
        r[2]["log"],
        serde_json::json!(["blessing\tP1-01"]),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].contains(r#""event":"ScriptAction""#),
        "{}",
        lines[2]
    );
    // Once per turn: a rule refusal citing actions.ron.
    assert_eq!(r[3]["error"]["kind"], "rule", "{}", lines[3]);
    assert!(lines[3].contains("1 times per Turn"), "{}", lines[3]);
    // A script error is of kind "script", with the script and line.
    assert_eq!(r[4]["error"]["kind"], "script", "{}", lines[4]);
    assert!(lines[4].contains("events.lua:"), "{}", lines[4]);
    assert!(lines[4].contains("the curse backfires"), "{}", lines[4]);
    // The game went on: the blessing is in the view.
    assert!(lines[5].contains(r#""variable":"blessed""#), "{}", lines[5]);
}

#[test]
fn check_play_counts_the_variant_actions_taken() {
    // Whether random games reach a variant's own actions at all: house-spells'
    // Heal is cast in some of 20 games; titan has none to count.
    let out = common::titan(&["check", "variants/house-spells", "--play", "20"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("variant actions taken:"))
        .unwrap_or_else(|| panic!("{text}"));
    let n: u64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(line.contains("heal") && n > 0, "{line}");
    let out = common::titan(&["check", "variants/titan", "--play", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("variant actions taken"), "{text}");
}

#[test]
fn check_play_reports_script_errors_with_seed_and_action() {
    // `titan check --play N`: a variant author's smoke test.
    let out = common::titan(&[
        "check",
        "tests/fixtures/scripted",
        "variants/house-spells",
        "--play",
        "2",
        "--variants",
        "variants",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success(),
        "script errors fail the check: {text}"
    );
    assert!(
        text.contains("tests/fixtures/scripted/events.lua:37: the curse backfires"),
        "{text}"
    );
    assert!(text.contains("first with seed 0, action"), "{text}");
    // The action as `titan engine` writes it (docs/protocol.md).
    assert!(
        text.contains(r#"{"action":"Script","args":[],"name":"curse"} by player "#),
        "{text}"
    );
    assert!(text.contains("played 2 random games"), "{text}");
    assert!(text.contains("seed 1: "), "{text}");
    // house-spells plays clean.
    let spells = text
        .lines()
        .skip_while(|l| !l.starts_with("house-spells"))
        .nth(1)
        .unwrap_or_default();
    assert!(spells.contains("0 script errors"), "{text}");
}

#[test]
fn check_play_reports_a_legal_that_fails_while_actions_are_listed() {
    // docs/scripting.md, "Script errors in a game": a failing `legal` leaves
    // its action out of the list; `titan check --play` still reports it.
    let out = common::titan(&[
        "check",
        "tests/fixtures/failing-legal",
        "--play",
        "1",
        "--variants",
        "variants",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success(),
        "a failing legal fails the check: {text}"
    );
    assert!(
        text.contains("tests/fixtures/failing-legal/legal.lua:4: no gods listen"),
        "{text}"
    );
    assert!(text.contains("listing the legal actions"), "{text}");
    // README, "Simulating": a script error stops that game and is listed.
    let out = common::titan(&[
        "simulate",
        "games",
        "--variant",
        "tests/fixtures/failing-legal",
        "--n",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("listing the legal actions: script error: tests/fixtures/failing-legal/legal.lua:4: no gods listen"),
        "{text}"
    );
    // The same of a battle action's `legal`, in a battle fought alone.
    let out = common::titan(&[
        "simulate",
        "battles",
        "--variant",
        "tests/fixtures/failing-legal",
        "--n",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("listing the legal actions: script error: tests/fixtures/failing-legal/legal.lua:12: no curse takes"),
        "{text}"
    );
}

/// A battle action's `legal` that fails while a game's battle lists its
/// actions leaves the action out, and the game says so.
#[test]
fn a_battle_legal_that_fails_in_a_game_is_reported() {
    let v = variant("failing-legal");
    let names: Vec<String> = ["A", "B"].iter().map(|s| s.to_string()).collect();
    for seed in 0..20 {
        let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
        let mut pick = GameRng::new(seed);
        for _ in 0..3000 {
            let listed = random_action(&g, &mut pick);
            let _ = g.take_script_failure();
            if let Some(e) = g.take_battle_script_failure() {
                assert!(
                    e.to_string().contains("legal.lua:12: no curse takes"),
                    "{e}"
                );
                // Left out, not taken: the battle goes on.
                assert!(g.battle().is_some());
                return;
            }
            let Some((p, a)) = listed else { break };
            if g.apply(p, &a).is_err() {
                break;
            }
        }
    }
    panic!("no seed reached a strike phase");
}

#[test]
fn failing_handlers_refuse_their_action_and_games_go_on() {
    // docs/scripting.md, "Script errors in a game": an error, an illegal
    // effect, the instruction budget and the memory cap, each in a handler;
    // and a `legal` returning the wrong type.
    let v = variant("bad-handlers");
    let mut lines = std::collections::BTreeSet::new();
    for seed in 0..3 {
        let (mut g, _) = Game::new(Arc::clone(&v), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        let mut fails_in_a_row = 0;
        for _ in 0..800 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let before = g.fingerprint();
            match g.apply(p, &a) {
                Ok(_) => fails_in_a_row = 0,
                Err(e) => {
                    assert!(e.is_script_failure(), "{a:?}: {e}");
                    assert_eq!(g.fingerprint(), before, "{a:?}: a refusal changed the game");
                    let at = e
                        .message
                        .split("bad.lua:")
                        .nth(1)
                        .expect("names the script");
                    lines.insert(at.split(':').next().unwrap().to_string());
                    fails_in_a_row += 1;
                    if fails_in_a_row > 30 {
                        break;
                    }
                }
            }
        }
    }
    // The plain error and the illegal effect come in every game; the loop
    // and the memory at their lines too.
    for line in ["3", "7", "12", "18"] {
        assert!(lines.contains(line), "line {line} not hit: {lines:?}");
    }
    // The action whose legal fails is not offered; taken, it is refused.
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
    )"#;
    let position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(Arc::clone(&v)).unwrap();
    let oops = Action::Script {
        name: "oops".into(),
        args: vec![],
    };
    assert!(!g.legal_actions(PlayerId(0)).contains(&oops));
    let listed = g
        .take_script_failure()
        .expect("the listing met the failure");
    assert!(
        listed.to_string().contains("list of argument lists"),
        "{listed}"
    );
    let e = g.apply(PlayerId(0), &oops).unwrap_err();
    assert!(e.is_script_failure(), "{e}");
    g.apply(PlayerId(0), &Action::EndTurn).unwrap();
}

#[test]
fn a_step_hook_draws_the_game_dice_and_leaves_them_advanced() {
    // docs/scripting.md, "Randomness": game_over draws with math.random at
    // each end of turn from game turn 3; the end of turn that ends the game
    // (no turn begins after it) moved the game's generator on, and a
    // replay ends alike.
    let mut ended_by_hook = 0;
    for seed in 0..12 {
        let (mut g, _) =
            Game::new(variant("scripted"), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        let mut last = None;
        while g.state.outcome.is_none() {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let before = g.state.rng_pos;
            if g.apply(p, &a).is_ok() {
                last = Some((a, before, g.state.rng_pos));
            }
        }
        let Some((Action::EndTurn, before, after)) = last else {
            continue; // ended otherwise (a Titan slain, a concession)
        };
        ended_by_hook += 1;
        // The hook read the position from its ctx: the winner has the most
        // legions.
        let Some(titan_core::game::Outcome::Winner(w)) = &g.state.outcome else {
            panic!("{:?}", g.state.outcome)
        };
        let legions = |p: PlayerId| g.state.legions.iter().filter(|l| l.owner == p).count();
        assert!((0..2).all(|p| legions(PlayerId(p)) <= legions(*w)));
        assert!(after > before, "game_over's draw moved the generator on");
        let replay = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
        assert_eq!(replay.state, g.state);
    }
    assert!(ended_by_hook > 0);
}

#[test]
fn masterplay_effects_reveal_and_eliminate() {
    // docs/scripting.md, "Effects": ctx:reveal shows a legion to everybody;
    // ctx:eliminate puts a player out as a concession would.
    let dir = common::root().join("tests/battle/variants/effects");
    let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400), (name: "C", tower: 600)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Ogre", "Troll"]),
            (marker: "P3-01", land: 600, characters: ["Titan", "Lion"]),
        ],
        active: 0,
        phase: Move,
        roll: 2,
    )"#;
    let position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(v).unwrap();
    let a = PlayerId(0);
    // A spy: ctx:reveal(marker, seat) shows P3's legion to the acting
    // player alone; the others' views and events do not hold it.
    let spy = Action::Script {
        name: "spy".into(),
        args: vec![titan_core::script::ScriptArg::Legion(
            "P3-01".parse().unwrap(),
        )],
    };
    let events = g.apply(a, &spy).unwrap();
    let p3 = |me: u8| {
        view(&g, PlayerId(me))
            .legions
            .into_iter()
            .find(|l| l.marker.to_string() == "P3-01")
            .unwrap()
    };
    assert_eq!(
        p3(0).characters.map(|c| c.len()),
        Some(2),
        "the spy sees it"
    );
    assert_eq!(p3(1).characters, None, "the other player does not");
    assert!(p3(1).revealed.is_empty());
    let shown = |me: u8| {
        events
            .iter()
            .filter(|e| titan_core::game::view::event_seen_by(e, PlayerId(me)))
            .any(|e| matches!(e, titan_core::game::Event::Revealed { .. }))
    };
    assert!(
        shown(0) && !shown(1),
        "the reveal event goes to the spy alone"
    );
    // Hiring: ctx:add_character(marker, name) takes a character from the
    // caretaker into the legion, shown to everybody as a recruit is.
    let centaur = g.variant.character_by_name("Centaur").unwrap();
    let stock = g.state.caretaker[centaur.index()];
    let hire = Action::Script {
        name: "hire".into(),
        args: vec![
            titan_core::script::ScriptArg::Legion("P1-01".parse().unwrap()),
            titan_core::script::ScriptArg::Character(centaur),
        ],
    };
    assert!(g.legal_actions(a).contains(&hire));
    let events = g.apply(a, &hire).unwrap();
    let p1 = g.legion("P1-01".parse().unwrap()).unwrap();
    assert_eq!(p1.height(), 3);
    assert!(p1.characters.contains(&centaur));
    assert_eq!(g.state.caretaker[centaur.index()], stock - 1);
    assert!(events.iter().any(|e| matches!(
        e,
        titan_core::game::Event::Mustered { character, .. } if *character == centaur
    )));
    g.check_invariants().unwrap();
    // A full legion takes nobody: a script error, the game unchanged.
    for _ in 0..4 {
        g.apply(a, &hire).unwrap();
    }
    assert_eq!(g.legion("P1-01".parse().unwrap()).unwrap().height(), 7);
    let before = g.state.clone();
    let refused = g.apply(a, &hire).unwrap_err();
    assert!(refused.is_script_failure(), "{refused:?}");
    assert!(refused.to_string().contains("is full"), "{refused}");
    assert_eq!(g.state, before);
    let unmask = Action::Script {
        name: "unmask".into(),
        args: vec![titan_core::script::ScriptArg::Legion(
            "P2-01".parse().unwrap(),
        )],
    };
    assert!(g.legal_actions(a).contains(&unmask));
    g.apply(a, &unmask).unwrap();
    let third = view(&g, PlayerId(2));
    let p2 = third
        .legions
        .iter()
        .find(|l| l.marker.to_string() == "P2-01")
        .unwrap();
    assert_eq!(p2.revealed.len(), 3, "everybody sees the unmasked legion");
    let abdicate = Action::Script {
        name: "abdicate".into(),
        args: vec![],
    };
    g.apply(a, &abdicate).unwrap();
    assert!(!g.state.players[0].alive);
    assert!(g.legion("P1-01".parse().unwrap()).is_none());
    assert_ne!(g.state.active, a, "the next player's turn");
    g.check_invariants().unwrap();
}

#[test]
fn a_question_hook_reads_ctx_but_may_not_change_the_game() {
    // docs/scripting.md, "Masterplay": titan_power gets a read-only ctx.
    let (g, _) = Game::new(variant("script-errors"), Default::default(), &names(), 1).unwrap();
    // The view answers with the data's power, and says why.
    let v = view(&g, PlayerId(0));
    assert_eq!(v.players[0].titan_power, 6);
    let e = g.take_script_failure().expect("the hook failed");
    assert!(
        e.to_string()
            .contains("may read ctx but not request effects"),
        "{e}"
    );
}

#[test]
fn a_script_error_in_a_game_names_file_line_and_a_traceback() {
    // docs/scripting.md, "Script errors in a game": the refusal names the
    // script and line of the error and the script frames that led to it.
    let dir = common::root().join("tests/battle/variants/platform");
    let v =
        Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")));
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
    )"#;
    let position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    let mut g = position.to_game(Arc::clone(&v)).unwrap();
    let before = g.fingerprint();
    let fail = Action::Script {
        name: "deep_fail".into(),
        args: vec![],
    };
    let e = g.apply(PlayerId(0), &fail).unwrap_err();
    assert!(e.is_script_failure(), "{e}");
    assert_eq!(g.fingerprint(), before, "a refusal changed the game");
    let m = &e.message;
    assert!(m.contains("platform.lua:118: deep failure"), "{m}");
    let trace = m
        .split("stack traceback:")
        .nth(1)
        .unwrap_or_else(|| panic!("no traceback: {m}"));
    // Innermost first: the error's line, its caller, the action's apply.
    let lines: Vec<&str> = trace
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(lines.len() >= 3, "{m}");
    for (frame, line) in lines.iter().zip(["118", "119", "120"]) {
        assert!(
            frame.contains(&format!("platform.lua:{line}: in ")),
            "{frame} in {m}"
        );
    }
}

#[test]
fn a_mustering_hook_reads_the_game_through_titan_ctx() {
    // docs/scripting.md, "Masterplay": a mustering Hook gets the position's
    // ctx from titan.ctx() (tests/fixtures/muster-hook asserts on it; an
    // error there would refuse the Ranger).
    let v = variant("muster-hook");
    let pos = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 8, characters: ["Ogre", "Ogre", "Troll", "Lion", "Lion"], moved: true),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
    )"#;
    let position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    let g = position.to_game(Arc::clone(&v)).unwrap();
    let ranger = v.character_by_name("Ranger").unwrap();
    let legal = g.legal_actions(PlayerId(0));
    assert!(g.take_script_failure().is_none());
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, Action::Muster { recruit, .. } if *recruit == ranger)),
        "{legal:?}"
    );
}

#[test]
fn character_slain_and_the_engagement_reach_scripts() {
    // docs/scripting.md, "Events": `character_slain` fires for each character
    // a legion loses (battle, flight, concession, a Titan's fall), with
    // `by_player` when it fell in the engagement being resolved;
    // `ctx:engagement()` names that engagement. The fixture's games end at
    // random from turn 3, so several are played.
    use titan_core::game::Event;
    let mut total_battles = 0;
    for seed in 1..=12 {
        let (mut g, _) =
            Game::new(variant("scripted"), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        let (mut lost, mut slew, mut battles) = ([0i64; 2], [0i64; 2], 0i64);
        for _ in 0..6000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let engagement = g.state.engagement.clone();
            let Ok(events) = g.apply(p, &a) else {
                continue;
            };
            for e in &events {
                match e {
                    Event::Slain {
                        legion, characters, ..
                    } => {
                        let n = characters.len() as i64;
                        lost[legion.player.0 as usize] += n;
                        if let Some(en) = &engagement {
                            if en.attacker == *legion {
                                slew[en.defender.player.0 as usize] += n;
                            } else if en.defender == *legion {
                                slew[en.attacker.player.0 as usize] += n;
                            }
                        }
                    }
                    Event::BattleBegins { .. } => battles += 1,
                    _ => {}
                }
            }
        }
        assert!(g.take_script_failure().is_none());
        for p in 0..2u8 {
            let at = VarTarget::Player(PlayerId(p));
            assert_eq!(
                var(&g, "lost", at),
                VarValue::Int(lost[p as usize]),
                "seed {seed} seat {p}"
            );
            assert_eq!(
                var(&g, "slew", at),
                VarValue::Int(slew[p as usize]),
                "seed {seed} seat {p}"
            );
        }
        assert_eq!(var(&g, "battles", VarTarget::Game), VarValue::Int(battles));
        total_battles += battles;
    }
    assert!(total_battles > 0);
}

#[test]
fn an_events_handlers_share_its_instruction_budget() {
    // docs/scripting.md, "Limits": one budget per event, shared by its
    // handlers; and "Events": a filtered handler runs only when its
    // filter matches. Each handler of tests/fixtures/event-budget spends
    // about 60% of the budget; the second only in strike phases.
    let v = variant("event-budget");
    let position = |phase: &str| -> titan_core::battle::Position {
        titan_core::load::ron_options()
            .from_str(&format!(
                r#"(
                battleland: "Plains",
                attacker_edge: SouthWest,
                moving: Attacker,
                phase: {phase},
                attacker: [(character: "Ogre", hex: "A1")],
                defender: [(character: "Troll", hex: "F4")],
            )"#
            ))
            .unwrap()
    };
    let mut b =
        titan_core::battle::Battle::from_position(&v, &position("Maneuver"), GameRng::new(1))
            .unwrap();
    b.fire_event("battle_phase_start")
        .expect("one handler fits the budget");
    // Ending the maneuver phase starts the strike phase: both run, and the
    // action is refused.
    let before = b.fingerprint();
    match b.apply(titan_core::battle::Action::EndManeuver) {
        Err(titan_core::battle::BattleError::Script(e)) => {
            assert_eq!(
                e.kind,
                titan_core::lua::ScriptErrorKind::InstructionBudget,
                "{e}"
            );
            assert!(e.script.ends_with("budget.lua"), "{e}");
            // In the second handler's loop (line 6 of the shared function).
            assert_eq!(e.line, Some(6), "{e}");
        }
        other => panic!("the second handler must run out: {other:?}"),
    }
    assert_eq!(b.fingerprint(), before, "a refused action changes nothing");
}

#[test]
fn a_script_replacing_library_functions_does_not_reach_the_engines_lua() {
    // The sandbox (docs/scripting.md, "Sandbox"): a script may replace
    // `string.format`, `type`, `load` and the like for itself; the ctx and
    // the event dispatchers the engine builds in Lua keep the originals.
    let v = variant("vandal");
    let position: titan_core::battle::Position = titan_core::load::ron_options()
        .from_str(
            r#"(
            battleland: "Plains",
            attacker_edge: SouthWest,
            moving: Attacker,
            phase: Strike,
            attacker: [(character: "Ogre", hex: "C3")],
            defender: [(character: "Troll", hex: "C4")],
        )"#,
        )
        .unwrap();
    let mut b = titan_core::battle::Battle::from_position(&v, &position, GameRng::new(1)).unwrap();
    // The Ogre is in contact and must strike first; then the phase ends.
    let strike = b
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, titan_core::battle::Action::Strike { .. }))
        .expect("a strike");
    b.apply(strike).expect("the strike");
    let ended = b.apply(titan_core::battle::Action::EndStrikes);
    assert!(
        ended.is_ok(),
        "the handler ran with the engine's own functions: {ended:?}"
    );
}

/// A game of the `house-options` fixture at `pos` with these option
/// settings (none: every option at its default).
fn options_game(pos: &str, options: &[(&str, i64)]) -> Game {
    let mut position: titan_core::game::save::Position =
        titan_core::load::ron_options().from_str(pos).unwrap();
    for (name, value) in options {
        position.options.insert(
            name.to_string(),
            titan_core::format::OptionValue::Int(*value),
        );
    }
    position.to_game(variant("house-options")).unwrap()
}

#[test]
fn scripts_read_the_games_options_else_their_defaults() {
    // docs/scripting.md, `ctx:option`: the variant's own options reach a
    // handler (game_start), an action (legal and apply) and a battle
    // handler; the game's setting wins over the default.
    let opts = |head_start: i64| {
        let mut o = std::collections::BTreeMap::new();
        o.insert(
            "head_start".to_string(),
            titan_core::format::OptionValue::Int(head_start),
        );
        o
    };
    let scores = |g: &Game| g.state.players.iter().map(|p| p.score).collect::<Vec<_>>();
    let v = variant("house-options");
    let (g, _) = Game::new(Arc::clone(&v), Default::default(), &names(), 1).unwrap();
    assert_eq!(scores(&g), [0, 0], "head_start is 0 by default");
    let (g, _) = Game::new(Arc::clone(&v), opts(40), &names(), 1).unwrap();
    assert_eq!(scores(&g), [40, 40], "the game's head_start");
    // A save replays with its options, and scores alike.
    let back = Game::from_save(Arc::clone(&v), &g.to_save()).unwrap();
    assert_eq!(scores(&back), [40, 40]);

    let moving = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 100, characters: ["Titan", "Angel"]),
            (marker: "P2-01", land: 400, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Move,
        roll: 3,
    )"#;
    let tithe = Action::Script {
        name: "tithe".into(),
        args: vec![],
    };
    let mut g = options_game(moving, &[]);
    assert!(g.legal_actions(PlayerId(0)).contains(&tithe));
    g.apply(PlayerId(0), &tithe).unwrap();
    assert_eq!(g.state.players[0].score, 5, "the tithe's default");
    let mut g = options_game(moving, &[("tithe", 12)]);
    g.apply(PlayerId(0), &tithe).unwrap();
    assert_eq!(g.state.players[0].score, 12, "the game's tithe");
    // Set to 0, the action's legal says no.
    let mut g = options_game(moving, &[("tithe", 0)]);
    assert!(!g.legal_actions(PlayerId(0)).contains(&tithe));
    assert!(g.apply(PlayerId(0), &tithe).is_err());

    // A battle fought in the game reads the game's options; by default the
    // reinforcement comes in the rules' round.
    let engaged = r#"(
        players: [(name: "A", tower: 100), (name: "B", tower: 400)],
        legions: [
            (marker: "P1-01", land: 20, characters: ["Titan", "Ogre", "Gargoyle"], moved: true, entered_from: 19),
            (marker: "P2-01", land: 20, characters: ["Angel", "Gargoyle", "Lion"]),
        ],
        active: 0,
        phase: Engage,
        turn: 4,
    )"#;
    let reinforcement_round = |options: &[(&str, i64)]| {
        let mut g = options_game(engaged, options);
        let land = g.legion("P1-01".parse().unwrap()).unwrap().land;
        g.apply(PlayerId(0), &Action::Engage { land }).unwrap();
        g.apply(PlayerId(1), &Action::Fight).unwrap();
        // The defender brings its characters on and ends its first
        // maneuver: its strike phase begins.
        while let Some(enter) = g.legal_actions(PlayerId(1)).into_iter().find(|a| {
            matches!(
                a,
                Action::Battle {
                    battle: titan_core::battle::Action::Move { .. }
                }
            )
        }) {
            g.apply(PlayerId(1), &enter).unwrap();
        }
        let end = titan_core::battle::Action::EndManeuver;
        g.apply(PlayerId(1), &Action::Battle { battle: end })
            .unwrap();
        assert!(g.take_script_failure().is_none());
        g.battle().expect("a battle").reinforcement_round()
    };
    let rules_round = v.data.rules.battle.as_ref().unwrap().reinforcement_maneuver;
    assert_ne!(rules_round, 5);
    assert_eq!(reinforcement_round(&[]), rules_round);
    assert_eq!(reinforcement_round(&[("late_reinforcement", 5)]), 5);
}

#[test]
fn reading_an_undeclared_option_is_a_script_error_naming_the_declared_ones() {
    // docs/scripting.md, `ctx:option`: a misspelt name is no silent nil.
    let e = Game::new(variant("options-typo"), Default::default(), &names(), 1).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("typo.lua:3:"), "{text}");
    assert!(text.contains("no option \"pointlimit\""), "{text}");
    assert!(
        text.contains("\"point_limt\""),
        "names the declared options: {text}"
    );
}

#[test]
fn a_handler_with_a_unit_filter_runs_only_when_such_a_unit_is_there() {
    // docs/scripting.md, "Events": `unit = { ... }` in a battle event's
    // filter (checked by the engine before anything crosses into Lua).
    // Each handler of tests/fixtures/unit-filter fails when it runs.
    let v = variant("unit-filter");
    let try_battle_on = |land: &str, phase: &str, attacker: &str, defender: &str| {
        let position: titan_core::battle::Position = titan_core::load::ron_options()
            .from_str(&format!(
                r#"(
                battleland: "{land}",
                attacker_edge: SouthWest,
                moving: Attacker,
                phase: {phase},
                attacker: [{attacker}],
                defender: [{defender}],
            )"#
            ))
            .unwrap();
        titan_core::battle::Battle::from_position(&v, &position, GameRng::new(1))
    };
    let battle_on = |land: &str, phase: &str, attacker: &str, defender: &str| {
        try_battle_on(land, phase, attacker, defender).unwrap()
    };
    let battle = |attacker: &str, defender: &str| battle_on("Plains", "Strike", attacker, defender);
    // (attacker, defender, event, what the handler that ran says; None:
    // none ran).
    let cases = [
        // An unhurt Troll: the first handler is not called; a hurt one: it is.
        (
            r#"(character: "Troll", hex: "A1")"#,
            r#"(character: "Ogre", hex: "F4")"#,
            "unit_moved",
            None,
        ),
        (
            r#"(character: "Ogre", hex: "A1")"#,
            r#"(character: "Troll", hex: "F4", damage: 1)"#,
            "unit_moved",
            Some("a damaged Troll"),
        ),
        // The end of the attacker's strike phase: a lord of the attacker's
        // side is needed; the defender's Titan does not count.
        (
            r#"(character: "Ogre", hex: "A1")"#,
            r#"(character: "Titan", hex: "F4")"#,
            "battle_phase_end",
            None,
        ),
        (
            r#"(character: "Titan", hex: "A1")"#,
            r#"(character: "Ogre", hex: "F4")"#,
            "battle_phase_end",
            Some("a living lord of attacker"),
        ),
    ];
    for (attacker, defender, event, says) in cases {
        let ran = match battle(attacker, defender).fire_event(event) {
            Ok(_) => None,
            Err(titan_core::battle::BattleError::Script(e)) => Some(e.message),
            Err(e) => panic!("{e}"),
        };
        match (says, ran) {
            (None, None) => {}
            (Some(says), Some(m)) => assert!(m.contains(says), "{attacker} {defender}: {m}"),
            (says, ran) => panic!("{attacker} {defender} {event}: {says:?} expected, {ran:?} ran"),
        }
    }
    let fails = |b: &mut titan_core::battle::Battle, event: &'static str| match b.fire_event(event)
    {
        Ok(_) => None,
        Err(titan_core::battle::BattleError::Script(e)) => Some(e.message),
        Err(e) => panic!("{e}"),
    };
    // A list of names: any of them.
    let (ogre, troll) = (
        r#"(character: "Ogre", hex: "A1")"#,
        r#"(character: "Troll", hex: "F4")"#,
    );
    let cyclops = r#"(character: "Cyclops", hex: "F4")"#;
    assert_eq!(fails(&mut battle(ogre, troll), "unit_entered"), None);
    let m = fails(&mut battle(ogre, cyclops), "unit_entered").unwrap();
    assert!(m.contains("a Gorgon or a Cyclops"), "{m}");
    // A list of filters, and `set`: no Hydra, and unit 0 marked only once
    // a maneuver phase has ended.
    let mut b = battle_on("Plains", "Maneuver", ogre, troll);
    assert_eq!(fails(&mut b, "battle_phase_start"), None);
    assert_eq!(fails(&mut b, "battle_phase_end"), None);
    let m = fails(&mut b, "battle_phase_start").unwrap();
    assert!(m.contains("a Hydra or a marked unit"), "{m}");
    let hydra = r#"(character: "Hydra", hex: "F4")"#;
    // (A battle set up from a position starts with the phase's start.)
    let m = match try_battle_on("Plains", "Strike", ogre, hydra) {
        Err(titan_core::battle::BattleError::Script(e)) => e.message,
        other => panic!("{:?}", other.map(|_| ())),
    };
    assert!(m.contains("a Hydra or a marked unit"), "{m}");
    // A hazard of the battleland: the Plains have none of those, the
    // Woods have trees and the Desert dunes (hexsides).
    assert_eq!(fails(&mut battle(ogre, troll), "unit_slain"), None);
    for land in ["Woods", "Desert"] {
        let m = fails(&mut battle_on(land, "Strike", ogre, troll), "unit_slain").unwrap();
        assert!(m.contains("trees or dunes"), "{land}: {m}");
    }
}

#[test]
fn a_unit_filter_is_refused_where_it_means_nothing() {
    // A masterplay event has no units; `side = "event"` needs an event
    // that names a side; a unit filter is a table of known fields.
    for (code, says) in [
        (
            "titan.on('turn_start', { unit = { character = 'Troll' } }, function(ctx) end)",
            "has no filter field \"unit\"",
        ),
        (
            "titan.on('before_strike', { unit = { side = 'event' } }, function(ctx) end)",
            "is one of \"attacker\", \"defender\", not \"event\"",
        ),
        (
            "titan.on('battle_phase_end', { unit = 'Troll' }, function(ctx) end)",
            "is a table such as",
        ),
        (
            "titan.on('battle_phase_end', { unit = { damaged = 1 } }, function(ctx) end)",
            "is true or false, not an integer",
        ),
        (
            "titan.on('battle_phase_end', { unit = { character = {} } }, function(ctx) end)",
            "is a name or a list of names",
        ),
        (
            "titan.on('battle_phase_end', { unit = { { set = 'a' }, side = 'attacker' } }, function(ctx) end)",
            "one table of fields or a list of such tables, not both",
        ),
        (
            "titan.on('battle_phase_end', { hazard = 3 }, function(ctx) end)",
            "is a hazard's name or a list of names",
        ),
        (
            "titan.on('turn_start', { hazard = 'Tree' }, function(ctx) end)",
            "has no filter field \"hazard\"",
        ),
        (
            "titan.on('may_target', { rangestrike = 'yes' }, function(ctx) end)",
            "is one of \"false\", \"true\", not \"yes\"",
        ),
    ] {
        // The engine's events, as the script platform gives them.
        let mut host = titan_core::lua::LuaHost::with_events(
            titan_core::lua::LuaLimits::default(),
            std::rc::Rc::new(std::cell::RefCell::new(GameRng::new(1))),
            &titan_core::script::EVENT_CATALOG,
        )
        .unwrap();
        let e = host
            .load_script(&titan_core::lua::ScriptSource {
                name: "f.lua".into(),
                code: code.into(),
            })
            .unwrap_err();
        assert!(e.message.contains(says), "{code}: {e}");
    }
}

#[test]
fn titan_check_names_what_an_actions_requires_does_not_have() {
    // docs/scripting.md, "Actions", `requires`: its names are checked.
    let src = common::root().join("tests/battle/variants/costs");
    let dir = tempfile::tempdir().unwrap();
    for f in ["variant.ron", "variables.ron", "costs.lua"] {
        std::fs::copy(src.join(f), dir.path().join(f)).unwrap();
    }
    std::fs::write(
        dir.path().join("actions.ron"),
        r#"[
    (name: "charge", label: "Charge", who: AnyUnit, when: Maneuver,
     cost: (variable: "stamina", amount: 1),
     requires: (actor: (class: ["wizard"]), none: [(side: "near", set: "nothing")])),
    (name: "inspire", label: "Inspire", who: AnyUnit, when: Maneuver,
     cost: (variable: "mana", amount: 2)),
    (name: "tithe", label: "Tithe", who: AnyUnit, when: Maneuver,
     cost: (variable: "treasury", amount: 1)),
    (name: "levy", label: "Levy", who: Player, when: Move,
     cost: (variable: "treasury", amount: 1),
     requires: (actor: (alive: true), legion_on: ["Moon"], legion_set: "stamina")),
]"#,
    )
    .unwrap();
    let errors = titan_core::load(dir.path(), &common::options()).unwrap_err();
    let text: String = errors.iter().map(|d| format!("{d}\n")).collect();
    for needle in [
        "requires: no class \"wizard\"",
        "side is \"own\" or \"enemy\"",
        "requires: no variable \"nothing\"",
        "actor and none are for battle actions",
        "requires: no terrain \"Moon\"",
        "legion_set names a variable of scope Legion",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}
