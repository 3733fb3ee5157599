//! One live game: an actor on its own OS thread, the only owner of the
//! engine's `Game` (which is not `Send`), fed by a channel.
//!
//! Every change goes through the database first in order: an action is
//! applied, then stored at the next index of the log, whose primary key lets
//! only one writer store each index. A writer that loses (another instance
//! stored first) rebuilds its game from the log, so a game is never forked.
//! The instance holding the game's lease also plays its computer seats and
//! the seats of absent players past the creator's timeout.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use titan_core::format::OptionValue;
use titan_core::game::view::{event_seen_by, view};
use titan_core::game::{Action, Event, Game, PlayerId};
use titan_core::model::Variant;
use tokio::sync::{oneshot, watch};

use crate::Shared;
use crate::db::{self, GameRow, SeatRow, now_ms};
use crate::protocol::{BattleState, GameState};

/// What an actor is asked.
pub enum Cmd {
    /// The game as `seat` (None: a spectator) sees it, with events and chat
    /// from the given indices.
    Snapshot {
        /// The user watching, and the seat he held when he began to watch.
        user: String,
        seat: Option<PlayerId>,
        events_from: usize,
        chat_from: usize,
        reply: oneshot::Sender<Result<GameState, String>>,
    },
    Act {
        user: String,
        seat: PlayerId,
        action: serde_json::Value,
        expect: usize,
        reply: oneshot::Sender<Result<(), String>>,
    },
    Chat {
        user: String,
        text: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// A player mutes or unmutes the spectators' chat.
    MuteSpectators {
        user: String,
        mute: bool,
        reply: oneshot::Sender<Result<(), String>>,
    },
    /// The server's computer player's choice for `seat` at `level`.
    Suggest {
        user: String,
        seat: PlayerId,
        level: String,
        reply: oneshot::Sender<Result<Option<Action>, String>>,
    },
    /// Seats or status changed in the database: read them again.
    Refresh,
    /// Other instances stored actions or chat lines: read them.
    News,
}

/// What a game publishes to its watchers on this instance after each
/// change: the new state of each seat watched here, made and serialised
/// once, for the connections that were sent everything before it. Others
/// (a spectator, a connection behind) ask for theirs ([`Cmd::Snapshot`]).
#[derive(Default)]
pub struct Published {
    pub seats: Vec<SeatPush>,
}

/// One seat's state pushed after a change.
pub struct SeatPush {
    pub seat: PlayerId,
    /// The user holding the seat: the only one it is for.
    pub user: String,
    /// The events and chat lines it starts from (what its connections were
    /// sent before), and those it brings them to.
    pub events_from: usize,
    pub chat_from: usize,
    pub event_count: usize,
    pub chat_count: usize,
    /// The [`crate::protocol::Message::State`] as sent.
    pub text: axum::extract::ws::Utf8Bytes,
}

/// The live state of one game.
struct Live {
    id: String,
    row: GameRow,
    seats: Vec<SeatRow>,
    variant: Arc<Variant>,
    game: Game,
    /// Every event since the game began, unfiltered.
    log: Vec<Event>,
    /// The last chat lines (at most [`crate::Limits::chat_history`]), the
    /// first of them line `chat_base` of the game.
    chat: Vec<(String, String)>,
    chat_base: usize,
    spectators_muted: bool,
    /// When each seat last became one with a decision to make.
    waiting_since: BTreeMap<u8, Instant>,
    leased_until: Option<Instant>,
    /// When the status and seats were last read from the database.
    refreshed: Instant,
    /// The game was started again from its log and the log could not be
    /// read (the database down): nothing is shown or played from it until
    /// a rebuild succeeds.
    broken: bool,
    /// The progress (who is to act, whether over) last stored for the
    /// lobby: stored again only when it changes.
    progress: Option<(String, bool)>,
}

/// What a request to a game that cannot be read now is answered (a
/// "database" error: clients wait and try again).
const UNREADABLE: &str = "database: the game cannot be read now: retry";

/// Plain JSON options (true/false, integers, strings) as rule options.
pub fn options_from_json(
    options: &serde_json::Map<String, serde_json::Value>,
) -> Result<BTreeMap<String, OptionValue>, String> {
    options
        .iter()
        .map(|(k, v)| {
            let value = match v {
                serde_json::Value::Bool(b) => OptionValue::Bool(*b),
                serde_json::Value::String(s) => OptionValue::Text(s.clone()),
                serde_json::Value::Number(n) => OptionValue::Int(
                    n.as_i64()
                        .ok_or_else(|| format!("option {k:?} is not an integer: {n}"))?,
                ),
                other => return Err(format!("option {k:?} cannot be {other}")),
            };
            Ok((k.clone(), value))
        })
        .collect()
}

/// Runs the actor of game `id` until its channel closes or the server stops.
pub fn run(
    shared: Arc<Shared>,
    id: String,
    rx: Receiver<Cmd>,
    changed: watch::Sender<Arc<Published>>,
) {
    let mut live = match load(&shared, &id) {
        Ok(live) => live,
        Err(e) => {
            // Every waiting request gets the reason.
            if e.starts_with("database") {
                crate::logs::database_error("the game cannot be loaded", Some(&id), &e);
            } else {
                tracing::error!(game = %id, error = %e, "the game cannot be loaded");
            }
            shared.forget(&id);
            while let Ok(cmd) = rx.try_recv() {
                refuse(cmd, &e);
            }
            return;
        }
    };
    let poll = shared.config.poll;
    shared.set_known(&id, live.game.history.len(), live.chat_count());
    let mut last_tick = Instant::now();
    let mut idle_since = Instant::now();
    tick(&shared, &mut live);
    loop {
        if shared.stopping() {
            if live.leased_until.is_some() && !shared.killed() {
                let _ = shared.rt.block_on(shared.db.release(&id, &shared.instance));
            }
            break;
        }
        // Nobody watches here (the map's handle holds the only receiver)
        // and no computer may have to play: the actor ends; a watch starts
        // it again, and the sweeper when a computer has to play.
        if changed.receiver_count() > 1 {
            idle_since = Instant::now();
        } else if idle_since.elapsed() > shared.config.idle && !needs_driving(&live) {
            shared.forget(&id);
            if live.leased_until.is_some() {
                let _ = shared.rt.block_on(shared.db.release(&id, &shared.instance));
            }
            while let Ok(cmd) = rx.try_recv() {
                refuse(cmd, "the game was closed on this server: watch it again");
            }
            return;
        }
        let changed_before = (
            live.game.history.len(),
            live.chat_count(),
            live.row.status.clone(),
        );
        let sent_before = (live.log.len(), live.chat_count());
        let wait = poll.saturating_sub(last_tick.elapsed());
        match rx.recv_timeout(wait) {
            Ok(cmd) => {
                handle(&shared, &mut live, cmd);
                // A person's move may hand the turn to a computer.
                if live.leased_until.is_some() && live.row.status == db::RUNNING {
                    drive(&shared, &mut live);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if last_tick.elapsed() >= poll {
            tick(&shared, &mut live);
            last_tick = Instant::now();
        }
        if changed_before
            != (
                live.game.history.len(),
                live.chat_count(),
                live.row.status.clone(),
            )
        {
            shared.set_known(&id, live.game.history.len(), live.chat_count());
            let _ = changed.send(Arc::new(publish(&shared, &live, sent_before)));
        }
    }
    shared.forget(&id);
}

fn refuse(cmd: Cmd, why: &str) {
    match cmd {
        Cmd::Snapshot { reply, .. } => {
            let _ = reply.send(Err(why.to_string()));
        }
        Cmd::Act { reply, .. } | Cmd::Chat { reply, .. } | Cmd::MuteSpectators { reply, .. } => {
            let _ = reply.send(Err(why.to_string()));
        }
        Cmd::Suggest { reply, .. } => {
            let _ = reply.send(Err(why.to_string()));
        }
        Cmd::Refresh | Cmd::News => {}
    }
}

/// The computer player's choice for `seat` at `level`, from what that seat
/// may know (see [`computer_move`]).
fn suggest(
    shared: &Shared,
    live: &Live,
    seat: PlayerId,
    level: &str,
) -> Result<Option<Action>, String> {
    if !crate::computer::LEVELS.contains(&level) {
        return Err(format!(
            "there is no computer level {level:?} (levels: {})",
            crate::computer::LEVELS.join(", ")
        ));
    }
    if !live.game.to_act().contains(&seat) {
        return Ok(None);
    }
    // Seeded by the game, the action's index and the seat: asked again, the
    // same answer.
    let seed = live.row.seed ^ ((live.game.history.len() as u64) << 20) ^ u64::from(seat.0);
    Ok(shared.computers.play(level, &live.game, seat, seed))
}

/// Reads a game and replays its log.
fn load(shared: &Shared, id: &str) -> Result<Live, String> {
    let mut live = read(shared, id)?;
    progress(shared, &mut live);
    Ok(live)
}

/// A game that is over as `seat` (None: a spectator) sees it, from its
/// first event, read once from the database with no actor started
/// (nothing in it changes any more): what a watch of it is sent. Blocks:
/// call it off the async runtime.
pub fn finished(shared: &Shared, id: &str, seat: Option<PlayerId>) -> Result<GameState, String> {
    let live = read(shared, id)?;
    Ok(snapshot(&live, seat, 0, 0))
}

/// Reads a game and replays its log, changing nothing.
fn read(shared: &Shared, id: &str) -> Result<Live, String> {
    let db = &shared.db;
    let row = shared
        .rt
        .block_on(db.game(id))
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("there is no game {id}"))?;
    if row.status == db::OPEN {
        return Err(format!("game {id} has not started: it waits for players"));
    }
    let seats = shared
        .rt
        .block_on(db.seats(id))
        .map_err(|e| e.to_string())?;
    let variant = shared.variant(&row.variant)?;
    if variant.version != row.version {
        return Err(format!(
            "game {id} was made with {} version {}, but this server has version {}",
            row.variant, row.version, variant.version
        ));
    }
    let (game, log) = start(&variant, &row)?;
    let (chat_base, chat) = shared
        .rt
        .block_on(db.chat_tail(id, shared.config.limits.chat_history))
        .map_err(|e| e.to_string())?;
    let spectators_muted = shared
        .rt
        .block_on(db.spectators_muted(id))
        .map_err(|e| e.to_string())?;
    let mut live = Live {
        id: id.to_string(),
        row,
        seats,
        variant,
        game,
        log,
        chat,
        chat_base,
        spectators_muted,
        waiting_since: BTreeMap::new(),
        leased_until: None,
        refreshed: Instant::now(),
        broken: false,
        progress: None,
    };
    catch_up(shared, &mut live)?;
    Ok(live)
}

/// A new game from the stored start (before any action).
fn start(variant: &Arc<Variant>, row: &GameRow) -> Result<(Game, Vec<Event>), String> {
    let options: BTreeMap<String, OptionValue> =
        serde_json::from_str(&row.options).map_err(|e| format!("stored options: {e}"))?;
    let players: Vec<String> =
        serde_json::from_str(&row.players).map_err(|e| format!("stored players: {e}"))?;
    Game::new(variant.clone(), options, &players, row.seed).map_err(|e| e.0)
}

/// Applies the actions stored since this game's last one.
fn catch_up(shared: &Shared, live: &mut Live) -> Result<(), String> {
    let stored = shared
        .rt
        .block_on(shared.db.actions(&live.id, live.game.history.len()))
        .map_err(|e| e.to_string())?;
    for (player, text) in stored {
        let n = live.game.history.len();
        let action: Action = serde_json::from_str(&text)
            .map_err(|e| format!("stored action {} does not read: {e}", n + 1))?;
        let events = live
            .game
            .apply(PlayerId(player), &action)
            .map_err(|e| format!("stored action {} is refused on replay: {e}", n + 1))?;
        live.log.extend(events);
    }
    Ok(())
}

/// Starts the game again from the log (after losing a race to store).
fn rebuild(shared: &Shared, live: &mut Live) {
    live.broken = true;
    match start(&live.variant, &live.row) {
        Ok((game, log)) => {
            live.game = game;
            live.log = log;
            match catch_up(shared, live) {
                Ok(()) => live.broken = false,
                Err(e) if e.starts_with("database") => {
                    crate::logs::database_error("the game cannot be replayed", Some(&live.id), &e)
                }
                Err(e) => {
                    tracing::error!(game = %live.id, error = %e, "the game cannot be replayed")
                }
            }
        }
        Err(e) => tracing::error!(game = %live.id, error = %e, "the game cannot be started"),
    }
}

fn handle(shared: &Shared, live: &mut Live, cmd: Cmd) {
    if live.broken {
        rebuild(shared, live);
        if live.broken {
            return refuse(cmd, UNREADABLE);
        }
    }
    match cmd {
        Cmd::Snapshot {
            user,
            seat,
            events_from,
            chat_from,
            reply,
        } => {
            // A seat its player left (to a computer) is watched as a
            // spectator from his other connections.
            let seat = seat.filter(|&s| holds(live, &user, s));
            let _ = reply.send(Ok(snapshot(live, seat, events_from, chat_from)));
        }
        Cmd::Act {
            user,
            seat,
            action,
            expect,
            reply,
        } => {
            let _ = reply.send(act(shared, live, &user, seat, &action, expect));
        }
        Cmd::Chat { user, text, reply } => {
            let _ = reply.send(chat(shared, live, &user, &text));
        }
        Cmd::MuteSpectators { user, mute, reply } => {
            let result = if live.seats.iter().any(|s| s.user.as_deref() == Some(&user)) {
                shared
                    .rt
                    .block_on(shared.db.set_spectators_muted(&live.id, mute))
                    .map(|()| live.spectators_muted = mute)
                    .map_err(|e| e.to_string())
            } else {
                Err("only the game's players may mute its spectators".into())
            };
            let _ = reply.send(result);
        }
        Cmd::Suggest {
            user,
            seat,
            level,
            reply,
        } => {
            let result = if holds(live, &user, seat) {
                suggest(shared, live, seat, &level)
            } else {
                Err(LEFT.into())
            };
            let _ = reply.send(result);
        }
        Cmd::Refresh => refresh(shared, live),
        Cmd::News => news(shared, live),
    }
}

const LEFT: &str = "you left this seat: a computer plays it now";

/// Whether `user` still plays `seat` himself: a connection's seat is the
/// one he held when it began to watch, and he may have left it since (from
/// another connection).
fn holds(live: &Live, user: &str, seat: PlayerId) -> bool {
    live.seats
        .iter()
        .any(|s| s.seat == seat.0 && s.kind == "human" && s.user.as_deref() == Some(user))
}

fn refresh(shared: &Shared, live: &mut Live) {
    live.refreshed = Instant::now();
    if let Ok(Some(row)) = shared.rt.block_on(shared.db.game(&live.id)) {
        live.row.status = row.status;
    }
    if let Ok(seats) = shared.rt.block_on(shared.db.seats(&live.id)) {
        live.seats = seats;
    }
    if let Ok(muted) = shared.rt.block_on(shared.db.spectators_muted(&live.id)) {
        live.spectators_muted = muted;
    }
}

impl Live {
    /// Chat lines since the game began.
    fn chat_count(&self) -> usize {
        self.chat_base + self.chat.len()
    }

    /// Adds chat lines (after the last), keeping the last
    /// [`crate::Limits::chat_history`].
    fn add_chat(&mut self, lines: Vec<(String, String)>, keep: usize) {
        self.chat.extend(lines);
        let over = self.chat.len().saturating_sub(keep);
        if over > 0 {
            self.chat.drain(..over);
            self.chat_base += over;
        }
    }
}

/// The state of each seat watched on this instance by its holder, from
/// the events and chat lines `from` (those before the change).
fn publish(shared: &Shared, live: &Live, from: (usize, usize)) -> Published {
    let seats = live
        .seats
        .iter()
        .filter(|s| s.kind == "human" && shared.present(&live.id, s.seat))
        .filter_map(|s| {
            let seat = PlayerId(s.seat);
            let state = snapshot(live, Some(seat), from.0, from.1);
            let (event_count, chat_count) = (state.event_count, state.chat_count);
            let text =
                serde_json::to_string(&crate::protocol::Message::State(Box::new(state))).ok()?;
            Some(SeatPush {
                seat,
                user: s.user.clone()?,
                events_from: from.0,
                chat_from: from.1,
                event_count,
                chat_count,
                text: text.into(),
            })
        })
        .collect();
    Published { seats }
}

/// The game as `seat` sees it.
fn snapshot(
    live: &Live,
    seat: Option<PlayerId>,
    events_from: usize,
    chat_from: usize,
) -> GameState {
    let me = seat.unwrap_or(crate::protocol::SPECTATOR);
    let game = &live.game;
    let legal = match seat {
        Some(p) if live.row.status == db::RUNNING => game.legal_actions(p),
        _ => Vec::new(),
    };
    GameState {
        game: live.id.clone(),
        variant: live.row.variant.clone(),
        version: live.row.version.clone(),
        status: live.row.status.clone(),
        seat,
        actions: game.history.len(),
        event_count: live.log.len(),
        view: view(game, me),
        to_act: game.to_act(),
        events: live
            .log
            .iter()
            .enumerate()
            .skip(events_from)
            .filter(|(_, e)| event_seen_by(e, me))
            .map(|(i, e)| (i, e.clone()))
            .collect(),
        battle: battle(game, me),
        chat: live
            .chat
            .iter()
            .skip(chat_from.saturating_sub(live.chat_base))
            .cloned()
            .collect(),
        chat_count: live.chat_count(),
        strikes: previews(game, &legal, false)
            .into_iter()
            .filter_map(|(u, t)| Some((u, t, game.battle()?.strike_report(u, t).ok()?)))
            .collect(),
        sights: previews(game, &legal, true)
            .into_iter()
            .filter_map(|(u, t)| Some((u, t, game.battle()?.line_of_sight(u, t).ok()?)))
            .collect(),
        legal,
    }
}

/// The (striker, target) pairs of the strikes (or rangestrikes) among a
/// seat's legal actions. A battle hides nothing: the previews tell the
/// seat no more than the battleland shows.
fn previews(game: &Game, legal: &[Action], ranged: bool) -> Vec<(u8, u8)> {
    if game.battle().is_none() {
        return Vec::new();
    }
    let mut pairs: Vec<(u8, u8)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Battle {
                battle: titan_core::battle::Action::Strike { unit, target, .. },
            } if !ranged => Some((*unit, *target)),
            Action::Battle {
                battle: titan_core::battle::Action::Rangestrike { unit, target },
            } if ranged => Some((*unit, *target)),
            _ => None,
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The battle for an engaged player, as the game window's local session
/// gives it: the defender does not learn the attacker's summonable legions.
fn battle(game: &Game, me: PlayerId) -> Option<BattleState> {
    let seat = game.battle_seat(me)?;
    Some(BattleState {
        view: seat.view,
        request: seat.request,
        side: seat.side,
    })
}

/// An action by a seat: checked against the turn, the rules and the count
/// of actions the client saw; stored, then shown.
fn act(
    shared: &Shared,
    live: &mut Live,
    user: &str,
    seat: PlayerId,
    action: &serde_json::Value,
    expect: usize,
) -> Result<(), String> {
    // The status, the seats and the log as this instance knows them (a
    // leave or a suspend here refreshes them at once). A change through
    // another instance is caught when storing, which checks them again in
    // the same statement; and a refusal is decided by the database: what
    // this instance knew may be old.
    if !holds(live, user, seat)
        || live.row.status != db::RUNNING
        || expect != live.game.history.len()
    {
        refresh(shared, live);
        catch_up(shared, live)?;
    }
    if !holds(live, user, seat) {
        return Err(LEFT.into());
    }
    if live.row.status != db::RUNNING {
        return Err(format!("the game is {}: no actions now", live.row.status));
    }
    let n = live.game.history.len();
    if expect != n {
        return Err(format!(
            "stale action: the game has had {n} actions, the client had seen {expect} (a repeated or late message); nothing was done"
        ));
    }
    let action: Action = serde_json::from_value(action.clone())
        .map_err(|e| format!("the action does not read: {e}"))?;
    // Some actions (conceding the game) are open to a player whose turn it
    // is not; the engine says which.
    if !live.game.to_act().contains(&seat) && !live.game.legal_actions(seat).contains(&action) {
        return Err("it is not your turn: your seat has no decision to make".into());
    }
    apply_and_store(shared, live, seat, &action, Some(user))
}

/// Applies an action of `seat` (played by `user`, or by a computer: None)
/// and stores it; it stands only once stored. A store refused (another
/// instance stored that index first, or suspended the game, or the player
/// left the seat there) brings the game and its seats up to date from the
/// database and says which.
fn apply_and_store(
    shared: &Shared,
    live: &mut Live,
    seat: PlayerId,
    action: &Action,
    user: Option<&str>,
) -> Result<(), String> {
    let n = live.game.history.len();
    let events = live
        .game
        .apply(seat, action)
        .map_err(|e| format!("refused: {e}"))?;
    let text = serde_json::to_string(action).map_err(|e| e.to_string())?;
    let now = progress_now(live);
    let new = db::NewAction {
        game: live.id.clone(),
        idx: n,
        player: seat.0,
        action: text,
        user: user.map(String::from),
        progress: (live.progress.as_ref() != Some(&now)).then(|| now.clone()),
    };
    match shared.rt.block_on(shared.db.store_action(new)) {
        Ok(true) => {
            live.log.extend(events);
            if now.1 {
                live.row.status = db::OVER.into();
            }
            live.progress = Some(now);
            Ok(())
        }
        Ok(false) => {
            refresh(shared, live);
            rebuild(shared, live);
            let had = live.game.history.len();
            Err(if user.is_some_and(|u| !holds(live, u, seat)) {
                LEFT.into()
            } else if live.row.status != db::RUNNING {
                format!("the game is {}: no actions now", live.row.status)
            } else if had != n {
                format!(
                    "stale action: the game has had {had} actions, the client had seen {n} (a repeated or late message); nothing was done"
                )
            } else {
                "another server stored an action first: the game has moved on; nothing was done"
                    .into()
            })
        }
        Err(e) => {
            rebuild(shared, live);
            Err(format!("the action could not be stored: {e}"))
        }
    }
}

/// Who is to act (names, comma-separated) and whether the game is over.
fn progress_now(live: &Live) -> (String, bool) {
    let to_act = live.game.to_act();
    let names: Vec<&str> = to_act
        .iter()
        .filter_map(|p| live.game.state.players.get(p.0 as usize))
        .map(|p| p.name.as_str())
        .collect();
    let over = live.game.state.outcome.is_some() || to_act.is_empty();
    (names.join(","), over)
}

/// Records in the games table who is to act and whether the game is over
/// (for the lobby), when that changed.
fn progress(shared: &Shared, live: &mut Live) {
    let now = progress_now(live);
    if now.1 {
        live.row.status = db::OVER.into();
    }
    if live.progress.as_ref() == Some(&now) {
        return;
    }
    if shared
        .rt
        .block_on(shared.db.set_progress(&live.id, &now.0, now.1))
        .is_ok()
    {
        live.progress = Some(now);
    }
}

fn chat(shared: &Shared, live: &mut Live, user: &str, text: &str) -> Result<(), String> {
    let keep = shared.config.limits.chat_history;
    if live.row.status == db::OVER {
        return Err("the game is over: its chat is closed".into());
    }
    let player = live.seats.iter().any(|s| s.user.as_deref() == Some(user));
    if live.spectators_muted && !player {
        return Err("the players have muted the spectators' chat in this game".into());
    }
    for _ in 0..3 {
        let more = shared
            .rt
            .block_on(shared.db.chat(&live.id, live.chat_count()))
            .map_err(|e| e.to_string())?;
        live.add_chat(more, keep);
        let stored = shared
            .rt
            .block_on(
                shared
                    .db
                    .append_chat(&live.id, live.chat_count(), user, text),
            )
            .map_err(|e| e.to_string())?;
        if stored {
            live.add_chat(vec![(user.to_string(), text.to_string())], keep);
            return Ok(());
        }
    }
    Err("the chat is busy; try again".into())
}

/// Other instances' actions and chat lines.
fn news(shared: &Shared, live: &mut Live) {
    // A broken game is rebuilt at its next tick, from the whole log.
    if live.broken {
        return;
    }
    if let Err(e) = catch_up(shared, live) {
        crate::logs::database_error("cannot catch up with the stored log", Some(&live.id), &e);
        return;
    }
    if let Ok(more) = shared
        .rt
        .block_on(shared.db.chat(&live.id, live.chat_count()))
    {
        live.add_chat(more, shared.config.limits.chat_history);
    }
}

/// Between requests: catch up with other instances, keep the lease, and
/// play the seats a computer plays.
fn tick(shared: &Shared, live: &mut Live) {
    let now = Instant::now();
    if live.broken {
        rebuild(shared, live);
        if live.broken {
            return;
        }
    }
    // Other instances' actions and chat come by [`Cmd::News`], from the
    // server's one look for all its games each poll (`crate::poll`).
    let lease = shared.config.lease;
    if live.leased_until.is_none_or(|t| t < now + lease / 2) {
        // Whose it was, to log a take-over (read only while not holding it).
        let before = if live.leased_until.is_none() {
            shared
                .rt
                .block_on(shared.db.lease_holder(&live.id))
                .ok()
                .flatten()
        } else {
            None
        };
        let until = now_ms() + lease.as_millis() as i64;
        match shared
            .rt
            .block_on(shared.db.lease(&live.id, &shared.instance, until))
        {
            Ok(true) => {
                if let Some((from, until)) = before.filter(|(o, _)| *o != shared.instance) {
                    tracing::warn!(
                        game = %live.id,
                        from = %from,
                        instance = %shared.instance,
                        expired_ms_ago = now_ms() - until,
                        "lease taken over"
                    );
                }
                // Refresh seats when the lease is renewed: joins, leaves and
                // status changes made through other instances.
                refresh(shared, live);
                live.leased_until = Some(now + lease);
            }
            Ok(false) => {
                live.leased_until = None;
                // Without the lease too, as often: a suspend, resume or
                // leave through another instance reaches this one's clients.
                if live.refreshed.elapsed() >= lease / 2 {
                    refresh(shared, live);
                }
            }
            Err(e) => {
                crate::logs::database_error(
                    "cannot renew the lease",
                    Some(&live.id),
                    &e.to_string(),
                );
                live.leased_until = None;
            }
        }
    }
    let to_act = live.game.to_act();
    live.waiting_since
        .retain(|s, _| to_act.contains(&PlayerId(*s)));
    for p in &to_act {
        live.waiting_since.entry(p.0).or_insert(now);
    }
    if live.leased_until.is_none() || live.row.status != db::RUNNING {
        return;
    }
    drive(shared, live);
}

/// Plays the computer seats and the seats of absent players whose time is
/// up, a bounded number of actions per tick so requests are not kept
/// waiting.
fn drive(shared: &Shared, live: &mut Live) {
    if live.broken {
        return;
    }
    for _ in 0..shared.config.computer_actions_per_tick {
        let Some((seat, level)) = live
            .game
            .to_act()
            .into_iter()
            .find_map(|p| computer_level(shared, live, p).map(|l| (p, l)))
        else {
            return;
        };
        // Seeded by the game and the action's index: a rerun chooses alike.
        let seed = live.row.seed ^ ((live.game.history.len() as u64) << 20);
        let Some(action) = shared.computers.play(&level, &live.game, seat, seed) else {
            return;
        };
        if let Err(e) = apply_and_store(shared, live, seat, &action, None) {
            crate::logs::database_error("a computer's move was not stored", Some(&live.id), &e);
            return;
        }
        if live.row.status != db::RUNNING {
            return;
        }
    }
}

/// Whether a computer may have to play in this game: it is running and has
/// a computer seat or a timeout for absent players.
fn needs_driving(live: &Live) -> bool {
    live.row.status == db::RUNNING
        && (live.row.timeout_secs > 0 || live.seats.iter().any(|s| s.kind == "computer"))
}

/// The level of the computer playing `seat` now, if one does: a computer
/// seat, or a person's seat absent past the game's timeout.
fn computer_level(shared: &Shared, live: &Live, seat: PlayerId) -> Option<String> {
    let s = live.seats.iter().find(|s| s.seat == seat.0)?;
    if s.kind == "computer" {
        return Some(s.level.clone());
    }
    if live.row.timeout_secs <= 0 {
        return None;
    }
    let timeout = Duration::from_secs(live.row.timeout_secs as u64);
    let waited = live
        .waiting_since
        .get(&seat.0)
        .is_some_and(|t| t.elapsed() >= timeout);
    let present =
        shared.present(&live.id, seat.0) || now_ms() - s.last_seen < timeout.as_millis() as i64;
    (waited && !present).then(|| "random".to_string())
}
