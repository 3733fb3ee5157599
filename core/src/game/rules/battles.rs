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

/// The battle being fought, kept alive in the game between actions (it
/// holds the game's variant shared, so it needs no rebuilding from a
/// snapshot per action).
pub(in crate::game) struct LiveBattle {
    battle: crate::battle::Battle<'static>,
    /// With scripts, the battle draws from the generator cell it shares
    /// with the game's Lua VM, which masterplay's own hooks also set to the
    /// game's generator: the battle's generator is kept here between its
    /// uses and put in the cell for each. `None` without scripts (the
    /// battle's cell is its own).
    shared: Option<(Rc<RefCell<GameRng>>, RefCell<GameRng>)>,
}

impl LiveBattle {
    /// Keeps `battle`, which draws from `rng` (the game's shared cell when
    /// `scripts`).
    pub(super) fn new(
        mut battle: crate::battle::Battle<'static>,
        rng: Rc<RefCell<GameRng>>,
        scripts: bool,
    ) -> LiveBattle {
        // The game takes a battle action back when its own is refused after it.
        battle.keep_undo();
        let shared = scripts.then(|| {
            let own = rng.borrow().clone();
            (rng, RefCell::new(own))
        });
        LiveBattle { battle, shared }
    }

    /// The battle of `snap` in `game` (a game copied, or started from a
    /// snapshot): drawing from the game's VM and generator as one started
    /// there would.
    fn resume(
        game: &Game,
        snap: crate::battle::BattleSnapshot,
    ) -> Result<LiveBattle, crate::battle::BattleError> {
        let (rng, lua) = battle_host(game);
        let scripts = lua.is_some();
        let battle = crate::battle::Battle::resume(game.variant.clone(), snap, rng.clone(), lua)?;
        Ok(LiveBattle::new(battle, rng, scripts))
    }

    /// Whether the battle ended by its time limit (the attacker lost on
    /// time).
    pub(in crate::game) fn time_loss(&self) -> bool {
        self.battle.result_ref().is_some_and(|r| r.time_loss)
    }

    /// See [`crate::battle::Battle::take_script_failure`].
    pub(in crate::game) fn take_script_failure(&self) -> Option<crate::lua::ScriptError> {
        self.battle.take_script_failure()
    }

