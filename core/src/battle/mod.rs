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

mod actions;
mod dice;
mod events;
pub mod extra;
pub mod geometry;
mod listing;
pub mod overlay;
mod phases;
pub mod position;
mod relist;
mod seen;
pub mod strike;
mod striking;
pub mod tables;
mod variant_ref;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::battleland::{Battleland, HEX_COUNT, HexId};
use crate::format::Edge;
use crate::lua::{LuaHost, ScriptError};
use crate::model::{CharacterId, Effect, RangeStrength, TerrainId, Variant};
use crate::rng::GameRng;

pub(crate) use actions::RngMark;
pub use dice::{Dice, DiceIter};
use geometry::{From, Geometry};
pub use position::Position;
use strike::StrikeParams;
use tables::{HexSet, bit, hexes};
pub use variant_ref::VariantRef;

/// One character entering a battle; `power` is its power for this battle (a
/// Titan's grows with its player's score: masterplay computes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fighter {
    pub character: CharacterId,
    pub power: u8,
}

impl Fighter {
    /// The characters named, each at its chart power (a battle set up by
    /// hand: tests, tools); `Err` names the first name the variant lacks.
    pub fn named(v: &Variant, names: &[&str]) -> Result<Vec<Fighter>, String> {
        names
            .iter()
            .map(|n| {
                let c = v
                    .character_by_name(n)
                    .ok_or_else(|| format!("no character {n:?} in {}", v.id))?;
                Ok(Fighter {
                    character: c,
                    power: v.character(c).power,
                })
            })
            .collect()
    }

    /// `n` characters drawn from `pool` by `rng`, each as likely, at their
    /// chart power: a random legion for simulations and tests.
    pub fn drawn(v: &Variant, pool: &[CharacterId], n: usize, rng: &mut GameRng) -> Vec<Fighter> {
        (0..n)
            .map(|_| {
                let c = pool[rng.int_in(0, pool.len() as i64 - 1) as usize];
                Fighter {
                    character: c,
                    power: v.character(c).power,
                }
            })
            .collect()
    }
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
    /// Survivors of the other legion that fought on this side at the end
    /// (`ctx:change_side`) and join this legion (listed as removed from
    /// their own); those beyond its room are only removed.
    pub attacker_joined: Vec<CharacterId>,
    pub defender_joined: Vec<CharacterId>,
    /// Survivors a script added from the caretaker (`ctx:add_unit`) that
    /// join this legion, while it has room.
    pub attacker_added: Vec<CharacterId>,
    pub defender_added: Vec<CharacterId>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// Not yet brought onto the battleland.
    Waiting,
    OnBoard(#[serde(serialize_with = "ser_hex")] HexId),
    /// Carried by another unit (its mount, by id) on the mount's hex
    /// (`ctx:mount`): not in the hex's occupancy, moved with its mount, not
    /// a target; set down on that hex when the mount leaves the battle.
    Riding(UnitId),
    /// Out of the battle.
    Gone(Fate),
}

fn ser_hex<S: serde::Serializer>(h: &HexId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&h.label())
}

