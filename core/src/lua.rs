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
//! Every run of Lua code (the top level of a script, one hook call, or one
//! event's handlers through the platform's dispatcher) gets a fresh instruction
//! budget, counted by a VM hook every
//! [`HOOK_INTERVAL`] instructions, and the whole VM has a memory cap.
//! Exceeding either ends the run with a [`ScriptError`] naming the script
//! and line, which `pcall` cannot catch. Errors leave the host usable.
//!
//! The hook registry (`titan.hook`) lives on the Rust side, so a script
//! cannot replace it; the `titan` table itself is the scripts' API table,
//! to which the engine adds functions through [`LuaHost::api`].
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

use mlua::debug::{Debug, DebugEvent};
use mlua::{
    FromLuaMulti, Function, HookTriggers, IntoLuaMulti, Lua, LuaOptions, LuaString, MultiValue,
    StdLib, Table, Value, VmState,
};

use crate::rng::GameRng;

pub use crate::format::ScriptSource;

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
    /// Where the run was when it failed, innermost first, as
    /// `script:line: in function 'name'` (the frames of the variant's
    /// scripts; empty when Lua gave none, as for a load-time syntax error).
    pub traceback: Vec<String>,
}

impl ScriptError {
    /// The traceback as lines to append to a report (empty without one):
    /// what a game adds to a script error's refusal.
    pub fn traceback_text(&self) -> String {
        if self.traceback.is_empty() {
            return String::new();
        }
        format!("\nstack traceback:\n  {}", self.traceback.join("\n  "))
    }
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

/// The registry key of Lua's own `setmetatable`, for the engine's Lua code.
pub(crate) const RAW_SETMETATABLE: &str = "titan.raw_setmetatable";
/// The registry key of Lua's own `next` (any order: for checks that do not
/// depend on it).
pub(crate) const RAW_NEXT: &str = "titan.raw_next";
/// The registry key of the library functions the engine's own Lua
/// (`ctx.lua`) calls, as they were before any script ran: a variant's
/// script may replace `string.format` or `type` for itself, never for the
/// engine.
pub(crate) const PRISTINE: &str = "titan.pristine";

/// Keeps [`PRISTINE`]'s functions, taken from a VM no script has run in.
fn pristine_library(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    let table: Table = g.get("table")?;
    let string: Table = g.get("string")?;
    let kept = lua.create_table()?;
    for name in ["load", "error", "type", "tostring", "ipairs"] {
        kept.set(name, g.get::<Function>(name)?)?;
    }
    kept.set("concat", table.get::<Function>("concat")?)?;
    kept.set("sort", table.get::<Function>("sort")?)?;
    kept.set("format", string.get::<Function>("format")?)?;
    kept.set("byte", string.get::<Function>("byte")?)?;
    lua.set_named_registry_value(PRISTINE, kept)
}

/// The phrase of every sandbox refusal, which makes it [`ScriptErrorKind::Forbidden`].
const NOT_AVAILABLE: &str = "is not available to variant scripts";
/// While a script's top level runs, the line of every statement is noted
/// (so that a memory error names its line) for this many lines, then only
/// every [`HOOK_INTERVAL`] instructions.
const PRECISE_LINES: u32 = 10_000;
/// How many stack levels to search for the script that called the engine.
/// (The pattern matcher of the library nests up to 200 frames.)
const MAX_STACK_SEARCH: usize = 256;

/// The deepest a script's calls may go. Lua's own limit (about 200,000 calls,
/// its stack's million slots) is reached only after its stack has grown to
/// tens of megabytes, and reporting an error there walks the whole stack for
/// its traceback, for seconds: a runaway recursion is stopped here instead,
/// looked for at every instruction-count hook.
pub const MAX_CALL_DEPTH: usize = 5_000;

/// The sandbox, run once in every new VM before any script. It receives the
/// engine's functions as arguments and keeps them in locals, out of the
/// scripts' reach.
const PRELUDE: &str = include_str!("lua/prelude.lua");

/// A script the VM knows, by index in [`Shared::scripts`].
struct ScriptInfo {
    name: String,
    /// How Lua shows the chunk name in messages ("name:line: ...").
    short_src: String,
    /// The script's text, read again only to place a wrong return value
    /// (`returns::return_line`).
    source: Option<Rc<str>>,
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
    /// Calls nested deeper than [`MAX_CALL_DEPTH`]: part of a run's budget.
    Depth,
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
    /// A handler's filter: the words its event's fields must hold
    /// (`titan.on(event, { key = word }, fn)`).
    filter: HandlerFilter,
}

/// The events a host's scripts may handle with `titan.on`, and how a
/// handler's filter table is read: given by the layer that fires the
/// events. The host knows no event of its own; a host made without a
/// catalog ([`LuaHost::new`]) refuses every `titan.on`.
#[derive(Debug)]
pub struct EventCatalog {
    /// The event names, as scripts write them.
    pub names: &'static [&'static str],
    /// Reads `titan.on(event, filter, fn)`'s filter table; the error says
    /// what is wrong with it (the host adds where).
    pub read_filter: fn(event: &str, filter: &Table) -> Result<HandlerFilter, String>,
}

