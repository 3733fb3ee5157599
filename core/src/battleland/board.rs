//! A battle board: its hexes (labels and axial coordinates), their
//! neighbours, the edges characters enter by, named zones, and the tables
//! that depend only on its shape (distances, both readings of every line
//! between two hexes, the hexes within each distance of a hex or an edge),
//! computed once when the board is built so the hot paths index arrays.

use std::sync::{Arc, OnceLock};

use hexx::Hex;

use super::hexset::{HexSet, bit, hexes};
use super::{HexId, side_offset, standard};
use crate::format::{Edge, Side};

/// The most hexes a board may have: as many as the standard board, whose
/// labels name a hex's id outside the variant's files (the wire, saves,
/// scripts: [`HexId::label`]). A hex is also a bit of a [`HexSet`] (`u32`)
/// below the two flags of a line of sight's entry
/// (`model::tables::BLOCKED`, `CALM`), and the movement flood looks sets
/// up in four chunks of 7 hexes.
pub const MAX_HEXES: usize = super::STANDARD_HEXES;

/// More than any distance on a board (entering counts one more).
pub(crate) const MAX_DISTANCE: usize = MAX_HEXES;

/// A battle board. [`HexId`]s index its hexes, in the order it was built
/// with (a battleland file's labels in sorted order).
#[derive(Clone)]
pub struct Board {
    labels: Vec<String>,
    coords: Vec<Hex>,
    neighbours: Vec<[Option<HexId>; 6]>,
    /// By [`Edge::ALL`].
    edges: [HexSet; 6],
    zones: Vec<(String, HexSet)>,
    /// `turned[h][t]`: where `h` goes when the board turns by `t` thirds
    /// of a turn about its centre; empty when it does not map onto itself.
    turned: Vec<[HexId; 3]>,
    /// `distance[a * len + b]`.
    distance: Vec<u8>,
    /// Both readings of the line between every pair (`a * len + b`).
    lines: Vec<(Vec<HexId>, Option<Vec<HexId>>)>,
    /// `within[hex][d]`: the hexes at most `d` steps from `hex`.
    within: Vec<[HexSet; MAX_DISTANCE + 1]>,
    /// `edge_within[edge][d]`: the hexes a flyer entering by the edge
    /// reaches in `d` steps (the first hex along the edge counts one).
    edge_within: [[HexSet; MAX_DISTANCE + 1]; 6],
    all: HexSet,
}

/// The hexes, edges and zones that make a board, by label.
#[derive(Debug, Clone, Default)]
pub struct BoardParts {
    /// Label and axial coordinates (q, r: flat-topped, r growing downward).
    pub hexes: Vec<(String, (i32, i32))>,
    pub edges: Vec<(Edge, Vec<String>)>,
    pub zones: Vec<(String, Vec<String>)>,
}

impl PartialEq for Board {
    fn eq(&self, o: &Self) -> bool {
        // The rest is derived from these.
        self.labels == o.labels
            && self.coords == o.coords
            && self.edges == o.edges
            && self.zones == o.zones
    }
}
impl Eq for Board {}

/// Too big to print whole.
impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("labels", &self.labels)
            .finish_non_exhaustive()
    }
}

impl Board {
    /// The 27-hex battleland of Titan (columns A-F of 3, 4, 5, 6, 5 and 4
    /// hexes), the board of every battleland that names none: built once
    /// per process and shared.
    pub fn standard() -> Arc<Board> {
        static STANDARD: OnceLock<Arc<Board>> = OnceLock::new();
        STANDARD
            .get_or_init(|| {
                Arc::new(Board::new(&standard::parts()).expect("the standard board is valid"))
            })
            .clone()
    }

