//! The scripting platform: the engine events scripts handle (`titan.on`),
//! the `ctx` each handler receives, and the effects it requests.
//!
//! A handler reads the position through `ctx` (a snapshot taken when the
//! event fires, so reading costs nothing until a method is called) and
//! changes nothing itself: `ctx:damage`, `ctx:heal`, `ctx:move`, `ctx:kill`,
//! `ctx:set` and `ctx:award` request effects. Each request is checked at
//! once against the snapshot (which it then updates, so later reads see it):
//! an illegal one raises a script error at the script's line. When every
//! handler has run, the engine applies the effects to its working copy in
//! order, with events. A failing handler refuses the action that fired the
//! event, and the working copy is dropped.
//!
//! The VM is one per game; what scripts keep in Lua globals is not game
//! state (not saved, not restored by a refused action): state belongs in
//! the variables of `variables.ron`, which `ctx:get` and `ctx:set` reach.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Lua, LuaString, Table, Value};

use crate::battleland::HexId;
use crate::format::{VarScope, VarType, VarValue};
use crate::ids::{BattleSide, UnitId};
use crate::ids::{Marker, PlayerId};
use crate::lua::LuaHost;
use crate::model::{HazardId, TerrainId, Variant};
use crate::state::game::GameState;
use crate::state::units::{Status, Unit};
use crate::vars::{VarTarget, Vars};

mod actions;
mod battle_queries;
mod dispatch;
mod filters;
pub(crate) use filters::{Condition, STATUS_WORDS, Scene, Tests};
use filters::{event_filter, passes};
pub(crate) use query::{alive, status_code};
mod lookups;
mod methods;
mod query;
mod withdraw;

pub use actions::ScriptArg;
use actions::script_error;
pub(crate) use actions::{action_apply, action_legal};
use methods::methods;

/// The events a script may handle, with `titan.on(event, fn)`.
pub const EVENTS: &[&str] = &[
    // Masterplay.
    "game_start",
    "turn_start",
    "turn_end",
    "phase_start",
    "phase_end",
    "legion_split",
    "legion_moved",
    "engagement_start",
    "engagement_end",
    "battle_start",
    "battle_end",
    "character_slain",
    "muster",
    "points_scored",
    "player_eliminated",
    "may_end_phase",
    // Battle.
    "battle_phase_start",
    "battle_phase_end",
    "unit_entered",
    "unit_moved",
    "before_strike",
    "after_strike",
    "before_damage",
    "unit_slain",
    "may_target",
    "may_end_battle_phase",
];

/// The engine failing to build a `ctx` (not a script's fault).
fn ctx_error(e: mlua::Error) -> crate::lua::ScriptError {
    crate::lua::ScriptError {
        script: crate::lua::SANDBOX.to_string(),
        line: None,
        kind: crate::lua::ScriptErrorKind::Runtime,
        message: format!("cannot build ctx: {e}"),
        traceback: Vec::new(),
    }
}

/// `ctx[key]` after an event's handlers ran. The key's Lua string is made
/// once per VM: a `&str` key would be made again at every read, each time
/// in a protected call of its own (the memory cap), which costs more than
/// the handler.
pub(crate) fn ctx_field<T: mlua::FromLua>(
    host: &LuaHost,
    ctx: &Table,
    key: &'static str,
) -> mlua::Result<T> {
    match platform(host) {
        Some(p) => ctx.raw_get(p.store.strings.word(host.lua(), key)?),
        None => ctx.raw_get(key),
    }
}

/// A handler's filter, checked in Rust before anything crosses into Lua:
/// (field, word) pairs its event must carry and, for a battle event, a
/// unit the battle must hold (`unit = { ... }`, its condition).
pub(crate) type Filter = crate::lua::HandlerFilter;

/// The events of [`EVENTS`] and their filters, for the Lua host's
/// `titan.on`.
pub const EVENT_CATALOG: crate::lua::EventCatalog = crate::lua::EventCatalog {
    names: EVENTS,
    read_filter: event_filter,
};

/// The unit filter of a handler's filter, if it has one.
pub(crate) fn unit_condition(filter: &Filter) -> Option<&Condition> {
    filter.condition()
}

/// The script platform of `host`, once [`install`]ed.
pub(crate) fn platform(host: &LuaHost) -> Option<&Platform> {
    host.extension()
}

