//! The dice of a strike ([`BattleEvent::Struck`](super::BattleEvent)):
//! kept inline, so that a strike allocates nothing (a battle rolls some
//! fifty), and read, printed and (de)serialized as the list of numbers it
//! was (`[1, 2, 3]`, a sequence).

use std::fmt;
use std::ops::Deref;

/// Dice held inline; more (a big Titan's) go to the heap.
const INLINE: usize = 22;

/// The numbers rolled, in order: a slice of `u8` (`Deref`).
#[derive(Clone)]
pub struct Dice(Repr);

#[derive(Clone)]
enum Repr {
    Inline(u8, [u8; INLINE]),
    Heap(Vec<u8>),
}

impl Dice {
    /// `n` dice all 0, to be filled in ([`Dice::as_mut_slice`]).
    pub(crate) fn zeroed(n: usize) -> Dice {
        if n <= INLINE {
            Dice(Repr::Inline(n as u8, [0; INLINE]))
        } else {
            Dice(Repr::Heap(vec![0; n]))
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(n, d) => &d[..usize::from(*n)],
            Repr::Heap(v) => v,
        }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Repr::Inline(n, d) => &mut d[..usize::from(*n)],
            Repr::Heap(v) => v,
        }
    }

    pub fn to_vec(&self) -> Vec<u8> {
        self.as_slice().to_vec()
    }
}

impl Default for Dice {
    fn default() -> Dice {
        Dice::zeroed(0)
    }
}

impl Deref for Dice {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl AsRef<[u8]> for Dice {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

/// As a `Vec<u8>` prints: `[1, 2, 3]`.
impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl PartialEq for Dice {
    fn eq(&self, other: &Dice) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Dice {}

impl std::hash::Hash for Dice {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl PartialEq<[u8]> for Dice {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<u8>> for Dice {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Dice {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl From<&[u8]> for Dice {
    fn from(d: &[u8]) -> Dice {
        let mut out = Dice::zeroed(d.len());
        out.as_mut_slice().copy_from_slice(d);
        out
    }
}

impl From<Vec<u8>> for Dice {
    fn from(v: Vec<u8>) -> Dice {
        if v.len() <= INLINE {
            Dice::from(v.as_slice())
        } else {
            Dice(Repr::Heap(v))
        }
    }
}

impl From<Dice> for Vec<u8> {
    fn from(d: Dice) -> Vec<u8> {
        match d.0 {
            Repr::Heap(v) => v,
            Repr::Inline(..) => d.to_vec(),
        }
    }
}

impl<'a> IntoIterator for &'a Dice {
    type Item = &'a u8;
    type IntoIter = std::slice::Iter<'a, u8>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// The dice by value, in order.
#[derive(Debug, Clone)]
pub struct DiceIter {
    dice: Dice,
    next: usize,
}

impl Iterator for DiceIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        let d = self.dice.as_slice().get(self.next).copied();
        self.next += 1;
        d
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.dice.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for DiceIter {}

impl IntoIterator for Dice {
    type Item = u8;
    type IntoIter = DiceIter;
    fn into_iter(self) -> DiceIter {
        DiceIter {
            dice: self,
            next: 0,
        }
    }
}

/// A sequence of numbers, as a `Vec<u8>` is.
impl serde::Serialize for Dice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> serde::Deserialize<'de> for Dice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Dice, D::Error> {
        Vec::<u8>::deserialize(d).map(Dice::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Printed and (de)serialized exactly as the `Vec<u8>` it replaces,
    /// inline or not.
    #[test]
    fn dice_read_as_a_list_of_numbers() {
        for v in [vec![], vec![1, 6, 3], (1..=30).map(|i| i % 6 + 1).collect()] {
            let d = Dice::from(v.clone());
            assert_eq!(format!("{d:?}"), format!("{v:?}"));
            assert_eq!(format!("{d:#?}"), format!("{v:#?}"));
            let text = ron::to_string(&d).unwrap();
            assert_eq!(text, ron::to_string(&v).unwrap());
            let back: Dice = ron::from_str(&text).unwrap();
            assert_eq!(back, d);
            assert_eq!(d, v);
            assert_eq!(d.iter().copied().collect::<Vec<_>>(), v);
            assert_eq!(d.clone().into_iter().collect::<Vec<_>>(), v);
            assert_eq!(Vec::from(d), v);
        }
    }
}
