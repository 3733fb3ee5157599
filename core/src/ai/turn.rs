//! The `strong` player's whole-turn search on the masterboard: splits,
//! movement and mustering planned together, with the dice as chance nodes.
//!
//! At the split phase every candidate split plan (a few per legion, and no
//! split) is valued by a chance node over the movement rolls (each face
//! exactly 1/die); under each roll the best joint movement plan of all the
//! player's legions is found by a beam search (who moves where, who must
//! move, who attacks, and the muster each move opens). In the movement phase
//! the roll is known: the same search runs over the engine's legal moves
//! (teleports included), and the first move of the best plan is played; the
//! engine asks for moves one at a time, so the plan is remade after each.
//! At mustering, the recruit that most raises the leaf value is taken.
//!
//! The leaf value of a plan is the sum over the player's legions of what
//! their land is worth to them: the best muster a moved legion can make
//! there, less the danger from enemy legions' next rolls (their own chance
//! node, in [`Board::danger`]), plus the attack it could make next turn
//! from there ([`Board::opportunity`]), and for an attack the engagement estimate
//! (gain if won, loss if lost, danger after). Hidden legions are the
//! board's determinization samples (never read). Every evaluation counts
//! against the node budget; past it the search narrows to a greedy plan, so
//! a decision is bounded and deterministic.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use super::AiError;
use super::board::{Board, occupancy};
use super::values::worth;
use crate::game::{Action, Marker, Occupancy, Phase};
use crate::model::{CharacterId, LandId};

type Chars = Vec<(CharacterId, u8)>;

/// Partial plans kept at each legion's step of the beam search.
const BEAM: usize = 6;
/// Destinations tried per legion (the best by their own value), and staying.
const PER_LEGION: usize = 6;
/// Split candidates valued per legion (the best by a quick estimate).
const SPLITS_PER_LEGION: usize = 3;
/// A split plan must beat not splitting by this much (a marker spent, and a
/// smaller legion is easier prey than the leaf sees).
const SPLIT_MARGIN: f64 = 10.0;
/// A mulligan must promise this much more than the roll in hand.
const MULLIGAN_MARGIN: f64 = 5.0;
/// The value lost by a plan breaking a movement rule (split legions left
/// together, no legion moved): such a plan is taken only when no other is.
const BROKEN: f64 = 10_000.0;

/// The distances a plan's legions may move.
#[derive(Debug, Clone, Copy)]
enum Reach {
    /// The turn's roll (or chosen distance), the same for every legion.
    Roll(u8),
    /// Each legion its own (`rules.movement.per_legion`).
    Any,
}

/// Where a legion may end its move, and how.
#[derive(Debug, Clone)]
struct Dest {
    land: LandId,
    /// The engine's action that begins it, when listed (None: planned from
    /// the movement tables).
    action: Option<Action>,
    /// Whether it may muster there (`rules.movement.muster_distances`).
    musters: bool,
}

/// One of the player's legions in a plan (a split's new part has no marker
/// yet).
#[derive(Debug, Clone)]
struct Unit {
    marker: Option<Marker>,
    chars: Chars,
    land: LandId,
    /// Moved earlier this turn: its place is fixed.
    moved: bool,
}

/// A partial joint plan: where each legion is, and how the plan began.
#[derive(Debug, Clone)]
struct Plan {
    at: Vec<LandId>,
    went: Vec<bool>,
    /// Decided (moved earlier, or placed by the plan).
    done: Vec<bool>,
    value: f64,
    first: Option<Action>,
}

struct Search<'b, 'a> {
    board: &'b Board<'a>,
    budget: u64,
    nodes: Cell<u64>,
    /// Values of (legion, land, moved there): the same across plans and rolls.
    memo: RefCell<HashMap<(Chars, LandId, bool), f64>>,
}

impl Search<'_, '_> {
    fn tick(&self, n: u64) {
        self.nodes.set(self.nodes.get() + n);
    }

    fn spent(&self) -> bool {
        self.nodes.get() >= self.budget
    }

    /// What `chars` ending in `land` is worth: a legion that moved there may
    /// muster (when it wins there, if it attacks) when `musters`; one that
    /// stayed may not (only legions that moved muster), nor one that moved a
    /// distance the variant musters after not.
    fn value(&self, chars: &Chars, land: LandId, musters: bool) -> f64 {
        let key = (chars.clone(), land, musters);
        if let Some(&v) = self.memo.borrow().get(&key) {
            return v;
        }
        self.tick(1);
        let b = self.board;
        let muster = if musters {
            b.best_muster(chars, land)
        } else {
            0.0
        }
        // A variant's recruit there (`ai: Recruit(terrains, worth)`) needs
        // no move.
        .max(b.recruit_worth(chars, land));
        let v = match b.attack(std::slice::from_ref(chars), land) {
            Some((p, ev)) => ev + p * muster,
            None => muster - b.danger(chars, land, None) + b.opportunity(chars, land),
        };
        self.memo.borrow_mut().insert(key, v);
        v
    }

