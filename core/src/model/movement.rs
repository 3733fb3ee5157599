//! Movement on the masterboard: following the signs, and teleports.
//!
//! This is a hot path (every legal-move query of every legion), so it works
//! on a compact table of exits built once per variant ([`Exits`]) and a
//! per-land occupancy array, with no allocation but the result (none at all
//! for the callers that keep a list, [`Exits::moves_into`], or only ask
//! whether a move exists).

use crate::format::Sign;
use crate::ids::CharacterId;
use crate::model::{LandId, Variant};

/// What stands in each land as `player` sees it for a move, from where
/// each legion stands and whose it is, into `occ` (indexed by land, `n`
/// lands) with `owners` as scratch. Under a treaty
/// (`rules.movement.treaty_turns`) the caller leaves out other players'
/// legions: they are passed and stood beside.
pub fn occupancy_into(
    legions: impl Iterator<Item = (LandId, crate::ids::PlayerId)>,
    player: crate::ids::PlayerId,
    n: usize,
    occ: &mut Vec<Occupancy>,
    owners: &mut Vec<u16>,
) {
    // Filled, not rebuilt: a memset.
    occ.resize(n, Occupancy::Empty);
    occ.fill(Occupancy::Empty);
    owners.resize(n, 0);
    owners.fill(0);
    for (land, who) in legions {
        let i = land.index();
        let owner = u16::from(who.0) + 1;
        occ[i] = match occ[i] {
            Occupancy::Empty if who == player => Occupancy::Friendly,
            Occupancy::Empty => Occupancy::Enemy,
            _ if owners[i] != owner => Occupancy::Engaged,
            o => o,
        };
        owners[i] = owner;
    }
}

/// What stands in a land, as seen by the moving player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Occupancy {
    #[default]
    Empty,
    /// One of the mover's legions: it may be passed, not ended on.
    Friendly,
    /// Another player's legion: entering it ends the move (an engagement).
    Enemy,
    /// An engagement already made this turn: no entering or crossing
    /// (reference sheet, "Movement").
    Engaged,
    /// Closed to the moving legion (`rules.movement.keep_out`): no entering
    /// or crossing, whoever stands there.
    Closed,
}

/// A place a move can end, and the land it was entered from (which fixes the
/// battleland side the attacker enters by).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveTarget {
    pub land: LandId,
    pub entered_from: LandId,
}

/// By character: whether it has one of `words` (its name, its class's name,
/// or one of its abilities).
fn has_words(variant: &Variant, words: &[String]) -> Vec<bool> {
    variant
        .characters
        .iter()
        .map(|c| {
            words.iter().any(|w| {
                *w == c.name
                    || *w == variant.classes[c.class.index()].name
                    || c.abilities.iter().any(|h| variant.hooks[h.index()] == *w)
            })
        })
        .collect()
}

/// One `rules.movement.keep_out` rule over the variant's indices.
#[derive(Debug, Clone)]
struct KeepOutRule {
    /// By land: closed by the rule.
    lands: Vec<bool>,
    /// By character: has a word of `having`, of `lacking`, of
    /// `unless_legion_has`.
    having: Vec<bool>,
    lacking: Vec<bool>,
    unless: Vec<bool>,
}

impl KeepOutRule {
    fn new(variant: &Variant, k: &crate::format::KeepOut) -> KeepOutRule {
        let board = &variant.board;
        let lands = board
            .lands()
            .map(|l| {
                let name = &variant.terrains[board.land(l).terrain.index()].name;
                if k.terrains.is_empty() {
                    !k.except_terrains.contains(name)
                } else {
                    k.terrains.contains(name)
                }
            })
            .collect();
        let has = |words: &[String]| has_words(variant, words);
        KeepOutRule {
            lands,
            having: has(&k.having),
            lacking: if k.lacking.is_empty() {
                Vec::new()
            } else {
                has(&k.lacking)
            },
            unless: has(&k.unless_legion_has),
        }
    }

    /// Whether the rule keeps a legion of `characters` out.
    fn applies(&self, characters: &[CharacterId]) -> bool {
        let kept = characters.iter().any(|c| {
            self.having[c.index()] || (!self.lacking.is_empty() && !self.lacking[c.index()])
        });
        kept && !characters.iter().any(|c| self.unless[c.index()])
    }
}

/// Every land's exits, by land index, with the sign kinds pre-sorted.
#[derive(Debug, Clone)]
pub struct Exits {
    lands: Vec<LandExits>,
    tower: Vec<bool>,
    /// Shared lands: passed and ended on whoever stands there.
    shared: Vec<bool>,
    /// Passages: never an end; left by their gates only.
    passage: Vec<bool>,
    /// `rules.movement.keep_out`, compiled.
    keep_out: Vec<KeepOutRule>,
    /// By character: has a word of `rules.movement.truce`.
    truce: Vec<bool>,
    /// Neighbours whatever the signs, both directions (for tower teleport).
    adjacent: Vec<Vec<u32>>,
    /// By tower land, where the variant's tower teleport may go from it
    /// whatever stands there: the other towers and the lands within its
    /// range, sorted (listed at every roll that allows it).
    tower_targets: Vec<Vec<LandId>>,
}

