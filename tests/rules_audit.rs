//! Rules of the `titan` variant checked against the rulebooks where no other
//! test did (an audit): each test names the section it checks. Positions are
//! scenario files under `tests/scenarios/`.

mod common;

use std::sync::Arc;

use titan_core::Variant;
use titan_core::battle::{Action as B, BattleSide};
use titan_core::game::save::Position;
use titan_core::game::{Action, Event, Game, Marker, PlayerId};
use titan_core::model::LandId;

fn titan() -> Arc<Variant> {
    let dir = common::root().join("variants/titan");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap())
}

fn at(file: &str) -> Game {
    let path = common::root().join("tests/scenarios").join(file);
    Position::read(&path).unwrap().to_game(titan()).unwrap()
}

fn land(g: &Game, n: u32) -> LandId {
    g.variant.board.by_number(n).unwrap()
}

fn m(s: &str) -> Marker {
    s.parse().unwrap()
}

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);

fn ok(g: &mut Game, p: PlayerId, a: Action) -> Vec<Event> {
    g.apply(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

fn reinforcement_offered(g: &Game, p: PlayerId) -> bool {
    g.legal_actions(p)
        .iter()
        .any(|a| matches!(a, Action::Reinforce { .. }))
}

/// The battle on land 5 of `engagement.ron` begun, the defender's first
/// maneuver (all its characters brought on) and strike phase played, up to
/// the attacker's first maneuver.
fn battle_to_the_attackers_first_maneuver() -> Game {
    let mut g = at("engagement.ron");
    let five = land(&g, 5);
    ok(&mut g, P1, Action::Engage { land: five });
    ok(&mut g, P2, Action::Stand);
    ok(&mut g, P2, Action::Fight);
    let is_move = |a: &Action| {
        matches!(
            a,
            Action::Battle {
                battle: B::Move { .. }
            }
        )
    };
    loop {
        let p = g.to_act()[0];
        let offers = g.legal_actions(p);
        if p == P1 && offers.iter().any(is_move) {
            break;
        }
        let a = offers
            .iter()
            .find(|a| is_move(a))
            .or_else(|| {
                offers.iter().find(
                    |a| matches!(a, Action::Battle { battle } if !matches!(battle, B::Concede(_))),
                )
            })
            .unwrap()
            .clone();
        ok(&mut g, p, a);
    }
    assert!(g.battle().is_some(), "the battle goes on");
    g
}

/// Reference sheet, Reinforcement: "If the attacker concedes before placing
/// characters, the defender may not muster."
#[test]
fn an_attacker_conceding_before_placing_characters_gives_no_muster() {
    let mut g = battle_to_the_attackers_first_maneuver();
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::Concede(BattleSide::Attacker),
        },
    );
    assert!(g.legion(m("P1-01")).is_none());
    assert!(!reinforcement_offered(&g, P2), "{:?}", g.legal_actions(P2));
}

/// Reference sheet, Reinforcement: "If the defender wins the Engagement ...
/// by the attacker conceding after committing characters to the Battle, the
/// defender may still muster after the Battle."
#[test]
fn an_attacker_conceding_after_placing_characters_lets_the_defender_muster() {
    let mut g = battle_to_the_attackers_first_maneuver();
    // The attacker brings one character on, then concedes.
    let on = g
        .legal_actions(P1)
        .into_iter()
        .find(|a| {
            matches!(
                a,
                Action::Battle {
                    battle: B::Move { .. }
                }
            )
        })
        .unwrap_or_else(|| panic!("{:?}", g.legal_actions(P1)));
    ok(&mut g, P1, on);
    ok(
        &mut g,
        P1,
        Action::Battle {
            battle: B::Concede(BattleSide::Attacker),
        },
    );
    assert!(g.legion(m("P1-01")).is_none());
    assert!(reinforcement_offered(&g, P2), "{:?}", g.legal_actions(P2));
}
