//! A battle's characters as the engine keeps them and scripts read them:
//! where each one is, its side, its hits.

use crate::battleland::HexId;
use crate::battleland::hexset::HexSet;
use crate::ids::{BattleSide, CharacterId, UnitId};

/// Where a character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// Not yet brought onto the battleland.
    Waiting,
    OnBoard(#[serde(serialize_with = "ser_hex")] HexId),
    /// Carried by another unit (its mount, by id) on the mount's hex
    /// (`ctx:mount`): not in the hex's occupancy, moved with its mount, not
    /// a target; set down on that hex when the mount leaves the battle.
    Riding(UnitId),
    /// Out of the battle.
    Gone(Fate),
}

fn ser_hex<S: serde::Serializer>(h: &HexId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&h.label())
}

/// How a character left the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Fate {
    Slain,
    /// Not brought on in its side's first maneuver (Law of the Battlelands 25.D).
    NotEntered,
    /// Removed unscored (time loss; a slain Titan's legion).
    Removed,
    /// Taken out of the battle alive, back to its legion (`ctx:withdraw`):
    /// no target and not counted for its side; it may come back
    /// (`ctx:rejoin`). At the end it is in its legion if its side won, and
    /// goes with its legion (removed, unscored) if not.
    Withdrawn,
}

/// One character of the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub character: CharacterId,
    pub side: BattleSide,
    pub power: u8,
    pub status: Status,
    pub damage: u8,
    /// Moved this maneuver phase.
    pub moved: bool,
    /// In contact at the start of this maneuver phase: may not move.
    pub locked: bool,
    /// Strikes (or rangestrikes) left this strike phase.
    pub strikes_left: u8,
}

impl Unit {
    /// A character of `side` waiting to enter, at `power`.
    pub fn waiting(character: CharacterId, side: BattleSide, power: u8) -> Unit {
        Unit {
            character,
            side,
            power,
            status: Status::Waiting,
            damage: 0,
            moved: false,
            locked: false,
            strikes_left: 0,
        }
    }

    pub fn hex(&self) -> Option<HexId> {
        match self.status {
            Status::OnBoard(h) => Some(h),
            _ => None,
        }
    }
    /// The bit of its hex ([`bit`](crate::battleland::hexset::bit)), 0 off the battleland or
    /// carried: worked out without a branch, for the scans of every unit
    /// that each decision makes.
    #[inline]
    pub(crate) fn hex_bit(&self) -> HexSet {
        let (on, h) = self.hex_parts();
        HexSet::from(on) << h
    }
    /// Whether it stands on a hex of its own, and that hex's index (0 when
    /// not), without a branch: every variant's payload is one byte at the
    /// same place, so reading it for all of them compiles to a load and a
    /// select rather than a guessed branch.
    #[inline]
    pub(crate) fn hex_parts(&self) -> (bool, u8) {
        let h = match self.status {
            Status::OnBoard(h) => h.0,
            Status::Riding(m) => m,
            Status::Gone(f) => f as u8,
            Status::Waiting => 0,
        };
        let on = matches!(self.status, Status::OnBoard(_));
        (on, h & u8::from(on).wrapping_neg())
    }
    /// Hits at least its power: slain, leaving at the end of the strike phase.
    pub fn is_slain(&self) -> bool {
        self.damage >= self.power
    }
    pub(crate) fn alive(&self) -> bool {
        matches!(
            self.status,
            Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
        ) && !self.is_slain()
    }
    /// On the battleland: on a hex of its own or carried.
    pub fn on_field(&self) -> bool {
        matches!(self.status, Status::OnBoard(_) | Status::Riding(_))
    }
}

/// The hex of `units[i]`: its own, or its mount's while carried.
pub(crate) fn place_of(units: &[Unit], i: usize) -> Option<HexId> {
    match units.get(i)?.status {
        Status::OnBoard(h) => Some(h),
        Status::Riding(m) => units.get(m as usize).and_then(Unit::hex),
        _ => None,
    }
}

/// The unit `mount` carries, if any.
pub(crate) fn rider_of(units: &[Unit], mount: usize) -> Option<usize> {
    units
        .iter()
        .position(|u| u.status == Status::Riding(mount as UnitId))
}
