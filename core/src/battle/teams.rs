//! Battles of more than two legions: a side made of teams, each a player's
//! characters with its own placement zone, acting in turn within its side's
//! phases ([`Battle::set_teams`]). A battle without teams is one legion
//! against another, as masterplay's engagements are; with them, a side's
//! maneuver (placement) and strike phases pass from team to team, a team
//! whose characters are gone may bring more ([`Battle::add_to_team`]) while it
//! has reserves, and a team's slain Titan takes its team out of the battle
//! (the whole battle when it is the only team of its side).

use super::*;

/// The most characters a battle of teams holds: a unit's id is a byte (a
/// challenger brings all his legions: 12 markers of 7 are 84).
const MAX_UNITS: usize = 250;

/// One team of a battle of many legions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub side: BattleSide,
    /// The hexes its characters are committed to (placement phases).
    pub zone: HexSet,
    /// It may still bring characters when its own are gone: while it has,
    /// its side is not out of the battle.
    pub reserves: bool,
}

/// How a battle's units are divided into teams.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamSetup {
    /// In their order of acting within their side.
    pub teams: Vec<Team>,
    /// The team of each unit of the setup, in the setup's order (the
    /// attacker's, then the defender's).
    pub unit_teams: Vec<u8>,
    /// Hexes nobody may enter.
    pub forbidden: HexSet,
    /// Strikes go from right to left along each side's line: of a team's
    /// characters that can strike, the rightmost (as its side faces the
    /// enemy) strikes first.
    pub right_to_left: bool,
}

/// The teams as the battle's state keeps them: none in a battle of two
/// legions, where the state carries one empty pointer (the state is copied
/// at every action of the hot path).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Teams(Option<Box<TeamData>>);

/// No teams: what [`Teams`] reads as without any.
static NO_TEAMS: TeamData = TeamData {
    list: Vec::new(),
    of: Vec::new(),
    turn: 0,
    forbidden: 0,
    right: Vec::new(),
};

impl std::ops::Deref for Teams {
    type Target = TeamData;
    fn deref(&self) -> &TeamData {
        self.0.as_deref().unwrap_or(&NO_TEAMS)
    }
}

