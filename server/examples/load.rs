//! The server's load test: one server instance on loopback,
//! `N` concurrent games (default 200) of two bot clients each, to their end.
//! Reports actions per second, p50 and p99 latency per action (send to
//! answer), the process's peak memory, and checks that every game finished
//! with a log that replays to the end its players saw.
//!
//! ```sh
//! cargo run --release -p titan-server --example load -- 200
//! cargo run --release -p titan-server --example load -- 200 --database postgres://titan:titan@127.0.0.1/titan_test
//! ```
//!
//! The database is a new SQLite file unless `--database URL` (or
//! `TITAN_DATABASE`) names one; each run's accounts and games are new ones,
//! beside those of earlier runs.
//!
//! Bounded: loopback only, a fixed number of games, each bot gives up after
//! a minute without progress.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use titan_core::game::view::view;
use titan_core::game::{Action, Game, PlayerId};
use titan_server::bot::{self, BotConfig, BotGame, BotReport};
use titan_server::db::Db;

/// CPU time (user and system) of the process, or of the calling thread,
/// in seconds, from /proc (0 where there is none).
fn cpu_seconds(thread: bool) -> f64 {
    let path = if thread {
        "/proc/thread-self/stat"
    } else {
        "/proc/self/stat"
    };
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            // The fields after the command's name (which may hold spaces):
            // utime and stime are the 12th and 13th, in clock ticks.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?)
        })
        .map_or(0.0, |ticks| ticks / 100.0)
}

fn peak_memory_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

fn main() {
    let mut games = 200;
    let mut database = std::env::var("TITAN_DATABASE").ok();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--database" => database = Some(args.next().expect("--database URL")),
            n => games = n.parse().expect("a number of games, or --database URL"),
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = database.unwrap_or_else(|| {
        format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("load.sqlite").display()
        )
    });
    // This run's accounts, apart from earlier runs' in the same database.
    let run = format!("{:06x}", rand::random::<u32>() & 0xff_ffff);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut config = titan_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        db.clone(),
        root.join("variants"),
    );
    // Every bot is one connection and one account: the limits are for
    // people; the load test measures the server.
    config.rate_per_connection = 10_000;
    config.rate_per_account = 10_000;
    config.login_attempts_per_name = 0;
    config.login_attempts_per_address = 0;
    config.hash_queue = 1000;
    // All from one address.
    config.limits.connections = 10_000;
    config.limits.connections_per_address = 10_000;
    let server = rt
        .block_on(titan_server::start(config))
        .expect("the server");
    let addr = server.addr.to_string();
    println!(
        "{games} games of two bots on {addr}, database {}",
        if db.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    );

    // Every bot signs up (argon2, deliberately slow) and enters its game
    // first; the clock starts when all of them play at once, so the figures
    // are those of play, not of sign-ups or of games starting one by one.
    let setup = Instant::now();
    let go = Arc::new(std::sync::Barrier::new(2 * games + 1));
    let mut threads = Vec::new();
    for i in 0..games {
        let (tx, rx) = std::sync::mpsc::channel();
        let cfg = |user: String, game| BotConfig {
            server: addr.clone(),
            password: format!("{user}-password"),
            user,
            game,
            level: "random".into(),
            patience: Duration::from_secs(60),
            max_actions: None,
            stop_at: None,
            record: false,
        };
        let a = cfg(
            format!("load-{run}-a{i}"),
            BotGame::Create {
                variant: "titan".into(),
                seats: 2,
            },
        );
        let b = cfg(
            format!("load-{run}-b{i}"),
            BotGame::Join {
                game: String::new(),
            },
        );
        let play =
            |cfg: BotConfig, go: Arc<std::sync::Barrier>, on_game: Box<dyn FnOnce(&str) + Send>| {
                std::thread::spawn(move || {
                    let entered = bot::enter(&cfg, on_game);
                    go.wait();
                    let (mut client, game) = entered?;
                    let cpu = cpu_seconds(true);
                    let report = bot::play(&mut client, &game, &cfg);
                    report.map(|r| (r, cpu_seconds(true) - cpu))
                })
            };
        threads.push(play(
            a,
            go.clone(),
            Box::new(move |g: &str| {
                let _ = tx.send(g.to_string());
            }),
        ));
        let id = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("a game id");
        let b = BotConfig {
            game: BotGame::Join { game: id },
            ..b
        };
        threads.push(play(b, go.clone(), Box::new(|_: &str| {})));
    }
    go.wait();
    println!(
        "{} bots signed in and in their games in {:.1} s",
        2 * games,
        setup.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let cpu_at_start = cpu_seconds(false);
    let (reports, bots_cpu): (Vec<BotReport>, Vec<f64>) = threads
        .into_iter()
        .map(|t| t.join().expect("a bot thread").expect("a bot's game"))
        .unzip();
    let elapsed = started.elapsed();
    let cpu = cpu_seconds(false) - cpu_at_start;
    let bots_cpu: f64 = bots_cpu.iter().sum();

    let mut latencies: Vec<Duration> = reports.iter().flat_map(|r| r.latencies.clone()).collect();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize];
    let actions: usize = reports.iter().map(|r| r.actions).sum();
    println!(
        "{actions} actions in {:.1} s: {:.0} actions per second; latency p50 {:.1} ms, p99 {:.1} ms; peak memory {:.0} MiB",
        elapsed.as_secs_f64(),
        actions as f64 / elapsed.as_secs_f64(),
        pct(0.5).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0,
        peak_memory_mib()
    );
    println!(
        "CPU per action: {:.3} ms in all, {:.3} ms the server's, {:.3} ms the bots' ({:.1} cores busy of {})",
        cpu * 1000.0 / actions as f64,
        (cpu - bots_cpu) * 1000.0 / actions as f64,
        bots_cpu * 1000.0 / actions as f64,
        cpu / elapsed.as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );

    // Every game finished, and its log replays to the view its players saw.
    let variant = Arc::new(
        titan_core::load(
            &root.join("variants/titan"),
            &titan_core::LoadOptions {
                search_paths: vec![root.join("variants")],
                shared_scripts: Some(root.join("scripts")),
            },
        )
        .expect("titan loads"),
    );
    let store = rt.block_on(Db::connect(&db)).expect("the database");
    let mut checked = 0;
    for r in &reports {
        assert!(r.finished, "game {} did not finish", r.game);
        let (row, log) = rt.block_on(async {
            (
                store.game(&r.game).await.unwrap().unwrap(),
                store.actions(&r.game, 0).await.unwrap(),
            )
        });
        let players: Vec<String> = serde_json::from_str(&row.players).unwrap();
        let options = serde_json::from_str(&row.options).unwrap();
        let (mut game, _) = Game::new(variant.clone(), options, &players, row.seed).unwrap();
        for (p, text) in log {
            let a: Action = serde_json::from_str(&text).unwrap();
            game.apply(PlayerId(p), &a).expect("the log replays");
        }
        let last = r.last.as_ref().expect("a last state");
        assert_eq!(
            view(&game, PlayerId(r.seat)),
            last.view,
            "game {}: the replay ends elsewhere",
            r.game
        );
        checked += 1;
    }
    println!("{checked} bots' games finished and replay to the end they saw");
    rt.block_on(server.stop());
}
