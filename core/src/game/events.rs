//! Script events of masterplay (`titan.on`): fired after an action's rules
//! have run, in the order of the action's events, then the phase's end and
//! the next phase's start. Handlers read the position after the action and
//! request effects, applied in order with events (which may fire events in
//! turn). A failing handler refuses the whole action (see [`Game::apply`]).

use super::*;
use crate::format::{ActionWhen, VarValue};
use crate::model::ScriptAction;
use crate::script::{self, CtxData, Effect, F, ScriptArg};
use crate::vars::VarTarget;

/// The most events one action may fire: handlers that keep triggering
/// each other (an award on `points_scored` that awards) end here.
const MAX_FIRED: usize = 10_000;

/// Per-turn limits of script actions start afresh with the player's turn.
fn reset_turn_limits(game: &mut Game, events: &[Event]) {
    for e in events {
        if let Event::TurnBegins { player, .. } = e {
            for a in &game.variant.actions {
                if let Some(l) = &a.def.limit
                    && l.per == crate::format::LimitPer::Turn
                    && let Some(def) = game.variant.variable(&l.variable)
                {
                    game.state
                        .vars
                        .set(def, VarTarget::Player(*player), def.default.clone());
                }
            }
        }
    }
}

fn script_when(game: &Game) -> Option<ActionWhen> {
    if game.state.engagement.is_some() {
        return None;
    }
    match game.state.phase {
        Phase::Split => Some(ActionWhen::Split),
        Phase::Move => Some(ActionWhen::Move),
        Phase::Engage => Some(ActionWhen::Engage),
        Phase::Muster => Some(ActionWhen::Muster),
        Phase::InitialSplit | Phase::Over => None,
    }
}

fn int_var(game: &Game, name: &str, player: PlayerId) -> i64 {
    match game.variant.variable(name) {
        Some(def) => match game.state.vars.get(def, VarTarget::Player(player)) {
            VarValue::Int(n) => *n,
            _ => 0,
        },
        None => 0,
    }
}

/// Where an action's cost is paid from: a game variable, or the acting
/// player's.
fn cost_target(def: &crate::format::VariableDef, player: PlayerId) -> VarTarget {
    match def.scope {
        crate::format::VarScope::Game => VarTarget::Game,
        _ => VarTarget::Player(player),
    }
}

/// What the variable an action's cost is paid from holds.
fn cost_left(game: &Game, name: &str, player: PlayerId) -> i64 {
    match game.variant.variable(name) {
        Some(def) => match game.state.vars.get(def, cost_target(def, player)) {
            VarValue::Int(n) => *n,
            _ => 0,
        },
        None => 0,
    }
}

/// Why `player` may not take `a` now (its phase, limit and cost), if so.
fn not_now(game: &Game, player: PlayerId, a: &ScriptAction) -> Option<String> {
    let label = &a.def.label;
    // A further choice (`ctx:choose`) is offered whatever its phase.
    let follow_up = game.state.choice.as_deref() == Some(a.def.name.as_str());
    if player != game.state.active || !follow_up && script_when(game) != Some(a.def.when) {
        return Some(format!(
            "{label} is taken in the {:?} phase, by the player whose turn it is, outside engagements",
            a.def.when
        ));
    }
    if let Some(l) = &a.def.limit
        && int_var(game, &l.variable, player) >= i64::from(l.times)
    {
        return Some(format!(
            "{label} may be taken {} times per {:?}",
            l.times, l.per
        ));
    }
    if let Some(c) = &a.def.cost
        && cost_left(game, &c.variable, player) < c.amount
    {
        return Some(format!("{label} costs {} {}", c.amount, c.variable));
    }
    if let Some(r) = &a.requires {
        let v = &game.variant;
        let mine = || game.state.legions.iter().filter(|l| l.owner == player);
        if !r.legion_on.is_empty()
            && !mine().any(|l| r.legion_on.contains(&v.board.land(l.land).terrain))
        {
            let names: Vec<&str> = r
                .legion_on
                .iter()
                .map(|t| v.terrains[t.index()].name.as_str())
                .collect();
            return Some(format!(
                "{label} needs a legion of yours in {}",
                names.join(" or ")
            ));
        }
        if let Some(def) = &r.legion_set
            && !mine().any(|l| {
                *game
                    .state
                    .vars
                    .get(def, crate::vars::VarTarget::Legion(l.marker))
                    != def.default
            })
        {
            return Some(format!("{label} is not open to any legion of yours now"));
        }
    }
    None
}

