//! Battleland geometry the battle needs: contact, movement and line of sight,
//! all over the compiled [`Battleland`] and the hazard data.

use crate::battleland::board::MAX_DISTANCE;
use crate::battleland::{Battleland, HexId, MAX_HEXES};
use crate::format::Edge;
use crate::model::{CharacterId, Variant};

use super::tables::{ALL_HEXES, HexSet, LandTables, MoveTable, bit, hexes};

pub use crate::model::sight::{Blocker, blocked, blocker, blocker_for};

/// The battleland's contact table, copied from the variant's tables when
/// the battle starts.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// `contact[hex]`: the hexes in contact with `hex` (see
    /// [`super::tables::LandTables::contact`]).
    pub contact: [HexSet; MAX_HEXES],
    /// The hexes whose hazard may keep a character out of contact
    /// ([`super::tables::LandTables::aloof`]); 0 on most battlelands, so
    /// the contact checks skip the units' walk.
    pub aloof: HexSet,
}

impl Geometry {
    pub fn new(variant: &Variant, land: &Battleland) -> Geometry {
        let tables = variant.battle_tables.land(land.terrain.index());
        Geometry {
            contact: tables.contact,
            aloof: tables.aloof,
        }
    }

    /// Are characters on `a` and `b` in contact?
    pub fn in_contact(&self, _land: &Battleland, a: HexId, b: HexId) -> bool {
        self.contact[a.0 as usize] & bit(b) != 0
    }
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
    occupied: &[bool; MAX_HEXES],
) -> Vec<HexId> {
    let tables = variant.battle_tables.land(land.terrain.index());
    reach_in(variant, land, tables, character, from, occupied)
}

/// [`reach`] over given tables (a battle's own, when a script changed a
/// hazard).
pub fn reach_in(
    variant: &Variant,
    land: &Battleland,
    tables: &LandTables,
    character: CharacterId,
    from: From,
    occupied: &[bool; MAX_HEXES],
) -> Vec<HexId> {
    if from == From::Area {
        // In the area's order, as the data lists it.
        return land
            .defender_area
            .iter()
            .copied()
            .filter(|h| !occupied[h.0 as usize])
            .collect();
    }
    let occ = land
        .board
        .ids()
        .filter(|h| occupied[h.0 as usize])
        .fold(0, |m, h| m | bit(h));
    hexes(reach_set_in(variant, land, tables, character, from, occ)).collect()
}

/// The most movement a reach counts: from any hex, a walker reaches every
/// hex it can reach at all within 26 steps of at most two each, so more
/// skill changes nothing.
const MAX_MOVEMENT: usize = 60;

/// [`reach`] as a set of hexes, over the variant's movement tables: a flood
/// by movement left, each hex expanded once at its best. `occupied`: the
/// hexes holding a character.
pub fn reach_set(
    variant: &Variant,
    land: &Battleland,
    character: CharacterId,
    from: From,
    occupied: HexSet,
) -> HexSet {
    let tables = variant.battle_tables.land(land.terrain.index());
    reach_set_in(variant, land, tables, character, from, occupied)
}

/// [`reach_set`] over given tables.
pub fn reach_set_in(
    variant: &Variant,
    land: &Battleland,
    tables: &LandTables,
    character: CharacterId,
    from: From,
    occupied: HexSet,
) -> HexSet {
    let c = variant.character(character);
    let moves = &tables.moves[variant.battle_tables.move_class(character)];
    reach_set_with(land, moves, c.skill, c.flies, from, occupied)
}

