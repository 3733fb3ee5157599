//! Computer players: a [`Player`] chooses an action from what one seat may
//! know ([`Observation`]: its view, its legal actions, and the battle it
//! fights), never from the game itself.
//!
//! Levels: `random` (the random legal player), `simple` (a documented
//! heuristic, `simple.rs`) and `strong` (searching, `turn.rs` on the
//! masterboard and `battle.rs` in battle; `strong.rs` puts them together). Every level is variant-agnostic:
//! worths come from the character data ([`values`]), and actions it does not
//! know (a variant's own) are still chosen among. Each is deterministic for
//! its seed, and bounded by a node budget (no clock: the engine reads none).

pub mod battle;
pub mod board;
pub mod odds;
pub mod play;
pub mod random;
pub mod simple;
pub mod strong;
mod turn;
pub mod values;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::battle::{BattleSide, BattleSnapshot};
use crate::format::OptionValue;
use crate::game::view::{PlayerView, view};
use crate::game::{Action, BattleRequest, Exits, Game, PlayerId};
use crate::model::Variant;

/// The levels [`player`] knows.
pub const LEVELS: [&str; 3] = ["random", "simple", "strong"];

/// Why a computer player cannot be made or cannot choose.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error("{0:?} is no player level (levels: random, simple, strong)")]
    UnknownLevel(String),
    #[error("a budget of 0 nodes lets a player decide nothing; give at least 1")]
    ZeroBudget,
    #[error("{0} has no character that can strike: no battle can be fought")]
    NoStriker(String),
    #[error("there is no legal action to choose from")]
    NoAction,
}

/// A battle as an engaged player knows it.
#[derive(Debug, Clone)]
pub struct SeenBattle {
    /// The side this player fights on.
    pub side: BattleSide,
    /// The battle, with dice not yet rolled unknown (see
    /// [`BattleSnapshot::as_seen_by`]).
    pub snapshot: BattleSnapshot,
}

/// Everything a seat may know when it has a decision to make.
#[derive(Debug, Clone)]
pub struct Observation {
    pub variant: Arc<Variant>,
    /// The game's rule options (public).
    pub options: BTreeMap<String, OptionValue>,
    pub exits: Arc<Exits>,
    pub view: PlayerView,
    pub legal: Vec<Action>,
    /// The battle being fought, when this seat fights it.
    pub battle: Option<SeenBattle>,
    /// The battle's request as the engaged side may know it (the defender
    /// is not told the attacker's summonable characters).
    pub request: Option<BattleRequest>,
}

impl Observation {
    /// What `player` may know of `game` now.
    pub fn of(game: &Game, player: PlayerId) -> Observation {
        let mut battle = None;
        let mut request = None;
        // The battle this seat fights (an engagement's or a showdown's).
        if let (Some(seat), Some(b)) = (game.battle_seat(player), game.battle()) {
            // The seed of the seen battle's dice is arbitrary: players
            // reseed their own simulations.
            battle = Some(SeenBattle {
                side: seat.side,
                snapshot: b.snapshot().as_seen_by(seat.side, 0),
            });
            request = Some(seat.request);
        }
        Observation {
            variant: game.variant.clone(),
            options: game.options.clone(),
            exits: game.exits.clone(),
            view: view(game, player),
            legal: game.legal_actions(player),
            battle,
            request,
        }
    }

    pub fn me(&self) -> PlayerId {
        self.view.me
    }
}

/// A computer player.
pub trait Player {
    /// Its level (`random`, `simple`, `strong`).
    fn level(&self) -> &'static str;
    /// One of `obs.legal`, or an error when there is none. An action outside
    /// the legal ones is refused by the engine like anyone's.
    fn choose(&mut self, obs: &Observation) -> Result<Action, AiError>;
    /// A battle action for a battle fought outside a game (`titan odds`):
    /// `legal` is the battle's legal actions.
    fn choose_battle(
        &mut self,
        variant: &Variant,
        battle: &SeenBattle,
        legal: &[crate::battle::Action],
    ) -> Result<crate::battle::Action, AiError>;
}

/// How much a player may search: nodes of its search per decision, and
/// sampled-dice rollouts of each candidate maneuver plan (strong, as the
/// attacker; 0 by default: see docs/ai.md for why).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub nodes: u64,
    pub rollouts: u32,
}

impl Budget {
    /// The default budget of `strong` (about 50 ms of a battle decision at
    /// most on one core: see the `ai` benchmark).
    pub const DEFAULT: Budget = Budget {
        nodes: 20_000,
        rollouts: 0,
    };
}

/// A player of `level` (`random`, `simple` or `strong`) whose choices are
/// drawn from `seed`.
pub fn player(level: &str, seed: u64) -> Result<Box<dyn Player>, AiError> {
    player_with(level, seed, Budget::DEFAULT)
}

/// A player with a search budget (used by `strong`; others need none).
pub fn player_with(level: &str, seed: u64, budget: Budget) -> Result<Box<dyn Player>, AiError> {
    if budget.nodes == 0 {
        return Err(AiError::ZeroBudget);
    }
    Ok(match level.trim() {
        "random" => Box::new(random::RandomPlayer::new(seed)),
        "simple" => Box::new(simple::simple(seed)),
        "strong" => Box::new(strong::strong(seed, budget)),
        other => return Err(AiError::UnknownLevel(other.to_string())),
    })
}

/// Checks that computer players can play `variant`: some character must be
/// able to strike (power and skill above 0).
pub fn check_variant(variant: &Variant) -> Result<(), AiError> {
    if variant
        .characters
        .iter()
        .any(|c| c.power > 0 && c.skill > 0)
    {
        Ok(())
    } else {
        Err(AiError::NoStriker(variant.id.clone()))
    }
}

/// The first legal action that is not conceding the game: what a player
/// falls back on when it knows nothing better (a variant's own actions).
pub(crate) fn fallback(legal: &[Action]) -> Result<Action, AiError> {
    legal
        .iter()
        .find(|a| **a != Action::ConcedeGame)
        .or(legal.first())
        .cloned()
        .ok_or(AiError::NoAction)
}

#[cfg(test)]
mod tests;
