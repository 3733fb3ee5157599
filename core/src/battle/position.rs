//! Battle positions: a battleland, characters on hexes with their damage,
//! the round and phase, in RON, for tests and queries.
//!
//! ```
//! use titan_core::battle::{Battle, Position};
//! use titan_core::rng::GameRng;
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
//! let v = titan_core::load(&dir, &Default::default()).unwrap();
//! let p = Position::from_ron(r#"(
//!     battleland: "Plains",
//!     moving: Attacker,
//!     phase: Strike,
//!     attacker: [(character: "Ogre", hex: "C3")],
//!     defender: [(character: "Troll", hex: "C4", damage: 2)],
//! )"#).unwrap();
//! let battle = Battle::from_position(&v, &p, GameRng::new(1)).unwrap();
//! assert_eq!(battle.units().len(), 2);
//! ```

use serde::{Deserialize, Serialize};

use crate::battleland::HexId;
use crate::format::Edge;
use crate::model::{CharacterId, Variant};
use crate::rng::GameRng;

use super::{
    Battle, BattleError, BattleSetup, BattleSide, Fighter, Phase, State, Status, SummonState, Unit,
    side_index,
};

fn one() -> u8 {
    1
}

/// A position on a battleland.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The terrain whose battleland this is.
    pub battleland: String,
    /// The attacker's entry edge (default: the battleland's fixed one, else
    /// the first of `rules.battle.attacker_edges`).
    #[serde(default)]
    pub attacker_edge: Option<Edge>,
    /// The defender's maneuver phase count (1 to 7): the round.
    #[serde(default = "one")]
    pub defender_maneuver: u8,
    /// The moving player.
    #[serde(default)]
    pub moving: BattleSide,
    /// The start of the moving player's maneuver phase, or of the strike
    /// phase that follows it.
    #[serde(default)]
    pub phase: PositionPhase,
    #[serde(default)]
    pub attacker: Vec<Placed>,
    #[serde(default)]
    pub defender: Vec<Placed>,
    /// Characters the attacker may summon (legion ids are their indexes).
    #[serde(default)]
    pub summonable: Vec<String>,
    #[serde(default)]
    pub reinforcements: Vec<String>,
    /// A strike phase has slain a defender: the attacker may summon in its
    /// next maneuver phase.
    #[serde(default)]
    pub summon_open: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PositionPhase {
    #[default]
    Maneuver,
    Strike,
}

/// A character of a position: on a hex, or (no hex) waiting to enter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub character: String,
    #[serde(default)]
    pub hex: Option<HexId>,
    #[serde(default)]
    pub damage: u8,
    /// Power for this battle (a Titan's); the chart's when absent.
    #[serde(default)]
    pub power: Option<u8>,
    /// Rides the character of its side placed on `hex` (`ctx:mount`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rides: bool,
}

impl Placed {
    /// Reads `NAME@HEX` (as the command line writes it), or a bare `NAME`
    /// for a character still to enter.
    ///
    /// ```
    /// use titan_core::battle::position::Placed;
    /// let p = Placed::parse("Ogre@D4").unwrap();
    /// assert_eq!(p.character, "Ogre");
    /// assert_eq!(p.hex.unwrap().label(), "D4");
    /// assert!(Placed::parse("Ogre@Z9").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Placed, String> {
        let (name, hex) = match text.split_once('@') {
            Some((n, h)) => (
                n,
                Some(
                    HexId::from_label(h)
                        .ok_or_else(|| format!("{text:?}: no hex {h:?} (hexes are A1 ... F4)"))?,
                ),
            ),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(format!("{text:?}: expected NAME@HEX"));
        }
        Ok(Placed {
            character: name.to_string(),
            hex,
            damage: 0,
            power: None,
            rides: false,
        })
    }
}

impl Position {
    /// Reads a position from RON; optional fields take bare values
    /// (`hex: "C3"`, not `hex: Some("C3")`).
    pub fn from_ron(text: &str) -> Result<Position, ron::error::SpannedError> {
        ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
    }
}

fn character(v: &Variant, name: &str) -> Result<CharacterId, BattleError> {
    v.character_by_name(name)
        .ok_or_else(|| BattleError::Setup(format!("no character named {name:?} in {}", v.id)))
}

