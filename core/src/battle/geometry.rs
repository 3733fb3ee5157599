//! Battleland geometry the battle needs: contact, movement and line of sight,
//! all over the compiled [`Battleland`] and the hazard data.

use crate::battleland::{Battleland, HEX_COUNT, HexId, edge_hexes};
use crate::format::{Crossing, Edge, Move, Side, Sight};
use crate::model::{CharacterId, Effect, HazardId, HazardSet, Variant};

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
struct Shape {
    distance: [[u8; HEX_COUNT]; HEX_COUNT],
    /// `edge_distance[edge][hex]`: steps from the nearest hex along the edge
    /// (an index of [`Edge::ALL`]).
    edge_distance: [[u8; HEX_COUNT]; 6],
    /// Both readings of the line between every pair of hexes (index
    /// `a * HEX_COUNT + b`), as [`sight_lines`] draws them.
    lines: Vec<(Vec<HexId>, Option<Vec<HexId>>)>,
}

fn shape() -> &'static Shape {
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
        Shape {
            distance,
            edge_distance,
            lines,
        }
    })
}

fn edge_index(edge: Edge) -> usize {
    Edge::ALL.iter().position(|&e| e == edge).unwrap_or(0)
}

/// The readings of the line from `a` to `b` ([`sight_lines`]), from the table.
pub fn lines_between(a: HexId, b: HexId) -> (&'static [HexId], Option<&'static [HexId]>) {
    let (first, second) = &shape().lines[a.0 as usize * HEX_COUNT + b.0 as usize];
    (first, second.as_deref())
}

/// Per-battleland tables computed once per battle, so the hot paths index
/// arrays instead of walking effect lists.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// `contact_across[hex][side]`: characters on the two sides of this
    /// hexside are in contact (a neighbour exists and no `NoContact` hazard
    /// lies between them; Law of the Battlelands 26.C, footnote on cliffs).
    pub contact_across: [[bool; 6]; HEX_COUNT],
}

impl Geometry {
    pub fn new(variant: &Variant, land: &Battleland) -> Geometry {
        let mut contact_across = [[false; 6]; HEX_COUNT];
        // The hazards that break contact, read once (a game rebuilds this
        // whenever it resumes its battle).
        let mut no_contact = HazardSet::default();
        for (i, h) in variant.hazards.iter().enumerate() {
            if h.effects.iter().any(|e| matches!(e, Effect::NoContact)) {
                no_contact.insert(HazardId(i as _));
            }
        }
        for id in HexId::all() {
            let hex = land.hex(id);
            for (i, slot) in contact_across[id.0 as usize].iter_mut().enumerate() {
                let Some(_) = hex.neighbours[i] else { continue };
                let broken = hex.sides[i].is_some_and(|hs| no_contact.contains(hs.hazard));
                *slot = !broken;
            }
        }
        Geometry { contact_across }
    }

    /// Are characters on `a` and `b` in contact?
    pub fn in_contact(&self, land: &Battleland, a: HexId, b: HexId) -> bool {
        side_between(land, a, b).is_some_and(|s| self.contact_across[a.0 as usize][s.index()])
    }
}

/// What it costs a walker to step from `from` across `side` into its
/// neighbour `to`: `None` if forbidden, else (hexes counted, movement stops).
/// Hazards act on the hex entered and the hexside crossed, never on the hex
/// left (reference sheet, "Maneuver Phase").
/// `natives`: the hazards the walker is native to.
fn step_cost(
    variant: &Variant,
    land: &Battleland,
    natives: HazardSet,
    side: Option<Side>,
    to: HexId,
) -> Option<(u8, bool)> {
    let mut effect = [Move::Free; 2];
    let hex = land.hex(to);
    let hazard = variant.hazard(hex.hazard);
    effect[0] = hazard.movement_for(false, natives.contains(hex.hazard));
    if let Some(side) = side
        && let Some(hs) = land.hexside(to, side.opposite())
    {
        let h = variant.hazard(hs.hazard);
        // `hs.top`: `to` is the top side, so this step climbs.
        let applies = match h.movement.crossing {
            Crossing::Up => hs.top,
            Crossing::Down => !hs.top,
            Crossing::Both => true,
        };
        if applies {
            effect[1] = h.movement_for(false, natives.contains(hs.hazard));
        }
    }
    combine(effect)
}

