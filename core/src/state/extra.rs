//! What scripts changed about single units (`ctx:change_side`,
//! `ctx:add_unit`, `ctx:set_unit`): kept beside the units, empty in a
//! battle no script touched, and read by movement, strikes and the result.

use crate::battleland::hexset::HexSet;
use crate::model::HazardSet;

/// One unit's script changes; the defaults change nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnitExtra {
    /// Fights for the other side than its legion's.
    pub changed_side: bool,
    /// Put on the battleland by a script: `Some(true)` a temporary unit
    /// (gone at the battle's end, no points), `Some(false)` from the
    /// caretaker.
    pub added: Option<bool>,
    pub flies: Option<bool>,
    pub natives: Option<HazardSet>,
    pub skill: Option<u8>,
    /// `Some(false)`: may not move.
    pub may_move: Option<bool>,
    /// `Some(false)`: may not strike or rangestrike.
    pub may_strike: Option<bool>,
    /// A script set its strikes of this strike phase (`strikes`): a strike
    /// spends one of them, not all (cleared when a strike phase begins).
    pub strikes_set: bool,
    /// Other hexes its rangestrikes of this strike phase may begin from,
    /// when unoccupied (`rangestrike_from`; cleared when a strike phase
    /// begins); 0: none.
    pub origins: HexSet,
    /// Movement points apart from the skill (which stays its strike skill).
    pub movement: Option<u8>,
    /// At most this many hexes entered in a move, whatever the points.
    pub max_steps: Option<u8>,
    /// While it fights for the other side (`changed_side`), it still
    /// belongs to its own legion: a concession or a time loss of the side
    /// it fights for spares it, and at the battle's end it goes back to its
    /// own legion, or is slain if the side it fights for has won.
    pub bound: bool,
    /// Never held by contact: may move away although in contact at the
    /// start of its maneuver phase (`locked = false`).
    pub never_locked: bool,
}

/// A field of `ctx:set_unit`, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitField {
    Flies(bool),
    Natives(HazardSet),
    Power(u8),
    Skill(u8),
    MayMove(bool),
    MayStrike(bool),
    /// Strikes (and rangestrikes) left in the current strike phase.
    Strikes(u8),
    /// Other hexes its rangestrikes may begin from.
    RangestrikeFrom(HexSet),
    Movement(u8),
    MaxSteps(u8),
    Bound(bool),
    /// `false`: never held by contact (may move away); `true`: the usual rule.
    Locked(bool),
}

impl UnitExtra {
    pub fn set(&mut self, f: UnitField) {
        match f {
            UnitField::Flies(b) => self.flies = Some(b),
            UnitField::Natives(n) => self.natives = Some(n),
            UnitField::Skill(n) => self.skill = Some(n),
            UnitField::MayMove(b) => self.may_move = Some(b),
            UnitField::MayStrike(b) => self.may_strike = Some(b),
            UnitField::Strikes(_) => self.strikes_set = true,
            UnitField::RangestrikeFrom(h) => self.origins = h,
            UnitField::Movement(n) => self.movement = Some(n),
            UnitField::MaxSteps(n) => self.max_steps = Some(n),
            UnitField::Bound(b) => self.bound = b,
            UnitField::Locked(b) => self.never_locked = !b,
            // Power is the unit's own field.
            UnitField::Power(_) => {}
        }
    }
}
