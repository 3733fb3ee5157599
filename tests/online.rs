//! `titan serve` as a process, killed with SIGKILL in the middle of three
//! games and started again on the same database: the bots reconnect, every
//! game resumes from its stored log and ends, and every action a bot was
//! told was accepted is in the log once.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use titan_core::game::{Action, Game, PlayerId};
use titan_server::bot::{self, BotConfig, BotGame, BotReport};
use titan_server::client::Client;
use titan_server::db::Db;
use titan_server::protocol::Request;

/// A server process, killed when dropped (a failed test leaves none).
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `titan serve`; the child and the address it listens on.
fn serve(listen: &str, db: &str) -> (Served, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_titan"))
        .args([
            "serve",
            "--listen",
            listen,
            "--database",
            db,
            "--lease",
            "1",
        ])
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (Served(child), addr)
}

fn bot_config(addr: &str, user: &str, game: BotGame) -> BotConfig {
    BotConfig {
        server: addr.to_string(),
        user: user.to_string(),
        password: format!("{user}-password"),
        game,
        level: "random".into(),
        // Only against a hang: nothing waits for it to run out.
        patience: Duration::from_secs(300),
        max_actions: None,
        stop_at: None,
        record: false,
    }
}

/// The stored log of a game and its replay to the end.
fn stored(rt: &tokio::runtime::Runtime, db: &str, id: &str) -> (Game, Vec<Action>) {
    let (row, log) = rt.block_on(async {
        let db = Db::connect(db).await.unwrap();
        (
            db.game(id).await.unwrap().unwrap(),
            db.actions(id, 0).await.unwrap(),
        )
    });
    let variant = std::sync::Arc::new(
        titan_core::load(
            &common::root().join("variants").join(&row.variant),
            &common::options(),
        )
        .unwrap(),
    );
    let players: Vec<String> = serde_json::from_str(&row.players).unwrap();
    let options = serde_json::from_str(&row.options).unwrap();
    let (mut game, _) = Game::new(variant, options, &players, row.seed).unwrap();
    let mut actions = Vec::new();
    for (p, text) in log {
        let a: Action = serde_json::from_str(&text).unwrap();
        game.apply(PlayerId(p), &a).unwrap();
        actions.push(a);
    }
    (game, actions)
}

fn count(rt: &tokio::runtime::Runtime, db: &str, id: &str) -> usize {
    rt.block_on(async {
        Db::connect(db)
            .await
            .unwrap()
            .actions(id, 0)
            .await
            .unwrap()
            .len()
    })
}

