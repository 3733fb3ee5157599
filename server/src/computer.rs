//! The computer players of online games. A computer seat of the server (and
//! an absent player's seat after its timeout) is played by the engine's
//! computer players (`titan_core::ai`), seeing only that seat's
//! observation. The `titan bot` client holds only its seat's view: it plays
//! `random` itself and asks the server (`Suggest`) for the other levels.

use std::sync::{Condvar, Mutex};

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
    choose(level, Observation::of(game, seat), seed)
}

fn choose(level: &str, obs: Observation, seed: u64) -> Option<Action> {
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

/// The niceness of a thread while it plays a computer move (0 is a
/// person's game's, 19 the least urgent): the OS runs people's games
/// first.
const NICE: i32 = 10;

/// Every computer move of the server's games (and suggestions) is played
/// through this gate: a few at once (so that computers never take every
/// core), taken in the order asked (no game starves), each on its game's
/// thread lowered to [`NICE`] meanwhile, so that many computer games slow
/// a game between people little. (A game's state cannot leave its
/// thread: the move is played there.)
pub struct Pool {
    /// The tickets given out, and the moves done.
    state: Mutex<(u64, u64)>,
    turn: Condvar,
    at_once: u64,
}

impl Pool {
    /// `at_once` computer moves played at once, at least one.
    pub fn new(at_once: usize) -> Pool {
        Pool {
            state: Mutex::new((0, 0)),
            turn: Condvar::new(),
            at_once: at_once.max(1) as u64,
        }
    }

    /// [`computer_move`], when its turn comes, at a lower priority.
    pub fn play(&self, level: &str, game: &Game, seat: PlayerId, seed: u64) -> Option<Action> {
        self.gated(|| computer_move(level, game, seat, seed))
    }

    /// Runs `work` when its turn comes, at a lower priority.
    fn gated<T>(&self, work: impl FnOnce() -> T) -> T {
        {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let ticket = s.0;
            s.0 += 1;
            while ticket >= s.1 + self.at_once {
                s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        }
        let before = set_niceness(NICE);
        let chosen = work();
        if let Some(n) = before {
            // Back to a person's priority (refused without the privilege
            // to raise it: the thread then stays low, which only its own
            // game, one with computers, feels).
            set_niceness(n);
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.1 += 1;
        self.turn.notify_all();
        chosen
    }
}

/// Sets this thread's niceness (Linux: niceness is by thread); its former
/// one, None where the OS does not tell or refuses.
fn set_niceness(nice: i32) -> Option<i32> {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls about this thread; no memory is shared.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let before = libc::getpriority(libc::PRIO_PROCESS, tid);
        if before == nice || (nice > 0 && before >= nice) {
            // Already this low (a server run under `nice`): kept.
            return None;
        }
        (libc::setpriority(libc::PRIO_PROCESS, tid, nice) == 0).then_some(before)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = nice;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// This thread's niceness, where the OS tells it.
    fn niceness() -> Option<i32> {
        #[cfg(target_os = "linux")]
        // SAFETY: as in set_niceness.
        unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            Some(libc::getpriority(libc::PRIO_PROCESS, tid))
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    #[test]
    fn computer_moves_are_played_one_at_a_time_at_a_lower_priority() {
        let pool = Arc::new(Pool::new(1));
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (pool, now, most) = (pool.clone(), now.clone(), most.clone());
                std::thread::spawn(move || {
                    let before = niceness();
                    for _ in 0..20 {
                        let inside = pool.gated(|| {
                            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(n, Ordering::SeqCst);
                            std::thread::yield_now();
                            now.fetch_sub(1, Ordering::SeqCst);
                            niceness()
                        });
                        if cfg!(target_os = "linux") {
                            assert!(
                                inside.is_some_and(|n| n >= NICE),
                                "not played at a lower priority: {inside:?}"
                            );
                        }
                    }
                    // Back to a person's priority where the OS lets it
                    // (raising it again needs the privilege).
                    let after = niceness();
                    assert!(after == before || after == Some(NICE), "{after:?}");
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1, "two computer moves at once");
    }
}
