//! `titan bot`: a client that signs in, creates or joins a game and plays
//! its seat with a computer player until the game ends. Used by the tests
//! and the load test.

use std::time::{Duration, Instant};

use titan_core::game::Action;
use titan_core::rng::GameRng;

use crate::client::Client;
use crate::computer::computer_choice;
use crate::protocol::{GameState, Request};

/// What a bot does.
#[derive(Debug, Clone)]
pub struct BotConfig {
    pub server: String,
    pub user: String,
    pub password: String,
    pub game: BotGame,
    pub level: String,
    /// Gives up when nothing happens for this long.
    pub patience: Duration,
    /// Stops (without finishing) after this many own actions, if set.
    pub max_actions: Option<usize>,
    /// Stops (without finishing) at the first state where it is this
    /// seat's turn and this says so (the tests' "drop the client here").
    pub stop_at: Option<fn(&GameState) -> bool>,
    /// Keeps every state pushed, in [`BotReport::states`] (for tests).
    pub record: bool,
}

#[derive(Debug, Clone)]
pub enum BotGame {
    /// Creates a game of a variant with `seats` seats for people.
    Create {
        variant: String,
        seats: usize,
    },
    Join {
        game: String,
    },
}

/// How a bot's game went.
#[derive(Debug, Clone, Default)]
pub struct BotReport {
    pub game: String,
    pub seat: u8,
    pub actions: usize,
    /// Latency of each own action, from sending it to its answer.
    pub latencies: Vec<Duration>,
    pub finished: bool,
    /// The final state seen.
    pub last: Option<GameState>,
    /// Every state pushed, when recording.
    pub states: Vec<GameState>,
    /// The actions the server accepted, by their index in the log.
    pub accepted: Vec<(usize, serde_json::Value)>,
    /// Why each lost connection ended, as the client saw it (a server
    /// that stops says "server restarting").
    pub lost: Vec<String>,
}

/// Creates or joins the game and waits until it starts; returns the client
/// (logged in) and the game's id.
pub fn enter(config: &BotConfig, on_game: impl FnOnce(&str)) -> Result<(Client, String), String> {
    let mut client = Client::connect(&config.server)?;
    client.sign_in(&config.user, &config.password)?;
    let game = match &config.game {
        BotGame::Create { variant, seats } => {
            let answer = client.request(&Request::Create {
                variant: variant.clone(),
                options: Default::default(),
                seats: vec!["human".to_string(); *seats],
                timeout_secs: 0,
            })?;
            answer["game"].as_str().unwrap_or_default().to_string()
        }
        BotGame::Join { game } => {
            client.request(&Request::Join {
                game: game.clone(),
                seat: None,
            })?;
            game.clone()
        }
    };
    on_game(&game);
    // Until the other seats are taken.
    let since = Instant::now();
    loop {
        match client.request(&Request::Watch {
            game: game.clone(),
            events_from: 0,
        }) {
            Ok(_) => return Ok((client, game)),
            Err(e) if e.contains("waits for players") && since.elapsed() < config.patience => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(e),
        }
    }
}

/// Plays a watched game until it ends (or `max_actions`, or `stop_at`).
pub fn play(client: &mut Client, game: &str, config: &BotConfig) -> Result<BotReport, String> {
    let mut report = BotReport {
        game: game.to_string(),
        ..BotReport::default()
    };
    play_into(client, game, config, &mut report)?;
    Ok(report)
}

