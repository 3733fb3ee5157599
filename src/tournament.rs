//! `titan tournament` and `titan odds`: computer players against each other
//! over many seeded games, and battle odds by simulation.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use serde_json::{Value, json};
use titan_core::ai::odds::{odds, wilson};
use titan_core::ai::play::play_game;
use titan_core::ai::{Budget, check_variant, player_with};
use titan_core::battle::BattleSetup;
use titan_core::format::Edge;
use titan_core::game::{Game, Outcome, attacker_entry_edge};
use titan_core::model::{TerrainId, Variant};

use crate::rules_masterboard::{find_variant_with, terrain_named};
use crate::simulate::{Clock, edge_named, fighters, legion_named, progress, timing};
use crate::{count, seeds};

/// Mixed into a game's seed for its players' choices.
const PLAYERS_SEED: u64 = 0x7a11_5eed;

#[derive(Args)]
pub struct Tournament {
    /// A variant folder, or the name of one under variants/.
    #[arg(long, default_value = "titan", value_name = "VARIANT")]
    variant: String,
    /// The shared scripts folder, for a variant whose `shared:` scripts
    /// live elsewhere (default: scripts/ beside variants/), as for `titan
    /// check`.
    #[arg(long, value_name = "DIR")]
    scripts: Option<PathBuf>,
    /// The players, one level per seat, comma-separated (random, simple,
    /// strong), e.g. `strong,simple`. Seats rotate from game to game, so
    /// each player sits in each seat equally often.
    #[arg(long, value_name = "LEVELS")]
    seats: String,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A game still running after this many game turns counts as unfinished.
    #[arg(long, default_value_t = 300, value_name = "TURNS")]
    max_turns: u32,
    /// Search nodes per decision of the strong player (at least 1).
    #[arg(long, default_value_t = Budget::DEFAULT.nodes)]
    budget: u64,
    /// Sampled-dice rollouts of each of the strong attacker's candidate
    /// maneuvers (0: the exact expectation alone).
    #[arg(long, default_value_t = Budget::DEFAULT.rollouts)]
    rollouts: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct OddsArgs {
    /// A variant folder, or the name of one under variants/.
    #[arg(long, default_value = "titan", value_name = "VARIANT")]
    variant: String,
    /// The shared scripts folder, for a variant whose `shared:` scripts
    /// live elsewhere (default: scripts/ beside variants/), as for `titan
    /// check`.
    #[arg(long, value_name = "DIR")]
    scripts: Option<PathBuf>,
    /// The terrain whose battleland is fought on (e.g. Mountains); with
    /// --land it may be left out (the land's terrain), or must be that one.
    #[arg(long, value_name = "TERRAIN", required_unless_present = "land")]
    battleland: Option<String>,
    /// The engaged land, by its printed number: its terrain is the
    /// battleland, and with --from the attacker's entry side is derived.
    #[arg(long, value_name = "NUMBER")]
    land: Option<u32>,
    /// The land the attacker entered the engaged land from (its printed
    /// number): the attacker enters the battleland by the side it came
    /// from (Law of the Battlelands 25.A).
    #[arg(
        long,
        value_name = "NUMBER",
        requires = "land",
        conflicts_with = "edge"
    )]
    from: Option<u32>,
    /// The attacking legion, comma-separated (e.g. "Titan,Angel,Ogre").
    #[arg(long, value_name = "NAMES")]
    attacker: String,
    /// The defending legion, comma-separated.
    #[arg(long, value_name = "NAMES")]
    defender: String,
    /// The level both sides are played at: strong, simple or random.
    #[arg(long, default_value = "strong", value_name = "LEVEL")]
    play: String,
    /// How many battles to fight.
    #[arg(long, short, default_value_t = 200)]
    n: u64,
    /// The seed of the first battle; battle i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The side the attacker enters by (default: derived from --from, or
    /// the side the battleland fixes, or the variant's first attacker edge).
    #[arg(long, visible_alias = "entry-side", value_name = "EDGE")]
    edge: Option<String>,
    /// Search nodes per decision of the strong player (at least 1).
    #[arg(long, default_value_t = Budget::DEFAULT.nodes)]
    budget: u64,
    /// Sampled-dice rollouts of each of the strong attacker's candidate
    /// maneuvers (0: the exact expectation alone).
    #[arg(long, default_value_t = Budget::DEFAULT.rollouts)]
    rollouts: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn finish(result: Result<(String, Value, bool), String>, json: bool, command: &str) -> ExitCode {
    match result {
        Ok((text, value, failed)) => {
            let text = if json { format!("{value}\n") } else { text };
            if !crate::write_out(&text) {
                return ExitCode::FAILURE;
            }
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(message) => {
            eprintln!("titan {command}: {message}");
            ExitCode::from(2)
        }
    }
}

fn percent_interval(k: u64, n: u64) -> String {
    let (lo, hi) = wilson(k, n);
    let p = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    format!(
        "{:5.1}% (95%: {:.1}-{:.1}%)",
        100.0 * p,
        100.0 * lo,
        100.0 * hi
    )
}

pub fn run_tournament(t: Tournament) -> ExitCode {
    let json = t.json;
    finish(tournament(&t), json, "tournament")
}

fn tournament(t: &Tournament) -> Result<(String, Value, bool), String> {
    let variant = Arc::new(find_variant_with(&t.variant, t.scripts.as_deref())?);
    check_variant(&variant).map_err(|e| e.to_string())?;
    let levels: Vec<String> = t.seats.split(',').map(|s| s.trim().to_string()).collect();
    let n = levels.len();
    let budget = Budget {
        nodes: t.budget,
        rollouts: t.rollouts,
    };
    for l in &levels {
        player_with(l, 0, budget).map_err(|e| e.to_string())?;
    }
    let (min, max) = (
        usize::from(variant.players.min),
        usize::from(variant.players.max),
    );
    if n < min || n > max {
        return Err(format!(
            "--seats lists {}, but {} is played by {}",
            count(n as u64, "player"),
            variant.id,
            crate::players_between(min as u64, max as u64)
        ));
    }
    if t.games == 0 {
        return Err("--games 0 plays nothing; give at least 1".into());
    }
    crate::seeds_fit(t.seed, t.games, "games")?;
    let names: Vec<String> = (1..=n).map(|i| format!("P{i}")).collect();
    let bar = progress(t.games, "games");
    // Per entry of --seats.
    let (mut wins, mut draws, mut losses) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
    let mut score = vec![0u64; n];
    let (mut unfinished, mut turns, mut refused) = (0u64, 0u64, 0u64);
    let mut errors: Vec<Value> = Vec::new();
    let clock = Clock::start();
    // The variant's scripts, started once for the run (see `Game::new_on`).
    let mut scripts = None;
    for g in 0..t.games {
        let seed = t.seed.wrapping_add(g);
        // Entry e sits in seat (e + g) mod n.
        let entry_at = |seat: usize| (seat + n - (g as usize % n)) % n;
        let mut players = Vec::new();
        for seat in 0..n {
            let e = entry_at(seat);
            let s = (seed ^ PLAYERS_SEED)
                .wrapping_mul(31)
                .wrapping_add(seat as u64);
            players.push(player_with(&levels[e], s, budget).map_err(|e| e.to_string())?);
        }
        let (mut game, _) = Game::new_on(
            variant.clone(),
            Default::default(),
            &names,
            seed,
            scripts.take(),
        )
        .map_err(|e| format!("a game of {} cannot start: {e}", variant.id))?;
        let record = play_game(&mut game, &mut players, t.max_turns);
        // The players' copies of the game go first: then the variant's
        // scripts, left clean, start the next game.
        drop(players);
        scripts = game.into_scripts();
        bar.inc(1);
        turns += u64::from(record.turns.min(t.max_turns));
        refused += record.refused;
        if let Some(e) = &record.error {
            errors.push(json!({"seed": seed, "error": e}));
        }
        for seat in 0..n {
            score[entry_at(seat)] += u64::from(record.scores[seat]);
        }
        match &record.outcome {
            Some(Outcome::Winner(p)) => {
                for seat in 0..n {
                    if seat == usize::from(p.0) {
                        wins[entry_at(seat)] += 1;
                    } else {
                        losses[entry_at(seat)] += 1;
                    }
                }
            }
            Some(Outcome::Draw(among)) => {
                for seat in 0..n {
                    if among.iter().any(|p| usize::from(p.0) == seat) {
                        draws[entry_at(seat)] += 1;
                    } else {
                        losses[entry_at(seat)] += 1;
                    }
                }
            }
            None => unfinished += 1,
        }
    }
    let (wall, cpu) = clock.elapsed();
    bar.finish_and_clear();
    let games = t.games;
    let mut text = format!(
        "{} of {} ({}, seats rotating, at most {}):\n",
        count(games, &format!("{n}-player game")),
        variant.id,
        seeds(t.seed, games),
        count(u64::from(t.max_turns), "turn")
    );
    let mut entries = Vec::new();
    for e in 0..n {
        let (lo, hi) = wilson(wins[e], games);
        text += &format!(
            "  {}. {:<7} wins {:>5}  draws {:>4}  losses {:>5}  win rate {}  average score {:.0}\n",
            e + 1,
            levels[e],
            wins[e],
            draws[e],
            losses[e],
            percent_interval(wins[e], games),
            score[e] as f64 / games as f64
        );
        entries.push(json!({
            "level": levels[e],
            "wins": wins[e],
            "draws": draws[e],
            "losses": losses[e],
            "win_rate": wins[e] as f64 / games as f64,
            "win_rate_95": [lo, hi],
            "average_score": score[e] as f64 / games as f64,
        }));
    }
    text += &format!(
        "  unfinished {unfinished}; average {:.1} turns; {} refused\n",
        turns as f64 / games as f64,
        count(refused, "action")
    );
    for e in &errors {
        text += &format!(
            "  error at seed {}: {}\n",
            e["seed"],
            e["error"].as_str().unwrap_or_default()
        );
    }
    text += &format!("  {}\n", timing(wall, cpu));
    let value = json!({
        "variant": variant.id,
        "games": games,
        "seed": t.seed,
        "max_turns": t.max_turns,
        "budget": t.budget,
        "seats": entries,
        "unfinished": unfinished,
        "average_turns": turns as f64 / games as f64,
        "refused": refused,
        "errors": errors,
        "seconds": wall.as_secs_f64(),
        "cpu_seconds": cpu.map(|c| c.as_secs_f64()),
    });
    Ok((text, value, !errors.is_empty()))
}

/// The battleland and the attacker's entry side of `titan odds`: from
/// --land and --from as in a game (the side the attacker came from), else
/// --battleland and --edge, else the side the battleland fixes (the Tower)
/// or the variant's first attacker edge.
fn battle_place(variant: &Variant, o: &OddsArgs) -> Result<(TerrainId, Edge), String> {
    let land = match o.land {
        Some(n) => Some(
            variant
                .board
                .by_number(n)
                .ok_or_else(|| format!("--land {n}: the board has no land {n}"))?,
        ),
        None => None,
    };
    let terrain = match (&o.battleland, land) {
        (Some(name), Some(l)) => {
            let t = terrain_named(variant, name)?;
            if t != variant.board.land(l).terrain {
                return Err(format!(
                    "--battleland {name} is not the terrain of land {}",
                    variant.board.land(l).number
                ));
            }
            t
        }
        (Some(name), None) => terrain_named(variant, name)?,
        (None, Some(l)) => variant.board.land(l).terrain,
        (None, None) => return Err("give --battleland or --land".into()),
    };
    if let (Some(l), Some(n)) = (land, o.from) {
        let from = variant
            .board
            .by_number(n)
            .ok_or_else(|| format!("--from {n}: the board has no land {n}"))?;
        if !variant.board.exits(from).any(|(_, to)| to == l) {
            let mut into: Vec<u32> = variant
                .board
                .lands()
                .filter(|&x| variant.board.exits(x).any(|(_, to)| to == l))
                .map(|x| variant.board.land(x).number)
                .collect();
            into.sort_unstable();
            into.dedup();
            let into: Vec<String> = into.iter().map(u32::to_string).collect();
            return Err(format!(
                "--from {n}: land {n} has no exit into land {} (lands that have: {})",
                variant.board.land(l).number,
                into.join(", ")
            ));
        }
        return Ok((terrain, attacker_entry_edge(variant, l, Some(from))));
    }
    if o.edge.is_none()
        && let Some(fixed) = variant.battleland(terrain).attacker_edge
    {
        return Ok((terrain, fixed));
    }
    Ok((terrain, edge_named(variant, o.edge.clone(), Some(terrain))?))
}

pub fn run_odds(o: OddsArgs) -> ExitCode {
    let json = o.json;
    finish(battle_odds(&o), json, "odds")
}

fn battle_odds(o: &OddsArgs) -> Result<(String, Value, bool), String> {
    let variant = find_variant_with(&o.variant, o.scripts.as_deref())?;
    let (terrain, edge) = battle_place(&variant, o)?;
    let battleland = variant.terrains[usize::from(terrain.0)].name.clone();
    let attacker = legion_named(&variant, &o.attacker)?;
    let defender = legion_named(&variant, &o.defender)?;
    let budget = Budget {
        nodes: o.budget,
        rollouts: o.rollouts,
    };
    player_with(&o.play, 0, budget).map_err(|e| e.to_string())?;
    if o.n == 0 {
        return Err("--n 0 fights nothing; give at least 1".into());
    }
    crate::seeds_fit(o.seed, o.n, "battles")?;
    let setup = BattleSetup {
        terrain,
        attacker: fighters(&variant, &attacker),
        defender: fighters(&variant, &defender),
        attacker_edge: edge,
        summonable: vec![],
        reinforcements: vec![],
        teleported: false,
    };
    let bar = progress(o.n, "battles");
    let clock = Clock::start();
    let r = odds(&variant, &setup, &o.play, budget, o.n, o.seed, &mut |i| {
        bar.set_position(i)
    })
    .map_err(|e| e.to_string())?;
    let (wall, cpu) = clock.elapsed();
    bar.finish_and_clear();
    let n = o.n;
    let mut text = format!(
        "{} of {} on the {} battleland, the attacker entering by {edge:?}, both sides {} ({}):\n  attacker {}\n  defender {}\n",
        count(n, "battle"),
        variant.id,
        battleland,
        o.play,
        seeds(o.seed, n),
        o.attacker,
        o.defender
    );
    // Each share also as a bar, so that the three read as a bar chart.
    let share = |k: u64| crate::simulate::bar(k as f64 / n.max(1) as f64, 20);
    text += &format!(
        "  attacker wins {:>6}  {}  {}\n",
        r.attacker_wins,
        percent_interval(r.attacker_wins, n),
        share(r.attacker_wins)
    );
    text += &format!(
        "  defender wins {:>6}  {}  ({} on time)  {}\n",
        r.defender_wins,
        percent_interval(r.defender_wins, n),
        r.time_losses,
        share(r.defender_wins)
    );
    text += &format!(
        "  mutual        {:>6}  {}  {}\n",
        r.mutual,
        percent_interval(r.mutual, n),
        share(r.mutual)
    );
    text += &format!(
        "  survivors: attacker {:.2}, defender {:.2}; {:.1} points to the winner\n",
        r.attacker_survivors, r.defender_survivors, r.points
    );
    let strength = |list: &[titan_core::battle::Fighter], t| {
        let l: Vec<_> = list.iter().map(|f| (f.character, f.power)).collect();
        titan_core::ai::values::strength(&variant, &l, t)
    };
    let estimate = titan_core::ai::values::win_chance(
        strength(&setup.attacker, None),
        strength(&setup.defender, Some(terrain)),
    );
    text += &format!(
        "  the engagement estimator (calibrated fit) says: attacker wins {:.1}%\n",
        100.0 * estimate
    );
    for (seed, e) in &r.errors {
        text += &format!("  error at seed {seed}: {e}\n");
    }
    text += &format!("  {}\n", timing(wall, cpu));
    let interval = |k| {
        let (lo, hi) = wilson(k, n);
        json!([lo, hi])
    };
    let value = json!({
        "variant": variant.id,
        "battleland": battleland,
        "entry_side": format!("{edge:?}"),
        "attacker": o.attacker,
        "defender": o.defender,
        "play": o.play,
        "battles": n,
        "seed": o.seed,
        "attacker_wins": r.attacker_wins,
        "attacker_wins_95": interval(r.attacker_wins),
        "defender_wins": r.defender_wins,
        "defender_wins_95": interval(r.defender_wins),
        "mutual": r.mutual,
        "time_losses": r.time_losses,
        "attacker_survivors": r.attacker_survivors,
        "defender_survivors": r.defender_survivors,
        "average_points": r.points,
        "estimated_attacker_wins": estimate,
        "errors": r.errors.iter().map(|(s, e)| json!({"seed": s, "error": e})).collect::<Vec<_>>(),
        "seconds": wall.as_secs_f64(),
        "cpu_seconds": cpu.map(|c| c.as_secs_f64()),
    });
    Ok((text, value, !r.errors.is_empty()))
}
