//! `titan`: the command line of the Titan rules platform.
//!
//! A thin shell over `titan-core`: each subcommand parses its arguments,
//! calls the library and prints what it returns.

mod check;
mod edit;
mod engine;
mod import;
mod online;
mod play;
mod rules_battle;
mod rules_masterboard;
mod simulate;
mod tournament;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "titan",
    version,
    about = "Play, check and edit Titan and its variants"
)]
struct Cli {
    /// Without a command: open the game window (as `titan play`).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Open the game window (the default): a new game of any variant,
    /// hot-seat or against the computer, the last game continued, saves
    /// loaded or replayed, the editor.
    Play,
    /// Load and validate variants, printing a summary of each and every error
    /// with its file, line and column. Exits with 1 if any variant has errors.
    Check {
        /// Variant folders (default: every folder under variants/).
        dirs: Vec<PathBuf>,
        /// One JSON object per variant on its own line, for other programs.
        #[arg(long)]
        json: bool,
        /// Where base variants named by `extends` are looked for, besides the
        /// folder beside each variant (default: the variants/ folder).
        #[arg(long, value_name = "DIR")]
        variants: Option<PathBuf>,
        /// The shared scripts folder (default: scripts/ beside variants/).
        #[arg(long, value_name = "DIR")]
        scripts: Option<PathBuf>,
        /// Also play N seeded random games (with battles) of each variant
        /// that loads, reporting every script error with its file, line,
        /// seed and action, how often each of the variant's own actions
        /// (actions.ron) was taken, and the games' outcomes.
        #[arg(long, value_name = "N", default_value_t = 0)]
        play: u64,
        /// The most actions of one game under --play (random games on large
        /// boards or with one-way signs, such as Colossus's Infinite and
        /// Unified, run to 30,000).
        #[arg(long, value_name = "N", default_value_t = 40_000)]
        max_actions: u64,
    },
    /// Open the variant editor (a window): masterboard, battlelands,
    /// characters and mustering tables, validated as you go, reloaded when
    /// the files change on disk.
    Edit {
        /// A variant name under variants/, or a variant folder.
        #[arg(default_value = "titan")]
        variant: String,
    },
    /// Play over stdin and stdout in JSON lines, for bots, GUIs and tests.
    ///
    /// One JSON request per line in, one JSON response per line out: new
    /// games, positions, saves, views as a player, legal actions, actions,
    /// battles and rules queries. End of input ends the session. See
    /// docs/protocol.md.
    Engine {
        /// The folder saves are written below (`save` paths are relative to
        /// it, or absolute inside it), and relative `load` paths read from.
        /// Default: the user's data folder (`~/.local/share/titan/saves`).
        #[arg(long, value_name = "DIR")]
        saves: Option<PathBuf>,
    },
    /// Play many seeded random battles or games and report how they ended,
    /// their average length and how many ran per second: a balance check
    /// for variant authors and the engine's throughput measure.
    Simulate {
        #[command(subcommand)]
        what: simulate::Simulate,
    },
    /// Play computer players against each other over many seeded games and
    /// print each one's wins, draws and losses, its win rate with a 95%
    /// interval, its average score and the games' length.
    Tournament(tournament::Tournament),
    /// Battle odds by simulation: one legion against another on a
    /// battleland, fought N times by computer players; prints who wins
    /// (with 95% intervals), time losses, survivors and points.
    Odds(tournament::OddsArgs),
    /// Run the game server: accounts, a lobby and online games over
    /// WebSockets, stored in SQLite (the default) or PostgreSQL. See
    /// docs/online.md. Every option may also be given by its environment
    /// variable (TITAN_LISTEN, TITAN_DATABASE, TITAN_LEASE, TITAN_VARIANTS,
    /// TITAN_MAX_CONNECTIONS, ... as each option says); the command line
    /// wins. The log goes to stderr, filtered by TITAN_LOG (default info).
    Serve {
        /// The address to listen on.
        #[arg(long, env = "TITAN_LISTEN", default_value = "127.0.0.1:7860")]
        listen: std::net::SocketAddr,
        /// A database URL (`postgres://...` or `sqlite:///FILE`), or a SQLite
        /// file's path; a new SQLite file is made. Default: a SQLite file in
        /// the user's data folder.
        #[arg(long, env = "TITAN_DATABASE", value_name = "URL")]
        database: Option<String>,
        /// How long a game's lease lasts (seconds, 1 to 86400): another
        /// instance takes over the games of one that died this long after.
        // Bounded: a lease is added to the clock, which a huge one overflows.
        #[arg(long, env = "TITAN_LEASE", value_name = "SECS", default_value_t = 15,
              value_parser = clap::value_parser!(u64).range(1..=86_400))]
        lease: u64,
        /// The folder of the variants the server offers (default: the
        /// `variants/` folder `titan check` finds).
        #[arg(long, env = "TITAN_VARIANTS", value_name = "DIR")]
        variants: Option<std::path::PathBuf>,
        /// Connections open at once, from everybody (past it: refused).
        #[arg(
            long,
            env = "TITAN_MAX_CONNECTIONS",
            value_name = "N",
            default_value_t = 2000
        )]
        max_connections: usize,
        /// Connections open at once from one IP address (behind a reverse
        /// proxy every client has the proxy's: raise it there).
        #[arg(
            long,
            env = "TITAN_MAX_CONNECTIONS_PER_ADDRESS",
            value_name = "N",
            default_value_t = 50
        )]
        max_connections_per_address: usize,
        #[command(flatten)]
        limits: online::LimitArgs,
    },
    /// Play a seat of an online game with a computer player.
    Bot(online::BotArgs),
    /// Import variants of other Titan programs as variant folders
    /// (docs/import.md).
    Import {
        #[command(subcommand)]
        what: import::Import,
    },
    /// Ask the rules a question; the answer is one JSON object.
    Rules {
        #[command(subcommand)]
        query: RulesQuery,
    },
}

