//! What scripts may look up (docs/scripting.md, "Lookups"): a character's
//! data, the caretaker's counts, the legion size limit, a land's exits and
//! neighbours, and a legion's moves, each equal to what the engine itself
//! answers.

mod common;

use std::sync::Arc;

use titan_core::format::VarValue;
use titan_core::game::{Action, Game, Phase};
use titan_core::script::ScriptArg;
use titan_core::vars::VarTarget;

fn game() -> Game {
    let dir = common::root().join("tests/fixtures/lookups");
    let v =
        Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")));
    let names = ["A", "B"].map(String::from).to_vec();
    Game::new(v, Default::default(), &names, 21).unwrap().0
}

fn var(g: &Game, name: &str) -> VarValue {
    let def = g.variant.variable(name).unwrap();
    g.state.vars.get(def, VarTarget::Game).clone()
}

fn names(g: &Game, name: &str) -> Vec<String> {
    match var(g, name) {
        VarValue::Names(n) => n,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn characters_the_caretaker_and_the_board_are_as_the_engine_has_them() {
    let g = game();
    let v = &g.variant;
    let ogre = v.character_by_name("Ogre").unwrap();
    let c = v.character(ogre);
    let natives: Vec<&str> = v
        .hazards
        .iter()
        .enumerate()
        .filter(|(i, _)| c.natives.contains(titan_core::model::HazardId(*i as u8)))
        .map(|(_, h)| h.name.as_str())
        .collect();
    assert_eq!(
        var(&g, "ogre"),
        VarValue::Text(format!(
            "Ogre {} {} {} {} {}",
            c.power,
            c.skill,
            v.class(c.class).name,
            c.flies,
            natives.join(",")
        ))
    );
    assert_eq!(
        var(&g, "ogres_left"),
        VarValue::Int(i64::from(g.state.caretaker[ogre.index()]))
    );
    assert_eq!(
        var(&g, "max_size"),
        VarValue::Int(i64::from(v.rules.legions.max_size))
    );
    let one = v
        .board
        .lands()
        .find(|&l| v.board.land(l).number == 1)
        .unwrap();
    let mut exits: Vec<String> = v
        .board
        .exits(one)
        .map(|(sign, to)| (v.board.land(to).number, sign))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|(to, sign)| {
            format!(
                "{to}:{}",
                match sign {
                    titan_core::format::Sign::Block => "block",
                    titan_core::format::Sign::Arch => "arch",
                    titan_core::format::Sign::Arrow => "arrow",
                    titan_core::format::Sign::TripleArrow => "triple_arrow",
                    titan_core::format::Sign::Gate => "gate",
                }
            )
        })
        .collect();
    let mut got = names(&g, "exits");
    exits.sort();
    got.sort();
    assert_eq!(got, exits);
    assert!(!names(&g, "neighbours").is_empty());
    for n in names(&g, "neighbours") {
        let n: u32 = n.parse().unwrap();
        let other = v
            .board
            .lands()
            .find(|&l| v.board.land(l).number == n)
            .unwrap();
        assert!(
            v.board.exits(one).any(|(_, t)| t == other)
                || v.board.exits(other).any(|(_, t)| t == one),
            "{n} is not next to land 1"
        );
    }
}

#[test]
fn a_legions_moves_are_the_moves_the_rules_list() {
    let mut checked = 0;
    for seed in 1..=8u64 {
        let mut g = game();
        let mut rng = titan_core::rng::GameRng::new(seed);
        for _ in 0..400 {
            let p = g.state.active;
            if g.state.phase == Phase::Move
                && g.state.roll.is_some()
                && g.state.engagement.is_none()
            {
                let legal = g.legal_actions(p);
                for l in g
                    .state
                    .legions
                    .clone()
                    .iter()
                    .filter(|l| l.owner == p && !l.moved)
                {
                    let probe = Action::Script {
                        name: "probe".into(),
                        args: vec![ScriptArg::Legion(l.marker)],
                    };
                    if !legal.contains(&probe) {
                        continue;
                    }
                    let mut copy = g.clone();
                    copy.apply(p, &probe).unwrap();
                    let mut got = names(&copy, "moves");
                    let mut want: Vec<String> = legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Move {
                                legion,
                                to,
                                entered_from,
                            } if *legion == l.marker => Some(format!(
                                "{}<{}",
                                g.variant.board.land(*to).number,
                                g.variant.board.land(*entered_from).number
                            )),
                            _ => None,
                        })
                        .collect();
                    got.sort();
                    want.sort();
                    want.dedup();
                    assert_eq!(got, want, "seed {seed} legion {}", l.marker);
                    checked += 1;
                }
            }
            let Some((q, a)) = titan_core::game::random::random_action(&g, &mut rng) else {
                break;
            };
            if matches!(a, Action::Script { .. }) {
                continue;
            }
            g.apply(q, &a).unwrap();
        }
    }
    assert!(checked > 20, "{checked}");
}
