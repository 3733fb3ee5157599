//! The cost of scripts in battle (docs/scripting.md): a 7v7 battle of
//! `titan` (no Lua) against the same battle with a handler on every strike
//! and battle phase (`tests/fixtures/every-event`: house-regeneration's rule and more),
//! and of `house-regeneration` as bundled, one VM for the game; and one
//! event fired with its `ctx`.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use titan_core::battle::{Battle, BattleSetup, Fighter};
use titan_core::format::Edge;
use titan_core::game::random::random_battle_action;
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

fn setup(v: &Variant) -> BattleSetup {
    let legion = |names: &[&str]| -> Vec<Fighter> {
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
        terrain: v.terrain_by_name("Mountains").expect("Mountains"),
        attacker: legion(&[
            "Ogre", "Troll", "Lion", "Minotaur", "Giant", "Dragon", "Colossus",
        ]),
        defender: legion(&[
            "Cyclops", "Warbear", "Troll", "Behemoth", "Hydra", "Gorgon", "Ranger",
        ]),
        attacker_edge: Edge::SouthWest,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    }
}

/// The game's generator and its Lua VM, started once.
struct Shared(Rc<RefCell<GameRng>>, Option<Rc<LuaHost>>);

fn shared(v: &Variant) -> Shared {
    let rng = Rc::new(RefCell::new(GameRng::new(0)));
    let lua = Battle::start_scripts(v, &rng).expect("scripts");
    Shared(rng, lua)
}

/// One battle played to its end by random legal actions.
fn play(v: &Variant, seed: u64, s: &Shared) -> usize {
    *s.0.borrow_mut() = GameRng::new(seed);
    let mut b = Battle::with_scripts(v, setup(v), s.0.clone(), s.1.clone()).expect("battle");
    let mut pick = GameRng::new(seed ^ 0xbeef);
    let mut n = 0;
    while let Some(a) = random_battle_action(&b, &mut pick) {
        b.apply(a).expect("legal");
        n += 1;
    }
    n
}

fn battles(c: &mut Criterion) {
    let titan = load(repo().join("variants/titan"));
    let every = load(repo().join("tests/fixtures/every-event"));
    let regeneration = load(repo().join("variants/house-regeneration"));
    let (t, e, r) = (shared(&titan), shared(&every), shared(&regeneration));
    let mut g = c.benchmark_group("scripted battle 7v7 Mountains");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("titan", |b| {
        b.iter(|| {
            seed += 1;
            play(&titan, seed, &t)
        })
    });
    let mut seed = 0u64;
    g.bench_function(
        "house-regeneration, a handler on every strike and phase",
        |b| {
            b.iter(|| {
                seed += 1;
                play(&every, seed, &e)
            })
        },
    );
    let mut seed = 0u64;
    g.bench_function("house-regeneration as bundled", |b| {
        b.iter(|| {
            seed += 1;
            play(&regeneration, seed, &r)
        })
    });
    g.finish();

    // One event with its ctx, 14 units on the battleland in a strike
    // phase: `battle_phase_start` has one handler reading fields; of the
    // two of `battle_phase_end`, house-regeneration's is left out by its
    // unit filter (no wounded Troll: checked in Rust) and the other runs.
    let position: titan_core::battle::Position = titan_core::load::ron_options()
        .from_str(
            r#"(
            battleland: "Plains",
            attacker_edge: SouthWest,
            moving: Attacker,
            phase: Strike,
            attacker: [
                (character: "Ogre", hex: "A1"), (character: "Troll", hex: "A2"),
                (character: "Lion", hex: "A3"), (character: "Minotaur", hex: "B1"),
                (character: "Giant", hex: "B2"), (character: "Dragon", hex: "B3"),
                (character: "Colossus", hex: "B4"),
            ],
            defender: [
                (character: "Cyclops", hex: "F1"), (character: "Warbear", hex: "F2"),
                (character: "Troll", hex: "F3"), (character: "Behemoth", hex: "F4"),
                (character: "Hydra", hex: "E1"), (character: "Gorgon", hex: "E2"),
                (character: "Ranger", hex: "E3"),
            ],
        )"#,
        )
        .expect("a position");
    let mut battle = Battle::from_position(&every, &position, GameRng::new(1)).expect("battle");
    c.bench_function("hook call with ctx: battle_phase_start, 1 handler", |b| {
        b.iter(|| battle.fire_event("battle_phase_start").expect("fires"))
    });
    c.bench_function(
        "hook call with ctx: battle_phase_end, 2 handlers, 1 left out by its unit filter",
        |b| b.iter(|| battle.fire_event("battle_phase_end").expect("fires")),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(5));
    targets = battles
}
criterion_main!(benches);
