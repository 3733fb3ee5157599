//! The `simple` level: a heuristic baseline of the strength of the classic
//! programs (see docs/ai.md for the whole heuristic).
//!
//! Masterboard: legions valued by their characters' power and skill; engage,
//! flee and concede by comparing estimated strengths; split a full legion
//! greedily (its two weakest off), move toward the best muster that is not
//! too dangerous, muster the best recruit. Battle: each character moves to
//! strike well (or toward the enemy) and strikes the weakest target it can.
//!
//! [`Heuristic`] is also the `strong` player's frame (`strong.rs`): the
//! levels differ only in their masterboard style and battle brain.

use super::battle::{BattleBrain, Style as BattleStyle};
use super::board::{Board, Style, best, choose};
use super::{AiError, Budget, Observation, Player, SeenBattle};
use crate::battle::Action as BattleAction;
use crate::game::Action;
use crate::model::Variant;
use crate::rng::GameRng;

/// A player of a level made of a masterboard style and a battle brain.
pub struct Heuristic {
    level: &'static str,
    style: Style,
    rng: GameRng,
    battle: BattleBrain,
    /// The node budget of a masterboard decision (strong's turn search).
    nodes: u64,
}

impl Heuristic {
    pub(super) fn new(
        level: &'static str,
        style: Style,
        battle: BattleBrain,
        seed: u64,
        nodes: u64,
    ) -> Self {
        Heuristic {
            level,
            style,
            rng: GameRng::new(seed),
            battle,
            nodes,
        }
    }
}

/// The `simple` player.
pub fn simple(seed: u64) -> Heuristic {
    Heuristic::new(
        "simple",
        Style::Simple,
        BattleBrain::new(BattleStyle::Simple, Budget::DEFAULT.nodes, seed),
        seed,
        Budget::DEFAULT.nodes,
    )
}

/// The battle actions among a game's legal actions, when the seat fights.
pub(super) fn battle_actions(obs: &Observation) -> Option<(&SeenBattle, Vec<BattleAction>)> {
    let seen = obs.battle.as_ref()?;
    let actions: Vec<BattleAction> = obs
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::Battle { battle } => Some(battle.clone()),
            _ => None,
        })
        .collect();
    (!actions.is_empty()).then_some((seen, actions))
}

impl Player for Heuristic {
    fn level(&self) -> &'static str {
        self.level
    }

    fn choose(&mut self, obs: &Observation) -> Result<Action, AiError> {
        if let Some((seen, actions)) = battle_actions(obs) {
            let battle = self.battle.choose(&obs.variant, seen, &actions)?;
            return Ok(Action::Battle { battle });
        }
        if self.style == Style::Strong {
            // Strong plans its turn (split, move, muster) by search; the
            // rest (engagements) is scored as simple's is.
            let board = Board::new(obs, self.style, &mut self.rng);
            if let Some(r) = super::turn::choose(&board, self.nodes) {
                return r;
            }
            return best(&board);
        }
        choose(obs, self.style, &mut self.rng)
    }

    fn choose_battle(
        &mut self,
        variant: &Variant,
        battle: &SeenBattle,
        legal: &[BattleAction],
    ) -> Result<BattleAction, AiError> {
        self.battle.choose(variant, battle, legal)
    }
}
