//! The battle's actions: listing what the side to act may do, and checking
//! and carrying out one (maneuvers, entries, strikes, carries, concession).

use super::*;
use crate::script::F;

impl State {
    /// Makes `self` a copy of `src`, reusing `self`'s buffers: `apply`
    /// keeps a spare state and copies into it, so that copying the state
    /// before an action allocates nothing on the common path. Every field
    /// is named, so a field added later does not compile until it is copied.
    fn copy_from(&mut self, src: &State) {
        let State {
            units,
            phase,
            moving,
            defender_maneuver,
            entered,
            attacker_edge,
            summon,
            defender_slain_now,
            summoned,
            reinforced,
            carry,
            result,
            fixed_dice,
            conceded,
            vars,
            overlay,
            extra,
            reinforcement_round,
        } = src;
        self.units.clone_from(units);
        self.phase = *phase;
        self.moving = *moving;
        self.defender_maneuver = *defender_maneuver;
        self.entered = *entered;
        self.attacker_edge = *attacker_edge;
        self.summon = *summon;
        self.defender_slain_now = *defender_slain_now;
        self.summoned = *summoned;
        self.reinforced = *reinforced;
        self.carry = *carry;
        // The result is some 330 bytes, and none until the battle ends:
        // `clone_from` would copy a whole `None` over.
        if !(result.is_none() && self.result.is_none()) {
            self.result.clone_from(result);
        }
        if !(fixed_dice.is_empty() && self.fixed_dice.is_empty()) {
            self.fixed_dice.clone_from(fixed_dice);
        }
        self.conceded = *conceded;
        if !(vars.is_empty() && self.vars.is_empty()) {
            self.vars.clone_from(vars);
        }
        self.overlay.clone_from(overlay);
        self.extra.clone_from(extra);
        self.reinforcement_round = *reinforcement_round;
    }
}

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
    at: [UnitId; HEX_COUNT + 1],
    /// The enemies in unit order (`list[..n]`): at most one per hex.
    list: [UnitId; HEX_COUNT + 1],
    n: usize,
    /// The hexes holding a character (as `occupied_set`).
    occupied: HexSet,
}

impl Foes {
    fn of(s: &State, striking: BattleSide) -> Foes {
        let mut foes = Foes {
            striking,
            hexes: 0,
            at: [0; HEX_COUNT + 1],
            list: [0; HEX_COUNT + 1],
            n: 0,
            occupied: 0,
        };
        // Without a branch per unit: which units are enemies is what a
        // predictor cannot guess.
        for (j, t) in s.units.iter().enumerate() {
            let b = t.hex_bit();
            foes.occupied |= b;
            let foe = (b != 0) & (t.side != striking) & (t.damage < t.power);
            foes.hexes |= b & (foe as HexSet).wrapping_neg();
            // Off the battleland: the spare last entry.
            let h = (b.trailing_zeros() as usize).min(HEX_COUNT);
            foes.at[h] = if foe { j as UnitId } else { foes.at[h] };
            foes.list[foes.n] = j as UnitId;
            foes.n += usize::from(foe);
        }
        foes
    }

    /// The enemies on `hexes` (some of [`Foes::hexes`]), in unit order as
    /// the listing goes.
    fn on(&self, hexes: HexSet) -> impl Iterator<Item = UnitId> {
        let mut found = [UnitId::MAX; HEX_COUNT];
        let mut n = 0;
        for h in tables::hexes(hexes & self.hexes) {
            found[n] = self.at[h.0 as usize];
            n += 1;
        }
        found[..n].sort_unstable();
        found.into_iter().take(n)
    }

    /// Every enemy, in unit order.
    fn all(&self) -> &[UnitId] {
        &self.list[..self.n]
    }

    /// The same as [`Foes::of`] would find (the `at` of hexes left out
    /// aside), for the checks of debug builds.
    fn same(&self, other: &Foes) -> bool {
        (self.striking, self.hexes, self.occupied, self.all())
            == (other.striking, other.hexes, other.occupied, other.all())
    }
}

/// Where listing puts the actions: a list, or a [`Pick`].
pub(super) trait ActionSink {
    fn push(&mut self, a: Action);
    /// Moves of `unit` to each hex of `set`, in hex order.
    fn moves(&mut self, unit: UnitId, set: HexSet);
    /// Actions put so far.
    fn len(&self) -> usize;
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
    Moves(UnitId, HexSet),
    /// Any other action: `others[i]`.
    Other(u32),
}

