//! Engagements: choosing one, flight, concession, agreement, the battle's
//! result, and what the winner may do after (summon, acquire, reinforce).

use super::*;

pub(super) fn engage(
    game: &mut Game,
    player: PlayerId,
    land: LandId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if !engaged_lands(game).contains(&land) {
        return refuse(ENGAGEMENT, "there is no engagement in that land");
    }
    let here: Vec<&Legion> = game.legions_in(land).collect();
    // The first of the mover's legions there and another player's it may
    // engage (`rules.movement.truce`).
    let pair = here.iter().filter(|l| l.owner == player).find_map(|att| {
        here.iter()
            .find(|d| d.owner != player && super::legal::may_engage(game, att, d))
            .map(|def| (att.marker, def.marker))
    });
    let Some((a, d)) = pair else {
        return refuse(ENGAGEMENT, "no legion of yours is engaged there");
    };
    begin_engagement(game, land, a, d, events);
    Ok(())
}

/// The mover engages another player's legion on a shared land (Gods of
/// Titan 10.2), once a legion a phase.
pub(super) fn challenge(
    game: &mut Game,
    player: PlayerId,
    attacker: Marker,
    defender: Marker,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let turns = game.variant.rules.movement.treaty_turns;
    if game.variant.at_peace(game.state.turn) {
        return refuse(
            ENGAGEMENT,
            format!("no engagement is allowed through game turn {turns} (the treaty)"),
        );
    }
    let (Some(a), Some(d)) = (game.legion(attacker), game.legion(defender)) else {
        return refuse(ENGAGEMENT, "no such legion");
    };
    if a.owner != player {
        return refuse(ENGAGEMENT, format!("legion {attacker} is not yours"));
    }
    if a.land != d.land || !game.variant.is_shared(a.land) {
        return refuse(
            ENGAGEMENT,
            format!(
                "legion {attacker} may challenge only a legion on the shared land it stands on"
            ),
        );
    }
    if d.owner == player {
        return refuse(ENGAGEMENT, "a legion of yours cannot be challenged");
    }
    if game.state.challenged.contains(&attacker) {
        return refuse(
            ENGAGEMENT,
            format!(
                "legion {attacker} has engaged once this phase already (one engagement a legion)"
            ),
        );
    }
    let land = a.land;
    // No refusal from here on (`Undo::Lazy`).
    game.state.challenged.push(attacker);
    begin_engagement(game, land, attacker, defender, events);
    Ok(())
}

/// Ends the engagement phase with challenges left unmade.
pub(super) fn done_engaging(game: &mut Game, player: PlayerId) -> Result<(), RuleError> {
    if player != game.state.active {
        return refuse(TURN, "it is not your turn");
    }
    if any_engaged(game) {
        return refuse(
            ENGAGEMENT,
            "the engagements your moves made must be resolved first",
        );
    }
    to_muster(game);
    Ok(())
}

/// Whether the engagement phase has nothing left that must or may be done.
pub(super) fn engagements_over(game: &Game) -> bool {
    !any_engaged(game) && challenges(game).is_empty()
}

/// The engagement phase ends: the muster phase follows.
pub(super) fn to_muster(game: &mut Game) {
    game.state.phase = Phase::Muster;
    game.state.challenged.clear();
}

/// Sets an engagement of `a` on `d` in `land` going, and shows each side
/// the other.
fn begin_engagement(game: &mut Game, land: LandId, a: Marker, d: Marker, events: &mut Vec<Event>) {
    let (Some(att), Some(def)) = (game.legion(a), game.legion(d)) else {
        return;
    };
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
}

