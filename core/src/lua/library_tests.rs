//! The countable library functions (`library.lua`) against Lua's own C
//! functions: same results and messages on a corpus of patterns, and every
//! hostile call ends with an error naming script and line.

use super::*;

/// Runs `CORPUS` and returns one line per case: the results or the error.
const DRIVER: &str = r##"
local out = {}
local function show(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do
    local v = select(i, ...)
    parts[i] = type(v) .. ":" .. tostring(v)
  end
  return table.concat(parts, ",")
end
local function try(label, f, ...)
  local r = table.pack(pcall(f, ...))
  if r[1] then
    out[#out + 1] = label .. " -> " .. show(table.unpack(r, 2, r.n))
  else
    -- Lua's own errors carry a position; only the message is compared.
    -- Lua names a function called through pcall 'string.find', not 'find'.
    local message = tostring(r[2]):gsub("^[^:]*:%d+: ", ""):gsub("'string%.", "'"):gsub("'table%.", "'")
    out[#out + 1] = label .. " !! " .. message
  end
end
local subjects = { "", "a", "hello world", "  key = value  ", "aaab", "(foo(bar))baz",
  "THE (quick) fox", "x=1, y=22, z=333", "\0a\0b", "caf\195\169", "a.b.c", "%d%s" }
local patterns = { "", "a", "^a", "a$", "^$", ".", ".-", ".*", "a+", "a-b", "a?b", "(a)", "()",
  "(a*(.)%w(%s*))", "%a+", "%A+", "%d+", "%s", "%S+", "%p", "%u", "%l", "%x+", "%c", "%g+",
  "%w+", "[%a_][%w_]*", "[^%s]+", "[a-c]+", "[]]", "[^]]", "[a%-z]", "%b()", "%f[%w]%w+",
  "%f[%a]", "(%w+)=(%w+)", "(%w+)%s*=%s*(%w+)", "(a)%1", "(.)%1", "^(%s*)(.-)(%s*)$",
  "%.", "[%.]", "x=(%d+)", "%z", "\0", "[\0-\31]", "$", "^", "a*$", "(()a)", "[%]]", "[a-]",
  "%", "[a", "(a", "a)", "%b", "%bx", "%f", "%fa", "%1", "(a)%2", "%0", "((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))" }
for si, s in ipairs(subjects) do
  for pi, p in ipairs(patterns) do
    local label = si .. "/" .. pi
    try(label .. " find", string.find, s, p)
    try(label .. " find3", string.find, s, p, 3)
    try(label .. " find-2", string.find, s, p, -2)
    try(label .. " findplain", string.find, s, p, 1, true)
    try(label .. " match", string.match, s, p)
    try(label .. " match2", string.match, s, p, 2)
    try(label .. " gsub", string.gsub, s, p, "<%0>")
    try(label .. " gsub1", string.gsub, s, p, "[%1]", 2)
    try(label .. " gsubt", string.gsub, s, p, { a = "A", hello = false, [1] = "one" })
    try(label .. " gsubf", string.gsub, s, p, function(a, b) if b then return b .. a end return nil end)
    try(label .. " gmatch", function()
      local got = {}
      for a, b in string.gmatch(s, p) do got[#got + 1] = show(a, b) end
      return table.concat(got, ";")
    end)
    try(label .. " gmatch3", function()
      local got = {}
      for a in string.gmatch(s, p, 3) do got[#got + 1] = show(a) end
      return table.concat(got, ";")
    end)
  end
end
try("badrepl", string.gsub, "abc", "b", "%x")
try("badrepl2", string.gsub, "abc", "b", "x%")
try("badvalue", string.gsub, "abc", "b", function() return {} end)
try("badtype", string.gsub, "abc", "b", true)
try("nostring", string.find, nil, "a")
try("numbers", string.find, 12345, 34)
try("badinit", string.find, "abc", "b", 1.5)
try("strinit", string.find, "abc", "c", "2")
try("gsubnum", string.gsub, "abc", "b", 7)
try("gsubmax", string.gsub, "aaaa", "a", "b", 2.0)
try("rep", string.rep, "ab", 3, ",")
try("rep0", string.rep, "ab", 0)
try("repnum", string.rep, 5, "2")
try("repbad", string.rep, {}, 2)
try("concat", table.concat, { 1, "a", 2.5 }, "-")
try("concat2", table.concat, { 1, 2, 3, 4 }, ",", 2, 3)
try("concatbad", table.concat, { 1, {}, 3 })
try("concatempty", table.concat, {}, "x", 3, 2)
try("sort", function() local t = { 5, 2, 9, 1 } table.sort(t) return table.concat(t, " ") end)
try("sortf", function() local t = { 5, 2, 9, 1 } table.sort(t, function(a, b) return a > b end) return table.concat(t, " ") end)
try("sortbad", table.sort, { 1, "x" })
return table.concat(out, "\n")
"##;

#[test]
fn the_countable_library_agrees_with_lua() {
    let raw = Lua::new();
    let expected: LuaString = raw
        .load(DRIVER)
        .set_name("=driver")
        .eval()
        .expect("the driver runs in plain Lua");
    let expected = String::from_utf8_lossy(&expected.as_bytes()).into_owned();
    let mut host = LuaHost::new(
        LuaLimits {
            instructions_per_call: 1_000_000_000,
            ..LuaLimits::default()
        },
        Rc::new(RefCell::new(GameRng::new(1))),
    )
    .unwrap();
    let hook = format!("titan.hook('run', function() {DRIVER} end)");
    host.load_script(&ScriptSource {
        name: "driver.lua".into(),
        code: hook,
    })
    .unwrap();
    let got: LuaString = host.call_hook("run", ()).unwrap();
    let got = String::from_utf8_lossy(&got.as_bytes()).into_owned();
    let mut differences = 0;
    for (e, g) in expected.lines().zip(got.lines()) {
        if e != g {
            differences += 1;
            if differences < 20 {
                eprintln!("lua:     {e}\nsandbox: {g}");
            }
        }
    }
    assert_eq!(expected.lines().count(), got.lines().count());
    assert_eq!(differences, 0, "the sandbox's library differs from Lua's");
    assert!(expected.lines().count() > 9_000);
}

/// Calls that Lua's own C library would run for minutes inside one VM
/// instruction, unseen by the instruction budget (docs/scripting.md,
/// "Limits"): the sandbox's library must end each of them.
const HOSTILE: &[(&str, &str)] = &[
    ("find", "string.find(string.rep('a', 1e5), '.-.-.-.-b')"),
    ("match", "string.match(string.rep('a', 1e5), '.-.-.-.-b')"),
    ("gsub", "string.gsub(string.rep('a', 1e5), '.-.-.-.-b', '')"),
    (
        "gmatch",
        "for _ in string.gmatch(string.rep('a', 1e5), '.-.-.-.-b') do end",
    ),
    (
        "method",
        "local s = string.rep('a', 1e5); s:find('.-.-.-.-b')",
    ),
    (
        "backreference",
        "string.find(string.rep('a', 1e6), '(.*)%1b')",
    ),
    (
        "plain",
        "string.find(string.rep('a', 3e7), string.rep('a', 1e4) .. 'b', 1, true)",
    ),
    (
        "tostring",
        "error(setmetatable({}, {__tostring = function() return string.find(string.rep('a', 1e5), '.-.-.-.-b') end}))",
    ),
    (
        "format",
        "string.format('%s', setmetatable({}, {__tostring = function() while true do end end}))",
    ),
    (
        "handler",
        "xpcall(function() error('x') end, function() while true do end end)",
    ),
    (
        "handler-budget",
        "xpcall(function() while true do end end, function() while true do end end)",
    ),
    (
        "concat",
        "table.concat(setmetatable({}, {__index = rawlen}), '', 1, 1e15)",
    ),
    (
        "sort",
        "table.sort(setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, __newindex = rawlen}))",
    ),
];

/// A tenth of the default budget keeps the test quick; the defaults end
/// the same calls ten times later (`tests/broken/lua-pattern` and others).
fn hostile_host() -> LuaHost {
    let limits = LuaLimits {
        instructions_per_call: 1_000_000,
        ..LuaLimits::default()
    };
    LuaHost::new(limits, Rc::new(RefCell::new(GameRng::new(1)))).unwrap()
}

/// Every hostile call ends with an error at its script and line, at load
/// and inside a hook, and the host stays usable.
#[test]
fn hostile_library_calls_end_with_an_error_naming_script_and_line() {
    for (name, code) in HOSTILE {
        let mut host = hostile_host();
        let script = format!("{name}.lua");
        let top = host
            .load_script(&ScriptSource {
                name: script.clone(),
                code: format!("local x = 1\n{code}\n"),
            })
            .expect_err(name);
        assert_eq!(
            (top.script.as_str(), top.line),
            (script.as_str(), Some(2)),
            "{top}"
        );
        assert!(
            matches!(
                top.kind,
                ScriptErrorKind::InstructionBudget | ScriptErrorKind::Memory
            ),
            "{name}: {top}"
        );
        host.load_script(&ScriptSource {
            name: "hook.lua".into(),
            code: format!("titan.hook('h', function()\n  {code}\n  return 1\nend)\n"),
        })
        .unwrap();
        let call = host.call_hook::<_, i64>("h", ()).expect_err(name);
        assert_eq!(call.script, "hook.lua", "{call}");
        assert_eq!(call.line, Some(2), "{name}: {call}");
        host.load_script(&ScriptSource {
            name: "ok.lua".into(),
            code: "titan.hook('ok', function() return ('a,b'):find(',') end)".into(),
        })
        .unwrap();
        assert_eq!(host.call_hook::<_, i64>("ok", ()).unwrap(), 2, "{name}");
    }
}

/// What no count sees (comparing long strings over and over) ends by the
/// clock: a time-limit error at the script's line.
#[test]
fn the_clock_ends_what_the_budget_cannot_see() {
    let mut host = hostile_host();
    host.set_time_limit(Duration::from_millis(50));
    let e = host
        .load_script(&ScriptSource {
            name: "slow.lua".into(),
            code: "local a, b = string.rep('a', 1 << 22), string.rep('a', 1 << 22)\nfor _ = 1, 1e7 do local _ = a < b end\n".into(),
        })
        .expect_err("the run is too slow");
    assert_eq!(
        (e.kind, e.script.as_str(), e.line),
        (ScriptErrorKind::TimeLimit, "slow.lua", Some(2)),
        "{e}"
    );
    assert!(e.message.contains("time limit exceeded"), "{e}");
}

/// An empty piece repeated 1e15 times was a C loop of 1e15 steps; now it
/// is the empty string at once, as Lua defines it.
#[test]
fn repeating_nothing_is_nothing() {
    let mut host = hostile_host();
    host.load_script(&ScriptSource {
        name: "rep.lua".into(),
        code: "assert(string.rep('', 1e15) == '' and string.rep('', 1e15, '') == '')\nassert(string.rep('ab', 3, '') == 'ababab')\n".into(),
    })
    .unwrap();
}

#[test]
fn error_messages_name_no_addresses() {
    use crate::lua::without_addresses;
    assert_eq!(
        without_addresses("bad argument (table: 0x55d0c1a2b3c0 expected, got function: 0x7f00ab)"),
        "bad argument (table expected, got function)"
    );
    assert_eq!(
        without_addresses("value 0x10 is odd: 0xzz"),
        "value 0x10 is odd: 0xzz"
    );
}
