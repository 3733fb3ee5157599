//! Hostile load on loopback, bounded in count and time: simultaneous
//! log-ins, a connection flood past the per-address cap, a lobby flood past
//! the open-games limit and a chat flood past the chat limits, while two
//! bots play a game. The server refuses what is over its limits with a
//! reason, `/health` keeps answering, the peak memory stays bounded, the
//! memory is given back after the floods, and the game finishes
//! (docs/online.md, "Limits"). Alone in its test binary, so that the
//! process's memory is this test's.

mod common;

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::*;
use titan_server::bot::{self, BotGame};
use titan_server::client::Client;
use titan_server::protocol::Request;

/// Bounded wait against a hang (never a verdict on speed).
const HANG: Duration = Duration::from_secs(120);
const LOG_INS: usize = 40;
/// Addresses flooding, each opening this many connections, of which the
/// server keeps this many.
const ADDRESSES: usize = 24;
const PER_FLOODER: usize = 100;
const PER_ADDRESS: usize = 80;
/// Memory (KiB) the floods may leave held once over.
const HELD_KIB: u64 = 16 * 1024;

/// A line of /proc/self/status, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

/// A TCP connection to `addr` from the loopback address `from` (any of
/// 127.0.0.0/8 reaches a server on 127.0.0.1): the flood comes from many
/// addresses, and `/health` from one of its own.
fn connect_from(from: [u8; 4], addr: &str) -> std::io::Result<std::net::TcpStream> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let addr: std::net::SocketAddr = addr.parse().unwrap();
    rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind((std::net::Ipv4Addr::from(from), 0).into())?;
        let stream = socket.connect(addr).await?.into_std()?;
        stream.set_nonblocking(false)?;
        Ok(stream)
    })
}

/// `GET /health` from an address of its own: whether it said 200, and how
/// long it took.
fn health(addr: &str) -> (bool, Duration) {
    let since = Instant::now();
    let Ok(mut s) = connect_from([127, 0, 0, 200], addr) else {
        return (false, since.elapsed());
    };
    s.set_read_timeout(Some(HANG)).unwrap();
    let _ = write!(
        s,
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    );
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    (out.starts_with("HTTP/1.1 200"), since.elapsed())
}

/// Opens `n` WebSockets from `from`: those accepted, and the refusals.
fn flood_from(from: [u8; 4], addr: &str, n: usize) -> (Vec<impl Sized>, Vec<String>) {
    let (mut open, mut refused) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let Ok(tcp) = connect_from(from, addr) else {
            refused.push("no connection".to_string());
            continue;
        };
        match tungstenite::client(format!("ws://{addr}/ws"), tcp) {
            Ok((ws, _)) => open.push(ws),
            Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r))) => {
                refused.push(format!(
                    "{} {}",
                    r.status(),
                    String::from_utf8_lossy(r.body().as_deref().unwrap_or_default())
                ))
            }
            Err(e) => refused.push(e.to_string()),
        }
    }
    (open, refused)
}