impl std::ops::DerefMut for Teams {
    fn deref_mut(&mut self) -> &mut TeamData {
        self.0.get_or_insert_with(|| Box::new(NO_TEAMS.clone()))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct TeamData {
    pub(super) list: Vec<Team>,
    /// The team of each unit; units past its end (added by scripts) belong
    /// to the first team of their side.
    pub(super) of: Vec<u8>,
    /// The team acting in the current phase.
    pub(super) turn: u8,
    pub(super) forbidden: HexSet,
    /// By hex, how far right it lies as the attacker faces the defender
    /// (the defender's right is the other way); empty without the
    /// right-to-left order.
    pub(super) right: Vec<i32>,
}

impl Teams {
    #[inline]
    pub(super) fn active(&self) -> bool {
        self.0.is_some()
    }
}

impl State {
    /// The team of unit `i` (0 without teams).
    pub(super) fn team_of(&self, i: usize) -> u8 {
        match self.teams.of.get(i) {
            Some(&t) => t,
            None => {
                let side = self.units.get(i).map(|u| u.side);
                self.teams
                    .list
                    .iter()
                    .position(|t| Some(t.side) == side)
                    .unwrap_or(0) as u8
            }
        }
    }

    /// Does unit `i` act for its side now (always, without teams)?
    #[inline]
    pub(super) fn acts(&self, i: usize) -> bool {
        !self.teams.active() || self.team_of(i) == self.teams.turn
    }
}

impl<'v> Battle<'v> {
    /// A battle of teams: [`Battle::with_scripts`] with each side as many
    /// legions as it has teams (a side may hold more characters than a
    /// legion), divided by `teams` ([`Battle::set_teams`]).
    pub fn with_teams(
        variant: impl Into<VariantRef<'v>>,
        setup: BattleSetup,
        teams: TeamSetup,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        let variant = variant.into();
        if setup.attacker.len() + setup.defender.len() > MAX_UNITS {
            return Err(BattleError::Setup(format!(
                "a battle of teams holds at most {MAX_UNITS} characters"
            )));
        }
        let land = Self::check_setup_sized(&variant, &setup, false)?;
        let state = Self::first_state(land, &setup, Vec::new());
        let mut battle = Self::assemble(variant, setup, state, rng, lua)?;
        battle.set_teams(teams)?;
        Ok(battle)
    }

    /// Divides the battle into teams (before its first action). Refused:
    /// no teams, a unit's team past the list or of another side, a side
    /// with no team.
    pub fn set_teams(&mut self, setup: TeamSetup) -> Result<(), BattleError> {
        let s = &self.state;
        if setup.teams.is_empty() || setup.teams.len() > 64 {
            return Err(BattleError::Setup("1 to 64 teams".into()));
        }
        if setup.unit_teams.len() != s.units.len() {
            return Err(BattleError::Setup(format!(
                "{} units and {} teams given for them",
                s.units.len(),
                setup.unit_teams.len()
            )));
        }
        for (i, &t) in setup.unit_teams.iter().enumerate() {
            match setup.teams.get(usize::from(t)) {
                Some(team) if team.side == s.units[i].side => {}
                _ => {
                    return Err(BattleError::Setup(format!(
                        "unit {i}'s team {t} is not one of its side's"
                    )));
                }
            }
        }
        for side in [BattleSide::Attacker, BattleSide::Defender] {
            if !setup.teams.iter().any(|t| t.side == side) {
                return Err(BattleError::Setup(format!("no team of the {side:?}")));
            }
        }
        let right = if setup.right_to_left {
            self.rightness(&setup.teams)
        } else {
            Vec::new()
        };
        let mut state = self.state.clone();
        state.teams = Teams(Some(Box::new(TeamData {
            list: setup.teams,
            of: setup.unit_teams,
            turn: 0,
            forbidden: setup.forbidden,
            right,
        })));
        let side = state.to_act();
        state.teams.turn = self.first_team(&state, side).unwrap_or(0);
        self.state = state;
        self.state_changed();
        Ok(())
    }

    /// The team acting now, in a battle of teams.
    pub fn team_to_act(&self) -> Option<u8> {
        self.state.teams.active().then_some(self.state.teams.turn)
    }

    /// The team of `unit`, in a battle of teams.
    pub fn team_of(&self, unit: UnitId) -> Option<u8> {
        (self.state.teams.active() && usize::from(unit) < self.state.units.len())
            .then(|| self.state.team_of(usize::from(unit)))
    }

    /// The battle's teams (none without).
    pub fn teams(&self) -> &[Team] {
        &self.state.teams.list
    }

    /// Whether any character of `team` is still in the battle (waiting or
    /// on the battleland, not slain).
    pub fn team_present(&self, team: u8) -> bool {
        Self::present_in(&self.state, team)
    }

    fn present_in(s: &State, team: u8) -> bool {
        (0..s.units.len()).any(|i| s.team_of(i) == team && s.units[i].alive())
    }

    /// Brings `fighters` into the battle for `team`, waiting to be
    /// committed, and says whether it has reserves after them.
    pub fn add_to_team(
        &mut self,
        team: u8,
        fighters: &[Fighter],
        reserves: bool,
    ) -> Result<(), BattleError> {
        let Some(side) = self.state.teams.list.get(usize::from(team)).map(|t| t.side) else {
            return Err(BattleError::Refused(format!("no team {team}")));
        };
        if self.state.phase == Phase::Over {
            return Err(BattleError::Over);
        }
        if self.state.units.len() + fighters.len() > MAX_UNITS {
            return Err(BattleError::Refused(format!(
                "a battle of teams holds at most {MAX_UNITS} characters"
            )));
        }
        let s = &mut *self.state;
        // Units past `of` belong to their side's first team: fill it in.
        while s.teams.of.len() < s.units.len() {
            let t = s.team_of(s.teams.of.len());
            s.teams.of.push(t);
        }
        for f in fighters {
            s.units.push(Unit::waiting(f.character, side, f.power));
            s.teams.of.push(team);
        }
        s.teams.list[usize::from(team)].reserves = reserves;
        self.state_changed();
        Ok(())
    }

    /// Ends the battle if a side has nobody left and no reserves (after
    /// [`Battle::set_reserves`] took a team's last ones away); its events.
    pub fn end_if_decided(&mut self) -> Vec<BattleEvent> {
        let mut ev = Vec::new();
        if self.state.phase == Phase::Over {
            return ev;
        }
        let mut s = self.state.clone();
        if self.check_end(&mut s, &mut ev) {
            self.state = s;
            self.state_changed();
        }
        ev
    }

    /// Says whether `team` may still bring characters.
    pub fn set_reserves(&mut self, team: u8, reserves: bool) {
        if !self.state.teams.active() {
            return;
        }
        if let Some(t) = self.state.teams.list.get_mut(usize::from(team)) {
            t.reserves = reserves;
        }
        self.state_changed();
    }

    /// The first team of `side` with someone in the battle.
    pub(super) fn first_team(&self, s: &State, side: BattleSide) -> Option<u8> {
        self.team_after(s, side, None)
    }

    /// The next team of `side` after `after` (from the first: `None`) with
    /// someone in the battle, or with reserves.
    pub(super) fn team_after(&self, s: &State, side: BattleSide, after: Option<u8>) -> Option<u8> {
        let from = after.map_or(0, |t| usize::from(t) + 1);
        (from..s.teams.list.len())
            .find(|&t| {
                s.teams.list[t].side == side
                    && (s.teams.list[t].reserves || Self::present_in(s, t as u8))
            })
            .map(|t| t as u8)
    }

    /// Passes the phase to the next team of the side: true if there is one.
    pub(super) fn pass_to_next_team(&self, s: &mut State, side: BattleSide) -> bool {
        if !s.teams.active() {
            return false;
        }
        match self.team_after(s, side, Some(s.teams.turn)) {
            Some(t) => {
                s.teams.turn = t;
                true
            }
            None => false,
        }
    }

    /// A phase of `side` begins with its first team.
    pub(super) fn begin_team_turns(&self, s: &mut State, side: BattleSide) {
        if s.teams.active() {
            s.teams.turn = self.first_team(s, side).unwrap_or(0);
        }
    }

    /// The zone unit `i` is committed to: its team's, or its side's.
    pub(super) fn team_zone(&self, s: &State, i: usize, side: BattleSide) -> HexSet {
        if s.teams.active() {
            s.teams
                .list
                .get(usize::from(s.team_of(i)))
                .map_or(0, |t| t.zone)
        } else {
            self.zone(s, side)
        }
    }

    /// Does `side` still fight: someone alive, or a team with reserves?
    pub(super) fn side_reserves(s: &State, side: BattleSide) -> bool {
        s.teams.list.iter().any(|t| t.side == side && t.reserves)
    }

    /// With the right-to-left order, the unit of the acting team that
    /// strikes first: the rightmost that has a strike and an enemy in
    /// contact. `None`: any may strike.
    pub(super) fn first_striker(&self, s: &State, striking: BattleSide) -> Option<usize> {
        if s.teams.right.is_empty() {
            return None;
        }
        let enemies = self.enemy_hexes(s, striking);
        let sign = if striking == BattleSide::Attacker {
            1
        } else {
            -1
        };
        (0..s.units.len())
            .filter(|&i| {
                let u = &s.units[i];
                u.side == striking && u.strikes_left > 0 && s.acts(i)
            })
            .filter_map(|i| s.place(i).map(|h| (i, h)))
            .filter(|&(_, h)| self.contact_at(s, h) & enemies != 0)
            .max_by_key(|&(i, h)| {
                let r = s.teams.right.get(usize::from(h.0)).copied().unwrap_or(0);
                (sign * r, std::cmp::Reverse(i))
            })
            .map(|(i, _)| i)
    }

    /// How far right each hex lies as the attacker faces the defender: the
    /// facing runs from the middle of the attacker's zones to the middle of
    /// the defender's, and right is a quarter turn clockwise of it as the
    /// board is drawn (flat-topped, rows growing downward).
    fn rightness(&self, teams: &[Team]) -> Vec<i32> {
        let board = &self.land_in(&self.state).board;
        let centre = |h: HexId| {
            let c = board.coord(h);
            // Flat-topped axial to drawing coordinates (y downward).
            (
                1.5 * c.x as f64,
                3f64.sqrt() * (c.y as f64 + c.x as f64 / 2.0),
            )
        };
        let middle = |side: BattleSide| {
            let set = teams
                .iter()
                .filter(|t| t.side == side)
                .fold(0, |m, t| m | t.zone);
            let (mut x, mut y, mut n) = (0.0, 0.0, 0.0);
            for h in hexes(set) {
                let (a, b) = centre(h);
                x += a;
                y += b;
                n += 1.0;
            }
            if n > 0.0 { (x / n, y / n) } else { (0.0, 0.0) }
        };
        let (a, d) = (middle(BattleSide::Attacker), middle(BattleSide::Defender));
        let (fx, fy) = (d.0 - a.0, d.1 - a.1);
        // A quarter turn clockwise on a drawing whose y grows downward.
        let (rx, ry) = (-fy, fx);
        (0..MAX_HEXES)
            .map(|h| {
                if !board.has(HexId(h as u8)) {
                    return 0;
                }
                let (x, y) = centre(HexId(h as u8));
                ((x * rx + y * ry) * 1000.0).round() as i32
            })
            .collect()
    }

    /// In a battle of teams, a slain Titan on the battleland takes its team
    /// out: its other characters are removed. The battle ends when the
    /// fallen Titan's side has no team left, or the attacker's Titan fell
    /// (its side is one team). True when it ended.
    pub(super) fn team_titan_fall(&self, s: &mut State, ev: &mut Vec<BattleEvent>) -> bool {
        let titan = self.variant.rules.titan.character;
        let fallen: Vec<u8> = (0..s.units.len())
            .filter(|&i| {
                let u = &s.units[i];
                u.character == titan && u.on_field() && u.is_slain()
            })
            .map(|i| s.team_of(i))
            .collect();
        if fallen.is_empty() {
            return false;
        }
        let mut attacker_fell = false;
        for &t in &fallen {
            let side = s.teams.list[usize::from(t)].side;
            attacker_fell |= side == BattleSide::Attacker;
            s.teams.list[usize::from(t)].reserves = false;
            for i in 0..s.units.len() {
                if s.team_of(i) == t && s.units[i].alive() {
                    s.units[i].status = Status::Gone(Fate::Removed);
                    self.record(ev, || BattleEvent::Removed { unit: i as UnitId });
                }
            }
        }
        let lives = |s: &State, side: BattleSide| {
            s.units.iter().any(|u| u.side == side && u.alive()) || Self::side_reserves(s, side)
        };
        let (att, def) = (
            lives(s, BattleSide::Attacker) && !attacker_fell,
            lives(s, BattleSide::Defender),
        );
        let winner = match (att, def) {
            (true, true) => return false,
            (true, false) => Winner::Attacker,
            (false, true) => Winner::Defender,
            (false, false) => Winner::Neither,
        };
        if attacker_fell {
            for u in s.units.iter_mut() {
                if u.side == BattleSide::Attacker && u.alive() {
                    u.status = Status::Gone(Fate::Removed);
                }
            }
        }
        self.finish(s, ev, Some(winner));
        true
    }
}
