//! The bridge to the battle engine: the attacker's entry side, the battle
//! request, and starting, resuming and acting in the battle.

use super::*;

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
/// board's geometry ([`numbered_corner_of`]); ARCHITECTURE.md, "Entry sides".
pub(in crate::game) fn entry_edge(
    game: &Game,
    land: LandId,
    from: Option<LandId>,
) -> crate::format::Edge {
    attacker_entry_edge(&game.variant, land, from)
}

/// [`entry_edge`] for a variant's board alone: the side an attacker entering
/// `land` from `from` comes in by (battle odds of an engagement, outside
/// the engine).
pub fn attacker_entry_edge(
    variant: &crate::model::Variant,
    land: LandId,
    from: Option<LandId>,
) -> crate::format::Edge {
    use crate::format::Edge;
    let rules = &variant.rules.battle;
    let first = rules
        .attacker_edges
        .first()
        .copied()
        .unwrap_or(Edge::SouthWest);
    let board = &variant.board;
    if let Some(fixed) = variant.battleland(board.land(land).terrain).attacker_edge {
        return fixed;
    }
    let Some(from) = from else { return first };
    let (a, b) = (board.land(land).position, board.land(from).position);
    let Some(border) = border_direction(a, b) else {
        return first;
    };
    let steps = (border + 6 - numbered_corner_of(variant, land)) % 6;
    let name = Edge::ALL
        .iter()
        .position(|&e| e == rules.name_side)
        .unwrap_or(0);
    Edge::ALL[(name + steps) % 6]
}

/// Whether the land at this grid position points up (its third border below).
pub(super) fn points_up(p: crate::format::GridPos) -> bool {
    (p.x + p.y).rem_euclid(2) == 1
}

/// The direction, in sixths of a turn clockwise from north (0 north, 1
/// north-east, ... 5 north-west), of the border between neighbours `a` and
/// `b` as seen from `a` (ARCHITECTURE.md, "Masterboard grid").
pub(super) fn border_direction(
    a: crate::format::GridPos,
    b: crate::format::GridPos,
) -> Option<usize> {
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
pub(in crate::game) fn numbered_corner_of(variant: &crate::model::Variant, land: LandId) -> usize {
    let board = &variant.board;
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
pub(super) fn marker_id(m: Marker) -> u32 {
    (u32::from(m.player.0) << 8) | u32::from(m.number)
}

pub(super) fn marker_of(id: u32) -> Marker {
    Marker {
        player: PlayerId((id >> 8) as u8),
        number: (id & 0xff) as u8,
    }
}

/// The generator and Lua VM a battle draws from: the game's VM when the
/// variant has scripts (started once per game), else a fresh generator.
/// (Resuming sets the generator to the battle's own.)
pub(super) fn battle_host(game: &Game) -> (Rc<RefCell<GameRng>>, Option<Rc<LuaHost>>) {
    match &game.hooks {
        Some(h) => (h.rng.clone(), Some(h.host.clone())),
        None => (Rc::new(RefCell::new(GameRng::new(0))), None),
    }
}

/// [`battle_host`] for a battle resumed only while an action or a listing
/// runs (it does not outlive the call, and such calls do not nest): without
/// scripts, one generator cell per thread instead of a fresh one.
fn brief_battle_host(game: &Game) -> (Rc<RefCell<GameRng>>, Option<Rc<LuaHost>>) {
    thread_local! {
        static CELL: Rc<RefCell<GameRng>> = Rc::new(RefCell::new(GameRng::new(0)));
    }
    match &game.hooks {
        Some(_) => battle_host(game),
        None => (CELL.with(Rc::clone), None),
    }
}

pub(super) fn battle_error(e: crate::battle::BattleError) -> RuleError {
    RuleError {
        rule: match e {
            crate::battle::BattleError::Script(_) => crate::game::SCRIPT_FAILURE,
            _ => "Law of the Battlelands",
        },
        message: match &e {
            crate::battle::BattleError::Script(se) => format!("{e}{}", se.traceback_text()),
            _ => e.to_string(),
        },
    }
}

/// The battle being fought, rebuilt around the game's variant (from a copy
/// of its snapshot: for a look at it from outside).
pub(in crate::game) fn resume_battle(
    game: &Game,
) -> Result<Option<crate::battle::Battle<'_>>, RuleError> {
    let Some(snap) = game.battle.borrow().clone() else {
        return Ok(None);
    };
    resume(game, snap, false).map(Some)
}

/// The battle of `snap`, drawing from the game's generator and VM (`brief`:
/// see [`brief_battle_host`]). The caretaker's counters are only read by
/// scripts (`ctx:add_unit`).
fn resume(
    game: &Game,
    snap: crate::battle::BattleSnapshot,
    brief: bool,
) -> Result<crate::battle::Battle<'_>, RuleError> {
    let (rng, lua) = if brief {
        brief_battle_host(game)
    } else {
        battle_host(game)
    };
    let scripts = lua.is_some();
    let mut b =
        crate::battle::Battle::resume(&game.variant, snap, rng, lua).map_err(battle_error)?;
    if scripts {
        b.set_caretaker(&game.state.caretaker);
    }
    Ok(b)
}

/// Calls `f` with the battle being fought, resumed from the game's snapshot
/// moved out of the game and moved back after (a query need not copy it).
/// None when no battle is being fought.
pub(in crate::game) fn with_battle<R>(
    game: &Game,
    f: impl FnOnce(&crate::battle::Battle<'_>) -> R,
) -> Option<R> {
    // A snapshot the game made names one of its variant's battlelands, so
    // resuming it cannot fail (which would lose the snapshot): checked.
    let terrain = game.battle.borrow().as_ref()?.terrain();
    game.variant.battlelands.get(terrain.index())?;
    let snap = game.battle.borrow_mut().take()?;
    let battle = resume(game, snap, true).ok()?;
    let r = f(&battle);
    *game.battle.borrow_mut() = Some(battle.into_snapshot());
    Some(r)
}

/// Starts the battle of the engagement in its Battle step.
pub(super) fn start_battle(game: &mut Game) -> Result<(), RuleError> {
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
    *game.battle.get_mut() = Some(battle.into_snapshot());
    Ok(())
}

/// One action in the battle; when the battle ends, its result is scored.
pub(super) fn battle_action(
    game: &mut Game,
    player: PlayerId,
    e: &Engagement,
    a: &crate::battle::Action,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    use crate::battle::BattleSide;
    let variant = game.variant.clone();
    // Moved out, not copied: `Game::apply` puts back the battle it saved if
    // the action is refused.
    let Some(snap) = game.battle.get_mut().take() else {
        return refuse(ENGAGEMENT, "no battle is being fought");
    };
    let (rng, lua) = brief_battle_host(game);
    let scripts = lua.is_some();
    let mut battle =
        crate::battle::Battle::resume(&variant, snap, rng, lua).map_err(battle_error)?;
    if scripts {
        battle.set_caretaker(&game.state.caretaker);
    }
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
        *game.battle.get_mut() = Some(battle.into_snapshot());
        return Ok(());
    };
    // The first change to the game's state in a battle action.
    game.save_state();
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
        attacker_joined: r.attacker_joined,
        defender_joined: r.defender_joined,
        attacker_added: r.attacker_added,
        defender_added: r.defender_added,
    };
    battle_result(game, e, &outcome, events)
}

pub(in crate::game) fn battle_request(game: &Game) -> Option<BattleRequest> {
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
                    character_power(game, l.owner, c)
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
    if !def.mustered {
        reinforcements = reinforcement_hook(game, def.marker, reinforcements);
    }
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
