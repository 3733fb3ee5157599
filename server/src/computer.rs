//! The computer players of online games. A computer seat of the server (and
//! an absent player's seat after its timeout) is played by the engine's
//! computer players (`titan_core::ai`), seeing only that seat's
//! observation. The `titan bot` client holds only its seat's view: it plays
//! `random` itself and asks the server (`Suggest`) for the other levels.

use titan_core::ai::Observation;
use titan_core::game::view::PlayerView;
use titan_core::game::{Action, Game, PlayerId};
use titan_core::rng::GameRng;

/// The levels a computer seat may be created with; the first is the
/// default of a plain `"computer"` seat.
pub const LEVELS: &[&str] = &["simple", "strong", "random"];

/// The server's computer player's choice for `seat` of `game` at `level`,
/// from what that seat may know (its [`Observation`], never the whole
/// game); None when it has nothing to do. A player that fails falls back to
/// a random legal action, so a computer seat never stalls a game.
pub fn computer_move(level: &str, game: &Game, seat: PlayerId, seed: u64) -> Option<Action> {
    let obs = Observation::of(game, seat);
    if obs.legal.is_empty() {
        return None;
    }
    let chosen = titan_core::ai::player(level, seed)
        .ok()
        .and_then(|mut p| p.choose(&obs).ok())
        .filter(|a| obs.legal.contains(a));
    chosen.or_else(|| titan_core::game::random::choose(obs.legal, &mut GameRng::new(seed)))
}

/// The bot client's own choice among its seat's `legal` actions, at random.
/// None when it has nothing to do.
pub fn computer_choice(
    _level: &str,
    _view: &PlayerView,
    legal: Vec<Action>,
    rng: &mut GameRng,
) -> Option<Action> {
    titan_core::game::random::choose(legal, rng)
}
