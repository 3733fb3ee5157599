//! The battle's actions: checking and carrying out one (maneuvers,
//! entries, strikes, carries, concession) on a copy of the state, or in
//! place where nothing can refuse it or take it back. Listing them is
//! `listing.rs`.

use super::listing::Run;
use super::*;
use crate::format::Round;
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
            game_vars,
            choice,
            overlay,
            extra,
            reinforcement_round,
            teams,
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
        if !(game_vars.is_empty() && self.game_vars.is_empty()) {
            self.game_vars.clone_from(game_vars);
        }
        if !(choice.is_none() && self.choice.is_none()) {
            self.choice.clone_from(choice);
        }
        self.overlay.clone_from(overlay);
        self.extra.clone_from(extra);
        self.reinforcement_round = *reinforcement_round;
        if teams.active() || self.teams.active() {
            self.teams.clone_from(teams);
        }
    }
}

/// A generator's position (see [`Battle::take_back`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RngMark {
    seed: u64,
    pos: u128,
}

impl<'v> Battle<'v> {
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
        let comes = if self.placing() {
            let flies = self.variant.character(ch).flies;
            self.commit_hexes(s, ch, side, flies, occupied_set(s)) & bit(to) != 0
        } else {
            self.reaches(s, ch, From::Edge(edge), occupied_set(s), to)
        };
        if !comes {
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

    /// A summoned character or a reinforcement waiting with its side's
    /// uncommitted characters (placement phases), to be committed later.
    fn newcomer_waits(&self, s: &mut State, ch: CharacterId, side: BattleSide) {
        s.units
            .push(Unit::waiting(ch, side, self.variant.character(ch).power));
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
    /// `events` are unchanged. The action may be lent (`&action`), so that
    /// a caller that keeps it copies nothing.
    pub fn apply_into(
        &mut self,
        action: impl std::borrow::Borrow<Action>,
        events: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        self.apply_action(action.borrow(), events)
    }

    fn apply_action(
        &mut self,
        action: &Action,
        events: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        if !self.keep_undo && self.lua.is_none() && self.is_listed(action) {
            return self.apply_in_place(action, events);
        }
        action
            .check_ids(&self.variant)
            .and_then(|()| action.check_board(self.board()))
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
            self.forget_next();
            let done = self.step(next, action, events, false);
            let foes = done
                .as_ref()
                .ok()
                .and_then(|_| self.foes_after(next, action, self.state.units.len()));
            self.state_changed();
            self.foes_now.set(foes);
            done
        };
        match done {
            Ok(()) => {
                if let Some(next) = self.spare.get_mut() {
                    std::mem::swap(&mut self.state, next);
                }
                self.take_next();
                self.undoable = true;
                // What the next listing may derive from this one.
                match action {
                    Action::Move { .. } => self.note_movers(action, generation),
                    Action::Strike { .. } | Action::Rangestrike { .. } => {
                        if let Some(before) = &*self.spare.borrow() {
                            let b = (before.phase, before.units.len(), Some(&**before));
                            self.note_relist(b, action, generation);
                        }
                    }
                    _ => {}
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

    /// Picks an action as [`Battle::pick_action`] does and carries it out
    /// as [`Battle::apply_into`] does: whether there was one to pick, or
    /// the action and why it was not carried out. For a random player's or
    /// a search's playouts: in a battle changed in place (not marked
    /// [`Battle::keep_undo`], without scripts) the action is known to be
    /// listed, so neither its place in the listing is looked up nor the
    /// checks listing made are made again.
    pub fn play_picked(
        &mut self,
        pick: impl FnOnce(usize) -> usize,
        events: &mut Vec<BattleEvent>,
    ) -> Result<bool, Box<(Action, BattleError)>> {
        let Some((action, found)) = self.pick_listed(pick) else {
            return Ok(false);
        };
        let done = if found && !self.keep_undo && self.lua.is_none() {
            debug_assert!(self.is_listed(&action));
            self.apply_in_place(&action, events)
        } else {
            self.apply_action(&action, events)
        };
        match done {
            Ok(()) => Ok(true),
            Err(e) => Err(Box::new((action, e))),
        }
    }

    /// Forgets what the last step found of the state it made.
    fn forget_next(&self) {
        self.occupied_next.set(None);
        self.movers_next.set(None);
        self.gone_next.set(0);
    }

    /// Keeps what the step just carried out found of the state it made
    /// (its occupied hexes, the movers of the maneuver phase it began) for
    /// the state's listing, once the action succeeded and the generation
    /// moved on.
    fn take_next(&self) {
        self.occupied_now.set(self.occupied_next.take());
        if let Some(m) = self.movers_next.take() {
            self.movers.set(Some((self.generation.get(), m)));
        }
        self.gone.set(self.gone.get() | self.gone_next.take());
    }

    /// Marks a battle whose owner may take its last action back
    /// ([`Battle::take_back`], as a game does when its own action is refused
    /// after its battle's): every action then changes a copy of the state.
    /// Public so that tests outside the crate can play the checked path
    /// beside the in-place one (`core/tests/battle_shortcuts.rs`).
    pub fn keep_undo(&mut self) {
        self.keep_undo = true;
    }

    /// Was `action` listed by the last [`Battle::pick_action`], for the
    /// current state? Then, without scripts, nothing refuses it.
    fn is_listed(&self, action: &Action) -> bool {
        let lists = self.pick_lists.borrow();
        if lists.listed != Some(self.generation.get()) {
            return false;
        }
        lists.runs.iter().any(|run| match (*run, action) {
            (
                Run::Strike(u, t),
                &Action::Strike {
                    unit,
                    target,
                    strike_number: None,
                    forgo_bonus: false,
                },
            )
            | (Run::Rangestrike(u, t), &Action::Rangestrike { unit, target }) => {
                (u, t) == (unit, target)
            }
            (Run::Moves(u, _, set), &Action::Move { unit, to }) => u == unit && set & bit(to) != 0,
            (Run::EndManeuver, Action::EndManeuver) | (Run::EndStrikes, Action::EndStrikes) => true,
            _ => false,
        })
    }

    /// [`Battle::apply_action`] of a listed action without scripts, in a
    /// battle nobody takes back: the state changes in place, with no copy
    /// (the copy is some 5 per cent of a random battle). `step` reads only
    /// the state it is given, so the state is taken out of the battle while
    /// it changes, the spare standing in.
    fn apply_in_place(
        &mut self,
        action: &Action,
        events: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        let generation = self.generation.get();
        let (phase, len) = (self.state.phase, self.state.units.len());
        // The state before, for the checks of debug builds only.
        let before = cfg!(debug_assertions).then(|| (*self.state).clone());
        let stand_in = match self.spare.get_mut().take() {
            Some(spare) => spare,
            None => Box::new((*self.state).clone()),
        };
        let mut state = std::mem::replace(&mut self.state, stand_in);
        self.forget_next();
        let done = self.step(&mut state, action, events, true);
        let foes = done
            .as_ref()
            .ok()
            .and_then(|_| self.foes_after(&state, action, len));
        let stand_in = std::mem::replace(&mut self.state, state);
        *self.spare.get_mut() = Some(stand_in);
        self.state_changed();
        self.foes_now.set(foes);
        self.undoable = false;
        // A listed action is not refused: that is what listing means.
        debug_assert!(done.is_ok(), "a listed action was refused: {done:?}");
        done?;
        self.take_next();
        match action {
            Action::Move { .. } => self.note_movers(action, generation),
            Action::Strike { .. } | Action::Rangestrike { .. } => {
                self.note_relist((phase, len, before.as_ref()), action, generation)
            }
            _ => {}
        }
        Ok(())
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
    /// (false) when the last `apply` failed or was already taken back, or
    /// changed the state in place (a battle not marked
    /// [`Battle::keep_undo`]).
    pub(crate) fn take_back(&mut self, mark: RngMark) -> bool {
        if !std::mem::replace(&mut self.undoable, false) {
            return false;
        }
        if let Some(prev) = self.spare.get_mut() {
            std::mem::swap(&mut self.state, prev);
        }
        // The units the action removed are back.
        self.gone.set(0);
        self.state_changed();
        self.rewind(mark);
        true
    }

    /// Carries `action` out on `s`. `listed`: the action was listed for
    /// `s` without scripts ([`Battle::is_listed`]), so the checks that
    /// listing made already (whose unit, which hexes it reaches, who is in
    /// contact) are not made again; debug builds make them all the same.
    pub(super) fn step(
        &self,
        s: &mut State,
        action: &Action,
        ev: &mut Vec<BattleEvent>,
        listed: bool,
    ) -> Result<(), BattleError> {
        self.step_rules(s, action, ev, listed)?;
        self.fire_slain(s, ev, 0)
    }

    fn step_rules(
        &self,
        s: &mut State,
        action: &Action,
        ev: &mut Vec<BattleEvent>,
        listed: bool,
    ) -> Result<(), BattleError> {
        if s.phase == Phase::Over {
            return Err(BattleError::Over);
        }
        if s.choice.is_some() {
            self.check_choice(s, action)?;
        }
        if let Action::Concede(side) = action {
            if s.carry.is_some() {
                return refuse("carry-over hits are pending: carry them over or drop them first");
            }
            self.record(ev, || BattleEvent::Conceded(*side));
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
                self.record(ev, || BattleEvent::EdgeChosen(*e));
                s.moving = BattleSide::Defender;
                s.phase = Phase::Maneuver;
                self.begin_maneuver(s, ev)?;
            }
            (Phase::Maneuver, Action::Move { unit, to }) => {
                // `s` is still the current state: its occupancy is known
                // when the listing just worked it out.
                let occupied = self.occupied_now.get().unwrap_or_else(|| occupied_set(s));
                let from = if listed {
                    debug_assert!(self.check_move(s, *unit, *to, occupied).is_ok());
                    None
                } else {
                    Some(self.check_move(s, *unit, *to, occupied)?)
                };
                let u = &s.units[*unit as usize];
                let old = u.hex();
                // The path's length is worked out only for a script that listens.
                let steps = self
                    .hooked("unit_moved")
                    .then(|| from.or_else(|| self.move_origin(s, u)))
                    .flatten()
                    .map(|from| self.unit_steps(s, *unit as usize, from, occupied, *to));
                let u = &mut s.units[*unit as usize];
                u.status = Status::OnBoard(*to);
                u.moved = true;
                if self.lua.is_none() {
                    // Nothing else changes the state: the next listing's
                    // occupancy, carried over.
                    let left = old.map_or(0, bit);
                    self.occupied_next.set(Some(occupied & !left | bit(*to)));
                }
                self.record(ev, || BattleEvent::Moved {
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
                self.record(ev, || BattleEvent::Summoned {
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
                self.record(ev, || BattleEvent::Reinforced {
                    unit: (s.units.len() - 1) as UnitId,
                });
            }
            (Phase::Maneuver, Action::SummonUncommitted { choice }) => {
                if !self.placing() {
                    return refuse(
                        "a summoned character waits uncommitted only in placement phases (rules.battle.procedure)",
                    );
                }
                if !self.may_summon(s) {
                    return refuse(
                        "no summon now: only in the attacker's placement phase after the first strike phase that slays a defender, once, into a legion of fewer than 7 (Law of Titan 1980, 14.A)",
                    );
                }
                let &(legion, ch) =
                    self.setup.summonable.get(*choice as usize).ok_or_else(|| {
                        BattleError::Refused(format!("no summonable character {choice}"))
                    })?;
                self.newcomer_waits(s, ch, BattleSide::Attacker);
                s.summoned = Some((legion, ch));
                s.summon = SummonState::Done;
                self.record(ev, || BattleEvent::Summoned {
                    unit: (s.units.len() - 1) as UnitId,
                    legion,
                });
            }
            (Phase::Maneuver, Action::ReinforceUncommitted { choice }) => {
                if !self.placing() {
                    return refuse(
                        "a reinforcement waits uncommitted only in placement phases (rules.battle.procedure)",
                    );
                }
                let &ch = self
                    .setup
                    .reinforcements
                    .get(*choice as usize)
                    .ok_or_else(|| BattleError::Refused(format!("no reinforcement {choice}")))?;
                if !self.may_reinforce(s) || !self.qualifies(s, ch) {
                    return refuse(
                        "no reinforcement now: only in the defender's placement phase after the first strike phase that slays an attacker's character, once, into a legion of fewer than 7 that qualifies without its slain (Law of Titan 1980, 13.A)",
                    );
                }
                self.newcomer_waits(s, ch, BattleSide::Defender);
                s.reinforced = Some(ch);
                self.record(ev, || BattleEvent::Reinforced {
                    unit: (s.units.len() - 1) as UnitId,
                });
            }
            (Phase::Maneuver, Action::EndManeuver) => {
                self.check_phase_end(s)?;
                if self.placing()
                    && let Some(why) = self.placement_obliged(s)
                {
                    return refuse(why);
                }
                let side = s.moving;
                // A side of teams: the next team places.
                if self.pass_to_next_team(s, side) {
                    return Ok(());
                }
                self.fire_phase(s, ev, "battle_phase_end", "maneuver", side)?;
                if s.phase == Phase::Over {
                    return Ok(());
                }
                if !s.entered[side_index(side)] && !self.placing() {
                    // Law of the Battlelands 25.D: not brought on, eliminated.
                    for (i, u) in s.units.iter_mut().enumerate() {
                        if u.side == side && u.status == Status::Waiting {
                            u.status = Status::Gone(Fate::NotEntered);
                            self.note_gone(1u64.checked_shl(i as u32).unwrap_or(0));
                            self.record(ev, || BattleEvent::NotEntered { unit: i as UnitId });
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
                if side == BattleSide::Defender && self.procedure().round == Round::BothThenStrikes
                {
                    // Law of Titan 1980, 11.C: the attacker places next;
                    // the strikes follow its placement.
                    s.moving = BattleSide::Attacker;
                    s.phase = Phase::Maneuver;
                    self.begin_maneuver(s, ev)?;
                } else {
                    self.begin_strikes(s, side, ev)?;
                }
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
                if listed {
                    debug_assert!(self.check_strike(s, striking, *unit, *target).is_ok());
                } else {
                    self.check_strike(s, striking, *unit, *target)?;
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
                let (rolls, hits) = self.roll(s, dice, sn)?;
                Self::spend_strike(s, *unit);
                self.record(ev, || BattleEvent::Struck {
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
                    self.record(ev, || BattleEvent::CarriedOver {
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
                if !listed {
                    self.check_striker(s, striking, *unit)?;
                    Self::not_a_rider(s, *target)?;
                    if striking != s.moving {
                        return refuse(
                            "only the moving player rangestrikes (Law of the Battlelands 27.A)",
                        );
                    }
                }
                let (p, _) = self.rangestrike_eval_as(s, *unit, *target, listed)?;
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
                let (rolls, hits) = self.roll(s, dice, sn)?;
                s.units[*unit as usize].strikes_left -= 1;
                self.record(ev, || BattleEvent::Struck {
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
                self.check_phase_end(s)?;
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
                // A side of teams: the next team strikes.
                if self.pass_to_next_team(s, striking) {
                    return Ok(());
                }
                self.fire_phase(s, ev, "battle_phase_end", "strike", striking)?;
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

    /// Refuses a move the rules forbid; else where the unit moves from.
    fn check_move(
        &self,
        s: &State,
        unit: UnitId,
        to: HexId,
        occupied: HexSet,
    ) -> Result<From, BattleError> {
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        if u.side != s.moving {
            return refuse(
                "only the moving player's characters move (Law of the Battlelands 26.A)",
            );
        }
        if !s.acts(unit as usize) {
            return refuse("another team of this side is placing now");
        }
        let Some(from) = self.move_origin(s, u) else {
            if self.placing() {
                return refuse(if u.moved {
                    "a character is committed or shifts once per placement phase (Law of Titan 1980, 11.B)"
                } else if u.locked {
                    "a character that began the placement phase next to an enemy does not shift (Law of Titan 1980, 11.B)"
                } else {
                    "this character is out of the battle"
                });
            }
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
        if self.move_reach(s, unit as usize, from, occupied) & bit(to) == 0 {
            return refuse(format!(
                "{} cannot reach {} this phase",
                self.variant.character(u.character).name,
                to.label()
            ));
        }
        Ok(from)
    }

    /// Refuses a strike by `unit` at `target` that is not a striker's at a
    /// living enemy in contact.
    fn check_strike(
        &self,
        s: &State,
        striking: BattleSide,
        unit: UnitId,
        target: UnitId,
    ) -> Result<(), BattleError> {
        self.check_striker(s, striking, unit)?;
        if !self.is_contact_target(s, unit, target) {
            Self::not_a_rider(s, target)?;
            return refuse(
                "a strike needs a living enemy in contact (reference sheet, \"Strike Phase\")",
            );
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
        if !s.acts(unit as usize) {
            return refuse("another team of this side is striking now");
        }
        if let Some(first) = self.first_striker(s, striking)
            && first != unit as usize
        {
            return refuse(format!(
                "strikes go from right to left along the line: {} in {} strikes first",
                self.variant.character(s.units[first].character).name,
                s.place(first).map(HexId::label).unwrap_or_default()
            ));
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
            // Committed in any placement phase (Law of Titan 1980, 11.A).
            Status::Waiting if self.placing() => Some(From::Area),
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
        // A withdrawn unit (`ctx:withdraw`) is in its legion too.
        let living = s
            .units
            .iter()
            .filter(|u| u.side == side && (u.alive() || u.status == Status::Gone(Fate::Withdrawn)));
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
        crate::model::muster::options(&self.variant, self.setup.terrain, &living, &mut judge)
            .iter()
            .any(|o| o.recruit == recruit)
    }
}
