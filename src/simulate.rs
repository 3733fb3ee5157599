//! `titan simulate battles|games`: plays many seeded random battles or games
//! and reports how they ended, how long they took and how fast they ran.
//!
//! A variant author's balance check ("how often does this legion beat that
//! one on the Mountains?") and the project's throughput measure. Every run is
//! reproducible: battle or game `i` uses seed `--seed + i`, both for the
//! engine's dice and for the random players' choices.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use titan_core::Variant;
use titan_core::battle::{Battle, BattleError, BattleSetup, Fighter, Winner};
use titan_core::format::Edge;
use titan_core::game::random::{play_random_battle_action, random_action};
use titan_core::game::{Game, Outcome};
use titan_core::model::{CharacterId, TerrainId};
use titan_core::rng::GameRng;

use crate::rules_masterboard::{character_named, find_variant_with, terrain_named};
use crate::{count, seeds};

/// Mixed into a run's seed for the random players' generator, so that their
/// choices do not repeat the dice.
const PLAYERS_SEED: u64 = 0x5eed_0fba_771e;

/// What to simulate.
#[derive(Subcommand)]
pub enum Simulate {
    /// Plays N random battles between two legions and prints who won, how
    /// many rounds they took and battles per second.
    ///
    /// Without --battleland each battle is fought on a battleland picked at
    /// random; without --attacker or --defender that side is 7 characters
    /// drawn at random from those the caretaker holds (the Titan excepted).
    Battles {
        #[command(flatten)]
        common: Common,
        /// The terrain whose battleland is fought on (e.g. Mountains).
        #[arg(long, value_name = "TERRAIN")]
        battleland: Option<String>,
        /// The attacking legion, as a comma-separated list of characters.
        #[arg(long, value_name = "NAMES")]
        attacker: Option<String>,
        /// The defending legion, as a comma-separated list of characters.
        #[arg(long, value_name = "NAMES")]
        defender: Option<String>,
        /// The edge the attacker enters by (default: the variant's first
        /// attacker edge).
        #[arg(long, value_name = "EDGE")]
        edge: Option<String>,
    },
    /// Plays N random games to their end (or --max-turns) and prints the
    /// winners by seat, draws, the average length and games per second.
    Games {
        #[command(flatten)]
        common: Common,
        /// The seats: a number of random players (2 to 6), or a
        /// comma-separated list of player levels, one per seat. The only level
        /// so far is `random`.
        #[arg(long, default_value = "4", value_name = "SEATS")]
        players: String,
        /// A game still running after this many game turns is counted as
        /// unfinished.
        #[arg(long, default_value_t = 300, value_name = "TURNS")]
        max_turns: u32,
    },
}

/// Options of both simulations.
#[derive(Args)]
pub struct Common {
    /// A variant folder, or the name of one under variants/.
    #[arg(long, default_value = "titan", value_name = "VARIANT")]
    variant: String,
    /// The shared scripts folder, for a variant whose `shared:` scripts
    /// live elsewhere (default: scripts/ beside variants/), as for `titan
    /// check`.
    #[arg(long, value_name = "DIR")]
    scripts: Option<PathBuf>,
    /// How many battles or games to play.
    #[arg(long, short, default_value_t = 1000)]
    n: u64,
    /// The seed of the first battle or game; the i-th uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of text, for other programs.
    #[arg(long)]
    json: bool,
}

