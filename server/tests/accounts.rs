//! Accounts under hostile use: log-in and sign-up attempts limited per name
//! and per address, a name nobody has verified like a known one, session
//! tokens that expire and can be revoked everywhere, and names compared
//! without case. Times are moved on by the server's manual clock
//! (`Config::clock`), never slept through; the waits are hours, which no
//! run of a test lasts.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use common::*;
use serde_json::Value;
use titan_server::Clock;
use titan_server::client::Client;
use titan_server::protocol::Request;

fn request(server: &TestServer, r: &Request) -> Result<Value, String> {
    // A new connection each time, as a guesser would.
    let mut c = Client::connect(&server.addr).unwrap();
    c.request(r)
}

fn signup(server: &TestServer, user: &str, password: &str) -> Result<Value, String> {
    request(
        server,
        &Request::Signup {
            user: user.into(),
            password: password.into(),
        },
    )
}

fn login(server: &TestServer, user: &str, password: &str) -> Result<Value, String> {
    request(
        server,
        &Request::Login {
            user: user.into(),
            password: password.into(),
        },
    )
}

fn token(server: &TestServer, token: &str) -> Result<Value, String> {
    request(
        server,
        &Request::Token {
            token: token.into(),
        },
    )
}

fn verifications(server: &TestServer) -> u64 {
    let s = server.server.as_ref().unwrap();
    s.shared
        .accounts
        .hasher
        .stats
        .verifications
        .load(Ordering::SeqCst)
}

/// The 11th attempt in a row for one name (sign-up and log-ins, in any
/// case) is refused with when to retry, even with the right password;
/// other names go on; one attempt is back after a tenth of the window.
/// From one address, the attempts on all names together are limited too.
fn attempts_are_limited(db: &str) {
    let mut config = config(db);
    config.login_attempts_per_name = 10;
    config.login_attempts_per_address = 0;
    config.login_attempt_window = Duration::from_secs(3600);
    // Wrong passwords do not make the name wait here (their own test).
    config.login_failures = 100;
    config.clock = Clock::manual();
    let clock = config.clock.clone();
    let server = TestServer::start(config);
    let ann = unique("ann");
    let bob = unique("bob");
    signup(&server, &ann, "ann-password").unwrap();
    signup(&server, &bob, "bob-password").unwrap();
    for i in 2..=10 {
        let name = if i % 2 == 0 {
            ann.clone()
        } else {
            ann.to_uppercase()
        };
        login(&server, &name, "ann-password").unwrap_or_else(|e| panic!("attempt {i}: {e}"));
    }
    let e = login(&server, &ann, "ann-password").unwrap_err();
    assert!(
        e.contains("too many log-in attempts for this name: retry in"),
        "{e}"
    );
    let secs: u64 = e
        .rsplit("retry in ")
        .next()
        .and_then(|s| s.trim_end_matches(" s").parse().ok())
        .unwrap_or_else(|| panic!("a number of seconds: {e}"));
    assert!((1..=360).contains(&secs), "{e}");
    // A name nobody has is limited alike (nothing tells them apart).
    let nobody = unique("nobody");
    for _ in 0..10 {
        let e = login(&server, &nobody, "guess-1").unwrap_err();
        assert!(e.contains("wrong user name or password"), "{e}");
    }
    let e = login(&server, &nobody, "guess-1").unwrap_err();
    assert!(e.contains("too many log-in attempts for this name"), "{e}");
    login(&server, &bob, "bob-password").expect("another name is not held up");
    clock.advance(Duration::from_secs(360));
    login(&server, &ann, "ann-password").expect("one attempt back after a tenth of the window");
    let e = login(&server, &ann, "ann-password").unwrap_err();
    assert!(e.contains("too many log-in attempts for this name"), "{e}");
    server.stop();

    // Per address: 5 attempts on 5 names, the 6th refused.
    let mut config = common::config(db);
    config.login_attempts_per_name = 0;
    config.login_attempts_per_address = 5;
    config.login_attempt_window = Duration::from_secs(3600);
    let server = TestServer::start(config);
    for i in 0..5 {
        signup(&server, &unique(&format!("u{i}-")), "a-password").unwrap();
    }
    let e = signup(&server, &unique("u5-"), "a-password").unwrap_err();
    assert!(
        e.contains("too many log-in attempts from your address: retry in"),
        "{e}"
    );
    let e = login(&server, &unique("u6-"), "a-password").unwrap_err();
    assert!(e.contains("from your address"), "{e}");
    server.stop();
}

