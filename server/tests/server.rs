//! The game server on loopback with SQLite (and PostgreSQL when
//! `TITAN_TEST_POSTGRES` is set): whole games between bots, spectators,
//! reconnects, computer seats and timeouts, two instances on one database,
//! and bad input. Every pushed state is checked against a replay of the
//! stored log.

mod common;

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use common::*;
use serde_json::json;
use titan_server::bot::{self, BotGame};
use titan_server::client::Client;
use titan_server::protocol::{GameState, Request};

/// Bounded wait for a push or an answer, against a hang (never a verdict
/// on speed).
const HANG: Duration = Duration::from_secs(120);

/// Watches game `id` (waiting for it to start) and collects the pushes
/// until it is over.
fn spectate(addr: &str, user: &str, id: &str) -> Vec<GameState> {
    let mut c = Client::connect(addr).unwrap();
    c.sign_in(user, "spectator-pw").unwrap();
    for _ in 0..200 {
        match c.request(&Request::Watch {
            game: id.into(),
            events_from: 0,
        }) {
            Ok(_) => break,
            Err(e) if e.contains("waits for players") => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Err(e) => panic!("{e}"),
        }
    }
    let mut states = Vec::new();
    loop {
        let s = c.next_state(HANG).unwrap().expect("the game went quiet");
        let over = s.status == "over";
        states.push(s);
        if over {
            return states;
        }
    }
}

/// A legal action of the seat to move other than conceding.
fn move_of(state: &GameState) -> &titan_core::game::Action {
    state
        .legal
        .iter()
        .find(|a| **a != titan_core::game::Action::ConcedeGame)
        .unwrap()
}

fn health(addr: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

/// Two bots play a whole game while a third account watches; each one's
/// pushes are exactly its seat's view (a spectator's: no legion's
/// contents), and the log replays to the end they saw.
fn full_game(db: &str) {
    let server = TestServer::start(config(db));
    assert!(health(&server.addr).starts_with("HTTP/1.1 200"));
    let (ann, bob, cy) = (unique("ann"), unique("bob"), unique("cy"));
    let (tx, rx) = mpsc::channel();
    let a = {
        let cfg = bot(
            &server.addr,
            &ann,
            BotGame::Create {
                variant: "titan".into(),
                seats: 2,
            },
        );
        std::thread::spawn(move || bot::run(&cfg, |g| tx.send(g.to_string()).unwrap()).unwrap())
    };
    let id = rx.recv_timeout(HANG).unwrap();
    let watcher = {
        let (addr, id, cy) = (server.addr.clone(), id.clone(), cy.clone());
        std::thread::spawn(move || spectate(&addr, &cy, &id))
    };
    let b = bot::run(
        &bot(&server.addr, &bob, BotGame::Join { game: id.clone() }),
        |_| {},
    )
    .unwrap();
    let a = a.join().unwrap();
    let watched = watcher.join().unwrap();
    assert!(a.finished && b.finished);
    assert_eq!((a.seat, b.seat), (0, 1));
    let replay = replay(db, &id);
    assert!(
        replay.game.state.outcome.is_some(),
        "the stored game is over"
    );
    assert_eq!(replay.actions.len(), a.actions + b.actions);
    for states in [&a.states, &b.states, &watched] {
        check_pushed(&replay, states);
        assert_eq!(states.last().unwrap().actions, replay.actions.len());
    }
    check_accepted(&replay, &a.accepted);
    check_accepted(&replay, &b.accepted);
    server.stop();
}

#[test]
fn a_full_game_between_two_bots_with_a_spectator() {
    let (_dir, db) = sqlite();
    full_game(&db);
}

/// A server given a SQLite URL as sqlx documents it,
/// `sqlite:///ABSOLUTE/new.sqlite` without `?mode=rwc`, makes the file and
/// serves from it; the database keeps what it was given across a restart.
#[test]
fn a_server_makes_a_new_sqlite_file_named_without_a_mode() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("new.sqlite");
    let url = format!("sqlite://{}", file.display());
    assert!(url.starts_with("sqlite:///") && !url.contains('?'));
    let server = TestServer::start(config(&url));
    assert!(file.is_file(), "{} made", file.display());
    assert!(health(&server.addr).starts_with("HTTP/1.1 200"));
    server.stop();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = titan_server::db::Db::connect(&url).await.unwrap();
        assert!(db.add_user("ann", "hash").await.unwrap());
        let again = titan_server::db::Db::connect(&url).await.unwrap();
        assert_eq!(
            again.password_hash("ann").await.unwrap().as_deref(),
            Some("hash")
        );
    });
}

