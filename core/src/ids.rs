//! The shared vocabulary of every layer: the small ids the compiled variant
//! indexes by, players and their legion markers, the sides of a battle and
//! its units. Nothing here knows a rule; every other module may use it.

use std::fmt;

use petgraph::graph::NodeIndex;
use serde::{Deserialize, Serialize};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident($ty:ty)) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub $ty);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// A terrain: an index into [`Variant::terrains`](crate::model::Variant::terrains).
    TerrainId(u8)
);
id!(
    /// A hazard: an index into [`Variant::hazards`](crate::model::Variant::hazards).
    HazardId(u8)
);
id!(
    /// A character: an index into [`Variant::characters`](crate::model::Variant::characters).
    CharacterId(u16)
);
id!(
    /// A class of characters: an index into [`Variant::classes`](crate::model::Variant::classes).
    ClassId(u8)
);
id!(
    /// A Lua hook: an index into [`Variant::hooks`](crate::model::Variant::hooks).
    HookId(u16)
);

/// A land: a node of the masterboard graph.
pub type LandId = NodeIndex<u32>;

/// A set of hazards, one bit per [`HazardId`] (variants have at most 64).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct HazardSet(pub u64);

impl HazardSet {
    pub fn contains(self, h: HazardId) -> bool {
        self.0 & (1 << h.0) != 0
    }
    pub fn insert(&mut self, h: HazardId) {
        self.0 |= 1 << h.0;
    }
}

/// The most hazards a variant may define (the width of [`HazardSet`]).
pub const MAX_HAZARDS: usize = 64;

/// A player, by seat: 0 is the first player given to [`Game::new`](crate::game::Game::new).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

/// A legion marker: player and number (1 to the markers per player). A legion
/// is known by its marker. Written `"P1-03"` (player 1, marker 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Marker {
    pub player: PlayerId,
    pub number: u8,
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}-{:02}", self.player.0 + 1, self.number)
    }
}

impl std::str::FromStr for Marker {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("{s:?} is no legion marker (like \"P1-03\")");
        let rest = s.strip_prefix('P').ok_or_else(bad)?;
        let (p, n) = rest.split_once('-').ok_or_else(bad)?;
        let p: u8 = p.parse().map_err(|_| bad())?;
        let n: u8 = n.parse().map_err(|_| bad())?;
        if p == 0 || n == 0 {
            return Err(bad());
        }
        let m = Marker {
            player: PlayerId(p - 1),
            number: n,
        };
        // One spelling per marker: "P2-0001" or "P2-1" is not read as P2-01.
        if m.to_string() != s {
            return Err(format!("{s:?} is no legion marker: write it {m}"));
        }
        Ok(m)
    }
}

impl Serialize for Marker {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Marker {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// The two sides of a battle.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum BattleSide {
    Attacker,
    #[default]
    Defender,
}

impl BattleSide {
    pub fn other(self) -> BattleSide {
        match self {
            BattleSide::Attacker => BattleSide::Defender,
            BattleSide::Defender => BattleSide::Attacker,
        }
    }
}

/// A character in the battle, by its index in [`Battle::units`](crate::battle::Battle::units).
pub type UnitId = u8;
