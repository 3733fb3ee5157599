//! The `ctx` effects that take a unit out of the battle alive, back to its
//! legion (`ctx:withdraw`), and bring it back (`ctx:rejoin`).

use super::*;
use crate::state::units::Fate;

/// Adds `withdraw` and `rejoin` to the methods table `m`.
pub(super) fn add(lua: &Lua, m: &Table, store: &Rc<CtxStore>) -> mlua::Result<()> {
    let s = Rc::clone(store);
    m.set(
        "withdraw",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.with_mut(|d| {
                let CtxData::Battle(b) = d else {
                    return err("ctx:withdraw is available in battle events only");
                };
                let Some(u) = usize::try_from(unit).ok().filter(|&i| {
                    i < b.units.len()
                        && !b.units[i].is_slain()
                        && matches!(
                            b.units[i].status,
                            Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
                        )
                }) else {
                    return err(format!("ctx:withdraw: unit {unit} is not in the battle, alive"));
                };
                let e = b.extra.get(u).copied().unwrap_or_default();
                if e.added.is_some() {
                    return err(format!(
                        "ctx:withdraw: unit {unit} was added by a script and has no legion to go back to"
                    ));
                }
                if e.changed_side {
                    return err(format!(
                        "ctx:withdraw: unit {unit} fights for the other side than its legion's (turn it back first)"
                    ));
                }
                // Its rider, if any, is set down on its hex.
                if let (Some(r), Some(h)) =
                    (crate::state::units::rider_of(&b.units, u), b.units[u].hex())
                {
                    b.units[r].status = Status::OnBoard(h);
                }
                b.units[u].status = Status::Gone(Fate::Withdrawn);
                Ok(())
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::Withdraw { unit: unit as u8 });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "rejoin",
        lua.create_function(move |_, (_, unit, label): (This, i64, String)| {
            let hex = s.with_mut(|d| {
                let CtxData::Battle(b) = d else {
                    return err("ctx:rejoin is available in battle events only");
                };
                let Some(u) = usize::try_from(unit).ok().filter(|&i| {
                    i < b.units.len() && b.units[i].status == Status::Gone(Fate::Withdrawn)
                }) else {
                    return err(format!(
                        "ctx:rejoin: unit {unit} is no unit withdrawn from this battle (ctx:withdraw)"
                    ));
                };
                let Some(h) = HexId::from_label(&label) else {
                    return err(format!("ctx:rejoin: no hex {label:?} (A1 ... F4)"));
                };
                if b.units.iter().any(|x| x.hex() == Some(h)) {
                    return err(format!("ctx:rejoin: {label} is occupied"));
                }
                let x = &mut b.units[u];
                x.status = Status::OnBoard(h);
                x.moved = true;
                x.locked = false;
                x.strikes_left = 0;
                Ok(h)
            })?;
            s.effects.borrow_mut().push(Effect::Rejoin {
                unit: unit as u8,
                hex,
            });
            Ok(())
        })?,
    )?;
    Ok(())
}
