//! The `ctx` methods that ask the battle engine itself what it would
//! answer (`titan rules reach` and `titan rules los`): `ctx:reach(unit)`
//! and `ctx:sight(from, to)`. The platform cannot name the battle engine
//! (it sits below it), so each battle ctx carries the engine's
//! [`BattleEngine`], made once per battle and asked only here.

use super::*;

/// A unit id or a hex label, as a script names one end of a line.
fn sight_end(b: &BattleCtx, v: &Value) -> mlua::Result<SightEnd> {
    match v {
        Value::Integer(i) => match usize::try_from(*i).ok().filter(|&i| i < b.units.len()) {
            Some(u) if crate::state::units::place_of(&b.units, u).is_some() => {
                Ok(SightEnd::Unit(u as UnitId))
            }
            Some(_) => err(format!("ctx:sight: unit {i} is not on the battleland")),
            None => err(format!("ctx:sight: no unit {i}")),
        },
        Value::String(l) => {
            let label = l.to_str()?;
            HexId::from_label(&label).map(SightEnd::Hex).ok_or_else(|| {
                mlua::Error::runtime(format!("ctx:sight: no hex {label:?} (A1 ... F4)"))
            })
        }
        other => err(format!(
            "ctx:sight: give units or hex labels, not a {}",
            other.type_name()
        )),
    }
}

/// Adds `reach` and `sight` to the methods table `m`.
pub(super) fn add(lua: &Lua, m: &Table, store: &Rc<CtxStore>) -> mlua::Result<()> {
    let s = Rc::clone(store);
    m.set(
        "reach",
        lua.create_function(move |lua, (_, unit): (This, i64)| {
            s.battle_query("reach", |engine, b| {
                let Some(u) = usize::try_from(unit).ok().filter(|&i| i < b.units.len()) else {
                    return err(format!("ctx:reach: no unit {unit}"));
                };
                let hexes = engine
                    .reach(&s.variant, b, u as UnitId)
                    .map_err(mlua::Error::runtime)?;
                let t = lua.create_table_with_capacity(hexes.len(), 0)?;
                for h in hexes {
                    t.raw_push(h.label())?;
                }
                Ok(t)
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "sight",
        lua.create_function(move |lua, (_, from, to): (This, Value, Value)| {
            s.battle_query("sight", |engine, b| {
                let (from, to) = (sight_end(b, &from)?, sight_end(b, &to)?);
                let a = engine
                    .sight(&s.variant, b, from, to)
                    .map_err(mlua::Error::runtime)?;
                let t = lua.create_table()?;
                t.set("range", a.range)?;
                t.set("open", a.blocked_by.is_none())?;
                if let Some(why) = a.blocked_by {
                    t.set("blocked_by", why)?;
                }
                let path = lua.create_table_with_capacity(a.path.len(), 0)?;
                for h in &a.path {
                    path.raw_push(h.label())?;
                }
                t.set("path", path)?;
                match a.rangestrike {
                    Ok((strike_number, dice)) => {
                        t.set("rangestrike", true)?;
                        t.set("strike_number", strike_number)?;
                        t.set("dice", dice)?;
                    }
                    Err(why) => {
                        t.set("rangestrike", false)?;
                        t.set("reason", why)?;
                    }
                }
                Ok(t)
            })
        })?,
    )?;
    Ok(())
}
