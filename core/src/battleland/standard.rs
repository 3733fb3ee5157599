//! The 27-hex battleland of Titan as a board: six columns A-F of 3, 4, 5,
//! 6, 5 and 4 hexes, numbered from the bottom, columns B, D and F half a hex
//! lower than their neighbours. Its labels are also how a hex is named on
//! the wire ([`HexId`]'s serde form, saves, the protocol).

use super::HexId;
use super::board::BoardParts;
use crate::format::Edge;

/// Hexes per column, A to F.
const COLUMN_HEIGHTS: [u8; 6] = [3, 4, 5, 6, 5, 4];
/// How far each column's bottom hex sits below the board's top row, in the
/// offset grid (row 0 is the top of column D).
const COLUMN_BOTTOM_ROW: [i32; 6] = [4, 4, 5, 5, 5, 4];

/// How many hexes the standard board has.
pub const STANDARD_HEXES: usize = 27;

/// Column 0-5 (A-F) and number 1-6 of a hex of the standard board.
fn column_number(id: HexId) -> Option<(usize, u8)> {
    let mut rest = id.0;
    for (column, &height) in COLUMN_HEIGHTS.iter().enumerate() {
        if rest < height {
            return Some((column, rest + 1));
        }
        rest -= height;
    }
    None
}

/// The standard board's label of a hex (`"?"` past its 27 hexes).
pub(super) fn label(id: HexId) -> String {
    match column_number(id) {
        Some((column, number)) => format!("{}{}", (b'A' + column as u8) as char, number),
        None => "?".into(),
    }
}

/// The standard board's hex of a label.
pub(super) fn from_label(label: &str) -> Option<HexId> {
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

/// The standard board's hexes, edges (no zones): what
/// [`super::Board::standard`] is built from.
pub(super) fn parts() -> BoardParts {
    let hexes = (0..STANDARD_HEXES as u8)
        .filter_map(|i| {
            let (column, number) = column_number(HexId(i))?;
            let row = COLUMN_BOTTOM_ROW[column] - (i32::from(number) - 1);
            let q = column as i32;
            // Odd columns sit half a hex lower ("odd-q" offset layout).
            Some((label(HexId(i)), (q, row - (q - (q & 1)) / 2)))
        })
        .collect();
    let edges = Edge::ALL
        .iter()
        .map(|&edge| {
            let columns: &[usize] = match edge {
                Edge::West => &[0],
                Edge::East => &[5],
                Edge::NorthWest | Edge::SouthWest => &[0, 1, 2, 3],
                Edge::NorthEast | Edge::SouthEast => &[3, 4, 5],
            };
            let whole_column = matches!(edge, Edge::West | Edge::East);
            let top = matches!(edge, Edge::NorthWest | Edge::NorthEast);
            let labels = columns
                .iter()
                .flat_map(|&c| {
                    let height = COLUMN_HEIGHTS[c];
                    let numbers = if whole_column {
                        1..=height
                    } else if top {
                        height..=height
                    } else {
                        1..=1
                    };
                    numbers.map(move |n| format!("{}{n}", (b'A' + c as u8) as char))
                })
                .collect();
            (edge, labels)
        })
        .collect();
    BoardParts {
        hexes,
        edges,
        zones: Vec::new(),
    }
}
