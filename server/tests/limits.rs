//! The limits that keep one hostile client, account or address from
//! taking the server from everybody else (docs/online.md, "Limits"): open
//! games and the lobby, games and computer seats per account, connections,
//! timeouts, chat, and watching finished games.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::*;
use titan_server::client::Client;
use titan_server::protocol::Request;

/// Bounded wait against a hang (never a verdict on speed).
const HANG: Duration = Duration::from_secs(30);

fn signed_in(server: &TestServer, user: &str) -> Client {
    let mut c = Client::connect(&server.addr).unwrap();
    c.sign_in(user, &format!("{user}-password")).unwrap();
    c
}

fn create(c: &mut Client, seats: &[&str]) -> Result<String, String> {
    c.request(&Request::Create {
        variant: "titan".into(),
        options: Default::default(),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        timeout_secs: 0,
    })
    .map(|v| v["game"].as_str().unwrap().to_string())
}

fn lobby_ids(c: &mut Client) -> Vec<String> {
    c.request(&Request::Lobby {})
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// An account may have only so many open games, and the server only so
/// many in all, each refused with a reason; a full lobby still lists
/// another user's open game to everybody, its creator included.
#[test]
fn open_games_are_limited_and_one_account_never_empties_the_lobby() {
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.limits.open_games_per_account = 3;
    config.limits.open_games = 4;
    let server = TestServer::start(config);
    let mut ann = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    let anns = create(&mut ann, &["human", "human"]).unwrap();
    for _ in 0..3 {
        create(&mut bob, &["human", "human"]).unwrap();
    }
    let e = create(&mut bob, &["human", "human"]).unwrap_err();
    assert!(e.contains("too many open games"), "{e}");
    // Four open games on the server: nobody opens a fifth.
    let mut cid = signed_in(&server, "cid");
    let e = create(&mut cid, &["human", "human"]).unwrap_err();
    assert!(e.contains("the server has too many open games"), "{e}");
    // A game that starts at once (one person, computers) is not open.
    create(&mut bob, &["human", "computer"]).unwrap();
    assert!(lobby_ids(&mut ann).contains(&anns));
    server.stop();

    // With room for a flood of open games from one account, the lobby
    // still shows another user's game (it used to list the newest 100
    // games, all of the flooder's).
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.limits.open_games = 1000;
    let server = TestServer::start(config);
    let mut ann = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    let mut cid = signed_in(&server, "cid");
    let anns = create(&mut ann, &["human", "human"]).unwrap();
    for _ in 0..120 {
        create(&mut bob, &["human", "human"]).unwrap();
    }
    assert!(
        lobby_ids(&mut ann).contains(&anns),
        "in its creator's lobby"
    );
    assert!(lobby_ids(&mut cid).contains(&anns), "in another's lobby");
    assert!(
        lobby_ids(&mut bob).contains(&anns),
        "in the flooder's lobby"
    );
    server.stop();
}

/// An account may be in only so many games not over and have only so many
/// computer seats playing in its games; joins count too.
#[test]
fn games_and_computer_seats_per_account_are_limited() {
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.limits.games_per_account = 3;
    config.limits.computer_seats_per_account = 4;
    let server = TestServer::start(config);
    let mut ann = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    // Three computer seats, then two more would be five.
    create(&mut ann, &["human", "computer", "computer", "computer"]).unwrap();
    let e = create(&mut ann, &["human", "computer", "computer"]).unwrap_err();
    assert!(e.contains("too many computer seats"), "{e}");
    create(&mut ann, &["human", "computer"]).unwrap();
    let open = create(&mut ann, &["human", "human"]).unwrap();
    // Three games not over: no fourth, not even one without a computer.
    let e = create(&mut ann, &["human", "human"]).unwrap_err();
    assert!(e.contains("too many games"), "{e}");
    // Bob may join ann's game; once in three games he may join no more.
    for _ in 0..3 {
        create(&mut bob, &["human", "human"]).unwrap();
    }
    let e = bob
        .request(&Request::Join {
            game: open.clone(),
            seat: None,
        })
        .unwrap_err();
    assert!(e.contains("too many games"), "{e}");
    server.stop();
}

/// Connections past the cap, in all or from one address, are refused
/// with a reason; a closed connection gives its place back.
#[test]
fn connections_are_capped_in_all_and_per_address() {
    for (total, per_address, refusal) in [
        (100, 2, "too many connections from your address"),
        (2, 100, "too many connections to this server"),
    ] {
        let (_dir, db) = sqlite();
        let mut config = common::config(&db);
        config.limits.connections = total;
        config.limits.connections_per_address = per_address;
        let server = TestServer::start(config);
        let first = signed_in(&server, "ann");
        let _second = Client::connect(&server.addr).unwrap();
        let e = Client::connect(&server.addr)
            .err()
            .expect("a third connection");
        assert!(e.contains("503") && e.contains(refusal), "{e}");
        drop(first);
        wait_until("the closed connection's place is given back", || {
            server.server.as_ref().unwrap().shared.connections() < 2
        });
        Client::connect(&server.addr).expect("a place again");
        server.stop();
    }
}

/// A connection that sends nothing, or half a request header, is closed
/// after the header timeout (here short), and its place given back; a
/// WebSocket that does not log in is closed after the log-in timeout with
/// the reason; a whole request is answered as before.
#[test]
fn half_sent_headers_and_silent_sockets_are_closed() {
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.limits.header_timeout = Duration::from_millis(300);
    config.limits.login_timeout = Duration::from_millis(300);
    config.limits.connections_per_address = 2;
    let server = TestServer::start(config);
    let closed = |mut tcp: TcpStream| {
        tcp.set_read_timeout(Some(HANG)).unwrap();
        let mut buf = [0u8; 256];
        match tcp.read(&mut buf) {
            Ok(n) => assert_eq!(n, 0, "closed without an answer"),
            Err(e) => assert!(
                !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ),
                "still open after {HANG:?}: {e}"
            ),
        }
    };
    let bare = TcpStream::connect(&server.addr).unwrap();
    let mut half = TcpStream::connect(&server.addr).unwrap();
    half.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    closed(bare);
    closed(half);
    wait_until("the places are given back", || {
        server.server.as_ref().unwrap().shared.connections() == 0
    });
    let mut c = Client::connect(&server.addr).unwrap();
    let e = c.read(HANG).expect_err("closed for not logging in");
    assert!(e.contains("not logged in within"), "{e}");
    // A whole request is answered.
    let mut tcp = TcpStream::connect(&server.addr).unwrap();
    tcp.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    tcp.set_read_timeout(Some(HANG)).unwrap();
    tcp.read_to_string(&mut answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.ends_with("ok"),
        "{answer}"
    );
    server.stop();
}