/// An effect a handler requested, checked against the snapshot.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Damage {
        unit: u8,
        hits: u8,
    },
    Heal {
        unit: u8,
        hits: u8,
    },
    Move {
        unit: u8,
        to: HexId,
    },
    Kill {
        unit: u8,
    },
    Set {
        variable: String,
        of: VarTarget,
        value: VarValue,
    },
    Award {
        player: PlayerId,
        points: u32,
    },
    /// The unit strikes no more this phase (an action "instead of striking").
    UseStrike {
        unit: u8,
    },
    /// The movement die is rolled again.
    RollAgain,
    /// Two units on the battleland change places.
    Swap {
        a: u8,
        b: u8,
    },
    /// The unit leaves the battle unscored.
    Remove {
        unit: u8,
    },
    /// The unit leaves the battle alive, back to its legion.
    Withdraw {
        unit: u8,
    },
    /// A withdrawn unit comes back to the battle on `hex`.
    Rejoin {
        unit: u8,
        hex: HexId,
    },
    /// The battle ends: the loser's (or, with no winner, everybody's) living
    /// characters leave it unscored.
    EndBattle {
        winner: Option<BattleSide>,
    },
    /// A player (`to`), or every player (`None`), is shown the legion's
    /// characters.
    Reveal {
        legion: Marker,
        to: Option<PlayerId>,
    },
    /// A character from the caretaker joins the legion (masterplay).
    AddCharacter {
        legion: Marker,
        character: crate::model::CharacterId,
    },
    /// The player is out of the game, as if he had conceded it.
    /// A character goes from one of a player's legions to another.
    MoveCharacter {
        from: Marker,
        to: Marker,
        character: crate::model::CharacterId,
    },
    /// A character leaves its legion for the caretaker.
    ReturnCharacter {
        legion: Marker,
        character: crate::model::CharacterId,
    },
    /// The actor must next take the variant action `action` (`ctx:choose`):
    /// in a battle, `unit` takes it.
    Choose {
        action: String,
        unit: Option<u8>,
    },
    /// A player's score goes down (never below 0).
    LowerScore {
        player: PlayerId,
        points: u32,
    },
    Eliminate {
        player: PlayerId,
    },
    /// A showdown of this player against all the others begins
    /// (`rules.battle.showdown`).
    BeginShowdown {
        player: PlayerId,
    },
    /// One of the unit's fields the engine reads (`ctx:set_unit`).
    SetBattleland {
        terrain: TerrainId,
        turns: u8,
    },
    SetUnit {
        unit: u8,
        field: crate::state::extra::UnitField,
    },
    /// The battle round (the defender's maneuver number) is `round`.
    SetRound {
        round: u8,
    },
    /// The defender may take its reinforcement in its maneuver of `round`.
    SetReinforcementRound {
        round: u8,
    },
    /// The unit fights for the other side from now on.
    ChangeSide {
        unit: u8,
    },
    /// A new unit on the battleland: from the caretaker, or temporary.
    AddUnit {
        side: BattleSide,
        character: crate::model::CharacterId,
        hex: HexId,
        temporary: bool,
    },
    /// `rider` rides `mount` (on the mount's hex; `ctx:mount`).
    Mount {
        rider: u8,
        mount: u8,
    },
    /// `rider` leaves its mount for `hex` (`ctx:dismount`).
    Dismount {
        rider: u8,
        hex: HexId,
    },
    /// The hex's hazard is `hazard` for `rounds` battle rounds (counting
    /// the current one), or the rest of the battle.
    SetHazard {
        hex: HexId,
        hazard: HazardId,
        rounds: Option<u8>,
    },
}

/// What the running handler may read: a battle or the masterboard.
pub(crate) enum CtxData {
    Game(Box<GameState>),
    Battle(BattleCtx),
}

impl BattleCtx {
    /// The buffers of an earlier battle event's data, for the next event to
    /// refill rather than allocate (none the first time).
    pub(crate) fn recycled(host: &LuaHost) -> Option<BattleCtx> {
        platform(host)?.store.spare.take()
    }
}

/// What a game's battle scripts know of the game beyond the battle: its
/// seats and legions, against which the targets of the game's variables
/// they set are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameLinks {
    /// How many seats the game has.
    pub players: usize,
    /// Every legion on the board, with its characters.
    pub legions: Vec<(Marker, Vec<crate::model::CharacterId>)>,
    /// The engagement being fought: its land's number, the attacking and
    /// the defending legion.
    pub engagement: Option<(u32, Marker, Marker)>,
}

impl GameLinks {
    /// Whether `target` (not a unit's) is in the game.
    fn holds(&self, target: VarTarget) -> bool {
        match target {
            VarTarget::Player(p) => usize::from(p.0) < self.players,
            VarTarget::Legion(m) => self.legions.iter().any(|(l, _)| *l == m),
            VarTarget::Character(m, c) => self
                .legions
                .iter()
                .any(|(l, cs)| *l == m && cs.contains(&c)),
            VarTarget::Game | VarTarget::Land(_) | VarTarget::Unit(_) => true,
        }
    }
}

/// One end of a line `ctx:sight` asks about: a unit, or a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SightEnd {
    Unit(UnitId),
    Hex(HexId),
}

/// What `ctx:sight(from, to)` answers: the engine's line of sight between
/// the two hexes, and its rangestrike check when a unit stands at each end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SightAnswer {
    /// The range as the engine counts it (`titan rules los`).
    pub range: u8,
    /// The hexes the line crosses: an open reading, else the first.
    pub path: Vec<HexId>,
    /// What blocks every reading of the line (the engine's words), if so.
    pub blocked_by: Option<String>,
    /// Whether the unit at `from` may rangestrike the unit at `to` now
    /// (strike number and dice), or why not.
    pub rangestrike: Result<(u8, u8), String>,
}

/// The battle engine's own answers to `ctx:reach` and `ctx:sight` over
/// a battle as its ctx holds it. The battle layer, above the platform,
/// gives one with each battle ctx ([`BattleCtx::engine`], made once per
/// battle); it is asked only when a script calls one of them.
pub(crate) trait BattleEngine {
    /// The hexes `unit` may move to in this maneuver phase (none when it
    /// may not move).
    fn reach(&self, v: &Arc<Variant>, ctx: &BattleCtx, unit: UnitId) -> Result<Vec<HexId>, String>;
    /// The line of sight from `from` to `to`, and the rangestrike check.
    fn sight(
        &self,
        v: &Arc<Variant>,
        ctx: &BattleCtx,
        from: SightEnd,
        to: SightEnd,
    ) -> Result<SightAnswer, String>;
}

/// A battle as a handler sees it.
pub(crate) struct BattleCtx {
    pub terrain: TerrainId,
    pub units: Vec<Unit>,
    pub vars: Vars,
    /// The game's variables of every other scope (empty outside a game).
    pub game_vars: Vars,
    /// The game's seats and legions (`None`: a battle outside a game).
    pub world: Option<Rc<GameLinks>>,
    /// The battle's hazard changes when the event fired.
    pub overlay: Option<Rc<crate::state::overlay::Overlay>>,
    /// Hazards this event's handlers changed (latest last), over
    /// `land_set` when they replaced the battleland.
    pub hazards_set: Vec<(HexId, HazardId)>,
    /// The battleland this event's handlers put in place, turned.
    pub land_set: Option<Rc<crate::battleland::Battleland>>,
    /// The game's caretaker counters (`None`: a battle outside a game,
    /// where the chart's counts less the battle's units are left).
    pub caretaker: Option<Rc<Vec<u32>>>,
    /// Characters the battle's scripts took from the caretaker so far.
    pub taken: Vec<crate::model::CharacterId>,
    /// What scripts changed about single units, by unit.
    pub extra: Vec<crate::state::extra::UnitExtra>,
    /// The round of the defender's reinforcement now.
    pub reinforcement_round: u8,
    /// The battle engine's queries (`ctx:reach`, `ctx:sight`); `None` for a
    /// ctx made without a battle engine.
    pub engine: Option<Rc<dyn BattleEngine>>,
}

