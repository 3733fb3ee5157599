//! Scripts hold a player in his phase (docs/scripting.md, "Holding a player
//! in his phase"): `may_end_phase` answers false while he has something
//! else to do; the end is then not offered, and taking it is refused with
//! the script's reason as a rule of the variant, not a script failure.

mod common;

use std::sync::Arc;

use titan_core::game::random::random_action;
use titan_core::game::{Action, Game, Phase, SCRIPTED_RULE};
use titan_core::rng::GameRng;

fn variant() -> Arc<titan_core::Variant> {
    let dir = common::root().join("tests/fixtures/phase-holds");
    Arc::new(titan_core::load(&dir, &common::options()).unwrap_or_else(|e| panic!("{e:#?}")))
}

#[test]
fn the_move_phase_ends_only_when_every_legion_that_can_move_has_moved() {
    let names = ["A", "B"].map(String::from).to_vec();
    let (mut held, mut ended) = (0, 0);
    for seed in 1..=6u64 {
        let (mut g, _) = Game::new(variant(), Default::default(), &names, seed).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..3000 {
            let p = g.state.active;
            if g.state.phase == Phase::Move
                && g.state.roll.is_some()
                && g.state.engagement.is_none()
            {
                let legal = g.legal_actions(p);
                let can_move = legal.iter().any(|a| matches!(a, Action::Move { .. }));
                assert_eq!(
                    legal.contains(&Action::DoneMoving),
                    !can_move || legal.len() <= 1,
                    "seed {seed}: {legal:?}"
                );
                if can_move {
                    let before = g.fingerprint();
                    let e = g.apply(p, &Action::DoneMoving).unwrap_err();
                    assert_eq!(e.rule, SCRIPTED_RULE, "{e}");
                    assert!(!e.is_script_failure());
                    assert!(e.message.contains("every legion marches"), "{e}");
                    assert_eq!(g.fingerprint(), before);
                    held += 1;
                }
            }
            let Some((q, a)) = random_action(&g, &mut rng) else {
                break;
            };
            if a == Action::DoneMoving {
                ended += 1;
            }
            g.apply(q, &a)
                .unwrap_or_else(|e| panic!("seed {seed} {a:?}: {e}"));
        }
        assert!(g.take_script_failure().is_none());
    }
    assert!(held > 10 && ended > 10, "{held} {ended}");
}
