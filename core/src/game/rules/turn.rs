//! The phases of a player's turn: the initial split, splitting, the
//! movement roll, moves and teleports, mustering, and the turn's end.

use super::*;

pub(super) fn new_legion(
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
        distance: None,
        mustered: false,
        split_from: None,
        revealed: Vec::new(),
        seen_by: 0,
        stationed: false,
    };
    let at = game.state.legions.partition_point(|l| l.marker < marker);
    game.state.legions.insert(at, legion);
    Some(marker)
}

pub(super) fn initial_split(
    game: &mut Game,
    player: PlayerId,
    legions: &[Vec<CharacterId>],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let want = game.variant.rules.start.legions as usize;
    let splits = initial_splits(game);
    let mut key: Vec<Vec<CharacterId>> = legions.iter().map(|l| sorted(l.clone())).collect();
    key.sort();
    if !splits.contains(&key) {
        let start = &game.variant.rules.start;
        let how = if start.even_classes {
            "with the same number of each class in each (one lord and three creatures each)"
                .to_string()
        } else {
            let apart: Vec<&str> = start
                .apart
                .iter()
                .map(|&c| game.variant.character(c).name.as_str())
                .collect();
            let mut how = format!(
                "of at least {} characters each",
                game.variant.rules.legions.min_split_size
            );
            if !apart.is_empty() {
                how += &format!(", no two of {} in one legion", apart.join(", "));
            }
            how
        };
        return refuse(
            SETUP,
            format!("divide the starting characters into {want} legions {how}"),
        );
    }
    let tower = match start_land(game) {
        Some(land) => land,
        None => game.state.players[player.0 as usize]
            .tower
            .ok_or_else(|| RuleError {
                rule: SETUP,
                message: "you have no tower".into(),
            })?,
    };
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
    // The tower legion on his own tower (`rules.start.stationed`).
    let stationed: Vec<CharacterId> = game
        .variant
        .rules
        .start
        .stationed
        .iter()
        .flat_map(|&(c, n)| std::iter::repeat_n(c, usize::from(n)))
        .filter(|c| game.state.caretaker[c.index()] > 0)
        .collect();
    if let (false, Some(own)) = (
        stationed.is_empty(),
        game.state.players[player.0 as usize].tower,
    ) {
        for &c in &stationed {
            game.state.caretaker[c.index()] = game.state.caretaker[c.index()].saturating_sub(1);
        }
        let height = stationed.len();
        if let Some(m) = new_legion(game, player, own, stationed) {
            if let Some(j) = legion_index(game, m) {
                game.state.legions[j].stationed = true;
            }
            events.push(Event::LegionFormed {
                legion: m,
                land: own,
                height,
            });
        }
    }
    next_to_divide(game, events);
    Ok(())
}

/// The land every player starts on (`rules.start.land`), if the variant
/// names one: the first of its terrain.
pub(super) fn start_land(game: &Game) -> Option<LandId> {
    let terrain = game.variant.rules.start.land?;
    let board = &game.variant.board;
    board.lands().find(|&l| board.land(l).terrain == terrain)
}

/// After a division or a concession in the initial split: the next player
/// in the game still to divide, or, when all have, the first turn of the
/// first player still in the game. A player out of the game (who conceded
/// before dividing) is never the one to act.
pub(super) fn next_to_divide(game: &mut Game, events: &mut Vec<Event>) {
    let order = turn_order(game);
    let alive = |p: &PlayerId| game.state.players[p.0 as usize].alive;
    let next = order
        .iter()
        .copied()
        .find(|p| alive(p) && !game.state.legions.iter().any(|l| l.owner == *p));
    match next {
        Some(p) => game.state.active = p,
        None => {
            let Some(first) = order.iter().copied().find(alive) else {
                return;
            };
            game.state.turn = 1;
            begin_turn(game, first, events);
        }
    }
}

