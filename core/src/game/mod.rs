//! Masterplay: a whole game of Titan on the masterboard.
//!
//! A [`Game`] is a variant, its options and a [`GameState`]. Every player
//! decision is an [`Action`]: [`Game::legal_actions`] lists them for a player,
//! [`Game::apply`] checks one and either changes the state and returns what
//! happened ([`Event`]s) or returns a [`RuleError`] that cites the rule and
//! leaves the state unchanged. All randomness (tower rolls, movement rolls)
//! comes from the seeded generator kept in the state, so a game is fully
//! determined by variant, options, seed and actions (see [`save`]).
//!
//! An engagement ends by flight, concession, agreement, or a battle: the
//! game hands the battle to the battle engine ([`BattleRequest`], see
//! [`crate::battle`]), keeps it while it is fought through [`Action::Battle`],
//! and scores its result.

mod copy;
pub(crate) mod events;
pub mod movement;
pub use crate::model::muster;
pub mod random;
mod rules;
pub mod save;
pub mod view;

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::format::OptionValue;
use crate::model::{CharacterId, LandId, Variant};
use crate::rng::GameRng;

pub use movement::{Exits, MoveTarget, Occupancy};
pub use muster::MusterOption;
pub use rules::{TeleportKind, attacker_entry_edge};

pub use crate::ids::{Marker, PlayerId};

pub use crate::state::game::{
    After, Engagement, EngagementStep, GameState, Legion, Outcome, Phase, Player, Proposal,
};

/// A player's decision.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action")]
pub enum Action {
    /// Divide the starting characters: one list per legion.
    InitialSplit {
        legions: Vec<Vec<CharacterId>>,
    },
    /// Split new legions off `legion`: one list per new legion.
    Split {
        legion: Marker,
        parts: Vec<Vec<CharacterId>>,
    },
    DoneSplitting,
    /// Roll for movement (or, where the variant lets the mover choose, pick
    /// the distance).
    Roll {
        #[serde(default)]
        distance: Option<u8>,
    },
    /// The first-turn re-roll.
    Mulligan,
    Move {
        legion: Marker,
        to: LandId,
        entered_from: LandId,
    },
    Teleport {
        legion: Marker,
        to: LandId,
        kind: TeleportKind,
        /// The lord shown (tower teleport).
        lord: CharacterId,
    },
    DoneMoving,
    /// Resolve the engagement in this land next.
    Engage {
        land: LandId,
    },
    /// On a shared land, engage another player's legion standing there
    /// (Gods of Titan 10.2: the mover chooses whether and whom).
    Challenge {
        attacker: Marker,
        defender: Marker,
    },
    /// End the engagement phase with no more challenges (the engagements
    /// that must be fought have been).
    DoneEngaging,
    Flee,
    /// The defender declines to flee.
    Stand,
    Concede,
    Propose {
        attacker_losses: Vec<CharacterId>,
        defender_losses: Vec<CharacterId>,
    },
    Accept,
    Reject,
    /// Demand that the battle be fought.
    Fight,
    /// An action in the battle being fought (by the side whose turn it is).
    Battle {
        battle: crate::battle::Action,
    },
    /// Summon a character from another legion into the winning legion.
    Summon {
        from: Marker,
        character: CharacterId,
    },
    /// Take a character for a score threshold passed.
    Acquire {
        character: CharacterId,
    },
    /// Muster a reinforcement into the winning defender.
    Reinforce {
        recruit: CharacterId,
        reveal: Vec<CharacterId>,
    },
    /// Pass on what the winner may still do.
    DoneAfter,
    Muster {
        legion: Marker,
        recruit: CharacterId,
        reveal: Vec<CharacterId>,
    },
    EndTurn,
    /// In a showdown (`rules.battle.showdown`), commit this legion to its
    /// battle.
    Commit {
        legion: Marker,
    },
    /// Leave the game: the player's legions are removed.
    ConcedeGame,
    /// An action the variant's scripts define (`actions.ron`).
    Script {
        name: String,
        args: Vec<crate::script::ScriptArg>,
    },
}

