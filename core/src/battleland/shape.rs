//! Tables that depend only on the shape of a battleland (distances, the
//! lines between hexes, the hexes within reach of a hex or an edge), which
//! every battleland of every variant shares: computed once per process.

use crate::format::{Edge, Side};

use super::hexset::{HexSet, bit};
use super::{Battleland, HEX_COUNT, HexId, edge_hexes};

/// The side of `a` that faces `b`, if they are neighbours.
pub fn side_between(land: &Battleland, a: HexId, b: HexId) -> Option<Side> {
    let hex = land.hex(a);
    (0..6)
        .find(|&i| hex.neighbours[i] == Some(b))
        .map(Side::from_index)
}

/// Hex distance on the battleland.
pub fn distance(a: HexId, b: HexId) -> u32 {
    u32::from(shape().distance[a.0 as usize][b.0 as usize])
}

/// Tables that depend only on the shape of a battleland, which every
/// battleland of every variant shares: computed once per process, so the
/// hot paths (movement reach, rangestrike listing) index arrays instead of
/// converting coordinates or drawing lines.
pub(crate) struct Shape {
    pub(crate) distance: [[u8; HEX_COUNT]; HEX_COUNT],
    /// Both readings of the line between every pair of hexes (index
    /// `a * HEX_COUNT + b`), as [`sight_lines`] draws them.
    pub(crate) lines: Vec<(Vec<HexId>, Option<Vec<HexId>>)>,
    /// The hexes along each edge (by [`Edge::ALL`]).
    pub(crate) edge_hexes: [HexSet; 6],
    /// `within[hex][d]`: the hexes at most `d` steps from `hex`.
    pub(crate) within: [[HexSet; MAX_DISTANCE + 1]; HEX_COUNT],
    /// `edge_within[edge][d]`: the hexes a flyer entering by the edge
    /// reaches in `d` steps (the first hex along the edge counts one).
    pub(crate) edge_within: [[HexSet; MAX_DISTANCE + 1]; 6],
}

/// More than any distance on a battleland (entering counts one more).
pub(crate) const MAX_DISTANCE: usize = 15;

pub(crate) fn shape() -> &'static Shape {
    static SHAPE: std::sync::OnceLock<Shape> = std::sync::OnceLock::new();
    SHAPE.get_or_init(|| {
        let mut distance = [[0u8; HEX_COUNT]; HEX_COUNT];
        for a in HexId::all() {
            for b in HexId::all() {
                distance[a.0 as usize][b.0 as usize] =
                    a.coord().unsigned_distance_to(b.coord()) as u8;
            }
        }
        let mut edge_distance = [[0u8; HEX_COUNT]; 6];
        for (i, &edge) in Edge::ALL.iter().enumerate() {
            for t in HexId::all() {
                edge_distance[i][t.0 as usize] = edge_hexes(edge)
                    .map(|e| distance[e.0 as usize][t.0 as usize])
                    .min()
                    .unwrap_or(99);
            }
        }
        let lines = HexId::all()
            .flat_map(|a| HexId::all().map(move |b| sight_lines(a, b)))
            .collect();
        let mut edge_hex_sets = [0; 6];
        let mut within = [[0; MAX_DISTANCE + 1]; HEX_COUNT];
        let mut edge_within = [[0; MAX_DISTANCE + 1]; 6];
        for t in HexId::all() {
            for d in 0..=MAX_DISTANCE {
                for a in HexId::all() {
                    if usize::from(distance[a.0 as usize][t.0 as usize]) <= d {
                        within[a.0 as usize][d] |= bit(t);
                    }
                }
                for (i, dist) in edge_distance.iter().enumerate() {
                    if usize::from(dist[t.0 as usize]) < d {
                        edge_within[i][d] |= bit(t);
                    }
                }
            }
        }
        for (i, &edge) in Edge::ALL.iter().enumerate() {
            edge_hex_sets[i] = edge_hexes(edge).fold(0, |m, h| m | bit(h));
        }
        Shape {
            distance,
            lines,
            edge_hexes: edge_hex_sets,
            within,
            edge_within,
        }
    })
}

pub(crate) fn edge_index(edge: Edge) -> usize {
    Edge::ALL.iter().position(|&e| e == edge).unwrap_or(0)
}

