//! One client's WebSocket: requests in, responses and state pushes out.
//!
//! A connection logs in once (password or token), then may follow one game
//! at a time; it acts only for the seat its account holds in that game and
//! is pushed only what that seat (or a spectator) may see. Every bad
//! request is answered with an error and changes nothing.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::sync::atomic::Ordering;

use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use titan_core::game::{Game, PlayerId, check_options};
use tokio::sync::{oneshot, watch};

use crate::actor::{Cmd, options_from_json};
use crate::computer::LEVELS;
use crate::db::{self, GameRow, SeatRow};
use crate::listen::ConnInfo;
use crate::protocol::{
    GameState, GameSummary, MAX_CHAT_BYTES, MAX_MESSAGE_BYTES, Message, Request, SeatSummary,
};
use crate::{GameHandle, Shared, auth, logs};

/// A token bucket: `rate` requests a second, up to twice that at once.
pub(crate) struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: u32) -> Bucket {
        Bucket {
            tokens: f64::from(rate) * 2.0,
            at: Instant::now(),
        }
    }

    fn take(&mut self, rate: u32) -> bool {
        let now = Instant::now();
        let rate = f64::from(rate);
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * rate).min(rate * 2.0);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A rate a minute by [`crate::Config::clock`]: up to `per_minute` at
/// once, given back at `per_minute` a minute.
#[derive(Debug)]
pub(crate) struct PerMinute {
    tokens: f64,
    at: Instant,
}

/// Allowances by name (account or game).
pub(crate) type Rates = std::sync::Mutex<std::collections::HashMap<String, PerMinute>>;

/// Names (accounts, games) whose chat rate is kept, at most; past it those
/// with a full allowance are forgotten.
const MAX_RATE_NAMES: usize = 10_000;

/// Takes one from the allowance of `name` in `rates`: false when it has
/// none left.
fn take_per_minute(rates: &Rates, name: &str, per_minute: u32, now: Instant) -> bool {
    let full = f64::from(per_minute);
    let mut rates = rates.lock().unwrap_or_else(|e| e.into_inner());
    let refill = |r: &mut PerMinute| {
        let secs = now.saturating_duration_since(r.at).as_secs_f64();
        r.tokens = (r.tokens + secs * full / 60.0).min(full);
        r.at = now;
    };
    if rates.len() >= MAX_RATE_NAMES {
        rates.retain(|_, r| {
            refill(r);
            r.tokens < full
        });
    }
    let r = rates.entry(name.to_string()).or_insert(PerMinute {
        tokens: full,
        at: now,
    });
    refill(r);
    if r.tokens >= 1.0 {
        r.tokens -= 1.0;
        true
    } else {
        false
    }
}

/// A lobby lists at most this many of the asker's own games,
const LOBBY_OWN: i64 = 100;
/// this many games of each other creator,
const LOBBY_PER_CREATOR: i64 = 10;
/// and this many other games in all.
const LOBBY_OTHERS: i64 = 200;

/// The reason of the close frame every client gets when the server stops
/// (code 1012, "service restart"): clients connect again.
pub const RESTARTING: &str = "server restarting";

/// An action answered this late (ms) is logged at `info`.
const SLOW_MS: u64 = 1000;

/// Refused requests in a row after which a flooding client is dropped.
const MAX_REFUSED_IN_A_ROW: u32 = 200;

pub(crate) async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(info): ConnectInfo<ConnInfo>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    // A WebSocket now: the deadline for its HTTP request is met; its own
    // timeouts follow (see `connection`).
    info.upgraded.store(true, Ordering::Relaxed);
    // A small read buffer (the default is 128 KiB, taken at once for each
    // connection): messages larger than it are still read whole.
    ws.read_buffer_size(4096)
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(socket, shared, info.from.ip()))
}

/// The game a connection follows.
struct Watching {
    id: String,
    seat: Option<PlayerId>,
    handle: GameHandle,
    changed: watch::Receiver<Arc<crate::actor::Published>>,
    events_from: usize,
    chat_from: usize,
    /// Whether it has been sent a state since it began to watch (until
    /// then it asks its game for one).
    primed: bool,
}

