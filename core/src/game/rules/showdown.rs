//! A battle of one player against all the others (`rules.battle.showdown`),
//! which a script begins (`ctx:begin_showdown`): the challenger brings all
//! his legions as the attacker; every other player, ranked by score, commits
//! one legion at a time as a team of the defending side and another when it
//! is gone. A team's fallen Titan puts its player out; the challenger's ends
//! the battle, and the turn passes to the player whose team slew it, who
//! takes the challenger's markers. Nobody scores (the Law of Titan 1980's
//! Reckoning, 19.D-G, as a variant says it).

use super::*;
use crate::battle::{BattleSide, Fighter, Team, TeamSetup};
use crate::state::game::Showdown;

const SHOWDOWN: &str = "Showdown (rules.battle.showdown; Law of Titan 1980, 19)";

/// Begins a showdown of `challenger` against every other player in the game.
pub(in crate::game) fn begin(game: &mut Game, challenger: PlayerId, events: &mut Vec<Event>) {
    let players = &game.state.players;
    let holds = |i: usize| game.state.legions.iter().any(|l| l.owner.0 as usize == i);
    let mut opponents: Vec<PlayerId> = (0..players.len())
        .filter(|&i| i != challenger.0 as usize && players[i].alive && holds(i))
        .map(|i| PlayerId(i as u8))
        .collect();
    if opponents.is_empty() || !holds(challenger.0 as usize) {
        // Nobody to fight (checked when a script asked): nothing begins.
        game.state.showdown = None;
        return;
    }
    // 19.E: the highest score first (the rightmost hex); equal scores by seat.
    opponents.sort_by_key(|p| (std::cmp::Reverse(players[p.0 as usize].score), p.0));
    events.push(Event::ShowdownBegins {
        challenger,
        opponents: opponents.clone(),
    });
    game.state.showdown = Some(Showdown {
        challenger,
        committed: vec![None; opponents.len()],
        opponents,
        unit_legions: Vec::new(),
        titan_slayer: None,
    });
}

/// The opponent (by rank) who must commit a legion before anything else.
fn to_commit(game: &Game, sd: &Showdown) -> Option<usize> {
    sd.opponents.iter().enumerate().position(|(i, &p)| {
        game.state.players[p.0 as usize].alive
            && sd.committed[i].is_none_or(|m| game.legion(m).is_none())
            && game.state.legions.iter().any(|l| l.owner == p)
    })
}

/// The player of battle team `team` (0 the challenger's).
fn team_player(sd: &Showdown, team: u8) -> Option<PlayerId> {
    match team {
        0 => Some(sd.challenger),
        t => sd.opponents.get(usize::from(t) - 1).copied(),
    }
}

/// Who decides now in the showdown being fought.
pub(in crate::game) fn acting(game: &Game) -> Option<PlayerId> {
    let sd = game.state.showdown.as_ref()?;
    if let Some(i) = to_commit(game, sd) {
        return Some(sd.opponents[i]);
    }
    let battle = game.battle.borrow();
    let team = battle.as_ref()?.battle().team_to_act()?;
    team_player(sd, team)
}

/// The showdown's battle as `player` takes part in it (see
/// [`Game::battle_seat`]).
pub(in crate::game) fn seat(game: &Game, player: PlayerId) -> Option<SeatBattle> {
    let sd = game.state.showdown.as_ref()?;
    let (side, team) = if player == sd.challenger {
        (BattleSide::Attacker, 0)
    } else {
        let rank = sd.opponents.iter().position(|&p| p == player)?;
        (BattleSide::Defender, rank as u8 + 1)
    };
    let battle = game.battle()?;
    let terrain = battle.battleland().terrain;
    let first = |p: PlayerId| game.state.legions.iter().find(|l| l.owner == p);
    let attacker = first(sd.challenger)?;
    let own = sd
        .opponents
        .iter()
        .position(|&p| p == player)
        .and_then(|i| sd.committed[i]);
    // The player's legion in the battle, else any there, else his own
    // (one he is about to commit).
    let defender = own
        .and_then(|m| game.legion(m))
        .or_else(|| sd.committed.iter().flatten().find_map(|&m| game.legion(m)))
        .or_else(|| first(player))
        .unwrap_or(attacker);
    let powered = |l: &Legion| -> Vec<(CharacterId, u8)> {
        fighters(game, l)
            .into_iter()
            .map(|f| (f.character, f.power))
            .collect()
    };
    let request = BattleRequest {
        land: attacker.land,
        terrain,
        attacker: attacker.marker,
        defender: defender.marker,
        attacker_characters: powered(attacker),
        defender_characters: powered(defender),
        attacker_edge: battle.attacker_edge(),
        summonable: Vec::new(),
        reinforcements: Vec::new(),
    };
    let view = battle.view_for_team(side, team);
    Some(SeatBattle {
        request,
        side,
        view,
    })
}

