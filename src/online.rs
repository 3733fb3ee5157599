//! `titan serve` and `titan bot`: the game server and a computer client
//! of it (the server itself is the titan-server crate).

use std::net::SocketAddr;
use std::process::ExitCode;

use titan_server::bot::{BotConfig, BotGame};

/// Runs a server until interrupted; `connections`: the most open at once
/// in all and from one address.
pub fn serve(
    listen: SocketAddr,
    database: Option<String>,
    lease: u64,
    variants: Option<std::path::PathBuf>,
    connections: (usize, usize),
) -> ExitCode {
    let database = database.unwrap_or_else(titan_server::default_database);
    let variants = variants.unwrap_or_else(crate::check::variants_root);
    // A server that offers nothing is a mistake in its set-up: said at
    // once, not found by the first player.
    let offered = crate::rules_masterboard::bundled_variants(&variants);
    if offered.is_empty() {
        eprintln!(
            "titan serve: no variants under {} (folders with a variant.ron): give --variants DIR",
            variants.display()
        );
        return ExitCode::FAILURE;
    }
    // What an operator needs to know it runs the right thing; never the
    // database's password. On stderr, the log: stdout's first line stays
    // the address listened on, which scripts read.
    eprintln!(
        "titan serve: database {}; variants from {} ({})",
        without_password(&database),
        variants.display(),
        offered.join(", ")
    );
    let mut config = titan_server::Config::new(listen, database.clone(), variants);
    config.lease = std::time::Duration::from_secs(lease.max(1));
    (
        config.limits.connections,
        config.limits.connections_per_address,
    ) = connections;
    match titan_server::run_blocking(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("titan serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The arguments of `titan bot`.
#[derive(clap::Args)]
pub struct BotArgs {
    /// The server: HOST:PORT, http://HOST:PORT or ws://HOST:PORT/ws.
    #[arg(long, env = "TITAN_SERVER")]
    server: String,
    /// The account (signed up if new).
    #[arg(long, env = "TITAN_USER")]
    user: String,
    /// The account's password (6 to 256 bytes; set when signing up). On
    /// the command line it shows in `ps`: prefer TITAN_PASSWORD or
    /// --password-file.
    #[arg(
        long,
        env = "TITAN_PASSWORD",
        hide_env_values = true,
        conflicts_with = "password_file"
    )]
    password: Option<String>,
    /// A file whose first line is the account's password.
    #[arg(long, env = "TITAN_PASSWORD_FILE", value_name = "FILE")]
    password_file: Option<std::path::PathBuf>,
    /// Creates a game of this variant (and prints its id).
    #[arg(
        long,
        value_name = "VARIANT",
        conflicts_with = "join",
        requires = "seats"
    )]
    create: Option<String>,
    /// The seats of the game created, all for people (or bots).
    // A u8, so that an absurd count is refused here rather than a list of
    // that many seats being built (the variant bounds it further).
    #[arg(long, value_name = "N")]
    seats: Option<u8>,
    /// Joins this game.
    #[arg(long, value_name = "GAME", required_unless_present = "create")]
    join: Option<String>,
    /// The computer player's level: `random` (chosen by the bot), `simple`
    /// or `strong` (the engine's computer players, run by the server from
    /// this seat's observation only; see docs/online.md).
    #[arg(long, default_value = "random")]
    level: String,
}

/// Plays a seat to the game's end; prints the game's id when it has one,
/// then how the game went, as one JSON line.
pub fn bot(args: BotArgs) -> ExitCode {
    let game = match (args.create, args.join) {
        (Some(variant), _) => BotGame::Create {
            variant,
            seats: usize::from(args.seats.unwrap_or(2)),
        },
        (None, Some(game)) => BotGame::Join { game },
        (None, None) => {
            eprintln!("titan bot: give --create VARIANT --seats N or --join GAME");
            return ExitCode::from(2);
        }
    };
    if !titan_server::computer::LEVELS.contains(&args.level.as_str()) {
        eprintln!(
            "titan bot: there is no computer level {:?} (levels: {})",
            args.level,
            titan_server::computer::LEVELS.join(", ")
        );
        return ExitCode::from(2);
    }
    let password = match (args.password, &args.password_file) {
        (Some(p), _) => p,
        (None, Some(file)) => match read_password(file) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("titan bot: {e}");
                return ExitCode::from(2);
            }
        },
        (None, None) => {
            eprintln!("titan bot: give --password-file FILE, TITAN_PASSWORD or --password");
            return ExitCode::from(2);
        }
    };
    let config = BotConfig {
        server: args.server,
        user: args.user,
        password,
        game,
        level: args.level,
        patience: std::time::Duration::from_secs(600),
        max_actions: None,
        stop_at: None,
        record: false,
    };
    let result = titan_server::bot::run(&config, |id| {
        // Said on stderr if it cannot be written; the bot plays on.
        crate::write_out(&format!("{}\n", serde_json::json!({ "game": id })));
    });
    match result {
        Ok(report) => {
            let winner = report
                .last
                .as_ref()
                .and_then(|s| s.view.outcome.as_ref())
                // As the engine protocol gives it: {"Winner": seat} or
                // {"Draw": [seats]}.
                .map(|o| serde_json::to_value(o).unwrap_or_default());
            let line = serde_json::json!({
                "game": report.game,
                "seat": report.seat,
                "actions": report.actions,
                "finished": report.finished,
                "outcome": winner,
            });
            if !crate::write_out(&format!("{line}\n")) {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("titan bot: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The first line of a password file, without its line ending (a file
/// no password is that long is refused unread past its limit).
fn read_password(file: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let f = std::fs::File::open(file)
        .map_err(|e| format!("cannot read the password file {}: {e}", file.display()))?;
    let mut text = String::new();
    f.take(4096)
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read the password file {}: {e}", file.display()))?;
    let line = text.lines().next().unwrap_or_default().to_string();
    if line.is_empty() {
        return Err(format!("the password file {} is empty", file.display()));
    }
    Ok(line)
}

/// A database URL as it may be shown: a password in it replaced by `***`.
fn without_password(url: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::without_password;

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
}
