//! The bundled house rule `house-veterans` (variants/house-veterans/README.md):
//! veterancy won in battles, the veterans' skill, and the transfer of a
//! character chosen in two steps.

mod common;

use std::sync::Arc;

use titan_core::format::VarValue;
use titan_core::game::random::random_action;
use titan_core::game::{Action, Event, Game, Phase, PlayerId};
use titan_core::rng::GameRng;
use titan_core::vars::VarTarget;

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("variants/house-veterans");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn names() -> Vec<String> {
    ["A", "B", "C"].map(String::from).to_vec()
}

fn int(g: &Game, name: &str, of: VarTarget) -> i64 {
    match g.state.vars.get(g.variant.variable(name).unwrap(), of) {
        VarValue::Int(i) => *i,
        other => panic!("{other:?}"),
    }
}

fn set(g: &mut Game, name: &str, of: VarTarget, v: i64) {
    let def = g.variant.variable(name).unwrap().clone();
    g.state.vars.set(&def, of, VarValue::Int(v));
}

#[test]
fn a_legion_that_wins_a_battle_gains_veterancy() {
    // README, "Veterancy": one for a battle won, two when it slew three or
    // more; at most 3; the kills start afresh.
    let mut won = 0;
    for seed in 1..=12u64 {
        let (mut g, _) = Game::new(variant(), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..5000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let before = g.clone();
            let events = g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            for e in &events {
                let Event::Battle { events: inner } = e else {
                    continue;
                };
                let Some(w) = inner.iter().find_map(|b| match b {
                    titan_core::battle::BattleEvent::Ended(w) => Some(*w),
                    _ => None,
                }) else {
                    continue;
                };
                let en = before.state.engagement.clone().unwrap();
                let winner = match w {
                    titan_core::battle::Winner::Attacker => en.attacker,
                    titan_core::battle::Winner::Defender => en.defender,
                    titan_core::battle::Winner::Neither => continue,
                };
                if g.legion(winner).is_none() {
                    continue;
                }
                // Kills before this action, and the enemies slain in it
                // (each counts for the side that did not lose the unit).
                let side = if winner == en.attacker {
                    titan_core::battle::BattleSide::Attacker
                } else {
                    titan_core::battle::BattleSide::Defender
                };
                let units: Vec<_> = before.battle().unwrap().units().to_vec();
                let slain_now = inner
                    .iter()
                    .filter(|b| {
                        matches!(b, titan_core::battle::BattleEvent::Slain { unit }
                        if units.get(*unit as usize).is_some_and(|u| u.side != side))
                    })
                    .count() as i64;
                let kills = int(&before, "kills", VarTarget::Legion(winner)) + slain_now;
                let gain = if kills >= 3 { 2 } else { 1 };
                let old = int(&before, "veterancy", VarTarget::Legion(winner));
                let now = int(&g, "veterancy", VarTarget::Legion(winner));
                assert_eq!(
                    now,
                    (old + gain).min(3),
                    "seed {seed}: {old} + {gain} (kills {kills})"
                );
                assert_eq!(int(&g, "kills", VarTarget::Legion(winner)), 0);
                won += 1;
            }
        }
    }
    assert!(won > 5, "{won}");
}

#[test]
fn veterans_strike_with_one_more_skill() {
    // README, "Veterans fight better": a legion of veterancy 2 or more.
    let mut seen = 0;
    for seed in 1..=12u64 {
        let (mut g, _) = Game::new(variant(), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        let mut veteran = None;
        for _ in 0..5000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let events = g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            if events
                .iter()
                .any(|e| matches!(e, Event::BattleBegins { .. }))
            {
                let m = g.state.engagement.as_ref().unwrap().attacker;
                set(&mut g, "veterancy", VarTarget::Legion(m), 2);
                veteran = Some(m);
            }
            let Some(m) = veteran else { continue };
            let Some(b) = g.battle() else {
                veteran = None;
                continue;
            };
            if !matches!(b.phase(), titan_core::battle::Phase::Strike { .. }) {
                continue;
            }
            let _ = m;
            for u in b.view(titan_core::battle::BattleSide::Attacker).units {
                if u.side != titan_core::battle::BattleSide::Attacker
                    || !matches!(u.status, titan_core::state::units::Status::OnBoard(_))
                {
                    continue;
                }
                let base = g
                    .variant
                    .character(g.variant.character_by_name(&u.character).unwrap())
                    .skill;
                assert_eq!(
                    u.skill,
                    (base + 1).min(4.max(base)),
                    "seed {seed} {}",
                    u.character
                );
                seen += 1;
            }
        }
    }
    assert!(seen > 10, "{seen}");
}

#[test]
fn a_veteran_legion_passes_a_character_chosen_in_two_steps() {
    // README, "Transfer": after a split, the veteran legion passes one
    // character (not its Titan) to the legion beside it; which one is the
    // player's next choice.
    let mut done = 0;
    for seed in 1..=20u64 {
        let (mut g, _) = Game::new(variant(), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..3000 {
            let p = g.state.active;
            if g.state.phase == Phase::Split && g.state.turn >= 2 {
                let split = g
                    .legal_actions(p)
                    .into_iter()
                    .find(|a| matches!(a, Action::Split { .. }));
                if let Some(split) = split {
                    g.apply(p, &split).unwrap();
                    let mine: Vec<_> = g
                        .state
                        .legions
                        .iter()
                        .filter(|l| l.owner == p)
                        .cloned()
                        .collect();
                    let (a, b) = mine
                        .iter()
                        .flat_map(|a| mine.iter().map(move |b| (a, b)))
                        .find(|(a, b)| {
                            a.marker != b.marker && a.land == b.land && a.characters.len() >= 2
                        })
                        .map(|(a, b)| (a.clone(), b.clone()))
                        .unwrap();
                    set(&mut g, "veterancy", VarTarget::Legion(a.marker), 1);
                    let transfer = Action::Script {
                        name: "transfer".into(),
                        args: vec![
                            titan_core::script::ScriptArg::Legion(a.marker),
                            titan_core::script::ScriptArg::Legion(b.marker),
                        ],
                    };
                    assert!(g.legal_actions(p).contains(&transfer), "seed {seed}");
                    g.apply(p, &transfer).unwrap();
                    let picks = g.legal_actions(p);
                    assert!(
                        picks.iter().all(
                            |x| matches!(x, Action::Script { name, .. } if name == "transfer_pick")
                                || *x == Action::ConcedeGame
                        ),
                        "{picks:?}"
                    );
                    let titan = g.variant.rules.titan.character;
                    let pick = picks[0].clone();
                    let Action::Script { args, .. } = &pick else {
                        panic!()
                    };
                    let titan_core::script::ScriptArg::Character(c) = args[0] else {
                        panic!()
                    };
                    assert_ne!(c, titan, "a Titan is never passed");
                    let (na, nb) = (a.characters.len(), b.characters.len());
                    g.apply(p, &pick).unwrap();
                    assert_eq!(g.legion(a.marker).unwrap().characters.len(), na - 1);
                    assert_eq!(g.legion(b.marker).unwrap().characters.len(), nb + 1);
                    // Once a turn.
                    assert!(
                        !g.legal_actions(p).iter().any(
                            |x| matches!(x, Action::Script { name, .. } if name == "transfer")
                        )
                    );
                    let _ = PlayerId(0);
                    done += 1;
                    break;
                }
            }
            let Some((q, x)) = random_action(&g, &mut rng) else {
                break;
            };
            g.apply(q, &x).unwrap();
        }
    }
    assert!(done > 5, "{done}");
}
