//! The messages of the online protocol (docs/online.md): JSON text frames
//! over one WebSocket, requests from the client and responses and pushes
//! from the server. Shared by the server, the bot and the app's client.
//!
//! Game values (actions, events, views) travel in the core's own JSON form
//! (characters and lands by index): both ends load the same variant, and
//! the server checks the variant's id and version when a game is created.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use titan_core::battle::{BattleSide, BattleView, SightReport, StrikeReport, UnitId};
use titan_core::game::view::PlayerView;
use titan_core::game::{Action, BattleRequest, Event, PlayerId};

/// The largest message the server reads (bytes); larger ones close the
/// connection with an error.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// The longest chat line (bytes).
pub const MAX_CHAT_BYTES: usize = 500;
/// The longest user name and password (bytes).
pub const MAX_NAME_BYTES: usize = 32;
pub const MAX_PASSWORD_BYTES: usize = 256;
pub const MIN_PASSWORD_BYTES: usize = 6;

/// The seat spectators see the game as: what every player sees, no more.
pub const SPECTATOR: PlayerId = PlayerId(63);

/// What a client asks, by `cmd`. `id` (any JSON) is echoed in the response.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    Signup {
        user: String,
        password: String,
    },
    Login {
        user: String,
        password: String,
    },
    /// Logs in again with a session token (a reconnect).
    Token {
        token: String,
    },
    /// Revokes every session token of the account (signs it out on every
    /// device); this connection stays logged in and gets a new token.
    SignOutEverywhere {},
    /// Revokes one session token of the account logged in (the app's "Log
    /// out"); this connection is logged out.
    LogOut {
        token: String,
    },
    /// The variants a game may be created with.
    Variants {},
    Lobby {},
    Create {
        variant: String,
        #[serde(default)]
        options: serde_json::Map<String, Value>,
        /// One per seat: "human" or "computer" (or "computer:LEVEL").
        seats: Vec<String>,
        /// Seconds after which an absent player's turn is played by a
        /// computer; 0: never.
        #[serde(default)]
        timeout_secs: u32,
    },
    Join {
        game: String,
        #[serde(default)]
        seat: Option<u8>,
    },
    Leave {
        game: String,
    },
    /// Follows a game: as its seat for a player of it, as a spectator for
    /// anyone else. State pushes follow, with events from `events_from` on.
    Watch {
        game: String,
        #[serde(default)]
        events_from: usize,
    },
    /// An action for the watched game's seat. `expect` is the number of
    /// actions the client has seen: a stale or repeated message is refused.
    Act {
        action: Value,
        expect: usize,
    },
    Chat {
        text: String,
    },
    /// Mutes (or unmutes) the spectators' chat in the watched game: its
    /// players only.
    MuteSpectators {
        mute: bool,
    },
    /// What the server's computer player at `level` would do for the
    /// watched game's seat now (computed from that seat's observation only):
    /// `{"action": ACTION}`, or `{"action": null}` when it has nothing to do.
    /// How `titan bot` plays at a level other than `random`.
    Suggest {
        level: String,
    },
    Suspend {
        game: String,
    },
    Resume {
        game: String,
    },
}

/// A game in the lobby.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub creator: String,
    pub status: String,
    pub seats: Vec<SeatSummary>,
    /// Names of the players with a decision to make.
    pub to_act: Vec<String>,
    /// When the game was created (ms since the Unix epoch; 0 from a server
    /// that does not say).
    #[serde(default)]
    pub created_ms: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatSummary {
    pub seat: u8,
    pub kind: String,
    pub user: Option<String>,
}

/// The battle being fought, as an engaged player sees it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BattleState {
    pub view: BattleView,
    pub request: BattleRequest,
    pub side: BattleSide,
}

/// A watched game as one seat (or a spectator) may see it, pushed after
/// every change.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameState {
    pub game: String,
    pub variant: String,
    pub version: String,
    pub status: String,
    /// The seat watching; None for a spectator.
    pub seat: Option<PlayerId>,
    /// Actions taken since the game began (the `expect` of the next act).
    pub actions: usize,
    /// Events since the game began.
    pub event_count: usize,
    pub view: PlayerView,
    pub to_act: Vec<PlayerId>,
    /// This seat's legal actions (empty for a spectator).
    pub legal: Vec<Action>,
    /// The events not pushed before, with their indices, as this seat may
    /// see them.
    pub events: Vec<(usize, Event)>,
    pub battle: Option<BattleState>,
    /// Chat lines not pushed before: (user, text).
    pub chat: Vec<(String, String)>,
    pub chat_count: usize,
    /// For each strike among `legal`: (striker, target, strike number and
    /// dice), the preview the battle screen shows.
    #[serde(default)]
    pub strikes: Vec<(UnitId, UnitId, StrikeReport)>,
    /// For each rangestrike among `legal`: (striker, target, line of sight).
    #[serde(default)]
    pub sights: Vec<(UnitId, UnitId, SightReport)>,
}

/// What the server sends: a response to a request, or a push.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    Ok {
        #[serde(default)]
        id: Value,
        #[serde(default)]
        result: Value,
    },
    Error {
        #[serde(default)]
        id: Value,
        message: String,
    },
    State(Box<GameState>),
}