pub fn run(what: Simulate) -> ExitCode {
    let (Simulate::Battles { common, .. } | Simulate::Games { common, .. }) = &what;
    if common.n == 0 {
        // As `titan odds` and `titan tournament` do: a report of nothing
        // (with "seeds 0 to 0") would read as a result.
        eprintln!("titan simulate: --n 0 plays nothing; give at least 1");
        return ExitCode::from(2);
    }
    let runs = match &what {
        Simulate::Battles { .. } => "battles",
        Simulate::Games { .. } => "games",
    };
    if let Err(e) = crate::seeds_fit(common.seed, common.n, runs) {
        eprintln!("titan simulate: {e}");
        return ExitCode::from(2);
    }
    let result = match what {
        Simulate::Battles {
            common,
            battleland,
            attacker,
            defender,
            edge,
        } => battles(&common, battleland, attacker, defender, edge).map(|r| (r, common.json)),
        Simulate::Games {
            common,
            players,
            max_turns,
        } => games(&common, &players, max_turns).map(|r| (r, common.json)),
    };
    match result {
        Ok((report, json)) => {
            let text = if json {
                format!("{}\n", report.json)
            } else {
                report.text
            };
            if !crate::write_out(&text) {
                return ExitCode::FAILURE;
            }
            if report.script_errors > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(message) => {
            eprintln!("titan simulate: {message}");
            ExitCode::from(2)
        }
    }
}

/// What a simulation prints.
struct Report {
    text: String,
    json: Value,
    /// Runs stopped by an error of the variant's scripts.
    script_errors: u64,
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
pub(crate) fn progress(n: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(n);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what} ({{per_sec}}, {{eta}} left)"
        ))
        .expect("a valid template"),
    );
    bar
}

/// Splits a comma-separated list of character names.
pub(crate) fn legion_named(variant: &Variant, list: &str) -> Result<Vec<CharacterId>, String> {
    let names: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        return Err(format!("{list:?} names no character"));
    }
    let max = usize::from(variant.rules.legions.max_size);
    if names.len() > max {
        return Err(format!(
            "{list:?} has {} characters; a legion holds at most {max}",
            names.len()
        ));
    }
    names.iter().map(|n| character_named(variant, n)).collect()
}

/// Seven characters drawn at random from those the caretaker holds, the
/// Titan excepted (a random legion as a game could field it).
fn random_legion(variant: &Variant, pool: &[CharacterId], rng: &mut GameRng) -> Vec<CharacterId> {
    let size = usize::from(variant.rules.legions.max_size).min(7);
    (0..size)
        .map(|_| pool[rng.int_in(0, pool.len() as i64 - 1) as usize])
        .collect()
}

pub(crate) fn fighters(variant: &Variant, legion: &[CharacterId]) -> Vec<Fighter> {
    legion
        .iter()
        .map(|&c| Fighter {
            character: c,
            power: variant.character(c).power,
        })
        .collect()
}

/// The attacker's entry edge named by `--edge` on `terrain`'s battleland (any
/// battleland when `None`), or the variant's first attacker edge. An edge
/// the attacker may not enter by, or another than the one the battleland
/// fixes, is refused here: the battle would refuse it (or ignore it) later.
pub(crate) fn edge_named(
    variant: &Variant,
    name: Option<String>,
    terrain: Option<TerrainId>,
) -> Result<Edge, String> {
    let edges = &variant.rules.battle.attacker_edges;
    let Some(name) = name else {
        return edges
            .first()
            .copied()
            .ok_or_else(|| "the variant lists no attacker edge".to_string());
    };
    let edge = Edge::ALL
        .into_iter()
        .find(|e| format!("{e:?}").eq_ignore_ascii_case(&name))
        .ok_or_else(|| {
            format!(
                "{name:?} is no edge (edges: West, NorthWest, NorthEast, East, SouthEast, SouthWest)"
            )
        })?;
    if let Some(t) = terrain
        && let Some(fixed) = variant.battleland(t).attacker_edge
    {
        if edge != fixed {
            return Err(format!(
                "--edge {edge:?}: the attacker always enters the {} battleland by {fixed:?} (Law of the Battlelands 25.B)",
                variant.terrains[t.index()].name
            ));
        }
        return Ok(edge);
    }
    if !edges.contains(&edge) {
        let list: Vec<String> = edges.iter().map(|e| format!("{e:?}")).collect();
        return Err(format!(
            "--edge {edge:?}: the attacker enters a battleland by one of {} in {} (Law of the Battlelands 25.A)",
            list.join(", "),
            variant.id
        ));
    }
    Ok(edge)
}