/// [`play`], adding to `report` (kept when the connection is lost).
pub fn play_into(
    client: &mut Client,
    game: &str,
    config: &BotConfig,
    report: &mut BotReport,
) -> Result<(), String> {
    let mut rng = GameRng::new(
        config
            .user
            .bytes()
            .fold(7u64, |h, b| h.wrapping_mul(31) ^ u64::from(b))
            ^ report.actions as u64,
    );
    let mut quiet_since = Instant::now();
    loop {
        // What the server said outside any answer: a watch it ended (its
        // game closed on the server, or unreadable while the database is
        // down) is begun again, as after a lost connection.
        if let Some(notice) = client
            .notices
            .drain(..)
            .find(|n| watch_ended(n) || transient(n))
        {
            return Err(format!("game {game}: {notice}"));
        }
        let Some(state) = client.next_state(Duration::from_millis(200))? else {
            if quiet_since.elapsed() > config.patience {
                return Err(format!(
                    "game {game}: nothing happened for {:?}",
                    config.patience
                ));
            }
            continue;
        };
        quiet_since = Instant::now();
        if config.record {
            report.states.push(state.clone());
        }
        report.seat = state.seat.map(|s| s.0).unwrap_or(0);
        if state.status == "over" {
            report.finished = true;
            report.last = Some(state);
            return Ok(());
        }
        // Only the newest state matters: later pushes supersede this one.
        let my_turn = state.seat.is_some_and(|s| state.to_act.contains(&s));
        if !client.pushes.is_empty() || !my_turn || state.legal.is_empty() {
            report.last = Some(state);
            continue;
        }
        if config.max_actions.is_some_and(|m| report.actions >= m)
            || config.stop_at.is_some_and(|stop| stop(&state))
        {
            report.last = Some(state);
            return Ok(());
        }
        let action = if config.level == "random" {
            computer_choice(&config.level, &state.view, state.legal.clone(), &mut rng)
        } else {
            // The server's computer player at this level, from this seat's
            // observation (the bot itself holds only the seat's view).
            match patiently(
                client,
                &Request::Suggest {
                    level: config.level.clone(),
                },
            ) {
                Ok(answer) => serde_json::from_value::<Option<Action>>(answer["action"].clone())
                    .map_err(|e| {
                        format!("game {game}: the server's suggestion does not read: {e}")
                    })?,
                Err(e) if lost(&e) => return Err(e),
                // The state moved on meanwhile: the next push says what now.
                Err(_) => continue,
            }
        };
        let Some(action) = action else {
            continue;
        };
        let sent = Instant::now();
        let wire = serde_json::to_value(&action).map_err(|e| e.to_string())?;
        let answer = patiently(
            client,
            &Request::Act {
                action: wire.clone(),
                expect: state.actions,
            },
        );
        report.latencies.push(sent.elapsed());
        match answer {
            Ok(_) => {
                report.actions += 1;
                report.accepted.push((state.actions, wire));
            }
            // Another seat moved first (a stale state): the push that
            // follows brings the new one; when none does, ask again.
            Err(e)
                if e.starts_with("stale")
                    || e.contains("not your turn")
                    || e.starts_with("the game is ") =>
            {
                if client.pushes.is_empty() {
                    patiently(
                        client,
                        &Request::Watch {
                            game: game.to_string(),
                            events_from: state.event_count,
                        },
                    )?;
                }
            }
            Err(e) => return Err(format!("game {game}: {e}")),
        }
        report.last = Some(state);
    }
}

/// A request, sent again after a pause while the server says it comes too
/// fast.
fn patiently(client: &mut Client, request: &Request) -> Result<serde_json::Value, String> {
    let mut pause = Duration::from_millis(50);
    loop {
        match client.request(request) {
            Err(e) if e.starts_with("too many requests") && pause < Duration::from_secs(10) => {
                std::thread::sleep(pause);
                pause *= 2;
            }
            other => return other,
        }
    }
}

/// Whether a client's error is the connection's loss (worth reconnecting).
fn lost(e: &str) -> bool {
    e.contains("connection lost") || e.contains("closed the connection") || watch_ended(e)
}

/// Whether the server ended this connection's watch of its game (the
/// game's actor stopped on that server): worth watching again.
fn watch_ended(e: &str) -> bool {
    e.contains("watch it again")
}

