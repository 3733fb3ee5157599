//! The attacker's entry side (Law of the Battlelands 25.A: "Each Battleland
//! is marked with the name of its Terrain; this name-side corresponds to the
//! numbered side of the Land of the Engagement. The Characters of the
//! attacking Legion enter the Battleland on the same relative side as their
//! Legion entered the Land of the Engagement"; reference sheet: "the same
//! relative 4-hex side").
//!
//! Laid on the land with its name on the land's number, both face up, the
//! battleland is the land turned, never mirrored: the border crossed is as
//! far round from the numbered corner, and the same way round, as the entry
//! edge is from the name-side (`NorthEast`, 25.B). Another implementation
//! gives the mirror image of each of these ten (NorthWest and SouthWest
//! swapped); variants/titan/README.md, "Entry sides", says why that reading
//! is not the rule's.

use titan_core::format::Edge;

#[test]
fn the_attacker_enters_by_the_side_it_crossed_turned_with_the_land() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
    let v = titan_core::load(&dir, &Default::default()).unwrap();
    let land = |n: u32| v.board.by_number(n).unwrap();
    let cases = [
        // The three lands around the Tower 200, their numbers on their lower
        // right corners: 6 entered by its upper right border (one sixth
        // before the numbered corner, so one sixth before the name-side),
        // 108 by its upper left border (one sixth past the corner opposite
        // the number), 10 by its bottom border (one sixth past the number).
        (200, 6, Edge::NorthWest),
        (200, 108, Edge::SouthWest),
        (200, 10, Edge::East),
        (10, 11, Edge::NorthWest),
        (104, 103, Edge::NorthWest),
        (6, 7, Edge::SouthWest),
        (11, 12, Edge::NorthWest),
        (107, 106, Edge::NorthWest),
        (8, 9, Edge::NorthWest),
        (9, 10, Edge::SouthWest),
        (13, 14, Edge::SouthWest),
    ];
    for (from, to, side) in cases {
        // Neighbours: a sign leads from one to the other (else the side
        // would be the teleported attacker's default, not derived).
        assert!(
            v.board.exits(land(from)).any(|(_, l)| l == land(to))
                || v.board.exits(land(to)).any(|(_, l)| l == land(from)),
            "{from} and {to} are neighbours"
        );
        assert_eq!(
            titan_core::game::attacker_entry_edge(&v, land(to), Some(land(from))),
            side,
            "from {from} into {to}"
        );
    }
}