/// How a character left the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The bit of its hex ([`tables::bit`]), 0 off the battleland or
    /// carried: worked out without a branch, for the scans of every unit
    /// that each decision makes.
    #[inline]
    pub(crate) fn hex_bit(&self) -> HexSet {
        let (on, h) = self.hex_parts();
        HexSet::from(on) << h
    }
    /// Whether it stands on a hex of its own, and that hex's index (0 when
    /// not), without a branch: every variant's payload is one byte at the
    /// same place, so reading it for all of them compiles to a load and a
    /// select rather than a guessed branch.
    #[inline]
    pub(crate) fn hex_parts(&self) -> (bool, u8) {
        let h = match self.status {
            Status::OnBoard(h) => h.0,
            Status::Riding(m) => m,
            Status::Gone(f) => f as u8,
            Status::Waiting => 0,
        };
        let on = matches!(self.status, Status::OnBoard(_));
        (on, h & u8::from(on).wrapping_neg())
    }
    /// Hits at least its power: slain, leaving at the end of the strike phase.
    pub fn is_slain(&self) -> bool {
        self.damage >= self.power
    }
    fn alive(&self) -> bool {
        matches!(
            self.status,
            Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
        ) && !self.is_slain()
    }
    /// On the battleland: on a hex of its own or carried.
    pub fn on_field(&self) -> bool {
        matches!(self.status, Status::OnBoard(_) | Status::Riding(_))
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Carry {
    pub striker: UnitId,
    pub hits: u8,
    pub strike_number: u8,
    pub bonus_skill: i8,
    pub bonus_dice: i8,
    pub forgo: bool,
    /// The target of the strike whose hits these are (`may_target`'s
    /// `carry_from`).
    #[serde(default)]
    pub first: UnitId,
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
    /// An action the variant's scripts define (`actions.ron`), taken by
    /// `unit` of the side to act.
    Script {
        name: String,
        unit: UnitId,
        args: Vec<crate::script::ScriptArg>,
    },
}

impl Action {
    /// Refuses a hex off the battleland or a script argument the variant
    /// does not have (see [`crate::game::Action::check_ids`]).
    #[inline]
    pub fn check_ids(&self, v: &Variant) -> Result<(), String> {
        match self {
            Action::Move { to, .. } | Action::Summon { to, .. } | Action::Reinforce { to, .. }
                if usize::from(to.0) >= HEX_COUNT =>
            {
                Err(format!("there is no hex number {} on a battleland", to.0))
            }
            Action::Script { args, .. } => args.iter().try_for_each(|a| a.check_ids(v)),
            _ => Ok(()),
        }
    }
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
        /// Printed and (de)serialized as a `Vec<u8>`.
        rolls: Dice,
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
    /// A unit took a variant's action (`actions.ron`).
    ScriptAction {
        name: String,
        unit: UnitId,
        args: Vec<crate::script::ScriptArg>,
    },
    /// A script's effect (`ctx:damage`, `ctx:kill`).
    Damaged {
        unit: UnitId,
        hits: u8,
    },
    /// A script's effect (`ctx:remove`, `ctx:end_battle`): out of the
    /// battle unscored.
    Removed {
        unit: UnitId,
    },
    /// A script's effect (`ctx:heal`).
    Healed {
        unit: UnitId,
        hits: u8,
    },
    /// A script's effect (`ctx:set_hazard`): the hex's hazard is now
    /// `hazard` until the start of round `until` (`None`: the battle's end).
    HazardSet {
        hex: HexId,
        hazard: String,
        until: Option<u8>,
    },
    /// A script's hazard change ran out: the hex has its own hazard again.
    HazardRestored {
        hex: HexId,
    },
    /// A script's effect (`ctx:set_battleland`): the battleland is now that
    /// of `terrain`, turned by `turns` thirds of a turn.
    BattlelandSet {
        terrain: String,
        turns: u8,
    },
    /// A script's effect (`ctx:mount`): `unit` rides `mount`, on its hex.
    Mounted {
        unit: UnitId,
        mount: UnitId,
    },
    /// A rider set down on `hex`: by a script (`ctx:dismount`), or when its
    /// mount left the battle.
    Dismounted {
        unit: UnitId,
        hex: HexId,
    },
    /// A script's effect (`ctx:set_round`): the battle round is now `round`.
    RoundSet {
        round: u8,
    },
    /// A script's effect (`ctx:set_reinforcement_round`): the defender may
    /// take its reinforcement in its maneuver of round `round`.
    ReinforcementRoundSet {
        round: u8,
    },
    /// A script's effect (`ctx:set_unit`): one of the unit's fields, as
    /// `Flies(true)`, `Skill(2)`, `MayMove(false)` ...
    UnitChanged {
        unit: UnitId,
        field: String,
    },
    /// A script's effect (`ctx:change_side`): the unit fights for `side`.
    SideChanged {
        unit: UnitId,
        side: BattleSide,
    },
    /// A script's effect (`ctx:add_unit`): a new unit on the battleland.
    UnitAdded {
        unit: UnitId,
        character: String,
        side: BattleSide,
        hex: HexId,
        temporary: bool,
    },
    /// A `before_damage` handler changed the hits a unit takes from a
    /// strike, rangestrike, carry-over or the end-of-phase hazard damage.
    HitsChanged {
        unit: UnitId,
        from: u8,
        to: u8,
    },
    /// A script's effect (`ctx:set` of a unit variable).
    VarSet {
        variable: String,
        unit: UnitId,
        value: crate::format::VarValue,
    },
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The scripts' unit variables (values other than defaults).
    vars: crate::vars::Vars,
    /// Hexes whose hazard a script changed (`ctx:set_hazard`), with the
    /// battleland and tables they make; `None` on the common path.
    overlay: Option<Rc<overlay::Overlay>>,
    /// What scripts changed about single units, by unit (empty when
    /// nothing; shorter than `units` when the last ones have no changes).
    extra: Vec<extra::UnitExtra>,
    /// The defender's maneuver in which it may take its reinforcement, when
    /// a script moved it (`ctx:set_reinforcement_round`); `None`:
    /// `rules.battle.reinforcement_maneuver`.
    reinforcement_round: Option<u8>,
}

impl State {
    fn to_act(&self) -> BattleSide {
        match self.phase {
            Phase::Strike { striking } => striking,
            _ => self.moving,
        }
    }

    /// The defender's maneuver in which it may take its reinforcement.
    fn reinforcement_round(&self, v: &Variant) -> u8 {
        self.reinforcement_round
            .unwrap_or(v.rules.battle.reinforcement_maneuver)
    }

    /// The hex unit `i` is on: its own, or its mount's while carried.
    pub(super) fn place(&self, i: usize) -> Option<HexId> {
        place_of(&self.units, i)
    }

    /// Sets down on `mount`'s hex what it carries, before it leaves the
    /// battle (the rider stays in the battle); `ev` is told the rider moved.
    pub(super) fn set_down(&mut self, mount: usize, ev: &mut Vec<BattleEvent>) {
        let Some(h) = self.units[mount].hex() else {
            return;
        };
        for (i, u) in self.units.iter_mut().enumerate() {
            if u.status == Status::Riding(mount as UnitId) {
                u.status = Status::OnBoard(h);
                ev.push(BattleEvent::Dismounted {
                    unit: i as UnitId,
                    hex: h,
                });
            }
        }
    }
}

/// The hex of `units[i]`: its own, or its mount's while carried.
pub(crate) fn place_of(units: &[Unit], i: usize) -> Option<HexId> {
    match units.get(i)?.status {
        Status::OnBoard(h) => Some(h),
        Status::Riding(m) => units.get(m as usize).and_then(Unit::hex),
        _ => None,
    }
}

/// The unit `mount` carries, if any.
pub(crate) fn rider_of(units: &[Unit], mount: usize) -> Option<usize> {
    units
        .iter()
        .position(|u| u.status == Status::Riding(mount as UnitId))
}

fn side_index(s: BattleSide) -> usize {
    match s {
        BattleSide::Attacker => 0,
        BattleSide::Defender => 1,
    }
}

/// A unit's remembered sight: (character, hex, occupied hexes), the
/// hexes asked, the hexes seen among them.
type SightMemo = ((CharacterId, HexId, HexSet), HexSet, HexSet);

/// A battle held as a value (see [`Battle::snapshot`]).
#[derive(Debug, Clone)]
pub struct BattleSnapshot {
    setup: BattleSetup,
    state: State,
    rng: GameRng,
    use_hooks: bool,
}

impl BattleSnapshot {
    /// The side to act (as [`Battle::to_act`]), without resuming the battle.
    pub fn to_act(&self) -> BattleSide {
        self.state.to_act()
    }

    /// The terrain whose battleland is fought on ([`Battle::resume`] needs
    /// the variant to have it).
    pub fn terrain(&self) -> crate::model::TerrainId {
        self.setup.terrain
    }

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

/// One battle. It holds its variant borrowed, or shared when it must
/// outlive the caller's borrow (a game keeps its battle alive between
/// actions as a `Battle<'static>`).
pub struct Battle<'v> {
    variant: VariantRef<'v>,
    geo: Geometry,
    setup: BattleSetup,
    /// Boxed, as is the spare, so that `apply` swaps them by pointer.
    state: Box<State>,
    rng: Rc<RefCell<GameRng>>,
    lua: Option<Rc<LuaHost>>,
    use_hooks: bool,
    /// The caretaker's counters by character, when a game fights the
    /// battle (`ctx:add_unit` takes from them); `None`: the chart's counts.
    caretaker: Option<Rc<Vec<u32>>>,
    /// A state `apply` copies the state into and changes (its buffers kept
    /// between actions); not part of the battle (see `State::copy_from`).
    spare: RefCell<Option<Box<State>>>,
    /// The spare state is the state before the action `apply` last carried
    /// out, which [`Battle::take_back`] may put back.
    undoable: bool,
    /// Its owner may take an action back ([`Battle::keep_undo`]): every
    /// action changes a copy. Otherwise a listed action without scripts
    /// changes the state in place (`apply_in_place`).
    keep_undo: bool,
    /// Whether actions append their events ([`Battle::without_events`]).
    records: bool,
    /// The reaches worked out for the current state (see
    /// `Battle::memo_reach`); derived, not part of the battle.
    reach_memo: RefCell<listing::ReachMemo>,
    /// The hexes each unit was found to see, with the hexes asked and
    /// what the answers depend on (see `Battle::memo_sight`); derived.
    sight_memo: RefCell<Vec<Option<SightMemo>>>,
    /// The runs [`Battle::pick_action`] lists into, kept between calls.
    pick_lists: RefCell<listing::PickLists>,
    /// The first script action's `legal` that failed while actions were
    /// listed (its action left out), until [`Battle::take_script_failure`].
    listing_failure: RefCell<Option<ScriptError>>,
    /// The last listing of the current state (no scripts) found no
    /// character obliged to strike, so that `EndStrikes` need not look
    /// again; cleared by whatever changes the state.
    ends_freely: std::cell::Cell<bool>,
    /// The occupied hexes of the current state, when known: worked out by
    /// a maneuver's listing, or carried over by the move just made
    /// (`apply` reads it for the move it checks); derived, cleared by
    /// whatever changes the state otherwise.
    occupied_now: std::cell::Cell<Option<HexSet>>,
    /// The occupied hexes after the action `apply` is carrying out, when
    /// it knows them (a move without scripts): `occupied_now` once the
    /// action succeeds.
    occupied_next: std::cell::Cell<Option<HexSet>>,
    /// The movers of the maneuver phase the action `apply` is carrying
    /// out began, found in its walk of the units: `movers` once the action
    /// succeeds.
    movers_next: std::cell::Cell<Option<u64>>,
    /// Units out of the battle for good, some of them: in a battle without
    /// scripts nobody comes back, so a walk of the units may skip them
    /// (`Battle::gone`). Added to as a step removes units (`gone_next`, kept
    /// once the action succeeds); emptied by whatever may bring one back
    /// (`take_back`, `restart`).
    gone: std::cell::Cell<u64>,
    gone_next: std::cell::Cell<u64>,
    /// Counts the changes of the state (`state_changed`): what a derived
    /// value was worked out for (see `relist`).
    generation: std::cell::Cell<u64>,
    /// The strike listing's enemies of the current state, when known
    /// (`listing::Foes`); derived, cleared by whatever changes the state.
    foes_now: std::cell::Cell<Option<listing::Foes>>,
    /// The units that may move at a maneuver decision, by mask, and the
    /// generation of the state they are of (`listing::note_movers`).
    movers: std::cell::Cell<Option<(u64, u64)>>,
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
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
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
    /// The scripts' unit variables this side may see, other than defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<crate::vars::VarEntry>,
    /// Hexes whose hazard a script changed (`ctx:set_hazard`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hazards: Vec<HazardView>,
    /// Thirds of a turn `battleland` is turned by, when a script put it in
    /// place of the battle's own (`ctx:set_battleland`): hex `h` of its file
    /// shows at `h.rotated(turns)`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub turns: u8,
    /// The round in whose maneuver phase the defender may take its
    /// reinforcement, when a script moved it from the rules' round
    /// (`ctx:set_reinforcement_round`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reinforcement_round: Option<u8>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A hex whose hazard a script changed, as views show it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HazardView {
    pub hex: String,
    pub hazard: String,
    /// The round at whose start the change ends; absent: the battle's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<u8>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
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
    fn first_state(land: &Battleland, setup: &BattleSetup, mut units: Vec<Unit>) -> State {
        let attacker_edge = land.attacker_edge.unwrap_or(setup.attacker_edge);
        units.clear();
        units.reserve(setup.attacker.len() + setup.defender.len());
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
            overlay: None,
            extra: Vec::new(),
            reinforcement_round: None,
        }
    }

    /// Refuses a setup the variant cannot fight; else its battleland.
    fn check_setup<'a>(
        variant: &'a Variant,
        setup: &BattleSetup,
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
            if variant.legion_size(side.iter().map(|f| f.character)) > max {
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
        let mut host = LuaHost::new(
            crate::compile::script_limits(&variant.data.rules),
            rng.clone(),
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
    fn assemble(
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
            spare: RefCell::new(None),
            undoable: false,
            keep_undo: false,
            records: true,
            reach_memo: RefCell::default(),
            sight_memo: RefCell::new(Vec::new()),
            pick_lists: RefCell::default(),
            listing_failure: RefCell::default(),
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

    /// Records no events of its actions ([`Battle::apply_into`] and
    /// [`Battle::play_picked`] append none): for a simulation's or a
    /// search's playouts, which do not read them. A battle with scripts
    /// records them all the same, as its handlers read them.
    pub fn without_events(mut self) -> Self {
        self.records = self.lua.is_some();
        self
    }

    /// Appends the event `e` makes to `ev`, unless the battle records no
    /// events (then it is not made: an event made and dropped is a call).
    #[inline(always)]
    fn record(&self, ev: &mut Vec<BattleEvent>, e: impl FnOnce() -> BattleEvent) {
        if self.records {
            ev.push(e());
        }
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
        self.undoable = false;
        self.state_changed();
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

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The battle's own battleland, as the variant has it (see
    /// [`Battle::battleland`] for the one fought on now).
    fn land(&self) -> &Battleland {
        &self.variant.battlelands[self.setup.terrain.index()]
    }
    /// The battleland as it is now (with the hazards scripts changed).
    pub fn battleland(&self) -> &Battleland {
        self.land_in(&self.state)
    }

    /// The battleland of a (working) state: the battle's changed copy when
    /// a script changed a hazard, else the variant's.
    fn land_in<'a>(&'a self, s: &'a State) -> &'a Battleland {
        match &s.overlay {
            Some(o) => &o.land,
            None => self.land(),
        }
    }

    /// The tables of [`Battle::land_in`].
    fn tables_in<'a>(&'a self, s: &'a State) -> &'a tables::LandTables {
        match &s.overlay {
            Some(o) => &o.tables,
            None => self.variant.battle_tables.land(self.setup.terrain.index()),
        }
    }

    /// The hexes whose hazard a script changed, with the hazard and the
    /// round at whose start the change ends (`None`: the battle's end).
    pub fn hazard_changes(&self) -> Vec<(HexId, crate::model::HazardId, Option<u8>)> {
        self.state
            .overlay
            .iter()
            .flat_map(|o| o.changes.iter().map(|c| (c.hex, c.hazard, c.until)))
            .collect()
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
    /// The first script action's `legal` that failed while the actions
    /// were listed since the last call (the listing left that action out
    /// rather than fail), cleared: a script error of the variant all the
    /// same, for `titan check --play` and `titan simulate` to report.
    #[inline]
    pub fn take_script_failure(&self) -> Option<ScriptError> {
        // Only scripts fail. Looked at before it is taken: a script error
        // is large to move, and a random player asks after every decision.
        self.lua.as_ref()?;
        let mut failure = self.listing_failure.borrow_mut();
        if failure.is_none() {
            return None;
        }
        failure.take()
    }

    pub fn defender_maneuver(&self) -> u8 {
        self.state.defender_maneuver
    }

    /// The defender's maneuver (round) in which it may take its
    /// reinforcement: the rules' unless a script moved it.
    pub fn reinforcement_round(&self) -> u8 {
        self.state.reinforcement_round(&self.variant)
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
        self.state.to_act()
    }

    /// The character standing on `hex`, if any.
    pub fn unit_at(&self, hex: HexId) -> Option<UnitId> {
        self.state
            .units
            .iter()
            .position(|u| u.hex() == Some(hex))
            .map(|i| i as UnitId)
    }

    /// The hex `unit` is on: its own, or its mount's while it rides.
    pub fn place(&self, unit: UnitId) -> Option<HexId> {
        self.state.place(unit as usize)
    }

    /// The unit `mount` carries (`ctx:mount`), if any.
    pub fn rider_of(&self, mount: UnitId) -> Option<UnitId> {
        rider_of(&self.state.units, mount as usize).map(|i| i as UnitId)
    }

    /// The battle's result once it is over.
    pub fn result(&self) -> Option<BattleResult> {
        self.state.result.clone()
    }

    /// [`Battle::result`] lent rather than copied (a caller that plays many
    /// battles looks at each result once).
    pub fn result_ref(&self) -> Option<&BattleResult> {
        self.state.result.as_ref()
    }

    /// What `side` sees.
    pub fn view(&self, side: BattleSide) -> BattleView {
        let v = &*self.variant;
        BattleView {
            you: side,
            battleland: v.terrains[self.land_in(&self.state).terrain.index()]
                .name
                .clone(),
            turns: overlay::Overlay::landscape_of(&self.state.overlay).map_or(0, |l| l.turns),
            phase: self.state.phase,
            moving: self.state.moving,
            to_act: self.to_act(),
            defender_maneuver: self.state.defender_maneuver,
            reinforcement_round: self.state.reinforcement_round,
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
                    skill: self.skill_of(&self.state, i),
                    damage: u.damage,
                    status: u.status,
                })
                .collect(),
            summon: self.state.summon,
            carry: self.state.carry,
            vars: self
                .state
                .vars
                .visible(v, None, |_| None)
                .into_iter()
                .chain(
                    // Owner visibility: the units of the viewer's side.
                    self.state.vars.entries().filter(|e| {
                        v.variable(&e.variable)
                            .is_some_and(|d| d.visibility == crate::format::Visibility::Owner)
                            && matches!(e.of, crate::vars::VarTarget::Unit(u)
                                if self.state.units.get(u as usize).is_some_and(|u| u.side == side))
                    }),
                )
                .collect(),
            hazards: self
                .hazard_changes()
                .into_iter()
                .map(|(h, hz, until)| HazardView {
                    hex: h.label(),
                    hazard: v.hazard(hz).name.clone(),
                    until,
                })
                .collect(),
        }
    }

    /// The value of a unit variable (its default unless set).
    pub fn unit_var(&self, name: &str, unit: UnitId) -> Option<&crate::format::VarValue> {
        let def = self.variant.variable(name)?;
        Some(self.state.vars.get(def, crate::vars::VarTarget::Unit(unit)))
    }

    /// Every hex `unit` may move to this maneuver phase.
    pub fn reach(&self, unit: UnitId) -> Result<Vec<HexId>, BattleError> {
        let s = &self.state;
        let u = s
            .units
            .get(unit as usize)
            .ok_or(BattleError::NoUnit(unit))?;
        Ok(match self.move_origin(s, u) {
            Some(From::Area) if s.extra(unit as usize).may_move.is_none() => geometry::reach_in(
                &self.variant,
                self.land_in(s),
                self.tables_in(s),
                u.character,
                From::Area,
                &occupied(s),
            ),
            Some(from) => hexes(self.unit_reach(s, unit as usize, from, occupied_set(s))).collect(),
            None => Vec::new(),
        })
    }

    /// Checks the invariants: one character per hex, damage below power for
    /// the living on the battleland, nobody off the board, a rider on a
    /// mount of its side on the battleland, one rider per mount. For tests.
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
            if let Status::Riding(m) = u.status {
                let mount = self.state.units.get(m as usize);
                if !mount.is_some_and(|m| m.hex().is_some() && m.side == u.side) {
                    return Err(format!("unit {i} rides unit {m}, not on the battleland"));
                }
                if rider_of(&self.state.units, m as usize) != Some(i) {
                    return Err(format!("unit {m} carries more than one rider"));
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

/// The indices of the units for which `pred` holds, in order. `pred` is
/// asked of every unit into a mask (64 units at a time) before any is
/// visited, so that which units qualify costs no guessed branch: write it
/// with `&` and `|` rather than `&&` and `||`.
pub(crate) fn units_where<P: Fn(&Unit) -> bool>(units: &[Unit], pred: P) -> UnitsWhere<'_, P> {
    let mut it = UnitsWhere {
        units,
        pred,
        base: 0,
        mask: 0,
    };
    it.mask = it.chunk_mask();
    it
}

/// The units for which `pred` holds as a mask, when there are at most 64
/// (see [`units_where`]).
pub(crate) fn units_mask<P: Fn(&Unit) -> bool>(units: &[Unit], pred: P) -> Option<u64> {
    (units.len() <= 64).then(|| {
        units
            .iter()
            .enumerate()
            .fold(0, |m, (k, u)| m | u64::from(pred(u)) << k)
    })
}

/// See [`Battle::present`]: the units by mask, then those past 64 (never
/// taken for gone).
pub(crate) struct Present {
    mask: u64,
    wide: std::ops::Range<usize>,
}

impl Iterator for Present {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.mask != 0 {
            let j = self.mask.trailing_zeros() as usize;
            self.mask &= self.mask - 1;
            return Some(j);
        }
        self.wide.next()
    }
}

/// See [`units_where`].
pub(crate) struct UnitsWhere<'a, P> {
    units: &'a [Unit],
    pred: P,
    /// The index of the mask's first unit.
    base: usize,
    mask: u64,
}

impl<P: Fn(&Unit) -> bool> UnitsWhere<'_, P> {
    #[inline]
    fn chunk_mask(&self) -> u64 {
        let end = self.units.len().min(self.base + 64);
        let chunk = self.units.get(self.base..end).unwrap_or_default();
        let mut m = 0u64;
        for (k, u) in chunk.iter().enumerate() {
            m |= u64::from((self.pred)(u)) << k;
        }
        m
    }
}

impl<P: Fn(&Unit) -> bool> Iterator for UnitsWhere<'_, P> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            if self.base + 64 >= self.units.len() {
                return None;
            }
            self.base += 64;
            self.mask = self.chunk_mask();
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.base + k)
    }
}

