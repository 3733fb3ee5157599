//! Saves, replays and positions.
//!
//! A save is RON: the variant's id and version, the options, how the game
//! began (players and seed, or a position), and every action since, with a
//! hash of the state reached. Loading checks the variant, replays the actions
//! and compares the hash, so a save can never silently diverge. Positions
//! (scenario files) set up any state by name, for tests and what-if analysis.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Action, Game, GameState, Legion, Marker, Phase, Player, PlayerId};
use crate::format::OptionValue;
use crate::model::Variant;

/// How a game began.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Start {
    New { players: Vec<String>, seed: u64 },
    Position(Box<GameState>),
}

/// A saved game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub variant: String,
    pub version: String,
    pub options: BTreeMap<String, OptionValue>,
    pub start: Start,
    pub actions: Vec<(PlayerId, Action)>,
    /// [`Game::state_hash`] after the last action.
    pub state_hash: u64,
}

/// Why a save or position could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

impl Game {
    /// The save of this game.
    pub fn to_save(&self) -> SaveFile {
        SaveFile {
            variant: self.variant.id.clone(),
            version: self.variant.version.clone(),
            options: self.options.clone(),
            start: self.start.clone(),
            actions: self.history.clone(),
            state_hash: self.state_hash(),
        }
    }

    /// Writes the save atomically (a temporary file, then a rename). An
    /// existing file is replaced only if it is a save; what interrupted
    /// saves of this file left behind is removed first.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        self.save_with(path, |_| Ok(()))
    }

    /// [`Game::save`] with a step before the rename, where tests interrupt it.
    pub(crate) fn save_with(
        &self,
        path: &Path,
        before_rename: impl FnOnce(&Path) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let text = crate::write::to_ron(&self.to_save()).map_err(std::io::Error::other)?;
        if std::fs::symlink_metadata(path).is_ok() && read_save(path).is_err() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "the file there is not a save: it is not replaced",
            ));
        }
        crate::files::clean_leftovers(path);
        crate::files::write_atomic_with(path, text.as_bytes(), before_rename)
    }

    /// Saves below the folder `saves` (see [`crate::files::save_target`]):
    /// `path` relative to it, or absolute inside it. Returns where.
    pub fn save_in(&self, saves: &Path, path: &Path) -> std::io::Result<std::path::PathBuf> {
        let target = crate::files::save_target(saves, path)?;
        self.save(&target)?;
        Ok(target)
    }

    /// Replays a save on `variant`, checking the variant and the final state.
    pub fn from_save(variant: Arc<Variant>, save: &SaveFile) -> Result<Game, LoadError> {
        if save.variant != variant.id || save.version != variant.version {
            return Err(LoadError(format!(
                "the save was made with variant {} version {}, but the variant loaded is {} version {}: replaying it could diverge",
                save.variant, save.version, variant.id, variant.version
            )));
        }
        let mut game = match &save.start {
            Start::New { players, seed } => {
                Game::new(variant, save.options.clone(), players, *seed)
                    .map_err(|e| LoadError(e.to_string()))?
                    .0
            }
            Start::Position(state) => {
                Game::from_state(variant, save.options.clone(), (**state).clone())
                    .map_err(|e| LoadError(e.to_string()))?
            }
        };
        for (i, (player, action)) in save.actions.iter().enumerate() {
            game.apply(*player, action).map_err(|e| {
                LoadError(format!(
                    "action {} of the save ({action:?}) is refused: {e}",
                    i + 1
                ))
            })?;
        }
        if game.state_hash() != save.state_hash {
            return Err(LoadError(
                "replaying the save reaches another position than the one saved (state hash differs)".into(),
            ));
        }
        Ok(game)
    }

    /// Reads a save file and replays it.
    pub fn load(variant: Arc<Variant>, path: &Path) -> Result<Game, LoadError> {
        let save = read_save(path)?;
        Game::from_save(variant, &save)
    }
}

