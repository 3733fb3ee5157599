//! Firing an event in one crossing into Lua: a dispatcher per event shape
//! (`ctx.lua` generates it) gets the ctx's values, builds the ctx with
//! constant keys and calls the event's handlers in load order.

use super::*;

/// A dispatcher made for one event shape and one list of handlers.
struct Entry {
    /// The event's name and the ctx's keys with their kinds, by the
    /// address and length of the `&'static str`s (each call site's own).
    event: (usize, usize),
    shape: Vec<(usize, usize, u8)>,
    question: bool,
    generation: u64,
    /// The handlers' filters; when none is `filtered` the dispatcher takes
    /// no masks and calls all.
    filters: Vec<Filter>,
    /// Each filter's unit filter with its names resolved.
    units: Vec<Option<Tests>>,
    filtered: bool,
    func: mlua::Function,
}

/// The dispatchers of one VM and what they share with Rust.
pub(super) struct Dispatchers {
    /// `ctx.lua`'s generator of dispatchers.
    make: mlua::Function,
    /// Words by code (`F::W` values cross as codes).
    words: Table,
    /// The ctx of the event running at each depth (`titan.ctx()`).
    pub(super) current: Table,
    /// `[1]`: the handler running.
    state: Table,
    cache: RefCell<Vec<Entry>>,
}

fn kind(v: &F) -> u8 {
    match v {
        F::W(_) => b'w',
        F::S(_) => b's',
        F::I(_) => b'i',
        F::B(_) => b'b',
    }
}

fn addr(s: &str) -> (usize, usize) {
    (s.as_ptr() as usize, s.len())
}

impl Dispatchers {
    pub(super) fn new(lua: &Lua, make: mlua::Function, words: Table) -> mlua::Result<Dispatchers> {
        Ok(Dispatchers {
            make,
            words,
            current: lua.create_table()?,
            state: lua.create_table()?,
            cache: RefCell::new(Vec::new()),
        })
    }

