//! Script events of the battle (`titan.on`): firing them with a `ctx` over
//! the working copy, and applying the effects the handlers request.

use super::*;
use crate::script::{self, BattleCtx, CtxData, Effect, F};

impl<'v> Battle<'v> {
    /// Fires `event` if a script handles it, and applies its effects to `s`;
    /// returns the `ctx` (to read back fields a handler may change).
    /// Would [`Battle::fire`] call a handler for `event`?
    pub(super) fn hooked(&self, event: &'static str) -> bool {
        self.lua
            .as_ref()
            .is_some_and(|lua| self.use_hooks && lua.has_handlers(event))
    }

    /// Fires `battle_phase_start` or `battle_phase_end` (`event`) for
    /// `phase` ("maneuver" or "strike") of `side`; as [`Battle::fire`],
    /// without scripts nothing is built.
    #[inline(always)]
    pub(super) fn fire_phase(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        event: &'static str,
        phase: &'static str,
        side: BattleSide,
    ) -> Result<(), BattleError> {
        let side = crate::script::side_name(side);
        self.fire(
            s,
            ev,
            event,
            &[("phase", F::W(phase)), ("side", F::W(side))],
        )
        .map(drop)
    }

    #[inline(always)]
    pub(super) fn fire(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        event: &'static str,
        fields: &[(&'static str, F)],
    ) -> Result<Option<mlua::Table>, BattleError> {
        // Inlined (always: `#[inline]` was not taken) so that a battle
        // without scripts neither calls nor builds the fields.
        match self.hooks() {
            Some(lua) => self.fire_in(lua, s, ev, event, fields),
            None => Ok(None),
        }
    }

    /// The battle's Lua, when its handlers and hooks are called.
    #[inline(always)]
    pub(super) fn hooks(&self) -> Option<&LuaHost> {
        self.lua.as_deref().filter(|_| self.use_hooks)
    }

    #[inline(never)]
    fn fire_in(
        &self,
        lua: &LuaHost,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        event: &'static str,
        fields: &[(&'static str, F)],
    ) -> Result<Option<mlua::Table>, BattleError> {
        if !lua.has_handlers(event) {
            return Ok(None);
        }
        let base = [
            ("round", F::I(i64::from(s.defender_maneuver))),
            ("moving", F::W(script::side_name(s.moving))),
        ];
        let data = || self.snapshot_ctx_in(s, BattleCtx::recycled(lua));
        let Some(fired) = script::fire(
            lua,
            event,
            data,
            &base,
            fields,
            Some(script::Scene {
                units: &s.units,
                vars: &s.vars,
                land: self.land_in(s),
            }),
        )?
        else {
            return Ok(None);
        };
        self.apply_effects(s, ev, fired.effects);
        Ok(Some(fired.ctx))
    }

    /// Fires `event` now, with the phase and the side to act as its fields,
    /// and applies its effects (tests and benchmarks of handlers); on a
    /// script error the battle is unchanged.
    pub fn fire_event(&mut self, event: &'static str) -> Result<Vec<BattleEvent>, BattleError> {
        let mut s = (*self.state).clone();
        let mut ev = Vec::new();
        let phase = match s.phase {
            Phase::Strike { .. } => "strike",
            _ => "maneuver",
        };
        let side = script::side_name(s.to_act());
        self.fire(
            &mut s,
            &mut ev,
            event,
            &[("phase", F::W(phase)), ("side", F::W(side))],
        )?;
        *self.state = s;
        self.undoable = false;
        self.state_changed();
        Ok(ev)
    }

    /// Ends the hazard changes whose rounds are over (at the start of a
    /// battle round).
    pub(super) fn expire_hazards(&self, s: &mut State, ev: &mut Vec<BattleEvent>) {
        let Some(o) = &s.overlay else { return };
        let round = s.defender_maneuver;
        if o.changes.iter().all(|c| c.until.is_none_or(|u| u > round)) {
            return;
        }
        let (keep, gone): (Vec<_>, Vec<_>) = o
            .changes
            .iter()
            .copied()
            .partition(|c| c.until.is_none_or(|u| u > round));
        for c in gone {
            ev.push(BattleEvent::HazardRestored { hex: c.hex });
        }
        let landscape = overlay::Overlay::landscape_of(&s.overlay);
        s.overlay = overlay::Overlay::build(&self.variant, self.land(), landscape, keep);
    }

    /// Applies checked effects in order (they were checked against the same
    /// position, changed the same way); stops when the battle ends.
    fn apply_effects(&self, s: &mut State, ev: &mut Vec<BattleEvent>, effects: Vec<Effect>) {
        for e in effects {
            // Once the battle is over only variables change (a tally the
            // game keeps, of the blow that ended it); the battle does not.
            if s.phase == Phase::Over && !matches!(e, Effect::Set { .. }) {
                continue;
            }
            match e {
                Effect::Damage { unit, hits } => {
                    ev.push(BattleEvent::Damaged { unit, hits });
                    self.damage(s, unit, hits, ev);
                    self.titan_check(s, ev);
                }
                Effect::Kill { unit } => {
                    let u = &s.units[unit as usize];
                    let hits = u.power - u.damage;
                    ev.push(BattleEvent::Damaged { unit, hits });
                    self.damage(s, unit, hits, ev);
                    self.titan_check(s, ev);
                }
                Effect::Heal { unit, hits } => {
                    let u = &mut s.units[unit as usize];
                    let healed = hits.min(u.damage);
                    u.damage -= healed;
                    ev.push(BattleEvent::Healed { unit, hits: healed });
                }
                Effect::Move { unit, to } => {
                    let u = &mut s.units[unit as usize];
                    let from = u.hex();
                    u.status = Status::OnBoard(to);
                    ev.push(BattleEvent::Moved { unit, from, to });
                }
                Effect::Set {
                    variable,
                    of,
                    value,
                } => {
                    let Some(def) = self.variant.variable(&variable) else {
                        continue;
                    };
                    // Events go to both sides: only public values.
                    let public = def.visibility == crate::format::Visibility::Everyone;
                    if let crate::vars::VarTarget::Unit(unit) = of {
                        s.vars.set(def, of, value.clone());
                        if public {
                            ev.push(BattleEvent::VarSet {
                                variable,
                                unit,
                                value,
                            });
                        }
                    } else {
                        s.game_vars.set(def, of, value.clone());
                        if public {
                            ev.push(BattleEvent::GameVarSet {
                                variable,
                                of,
                                value,
                            });
                        }
                    }
                }
                // Checked away: only masterplay events award points.
                Effect::UseStrike { unit } => s.units[unit as usize].strikes_left = 0,
                Effect::Choose {
                    action,
                    unit: Some(unit),
                } => s.choice = Some((unit, action)),
                Effect::Choose { unit: None, .. } => {}
                Effect::Swap { a, b } => {
                    let (ha, hb) = (s.units[a as usize].hex(), s.units[b as usize].hex());
                    if let (Some(ha), Some(hb)) = (ha, hb) {
                        s.units[a as usize].status = Status::OnBoard(hb);
                        s.units[b as usize].status = Status::OnBoard(ha);
                        ev.push(BattleEvent::Moved {
                            unit: a,
                            from: Some(ha),
                            to: hb,
                        });
                        ev.push(BattleEvent::Moved {
                            unit: b,
                            from: Some(hb),
                            to: ha,
                        });
                    }
                }
                Effect::SetHazard {
                    hex,
                    hazard,
                    rounds,
                } => {
                    let until = rounds.map(|r| s.defender_maneuver.saturating_add(r));
                    let now = s.overlay.as_ref().map_or(&[][..], |o| &o.changes[..]);
                    let change = overlay::HazardChange { hex, hazard, until };
                    let landscape = overlay::Overlay::landscape_of(&s.overlay);
                    let base = overlay::Overlay::base_of(&landscape, self.land());
                    let changes = overlay::Overlay::with(base, now, change);
                    s.overlay =
                        overlay::Overlay::build(&self.variant, self.land(), landscape, changes);
                    ev.push(BattleEvent::HazardSet {
                        hex,
                        hazard: self.variant.hazard(hazard).name.clone(),
                        until,
                    });
                }
                Effect::SetBattleland { terrain, turns } => {
                    // The whole battleland is replaced: earlier hazard
                    // changes go with the old one; the characters stay.
                    let land = self.variant.battleland(terrain).rotated(turns);
                    let landscape = Rc::new(overlay::Landscape {
                        terrain,
                        turns,
                        land,
                    });
                    s.overlay = overlay::Overlay::build(
                        &self.variant,
                        self.land(),
                        Some(landscape),
                        Vec::new(),
                    );
                    ev.push(BattleEvent::BattlelandSet {
                        terrain: self.variant.terrains[terrain.index()].name.clone(),
                        turns,
                    });
                }
                Effect::SetUnit { unit, field } => {
                    let i = unit as usize;
                    if let extra::UnitField::Power(p) = field {
                        let u = &mut s.units[i];
                        u.power = p;
                        if u.damage >= p {
                            u.damage = p;
                            ev.push(BattleEvent::Slain { unit });
                            if u.side == BattleSide::Defender {
                                s.defender_slain_now = true;
                            }
                        }
                    }
                    if field == extra::UnitField::Locked(false) {
                        // Free at once, not only from the next maneuver phase.
                        s.units[i].locked = false;
                    }
                    if let extra::UnitField::MayStrike(false) = field {
                        s.units[i].strikes_left = 0;
                    }
                    if let extra::UnitField::Strikes(n) = field {
                        // `may_strike = false` still wins.
                        if s.extra(i).may_strike != Some(false) {
                            s.units[i].strikes_left = n;
                        }
                    }
                    s.extra_mut(i).set(field);
                    ev.push(BattleEvent::UnitChanged {
                        unit,
                        field: format!("{field:?}"),
                    });
                    self.titan_check(s, ev);
                }
                Effect::SetRound { round } => {
                    // Hazard changes keep the rounds they have left.
                    if let Some(o) = &s.overlay {
                        let shift = i16::from(round) - i16::from(s.defender_maneuver);
                        let changes = o
                            .changes
                            .iter()
                            .map(|c| overlay::HazardChange {
                                until: c.until.map(|u| (i16::from(u) + shift).clamp(1, 255) as u8),
                                ..*c
                            })
                            .collect();
                        let landscape = overlay::Overlay::landscape_of(&s.overlay);
                        s.overlay =
                            overlay::Overlay::build(&self.variant, self.land(), landscape, changes);
                    }
                    s.defender_maneuver = round;
                    ev.push(BattleEvent::RoundSet { round });
                }
                Effect::SetReinforcementRound { round } => {
                    s.reinforcement_round = Some(round);
                    ev.push(BattleEvent::ReinforcementRoundSet { round });
                }
                Effect::ChangeSide { unit } => {
                    let i = unit as usize;
                    let side = s.units[i].side.other();
                    s.units[i].side = side;
                    let e = s.extra_mut(i);
                    e.changed_side = !e.changed_side;
                    // A carry of the unit's strike is void: it struck for the other side.
                    if s.carry.is_some_and(|c| c.striker == unit) {
                        s.carry = None;
                    }
                    ev.push(BattleEvent::SideChanged { unit, side });
                    self.check_end(s, ev);
                }
                Effect::AddUnit {
                    side,
                    character,
                    hex,
                    temporary,
                } => {
                    let unit = s.units.len() as UnitId;
                    s.units.push(Unit {
                        character,
                        side,
                        power: self.variant.character(character).power,
                        status: Status::OnBoard(hex),
                        damage: 0,
                        moved: true,
                        locked: false,
                        strikes_left: 0,
                    });
                    s.extra_mut(unit as usize).added = Some(temporary);
                    ev.push(BattleEvent::UnitAdded {
                        unit,
                        character: self.variant.character(character).name.clone(),
                        side,
                        hex,
                        temporary,
                    });
                }
                Effect::Remove { unit } => {
                    s.set_down(unit as usize, ev);
                    s.units[unit as usize].status = Status::Gone(Fate::Removed);
                    ev.push(BattleEvent::Removed { unit });
                    self.check_end(s, ev);
                }
                Effect::Withdraw { unit } => {
                    s.set_down(unit as usize, ev);
                    s.units[unit as usize].status = Status::Gone(Fate::Withdrawn);
                    // Hits it would carry over are lost with it.
                    if s.carry.is_some_and(|c| c.striker == unit) {
                        s.carry = None;
                    }
                    ev.push(BattleEvent::Withdrawn { unit });
                    self.check_end(s, ev);
                }
                Effect::Rejoin { unit, hex } => {
                    // As a unit a script adds: it acts from the next phase.
                    let u = &mut s.units[unit as usize];
                    u.status = Status::OnBoard(hex);
                    u.moved = true;
                    u.locked = false;
                    u.strikes_left = 0;
                    ev.push(BattleEvent::Rejoined { unit, hex });
                }
                Effect::EndBattle { winner } => {
                    for (i, u) in s.units.iter_mut().enumerate() {
                        if Some(u.side) != winner && u.alive() {
                            u.status = Status::Gone(Fate::Removed);
                            ev.push(BattleEvent::Removed { unit: i as UnitId });
                        }
                    }
                    let w = match winner {
                        Some(BattleSide::Attacker) => Winner::Attacker,
                        Some(BattleSide::Defender) => Winner::Defender,
                        None => Winner::Neither,
                    };
                    self.finish(s, ev, Some(w));
                }
                Effect::Mount { rider, mount } => {
                    let u = &mut s.units[rider as usize];
                    u.status = Status::Riding(mount);
                    // Carried from now on: no move of its own this phase.
                    u.moved = true;
                    ev.push(BattleEvent::Mounted { unit: rider, mount });
                }
                Effect::Dismount { rider, hex } => {
                    let u = &mut s.units[rider as usize];
                    u.status = Status::OnBoard(hex);
                    u.moved = true;
                    ev.push(BattleEvent::Dismounted { unit: rider, hex });
                }
                // Checked away: masterplay effects are refused in battle.
                Effect::Award { .. }
                | Effect::RollAgain
                | Effect::Reveal { .. }
                | Effect::AddCharacter { .. }
                | Effect::MoveCharacter { .. }
                | Effect::ReturnCharacter { .. }
                | Effect::LowerScore { .. }
                | Effect::Eliminate { .. }
                | Effect::BeginShowdown { .. } => {}
            }
        }
    }

    /// Fires `unit_slain` for the units slain by the events from `from` on
    /// (and by what those handlers do in turn).
    pub(super) fn fire_slain(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        from: usize,
    ) -> Result<(), BattleError> {
        // Without scripts, no handler to tell: the events are not read.
        if self.hooks().is_none() {
            return Ok(());
        }
        let mut i = from;
        while i < ev.len() {
            if let BattleEvent::Slain { unit } = ev[i] {
                let side = script::side_name(s.units[unit as usize].side);
                self.fire(
                    s,
                    ev,
                    "unit_slain",
                    &[("unit", F::I(i64::from(unit))), ("side", F::W(side))],
                )?;
            }
            i += 1;
        }
        Ok(())
    }
}

impl<'v> Battle<'v> {
    /// `before_strike`: handlers may change `ctx.strike_number` and
    /// `ctx.dice`, or set `ctx.cancel` (the strike is spent, no dice
    /// rolled). None when cancelled.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn before_strike(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
        strike_number: u8,
        dice: u8,
    ) -> Result<Option<(u8, u8, bool)>, BattleError> {
        // Without scripts, inline and nothing to ask.
        if self.hooks().is_none() {
            return Ok(Some((strike_number, dice, true)));
        }
        self.before_strike_in(s, ev, unit, target, ranged, strike_number, dice)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn before_strike_in(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
        strike_number: u8,
        dice: u8,
    ) -> Result<Option<(u8, u8, bool)>, BattleError> {
        let Some(ctx) = self.fire(
            s,
            ev,
            "before_strike",
            &[
                ("unit", F::I(i64::from(unit))),
                ("target", F::I(i64::from(target))),
                ("ranged", F::B(ranged)),
                ("strike_number", F::I(i64::from(strike_number))),
                ("dice", F::I(i64::from(dice))),
            ],
        )?
        else {
            return Ok(Some((strike_number, dice, true)));
        };
        // A ctx comes only from a battle's scripts.
        let Some(lua) = self.lua.as_deref() else {
            return Ok(Some((strike_number, dice, true)));
        };
        let bad = |field: &str, e: mlua::Error| {
            BattleError::Script(crate::lua::ScriptError {
                script: "(before_strike handlers)".into(),
                line: None,
                kind: crate::lua::ScriptErrorKind::Runtime,
                message: format!("ctx.{field} must be an integer: {e}"),
                traceback: Vec::new(),
            })
        };
        let cancel: Option<bool> =
            script::ctx_field(lua, &ctx, "cancel").map_err(|e| bad("cancel", e))?;
        if cancel == Some(true) || s.phase == Phase::Over {
            return Ok(None);
        }
        // The target may have left the battleland through a handler's effect.
        if s.units[target as usize].hex().is_none() || s.units[target as usize].is_slain() {
            return Ok(None);
        }
        let sn: i64 =
            script::ctx_field(lua, &ctx, "strike_number").map_err(|e| bad("strike_number", e))?;
        let dice: i64 = script::ctx_field(lua, &ctx, "dice").map_err(|e| bad("dice", e))?;
        // `ctx.carry_over = false` switches the strike's carry-over off.
        let carry: Option<bool> = script::ctx_field(lua, &ctx, "carry_over").map_err(|e| {
            BattleError::Script(crate::lua::ScriptError {
                script: "(before_strike handlers)".into(),
                line: None,
                kind: crate::lua::ScriptErrorKind::Runtime,
                message: format!("ctx.carry_over must be true, false or nil: {e}"),
                traceback: Vec::new(),
            })
        })?;
        let chart = &self.variant.rules.strike_chart;
        Ok(Some((
            sn.clamp(i64::from(chart.min), i64::from(chart.max.max(6))) as u8,
            dice.clamp(0, 255) as u8,
            carry != Some(false),
        )))
    }

    /// Calls a hook the data names (a character ability, a hazard or range
    /// strength `Hook`) with `args` and, last, a read-only `ctx` of the
    /// battle holding `fields` (`ctx.event` is the hook's name).
    pub(super) fn call_battle_hook<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        lua: &crate::lua::LuaHost,
        s: &State,
        name: &str,
        fields: &[(&'static str, F)],
        args: A,
    ) -> Result<R, BattleError> {
        if crate::script::platform(lua).is_none() {
            return Ok(lua.call_hook(name, args)?);
        }
        let mut all = Vec::with_capacity(fields.len() + 2);
        all.push(("round", F::I(i64::from(s.defender_maneuver))));
        all.push(("moving", F::W(script::side_name(s.moving))));
        all.extend_from_slice(fields);
        match script::call_hook_with_ctx(lua, name, || self.snapshot_ctx(s), &all, args)? {
            Some(r) => Ok(r),
            None => Err(BattleError::Refused(format!("hook {name:?}: no ctx"))),
        }
    }

    /// `may_target`: may `unit` strike (or rangestrike) `target` at all?
    /// A handler returning `false` removes the target from the legal
    /// actions (a refusal, not a spent strike).
    #[inline(always)]
    pub(super) fn may_target(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
    ) -> Result<bool, BattleError> {
        self.may_target_as(s, unit, target, ranged, None)
    }

    /// Why the scripts refuse to let the side to act end its maneuver or
    /// strike phase now (`may_end_battle_phase`), when they do. Listing
    /// leaves the end out while the side has something else it may do;
    /// `apply` refuses it then.
    pub(super) fn end_refused(&self, s: &State) -> Result<Option<String>, BattleError> {
        let Some(lua) = self.hooks() else {
            return Ok(None);
        };
        if !lua.has_handlers("may_end_battle_phase") {
            return Ok(None);
        }
        let (phase, side) = match s.phase {
            Phase::Maneuver => ("maneuver", s.moving),
            Phase::Strike { striking } if s.carry.is_none() => ("strike", striking),
            _ => return Ok(None),
        };
        let base = [
            ("round", F::I(i64::from(s.defender_maneuver))),
            ("moving", F::W(script::side_name(s.moving))),
        ];
        let fields = [
            ("phase", F::W(phase)),
            ("side", F::W(script::side_name(side))),
        ];
        let answer = script::ask_why(
            lua,
            "may_end_battle_phase",
            || self.snapshot_ctx(s),
            &base,
            &fields,
        )?;
        Ok(match answer {
            Some((false, why)) => Some(why.unwrap_or_else(|| {
                format!("the variant's scripts do not let the {phase} phase end now")
            })),
            _ => None,
        })
    }

    /// Refuses the end of the phase the scripts hold the side in
    /// ([`Battle::end_refused`]), as a rule refusal with their reason, while
    /// the listing of the position leaves it out (the side has something
    /// else it may do). `s` is the battle's state as the action began.
    pub(super) fn check_phase_end(&self, s: &State) -> Result<(), BattleError> {
        let Some(why) = self.end_refused(s)? else {
            return Ok(());
        };
        let listed = self.legal_actions();
        if listed
            .iter()
            .any(|a| matches!(a, Action::EndManeuver | Action::EndStrikes))
        {
            return Ok(());
        }
        Err(BattleError::Refused(why))
    }

    /// [`Battle::may_target`] for a listing: a script error leaves the
    /// target out and is kept for [`Battle::take_script_failure`] (as a
    /// failing action's `legal` is), never dropped.
    pub(super) fn may_target_listed(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
    ) -> bool {
        match self.may_target(s, unit, target, ranged) {
            Ok(yes) => yes,
            Err(BattleError::Script(e)) => {
                self.listing_failure.borrow_mut().get_or_insert(e);
                false
            }
            Err(_) => false,
        }
    }

    /// [`Battle::may_target`], asked for hits carried over from the strike
    /// at `carry_from` (the handlers' `ctx.carry_from`).
    #[inline(always)]
    pub(super) fn may_target_as(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
        carry_from: Option<UnitId>,
    ) -> Result<bool, BattleError> {
        // Inline: without scripts, every target may be struck.
        match self.hooks() {
            None => Ok(true),
            Some(lua) => self.may_target_in(lua, s, unit, target, ranged, carry_from),
        }
    }

    #[inline(never)]
    fn may_target_in(
        &self,
        lua: &LuaHost,
        s: &State,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
        carry_from: Option<UnitId>,
    ) -> Result<bool, BattleError> {
        if !lua.has_handlers("may_target") {
            return Ok(true);
        }
        let base = [
            ("round", F::I(i64::from(s.defender_maneuver))),
            ("moving", F::W(script::side_name(s.moving))),
        ];
        let fields = [
            ("striker", F::I(i64::from(unit))),
            ("target", F::I(i64::from(target))),
            ("rangestrike", F::B(ranged)),
            ("carry", F::B(carry_from.is_some())),
            ("carry_from", F::I(i64::from(carry_from.unwrap_or(0)))),
        ];
        let answer = script::ask(
            lua,
            "may_target",
            || self.snapshot_ctx(s),
            &base,
            match carry_from {
                None => &fields[..4],
                Some(_) => &fields[..],
            },
            Some(script::Scene {
                units: &s.units,
                vars: &s.vars,
                land: self.land_in(s),
            }),
        )?;
        Ok(answer.unwrap_or(true))
    }

    /// `before_damage`: handlers may change `ctx.hits`, the hits `unit` is
    /// about to take from `source` (`"strike"`, `"rangestrike"`,
    /// `"carry_over"`, `"hazard"`; `striker` none for a hazard). The hits to
    /// deal: 0 when the unit left the battleland or the battle ended.
    #[inline(always)]
    pub(super) fn before_damage(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        unit: UnitId,
        hits: u8,
        source: &'static str,
        striker: Option<UnitId>,
    ) -> Result<u8, BattleError> {
        if hits == 0 || self.hooks().is_none() {
            return Ok(hits);
        }
        self.before_damage_in(s, ev, unit, hits, source, striker)
    }

    #[inline(never)]
    fn before_damage_in(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        unit: UnitId,
        hits: u8,
        source: &'static str,
        striker: Option<UnitId>,
    ) -> Result<u8, BattleError> {
        if !self.hooked("before_damage") {
            return Ok(hits);
        }
        let mut fields = vec![
            ("unit", F::I(i64::from(unit))),
            ("hits", F::I(i64::from(hits))),
            ("source", F::W(source)),
        ];
        if let Some(st) = striker {
            fields.push(("striker", F::I(i64::from(st))));
        }
        let Some(ctx) = self.fire(s, ev, "before_damage", &fields)? else {
            return Ok(hits);
        };
        let Some(lua) = self.lua.as_deref() else {
            return Ok(hits);
        };
        let to: i64 = script::ctx_field(lua, &ctx, "hits").map_err(|e| {
            BattleError::Script(crate::lua::ScriptError {
                script: "(before_damage handlers)".into(),
                line: None,
                kind: crate::lua::ScriptErrorKind::Runtime,
                message: format!("ctx.hits must be an integer: {e}"),
                traceback: Vec::new(),
            })
        })?;
        if s.phase == Phase::Over || s.place(unit as usize).is_none() {
            return Ok(0);
        }
        let to = to.clamp(0, 255) as u8;
        if to != hits {
            ev.push(BattleEvent::HitsChanged {
                unit,
                from: hits,
                to,
            });
        }
        Ok(to)
    }

    /// `after_strike`: the hits and the hits left to carry over.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn after_strike(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        unit: UnitId,
        target: UnitId,
        ranged: bool,
        hits: u8,
        carry: u8,
    ) -> Result<(), BattleError> {
        if self.hooks().is_none() {
            return Ok(());
        }
        self.fire(
            s,
            ev,
            "after_strike",
            &[
                ("unit", F::I(i64::from(unit))),
                ("target", F::I(i64::from(target))),
                ("ranged", F::B(ranged)),
                ("hits", F::I(i64::from(hits))),
                ("carry", F::I(i64::from(carry))),
            ],
        )?;
        Ok(())
    }
}

/// Script actions (`actions.ron`) in battle.
impl<'v> Battle<'v> {
    fn snapshot_ctx(&self, s: &State) -> CtxData {
        self.snapshot_ctx_in(s, None)
    }

    /// The battle as a handler sees it, in `spare`'s buffers if given (an
    /// earlier event's, so that an event allocates nothing for its data).
    fn snapshot_ctx_in(&self, s: &State, spare: Option<BattleCtx>) -> CtxData {
        // The characters scripts took from the caretaker in this battle.
        let taken = || {
            s.extra
                .iter()
                .enumerate()
                .filter(|(_, e)| e.added == Some(false))
                .map(|(i, _)| s.units[i].character)
        };
        let Some(mut b) = spare else {
            let mut engine = None;
            self.engine_view(s, &mut engine);
            return CtxData::Battle(BattleCtx {
                terrain: self.setup.terrain,
                units: s.units.clone(),
                vars: s.vars.clone(),
                game_vars: s.game_vars.clone(),
                world: self.world.clone(),
                overlay: s.overlay.clone(),
                hazards_set: Vec::new(),
                land_set: None,
                caretaker: self.caretaker.clone(),
                taken: taken().collect(),
                extra: s.extra.clone(),
                reinforcement_round: s.reinforcement_round(&self.variant),
                engine,
            });
        };
        // Every field named, so that one added later must be refilled too.
        let BattleCtx {
            terrain,
            units,
            vars,
            game_vars,
            world,
            overlay,
            hazards_set,
            land_set,
            caretaker,
            taken: took,
            extra,
            reinforcement_round,
            engine,
        } = &mut b;
        *terrain = self.setup.terrain;
        units.clone_from(&s.units);
        vars.clone_from(&s.vars);
        game_vars.clone_from(&s.game_vars);
        world.clone_from(&self.world);
        overlay.clone_from(&s.overlay);
        hazards_set.clear();
        *land_set = None;
        caretaker.clone_from(&self.caretaker);
        took.clear();
        took.extend(taken());
        extra.clone_from(&s.extra);
        *reinforcement_round = s.reinforcement_round(&self.variant);
        self.engine_view(s, engine);
        CtxData::Battle(b)
    }

    fn script_when(s: &State) -> Option<crate::format::ActionWhen> {
        match s.phase {
            Phase::Maneuver => Some(crate::format::ActionWhen::Maneuver),
            Phase::Strike { .. } if s.carry.is_none() => Some(crate::format::ActionWhen::Strike),
            _ => None,
        }
    }

    /// Where the uses of `a` by `unit` are counted: per battle, in the
    /// unit's own variable; per turn or game, in the variable of the player
    /// its side fights for (a battle fought alone counts its attacker as
    /// seat 0 and its defender as seat 1), among the game's values.
    fn limit_count(
        &self,
        s: &State,
        a: &crate::model::ScriptAction,
        unit: UnitId,
    ) -> Option<(&crate::format::VariableDef, crate::vars::VarTarget, bool)> {
        use crate::format::LimitPer;
        use crate::vars::VarTarget;
        let l = a.def.limit.as_ref()?;
        let def = self.variant.variable(&l.variable)?;
        Some(match l.per {
            LimitPer::Battle => (def, VarTarget::Unit(unit), false),
            LimitPer::Turn | LimitPer::Game => {
                (def, VarTarget::Player(self.seat_of(s, unit)), true)
            }
        })
    }

    /// Where `unit` pays the cost of `a` from: its own variable (scope
    /// `Unit`), the variable of the player its side fights for (as
    /// [`Self::limit_count`] counts), or the game's; with the amount.
    fn cost_from(
        &self,
        s: &State,
        a: &crate::model::ScriptAction,
        unit: UnitId,
    ) -> Option<(
        &crate::format::VariableDef,
        crate::vars::VarTarget,
        bool,
        i64,
    )> {
        use crate::format::VarScope;
        use crate::vars::VarTarget;
        let c = a.def.cost.as_ref()?;
        let def = self.variant.variable(&c.variable)?;
        let (target, game) = match def.scope {
            VarScope::Unit => (VarTarget::Unit(unit), false),
            VarScope::Game => (VarTarget::Game, true),
            _ => (VarTarget::Player(self.seat_of(s, unit)), true),
        };
        Some((def, target, game, c.amount))
    }

    /// Whether `unit` lacks what `a` costs.
    fn cannot_pay(&self, s: &State, a: &crate::model::ScriptAction, unit: UnitId) -> bool {
        let Some((def, target, game, amount)) = self.cost_from(s, a, unit) else {
            return false;
        };
        let vars = if game { &s.game_vars } else { &s.vars };
        match vars.get(def, target) {
            crate::format::VarValue::Int(n) => *n < amount,
            _ => true,
        }
    }

    /// The seat of the player the side of `unit` fights for (a battle
    /// fought alone: the attacker seat 0, the defender seat 1).
    fn seat_of(&self, s: &State, unit: UnitId) -> crate::ids::PlayerId {
        let side = s.units[unit as usize].side;
        match (self.world.as_ref().and_then(|w| w.engagement), side) {
            (Some((_, a, _)), BattleSide::Attacker) => a.player,
            (Some((_, _, d)), BattleSide::Defender) => d.player,
            (None, BattleSide::Attacker) => crate::ids::PlayerId(0),
            (None, BattleSide::Defender) => crate::ids::PlayerId(1),
        }
    }

    /// Times `unit` may still take `a` (None: no limit).
    fn limit_left(&self, s: &State, a: &crate::model::ScriptAction, unit: UnitId) -> Option<i64> {
        let l = a.def.limit.as_ref()?;
        let (def, target, game) = self.limit_count(s, a, unit)?;
        let vars = if game { &s.game_vars } else { &s.vars };
        let used = match vars.get(def, target) {
            crate::format::VarValue::Int(n) => *n,
            _ => 0,
        };
        Some(i64::from(l.times) - used)
    }

    fn script_legal(
        &self,
        s: &State,
        a: &crate::model::ScriptAction,
        unit: UnitId,
    ) -> Result<Vec<Vec<script::ScriptArg>>, BattleError> {
        let Some(lua) = self.lua.as_ref().filter(|_| self.use_hooks) else {
            return Ok(Vec::new());
        };
        let side = script::side_name(s.units[unit as usize].side);
        let fields = [
            ("round", F::I(i64::from(s.defender_maneuver))),
            ("moving", F::W(script::side_name(s.moving))),
            ("unit", F::I(i64::from(unit))),
            ("side", F::W(side)),
        ];
        Ok(script::action_legal(
            lua,
            a,
            || self.snapshot_ctx(s),
            &fields,
        )?)
    }

    /// Whether what `a` requires (`requires` in `actions.ron`) holds for
    /// `unit` now: when not, its `legal` could offer nothing and is not
    /// asked.
    fn requires_met(&self, s: &State, a: &crate::model::ScriptAction, unit: UnitId) -> bool {
        let Some(r) = &a.requires else {
            return true;
        };
        let v = &self.variant;
        let own = s.units[unit as usize].side;
        let passes = |c: &crate::model::UnitCheck, i: usize| {
            let Some(u) = s.units.get(i) else {
                return false;
            };
            let ch = v.character(u.character);
            c.own_side.is_none_or(|o| o == (u.side == own))
                && (c.characters.is_empty() || c.characters.contains(&u.character))
                && (c.classes.is_empty() || c.classes.contains(&ch.class))
                && c.status
                    .is_none_or(|w| i64::from(w) == script::status_code(u.status))
                && c.alive.is_none_or(|a| a == script::alive(u))
                && c.set.as_ref().is_none_or(|def| {
                    *s.vars.get(def, crate::vars::VarTarget::Unit(i as UnitId)) != def.default
                })
                && c.min_skill.is_none_or(|m| {
                    let e = s.extra.get(i).copied().unwrap_or_default();
                    e.skill.unwrap_or(ch.skill) >= m
                })
        };
        r.actor.as_ref().is_none_or(|c| passes(c, unit as usize))
            && !r.none.iter().any(|c| match &c.set {
                // Only the units the variable is set for.
                Some(def) => s.vars.units_set(def).any(|i| passes(c, i)),
                None => (0..s.units.len()).any(|i| passes(c, i)),
            })
    }

    /// Whether `Battle::pick_action` listed this script action for the
    /// state the battle has now, with its game's values: its `legal`
    /// offered it then and would offer it again.
    fn script_listed(&self, unit: UnitId, name: &str, args: &[script::ScriptArg]) -> bool {
        let lists = self.pick_lists.borrow();
        lists.scripts_fresh
            && lists.listed == Some(self.generation.get())
            && lists.others.iter().any(|o| {
                matches!(o, Action::Script { name: n, unit: u, args: a }
                    if *u == unit && n == name && a.as_slice() == args)
            })
    }

    /// The script actions the side to act may take now (an action whose
    /// `legal` fails is left out here, and the error kept for
    /// [`Battle::take_script_failure`]; taking it reports the error).
    /// The choices of the further choice a script asked for (`ctx:choose`),
    /// into `out`: the action's `legal` for its unit, its limit checked,
    /// whatever its phase. None listed: the choice lapses.
    pub(super) fn choice_actions(&self, s: &State, out: &mut impl listing::ActionSink) {
        let Some((unit, name)) = &s.choice else {
            return;
        };
        let Some(a) = self.variant.script_action(name) else {
            return;
        };
        let Some(u) = s.units.get(*unit as usize) else {
            return;
        };
        if u.side != s.to_act()
            || !u.on_field()
            || u.is_slain()
            || self.limit_left(s, a, *unit).is_some_and(|n| n <= 0)
            || self.cannot_pay(s, a, *unit)
            || !self.requires_met(s, a, *unit)
        {
            return;
        }
        match self.script_legal(s, a, *unit) {
            Ok(legal) => {
                for args in legal {
                    out.push(Action::Script {
                        name: a.def.name.clone(),
                        unit: *unit,
                        args,
                    });
                }
            }
            Err(BattleError::Script(e)) => {
                self.listing_failure.borrow_mut().get_or_insert(e);
            }
            Err(_) => {}
        }
    }

    /// With a further choice pending, only its action is taken (or a
    /// concession); with nothing left to choose, the choice lapses.
    pub(super) fn check_choice(&self, s: &mut State, action: &Action) -> Result<(), BattleError> {
        let Some((unit, name)) = s.choice.clone() else {
            return Ok(());
        };
        if matches!(action, Action::Concede(_)) {
            return Ok(());
        }
        if let Action::Script {
            name: n, unit: u, ..
        } = action
            && *n == name
            && *u == unit
        {
            return Ok(());
        }
        let mut choices: Vec<Action> = Vec::new();
        self.choice_actions(s, &mut choices);
        if choices.is_empty() {
            s.choice = None;
            return Ok(());
        }
        let label = self
            .variant
            .script_action(&name)
            .map_or(name.as_str(), |a| a.def.label.as_str());
        refuse(format!("{label} is to be chosen first"))
    }

    pub(super) fn script_actions(&self, out: &mut impl listing::ActionSink) {
        if self.variant.actions.is_empty() {
            return;
        }
        let s = &self.state;
        let Some(when) = Self::script_when(s) else {
            return;
        };
        let side = s.to_act();
        let moving = side == s.moving;
        for a in self
            .variant
            .actions
            .iter()
            .filter(|a| a.def.when.fits_battle(when, moving))
        {
            for (i, u) in s.units.iter().enumerate() {
                let unit = i as UnitId;
                if u.side != side
                    || !u.on_field()
                    || u.is_slain()
                    || !a.unit_may(&self.variant, u.character)
                    || self.limit_left(s, a, unit).is_some_and(|n| n <= 0)
                    || self.cannot_pay(s, a, unit)
                    || !self.requires_met(s, a, unit)
                {
                    continue;
                }
                let legal = match self.script_legal(s, a, unit) {
                    Ok(legal) => legal,
                    Err(e) => {
                        if let BattleError::Script(e) = e {
                            self.listing_failure.borrow_mut().get_or_insert(e);
                        }
                        Vec::new()
                    }
                };
                for args in legal {
                    out.push(Action::Script {
                        name: a.def.name.clone(),
                        unit,
                        args,
                    });
                }
            }
        }
    }

    /// Takes a script action: checked against the declaration and the
    /// script's own `legal`, then its effects applied.
    pub(super) fn apply_script(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        name: &str,
        unit: UnitId,
        args: &[script::ScriptArg],
    ) -> Result<(), BattleError> {
        let Some(a) = self.variant.script_action(name) else {
            return refuse(format!("this variant has no action {name:?}"));
        };
        let label = &a.def.label;
        // A further choice (`ctx:choose`) is taken whatever its phase.
        let follow_up = s
            .choice
            .as_ref()
            .is_some_and(|(u, n)| *u == unit && n == name);
        let moving = s.to_act() == s.moving;
        if !follow_up
            && !Self::script_when(s).is_some_and(|now| a.def.when.fits_battle(now, moving))
        {
            let when = match a.def.when {
                crate::format::ActionWhen::Maneuver => "the maneuver phase",
                crate::format::ActionWhen::Strike => "a strike phase",
                crate::format::ActionWhen::OwnStrike => {
                    "its side's own strike phase (not while striking back)"
                }
                crate::format::ActionWhen::StrikeBack => "its side's strikes back",
                _ => "a masterplay phase",
            };
            return refuse(format!("{label} is taken in {when}"));
        }
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        if u.side != s.to_act() || !u.on_field() || u.is_slain() {
            return refuse(format!(
                "{label} is taken by a living character on the battleland of the side to act"
            ));
        }
        if !a.unit_may(&self.variant, u.character) {
            return refuse(format!(
                "{} may not take {label}",
                self.variant.character(u.character).name
            ));
        }
        if self.limit_left(s, a, unit).is_some_and(|n| n <= 0) {
            let (times, per, variable) = a.def.limit.as_ref().map_or((0, "battle", ""), |l| {
                (
                    l.times,
                    match l.per {
                        crate::format::LimitPer::Battle => "battle",
                        crate::format::LimitPer::Turn => "turn and player",
                        crate::format::LimitPer::Game => "game and player",
                    },
                    l.variable.as_str(),
                )
            });
            return refuse(format!(
                "{label} may be taken {times} times per {per} (its count {variable:?} in the variant's actions.ron is used up)"
            ));
        }
        if let Some(c) = &a.def.cost
            && self.cannot_pay(s, a, unit)
        {
            return refuse(format!(
                "{label} costs {} {} (variant's actions.ron)",
                c.amount, c.variable
            ));
        }
        if !self.requires_met(s, a, unit) {
            return refuse(format!(
                "{args:?} is not a choice {label} offers now (its requires in the variant's actions.ron)"
            ));
        }
        // Listed for this state by the last pick: its `legal` offered it.
        if !self.script_listed(unit, name, args)
            && !self.script_legal(s, a, unit)?.iter().any(|l| l == args)
        {
            return refuse(format!("{args:?} is not a choice {label} offers now"));
        }
        let Some(lua) = self.lua.as_ref().filter(|_| self.use_hooks) else {
            return refuse("the variant's scripts are off");
        };
        let side = script::side_name(u.side);
        let fields = [
            ("round", F::I(i64::from(s.defender_maneuver))),
            ("moving", F::W(script::side_name(s.moving))),
            ("unit", F::I(i64::from(unit))),
            ("side", F::W(side)),
        ];
        let effects = script::action_apply(lua, a, || self.snapshot_ctx(s), &fields, args)?;
        // The choice it made is made (its effects may ask for the next one).
        if follow_up {
            s.choice = None;
        }
        ev.push(BattleEvent::ScriptAction {
            name: name.to_string(),
            unit,
            args: args.to_vec(),
        });
        if let Some((def, target, game)) = self.limit_count(s, a, unit) {
            let vars = if game { &mut s.game_vars } else { &mut s.vars };
            let used = match vars.get(def, target) {
                crate::format::VarValue::Int(n) => *n,
                _ => 0,
            };
            vars.set(def, target, crate::format::VarValue::Int(used + 1));
        }
        if let Some((def, target, game, amount)) = self.cost_from(s, a, unit) {
            let vars = if game { &mut s.game_vars } else { &mut s.vars };
            let left = match vars.get(def, target) {
                crate::format::VarValue::Int(n) => *n,
                _ => 0,
            };
            vars.set(def, target, crate::format::VarValue::Int(left - amount));
        }
        self.apply_effects(s, ev, effects);
        Ok(())
    }
}