fn action_fields(game: &Game, player: PlayerId) -> Vec<(&'static str, F<'static>)> {
    let mut f = vec![
        ("turn", F::I(i64::from(game.state.turn))),
        ("active", seat(game.state.active)),
        ("phase", F::W(phase_name(game.state.phase))),
        ("player", seat(player)),
    ];
    if let Some(r) = game.state.roll {
        f.push(("roll", F::I(i64::from(r))));
    }
    f
}

fn legal_args(
    game: &Game,
    player: PlayerId,
    a: &ScriptAction,
) -> Result<Vec<Vec<ScriptArg>>, crate::lua::ScriptError> {
    let Some(hooks) = &game.hooks else {
        return Ok(Vec::new());
    };
    *hooks.rng.borrow_mut() = game.rng.clone();
    let state = &game.state;
    script::action_legal(
        &hooks.host,
        a,
        || CtxData::Game(Box::new(state.clone())),
        &action_fields(game, player),
    )
}

/// The script actions `player` may take now (a failing `legal` is kept as
/// the query's script failure, see [`Game::take_script_failure`]).
pub(in crate::game) fn script_actions(game: &Game, player: PlayerId, out: &mut Vec<Action>) {
    for a in &game.variant.actions {
        offer(game, player, a, out);
    }
}

/// Why the scripts refuse `player` the end of his phase or turn now
/// (`may_end_phase`), when they do.
pub(in crate::game) fn end_refused(
    game: &Game,
    player: PlayerId,
) -> Result<Option<String>, crate::lua::ScriptError> {
    let Some(hooks) = &game.hooks else {
        return Ok(None);
    };
    if !hooks.host.has_handlers("may_end_phase") {
        return Ok(None);
    }
    let state = &game.state;
    let mut base = vec![
        ("turn", F::I(i64::from(state.turn))),
        ("active", seat(state.active)),
        ("phase", F::W(phase_name(state.phase))),
    ];
    if let Some(r) = state.roll {
        base.push(("roll", F::I(i64::from(r))));
    }
    let fields = [
        ("player", seat(player)),
        ("turn_end", F::B(state.phase == Phase::Muster)),
    ];
    // A question: its handlers may draw, from a copy of the game's
    // generator (the same answer for the same position, the game's dice
    // untouched).
    *hooks.rng.borrow_mut() = game.rng.clone();
    let answer = script::ask_why(
        &hooks.host,
        "may_end_phase",
        || CtxData::Game(Box::new(state.clone())),
        &base,
        &fields,
    )?;
    Ok(match answer {
        Some((false, why)) => Some(why.unwrap_or_else(|| {
            format!(
                "the variant's scripts do not let the {} phase end now",
                phase_name(state.phase)
            )
        })),
        _ => None,
    })
}

/// The choices of the further choice `name` the player must make now
/// (`GameState::choice`): the action's `legal`, its limit and cost
/// checked, whatever its phase.
pub(in crate::game) fn choice_actions(
    game: &Game,
    player: PlayerId,
    name: &str,
    out: &mut Vec<Action>,
) {
    if let Some(a) = game.variant.script_action(name) {
        offer(game, player, a, out);
    }
}

/// The choices of masterplay action `a` that `player` may take now, into
/// `out` (a failing `legal` kept as the query's script failure).
fn offer(game: &Game, player: PlayerId, a: &ScriptAction, out: &mut Vec<Action>) {
    let Some(hooks) = &game.hooks else { return };
    if a.def.when.in_battle() || not_now(game, player, a).is_some() {
        return;
    }
    match legal_args(game, player, a) {
        Ok(list) => out.extend(list.into_iter().map(|args| Action::Script {
            name: a.def.name.clone(),
            args,
        })),
        Err(e) => {
            hooks.failure.borrow_mut().get_or_insert(e);
        }
    }
}

