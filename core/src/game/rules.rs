//! The rules of masterplay: what may be done, and what it does.
//!
//! Sources, cited in the errors and the tests: the reference sheet of the
//! Avalon Hill game ("Setup", "Commencement", "Movement", "Movement Signs",
//! "Teleportation", "Engagement", "Enlistment", "Tower Lands", "Scoring
//! Battles", "Acquiring Angels", "Titans"), the 1982 Law of Titan excerpt, and
//! the 1981 Law of the Battlelands (23.A mulligan, 23.B seven-character
//! legions, 24.A Archangels). Everything a variant may change is read from
//! the compiled variant or asked of a Lua hook.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::*;
use crate::lua::LuaHost;
use crate::lua::script_limits;
use crate::model::ClassId;

mod battles;

/// The lists and caches the rules keep between actions, so that listing
/// and checking allocate nothing on the common path: derived, owned by the
/// game rather than by the thread, never saved, compared or copied (a copy
/// of the game starts with empty ones).
#[derive(Default)]
pub(super) struct Kept {
    /// Occupancy, moves and musters ([`legal::Scratch`]).
    pub(super) scratch: std::cell::Cell<legal::Scratch>,
    /// The random player's list of a player's actions.
    pub(super) random_list: std::cell::Cell<Vec<Action>>,
    /// The list a battle's legal actions are listed into.
    pub(super) battle_list: std::cell::Cell<Vec<crate::battle::Action>>,
    /// A legion's number of splits by composition and split rules (see
    /// `legion_split_count`), emptied when full.
    pub(super) split_counts: RefCell<std::collections::HashMap<(u128, u128), usize>>,
    /// A copy of the state `apply` no longer needs, whose buffers the next
    /// action's copy reuses (see `copy.rs`).
    pub(super) spare_state: std::cell::Cell<Option<Box<GameState>>>,
}

pub use battles::attacker_entry_edge;
mod engagement;
mod legal;
mod refusal;
mod scoring;
mod showdown;
mod turn;

pub(super) use battles::*;
use engagement::*;
pub(super) use legal::*;
use scoring::*;
use turn::*;

/// Which teleport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TeleportKind {
    /// From a tower, with a lord, to a vacant tower or a vacant land nearby.
    Tower,
    /// The Titan's legion onto an enemy legion.
    Titan,
}

const SETUP: &str = "reference sheet, Setup";
const COMMENCEMENT: &str = "reference sheet, Commencement";
const MOVEMENT: &str = "reference sheet, Movement";
const SIGNS: &str = "reference sheet, Movement Signs";
const MULLIGAN: &str = "Law of the Battlelands 23.A";
const TELEPORT: &str = "reference sheet, Teleportation";
const ENGAGEMENT: &str = "reference sheet, Engagement";
const ENLISTMENT: &str = "reference sheet, Enlistment";
const CARETAKER: &str = "Law of Titan 1982 5.0 (the caretaker's stacks)";
// The reference sheet section on summoning (its title names the summoned lord).
const SUMMON: &str = "reference sheet, summoning section; Law of the Battlelands 28.A";
const ACQUIRE: &str = "reference sheet, Acquiring Angels";
const TURN: &str = "reference sheet, A Game Turn";
const LEGIONS: &str = "reference sheet, Legions";

pub(super) fn hooks_for(
    variant: &Arc<Variant>,
    options: &BTreeMap<String, OptionValue>,
    reuse: Option<Rc<Hooks>>,
) -> Result<Option<Rc<Hooks>>, SetupError> {
    if variant.scripts.is_empty() {
        return Ok(None);
    }
    // Scripts an earlier game of this very variant started (its battlelands
    // drawn alike): only what a game sets in them is set again.
    if let Some(hooks) =
        reuse.filter(|h| Rc::strong_count(h) == 1 && crate::script::installed_for(&h.host, variant))
    {
        crate::script::set_options(&hooks.host, options);
        hooks.failure.borrow_mut().take();
        hooks.host.take_log();
        return Ok(Some(hooks));
    }
    let rng = Rc::new(RefCell::new(GameRng::new(0)));
    let mut host = LuaHost::with_chunks(
        script_limits(&variant.data.rules),
        rng.clone(),
        &crate::script::EVENT_CATALOG,
        variant.chunks.clone(),
    )
    .map_err(|e| SetupError(e.to_string()))?;
    for s in &variant.scripts {
        host.load_script(s).map_err(|e| SetupError(e.to_string()))?;
    }
    crate::script::install(&host, Arc::clone(variant)).map_err(|e| SetupError(e.to_string()))?;
    crate::script::set_options(&host, options);
    Ok(Some(Rc::new(Hooks {
        host: Rc::new(host),
        rng,
        failure: RefCell::new(None),
    })))
}

