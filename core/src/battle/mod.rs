//! The battle engine: one engagement fought on a battleland.
//!
//! A [`Battle`] is built from a [`BattleSetup`] (what masterplay hands over)
//! or from a [`Position`] (tests and queries). Play is a loop of
//! [`Battle::legal_actions`] and [`Battle::apply`]; an action the rules
//! refuse returns an error and leaves the battle exactly as it was. When the
//! battle is over, [`Battle::result`] says who won and what each side lost.
//!
//! Every rule that depends on a character or hazard comes from the variant:
//! movement and strike changes from the hazard data, natives, flight, range
//! strength, magic and immunity from the character chart and classes, and
//! anything beyond them from Lua hooks (see `docs/battle.md`).
//!
//! ```
//! use titan_core::battle::{Battle, BattleSetup, Fighter};
//! use titan_core::format::Edge;
//! use titan_core::rng::GameRng;
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
//! let v = titan_core::load(&dir, &Default::default()).unwrap();
//! let ogre = v.character_by_name("Ogre").unwrap();
//! let setup = BattleSetup {
//!     terrain: v.terrain_by_name("Plains").unwrap(),
//!     attacker: vec![Fighter { character: ogre, power: 6 }],
//!     defender: vec![Fighter { character: ogre, power: 6 }],
//!     attacker_edge: Edge::SouthWest,
//!     summonable: vec![],
//!     reinforcements: vec![],
//!     teleported: false,
//! };
//! let mut battle = Battle::new(&v, setup, GameRng::new(1)).unwrap();
//! while battle.result().is_none() {
//!     let actions = battle.legal_actions();
//!     battle.apply(actions[0].clone()).unwrap();
//! }
//! assert!(battle.result().is_some());
//! ```

pub mod geometry;
pub mod position;
pub mod strike;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::battleland::{Battleland, HEX_COUNT, HexId};
use crate::format::Edge;
use crate::lua::{LuaHost, ScriptError};
use crate::model::{CharacterId, Effect, RangeStrength, TerrainId, Variant};
use crate::rng::GameRng;

use geometry::{From, Geometry};
pub use position::Position;
use strike::StrikeParams;

/// One character entering a battle; `power` is its power for this battle (a
/// Titan's grows with its player's score: masterplay computes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fighter {
    pub character: CharacterId,
    pub power: u8,
}

/// What masterplay hands to the battle engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleSetup {
    /// Whose battleland.
    pub terrain: TerrainId,
    pub attacker: Vec<Fighter>,
    pub defender: Vec<Fighter>,
    /// The edge the attacker enters by (masterplay maps the border it crossed
    /// onto one of `rules.battle.attacker_edges`; ignored where the
    /// battleland fixes `attacker_edge`).
    pub attacker_edge: Edge,
    /// Characters the attacker could summon from its other legions (an id
    /// masterplay understands for the legion, and the character), when the
    /// rules allow a summon.
    pub summonable: Vec<(u32, CharacterId)>,
    /// Characters the defender may muster as a reinforcement there.
    pub reinforcements: Vec<CharacterId>,
    /// The attacker came by Titan teleport: it picks its entry edge
    /// (reference sheet, "Battle Overview") with [`Action::ChooseEdge`].
    pub teleported: bool,
}

/// The two sides of a battle.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum BattleSide {
    Attacker,
    #[default]
    Defender,
}

impl BattleSide {
    pub fn other(self) -> BattleSide {
        match self {
            BattleSide::Attacker => BattleSide::Defender,
            BattleSide::Defender => BattleSide::Attacker,
        }
    }
}

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Winner {
    Attacker,
    Defender,
    /// Mutual elimination.
    Neither,
}

/// What goes back to masterplay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleResult {
    pub winner: Winner,
    /// Law of the Battlelands 25.E: the defender scores nothing.
    pub time_loss: bool,
    /// Survivors, in the legion.
    pub attacker_left: Vec<CharacterId>,
    pub defender_left: Vec<CharacterId>,
    /// For scoring (includes those not brought on in time).
    pub attacker_slain: Vec<CharacterId>,
    pub defender_slain: Vec<CharacterId>,
    pub summoned: Option<(u32, CharacterId)>,
    pub reinforced: Option<CharacterId>,
    pub conceded: Option<BattleSide>,
    /// Removed without being scored: the attacker's characters left at a
    /// time loss, and a slain Titan's legion-mates still alive (reference
    /// sheet, "Titans").
    pub attacker_removed: Vec<CharacterId>,
    pub defender_removed: Vec<CharacterId>,
    /// The winning attacker did not summon during the battle and may still
    /// (reference sheet, "Summon Angel").
    pub may_summon_after: bool,
    /// The winning defender did not take a reinforcement and may still muster
    /// (reference sheet, "Reinforcement").
    pub may_reinforce_after: bool,
    /// What the winner scores: the value of the loser's slain characters
    /// (reference sheet, "Scoring Battles"); 0 for mutual elimination and a
    /// time loss. Masterplay may score differently (a fled legion).
    pub points: u32,
}

/// A character in the battle, by its index in [`Battle::units`].
pub type UnitId = u8;

/// Where a character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Status {
    /// Not yet brought onto the battleland.
    Waiting,
    OnBoard(#[serde(serialize_with = "ser_hex")] HexId),
    /// Out of the battle.
    Gone(Fate),
}

fn ser_hex<S: serde::Serializer>(h: &HexId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&h.label())
}

/// How a character left the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Fate {
    Slain,
    /// Not brought on in its side's first maneuver (Law of the Battlelands 25.D).
    NotEntered,
    /// Removed unscored (time loss; a slain Titan's legion).
    Removed,
}

/// One character of the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub character: CharacterId,
    pub side: BattleSide,
    pub power: u8,
    pub status: Status,
    pub damage: u8,
    /// Moved this maneuver phase.
    pub moved: bool,
    /// In contact at the start of this maneuver phase: may not move.
    pub locked: bool,
    /// Strikes (or rangestrikes) left this strike phase.
    pub strikes_left: u8,
}

impl Unit {
    pub fn hex(&self) -> Option<HexId> {
        match self.status {
            Status::OnBoard(h) => Some(h),
            _ => None,
        }
    }
    /// Hits at least its power: slain, leaving at the end of the strike phase.
    pub fn is_slain(&self) -> bool {
        self.damage >= self.power
    }
    fn alive(&self) -> bool {
        matches!(self.status, Status::Waiting | Status::OnBoard(_)) && !self.is_slain()
    }
}

