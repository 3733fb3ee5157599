//! Tests of the computer players: levels and bad input, hidden
//! information, battles and games played to the end (moved from
//! `src/ai/tests.rs`: engine code names no character, so its tests that
//! need the bundled variant's names live here).

use std::sync::Arc;

use titan_core::ai::play::{play_battle, play_game};
use titan_core::ai::*;
use titan_core::battle::{BattleSetup, Fighter};
use titan_core::format::Edge;
use titan_core::model::Variant;

fn titan() -> Arc<Variant> {
    Arc::new(load_titan())
}

fn setup(v: &Variant, a: &[&str], d: &[&str], terrain: &str) -> BattleSetup {
    let f = |names: &[&str]| Fighter::named(v, names).unwrap();
    BattleSetup {
        terrain: v.terrain_by_name(terrain).unwrap(),
        attacker: f(a),
        defender: f(d),
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    }
}

fn seen(b: &titan_core::battle::Battle<'_>) -> SeenBattle {
    let side = b.to_act();
    SeenBattle {
        side,
        snapshot: b.snapshot().as_seen_by(side, 9),
    }
}

#[test]
fn bad_input_gets_clear_errors() {
    assert_eq!(
        player("expert", 1).err(),
        Some(AiError::UnknownLevel("expert".into()))
    );
    assert_eq!(
        player_with(
            "strong",
            1,
            Budget {
                nodes: 0,
                ..Budget::DEFAULT
            }
        )
        .err(),
        Some(AiError::ZeroBudget)
    );
    let mut v = load_titan();
    assert!(check_variant(&v).is_ok());
    for c in &mut v.characters {
        c.skill = 0;
    }
    let e = check_variant(&v).unwrap_err();
    assert_eq!(e, AiError::NoStriker("titan".into()));
    assert!(e.to_string().contains("no character that can strike"));
    for level in LEVELS {
        assert_eq!(player(level, 3).unwrap().level(), level);
    }
}

/// Law of the Battlelands, strike phase: each character strikes once, in
/// the order its player likes. The striker with one target (the Ogre, at
/// the wounded Troll) strikes first: the Troll, which has a choice, then
/// finishes the Troll if the Ogre failed, or takes the Ogre (expectimax).
#[test]
fn strong_strikes_in_the_best_order() {
    let v = titan();
    let p = titan_core::battle::Position::from_ron(
        r#"(
        battleland: "Plains",
        moving: Attacker,
        phase: Strike,
        attacker: [(character: "Troll", hex: "D3"), (character: "Ogre", hex: "D5")],
        defender: [(character: "Troll", hex: "D4", damage: 6), (character: "Ogre", hex: "D2", damage: 4)],
    )"#,
    )
    .unwrap();
    let b = titan_core::battle::Battle::from_position(&v, &p, titan_core::rng::GameRng::new(1))
        .unwrap();
    let legal = b.legal_actions();
    // The Ogre in D5 reaches only D4; the Troll both.
    let strikes = |u: u8| {
        legal
            .iter()
            .filter(|a| matches!(a, titan_core::battle::Action::Strike { unit, .. } if *unit == u))
            .count()
    };
    assert_eq!((strikes(0), strikes(1)), (2, 1), "{legal:?}");
    let mut strong = player("strong", 1).unwrap();
    let a = strong.choose_battle(&v, &seen(&b), &legal).unwrap();
    assert!(
        matches!(
            a,
            titan_core::battle::Action::Strike {
                unit: 1,
                target: 2,
                ..
            }
        ),
        "{a:?}"
    );
    // Simple strikes the weakest target it can reach, whoever strikes.
    let mut simple = player("simple", 1).unwrap();
    let a = simple.choose_battle(&v, &seen(&b), &legal).unwrap();
    assert!(
        matches!(a, titan_core::battle::Action::Strike { .. }),
        "{a:?}"
    );
}

