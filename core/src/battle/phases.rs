//! The battle's turn: maneuver and strike phases beginning and ending, the
//! end of the battle, damage and dice.

use super::*;
use crate::format::{Reinforcement, Round, TitanDeath};
use crate::script::F;

impl<'v> Battle<'v> {
    pub(super) fn begin_maneuver(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        let moving = s.moving;
        self.begin_team_turns(s, moving);
        // In contact with a living enemy (as `in_contact_any`), the enemies'
        // hexes found once.
        let enemies = self.enemy_hexes(s, moving);
        let aloof = self.aloof(s);
        let contact = match &s.overlay {
            Some(o) if o.landscape.is_some() => &o.tables.contact,
            _ => &self.geo.contact,
        };
        if s.extra.is_empty() && aloof == 0 {
            // The common path (no script changed a unit, no hex keeps anyone
            // out of contact): each lock without a branch (see `units_where`).
            // The first listing's occupied hexes and movers are found in the
            // same walk.
            // The units gone for good are skipped: their step reset their
            // flags as it removed them, and nothing sets them again.
            debug_assert!(s.units.iter().enumerate().all(|(j, u)| {
                self.gone(s).checked_shr(j as u32).unwrap_or(0) & 1 == 0 || !u.moved && !u.locked
            }));
            let (mut occupied, mut movers) = (0, 0u64);
            for j in self.present(s) {
                let u = &mut s.units[j];
                let (on, h) = u.hex_parts();
                u.moved = false;
                u.locked = (u.side == moving) & on & (contact[usize::from(h)] & enemies != 0);
                occupied |= HexSet::from(on) << h;
                let mover = (u.side == moving) & !u.locked & !matches!(u.status, Status::Gone(_));
                movers |= u64::from(mover).wrapping_shl(j as u32);
            }
            // Without scripts, nothing changes the state after.
            if self.lua.is_none() {
                self.occupied_next.set(Some(occupied));
                self.movers_next
                    .set((s.units.len() <= 64).then_some(movers));
            }
        } else {
            let contact = *contact;
            self.lock_walk(s, &contact, enemies, aloof);
        }
        self.record(ev, || BattleEvent::PhaseBegan {
            phase: Phase::Maneuver,
            moving,
            defender_maneuver: s.defender_maneuver,
        });
        self.fire_phase(s, ev, "battle_phase_start", "maneuver", moving)?;
        Ok(())
    }

    /// [`Battle::begin_maneuver`]'s locks, a script's changes or hexes
    /// that keep units out of contact read.
    fn lock_walk(
        &self,
        s: &mut State,
        contact: &[HexSet; crate::battleland::MAX_HEXES],
        enemies: HexSet,
        aloof: HexSet,
    ) {
        let moving = s.moving;
        for i in 0..s.units.len() {
            // A script's `locked = false` (`ctx:set_unit`): never held by contact.
            let free = s.extra.get(i).is_some_and(|e| e.never_locked);
            let u = &mut s.units[i];
            u.moved = false;
            u.locked = u.side == moving
                && !free
                && u.hex().is_some_and(|h| {
                    super::striking::contact_given(contact, aloof, h) & enemies != 0
                });
        }
    }

    pub(super) fn begin_strikes(
        &self,
        s: &mut State,
        striking: BattleSide,
        ev: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        if striking == s.moving {
            s.defender_slain_now = false;
        }
        let touched = !s.extra.is_empty();
        let tables = &self.variant.battle_tables;
        if !touched {
            // The common path: the strikes from the variant's table, set
            // without a branch on the side (see `units_where`).
            for u in s.units.iter_mut() {
                // A select by mask: a conditional store would be a branch.
                let keep = u8::from(u.side == striking).wrapping_sub(1);
                u.strikes_left = tables.strikes(u.character) & !keep | u.strikes_left & keep;
            }
        } else {
            for (i, u) in s.units.iter_mut().enumerate() {
                if u.side != striking {
                    continue;
                }
                u.strikes_left = tables.strikes(u.character);
                // A script's `may_strike = false` (`ctx:set_unit`); its
                // `strikes` held for the strike phase it was set in.
                if let Some(e) = s.extra.get_mut(i) {
                    e.strikes_set = false;
                    e.origins = 0;
                    if e.may_strike == Some(false) {
                        u.strikes_left = 0;
                    }
                }
            }
        }
        s.phase = Phase::Strike { striking };
        self.begin_team_turns(s, striking);
        self.record(ev, || BattleEvent::PhaseBegan {
            phase: s.phase,
            moving: s.moving,
            defender_maneuver: s.defender_maneuver,
        });
        self.fire_phase(s, ev, "battle_phase_start", "strike", striking)?;
        Ok(())
    }

