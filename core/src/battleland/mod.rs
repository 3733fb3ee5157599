//! Battleland geometry: hexes, boards, hexsides and compiled battlelands.
//!
//! A battleland stands on a [`Board`]: hexes with labels and axial
//! coordinates ([`hexx::Hex`], flat-topped, r growing downward), their
//! neighbours, entry edges and zones, and the tables of its shape. The
//! 27-hex battleland of Titan is [`Board::standard`], the board of every
//! battleland that names none. Every lookup is a table index: no search,
//! no string, on the hot paths.

use std::sync::Arc;

use hexx::Hex;

pub mod board;
pub mod hexset;
mod standard;

pub use board::{Board, BoardParts, MAX_HEXES};
pub use standard::STANDARD_HEXES;

use crate::format::{Edge, Side};
use crate::ids::HazardId;

/// A hex of a battleland: an index into its [`Board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexId(pub u8);

impl HexId {
    /// The hex of a label of the standard board, such as `"D4"`: how a hex
    /// is named on the wire (saves, the protocol, events). A battleland's
    /// own labels are its board's ([`Board::label`]).
    ///
    /// ```
    /// use titan_core::battleland::HexId;
    /// assert_eq!(HexId::from_label("A1"), Some(HexId(0)));
    /// assert_eq!(HexId::from_label("F4").unwrap().label(), "F4");
    /// assert_eq!(HexId::from_label("A4"), None);
    /// ```
    pub fn from_label(label: &str) -> Option<HexId> {
        standard::from_label(label)
    }

    /// The standard board's label of this index (`"?"` past its 27 hexes):
    /// the hex's name on the wire.
    pub fn label(self) -> String {
        standard::label(self)
    }
}

/// The side a hex's `side` faces after the battleland turns by `turns`
/// thirds of a turn ([`Board::rotated`]): two sides on per third.
pub fn rotated_side(side: Side, turns: u8) -> Side {
    Side::from_index(side.index() + 2 * usize::from(turns % 3))
}

/// The axial step across each side of a flat-topped hex, r growing downward.
pub fn side_offset(side: Side) -> Hex {
    match side {
        Side::N => Hex::new(0, -1),
        Side::NE => Hex::new(1, -1),
        Side::SE => Hex::new(1, 0),
        Side::S => Hex::new(0, 1),
        Side::SW => Hex::new(-1, 1),
        Side::NW => Hex::new(-1, 0),
    }
}

/// A hexside hazard as seen from one of its two hexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hexside {
    pub hazard: HazardId,
    /// This hex is the hazard's top side (the higher ground, inside the wall).
    pub top: bool,
}

/// One hex of a compiled battleland.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleHex {
    pub hazard: HazardId,
    pub elevation: u8,
    /// Hexside hazards by [`Side::index`], recorded on both hexes.
    pub sides: [Option<Hexside>; 6],
    /// Neighbours by [`Side::index`].
    pub neighbours: [Option<HexId>; 6],
}

/// A compiled battleland.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Battleland {
    pub terrain: crate::ids::TerrainId,
    /// The board it stands on (shared by every battleland on the same).
    pub board: Arc<Board>,
    /// Indexed by [`HexId`], one per hex of the board.
    pub hexes: Vec<BattleHex>,
    pub attacker_edge: Option<Edge>,
    pub defender_area: Vec<HexId>,
}

impl Battleland {
    pub fn hex(&self, id: HexId) -> &BattleHex {
        &self.hexes[id.0 as usize]
    }

    /// The hexside hazard between `id` and its neighbour across `side`.
    pub fn hexside(&self, id: HexId, side: Side) -> Option<Hexside> {
        self.hexes[id.0 as usize].sides[side.index()]
    }

    /// This battleland turned by `turns` thirds of a turn
    /// ([`Board::rotated`]): every hex's hazard, elevation and hexsides go
    /// with it; neighbours stay those of the board. A board that does not
    /// map onto itself so does not turn.
    pub fn rotated(&self, turns: u8) -> Battleland {
        let mut out = self.clone();
        if !self.board.turns() {
            return out;
        }
        for h in self.board.ids() {
            let old = self.hex(h);
            let to = &mut out.hexes[self.board.rotated(h, turns).0 as usize];
            to.hazard = old.hazard;
            to.elevation = old.elevation;
            for side in Side::ALL {
                to.sides[rotated_side(side, turns).index()] = old.sides[side.index()];
            }
        }
        out.defender_area = self
            .defender_area
            .iter()
            .map(|&h| self.board.rotated(h, turns))
            .collect();
        out
    }
}

#[cfg(test)]
mod tests;
