//! Battle odds by simulation: one legion against another on a battleland,
//! fought many times by computer players (`titan odds`, the engagement
//! dialog's odds panel).

use serde::Serialize;

use super::play::play_battle;
use super::{AiError, Budget, check_variant, player_with};
use crate::battle::{BattleSetup, Winner};
use crate::model::Variant;

/// How `n` battles of one setup went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    pub battles: u64,
    pub attacker_wins: u64,
    pub defender_wins: u64,
    pub mutual: u64,
    /// Defender wins by the attacker's time running out (Law of the
    /// Battlelands 25.E).
    pub time_losses: u64,
    /// Mean survivors of each side, over all battles.
    pub attacker_survivors: f64,
    pub defender_survivors: f64,
    /// Mean points scored by the winner.
    pub points: f64,
    /// Battles that stopped on an error (a variant's script), with the error.
    pub errors: Vec<(u64, String)>,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.96f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Fights `setup` `n` times, both sides played at `level`; battle `i` uses
/// dice seed `seed + i`. `progress` is called after each battle.
pub fn odds(
    variant: &Variant,
    setup: &BattleSetup,
    level: &str,
    budget: Budget,
    n: u64,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<Odds, AiError> {
    check_variant(variant)?;
    let mut out = Odds {
        battles: n,
        attacker_wins: 0,
        defender_wins: 0,
        mutual: 0,
        time_losses: 0,
        attacker_survivors: 0.0,
        defender_survivors: 0.0,
        points: 0.0,
        errors: Vec::new(),
    };
    for i in 0..n {
        let s = seed.wrapping_add(i);
        let mut a = player_with(level, s ^ 0xa77a, budget)?;
        let mut d = player_with(level, s ^ 0xdefe, budget)?;
        match play_battle(variant, setup.clone(), a.as_mut(), d.as_mut(), s) {
            Ok((r, _)) => {
                match r.winner {
                    Winner::Attacker => out.attacker_wins += 1,
                    Winner::Defender => out.defender_wins += 1,
                    Winner::Neither => out.mutual += 1,
                }
                out.time_losses += u64::from(r.time_loss);
                out.attacker_survivors += r.attacker_left.len() as f64;
                out.defender_survivors += r.defender_left.len() as f64;
                out.points += f64::from(r.points);
            }
            Err(e) => out.errors.push((s, e)),
        }
        progress(i + 1);
    }
    let done = (n - out.errors.len() as u64).max(1) as f64;
    out.attacker_survivors /= done;
    out.defender_survivors /= done;
    out.points /= done;
    Ok(out)
}

/// Fits the engagement estimator ([`super::values::win_chance`]) to `n`
/// battles of random legions (1 to the legion size each, drawn from the
/// characters of the variant, the Titan excepted) on random battlelands,
/// each entered by a random attacker side (or the side its battleland
/// fixes), fought by `simple` players: returns `(slope, shift)` of the fit.
pub fn calibrate(variant: &Variant, n: u64, seed: u64) -> Result<(f64, f64), AiError> {
    check_variant(variant)?;
    let titan = variant.rules.titan.character;
    let pool: Vec<crate::model::CharacterId> = (0..variant.characters.len())
        .map(|i| crate::model::CharacterId(i as u16))
        .filter(|&c| c != titan && variant.character(c).count > 0)
        .collect();
    let edges = &variant.rules.battle.attacker_edges;
    if edges.is_empty() {
        return Err(AiError::NoAction);
    }
    let mut rng = crate::rng::GameRng::new(seed);
    let max = i64::from(variant.rules.legions.max_size.max(1));
    let mut samples = Vec::new();
    for i in 0..n {
        let legion = |rng: &mut crate::rng::GameRng| -> Vec<crate::battle::Fighter> {
            let size = rng.int_in(1, max);
            (0..size)
                .map(|_| {
                    let c = pool[rng.int_in(0, pool.len() as i64 - 1) as usize];
                    crate::battle::Fighter {
                        character: c,
                        power: variant.character(c).power,
                    }
                })
                .collect()
        };
        let terrain =
            crate::model::TerrainId(rng.int_in(0, variant.terrains.len() as i64 - 1) as u8);
        // The attacker enters by the side it came from (Law of the
        // Battlelands 25.A): over a game every side is entered by, so each
        // battle draws one (or takes the side its battleland fixes).
        let edge = variant
            .battleland(terrain)
            .attacker_edge
            .unwrap_or_else(|| edges[rng.int_in(0, edges.len() as i64 - 1) as usize]);
        let (a, d) = (legion(&mut rng), legion(&mut rng));
        let strength = |f: &[crate::battle::Fighter], t| {
            let list: Vec<_> = f.iter().map(|x| (x.character, x.power)).collect();
            super::values::strength(variant, &list, t)
        };
        let x = (strength(&a, None) / strength(&d, Some(terrain))).ln();
        let setup = BattleSetup {
            terrain,
            attacker: a,
            defender: d,
            attacker_edge: edge,
            summonable: vec![],
            reinforcements: vec![],
            teleported: false,
        };
        let mut pa = player_with("simple", seed ^ i, Budget::DEFAULT)?;
        let mut pd = player_with("simple", seed ^ i ^ 1, Budget::DEFAULT)?;
        if let Ok((r, _)) = play_battle(
            variant,
            setup,
            pa.as_mut(),
            pd.as_mut(),
            seed.wrapping_add(i),
        ) {
            samples.push((x, r.winner == Winner::Attacker));
        }
    }
    Ok(super::values::fit(&samples))
}