/// The phase of the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// After a Titan teleport, the attacker picks its entry edge first.
    ChooseEdge,
    /// The moving player moves characters.
    Maneuver,
    /// `striking` strikes; the moving player strikes first.
    Strike {
        striking: BattleSide,
    },
    Over,
}

/// Hits waiting to be carried over to another enemy in contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Carry {
    pub striker: UnitId,
    pub hits: u8,
    pub strike_number: u8,
    pub bonus_skill: i8,
    pub bonus_dice: i8,
    pub forgo: bool,
}

/// A player's action.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Titan teleport: the attacker's entry edge (one of `attacker_edges`).
    ChooseEdge(Edge),
    /// Move (or bring on, or deploy) a character of the moving side.
    Move {
        unit: UnitId,
        to: HexId,
    },
    /// Summon the `choice`-th of the setup's summonable characters onto `to`.
    Summon {
        choice: u8,
        to: HexId,
    },
    /// Bring the `choice`-th reinforcement onto `to`.
    Reinforce {
        choice: u8,
        to: HexId,
    },
    EndManeuver,
    /// A strike at an enemy in contact. `strike_number` declares a higher
    /// number than needed, to open carry-over; `forgo_bonus` drops hazard
    /// bonuses for the same reason (reference sheet, "Strike Phase").
    Strike {
        unit: UnitId,
        target: UnitId,
        strike_number: Option<u8>,
        forgo_bonus: bool,
    },
    Rangestrike {
        unit: UnitId,
        target: UnitId,
    },
    /// Carry hits over to `target`, or drop them (`None`).
    CarryOver {
        target: Option<UnitId>,
    },
    EndStrikes,
    Concede(BattleSide),
}

impl serde::Serialize for HexId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.label())
    }
}

impl<'de> serde::Deserialize<'de> for HexId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        HexId::from_label(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("no hex {s:?} (A1 ... F4)")))
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BattleEvent {
    EdgeChosen(Edge),
    Moved {
        unit: UnitId,
        from: Option<HexId>,
        to: HexId,
    },
    Summoned {
        unit: UnitId,
        legion: u32,
    },
    Reinforced {
        unit: UnitId,
    },
    NotEntered {
        unit: UnitId,
    },
    Struck {
        unit: UnitId,
        target: UnitId,
        ranged: bool,
        strike_number: u8,
        rolls: Vec<u8>,
        hits: u8,
    },
    CarriedOver {
        target: UnitId,
        hits: u8,
    },
    HazardDamage {
        unit: UnitId,
        hits: u8,
    },
    Slain {
        unit: UnitId,
    },
    PhaseBegan {
        phase: Phase,
        moving: BattleSide,
        defender_maneuver: u8,
    },
    SummonOpen,
    Conceded(BattleSide),
    Ended(Winner),
}

/// Why an action or a setup was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BattleError {
    #[error("bad battle setup: {0}")]
    Setup(String),
    #[error("the battle is over")]
    Over,
    #[error("no character {0} in this battle")]
    NoUnit(UnitId),
    #[error("{0}")]
    Refused(String),
    #[error("script error: {0}")]
    Script(#[from] ScriptError),
}

fn refuse<T>(msg: impl Into<String>) -> Result<T, BattleError> {
    Err(BattleError::Refused(msg.into()))
}

/// Summoning: the window opens after the first strike phase that slays a
/// defender character and lasts the attacker's next maneuver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SummonState {
    NotYet,
    Open,
    Done,
}

/// The battle's state: cloned before an action and kept only if it succeeds,
/// so a refused action changes nothing.
#[derive(Debug, Clone)]
struct State {
    units: Vec<Unit>,
    phase: Phase,
    moving: BattleSide,
    defender_maneuver: u8,
    /// Each side's first maneuver is done (index: attacker 0, defender 1).
    entered: [bool; 2],
    attacker_edge: Edge,
    summon: SummonState,
    /// A defender character was slain in the current strike phase.
    defender_slain_now: bool,
    summoned: Option<(u32, CharacterId)>,
    reinforced: Option<CharacterId>,
    carry: Option<Carry>,
    result: Option<BattleResult>,
    fixed_dice: VecDeque<u8>,
    conceded: Option<BattleSide>,
}

fn side_index(s: BattleSide) -> usize {
    match s {
        BattleSide::Attacker => 0,
        BattleSide::Defender => 1,
    }
}

/// A battle held as a value (see [`Battle::snapshot`]).
#[derive(Debug, Clone)]
pub struct BattleSnapshot {
    setup: BattleSetup,
    state: State,
    rng: GameRng,
    use_hooks: bool,
}

impl BattleSnapshot {
    /// Everything a later action can observe of the battle (its setup, its
    /// state and its generator's position) as text: tests compare it to check
    /// that a refused action changed nothing.
    pub fn fingerprint(&self) -> String {
        format!(
            "{:?} {:?} rng {}@{} hooks {}",
            self.setup,
            self.state,
            self.rng.seed(),
            self.rng.word_pos(),
            self.use_hooks
        )
    }
}

/// One battle.
pub struct Battle<'v> {
    variant: &'v Variant,
    land: &'v Battleland,
    geo: Geometry,
    setup: BattleSetup,
    state: State,
    rng: Rc<RefCell<GameRng>>,
    lua: Option<Rc<LuaHost>>,
    use_hooks: bool,
}

impl std::fmt::Debug for Battle<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Battle")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

/// What [`Battle::view`] shows a player: everything on the battleland (a
/// battle has no hidden information), and whose move it is.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BattleView {
    pub you: BattleSide,
    pub battleland: String,
    pub phase: Phase,
    pub moving: BattleSide,
    pub to_act: BattleSide,
    pub defender_maneuver: u8,
    pub attacker_edge: Edge,
    pub defender_edge: Edge,
    pub units: Vec<UnitView>,
    pub summon: SummonState,
    pub carry: Option<Carry>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct UnitView {
    pub id: UnitId,
    pub character: String,
    pub side: BattleSide,
    pub power: u8,
    pub skill: u8,
    pub damage: u8,
    pub status: Status,
}