/// [`reach_set`] of a walker with the given movement table, skill and
/// flight (a unit whose natives, skill or flight a script changed).
pub fn reach_set_with(
    land: &Battleland,
    moves: &MoveTable,
    skill: u8,
    flies: bool,
    from: From,
    occupied: HexSet,
) -> HexSet {
    let skill = (skill as usize).min(MAX_MOVEMENT);
    let free = !occupied & ALL_HEXES;
    // The hexes reached with `rem` movement left (`here`), one less
    // (`next`) and two less (`after`), as the flood goes down from `skill`; a
    // hex may be reached at several levels, its best is the highest. Every
    // step costs at least one, so a hex's best is final once every level
    // above it has been expanded: each hex is expanded once, at its best.
    let (mut here, mut next, mut after, mut stopped) = (0, 0, 0, 0);
    let start = match from {
        From::Area => return land.defender_area.iter().fold(0, |m, &h| m | bit(h)) & free,
        From::Hex(h) => {
            here = bit(h);
            bit(h)
        }
        From::Edge(edge) => {
            // Law of the Battlelands 26.D: the first hex lies along the
            // side of entry and is the first count of the move.
            let first = land.board.edge(edge) & free;
            if skill >= 1 {
                next = moves.enter[0] & first;
                stopped = moves.enter[2] & first;
            }
            if skill >= 2 {
                after = moves.enter[1] & first;
                stopped |= moves.enter[3] & first;
            }
            0
        }
    };
    let mut done = 0;
    for rem in (1..=skill).rev() {
        let new = here & !done;
        done |= here;
        let [one, two, stop1, stop2] = moves.steps_from(new);
        // Steps costing two only while two are left: by mask, as which
        // level is the last varies from unit to unit.
        let deep = HexSet::from(rem >= 2).wrapping_neg();
        here = next | (one & free);
        next = after | (two & deep & free);
        after = 0;
        stopped |= (stop1 | stop2 & deep) & free;
    }
    // `here` is now the level with nothing left.
    let walked = done | here | stopped;
    let mut out = walked & !start;
    if flies {
        // Flyers pass over characters and hazards; landing in a hex that
        // slows them counts it as two (reference sheet, "Maneuver Phase").
        let (all, less) = flight(land, moves, from, skill, usize::MAX);
        let mut land_on = all & moves.landing[0];
        if skill >= 1 {
            land_on |= less & moves.landing[1];
        }
        out |= land_on & free & !walked & !start;
    }
    // Most battlelands' movement tables have nothing to dive in: no call.
    if moves.dive != 0 {
        out |= dive(land, moves, from, skill, usize::MAX) & free & !start;
    }
    out
}

/// The hexes a flight from `from` reaches with at most `points` of
/// movement, and with at most one less, entering at most `cap` hexes: by
/// distance, unless hexes on the way count two or may not be flown over
/// (`movement.over`).
fn flight(
    land: &Battleland,
    moves: &MoveTable,
    from: From,
    points: usize,
    cap: usize,
) -> (HexSet, HexSet) {
    let board = &*land.board;
    let within = match from {
        From::Hex(h) => board.within(h),
        From::Edge(edge) => board.edge_within(edge),
        From::Area => return (0, 0),
    };
    let upto = |d: usize| within[d.min(cap).min(MAX_DISTANCE)];
    let less = if points >= 1 { upto(points - 1) } else { 0 };
    if moves.over_slow == 0 && moves.over_block == 0 {
        return (upto(points), less);
    }
    // The cheapest flight to each hex, each hex entered costing one or two;
    // a hex no flight passes (`over_block`) is never entered.
    let mut cost = [u8::MAX; MAX_HEXES];
    let mut todo: Vec<HexId> = Vec::new();
    let enter = |h: HexId| if moves.over_slow & bit(h) != 0 { 2 } else { 1 };
    match from {
        From::Hex(h) => {
            cost[h.0 as usize] = 0;
            todo.push(h);
        }
        From::Edge(edge) => {
            for h in hexes(board.edge(edge) & !moves.over_block) {
                cost[h.0 as usize] = enter(h);
                todo.push(h);
            }
        }
        From::Area => {}
    }
    while let Some(h) = todo.pop() {
        let c = cost[h.0 as usize];
        for t in hexes(board.within(h)[1] & !bit(h) & !moves.over_block) {
            let n = c.saturating_add(enter(t));
            if n < cost[t.0 as usize] {
                cost[t.0 as usize] = n;
                todo.push(t);
            }
        }
    }
    let (mut all, mut one_less) = (0, 0);
    for h in land.board.ids() {
        let c = usize::from(cost[h.0 as usize]);
        if c <= points {
            all |= bit(h);
        }
        if c < points {
            one_less |= bit(h);
        }
    }
    (all & upto(points), one_less & upto(points))
}

