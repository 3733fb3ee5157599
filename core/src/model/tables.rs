//! Per-battleland tables computed once per compiled variant (contact, the
//! cost of every step by nativity, the fixed part of every line of sight), so
//! the battle's hot paths index arrays and bitsets instead of walking hazard
//! data at each decision (see docs/battle.md, "Tables").

use crate::battleland::{Battleland, HexId, MAX_HEXES};
use crate::format::{At, Crossing, Move, Side, Who};
use crate::model::{Effect, HazardId, HazardSet, Variant};

use super::sight;

pub use crate::battleland::hexset::{ALL_HEXES, HexSet, bit, hexes, nth_hex};

/// Set in a [`LandTables::sight`] entry when hazards or higher ground block
/// the line whoever stands on it.
pub const BLOCKED: u32 = 1 << 31;

/// Set in a [`LandTables::sight`] entry when no hex of the line (ends
/// included) nor any hexside of one has a hazard that changes a
/// rangestrike (`Rangestrike`, `RangestrikeThrough`): its parameters are
/// then the chart's and the range's alone.
pub const CALM: u32 = 1 << 30;

/// The tables of every battleland of a variant.
#[derive(Clone, Default)]
pub struct BattleTables {
    /// By character: its movement class, the index of its natives in
    /// [`LandTables::moves`] (characters native to the same hazards move
    /// alike).
    move_class: Vec<u8>,
    /// By character: the strikes it has each strike phase (its
    /// rangestrike's `strikes`, at least one).
    strikes: Vec<u8>,
    /// By terrain.
    lands: Vec<LandTables>,
    /// The natives of each movement class (to compute a changed
    /// battleland's tables, `ctx:set_hazard`).
    classes: Vec<HazardSet>,
}

/// Too big to print, and derived from what `Variant` prints already.
impl std::fmt::Debug for BattleTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BattleTables").finish_non_exhaustive()
    }
}

/// A hazard's `Strike` effect on a strike between two given hexes (where it
/// applies: [`LandTables::strike_fx`]).
#[derive(Clone, Copy, Debug)]
pub struct StrikeFx {
    pub hazard: HazardId,
    pub striker: Who,
    pub target: Who,
    pub skill: i8,
    pub dice: i8,
}

/// One battleland's tables.
#[derive(Clone)]
pub struct LandTables {
    /// `contact[hex]`: the hexes whose characters are in contact with one on
    /// `hex` (neighbours not across a `NoContact` hexside; Law of the
    /// Battlelands 26.C, footnote on cliffs).
    pub contact: [HexSet; MAX_HEXES],
    /// By movement class.
    pub moves: Vec<MoveTable>,
    /// The hexes whose hazard, or a hexside hazard on one of whose sides,
    /// has a `Hook` effect (Lua decides their damage).
    pub hooked: HexSet,
    /// The hexes where some movement class takes hazard damage at the end
    /// of a strike phase ([`MoveTable::damage`]).
    pub hurts: HexSet,
    /// The hexes whose hazard keeps some characters standing in them out of
    /// contact (`NoContactIn`): contact then depends on who stands there.
    pub aloof: HexSet,
    /// The hazard effects that may change a normal strike, by pair of
    /// hexes ([`LandTables::strike_fx`]).
    strike_fx: Vec<StrikeFx>,
    /// `strike_fx[strike_at[i]..strike_at[i + 1]]` for the strike from `a`
    /// at `b`, `i = a * MAX_HEXES + b`.
    strike_at: Vec<u16>,
    /// Whether a hazard of this battleland blocks sight for some
    /// rangestrikers only (`BlocksSight(For(..))`): not in [`Self::sight`],
    /// checked per rangestriker.
    pub sight_by_who: bool,
    /// `sight[a * MAX_HEXES + b]`, one per reading of the line from `a` to
    /// `b` (the second repeats the first where there is one): the hexes
    /// between the ends where a character blocks the line (those not lower
    /// than both ends), with [`BLOCKED`] set when hazards or higher ground
    /// block it anyway. The line is open when neither applies.
    pub sight: Vec<[u32; 2]>,
}

