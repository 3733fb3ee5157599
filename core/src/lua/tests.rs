//! Tests of the Lua host: the sandbox, limits, hooks and errors.

use super::*;
use std::time::Duration;

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

/// The instructions the last run counted went over the budget: the count,
/// not the clock, ended it.
fn assert_over_budget(host: &LuaHost, what: &str) {
    let (used, budget) = (
        host.shared.used.get(),
        host.shared.limits.instructions_per_call,
    );
    assert!(
        used > budget,
        "{what}: {used} of {budget} instructions counted"
    );
}

/// Endless runs end by the instruction count (`ScriptErrorKind::
/// InstructionBudget`, more instructions counted than the budget): the
/// clock's limit is set far off, so that it only ends a hang (with another
/// kind of error) and a slow machine decides nothing.
#[test]
fn endless_loops_hit_the_budget() {
    let mut host = host();
    host.set_time_limit(Duration::from_secs(120));
    let e = load_err(&mut host, "loop.lua", "local x = 1\n\nwhile true do end\n");
    assert_error(&e, ScriptErrorKind::InstructionBudget, "loop.lua", Some(3));
    assert_over_budget(&host, "loop.lua");

    load_ok(
        &mut host,
        "hooks.lua",
        "titan.hook('spin', function()\n  local n = 0\n  while true do n = n + 1 end\nend)\n",
    );
    let e = host
        .call_hook::<_, ()>("spin", ())
        .expect_err("the hook never ends");
    assert_error(&e, ScriptErrorKind::InstructionBudget, "hooks.lua", Some(3));
    assert_over_budget(&host, "spin");
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
        let e = load_err(&mut host, "escape.lua", code);
        assert_over_budget(&host, code);
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

#[test]
fn a_question_answered_with_a_string_is_an_error_at_its_return() {
    let mut host = LuaHost::with_events(
        LuaLimits::default(),
        Rc::new(RefCell::new(GameRng::new(1))),
        &TEST_EVENTS,
    )
    .unwrap();
    host.load_script(&ScriptSource {
        name: "q.lua".into(),
        code: "titan.on('may_target', function(ctx)\n  return 'never'\nend)\ntitan.on('battle_start', function(ctx) return false end)".into(),
    })
    .unwrap();
    let e = host.call_question("may_target", ()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q.lua:2: a may_target handler returns true, false or nothing, not a string"
    );
    let e = host.call_event("battle_start", ()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("q.lua:4: a battle_start handler returns nothing"),
        "{e}"
    );
}

#[test]
fn a_filtered_handler_is_not_called_without_the_events_fields() {
    // docs/scripting.md, "Events": filters need the event's fields, which
    // only the engine's events have; call_event says so rather than
    // ignore the filter.
    let mut host = LuaHost::with_events(
        LuaLimits::default(),
        Rc::new(RefCell::new(GameRng::new(1))),
        &crate::script::EVENT_CATALOG,
    )
    .unwrap();
    host.load_script(&ScriptSource {
        name: "f.lua".into(),
        code: "titan.on('battle_phase_end', { phase = 'strike' }, function(ctx) end)".into(),
    })
    .unwrap();
    let e = host.call_event("battle_phase_end", ()).unwrap_err();
    assert_eq!(e.script, "f.lua");
    assert!(e.message.contains("filtered"), "{e}");
    // A bad filter is refused where it is registered.
    let e = host
        .load_script(&ScriptSource {
            name: "g.lua".into(),
            code: "\ntitan.on('turn_start', { side = 'attacker' }, function(ctx) end)".into(),
        })
        .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("has no filter field \"side\""), "{e}");
    let e = host
        .load_script(&ScriptSource {
            name: "h.lua".into(),
            code: "titan.on('turn_start', 'phase', function(ctx) end)".into(),
        })
        .unwrap_err();
    assert!(e.message.contains("must be a table"), "{e}");
}

