//! Hexes whose hazard a script changed (`ctx:set_hazard`): the battle's own
//! copy of its battleland and of the tables computed from it, so that
//! movement, strikes, line of sight and hazard damage read the changed hex
//! while a battle without changes keeps reading the variant's shared tables.

use std::rc::Rc;

use crate::battleland::{Battleland, HexId};
use crate::model::{HazardId, Variant};

use super::tables::LandTables;

/// One hex's changed hazard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HazardChange {
    pub hex: HexId,
    pub hazard: HazardId,
    /// The battle round (defender's maneuver number) at whose start the
    /// change ends; `None`: the rest of the battle.
    pub until: Option<u8>,
}

/// The changes in force, and the battleland and tables they make.
pub struct Overlay {
    pub changes: Vec<HazardChange>,
    pub land: Battleland,
    pub tables: LandTables,
}

/// The changes are what the state holds; the rest is derived from them.
impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.changes.fmt(f)
    }
}

impl Overlay {
    /// The overlay of `changes` (at most one per hex, the latest kept) over
    /// `base`; `None` when there are none.
    pub fn build(
        variant: &Variant,
        base: &Battleland,
        changes: Vec<HazardChange>,
    ) -> Option<Rc<Overlay>> {
        if changes.is_empty() {
            return None;
        }
        let mut land = base.clone();
        for c in &changes {
            land.hexes[c.hex.0 as usize].hazard = c.hazard;
        }
        let tables = variant.battle_tables.for_land(variant, &land);
        Some(Rc::new(Overlay {
            changes,
            land,
            tables,
        }))
    }

    /// `changes` with `change` applied: it replaces an earlier change of
    /// the same hex, and a change back to the battleland's own hazard for
    /// the rest of the battle is dropped.
    pub fn with(
        base: &Battleland,
        changes: &[HazardChange],
        change: HazardChange,
    ) -> Vec<HazardChange> {
        let mut out: Vec<HazardChange> = changes
            .iter()
            .copied()
            .filter(|c| c.hex != change.hex)
            .collect();
        if !(change.until.is_none() && base.hex(change.hex).hazard == change.hazard) {
            out.push(change);
        }
        out
    }
}