#[test]
fn the_eleventh_rapid_attempt_for_a_name_is_refused() {
    let (_dir, db) = sqlite();
    attempts_are_limited(&db);
}

/// A log-in for a name nobody has verifies a password hash as one for a
/// known name does (counted by the hashers, not timed), and gets the answer
/// a wrong password gets.
fn unknown_names_cost_a_verification(db: &str) {
    let server = TestServer::start(config(db));
    let ann = unique("ann");
    signup(&server, &ann, "ann-password").unwrap();
    let v0 = verifications(&server);
    login(&server, &ann, "ann-password").unwrap();
    assert_eq!(
        verifications(&server),
        v0 + 1,
        "a known name, right password"
    );
    let wrong = login(&server, &ann, "not-the-password").unwrap_err();
    assert_eq!(
        verifications(&server),
        v0 + 2,
        "a known name, wrong password"
    );
    let unknown = login(&server, &unique("nobody"), "not-the-password").unwrap_err();
    assert_eq!(verifications(&server), v0 + 3, "a name nobody has");
    assert_eq!(wrong, unknown, "the same answer");
    server.stop();
}

#[test]
fn a_name_nobody_has_goes_through_the_verifier() {
    let (_dir, db) = sqlite();
    unknown_names_cost_a_verification(&db);
}

/// A token logs in until its lifetime is over, not after; a log-in then
/// gives a new one.
fn tokens_expire(db: &str) {
    let mut config = config(db);
    config.token_lifetime = Duration::from_secs(3600);
    config.clock = Clock::manual();
    let clock = config.clock.clone();
    let server = TestServer::start(config);
    let ann = unique("ann");
    let t = signup(&server, &ann, "ann-password").unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(token(&server, &t).unwrap()["user"], ann.as_str());
    clock.advance(Duration::from_secs(3540));
    assert_eq!(
        token(&server, &t).unwrap()["user"],
        ann.as_str(),
        "a minute before its end"
    );
    clock.advance(Duration::from_secs(120));
    let e = token(&server, &t).unwrap_err();
    assert!(e.contains("the token is not valid"), "{e}");
    assert!(e.contains("expired"), "{e}");
    let fresh = login(&server, &ann, "ann-password").unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(token(&server, &fresh).unwrap()["user"], ann.as_str());
    server.stop();
}

#[test]
fn an_expired_token_is_refused() {
    let (_dir, db) = sqlite();
    tokens_expire(&db);
}

/// `sign_out_everywhere` revokes every token of the account (not another
/// account's) and logs out its other connections; the connection that
/// asked stays logged in with a new token.
fn sign_out_everywhere(db: &str) {
    let server = TestServer::start(config(db));
    let ann = unique("ann");
    let bob = unique("bob");
    let tok = |v: Value| v["token"].as_str().unwrap().to_string();
    let t1 = tok(signup(&server, &ann, "ann-password").unwrap());
    let t2 = tok(login(&server, &ann, "ann-password").unwrap());
    let tb = tok(signup(&server, &bob, "bob-password").unwrap());
    let e = request(&server, &Request::SignOutEverywhere {}).unwrap_err();
    assert!(e.contains("log in first"), "{e}");
    let mut other = Client::connect(&server.addr).unwrap();
    other
        .request(&Request::Token { token: t1.clone() })
        .unwrap();
    let mut c = Client::connect(&server.addr).unwrap();
    c.request(&Request::Token { token: t2.clone() }).unwrap();
    let answer = c.request(&Request::SignOutEverywhere {}).unwrap();
    assert_eq!(answer["revoked"], 2, "{answer}");
    let t3 = tok(answer);
    for old in [&t1, &t2] {
        let e = token(&server, old).unwrap_err();
        assert!(e.contains("the token is not valid"), "{e}");
    }
    assert_eq!(token(&server, &t3).unwrap()["user"], ann.as_str());
    assert_eq!(token(&server, &tb).unwrap()["user"], bob.as_str());
    c.request(&Request::Lobby {})
        .expect("the asking connection is still logged in");
    let e = other.request(&Request::Lobby {}).unwrap_err();
    assert!(e.contains("signed out everywhere: log in again"), "{e}");
    let e = other.request(&Request::Lobby {}).unwrap_err();
    assert!(e.contains("log in first"), "{e}");
    server.stop();
}

