//! Battleland geometry: the 27 hexes, their labels, neighbours and edges.
//!
//! Hexes are flat-topped and stand in six columns A-F of 3, 4, 5, 6, 5 and 4
//! hexes; numbers rise from the bottom of each column. Columns B, D and F sit
//! half a hex lower than their neighbours. Coordinates are [`hexx::Hex`] in
//! axial form (q = column, r growing downward), so distances and directions
//! come from hexx. Every lookup is a table index: no search, no string.

use hexx::Hex;

pub mod hexset;
pub mod shape;

use crate::format::{Edge, Side};
use crate::ids::HazardId;

/// How many hexes a battleland has.
pub const HEX_COUNT: usize = 27;

/// Hexes per column, A to F.
const COLUMN_HEIGHTS: [u8; 6] = [3, 4, 5, 6, 5, 4];
/// How far each column's bottom hex sits below the board's top row, in the
/// offset grid (row 0 is the top of column D).
const COLUMN_BOTTOM_ROW: [i32; 6] = [4, 4, 5, 5, 5, 4];

/// A hex of a battleland, 0..27 in label order (A1, A2, A3, B1, ... F4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexId(pub u8);

impl HexId {
    /// Every hex, in label order.
    pub fn all() -> impl Iterator<Item = HexId> {
        (0..HEX_COUNT as u8).map(HexId)
    }

    /// The hex of a printed label such as `"D4"`.
    ///
    /// ```
    /// use titan_core::battleland::HexId;
    /// assert_eq!(HexId::from_label("A1"), Some(HexId(0)));
    /// assert_eq!(HexId::from_label("F4").unwrap().label(), "F4");
    /// assert_eq!(HexId::from_label("A4"), None);
    /// ```
    pub fn from_label(label: &str) -> Option<HexId> {
        let mut chars = label.chars();
        let letter = chars.next()?;
        let column = (letter as u32).checked_sub('A' as u32)? as usize;
        if column >= 6 {
            return None;
        }
        let number: u8 = chars.as_str().parse().ok()?;
        if number == 0 || number > COLUMN_HEIGHTS[column] {
            return None;
        }
        let before: u8 = COLUMN_HEIGHTS[..column].iter().sum();
        Some(HexId(before + number - 1))
    }

    /// Column 0-5 (A-F) and number 1-6.
    pub fn column_number(self) -> (usize, u8) {
        let mut rest = self.0;
        for (column, &height) in COLUMN_HEIGHTS.iter().enumerate() {
            if rest < height {
                return (column, rest + 1);
            }
            rest -= height;
        }
        (5, COLUMN_HEIGHTS[5])
    }

    /// The printed label.
    pub fn label(self) -> String {
        let (column, number) = self.column_number();
        format!("{}{}", (b'A' + column as u8) as char, number)
    }

    /// Axial coordinates (hexx), flat-topped, r growing downward.
    pub fn coord(self) -> Hex {
        let (column, number) = self.column_number();
        let row = COLUMN_BOTTOM_ROW[column] - (i32::from(number) - 1);
        let q = column as i32;
        // Odd columns sit half a hex lower ("odd-q" offset layout).
        Hex::new(q, row - (q - (q & 1)) / 2)
    }

    /// The hex at axial coordinates, if it is on the battleland.
    pub fn at(coord: Hex) -> Option<HexId> {
        let column = coord.x;
        if !(0..6).contains(&column) {
            return None;
        }
        let row = coord.y + (column - (column & 1)) / 2;
        let number = COLUMN_BOTTOM_ROW[column as usize] - row + 1;
        if number < 1 || number > i32::from(COLUMN_HEIGHTS[column as usize]) {
            return None;
        }
        let before: u8 = COLUMN_HEIGHTS[..column as usize].iter().sum();
        Some(HexId(before + number as u8 - 1))
    }

    /// The neighbour across `side`, if on the battleland.
    pub fn neighbour(self, side: Side) -> Option<HexId> {
        HexId::at(self.coord() + side_offset(side))
    }

    /// The hex this one goes to when the battleland turns by `turns` thirds
    /// of a full turn about its centre (the corner of C3, D3 and D4): the
    /// board, with its wide and narrow edges alternating, maps onto itself.
    ///
    /// ```
    /// use titan_core::battleland::HexId;
    /// let a1 = HexId::from_label("A1").unwrap();
    /// assert_eq!(a1.rotated(1).label(), "D6");
    /// assert_eq!(a1.rotated(2).label(), "F1");
    /// assert_eq!(a1.rotated(3), a1);
    /// ```
    pub fn rotated(self, turns: u8) -> HexId {
        // Cube coordinates times 3 from the centre (8/3, 5/3, -13/3), where
        // a third of a turn is (q, r, s) -> (s, q, r).
        let c = self.coord();
        let (mut q, mut r, mut s) = (3 * c.x - 8, 3 * c.y - 5, -3 * c.x - 3 * c.y + 13);
        for _ in 0..turns % 3 {
            (q, r, s) = (s, q, r);
        }
        debug_assert_eq!(q + r + s, 0);
        HexId::at(Hex::new((q + 8) / 3, (r + 5) / 3)).unwrap_or(self)
    }
}