struct Conn {
    shared: Arc<Shared>,
    user: Option<String>,
    watching: Option<Watching>,
    /// The state of a game over to send after the answer to its watch.
    finished: Option<GameState>,
    bucket: Bucket,
    /// The client's address (log-in attempts are limited by it).
    from: IpAddr,
    /// The account's sign-outs everywhere when this connection logged in
    /// (see [`auth::Accounts::sessions_of`]).
    session: u64,
}

async fn changed(w: &mut Option<Watching>) -> bool {
    match w {
        Some(w) => w.changed.changed().await.is_ok(),
        None => std::future::pending().await,
    }
}

/// Waits until the server stops.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let closed = stop.wait_for(|&stopping| stopping).await.is_err();
    if closed {
        std::future::pending::<()>().await;
    }
}

async fn connection(socket: WebSocket, shared: Arc<Shared>, from: IpAddr) {
    let (mut sink, mut stream) = socket.split();
    let mut conn = Conn {
        bucket: Bucket::new(shared.config.rate_per_connection),
        shared,
        user: None,
        watching: None,
        finished: None,
        from,
        session: 0,
    };
    let mut heartbeat = tokio::time::interval(Duration::from_secs(2));
    let mut refused = 0u32;
    let limits = conn.shared.config.limits.clone();
    let log_in_by = tokio::time::Instant::now() + limits.login_timeout;
    let mut heard = tokio::time::Instant::now();
    let mut stop = conn.shared.stop_signal.subscribe();
    let policy = axum::extract::ws::close_code::POLICY;
    let goodbye = loop {
        let out: Vec<Out> = tokio::select! {
            msg = stream.next() => { heard = tokio::time::Instant::now(); match msg {
                Some(Ok(WsMessage::Text(text))) => {
                    let (reply, ok, watched) = conn.request(text.as_str()).await;
                    if !ok && conn.shared.stopping() {
                        // Refused because the server is stopping (its game
                        // closed): the client is told so, not to watch again.
                        break Some((axum::extract::ws::close_code::RESTART, RESTARTING.to_string()));
                    }
                    refused = if ok { 0 } else { refused + 1 };
                    let mut out = vec![Out::Message(reply)];
                    if watched {
                        // The state follows the answer to a watch.
                        out.extend(conn.push().await);
                    }
                    out
                }
                Some(Ok(WsMessage::Binary(_))) => {
                    refused += 1;
                    vec![Out::Message(error(Value::Null, "binary messages are not understood: send JSON text"))]
                }
                Some(Ok(WsMessage::Ping(_) | WsMessage::Pong(_))) => continue,
                // Closed, or broken (an oversized message among others).
                Some(Ok(WsMessage::Close(_))) | Some(Err(_)) | None => break None,
            }},
            _ = tokio::time::sleep_until(log_in_by), if conn.user.is_none() => {
                crate::logs::limit_hit("login_timeout", None, Some(conn.from));
                break Some((policy, format!(
                    "not logged in within {} s: goodbye",
                    limits.login_timeout.as_secs_f64()
                )));
            }
            _ = tokio::time::sleep_until(heard + limits.idle_timeout) => {
                crate::logs::limit_hit("idle_timeout", conn.user.as_deref(), Some(conn.from));
                break Some((policy, format!(
                    "nothing heard for {} s: goodbye",
                    limits.idle_timeout.as_secs_f64()
                )));
            }
            alive = changed(&mut conn.watching) => {
                if alive {
                    conn.push().await.into_iter().collect()
                } else if conn.shared.stopping() {
                    // The actor stopped because the server is stopping (the
                    // stop branch may not have been picked first).
                    break Some((axum::extract::ws::close_code::RESTART, RESTARTING.to_string()));
                } else {
                    // The game's actor stopped: the client watches again.
                    conn.unwatch();
                    vec![Out::Message(error(Value::Null, "the game was closed on this server: watch it again"))]
                }
            }
            _ = stopped(&mut stop) => {
                break Some((axum::extract::ws::close_code::RESTART, RESTARTING.to_string()));
            }
            _ = heartbeat.tick() => {
                if conn.shared.stopping() {
                    break Some((axum::extract::ws::close_code::RESTART, RESTARTING.to_string()));
                }
                // A quiet client is asked for a sign of life (its pong).
                if heard.elapsed() >= limits.idle_timeout / 2
                    && sink.send(WsMessage::Ping(Vec::new().into())).await.is_err()
                {
                    break None;
                }
                if let Some(w) = &conn.watching && let Some(seat) = w.seat {
                    let _ = conn.shared.db.seen(&w.id, seat.0).await;
                }
                continue;
            }
        };
        for m in out {
            let text = match m {
                Out::Message(m) => serde_json::to_string(&m).unwrap_or_default().into(),
                Out::Ready(text) => text,
            };
            if sink.send(WsMessage::Text(text)).await.is_err() {
                conn.unwatch();
                return;
            }
        }
        if refused >= MAX_REFUSED_IN_A_ROW {
            crate::logs::limit_hit("refused_in_a_row", conn.user.as_deref(), Some(conn.from));
            let _ = sink
                .send(WsMessage::Text(
                    serde_json::to_string(&error(Value::Null, "too many bad requests: goodbye"))
                        .unwrap_or_default()
                        .into(),
                ))
                .await;
            break None;
        }
    };
    if let Some((code, reason)) = goodbye {
        // Bounded: a client that reads nothing does not hold the server's
        // stop (nor this task) for long.
        let _ = tokio::time::timeout(
            Duration::from_secs(2),
            sink.send(WsMessage::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            }))),
        )
        .await;
    }
    conn.unwatch();
}

