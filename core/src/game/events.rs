//! Script events of masterplay (`titan.on`): fired after an action's rules
//! have run, in the order of the action's events, then the phase's end and
//! the next phase's start. Handlers read the position after the action and
//! request effects, applied in order with events (which may fire events in
//! turn). A failing handler refuses the whole action (see [`Game::apply`]).

use super::*;
use crate::script::{self, CtxData, Effect, F};

/// The most events one action may fire: handlers that keep triggering
/// each other (an award on `points_scored` that awards) end here.
const MAX_FIRED: usize = 10_000;

/// What an action's events are compared with.
pub(super) struct Before {
    phase: Phase,
    active: PlayerId,
    engagement: Option<Engagement>,
}

impl Before {
    pub(super) fn of(game: &Game) -> Before {
        Before {
            phase: game.state.phase,
            active: game.state.active,
            engagement: game.state.engagement.clone(),
        }
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::InitialSplit => "initial_split",
        Phase::Split => "split",
        Phase::Move => "move",
        Phase::Engage => "engage",
        Phase::Muster => "muster",
        Phase::Over => "over",
    }
}

fn seat(p: PlayerId) -> F<'static> {
    F::I(i64::from(p.0))
}

/// Fires `game_start` once the game is set up.
pub(super) fn fire_start(game: &mut Game, events: &mut Vec<Event>) {
    let mut fired = 0;
    fire(game, "game_start", &[], events, &mut fired);
}

/// Fires the events of an action's `events` (and of what handlers add).
pub(super) fn fire_after(
    game: &mut Game,
    before: &Before,
    action: &Action,
    events: &mut Vec<Event>,
) {
    let Some(hooks) = game.hooks.clone() else {
        return;
    };
    if hooks.host.handled_events().is_empty() {
        return;
    }
    let mut fired = 0usize;
    if matches!(action, Action::EndTurn) {
        fire(
            game,
            "turn_end",
            &[("player", seat(before.active))],
            events,
            &mut fired,
        );
    }
    let mut i = 0;
    while i < events.len() {
        let e = events[i].clone();
        i += 1;
        let v = Arc::clone(&game.variant);
        let land = |l: LandId| F::I(i64::from(v.board.land(l).number));
        match &e {
            Event::TurnBegins { player, turn } => fire(
                game,
                "turn_start",
                &[
                    ("player", seat(*player)),
                    ("game_turn", F::I(i64::from(*turn))),
                ],
                events,
                &mut fired,
            ),
            Event::Split { legion, into } => {
                let into: Vec<String> = into.iter().map(Marker::to_string).collect();
                let (l, into) = (legion.to_string(), into.join(" "));
                fire(
                    game,
                    "legion_split",
                    &[("legion", F::S(&l)), ("into", F::S(&into))],
                    events,
                    &mut fired,
                )
            }
            Event::Moved { legion, from, to } | Event::Teleported { legion, from, to } => {
                let l = legion.to_string();
                let teleported = matches!(e, Event::Teleported { .. });
                fire(
                    game,
                    "legion_moved",
                    &[
                        ("legion", F::S(&l)),
                        ("from", land(*from)),
                        ("to", land(*to)),
                        ("teleported", F::B(teleported)),
                    ],
                    events,
                    &mut fired,
                )
            }
            Event::EngagementBegins {
                land: at,
                attacker,
                defender,
            } => {
                let (a, d) = (attacker.to_string(), defender.to_string());
                fire(
                    game,
                    "engagement_start",
                    &[
                        ("land", land(*at)),
                        ("attacker", F::S(&a)),
                        ("defender", F::S(&d)),
                    ],
                    events,
                    &mut fired,
                )
            }
            Event::BattleBegins { land: at } => fire(
                game,
                "battle_start",
                &[("land", land(*at))],
                events,
                &mut fired,
            ),
            Event::Battle { events: inner } => {
                let ended = inner.iter().find_map(|b| match b {
                    crate::battle::BattleEvent::Ended(w) => Some(*w),
                    _ => None,
                });
                if let (Some(w), Some(eng)) = (ended, &before.engagement) {
                    let (a, d) = (eng.attacker.to_string(), eng.defender.to_string());
                    let winner = match w {
                        crate::battle::Winner::Attacker => "attacker",
                        crate::battle::Winner::Defender => "defender",
                        crate::battle::Winner::Neither => "neither",
                    };
                    let mut fields = vec![
                        ("land", land(eng.land)),
                        ("attacker", F::S(&a)),
                        ("defender", F::S(&d)),
                        ("winner", F::S(winner)),
                        ("attacker_player", seat(eng.attacker.player)),
                        ("defender_player", seat(eng.defender.player)),
                    ];
                    match w {
                        crate::battle::Winner::Attacker => {
                            fields.push(("winner_player", seat(eng.attacker.player)))
                        }
                        crate::battle::Winner::Defender => {
                            fields.push(("winner_player", seat(eng.defender.player)))
                        }
                        crate::battle::Winner::Neither => {}
                    }
                    fire(game, "battle_end", &fields, events, &mut fired)
                }
            }
            Event::Scored {
                player,
                points,
                score,
            } => fire(
                game,
                "points_scored",
                &[
                    ("player", seat(*player)),
                    ("points", F::I(i64::from(*points))),
                    ("score", F::I(i64::from(*score))),
                ],
                events,
                &mut fired,
            ),
            Event::Mustered { legion, character } => {
                let l = legion.to_string();
                let c = v.character(*character).name.clone();
                fire(
                    game,
                    "muster",
                    &[("legion", F::S(&l)), ("character", F::S(&c))],
                    events,
                    &mut fired,
                )
            }
            Event::PlayerEliminated { player, by } => {
                let mut fields = vec![("player", seat(*player))];
                if let Some(b) = by {
                    fields.push(("by", seat(*b)));
                }
                fire(game, "player_eliminated", &fields, events, &mut fired)
            }
            _ => {}
        }
    }
    if let Some(eng) = &before.engagement
        && game
            .state
            .engagement
            .as_ref()
            .is_none_or(|e| e.attacker != eng.attacker || e.defender != eng.defender)
    {
        let v = Arc::clone(&game.variant);
        let (a, d) = (eng.attacker.to_string(), eng.defender.to_string());
        let at = F::I(i64::from(v.board.land(eng.land).number));
        fire(
            game,
            "engagement_end",
            &[("land", at), ("attacker", F::S(&a)), ("defender", F::S(&d))],
            events,
            &mut fired,
        );
    }
    if before.phase != game.state.phase {
        fire(
            game,
            "phase_end",
            &[("phase", F::S(phase_name(before.phase)))],
            events,
            &mut fired,
        );
        let now = game.state.phase;
        fire(
            game,
            "phase_start",
            &[("phase", F::S(phase_name(now)))],
            events,
            &mut fired,
        );
    }
}