/// Reads a save file (a regular file of at most
/// [`crate::files::MAX_SAVE_BYTES`]).
/// What interrupted saves of it left behind is removed.
pub fn read_save(path: &Path) -> Result<SaveFile, LoadError> {
    read_save_in(Path::new(""), path)
}

/// [`read_save`] of `dir.join(path)`, naming `path` in errors.
pub fn read_save_in(dir: &Path, path: &Path) -> Result<SaveFile, LoadError> {
    let save = read_ron(dir, path, "a save")?;
    crate::files::clean_leftovers(&dir.join(path));
    Ok(save)
}

/// Reads a RON file. Errors name the file and the place, but never quote
/// it: the file may be anything readable (say, `/etc/shadow`).
fn read_ron<T: serde::de::DeserializeOwned>(
    dir: &Path,
    path: &Path,
    what: &str,
) -> Result<T, LoadError> {
    let text = crate::files::read_regular(&dir.join(path), crate::files::MAX_SAVE_BYTES)
        .map_err(|e| LoadError(format!("cannot read {}: {e}", path.display())))?;
    crate::load::ron_options().from_str(&text).map_err(|e| {
        LoadError(format!(
            "{} is not {what}: it does not read as one (line {}, column {})",
            path.display(),
            e.span.start.line,
            e.span.start.col,
        ))
    })
}

/// The longest player name a game takes (in bytes).
pub const MAX_NAME_LEN: usize = 64;

/// Checks a list of player names: each non-empty, at most
/// [`MAX_NAME_LEN`] bytes, and no two alike (players are named by name).
pub fn check_player_names(names: &[String]) -> Result<(), String> {
    for (i, n) in names.iter().enumerate() {
        if n.trim().is_empty() {
            return Err(format!("player {i} has an empty name"));
        }
        if n.len() > MAX_NAME_LEN {
            return Err(format!(
                "player {i}'s name is {} bytes long; the most is {MAX_NAME_LEN}",
                n.len()
            ));
        }
        if names[..i].contains(n) {
            return Err(format!("two players are named {n:?}"));
        }
    }
    Ok(())
}

/// A position by name: a scenario file's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    #[serde(default)]
    pub seed: u64,
    pub players: Vec<PositionPlayer>,
    pub legions: Vec<PositionLegion>,
    /// Seat of the player to move (0-based).
    pub active: u8,
    pub phase: Phase,
    #[serde(default)]
    pub roll: Option<u8>,
    #[serde(default = "one")]
    pub turn: u32,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionPlayer {
    pub name: String,
    #[serde(default)]
    pub score: u32,
    /// The number of the player's tower land.
    pub tower: u32,
    #[serde(default = "yes")]
    pub alive: bool,
    /// Turns already begun (1: in the first turn).
    #[serde(default = "two")]
    pub turns: u32,
}

fn yes() -> bool {
    true
}