    /// The dispatcher of this shape, made on first use (and again when
    /// the handlers changed); its entry.
    fn get(
        &self,
        host: &LuaHost,
        platform: &Platform,
        event: &'static str,
        base: &[(&'static str, F)],
        fields: &[(&'static str, F)],
        question: bool,
    ) -> mlua::Result<std::cell::RefMut<'_, Entry>> {
        let generation = host.handler_generation();
        let pairs = || base.iter().chain(fields);
        let same = |e: &Entry| {
            e.event == addr(event)
                && e.question == question
                && e.shape.len() == base.len() + fields.len()
                && e.shape
                    .iter()
                    .zip(pairs())
                    .all(|(&(p, l, k), (key, v))| (p, l) == addr(key) && k == kind(v))
        };
        let mut cache = self.cache.borrow_mut();
        if let Some(i) = cache.iter().position(same) {
            if cache[i].generation == generation {
                return Ok(std::cell::RefMut::map(cache, |c| &mut c[i]));
            }
            cache.retain(|e| e.generation == generation);
        }
        let lua = host.lua();
        let (handlers, filters): (Vec<_>, Vec<Filter>) =
            host.handler_functions(event).into_iter().unzip();
        let filtered = filters.iter().any(|f| !f.is_empty());
        let units = filters
            .iter()
            .map(|f| super::unit_condition(f).map(|u| u.resolve(&platform.store.variant)))
            .collect();
        let keys = lua.create_sequence_from(pairs().map(|(k, _)| *k))?;
        let kinds: Vec<u8> = pairs().map(|(_, v)| kind(v)).collect();
        let func: mlua::Function = self.make.call((
            &platform.meta,
            event,
            keys,
            lua.create_string(&kinds)?,
            lua.create_sequence_from(handlers)?,
            question,
            &self.words,
            &self.current,
            &self.state,
            filtered,
        ))?;
        cache.push(Entry {
            event: addr(event),
            shape: pairs()
                .map(|(k, v)| {
                    let (p, l) = addr(k);
                    (p, l, kind(v))
                })
                .collect(),
            question,
            generation,
            filtered,
            filters,
            units,
            func,
        });
        let last = cache.len() - 1;
        Ok(std::cell::RefMut::map(cache, |c| &mut c[last]))
    }
}

/// The mask of the handlers of one chunk (at most 63) whose filters the
/// event passes (bit i: handler i).
fn mask_of(
    chunk: &[Filter],
    tests: &[Option<Tests>],
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    units: Option<(&Variant, Scene<'_>)>,
) -> i64 {
    let mut mask = 0i64;
    for (i, (f, test)) in chunk.iter().zip(tests).enumerate() {
        if passes(f, test.as_ref(), base, fields, units) {
            mask |= 1 << i;
        }
    }
    mask
}

/// Runs the handlers of `event` (a question when `question`) with a fresh
/// `ctx` over `data` holding `base` and `fields`, in one call into Lua, and
/// collects the effects requested meanwhile. Returns the ctx, the answer
/// (true for an event) and the effects; None when every handler's filter
/// left this event out.
#[allow(clippy::too_many_arguments)]
pub(super) fn dispatch(
    host: &LuaHost,
    platform: &Platform,
    event: &'static str,
    data: impl FnOnce() -> CtxData,
    base: &[(&'static str, F)],
    fields: &[(&'static str, F)],
    units: Option<Scene<'_>>,
    question: bool,
) -> Result<Option<(Table, bool, Vec<Effect>)>, crate::lua::ScriptError> {
    let sandbox = super::ctx_error;
    let lua = host.lua();
    let d = &platform.dispatchers;
    // As many as a hook's ctx may have (with `event`).
    let n = 1 + base.len() + fields.len();
    if n > MAX_CTX_FIELDS {
        return Err(sandbox(mlua::Error::runtime(format!(
            "{n} fields are more than {MAX_CTX_FIELDS}"
        ))));
    }
    let entry = d
        .get(host, platform, event, base, fields, question)
        .map_err(sandbox)?;
    // Handlers whose filter the event fails are not called; with none
    // left, nothing crosses into Lua (and nothing is built for it).
    let mut first = 0i64;
    if entry.filtered {
        let units = units.map(|u| (&*platform.store.variant, u));
        let mut any = false;
        let chunks = entry.filters.chunks(63).zip(entry.units.chunks(63));
        for (k, (chunk, tests)) in chunks.enumerate() {
            let mask = mask_of(chunk, tests, base, fields, units);
            if k == 0 {
                first = mask;
            }
            any |= mask != 0;
        }
        if !any {
            return Ok(None);
        }
    }
    let mut args = mlua::MultiValue::with_capacity(n + entry.filters.len().div_ceil(63) + 1);
    args.push_back(Value::Nil); // the depth, below
    if entry.filtered {
        let units = units.map(|u| (&*platform.store.variant, u));
        let chunks = entry.filters.chunks(63).zip(entry.units.chunks(63));
        for (k, (chunk, tests)) in chunks.enumerate() {
            // The first chunk's mask is known (the only one but for a
            // variant of more than 63 handlers of one event).
            let mask = if k == 0 {
                first
            } else {
                mask_of(chunk, tests, base, fields, units)
            };
            args.push_back(Value::Integer(mask));
        }
    }
    let func = entry.func.clone();
    drop(entry);
    // The depth of this event among the events running (titan.ctx()).
    let depth = 1 + platform
        .current
        .borrow()
        .iter()
        .filter(|c| c.is_none())
        .count();
    args[0] = Value::Integer(depth as i64);
    let words = &platform.store.strings;
    for (_, v) in base.iter().chain(fields) {
        args.push_back(match *v {
            F::I(i) => Value::Integer(i),
            F::S(s) => Value::String(lua.create_string(s).map_err(sandbox)?),
            F::W(s) => Value::Integer(words.code(lua, s).map_err(sandbox)?),
            F::B(b) => Value::Boolean(b),
        });
    }
    // An outer ctx (a hook asked while an event runs) is put back after.
    let outer = platform.store.data.replace(Some(data()));
    let outer_effects = platform.store.effects.take();
    platform.current.borrow_mut().push(None);
    let result = host.dispatch(event, &func, args, &d.state, question);
    platform.current.borrow_mut().pop();
    // A ctx kept by a script reads nothing once its event is over: the
    // one returned, or after an error the one its dispatcher still holds.
    platform.store.put_back(outer);
    match &result {
        Ok((ctx, _)) => platform.retire(ctx),
        Err(_) => {
            if let Ok(Some(ctx)) = d.current.raw_get::<Option<Table>>(depth) {
                platform.retire(&ctx);
                let _ = d.current.raw_set(depth, Value::Nil);
            }
        }
    }
    let effects = platform.store.effects.replace(outer_effects);
    let (ctx, answer) = result?;
    Ok(Some((ctx, answer, effects)))
}
