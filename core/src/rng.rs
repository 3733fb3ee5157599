//! The game's one source of randomness.
//!
//! Every die roll, tower roll and script call to `math.random` draws from a
//! [`GameRng`] kept in the game state, so a game is fully determined by its
//! variant, options, seed and actions.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded, reproducible random number generator.
///
/// ```
/// use titan_core::rng::GameRng;
/// let mut a = GameRng::new(7);
/// let mut b = GameRng::new(7);
/// assert_eq!(a.roll(6), b.roll(6));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRng {
    seed: u64,
    inner: ChaCha8Rng,
}

impl GameRng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            inner: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The seed this generator was started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words have been drawn so far: with the seed, this
    /// restores the generator exactly (see [`GameRng::at`]).
    pub fn word_pos(&self) -> u128 {
        self.inner.get_word_pos()
    }

    /// The generator started from `seed` after `word_pos` words were drawn.
    pub fn at(seed: u64, word_pos: u128) -> Self {
        let mut rng = Self::new(seed);
        rng.inner.set_word_pos(word_pos);
        rng
    }

    /// A die roll from 1 to `sides` (`sides` 0 is treated as 1).
    pub fn roll(&mut self, sides: u32) -> u32 {
        self.inner.random_range(1..=sides.max(1))
    }

    /// A whole number in `low..=high` (the bounds may come in either order).
    pub fn int_in(&mut self, low: i64, high: i64) -> i64 {
        let (lo, hi) = if low <= high {
            (low, high)
        } else {
            (high, low)
        };
        self.inner.random_range(lo..=hi)
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        self.inner.random::<f64>()
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls() {
        let mut a = GameRng::new(42);
        let mut b = GameRng::new(42);
        let ra: Vec<u32> = (0..100).map(|_| a.roll(6)).collect();
        let rb: Vec<u32> = (0..100).map(|_| b.roll(6)).collect();
        assert_eq!(ra, rb);
        assert!(ra.iter().all(|r| (1..=6).contains(r)));
    }

    #[test]
    fn restores_from_word_position() {
        let mut a = GameRng::new(9);
        for _ in 0..17 {
            a.roll(6);
        }
        let mut b = GameRng::at(a.seed(), a.word_pos());
        assert_eq!(a.next_u64(), b.next_u64());
    }
}
