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
pub use crate::state::overlay;
mod phases;
mod placement;
pub mod position;
mod queries;
mod relist;
mod seen;
mod setup;
pub mod strike;
mod striking;
pub use crate::model::tables;
mod teams;
pub use teams::{Team, TeamSetup};
mod variant_ref;
mod walks;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::battleland::{Battleland, HexId, MAX_HEXES};
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
pub(crate) use walks::{units_mask, units_where};

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

pub use crate::ids::BattleSide;

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

pub use crate::ids::UnitId;

pub use crate::state::units::{Fate, Status, Unit};
pub(crate) use crate::state::units::{place_of, rider_of};

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
    /// With placement phases: summon the `choice`-th summonable character
    /// to wait with the side's uncommitted characters (Law of Titan 1980,
    /// 14.B), to be committed later.
    SummonUncommitted {
        choice: u8,
    },
    /// With placement phases: the `choice`-th reinforcement waits with the
    /// defender's uncommitted characters (Law of Titan 1980, 13.B).
    ReinforceUncommitted {
        choice: u8,
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
    /// Refuses a hex past every board or a script argument the variant
    /// does not have (see [`crate::game::Action::check_ids`]); the battle
    /// refuses a hex off its own board ([`Action::check_board`]).
    #[inline]
    pub fn check_ids(&self, v: &Variant) -> Result<(), String> {
        match self {
            Action::Move { to, .. } | Action::Summon { to, .. } | Action::Reinforce { to, .. }
                if usize::from(to.0) >= MAX_HEXES =>
            {
                Err(format!("there is no hex number {} on a battleland", to.0))
            }
            Action::Script { args, .. } => args.iter().try_for_each(|a| a.check_ids(v)),
            _ => Ok(()),
        }
    }
}

