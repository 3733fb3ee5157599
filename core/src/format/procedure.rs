//! The battle procedure as data: how a battle's rounds go, how characters
//! come onto the board and move, when reinforcements come, and whether the
//! attacker can lose by time (`rules.battle.procedure`, docs/battle.md,
//! "The battle procedure").

use serde::{Deserialize, Serialize};

/// How a battle is fought. Every field has the default of the Avalon Hill
/// game of 1982, so a variant that says nothing plays that.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Procedure {
    /// The phases of a round and their order.
    pub round: Round,
    /// How characters come onto the board and move in a side's phase.
    pub movement: Maneuvering,
    /// When the defender may take a reinforcement.
    pub reinforcement: Reinforcement,
    /// The attacker loses by time when the battle lasts past
    /// `defender_maneuvers` rounds (false: battles last until a side is
    /// gone).
    pub time_loss: bool,
    /// Placement: the zone (of the board's `zones`) the attacker's
    /// characters are committed to; a board without it uses the hexes along
    /// the attacker's entry edge.
    pub attacker_zone: String,
    /// Placement: the defender's zone; a board without it uses the hexes
    /// along the defender's edge.
    pub defender_zone: String,
    /// Placement: the movement points of a shift (1: to an adjacent hex the
    /// hazards let the character enter for one point).
    pub shift: u8,
    /// When a slain Titan (`rules.titan.character`) ends the battle.
    pub titan_death: TitanDeath,
}

/// When a slain Titan ends the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TitanDeath {
    /// At once, with the strike that slays it (reference sheet, "Titans").
    AtOnce,
    /// At the end of the strike phase, with the other slain: it strikes
    /// back first, and its slayer wins only if his own legion was not
    /// eliminated in the same phase (Law of Titan 1980, 18.B).
    PhaseEnd,
}

impl Default for Procedure {
    fn default() -> Procedure {
        Procedure {
            round: Round::EachSide,
            movement: Maneuvering::Maneuver,
            reinforcement: Reinforcement::Round,
            time_loss: true,
            attacker_zone: "attacker".to_string(),
            defender_zone: "defender".to_string(),
            shift: 1,
            titan_death: TitanDeath::AtOnce,
        }
    }
}

/// The phases of a round. The defender acts first in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Round {
    /// Each side in turn, the defender first: the side's maneuver phase,
    /// its strike phase, the other side's strike phase (strikes back); the
    /// slain leave at the end of the second (Law of the Battlelands 26-27).
    EachSide,
    /// Both sides' maneuver (placement) phases, the defender's first; then
    /// one strike phase in which the attacker strikes and then the
    /// defender; the slain leave at its end (Law of Titan 1980, 11.C, 12).
    BothThenStrikes,
}

/// How characters come onto the board and move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Maneuvering {
    /// Characters enter by their side's edge in its first maneuver phase
    /// (those not brought on are eliminated) and move up to their skill in
    /// hexes (Law of the Battlelands 25.D, 26).
    Maneuver,
    /// In each of its placement phases a side commits characters to the
    /// vacant hexes of its zone (flyers of the attacker to the defender's
    /// zone too) and must fill as many of its hexes as it can; a character
    /// on the board shifts once by `shift` points if it did not begin the
    /// phase in contact, the defender never into the attacker's zone; an
    /// attacker who can commit no more must shift, if it can, to keep a
    /// character in contact (Law of Titan 1980, 11).
    Placement,
}

/// When the defender may take a reinforcement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reinforcement {
    /// In its maneuver phase of round `reinforcement_maneuver` (Law of the
    /// Battlelands 28.B).
    Round,
    /// In its maneuver phase after the first strike phase in which one of
    /// the attacker's characters was slain, then or never (Law of Titan
    /// 1980, 13.A-B).
    AfterFirstSlain,
}

/// A battle of one player (the challenger, who fights as the attacker)
/// against every other player (`rules.battle.showdown`), on the battleland
/// of `terrain`: the Law of Titan 1980's Reckoning (19) as a variant says
/// it. The challenger brings all his legions; each other player, ranked by
/// score (the highest first), brings one legion at a time as a team of the
/// defending side, committing another when it is gone. Nobody scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Showdown {
    /// The terrain whose battleland is fought on (it need not be on the
    /// masterboard).
    pub terrain: String,
    /// Board zones `<attacker_zones>-1`, `-2`, ...: with `n` opponents the
    /// challenger's characters are committed to the zones numbered up to
    /// `n` (19.E).
    #[serde(default = "attacker_zones")]
    pub attacker_zones: String,
    /// Board zones `<defender_zones>-1`, `-2`, ...: the opponent of rank
    /// `k` commits to zone `k` (19.E: the highest score the rightmost).
    /// Numbered zones past the opponents' number are forbidden.
    #[serde(default = "defender_zones")]
    pub defender_zones: String,
    /// Each team strikes from right to left along its line (19.F), and the
    /// opponents' teams act from the rightmost.
    #[serde(default = "yes")]
    pub right_to_left: bool,
}

fn attacker_zones() -> String {
    "attacker".to_string()
}

fn defender_zones() -> String {
    "defender".to_string()
}

fn yes() -> bool {
    true
}