#[test]
fn the_defender_is_not_told_the_attackers_summonable_characters() {
    let v = titan();
    let mut s = setup(&v, &["Ogre"], &["Ogre"], "Plains");
    s.summonable = vec![(1, v.character_by_name("Angel").unwrap())];
    let b = titan_core::battle::Battle::new(&v, s, titan_core::rng::GameRng::new(4)).unwrap();
    let snap = b.snapshot();
    assert!(
        snap.as_seen_by(titan_core::battle::BattleSide::Defender, 0)
            .setup()
            .summonable
            .is_empty()
    );
    assert_eq!(
        snap.as_seen_by(titan_core::battle::BattleSide::Attacker, 0)
            .setup()
            .summonable
            .len(),
        1
    );
    // The dice to come are not the battle's own.
    assert!(
        !snap
            .as_seen_by(titan_core::battle::BattleSide::Attacker, 0)
            .fingerprint()
            .contains("rng 4@")
    );
}

/// Both levels fight a battle to its end, deterministically for a seed.
#[test]
fn battles_are_fought_to_the_end_reproducibly() {
    let v = titan();
    let s = setup(
        &v,
        &["Titan", "Angel", "Ogre", "Ogre", "Troll", "Troll", "Lion"],
        &["Cyclops", "Gorgon", "Troll", "Ogre", "Ogre"],
        "Mountains",
    );
    for (a, d) in [
        ("strong", "simple"),
        ("simple", "strong"),
        ("random", "strong"),
    ] {
        let fight = || {
            let mut pa = player_with(
                a,
                1,
                Budget {
                    nodes: 2_000,
                    rollouts: 2,
                },
            )
            .unwrap();
            let mut pd = player_with(
                d,
                2,
                Budget {
                    nodes: 2_000,
                    rollouts: 2,
                },
            )
            .unwrap();
            play_battle(&v, s.clone(), pa.as_mut(), pd.as_mut(), 5).unwrap()
        };
        let (r, n) = fight();
        assert!(n > 0);
        assert_eq!(fight().0, r);
    }
}

/// A player sees only its view: changing what an opponent's legions hold,
/// unseen, changes nothing it does.
#[test]
fn hidden_legions_do_not_change_a_choice() {
    let v = titan();
    // Positions of several phases (strong's turn search at the split and
    // the move, its scoring in engagements).
    let planned = [(11, 3, false), (12, 5, true), (13, 8, false), (14, 8, true)];
    let mut checked = 0;
    for (seed, turns, to_move) in planned {
        checked += hidden_legions_do_not_change_a_choice_at(&v, seed, turns, to_move);
    }
    // A game over before its position (nobody to act) checks nothing: each
    // planned position must have been compared, by both levels.
    assert_eq!(checked, planned.len() * 2, "positions compared");
}

/// The choices compared (one a level), or none when the game was over.
fn hidden_legions_do_not_change_a_choice_at(
    v: &Arc<Variant>,
    seed: u64,
    turns: u32,
    to_move: bool,
) -> usize {
    let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
    let (mut g, _) =
        titan_core::game::Game::new(v.clone(), Default::default(), &names, seed).unwrap();
    let mut players: Vec<Box<dyn Player>> =
        vec![player("simple", 1).unwrap(), player("simple", 2).unwrap()];
    play::play_game(&mut g, &mut players, turns);
    // On to the movement phase with the roll made, when asked.
    while to_move && g.state.outcome.is_none() && g.state.roll.is_none() {
        let p = g.to_act()[0];
        let a = players[usize::from(p.0)]
            .choose(&Observation::of(&g, p))
            .unwrap();
        g.apply(p, &a).unwrap();
    }
    let Some(&me) = g.to_act().first() else {
        return 0;
    };
    let other = titan_core::game::PlayerId(1 - me.0);
    let mut state = g.state.clone();
    let troll = v.character_by_name("Troll").unwrap();
    let mut changed = false;
    for l in state.legions.iter_mut().filter(|l| l.owner == other) {
        if l.seen_by & (1 << me.0) == 0 {
            for c in l.characters.iter_mut() {
                if !l.revealed.contains(c) && *c != v.rules.titan.character {
                    *c = troll;
                    changed = true;
                }
            }
            l.characters.sort();
        }
    }
    assert!(changed, "seed {seed}: the opponent has a hidden legion");
    let g2 = titan_core::game::Game::from_state(v.clone(), Default::default(), state).unwrap();
    // The change is one the player could see if its view leaked it.
    assert_ne!(g.state_hash(), g2.state_hash(), "seed {seed}");
    let mut compared = 0;
    for level in ["simple", "strong"] {
        let a = player(level, 7)
            .unwrap()
            .choose(&Observation::of(&g, me))
            .unwrap();
        let b = player(level, 7)
            .unwrap()
            .choose(&Observation::of(&g2, me))
            .unwrap();
        assert_eq!(a, b, "{level}, seed {seed}");
        compared += 1;
    }
    compared
}