fn chat(c: &mut Client, text: &str) -> Result<serde_json::Value, String> {
    c.request(&Request::Chat { text: text.into() })
}

fn watch(c: &mut Client, id: &str) -> titan_server::protocol::GameState {
    c.request(&Request::Watch {
        game: id.into(),
        events_from: 0,
    })
    .unwrap();
    c.next_state(HANG).unwrap().expect("a state after a watch")
}

/// Chat lines are limited a minute per account and per game (the minute
/// passed by moving the server's clock on, not by waiting); a new watcher
/// is sent the last lines only; the players may mute the spectators.
#[test]
fn chat_is_rate_limited_bounded_and_spectators_may_be_muted() {
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.limits.chat_per_minute_per_account = 4;
    config.limits.chat_per_minute_per_game = 6;
    config.limits.chat_history = 3;
    config.clock = titan_server::Clock::manual();
    let clock = config.clock.clone();
    let server = TestServer::start(config);
    let mut ann = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    let mut spy = signed_in(&server, "spy");
    let id = create(&mut ann, &["human", "human"]).unwrap();
    bob.request(&Request::Join {
        game: id.clone(),
        seat: None,
    })
    .unwrap();
    watch(&mut ann, &id);
    watch(&mut bob, &id);
    watch(&mut spy, &id);
    for i in 0..4 {
        chat(&mut ann, &format!("ann {i}")).unwrap();
    }
    let e = chat(&mut ann, "ann 4").unwrap_err();
    assert!(e.contains("too many chat lines from this account"), "{e}");
    chat(&mut bob, "bob 0").unwrap();
    chat(&mut bob, "bob 1").unwrap();
    let e = chat(&mut bob, "bob 2").unwrap_err();
    assert!(e.contains("too many chat lines in this game"), "{e}");
    // A new watcher gets the last three of the six lines.
    let mut late = signed_in(&server, "late");
    let s = watch(&mut late, &id);
    assert_eq!(s.chat_count, 6);
    let texts: Vec<&str> = s.chat.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["ann 3", "bob 0", "bob 1"]);
    // A minute on, there is room again; the spectators may chat.
    clock.advance(Duration::from_secs(61));
    chat(&mut spy, "hello").unwrap();
    let e = spy
        .request(&Request::MuteSpectators { mute: true })
        .unwrap_err();
    assert!(e.contains("only the game's players"), "{e}");
    bob.request(&Request::MuteSpectators { mute: true })
        .unwrap();
    let e = chat(&mut spy, "hello?").unwrap_err();
    assert!(e.contains("muted"), "{e}");
    chat(&mut ann, "players still chat").unwrap();
    bob.request(&Request::MuteSpectators { mute: false })
        .unwrap();
    chat(&mut spy, "thanks").unwrap();
    server.stop();
}

