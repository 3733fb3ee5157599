//! Soak test: seeded random battles between random legions on every
//! battleland of the `titan` variant. No panic, and the invariants hold after
//! every action: one character per hex, damage below power for the living,
//! nobody off the board; a random action the engine accepts is one of its
//! legal actions, and a refused one changes nothing (the generator
//! included). Every character of both sides is accounted for at the end.
//!
//! `TITAN_SOAK=N` fights N battles (default 4,000); it must be a positive
//! number.

mod common;

use titan_core::battle::{Action, Battle, BattleSetup, Fighter};
use titan_core::battleland::HexId;
use titan_core::model::{CharacterId, TerrainId};
use titan_core::rng::GameRng;

fn legion(v: &titan_core::Variant, rng: &mut GameRng) -> Vec<Fighter> {
    let n = rng.roll(7) as usize;
    (0..n)
        .map(|_| {
            let c = CharacterId((rng.roll(v.characters.len() as u32) - 1) as u16);
            let mut power = v.character(c).power;
            if c == v.rules.titan.character {
                power += (rng.roll(8) - 1) as u8;
            }
            Fighter {
                character: c,
                power,
            }
        })
        .collect()
}

/// Any action at all, most of them illegal: ids and hexes out of range too.
fn random_action(rng: &mut GameRng) -> Action {
    let unit = (rng.roll(20) - 1) as u8;
    let target = (rng.roll(20) - 1) as u8;
    let hex = HexId((rng.roll(40) - 1) as u8);
    match rng.roll(9) {
        1 => Action::Move { unit, to: hex },
        2 => Action::Strike {
            unit,
            target,
            strike_number: Some(rng.roll(8) as u8),
            forgo_bonus: rng.roll(2) == 1,
        },
        3 => Action::Rangestrike { unit, target },
        4 => Action::CarryOver {
            target: Some(target),
        },
        5 => Action::Summon {
            choice: (rng.roll(3) - 1) as u8,
            to: hex,
        },
        6 => Action::Reinforce {
            choice: (rng.roll(3) - 1) as u8,
            to: hex,
        },
        7 => Action::ChooseEdge(titan_core::format::Edge::ALL[(rng.roll(6) - 1) as usize]),
        8 => Action::EndStrikes,
        _ => Action::EndManeuver,
    }
}

fn snapshot(b: &Battle) -> String {
    b.fingerprint()
}

/// Whether an accepted action is among the legal ones. A strike is listed
/// at the strike number needed and with its bonuses; one declared higher or
/// forgoing them (reference sheet, "Strike Phase") is the listed strike.
fn offered(legal: &[Action], a: &Action) -> bool {
    match a {
        Action::Strike { unit, target, .. } => legal.contains(&Action::Strike {
            unit: *unit,
            target: *target,
            strike_number: None,
            forgo_bonus: false,
        }),
        _ => legal.contains(a),
    }
}

/// The soak's size: `TITAN_SOAK` if set (a positive number), else `default`.
fn soak_size(default: u64) -> u64 {
    match std::env::var("TITAN_SOAK") {
        Err(_) => default,
        Ok(s) => match s.parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => panic!("TITAN_SOAK={s:?}: give a positive number of battles to fight"),
        },
    }
}