#[test]
fn a_full_game_on_postgres() {
    if let Some(db) = postgres("a_full_game_on_postgres") {
        full_game(&db);
    }
}

/// A client dropped in the middle of a battle logs in again with its token,
/// finds its seat and plays on to the end.
#[test]
fn a_client_dropped_mid_battle_reconnects_and_plays_on() {
    // Not every random game has a battle: the first seed whose game does.
    let played = (1..20).any(reconnect_mid_battle);
    assert!(played, "no game had a battle");
}

/// The reconnect test on a game from `seed`; false if that game had no
/// battle for the second seat to be dropped in.
fn reconnect_mid_battle(seed: u64) -> bool {
    let (_dir, db) = sqlite();
    let mut config = config(&db);
    config.seed = Some(seed);
    let server = TestServer::start(config);
    let (tx, rx) = mpsc::channel();
    let cfg = bot(
        &server.addr,
        "ann",
        BotGame::Create {
            variant: "titan".into(),
            seats: 2,
        },
    );
    let a = std::thread::spawn(move || bot::run(&cfg, |g| tx.send(g.to_string()).unwrap()));
    let id = rx.recv_timeout(HANG).unwrap();
    let mut cfg = bot(&server.addr, "bob", BotGame::Join { game: id.clone() });
    cfg.stop_at = Some(|s| s.battle.is_some());
    let (mut client, _) = bot::enter(&cfg, |_| {}).unwrap();
    let token = client.sign_in("bob", "bob-password").unwrap();
    let first = bot::play(&mut client, &id, &cfg).unwrap();
    if first.finished {
        a.join().unwrap().unwrap();
        server.stop();
        return false;
    }
    assert!(first.last.as_ref().unwrap().battle.is_some());
    drop(client);
    // Back with the token: the same seat, the battle where it was.
    let mut client = Client::connect(&server.addr).unwrap();
    assert_eq!(
        client.request(&Request::Token { token }).unwrap()["user"],
        json!("bob")
    );
    let joined = client
        .request(&Request::Join {
            game: id.clone(),
            seat: None,
        })
        .unwrap();
    assert_eq!(joined["seat"], json!(1));
    client
        .request(&Request::Watch {
            game: id.clone(),
            events_from: 0,
        })
        .unwrap();
    cfg.stop_at = None;
    let second = bot::play(&mut client, &id, &cfg).unwrap();
    assert!(second.states[0].battle.is_some(), "back in the battle");
    assert!(second.finished);
    let a = a.join().unwrap().unwrap();
    assert!(a.finished);
    let replay = replay(&db, &id);
    for states in [&a.states, &first.states, &second.states] {
        check_pushed(&replay, states);
    }
    check_accepted(&replay, &first.accepted);
    check_accepted(&replay, &second.accepted);
    server.stop();
    true
}

/// Computer seats play at once; an absent player's seat is played by a
/// computer once the creator's timeout has passed (and not before).
#[test]
fn computer_seats_and_an_absent_players_timeout() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let mut ann = Client::connect(&server.addr).unwrap();
    ann.sign_in("ann", "ann-password").unwrap();
    let created = ann
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "computer".into(), "human".into()],
            timeout_secs: 1,
        })
        .unwrap();
    let id = created["game"].as_str().unwrap().to_string();
    assert_eq!(created["status"], "open");
    // Dan joins (the game starts) and goes away.
    let mut dan = Client::connect(&server.addr).unwrap();
    dan.sign_in("dan", "dan-password").unwrap();
    dan.request(&Request::Join {
        game: id.clone(),
        seat: None,
    })
    .unwrap();
    drop(dan);
    let lobby = ann.request(&Request::Lobby {}).unwrap();
    assert_eq!(lobby[0]["status"], "running");
    assert_eq!(lobby[0]["seats"][2]["user"], "dan");
    // Ann plays her seat until the others have acted.
    let mut cfg = bot(&server.addr, "ann", BotGame::Join { game: id.clone() });
    cfg.stop_at = Some(|s| s.actions > 30);
    ann.request(&Request::Watch {
        game: id.clone(),
        events_from: 0,
    })
    .unwrap();
    let report = bot::play(&mut ann, &id, &cfg).unwrap();
    assert!(!report.finished);
    let replay = replay(&db, &id);
    let by = |seat: u8| replay.actions.iter().filter(|(p, _)| *p == seat).count();
    assert!(by(0) > 0 && by(1) > 0, "the computer seat played");
    assert!(
        by(2) > 0,
        "the absent player's seat was played after the timeout"
    );
    check_pushed(&replay, &report.states);
    server.stop();
}