/// The hexes a native diving from a hex of a `movement.dive` hazard may
/// reach: a flight through hexes of that hazard only (over characters in
/// them, each hex one), landing in one of them by the landing rules (Gods of
/// Titan 12.6 and 12.7: natives "dive (i.e. fly) between Water hexes", DE
/// "innerhalb des Wassers").
fn dive(land: &Battleland, moves: &MoveTable, from: From, points: usize, cap: usize) -> HexSet {
    let From::Hex(h) = from else { return 0 };
    if moves.dive & bit(h) == 0 {
        return 0;
    }
    let hz = land.hex(h).hazard;
    let same = hexes(moves.dive)
        .filter(|&t| land.hex(t).hazard == hz)
        .fold(0, |m, t| m | bit(t));
    let board = &*land.board;
    let (mut seen, mut frontier) = (bit(h), bit(h));
    let (mut all, mut less) = (0, 0);
    for d in 1..=points.min(cap).min(MAX_DISTANCE) {
        let next = hexes(frontier).fold(0, |m, x| m | board.within(x)[1]) & same & !seen;
        seen |= next;
        frontier = next;
        all |= next;
        if d < points {
            less |= next;
        }
    }
    all & moves.landing[0] | less & moves.landing[1]
}

/// The hexes a walker with `points` of movement may end a move on, by the
/// number of hexes entered: `[k - 1]` holds those a legal walk of exactly
/// `k` hexes ends on, for `k` up to `max_steps` (entering counts its first
/// hex, Law of the Battlelands 26.D). A plain search by hexes entered, for
/// what the flood by movement left cannot say: a cap on the hexes entered
/// apart from the points (`ctx:set_unit(unit, "max_steps", n)`) and the
/// length of the shortest path (the `unit_moved` event's `steps`).
pub fn walk_by_steps(
    land: &Battleland,
    moves: &MoveTable,
    points: u8,
    from: From,
    occupied: HexSet,
    max_steps: usize,
) -> Vec<HexSet> {
    const COST: [i16; 4] = [1, 2, 1, 2];
    let free = !occupied & ALL_HEXES;
    let max_steps = max_steps.min(land.board.len());
    // `left[hex]`: the most points left after a walk of the current length
    // that ends on `hex` and may go on (-1: none).
    let mut left = [-1i16; MAX_HEXES];
    let mut out = Vec::with_capacity(max_steps);
    let mut first = true;
    match from {
        From::Area => {
            let area = land.defender_area.iter().fold(0, |m, &h| m | bit(h)) & free;
            return vec![area; max_steps.min(1)];
        }
        From::Hex(h) => left[h.0 as usize] = i16::from(points),
        From::Edge(_) => {}
    }
    for _ in 0..max_steps {
        let mut next = [-1i16; MAX_HEXES];
        let mut ends = 0;
        let mut step = |to_set: HexSet, kind: usize, have: i16| {
            if have < COST[kind] {
                return;
            }
            for t in hexes(to_set & free) {
                ends |= bit(t);
                if kind < 2 {
                    let l = &mut next[t.0 as usize];
                    *l = (*l).max(have - COST[kind]);
                }
            }
        };
        match from {
            From::Edge(edge) if first => {
                let edge_set = land.board.edge(edge);
                for (kind, &set) in moves.enter.iter().enumerate() {
                    step(set & edge_set, kind, i16::from(points));
                }
            }
            _ => {
                for h in land.board.ids() {
                    let have = left[h.0 as usize];
                    if have < 1 {
                        continue;
                    }
                    for (kind, &set) in moves.step[h.0 as usize].iter().enumerate() {
                        step(set, kind, have);
                    }
                }
            }
        }
        first = false;
        left = next;
        out.push(ends);
    }
    out
}

/// [`reach_set_with`] with at most `max_steps` hexes entered, whatever the
/// points left: a flyer lands within both.
pub fn reach_set_capped(
    land: &Battleland,
    moves: &MoveTable,
    points: u8,
    flies: bool,
    from: From,
    occupied: HexSet,
    max_steps: u8,
) -> HexSet {
    if from == From::Area {
        return reach_set_with(land, moves, points, flies, from, occupied);
    }
    let free = !occupied & ALL_HEXES;
    let start = match from {
        From::Hex(h) => bit(h),
        _ => 0,
    };
    let walked = walk_by_steps(land, moves, points, from, occupied, usize::from(max_steps))
        .into_iter()
        .fold(0, |m, s| m | s);
    let mut out = walked & !start;
    let (points, cap) = (usize::from(points), usize::from(max_steps));
    if flies {
        let (all, less) = flight(land, moves, from, points, cap);
        let mut land_on = all & moves.landing[0];
        if points >= 1 {
            land_on |= less & moves.landing[1];
        }
        out |= land_on & free & !start;
    }
    out | dive(land, moves, from, points, cap) & free & !start
}