#[test]
fn random_battles() {
    let v = titan_core::load(&common::root().join("variants/titan"), &common::options()).unwrap();
    let battles = soak_size(4_000);
    let mut bogus_accepted = 0;
    let mut ended = 0;
    let mut actions_total = 0u64;
    for seed in 0..battles {
        let mut rng = GameRng::new(seed);
        let terrain = TerrainId((seed % v.battlelands.len() as u64) as u8);
        let edges = &v.rules.battle.attacker_edges;
        let setup = BattleSetup {
            terrain,
            attacker: legion(&v, &mut rng),
            defender: legion(&v, &mut rng),
            attacker_edge: edges[(rng.roll(edges.len() as u32) - 1) as usize],
            summonable: vec![(1, v.character_by_name("Angel").unwrap())],
            reinforcements: vec![CharacterId((rng.roll(19) - 1) as u16)],
            teleported: rng.roll(10) == 1,
        };
        let mut battle = Battle::new(&v, setup, GameRng::new(seed ^ 0x5eed)).unwrap();
        let mut steps = 0;
        while battle.result().is_none() {
            let actions = battle.legal_actions();
            assert!(!actions.is_empty(), "seed {seed}: no legal action");
            // Now and then, a random action: accepted only if legal, and
            // when refused, nothing changes.
            if rng.roll(20) == 1 {
                let before = snapshot(&battle);
                let bogus = random_action(&mut rng);
                match battle.apply(bogus.clone()) {
                    Ok(_) => {
                        assert!(
                            offered(&actions, &bogus),
                            "seed {seed}: {bogus:?} was accepted but is not legal: {actions:?}"
                        );
                        bogus_accepted += 1;
                    }
                    Err(e) => assert_eq!(
                        before,
                        snapshot(&battle),
                        "seed {seed}: refused {bogus:?} ({e}) changed state"
                    ),
                }
                battle
                    .check_invariants()
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                continue;
            }
            let pick = actions[(rng.roll(actions.len() as u32) - 1) as usize].clone();
            battle
                .apply(pick.clone())
                .unwrap_or_else(|e| panic!("seed {seed}: legal action {pick:?} refused: {e}"));
            battle
                .check_invariants()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            steps += 1;
            assert!(steps < 5_000, "seed {seed}: battle does not end");
        }
        actions_total += steps;
        ended += 1;
        let r = battle.result().unwrap();
        // Every unit of each side (summoned and reinforcements included) is
        // left, slain or removed, once: the same characters.
        for side in [
            titan_core::battle::BattleSide::Attacker,
            titan_core::battle::BattleSide::Defender,
        ] {
            let mut units: Vec<CharacterId> = battle
                .units()
                .iter()
                .filter(|u| u.side == side)
                .map(|u| u.character)
                .collect();
            let (left, slain, removed) = match side {
                titan_core::battle::BattleSide::Attacker => {
                    (&r.attacker_left, &r.attacker_slain, &r.attacker_removed)
                }
                titan_core::battle::BattleSide::Defender => {
                    (&r.defender_left, &r.defender_slain, &r.defender_removed)
                }
            };
            let mut out = [left.clone(), slain.clone(), removed.clone()].concat();
            units.sort_unstable();
            out.sort_unstable();
            assert_eq!(out, units, "seed {seed}: every {side:?} unit accounted for");
        }
    }
    assert_eq!(ended, battles);
    assert!(actions_total > battles * 5);
    assert!(bogus_accepted > 0, "no random action was ever legal");
}

#[test]
fn random_battles_end_in_every_way() {
    let v = titan_core::load(&common::root().join("variants/titan"), &common::options()).unwrap();
    let mut time_losses = 0;
    let mut eliminations = 0;
    let mut slain = 0;
    for seed in 0..300u64 {
        let mut rng = GameRng::new(seed);
        let setup = BattleSetup {
            terrain: TerrainId((seed % 11) as u8),
            attacker: legion(&v, &mut rng),
            defender: legion(&v, &mut rng),
            attacker_edge: v.rules.battle.attacker_edges[0],
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut b = Battle::new(&v, setup, GameRng::new(seed)).unwrap();
        while b.result().is_none() {
            let a = b.legal_actions();
            let pick = a[(rng.roll(a.len() as u32) - 1) as usize].clone();
            b.apply(pick).unwrap();
        }
        let r = b.result().unwrap();
        if r.time_loss {
            time_losses += 1;
        } else {
            eliminations += 1;
        }
        slain += r.attacker_slain.len() + r.defender_slain.len();
    }
    eprintln!("time losses {time_losses}, other ends {eliminations}, slain {slain}");
    assert!(time_losses > 0 && eliminations > 0 && slain > 0);
}