impl Action {
    /// Refuses an action naming a character or land the variant does not
    /// have, or a battle hex off the battleland: a client's JSON read
    /// straight into these types may hold any number.
    pub fn check_ids(&self, v: &Variant) -> Result<(), String> {
        let character = |c: &CharacterId| {
            if usize::from(c.0) < v.characters.len() {
                Ok(())
            } else {
                Err(format!("{} has no character number {}", v.id, c.0))
            }
        };
        let land = |l: &LandId| {
            if l.index() < v.board.land_count() {
                Ok(())
            } else {
                Err(format!("{} has no land at index {}", v.id, l.index()))
            }
        };
        match self {
            Action::InitialSplit { legions: parts } | Action::Split { parts, .. } => {
                parts.iter().flatten().try_for_each(character)
            }
            Action::Move {
                to, entered_from, ..
            } => land(to).and_then(|()| land(entered_from)),
            Action::Teleport { to, lord, .. } => land(to).and_then(|()| character(lord)),
            Action::Engage { land: l } => land(l),
            Action::Propose {
                attacker_losses,
                defender_losses,
            } => attacker_losses
                .iter()
                .chain(defender_losses)
                .try_for_each(character),
            Action::Battle { battle } => battle.check_ids(v),
            Action::Summon { character: c, .. } | Action::Acquire { character: c } => character(c),
            Action::Reinforce { recruit, reveal }
            | Action::Muster {
                recruit, reveal, ..
            } => character(recruit).and_then(|()| reveal.iter().try_for_each(character)),
            Action::Script { args, .. } => args.iter().try_for_each(|a| a.check_ids(v)),
            Action::DoneSplitting
            | Action::Roll { .. }
            | Action::Mulligan
            | Action::DoneMoving
            | Action::Challenge { .. }
            | Action::DoneEngaging
            | Action::Flee
            | Action::Stand
            | Action::Concede
            | Action::Accept
            | Action::Reject
            | Action::Fight
            | Action::DoneAfter
            | Action::EndTurn
            | Action::Commit { .. }
            | Action::ConcedeGame => Ok(()),
        }
    }
}

/// A battle's result as masterplay needs it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleOutcome {
    /// Characters of the attacking legion slain (or never brought on).
    pub attacker_slain: Vec<CharacterId>,
    pub defender_slain: Vec<CharacterId>,
    /// The attacker lost by time (Law of the Battlelands 25.E): it is
    /// eliminated and the defender scores nothing for it.
    pub time_loss: bool,
    /// Summoned into the attacker during the battle: from which legion.
    pub summoned: Option<(Marker, CharacterId)>,
    /// Mustered into the defender during the battle.
    pub reinforced: Option<CharacterId>,
    /// Removed without being scored: the attacker's survivors at a time loss
    /// and a slain Titan's legion-mates (reference sheet, "Titans").
    #[serde(default)]
    pub attacker_removed: Vec<CharacterId>,
    #[serde(default)]
    pub defender_removed: Vec<CharacterId>,
    /// Characters of the other legion that join this one (they fought on
    /// this side at the end; `ctx:change_side`); listed as removed there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacker_joined: Vec<CharacterId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defender_joined: Vec<CharacterId>,
    /// Characters a script took from the caretaker that join this legion
    /// (`ctx:add_unit`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacker_added: Vec<CharacterId>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defender_added: Vec<CharacterId>,
    /// The attacker conceded before placing any character: the winning
    /// defender may not muster (reference sheet, Reinforcement).
    #[serde(default)]
    pub conceded_unplaced: bool,
}

/// A battle to fight: what masterplay hands the battle engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleRequest {
    pub land: LandId,
    pub terrain: crate::model::TerrainId,
    pub attacker: Marker,
    pub defender: Marker,
    /// Each character with its power for this battle (a Titan's grows with
    /// its player's score).
    pub attacker_characters: Vec<(CharacterId, u8)>,
    pub defender_characters: Vec<(CharacterId, u8)>,
    /// The battleland edge the attacker enters by (see ARCHITECTURE.md,
    /// "Entry sides"); the battleland's own where it fixes one (the Tower).
    pub attacker_edge: crate::format::Edge,
    /// Characters the attacker could summon, and from which legion.
    pub summonable: Vec<(Marker, CharacterId)>,
    /// Characters the defender may muster as a reinforcement here.
    pub reinforcements: Vec<CharacterId>,
}

