//! Strike numbers and dice: the strike chart, hazard effects from the data
//! and character ability hooks (Lua).

use crate::battleland::{Battleland, HexId};
use crate::format::{At, Who};
use crate::model::{CharacterId, Effect, HazardId, RangeStrength, Variant};

/// What a strike (or rangestrike) needs and rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct StrikeParams {
    /// The strike number needed (each die at or above it hits).
    pub strike_number: u8,
    pub dice: u8,
    /// Skill and dice gained from hazard bonuses (positive changes only):
    /// carry-over goes only to targets the same bonuses apply to.
    pub bonus_skill: i8,
    pub bonus_dice: i8,
}

/// One side of a strike: who, with which power, where.
#[derive(Debug, Clone, Copy)]
pub struct Fighter {
    pub character: CharacterId,
    pub power: u8,
    pub hex: HexId,
}

/// A fighter's skill and natives as the rules read them: its character's,
/// unless a script changed them (`ctx:set_unit`).
#[derive(Debug, Clone, Copy)]
pub struct Traits {
    pub skill: u8,
    pub natives: crate::model::HazardSet,
}

impl Traits {
    /// The character's own.
    pub fn of(variant: &Variant, c: CharacterId) -> Traits {
        let ch = variant.character(c);
        Traits {
            skill: ch.skill,
            natives: ch.natives,
        }
    }
}

fn who(w: Who, native: bool) -> bool {
    match w {
        Who::Anyone => true,
        Who::Natives => native,
        Who::Others => !native,
    }
}

/// Skill and dice changes of one effect list, for a strike between `s` and `t`.
struct Changes {
    skill: i8,
    dice: i8,
    bonus_skill: i8,
    bonus_dice: i8,
}

impl Changes {
    const NONE: Changes = Changes {
        skill: 0,
        dice: 0,
        bonus_skill: 0,
        bonus_dice: 0,
    };

    fn add(&mut self, skill: i8, dice: i8, forgo: bool) {
        // A player may forgo hazard bonuses to keep carry-over open
        // (reference sheet, "Strike Phase").
        if forgo && (skill > 0 || dice > 0) {
            return;
        }
        self.skill += skill;
        self.dice += dice;
        self.bonus_skill += skill.max(0);
        self.bonus_dice += dice.max(0);
    }
}

/// The hazard effects that apply to a strike (`ranged`: a rangestrike, whose
/// `StrikingDown`/`StrikingUp` look at the first and last hexside crossed).
#[allow(clippy::too_many_arguments)]
fn hazard_changes(
    variant: &Variant,
    land: &Battleland,
    (s, st): (Fighter, Traits),
    (t, tt): (Fighter, Traits),
    ranged: bool,
    path: &[HexId],
    forgo: bool,
) -> Changes {
    let mut ch = Changes::NONE;
    let native = |f: &Traits, h: HazardId| f.natives.contains(h);
    let mut apply = |hazard: HazardId, place: At| {
        for e in &variant.hazard(hazard).effects {
            let (at, sw, tw, skill, dice) = match (e, ranged) {
                (
                    Effect::Strike {
                        at,
                        striker,
                        target,
                        skill,
                        dice,
                    },
                    false,
                )
                | (
                    Effect::Rangestrike {
                        at,
                        striker,
                        target,
                        skill,
                        dice,
                    },
                    true,
                ) => (*at, *striker, *target, *skill, *dice),
                _ => continue,
            };
            if at == place && who(sw, native(&st, hazard)) && who(tw, native(&tt, hazard)) {
                ch.add(skill, dice, forgo);
            }
        }
    };
    apply(land.hex(s.hex).hazard, At::StrikerIn);
    apply(land.hex(t.hex).hazard, At::TargetIn);
    // The hexside the strike leaves by, and the one it arrives by.
    let first = if ranged {
        path.get(1).copied()
    } else {
        Some(t.hex)
    };
    if let Some(next) = first
        && let Some(side) = land.board.side_between(s.hex, next)
        && let Some(hs) = land.hexside(s.hex, side)
    {
        apply(
            hs.hazard,
            if hs.top {
                At::StrikingDown
            } else {
                At::StrikingUp
            },
        );
    }
    if ranged
        && path.len() >= 3
        && let Some(side) = land.board.side_between(t.hex, path[path.len() - 2])
        && let Some(hs) = land.hexside(t.hex, side)
        && hs.top
    {
        // The target stands atop the hexside the strike climbs.
        apply(hs.hazard, At::StrikingUp);
    }
    if ranged {
        for &h in &path[1..path.len().saturating_sub(1)] {
            let hz = land.hex(h).hazard;
            for e in &variant.hazard(hz).effects {
                if let Effect::RangestrikeThrough { striker, skill } = e
                    && who(*striker, native(&st, hz))
                {
                    ch.add(*skill, 0, forgo);
                }
            }
        }
        // Hexside hazards count each crossing going up, onto the top side.
        for pair in path.windows(2) {
            let Some(side) = land.board.side_between(pair[0], pair[1]) else {
                continue;
            };
            let Some(hs) = land.hexside(pair[0], side).filter(|hs| !hs.top) else {
                continue;
            };
            for e in &variant.hazard(hs.hazard).effects {
                if let Effect::RangestrikeThrough { striker, skill } = e
                    && who(*striker, native(&st, hs.hazard))
                {
                    ch.add(*skill, 0, forgo);
                }
            }
        }
    }
    ch
}

