//! What the server tests share: a server on loopback with a fresh database,
//! bots, and the replay of a stored game to check what was sent.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use titan_core::game::view::{PlayerView, view};
use titan_core::game::{Action, Event, Game, PlayerId};
use titan_core::model::Variant;
use titan_server::bot::{BotConfig, BotGame};
use titan_server::db::Db;
use titan_server::protocol::{GameState, SPECTATOR};
use titan_server::{Config, Server};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A SQLite database in a new temporary folder (kept while the value is).
pub fn sqlite() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("t.sqlite").display()
    );
    (dir, url)
}

/// The PostgreSQL URL the CI gives (`TITAN_TEST_POSTGRES`, set by
/// `.ci/run`), for the test `test`. Without it the test is skipped, and
/// says so on the terminal even when it passes (written past the test
/// harness's capture); on CI (`CI=true`) a missing PostgreSQL fails the
/// test instead, so that its tests never pass unrun there.
pub fn postgres(test: &str) -> Option<String> {
    let url = std::env::var("TITAN_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty());
    if url.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{test}: no TITAN_TEST_POSTGRES on CI: .ci/run sets up a PostgreSQL and names it there"
        );
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "{test}: skipped: no TITAN_TEST_POSTGRES");
    }
    url
}

/// Who holds a game's lease, as the database says (None: nobody).
pub fn lease_holder(db_url: &str, id: &str) -> Option<(String, i64)> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let db = Db::connect(db_url).await.unwrap();
        db.lease_holder(id).await.unwrap()
    })
}

