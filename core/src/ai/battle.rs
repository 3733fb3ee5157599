//! Computer players in battle: position evaluation, maneuvers and strikes.
//!
//! `simple` moves each character, one at a time, to the hex where it strikes
//! best (or nearest the enemy), and strikes the weakest target it can reach.
//! `strong` computes exact strike outcomes (hits are binomial in dice and
//! strike number), picks the strike order by expectimax over those outcomes,
//! and decides a maneuver as a whole: the best few first moves, each followed
//! by the best plan for the other characters, scored by the expected exchange
//! of the strike phases to come and the attacker's time limit.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::values::{hits_distribution, kill_chance, worth};
use super::{AiError, SeenBattle};
use crate::battle::{Action, Battle, BattleSide, Phase, Status, UnitId};
use crate::lua::LuaHost;
use crate::model::Variant;
use crate::rng::GameRng;

/// How a battle player plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Simple,
    Strong,
}

/// A battle player's machinery: its style, budget, and the simulator its
/// searches run the battle on.
pub struct BattleBrain {
    style: Style,
    seed: u64,
    /// Rollouts made so far (each draws new dice).
    rollouts: u64,
    /// Rollouts per candidate plan of the attacker's maneuvers.
    per_plan: u32,
    budget: u64,
    nodes: u64,
    rng: Rc<RefCell<GameRng>>,
    /// The variant's scripts, started once, for variants that have some.
    lua: Option<(String, Option<Rc<LuaHost>>)>,
}

impl BattleBrain {
    pub fn new(style: Style, budget: u64, seed: u64) -> BattleBrain {
        BattleBrain {
            style,
            seed,
            rollouts: 0,
            per_plan: 0,
            budget,
            nodes: 0,
            rng: Rc::new(RefCell::new(GameRng::new(seed))),
            lua: None,
        }
    }

    /// With `n` sampled-dice rollouts of each candidate plan of the
    /// attacker's maneuvers.
    pub fn with_rollouts(mut self, n: u32) -> BattleBrain {
        self.per_plan = n;
        self
    }

