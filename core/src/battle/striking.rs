//! Who may strike whom: contact, strike parameters and abilities, carries,
//! rangestrikes and the line of sight, and the queries that report them.

use super::*;
use crate::script::F;

impl<'v> Battle<'v> {
    /// The hexes of the living enemies of `side` on the battleland (the
    /// slain stay until the end of the strike phase, out of contact).
    pub(super) fn enemy_hexes(&self, s: &State, side: BattleSide) -> HexSet {
        // Without a branch per unit (see `units_where`), the gone skipped.
        self.present(s).fold(0, |m, j| {
            let t = &s.units[j];
            let enemy = (t.side != side) & (t.damage < t.power);
            m | t.hex_bit() & HexSet::from(enemy).wrapping_neg()
        })
    }

    pub(super) fn in_contact_any(&self, s: &State, unit: UnitId) -> bool {
        let u = &s.units[unit as usize];
        let Some(h) = s.place(unit as usize) else {
            return false;
        };
        self.contact_at(s, h) & self.enemy_hexes(s, u.side) != 0
    }

    /// The hexes in contact with `h` now: the battleland's contact, less
    /// what a hex hazard's `NoContactIn` keeps out (the characters it
    /// concerns standing in it; all of `h`'s if one stands on `h`).
    pub(super) fn contact_at(&self, s: &State, h: HexId) -> HexSet {
        let contact = match &s.overlay {
            // A script's battleland has its own hexsides.
            Some(o) if o.landscape.is_some() => &o.tables.contact,
            _ => &self.geo.contact,
        };
        contact_given(contact, self.aloof(s), h)
    }

    /// The hexes whose character a `NoContactIn` hazard keeps out of
    /// contact now (none on most battlelands).
    #[inline]
    pub(super) fn aloof(&self, s: &State) -> HexSet {
        // The common path: no script changed the battleland, none of its
        // hazards keeps anyone out of contact.
        if s.overlay.is_none() && self.geo.aloof == 0 {
            return 0;
        }
        self.aloof_walk(s)
    }

    fn aloof_walk(&self, s: &State) -> HexSet {
        let hexes = self.tables_in(s).aloof;
        if hexes == 0 {
            return 0;
        }
        let land = self.land_in(s);
        let mut out = 0;
        for (i, u) in s.units.iter().enumerate() {
            let Some(h) = u.hex().filter(|&h| hexes & bit(h) != 0) else {
                continue;
            };
            let hz = land.hex(h).hazard;
            let native = self.natives_of(s, i).contains(hz);
            if self
                .variant
                .hazard(hz)
                .effects
                .iter()
                .any(|e| matches!(e, Effect::NoContactIn(who) if who.applies(native)))
            {
                out |= bit(h);
            }
        }
        out
    }

    /// Whether a reading of a line of sight is open to unit `unit` by the
    /// hazards that block some rangestrikers only (`BlocksSight(For(..))`).
    fn open_to(&self, s: &State, unit: UnitId, path: &[HexId]) -> bool {
        !self.tables_in(s).sight_by_who
            || geometry::blocker_for(
                &self.variant,
                self.land_in(s),
                path,
                self.natives_of(s, unit as usize),
            )
            .is_none()
    }

