//! The game window's one connection to a game: [`GameSession`].
//!
//! The screens ask a session only what one seat may know (its view, its legal
//! actions, the events it may see, the battle being fought, which is open to
//! the engaged players) and send it actions. [`LocalSession`] runs the engine
//! in the same process; [`crate::remote::RemoteSession`] plays a seat of a
//! game on a server through the same trait.

use std::path::Path;
use std::sync::Arc;

use titan_core::battle::{BattleSide, BattleView, SightReport, StrikeReport, UnitId};
use titan_core::battleland::HexId;
use titan_core::game::save::{SaveFile, Start};
use titan_core::game::view::{PlayerView, view};
use titan_core::game::{Action, BattleRequest, Event, Game, PlayerId};
use titan_core::model::Variant;

/// The seat of someone who plays no seat (a spectator of a computer game, a
/// replay): sees what every player sees and nothing more.
pub const SPECTATOR: PlayerId = PlayerId(63);

/// The battle being fought, as an engaged player sees it.
#[derive(Debug, Clone)]
pub struct BattleInfo {
    pub view: BattleView,
    /// What was handed to the battle engine; `summonable` is emptied for the
    /// defender (only the attacker learns the attacker's other legions).
    pub request: BattleRequest,
    /// The side the asking player fights on.
    pub side: BattleSide,
}

/// A game as the screens see it.
pub trait GameSession {
    fn variant(&self) -> &Arc<Variant>;
    /// The game as `player` may see it.
    fn view(&self, player: PlayerId) -> PlayerView;
    /// What `player` may do now.
    fn legal_actions(&self, player: PlayerId) -> Vec<Action>;
    /// Who has a decision to make.
    fn to_act(&self) -> Vec<PlayerId>;
    /// Carries out an action; a refused one changes nothing and says why.
    fn apply(&mut self, player: PlayerId, action: &Action) -> Result<Vec<Event>, String>;
    /// How many events there have been since the game began.
    fn event_count(&self) -> usize;
    /// The events from the `from`-th on, as `player` may see them (each with
    /// its index).
    fn events(&self, player: PlayerId, from: usize) -> Vec<(usize, Event)>;
    /// The battle being fought, for an engaged player (None for the others).
    fn battle(&self, player: PlayerId) -> Option<BattleInfo>;
    /// The strike number and dice of a strike by `unit` at `target`, before
    /// the roll.
    fn strike_report(&self, unit: UnitId, target: UnitId) -> Option<StrikeReport>;
    /// The line of sight of a rangestrike by `unit` at `target`.
    fn line_of_sight(&self, unit: UnitId, target: UnitId) -> Option<SightReport>;
    /// Where `unit` may move this maneuver.
    fn reach(&self, unit: UnitId) -> Vec<HexId>;
    /// The game so far as a save (to write, or to replay).
    fn save_file(&self) -> SaveFile;
    /// Actions taken since the game began.
    fn history_len(&self) -> usize;
    /// What `player` may know now, for a computer player on this seat
    /// (None where the session cannot say: the seat then plays at random).
    fn observe(&self, _player: PlayerId) -> Option<titan_core::ai::Observation> {
        None
    }
    /// Takes in what arrived since the last frame (a session over the
    /// network); whether anything changed.
    fn poll(&mut self) -> bool {
        false
    }
    /// Whether the app plays the computer seats (a server plays its own).
    fn drives_computers(&self) -> bool {
        true
    }
    /// Whether the game can be saved here (an online game is the server's).
    fn can_save(&self) -> bool {
        true
    }
    /// A message for the player that arrived since the last frame (a
    /// refusal, "your turn", a lost connection).
    fn take_notice(&mut self) -> Option<String> {
        None
    }
    /// The game's chat so far, (user, line), where it has one (online).
    fn chat(&self) -> Option<&[(String, String)]> {
        None
    }
    /// Sends a chat line (online).
    fn say(&mut self, _text: &str) {}
}

/// The engine in this process.
pub struct LocalSession {
    game: Game,
    /// Every event since the game began, unfiltered; [`GameSession::events`]
    /// filters them for a player.
    log: Vec<Event>,
}

impl LocalSession {
    /// A session on a game already set up, with the events that set it up.
    pub fn new(game: Game, events: Vec<Event>) -> LocalSession {
        LocalSession { game, log: events }
    }