    /// A copy of the seen battle to try actions on.
    fn sim<'v>(&mut self, variant: &'v Variant, seen: &SeenBattle) -> Option<Battle<'v>> {
        if self.lua.as_ref().is_none_or(|(id, _)| *id != variant.id) {
            let lua = Battle::start_scripts(variant, &self.rng).ok().flatten();
            self.lua = Some((variant.id.clone(), lua));
        }
        let lua = self.lua.as_ref().and_then(|(_, l)| l.clone());
        self.nodes += 1;
        Battle::resume(variant, seen.snapshot.clone(), self.rng.clone(), lua).ok()
    }

    fn sim_after<'v>(
        &mut self,
        variant: &'v Variant,
        seen: &SeenBattle,
        actions: &[Action],
    ) -> Option<Battle<'v>> {
        let mut b = self.sim(variant, seen)?;
        for a in actions {
            b.apply(a.clone()).ok()?;
        }
        Some(b)
    }

    /// The action to take among `legal`.
    pub fn choose(
        &mut self,
        variant: &Variant,
        seen: &SeenBattle,
        legal: &[Action],
    ) -> Result<Action, AiError> {
        self.nodes = 0;
        if legal.is_empty() {
            return Err(AiError::NoAction);
        }
        let me = seen.side;
        let Some(b) = self.sim(variant, seen) else {
            return fallback(legal);
        };
        if legal.iter().any(|a| matches!(a, Action::CarryOver { .. })) {
            return Ok(carry_over(&b, legal));
        }
        match b.phase() {
            Phase::Strike { .. } => Ok(self.strike(&b, legal, me)),
            Phase::Maneuver => {
                drop(b);
                Ok(self.maneuver(variant, seen, legal))
            }
            _ => fallback(legal),
        }
    }

    /// A strike: the weakest target (simple), or the first strike of the
    /// best order by expectimax (strong).
    fn strike(&mut self, b: &Battle<'_>, legal: &[Action], me: BattleSide) -> Action {
        let mut strikes: Vec<(UnitId, UnitId, u8, u8)> = Vec::new();
        for a in legal {
            let odds = match *a {
                Action::Strike {
                    unit,
                    target,
                    strike_number: None,
                    forgo_bonus: false,
                } => b
                    .strike_odds(unit, target)
                    .map(|(n, d, _)| (unit, target, n, d)),
                Action::Rangestrike { unit, target } => b
                    .rangestrike_odds(unit, target)
                    .map(|(n, d)| (unit, target, n, d)),
                _ => None,
            };
            strikes.extend(odds);
        }
        if strikes.is_empty() {
            return legal
                .iter()
                .find(|a| matches!(a, Action::EndStrikes))
                .cloned()
                .unwrap_or_else(|| fallback(legal).expect("legal is not empty"));
        }
        let units = b.units();
        let left = |t: UnitId| {
            let u = &units[t as usize];
            u.power.saturating_sub(u.damage)
        };
        let pick = match self.style {
            Style::Simple => *strikes
                .iter()
                .min_by(|x, y| (left(x.1), x.2).cmp(&(left(y.1), y.2)))
                .expect("strikes is not empty"),
            Style::Strong => self.expectimax(b, &strikes, me),
        };
        let (unit, target, ..) = pick;
        legal
            .iter()
            .find(|a| match **a {
                Action::Strike {
                    unit: u, target: t, ..
                }
                | Action::Rangestrike {
                    unit: u, target: t, ..
                } => u == unit && t == target,
                _ => false,
            })
            .cloned()
            .expect("the strike is legal")
    }

    /// The strike that begins the best order of this phase's strikes:
    /// expectimax over each striker's target and the exact distribution of
    /// its hits, memoized on (strikers left, damage dealt).
    fn expectimax(
        &mut self,
        b: &Battle<'_>,
        strikes: &[(UnitId, UnitId, u8, u8)],
        _me: BattleSide,
    ) -> (UnitId, UnitId, u8, u8) {
        let v = b.variant();
        let units = b.units();
        let mut strikers: Vec<UnitId> = strikes.iter().map(|s| s.0).collect();
        strikers.sort_unstable();
        strikers.dedup();
        let mut targets: Vec<UnitId> = strikes.iter().map(|s| s.1).collect();
        targets.sort_unstable();
        targets.dedup();
        let info: Vec<(u8, f64)> = targets
            .iter()
            .map(|&t| {
                let u = &units[t as usize];
                (
                    u.power.saturating_sub(u.damage),
                    worth(v, u.character, u.power) * titan_weight(v, u.character),
                )
            })
            .collect();
        // Per striker: (target index, distribution of hits).
        let options: Vec<Vec<(usize, Vec<f64>)>> = strikers
            .iter()
            .map(|&s| {
                strikes
                    .iter()
                    .filter(|x| x.0 == s)
                    .map(|x| {
                        let ti = targets.iter().position(|&t| t == x.1).expect("listed");
                        (ti, hits_distribution(x.3, x.2))
                    })
                    .collect()
            })
            .collect();
        let mut search = Expectimax {
            info: &info,
            options: &options,
            memo: HashMap::new(),
            nodes: 0,
            budget: self.budget,
        };
        let all = (1u32 << strikers.len().min(31)) - 1;
        let dealt = vec![0u8; targets.len()];
        let mut best = (f64::MIN, strikes[0]);
        for (si, &s) in strikers.iter().enumerate() {
            for (ti, dist) in &options[si] {
                let value = search.chance(all & !(1 << si), &dealt, *ti, dist);
                if value > best.0 {
                    let x = strikes
                        .iter()
                        .find(|x| x.0 == s && x.1 == targets[*ti])
                        .expect("listed");
                    best = (value, *x);
                }
            }
        }
        self.nodes += search.nodes;
        best.1
    }

    /// A maneuver: the best move (or entry, summon, reinforcement), or the
    /// end of the maneuver when no move improves the position.
    fn maneuver(&mut self, variant: &Variant, seen: &SeenBattle, legal: &[Action]) -> Action {
        let me = seen.side;
        let end = legal
            .iter()
            .find(|a| matches!(a, Action::EndManeuver))
            .cloned();
        let mut moves: Vec<Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Move { .. } | Action::Summon { .. } | Action::Reinforce { .. }
                )
            })
            .cloned()
            .collect();
        // Characters not yet on the battleland must enter now or never (Law
        // of the Battlelands 25.D): they move first.
        let mut must_enter = false;
        if let Some(b) = self.sim(variant, seen) {
            let waiting: Vec<UnitId> = b
                .units()
                .iter()
                .enumerate()
                .filter(|(_, u)| u.side == me && u.status == Status::Waiting)
                .map(|(i, _)| i as UnitId)
                .collect();
            let entering: Vec<Action> = moves
                .iter()
                .filter(|a| matches!(a, Action::Move { unit, .. } if waiting.contains(unit)))
                .cloned()
                .collect();
            if !entering.is_empty() {
                moves = entering;
                must_enter = true;
            }
        }
        let base = match self.sim(variant, seen) {
            Some(b) => evaluate(&b, me, self.style),
            None => return end.unwrap_or_else(|| fallback(legal).expect("legal is not empty")),
        };
        let mut scored: Vec<(f64, Action)> = Vec::new();
        for a in &moves {
            if self.nodes >= self.budget {
                break;
            }
            if let Some(b) = self.sim_after(variant, seen, std::slice::from_ref(a)) {
                scored.push((evaluate(&b, me, self.style), a.clone()));
            }
        }
        scored.sort_by(|x, y| y.0.total_cmp(&x.0));
        if self.style == Style::Strong {
            // A maneuver is one decision: each of the best few first moves
            // is followed by the greedy plan for the others, and the first
            // move of the best whole plan is made.
            let mut best: Option<(f64, Action)> = None;
            for (_, first) in scored.iter().take(4) {
                if self.nodes >= self.budget {
                    break;
                }
                let value = self.plan_value(variant, seen, first.clone(), me);
                if best.as_ref().is_none_or(|b| value > b.0) {
                    best = Some((value, first.clone()));
                }
            }
            if let Some(b) = best {
                scored.insert(0, b);
            }
        }
        match scored.into_iter().next() {
            Some((value, a)) if value > base + 1e-9 || end.is_none() || must_enter => a,
            _ => end.unwrap_or_else(|| fallback(legal).expect("legal is not empty")),
        }
    }

    /// The value of the plan that begins with `first`: its position's
    /// score, blended with sampled-dice rollouts of the strikes after it.
    fn plan_value(
        &mut self,
        variant: &Variant,
        seen: &SeenBattle,
        first: Action,
        me: BattleSide,
    ) -> f64 {
        let (value, plan) = self.plan(variant, seen, first, me);
        if self.per_plan == 0 || value == f64::MIN || me != BattleSide::Attacker {
            return value;
        }
        // Rollouts: the strikes that follow the plan, with sampled dice,
        // each side striking its weakest target; their mean outcome is
        // blended with the exact expectation.
        let mut sum = 0.0;
        let mut n = 0.0;
        for r in 0..self.per_plan {
            if self.nodes >= self.budget {
                break;
            }
            let Some(mut b) = self.sim_after(variant, seen, &plan) else {
                break;
            };
            *self.rng.borrow_mut() =
                GameRng::new(self.seed.wrapping_add(self.rollouts + u64::from(r)));
            if b.apply(Action::EndManeuver).is_err() {
                break;
            }
            let mut steps = 0;
            while matches!(b.phase(), Phase::Strike { .. }) && steps < 200 {
                let legal = b.legal_actions();
                let a = if legal.iter().any(|a| matches!(a, Action::CarryOver { .. })) {
                    carry_over(&b, &legal)
                } else {
                    simple_strike(&b, &legal)
                };
                if b.apply(a).is_err() {
                    break;
                }
                steps += 1;
                self.nodes += 1;
            }
            sum += evaluate(&b, me, self.style);
            n += 1.0;
        }
        self.rollouts += u64::from(self.per_plan);
        if n == 0.0 {
            value
        } else {
            0.5 * value + 0.5 * sum / n
        }
    }

    /// The plan that begins with `first` and moves the other characters
    /// greedily while a move improves the position, and its value.
    fn plan(
        &mut self,
        variant: &Variant,
        seen: &SeenBattle,
        first: Action,
        me: BattleSide,
    ) -> (f64, Vec<Action>) {
        let mut plan = vec![first];
        let Some(b) = self.sim_after(variant, seen, &plan) else {
            return (f64::MIN, plan);
        };
        let mut value = evaluate(&b, me, self.style);
        loop {
            let Some(b) = self.sim_after(variant, seen, &plan) else {
                return (value, plan);
            };
            if b.phase() != Phase::Maneuver || b.moving() != me {
                return (value, plan);
            }
            let next: Vec<Action> = b
                .legal_actions()
                .into_iter()
                .filter(|a| {
                    matches!(
                        a,
                        Action::Move { .. } | Action::Summon { .. } | Action::Reinforce { .. }
                    )
                })
                .collect();
            drop(b);
            let mut best: Option<(f64, Action)> = None;
            for a in next {
                if self.nodes >= self.budget {
                    break;
                }
                plan.push(a.clone());
                if let Some(b) = self.sim_after(variant, seen, &plan) {
                    let v = evaluate(&b, me, self.style);
                    if best.as_ref().is_none_or(|x| v > x.0) {
                        best = Some((v, a));
                    }
                }
                plan.pop();
            }
            match best {
                Some((v, a)) if v > value + 1e-9 => {
                    value = v;
                    plan.push(a);
                }
                _ => return (value, plan),
            }
        }
    }
}