/// A battle as one of its players takes part in it ([`Game::battle_seat`]).
#[derive(Debug, Clone)]
pub struct SeatBattle {
    pub request: BattleRequest,
    pub side: crate::battle::BattleSide,
    pub view: crate::battle::BattleView,
}

/// How a legion lost characters (`Event::Slain`, and `character_slain`'s
/// `fate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Loss {
    /// Slain in a battle (a side conceding the battle included), or given
    /// up in an agreement: scored for the other side.
    #[default]
    Slain,
    /// The legion fled.
    Fled,
    /// The legion conceded.
    Conceded,
    /// Gone without being slain: a fallen Titan's legion-mates, a time
    /// loss's survivors, a script's removal.
    Removed,
}

impl Loss {
    /// The word scripts read (`character_slain`'s `fate`).
    pub fn word(self) -> &'static str {
        match self {
            Loss::Slain => "slain",
            Loss::Fled => "fled",
            Loss::Conceded => "conceded",
            Loss::Removed => "removed",
        }
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event")]
pub enum Event {
    TowerRolls {
        rolls: Vec<(PlayerId, u8)>,
    },
    Placed {
        player: PlayerId,
        tower: LandId,
    },
    LegionFormed {
        legion: Marker,
        land: LandId,
        height: usize,
    },
    TurnBegins {
        player: PlayerId,
        turn: u32,
    },
    Split {
        legion: Marker,
        into: Vec<Marker>,
    },
    Rolled {
        player: PlayerId,
        roll: u8,
    },
    Moved {
        legion: Marker,
        from: LandId,
        to: LandId,
    },
    Teleported {
        legion: Marker,
        from: LandId,
        to: LandId,
    },
    Revealed {
        legion: Marker,
        characters: Vec<CharacterId>,
        to: Option<PlayerId>,
    },
    Recombined {
        legion: Marker,
        with: Marker,
    },
    EngagementBegins {
        land: LandId,
        attacker: Marker,
        defender: Marker,
    },
    Fled {
        legion: Marker,
    },
    Conceded {
        legion: Marker,
    },
    /// An agreement proposed to the other engaged player (`to`): only the
    /// two of them are told (as views hide the proposal from the others).
    Proposed {
        by: PlayerId,
        to: PlayerId,
    },
    Rejected {
        by: PlayerId,
        to: PlayerId,
    },
    BattleBegins {
        land: LandId,
    },
    /// A showdown begins (`rules.battle.showdown`): `challenger` against
    /// `opponents`, ranked by score.
    ShowdownBegins {
        challenger: PlayerId,
        opponents: Vec<PlayerId>,
    },
    /// An opponent commits a legion to the showdown.
    Committed {
        player: PlayerId,
        legion: Marker,
    },
    /// The showdown is over.
    ShowdownEnds,
    /// Characters a legion lost, and how.
    Slain {
        legion: Marker,
        characters: Vec<CharacterId>,
        #[serde(default)]
        loss: Loss,
    },
    LegionEliminated {
        legion: Marker,
    },
    Scored {
        player: PlayerId,
        points: u32,
        score: u32,
    },
    Summoned {
        legion: Marker,
        from: Marker,
        character: CharacterId,
    },
    Acquired {
        legion: Marker,
        character: CharacterId,
    },
    Mustered {
        legion: Marker,
        character: CharacterId,
    },
    PlayerEliminated {
        player: PlayerId,
        by: Option<PlayerId>,
    },
    /// A script moved a character between two of a player's legions
    /// (`ctx:move_character`); everybody sees which.
    CharacterMoved {
        from: Marker,
        to: Marker,
        character: CharacterId,
    },
    /// A script gave a character back to the caretaker
    /// (`ctx:return_character`).
    Returned {
        legion: Marker,
        character: CharacterId,
    },
    /// A script lowered a player's score (`ctx:lower_score`).
    ScoreLowered {
        player: PlayerId,
        points: u32,
        score: u32,
    },
    GameOver {
        outcome: Outcome,
    },
    /// What happened in the battle being fought.
    Battle {
        events: Vec<crate::battle::BattleEvent>,
    },
    /// A player took a variant's action (`actions.ron`).
    ScriptAction {
        player: PlayerId,
        name: String,
        args: Vec<crate::script::ScriptArg>,
    },
    /// A script set a variable everyone may see (`ctx:set`); values of
    /// other visibility change silently (views show them to whom they may).
    VarSet {
        variable: String,
        of: crate::vars::VarTarget,
        value: crate::format::VarValue,
    },
}

/// A refused action: what is wrong, and the rule that says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleError {
    pub rule: &'static str,
    pub message: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.rule)
    }
}