fn two() -> u32 {
    2
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionLegion {
    pub marker: Marker,
    /// Land number.
    pub land: u32,
    pub characters: Vec<String>,
    #[serde(default)]
    pub moved: bool,
    /// Land number it entered from, if it moved.
    #[serde(default)]
    pub entered_from: Option<u32>,
    /// How many lands it moved this turn, if it moved
    /// (`rules.movement.muster_distances` asks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u8>,
    /// A tower legion that never moves (`rules.start.stationed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stationed: bool,
}

impl Position {
    /// Checks what a position must be, as strictly as a variant is checked:
    /// players, towers, markers, phase, roll and options a game could reach.
    fn validate(&self, v: &Variant) -> Result<(), String> {
        super::check_options(v, &self.options)?;
        let n = self.players.len();
        if n < usize::from(v.players.min) || n > usize::from(v.players.max) {
            return Err(format!(
                "{} is played by {} to {} players, not {n}",
                v.id, v.players.min, v.players.max
            ));
        }
        let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        check_player_names(&names)?;
        let exits = super::Exits::new(v);
        for (i, p) in self.players.iter().enumerate() {
            let tower = v
                .board
                .by_number(p.tower)
                .ok_or_else(|| format!("player {i}'s tower: there is no land {}", p.tower))?;
            if !exits.is_tower(tower) {
                return Err(format!("player {i}'s tower: land {} is no tower", p.tower));
            }
            if self.players[..i].iter().any(|o| o.tower == p.tower) {
                return Err(format!("two players start in tower {}", p.tower));
            }
        }
        let active = self.players.get(usize::from(self.active)).ok_or_else(|| {
            format!(
                "the active seat is {}, but the seats are 0 to {}",
                self.active,
                n - 1
            )
        })?;
        if !active.alive {
            return Err(format!(
                "the active player, {}, is out of the game",
                active.name
            ));
        }
        if self.phase == Phase::Over {
            return Err("a position cannot be over: nobody would have anything to do (set up the game before its end)".into());
        }
        let die = v.rules.movement.die;
        if let Some(r) = self.roll
            && !(1..=die).contains(&r)
        {
            return Err(format!(
                "a roll of {r}: the movement die has sides 1 to {die}"
            ));
        }
        let per = v.rules.legions.markers_per_player;
        for (i, l) in self.legions.iter().enumerate() {
            let m = l.marker;
            if usize::from(m.player.0) >= n {
                return Err(format!("legion {m} belongs to no player (there are {n})"));
            }
            if m.number == 0 || m.number > per {
                return Err(format!(
                    "legion {m}: a player's markers are numbered 1 to {per}"
                ));
            }
            if self.legions[..i].iter().any(|o| o.marker == m) {
                return Err(format!("legion {m} is listed twice"));
            }
            if !self.players[usize::from(m.player.0)].alive {
                return Err(format!("legion {m} belongs to a player out of the game"));
            }
            if l.characters.is_empty() {
                return Err(format!("legion {m} has no characters"));
            }
        }
        Ok(())
    }

    /// Reads a position file.
    pub fn read(path: &Path) -> Result<Position, LoadError> {
        Position::read_in(Path::new(""), path)
    }

    /// Reads `dir.join(path)`, naming `path` in errors.
    pub fn read_in(dir: &Path, path: &Path) -> Result<Position, LoadError> {
        read_ron(dir, path, "a position")
    }

    /// The game at this position.
    pub fn to_game(&self, variant: Arc<Variant>) -> Result<Game, LoadError> {
        self.validate(&variant).map_err(LoadError)?;
        let v = &variant;
        let land = |n: u32| {
            v.board
                .by_number(n)
                .ok_or_else(|| LoadError(format!("there is no land {n}")))
        };
        let per = v.rules.legions.markers_per_player;
        let mut players = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            players.push(Player {
                name: p.name.clone(),
                score: p.score,
                alive: p.alive,
                tower: Some(land(p.tower)?),
                markers: (1..=per)
                    .map(|n| Marker {
                        player: PlayerId(i as u8),
                        number: n,
                    })
                    .filter(|m| !self.legions.iter().any(|l| l.marker == *m))
                    .collect(),
                turns: p.turns,
            });
        }
        let mut caretaker: Vec<u32> = v.characters.iter().map(|c| c.count).collect();
        let mut legions = Vec::new();
        for l in &self.legions {
            if l.marker.player.0 as usize >= players.len() {
                return Err(LoadError(format!(
                    "legion {} belongs to no player",
                    l.marker
                )));
            }
            let mut characters = Vec::new();
            for name in &l.characters {
                let c = v.character_by_name(name).ok_or_else(|| {
                    LoadError(format!(
                        "legion {}: {name:?} is no character of {}",
                        l.marker, v.id
                    ))
                })?;
                let stock = &mut caretaker[c.index()];
                if *stock == 0 {
                    return Err(LoadError(format!(
                        "more {} than the caretaker has",
                        v.character(c).plural
                    )));
                }
                *stock -= 1;
                characters.push(c);
            }
            characters.sort_unstable();
            legions.push(Legion {
                marker: l.marker,
                owner: l.marker.player,
                land: land(l.land)?,
                characters,
                moved: l.moved,
                entered_from: l.entered_from.map(land).transpose()?,
                distance: match l.distance {
                    Some(d) if !l.moved || d == 0 || d > v.rules.movement.die => {
                        return Err(LoadError(format!(
                            "legion {}: a distance of {d} lands moved, but {}",
                            l.marker,
                            if l.moved {
                                format!("a legion moves 1 to {} lands", v.rules.movement.die)
                            } else {
                                "it has not moved (moved: true)".to_string()
                            }
                        )));
                    }
                    d => d,
                },
                mustered: false,
                split_from: None,
                revealed: Vec::new(),
                seen_by: 0,
                stationed: l.stationed,
            });
        }
        legions.sort_by_key(|l| l.marker);
        let state = GameState {
            players,
            legions,
            caretaker,
            turn: self.turn,
            active: PlayerId(self.active),
            phase: self.phase,
            roll: self.roll,
            mulligan_used: false,
            teleports: 0,
            summoned: false,
            engagement: None,
            outcome: None,
            rng_seed: self.seed,
            rng_pos: 0,
            vars: Default::default(),
            choice: None,
            showdown: None,
            battlelands: Vec::new(),
            mustered: Vec::new(),
            challenged: Vec::new(),
        };
        let game = Game::from_state(variant, self.options.clone(), state)
            .map_err(|e| LoadError(e.to_string()))?;
        game.check_invariants().map_err(LoadError)?;
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Saves are atomic": a save interrupted after its text is written but
    /// before the rename leaves the old save whole and loadable, and what a
    /// killed save left behind goes at the next save.
    #[test]
    fn an_interrupted_save_keeps_the_old_save() {
        let variant = Arc::new(crate::titan_for_tests());
        let names = ["A".to_string(), "B".to_string()];
        let (mut game, _) = Game::new(variant.clone(), BTreeMap::new(), &names, 3).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.ron");
        game.save(&path).unwrap();
        let saved = game.state.clone();
        let p = game.to_act()[0];
        let action = game.legal_actions(p).remove(0);
        game.apply(p, &action).unwrap();
        assert_ne!(game.state, saved);
        let mut written = None;
        let interrupted = game.save_with(&path, |tmp| {
            written = std::fs::read_to_string(tmp).ok();
            Err(std::io::Error::other("killed before the rename"))
        });
        assert!(interrupted.is_err());
        assert!(
            written.is_some_and(|t| t.contains("InitialSplit")),
            "the new save was written"
        );
        assert_eq!(Game::load(variant.clone(), &path).unwrap().state, saved);
        // A killed process leaves its temporary file: the next save removes it.
        let leftover = dir.path().join(".game.ron.tmp4242");
        std::fs::write(&leftover, "half a save").unwrap();
        game.save(&path).unwrap();
        assert!(!leftover.exists());
        assert_eq!(
            Game::load(variant.clone(), &path).unwrap().state,
            game.state
        );
        // ... and so does the next load.
        std::fs::write(&leftover, "half a save").unwrap();
        Game::load(variant, &path).unwrap();
        assert!(!leftover.exists());
    }

    /// A save never replaces a file that is not a save, and a load names a
    /// foreign file without quoting it.
    #[test]
    fn saves_replace_only_saves_and_loads_quote_nothing() {
        let variant = Arc::new(crate::titan_for_tests());
        let names = ["A".to_string(), "B".to_string()];
        let (game, _) = Game::new(variant.clone(), BTreeMap::new(), &names, 3).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("passwd");
        std::fs::write(&other, "root:x:0:0:secret:/root:/bin/sh\n").unwrap();
        assert!(game.save(&other).is_err());
        assert_eq!(
            std::fs::read_to_string(&other).unwrap(),
            "root:x:0:0:secret:/root:/bin/sh\n"
        );
        for e in [
            Game::load(variant.clone(), &other).unwrap_err().0,
            Position::read(&other).unwrap_err().0,
        ] {
            assert!(e.contains("is not a"), "{e}");
            assert!(!e.contains("root:") && !e.contains("secret"), "{e}");
        }
    }
}
