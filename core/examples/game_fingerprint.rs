//! Prints a fingerprint of N seeded random games per player count (every
//! player to act, legal-action list, action and event, the state at the
//! end, and now and then a refused action with an unchanged game), to check
//! that a change to masterplay keeps the same seeds giving the same games:
//! `cargo run --release -p titan-core --example game_fingerprint -- 100`;
//! `-- 500 time` times 500 random 4-player games (as `titan simulate games`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Arc;

use titan_core::game::random::choose;
use titan_core::game::{Action, Game};
use titan_core::rng::GameRng;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if std::env::args().nth(2).as_deref() == Some("time") {
        return time(&root, n);
    }
    let v = Arc::new(
        titan_core::load(&root.join("variants/titan"), &Default::default()).expect("loads"),
    );
    for seats in 2..=6usize {
        let names: Vec<String> = (1..=seats).map(|i| format!("P{i}")).collect();
        let mut h = DefaultHasher::new();
        let mut actions = 0u64;
        for seed in 0..n {
            let (mut game, ev) =
                Game::new(v.clone(), Default::default(), &names, seed).expect("starts");
            format!("{ev:?}").hash(&mut h);
            let mut pick = GameRng::new(seed ^ 0x5eed);
            while game.state.outcome.is_none() && game.state.turn <= 300 {
                let to_act = game.to_act();
                format!("{to_act:?}").hash(&mut h);
                if to_act.is_empty() {
                    break;
                }
                let player = to_act[pick.int_in(0, to_act.len() as i64 - 1) as usize];
                let legal = game.legal_actions(player);
                format!("{legal:?}").hash(&mut h);
                if let Some(b) = game.battle() {
                    format!("{:?}", b.fingerprint()).hash(&mut h);
                }
                // A refused action: its message and an unchanged game.
                if actions.is_multiple_of(37) {
                    let before = game.fingerprint();
                    let bad = Action::Battle {
                        battle: titan_core::battle::Action::CarryOver { target: Some(200) },
                    };
                    format!("{:?}", game.apply(player, &bad)).hash(&mut h);
                    assert_eq!(before, game.fingerprint());
                }
                let Some(action) = choose(legal, &mut pick) else {
                    break;
                };
                format!("{action:?}").hash(&mut h);
                let ev = game.apply(player, &action);
                format!("{ev:?}").hash(&mut h);
                if ev.is_err() {
                    break;
                }
                actions += 1;
            }
            game.fingerprint().hash(&mut h);
        }
        println!(
            "{seats} players: {n} games, {actions} actions, fingerprint {:016x}",
            h.finish()
        );
    }
}

/// `-- N time`: N random 4-player games played as `titan simulate games`
/// plays them, timed.
fn time(root: &Path, n: u64) {
    let v = Arc::new(
        titan_core::load(&root.join("variants/titan"), &Default::default()).expect("loads"),
    );
    let names: Vec<String> = (1..=4).map(|i| format!("P{i}")).collect();
    let start = std::time::Instant::now();
    let mut actions = 0u64;
    for seed in 0..n {
        let (mut game, _) = Game::new(v.clone(), Default::default(), &names, seed).expect("starts");
        let mut pick = GameRng::new(seed ^ 0x5eed);
        while game.state.outcome.is_none() && game.state.turn <= 300 {
            let Some((player, action)) = titan_core::game::random::random_action(&game, &mut pick)
            else {
                break;
            };
            game.apply(player, &action).expect("legal");
            actions += 1;
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{n} games, {actions} actions in {t:.2} s (wall): {:.0} games per second",
        n as f64 / t
    );
}