/// `player`'s actions in the showdown: a legion to commit, or the battle's.
pub(in crate::game) fn legal(game: &Game, player: PlayerId, out: &mut Vec<Action>) {
    let Some(sd) = game.state.showdown.as_ref() else {
        return;
    };
    if acting(game) != Some(player) {
        return;
    }
    if to_commit(game, sd).is_some() {
        for l in game.state.legions.iter().filter(|l| l.owner == player) {
            out.push(Action::Commit { legion: l.marker });
        }
        return;
    }
    with_battle(game, |battle| {
        for a in battle.legal_actions() {
            out.push(Action::Battle { battle: a });
        }
    });
}

/// Carries out `player`'s showdown action.
pub(in crate::game) fn apply(
    game: &mut Game,
    player: PlayerId,
    action: &Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    match action {
        Action::Commit { legion } => commit(game, player, *legion, events),
        Action::Battle {
            battle: crate::battle::Action::Concede(_),
        } => refuse(
            SHOWDOWN,
            "nobody concedes a showdown: it ends when the challenger's Titan falls or every other player is out (Law of Titan 1980, 19.G)",
        ),
        Action::Battle { battle } => battle_step(game, player, battle, events),
        _ => refuse(
            SHOWDOWN,
            "a showdown is being fought: commit a legion or act in its battle",
        ),
    }
}

/// The characters of `legion` at the power they fight with.
fn fighters(game: &Game, legion: &Legion) -> Vec<Fighter> {
    legion
        .characters
        .iter()
        .map(|&c| Fighter {
            character: c,
            power: if c == game.variant.rules.titan.character {
                titan_power(game, legion.owner)
            } else {
                character_power(game, legion.owner, c)
            },
        })
        .collect()
}

/// Has `player` a legion on the board besides `but`?
fn has_other(game: &Game, player: PlayerId, but: Option<Marker>) -> bool {
    game.state
        .legions
        .iter()
        .any(|l| l.owner == player && Some(l.marker) != but)
}

fn commit(
    game: &mut Game,
    player: PlayerId,
    legion: Marker,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Some(sd) = game.state.showdown.as_ref() else {
        return refuse(SHOWDOWN, "no showdown is being fought");
    };
    let Some(i) = to_commit(game, sd).filter(|&i| sd.opponents[i] == player) else {
        return refuse(SHOWDOWN, "you have a legion in the showdown already");
    };
    if game.legion(legion).map(|l| l.owner) != Some(player) {
        return refuse(SHOWDOWN, format!("{legion} is not one of your legions"));
    }
    game.save_state();
    let sd = game.state.showdown.as_mut().expect("checked");
    sd.committed[i] = Some(legion);
    events.push(Event::Committed { player, legion });
    if game.battle.get_mut().is_none() {
        let sd = game.state.showdown.as_ref().expect("checked");
        if to_commit(game, sd).is_none() {
            start(game)?;
        }
        return Ok(());
    }
    // 19.G: another legion joins the battle, waiting to be committed.
    let l = game.legion(legion).expect("checked");
    let more = fighters(game, l);
    let reserves = has_other(game, player, Some(legion));
    let team = i as u8 + 1;
    let added = game
        .battle
        .get_mut()
        .as_deref_mut()
        .map(|live| live.with_mut(|b| b.add_to_team(team, &more, reserves)));
    if let Some(Err(e)) = added {
        return Err(battle_error(e));
    }
    let sd = game.state.showdown.as_mut().expect("checked");
    sd.unit_legions
        .extend(std::iter::repeat_n(legion, more.len()));
    Ok(())
}

/// The zones of the showdown's battleland for `n` opponents: the
/// challenger's, each opponent's, and the forbidden hexes.
fn zones(
    board: &crate::battleland::Board,
    rules: &crate::format::Showdown,
    n: usize,
) -> (u32, Vec<u32>, u32) {
    let zone = |prefix: &str, k: usize| board.zone(&format!("{prefix}-{k}"));
    let attacker = (1..=n)
        .filter_map(|k| zone(&rules.attacker_zones, k))
        .fold(0, |m, z| m | z);
    let defenders: Vec<u32> = (1..=n)
        .map(|k| zone(&rules.defender_zones, k).unwrap_or(0))
        .collect();
    let mut forbidden = 0;
    for prefix in [&rules.attacker_zones, &rules.defender_zones] {
        let mut k = n + 1;
        while let Some(z) = zone(prefix, k) {
            forbidden |= z;
            k += 1;
        }
    }
    let used = defenders.iter().fold(attacker, |m, z| m | z);
    (attacker, defenders, forbidden & !used)
}