#[test]
fn floods_are_refused_in_bounded_memory_and_a_game_goes_on() {
    let (_dir, db) = sqlite();
    let mut config = config(&db);
    // The limits as a server has them (the tests' config lifts them).
    config.limits.connections_per_address = PER_ADDRESS;
    config.limits.open_games_per_account = 3;
    config.limits.chat_per_minute_per_account = 20;
    config.limits.chat_per_minute_per_game = 60;
    // Every client is on loopback, the bots' too: the attempts per address
    // are not limited here (limits.rs and accounts.rs test that limit).
    config.login_attempts_per_address = 0;
    config.hash_workers = 2;
    config.hash_queue = 16;
    let server = TestServer::start(config);
    let addr = server.addr.clone();
    let shared = server.server.as_ref().unwrap().shared.clone();

    // Games between two bots, one after another, going on through it all
    // until the floods are over: each one finishes.
    let floods_over = Arc::new(AtomicBool::new(false));
    let games = {
        let (addr, over) = (addr.clone(), floods_over.clone());
        std::thread::spawn(move || {
            // Games finished so far.
            let mut round = 0;
            loop {
                if round > 0 && over.load(Ordering::SeqCst) {
                    return round;
                }
                let (tx, rx) = mpsc::channel();
                let mut cfg = bot(
                    &addr,
                    &format!("ann{round}"),
                    BotGame::Create {
                        variant: "titan".into(),
                        seats: 2,
                    },
                );
                cfg.record = false;
                let a =
                    std::thread::spawn(move || bot::run(&cfg, |g| tx.send(g.to_string()).unwrap()));
                let id = rx.recv_timeout(HANG).unwrap();
                let mut cfg = bot(&addr, &format!("bob{round}"), BotGame::Join { game: id });
                cfg.record = false;
                let b = bot::run(&cfg, |_| {}).unwrap();
                let a = a.join().unwrap().unwrap();
                assert!(a.finished && b.finished, "a game did not finish");
                round += 1;
            }
        })
    };
    // The flooder, in a game of her own against a computer (waiting for her: it goes on).
    let mut eve = Client::connect(&addr).unwrap();
    eve.sign_in("eve", "eve-password").unwrap();
    let id = eve
        .request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "computer:random".into()],
            timeout_secs: 0,
        })
        .unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let rss_before = status_kib("VmRSS:");
    let peak_before = status_kib("VmHWM:");
    let mut health_took = Vec::new();

    // Simultaneous log-ins (sign-ups), all at once: each signed in or
    // refused with a reason (busy, or too many from this address).
    let barrier = Arc::new(Barrier::new(LOG_INS));
    let threads: Vec<_> = (0..LOG_INS)
        .map(|i| {
            let (addr, barrier) = (addr.clone(), barrier.clone());
            std::thread::spawn(move || {
                let c = Client::connect(&addr);
                barrier.wait();
                c?.request(&Request::Signup {
                    user: format!("flood{i}"),
                    password: "flood-password".into(),
                })
            })
        })
        .collect();
    health_took.push(health(&addr));
    for t in threads {
        if let Err(e) = t.join().unwrap() {
            assert!(
                e.contains("busy") || e.contains("too many log-in attempts"),
                "{e}"
            );
        }
    }

    // A connection flood from many addresses: the cap per address holds,
    // the rest are refused with a 503 that says why.
    let mut open = Vec::new();
    let mut refused = Vec::new();
    for host in 0..ADDRESSES {
        let (o, r) = flood_from([127, 0, 1, host as u8 + 1], &addr, PER_FLOODER);
        assert!(o.len() <= PER_ADDRESS, "{} connections open", o.len());
        open.extend(o);
        refused.extend(r);
    }
    assert_eq!(open.len(), ADDRESSES * PER_ADDRESS, "{refused:?}");
    for e in &refused {
        assert!(e.contains("503") && e.contains("your address"), "{e}");
    }
    assert_eq!(refused.len(), ADDRESSES * (PER_FLOODER - PER_ADDRESS));
    health_took.push(health(&addr));
    let open_during = shared.connections();
    drop(open);

    // A lobby flood: three open games, then refusals.
    let mut created = 0;
    for _ in 0..50 {
        match eve.request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "human".into()],
            timeout_secs: 0,
        }) {
            Ok(_) => created += 1,
            Err(e) => assert!(e.starts_with("too many open games"), "{e}"),
        }
    }
    assert_eq!(created, 3);

    // A chat flood in her game.
    eve.request(&Request::Watch {
        game: id.clone(),
        events_from: 0,
    })
    .unwrap();
    let mut said = 0;
    for i in 0..200 {
        match eve.request(&Request::Chat {
            text: format!("{i} {}", "x".repeat(400)),
        }) {
            Ok(_) => said += 1,
            Err(e) => assert!(e.starts_with("too many chat lines"), "{e}"),
        }
    }
    assert!(said <= 20, "{said} chat lines taken");
    health_took.push(health(&addr));
    drop(eve);

    floods_over.store(true, Ordering::SeqCst);
    let finished = games.join().unwrap();
    assert!(finished >= 1);

    // Afterwards: the connections closed, the memory given back.
    wait_until("the flood's connections closed", || {
        shared.connections() == 0
    });
    health_took.push(health(&addr));
    let peak = status_kib("VmHWM:");
    let mut rss_after = status_kib("VmRSS:");
    // Given back within a few trims (the bound only guards a hang).
    let since = Instant::now();
    while rss_after > rss_before + HELD_KIB && since.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
        rss_after = status_kib("VmRSS:");
    }
    eprintln!(
        "hostile load: {finished} bot games, {open_during} connections at once; RSS {} MiB before, {} MiB after; peak {} MiB (was {} MiB); /health {:?}",
        rss_before / 1024,
        rss_after / 1024,
        peak / 1024,
        peak_before / 1024,
        health_took.iter().map(|(_, t)| *t).collect::<Vec<_>>()
    );
    for (ok, took) in &health_took {
        assert!(*ok, "/health did not answer 200");
        assert!(*took < Duration::from_secs(5), "/health took {took:?}");
    }
    assert!(
        peak.saturating_sub(peak_before) < 512 * 1024,
        "the peak memory grew by {} MiB",
        (peak - peak_before) / 1024
    );
    assert!(
        rss_after <= rss_before + HELD_KIB,
        "{} MiB held after the floods, {} MiB before",
        rss_after / 1024,
        rss_before / 1024
    );
    server.stop();
}