#[derive(Debug, Clone, Default)]
struct LandExits {
    block: Vec<u32>,
    arch: Vec<u32>,
    arrow: Vec<u32>,
    triple: Vec<u32>,
    /// Gates: free, one-way passages to lands the move goes on from as
    /// from its start ([`Sign::Gate`]).
    gate: Vec<u32>,
    /// [`Exits::starting`] and [`Exits::continuing`], listed once.
    start: Vec<u32>,
    next: Vec<u32>,
}

impl Exits {
    /// Builds the table from a compiled variant.
    pub fn new(variant: &Variant) -> Exits {
        let board = &variant.board;
        let n = board.land_count();
        let mut lands = vec![LandExits::default(); n];
        let mut adjacent = vec![Vec::new(); n];
        for land in board.lands() {
            let i = land.index();
            for (sign, to) in board.exits(land) {
                let t = to.index() as u32;
                match sign {
                    Sign::Block => lands[i].block.push(t),
                    Sign::Arch => lands[i].arch.push(t),
                    Sign::Arrow => lands[i].arrow.push(t),
                    Sign::TripleArrow => lands[i].triple.push(t),
                    Sign::Gate => lands[i].gate.push(t),
                }
                for (a, b) in [(i, t as usize), (t as usize, i)] {
                    if !adjacent[a].contains(&(b as u32)) {
                        adjacent[a].push(b as u32);
                    }
                }
            }
        }
        for (l, ex) in lands.iter_mut().enumerate() {
            for v in [
                &mut ex.block,
                &mut ex.arch,
                &mut ex.arrow,
                &mut ex.triple,
                &mut ex.gate,
            ] {
                // Petgraph lists edges newest first; keep a stable order.
                v.sort_by_key(|&t| board.land(LandId::new(t as usize)).number);
            }
            adjacent[l].sort_unstable();
        }
        let tower: Vec<bool> = board
            .lands()
            .map(|l| variant.terrains[board.land(l).terrain.index()].tower)
            .collect();
        for (ex, &tower) in lands.iter_mut().zip(&tower) {
            // A block must be followed; otherwise any arch or triple arrow,
            // and from a tower any arrow.
            ex.start = if !ex.block.is_empty() {
                ex.block.clone()
            } else if tower {
                [&ex.arch[..], &ex.triple, &ex.arrow].concat()
            } else {
                [&ex.arch[..], &ex.triple].concat()
            };
            // A triple arrow must be followed; otherwise any single arrow.
            ex.next = if ex.triple.is_empty() {
                ex.arrow.clone()
            } else {
                ex.triple.clone()
            };
        }
        let shared = board.lands().map(|l| variant.is_shared(l)).collect();
        let passage = board.lands().map(|l| board.land(l).passage).collect();
        let keep_out = variant
            .rules
            .movement
            .keep_out
            .iter()
            .map(|k| KeepOutRule::new(variant, k))
            .collect();
        let truce = has_words(variant, &variant.rules.movement.truce);
        let mut exits = Exits {
            lands,
            tower,
            shared,
            passage,
            keep_out,
            truce,
            adjacent,
            tower_targets: Vec::new(),
        };
        if let Some(tt) = &variant.rules.movement.tower_teleport {
            exits.tower_targets = board
                .lands()
                .map(|from| {
                    if !exits.is_tower(from) {
                        return Vec::new();
                    }
                    let mut targets: Vec<LandId> = board
                        .lands()
                        .filter(|&l| exits.is_tower(l) && l != from)
                        .collect();
                    targets.extend(exits.within(from, tt.range));
                    targets.sort_unstable();
                    targets.dedup();
                    targets
                })
                .collect();
        }
        exits
    }

    /// Where the variant's tower teleport may go from `land` (a tower)
    /// whatever stands there: the other towers and the lands within its
    /// range, sorted; nothing from another land.
    pub fn tower_targets(&self, land: LandId) -> &[LandId] {
        self.tower_targets
            .get(land.index())
            .map_or(&[], Vec::as_slice)
    }

    pub fn is_tower(&self, land: LandId) -> bool {
        self.tower[land.index()]
    }

    /// Where a legion starting on `land` may begin its move (reference sheet,
    /// "Movement Signs"): a block must be followed; otherwise any arch or
    /// triple arrow, and from a tower any arrow.
    fn starting(&self, land: usize) -> &[u32] {
        &self.lands[land].start
    }