/// The catalog of a host that handles no events.
pub const NO_EVENTS: EventCatalog = EventCatalog {
    names: &[],
    read_filter: |_, _| Ok(HandlerFilter::default()),
};

/// What a handler's filter asks of an event, as its [`EventCatalog`] read
/// it: word-valued fields the event must carry, and a further condition
/// the catalog's layer reads and checks itself (opaque here).
#[derive(Debug, Clone, Default)]
pub struct HandlerFilter {
    /// (field, word) pairs, sorted by field.
    pub fields: Vec<(&'static str, &'static str)>,
    pub condition: Option<Rc<dyn std::any::Any>>,
}

impl HandlerFilter {
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.condition.is_none()
    }

    /// The condition, when it is a `T`.
    pub fn condition<T: 'static>(&self) -> Option<&T> {
        self.condition.as_deref()?.downcast_ref()
    }
}

/// What a failing top-level run must undo.
struct Loading {
    script: usize,
    registered: Vec<String>,
    /// Events it added a handler to (one entry per handler).
    handlers: Vec<String>,
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
    /// The events `titan.on` takes.
    events: &'static EventCatalog,
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
    /// `titan.on` handlers by event, in load order.
    handlers: RefCell<BTreeMap<String, Vec<Hook>>>,
    loading: RefCell<Option<Loading>>,
    log: RefCell<Log>,
    /// Bumped whenever `handlers` changes (event dispatchers are made for
    /// one list of handlers).
    generation: Cell<u64>,
    /// `has_handlers` answers by the address of the event's name, for the
    /// handlers of `generation` (the first word): the engine asks for
    /// every event it might fire, and a lookup by name costs more than
    /// most battle steps.
    handled: Handled,
}

/// `Shared::handled`: answers by the address and length of the event's
/// name, in a table of [`HANDLED_SLOTS`] slots picked by the address, for
/// the handlers of one generation.
struct Handled {
    generation: Cell<u64>,
    slots: [Cell<(usize, usize, bool)>; HANDLED_SLOTS],
}

