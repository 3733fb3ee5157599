//! The next strike decision's listing, derived from the last one.
//!
//! A random player lists every decision ([`Battle::pick_action`]). In a
//! strike phase without scripts, a strike or rangestrike that leaves no
//! carry-over changes nothing the listing reads but whether its striker may
//! strike again and whether its target still lives: the same hexes
//! occupied (the slain leave only at the phase's end), the same contacts,
//! the same lines of sight. So the next listing is the last one less the
//! striker's runs (once it has no strike left) and the strikes at a target
//! now slain, with `EndStrikes` offered again only when no character in
//! contact is left to strike. A character whose every target was slain is
//! out of contact and may now rangestrike: then the listing is made anew. [`Battle::note_relist`] checks, after such an action, that this
//! holds of the two states unit by unit; [`Battle::relist`] then derives the
//! runs instead of listing. Anything else that changes the state clears the
//! derivation (a new generation, `Battle::state_changed`), so a derived
//! listing is always the one a full listing would give, in the same order.

use super::listing::{PickLists, Run};
use super::*;

/// What the runs [`PickLists`] holds need to become the listing of the
/// state of `generation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Relist {
    pub generation: u64,
    /// This striker's runs go: it has no strike left.
    pub drop: Option<UnitId>,
    /// The runs at this target go: it was slain.
    pub slain: Option<UnitId>,
}

impl Battle<'_> {
    /// After `action` changed `before` into the current state (and the
    /// generation moved on): remembers that the next listing derives from
    /// the runs listed for `before`, when it may. A stale note needs no
    /// clearing: it names the generation it is for.
    #[inline]
    /// `before`: the phase and number of units before, and (for the checks
    /// of debug builds) the state itself when kept.
    pub(super) fn note_relist(
        &self,
        before: (Phase, usize, Option<&State>),
        action: &Action,
        listed_before: u64,
    ) {
        let (before_phase, before_len, before) = before;
        let (i, j) = match *action {
            Action::Strike { unit, target, .. } | Action::Rangestrike { unit, target } => {
                (usize::from(unit), usize::from(target))
            }
            _ => return,
        };
        let s = &*self.state;
        let plain = self.lua.is_none()
            && matches!(s.phase, Phase::Strike { .. })
            && s.phase == before_phase
            && s.carry.is_none()
            && s.result.is_none()
            && s.extra.is_empty()
            && s.overlay.is_none()
            && s.units.len() == before_len
            && j < s.units.len()
            && self.variant.actions.is_empty();
        if !plain {
            return;
        }
        // Without scripts a strike changes only its striker's strikes left
        // and its target's hits (checked in debug builds, which every test
        // runs).
        debug_assert!(
            before.is_none_or(|before| s.units.iter().zip(&before.units).enumerate().all(
                |(k, (now, was))| {
                    let mut was = was.clone();
                    if k == i {
                        was.strikes_left = now.strikes_left;
                    }
                    if k == j {
                        was.damage = now.damage;
                    }
                    *now == was
                }
            )),
            "a plain strike changed more than its striker and target"
        );
        let mut lists = self.pick_lists.borrow_mut();
        if lists.listed != Some(listed_before) {
            return;
        }
        let exhausted = s.units.get(i).is_some_and(|u| u.strikes_left == 0);
        lists.relist = Some(Relist {
            generation: self.generation.get(),
            drop: exhausted.then_some(i as UnitId),
            slain: s.units[j].is_slain().then_some(j as UnitId),
        });
    }

    /// Makes `lists` the listing of the current state from the last one,
    /// when [`Battle::note_relist`] found that it may; false otherwise.
    pub(super) fn relist(&self, lists: &mut PickLists) -> bool {
        let generation = self.generation.get();
        let Some(relist) = lists.relist.take() else {
            return false;
        };
        if relist.generation != generation {
            return false;
        }
        let PickLists { runs, others, .. } = lists;
        // No other action than `EndStrikes`, listed again below.
        if !others.is_empty() {
            return false;
        }
        // The strikers in contact, before and after (unit ids past 64:
        // listed anew).
        let (mut before, mut after) = (0u64, 0u64);
        let mut wide = false;
        runs.retain(|r| match *r {
            Run::Strike(u, t) => {
                wide |= u >= 64;
                before |= 1u64.wrapping_shl(u32::from(u));
                let keep = Some(u) != relist.drop && Some(t) != relist.slain;
                after |= u64::from(keep).wrapping_shl(u32::from(u));
                keep
            }
            Run::Rangestrike(u, t) => Some(u) != relist.drop && Some(t) != relist.slain,
            Run::Moves(..) | Run::EndManeuver | Run::EndStrikes | Run::Other(_) => false,
        });
        let dropped = relist.drop.map_or(0, |u| 1u64.wrapping_shl(u32::from(u)));
        if wide || before & !dropped != after {
            // Some character lost its last target in contact.
            return false;
        }
        let must = runs.iter().any(|r| matches!(r, Run::Strike(..)));
        if !must {
            runs.push(Run::EndStrikes);
            self.ends_freely.set(true);
        }
        lists.listed = Some(generation);
        true
    }
}