    /// Where a legion passing through `land` may go on: a triple arrow must
    /// be followed; otherwise any single arrow.
    fn continuing(&self, land: usize) -> &[u32] {
        &self.lands[land].next
    }

    /// Every place a legion on `start` can end a move of exactly `roll` lands
    /// (or fewer, on entering an enemy), given what stands where.
    ///
    /// `occupancy` is indexed by land. A land may appear with several
    /// `entered_from` lands; the result is sorted and has no duplicates.
    pub fn moves(&self, start: LandId, roll: u8, occupancy: &[Occupancy]) -> Vec<MoveTarget> {
        let mut out = Vec::new();
        self.moves_into(start, roll, occupancy, &mut out);
        out
    }

    /// [`Exits::moves`] into `out` (cleared first): a caller that lists
    /// moves at every action keeps one list.
    pub fn moves_into(
        &self,
        start: LandId,
        roll: u8,
        occupancy: &[Occupancy],
        out: &mut Vec<MoveTarget>,
    ) {
        out.clear();
        self.visit_moves(start, roll, occupancy, &mut |t| {
            out.push(t);
            false
        });
        out.sort_unstable();
        out.dedup();
    }

    /// Whether [`Exits::moves`] would list anything, without listing.
    pub fn can_move(&self, start: LandId, roll: u8, occupancy: &[Occupancy]) -> bool {
        self.visit_moves(start, roll, occupancy, &mut |_| true)
    }

    /// Whether [`Exits::moves`] would list `target`, without listing.
    pub fn reaches(
        &self,
        start: LandId,
        roll: u8,
        occupancy: &[Occupancy],
        target: MoveTarget,
    ) -> bool {
        self.visit_moves(start, roll, occupancy, &mut |t| t == target)
    }

    /// Hands every end of a move (unsorted, maybe repeated) to `f` until it
    /// returns true (stop); returns whether it stopped.
    fn visit_moves(
        &self,
        start: LandId,
        roll: u8,
        occ: &[Occupancy],
        f: &mut impl FnMut(MoveTarget) -> bool,
    ) -> bool {
        if roll == 0 {
            return false;
        }
        let s = start.index();
        self.starting(s)
            .iter()
            .any(|&next| self.step(next as usize, s, roll - 1, occ, f))
            || self.through_gates(s, s, roll, occ, f)
    }

    /// The moves on from `land`'s gates with `left` lands still to go: each
    /// gate's land, not counted, is left as from a move's start, but not
    /// back toward `from` (Gods of Titan 8.6). A gate into another player's
    /// legion is closed.
    fn through_gates(
        &self,
        land: usize,
        from: usize,
        left: u8,
        occ: &[Occupancy],
        f: &mut impl FnMut(MoveTarget) -> bool,
    ) -> bool {
        self.lands[land].gate.iter().any(|&g| {
            let g = g as usize;
            g != from
                && matches!(
                    self.occupancy(g, occ),
                    Occupancy::Empty | Occupancy::Friendly
                )
                && self.starting(g).iter().any(|&next| {
                    next as usize != land && self.step(next as usize, g, left - 1, occ, f)
                })
        })
    }

    /// What stands in `land` for a move: nothing, on a shared land, where
    /// any legion may pass and end (Gods of Titan 8.6, 10.2), unless it is
    /// closed to the legion.
    fn occupancy(&self, land: usize, occ: &[Occupancy]) -> Occupancy {
        let o = occ.get(land).copied().unwrap_or_default();
        if o != Occupancy::Closed && self.shared.get(land).copied().unwrap_or(false) {
            Occupancy::Empty
        } else {
            o
        }
    }

    /// Whether a legion of `characters` is under the truce
    /// (`rules.movement.truce`): it neither engages nor is engaged by
    /// another such legion.
    pub fn in_truce(&self, characters: &[CharacterId]) -> bool {
        characters
            .iter()
            .any(|c| self.truce.get(c.index()).copied().unwrap_or(false))
    }

    /// `occ` with the lands closed to a legion of `characters` marked
    /// [`Occupancy::Closed`] (`rules.movement.keep_out`); None when none is
    /// closed to it (most legions, and every legion of most variants).
    pub fn close_for(
        &self,
        characters: &[CharacterId],
        occ: &[Occupancy],
    ) -> Option<Vec<Occupancy>> {
        let mut out: Option<Vec<Occupancy>> = None;
        for rule in &self.keep_out {
            if !rule.applies(characters) {
                continue;
            }
            let o = out.get_or_insert_with(|| occ.to_vec());
            for (slot, &closed) in o.iter_mut().zip(&rule.lands) {
                if closed {
                    *slot = Occupancy::Closed;
                }
            }
        }
        out
    }

