//! Random-play battles per second: 7 against 7 on the Mountains, once on the
//! `titan` variant (no Lua at all) and once on the `lua-battle` test variant,
//! whose characters' abilities, a hazard and a range strength are Lua hooks
//! (a Lua VM is started and its scripts run for every battle; and once more
//! with one VM shared by every battle, as a game can hold it).

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::cell::RefCell;
use std::rc::Rc;

use titan_core::battle::{Battle, BattleSetup, Fighter};
use titan_core::format::Edge;
use titan_core::game::random::play_random_battle_action;
use titan_core::lua::LuaHost;
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

/// How the battle gets its Lua.
#[derive(Clone, Copy)]
enum Lua {
    /// Its own VM, started with the battle (as `Battle::new` does).
    Own,
    /// Its own VM, with the hooks then turned off.
    Off,
    /// A VM the game started once, shared by every battle.
    Shared,
}

/// One battle played to its end by random legal actions.
fn play(v: &Variant, seed: u64, lua: Lua, shared: &Shared) -> usize {
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
    let mut b = match lua {
        // The playout reads no events (a battle with scripts records them
        // all the same).
        Lua::Own => Battle::new(v, setup, GameRng::new(seed))
            .expect("battle")
            .without_events(),
        Lua::Off => Battle::new(v, setup, GameRng::new(seed))
            .expect("battle")
            .without_hooks(),
        Lua::Shared => {
            *shared.0.borrow_mut() = GameRng::new(seed);
            Battle::with_scripts(v, setup, shared.0.clone(), shared.1.clone()).expect("battle")
        }
    };
    let mut pick = GameRng::new(seed ^ 0xbeef);
    let mut n = 0;
    // One list of events for the battle, as a playout keeps.
    let mut events = Vec::new();
    while play_random_battle_action(&mut b, &mut pick, &mut events).expect("legal") {
        events.clear();
        n += 1;
    }
    n
}

/// The game's generator and its Lua VM.
struct Shared(Rc<RefCell<GameRng>>, Option<Rc<LuaHost>>);

fn battles(c: &mut Criterion) {
    let titan = load(repo().join("variants/titan"));
    let hooked = load(repo().join("tests/battle/variants/lua-battle"));
    let rng = Rc::new(RefCell::new(GameRng::new(0)));
    let lua = Battle::start_scripts(&hooked, &rng).expect("scripts");
    let shared = Shared(rng, lua);
    let mut g = c.benchmark_group("battle 7v7 Mountains");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("titan, no Lua", |b| {
        b.iter(|| {
            seed += 1;
            play(&titan, seed, Lua::Own, &shared)
        })
    });
    let mut seed = 0u64;
    g.bench_function("lua-battle, with hooks", |b| {
        b.iter(|| {
            seed += 1;
            play(&hooked, seed, Lua::Own, &shared)
        })
    });
    // The same variant with its hooks turned off after the VM has started:
    // what the hook calls themselves cost, apart from starting Lua.
    let mut seed = 0u64;
    g.bench_function("lua-battle, VM started, hooks off", |b| {
        b.iter(|| {
            seed += 1;
            play(&hooked, seed, Lua::Off, &shared)
        })
    });
    // One VM for the whole game, as masterplay can hold it.
    let mut seed = 0u64;
    g.bench_function("lua-battle, with hooks, VM shared", |b| {
        b.iter(|| {
            seed += 1;
            play(&hooked, seed, Lua::Shared, &shared)
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