/// A game over is watched from one read of the database: no game actor
/// (a thread polling the database) is started for it, however often it
/// is watched (`Shared::live_games` counts them).
#[test]
fn watching_a_finished_game_starts_no_actor() {
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    // An unwatched game's actor stops at once.
    config.idle = Duration::from_millis(100);
    let server = TestServer::start(config);
    let live = || server.server.as_ref().unwrap().shared.live_games();
    let mut ann = signed_in(&server, "ann");
    let mut bob = signed_in(&server, "bob");
    let id = create(&mut ann, &["human", "human"]).unwrap();
    bob.request(&Request::Join {
        game: id.clone(),
        seat: None,
    })
    .unwrap();
    let before = watch(&mut ann, &id);
    drop(ann);
    wait_until("the unwatched game's actor stops", || live() == 0);
    // The game ends (as the database has it).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = titan_server::db::Db::connect(&db).await.unwrap();
        assert!(store.set_status(&id, &["running"], "over").await.unwrap());
    });
    let mut spy = signed_in(&server, "spy");
    for _ in 0..5 {
        let s = watch(&mut spy, &id);
        assert_eq!(s.status, "over");
        assert_eq!(s.seat, None);
        assert_eq!(s.actions, before.actions);
        assert_eq!(live(), 0, "a game actor was started for a game over");
    }
    let s = watch(&mut bob, &id);
    assert_eq!(s.seat.map(|p| p.0), Some(1), "a player sees it as his seat");
    assert!(s.legal.is_empty());
    // Events from a later index: only those (from the kept state).
    bob.request(&Request::Watch {
        game: id.clone(),
        events_from: 2,
    })
    .unwrap();
    let later = bob.next_state(HANG).unwrap().unwrap();
    assert_eq!(later.event_count, s.event_count);
    assert!(later.events.iter().all(|(i, _)| *i >= 2));
    assert_eq!(
        later.events.len(),
        s.events.iter().filter(|(i, _)| *i >= 2).count()
    );
    let e = chat(&mut spy, "gg").unwrap_err();
    assert!(e.contains("watch a game first"), "{e}");
    assert_eq!(live(), 0);
    server.stop();
}

/// A logged-in WebSocket that sends nothing, not even the pongs to the
/// server's pings, is closed after the idle timeout (here short) and its
/// place given back.
#[test]
fn a_silent_websocket_is_closed_after_the_idle_timeout() {
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.limits.idle_timeout = Duration::from_millis(300);
    let server = TestServer::start(config);
    let mut ann = signed_in(&server, "ann");
    // Not reading: the pings go unanswered.
    wait_until("the silent connection is closed", || {
        server.server.as_ref().unwrap().shared.connections() == 0
    });
    let e = loop {
        match ann.read(HANG) {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("still open after {HANG:?}"),
            Err(e) => break e,
        }
    };
    assert!(e.contains("nothing heard for"), "{e}");
    server.stop();
}