/// Takes a script action: checked against its declaration and the
/// script's `legal`, its cost paid and its use counted, its effects applied.
pub(super) fn apply_script(
    game: &mut Game,
    player: PlayerId,
    name: &str,
    args: &[ScriptArg],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let variant = Arc::clone(&game.variant);
    let Some(a) = variant
        .script_action(name)
        .filter(|a| !a.def.when.in_battle())
    else {
        return refuse(
            ACTIONS,
            format!("this variant has no masterplay action {name:?}"),
        );
    };
    if let Some(why) = not_now(game, player, a) {
        return refuse(ACTIONS, why);
    }
    let script_failure = |e: crate::lua::ScriptError| RuleError {
        rule: SCRIPT_FAILURE,
        message: format!(
            "script error: {e} (the action is refused){}",
            e.traceback_text()
        ),
    };
    if !legal_args(game, player, a)
        .map_err(script_failure)?
        .iter()
        .any(|l| l == args)
    {
        return refuse(
            ACTIONS,
            format!("{args:?} is not a choice {} offers now", a.def.label),
        );
    }
    let Some(hooks) = game.hooks.clone() else {
        return refuse(ACTIONS, "the variant has no scripts");
    };
    *hooks.rng.borrow_mut() = game.rng.clone();
    let state = &game.state;
    let fields = action_fields(game, player);
    let result = script::action_apply(
        &hooks.host,
        a,
        || CtxData::Game(Box::new(state.clone())),
        &fields,
        args,
    );
    game.rng = hooks.rng.borrow().clone();
    let effects = result.map_err(script_failure)?;
    // The choice it made is made (its effects may ask for the next one).
    if game.state.choice.is_some() {
        game.save_state();
        game.state.choice = None;
    }
    events.push(Event::ScriptAction {
        player,
        name: name.to_string(),
        args: args.to_vec(),
    });
    let add = |game: &mut Game, var: &str, delta: i64| {
        if let Some(def) = variant.variable(var) {
            let now = int_var(game, var, player);
            game.state
                .vars
                .set(def, VarTarget::Player(player), VarValue::Int(now + delta));
        }
    };
    if let Some(c) = &a.def.cost
        && let Some(def) = variant.variable(&c.variable)
    {
        let target = cost_target(def, player);
        let now = cost_left(game, &c.variable, player);
        game.state
            .vars
            .set(def, target, VarValue::Int(now - c.amount));
    }
    if let Some(l) = &a.def.limit {
        add(game, &l.variable, 1);
    }
    apply_effects(game, effects, events);
    Ok(())
}

