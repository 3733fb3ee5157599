//! Listing what the side to act may do: every legal action
//! ([`Battle::legal_actions`]), or the one a random player picks without
//! building the others ([`Battle::pick_action`]); the moves' reaches and a
//! strike phase's enemies that listing and `apply` share.

use super::*;

/// The reaches of the units worked out for the state of one generation
/// (`Battle::generation`), when no script changed a unit or the
/// battleland: listing a maneuver decision works them out, and `apply`
/// checks the chosen move against them.
#[derive(Debug)]
pub(super) struct ReachMemo {
    generation: u64,
    /// `reach[i]`, for each unit `i` whose bit is set (units past 64 are
    /// not remembered).
    reach: [HexSet; 64],
    known: u64,
}

impl Default for ReachMemo {
    fn default() -> ReachMemo {
        ReachMemo {
            generation: 0,
            reach: [0; 64],
            known: 0,
        }
    }
}

impl ReachMemo {
    /// The memo for the state of `generation`: emptied if it was another's.
    #[inline]
    fn of(&mut self, generation: u64) -> &mut ReachMemo {
        if self.generation != generation {
            self.generation = generation;
            self.known = 0;
        }
        self
    }

    #[inline]
    fn get(&self, i: usize) -> Option<HexSet> {
        (i < 64 && self.known >> i & 1 != 0).then(|| self.reach[i])
    }

    #[inline]
    fn put(&mut self, i: usize, set: HexSet) {
        if i < 64 {
            self.reach[i] = set;
            self.known |= 1 << i;
        }
    }
}

/// The living enemies of a striking side on the battleland (one per hex),
/// and the occupied hexes, found in one walk of the units per strike
/// phase: a strike without scripts changes them only by slaying (see
/// [`Battle::foes_after`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Foes {
    striking: BattleSide,
    hexes: HexSet,
    /// `at[hex]`: the enemy on `hex`, when `hex` is in `hexes`.
    at: [UnitId; 32],
    /// The hexes holding a character (as `occupied_set`).
    pub(super) occupied: HexSet,
    /// The striking side's characters on the battleland with a strike
    /// left, by unit (found in the same walk; all of them past 64 units).
    strikers: u64,
}

// `Foes` indexes its 32 places by masked hexes and counts.
const _: () = assert!(MAX_HEXES < 32);

impl Foes {
    /// The enemies of `striking` in `s`; `gone`: units known to be out of
    /// the battle for good (see `Battle::gone`), not walked.
    fn of(s: &State, striking: BattleSide, gone: u64) -> Foes {
        let mut at = [0; 32];
        let (mut hexes, mut occupied, mut strikers) = (0, 0, 0);
        // Without a branch per unit: which units are enemies is what a
        // predictor cannot guess.
        let mut add = |j: usize, t: &Unit| {
            let (on, h) = t.hex_parts();
            let b = HexSet::from(on) << h;
            occupied |= b;
            let striker = (t.side == striking) & (t.strikes_left > 0) & t.on_field();
            strikers |= u64::from(striker).wrapping_shl(j as u32);
            let foe = on & (t.side != striking) & (t.damage < t.power);
            hexes |= b & (foe as HexSet).wrapping_neg();
            // Not an enemy on the battleland: written to the spare last entry.
            // (32 places, so that the masked indices need no bounds check.)
            at[if foe { usize::from(h) } else { MAX_HEXES } & 31] = j as UnitId;
        };
        match s.units.len() {
            len @ 0..=64 => {
                let all = 1u64.checked_shl(len as u32).map_or(u64::MAX, |b| b - 1);
                let mut m = all & !gone;
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    add(j, &s.units[j]);
                }
            }
            _ => s.units.iter().enumerate().for_each(|(j, t)| add(j, t)),
        }
        Foes {
            striking,
            hexes,
            at,
            occupied,
            strikers,
        }
    }

    /// The enemies on `hexes` (some of [`Foes::hexes`]), in unit order as
    /// the listing goes.
    fn on(&self, hexes: HexSet) -> impl Iterator<Item = UnitId> {
        let mut found = [UnitId::MAX; MAX_HEXES];
        let mut n = 0;
        for h in tables::hexes(hexes & self.hexes) {
            found[n] = self.at[h.0 as usize];
            n += 1;
        }
        found[..n].sort_unstable();
        found.into_iter().take(n)
    }

    /// Every enemy, in unit order.
    fn all(&self) -> impl Iterator<Item = UnitId> {
        self.on(self.hexes)
    }

    /// The same as [`Foes::of`] would find (the `at` of hexes left out
    /// aside), for the checks of debug builds.
    fn same(&self, other: &Foes) -> bool {
        (self.striking, self.hexes, self.occupied, self.strikers)
            == (other.striking, other.hexes, other.occupied, other.strikers)
            && self.all().eq(other.all())
    }
}

