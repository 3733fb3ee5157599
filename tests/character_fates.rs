//! How a legion lost its characters reaches scripts (`character_slain`'s
//! `fate`: slain, fled, conceded or removed), so that a bounty pays only for
//! the slain; and a legion fighting a battle keeps the characters it began
//! with (docs/scripting.md, "Events" and "Effects").

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use titan_core::format::{OptionValue, VarValue};
use titan_core::game::random::random_action;
use titan_core::game::{Action, Event, Game, Loss, PlayerId};
use titan_core::rng::GameRng;
use titan_core::vars::VarTarget;

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("tests/fixtures/battle-start-hire");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn names() -> Vec<String> {
    ["A", "B", "C"].map(String::from).to_vec()
}

fn int(g: &Game, name: &str, p: u8) -> i64 {
    let def = g.variant.variable(name).unwrap();
    match g.state.vars.get(def, VarTarget::Player(PlayerId(p))) {
        VarValue::Int(i) => *i,
        other => panic!("{other:?}"),
    }
}

#[test]
fn character_slain_says_how_each_character_was_lost() {
    let v = variant();
    let (mut kinds, mut total) = (std::collections::BTreeSet::new(), 0);
    for seed in 1..=10u64 {
        let (mut g, _) = Game::new(Arc::clone(&v), BTreeMap::new(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        let (mut slain, mut gone) = ([0i64; 3], [0i64; 3]);
        for _ in 0..6000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            for e in g.apply(p, &a).unwrap() {
                if let Event::Slain {
                    legion,
                    characters,
                    loss,
                } = e
                {
                    let n = characters.len() as i64;
                    kinds.insert(format!("{loss:?}"));
                    total += n;
                    match loss {
                        Loss::Slain => slain[legion.player.0 as usize] += n,
                        _ => gone[legion.player.0 as usize] += n,
                    }
                }
            }
        }
        for p in 0..3u8 {
            assert_eq!(
                int(&g, "slain", p),
                slain[p as usize],
                "seed {seed} seat {p}"
            );
            assert_eq!(int(&g, "gone", p), gone[p as usize], "seed {seed} seat {p}");
        }
    }
    assert!(total > 0);
    // Random games meet the slain and at least one other fate.
    assert!(kinds.contains("Slain") && kinds.len() >= 2, "{kinds:?}");
}

#[test]
fn a_legion_fighting_a_battle_gets_no_character_from_masterplay() {
    let mut options = BTreeMap::new();
    options.insert("late_recruit".to_string(), OptionValue::Bool(true));
    let (mut g, _) = Game::new(variant(), options, &names(), 3).unwrap();
    let mut rng = GameRng::new(3);
    let mut refused = 0;
    for _ in 0..6000 {
        let Some((p, a)) = random_action(&g, &mut rng) else {
            break;
        };
        let before = g.fingerprint();
        match g.apply(p, &a) {
            Ok(_) => {}
            Err(e) => {
                // Only the fight is refused, as a script error, changing
                // nothing; the players then settle it another way.
                assert!(matches!(a, Action::Fight), "{a:?}: {e}");
                assert!(e.is_script_failure(), "{e}");
                assert!(e.message.contains("is fighting a battle"), "{e}");
                assert_eq!(g.fingerprint(), before);
                refused += 1;
                if refused > 3 {
                    break;
                }
            }
        }
    }
    assert!(refused > 0, "no battle was begun");
}

#[test]
fn engagement_end_says_who_holds_the_land() {
    // docs/scripting.md, "Events": `engagement_end` fires after all that
    // follows an engagement, with who holds the land.
    let dir = common::root().join("tests/fixtures/engagement-end");
    let v =
        Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")));
    let mut ended = 0;
    for seed in 1..=6u64 {
        let (mut g, _) = Game::new(Arc::clone(&v), BTreeMap::new(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        let mut held = [0i64; 3];
        for _ in 0..4000 {
            let Some((p, a)) = random_action(&g, &mut rng) else {
                break;
            };
            let engagement = g.state.engagement.clone();
            g.apply(p, &a).unwrap();
            if let Some(en) = engagement
                && g.state
                    .engagement
                    .as_ref()
                    .is_none_or(|e| e.attacker != en.attacker || e.defender != en.defender)
            {
                match (
                    g.legion(en.attacker).is_some(),
                    g.legion(en.defender).is_some(),
                ) {
                    (true, false) => held[en.attacker.player.0 as usize] += 1,
                    (false, true) => held[en.defender.player.0 as usize] += 1,
                    _ => {}
                }
                ended += 1;
            }
        }
        for p in 0..3u8 {
            assert_eq!(int(&g, "held", p), held[p as usize], "seed {seed} seat {p}");
        }
    }
    assert!(ended > 5, "{ended}");
}
