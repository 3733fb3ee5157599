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
    connections: (usize, usize),
) -> ExitCode {
    let database = database.unwrap_or_else(titan_server::default_database);
    let mut config =
        titan_server::Config::new(listen, database.clone(), crate::check::variants_root());
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
    #[arg(long)]
    server: String,
    /// The account (signed up if new).
    #[arg(long)]
    user: String,
    /// The account's password (6 to 256 bytes; set when signing up).
    #[arg(long)]
    password: String,
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
    let config = BotConfig {
        server: args.server,
        user: args.user,
        password: args.password,
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