    /// Where unit `i` may go in plan `plan`: from the engine's legal actions
    /// when the roll is the real one (`legal`), else by the movement tables
    /// (no teleports: they are the roll's, and rare).
    fn destinations(
        &self,
        units: &[Unit],
        plan: &Plan,
        i: usize,
        roll: Reach,
        legal: Option<&[Action]>,
    ) -> Vec<Dest> {
        let v = self.board.v;
        let musters_after = |d: Option<u8>| v.rules.movement.musters_after(d);
        match roll {
            Reach::Roll(r) => {
                self.destinations_at(units, plan, i, r, legal, musters_after(Some(r)))
            }
            // Each legion its own distance: every distance, by the movement
            // tables, each land with the engine's move there when the
            // moves are listed (they are all listed: there is no roll).
            Reach::Any => {
                let marker = units[i].marker;
                let listed = |land: LandId| {
                    legal.and_then(|legal| {
                        legal.iter().find(|a| {
                            matches!(a, Action::Move { legion, to, .. }
                                if Some(*legion) == marker && *to == land)
                        })
                    })
                };
                let mut out: Vec<Dest> = Vec::new();
                for d in 1..=v.rules.movement.die {
                    let musters = musters_after(Some(d));
                    for mut dest in self.destinations_at(units, plan, i, d, None, musters) {
                        dest.action = listed(dest.land).cloned();
                        if legal.is_some() && dest.action.is_none() {
                            continue;
                        }
                        match out.iter_mut().find(|o| o.land == dest.land) {
                            // A distance that lets it muster there.
                            Some(o) if dest.musters && !o.musters => *o = dest,
                            Some(_) => {}
                            None => out.push(dest),
                        }
                    }
                }
                if let (Some(legal), Some(m)) = (legal, marker) {
                    for a in legal {
                        if let Action::Teleport { legion, to, .. } = a
                            && *legion == m
                            && !out.iter().any(|o| o.land == *to)
                        {
                            out.push(Dest {
                                land: *to,
                                action: Some(a.clone()),
                                musters: musters_after(None),
                            });
                        }
                    }
                }
                out
            }
        }
    }

    /// [`Search::destinations`] at one distance.
    fn destinations_at(
        &self,
        units: &[Unit],
        plan: &Plan,
        i: usize,
        roll: u8,
        legal: Option<&[Action]>,
        musters: bool,
    ) -> Vec<Dest> {
        let u = &units[i];
        // Another of my legions ends there (or may still stand there).
        let mine = |land: LandId| (0..units.len()).any(|j| j != i && plan.at[j] == land);
        let mut out: Vec<Dest> = Vec::new();
        let teleport_musters = self.board.v.rules.movement.musters_after(None);
        match (legal, u.marker) {
            (Some(legal), Some(m)) => {
                for a in legal {
                    let (to, musters) = match a {
                        Action::Move { legion, to, .. } if *legion == m => (*to, musters),
                        Action::Teleport { legion, to, .. } if *legion == m => {
                            (*to, teleport_musters)
                        }
                        _ => continue,
                    };
                    if !out.iter().any(|o| o.land == to) {
                        out.push(Dest {
                            land: to,
                            action: Some(a.clone()),
                            musters,
                        });
                    }
                }
            }
            _ => {
                let obs = self.board.obs;
                // What stands where in this plan: the enemies, and my
                // legions where the plan has put them.
                let mut occ: Vec<Occupancy> = occupancy(obs, self.board.me)
                    .into_iter()
                    .map(|o| match o {
                        Occupancy::Friendly => Occupancy::Empty,
                        Occupancy::Engaged => Occupancy::Enemy,
                        o => o,
                    })
                    .collect();
                for (j, at) in plan.at.iter().enumerate() {
                    let k = if j == i { u.land.index() } else { at.index() };
                    occ[k] = match occ[k] {
                        Occupancy::Enemy | Occupancy::Engaged => Occupancy::Engaged,
                        _ => Occupancy::Friendly,
                    };
                }
                // The lands this legion is kept out of (`keep_out`).
                let ids: Vec<CharacterId> = u.chars.iter().map(|&(c, _)| c).collect();
                let occ = obs.exits.close_for(&ids, &occ).unwrap_or(occ);
                for t in obs.exits.moves(u.land, roll, &occ) {
                    if !out.iter().any(|o| o.land == t.land) {
                        out.push(Dest {
                            land: t.land,
                            action: None,
                            musters,
                        });
                    }
                }
            }
        }
        self.tick(1);
        out.retain(|o| !mine(o.land));
        out
    }

