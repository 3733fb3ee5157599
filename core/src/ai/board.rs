//! Computer players on the masterboard: every legal action scored from the
//! seat's view, the best taken.
//!
//! Legions are valued by their characters' worth ([`super::values`]); an
//! engagement by the estimator's chance of winning it; a land by what the
//! legion could muster there and the danger of the enemy legions that could
//! reach it next turn (each roll of the die counted), and for `strong` the
//! attack it could make next turn from there. `simple` and `strong`
//! share this and differ in [`Style`]: `strong` guards its Titan, estimates
//! hidden legions by sampling what they may hold (determinization, from the
//! caretaker's stacks and what was revealed, never the hidden contents), and
//! weighs splits by the musters they open over the six rolls to come.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use super::Observation;
use super::values::{SLOPE, base_worth, strength, win_chance_with, worth};
use crate::game::view::LegionView;
use crate::game::{Action, EngagementStep, Marker, Occupancy, PlayerId};
use crate::model::{CharacterId, LandId, TerrainId, Variant};
use crate::rng::GameRng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Simple,
    Strong,
}

/// Hidden legions are estimated from this many samples (strong).
const SAMPLES: usize = 6;

// Strong's weights, tuned by `titan tournament` against simple (docs/ai.md):
/// What losing the Titan costs beyond its legion: the game.
const TITAN_LOSS: f64 = 1000.0;
/// Simple's Titan loss: less guarded than strong's (as the classic programs'),
/// but guarded.
const SIMPLE_TITAN_LOSS: f64 = 50.0;
/// Danger (the chance an enemy comes and wins, times the loss) counted at
/// this weight: enemies do not always come.
const DANGER_WEIGHT: f64 = 0.5;
/// The loss of an attack that fails, at this weight: a battle lost still
/// costs the enemy, and the attacker chooses its battles (0.8 beat 0.5 and
/// 1.0 in 4-player games: docs/ai.md, tuning record).
const ATTACK_RISK: f64 = 0.8;
/// A split must open this much more expected muster worth than it risks.
const SPLIT_COST: f64 = 20.0;
/// On the board, the calibrated estimator's slope is halved: it was fitted
/// on battles of legions both known, and a legion on the board may be
/// hidden, flee, summon or be reinforced.
const BOARD_SLOPE: f64 = 0.5;
/// And an attacker's prudence (the fit's own shift is +0.17).
const BOARD_SHIFT: f64 = -0.3;
/// The best attack a legion could make next turn from where it ends,
/// counted at this weight (the mirror of danger: the enemy may move away).
/// Without it, once no legion can muster, no land is better than another
/// and legions out of reach of each other never close in (docs/ai.md).
const OPPORTUNITY_WEIGHT: f64 = 0.5;
/// A failed attack's loss is weighed by the defender's player's material
/// over mine (at most 1, at least this): trading legions favours the side
/// with more, which must press its advantage or the game never ends.
const MIN_PRESSURE: f64 = 0.25;

/// The masterboard as one seat sees it, with what its scoring needs.
pub struct Board<'a> {
    pub(super) obs: &'a Observation,
    pub(super) v: &'a Variant,
    pub(super) me: PlayerId,
    style: Style,
    /// Each legion's characters with their powers: its own, or (hidden)
    /// the revealed ones and samples for the rest, one list per sample.
    legions: BTreeMap<Marker, Vec<Vec<(CharacterId, u8)>>>,
    /// Per enemy legion: the chance of reaching each land next turn.
    reach: Vec<(Marker, Vec<f64>)>,
    /// Per land: the enemy legions a legion of mine there could reach next
    /// turn, with the chance (filled as asked).
    my_reach: RefCell<HashMap<LandId, Vec<(LandId, f64)>>>,
    /// Each player's material: the worth of its legions (hidden ones by
    /// their first sample).
    material: Vec<f64>,
}

