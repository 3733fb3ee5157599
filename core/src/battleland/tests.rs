use super::*;
use crate::battleland::board::cube_round;
use crate::battleland::hexset::bit;

fn std_board() -> Arc<Board> {
    Board::standard()
}

fn hex(l: &str) -> HexId {
    std_board().hex(l).unwrap()
}

#[test]
fn labels_round_trip() {
    let b = std_board();
    let labels: Vec<&str> = b.ids().map(|h| b.label(h)).collect();
    assert_eq!(labels.len(), STANDARD_HEXES);
    assert_eq!(&labels[..4], ["A1", "A2", "A3", "B1"]);
    assert_eq!(*labels.last().unwrap(), "F4");
    for id in b.ids() {
        // The wire's names are the standard board's labels.
        assert_eq!(HexId::from_label(b.label(id)), Some(id));
        assert_eq!(id.label(), b.label(id));
        assert_eq!(b.at(b.coord(id)), Some(id));
    }
    for bad in ["", "A", "A0", "A4", "G1", "D7", "d1", "B1x"] {
        assert_eq!(HexId::from_label(bad), None, "{bad}");
        assert_eq!(b.hex(bad), None, "{bad}");
    }
}

#[test]
fn neighbours_are_symmetric_and_match_the_printed_board() {
    let b = std_board();
    // The Tower's keep D4 is ringed by C3, C4, D3, D5, E3, E4.
    let mut ring: Vec<&str> = Side::ALL
        .iter()
        .filter_map(|&s| b.neighbour(hex("D4"), s))
        .map(|h| b.label(h))
        .collect();
    ring.sort();
    assert_eq!(ring, ["C3", "C4", "D3", "D5", "E3", "E4"]);
    assert_eq!(b.neighbour(hex("D4"), Side::N), Some(hex("D5")));
    assert_eq!(b.neighbour(hex("D4"), Side::NW), Some(hex("C4")));
    assert_eq!(b.neighbour(hex("A1"), Side::SW), None);
    for id in b.ids() {
        for side in Side::ALL {
            if let Some(n) = b.neighbour(id, side) {
                assert_eq!(b.neighbour(n, side.opposite()), Some(id));
                assert_eq!(b.distance(id, n), 1);
            }
        }
    }
}

/// A turned battleland keeps its shape: neighbours stay neighbours across
/// the turned side, and three turns are none.
#[test]
fn rotation_maps_the_board_onto_itself() {
    let b = std_board();
    assert!(b.turns());
    assert_eq!(b.label(b.rotated(hex("A1"), 1)), "D6");
    assert_eq!(b.label(b.rotated(hex("A1"), 2)), "F1");
    assert_eq!(b.rotated(hex("A1"), 3), hex("A1"));
    for turns in 0..3u8 {
        let mut seen = std::collections::HashSet::new();
        for h in b.ids() {
            let r = b.rotated(h, turns);
            assert!(seen.insert(r));
            assert_eq!(b.rotated(r, 3 - turns), h);
            for side in Side::ALL {
                assert_eq!(
                    b.neighbour(h, side).map(|n| b.rotated(n, turns)),
                    b.neighbour(r, rotated_side(side, turns)),
                    "{} {side:?} {turns}",
                    b.label(h)
                );
            }
        }
    }
}

#[test]
fn wide_edges_face_narrow_ones() {
    let b = std_board();
    let count = |e: Edge| b.edge_hexes(e).count();
    for e in [Edge::NorthWest, Edge::East, Edge::SouthWest] {
        assert_eq!(count(e), 4, "{e:?}");
        assert_eq!(count(e.opposite()), 3, "{e:?}");
    }
    let labels =
        |e: Edge| -> Vec<String> { b.edge_hexes(e).map(|h| b.label(h).to_string()).collect() };
    assert_eq!(labels(Edge::NorthEast), ["D6", "E5", "F4"]);
    assert_eq!(labels(Edge::West), ["A1", "A2", "A3"]);
    assert_eq!(labels(Edge::SouthWest), ["A1", "B1", "C1", "D1"]);
}

fn parts(hexes: &[(&str, (i32, i32))]) -> BoardParts {
    BoardParts {
        hexes: hexes.iter().map(|&(l, c)| (l.to_string(), c)).collect(),
        ..BoardParts::default()
    }
}

