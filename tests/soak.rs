//! Soak: seeded random games of 2 to 6 players, each played by picking random
//! legal actions until the game ends or a turn bound, checking the invariants
//! after every action (no legion over its limit, one legion per land outside
//! engagements, markers unique, every character accounted for).

mod common;

use std::sync::Arc;

use titan_core::game::random::random_action;
use titan_core::game::{Game, Phase};
use titan_core::rng::GameRng;

const GAMES: u64 = 1000;
/// Game turns before a game is stopped (random players rarely finish).
const TURN_BOUND: u32 = 30;

#[test]
fn a_thousand_random_games_keep_the_invariants() {
    let dir = common::root().join("variants/titan");
    let variant = Arc::new(titan_core::load(&dir, &common::options()).unwrap());
    let mut finished = 0;
    let mut actions = 0u64;
    for seed in 0..GAMES {
        let players = 2 + (seed % 5) as usize;
        let names: Vec<String> = (1..=players).map(|i| format!("player {i}")).collect();
        let (mut game, _) = Game::new(variant.clone(), Default::default(), &names, seed).unwrap();
        let mut rng = GameRng::new(seed ^ 0x5eed);
        while game.state.turn <= TURN_BOUND {
            let Some((player, action)) = random_action(&game, &mut rng) else {
                break;
            };
            if let Err(e) = game.apply(player, &action) {
                panic!("seed {seed}: a legal action was refused: {action:?}: {e}");
            }
            actions += 1;
            if let Err(e) = game.check_invariants() {
                panic!("seed {seed} after {action:?}: {e}");
            }
        }
        if game.state.phase == Phase::Over {
            finished += 1;
        }
    }
    eprintln!("{GAMES} games, {actions} actions, {finished} played to the end");
    assert!(actions > GAMES * 50);
}
