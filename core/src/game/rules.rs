//! The rules of masterplay: what may be done, and what it does.
//!
//! Sources, cited in the errors and the tests: the reference sheet of the
//! Avalon Hill game ("Setup", "Commencement", "Movement", "Movement Signs",
//! "Teleportation", "Engagement", "Enlistment", "Tower Lands", "Scoring
//! Battles", "Acquiring Angels", "Titans"), the 1982 Law of Titan excerpt, and
//! the 1981 Law of the Battlelands (23.A mulligan, 23.B seven-character
//! legions, 24.A Archangels). Everything a variant may change is read from
//! the compiled variant or asked of a Lua hook.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::*;
use crate::compile::script_limits;
use crate::lua::LuaHost;
use crate::model::ClassId;

mod refusal;

/// Which teleport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TeleportKind {
    /// From a tower, with a lord, to a vacant tower or a vacant land nearby.
    Tower,
    /// The Titan's legion onto an enemy legion.
    Titan,
}

const SETUP: &str = "reference sheet, Setup";
const COMMENCEMENT: &str = "reference sheet, Commencement";
const MOVEMENT: &str = "reference sheet, Movement";
const SIGNS: &str = "reference sheet, Movement Signs";
const MULLIGAN: &str = "Law of the Battlelands 23.A";
const TELEPORT: &str = "reference sheet, Teleportation";
const ENGAGEMENT: &str = "reference sheet, Engagement";
const ENLISTMENT: &str = "reference sheet, Enlistment";
const CARETAKER: &str = "Law of Titan 1982 5.0 (the caretaker's stacks)";
// The reference sheet section on summoning (its title names the summoned lord).
const SUMMON: &str = "reference sheet, summoning section; Law of the Battlelands 28.A";
const ACQUIRE: &str = "reference sheet, Acquiring Angels";
const TURN: &str = "reference sheet, A Game Turn";
const LEGIONS: &str = "reference sheet, Legions";

pub(super) fn hooks_for(variant: &Variant) -> Result<Option<Rc<Hooks>>, SetupError> {
    if variant.scripts.is_empty() {
        return Ok(None);
    }
    let rng = Rc::new(RefCell::new(GameRng::new(0)));
    let mut host = LuaHost::new(script_limits(&variant.data.rules), rng.clone())
        .map_err(|e| SetupError(e.to_string()))?;
    for s in &variant.scripts {
        host.load_script(s).map_err(|e| SetupError(e.to_string()))?;
    }
    Ok(Some(Rc::new(Hooks {
        host: Rc::new(host),
        rng,
        failure: RefCell::new(None),
    })))
}

/// Calls a hook point if a script registered it, with the game's generator
/// (so that a hook's dice are the game's dice). A failure is kept for
/// `Game::apply`, which refuses the action with it; meanwhile the caller
/// goes on with the data's answer.
fn call_hook<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
    game: &Game,
    name: &str,
    args: A,
) -> Option<R> {
    let hooks = game.hooks.as_ref()?;
    if !hooks.host.has_hook(name) {
        return None;
    }
    *hooks.rng.borrow_mut() = game.rng.clone();
    match hooks.host.call_hook(name, args) {
        Ok(r) => Some(r),
        Err(e) => {
            hooks.failure.borrow_mut().get_or_insert(e);
            None
        }
    }
}

pub(super) fn new_game(
    variant: Arc<Variant>,
    options: BTreeMap<String, OptionValue>,
    names: &[String],
    seed: u64,
) -> Result<(Game, Vec<Event>), SetupError> {
    let p = variant.players;
    if names.len() < p.min as usize || names.len() > p.max as usize {
        return Err(SetupError(format!(
            "{} needs {} to {} players, not {}",
            variant.title,
            p.min,
            p.max,
            names.len()
        )));
    }
    super::save::check_player_names(names).map_err(SetupError)?;
    super::check_options(&variant, &options).map_err(SetupError)?;
    let exits = Arc::new(Exits::new(&variant));
    let mut towers: Vec<LandId> = variant
        .board
        .lands()
        .filter(|&l| exits.is_tower(l))
        .collect();
    towers.sort_by_key(|&l| variant.board.land(l).number);
    if towers.len() < names.len() {
        return Err(SetupError(format!(
            "{} players but only {} towers",
            names.len(),
            towers.len()
        )));
    }
    let markers = variant.rules.legions.markers_per_player;
    let players = names
        .iter()
        .enumerate()
        .map(|(i, name)| Player {
            name: name.clone(),
            score: 0,
            alive: true,
            tower: None,
            markers: (1..=markers)
                .map(|n| Marker {
                    player: PlayerId(i as u8),
                    number: n,
                })
                .collect(),
            turns: 0,
        })
        .collect();
    let state = GameState {
        players,
        legions: Vec::new(),
        caretaker: variant.characters.iter().map(|c| c.count).collect(),
        turn: 0,
        active: PlayerId(0),
        phase: Phase::InitialSplit,
        roll: None,
        mulligan_used: false,
        teleports: 0,
        summoned: false,
        engagement: None,
        outcome: None,
        rng_seed: seed,
        rng_pos: 0,
    };
    let hooks = hooks_for(&variant)?;
    let mut game = Game {
        variant,
        options,
        state,
        exits,
        rng: GameRng::new(seed),
        hooks,
        start: super::save::Start::New {
            players: names.to_vec(),
            seed,
        },
        battle: None,
        history: Vec::new(),
    };
    // Setup 4 (Law of Titan 1982 5.1): each player rolls for a tower. Players
    // whose rolls tie, or whose roll gives a tower already assigned, roll
    // again; an assigned tower stands.
    let sides = towers.len() as u32;
    let mut rolls: Vec<Option<u8>> = vec![None; names.len()];
    let mut events = Vec::new();
    while rolls.iter().any(Option::is_none) {
        let this_round: Vec<(PlayerId, u8)> = (0..rolls.len())
            .filter(|&i| rolls[i].is_none())
            .map(|i| (PlayerId(i as u8), game.rng.roll(sides) as u8))
            .collect();
        events.push(Event::TowerRolls {
            rolls: this_round.clone(),
        });
        for &(p, roll) in &this_round {
            let taken = rolls.contains(&Some(roll));
            let tied = this_round.iter().any(|&(q, r)| q != p && r == roll);
            if !taken && !tied {
                rolls[p.0 as usize] = Some(roll);
            }
        }
    }
    for (i, r) in rolls.iter().enumerate() {
        let tower = towers[r.unwrap_or(1) as usize - 1];
        game.state.players[i].tower = Some(tower);
        events.push(Event::Placed {
            player: PlayerId(i as u8),
            tower,
        });
    }
    // Setup 5 (Law of Titan 1982 5.1): the player in the highest numbered
    // tower plays first.
    game.state.active = turn_order(&game)[0];
    game.state.rng_pos = game.rng.word_pos() as u64;
    Ok((game, events))
}

/// Players in turn order. The player in the highest numbered tower plays
/// first (Law of Titan 1982 5.1); play then goes clockwise around the table
/// (6.0), that is in the order the players were given (their seats). The
/// option `tower_order` plays by tower instead, highest number first.
pub(super) fn turn_order(game: &Game) -> Vec<PlayerId> {
    let mut order: Vec<PlayerId> = (0..game.state.players.len() as u8).map(PlayerId).collect();
    let number = |p: &PlayerId| {
        game.state.players[p.0 as usize]
            .tower
            .map_or(0, |t| game.variant.board.land(t).number)
    };
    if matches!(game.option("tower_order"), Some(OptionValue::Bool(true))) {
        order.sort_by_key(|p| std::cmp::Reverse(number(p)));
    } else if let Some(first) = order.iter().copied().max_by_key(|p| number(p)) {
        order.rotate_left(first.0 as usize);
    }
    order
}

pub(super) fn titan_power(game: &Game, player: PlayerId) -> u8 {
    let t = &game.variant.rules.titan;
    let score = game.state.players[player.0 as usize].score;
    if let Some(power) = call_hook::<_, u8>(game, hook::TITAN_POWER, (score, t.base_power)) {
        return power;
    }
    let steps = score / t.points_per_power.max(1);
    (u32::from(t.base_power) + steps).min(u32::from(u8::MAX)) as u8
}

pub(super) fn value(game: &Game, owner: PlayerId, c: CharacterId) -> u32 {
    let ch = game.variant.character(c);
    if c == game.variant.rules.titan.character {
        u32::from(titan_power(game, owner)) * u32::from(ch.skill)
    } else {
        ch.value
    }
}

fn class_of(game: &Game, c: CharacterId) -> ClassId {
    game.variant.character(c).class
}

fn has_lord(game: &Game, legion: &Legion) -> bool {
    legion
        .characters
        .iter()
        .any(|&c| game.variant.class(class_of(game, c)).tower_teleport)
}

fn may_flee(game: &Game, legion: &Legion) -> bool {
    !legion
        .characters
        .iter()
        .any(|&c| game.variant.class(class_of(game, c)).forbids_flight)
}

fn legion_index(game: &Game, marker: Marker) -> Option<usize> {
    game.state.legions.iter().position(|l| l.marker == marker)
}

fn owned_legion(game: &Game, player: PlayerId, marker: Marker) -> Result<usize, RuleError> {
    match legion_index(game, marker) {
        Some(i) if game.state.legions[i].owner == player => Ok(i),
        Some(_) => refuse(LEGIONS, format!("legion {marker} is not yours")),
        None => refuse(LEGIONS, format!("there is no legion {marker} on the board")),
    }
}

/// An action's name, for messages (its fields hold ids, not names).
fn action_name(a: &Action) -> String {
    let debug = format!("{a:?}");
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

fn step_name(step: &EngagementStep) -> &'static str {
    match step {
        EngagementStep::DefenderChoice => "the defender decides whether to flee",
        EngagementStep::Negotiate { .. } => "the engaged players negotiate",
        EngagementStep::Battle => "the battle is being fought",
        EngagementStep::After(_) => "the winner may summon, acquire or reinforce",
    }
}