const HANDLED_SLOTS: usize = 64;

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
            AbortKind::Depth => format!(
                "instruction budget exceeded: a run may nest at most {MAX_CALL_DEPTH} calls (a runaway recursion?)"
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
        DebugEvent::Count => {
            shared.spend(lua, u64::from(shared.interval))?;
            // Walks at most MAX_CALL_DEPTH frames; a few for a handler.
            if lua.inspect_stack(MAX_CALL_DEPTH, |_| ()).is_some() {
                let at = caller_location(lua, shared).or(shared.location.get());
                return Err(shared.abort(AbortKind::Depth, at));
            }
        }
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
    /// Where this VM's compiled chunks are kept for the next VMs.
    chunks: Chunks,
    /// What a layer above keeps with this VM (the script platform's
    /// context API, set up once for the game): see [`LuaHost::extension`].
    extension: std::cell::OnceCell<Box<dyn std::any::Any>>,
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
        Self::with_events(limits, rng, &NO_EVENTS)
    }

    /// A VM whose scripts may handle the events of `events` (`titan.on`).
    pub fn with_events(
        limits: LuaLimits,
        rng: Rc<RefCell<GameRng>>,
        events: &'static EventCatalog,
    ) -> Result<Self, ScriptError> {
        Self::with_chunks(limits, rng, events, Chunks::default())
    }

    /// [`LuaHost::with_events`], loading the chunks `chunks` keeps and
    /// keeping those it compiles there (the VMs of one variant share them:
    /// `Variant::chunks`).
    pub fn with_chunks(
        limits: LuaLimits,
        rng: Rc<RefCell<GameRng>>,
        events: &'static EventCatalog,
        chunks: Chunks,
    ) -> Result<Self, ScriptError> {
        let sandbox_error = |e: mlua::Error| ScriptError {
            script: SANDBOX.to_string(),
            line: None,
            kind: if matches!(root_cause(&e).0, mlua::Error::MemoryError(_)) {
                ScriptErrorKind::Memory
            } else {
                ScriptErrorKind::Runtime
            },
            message: format!("cannot start the Lua sandbox: {e}"),
            traceback: Vec::new(),
        };
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8;
        let lua = Lua::new_with(libs, LuaOptions::default()).map_err(sandbox_error)?;
        lua.set_memory_limit(limits.memory_bytes.max(1))
            .map_err(sandbox_error)?;
        // Every event makes a ctx that dies with it: a generational
        // collector finds such garbage for less work than a full cycle.
        lua.gc_set_mode(mlua::state::GcMode::Generational(
            mlua::state::GcGenParams::default(),
        ));
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
            events,
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
            handlers: RefCell::new(BTreeMap::new()),
            loading: RefCell::new(None),
            log: RefCell::new(Log::default()),
            generation: Cell::new(0),
            handled: Handled {
                generation: Cell::new(0),
                slots: std::array::from_fn(|_| Cell::new((0, 0, false))),
            },
        });
        install_hook(&lua, &shared, false).map_err(sandbox_error)?;
        // The engine's own Lua code (the ctx constructors) sets metatables
        // with the C function; scripts get the prelude's checked one.
        let raw_setmetatable: Function =
            lua.globals().get("setmetatable").map_err(sandbox_error)?;
        lua.set_named_registry_value(RAW_SETMETATABLE, raw_setmetatable)
            .map_err(sandbox_error)?;
        let raw_next: Function = lua.globals().get("next").map_err(sandbox_error)?;
        lua.set_named_registry_value(RAW_NEXT, raw_next)
            .map_err(sandbox_error)?;
        pristine_library(&lua).map_err(sandbox_error)?;
        let api = lua.create_table().map_err(sandbox_error)?;
        lua.globals().set("titan", &api).map_err(sandbox_error)?;
        let functions = engine_functions(&lua, &shared).map_err(sandbox_error)?;
        let prelude = chunks
            .load(&lua, &format!("={SANDBOX}"), PRELUDE)
            .map_err(sandbox_error)?;
        let host = LuaHost {
            lua,
            shared,
            api,
            chunks,
            extension: std::cell::OnceCell::new(),
        };
        let (unit, int_in, bits, log_line, register, check_failure, aborting, charge, on_event) =
            functions;
        let args = (
            host.api.clone(),
            unit,
            int_in,
            bits,
            log_line,
            register,
            check_failure.clone(),
            aborting,
            on_event,
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
            .chunks
            .load(&host.lua, &format!("={SANDBOX}"), LIBRARY)
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

    /// Compiles the script as text (never a script's own bytecode; text an
    /// earlier VM of the same [`Chunks`] compiled is loaded as it kept it)
    /// and runs its top level
    /// under the instruction budget and memory cap. If the top level fails,
    /// the hooks it registered are removed again (globals it set stay).
    pub fn load_script(&mut self, script: &ScriptSource) -> Result<(), ScriptError> {
        let index = self.add_script(&script.name);
        self.shared.scripts.borrow_mut()[index].source = Some(Rc::from(script.code.as_str()));
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
                traceback: Vec::new(),
            });
        }
        let compiled = {
            let _run = Run::enter(&self.lua, &self.shared, false);
            self.chunks
                .load(&self.lua, &chunk_name(&script.name), &script.code)
                .map_err(|e| self.classify(&e, &context))
        };
        let func = compiled?;
        *self.shared.loading.borrow_mut() = Some(Loading {
            script: index,
            registered: Vec::new(),
            handlers: Vec::new(),
        });
        // Note every line while the top level starts, so that a memory
        // error names its line; this falls back to the cheap hook on its own.
        // (Not again for a script whose top level ran clean before.)
        let chunk = chunk_name(&script.name);
        let ran = self.chunks.ran(&chunk, &script.code);
        let result = self.run::<()>(&func, (), &context, !ran);
        if result.is_ok() && !ran {
            self.chunks.set_ran(&chunk, &script.code);
        }
        let _ = install_hook(&self.lua, &self.shared, false);
        let loading = self.shared.loading.borrow_mut().take();
        if result.is_err()
            && let Some(loading) = loading
        {
            let mut hooks = self.shared.hooks.borrow_mut();
            for name in &loading.registered {
                hooks.remove(name);
            }
            let mut handlers = self.shared.handlers.borrow_mut();
            for event in &loading.handlers {
                if let Some(list) = handlers.get_mut(event) {
                    list.pop();
                }
            }
            self.shared.generation.set(self.shared.generation.get() + 1);
        }
        result
    }

    /// Where this VM keeps its compiled chunks.
    pub fn chunks(&self) -> &Chunks {
        &self.chunks
    }

    /// Names registered with `titan.hook(name, fn)`, sorted.
    pub fn hook_names(&self) -> Vec<String> {
        self.shared.hooks.borrow().keys().cloned().collect()
    }

    pub fn has_hook(&self, name: &str) -> bool {
        self.shared.hooks.borrow().contains_key(name)
    }

    /// Whether a script handles `event` (`titan.on`). The engine's event
    /// names are `'static`, so their addresses name them.
    pub fn has_handlers(&self, event: &'static str) -> bool {
        let (addr, len) = (event.as_ptr() as usize, event.len());
        let handled = &self.shared.handled;
        let generation = self.shared.generation.get();
        if handled.generation.get() != generation {
            handled.generation.set(generation);
            for slot in &handled.slots {
                slot.set((0, 0, false));
            }
        }
        // Names are at least a byte apart: the low bits pick the slot.
        let slot = &handled.slots[(addr ^ (addr >> 6)) % HANDLED_SLOTS];
        let (a, l, yes) = slot.get();
        if (a, l) == (addr, len) {
            return yes;
        }
        let yes = self
            .shared
            .handlers
            .borrow()
            .get(event)
            .is_some_and(|l| !l.is_empty());
        slot.set((addr, len, yes));
        yes
    }

    /// Whether any script handles any event (asked on every action: builds
    /// nothing).
    pub fn handles_any_event(&self) -> bool {
        self.shared
            .handlers
            .borrow()
            .values()
            .any(|l| !l.is_empty())
    }

    /// Events with handlers, sorted.
    pub fn handled_events(&self) -> Vec<String> {
        self.shared
            .handlers
            .borrow()
            .iter()
            .filter(|(_, l)| !l.is_empty())
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// A handler of `event` with a filter, which [`LuaHost::call_event`]
    /// and [`LuaHost::call_question`] cannot check (they have no event
    /// fields): an error rather than a filter ignored.
    fn unfiltered(&self, event: &str) -> Result<(), ScriptError> {
        let handlers = self.shared.handlers.borrow();
        match handlers
            .get(event)
            .and_then(|l| l.iter().find(|h| !h.filter.is_empty()))
        {
            None => Ok(()),
            Some(h) => Err(ScriptError {
                script: h
                    .script
                    .map_or_else(|| NO_SCRIPT.to_string(), |i| self.shared.script_name(i)),
                line: h.line,
                kind: ScriptErrorKind::Runtime,
                message: format!(
                    "a filtered {event} handler is called by the engine's events only (it needs their fields)"
                ),
                traceback: Vec::new(),
            }),
        }
    }

    /// Calls every handler of `event` in load order, each under a fresh
    /// budget, with `args`; stops at the first failure. (The engine fires
    /// its events through `crate::script`, one run per event, filters
    /// checked; a filtered handler is an error here.)
    pub fn call_event<A: IntoLuaMulti + Clone>(
        &self,
        event: &str,
        args: A,
    ) -> Result<(), ScriptError> {
        self.unfiltered(event)?;
        // One handler at a time (handlers are added at load time only),
        // so nothing is collected per call.
        for i in 0.. {
            let next = self
                .shared
                .handlers
                .borrow()
                .get(event)
                .and_then(|l| l.get(i))
                .map(|h| (h.func.clone(), h.script));
            let Some((func, script)) = next else { break };
            let context = Context {
                script,
                name: NO_SCRIPT,
            };
            // The name serves only when the script is unknown.
            let returned: MultiValue = self.run(&func, args.clone(), &context, false)?;
            // A value would be ignored: say so rather than drop it (a
            // handler returning `false` to cancel is a likely mistake).
            if let Some(v) = returned.iter().find(|v| !v.is_nil()) {
                return Err(self.wrong_return(
                    &func,
                    &context,
                    lua_type(v),
                    format!(
                        "a {event} handler returns nothing (its result would be ignored; change the game through ctx), not a {}",
                        lua_type(v)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Calls every handler of `event` (a question) in load order with
    /// `args`: false as soon as one returns `false` (the rest are not
    /// called), else true.
    pub fn call_question<A: IntoLuaMulti + Clone>(
        &self,
        event: &str,
        args: A,
    ) -> Result<bool, ScriptError> {
        self.unfiltered(event)?;
        for i in 0.. {
            let next = self
                .shared
                .handlers
                .borrow()
                .get(event)
                .and_then(|l| l.get(i))
                .map(|h| (h.func.clone(), h.script));
            let Some((func, script)) = next else { break };
            let context = Context {
                script,
                name: NO_SCRIPT,
            };
            let answer: Value = self.run(&func, args.clone(), &context, false)?;
            match answer {
                Value::Boolean(false) => return Ok(false),
                Value::Boolean(true) | Value::Nil => {}
                other => {
                    return Err(self.wrong_return(
                        &func,
                        &context,
                        lua_type(&other),
                        format!(
                            "a {event} handler returns true, false or nothing, not a {}",
                            lua_type(&other)
                        ),
                    ));
                }
            }
        }
        Ok(true)
    }

    /// Changes whenever a handler is added or removed.
    pub(crate) fn handler_generation(&self) -> u64 {
        self.shared.generation.get()
    }

    /// Every handler's filter that has a condition (`titan.on(event,
    /// { unit = {...} }, fn)`) with the script and line that registered it,
    /// sorted by those, for `titan check` to tell a name the variant does
    /// not have.
    pub fn conditional_filters(&self) -> Vec<(String, Option<u32>, String, HandlerFilter)> {
        let handlers = self.shared.handlers.borrow();
        let mut out = Vec::new();
        for (event, list) in handlers.iter() {
            for h in list {
                if h.filter.condition.is_some() {
                    let script = h
                        .script
                        .map_or_else(|| NO_SCRIPT.to_string(), |i| self.shared.script_name(i));
                    out.push((script, h.line, event.clone(), h.filter.clone()));
                }
            }
        }
        out.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        out
    }

    /// What a layer above keeps with this VM, when it is a `T`.
    pub fn extension<T: 'static>(&self) -> Option<&T> {
        self.extension.get()?.downcast_ref()
    }

    /// Keeps `value` with this VM (once: a later call changes nothing and
    /// returns false).
    pub fn set_extension<T: 'static>(&self, value: T) -> bool {
        self.extension.set(Box::new(value)).is_ok()
    }

    /// The handlers of `event` with their filters, in load order.
    pub(crate) fn handler_functions(&self, event: &str) -> Vec<(Function, HandlerFilter)> {
        self.shared
            .handlers
            .borrow()
            .get(event)
            .map(|l| {
                l.iter()
                    .map(|h| (h.func.clone(), h.filter.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Runs an event's dispatcher (`crate::script::dispatch`: it makes the
    /// ctx and calls the handlers of `event` that `args` select, in load
    /// order) as one run: the handlers of an event share its instruction
    /// budget. `state[1]` is the index of the handler running, which places
    /// an error Lua gave no line. Returns the ctx and, for a question, the
    /// answer (true for an event).
    pub(crate) fn dispatch(
        &self,
        event: &str,
        func: &Function,
        args: MultiValue,
        state: &Table,
        question: bool,
    ) -> Result<(Table, bool), ScriptError> {
        let handler = |i: i64| {
            let i = usize::try_from(i).ok()?.checked_sub(1)?;
            self.shared
                .handlers
                .borrow()
                .get(event)
                .and_then(|l| l.get(i))
                .map(|h| (h.func.clone(), h.script))
        };
        let result = {
            let _run = Run::enter(&self.lua, &self.shared, false);
            // Three values at most (no list made for them).
            func.call::<(Value, Value, Value)>(args)
        };
        let (ctx, bad, value) = match result {
            Ok(values) => values,
            Err(e) => {
                let running = state.raw_get::<i64>(1).ok().and_then(handler);
                let context = Context {
                    script: running.and_then(|(_, script)| script),
                    name: NO_SCRIPT,
                };
                let e = self.classify(&e, &context);
                if e.kind == ScriptErrorKind::Memory && self.shared.depth.get() == 0 {
                    // Free what the failed run left behind before the next one.
                    let _ = self.lua.gc_collect();
                }
                return Err(e);
            }
        };
        let Value::Table(ctx) = ctx else {
            return Err(ScriptError {
                script: SANDBOX.to_string(),
                line: None,
                kind: ScriptErrorKind::Runtime,
                message: format!("the {event} dispatcher returned no ctx"),
                traceback: Vec::new(),
            });
        };
        if let Value::Integer(i) = bad
            && let Some((func, script)) = handler(i)
        {
            let context = Context {
                script,
                name: NO_SCRIPT,
            };
            // A value would be ignored: say so rather than drop it (a
            // handler returning `false` to cancel is a likely mistake).
            let message = if question {
                format!(
                    "a {event} handler returns true, false or nothing, not a {}",
                    lua_type(&value)
                )
            } else {
                format!(
                    "a {event} handler returns nothing (its result would be ignored; change the game through ctx), not a {}",
                    lua_type(&value)
                )
            };
            return Err(self.wrong_return(&func, &context, lua_type(&value), message));
        }
        Ok((ctx, !matches!(value, Value::Boolean(false))))
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
                    traceback: Vec::new(),
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
            source: None,
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
            traceback: Vec::new(),
        }
    }

    /// Where `func` is defined, when it is one of the variant's scripts.
    fn defined_at(&self, func: &Function) -> Option<Location> {
        let info = func.info();
        info.source
            .and_then(|s| self.shared.script_index(&s))
            .map(|script| Location {
                script,
                line: info.line_defined.and_then(|l| u32::try_from(l).ok()),
            })
    }

    /// A run returned values the engine does not take, among them one of
    /// Lua type `returned`: an error at the line of the `return` statement
    /// that gave it when the script's source says which one it is
    /// (`returns::return_line`), else at the function's line, saying so.
    fn wrong_return(
        &self,
        func: &Function,
        context: &Context,
        returned: &str,
        message: String,
    ) -> ScriptError {
        let Some(at) = self.defined_at(func) else {
            return self.error_at(ScriptErrorKind::Runtime, None, context, message);
        };
        let info = func.info();
        let span = info
            .line_defined
            .zip(info.last_line_defined)
            .and_then(|(a, b)| Some((u32::try_from(a).ok()?, u32::try_from(b).ok()?)));
        let source = self.shared.scripts.borrow()[at.script].source.clone();
        let found = source.zip(span).and_then(|(source, (first, last))| {
            returns::return_line(&source, first, last, returned)
        });
        match (found, at.line) {
            (Some(line), _) => self.error_at(
                ScriptErrorKind::Runtime,
                Some(Location {
                    script: at.script,
                    line: Some(line),
                }),
                context,
                message,
            ),
            (None, Some(line)) => self.error_at(
                ScriptErrorKind::Runtime,
                Some(at),
                context,
                format!("{message} (function at line {line})"),
            ),
            (None, None) => self.error_at(ScriptErrorKind::Runtime, Some(at), context, message),
        }
    }

    /// The error for a hook's function (`titan.hook(name, fn)`, an action's
    /// `legal` or `apply`) that returned a value of Lua type `returned`
    /// which the engine does not take: at the line of its `return`, as
    /// [`LuaHost::wrong_return`] finds it; `None` when no such hook is
    /// registered.
    pub(crate) fn hook_wrong_return(
        &self,
        hook: &str,
        returned: &str,
        message: String,
    ) -> Option<ScriptError> {
        let (func, script) = {
            let hooks = self.shared.hooks.borrow();
            let h = hooks.get(hook)?;
            (h.func.clone(), h.script)
        };
        let context = Context {
            script,
            name: NO_SCRIPT,
        };
        Some(self.wrong_return(&func, &context, returned, message))
    }

    /// A run's values did not convert to what the engine asked for.
    fn bad_return(&self, err: &mlua::Error, func: &Function, context: &Context) -> ScriptError {
        let message = format!(
            "the function returned values of the wrong type: {}",
            root_cause(err).0
        );
        // The type of a value that did not convert, when mlua says.
        let returned = match root_cause(err).0 {
            mlua::Error::FromLuaConversionError { from, .. } => {
                if *from == "integer" {
                    "number"
                } else {
                    from
                }
            }
            _ => "",
        };
        if returned.is_empty() {
            let at = self.defined_at(func);
            return self.error_at(ScriptErrorKind::Runtime, at, context, message);
        }
        self.wrong_return(func, context, returned, message)
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

    /// The frames of a Lua traceback that are in the variant's scripts,
    /// innermost first, with the scripts' names.
    fn trace_frames(&self, trace: &str) -> Vec<String> {
        let scripts = self.shared.scripts.borrow();
        trace
            .lines()
            .filter_map(|line| {
                let line = line.trim();
                scripts.iter().enumerate().find_map(|(index, script)| {
                    strip_position(line, &script.short_src).map(|(l, rest)| {
                        let rest = rest.trim_start_matches(':').trim();
                        format!("{}:{l}: {rest}", self.shared.script_name(index))
                    })
                })
            })
            .collect()
    }

    /// Turns an mlua error from a run into a [`ScriptError`], with the
    /// traceback Lua gave.
    fn classify(&self, err: &mlua::Error, context: &Context) -> ScriptError {
        let mut e = self.classify_bare(err, context);
        let (_, callback_trace) = root_cause(err);
        let mut trace = String::new();
        if let mlua::Error::RuntimeError(full) = root_cause(err).0
            && let Some(i) = full.find("\nstack traceback:")
        {
            trace.push_str(&full[i..]);
        }
        if let Some(t) = callback_trace {
            trace.push('\n');
            trace.push_str(t);
        }
        e.traceback = self.trace_frames(&trace);
        e.message = without_addresses(&e.message);
        e
    }

    fn classify_bare(&self, err: &mlua::Error, context: &Context) -> ScriptError {
        let shared = &self.shared;
        if let Some(abort) = shared.abort.get() {
            let kind = match abort.kind {
                AbortKind::Budget | AbortKind::Depth => ScriptErrorKind::InstructionBudget,
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

/// A value's type as Lua's `type` names it.
pub(crate) fn lua_type(v: &Value) -> &'static str {
    match v {
        Value::Integer(_) | Value::Number(_) => "number",
        other => other.type_name(),
    }
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
    Function,
);

/// The limits scripts run under, from `rules.scripts` when given.
pub fn script_limits(rules: &crate::format::RulesDef) -> LuaLimits {
    match &rules.scripts {
        Some(s) => LuaLimits {
            // Clamped (and reported by `rules`) so that no variant runs unbounded.
            memory_bytes: (s.memory_mib.min(MAX_MEMORY_MIB) as usize).saturating_mul(1 << 20),
            instructions_per_call: s.instructions_per_call.min(MAX_INSTRUCTIONS_PER_CALL),
        },
        None => LuaLimits::default(),
    }
}

mod chunks;
mod engine;
pub use chunks::Chunks;
use engine::engine_functions;
mod returns;
pub(crate) use engine::without_addresses;

#[cfg(test)]
mod library_tests;

#[cfg(test)]
mod tests;