/// How one movement class walks a battleland.
#[derive(Clone)]
pub struct MoveTable {
    /// `step[hex][kind]`: the neighbours of `hex` a walker may step into, by
    /// kind of step: 0 costs one, 1 costs two, 2 costs one and stops, 3 costs
    /// two and stops.
    pub step: [[HexSet; 4]; MAX_HEXES],
    /// The same for the first hex entered from off the battleland (only the
    /// hex's hazard counts: no hexside is crossed).
    pub enter: [HexSet; 4],
    /// Where a flyer may land: 0 at no extra cost, 1 counting one more
    /// (a hex that slows its landing); the rest block landing.
    pub landing: [HexSet; 2],
    /// The hexes a flyer's flight over counts as two (`movement.over`).
    pub over_slow: HexSet,
    /// The hexes no flight may pass over or land in (`movement.over: Block`).
    pub over_block: HexSet,
    /// The hexes of hazards this class dives between (`movement.dive`).
    pub dive: HexSet,
    /// The hazard damage a character takes in each hex at the end of a
    /// strike phase from the `Damage` effects (a hex whose hazard has a hook
    /// is in [`LandTables::hooked`] and read from the data instead).
    pub damage: [u8; MAX_HEXES],
    /// `steps[c][m]`: the union of `step` over the hexes of chunk `c` (hexes
    /// `7c` to `7c + 6`) whose bits are set in `m`, so that a flood steps
    /// from a whole set of hexes in four look-ups, with no loop over its
    /// hexes whose length a predictor cannot guess ([`MoveTable::steps_from`]).
    steps: Box<[[[HexSet; 4]; 1 << CHUNK]; CHUNKS]>,
}

/// Hexes per chunk of [`MoveTable::steps_from`]'s look-up.
const CHUNK: usize = 7;
/// Chunks covering every hex.
const CHUNKS: usize = MAX_HEXES.div_ceil(CHUNK);

impl MoveTable {
    /// The union of [`MoveTable::step`] over the hexes of `from`, by kind.
    #[inline]
    pub fn steps_from(&self, from: HexSet) -> [HexSet; 4] {
        let mut out = [0; 4];
        for (c, chunk) in self.steps.iter().enumerate() {
            let m = &chunk[((from >> (c * CHUNK)) as usize) & ((1 << CHUNK) - 1)];
            for k in 0..4 {
                out[k] |= m[k];
            }
        }
        out
    }

    fn chunked(step: &[[HexSet; 4]; MAX_HEXES]) -> Box<[[[HexSet; 4]; 1 << CHUNK]; CHUNKS]> {
        let mut steps = Box::new([[[0; 4]; 1 << CHUNK]; CHUNKS]);
        for (c, chunk) in steps.iter_mut().enumerate() {
            // Each set is its lowest hex's steps added to the set without it.
            for m in 1..1 << CHUNK {
                let h = c * CHUNK + (m as u32).trailing_zeros() as usize;
                let rest = chunk[m & (m - 1)];
                let own = step.get(h).copied().unwrap_or_default();
                for k in 0..4 {
                    chunk[m][k] = rest[k] | own[k];
                }
            }
        }
        steps
    }
}

impl BattleTables {
    /// Computes the tables of every battleland of `variant`.
    pub fn new(variant: &Variant) -> BattleTables {
        let mut classes: Vec<HazardSet> = Vec::new();
        let move_class = variant
            .characters
            .iter()
            .map(|c| match classes.iter().position(|&n| n == c.natives) {
                Some(i) => i as u8,
                None => {
                    classes.push(c.natives);
                    (classes.len() - 1) as u8
                }
            })
            .collect();
        let strikes = variant
            .characters
            .iter()
            .map(|c| c.rangestrike.as_ref().map_or(1, |r| r.strikes.max(1)))
            .collect();
        let lands = variant
            .battlelands
            .iter()
            .map(|land| LandTables::new(variant, land, &classes))
            .collect();
        BattleTables {
            move_class,
            strikes,
            lands,
            classes,
        }
    }