impl<'a> Board<'a> {
    pub fn new(obs: &'a Observation, style: Style, rng: &mut GameRng) -> Board<'a> {
        let v = &*obs.variant;
        let me = obs.me();
        let titan = v.rules.titan.character;
        let power = |owner: PlayerId, c: CharacterId| {
            if c == titan {
                obs.view
                    .players
                    .get(usize::from(owner.0))
                    .map_or(v.character(c).power, |p| p.titan_power)
            } else {
                v.character(c).power
            }
        };
        // Characters out of the caretaker's stacks and not seen anywhere:
        // what hidden characters may be.
        let mut pool: Vec<f64> = v
            .characters
            .iter()
            .enumerate()
            .map(|(i, c)| f64::from(c.count) - f64::from(*obs.view.caretaker.get(i).unwrap_or(&0)))
            .collect();
        for l in &obs.view.legions {
            for c in l.characters.as_ref().unwrap_or(&l.revealed) {
                if let Some(x) = pool.get_mut(c.index()) {
                    *x -= 1.0;
                }
            }
        }
        for (i, x) in pool.iter_mut().enumerate() {
            if CharacterId(i as u16) == titan {
                *x = 0.0;
            }
            *x = x.max(0.0);
        }
        if pool.iter().sum::<f64>() <= 0.0 {
            pool = v
                .characters
                .iter()
                .map(|c| f64::from(c.count.min(1)))
                .collect();
        }
        let total: f64 = pool.iter().sum();
        let mut legions = BTreeMap::new();
        for l in &obs.view.legions {
            let known: Vec<(CharacterId, u8)> = l
                .characters
                .as_ref()
                .unwrap_or(&l.revealed)
                .iter()
                .map(|&c| (c, power(l.owner, c)))
                .collect();
            let hidden = l.height.saturating_sub(known.len());
            let samples = match (hidden, style) {
                (0, _) => vec![known],
                (_, Style::Simple) => {
                    // The most common character still out, for each hidden one.
                    let common = pool
                        .iter()
                        .enumerate()
                        .max_by(|a, b| a.1.total_cmp(b.1))
                        .map_or(CharacterId(0), |(i, _)| CharacterId(i as u16));
                    let mut s = known.clone();
                    s.extend(std::iter::repeat_n(
                        (common, power(l.owner, common)),
                        hidden,
                    ));
                    vec![s]
                }
                (_, Style::Strong) => (0..SAMPLES)
                    .map(|_| {
                        let mut s = known.clone();
                        for _ in 0..hidden {
                            let c = sample(&pool, total, rng);
                            s.push((c, power(l.owner, c)));
                        }
                        s
                    })
                    .collect(),
            };
            legions.insert(l.marker, samples);
        }
        let mut reach = Vec::new();
        let lands = v.board.land_count();
        for l in obs.view.legions.iter().filter(|l| l.owner != me) {
            let occ = occupancy(obs, l.owner);
            let mut chance = vec![0.0; lands];
            let die = v.rules.movement.die.max(1);
            for roll in 1..=die {
                for t in obs.exits.moves(l.land, roll, &occ) {
                    chance[t.land.index()] += 1.0 / f64::from(die);
                }
            }
            reach.push((l.marker, chance));
        }
        let mut material = vec![0.0; obs.view.players.len()];
        for l in &obs.view.legions {
            if let (Some(m), Some(s)) = (
                material.get_mut(usize::from(l.owner.0)),
                legions.get(&l.marker).and_then(|s| s.first()),
            ) {
                *m += s.iter().map(|&(c, p)| worth(v, c, p)).sum::<f64>();
            }
        }
        Board {
            obs,
            v,
            me,
            style,
            legions,
            reach,
            my_reach: RefCell::new(HashMap::new()),
            material,
        }
    }

    /// A legion's characters with their powers (mine: as they are; others:
    /// the first sample).
    pub(super) fn chars_of(&self, m: Marker) -> Option<&Vec<(CharacterId, u8)>> {
        self.legions.get(&m).and_then(|s| s.first())
    }

    /// A character's power this game in a legion of `owner`.
    pub(super) fn power(&self, owner: PlayerId, c: CharacterId) -> u8 {
        if c == self.v.rules.titan.character {
            self.obs
                .view
                .players
                .get(usize::from(owner.0))
                .map_or(self.v.character(c).power, |p| p.titan_power)
        } else {
            self.v.character(c).power
        }
    }

    fn legion(&self, m: Marker) -> Option<&LegionView> {
        self.obs.view.legions.iter().find(|l| l.marker == m)
    }

    fn terrain(&self, land: LandId) -> TerrainId {
        self.v.board.land(land).terrain
    }

    fn has_titan(&self, chars: &[(CharacterId, u8)]) -> bool {
        chars
            .iter()
            .any(|&(c, _)| c == self.v.rules.titan.character)
    }

    /// What losing this legion costs: its worth, and with a Titan the game
    /// (strong guards its Titan; simple, like the classic programs, less).
    pub(super) fn loss(&self, chars: &[(CharacterId, u8)]) -> f64 {
        let w: f64 = chars.iter().map(|&(c, p)| worth(self.v, c, p)).sum();
        if self.style == Style::Strong && self.has_titan(chars) {
            w + TITAN_LOSS
        } else if self.has_titan(chars) {
            w + SIMPLE_TITAN_LOSS
        } else {
            w
        }
    }

    /// The chance `attacker` beats `defender` in the defender's land,
    /// averaged over the samples of hidden legions.
    fn win(
        &self,
        attacker: &[Vec<(CharacterId, u8)>],
        defender: &[Vec<(CharacterId, u8)>],
        land: LandId,
    ) -> f64 {
        let t = Some(self.terrain(land));
        let mut sum = 0.0;
        let mut n = 0.0;
        for a in attacker {
            for d in defender {
                let (sa, sd) = (strength(self.v, a, None), strength(self.v, d, t));
                sum += match self.style {
                    Style::Strong => win_chance_with(sa, sd, SLOPE * BOARD_SLOPE, BOARD_SHIFT),
                    // Simple compares strengths by a rule of thumb, as the
                    // classic programs do, not by the calibrated fit.
                    Style::Simple => win_chance_with(sa, sd, 3.0, -0.3),
                };
                n += 1.0;
            }
        }
        if n == 0.0 { 0.5 } else { sum / n }
    }

    /// The best recruit `chars` could muster in `land`, by worth.
    pub(super) fn best_muster(&self, chars: &[(CharacterId, u8)], land: LandId) -> f64 {
        if self.v.legion_size(chars.iter().map(|&(c, _)| c))
            >= usize::from(self.v.rules.legions.max_size)
        {
            return 0.0;
        }
        let ids: Vec<CharacterId> = {
            let mut x: Vec<CharacterId> = chars.iter().map(|&(c, _)| c).collect();
            x.sort_unstable();
            x
        };
        let mut judge = |_, _, _: &[CharacterId]| false;
        crate::game::muster::options(self.v, self.terrain(land), &ids, &mut judge)
            .iter()
            .filter(|o| {
                self.obs
                    .view
                    .caretaker
                    .get(o.recruit.index())
                    .is_some_and(|&n| n > 0)
            })
            .map(|o| base_worth(self.v, o.recruit))
            .fold(0.0, f64::max)
    }

    /// What a variant's recruiting action (`ai: Recruit(terrains, worth)`,
    /// actions.ron) makes `land` worth to `chars` standing there, moved or
    /// not: its `worth` where it is offered, for a legion with room.
    pub(super) fn recruit_worth(&self, chars: &[(CharacterId, u8)], land: LandId) -> f64 {
        use crate::format::ActionAi;
        if self.v.legion_size(chars.iter().map(|&(c, _)| c))
            >= usize::from(self.v.rules.legions.max_size)
        {
            return 0.0;
        }
        let terrain = &self.v.terrains[self.terrain(land).index()].name;
        self.v
            .actions
            .iter()
            .filter_map(|a| match &a.def.ai {
                Some(ActionAi::Recruit {
                    terrains, worth, ..
                }) if terrains.contains(terrain) => Some(*worth as f64),
                _ => None,
            })
            .fold(0.0, f64::max)
    }

    /// The danger to `chars` standing in `land` from enemy legions that may
    /// reach it next turn: the chance each comes, times its chance to win,
    /// times the loss (an enemy attacks only with a fair chance).
    pub(super) fn danger(
        &self,
        chars: &[(CharacterId, u8)],
        land: LandId,
        except: Option<Marker>,
    ) -> f64 {
        let mine = vec![chars.to_vec()];
        let loss = self.loss(chars);
        let mut danger = 0.0;
        for (m, chance) in &self.reach {
            let p = chance[land.index()];
            if p == 0.0 || Some(*m) == except {
                continue;
            }
            let Some(e) = self.legions.get(m) else {
                continue;
            };
            let w = self.win(e, &mine, land);
            if w > 0.4 {
                danger += p
                    * w
                    * loss
                    * if self.style == Style::Strong {
                        DANGER_WEIGHT
                    } else {
                        1.0
                    };
            }
        }
        danger
    }

    /// How good it is for my legion `m` to end its move in `land`.
    fn land_score(&self, m: Marker, land: LandId) -> f64 {
        let Some(samples) = self.legions.get(&m) else {
            return 0.0;
        };
        let chars = &samples[0];
        let score = self
            .best_muster(chars, land)
            .max(self.recruit_worth(chars, land));
        match self.attack_value(samples, land) {
            Some(ev) => score + ev,
            None => score - self.danger(chars, land, None),
        }
    }

    /// The enemy legion in `land` a move there would engage, if any: none
    /// under a treaty.
    pub(super) fn enemy_in(&self, land: LandId) -> Option<Marker> {
        if self.v.at_peace(self.obs.view.turn) {
            return None;
        }
        self.obs
            .view
            .legions
            .iter()
            .find(|l| l.land == land && l.owner != self.me)
            .map(|l| l.marker)
    }

    /// The chance my legion (its samples: one, as I know it) beats the
    /// enemy in `land`, and the expected value of attacking it there: the
    /// gain when it wins less the weighted loss when it fails, less the
    /// danger to what is left after a win. None when no enemy stands there.
    pub(super) fn attack(
        &self,
        samples: &[Vec<(CharacterId, u8)>],
        land: LandId,
    ) -> Option<(f64, f64)> {
        let e = self.enemy_in(land)?;
        self.attack_on(samples, land, e)
    }

    /// [`Board::attack`] on the enemy legion `e` standing in `land`.
    pub(super) fn attack_on(
        &self,
        samples: &[Vec<(CharacterId, u8)>],
        land: LandId,
        e: Marker,
    ) -> Option<(f64, f64)> {
        let chars = samples.first()?;
        let defender = self.legions.get(&e).cloned().unwrap_or_default();
        let p = self.win(samples, &defender, land);
        let gain: f64 = defender
            .iter()
            .map(|d| {
                d.iter().map(|&(c, pw)| worth(self.v, c, pw)).sum::<f64>()
                    + self.enemy_titan_bonus(d)
            })
            .sum::<f64>()
            / defender.len().max(1) as f64;
        let atk = if self.style == Style::Strong {
            ATTACK_RISK * self.pressure(e)
        } else {
            1.0
        };
        let ev = p * gain - (1.0 - p) * self.loss(chars) * atk;
        // The legion left after a battle won is weaker: danger after.
        Some((p, ev - p * 0.5 * self.danger(chars, land, Some(e))))
    }

    /// How much a failed attack on `enemy` costs me relative to what it
    /// costs its owner: its owner's material over mine, between
    /// [`MIN_PRESSURE`] and 1 (a player behind keeps its full prudence).
    fn pressure(&self, enemy: Marker) -> f64 {
        let Some(owner) = self.legion(enemy).map(|l| l.owner) else {
            return 1.0;
        };
        let mine = self.material.get(usize::from(self.me.0)).copied();
        let theirs = self.material.get(usize::from(owner.0)).copied();
        match (mine, theirs) {
            (Some(m), Some(t)) if m > 0.0 => (t / m).clamp(MIN_PRESSURE, 1.0),
            _ => 1.0,
        }
    }

    /// The best attack `chars` could make next turn from `land` (strong):
    /// over the enemy legions it could reach, the chance it reaches one
    /// times the attack's value when positive, at [`OPPORTUNITY_WEIGHT`].
    /// Where the mover chooses the distance, a land reached by any distance
    /// is reached.
    pub(super) fn opportunity(&self, chars: &[(CharacterId, u8)], land: LandId) -> f64 {
        if self.style != Style::Strong {
            return 0.0;
        }
        let targets = self
            .my_reach
            .borrow_mut()
            .entry(land)
            .or_insert_with(|| {
                let occ = occupancy(self.obs, self.me);
                let die = self.v.rules.movement.die.max(1);
                let mut chance: BTreeMap<LandId, f64> = BTreeMap::new();
                for roll in 1..=die {
                    let mut seen: Vec<LandId> = Vec::new();
                    for t in self.obs.exits.moves(land, roll, &occ) {
                        if self.enemy_in(t.land).is_some() && !seen.contains(&t.land) {
                            seen.push(t.land);
                            *chance.entry(t.land).or_default() += 1.0 / f64::from(die);
                        }
                    }
                }
                let chosen =
                    self.v.rules.movement.chosen_distance || self.v.rules.movement.per_legion;
                chance
                    .into_iter()
                    .map(|(l, c)| (l, if chosen { 1.0 } else { c.min(1.0) }))
                    .collect()
            })
            .clone();
        let samples = vec![chars.to_vec()];
        targets
            .iter()
            .filter(|(l, _)| *l != land)
            .filter_map(|&(l, c)| self.attack(&samples, l).map(|(_, ev)| c * ev.max(0.0)))
            .fold(0.0, f64::max)
            * OPPORTUNITY_WEIGHT
    }

    fn attack_value(&self, samples: &[Vec<(CharacterId, u8)>], land: LandId) -> Option<f64> {
        let ev = self.attack(samples, land).map(|(_, ev)| ev)?;
        // On a shared land the engagement is the mover's choice: a bad one
        // is not made.
        Some(if self.v.is_shared(land) {
            ev.max(0.0)
        } else {
            ev
        })
    }

    fn enemy_titan_bonus(&self, d: &[(CharacterId, u8)]) -> f64 {
        if self.style == Style::Strong && self.has_titan(d) {
            300.0
        } else {
            0.0
        }
    }

    /// The score of one legal action: None for an action never worth taking
    /// or not understood (a variant's own action is taken only when nothing
    /// else is scored).
    pub fn score(&self, a: &Action) -> Option<f64> {
        let v = self.v;
        Some(match a {
            Action::InitialSplit { legions } => {
                let worths: Vec<f64> = legions
                    .iter()
                    .map(|l| l.iter().map(|&c| base_worth(v, c)).sum())
                    .collect();
                let spread = worths.iter().cloned().fold(f64::MIN, f64::max)
                    - worths.iter().cloned().fold(f64::MAX, f64::min);
                // Each legion with a lord: each may teleport from a tower.
                let lords = legions
                    .iter()
                    .filter(|l| {
                        l.iter()
                            .any(|&c| v.class(v.character(c).class).tower_teleport)
                    })
                    .count() as f64;
                lords * 100.0 - spread
            }
            Action::Split { legion, parts } => self.split_score(*legion, parts)?,
            // Not while more of my legions stand on shared lands than the
            // variant lets me end my movement with (the engine refuses it).
            Action::DoneMoving if self.on_shared(None) > self.shared_limit() => return None,
            Action::DoneSplitting | Action::DoneMoving | Action::DoneAfter | Action::EndTurn => 0.0,
            Action::Roll { .. } => 1.0,
            Action::Mulligan => return None,
            Action::Move { legion, to, .. } | Action::Teleport { legion, to, .. } => {
                let from = self.legion(*legion)?.land;
                // Never a move that leaves more of my legions on shared
                // lands than the variant lets me end my movement with.
                let (into, out) = (v.is_shared(*to), v.is_shared(from));
                if into && !out && self.on_shared(Some(*legion)) >= self.shared_limit() {
                    return None;
                }
                let gain = self.land_score(*legion, *to) - self.land_score(*legion, from);
                // Splits that share a land must part: moving one is forced;
                // so is one off the shared lands when too many stand there.
                let forced = self.shares_land(*legion)
                    || out && !into && self.on_shared(None) > self.shared_limit();
                gain + if forced { 50.0 } else { 0.0 }
            }
            Action::Engage { .. } => 1.0,
            // A challenge is made when its expected value is positive.
            Action::Challenge { attacker, defender } => {
                let land = self.legion(*attacker)?.land;
                let samples = self.legions.get(attacker)?;
                self.attack_on(samples, land, *defender)?.1
            }
            Action::DoneEngaging => 0.0,
            Action::Flee => self.flee_score(),
            Action::Stand => 0.0,
            Action::Fight => 1.0,
            Action::Reject => 0.5,
            Action::Accept | Action::Concede | Action::Propose { .. } => return None,
            Action::Summon { character, .. } | Action::Acquire { character } => {
                1.0 + base_worth(v, *character)
            }
            Action::Reinforce { recruit, .. } => 1.0 + base_worth(v, *recruit),
            Action::Muster { recruit, .. } => 1.0 + base_worth(v, *recruit),
            Action::ConcedeGame => return None,
            Action::Script { .. } => return self.script_score(a),
            _ => return None,
        })
    }

    /// The legion and character of a variant action that recruits
    /// (`ai: Recruit(..)` in actions.ron): its arguments named there.
    pub(super) fn script_recruit(&self, a: &Action) -> Option<(Marker, CharacterId)> {
        use crate::format::ActionAi;
        use crate::script::ScriptArg;
        let Action::Script { name, args } = a else {
            return None;
        };
        let def = &self.v.script_action(name)?.def;
        let Some(ActionAi::Recruit {
            legion, character, ..
        }) = &def.ai
        else {
            return None;
        };
        let arg = |param: &str| {
            let i = def.parameters.iter().position(|p| p.name == param)?;
            args.get(i)
        };
        match (arg(legion)?, arg(character)?) {
            (ScriptArg::Legion(m), ScriptArg::Character(c)) => Some((*m, *c)),
            _ => None,
        }
    }

    /// A variant action's score by its `ai` (actions.ron): a fixed worth,
    /// or a recruit's as a muster's; None without one (the action is then
    /// taken only when nothing else is scored).
    pub(super) fn script_score(&self, a: &Action) -> Option<f64> {
        let Action::Script { name, .. } = a else {
            return None;
        };
        match self.v.script_action(name)?.def.ai.as_ref()? {
            crate::format::ActionAi::Worth(n) => Some(*n as f64),
            crate::format::ActionAi::Recruit { .. } => {
                let (_, c) = self.script_recruit(a)?;
                Some(1.0 + base_worth(self.v, c))
            }
        }
    }

    /// Whether a legion of the player's on `land` must move when it can
    /// (`rules.movement.must_move`).
    pub(super) fn must_move(&self, land: LandId) -> bool {
        let Some(rule) = &self.v.rules.movement.must_move else {
            return false;
        };
        let own_tower = self
            .obs
            .view
            .players
            .get(usize::from(self.me.0))
            .is_some_and(|p| p.tower == Some(land));
        !rule.exempts(&self.v.terrains[self.terrain(land).index()].name, own_tower)
    }

    /// How many of my legions (but `except`) stand on shared lands.
    fn on_shared(&self, except: Option<Marker>) -> usize {
        self.obs
            .view
            .legions
            .iter()
            .filter(|l| l.owner == self.me && Some(l.marker) != except && self.v.is_shared(l.land))
            .count()
    }

    /// `rules.movement.shared_limit` (none: as many as there are).
    fn shared_limit(&self) -> usize {
        self.v
            .rules
            .movement
            .shared_limit
            .map_or(usize::MAX, usize::from)
    }

    fn shares_land(&self, m: Marker) -> bool {
        let Some(l) = self.legion(m) else {
            return false;
        };
        self.obs
            .view
            .legions
            .iter()
            .any(|o| o.marker != m && o.owner == self.me && o.land == l.land && !o.moved)
    }

    /// Fleeing (defender) when the battle is more likely lost than won.
    fn flee_score(&self) -> f64 {
        let Some(e) = &self.obs.view.engagement else {
            return -1.0;
        };
        if !matches!(e.step, EngagementStep::DefenderChoice) {
            return -1.0;
        }
        let (Some(a), Some(d)) = (self.legions.get(&e.attacker), self.legions.get(&e.defender))
        else {
            return -1.0;
        };
        let p = self.win(a, d, e.land);
        let threshold = match self.style {
            Style::Simple => 0.75,
            Style::Strong => 0.8,
        };
        if p > threshold { 1.0 } else { -1.0 }
    }

    /// A split's worth: simple splits only a full legion, the weakest two
    /// off; strong weighs every split of two or three off a legion one short
    /// of full or full by the musters the parts could reach over the rolls
    /// to come (a chance node per roll), against the danger to the parts.
    pub(super) fn split_score(&self, legion: Marker, parts: &[Vec<CharacterId>]) -> Option<f64> {
        let l = self.legion(legion)?;
        let chars = l.characters.as_ref()?;
        let max = usize::from(self.v.rules.legions.max_size);
        // Full or short of full as the rules count a legion: its uncounted
        // characters aside.
        let size = self.v.legion_size(chars.iter().copied());
        let titan = self.v.rules.titan.character;
        let moved: usize = parts.iter().map(Vec::len).sum();
        match self.style {
            Style::Simple => {
                if size < max || parts.len() != 1 || moved != 2 || parts[0].contains(&titan) {
                    return None;
                }
                Some(1000.0 - parts[0].iter().map(|&c| base_worth(self.v, c)).sum::<f64>())
            }
            Style::Strong => {
                if size + 1 < max
                    || parts.len() != 1
                    || !(2..=3).contains(&moved)
                    || parts[0].contains(&titan)
                {
                    return None;
                }
                let power = |c: CharacterId| {
                    if c == titan {
                        self.obs.view.players[usize::from(self.me.0)].titan_power
                    } else {
                        self.v.character(c).power
                    }
                };
                let mut rest: Vec<CharacterId> = chars.clone();
                for c in &parts[0] {
                    let i = rest.iter().position(|x| x == c)?;
                    rest.remove(i);
                }
                let with = |x: &[CharacterId]| x.iter().map(|&c| (c, power(c))).collect::<Vec<_>>();
                let (whole, part, rest) = (with(chars), with(&parts[0]), with(&rest));
                let gain = self.expected_muster(&part, l.land)
                    + self.expected_muster(&rest, l.land)
                    - self.expected_muster(&whole, l.land);
                let risk = self.danger(&part, l.land, None) + self.danger(&rest, l.land, None)
                    - self.danger(&whole, l.land, None);
                let full = if size >= max { 20.0 } else { 0.0 };
                let score = gain - risk + full - SPLIT_COST;
                (score > 0.0).then_some(score)
            }
        }
    }

    /// The best muster a legion could reach from `land`, averaged over the
    /// rolls of the die (the turn's chance node).
    pub(super) fn expected_muster(&self, chars: &[(CharacterId, u8)], land: LandId) -> f64 {
        let occ = occupancy(self.obs, self.me);
        let die = self.v.rules.movement.die.max(1);
        let mut sum = 0.0;
        for roll in 1..=die {
            let best = self
                .obs
                .exits
                .moves(land, roll, &occ)
                .iter()
                .filter(|t| {
                    !self
                        .obs
                        .view
                        .legions
                        .iter()
                        .any(|l| l.land == t.land && l.owner != self.me)
                })
                .map(|t| self.best_muster(chars, t.land))
                .fold(0.0, f64::max);
            sum += best;
        }
        sum / f64::from(die)
    }
}

fn sample(pool: &[f64], total: f64, rng: &mut GameRng) -> CharacterId {
    let mut x = rng.unit() * total;
    for (i, &w) in pool.iter().enumerate() {
        if x < w {
            return CharacterId(i as u16);
        }
        x -= w;
    }
    CharacterId(pool.iter().rposition(|&w| w > 0.0).unwrap_or(0) as u16)
}

/// What stands where, as `player` would see it moving.
pub(super) fn occupancy(obs: &Observation, player: PlayerId) -> Vec<Occupancy> {
    let mut occ = vec![Occupancy::Empty; obs.variant.board.land_count()];
    // Under a treaty others' legions are passed and stood beside.
    let peace = obs.variant.at_peace(obs.view.turn);
    for l in obs
        .view
        .legions
        .iter()
        .filter(|l| !peace || l.owner == player)
    {
        let i = l.land.index();
        let mine = l.owner == player;
        occ[i] = match occ[i] {
            Occupancy::Empty => {
                if mine {
                    Occupancy::Friendly
                } else {
                    Occupancy::Enemy
                }
            }
            Occupancy::Friendly if !mine => Occupancy::Engaged,
            Occupancy::Enemy if mine => Occupancy::Engaged,
            o => o,
        };
    }
    occ
}

/// The best-scored legal action, or the fallback when none is scored.
pub fn choose(
    obs: &Observation,
    style: Style,
    rng: &mut GameRng,
) -> Result<Action, super::AiError> {
    best(&Board::new(obs, style, rng))
}

/// The legal action `board` scores best, or the fallback.
pub(super) fn best(board: &Board<'_>) -> Result<Action, super::AiError> {
    let obs = board.obs;
    let best = obs
        .legal
        .iter()
        .filter_map(|a| board.score(a).map(|s| (s, a)))
        .max_by(|x, y| x.0.total_cmp(&y.0));
    match best {
        Some((_, a)) => Ok(a.clone()),
        None => super::fallback(&obs.legal),
    }
}
