//! [`RemoteSession`]: a game on a server (`titan serve`), seen from one seat,
//! behind the same [`GameSession`] as a local game.
//!
//! The connection runs on its own thread ([`Background`]); the screens read
//! the last state the server pushed and never wait: an action is sent and
//! its result (the next state, or a refusal) arrives in a later frame, taken
//! in by [`GameSession::poll`]. A dropped connection is made again with the
//! session token.

use std::sync::Arc;
use std::time::{Duration, Instant};

use titan_core::battle::{self, SightReport, StrikeReport, UnitId};
use titan_core::battleland::HexId;
use titan_core::game::save::{SaveFile, Start};
use titan_core::game::view::PlayerView;
use titan_core::game::{Action, Event, PlayerId};
use titan_core::model::Variant;
use titan_server::client::{Background, Report};
use titan_server::protocol::{GameState, Request};

use crate::session::{BattleInfo, GameSession};

/// A seat (or a spectator's place) in a game on a server.
pub struct RemoteSession {
    conn: Background,
    server: String,
    token: String,
    variant: Arc<Variant>,
    state: GameState,
    /// Every event pushed, with its index.
    events: Vec<(usize, Event)>,
    chat: Vec<(String, String)>,
    /// The tag of the action sent and not yet answered.
    pending: Option<u64>,
    notice: Option<String>,
    /// When the connection was lost (a new one is made after a pause).
    lost_at: Option<Instant>,
    /// Connections made since the server last answered, and since when it
    /// has not: the pause grows with them, and the session gives up past
    /// [`GIVE_UP`].
    retries: u32,
    lost_since: Option<Instant>,
}

/// How long the session tries to connect again before giving up.
const GIVE_UP: Duration = Duration::from_secs(120);

/// Why an action taken while the connection is down is refused.
pub const NOT_CONNECTED: &str = "not connected: your move was not sent; it will be possible \
     again when the connection is back (connecting again now)";

impl RemoteSession {
    /// A session on the game of `first` (the first state pushed), whose
    /// variant the app has loaded: the same id and version as the server's.
    pub fn new(
        conn: Background,
        server: &str,
        token: &str,
        variant: Arc<Variant>,
        first: GameState,
    ) -> Result<RemoteSession, String> {
        if variant.id != first.variant || variant.version != first.version {
            return Err(format!(
                "the server plays {} version {}, but this app has {} version {}",
                first.variant, first.version, variant.id, variant.version
            ));
        }
        let mut s = RemoteSession {
            conn,
            server: server.to_string(),
            token: token.to_string(),
            variant,
            events: Vec::new(),
            chat: Vec::new(),
            pending: None,
            notice: None,
            lost_at: None,
            retries: 0,
            lost_since: None,
            state: first.clone(),
        };
        s.take(first);
        Ok(s)
    }

    /// The seat this session plays (None: a spectator).
    pub fn seat(&self) -> Option<PlayerId> {
        self.state.seat
    }

    pub fn game_id(&self) -> &str {
        &self.state.game
    }

    fn my_turn(state: &GameState) -> bool {
        state.seat.is_some_and(|s| state.to_act.contains(&s))
    }

    fn take(&mut self, state: GameState) {
        if Self::my_turn(&state) && !Self::my_turn(&self.state) {
            self.notice = Some("Your turn".into());
        }
        let known = self.events.last().map_or(0, |(i, _)| i + 1);
        self.events
            .extend(state.events.iter().filter(|(i, _)| *i >= known).cloned());
        // After a reconnect the server sends the chat again from its start.
        let first = state.chat_count.saturating_sub(state.chat.len());
        let skip = self.chat.len().saturating_sub(first);
        self.chat.extend(state.chat.iter().skip(skip).cloned());
        // The battlelands the game drew: the variant as the game plays it
        // (a view that does not fit the variant keeps the one held).
        if let Ok(v) = self.variant.with_drawn(&state.view.battlelands) {
            self.variant = v;
        }
        self.state = state;
    }
}