#[test]
fn a_killed_server_restarted_resumes_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("s.sqlite").display()
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut server, addr) = serve("127.0.0.1:0", &db);
    // Two games between bots, one of a bot against a computer seat.
    let mut bots = Vec::new();
    let mut games = Vec::new();
    for pair in 0..2 {
        let (tx, rx) = mpsc::channel();
        let a = bot_config(
            &addr,
            &format!("a{pair}"),
            BotGame::Create {
                variant: "titan".into(),
                seats: 2,
            },
        );
        bots.push(std::thread::spawn(move || {
            bot::run(&a, |g| tx.send(g.to_string()).unwrap())
        }));
        // A bound against a hang, not a speed check.
        let id = rx.recv_timeout(Duration::from_secs(90)).unwrap();
        let b = bot_config(
            &addr,
            &format!("b{pair}"),
            BotGame::Join { game: id.clone() },
        );
        bots.push(std::thread::spawn(move || bot::run(&b, |_| {})));
        games.push(id);
    }
    let mut c = Client::connect(&addr).unwrap();
    c.sign_in("carl", "carl-password").unwrap();
    let vs_computer = c
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
    let carl = bot_config(
        &addr,
        "carl",
        BotGame::Join {
            game: vs_computer.clone(),
        },
    );
    bots.push(std::thread::spawn(move || bot::run(&carl, |_| {})));
    games.push(vs_computer);
    // Once every game is under way: SIGKILL, then the same server again.
    // Polled: the bound only guards against a hang, far above any start.
    let since = Instant::now();
    while games.iter().any(|g| count(&rt, &db, g) < 10) {
        assert!(
            since.elapsed() < Duration::from_secs(600),
            "the games did not start in 600 s (a hang)"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let at_kill: Vec<usize> = games.iter().map(|g| count(&rt, &db, g)).collect();
    // A random game may have ended before the kill; the others resume.
    let over_at_kill: Vec<bool> = games
        .iter()
        .map(|g| stored(&rt, &db, g).0.state.outcome.is_some())
        .collect();
    assert!(
        over_at_kill.contains(&false),
        "every game ended before the kill"
    );
    eprintln!("killed with {at_kill:?} actions stored");
    let server = serve(&addr, &db);
    let reports: Vec<BotReport> = bots
        .into_iter()
        .map(|b| b.join().unwrap().unwrap())
        .collect();
    drop(server);
    for (i, id) in games.iter().enumerate() {
        let (game, actions) = stored(&rt, &db, id);
        assert!(game.state.outcome.is_some(), "game {id} did not end");
        assert!(
            over_at_kill[i] || actions.len() > at_kill[i],
            "game {id} did not go on after the restart"
        );
    }
    for r in &reports {
        assert!(r.finished, "{} did not finish", r.game);
        let (_, actions) = stored(&rt, &db, &r.game);
        for (idx, wire) in &r.accepted {
            let a: Action = serde_json::from_value(wire.clone()).unwrap();
            assert_eq!(actions.get(*idx), Some(&a), "accepted action {idx} lost");
        }
    }
}

/// `titan bot` as a user runs it: one creates a game and prints its id, the
/// other joins it; both play to the end and say so.
#[test]
fn two_titan_bots_play_a_game_on_titan_serve() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("s.sqlite").display()
    );
    let (_server, addr) = serve("127.0.0.1:0", &db);
    let bot = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_titan"))
            .args(["bot", "--server", &addr])
            .args(args)
            .current_dir(common::root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut creator = bot(&[
        "--user",
        "ann",
        "--password",
        "secret1",
        "--create",
        "titan",
        "--seats",
        "2",
    ]);
    let mut out = BufReader::new(creator.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let game: serde_json::Value = serde_json::from_str(&first).unwrap();
    let id = game["game"].as_str().unwrap().to_string();
    // The second bot plays `simple`: the server's computer player, asked
    // for each of its decisions from its seat's observation.
    let joiner = bot(&[
        "--user",
        "bob",
        "--password",
        "secret2",
        "--join",
        &id,
        "--level",
        "simple",
    ])
    .wait_with_output()
    .unwrap();
    assert!(joiner.status.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert!(creator.wait().unwrap().success());
    for line in [
        rest.trim(),
        String::from_utf8_lossy(&joiner.stdout)
            .lines()
            .last()
            .unwrap(),
    ] {
        let report: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(report["game"], serde_json::json!(id));
        assert_eq!(report["finished"], serde_json::json!(true), "{line}");
        // The outcome as the engine protocol gives it, seats as numbers
        // (not Rust's debug text of its internal ids).
        let outcome = &report["outcome"];
        assert!(
            outcome["Winner"].as_u64().is_some_and(|s| s < 2) || outcome["Draw"].is_array(),
            "{line}"
        );
    }
    // An unknown level is a clear error before anything is sent.
    let bad = bot(&[
        "--user",
        "cid",
        "--password",
        "secret3",
        "--join",
        &id,
        "--level",
        "genius",
    ])
    .wait_with_output()
    .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("no computer level \"genius\""), "{err}");
}

/// SIGTERM (`kill`, a service manager) stops `titan serve` as Ctrl-C does:
/// cleanly, saying so in its log (stderr), with status 0; the log says at
/// start which database and variants it serves (docs/online.md, "Running
/// a server" and "The log").
#[cfg(unix)]
#[test]
fn serve_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("s.sqlite").display()
    );
    let child = Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database", &db])
        .env("TITAN_LOG", "info")
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Served(child);
    let mut out = BufReader::new(server.0.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("listening on"), "{line}");
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let mut client = Client::connect(addr).unwrap();
    let killed = Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = server.0.wait().unwrap();
    assert!(status.success(), "{status:?}");
    // A connected client was told why.
    let e = client.read(std::time::Duration::from_secs(5)).unwrap_err();
    assert!(e.contains("server restarting"), "{e}");
    let mut log = String::new();
    std::io::Read::read_to_string(&mut server.0.stderr.take().unwrap(), &mut log).unwrap();
    assert!(log.contains("stopping") && log.contains("stopped"), "{log}");
    assert!(
        log.contains("starting") && log.contains("s.sqlite") && log.contains("variants_folder="),
        "{log}"
    );
}

