//! The battle engine's answers to a script's queries (`ctx:reach`,
//! `ctx:sight`: docs/scripting.md, "Asking the battle engine"). The script
//! platform sits below the battle engine and cannot call it, so each battle
//! ctx carries an [`EngineView`]: made once per battle, the first time the
//! battle makes a ctx, and told the battle's phase and turn with each ctx
//! (a few words copied). Asked, it rebuilds the battle as the ctx holds it
//! (the units, variables and hazards as the handler's effects left them)
//! and asks the engine's own functions, those of `titan rules reach` and
//! `titan rules los`.

use std::cell::Cell;
use std::rc::Weak;
use std::sync::Arc;

use super::*;
use crate::script::{BattleCtx, BattleEngine, SightAnswer, SightEnd};
use crate::state::overlay::{HazardChange, Landscape, Overlay};

/// What a battle ctx does not hold of the battle's state: its phase, turn
/// and the like, as when the ctx was made.
#[derive(Debug, Clone, Copy)]
struct Clock {
    phase: Phase,
    moving: BattleSide,
    defender_maneuver: u8,
    entered: [bool; 2],
    attacker_edge: Edge,
    summon: SummonState,
    defender_slain_now: bool,
    summoned: Option<(u32, CharacterId)>,
    reinforced: Option<CharacterId>,
    carry: Option<Carry>,
    conceded: Option<BattleSide>,
    reinforcement_round: Option<u8>,
}

impl Clock {
    fn of(s: &State) -> Clock {
        Clock {
            phase: s.phase,
            moving: s.moving,
            defender_maneuver: s.defender_maneuver,
            entered: s.entered,
            attacker_edge: s.attacker_edge,
            summon: s.summon,
            defender_slain_now: s.defender_slain_now,
            summoned: s.summoned,
            reinforced: s.reinforced,
            carry: s.carry,
            conceded: s.conceded,
            reinforcement_round: s.reinforcement_round,
        }
    }
}

/// A battle's engine as its ctxs reach it.
pub(super) struct EngineView {
    setup: BattleSetup,
    rng: Rc<RefCell<GameRng>>,
    /// Weak: the VM keeps the last ctx's data, which holds this view.
    lua: Weak<LuaHost>,
    use_hooks: bool,
    clock: Cell<Clock>,
}

impl Battle<'_> {
    /// Puts the view of this battle's engine for a ctx of `s` in `slot`
    /// (made on the first call; an event's ctx refilled from the last
    /// one's keeps the same).
    pub(super) fn engine_view(&self, s: &State, slot: &mut Option<Rc<dyn BattleEngine>>) {
        let view = self.engine_view.get_or_init(|| {
            Rc::new(EngineView {
                setup: self.setup.clone(),
                rng: Rc::clone(&self.rng),
                lua: self.lua.as_ref().map_or_else(Weak::new, Rc::downgrade),
                use_hooks: self.use_hooks,
                clock: Cell::new(Clock::of(s)),
            })
        });
        view.clock.set(Clock::of(s));
        let same = slot
            .as_ref()
            .is_some_and(|e| std::ptr::addr_eq(Rc::as_ptr(e), Rc::as_ptr(view)));
        if !same {
            *slot = Some(Rc::clone(view) as Rc<dyn BattleEngine>);
        }
    }
}

impl EngineView {
    /// The battle as `ctx` holds it, to ask; its draws of the generator
    /// (a hook's `math.random`) are taken back after by [`Self::asking`].
    fn battle<'v>(&self, v: &'v Arc<Variant>, ctx: &BattleCtx) -> Result<Battle<'v>, String> {
        let c = self.clock.get();
        let state = State {
            units: ctx.units.clone(),
            phase: c.phase,
            moving: c.moving,
            defender_maneuver: c.defender_maneuver,
            entered: c.entered,
            attacker_edge: c.attacker_edge,
            summon: c.summon,
            defender_slain_now: c.defender_slain_now,
            summoned: c.summoned,
            reinforced: c.reinforced,
            carry: c.carry,
            result: None,
            fixed_dice: VecDeque::new(),
            conceded: c.conceded,
            vars: ctx.vars.clone(),
            choice: None,
            game_vars: ctx.game_vars.clone(),
            overlay: overlay_of(v, self.setup.terrain, ctx),
            extra: ctx.extra.clone(),
            reinforcement_round: c.reinforcement_round,
            teams: Default::default(),
        };
        let lua = self.lua.upgrade();
        let mut b = Battle::assemble(
            VariantRef::Borrowed(v),
            self.setup.clone(),
            state,
            Rc::clone(&self.rng),
            lua,
        )
        .map_err(|e| e.to_string())?;
        b.use_hooks = self.use_hooks;
        Ok(b)
    }

    /// `f` over the battle as `ctx` holds it, the generator put back after.
    fn asking<R>(
        &self,
        v: &Arc<Variant>,
        ctx: &BattleCtx,
        f: impl FnOnce(&Battle<'_>) -> Result<R, String>,
    ) -> Result<R, String> {
        let saved = self.rng.borrow().clone();
        let r = self.battle(v, ctx).and_then(|b| f(&b));
        *self.rng.borrow_mut() = saved;
        r
    }
}