    /// The tables of a battleland a battle changed (a script's temporary
    /// hazards): computed per such battle, never on the common path.
    pub fn for_land(&self, variant: &Variant, land: &Battleland) -> LandTables {
        LandTables::new(variant, land, &self.classes)
    }

    /// Puts `tables` in place of the battleland's of terrain `index` (a
    /// game's drawn battleland, [`Variant::with_drawn`]).
    pub fn set_land(&mut self, index: usize, tables: LandTables) {
        if let Some(slot) = self.lands.get_mut(index) {
            *slot = tables;
        }
    }

    /// The movement class of characters native to `natives`, if any
    /// character of the variant is.
    pub fn class_of(&self, natives: HazardSet) -> Option<usize> {
        self.classes.iter().position(|&n| n == natives)
    }

    /// The tables of the battleland at `index` (its terrain's).
    pub fn land(&self, index: usize) -> &LandTables {
        &self.lands[index]
    }

    /// The strikes a character has each strike phase.
    #[inline]
    pub fn strikes(&self, character: crate::model::CharacterId) -> u8 {
        self.strikes.get(character.index()).copied().unwrap_or(1)
    }

    /// The movement class of a character.
    pub fn move_class(&self, character: crate::model::CharacterId) -> usize {
        self.move_class[character.index()] as usize
    }
}