    /// Replays a save, collecting the events a player would have seen, and
    /// checks that it reaches the saved position.
    pub fn from_save(variant: Arc<Variant>, save: &SaveFile) -> Result<LocalSession, String> {
        let steps = replay(variant, save, usize::MAX)?;
        let (game, log) = steps;
        if game.state_hash() != save.state_hash {
            return Err(
                "replaying the save reaches another position than the one saved (state hash differs)"
                    .into(),
            );
        }
        Ok(LocalSession { game, log })
    }

    /// The game itself: only for the tests and the frame-time measurement,
    /// never for the screens.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

/// The game after the first `upto` actions of a save, and the events so far.
pub fn replay(
    variant: Arc<Variant>,
    save: &SaveFile,
    upto: usize,
) -> Result<(Game, Vec<Event>), String> {
    if save.variant != variant.id || save.version != variant.version {
        return Err(format!(
            "the save was made with variant {} version {}, but the variant loaded is {} version {}",
            save.variant, save.version, variant.id, variant.version
        ));
    }
    let (mut game, mut log) = match &save.start {
        Start::New { players, seed } => {
            Game::new(variant, save.options.clone(), players, *seed).map_err(|e| e.to_string())?
        }
        Start::Position(state) => (
            Game::from_state(variant, save.options.clone(), (**state).clone())
                .map_err(|e| e.to_string())?,
            Vec::new(),
        ),
    };
    for (i, (player, action)) in save.actions.iter().take(upto).enumerate() {
        let events = game
            .apply(*player, action)
            .map_err(|e| format!("action {} of the save is refused: {e}", i + 1))?;
        log.extend(events);
    }
    Ok((game, log))
}

/// Reads a save file (RON).
pub fn read_save(path: &Path) -> Result<SaveFile, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    titan_core::load::ron_options()
        .from_str(&text)
        .map_err(|e| format!("{} is not a valid save: {e}", path.display()))
}

/// Writes a save atomically (a temporary file, then a rename).
pub fn write_save(path: &Path, save: &SaveFile) -> Result<(), String> {
    let text = titan_core::write::to_ron(save).map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    titan_core::write::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub use titan_core::game::view::event_seen_by;

impl GameSession for LocalSession {
    fn variant(&self) -> &Arc<Variant> {
        &self.game.variant
    }

    fn view(&self, player: PlayerId) -> PlayerView {
        view(&self.game, player)
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        if player == SPECTATOR {
            return Vec::new();
        }
        self.game.legal_actions(player)
    }

    fn to_act(&self) -> Vec<PlayerId> {
        self.game.to_act()
    }

    fn apply(&mut self, player: PlayerId, action: &Action) -> Result<Vec<Event>, String> {
        let events = self.game.apply(player, action).map_err(|e| e.to_string())?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    fn event_count(&self) -> usize {
        self.log.len()
    }

    fn events(&self, player: PlayerId, from: usize) -> Vec<(usize, Event)> {
        self.log
            .iter()
            .enumerate()
            .skip(from)
            .filter(|(_, e)| event_seen_by(e, player))
            .map(|(i, e)| (i, e.clone()))
            .collect()
    }

    fn battle(&self, player: PlayerId) -> Option<BattleInfo> {
        let seat = self.game.battle_seat(player)?;
        Some(BattleInfo {
            view: seat.view,
            request: seat.request,
            side: seat.side,
        })
    }

    fn strike_report(&self, unit: UnitId, target: UnitId) -> Option<StrikeReport> {
        self.game.battle()?.strike_report(unit, target).ok()
    }

    fn line_of_sight(&self, unit: UnitId, target: UnitId) -> Option<SightReport> {
        self.game.battle()?.line_of_sight(unit, target).ok()
    }

    fn reach(&self, unit: UnitId) -> Vec<HexId> {
        self.game
            .battle()
            .and_then(|b| b.reach(unit).ok())
            .unwrap_or_default()
    }

    fn save_file(&self) -> SaveFile {
        self.game.to_save()
    }

    fn history_len(&self) -> usize {
        self.game.history.len()
    }

    fn observe(&self, player: PlayerId) -> Option<titan_core::ai::Observation> {
        (player != SPECTATOR).then(|| titan_core::ai::Observation::of(&self.game, player))
    }
}