impl Battle<'_> {
    /// Forgets what was derived from the state (see `ends_freely`,
    /// `occupied_now`): called by whatever replaces or changes it.
    fn state_changed(&self) {
        self.ends_freely.set(false);
        self.occupied_now.set(None);
        self.generation.set(self.generation.get().wrapping_add(1));
        self.foes_now.set(None);
    }

    /// Units known to be out of the battle for good, which a walk of the
    /// units of `s` (the current state, or the one a step is making of it)
    /// may skip: none with scripts (a script may bring one back).
    #[inline]
    fn gone(&self, s: &State) -> u64 {
        let gone = if self.lua.is_none() {
            self.gone.get()
        } else {
            0
        };
        debug_assert!(
            s.units
                .iter()
                .enumerate()
                .all(|(i, u)| gone >> i & 1 == 0 || matches!(u.status, Status::Gone(_))),
            "a unit taken for gone is not"
        );
        gone
    }

    /// The units of `s` but those [`Battle::gone`] skips, in order.
    #[inline]
    fn present(&self, s: &State) -> Present {
        let len = s.units.len();
        let all = 1u64.checked_shl(len as u32).map_or(u64::MAX, |b| b - 1);
        Present {
            mask: all & !self.gone(s),
            wide: len.min(64)..len,
        }
    }

    /// Notes units the step under way removed for good (`mask`).
    #[inline]
    fn note_gone(&self, mask: u64) {
        self.gone_next.set(self.gone_next.get() | mask);
    }

    /// [`occupied_set`] of the current state, remembered until it changes.
    fn occupied_now(&self) -> HexSet {
        debug_assert!(
            self.occupied_now
                .get()
                .is_none_or(|o| o == occupied_set(&self.state)),
            "the occupied hexes carried over"
        );
        self.occupied_now.get().unwrap_or_else(|| {
            let o = occupied_set(&self.state);
            self.occupied_now.set(Some(o));
            o
        })
    }
}

