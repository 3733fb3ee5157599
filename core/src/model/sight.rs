//! Lines of sight on a battleland: what blocks one (a character, a
//! hazard, a hexside, higher ground, a crossed hazard), by the variant's
//! hazard effects. The tables ([`super::tables`]) keep the part of every
//! line that depends on the land alone; these functions give the reason.

use crate::battleland::{Battleland, HexId};
use crate::format::{Atop, Side, Sight};

use super::{Effect, HazardId, HazardSet, Variant};

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
    /// A `SightCrossed` hazard crossed this many times, and what its rule
    /// needs of the ends then (`None`: never so many).
    Crossed(HazardId, u8, Option<Atop>),
    /// An end at the foot of the `SightCrossed` hazard the other end stands
    /// atop: (hazard, the end atop, the end at its foot).
    Foot(HazardId, HexId, HexId),
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
            Blocker::Crossed(hz, n, need) => {
                let name = &variant.hazard(hz).name;
                let times = if n == 1 { "once" } else { "times" };
                let count = if n == 1 {
                    String::new()
                } else {
                    format!("{n} ")
                };
                match need {
                    None => format!("the line crosses a {name} {count}{times}, more than it may"),
                    Some(Atop::Both) => format!(
                        "the line crosses a {name} {count}{times}: both ends must stand atop one"
                    ),
                    Some(_) => format!(
                        "the line crosses a {name} {count}{times}: an end must stand atop one"
                    ),
                }
            }
            Blocker::Foot(hz, top, foot) => format!(
                "{} stands at the foot of the {} that {} stands atop",
                foot.label(),
                variant.hazard(hz).name,
                top.label()
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
            .any(|e| matches!(e, Effect::BlocksSight(s) if !matches!(s, Sight::For(_))))
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
        let Some(side) = land.board.side_between(p, q) else {
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
            // Whose line it is: [`blocker_for`].
            Sight::For(_) => false,
        };
        if blocks {
            return Some(Blocker::Hexside(hz, p, q));
        }
    }
    crossed_blocker(variant, land, path)
}

/// The `SightCrossed` rules of the hexside hazards a line crosses, all
/// together (Gods of Titan 12.7, Dune, Cliff, Slope: one or two of a kind,
/// and a cliff with slopes or dunes), or what breaks one.
fn crossed_blocker(variant: &Variant, land: &Battleland, path: &[HexId]) -> Option<Blocker> {
    let (from, to) = (path[0], path[path.len() - 1]);
    let rule = |hz: HazardId| {
        variant.hazard(hz).effects.iter().find_map(|e| match e {
            Effect::SightCrossed {
                atop,
                not_at_foot,
                waived_by,
            } => Some((atop, *not_at_foot, *waived_by)),
            _ => None,
        })
    };
    // The hexsides of such hazards crossed: (low side, top side, hazard).
    let mut crossed: Vec<(HexId, HexId, HazardId)> = Vec::new();
    let mut kinds = HazardSet::default();
    for pair in path.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        if let Some(side) = land.board.side_between(p, q)
            && let Some(hs) = land.hexside(p, side)
            && rule(hs.hazard).is_some()
        {
            let (low, top) = if hs.top { (q, p) } else { (p, q) };
            crossed.push((low, top, hs.hazard));
            kinds.insert(hs.hazard);
        }
    }
    for (i, &(_, _, hz)) in crossed.iter().enumerate() {
        if crossed[..i].iter().any(|c| c.2 == hz) {
            continue;
        }
        let Some((atop, not_at_foot, waived_by)) = rule(hz) else {
            continue;
        };
        if kinds.0 & waived_by.0 != 0 {
            continue;
        }
        let mine = || crossed.iter().filter(|c| c.2 == hz);
        let n = mine().count();
        let on = |end: HexId| mine().any(|c| c.1 == end);
        let need = atop.get(n - 1).copied();
        let clear = match need {
            None => false,
            Some(Atop::Neither) => true,
            Some(Atop::One) => on(from) || on(to),
            Some(Atop::Both) => on(from) && on(to),
        };
        if !clear {
            return Some(Blocker::Crossed(hz, n.min(255) as u8, need));
        }
        if not_at_foot {
            for &(low, top, _) in mine() {
                let other = if top == from {
                    to
                } else if top == to {
                    from
                } else {
                    continue;
                };
                if foot_of(land, hz, low, top).contains(&other) {
                    return Some(Blocker::Foot(hz, top, other));
                }
            }
        }
    }
    None
}

/// The hexes at the foot of the run of `hz` hexsides that holds the one
/// between `low` and `top`: the low sides of every `hz` hexside joined to it
/// corner to corner (two hexsides share a corner when they share a hex and
/// their other hexes are neighbours).
fn foot_of(land: &Battleland, hz: HazardId, low: HexId, top: HexId) -> Vec<HexId> {
    // Every hexside of the hazard once: (low side, top side).
    let mut all: Vec<(HexId, HexId)> = Vec::new();
    for h in land.board.ids() {
        for (i, n) in land.hex(h).neighbours.iter().enumerate() {
            if let Some(n) = *n
                && let Some(hs) = land.hexside(h, Side::from_index(i))
                && hs.hazard == hz
                && hs.top
            {
                all.push((n, h));
            }
        }
    }
    let joined = |a: (HexId, HexId), b: (HexId, HexId)| {
        let (x, y) = a;
        let shared = [b.0, b.1].into_iter().filter(|&h| h == x || h == y).count();
        if shared != 1 {
            return false;
        }
        let other_a = if b.0 == x || b.1 == x { y } else { x };
        let other_b = if b.0 == x || b.0 == y { b.1 } else { b.0 };
        land.board.distance(other_a, other_b) == 1
    };
    let mut run = vec![(low, top)];
    let mut i = 0;
    while i < run.len() {
        let e = run[i];
        for &f in &all {
            if !run.contains(&f) && joined(e, f) {
                run.push(f);
            }
        }
        i += 1;
    }
    run.into_iter().map(|(low, _)| low).collect()
}

/// What blocks the line of sight of a rangestriker native to `natives` and
/// no one else: the hazards whose `BlocksSight(For(who))` concerns it, in a
/// hex between the ends or on a hexside the line crosses ([`blocker`] says
/// the rest).
pub fn blocker_for(
    variant: &Variant,
    land: &Battleland,
    path: &[HexId],
    natives: crate::model::HazardSet,
) -> Option<Blocker> {
    let concerns = |hz: HazardId| {
        variant.hazard(hz).effects.iter().any(|e| {
            matches!(e, Effect::BlocksSight(Sight::For(who))
                if who.applies(natives.contains(hz)))
        })
    };
    for &h in &path[1..path.len().saturating_sub(1)] {
        if concerns(land.hex(h).hazard) {
            return Some(Blocker::Hazard(land.hex(h).hazard, h));
        }
    }
    for pair in path.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        if let Some(side) = land.board.side_between(p, q)
            && let Some(hs) = land.hexside(p, side)
            && concerns(hs.hazard)
        {
            return Some(Blocker::Hexside(hs.hazard, p, q));
        }
    }
    None
}