fn combine(effects: [Move; 2]) -> Option<(u8, bool)> {
    let mut cost = 1;
    let mut stop = false;
    for m in effects {
        match m {
            Move::Free => {}
            Move::Slow => cost = 2,
            Move::Block => return None,
            Move::Stop => stop = true,
        }
    }
    Some((cost, stop))
}

/// Where a move starts: a hex, or off the battleland along an edge (entering).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum From {
    Hex(HexId),
    Edge(Edge),
    /// Deployed anywhere in these hexes at no cost (the Tower's defender).
    Area,
}

/// Every hex a character may end its move on: up to `skill` hexes, slowed,
/// blocked or stopped by hazards, never through or onto another character
/// unless it flies (then it passes over both and lands by the landing rules).
/// `occupied[hex]` marks hexes holding a character.
pub fn reach(
    variant: &Variant,
    land: &Battleland,
    character: CharacterId,
    from: From,
    occupied: &[bool; HEX_COUNT],
) -> Vec<HexId> {
    let c = variant.character(character);
    let skill = c.skill as i8;
    // `best[hex]`: the most movement left on reaching it (-1: not reached).
    let mut best = [-1i8; HEX_COUNT];
    match from {
        From::Area => {
            return land
                .defender_area
                .iter()
                .copied()
                .filter(|h| !occupied[h.0 as usize])
                .collect();
        }
        From::Hex(h) => best[h.0 as usize] = skill,
        From::Edge(edge) => {
            // Law of the Battlelands 26.D: the first hex lies along the
            // side of entry and is the first count of the move.
            for e in edge_hexes(edge) {
                if occupied[e.0 as usize] {
                    continue;
                }
                if let Some((cost, stop)) = step_cost(variant, land, c.natives, None, e)
                    && cost as i8 <= skill
                {
                    best[e.0 as usize] = if stop { 0 } else { skill - cost as i8 };
                }
            }
        }
    }
    // Every step costs at least one, so a hex's best is final once every hex
    // with more left has been expanded: expand by movement left, from the
    // most down, each hex once.
    for rem in (1..=skill).rev() {
        for h in HexId::all() {
            if best[h.0 as usize] != rem {
                continue;
            }
            expand(variant, land, c.natives, h, rem, occupied, &mut best);
        }
    }
    let mut out: Vec<HexId> = HexId::all()
        .filter(|h| best[h.0 as usize] >= 0 && Some(*h) != start_hex(from))
        .collect();
    if c.flies {
        // Flyers pass over characters and hazards; landing in a hex that
        // slows them counts it as two (reference sheet, "Maneuver Phase").
        let shape = shape();
        for t in HexId::all() {
            // `best` marks the hexes walked to (and the start).
            if occupied[t.0 as usize] || best[t.0 as usize] >= 0 || Some(t) == start_hex(from) {
                continue;
            }
            let steps = match from {
                From::Hex(h) => shape.distance[h.0 as usize][t.0 as usize] as i8,
                From::Edge(edge) => shape.edge_distance[edge_index(edge)][t.0 as usize] as i8 + 1,
                From::Area => continue,
            };
            let hz = land.hex(t).hazard;
            let landing = variant
                .hazard(hz)
                .movement_for(true, variant.is_native(character, hz));
            let extra = match landing {
                Move::Block => continue,
                Move::Slow => 1,
                _ => 0,
            };
            if steps + extra <= skill {
                out.push(t);
            }
        }
        out.sort();
    }
    out
}

/// Walks from `h`, with `rem` movement left, into each neighbour it may
/// enter, raising the neighbour's best.
fn expand(
    variant: &Variant,
    land: &Battleland,
    natives: HazardSet,
    h: HexId,
    rem: i8,
    occupied: &[bool; HEX_COUNT],
    best: &mut [i8; HEX_COUNT],
) {
    for (i, n) in land.hex(h).neighbours.iter().enumerate() {
        let Some(n) = *n else { continue };
        if occupied[n.0 as usize] {
            continue;
        }
        let Some((cost, stop)) = step_cost(variant, land, natives, Some(Side::from_index(i)), n)
        else {
            continue;
        };
        if cost as i8 > rem {
            continue;
        }
        let r = if stop { 0 } else { rem - cost as i8 };
        if r > best[n.0 as usize] {
            best[n.0 as usize] = r;
        }
    }
}