pub(super) fn engagement_step(
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
                Loss::Fled,
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
        (EngagementStep::Battle, Action::Concede) if game.battle.borrow().is_some() => {
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
            slay(
                game,
                loser,
                &chars,
                winner_owner,
                Loss::Conceded,
                &mut deaths,
                events,
            );
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
            let to = if is_att { def_owner } else { att_owner };
            events.push(Event::Proposed {
                by: player,
                to: to.unwrap_or(player),
            });
        }
        (EngagementStep::Negotiate { proposal: Some(p) }, Action::Reject) if p.by != player => {
            set_step(game, EngagementStep::Negotiate { proposal: None });
            events.push(Event::Rejected {
                by: player,
                to: p.by,
            });
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

pub(super) fn set_step(game: &mut Game, step: EngagementStep) {
    if let Some(e) = game.state.engagement.as_mut() {
        e.step = step;
    }
}

pub(super) fn agreement(game: &mut Game, e: &Engagement, p: &Proposal, events: &mut Vec<Event>) {
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
        Loss::Slain,
        &mut deaths,
        events,
    );
    slay(
        game,
        e.defender,
        &p.defender_losses,
        Some(ao),
        Loss::Slain,
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
pub(super) fn conclude(
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

pub(super) fn battle_result(
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
        Loss::Slain,
        &mut deaths,
        events,
    );
    slay(
        game,
        e.defender,
        &r.defender_slain,
        Some(ao),
        Loss::Slain,
        &mut deaths,
        events,
    );
    // Removed without being scored (a slain Titan's legion-mates).
    slay(
        game,
        e.attacker,
        &r.attacker_removed,
        None,
        Loss::Removed,
        &mut deaths,
        events,
    );
    slay(
        game,
        e.defender,
        &r.defender_removed,
        None,
        Loss::Removed,
        &mut deaths,
        events,
    );
    let survivors_att: Vec<CharacterId> = {
        let mut v = survivors_att;
        remove_all(&mut v, &r.attacker_removed);
        v
    };
    if r.time_loss && !survivors_att.is_empty() {
        slay(
            game,
            e.attacker,
            &survivors_att,
            None,
            Loss::Removed,
            &mut deaths,
            events,
        );
    }
    // Survivors ending in the other legion (`ctx:change_side`) or taken
    // from the caretaker (`ctx:add_unit`) join a legion that survives with
    // its own characters; otherwise they are gone with it.
    for (legion, gone, joined, added) in [
        (e.attacker, att_gone, &r.attacker_joined, &r.attacker_added),
        (e.defender, def_gone, &r.defender_joined, &r.defender_added),
    ] {
        if gone {
            continue;
        }
        for &c in added {
            add_from_caretaker(game, legion, c);
        }
        if let Some(j) = legion_index(game, legion) {
            let l = &mut game.state.legions[j];
            l.characters = sorted([l.characters.clone(), joined.clone()].concat());
            // Seen joining in the battle: known beside those shown before.
            l.revealed = sorted([l.revealed.clone(), joined.clone()].concat());
        }
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
                // Not after an attacker's concession before placing any
                // character (reference sheet, Reinforcement).
                r.reinforced.is_none() && !r.conceded_unplaced,
            )
        }
        _ => (None, 0, false, false),
    };
    conclude(game, winner, points, summon, reinforce, deaths, events);
    Ok(())
}

pub(super) fn after_step(
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
    let room = game.variant.legion_size(winner.characters.iter().copied())
        < game.variant.rules.legions.max_size as usize;
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
            if !acquirable(game, winner, threshold).contains(character) {
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
            if !may_muster(game, winner, &option) {
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

pub(super) fn finish_engagement(
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

pub(super) fn end_engagement(game: &mut Game, events: &mut Vec<Event>) {
    game.state.engagement = None;
    if game.state.phase == Phase::Engage && engagements_over(game) {
        to_muster(game);
    }
    // A mover whose Titan fell waited for the winner to finish: play passes.
    let active = game.state.active;
    if game.state.phase != Phase::Over && !game.state.players[active.0 as usize].alive {
        next_player(game, events);
    }
}

/// Moves one character between two legions of a player.
pub(super) fn move_character(
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
        l.characters.push(c);
        l.characters.sort_unstable();
        // Everybody sees the newcomer: one more of its kind is known.
        l.revealed.push(c);
        l.revealed.sort_unstable();
    }
    events.push(Event::Summoned {
        legion: to,
        from,
        character: c,
    });
}

pub(super) fn add_from_caretaker(game: &mut Game, to: Marker, c: CharacterId) {
    game.state.caretaker[c.index()] = game.state.caretaker[c.index()].saturating_sub(1);
    if let Some(j) = legion_index(game, to) {
        let l = &mut game.state.legions[j];
        l.characters.push(c);
        l.characters.sort_unstable();
        // Everybody sees the newcomer: one more of its kind is known.
        l.revealed.push(c);
        l.revealed.sort_unstable();
    }
}
