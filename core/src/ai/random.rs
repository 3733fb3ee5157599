//! The `random` level: the random legal player of `game::random` behind the
//! [`Player`] interface.

use super::{AiError, Observation, Player, SeenBattle};
use crate::battle::Action as BattleAction;
use crate::game::Action;
use crate::model::Variant;
use crate::rng::GameRng;

pub struct RandomPlayer {
    rng: GameRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: GameRng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn level(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, obs: &Observation) -> Result<Action, AiError> {
        crate::game::random::choose(obs.legal.clone(), &mut self.rng).ok_or(AiError::NoAction)
    }

    fn choose_battle(
        &mut self,
        _variant: &Variant,
        _battle: &SeenBattle,
        legal: &[BattleAction],
    ) -> Result<BattleAction, AiError> {
        // Conceding only rarely, as the random player does in games.
        let mut actions: Vec<BattleAction> = legal.to_vec();
        let fight = |a: &BattleAction| !matches!(a, BattleAction::Concede(_));
        if actions.iter().any(fight) && self.rng.roll(200) > 1 {
            actions.retain(fight);
        }
        if actions.is_empty() {
            return Err(AiError::NoAction);
        }
        let pick = self.rng.int_in(0, actions.len() as i64 - 1) as usize;
        Ok(actions.swap_remove(pick))
    }
}