/// Time as the rates count it: the CPU time of this thread where the system
/// tells it (Linux), so that other programs running do not change the
/// figures; the wall clock elsewhere.
pub(crate) struct Clock {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Clock {
    pub(crate) fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// Wall-clock time and, where known, CPU time since the start.
    pub(crate) fn elapsed(&self) -> (Duration, Option<Duration>) {
        (
            self.wall.elapsed(),
            cpu_between(self.cpu, thread_cpu_time()),
        )
    }
}

/// The CPU time between two readings, unknown when it reads as none at all:
/// the kernel adds a running thread's time only at its scheduler ticks
/// (a few milliseconds), so a short run reads 0, and a rate over 0 s would
/// be absurd (the wall clock is used instead).
fn cpu_between(start: Option<Duration>, end: Option<Duration>) -> Option<Duration> {
    match (start, end) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    }
}

/// This thread's time on a CPU, from `/proc/thread-self/schedstat` (nanoseconds).
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

pub(crate) fn rate(n: u64, time: Duration) -> f64 {
    n as f64 / time.as_secs_f64().max(1e-9)
}

pub(crate) fn timing(wall: Duration, cpu: Option<Duration>) -> String {
    match cpu {
        Some(cpu) => format!(
            "{:.2} s ({:.2} s of CPU)",
            wall.as_secs_f64(),
            cpu.as_secs_f64()
        ),
        None => format!("{:.2} s", wall.as_secs_f64()),
    }
}

/// One line of outcome counts: a label, a count, its share of `whole`, and
/// that share as a bar (the lines read as a bar chart).
pub(crate) fn count_line(label: &str, count: u64, whole: u64, more: &str) -> String {
    let share = if whole == 0 {
        0.0
    } else {
        count as f64 / whole as f64
    };
    let percent = if whole == 0 {
        0.0
    } else {
        100.0 * count as f64 / whole as f64
    };
    let line = format!(
        "  {label:<13}{count:>9}  {percent:5.1}%  {:<20}{more}",
        bar(share, 20)
    );
    format!("{}\n", line.trim_end())
}

/// A bar `width` cells long at `share` 1, drawn in eighths of a cell.
pub(crate) fn bar(share: f64, width: usize) -> String {
    const EIGHTHS: [char; 7] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (share.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    if let Some(&part) = (eighths % 8).checked_sub(1).and_then(|i| EIGHTHS.get(i)) {
        s.push(part);
    }
    s
}

/// The counts of `values` in at most `bins` ranges of equal width, from the
/// smallest value to the largest: `(first, last, count)` each.
pub(crate) fn histogram(values: &[u32], bins: u32) -> Vec<(u32, u32, u64)> {
    let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
        return Vec::new();
    };
    let width = (hi - lo) / bins.max(1) + 1;
    let mut out: Vec<(u32, u32, u64)> = (lo..=hi)
        .step_by(width as usize)
        .map(|first| (first, first.saturating_add(width - 1).min(hi), 0))
        .collect();
    for &v in values {
        out[((v - lo) / width) as usize].2 += 1;
    }
    out
}

/// A histogram as text: a line per range, its count and a bar.
fn histogram_lines(title: &str, bins: &[(u32, u32, u64)]) -> String {
    let most = bins.iter().map(|b| b.2).max().unwrap_or(0).max(1);
    let mut text = format!("  {title}:\n");
    for &(first, last, n) in bins {
        let range = if first == last {
            first.to_string()
        } else {
            format!("{first}-{last}")
        };
        let line = format!("    {range:>9}{n:>9}  {}", bar(n as f64 / most as f64, 30));
        text += line.trim_end();
        text += "\n";
    }
    text
}

