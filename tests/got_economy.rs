//! Gods of Titan: spending Lifegems (`variants/gods-of-titan/scripts/hire.lua`,
//! the actions `hire`, `summon_demilord`, `revive_demilord` and
//! `revive_demilord_later` of `actions.ron`).
//!
//! - 22.4 (EN 472-474, DE 1408-1418): "The players may hire Humans from their
//!   Personal Pool into one of the Legions standing in the City or Dungeon,
//!   by paying Lifegems during their Mustering Phase. The prices are listed
//!   under 16.5" (EN 989-1005: "Novice (free)", Knight and Amazon 50, Pixie
//!   and Aquarian 75, Priestess and Warlord 100, Priest 150; DE 2431-2461);
//!   "A Legion doesn't have to move prior to mustering in the City or
//!   Dungeon"; "Only one character may be mustered there per Game-Turn".
//! - 22.4 (EN 476, DE 1419-1421): "Slain Demilords can be summoned from the
//!   Personal Pool into a Legion in the City or Dungeon by sacrificing 200
//!   Lifegems"; the Locker 400 (16.5, EN 1021).
//! - 19.1 (EN 430, DE 1265-1275): the winner may revive each slain Demilord
//!   for 50 Lifegems into the winning legion, not beyond the legion size.
//! - 22.2, 4.3 (EN 470, 107): a full legion musters nothing; one of each
//!   Human and Demilord in a legion.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::format::VarValue;
use titan_core::game::save::Position;
use titan_core::game::{Action, Game, Marker, Phase, PlayerId};
use titan_core::script::ScriptArg;
use titan_core::vars::VarTarget;

fn got() -> Arc<Variant> {
    Arc::new(
        titan_core::load(
            &common::root().join("variants/gods-of-titan"),
            &common::options(),
        )
        .unwrap(),
    )
}

const ANN: PlayerId = PlayerId(0);

/// Three players, Ann to muster in game turn 11; her legion P1-01 holds
/// `city` and stands on `land` (1 the City, 2 the Dungeon), P1-02 on land
/// 302 (Hills); Ann has `gems` Lifegems. No legion has moved (22.4: none
/// need).
fn game_at(v: &Arc<Variant>, land: u32, city: &[&str], gems: i64) -> Game {
    let city: Vec<String> = city.iter().map(|c| format!("{c:?}")).collect();
    let text = format!(
        r#"(
        seed: 9,
        players: [(name: "Ann", tower: 307), (name: "Bob", tower: 319), (name: "Cid", tower: 331)],
        legions: [
            (marker: "P1-01", land: {land}, characters: [{}]),
            (marker: "P1-02", land: 302, characters: ["Ogre", "Ogre", "Centaur"]),
            (marker: "P2-01", land: 319, characters: ["Titan", "Angel"]),
            (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
        ],
        active: 0,
        phase: Muster,
        turn: 11,
    )"#,
        city.join(", ")
    );
    let p: Position = titan_core::load::ron_options().from_str(&text).unwrap();
    let mut g = p.to_game(Arc::clone(v)).unwrap();
    set_gems(&mut g, 0, gems);
    g
}

fn game(v: &Arc<Variant>, city: &[&str], gems: i64) -> Game {
    game_at(v, 1, city, gems)
}

fn set_gems(g: &mut Game, seat: u8, gems: i64) {
    let def = g.variant.variable("lifegems").unwrap().clone();
    g.state
        .vars
        .set(&def, VarTarget::Player(PlayerId(seat)), VarValue::Int(gems));
}

fn gems(g: &Game, seat: u8) -> i64 {
    let def = g.variant.variable("lifegems").unwrap();
    match g.state.vars.get(def, VarTarget::Player(PlayerId(seat))) {
        VarValue::Int(n) => *n,
        other => panic!("{other:?}"),
    }
}

fn marker(m: &str) -> Marker {
    m.parse().unwrap()
}