impl std::error::Error for RuleError {}

/// The `rule` of a refusal of an action naming a character, land or hex
/// the variant does not have ([`Action::check_ids`]).
pub const NO_SUCH_ID: &str = "the variant's characters, lands and hexes";

/// The `rule` of a refusal caused by a variant's script failing (an error,
/// a limit hit), not by the rules of the game.
pub const SCRIPT_FAILURE: &str = "the variant's scripts";

/// The rule of a refusal the variant's scripts made on purpose (a
/// `may_end_phase` or `may_end_battle_phase` handler holding a player in
/// his phase): a rule of the variant, not a script failure.
pub const SCRIPTED_RULE: &str = "the variant's scripted rules";

impl RuleError {
    /// The action was refused because a script failed, not by a rule.
    pub fn is_script_failure(&self) -> bool {
        self.rule == SCRIPT_FAILURE
    }
}

pub(crate) fn refuse<T>(rule: &'static str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError {
        rule,
        message: message.into(),
    })
}

/// The rule options the engine itself reads (`Game::option`); any other
/// option a variant declares is for its scripts (`ctx:option`).
pub const ENGINE_OPTIONS: &[&str] = &["mulligan", "point_limit", "tower_order"];

/// The options of `variant` that nothing reads: not the engine's, and
/// named in none of its scripts (a misspelt `point_limt`, say). `titan
/// check` warns of them.
pub fn unread_options(variant: &Variant) -> Vec<&str> {
    let named = |code: &str, name: &str| {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        code.match_indices(name).any(|(at, _)| {
            !code[..at].ends_with(word) && !code[at + name.len()..].starts_with(word)
        })
    };
    variant
        .options
        .iter()
        .map(|o| o.name.as_str())
        .filter(|name| !ENGINE_OPTIONS.contains(name))
        .filter(|name| !variant.scripts.iter().any(|s| named(&s.code, name)))
        .collect()
}