    /// The board a battleland file stands on: its own, or the standard
    /// one when it names none (the editor draws files as they are edited;
    /// the compiler reports what is wrong with a board in its place).
    pub fn of(def: &crate::format::BattlelandDef) -> Result<Arc<Board>, String> {
        let Some(b) = &def.board else {
            return Ok(Board::standard());
        };
        let parts = BoardParts {
            hexes: b.hexes.iter().map(|(l, &c)| (l.clone(), c)).collect(),
            edges: b.edges.iter().map(|(&e, l)| (e, l.clone())).collect(),
            zones: b
                .zones
                .iter()
                .map(|(n, l)| (n.clone(), l.clone()))
                .collect(),
        };
        Board::new(&parts).map(Arc::new)
    }

    /// Builds a board, refusing one with no hex, more than [`MAX_HEXES`],
    /// two hexes at one place or of one label, or an edge or zone naming a
    /// hex it does not have (the compiler reports these with their places
    /// first; this is the backstop).
    pub fn new(parts: &BoardParts) -> Result<Board, String> {
        let n = parts.hexes.len();
        if n == 0 {
            return Err("a board needs at least one hex".into());
        }
        if n > MAX_HEXES {
            return Err(format!(
                "a board has at most {MAX_HEXES} hexes; this one has {n}"
            ));
        }
        let labels: Vec<String> = parts.hexes.iter().map(|(l, _)| l.clone()).collect();
        let coords: Vec<Hex> = parts
            .hexes
            .iter()
            .map(|&(_, (q, r))| Hex::new(q, r))
            .collect();
        for i in 0..n {
            for j in 0..i {
                if coords[i] == coords[j] {
                    return Err(format!(
                        "hexes {} and {} stand at one place",
                        labels[j], labels[i]
                    ));
                }
                if labels[i] == labels[j] {
                    return Err(format!("two hexes are labelled {}", labels[i]));
                }
            }
        }
        let at = |c: Hex| coords.iter().position(|&x| x == c).map(|i| HexId(i as u8));
        let lookup = |l: &str| {
            labels
                .iter()
                .position(|x| x == l)
                .map(|i| HexId(i as u8))
                .ok_or_else(|| format!("the board has no hex {l}"))
        };
        let set = |ls: &[String]| -> Result<HexSet, String> {
            ls.iter().try_fold(0, |m, l| Ok(m | bit(lookup(l)?)))
        };
        let mut edges = [0; 6];
        for (edge, ls) in &parts.edges {
            edges[edge_index(*edge)] |= set(ls)?;
        }
        let zones = parts
            .zones
            .iter()
            .map(|(name, ls)| Ok((name.clone(), set(ls)?)))
            .collect::<Result<Vec<_>, String>>()?;
        let neighbours: Vec<[Option<HexId>; 6]> = coords
            .iter()
            .map(|&c| Side::ALL.map(|s| at(c + side_offset(s))))
            .collect();
        let mut distance = vec![0u8; n * n];
        for a in 0..n {
            for b in 0..n {
                distance[a * n + b] = coords[a].unsigned_distance_to(coords[b]) as u8;
            }
        }
        let lines = (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .map(|(a, b)| sight_lines(&coords, HexId(a as u8), HexId(b as u8)))
            .collect();
        let mut within = vec![[0; MAX_DISTANCE + 1]; n];
        let mut edge_within = [[0; MAX_DISTANCE + 1]; 6];
        for t in 0..n {
            for d in 0..=MAX_DISTANCE {
                for (a, w) in within.iter_mut().enumerate() {
                    if usize::from(distance[a * n + t]) <= d {
                        w[d] |= bit(HexId(t as u8));
                    }
                }
                for (i, &e) in edges.iter().enumerate() {
                    let nearest = hexes(e)
                        .map(|h| usize::from(distance[h.0 as usize * n + t]))
                        .min();
                    if nearest.is_some_and(|x| x < d) {
                        edge_within[i][d] |= bit(HexId(t as u8));
                    }
                }
            }
        }
        let turned = turns(&coords, &at);
        Ok(Board {
            all: (0..n).fold(0, |m, i| m | bit(HexId(i as u8))),
            labels,
            coords,
            neighbours,
            edges,
            zones,
            turned,
            distance,
            lines,
            within,
            edge_within,
        })
    }

    /// How many hexes.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Never true of a built board.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Every hex, in id order.
    pub fn ids(&self) -> impl Iterator<Item = HexId> + use<> {
        (0..self.len() as u8).map(HexId)
    }

    /// Every hex as a set.
    pub fn all(&self) -> HexSet {
        self.all
    }

    /// Is `h` a hex of this board?
    pub fn has(&self, h: HexId) -> bool {
        usize::from(h.0) < self.len()
    }

    /// The label of a hex (`"?"` off the board).
    pub fn label(&self, h: HexId) -> &str {
        self.labels
            .get(usize::from(h.0))
            .map_or("?", String::as_str)
    }

    /// The hex of a label.
    pub fn hex(&self, label: &str) -> Option<HexId> {
        self.labels
            .iter()
            .position(|l| l == label)
            .map(|i| HexId(i as u8))
    }

    /// Axial coordinates (hexx), flat-topped, r growing downward.
    pub fn coord(&self, h: HexId) -> Hex {
        self.coords
            .get(usize::from(h.0))
            .copied()
            .unwrap_or(Hex::ZERO)
    }

    /// The hex at axial coordinates, if the board has one there.
    pub fn at(&self, c: Hex) -> Option<HexId> {
        self.coords
            .iter()
            .position(|&x| x == c)
            .map(|i| HexId(i as u8))
    }

    /// The neighbour across `side`, if on the board.
    pub fn neighbour(&self, h: HexId, side: Side) -> Option<HexId> {
        self.neighbours
            .get(usize::from(h.0))
            .and_then(|n| n[side.index()])
    }

    /// Neighbours by [`Side::index`].
    pub fn neighbours(&self, h: HexId) -> [Option<HexId>; 6] {
        self.neighbours
            .get(usize::from(h.0))
            .copied()
            .unwrap_or([None; 6])
    }

    /// The side of `a` that faces `b`, if they are neighbours.
    pub fn side_between(&self, a: HexId, b: HexId) -> Option<Side> {
        let n = self.neighbours(a);
        (0..6).find(|&i| n[i] == Some(b)).map(Side::from_index)
    }

    /// The hexes along an edge, where characters enter (none: nobody enters
    /// by it).
    pub fn edge(&self, edge: Edge) -> HexSet {
        self.edges[edge_index(edge)]
    }

    /// The hexes along an edge, in id order.
    pub fn edge_hexes(&self, edge: Edge) -> impl Iterator<Item = HexId> + use<> {
        hexes(self.edge(edge))
    }

    /// The named zones, as the board lists them.
    pub fn zones(&self) -> &[(String, HexSet)] {
        &self.zones
    }

    /// The hexes of a zone.
    pub fn zone(&self, name: &str) -> Option<HexSet> {
        self.zones.iter().find(|(n, _)| n == name).map(|z| z.1)
    }

    /// Does the board map onto itself when turned by a third of a turn?
    pub fn turns(&self) -> bool {
        !self.turned.is_empty()
    }

    /// The hex `h` goes to when the board turns by `turns` thirds of a turn
    /// about its centre; `h` itself on a board that does not map onto
    /// itself so ([`Board::turns`]).
    pub fn rotated(&self, h: HexId, turns: u8) -> HexId {
        self.turned
            .get(usize::from(h.0))
            .map_or(h, |t| t[usize::from(turns % 3)])
    }

    /// Hex distance (`u32::MAX` for a hex off the board).
    #[inline]
    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        let n = self.len();
        let (a, b) = (usize::from(a.0), usize::from(b.0));
        if a >= n || b >= n {
            return u32::MAX;
        }
        u32::from(self.distance[a * n + b])
    }

