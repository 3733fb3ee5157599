//! The methods of every `ctx` (`ctx:units()`, `ctx:damage(...)`, ...):
//! reads of the snapshot and requests of effects.

use super::*;

/// Refuses a masterplay change to a legion fighting the battle being
/// fought: its units are fixed when the battle begins (a battle event's
/// `ctx:add_unit` brings a character into it).
fn not_fighting(g: &GameState, legion: Marker, what: &str) -> mlua::Result<()> {
    match &g.engagement {
        Some(e)
            if e.step == crate::state::game::EngagementStep::Battle
                && (e.attacker == legion || e.defender == legion) =>
        {
            err(format!(
                "ctx:{what}: legion {legion} is fighting a battle (its characters are the battle's units until it ends; in a battle event, ctx:add_unit and ctx:remove change them)"
            ))
        }
        _ => Ok(()),
    }
}

fn hits_arg(n: i64, what: &str) -> mlua::Result<u8> {
    match u8::try_from(n) {
        Ok(h) => Ok(h),
        Err(_) => err(format!("ctx:{what}: hits are 0 to 255, not {n}")),
    }
}

/// The methods of every `ctx` (called as `ctx:name(...)`).
pub(super) fn methods(lua: &Lua, store: &Rc<CtxStore>) -> mlua::Result<Table> {
    let m = lua.create_table()?;
    super::lookups::add(lua, &m, store)?;
    super::battle_queries::add(lua, &m, store)?;
    super::withdraw::add(lua, &m, store)?;

    // `units`, `get_unit`, `count_units` and `unit_field` are made in
    // `ctx.lua` over the raw queries of `query.rs`.

    let s = Rc::clone(store);
    m.set(
        "get_hex",
        // Flat values (the hazard and terrain as codes, none: no such
        // hex); `ctx.lua` makes the hex's table with a constructor, so no
        // field is set from Rust (each a protected call under the memory
        // cap).
        lua.create_function(move |_, (_, label): (This, String)| {
            s.battle("get_hex", |b| {
                let mut out = mlua::MultiValue::with_capacity(5);
                let Some(h) = b.hex_named(&s.variant, &label) else {
                    return Ok(out);
                };
                let land = b.land(&s.variant);
                let hex = land.hex(h);
                let hazard = b.hazard(&s.variant, h);
                out.push_back(Value::Integer(hazard.index() as i64));
                out.push_back(Value::Integer(i64::from(hex.elevation)));
                out.push_back(Value::Integer(land.terrain.index() as i64));
                if let Some(i) = b.units.iter().position(|u| u.hex() == Some(h)) {
                    out.push_back(Value::Integer(i as i64));
                    if let Some(r) = crate::state::units::rider_of(&b.units, i) {
                        out.push_back(Value::Integer(r as i64));
                    }
                }
                Ok(out)
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "distance",
        lua.create_function(move |_, (_, a, b2): (This, Value, Value)| {
            s.battle("distance", |b| {
                let hex = |v: &Value| -> mlua::Result<HexId> {
                    match v {
                        Value::Integer(i) => crate::state::units::place_of(&b.units, *i as usize)
                            .ok_or_else(|| {
                                mlua::Error::runtime(format!(
                                    "ctx:distance: unit {i} is not on the battleland"
                                ))
                            }),
                        Value::String(l) => {
                            b.hex_named(&s.variant, &l.to_str()?).ok_or_else(|| {
                                mlua::Error::runtime("ctx:distance: no such hex (A1 ... F4)")
                            })
                        }
                        other => err(format!(
                            "ctx:distance: give units or hex labels, not a {}",
                            other.type_name()
                        )),
                    }
                };
                Ok(b.land(&s.variant).board.distance(hex(&a)?, hex(&b2)?))
            })
        })?,
    )?;

    // Whether a unit may stand on a hex: its hazard (as changed now) does
    // not block the unit's way in (walking, or landing for a flyer), by its
    // flight and natives as scripts set them. Occupants are not asked.
    let s = Rc::clone(store);
    m.set(
        "may_stand",
        lua.create_function(move |_, (_, unit, label): (This, i64, String)| {
            s.battle("may_stand", |b| {
                let Some(h) = b.hex_named(&s.variant, &label) else {
                    return err(format!("ctx:may_stand: no hex {label:?} (A1 ... F4)"));
                };
                let Some(u) = usize::try_from(unit).ok().filter(|&i| i < b.units.len()) else {
                    return err(format!("ctx:may_stand: no unit {unit}"));
                };
                let v = &s.variant;
                let c = v.character(b.units[u].character);
                let e = b.extra.get(u).copied().unwrap_or_default();
                let flies = e.flies.unwrap_or(c.flies);
                let natives = e.natives.unwrap_or(c.natives);
                let hazard = b.hazard(v, h);
                let way = v
                    .hazard(hazard)
                    .movement_for(flies, natives.contains(hazard));
                Ok(way != crate::format::Move::Block)
            })
        })?,
    )?;

    // Whether characters on two hexes (units or labels) would be in contact:
    // adjacent, with no hexside between that breaks contact.
    let s = Rc::clone(store);
    m.set(
        "in_contact",
        lua.create_function(move |_, (_, a, b2): (This, Value, Value)| {
            s.battle("in_contact", |b| {
                let (from, to) = (
                    unit_or_hex(b, &s.variant, &a, "in_contact")?,
                    unit_or_hex(b, &s.variant, &b2, "in_contact")?,
                );
                // A battleland a script put in place has its own hexsides.
                let contact = match &b.overlay {
                    Some(o) if o.landscape.is_some() => &o.tables.contact,
                    _ => &s.variant.battle_tables.land(b.terrain.index()).contact,
                };
                Ok(contact[from.0 as usize] & (1 << to.0) != 0)
            })
        })?,
    )?;

    // The hexside between two adjacent hexes (units or labels), as crossed
    // from the first to the second: `nil` when they are not adjacent.
    let s = Rc::clone(store);
    m.set(
        "hexside",
        lua.create_function(move |lua, (_, a, b2): (This, Value, Value)| {
            s.battle("hexside", |b| {
                let (from, to) = (
                    unit_or_hex(b, &s.variant, &a, "hexside")?,
                    unit_or_hex(b, &s.variant, &b2, "hexside")?,
                );
                let cell = b.land(&s.variant).hex(from);
                let Some(i) = cell.neighbours.iter().position(|n| *n == Some(to)) else {
                    return Ok(Value::Nil);
                };
                let t = lua.create_table()?;
                if let Some(side) = cell.sides[i] {
                    t.set("hazard", s.variant.hazard(side.hazard).name.as_str())?;
                    // Recorded on both hexes; `top` is the first hex's.
                    t.set("up", !side.top)?;
                } else {
                    t.set("up", false)?;
                }
                Ok(Value::Table(t))
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "players",
        lua.create_function(move |lua, _: Value| {
            s.game("players", |g| {
                let list = lua.create_table()?;
                for (i, p) in g.players.iter().enumerate() {
                    let t = lua.create_table()?;
                    t.set("seat", i)?;
                    t.set("name", p.name.as_str())?;
                    t.set("score", p.score)?;
                    t.set("alive", p.alive)?;
                    if let Some(tower) = p.tower {
                        t.set("tower", s.variant.board.land(tower).number)?;
                    }
                    list.raw_push(t)?;
                }
                Ok(list)
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "legions",
        lua.create_function(move |lua, _: Value| {
            s.game("legions", |g| {
                let list = lua.create_table()?;
                for l in &g.legions {
                    let t = lua.create_table()?;
                    t.set("marker", l.marker.to_string())?;
                    t.set("owner", l.owner.0)?;
                    t.set("land", s.variant.board.land(l.land).number)?;
                    t.set("moved", l.moved)?;
                    let names = l
                        .characters
                        .iter()
                        .map(|&c| s.variant.character(c).name.as_str());
                    t.set("characters", lua.create_sequence_from(names)?)?;
                    list.raw_push(t)?;
                }
                Ok(list)
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "engagement",
        lua.create_function(move |lua, _: Value| {
            // A game's battle knows its engagement too (`GameLinks`).
            let fought = s.with(|d| {
                Ok(match d {
                    CtxData::Game(g) => g
                        .engagement
                        .as_ref()
                        .map(|e| (s.variant.board.land(e.land).number, e.attacker, e.defender)),
                    CtxData::Battle(b) => b.world.as_ref().and_then(|w| w.engagement),
                })
            })?;
            let Some((land, attacker, defender)) = fought else {
                return Ok(Value::Nil);
            };
            let t = lua.create_table()?;
            t.set("land", land)?;
            t.set("attacker", attacker.to_string())?;
            t.set("defender", defender.to_string())?;
            t.set("attacker_player", attacker.player.0)?;
            t.set("defender_player", defender.player.0)?;
            Ok(Value::Table(t))
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "get",
        // Names borrowed from Lua's string: no allocation per call.
        lua.create_function(move |lua, (_, name, target): (This, LuaString, Value)| {
            s.get(lua, &name.to_str()?, &target)
        })?,
    )?;

    // A rule option of the game (variant.ron `options`), in every ctx.
    let s = Rc::clone(store);
    m.set(
        "option",
        lua.create_function(move |lua, (_, name): (This, LuaString)| {
            s.option(lua, &name.to_str()?)
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "set",
        lua.create_function(
            move |_, (_, name, target, value): (This, LuaString, Value, Value)| {
                s.set(&name.to_str()?, &target, &value)
            },
        )?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "damage",
        lua.create_function(move |_, (_, unit, n): (This, i64, i64)| {
            let hits = hits_arg(n, "damage")?;
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = CtxStore::unit_on_board(b, unit, "damage")?;
                    let x = &mut b.units[u];
                    x.damage = x.damage.saturating_add(hits).min(x.power);
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:damage is available in battle events only"),
            })?;
            s.effects.borrow_mut().push(Effect::Damage {
                unit: unit as u8,
                hits,
            });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "heal",
        lua.create_function(move |_, (_, unit, n): (This, i64, i64)| {
            let hits = hits_arg(n, "heal")?;
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = CtxStore::unit_on_board(b, unit, "heal")?;
                    let x = &mut b.units[u];
                    x.damage = x.damage.saturating_sub(hits);
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:heal is available in battle events only"),
            })?;
            s.effects.borrow_mut().push(Effect::Heal {
                unit: unit as u8,
                hits,
            });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "kill",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = CtxStore::unit_on_board(b, unit, "kill")?;
                    b.units[u].damage = b.units[u].power;
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:kill is available in battle events only"),
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::Kill { unit: unit as u8 });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "swap",
        lua.create_function(move |_, (_, a, b2): (This, i64, i64)| {
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let x = CtxStore::unit_on_board(b, a, "swap")?;
                    let y = CtxStore::unit_on_board(b, b2, "swap")?;
                    // A mount takes its rider along; a rider moves only with it.
                    CtxStore::not_riding(b, x, "swap")?;
                    CtxStore::not_riding(b, y, "swap")?;
                    let (hx, hy) = (b.units[x].status, b.units[y].status);
                    b.units[x].status = hy;
                    b.units[y].status = hx;
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:swap is available in battle events only"),
            })?;
            s.effects.borrow_mut().push(Effect::Swap {
                a: a as u8,
                b: b2 as u8,
            });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "remove",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = usize::try_from(unit).ok().filter(|&i| i < b.units.len());
                    let Some(u) = u.filter(|&i| {
                        let x = &b.units[i];
                        !x.is_slain()
                            && matches!(
                                x.status,
                                Status::Waiting | Status::OnBoard(_) | Status::Riding(_)
                            )
                    }) else {
                        return err(format!("ctx:remove: unit {unit} is not in the battle"));
                    };
                    // Its rider, if any, is set down on its hex.
                    if let (Some(r), Some(h)) =
                        (crate::state::units::rider_of(&b.units, u), b.units[u].hex())
                    {
                        b.units[r].status = Status::OnBoard(h);
                    }
                    b.units[u].status = Status::Gone(crate::state::units::Fate::Removed);
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:remove is available in battle events only"),
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::Remove { unit: unit as u8 });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "end_battle",
        lua.create_function(move |_, (_, winner): (This, String)| {
            let winner = match winner.as_str() {
                "attacker" => Some(BattleSide::Attacker),
                "defender" => Some(BattleSide::Defender),
                "neither" => None,
                other => {
                    return err(format!(
                        "ctx:end_battle: the winner is \"attacker\", \"defender\" or \"neither\", not {other:?}"
                    ));
                }
            };
            s.battle("end_battle", |_| Ok(()))?;
            let mut effects = s.effects.borrow_mut();
            if effects.iter().any(|e| matches!(e, Effect::EndBattle { .. })) {
                return err("ctx:end_battle: this event has ended the battle already");
            }
            effects.push(Effect::EndBattle { winner });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "reveal",
        lua.create_function(move |_, (_, marker, seat): (This, String, Option<i64>)| {
            let legion = marker.parse::<Marker>().map_err(mlua::Error::runtime)?;
            // With a seat, that player alone is shown the legion (a spy);
            // without, everybody.
            let to = s.game("reveal", |g| {
                if !g.legions.iter().any(|l| l.marker == legion) {
                    return err(format!("ctx:reveal: no legion {legion}"));
                }
                match seat {
                    None => Ok(None),
                    Some(seat) => match usize::try_from(seat).ok().filter(|&i| i < g.players.len())
                    {
                        Some(i) => Ok(Some(PlayerId(i as u8))),
                        None => err(format!("ctx:reveal: no player in seat {seat}")),
                    },
                }
            })?;
            s.effects.borrow_mut().push(Effect::Reveal { legion, to });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "add_character",
        lua.create_function(move |_, (_, marker, name): (This, String, String)| {
            let v = &s.variant;
            let legion = marker.parse::<Marker>().map_err(mlua::Error::runtime)?;
            let Some(character) = v.character_by_name(&name) else {
                return err(format!("ctx:add_character: no character {name:?}"));
            };
            // Taken at once from the ctx's position, so that the handler's
            // later reads and checks see it.
            s.game_mut("add_character", |g| {
                let Some(i) = g.legions.iter().position(|l| l.marker == legion) else {
                    return err(format!("ctx:add_character: no legion {legion}"));
                };
                not_fighting(g, legion, "add_character")?;
                let left = g.caretaker.get(character.index()).copied().unwrap_or(0);
                if left == 0 {
                    return err(format!(
                        "ctx:add_character: the caretaker has no {name} left"
                    ));
                }
                let max = usize::from(v.rules.legions.max_size);
                if v.legion_size(g.legions[i].characters.iter().copied().chain([character])) > max {
                    return err(format!(
                        "ctx:add_character: legion {legion} is full ({max} characters)"
                    ));
                }
                if !v.room_for(&g.legions[i].characters, character) {
                    return err(format!(
                        "ctx:add_character: legion {legion} holds as many {} as a legion may (per_legion)",
                        v.character(character).plural
                    ));
                }
                let titans = &v.rules.titan;
                if character == titans.character {
                    let owner = legion.player;
                    let held = g
                        .legions
                        .iter()
                        .filter(|l| l.owner == owner)
                        .flat_map(|l| &l.characters)
                        .filter(|&&c| c == character)
                        .count();
                    if held >= usize::from(titans.per_player) {
                        return err(format!(
                            "ctx:add_character: the player in seat {} has his Titan already (rules.titan.per_player: {})",
                            owner.0, titans.per_player
                        ));
                    }
                }
                let l = &mut g.legions[i];
                g.caretaker[character.index()] = left - 1;
                l.characters.push(character);
                l.characters.sort();
                Ok(())
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::AddCharacter { legion, character });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "eliminate",
        lua.create_function(move |_, (_, seat): (This, i64)| {
            let player = s.game_mut("eliminate", |g| {
                let Some(p) = usize::try_from(seat)
                    .ok()
                    .and_then(|i| g.players.get_mut(i))
                else {
                    return err(format!("ctx:eliminate: no player in seat {seat}"));
                };
                if !p.alive {
                    return err(format!(
                        "ctx:eliminate: the player in seat {seat} is out already"
                    ));
                }
                p.alive = false;
                Ok(PlayerId(seat as u8))
            })?;
            s.effects.borrow_mut().push(Effect::Eliminate { player });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "begin_showdown",
        lua.create_function(move |_, (_, seat): (This, i64)| {
            let has_rules = s.variant.rules.battle.showdown.is_some();
            let player = s.game_mut("begin_showdown", |g| {
                if !has_rules {
                    return err(
                        "ctx:begin_showdown: the variant has no showdown (rules.battle.showdown)"
                            .to_string(),
                    );
                }
                let Some(p) = usize::try_from(seat).ok().and_then(|i| g.players.get(i)) else {
                    return err(format!("ctx:begin_showdown: no player in seat {seat}"));
                };
                if !p.alive {
                    return err(format!(
                        "ctx:begin_showdown: the player in seat {seat} is out of the game"
                    ));
                }
                if g.showdown.is_some() || g.engagement.is_some() {
                    return err(
                        "ctx:begin_showdown: a showdown or an engagement is being fought"
                            .to_string(),
                    );
                }
                let holds = |i: usize| {
                    g.players[i].alive && g.legions.iter().any(|l| l.owner.0 as usize == i)
                };
                let seat_index = seat as usize;
                if !holds(seat_index) || !(0..g.players.len()).any(|i| i != seat_index && holds(i)) {
                    return err(
                        "ctx:begin_showdown: the challenger and another player must each hold a legion"
                            .to_string(),
                    );
                }
                // Seen by the handler's later reads; masterplay fills it in.
                g.showdown = Some(crate::state::game::Showdown {
                    challenger: PlayerId(seat as u8),
                    opponents: Vec::new(),
                    committed: Vec::new(),
                    unit_legions: Vec::new(),
                    titan_slayer: None,
                });
                Ok(PlayerId(seat as u8))
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::BeginShowdown { player });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "move",
        lua.create_function(move |_, (_, unit, label): (This, i64, String)| {
            let to = s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = CtxStore::unit_on_board(b, unit, "move")?;
                    CtxStore::not_riding(b, u, "move")?;
                    let Some(to) = b.hex_named(&s.variant, &label) else {
                        return err(format!("ctx:move: no hex {label:?} (A1 ... F4)"));
                    };
                    if let Some(other) = b.units.iter().position(|x| x.hex() == Some(to))
                        && other != u
                    {
                        return err(format!("ctx:move: {label} is occupied by unit {other}"));
                    }
                    b.units[u].status = Status::OnBoard(to);
                    Ok(to)
                }
                CtxData::Game(_) => err("ctx:move is available in battle events only"),
            })?;
            s.effects.borrow_mut().push(Effect::Move {
                unit: unit as u8,
                to,
            });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "may_mount",
        lua.create_function(move |_, (_, rider, mount): (This, i64, i64)| {
            s.battle("may_mount", |b| {
                Ok(match mount_check(b, &s.variant, rider, mount) {
                    Ok(_) => (true, None),
                    Err(e) => (false, Some(e)),
                })
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "mount",
        lua.create_function(move |_, (_, rider, mount): (This, i64, i64)| {
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let (r, m) = mount_check(b, &s.variant, rider, mount)
                        .or_else(|e| err(format!("ctx:mount: {e}")))?;
                    b.units[r].status = Status::Riding(m as u8);
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:mount is available in battle events only"),
            })?;
            s.effects.borrow_mut().push(Effect::Mount {
                rider: rider as u8,
                mount: mount as u8,
            });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "dismount",
        lua.create_function(move |_, (_, rider, label): (This, i64, String)| {
            let hex = s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let Some(r) = usize::try_from(rider).ok().filter(|&i| i < b.units.len()) else {
                        return err(format!("ctx:dismount: no unit {rider} in this battle"));
                    };
                    let Status::Riding(m) = b.units[r].status else {
                        return err(format!("ctx:dismount: unit {r} rides nobody"));
                    };
                    let Some(to) = b.hex_named(&s.variant, &label) else {
                        return err(format!("ctx:dismount: no hex {label:?} (A1 ... F4)"));
                    };
                    let at = b.units[m as usize].hex();
                    if at.is_none_or(|at| b.land(&s.variant).board.distance(at, to) != 1) {
                        return err(format!(
                            "ctx:dismount: {label} is not next to unit {m}'s hex"
                        ));
                    }
                    if let Some(other) = b.units.iter().position(|x| x.hex() == Some(to)) {
                        return err(format!("ctx:dismount: {label} is occupied by unit {other}"));
                    }
                    b.units[r].status = Status::OnBoard(to);
                    Ok(to)
                }
                CtxData::Game(_) => err("ctx:dismount is available in battle events only"),
            })?;
            s.effects.borrow_mut().push(Effect::Dismount {
                rider: rider as u8,
                hex,
            });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "mount_of",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.battle("mount_of", |b| {
                Ok(
                    match usize::try_from(unit).ok().and_then(|i| b.units.get(i)) {
                        Some(Unit {
                            status: Status::Riding(m),
                            ..
                        }) => Some(i64::from(*m)),
                        _ => None,
                    },
                )
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "rider_of",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.battle("rider_of", |b| {
                Ok(usize::try_from(unit)
                    .ok()
                    .and_then(|i| crate::state::units::rider_of(&b.units, i)))
            })
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "set_unit",
        lua.create_function(
            move |_, (_, unit, field, value): (This, i64, String, Value)| {
                use crate::state::extra::UnitField as U;
                let v = &s.variant;
                let bad = |what: &str| -> mlua::Result<U> {
                    err(format!(
                        "ctx:set_unit: {field} is {what}, not {}",
                        match &value {
                            Value::Integer(i) => i.to_string(),
                            Value::String(t) => format!("{:?}", t.to_string_lossy()),
                            other => format!("a {}", other.type_name()),
                        }
                    ))
                };
                let int = |lo: i64, hi: i64| match value {
                    Value::Integer(i) if (lo..=hi).contains(&i) => Some(i as u8),
                    _ => None,
                };
                let f = match field.as_str() {
                    "flies" | "may_move" | "may_strike" | "bound" => match value {
                        Value::Boolean(b) => match field.as_str() {
                            "flies" => U::Flies(b),
                            "may_move" => U::MayMove(b),
                            "bound" => U::Bound(b),
                            _ => U::MayStrike(b),
                        },
                        _ => bad("true or false")?,
                    },
                    "power" => match int(1, 255) {
                        Some(p) => U::Power(p),
                        None => bad("1 to 255")?,
                    },
                    "skill" => match int(0, 255) {
                        Some(p) => U::Skill(p),
                        None => bad("0 to 255")?,
                    },
                    "strikes" => match int(0, 255) {
                        Some(n) => U::Strikes(n),
                        None => bad("0 to 255")?,
                    },
                    "rangestrike_from" => {
                        let Value::Table(list) = &value else {
                            return bad("a list of hex labels").map(|_| ());
                        };
                        let mut set: crate::battleland::hexset::HexSet = 0;
                        for label in list.sequence_values::<Value>() {
                            let h = match label? {
                                Value::String(l) => HexId::from_label(&l.to_str()?)
                                    .filter(|h| usize::from(h.0) < crate::battleland::MAX_HEXES),
                                _ => None,
                            };
                            let Some(h) = h else {
                                return err("ctx:set_unit: rangestrike_from lists hex labels (A1 ... F4)");
                            };
                            set |= 1 << h.0;
                        }
                        U::RangestrikeFrom(set)
                    }
                    "movement" => match int(0, 255) {
                        Some(p) => U::Movement(p),
                        None => bad("0 to 255")?,
                    },
                    "max_steps" => match int(0, 255) {
                        Some(p) => U::MaxSteps(p),
                        None => bad("0 to 255")?,
                    },
                    "locked" => match value {
                        Value::Boolean(b) => U::Locked(b),
                        _ => bad("true or false")?,
                    },
                    "natives" => {
                        let mut set = crate::model::HazardSet::default();
                        match &value {
                            Value::String(t) if t.to_str()? == "all" => {
                                for i in 0..v.hazards.len() {
                                    set.insert(HazardId(i as _));
                                }
                            }
                            Value::String(t) if t.to_str()? == "none" => {}
                            Value::Table(list) => {
                                for name in list.sequence_values::<Value>() {
                                    let Value::String(name) = name? else {
                                        return err("ctx:set_unit: natives lists hazard names");
                                    };
                                    let name = name.to_str()?;
                                    match v.hazard_by_name(&name) {
                                        Some(h) => set.insert(h),
                                        None => {
                                            return err(format!(
                                                "ctx:set_unit: no hazard {:?}",
                                                &*name
                                            ));
                                        }
                                    }
                                }
                            }
                            _ => {
                                bad("a list of hazard names, \"all\" or \"none\"")?;
                            }
                        };
                        U::Natives(set)
                    }
                    other => {
                        return err(format!(
                            "ctx:set_unit: no field {other:?} (flies, natives, power, skill, movement, max_steps, may_move, may_strike, strikes, rangestrike_from, bound, locked)"
                        ));
                    }
                };
                s.with_mut(|d| match d {
                    CtxData::Battle(b) => {
                        let u = CtxStore::unit_in_battle(b, unit, "set_unit")?;
                        if let U::Power(p) = f {
                            if b.units[u].character == v.rules.titan.character {
                                return err(
                                    "ctx:set_unit: a Titan's power follows its player's score; it is not set",
                                );
                            }
                            b.units[u].power = p;
                            b.units[u].damage = b.units[u].damage.min(p);
                        }
                        if b.extra.len() < b.units.len() {
                            b.extra.resize(b.units.len(), Default::default());
                        }
                        b.extra[u].set(f);
                        if f == U::Locked(false) {
                            b.units[u].locked = false;
                        }
                        Ok(())
                    }
                    CtxData::Game(_) => err("ctx:set_unit is available in battle events only"),
                })?;
                s.effects.borrow_mut().push(Effect::SetUnit {
                    unit: unit as u8,
                    field: f,
                });
                Ok(())
            },
        )?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "set_round",
        lua.create_function(move |_, (_, n): (This, Value)| {
            let round = round_arg("set_round", s.variant.rules.battle.defender_maneuvers, n)?;
            s.battle("set_round", |_| Ok(()))?;
            s.effects.borrow_mut().push(Effect::SetRound { round });
            Ok(())
        })?,
    )?;

    // The round in whose maneuver phase the defender may reinforce: the
    // rules' (`rules.battle.reinforcement_maneuver`) unless a script moved it.
    let s = Rc::clone(store);
    m.set(
        "reinforcement_round",
        lua.create_function(move |_, _: Value| {
            s.battle("reinforcement_round", |b| Ok(b.reinforcement_round))
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "set_reinforcement_round",
        lua.create_function(move |_, (_, n): (This, Value)| {
            let round = round_arg(
                "set_reinforcement_round",
                s.variant.rules.battle.defender_maneuvers,
                n,
            )?;
            s.battle("set_reinforcement_round", |_| Ok(()))?;
            s.effects
                .borrow_mut()
                .push(Effect::SetReinforcementRound { round });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "change_side",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = CtxStore::unit_on_board(b, unit, "change_side")?;
                    CtxStore::not_riding(b, u, "change_side")?;
                    if let Some(r) = crate::state::units::rider_of(&b.units, u) {
                        return err(format!(
                            "ctx:change_side: unit {u} carries unit {r}, which fights for its side (dismount it first)"
                        ));
                    }
                    b.units[u].side = b.units[u].side.other();
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:change_side is available in battle events only"),
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::ChangeSide { unit: unit as u8 });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "add_unit",
        lua.create_function(
            move |_, (_, side, name, label, temporary): (This, String, String, String, Value)| {
                let v = &s.variant;
                let side = match side.as_str() {
                    "attacker" => BattleSide::Attacker,
                    "defender" => BattleSide::Defender,
                    other => {
                        return err(format!(
                            "ctx:add_unit: the side is \"attacker\" or \"defender\", not {other:?}"
                        ));
                    }
                };
                let Some(character) = v.character_by_name(&name) else {
                    return err(format!("ctx:add_unit: no character {name:?}"));
                };
                let Some(hex) = HexId::from_label(&label) else {
                    return err(format!("ctx:add_unit: no hex {label:?} (A1 ... F4)"));
                };
                let temporary = match temporary {
                    Value::Nil => false,
                    Value::Boolean(t) => t,
                    other => {
                        return err(format!(
                            "ctx:add_unit: temporary is true or false, not a {}",
                            other.type_name()
                        ));
                    }
                };
                s.with_mut(|d| match d {
                    CtxData::Battle(b) => {
                        if !b.land(v).board.has(hex) {
                            return err(format!(
                                "ctx:add_unit: no hex {label:?} on this battleland"
                            ));
                        }
                        if let Some(other) = b.units.iter().position(|x| x.hex() == Some(hex)) {
                            return err(format!(
                                "ctx:add_unit: {label} is occupied by unit {other}"
                            ));
                        }
                        if b.units.len() >= 255 {
                            return err("ctx:add_unit: a battle holds at most 255 units");
                        }
                        if !temporary {
                            if b.caretaker_left(v, character) == 0 {
                                return err(format!(
                                    "ctx:add_unit: the caretaker has no {name} left"
                                ));
                            }
                            b.taken.push(character);
                        }
                        b.units.push(Unit {
                            character,
                            side,
                            power: v.character(character).power,
                            status: Status::OnBoard(hex),
                            damage: 0,
                            moved: true,
                            locked: false,
                            strikes_left: 0,
                        });
                        Ok(())
                    }
                    CtxData::Game(_) => err("ctx:add_unit is available in battle events only"),
                })?;
                s.effects.borrow_mut().push(Effect::AddUnit {
                    side,
                    character,
                    hex,
                    temporary,
                });
                Ok(())
            },
        )?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "set_hazard",
        lua.create_function(
            move |_, (_, label, name, rounds): (This, Value, Value, Value)| {
                let v = &s.variant;
                let Value::String(label) = label else {
                    return err(format!(
                        "ctx:set_hazard: the hex is a label (A1 ... F4), not a {}",
                        label.type_name()
                    ));
                };
                let label = label.to_str()?.to_string();
                let Some(hex) = HexId::from_label(&label) else {
                    return err(format!("ctx:set_hazard: no hex {label:?} (A1 ... F4)"));
                };
                let hazard = match &name {
                    Value::Nil => plain_hazard(v).ok_or_else(|| {
                        mlua::Error::runtime(
                            "ctx:set_hazard: this variant has no plain hex hazard (one with no effects) for nil to mean",
                        )
                    })?,
                    Value::String(n) => {
                        let n = n.to_str()?;
                        match v.hazard_by_name(&n) {
                            Some(h) if v.hazard(h).place == crate::format::Place::Hex => h,
                            Some(_) => {
                                return err(format!(
                                    "ctx:set_hazard: {:?} lies on hexsides, not in hexes",
                                    &*n
                                ));
                            }
                            None => {
                                return err(format!("ctx:set_hazard: no hazard {:?}", &*n));
                            }
                        }
                    }
                    other => {
                        return err(format!(
                            "ctx:set_hazard: the hazard is a name or nil, not a {}",
                            other.type_name()
                        ));
                    }
                };
                let rounds = match rounds {
                    Value::Nil => None,
                    Value::Integer(r) if (1..=255).contains(&r) => Some(r as u8),
                    other => {
                        return err(format!(
                            "ctx:set_hazard: rounds is nil (the rest of the battle) or 1 to 255, not {}",
                            match other {
                                Value::Integer(r) => r.to_string(),
                                o => format!("a {}", o.type_name()),
                            }
                        ));
                    }
                };
                s.with_mut(|d| match d {
                    CtxData::Battle(b) => {
                        if !b.land(v).board.has(hex) {
                            return err(format!(
                                "ctx:set_hazard: no hex {label:?} on this battleland"
                            ));
                        }
                        b.hazards_set.push((hex, hazard));
                        Ok(())
                    }
                    CtxData::Game(_) => err("ctx:set_hazard is available in battle events only"),
                })?;
                s.effects.borrow_mut().push(Effect::SetHazard {
                    hex,
                    hazard,
                    rounds,
                });
                Ok(())
            },
        )?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "set_battleland",
        lua.create_function(move |_, (_, name, turns): (This, Value, Value)| {
            let v = &s.variant;
            let terrain = match &name {
                Value::String(n) => {
                    let n = n.to_str()?;
                    v.terrain_by_name(&n).ok_or_else(|| {
                        mlua::Error::runtime(format!("ctx:set_battleland: no terrain {:?}", &*n))
                    })?
                }
                other => {
                    return err(format!(
                        "ctx:set_battleland: the terrain is a name, not a {}",
                        other.type_name()
                    ));
                }
            };
            let turns = match turns {
                Value::Nil => 0,
                Value::Integer(t) if (0..=2).contains(&t) => t as u8,
                other => {
                    return err(format!(
                        "ctx:set_battleland: turns is nil, 0, 1 or 2 (thirds of a turn), not {}",
                        match other {
                            Value::Integer(t) => t.to_string(),
                            o => format!("a {}", o.type_name()),
                        }
                    ));
                }
            };
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    // Units keep their hexes: only a battleland on the same
                    // board may take the place of the battle's.
                    if v.battleland(terrain).board != b.land(v).board {
                        return err("ctx:set_battleland: that battleland stands on another board");
                    }
                    b.land_set = Some(Rc::new(v.battleland(terrain).rotated(turns)));
                    b.hazards_set.clear();
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:set_battleland is available in battle events only"),
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::SetBattleland { terrain, turns });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "use_strike",
        lua.create_function(move |_, (_, unit): (This, i64)| {
            s.with_mut(|d| match d {
                CtxData::Battle(b) => {
                    let u = CtxStore::unit_on_board(b, unit, "use_strike")?;
                    b.units[u].strikes_left = 0;
                    Ok(())
                }
                CtxData::Game(_) => err("ctx:use_strike is available in battle events only"),
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::UseStrike { unit: unit as u8 });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "roll_again",
        lua.create_function(move |_, _: Value| {
            s.game_mut("roll_again", |g| {
                let mover = g.active;
                if g.phase != crate::state::game::Phase::Move || g.roll.is_none() {
                    return err("ctx:roll_again: the movement die is rolled again only in the move phase, after the roll");
                }
                if g.legions.iter().any(|l| l.owner == mover && l.moved) {
                    return err("ctx:roll_again: a legion has moved on this roll already");
                }
                Ok(())
            })?;
            s.effects.borrow_mut().push(Effect::RollAgain);
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "award",
        lua.create_function(move |_, (_, seat, points): (This, i64, i64)| {
            let Ok(points) = u32::try_from(points) else {
                return err(format!("ctx:award: points are 0 or more, not {points}"));
            };
            let player = s.game_mut("award", |g| {
                let Some(p) = usize::try_from(seat)
                    .ok()
                    .and_then(|i| g.players.get_mut(i))
                else {
                    return err(format!("ctx:award: no player in seat {seat}"));
                };
                if !p.alive {
                    return err(format!(
                        "ctx:award: the player in seat {seat} is out of the game"
                    ));
                }
                let Some(score) = p.score.checked_add(points) else {
                    return err(format!(
                        "ctx:award: the score of seat {seat} would pass {} ({} + {points})",
                        u32::MAX,
                        p.score
                    ));
                };
                p.score = score;
                Ok(PlayerId(seat as u8))
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::Award { player, points });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "lower_score",
        lua.create_function(move |_, (_, seat, points): (This, i64, i64)| {
            let Ok(points) = u32::try_from(points) else {
                return err(format!(
                    "ctx:lower_score: points are 0 to {}, not {points}",
                    u32::MAX
                ));
            };
            let player = s.game_mut("lower_score", |g| {
                let Some(p) = usize::try_from(seat)
                    .ok()
                    .and_then(|i| g.players.get_mut(i))
                else {
                    return err(format!("ctx:lower_score: no player in seat {seat}"));
                };
                p.score = p.score.saturating_sub(points);
                Ok(PlayerId(seat as u8))
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::LowerScore { player, points });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "move_character",
        lua.create_function(
            move |_, (_, from, to, name): (This, String, String, String)| {
                let v = &s.variant;
                let what = "ctx:move_character";
                let from = from.parse::<Marker>().map_err(mlua::Error::runtime)?;
                let to = to.parse::<Marker>().map_err(mlua::Error::runtime)?;
                let Some(character) = v.character_by_name(&name) else {
                    return err(format!("{what}: no character {name:?}"));
                };
                s.game_mut("move_character", |g| {
                    let find = |m: Marker| g.legions.iter().position(|l| l.marker == m);
                    let (Some(i), Some(j)) = (find(from), find(to)) else {
                        return err(format!(
                            "{what}: no legion {}",
                            if find(from).is_none() { from } else { to }
                        ));
                    };
                    if i == j {
                        return err(format!("{what}: {from} is the legion it is in"));
                    }
                    not_fighting(g, from, "move_character")?;
                    not_fighting(g, to, "move_character")?;
                    if g.legions[i].owner != g.legions[j].owner {
                        return err(format!(
                            "{what}: {from} and {to} belong to different players"
                        ));
                    }
                    let Some(k) = g.legions[i].characters.iter().position(|&c| c == character)
                    else {
                        return err(format!("{what}: legion {from} has no {name}"));
                    };
                    if g.legions[i].characters.len() == 1 {
                        return err(format!(
                            "{what}: {name} is the last character of {from} (a legion is never empty)"
                        ));
                    }
                    let max = usize::from(v.rules.legions.max_size);
                    if v.legion_size(g.legions[j].characters.iter().copied().chain([character]))
                        > max
                    {
                        return err(format!("{what}: legion {to} is full ({max} characters)"));
                    }
                    if !v.room_for(&g.legions[j].characters, character) {
                        return err(format!(
                            "{what}: legion {to} holds as many {} as a legion may (per_legion)",
                            v.character(character).plural
                        ));
                    }
                    g.legions[i].characters.remove(k);
                    let l = &mut g.legions[j];
                    l.characters.push(character);
                    l.characters.sort();
                    Ok(())
                })?;
                s.effects.borrow_mut().push(Effect::MoveCharacter {
                    from,
                    to,
                    character,
                });
                Ok(())
            },
        )?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "return_character",
        lua.create_function(move |_, (_, marker, name): (This, String, String)| {
            let v = &s.variant;
            let what = "ctx:return_character";
            let legion = marker.parse::<Marker>().map_err(mlua::Error::runtime)?;
            let Some(character) = v.character_by_name(&name) else {
                return err(format!("{what}: no character {name:?}"));
            };
            s.game_mut("return_character", |g| {
                let Some(i) = g.legions.iter().position(|l| l.marker == legion) else {
                    return err(format!("{what}: no legion {legion}"));
                };
                not_fighting(g, legion, "return_character")?;
                let Some(k) = g.legions[i].characters.iter().position(|&c| c == character)
                else {
                    return err(format!("{what}: legion {legion} has no {name}"));
                };
                if character == v.rules.titan.character {
                    return err(format!(
                        "{what}: a Titan does not go back to the caretaker (ctx:eliminate its player)"
                    ));
                }
                if g.legions[i].characters.len() == 1 {
                    return err(format!(
                        "{what}: {name} is the last character of {legion} (a legion is never empty)"
                    ));
                }
                g.legions[i].characters.remove(k);
                if let Some(n) = g.caretaker.get_mut(character.index()) {
                    *n += 1;
                }
                Ok(())
            })?;
            s.effects
                .borrow_mut()
                .push(Effect::ReturnCharacter { legion, character });
            Ok(())
        })?,
    )?;

    let s = Rc::clone(store);
    m.set(
        "choose",
        lua.create_function(move |_, (_, name, unit): (This, String, Option<i64>)| {
            let v = &s.variant;
            let Some(a) = v.script_action(&name) else {
                return err(format!("ctx:choose: the variant has no action {name:?} (actions.ron)"));
            };
            let in_battle = a.def.when.in_battle();
            let unit = s.with(|d| match d {
                CtxData::Game(_) if in_battle => err(format!(
                    "ctx:choose: {name:?} is a battle action; masterplay chooses a masterplay action"
                )),
                CtxData::Game(_) => match unit {
                    None => Ok(None),
                    Some(_) => err("ctx:choose: in masterplay the player whose turn it is chooses: give no unit"),
                },
                CtxData::Battle(_) if !in_battle => err(format!(
                    "ctx:choose: {name:?} is a masterplay action; a battle chooses a battle action"
                )),
                CtxData::Battle(b) => match unit {
                    Some(u) => CtxStore::unit_on_board(b, u, "choose").map(|u| Some(u as u8)),
                    None => err("ctx:choose: in a battle, say which unit chooses: ctx:choose(name, unit)"),
                },
            })?;
            let mut effects = s.effects.borrow_mut();
            if effects.iter().any(|e| matches!(e, Effect::Choose { .. })) {
                return err("ctx:choose: this event has asked for a choice already");
            }
            effects.push(Effect::Choose { action: name, unit });
            Ok(())
        })?,
    )?;

    Ok(m)
}

/// What `ctx:set_hazard(hex, nil)` puts: the first hex hazard with no
/// movement change and no effects (the open ground of the variant).
fn plain_hazard(v: &Variant) -> Option<HazardId> {
    v.hazards
        .iter()
        .position(|h| {
            h.place == crate::format::Place::Hex
                && h.effects.is_empty()
                && h.movement == crate::format::Movement::default()
        })
        .map(|i| HazardId(i as _))
}

/// A hex given to `ctx:name` as a unit (on the battleland) or a label.
fn unit_or_hex(b: &BattleCtx, variant: &Variant, v: &Value, name: &str) -> mlua::Result<HexId> {
    match v {
        Value::Integer(i) => {
            crate::state::units::place_of(&b.units, *i as usize).ok_or_else(|| {
                mlua::Error::runtime(format!("ctx:{name}: unit {i} is not on the battleland"))
            })
        }
        Value::String(l) => b
            .hex_named(variant, &l.to_str()?)
            .ok_or_else(|| mlua::Error::runtime(format!("ctx:{name}: no such hex (A1 ... F4)"))),
        other => err(format!(
            "ctx:{name}: give units or hex labels, not a {}",
            other.type_name()
        )),
    }
}

/// Whether `rider` may mount `mount` now (`ctx:mount`, `ctx:may_mount`):
/// the two units, or why not.
fn mount_check(
    b: &BattleCtx,
    v: &Variant,
    rider: i64,
    mount: i64,
) -> Result<(usize, usize), String> {
    let unit = |n: i64| {
        usize::try_from(n)
            .ok()
            .filter(|&i| i < b.units.len())
            .ok_or_else(|| format!("no unit {n} in this battle"))
    };
    let (r, m) = (unit(rider)?, unit(mount)?);
    let (x, y) = (&b.units[r], &b.units[m]);
    let Some(at) = y.hex().filter(|_| !y.is_slain()) else {
        return Err(format!("unit {m} is not alive on a hex of its own"));
    };
    if r == m {
        return Err("a unit does not ride itself".into());
    }
    if x.side != y.side {
        return Err(format!("unit {r} and unit {m} fight for different sides"));
    }
    if let Some(o) = crate::state::units::rider_of(&b.units, m) {
        return Err(format!("unit {m} already carries unit {o}"));
    }
    if let Some(o) = crate::state::units::rider_of(&b.units, r) {
        return Err(format!("unit {r} carries unit {o} and does not ride"));
    }
    if x.is_slain() {
        return Err(format!("unit {r} is slain"));
    }
    match x.status {
        // Enters the battle on its mount.
        Status::Waiting => Ok((r, m)),
        // Climbing on is its move of the phase.
        Status::OnBoard(_) if x.moved => Err(format!("unit {r} has moved this maneuver phase")),
        Status::OnBoard(_) if x.locked => Err(format!(
            "unit {r} is held by contact (Law of the Battlelands 26.C)"
        )),
        Status::OnBoard(h) if b.land(v).board.distance(h, at) == 1 => Ok((r, m)),
        Status::OnBoard(h) => Err(format!(
            "unit {r} on {} is not next to unit {m} on {}",
            h.label(),
            at.label()
        )),
        Status::Riding(o) => Err(format!("unit {r} already rides unit {o}")),
        Status::Gone(_) => Err(format!("unit {r} is out of the battle")),
    }
}

/// A battle round a script names: 1 to `max` (the time limit).
fn round_arg(what: &str, max: u8, n: Value) -> mlua::Result<u8> {
    match n {
        Value::Integer(r) if (1..=i64::from(max)).contains(&r) => Ok(r as u8),
        Value::Integer(r) => err(format!(
            "ctx:{what}: the round is 1 to {max} (the time limit), not {r}"
        )),
        o => err(format!(
            "ctx:{what}: the round is 1 to {max} (the time limit), not a {}",
            o.type_name()
        )),
    }
}
