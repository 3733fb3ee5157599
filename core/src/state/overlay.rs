//! Hexes whose hazard a script changed (`ctx:set_hazard`) and a battleland a
//! script put in place of the battle's (`ctx:set_battleland`): the battle's
//! own copy of its battleland and of the tables computed from it, so that
//! movement, strikes, line of sight and hazard damage read the changed hexes
//! while a battle without changes keeps reading the variant's shared tables.

use std::rc::Rc;

use crate::battleland::{Battleland, HexId};
use crate::model::{HazardId, TerrainId, Variant};

use crate::model::tables::LandTables;

/// One hex's changed hazard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HazardChange {
    pub hex: HexId,
    pub hazard: HazardId,
    /// The battle round (defender's maneuver number) at whose start the
    /// change ends; `None`: the rest of the battle.
    pub until: Option<u8>,
}

/// Another terrain's battleland in place of the battle's, turned.
pub struct Landscape {
    pub terrain: TerrainId,
    /// Thirds of a full turn ([`crate::battleland::Board::rotated`]).
    pub turns: u8,
    /// That battleland, turned.
    pub land: Battleland,
}

/// The changes in force, and the battleland and tables they make.
pub struct Overlay {
    pub changes: Vec<HazardChange>,
    pub landscape: Option<Rc<Landscape>>,
    pub land: Battleland,
    pub tables: LandTables,
}

/// The changes are what the state holds; the rest is derived from them.
impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.landscape {
            // As before for hazard changes alone (fingerprints).
            None => self.changes.fmt(f),
            Some(l) => f
                .debug_struct("Overlay")
                .field("terrain", &l.terrain)
                .field("turns", &l.turns)
                .field("changes", &self.changes)
                .finish(),
        }
    }
}

impl Overlay {
    /// The landscape in force, if any.
    pub fn landscape_of(overlay: &Option<Rc<Overlay>>) -> Option<Rc<Landscape>> {
        overlay.as_ref().and_then(|o| o.landscape.clone())
    }

    /// The battleland hazard changes apply to: the landscape's, or `base`.
    pub fn base_of<'a>(
        landscape: &'a Option<Rc<Landscape>>,
        base: &'a Battleland,
    ) -> &'a Battleland {
        landscape.as_ref().map_or(base, |l| &l.land)
    }

    /// The overlay of `changes` (at most one per hex, the latest kept) over
    /// the landscape, or `base` when there is none; `None` when there are
    /// neither.
    pub fn build(
        variant: &Variant,
        base: &Battleland,
        landscape: Option<Rc<Landscape>>,
        changes: Vec<HazardChange>,
    ) -> Option<Rc<Overlay>> {
        if changes.is_empty() && landscape.is_none() {
            return None;
        }
        let mut land = Self::base_of(&landscape, base).clone();
        for c in &changes {
            land.hexes[c.hex.0 as usize].hazard = c.hazard;
        }
        let tables = variant.battle_tables.for_land(variant, &land);
        Some(Rc::new(Overlay {
            changes,
            landscape,
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