    /// Both readings of the line from `a` to `b` ([`sight_lines`]); empty
    /// for a hex off the board.
    pub fn lines_between(&self, a: HexId, b: HexId) -> (&[HexId], Option<&[HexId]>) {
        let n = self.len();
        let (a, b) = (usize::from(a.0), usize::from(b.0));
        if a >= n || b >= n {
            return (&[], None);
        }
        let (first, second) = &self.lines[a * n + b];
        (first, second.as_deref())
    }

    /// `within(hex)[d]`: the hexes at most `d` steps from `hex`.
    #[inline]
    pub fn within(&self, h: HexId) -> &[HexSet; MAX_DISTANCE + 1] {
        static NONE: [HexSet; MAX_DISTANCE + 1] = [0; MAX_DISTANCE + 1];
        self.within.get(usize::from(h.0)).unwrap_or(&NONE)
    }

    /// `edge_within(edge)[d]`: the hexes a flyer entering by the edge
    /// reaches in `d` steps.
    #[inline]
    pub fn edge_within(&self, edge: Edge) -> &[HexSet; MAX_DISTANCE + 1] {
        &self.edge_within[edge_index(edge)]
    }
}

pub(crate) fn edge_index(edge: Edge) -> usize {
    Edge::ALL.iter().position(|&e| e == edge).unwrap_or(0)
}

