//! The `strong` level: searching. In battle, exact strike distributions,
//! expectimax strike order and whole-maneuver search (`battle.rs`); on the
//! masterboard, a search over whole turns: split plans, a chance node over
//! the movement rolls, the joint move of all its legions, mustering
//! (`turn.rs`), on the values of `board.rs` (the Titan guarded, hidden
//! legions determinized from what was revealed). Its node budget bounds
//! every decision.

use super::Budget;
use super::battle::{BattleBrain, Style as BattleStyle};
use super::board::Style;
use super::simple::Heuristic;

/// The `strong` player with this search budget.
pub fn strong(seed: u64, budget: Budget) -> Heuristic {
    Heuristic::new(
        "strong",
        Style::Strong,
        BattleBrain::new(BattleStyle::Strong, budget.nodes, seed).with_rollouts(budget.rollouts),
        seed,
        budget.nodes,
    )
}