impl<'v> Battle<'v> {
    /// A battle about to begin: the defender's first maneuver (or, after a
    /// Titan teleport, the attacker's choice of edge).
    pub fn new(
        variant: &'v Variant,
        setup: BattleSetup,
        rng: GameRng,
    ) -> Result<Battle<'v>, BattleError> {
        let rng = Rc::new(RefCell::new(rng));
        let lua = Self::start_scripts(variant, &rng)?;
        Self::with_scripts(variant, setup, rng, lua)
    }

    /// A battle that draws from the game's own generator and calls the
    /// game's Lua VM (started once by [`Battle::start_scripts`] with that
    /// generator), so that a game does not start its scripts for every battle.
    pub fn with_scripts(
        variant: &'v Variant,
        setup: BattleSetup,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        let land = variant
            .battlelands
            .get(setup.terrain.index())
            .ok_or_else(|| BattleError::Setup(format!("no terrain {}", setup.terrain.0)))?;
        let max = variant.rules.legions.max_size as usize;
        for (name, side) in [("attacker", &setup.attacker), ("defender", &setup.defender)] {
            if side.is_empty() {
                return Err(BattleError::Setup(format!("the {name} has no characters")));
            }
            if side.len() > max {
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
        let attacker_edge = match land.attacker_edge {
            Some(e) => e,
            None => {
                if !setup.teleported
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
                setup.attacker_edge
            }
        };
        let mut units = Vec::new();
        for (side, list) in [
            (BattleSide::Attacker, &setup.attacker),
            (BattleSide::Defender, &setup.defender),
        ] {
            for f in list {
                units.push(Unit {
                    character: f.character,
                    side,
                    power: f.power,
                    status: Status::Waiting,
                    damage: 0,
                    moved: false,
                    locked: false,
                    strikes_left: 0,
                });
            }
        }
        let choose = setup.teleported && land.attacker_edge.is_none();
        let state = State {
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
        };
        Self::assemble(variant, land, setup, state, rng, lua)
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
        let mut host = LuaHost::new(
            crate::compile::script_limits(&variant.data.rules),
            rng.clone(),
        )?;
        for s in &variant.scripts {
            host.load_script(s)?;
        }
        Ok(Some(Rc::new(host)))
    }

    fn assemble(
        variant: &'v Variant,
        land: &'v Battleland,
        setup: BattleSetup,
        state: State,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        Ok(Battle {
            variant,
            land,
            geo: Geometry::new(variant, land),
            setup,
            state,
            rng,
            lua,
            use_hooks: true,
        })
    }

    /// The whole battle as a value, to keep between actions where the
    /// battle cannot borrow the variant (masterplay keeps one in its game).
    pub fn snapshot(&self) -> BattleSnapshot {
        BattleSnapshot {
            setup: self.setup.clone(),
            state: self.state.clone(),
            rng: self.rng.borrow().clone(),
            use_hooks: self.use_hooks,
        }
    }

    /// The battle of a snapshot, drawing from `rng` (set to the snapshot's
    /// generator) and calling `lua` (started with that `rng`).
    pub fn resume(
        variant: &'v Variant,
        snapshot: BattleSnapshot,
        rng: Rc<RefCell<GameRng>>,
        lua: Option<Rc<LuaHost>>,
    ) -> Result<Battle<'v>, BattleError> {
        let land = variant
            .battlelands
            .get(snapshot.setup.terrain.index())
            .ok_or_else(|| {
                BattleError::Setup(format!("no terrain {}", snapshot.setup.terrain.0))
            })?;
        *rng.borrow_mut() = snapshot.rng;
        let mut battle = Self::assemble(variant, land, snapshot.setup, snapshot.state, rng, lua)?;
        if !snapshot.use_hooks {
            battle = battle.without_hooks();
        }
        Ok(battle)
    }

    /// Turns the variant's Lua hooks off (for measuring their cost): ability
    /// and hazard hooks are skipped, hooked range strengths fall back to half
    /// power.
    pub fn without_hooks(mut self) -> Self {
        self.use_hooks = false;
        self.lua = None;
        self
    }

    /// Dice to use, in order, before the seeded generator (tests fix dice).
    pub fn fix_dice(&mut self, dice: impl IntoIterator<Item = u8>) {
        self.state.fixed_dice.extend(dice);
    }

    /// Fixed dice not yet used (a scenario must use all it fixes).
    pub fn fixed_dice_left(&self) -> usize {
        self.state.fixed_dice.len()
    }

    /// See [`BattleSnapshot::fingerprint`].
    pub fn fingerprint(&self) -> String {
        self.snapshot().fingerprint()
    }

    pub fn variant(&self) -> &'v Variant {
        self.variant
    }
    pub fn battleland(&self) -> &'v Battleland {
        self.land
    }
    pub fn units(&self) -> &[Unit] {
        &self.state.units
    }
    pub fn phase(&self) -> Phase {
        self.state.phase
    }
    pub fn moving(&self) -> BattleSide {
        self.state.moving
    }
    pub fn defender_maneuver(&self) -> u8 {
        self.state.defender_maneuver
    }
    pub fn attacker_edge(&self) -> Edge {
        self.state.attacker_edge
    }
    pub fn defender_edge(&self) -> Edge {
        self.state.attacker_edge.opposite()
    }
    pub fn carry(&self) -> Option<Carry> {
        self.state.carry
    }
    pub fn summon_state(&self) -> SummonState {
        self.state.summon
    }

    /// The side that acts now.
    pub fn to_act(&self) -> BattleSide {
        match self.state.phase {
            Phase::Strike { striking } => striking,
            _ => self.state.moving,
        }
    }

    /// The character standing on `hex`, if any.
    pub fn unit_at(&self, hex: HexId) -> Option<UnitId> {
        self.state
            .units
            .iter()
            .position(|u| u.hex() == Some(hex))
            .map(|i| i as UnitId)
    }

    /// The battle's result once it is over.
    pub fn result(&self) -> Option<BattleResult> {
        self.state.result.clone()
    }

    /// What `side` sees.
    pub fn view(&self, side: BattleSide) -> BattleView {
        let v = self.variant;
        BattleView {
            you: side,
            battleland: v.terrains[self.land.terrain.index()].name.clone(),
            phase: self.state.phase,
            moving: self.state.moving,
            to_act: self.to_act(),
            defender_maneuver: self.state.defender_maneuver,
            attacker_edge: self.attacker_edge(),
            defender_edge: self.defender_edge(),
            units: self
                .state
                .units
                .iter()
                .enumerate()
                .map(|(i, u)| UnitView {
                    id: i as UnitId,
                    character: v.character(u.character).name.clone(),
                    side: u.side,
                    power: u.power,
                    skill: v.character(u.character).skill,
                    damage: u.damage,
                    status: u.status,
                })
                .collect(),
            summon: self.state.summon,
            carry: self.state.carry,
        }
    }

    /// Every action the side to act may take now. Strikes are listed at the
    /// strike number needed and with hazard bonuses; [`Action::Strike`] with
    /// a declared higher number or forgone bonuses is also accepted.
    pub fn legal_actions(&self) -> Vec<Action> {
        let s = &self.state;
        let mut out = Vec::new();
        match s.phase {
            Phase::Over => return out,
            Phase::ChooseEdge => {
                for &e in &self.variant.rules.battle.attacker_edges {
                    out.push(Action::ChooseEdge(e));
                }
                return out;
            }
            Phase::Maneuver => {
                let occupied = occupied(s);
                for (i, u) in s.units.iter().enumerate() {
                    if u.side != s.moving {
                        continue;
                    }
                    if let Some(from) = self.move_origin(s, u) {
                        for h in
                            geometry::reach(self.variant, self.land, u.character, from, &occupied)
                        {
                            out.push(Action::Move {
                                unit: i as UnitId,
                                to: h,
                            });
                        }
                    }
                }
                if self.may_summon(s) {
                    for (c, &(_, ch)) in self.setup.summonable.iter().enumerate() {
                        let from = From::Edge(s.attacker_edge);
                        for h in geometry::reach(self.variant, self.land, ch, from, &occupied) {
                            out.push(Action::Summon {
                                choice: c as u8,
                                to: h,
                            });
                        }
                    }
                }
                if self.may_reinforce(s) {
                    for (c, &ch) in self.setup.reinforcements.iter().enumerate() {
                        if !self.qualifies(s, ch) {
                            continue;
                        }
                        let from = From::Edge(s.attacker_edge.opposite());
                        for h in geometry::reach(self.variant, self.land, ch, from, &occupied) {
                            out.push(Action::Reinforce {
                                choice: c as u8,
                                to: h,
                            });
                        }
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
                    return out;
                }
                for (i, u) in s.units.iter().enumerate() {
                    if u.side != striking || u.strikes_left == 0 || u.hex().is_none() {
                        continue;
                    }
                    let targets = self.contact_targets(s, i as UnitId);
                    for &t in &targets {
                        out.push(Action::Strike {
                            unit: i as UnitId,
                            target: t,
                            strike_number: None,
                            forgo_bonus: false,
                        });
                    }
                    if targets.is_empty()
                        && striking == s.moving
                        && !self.in_contact_any(s, i as UnitId)
                    {
                        for (j, t) in s.units.iter().enumerate() {
                            if t.side != u.side
                                && t.hex().is_some()
                                && !t.is_slain()
                                && self.may_see(s, i as UnitId, j as UnitId)
                                && self.rangestrike_check(s, i as UnitId, j as UnitId).is_ok()
                            {
                                out.push(Action::Rangestrike {
                                    unit: i as UnitId,
                                    target: j as UnitId,
                                });
                            }
                        }
                    }
                }
                if self.must_strike(s).is_none() {
                    out.push(Action::EndStrikes);
                }
            }
        }
        out
    }

    /// Brings a summoned character (attacker) or a reinforcement (defender)
    /// onto `to`, which it must reach from its side's edge this phase.
    fn enter_newcomer(
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
        let occ = occupied(s);
        if !geometry::reach(self.variant, self.land, ch, From::Edge(edge), &occ).contains(&to) {
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
        let mut next = self.state.clone();
        let saved = self.rng.borrow().clone();
        match self.step(&mut next, &action) {
            Ok(events) => {
                self.state = next;
                Ok(events)
            }
            Err(e) => {
                *self.rng.borrow_mut() = saved;
                Err(e)
            }
        }
    }

    fn step(&self, s: &mut State, action: &Action) -> Result<Vec<BattleEvent>, BattleError> {
        if s.phase == Phase::Over {
            return Err(BattleError::Over);
        }
        let mut ev = Vec::new();
        if let Action::Concede(side) = action {
            if s.carry.is_some() {
                return refuse("carry-over hits are pending: carry them over or drop them first");
            }
            ev.push(BattleEvent::Conceded(*side));
            s.conceded = Some(*side);
            for u in s.units.iter_mut() {
                if u.side == *side && matches!(u.status, Status::Waiting | Status::OnBoard(_)) {
                    u.damage = u.power;
                }
            }
            self.finish(s, &mut ev, None);
            return Ok(ev);
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
                self.begin_maneuver(s, &mut ev);
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
                    return refuse(if u.moved {
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
                let occ = occupied(s);
                if !geometry::reach(self.variant, self.land, u.character, from, &occ).contains(to) {
                    return refuse(format!(
                        "{} cannot reach {} this phase",
                        self.variant.character(u.character).name,
                        to.label()
                    ));
                }
                let old = u.hex();
                let u = &mut s.units[*unit as usize];
                u.status = Status::OnBoard(*to);
                u.moved = true;
                ev.push(BattleEvent::Moved {
                    unit: *unit,
                    from: old,
                    to: *to,
                });
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
                    && s.defender_maneuver == self.variant.rules.battle.reinforcement_maneuver;
                if now
                    && let Some(&ch) = self.setup.reinforcements.get(*choice as usize)
                    && !self.qualifies(s, ch)
                {
                    return refuse(
                        "the defender's living characters do not qualify to muster that reinforcement: slain characters do not count (reference sheet, Reinforcement)",
                    );
                }
                if !self.may_reinforce(s) {
                    return refuse(
                        "no reinforcement now: only in the defender's fourth maneuver phase, once, into a legion of fewer than 7 (Law of the Battlelands 28.B)",
                    );
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
                if self.check_end(s, &mut ev) {
                    return Ok(ev);
                }
                self.begin_strikes(s, side, &mut ev);
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
                if !self.contact_targets(s, *unit).contains(target) {
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
                let (rolls, hits) = self.roll(s, p.dice, sn);
                s.units[*unit as usize].strikes_left = 0;
                ev.push(BattleEvent::Struck {
                    unit: *unit,
                    target: *target,
                    ranged: false,
                    strike_number: sn,
                    rolls,
                    hits,
                });
                let excess = self.damage(s, *target, hits, &mut ev);
                if self.titan_check(s, &mut ev) {
                    return Ok(ev);
                }
                if excess > 0 {
                    let c = Carry {
                        striker: *unit,
                        hits: excess,
                        strike_number: sn,
                        bonus_skill: p.bonus_skill,
                        bonus_dice: p.bonus_dice,
                        forgo: *forgo_bonus,
                    };
                    if !self.carry_targets(s, c)?.is_empty() {
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
                    let excess = self.damage(s, *t, c.hits, &mut ev);
                    if self.titan_check(s, &mut ev) {
                        return Ok(ev);
                    }
                    if excess > 0 {
                        let c2 = Carry { hits: excess, ..c };
                        if !self.carry_targets(s, c2)?.is_empty() {
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
                if striking != s.moving {
                    return refuse(
                        "only the moving player rangestrikes (Law of the Battlelands 27.A)",
                    );
                }
                let (p, _) = self.rangestrike_check(s, *unit, *target)?;
                let (rolls, hits) = self.roll(s, p.dice, p.strike_number);
                s.units[*unit as usize].strikes_left -= 1;
                ev.push(BattleEvent::Struck {
                    unit: *unit,
                    target: *target,
                    ranged: true,
                    strike_number: p.strike_number,
                    rolls,
                    hits,
                });
                // Law of the Battlelands 27.A: rangestrikes never carry over.
                self.damage(s, *target, hits, &mut ev);
                if self.titan_check(s, &mut ev) {
                    return Ok(ev);
                }
            }
            (Phase::Strike { striking }, Action::EndStrikes) => {
                if s.carry.is_some() {
                    return refuse("carry-over hits are pending");
                }
                if let Some(u) = self.must_strike(s) {
                    return refuse(format!(
                        "{} in {} is in contact and must strike (reference sheet, \"Strike Phase\")",
                        self.variant.character(s.units[u as usize].character).name,
                        s.units[u as usize]
                            .hex()
                            .map(HexId::label)
                            .unwrap_or_default()
                    ));
                }
                if striking == s.moving {
                    self.begin_strikes(s, striking.other(), &mut ev);
                    s.phase = Phase::Strike {
                        striking: striking.other(),
                    };
                } else {
                    self.end_strike_phase(s, &mut ev)?;
                }
            }
            (phase, action) => {
                return refuse(format!(
                    "{action:?} is not an action of the {phase:?} phase"
                ));
            }
        }
        Ok(ev)
    }

    fn check_striker(
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
        if u.hex().is_none() {
            return refuse("this character is not on the battleland");
        }
        if u.strikes_left == 0 {
            return refuse(
                "a character strikes once per strike phase (reference sheet, \"Strike Phase\")",
            );
        }
        Ok(())
    }

    /// Where a character of the moving side may move from now, if it may.
    fn move_origin(&self, s: &State, u: &Unit) -> Option<From> {
        if u.moved || u.locked {
            return None;
        }
        match u.status {
            Status::OnBoard(h) => Some(From::Hex(h)),
            Status::Waiting if !s.entered[side_index(u.side)] => {
                if u.side == BattleSide::Defender && !self.land.defender_area.is_empty() {
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

    fn legion_size(&self, s: &State, side: BattleSide) -> usize {
        s.units
            .iter()
            .filter(|u| u.side == side && u.alive())
            .count()
    }

    fn may_summon(&self, s: &State) -> bool {
        s.phase == Phase::Maneuver
            && s.moving == BattleSide::Attacker
            && s.summon == SummonState::Open
            && s.summoned.is_none()
            && !self.setup.summonable.is_empty()
            && self.legion_size(s, BattleSide::Attacker)
                < self.variant.rules.legions.max_size as usize
    }

    fn may_reinforce(&self, s: &State) -> bool {
        s.phase == Phase::Maneuver
            && s.moving == BattleSide::Defender
            && s.defender_maneuver == self.variant.rules.battle.reinforcement_maneuver
            && s.reinforced.is_none()
            && self
                .setup
                .reinforcements
                .iter()
                .any(|&c| self.qualifies(s, c))
            && self.legion_size(s, BattleSide::Defender)
                < self.variant.rules.legions.max_size as usize
    }

    /// Whether the defender's living characters qualify to muster `recruit`
    /// as a reinforcement: "not counting characters already slain"
    /// (reference sheet, Reinforcement; Law of Titan 1980 13.A).
    fn qualifies(&self, s: &State, recruit: CharacterId) -> bool {
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
        crate::game::muster::options(self.variant, self.setup.terrain, &living, &mut judge)
            .iter()
            .any(|o| o.recruit == recruit)
    }

    fn begin_maneuver(&self, s: &mut State, ev: &mut Vec<BattleEvent>) {
        let moving = s.moving;
        let locked: Vec<bool> = (0..s.units.len())
            .map(|i| s.units[i].side == moving && self.in_contact_any(s, i as UnitId))
            .collect();
        for (u, l) in s.units.iter_mut().zip(locked) {
            u.moved = false;
            u.locked = l;
        }
        ev.push(BattleEvent::PhaseBegan {
            phase: Phase::Maneuver,
            moving,
            defender_maneuver: s.defender_maneuver,
        });
    }

    fn begin_strikes(&self, s: &mut State, striking: BattleSide, ev: &mut Vec<BattleEvent>) {
        if striking == s.moving {
            s.defender_slain_now = false;
        }
        for u in s.units.iter_mut() {
            if u.side == striking {
                u.strikes_left = self
                    .variant
                    .character(u.character)
                    .rangestrike
                    .as_ref()
                    .map_or(1, |r| r.strikes.max(1));
            }
        }
        s.phase = Phase::Strike { striking };
        ev.push(BattleEvent::PhaseBegan {
            phase: s.phase,
            moving: s.moving,
            defender_maneuver: s.defender_maneuver,
        });
    }

    /// Hazard damage, removal of the slain, the end of the battle, and the
    /// next maneuver phase.
    fn end_strike_phase(
        &self,
        s: &mut State,
        ev: &mut Vec<BattleEvent>,
    ) -> Result<(), BattleError> {
        // Hazard damage for each strike phase spent in the hex: compute all
        // (Lua may fail) before changing anything.
        let mut hurt = Vec::new();
        for (i, u) in s.units.iter().enumerate() {
            let Some(h) = u.hex() else { continue };
            if u.is_slain() {
                continue;
            }
            let hz = self.land.hex(h).hazard;
            let native = self.variant.is_native(u.character, hz);
            let mut hits = 0u32;
            for e in &self.variant.hazard(hz).effects {
                match e {
                    Effect::Damage { who, hits: n } if strike_who(*who, native) => {
                        hits += u32::from(*n)
                    }
                    Effect::Hook(hook) if self.use_hooks => {
                        if let Some(lua) = &self.lua {
                            let skill = self.variant.character(u.character).skill;
                            let n: i64 = lua.call_hook(
                                &self.variant.hooks[hook.index()],
                                (u.power, skill, u.damage, native),
                            )?;
                            hits += n.clamp(0, 255) as u32;
                        }
                    }
                    _ => {}
                }
            }
            if hits > 0 {
                hurt.push((i, hits.min(255) as u8));
            }
        }
        for (i, hits) in hurt {
            ev.push(BattleEvent::HazardDamage {
                unit: i as UnitId,
                hits,
            });
            self.damage(s, i as UnitId, hits, ev);
            if self.titan_check(s, ev) {
                return Ok(());
            }
        }
        // The slain leave at the end of the strike phase (Law of the
        // Battlelands 25.F).
        let mut defender_slain = false;
        for u in s.units.iter_mut() {
            if matches!(u.status, Status::OnBoard(_)) && u.is_slain() {
                u.status = Status::Gone(Fate::Slain);
                defender_slain |= u.side == BattleSide::Defender;
            }
        }
        if self.check_end(s, ev) {
            return Ok(());
        }
        if defender_slain && s.summon == SummonState::NotYet {
            s.summon = SummonState::Open;
            ev.push(BattleEvent::SummonOpen);
        }
        s.moving = s.moving.other();
        if s.moving == BattleSide::Defender {
            s.defender_maneuver += 1;
            if s.defender_maneuver > self.variant.rules.battle.defender_maneuvers {
                // Law of the Battlelands 25.E: time loss.
                for u in s.units.iter_mut() {
                    if u.side == BattleSide::Attacker && u.alive() {
                        u.status = Status::Gone(Fate::Removed);
                    }
                }
                self.finish(s, ev, Some(Winner::Defender));
                return Ok(());
            }
        }
        s.phase = Phase::Maneuver;
        self.begin_maneuver(s, ev);
        Ok(())
    }

    /// Ends the battle if a side has nobody left.
    fn check_end(&self, s: &mut State, ev: &mut Vec<BattleEvent>) -> bool {
        let a = self.legion_size(s, BattleSide::Attacker);
        let d = self.legion_size(s, BattleSide::Defender);
        let winner = match (a, d) {
            (0, 0) => Winner::Neither,
            (0, _) => Winner::Defender,
            (_, 0) => Winner::Attacker,
            _ => return false,
        };
        self.finish(s, ev, Some(winner));
        true
    }

    /// A slain Titan ends the battle at once (reference sheet, "Titans").
    fn titan_check(&self, s: &mut State, ev: &mut Vec<BattleEvent>) -> bool {
        let titan = self.variant.rules.titan.character;
        let fallen = s
            .units
            .iter()
            .find(|u| u.character == titan && u.hex().is_some() && u.is_slain())
            .map(|u| u.side);
        let Some(side) = fallen else { return false };
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

    fn finish(&self, s: &mut State, ev: &mut Vec<BattleEvent>, winner: Option<Winner>) {
        let time_loss = s.phase != Phase::Over
            && matches!(winner, Some(Winner::Defender))
            && s.units
                .iter()
                .any(|u| u.side == BattleSide::Attacker && u.status == Status::Gone(Fate::Removed))
            && s.defender_maneuver > self.variant.rules.battle.defender_maneuvers;
        for u in s.units.iter_mut() {
            if matches!(u.status, Status::OnBoard(_) | Status::Waiting) && u.is_slain() {
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
        let list = |side: BattleSide, f: &dyn Fn(&Unit) -> bool| -> Vec<CharacterId> {
            s.units
                .iter()
                .filter(|u| u.side == side && f(u))
                .map(|u| u.character)
                .collect()
        };
        let left = |u: &Unit| u.alive();
        let slain = |u: &Unit| matches!(u.status, Status::Gone(Fate::Slain | Fate::NotEntered));
        let removed = |u: &Unit| u.status == Status::Gone(Fate::Removed);
        let attacker_ever_on = s.entered[0];
        let result = BattleResult {
            winner,
            time_loss,
            attacker_left: list(BattleSide::Attacker, &left),
            defender_left: list(BattleSide::Defender, &left),
            attacker_slain: list(BattleSide::Attacker, &slain),
            defender_slain: list(BattleSide::Defender, &slain),
            summoned: s.summoned,
            reinforced: s.reinforced,
            conceded: s.conceded,
            attacker_removed: list(BattleSide::Attacker, &removed),
            defender_removed: list(BattleSide::Defender, &removed),
            may_summon_after: winner == Winner::Attacker
                && s.summoned.is_none()
                && !self.setup.summonable.is_empty(),
            may_reinforce_after: winner == Winner::Defender
                && s.reinforced.is_none()
                && (attacker_ever_on || s.conceded != Some(BattleSide::Attacker)),
            points: 0,
        };
        let value = |list: &[CharacterId]| -> u32 {
            list.iter().map(|&c| self.variant.character(c).value).sum()
        };
        let points = match winner {
            Winner::Attacker => value(&result.defender_slain),
            Winner::Defender if !time_loss => value(&result.attacker_slain),
            _ => 0,
        };
        let result = BattleResult { points, ..result };
        s.phase = Phase::Over;
        s.carry = None;
        ev.push(BattleEvent::Ended(winner));
        s.result = Some(result);
    }

    /// Adds hits to a character (at most its power); returns the excess.
    fn damage(&self, s: &mut State, unit: UnitId, hits: u8, ev: &mut Vec<BattleEvent>) -> u8 {
        let u = &mut s.units[unit as usize];
        let room = u.power.saturating_sub(u.damage);
        let applied = hits.min(room);
        u.damage += applied;
        if applied > 0 && u.is_slain() {
            ev.push(BattleEvent::Slain { unit });
            if u.side == BattleSide::Defender {
                s.defender_slain_now = true;
            }
        }
        hits - applied
    }

    fn roll(&self, s: &mut State, dice: u8, strike_number: u8) -> (Vec<u8>, u8) {
        let mut rolls = Vec::with_capacity(dice as usize);
        for _ in 0..dice {
            let r = match s.fixed_dice.pop_front() {
                Some(d) => d,
                None => self.rng.borrow_mut().roll(6) as u8,
            };
            rolls.push(r);
        }
        let hits = rolls.iter().filter(|&&r| r >= strike_number).count() as u8;
        (rolls, hits)
    }

    fn in_contact_any(&self, s: &State, unit: UnitId) -> bool {
        let u = &s.units[unit as usize];
        let Some(h) = u.hex() else { return false };
        s.units.iter().any(|t| {
            t.side != u.side
                && !t.is_slain()
                && t.hex()
                    .is_some_and(|th| self.geo.in_contact(self.land, h, th))
        })
    }

    /// Living enemies in contact with `unit`.
    fn contact_targets(&self, s: &State, unit: UnitId) -> Vec<UnitId> {
        let u = &s.units[unit as usize];
        let Some(h) = u.hex() else { return Vec::new() };
        s.units
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                t.side != u.side
                    && !t.is_slain()
                    && t.hex()
                        .is_some_and(|th| self.geo.in_contact(self.land, h, th))
            })
            .map(|(i, _)| i as UnitId)
            .collect()
    }

    /// A character of the striking side in contact that has not struck.
    fn must_strike(&self, s: &State) -> Option<UnitId> {
        let Phase::Strike { striking } = s.phase else {
            return None;
        };
        (0..s.units.len() as UnitId).find(|&i| {
            let u = &s.units[i as usize];
            u.side == striking
                && u.strikes_left > 0
                && u.hex().is_some()
                && self.in_contact_any(s, i)
        })
    }

    fn fighter(&self, s: &State, unit: UnitId) -> strike::Fighter {
        let u = &s.units[unit as usize];
        strike::Fighter {
            character: u.character,
            power: u.power,
            hex: u.hex().unwrap_or(HexId(0)),
        }
    }

    /// The strike number and dice of a strike, with hazards and abilities.
    fn strike_params(
        &self,
        s: &State,
        unit: UnitId,
        target: UnitId,
        forgo: bool,
    ) -> Result<StrikeParams, BattleError> {
        let (a, t) = (self.fighter(s, unit), self.fighter(s, target));
        let p = strike::strike(self.variant, self.land, a, t, forgo);
        self.abilities(a, t, false, p)
    }

    /// Character abilities (Lua hooks) may change a strike.
    fn abilities(
        &self,
        a: strike::Fighter,
        t: strike::Fighter,
        ranged: bool,
        mut p: StrikeParams,
    ) -> Result<StrikeParams, BattleError> {
        let Some(lua) = self.lua.as_ref().filter(|_| self.use_hooks) else {
            return Ok(p);
        };
        let v = self.variant;
        let (ac, tc) = (v.character(a.character), v.character(t.character));
        for (is_striker, c) in [(true, ac), (false, tc)] {
            for hook in &c.abilities {
                let (sn, dice): (i64, i64) = lua.call_hook(
                    &v.hooks[hook.index()],
                    (
                        is_striker,
                        ranged,
                        p.strike_number,
                        p.dice,
                        a.power,
                        ac.skill,
                        t.power,
                        tc.skill,
                    ),
                )?;
                let chart = &v.rules.strike_chart;
                p.strike_number = sn.clamp(i64::from(chart.min), i64::from(chart.max)) as u8;
                p.dice = dice.clamp(0, 255) as u8;
            }
        }
        Ok(p)
    }

    fn carry_targets(&self, s: &State, c: Carry) -> Result<Vec<UnitId>, BattleError> {
        let mut out = Vec::new();
        for t in self.contact_targets(s, c.striker) {
            let p = self.strike_params(s, c.striker, t, c.forgo)?;
            if p.strike_number <= c.strike_number
                && p.bonus_skill >= c.bonus_skill
                && p.bonus_dice >= c.bonus_dice
            {
                out.push(t);
            }
        }
        Ok(out)
    }

    /// A quick test that [`Battle::sight`] would find an open line from
    /// `unit` to `target` (both on the battleland): false only where it would
    /// not, so that listing rangestrikes words no refusal and draws no line.
    fn may_see(&self, s: &State, unit: UnitId, target: UnitId) -> bool {
        let v = self.variant;
        let u = &s.units[unit as usize];
        let (Some(from), Some(to)) = (u.hex(), s.units[target as usize].hex()) else {
            return true;
        };
        let Some(rs) = &v.character(u.character).rangestrike else {
            return false;
        };
        let (first, second) = geometry::lines_between(from, to);
        let range = first.len() as u8;
        let max = v.character(u.character).skill.min(v.rules.battle.max_range);
        if self.geo.in_contact(self.land, from, to) || range < 2 || range > max {
            return false;
        }
        if rs.magic {
            return true;
        }
        let occupied = |h: HexId| occupant_but(s, h, target).is_some();
        std::iter::once(first)
            .chain(second)
            .any(|p| geometry::blocker(v, self.land, p, &occupied).is_none())
    }

    /// May `unit` rangestrike `target` now? The parameters and the path.
    fn rangestrike_check(
        &self,
        s_: &State,
        unit: UnitId,
        target: UnitId,
    ) -> Result<(StrikeParams, Vec<HexId>), BattleError> {
        let s = s_;
        let v = self.variant;
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
        let (Some(from), Some(to)) = (u.hex(), t.hex()) else {
            return refuse("both must be on the battleland");
        };
        if t.side == u.side || t.is_slain() {
            return refuse("a rangestrike targets a living enemy");
        }
        if self.in_contact_any(s, unit) {
            return refuse(
                "a character in contact with an enemy cannot rangestrike (Law of the Battlelands 27.B)",
            );
        }
        let info = self.sight(s, u.character, from, to, rs.magic, target);
        let paths = match info.path {
            Ok(p) => p,
            Err(reason) => return refuse(reason),
        };
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
                    let n: i64 = lua.call_hook(&v.hooks[h.index()], (u.power, c.skill))?;
                    n.clamp(0, 255) as u8
                }
                _ => u.power / 2,
            },
        };
        let (a, tf) = (self.fighter(s, unit), self.fighter(s, target));
        // Where the line runs along a hexside the rangestriker picks the hex
        // (reference sheet, "Rangestriking"): the open reading that strikes best.
        let mut best: Option<(StrikeParams, Vec<HexId>)> = None;
        for path in paths {
            let p = strike::rangestrike(v, self.land, a, tf, &path, strength, rs.magic);
            let better = best.as_ref().is_none_or(|(b, _)| {
                (p.strike_number, std::cmp::Reverse(p.dice))
                    < (b.strike_number, std::cmp::Reverse(b.dice))
            });
            if better {
                best = Some((p, path));
            }
        }
        let Some((p, path)) = best else {
            return refuse("no line of sight");
        };
        let p = self.abilities(a, tf, true, p)?;
        Ok((p, path))
    }

    /// Range and line of sight from `from` to `to` for a rangestriker of
    /// `character` (magic or not), with the characters now on the battleland.
    fn sight(
        &self,
        s: &State,
        character: CharacterId,
        from: HexId,
        to: HexId,
        magic: bool,
        target: UnitId,
    ) -> SightInfo {
        let v = self.variant;
        let (first, second) = geometry::lines_between(from, to);
        let first = first.to_vec();
        let range = first.len() as u8;
        let skill = v.character(character).skill;
        let max = skill.min(v.rules.battle.max_range);
        let fail = |reason: String, path: Vec<HexId>| SightInfo {
            range,
            path: Err(reason),
            shown: path,
        };
        if self.geo.in_contact(self.land, from, to) || range < 2 {
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
        let occupied = |h: HexId| occupant_but(s, h, target).is_some();
        let name = |h: HexId| {
            occupant_but(s, h, target)
                .map(|c| v.character(c).name.clone())
                .unwrap_or_default()
        };
        let mut reasons = Vec::new();
        let mut ok: Vec<Vec<HexId>> = Vec::new();
        for p in std::iter::once(first.clone()).chain(second.map(<[HexId]>::to_vec)) {
            match geometry::blocker(v, self.land, &p, &occupied) {
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
            None => fail(reasons.join("; and "), first),
        }
    }

    /// The line-of-sight query: range, the hexes crossed, and why not.
    pub fn line_of_sight(&self, unit: UnitId, target: UnitId) -> Result<SightReport, BattleError> {
        let s = &self.state;
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        let t = s
            .units
            .get(target as usize)
            .ok_or(BattleError::NoUnit(target))?;
        let (Some(from), Some(to)) = (u.hex(), t.hex()) else {
            return refuse("both must be on the battleland");
        };
        let magic = self
            .variant
            .character(u.character)
            .rangestrike
            .as_ref()
            .is_some_and(|r| r.magic);
        let info = self.sight(s, u.character, from, to, magic, target);
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
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        let t = s
            .units
            .get(target as usize)
            .ok_or(BattleError::NoUnit(target))?;
        let (Some(from), Some(to)) = (u.hex(), t.hex()) else {
            return refuse("both must be on the battleland");
        };
        let contact = self.geo.in_contact(self.land, from, to);
        let p = self.strike_params(s, unit, target, false)?;
        let c = Carry {
            striker: unit,
            hits: 1,
            strike_number: p.strike_number,
            bonus_skill: p.bonus_skill,
            bonus_dice: p.bonus_dice,
            forgo: false,
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

    /// Every hex `unit` may move to this maneuver phase.
    pub fn reach(&self, unit: UnitId) -> Result<Vec<HexId>, BattleError> {
        let s = &self.state;
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        Ok(match self.move_origin(s, u) {
            Some(from) => geometry::reach(self.variant, self.land, u.character, from, &occupied(s)),
            None => Vec::new(),
        })
    }

    /// Checks the invariants: one character per hex, damage below power for
    /// the living on the battleland, nobody off the board. For tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut seen = [false; HEX_COUNT];
        for (i, u) in self.state.units.iter().enumerate() {
            if let Status::OnBoard(h) = u.status {
                if h.0 as usize >= HEX_COUNT {
                    return Err(format!("unit {i} off the board"));
                }
                if seen[h.0 as usize] {
                    return Err(format!("two characters on {}", h.label()));
                }
                seen[h.0 as usize] = true;
                let striking = matches!(self.state.phase, Phase::Strike { .. });
                if u.is_slain() && !striking {
                    return Err(format!("unit {i} slain but still on {}", h.label()));
                }
            }
            if u.damage > u.power {
                return Err(format!("unit {i} has more damage than power"));
            }
        }
        Ok(())
    }
}

fn strike_who(w: crate::format::Who, native: bool) -> bool {
    match w {
        crate::format::Who::Anyone => true,
        crate::format::Who::Natives => native,
        crate::format::Who::Others => !native,
    }
}

/// The character standing in `h`, other than `target`'s.
fn occupant_but(s: &State, h: HexId, target: UnitId) -> Option<CharacterId> {
    s.units
        .iter()
        .enumerate()
        .find(|(i, u)| u.hex() == Some(h) && *i as UnitId != target)
        .map(|(_, u)| u.character)
}

fn occupied(s: &State) -> [bool; HEX_COUNT] {
    let mut occ = [false; HEX_COUNT];
    for u in &s.units {
        if let Some(h) = u.hex() {
            occ[h.0 as usize] = true;
        }
    }
    occ
}

struct SightInfo {
    range: u8,
    /// The open readings of the line, or why none is.
    path: Result<Vec<Vec<HexId>>, String>,
    /// The path to show (the first reading when blocked).
    shown: Vec<HexId>,
}

/// What `titan rules los` prints.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SightReport {
    pub range: u8,
    pub path: Vec<String>,
    pub possible: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strike_number: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<u8>,
}

/// What `titan rules strike` prints.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StrikeReport {
    pub contact: bool,
    pub strike_number: u8,
    pub dice: u8,
    pub carry_over: Vec<CarryReport>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct CarryReport {
    pub character: String,
    pub hex: String,
    pub carry: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_alternate() {
        assert_eq!(BattleSide::Attacker.other(), BattleSide::Defender);
        assert_eq!(BattleSide::Defender.other(), BattleSide::Attacker);
    }

    #[test]
    fn hex_ids_serialise_as_labels() {
        let a = Action::Move {
            unit: 1,
            to: HexId::from_label("D4").unwrap(),
        };
        let text = ron::to_string(&a).unwrap();
        assert!(text.contains("\"D4\""), "{text}");
        assert_eq!(ron::from_str::<Action>(&text).unwrap(), a);
        assert!(ron::from_str::<Action>(r#"Move(unit: 1, to: "Z9")"#).is_err());
    }
}