/// What a connection sends: a message, or one serialised already (a state
/// its game published for every connection of the seat).
enum Out {
    Message(Message),
    Ready(axum::extract::ws::Utf8Bytes),
}

fn error(id: Value, message: impl Into<String>) -> Message {
    Message::Error {
        id,
        message: message.into(),
    }
}

impl Conn {
    /// Answers one request: the answer, whether it was accepted, and
    /// whether it was an accepted watch.
    async fn request(&mut self, text: &str) -> (Message, bool, bool) {
        let mut value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                return (
                    error(Value::Null, format!("the message is not JSON: {e}")),
                    false,
                    false,
                );
            }
        };
        let id = value
            .as_object_mut()
            .and_then(|m| m.remove("id"))
            .unwrap_or(Value::Null);
        if !self.bucket.take(self.shared.config.rate_per_connection) {
            crate::logs::limit_hit("rate_per_connection", self.user.as_deref(), Some(self.from));
            return (error(id, "too many requests: slow down"), false, false);
        }
        if let Some(user) = &self.user {
            let rate = self.shared.config.rate_per_account;
            let mut limits = self.shared.limits.lock().unwrap_or_else(|e| e.into_inner());
            let ok = limits
                .entry(user.clone())
                .or_insert_with(|| Bucket::new(rate))
                .take(rate);
            if !ok {
                crate::logs::limit_hit("rate_per_account", Some(user), Some(self.from));
                return (
                    error(id, "too many requests from this account: slow down"),
                    false,
                    false,
                );
            }
        }
        if let Some(user) = &self.user
            && self.shared.accounts.sessions_of(user) != self.session
        {
            // Signed out everywhere from another connection of this instance.
            self.user = None;
            self.unwatch();
            return (
                error(id, "this account was signed out everywhere: log in again"),
                false,
                false,
            );
        }
        let request: Request = match serde_json::from_value(value) {
            Ok(r) => r,
            Err(e) => return (error(id, format!("not a request: {e}")), false, false),
        };
        let watch = matches!(request, Request::Watch { .. });
        match self.dispatch(request).await {
            Ok(result) => (Message::Ok { id, result }, true, watch),
            Err(message) => {
                if message.starts_with("database") {
                    logs::database_error("database error in a request", None, &message);
                }
                (error(id, message), false, false)
            }
        }
    }

    fn user(&self) -> Result<&str, String> {
        self.user
            .as_deref()
            .ok_or_else(|| "log in first (login, signup or token)".to_string())
    }

    async fn dispatch(&mut self, request: Request) -> Result<Value, String> {
        let db = self.shared.db.clone();
        let dberr = |e: db::DbError| e.to_string();
        match request {
            Request::Signup { user, password } => {
                let user = auth::sign_up(&self.shared, self.from, &user, password)
                    .await
                    .inspect_err(|e| logs::login_refused("signup", &user, self.from, e))?;
                self.logged_in(user).await
            }
            Request::Login { user, password } => {
                let user = auth::log_in(&self.shared, self.from, &user, password)
                    .await
                    .inspect_err(|e| logs::login_refused("login", &user, self.from, e))?;
                self.logged_in(user).await
            }
            Request::Token { token } => {
                let user = auth::token_user(&self.shared, &token)
                    .await
                    .inspect_err(|e| logs::login_refused("token", "", self.from, e))?;
                self.session = self.shared.accounts.sessions_of(&user);
                self.user = Some(user.clone());
                Ok(json!({ "user": user }))
            }
            Request::SignOutEverywhere {} => {
                let user = self.user()?.to_string();
                let answer = auth::sign_out_everywhere(&self.shared, &user).await?;
                self.session = self.shared.accounts.sessions_of(&user);
                Ok(answer)
            }
            Request::LogOut { token } => {
                // Only the account's own token: a connection cannot log
                // another account out.
                let user = self.user()?.to_string();
                let revoked = db.revoke_token(&user, &token).await.map_err(dberr)?;
                self.user = None;
                Ok(json!({ "user": user, "revoked": revoked }))
            }
            Request::Variants {} => Ok(json!(crate::installed(&self.shared.config.variants))),
            Request::Lobby {} => {
                let user = self.user()?.to_string();
                let mut games = Vec::new();
                let rows = db
                    .lobby(&user, LOBBY_OWN, LOBBY_PER_CREATOR, LOBBY_OTHERS)
                    .await
                    .map_err(dberr)?;
                for row in rows {
                    let seats = db.seats(&row.id).await.map_err(dberr)?;
                    games.push(summary(row, seats));
                }
                Ok(json!(games))
            }
            Request::Create {
                variant,
                options,
                seats,
                timeout_secs,
            } => {
                let user = self.user()?.to_string();
                self.create(user, variant, options, seats, timeout_secs)
                    .await
            }
            Request::Join { game, seat } => {
                let user = self.user()?.to_string();
                let row = db
                    .game(&game)
                    .await
                    .map_err(dberr)?
                    .ok_or_else(|| format!("there is no game {game}"))?;
                let seats = db.seats(&game).await.map_err(dberr)?;
                if let Some(s) = seats.iter().find(|s| s.user.as_deref() == Some(&user)) {
                    // Joined already (a reconnect): the same seat.
                    return Ok(json!({ "game": game, "seat": s.seat }));
                }
                if row.status != db::OPEN {
                    return Err(format!(
                        "game {game} is {}: its seats are taken; watch it instead",
                        row.status
                    ));
                }
                let _one_at_a_time = self.shared.create_lock.lock().await;
                let most = self.shared.config.limits.games_per_account;
                if db.games_of(&user).await.map_err(dberr)? >= most as i64 {
                    logs::limit_hit("games_per_account", Some(&user), Some(self.from));
                    return Err(too_many_games(most));
                }
                let taken = db
                    .take_seat(&game, &user, seat)
                    .await
                    .map_err(dberr)?
                    .ok_or("no such free seat in this game")?;
                start_if_full(&self.shared, &game).await?;
                Ok(json!({ "game": game, "seat": taken }))
            }
            Request::Leave { game } => {
                let user = self.user()?.to_string();
                let row = db
                    .game(&game)
                    .await
                    .map_err(dberr)?
                    .ok_or_else(|| format!("there is no game {game}"))?;
                let left = if row.status == db::OPEN {
                    db.free_seat(&game, &user).await.map_err(dberr)?
                } else {
                    // A seat of a game under way goes on, played by a computer.
                    let left = db.seat_to_computer(&game, &user).await.map_err(dberr)?;
                    if left {
                        let _ = self.shared.game(&game).tx.send(Cmd::Refresh);
                    }
                    left
                };
                if !left {
                    return Err(format!("you have no seat in game {game}"));
                }
                if self.watching.as_ref().is_some_and(|w| w.id == game) {
                    self.unwatch();
                }
                Ok(json!({ "game": game }))
            }
            Request::Watch { game, events_from } => {
                let user = self.user()?.to_string();
                let row = db
                    .game(&game)
                    .await
                    .map_err(dberr)?
                    .ok_or_else(|| format!("there is no game {game}"))?;
                if row.status == db::OPEN {
                    return Err(format!("game {game} has not started: it waits for players"));
                }
                if row.status == db::OVER && !self.shared.is_live(&game) {
                    // Nothing changes any more: one read, no actor, and
                    // nothing left watching.
                    self.unwatch();
                    let state = finished_state(&self.shared, &game, &user, events_from).await?;
                    let seat = state.seat;
                    self.finished = Some(state);
                    return Ok(json!({ "game": game, "seat": seat }));
                }
                let seats = db.seats(&game).await.map_err(dberr)?;
                let seat = seats
                    .iter()
                    .find(|s| s.user.as_deref() == Some(&user) && s.kind == "human")
                    .map(|s| PlayerId(s.seat));
                self.unwatch();
                let handle = self.shared.game(&game);
                let mut changed = handle.changed.clone();
                changed.borrow_and_update();
                if let Some(s) = seat {
                    self.shared.set_present(&game, s.0, true);
                    let _ = db.seen(&game, s.0).await;
                }
                self.watching = Some(Watching {
                    id: game.clone(),
                    seat,
                    handle,
                    changed,
                    events_from,
                    chat_from: 0,
                    primed: false,
                });
                Ok(json!({ "game": game, "seat": seat }))
            }
            Request::Act { action, expect } => {
                let user = self.user()?.to_string();
                let w = self.watching.as_ref().ok_or("watch a game first")?;
                let seat = w
                    .seat
                    .ok_or("a spectator cannot act: you have no seat in this game")?;
                let (reply, answer) = oneshot::channel();
                let sent = Instant::now();
                let game = w.id.clone();
                let who = user.clone();
                w.handle
                    .tx
                    .send(Cmd::Act {
                        user,
                        seat,
                        action,
                        expect,
                        reply,
                    })
                    .map_err(|_| "the game was closed on this server: watch it again")?;
                let done = answer
                    .await
                    .map_err(|_| "the game was closed on this server: watch it again")?;
                let latency_ms = sent.elapsed().as_millis() as u64;
                tracing::debug!(game, user = who, latency_ms, ok = done.is_ok(), "action");
                if latency_ms >= SLOW_MS {
                    tracing::info!(game, user = who, latency_ms, "slow action");
                }
                done?;
                Ok(Value::Null)
            }
            Request::Suggest { level } => {
                let user = self.user()?.to_string();
                let w = self.watching.as_ref().ok_or("watch a game first")?;
                let seat = w.seat.ok_or("a spectator has no seat to suggest for")?;
                let (reply, answer) = oneshot::channel();
                w.handle
                    .tx
                    .send(Cmd::Suggest {
                        user,
                        seat,
                        level,
                        reply,
                    })
                    .map_err(|_| "the game was closed on this server: watch it again")?;
                let action = answer
                    .await
                    .map_err(|_| "the game was closed on this server: watch it again")??;
                Ok(json!({ "action": action }))
            }
            Request::Chat { text } => {
                let user = self.user()?.to_string();
                let w = self.watching.as_ref().ok_or("watch a game first")?;
                if text.trim().is_empty() || text.len() > MAX_CHAT_BYTES {
                    return Err(format!("a chat line is 1 to {MAX_CHAT_BYTES} bytes long"));
                }
                let limits = &self.shared.config.limits;
                let now = self.shared.config.clock.now();
                if !take_per_minute(
                    &self.shared.chat_rates.0,
                    &user,
                    limits.chat_per_minute_per_account,
                    now,
                ) {
                    logs::limit_hit("chat_per_minute_per_account", Some(&user), Some(self.from));
                    return Err(format!(
                        "too many chat lines from this account: at most {} a minute",
                        limits.chat_per_minute_per_account
                    ));
                }
                if !take_per_minute(
                    &self.shared.chat_rates.1,
                    &w.id,
                    limits.chat_per_minute_per_game,
                    now,
                ) {
                    logs::limit_hit("chat_per_minute_per_game", Some(&user), Some(self.from));
                    return Err(format!(
                        "too many chat lines in this game: at most {} a minute from everybody",
                        limits.chat_per_minute_per_game
                    ));
                }
                let (reply, answer) = oneshot::channel();
                w.handle
                    .tx
                    .send(Cmd::Chat { user, text, reply })
                    .map_err(|_| "the game was closed on this server")?;
                answer
                    .await
                    .map_err(|_| "the game was closed on this server")??;
                Ok(Value::Null)
            }
            Request::MuteSpectators { mute } => {
                let user = self.user()?.to_string();
                let w = self.watching.as_ref().ok_or("watch a game first")?;
                let (reply, answer) = oneshot::channel();
                w.handle
                    .tx
                    .send(Cmd::MuteSpectators { user, mute, reply })
                    .map_err(|_| "the game was closed on this server")?;
                answer
                    .await
                    .map_err(|_| "the game was closed on this server")??;
                Ok(json!({ "game": w.id, "spectators_muted": mute }))
            }
            Request::Suspend { game } => self.set_status(game, db::RUNNING, db::SUSPENDED).await,
            Request::Resume { game } => self.set_status(game, db::SUSPENDED, db::RUNNING).await,
        }
    }

    async fn logged_in(&mut self, user: String) -> Result<Value, String> {
        let token = auth::new_session(&self.shared, &user).await?;
        self.session = self.shared.accounts.sessions_of(&user);
        self.user = Some(user.clone());
        Ok(json!({ "user": user, "token": token }))
    }

    /// Suspends or resumes a game: its creator only.
    async fn set_status(&mut self, game: String, from: &str, to: &str) -> Result<Value, String> {
        let user = self.user()?.to_string();
        let db = &self.shared.db;
        let row = db
            .game(&game)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("there is no game {game}"))?;
        if row.creator != user {
            return Err("only the game's creator may suspend or resume it".into());
        }
        if !db
            .set_status(&game, &[from], to)
            .await
            .map_err(|e| e.to_string())?
        {
            return Err(format!("game {game} is {}, not {from}", row.status));
        }
        if self.shared.is_live(&game) {
            let _ = self.shared.game(&game).tx.send(Cmd::Refresh);
        }
        Ok(json!({ "game": game, "status": to }))
    }

    async fn create(
        &mut self,
        user: String,
        variant: String,
        options: serde_json::Map<String, Value>,
        seats: Vec<String>,
        timeout_secs: u32,
    ) -> Result<Value, String> {
        let v = self.shared.variant(&variant)?;
        let options = options_from_json(&options)?;
        check_options(&v, &options)?;
        let mut rows = Vec::new();
        for (i, s) in seats.iter().enumerate() {
            let (kind, level) = match s.split_once(':') {
                None if s == "human" => ("human", ""),
                None if s == "computer" => ("computer", LEVELS[0]),
                Some(("computer", level)) if LEVELS.contains(&level) => ("computer", level),
                _ => {
                    return Err(format!(
                        "seat {i} is {s:?}: a seat is \"human\", \"computer\" or \"computer:LEVEL\" (levels: {})",
                        LEVELS.join(", ")
                    ));
                }
            };
            rows.push(SeatRow {
                seat: i as u8,
                kind: kind.into(),
                level: level.into(),
                user: None,
                last_seen: 0,
            });
        }
        // The variant says how many players a game takes: set one up now,
        // so that a game that could never start is refused at once.
        let names: Vec<String> = (0..seats.len())
            .map(|i| format!("Seat {}", i + 1))
            .collect();
        if seats.len() > 6 {
            return Err("a game has at most 6 seats".into());
        }
        Game::new(v.clone(), options.clone(), &names, 0).map_err(|e| e.0)?;
        // The account's and the server's limits, checked and the game added
        // one create at a time (on this instance).
        let _one_at_a_time = self.shared.create_lock.lock().await;
        self.may_create(&user, &rows).await?;
        if let Some(first) = rows.iter_mut().find(|s| s.kind == "human") {
            first.user = Some(user.clone());
        }
        let row = GameRow {
            id: auth::random_hex(6),
            variant: variant.clone(),
            version: v.version.clone(),
            options: serde_json::to_string(&options).map_err(|e| e.to_string())?,
            seed: self
                .shared
                .config
                .seed
                .unwrap_or_else(|| rand::random::<u32>().into()),
            creator: user,
            status: db::OPEN.into(),
            timeout_secs: timeout_secs.into(),
            players: String::new(),
            to_act: String::new(),
            created: db::now_ms(),
        };
        self.shared
            .db
            .add_game(&row, &rows)
            .await
            .map_err(|e| e.to_string())?;
        start_if_full(&self.shared, &row.id).await?;
        let status = self
            .shared
            .db
            .game(&row.id)
            .await
            .map_err(|e| e.to_string())?
            .map(|g| g.status)
            .unwrap_or_default();
        Ok(json!({ "game": row.id, "status": status }))
    }

    /// Refuses a game `user` would create with `seats` past the limits
    /// (docs/online.md, "Limits").
    async fn may_create(&self, user: &str, seats: &[SeatRow]) -> Result<(), String> {
        let db = &self.shared.db;
        let limits = &self.shared.config.limits;
        let count = |r: db::DbResult<i64>| r.map(|n| n.max(0) as usize).map_err(|e| e.to_string());
        let computers = seats.iter().filter(|s| s.kind == "computer").count();
        // The creator takes the first person's seat: the game waits for
        // players when it has another.
        let open = seats.iter().filter(|s| s.kind == "human").count() > 1;
        if count(db.games_of(user).await)? >= limits.games_per_account {
            logs::limit_hit("games_per_account", Some(user), Some(self.from));
            return Err(too_many_games(limits.games_per_account));
        }
        if computers > 0
            && count(db.computer_seats_of(user).await)? + computers
                > limits.computer_seats_per_account
        {
            logs::limit_hit("computer_seats_per_account", Some(user), Some(self.from));
            return Err(format!(
                "too many computer seats: an account's games not over may have at most {} (finish or leave one first)",
                limits.computer_seats_per_account
            ));
        }
        if open {
            if count(db.open_games(Some(user)).await)? >= limits.open_games_per_account {
                logs::limit_hit("open_games_per_account", Some(user), Some(self.from));
                return Err(format!(
                    "too many open games: an account may have at most {} waiting for players (start or leave one first)",
                    limits.open_games_per_account
                ));
            }
            if count(db.open_games(None).await)? >= limits.open_games {
                logs::limit_hit("open_games", Some(user), Some(self.from));
                return Err(format!(
                    "the server has too many open games ({}): join one, or try again later",
                    limits.open_games
                ));
            }
        }
        Ok(())
    }

    /// Pushes the watched game's state, from what this connection has not
    /// been sent yet.
    async fn push(&mut self) -> Option<Out> {
        if let Some(state) = self.finished.take() {
            return Some(Out::Message(Message::State(Box::new(state))));
        }
        let user = self.user.clone().unwrap_or_default();
        let w = self.watching.as_mut()?;
        let published = w.changed.borrow_and_update().clone();
        // The state the game published for this seat, when it follows on
        // from what this connection was sent.
        if w.primed
            && let Some(p) = published.seats.iter().find(|p| {
                Some(p.seat) == w.seat
                    && p.user == user
                    && p.events_from == w.events_from
                    && p.chat_from == w.chat_from
            })
        {
            w.events_from = p.event_count;
            w.chat_from = p.chat_count;
            return Some(Out::Ready(p.text.clone()));
        }
        let (reply, answer) = oneshot::channel();
        w.handle
            .tx
            .send(Cmd::Snapshot {
                user,
                seat: w.seat,
                events_from: w.events_from,
                chat_from: w.chat_from,
                reply,
            })
            .ok()?;
        match answer.await {
            Ok(Ok(state)) => {
                w.events_from = state.event_count;
                w.chat_from = state.chat_count;
                w.primed = true;
                Some(Out::Message(Message::State(Box::new(state))))
            }
            Ok(Err(e)) => {
                self.unwatch();
                Some(Out::Message(error(Value::Null, e)))
            }
            Err(_) => {
                self.unwatch();
                Some(Out::Message(error(
                    Value::Null,
                    "the game was closed on this server: watch it again",
                )))
            }
        }
    }

    fn unwatch(&mut self) {
        if let Some(w) = self.watching.take()
            && let Some(seat) = w.seat
        {
            self.shared.set_present(&w.id, seat.0, false);
        }
    }
}