/// The fewest hexes a move from `from` to `to` enters: the shortest legal
/// walk, or for a flyer the distance it flies when it may land there (the
/// first hex entered from an edge counts one).
pub fn steps_to(
    land: &Battleland,
    moves: &MoveTable,
    points: u8,
    flies: bool,
    from: From,
    occupied: HexSet,
    to: HexId,
) -> u32 {
    let flown = match from {
        From::Hex(h) => land.board.distance(h, to),
        From::Edge(edge) => {
            let within = land.board.edge_within(edge);
            (0..=MAX_DISTANCE)
                .find(|&d| within[d] & bit(to) != 0)
                .unwrap_or(MAX_DISTANCE) as u32
        }
        From::Area => return 0,
    };
    let walked = walk_by_steps(
        land,
        moves,
        points,
        from,
        occupied & !bit(to),
        usize::from(points),
    )
    .iter()
    .position(|s| s & bit(to) != 0)
    .map(|k| k as u32 + 1);
    match (flies, walked) {
        (true, Some(w)) => w.min(flown),
        (true, None) => flown,
        (false, Some(w)) => w,
        (false, None) => flown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Side;

    /// The reach by a plain search over hexes and movement left that reads
    /// the hazard data at every step: what the tables' flood must match.
    fn plain_reach(
        v: &Variant,
        land: &Battleland,
        ch: CharacterId,
        from: From,
        occ: &[bool; MAX_HEXES],
    ) -> Vec<HexId> {
        use crate::format::{Crossing, Move};
        let c = v.character(ch);
        let skill = i32::from(c.skill);
        let cost = |side: Option<Side>, to: HexId| -> Option<(i32, bool)> {
            let hz = land.hex(to).hazard;
            let mut moves = vec![v.hazard(hz).movement_for(false, c.natives.contains(hz))];
            if let Some(side) = side
                && let Some(hs) = land.hexside(to, side.opposite())
            {
                let h = v.hazard(hs.hazard);
                let applies = match h.movement.crossing {
                    Crossing::Up => hs.top,
                    Crossing::Down => !hs.top,
                    Crossing::Both => true,
                };
                if applies {
                    moves.push(h.movement_for(false, c.natives.contains(hs.hazard)));
                }
            }
            let (mut k, mut stop) = (1, false);
            for m in moves {
                match m {
                    Move::Free => {}
                    Move::Slow => k = 2,
                    Move::Block => return None,
                    Move::Stop => stop = true,
                }
            }
            Some((k, stop))
        };
        let mut best = [-1i32; MAX_HEXES];
        let start = match from {
            From::Hex(h) => {
                best[h.0 as usize] = skill;
                Some(h)
            }
            From::Edge(e) => {
                for h in land.board.edge_hexes(e) {
                    if !occ[h.0 as usize]
                        && let Some((k, stop)) = cost(None, h)
                        && k <= skill
                    {
                        best[h.0 as usize] = if stop { 0 } else { skill - k };
                    }
                }
                None
            }
            From::Area => unreachable!(),
        };
        loop {
            let mut changed = false;
            for h in land.board.ids() {
                let left = best[h.0 as usize];
                for side in Side::ALL {
                    let Some(n) = land.board.neighbour(h, side) else {
                        continue;
                    };
                    if left <= 0 || occ[n.0 as usize] {
                        continue;
                    }
                    if let Some((k, stop)) = cost(Some(side), n)
                        && k <= left
                    {
                        let r = if stop { 0 } else { left - k };
                        if r > best[n.0 as usize] {
                            best[n.0 as usize] = r;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut out = Vec::new();
        for t in land.board.ids() {
            if Some(t) == start {
                continue;
            }
            if best[t.0 as usize] >= 0 {
                out.push(t);
                continue;
            }
            if !c.flies || occ[t.0 as usize] {
                continue;
            }
            let steps = match from {
                From::Hex(h) => land.board.distance(h, t) as i32,
                From::Edge(e) => {
                    land.board
                        .edge_hexes(e)
                        .map(|x| land.board.distance(x, t))
                        .min()
                        .unwrap() as i32
                        + 1
                }
                From::Area => unreachable!(),
            };
            let hz = land.hex(t).hazard;
            let extra = match v.hazard(hz).movement_for(true, c.natives.contains(hz)) {
                Move::Block => continue,
                Move::Slow => 1,
                _ => 0,
            };
            if steps + extra <= skill {
                out.push(t);
            }
        }
        out
    }

    /// Reference sheet, "Maneuver Phase": the flood over the variant's
    /// tables reaches exactly the hexes a plain search over the hazard data
    /// does, for every character on every battleland, from every hex and
    /// edge, among other characters.
    #[test]
    fn reach_matches_a_plain_search() {
        let v = crate::titan_for_tests();
        let mut seed = 7u32;
        for land in &v.battlelands {
            for ch in (0..v.characters.len()).map(|i| CharacterId(i as u16)) {
                let n = land.board.len();
                for start in 0..n + 6 {
                    let mut occ = [false; MAX_HEXES];
                    for o in occ.iter_mut() {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        *o = (seed >> 16).is_multiple_of(5);
                    }
                    let from = if start < n {
                        occ[start] = true;
                        From::Hex(HexId(start as u8))
                    } else {
                        From::Edge(Edge::ALL[start - n])
                    };
                    assert_eq!(
                        reach(&v, land, ch, from, &occ),
                        plain_reach(&v, land, ch, from, &occ),
                        "{} from {from:?} on {:?}",
                        v.character(ch).name,
                        land.terrain
                    );
                }
            }
        }
    }

    /// The search by hexes entered agrees with the flood by points: with a
    /// cap no lower than the points it reaches the same hexes; with a lower
    /// cap, those of them within the cap's hexes entered; and the fewest
    /// hexes to any walked hex is at least its distance and at most the cap.
    #[test]
    fn the_search_by_steps_matches_the_flood() {
        let v = crate::titan_for_tests();
        let mut seed = 11u32;
        for land in &v.battlelands {
            let tables = v.battle_tables.land(land.terrain.index());
            for ch in (0..v.characters.len()).map(|i| CharacterId(i as u16)) {
                let c = v.character(ch);
                let moves = &tables.moves[v.battle_tables.move_class(ch)];
                let n = land.board.len();
                for start in 0..n + 6 {
                    let mut occ = 0;
                    for h in 0..n {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        if (seed >> 16).is_multiple_of(5) {
                            occ |= bit(HexId(h as u8));
                        }
                    }
                    let from = if start < n {
                        occ |= bit(HexId(start as u8));
                        From::Hex(HexId(start as u8))
                    } else {
                        From::Edge(Edge::ALL[start - n])
                    };
                    let full = reach_set_with(land, moves, c.skill, c.flies, from, occ);
                    let capped =
                        reach_set_capped(land, moves, c.skill, c.flies, from, occ, c.skill);
                    assert_eq!(full, capped, "{} from {from:?}", c.name);
                    let walks = walk_by_steps(land, moves, c.skill, from, occ, 2);
                    let within2 = walks[0] | walks[1];
                    let two = reach_set_capped(land, moves, c.skill, false, from, occ, 2);
                    let start_bit = if start < n {
                        bit(HexId(start as u8))
                    } else {
                        0
                    };
                    assert_eq!(two, within2 & !start_bit);
                    for t in hexes(reach_set_with(land, moves, c.skill, false, from, occ)) {
                        let n = steps_to(land, moves, c.skill, false, from, occ, t);
                        assert!(
                            n >= 1 && n <= u32::from(c.skill),
                            "{} to {}",
                            c.name,
                            land.board.label(t)
                        );
                        if let From::Hex(h) = from {
                            assert!(n >= land.board.distance(h, t));
                        }
                        let capped =
                            reach_set_capped(land, moves, c.skill, false, from, occ, n as u8);
                        assert!(capped & bit(t) != 0);
                        if n > 1 {
                            let less = reach_set_capped(
                                land,
                                moves,
                                c.skill,
                                false,
                                from,
                                occ,
                                n as u8 - 1,
                            );
                            assert!(less & bit(t) == 0, "{} to {}", c.name, land.board.label(t));
                        }
                    }
                }
            }
        }
    }
}