/// Calls a hook point if a script registered it, with the game's generator
/// (so that a hook's dice are the game's dice). A query's hook (a Titan's
/// power, a mustering need) leaves the game's generator where it was: a
/// question must not change the game; a step's ([`call_hook_advancing`])
/// leaves it advanced. A failure is kept for
/// `Game::apply`, which refuses the action with it; meanwhile the caller
/// goes on with the data's answer.
fn call_hook<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
    game: &Game,
    name: &str,
    args: A,
) -> Option<R> {
    let hooks = game.hooks.as_ref()?;
    if !hooks.host.has_hook(name) {
        return None;
    }
    *hooks.rng.borrow_mut() = game.rng.clone();
    match hooks.host.call_hook(name, args) {
        Ok(r) => Some(r),
        Err(e) => {
            hooks.failure.borrow_mut().get_or_insert(e);
            None
        }
    }
}

/// Who counts as slaying a player who concedes the game: none, unless the
/// variant counts a concession while the player's Titan's legion is engaged
/// as the Titan slain by that legion's opponent (Law of Titan 1980, 20).
fn concession_slayer(game: &Game, player: PlayerId) -> Option<PlayerId> {
    if !game
        .variant
        .rules
        .scoring
        .left_legions
        .engaged_concession_is_slain
    {
        return None;
    }
    let titan = game.variant.rules.titan.character;
    let s = &game.state;
    let own = s
        .legions
        .iter()
        .find(|l| l.owner == player && l.characters.contains(&titan))?;
    s.legions
        .iter()
        .find(|o| o.land == own.land && o.owner != player)
        .map(|o| o.owner)
}

/// A player out of the game as if he had conceded it (a script's effect).
/// Puts `player` out, as a concession does, leaving what follows (the
/// game's end, the next player) to [`settle_eliminations`], so that players
/// a script puts out together end the game together (a draw when nobody is
/// left).
pub(in crate::game) fn eliminate(game: &mut Game, player: PlayerId, events: &mut Vec<Event>) {
    eliminate_player(game, player, None, events);
}

/// The showdown's battle as `player` takes part in it.
pub(in crate::game) fn showdown_seat(game: &Game, player: PlayerId) -> Option<SeatBattle> {
    showdown::seat(game, player)
}

/// A showdown of `challenger` against all the others begins (a script's
/// `ctx:begin_showdown`).
pub(in crate::game) fn begin_showdown(
    game: &mut Game,
    challenger: PlayerId,
    events: &mut Vec<Event>,
) {
    showdown::begin(game, challenger, events);
}

/// What follows the eliminations of [`eliminate`]: the game's end, or the
/// turn passing on.
pub(in crate::game) fn settle_eliminations(game: &mut Game, events: &mut Vec<Event>) {
    after_elimination(game, events);
}

/// A character from the caretaker joins a legion (a script's effect, as
/// hiring): shown to everybody as a recruit is, and nobody knows the whole
/// legion any more.
pub(in crate::game) fn hire(
    game: &mut Game,
    legion: Marker,
    character: CharacterId,
    events: &mut Vec<Event>,
) {
    if legion_index(game, legion).is_none() {
        return;
    }
    add_from_caretaker(game, legion, character);
    if let Some(i) = legion_index(game, legion) {
        game.state.legions[i].seen_by = 0;
    }
    events.push(Event::Mustered { legion, character });
}