/// Checks a game's option settings against the variant: each must be an
/// option of the variant, of the type of its default, within its bounds.
pub fn check_options(
    variant: &Variant,
    options: &BTreeMap<String, OptionValue>,
) -> Result<(), String> {
    for (name, value) in options {
        let Some(def) = variant.options.iter().find(|o| &o.name == name) else {
            let known: Vec<&str> = variant.options.iter().map(|o| o.name.as_str()).collect();
            return Err(format!(
                "{} has no option {name:?} (its options: {})",
                variant.id,
                known.join(", ")
            ));
        };
        let show = |v: &OptionValue| match v {
            OptionValue::Bool(b) => b.to_string(),
            OptionValue::Int(i) => i.to_string(),
            OptionValue::Text(t) => format!("{t:?}"),
        };
        match (&def.default, value) {
            (OptionValue::Bool(_), OptionValue::Bool(_))
            | (OptionValue::Text(_), OptionValue::Text(_)) => {}
            (OptionValue::Int(_), OptionValue::Int(i)) => {
                if def.min.is_some_and(|m| *i < m) || def.max.is_some_and(|m| *i > m) {
                    let bound = match (def.min, def.max) {
                        (Some(lo), Some(hi)) => format!("from {lo} to {hi}"),
                        (Some(lo), None) => format!("at least {lo}"),
                        (None, Some(hi)) => format!("at most {hi}"),
                        (None, None) => String::new(),
                    };
                    return Err(format!("option {name:?} is {bound}, not {i}"));
                }
            }
            (default, _) => {
                let kind = match default {
                    OptionValue::Bool(_) => "true or false",
                    OptionValue::Int(_) => "an integer",
                    OptionValue::Text(_) => "a string",
                };
                return Err(format!("option {name:?} is {kind}, not {}", show(value)));
            }
        }
    }
    Ok(())
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// The variant's scripts, for the hook points masterplay calls.
pub(crate) struct Hooks {
    host: Rc<crate::lua::LuaHost>,
    rng: Rc<std::cell::RefCell<GameRng>>,
    /// The first hook that failed since [`Game::apply`] began: the action
    /// is refused with it (hooks are called deep inside the rules, which
    /// carry on with the data's answer until the action ends).
    failure: std::cell::RefCell<Option<crate::lua::ScriptError>>,
}

/// A variant's scripts as a game started them (its Lua VM with the scripts
/// run and the context API installed), to start the next game of the same
/// variant on ([`Game::into_scripts`], [`Game::new_on`]).
pub struct StartedScripts(Rc<Hooks>);

/// A game: the variant, its options, the state, and the variant's scripts.
pub struct Game {
    pub variant: Arc<Variant>,
    pub options: BTreeMap<String, OptionValue>,
    pub state: GameState,
    /// Movement tables, built once.
    pub exits: Arc<Exits>,
    rng: GameRng,
    hooks: Option<Rc<Hooks>>,
    /// The battle being fought, if any (see [`Game::battle`]), kept alive
    /// between actions. In a cell so that listing its actions can give it
    /// the game's caretaker (its scripts may read it).
    battle: std::cell::RefCell<Option<Box<rules::LiveBattle>>>,
    /// The state before the action being applied, to put back if it is
    /// refused (`Idle` between actions).
    undo: Undo,
    /// What the action being applied did to the battle, to take back if it
    /// is refused (`None` between actions).
    battle_undo: Option<rules::BattleUndo>,
    /// How the game began, and every action since: what a save records.
    pub start: save::Start,
    pub history: Vec<(PlayerId, Action)>,
    /// Lists and caches the rules keep between actions (derived).
    kept: rules::Kept,
}

impl Clone for Game {
    /// A copy with a copy of the battle being fought, drawing from the
    /// copy's generator and scripts as the original draws from its own.
    fn clone(&self) -> Game {
        let mut copy = Game {
            variant: self.variant.clone(),
            options: self.options.clone(),
            state: self.state.clone(),
            exits: self.exits.clone(),
            rng: self.rng.clone(),
            hooks: self.hooks.clone(),
            battle: Default::default(),
            undo: Undo::Idle,
            battle_undo: None,
            start: self.start.clone(),
            history: self.history.clone(),
            kept: Default::default(),
        };
        let battle = self
            .battle
            .borrow()
            .as_ref()
            .and_then(|b| b.copy_for(&copy));
        *copy.battle.get_mut() = battle.map(Box::new);
        copy
    }
}

/// How [`Game::apply`] saved the state before the action it applies.
enum Undo {
    Idle,
    /// Not yet: the rules call [`Game::save_state`] before they change
    /// it, or change it only where nothing can refuse the action any more
    /// (and no script runs after: `Lazy` is for games without scripts).
    Lazy,
    Saved(Box<GameState>),
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("variant", &self.variant.id)
            .field("state", &self.state)
            .finish()
    }
}

/// Hook points masterplay calls when a script registered them.
pub mod hook {
    /// `titan_power(score, base_power) -> power`.
    pub const TITAN_POWER: &str = "titan_power";
    /// `game_over(turn, alive, leader_score) -> winner seat (0-based) or nil`.
    pub const GAME_OVER: &str = "game_over";
    /// `character_power(character, base_power, score, seat) -> power or nil`:
    /// the power a legion's character (not the Titan) brings to a battle.
    pub const CHARACTER_POWER: &str = "character_power";
    /// `reinforcements(legion, offered) -> names or nil`: what the defender
    /// may muster as a reinforcement in its battle.
    pub const REINFORCEMENTS: &str = "reinforcements";
}

impl Game {
    /// A new game of `variant` for these players, from `seed`: the tower
    /// rolls are made and the first player found; players then divide their
    /// starting characters ([`Action::InitialSplit`]).
    pub fn new(
        variant: Arc<Variant>,
        options: BTreeMap<String, OptionValue>,
        players: &[String],
        seed: u64,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        Game::new_on(variant, options, players, seed, None)
    }