impl BattleCtx {
    /// How many of `character` the caretaker has left for this battle's
    /// scripts: the game's counters (the chart's counts less the battle's
    /// units, for a battle fought alone), less what they took already.
    pub(crate) fn caretaker_left(&self, v: &Variant, character: crate::model::CharacterId) -> u32 {
        let base = match &self.caretaker {
            Some(c) => c.get(character.index()).copied().unwrap_or(0),
            None => v.character(character).count.saturating_sub(
                self.units
                    .iter()
                    .filter(|u| u.character == character)
                    .count() as u32,
            ),
        };
        let taken = self.taken.iter().filter(|&&c| c == character).count() as u32;
        base.saturating_sub(taken)
    }

    /// The hazard of a hex as the handler sees it: its own changes, then
    /// the battle's, then the battleland's.
    fn hazard(&self, v: &Variant, h: HexId) -> HazardId {
        if let Some(&(_, hz)) = self.hazards_set.iter().rev().find(|(x, _)| *x == h) {
            return hz;
        }
        self.land(v).hex(h).hazard
    }

    /// The hex a script names by its label (the wire's, [`HexId::label`]),
    /// when the battle's board has it.
    pub(crate) fn hex_named(&self, v: &Variant, label: &str) -> Option<HexId> {
        HexId::from_label(label).filter(|&h| self.land(v).board.has(h))
    }

    /// The battleland as the handler sees it (hazards but its own changes).
    pub fn land<'a>(&'a self, v: &'a Variant) -> &'a crate::battleland::Battleland {
        if let Some(l) = &self.land_set {
            return l;
        }
        match &self.overlay {
            Some(o) => &o.land,
            None => v.battleland(self.terrain),
        }
    }
}

/// The snapshot and the effects of the running event.
pub(crate) struct CtxStore {
    variant: Arc<Variant>,
    data: RefCell<Option<CtxData>>,
    /// The last battle event's data once the event is over, whose buffers
    /// the next one refills (no ctx reads it: see `BattleCtx::recycled`).
    spare: RefCell<Option<BattleCtx>>,
    effects: RefCell<Vec<Effect>>,
    /// The game's rule option settings (`ctx:option`); an option not set
    /// here reads the variant's default (a battle fought alone: all).
    options: RefCell<std::collections::BTreeMap<String, crate::format::OptionValue>>,
    /// The masterboard's movement tables, made at the first `ctx:moves`.
    exits: std::cell::OnceCell<crate::model::movement::Exits>,
    /// A battle query (`ctx:reach`, `ctx:sight`) is being answered: one
    /// asked by a hook the engine calls meanwhile is refused, so that a
    /// query cannot recurse through hooks without end.
    querying: std::cell::Cell<bool>,
    /// Lua strings made once: a ctx is built for every event, and making
    /// its keys and names afresh each time is most of its cost.
    strings: Strings,
}

/// Interned Lua strings of keys and words, by text.
struct Strings {
    /// By the address and length of a `&'static str` (each literal once).
    words: RefCell<Vec<(usize, usize, LuaString)>>,
    /// The same strings by code (index + 1), for the dispatchers, which
    /// get words as codes.
    by_code: Table,
}

/// The fields of a unit's table, by their index in the raw queries of
/// `query.rs` (`ctx.lua` reads this list).
const UNIT_KEYS: [&str; 13] = [
    "id",
    "character",
    "class",
    "side",
    "hex",
    "damage",
    "power",
    "skill",
    "flies",
    "rangestrikes",
    "status",
    "strikes_left",
    "alive",
];

/// The most fields a `ctx` is built with in one constructor (see
/// [`CTX_LUA`]); the engine's events have far fewer.
const MAX_CTX_FIELDS: usize = 32;

/// The names unit values are coded by, as Lua tables for [`CTX_LUA`]:
/// characters and classes by index, hex labels by [`HexId`].
fn code_names(lua: &Lua, v: &Variant) -> mlua::Result<Table> {
    let by_index = |names: &mut dyn Iterator<Item = &str>| -> mlua::Result<Table> {
        let t = lua.create_table()?;
        for (i, n) in names.enumerate() {
            t.raw_set(i, n)?;
        }
        Ok(t)
    };
    let names = lua.create_table()?;
    names.raw_set(
        "characters",
        by_index(&mut v.characters.iter().map(|c| c.name.as_str()))?,
    )?;
    names.raw_set(
        "classes",
        by_index(&mut v.classes.iter().map(|c| c.name.as_str()))?,
    )?;
    let hexes = lua.create_table()?;
    // A hex's name to scripts is its id's wire label, whatever the board.
    for h in (0..crate::battleland::MAX_HEXES as u8).map(HexId) {
        hexes.raw_set(h.0, h.label())?;
    }
    names.raw_set("hexes", hexes)?;
    names.raw_set(
        "hazards",
        by_index(&mut v.hazards.iter().map(|h| h.name.as_str()))?,
    )?;
    names.raw_set(
        "terrains",
        by_index(&mut v.terrains.iter().map(|t| t.name.as_str()))?,
    )?;
    Ok(names)
}