pub(super) fn begin_turn(game: &mut Game, player: PlayerId, events: &mut Vec<Event>) {
    let s = &mut game.state;
    s.active = player;
    s.roll = None;
    s.mulligan_used = false;
    s.teleports = 0;
    s.summoned = false;
    s.mustered.clear();
    s.engagement = None;
    s.players[player.0 as usize].turns += 1;
    for l in s.legions.iter_mut() {
        // Every player's turn is a Game-Turn (Law of Titan 1982 6.0): a
        // legion that mustered in another's may reinforce in this one.
        l.mustered = false;
        if l.owner == player {
            l.moved = false;
            l.entered_from = None;
            l.distance = None;
        }
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

pub(super) fn split(
    game: &mut Game,
    player: PlayerId,
    marker: Marker,
    parts: &[Vec<CharacterId>],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = owned_legion(game, player, marker)?;
    let legion = &game.state.legions[i];
    if legion.stationed {
        return refuse(
            COMMENCEMENT,
            format!("legion {marker} is a tower legion, stationed on its tower: it does not split"),
        );
    }
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
    // The first change, after which nothing refuses (`Undo::Lazy`).
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

pub(super) fn roll(
    game: &mut Game,
    player: PlayerId,
    distance: Option<u8>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if super::legal::per_legion_distance(game) {
        return refuse(
            MOVEMENT,
            format!(
                "no roll in this variant: each legion moves its own distance, 1 to {} lands (move one)",
                game.variant.rules.movement.die
            ),
        );
    }
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
    // The only change, after which nothing refuses (`Undo::Lazy`).
    game.state.roll = Some(r);
    events.push(Event::Rolled { player, roll: r });
    Ok(())
}

pub(super) fn move_legion(
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
    let per_legion = super::legal::per_legion_distance(game);
    if game.state.roll.is_none() && !per_legion {
        return refuse(MOVEMENT, "roll for movement first");
    }
    if legion.stationed {
        return refuse(
            MOVEMENT,
            format!("legion {marker} is a tower legion, stationed on its tower: it does not move"),
        );
    }
    if super::legal::held_full(game, legion) {
        return refuse(
            MOVEMENT,
            format!(
                "legion {marker} is full ({} characters) and may not move in this variant (rules.legions.full_legions_move)",
                legion.height()
            ),
        );
    }
    let target = MoveTarget {
        land: to,
        entered_from: from,
    };
    let roll = with_occupancy(game, player, |occ, _| {
        let reached = match per_legion {
            // The distance it is taken to have moved (which musters ask).
            true => super::legal::distance_to(game, legion, occ, target),
            false => {
                let roll = game.state.roll.unwrap_or(0);
                let closed = super::legal::legion_occ(game, legion, occ);
                game.exits
                    .reaches(legion.land, roll, &closed, target)
                    .then_some(roll)
            }
        };
        reached.ok_or_else(|| refusal::why_not_move(game, legion, to, from, occ))
    })?;
    let start = legion.land;
    // The first change, after which nothing refuses: `Game::apply` copies
    // no state before a move (`Undo::Lazy`).
    let l = &mut game.state.legions[i];
    l.land = to;
    l.moved = true;
    l.entered_from = Some(from);
    l.distance = Some(roll);
    events.push(Event::Moved {
        legion: marker,
        from: start,
        to,
    });
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(super) fn teleport(
    game: &mut Game,
    player: PlayerId,
    marker: Marker,
    to: LandId,
    kind: TeleportKind,
    lord: CharacterId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = owned_legion(game, player, marker)?;
    let wanted = Action::Teleport {
        legion: marker,
        to,
        kind,
        lord,
    };
    with_occupancy(game, player, |occ, _| {
        let l = &game.state.legions[i];
        if visit_teleports(game, l, occ, &mut |a| a == wanted) {
            Ok(())
        } else {
            Err(refusal::why_not_teleport(game, l, to, kind, lord, occ))
        }
    })?;
    let from = game.state.legions[i].land;
    // The first change, after which nothing refuses (`Undo::Lazy`).
    game.state.teleports += 1;
    let l = &mut game.state.legions[i];
    l.land = to;
    l.moved = true;
    l.entered_from = None;
    l.distance = None;
    // Teleportation: "The Mover must reveal the identity of the Lord".
    merge_revealed(&mut l.revealed, &[lord]);
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
/// what was shown at once (sorted; in place).
pub(super) fn merge_revealed(revealed: &mut Vec<CharacterId>, shown: &[CharacterId]) {
    let before = revealed.len();
    for (i, &k) in shown.iter().enumerate() {
        // Each kind once.
        if shown[..i].contains(&k) {
            continue;
        }
        let need = shown.iter().filter(|&&c| c == k).count();
        let have = revealed[..before].iter().filter(|&&c| c == k).count();
        revealed.extend(std::iter::repeat_n(k, need.saturating_sub(have)));
    }
    revealed.sort_unstable();
}

pub(super) fn done_moving(
    game: &mut Game,
    player: PlayerId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    done_moving_check(game, player)?;
    // Nothing refuses after the check (`Undo::Lazy`).
    // Split legions that could not part recombine (reference sheet, Commencement):
    // all of the player's legions in one land join the one they split from.
    loop {
        let pair = {
            let mine = || game.state.legions.iter().filter(|l| l.owner == player);
            mine().find_map(|a| {
                mine()
                    .find(|b| {
                        b.marker != a.marker
                            && b.land == a.land
                            && !game.variant.is_shared(a.land)
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
    if super::engagement::engagements_over(game) {
        super::engagement::to_muster(game);
    }
    Ok(())
}

pub(super) fn muster(
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
    if !super::legal::moved_to_muster(game, l) {
        let distances = &game.variant.rules.movement.muster_distances;
        let list: Vec<String> = distances.iter().map(u8::to_string).collect();
        return refuse(
            MOVEMENT,
            format!(
                "legion {marker} moved {} this turn: it may muster only after moving {} lands",
                match l.distance {
                    Some(1) => "1 land".to_string(),
                    Some(d) => format!("{d} lands"),
                    None => "by teleport".to_string(),
                },
                list.join(" or ")
            ),
        );
    }
    if l.mustered {
        return refuse(
            ENLISTMENT,
            "no legion may muster more than one character per game turn",
        );
    }
    if game.variant.legion_size(l.characters.iter().copied())
        >= game.variant.rules.legions.max_size as usize
    {
        return refuse(ENLISTMENT, "a legion with 7 characters cannot muster");
    }
    let option = MusterOption {
        recruit,
        reveal: sorted(reveal.to_vec()),
    };
    if !may_muster(game, l, &option) {
        return Err(refusal::why_not_muster(game, l, &option));
    }
    if !super::legal::muster_limit_allows(game, recruit) {
        let limit = game
            .variant
            .rules
            .legions
            .muster_per_turn
            .iter()
            .find(|m| m.characters.contains(&game.variant.character(recruit).name));
        return refuse(
            ENLISTMENT,
            format!(
                "you have mustered {} of {} this turn already: no more {} until your next turn",
                limit.map_or(0, |m| m.count),
                limit.map_or_else(String::new, |m| m.characters.join(", ")),
                game.variant.character(recruit).name
            ),
        );
    }
    // The first change, after which nothing refuses (`Undo::Lazy`).
    do_muster(game, marker, option, events);
    if !game.variant.rules.legions.muster_per_turn.is_empty() {
        game.state.mustered.push(recruit);
    }
    Ok(())
}

pub(super) fn do_muster(
    game: &mut Game,
    marker: Marker,
    option: MusterOption,
    events: &mut Vec<Event>,
) {
    // The characters shown qualify the muster; the recruit is one more
    // (shown too), so it is added after them, not merged with them.
    if let Some(i) = legion_index(game, marker) {
        let l = &mut game.state.legions[i];
        merge_revealed(&mut l.revealed, &option.reveal);
    }
    add_from_caretaker(game, marker, option.recruit);
    if let Some(i) = legion_index(game, marker) {
        let l = &mut game.state.legions[i];
        l.mustered = true;
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

/// Refuses nothing (`Undo::Lazy`).
pub(super) fn end_turn(game: &mut Game, events: &mut Vec<Event>) {
    // "For a Shorter Game": a point total ends the game at the end of that turn.
    let limit = match game.option("point_limit") {
        Some(OptionValue::Int(n)) if *n > 0 => Some(*n as u32),
        _ => None,
    };
    // Seats are numbered by a byte.
    let seats = usize::from(game.state.players.len() as u8);
    let alive = |game: &Game| {
        (0..seats)
            .map(|i| PlayerId(i as u8))
            .filter(|p| game.state.players[p.0 as usize].alive)
            .collect::<Vec<PlayerId>>()
    };
    let living = || game.state.players[..seats].iter().filter(|p| p.alive);
    let best = living().map(|p| p.score).max().unwrap_or(0);
    let args = (game.state.turn, living().count() as u32, best);
    let hooked = call_hook_advancing::<_, Option<u8>>(game, hook::GAME_OVER, args);
    if let Some(Some(w)) = hooked
        && alive(game).contains(&PlayerId(w))
    {
        game_over(game, Outcome::Winner(PlayerId(w)), events);
        return;
    }
    if limit.is_some_and(|l| best >= l) {
        let leaders: Vec<PlayerId> = alive(game)
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

pub(super) fn next_player(game: &mut Game, events: &mut Vec<Event>) {
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