/// Where listing puts the actions: a list, or a [`Pick`].
pub(super) trait ActionSink {
    fn push(&mut self, a: Action);
    /// Moves of `unit` to each hex of `set`, in hex order.
    fn moves(&mut self, unit: UnitId, set: HexSet);
    /// Actions put so far.
    fn len(&self) -> usize;
    /// Takes back the end of the phase listed (`may_end_battle_phase`).
    fn drop_end(&mut self);
}

impl ActionSink for Vec<Action> {
    fn push(&mut self, a: Action) {
        Vec::push(self, a);
    }
    fn moves(&mut self, unit: UnitId, set: HexSet) {
        self.extend(hexes(set).map(|h| Action::Move { unit, to: h }));
    }
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn drop_end(&mut self) {
        self.retain(|a| !matches!(a, Action::EndManeuver | Action::EndStrikes));
    }
}

/// The listed actions with each unit's moves kept as its reach set (see
/// [`Battle::pick_action`]).
struct Runs<'r> {
    runs: &'r mut Vec<Run>,
    /// The actions of [`Run::Other`].
    others: &'r mut Vec<Action>,
    n: usize,
}

/// A listed action, or a unit's moves, in a few bytes: a listing puts a
/// run per strike, and the list is walked to the action picked.
#[derive(Debug, Clone, Copy)]
pub(super) enum Run {
    /// A strike as listed (the number needed, hazard bonuses taken).
    Strike(UnitId, UnitId),
    Rangestrike(UnitId, UnitId),
    /// A unit's moves: the hexes, and how many (counted once).
    Moves(UnitId, u8, HexSet),
    /// The end of the maneuver or strikes: the commonest of the others,
    /// picked without copying an action from `others`.
    EndManeuver,
    EndStrikes,
    /// Any other action: `others[i]`.
    Other(u32),
}

impl Run {
    /// The actions the run stands for.
    pub(super) fn count(&self) -> usize {
        match *self {
            Run::Moves(_, n, _) => usize::from(n),
            _ => 1,
        }
    }
}

/// The lists [`Battle::pick_action`] fills, kept between calls.
#[derive(Debug)]
pub(super) struct PickLists {
    pub runs: Vec<Run>,
    pub others: Vec<Action>,
    /// The generation of the state the runs list (`Battle::generation`).
    pub listed: Option<u64>,
    /// How the next listing derives from these runs (see `relist`).
    pub relist: Option<super::relist::Relist>,
    /// The script actions in `others` were listed with the game's
    /// variables and caretaker the battle has now (masterplay's
    /// `set_game` and `set_caretaker` clear it): taking one of them needs
    /// no second call of its `legal` (`Battle::apply_script`).
    pub scripts_fresh: bool,
}

impl Default for PickLists {
    /// With room for a decision's runs, so that a battle's first listings
    /// do not regrow them.
    fn default() -> PickLists {
        PickLists {
            runs: Vec::with_capacity(32),
            others: Vec::new(),
            listed: None,
            relist: None,
            scripts_fresh: false,
        }
    }
}

