//! The computer players of online games: one function, so that a stronger
//! player replaces the random one in one place.

use titan_core::game::Action;
use titan_core::game::view::PlayerView;
use titan_core::rng::GameRng;

/// The levels a computer seat may be created with.
pub const LEVELS: &[&str] = &["random"];

/// The computer's choice for a seat at `level`, seeing only that seat's
/// `view`, among its `legal` actions. None when it has nothing to do.
pub fn computer_choice(
    level: &str,
    view: &PlayerView,
    legal: Vec<Action>,
    rng: &mut GameRng,
) -> Option<Action> {
    // Only the random player exists so far; `view` is what a stronger one
    // will look at (never the whole game: a computer seat knows no more than
    // a person in it would).
    let _ = (level, view);
    titan_core::game::random::choose(legal, rng)
}