    /// Hazard damage, removal of the slain, the end of the battle, and the
    /// next maneuver phase.
    pub(super) fn end_strike_phase(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        // Hazard damage for each strike phase spent in the hex: compute all
        // (Lua may fail) before changing anything.
        let mut hurt = Vec::new();
        // Hooks that answer below 0 heal (a Spring): (unit, hits).
        let mut heal: Vec<(usize, u8)> = Vec::new();
        // Most strike phases end with nobody where a hazard hurts or a hook
        // decides: then there is nothing to look at.
        let tables = self.tables_in(s);
        // The living's hexes walked for only when some hex hurts or hooks.
        let living_on = || {
            s.units.iter().fold(0, |m, u| {
                m | u.hex_bit() & HexSet::from(u.damage < u.power).wrapping_neg()
            })
        };
        let untouched = s.extra.iter().all(|e| e.natives.is_none());
        let watched = tables.hurts | tables.hooked;
        let units = if untouched && (watched == 0 || living_on() & watched == 0) {
            &[][..]
        } else {
            &s.units[..]
        };
        for (i, u) in units.iter().enumerate() {
            let Some(h) = u.hex() else { continue };
            if u.is_slain() {
                continue;
            }
            let tables = self.tables_in(s);
            let natives_changed = s.extra.get(i).is_some_and(|e| e.natives.is_some());
            if tables.hooked & bit(h) == 0 && !natives_changed {
                // No hook: the `Damage` effects, summed once per variant.
                let class = self.variant.battle_tables.move_class(u.character);
                let hits = tables.moves[class].damage[h.0 as usize];
                if hits > 0 {
                    hurt.push((i, hits));
                }
                continue;
            }
            let hz = self.land_in(s).hex(h).hazard;
            let natives = self.natives_of(s, i);
            let native = natives.contains(hz);
            let mut hits = 0i32;
            for e in &self.variant.hazard(hz).effects {
                match e {
                    Effect::Damage { who, hits: n } if who.applies(native) => hits += i32::from(*n),
                    Effect::Hook(hook) if self.use_hooks => {
                        if let Some(lua) = &self.lua {
                            let skill = self.skill_of(s, i);
                            let n: i64 = self.call_battle_hook(
                                lua,
                                s,
                                &self.variant.hooks[hook.index()],
                                &[("unit", F::I(i as i64)), ("hex", F::S(&h.label()))],
                                (u.power, skill, u.damage, native),
                            )?;
                            hits += n.clamp(-255, 255) as i32;
                        }
                    }
                    _ => {}
                }
            }
            // Hooks of the hexside hazards on the hex's sides, once per
            // hazard, told whether the hex is the hazard's top side.
            if self.use_hooks
                && let Some(lua) = &self.lua
            {
                let mut seen: Vec<(crate::model::HazardId, bool)> = Vec::new();
                for side in self.land_in(s).hex(h).sides.iter().flatten() {
                    if seen.contains(&(side.hazard, side.top)) {
                        continue;
                    }
                    seen.push((side.hazard, side.top));
                    let native = natives.contains(side.hazard);
                    for e in &self.variant.hazard(side.hazard).effects {
                        if let Effect::Hook(hook) = e {
                            let skill = self.skill_of(s, i);
                            let n: i64 = self.call_battle_hook(
                                lua,
                                s,
                                &self.variant.hooks[hook.index()],
                                &[("unit", F::I(i as i64)), ("hex", F::S(&h.label()))],
                                (u.power, skill, u.damage, native, side.top),
                            )?;
                            hits += n.clamp(-255, 255) as i32;
                        }
                    }
                }
            }
            if hits > 0 {
                hurt.push((i, hits.min(255) as u8));
            } else if hits < 0 && u.damage > 0 {
                heal.push((i, (-hits).min(255) as u8));
            }
        }
        for (i, hits) in heal {
            let u = &mut s.units[i];
            let healed = hits.min(u.damage);
            u.damage -= healed;
            self.record(ev, || BattleEvent::Healed {
                unit: i as UnitId,
                hits: healed,
            });
        }
        for (i, hits) in hurt {
            self.record(ev, || BattleEvent::HazardDamage {
                unit: i as UnitId,
                hits,
            });
            let hits = self.before_damage(s, ev, i as UnitId, hits, "hazard", None)?;
            if s.phase == Phase::Over {
                return Ok(());
            }
            self.damage(s, i as UnitId, hits, ev);
            if self.titan_check_hit(s, ev, i as UnitId) {
                return Ok(());
            }
        }
        // Law of Titan 1980, 18.B: a slain Titan waits for the end of the
        // strike phase, and ends the battle with it.
        if self.procedure().titan_death == TitanDeath::PhaseEnd && self.titan_fall(s, ev) {
            return Ok(());
        }
        // The slain leave at the end of the strike phase (Law of the
        // Battlelands 25.F).
        let (mut defender_slain, mut attacker_slain) = (false, false);
        // Found by mask (see `units_where`): few of the units are slain.
        let slain = |u: &Unit| u.on_field() & u.is_slain();
        // With nobody riding (`ctx:mount`) nobody is set down: one mask
        // serves, found in the same walk.
        // (The gone are neither.)
        let (mask, rides) = self.present(s).fold((0u64, false), |(m, r), k| {
            let u = &s.units[k];
            let bit = u64::from(slain(u)).wrapping_shl(k as u32);
            (m | bit, r | matches!(u.status, Status::Riding(_)))
        });
        match (s.units.len() <= 64 && !rides).then_some(mask) {
            Some(mut m) => {
                self.note_gone(m);
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let u = &mut s.units[i];
                    u.status = Status::Gone(Fate::Slain);
                    defender_slain |= u.side == BattleSide::Defender;
                    attacker_slain |= u.side == BattleSide::Attacker;
                }
            }
            None => {
                let mut next = units_where(&s.units, slain).next();
                while let Some(i) = next {
                    // A slain mount's rider is set down on its hex.
                    s.set_down(i, ev);
                    let u = &mut s.units[i];
                    u.status = Status::Gone(Fate::Slain);
                    defender_slain |= u.side == BattleSide::Defender;
                    attacker_slain |= u.side == BattleSide::Attacker;
                    next = units_where(&s.units[i + 1..], slain)
                        .next()
                        .map(|k| i + 1 + k);
                }
            }
        }
        if self.check_end(s, ev) {
            return Ok(());
        }
        if defender_slain && s.summon == SummonState::NotYet {
            s.summon = SummonState::Open;
            self.record(ev, || BattleEvent::SummonOpen);
        }
        if attacker_slain
            && s.reinforcement_round.is_none()
            && self.procedure().reinforcement == Reinforcement::AfterFirstSlain
        {
            // Law of Titan 1980, 13.A-B: the defender's next maneuver
            // (placement) phase, which is the next round's, then or never.
            s.reinforcement_round = Some(s.defender_maneuver.saturating_add(1));
        }
        s.moving = match self.procedure().round {
            Round::EachSide => s.moving.other(),
            // Each round begins with the defender's placement.
            Round::BothThenStrikes => BattleSide::Defender,
        };
        if s.moving == BattleSide::Defender {
            s.defender_maneuver = s.defender_maneuver.saturating_add(1);
            if self.procedure().time_loss
                && s.defender_maneuver > self.variant.rules.battle.defender_maneuvers
            {
                // Law of the Battlelands 25.E: time loss (of the attacker's
                // legion: a defender's unit bound to fight for it is spared).
                for i in 0..s.units.len() {
                    if s.units[i].side == BattleSide::Attacker
                        && s.units[i].alive()
                        && !s.bound_away(i)
                    {
                        s.units[i].status = Status::Gone(Fate::Removed);
                    }
                }
                self.finish(s, ev, Some(Winner::Defender));
                return Ok(());
            }
            self.expire_hazards(s, ev);
        }
        s.phase = Phase::Maneuver;
        self.begin_maneuver(s, ev)
    }

    /// Ends the battle if a side has nobody left.
    pub(super) fn check_end(&self, s: &mut State, ev: &mut Vec<BattleEvent>) -> bool {
        // Everyone alive counts here, the `uncounted` too: a side of Masters
        // alone fights on.
        // A side is out when none of its units lives: each walk stops at
        // the first that does (the attacker's usually come first, alive),
        // with one branch per unit.
        let lives = |side: BattleSide| {
            s.units.iter().any(|u| {
                (u.side == side)
                    & matches!(
                        u.status,
                        Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
                    )
                    & (u.damage < u.power)
            }) || Self::side_reserves(s, side)
        };
        let (attackers, defenders) = (lives(BattleSide::Attacker), lives(BattleSide::Defender));
        let winner = match (attackers, defenders) {
            (false, false) => Winner::Neither,
            (false, true) => Winner::Defender,
            (true, false) => Winner::Attacker,
            (true, true) => return false,
        };
        self.finish(s, ev, Some(winner));
        true
    }

    /// [`Battle::titan_check`] just after `unit` took hits. Without scripts
    /// only it can have fallen: every other damage was checked as it was
    /// dealt, and a position holds nobody slain.
    #[inline(always)]
    pub(super) fn titan_check_hit(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
        unit: UnitId,
    ) -> bool {
        if self.procedure().titan_death == TitanDeath::PhaseEnd {
            // Looked at when the strike phase ends.
            return false;
        }
        if self.hooks().is_none() {
            let titan = self.variant.rules.titan.character;
            let fallen = s
                .units
                .get(unit as usize)
                .is_some_and(|u| u.character == titan && u.on_field() && u.is_slain());
            if !fallen {
                return false;
            }
        }
        self.titan_check(s, ev)
    }

    /// A slain Titan ends the battle at once (reference sheet, "Titans"),
    /// or with `titan_death: PhaseEnd` when the strike phase ends.
    pub(super) fn titan_check(&self, s: &mut State, ev: &mut Vec<BattleEvent>) -> bool {
        if self.procedure().titan_death == TitanDeath::PhaseEnd {
            return false;
        }
        self.titan_fall(s, ev)
    }

    /// Ends the battle if a Titan on the battleland is slain: its
    /// legion-mates are removed, and its slayer's side wins if any of it
    /// lives (both Titans slain: neither).
    pub(super) fn titan_fall(&self, s: &mut State, ev: &mut Vec<BattleEvent>) -> bool {
        if s.teams.active() {
            return self.team_titan_fall(s, ev);
        }
        let titan = self.variant.rules.titan.character;
        let fallen = |side: BattleSide| {
            s.units
                .iter()
                .any(|u| u.side == side && u.character == titan && u.on_field() && u.is_slain())
        };
        let (a, d) = (fallen(BattleSide::Attacker), fallen(BattleSide::Defender));
        let side = match (a, d) {
            (false, false) => return false,
            (true, false) => BattleSide::Attacker,
            (false, true) => BattleSide::Defender,
            (true, true) => {
                for u in s.units.iter_mut() {
                    if u.alive() {
                        u.status = Status::Gone(Fate::Removed);
                    }
                }
                self.finish(s, ev, Some(Winner::Neither));
                return true;
            }
        };
        for u in s.units.iter_mut() {
            if u.side == side && u.alive() {
                u.status = Status::Gone(Fate::Removed);
            }
        }
        let others = s.units.iter().any(|u| u.side == side.other() && u.alive());
        let winner = match (side, others) {
            (_, false) => Winner::Neither,
            (BattleSide::Attacker, true) => Winner::Defender,
            (BattleSide::Defender, true) => Winner::Attacker,
        };
        self.finish(s, ev, Some(winner));
        true
    }

    pub(super) fn finish(&self, s: &mut State, ev: &mut Vec<BattleEvent>, winner: Option<Winner>) {
        // Before the waiting are marked slain: did the attacker place anyone
        // (reference sheet, Reinforcement: conceding "before placing
        // characters", the defender may not muster)?
        let attacker_ever_on = s.entered[0]
            || (0..s.units.len()).any(|i| {
                s.origin(i) == BattleSide::Attacker && s.units[i].status != Status::Waiting
            });
        let time_loss = s.phase != Phase::Over
            && matches!(winner, Some(Winner::Defender))
            && s.units
                .iter()
                .any(|u| u.side == BattleSide::Attacker && u.status == Status::Gone(Fate::Removed))
            && self.procedure().time_loss
            && s.defender_maneuver > self.variant.rules.battle.defender_maneuvers;
        for u in s.units.iter_mut() {
            if matches!(
                u.status,
                Status::OnBoard(_) | Status::Waiting | Status::Riding(_)
            ) && u.is_slain()
            {
                u.status = Status::Gone(Fate::Slain);
            }
        }
        let winner = winner.unwrap_or_else(|| {
            let a = s
                .units
                .iter()
                .any(|u| u.side == BattleSide::Attacker && u.alive());
            let d = s
                .units
                .iter()
                .any(|u| u.side == BattleSide::Defender && u.alive());
            match (a, d) {
                (true, _) => Winner::Attacker,
                (false, true) => Winner::Defender,
                _ => Winner::Neither,
            }
        });
        // A unit bound to its own legion while fighting for the other side
        // (`bound`) is slain when the side it fights for wins.
        if !s.extra.is_empty() {
            let won = match winner {
                Winner::Attacker => Some(BattleSide::Attacker),
                Winner::Defender => Some(BattleSide::Defender),
                Winner::Neither => None,
            };
            for i in 0..s.units.len() {
                if s.bound_away(i) && s.units[i].alive() && Some(s.units[i].side) == won {
                    let u = &mut s.units[i];
                    u.damage = u.power;
                    u.status = Status::Gone(Fate::Slain);
                    self.record(ev, || BattleEvent::Slain { unit: i as UnitId });
                }
            }
        }
        // Where each unit ends (see `extra`): the slain and removed count
        // for their own legion; a survivor on the other side joins that
        // side's legion while it has room, else leaves unscored; units a
        // script added join from the caretaker the same way, or (temporary)
        // leave no trace.
        // Sized once: most characters end left or slain.
        let room = || Vec::with_capacity(s.units.len());
        let mut left = [room(), room()];
        let mut slain = [room(), room()];
        let mut removed = [Vec::new(), Vec::new()];
        let mut joined = [Vec::new(), Vec::new()];
        let mut added = [Vec::new(), Vec::new()];
        // A withdrawn unit (`ctx:withdraw`) is in its legion if its side
        // won; a legion that lost is lost whole, it with it (removed: the
        // winner did not slay it).
        let won = |side: BattleSide| {
            matches!(
                (winner, side),
                (Winner::Attacker, BattleSide::Attacker) | (Winner::Defender, BattleSide::Defender)
            )
        };
        if s.extra.is_empty() {
            // No script changed a unit: each ends in its own legion, so one
            // walk sorts them (the general walk below gives the same lists).
            for u in &s.units {
                let k = side_index(u.side);
                let list = match u.status {
                    _ if u.alive() => &mut left[k],
                    Status::Gone(Fate::Slain | Fate::NotEntered) => &mut slain[k],
                    Status::Gone(Fate::Removed) => &mut removed[k],
                    Status::Gone(Fate::Withdrawn) if won(u.side) => &mut left[k],
                    Status::Gone(Fate::Withdrawn) => &mut removed[k],
                    _ => continue,
                };
                list.push(u.character);
            }
        } else {
            let (stays, moves) = self.end_places(s);
            for (i, u) in s.units.iter().enumerate() {
                if s.extra(i).added.is_some() {
                    continue;
                }
                let k = side_index(s.origin(i));
                if u.alive() && stays[i] {
                    left[k].push(u.character);
                }
                if matches!(u.status, Status::Gone(Fate::Slain | Fate::NotEntered)) {
                    slain[k].push(u.character);
                }
                if u.status == Status::Gone(Fate::Removed) || (u.alive() && !stays[i]) {
                    removed[k].push(u.character);
                }
                if u.status == Status::Gone(Fate::Withdrawn) {
                    if won(s.origin(i)) {
                        left[k].push(u.character);
                    } else {
                        removed[k].push(u.character);
                    }
                }
            }
            for (i, to) in moves {
                let list = match s.extra(i).added {
                    Some(_) => &mut added,
                    None => &mut joined,
                };
                list[side_index(to)].push(s.units[i].character);
            }
        }
        let value = |list: &[CharacterId]| -> u32 {
            list.iter().map(|&c| self.variant.character(c).value).sum()
        };
        let points = match winner {
            Winner::Attacker => value(&slain[1]),
            Winner::Defender if !time_loss => value(&slain[0]),
            _ => 0,
        };
        let [attacker_left, defender_left] = left;
        let [attacker_slain, defender_slain] = slain;
        let [attacker_removed, defender_removed] = removed;
        let [attacker_joined, defender_joined] = joined;
        let [attacker_added, defender_added] = added;
        let result = BattleResult {
            winner,
            time_loss,
            attacker_left,
            defender_left,
            attacker_joined,
            defender_joined,
            attacker_added,
            defender_added,
            attacker_slain,
            defender_slain,
            summoned: s.summoned,
            reinforced: s.reinforced,
            conceded: s.conceded,
            attacker_removed,
            defender_removed,
            may_summon_after: winner == Winner::Attacker
                && s.summoned.is_none()
                && !self.setup.summonable.is_empty(),
            may_reinforce_after: winner == Winner::Defender
                && s.reinforced.is_none()
                && (attacker_ever_on || s.conceded != Some(BattleSide::Attacker)),
            points,
        };
        s.phase = Phase::Over;
        s.carry = None;
        self.record(ev, || BattleEvent::Ended(winner));
        s.result = Some(result);
    }

    /// At the battle's end: whether each unit stays in its own legion (if
    /// it survives there), and the survivors that end in a legion not
    /// their own (changed sides, or added from the caretaker), with the
    /// side whose legion takes them, while it has room.
    fn end_places(&self, s: &State) -> (Vec<bool>, Vec<(usize, BattleSide)>) {
        let max = self.variant.rules.legions.max_size as usize;
        let mut stays = vec![true; s.units.len()];
        let mut moves = Vec::new();
        let mut size = [0usize; 2];
        for (i, u) in s.units.iter().enumerate() {
            let e = s.extra(i);
            let counted = !self.variant.character(u.character).uncounted;
            // A withdrawn unit is in its legion too (if the legion lasts).
            let withdrawn = u.status == Status::Gone(Fate::Withdrawn);
            if (u.alive() || withdrawn) && e.added.is_none() && !e.changed_side && counted {
                size[side_index(u.side)] += 1;
            }
        }
        for (i, u) in s.units.iter().enumerate() {
            let e = s.extra(i);
            // A bound unit goes back to its own legion (`bound`).
            if !(e.changed_side || e.added.is_some()) || s.bound_away(i) {
                continue;
            }
            stays[i] = false;
            if !u.alive() || e.added == Some(true) {
                continue;
            }
            let k = side_index(u.side);
            if size[k] < max || self.variant.character(u.character).uncounted {
                size[k] += usize::from(!self.variant.character(u.character).uncounted);
                moves.push((i, u.side));
            }
        }
        (stays, moves)
    }

    /// Adds hits to a character (at most its power); returns the excess.
    pub(super) fn damage(
        &self,
        s: &mut State,
        unit: UnitId,
        hits: u8,
        ev: &mut Vec<BattleEvent>,
    ) -> u8 {
        let u = &mut s.units[unit as usize];
        let room = u.power.saturating_sub(u.damage);
        let applied = hits.min(room);
        u.damage += applied;
        if applied > 0 && u.is_slain() {
            self.record(ev, || BattleEvent::Slain { unit });
            if u.side == BattleSide::Defender {
                s.defender_slain_now = true;
            }
        }
        hits - applied
    }

    pub(super) fn roll(
        &self,
        s: &mut State,
        dice: u8,
        strike_number: u8,
    ) -> Result<(Dice, u8), BattleError> {
        if self.fixed_only && s.fixed_dice.len() < usize::from(dice) {
            return Err(BattleError::DiceRanOut {
                needed: dice,
                left: s.fixed_dice.len(),
            });
        }
        let mut rolls = Dice::zeroed(usize::from(dice));
        let d = rolls.as_mut_slice();
        // The fixed dice first (tests), then the generator, borrowed once.
        // The hits counted as the dice are set, without a branch per die.
        let mut hits = 0u8;
        let mut k = 0;
        while k < d.len()
            && let Some(x) = s.fixed_dice.pop_front()
        {
            d[k] = x;
            hits += u8::from(x >= strike_number);
            k += 1;
        }
        if k < d.len() {
            let mut rng = self.rng.borrow_mut();
            for x in &mut d[k..] {
                *x = rng.roll(6) as u8;
                hits += u8::from(*x >= strike_number);
            }
        }
        Ok((rolls, hits))
    }
}