/// The weakest target in reach (the rollouts' strike policy), or the end of
/// the strikes.
fn simple_strike(b: &Battle<'_>, legal: &[Action]) -> Action {
    let units = b.units();
    let left = |t: UnitId| {
        let u = &units[t as usize];
        u.power.saturating_sub(u.damage)
    };
    legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Strike {
                    strike_number: None,
                    forgo_bonus: false,
                    ..
                } | Action::Rangestrike { .. }
            )
        })
        .min_by_key(|a| match a {
            Action::Strike { target, .. } | Action::Rangestrike { target, .. } => left(*target),
            _ => u8::MAX,
        })
        .or_else(|| legal.iter().find(|a| matches!(a, Action::EndStrikes)))
        .or_else(|| legal.iter().find(|a| !matches!(a, Action::Concede(_))))
        .cloned()
        .unwrap_or(Action::EndStrikes)
}

fn fallback(legal: &[Action]) -> Result<Action, AiError> {
    legal
        .iter()
        .find(|a| !matches!(a, Action::Concede(_)))
        .or(legal.first())
        .cloned()
        .ok_or(AiError::NoAction)
}

/// A Titan is worth the game to its player: striking it is worth more (and
/// one's own counts at this weight, or at 5 for simple, in evaluations).
fn titan_weight(variant: &Variant, c: crate::model::CharacterId) -> f64 {
    if c == variant.rules.titan.character {
        3.0
    } else {
        1.0
    }
}