    /// As [`Game::new`], on the scripts an earlier game of the same variant
    /// started ([`Game::into_scripts`]) when given them: a run of many games
    /// (`titan simulate games`, `titan tournament`) starts a variant's Lua
    /// VM once rather than once a game. The game plays as on fresh scripts:
    /// Lua globals are not game state (docs/scripting.md, "Variables"), and
    /// the handlers are those the scripts registered when they loaded. Scripts
    /// of another variant (or of other battlelands drawn) are dropped and
    /// fresh ones started.
    pub fn new_on(
        variant: Arc<Variant>,
        options: BTreeMap<String, OptionValue>,
        players: &[String],
        seed: u64,
        scripts: Option<StartedScripts>,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        let reuse = scripts.map(|s| s.0);
        let (mut game, mut events) = rules::new_game(variant, options, players, seed, reuse)?;
        events::fire_start(&mut game, &mut events);
        match game.take_script_failure() {
            Some(e) => Err(SetupError(format!("script error at game_start: {e}"))),
            None => {
                game.state.rng_pos = game.rng.word_pos() as u64;
                Ok((game, events))
            }
        }
    }

    /// A game with this state (a position or a replayed save).
    pub fn from_state(
        variant: Arc<Variant>,
        options: BTreeMap<String, OptionValue>,
        state: GameState,
    ) -> Result<Game, SetupError> {
        // The battlelands the game drew, as its state records them.
        let variant = variant.with_drawn(&state.battlelands).map_err(SetupError)?;
        let hooks = rules::hooks_for(&variant, &options, None)?;
        let rng = GameRng::at(state.rng_seed, u128::from(state.rng_pos));
        Ok(Game {
            exits: rules::exits_for(&variant),
            variant,
            options,
            start: save::Start::Position(Box::new(state.clone())),
            state,
            rng,
            hooks,
            battle: Default::default(),
            undo: Undo::Idle,
            battle_undo: None,
            history: Vec::new(),
            kept: Default::default(),
        })
    }