/// [`call_hook`], with a read-only `ctx` of the position as the last
/// argument (docs/scripting.md, "Masterplay").
fn call_hook_ctx<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
    game: &Game,
    name: &str,
    args: A,
) -> Option<R> {
    let hooks = game.hooks.as_ref()?;
    if !hooks.host.has_hook(name) {
        return None;
    }
    if crate::script::platform(&hooks.host).is_none() {
        return call_hook(game, name, args);
    }
    *hooks.rng.borrow_mut() = game.rng.clone();
    let state = &game.state;
    let fields = [
        ("turn", crate::script::F::I(i64::from(state.turn))),
        ("active", crate::script::F::I(i64::from(state.active.0))),
    ];
    let data = || crate::script::CtxData::Game(Box::new(state.clone()));
    match crate::script::call_hook_with_ctx(&hooks.host, name, data, &fields, args) {
        Ok(r) => r,
        Err(e) => {
            hooks.failure.borrow_mut().get_or_insert(e);
            None
        }
    }
}

/// [`call_hook`] with the position's `ctx` reached by `titan.ctx()` (a
/// mustering hook; docs/scripting.md, "Masterplay"), plus `fields`.
pub(super) fn call_hook_implicit_ctx<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
    game: &Game,
    name: &str,
    fields: &[(&'static str, crate::script::F)],
    args: A,
) -> Option<R> {
    let hooks = game.hooks.as_ref()?;
    if !hooks.host.has_hook(name) {
        return None;
    }
    if crate::script::platform(&hooks.host).is_none() {
        return call_hook(game, name, args);
    }
    *hooks.rng.borrow_mut() = game.rng.clone();
    let state = &game.state;
    let mut all = vec![
        ("turn", crate::script::F::I(i64::from(state.turn))),
        ("active", crate::script::F::I(i64::from(state.active.0))),
    ];
    all.extend_from_slice(fields);
    let data = || crate::script::CtxData::Game(Box::new(state.clone()));
    match crate::script::call_hook_with_implicit_ctx(&hooks.host, name, data, &all, args) {
        Ok(r) => r,
        Err(e) => {
            hooks.failure.borrow_mut().get_or_insert(e);
            None
        }
    }
}

/// [`call_hook`] at a step of the game (not a query): the dice the hook
/// draws are the game's, and its generator is left advanced.
fn call_hook_advancing<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
    game: &mut Game,
    name: &str,
    args: A,
) -> Option<R> {
    let hooks = game.hooks.clone()?;
    if !hooks.host.has_hook(name) {
        return None;
    }
    let r = call_hook_ctx(game, name, args);
    game.rng = hooks.rng.borrow().clone();
    r
}

