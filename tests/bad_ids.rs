//! Actions naming a character, land or battle hex the variant does not have
//! (a client's JSON read straight into the core's types, as the server
//! does) are refused with the game unchanged, at every step of random games,
//! never a panic.

mod common;

use std::sync::Arc;

use titan_core::battle::Action as BattleAction;
use titan_core::battleland::HexId;
use titan_core::game::random::random_action;
use titan_core::game::{Action, Game, Marker, PlayerId, TeleportKind};
use titan_core::model::{CharacterId, LandId};
use titan_core::rng::GameRng;
use titan_core::script::ScriptArg;

/// Every kind of action, each with one id out of the variant's range.
fn bad_actions(g: &Game, legion: Marker) -> Vec<Action> {
    let ch = CharacterId(g.variant.characters.len() as u16 + 7);
    let land = LandId::new(g.variant.board.land_count() + 5);
    let real = LandId::new(0);
    let any = CharacterId(0);
    vec![
        Action::InitialSplit {
            legions: vec![vec![ch, any], vec![any]],
        },
        Action::Split {
            legion,
            parts: vec![vec![ch, any]],
        },
        Action::Move {
            legion,
            to: land,
            entered_from: real,
        },
        Action::Move {
            legion,
            to: real,
            entered_from: land,
        },
        Action::Teleport {
            legion,
            to: land,
            kind: TeleportKind::Tower,
            lord: any,
        },
        Action::Teleport {
            legion,
            to: real,
            kind: TeleportKind::Tower,
            lord: ch,
        },
        Action::Engage { land },
        Action::Propose {
            attacker_losses: vec![ch],
            defender_losses: vec![],
        },
        Action::Summon {
            from: legion,
            character: ch,
        },
        Action::Acquire { character: ch },
        Action::Reinforce {
            recruit: ch,
            reveal: vec![],
        },
        Action::Reinforce {
            recruit: any,
            reveal: vec![ch],
        },
        Action::Muster {
            legion,
            recruit: ch,
            reveal: vec![],
        },
        Action::Muster {
            legion,
            recruit: any,
            reveal: vec![ch, any],
        },
        Action::Battle {
            battle: BattleAction::Move {
                unit: 0,
                to: HexId(200),
            },
        },
        Action::Battle {
            battle: BattleAction::Summon {
                choice: 0,
                to: HexId(27),
            },
        },
        Action::Script {
            name: "anything".into(),
            args: vec![ScriptArg::Land(land)],
        },
        Action::Script {
            name: "anything".into(),
            args: vec![ScriptArg::Character(ch)],
        },
        Action::Script {
            name: "anything".into(),
            args: vec![ScriptArg::Hex(HexId(99))],
        },
    ]
}

#[test]
fn ids_out_of_range_are_refused_at_every_step() {
    for name in ["titan", "house-spells"] {
        let dir = common::root().join("variants").join(name);
        let v = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
        let names: Vec<String> = (0..3).map(|i| format!("P{i}")).collect();
        for seed in 0..4 {
            let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            let mut pick = GameRng::new(seed);
            for _ in 0..600 {
                for p in g.to_act() {
                    let legion = g
                        .state
                        .legions
                        .iter()
                        .find(|l| l.marker.player == p)
                        .map(|l| l.marker)
                        .unwrap_or("P1-01".parse().unwrap());
                    for a in bad_actions(&g, legion) {
                        let before = g.fingerprint();
                        let err = g
                            .apply(p, &a)
                            .expect_err("an action with an id out of range is refused");
                        assert!(!err.message.is_empty(), "{a:?}");
                        assert_eq!(g.fingerprint(), before, "{a:?} changed the game");
                    }
                }
                let Some((p, a)) = random_action(&g, &mut pick) else {
                    break;
                };
                // The same action by a seat the game does not have.
                let before = g.fingerprint();
                assert!(g.apply(PlayerId(60), &a).is_err(), "{a:?} by seat 60");
                assert_eq!(g.fingerprint(), before);
                g.apply(p, &a).unwrap();
            }
        }
    }
}