/// Fires one event at the position of `game` (the game's generator lent to
/// the scripts and taken back advanced) and applies its effects.
fn fire(
    game: &mut Game,
    event: &str,
    fields: &[(&str, F)],
    events: &mut Vec<Event>,
    fired: &mut usize,
) {
    let Some(hooks) = game.hooks.clone() else {
        return;
    };
    if hooks.failure.borrow().is_some() || !hooks.host.has_handlers(event) {
        return;
    }
    *fired += 1;
    if *fired > MAX_FIRED {
        hooks.failure.borrow_mut().get_or_insert(crate::lua::ScriptError {
            script: format!("(handlers of {event:?})"),
            line: None,
            kind: crate::lua::ScriptErrorKind::Runtime,
            message: format!("one action fired more than {MAX_FIRED} events: handlers keep triggering each other"),
        });
        return;
    }
    let mut all = vec![
        ("turn", F::I(i64::from(game.state.turn))),
        ("active", seat(game.state.active)),
        ("phase", F::S(phase_name(game.state.phase))),
    ];
    all.extend_from_slice(fields);
    *hooks.rng.borrow_mut() = game.rng.clone();
    let state = &game.state;
    let result = script::fire(
        &hooks.host,
        event,
        || CtxData::Game(Box::new(state.clone())),
        &all,
    );
    game.rng = hooks.rng.borrow().clone();
    match result {
        Ok(Some(f)) => apply_effects(game, f.effects, events),
        Ok(None) => {}
        Err(e) => {
            hooks.failure.borrow_mut().get_or_insert(e);
        }
    }
}

/// Applies checked effects in order (checked against this same position).
fn apply_effects(game: &mut Game, effects: Vec<Effect>, events: &mut Vec<Event>) {
    for e in effects {
        match e {
            Effect::Set {
                variable,
                of,
                value,
            } => {
                let Some(def) = game.variant.variable(&variable).cloned() else {
                    continue;
                };
                game.state.vars.set(&def, of, value.clone());
                if def.visibility == crate::format::Visibility::Everyone {
                    events.push(Event::VarSet {
                        variable,
                        of,
                        value,
                    });
                }
            }
            Effect::Award { player, points } => {
                let p = &mut game.state.players[player.0 as usize];
                p.score += points;
                events.push(Event::Scored {
                    player,
                    points,
                    score: p.score,
                });
            }
            // Checked away: battle effects are refused outside battles.
            Effect::Damage { .. }
            | Effect::Heal { .. }
            | Effect::Move { .. }
            | Effect::Kill { .. } => {}
        }
    }
}
