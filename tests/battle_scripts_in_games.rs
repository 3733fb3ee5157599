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
