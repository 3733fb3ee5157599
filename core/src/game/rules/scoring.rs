//! Death and points: slaying characters, scoring them, eliminating players
//! and legions, and the end of the game.

use super::*;

/// Removes slain characters from a legion; those whose class returns go back
/// to the caretaker. An emptied legion leaves the board. A slain Titan ends
/// its player.
pub(super) fn slay(
    game: &mut Game,
    marker: Marker,
    chars: &[CharacterId],
    slayer: Option<PlayerId>,
    loss: Loss,
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
        loss,
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
pub(super) type Deaths = Vec<(PlayerId, Option<PlayerId>)>;

pub(super) fn bury(game: &mut Game, deaths: Deaths, events: &mut Vec<Event>) {
    if deaths.is_empty() {
        return;
    }
    for (dead, slayer) in deaths {
        eliminate_player(game, dead, slayer, events);
    }
    after_elimination(game, events);
}

/// Adds points and returns the acquisition thresholds passed.
pub(super) fn score(
    game: &mut Game,
    player: PlayerId,
    points: u32,
    events: &mut Vec<Event>,
) -> Vec<u32> {
    if points == 0 || !game.state.players[player.0 as usize].alive {
        return Vec::new();
    }
    let p = &mut game.state.players[player.0 as usize];
    let before = p.score;
    p.score = p.score.saturating_add(points);
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
        .map(|a| a.every)
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
/// scores `rules.scoring.left_legions`' part of the value of the player's
/// other legions (half in the 1982 game: reference sheet, "Titans"; all in
/// the Law of Titan 1980, 18.B) and takes the markers; legions in unresolved
/// engagements give theirs to those opponents where the variant says so.
pub(super) fn eliminate_player(
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
    let left = game.variant.rules.scoring.left_legions.clone();
    let (num, den) = left.fraction;
    for l in legions {
        let opponent = game
            .state
            .legions
            .iter()
            .find(|o| o.land == l.land && o.owner != dead)
            .map(|o| o.owner)
            .filter(|_| left.engaged_to_opponent);
        let whole: u64 = l
            .characters
            .iter()
            .map(|&c| u64::from(value(game, dead, c)))
            .sum();
        let part =
            u32::try_from(whole * u64::from(num) / u64::from(den.max(1))).unwrap_or(u32::MAX);
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
            && part > 0
        {
            let p = &mut game.state.players[to.0 as usize];
            p.score = p.score.saturating_add(part);
            let score = p.score;
            events.push(Event::Scored {
                player: to,
                points: part,
                score,
            });
        }
    }
    // The slayer gains the legion markers.
    give_markers(game, dead, slayer);
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

/// `dead`'s legion markers, all of them, leave him for `to` (if in the
/// game) to use as his own.
pub(super) fn give_markers(game: &mut Game, dead: PlayerId, to: Option<PlayerId>) {
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
    if let Some(to) = to.filter(|to| game.state.players[to.0 as usize].alive) {
        let p = &mut game.state.players[to.0 as usize].markers;
        for m in all {
            if !p.contains(&m) {
                p.push(m);
            }
        }
        p.sort_unstable();
    }
}

/// Ends the game when one player or none is left; moves play on when the
/// player to move is gone.
pub(super) fn after_elimination(game: &mut Game, events: &mut Vec<Event>) {
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
            next_to_divide(game, events);
        } else {
            next_player(game, events);
        }
    } else if game.state.phase == Phase::Engage
        && game.state.engagement.is_none()
        && !any_engaged(game)
    {
        game.state.phase = Phase::Muster;
    }
}

pub(super) fn game_over(game: &mut Game, outcome: Outcome, events: &mut Vec<Event>) {
    game.state.phase = Phase::Over;
    game.state.engagement = None;
    game.state.outcome = Some(outcome.clone());
    events.push(Event::GameOver { outcome });
}
