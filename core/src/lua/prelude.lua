local titan, unit, int_in, bits, log_line, register, check_failure, aborting, on_event = ...

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

-- The ctx of the hook running now; nil until the engine's context API is
-- installed (a rules query outside a game), which replaces this.
titan.ctx = function() return nil end

-- titan.hook registers with the engine; the registry is not in Lua.
titan.hook = function(name, fn)
  local problem = register(name, fn)
  if problem ~= nil then error(problem, 2) end
end

-- titan.action gives a variant action (declared in actions.ron) its two
-- functions; they are kept as the hooks "action:<name>:legal" and ":apply".
titan.action = function(name, t)
  if type(name) ~= "string" then error("titan.action: the action name must be a string, got " .. type(name), 2) end
  if type(t) ~= "table" then error("titan.action: " .. name .. " needs { legal = function(ctx) ... end, apply = function(ctx, args) ... end }", 2) end
  local legal, apply = rawget(t, "legal"), rawget(t, "apply")
  if type(legal) ~= "function" then error("titan.action: " .. name .. ".legal must be a function, got " .. type(legal), 2) end
  if type(apply) ~= "function" then error("titan.action: " .. name .. ".apply must be a function, got " .. type(apply), 2) end
  local problem = register("action:" .. name .. ":legal", legal)
  if problem == nil then problem = register("action:" .. name .. ":apply", apply) end
  if problem ~= nil then error(problem, 2) end
end

-- titan.on adds a handler of an engine event; the handlers are not in Lua.
titan.on = function(event, filter_or_fn, fn)
  local problem = on_event(event, filter_or_fn, fn)
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
