//! Sets of hexes of a battleland as bitsets: the hot paths (movement
//! reach, contact, listing) work on these rather than on lists.

use super::{HexId, MAX_HEXES};

/// A set of hexes of a battleland, bit `i` for `HexId(i)`.
pub type HexSet = u32;

/// Every bit that may be a hex of a board ([`MAX_HEXES`]).
pub const ALL_HEXES: HexSet = (1 << MAX_HEXES) - 1;

/// The hex of `h` as a set; empty for an id off the battleland (user input
/// may name one: it is then in no set, so refused).
pub fn bit(h: HexId) -> HexSet {
    1u32.checked_shl(u32::from(h.0)).unwrap_or(0) & ALL_HEXES
}

/// The hexes of a set, lowest first.
pub fn hexes(mut set: HexSet) -> impl Iterator<Item = HexId> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros();
        set &= set - 1;
        Some(HexId(i as u8))
    })
}

/// The `k`th hex of `set` (from 0, lowest first), when `set` has more than
/// `k`: worked out with byte tables rather than a walk, as which hex a
/// random pick lands on is a guess no branch predictor makes.
///
/// ```
/// use titan_core::battle::tables::nth_hex;
/// assert_eq!(nth_hex(0b1011_0000_0000_0100, 2), 13);
/// ```
pub fn nth_hex(set: HexSet, k: u32) -> u8 {
    let count = |byte: u32| u32::from(BYTE_COUNT[(set >> (8 * byte)) as usize & 0xff]);
    let (c0, c1, c2) = (count(0), count(1), count(2));
    let (s1, s2, s3) = (c0, c0 + c1, c0 + c1 + c2);
    let (a, b, c) = (u32::from(k >= s1), u32::from(k >= s2), u32::from(k >= s3));
    let byte = a + b + c;
    let before = a * c0 + b * c1 + c * c2;
    let bits = (set >> (8 * byte)) as usize & 0xff;
    let at = (k - before) as usize & 7;
    (8 * byte) as u8 + BYTE_NTH[bits][at]
}

/// The number of bits set in each byte.
const BYTE_COUNT: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u32).count_ones() as u8;
        b += 1;
    }
    t
};

/// `BYTE_NTH[b][k]`: the position of the `k`th bit set in byte `b`.
const BYTE_NTH: [[u8; 8]; 256] = {
    let mut t = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};
