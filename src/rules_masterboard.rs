//! `titan rules moves` and `titan rules recruits`: questions about the
//! masterboard answered from a variant's data, as JSON.
//!
//! The same queries are messages of `titan engine` (see `docs/protocol.md`),
//! so both share the functions here. Everything speaks in the game's names:
//! lands by their printed number, characters and terrains by name.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use serde_json::{Value, json};
use titan_core::game::{Exits, Occupancy, muster};
use titan_core::model::{CharacterId, HookId, TerrainId, Variant};
use titan_core::{LoadOptions, compile};

/// The masterboard queries of `titan rules`.
#[derive(Subcommand)]
pub enum Query {
    /// Where a legion can move from a land with a roll (JSON).
    ///
    /// Every land a lone legion without lords can end its move on, on an
    /// empty board, with the land it entered each through (which fixes the
    /// battleland side it would attack from). Prints one JSON object:
    /// {"land": 1, "roll": 2, "moves": [{"land": 3, "entered_from": 2}, ...]}.
    Moves {
        /// The variant: a name under variants/, or a folder.
        #[arg(long, default_value = "titan")]
        variant: String,
        /// The land the legion starts on, by its printed number.
        #[arg(long)]
        land: u32,
        /// The movement roll.
        #[arg(long)]
        roll: u8,
    },
    /// What a legion may muster in a land or terrain (JSON).
    ///
    /// Every way to muster, with the characters the legion must reveal for
    /// each (reference sheet, "Enlistment"), each distinct choice once (a
    /// way that shows all another way of the same recruit shows, and more,
    /// is left out: a free Ogre is not also "reveal an Ogre"). Prints one
    /// JSON object:
    /// {"terrain": "Marsh", "legion": [...], "recruits": [{"recruit": "Troll",
    /// "reveal": ["Ogre", "Ogre"]}, ...]}. The caretaker's stock and the
    /// legion's size limit are not applied (an empty board, a full stock).
    Recruits {
        /// The variant: a name under variants/, or a folder.
        #[arg(long, default_value = "titan")]
        variant: String,
        /// The land, by its printed number (its terrain is used).
        #[arg(long, required_unless_present = "terrain", conflicts_with = "terrain")]
        land: Option<u32>,
        /// The terrain, by name.
        #[arg(long)]
        terrain: Option<String>,
        /// The legion's characters, by name, separated by commas:
        /// "Ogre,Ogre,Troll".
        #[arg(long, allow_hyphen_values = true)]
        legion: String,
    },
}

/// Runs a query, printing its JSON answer. Usage errors (an unknown variant,
/// land, terrain or character) exit with 2; an empty answer is no error.
pub fn run(query: Query) -> ExitCode {
    let (name, answer) = match query {
        Query::Moves {
            variant,
            land,
            roll,
        } => (
            "moves",
            find_variant(&variant).and_then(|v| moves(&v, land, roll)),
        ),
        Query::Recruits {
            variant,
            land,
            terrain,
            legion,
        } => {
            let place = match (land, terrain) {
                (Some(n), _) => Place::Land(n),
                (None, Some(t)) => Place::Terrain(t),
                (None, None) => Place::Terrain(String::new()),
            };
            let names: Vec<String> = legion
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(String::from)
                .collect();
            (
                "recruits",
                find_variant(&variant).and_then(|v| recruits(&v, &place, &names)),
            )
        }
    };
    match answer {
        Ok(value) => {
            if !crate::write_out(&format!("{value}\n")) {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("titan rules {name}: {message}");
            ExitCode::from(2)
        }
    }
}

/// The `variants/` folder and the options to load variants from it, as
/// `titan check` does.
pub fn load_options() -> (PathBuf, LoadOptions) {
    let root = crate::check::variants_root();
    let shared = root.parent().unwrap_or(Path::new(".")).join("scripts");
    let opts = LoadOptions {
        search_paths: vec![root.clone()],
        shared_scripts: Some(shared),
    };
    (root, opts)
}

/// Loads a variant named `spec` (a folder under `variants/`) or found at the
/// path `spec`. The error says what is wrong, in one paragraph.
pub fn find_variant(spec: &str) -> Result<Variant, String> {
    find_variant_with(spec, None)
}

/// [`find_variant`], with the shared scripts (`shared:` in a variant's
/// `scripts`) read from `scripts` when given (a folder, or the error says
/// what it is instead), as `titan check --scripts` does.
pub fn find_variant_with(spec: &str, scripts: Option<&Path>) -> Result<Variant, String> {
    let (root, mut opts) = load_options();
    if let Some(dir) = scripts {
        crate::check::a_folder(dir)
            .map_err(|problem| format!("--scripts {}: {problem}", dir.display()))?;
        opts.shared_scripts = Some(dir.to_path_buf());
    }
    let by_path = Path::new(spec);
    let dir = if by_path.join("variant.ron").is_file() {
        by_path.to_path_buf()
    } else if !spec.is_empty()
        && !spec.contains(['/', '\\'])
        && root.join(spec).join("variant.ron").is_file()
    {
        root.join(spec)
    } else {
        return Err(format!(
            "no variant {spec:?}: it is neither a folder holding a variant.ron nor a variant under {} (bundled: {})",
            root.display(),
            bundled_variants(&root).join(", ")
        ));
    };
    titan_core::load(&dir, &opts).map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!(
            "variant {spec:?} does not load ({}; see `titan check`): {}",
            crate::count(list.len() as u64, "error"),
            list.join("; ")
        )
    })
}