impl<'v> Battle<'v> {
    /// A battle standing at `position`.
    pub fn from_position(
        variant: &'v Variant,
        position: &Position,
        rng: GameRng,
    ) -> Result<Battle<'v>, BattleError> {
        let terrain = variant
            .terrain_by_name(&position.battleland)
            .ok_or_else(|| {
                BattleError::Setup(format!(
                    "no battleland {:?} in {}",
                    position.battleland, variant.id
                ))
            })?;
        let land = &variant.battlelands[terrain.index()];
        let attacker_edge = land
            .attacker_edge
            .or(position.attacker_edge)
            .or_else(|| variant.rules.battle.attacker_edges.first().copied())
            .unwrap_or(Edge::SouthWest);
        let mut units = Vec::new();
        let mut fighters = [Vec::new(), Vec::new()];
        let mut taken = [false; crate::battleland::MAX_HEXES];
        for (side, list) in [
            (BattleSide::Attacker, &position.attacker),
            (BattleSide::Defender, &position.defender),
        ] {
            for p in list {
                let c = character(variant, &p.character)?;
                let power = p.power.unwrap_or(variant.character(c).power);
                if power == 0 || p.damage >= power {
                    return Err(BattleError::Setup(format!(
                        "{} has damage {} and power {power}: it would be slain",
                        p.character, p.damage
                    )));
                }
                let status = match p.hex {
                    // Its mount is found once everybody is placed.
                    Some(h) if p.rides => Status::Riding(h.0),
                    Some(h) if !land.board.has(h) => {
                        return Err(BattleError::Setup(format!(
                            "{} is no hex of the {} battleland",
                            h.label(),
                            position.battleland
                        )));
                    }
                    Some(h) => {
                        if std::mem::replace(&mut taken[h.0 as usize], true) {
                            return Err(BattleError::Setup(format!(
                                "two characters on {}",
                                h.label()
                            )));
                        }
                        Status::OnBoard(h)
                    }
                    None => Status::Waiting,
                };
                fighters[side_index(side)].push(Fighter {
                    character: c,
                    power,
                });
                units.push(Unit {
                    character: c,
                    side,
                    power,
                    status,
                    damage: p.damage,
                    moved: false,
                    locked: false,
                    strikes_left: 0,
                });
            }
        }
        // A rider's status held its hex until its mount was known.
        let mut mounts = Vec::new();
        for (i, r) in units.iter().enumerate() {
            if let Status::Riding(h) = r.status {
                let m = units
                    .iter()
                    .position(|u| u.side == r.side && u.status == Status::OnBoard(HexId(h)))
                    .ok_or_else(|| {
                        BattleError::Setup(format!(
                            "a rider on {} needs a character of its side there to ride",
                            HexId(h).label()
                        ))
                    })?;
                if mounts.iter().any(|&(_, o)| o == m) {
                    return Err(BattleError::Setup(format!(
                        "two riders on {}",
                        HexId(h).label()
                    )));
                }
                mounts.push((i, m));
            }
        }
        for (i, m) in mounts {
            units[i].status = Status::Riding(m as u8);
        }
        let names = |list: &[String]| -> Result<Vec<CharacterId>, BattleError> {
            list.iter().map(|n| character(variant, n)).collect()
        };
        let summonable = names(&position.summonable)?
            .into_iter()
            .enumerate()
            .map(|(i, c)| (i as u32, c))
            .collect();
        let [attacker, defender] = fighters;
        let setup = BattleSetup {
            terrain,
            attacker,
            defender,
            attacker_edge,
            summonable,
            reinforcements: names(&position.reinforcements)?,
            teleported: false,
        };
        let entered = [BattleSide::Attacker, BattleSide::Defender].map(|side| {
            !units
                .iter()
                .any(|u| u.side == side && u.status == Status::Waiting)
        });
        let state = State {
            units,
            phase: Phase::Maneuver,
            moving: position.moving,
            defender_maneuver: position.defender_maneuver.max(1),
            entered,
            attacker_edge,
            summon: if position.summon_open {
                SummonState::Open
            } else {
                SummonState::NotYet
            },
            defender_slain_now: false,
            summoned: None,
            reinforced: None,
            carry: None,
            result: None,
            fixed_dice: Default::default(),
            conceded: None,
            vars: Default::default(),
            game_vars: Default::default(),
            choice: None,
            overlay: None,
            extra: Vec::new(),
            reinforcement_round: None,
            teams: Default::default(),
        };
        let rng = std::rc::Rc::new(std::cell::RefCell::new(rng));
        let lua = Self::start_scripts(variant, &rng)?;
        let mut battle = Self::assemble(variant.into(), setup, state, rng, lua)?;
        let mut s = (*battle.state).clone();
        let mut ev = Vec::new();
        match position.phase {
            PositionPhase::Maneuver => battle.begin_maneuver(&mut s, &mut ev)?,
            PositionPhase::Strike => battle.begin_strikes(&mut s, position.moving, &mut ev)?,
        }
        *battle.state = s;
        Ok(battle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placed_character_needs_a_name_and_a_real_hex() {
        assert!(Placed::parse("@A1").is_err());
        assert!(Placed::parse("x@A9").is_err());
        assert_eq!(Placed::parse("x@A1").unwrap().hex, HexId::from_label("A1"));
    }
}