/// The hexes holding a character (derived per decision, never stored).
fn occupied_set(s: &State) -> HexSet {
    s.units.iter().fold(0, |m, u| m | u.hex_bit())
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
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SightReport {
    pub range: u8,
    pub path: Vec<String>,
    pub possible: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strike_number: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<u8>,
}

/// What `titan rules strike` prints.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StrikeReport {
    pub contact: bool,
    pub strike_number: u8,
    pub dice: u8,
    pub carry_over: Vec<CarryReport>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CarryReport {
    pub character: String,
    pub hex: String,
    pub carry: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The characters a random legion is drawn from: every one the chart
    /// counts but the Titan (the tests name none of a variant's).
    fn pool(v: &Variant) -> Vec<CharacterId> {
        let titan = v.rules.titan.character;
        (0..v.characters.len())
            .map(|i| CharacterId(i as u16))
            .filter(|&c| c != titan && v.character(c).count > 0)
            .collect()
    }

    #[test]
    fn units_where_visits_the_units_that_qualify_in_order() {
        // More than one mask's worth, so the chunks join up.
        for n in [0usize, 1, 63, 64, 65, 130] {
            let units: Vec<Unit> = (0..n)
                .map(|i| Unit {
                    character: CharacterId(0),
                    side: if i % 3 == 0 {
                        BattleSide::Attacker
                    } else {
                        BattleSide::Defender
                    },
                    power: 6,
                    status: Status::Waiting,
                    damage: (i % 7) as u8,
                    moved: false,
                    locked: false,
                    strikes_left: 1,
                })
                .collect();
            let pred = |u: &Unit| (u.side == BattleSide::Defender) & (u.damage < 5);
            let want: Vec<usize> = (0..n).filter(|&i| pred(&units[i])).collect();
            assert_eq!(
                units_where(&units, pred).collect::<Vec<_>>(),
                want,
                "{n} units"
            );
        }
    }

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

    /// `take_back` puts the battle back as it was before the last action
    /// (state and generator), once; a battle held shared plays as one held
    /// borrowed.
    /// A battle nobody takes back changes its state in place for the
    /// actions `pick_action` listed; one whose owner may take back
    /// (`keep_undo`, as a game's) copies it: the same battles, and only the
    /// copying one can take its last action back. `play_picked`, which
    /// makes none of the checks listing made, plays the same battles too.
    #[test]
    fn actions_changed_in_place_play_as_copied() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let v = crate::load(&dir, &Default::default()).unwrap();
        let pool = pool(&v);
        let (mut actions, mut changed_in_place) = (0, 0);
        for seed in 0..40u64 {
            let mut draw = GameRng::new(seed);
            let setup = BattleSetup {
                terrain: TerrainId((seed % v.terrains.len() as u64) as u8),
                attacker: Fighter::drawn(&v, &pool, 7, &mut draw),
                defender: Fighter::drawn(&v, &pool, 7, &mut draw),
                attacker_edge: v.rules.battle.attacker_edges[0],
                summonable: vec![],
                reinforcements: vec![],
                teleported: false,
            };
            let mut in_place = Battle::new(&v, setup.clone(), GameRng::new(seed)).unwrap();
            let mut played = Battle::new(&v, setup.clone(), GameRng::new(seed)).unwrap();
            let mut copied = Battle::new(&v, setup, GameRng::new(seed)).unwrap();
            copied.keep_undo();
            let (mut p, mut q) = (GameRng::new(seed ^ 7), GameRng::new(seed ^ 7));
            let mut r = GameRng::new(seed ^ 7);
            let mut events = Vec::new();
            while in_place.result().is_none() {
                let a = crate::game::random::random_battle_action(&in_place, &mut p).unwrap();
                let b = crate::game::random::random_battle_action(&copied, &mut q).unwrap();
                assert_eq!(a, b);
                let (mark, copied_mark) = (in_place.rng_mark(), copied.rng_mark());
                let before = copied.fingerprint();
                let first = copied.apply(b.clone()).unwrap();
                if actions % 9 == 0 {
                    // Taken back and carried out again.
                    assert!(copied.take_back(copied_mark));
                    assert_eq!(copied.fingerprint(), before);
                    assert_eq!(copied.apply(b).unwrap(), first);
                }
                assert_eq!(in_place.apply(a.clone()).unwrap(), first);
                assert_eq!(in_place.fingerprint(), copied.fingerprint());
                events.clear();
                let done = crate::game::random::play_random_battle_action(
                    &mut played,
                    &mut r,
                    &mut events,
                );
                assert!(matches!(done, Ok(true)), "{done:?}");
                assert_eq!(events, first);
                assert_eq!(played.fingerprint(), copied.fingerprint());
                // Changed in place: nothing kept to take back.
                if !in_place.undoable {
                    changed_in_place += 1;
                    assert!(!in_place.take_back(mark));
                }
                actions += 1;
            }
        }
        assert!(actions > 1000, "{actions}");
        // All but the moves into a defender's area and the carry-overs.
        assert!(
            changed_in_place > actions * 9 / 10,
            "{changed_in_place} of {actions}"
        );
    }

    /// A battle begun anew in another's place (`restart`) plays as one
    /// begun on its own, whatever the battle before it (another
    /// battleland, another line-up, unfinished), and so does one that
    /// records no events (`without_events`); a setup the variant cannot
    /// fight is refused and leaves the battle as it was.
    #[test]
    fn a_battle_restarted_plays_as_one_begun_anew() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let v = crate::load(&dir, &Default::default()).unwrap();
        let pool = pool(&v);
        let setup = |seed: u64| {
            let mut draw = GameRng::new(seed);
            BattleSetup {
                terrain: TerrainId((seed % v.terrains.len() as u64) as u8),
                attacker: Fighter::drawn(&v, &pool, 1 + seed as usize % 7, &mut draw),
                defender: Fighter::drawn(&v, &pool, 7, &mut draw),
                attacker_edge: v.rules.battle.attacker_edges[0],
                summonable: vec![],
                reinforcements: vec![],
                teleported: seed.is_multiple_of(5),
            }
        };
        let rng = Rc::new(RefCell::new(GameRng::new(0)));
        // Recording no events, too: the same battles.
        let mut again = Battle::with_scripts(&v, setup(100), rng.clone(), None)
            .unwrap()
            .without_events();
        for seed in 0..30u64 {
            let mut fresh = Battle::new(&v, setup(seed), GameRng::new(seed)).unwrap();
            *rng.borrow_mut() = GameRng::new(seed);
            again.restart(setup(seed)).unwrap();
            assert_eq!(again.fingerprint(), fresh.fingerprint());
            let (mut p, mut q) = (GameRng::new(seed ^ 3), GameRng::new(seed ^ 3));
            let (mut e, mut f) = (Vec::new(), Vec::new());
            // Every fourth battle is left unfinished.
            let mut left = if seed % 4 == 0 { 20 } else { usize::MAX };
            while left > 0 {
                left -= 1;
                e.clear();
                f.clear();
                let a = crate::game::random::play_random_battle_action(&mut fresh, &mut p, &mut e);
                let b = crate::game::random::play_random_battle_action(&mut again, &mut q, &mut f);
                assert!(matches!((&a, &b), (Ok(x), Ok(y)) if x == y), "{a:?} {b:?}");
                assert!(f.is_empty(), "{f:?}");
                assert_eq!(again.fingerprint(), fresh.fingerprint());
                if a.is_ok_and(|played| !played) {
                    break;
                }
            }
            assert_eq!(again.result(), fresh.result());
            assert!(fresh.result().is_some() || seed % 4 == 0, "{seed}");
        }
        let before = again.fingerprint();
        let mut bad = setup(1);
        bad.defender.clear();
        assert!(matches!(again.restart(bad), Err(BattleError::Setup(_))));
        assert_eq!(again.fingerprint(), before);
    }

    #[test]
    fn an_action_taken_back_leaves_the_battle_as_before() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let v = std::sync::Arc::new(crate::load(&dir, &Default::default()).unwrap());
        // Four characters a side drawn from the chart, on the first
        // battleland: core names none of a variant's.
        let pool = pool(&v);
        let mut draw = GameRng::new(3);
        let setup = BattleSetup {
            terrain: TerrainId(0),
            attacker: Fighter::drawn(&v, &pool, 4, &mut draw),
            defender: Fighter::drawn(&v, &pool, 4, &mut draw),
            attacker_edge: v.rules.battle.attacker_edges[0],
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut shared: Battle<'static> =
            Battle::new(v.clone(), setup.clone(), GameRng::new(5)).unwrap();
        let mut borrowed = Battle::new(&*v, setup, GameRng::new(5)).unwrap();
        let mut pick = GameRng::new(9);
        let mut taken = 0;
        while shared.result().is_none() {
            let legal = shared.legal_actions();
            assert_eq!(legal, borrowed.legal_actions());
            let a = legal[pick.int_in(0, legal.len() as i64 - 1) as usize].clone();
            let before = shared.fingerprint();
            let mark = shared.rng_mark();
            let first = shared.apply(a.clone()).unwrap();
            assert!(shared.take_back(mark));
            assert_eq!(shared.fingerprint(), before);
            assert!(!shared.take_back(mark), "only once");
            taken += 1;
            assert_eq!(shared.apply(a.clone()).unwrap(), first);
            assert_eq!(borrowed.apply(a).unwrap(), first);
            // Nothing to take back after a refused action.
            let mark = shared.rng_mark();
            let after = shared.fingerprint();
            assert!(
                shared
                    .apply(Action::CarryOver { target: Some(200) })
                    .is_err()
            );
            assert!(!shared.take_back(mark));
            assert_eq!(shared.fingerprint(), after);
        }
        assert_eq!(shared.fingerprint(), borrowed.fingerprint());
        assert!(taken > 10, "{taken}");
    }
}
