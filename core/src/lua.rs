//! The sandboxed Lua host that runs a variant's scripts.
//!
//! Variant scripts are untrusted code. Each [`LuaHost`] is one Lua 5.4 VM
//! with only the `table`, `string`, `math` and `utf8` libraries and the safe
//! part of the base library. Everything else (`io`, `os`, `package`,
//! `debug`, `coroutine`, `require`, `dofile`, `loadfile`, `collectgarbage`,
//! `warn`, `string.dump`, `math.randomseed`, `__gc` finalizers) is replaced
//! by a stub that raises "`<name>` is not available to variant scripts" at
//! the line that used it ([`ScriptErrorKind::Forbidden`]). `load` compiles
//! Lua text only and raises on bytecode. `math.random` draws from the game's
//! [`GameRng`], so a game stays reproducible from its seed.
//!
//! Every run of Lua code (the top level of a script, or one hook call) gets
//! a fresh instruction budget, counted by a VM hook every
//! [`HOOK_INTERVAL`] instructions, and the whole VM has a memory cap.
//! Exceeding either ends the run with a [`ScriptError`] naming the script
//! and line, which `pcall` cannot catch. Errors leave the host usable.
//!
//! The hook registry (`titan.hook`) lives on the Rust side, so a script
//! cannot replace it; the `titan` table itself is the scripts' API table and
//! later engine issues add functions to it through [`LuaHost::api`].
//!
//! The budget counts VM instructions, so the library functions whose C code
//! could run for long inside one instruction are replaced (`lua/library.lua`):
//! patterns run in a Lua port of the matcher (every step counts), the rest
//! are charged their worst-case work. What no count can see (say, comparing
//! two 16 MiB strings a million times) is ended by a wall-clock limit per
//! run ([`RUN_TIME_LIMIT`]), checked with the budget: a safety net that never
//! changes the result of a run that ends in time. Message handlers of
//! `xpcall` do not run once a run must end (Lua would run them unhooked).
//! `pairs` and `next` have their own order (see the prelude).
//!
//! `docs/scripting.md` is the guide for variant authors.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::debug::{Debug, DebugEvent};
use mlua::{
    FromLuaMulti, Function, HookTriggers, IntoLuaMulti, Lua, LuaOptions, LuaString, MultiValue,
    StdLib, Table, Value, VmState,
};

use crate::rng::GameRng;

/// One Lua file of a variant, named as it should appear in error messages
/// (e.g. "variants/titan/hooks.lua").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScriptSource {
    pub name: String,
    pub code: String,
}

/// What a VM may use: memory for all its scripts together, and Lua VM
/// instructions for each run (a script's top level, or one hook call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LuaLimits {
    /// The memory cap of the whole VM, in bytes (0 is treated as 1 byte,
    /// which no VM fits in).
    pub memory_bytes: usize,
    /// Instructions per run; counted every [`HOOK_INTERVAL`] instructions,
    /// so a run may overshoot by up to that many.
    pub instructions_per_call: u64,
}

impl Default for LuaLimits {
    /// 64 MiB and 10 000 000 instructions.
    fn default() -> Self {
        Self {
            memory_bytes: 64 << 20,
            instructions_per_call: 10_000_000,
        }
    }
}

/// What went wrong in a script: always names the script, and the line when
/// Lua knows it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{script}:{}: {message}", .line.map(|l| l.to_string()).unwrap_or_else(|| "?".into()))]
pub struct ScriptError {
    /// The [`ScriptSource::name`] of the script, [`NO_SCRIPT`] for a hook
    /// no script registered, or [`SANDBOX`] if the sandbox itself failed.
    pub script: String,
    pub line: Option<u32>,
    pub kind: ScriptErrorKind,
    /// Lua's message without the leading "script:line:".
    pub message: String,
}

/// The kinds of [`ScriptError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptErrorKind {
    /// The script does not compile.
    Syntax,
    /// The script raised an error (`error(...)`, indexing nil, a bad
    /// argument, ...), or a hook returned values of the wrong type.
    Runtime,
    /// The script used something the sandbox removes (`io`, `os`,
    /// `require`, bytecode, `math.randomseed`, `__gc`, ...).
    Forbidden,
    /// A run went over [`LuaLimits::instructions_per_call`].
    InstructionBudget,
    /// A run went over the wall-clock limit ([`RUN_TIME_LIMIT`]).
    TimeLimit,
    /// The VM went over [`LuaLimits::memory_bytes`].
    Memory,
    /// [`LuaHost::call_hook`] named a hook no script registered.
    MissingHook,
}

/// How often, in VM instructions, the budget is checked.
pub const HOOK_INTERVAL: u32 = 1000;
/// The most memory a variant may give its scripts (`rules.scripts`).
pub const MAX_MEMORY_MIB: u32 = 1024;
/// The most instructions a variant may give one run (`rules.scripts`).
pub const MAX_INSTRUCTIONS_PER_CALL: u64 = 1_000_000_000;
/// The longest one run may take by the clock (see the module doc).
pub const RUN_TIME_LIMIT: Duration = Duration::from_secs(5);
/// The script name of errors from the sandbox itself.
pub const SANDBOX: &str = "[titan sandbox]";
/// The script name of [`ScriptErrorKind::MissingHook`] errors.
pub const NO_SCRIPT: &str = "(no script)";
/// The log keeps at most this many bytes between two [`LuaHost::take_log`].
pub const MAX_LOG_BYTES: usize = 1 << 20;
/// Longer log lines are cut to this many bytes.
pub const MAX_LOG_LINE_BYTES: usize = 16 << 10;

/// The longest hook name, in bytes.
pub const MAX_HOOK_NAME_BYTES: usize = 128;
/// The most hooks one VM may register.
pub const MAX_HOOKS: usize = 4096;

/// The phrase of every sandbox refusal, which makes it [`ScriptErrorKind::Forbidden`].
const NOT_AVAILABLE: &str = "is not available to variant scripts";
/// While a script's top level runs, the line of every statement is noted
/// (so that a memory error names its line) for this many lines, then only
/// every [`HOOK_INTERVAL`] instructions.
const PRECISE_LINES: u32 = 10_000;
/// How many stack levels to search for the script that called the engine.
/// (The pattern matcher of the library nests up to 200 frames.)
const MAX_STACK_SEARCH: usize = 256;

/// The sandbox, run once in every new VM before any script. It receives the
/// engine's functions as arguments and keeps them in locals, out of the
/// scripts' reach.
const PRELUDE: &str = r##"
local titan, unit, int_in, bits, log_line, register, check_failure, aborting = ...

local error, select, type, tostring, tonumber = error, select, type, tostring, tonumber
local ipairs, rawget, raw_setmetatable = ipairs, rawget, setmetatable
local raw_load, raw_pcall, raw_xpcall = load, pcall, xpcall
local string_byte, string_find, string_format = string.byte, string.find, string.format
local concat = table.concat
local tointeger, maxinteger, ult = math.tointeger, math.maxinteger, math.ult
local G = _G

local NOT_AVAILABLE = " is not available to variant scripts"

local function refuse(name, why)
  local message = name .. NOT_AVAILABLE .. (why or "")
  return function() error(message, 2) end
end

local function refuse_library(name)
  local function fail(_, key)
    if type(key) == "string" then error(name .. "." .. key .. NOT_AVAILABLE, 2) end
    error(name .. NOT_AVAILABLE, 2)
  end
  return raw_setmetatable({}, {
    __index = fail,
    __newindex = fail,
    __call = function() error(name .. NOT_AVAILABLE, 2) end,
    __metatable = false,
  })
end

for _, name in ipairs({ "io", "os", "package", "debug", "coroutine" }) do
  G[name] = refuse_library(name)
end
for _, name in ipairs({ "require", "dofile", "loadfile", "collectgarbage", "warn" }) do
  G[name] = refuse(name)
end
string.dump = refuse("string.dump")
math.randomseed = refuse("math.randomseed", " (random numbers come from the game's seed)")

-- Argument checks in the style of Lua's own, raised at the caller's line.
local function check_integer(value, arg, fname)
  local n = tointeger(value)
  if n == nil then
    if tonumber(value) ~= nil then
      error(string_format("bad argument #%d to '%s' (number has no integer representation)", arg, fname), 3)
    end
    error(string_format("bad argument #%d to '%s' (number expected, got %s)", arg, fname, type(value)), 3)
  end
  return n
end

local function check_table(value, arg, fname)
  if type(value) ~= "table" then
    error(string_format("bad argument #%d to '%s' (table expected, got %s)", arg, fname, type(value)), 3)
  end