    /// The battle itself, for a look that needs no game.
    pub(in crate::game) fn battle(&self) -> &crate::battle::Battle<'static> {
        &self.battle
    }

    /// Calls `f` with the battle, its generator in place.
    fn with<R>(&self, f: impl FnOnce(&crate::battle::Battle<'static>) -> R) -> R {
        self.enter();
        let r = f(&self.battle);
        self.leave();
        r
    }

    /// Calls `f` with the battle to change, its generator in place.
    pub(super) fn with_mut<R>(
        &mut self,
        f: impl FnOnce(&mut crate::battle::Battle<'static>) -> R,
    ) -> R {
        self.enter();
        let r = f(&mut self.battle);
        self.leave();
        r
    }

    fn enter(&self) {
        if let Some((cell, own)) = &self.shared {
            cell.borrow_mut().clone_from(&own.borrow());
        }
    }

    fn leave(&self) {
        if let Some((cell, own)) = &self.shared {
            own.borrow_mut().clone_from(&cell.borrow());
        }
    }

    /// The game's caretaker, variables, seats and legions as the battle's
    /// scripts see them (they alone read them: `ctx:add_unit`, `ctx:get`).
    pub(super) fn set_caretaker(&mut self, game: &Game) {
        if game.hooks.is_some() {
            self.battle.set_caretaker(&game.state.caretaker);
            let world = crate::script::GameLinks {
                players: game.state.players.len(),
                legions: game
                    .state
                    .legions
                    .iter()
                    .map(|l| (l.marker, l.characters.clone()))
                    .collect(),
                engagement: game.state.engagement.as_ref().map(|e| {
                    (
                        game.variant.board.land(e.land).number,
                        e.attacker,
                        e.defender,
                    )
                }),
            };
            self.battle.set_game(&game.state.vars, world);
        }
    }

    /// The side to act.
    pub(in crate::game) fn to_act(&self) -> crate::battle::BattleSide {
        self.battle.to_act()
    }

    /// The battle as a value, with its own generator.
    pub(in crate::game) fn snapshot(&self) -> crate::battle::BattleSnapshot {
        self.with(|b| b.snapshot())
    }

    /// See [`crate::battle::BattleSnapshot::fingerprint`].
    pub(in crate::game) fn fingerprint(&self) -> String {
        self.snapshot().fingerprint()
    }

    /// A copy for a copy of the game (`game`), drawing from its VM.
    pub(in crate::game) fn copy_for(&self, game: &Game) -> Option<LiveBattle> {
        LiveBattle::resume(game, self.snapshot()).ok()
    }

    /// Takes back the battle's last action (see
    /// [`crate::battle::Battle::take_back`]).
    pub(in crate::game) fn take_back(&mut self, mark: crate::battle::RngMark) {
        let undone = self.with_mut(|b| b.take_back(mark));
        debug_assert!(undone, "a battle action taken back twice");
    }
}

/// What a battle action did to the battle, for [`Game::apply`] to take it
/// back if the game's action is refused after it: the battle's generator
/// before, and the battle itself if the action ended it (taken out of the
/// game).
pub(in crate::game) struct BattleUndo {
    pub(in crate::game) mark: crate::battle::RngMark,
    pub(in crate::game) ended: Option<Box<LiveBattle>>,
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

/// The battle being fought, rebuilt around the game's variant from a copy
/// (for a look at it from outside).
pub(in crate::game) fn resume_battle(
    game: &Game,
) -> Result<Option<crate::battle::Battle<'_>>, RuleError> {
    let Some(snap) = game.battle.borrow().as_ref().map(|b| b.snapshot()) else {
        return Ok(None);
    };
    let (rng, lua) = battle_host(game);
    let scripts = lua.is_some();
    let mut b =
        crate::battle::Battle::resume(&game.variant, snap, rng, lua).map_err(battle_error)?;
    // The caretaker's counters are only read by scripts (`ctx:add_unit`).
    if scripts {
        b.set_caretaker(&game.state.caretaker);
    }
    Ok(Some(b))
}

/// Calls `f` with the battle being fought; None when none is.
pub(in crate::game) fn with_battle<R>(
    game: &Game,
    f: impl FnOnce(&crate::battle::Battle<'_>) -> R,
) -> Option<R> {
    let mut slot = game.battle.borrow_mut();
    let live = slot.as_deref_mut()?;
    live.set_caretaker(game);
    Some(live.with(f))
}

/// Starts the battle of the engagement in its Battle step.
pub(super) fn start_battle(game: &mut Game) -> Result<(), RuleError> {
    use crate::battle::{Battle, BattleSetup, Fighter};
    let Some(req) = battle_request(game) else {
        return refuse(ENGAGEMENT, "no battle to fight");
    };
    // A teleported attacker, or one that challenged on a shared land,
    // chooses its wide side (reference sheet; Gods of Titan 11.5: "When the
    // attacker uses Teleportation or challenges a Legion in the City or
    // Dungeon ... he may enter from the four hex wide side of his choice").
    let challenged =
        game.variant.is_shared(req.land) && game.state.challenged.contains(&req.attacker);
    let teleported = challenged
        || game
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
    let scripts = lua.is_some();
    *rng.borrow_mut() = GameRng::new(seed);
    let battle = Battle::with_scripts(game.variant.clone(), setup, rng.clone(), lua)
        .map_err(battle_error)?;
    let mut live = LiveBattle::new(battle, rng, scripts);
    live.set_caretaker(game);
    *game.battle.get_mut() = Some(Box::new(live));
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
    let Some(to_act) = game.battle.get_mut().as_deref().map(LiveBattle::to_act) else {
        return refuse(ENGAGEMENT, "no battle is being fought");
    };
    let side_legion = match to_act {
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
        && *side != to_act
    {
        return refuse(
            ENGAGEMENT,
            "a player may concede only his own side of the battle",
        );
    }
    // Out of the game while it acts, so that it can read the game.
    let mut slot = game.battle.get_mut().take();
    let Some(live) = slot.as_deref_mut() else {
        return refuse(ENGAGEMENT, "no battle is being fought");
    };
    live.set_caretaker(game);
    // A refused battle action leaves the battle unchanged; one that
    // succeeds can be taken back (`BattleUndo`) if the game's action is
    // refused after it.
    let (mark, applied) = live.with_mut(|b| {
        let mark = b.rng_mark();
        (mark, b.apply(a.clone()))
    });
    let result = live.battle.result();
    let vars = (applied.is_ok() && *live.battle.game_vars() != game.state.vars)
        .then(|| live.battle.game_vars().clone());
    *game.battle.get_mut() = slot;
    let battle_events = applied.map_err(battle_error)?;
    // The game's variables the battle's scripts set are the game's at once
    // (views, the next masterplay event, a refused game action's undo).
    if let Some(vars) = vars {
        game.save_state();
        game.state.vars = vars;
    }
    events.push(Event::Battle {
        events: battle_events,
    });
    let Some(r) = result else {
        game.battle_undo = Some(BattleUndo { mark, ended: None });
        return Ok(());
    };
    game.battle_undo = Some(BattleUndo {
        mark,
        ended: game.battle.get_mut().take(),
    });
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
        conceded_unplaced: r.winner == crate::battle::Winner::Defender
            && r.reinforced.is_none()
            && !r.may_reinforce_after,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A game action refused after its battle action succeeded (here a
    /// script failing at `battle_end`, which masterplay fires when a battle
    /// ends) leaves the game as it was, the battle included, which goes on.
    #[test]
    fn a_battle_action_refused_after_the_battle_acted_changes_nothing() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants/titan");
        let mut v = crate::load(&dir, &Default::default()).unwrap();
        v.scripts.push(crate::format::ScriptSource {
            name: "refuse.lua".into(),
            code: r#"titan.on("battle_end", function(ctx) error("no battle ends") end)"#.into(),
        });
        let v = Arc::new(v);
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let mut refused = 0;
        for seed in 0..6 {
            let (mut g, _) = Game::new(v.clone(), Default::default(), &names, seed).unwrap();
            let mut rng = GameRng::new(seed);
            for _ in 0..3000 {
                let Some((p, a)) = crate::game::random::random_action(&g, &mut rng) else {
                    break;
                };
                let before = g.fingerprint();
                match g.apply(p, &a) {
                    Ok(_) => {}
                    Err(e) => {
                        assert!(e.is_script_failure(), "{e:?}");
                        assert!(matches!(a, Action::Battle { .. }), "{a:?}");
                        assert_eq!(g.fingerprint(), before);
                        assert!(g.battle().is_some());
                        refused += 1;
                        break;
                    }
                }
            }
        }
        assert!(refused > 0, "no battle ended");
    }
}