/// A normal strike of `s` at `t` (in contact).
pub fn strike(
    variant: &Variant,
    land: &Battleland,
    s: Fighter,
    t: Fighter,
    forgo: bool,
) -> StrikeParams {
    let (st, tt) = (
        Traits::of(variant, s.character),
        Traits::of(variant, t.character),
    );
    strike_as(variant, land, (s, st), (t, tt), forgo)
}

/// [`strike`] with the fighters' traits given.
pub fn strike_as(
    variant: &Variant,
    land: &Battleland,
    (s, st): (Fighter, Traits),
    (t, tt): (Fighter, Traits),
    forgo: bool,
) -> StrikeParams {
    let ch = hazard_changes(variant, land, (s, st), (t, tt), false, &[], forgo);
    strike_from(variant, s.power, (st, tt), &ch)
}

/// [`strike_as`] with the hazard effects that may apply given, those a
/// battleland's tables keep for the two hexes
/// ([`super::tables::LandTables::strike_fx`]): the hazards are not read.
#[inline]
pub(super) fn strike_by(
    variant: &Variant,
    (s, st): (Fighter, Traits),
    tt: Traits,
    fx: &[super::tables::StrikeFx],
    forgo: bool,
) -> StrikeParams {
    let mut ch = Changes::NONE;
    for e in fx {
        if who(e.striker, st.natives.contains(e.hazard))
            && who(e.target, tt.natives.contains(e.hazard))
        {
            ch.add(e.skill, e.dice, forgo);
        }
    }
    strike_from(variant, s.power, (st, tt), &ch)
}

/// A strike's parameters from the hazards' changes.
fn strike_from(
    variant: &Variant,
    power: u8,
    (st, tt): (Traits, Traits),
    ch: &Changes,
) -> StrikeParams {
    let chart = &variant.rules.strike_chart;
    StrikeParams {
        strike_number: chart.strike_number(
            i32::from(st.skill) + i32::from(ch.skill),
            i32::from(tt.skill),
        ),
        dice: (i32::from(power) + i32::from(ch.dice)).max(0) as u8,
        bonus_skill: ch.bonus_skill,
        bonus_dice: ch.bonus_dice,
    }
}

/// The dice of a rangestrike before hazards, from the variant's range
/// strength rule; `None` when the strength is a Lua hook (the caller asks it).
pub fn range_strength(strength: RangeStrength, power: u8) -> Option<u8> {
    match strength {
        RangeStrength::HalfPower => Some(power / 2),
        RangeStrength::Power => Some(power),
        RangeStrength::Fixed(n) => Some(n),
        RangeStrength::Hook(_) => None,
    }
}

/// A rangestrike of `s` at `t` along `path` (both ends included) with
/// `strength` dice before hazards. Magic rangestrikes ignore hazards and the
/// long-range penalty (Law of the Battlelands 27.F).
pub fn rangestrike(
    variant: &Variant,
    land: &Battleland,
    s: Fighter,
    t: Fighter,
    path: &[HexId],
    strength: u8,
    magic: bool,
) -> StrikeParams {
    let (st, tt) = (
        Traits::of(variant, s.character),
        Traits::of(variant, t.character),
    );
    rangestrike_as(variant, land, (s, st), (t, tt), path, strength, magic)
}

/// [`rangestrike`] with the fighters' traits given.
pub fn rangestrike_as(
    variant: &Variant,
    land: &Battleland,
    (s, st): (Fighter, Traits),
    (t, tt): (Fighter, Traits),
    path: &[HexId],
    strength: u8,
    magic: bool,
) -> StrikeParams {
    rangestrike_with(
        variant,
        land,
        (s, st),
        (t, tt),
        path,
        strength,
        magic,
        false,
    )
}

/// [`rangestrike_as`], told whether no hazard of the line's hexes or their
/// hexsides changes a rangestrike (`calm`: the hazards are not read).
#[allow(clippy::too_many_arguments)]
pub(super) fn rangestrike_with(
    variant: &Variant,
    land: &Battleland,
    (s, st): (Fighter, Traits),
    (t, tt): (Fighter, Traits),
    path: &[HexId],
    strength: u8,
    magic: bool,
    calm: bool,
) -> StrikeParams {
    let rules = &variant.rules.battle;
    let range = path.len() as u8;
    let (mut skill, mut dice) = (0i32, 0i32);
    if !magic {
        if !calm {
            let ch = hazard_changes(variant, land, (s, st), (t, tt), true, path, false);
            skill += i32::from(ch.skill);
            dice += i32::from(ch.dice);
        }
        if range >= rules.long_range {
            // Law of the Battlelands 27.C: a distance of four loses a factor.
            skill += i32::from(rules.long_range_skill);
        }
    }
    let chart = &variant.rules.strike_chart;
    StrikeParams {
        strike_number: chart.strike_number(i32::from(st.skill) + skill, i32::from(tt.skill)),
        dice: (i32::from(strength) + dice).max(0) as u8,
        bonus_skill: 0,
        bonus_dice: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_strength_follows_the_rule() {
        assert_eq!(range_strength(RangeStrength::HalfPower, 9), Some(4));
        assert_eq!(range_strength(RangeStrength::Power, 9), Some(9));
        assert_eq!(range_strength(RangeStrength::Fixed(2), 9), Some(2));
        assert_eq!(
            range_strength(RangeStrength::Hook(crate::model::HookId(0)), 9),
            None
        );
    }
}