/// Whether the server's answer is a failure of its own that may pass (its
/// database down, its password hashers busy): worth waiting and asking
/// again, as after a lost connection, rather than giving up the seat.
fn transient(e: &str) -> bool {
    // As the server words it, perhaps behind the bot's "game ID: ".
    e.starts_with("database") || e.contains(": database: ") || e.contains("server is busy")
}

/// The pause before the `n`th attempt to reconnect (from 0): doubling from
/// 100 ms to at most 5 s, so that a server or database that is down for
/// long is not asked ten times a second by every bot.
pub fn backoff(n: u32) -> Duration {
    Duration::from_millis(100u64.saturating_mul(1 << n.min(6)).min(5_000))
}

/// Runs a bot to its game's end, reconnecting (as long as its patience
/// lasts) when the connection or the server drops.
pub fn run(config: &BotConfig, on_game: impl FnOnce(&str)) -> Result<BotReport, String> {
    let (mut client, game) = enter(config, on_game)?;
    let mut report = BotReport {
        game: game.clone(),
        ..BotReport::default()
    };
    let mut token = client.token.clone();
    loop {
        match play_into(&mut client, &game, config, &mut report) {
            Ok(()) => return Ok(report),
            Err(e) if lost(&e) || transient(&e) => {
                report.lost.push(e);
                client = reconnect_with(config, &game, token.as_deref())?;
                token = client.token.clone().or(token);
            }
            Err(e) => return Err(e),
        }
    }
}

/// Connects again, logs in, and watches `game` from its seat.
pub fn reconnect(config: &BotConfig, game: &str) -> Result<Client, String> {
    reconnect_with(config, game, None)
}

/// [`reconnect`], logging in with `token` when given (the password only
/// when the server refuses it: expired, or signed out everywhere). Tries
/// again after [`backoff`] pauses until the bot's patience runs out, then
/// says why it gave up.
pub fn reconnect_with(
    config: &BotConfig,
    game: &str,
    token: Option<&str>,
) -> Result<Client, String> {
    let since = Instant::now();
    let mut tries = 0;
    loop {
        let attempt = (|| {
            let mut client = Client::connect(&config.server)?;
            let by_token = match token {
                Some(t) => client
                    .request(&Request::Token {
                        token: t.to_string(),
                    })
                    .map(|_| client.token = Some(t.to_string())),
                None => Err(String::new()),
            };
            match by_token {
                Ok(()) => {}
                Err(e) if transient(&e) => return Err(e),
                Err(_) => {
                    client.sign_in(&config.user, &config.password)?;
                }
            }
            client.request(&Request::Join {
                game: game.to_string(),
                seat: None,
            })?;
            client.request(&Request::Watch {
                game: game.to_string(),
                events_from: 0,
            })?;
            Ok::<_, String>(client)
        })();
        match attempt {
            Ok(client) => return Ok(client),
            Err(e) if since.elapsed() > config.patience => {
                return Err(format!(
                    "cannot reconnect to game {game} after {} s: {e}",
                    since.elapsed().as_secs()
                ));
            }
            Err(_) => {
                std::thread::sleep(backoff(tries));
                tries += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_outage_is_waited_out_and_other_refusals_are_not() {
        assert!(transient(
            "database: pool timed out while waiting for an open connection"
        ));
        assert!(transient(
            "the server is busy with other log-ins: retry in a few seconds"
        ));
        assert!(transient(
            "game 12ab: database: error communicating with database"
        ));
        assert!(!transient("not your turn"));
        assert!(!transient(
            "game 12ab: no such action in the database of rules"
        ));
        assert!(!transient("no game 1234"));
        assert!(lost("connection lost") && !transient("connection lost"));
    }

    #[test]
    fn reconnecting_backs_off_to_five_seconds() {
        let pauses: Vec<u64> = (0..9).map(|n| backoff(n).as_millis() as u64).collect();
        assert_eq!(pauses, [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
        assert_eq!(backoff(u32::MAX), Duration::from_secs(5));
    }
}
