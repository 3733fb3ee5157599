//! Actions a variant defines: their arguments, `legal(ctx)` and
//! `apply(ctx, args)`.

use super::*;

/// An argument of a script action, of its parameter's kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScriptArg {
    Unit(u8),
    Hex(HexId),
    Legion(Marker),
    Land(crate::model::LandId),
    Character(crate::model::CharacterId),
    Number(i64),
}

impl ScriptArg {
    /// Refuses a land or character the variant does not have, or a hex off
    /// the battleland (see [`crate::game::Action::check_ids`]).
    pub fn check_ids(&self, v: &Variant) -> Result<(), String> {
        match self {
            ScriptArg::Land(l) if l.index() >= v.board.land_count() => {
                Err(format!("{} has no land at index {}", v.id, l.index()))
            }
            ScriptArg::Character(c) if usize::from(c.0) >= v.characters.len() => {
                Err(format!("{} has no character number {}", v.id, c.0))
            }
            ScriptArg::Hex(h) if usize::from(h.0) >= crate::battleland::MAX_HEXES => {
                Err(format!("there is no hex number {} on a battleland", h.0))
            }
            _ => Ok(()),
        }
    }
}

pub(super) fn script_error(action: &str, message: String) -> crate::lua::ScriptError {
    crate::lua::ScriptError {
        script: format!("(action {action:?})"),
        line: None,
        kind: crate::lua::ScriptErrorKind::Runtime,
        message,
        traceback: Vec::new(),
    }
}