#[test]
fn logging_out_revokes_that_token_only() {
    let (_dir, db) = sqlite();
    let server = TestServer::start(config(&db));
    let ann = unique("ann");
    let bob = unique("bob");
    let tok = |v: Value| v["token"].as_str().unwrap().to_string();
    let t1 = tok(signup(&server, &ann, "ann-password").unwrap());
    let t2 = tok(login(&server, &ann, "ann-password").unwrap());
    let tb = tok(signup(&server, &bob, "bob-password").unwrap());
    let mut c = Client::connect(&server.addr).unwrap();
    c.request(&Request::Token { token: t1.clone() }).unwrap();
    // Another account's token is not ann's to revoke.
    let answer = c.request(&Request::LogOut { token: tb.clone() }).unwrap();
    assert_eq!(answer["revoked"], false, "{answer}");
    let e = c.request(&Request::Lobby {}).unwrap_err();
    assert!(e.contains("log in first"), "{e}");
    c.request(&Request::Token { token: t1.clone() }).unwrap();
    let answer = c.request(&Request::LogOut { token: t1.clone() }).unwrap();
    assert_eq!(answer["revoked"], true, "{answer}");
    let e = token(&server, &t1).unwrap_err();
    assert!(e.contains("the token is not valid"), "{e}");
    assert_eq!(token(&server, &t2).unwrap()["user"], ann.as_str());
    assert_eq!(token(&server, &tb).unwrap()["user"], bob.as_str());
    server.stop();
}

#[test]
fn signing_out_everywhere_revokes_old_tokens() {
    let (_dir, db) = sqlite();
    sign_out_everywhere(&db);
}

/// `bob` and `BOB` are one name: the second sign-up is refused, a log-in in
/// any case logs in the account as it signed up.
fn names_without_case(db: &str) {
    let server = TestServer::start(config(db));
    let name = unique("Bob_");
    signup(&server, &name, "bob-password").unwrap();
    for other in [name.to_lowercase(), name.to_uppercase()] {
        let e = signup(&server, &other, "other-password").unwrap_err();
        assert!(e.contains("is taken"), "{other}: {e}");
        let answer = login(&server, &other, "bob-password").unwrap();
        assert_eq!(answer["user"], name.as_str(), "{other}");
        let t = answer["token"].as_str().unwrap();
        assert_eq!(token(&server, t).unwrap()["user"], name.as_str());
    }
    let e = login(&server, &name.to_lowercase(), "other-password").unwrap_err();
    assert!(e.contains("wrong user name or password"), "{e}");
    server.stop();
}

#[test]
fn names_are_one_whatever_their_case() {
    let (_dir, db) = sqlite();
    names_without_case(&db);
}

/// A database made before names were compared without case, holding `carl`
/// and `CARL`: the migration keeps both accounts (each logs in by its exact
/// name), and a new name differing from them only in case is refused.
#[test]
fn an_older_database_with_names_differing_in_case_migrates() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.sqlite");
    let url = format!("sqlite://{}?mode=rwc", file.display());
    let hash = |p: &str| titan_server::auth::hash_with(p, &mut Vec::new()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // The schema as the first migration alone made it.
        let old = dir.path().join("old-migrations");
        std::fs::create_dir(&old).unwrap();
        std::fs::copy(
            root().join("server/migrations/0001_start.sql"),
            old.join("0001_start.sql"),
        )
        .unwrap();
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        sqlx::migrate::Migrator::new(old.as_path())
            .await
            .unwrap()
            .run(&pool)
            .await
            .unwrap();
        for (name, password) in [("carl", "lower-password"), ("CARL", "upper-password")] {
            sqlx::query("INSERT INTO users (name, password_hash, created) VALUES ($1, $2, 0)")
                .bind(name)
                .bind(hash(password))
                .execute(&pool)
                .await
                .unwrap();
        }
        pool.close().await;
    });
    let server = TestServer::start(config(&url));
    assert_eq!(
        login(&server, "carl", "lower-password").unwrap()["user"],
        "carl"
    );
    assert_eq!(
        login(&server, "CARL", "upper-password").unwrap()["user"],
        "CARL"
    );
    let e = signup(&server, "Carl", "third-password").unwrap_err();
    assert!(e.contains("is taken"), "{e}");
    // Another case finds one of the two (the least name: "CARL").
    assert_eq!(
        login(&server, "cArL", "upper-password").unwrap()["user"],
        "CARL"
    );
    server.stop();
}

/// The same checks on PostgreSQL (its test database keeps the accounts of
/// earlier runs: the migration ran on a database with data).
#[test]
fn accounts_on_postgres() {
    let Some(db) = postgres("accounts_on_postgres") else {
        return;
    };
    attempts_are_limited(&db);
    unknown_names_cost_a_verification(&db);
    tokens_expire(&db);
    sign_out_everywhere(&db);
    names_without_case(&db);
}
