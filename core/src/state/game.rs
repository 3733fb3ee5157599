//! The masterboard's position as masterplay keeps it and scripts read it:
//! the players, their legions, the caretaker's counters, the turn and phase.

use serde::{Deserialize, Serialize};

use crate::ids::{CharacterId, LandId, Marker, PlayerId};

/// A player and what the player has.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub score: u32,
    pub alive: bool,
    /// The tower the player started in.
    pub tower: Option<LandId>,
    /// Markers not on the board, ready for splits.
    pub markers: Vec<Marker>,
    /// Turns this player has begun.
    pub turns: u32,
}

/// A legion on the masterboard.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Legion {
    pub marker: Marker,
    /// Usually the marker's player; a slayer of a Titan takes its markers.
    pub owner: PlayerId,
    pub land: LandId,
    /// Sorted.
    pub characters: Vec<CharacterId>,
    /// Moved (or teleported) this turn.
    pub moved: bool,
    /// The land it entered its present land from this turn.
    pub entered_from: Option<LandId>,
    /// How many lands it moved this turn (none after a teleport): what
    /// `rules.movement.muster_distances` asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u8>,
    /// Mustered (or reinforced) in this Game-Turn, which is one player's
    /// turn (Law of Titan 1982 6.0): one muster per legion per Game-Turn.
    pub mustered: bool,
    /// Split off this turn from this legion (they must part, or recombine).
    pub split_from: Option<Marker>,
    /// Characters every player has been shown (sorted).
    pub revealed: Vec<CharacterId>,
    /// Players (bit per seat) who have seen all of it since it last changed.
    pub seen_by: u64,
    /// A tower legion (`rules.start.stationed`): it never moves or splits,
    /// and stays on its tower until slain (Gods of Titan 5.6, 25.7).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stationed: bool,
}

impl Legion {
    pub fn owner(&self) -> PlayerId {
        self.owner
    }

    pub fn height(&self) -> usize {
        self.characters.len()
    }

    pub fn count(&self, c: CharacterId) -> usize {
        self.characters.iter().filter(|&&x| x == c).count()
    }
}

/// Where the game is in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Players divide their starting characters into legions, in turn order.
    InitialSplit,
    /// Commencement: the mover may split legions.
    Split,
    /// The mover rolls and moves.
    Move,
    /// The mover picks engagements to resolve.
    Engage,
    /// The mover's legions that moved may muster.
    Muster,
    /// The game is over.
    Over,
}

/// An engagement being resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engagement {
    pub land: LandId,
    pub attacker: Marker,
    pub defender: Marker,
    pub step: EngagementStep,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngagementStep {
    /// The defender may flee (if it has no lord) or stand.
    DefenderChoice,
    /// Either side may concede, propose an agreement, or fight.
    Negotiate { proposal: Option<Proposal> },
    /// The battle is being fought by the battle engine.
    Battle,
    /// The winner's legion may summon, acquire and reinforce.
    After(After),
}

/// A proposed agreement: who loses what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    pub by: PlayerId,
    pub attacker_losses: Vec<CharacterId>,
    pub defender_losses: Vec<CharacterId>,
}

/// What the winner of an engagement may still do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct After {
    pub winner: Marker,
    /// The attacker may summon a character from another legion.
    pub summon: bool,
    /// Score thresholds passed, each worth an acquisition.
    pub acquisitions: Vec<u32>,
    /// The defender may muster a reinforcement.
    pub reinforce: bool,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Winner(PlayerId),
    /// The last players died together, or tied at the point limit.
    Draw(Vec<PlayerId>),
}

/// The whole state of a game: serializable, comparable, hashable.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub players: Vec<Player>,
    /// Sorted by marker.
    pub legions: Vec<Legion>,
    /// Counters the caretaker has, by character.
    pub caretaker: Vec<u32>,
    /// Game turn: every player's turn once per game turn.
    pub turn: u32,
    pub active: PlayerId,
    pub phase: Phase,
    pub roll: Option<u8>,
    pub mulligan_used: bool,
    pub teleports: u8,
    /// A character was summoned this engagement phase (one per phase:
    /// reference sheet, "Summon Angel").
    #[serde(default)]
    pub summoned: bool,
    pub engagement: Option<Engagement>,
    pub outcome: Option<Outcome>,
    pub rng_seed: u64,
    /// Words drawn from the generator (with the seed, restores it).
    pub rng_pos: u64,
    /// The variables of the variant's scripts (values other than defaults).
    #[serde(default, skip_serializing_if = "crate::vars::Vars::is_empty")]
    pub vars: crate::vars::Vars,
    /// A further choice the active player must make before anything else:
    /// the variant action a script's `ctx:choose` named, offered with its
    /// `legal` choices (none left: the choice lapses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<String>,
    /// A battle of one player against all the others being fought
    /// (`rules.battle.showdown`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub showdown: Option<Showdown>,
    /// The battleland each terrain drew at the start of the game among its
    /// alternatives, by terrain (0: the first); empty in a variant with
    /// one battleland per terrain (`Variant::with_drawn`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battlelands: Vec<u8>,
    /// The characters the player whose turn it is has mustered this turn,
    /// for `rules.legions.muster_per_turn` (kept only in a variant with
    /// such a limit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mustered: Vec<CharacterId>,
    /// The mover's legions that have challenged on a shared land this
    /// engagement phase (one engagement each: Gods of Titan 10.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub challenged: Vec<Marker>,
}

/// A battle of one player against all the others (`rules.battle.showdown`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Showdown {
    /// Who fights as the attacker, with all his legions.
    pub challenger: PlayerId,
    /// The others, ranked by score when it began (the highest first; seat
    /// order among equals): the defending side's teams 1, 2, ...
    pub opponents: Vec<PlayerId>,
    /// The legion each opponent fights with now; `None`: he must commit one.
    pub committed: Vec<Option<Marker>>,
    /// The legion of each unit of the battle, by unit id.
    pub unit_legions: Vec<Marker>,
    /// The team whose strike slew the challenger's Titan, once one has.
    pub titan_slayer: Option<u8>,
}
