//! The `strong` level: searching. In battle, exact strike distributions,
//! expectimax strike order and whole-maneuver search (`battle.rs`); on the
//! masterboard, the Titan guarded, hidden legions determinized from what was
//! revealed, splits weighed over the rolls to come (`board.rs`). Its node
//! budget bounds every decision.

use super::battle::{BattleBrain, Style as BattleStyle};
use super::board::{Style, choose};
use super::simple::battle_actions;
use super::{AiError, Budget, Observation, Player, SeenBattle};
use crate::battle::Action as BattleAction;
use crate::game::Action;
use crate::model::Variant;
use crate::rng::GameRng;

pub struct StrongPlayer {
    rng: GameRng,
    battle: BattleBrain,
}

impl StrongPlayer {
    pub fn new(seed: u64, budget: Budget) -> StrongPlayer {
        StrongPlayer {
            rng: GameRng::new(seed),
            battle: BattleBrain::new(BattleStyle::Strong, budget.nodes, seed)
                .with_rollouts(budget.rollouts),
        }
    }
}

impl Player for StrongPlayer {
    fn level(&self) -> &'static str {
        "strong"
    }

    fn choose(&mut self, obs: &Observation) -> Result<Action, AiError> {
        if let Some((seen, actions)) = battle_actions(obs) {
            let battle = self.battle.choose(&obs.variant, seen, &actions)?;
            return Ok(Action::Battle { battle });
        }
        choose(obs, Style::Strong, &mut self.rng)
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
