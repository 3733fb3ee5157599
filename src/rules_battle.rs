//! `titan rules strike|los|reach`: battle rules questions about a position,
//! answered as JSON.
//!
//! Each query builds a battle position from the command line: the character
//! asked about (`--striker` or `--character`) is the attacker and the moving
//! player, `--place` puts an enemy of it on the battleland and `--ally` one
//! of its own side; hexes are the printed labels (A1 ... F4).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use titan_core::LoadOptions;
use titan_core::battle::position::{Placed, PositionPhase};
use titan_core::battle::{Battle, BattleSide, Position, UnitId};
use titan_core::rng::GameRng;

/// The battle queries of `titan rules`.
#[derive(Subcommand)]
pub enum BattleQuery {
    /// Strike number and dice of a strike, contact, and which other enemies
    /// hits may carry over to. Prints JSON: {"contact", "strike_number",
    /// "dice", "carry_over": [{"character", "hex", "carry"}]}.
    Strike {
        #[command(flatten)]
        board: Board,
        /// The striker, as NAME@HEX (e.g. Ogre@C3).
        #[arg(long, value_name = "NAME@HEX")]
        striker: String,
        /// The target, as NAME@HEX.
        #[arg(long, value_name = "NAME@HEX")]
        target: String,
    },
    /// Range and line of sight of a rangestrike. Prints JSON: {"range",
    /// "path" (the hexes crossed), "possible", "reason" (when not possible),
    /// "strike_number" and "dice" (when possible)}.
    Los {
        #[command(flatten)]
        board: Board,
        /// The rangestriker, as NAME@HEX (e.g. Giant@A1).
        #[arg(long, value_name = "NAME@HEX")]
        striker: String,
        /// The target, as NAME@HEX.
        #[arg(long, value_name = "NAME@HEX")]
        target: String,
    },
    /// Every hex a character can move to this maneuver phase. Prints JSON:
    /// {"character", "from", "hexes": [...]}.
    Reach {
        #[command(flatten)]
        board: Board,
        /// The character that moves, as NAME@HEX.
        #[arg(long, value_name = "NAME@HEX")]
        character: String,
    },
}

/// The battleland and the other characters on it.
#[derive(Args)]
pub struct Board {
    /// A variant folder, or the name of one under variants/ (as for
    /// `titan rules moves` and every other command, `titan` by default).
    #[arg(long, value_name = "VARIANT", default_value = "titan")]
    pub variant: String,
    /// The terrain whose battleland it is (e.g. Mountains).
    #[arg(long, value_name = "TERRAIN")]
    pub battleland: String,
    /// An enemy of the striker (or mover), as NAME@HEX; repeatable.
    #[arg(long, value_name = "NAME@HEX")]
    pub place: Vec<String>,
    /// A character of the striker's (or mover's) own side, as NAME@HEX; repeatable.
    #[arg(long, value_name = "NAME@HEX")]
    pub ally: Vec<String>,
}

pub fn run(query: BattleQuery, variants_root: PathBuf) -> ExitCode {
    match answer(query, &variants_root) {
        Ok(json) => {
            if !crate::write_out(&format!("{json}\n")) {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("titan rules: {e}");
            // As `titan rules moves|recruits` and the other commands: bad
            // input (an unknown variant, terrain, character or hex) is 2.
            ExitCode::from(2)
        }
    }
}

fn load(name: &str, root: &Path) -> Result<titan_core::Variant, String> {
    let dir = if Path::new(name).join("variant.ron").is_file() {
        PathBuf::from(name)
    } else {
        root.join(name)
    };
    if !dir.join("variant.ron").is_file() {
        // As `titan rules moves` says it, with the variants there are.
        return Err(format!(
            "no variant {name:?}: it is neither a folder holding a variant.ron nor a variant under {} (bundled: {})",
            root.display(),
            crate::rules_masterboard::bundled_variants(root).join(", ")
        ));
    }
    let opts = LoadOptions {
        search_paths: vec![root.to_path_buf()],
        shared_scripts: Some(root.parent().unwrap_or(Path::new(".")).join("scripts")),
    };
    titan_core::load(&dir, &opts).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        format!("variant {name:?} does not load:\n  {}", lines.join("\n  "))
    })
}

fn placed(text: &str) -> Result<Placed, String> {
    let p = Placed::parse(text)?;
    if p.hex.is_none() {
        return Err(format!("{text:?}: expected NAME@HEX"));
    }
    Ok(p)
}

/// The position: `first` (and any `second` of the same role) for the
/// attacker side, with allies; enemies for the defender side.
fn position(
    board: &Board,
    own: &[&str],
    enemies: &[&str],
    phase: PositionPhase,
) -> Result<Position, String> {
    let mut attacker = Vec::new();
    for t in own
        .iter()
        .copied()
        .chain(board.ally.iter().map(String::as_str))
    {
        attacker.push(placed(t)?);
    }
    let mut defender = Vec::new();
    for t in enemies
        .iter()
        .copied()
        .chain(board.place.iter().map(String::as_str))
    {
        defender.push(placed(t)?);
    }
    Ok(Position {
        battleland: board.battleland.clone(),
        attacker_edge: None,
        defender_maneuver: 1,
        moving: BattleSide::Attacker,
        phase,
        attacker,
        defender,
        summonable: vec![],
        reinforcements: vec![],
        summon_open: false,
    })
}

pub fn answer(query: BattleQuery, root: &Path) -> Result<String, String> {
    let json = |v: serde_json::Value| serde_json::to_string(&v).map_err(|e| e.to_string());
    match query {
        BattleQuery::Strike {
            board,
            striker,
            target,
        } => {
            let v = load(&board.variant, root)?;
            let p = position(&board, &[&striker], &[&target], PositionPhase::Strike)?;
            let b = Battle::from_position(&v, &p, GameRng::new(0)).map_err(|e| e.to_string())?;
            let (s, t) = ends(&p);
            let r = b.strike_report(s, t).map_err(|e| e.to_string())?;
            json(serde_json::to_value(r).map_err(|e| e.to_string())?)
        }
        BattleQuery::Los {
            board,
            striker,
            target,
        } => {
            let v = load(&board.variant, root)?;
            let p = position(&board, &[&striker], &[&target], PositionPhase::Strike)?;
            let b = Battle::from_position(&v, &p, GameRng::new(0)).map_err(|e| e.to_string())?;
            let (s, t) = ends(&p);
            let r = b.line_of_sight(s, t).map_err(|e| e.to_string())?;
            json(serde_json::to_value(r).map_err(|e| e.to_string())?)
        }
        BattleQuery::Reach { board, character } => {
            let v = load(&board.variant, root)?;
            let p = position(&board, &[&character], &[], PositionPhase::Maneuver)?;
            let b = Battle::from_position(&v, &p, GameRng::new(0)).map_err(|e| e.to_string())?;
            let hexes: Vec<String> = b
                .reach(0)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|h| h.label())
                .collect();
            json(serde_json::json!({
                "character": p.attacker[0].character,
                "from": p.attacker[0].hex.map(|h| h.label()),
                "hexes": hexes,
            }))
        }
    }
}

/// The striker is the first attacker (unit 0); the target the first
/// defender, which comes after the attacker and its allies.
fn ends(p: &Position) -> (UnitId, UnitId) {
    (0, p.attacker.len() as UnitId)
}