/// The questions `titan rules` answers.
#[derive(Subcommand)]
enum RulesQuery {
    #[command(flatten)]
    Masterboard(rules_masterboard::Query),
    #[command(flatten)]
    Battle(rules_battle::BattleQuery),
}

/// A count with its noun, singular for one: "1 battle", "2 battles", "0
/// hexes". Every count a command prints goes through it.
pub(crate) fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if noun.ends_with(['s', 'x']) || noun.ends_with("ch") || noun.ends_with("sh") {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// How many players a variant is played by: "3 players", "2 to 6 players".
pub(crate) fn players_between(min: u64, max: u64) -> String {
    if min == max {
        count(min, "player")
    } else {
        format!("{min} to {max} players")
    }
}

/// The seeds of `n` runs from `first`: "seed 5" for one, "seeds 5 to 9".
/// Refuses a run whose seeds `first` to `first + n - 1` would pass the
/// largest seed (game or battle `i` uses seed `first + i`).
pub(crate) fn seeds_fit(first: u64, n: u64, what: &str) -> Result<(), String> {
    match first.checked_add(n.saturating_sub(1)) {
        Some(_) => Ok(()),
        None => Err(format!(
            "--seed {first} with {n} {what} goes past the largest seed, {}: give --seed {} at most",
            u64::MAX,
            u64::MAX - (n - 1)
        )),
    }
}

pub(crate) fn seeds(first: u64, n: u64) -> String {
    if n <= 1 {
        format!("seed {first}")
    } else {
        format!("seeds {first} to {}", first.wrapping_add(n - 1))
    }
}

/// Writes `text` to standard output. A failed write (a full disk, a file
/// that cannot grow) is said in one line on stderr and gives false, where
/// `println!` would panic; a closed pipe (`| head`) is not an error worth
/// saying: the reader has what it wanted.
pub(crate) fn write_out(text: &str) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(e) => {
            report_output_error(&e);
            false
        }
    }
}

/// Says on stderr that standard output could not be written, unless it is a
/// closed pipe.
pub(crate) fn report_output_error(e: &std::io::Error) {
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        eprintln!("titan: cannot write the output: {e}");
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        return play::run();
    };
    match command {
        Command::Play => play::run(),
        Command::Check {
            dirs,
            json,
            variants,
            scripts,
            play,
            max_actions,
        } => check::run(
            dirs,
            json,
            variants,
            scripts,
            check::Play {
                games: play,
                max_actions,
            },
        ),
        Command::Edit { variant } => edit::run(variant),
        Command::Engine { saves } => engine::run(saves),
        Command::Simulate { what } => simulate::run(what),
        Command::Tournament(t) => tournament::run_tournament(t),
        Command::Odds(o) => tournament::run_odds(o),
        Command::Serve {
            listen,
            database,
            lease,
            variants,
            max_connections,
            max_connections_per_address,
            limits,
        } => online::serve(
            listen,
            database,
            lease,
            variants,
            (max_connections, max_connections_per_address),
            limits,
        ),
        Command::Bot(args) => online::bot(args),
        Command::Import { what } => import::run(what),
        Command::Rules { query } => match query {
            RulesQuery::Masterboard(q) => rules_masterboard::run(q),
            RulesQuery::Battle(q) => rules_battle::run(q, check::variants_root()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1, "battle"), "1 battle");
        assert_eq!(count(0, "battle"), "0 battles");
        assert_eq!(count(2, "script error"), "2 script errors");
        assert_eq!(count(1, "hex"), "1 hex");
        assert_eq!(count(7, "hex"), "7 hexes");
        assert_eq!(players_between(3, 3), "3 players");
        assert_eq!(players_between(2, 6), "2 to 6 players");
        assert_eq!(seeds(4, 1), "seed 4");
        assert_eq!(seeds(4, 3), "seeds 4 to 6");
    }
}