/// A board is what its data says: a board of five hexes in two rows has
/// the neighbours, distances and edges of its coordinates, and no turn.
#[test]
fn a_board_of_any_shape() {
    let mut p = parts(&[
        ("a", (0, 0)),
        ("b", (1, -1)),
        ("c", (2, -1)),
        ("d", (0, -1)),
        ("e", (1, -2)),
    ]);
    p.edges = vec![(Edge::SouthWest, vec!["a".into(), "b".into(), "c".into()])];
    p.zones = vec![("defender".into(), vec!["d".into(), "e".into()])];
    let b = Board::new(&p).unwrap();
    let h = |l: &str| b.hex(l).unwrap();
    assert_eq!(b.len(), 5);
    assert_eq!(b.neighbour(h("a"), Side::NE), Some(h("b")));
    assert_eq!(b.neighbour(h("a"), Side::N), Some(h("d")));
    assert_eq!(b.neighbour(h("a"), Side::S), None);
    assert_eq!(b.distance(h("a"), h("c")), 2);
    assert_eq!(b.distance(h("a"), HexId(9)), u32::MAX);
    assert_eq!(b.edge_hexes(Edge::SouthWest).count(), 3);
    assert_eq!(b.edge(Edge::East), 0);
    assert_eq!(b.zone("defender"), Some(bit(h("d")) | bit(h("e"))));
    assert!(!b.turns());
    assert_eq!(b.rotated(h("a"), 1), h("a"));
    assert_eq!(hexset::hexes(b.within(h("a"))[1]).count(), 3);
}

#[test]
fn a_board_is_refused_when_it_cannot_be_one() {
    assert!(Board::new(&parts(&[])).is_err());
    assert!(Board::new(&parts(&[("a", (0, 0)), ("b", (0, 0))])).is_err());
    assert!(Board::new(&parts(&[("a", (0, 0)), ("a", (0, 1))])).is_err());
    let many: Vec<(String, (i32, i32))> = (0..=MAX_HEXES as i32)
        .map(|i| (format!("h{i}"), (0, i)))
        .collect();
    let too_many = BoardParts {
        hexes: many,
        ..BoardParts::default()
    };
    assert!(Board::new(&too_many).is_err());
    let mut p = parts(&[("a", (0, 0))]);
    p.zones = vec![("z".into(), vec!["nowhere".into()])];
    assert!(Board::new(&p).is_err());
}

#[test]
fn straight_lines_have_one_reading() {
    let b = std_board();
    let (p, q) = b.lines_between(hex("A1"), hex("A3"));
    assert_eq!(p, [hex("A1"), hex("A2"), hex("A3")]);
    assert!(q.is_none());
}

#[test]
fn lines_along_a_hexside_have_two_readings() {
    let b = std_board();
    let mut found = false;
    for x in b.ids() {
        for y in b.ids() {
            if b.distance(x, y) == 2
                && let (p, Some(q)) = b.lines_between(x, y)
            {
                assert_eq!(p.len(), 3);
                assert_eq!(q.len(), 3);
                assert_ne!(p[1], q[1]);
                found = true;
            }
        }
    }
    assert!(found);
}

/// Gods of Titan 14.3: the path is the hexes the centre-to-centre line
/// passes through. Sampled finely in the plane, the line meets exactly the
/// hexes of its reading wherever it has one reading (it does not run along
/// a hexside).
#[test]
fn the_path_is_the_hexes_the_centre_line_passes_through() {
    let b = std_board();
    let centre = |h: HexId| {
        let c = b.coord(h);
        (
            1.5 * c.x as f64,
            3f64.sqrt() * (c.y as f64 + c.x as f64 / 2.0),
        )
    };
    let at = |x: f64, y: f64| {
        let q = x / 1.5;
        let r = y / 3f64.sqrt() - q / 2.0;
        b.at(cube_round(q, r, -q - r))
    };
    for s in b.ids() {
        for t in b.ids() {
            let (path, other) = b.lines_between(s, t);
            if s == t || other.is_some() {
                continue;
            }
            let ((x0, y0), (x1, y1)) = (centre(s), centre(t));
            let mut met: Vec<HexId> = Vec::new();
            for i in 0..=2000 {
                let f = f64::from(i) / 2000.0;
                if let Some(h) = at(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
                    && met.last() != Some(&h)
                {
                    met.push(h);
                }
            }
            assert_eq!(met, path, "{} to {}", b.label(s), b.label(t));
        }
    }
}

#[test]
fn every_reading_is_a_chain_of_neighbours() {
    let b = std_board();
    for s in b.ids() {
        for t in b.ids() {
            let d = b.distance(s, t);
            let (p, q) = b.lines_between(s, t);
            for path in std::iter::once(p).chain(q) {
                assert_eq!(path.len() as u32, d + 1, "{} {}", b.label(s), b.label(t));
                assert_eq!((path[0], path[path.len() - 1]), (s, t));
                for w in path.windows(2) {
                    assert_eq!(b.distance(w[0], w[1]), 1);
                }
            }
        }
    }
}