    /// The best joint movement plan of `units` for `roll`: its value and its
    /// first move (None: no move, or none to make).
    fn joint(
        &self,
        units: &[Unit],
        roll: Reach,
        legal: Option<&[Action]>,
    ) -> (f64, Option<Action>) {
        let root = Plan {
            at: units.iter().map(|u| u.land).collect(),
            went: units.iter().map(|u| u.moved).collect(),
            done: units.iter().map(|u| u.moved).collect(),
            value: units
                .iter()
                .filter(|u| u.moved)
                .map(|u| self.value(&u.chars, u.land, true))
                .sum(),
            first: None,
        };
        // Each legion's options at the start; the most at stake decides first.
        let mut order: Vec<(usize, f64, bool)> = Vec::new();
        for (i, u) in units.iter().enumerate().filter(|(_, u)| !u.moved) {
            let stay = self.value(&u.chars, u.land, false);
            let dests = self.destinations(units, &root, i, roll, legal);
            let best = dests
                .iter()
                .map(|o| self.value(&u.chars, o.land, o.musters))
                .fold(stay, f64::max);
            order.push((i, best - stay, !dests.is_empty()));
        }
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let can_move: Vec<bool> = {
            let mut v = vec![false; units.len()];
            for &(i, _, c) in &order {
                v[i] = c;
            }
            v
        };
        // At most so many of my legions on shared lands when I end moving
        // (`rules.movement.shared_limit`): the engine refuses the end of
        // the phase otherwise, and a legion that moved moves no more. The
        // legions decided so far count (every one, once the plan is whole).
        let limit = self.board.v.rules.movement.shared_limit;
        let over = |p: &Plan| {
            limit.is_some_and(|n| {
                (0..units.len())
                    .filter(|&j| p.done[j] && self.board.v.is_shared(p.at[j]))
                    .count()
                    > usize::from(n)
            })
        };
        let mut beam = vec![root];
        for &(i, _, _) in &order {
            let u = &units[i];
            let width = if self.spent() { 1 } else { BEAM };
            let mut next: Vec<Plan> = Vec::new();
            for p in &beam {
                let mut options: Vec<(f64, LandId, Option<Action>)> = self
                    .destinations(units, p, i, roll, legal)
                    .into_iter()
                    .map(|o| (self.value(&u.chars, o.land, o.musters), o.land, o.action))
                    .collect();
                options.sort_by(|a, b| b.0.total_cmp(&a.0));
                options.truncate(if self.spent() { 1 } else { PER_LEGION });
                let any = !options.is_empty();
                for (v, l, a) in options {
                    let mut q = p.clone();
                    q.at[i] = l;
                    q.went[i] = true;
                    q.done[i] = true;
                    q.value += v;
                    if q.first.is_none() {
                        q.first = a;
                    }
                    if over(&q) {
                        q.value -= BROKEN;
                    }
                    next.push(q);
                }
                // Staying: refused while a legion it split from stays in the
                // same land and it could move (they must part).
                let mut q = p.clone();
                q.done[i] = true;
                q.value += self.value(&u.chars, u.land, false);
                let together = (0..units.len())
                    .any(|j| j != i && p.done[j] && !p.went[j] && units[j].land == u.land);
                if together && any {
                    q.value -= BROKEN;
                }
                // Every legion that can move must, where the variant says so.
                if any && self.board.must_move(u.land) {
                    q.value -= BROKEN;
                }
                if over(&q) {
                    q.value -= BROKEN;
                }
                next.push(q);
            }
            next.sort_by(|a, b| b.value.total_cmp(&a.value));
            next.truncate(width);
            beam = next;
        }
        // At least one legion must move when one can.
        let some_can = can_move.iter().any(|&c| c);
        let best = beam
            .into_iter()
            .map(|mut p| {
                if some_can && !p.went.iter().any(|&w| w) {
                    p.value -= BROKEN;
                }
                p
            })
            .max_by(|a, b| a.value.total_cmp(&b.value));
        match best {
            Some(p) => (p.value, p.first),
            None => (0.0, None),
        }
    }