/// Carried hits go where they kill, else to the most valuable target.
fn carry_over(b: &Battle<'_>, legal: &[Action]) -> Action {
    let hits = b.carry().map_or(0, |c| c.hits);
    let v = b.variant();
    let units = b.units();
    let score = |t: UnitId| {
        let u = &units[t as usize];
        let left = u.power.saturating_sub(u.damage);
        let w = worth(v, u.character, u.power) * titan_weight(v, u.character);
        if hits >= left {
            w
        } else {
            w * f64::from(hits) / f64::from(u.power.max(1)) * 0.5
        }
    };
    legal
        .iter()
        .filter_map(|a| match a {
            Action::CarryOver { target: Some(t) } => Some((score(*t), a)),
            _ => None,
        })
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a)| a.clone())
        .unwrap_or(Action::CarryOver { target: None })
}

struct Expectimax<'a> {
    /// Per target: power left and worth.
    info: &'a [(u8, f64)],
    options: &'a [Vec<(usize, Vec<f64>)>],
    memo: HashMap<(u32, Vec<u8>), f64>,
    nodes: u64,
    budget: u64,
}

impl Expectimax<'_> {
    /// The expected value after a striker with hits distribution `dist`
    /// strikes target `ti`.
    fn chance(&mut self, left: u32, dealt: &[u8], ti: usize, dist: &[f64]) -> f64 {
        let need = self.info[ti].0;
        let mut total = 0.0;
        let mut next = dealt.to_vec();
        for (k, &p) in dist.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            next[ti] = dealt[ti].saturating_add(k as u8).min(need);
            total += p * self.max(left, &next);
            // More hits than needed change nothing.
            if usize::from(need.saturating_sub(dealt[ti])) <= k {
                let rest: f64 = dist[k + 1..].iter().sum();
                total += rest * self.max(left, &next);
                break;
            }
        }
        total
    }

    /// The best expected value with strikers `left` still to strike.
    fn max(&mut self, left: u32, dealt: &[u8]) -> f64 {
        if let Some(&v) = self.memo.get(&(left, dealt.to_vec())) {
            return v;
        }
        self.nodes += 1;
        let mut best = self.leaf(dealt);
        if self.nodes < self.budget {
            for si in 0..self.options.len() {
                if left & (1 << si) == 0 {
                    continue;
                }
                for (ti, dist) in &self.options[si] {
                    if dealt[*ti] >= self.info[*ti].0 {
                        continue;
                    }
                    let v = self.chance(left & !(1 << si), dealt, *ti, dist);
                    best = best.max(v);
                }
            }
        }
        self.memo.insert((left, dealt.to_vec()), best);
        best
    }

    /// What the damage dealt is worth: a slain target its whole worth, a
    /// wounded one part of it (wounds heal after the battle).
    fn leaf(&self, dealt: &[u8]) -> f64 {
        dealt
            .iter()
            .zip(self.info)
            .map(|(&d, &(need, w))| {
                if d >= need {
                    w
                } else {
                    0.4 * w * f64::from(d) / f64::from(need.max(1))
                }
            })
            .sum()
    }
}