impl GameSession for RemoteSession {
    fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The one view the server sends: this seat's (a spectator's for one).
    fn view(&self, _player: PlayerId) -> PlayerView {
        self.state.view.clone()
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        // Nothing while an action waits for its answer. While the
        // connection is being made again the last state's actions stay
        // offered (the buttons keep their places), and one clicked is
        // refused with a message by `apply`.
        if self.pending.is_some() || self.state.seat != Some(player) {
            return Vec::new();
        }
        self.state.legal.clone()
    }

    fn to_act(&self) -> Vec<PlayerId> {
        self.state.to_act.clone()
    }

    /// Sends the action; the server's answer comes in a later frame.
    fn apply(&mut self, player: PlayerId, action: &Action) -> Result<Vec<Event>, String> {
        if self.state.seat != Some(player) {
            return Err("online, you play only your own seat".into());
        }
        if self.pending.is_some() {
            return Err("waiting for the server to answer the last action".into());
        }
        if self.lost_since.is_some() {
            return Err(NOT_CONNECTED.into());
        }
        let action = serde_json::to_value(action).map_err(|e| e.to_string())?;
        self.pending = Some(self.conn.send(Request::Act {
            action,
            expect: self.state.actions,
        }));
        Ok(Vec::new())
    }

    fn event_count(&self) -> usize {
        self.state.event_count
    }

    fn events(&self, _player: PlayerId, from: usize) -> Vec<(usize, Event)> {
        let start = self.events.partition_point(|(i, _)| *i < from);
        self.events[start..].to_vec()
    }

    fn battle(&self, _player: PlayerId) -> Option<BattleInfo> {
        self.state.battle.as_ref().map(|b| BattleInfo {
            view: b.view.clone(),
            request: b.request.clone(),
            side: b.side,
        })
    }

    /// The server sends the preview of each strike the seat may make.
    fn strike_report(&self, unit: UnitId, target: UnitId) -> Option<StrikeReport> {
        self.state
            .strikes
            .iter()
            .find(|(u, t, _)| (*u, *t) == (unit, target))
            .map(|(_, _, r)| r.clone())
    }

    fn line_of_sight(&self, unit: UnitId, target: UnitId) -> Option<SightReport> {
        self.state
            .sights
            .iter()
            .find(|(u, t, _)| (*u, *t) == (unit, target))
            .map(|(_, _, r)| r.clone())
    }

    /// Where `unit` may move: the moves among the seat's legal actions.
    fn reach(&self, unit: UnitId) -> Vec<HexId> {
        self.state
            .legal
            .iter()
            .filter_map(|a| match a {
                Action::Battle {
                    battle: battle::Action::Move { unit: u, to },
                } if *u == unit => Some(*to),
                _ => None,
            })
            .collect()
    }

    /// Only what the seat knows: the players, no seed, no actions (the
    /// server keeps the game; an online game is not saved locally).
    fn save_file(&self) -> SaveFile {
        SaveFile {
            variant: self.variant.id.clone(),
            version: self.variant.version.clone(),
            options: Default::default(),
            start: Start::New {
                players: self
                    .state
                    .view
                    .players
                    .iter()
                    .map(|p| p.name.clone())
                    .collect(),
                seed: 0,
            },
            actions: Vec::new(),
            state_hash: 0,
        }
    }

    fn history_len(&self) -> usize {
        self.state.actions
    }

    fn poll(&mut self) -> bool {
        let mut changed = false;
        for report in self.conn.poll() {
            if !matches!(report, Report::Closed(_)) {
                // The server answers again: the message about the lost
                // connection goes (an empty notice clears the status).
                if self.lost_since.take().is_some() {
                    self.notice = Some(String::new());
                    changed = true;
                }
                self.retries = 0;
            }
            match report {
                Report::State(s) if s.game == self.state.game => {
                    self.take(*s);
                    changed = true;
                }
                Report::State(_) => {}
                Report::Answer { tag, result } => {
                    if self.pending == Some(tag) {
                        self.pending = None;
                        changed = true;
                    }
                    if let Err(e) = result {
                        self.notice = Some(format!("Refused: {e}"));
                        changed = true;
                    }
                }
                Report::Notice(n) => {
                    // The server ended this connection's watch (the game
                    // closed there, or unreadable while its database is
                    // down): watched again, as after a lost connection.
                    if n.contains("watch it again") || n.starts_with("database") {
                        self.lost_since.get_or_insert_with(Instant::now);
                        self.lost_at = Some(Instant::now());
                        self.pending = None;
                        self.notice = Some(format!("{n}: connecting again"));
                    } else {
                        self.notice = Some(n);
                    }
                    changed = true;
                }
                Report::Closed(e) => {
                    let since = *self.lost_since.get_or_insert_with(Instant::now);
                    // An action sent and not answered: never dropped
                    // without a word (the state pushed after the reconnect
                    // shows whether the server took it).
                    let unanswered = if self.pending.take().is_some() {
                        "; your last move may not have reached the server"
                    } else {
                        ""
                    };
                    changed = true;
                    if since.elapsed() > GIVE_UP {
                        self.notice = Some(format!(
                            "{e}: the server has not answered for {} s; gave up (open the game again from the lobby)",
                            since.elapsed().as_secs()
                        ));
                        self.lost_at = None;
                    } else {
                        self.notice = Some(format!("{e}: connecting again{unanswered}"));
                        self.lost_at = Some(Instant::now());
                    }
                }
            }
        }
        if self
            .lost_at
            .is_some_and(|t| t.elapsed() >= titan_server::bot::backoff(self.retries))
        {
            // Again, with the token: the same seat, the events not seen;
            // the pause doubles from 100 ms to 5 s while the server is away.
            self.lost_at = None;
            self.retries += 1;
            self.conn = Background::connect(&self.server);
            self.conn.send(Request::Token {
                token: self.token.clone(),
            });
            self.conn.send(Request::Watch {
                game: self.state.game.clone(),
                events_from: self.state.event_count,
            });
        }
        changed
    }

    fn drives_computers(&self) -> bool {
        false
    }

    fn can_save(&self) -> bool {
        false
    }

    fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    fn chat(&self) -> Option<&[(String, String)]> {
        Some(&self.chat)
    }

    fn say(&mut self, text: &str) {
        self.conn.send(Request::Chat {
            text: text.to_string(),
        });
    }
}