    /// The chance node over the movement rolls: the mean of the best joint
    /// plan's value under each face of the die.
    fn expect(&self, units: &[Unit]) -> f64 {
        let m = &self.board.v.rules.movement;
        let die = m.die.max(1);
        if m.per_legion {
            return self.joint(units, Reach::Any, None).0;
        }
        let values = (1..=die).map(|r| self.joint(units, Reach::Roll(r), None).0);
        if m.chosen_distance {
            // The mover picks the distance: the best, not the mean.
            return values.fold(f64::MIN, f64::max);
        }
        values.sum::<f64>() / f64::from(die)
    }
}

/// The player's legions as units of a plan.
fn units(board: &Board<'_>) -> Vec<Unit> {
    board
        .obs
        .view
        .legions
        .iter()
        .filter(|l| l.owner == board.me)
        .filter_map(|l| {
            Some(Unit {
                marker: Some(l.marker),
                chars: board.chars_of(l.marker)?.clone(),
                land: l.land,
                // A tower legion stays where it is, like one that moved.
                moved: l.moved || l.stationed,
            })
        })
        .collect()
}

/// The strong player's choice when its turn's plan decides it (split,
/// roll, move, muster); None when another part of the player decides (an
/// engagement, or a choice the plan found no legal action for).
pub(super) fn choose(board: &Board<'_>, budget: u64) -> Option<Result<Action, AiError>> {
    let obs = board.obs;
    let view = &obs.view;
    if view.active != board.me || view.engagement.is_some() {
        return None;
    }
    let search = Search {
        board,
        budget,
        nodes: Cell::new(0),
        memo: RefCell::new(HashMap::new()),
    };
    let legal = &obs.legal;
    // A variant's own action the variant values (`ai` in actions.ron) at
    // more than nothing is taken before the plan of the split or move phase
    // goes on (the plan does not foresee what it does); at mustering it is
    // weighed with the musters.
    if matches!(view.phase, Phase::Split | Phase::Move)
        && let Some((_, a)) = legal
            .iter()
            .filter_map(|a| board.script_score(a).map(|s| (s, a)))
            .filter(|(s, _)| *s > 0.0)
            .max_by(|x, y| x.0.total_cmp(&y.0))
    {
        return Some(Ok(a.clone()));
    }
    match view.phase {
        Phase::Split => Some(split(&search)).filter(|a| legal.contains(a)).map(Ok),
        Phase::Move if board.v.rules.movement.per_legion => {
            // A distance for each legion: every move is listed, and the
            // best plan's first is made.
            let us = units(board);
            let (_, first) = search.joint(&us, Reach::Any, Some(legal));
            match first {
                Some(a) if legal.contains(&a) => Some(Ok(a)),
                _ if legal.contains(&Action::DoneMoving) => Some(Ok(Action::DoneMoving)),
                _ => None,
            }
        }
        Phase::Move => {
            let us = units(board);
            match view.roll {
                None => {
                    // Where the mover picks the distance, the best plan's.
                    let picks: Vec<u8> = legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Roll { distance: Some(d) } => Some(*d),
                            _ => None,
                        })
                        .collect();
                    let d = picks
                        .iter()
                        .map(|&d| (search.joint(&us, Reach::Roll(d), None).0, d))
                        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))?
                        .1;
                    Some(Ok(Action::Roll { distance: Some(d) }))
                }
                Some(roll) => {
                    let (now, first) = search.joint(&us, Reach::Roll(roll), Some(legal));
                    if legal.contains(&Action::Mulligan)
                        && search.expect(&us) > now + MULLIGAN_MARGIN
                    {
                        return Some(Ok(Action::Mulligan));
                    }
                    match first {
                        Some(a) if legal.contains(&a) => Some(Ok(a)),
                        _ if legal.contains(&Action::DoneMoving) => Some(Ok(Action::DoneMoving)),
                        _ => None,
                    }
                }
            }
        }
        Phase::Muster => Some(muster(&search)).filter(|a| legal.contains(a)).map(Ok),
        _ => None,
    }
}