/// How good the battle is for `me`: worth on the battleland (wounds
/// counted), the expected exchange of the strikes to come, and closing in
/// (the attacker the more as its time runs out: Law of the Battlelands
/// 25.E; keeping a weaker defender away lost more battles than it saved in
/// trials, see docs/ai.md).
pub fn evaluate(b: &Battle<'_>, me: BattleSide, style: Style) -> f64 {
    let v = b.variant();
    let units = b.units();
    let alive = |u: &crate::battle::Unit| {
        matches!(u.status, Status::Waiting | Status::OnBoard(_)) && !u.is_slain()
    };
    let value = |i: usize| {
        let u = &units[i];
        let own = if u.side == me && u.character == v.rules.titan.character {
            match style {
                Style::Strong => 3.0,
                // Simple guards its Titan more, or it loses to random play.
                Style::Simple => 5.0,
            }
        } else {
            titan_weight(v, u.character)
        };
        worth(v, u.character, u.power) * own
    };
    let mut material = [0.0f64; 2];
    for (i, u) in units.iter().enumerate() {
        if alive(u) {
            let hurt = f64::from(u.damage) / f64::from(u.power.max(1));
            material[usize::from(u.side != me)] += value(i) * (1.0 - 0.5 * hurt);
        }
    }
    let mut score = material[0] - material[1];
    // A character that can no longer enter this maneuver is lost (Law of
    // the Battlelands 25.D): the first to enter must not block the way.
    if b.phase() == Phase::Maneuver {
        for (i, u) in units.iter().enumerate() {
            if u.side == b.moving()
                && u.status == Status::Waiting
                && b.reach(i as UnitId).is_ok_and(|r| r.is_empty())
            {
                let lost = value(i);
                score += if u.side == me { -lost } else { lost };
            }
        }
    }
    let on_board: Vec<usize> = (0..units.len())
        .filter(|&i| alive(&units[i]) && units[i].hex().is_some())
        .collect();
    // The expected damage each character deals its best target in contact
    // (or by rangestrike, for the side about to strike), as worth.
    let mover = b.moving();
    let mut exchange = [0.0f64; 2];
    let mut nearest = vec![u32::MAX; units.len()];
    for &i in &on_board {
        let u = &units[i];
        let mut best = 0.0f64;
        let mut in_contact = false;
        for &j in &on_board {
            let t = &units[j];
            if t.side == u.side {
                continue;
            }
            let (Some(a), Some(c)) = (u.hex(), t.hex()) else {
                continue;
            };
            nearest[i] = nearest[i].min(b.board().distance(a, c));
            if b.board().distance(a, c) != 1 {
                continue;
            }
            let Some((n, d, contact)) = b.strike_odds(i as UnitId, j as UnitId) else {
                continue;
            };
            if !contact {
                continue;
            }
            in_contact = true;
            best = best.max(strike_worth(
                style,
                d,
                n,
                t.power.saturating_sub(t.damage),
                t.power,
                value(j),
            ));
        }
        if !in_contact && u.side == mover && v.character(u.character).rangestrike.is_some() {
            for &j in &on_board {
                let t = &units[j];
                if t.side == u.side {
                    continue;
                }
                if let Some((n, d)) = b.rangestrike_odds(i as UnitId, j as UnitId) {
                    best = best.max(strike_worth(
                        style,
                        d,
                        n,
                        t.power.saturating_sub(t.damage),
                        t.power,
                        value(j),
                    ));
                }
            }
        }
        exchange[usize::from(u.side != me)] += best;
    }
    score += exchange[0] - exchange[1];
    // Closing in or keeping away.
    let round = f64::from(b.defender_maneuver().min(7));
    for &i in &on_board {
        let u = &units[i];
        if u.side != me || nearest[i] == u32::MAX {
            continue;
        }
        let d = f64::from(nearest[i].saturating_sub(1));
        let w = value(i) * 0.02;
        score += match (me, style) {
            (BattleSide::Attacker, Style::Strong) => -d * w * (1.0 + round / 2.0),
            (BattleSide::Attacker, Style::Simple) => -d * w,
            (BattleSide::Defender, _) => -d * w * 0.5,
        };
    }
    score
}

/// The worth of a strike's damage: exact for `strong` (the chance to slay
/// and the expected wounds), the mean hits for `simple`.
fn strike_worth(style: Style, dice: u8, number: u8, left: u8, power: u8, worth: f64) -> f64 {
    match style {
        Style::Strong => {
            let kill = kill_chance(dice, number, left);
            let dist = hits_distribution(dice, number);
            let wounds: f64 = dist
                .iter()
                .enumerate()
                .take(usize::from(left))
                .map(|(k, p)| p * k as f64)
                .sum();
            kill * worth + 0.4 * worth * wounds / f64::from(power.max(1))
        }
        Style::Simple => {
            let mean = f64::from(dice) * super::values::hit_chance(number);
            worth * (mean / f64::from(left.max(1))).min(1.0)
        }
    }
}