impl LandTables {
    fn new(variant: &Variant, land: &Battleland, classes: &[HazardSet]) -> LandTables {
        let mut no_contact = HazardSet::default();
        for (i, h) in variant.hazards.iter().enumerate() {
            if h.effects.iter().any(|e| matches!(e, Effect::NoContact)) {
                no_contact.insert(crate::model::HazardId(i as _));
            }
        }
        let mut contact = [0; MAX_HEXES];
        for id in land.board.ids() {
            let hex = land.hex(id);
            for i in 0..6 {
                let Some(n) = hex.neighbours[i] else { continue };
                if !hex.sides[i].is_some_and(|hs| no_contact.contains(hs.hazard)) {
                    contact[id.0 as usize] |= bit(n);
                }
            }
        }
        let moves: Vec<MoveTable> = classes
            .iter()
            .map(|&natives| MoveTable::new(variant, land, natives))
            .collect();
        let hooked = land
            .board
            .ids()
            .filter(|&h| {
                // The hex's hazard, or a hexside hazard on one of its sides
                // (those hooks are called for the hexes on both sides).
                let hooks = |hz| {
                    variant
                        .hazard(hz)
                        .effects
                        .iter()
                        .any(|e| matches!(e, Effect::Hook(_)))
                };
                hooks(land.hex(h).hazard)
                    || land.hex(h).sides.iter().flatten().any(|s| hooks(s.hazard))
            })
            .fold(0, |m, h| m | bit(h));
        // The `Strike` effects `strike::hazard_changes` would look at, in
        // its order: the striker's hex, the target's, the hexside crossed.
        // By pairs of any ids below MAX_HEXES, so the look-up needs no
        // board; pairs off the board have none.
        let board = &*land.board;
        let every = || (0..MAX_HEXES as u8).map(HexId);
        let (mut strike_fx, mut strike_at) = (Vec::new(), vec![0u16]);
        for a in every() {
            for b in every() {
                if !board.has(a) || !board.has(b) {
                    strike_at.push(u16::try_from(strike_fx.len()).expect("few strike effects"));
                    continue;
                }
                let mut push = |hz: HazardId, place: At| {
                    for e in &variant.hazard(hz).effects {
                        if let Effect::Strike {
                            at,
                            striker,
                            target,
                            skill,
                            dice,
                        } = *e
                            && at == place
                        {
                            strike_fx.push(StrikeFx {
                                hazard: hz,
                                striker,
                                target,
                                skill,
                                dice,
                            });
                        }
                    }
                };
                push(land.hex(a).hazard, At::StrikerIn);
                push(land.hex(b).hazard, At::TargetIn);
                if let Some(side) = land.board.side_between(a, b)
                    && let Some(hs) = land.hexside(a, side)
                {
                    let place = if hs.top {
                        At::StrikingDown
                    } else {
                        At::StrikingUp
                    };
                    push(hs.hazard, place);
                }
                strike_at.push(u16::try_from(strike_fx.len()).expect("few strike effects"));
            }
        }
        // The hexes whose hazard and hexside hazards change no rangestrike.
        let range_calm = land
            .board
            .ids()
            .filter(|&h| {
                let calm = |hz| {
                    !variant.hazard(hz).effects.iter().any(|e| {
                        matches!(
                            e,
                            Effect::Rangestrike { .. } | Effect::RangestrikeThrough { .. }
                        )
                    })
                };
                calm(land.hex(h).hazard)
                    && land.hex(h).sides.iter().flatten().all(|s| calm(s.hazard))
            })
            .fold(0, |m, h| m | bit(h));
        let mut sight = Vec::with_capacity(MAX_HEXES * MAX_HEXES);
        for a in every() {
            for b in every() {
                if !board.has(a) || !board.has(b) {
                    sight.push([BLOCKED; 2]);
                    continue;
                }
                let (first, second) = board.lines_between(a, b);
                let mask = |path: &[HexId]| -> u32 {
                    if path.len() < 3 {
                        return 0;
                    }
                    let (ef, et) = (land.hex(a).elevation, land.hex(b).elevation);
                    let mut m = 0;
                    for &h in &path[1..path.len() - 1] {
                        let e = land.hex(h).elevation;
                        // Reference sheet, "Rangestriking": a character
                        // blocks unless it stands lower than both ends.
                        if !(e < ef && e < et) {
                            m |= bit(h);
                        }
                    }
                    if sight::blocker(variant, land, path, &|_| false).is_some() {
                        m |= BLOCKED;
                    }
                    m
                };
                let calm = |m: u32, path: &[HexId]| {
                    if path.iter().all(|&h| range_calm & bit(h) != 0) {
                        m | CALM
                    } else {
                        m
                    }
                };
                let m0 = calm(mask(first), first);
                sight.push([m0, second.map_or(m0, |p| calm(mask(p), p))]);
            }
        }
        let aloof = land
            .board
            .ids()
            .filter(|&h| {
                variant
                    .hazard(land.hex(h).hazard)
                    .effects
                    .iter()
                    .any(|e| matches!(e, Effect::NoContactIn(_)))
            })
            .fold(0, |m, h| m | bit(h));
        let by_who = |hz| {
            variant
                .hazard(hz)
                .effects
                .iter()
                .any(|e| matches!(e, Effect::BlocksSight(crate::format::Sight::For(_))))
        };
        let sight_by_who = land.board.ids().any(|h| {
            by_who(land.hex(h).hazard)
                || land.hex(h).sides.iter().flatten().any(|s| by_who(s.hazard))
        });
        let hurts = moves.iter().fold(0, |m, t| {
            land.board
                .ids()
                .filter(|h| t.damage[h.0 as usize] > 0)
                .fold(m, |m, h| m | bit(h))
        });
        LandTables {
            contact,
            moves,
            hooked,
            hurts,
            aloof,
            strike_fx,
            strike_at,
            sight_by_who,
            sight,
        }
    }

    /// The hazard effects that may change a normal strike from `a` at `b`
    /// (whether they do depends on who is native to their hazard), in the
    /// order the hazards are read; `None` for a hex off the battleland.
    #[inline]
    pub fn strike_fx(&self, a: HexId, b: HexId) -> Option<&[StrikeFx]> {
        if usize::from(a.0) >= MAX_HEXES || usize::from(b.0) >= MAX_HEXES {
            return None;
        }
        let i = usize::from(a.0) * MAX_HEXES + usize::from(b.0);
        let (from, to) = (self.strike_at[i], self.strike_at[i + 1]);
        self.strike_fx.get(usize::from(from)..usize::from(to))
    }

    /// The sight entry of the line from `a` to `b`.
    pub fn sight(&self, a: HexId, b: HexId) -> [u32; 2] {
        self.sight[a.0 as usize * MAX_HEXES + b.0 as usize]
    }
}