/// Is `part` a sub-multiset of `whole` (both any order)?
fn contains_all(whole: &[CharacterId], part: &[CharacterId]) -> bool {
    let mut rest = whole.to_vec();
    for c in part {
        match rest.iter().position(|x| x == c) {
            Some(i) => {
                rest.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

fn remove_all(whole: &mut Vec<CharacterId>, part: &[CharacterId]) {
    for c in part {
        if let Some(i) = whole.iter().position(|x| x == c) {
            whole.remove(i);
        }
    }
}

fn sorted(mut v: Vec<CharacterId>) -> Vec<CharacterId> {
    v.sort_unstable();
    v
}

/// What stands where, seen by `player`.
pub(super) fn occupancy(game: &Game, player: PlayerId) -> Vec<Occupancy> {
    let mut occ = vec![Occupancy::Empty; game.variant.board.land_count()];
    let mut owners: Vec<Option<PlayerId>> = vec![None; occ.len()];
    for l in &game.state.legions {
        let i = l.land.index();
        occ[i] = match (occ[i], owners[i]) {
            (Occupancy::Empty, _) => {
                if l.owner == player {
                    Occupancy::Friendly
                } else {
                    Occupancy::Enemy
                }
            }
            (_, Some(o)) if o != l.owner => Occupancy::Engaged,
            (o, _) => o,
        };
        owners[i] = Some(l.owner);
    }
    occ
}

/// Lands holding legions of two players.
pub(super) fn engaged_lands(game: &Game) -> Vec<LandId> {
    let mut lands: Vec<LandId> = Vec::new();
    for (i, a) in game.state.legions.iter().enumerate() {
        for b in &game.state.legions[i + 1..] {
            if a.land == b.land && a.owner != b.owner && !lands.contains(&a.land) {
                lands.push(a.land);
            }
        }
    }
    lands.sort_unstable();
    lands
}

fn movement_roll_rule(game: &Game) -> bool {
    game.variant.rules.movement.chosen_distance
}

fn mulligan_allowed(game: &Game) -> bool {
    let rule = game.variant.rules.start.mulligan;
    match game.option("mulligan") {
        Some(OptionValue::Bool(b)) => *b && rule,
        _ => rule,
    }
}

/// Teleports a legion may make with the current roll.
fn teleports(game: &Game, legion: &Legion, occ: &[Occupancy]) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(roll) = game.state.roll else {
        return out;
    };
    let rules = &game.variant.rules.movement;
    if legion.moved || game.state.teleports >= rules.teleports_per_turn {
        return out;
    }
    let vacant = |l: LandId| occ[l.index()] == Occupancy::Empty;
    if let Some(tt) = &rules.tower_teleport
        && roll == tt.roll
        && game.exits.is_tower(legion.land)
        && has_lord(game, legion)
    {
        let mut targets: Vec<LandId> = game
            .variant
            .board
            .lands()
            .filter(|&l| game.exits.is_tower(l) && l != legion.land && vacant(l))
            .collect();
        targets.extend(
            game.exits
                .within(legion.land, tt.range)
                .into_iter()
                .filter(|&l| vacant(l)),
        );
        targets.sort_unstable();
        targets.dedup();
        let mut lords: Vec<CharacterId> = legion
            .characters
            .iter()
            .copied()
            .filter(|&c| game.variant.class(class_of(game, c)).tower_teleport)
            .collect();
        lords.dedup();
        for to in targets {
            for &lord in &lords {
                out.push(Action::Teleport {
                    legion: legion.marker,
                    to,
                    kind: TeleportKind::Tower,
                    lord,
                });
            }
        }
    }
    if let Some(tt) = &rules.titan_teleport {
        let titan = game.variant.rules.titan.character;
        let score = game.state.players[legion.owner.0 as usize].score;
        if roll == tt.roll && score >= tt.min_score && legion.characters.contains(&titan) {
            for l in game.variant.board.lands() {
                if occ[l.index()] == Occupancy::Enemy {
                    out.push(Action::Teleport {
                        legion: legion.marker,
                        to: l,
                        kind: TeleportKind::Titan,
                        lord: titan,
                    });
                }
            }
        }
    }
    out
}

fn normal_moves(game: &Game, legion: &Legion, occ: &[Occupancy]) -> Vec<MoveTarget> {
    match game.state.roll {
        Some(roll) if !legion.moved => game.exits.moves(legion.land, roll, occ),
        _ => Vec::new(),
    }
}

fn can_move(game: &Game, legion: &Legion, occ: &[Occupancy]) -> bool {
    !normal_moves(game, legion, occ).is_empty() || !teleports(game, legion, occ).is_empty()
}

/// Every way to divide `pool` into `groups` lists with the same number of
/// each class in each (the starting legions: "three Creatures and one Lord"
/// each). Sorted lists, no duplicates.
fn even_splits(game: &Game, pool: &[CharacterId], groups: usize) -> Vec<Vec<Vec<CharacterId>>> {
    if groups <= 1 {
        return vec![vec![sorted(pool.to_vec())]];
    }
    let mut per_class: BTreeMap<ClassId, usize> = BTreeMap::new();
    for &c in pool {
        *per_class.entry(class_of(game, c)).or_default() += 1;
    }
    if per_class.values().any(|n| n % groups != 0) {
        return Vec::new();
    }
    let want: BTreeMap<ClassId, usize> = per_class.iter().map(|(&k, &n)| (k, n / groups)).collect();
    let size: usize = want.values().sum();
    let mut firsts = Vec::new();
    sub_multisets(
        &sorted(pool.to_vec()),
        size,
        &mut Vec::new(),
        0,
        &mut firsts,
    );
    let mut out = Vec::new();
    for first in firsts {
        let mut counts: BTreeMap<ClassId, usize> = BTreeMap::new();
        for &c in &first {
            *counts.entry(class_of(game, c)).or_default() += 1;
        }
        if counts != want {
            continue;
        }
        let mut rest = pool.to_vec();
        remove_all(&mut rest, &first);
        for mut tail in even_splits(game, &rest, groups - 1) {
            let mut split = vec![first.clone()];
            split.append(&mut tail);
            let mut key = split.clone();
            key.sort();
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

/// Sub-multisets of a sorted list with `size` elements.
fn sub_multisets(
    pool: &[CharacterId],
    size: usize,
    current: &mut Vec<CharacterId>,
    from: usize,
    out: &mut Vec<Vec<CharacterId>>,
) {
    if current.len() == size {
        out.push(current.clone());
        return;
    }
    let mut i = from;
    while i < pool.len() {
        current.push(pool[i]);
        sub_multisets(pool, size, current, i + 1, out);
        current.pop();
        // Skip equal characters: multisets, not sequences.
        let c = pool[i];
        while i < pool.len() && pool[i] == c {
            i += 1;
        }
    }
}

/// The ways to split a legion: lists of new legions (the rest stays).
fn splits(game: &Game, legion: &Legion, markers: usize) -> Vec<Vec<Vec<CharacterId>>> {
    let rules = &game.variant.rules.legions;
    let min = rules.min_split_size as usize;
    let n = legion.height();
    let mut out = Vec::new();
    if markers == 0 || n < 2 * min {
        return out;
    }
    for size in min..=n - min {
        let mut parts = Vec::new();
        sub_multisets(&legion.characters, size, &mut Vec::new(), 0, &mut parts);
        for part in parts {
            out.push(vec![part.clone()]);
            if rules.max_split_parts >= 3 && markers >= 2 {
                let mut rest = legion.characters.clone();
                remove_all(&mut rest, &part);
                if rest.len() >= 2 * min {
                    for size2 in min..=rest.len() - min {
                        let mut seconds = Vec::new();
                        sub_multisets(&rest, size2, &mut Vec::new(), 0, &mut seconds);
                        for second in seconds {
                            // Each unordered pair of new legions once.
                            if (part.len(), &part) <= (second.len(), &second) {
                                out.push(vec![part.clone(), second]);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn muster_options(game: &Game, legion: &Legion) -> Vec<MusterOption> {
    let terrain = game.variant.board.land(legion.land).terrain;
    let mut judge = |h: crate::model::HookId, recruit: CharacterId, chars: &[CharacterId]| {
        let name = &game.variant.hooks[h.index()];
        let args: Vec<u16> = std::iter::once(recruit.0)
            .chain(chars.iter().map(|c| c.0))
            .collect();
        call_hook::<_, bool>(game, name, mlua::Variadic::from_iter(args)).unwrap_or(false)
    };
    muster::options(&game.variant, terrain, &legion.characters, &mut judge)
        .into_iter()
        .filter(|o| game.state.caretaker[o.recruit.index()] > 0)
        .collect()
}

/// The players who have a decision to make.
pub(super) fn to_act(game: &Game) -> Vec<PlayerId> {
    let s = &game.state;
    match s.phase {
        Phase::Over => Vec::new(),
        Phase::InitialSplit => vec![s.active],
        _ => match &s.engagement {
            Some(e) => {
                let owner = |m: Marker| game.legion(m).map(|l| l.owner);
                match &e.step {
                    EngagementStep::DefenderChoice => owner(e.defender).into_iter().collect(),
                    EngagementStep::Battle if game.battle.is_some() => {
                        let side = resume_battle(game).ok().flatten().map(|b| b.to_act());
                        match side {
                            Some(crate::battle::BattleSide::Attacker) => {
                                owner(e.attacker).into_iter().collect()
                            }
                            Some(crate::battle::BattleSide::Defender) => {
                                owner(e.defender).into_iter().collect()
                            }
                            None => Vec::new(),
                        }
                    }
                    EngagementStep::Negotiate { .. } | EngagementStep::Battle => owner(e.attacker)
                        .into_iter()
                        .chain(owner(e.defender))
                        .collect(),
                    EngagementStep::After(a) => owner(a.winner).into_iter().collect(),
                }
            }
            None => vec![s.active],
        },
    }
}

pub(super) fn legal_actions(game: &Game, player: PlayerId) -> Vec<Action> {
    let s = &game.state;
    let mut out = Vec::new();
    if s.phase == Phase::Over || !s.players.get(player.0 as usize).is_some_and(|p| p.alive) {
        return out;
    }
    if !to_act(game).contains(&player) {
        out.push(Action::ConcedeGame);
        return out;
    }
    match s.phase {
        Phase::Over => {}
        Phase::InitialSplit => {
            let pool = starting_characters(game);
            for legions in even_splits(game, &pool, game.variant.rules.start.legions as usize) {
                out.push(Action::InitialSplit { legions });
            }
        }
        Phase::Split => {
            let markers = s.players[player.0 as usize].markers.len();
            for l in s.legions.iter().filter(|l| l.owner == player) {
                if l.split_from.is_none()
                    && !s.legions.iter().any(|o| o.split_from == Some(l.marker))
                {
                    for parts in splits(game, l, markers) {
                        out.push(Action::Split {
                            legion: l.marker,
                            parts,
                        });
                    }
                }
            }
            out.push(Action::DoneSplitting);
        }
        Phase::Move => match s.roll {
            None => {
                if movement_roll_rule(game) {
                    for d in 1..=game.variant.rules.movement.die {
                        out.push(Action::Roll { distance: Some(d) });
                    }
                } else {
                    out.push(Action::Roll { distance: None });
                }
            }
            Some(_) => {
                let occ = occupancy(game, player);
                let mine: Vec<&Legion> = s.legions.iter().filter(|l| l.owner == player).collect();
                if mulligan_available(game) {
                    out.push(Action::Mulligan);
                }
                for l in &mine {
                    for t in normal_moves(game, l, &occ) {
                        out.push(Action::Move {
                            legion: l.marker,
                            to: t.land,
                            entered_from: t.entered_from,
                        });
                    }
                    out.extend(teleports(game, l, &occ));
                }
                if done_moving_check(game, player).is_ok() {
                    out.push(Action::DoneMoving);
                }
            }
        },
        Phase::Engage | Phase::Muster => {
            if let Some(e) = &s.engagement {
                engagement_actions(game, player, e, &mut out);
            } else if s.phase == Phase::Engage {
                for land in engaged_lands(game) {
                    out.push(Action::Engage { land });
                }
            } else {
                for l in s.legions.iter().filter(|l| l.owner == player) {
                    if l.moved
                        && !l.mustered
                        && l.height() < game.variant.rules.legions.max_size as usize
                    {
                        for o in muster_options(game, l) {
                            out.push(Action::Muster {
                                legion: l.marker,
                                recruit: o.recruit,
                                reveal: o.reveal,
                            });
                        }
                    }
                }
                out.push(Action::EndTurn);
            }
        }
    }
    out.push(Action::ConcedeGame);
    out
}

fn engagement_actions(game: &Game, player: PlayerId, e: &Engagement, out: &mut Vec<Action>) {
    if let EngagementStep::After(a) = &e.step {
        after_actions(game, a, out);
        return;
    }
    let (Some(att), Some(def)) = (game.legion(e.attacker), game.legion(e.defender)) else {
        return;
    };
    match &e.step {
        EngagementStep::DefenderChoice => {
            if may_flee(game, def) {
                out.push(Action::Flee);
            }
            out.push(Action::Stand);
        }
        EngagementStep::Negotiate { proposal } => {
            out.push(Action::Concede);
            out.push(Action::Fight);
            // The simplest agreements: one side gives up its whole legion.
            if proposal.is_none() {
                out.push(Action::Propose {
                    attacker_losses: att.characters.clone(),
                    defender_losses: Vec::new(),
                });
                out.push(Action::Propose {
                    attacker_losses: Vec::new(),
                    defender_losses: def.characters.clone(),
                });
            }
            if let Some(p) = proposal
                && p.by != player
            {
                out.push(Action::Accept);
                out.push(Action::Reject);
            }
        }
        EngagementStep::Battle => match resume_battle(game).ok().flatten() {
            Some(battle) => {
                let actions = battle.legal_actions();
                // Reference sheet, Engagement: a player may concede the
                // engagement at any time, his own side only; not while
                // carry-over hits wait (the battle engine refuses it then).
                let side = battle.to_act();
                let concede = !actions.is_empty() && battle.view(side).carry.is_none();
                for a in actions {
                    out.push(Action::Battle { battle: a });
                }
                if concede {
                    out.push(Action::Battle {
                        battle: crate::battle::Action::Concede(side),
                    });
                }
            }
            None => out.push(Action::Concede),
        },
        EngagementStep::After(_) => {}
    }
}

fn after_actions(game: &Game, a: &After, out: &mut Vec<Action>) {
    let Some(winner) = game.legion(a.winner) else {
        out.push(Action::DoneAfter);
        return;
    };
    let room = winner.height() < game.variant.rules.legions.max_size as usize;
    if room && a.summon {
        for (from, c) in summonable(game, winner) {
            out.push(Action::Summon { from, character: c });
        }
    }
    if room && let Some(&threshold) = a.acquisitions.first() {
        for c in acquirable(game, threshold) {
            out.push(Action::Acquire { character: c });
        }
    }
    if room && a.reinforce && !winner.mustered {
        for o in muster_options(game, winner) {
            out.push(Action::Reinforce {
                recruit: o.recruit,
                reveal: o.reveal,
            });
        }
    }
    out.push(Action::DoneAfter);
}

/// Characters that may be summoned into `winner` from the player's other
/// legions not in an unresolved engagement (reference sheet, "Summon Angel").
fn summonable(game: &Game, winner: &Legion) -> Vec<(Marker, CharacterId)> {
    let engaged = engaged_lands(game);
    let mut out = Vec::new();
    if game.state.summoned {
        // "One Angel may be summoned per Engagement Phase."
        return out;
    }
    for l in &game.state.legions {
        if l.owner != winner.owner || l.marker == winner.marker || engaged.contains(&l.land) {
            continue;
        }
        let mut kinds: Vec<CharacterId> = l
            .characters
            .iter()
            .copied()
            .filter(|&c| game.variant.character(c).summonable)
            .collect();
        kinds.dedup();
        for c in kinds {
            out.push((l.marker, c));
        }
    }
    out
}

/// What may be acquired for reaching `threshold`: every acquirable whose step
/// divides it and which the caretaker has (Law of the Battlelands 24.A: an
/// Archangel in the stead of an Angel, or an Angel if none is left).
fn acquirable(game: &Game, threshold: u32) -> Vec<CharacterId> {
    game.variant
        .rules
        .scoring
        .acquire
        .iter()
        .filter(|&&(c, every)| {
            threshold.is_multiple_of(every) && game.state.caretaker[c.index()] > 0
        })
        .map(|&(c, _)| c)
        .collect()
}

fn starting_characters(game: &Game) -> Vec<CharacterId> {
    let mut pool = Vec::new();
    for &(c, n) in &game.variant.rules.start.characters {
        pool.extend(std::iter::repeat_n(c, n as usize));
    }
    sorted(pool)
}

fn mulligan_available(game: &Game) -> bool {
    let s = &game.state;
    s.roll.is_some()
        && !s.mulligan_used
        && s.players[s.active.0 as usize].turns == 1
        && mulligan_allowed(game)
        && !s.legions.iter().any(|l| l.owner == s.active && l.moved)
}

/// May the mover end the movement phase now?
fn done_moving_check(game: &Game, player: PlayerId) -> Result<(), RuleError> {
    let s = &game.state;
    if s.roll.is_none() {
        return refuse(MOVEMENT, "roll for movement first");
    }
    let occ = occupancy(game, player);
    let mine: Vec<&Legion> = s.legions.iter().filter(|l| l.owner == player).collect();
    if !mine.iter().any(|l| l.moved) && mine.iter().any(|l| can_move(game, l, &occ)) {
        return refuse(MOVEMENT, "you must move at least one legion");
    }
    for l in &mine {
        let together = mine
            .iter()
            .any(|o| o.marker != l.marker && o.land == l.land);
        if together && !l.moved && can_move(game, l, &occ) {
            return refuse(
                COMMENCEMENT,
                format!(
                    "legion {} shares its land with a legion it split from and can still move: split legions must end in different lands if possible",
                    l.marker
                ),
            );
        }
    }
    Ok(())
}

pub(super) fn apply(
    game: &mut Game,
    player: PlayerId,
    action: &Action,
) -> Result<Vec<Event>, RuleError> {
    let s = &game.state;
    if s.phase == Phase::Over {
        return refuse(TURN, "the game is over");
    }
    if !s.players.get(player.0 as usize).is_some_and(|p| p.alive) {
        return refuse(TURN, "you are not in the game");
    }
    if let Action::ConcedeGame = action {
        let mut events = Vec::new();
        eliminate_player(game, player, None, &mut events);
        after_elimination(game, &mut events);
        return Ok(events);
    }
    if !to_act(game).contains(&player) {
        return refuse(
            TURN,
            format!(
                "it is not {}'s decision now",
                s.players[player.0 as usize].name
            ),
        );
    }
    let mut events = Vec::new();
    match (s.phase, action) {
        (Phase::InitialSplit, Action::InitialSplit { legions }) => {
            initial_split(game, player, legions, &mut events)?
        }
        (Phase::Split, Action::Split { legion, parts }) => {
            split(game, player, *legion, parts, &mut events)?
        }
        (Phase::Split, Action::DoneSplitting) => game.state.phase = Phase::Move,
        (Phase::Move, Action::Roll { distance }) => roll(game, player, *distance, &mut events)?,
        (Phase::Move, Action::Mulligan) => {
            if !mulligan_available(game) {
                return refuse(
                    MULLIGAN,
                    "a mulligan is allowed once, on a player's very first turn, before moving",
                );
            }
            game.state.mulligan_used = true;
            game.state.roll = None;
            roll(game, player, None, &mut events)?;
        }
        (
            Phase::Move,
            Action::Move {
                legion,
                to,
                entered_from,
            },
        ) => move_legion(game, player, *legion, *to, *entered_from, &mut events)?,
        (
            Phase::Move,
            Action::Teleport {
                legion,
                to,
                kind,
                lord,
            },
        ) => teleport(game, player, *legion, *to, *kind, *lord, &mut events)?,
        (Phase::Move, Action::DoneMoving) => done_moving(game, player, &mut events)?,
        (Phase::Engage, _) | (Phase::Muster, _) if game.state.engagement.is_some() => {
            engagement_step(game, player, action, &mut events)?
        }
        (Phase::Engage, Action::Engage { land }) => engage(game, player, *land, &mut events)?,
        (
            Phase::Muster,
            Action::Muster {
                legion,
                recruit,
                reveal,
            },
        ) => muster(game, player, *legion, *recruit, reveal, &mut events)?,
        (Phase::Muster, Action::EndTurn) => end_turn(game, &mut events),
        (phase, action) => {
            return refuse(
                TURN,
                format!(
                    "{} cannot be done in the {phase:?} phase",
                    action_name(action)
                ),
            );
        }
    }
    Ok(events)
}

fn new_legion(
    game: &mut Game,
    owner: PlayerId,
    land: LandId,
    characters: Vec<CharacterId>,
) -> Option<Marker> {
    let p = &mut game.state.players[owner.0 as usize];
    if p.markers.is_empty() {
        return None;
    }
    let marker = p.markers.remove(0);
    let legion = Legion {
        marker,
        owner,
        land,
        characters: sorted(characters),
        moved: false,
        entered_from: None,
        mustered: false,
        split_from: None,
        revealed: Vec::new(),
        seen_by: 0,
    };
    let at = game.state.legions.partition_point(|l| l.marker < marker);
    game.state.legions.insert(at, legion);
    Some(marker)
}

fn initial_split(
    game: &mut Game,
    player: PlayerId,
    legions: &[Vec<CharacterId>],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let want = game.variant.rules.start.legions as usize;
    let splits = even_splits(game, &starting_characters(game), want);
    let mut key: Vec<Vec<CharacterId>> = legions.iter().map(|l| sorted(l.clone())).collect();
    key.sort();
    if !splits.contains(&key) {
        return refuse(
            SETUP,
            format!(
                "divide the starting characters into {want} legions with the same number of each class in each (one lord and three creatures each)"
            ),
        );
    }
    let tower = game.state.players[player.0 as usize]
        .tower
        .ok_or_else(|| RuleError {
            rule: SETUP,
            message: "you have no tower".into(),
        })?;
    // The starting legions count as split from the first: they must part on
    // the first turn if they can.
    let mut first = None;
    for chars in legions {
        for &c in chars {
            game.state.caretaker[c.index()] = game.state.caretaker[c.index()].saturating_sub(1);
        }
        let height = chars.len();
        if let Some(m) = new_legion(game, player, tower, chars.clone()) {
            match first {
                None => first = Some(m),
                Some(f) => {
                    if let Some(j) = legion_index(game, m) {
                        game.state.legions[j].split_from = Some(f);
                    }
                }
            }
            events.push(Event::LegionFormed {
                legion: m,
                land: tower,
                height,
            });
        }
    }
    // The next player to divide, or the first turn.
    let order = turn_order(game);
    let next = order
        .iter()
        .copied()
        .find(|p| !game.state.legions.iter().any(|l| l.owner == *p));
    match next {
        Some(p) => game.state.active = p,
        None => {
            game.state.turn = 1;
            begin_turn(game, order[0], events);
        }
    }
    Ok(())
}

fn begin_turn(game: &mut Game, player: PlayerId, events: &mut Vec<Event>) {
    let s = &mut game.state;
    s.active = player;
    s.roll = None;
    s.mulligan_used = false;
    s.teleports = 0;
    s.summoned = false;
    s.engagement = None;
    s.players[player.0 as usize].turns += 1;
    for l in s.legions.iter_mut().filter(|l| l.owner == player) {
        l.moved = false;
        l.entered_from = None;
        l.mustered = false;
    }
    let first_turn = s.players[player.0 as usize].turns == 1;
    s.phase = if first_turn && game.variant.rules.start.no_split_first_turn {
        Phase::Move
    } else {
        Phase::Split
    };
    events.push(Event::TurnBegins {
        player,
        turn: s.turn,
    });
}

fn split(
    game: &mut Game,
    player: PlayerId,
    marker: Marker,
    parts: &[Vec<CharacterId>],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = owned_legion(game, player, marker)?;
    let legion = &game.state.legions[i];
    if legion.split_from.is_some()
        || game
            .state
            .legions
            .iter()
            .any(|o| o.split_from == Some(marker))
    {
        return refuse(
            COMMENCEMENT,
            format!("legion {marker} has already split this turn"),
        );
    }
    let rules = &game.variant.rules.legions;
    let min = rules.min_split_size as usize;
    if parts.is_empty() || parts.len() + 1 > rules.max_split_parts as usize {
        return refuse(
            COMMENCEMENT,
            format!(
                "a legion splits into two or up to {} legions",
                rules.max_split_parts
            ),
        );
    }
    let all: Vec<CharacterId> = parts.iter().flatten().copied().collect();
    if !contains_all(&legion.characters, &all) {
        return refuse(
            COMMENCEMENT,
            format!("legion {marker} does not hold those characters"),
        );
    }
    let left = legion.height() - all.len();
    if left < min || parts.iter().any(|p| p.len() < min) {
        return refuse(
            COMMENCEMENT,
            format!("each part of a split needs at least {min} characters"),
        );
    }
    if game.state.players[player.0 as usize].markers.len() < parts.len() {
        return refuse(
            COMMENCEMENT,
            "you have no legion marker left for the new legion",
        );
    }
    let land = legion.land;
    let mut into = Vec::new();
    {
        let l = &mut game.state.legions[i];
        remove_all(&mut l.characters, &all);
        // Nobody knows any more which part holds what.
        l.revealed.clear();
        l.seen_by = 0;
    }
    for p in parts {
        if let Some(m) = new_legion(game, player, land, p.clone()) {
            if let Some(j) = legion_index(game, m) {
                game.state.legions[j].split_from = Some(marker);
            }
            into.push(m);
        }
    }
    events.push(Event::Split {
        legion: marker,
        into,
    });
    Ok(())
}

fn roll(
    game: &mut Game,
    player: PlayerId,
    distance: Option<u8>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if game.state.roll.is_some() {
        return refuse(MOVEMENT, "the movement roll is made already");
    }
    let die = game.variant.rules.movement.die;
    let r = if movement_roll_rule(game) {
        match distance {
            Some(d) if (1..=die).contains(&d) => d,
            _ => return refuse(MOVEMENT, format!("choose a distance from 1 to {die}")),
        }
    } else {
        if distance.is_some() {
            return refuse(
                MOVEMENT,
                "the distance is rolled, not chosen, in this variant",
            );
        }
        game.rng.roll(u32::from(die)) as u8
    };
    game.state.roll = Some(r);
    events.push(Event::Rolled { player, roll: r });
    Ok(())
}

fn move_legion(
    game: &mut Game,
    player: PlayerId,
    marker: Marker,
    to: LandId,
    from: LandId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = owned_legion(game, player, marker)?;
    let legion = &game.state.legions[i];
    if legion.moved {
        return refuse(
            MOVEMENT,
            format!("legion {marker} has moved already this turn"),
        );
    }
    if game.state.roll.is_none() {
        return refuse(MOVEMENT, "roll for movement first");
    }
    let occ = occupancy(game, player);
    let targets = normal_moves(game, legion, &occ);
    let target = MoveTarget {
        land: to,
        entered_from: from,
    };
    if !targets.contains(&target) {
        return Err(refusal::why_not_move(game, legion, to, from, &occ));
    }
    let start = legion.land;
    let l = &mut game.state.legions[i];
    l.land = to;
    l.moved = true;
    l.entered_from = Some(from);
    events.push(Event::Moved {
        legion: marker,
        from: start,
        to,
    });
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn teleport(
    game: &mut Game,
    player: PlayerId,
    marker: Marker,
    to: LandId,
    kind: TeleportKind,
    lord: CharacterId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = owned_legion(game, player, marker)?;
    let occ = occupancy(game, player);
    let wanted = Action::Teleport {
        legion: marker,
        to,
        kind,
        lord,
    };
    if !teleports(game, &game.state.legions[i], &occ).contains(&wanted) {
        let l = &game.state.legions[i];
        return Err(refusal::why_not_teleport(game, l, to, kind, lord, &occ));
    }
    let from = game.state.legions[i].land;
    game.state.teleports += 1;
    let l = &mut game.state.legions[i];
    l.land = to;
    l.moved = true;
    l.entered_from = None;
    // Teleportation: "The Mover must reveal the identity of the Lord".
    l.revealed = merge_revealed(&l.revealed, &[lord]);
    events.push(Event::Teleported {
        legion: marker,
        from,
        to,
    });
    events.push(Event::Revealed {
        legion: marker,
        characters: vec![lord],
        to: None,
    });
    Ok(())
}

/// The revealed multiset grown by `shown`, keeping counts no larger than
/// what was shown at once.
fn merge_revealed(revealed: &[CharacterId], shown: &[CharacterId]) -> Vec<CharacterId> {
    let mut out = revealed.to_vec();
    let mut kinds = shown.to_vec();
    kinds.sort_unstable();
    kinds.dedup();
    for k in kinds {
        let need = shown.iter().filter(|&&c| c == k).count();
        let have = out.iter().filter(|&&c| c == k).count();
        out.extend(std::iter::repeat_n(k, need.saturating_sub(have)));
    }
    sorted(out)
}

fn done_moving(
    game: &mut Game,
    player: PlayerId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    done_moving_check(game, player)?;
    // Split legions that could not part recombine (reference sheet, Commencement):
    // all of the player's legions in one land join the one they split from.
    loop {
        let pair = {
            let mine: Vec<&Legion> = game
                .state
                .legions
                .iter()
                .filter(|l| l.owner == player)
                .collect();
            mine.iter().find_map(|a| {
                mine.iter()
                    .find(|b| {
                        b.marker != a.marker
                            && b.land == a.land
                            && b.split_from.is_some()
                            && a.split_from != Some(b.marker)
                    })
                    .map(|b| (a.marker, b.marker))
            })
        };
        let Some((keep, gone)) = pair else { break };
        let Some(j) = legion_index(game, gone) else {
            break;
        };
        let removed = game.state.legions.remove(j);
        game.state.players[player.0 as usize]
            .markers
            .push(removed.marker);
        game.state.players[player.0 as usize]
            .markers
            .sort_unstable();
        if let Some(k) = legion_index(game, keep) {
            let l = &mut game.state.legions[k];
            l.characters = sorted([l.characters.clone(), removed.characters].concat());
            l.revealed.clear();
            l.seen_by = 0;
        }
        events.push(Event::Recombined {
            legion: keep,
            with: gone,
        });
    }
    for l in game.state.legions.iter_mut().filter(|l| l.owner == player) {
        l.split_from = None;
    }
    game.state.phase = Phase::Engage;
    if engaged_lands(game).is_empty() {
        game.state.phase = Phase::Muster;
    }
    Ok(())
}

fn engage(
    game: &mut Game,
    player: PlayerId,
    land: LandId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if !engaged_lands(game).contains(&land) {
        return refuse(ENGAGEMENT, "there is no engagement in that land");
    }
    let here: Vec<&Legion> = game.legions_in(land).collect();
    let (Some(att), Some(def)) = (
        here.iter().find(|l| l.owner == player),
        here.iter().find(|l| l.owner != player),
    ) else {
        return refuse(ENGAGEMENT, "no legion of yours is engaged there");
    };
    let (a, d) = (att.marker, def.marker);
    let (ao, dow) = (att.owner, def.owner);
    let step = if may_flee(game, def) {
        EngagementStep::DefenderChoice
    } else {
        EngagementStep::Negotiate { proposal: None }
    };
    game.state.engagement = Some(Engagement {
        land,
        attacker: a,
        defender: d,
        step,
    });
    events.push(Event::EngagementBegins {
        land,
        attacker: a,
        defender: d,
    });
    // "At the start of an Engagement, each player secretly examines the
    // characters in the opposing Legion."
    for (m, viewer) in [(a, dow), (d, ao)] {
        if let Some(i) = legion_index(game, m) {
            game.state.legions[i].seen_by |= 1 << viewer.0;
            let characters = game.state.legions[i].characters.clone();
            events.push(Event::Revealed {
                legion: m,
                characters,
                to: Some(viewer),
            });
        }
    }
    Ok(())
}

fn engagement_step(
    game: &mut Game,
    player: PlayerId,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Some(e) = game.state.engagement.clone() else {
        return refuse(ENGAGEMENT, "no engagement is being resolved");
    };
    let att_owner = game.legion(e.attacker).map(|l| l.owner);
    let def_owner = game.legion(e.defender).map(|l| l.owner);
    let is_att = att_owner == Some(player);
    match (&e.step, action) {
        (EngagementStep::DefenderChoice, Action::Flee) => {
            let Some(def) = game.legion(e.defender) else {
                return refuse(ENGAGEMENT, "the defender is gone");
            };
            if !may_flee(game, def) {
                return Err(refusal::why_not_flee(game, def));
            }
            let chars = def.characters.clone();
            let (num, den) = game.variant.rules.scoring.flee_fraction;
            let attacker = att_owner.unwrap_or(player);
            let full: u32 = chars.iter().map(|&c| value(game, def.owner, c)).sum();
            let points = full * num / den.max(1);
            events.push(Event::Fled { legion: e.defender });
            let mut deaths = Deaths::new();
            slay(
                game,
                e.defender,
                &chars,
                Some(attacker),
                &mut deaths,
                events,
            );
            let thresholds = score(game, attacker, points, events);
            finish_engagement(game, e.attacker, false, thresholds, false, events);
            bury(game, deaths, events);
        }
        (EngagementStep::DefenderChoice, Action::Stand) => {
            set_step(game, EngagementStep::Negotiate { proposal: None });
        }
        (EngagementStep::Battle, Action::Concede) if game.battle.is_some() => {
            // The battle engine accounts for what entered the battle.
            return refuse(
                ENGAGEMENT,
                "a battle is being fought: concede it with the battle action Concede of your side",
            );
        }
        (EngagementStep::Negotiate { .. } | EngagementStep::Battle, Action::Concede) => {
            let (loser, winner) = if is_att {
                (e.attacker, e.defender)
            } else {
                (e.defender, e.attacker)
            };
            let winner_owner = if is_att { def_owner } else { att_owner };
            let Some(l) = game.legion(loser) else {
                return refuse(ENGAGEMENT, "that legion is gone");
            };
            let chars = l.characters.clone();
            let points: u32 = chars.iter().map(|&c| value(game, player, c)).sum();
            events.push(Event::Conceded { legion: loser });
            let mut deaths = Deaths::new();
            slay(game, loser, &chars, winner_owner, &mut deaths, events);
            let thresholds = match winner_owner {
                Some(w) => score(game, w, points, events),
                None => Vec::new(),
            };
            let in_battle = e.step == EngagementStep::Battle;
            // The attacker may summon after winning by concession; the
            // defender may muster only if the battle had begun.
            finish_engagement(
                game,
                winner,
                !is_att,
                thresholds,
                is_att && in_battle,
                events,
            );
            bury(game, deaths, events);
        }
        (
            EngagementStep::Negotiate { .. },
            Action::Propose {
                attacker_losses,
                defender_losses,
            },
        ) => {
            let (Some(att), Some(def)) = (game.legion(e.attacker), game.legion(e.defender)) else {
                return refuse(ENGAGEMENT, "a legion of the engagement is gone");
            };
            if !contains_all(&att.characters, attacker_losses)
                || !contains_all(&def.characters, defender_losses)
            {
                return refuse(
                    ENGAGEMENT,
                    "an agreement can only eliminate characters present in the engaged legions",
                );
            }
            if attacker_losses.len() < att.height() && defender_losses.len() < def.height() {
                return refuse(
                    ENGAGEMENT,
                    "an agreement must eliminate at least one of the engaged legions",
                );
            }
            set_step(
                game,
                EngagementStep::Negotiate {
                    proposal: Some(Proposal {
                        by: player,
                        attacker_losses: sorted(attacker_losses.clone()),
                        defender_losses: sorted(defender_losses.clone()),
                    }),
                },
            );
            events.push(Event::Proposed { by: player });
        }
        (EngagementStep::Negotiate { proposal: Some(p) }, Action::Reject) if p.by != player => {
            set_step(game, EngagementStep::Negotiate { proposal: None });
            events.push(Event::Rejected { by: player });
        }
        (EngagementStep::Negotiate { proposal: Some(p) }, Action::Accept) if p.by != player => {
            let p = p.clone();
            agreement(game, &e, &p, events);
        }
        (EngagementStep::Negotiate { .. }, Action::Fight) => {
            // "Either player may demand that the battle be played out."
            set_step(game, EngagementStep::Battle);
            start_battle(game)?;
            events.push(Event::BattleBegins { land: e.land });
        }
        (EngagementStep::Battle, Action::Battle { battle: a }) => {
            battle_action(game, player, &e, a, events)?;
        }
        (EngagementStep::After(a), _) => after_step(game, player, &e, a, action, events)?,
        (EngagementStep::Negotiate { .. }, Action::Flee)
            if game.legion(e.defender).is_some_and(|d| !may_flee(game, d)) =>
        {
            let def = game.legion(e.defender).expect("checked");
            return Err(refusal::why_not_flee(game, def));
        }
        (step, action) => {
            return refuse(
                ENGAGEMENT,
                format!(
                    "{} is not possible now ({})",
                    action_name(action),
                    step_name(step)
                ),
            );
        }
    }
    Ok(())
}

fn set_step(game: &mut Game, step: EngagementStep) {
    if let Some(e) = game.state.engagement.as_mut() {
        e.step = step;
    }
}

fn agreement(game: &mut Game, e: &Engagement, p: &Proposal, events: &mut Vec<Event>) {
    let (Some(att), Some(def)) = (game.legion(e.attacker), game.legion(e.defender)) else {
        return;
    };
    let att_all = p.attacker_losses.len() == att.height();
    let def_all = p.defender_losses.len() == def.height();
    let (ao, dow) = (att.owner, def.owner);
    // "Agreements can't involve the awarding of more or less points": the
    // winner scores the eliminated legion; mutual elimination scores nothing.
    let points = |g: &Game, owner: PlayerId, chars: &[CharacterId]| -> u32 {
        chars.iter().map(|&c| value(g, owner, c)).sum()
    };
    let att_points = points(game, ao, &p.attacker_losses);
    let def_points = points(game, dow, &p.defender_losses);
    let mut deaths = Deaths::new();
    slay(
        game,
        e.attacker,
        &p.attacker_losses,
        Some(dow),
        &mut deaths,
        events,
    );
    slay(
        game,
        e.defender,
        &p.defender_losses,
        Some(ao),
        &mut deaths,
        events,
    );
    let (winner, points, summon, reinforce) = match (att_all, def_all) {
        (false, true) => (Some((e.attacker, ao)), def_points, true, false),
        (true, false) => (Some((e.defender, dow)), att_points, false, true),
        _ => (None, 0, false, false),
    };
    conclude(game, winner, points, summon, reinforce, deaths, events);
}

/// The end of an engagement: the winner (legion and player), if any, scores
/// `points`, may then summon, acquire or reinforce, and the players whose
/// Titans fell leave the game.
fn conclude(
    game: &mut Game,
    winner: Option<(Marker, PlayerId)>,
    points: u32,
    summon: bool,
    reinforce: bool,
    deaths: Deaths,
    events: &mut Vec<Event>,
) {
    let thresholds = match winner {
        Some((_, owner)) => score(game, owner, points, events),
        None => Vec::new(),
    };
    match winner {
        Some((legion, _)) => finish_engagement(game, legion, summon, thresholds, reinforce, events),
        None => end_engagement(game, events),
    }
    bury(game, deaths, events);
}

fn battle_result(
    game: &mut Game,
    e: &Engagement,
    r: &BattleOutcome,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let (Some(att), Some(def)) = (game.legion(e.attacker), game.legion(e.defender)) else {
        return refuse(ENGAGEMENT, "a legion of the engagement is gone");
    };
    let mut attacker_chars = att.characters.clone();
    if let Some((from, c)) = r.summoned {
        if !game.legion(from).is_some_and(|l| l.characters.contains(&c)) {
            return refuse(SUMMON, "the summoned character is not in that legion");
        }
        attacker_chars.push(c);
    }
    let mut defender_chars = def.characters.clone();
    defender_chars.extend(r.reinforced);
    if !contains_all(&attacker_chars, &r.attacker_slain)
        || !contains_all(&defender_chars, &r.defender_slain)
    {
        return refuse(
            ENGAGEMENT,
            "the battle result names characters that were not in the battle",
        );
    }
    let att_out = [r.attacker_slain.clone(), r.attacker_removed.clone()].concat();
    let def_out = [r.defender_slain.clone(), r.defender_removed.clone()].concat();
    if !contains_all(&attacker_chars, &att_out) || !contains_all(&defender_chars, &def_out) {
        return refuse(
            ENGAGEMENT,
            "the battle result names characters that were not in the battle",
        );
    }
    let att_gone = r.time_loss || att_out.len() == attacker_chars.len();
    let def_gone = def_out.len() == defender_chars.len();
    if !att_gone && !def_gone {
        return refuse(
            "Law of the Battlelands 25.F",
            "a battle ends when at least one legion is eliminated",
        );
    }
    let (ao, dow) = (att.owner, def.owner);
    if let Some((from, c)) = r.summoned {
        move_character(game, from, e.attacker, c, events);
        game.state.summoned = true;
    }
    if let Some(c) = r.reinforced {
        add_from_caretaker(game, e.defender, c);
        if let Some(i) = legion_index(game, e.defender) {
            game.state.legions[i].mustered = true;
        }
        events.push(Event::Mustered {
            legion: e.defender,
            character: c,
        });
    }
    let att_value: u32 = r.attacker_slain.iter().map(|&c| value(game, ao, c)).sum();
    let def_value: u32 = r.defender_slain.iter().map(|&c| value(game, dow, c)).sum();
    let survivors_att: Vec<CharacterId> = {
        let mut v = attacker_chars.clone();
        remove_all(&mut v, &r.attacker_slain);
        v
    };
    let mut deaths = Deaths::new();
    slay(
        game,
        e.attacker,
        &r.attacker_slain,
        Some(dow),
        &mut deaths,
        events,
    );
    slay(
        game,
        e.defender,
        &r.defender_slain,
        Some(ao),
        &mut deaths,
        events,
    );
    // Removed without being scored (a slain Titan's legion-mates).
    slay(
        game,
        e.attacker,
        &r.attacker_removed,
        None,
        &mut deaths,
        events,
    );
    slay(
        game,
        e.defender,
        &r.defender_removed,
        None,
        &mut deaths,
        events,
    );
    let survivors_att: Vec<CharacterId> = {
        let mut v = survivors_att;
        remove_all(&mut v, &r.attacker_removed);
        v
    };
    if r.time_loss && !survivors_att.is_empty() {
        slay(game, e.attacker, &survivors_att, None, &mut deaths, events);
    }
    let (winner, points, summon, reinforce) = match (att_gone, def_gone) {
        (false, true) => (
            Some((e.attacker, ao)),
            def_value,
            r.summoned.is_none(),
            false,
        ),
        (true, false) => {
            let points = if r.time_loss { 0 } else { att_value };
            (
                Some((e.defender, dow)),
                points,
                false,
                r.reinforced.is_none(),
            )
        }
        _ => (None, 0, false, false),
    };
    conclude(game, winner, points, summon, reinforce, deaths, events);
    Ok(())
}

fn after_step(
    game: &mut Game,
    player: PlayerId,
    e: &Engagement,
    a: &After,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Some(winner) = game.legion(a.winner) else {
        end_engagement(game, events);
        return Ok(());
    };
    if winner.owner != player {
        return refuse(ENGAGEMENT, "only the winner decides now");
    }
    let room = winner.height() < game.variant.rules.legions.max_size as usize;
    let mut next = a.clone();
    match action {
        Action::Summon { from, character } => {
            if !a.summon {
                return refuse(
                    SUMMON,
                    "only a victorious attacker may summon, once, and not after the defender fled",
                );
            }
            if !room {
                return refuse(SUMMON, "a 7-character legion may not summon");
            }
            if !summonable(game, winner).contains(&(*from, *character)) {
                return refuse(SUMMON, "that character cannot be summoned from that legion");
            }
            move_character(game, *from, a.winner, *character, events);
            game.state.summoned = true;
            next.summon = false;
        }
        Action::Acquire { character } => {
            let Some(&threshold) = a.acquisitions.first() else {
                return refuse(ACQUIRE, "no score threshold is waiting for an acquisition");
            };
            if !room {
                return refuse(ACQUIRE, "the legion has 7 characters");
            }
            if !acquirable(game, threshold).contains(character) {
                return refuse(
                    ACQUIRE,
                    format!("that character cannot be acquired for reaching {threshold}"),
                );
            }
            add_from_caretaker(game, a.winner, *character);
            events.push(Event::Acquired {
                legion: a.winner,
                character: *character,
            });
            next.acquisitions.remove(0);
        }
        Action::Reinforce { recruit, reveal } => {
            if !a.reinforce || winner.mustered {
                return refuse(
                    "reference sheet, Reinforcement",
                    "no reinforcement may be mustered now",
                );
            }
            if !room {
                return refuse(ENLISTMENT, "a legion with 7 characters cannot muster");
            }
            let option = MusterOption {
                recruit: *recruit,
                reveal: sorted(reveal.clone()),
            };
            if !muster_options(game, winner).contains(&option) {
                return Err(refusal::why_not_muster(game, winner, &option));
            }
            do_muster(game, a.winner, option, events);
            next.reinforce = false;
        }
        Action::DoneAfter => {
            end_engagement(game, events);
            return Ok(());
        }
        other => {
            return refuse(
                ENGAGEMENT,
                format!(
                    "{} is not possible after the engagement",
                    action_name(other)
                ),
            );
        }
    }
    let _ = e;
    let nothing_left = !next.summon && next.acquisitions.is_empty() && !next.reinforce;
    if nothing_left {
        end_engagement(game, events);
    } else {
        set_step(game, EngagementStep::After(next));
    }
    Ok(())
}

fn finish_engagement(
    game: &mut Game,
    winner: Marker,
    summon: bool,
    acquisitions: Vec<u32>,
    reinforce: bool,
    events: &mut Vec<Event>,
) {
    if game.state.phase == Phase::Over || game.legion(winner).is_none() {
        end_engagement(game, events);
        return;
    }
    if !summon && acquisitions.is_empty() && !reinforce {
        end_engagement(game, events);
        return;
    }
    set_step(
        game,
        EngagementStep::After(After {
            winner,
            summon,
            acquisitions,
            reinforce,
        }),
    );
}

fn end_engagement(game: &mut Game, events: &mut Vec<Event>) {
    game.state.engagement = None;
    if game.state.phase == Phase::Engage && engaged_lands(game).is_empty() {
        game.state.phase = Phase::Muster;
    }
    // A mover whose Titan fell waited for the winner to finish: play passes.
    let active = game.state.active;
    if game.state.phase != Phase::Over && !game.state.players[active.0 as usize].alive {
        next_player(game, events);
    }
}

/// Moves one character between two legions of a player.
fn move_character(
    game: &mut Game,
    from: Marker,
    to: Marker,
    c: CharacterId,
    events: &mut Vec<Event>,
) {
    if let Some(i) = legion_index(game, from) {
        remove_all(&mut game.state.legions[i].characters, &[c]);
        let l = &mut game.state.legions[i];
        l.revealed.retain(|&x| x != c);
        if l.characters.is_empty() {
            let gone = game.state.legions.remove(i);
            let p = &mut game.state.players[gone.owner.0 as usize].markers;
            p.push(gone.marker);
            p.sort_unstable();
            events.push(Event::LegionEliminated {
                legion: gone.marker,
            });
        }
    }
    if let Some(j) = legion_index(game, to) {
        let l = &mut game.state.legions[j];
        l.characters = sorted([l.characters.clone(), vec![c]].concat());
        l.revealed = merge_revealed(&l.revealed, &[c]);
    }
    events.push(Event::Summoned {
        legion: to,
        from,
        character: c,
    });
}

fn add_from_caretaker(game: &mut Game, to: Marker, c: CharacterId) {
    game.state.caretaker[c.index()] = game.state.caretaker[c.index()].saturating_sub(1);
    if let Some(j) = legion_index(game, to) {
        let l = &mut game.state.legions[j];
        l.characters = sorted([l.characters.clone(), vec![c]].concat());
        l.revealed = merge_revealed(&l.revealed, &[c]);
    }
}

/// Removes slain characters from a legion; those whose class returns go back
/// to the caretaker. An emptied legion leaves the board. A slain Titan ends
/// its player.
fn slay(
    game: &mut Game,
    marker: Marker,
    chars: &[CharacterId],
    slayer: Option<PlayerId>,
    deaths: &mut Deaths,
    events: &mut Vec<Event>,
) {
    if chars.is_empty() {
        return;
    }
    let Some(i) = legion_index(game, marker) else {
        return;
    };
    let owner = game.state.legions[i].owner;
    {
        let l = &mut game.state.legions[i];
        remove_all(&mut l.characters, chars);
        for c in chars {
            if let Some(k) = l.revealed.iter().position(|x| x == c) {
                l.revealed.remove(k);
            }
        }
    }
    for &c in chars {
        if game.variant.class(class_of(game, c)).returns_when_slain {
            game.state.caretaker[c.index()] += 1;
        }
    }
    events.push(Event::Slain {
        legion: marker,
        characters: chars.to_vec(),
    });
    if game.state.legions[i].characters.is_empty() {
        let gone = game.state.legions.remove(i);
        let p = &mut game.state.players[gone.owner.0 as usize].markers;
        p.push(gone.marker);
        p.sort_unstable();
        events.push(Event::LegionEliminated {
            legion: gone.marker,
        });
    }
    let titan = game.variant.rules.titan.character;
    if chars.contains(&titan) && game.state.players[owner.0 as usize].alive {
        // Out of the game at once (so a Titan dying with its rival's does
        // not score); the rest waits for `bury`, when both sides are done.
        game.state.players[owner.0 as usize].alive = false;
        deaths.push((owner, slayer));
    }
}

/// Players whose Titans were slain in one action: removed together, then the
/// game may end.
type Deaths = Vec<(PlayerId, Option<PlayerId>)>;

fn bury(game: &mut Game, deaths: Deaths, events: &mut Vec<Event>) {
    if deaths.is_empty() {
        return;
    }
    for (dead, slayer) in deaths {
        eliminate_player(game, dead, slayer, events);
    }
    after_elimination(game, events);
}

/// Adds points and returns the acquisition thresholds passed.
fn score(game: &mut Game, player: PlayerId, points: u32, events: &mut Vec<Event>) -> Vec<u32> {
    if points == 0 || !game.state.players[player.0 as usize].alive {
        return Vec::new();
    }
    let p = &mut game.state.players[player.0 as usize];
    let before = p.score;
    p.score += points;
    let after = p.score;
    events.push(Event::Scored {
        player,
        points,
        score: after,
    });
    let step = game
        .variant
        .rules
        .scoring
        .acquire
        .iter()
        .map(|&(_, e)| e)
        .min()
        .unwrap_or(0);
    if step == 0 {
        return Vec::new();
    }
    (before / step + 1..=after / step)
        .map(|k| k * step)
        .collect()
}

/// A player leaves the game: a slain Titan or a concession. The slayer
/// scores half the value of the player's other legions and takes the markers
/// (reference sheet, "Titans"); legions in unresolved engagements give their
/// half to those opponents.
fn eliminate_player(
    game: &mut Game,
    dead: PlayerId,
    slayer: Option<PlayerId>,
    events: &mut Vec<Event>,
) {
    game.state.players[dead.0 as usize].alive = false;
    let legions: Vec<Legion> = game
        .state
        .legions
        .iter()
        .filter(|l| l.owner == dead)
        .cloned()
        .collect();
    for l in legions {
        let opponent = game
            .state
            .legions
            .iter()
            .find(|o| o.land == l.land && o.owner != dead)
            .map(|o| o.owner);
        let half: u32 = l
            .characters
            .iter()
            .map(|&c| value(game, dead, c))
            .sum::<u32>()
            / 2;
        if let Some(i) = legion_index(game, l.marker) {
            game.state.legions.remove(i);
        }
        for &c in &l.characters {
            if game.variant.class(class_of(game, c)).returns_when_slain {
                game.state.caretaker[c.index()] += 1;
            }
        }
        events.push(Event::LegionEliminated { legion: l.marker });
        if let Some(to) = opponent.or(slayer)
            && game.state.players[to.0 as usize].alive
            && half > 0
        {
            let p = &mut game.state.players[to.0 as usize];
            p.score += half;
            let score = p.score;
            events.push(Event::Scored {
                player: to,
                points: half,
                score,
            });
        }
    }
    // The slayer gains the legion markers.
    let markers: Vec<Marker> = std::mem::take(&mut game.state.players[dead.0 as usize].markers);
    let all: Vec<Marker> = markers
        .into_iter()
        .chain(
            (1..=game.variant.rules.legions.markers_per_player).map(|n| Marker {
                player: dead,
                number: n,
            }),
        )
        .collect();
    if let Some(s) = slayer.filter(|s| game.state.players[s.0 as usize].alive) {
        let p = &mut game.state.players[s.0 as usize].markers;
        for m in all {
            if !p.contains(&m) {
                p.push(m);
            }
        }
        p.sort_unstable();
    }
    if game.state.engagement.as_ref().is_some_and(|e| {
        [e.attacker, e.defender]
            .iter()
            .any(|&m| game.legion(m).is_none())
    }) {
        // The engagement's winner may still summon or acquire.
        if !matches!(
            game.state.engagement.as_ref().map(|e| &e.step),
            Some(EngagementStep::After(_))
        ) {
            game.state.engagement = None;
        }
    }
    events.push(Event::PlayerEliminated {
        player: dead,
        by: slayer,
    });
}

/// Ends the game when one player or none is left; moves play on when the
/// player to move is gone.
fn after_elimination(game: &mut Game, events: &mut Vec<Event>) {
    if game.state.phase == Phase::Over {
        return;
    }
    let alive: Vec<PlayerId> = (0..game.state.players.len() as u8)
        .map(PlayerId)
        .filter(|p| game.state.players[p.0 as usize].alive)
        .collect();
    if alive.len() <= 1 {
        let outcome = match alive.first() {
            Some(&p) => Outcome::Winner(p),
            None => {
                // The last players died together: those who died in this action.
                let mut last: Vec<PlayerId> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::PlayerEliminated { player, .. } => Some(*player),
                        _ => None,
                    })
                    .collect();
                last.sort_unstable();
                last.dedup();
                Outcome::Draw(last)
            }
        };
        game_over(game, outcome, events);
        return;
    }
    if game
        .state
        .engagement
        .as_ref()
        .is_some_and(|e| game.legion(e.attacker).is_none() && game.legion(e.defender).is_none())
    {
        game.state.engagement = None;
    }
    let active = game.state.active;
    let waiting = game.state.engagement.is_some();
    if !game.state.players[active.0 as usize].alive && !waiting {
        if game.state.phase == Phase::InitialSplit {
            let order = turn_order(game);
            match order.iter().copied().find(|p| {
                game.state.players[p.0 as usize].alive
                    && !game.state.legions.iter().any(|l| l.owner == *p)
            }) {
                Some(p) => game.state.active = p,
                None => {
                    game.state.turn = 1;
                    let first = order
                        .iter()
                        .copied()
                        .find(|p| game.state.players[p.0 as usize].alive)
                        .unwrap_or(active);
                    begin_turn(game, first, events);
                }
            }
        } else {
            next_player(game, events);
        }
    } else if game.state.phase == Phase::Engage
        && game.state.engagement.is_none()
        && engaged_lands(game).is_empty()
    {
        game.state.phase = Phase::Muster;
    }
}

fn game_over(game: &mut Game, outcome: Outcome, events: &mut Vec<Event>) {
    game.state.phase = Phase::Over;
    game.state.engagement = None;
    game.state.outcome = Some(outcome.clone());
    events.push(Event::GameOver { outcome });
}

fn muster(
    game: &mut Game,
    player: PlayerId,
    marker: Marker,
    recruit: CharacterId,
    reveal: &[CharacterId],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = owned_legion(game, player, marker)?;
    let l = &game.state.legions[i];
    if !l.moved {
        return refuse(
            ENLISTMENT,
            "a legion is only eligible to muster if it moved this turn",
        );
    }
    if l.mustered {
        return refuse(
            ENLISTMENT,
            "no legion may muster more than one character per game turn",
        );
    }
    if l.height() >= game.variant.rules.legions.max_size as usize {
        return refuse(ENLISTMENT, "a legion with 7 characters cannot muster");
    }
    let option = MusterOption {
        recruit,
        reveal: sorted(reveal.to_vec()),
    };
    if !muster_options(game, l).contains(&option) {
        return Err(refusal::why_not_muster(game, l, &option));
    }
    do_muster(game, marker, option, events);
    Ok(())
}

fn do_muster(game: &mut Game, marker: Marker, option: MusterOption, events: &mut Vec<Event>) {
    add_from_caretaker(game, marker, option.recruit);
    if let Some(i) = legion_index(game, marker) {
        let l = &mut game.state.legions[i];
        l.mustered = true;
        l.revealed = merge_revealed(&l.revealed, &option.reveal);
        l.seen_by = 0;
    }
    if !option.reveal.is_empty() {
        events.push(Event::Revealed {
            legion: marker,
            characters: option.reveal.clone(),
            to: None,
        });
    }
    events.push(Event::Mustered {
        legion: marker,
        character: option.recruit,
    });
}

fn end_turn(game: &mut Game, events: &mut Vec<Event>) {
    // "For a Shorter Game": a point total ends the game at the end of that turn.
    let limit = match game.option("point_limit") {
        Some(OptionValue::Int(n)) if *n > 0 => Some(*n as u32),
        _ => None,
    };
    let alive: Vec<PlayerId> = (0..game.state.players.len() as u8)
        .map(PlayerId)
        .filter(|p| game.state.players[p.0 as usize].alive)
        .collect();
    let best = alive
        .iter()
        .map(|p| game.state.players[p.0 as usize].score)
        .max()
        .unwrap_or(0);
    let hooked = call_hook::<_, Option<u8>>(
        game,
        hook::GAME_OVER,
        (game.state.turn, alive.len() as u32, best),
    );
    if let Some(Some(w)) = hooked
        && alive.contains(&PlayerId(w))
    {
        game_over(game, Outcome::Winner(PlayerId(w)), events);
        return;
    }
    if limit.is_some_and(|l| best >= l) {
        let leaders: Vec<PlayerId> = alive
            .into_iter()
            .filter(|p| game.state.players[p.0 as usize].score == best)
            .collect();
        let outcome = if leaders.len() == 1 {
            Outcome::Winner(leaders[0])
        } else {
            Outcome::Draw(leaders)
        };
        game_over(game, outcome, events);
        return;
    }
    next_player(game, events);
}

fn next_player(game: &mut Game, events: &mut Vec<Event>) {
    let order = turn_order(game);
    let at = order
        .iter()
        .position(|&p| p == game.state.active)
        .unwrap_or(0);
    for step in 1..=order.len() {
        let p = order[(at + step) % order.len()];
        if game.state.players[p.0 as usize].alive {
            if at + step >= order.len() {
                // Past the last seat: a new game turn.
                game.state.turn += 1;
            }
            begin_turn(game, p, events);
            return;
        }
    }
}

/// The battleland edge an attacker entering `land` from `from` comes in by
/// (Law of the Battlelands 25.A; reference sheet: "the same relative 4-hex
/// side"). Where the battleland fixes the attacker's edge (the Tower, 25.B)
/// that edge; a teleported attacker (no `from`) gets the first of
/// `rules.battle.attacker_edges`.
///
/// The printed land is a triangle with cut corners, its number printed on
/// one cut corner; the battleland is the same shape, its name on the narrow
/// edge `rules.battle.name_side`. Laid name on number, the border the legion
/// crossed falls on the attacker's edge: the border's direction from the
/// land's numbered corner, counted clockwise in sixths of a turn (1, 3 or 5),
/// is the entry edge's from the name-side. The numbered corner comes from the
/// board's geometry ([`numbered_corner`]); ARCHITECTURE.md, "Entry sides".
pub(super) fn entry_edge(game: &Game, land: LandId, from: Option<LandId>) -> crate::format::Edge {
    use crate::format::Edge;
    let rules = &game.variant.rules.battle;
    let first = rules
        .attacker_edges
        .first()
        .copied()
        .unwrap_or(Edge::SouthWest);
    let board = &game.variant.board;
    if let Some(fixed) = game
        .variant
        .battleland(board.land(land).terrain)
        .attacker_edge
    {
        return fixed;
    }
    let Some(from) = from else { return first };
    let (a, b) = (board.land(land).position, board.land(from).position);
    let Some(border) = border_direction(a, b) else {
        return first;
    };
    let steps = (border + 6 - numbered_corner(game, land)) % 6;
    let name = Edge::ALL
        .iter()
        .position(|&e| e == rules.name_side)
        .unwrap_or(0);
    Edge::ALL[(name + steps) % 6]
}

/// Whether the land at this grid position points up (its third border below).
fn points_up(p: crate::format::GridPos) -> bool {
    (p.x + p.y).rem_euclid(2) == 1
}

/// The direction, in sixths of a turn clockwise from north (0 north, 1
/// north-east, ... 5 north-west), of the border between neighbours `a` and
/// `b` as seen from `a` (ARCHITECTURE.md, "Masterboard grid").
fn border_direction(a: crate::format::GridPos, b: crate::format::GridPos) -> Option<usize> {
    let up = points_up(a);
    match (b.x - a.x, b.y - a.y) {
        (1, 0) => Some(if up { 1 } else { 2 }),
        (-1, 0) => Some(if up { 5 } else { 4 }),
        (0, 1) if up => Some(3),
        (0, -1) if !up => Some(0),
        _ => None,
    }
}

/// The cut corner of `land` that carries its number on the printed board,
/// as a direction in sixths of a turn (see [`border_direction`]).
///
/// The printed board is six like sectors turned about its centre, and each
/// land's number lies on the axis from the centre through its sector: on the
/// land's one corner whose direction is that axis, pointing toward or away
/// from the centre. The sector's axis is the one of the six directions
/// nearest to the direction from the board's centre (the mean of the lands'
/// centres) to the land's centre, with lands as equilateral triangles of the
/// grid. This reproduces the numbers' places on every land of the Avalon
/// Hill board (ARCHITECTURE.md, "Entry sides").
pub(super) fn numbered_corner(game: &Game, land: LandId) -> usize {
    let board = &game.variant.board;
    let h = 3f64.sqrt() / 2.0;
    let centre = |p: crate::format::GridPos| {
        let drop = if points_up(p) { 2.0 / 3.0 } else { 1.0 / 3.0 };
        (f64::from(p.x) * 0.5, (f64::from(p.y) + drop) * h)
    };
    let (mut cx, mut cy, mut n) = (0.0, 0.0, 0.0);
    for l in board.lands() {
        let (x, y) = centre(board.land(l).position);
        cx += x;
        cy += y;
        n += 1.0;
    }
    let p = board.land(land).position;
    let (x, y) = centre(p);
    let (dx, dy) = (x - cx / n, y - cy / n);
    // The six directions, screen coordinates (y grows downward).
    let dirs = [
        (0.0, -1.0),
        (h, -0.5),
        (h, 0.5),
        (0.0, 1.0),
        (-h, 0.5),
        (-h, -0.5),
    ];
    let axis = (0..6)
        .max_by(|&i, &j| {
            let dot = |k: usize| dirs[k].0 * dx + dirs[k].1 * dy;
            dot(i).total_cmp(&dot(j))
        })
        .unwrap_or(0);
    // Corners of a land pointing up are 0, 2 and 4; pointing down 1, 3, 5.
    let corner_parity = usize::from(!points_up(p));
    if axis % 2 == corner_parity {
        axis
    } else {
        (axis + 3) % 6
    }
}

/// A legion marker as the battle engine's legion id.
fn marker_id(m: Marker) -> u32 {
    (u32::from(m.player.0) << 8) | u32::from(m.number)
}

fn marker_of(id: u32) -> Marker {
    Marker {
        player: PlayerId((id >> 8) as u8),
        number: (id & 0xff) as u8,
    }
}

/// The generator and Lua VM a battle draws from: the game's VM when the
/// variant has scripts (started once per game), else a fresh generator.
fn battle_host(game: &Game) -> (Rc<RefCell<GameRng>>, Option<Rc<LuaHost>>) {
    match &game.hooks {
        Some(h) => (h.rng.clone(), Some(h.host.clone())),
        None => (Rc::new(RefCell::new(GameRng::new(0))), None),
    }
}

fn battle_error(e: crate::battle::BattleError) -> RuleError {
    RuleError {
        rule: match e {
            crate::battle::BattleError::Script(_) => super::SCRIPT_FAILURE,
            _ => "Law of the Battlelands",
        },
        message: e.to_string(),
    }
}

/// The battle being fought, rebuilt around the game's variant.
pub(super) fn resume_battle(game: &Game) -> Result<Option<crate::battle::Battle<'_>>, RuleError> {
    let Some(snap) = game.battle.clone() else {
        return Ok(None);
    };
    let (rng, lua) = battle_host(game);
    crate::battle::Battle::resume(&game.variant, snap, rng, lua)
        .map(Some)
        .map_err(battle_error)
}

/// Starts the battle of the engagement in its Battle step.
fn start_battle(game: &mut Game) -> Result<(), RuleError> {
    use crate::battle::{Battle, BattleSetup, Fighter};
    let Some(req) = battle_request(game) else {
        return refuse(ENGAGEMENT, "no battle to fight");
    };
    let teleported = game
        .legion(req.attacker)
        .is_some_and(|l| l.moved && l.entered_from.is_none());
    let fighters = |list: &[(CharacterId, u8)]| -> Vec<Fighter> {
        list.iter()
            .map(|&(character, power)| Fighter { character, power })
            .collect()
    };
    let setup = BattleSetup {
        terrain: req.terrain,
        attacker: fighters(&req.attacker_characters),
        defender: fighters(&req.defender_characters),
        attacker_edge: req.attacker_edge,
        summonable: req
            .summonable
            .iter()
            .map(|&(m, c)| (marker_id(m), c))
            .collect(),
        reinforcements: req.reinforcements.clone(),
        teleported,
    };
    // The battle's dice come from the game's generator, through a seed.
    let seed = game.rng.next_u64();
    let (rng, lua) = battle_host(game);
    *rng.borrow_mut() = GameRng::new(seed);
    let variant = game.variant.clone();
    let battle = Battle::with_scripts(&variant, setup, rng, lua).map_err(battle_error)?;
    game.battle = Some(battle.snapshot());
    Ok(())
}

/// One action in the battle; when the battle ends, its result is scored.
fn battle_action(
    game: &mut Game,
    player: PlayerId,
    e: &Engagement,
    a: &crate::battle::Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    use crate::battle::BattleSide;
    let variant = game.variant.clone();
    let Some(snap) = game.battle.clone() else {
        return refuse(ENGAGEMENT, "no battle is being fought");
    };
    let (rng, lua) = battle_host(game);
    let mut battle =
        crate::battle::Battle::resume(&variant, snap, rng, lua).map_err(battle_error)?;
    let side_legion = match battle.to_act() {
        BattleSide::Attacker => e.attacker,
        BattleSide::Defender => e.defender,
    };
    if game.legion(side_legion).map(|l| l.owner) != Some(player) {
        return refuse(
            "Law of the Battlelands 25.C",
            "it is the other side's move in the battle",
        );
    }
    if let crate::battle::Action::Concede(side) = a
        && *side != battle.to_act()
    {
        return refuse(
            ENGAGEMENT,
            "a player may concede only his own side of the battle",
        );
    }
    let battle_events = battle.apply(a.clone()).map_err(battle_error)?;
    events.push(Event::Battle {
        events: battle_events,
    });
    let Some(r) = battle.result() else {
        game.battle = Some(battle.snapshot());
        return Ok(());
    };
    game.battle = None;
    let outcome = BattleOutcome {
        attacker_slain: r.attacker_slain,
        defender_slain: r.defender_slain,
        time_loss: r.time_loss,
        summoned: r.summoned.map(|(id, c)| (marker_of(id), c)),
        reinforced: r.reinforced,
        // At a time loss masterplay removes the attacker's survivors itself.
        attacker_removed: if r.time_loss {
            Vec::new()
        } else {
            r.attacker_removed
        },
        defender_removed: r.defender_removed,
    };
    battle_result(game, e, &outcome, events)
}

pub(super) fn battle_request(game: &Game) -> Option<BattleRequest> {
    let e = game.state.engagement.as_ref()?;
    if e.step != EngagementStep::Battle {
        return None;
    }
    let att = game.legion(e.attacker)?;
    let def = game.legion(e.defender)?;
    let powered = |l: &Legion| -> Vec<(CharacterId, u8)> {
        l.characters
            .iter()
            .map(|&c| {
                let power = if c == game.variant.rules.titan.character {
                    titan_power(game, l.owner)
                } else {
                    game.variant.character(c).power
                };
                (c, power)
            })
            .collect()
    };
    let mut reinforcements: Vec<CharacterId> = if def.mustered {
        Vec::new()
    } else {
        muster_options(game, def)
            .into_iter()
            .map(|o| o.recruit)
            .collect()
    };
    reinforcements.dedup();
    Some(BattleRequest {
        land: e.land,
        terrain: game.variant.board.land(e.land).terrain,
        attacker: e.attacker,
        defender: e.defender,
        attacker_characters: powered(att),
        defender_characters: powered(def),
        attacker_edge: entry_edge(game, e.land, att.entered_from),
        summonable: summonable(game, att),
        reinforcements,
    })
}

pub(super) fn check_invariants(game: &Game) -> Result<(), String> {
    let s = &game.state;
    let v = &game.variant;
    let max = v.rules.legions.max_size as usize;
    let mut markers = std::collections::HashSet::new();
    let mut on_board = vec![0u32; v.characters.len()];
    for l in &s.legions {
        if l.characters.is_empty() || l.height() > max {
            return Err(format!("legion {} has {} characters", l.marker, l.height()));
        }
        if !markers.insert(l.marker) {
            return Err(format!("marker {} is used twice", l.marker));
        }
        if !s.players[l.owner.0 as usize].alive {
            return Err(format!(
                "legion {} belongs to a player out of the game",
                l.marker
            ));
        }
        if s.players.iter().any(|p| p.markers.contains(&l.marker)) {
            return Err(format!(
                "marker {} is both on the board and in hand",
                l.marker
            ));
        }
        for &c in &l.characters {
            on_board[c.index()] += 1;
        }
    }
    // One legion per land, or two players' legions in an engagement.
    for land in v.board.lands() {
        let here: Vec<&Legion> = s.legions.iter().filter(|l| l.land == land).collect();
        let mut owners: Vec<PlayerId> = here.iter().map(|l| l.owner).collect();
        owners.sort_unstable();
        owners.dedup();
        if owners.len() > 2 {
            return Err(format!(
                "land {} holds legions of {} players",
                v.board.land(land).number,
                owners.len()
            ));
        }
        // Two legions of one player share a land only while split apart.
        for (i, a) in here.iter().enumerate() {
            for b in &here[i + 1..] {
                let siblings = a.split_from == Some(b.marker)
                    || b.split_from == Some(a.marker)
                    || (a.split_from.is_some() && a.split_from == b.split_from);
                if a.owner == b.owner && !siblings {
                    return Err(format!(
                        "land {} holds legions {} and {} of one player",
                        v.board.land(land).number,
                        a.marker,
                        b.marker
                    ));
                }
            }
        }
        if owners.len() == 2 && !matches!(s.phase, Phase::Engage | Phase::Move) {
            return Err(format!(
                "an engagement in land {} outlived its phase",
                v.board.land(land).number
            ));
        }
    }
    // Every character is in the caretaker's stacks, a legion, or dead.
    for (i, c) in v.characters.iter().enumerate() {
        let total = s.caretaker[i] + on_board[i];
        if total > c.count {
            return Err(format!(
                "{} {} on board and in stock, of {}",
                total, c.plural, c.count
            ));
        }
        let class = v.class(c.class);
        if class.returns_when_slain && total != c.count {
            return Err(format!(
                "{} of {} {} are accounted for, but they return when slain",
                total, c.count, c.plural
            ));
        }
    }
    Ok(())
}