/// Chat reaches the other seat; only the creator suspends and resumes;
/// no action is taken while suspended; a player who leaves a game under
/// way hands the seat to a computer.
#[test]
fn chat_suspend_resume_and_leave() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let mut ann = Client::connect(&server.addr).unwrap();
    ann.sign_in("ann", "ann-password").unwrap();
    let id = ann
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "human".into()],
            timeout_secs: 0,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let mut bob = Client::connect(&server.addr).unwrap();
    bob.sign_in("bob", "bob-password").unwrap();
    bob.request(&Request::Join {
        game: id.clone(),
        seat: None,
    })
    .unwrap();
    let watch = |c: &mut Client| {
        c.request(&Request::Watch {
            game: id.clone(),
            events_from: 0,
        })
        .unwrap();
        c.next_state(HANG).unwrap().unwrap()
    };
    let a0 = watch(&mut ann);
    let b0 = watch(&mut bob);
    ann.request(&Request::Chat {
        text: "good luck".into(),
    })
    .unwrap();
    let b1 = bob.next_state(HANG).unwrap().unwrap();
    assert_eq!(
        b1.chat,
        vec![(String::from("ann"), String::from("good luck"))]
    );
    // Suspend: only the creator.
    let err = bob
        .request(&Request::Suspend { game: id.clone() })
        .unwrap_err();
    assert!(err.contains("creator"), "{err}");
    ann.request(&Request::Suspend { game: id.clone() }).unwrap();
    let ann_moves = a0.to_act.contains(&a0.seat.unwrap());
    let first = if ann_moves { &a0 } else { &b0 };
    let mover = if ann_moves { &mut ann } else { &mut bob };
    let act = Request::Act {
        action: serde_json::to_value(move_of(first)).unwrap(),
        expect: first.actions,
    };
    let err = mover.request(&act).unwrap_err();
    assert!(err.contains("suspended"), "{err}");
    ann.request(&Request::Resume { game: id.clone() }).unwrap();
    let mover = if ann_moves { &mut ann } else { &mut bob };
    mover.request(&act).unwrap();
    // The same message again is stale: refused, nothing applied twice.
    let err = mover.request(&act).unwrap_err();
    assert!(err.starts_with("stale"), "{err}");
    // Bob leaves: his seat is a computer's now and plays itself.
    bob.request(&Request::Leave { game: id.clone() }).unwrap();
    let lobby = ann.request(&Request::Lobby {}).unwrap();
    let game = lobby
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == json!(id))
        .unwrap();
    assert_eq!(game["seats"][1]["kind"], "computer");
    let replay = replay(&db, &id);
    assert_eq!(replay.actions.len(), 1, "one action, once");
    server.stop();
}