/// At the split phase: the split (one legion's) of the best plan, or done
/// splitting when not splitting is best. The engine takes splits one at a
/// time and asks again, so a plan of several splits is made one by one.
fn split(search: &Search<'_, '_>) -> Action {
    let board = search.board;
    let v = board.v;
    let us = units(board);
    let max = usize::from(v.rules.legions.max_size);
    let titan = v.rules.titan.character;
    // The candidates: splits of two or three off a legion one short of full
    // or full (smaller splits lost games in the tuning), the Titan staying,
    // ranked per legion by the musters the parts could reach less the
    // danger to them.
    let mut per_legion: HashMap<Marker, Vec<(f64, Action, Unit, Unit)>> = HashMap::new();
    for a in &board.obs.legal {
        let Action::Split { legion, parts } = a else {
            continue;
        };
        let Some(u) = us.iter().find(|u| u.marker == Some(*legion)) else {
            continue;
        };
        let moved: usize = parts.iter().map(Vec::len).sum();
        // Counted as the rules count a legion: uncounted characters aside.
        if v.legion_size(u.chars.iter().map(|c| c.0)) + 1 < max
            || parts.len() != 1
            || !(2..=3).contains(&moved)
            || parts[0].contains(&titan)
        {
            continue;
        }
        let mut rest = u.chars.clone();
        let mut part = Vec::new();
        for c in &parts[0] {
            let Some(i) = rest.iter().position(|x| x.0 == *c) else {
                continue;
            };
            part.push(rest.remove(i));
        }
        let quick = board.expected_muster(&part, u.land) + board.expected_muster(&rest, u.land)
            - board.expected_muster(&u.chars, u.land)
            - (board.danger(&part, u.land, None) + board.danger(&rest, u.land, None)
                - board.danger(&u.chars, u.land, None));
        let whole = Unit {
            chars: rest,
            ..u.clone()
        };
        let new = Unit {
            marker: None,
            chars: part,
            ..u.clone()
        };
        per_legion
            .entry(*legion)
            .or_default()
            .push((quick, a.clone(), whole, new));
    }
    let mut best = (search.expect(&us), Action::DoneSplitting);
    // A full legion that the variant keeps from moving (`full_legions_move:
    // false`) plays no more until it splits: its best split is taken even
    // when the search, which moves it, sees no gain.
    let stuck = |m: Marker| {
        !v.rules.legions.full_legions_move
            && us
                .iter()
                .find(|u| u.marker == Some(m))
                .is_some_and(|u| v.legion_size(u.chars.iter().map(|c| c.0)) >= max)
    };
    let mut forced: Option<(f64, Action)> = None;
    let mut legions: Vec<Marker> = per_legion.keys().copied().collect();
    legions.sort();
    for m in legions {
        let mut cands = per_legion.remove(&m).unwrap_or_default();
        cands.sort_by(|a, b| b.0.total_cmp(&a.0));
        let stuck = stuck(m);
        for (_, a, whole, new) in cands.into_iter().take(SPLITS_PER_LEGION) {
            if search.spent() && !(stuck && forced.is_none()) {
                break;
            }
            let mut plan: Vec<Unit> = us.iter().filter(|u| u.marker != Some(m)).cloned().collect();
            plan.push(whole);
            plan.push(new);
            let value = search.expect(&plan) - SPLIT_MARGIN;
            if stuck && forced.as_ref().is_none_or(|f| value > f.0) {
                forced = Some((value, a.clone()));
            }
            if value > best.0 {
                best = (value, a);
            }
        }
    }
    match (best.1, forced) {
        (Action::DoneSplitting, Some((_, a))) => a,
        (a, _) => a,
    }
}

/// At mustering: the recruit that most raises the leaf value (its worth
/// and the danger it takes off its legion), or the end of the turn.
fn muster(search: &Search<'_, '_>) -> Action {
    let board = search.board;
    let mut best = (0.0, Action::EndTurn);
    for a in &board.obs.legal {
        // A variant's own recruit (`ai: Recruit(..)`, actions.ron) is
        // weighed as a muster; one of a fixed worth (`ai: Worth(n)`) by it.
        let (legion, recruit) = match a {
            Action::Muster {
                legion, recruit, ..
            } => (*legion, *recruit),
            Action::Script { .. } => match board.script_recruit(a) {
                Some(x) => x,
                None => {
                    if let Some(w) = board.script_score(a)
                        && w > best.0
                    {
                        best = (w, a.clone());
                    }
                    continue;
                }
            },
            _ => continue,
        };
        let Some(chars) = board.chars_of(legion) else {
            continue;
        };
        let Some(land) = board
            .obs
            .view
            .legions
            .iter()
            .find(|l| l.marker == legion)
            .map(|l| l.land)
        else {
            continue;
        };
        let mut with = chars.clone();
        with.push((recruit, board.power(board.me, recruit)));
        search.tick(1);
        let gain = worth(board.v, recruit, board.power(board.me, recruit))
            + board.danger(chars, land, None)
            - board.danger(&with, land, None);
        if gain > best.0 {
            best = (gain, a.clone());
        }
    }
    best.1
}