fn battles(
    common: &Common,
    battleland: Option<String>,
    attacker: Option<String>,
    defender: Option<String>,
    edge: Option<String>,
) -> Result<Report, String> {
    let variant = std::sync::Arc::new(find_variant_with(
        &common.variant,
        common.scripts.as_deref(),
    )?);
    let terrain = battleland
        .as_deref()
        .map(|t| terrain_named(&variant, t))
        .transpose()?;
    let attacker = attacker
        .as_deref()
        .map(|l| legion_named(&variant, l))
        .transpose()?;
    let defender = defender
        .as_deref()
        .map(|l| legion_named(&variant, l))
        .transpose()?;
    let edge = edge_named(&variant, edge, terrain)?;
    let titan = variant.rules.titan.character;
    let pool: Vec<CharacterId> = (0..variant.characters.len())
        .map(|i| CharacterId(i as u16))
        .filter(|&c| c != titan && variant.character(c).count > 0)
        .collect();
    if (attacker.is_none() || defender.is_none()) && pool.is_empty() {
        return Err("the variant has no characters to draw random legions from".into());
    }

    let bar = progress(common.n, "battles");
    let (mut attacker_wins, mut defender_wins, mut mutual, mut time_losses, mut conceded) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut actions, mut rounds, mut points) = (0u64, 0u64, 0u64);
    let mut errors: Vec<Value> = Vec::new();
    // The rounds each finished battle lasted (for the histogram).
    let mut lengths: Vec<u32> = Vec::new();
    let mut events = Vec::new();
    let clock = Clock::start();
    // One Lua VM for every battle, as a game keeps one for its battles:
    // starting the variant's scripts cost many times a battle. Each battle
    // still draws from a generator seeded with its own seed.
    let rng = Rc::new(RefCell::new(GameRng::new(common.seed)));
    let lua = Battle::start_scripts(&variant, &rng)
        .map_err(|e| format!("the scripts of {} cannot start: {e}", variant.id))?;
    let mut kept: Option<Battle> = None;
    for i in 0..common.n {
        // Moved on every 32 battles: a battle is short, and the bar's
        // book-keeping costs a few per cent of one.
        if i % 32 == 0 {
            bar.set_position(i);
        }
        let seed = common.seed.wrapping_add(i);
        let mut pick = GameRng::new(seed ^ PLAYERS_SEED);
        let terrain = terrain
            .unwrap_or_else(|| TerrainId(pick.int_in(0, variant.terrains.len() as i64 - 1) as u8));
        let a = attacker
            .clone()
            .unwrap_or_else(|| random_legion(&variant, &pool, &mut pick));
        let d = defender
            .clone()
            .unwrap_or_else(|| random_legion(&variant, &pool, &mut pick));
        let setup = BattleSetup {
            terrain,
            attacker: fighters(&variant, &a),
            defender: fighters(&variant, &d),
            attacker_edge: edge,
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        *rng.borrow_mut() = GameRng::new(seed);
        // One battle, begun anew for each seed: its buffers are kept. A
        // terrain with several battlelands draws one for each battle (a
        // new battle on the variant as a game that drew it plays).
        let started = match (&mut kept, variant.alternative_count(terrain)) {
            (_, n) if n > 1 => {
                let mut drawn = vec![0; variant.terrains.len()];
                drawn[terrain.index()] = (pick.roll(n as u32) - 1) as u8;
                variant
                    .with_drawn(&drawn)
                    .map_err(BattleError::Setup)
                    .and_then(|v| {
                        Battle::with_scripts(v, setup, rng.clone(), lua.clone())
                            .map(|b| kept = Some(b.without_events()))
                    })
            }
            (Some(b), _) => b.restart(setup),
            (None, _) => Battle::with_scripts(&variant, setup, rng.clone(), lua.clone())
                .map(|b| kept = Some(b.without_events())),
        };
        if let Err(e) = started {
            errors.push(json!({"seed": seed, "error": e.to_string()}));
            continue;
        }
        let battle = kept.as_mut().expect("a battle begun");
        let mut n = 0u64;
        let failed = loop {
            if battle.result_ref().is_some() {
                break None;
            }
            // The events are not looked at: a battle without scripts records
            // none, one with scripts into one list for every action.
            events.clear();
            let played = play_random_battle_action(battle, &mut pick, &mut events);
            // A script action's `legal` that failed while the actions were
            // listed left its action out: a script error all the same (and
            // the one reported, whatever became of the action picked).
            if let Some(e) = battle.take_script_failure() {
                break Some(format!("listing the legal actions: script error: {e}"));
            }
            match played {
                Ok(true) => n += 1,
                Ok(false) => break Some("no legal action before the battle ended".to_string()),
                Err(refused) => break Some(format!("{:?}: {}", refused.0, refused.1)),
            }
        };
        if let Some(error) = failed {
            errors.push(json!({"seed": seed, "error": error}));
            continue;
        }
        let result = battle.result_ref().expect("the battle ended");
        match result.winner {
            Winner::Attacker => attacker_wins += 1,
            Winner::Defender => defender_wins += 1,
            Winner::Neither => mutual += 1,
        }
        time_losses += u64::from(result.time_loss);
        conceded += u64::from(result.conceded.is_some());
        actions += n;
        // A battle lost on time ends as its round counter passes the limit.
        // (Without a time limit, as many rounds as it took.)
        let lasted = match variant.rules.battle.procedure.time_loss {
            true => battle
                .defender_maneuver()
                .min(variant.rules.battle.defender_maneuvers),
            false => battle.defender_maneuver(),
        };
        rounds += u64::from(lasted);
        lengths.push(u32::from(lasted));
        points += u64::from(result.points);
    }
    let (wall, cpu) = clock.elapsed();
    let time = cpu.unwrap_or(wall);
    bar.finish_and_clear();

    let finished = common.n - errors.len() as u64;
    let length_bins = histogram(&lengths, 10);
    let avg = |x: u64| x as f64 / finished.max(1) as f64;
    let json = json!({
        "variant": variant.id,
        "battles": common.n,
        "seed": common.seed,
        "attacker_wins": attacker_wins,
        "defender_wins": defender_wins,
        "mutual": mutual,
        "time_losses": time_losses,
        "conceded": conceded,
        "average_actions": avg(actions),
        "average_rounds": avg(rounds),
        "average_points": avg(points),
        "rounds": length_bins
            .iter()
            .map(|&(first, last, battles)| json!({"first_round": first, "last_round": last, "battles": battles}))
            .collect::<Vec<_>>(),
        "errors": errors,
        "seconds": wall.as_secs_f64(),
        "cpu_seconds": cpu.map(|c| c.as_secs_f64()),
        "battles_per_second": rate(common.n, time),
    });
    let mut text = format!(
        "{} of {} ({}):\n",
        count(common.n, "random battle"),
        variant.id,
        seeds(common.seed, common.n)
    );
    text += &count_line("attacker wins", attacker_wins, common.n, "");
    text += &count_line(
        "defender wins",
        defender_wins,
        common.n,
        &format!("  ({time_losses} on time)"),
    );
    text += &count_line("mutual", mutual, common.n, "");
    text += &format!(
        "  conceded {conceded}; average {:.1} actions, {:.2} rounds, {:.1} points to the winner\n",
        avg(actions),
        avg(rounds),
        avg(points)
    );
    if length_bins.len() > 1 {
        text += &histogram_lines("rounds the battles lasted", &length_bins);
    }
    for e in &errors {
        text += &format!(
            "  error at seed {}: {}\n",
            e["seed"],
            e["error"].as_str().unwrap_or_default()
        );
    }
    text += &format!(
        "  {}, {:.0} battles per second\n",
        timing(wall, cpu),
        rate(common.n, time)
    );
    Ok(Report {
        text,
        json,
        script_errors: errors.len() as u64,
    })
}

