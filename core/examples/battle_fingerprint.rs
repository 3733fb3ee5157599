//! Prints a fingerprint of N seeded random battles (every legal-action list,
//! every action and every event), to check that a change to the battle engine
//! keeps the same seeds giving the same battles:
//! `cargo run --release -p titan-core --example battle_fingerprint -- 2000`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;

use titan_core::battle::{Battle, BattleSetup, Fighter};
use titan_core::game::random::{play_random_battle_action, random_battle_action};
use titan_core::model::{CharacterId, TerrainId};
use titan_core::rng::GameRng;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if std::env::args().nth(2).as_deref() == Some("time") {
        return time(&root, n);
    }
    for dir in ["variants/titan", "tests/battle/variants/lua-battle"] {
        let opts = titan_core::LoadOptions {
            search_paths: vec![root.join("variants")],
            shared_scripts: Some(root.join("scripts")),
        };
        let v = titan_core::load(&root.join(dir), &opts).expect("loads");
        let titan = v.rules.titan.character;
        let pool: Vec<CharacterId> = (0..v.characters.len())
            .map(|i| CharacterId(i as u16))
            .filter(|&c| c != titan && v.character(c).count > 0)
            .collect();
        let mut h = DefaultHasher::new();
        let mut actions = 0u64;
        for seed in 0..n {
            let mut pick = GameRng::new(seed ^ 0x5eed);
            let terrain = TerrainId(pick.int_in(0, v.terrains.len() as i64 - 1) as u8);
            let attacker = Fighter::drawn(&v, &pool, 7, &mut pick);
            let defender = Fighter::drawn(&v, &pool, 7, &mut pick);
            let setup = BattleSetup {
                terrain,
                attacker,
                defender,
                attacker_edge: v.rules.battle.attacker_edges[0],
                summonable: vec![(1, pool[seed as usize % pool.len()])],
                reinforcements: pool.iter().copied().take(5).collect(),
                teleported: seed % 7 == 0,
            };
            let mut b = match Battle::new(&v, setup, GameRng::new(seed)) {
                Ok(b) => b,
                Err(e) => {
                    format!("{e}").hash(&mut h);
                    continue;
                }
            };
            while b.result().is_none() {
                format!("{:?}", b.legal_actions()).hash(&mut h);
                let Some(a) = random_battle_action(&b, &mut pick) else {
                    break;
                };
                format!("{a:?}").hash(&mut h);
                // A script error (the test variant raises some) ends the run.
                let ev = b.apply(a);
                format!("{ev:?}").hash(&mut h);
                if ev.is_err() {
                    break;
                }
                // A refused action too: its message and an unchanged battle.
                if seed % 5 == 0 {
                    let bad = titan_core::battle::Action::CarryOver { target: Some(200) };
                    let before = b.fingerprint();
                    format!("{:?}", b.apply(bad)).hash(&mut h);
                    assert_eq!(before, b.fingerprint());
                    for u in 0..b.units().len() as u8 {
                        format!("{:?}", b.reach(u)).hash(&mut h);
                        for t in 0..b.units().len() as u8 {
                            format!("{:?}", b.line_of_sight(u, t)).hash(&mut h);
                            format!("{:?}", b.strike_report(u, t)).hash(&mut h);
                        }
                    }
                }
                actions += 1;
            }
            format!("{:?}", b.result()).hash(&mut h);
        }
        println!(
            "{dir}: {n} battles, {actions} actions, fingerprint {:016x}",
            h.finish()
        );
    }
}

/// `-- N time`: N random 7-on-7 battles on the Mountains (as `titan
/// simulate battles` and the criterion bench play them), timed.
fn time(root: &Path, n: u64) {
    let v = titan_core::load(&root.join("variants/titan"), &Default::default()).expect("loads");
    let legion = |names: &[&str]| -> Vec<Fighter> {
        names
            .iter()
            .map(|name| {
                let c = v.character_by_name(name).expect("character");
                Fighter {
                    character: c,
                    power: v.character(c).power,
                }
            })
            .collect()
    };
    let start = std::time::Instant::now();
    let mut actions = 0;
    let mut events = Vec::new();
    for seed in 0..n {
        let setup = BattleSetup {
            terrain: v.terrain_by_name("Mountains").expect("Mountains"),
            attacker: legion(&[
                "Ogre", "Troll", "Lion", "Minotaur", "Giant", "Dragon", "Colossus",
            ]),
            defender: legion(&[
                "Cyclops", "Warbear", "Unicorn", "Behemoth", "Hydra", "Gorgon", "Ranger",
            ]),
            attacker_edge: v.rules.battle.attacker_edges[0],
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut b = Battle::new(&v, setup, GameRng::new(seed))
            .expect("battle")
            .without_events();
        let mut pick = GameRng::new(seed ^ 0xbeef);
        while play_random_battle_action(&mut b, &mut pick, &mut events).expect("legal") {
            events.clear();
            actions += 1;
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{n} battles, {actions} actions in {t:.2} s (wall): {:.0} battles per second",
        n as f64 / t
    );
}