/// Whole games end, each level's choices accepted by the engine, and a
/// game repeats exactly for its seeds.
#[test]
fn games_between_levels_end_and_repeat() {
    let v = titan();
    let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
    let play = |levels: [&str; 2], seed: u64| {
        let (mut g, _) =
            titan_core::game::Game::new(v.clone(), Default::default(), &names, seed).unwrap();
        let mut players: Vec<Box<dyn Player>> = levels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                player_with(
                    l,
                    seed + i as u64,
                    Budget {
                        nodes: 500,
                        ..Budget::DEFAULT
                    },
                )
                .unwrap()
            })
            .collect();
        let r = play_game(&mut g, &mut players, 200);
        g.check_invariants().unwrap();
        (r, g.state_hash())
    };
    let (r, h) = play(["strong", "simple"], 3);
    assert!(r.outcome.is_some(), "{r:?}");
    assert_eq!(r.refused, 0);
    assert_eq!(r.error, None);
    assert_eq!(play(["strong", "simple"], 3).1, h);
}

/// The engagement estimator is fitted to battles the players fight: the
/// stronger side (by worth, natives counted) wins more often.
#[test]
fn the_estimator_calibrates_on_simulated_battles() {
    let v = titan();
    let (slope, _shift) = odds::calibrate(&v, 40, 1).unwrap();
    assert!(slope > 1.0, "{slope}");
    let (lo, hi) = odds::wilson(3, 10);
    assert!(
        (lo - 0.108).abs() < 0.01 && (hi - 0.603).abs() < 0.01,
        "{lo} {hi}"
    );
}

/// The side the attacker enters by, as battle odds derive it from the land
/// it came from (`titan_core::game::attacker_entry_edge`), is the side the
/// engine's battle puts it on (Law of the Battlelands 25.A and 25.B).
#[test]
fn odds_derive_the_engines_entry_side() {
    let v = titan();
    let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
    let mut checked = 0;
    for seed in 0..6 {
        let (mut g, _) =
            titan_core::game::Game::new(v.clone(), Default::default(), &names, seed).unwrap();
        let mut players: Vec<Box<dyn Player>> = vec![
            player("simple", seed).unwrap(),
            player("simple", seed + 1).unwrap(),
        ];
        for _ in 0..20_000 {
            if g.state.outcome.is_some() {
                break;
            }
            if let (Some(req), Some(e)) = (g.battle_request(), g.state.engagement.as_ref()) {
                let att = g.legion(e.attacker).unwrap();
                let edge = titan_core::game::attacker_entry_edge(&v, e.land, att.entered_from);
                assert_eq!(req.attacker_edge, edge, "seed {seed}");
                checked += 1;
            }
            let Some(&p) = g.to_act().first() else { break };
            let a = players[usize::from(p.0)]
                .choose(&Observation::of(&g, p))
                .unwrap();
            g.apply(p, &a).unwrap();
        }
    }
    assert!(checked > 10, "{checked}");
}

fn load_titan() -> Variant {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    titan_core::load(&dir, &Default::default()).expect("the bundled titan variant loads")
}