    /// Living enemies in contact with `unit`, in unit order.
    pub(super) fn each_contact_target<'a>(
        &self,
        s: &'a State,
        unit: UnitId,
    ) -> impl Iterator<Item = UnitId> + 'a {
        let u = &s.units[unit as usize];
        // A rider strikes by its mount's hex.
        let (side, contact) = match s.place(unit as usize) {
            Some(h) => (u.side, self.contact_at(s, h)),
            None => (u.side, 0),
        };
        units_where(&s.units, move |t| {
            (t.side != side) & (t.damage < t.power) & (contact & t.hex_bit() != 0)
        })
        .map(|i| i as UnitId)
    }

    /// Is `target` a living enemy in contact with `unit` (as
    /// [`Battle::each_contact_target`] would list it)?
    pub(super) fn is_contact_target(&self, s: &State, unit: UnitId, target: UnitId) -> bool {
        let (Some(u), Some(t)) = (s.units.get(unit as usize), s.units.get(target as usize)) else {
            return false;
        };
        t.side != u.side
            && !t.is_slain()
            && s.place(unit as usize)
                .is_some_and(|h| self.contact_at(s, h) & t.hex_bit() != 0)
    }

    /// A character of the striking side in contact that has not struck.
    pub(super) fn must_strike(&self, s: &State) -> Option<UnitId> {
        let Phase::Strike { striking } = s.phase else {
            return None;
        };
        let enemies = self.enemy_hexes(s, striking);
        if enemies == 0 {
            return None;
        }
        super::units_where(&s.units, |u| (u.side == striking) & (u.strikes_left > 0))
            .filter(|&i| s.acts(i))
            .map(|i| i as UnitId)
            .find(|&i| {
                s.place(i as usize)
                    .is_some_and(|h| self.contact_at(s, h) & enemies != 0)
                    && self.may_strike_any(s, i)
            })
    }

    /// Some enemy in contact that `may_target` allows `unit` to strike
    /// (all of them when no script asks).
    fn may_strike_any(&self, s: &State, unit: UnitId) -> bool {
        if !self
            .lua
            .as_ref()
            .is_some_and(|l| self.use_hooks && l.has_handlers("may_target"))
        {
            return true;
        }
        self.each_contact_target(s, unit)
            .any(|t| self.may_target_listed(s, unit, t, false))
    }

    pub(super) fn fighter(&self, s: &State, unit: UnitId) -> strike::Fighter {
        let u = &s.units[unit as usize];
        strike::Fighter {
            character: u.character,
            power: u.power,
            hex: s.place(unit as usize).unwrap_or(HexId(0)),
        }
    }

    /// A unit's skill and natives as the rules read them now.
    #[inline(always)]
    pub(super) fn traits(&self, s: &State, unit: UnitId) -> strike::Traits {
        let i = unit as usize;
        match s.extra.get(i) {
            // No script changed the unit: the chart's, read once.
            None => strike::Traits::of(&self.variant, s.units[i].character),
            Some(_) => strike::Traits {
                skill: self.skill_of(s, i),
                natives: self.natives_of(s, i),
            },
        }
    }

    /// The strike number and dice of a strike, with hazards and abilities.
    pub(super) fn strike_params(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        forgo: bool,
    ) -> Result<StrikeParams, BattleError> {
        let (a, t) = (self.fighter(s, unit), self.fighter(s, target));
        let (at, tt) = (self.traits(s, unit), self.traits(s, target));
        let p = match self.tables_in(s).strike_fx(a.hex, t.hex) {
            Some(fx) => strike::strike_by(&self.variant, (a, at), tt, fx, forgo),
            None => strike::strike_as(&self.variant, self.land_in(s), (a, at), (t, tt), forgo),
        };
        self.abilities(s, (unit, target), (a, at), (t, tt), false, p)
    }

    /// Character abilities (Lua hooks) may change a strike.
    #[inline(always)]
    pub(super) fn abilities(
        &self,
        s: &State,
        (unit, target): (UnitId, UnitId),
        (a, at): (strike::Fighter, strike::Traits),
        (t, tt): (strike::Fighter, strike::Traits),
        ranged: bool,
        p: StrikeParams,
    ) -> Result<StrikeParams, BattleError> {
        match self.lua.as_ref().filter(|_| self.use_hooks) {
            None => Ok(p),
            Some(lua) => self.abilities_with(lua, s, (unit, target), (a, at), (t, tt), ranged, p),
        }
    }

    /// [`Battle::abilities`] with the battle's Lua.
    #[allow(clippy::too_many_arguments)]
    fn abilities_with(
        &self,
        lua: &Rc<LuaHost>,
        s: &State,
        (unit, target): (UnitId, UnitId),
        (a, at): (strike::Fighter, strike::Traits),
        (t, tt): (strike::Fighter, strike::Traits),
        ranged: bool,
        mut p: StrikeParams,
    ) -> Result<StrikeParams, BattleError> {
        let v = &*self.variant;
        let (ac, tc) = (v.character(a.character), v.character(t.character));
        for (is_striker, c) in [(true, ac), (false, tc)] {
            for hook in &c.abilities {
                let (sn, dice): (i64, i64) = self.call_battle_hook(
                    lua,
                    s,
                    &v.hooks[hook.index()],
                    &[
                        ("striker", F::I(i64::from(unit))),
                        ("target", F::I(i64::from(target))),
                    ],
                    (
                        is_striker,
                        ranged,
                        p.strike_number,
                        p.dice,
                        a.power,
                        at.skill,
                        t.power,
                        tt.skill,
                    ),
                )?;
                let chart = &v.rules.strike_chart;
                p.strike_number = sn.clamp(i64::from(chart.min), i64::from(chart.max)) as u8;
                p.dice = dice.clamp(0, 255) as u8;
            }
        }
        Ok(p)
    }

    pub(super) fn carry_targets(&self, s: &State, c: Carry) -> Result<Vec<UnitId>, BattleError> {
        let mut out = Vec::new();
        for t in self.each_contact_target(s, c.striker) {
            if self.carries_to(s, c, t)? {
                out.push(t);
            }
        }
        Ok(out)
    }

    /// Whether [`Battle::carry_targets`] would list some target. Without
    /// scripts nothing in it fails, so it stops at the first (and builds
    /// no list); with them every target is asked, as the list asks them.
    pub(super) fn carries_any(&self, s: &State, c: Carry) -> Result<bool, BattleError> {
        if self.hooks().is_some() {
            return Ok(!self.carry_targets(s, c)?.is_empty());
        }
        // Most strikes leave their striker no other enemy in contact: the
        // listing's enemies say so without a walk of the units.
        let u = &s.units[usize::from(c.striker)];
        let first = &s.units[usize::from(c.first)];
        if let Some(enemies) = self.foe_hexes_known(u.side)
            && let Some(h) = s.place(usize::from(c.striker))
        {
            let slain = first.hex_bit() & HexSet::from(first.is_slain()).wrapping_neg();
            if self.contact_at(s, h) & enemies & !slain == 0 {
                debug_assert!(
                    !self
                        .each_contact_target(s, c.striker)
                        .any(|t| self.carries_to(s, c, t).unwrap_or(true)),
                    "no other enemy in contact"
                );
                return Ok(false);
            }
        }
        for t in self.each_contact_target(s, c.striker) {
            if self.carries_to(s, c, t)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the hits of `c` may be carried to `t` (a living enemy in
    /// contact with the striker).
    fn carries_to(&self, s: &State, c: Carry, t: UnitId) -> Result<bool, BattleError> {
        if !self.may_target_as(s, c.striker, t, false, Some(c.first))? {
            return Ok(false);
        }
        let p = self.strike_params(s, c.striker, t, c.forgo)?;
        Ok(p.strike_number <= c.strike_number
            && p.bonus_skill >= c.bonus_skill
            && p.bonus_dice >= c.bonus_dice)
    }

    /// A quick test that [`Battle::sight`] would find an open line from
    /// `unit` to `target` (both on the battleland): false only where it would
    /// not, so that listing rangestrikes words no refusal and draws no line.
    /// `occupied`: the hexes holding a character.
    pub(super) fn may_see(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        occupied: HexSet,
    ) -> bool {
        let own = s.place(unit as usize);
        if own.is_none() || s.extra.get(unit as usize).is_none_or(|e| e.origins == 0) {
            return self.may_see_from(s, unit, own, target, occupied);
        }
        self.origins(s, unit, occupied)
            .any(|from| self.may_see_from(s, unit, Some(from), target, occupied))
    }

    /// The hexes among `foes` that unit `i` (on `from`, with no script
    /// change to any unit or to the battleland, and no hazard keeping
    /// anyone out of contact) may see ([`Battle::sees_hex`]), remembered
    /// per unit: nothing moves during a strike phase, so each of its
    /// decisions asks again with the same key. The key (the unit's
    /// character, its hex, the occupied hexes) is everything `sees_hex`
    /// depends on there, so a remembered answer is always right.
    pub(super) fn memo_sight(
        &self,
        s: &State,
        i: usize,
        from: HexId,
        occupied: HexSet,
        foes: HexSet,
    ) -> HexSet {
        let key = (s.units[i].character, from, occupied);
        let mut memo = self.sight_memo.borrow_mut();
        if memo.len() <= i {
            memo.resize(i + 1, None);
        }
        let entry = match &mut memo[i] {
            Some(e) if e.0 == key => e,
            slot => slot.insert((key, 0, 0)),
        };
        let ask = foes & !entry.1;
        if ask != 0 {
            entry.2 |= self.sees_hexes(s, i, from, ask, occupied);
        }
        entry.1 |= foes;
        entry.2 & foes
    }

    /// The hexes of `hexes` that [`Battle::sees_hex`] finds unit `i` may
    /// see from `from`, on [`Battle::memo_sight`]'s common path: the
    /// character, its range and the hexes in contact read once, not per hex.
    fn sees_hexes(
        &self,
        s: &State,
        i: usize,
        from: HexId,
        hexes: HexSet,
        occupied: HexSet,
    ) -> HexSet {
        let v = &*self.variant;
        let Some(rs) = &v.character(s.units[i].character).rangestrike else {
            return 0;
        };
        let tables = self.tables_in(s);
        if tables.sight_by_who {
            // Hazards that block some rangestrikers only: the full reading.
            return tables::hexes(hexes)
                .filter(|&to| self.sees_hex(s, i as UnitId, from, to, occupied))
                .fold(0, |m, to| m | bit(to));
        }
        let max = u32::from(self.skill_of(s, i).min(v.rules.battle.max_range));
        let blocked = occupied | tables::BLOCKED;
        let mut out = 0;
        for to in tables::hexes(hexes & !self.contact_at(s, from)) {
            let range = self.board().distance(from, to) + 1;
            if range < 2 || range > max {
                continue;
            }
            let m = tables.sight(from, to);
            if rs.magic || m[0] & blocked == 0 || m[1] & blocked == 0 {
                out |= bit(to);
            }
        }
        out
    }

    /// The hexes `unit`'s rangestrikes may begin from: its own, then the
    /// unoccupied ones a script gave it (`ctx:set_unit(u, "rangestrike_from", ...)`).
    pub(super) fn origins<'a>(
        &self,
        s: &'a State,
        unit: UnitId,
        occupied: HexSet,
    ) -> impl Iterator<Item = HexId> + 'a {
        let own = s.place(unit as usize);
        let extra = match own {
            Some(_) => s.extra(unit as usize).origins & !occupied,
            None => 0,
        };
        own.into_iter()
            .chain((0..32u8).filter(move |i| extra & (1 << i) != 0).map(HexId))
    }

    /// [`Battle::may_see`] from `from` (the unit's hex or another origin).
    fn may_see_from(
        &self,
        s: &State,
        unit: UnitId,
        from: Option<HexId>,
        target: UnitId,
        occupied: HexSet,
    ) -> bool {
        let (Some(from), Some(to)) = (from, s.units[target as usize].hex()) else {
            return true;
        };
        self.sees_hex(s, unit, from, to, occupied)
    }

    /// [`Battle::may_see_from`] with both ends on the battleland: whether
    /// `unit`, rangestriking from `from`, may see hex `to` (range, contact
    /// and the line of sight; who stands on `to` does not matter).
    fn sees_hex(&self, s: &State, unit: UnitId, from: HexId, to: HexId, occupied: HexSet) -> bool {
        let v = &*self.variant;
        let u = &s.units[unit as usize];
        let Some(rs) = &v.character(u.character).rangestrike else {
            return false;
        };
        let range = self.board().distance(from, to) + 1;
        let max = self
            .skill_of(s, unit as usize)
            .min(v.rules.battle.max_range);
        if self.contact_at(s, from) & bit(to) != 0 || range < 2 || range > u32::from(max) {
            return false;
        }
        if rs.magic {
            return true;
        }
        // Only the hexes between the ends count, so the target's own does not.
        let tables = self.tables_in(s);
        let m = tables.sight(from, to);
        let open = |m: u32| m & (occupied | tables::BLOCKED) == 0;
        if !tables.sight_by_who {
            return open(m[0]) || open(m[1]);
        }
        let (first, second) = self.board().lines_between(from, to);
        (open(m[0]) && self.open_to(s, unit, first))
            || second.is_some_and(|p| open(m[1]) && self.open_to(s, unit, p))
    }

    /// Whether [`Battle::rangestrike_check`] would accept a rangestrike of
    /// `unit` (on the battleland, in contact with no enemy) at `target` (a
    /// living enemy on the battleland), without wording a refusal: with no
    /// Lua to call, nothing but the line of sight and immunity can refuse it.
    pub(super) fn may_rangestrike(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        occupied: HexSet,
    ) -> bool {
        self.may_see(s, unit, target, occupied) && self.may_rangestrike_seen(s, unit, target)
    }

    /// The rest of [`Battle::may_rangestrike`] once the line of sight is
    /// known to be open.
    pub(super) fn may_rangestrike_seen(&self, s: &State, unit: UnitId, target: UnitId) -> bool {
        let v = &*self.variant;
        let c = v.character(s.units[unit as usize].character);
        let t = v.character(s.units[target as usize].character);
        if self.use_hooks
            && self.lua.is_some()
            && (c
                .rangestrike
                .as_ref()
                .is_some_and(|r| matches!(r.strength, RangeStrength::Hook(_)))
                || !c.abilities.is_empty()
                || !t.abilities.is_empty())
        {
            // A hook the rangestrike calls (its strength, an ability) may
            // fail: ask the full check. Without one, nothing else in it
            // refuses what the sight and the immunity allow.
            return self.rangestrike_check(s, unit, target).is_ok();
        }
        let magic = c.rangestrike.as_ref().is_some_and(|r| r.magic);
        magic || !v.class(t.class).rangestrike_immune
    }

    /// May `unit` rangestrike `target` now? The parameters and the path.
    pub(super) fn rangestrike_check(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
    ) -> Result<(StrikeParams, Vec<HexId>), BattleError> {
        let (p, path) = self.rangestrike_eval(s, unit, target)?;
        Ok((p, path.to_vec()))
    }

    /// [`Battle::rangestrike_check`] with the path in the sight table: a
    /// refusal is worded, an accepted rangestrike builds nothing.
    pub(super) fn rangestrike_eval(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
    ) -> Result<(StrikeParams, &[HexId]), BattleError> {
        self.rangestrike_eval_as(s, unit, target, false)
    }

    /// [`Battle::rangestrike_eval`]; `listed`: the rangestrike was listed
    /// for `s` without scripts, which found the rangestriker out of contact
    /// and the target seen (checked again in debug builds only).
    pub(super) fn rangestrike_eval_as(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        listed: bool,
    ) -> Result<(StrikeParams, &[HexId]), BattleError> {
        let v = &*self.variant;
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        let t = s
            .units
            .get(target as usize)
            .ok_or(BattleError::NoUnit(target))?;
        let c = v.character(u.character);
        let Some(rs) = &c.rangestrike else {
            return refuse(format!(
                "{} does not rangestrike (Law of the Battlelands 27.B)",
                c.name
            ));
        };
        let (Some(from), Some(to)) = (s.place(unit as usize), t.hex()) else {
            return refuse("both must be on the battleland");
        };
        if t.side == u.side || t.is_slain() {
            return refuse("a rangestrike targets a living enemy");
        }
        // The listing's occupied hexes, when it found them: a rangestrike
        // being carried out has moved nobody.
        let occupied = match self.foes_now.get() {
            Some(f) if listed => f.occupied,
            _ => occupied_set(s),
        };
        debug_assert_eq!(occupied, occupied_set(s));
        debug_assert!(!listed || !self.in_contact_any(s, unit));
        debug_assert!(!listed || self.may_see(s, unit, target, occupied));
        if !listed && self.in_contact_any(s, unit) {
            return refuse(
                "a character in contact with an enemy cannot rangestrike (Law of the Battlelands 27.B)",
            );
        }
        if !listed && !self.may_see(s, unit, target, occupied) {
            // Word why (only here: `may_see` is false exactly where `sight`
            // finds no open line).
            let info = self.sight(s, unit, from, to, rs.magic, target);
            return refuse(info.path.err().unwrap_or_else(|| "no line of sight".into()));
        }
        let tclass = v.class(v.character(t.character).class);
        if tclass.rangestrike_immune && !rs.magic {
            return refuse(format!(
                "{} is immune to rangestrikes but magic ones (Law of the Battlelands 27.F)",
                v.character(t.character).name
            ));
        }
        let strength = match strike::range_strength(rs.strength, u.power) {
            Some(n) => n,
            None => match (rs.strength, &self.lua) {
                (RangeStrength::Hook(h), Some(lua)) if self.use_hooks => {
                    let n: i64 = self.call_battle_hook(
                        lua,
                        s,
                        &v.hooks[h.index()],
                        &[
                            ("unit", F::I(i64::from(unit))),
                            ("target", F::I(i64::from(target))),
                        ],
                        (u.power, self.skill_of(s, unit as usize)),
                    )?;
                    n.clamp(0, 255) as u8
                }
                _ => u.power / 2,
            },
        };
        let (mut a, tf) = (self.fighter(s, unit), self.fighter(s, target));
        // Where the line runs along a hexside the rangestriker picks the hex
        // (reference sheet, "Rangestriking"): the open reading that strikes
        // best; and so among the hexes it may begin from (its own first).
        let mut best: Option<(StrikeParams, &[HexId], HexId)> = None;
        let several = s.extra(unit as usize).origins != 0;
        for from in
            std::iter::once(from).chain(self.origins(s, unit, occupied).skip(1).filter(|_| several))
        {
            if several && !self.may_see_from(s, unit, Some(from), target, occupied) {
                continue;
            }
            a.hex = from;
            // The open readings (magic: the first; Law of the Battlelands 27.F).
            let (first, second) = self.board().lines_between(from, to);
            // Each with whether no hazard along it changes a rangestrike.
            let paths: [Option<(&[HexId], bool)>; 2] = if rs.magic {
                [Some((first, false)), None]
            } else {
                let m = self.tables_in(s).sight(from, to);
                let open = |m: u32| m & (occupied | tables::BLOCKED) == 0;
                let calm = |m: u32| m & tables::CALM != 0;
                [
                    Some(first)
                        .filter(|p| open(m[0]) && self.open_to(s, unit, p))
                        .map(|p| (p, calm(m[0]))),
                    second
                        .filter(|p| open(m[1]) && self.open_to(s, unit, p))
                        .map(|p| (p, calm(m[1]))),
                ]
            };
            for (path, calm) in paths.into_iter().flatten() {
                let p = strike::rangestrike_with(
                    v,
                    self.land_in(s),
                    (a, self.traits(s, unit)),
                    (tf, self.traits(s, target)),
                    path,
                    strength,
                    rs.magic,
                    calm,
                );
                let better = best.as_ref().is_none_or(|(b, _, _)| {
                    (p.strike_number, std::cmp::Reverse(p.dice))
                        < (b.strike_number, std::cmp::Reverse(b.dice))
                });
                if better {
                    best = Some((p, path, from));
                }
            }
        }
        let Some((p, path, from)) = best else {
            return refuse("no line of sight");
        };
        a.hex = from;
        let p = self.abilities(
            s,
            (unit, target),
            (a, self.traits(s, unit)),
            (tf, self.traits(s, target)),
            true,
            p,
        )?;
        Ok((p, path))
    }

    /// Range and line of sight from `from` to `to` for a rangestriker of
    /// `character` (magic or not), with the characters now on the battleland.
    pub(super) fn sight(
        &self,
        s: &State,
        unit: UnitId,
        from: HexId,
        to: HexId,
        magic: bool,
        target: UnitId,
    ) -> SightInfo {
        let v = &*self.variant;
        let (first, second) = self.board().lines_between(from, to);
        let first = first.to_vec();
        let range = first.len() as u8;
        let skill = self.skill_of(s, unit as usize);
        let max = skill.min(v.rules.battle.max_range);
        let fail = |reason: String, path: Vec<HexId>| SightInfo {
            range,
            path: Err(reason),
            shown: path,
        };
        if self.contact_at(s, from) & bit(to) != 0 || range < 2 {
            return fail("the target is in contact: strike it instead".into(), first);
        }
        if range > max {
            return fail(
                format!(
                    "range {range} is beyond {} (skill {skill}, at most {}; Law of the Battlelands 27.C)",
                    max, v.rules.battle.max_range
                ),
                first,
            );
        }
        if magic {
            // Law of the Battlelands 27.F: never blocked.
            return SightInfo {
                range,
                path: Ok(vec![first.clone()]),
                shown: first,
            };
        }
        let natives = self.natives_of(s, unit as usize);
        self.readings(s, natives, (first, second), target)
    }

    /// The readings of a line (`lines_between`) that nothing blocks: no
    /// character but `target` on a hex between, no hazard or higher
    /// ground, for a viewer of `natives`; or why none is open.
    pub(super) fn readings(
        &self,
        s: &State,
        natives: crate::ids::HazardSet,
        (first, second): (Vec<HexId>, Option<&[HexId]>),
        target: UnitId,
    ) -> SightInfo {
        let v = &*self.variant;
        let range = first.len() as u8;
        let occupied = |h: HexId| occupant_but(s, h, target).is_some();
        let name = |h: HexId| {
            occupant_but(s, h, target)
                .map(|c| v.character(c).name.clone())
                .unwrap_or_default()
        };
        let mut reasons = Vec::new();
        let mut ok: Vec<Vec<HexId>> = Vec::new();
        for p in std::iter::once(first.clone()).chain(second.map(<[HexId]>::to_vec)) {
            let land = self.land_in(s);
            match geometry::blocker(v, land, &p, &occupied)
                .or_else(|| geometry::blocker_for(v, land, &p, natives))
            {
                None => ok.push(p),
                Some(r) => reasons.push(r.describe(v, &name)),
            }
        }
        match ok.first() {
            Some(p) => SightInfo {
                range,
                shown: p.clone(),
                path: Ok(ok),
            },
            None => SightInfo {
                range,
                path: Err(reasons.join("; and ")),
                shown: first,
            },
        }
    }

    /// A unit and a target both on the battleland: the unit and both hexes.
    fn both_placed(
        &self,
        unit: UnitId,
        target: UnitId,
    ) -> Result<(&Unit, HexId, HexId), BattleError> {
        let units = &self.state.units;
        let u = units.get(unit as usize).ok_or(BattleError::NoUnit(unit))?;
        let t = units
            .get(target as usize)
            .ok_or(BattleError::NoUnit(target))?;
        match (place_of(units, unit as usize), t.hex()) {
            (Some(from), Some(to)) => Ok((u, from, to)),
            _ => refuse("both must be on the battleland"),
        }
    }

    /// The line-of-sight query: range, the hexes crossed, and why not.
    pub fn line_of_sight(&self, unit: UnitId, target: UnitId) -> Result<SightReport, BattleError> {
        let s = &self.state;
        let (u, from, to) = self.both_placed(unit, target)?;
        let magic = self
            .variant
            .character(u.character)
            .rangestrike
            .as_ref()
            .is_some_and(|r| r.magic);
        let info = self.sight(s, unit, from, to, magic, target);
        let check = self.rangestrike_check(s, unit, target);
        let (possible, reason, params, shown) = match check {
            Ok((p, path)) => (true, None, Some(p), path),
            Err(BattleError::Refused(r)) => (false, Some(r), None, info.shown),
            Err(e) => return Err(e),
        };
        Ok(SightReport {
            range: info.range,
            path: shown.iter().map(|h| h.label()).collect(),
            possible,
            reason,
            strike_number: params.map(|p| p.strike_number),
            dice: params.map(|p| p.dice),
        })
    }

    /// The strike query: contact, strike number, dice, and for every other
    /// enemy whether hits may carry over to it.
    pub fn strike_report(&self, unit: UnitId, target: UnitId) -> Result<StrikeReport, BattleError> {
        let s = &self.state;
        let (u, from, to) = self.both_placed(unit, target)?;
        let contact = self.contact_at(s, from) & bit(to) != 0;
        let p = self.strike_params(s, unit, target, false)?;
        let c = Carry {
            striker: unit,
            hits: 1,
            strike_number: p.strike_number,
            bonus_skill: p.bonus_skill,
            bonus_dice: p.bonus_dice,
            forgo: false,
            first: target,
        };
        let carry = self.carry_targets(s, c)?;
        let carry_over = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, o)| o.side != u.side && *i as UnitId != target && o.hex().is_some())
            .map(|(i, o)| CarryReport {
                character: self.variant.character(o.character).name.clone(),
                hex: o.hex().map(HexId::label).unwrap_or_default(),
                carry: contact && carry.contains(&(i as UnitId)),
            })
            .collect();
        Ok(StrikeReport {
            contact,
            strike_number: p.strike_number,
            dice: p.dice,
            carry_over,
        })
    }
}

/// The hexes in contact with `h`, by the battleland's `contact` table less
/// the `aloof` hexes ([`Battle::aloof`]).
pub(super) fn contact_given(contact: &[HexSet; MAX_HEXES], aloof: HexSet, h: HexId) -> HexSet {
    if aloof & bit(h) != 0 {
        0
    } else {
        contact[h.0 as usize] & !aloof
    }
}