/// The seats of `--players`: a count or a list of levels.
fn seats(players: &str) -> Result<usize, String> {
    if let Ok(n) = players.trim().parse::<usize>() {
        return Ok(n);
    }
    let levels: Vec<&str> = players.split(',').map(str::trim).collect();
    for level in &levels {
        if *level != "random" {
            return Err(format!("{level:?} is no player level (levels: random)"));
        }
    }
    Ok(levels.len())
}

fn games(common: &Common, players: &str, max_turns: u32) -> Result<Report, String> {
    let variant = Arc::new(find_variant_with(
        &common.variant,
        common.scripts.as_deref(),
    )?);
    let seats = seats(players)?;
    let (min, max) = (variant.players.min, variant.players.max);
    if seats < usize::from(min) || seats > usize::from(max) {
        return Err(format!(
            "{} is played by {}, not {seats}",
            variant.id,
            crate::players_between(min.into(), max.into())
        ));
    }
    let names: Vec<String> = (1..=seats).map(|i| format!("P{i}")).collect();

    let bar = progress(common.n, "games");
    let mut wins = vec![0u64; seats];
    let (mut draws, mut unfinished) = (0u64, 0u64);
    let (mut turns, mut actions, mut battles) = (0u64, 0u64, 0u64);
    // The length in turns of each finished game (for the histogram).
    let mut lengths: Vec<u32> = Vec::new();
    let mut errors: Vec<Value> = Vec::new();
    // The events of an action, unread: one list kept for all.
    let mut events = Vec::new();
    let clock = Clock::start();
    // The variant's scripts, started once for the run: each game after the
    // first starts on the VM the last one left clean (Lua globals are not
    // game state), as a game's battles share its VM.
    let mut scripts = None;
    for i in 0..common.n {
        let seed = common.seed.wrapping_add(i);
        let (mut game, _) = Game::new_on(
            variant.clone(),
            Default::default(),
            &names,
            seed,
            scripts.take(),
        )
        .map_err(|e| format!("a game of {} cannot start: {e}", variant.id))?;
        let mut pick = GameRng::new(seed ^ PLAYERS_SEED);
        let mut n = 0u64;
        let failed = loop {
            if game.state.outcome.is_some() || game.state.turn > max_turns {
                break None;
            }
            let listed = random_action(&game, &mut pick);
            // A hook that failed while the actions were listed (a variant
            // action's `legal`) left its answer out: a script error all the same.
            if let Some(e) = game
                .take_script_failure()
                .or_else(|| game.take_battle_script_failure())
            {
                break Some(format!("listing the legal actions: script error: {e}"));
            }
            let Some((player, action)) = listed else {
                break None;
            };
            if matches!(action, titan_core::game::Action::Fight) {
                battles += 1;
            }
            events.clear();
            if let Err(e) = game.apply_into(player, &action, &mut events) {
                // As the engine writes it (names, labels), by the player as
                // the outcome lines count them.
                break Some(format!(
                    "{} by player {}: {e}",
                    crate::engine::wire::to_wire(&variant, &action),
                    player.0 + 1
                ));
            }
            n += 1;
        };
        bar.inc(1);
        actions += n;
        turns += u64::from(game.state.turn.min(max_turns));
        if let Some(error) = failed {
            errors.push(json!({"seed": seed, "action": n, "error": error}));
            continue;
        }
        match &game.state.outcome {
            Some(Outcome::Winner(p)) => wins[usize::from(p.0)] += 1,
            Some(Outcome::Draw(_)) => draws += 1,
            None => unfinished += 1,
        }
        if game.state.outcome.is_some() {
            lengths.push(game.state.turn);
        }
        scripts = game.into_scripts();
    }
    let length_bins = histogram(&lengths, 10);
    let (wall, cpu) = clock.elapsed();
    let time = cpu.unwrap_or(wall);
    bar.finish_and_clear();

    let avg = |x: u64| x as f64 / common.n.max(1) as f64;
    let peak = peak_memory_kib();
    let json = json!({
        "variant": variant.id,
        "games": common.n,
        "players": seats,
        "seed": common.seed,
        "max_turns": max_turns,
        "wins": wins,
        "draws": draws,
        "unfinished": unfinished,
        "average_turns": avg(turns),
        "average_actions": avg(actions),
        "average_battles": avg(battles),
        "finished_lengths": length_bins
            .iter()
            .map(|&(first, last, games)| json!({"first_turn": first, "last_turn": last, "games": games}))
            .collect::<Vec<_>>(),
        "errors": errors,
        "seconds": wall.as_secs_f64(),
        "cpu_seconds": cpu.map(|c| c.as_secs_f64()),
        "games_per_second": rate(common.n, time),
        "actions_per_second": rate(actions, time),
        "peak_memory_kib": peak,
    });
    let mut text = format!(
        "{} of {} ({}, at most {}):\n",
        count(common.n, &format!("random {seats}-player game")),
        variant.id,
        seeds(common.seed, common.n),
        count(u64::from(max_turns), "turn")
    );
    for (seat, w) in wins.iter().enumerate() {
        text += &count_line(&format!("seat {} wins", seat + 1), *w, common.n, "");
    }
    text += &count_line("draws", draws, common.n, "");
    text += &count_line("unfinished", unfinished, common.n, "");
    text += &format!(
        "  average {:.1} turns, {:.0} actions, {:.1} battles\n",
        avg(turns),
        avg(actions),
        avg(battles)
    );
    if length_bins.len() > 1 {
        text += &histogram_lines("turns of the finished games", &length_bins);
    }
    for e in &errors {
        text += &format!(
            "  error at seed {}, action {}: {}\n",
            e["seed"],
            e["action"],
            e["error"].as_str().unwrap_or_default()
        );
    }
    text += &format!(
        "  {}, {:.1} games per second, {:.0} actions per second",
        timing(wall, cpu),
        rate(common.n, time),
        rate(actions, time)
    );
    if let Some(kib) = peak {
        text += &format!(", peak memory {:.1} MiB", kib as f64 / 1024.0);
    }
    text += "\n";
    Ok(Report {
        text,
        json,
        script_errors: errors.len() as u64,
    })
}