impl Strings {
    fn new(lua: &Lua) -> mlua::Result<Strings> {
        Ok(Strings {
            words: RefCell::new(Vec::new()),
            by_code: lua.create_table()?,
        })
    }

    /// The code of `word`: its index in [`Strings::by_code`] (the
    /// dispatchers' words), from 1.
    fn code(&self, lua: &Lua, word: &'static str) -> mlua::Result<i64> {
        let key = (word.as_ptr() as usize, word.len());
        if let Some(i) = self.words.borrow().iter().position(|w| (w.0, w.1) == key) {
            return Ok(i as i64 + 1);
        }
        self.word(lua, word)?;
        Ok(self.words.borrow().len() as i64)
    }

    /// The Lua string of `word`, made on first use.
    fn word(&self, lua: &Lua, word: &'static str) -> mlua::Result<LuaString> {
        let key = (word.as_ptr() as usize, word.len());
        if let Some((_, _, s)) = self.words.borrow().iter().find(|w| (w.0, w.1) == key) {
            return Ok(s.clone());
        }
        let s = lua.create_string(word)?;
        let mut words = self.words.borrow_mut();
        words.push((key.0, key.1, s.clone()));
        self.by_code.raw_set(words.len(), &s)?;
        Ok(s)
    }
}

/// The context API of one VM: the store and the metatable of every `ctx`.
pub(crate) struct Platform {
    store: Rc<CtxStore>,
    meta: Table,
    /// The metatable of a ctx whose event is over: any method raises "this
    /// ctx belongs to an event that is over" (a ctx kept in a global would
    /// otherwise read whichever event runs when it is used).
    dead: Table,
    /// `ctors[n](meta, key1, value1, ..., keyn, valuen)`, in Lua (see
    /// [`CTX_LUA`]): a ctx of `n` fields; made on first use, kept here.
    ctors: Table,
    ctor_cache: RefCell<Vec<Option<mlua::Function>>>,
    /// The `ctx` of each hook running now, innermost last: what
    /// `titan.ctx()` returns (for hooks whose arguments have no room for
    /// it, as a mustering hook's). None: an event's, which its dispatcher
    /// keeps in Lua (`Dispatchers::current`, by the number of events
    /// running).
    current: Rc<RefCell<Vec<Option<Table>>>>,
    dispatchers: dispatch::Dispatchers,
}

impl Platform {
    /// Makes a ctx whose event is over refuse every method (its fields,
    /// read raw by the engine, stay).
    fn retire(&self, ctx: &Table) {
        // Only fails on a memory error, when the VM is aborting anyway.
        let _ = ctx.set_metatable(Some(self.dead.clone()));
    }
}

/// Tables are built in Lua: with a memory cap, mlua protects every
/// `raw_set` from Rust with a call of its own, which costs more than the
/// whole table built by the VM. `units` and `get_unit` get a unit's fields
/// as flat values from Rust and make the tables here.
const CTX_LUA: &str = include_str!("../lua/ctx.lua");

/// Sets up the context API of `host` for `variant` (once per VM).
pub(crate) fn install(host: &LuaHost, variant: Arc<Variant>) -> mlua::Result<()> {
    if platform(host).is_some() {
        return Ok(());
    }
    let lua = host.lua();
    let store = Rc::new(CtxStore {
        strings: Strings::new(lua)?,
        data: RefCell::new(None),
        spare: RefCell::new(None),
        effects: RefCell::new(Vec::new()),
        options: RefCell::default(),
        exits: std::cell::OnceCell::new(),
        querying: std::cell::Cell::new(false),
        variant,
    });
    let methods = methods(lua, &store)?;
    let [raw_units, raw_count, raw_get_unit, raw_field] = query::raw_queries(lua, &store)?;
    let raw_setmetatable: mlua::Function =
        lua.named_registry_value(crate::lua::RAW_SETMETATABLE)?;
    let raw_next: mlua::Function = lua.named_registry_value(crate::lua::RAW_NEXT)?;
    let pristine: Table = lua.named_registry_value(crate::lua::PRISTINE)?;
    let names = code_names(lua, &store.variant)?;
    names.raw_set("unit_keys", UNIT_KEYS)?;
    // The chunks ctx.lua generates are compiled once per variant too.
    let chunks = host.chunks().clone();
    let compile = lua.create_function(move |lua, source: mlua::LuaString| {
        chunks.load(lua, &format!("={}", crate::lua::SANDBOX), &source.to_str()?)
    })?;
    let sandbox_name = format!("={}", crate::lua::SANDBOX);
    let (ctors, make): (Table, mlua::Function) =
        host.chunks().load(lua, &sandbox_name, CTX_LUA)?.call((
            compile,
            methods.clone(),
            raw_units,
            raw_count,
            raw_get_unit,
            raw_field,
            raw_setmetatable,
            raw_next,
            names,
            MAX_CTX_FIELDS,
            pristine,
        ))?;
    let meta = lua.create_table()?;
    meta.set("__index", methods)?;
    meta.set("__metatable", false)?;
    let dead: Table = host
        .chunks()
        .load(
            lua,
            &sandbox_name,
            r#"local message = "this ctx belongs to an event that is over (keep state in variables, not in Lua)"
local function over() error(message, 2) end
return { __index = over, __newindex = over, __metatable = false }"#,
        )?
        .call(())?;
    let dispatchers = dispatch::Dispatchers::new(lua, make, store.strings.by_code.clone())?;
    let current: Rc<RefCell<Vec<Option<Table>>>> = Rc::default();
    let stack = Rc::clone(&current);
    let events = dispatchers.current.clone();
    let titan_ctx = lua.create_function(move |_, ()| {
        let stack = stack.borrow();
        match stack.last() {
            None => Ok(None),
            Some(Some(ctx)) => Ok(Some(ctx.clone())),
            Some(None) => events.raw_get(stack.iter().filter(|c| c.is_none()).count()),
        }
    })?;
    if let Ok(titan) = lua.globals().get::<Table>("titan") {
        titan.raw_set("ctx", titan_ctx)?;
    }
    let _ = host.set_extension(Platform {
        store,
        meta,
        dead,
        ctors,
        ctor_cache: RefCell::new(vec![None; MAX_CTX_FIELDS + 1]),
        current,
        dispatchers,
    });
    Ok(())
}