/// Where each hex goes when the board turns by thirds of a turn about the
/// mean of its hexes' centres, if every hex lands on a hex.
fn turns(coords: &[Hex], at: &dyn Fn(Hex) -> Option<HexId>) -> Vec<[HexId; 3]> {
    let n = coords.len() as i32;
    let (sq, sr) = coords.iter().fold((0, 0), |(q, r), c| (q + c.x, r + c.y));
    let ss = -sq - sr;
    let mut out = Vec::with_capacity(coords.len());
    for (i, c) in coords.iter().enumerate() {
        // Cube coordinates times n from the centre, where a third of a
        // turn is (q, r, s) -> (s, q, r).
        let (mut q, mut r, mut s) = (n * c.x - sq, n * c.y - sr, n * (-c.x - c.y) - ss);
        let mut t = [HexId(i as u8); 3];
        for slot in t.iter_mut().skip(1) {
            (q, r, s) = (s, q, r);
            if (q + sq) % n != 0 || (r + sr) % n != 0 {
                return Vec::new();
            }
            match at(Hex::new((q + sq) / n, (r + sr) / n)) {
                Some(h) => *slot = h,
                None => return Vec::new(),
            }
        }
        out.push(t);
    }
    out
}

/// The hexes a centre-to-centre line from `a` to `b` crosses, both ends
/// included. Where the line runs along a hexside there are two readings; the
/// second is returned when it differs (the rangestriker picks; reference
/// sheet, "Rangestriking"). A line leaving the board between its ends keeps
/// only the hexes on it.
fn sight_lines(coords: &[Hex], a: HexId, b: HexId) -> (Vec<HexId>, Option<Vec<HexId>>) {
    let at = |c: Hex| coords.iter().position(|&x| x == c).map(|i| HexId(i as u8));
    let (ca, cb) = (coords[a.0 as usize], coords[b.0 as usize]);
    let n = ca.unsigned_distance_to(cb);
    let line = |nudge: f64| -> Vec<HexId> {
        let (aq, ar) = (ca.x as f64, ca.y as f64);
        let (bq, br) = (cb.x as f64, cb.y as f64);
        let mut out = Vec::with_capacity(n as usize + 1);
        for i in 0..=n {
            let t = if n == 0 { 0.0 } else { i as f64 / n as f64 };
            let q = aq + (bq - aq) * t + nudge;
            let r = ar + (br - ar) * t + nudge;
            let s = -q - r;
            if let Some(id) = at(cube_round(q, r, s))
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

pub(crate) fn cube_round(q: f64, r: f64, s: f64) -> Hex {
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}