    /// Every action `player` may take now.
    pub fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        rules::legal_actions(self, player)
    }

    /// Checks `action` by `player` against the rules and carries it out; on
    /// error the game is unchanged.
    pub fn apply(&mut self, player: PlayerId, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(player, action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`] with the events appended to `events` (a caller that
    /// plays many actions can keep one list); on error the game and
    /// `events` are unchanged.
    pub fn apply_into(
        &mut self,
        player: PlayerId,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if let Err(message) = action.check_ids(&self.variant) {
            return refuse(NO_SUCH_ID, message);
        }
        // Only the state, the generator and the battle change in an action:
        // they are saved and put back if it is refused (the history, options
        // and tables are left alone, so an action costs the same however long
        // the game has been).
        // A battle action without scripts changes the state only when it
        // ends the battle: the state is copied then ([`Game::save_state`]),
        // not before every battle action.
        // Nor before the turn's own steps outside an engagement (a split,
        // the roll, a move or teleport, the end of splitting or moving, an
        // engagement chosen, a muster, the end of the turn), which change
        // the state only once nothing can refuse them (see
        // `turn::move_legion`). Not the mulligan, which may refuse after.
        let lazy_step = self.state.engagement.is_none()
            && matches!(
                (self.state.phase, action),
                (Phase::Split, Action::Split { .. } | Action::DoneSplitting)
                    | (
                        Phase::Move,
                        Action::Roll { .. }
                            | Action::Move { .. }
                            | Action::Teleport { .. }
                            | Action::DoneMoving
                    )
                    | (
                        Phase::Engage,
                        Action::Engage { .. } | Action::Challenge { .. } | Action::DoneEngaging
                    )
                    | (Phase::Muster, Action::Muster { .. } | Action::EndTurn)
            );
        self.undo = if self.hooks.is_none()
            && (lazy_step
                || matches!(
                    (self.state.phase, action),
                    (_, Action::Battle { .. }) | (Phase::Move, Action::Move { .. })
                )) {
            Undo::Lazy
        } else {
            Undo::Saved(self.copy_state())
        };
        // The generator by its position (restored only if a refused action
        // drew from it). The battle changes only in a battle action, which
        // leaves a way to take it back (`battle_undo`), and when one starts.
        let rng_mark = (self.rng.seed(), self.rng.word_pos());
        let had_battle = self.battle.get_mut().is_some();
        self.battle_undo = None;
        self.take_script_failure();
        let listed = events.len();
        let applied = if self.hooks.is_some() {
            // The scripts' events fire for this action's events alone.
            let before = events::Before::of(self);
            let mut ev = Vec::new();
            rules::apply(self, player, action, &mut ev).map(|()| {
                events::fire_after(self, &before, action, &mut ev);
                events.append(&mut ev);
            })
        } else {
            rules::apply(self, player, action, events)
        };
        let undo = std::mem::replace(&mut self.undo, Undo::Idle);
        let battle_undo = self.battle_undo.take();
        let result = match (self.take_script_failure(), applied) {
            (None, Ok(())) => Ok(()),
            (Some(e), _) => refuse(
                SCRIPT_FAILURE,
                format!(
                    "script error: {e} (the action is refused){}",
                    e.traceback_text()
                ),
            ),
            (None, Err(e)) => Err(e),
        };
        match (result, undo) {
            (Ok(()), undo) => {
                self.state.rng_pos = self.rng.word_pos() as u64;
                self.prune_vars();
                self.history.push((player, action.clone()));
                if let Undo::Saved(state) = undo {
                    self.kept.spare_state.set(Some(state));
                }
                Ok(())
            }
            (Err(e), undo) => {
                events.truncate(listed);
                // `Lazy`: the action was refused before it changed the state.
                if let Undo::Saved(mut state) = undo {
                    std::mem::swap(&mut self.state, &mut *state);
                    self.kept.spare_state.set(Some(state));
                }
                if (self.rng.seed(), self.rng.word_pos()) != rng_mark {
                    self.rng = GameRng::at(rng_mark.0, rng_mark.1);
                }
                let battle = self.battle.get_mut();
                match battle_undo {
                    Some(rules::BattleUndo { mark, ended }) => {
                        if ended.is_some() {
                            *battle = ended;
                        }
                        if let Some(b) = battle {
                            b.take_back(mark);
                        }
                    }
                    // A battle the action started.
                    None if !had_battle => *battle = None,
                    None => {}
                }
                Err(e)
            }
        }
    }

    /// A copy of the state, into a spare one kept from the last action so
    /// that the copy reuses its buffers instead of allocating.
    fn copy_state(&self) -> Box<GameState> {
        match self.kept.spare_state.take() {
            Some(mut spare) => {
                (*spare).clone_from(&self.state);
                spare
            }
            None => Box::new(self.state.clone()),
        }
    }

    /// Called by the rules before an action whose state `apply` did not
    /// copy first (see [`Undo::Lazy`]) changes the state.
    pub(crate) fn save_state(&mut self) {
        if matches!(self.undo, Undo::Lazy) {
            self.undo = Undo::Saved(self.copy_state());
        }
    }

    /// Drops the values of legions that are gone and of characters that
    /// left their legion, so that a marker used again starts afresh.
    fn prune_vars(&mut self) {
        if self.state.vars.is_empty() {
            return;
        }
        let legions = &self.state.legions;
        let find = |m: Marker| legions.iter().find(|l| l.marker == m);
        self.state.vars.retain(|t| match *t {
            crate::vars::VarTarget::Legion(m) => find(m).is_some(),
            crate::vars::VarTarget::Character(m, c) => {
                find(m).is_some_and(|l| l.characters.contains(&c))
            }
            _ => true,
        });
    }

    /// The variant's scripts as this game started them, for the next game of
    /// the variant ([`Game::new_on`]). None when the variant has none, while
    /// a copy of this game (or its battle) still uses them, or when a hook
    /// failed and nobody took the failure (a failed script may have left its
    /// VM at its memory cap).
    pub fn into_scripts(self) -> Option<StartedScripts> {
        // Whatever else of the game holds the VM goes first.
        let Game {
            hooks,
            battle,
            kept,
            ..
        } = self;
        drop((battle, kept));
        let hooks = hooks?;
        let clean = Rc::strong_count(&hooks) == 1
            && Rc::strong_count(&hooks.host) == 1
            && hooks.failure.borrow().is_none();
        clean.then_some(StartedScripts(hooks))
    }

    /// The first masterplay hook that failed since the last action (or the
    /// last call of this), cleared. A query (`legal_actions`, a view) that
    /// met a failing hook answered with the data's fallback: this says so.
    pub fn take_script_failure(&self) -> Option<crate::lua::ScriptError> {
        self.hooks.as_ref()?.failure.borrow_mut().take()
    }

    /// The first battle script action's `legal` that failed while the
    /// battle's actions were listed since the last call (that action left
    /// out), cleared. Listing does not refuse anything, so this is apart
    /// from [`Game::take_script_failure`], which `apply` reads.
    pub fn take_battle_script_failure(&self) -> Option<crate::lua::ScriptError> {
        self.battle.borrow().as_ref()?.take_script_failure()
    }

    /// The lines the scripts logged (`titan.log`, `print`) since the last
    /// call, drained.
    pub fn take_log(&self) -> Vec<String> {
        self.hooks
            .as_ref()
            .map(|h| h.host.take_log())
            .unwrap_or_default()
    }

    /// The players who have something to decide now.
    pub fn to_act(&self) -> Vec<PlayerId> {
        rules::to_act(self)
    }

    pub fn legion(&self, marker: Marker) -> Option<&Legion> {
        self.state.legions.iter().find(|l| l.marker == marker)
    }

    /// The legion in a land (outside engagements there is at most one).
    pub fn legions_in(&self, land: LandId) -> impl Iterator<Item = &Legion> {
        self.state.legions.iter().filter(move |l| l.land == land)
    }

    /// A player's Titan power: base + one per step of points, or what the
    /// variant's `titan_power` hook says.
    pub fn titan_power(&self, player: PlayerId) -> u8 {
        rules::titan_power(self, player)
    }

    /// Points a character is worth to whoever slays it.
    pub fn value(&self, owner: PlayerId, c: CharacterId) -> u32 {
        rules::value(self, owner, c)
    }

    /// A value of a rule option: the game's setting or the variant's default.
    pub fn option(&self, name: &str) -> Option<&OptionValue> {
        self.options.get(name).or_else(|| self.variant.option(name))
    }

    /// A stable hash of the state, to check that a replay reaches the same
    /// position (FNV-1a over the state's RON text).
    pub fn state_hash(&self) -> u64 {
        let text = ron::to_string(&self.state).unwrap_or_else(|e| e.to_string());
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// Everything a later action can observe of the game, as text: the
    /// state, the generator's position, the battle being fought (with its
    /// generator), the options and the history. Tests compare it to check
    /// that a refused action changed nothing ([`Game::state_hash`] covers
    /// the state only).
    pub fn fingerprint(&self) -> String {
        format!(
            "{:?} rng {}@{} battle {:?} options {:?} history {} {:?}",
            self.state,
            self.rng.seed(),
            self.rng.word_pos(),
            self.battle.borrow().as_ref().map(|b| b.fingerprint()),
            self.options,
            // Actions are only ever appended, on success.
            self.history.len(),
            self.history.last()
        )
    }

    /// The battle being fought, to look at (its view, legal actions, line
    /// of sight). Acting in it goes through [`Action::Battle`].
    pub fn battle(&self) -> Option<crate::battle::Battle<'_>> {
        rules::resume_battle(self).ok().flatten()
    }

    /// What the battle engine needs to fight the engagement now in its
    /// Battle step, or None.
    pub fn battle_request(&self) -> Option<BattleRequest> {
        rules::battle_request(self)
    }

    /// The battle being fought as `player` takes part in it: what was handed
    /// to the battle engine (the attacker's summonable characters are told
    /// to the attacker alone), his side and what he sees of it; `None` when
    /// he fights none. In a showdown the request names the challenger's
    /// first legion as the attacker and the player's own legion (else the
    /// first committed) as the defender.
    pub fn battle_seat(&self, player: PlayerId) -> Option<SeatBattle> {
        if self.state.showdown.is_some() {
            return rules::showdown_seat(self, player);
        }
        let mut request = self.battle_request()?;
        let owner = |m| self.legion(m).map(|l| l.owner);
        let side = if owner(request.attacker) == Some(player) {
            crate::battle::BattleSide::Attacker
        } else if owner(request.defender) == Some(player) {
            crate::battle::BattleSide::Defender
        } else {
            return None;
        };
        if side == crate::battle::BattleSide::Defender {
            request.summonable.clear();
        }
        let view = self.battle()?.view(side);
        Some(SeatBattle {
            request,
            side,
            view,
        })
    }

    /// Checks the invariants of a position; the soak test runs this after
    /// every action. Returns what is broken.
    pub fn check_invariants(&self) -> Result<(), String> {
        rules::check_invariants(self)
    }
}
