//! The walks over a battle's units: by mask rather than by a guessed
//! branch per unit ([`units_where`], [`units_mask`]), and skipping the
//! units known to be out of the battle for good ([`Battle::present`]).

use super::*;

/// The indices of the units for which `pred` holds, in order. `pred` is
/// asked of every unit into a mask (64 units at a time) before any is
/// visited, so that which units qualify costs no guessed branch: write it
/// with `&` and `|` rather than `&&` and `||`.
pub(crate) fn units_where<P: Fn(&Unit) -> bool>(units: &[Unit], pred: P) -> UnitsWhere<'_, P> {
    let mut it = UnitsWhere {
        units,
        pred,
        base: 0,
        mask: 0,
    };
    it.mask = it.chunk_mask();
    it
}

/// The units for which `pred` holds as a mask, when there are at most 64
/// (see [`units_where`]).
pub(crate) fn units_mask<P: Fn(&Unit) -> bool>(units: &[Unit], pred: P) -> Option<u64> {
    (units.len() <= 64).then(|| {
        units
            .iter()
            .enumerate()
            .fold(0, |m, (k, u)| m | u64::from(pred(u)) << k)
    })
}

/// See [`Battle::present`]: the units by mask, then those past 64 (never
/// taken for gone).
pub(crate) struct Present {
    mask: u64,
    wide: std::ops::Range<usize>,
}

impl Iterator for Present {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.mask != 0 {
            let j = self.mask.trailing_zeros() as usize;
            self.mask &= self.mask - 1;
            return Some(j);
        }
        self.wide.next()
    }
}

/// See [`units_where`].
pub(crate) struct UnitsWhere<'a, P> {
    units: &'a [Unit],
    pred: P,
    /// The index of the mask's first unit.
    base: usize,
    mask: u64,
}

impl<P: Fn(&Unit) -> bool> UnitsWhere<'_, P> {
    #[inline]
    fn chunk_mask(&self) -> u64 {
        let end = self.units.len().min(self.base + 64);
        let chunk = self.units.get(self.base..end).unwrap_or_default();
        let mut m = 0u64;
        for (k, u) in chunk.iter().enumerate() {
            m |= u64::from((self.pred)(u)) << k;
        }
        m
    }
}

impl<P: Fn(&Unit) -> bool> Iterator for UnitsWhere<'_, P> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            if self.base + 64 >= self.units.len() {
                return None;
            }
            self.base += 64;
            self.mask = self.chunk_mask();
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.base + k)
    }
}

impl Battle<'_> {
    /// Units known to be out of the battle for good, which a walk of the
    /// units of `s` (the current state, or the one a step is making of it)
    /// may skip: none with scripts (a script may bring one back).
    #[inline]
    pub(super) fn gone(&self, s: &State) -> u64 {
        let gone = if self.lua.is_none() {
            self.gone.get()
        } else {
            0
        };
        debug_assert!(
            s.units
                .iter()
                .enumerate()
                .all(|(i, u)| gone.checked_shr(i as u32).unwrap_or(0) & 1 == 0
                    || matches!(u.status, Status::Gone(_))),
            "a unit taken for gone is not"
        );
        gone
    }

    /// The units of `s` but those [`Battle::gone`] skips, in order.
    #[inline]
    pub(super) fn present(&self, s: &State) -> Present {
        let len = s.units.len();
        let all = 1u64.checked_shl(len as u32).map_or(u64::MAX, |b| b - 1);
        Present {
            mask: all & !self.gone(s),
            wide: len.min(64)..len,
        }
    }

    /// Notes units the step under way removed for good (`mask`).
    #[inline]
    pub(super) fn note_gone(&self, mask: u64) {
        self.gone_next.set(self.gone_next.get() | mask);
    }
}