/// The readings of the line from `a` to `b` ([`sight_lines`]), from the table.
pub fn lines_between(a: HexId, b: HexId) -> (&'static [HexId], Option<&'static [HexId]>) {
    let (first, second) = &shape().lines[a.0 as usize * HEX_COUNT + b.0 as usize];
    (first, second.as_deref())
}

/// The hexes a centre-to-centre line from `a` to `b` crosses, both ends
/// included. Where the line runs along a hexside there are two readings; the
/// second is returned when it differs (the rangestriker picks; reference
/// sheet, "Rangestriking").
pub fn sight_lines(a: HexId, b: HexId) -> (Vec<HexId>, Option<Vec<HexId>>) {
    // Not the table: this fills it.
    let n = a.coord().unsigned_distance_to(b.coord());
    let line = |nudge: f64| -> Vec<HexId> {
        let (aq, ar) = (a.coord().x as f64, a.coord().y as f64);
        let (bq, br) = (b.coord().x as f64, b.coord().y as f64);
        let mut out = Vec::with_capacity(n as usize + 1);
        for i in 0..=n {
            let t = if n == 0 { 0.0 } else { i as f64 / n as f64 };
            let q = aq + (bq - aq) * t + nudge;
            let r = ar + (br - ar) * t + nudge;
            let s = -q - r;
            let hex = cube_round(q, r, s);
            if let Some(id) = HexId::at(hex)
                && out.last() != Some(&id)
            {
                out.push(id);
            }
        }
        out
    };
    let first = line(1e-6);
    let second = line(-1e-6);
    if first == second {
        (first, None)
    } else {
        (first, Some(second))
    }
}

fn cube_round(q: f64, r: f64, s: f64) -> hexx::Hex {
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    hexx::Hex::new(rq as i32, rr as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(l: &str) -> HexId {
        HexId::from_label(l).unwrap()
    }

    #[test]
    fn straight_lines_have_one_reading() {
        let (a, b) = sight_lines(hex("A1"), hex("A3"));
        assert_eq!(a, vec![hex("A1"), hex("A2"), hex("A3")]);
        assert!(b.is_none());
    }

    #[test]
    fn lines_along_a_hexside_have_two_readings() {
        // D4 to B3... pick a pair two apart off-axis: C3 to E3 (or similar).
        let mut found = false;
        for a in HexId::all() {
            for b in HexId::all() {
                if distance(a, b) == 2
                    && let (p, Some(q)) = sight_lines(a, b)
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
    /// passes through. Sampled finely in the plane, the line meets exactly
    /// the hexes of its reading wherever it has one reading (it does not run
    /// along a hexside).
    #[test]
    fn the_path_is_the_hexes_the_centre_line_passes_through() {
        let centre = |h: HexId| {
            let c = h.coord();
            (
                1.5 * c.x as f64,
                3f64.sqrt() * (c.y as f64 + c.x as f64 / 2.0),
            )
        };
        let at = |x: f64, y: f64| {
            let q = x / 1.5;
            let r = y / 3f64.sqrt() - q / 2.0;
            HexId::at(cube_round(q, r, -q - r))
        };
        for a in HexId::all() {
            for b in HexId::all() {
                let (path, other) = sight_lines(a, b);
                if a == b || other.is_some() {
                    continue;
                }
                let ((x0, y0), (x1, y1)) = (centre(a), centre(b));
                let mut met: Vec<HexId> = Vec::new();
                for i in 0..=2000 {
                    let t = f64::from(i) / 2000.0;
                    if let Some(h) = at(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
                        && met.last() != Some(&h)
                    {
                        met.push(h);
                    }
                }
                assert_eq!(met, path, "{} to {}", a.label(), b.label());
            }
        }
    }

    #[test]
    fn every_reading_is_a_chain_of_neighbours() {
        for a in HexId::all() {
            for b in HexId::all() {
                let d = distance(a, b);
                let (p, q) = sight_lines(a, b);
                for path in std::iter::once(p).chain(q) {
                    assert_eq!(path.len() as u32, d + 1, "{} {}", a.label(), b.label());
                    assert_eq!((path[0], path[path.len() - 1]), (a, b));
                    for w in path.windows(2) {
                        assert_eq!(distance(w[0], w[1]), 1, "{} {}", a.label(), b.label());
                    }
                }
            }
        }
    }
}
