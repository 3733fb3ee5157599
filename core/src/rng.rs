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
    /// The generator's word position, counted as words are drawn: the
    /// generator's own reckoning costs more than a battle action's other
    /// book-keeping, and every action takes it to be able to rewind.
    pos: u128,
}

/// The generator as `rand` sees it, counting the 32-bit words drawn.
struct Counted<'a> {
    inner: &'a mut ChaCha8Rng,
    pos: &'a mut u128,
}

impl RngCore for Counted<'_> {
    fn next_u32(&mut self) -> u32 {
        *self.pos += 1;
        self.inner.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        // Two words, whether or not they straddle a block.
        *self.pos += 2;
        self.inner.next_u64()
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.inner.fill_bytes(dst);
        *self.pos = self.inner.get_word_pos();
    }
}

impl GameRng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            inner: ChaCha8Rng::seed_from_u64(seed),
            pos: 0,
        }
    }

    /// The seed this generator was started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words have been drawn so far: with the seed, this
    /// restores the generator exactly (see [`GameRng::at`]).
    pub fn word_pos(&self) -> u128 {
        debug_assert_eq!(self.pos, self.inner.get_word_pos());
        self.pos
    }

    fn counted(&mut self) -> Counted<'_> {
        Counted {
            inner: &mut self.inner,
            pos: &mut self.pos,
        }
    }

    /// The generator started from `seed` after `word_pos` words were drawn.
    pub fn at(seed: u64, word_pos: u128) -> Self {
        let mut rng = Self::new(seed);
        rng.inner.set_word_pos(word_pos);
        rng.pos = rng.inner.get_word_pos();
        rng
    }

    /// A die roll from 1 to `sides` (`sides` 0 is treated as 1).
    ///
    /// The draw of `random_range(1..=sides)` (rand 0.9's Canon's method:
    /// one 32-bit word times the range, a second word only when the first
    /// falls in the last `sides` values), written out because a battle rolls
    /// a few hundred dice; a test checks it against `random_range`.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let range = sides.max(1);
        self.pos += 1;
        let m = u64::from(self.inner.next_u32()) * u64::from(range);
        let (mut result, low) = ((m >> 32) as u32, m as u32);
        if low > range.wrapping_neg() {
            self.pos += 1;
            let next = ((u64::from(self.inner.next_u32()) * u64::from(range)) >> 32) as u32;
            result += u32::from(low.checked_add(next).is_none());
        }
        1 + result
    }

    /// A whole number in `low..=high` (the bounds may come in either order).
    pub fn int_in(&mut self, low: i64, high: i64) -> i64 {
        let (lo, hi) = if low <= high {
            (low, high)
        } else {
            (high, low)
        };
        self.counted().random_range(lo..=hi)
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        self.counted().random::<f64>()
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.counted().next_u64()
    }
}

#[cfg(test)]
impl GameRng {
    fn next_u32_for_test(&mut self) -> u32 {
        self.counted().next_u32()
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

    /// `roll` draws exactly as rand's `random_range(1..=sides)`, so games
    /// and battles keep their seeds' outcomes.
    #[test]
    fn rolls_draw_as_random_range() {
        for seed in 0..200 {
            let (mut a, mut b) = (GameRng::new(seed), ChaCha8Rng::seed_from_u64(seed));
            for sides in [
                0u32,
                1,
                2,
                3,
                6,
                7,
                12,
                20,
                100,
                1 << 20,
                u32::MAX - 1,
                u32::MAX,
            ] {
                for _ in 0..50 {
                    assert_eq!(a.roll(sides), b.random_range(1..=sides.max(1)));
                }
            }
        }
        // The second word: a first word whose product with the range falls
        // in its last values (found by search, seed and position).
        let range = 0x9000_0001u32;
        let mut found = false;
        'search: for seed in 0..20_000 {
            let mut probe = ChaCha8Rng::seed_from_u64(seed);
            for k in 0..64 {
                let x = probe.next_u32();
                if (u64::from(x) * u64::from(range)) as u32 > range.wrapping_neg() {
                    let (mut a, mut b) = (GameRng::new(seed), ChaCha8Rng::seed_from_u64(seed));
                    for _ in 0..k {
                        a.next_u32_for_test();
                        b.next_u32();
                    }
                    assert_eq!(a.roll(range), b.random_range(1..=range));
                    assert_eq!(a.word_pos(), b.get_word_pos());
                    found = true;
                    break 'search;
                }
            }
        }
        assert!(found, "no first word needing a second one in the search");
    }

    #[test]
    fn counted_position_is_the_generators_own() {
        // Mixed draws, across many blocks, from a fresh and a restored one.
        for start in [GameRng::new(3), GameRng::at(5, 61)] {
            let mut a = start;
            for k in 0..2000u32 {
                match k % 5 {
                    0 => _ = a.roll(6),
                    1 => _ = a.int_in(-3, i64::from(k)),
                    2 => _ = a.unit(),
                    3 => _ = a.next_u64(),
                    _ => _ = a.roll(u32::MAX - k),
                }
                assert_eq!(a.pos, a.inner.get_word_pos(), "after draw {k}");
            }
        }
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
