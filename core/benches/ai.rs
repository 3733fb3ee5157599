//! Computer players' speed: one `strong` battle decision in a 7-on-7
//! battle at its default budget (the target: at most 50 ms), a
//! `strong` masterboard decision (its whole-turn search: a split, where
//! every split plan is valued over the rolls, and a move), and a whole
//! 4-player game of four `simple` players (at most 0.5 s).

use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use titan_core::ai::play::play_game;
use titan_core::ai::{Observation, Player, SeenBattle, player};
use titan_core::battle::{Action, Battle, BattleSetup, Fighter, Phase};
use titan_core::format::Edge;
use titan_core::game::Game;
use titan_core::rng::GameRng;

fn titan() -> Arc<titan_core::Variant> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    Arc::new(titan_core::load(&dir, &Default::default()).expect("titan loads"))
}

fn setup(v: &titan_core::Variant) -> BattleSetup {
    let legion = |names: &[&str]| {
        names
            .iter()
            .map(|n| {
                let c = v.character_by_name(n).expect("character");
                Fighter {
                    character: c,
                    power: v.character(c).power,
                }
            })
            .collect()
    };
    BattleSetup {
        terrain: v.terrain_by_name("Mountains").unwrap(),
        attacker: legion(&[
            "Ogre", "Troll", "Lion", "Minotaur", "Giant", "Dragon", "Colossus",
        ]),
        defender: legion(&[
            "Cyclops", "Warbear", "Unicorn", "Behemoth", "Hydra", "Gorgon", "Ranger",
        ]),
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    }
}

fn seen(b: &Battle<'_>) -> SeenBattle {
    let side = b.to_act();
    SeenBattle {
        side,
        snapshot: b.snapshot().as_seen_by(side, 1),
    }
}

/// The battle played by `simple` until `stop` says a position is reached.
fn position<'v>(
    v: &'v titan_core::Variant,
    stop: impl Fn(&Battle<'_>, usize) -> bool,
) -> Battle<'v> {
    let mut b = Battle::new(v, setup(v), GameRng::new(3)).unwrap();
    let mut p = player("simple", 3).unwrap();
    let mut n = 0;
    while !stop(&b, n) && b.result().is_none() {
        let legal = b.legal_actions();
        let a = p.choose_battle(v, &seen(&b), &legal).unwrap();
        b.apply(a).unwrap();
        n += 1;
    }
    b
}

fn decide(c: &mut Criterion, name: &str, b: &Battle<'_>, v: &titan_core::Variant) {
    let s = seen(b);
    let legal: Vec<Action> = b.legal_actions();
    let mut strong = player("strong", 1).unwrap();
    c.bench_function(name, |bench| {
        bench.iter(|| strong.choose_battle(v, &s, &legal).unwrap())
    });
}

fn battle_decisions(c: &mut Criterion) {
    let v = titan();
    // The attacker's first maneuver: seven to bring on (the widest choice).
    let entry = position(&v, |b, _| {
        b.phase() == Phase::Maneuver && b.moving() == titan_core::battle::BattleSide::Attacker
    });
    decide(c, "strong: the attacker's entry, 7 on 7", &entry, &v);
    // A maneuver in the thick of it (round 3).
    let middle = position(&v, |b, _| {
        b.phase() == Phase::Maneuver && b.defender_maneuver() == 3
    });
    decide(c, "strong: a maneuver in round 3, 7 on 7", &middle, &v);
    // A strike phase with several strikers (expectimax).
    let strike = position(&v, |b, n| {
        n > 20
            && matches!(b.phase(), Phase::Strike { .. })
            && b.legal_actions()
                .iter()
                .filter(|a| matches!(a, Action::Strike { .. }))
                .count()
                >= 3
    });
    decide(c, "strong: a strike in contact, 7 on 7", &strike, &v);
}

/// A 4-player game played by `simple` until the first player of turn 10
/// is to act in `phase` (with every seat's legions grown and split).
fn board_position(v: &Arc<titan_core::Variant>, phase: titan_core::game::Phase) -> Game {
    let names: Vec<String> = (1..=4).map(|i| format!("p{i}")).collect();
    let (mut g, _) = Game::new(v.clone(), Default::default(), &names, 5).unwrap();
    let mut players: Vec<Box<dyn Player>> =
        (0..4).map(|i| player("simple", 50 + i).unwrap()).collect();
    while !(g.state.turn >= 10 && g.state.phase == phase && g.state.engagement.is_none())
        && g.state.outcome.is_none()
    {
        let p = g.to_act()[0];
        let a = players[usize::from(p.0)]
            .choose(&Observation::of(&g, p))
            .unwrap();
        g.apply(p, &a).unwrap();
    }
    g
}

fn board_decisions(c: &mut Criterion) {
    let v = titan();
    for (name, phase) in [
        (
            "strong: a masterboard split decision, 4 players, turn 10",
            titan_core::game::Phase::Split,
        ),
        (
            "strong: a masterboard move decision, 4 players, turn 10",
            titan_core::game::Phase::Move,
        ),
    ] {
        let mut g = board_position(&v, phase);
        if phase == titan_core::game::Phase::Move && g.state.roll.is_none() {
            let p = g.to_act()[0];
            let roll = g
                .legal_actions(p)
                .into_iter()
                .find(|a| matches!(a, titan_core::game::Action::Roll { .. }))
                .unwrap();
            g.apply(p, &roll).unwrap();
        }
        let obs = Observation::of(&g, g.to_act()[0]);
        let mut strong = player("strong", 1).unwrap();
        c.bench_function(name, |bench| bench.iter(|| strong.choose(&obs).unwrap()));
    }
}

fn simple_games(c: &mut Criterion) {
    let v = titan();
    let names: Vec<String> = (1..=4).map(|i| format!("p{i}")).collect();
    let mut group = c.benchmark_group("games");
    group.sample_size(20);
    let mut seed = 0;
    group.bench_function("a 4-player game of four simple players", |b| {
        b.iter(|| {
            seed += 1;
            let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            let mut players: Vec<Box<dyn Player>> = (0..4)
                .map(|i| player("simple", seed * 4 + i).unwrap())
                .collect();
            play_game(&mut g, &mut players, 300)
        })
    });
    group.finish();
}

criterion_group!(benches, battle_decisions, board_decisions, simple_games);
criterion_main!(benches);