/// The names of the variants under `root`, sorted.
pub fn bundled_variants(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().join("variant.ron").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Where a legion musters: a land (by number) or a terrain (by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Land(u32),
    Terrain(String),
}

/// Every land a lone legion without lords on `land` may end a move of
/// `roll` on, on an empty board, with the land it entered each through.
///
/// Sorted by land number, then by the number of the land entered from.
pub fn moves(variant: &Variant, land: u32, roll: u8) -> Result<Value, String> {
    let board = &variant.board;
    let start = board
        .by_number(land)
        .ok_or_else(|| format!("{} has no land {land}", variant.id))?;
    let die = variant.rules.movement.die;
    if roll == 0 || roll > die {
        return Err(format!(
            "a movement roll is 1 to {die} in {}, not {roll}",
            variant.id
        ));
    }
    let empty = vec![Occupancy::Empty; board.land_count()];
    let mut found: Vec<(u32, u32)> = Exits::new(variant)
        .moves(start, roll, &empty)
        .into_iter()
        .map(|t| (board.land(t.land).number, board.land(t.entered_from).number))
        .collect();
    found.sort_unstable();
    let moves: Vec<Value> = found
        .into_iter()
        .map(|(to, from)| json!({"land": to, "entered_from": from}))
        .collect();
    Ok(json!({"land": land, "roll": roll, "moves": moves}))
}

/// What a legion of the characters named `legion` may muster at `place`,
/// and what it must reveal for each way (reference sheet, "Enlistment").
/// The caretaker's stock and the legion's size are not applied.
pub fn recruits(variant: &Variant, place: &Place, legion: &[String]) -> Result<Value, String> {
    let (land, terrain) = match place {
        Place::Land(n) => {
            let id = variant
                .board
                .by_number(*n)
                .ok_or_else(|| format!("{} has no land {n}", variant.id))?;
            (Some(*n), variant.board.land(id).terrain)
        }
        Place::Terrain(name) => (None, terrain_named(variant, name)?),
    };
    let characters = legion
        .iter()
        .map(|n| character_named(variant, n))
        .collect::<Result<Vec<_>, _>>()?;
    let options = least_reveals(muster_options(variant, terrain, &characters)?);
    let name = |c: CharacterId| variant.character(c).name.clone();
    let recruits: Vec<Value> = options
        .iter()
        .map(|o| {
            json!({
                "recruit": name(o.recruit),
                "reveal": o.reveal.iter().map(|&c| name(c)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut answer = json!({
        "terrain": variant.terrains[terrain.index()].name,
        "legion": legion,
        "recruits": recruits,
    });
    if let Some(n) = land {
        answer["land"] = json!(n);
    }
    Ok(answer)
}

/// Each distinct choice once: a way to muster a recruit whose reveal
/// holds all of another way's for the same recruit (and more) is that
/// choice showing more than it must, and is left out (the Tower's Ogre,
/// free, not also "reveal an Ogre"). Ways revealing different characters
/// (a Warlock for a Warlock, or for the Titan) are choices, and stay.
fn least_reveals(options: Vec<muster::MusterOption>) -> Vec<muster::MusterOption> {
    // Multisets: `small` within `big`, both sorted.
    let within = |small: &[CharacterId], big: &[CharacterId]| {
        let mut big = big.iter().peekable();
        small.iter().all(|c| {
            while big.next_if(|b| *b < c).is_some() {}
            big.next_if(|b| *b == c).is_some()
        })
    };
    let sorted = |o: &muster::MusterOption| {
        let mut r = o.reveal.clone();
        r.sort_unstable();
        r
    };
    let reveals: Vec<Vec<CharacterId>> = options.iter().map(sorted).collect();
    options
        .iter()
        .enumerate()
        .filter(|&(i, o)| {
            !options.iter().enumerate().any(|(j, other)| {
                j != i
                    && other.recruit == o.recruit
                    && reveals[j].len() < reveals[i].len()
                    && within(&reveals[j], &reveals[i])
            })
        })
        .map(|(_, o)| o.clone())
        .collect()
}

/// The muster options, asking the variant's scripts for `Hook` needs as a
/// game does (recruit, then the legion's characters, as ids).
fn muster_options(
    variant: &Variant,
    terrain: TerrainId,
    legion: &[CharacterId],
) -> Result<Vec<muster::MusterOption>, String> {
    let host = if variant.scripts.is_empty() {
        None
    } else {
        Some(
            compile::run_scripts(&variant.data, 0)
                .map_err(|e| format!("the scripts of {} fail: {e}", variant.id))?,
        )
    };
    let mut judge = |h: HookId, recruit: CharacterId, chars: &[CharacterId]| {
        let Some(host) = &host else { return false };
        let args: Vec<u16> = std::iter::once(recruit.0)
            .chain(chars.iter().map(|c| c.0))
            .collect();
        host.call_hook::<_, bool>(&variant.hooks[h.index()], mlua::Variadic::from_iter(args))
            .unwrap_or(false)
    };
    Ok(muster::options(variant, terrain, legion, &mut judge))
}

/// A character by name, or an error listing the variant's characters.
pub fn character_named(variant: &Variant, name: &str) -> Result<CharacterId, String> {
    variant.character_by_name(name).ok_or_else(|| {
        let all: Vec<&str> = variant.characters.iter().map(|c| c.name.as_str()).collect();
        format!(
            "{name:?} is no character of {} (its characters: {})",
            variant.id,
            all.join(", ")
        )
    })
}

/// A terrain by name, or an error listing the variant's terrains.
pub fn terrain_named(variant: &Variant, name: &str) -> Result<TerrainId, String> {
    variant.terrain_by_name(name).ok_or_else(|| {
        let all: Vec<&str> = variant.terrains.iter().map(|t| t.name.as_str()).collect();
        format!(
            "{name:?} is no terrain of {} (its terrains: {})",
            variant.id,
            all.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titan() -> Variant {
        find_variant("titan").expect("the bundled titan variant loads")
    }

    /// Reference sheet, "Movement Signs": from land 1 (a triple arrow to 2,
    /// an arch to 1000) a roll of 1 ends on either.
    #[test]
    fn moves_from_land_one() {
        let v = titan();
        let answer = moves(&v, 1, 1).unwrap();
        assert_eq!(
            answer,
            json!({"land": 1, "roll": 1, "moves": [
                {"land": 2, "entered_from": 1},
                {"land": 1000, "entered_from": 1},
            ]})
        );
    }

    #[test]
    fn bad_lands_rolls_and_names_are_errors() {
        let v = titan();
        assert!(moves(&v, 99, 1).unwrap_err().contains("no land 99"));
        assert!(moves(&v, 1, 0).is_err());
        assert!(moves(&v, 1, 7).is_err());
        let err = recruits(&v, &Place::Terrain("Lava".into()), &[]).unwrap_err();
        assert!(err.contains("\"Lava\" is no terrain"), "{err}");
        let err = recruits(&v, &Place::Land(1), &["Orc".into()]).unwrap_err();
        assert!(err.contains("\"Orc\" is no character"), "{err}");
        assert!(find_variant("no-such-variant").is_err());
    }
}
