//! The `ctx` methods that look up what the engine knows beyond the
//! event's position: characters, the caretaker, legions' size, and the
//! masterboard's lands, exits and moves (what `titan rules` answers).

use super::*;
use crate::model::movement::{Exits, Occupancy};

/// A land by its number on the masterboard.
fn land_by_number(v: &Variant, n: i64, what: &str) -> mlua::Result<crate::model::LandId> {
    v.board
        .lands()
        .find(|&l| i64::from(v.board.land(l).number) == n)
        .map_or_else(|| err(format!("ctx:{what}: no land {n}")), Ok)
}

fn sign_name(s: crate::format::Sign) -> &'static str {
    match s {
        crate::format::Sign::Block => "block",
        crate::format::Sign::Arch => "arch",
        crate::format::Sign::Arrow => "arrow",
        crate::format::Sign::TripleArrow => "triple_arrow",
        crate::format::Sign::Gate => "gate",
    }
}

/// Adds the lookups to the methods table `m`.
pub(super) fn add(lua: &Lua, m: &Table, store: &Rc<CtxStore>) -> mlua::Result<()> {
    let s = Rc::clone(store);
    // `get_character`: a `character` event field would hide `character`.
    m.set(
        "get_character",
        lua.create_function(move |lua, (_, name): (This, LuaString)| {
            let v = &s.variant;
            let name = name.to_str()?;
            let Some(id) = v.character_by_name(&name) else {
                return err(format!("ctx:get_character: no character {name:?}"));
            };
            let c = v.character(id);
            let t = lua.create_table()?;
            t.set("name", c.name.as_str())?;
            t.set("plural", c.plural.as_str())?;
            t.set("power", c.power)?;
            t.set("skill", c.skill)?;
            t.set("class", v.class(c.class).name.as_str())?;
            t.set("flies", c.flies)?;
            t.set("rangestrikes", c.rangestrike.is_some())?;
            t.set("magic", c.rangestrike.as_ref().is_some_and(|r| r.magic))?;
            t.set("summonable", c.summonable)?;
            t.set("uncounted", c.uncounted)?;
            t.set("count", c.count)?;
            t.set("value", c.value)?;
            t.set("titan", id == v.rules.titan.character)?;
            let natives = v
                .hazards
                .iter()
                .enumerate()
                .filter(|(i, _)| c.natives.contains(crate::model::HazardId(*i as u8)))
                .map(|(_, h)| h.name.as_str());
            t.set("natives", lua.create_sequence_from(natives)?)?;
            Ok(t)
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "caretaker",
        lua.create_function(move |_, (_, name): (This, LuaString)| {
            let v = &s.variant;
            let name = name.to_str()?;
            let Some(id) = v.character_by_name(&name) else {
                return err(format!("ctx:caretaker: no character {name:?}"));
            };
            s.with(|d| {
                Ok(match d {
                    CtxData::Game(g) => g.caretaker.get(id.index()).copied().unwrap_or(0),
                    CtxData::Battle(b) => b.caretaker_left(v, id),
                })
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "max_legion_size",
        lua.create_function(move |_, _: Value| Ok(s.variant.rules.legions.max_size))?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "exits",
        lua.create_function(move |lua, (_, land): (This, i64)| {
            let v = &s.variant;
            let id = land_by_number(v, land, "exits")?;
            let list = lua.create_table()?;
            let mut exits: Vec<_> = v.board.exits(id).collect();
            exits.sort_by_key(|(sign, to)| (v.board.land(*to).number, *sign as u8));
            for (sign, to) in exits {
                let t = lua.create_table()?;
                t.set("to", v.board.land(to).number)?;
                t.set("sign", sign_name(sign))?;
                list.raw_push(t)?;
            }
            Ok(list)
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "neighbours",
        lua.create_function(move |lua, (_, land): (This, i64)| {
            let v = &s.variant;
            let id = land_by_number(v, land, "neighbours")?;
            let mut numbers: Vec<u32> = v
                .board
                .lands()
                .filter(|&other| {
                    other != id
                        && (v.board.exits(id).any(|(_, to)| to == other)
                            || v.board.exits(other).any(|(_, to)| to == id))
                })
                .map(|l| v.board.land(l).number)
                .collect();
            numbers.sort_unstable();
            lua.create_sequence_from(numbers)
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "moves",
        lua.create_function(
            move |lua, (_, land, roll, seat): (This, i64, i64, Option<i64>)| {
                let v = &s.variant;
                let start = land_by_number(v, land, "moves")?;
                let die = i64::from(v.rules.movement.die);
                let Some(roll) = u8::try_from(roll)
                    .ok()
                    .filter(|r| (1..=die).contains(&i64::from(*r)))
                else {
                    return err(format!("ctx:moves: a roll is 1 to {die}, not {roll}"));
                };
                let occ = s.game("moves", |g| {
                    let player = match seat {
                        None => g.active,
                        Some(p) => match usize::try_from(p).ok().filter(|&i| i < g.players.len()) {
                            Some(i) => PlayerId(i as u8),
                            None => return err(format!("ctx:moves: no player in seat {p}")),
                        },
                    };
                    let (mut occ, mut owners) = (Vec::new(), Vec::new());
                    crate::model::movement::occupancy_into(
                        g.legions.iter().map(|l| (l.land, l.owner)),
                        player,
                        v.board.land_count(),
                        &mut occ,
                        &mut owners,
                    );
                    Ok(occ)
                })?;
                let exits = s.exits.get_or_init(|| Exits::new(v));
                let list = lua.create_table()?;
                for m in exits.moves(start, roll, &occ) {
                    let t = lua.create_table()?;
                    t.set("land", v.board.land(m.land).number)?;
                    t.set("entered_from", v.board.land(m.entered_from).number)?;
                    t.set(
                        "engagement",
                        occ.get(m.land.index()) == Some(&Occupancy::Enemy),
                    )?;
                    list.raw_push(t)?;
                }
                Ok(list)
            },
        )?,
    )?;
    Ok(())
}