fn start_hex(from: From) -> Option<HexId> {
    match from {
        From::Hex(h) => Some(h),
        _ => None,
    }
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

/// What blocks a line of sight; [`Blocker::describe`] words it (only when
/// asked, so that listing rangestrikes formats nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocker {
    /// A character standing in a hex.
    Character(HexId),
    /// A hazard in a hex.
    Hazard(HazardId, HexId),
    /// A hex higher than both ends, and its elevation.
    Higher(HexId, u8),
    /// A hexside hazard between two hexes.
    Hexside(HazardId, HexId, HexId),
}

impl Blocker {
    /// The reason in words; `occupant(hex)` names the character standing there.
    pub fn describe(self, variant: &Variant, occupant: &dyn Fn(HexId) -> String) -> String {
        match self {
            Blocker::Character(h) => {
                format!("{} in {} blocks the line of sight", occupant(h), h.label())
            }
            Blocker::Hazard(hz, h) => format!(
                "{} in {} blocks the line of sight",
                variant.hazard(hz).name,
                h.label()
            ),
            Blocker::Higher(h, elevation) => format!(
                "{} (elevation {elevation}) is higher than both ends",
                h.label()
            ),
            Blocker::Hexside(hz, p, q) => format!(
                "the {} between {} and {} blocks the line of sight",
                variant.hazard(hz).name,
                p.label(),
                q.label()
            ),
        }
    }
}

/// Why a line of sight is blocked, if it is, in words. `occupant(hex)` names
/// a character standing there (other than the two ends).
pub fn blocked(
    variant: &Variant,
    land: &Battleland,
    path: &[HexId],
    occupant: &dyn Fn(HexId) -> Option<String>,
) -> Option<String> {
    blocker(variant, land, path, &|h| occupant(h).is_some())
        .map(|b| b.describe(variant, &|h| occupant(h).unwrap_or_default()))
}

/// What blocks a line of sight, if anything: a character, a hazard in a
/// hex, a hexside hazard, or higher ground. `occupied(hex)`: a character
/// stands there (other than the two ends).
pub fn blocker(
    variant: &Variant,
    land: &Battleland,
    path: &[HexId],
    occupied: &dyn Fn(HexId) -> bool,
) -> Option<Blocker> {
    let (from, to) = (path[0], path[path.len() - 1]);
    let (ef, et) = (land.hex(from).elevation, land.hex(to).elevation);
    for &h in &path[1..path.len() - 1] {
        let hex = land.hex(h);
        if occupied(h) && !(hex.elevation < ef && hex.elevation < et) {
            // Reference sheet, "Rangestriking": a character blocks unless it
            // stands lower than both ends.
            return Some(Blocker::Character(h));
        }
        let hazard = variant.hazard(hex.hazard);
        if hazard
            .effects
            .iter()
            .any(|e| matches!(e, Effect::BlocksSight(_)))
        {
            return Some(Blocker::Hazard(hex.hazard, h));
        }
        if variant.rules.battle.elevation_blocks_sight && hex.elevation > ef && hex.elevation > et {
            return Some(Blocker::Higher(h, hex.elevation));
        }
    }
    // The sight-limiting hexsides crossed: (from, to, top hex, hazard, sight).
    let mut crossed = Vec::new();
    for pair in path.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        let Some(side) = side_between(land, p, q) else {
            continue;
        };
        let Some(hs) = land.hexside(p, side) else {
            continue;
        };
        let top = if hs.top { p } else { q };
        for e in &variant.hazard(hs.hazard).effects {
            if let Effect::BlocksSight(sight) = e {
                crossed.push((p, q, top, hs.hazard, *sight));
            }
        }
    }
    let atop = |end: HexId| crossed.iter().any(|c| c.2 == end);
    for &(p, q, top, hz, sight) in &crossed {
        let blocks = match sight {
            Sight::Always => true,
            Sight::UnlessEndAtop => top != from && top != to,
            Sight::UnlessEndAtopAny => {
                let count = crossed.iter().filter(|c| c.3 == hz).count();
                if count >= 3 {
                    !(atop(from) && atop(to))
                } else {
                    !(atop(from) || atop(to))
                }
            }
        };
        if blocks {
            return Some(Blocker::Hexside(hz, p, q));
        }
    }
    None
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
