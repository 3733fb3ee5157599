//! A battle's beginning: a setup checked and its first state built
//! ([`Battle::new`], [`Battle::with_scripts`], [`Battle::restart`]), the
//! variant's scripts started, and a battle kept as a value and resumed
//! ([`Battle::snapshot`], [`Battle::resume`]).

use super::*;

impl<'v> Battle<'v> {
    /// A battle about to begin: the defender's first maneuver (or, after a
    /// Titan teleport, the attacker's choice of edge).
    pub fn new(
        variant: impl Into<VariantRef<'v>>,
        setup: BattleSetup,
        rng: GameRng,
    ) -> Result<Battle<'v>, BattleError> {
        let variant = variant.into();
        let rng = Rc::new(RefCell::new(rng));
        let lua = Self::start_scripts(&variant, &rng)?;
        Self::with_scripts(variant, setup, rng, lua)
    }

    /// A battle that draws from the game's own generator and calls the
    /// game's Lua VM (started once by [`Battle::start_scripts`] with that
    /// generator), so that a game does not start its scripts for every battle.
    pub fn with_scripts(
        variant: impl Into<VariantRef<'v>>,
        setup: BattleSetup,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        let variant = variant.into();
        let land = Self::check_setup(&variant, &setup)?;
        let state = Self::first_state(land, &setup, Vec::new());
        Self::assemble(variant, setup, state, rng, lua)
    }

    /// Begins the battle of `setup` in this battle's place: the battle
    /// [`Battle::with_scripts`] would begin with this battle's variant,
    /// generator and Lua VM, as it stands (a simulation sets the generator
    /// for each battle), reusing this one's buffers: a simulation's next
    /// battle. A battle [`Battle::keep_undo`] marked stays marked. On a bad
    /// setup, an error and the battle unchanged.
    pub fn restart(&mut self, setup: BattleSetup) -> Result<(), BattleError> {
        let land = Self::check_setup(&self.variant, &setup)?;
        let units = std::mem::take(&mut self.state.units);
        let state = Self::first_state(land, &setup, units);
        self.geo = Geometry::new(&self.variant, land);
        *self.state = state;
        self.setup = setup;
        self.undoable = false;
        // What was derived from the last battle goes (the memos keyed by
        // the generation with it).
        self.sight_memo.get_mut().clear();
        let lists = self.pick_lists.get_mut();
        lists.listed = None;
        lists.relist = None;
        *self.listing_failure.get_mut() = None;
        self.occupied_next.set(None);
        self.movers.set(None);
        self.gone.set(0);
        self.state_changed();
        Ok(())
    }

    /// The state a battle of `setup` (checked) on `land` begins in, its
    /// units in `units` (emptied first).
    pub(super) fn first_state(
        land: &Battleland,
        setup: &BattleSetup,
        mut units: Vec<Unit>,
    ) -> State {
        let attacker_edge = land.attacker_edge.unwrap_or(setup.attacker_edge);
        units.clear();
        units.reserve(setup.attacker.len() + setup.defender.len());
        for (side, list) in [
            (BattleSide::Attacker, &setup.attacker),
            (BattleSide::Defender, &setup.defender),
        ] {
            for f in list {
                units.push(Unit::waiting(f.character, side, f.power));
            }
        }
        let choose = setup.teleported && land.attacker_edge.is_none();
        State {
            units,
            phase: if choose {
                Phase::ChooseEdge
            } else {
                Phase::Maneuver
            },
            moving: if choose {
                BattleSide::Attacker
            } else {
                BattleSide::Defender
            },
            defender_maneuver: 1,
            entered: [false; 2],
            attacker_edge,
            summon: SummonState::NotYet,
            defender_slain_now: false,
            summoned: None,
            reinforced: None,
            carry: None,
            result: None,
            fixed_dice: VecDeque::new(),
            conceded: None,
            vars: Default::default(),
            game_vars: Default::default(),
            choice: None,
            overlay: None,
            extra: Vec::new(),
            reinforcement_round: None,
            teams: Default::default(),
        }
    }

    /// Refuses a setup the variant cannot fight; else its battleland.
    pub(super) fn check_setup<'a>(
        variant: &'a Variant,
        setup: &BattleSetup,
    ) -> Result<&'a Battleland, BattleError> {
        Self::check_setup_sized(variant, setup, true)
    }

    /// [`Battle::check_setup`]; `sized`: each side is one legion, of at
    /// most `rules.legions.max_size` characters.
    pub(super) fn check_setup_sized<'a>(
        variant: &'a Variant,
        setup: &BattleSetup,
        sized: bool,
    ) -> Result<&'a Battleland, BattleError> {
        let land = variant
            .battlelands
            .get(setup.terrain.index())
            .ok_or_else(|| BattleError::Setup(format!("no terrain {}", setup.terrain.0)))?;
        let max = variant.rules.legions.max_size as usize;
        for (name, side) in [("attacker", &setup.attacker), ("defender", &setup.defender)] {
            if side.is_empty() {
                return Err(BattleError::Setup(format!("the {name} has no characters")));
            }
            if sized && variant.legion_size(side.iter().map(|f| f.character)) > max {
                return Err(BattleError::Setup(format!(
                    "the {name} has {} characters; a legion holds at most {max}",
                    side.len()
                )));
            }
            for f in side.iter() {
                if f.character.index() >= variant.characters.len() {
                    return Err(BattleError::Setup(format!(
                        "no character {}",
                        f.character.0
                    )));
                }
                if f.power == 0 {
                    return Err(BattleError::Setup(format!(
                        "{} has power 0",
                        variant.character(f.character).name
                    )));
                }
            }
        }
        for &(_, c) in &setup.summonable {
            if c.index() >= variant.characters.len() {
                return Err(BattleError::Setup(format!("no character {}", c.0)));
            }
        }
        for &c in &setup.reinforcements {
            if c.index() >= variant.characters.len() {
                return Err(BattleError::Setup(format!("no character {}", c.0)));
            }
        }
        if land.attacker_edge.is_none()
            && !setup.teleported
            && !variant
                .rules
                .battle
                .attacker_edges
                .contains(&setup.attacker_edge)
        {
            return Err(BattleError::Setup(format!(
                "the attacker may enter only by {:?} (Law of the Battlelands 25.A)",
                variant.rules.battle.attacker_edges
            )));
        }
        Ok(land)
    }

    /// Starts a Lua VM with the variant's scripts, drawing from `rng`; `None`
    /// when the variant has no scripts.
    pub fn start_scripts(
        variant: &Variant,
        rng: &Rc<RefCell<GameRng>>,
    ) -> Result<Option<Rc<LuaHost>>, ScriptError> {
        if variant.scripts.is_empty() {
            return Ok(None);
        }
        let mut host = LuaHost::with_chunks(
            crate::lua::script_limits(&variant.data.rules),
            rng.clone(),
            &crate::script::EVENT_CATALOG,
            variant.chunks.clone(),
        )?;
        for s in &variant.scripts {
            host.load_script(s)?;
        }
        crate::script::install(&host, std::sync::Arc::new(variant.clone())).map_err(|e| {
            ScriptError {
                script: crate::lua::SANDBOX.to_string(),
                line: None,
                kind: crate::lua::ScriptErrorKind::Runtime,
                message: format!("cannot set up ctx: {e}"),
                traceback: Vec::new(),
            }
        })?;
        Ok(Some(Rc::new(host)))
    }

    /// The battle of `setup` (whose terrain the caller checked the
    /// variant has) at `state`.
    pub(super) fn assemble(
        variant: VariantRef<'v>,
        setup: BattleSetup,
        state: State,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        let land = &variant.battlelands[setup.terrain.index()];
        Ok(Battle {
            geo: Geometry::new(&variant, land),
            variant,
            setup,
            state: Box::new(state),
            rng,
            lua,
            use_hooks: true,
            caretaker: None,
            world: None,
            spare: RefCell::new(None),
            undoable: false,
            keep_undo: false,
            fixed_only: false,
            records: true,
            reach_memo: RefCell::default(),
            sight_memo: RefCell::new(Vec::new()),
            pick_lists: RefCell::default(),
            listing_failure: RefCell::default(),
            engine_view: std::cell::OnceCell::new(),
            ends_freely: std::cell::Cell::new(false),
            occupied_now: std::cell::Cell::new(None),
            occupied_next: std::cell::Cell::new(None),
            movers_next: std::cell::Cell::new(None),
            gone: std::cell::Cell::new(0),
            gone_next: std::cell::Cell::new(0),
            generation: std::cell::Cell::new(0),
            foes_now: std::cell::Cell::new(None),
            movers: std::cell::Cell::new(None),
        })
    }

    /// The caretaker's counters of the game fighting this battle (what
    /// `ctx:add_unit` may take), set by masterplay each time it resumes it.
    pub fn set_caretaker(&mut self, counts: &[u32]) {
        self.caretaker = Some(Rc::new(counts.to_vec()));
        self.pick_lists.get_mut().scripts_fresh = false;
    }

    /// The game's variables (every scope but the battle's units) and its
    /// seats and legions, set by masterplay each time it resumes the
    /// battle: its scripts read and set them, and masterplay takes them
    /// back with [`Battle::game_vars`] after each action.
    pub fn set_game(&mut self, vars: &crate::vars::Vars, world: crate::script::GameLinks) {
        if self.state.game_vars != *vars {
            self.state.game_vars = vars.clone();
        }
        self.world = Some(Rc::new(world));
        self.pick_lists.get_mut().scripts_fresh = false;
    }

    /// The game's variables as the battle's scripts left them.
    pub fn game_vars(&self) -> &crate::vars::Vars {
        &self.state.game_vars
    }

    /// The whole battle as a value, to keep between actions where the
    /// battle cannot borrow the variant (masterplay keeps one in its game).
    pub fn snapshot(&self) -> BattleSnapshot {
        BattleSnapshot {
            setup: self.setup.clone(),
            state: (*self.state).clone(),
            rng: self.rng.borrow().clone(),
            use_hooks: self.use_hooks,
        }
    }

    /// The battle as a value, moved rather than copied (masterplay resumes
    /// its battle for an action and keeps it again after).
    pub fn into_snapshot(self) -> BattleSnapshot {
        let rng = self.rng.borrow().clone();
        BattleSnapshot {
            setup: self.setup,
            state: *self.state,
            rng,
            use_hooks: self.use_hooks,
        }
    }

    /// The battle of a snapshot, drawing from `rng` (set to the snapshot's
    /// generator) and calling `lua` (started with that `rng`).
    pub fn resume(
        variant: impl Into<VariantRef<'v>>,
        snapshot: BattleSnapshot,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        let variant = variant.into();
        if variant
            .battlelands
            .get(snapshot.setup.terrain.index())
            .is_none()
        {
            return Err(BattleError::Setup(format!(
                "no terrain {}",
                snapshot.setup.terrain.0
            )));
        }
        *rng.borrow_mut() = snapshot.rng;
        let mut battle = Self::assemble(variant, snapshot.setup, snapshot.state, rng, lua)?;
        if !snapshot.use_hooks {
            battle = battle.without_hooks();
        }
        Ok(battle)
    }
}
