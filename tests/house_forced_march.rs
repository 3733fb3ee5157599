//! The bundled house rule `house-forced-march`
//! (variants/house-forced-march/README.md): every legion that can move
//! must, and a legion left standing loses a deserter its player chooses.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use titan_core::format::{OptionValue, VarValue};
use titan_core::game::random::random_action;
use titan_core::game::{Action, Event, Game, Phase, SCRIPTED_RULE};
use titan_core::rng::GameRng;
use titan_core::vars::VarTarget;

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("variants/house-forced-march");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

fn names() -> Vec<String> {
    ["A", "B"].map(String::from).to_vec()
}

#[test]
fn every_legion_that_can_move_moves() {
    // README, rule 1.
    let (mut held, mut ended) = (0, 0);
    for seed in 1..=6u64 {
        let (mut g, _) = Game::new(variant(), Default::default(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..3000 {
            let p = g.state.active;
            if g.state.phase == Phase::Move
                && g.state.roll.is_some()
                && g.state.engagement.is_none()
            {
                let legal = g.legal_actions(p);
                let can_move = legal.iter().any(|a| matches!(a, Action::Move { .. }));
                if can_move {
                    assert!(!legal.contains(&Action::DoneMoving), "seed {seed}");
                    let e = g.apply(p, &Action::DoneMoving).unwrap_err();
                    assert_eq!(e.rule, SCRIPTED_RULE);
                    assert!(e.message.contains("forced march"), "{e}");
                    held += 1;
                }
            }
            let Some((q, a)) = random_action(&g, &mut rng) else {
                break;
            };
            ended += usize::from(a == Action::DoneMoving);
            g.apply(q, &a)
                .unwrap_or_else(|e| panic!("seed {seed} {a:?}: {e}"));
        }
    }
    assert!(held > 10 && ended > 10, "{held} {ended}");
}

#[test]
fn a_legion_left_standing_loses_a_deserter_its_player_chooses() {
    // README, rule 2, with `desertion_size` 1 so that every legion that
    // stood still loses one (but a legion of one character: never emptied).
    let mut options = BTreeMap::new();
    options.insert("desertion_size".to_string(), OptionValue::Int(1));
    let mut deserted = 0;
    for seed in 1..=6u64 {
        let (mut g, _) = Game::new(variant(), options.clone(), &names(), seed).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..3000 {
            let p = g.state.active;
            if g.state.phase == Phase::Muster && g.state.engagement.is_none() {
                let standing: Vec<_> = g
                    .state
                    .legions
                    .iter()
                    .filter(|l| {
                        let def = g.variant.variable("deserted").unwrap();
                        l.owner == p
                            && !l.moved
                            && l.characters.len() >= 2
                            && g.state.vars.get(def, VarTarget::Legion(l.marker))
                                != &VarValue::Int(i64::from(g.state.turn))
                    })
                    .map(|l| l.marker)
                    .collect();
                let legal = g.legal_actions(p);
                assert_eq!(
                    legal.contains(&Action::EndTurn),
                    standing.is_empty(),
                    "seed {seed}"
                );
                if let Some(&m) = standing.first() {
                    let desert = Action::Script {
                        name: "desert".into(),
                        args: vec![titan_core::script::ScriptArg::Legion(m)],
                    };
                    assert!(legal.contains(&desert));
                    g.apply(p, &desert).unwrap();
                    // The deserter is the player's next choice.
                    let choices = g.legal_actions(p);
                    let pick = choices
                        .iter()
                        .find(|a| matches!(a, Action::Script { name, .. } if name == "deserter"))
                        .expect("a deserter to choose")
                        .clone();
                    let Action::Script { args, .. } = &pick else {
                        unreachable!()
                    };
                    let titan_core::script::ScriptArg::Character(c) = args[0] else {
                        unreachable!()
                    };
                    assert_ne!(c, g.variant.rules.titan.character);
                    let (score, left, height) = (
                        g.state.players[p.0 as usize].score,
                        g.state.caretaker[c.index()],
                        g.legion(m).unwrap().characters.len(),
                    );
                    let events = g.apply(p, &pick).unwrap();
                    assert_eq!(g.state.players[p.0 as usize].score, score.saturating_sub(5));
                    assert_eq!(g.state.caretaker[c.index()], left + 1);
                    assert_eq!(g.legion(m).unwrap().characters.len(), height - 1);
                    assert!(events.iter().any(|e| matches!(e, Event::Returned { .. })));
                    deserted += 1;
                    continue;
                }
            }
            let Some((q, a)) = random_action(&g, &mut rng) else {
                break;
            };
            g.apply(q, &a)
                .unwrap_or_else(|e| panic!("seed {seed} {a:?}: {e}"));
        }
    }
    assert!(deserted > 5, "{deserted}");
}
