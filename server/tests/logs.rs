//! The operator's log (docs/online.md, "The log"): what a server started,
//! a refused log-in and a limit hit say, with their fields, and never a
//! password. The log is captured by a subscriber of this test process
//! (every thread's events, the server's included).

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use common::*;
use titan_server::client::Client;
use titan_server::protocol::Request;

/// Every line logged, in order.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// The lines holding every one of `parts`.
    fn lines_with(&self, parts: &[&str]) -> Vec<String> {
        self.text()
            .lines()
            .filter(|l| parts.iter().all(|p| l.contains(p)))
            .map(String::from)
            .collect()
    }
}

/// The log of this test process (one for all its tests: each looks for
/// its own names in it).
fn capture() -> Captured {
    static LOG: std::sync::OnceLock<Captured> = std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let log = Captured::default();
        let writer = log.clone();
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .init();
        log
    })
    .clone()
}

/// A refused log-in is logged with the name, the address and why (a wrong
/// password, then the attempt limit), never the password; a limit hit
/// with its name and the account; the start with the database (without
/// its password) and the variants.
#[test]
fn refused_log_ins_and_limits_hit_are_logged_with_their_fields() {
    let log = capture();
    let (_dir, db) = sqlite();
    let mut config = common::config(&db);
    config.login_attempts_per_name = 3;
    config.limits.open_games_per_account = 1;
    let server = TestServer::start(config);

    let started = log.lines_with(&["starting", "database=", "variants=", &db]);
    assert_eq!(started.len(), 1, "no start line in:\n{}", log.text());

    let mut ann = Client::connect(&server.addr).unwrap();
    ann.sign_in("ann", "ann-password").unwrap();
    let mut thief = Client::connect(&server.addr).unwrap();
    let wrong = |c: &mut Client| {
        c.request(&Request::Login {
            user: "ann".into(),
            password: "not-her-secret".into(),
        })
        .unwrap_err()
    };
    assert_eq!(wrong(&mut thief), titan_server::auth::WRONG);
    let refused = log.lines_with(&["log-in refused", "ann", "127.0.0.1", "wrong password"]);
    assert_eq!(refused.len(), 1, "log:\n{}", log.text());
    // The sign-up counted as the first attempt: the third is over the limit.
    let e = wrong(&mut thief);
    assert_eq!(e, titan_server::auth::WRONG);
    let e = wrong(&mut thief);
    assert!(e.starts_with("too many log-in attempts"), "{e}");
    let limited = log.lines_with(&["log-in refused", "ann", "127.0.0.1", "attempt limit"]);
    assert_eq!(limited.len(), 1, "log:\n{}", log.text());

    let create = |c: &mut Client| {
        c.request(&Request::Create {
            variant: "titan".into(),
            options: Default::default(),
            seats: vec!["human".into(), "human".into()],
            timeout_secs: 0,
        })
    };
    create(&mut ann).unwrap();
    let e = create(&mut ann).unwrap_err();
    assert!(e.starts_with("too many open games"), "{e}");
    let hit = log.lines_with(&["limit hit", "open_games_per_account", "ann", "127.0.0.1"]);
    assert_eq!(hit.len(), 1, "log:\n{}", log.text());

    let text = log.text();
    assert!(
        !text.contains("not-her-secret") && !text.contains("ann-password"),
        "a password was logged:\n{text}"
    );
    assert!(text.contains("WARN"), "{text}");
    server.stop();
    assert_eq!(log.lines_with(&["stopping"]).len(), 1, "{}", log.text());
}

/// A game taken over from an instance that died is logged with the game
/// and the instance it was taken from.
#[test]
fn a_lease_taken_over_is_logged_with_the_game_and_the_instance() {
    let log = capture();
    let (_dir, db) = sqlite();
    let first = TestServer::start(common::config(&db));
    let dead = first.server.as_ref().unwrap().shared.instance.clone();
    let mut cy = Client::connect(&first.addr).unwrap();
    cy.sign_in("cy", "cy-password").unwrap();
    // A person and a computer: it starts at once, and a computer may have
    // to play, so another instance takes it over.
    let id = cy
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
    wait_until("the first instance holds the lease", || {
        lease_holder(&db, &id).is_some_and(|(owner, _)| owner == dead)
    });
    let second = TestServer::start(common::config(&db));
    first.kill();
    wait_until("the take-over logged", || {
        !log.lines_with(&["lease taken over", &id, &dead]).is_empty()
    });
    second.stop();
}
