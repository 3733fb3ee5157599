//! Battle scripts reach the whole game (docs/scripting.md, "Variables":
//! "In a battle"): a game's battle reads and sets the game's variables of
//! every scope, and they stay the game's through the battle's end, saves,
//! replays, views and refused actions.

mod common;

use std::sync::Arc;

use titan_core::format::VarValue;
use titan_core::game::random::random_action;
use titan_core::game::view::view;
use titan_core::game::{Game, PlayerId};
use titan_core::rng::GameRng;
use titan_core::vars::VarTarget;

fn variant(name: &str) -> Arc<titan_core::Variant> {
    let dir = common::root().join("tests/fixtures").join(name);
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn int(g: &Game, name: &str, of: VarTarget) -> i64 {
    let def = g.variant.variable(name).unwrap();
    match g.state.vars.get(def, of) {
        VarValue::Int(i) => *i,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn battle_scripts_read_and_set_the_games_variables() {
    let names = ["A", "B"].map(String::from).to_vec();
    let v = variant("battle-state");
    let mut strike_phases_seen = 0;
    let mut battles = 0;
    for seed in 1..=6u64 {
        let (mut g, _) = Game::new(Arc::clone(&v), Default::default(), &names, seed).unwrap();
        let mut rng = GameRng::new(seed);
        // Morale counted here from the battle events, by legion.
        let mut morale: std::collections::HashMap<String, i64> = Default::default();
        let mut ended_here = 0;
        for _ in 0..3000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let fights_before = int(&g, "fights", VarTarget::Game);
            let engagement = g.state.engagement.clone();
            let events = g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
            for e in &events {
                let titan_core::game::Event::Battle { events: inner } = e else {
                    continue;
                };
                for b in inner {
                    if let titan_core::battle::BattleEvent::GameVarSet { variable, of, .. } = b
                        && variable == "morale"
                        && let VarTarget::Legion(m) = of
                    {
                        *morale.entry(m.to_string()).or_default() += 1;
                        strike_phases_seen += 1;
                        // Read in the battle: the value masterplay set.
                        assert_eq!(int(&g, "seen", VarTarget::Game), fights_before);
                    }
                    if matches!(b, titan_core::battle::BattleEvent::Ended(_)) {
                        battles += 1;
                        ended_here += 1;
                    }
                }
            }
            // A legion that is gone takes its values along (its marker
            // starts afresh when used again).
            morale.retain(|m, _| g.state.legions.iter().any(|l| l.marker.to_string() == *m));
            // A legion's morale is the game's at once and lasts from battle
            // to battle (as long as the legion does).
            if let Some(en) = engagement {
                for m in [en.attacker, en.defender] {
                    if g.legion(m).is_some() {
                        let want = morale.get(&m.to_string()).copied().unwrap_or(0);
                        assert_eq!(int(&g, "morale", VarTarget::Legion(m)), want, "{m}");
                    }
                }
            }
        }
        assert!(g.take_script_failure().is_none());
        // 7 at the start, and one more at each battle's end.
        assert_eq!(int(&g, "fights", VarTarget::Game), 7 + ended_here);
        // A save replays to the same variables.
        let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
        assert_eq!(back.state, g.state);
        assert_eq!(back.state_hash(), g.state_hash());
        // Views: a player sees his own hits, not the other's.
        for seat in 0..2u8 {
            let seen: Vec<_> = view(&g, PlayerId(seat))
                .vars
                .iter()
                .filter(|e| e.variable == "hits")
                .map(|e| e.of)
                .collect();
            assert!(
                seen.iter()
                    .all(|of| *of == VarTarget::Player(PlayerId(seat))),
                "{seen:?}"
            );
        }
    }
    assert!(
        battles > 0 && strike_phases_seen > 0,
        "{battles} {strike_phases_seen}"
    );
}

/// The characters of a legion, sorted.
fn characters(g: &Game, m: titan_core::game::Marker) -> Vec<titan_core::model::CharacterId> {
    let mut c = g
        .legion(m)
        .map(|l| l.characters.clone())
        .unwrap_or_default();
    c.sort();
    c
}

#[test]
fn a_withdrawn_character_stays_in_its_legion_when_its_side_wins_and_goes_with_it_if_not() {
    // docs/scripting.md, "Withdrawing a unit": in a game, a unit withdrawn
    // (`ctx:withdraw`) goes on living in its legion when its side wins the
    // battle; when its side concedes, the legion is lost whole and the
    // withdrawn character is removed, unscored (the `Slain` event's loss
    // `Removed`), while the conceded are slain (reference sheet, "Scoring
    // Battles"). Saves replay it.
    use titan_core::battle::{Action as B, BattleEvent, BattleSide, Fate, Phase, Status};
    use titan_core::game::{Action, Event, Loss};
    let names = ["A", "B"].map(String::from).to_vec();
    let v = variant("withdraw");
    let (mut kept, mut lost) = (0, 0);
    for seed in 1..=30u64 {
        let (mut g, _) = Game::new(Arc::clone(&v), Default::default(), &names, seed).unwrap();
        let mut rng = GameRng::new(seed);
        // The side whose unit withdraws: the attacker, which then concedes,
        // or the defender, for which the attacker then concedes.
        let withdrawing = if seed % 2 == 0 {
            BattleSide::Attacker
        } else {
            BattleSide::Defender
        };
        for _ in 0..4000 {
            let ready = g.battle().and_then(|b| {
                let on: Vec<u8> = (0..b.units().len() as u8)
                    .filter(|&i| {
                        let u = &b.units()[i as usize];
                        u.side == withdrawing && matches!(u.status, Status::OnBoard(_))
                    })
                    .collect();
                (b.phase() == Phase::Maneuver && b.to_act() == withdrawing && on.len() >= 2)
                    .then(|| (on[0], b.units()[on[0] as usize].character))
            });
            if let Some((unit, character)) = ready {
                let en = g.state.engagement.clone().unwrap();
                let legion = match withdrawing {
                    BattleSide::Attacker => en.attacker,
                    BattleSide::Defender => en.defender,
                };
                let owner = |g: &Game, m| g.legion(m).unwrap().owner;
                let (att, me) = (owner(&g, en.attacker), owner(&g, legion));
                let before = characters(&g, legion);
                let act = |b: B| Action::Battle { battle: b };
                let events = g
                    .apply(
                        me,
                        &act(B::Script {
                            name: "retreat".into(),
                            unit,
                            args: vec![],
                        }),
                    )
                    .unwrap();
                let withdrawn = BattleEvent::Withdrawn { unit };
                assert!(
                    events.iter().any(
                        |e| matches!(e, Event::Battle { events } if events.contains(&withdrawn))
                    ),
                    "{events:?}"
                );
                let status = g.battle().unwrap().units()[unit as usize].status;
                assert_eq!(status, Status::Gone(Fate::Withdrawn));
                // A save replays to it.
                let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
                assert_eq!(back.state_hash(), g.state_hash());
                let replayed = back.battle().unwrap().units()[unit as usize].status;
                assert_eq!(replayed, Status::Gone(Fate::Withdrawn));
                // Both sides' views show it withdrawn.
                for side in [BattleSide::Attacker, BattleSide::Defender] {
                    let seen = g.battle().unwrap().view(side).units[unit as usize].status;
                    assert_eq!(seen, Status::Gone(Fate::Withdrawn));
                }
                if withdrawing == BattleSide::Defender {
                    // On to the attacker's decision, if nobody must strike.
                    while g
                        .battle()
                        .is_some_and(|b| b.to_act() == BattleSide::Defender)
                    {
                        let end = match g.battle().unwrap().phase() {
                            Phase::Maneuver => B::EndManeuver,
                            _ => B::EndStrikes,
                        };
                        if g.apply(me, &act(end)).is_err() {
                            break;
                        }
                    }
                    if !g
                        .battle()
                        .is_some_and(|b| b.to_act() == BattleSide::Attacker)
                    {
                        continue;
                    }
                }
                // The withdrawing side's units out of the battle by now but
                // the withdrawn: what its legion loses if it wins.
                let mut out: Vec<_> = g
                    .battle()
                    .unwrap()
                    .units()
                    .iter()
                    .filter(|u| {
                        u.side == withdrawing
                            && (u.is_slain()
                                || matches!(u.status, Status::Gone(f) if f != Fate::Withdrawn))
                    })
                    .map(|u| u.character)
                    .collect();
                out.sort();
                let events = g
                    .apply(att, &act(B::Concede(BattleSide::Attacker)))
                    .unwrap();
                if withdrawing == BattleSide::Attacker {
                    // The withdrawn one removed, the conceded slain.
                    let removed: Vec<_> = events
                        .iter()
                        .filter_map(|e| match e {
                            Event::Slain {
                                legion: l,
                                characters,
                                loss: Loss::Removed,
                            } if *l == legion => Some(characters.clone()),
                            _ => None,
                        })
                        .flatten()
                        .collect();
                    assert_eq!(removed, vec![character], "seed {seed}: {events:?}");
                    assert!(g.legion(legion).is_none());
                    lost += 1;
                } else {
                    let mut lost_here: Vec<_> = events
                        .iter()
                        .filter_map(|e| match e {
                            Event::Slain {
                                legion: l,
                                characters,
                                ..
                            } if *l == legion => Some(characters.clone()),
                            _ => None,
                        })
                        .flatten()
                        .collect();
                    lost_here.sort();
                    assert_eq!(lost_here, out, "seed {seed}: {events:?}");
                    // (Unless its player is out: a Titan slain in the
                    // battle takes all his legions.)
                    if g.legion(legion).is_some() {
                        let mut after = characters(&g, legion);
                        after.extend(lost_here);
                        after.sort();
                        assert_eq!(after, before, "seed {seed}: {events:?}");
                        assert!(characters(&g, legion).contains(&character));
                        kept += 1;
                    }
                }
                let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
                assert_eq!(back.state, g.state);
                continue;
            }
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            // Random play takes the withdrawals and returns too.
            g.apply(p, &a)
                .unwrap_or_else(|e| panic!("seed {seed}: {a:?}: {e}"));
        }
        assert!(g.take_script_failure().is_none());
        let back = Game::from_save(Arc::clone(&g.variant), &g.to_save()).unwrap();
        assert_eq!(back.state_hash(), g.state_hash());
    }
    assert!(kept > 2 && lost > 2, "{kept} kept, {lost} lost");
}