/// The side a hex's `side` faces after the battleland turns by `turns`
/// thirds of a turn ([`HexId::rotated`]): two sides on per third.
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

/// The hexes along an edge of the battleland, where characters enter.
///
/// ```
/// use titan_core::battleland::{edge_hexes, HexId};
/// use titan_core::format::Edge;
/// let labels: Vec<String> = edge_hexes(Edge::SouthWest).map(HexId::label).collect();
/// assert_eq!(labels, ["A1", "B1", "C1", "D1"]);
/// ```
pub fn edge_hexes(edge: Edge) -> impl Iterator<Item = HexId> {
    let columns: &[usize] = match edge {
        Edge::West => &[0],
        Edge::East => &[5],
        Edge::NorthWest | Edge::SouthWest => &[0, 1, 2, 3],
        Edge::NorthEast | Edge::SouthEast => &[3, 4, 5],
    };
    let whole_column = matches!(edge, Edge::West | Edge::East);
    let top = matches!(edge, Edge::NorthWest | Edge::NorthEast);
    columns.iter().flat_map(move |&c| {
        let height = COLUMN_HEIGHTS[c];
        let numbers = if whole_column {
            1..=height
        } else if top {
            height..=height
        } else {
            1..=1
        };
        // Hexes are numbered in label order, column by column.
        let before: u8 = COLUMN_HEIGHTS[..c].iter().sum();
        numbers.map(move |n| HexId(before + n - 1))
    })
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
    /// Indexed by [`HexId`].
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
    /// ([`HexId::rotated`]): every hex's hazard, elevation and hexsides go
    /// with it; neighbours stay those of the board.
    pub fn rotated(&self, turns: u8) -> Battleland {
        let mut out = self.clone();
        for h in HexId::all() {
            let old = self.hex(h);
            let to = &mut out.hexes[h.rotated(turns).0 as usize];
            to.hazard = old.hazard;
            to.elevation = old.elevation;
            for side in Side::ALL {
                to.sides[rotated_side(side, turns).index()] = old.sides[side.index()];
            }
        }
        out.defender_area = self
            .defender_area
            .iter()
            .map(|h| h.rotated(turns))
            .collect();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        let labels: Vec<String> = HexId::all().map(HexId::label).collect();
        assert_eq!(labels.len(), HEX_COUNT);
        assert_eq!(&labels[..4], ["A1", "A2", "A3", "B1"]);
        assert_eq!(labels.last().unwrap(), "F4");
        for id in HexId::all() {
            assert_eq!(HexId::from_label(&id.label()), Some(id));
            assert_eq!(HexId::at(id.coord()), Some(id));
        }
        for bad in ["", "A", "A0", "A4", "G1", "D7", "d1", "B1x"] {
            assert_eq!(HexId::from_label(bad), None, "{bad}");
        }
    }

    #[test]
    fn neighbours_are_symmetric_and_match_the_printed_board() {
        let hex = |l: &str| HexId::from_label(l).unwrap();
        // The Tower's keep D4 is ringed by C3, C4, D3, D5, E3, E4.
        let mut ring: Vec<String> = Side::ALL
            .iter()
            .filter_map(|&s| hex("D4").neighbour(s))
            .map(HexId::label)
            .collect();
        ring.sort();
        assert_eq!(ring, ["C3", "C4", "D3", "D5", "E3", "E4"]);
        assert_eq!(hex("D4").neighbour(Side::N), Some(hex("D5")));
        assert_eq!(hex("D4").neighbour(Side::NW), Some(hex("C4")));
        assert_eq!(hex("A1").neighbour(Side::SW), None);
        for id in HexId::all() {
            for side in Side::ALL {
                if let Some(n) = id.neighbour(side) {
                    assert_eq!(n.neighbour(side.opposite()), Some(id));
                    assert_eq!(id.coord().unsigned_distance_to(n.coord()), 1);
                }
            }
        }
    }

    /// A turned battleland keeps its shape: neighbours stay neighbours
    /// across the turned side, and three turns are none.
    #[test]
    fn rotation_maps_the_board_onto_itself() {
        for turns in 0..3u8 {
            let mut seen = std::collections::HashSet::new();
            for h in HexId::all() {
                assert!(seen.insert(h.rotated(turns)));
                assert_eq!(h.rotated(turns).rotated(3 - turns), h);
                for side in Side::ALL {
                    assert_eq!(
                        h.neighbour(side).map(|n| n.rotated(turns)),
                        h.rotated(turns).neighbour(rotated_side(side, turns)),
                        "{} {side:?} {turns}",
                        h.label()
                    );
                }
            }
        }
    }

    #[test]
    fn wide_edges_face_narrow_ones() {
        let count = |e: Edge| edge_hexes(e).count();
        for e in [Edge::NorthWest, Edge::East, Edge::SouthWest] {
            assert_eq!(count(e), 4, "{e:?}");
            assert_eq!(count(e.opposite()), 3, "{e:?}");
        }
        let ne: Vec<String> = edge_hexes(Edge::NorthEast).map(HexId::label).collect();
        assert_eq!(ne, ["D6", "E5", "F4"]);
        let west: Vec<String> = edge_hexes(Edge::West).map(HexId::label).collect();
        assert_eq!(west, ["A1", "A2", "A3"]);
    }
}