    fn step(
        &self,
        land: usize,
        from: usize,
        left: u8,
        occ: &[Occupancy],
        f: &mut impl FnMut(MoveTarget) -> bool,
    ) -> bool {
        let target = || MoveTarget {
            land: LandId::new(land),
            entered_from: LandId::new(from),
        };
        if self.passage[land] {
            // A passage is crossed by its gates, never stood on.
            return left > 0
                && matches!(
                    self.occupancy(land, occ),
                    Occupancy::Empty | Occupancy::Friendly
                )
                && self.through_gates(land, from, left, occ, f);
        }
        match self.occupancy(land, occ) {
            Occupancy::Engaged | Occupancy::Closed => return false,
            Occupancy::Enemy => return f(target()),
            Occupancy::Friendly if left == 0 => return false,
            Occupancy::Empty if left == 0 => return f(target()),
            _ => {}
        }
        // No backtracking.
        self.continuing(land)
            .iter()
            .any(|&next| next as usize != from && self.step(next as usize, land, left - 1, occ, f))
            || self.through_gates(land, from, left, occ, f)
    }

    /// Lands within `range` of `start` counting any border, whatever the
    /// signs (tower teleport), not counting `start`.
    pub fn within(&self, start: LandId, range: u8) -> Vec<LandId> {
        let n = self.lands.len();
        let mut dist = vec![u8::MAX; n];
        dist[start.index()] = 0;
        let mut frontier = vec![start.index()];
        let mut out = Vec::new();
        for d in 1..=range {
            let mut next = Vec::new();
            for &l in &frontier {
                for &a in &self.adjacent[l] {
                    if dist[a as usize] == u8::MAX {
                        dist[a as usize] = d;
                        next.push(a as usize);
                        out.push(LandId::new(a as usize));
                    }
                }
            }
            frontier = next;
        }
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titan() -> Variant {
        crate::titan_for_tests()
    }

    fn numbers(v: &Variant, targets: &[MoveTarget]) -> Vec<u32> {
        let mut n: Vec<u32> = targets
            .iter()
            .map(|t| v.board.land(t.land).number)
            .collect();
        n.dedup();
        n
    }

    #[test]
    fn a_block_must_be_followed() {
        // Land 1000 has a block toward land 1 (reference sheet, "Block").
        let v = titan();
        let ex = Exits::new(&v);
        let start = v.board.by_number(1000).unwrap();
        let occ = vec![Occupancy::Empty; v.board.land_count()];
        let one = ex.moves(start, 1, &occ);
        assert_eq!(numbers(&v, &one), [1]);
    }

    #[test]
    fn an_enemy_stops_the_move_and_an_engagement_blocks_it() {
        let v = titan();
        let ex = Exits::new(&v);
        let start = v.board.by_number(1).unwrap();
        let mut occ = vec![Occupancy::Empty; v.board.land_count()];
        let far = ex.moves(start, 3, &occ);
        assert!(!far.is_empty());
        let two = v.board.by_number(2).unwrap();
        occ[two.index()] = Occupancy::Enemy;
        let stopped = ex.moves(start, 3, &occ);
        assert!(stopped.iter().any(|t| t.land == two));
        occ[two.index()] = Occupancy::Engaged;
        let blocked = ex.moves(start, 3, &occ);
        assert!(blocked.iter().all(|t| t.land != two));
        // A friendly legion may be passed but not ended on.
        occ[two.index()] = Occupancy::Friendly;
        assert!(ex.moves(start, 1, &occ).iter().all(|t| t.land != two));
    }

    #[test]
    fn teleport_range_ignores_signs() {
        // Reference sheet, Teleportation: "up to six Lands away (ignoring
        // all Signs ...)". Land 102 borders 101, but the only sign between
        // them points from 102 into 101: a legion moving from tower 100
        // cannot reach 102 with a 2, yet 102 is two lands away.
        let v = titan();
        let ex = Exits::new(&v);
        let number = |ls: Vec<LandId>| -> Vec<u32> {
            let mut n: Vec<u32> = ls.iter().map(|&l| v.board.land(l).number).collect();
            n.sort_unstable();
            n
        };
        let tower = v.board.by_number(100).unwrap();
        assert_eq!(number(ex.within(tower, 1)), [3, 41, 101]);
        let two = number(ex.within(tower, 2));
        assert!(two.contains(&102), "{two:?}");
        let occ = vec![Occupancy::Empty; v.board.land_count()];
        let moved = numbers(&v, &ex.moves(tower, 2, &occ));
        assert!(!moved.contains(&102), "{moved:?}");
        let six = ex.within(tower, 6);
        assert!(six.len() > two.len());
        assert!(!six.contains(&tower));
    }
}
