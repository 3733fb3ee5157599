//! A server stopped (as by SIGTERM) and started again on the same database
//! and address mid-game: every client is told why ("server restarting",
//! close code 1012) and the bots connect again with their tokens and
//! finish the game, nothing they were told was accepted lost or doubled
//! (docs/online.md, "Running a server").

mod common;

use std::sync::mpsc;
use std::time::Duration;

use common::*;
use titan_server::bot::{self, BotGame};
use titan_server::db::Db;

/// Bounded wait against a hang (never a verdict on speed).
const HANG: Duration = Duration::from_secs(120);

/// Actions stored for game `id`.
fn stored(rt: &tokio::runtime::Runtime, db: &Db, id: &str) -> usize {
    rt.block_on(db.actions(id, 0)).map_or(0, |a| a.len())
}

#[test]
fn a_restarted_server_says_why_and_its_bots_finish_the_game() {
    // A random game may end before the server stops (its bots then lose
    // nothing): that attempt tells nothing, and another game is played.
    assert!(
        (0..5).any(|_| restarted_mid_game()),
        "five games in a row ended before the server stopped"
    );
}

/// One attempt; false when the game was over before the server stopped.
fn restarted_mid_game() -> bool {
    let (_dir, url) = sqlite();
    let server = TestServer::start(config(&url));
    let addr = server.addr.clone();
    let (ann, bob) = (unique("ann"), unique("bob"));
    let (tx, rx) = mpsc::channel();
    let a = {
        let cfg = bot(
            &addr,
            &ann,
            BotGame::Create {
                variant: "titan".into(),
                seats: 2,
            },
        );
        std::thread::spawn(move || bot::run(&cfg, |g| tx.send(g.to_string()).unwrap()))
    };
    let id = rx.recv_timeout(HANG).unwrap();
    let b = {
        let cfg = bot(&addr, &bob, BotGame::Join { game: id.clone() });
        std::thread::spawn(move || bot::run(&cfg, |_| {}))
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let db = rt.block_on(Db::connect(&url)).unwrap();
    wait_until("a dozen actions stored", || stored(&rt, &db, &id) >= 12);
    // Stopped cleanly, then started on the same address and database.
    server.stop();
    let at_stop = stored(&rt, &db, &id);
    if replay(&url, &id).game.state.outcome.is_some() {
        // Over already: the bots finish without a restart to see.
        let _ = (a.join(), b.join());
        return false;
    }
    let mut again = config(&url);
    again.listen = addr.parse().unwrap();
    let server = TestServer::start(again);

    let a = a.join().unwrap().unwrap();
    let b = b.join().unwrap().unwrap();
    assert!(a.finished && b.finished, "the game was not finished");
    for r in [&a, &b] {
        assert!(
            r.lost.iter().any(|e| e.contains("server restarting")),
            "the bot was not told why: {:?}",
            r.lost
        );
    }
    let replay = replay(&url, &id);
    assert!(
        replay.game.state.outcome.is_some(),
        "the stored game is over"
    );
    assert!(
        replay.actions.len() > at_stop,
        "no action after the restart"
    );
    assert_eq!(replay.actions.len(), a.actions + b.actions);
    check_accepted(&replay, &a.accepted);
    check_accepted(&replay, &b.accepted);
    for r in [&a, &b] {
        assert_eq!(r.states.last().unwrap().actions, replay.actions.len());
    }
    server.stop();
    true
}
