//! What scripts changed about single units (`ctx:change_side`,
//! `ctx:add_unit`, `ctx:set_unit`): kept beside the units, empty in a
//! battle no script touched, and read by movement, strikes and the result.

use crate::model::HazardSet;

use super::*;

pub use crate::state::extra::{UnitExtra, UnitField};

impl State {
    /// The script changes of unit `i` (none for most).
    pub(super) fn extra(&self, i: usize) -> UnitExtra {
        self.extra.get(i).copied().unwrap_or_default()
    }

    /// The changes of unit `i`, to change.
    pub(super) fn extra_mut(&mut self, i: usize) -> &mut UnitExtra {
        if self.extra.len() < self.units.len() {
            self.extra.resize(self.units.len(), UnitExtra::default());
        }
        &mut self.extra[i]
    }

    /// Unit `i` fights for the other side but belongs to its own legion
    /// (`bound`): not the legion of the side it fights for.
    pub(super) fn bound_away(&self, i: usize) -> bool {
        let e = self.extra(i);
        e.changed_side && e.bound && e.added.is_none()
    }

    /// The side whose legion unit `i` belongs to (where it came from).
    pub(super) fn origin(&self, i: usize) -> BattleSide {
        let u = &self.units[i];
        if self.extra(i).changed_side {
            u.side.other()
        } else {
            u.side
        }
    }
}

impl<'v> Battle<'v> {
    /// A unit's skill, flight and natives as the rules read them now.
    pub(super) fn skill_of(&self, s: &State, i: usize) -> u8 {
        let c = self.variant.character(s.units[i].character);
        s.extra(i).skill.unwrap_or(c.skill)
    }
    pub(super) fn flies_of(&self, s: &State, i: usize) -> bool {
        let c = self.variant.character(s.units[i].character);
        s.extra(i).flies.unwrap_or(c.flies)
    }
    pub(super) fn natives_of(&self, s: &State, i: usize) -> HazardSet {
        let c = self.variant.character(s.units[i].character);
        s.extra(i).natives.unwrap_or(c.natives)
    }

    /// Unit `i`'s movement points: its skill unless a script gave it an
    /// allowance apart (`ctx:set_unit(unit, "movement", n)`).
    pub(super) fn movement_of(&self, s: &State, i: usize) -> u8 {
        s.extra(i).movement.unwrap_or_else(|| self.skill_of(s, i))
    }

    /// Calls `f` with the movement table unit `i` walks by (its natives').
    pub(super) fn with_moves<T>(
        &self,
        s: &State,
        i: usize,
        f: impl FnOnce(&tables::MoveTable) -> T,
    ) -> T {
        let (land, tables) = (self.land_in(s), self.tables_in(s));
        let natives = self.natives_of(s, i);
        match self.variant.battle_tables.class_of(natives) {
            Some(class) => f(&tables.moves[class]),
            // Natives no character of the variant has: their table now.
            None => f(&tables::MoveTable::new(&self.variant, land, natives)),
        }
    }

    /// Every hex unit `i` may reach from `from`: the shared tables unless a
    /// script changed its skill, movement, flight or natives.
    pub(super) fn unit_reach(&self, s: &State, i: usize, from: From, occupied: HexSet) -> HexSet {
        let e = s.extra(i);
        let u = &s.units[i];
        if e.may_move == Some(false) {
            return 0;
        }
        let (land, tables) = (self.land_in(s), self.tables_in(s));
        if e.skill.is_none()
            && e.flies.is_none()
            && e.natives.is_none()
            && e.movement.is_none()
            && e.max_steps.is_none()
        {
            return geometry::reach_set_in(
                &self.variant,
                land,
                tables,
                u.character,
                from,
                occupied,
            );
        }
        let (points, flies) = (self.movement_of(s, i), self.flies_of(s, i));
        self.with_moves(s, i, |moves| match e.max_steps {
            Some(cap) => {
                geometry::reach_set_capped(land, moves, points, flies, from, occupied, cap)
            }
            None => geometry::reach_set_with(land, moves, points, flies, from, occupied),
        })
    }

    /// The fewest hexes unit `i`'s move from `from` to `to` entered
    /// (`geometry::steps_to`), `occupied` as before the move.
    pub(super) fn unit_steps(
        &self,
        s: &State,
        i: usize,
        from: From,
        occupied: HexSet,
        to: HexId,
    ) -> u32 {
        let (points, flies) = (self.movement_of(s, i), self.flies_of(s, i));
        let land = self.land_in(s);
        self.with_moves(s, i, |moves| {
            geometry::steps_to(land, moves, points, flies, from, occupied, to)
        })
    }
}