/// Every limit of `titan serve` is a flag and an environment variable
/// (docs/online.md, "Limits"): the help names them all, one given by the
/// environment and one by a flag are the server's limits, and an absurd
/// value is refused before anything starts.
#[test]
fn serve_takes_every_limit_from_a_flag_or_the_environment() {
    let help = Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for var in [
        "TITAN_MAX_CONNECTIONS",
        "TITAN_MAX_CONNECTIONS_PER_ADDRESS",
        "TITAN_HEADER_TIMEOUT",
        "TITAN_LOGIN_TIMEOUT",
        "TITAN_IDLE_TIMEOUT",
        "TITAN_RATE_PER_CONNECTION",
        "TITAN_RATE_PER_ACCOUNT",
        "TITAN_OPEN_GAMES_PER_ACCOUNT",
        "TITAN_OPEN_GAMES",
        "TITAN_GAMES_PER_ACCOUNT",
        "TITAN_COMPUTER_SEATS_PER_ACCOUNT",
        "TITAN_CHAT_PER_MINUTE_PER_ACCOUNT",
        "TITAN_CHAT_PER_MINUTE_PER_GAME",
        "TITAN_CHAT_HISTORY",
        "TITAN_HASH_WORKERS",
        "TITAN_HASH_QUEUE",
        "TITAN_LOGIN_ATTEMPTS_PER_NAME",
        "TITAN_LOGIN_ATTEMPTS_PER_ADDRESS",
        "TITAN_LOGIN_ATTEMPT_WINDOW",
        "TITAN_LOGIN_FAILURES",
        "TITAN_LOGIN_WAIT",
        "TITAN_TOKEN_LIFETIME",
        "TITAN_IDLE",
        "TITAN_COMPUTER_THREADS",
    ] {
        assert!(
            help.contains(&format!("env: {var}=")),
            "{var} not in:\n{help}"
        );
    }
    let refused = Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--hash-workers", "0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));

    let dir = tempfile::tempdir().unwrap();
    let db = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("l.sqlite").display()
    );
    let child = Command::new(env!("CARGO_BIN_EXE_titan"))
        .args(["serve", "--listen", "127.0.0.1:0", "--database", &db])
        .args(["--games-per-account", "2"])
        .env("TITAN_OPEN_GAMES_PER_ACCOUNT", "1")
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Served(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let mut c = Client::connect(addr).unwrap();
    c.sign_in("lim", "lim-password").unwrap();
    let create = |c: &mut Client, seats: &[&str]| {
        c.request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            timeout_secs: 0,
        })
    };
    create(&mut c, &["human", "human"]).unwrap();
    let e = create(&mut c, &["human", "human"]).unwrap_err();
    assert!(e.contains("at most 1 waiting"), "{e}");
    create(&mut c, &["human", "computer"]).unwrap();
    let e = create(&mut c, &["human", "computer"]).unwrap_err();
    assert!(e.contains("at most 2 games"), "{e}");
}