/// Malformed, oversized, unauthorised, out-of-turn and flooding requests:
/// each a clear error to that client; the game unchanged; the server and
/// the other clients unaffected.
#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let (_dir, db) = sqlite();
    let mut cfg = config(&db);
    cfg.rate_per_connection = 20;
    let server = TestServer::start(cfg);
    let mut ann = Client::connect(&server.addr).unwrap();
    let raw = |c: &mut Client, text: &str| -> String {
        c.send_raw(text).unwrap();
        match c.read(HANG).unwrap().unwrap() {
            titan_server::protocol::Message::Error { message, .. } => message,
            other => panic!("{text} was answered {other:?}"),
        }
    };
    assert!(raw(&mut ann, "{not json").contains("not JSON"));
    assert!(raw(&mut ann, r#"{"cmd":"fly"}"#).contains("not a request"));
    assert!(raw(&mut ann, r#"{"cmd":"lobby","x":1}"#).contains("not a request"));
    assert!(raw(&mut ann, r#"{"cmd":"lobby"}"#).contains("log in first"));
    assert!(raw(&mut ann, r#"{"cmd":"token","token":"forged"}"#).contains("not valid"));
    assert!(
        raw(
            &mut ann,
            r#"{"cmd":"signup","user":"a b","password":"secret1"}"#
        )
        .contains("user name")
    );
    ann.sign_in("ann", "ann-password").unwrap();
    let mut eve = Client::connect(&server.addr).unwrap();
    assert!(
        raw(
            &mut eve,
            r#"{"cmd":"login","user":"ann","password":"guessed"}"#
        )
        .contains("wrong user name or password")
    );
    assert!(
        raw(
            &mut ann,
            r#"{"cmd":"create","variant":"../etc","seats":["human","human"]}"#
        )
        .contains("no variant")
    );
    assert!(
        raw(
            &mut ann,
            r#"{"cmd":"create","variant":"titan","seats":["human"]}"#
        )
        .len()
            > 10
    );
    let id = ann
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "human".into()],
            timeout_secs: 0,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let mut bob = Client::connect(&server.addr).unwrap();
    bob.sign_in("bob", "bob-password").unwrap();
    bob.request(&Request::Join {
        game: id.clone(),
        seat: None,
    })
    .unwrap();
    // Eve, no player of it, watches as a spectator and cannot act.
    eve.sign_in("eve", "eve-password").unwrap();
    let watch = |c: &mut Client| {
        c.request(&Request::Watch {
            game: id.clone(),
            events_from: 0,
        })
        .unwrap();
        c.next_state(HANG).unwrap().unwrap()
    };
    let spectator = watch(&mut eve);
    assert!(spectator.seat.is_none() && spectator.legal.is_empty());
    let a = watch(&mut ann);
    let b = watch(&mut bob);
    let (mover, idle, state) = if !a.to_act.contains(&a.seat.unwrap()) {
        (&mut bob, &mut ann, b)
    } else {
        (&mut ann, &mut bob, a)
    };
    let act = |expect| {
        json!({"cmd": "act", "action": serde_json::to_value(move_of(&state)).unwrap(), "expect": expect})
            .to_string()
    };
    assert!(raw(&mut eve, &act(0)).contains("spectator cannot act"));
    assert!(raw(idle, &act(0)).contains("not your turn"));
    assert!(raw(mover, &act(5)).starts_with("stale"));
    assert!(
        raw(
            mover,
            r#"{"cmd":"act","action":{"action":"Nonsense"},"expect":0}"#
        )
        .contains("does not read")
    );
    assert!(
        raw(
            &mut eve,
            &json!({"cmd":"chat","text":"x".repeat(600)}).to_string()
        )
        .contains("chat line")
    );
    // Nothing was done.
    assert_eq!(replay(&db, &id).actions.len(), 0);
    // A flood: refused past the rate, the connection kept.
    let mut refused = 0;
    for _ in 0..60 {
        eve.send_raw(r#"{"cmd":"variants"}"#).unwrap();
    }
    for _ in 0..60 {
        if let Some(titan_server::protocol::Message::Error { message, .. }) =
            eve.read(Duration::from_secs(5)).unwrap()
        {
            assert!(message.contains("too many requests"), "{message}");
            refused += 1;
        }
    }
    assert!(refused > 0, "the flood was not limited");
    // An oversized message ends only that connection.
    let big = format!(r#"{{"cmd":"chat","text":"{}"}}"#, "x".repeat(100_000));
    let _ = eve.send_raw(&big);
    let closed = (0..50).any(|_| eve.read(Duration::from_millis(100)).is_err());
    assert!(closed, "an oversized message did not close its connection");
    // The server and the players carry on.
    assert!(health(&server.addr).starts_with("HTTP/1.1 200"));
    mover
        .request(&Request::Act {
            action: serde_json::to_value(move_of(&state)).unwrap(),
            expect: 0,
        })
        .unwrap();
    assert_eq!(replay(&db, &id).actions.len(), 1);
    server.stop();
}

/// Two instances share one database: a bot plays through one, the
/// computer seat is driven by whichever holds the game's lease. The
/// instance holding it (as the database says) is killed mid-game, with the
/// lease still its own; the other takes the lease over and the game from
/// the log. The game ends once, unforked, every action accepted by the bot
/// in its log, and every action of the computer seat, before the kill and
/// after, the one the server's computer player chooses there
/// (`computer_move`, seeded by the game and the action's index).
fn two_instances(db: &str) {
    let mut servers = [
        Some(TestServer::start(config(db))),
        Some(TestServer::start(config(db))),
    ];
    let instance = |s: &Option<TestServer>| {
        s.as_ref()
            .unwrap()
            .server
            .as_ref()
            .unwrap()
            .shared
            .instance
            .clone()
    };
    let names = [instance(&servers[0]), instance(&servers[1])];
    let ann = unique("ann");
    let mut c = Client::connect(&servers[0].as_ref().unwrap().addr).unwrap();
    c.sign_in(&ann, &format!("{ann}-password")).unwrap();
    let id = c
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "computer".into()],
            timeout_secs: 0,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    drop(c);
    // One of the instances takes the lease (the one that has the game live,
    // or the other's sweeper): the one to kill.
    let mut holder = None;
    wait_until("an instance takes the lease", || {
        holder = lease_holder(db, &id).map(|(owner, _)| owner);
        holder.is_some()
    });
    let holder = holder.unwrap();
    let dying = names
        .iter()
        .position(|n| *n == holder)
        .unwrap_or_else(|| panic!("the lease is held by {holder}, neither instance"));
    let surviving = 1 - dying;
    // Ann plays through the other instance: her actions go into the shared
    // log, the computer's come from the holder until it dies.
    let addr = servers[surviving].as_ref().unwrap().addr.clone();
    let mut cfg = bot(&addr, &ann, BotGame::Join { game: id.clone() });
    cfg.max_actions = Some(15);
    let (mut client, _) = bot::enter(&cfg, |_| {}).unwrap();
    let first = bot::play(&mut client, &id, &cfg).unwrap();
    let before = lease_holder(db, &id);
    assert_eq!(
        before.as_ref().map(|(owner, _)| owner),
        Some(&names[dying]),
        "the instance to kill holds the lease before the kill"
    );
    let actions_at_kill = replay(db, &id).actions.len();
    servers[dying].take().unwrap().kill();
    wait_until("the surviving instance takes the lease over", || {
        lease_holder(db, &id).is_some_and(|(owner, _)| owner == names[surviving])
    });
    // The state the bot stopped at was its own turn: it asks again, as a
    // client that stopped reading would.
    let last = first.last.as_ref().unwrap();
    client
        .request(&Request::Watch {
            game: id.clone(),
            events_from: last.event_count,
        })
        .unwrap();
    cfg.max_actions = None;
    let rest = bot::play(&mut client, &id, &cfg).unwrap();
    assert!(rest.finished, "the game went on after its instance died");
    let replay = replay(db, &id);
    assert!(replay.game.state.outcome.is_some());
    check_pushed(&replay, &first.states);
    check_pushed(&replay, &rest.states);
    check_accepted(&replay, &first.accepted);
    check_accepted(&replay, &rest.accepted);
    // Every action of the computer seat is the server's computer player's.
    let (_, before_kill, after_kill) = check_computer_actions(db, &id, actions_at_kill);
    assert!(before_kill > 0, "the computer played before the kill");
    assert!(after_kill > 0, "the computer played after the kill");
    let bot_actions = first.actions + rest.actions;
    assert_eq!(
        replay.actions.len(),
        bot_actions + before_kill + after_kill,
        "the log holds the bot's actions and the computer's, nothing else"
    );
    servers[surviving].take().unwrap().stop();
}

/// Replays game `id` checking that each action of its computer seat (the
/// seat of kind "computer", at the level it was made with) is the action
/// the server's computer player chooses at that point; the seat, and its
/// actions counted before and after the `split`-th action of the log.
fn check_computer_actions(
    db_url: &str,
    id: &str,
    split: usize,
) -> (titan_core::game::PlayerId, usize, usize) {
    use titan_core::game::{Action, Game, PlayerId};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (row, seats, stored) = rt.block_on(async {
        let db = titan_server::db::Db::connect(db_url).await.unwrap();
        (
            db.game(id).await.unwrap().unwrap(),
            db.seats(id).await.unwrap(),
            db.actions(id, 0).await.unwrap(),
        )
    });
    let computer = seats.iter().find(|s| s.kind == "computer").unwrap();
    let seat = PlayerId(computer.seat);
    let level = if computer.level.is_empty() {
        titan_server::computer::LEVELS[0].to_string()
    } else {
        computer.level.clone()
    };
    let players: Vec<String> = serde_json::from_str(&row.players).unwrap();
    let options = serde_json::from_str(&row.options).unwrap();
    let (mut game, _) = Game::new(load_variant(&row.variant), options, &players, row.seed).unwrap();
    let (mut before, mut after) = (0, 0);
    for (i, (player, text)) in stored.into_iter().enumerate() {
        let action: Action = serde_json::from_str(&text).unwrap();
        if PlayerId(player) == seat {
            let seed = row.seed ^ ((game.history.len() as u64) << 20);
            let chosen = titan_server::computer::computer_move(&level, &game, seat, seed);
            assert_eq!(
                chosen.as_ref(),
                Some(&action),
                "action {i} of the computer seat is not its computer player's"
            );
            if i < split {
                before += 1;
            } else {
                after += 1;
            }
        }
        game.apply(PlayerId(player), &action).unwrap();
    }
    (seat, before, after)
}

#[test]
fn two_instances_on_one_sqlite_file() {
    let (_dir, db) = sqlite();
    two_instances(&db);
}

#[test]
fn two_instances_on_postgres() {
    if let Some(db) = postgres("two_instances_on_postgres") {
        two_instances(&db);
    }
}

/// A game nobody watches and no computer plays leaves memory after the
/// idle time; watching it again replays it from the log where it was.
#[test]
fn an_unwatched_game_is_unloaded_and_comes_back() {
    let (_dir, db) = sqlite();
    let mut cfg = config(&db);
    cfg.idle = Duration::from_millis(200);
    let server = TestServer::start(cfg);
    let mut ann = Client::connect(&server.addr).unwrap();
    ann.sign_in("ann", "ann-password").unwrap();
    let id = ann
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "human".into()],
            timeout_secs: 0,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let mut bob = Client::connect(&server.addr).unwrap();
    bob.sign_in("bob", "bob-password").unwrap();
    bob.request(&Request::Join {
        game: id.clone(),
        seat: None,
    })
    .unwrap();
    let watch = |c: &mut Client| {
        c.request(&Request::Watch {
            game: id.clone(),
            events_from: 0,
        })
        .unwrap();
        c.next_state(HANG).unwrap().unwrap()
    };
    let mut clients = [ann, bob];
    let states: Vec<GameState> = clients.iter_mut().map(&watch).collect();
    let mover = states
        .iter()
        .position(|s| s.to_act.contains(&s.seat.unwrap()))
        .unwrap();
    clients[mover]
        .request(&Request::Act {
            action: serde_json::to_value(move_of(&states[mover])).unwrap(),
            expect: states[mover].actions,
        })
        .unwrap();
    let shared = server.server.as_ref().unwrap().shared.clone();
    assert!(shared.is_live(&id));
    drop(clients);
    wait_until("the unwatched game is unloaded", || !shared.is_live(&id));
    let mut ann = Client::connect(&server.addr).unwrap();
    ann.sign_in("ann", "ann-password").unwrap();
    let back = watch(&mut ann);
    assert_eq!(back.actions, 1, "back where it was");
    server.stop();
}

/// `/health` reports the database: 200 `ok` while it answers, 503 with the
/// reason once it cannot be reached (here its pool closed under the
/// server), so that a load balancer and an operator see the outage.
#[test]
fn health_reports_an_unreachable_database() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let h = health(&server.addr);
    assert!(h.starts_with("HTTP/1.1 200") && h.ends_with("ok"), "{h}");
    let shared = server.server.as_ref().unwrap().shared.clone();
    server.rt.block_on(shared.db.close());
    let h = health(&server.addr);
    assert!(h.starts_with("HTTP/1.1 503"), "{h}");
    assert!(h.contains("database unreachable"), "{h}");
    server.stop();
}