/// The kind of a step ([`MoveTable::step`]) from its two movement effects,
/// or `None` if it is forbidden.
fn kind(effects: [Move; 2]) -> Option<usize> {
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
    Some(match (cost, stop) {
        (1, false) => 0,
        (_, false) => 1,
        (1, true) => 2,
        _ => 3,
    })
}

impl MoveTable {
    /// How characters native to `natives` walk `land` (also for a unit whose
    /// natives a script changed, `ctx:set_unit`).
    pub fn new(variant: &Variant, land: &Battleland, natives: HazardSet) -> MoveTable {
        // Hazards act on the hex entered and the hexside crossed, never on
        // the hex left (reference sheet, "Maneuver Phase").
        let hex_effect = |to: HexId| {
            let hz = land.hex(to).hazard;
            variant.hazard(hz).movement_for(false, natives.contains(hz))
        };
        let mut step = [[0; 4]; MAX_HEXES];
        let mut enter = [0; 4];
        let mut landing = [0; 2];
        let mut damage = [0; MAX_HEXES];
        let (mut over_slow, mut over_block, mut dive) = (0, 0, 0);
        for to in land.board.ids() {
            let hz = land.hex(to).hazard;
            let m = variant.hazard(hz).movement;
            let native = natives.contains(hz);
            match if native {
                m.over.natives
            } else {
                m.over.others
            } {
                Move::Slow => over_slow |= bit(to),
                Move::Block => over_block |= bit(to),
                _ => {}
            }
            if m.dive && native {
                dive |= bit(to);
            }
            let hits: u32 = variant
                .hazard(hz)
                .effects
                .iter()
                .map(|e| match e {
                    Effect::Damage { who, hits } if who.applies(natives.contains(hz)) => {
                        u32::from(*hits)
                    }
                    _ => 0,
                })
                .sum();
            damage[to.0 as usize] = hits.min(255) as u8;
            if let Some(k) = kind([hex_effect(to), Move::Free]) {
                enter[k] |= bit(to);
            }
            let hz = land.hex(to).hazard;
            match variant.hazard(hz).movement_for(true, natives.contains(hz)) {
                Move::Block => {}
                Move::Slow => landing[1] |= bit(to),
                _ => landing[0] |= bit(to),
            }
        }
        for from in land.board.ids() {
            for (i, n) in land.hex(from).neighbours.iter().enumerate() {
                let Some(to) = *n else { continue };
                let mut effect = [hex_effect(to), Move::Free];
                let side = Side::from_index(i);
                if let Some(hs) = land.hexside(to, side.opposite()) {
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
                if let Some(k) = kind(effect) {
                    step[from.0 as usize][k] |= bit(to);
                }
            }
        }
        MoveTable {
            steps: MoveTable::chunked(&step),
            step,
            enter,
            landing,
            over_slow,
            over_block,
            dive,
            damage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nth_hex` finds what walking the set finds, for every position.
    #[test]
    fn nth_hex_is_the_walks() {
        let mut x = 0x9e37_79b9u32;
        for round in 0..20_000 {
            // Sparse, dense, edge and random sets of 27 hexes.
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let set = match round {
                0 => ALL_HEXES,
                1 => 1,
                2 => 1 << (MAX_HEXES - 1),
                _ => x & ALL_HEXES & if round % 3 == 0 { x >> 7 } else { !0 },
            };
            for (k, h) in hexes(set).enumerate() {
                assert_eq!(nth_hex(set, k as u32), h.0, "set {set:#x}, k {k}");
            }
        }
    }

    /// An id past any board's hexes is in no set.
    #[test]
    fn ids_off_every_board_are_in_no_set() {
        assert_eq!(bit(HexId(0)), 1);
        assert_eq!(bit(HexId(26)), 1 << 26);
        for id in [MAX_HEXES as u8, 31, 32, 200, 255] {
            assert_eq!(bit(HexId(id)), 0);
        }
        assert_eq!(hexes(ALL_HEXES).count(), MAX_HEXES);
    }
}
