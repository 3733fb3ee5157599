//! Playing whole games and battles between computer players: what
//! tournaments, battle odds, benchmarks and soak tests run.
//!
//! A player's action goes to the engine like anyone's: when it is refused
//! (or the player fails), the refusal is counted and the seat's first legal
//! action is taken instead, so a failing player never corrupts a game.

use super::{Observation, Player, SeenBattle, fallback};
use crate::battle::{Battle, BattleResult, BattleSetup, BattleSide};
use crate::game::{Game, Outcome};
use crate::model::Variant;
use crate::rng::GameRng;

/// How a game between computer players went.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// None: stopped at the turn limit.
    pub outcome: Option<Outcome>,
    pub turns: u32,
    pub actions: u64,
    pub scores: Vec<u32>,
    /// Actions of the players the engine refused (a replacement was taken).
    pub refused: u64,
    /// Why the game could not go on, if it stopped on an error.
    pub error: Option<String>,
}

/// Plays `game` on with `players` (one per seat) until it ends or passes
/// `max_turns` game turns.
pub fn play_game(game: &mut Game, players: &mut [Box<dyn Player>], max_turns: u32) -> GameRecord {
    let mut actions = 0u64;
    let mut refused = 0u64;
    let mut error = None;
    // A game turn has at most a few thousand actions: far more means a loop.
    let limit = 20_000u64 * u64::from(max_turns.max(1));
    while game.state.outcome.is_none() && game.state.turn <= max_turns && actions < limit {
        let Some(&p) = game.to_act().first() else {
            break;
        };
        let Some(player) = players.get_mut(usize::from(p.0)) else {
            error = Some(format!("no player for seat {}", p.0 + 1));
            break;
        };
        let obs = Observation::of(game, p);
        let choice = player.choose(&obs);
        let done = match choice {
            Ok(a) => game.apply(p, &a).is_ok(),
            Err(_) => false,
        };
        if !done {
            refused += 1;
            let Ok(a) = fallback(&obs.legal) else {
                error = Some(format!("seat {} has no legal action", p.0 + 1));
                break;
            };
            if let Err(e) = game.apply(p, &a) {
                error = Some(format!("seat {}: {a:?} refused: {e}", p.0 + 1));
                break;
            }
        }
        actions += 1;
    }
    GameRecord {
        outcome: game.state.outcome.clone(),
        turns: game.state.turn,
        actions,
        scores: game.state.players.iter().map(|p| p.score).collect(),
        refused,
        error,
    }
}

/// Fights one battle of `setup` between an attacker and a defender player,
/// with the dice of `seed`; the result and the number of actions.
pub fn play_battle(
    variant: &Variant,
    setup: BattleSetup,
    attacker: &mut dyn Player,
    defender: &mut dyn Player,
    seed: u64,
) -> Result<(BattleResult, u64), String> {
    let mut battle = Battle::new(variant, setup, GameRng::new(seed)).map_err(|e| e.to_string())?;
    let mut n = 0u64;
    while battle.result().is_none() {
        if n > 100_000 {
            return Err("the battle did not end".into());
        }
        let side = battle.to_act();
        let legal = battle.legal_actions();
        let seen = SeenBattle {
            side,
            snapshot: battle.snapshot().as_seen_by(side, seed ^ n),
        };
        let choice = match side {
            BattleSide::Attacker => attacker.choose_battle(variant, &seen, &legal),
            BattleSide::Defender => defender.choose_battle(variant, &seen, &legal),
        };
        let ok = match choice {
            Ok(a) => battle.apply(a).is_ok(),
            Err(_) => false,
        };
        if !ok {
            let a = legal
                .iter()
                .find(|a| !matches!(a, crate::battle::Action::Concede(_)))
                .or(legal.first())
                .cloned()
                .ok_or("no legal battle action")?;
            battle.apply(a.clone()).map_err(|e| format!("{a:?}: {e}"))?;
        }
        n += 1;
    }
    Ok((battle.result().expect("the battle ended"), n))
}
