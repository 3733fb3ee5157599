//! What things are worth to a computer player, from the variant's data
//! alone: characters and legions, exact strike outcome distributions, and the
//! engagement estimator (the chance an attacker wins a battle).

use crate::model::{CharacterId, TerrainId, Variant};

/// A character's fighting worth: power times skill (the expected hits it
/// deals and can take grow with both), more for a rangestriker and a flier;
/// the Titan's by its power this game. Never 0 for a character with power.
pub fn worth(variant: &Variant, c: CharacterId, power: u8) -> f64 {
    let ch = variant.character(c);
    let mut w = f64::from(power.max(1)) * f64::from(ch.skill.max(1));
    if ch.rangestrike.is_some() {
        w *= 1.25;
    }
    if ch.flies {
        w *= 1.1;
    }
    w
}

/// The base worth of a character (at its printed power).
pub fn base_worth(variant: &Variant, c: CharacterId) -> f64 {
    worth(variant, c, variant.character(c).power)
}

/// Whether `c` is native to any hazard of `terrain`'s battleland (its
/// fights there go better: Law of the Battlelands, hazards).
pub fn native_to(variant: &Variant, c: CharacterId, terrain: TerrainId) -> bool {
    let land = variant.battleland(terrain);
    let ch = variant.character(c);
    land.board.ids().any(|h| {
        let hex = land.hex(h);
        ch.natives.contains(hex.hazard)
            || hex
                .sides
                .iter()
                .flatten()
                .any(|s| ch.natives.contains(s.hazard))
    })
}

/// A legion's battle strength on `terrain`: the sum of its characters'
/// worths, natives counted a fifth higher.
pub fn strength(
    variant: &Variant,
    legion: &[(CharacterId, u8)],
    terrain: Option<TerrainId>,
) -> f64 {
    legion
        .iter()
        .map(|&(c, p)| {
            let native = terrain.is_some_and(|t| native_to(variant, c, t));
            worth(variant, c, p) * if native { 1.2 } else { 1.0 }
        })
        .sum()
}

/// The engagement estimator's fit: the chance the attacker wins is the
/// logistic function of `SLOPE` times the log of the strength ratio plus
/// `SHIFT`. Fitted by [`super::odds::calibrate`] (random legions of 1 to 7
/// on random battlelands, `simple` against `simple`, seed 0): every battle
/// entered by the first attacker side, 10,000 battles: slope 7.05, shift
/// 0.19 (3,000: 6.84, 0.17); each battle by a side drawn among the attacker
/// sides, as in games, 3,000 battles: 6.67, 0.06. The slope is kept at 7.0
/// (strong's board play was tuned on it); see docs/ai.md.
pub const SLOPE: f64 = 7.0;
pub const SHIFT: f64 = 0.06;

/// The chance an attacker of strength `a` beats a defender of strength `d`.
pub fn win_chance(a: f64, d: f64) -> f64 {
    win_chance_with(a, d, SLOPE, SHIFT)
}

pub fn win_chance_with(a: f64, d: f64, slope: f64, shift: f64) -> f64 {
    if d <= 0.0 {
        return 1.0;
    }
    if a <= 0.0 {
        return 0.0;
    }
    let x = slope * (a / d).ln() + shift;
    1.0 / (1.0 + (-x).exp())
}

/// Fits `(slope, shift)` of the estimator to observed battles: each is the
/// log strength ratio and whether the attacker won. Logistic regression by
/// Newton's method (a few iterations suffice for two parameters).
pub fn fit(samples: &[(f64, bool)]) -> (f64, f64) {
    let (mut a, mut b) = (1.0f64, 0.0f64);
    for _ in 0..50 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 1e-6, 0.0, 1e-6);
        for &(x, y) in samples {
            let p = 1.0 / (1.0 + (-(a * x + b)).exp());
            let e = f64::from(u8::from(y)) - p;
            ga += e * x;
            gb += e;
            let w = p * (1.0 - p);
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        let da = (hbb * ga - hab * gb) / det;
        let db = (haa * gb - hab * ga) / det;
        a += da;
        b += db;
        if da.abs() + db.abs() < 1e-9 {
            break;
        }
    }
    (a, b)
}

/// The chance of a hit with one die at `strike_number` on a six-sided die.
pub fn hit_chance(strike_number: u8) -> f64 {
    (f64::from(7u8.saturating_sub(strike_number.clamp(1, 7)))) / 6.0
}

/// The exact distribution of hits: `dist[k]` is the chance of exactly `k`
/// hits with `dice` dice at `strike_number` (binomial).
pub fn hits_distribution(dice: u8, strike_number: u8) -> Vec<f64> {
    let p = hit_chance(strike_number);
    let n = usize::from(dice);
    let mut dist = vec![0.0; n + 1];
    dist[0] = 1.0;
    // Dice added one by one: no factorials, exact to rounding.
    for i in 1..=n {
        for k in (0..=i).rev() {
            let stay = dist[k] * (1.0 - p);
            let hit = if k > 0 { dist[k - 1] * p } else { 0.0 };
            dist[k] = stay + hit;
        }
    }
    dist
}

/// The chance of at least `need` hits.
pub fn kill_chance(dice: u8, strike_number: u8, need: u8) -> f64 {
    hits_distribution(dice, strike_number)
        .iter()
        .skip(usize::from(need))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_are_binomial() {
        // 2 dice at 4: P(0) = 1/4, P(1) = 1/2, P(2) = 1/4.
        let d = hits_distribution(2, 4);
        assert!((d[0] - 0.25).abs() < 1e-12 && (d[1] - 0.5).abs() < 1e-12);
        assert!((d[2] - 0.25).abs() < 1e-12);
        // 6 dice at 6: no hit with (5/6)^6.
        let d = hits_distribution(6, 6);
        assert!((d[0] - (5.0f64 / 6.0).powi(6)).abs() < 1e-12);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((kill_chance(3, 1, 3) - 1.0).abs() < 1e-12);
        assert_eq!(kill_chance(3, 5, 4), 0.0);
    }

    #[test]
    fn the_fit_recovers_a_known_curve() {
        let mut samples = Vec::new();
        let mut rng = crate::rng::GameRng::new(5);
        for i in 0..4000 {
            let x = (f64::from(i % 41) - 20.0) / 10.0;
            let p = 1.0 / (1.0 + (-(2.0 * x - 0.5)).exp());
            samples.push((x, rng.unit() < p));
        }
        let (a, b) = fit(&samples);
        assert!((a - 2.0).abs() < 0.3 && (b + 0.5).abs() < 0.2, "{a} {b}");
    }

    #[test]
    fn stronger_attackers_win_more_often() {
        assert!(win_chance(100.0, 50.0) > 0.8);
        assert!(win_chance(50.0, 100.0) < 0.2);
        assert_eq!(win_chance(10.0, 0.0), 1.0);
        assert_eq!(win_chance(0.0, 10.0), 0.0);
    }
}