/// One Lua value as an argument of `kind`.
fn to_arg(v: &Variant, kind: crate::format::ParamKind, value: &Value) -> Result<ScriptArg, String> {
    use crate::format::ParamKind as K;
    let int = match value {
        Value::Integer(i) => Some(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(*n as i64),
        _ => None,
    };
    // (Made only for the kinds that read text: a listing of hexes makes
    // no string.)
    let text = || match value {
        Value::String(s) => s.to_str().ok().map(|s| s.to_string()),
        _ => None,
    };
    let bad = || format!("{kind:?} expected, got {value:?}");
    Ok(match kind {
        K::Unit => ScriptArg::Unit(int.and_then(|i| u8::try_from(i).ok()).ok_or_else(bad)?),
        K::Number => ScriptArg::Number(int.ok_or_else(bad)?),
        K::Hex => ScriptArg::Hex(
            match value {
                Value::String(s) => s.to_str().ok().and_then(|s| HexId::from_label(&s)),
                _ => None,
            }
            .ok_or_else(bad)?,
        ),
        K::Legion => ScriptArg::Legion(text().ok_or_else(bad)?.parse::<Marker>()?),
        K::Land => {
            let n = int.ok_or_else(bad)?;
            ScriptArg::Land(
                v.board
                    .lands()
                    .find(|&l| i64::from(v.board.land(l).number) == n)
                    .ok_or_else(|| format!("no land {n}"))?,
            )
        }
        K::Character => {
            let name = text().ok_or_else(bad)?;
            ScriptArg::Character(
                v.character_by_name(&name)
                    .ok_or_else(|| format!("no character {name:?}"))?,
            )
        }
    })
}

fn arg_value(lua: &Lua, v: &Variant, a: &ScriptArg) -> mlua::Result<Value> {
    Ok(match a {
        ScriptArg::Unit(u) => Value::Integer(i64::from(*u)),
        ScriptArg::Number(n) => Value::Integer(*n),
        ScriptArg::Hex(h) => Value::String(lua.create_string(h.label())?),
        ScriptArg::Legion(m) => Value::String(lua.create_string(m.to_string())?),
        ScriptArg::Land(l) => Value::Integer(i64::from(v.board.land(*l).number)),
        ScriptArg::Character(c) => Value::String(lua.create_string(&v.character(*c).name)?),
    })
}

/// Calls an action's `legal(ctx)`: the argument lists it allows. `legal`
/// returns a list whose items are lists of arguments in the order of the
/// parameters (a bare value when there is one parameter), or `true` for
/// an action without parameters that may be taken.
pub(crate) fn action_legal(
    host: &LuaHost,
    action: &crate::model::ScriptAction,
    data: impl FnOnce() -> CtxData,
    fields: &[(&'static str, F)],
) -> Result<Vec<Vec<ScriptArg>>, crate::lua::ScriptError> {
    let name = &action.def.name;
    let hook = action.legal_hook();
    let Some(((value, v), fired)) = with_ctx(host, F::S(name), data, &[], fields, |ctx| {
        let v: Value = host.call_hook(&hook, ctx.clone())?;
        Ok((
            v,
            crate::script::platform(host).map(|p| Arc::clone(&p.store.variant)),
        ))
    })?
    else {
        return Ok(Vec::new());
    };
    // `legal` answers a question: an effect there would be dropped unseen.
    if let Some(effect) = fired.effects.first() {
        return Err(script_error(
            name,
            format!(
                "legal(ctx) answers which choices there are: it may read ctx but not request effects ({effect:?}); request them in apply"
            ),
        ));
    }
    let Some(v) = v else { return Ok(Vec::new()) };
    let params = &action.def.parameters;
    let list = match value {
        Value::Nil | Value::Boolean(false) => return Ok(Vec::new()),
        Value::Boolean(true) if params.is_empty() => return Ok(vec![Vec::new()]),
        Value::Table(t) => t,
        other => {
            let returned = crate::lua::lua_type(&other);
            let message =
                format!("legal(ctx) must return a list of argument lists, not a {returned}");
            return Err(host
                .hook_wrong_return(&hook, returned, message.clone())
                .unwrap_or_else(|| script_error(name, message)));
        }
    };
    let mut out = Vec::new();
    for item in list.sequence_values::<Value>() {
        let item = item.map_err(|e| script_error(name, e.to_string()))?;
        let values: Vec<Value> = match (&item, params.len()) {
            (Value::Table(t), _) => t
                .sequence_values::<Value>()
                .collect::<mlua::Result<_>>()
                .map_err(|e| script_error(name, e.to_string()))?,
            (_, 1) => vec![item.clone()],
            _ => {
                return Err(script_error(
                    name,
                    format!(
                        "legal(ctx): each item is a list of {} arguments",
                        params.len()
                    ),
                ));
            }
        };
        if values.len() != params.len() {
            return Err(script_error(
                name,
                format!(
                    "legal(ctx): an item has {} arguments; the action has {} parameters",
                    values.len(),
                    params.len()
                ),
            ));
        }
        let args = params
            .iter()
            .zip(&values)
            .map(|(p, x)| {
                to_arg(&v, p.kind, x).map_err(|e| {
                    script_error(name, format!("legal(ctx): parameter {:?}: {e}", p.name))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(args);
    }
    Ok(out)
}

/// Calls an action's `apply(ctx, args)`: the effects it requests. `args`
/// holds the arguments by position and by parameter name.
pub(crate) fn action_apply(
    host: &LuaHost,
    action: &crate::model::ScriptAction,
    data: impl FnOnce() -> CtxData,
    fields: &[(&'static str, F)],
    args: &[ScriptArg],
) -> Result<Vec<Effect>, crate::lua::ScriptError> {
    let name = &action.def.name;
    let hook = action.apply_hook();
    let Some(platform) = crate::script::platform(host) else {
        return Ok(Vec::new());
    };
    let v = Arc::clone(&platform.store.variant);
    let lua = host.lua();
    let table = (|| -> mlua::Result<Table> {
        let t = lua.create_table()?;
        for (i, (p, a)) in action.def.parameters.iter().zip(args).enumerate() {
            let x = arg_value(lua, &v, a)?;
            t.raw_set(i + 1, x.clone())?;
            t.raw_set(p.name.as_str(), x)?;
        }
        Ok(t)
    })()
    .map_err(|e| script_error(name, e.to_string()))?;
    let result = with_ctx(host, F::S(name), data, &[], fields, |ctx| {
        host.call_hook::<_, Value>(&hook, (ctx.clone(), table))
    })?;
    let Some((returned, fired)) = result else {
        return Ok(Vec::new());
    };
    // The engine takes nothing from apply: a value returned (say `false`,
    // as if that refused the action) would be dropped silently.
    if !returned.is_nil() {
        let message = format!(
            "apply(ctx, args) returns nothing, not a {} (to refuse, leave the choice out of legal, or raise error(...))",
            returned.type_name()
        );
        let kind = crate::lua::lua_type(&returned);
        return Err(host
            .hook_wrong_return(&hook, kind, message.clone())
            .unwrap_or_else(|| script_error(name, message)));
    }
    Ok(fired.effects)
}
