//! Battle queries of `ctx` that cross into Lua as flat values: the units
//! (all, or those a filter picks before anything is built), how many a
//! filter picks, and one field of one unit. `ctx.lua` makes the tables and
//! turns names into the codes these take.

use super::*;

/// A unit's fields in Lua, by index in [`UNIT_KEYS`]: character, class,
/// side, hex and status as codes (the Lua side maps them to names).
fn unit_field(store: &CtxStore, b: &BattleCtx, i: usize, field: usize) -> Value {
    let u = &b.units[i];
    let c = || store.variant.character(u.character);
    let e = || b.extra.get(i).copied().unwrap_or_default();
    match field {
        0 => Value::Integer(i as i64),
        1 => Value::Integer(u.character.index() as i64),
        2 => Value::Integer(c().class.index() as i64),
        3 => Value::Integer(side_code(u.side)),
        // A rider's hex is its mount's.
        4 => match crate::state::units::place_of(&b.units, i) {
            Some(h) => Value::Integer(i64::from(h.0)),
            None => Value::Nil,
        },
        5 => Value::Integer(i64::from(u.damage)),
        6 => Value::Integer(i64::from(u.power)),
        7 => Value::Integer(i64::from(e().skill.unwrap_or(c().skill))),
        8 => Value::Boolean(e().flies.unwrap_or(c().flies)),
        9 => Value::Boolean(c().rangestrike.is_some()),
        10 => Value::Integer(status_code(u.status)),
        11 => Value::Integer(i64::from(u.strikes_left)),
        _ => Value::Boolean(alive(u)),
    }
}

fn side_code(s: BattleSide) -> i64 {
    i64::from(s == BattleSide::Defender)
}

pub(crate) fn status_code(s: Status) -> i64 {
    match s {
        Status::Waiting => 0,
        Status::OnBoard(_) => 1,
        Status::Gone(crate::state::units::Fate::Slain) => 2,
        Status::Gone(crate::state::units::Fate::NotEntered) => 3,
        Status::Gone(crate::state::units::Fate::Removed) => 4,
        Status::Riding(_) => 5,
        Status::Gone(crate::state::units::Fate::Withdrawn) => 6,
    }
}

/// In the battle and not slain (a unit slain by this event's effects is
/// still on its hex, not alive).
pub(crate) fn alive(u: &Unit) -> bool {
    !u.is_slain()
        && matches!(
            u.status,
            Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
        )
}

/// A unit's fields as flat values, in the order of [`UNIT_KEYS`].
fn unit_values(store: &CtxStore, b: &BattleCtx, i: usize, out: &mut mlua::MultiValue) {
    for field in 0..UNIT_KEYS.len() {
        out.push_back(unit_field(store, b, i, field));
    }
}

/// Which units a query picks, as codes (`None`: any); `ctx.lua` checks
/// the names and makes the codes.
type Filter = (
    This,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<bool>,
);

fn picks(store: &CtxStore, u: &Unit, f: &Filter) -> bool {
    let (_, side, character, class, status, alive_too) = f;
    side.is_none_or(|s| s == side_code(u.side))
        && character.is_none_or(|c| c == u.character.index() as i64)
        && class.is_none_or(|c| c == store.variant.character(u.character).class.index() as i64)
        && status.is_none_or(|s| s == status_code(u.status))
        && alive_too.is_none_or(|a| a == alive(u))
}

/// The raw functions `ctx.lua` wraps: `units(ctx, side, character, class,
/// status, alive)` (the flat values of the units picked),
/// `count(ctx, ...)` (the same filter: how many), `get_unit(ctx, id)`
/// and `field(ctx, id, index)`.
pub(super) fn raw_queries(lua: &Lua, store: &Rc<CtxStore>) -> mlua::Result<[mlua::Function; 4]> {
    let s = Rc::clone(store);
    let units = lua.create_function(move |_, f: Filter| {
        s.battle("units", |b| {
            let mut out = mlua::MultiValue::with_capacity(b.units.len() * UNIT_KEYS.len());
            for (i, u) in b.units.iter().enumerate() {
                if picks(&s, u, &f) {
                    unit_values(&s, b, i, &mut out);
                }
            }
            Ok(out)
        })
    })?;
    let s = Rc::clone(store);
    let count = lua.create_function(move |_, f: Filter| {
        s.battle("count_units", |b| {
            Ok(b.units.iter().filter(|u| picks(&s, u, &f)).count())
        })
    })?;
    let s = Rc::clone(store);
    let get_unit = lua.create_function(move |_, (_, id): (This, i64)| {
        s.battle("get_unit", |b| {
            let mut out = mlua::MultiValue::with_capacity(UNIT_KEYS.len());
            if let Some(i) = usize::try_from(id).ok().filter(|&i| i < b.units.len()) {
                unit_values(&s, b, i, &mut out);
            }
            Ok(out)
        })
    })?;
    let s = Rc::clone(store);
    let field = lua.create_function(move |_, (_, id, field): (This, i64, usize)| {
        s.battle("unit_field", |b| {
            Ok(
                match usize::try_from(id).ok().filter(|&i| i < b.units.len()) {
                    Some(i) if field < UNIT_KEYS.len() => unit_field(&s, b, i, field),
                    _ => Value::Nil,
                },
            )
        })
    })?;
    Ok([units, count, get_unit, field])
}
