//! The Rust functions the sandbox's prelude is given (math.random's draws,
//! the log, `titan.hook` and `titan.on`, the budget's checks), and the
//! cleaning of error messages.

use super::*;

/// The Rust functions the sandbox prelude gets: math.random's three draws,
/// the log, the hook registry, and the check that keeps pcall from catching
/// the end of a run.
pub(super) fn engine_functions(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<EngineFunctions> {
    fn busy() -> mlua::Error {
        mlua::Error::runtime("math.random: the game's random generator is in use by the engine")
    }
    let rng = Rc::clone(&shared.rng);
    let unit =
        lua.create_function(move |_, ()| Ok(rng.try_borrow_mut().map_err(|_| busy())?.unit()))?;
    let rng = Rc::clone(&shared.rng);
    let int_in = lua.create_function(move |_, (low, high): (i64, i64)| {
        Ok(rng.try_borrow_mut().map_err(|_| busy())?.int_in(low, high))
    })?;
    let rng = Rc::clone(&shared.rng);
    let bits = lua.create_function(move |_, ()| {
        Ok(rng.try_borrow_mut().map_err(|_| busy())?.next_u64() as i64)
    })?;

    let s = Rc::clone(shared);
    let log_line = lua.create_function(move |_, line: LuaString| {
        if let Ok(mut log) = s.log.try_borrow_mut() {
            log.push(&line.as_bytes());
        }
        Ok(())
    })?;

    let s = Rc::clone(shared);
    let register = lua.create_function(move |lua, (name, func): (Value, Value)| {
        let name = match &name {
            Value::String(n) if n.as_bytes().len() > MAX_HOOK_NAME_BYTES => {
                return Ok(Some(format!(
                    "titan.hook: a hook name may have at most {MAX_HOOK_NAME_BYTES} bytes"
                )));
            }
            Value::String(n) => match n.to_str() {
                Ok(n) if !n.is_empty() => n.to_string(),
                Ok(_) => {
                    return Ok(Some(
                        "titan.hook: the hook name must not be empty".to_string(),
                    ));
                }
                Err(_) => {
                    return Ok(Some(
                        "titan.hook: the hook name must be UTF-8 text".to_string(),
                    ));
                }
            },
            other => {
                return Ok(Some(format!(
                    "titan.hook: the hook name must be a string, got {}",
                    other.type_name()
                )));
            }
        };
        let Value::Function(func) = func else {
            return Ok(Some(format!(
                "titan.hook: hook {name:?} must be a function, got {}",
                func.type_name()
            )));
        };
        if s.loading.borrow().is_none() {
            return Ok(Some(format!(
                "titan.hook: hook {name:?}: hooks are registered while a script loads (its top level), not while the game runs"
            )));
        }
        let at = caller_location(lua, &s);
        let Ok(mut hooks) = s.hooks.try_borrow_mut() else {
            return Ok(Some(
                "titan.hook: hooks cannot be registered right now".to_string(),
            ));
        };
        if let Some(old) = hooks.get(&name) {
            let place = match (old.script, old.line) {
                (Some(script), Some(line)) => format!(" at {}:{line}", s.script_name(script)),
                (Some(script), None) => format!(" in {}", s.script_name(script)),
                _ => String::new(),
            };
            return Ok(Some(format!(
                "titan.hook: hook {name:?} is already registered{place}"
            )));
        }
        if hooks.len() >= MAX_HOOKS {
            return Ok(Some(format!(
                "titan.hook: a variant may register at most {MAX_HOOKS} hooks"
            )));
        }
        let loading_script = s.loading.borrow().as_ref().map(|l| l.script);
        let script = at.map(|l| l.script).or(loading_script);
        hooks.insert(
            name.clone(),
            Hook {
                func,
                script,
                line: at.and_then(|l| l.line),
                filter: HandlerFilter::default(),
            },
        );
        if let Some(loading) = s.loading.borrow_mut().as_mut() {
            loading.registered.push(name);
        }
        Ok(None)
    })?;

    let s = Rc::clone(shared);
    let check_failure = lua.create_function(move |lua, error: Value| {
        if let Some(abort) = s.abort.get() {
            return Err(s.abort(abort.kind, abort.at));
        }
        if is_memory_error(&error) {
            let at = caller_location(lua, &s).or(s.location.get());
            return Err(s.abort(AbortKind::Memory, at));
        }
        Ok(())
    })?;

    let s = Rc::clone(shared);
    let aborting = lua.create_function(move |_, ()| Ok(s.abort.get().is_some()))?;

    let s = Rc::clone(shared);
    let charge = lua.create_function(move |lua, n: i64| {
        if s.depth.get() == 0 {
            return Ok(());
        }
        s.spend(lua, u64::try_from(n).unwrap_or(0))
    })?;

    let s = Rc::clone(shared);
    let on_event = lua.create_function(move |lua, (event, a, b): (Value, Value, Value)| {
        let event = match &event {
            Value::String(e) => e.to_string_lossy(),
            other => {
                return Ok(Some(format!(
                    "titan.on: the event must be a string, got {}",
                    lua_type(other)
                )));
            }
        };
        if !s.events.names.contains(&event.as_str()) {
            return Ok(Some(format!(
                "titan.on: no event {event:?} (the events: {})",
                s.events.names.join(", ")
            )));
        }
        // titan.on(event, fn) or titan.on(event, filter, fn).
        let (filter, func) = match (a, b) {
            (Value::Table(t), func) => match (s.events.read_filter)(&event, &t) {
                Ok(filter) => (filter, func),
                Err(problem) => return Ok(Some(format!("titan.on: {problem}"))),
            },
            (func, Value::Nil) => (HandlerFilter::default(), func),
            (other, _) => {
                return Ok(Some(format!(
                    "titan.on: the filter of {event:?} must be a table such as {{ phase = \"strike\" }}, got {}",
                    lua_type(&other)
                )));
            }
        };
        let Value::Function(func) = func else {
            return Ok(Some(format!(
                "titan.on: the handler of {event:?} must be a function, got {}",
                lua_type(&func)
            )));
        };
        if s.loading.borrow().is_none() {
            return Ok(Some(format!(
                "titan.on: {event:?}: handlers are registered while a script loads (its top level), not while the game runs"
            )));
        }
        let at = caller_location(lua, &s);
        let Ok(mut handlers) = s.handlers.try_borrow_mut() else {
            return Ok(Some(
                "titan.on: handlers cannot be registered right now".to_string(),
            ));
        };
        if handlers.values().map(Vec::len).sum::<usize>() >= MAX_HOOKS {
            return Ok(Some(format!(
                "titan.on: a variant may register at most {MAX_HOOKS} handlers"
            )));
        }
        let loading_script = s.loading.borrow().as_ref().map(|l| l.script);
        handlers.entry(event.clone()).or_default().push(Hook {
            func,
            script: at.map(|l| l.script).or(loading_script),
            line: at.and_then(|l| l.line),
            filter,
        });
        s.generation.set(s.generation.get() + 1);
        if let Some(loading) = s.loading.borrow_mut().as_mut() {
            loading.handlers.push(event);
        }
        Ok(None)
    })?;

    Ok((
        unit,
        int_in,
        bits,
        log_line,
        register,
        check_failure,
        aborting,
        charge,
        on_event,
    ))
}

/// `text` with the addresses Lua prints for tables, functions, userdata
/// and threads (`table: 0x55d0c1a2b3c0`) cut to their kind: two runs of
/// one error read the same (a log, a test, a report compares them).
pub(crate) fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(": 0x") {
        let before = &rest[..i];
        let kind = ["table", "function", "userdata", "thread", "builtin"]
            .iter()
            .any(|k| before.ends_with(k));
        let digits = rest[i + 4..]
            .bytes()
            .take_while(u8::is_ascii_hexdigit)
            .count();
        out.push_str(before);
        if kind && digits > 0 {
            rest = &rest[i + 4 + digits..];
        } else {
            out.push_str(": 0x");
            rest = &rest[i + 4..];
        }
    }
    out.push_str(rest);
    out
}