/// A catalog of the layer above, as far as these tests need one: the Lua
/// host knows no event of its own.
const TEST_EVENTS: crate::lua::EventCatalog = crate::lua::EventCatalog {
    names: &["may_target", "battle_start", "battle_phase_end"],
    read_filter: |_, t| {
        let mut f = crate::lua::HandlerFilter::default();
        for pair in t.pairs::<String, String>() {
            let (k, v) = pair.map_err(|e| e.to_string())?;
            f.fields.push((k.leak(), v.leak()));
        }
        Ok(f)
    },
};

#[test]
fn the_host_takes_the_events_its_catalog_names_and_no_other() {
    let src = |code: &str| ScriptSource {
        name: "on.lua".into(),
        code: code.into(),
    };
    let rng = || Rc::new(RefCell::new(GameRng::new(1)));
    // Without a catalog no event exists, not even one the engine fires.
    let mut bare = LuaHost::new(LuaLimits::default(), rng()).unwrap();
    let e = bare
        .load_script(&src("titan.on('battle_start', function(ctx) end)"))
        .unwrap_err();
    assert!(e.message.contains("no event \"battle_start\""), "{e}");
    // With one, its names and only those.
    let mut host = LuaHost::with_events(LuaLimits::default(), rng(), &TEST_EVENTS).unwrap();
    host.load_script(&src("titan.on('battle_phase_end', function(ctx) end)"))
        .unwrap();
    let e = host
        .load_script(&src("titan.on('turn_start', function(ctx) end)"))
        .unwrap_err();
    assert!(
        e.message
            .contains("the events: may_target, battle_start, battle_phase_end"),
        "{e}"
    );
}

#[test]
fn a_runaway_recursion_is_stopped_at_the_call_depth_limit() {
    // docs/scripting.md, "Limits": a recursion that never ends is stopped
    // long before Lua's own stack limit, with the script and its line.
    let mut h = host();
    load_ok(
        &mut h,
        "rec.lua",
        "local function f(n) return f(n + 1) + 1 end\ntitan.hook('deep', function() return f(1) end)",
    );
    let e = h.call_hook::<_, i64>("deep", ()).unwrap_err();
    assert_eq!(e.kind, ScriptErrorKind::InstructionBudget, "{e}");
    assert!(e.message.contains("at most 5000 calls"), "{e}");
    assert_eq!((e.script.as_str(), e.line), ("rec.lua", Some(1)), "{e}");
    // A deep but bounded recursion is fine.
    load_ok(
        &mut h,
        "deep.lua",
        "local function g(n) if n == 0 then return 0 end return g(n - 1) + 1 end\ntitan.hook('ok', function() return g(2000) end)",
    );
    assert_eq!(h.call_hook::<_, i64>("ok", ()).unwrap(), 2000);
}

#[test]
fn a_hook_returning_the_wrong_type_is_an_error_at_its_return_when_only_one_can_be() {
    let mut host = host();
    host.load_script(&ScriptSource {
        name: "r.lua".into(),
        code: r#"titan.hook("power", function(score, base)
  if score > 100 then return 2 end
  if score < 0 then return nil end
  return "weak"
end)
titan.hook("either", function(score)
  if score > 1 then return "a" end
  return tostring(score)
end)
titan.hook("missing", function(score)
  if score > 1 then return 1 end
end)
titan.hook("pair", function(a)
  return a
end)
"#
        .into(),
    })
    .unwrap();
    // A string where a number is expected: only line 4 returns one.
    let e = host.call_hook::<_, i64>("power", (5, 1)).unwrap_err();
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.message.contains("the wrong type"), "{e}");
    // Two returns may give a string: the function's line, and it says so.
    let e = host.call_hook::<_, i64>("either", 5).unwrap_err();
    assert_eq!(e.line, Some(6), "{e}");
    assert!(e.message.ends_with("(function at line 6)"), "{e}");
    // nil: the function may also end without a return.
    let e = host.call_hook::<_, i64>("missing", 0).unwrap_err();
    assert_eq!(e.line, Some(10), "{e}");
    assert!(e.message.ends_with("(function at line 10)"), "{e}");
    // Two values expected, one given: the one return there is.
    let e = host.call_hook::<_, (i64, i64)>("pair", 1).unwrap_err();
    assert_eq!(e.line, Some(14), "{e}");
    assert!(!e.message.contains("function at line"), "{e}");
}