impl ActionSink for Runs<'_> {
    // Inlined: an action is some 50 bytes to pass, and a strike listed
    // becomes its run directly.
    #[inline(always)]
    fn push(&mut self, a: Action) {
        let run = match a {
            Action::Strike {
                unit,
                target,
                strike_number: None,
                forgo_bonus: false,
            } => Run::Strike(unit, target),
            Action::Rangestrike { unit, target } => Run::Rangestrike(unit, target),
            Action::EndManeuver => Run::EndManeuver,
            Action::EndStrikes => Run::EndStrikes,
            a => {
                self.others.push(a);
                Run::Other((self.others.len() - 1) as u32)
            }
        };
        self.runs.push(run);
        self.n += 1;
    }
    fn moves(&mut self, unit: UnitId, set: HexSet) {
        if set != 0 {
            let n = set.count_ones();
            self.runs.push(Run::Moves(unit, n as u8, set));
            self.n += n as usize;
        }
    }
    fn len(&self) -> usize {
        self.n
    }
    fn drop_end(&mut self) {
        let before = self.runs.len();
        self.runs
            .retain(|r| !matches!(r, Run::EndManeuver | Run::EndStrikes));
        self.n -= before - self.runs.len();
    }
}

impl Battle<'_> {
    /// Every action the side to act may take now. Strikes are listed at the
    /// strike number needed and with hazard bonuses; [`Action::Strike`] with
    /// a declared higher number or forgone bonuses is also accepted.
    pub fn legal_actions(&self) -> Vec<Action> {
        // Enough for most decisions, so that listing does not regrow.
        let mut out = Vec::with_capacity(64);
        self.legal_actions_into(&mut out);
        out
    }

    /// [`Battle::legal_actions`] appended to `out`, so that a caller that
    /// lists many decisions (a random or searching player) can keep one list.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.list(out);
    }

    /// The action of [`Battle::legal_actions`] at the index `pick` chooses
    /// given their number (not called when there is none), building only
    /// that one: a maneuver's moves are counted by reach set. A random
    /// player that draws the index draws as it would over the whole list.
    pub fn pick_action(&self, pick: impl FnOnce(usize) -> usize) -> Option<Action> {
        self.pick_listed(pick).map(|(a, _)| a)
    }

    /// [`Battle::pick_action`], and whether the action is one
    /// [`Battle::is_listed`] finds (a move, strike, rangestrike or end of
    /// the maneuver or strikes, listed as such).
    #[inline]
    pub(super) fn pick_listed(&self, pick: impl FnOnce(usize) -> usize) -> Option<(Action, bool)> {
        let mut lists = self.pick_lists.borrow_mut();
        let n = if self.relist(&mut lists) {
            lists.runs.iter().map(|r| r.count()).sum()
        } else {
            let PickLists { runs, others, .. } = &mut *lists;
            runs.clear();
            others.clear();
            let mut sink = Runs { runs, others, n: 0 };
            self.list(&mut sink);
            let n = sink.n;
            lists.listed = Some(self.generation.get());
            lists.scripts_fresh = true;
            n
        };
        let PickLists { runs, others, .. } = &mut *lists;
        if n == 0 {
            return None;
        }
        let mut k = pick(n);
        for &run in runs.iter() {
            let c = run.count();
            if k >= c {
                k -= c;
                continue;
            }
            let action = match run {
                Run::Strike(unit, target) => Action::Strike {
                    unit,
                    target,
                    strike_number: None,
                    forgo_bonus: false,
                },
                Run::Rangestrike(unit, target) => Action::Rangestrike { unit, target },
                Run::Moves(unit, _, set) => Action::Move {
                    unit,
                    to: HexId(tables::nth_hex(set, k as u32)),
                },
                Run::EndManeuver => Action::EndManeuver,
                Run::EndStrikes => Action::EndStrikes,
                Run::Other(i) => return others.get(i as usize).cloned().map(|a| (a, false)),
            };
            return Some((action, true));
        }
        None
    }

    /// Lists the actions of [`Battle::legal_actions`] into `out`, in its
    /// order.
    fn list(&self, out: &mut impl ActionSink) {
        let s = &self.state;
        // A further choice a script asked for comes before anything else.
        if s.choice.is_some() && s.phase != Phase::Over {
            self.choice_actions(s, out);
            if out.len() > 0 {
                return;
            }
        }
        match s.phase {
            Phase::Over => return,
            Phase::ChooseEdge => {
                for &e in &self.variant.rules.battle.attacker_edges {
                    out.push(Action::ChooseEdge(e));
                }
                return;
            }
            Phase::Maneuver => {
                let occupied = self.occupied_now();
                if self.placing() {
                    self.list_placements(s, occupied, out);
                } else if s.extra.is_empty() && s.overlay.is_none() {
                    self.list_plain_moves(s, occupied, out);
                } else {
                    self.list_moves(s, occupied, out);
                }
                if self.may_summon(s) {
                    for (c, &(_, ch)) in self.setup.summonable.iter().enumerate() {
                        let from = From::Edge(s.attacker_edge);
                        self.each_newcomer_hex(s, ch, BattleSide::Attacker, from, occupied, |h| {
                            out.push(Action::Summon {
                                choice: c as u8,
                                to: h,
                            })
                        });
                    }
                }
                if self.placing() && self.may_summon(s) {
                    for c in 0..self.setup.summonable.len() {
                        out.push(Action::SummonUncommitted { choice: c as u8 });
                    }
                }
                if self.may_reinforce(s) {
                    for (c, &ch) in self.setup.reinforcements.iter().enumerate() {
                        if !self.qualifies(s, ch) {
                            continue;
                        }
                        let from = From::Edge(s.attacker_edge.opposite());
                        self.each_newcomer_hex(s, ch, BattleSide::Defender, from, occupied, |h| {
                            out.push(Action::Reinforce {
                                choice: c as u8,
                                to: h,
                            })
                        });
                        if self.placing() {
                            out.push(Action::ReinforceUncommitted { choice: c as u8 });
                        }
                    }
                }
                // A side that must still place does not end its phase.
                if !self.placing() || self.placement_obliged(s).is_none() {
                    out.push(Action::EndManeuver);
                }
            }
            Phase::Strike { striking } => {
                if let Some(c) = s.carry {
                    for t in self.carry_targets(s, c).unwrap_or_default() {
                        out.push(Action::CarryOver { target: Some(t) });
                    }
                    out.push(Action::CarryOver { target: None });
                    return;
                }
                // The living enemies' hexes and who stands on each: built
                // at the phase's first decision, carried over by strikes
                // without scripts (`foes_after`).
                let foes = match self.foes_now.get() {
                    Some(f) if f.striking == striking => {
                        debug_assert!(f.same(&Foes::of(s, striking, 0)));
                        f
                    }
                    _ => {
                        let f = Foes::of(s, striking, self.gone(s));
                        self.foes_now.set(Some(f));
                        f
                    }
                };
                let (enemies, occupied) = (foes.hexes, foes.occupied);
                // A character in contact that has not struck (as `must_strike`).
                let mut must = false;
                // The strikers, found in `Foes::of`'s walk (past 64 units, in
                // a walk of their own). Those off the battleland are left out
                // by the mask: they keep their strikes, and a guessed branch
                // would skip them.
                let strikers =
                    |u: &Unit| (u.side == striking) & (u.strikes_left > 0) & u.on_field();
                let narrow = s.units.len() <= 64;
                let mut mask = if narrow { foes.strikers } else { 0 };
                // A side of teams: the acting team's, from right to left.
                let first = if s.teams.active() {
                    self.first_striker(s, striking)
                } else {
                    None
                };
                let mut wide = (!narrow).then(|| units_where(&s.units, strikers));
                loop {
                    let i = if narrow {
                        if mask == 0 {
                            break;
                        }
                        let i = mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        i
                    } else {
                        match wide.as_mut().and_then(Iterator::next) {
                            Some(i) => i,
                            None => break,
                        }
                    };
                    if s.teams.active() && (!s.acts(i) || first.is_some_and(|f| f != i)) {
                        continue;
                    }
                    let u = &s.units[i];
                    // A rider strikes by its mount's hex.
                    let Some(h) = s.place(i) else { continue };
                    let contact = self.contact_at(s, h) & enemies;
                    if contact != 0 {
                        // Obliged to strike only when some target is allowed
                        // (`may_target`).
                        let before = out.len();
                        for j in foes.on(contact) {
                            if self.may_target_listed(s, i as UnitId, j, false) {
                                out.push(Action::Strike {
                                    unit: i as UnitId,
                                    target: j,
                                    strike_number: None,
                                    forgo_bonus: false,
                                });
                            }
                        }
                        must |= out.len() > before;
                    } else if striking == s.moving
                        && self.variant.character(u.character).rangestrike.is_some()
                    {
                        if s.extra.is_empty() && s.overlay.is_none() && self.geo.aloof == 0 {
                            // The common path: the hexes seen, remembered
                            // through the strike phase.
                            let seen = self.memo_sight(s, i, h, occupied, enemies);
                            for j in foes.all() {
                                if seen & s.units[j as usize].hex_bit() != 0
                                    && self.may_rangestrike_seen(s, i as UnitId, j)
                                    && self.may_target_listed(s, i as UnitId, j, true)
                                {
                                    out.push(Action::Rangestrike {
                                        unit: i as UnitId,
                                        target: j,
                                    });
                                }
                            }
                            continue;
                        }
                        for j in foes.all() {
                            if self.may_rangestrike(s, i as UnitId, j, occupied)
                                && self.may_target_listed(s, i as UnitId, j, true)
                            {
                                out.push(Action::Rangestrike {
                                    unit: i as UnitId,
                                    target: j,
                                });
                            }
                        }
                    }
                }
                if !must {
                    out.push(Action::EndStrikes);
                    // `must_strike` would ask the same of the same state,
                    // unless a `may_target` handler answers it.
                    if !self
                        .lua
                        .as_ref()
                        .is_some_and(|l| self.use_hooks && l.has_handlers("may_target"))
                    {
                        self.ends_freely.set(true);
                    }
                }
            }
        }
        self.script_actions(out);
        // The scripts may hold the side in its phase while it has
        // something else to do (never with nothing left: no battle stalls).
        if out.len() > 1 {
            match self.end_refused(s) {
                Ok(Some(_)) => out.drop_end(),
                Ok(None) => {}
                Err(BattleError::Script(e)) => {
                    self.listing_failure.borrow_mut().get_or_insert(e);
                }
                Err(_) => {}
            }
        }
    }

    /// The moves of a maneuver decision in general: a unit a script changed
    /// moves by its own reach.
    fn list_moves(&self, s: &State, occupied: HexSet, out: &mut impl ActionSink) {
        let moving = s.moving;
        for i in units_where(&s.units, |u| (u.side == moving) & !u.moved & !u.locked) {
            let u = &s.units[i];
            let Some(from) = self.move_origin(s, u) else {
                continue;
            };
            if s.extra.is_empty() && from != From::Area {
                // Kept for `apply` to check the move against.
                let set = self.memo_reach(s, i, u.character, from, occupied);
                out.moves(i as UnitId, set);
            } else if s.extra.is_empty() || from == From::Area && s.extra(i).may_move.is_none() {
                self.each_reached(s, u.character, from, occupied, |h| {
                    out.push(Action::Move {
                        unit: i as UnitId,
                        to: h,
                    })
                });
            } else {
                // A script changed some unit: its own reach.
                for h in hexes(self.unit_reach(s, i, from, occupied)) {
                    out.push(Action::Move {
                        unit: i as UnitId,
                        to: h,
                    });
                }
            }
        }
    }

    /// The moves of a maneuver decision when no script changed a unit or
    /// the battleland: each mover's reach from the variant's tables,
    /// remembered per unit as [`Battle::memo_reach`] does, with the memo
    /// and the tables looked up once for the decision rather than per unit.
    fn list_plain_moves(&self, s: &State, occupied: HexSet, out: &mut impl ActionSink) {
        let moving = s.moving;
        let bt = &self.variant.battle_tables;
        let tables = bt.land(self.setup.terrain.index());
        let land = self.land();
        let generation = self.generation.get();
        // The movers by mask: derived from the last decision's after a move
        // (`note_movers`), else found in a walk.
        // The slain of past phases left out: they would be looked at, to
        // move nowhere, at every decision of the battle.
        let movers = |u: &Unit| {
            (u.side == moving) & !u.moved & !u.locked & !matches!(u.status, Status::Gone(_))
        };
        let mask = match self.movers.get() {
            Some((g, m)) if g == generation => {
                debug_assert_eq!(Some(m), units_mask(&s.units, movers));
                m
            }
            _ => {
                let Some(m) = units_mask(&s.units, movers) else {
                    // Past 64 units: the general listing, the same moves.
                    return self.list_moves(s, occupied, out);
                };
                self.movers.set(Some((generation, m)));
                m
            }
        };
        let mut memo = self.reach_memo.borrow_mut();
        let memo = memo.of(generation);
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let u = &s.units[i];
            let (on, h) = u.hex_parts();
            let from = match on {
                true => From::Hex(HexId(h)),
                false => match self.move_origin(s, u) {
                    Some(From::Area) => {
                        self.each_reached(s, u.character, From::Area, occupied, |h| {
                            out.push(Action::Move {
                                unit: i as UnitId,
                                to: h,
                            })
                        });
                        continue;
                    }
                    Some(from) => from,
                    None => continue,
                },
            };
            let set = match memo.get(i) {
                Some(set) => set,
                None => {
                    let c = self.variant.character(u.character);
                    let moves = &tables.moves[bt.move_class(u.character)];
                    let set =
                        geometry::reach_set_with(land, moves, c.skill, c.flies, from, occupied);
                    memo.put(i, set);
                    set
                }
            };
            out.moves(i as UnitId, set);
        }
    }

    /// The hexes of the living enemies of `striking` on the battleland,
    /// as the listing of the current state found them, when it did. In a
    /// strike being carried out, the state before it: a strike without
    /// scripts slays but moves nobody, so the enemies left are among them.
    pub(super) fn foe_hexes_known(&self, striking: BattleSide) -> Option<HexSet> {
        self.foes_now
            .get()
            .filter(|f| f.striking == striking)
            .map(|f| f.hexes)
    }

    /// After `action` changed the state of generation `before` into the
    /// current one: when it was a move without scripts, the movers of the
    /// next decision are the last ones less the unit moved (a move changes
    /// no other unit's side, `moved` or `locked`; checked in debug builds
    /// by the next listing).
    pub(super) fn note_movers(&self, action: &Action, before: u64) {
        let Action::Move { unit, .. } = *action else {
            return;
        };
        let s = &*self.state;
        if let Some((g, m)) = self.movers.get()
            && g == before
            && self.lua.is_none()
            && s.phase == Phase::Maneuver
            && s.extra.is_empty()
            && s.overlay.is_none()
        {
            let moved = 1u64.checked_shl(u32::from(unit)).unwrap_or(0);
            self.movers.set(Some((self.generation.get(), m & !moved)));
        }
    }

    /// Calls `f` with every hex a summoned character or a reinforcement of
    /// `side` may come onto: entering by `from`, or committed to its side's
    /// zone in a placement phase.
    fn each_newcomer_hex(
        &self,
        s: &State,
        character: CharacterId,
        side: BattleSide,
        from: From,
        occupied: HexSet,
        f: impl FnMut(HexId),
    ) {
        if self.placing() {
            let flies = self.variant.character(character).flies;
            hexes(self.commit_hexes(s, character, side, flies, occupied)).for_each(f);
        } else {
            self.each_reached(s, character, from, occupied, f);
        }
    }

    /// Calls `f` with every hex `character` may move to from `from`, in the
    /// order of [`geometry::reach`], with no list built.
    fn each_reached(
        &self,
        s: &State,
        character: CharacterId,
        from: From,
        occupied: HexSet,
        mut f: impl FnMut(HexId),
    ) {
        if from == From::Area {
            // In the area's order, as the data lists it.
            for &h in &self.land().defender_area {
                if occupied & bit(h) == 0 {
                    f(h);
                }
            }
            return;
        }
        let set = geometry::reach_set_in(
            &self.variant,
            self.land_in(s),
            self.tables_in(s),
            character,
            from,
            occupied,
        );
        hexes(set).for_each(f);
    }

    /// The reach of unit `i` (with no script changes, on the variant's
    /// tables) from `from` among `occupied`, remembered for the current
    /// state's generation ([`ReachMemo`]): listing the actions works it out
    /// and `apply` checks the chosen move against it. `s` is the current
    /// state (or `apply`'s copy of it, not yet changed).
    fn memo_reach(
        &self,
        s: &State,
        i: usize,
        character: CharacterId,
        from: From,
        occupied: HexSet,
    ) -> HexSet {
        if s.overlay.is_some() {
            // A script changed the battleland: not in the key.
            let (land, tables) = (self.land_in(s), self.tables_in(s));
            return geometry::reach_set_in(&self.variant, land, tables, character, from, occupied);
        }
        let mut memo = self.reach_memo.borrow_mut();
        let memo = memo.of(self.generation.get());
        if let Some(set) = memo.get(i) {
            return set;
        }
        let set = geometry::reach_set_in(
            &self.variant,
            self.land(),
            self.variant.battle_tables.land(self.setup.terrain.index()),
            character,
            from,
            occupied,
        );
        memo.put(i, set);
        set
    }

    /// Every hex unit `i` may move to from `from` (as
    /// [`Battle::unit_reach`]), remembered when nothing changed it.
    pub(super) fn move_reach(&self, s: &State, i: usize, from: From, occupied: HexSet) -> HexSet {
        if self.placing() {
            self.placement_reach(s, i, occupied)
        } else if from != From::Area && s.extra(i) == extra::UnitExtra::default() {
            self.memo_reach(s, i, s.units[i].character, from, occupied)
        } else {
            self.unit_reach(s, i, from, occupied)
        }
    }

    /// May `character` move from `from` to `to`?
    pub(super) fn reaches(
        &self,
        s: &State,
        character: CharacterId,
        from: From,
        occupied: HexSet,
        to: HexId,
    ) -> bool {
        let (land, tables) = (self.land_in(s), self.tables_in(s));
        geometry::reach_set_in(&self.variant, land, tables, character, from, occupied) & bit(to)
            != 0
    }

    /// The listing's [`Foes`] of the state `s` that `action` (carried out
    /// on the current state) led to, from those of the current state: a
    /// strike, rangestrike or carry-over without scripts moves and adds
    /// nobody, so only the enemies it slew leave them. None when unknown.
    #[inline]
    pub(super) fn foes_after(&self, s: &State, action: &Action, before_len: usize) -> Option<Foes> {
        // Looked at here, so that the commoner actions make no call.
        let strike = matches!(
            action,
            Action::Strike { .. } | Action::Rangestrike { .. } | Action::CarryOver { .. }
        );
        if !strike {
            return None;
        }
        self.foes_after_strike(s, action, before_len)
    }

    fn foes_after_strike(&self, s: &State, action: &Action, before_len: usize) -> Option<Foes> {
        // Without scripts only the one struck can have fallen (the debug
        // check of `list` compares the result with a fresh walk).
        let (striker, target) = match *action {
            Action::Strike { unit, target, .. } | Action::Rangestrike { unit, target } => {
                (Some(unit), Some(target))
            }
            Action::CarryOver { target } => (None, target),
            _ => return None,
        };
        if self.hooks().is_some() {
            return None;
        }
        let mut f = self.foes_now.get()?;
        let striking = f.striking;
        if s.phase != (Phase::Strike { striking }) || s.units.len() != before_len {
            return None;
        }
        // A striker with no strike left is one no more.
        if let Some(u) = striker
            && s.units
                .get(usize::from(u))
                .is_some_and(|u| u.strikes_left == 0)
        {
            f.strikers &= !1u64.wrapping_shl(u32::from(u));
        }
        let Some(t) = target.filter(|&t| s.units.get(usize::from(t)).is_some_and(Unit::is_slain))
        else {
            return Some(f);
        };
        // An enemy stands on a hex of its own: its hex goes.
        f.hexes &= !s.units[usize::from(t)].hex_bit();
        Some(f)
    }
}