impl Action {
    /// Refuses a hex the battle's board does not have.
    #[inline]
    pub fn check_board(&self, board: &crate::battleland::Board) -> Result<(), String> {
        let hex = |h: &HexId| {
            if board.has(*h) {
                Ok(())
            } else {
                Err(format!("there is no hex number {} on this battleland", h.0))
            }
        };
        match self {
            Action::Move { to, .. } | Action::Summon { to, .. } | Action::Reinforce { to, .. } => {
                hex(to)
            }
            Action::Script { args, .. } => args.iter().try_for_each(|a| match a {
                crate::script::ScriptArg::Hex(h) => hex(h),
                _ => Ok(()),
            }),
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
    /// A script's effect (`ctx:withdraw`): the unit left the battle alive,
    /// back to its legion.
    Withdrawn {
        unit: UnitId,
    },
    /// A script's effect (`ctx:rejoin`): a withdrawn unit is back on `hex`.
    Rejoined {
        unit: UnitId,
        hex: HexId,
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
    /// A script's effect (`ctx:set` of a game, player, legion, character or
    /// land variable, which masterplay takes back after the action).
    GameVarSet {
        variable: String,
        of: crate::vars::VarTarget,
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
    /// A battle whose dice are all fixed ([`Battle::dice_fixed_only`])
    /// needed more dice than were left.
    #[error(
        "the fixed dice ran out: a roll of {needed} dice found {left} left, and this battle's dice are all fixed"
    )]
    DiceRanOut { needed: u8, left: usize },
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

/// The battle's state. An action changes a copy of it (in the spare state,
/// `State::copy_from`), kept only if it succeeds, so a refused action
/// changes nothing; in a battle nobody takes back, an action listed without
/// scripts changes it in place (`Battle::apply_in_place`).
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
    /// A further choice a script asked for (`ctx:choose`): the unit that
    /// must take the variant action named before anything else.
    choice: Option<(UnitId, String)>,
    /// The game's variables of every other scope, as the battle's scripts
    /// read and set them; masterplay hands them in before each action and
    /// takes them back after it (empty outside a game).
    game_vars: crate::vars::Vars,
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
    /// A battle of many legions' teams (`Battle::set_teams`); empty in a
    /// battle of two legions.
    teams: teams::Teams,
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
        let rules = &v.rules.battle;
        self.reinforcement_round
            .unwrap_or(match rules.procedure.reinforcement {
                crate::format::Reinforcement::Round => rules.reinforcement_maneuver,
                // No round until an attacker's character is slain (round 0
                // never comes).
                crate::format::Reinforcement::AfterFirstSlain => 0,
            })
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
    /// The game's seats and legions, when a game fights the battle (what
    /// its scripts may set the game's variables of).
    world: Option<Rc<crate::script::GameLinks>>,
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
    /// Every die is a fixed one ([`Battle::dice_fixed_only`]): a roll that
    /// finds too few left is an error, never the generator's.
    fixed_only: bool,
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
    /// What a battle ctx asks the engine through (`ctx:reach`,
    /// `ctx:sight`), made with the first ctx.
    engine_view: std::cell::OnceCell<Rc<queries::EngineView>>,
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
    /// A battle of teams (a showdown): the viewer's team, the team to act
    /// and each unit's team by unit id. Other teams' characters waiting to
    /// be committed are masked (Law of Titan 1980, 19.D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_to_act: Option<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<u8>,
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

    /// From now on every die must be a fixed one: an action whose roll finds
    /// too few fixed dice left fails with [`BattleError::DiceRanOut`] and
    /// leaves the battle unchanged, instead of rolling the generator (a
    /// scenario's dice are all written down). Games never set it.
    pub fn dice_fixed_only(&mut self) {
        self.fixed_only = true;
        // Every action changes a copy, so that one that fails half-way
        // leaves nothing behind (the in-place path assumes no failure).
        self.keep_undo = true;
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

    /// The board the battle is fought on (a script's changed battleland
    /// keeps it).
    pub fn board(&self) -> &crate::battleland::Board {
        &self.land().board
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

    /// What team `team` of `side` sees in a battle of teams: the view of
    /// its side, the other teams' characters still waiting to be committed
    /// (which nobody has been shown) masked as `"?"` of power and skill 0,
    /// each unit at its id's place.
    pub fn view_for_team(&self, side: BattleSide, team: u8) -> BattleView {
        let mut view = self.view(side);
        let s = &self.state;
        if s.teams.active() {
            for u in view.units.iter_mut() {
                if u.status == Status::Waiting && s.team_of(usize::from(u.id)) != team {
                    u.character = "?".to_string();
                    u.power = 0;
                    u.skill = 0;
                }
            }
            view.team = Some(team);
        }
        view
    }

    /// What `side` sees.
    pub fn view(&self, side: BattleSide) -> BattleView {
        let v = &*self.variant;
        let s = &self.state;
        BattleView {
            team: None,
            team_to_act: self.team_to_act(),
            teams: if s.teams.active() {
                (0..s.units.len()).map(|i| s.team_of(i)).collect()
            } else {
                Vec::new()
            },
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
        if self.placing() {
            // Only the side placing now commits or shifts.
            if s.phase != Phase::Maneuver {
                return Ok(Vec::new());
            }
            return Ok(hexes(self.placement_reach(s, unit as usize, occupied_set(s))).collect());
        }
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
        let mut seen = [false; MAX_HEXES];
        let board = self.board();
        for (i, u) in self.state.units.iter().enumerate() {
            if let Status::OnBoard(h) = u.status {
                if !board.has(h) {
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

/// The character standing in `h`, other than `target`'s.
fn occupant_but(s: &State, h: HexId, target: UnitId) -> Option<CharacterId> {
    s.units
        .iter()
        .enumerate()
        .find(|(i, u)| u.hex() == Some(h) && *i as UnitId != target)
        .map(|(_, u)| u.character)
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

fn occupied(s: &State) -> [bool; MAX_HEXES] {
    let mut occ = [false; MAX_HEXES];
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
mod tests;
