//! Random-play battles per second: 7 against 7 on the Mountains, once on the
//! `titan` variant (no Lua at all) and once on the `lua-battle` test variant,
//! whose characters' abilities, a hazard and a range strength are Lua hooks
//! (a Lua VM is started and its scripts run for every battle, as in a game).

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use titan_core::battle::{Battle, BattleSetup, Fighter};
use titan_core::format::Edge;
use titan_core::rng::GameRng;
use titan_core::{LoadOptions, Variant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn load(dir: PathBuf) -> Variant {
    let opts = LoadOptions {
        search_paths: vec![repo().join("variants")],
        shared_scripts: Some(repo().join("scripts")),
    };
    titan_core::load(&dir, &opts).expect("loads")
}

fn legion(v: &Variant, names: &[&str]) -> Vec<Fighter> {
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
}

/// One battle played to its end by random legal actions.
fn play(v: &Variant, seed: u64, hooks: bool) -> usize {
    let setup = BattleSetup {
        terrain: v.terrain_by_name("Mountains").expect("Mountains"),
        attacker: legion(
            v,
            &[
                "Ogre", "Troll", "Lion", "Minotaur", "Giant", "Dragon", "Colossus",
            ],
        ),
        defender: legion(
            v,
            &[
                "Cyclops", "Warbear", "Unicorn", "Behemoth", "Hydra", "Gorgon", "Ranger",
            ],
        ),
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    };
    let mut b = Battle::new(v, setup, GameRng::new(seed)).expect("battle");
    if !hooks {
        b = b.without_hooks();
    }
    let mut pick = GameRng::new(seed ^ 0xbeef);
    let mut n = 0;
    while b.result().is_none() {
        let actions = b.legal_actions();
        let a = actions[(pick.roll(actions.len() as u32) - 1) as usize].clone();
        b.apply(a).expect("legal");
        n += 1;
    }
    n
}

fn battles(c: &mut Criterion) {
    let titan = load(repo().join("variants/titan"));
    let hooked = load(repo().join("tests/battle/variants/lua-battle"));
    let mut g = c.benchmark_group("battle 7v7 Mountains");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("titan, no Lua", |b| {
        b.iter(|| {
            seed += 1;
            play(&titan, seed, true)
        })
    });
    let mut seed = 0u64;
    g.bench_function("lua-battle, with hooks", |b| {
        b.iter(|| {
            seed += 1;
            play(&hooked, seed, true)
        })
    });
    // The same variant with its hooks turned off after the VM has started:
    // what the hook calls themselves cost, apart from starting Lua.
    let mut seed = 0u64;
    g.bench_function("lua-battle, VM started, hooks off", |b| {
        b.iter(|| {
            seed += 1;
            play(&hooked, seed, false)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(5));
    targets = battles
}
criterion_main!(benches);