/// Every opponent has committed: the battle begins.
fn start(game: &mut Game) -> Result<(), RuleError> {
    let Some(rules) = game.variant.rules.battle.showdown.clone() else {
        return refuse(
            SHOWDOWN,
            "the variant has no showdown (rules.battle.showdown)",
        );
    };
    let Some(terrain) = game.variant.terrain_by_name(&rules.terrain) else {
        return refuse(SHOWDOWN, format!("no terrain {:?}", rules.terrain));
    };
    let sd = game.state.showdown.clone().expect("a showdown");
    let mut unit_legions = Vec::new();
    let mut attacker = Vec::new();
    for l in game
        .state
        .legions
        .iter()
        .filter(|l| l.owner == sd.challenger)
    {
        let f = fighters(game, l);
        unit_legions.extend(std::iter::repeat_n(l.marker, f.len()));
        attacker.extend(f);
    }
    let mut defender = Vec::new();
    let mut unit_teams = vec![0u8; attacker.len()];
    let land = game.variant.battleland(terrain);
    let (attacker_zone, defender_zones, forbidden) = zones(&land.board, &rules, sd.opponents.len());
    let mut teams = vec![Team {
        side: BattleSide::Attacker,
        zone: attacker_zone,
        reserves: false,
    }];
    for (i, (&p, m)) in sd.opponents.iter().zip(&sd.committed).enumerate() {
        let Some(l) = m.and_then(|m| game.legion(m)) else {
            continue;
        };
        let f = fighters(game, l);
        unit_legions.extend(std::iter::repeat_n(l.marker, f.len()));
        unit_teams.extend(std::iter::repeat_n(i as u8 + 1, f.len()));
        defender.extend(f);
        teams.push(Team {
            side: BattleSide::Defender,
            zone: defender_zones.get(i).copied().unwrap_or(0),
            reserves: has_other(game, p, Some(l.marker)),
        });
    }
    let edges = &game.variant.rules.battle.attacker_edges;
    let setup = crate::battle::BattleSetup {
        terrain,
        attacker,
        defender,
        attacker_edge: land
            .attacker_edge
            .or(edges.first().copied())
            .unwrap_or(crate::format::Edge::SouthWest),
        summonable: Vec::new(),
        reinforcements: Vec::new(),
        teleported: false,
    };
    let team_setup = TeamSetup {
        teams,
        unit_teams,
        forbidden,
        right_to_left: rules.right_to_left,
    };
    let seed = game.rng.next_u64();
    let (rng, lua) = battle_host(game);
    let scripts = lua.is_some();
    *rng.borrow_mut() = GameRng::new(seed);
    let battle = crate::battle::Battle::with_teams(
        game.variant.clone(),
        setup,
        team_setup,
        rng.clone(),
        lua,
    )
    .map_err(battle_error)?;
    let mut live = LiveBattle::new(battle, rng, scripts);
    live.set_caretaker(game);
    *game.battle.get_mut() = Some(Box::new(live));
    if let Some(sd) = game.state.showdown.as_mut() {
        sd.unit_legions = unit_legions;
    }
    Ok(())
}

/// One action in the showdown's battle.
fn battle_step(
    game: &mut Game,
    player: PlayerId,
    a: &crate::battle::Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if acting(game) != Some(player) {
        return refuse(SHOWDOWN, "it is another player's turn in the showdown");
    }
    let mut slot = game.battle.get_mut().take();
    let Some(live) = slot.as_deref_mut() else {
        return refuse(SHOWDOWN, "no battle is being fought");
    };
    live.set_caretaker(game);
    let (mark, applied) = live.with_mut(|b| {
        let mark = b.rng_mark();
        (mark, b.apply(a.clone()))
    });
    *game.battle.get_mut() = slot;
    let battle_events = applied.map_err(battle_error)?;
    game.battle_undo = Some(BattleUndo { mark, ended: None });
    game.save_state();
    note_titan_slayer(game, &battle_events);
    events.push(Event::Battle {
        events: battle_events,
    });
    settle(game, events);
    let decided = game
        .battle
        .get_mut()
        .as_deref_mut()
        .map(|live| live.with_mut(|b| b.end_if_decided()))
        .unwrap_or_default();
    if !decided.is_empty() {
        events.push(Event::Battle { events: decided });
    }
    let over = game
        .battle
        .get_mut()
        .as_deref()
        .is_some_and(|l| l.battle().result_ref().is_some());
    if over {
        if let Some(u) = game.battle_undo.as_mut() {
            u.ended = game.battle.get_mut().take();
        }
        finish(game, events);
    }
    Ok(())
}

