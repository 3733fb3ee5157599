//! A PostgreSQL outage as the server sees it (docs/online.md, "Running a
//! server"): the server reaches its database through a TCP proxy in this
//! test, which cuts every connection and refuses new ones, then lets them
//! through again. Meanwhile `/health` says 503 and requests fail fast with
//! a "database" error; the bots playing a game wait and resume; afterwards
//! the game finishes, and its stored log is what the bots were told.
//! Needs `TITAN_TEST_POSTGRES` (see common::postgres).

mod common;

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use common::*;
use titan_server::bot::{self, BotGame};
use titan_server::client::Client;
use titan_server::db::Db;
use titan_server::protocol::Request;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// Bounded wait against a hang (never a verdict on speed).
const HANG: Duration = Duration::from_secs(120);

/// A TCP proxy to the database that can be cut and restored.
struct Proxy {
    addr: SocketAddr,
    up: Arc<AtomicBool>,
    /// The forwarding tasks of the connections open now.
    pairs: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let up = Arc::new(AtomicBool::new(true));
        let pairs: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let (up2, pairs2) = (up.clone(), pairs.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    continue;
                };
                if !up2.load(Ordering::SeqCst) {
                    // Down: as a database host that refuses (dropped at once).
                    drop(client);
                    continue;
                }
                let upstream = upstream.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                let mut pairs = pairs2.lock().unwrap();
                pairs.retain(|t| !t.is_finished());
                pairs.push(task);
            }
        });
        Proxy { addr, up, pairs }
    }

    /// Cuts every open connection and refuses new ones.
    fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for t in self.pairs.lock().unwrap().drain(..) {
            t.abort();
        }
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

/// `url` with its host and port replaced by `addr`, and the host and port
/// it named (PostgreSQL's default port when none).
fn through(url: &str, addr: SocketAddr) -> (String, String) {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (user, host) = match authority.rsplit_once('@') {
        Some((u, h)) => (format!("{u}@"), h),
        None => (String::new(), authority),
    };
    let upstream = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    (format!("{scheme}://{user}{addr}{path}"), upstream)
}

/// `GET /health`: the status line and how long it took.
fn health(addr: &str) -> (String, Duration) {
    let since = Instant::now();
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(HANG)).unwrap();
    write!(
        s,
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    (out, since.elapsed())
}

#[test]
fn a_database_outage_is_waited_out_and_the_game_finishes() {
    let Some(url) = postgres("a_database_outage_is_waited_out_and_the_game_finishes") else {
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (_, upstream) = through(&url, "127.0.0.1:1".parse().unwrap());
    let proxy = rt.block_on(Proxy::start(upstream));
    let (proxied, _) = through(&url, proxy.addr);
    let direct = rt.block_on(Db::connect(&url)).unwrap();

    let server = TestServer::start(config(&proxied));
    let addr = server.addr.clone();
    assert!(health(&addr).0.starts_with("HTTP/1.1 200"));
    let (ann, bob) = (unique("ann"), unique("bob"));
    let (tx, rx) = mpsc::channel();
    let a = {
        // `simple` bots (the server's computer player suggests) never
        // concede the game: it lasts past the outage.
        let mut cfg = bot(
            &addr,
            &ann,
            BotGame::Create {
                variant: "titan".into(),
                seats: 2,
            },
        );
        cfg.level = "simple".into();
        std::thread::spawn(move || bot::run(&cfg, |g| tx.send(g.to_string()).unwrap()))
    };
    let id = rx.recv_timeout(HANG).unwrap();
    let b = {
        let mut cfg = bot(&addr, &bob, BotGame::Join { game: id.clone() });
        cfg.level = "simple".into();
        std::thread::spawn(move || bot::run(&cfg, |_| {}))
    };
    let stored = || rt.block_on(direct.actions(&id, 0)).unwrap().len();
    // And a game computers play: the server plays it on.
    let mut dan = Client::connect(&addr).unwrap();
    dan.sign_in(&unique("dan"), "dan-password").unwrap();
    let computers = dan
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["computer:random".into(), "computer:random".into()],
            timeout_secs: 0,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let played = |id: &str| {
        let row = rt.block_on(direct.game(id)).unwrap().unwrap();
        (
            rt.block_on(direct.actions(id, 0)).unwrap().len(),
            row.status,
        )
    };

    // Cut as soon as the people's game is under way, so that it is not over
    // before the outage.
    wait_until("a dozen actions stored", || stored() >= 12);
    proxy.cut();
    let at_cut = stored();
    // Fast, and says why (the database), however long the outage lasts.
    let (h, took) = health(&addr);
    assert!(h.starts_with("HTTP/1.1 503"), "{h}");
    assert!(h.contains("database unreachable"), "{h}");
    assert!(took < Duration::from_secs(8), "/health took {took:?}");
    let mut c = Client::connect(&addr).unwrap();
    let since = Instant::now();
    let e = c
        .request(&Request::Signup {
            user: unique("cy"),
            password: "cy-password".into(),
        })
        .unwrap_err();
    assert!(e.starts_with("database"), "{e}");
    assert!(
        since.elapsed() < Duration::from_secs(8),
        "{:?}",
        since.elapsed()
    );
    // Longer than a lease: the server's leases run out meanwhile.
    std::thread::sleep(Duration::from_secs(3));
    let during = stored();
    assert_eq!(during, at_cut, "an action was stored with the database cut");
    proxy.restore();
    // The computers' game goes on (its lease taken back), or is over.
    let (before, _) = played(&computers);
    wait_until("the computers' game goes on", || {
        let (n, status) = played(&computers);
        n > before + 5 || status == "over"
    });

    let a = a.join().unwrap().unwrap();
    let b = b.join().unwrap().unwrap();
    assert!(a.finished && b.finished, "the game was not finished");
    assert!(
        a.lost.iter().chain(&b.lost).any(|e| e.contains("database")),
        "no bot saw the outage: {:?} {:?}",
        a.lost,
        b.lost
    );
    let (h, _) = health(&addr);
    assert!(h.starts_with("HTTP/1.1 200"), "{h}");
    let replay = replay(&url, &id);
    assert!(
        replay.game.state.outcome.is_some(),
        "the stored game is over"
    );
    assert!(replay.actions.len() > at_cut, "no action after the outage");
    check_accepted(&replay, &a.accepted);
    check_accepted(&replay, &b.accepted);
    // Nothing accepted twice (each index once), nothing the bots were told
    // of missing: both last saw the whole stored game.
    let mut indices: Vec<usize> = a
        .accepted
        .iter()
        .chain(&b.accepted)
        .map(|(i, _)| *i)
        .collect();
    indices.sort_unstable();
    let n = indices.len();
    indices.dedup();
    assert_eq!(indices.len(), n, "an index was accepted twice");
    for r in [&a, &b] {
        assert_eq!(r.states.last().unwrap().actions, replay.actions.len());
        check_pushed(&replay, &r.states);
    }
    server.stop();
}