/// The rule cited when a script action is refused.
const ACTIONS: &str = "the variant's actions.ron";

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
pub(in crate::game) fn fire_after(
    game: &mut Game,
    before: &Before,
    action: &Action,
    events: &mut Vec<Event>,
) {
    let Some(hooks) = game.hooks.clone() else {
        return;
    };
    reset_turn_limits(game, events);
    if !hooks.host.handles_any_event() {
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
    // Whether this action ended a battle (`character_slain`'s `battle`).
    let battle_ended = events.iter().any(|e| match e {
        Event::Battle { events: inner } => inner
            .iter()
            .any(|b| matches!(b, crate::battle::BattleEvent::Ended(_))),
        _ => false,
    });
    let mut i = 0;
    while i < events.len() {
        let e = match &events[i] {
            // Of a battle's events (many, with names) only its end is read.
            Event::Battle { events: inner } => Event::Battle {
                events: inner
                    .iter()
                    .filter(|b| matches!(b, crate::battle::BattleEvent::Ended(_)))
                    .cloned()
                    .collect(),
            },
            other => other.clone(),
        };
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
                    // The battle this action ended, kept for the action's undo.
                    let time_loss = game
                        .battle_undo
                        .as_ref()
                        .and_then(|u| u.ended.as_ref())
                        .is_some_and(|b| b.time_loss());
                    let mut fields = vec![
                        ("land", land(eng.land)),
                        ("attacker", F::S(&a)),
                        ("defender", F::S(&d)),
                        ("winner", F::W(winner)),
                        ("time_loss", F::B(time_loss)),
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
            Event::Slain {
                legion,
                characters,
                loss,
            } => {
                // The opponent, when the legion fell in the engagement
                // being resolved (a battle, a flight or a concession).
                let by = before.engagement.as_ref().and_then(|e| {
                    if e.attacker == *legion {
                        Some(e.defender)
                    } else if e.defender == *legion {
                        Some(e.attacker)
                    } else {
                        None
                    }
                });
                let (l, b) = (legion.to_string(), by.map(|m| m.to_string()));
                for &c in characters {
                    let name = v.character(c).name.clone();
                    let mut fields = vec![
                        ("legion", F::S(&l)),
                        ("player", seat(legion.player)),
                        ("character", F::S(&name)),
                        ("battle", F::B(battle_ended)),
                        ("fate", F::W(loss.word())),
                    ];
                    if let (Some(m), Some(b)) = (by, &b) {
                        fields.push(("by", F::S(b)));
                        fields.push(("by_player", seat(m.player)));
                    }
                    fire(game, "character_slain", &fields, events, &mut fired);
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
        // Who holds the land now that all that follows the engagement is
        // done (the battle, its scoring, a summon, an acquisition, the
        // reinforcement's muster).
        let holds = match (
            game.legion(eng.attacker).is_some(),
            game.legion(eng.defender).is_some(),
        ) {
            (true, false) => "attacker",
            (false, true) => "defender",
            (false, false) => "neither",
            (true, true) => "both",
        };
        let mut fields = vec![
            ("land", at),
            ("attacker", F::S(&a)),
            ("defender", F::S(&d)),
            ("winner", F::W(holds)),
        ];
        let winner_player = match holds {
            "attacker" => Some(eng.attacker.player),
            "defender" => Some(eng.defender.player),
            _ => None,
        };
        if let Some(p) = winner_player {
            fields.push(("winner_player", seat(p)));
        }
        fire(game, "engagement_end", &fields, events, &mut fired);
    }
    if before.phase != game.state.phase {
        fire(
            game,
            "phase_end",
            &[("phase", F::W(phase_name(before.phase)))],
            events,
            &mut fired,
        );
        let now = game.state.phase;
        fire(
            game,
            "phase_start",
            &[("phase", F::W(phase_name(now)))],
            events,
            &mut fired,
        );
    }
    // The game's end is its last event: what handlers did in reply to the
    // action's other events comes before it.
    if let Some(i) = events
        .iter()
        .position(|e| matches!(e, Event::GameOver { .. }))
        && i + 1 < events.len()
    {
        let over = events.remove(i);
        events.push(over);
    }
}

/// Fires one event at the position of `game` (the game's generator lent to
/// the scripts and taken back advanced) and applies its effects.
fn fire(
    game: &mut Game,
    event: &'static str,
    fields: &[(&'static str, F)],
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
            traceback: Vec::new(),
        });
        return;
    }
    let mut base = vec![
        ("turn", F::I(i64::from(game.state.turn))),
        ("active", seat(game.state.active)),
        ("phase", F::W(phase_name(game.state.phase))),
    ];
    if let Some(r) = game.state.roll {
        base.push(("roll", F::I(i64::from(r))));
    }
    *hooks.rng.borrow_mut() = game.rng.clone();
    let state = &game.state;
    let result = script::fire(
        &hooks.host,
        event,
        || CtxData::Game(Box::new(state.clone())),
        &base,
        fields,
        None,
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
    let mut eliminated = false;
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
                // Checked when requested: the sum fits.
                p.score = p.score.saturating_add(points);
                events.push(Event::Scored {
                    player,
                    points,
                    score: p.score,
                });
            }
            // Checked away: battle effects are refused outside battles.
            Effect::RollAgain => {
                let die = game.variant.rules.movement.die;
                let roll = game.rng.roll(u32::from(die)) as u8;
                game.state.roll = Some(roll);
                events.push(Event::Rolled {
                    player: game.state.active,
                    roll,
                });
            }
            Effect::Reveal { legion, to } => {
                if let Some(l) = game.state.legions.iter_mut().find(|l| l.marker == legion) {
                    // To one player as an engagement shows a legion (known
                    // until its contents change); to all as a muster does.
                    match to {
                        Some(p) => l.seen_by |= 1 << p.0,
                        None => l.revealed = l.characters.clone(),
                    }
                    events.push(Event::Revealed {
                        legion,
                        characters: l.characters.clone(),
                        to,
                    });
                }
            }
            Effect::AddCharacter { legion, character } => {
                super::rules::hire(game, legion, character, events);
            }
            Effect::MoveCharacter {
                from,
                to,
                character,
            } => {
                let legions = &mut game.state.legions;
                let (Some(i), Some(j)) = (
                    legions.iter().position(|l| l.marker == from),
                    legions.iter().position(|l| l.marker == to),
                ) else {
                    continue;
                };
                let Some(k) = legions[i].characters.iter().position(|&c| c == character) else {
                    continue;
                };
                legions[i].characters.remove(k);
                // Everybody sees the character go (the event names it): one
                // fewer of its kind is known in the one, one more in the other.
                if let Some(r) = legions[i].revealed.iter().position(|&c| c == character) {
                    legions[i].revealed.remove(r);
                }
                legions[i].seen_by = 0;
                let l = &mut legions[j];
                l.characters.push(character);
                l.characters.sort_unstable();
                l.revealed.push(character);
                l.revealed.sort_unstable();
                l.seen_by = 0;
                events.push(Event::CharacterMoved {
                    from,
                    to,
                    character,
                });
            }
            Effect::ReturnCharacter { legion, character } => {
                let Some(l) = game.state.legions.iter_mut().find(|l| l.marker == legion) else {
                    continue;
                };
                let Some(k) = l.characters.iter().position(|&c| c == character) else {
                    continue;
                };
                l.characters.remove(k);
                if let Some(r) = l.revealed.iter().position(|&c| c == character) {
                    l.revealed.remove(r);
                }
                l.seen_by = 0;
                if let Some(n) = game.state.caretaker.get_mut(character.index()) {
                    *n += 1;
                }
                events.push(Event::Returned { legion, character });
            }
            Effect::Choose { action, .. } => {
                game.state.choice = Some(action);
            }
            Effect::LowerScore { player, points } => {
                let p = &mut game.state.players[player.0 as usize];
                p.score = p.score.saturating_sub(points);
                events.push(Event::ScoreLowered {
                    player,
                    points,
                    score: p.score,
                });
            }
            Effect::BeginShowdown { player } => {
                super::rules::begin_showdown(game, player, events);
            }
            Effect::Eliminate { player } => {
                if game.state.players[player.0 as usize].alive {
                    super::rules::eliminate(game, player, events);
                    eliminated = true;
                }
            }
            // Checked away: battle effects are refused outside battles.
            Effect::Damage { .. }
            | Effect::Heal { .. }
            | Effect::Move { .. }
            | Effect::Kill { .. }
            | Effect::UseStrike { .. }
            | Effect::Swap { .. }
            | Effect::Remove { .. }
            | Effect::Withdraw { .. }
            | Effect::Rejoin { .. }
            | Effect::SetHazard { .. }
            | Effect::ChangeSide { .. }
            | Effect::Mount { .. }
            | Effect::Dismount { .. }
            | Effect::SetRound { .. }
            | Effect::SetReinforcementRound { .. }
            | Effect::SetUnit { .. }
            | Effect::SetBattleland { .. }
            | Effect::AddUnit { .. }
            | Effect::EndBattle { .. } => {}
        }
    }
    if eliminated {
        super::rules::settle_eliminations(game, events);
    }
}