end

local function length(t)
  local n = tointeger(#t)
  if n == nil then error("object length is not an integer", 3) end
  return n
end

-- print and titan.log write to the engine's log.
local function log(...)
  local n = select("#", ...)
  local parts = { ... }
  for i = 1, n do parts[i] = tostring(parts[i]) end
  log_line(concat(parts, "\t", 1, n))
end
print = log
titan.log = log

-- titan.hook registers with the engine; the registry is not in Lua.
titan.hook = function(name, fn)
  local problem = register(name, fn)
  if problem ~= nil then error(problem, 2) end
end

-- pcall and xpcall cannot catch the end of a run (instruction budget, memory).
local function finish(ok, ...)
  if not ok then check_failure((...)) end
  return ok, ...
end
pcall = function(...)
  if select("#", ...) == 0 then error("bad argument #1 to 'pcall' (value expected)", 2) end
  return finish(raw_pcall(...))
end
xpcall = function(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  -- Once a run must end, Lua calls the handler with hooks off: skip it.
  return finish(raw_xpcall(f, function(m)
    if aborting() then return m end
    return handler(m)
  end, ...))
end

-- load compiles text only; bytecode could break the VM.
local BYTECODE = "load: precompiled bytecode" .. NOT_AVAILABLE .. " (only Lua source text can be loaded)"
load = function(...)
  local n = select("#", ...)
  local chunk, name, _, env = ...
  local kind = type(chunk)
  if kind == "string" then
    if string_byte(chunk, 1) == 27 then error(BYTECODE, 2) end
  elseif kind ~= "function" then
    error("bad argument #1 to 'load' (string expected, got " .. kind .. ")", 2)
  end
  local name_kind = type(name)
  if name ~= nil and name_kind ~= "string" and name_kind ~= "number" then
    error("bad argument #2 to 'load' (string expected, got " .. name_kind .. ")", 2)
  end
  local f, message
  if n >= 4 then f, message = raw_load(chunk, name, "t", env) else f, message = raw_load(chunk, name, "t") end
  if f == nil then
    check_failure(message)
    if type(message) == "string" and string_find(message, "attempt to load a binary chunk", 1, true) then
      error(BYTECODE, 2)
    end
  end
  return f, message
end

-- No finalizers: they would run at times that depend on the collector.
setmetatable = function(t, mt)
  if type(t) ~= "table" then
    error("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")", 2)
  end
  local mt_kind = type(mt)
  if mt_kind ~= "nil" and mt_kind ~= "table" then
    error("bad argument #2 to 'setmetatable' (nil or table expected)", 2)
  end
  if mt_kind == "table" and rawget(mt, "__gc") ~= nil then
    error("__gc (finalizers)" .. NOT_AVAILABLE, 2)
  end
  return raw_setmetatable(t, mt)
end

-- pairs and next in a reproducible order: Lua seeds its string hashes from
-- the clock and from addresses, so raw table order differs between runs, and
-- a game must replay the same from its seed. Keys are visited numbers first,
-- then strings, then booleans, each in ascending order.
local raw_next, sort, getmetatable = next, table.sort, getmetatable
local RANK = { number = 1, string = 2, boolean = 3 }
local function key_less(a, b)
  local ra, rb = RANK[type(a)], RANK[type(b)]
  if ra ~= rb then return ra < rb end
  if ra == 3 then return (not a) and b end
  return a < b
end
local function sorted_keys(t, fname)
  local keys, n = {}, 0
  for k in raw_next, t do
    if RANK[type(k)] == nil then
      error(fname .. ": a table with " .. type(k) .. " keys has no reproducible order (keep such values in a list and use ipairs)", 3)
    end
    n = n + 1
    keys[n] = k
  end
  sort(keys, key_less)
  return keys, n
end
next = function(t, k)
  check_table(t, 1, "next")
  local keys, n = sorted_keys(t, "next")
  if k == nil then
    local first = keys[1]
    if first == nil then return nil end
    return first, rawget(t, first)
  end
  local lo, hi = 1, n
  while lo <= hi do
    local mid = (lo + hi) // 2
    local m = keys[mid]
    if m == k then
      local after = keys[mid + 1]
      if after == nil then return nil end
      return after, rawget(t, after)
    elseif RANK[type(k)] ~= nil and key_less(m, k) then
      lo = mid + 1
    else
      hi = mid - 1
    end
  end
  error("invalid key to 'next'", 2)
end
pairs = function(t)
  local mt = getmetatable(t)
  if type(mt) == "table" then
    local custom = rawget(mt, "__pairs")
    if custom ~= nil then
      local f, s, c = custom(t)
      return f, s, c
    end
  end
  check_table(t, 1, "pairs")
  local keys = sorted_keys(t, "pairs")
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, rawget(t, k) end
  end, t, nil
end

-- Randomness comes from the game's generator.
math.random = function(...)
  local count = select("#", ...)
  if count == 0 then return unit() end
  local low, up
  if count == 1 then
    low, up = 1, check_integer((...), 1, "random")
    if up == 0 then return bits() end
  elseif count == 2 then
    local m, n = ...
    low, up = check_integer(m, 1, "random"), check_integer(n, 2, "random")
  else
    error("wrong number of arguments", 2)
  end
  if low > up then error("bad argument #1 to 'random' (interval is empty)", 2) end
  return int_in(low, up)
end

-- Lua versions of the table functions whose C loops could run for ever
-- (table.move over a huge range, insert and remove under a huge __len):
-- in Lua their loops count against the instruction budget.
table.insert = function(...)
  local count = select("#", ...)
  local t, a, b = ...
  check_table(t, 1, "insert")
  local e = length(t) + 1
  if count == 2 then
    t[e] = a
  elseif count == 3 then
    local pos = check_integer(a, 2, "insert")
    if not ult(pos - 1, e) then error("bad argument #2 to 'insert' (position out of bounds)", 2) end
    for i = e, pos + 1, -1 do t[i] = t[i - 1] end
    t[pos] = b
  else
    error("wrong number of arguments to 'insert'", 2)
  end
end

table.remove = function(t, pos)
  check_table(t, 1, "remove")
  local size = length(t)
  if pos == nil then
    pos = size
  else
    pos = check_integer(pos, 2, "remove")
    if pos ~= size and not (ult(pos - 1, size) or pos - 1 == size) then
      error("bad argument #2 to 'remove' (position out of bounds)", 2)
    end
  end
  local result = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return result
end

table.move = function(a1, f, e, t, a2)
  f = check_integer(f, 2, "move")
  e = check_integer(e, 3, "move")
  t = check_integer(t, 4, "move")
  local dest = a1
  if a2 ~= nil then dest = a2 end
  check_table(a1, 1, "move")
  check_table(dest, a2 ~= nil and 5 or 1, "move")
  if e >= f then
    if not (f > 0 or e < maxinteger + f) then
      error("bad argument #3 to 'move' (too many elements to move)", 2)
    end
    local n = e - f + 1
    if t > maxinteger - n + 1 then error("bad argument #4 to 'move' (destination wrap around)", 2) end
    if t > e or t <= f or (a2 ~= nil and a1 ~= dest) then
      for i = 0, n - 1 do dest[t + i] = a1[f + i] end
    else
      for i = n - 1, 0, -1 do dest[t + i] = a1[f + i] end
    end
  end
  return dest
end
"##;

/// A script the VM knows, by index in [`Shared::scripts`].
struct ScriptInfo {
    name: String,
    /// How Lua shows the chunk name in messages ("name:line: ...").
    short_src: String,
}

/// A place in a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Location {
    script: usize,
    line: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AbortKind {
    Budget,
    Memory,
    Time,
}

/// A run that must end: set once, re-raised by `pcall` and `load`.
#[derive(Debug, Clone, Copy)]
struct Abort {
    kind: AbortKind,
    at: Option<Location>,
}

struct Hook {
    func: Function,
    script: Option<usize>,
    line: Option<u32>,
}

/// What a failing top-level run must undo.
struct Loading {
    script: usize,
    registered: Vec<String>,
}

#[derive(Default)]
struct Log {
    lines: Vec<String>,
    bytes: usize,
    full: bool,
}

impl Log {
    fn push(&mut self, bytes: &[u8]) {
        if self.full {
            return;
        }
        let line = if bytes.len() > MAX_LOG_LINE_BYTES {
            let mut s = String::from_utf8_lossy(&bytes[..MAX_LOG_LINE_BYTES]).into_owned();
            s.push_str(" [line cut]");
            s
        } else {
            String::from_utf8_lossy(bytes).into_owned()
        };
        if self.bytes + line.len() > MAX_LOG_BYTES {
            self.lines
                .push("[log full: later lines were dropped]".to_string());
            self.full = true;
            return;
        }
        self.bytes += line.len();
        self.lines.push(line);
    }
}

/// The host's state, shared with the Rust functions the VM calls.
struct Shared {
    limits: LuaLimits,
    interval: u32,
    rng: Rc<RefCell<GameRng>>,
    /// Nesting of runs; the budget is reset when a run starts at depth 0.
    depth: Cell<u32>,
    used: Cell<u64>,
    /// When the outermost run must end by the clock.
    deadline: Cell<Option<Instant>>,
    time_limit: Cell<Duration>,
    abort: Cell<Option<Abort>>,
    /// The last place in a script the VM hook saw.
    location: Cell<Option<Location>>,
    line_events: Cell<u32>,
    scripts: RefCell<Vec<ScriptInfo>>,
    by_chunk: RefCell<HashMap<String, usize>>,
    hooks: RefCell<BTreeMap<String, Hook>>,
    loading: RefCell<Option<Loading>>,
    log: RefCell<Log>,
}

impl Shared {
    fn script_index(&self, chunk_name: &str) -> Option<usize> {
        self.by_chunk.borrow().get(chunk_name).copied()
    }

    fn script_name(&self, index: usize) -> String {
        self.scripts
            .borrow()
            .get(index)
            .map_or_else(|| NO_SCRIPT.to_string(), |s| s.name.clone())
    }

    /// Notes where the VM is, if it is in a script.
    fn note(&self, debug: &Debug) {
        let source = debug.source();
        if let Some(index) = source.source.as_deref().and_then(|s| self.script_index(s)) {
            let line = debug.current_line().and_then(|l| u32::try_from(l).ok());
            self.location.set(Some(Location {
                script: index,
                line,
            }));
        }
    }

    fn abort_message(&self, kind: AbortKind) -> String {
        match kind {
            AbortKind::Budget => format!(
                "instruction budget exceeded: a run may execute at most {} Lua instructions (an endless loop?)",
                self.limits.instructions_per_call
            ),
            AbortKind::Memory => format!(
                "memory limit exceeded: the variant's scripts may use at most {} together",
                bytes_text(self.limits.memory_bytes)
            ),
            AbortKind::Time => format!(
                "time limit exceeded: a run may take at most {} ms (an endless loop?)",
                self.time_limit.get().as_millis()
            ),
        }
    }

    fn abort(&self, kind: AbortKind, at: Option<Location>) -> mlua::Error {
        if self.abort.get().is_none() {
            self.abort.set(Some(Abort { kind, at }));
        }
        mlua::Error::runtime(self.abort_message(kind))
    }

    /// Counts `n` more instructions of the run, and checks the clock; an
    /// abort is placed at the innermost script frame (the script's line,
    /// also when the run is inside the sandbox's library code).
    fn spend(&self, lua: &Lua, n: u64) -> mlua::Result<()> {
        let used = self.used.get().saturating_add(n);
        self.used.set(used);
        let kind = if used > self.limits.instructions_per_call {
            AbortKind::Budget
        } else if self.deadline.get().is_some_and(|d| Instant::now() >= d) {
            AbortKind::Time
        } else {
            return Ok(());
        };
        let at = caller_location(lua, self).or(self.location.get());
        Err(self.abort(kind, at))
    }
}

/// "64 MiB", "512 KiB" or "1000 bytes".
fn bytes_text(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// How Lua shows the chunk name "@name" in messages (`luaO_chunkid`).
fn short_src(name: &str) -> String {
    const ID_SIZE: usize = 60; // LUA_IDSIZE
    let bytes = name.as_bytes();
    if bytes.len() < ID_SIZE {
        name.to_string()
    } else {
        let keep = ID_SIZE - 4; // "..." and the terminating NUL
        format!(
            "...{}",
            String::from_utf8_lossy(&bytes[bytes.len() - keep..])
        )
    }
}

/// Splits "src:12: rest" into (12, "rest").
fn strip_position<'m>(message: &'m str, src: &str) -> Option<(u32, &'m str)> {
    let rest = message.strip_prefix(src)?.strip_prefix(':')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let line = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(':')?;
    Some((line, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// The error under Rust callbacks and contexts, with the innermost traceback.
fn root_cause(err: &mlua::Error) -> (&mlua::Error, Option<&str>) {
    let mut err = err;
    let mut trace = None;
    loop {
        match err {
            mlua::Error::CallbackError { traceback, cause } => {
                trace = Some(traceback.as_str());
                err = cause;
            }
            mlua::Error::WithContext { cause, .. } => err = cause,
            _ => return (err, trace),
        }
    }
}

/// Whether an error value caught by `pcall` is an out-of-memory error.
fn is_memory_error(value: &Value) -> bool {
    match value {
        Value::String(s) => s.as_bytes().as_ref() == b"not enough memory",
        Value::Error(e) => matches!(root_cause(e).0, mlua::Error::MemoryError(_)),
        _ => false,
    }
}

fn hook_triggers(interval: u32, precise: bool) -> HookTriggers {
    let triggers = HookTriggers::new().every_nth_instruction(interval);
    if precise {
        triggers.every_line()
    } else {
        triggers
    }
}

/// Sets the VM hook that counts instructions and notes where scripts are.
/// `precise` also notes every line (for the first [`PRECISE_LINES`]).
/// Setting it restarts Lua's instruction count, so a run that starts with it
/// gets exactly its budget whatever ran before.
fn install_hook(lua: &Lua, shared: &Rc<Shared>, precise: bool) -> mlua::Result<()> {
    shared.line_events.set(0);
    let s = Rc::clone(shared);
    // The global hook is a plain `lua_sethook` on the main thread (scripts
    // have no coroutines), cheap enough to set again for every run.
    lua.set_global_hook(
        hook_triggers(shared.interval, precise),
        move |lua, debug| on_vm_hook(&s, lua, debug),
    )
}

fn on_vm_hook(shared: &Rc<Shared>, lua: &Lua, debug: &Debug) -> mlua::Result<VmState> {
    if shared.depth.get() == 0 {
        return Ok(VmState::Continue);
    }
    shared.note(debug);
    match debug.event() {
        DebugEvent::Count => shared.spend(lua, u64::from(shared.interval))?,
        DebugEvent::Line => {
            let n = shared.line_events.get() + 1;
            shared.line_events.set(n);
            if n >= PRECISE_LINES {
                install_hook(lua, shared, false)?;
            }
        }
        _ => {}
    }
    Ok(VmState::Continue)
}

/// The innermost script frame of the running Lua stack.
fn caller_location(lua: &Lua, shared: &Shared) -> Option<Location> {
    for level in 0..MAX_STACK_SEARCH {
        let found = lua.inspect_stack(level, |debug| {
            let source = debug.source();
            let script = source
                .source
                .as_deref()
                .and_then(|s| shared.script_index(s))?;
            let line = debug.current_line().and_then(|l| u32::try_from(l).ok());
            Some(Location { script, line })
        })?;
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Keeps the run depth; the outermost run starts with a fresh budget (a
/// run nested in another, through an engine function, shares its budget).
struct Run<'a>(&'a Shared);

impl<'a> Run<'a> {
    fn enter(lua: &Lua, shared: &'a Rc<Shared>, precise: bool) -> Self {
        if shared.depth.get() == 0 {
            shared.used.set(0);
            shared
                .deadline
                .set(Instant::now().checked_add(shared.time_limit.get()));
            shared.abort.set(None);
            shared.location.set(None);
            // On failure the previous hook stays, which still counts.
            let _ = install_hook(lua, shared, precise);
        }
        shared.depth.set(shared.depth.get().saturating_add(1));
        Run(shared)
    }
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        self.0.depth.set(self.0.depth.get().saturating_sub(1));
    }
}

/// Whose code a run is, for errors that cannot be placed more precisely.
struct Context<'a> {
    script: Option<usize>,
    /// The script name when `script` is None.
    name: &'a str,
}

/// One sandboxed Lua VM running the scripts of one variant.
pub struct LuaHost {
    lua: Lua,
    shared: Rc<Shared>,
    api: Table,
}

impl fmt::Debug for LuaHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LuaHost")
            .field("limits", &self.shared.limits)
            .field(
                "scripts",
                &self
                    .shared
                    .scripts
                    .borrow()
                    .iter()
                    .map(|s| &s.name)
                    .collect::<Vec<_>>(),
            )
            .field("hooks", &self.hook_names())
            .finish()
    }
}

impl LuaHost {
    /// A fresh VM with the sandbox in place and no scripts.
    pub fn new(limits: LuaLimits, rng: Rc<RefCell<GameRng>>) -> Result<Self, ScriptError> {
        let sandbox_error = |e: mlua::Error| ScriptError {
            script: SANDBOX.to_string(),
            line: None,
            kind: if matches!(root_cause(&e).0, mlua::Error::MemoryError(_)) {
                ScriptErrorKind::Memory
            } else {
                ScriptErrorKind::Runtime
            },
            message: format!("cannot start the Lua sandbox: {e}"),
        };
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8;
        let lua = Lua::new_with(libs, LuaOptions::default()).map_err(sandbox_error)?;
        lua.set_memory_limit(limits.memory_bytes.max(1))
            .map_err(sandbox_error)?;
        let interval = u32::try_from(
            limits
                .instructions_per_call
                .clamp(1, u64::from(HOOK_INTERVAL)),
        )
        .unwrap_or(HOOK_INTERVAL);
        let shared = Rc::new(Shared {
            limits,
            interval,
            rng,
            depth: Cell::new(0),
            used: Cell::new(0),
            deadline: Cell::new(None),
            time_limit: Cell::new(RUN_TIME_LIMIT),
            abort: Cell::new(None),
            location: Cell::new(None),
            line_events: Cell::new(0),
            scripts: RefCell::new(Vec::new()),
            by_chunk: RefCell::new(HashMap::new()),
            hooks: RefCell::new(BTreeMap::new()),
            loading: RefCell::new(None),
            log: RefCell::new(Log::default()),
        });
        install_hook(&lua, &shared, false).map_err(sandbox_error)?;
        let api = lua.create_table().map_err(sandbox_error)?;
        lua.globals().set("titan", &api).map_err(sandbox_error)?;
        let functions = engine_functions(&lua, &shared).map_err(sandbox_error)?;
        let prelude = lua
            .load(PRELUDE)
            .set_name(format!("={SANDBOX}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(sandbox_error)?;
        let host = LuaHost { lua, shared, api };
        let (unit, int_in, bits, log_line, register, check_failure, aborting, charge) = functions;
        let args = (
            host.api.clone(),
            unit,
            int_in,
            bits,
            log_line,
            register,
            check_failure.clone(),
            aborting,
        );
        host.run::<()>(
            &prelude,
            args,
            &Context {
                script: None,
                name: SANDBOX,
            },
            false,
        )?;
        let library = host
            .lua
            .load(LIBRARY)
            .set_name(format!("={SANDBOX}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(sandbox_error)?;
        host.run::<()>(
            &library,
            (charge, check_failure),
            &Context {
                script: None,
                name: SANDBOX,
            },
            false,
        )?;
        Ok(host)
    }

    /// Sets the wall-clock limit of each run (default [`RUN_TIME_LIMIT`]).
    pub fn set_time_limit(&self, limit: Duration) {
        self.shared.time_limit.set(limit);
    }

    /// Compiles the script as text (never bytecode) and runs its top level
    /// under the instruction budget and memory cap. If the top level fails,
    /// the hooks it registered are removed again (globals it set stay).
    pub fn load_script(&mut self, script: &ScriptSource) -> Result<(), ScriptError> {
        let index = self.add_script(&script.name);
        let context = Context {
            script: Some(index),
            name: &script.name,
        };
        if script.code.as_bytes().first() == Some(&0x1b) {
            return Err(ScriptError {
                script: script.name.clone(),
                line: None,
                kind: ScriptErrorKind::Forbidden,
                message: format!(
                    "precompiled bytecode {NOT_AVAILABLE}: a script must be Lua source text"
                ),
            });
        }
        let compiled = {
            let _run = Run::enter(&self.lua, &self.shared, false);
            self.lua
                .load(script.code.as_str())
                .set_name(chunk_name(&script.name))
                .set_mode(ChunkMode::Text)
                .into_function()
                .map_err(|e| self.classify(&e, &context))
        };
        let func = compiled?;
        *self.shared.loading.borrow_mut() = Some(Loading {
            script: index,
            registered: Vec::new(),
        });
        // Note every line while the top level starts, so that a memory
        // error names its line; this falls back to the cheap hook on its own.
        let result = self.run::<()>(&func, (), &context, true);
        let _ = install_hook(&self.lua, &self.shared, false);
        let loading = self.shared.loading.borrow_mut().take();
        if result.is_err()
            && let Some(loading) = loading
        {
            let mut hooks = self.shared.hooks.borrow_mut();
            for name in &loading.registered {
                hooks.remove(name);
            }
        }
        result
    }

    /// Names registered with `titan.hook(name, fn)`, sorted.
    pub fn hook_names(&self) -> Vec<String> {
        self.shared.hooks.borrow().keys().cloned().collect()
    }

    pub fn has_hook(&self, name: &str) -> bool {
        self.shared.hooks.borrow().contains_key(name)
    }

    /// Calls a registered hook under a fresh instruction budget.
    pub fn call_hook<A: IntoLuaMulti, R: FromLuaMulti>(
        &self,
        name: &str,
        args: A,
    ) -> Result<R, ScriptError> {
        let (func, script) = match self.shared.hooks.borrow().get(name) {
            Some(hook) => (hook.func.clone(), hook.script),
            None => {
                return Err(ScriptError {
                    script: NO_SCRIPT.to_string(),
                    line: None,
                    kind: ScriptErrorKind::MissingHook,
                    message: format!(
                        "no script registers a hook named {name:?} (titan.hook({name:?}, ...))"
                    ),
                });
            }
        };
        let name = script.map_or_else(|| NO_SCRIPT.to_string(), |i| self.shared.script_name(i));
        self.run(
            &func,
            args,
            &Context {
                script,
                name: &name,
            },
            false,
        )
    }

    /// Calls any Lua function of this VM (say, a callback a script handed
    /// to the engine) under the same rules as a hook.
    pub fn call_function<A: IntoLuaMulti, R: FromLuaMulti>(
        &self,
        func: &Function,
        args: A,
    ) -> Result<R, ScriptError> {
        let script = func
            .info()
            .source
            .and_then(|s| self.shared.script_index(&s));
        let name = script.map_or_else(|| NO_SCRIPT.to_string(), |i| self.shared.script_name(i));
        self.run(
            func,
            args,
            &Context {
                script,
                name: &name,
            },
            false,
        )
    }

    /// Lines the scripts printed (print and titan.log), drained.
    pub fn take_log(&self) -> Vec<String> {
        std::mem::take(&mut *self.shared.log.borrow_mut()).lines
    }

    /// The engine's handle on the scripts' `titan` table, where engine
    /// functions for scripts go. A script that reassigns the global `titan`
    /// does not change this table.
    pub fn api(&self) -> &Table {
        &self.api
    }

    /// The VM, for engine code that adds functions to [`LuaHost::api`].
    /// Lua code run through it directly (rather than through
    /// [`LuaHost::call_hook`] or [`LuaHost::call_function`]) has no
    /// instruction budget.
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    pub fn limits(&self) -> LuaLimits {
        self.shared.limits
    }

    fn add_script(&self, name: &str) -> usize {
        let chunk = chunk_name(name);
        if let Some(index) = self.shared.script_index(&chunk) {
            return index;
        }
        let mut scripts = self.shared.scripts.borrow_mut();
        scripts.push(ScriptInfo {
            name: name.to_string(),
            short_src: short_src(&chunk[1..]),
        });
        let index = scripts.len() - 1;
        self.shared.by_chunk.borrow_mut().insert(chunk, index);
        index
    }

    /// Runs `func` under the budget, turning failures into [`ScriptError`]s;
    /// `precise` notes every line at first (see [`install_hook`]).
    fn run<R: FromLuaMulti>(
        &self,
        func: &Function,
        args: impl IntoLuaMulti,
        context: &Context,
        precise: bool,
    ) -> Result<R, ScriptError> {
        let result = {
            let _run = Run::enter(&self.lua, &self.shared, precise);
            match func.call::<MultiValue>(args) {
                Ok(values) => R::from_lua_multi(values, &self.lua)
                    .map_err(|e| self.bad_return(&e, func, context)),
                Err(e) => Err(self.classify(&e, context)),
            }
        };
        if let Err(e) = &result
            && e.kind == ScriptErrorKind::Memory
            && self.shared.depth.get() == 0
        {
            // Free what the failed run left behind before the next one.
            let _ = self.lua.gc_collect();
        }
        result
    }

    fn error_at(
        &self,
        kind: ScriptErrorKind,
        at: Option<Location>,
        context: &Context,
        message: String,
    ) -> ScriptError {
        let (script, line) =
            match at.or(context.script.map(|script| Location { script, line: None })) {
                Some(loc) => (self.shared.script_name(loc.script), loc.line),
                None => (context.name.to_string(), None),
            };
        ScriptError {
            script,
            line,
            kind,
            message,
        }
    }

    /// A run's values did not convert to what the engine asked for.
    fn bad_return(&self, err: &mlua::Error, func: &Function, context: &Context) -> ScriptError {
        let info = func.info();
        let at = info
            .source
            .and_then(|s| self.shared.script_index(&s))
            .map(|script| Location {
                script,
                line: info.line_defined.and_then(|l| u32::try_from(l).ok()),
            });
        let message = format!(
            "the function returned values of the wrong type: {}",
            root_cause(err).0
        );
        self.error_at(ScriptErrorKind::Runtime, at, context, message)
    }

    /// Splits a leading "script:line:" off a Lua message. The outer Option
    /// says whether there was a known position (a position in the sandbox
    /// prelude is stripped but gives no location).
    fn parse_position<'m>(&self, message: &'m str) -> Option<(Option<Location>, &'m str)> {
        for (index, script) in self.shared.scripts.borrow().iter().enumerate() {
            if let Some((line, rest)) = strip_position(message, &script.short_src) {
                return Some((
                    Some(Location {
                        script: index,
                        line: Some(line),
                    }),
                    rest,
                ));
            }
        }
        strip_position(message, SANDBOX).map(|(_, rest)| (None, rest))
    }

    /// The innermost script frame named in a Lua traceback.
    fn trace_location(&self, trace: &str) -> Option<Location> {
        let scripts = self.shared.scripts.borrow();
        trace.lines().find_map(|line| {
            let line = line.trim_start();
            scripts.iter().enumerate().find_map(|(index, script)| {
                strip_position(line, &script.short_src).map(|(l, _)| Location {
                    script: index,
                    line: Some(l),
                })
            })
        })
    }

    /// Turns an mlua error from a run into a [`ScriptError`].
    fn classify(&self, err: &mlua::Error, context: &Context) -> ScriptError {
        let shared = &self.shared;
        if let Some(abort) = shared.abort.get() {
            let kind = match abort.kind {
                AbortKind::Budget => ScriptErrorKind::InstructionBudget,
                AbortKind::Memory => ScriptErrorKind::Memory,
                AbortKind::Time => ScriptErrorKind::TimeLimit,
            };
            let at = abort.at.or(shared.location.get());
            return self.error_at(kind, at, context, shared.abort_message(abort.kind));
        }
        let (root, callback_trace) = root_cause(err);
        match root {
            mlua::Error::SyntaxError { message, .. } => {
                let (at, text) = match self.parse_position(message) {
                    Some((at, rest)) => (at, rest),
                    None => (None, message.as_str()),
                };
                self.error_at(ScriptErrorKind::Syntax, at, context, text.to_string())
            }
            mlua::Error::MemoryError(_) => self.error_at(
                ScriptErrorKind::Memory,
                shared.location.get(),
                context,
                shared.abort_message(AbortKind::Memory),
            ),
            mlua::Error::RuntimeError(full) => {
                let (head, trace) = match full.find("\nstack traceback:") {
                    Some(i) => (&full[..i], &full[i..]),
                    None => (full.as_str(), ""),
                };
                let (at, text) = match self.parse_position(head) {
                    Some((at, rest)) => (at, rest),
                    None => (None, head),
                };
                let at = at
                    .or_else(|| self.trace_location(trace))
                    .or_else(|| callback_trace.and_then(|t| self.trace_location(t)));
                let kind = if text.contains(NOT_AVAILABLE) {
                    ScriptErrorKind::Forbidden
                } else {
                    ScriptErrorKind::Runtime
                };
                self.error_at(kind, at, context, text.to_string())
            }
            other => {
                let at = callback_trace.and_then(|t| self.trace_location(t));
                self.error_at(ScriptErrorKind::Runtime, at, context, other.to_string())
            }
        }
    }
}

/// Library functions made countable (see its opening comment).
const LIBRARY: &str = include_str!("lua/library.lua");

/// The Lua chunk name of a script: "@" keeps the end of long names.
fn chunk_name(name: &str) -> String {
    format!("@{}", name.replace('\0', "?"))
}

type EngineFunctions = (
    Function,
    Function,
    Function,
    Function,
    Function,
    Function,
    Function,
    Function,
);

/// The Rust functions the sandbox prelude gets: math.random's three draws,
/// the log, the hook registry, and the check that keeps pcall from catching
/// the end of a run.
fn engine_functions(lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<EngineFunctions> {
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

    Ok((
        unit,
        int_in,
        bits,
        log_line,
        register,
        check_failure,
        aborting,
        charge,
    ))
}

#[cfg(test)]
mod library_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn rng(seed: u64) -> Rc<RefCell<GameRng>> {
        Rc::new(RefCell::new(GameRng::new(seed)))
    }

    fn host_with(limits: LuaLimits, seed: u64) -> LuaHost {
        LuaHost::new(limits, rng(seed)).expect("the sandbox starts")
    }

    fn host() -> LuaHost {
        host_with(LuaLimits::default(), 1)
    }

    fn source(name: &str, code: &str) -> ScriptSource {
        ScriptSource {
            name: name.to_string(),
            code: code.to_string(),
        }
    }

    fn load_ok(host: &mut LuaHost, name: &str, code: &str) {
        if let Err(e) = host.load_script(&source(name, code)) {
            panic!("{name} should load: {e}");
        }
    }

    fn load_err(host: &mut LuaHost, name: &str, code: &str) -> ScriptError {
        host.load_script(&source(name, code))
            .expect_err("the script should fail")
    }

    fn assert_error(e: &ScriptError, kind: ScriptErrorKind, script: &str, line: Option<u32>) {
        assert_eq!(
            (e.kind, e.script.as_str(), e.line),
            (kind, script, line),
            "{e}"
        );
    }

    /// A host with a `check` hook; checks that it still works.
    fn assert_usable(host: &mut LuaHost) {
        if !host.has_hook("check") {
            load_ok(
                host,
                "check.lua",
                "titan.hook('check', function(a, b) return a + b end)",
            );
        }
        assert_eq!(
            host.call_hook::<_, i64>("check", (2, 3))
                .expect("the host is usable"),
            5
        );
    }

    #[test]
    fn removed_libraries_are_forbidden() {
        let cases = [
            ("io.open('x')", "io.open is not available"),
            ("os.execute('ls')", "os.execute is not available"),
            ("require('x')", "require is not available"),
            ("dofile('x')", "dofile is not available"),
            ("loadfile('x')", "loadfile is not available"),
            ("collectgarbage()", "collectgarbage is not available"),
            ("debug.traceback()", "debug.traceback is not available"),
            ("package.path = 'x'", "package.path is not available"),
            ("coroutine.wrap(print)", "coroutine.wrap is not available"),
            ("string.dump(print)", "string.dump is not available"),
            ("local s = ('x'):dump()", "string.dump is not available"),
            ("warn('x')", "warn is not available"),
            ("io()", "io is not available"),
            (
                "setmetatable({}, { __gc = print })",
                "__gc (finalizers) is not available",
            ),
        ];
        let mut host = host();
        for (code, expected) in cases {
            let e = load_err(&mut host, "s.lua", &format!("-- line 1\n{code}\n"));
            assert_error(&e, ScriptErrorKind::Forbidden, "s.lua", Some(2));
            assert!(e.message.contains(expected), "{code}: {e}");
            assert!(e.to_string().starts_with("s.lua:2: "), "{e}");
        }
        assert_usable(&mut host);
    }

    #[test]
    fn safe_libraries_remain() {
        let mut host = host();
        load_ok(
            &mut host,
            "libs.lua",
            r#"
            titan.hook("probe", function()
              local t = { 3, 1, 2 }
              table.sort(t)
              table.insert(t, 4)
              table.insert(t, 1, 0)
              local last = table.remove(t)
              local moved = table.move({ 7, 8 }, 1, 2, 2, { 6 })
              local ok, msg = pcall(error, "caught", 0)
              local ok2, msg2 = xpcall(function() error("x") end, function(m) return "handled" end)
              local f = load("return 1 + 1")
              local env = load("return y", "chunk", "t", { y = 5 })
              local results = {
                table.concat(t, ","), last, table.concat(moved, ","),
                string.format("%s-%d", string.upper("ab"), math.floor(2.5)),
                utf8.char(72, 105), select('#', 1, 2, 3), tostring(ok) .. ":" .. msg, msg2,
                f() + env(), type(io), next({}) == nil, math.type(1), #("abc"):rep(3),
                (pcall(rawset, {}, 1, 2)),
              }
              for i = 1, #results do results[i] = tostring(results[i]) end
              return results
            end)
            "#,
        );
        let got: Vec<String> = host.call_hook("probe", ()).expect("probe runs");
        let want = [
            "0,1,2,3",
            "4",
            "6,7,8",
            "AB-2",
            "Hi",
            "3",
            "false:caught",
            "handled",
            "7",
            "table",
            "true",
            "integer",
            "9",
            "true",
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn table_functions_keep_lua_semantics() {
        let mut host = host();
        load_ok(
            &mut host,
            "t.lua",
            r#"
            titan.hook("t", function()
              local t = {}
              table.insert(t, "a"); table.insert(t, "c"); table.insert(t, 2, "b")
              local r1 = table.remove(t, 1)
              local r2 = table.remove({})
              local m = table.move({ 1, 2, 3, 4, 5 }, 2, 4, 1)
              local ok, err = pcall(table.insert, {}, 5, "x")
              local ok2, err2 = pcall(table.insert, {}, 1, 2, 3)
              return table.concat(t, ""), r1, r2 == nil, table.concat(m, ""), ok, err, ok2, err2
            end)
            "#,
        );
        let got: (String, String, bool, String, bool, String, bool, String) =
            host.call_hook("t", ()).unwrap();
        assert_eq!(got.0, "bc");
        assert_eq!(got.1, "a");
        assert!(got.2);
        assert_eq!(got.3, "23445");
        assert!(!got.4);
        assert!(got.5.contains("position out of bounds"), "{}", got.5);
        assert!(!got.6);
        assert!(
            got.7.contains("wrong number of arguments to 'insert'"),
            "{}",
            got.7
        );
    }

    #[test]
    fn bytecode_is_refused() {
        let mut host = host();
        let e = load_err(
            &mut host,
            "b.lua",
            "local x = 1\nlocal f = load(string.char(27) .. 'LuaT\\0\\25\\147')\n",
        );
        assert_error(&e, ScriptErrorKind::Forbidden, "b.lua", Some(2));
        assert!(e.message.contains("bytecode"), "{e}");

        let reader = "local sent = false\nlocal f = load(function()\n  if sent then return nil end\n  sent = true\n  return string.char(27) .. 'LuaT'\nend)\n";
        let e = load_err(&mut host, "reader.lua", reader);
        assert_error(&e, ScriptErrorKind::Forbidden, "reader.lua", Some(2));

        let e = load_err(&mut host, "dump.lua", "\x1bLuaT\0\x19\u{93}\r\n\x1a\n");
        assert_error(&e, ScriptErrorKind::Forbidden, "dump.lua", None);

        // Text still loads, and a syntax error in it is returned, not raised.
        load_ok(
            &mut host,
            "text.lua",
            "local f, err = load('return +')\nassert(f == nil and err:find('unexpected symbol'))\nassert(load('return 40 + 2')() == 42)\n",
        );
        assert_usable(&mut host);
    }

    #[test]
    fn math_random_draws_from_the_game_rng() {
        let code = r#"
            titan.hook("draw", function()
              local out = {}
              for _ = 1, 20 do
                out[#out + 1] = math.random()
                out[#out + 1] = math.random(6)
                out[#out + 1] = math.random(-3, 3)
                out[#out + 1] = math.random(0)
              end
              return out
            end)
        "#;
        let draws = |seed: u64| -> Vec<f64> {
            let mut host = host_with(LuaLimits::default(), seed);
            load_ok(&mut host, "r.lua", code);
            host.call_hook("draw", ()).expect("draws")
        };
        let a = draws(7);
        assert_eq!(a, draws(7));
        assert_ne!(a, draws(8));
        for chunk in a.chunks(4) {
            assert!((0.0..1.0).contains(&chunk[0]), "{chunk:?}");
            assert!(
                (1.0..=6.0).contains(&chunk[1]) && chunk[1].fract() == 0.0,
                "{chunk:?}"
            );
            assert!(
                (-3.0..=3.0).contains(&chunk[2]) && chunk[2].fract() == 0.0,
                "{chunk:?}"
            );
        }

        // The draws advance the engine's generator.
        let shared_rng = rng(3);
        let mut host = LuaHost::new(LuaLimits::default(), Rc::clone(&shared_rng)).unwrap();
        let before = shared_rng.borrow().word_pos();
        load_ok(&mut host, "r.lua", "local _ = math.random(6)");
        assert!(shared_rng.borrow().word_pos() > before);

        let e = load_err(&mut host, "bad.lua", "\nlocal x = math.random(3, 1)\n");
        assert_error(&e, ScriptErrorKind::Runtime, "bad.lua", Some(2));
        assert!(e.message.contains("interval is empty"), "{e}");
        let e = load_err(&mut host, "bad.lua", "local x = math.random(1.5)\n");
        assert_error(&e, ScriptErrorKind::Runtime, "bad.lua", Some(1));
        assert!(e.message.contains("no integer representation"), "{e}");
        let e = load_err(&mut host, "seed.lua", "\n\nmath.randomseed(42)\n");
        assert_error(&e, ScriptErrorKind::Forbidden, "seed.lua", Some(3));
        assert!(
            e.message.contains("math.randomseed is not available"),
            "{e}"
        );
    }

    #[test]
    fn memory_bombs_are_memory_errors() {
        let mut host = host();
        let e = load_err(
            &mut host,
            "bomb.lua",
            "-- a bomb\nlocal s = string.rep('x', 1 << 30)\n",
        );
        assert_error(&e, ScriptErrorKind::Memory, "bomb.lua", Some(2));
        assert!(e.message.contains("64 MiB"), "{e}");
        assert_usable(&mut host);

        let e = load_err(
            &mut host,
            "double.lua",
            "local s = 'x'\nwhile true do s = s .. s end\n",
        );
        assert_error(&e, ScriptErrorKind::Memory, "double.lua", Some(2));
        assert_usable(&mut host);

        let e = load_err(
            &mut host,
            "grow.lua",
            "local t = {}\nlocal i = 0\nwhile true do i = i + 1; t[i] = { i } end\n",
        );
        assert_error(&e, ScriptErrorKind::Memory, "grow.lua", Some(3));
        assert_usable(&mut host);

        // pcall does not swallow it.
        let e = load_err(
            &mut host,
            "p.lua",
            "local ok = pcall(string.rep, 'x', 1 << 30)\nerror('not reached')\n",
        );
        assert_error(&e, ScriptErrorKind::Memory, "p.lua", Some(1));

        // In a hook: the script is named; the line is best effort.
        load_ok(
            &mut host,
            "hook.lua",
            "titan.hook('bomb', function()\n  return #string.rep('x', 1 << 30)\nend)\n",
        );
        let e = host
            .call_hook::<_, i64>("bomb", ())
            .expect_err("the hook runs out of memory");
        assert_eq!(
            (e.kind, e.script.as_str()),
            (ScriptErrorKind::Memory, "hook.lua"),
            "{e}"
        );
        assert_usable(&mut host);

        // A smaller cap is honoured.
        let mut small = host_with(
            LuaLimits {
                memory_bytes: 2 << 20,
                ..LuaLimits::default()
            },
            1,
        );
        let e = load_err(&mut small, "s.lua", "local s = string.rep('x', 3 << 20)");
        assert_error(&e, ScriptErrorKind::Memory, "s.lua", Some(1));
        assert!(e.message.contains("2 MiB"), "{e}");
        assert_usable(&mut small);
    }

    #[test]
    fn endless_loops_hit_the_budget() {
        let mut host = host();
        let start = Instant::now();
        let e = load_err(&mut host, "loop.lua", "local x = 1\n\nwhile true do end\n");
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "took {:?}",
            start.elapsed()
        );
        assert_error(&e, ScriptErrorKind::InstructionBudget, "loop.lua", Some(3));

        load_ok(
            &mut host,
            "hooks.lua",
            "titan.hook('spin', function()\n  local n = 0\n  while true do n = n + 1 end\nend)\n",
        );
        let start = Instant::now();
        let e = host
            .call_hook::<_, ()>("spin", ())
            .expect_err("the hook never ends");
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "took {:?}",
            start.elapsed()
        );
        assert_error(&e, ScriptErrorKind::InstructionBudget, "hooks.lua", Some(3));
        assert_usable(&mut host);

        // Neither pcall, xpcall nor load's reader can catch the end of a run.
        let escapes = [
            "while true do pcall(function() while true do end end) end",
            "while true do xpcall(function() while true do end end, function(m) return m end) end",
            "while true do load(function() while true do end end) end",
            "local function f() return f() end\nf()",
            "table.move({}, 1, math.maxinteger - 1, 1)",
            "table.insert(setmetatable({}, { __len = function() return 1 << 50 end }), 1, 'x')",
            "table.remove(setmetatable({}, { __len = function() return 1 << 50 end }), 1)",
        ];
        for code in escapes {
            let start = Instant::now();
            let e = load_err(&mut host, "escape.lua", code);
            assert!(
                start.elapsed() < Duration::from_secs(2),
                "{code} took {:?}",
                start.elapsed()
            );
            assert_eq!(
                (e.kind, e.script.as_str()),
                (ScriptErrorKind::InstructionBudget, "escape.lua"),
                "{code}: {e}"
            );
            assert!(e.line.is_some(), "{code}: {e}");
        }
        assert_usable(&mut host);
    }

    #[test]
    fn the_budget_is_per_call() {
        let limits = LuaLimits {
            instructions_per_call: 200_000,
            ..LuaLimits::default()
        };
        let mut host = host_with(limits, 1);
        load_ok(
            &mut host,
            "w.lua",
            "titan.hook('work', function(n)\n  local s = 0\n  for i = 1, n do s = s + i end\n  return s\nend)\n",
        );
        for _ in 0..20 {
            // About 60 000 instructions each, 1 200 000 together.
            assert_eq!(
                host.call_hook::<_, i64>("work", 20_000).unwrap(),
                200_010_000
            );
        }
        let e = host
            .call_hook::<_, i64>("work", 1_000_000)
            .expect_err("over budget");
        assert_error(&e, ScriptErrorKind::InstructionBudget, "w.lua", Some(3));
        assert!(e.message.contains("200000"), "{e}");
        assert_eq!(host.call_hook::<_, i64>("work", 10).unwrap(), 55);
    }

    #[test]
    fn the_budget_does_not_depend_on_earlier_calls() {
        let limits = LuaLimits {
            instructions_per_call: 10_000,
            ..LuaLimits::default()
        };
        let code = "titan.hook('count', function(n) for i = 1, n do end end)\ntitan.hook('noise', function(n) for i = 1, n do end end)\n";
        let outcomes = |noise: bool| -> Vec<bool> {
            let mut host = host_with(limits, 1);
            load_ok(&mut host, "b.lua", code);
            (9_000..11_500)
                .step_by(37)
                .map(|n| {
                    if noise {
                        host.call_hook::<_, ()>("noise", n % 777).unwrap();
                    }
                    host.call_hook::<_, ()>("count", n).is_ok()
                })
                .collect()
        };
        let quiet = outcomes(false);
        assert!(quiet.contains(&true) && quiet.contains(&false));
        assert_eq!(quiet, outcomes(true));
    }

    #[test]
    fn syntax_errors_name_script_and_line() {
        let mut host = host();
        let e = load_err(
            &mut host,
            "variants/x/hooks.lua",
            "local a = 1\n\nlocal b = = 2\n",
        );
        assert_error(&e, ScriptErrorKind::Syntax, "variants/x/hooks.lua", Some(3));
        assert!(e.message.contains("unexpected symbol"), "{e}");
        assert!(
            e.to_string()
                .starts_with("variants/x/hooks.lua:3: unexpected symbol"),
            "{e}"
        );

        // Lua reports a missing `end` at the end of the file (line 3 here).
        let e = load_err(&mut host, "open.lua", "local function f()\n  return 1\n");
        assert_error(&e, ScriptErrorKind::Syntax, "open.lua", Some(3));
        assert!(e.message.contains("'end' expected"), "{e}");
        assert_usable(&mut host);
    }

    #[test]
    fn runtime_errors_name_script_and_line() {
        let mut host = host();
        let e = load_err(&mut host, "r.lua", "local x = 1\nerror('boom')\n");
        assert_error(&e, ScriptErrorKind::Runtime, "r.lua", Some(2));
        assert_eq!(e.message, "boom");
        assert_eq!(e.to_string(), "r.lua:2: boom");

        let e = load_err(&mut host, "r.lua", "local t = nil\n\nt.x()\n");
        assert_error(&e, ScriptErrorKind::Runtime, "r.lua", Some(3));
        assert!(e.message.contains("attempt to index a nil value"), "{e}");

        let e = load_err(&mut host, "r.lua", "local f\nf()\n");
        assert_error(&e, ScriptErrorKind::Runtime, "r.lua", Some(2));
        assert!(e.message.contains("attempt to call a nil value"), "{e}");

        // No position in the message: the traceback gives the line.
        let e = load_err(&mut host, "r.lua", "\n\nerror({ code = 1 })\n");
        assert_error(&e, ScriptErrorKind::Runtime, "r.lua", Some(3));
        let e = load_err(&mut host, "r.lua", "\nerror('plain', 0)\n");
        assert_error(&e, ScriptErrorKind::Runtime, "r.lua", Some(2));
        assert_eq!(e.message, "plain");
        assert_usable(&mut host);
    }

    #[test]
    fn long_script_names_are_kept_whole() {
        let name = format!("/tmp/{}/variants/titan/hooks.lua", "deep/".repeat(20));
        let mut host = host();
        let e = load_err(&mut host, &name, "local a\nerror('far away')\n");
        assert_error(&e, ScriptErrorKind::Runtime, &name, Some(2));
        assert_eq!(e.message, "far away");
        let e = load_err(&mut host, &name, "local a\nlocal = 1\n");
        assert_error(&e, ScriptErrorKind::Syntax, &name, Some(2));
    }

    #[test]
    fn hooks_register_and_run() {
        let mut host = host();
        load_ok(
            &mut host,
            "a.lua",
            "titan.hook('zeta', function() return 'z' end)\ntitan.hook('alpha', function(x, y) return x * y, 'done' end)\n",
        );
        assert_eq!(
            host.hook_names(),
            vec!["alpha".to_string(), "zeta".to_string()]
        );
        assert!(host.has_hook("alpha") && !host.has_hook("beta"));
        let (product, word): (i64, String) = host.call_hook("alpha", (6, 7)).unwrap();
        assert_eq!((product, word.as_str()), (42, "done"));

        let e = load_err(&mut host, "b.lua", "\ntitan.hook('beta', 42)\n");
        assert_error(&e, ScriptErrorKind::Runtime, "b.lua", Some(2));
        assert!(e.message.contains("must be a function, got integer"), "{e}");
        let e = load_err(
            &mut host,
            "b.lua",
            "titan.hook(string.rep('h', 129), print)\n",
        );
        assert_error(&e, ScriptErrorKind::Runtime, "b.lua", Some(1));
        assert!(e.message.contains("at most 128 bytes"), "{e}");
        let e = load_err(
            &mut host,
            "b.lua",
            "for i = 1, 5000 do titan.hook('h' .. i, print) end\n",
        );
        assert!(e.message.contains("at most 4096 hooks"), "{e}");
        assert_eq!(host.hook_names().len(), 2, "rolled back");
        let e = load_err(&mut host, "b.lua", "titan.hook(nil, print)\n");
        assert_error(&e, ScriptErrorKind::Runtime, "b.lua", Some(1));
        assert!(e.message.contains("hook name must be a string"), "{e}");

        let e = load_err(
            &mut host,
            "c.lua",
            "titan.hook('gamma', print)\n\n\ntitan.hook('alpha', print)\n",
        );
        assert_error(&e, ScriptErrorKind::Runtime, "c.lua", Some(4));
        assert!(
            e.message
                .contains("\"alpha\" is already registered at a.lua:2"),
            "{e}"
        );
        // The failed script's hooks are rolled back.
        assert!(!host.has_hook("gamma"));

        // A script cannot reach or replace the registry.
        load_ok(
            &mut host,
            "d.lua",
            "titan.hook = function() end\ntitan = nil\n",
        );
        assert_eq!(host.call_hook::<_, String>("zeta", ()).unwrap(), "z");
        assert_eq!(host.hook_names().len(), 2);
        assert!(host.api().get::<Function>("log").is_ok());
    }

    #[test]
    fn print_and_log_fill_the_log() {
        let mut host = host();
        load_ok(
            &mut host,
            "log.lua",
            "print('hello', 1, nil, true)\ntitan.log('from', 'titan.log')\nprint()\ntitan.hook('say', function(x) print('said', x) end)\n",
        );
        assert_eq!(
            host.take_log(),
            vec!["hello\t1\tnil\ttrue", "from\ttitan.log", ""]
        );
        assert!(host.take_log().is_empty());
        host.call_hook::<_, ()>("say", 5).unwrap();
        assert_eq!(host.take_log(), vec!["said\t5"]);

        load_ok(
            &mut host,
            "flood.lua",
            "for i = 1, 2000 do print(string.rep('x', 20000)) end",
        );
        let log = host.take_log();
        assert!(log.iter().map(String::len).sum::<usize>() < MAX_LOG_BYTES + 100);
        assert!(log.last().unwrap().contains("log full"));
        assert!(log[0].ends_with("[line cut]"));
    }

    #[test]
    fn missing_hooks_and_errors_inside_hooks() {
        let mut host = host();
        let e = host
            .call_hook::<_, ()>("nowhere", ())
            .expect_err("no such hook");
        assert_eq!(e.kind, ScriptErrorKind::MissingHook);
        assert!(e.message.contains("nowhere"), "{e}");

        load_ok(
            &mut host,
            "lib.lua",
            "function lib_fail(x)\n  if x then\n    error('lib says no')\n  end\nend\n",
        );
        load_ok(
            &mut host,
            "hooks.lua",
            "titan.hook('fails', function()\n  local t = {}\n  return t.missing.field\nend)\ntitan.hook('deep', function() lib_fail(true) end)\ntitan.hook('number', function() return 'abc' end)\n",
        );
        let e = host
            .call_hook::<_, ()>("fails", ())
            .expect_err("indexes nil");
        assert_error(&e, ScriptErrorKind::Runtime, "hooks.lua", Some(3));
        let e = host
            .call_hook::<_, ()>("deep", ())
            .expect_err("raises in lib");
        assert_error(&e, ScriptErrorKind::Runtime, "lib.lua", Some(3));
        assert_eq!(e.message, "lib says no");
        let e = host
            .call_hook::<_, i64>("number", ())
            .expect_err("not a number");
        assert_error(&e, ScriptErrorKind::Runtime, "hooks.lua", Some(6));
        assert!(e.message.contains("wrong type"), "{e}");
        assert_usable(&mut host);
    }

    #[test]
    fn the_host_survives_every_kind_of_error() {
        let limits = LuaLimits {
            memory_bytes: 8 << 20,
            instructions_per_call: 5_000_000,
        };
        let mut host = host_with(limits, 1);
        load_ok(
            &mut host,
            "h.lua",
            "titan.hook('loop', function() while true do end end)\ntitan.hook('mem', function() local t = {} while true do t[#t + 1] = {} end end)\ntitan.hook('err', function() error('x') end)\n",
        );
        for _ in 0..3 {
            let _ = load_err(&mut host, "s.lua", "x = = 1");
            let _ = load_err(&mut host, "s.lua", "error('again')");
            let _ = load_err(&mut host, "s.lua", "io.write('x')");
            assert_eq!(
                host.call_hook::<_, ()>("loop", ()).unwrap_err().kind,
                ScriptErrorKind::InstructionBudget
            );
            assert_eq!(
                host.call_hook::<_, ()>("mem", ()).unwrap_err().kind,
                ScriptErrorKind::Memory
            );
            assert_eq!(
                host.call_hook::<_, ()>("err", ()).unwrap_err().kind,
                ScriptErrorKind::Runtime
            );
            assert_eq!(
                host.call_hook::<_, ()>("none", ()).unwrap_err().kind,
                ScriptErrorKind::MissingHook
            );
            assert_usable(&mut host);
        }
    }

    #[test]
    fn hostile_scripts_never_panic() {
        let nasty = [
            "error()",
            "error(nil)",
            "error(setmetatable({}, { __tostring = function() return 1 end }))",
            "error(setmetatable({}, { __tostring = function() while true do end end }))",
            "error(setmetatable({}, { __tostring = function() error('inner') end }))",
            "local function f() f() end f()",
            "local function f() pcall(f) end f()",
            "string.rep('x', -1)",
            "string.rep('ab', 1e10, ',')",
            "local s = ('x'):rep(1e7):rep(1e7)",
            "local t = {} t[1e300] = 1 t[0/0 == 0/0 and 1 or 2] = 2",
            "load(function() return nil end)",
            "load(function() error('reader') end)",
            "load(42)",
            "tostring(setmetatable({}, { __name = 1 }))",
            "math.random(math.mininteger, math.maxinteger)",
            "math.random(1, 2, 3)",
            "math.random('x')",
            "string.format('%d', 1.5)",
            "utf8.char(0x7FFFFFFF)",
            "select(-1)",
            "setmetatable(setmetatable({}, { __metatable = 1 }), {})",
            "setmetatable(1, {})",
            "pcall()",
            "xpcall(print)",
            "table.insert(1, 2)",
            "table.insert({}, 1.5, 2)",
            "table.insert(setmetatable({}, { __len = function() return 'x' end }), 1)",
            "table.remove({}, 5)",
            "table.move({}, 1, 3, math.maxinteger)",
            "table.concat({ {} })",
            "table.unpack({}, 1, 1e8)",
            "table.sort({ 3, 1, 'x' })",
            "titan.hook('x' .. string.char(255), print)",
            "titan.hook('', print)",
            "titan = 5 titan.hook('y', print)",
            "print(setmetatable({}, { __tostring = function() return {} end }))",
            "_G = nil print(1)",
            "string = nil local s = ('x'):upper()",
            "getmetatable('').__index = nil local n = ('x'):len()",
        ];
        let limits = LuaLimits {
            memory_bytes: 16 << 20,
            instructions_per_call: 200_000,
        };
        for code in nasty {
            let mut host = host_with(limits, 1);
            // Registered first: some of these break the global `titan`.
            assert_usable(&mut host);
            let _ = host.load_script(&source("n.lua", code));
            let wrapped = format!("titan.hook('n', function() {code} end)");
            if host.load_script(&source("w.lua", &wrapped)).is_ok() {
                let _ = host.call_hook::<_, i64>("n", ());
            }
            let _ = host.take_log();
            assert_usable(&mut host);
        }
    }

    #[test]
    fn engine_functions_on_the_api_table() {
        let mut host = host();
        let double = host.lua().create_function(|_, x: i64| Ok(x * 2)).unwrap();
        host.api().set("double", double).unwrap();
        load_ok(
            &mut host,
            "api.lua",
            "titan.hook('use', function(x) return titan.double(x) end)",
        );
        assert_eq!(host.call_hook::<_, i64>("use", 21).unwrap(), 42);
        let f: Function = host
            .lua()
            .load("return function(x) return x + 1 end")
            .eval()
            .unwrap();
        assert_eq!(host.call_function::<_, i64>(&f, 1).unwrap(), 2);
    }

    #[test]
    fn pairs_and_next_visit_keys_in_a_reproducible_order() {
        let mut host = host();
        load_ok(
            &mut host,
            "order.lua",
            r#"
            local t = { zeta = 1, alpha = 2, [3] = "c", [1] = "a", [true] = 0, [2.5] = "x" }
            local seen = {}
            for k in pairs(t) do seen[#seen + 1] = tostring(k) end
            titan.log(table.concat(seen, ","))
            local k, walked = nil, {}
            repeat
                k = next(t, k)
                if k ~= nil then walked[#walked + 1] = tostring(k) end
            until k == nil
            titan.log(table.concat(walked, ","))
            titan.log(tostring(next({})))
            titan.hook("bad", function() for _ in pairs({ [{}] = 1 }) do end end)
            "#,
        );
        assert_eq!(
            host.take_log(),
            ["1,2.5,3,alpha,zeta,true", "1,2.5,3,alpha,zeta,true", "nil"]
        );
        let err = host.call_hook::<_, ()>("bad", ()).unwrap_err();
        assert!(err.message.contains("no reproducible order"), "{err}");
        assert_eq!(err.line, Some(13));
    }
}
