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
    limits: LimitArgs,
) -> ExitCode {
    titan_server::logs::init();
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
    let mut config = titan_server::Config::new(listen, database.clone(), variants);
    config.lease = std::time::Duration::from_secs(lease.max(1));
    (
        config.limits.connections,
        config.limits.connections_per_address,
    ) = connections;
    limits.apply(&mut config);
    match titan_server::run_blocking(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("titan serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The limits of `titan serve` (docs/online.md, "Limits"), each also
/// taken from its environment variable; those not given keep the
/// server's defaults.
#[derive(clap::Args, Debug, Default)]
pub struct LimitArgs {
    /// Requests a second one connection may send (twice that at once).
    #[arg(long, env = "TITAN_RATE_PER_CONNECTION", value_name = "N")]
    rate_per_connection: Option<u32>,
    /// Requests a second all of one account's connections may send.
    #[arg(long, env = "TITAN_RATE_PER_ACCOUNT", value_name = "N")]
    rate_per_account: Option<u32>,
    /// Password hashes computed at once (each holds 19 MiB).
    #[arg(long, env = "TITAN_HASH_WORKERS", value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    hash_workers: Option<u16>,
    /// Log-ins and sign-ups waiting for a hasher; past it: "busy".
    #[arg(long, env = "TITAN_HASH_QUEUE", value_name = "N")]
    hash_queue: Option<usize>,
    /// Log-in attempts per user name in the attempt window (0: no limit).
    #[arg(long, env = "TITAN_LOGIN_ATTEMPTS_PER_NAME", value_name = "N")]
    login_attempts_per_name: Option<u32>,
    /// Log-in attempts per client address in the attempt window (0: no limit).
    #[arg(long, env = "TITAN_LOGIN_ATTEMPTS_PER_ADDRESS", value_name = "N")]
    login_attempts_per_address: Option<u32>,
    /// The window of the two attempt limits (seconds).
    #[arg(long, env = "TITAN_LOGIN_ATTEMPT_WINDOW", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    login_attempt_window: Option<u64>,
    /// Wrong passwords in a row for one name before its log-ins wait.
    #[arg(long, env = "TITAN_LOGIN_FAILURES", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    login_failures: Option<u32>,
    /// How long they wait then (seconds; doubled at each further one, at most an hour).
    #[arg(long, env = "TITAN_LOGIN_WAIT", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    login_wait: Option<u64>,
    /// How long a session token logs in after it was made (seconds).
    #[arg(long, env = "TITAN_TOKEN_LIFETIME", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=31_622_400))]
    token_lifetime: Option<u64>,
    /// How long a game nobody watches (and no computer plays) stays live (seconds).
    #[arg(long, env = "TITAN_IDLE", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle: Option<u64>,
    /// Time for a new connection to send its HTTP request (seconds).
    #[arg(long, env = "TITAN_HEADER_TIMEOUT", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: Option<u64>,
    /// Time for a WebSocket to log in (seconds).
    #[arg(long, env = "TITAN_LOGIN_TIMEOUT", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    login_timeout: Option<u64>,
    /// Time a WebSocket may send nothing (seconds).
    #[arg(long, env = "TITAN_IDLE_TIMEOUT", value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle_timeout: Option<u64>,
    /// Open games (waiting for players) one account may have created.
    #[arg(long, env = "TITAN_OPEN_GAMES_PER_ACCOUNT", value_name = "N")]
    open_games_per_account: Option<usize>,
    /// Open games on the server, from everybody.
    #[arg(long, env = "TITAN_OPEN_GAMES", value_name = "N")]
    open_games: Option<usize>,
    /// Games not over one account may have created or hold a seat in.
    #[arg(long, env = "TITAN_GAMES_PER_ACCOUNT", value_name = "N")]
    games_per_account: Option<usize>,
    /// Computer seats in the games not over that one account created.
    #[arg(long, env = "TITAN_COMPUTER_SEATS_PER_ACCOUNT", value_name = "N")]
    computer_seats_per_account: Option<usize>,
    /// Chat lines one account may send a minute.
    #[arg(long, env = "TITAN_CHAT_PER_MINUTE_PER_ACCOUNT", value_name = "N")]
    chat_per_minute_per_account: Option<u32>,
    /// Chat lines one game may take a minute, from everybody.
    #[arg(long, env = "TITAN_CHAT_PER_MINUTE_PER_GAME", value_name = "N")]
    chat_per_minute_per_game: Option<u32>,
    /// Chat lines of a game kept and sent to a new watcher.
    #[arg(long, env = "TITAN_CHAT_HISTORY", value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=100_000))]
    chat_history: Option<u32>,
    /// Computer moves computed at once, from all games (on threads of
    /// lower priority than the people's games).
    #[arg(long, env = "TITAN_COMPUTER_THREADS", value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=64))]
    computer_threads: Option<u16>,
}

impl LimitArgs {
    /// Sets the limits given in `config`.
    fn apply(&self, config: &mut titan_server::Config) {
        use std::time::Duration;
        let secs = Duration::from_secs;
        let l = &mut config.limits;
        let set = |to: &mut usize, v: Option<usize>| {
            if let Some(v) = v {
                *to = v;
            }
        };
        set(&mut l.open_games_per_account, self.open_games_per_account);
        set(&mut l.open_games, self.open_games);
        set(&mut l.games_per_account, self.games_per_account);
        set(
            &mut l.computer_seats_per_account,
            self.computer_seats_per_account,
        );
        set(&mut l.chat_history, self.chat_history.map(|n| n as usize));
        if let Some(v) = self.chat_per_minute_per_account {
            l.chat_per_minute_per_account = v;
        }
        if let Some(v) = self.chat_per_minute_per_game {
            l.chat_per_minute_per_game = v;
        }
        for (to, v) in [
            (&mut l.header_timeout, self.header_timeout),
            (&mut l.login_timeout, self.login_timeout),
            (&mut l.idle_timeout, self.idle_timeout),
            (&mut config.login_attempt_window, self.login_attempt_window),
            (&mut config.login_wait, self.login_wait),
            (&mut config.token_lifetime, self.token_lifetime),
            (&mut config.idle, self.idle),
        ] {
            if let Some(v) = v {
                *to = secs(v);
            }
        }
        for (to, v) in [
            (&mut config.rate_per_connection, self.rate_per_connection),
            (&mut config.rate_per_account, self.rate_per_account),
            (
                &mut config.login_attempts_per_name,
                self.login_attempts_per_name,
            ),
            (
                &mut config.login_attempts_per_address,
                self.login_attempts_per_address,
            ),
            (&mut config.login_failures, self.login_failures),
        ] {
            if let Some(v) = v {
                *to = v;
            }
        }
        set(&mut config.hash_workers, self.hash_workers.map(usize::from));
        set(&mut config.hash_queue, self.hash_queue);
        set(
            &mut config.computer_threads,
            self.computer_threads.map(usize::from),
        );
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
