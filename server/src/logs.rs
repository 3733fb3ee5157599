//! The operator's log: `tracing` events on stderr, filtered by `TITAN_LOG`
//! (as `RUST_LOG` filters: `info` by default, `debug`, `titan_server=debug`,
//! ...). Events carry their facts as fields (game, user, address, instance,
//! limit, latency_ms), so a log reader can search them.
//!
//! What a client can make happen many times a second (a refused log-in, a
//! limit hit) is logged at most [`LINES_PER_SECOND`] times a second for
//! each kind; the next line says how many were left out, so a flood cannot
//! fill the operator's disk.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Lines a second of one kind (a limit, refused log-ins), at most.
pub const LINES_PER_SECOND: u32 = 20;

/// Installs the log on stderr for the process (`titan serve`), filtered by
/// `TITAN_LOG` (default `info`). A second call changes nothing.
pub fn init() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("TITAN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours for a person at a terminal, not for a log file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
}

/// A database URL as it may be shown: a password in it replaced by `***`.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user_info, host)) => {
            let user = user_info.split_once(':').map_or(user_info, |(u, _)| u);
            let hidden = if user_info.contains(':') { ":***" } else { "" };
            format!("{scheme}://{user}{hidden}@{host}{path}")
        }
        None => url.to_string(),
    }
}

struct Window {
    start: Instant,
    lines: u32,
    left_out: u64,
}

static WINDOWS: Mutex<Option<HashMap<&'static str, Window>>> = Mutex::new(None);

/// Whether a line of `kind` may be logged now, and how many of its kind
/// were left out since the last one logged.
fn allowed(kind: &'static str) -> Option<u64> {
    let mut windows = WINDOWS.lock().unwrap_or_else(|e| e.into_inner());
    let w = windows
        .get_or_insert_with(HashMap::new)
        .entry(kind)
        .or_insert(Window {
            start: Instant::now(),
            lines: 0,
            left_out: 0,
        });
    if w.start.elapsed().as_secs() >= 1 {
        w.start = Instant::now();
        w.lines = 0;
    }
    if w.lines >= LINES_PER_SECOND {
        w.left_out += 1;
        return None;
    }
    w.lines += 1;
    Some(std::mem::take(&mut w.left_out))
}

/// A limit was hit (`limit`: its name, as in docs/online.md "Limits"), by
/// an account and/or from an address.
pub(crate) fn limit_hit(limit: &'static str, user: Option<&str>, address: Option<IpAddr>) {
    if let Some(left_out) = allowed(limit) {
        tracing::warn!(
            limit,
            user = user.unwrap_or(""),
            address = address.map(|a| a.to_string()).unwrap_or_default(),
            left_out,
            "limit hit"
        );
    }
}

/// A database error (`what`: what was being done), for a game when one is
/// named. During an outage every request and every live game meets one:
/// logged at most [`LINES_PER_SECOND`] a second for each `what`.
pub(crate) fn database_error(what: &'static str, game: Option<&str>, error: &str) {
    if let Some(left_out) = allowed(what) {
        tracing::warn!(game = game.unwrap_or(""), error, left_out, "{what}");
    }
}

/// A log-in or sign-up refused: the name tried, the address, and why
/// (`wrong password`, `attempt limit`, `busy`, ...); never the password.
pub(crate) fn login_refused(kind: &'static str, user: &str, address: IpAddr, message: &str) {
    let why = refusal_reason(message);
    if let Some(left_out) = allowed("login refused") {
        tracing::warn!(
            request = kind,
            user,
            address = %address,
            why,
            left_out,
            "log-in refused"
        );
    }
}

/// The reason of a refused log-in, in a word or two, from the message the
/// client was sent.
fn refusal_reason(message: &str) -> &'static str {
    if message == crate::auth::WRONG {
        "wrong password"
    } else if message.starts_with("too many log-in attempts") {
        "attempt limit"
    } else if message.starts_with("too many wrong passwords") {
        "wrong passwords in a row"
    } else if message.contains(crate::auth::BUSY) {
        "busy"
    } else if message.contains("is taken") {
        "name taken"
    } else if message.starts_with("database") {
        "database"
    } else {
        "refused"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_url_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://titan:s3cr@t@db.example:5432/titan?sslmode=require"),
            "postgres://titan:***@db.example:5432/titan?sslmode=require"
        );
        assert_eq!(
            without_password("postgres://titan@db/titan"),
            "postgres://titan@db/titan"
        );
        assert_eq!(
            without_password("sqlite:///srv/titan.sqlite"),
            "sqlite:///srv/titan.sqlite"
        );
        assert_eq!(without_password("plain.sqlite"), "plain.sqlite");
    }

    #[test]
    fn a_flood_of_one_kind_is_logged_a_few_times_a_second() {
        let logged = (0..1000).filter(|_| allowed("test kind").is_some()).count();
        assert_eq!(logged, LINES_PER_SECOND as usize);
    }
}