/// The challenger's Titan's unit, if it is in the battle (the attacking
/// side is his team alone).
fn challenger_titan(game: &Game, units: &[crate::battle::Unit]) -> Option<usize> {
    let titan = game.variant.rules.titan.character;
    units
        .iter()
        .position(|u| u.character == titan && u.side == BattleSide::Attacker)
}

/// Remembers whose team struck the challenger's Titan its last hit.
fn note_titan_slayer(game: &mut Game, happened: &[crate::battle::BattleEvent]) {
    use crate::battle::BattleEvent;
    if game
        .state
        .showdown
        .as_ref()
        .is_none_or(|s| s.titan_slayer.is_some())
    {
        return;
    }
    let found = with_battle(game, |b| {
        let units = b.units();
        let t = challenger_titan(game, units)?;
        if !units[t].is_slain() && !matches!(units[t].status, crate::battle::Status::Gone(_)) {
            return None;
        }
        // The last strike in this action that hit it (a carry-over's hits
        // are its striker's).
        let mut striker = None;
        for e in happened {
            match e {
                BattleEvent::Struck {
                    unit, target, hits, ..
                } if *hits > 0 && usize::from(*target) == t => {
                    striker = Some(*unit);
                }
                BattleEvent::CarriedOver { target, hits }
                    if *hits > 0 && usize::from(*target) == t =>
                {
                    striker = b.carry().map(|c| c.striker).or(striker);
                }
                _ => {}
            }
        }
        let striker = striker.or_else(|| {
            happened.iter().rev().find_map(|e| match e {
                BattleEvent::Struck { unit, .. } => Some(*unit),
                _ => None,
            })
        })?;
        b.team_of(striker)
    })
    .flatten();
    if let (Some(team), Some(sd)) = (found, game.state.showdown.as_mut()) {
        sd.titan_slayer = Some(team);
    }
}

/// After each action: an opponent whose Titan fell is out (19.G), a legion
/// whose characters are all gone leaves the board (19.G), and each team's
/// reserves are its player's other legions.
fn settle(game: &mut Game, events: &mut Vec<Event>) {
    let Some(sd) = game.state.showdown.clone() else {
        return;
    };
    let titan = game.variant.rules.titan.character;
    let Some(units) = with_battle(game, |b| b.units().to_vec()) else {
        return;
    };
    let teams: Vec<Option<u8>> = with_battle(game, |b| {
        (0..units.len()).map(|k| b.team_of(k as u8)).collect()
    })
    .unwrap_or_default();
    let gone = |u: &crate::battle::Unit| matches!(u.status, crate::battle::Status::Gone(_));
    for (i, &p) in sd.opponents.iter().enumerate() {
        let team = i + 1;
        let titan_of = |k: usize| units[k].character == titan && teams[k] == Some(team as u8);
        // Slain, it may still strike back (Law of Titan 1980, 12.A); gone,
        // its player is out.
        let slain = (0..units.len()).any(|k| titan_of(k) && units[k].is_slain());
        let fell = (0..units.len()).any(|k| titan_of(k) && units[k].is_slain() && gone(&units[k]));
        if fell && game.state.players[p.0 as usize].alive {
            // 19.G: his other characters and legions are eliminated with him.
            eliminate_player(game, p, None, events);
        }
        if let Some(m) = sd.committed[i]
            && game.legion(m).is_some()
        {
            let all_gone = (0..units.len())
                .filter(|&k| sd.unit_legions.get(k) == Some(&m))
                .all(|k| gone(&units[k]));
            if all_gone {
                remove_legion(game, m, &[], events);
            }
        }
        let committed = game.state.showdown.as_ref().and_then(|s| s.committed[i]);
        let reserves = game.state.players[p.0 as usize].alive
            && !slain
            && has_other(game, p, committed.filter(|m| game.legion(*m).is_some()));
        if let Some(live) = game.battle.get_mut().as_deref_mut() {
            live.with_mut(|b| b.set_reserves(team as u8, reserves));
        }
    }
}