fn script(v: &Variant, name: &str, legion: &str, character: &str) -> Action {
    Action::Script {
        name: name.into(),
        args: vec![
            ScriptArg::Legion(marker(legion)),
            ScriptArg::Character(v.character_by_name(character).unwrap()),
        ],
    }
}

/// The (legion, character) pairs of the legal actions `name` of `seat`.
fn offered(g: &Game, seat: PlayerId, name: &str) -> Vec<(String, String)> {
    g.legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Script { name: n, args } if n == name => match args.as_slice() {
                [ScriptArg::Legion(m), ScriptArg::Character(c)] => {
                    Some((m.to_string(), g.variant.character(*c).name.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn characters(g: &Game, legion: &str) -> Vec<String> {
    g.state
        .legions
        .iter()
        .find(|l| l.marker.to_string() == legion)
        .map(|l| {
            l.characters
                .iter()
                .map(|&c| g.variant.character(c).name.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn caretaker(g: &Game, name: &str) -> u32 {
    g.state.caretaker[g.variant.character_by_name(name).unwrap().index()]
}

fn names(list: &[(String, String)]) -> Vec<String> {
    list.iter().map(|(_, c)| c.clone()).collect()
}

#[test]
fn a_human_is_hired_in_the_city_for_its_price_in_lifegems() {
    let v = got();
    // 22.4, EN 474: "by paying Lifegems"; 16.5, EN 989-1005: the prices.
    let mut g = game(&v, &["Titan", "Ogre"], 40);
    // 40 Lifegems: only the free Novice (EN 989 "Novice (free)").
    assert_eq!(names(&offered(&g, ANN, "hire")), ["Novice"]);
    let before = g.state_hash();
    let warlord = script(&v, "hire", "P1-01", "Warlord");
    let err = g.apply(ANN, &warlord).unwrap_err();
    assert!(err.message.contains("is not a choice"), "{}", err.message);
    assert_eq!(
        g.state_hash(),
        before,
        "a refused hire leaves the game as it was"
    );
    assert_eq!(gems(&g, 0), 40);

    // 100: the Warlord (EN 1003 "Warlord (100 Lifegems)").
    let mut g = game(&v, &["Titan", "Ogre"], 100);
    let mut list = names(&offered(&g, ANN, "hire"));
    list.sort();
    assert_eq!(
        list,
        [
            "Amazon",
            "Aquarian",
            "Knight",
            "Novice",
            "Pixie",
            "Priestess",
            "Warlord"
        ],
        "all but the Priest (150)"
    );
    let left = caretaker(&g, "Warlord");
    g.apply(ANN, &warlord).unwrap();
    assert_eq!(gems(&g, 0), 0, "the price paid");
    assert!(characters(&g, "P1-01").contains(&"Warlord".to_string()));
    assert_eq!(caretaker(&g, "Warlord"), left - 1);

    // 150: the Priest; the Novice free (EN 1005, 989).
    let mut g = game(&v, &["Titan", "Ogre"], 150);
    g.apply(ANN, &script(&v, "hire", "P1-01", "Priest"))
        .unwrap();
    assert_eq!(gems(&g, 0), 0);
    let mut g = game(&v, &["Titan", "Ogre"], 0);
    g.apply(ANN, &script(&v, "hire", "P1-01", "Novice"))
        .unwrap();
    assert_eq!(gems(&g, 0), 0);
    assert!(characters(&g, "P1-01").contains(&"Novice".to_string()));
}

#[test]
fn one_character_a_turn_is_mustered_in_the_city() {
    // 22.4, EN 472: "Only one character may be mustered there per
    // Game-Turn" (DE 1412-1413: one per legion and mustering phase).
    let v = got();
    let mut g = game(&v, &["Titan", "Ogre"], 1000);
    g.apply(ANN, &script(&v, "hire", "P1-01", "Novice"))
        .unwrap();
    assert!(offered(&g, ANN, "hire").is_empty());
    assert!(offered(&g, ANN, "summon_demilord").is_empty());
    let before = g.state_hash();
    assert!(
        g.apply(ANN, &script(&v, "hire", "P1-01", "Knight"))
            .is_err()
    );
    assert!(
        g.apply(ANN, &script(&v, "summon_demilord", "P1-01", "Warlock"))
            .is_err()
    );
    assert_eq!(g.state_hash(), before);
    assert_eq!(gems(&g, 0), 1000);
}

#[test]
fn humans_are_hired_in_the_city_and_the_dungeon_only() {
    let v = got();
    // P1-02 stands on the Hills (302): no hire for it.
    let g = game(&v, &["Titan", "Ogre"], 500);
    assert!(offered(&g, ANN, "hire").iter().all(|(m, _)| m == "P1-01"));
    let mut g = game(&v, &["Titan", "Ogre"], 500);
    assert!(
        g.apply(ANN, &script(&v, "hire", "P1-02", "Novice"))
            .is_err()
    );
    // The Dungeon (land 2) as the City (22.4: "in the City or Dungeon").
    let mut g = game_at(&v, 2, &["Titan", "Ogre"], 50);
    g.apply(ANN, &script(&v, "hire", "P1-01", "Amazon"))
        .unwrap();
    assert_eq!(gems(&g, 0), 0);
}

#[test]
fn a_full_legion_hires_nobody_and_a_legion_holds_one_of_each_human() {
    let v = got();
    // 22.2, EN 470: "Legions which presently contain the maximum Legion
    // size cannot muster" (7, 4.2; the Titan is not counted).
    let full = [
        "Titan", "Ogre", "Ogre", "Ogre", "Ogre", "Ogre", "Ogre", "Ogre",
    ];
    let mut g = game(&v, &full, 500);
    assert!(offered(&g, ANN, "hire").is_empty());
    assert!(offered(&g, ANN, "summon_demilord").is_empty());
    let before = g.state_hash();
    assert!(
        g.apply(ANN, &script(&v, "hire", "P1-01", "Novice"))
            .is_err()
    );
    assert_eq!(g.state_hash(), before);
    // One short of full: one more.
    let g = game(&v, &full[..7], 500);
    assert!(!offered(&g, ANN, "hire").is_empty());
    // 4.3, EN 107: "all other characters, except Creatures, may occur only
    // once per Legion" (per_legion 1 of the class human).
    let g = game(&v, &["Titan", "Novice"], 500);
    assert!(
        !names(&offered(&g, ANN, "hire"))
            .iter()
            .any(|c| c == "Novice")
    );
}

#[test]
fn a_demilord_is_summoned_for_two_hundred_lifegems() {
    // 22.4, EN 476: "by sacrificing 200 Lifegems"; the Locker 400 (EN 1021).
    let v = got();
    let g = game(&v, &["Titan", "Ogre"], 199);
    assert!(offered(&g, ANN, "summon_demilord").is_empty());
    let mut g = game(&v, &["Titan", "Ogre"], 200);
    let list = names(&offered(&g, ANN, "summon_demilord"));
    assert!(list.contains(&"Warlock".to_string()));
    assert!(
        !list.contains(&"Locker".to_string()),
        "the Locker costs 400"
    );
    assert!(
        !list.contains(&"Immortal".to_string()),
        "it stays in its Ruin"
    );
    let left = caretaker(&g, "Warlock");
    g.apply(ANN, &script(&v, "summon_demilord", "P1-01", "Warlock"))
        .unwrap();
    assert_eq!(gems(&g, 0), 0);
    assert!(characters(&g, "P1-01").contains(&"Warlock".to_string()));
    assert_eq!(caretaker(&g, "Warlock"), left - 1);
    // ... and then nothing more this turn (one character a turn).
    assert!(offered(&g, ANN, "hire").is_empty());
    let mut g = game(&v, &["Titan", "Ogre"], 400);
    g.apply(ANN, &script(&v, "summon_demilord", "P1-01", "Locker"))
        .unwrap();
    assert_eq!(gems(&g, 0), 0);
}

/// Ann's legion P1-02 (`ann`) at 302 and Bob's P2-02 (`bob`) one land away;
/// Ann moves onto it and picks the engagement. Ann has `gems`.
fn engaged(v: &Arc<Variant>, ann: &[&str], bob: &[&str], gems: i64) -> Game {
    let list = |l: &[&str]| {
        l.iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = |bob_land: u32| {
        format!(
            r#"(
            seed: 9,
            players: [(name: "Ann", tower: 307), (name: "Bob", tower: 319), (name: "Cid", tower: 331)],
            legions: [
                (marker: "P1-01", land: 307, characters: ["Titan", "Angel"]),
                (marker: "P1-02", land: 302, characters: [{}]),
                (marker: "P2-01", land: 319, characters: ["Titan", "Angel"]),
                (marker: "P2-02", land: {bob_land}, characters: [{}]),
                (marker: "P3-01", land: 331, characters: ["Titan", "Angel"]),
            ],
            active: 0,
            phase: Move,
            turn: 11,
        )"#,
            list(ann),
            list(bob)
        )
    };
    let mk = |land: u32| {
        let p: Position = titan_core::load::ron_options()
            .from_str(&text(land))
            .unwrap();
        p.to_game(Arc::clone(v)).unwrap()
    };
    let probe = mk(2);
    let from = probe
        .state
        .legions
        .iter()
        .find(|l| l.marker.to_string() == "P1-02")
        .unwrap()
        .land;
    let empty = vec![titan_core::game::Occupancy::Empty; v.board.land_count()];
    let to = probe.exits.moves(from, 1, &empty)[0].land;
    let mut g = mk(v.board.land(to).number);
    set_gems(&mut g, 0, gems);
    set_gems(&mut g, 1, gems);
    let m = g
        .legal_actions(ANN)
        .into_iter()
        .find(|a| matches!(a, Action::Move { legion, to: t, .. } if legion.to_string() == "P1-02" && *t == to))
        .unwrap();
    g.apply(ANN, &m).unwrap();
    g.apply(ANN, &Action::DoneMoving).unwrap();
    g.apply(ANN, &Action::Engage { land: to }).unwrap();
    g
}

/// An agreement (20.4): the attacker gives up `attacker_losses`, the
/// defender `defender_losses` (names); then the engagement is finished.
fn agree(g: &mut Game, attacker_losses: &[&str], defender_losses: &[&str]) {
    let bob = PlayerId(1);
    if g.legal_actions(bob).contains(&Action::Stand) {
        g.apply(bob, &Action::Stand).unwrap();
    }
    let ids = |l: &[&str]| {
        l.iter()
            .map(|c| g.variant.character_by_name(c).unwrap())
            .collect::<Vec<_>>()
    };
    let proposal = Action::Propose {
        attacker_losses: ids(attacker_losses),
        defender_losses: ids(defender_losses),
    };
    g.apply(bob, &proposal).unwrap();
    g.apply(ANN, &Action::Accept).unwrap();
    while g.state.engagement.is_some() {
        let p = g.to_act()[0];
        g.apply(p, &Action::DoneAfter).unwrap();
    }
}

#[test]
fn the_attacker_who_wins_revives_a_slain_demilord_for_fifty() {
    // 19.1, EN 430: "They can be revived at the end of an Engagement by the
    // winning player. For each slain Demilord to be revived, 50 Lifegems
    // must be paid. Revived Demilords are brought back completely healed
    // into the winning Legion."
    let v = got();
    let mut g = engaged(
        &v,
        &["Warlock", "Ogre", "Ogre"],
        &["Gargoyle", "Centaur"],
        50,
    );
    // Ann gives up her Warlock, Bob his whole legion: Ann wins (and earns
    // 10 a character of Bob's, 20.4).
    agree(&mut g, &["Warlock"], &["Gargoyle", "Centaur"]);
    assert!(!characters(&g, "P1-02").contains(&"Warlock".to_string()));
    assert_eq!(gems(&g, 0), 70);
    // Its last engagement over, the engine goes on to the Mustering Phase:
    // the attacker revives there.
    assert_eq!(g.state.phase, Phase::Muster);
    assert_eq!(
        offered(&g, ANN, "revive_demilord"),
        [("P1-02".to_string(), "Warlock".to_string())]
    );
    g.apply(ANN, &script(&v, "revive_demilord", "P1-02", "Warlock"))
        .unwrap();
    assert!(characters(&g, "P1-02").contains(&"Warlock".to_string()));
    assert_eq!(gems(&g, 0), 20);
    assert!(offered(&g, ANN, "revive_demilord").is_empty(), "once");
}

#[test]
fn a_revival_lapses_with_the_phase_and_needs_fifty_lifegems() {
    let v = got();
    // Ann gives up her Warlock and wins with 0 + 20 Lifegems: not enough.
    let mut g = engaged(
        &v,
        &["Warlock", "Ogre", "Ogre"],
        &["Gargoyle", "Centaur"],
        0,
    );
    agree(&mut g, &["Warlock"], &["Gargoyle", "Centaur"]);
    assert_eq!(gems(&g, 0), 20);
    assert!(offered(&g, ANN, "revive_demilord").is_empty());
    // With enough, but the turn over: gone ("at the end of an
    // Engagement").
    let mut g = engaged(
        &v,
        &["Warlock", "Ogre", "Ogre"],
        &["Gargoyle", "Centaur"],
        50,
    );
    agree(&mut g, &["Warlock"], &["Gargoyle", "Centaur"]);
    assert_eq!(g.state.phase, Phase::Muster);
    g.apply(ANN, &Action::EndTurn).unwrap();
    let def = g.variant.variable("revivable").unwrap();
    assert_eq!(
        g.state.vars.get(def, VarTarget::Legion(marker("P1-02"))),
        &VarValue::Names(vec![])
    );
}

#[test]
fn the_defender_who_wins_revives_in_his_next_split_phase() {
    // 19.1: "only the winner may revive them, regardless of how the fight
    // was decided". Bob, the defender, is not the player whose turn it is:
    // he revives in the Split phase of his next turn.
    let v = got();
    let mut g = engaged(
        &v,
        &["Ogre", "Ogre"],
        &["Warlock", "Gargoyle", "Centaur"],
        50,
    );
    agree(&mut g, &["Ogre", "Ogre"], &["Warlock"]);
    let bob = PlayerId(1);
    assert!(characters(&g, "P2-02").len() == 2);
    assert!(
        offered(&g, bob, "revive_demilord_later").is_empty(),
        "not in Ann's turn"
    );
    assert_eq!(g.state.phase, Phase::Muster);
    assert!(offered(&g, ANN, "revive_demilord").is_empty(), "Ann lost");
    g.apply(ANN, &Action::EndTurn).unwrap();
    assert_eq!((g.state.active, g.state.phase), (bob, Phase::Split));
    assert_eq!(
        offered(&g, bob, "revive_demilord_later"),
        [("P2-02".to_string(), "Warlock".to_string())]
    );
    let paid = gems(&g, 1);
    g.apply(
        bob,
        &script(&v, "revive_demilord_later", "P2-02", "Warlock"),
    )
    .unwrap();
    assert!(characters(&g, "P2-02").contains(&"Warlock".to_string()));
    assert_eq!(gems(&g, 1), paid - 50);
}

#[test]
fn the_computer_players_hire_a_caster_when_they_can_pay() {
    // docs/ai.md: `ai: Recruit(..)` (actions.ron) makes a hire a muster to
    // the computer players. With 100 Lifegems the best Human is the Warlord
    // (a Caster, 15.1: skill 5, a rangestriker).
    let v = got();
    for level in ["simple", "strong"] {
        for (gems, want) in [(100, "Warlord"), (0, "Novice")] {
            let g = game(&v, &["Titan", "Ogre"], gems);
            let mut p = titan_core::ai::player(level, 1).unwrap();
            let obs = titan_core::ai::Observation::of(&g, ANN);
            let a = p.choose(&obs).unwrap();
            assert_eq!(a, script(&v, "hire", "P1-01", want), "{level} with {gems}");
        }
    }
}

#[test]
fn in_a_game_the_computer_players_hire() {
    // A whole game of strong and simple seats from the start (5.7: in the
    // City), 40 game turns at most: each hires (the free Novice first, a
    // Caster; `ai: Recruit(.., terrains: ["City", "Dungeon"], worth: 16)`
    // keeps a legion there), and none of their actions is refused (8.6:
    // one legion in the City and the Dungeon, which the plans respect).
    let v = got();
    let names = ["Ann".to_string(), "Bob".to_string(), "Cid".to_string()];
    let (mut g, _) = Game::new(Arc::clone(&v), Default::default(), &names, 1).unwrap();
    let mut players: Vec<Box<dyn titan_core::ai::Player>> = ["strong", "simple", "simple"]
        .iter()
        .enumerate()
        .map(|(i, l)| titan_core::ai::player(l, i as u64).unwrap())
        .collect();
    let mut hires = [0u32; 3];
    let mut refused = 0;
    while g.state.outcome.is_none() && g.state.turn <= 40 {
        let p = g.to_act()[0];
        let obs = titan_core::ai::Observation::of(&g, p);
        let a = players[usize::from(p.0)].choose(&obs).unwrap();
        if matches!(&a, Action::Script { name, .. } if name == "hire") {
            hires[usize::from(p.0)] += 1;
        }
        if g.apply(p, &a).is_err() {
            refused += 1;
            break;
        }
    }
    assert_eq!(refused, 0);
    assert!(hires.iter().all(|&n| n > 0), "hires by seat: {hires:?}");
}

#[test]
fn an_ai_hint_the_computer_cannot_read_is_an_error_of_the_variant() {
    // docs/scripting.md, "Actions": `ai` is for masterplay actions, and a
    // Recruit names a Legion and a Character parameter and known terrains.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("gods-of-titan");
    common::copy_dir(&common::root().join("variants/gods-of-titan"), &dir);
    let file = dir.join("actions.ron");
    let good = std::fs::read_to_string(&file).unwrap();
    for (from, to, says) in [
        (
            r#"terrains: ["City", "Dungeon"]"#,
            r#"terrains: ["City", "Dungon"]"#,
            "no terrain \"Dungon\"",
        ),
        (
            r#"limit: (per: Battle, times: 1, variable: "decoy_used"),"#,
            r#"limit: (per: Battle, times: 1, variable: "decoy_used"), ai: Worth(3),"#,
            "a battle action has none",
        ),
        (
            r#"ai: Recruit(legion: "legion", character: "character"),
    ),
    (
        name: "revive_demilord","#,
            r#"ai: Recruit(legion: "legion", character: "who"),
    ),
    (
        name: "revive_demilord","#,
            "names \"who\", which is no parameter of kind Character",
        ),
    ] {
        assert!(good.contains(from), "{from}");
        std::fs::write(&file, good.replacen(from, to, 1)).unwrap();
        let errors = titan_core::load(&dir, &common::options())
            .err()
            .unwrap_or_else(|| panic!("{to} loads"));
        let text: String = errors.iter().map(|d| format!("{}\n", d.message)).collect();
        assert!(text.contains(says), "{says}: {text}");
    }
}