/// Whether the context API of `host` was installed for this very variant
/// (the same loaded variant, its battlelands drawn alike).
pub(crate) fn installed_for(host: &LuaHost, variant: &Arc<Variant>) -> bool {
    platform(host).is_some_and(|p| Arc::ptr_eq(&p.store.variant, variant))
}

/// Gives the scripts of `host` the game's rule option settings, which
/// `ctx:option` reads (set when a game is made on the VM).
pub(crate) fn set_options(
    host: &LuaHost,
    options: &std::collections::BTreeMap<String, crate::format::OptionValue>,
) {
    if let Some(p) = platform(host) {
        p.store.options.borrow_mut().clone_from(options);
    }
}

/// The result of firing an event: the `ctx` (to read back fields a handler
/// may change) and the effects to apply, in order.
pub(crate) struct Fired {
    pub ctx: Table,
    pub effects: Vec<Effect>,
}

/// A field of an event's `ctx`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum F<'a> {
    I(i64),
    /// Text made for this event (a marker, a name).
    S(&'a str),
    /// A fixed word ("attacker", "strike"): its Lua string is made once.
    W(&'static str),
    B(bool),
}

/// Runs the handlers of `event` with a `ctx` over `data` holding `fields`;
/// None when no script handles it.
pub(crate) fn fire(
    host: &LuaHost,
    event: &'static str,
    data: impl FnOnce() -> CtxData,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    units: Option<Scene<'_>>,
) -> Result<Option<Fired>, crate::lua::ScriptError> {
    let Some((ctx, _, effects)) = run_event(host, event, data, base, fields, units, false)? else {
        return Ok(None);
    };
    Ok(Some(Fired { ctx, effects }))
}

/// Runs `event`'s handlers (see `dispatch::dispatch`); None when no script
/// handles it, the context API is not set up, or every filter left it out.
fn run_event(
    host: &LuaHost,
    event: &'static str,
    data: impl FnOnce() -> CtxData,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    units: Option<Scene<'_>>,
    question: bool,
) -> Result<Option<(Table, bool, Vec<Effect>)>, crate::lua::ScriptError> {
    if !host.has_handlers(event) {
        return Ok(None);
    }
    let Some(platform) = platform(host) else {
        return Ok(None);
    };
    dispatch::dispatch(host, platform, event, data, base, fields, units, question)
}

/// Asks the handlers of a question event (`may_target`): false when one
/// returns `false`; a handler that requests an effect fails. None when no
/// script handles it.
pub(crate) fn ask(
    host: &LuaHost,
    event: &'static str,
    data: impl FnOnce() -> CtxData,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    units: Option<Scene<'_>>,
) -> Result<Option<bool>, crate::lua::ScriptError> {
    let Some((_, answer, effects)) = run_event(host, event, data, base, fields, units, true)?
    else {
        return Ok(None);
    };
    no_effects(event, &effects)?;
    Ok(Some(answer))
}

/// A question's handlers read `ctx` but request no effect.
fn no_effects(event: &str, effects: &[Effect]) -> Result<(), crate::lua::ScriptError> {
    match effects.first() {
        Some(effect) => Err(crate::lua::ScriptError {
            script: format!("({event} handlers)"),
            line: None,
            kind: crate::lua::ScriptErrorKind::Runtime,
            message: format!(
                "{event} answers a question: its handlers may read ctx but not request effects ({effect:?})"
            ),
            traceback: Vec::new(),
        }),
        None => Ok(()),
    }
}

/// [`ask`] of a question that may say why it answers no: `ctx.reason`, a
/// string a handler set (None when it set none). None when no script
/// handles it.
pub(crate) fn ask_why(
    host: &LuaHost,
    event: &'static str,
    data: impl FnOnce() -> CtxData,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
) -> Result<Option<(bool, Option<String>)>, crate::lua::ScriptError> {
    let Some((ctx, answer, effects)) = run_event(host, event, data, base, fields, None, true)?
    else {
        return Ok(None);
    };
    no_effects(event, &effects)?;
    let reason = match ctx_field::<Value>(host, &ctx, "reason") {
        Ok(Value::String(s)) => Some(s.to_string_lossy()),
        Ok(Value::Nil) => None,
        Ok(other) => {
            return Err(crate::lua::ScriptError {
                script: format!("({event} handlers)"),
                line: None,
                kind: crate::lua::ScriptErrorKind::Runtime,
                message: format!("ctx.reason is a string, not a {}", other.type_name()),
                traceback: Vec::new(),
            });
        }
        Err(e) => return Err(ctx_error(e)),
    };
    Ok(Some((answer, reason)))
}

/// Runs `call` with a fresh `ctx` (`ctx.event` = `event`) over `data`, and
/// collects the effects requested meanwhile.
fn with_ctx<R>(
    host: &LuaHost,
    event: F,
    data: impl FnOnce() -> CtxData,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    call: impl FnOnce(&Table) -> Result<R, crate::lua::ScriptError>,
) -> Result<Option<(R, Fired)>, crate::lua::ScriptError> {
    let Some(platform) = platform(host) else {
        return Ok(None);
    };
    let sandbox = ctx_error;
    let lua = host.lua();
    let words = &platform.store.strings;
    let n = 1 + base.len() + fields.len();
    if n > MAX_CTX_FIELDS {
        return Err(sandbox(mlua::Error::runtime(format!(
            "{n} fields are more than {MAX_CTX_FIELDS}"
        ))));
    }
    let kept = platform.ctor_cache.borrow()[n].clone();
    let ctor = match kept {
        Some(f) => f,
        None => {
            let f: mlua::Function = platform.ctors.get(n).map_err(sandbox)?;
            platform.ctor_cache.borrow_mut()[n] = Some(f.clone());
            f
        }
    };
    let mut args = mlua::MultiValue::with_capacity(2 * n + 1);
    args.push_back(Value::Table(platform.meta.clone()));
    for (k, v) in std::iter::once(&("event", event)).chain(base).chain(fields) {
        args.push_back(Value::String(words.word(lua, k).map_err(sandbox)?));
        args.push_back(match *v {
            F::I(i) => Value::Integer(i),
            F::S(s) => Value::String(lua.create_string(s).map_err(sandbox)?),
            F::W(s) => Value::String(words.word(lua, s).map_err(sandbox)?),
            F::B(b) => Value::Boolean(b),
        });
    }
    let ctx: Table = ctor.call(args).map_err(sandbox)?;
    // An outer ctx (a hook asked while an event runs) is put back after.
    let outer = platform.store.data.replace(Some(data()));
    let outer_effects = platform.store.effects.take();
    platform.current.borrow_mut().push(Some(ctx.clone()));
    let result = call(&ctx);
    platform.current.borrow_mut().pop();
    // A ctx kept by a script reads nothing once its event is over.
    platform.store.put_back(outer);
    platform.retire(&ctx);
    let effects = platform.store.effects.replace(outer_effects);
    let r = result?;
    Ok(Some((r, Fired { ctx, effects })))
}

/// Calls hook `name` with `args` and, last, a read-only `ctx` over `data`
/// (`ctx.event` is the hook's name): the masterplay hooks that answer a
/// question (`titan_power`, `game_over`) see the whole position. A hook
/// that requests an effect fails. None when the VM has no context API.
pub(crate) fn call_hook_with_ctx<R: mlua::FromLuaMulti>(
    host: &LuaHost,
    name: &str,
    data: impl FnOnce() -> CtxData,
    fields: &[(&'static str, F)],
    args: impl mlua::IntoLuaMulti,
) -> Result<Option<R>, crate::lua::ScriptError> {
    let r = with_ctx(host, F::S(name), data, &[], fields, |ctx| {
        let mut all = args
            .into_lua_multi(host.lua())
            .map_err(|e| script_error(name, e.to_string()))?;
        all.push_back(Value::Table(ctx.clone()));
        host.call_hook::<_, R>(name, all)
    })?;
    question_answer(name, r)
}

/// Calls hook `name` with `args` alone, its read-only `ctx` over `data`
/// reached with `titan.ctx()` (a mustering hook: its variadic arguments
/// have no room for one more). None when the VM has no context API.
pub(crate) fn call_hook_with_implicit_ctx<R: mlua::FromLuaMulti>(
    host: &LuaHost,
    name: &str,
    data: impl FnOnce() -> CtxData,
    fields: &[(&'static str, F)],
    args: impl mlua::IntoLuaMulti,
) -> Result<Option<R>, crate::lua::ScriptError> {
    let r = with_ctx(host, F::S(name), data, &[], fields, |_| {
        host.call_hook::<_, R>(name, args)
    })?;
    question_answer(name, r)
}

/// A question hook's answer: a hook that requested an effect fails.
fn question_answer<R>(
    name: &str,
    r: Option<(R, Fired)>,
) -> Result<Option<R>, crate::lua::ScriptError> {
    match r {
        Some((_, fired)) if !fired.effects.is_empty() => Err(crate::lua::ScriptError {
            script: format!("(hook {name:?})"),
            line: None,
            kind: crate::lua::ScriptErrorKind::Runtime,
            message: format!(
                "hook {name:?} answers a question: it may read ctx but not request effects ({:?})",
                fired.effects[0]
            ),
            traceback: Vec::new(),
        }),
        Some((r, _)) => Ok(Some(r)),
        None => Ok(None),
    }
}

pub(crate) fn side_name(s: BattleSide) -> &'static str {
    match s {
        BattleSide::Attacker => "attacker",
        BattleSide::Defender => "defender",
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Waiting => "waiting",
        Status::OnBoard(_) => "on_board",
        Status::Gone(crate::state::units::Fate::Slain) => "slain",
        Status::Gone(crate::state::units::Fate::NotEntered) => "not_entered",
        Status::Gone(crate::state::units::Fate::Removed) => "removed",
        Status::Gone(crate::state::units::Fate::Withdrawn) => "withdrawn",
        Status::Riding(_) => "riding",
    }
}

/// The `ctx` a method is called on (`ctx:name(...)`), which the methods
/// do not read: taken as a bool, mlua reads it without making a reference
/// to the table (about a tenth of a method call's cost).
pub(crate) type This = bool;

fn err<T>(message: impl Into<String>) -> mlua::Result<T> {
    Err(mlua::Error::runtime(message.into()))
}

/// A Lua value as a variable's value of `kind`.
fn to_value(kind: VarType, v: &Value, name: &str) -> mlua::Result<VarValue> {
    let bad = || {
        err(format!(
            "variable {name:?} holds {kind:?} values, not a {}",
            v.type_name()
        ))
    };
    Ok(match (kind, v) {
        (VarType::Int, Value::Integer(i)) => VarValue::Int(*i),
        (VarType::Int, Value::Number(n)) if n.fract() == 0.0 && n.abs() < 9.0e15 => {
            VarValue::Int(*n as i64)
        }
        (VarType::Bool, Value::Boolean(b)) => VarValue::Bool(*b),
        (VarType::Text, Value::String(s)) => VarValue::Text(s.to_str()?.to_string()),
        (VarType::Names, Value::Table(t)) => {
            let mut names = Vec::new();
            for item in t.sequence_values::<Value>() {
                match item? {
                    Value::String(s) => names.push(s.to_str()?.to_string()),
                    _ => return bad(),
                }
            }
            VarValue::Names(names)
        }
        _ => return bad(),
    })
}

fn from_value(lua: &Lua, v: &VarValue) -> mlua::Result<Value> {
    Ok(match v {
        VarValue::Int(i) => Value::Integer(*i),
        VarValue::Bool(b) => Value::Boolean(*b),
        VarValue::Text(t) => Value::String(lua.create_string(t)?),
        VarValue::Names(n) => Value::Table(lua.create_sequence_from(n.iter().map(String::as_str))?),
    })
}

impl CtxStore {
    /// Ends an event's data, putting `outer` back: the battle data of the
    /// event is kept as the spare (a ctx kept by a script reads nothing
    /// once its event is over either way).
    pub(super) fn put_back(&self, outer: Option<CtxData>) {
        if let Some(CtxData::Battle(b)) = self.data.replace(outer) {
            *self.spare.borrow_mut() = Some(b);
        }
    }

    /// `f` on the battle data of the event, taken out of the store while
    /// it runs: the battle engine's queries may call hooks, whose ctx
    /// replaces the event's for a while (`with_ctx`).
    fn battle_query<R>(
        &self,
        what: &str,
        f: impl FnOnce(&Rc<dyn BattleEngine>, &BattleCtx) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        if self.querying.get() {
            return err(format!(
                "ctx:{what}: the engine is answering another query (a hook it calls may not ask one)"
            ));
        }
        let data = match self.data.borrow_mut().take() {
            Some(CtxData::Battle(b)) => b,
            Some(other) => {
                *self.data.borrow_mut() = Some(other);
                return err(format!("ctx:{what} is available in battle events only"));
            }
            None => {
                return err(
                    "this ctx belongs to an event that is over (keep state in variables, not in Lua)",
                );
            }
        };
        self.querying.set(true);
        let result = match data.engine.clone() {
            Some(engine) => f(&engine, &data),
            None => err(format!("ctx:{what}: this battle has no engine to ask")),
        };
        self.querying.set(false);
        *self.data.borrow_mut() = Some(CtxData::Battle(data));
        result
    }

    fn with<R>(&self, f: impl FnOnce(&CtxData) -> mlua::Result<R>) -> mlua::Result<R> {
        match self.data.borrow().as_ref() {
            Some(d) => f(d),
            None => err(
                "this ctx belongs to an event that is over (keep state in variables, not in Lua)",
            ),
        }
    }

    fn with_mut<R>(&self, f: impl FnOnce(&mut CtxData) -> mlua::Result<R>) -> mlua::Result<R> {
        match self.data.borrow_mut().as_mut() {
            Some(d) => f(d),
            None => err(
                "this ctx belongs to an event that is over (keep state in variables, not in Lua)",
            ),
        }
    }

    fn battle<R>(
        &self,
        what: &str,
        f: impl FnOnce(&BattleCtx) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        self.with(|d| match d {
            CtxData::Battle(b) => f(b),
            CtxData::Game(_) => err(format!("ctx:{what} is available in battle events only")),
        })
    }

    /// `f` on the masterplay position, to change it (an effect's check);
    /// in a battle an error naming `what`.
    fn game_mut<R>(
        &self,
        what: &str,
        f: impl FnOnce(&mut GameState) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        self.with_mut(|d| match d {
            CtxData::Game(g) => f(g),
            CtxData::Battle(_) => err(format!("ctx:{what} is available in masterplay events only")),
        })
    }

    fn game<R>(
        &self,
        what: &str,
        f: impl FnOnce(&GameState) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        self.with(|d| match d {
            CtxData::Game(g) => f(g),
            CtxData::Battle(_) => err(format!("ctx:{what} is available in masterplay events only")),
        })
    }

    /// A living unit on the battleland, for an effect.
    fn unit_on_board(b: &BattleCtx, unit: i64, what: &str) -> mlua::Result<usize> {
        let Some(u) = usize::try_from(unit).ok().filter(|&i| i < b.units.len()) else {
            return err(format!(
                "ctx:{what}: no unit {unit} in this battle (units are 0 to {})",
                b.units.len().saturating_sub(1)
            ));
        };
        let x = &b.units[u];
        // A rider is on the battleland, at its mount's hex.
        if crate::state::units::place_of(&b.units, u).is_none() || x.is_slain() {
            // Slain by this event's effects, the unit is still on its hex.
            let status = if x.is_slain() {
                "slain"
            } else {
                status_name(x.status)
            };
            return err(format!(
                "ctx:{what}: unit {unit} is not alive on the battleland ({status})"
            ));
        }
        Ok(u)
    }

    /// Refuses a rider for an effect that moves a unit itself (it moves
    /// only with its mount).
    fn not_riding(b: &BattleCtx, u: usize, what: &str) -> mlua::Result<()> {
        match b.units[u].status {
            Status::Riding(m) => err(format!(
                "ctx:{what}: unit {u} rides unit {m} and moves only with it (ctx:dismount it first)"
            )),
            _ => Ok(()),
        }
    }

    /// A unit alive in the battle: on the battleland, or waiting to enter
    /// (so that a change holds for its entering move too).
    fn unit_in_battle(b: &BattleCtx, unit: i64, what: &str) -> mlua::Result<usize> {
        if let Some(u) = usize::try_from(unit).ok().filter(|&i| i < b.units.len())
            && b.units[u].status == Status::Waiting
        {
            return Ok(u);
        }
        Self::unit_on_board(b, unit, what)
    }

    /// What a variable's target argument names, by the variable's scope.
    fn target(&self, scope: VarScope, arg: &Value, name: &str) -> mlua::Result<VarTarget> {
        let int = |v: &Value| match v {
            Value::Integer(i) => Some(*i),
            Value::Number(n) if n.fract() == 0.0 => Some(*n as i64),
            _ => None,
        };
        let bad = |what: &str| {
            err(format!(
                "variable {name:?} belongs to a {scope:?}: give {what}, not a {}",
                arg.type_name()
            ))
        };
        let marker = |v: &Value| -> mlua::Result<Marker> {
            match v {
                Value::String(s) => s.to_str()?.parse::<Marker>().map_err(mlua::Error::runtime),
                _ => err(format!(
                    "variable {name:?}: a legion is its marker, like \"P1-03\""
                )),
            }
        };
        Ok(match scope {
            VarScope::Game => match arg {
                Value::Nil => VarTarget::Game,
                _ => return bad("nil"),
            },
            VarScope::Player => match int(arg) {
                Some(p) if (0..64).contains(&p) => VarTarget::Player(PlayerId(p as u8)),
                _ => return bad("a player's seat (0-based)"),
            },
            VarScope::Unit => match int(arg) {
                Some(u) if (0..=255).contains(&u) => VarTarget::Unit(u as u8),
                _ => return bad("a unit id"),
            },
            VarScope::Land => {
                let Some(n) = int(arg) else {
                    return bad("a land number");
                };
                match self
                    .variant
                    .board
                    .lands()
                    .find(|&l| i64::from(self.variant.board.land(l).number) == n)
                {
                    Some(l) => VarTarget::Land(l),
                    None => return err(format!("variable {name:?}: no land {n}")),
                }
            }
            VarScope::Legion => VarTarget::Legion(marker(arg)?),
            VarScope::Character => {
                let Value::Table(t) = arg else {
                    return bad("{ legion marker, character name }");
                };
                let m = marker(&t.get::<Value>(1)?)?;
                let c: String = t.get(2)?;
                match self.variant.character_by_name(&c) {
                    Some(c) => VarTarget::Character(m, c),
                    None => return err(format!("variable {name:?}: no character {c:?}")),
                }
            }
        })
    }

    /// A rule option's value: the game's setting, else the variant's
    /// default; an option the variant does not declare is an error.
    fn option(&self, lua: &Lua, name: &str) -> mlua::Result<Value> {
        use crate::format::OptionValue;
        let set = self.options.borrow();
        let Some(value) = set.get(name).or_else(|| self.variant.option(name)) else {
            let declared: Vec<String> = self
                .variant
                .options
                .iter()
                .map(|o| format!("{:?}", o.name))
                .collect();
            return err(format!(
                "ctx:option: the variant declares no option {name:?} (its options: {})",
                if declared.is_empty() {
                    "none".to_string()
                } else {
                    declared.join(", ")
                }
            ));
        };
        Ok(match value {
            OptionValue::Bool(b) => Value::Boolean(*b),
            OptionValue::Int(i) => Value::Integer(*i),
            OptionValue::Text(t) => Value::String(lua.create_string(t)?),
        })
    }

    fn get(&self, lua: &Lua, name: &str, arg: &Value) -> mlua::Result<Value> {
        let v = &self.variant;
        let Some(def) = v.variable(name) else {
            return err(crate::vars::check(v, name, VarTarget::Game, None).unwrap_err());
        };
        let target = self.target(def.scope, arg, name)?;
        self.with(|d| {
            let vars = match d {
                CtxData::Game(g) => &g.vars,
                CtxData::Battle(b) if target.scope() == VarScope::Unit => &b.vars,
                CtxData::Battle(b) => &b.game_vars,
            };
            from_value(lua, vars.get(def, target))
        })
    }

    fn set(&self, name: &str, arg: &Value, value: &Value) -> mlua::Result<()> {
        let v = &self.variant;
        let Some(def) = v.variable(name) else {
            return err(format!(
                "ctx:set: {}",
                crate::vars::check(v, name, VarTarget::Game, None).unwrap_err()
            ));
        };
        let target = self.target(def.scope, arg, name)?;
        let value = to_value(def.kind, value, name)?;
        self.with_mut(|d| {
            match (d, target) {
                (CtxData::Battle(b), VarTarget::Unit(u)) => {
                    if usize::from(u) >= b.units.len() {
                        return err(format!("ctx:set: no unit {u} in this battle"));
                    }
                    b.vars.set(def, target, value.clone());
                }
                (CtxData::Battle(b), t) => {
                    if let Some(w) = &b.world
                        && !w.holds(t)
                    {
                        return err(format!("ctx:set: variable {name:?}: {t:?} is not in the game"));
                    }
                    b.game_vars.set(def, t, value.clone());
                }
                (CtxData::Game(_), VarTarget::Unit(_)) => {
                    return err(format!("ctx:set: variable {name:?} belongs to a battle unit; there is no battle here"));
                }
                (CtxData::Game(g), t) => {
                    let exists = match t {
                        VarTarget::Player(p) => usize::from(p.0) < g.players.len(),
                        VarTarget::Legion(m) => g.legions.iter().any(|l| l.marker == m),
                        VarTarget::Character(m, c) => g.legions.iter().any(|l| l.marker == m && l.characters.contains(&c)),
                        _ => true,
                    };
                    if !exists {
                        return err(format!("ctx:set: variable {name:?}: {t:?} is not in the game"));
                    }
                    g.vars.set(def, t, value.clone());
                }
            }
            Ok(())
        })?;
        self.effects.borrow_mut().push(Effect::Set {
            variable: name.to_string(),
            of: target,
            value,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::filters::{BATTLE_EVENTS, FIRST_BATTLE_EVENT};
    use super::*;

    #[test]
    fn the_battle_events_are_the_last_events_from_the_first_battle_phase() {
        assert_eq!(BATTLE_EVENTS.first(), Some(&"battle_phase_start"));
        assert_eq!(BATTLE_EVENTS.last(), EVENTS.last());
        assert!(
            !EVENTS[..FIRST_BATTLE_EVENT]
                .iter()
                .any(|e| e.starts_with("battle_phase"))
        );
    }
}