/// Takes `legion` off the board with only `keep` of its characters left
/// (none: it is gone); the others go back to the caretaker when their
/// class returns when slain.
fn remove_legion(game: &mut Game, legion: Marker, keep: &[CharacterId], events: &mut Vec<Event>) {
    let Some(i) = legion_index(game, legion) else {
        return;
    };
    let mut left = keep.to_vec();
    let mut lost = Vec::new();
    for &c in &game.state.legions[i].characters {
        match left.iter().position(|&k| k == c) {
            Some(j) => {
                left.swap_remove(j);
            }
            None => lost.push(c),
        }
    }
    for &c in &lost {
        if game.variant.class(class_of(game, c)).returns_when_slain {
            game.state.caretaker[c.index()] += 1;
        }
    }
    if keep.is_empty() {
        let owner = game.state.legions[i].owner;
        game.state.legions.remove(i);
        let markers = &mut game.state.players[owner.0 as usize].markers;
        if legion.player == owner || !markers.contains(&legion) {
            markers.push(legion);
            markers.sort_unstable();
        }
        events.push(Event::LegionEliminated { legion });
        return;
    }
    let l = &mut game.state.legions[i];
    let mut kept = keep.to_vec();
    kept.sort_unstable();
    l.characters = kept;
    l.revealed.retain(|c| l.characters.contains(c));
    l.seen_by = 0;
}

/// The battle is over: survivors stay in their legions, the challenger's
/// fallen Titan puts him out and gives his markers to its slayer's player,
/// whose turn comes next (19.G); one player left has won.
fn finish(game: &mut Game, events: &mut Vec<Event>) {
    let Some(sd) = game.state.showdown.take() else {
        return;
    };
    let ended_battle = game
        .battle_undo
        .as_ref()
        .and_then(|u| u.ended.as_deref())
        .map(|l| l.battle());
    let ended = ended_battle.map(|b| b.units().to_vec()).unwrap_or_default();
    // Each unit's team (a legion's marker may be another player's, taken
    // from a slain Titan's).
    let teams: Vec<Option<u8>> = ended_battle
        .map(|b| (0..ended.len()).map(|k| b.team_of(k as u8)).collect())
        .unwrap_or_default();
    let survivors = |m: Marker| -> Vec<CharacterId> {
        (0..ended.len())
            .filter(|&k| sd.unit_legions.get(k) == Some(&m))
            .filter(|&k| {
                !matches!(ended[k].status, crate::battle::Status::Gone(_)) && !ended[k].is_slain()
            })
            .map(|k| ended[k].character)
            .collect()
    };
    let titan = game.variant.rules.titan.character;
    let challenger_fell = (0..ended.len()).any(|k| {
        ended[k].side == BattleSide::Attacker && ended[k].character == titan && ended[k].is_slain()
    });
    let mut legions: Vec<Marker> = sd.unit_legions.clone();
    legions.dedup();
    for m in legions {
        if game.legion(m).is_none() {
            continue;
        }
        let keep = survivors(m);
        remove_legion(game, m, &keep, events);
    }
    // 19.G: a Defender whose Titan fell is out, with all that remains to him.
    for (i, &p) in sd.opponents.iter().enumerate() {
        let team = Some(i as u8 + 1);
        let titan_fell = (0..ended.len()).any(|k| {
            ended[k].character == titan && ended[k].is_slain() && teams.get(k) == Some(&team)
        });
        let holds = game.state.legions.iter().any(|l| l.owner == p);
        if game.state.players[p.0 as usize].alive && (titan_fell || !holds) {
            eliminate_player(game, p, None, events);
        }
    }
    let slayer = sd
        .titan_slayer
        .and_then(|t| team_player(&sd, t))
        .filter(|p| game.state.players[p.0 as usize].alive);
    if challenger_fell && game.state.players[sd.challenger.0 as usize].alive {
        eliminate_player(game, sd.challenger, None, events);
        give_markers(game, sd.challenger, slayer);
    }
    events.push(Event::ShowdownEnds);
    let next = slayer.or_else(|| {
        sd.opponents
            .iter()
            .copied()
            .find(|p| game.state.players[p.0 as usize].alive)
    });
    if let Some(p) = next {
        game.state.active = p;
    }
    after_elimination(game, events);
    if game.state.phase != Phase::Over
        && let Some(p) = next
    {
        // 19.G: play resumes with the turn of the player who slew the
        // challenger's Titan.
        begin_turn(game, p, events);
    }
}