impl Run {
    /// The actions the run stands for.
    pub(super) fn count(&self) -> usize {
        match *self {
            Run::Moves(_, set) => set.count_ones() as usize,
            _ => 1,
        }
    }
}

/// The lists [`Battle::pick_action`] fills, kept between calls.
#[derive(Debug, Default)]
pub(super) struct PickLists {
    pub runs: Vec<Run>,
    pub others: Vec<Action>,
    /// The generation of the state the runs list (`Battle::generation`).
    pub listed: Option<u64>,
    /// How the next listing derives from these runs (see `relist`).
    pub relist: Option<super::relist::Relist>,
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
            self.runs.push(Run::Moves(unit, set));
            self.n += set.count_ones() as usize;
        }
    }
    fn len(&self) -> usize {
        self.n
    }
}

/// A generator's position (see [`Battle::take_back`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RngMark {
    seed: u64,
    pos: u128,
}

impl<'v> Battle<'v> {
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
            return match run {
                Run::Strike(unit, target) => Some(Action::Strike {
                    unit,
                    target,
                    strike_number: None,
                    forgo_bonus: false,
                }),
                Run::Rangestrike(unit, target) => Some(Action::Rangestrike { unit, target }),
                Run::Moves(unit, set) => hexes(set).nth(k).map(|h| Action::Move { unit, to: h }),
                Run::Other(i) => others.get(i as usize).cloned(),
            };
        }
        None
    }

    /// Lists the actions of [`Battle::legal_actions`] into `out`, in its
    /// order.
    fn list(&self, out: &mut impl ActionSink) {
        let s = &self.state;
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
                if s.extra.is_empty() && s.overlay.is_none() {
                    self.list_plain_moves(s, occupied, out);
                } else {
                    self.list_moves(s, occupied, out);
                }
                if self.may_summon(s) {
                    for (c, &(_, ch)) in self.setup.summonable.iter().enumerate() {
                        let from = From::Edge(s.attacker_edge);
                        self.each_reached(s, ch, from, occupied, |h| {
                            out.push(Action::Summon {
                                choice: c as u8,
                                to: h,
                            })
                        });
                    }
                }
                if self.may_reinforce(s) {
                    for (c, &ch) in self.setup.reinforcements.iter().enumerate() {
                        if !self.qualifies(s, ch) {
                            continue;
                        }
                        let from = From::Edge(s.attacker_edge.opposite());
                        self.each_reached(s, ch, from, occupied, |h| {
                            out.push(Action::Reinforce {
                                choice: c as u8,
                                to: h,
                            })
                        });
                    }
                }
                out.push(Action::EndManeuver);
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
                        debug_assert!(f.same(&Foes::of(s, striking)));
                        f
                    }
                    _ => {
                        let f = Foes::of(s, striking);
                        self.foes_now.set(Some(f));
                        f
                    }
                };
                let (enemies, occupied) = (foes.hexes, foes.occupied);
                // A character in contact that has not struck (as `must_strike`).
                let mut must = false;
                for i in units_where(&s.units, |u| (u.side == striking) & (u.strikes_left > 0)) {
                    let u = &s.units[i];
                    // A rider strikes by its mount's hex.
                    let Some(h) = s.place(i) else { continue };
                    let contact = self.contact_at(s, h) & enemies;
                    if contact != 0 {
                        // Obliged to strike only when some target is allowed
                        // (`may_target`).
                        let before = out.len();
                        for j in foes.on(contact) {
                            if self.may_target(s, i as UnitId, j, false).unwrap_or(false) {
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
                            for &j in foes.all() {
                                if seen & s.units[j as usize].hex_bit() != 0
                                    && self.may_rangestrike_seen(s, i as UnitId, j)
                                    && self.may_target(s, i as UnitId, j, true).unwrap_or(false)
                                {
                                    out.push(Action::Rangestrike {
                                        unit: i as UnitId,
                                        target: j,
                                    });
                                }
                            }
                            continue;
                        }
                        for &j in foes.all() {
                            if self.may_rangestrike(s, i as UnitId, j, occupied)
                                && self.may_target(s, i as UnitId, j, true).unwrap_or(false)
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
        let mut memo = self.reach_memo.borrow_mut();
        let memo = memo.of(self.generation.get());
        for i in units_where(&s.units, |u| (u.side == moving) & !u.moved & !u.locked) {
            let u = &s.units[i];
            let from = match u.status {
                Status::OnBoard(h) => From::Hex(h),
                _ => match self.move_origin(s, u) {
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
    fn move_reach(&self, s: &State, i: usize, from: From, occupied: HexSet) -> HexSet {
        if from != From::Area && s.extra(i) == extra::UnitExtra::default() {
            self.memo_reach(s, i, s.units[i].character, from, occupied)
        } else {
            self.unit_reach(s, i, from, occupied)
        }
    }

    /// May `character` move from `from` to `to`?
    fn reaches(
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

    /// Brings a summoned character (attacker) or a reinforcement (defender)
    /// onto `to`, which it must reach from its side's edge this phase.
    pub(super) fn enter_newcomer(
        &self,
        s: &mut State,
        ch: CharacterId,
        side: BattleSide,
        to: HexId,
        what: &str,
    ) -> Result<(), BattleError> {
        let edge = match side {
            BattleSide::Attacker => s.attacker_edge,
            BattleSide::Defender => s.attacker_edge.opposite(),
        };
        if !self.reaches(s, ch, From::Edge(edge), occupied_set(s), to) {
            let whose = match side {
                BattleSide::Attacker => "attacker",
                BattleSide::Defender => "defender",
            };
            return refuse(format!(
                "{what} enters from the {whose}'s side and cannot reach {}",
                to.label()
            ));
        }
        s.units.push(Unit {
            character: ch,
            side,
            power: self.variant.character(ch).power,
            status: Status::OnBoard(to),
            damage: 0,
            moved: true,
            locked: false,
            strikes_left: 0,
        });
        Ok(())
    }

    /// Applies an action; on error the battle is unchanged.
    pub fn apply(&mut self, action: Action) -> Result<Vec<BattleEvent>, BattleError> {
        // Room for an action's events (a strike, a slaying, a new phase).
        let mut ev = Vec::with_capacity(8);
        self.apply_into(action, &mut ev)?;
        Ok(ev)
    }

    /// [`Battle::apply`] with the events appended to `events` (a caller
    /// that plays many actions can keep one list); on error the battle and
    /// `events` are unchanged.
    pub fn apply_into(
        &mut self,
        action: Action,
        events: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        action
            .check_ids(&self.variant)
            .map_err(BattleError::Refused)?;
        let listed = events.len();
        let generation = self.generation.get();
        // The generator's position, not a copy of it: restoring is rare
        // (only when the action is refused after a draw).
        let (seed, pos) = {
            let rng = self.rng.borrow();
            (rng.seed(), rng.word_pos())
        };
        // The action changes a copy of the state in the spare one (its
        // buffers kept from the previous action); the copy becomes the
        // state only if the action succeeds.
        let done = {
            let mut spare = self.spare.borrow_mut();
            let next = match &mut *spare {
                Some(next) => {
                    next.copy_from(&self.state);
                    next
                }
                None => spare.insert(Box::new((*self.state).clone())),
            };
            self.occupied_next.set(None);
            let done = self.step(next, &action, events);
            let foes = done
                .as_ref()
                .ok()
                .and_then(|_| self.foes_after(next, &action));
            self.state_changed();
            self.foes_now.set(foes);
            done
        };
        match done {
            Ok(()) => {
                if let Some(next) = self.spare.get_mut() {
                    std::mem::swap(&mut self.state, next);
                }
                self.occupied_now.set(self.occupied_next.take());
                self.undoable = true;
                if let Some(before) = &*self.spare.borrow() {
                    self.note_relist(before, &action, generation);
                }
                Ok(())
            }
            Err(e) => {
                events.truncate(listed);
                self.undoable = false;
                self.rewind(RngMark { seed, pos });
                Err(e)
            }
        }
    }

    /// The listing's [`Foes`] of the state `s` that `action` (carried out
    /// on the current state) led to, from those of the current state: a
    /// strike, rangestrike or carry-over without scripts moves and adds
    /// nobody, so only the enemies it slew leave them. None when unknown.
    fn foes_after(&self, s: &State, action: &Action) -> Option<Foes> {
        let strike = matches!(
            action,
            Action::Strike { .. } | Action::Rangestrike { .. } | Action::CarryOver { .. }
        );
        if !strike || self.hooks().is_some() {
            return None;
        }
        let mut f = self.foes_now.get()?;
        let striking = f.striking;
        if s.phase != (Phase::Strike { striking }) || s.units.len() != self.state.units.len() {
            return None;
        }
        let mut n = 0;
        for k in 0..f.n {
            let t = &s.units[f.list[k] as usize];
            if t.damage < t.power {
                f.list[n] = f.list[k];
                n += 1;
            } else {
                f.hexes &= !t.hex_bit();
            }
        }
        f.n = n;
        Some(f)
    }

    /// Where the battle's generator is, for [`Battle::take_back`].
    pub(crate) fn rng_mark(&self) -> RngMark {
        let rng = self.rng.borrow();
        RngMark {
            seed: rng.seed(),
            pos: rng.word_pos(),
        }
    }

    /// Puts the generator back at `mark` if it moved since.
    fn rewind(&self, mark: RngMark) {
        let mut rng = self.rng.borrow_mut();
        if (rng.seed(), rng.word_pos()) != (mark.seed, mark.pos) {
            *rng = GameRng::at(mark.seed, mark.pos);
        }
    }

    /// Takes back the action [`Battle::apply`] last carried out: the state
    /// it replaced (kept in the spare) and the generator at `mark` (taken
    /// by [`Battle::rng_mark`] before that action). For a game whose own
    /// action is refused after its battle's action succeeded. Does nothing
    /// (false) when the last `apply` failed or was already taken back.
    pub(crate) fn take_back(&mut self, mark: RngMark) -> bool {
        if !std::mem::replace(&mut self.undoable, false) {
            return false;
        }
        if let Some(prev) = self.spare.get_mut() {
            std::mem::swap(&mut self.state, prev);
        }
        self.state_changed();
        self.rewind(mark);
        true
    }

    pub(super) fn step(
        &self,
        s: &mut State,
        action: &Action,
        ev: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        self.step_rules(s, action, ev)?;
        self.fire_slain(s, ev, 0)
    }

    fn step_rules(
        &self,
        s: &mut State,
        action: &Action,
        ev: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        if s.phase == Phase::Over {
            return Err(BattleError::Over);
        }
        if let Action::Concede(side) = action {
            if s.carry.is_some() {
                return refuse("carry-over hits are pending: carry them over or drop them first");
            }
            ev.push(BattleEvent::Conceded(*side));
            s.conceded = Some(*side);
            // A unit of the other legion bound to fight for this side
            // (`bound`) is not of the conceding legion: it is spared, and
            // the conceding side loses all the same.
            let mut spared = false;
            for i in 0..s.units.len() {
                let u = &s.units[i];
                if u.side == *side
                    && matches!(
                        u.status,
                        Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
                    )
                {
                    if s.bound_away(i) {
                        spared = true;
                    } else {
                        s.units[i].damage = s.units[i].power;
                    }
                }
            }
            let winner = spared.then_some(match side {
                BattleSide::Attacker => Winner::Defender,
                BattleSide::Defender => Winner::Attacker,
            });
            self.finish(s, ev, winner);
            return Ok(());
        }
        match (s.phase, action) {
            (Phase::ChooseEdge, Action::ChooseEdge(e)) => {
                if !self.variant.rules.battle.attacker_edges.contains(e) {
                    return refuse(format!(
                        "the attacker may enter only by {:?}",
                        self.variant.rules.battle.attacker_edges
                    ));
                }
                s.attacker_edge = *e;
                ev.push(BattleEvent::EdgeChosen(*e));
                s.moving = BattleSide::Defender;
                s.phase = Phase::Maneuver;
                self.begin_maneuver(s, ev)?;
            }
            (Phase::Maneuver, Action::Move { unit, to }) => {
                let u = s
                    .units
                    .get(*unit as usize)
                    .ok_or(BattleError::NoUnit(*unit))?;
                if u.side != s.moving {
                    return refuse(
                        "only the moving player's characters move (Law of the Battlelands 26.A)",
                    );
                }
                let Some(from) = self.move_origin(s, u) else {
                    return refuse(if matches!(u.status, Status::Riding(_)) {
                        "a rider moves only with its mount (it has no move of its own)"
                    } else if u.moved {
                        "a character moves once per maneuver phase (Law of the Battlelands 26.A)"
                    } else if u.locked {
                        "a character in contact at the start of the maneuver phase cannot move (Law of the Battlelands 26.C)"
                    } else {
                        match u.status {
                            Status::Gone(Fate::NotEntered) => {
                                "this character failed to enter in its side's first maneuver phase and is out of the battle (Law of the Battlelands 25.D)"
                            }
                            Status::Gone(_) => "this character is out of the battle",
                            _ => {
                                "characters enter only in their side's first maneuver phase (Law of the Battlelands 25.D)"
                            }
                        }
                    });
                };
                // `s` is still the current state: its occupancy is known
                // when the listing just worked it out.
                let occupied = self.occupied_now.get().unwrap_or_else(|| occupied_set(s));
                if self.move_reach(s, *unit as usize, from, occupied) & bit(*to) == 0 {
                    return refuse(format!(
                        "{} cannot reach {} this phase",
                        self.variant.character(u.character).name,
                        to.label()
                    ));
                }
                let old = u.hex();
                // The path's length is worked out only for a script that listens.
                let steps = self
                    .hooked("unit_moved")
                    .then(|| self.unit_steps(s, *unit as usize, from, occupied, *to));
                let u = &mut s.units[*unit as usize];
                u.status = Status::OnBoard(*to);
                u.moved = true;
                if self.lua.is_none() {
                    // Nothing else changes the state: the next listing's
                    // occupancy, carried over.
                    let left = old.map_or(0, bit);
                    self.occupied_next.set(Some(occupied & !left | bit(*to)));
                }
                ev.push(BattleEvent::Moved {
                    unit: *unit,
                    from: old,
                    to: *to,
                });
                if let Some(steps) = steps {
                    let side = crate::script::side_name(s.moving);
                    let (from_label, to_label) = (old.map(|h| h.label()), to.label());
                    let mut fields = vec![
                        ("unit", F::I(i64::from(*unit))),
                        ("side", F::W(side)),
                        ("to", F::S(&to_label)),
                        ("steps", F::I(i64::from(steps))),
                    ];
                    if let Some(f) = &from_label {
                        fields.push(("from", F::S(f)));
                    }
                    self.fire(s, ev, "unit_moved", &fields)?;
                }
                // The label is worded only for a script that listens.
                if old.is_none() && self.hooked("unit_entered") {
                    let side = crate::script::side_name(s.moving);
                    let label = to.label();
                    self.fire(
                        s,
                        ev,
                        "unit_entered",
                        &[
                            ("unit", F::I(i64::from(*unit))),
                            ("side", F::W(side)),
                            ("hex", F::S(&label)),
                        ],
                    )?;
                }
            }
            (Phase::Maneuver, Action::Summon { choice, to }) => {
                if !self.may_summon(s) {
                    return refuse(
                        "no summon now: only in the attacker's first maneuver after the first strike phase that slays a defender, once, into a legion of fewer than 7 (Law of the Battlelands 28.A)",
                    );
                }
                let &(legion, ch) =
                    self.setup.summonable.get(*choice as usize).ok_or_else(|| {
                        BattleError::Refused(format!("no summonable character {choice}"))
                    })?;
                self.enter_newcomer(s, ch, BattleSide::Attacker, *to, "a summoned character")?;
                s.summoned = Some((legion, ch));
                s.summon = SummonState::Done;
                ev.push(BattleEvent::Summoned {
                    unit: (s.units.len() - 1) as UnitId,
                    legion,
                });
            }
            (Phase::Maneuver, Action::Reinforce { choice, to }) => {
                let now = s.moving == BattleSide::Defender
                    && s.defender_maneuver == s.reinforcement_round(&self.variant);
                if now
                    && let Some(&ch) = self.setup.reinforcements.get(*choice as usize)
                    && !self.qualifies(s, ch)
                {
                    return refuse(
                        "the defender's living characters do not qualify to muster that reinforcement: slain characters do not count (reference sheet, Reinforcement)",
                    );
                }
                if !self.may_reinforce(s) {
                    return refuse(match s.reinforcement_round {
                        None => "no reinforcement now: only in the defender's fourth maneuver phase, once, into a legion of fewer than 7 (Law of the Battlelands 28.B)".to_string(),
                        Some(r) => format!(
                            "no reinforcement now: only in the defender's maneuver phase of round {r} (a script moved it), once, into a legion of fewer than 7 (Law of the Battlelands 28.B)"
                        ),
                    });
                }
                let &ch = self
                    .setup
                    .reinforcements
                    .get(*choice as usize)
                    .ok_or_else(|| BattleError::Refused(format!("no reinforcement {choice}")))?;
                self.enter_newcomer(s, ch, BattleSide::Defender, *to, "a reinforcement")?;
                s.reinforced = Some(ch);
                ev.push(BattleEvent::Reinforced {
                    unit: (s.units.len() - 1) as UnitId,
                });
            }
            (Phase::Maneuver, Action::EndManeuver) => {
                let side = s.moving;
                self.fire(
                    s,
                    ev,
                    "battle_phase_end",
                    &[
                        ("phase", F::W("maneuver")),
                        ("side", F::W(crate::script::side_name(side))),
                    ],
                )?;
                if s.phase == Phase::Over {
                    return Ok(());
                }
                if !s.entered[side_index(side)] {
                    // Law of the Battlelands 25.D: not brought on, eliminated.
                    for (i, u) in s.units.iter_mut().enumerate() {
                        if u.side == side && u.status == Status::Waiting {
                            u.status = Status::Gone(Fate::NotEntered);
                            ev.push(BattleEvent::NotEntered { unit: i as UnitId });
                        }
                    }
                    s.entered[side_index(side)] = true;
                }
                if side == BattleSide::Attacker && s.summon == SummonState::Open {
                    // Not taken now, lost for this battle (reference sheet).
                    s.summon = SummonState::Done;
                }
                if self.check_end(s, ev) {
                    return Ok(());
                }
                self.begin_strikes(s, side, ev)?;
            }
            (
                Phase::Strike { striking },
                Action::Strike {
                    unit,
                    target,
                    strike_number,
                    forgo_bonus,
                },
            ) => {
                if s.carry.is_some() {
                    return refuse("carry-over hits are pending");
                }
                self.check_striker(s, striking, *unit)?;
                if !self.is_contact_target(s, *unit, *target) {
                    Self::not_a_rider(s, *target)?;
                    return refuse(
                        "a strike needs a living enemy in contact (reference sheet, \"Strike Phase\")",
                    );
                }
                let p = self.strike_params(s, *unit, *target, *forgo_bonus)?;
                let sn = match strike_number {
                    None => p.strike_number,
                    Some(n)
                        if *n >= p.strike_number
                            && *n <= self.variant.rules.strike_chart.max.max(6) =>
                    {
                        *n
                    }
                    Some(n) => {
                        return refuse(format!(
                            "a declared strike number must be at least the {} needed and at most 6 (not {n})",
                            p.strike_number
                        ));
                    }
                };
                if !self.may_target(s, *unit, *target, false)? {
                    return refuse(
                        "the variant's rules do not let this character strike that target (may_target)",
                    );
                }
                let Some((sn, dice, carry)) =
                    self.before_strike(s, ev, *unit, *target, false, sn, p.dice)?
                else {
                    Self::spend_strike(s, *unit);
                    return Ok(());
                };
                let (rolls, hits) = self.roll(s, dice, sn);
                Self::spend_strike(s, *unit);
                ev.push(BattleEvent::Struck {
                    unit: *unit,
                    target: *target,
                    ranged: false,
                    strike_number: sn,
                    rolls,
                    hits,
                });
                let dealt = self.before_damage(s, ev, *target, hits, "strike", Some(*unit))?;
                if s.phase == Phase::Over {
                    return Ok(());
                }
                let mut excess = self.damage(s, *target, dealt, ev);
                if !carry {
                    excess = 0;
                }
                if self.titan_check_hit(s, ev, *target) {
                    return Ok(());
                }
                self.after_strike(s, ev, *unit, *target, false, hits, excess)?;
                if s.phase == Phase::Over {
                    return Ok(());
                }
                if excess > 0 {
                    let c = Carry {
                        striker: *unit,
                        hits: excess,
                        strike_number: sn,
                        bonus_skill: p.bonus_skill,
                        bonus_dice: p.bonus_dice,
                        forgo: *forgo_bonus,
                        first: *target,
                    };
                    if self.carries_any(s, c)? {
                        s.carry = Some(c);
                    }
                }
            }
            (Phase::Strike { .. }, Action::CarryOver { target }) => {
                let Some(c) = s.carry else {
                    return refuse("no hits to carry over");
                };
                if let Some(t) = target {
                    if !self.carry_targets(s, c)?.contains(t) {
                        return refuse(
                            "carry-over goes only to another enemy in contact that needs no higher strike number and gets the same hazard bonuses (reference sheet, \"Strike Phase\")",
                        );
                    }
                    s.carry = None;
                    ev.push(BattleEvent::CarriedOver {
                        target: *t,
                        hits: c.hits,
                    });
                    let dealt =
                        self.before_damage(s, ev, *t, c.hits, "carry_over", Some(c.striker))?;
                    if s.phase == Phase::Over {
                        return Ok(());
                    }
                    let excess = self.damage(s, *t, dealt, ev);
                    if self.titan_check_hit(s, ev, *t) {
                        return Ok(());
                    }
                    if excess > 0 {
                        let c2 = Carry { hits: excess, ..c };
                        if self.carries_any(s, c2)? {
                            s.carry = Some(c2);
                        }
                    }
                } else {
                    s.carry = None;
                }
            }
            (Phase::Strike { striking }, Action::Rangestrike { unit, target }) => {
                if s.carry.is_some() {
                    return refuse("carry-over hits are pending");
                }
                self.check_striker(s, striking, *unit)?;
                Self::not_a_rider(s, *target)?;
                if striking != s.moving {
                    return refuse(
                        "only the moving player rangestrikes (Law of the Battlelands 27.A)",
                    );
                }
                let (p, _) = self.rangestrike_eval(s, *unit, *target)?;
                if !self.may_target(s, *unit, *target, true)? {
                    return refuse(
                        "the variant's rules do not let this character rangestrike that target (may_target)",
                    );
                }
                let Some((sn, dice, _)) =
                    self.before_strike(s, ev, *unit, *target, true, p.strike_number, p.dice)?
                else {
                    s.units[*unit as usize].strikes_left -= 1;
                    return Ok(());
                };
                let (rolls, hits) = self.roll(s, dice, sn);
                s.units[*unit as usize].strikes_left -= 1;
                ev.push(BattleEvent::Struck {
                    unit: *unit,
                    target: *target,
                    ranged: true,
                    strike_number: sn,
                    rolls,
                    hits,
                });
                // Law of the Battlelands 27.A: rangestrikes never carry over.
                let dealt = self.before_damage(s, ev, *target, hits, "rangestrike", Some(*unit))?;
                if s.phase == Phase::Over {
                    return Ok(());
                }
                self.damage(s, *target, dealt, ev);
                if self.titan_check_hit(s, ev, *target) {
                    return Ok(());
                }
                self.after_strike(s, ev, *unit, *target, true, hits, 0)?;
            }
            (Phase::Strike { striking }, Action::EndStrikes) => {
                if s.carry.is_some() {
                    return refuse("carry-over hits are pending");
                }
                // Listed just before with nobody obliged: no need to look.
                let obliged = if self.ends_freely.get() {
                    None
                } else {
                    self.must_strike(s)
                };
                if let Some(u) = obliged {
                    return refuse(format!(
                        "{} in {} is in contact and must strike (reference sheet, \"Strike Phase\")",
                        self.variant.character(s.units[u as usize].character).name,
                        s.place(u as usize).map(HexId::label).unwrap_or_default()
                    ));
                }
                if self.hooks().is_some() {
                    self.fire(
                        s,
                        ev,
                        "battle_phase_end",
                        &[
                            ("phase", F::W("strike")),
                            ("side", F::W(crate::script::side_name(striking))),
                        ],
                    )?;
                }
                if s.phase == Phase::Over {
                    return Ok(());
                }
                if striking == s.moving {
                    // (begin_strikes sets the phase; a handler of its
                    // battle_phase_start may have ended the battle.)
                    self.begin_strikes(s, striking.other(), ev)?;
                } else {
                    self.end_strike_phase(s, ev)?;
                }
            }
            (Phase::Maneuver | Phase::Strike { .. }, Action::Script { name, unit, args }) => {
                self.apply_script(s, ev, name, *unit, args)?;
            }
            (phase, action) => {
                return refuse(format!(
                    "{action:?} is not an action of the {phase:?} phase"
                ));
            }
        }
        Ok(())
    }

    /// A strike spends all the unit's strikes of the phase (a rangestriker
    /// with several rangestrikes strikes once), or one of those a script set
    /// (`ctx:set_unit(u, "strikes", n)`).
    fn spend_strike(s: &mut State, unit: UnitId) {
        let set = s.extra(unit as usize).strikes_set;
        let u = &mut s.units[unit as usize];
        u.strikes_left = if set {
            u.strikes_left.saturating_sub(1)
        } else {
            0
        };
    }

    pub(super) fn check_striker(
        &self,
        s: &State,
        striking: BattleSide,
        unit: UnitId,
    ) -> Result<(), BattleError> {
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        if u.side != striking {
            return refuse("not this side's strikes");
        }
        if s.place(unit as usize).is_none() {
            return refuse("this character is not on the battleland");
        }
        if u.strikes_left == 0 {
            return refuse(
                "a character strikes once per strike phase (reference sheet, \"Strike Phase\")",
            );
        }
        Ok(())
    }

    /// Refuses a strike at a rider: only its mount is a target while it
    /// carries it (`ctx:mount`).
    fn not_a_rider(s: &State, target: UnitId) -> Result<(), BattleError> {
        match s.units.get(target as usize).map(|t| t.status) {
            Some(Status::Riding(m)) => refuse(format!(
                "unit {target} rides unit {m}: only its mount may be struck while it carries it"
            )),
            _ => Ok(()),
        }
    }

    /// Where a character of the moving side may move from now, if it may.
    pub(super) fn move_origin(&self, s: &State, u: &Unit) -> Option<From> {
        if u.moved || u.locked {
            return None;
        }
        match u.status {
            Status::OnBoard(h) => Some(From::Hex(h)),
            Status::Waiting if !s.entered[side_index(u.side)] => {
                if u.side == BattleSide::Defender && !self.land().defender_area.is_empty() {
                    // Law of the Battlelands 25.B: the Tower's defender deploys.
                    Some(From::Area)
                } else {
                    Some(From::Edge(match u.side {
                        BattleSide::Attacker => s.attacker_edge,
                        BattleSide::Defender => s.attacker_edge.opposite(),
                    }))
                }
            }
            _ => None,
        }
    }

    /// Whether `side`'s legion has room for one more character:
    /// `rules.legions.max_size`, the `uncounted` not counted.
    fn has_room(&self, s: &State, side: BattleSide) -> bool {
        let v = &*self.variant;
        let living = s.units.iter().filter(|u| u.side == side && u.alive());
        v.legion_size(living.map(|u| u.character)) < v.rules.legions.max_size as usize
    }

    pub(super) fn may_summon(&self, s: &State) -> bool {
        s.phase == Phase::Maneuver
            && s.moving == BattleSide::Attacker
            && s.summon == SummonState::Open
            && s.summoned.is_none()
            && !self.setup.summonable.is_empty()
            && self.has_room(s, BattleSide::Attacker)
    }

    pub(super) fn may_reinforce(&self, s: &State) -> bool {
        s.phase == Phase::Maneuver
            && s.moving == BattleSide::Defender
            && s.defender_maneuver == s.reinforcement_round(&self.variant)
            && s.reinforced.is_none()
            && self
                .setup
                .reinforcements
                .iter()
                .any(|&c| self.qualifies(s, c))
            && self.has_room(s, BattleSide::Defender)
    }

    /// Whether the defender's living characters qualify to muster `recruit`
    /// as a reinforcement: "not counting characters already slain"
    /// (reference sheet, Reinforcement; Law of Titan 1980 13.A).
    pub(super) fn qualifies(&self, s: &State, recruit: CharacterId) -> bool {
        let living: Vec<CharacterId> = s
            .units
            .iter()
            .filter(|u| u.side == BattleSide::Defender && u.alive())
            .map(|u| u.character)
            .collect();
        let mut judge = |h: crate::model::HookId, r: CharacterId, chars: &[CharacterId]| {
            let args: Vec<u16> = std::iter::once(r.0)
                .chain(chars.iter().map(|c| c.0))
                .collect();
            self.lua.as_ref().is_some_and(|lua| {
                lua.call_hook::<_, bool>(
                    &self.variant.hooks[h.index()],
                    mlua::Variadic::from_iter(args),
                )
                .unwrap_or(false)
            })
        };
        crate::game::muster::options(&self.variant, self.setup.terrain, &living, &mut judge)
            .iter()
            .any(|o| o.recruit == recruit)
    }
}