pub(super) fn new_game(
    variant: Arc<Variant>,
    options: BTreeMap<String, OptionValue>,
    names: &[String],
    seed: u64,
    reuse: Option<Rc<Hooks>>,
) -> Result<(Game, Vec<Event>), SetupError> {
    let p = variant.players;
    if names.len() < p.min as usize || names.len() > p.max as usize {
        return Err(SetupError(format!(
            "{} needs {} to {} players, not {}",
            variant.title,
            p.min,
            p.max,
            names.len()
        )));
    }
    super::save::check_player_names(names).map_err(SetupError)?;
    super::check_options(&variant, &options).map_err(SetupError)?;
    // A terrain with several battlelands draws one for the whole game,
    // before anything else is drawn (a variant without draws nothing).
    let mut rng = GameRng::new(seed);
    let drawn = draw_battlelands(&variant, &mut rng);
    let variant = variant.with_drawn(&drawn).map_err(SetupError)?;
    let exits = exits_for(&variant);
    let mut towers: Vec<LandId> = variant
        .board
        .lands()
        .filter(|&l| exits.is_tower(l))
        .collect();
    towers.sort_by_key(|&l| variant.board.land(l).number);
    if towers.len() < names.len() {
        return Err(SetupError(format!(
            "{} players but only {} towers",
            names.len(),
            towers.len()
        )));
    }
    let markers = variant.rules.legions.markers_per_player;
    let players = names
        .iter()
        .enumerate()
        .map(|(i, name)| Player {
            name: name.clone(),
            score: 0,
            alive: true,
            tower: None,
            markers: (1..=markers)
                .map(|n| Marker {
                    player: PlayerId(i as u8),
                    number: n,
                })
                .collect(),
            turns: 0,
        })
        .collect();
    let state = GameState {
        players,
        legions: Vec::new(),
        caretaker: variant.characters.iter().map(|c| c.count).collect(),
        turn: 0,
        active: PlayerId(0),
        phase: Phase::InitialSplit,
        roll: None,
        mulligan_used: false,
        teleports: 0,
        summoned: false,
        engagement: None,
        outcome: None,
        rng_seed: seed,
        rng_pos: 0,
        vars: Default::default(),
        choice: None,
        showdown: None,
        battlelands: drawn,
        mustered: Vec::new(),
        challenged: Vec::new(),
    };
    let hooks = hooks_for(&variant, &options, reuse)?;
    let mut game = Game {
        variant,
        options,
        state,
        exits,
        rng,
        hooks,
        start: super::save::Start::New {
            players: names.to_vec(),
            seed,
        },
        battle: Default::default(),
        undo: Undo::Idle,
        battle_undo: None,
        history: Vec::new(),
        kept: Default::default(),
    };
    // Setup 4 (Law of Titan 1982 5.1): each player rolls for a tower. Players
    // whose rolls tie, or whose roll gives a tower already assigned, roll
    // again; an assigned tower stands.
    let sides = towers.len() as u32;
    let mut rolls: Vec<Option<u8>> = vec![None; names.len()];
    let mut events = Vec::new();
    while rolls.iter().any(Option::is_none) {
        let this_round: Vec<(PlayerId, u8)> = (0..rolls.len())
            .filter(|&i| rolls[i].is_none())
            .map(|i| (PlayerId(i as u8), game.rng.roll(sides) as u8))
            .collect();
        events.push(Event::TowerRolls {
            rolls: this_round.clone(),
        });
        for &(p, roll) in &this_round {
            let taken = rolls.contains(&Some(roll));
            let tied = this_round.iter().any(|&(q, r)| q != p && r == roll);
            if !taken && !tied {
                rolls[p.0 as usize] = Some(roll);
            }
        }
    }
    for (i, r) in rolls.iter().enumerate() {
        let tower = towers[r.unwrap_or(1) as usize - 1];
        game.state.players[i].tower = Some(tower);
        events.push(Event::Placed {
            player: PlayerId(i as u8),
            tower,
        });
    }
    // Setup 5 (Law of Titan 1982 5.1): the player in the highest numbered
    // tower plays first.
    game.state.active = turn_order(&game)[0];
    game.state.rng_pos = game.rng.word_pos() as u64;
    Ok((game, events))
}

/// For each terrain, which of its battlelands this game fights on (from
/// 0), drawn from `rng`; empty, drawing nothing, when no terrain has
/// several.
fn draw_battlelands(variant: &Variant, rng: &mut GameRng) -> Vec<u8> {
    if !variant.has_alternatives() {
        return Vec::new();
    }
    (0..variant.terrains.len())
        .map(
            |t| match variant.alternative_count(crate::model::TerrainId(t as u8)) {
                n if n > 1 => (rng.roll(n as u32) - 1) as u8,
                _ => 0,
            },
        )
        .collect()
}

/// Players in turn order. The player in the highest numbered tower plays
/// first (Law of Titan 1982 5.1); play then goes clockwise around the table
/// (6.0), that is in the order the players were given (their seats). The
/// option `tower_order` plays by tower instead, highest number first.
pub(super) fn turn_order(game: &Game) -> TurnOrder {
    let n = usize::from(game.state.players.len() as u8);
    let mut order = TurnOrder {
        seats: [PlayerId(0); 256],
        len: n,
    };
    for (i, p) in order.seats[..n].iter_mut().enumerate() {
        *p = PlayerId(i as u8);
    }
    let order_mut = &mut order.seats[..n];
    let number = |p: &PlayerId| {
        game.state.players[p.0 as usize]
            .tower
            .map_or(0, |t| game.variant.board.land(t).number)
    };
    if matches!(game.option("tower_order"), Some(OptionValue::Bool(true))) {
        order_mut.sort_by_key(|p| std::cmp::Reverse(number(p)));
    } else if let Some(first) = order_mut.iter().copied().max_by_key(|p| number(p)) {
        order_mut.rotate_left(first.0 as usize);
    }
    order
}

/// [`turn_order`]'s list, in an array (asked at every turn's end: seats are
/// numbered by a byte, so there are at most 256).
pub(super) struct TurnOrder {
    seats: [PlayerId; 256],
    len: usize,
}

impl std::ops::Deref for TurnOrder {
    type Target = [PlayerId];
    fn deref(&self) -> &[PlayerId] {
        &self.seats[..self.len]
    }
}