/// Polls `done` every 20 ms until it holds; `what` names it when it never
/// does. The bound only guards against a hang: it is far above any wait
/// the test expects, and no assertion depends on how long it took.
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let since = std::time::Instant::now();
    while !done() {
        assert!(
            since.elapsed() < Duration::from_secs(300),
            "{what}: still not after 300 s (a hang)"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A name no earlier run used (PostgreSQL keeps its data between runs).
pub fn unique(name: &str) -> String {
    format!("{name}{}", titan_server::auth::random_hex(3))
}

pub fn config(db: &str) -> Config {
    let mut c = Config::new(
        "127.0.0.1:0".parse().unwrap(),
        db.to_string(),
        root().join("variants"),
    );
    c.poll = Duration::from_millis(40);
    c.lease = Duration::from_millis(900);
    c.seed = Some(11);
    // Bots act as fast as they can; the limits have their own test.
    c.rate_per_connection = 2000;
    c.rate_per_account = 4000;
    // Every client is on loopback, many sign in with one name; two hashers
    // whatever the machine.
    c.login_attempts_per_name = 0;
    c.login_attempts_per_address = 0;
    c.hash_workers = 2;
    // Nor the other limits (their own tests in limits.rs set them low).
    c.limits.open_games_per_account = 1000;
    c.limits.games_per_account = 1000;
    c.limits.computer_seats_per_account = 1000;
    c.limits.chat_per_minute_per_account = 100_000;
    c.limits.chat_per_minute_per_game = 100_000;
    // Every client is on loopback: one address.
    c.limits.connections_per_address = 10_000;
    c
}

/// A server on its own runtime.
pub struct TestServer {
    pub rt: tokio::runtime::Runtime,
    pub server: Option<Server>,
    pub addr: String,
}

impl TestServer {
    pub fn start(config: Config) -> TestServer {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = rt.block_on(titan_server::start(config)).unwrap();
        let addr = server.addr.to_string();
        TestServer {
            rt,
            server: Some(server),
            addr,
        }
    }

    pub fn stop(mut self) {
        if let Some(s) = self.server.take() {
            self.rt.block_on(s.stop());
        }
    }

    /// Dies as a killed process would: leases are left to expire.
    pub fn kill(mut self) {
        if let Some(s) = self.server.take() {
            s.kill();
        }
        self.rt.shutdown_timeout(Duration::from_secs(2));
    }
}

pub fn bot(server: &str, user: &str, game: BotGame) -> BotConfig {
    BotConfig {
        server: server.to_string(),
        user: user.to_string(),
        password: format!("{user}-password"),
        game,
        level: "random".into(),
        // Only against a hang: nothing waits for it to run out.
        patience: Duration::from_secs(120),
        max_actions: None,
        stop_at: None,
        record: true,
    }
}

/// A stored game replayed: the views every seat and a spectator had after
/// each action, the events, and the final game.
pub struct Replay {
    pub game: Game,
    pub views: Vec<Vec<PlayerView>>,
    pub actions: Vec<(u8, Action)>,
    pub events: Vec<Event>,
}

pub fn load_variant(name: &str) -> Arc<Variant> {
    let root = root();
    let opts = titan_core::LoadOptions {
        search_paths: vec![root.join("variants")],
        shared_scripts: Some(root.join("scripts")),
    };
    Arc::new(titan_core::load(&root.join("variants").join(name), &opts).unwrap())
}

/// Replays game `id` from the database.
pub fn replay(db_url: &str, id: &str) -> Replay {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (row, stored) = rt.block_on(async {
        let db = Db::connect(db_url).await.unwrap();
        let row = db.game(id).await.unwrap().unwrap();
        let actions = db.actions(id, 0).await.unwrap();
        (row, actions)
    });
    let variant = load_variant(&row.variant);
    let players: Vec<String> = serde_json::from_str(&row.players).unwrap();
    let options = serde_json::from_str(&row.options).unwrap();
    let (mut game, mut events) = Game::new(variant, options, &players, row.seed).unwrap();
    let seats: Vec<PlayerId> = (0..players.len() as u8)
        .map(PlayerId)
        .chain([SPECTATOR])
        .collect();
    let snap = |g: &Game| seats.iter().map(|&s| view(g, s)).collect::<Vec<_>>();
    let mut views = vec![snap(&game)];
    let mut actions = Vec::new();
    for (player, text) in stored {
        let action: Action = serde_json::from_str(&text).unwrap();
        events.extend(game.apply(PlayerId(player), &action).unwrap());
        actions.push((player, action));
        views.push(snap(&game));
    }
    Replay {
        game,
        views,
        actions,
        events,
    }
}

/// Checks every state a client was pushed against the replay: the view is
/// exactly the engine's view for that seat (or a spectator's) at that point,
/// a spectator sees no legion's characters, and no event revealed to
/// another player was sent.
pub fn check_pushed(replay: &Replay, states: &[GameState]) {
    assert!(!states.is_empty(), "no state was pushed");
    let players = replay.views[0].len() - 1;
    for s in states {
        let me = s.seat.unwrap_or(SPECTATOR);
        let column = if me == SPECTATOR {
            players
        } else {
            me.0 as usize
        };
        assert_eq!(
            s.view, replay.views[s.actions][column],
            "the view pushed to {me:?} after {} actions is not that seat's",
            s.actions
        );
        if me == SPECTATOR {
            assert!(
                s.view.legions.iter().all(|l| l.characters.is_none()),
                "a spectator was shown a legion's contents"
            );
            assert!(s.legal.is_empty() && s.battle.is_none());
        }
        for (i, e) in &s.events {
            assert_eq!(e, &replay.events[*i]);
            if let Event::Revealed { to: Some(to), .. } = e {
                assert_eq!(*to, me, "an event revealed to another player was sent");
            }
        }
    }
}

/// Checks that every action a bot was told was accepted is in the log at
/// its index: nothing lost, nothing applied twice.
pub fn check_accepted(replay: &Replay, accepted: &[(usize, serde_json::Value)]) {
    for (i, wire) in accepted {
        let action: Action = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(
            replay.actions.get(*i).map(|(_, a)| a),
            Some(&action),
            "accepted action {i} is not in the log"
        );
    }
}