/// Starts an open game whose human seats are all taken: the players are
/// named after their users, computers "Computer N".
async fn start_if_full(shared: &Arc<Shared>, game: &str) -> Result<(), String> {
    let seats = shared.db.seats(game).await.map_err(|e| e.to_string())?;
    if seats.iter().any(|s| s.kind == "human" && s.user.is_none()) {
        return Ok(());
    }
    let names: Vec<String> = seats
        .iter()
        .map(|s| match &s.user {
            Some(u) if s.kind == "human" => u.clone(),
            _ => format!("Computer {}", s.seat + 1),
        })
        .collect();
    let players = serde_json::to_string(&names).map_err(|e| e.to_string())?;
    let started = shared
        .db
        .start_game(game, &players)
        .await
        .map_err(|e| e.to_string())?;
    if started {
        // Its computer seats may have the first move.
        shared.game(game);
    }
    Ok(())
}

/// Finished games' states kept (each as a seat or a spectator sees it,
/// from its first event), so that watching one again replays nothing.
const FINISHED_KEPT: usize = 16;

/// A game over as `user` sees it (as his seat, or as a spectator), with
/// the events from `events_from`: kept from an earlier watch, or read and
/// replayed once (two at most at once, each on a blocking thread, so that
/// many watches cost neither many threads nor many replays).
async fn finished_state(
    shared: &Arc<Shared>,
    game: &str,
    user: &str,
    events_from: usize,
) -> Result<GameState, String> {
    let seats = shared.db.seats(game).await.map_err(|e| e.to_string())?;
    let seat = seats
        .iter()
        .find(|s| s.kind == "human" && s.user.as_deref() == Some(user))
        .map(|s| PlayerId(s.seat));
    let key = (game.to_string(), seat.map(|p| p.0));
    let cached = || {
        shared
            .finished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned()
    };
    let mut state = match cached() {
        Some(s) => s,
        None => {
            let _one_of_few = shared
                .finished_reads
                .acquire()
                .await
                .map_err(|e| e.to_string())?;
            match cached() {
                Some(s) => s,
                None => {
                    let (sh, id) = (shared.clone(), game.to_string());
                    let state =
                        tokio::task::spawn_blocking(move || crate::actor::finished(&sh, &id, seat))
                            .await
                            .map_err(|e| e.to_string())??;
                    let mut kept = shared.finished.lock().unwrap_or_else(|e| e.into_inner());
                    if kept.len() >= FINISHED_KEPT {
                        kept.clear();
                    }
                    kept.insert(key.clone(), state.clone());
                    state
                }
            }
        }
    };
    state.events.retain(|(i, _)| *i >= events_from);
    Ok(state)
}

fn too_many_games(most: usize) -> String {
    format!(
        "too many games: an account may be in at most {most} games not over (finish or leave one first)"
    )
}

fn summary(row: GameRow, seats: Vec<SeatRow>) -> GameSummary {
    GameSummary {
        id: row.id,
        variant: row.variant,
        creator: row.creator,
        status: row.status,
        seats: seats
            .into_iter()
            .map(|s| SeatSummary {
                seat: s.seat,
                kind: s.kind,
                user: s.user,
            })
            .collect(),
        to_act: row
            .to_act
            .split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
        created_ms: row.created,
    }
}