pub(super) fn titan_power(game: &Game, player: PlayerId) -> u8 {
    let t = &game.variant.rules.titan;
    let score = game.state.players[player.0 as usize].score;
    if let Some(power) = call_hook_ctx::<_, u8>(game, hook::TITAN_POWER, (score, t.base_power)) {
        return power;
    }
    let steps = score / t.points_per_power.max(1);
    (u32::from(t.base_power) + steps).min(u32::from(u8::MAX)) as u8
}

/// The power a character of `player`'s (not the Titan) brings to a battle:
/// the `character_power` hook's answer, or the chart's.
pub(super) fn character_power(game: &Game, player: PlayerId, c: CharacterId) -> u8 {
    let ch = game.variant.character(c);
    let score = game.state.players[player.0 as usize].score;
    let args = (ch.name.as_str(), ch.power, score, player.0);
    match call_hook_ctx::<_, Option<i64>>(game, hook::CHARACTER_POWER, args) {
        Some(Some(p)) => p.clamp(1, 255) as u8,
        _ => ch.power,
    }
}

/// The `reinforcements` hook's list for the defender `legion` (offered the
/// mustering table's `offered`), kept to characters the caretaker has; an
/// unknown name is a script failure (the table's list stands).
pub(super) fn reinforcement_hook(
    game: &Game,
    legion: Marker,
    offered: Vec<CharacterId>,
) -> Vec<CharacterId> {
    let v = &game.variant;
    let names: Vec<String> = offered
        .iter()
        .map(|&c| v.character(c).name.clone())
        .collect();
    let Some(Some(list)) = call_hook_ctx::<_, Option<Vec<String>>>(
        game,
        hook::REINFORCEMENTS,
        (legion.to_string(), names),
    ) else {
        return offered;
    };
    let mut out = Vec::new();
    for name in list {
        let Some(c) = v.character_by_name(&name) else {
            if let Some(hooks) = &game.hooks {
                hooks
                    .failure
                    .borrow_mut()
                    .get_or_insert(crate::lua::ScriptError {
                        script: "(hook \"reinforcements\")".into(),
                        line: None,
                        kind: crate::lua::ScriptErrorKind::Runtime,
                        message: format!("reinforcements: no character {name:?}"),
                        traceback: Vec::new(),
                    });
            }
            return offered;
        };
        if game.state.caretaker[c.index()] > 0 && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

pub(super) fn value(game: &Game, owner: PlayerId, c: CharacterId) -> u32 {
    let ch = game.variant.character(c);
    if c == game.variant.rules.titan.character {
        u32::from(titan_power(game, owner)) * u32::from(ch.skill)
    } else {
        ch.value
    }
}

fn class_of(game: &Game, c: CharacterId) -> ClassId {
    game.variant.character(c).class
}

fn has_lord(game: &Game, legion: &Legion) -> bool {
    legion
        .characters
        .iter()
        .any(|&c| game.variant.class(class_of(game, c)).tower_teleport)
}

fn may_flee(game: &Game, legion: &Legion) -> bool {
    !legion
        .characters
        .iter()
        .any(|&c| game.variant.class(class_of(game, c)).forbids_flight)
}

fn legion_index(game: &Game, marker: Marker) -> Option<usize> {
    game.state.legions.iter().position(|l| l.marker == marker)
}

fn owned_legion(game: &Game, player: PlayerId, marker: Marker) -> Result<usize, RuleError> {
    match legion_index(game, marker) {
        Some(i) if game.state.legions[i].owner == player => Ok(i),
        Some(_) => refuse(LEGIONS, format!("legion {marker} is not yours")),
        None => refuse(LEGIONS, format!("there is no legion {marker} on the board")),
    }
}

/// An action's name, for messages (its fields hold ids, not names).
fn action_name(a: &Action) -> String {
    let debug = format!("{a:?}");
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

fn step_name(step: &EngagementStep) -> &'static str {
    match step {
        EngagementStep::DefenderChoice => "the defender decides whether to flee",
        EngagementStep::Negotiate { .. } => "the engaged players negotiate",
        EngagementStep::Battle => "the battle is being fought",
        EngagementStep::After(_) => "the winner may summon, acquire or reinforce",
    }
}

/// Is `part` a sub-multiset of `whole` (both any order)?
fn contains_all(whole: &[CharacterId], part: &[CharacterId]) -> bool {
    let mut rest = whole.to_vec();
    for c in part {
        match rest.iter().position(|x| x == c) {
            Some(i) => {
                rest.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

fn remove_all(whole: &mut Vec<CharacterId>, part: &[CharacterId]) {
    for c in part {
        if let Some(i) = whole.iter().position(|x| x == c) {
            whole.remove(i);
        }
    }
}

fn sorted(mut v: Vec<CharacterId>) -> Vec<CharacterId> {
    v.sort_unstable();
    v
}

/// Carries out `action`, its events appended to `events` (on error some
/// may have been: the caller drops them).
pub(super) fn apply(
    game: &mut Game,
    player: PlayerId,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let s = &game.state;
    if s.phase == Phase::Over {
        return refuse(TURN, "the game is over");
    }
    if !s.players.get(player.0 as usize).is_some_and(|p| p.alive) {
        return refuse(TURN, "you are not in the game");
    }
    if s.showdown.is_some() {
        if !is_to_act(game, player) {
            return refuse(TURN, "it is another player's decision in the showdown");
        }
        return showdown::apply(game, player, action, events);
    }
    if let Action::ConcedeGame = action {
        let slayer = concession_slayer(game, player);
        eliminate_player(game, player, slayer, events);
        after_elimination(game, events);
        return Ok(());
    }
    if !is_to_act(game, player) {
        return refuse(
            TURN,
            format!(
                "it is not {}'s decision now",
                s.players[player.0 as usize].name
            ),
        );
    }
    if let Some(name) = game.state.choice.clone() {
        let follow_up = matches!(action, Action::Script { name: n, .. } if *n == name);
        if !follow_up {
            let mut choices = Vec::new();
            super::events::choice_actions(game, player, &name, &mut choices);
            if !choices.is_empty() {
                let label = game
                    .variant
                    .script_action(&name)
                    .map_or(name.as_str(), |a| a.def.label.as_str());
                return refuse(
                    super::SCRIPTED_RULE,
                    format!("{label} is to be chosen first"),
                );
            }
            // Nothing left to choose: the choice lapses.
            game.save_state();
            game.state.choice = None;
        }
    }
    if matches!(
        action,
        Action::DoneSplitting | Action::DoneMoving | Action::DoneEngaging | Action::EndTurn
    ) {
        match super::events::end_refused(game, player) {
            Ok(Some(why)) if !legal_actions(game, player).contains(action) => {
                return refuse(super::SCRIPTED_RULE, why);
            }
            Ok(_) => {}
            Err(e) => {
                return Err(RuleError {
                    rule: super::SCRIPT_FAILURE,
                    message: format!(
                        "script error: {e} (the action is refused){}",
                        e.traceback_text()
                    ),
                });
            }
        }
    }
    let s = &game.state;
    match (s.phase, action) {
        (_, Action::Script { name, args }) => {
            super::events::apply_script(game, player, name, args, events)?
        }
        (Phase::InitialSplit, Action::InitialSplit { legions }) => {
            initial_split(game, player, legions, events)?
        }
        (Phase::Split, Action::Split { legion, parts }) => {
            split(game, player, *legion, parts, events)?
        }
        // Refused by nothing: `Game::apply` copies no state before it
        // (`Undo::Lazy`).
        (Phase::Split, Action::DoneSplitting) => game.state.phase = Phase::Move,
        (Phase::Move, Action::Roll { distance }) => roll(game, player, *distance, events)?,
        (Phase::Move, Action::Mulligan) => {
            if !mulligan_available(game) {
                return refuse(
                    MULLIGAN,
                    "a mulligan is allowed once, on a player's very first turn, before moving",
                );
            }
            game.state.mulligan_used = true;
            game.state.roll = None;
            roll(game, player, None, events)?;
        }
        (
            Phase::Move,
            Action::Move {
                legion,
                to,
                entered_from,
            },
        ) => move_legion(game, player, *legion, *to, *entered_from, events)?,
        (
            Phase::Move,
            Action::Teleport {
                legion,
                to,
                kind,
                lord,
            },
        ) => teleport(game, player, *legion, *to, *kind, *lord, events)?,
        (Phase::Move, Action::DoneMoving) => done_moving(game, player, events)?,
        (Phase::Engage, _) | (Phase::Muster, _) if game.state.engagement.is_some() => {
            engagement_step(game, player, action, events)?
        }
        (Phase::Engage, Action::Engage { land }) => engage(game, player, *land, events)?,
        (Phase::Engage, Action::Challenge { attacker, defender }) => {
            challenge(game, player, *attacker, *defender, events)?
        }
        (Phase::Engage, Action::DoneEngaging) => done_engaging(game, player)?,
        (
            Phase::Muster,
            Action::Muster {
                legion,
                recruit,
                reveal,
            },
        ) => muster(game, player, *legion, *recruit, reveal, events)?,
        (Phase::Muster, Action::EndTurn) => end_turn(game, events),
        (phase, action) => {
            return refuse(
                TURN,
                format!(
                    "{} cannot be done in the {phase:?} phase",
                    action_name(action)
                ),
            );
        }
    }
    Ok(())
}

pub(super) fn check_invariants(game: &Game) -> Result<(), String> {
    let s = &game.state;
    let v = &game.variant;
    let max = v.rules.legions.max_size as usize;
    let mut markers = std::collections::HashSet::new();
    let mut on_board = vec![0u32; v.characters.len()];
    for l in &s.legions {
        if l.characters.is_empty() || v.legion_size(l.characters.iter().copied()) > max {
            return Err(format!("legion {} has {} characters", l.marker, l.height()));
        }
        if !markers.insert(l.marker) {
            return Err(format!("marker {} is used twice", l.marker));
        }
        if !s.players[l.owner.0 as usize].alive {
            return Err(format!(
                "legion {} belongs to a player out of the game",
                l.marker
            ));
        }
        if s.players.iter().any(|p| p.markers.contains(&l.marker)) {
            return Err(format!(
                "marker {} is both on the board and in hand",
                l.marker
            ));
        }
        for &c in &l.characters {
            on_board[c.index()] += 1;
        }
    }
    // One legion per land, or two players' legions in an engagement; on a
    // shared land any; under a treaty one of each player's, and those left
    // together when it ends stay until they engage or part.
    let peace = v.rules.movement.treaty_turns > 0 || !v.rules.movement.truce.is_empty();
    for land in v.board.lands() {
        if v.is_shared(land) {
            continue;
        }
        let here: Vec<&Legion> = s.legions.iter().filter(|l| l.land == land).collect();
        let mut owners: Vec<PlayerId> = here.iter().map(|l| l.owner).collect();
        owners.sort_unstable();
        owners.dedup();
        if owners.len() > 2 && !peace {
            return Err(format!(
                "land {} holds legions of {} players",
                v.board.land(land).number,
                owners.len()
            ));
        }
        // Two legions of one player share a land only while split apart.
        for (i, a) in here.iter().enumerate() {
            for b in &here[i + 1..] {
                let siblings = a.split_from == Some(b.marker)
                    || b.split_from == Some(a.marker)
                    || (a.split_from.is_some() && a.split_from == b.split_from);
                if a.owner == b.owner && !siblings {
                    return Err(format!(
                        "land {} holds legions {} and {} of one player",
                        v.board.land(land).number,
                        a.marker,
                        b.marker
                    ));
                }
            }
        }
        // Only the player whose turn it is moves onto an enemy.
        if owners.len() == 2 && !owners.contains(&s.active) && !peace {
            return Err(format!(
                "land {} holds legions of two players, neither of them the one whose turn it is",
                v.board.land(land).number
            ));
        }
        if owners.len() == 2 && !matches!(s.phase, Phase::Engage | Phase::Move) && !peace {
            return Err(format!(
                "an engagement in land {} outlived its phase",
                v.board.land(land).number
            ));
        }
    }
    // Every character is in the caretaker's stacks, a legion, or dead.
    for (i, c) in v.characters.iter().enumerate() {
        let total = s.caretaker[i] + on_board[i];
        if total > c.count {
            return Err(format!(
                "{} {} on board and in stock, of {}",
                total, c.plural, c.count
            ));
        }
        let class = v.class(c.class);
        if class.returns_when_slain && total != c.count {
            return Err(format!(
                "{} of {} {} are accounted for, but they return when slain",
                total, c.count, c.plural
            ));
        }
    }
    Ok(())
}