/// The process's peak resident memory, where the system tells it (Linux).
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_cover_every_value_in_equal_ranges() {
        assert!(histogram(&[], 10).is_empty());
        assert_eq!(histogram(&[7, 7], 10), vec![(7, 7, 2)]);
        let bins = histogram(&[1, 2, 3, 10, 20, 21], 4);
        // Width 21-1 / 4 + 1 = 6: 1-6, 7-12, 13-18, 19-21.
        assert_eq!(bins, vec![(1, 6, 3), (7, 12, 1), (13, 18, 0), (19, 21, 2)]);
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 6);
    }

    #[test]
    fn bars_grow_in_eighths_of_a_cell() {
        assert_eq!(bar(0.0, 20), "");
        assert_eq!(bar(1.0, 2), "██");
        assert_eq!(bar(0.5, 1), "▌");
        assert_eq!(bar(0.25, 4), "█");
        assert_eq!(bar(2.0, 3), "███", "a share above 1 is a full bar");
    }

    #[test]
    fn a_cpu_time_that_did_not_advance_is_unknown() {
        let ms = Duration::from_millis;
        assert_eq!(cpu_between(Some(ms(5)), Some(ms(5))), None);
        assert_eq!(cpu_between(Some(ms(5)), Some(ms(3))), None);
        assert_eq!(cpu_between(None, Some(ms(3))), None);
        assert_eq!(cpu_between(Some(ms(5)), Some(ms(9))), Some(ms(4)));
    }
}