/// The battle's hazard changes with those of the running handler (its
/// `ctx:set_hazard` and `ctx:set_battleland`, not yet applied).
fn overlay_of(v: &Variant, terrain: TerrainId, ctx: &BattleCtx) -> Option<Rc<Overlay>> {
    if ctx.land_set.is_none() && ctx.hazards_set.is_empty() {
        return ctx.overlay.clone();
    }
    let landscape = match &ctx.land_set {
        Some(l) => Some(Rc::new(Landscape {
            terrain: l.terrain,
            turns: 0,
            land: (**l).clone(),
        })),
        None => Overlay::landscape_of(&ctx.overlay),
    };
    // A new battleland drops the changes of the old one.
    let mut changes = match (&ctx.land_set, &ctx.overlay) {
        (None, Some(o)) => o.changes.clone(),
        _ => Vec::new(),
    };
    let own = v.battleland(terrain);
    for &(hex, hazard) in &ctx.hazards_set {
        let base = Overlay::base_of(&landscape, own);
        changes = Overlay::with(
            base,
            &changes,
            HazardChange {
                hex,
                hazard,
                until: None,
            },
        );
    }
    Overlay::build(v, own, landscape, changes)
}

impl BattleEngine for EngineView {
    fn reach(&self, v: &Arc<Variant>, ctx: &BattleCtx, unit: UnitId) -> Result<Vec<HexId>, String> {
        self.asking(v, ctx, |b| {
            let s = &b.state;
            let Some(u) = s.units.get(unit as usize) else {
                return Err(format!("no unit {unit}"));
            };
            // The maneuver phase's mover alone is offered moves.
            if s.phase != Phase::Maneuver || u.side != s.moving {
                return Ok(Vec::new());
            }
            b.reach(unit).map_err(|e| e.to_string())
        })
    }

    fn sight(
        &self,
        v: &Arc<Variant>,
        ctx: &BattleCtx,
        from: SightEnd,
        to: SightEnd,
    ) -> Result<SightAnswer, String> {
        self.asking(v, ctx, |b| {
            let s = &b.state;
            // A hex's unit: the one standing there (a rider is carried).
            let end = |e: SightEnd| -> Result<(HexId, Option<UnitId>), String> {
                match e {
                    SightEnd::Unit(u) => s
                        .place(u as usize)
                        .map(|h| (h, Some(u)))
                        .ok_or_else(|| format!("unit {u} is not on the battleland")),
                    SightEnd::Hex(h) => Ok((
                        h,
                        s.units
                            .iter()
                            .position(|u| u.hex() == Some(h))
                            .map(|i| i as UnitId),
                    )),
                }
            };
            let ((fh, fu), (th, tu)) = (end(from)?, end(to)?);
            let natives = fu.map_or(crate::ids::HazardSet::default(), |u| {
                b.natives_of(s, u as usize)
            });
            let (first, second) = b.board().lines_between(fh, th);
            let info = b.readings(
                s,
                natives,
                (first.to_vec(), second),
                tu.unwrap_or(UnitId::MAX),
            );
            let rangestrike = match (fu, tu) {
                (Some(a), Some(t)) => match b.rangestrike_check(s, a, t) {
                    Ok((p, _)) => Ok((p.strike_number, p.dice)),
                    Err(BattleError::Refused(why)) => Err(why),
                    Err(e) => return Err(e.to_string()),
                },
                (None, _) => Err(format!("no character on {}", fh.label())),
                (_, None) => Err(format!("no character on {}", th.label())),
            };
            let (path, blocked_by) = match info.path {
                Ok(_) => (info.shown, None),
                Err(why) => (info.shown, Some(why)),
            };
            Ok(SightAnswer {
                range: info.range,
                path,
                blocked_by,
                rangestrike,
            })
        })
    }
}
