//! A battle as an engaged player may know it, for computer players: the
//! battleland is open to both sides, but the dice to come and (for the
//! defender) the attacker's other legions are not.

use super::*;

impl BattleSnapshot {
    /// This battle as `side` may know it: the dice generator replaced by one
    /// started from `seed` (a player must not foresee the rolls), fixed dice
    /// dropped, and for the defender the attacker's summonable characters
    /// removed (they tell what the attacker's other legions hold).
    pub fn as_seen_by(&self, side: BattleSide, seed: u64) -> BattleSnapshot {
        let mut seen = self.clone();
        seen.rng = GameRng::new(seed);
        seen.state.fixed_dice.clear();
        if side == BattleSide::Defender {
            seen.setup.summonable.clear();
        }
        seen
    }

    /// The setup the battle began from.
    pub fn setup(&self) -> &BattleSetup {
        &self.setup
    }
}

impl Battle<'_> {
    /// The strike number and dice of a strike by `unit` at `target` where
    /// both stand now, and whether they are in contact; for players'
    /// searches (cheaper than [`Battle::strike_report`]: no carries).
    pub fn strike_odds(&self, unit: UnitId, target: UnitId) -> Option<(u8, u8, bool)> {
        let s = &self.state;
        let t = s.units.get(target as usize)?;
        // A rider strikes from its mount's hex.
        let (from, to) = (s.place(unit as usize)?, t.hex()?);
        let contact = self.contact_at(s, from) & bit(to) != 0;
        let p = self.strike_params(s, unit, target, false).ok()?;
        Some((p.strike_number, p.dice, contact))
    }

    /// The strike number and dice of a rangestrike by `unit` at `target`,
    /// when the rules allow one now (sight, range, magic, immunity).
    pub fn rangestrike_odds(&self, unit: UnitId, target: UnitId) -> Option<(u8, u8)> {
        let s = &self.state;
        if !self.may_see(s, unit, target, occupied_set(s)) {
            return None;
        }
        let (p, _) = self.rangestrike_eval(s, unit, target).ok()?;
        Some((p.strike_number, p.dice))
    }
}
