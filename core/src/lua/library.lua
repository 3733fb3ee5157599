-- The library functions whose work inside C the instruction budget cannot
-- see, made countable: Lua patterns (string.find, match, gmatch, gsub) run
-- in this Lua port of Lua 5.4's matcher, so every backtracking step counts;
-- table.concat and table.sort copy through Lua loops; plain string.find is
-- charged its worst-case work before the C code runs; string.rep never
-- loops over empty pieces.
-- Run once per VM after the sandbox prelude; `charge(n)` adds n to the run's
-- instruction count (ending the run past the budget).
local charge, check_failure = ...

local error, select, type, tostring, tonumber = error, select, type, tostring, tonumber
local setmetatable, getmetatable, rawget = setmetatable, getmetatable, rawget
local raw_pcall = pcall -- the prelude's pcall: it re-raises the end of a run
local byte, sub, raw_find, raw_rep = string.byte, string.sub, string.find, string.rep
local format = string.format
local raw_concat, raw_sort, unpack = table.concat, table.sort, table.unpack
local tointeger = math.tointeger

local MAXCCALLS = 200 -- as lstrlib.c: deeper matches are "pattern too complex"
local MAXCAPTURES = 32 -- LUA_MAXCAPTURES
local CAP_UNFINISHED, CAP_POSITION = -1, -2
local ESC, LBRACKET, RBRACKET, CARET, DASH = 37, 91, 93, 94, 45

-- Errors of these functions are raised as such a table inside, and re-raised
-- at the script's line by `protect`.
local OWN = {}
local function fail(message)
  error(setmetatable({ message }, OWN), 0)
end

-- `return protect(raw_pcall(f, ...))` is a tail call, so level 2 of the
-- error is the script that called the library function.
local function protect(ok, ...)
  if ok then return ... end
  local e = (...)
  check_failure(e)
  if type(e) == "table" and getmetatable(e) == OWN then error(rawget(e, 1), 2) end
  error(e, 0)
end

local function check_string(value, arg, fname)
  local kind = type(value)
  if kind == "string" then return value end
  if kind == "number" then return tostring(value) end
  fail(format("bad argument #%d to '%s' (string expected, got %s)", arg, fname, kind))
end

local function opt_integer(value, arg, fname, default)
  if value == nil then return default end
  local n = tonumber(value)
  if n ~= nil then n = tointeger(n) end
  if n == nil then
    if tonumber(value) ~= nil then
      fail(format("bad argument #%d to '%s' (number has no integer representation)", arg, fname))
    end
    fail(format("bad argument #%d to '%s' (number expected, got %s)", arg, fname, type(value)))
  end
  return n
end

-- Position `pos` of a string of `len` bytes, as lstrlib's posrelatI.
local function posrelat(pos, len)
  if pos > 0 then return pos end
  if pos == 0 then return 1 end
  if pos < -len then return 1 end
  return len + pos + 1
end

-- Character classes in the C locale (the engine never sets another).
local function between(c, lo, hi) return c >= lo and c <= hi end
local function is_lower(c) return between(c, 97, 122) end
local function is_upper(c) return between(c, 65, 90) end
local function is_alpha(c) return is_lower(c) or is_upper(c) end
local function is_digit(c) return between(c, 48, 57) end
local CLASSES = {
  [97] = is_alpha, -- a
  [99] = function(c) return c < 32 or c == 127 end, -- c
  [100] = is_digit, -- d
  [103] = function(c) return between(c, 33, 126) end, -- g
  [108] = is_lower, -- l
  [112] = function(c) -- p
    return between(c, 33, 47) or between(c, 58, 64) or between(c, 91, 96) or between(c, 123, 126)
  end,
  [115] = function(c) return c == 32 or between(c, 9, 13) end, -- s
  [117] = is_upper, -- u
  [119] = function(c) return is_alpha(c) or is_digit(c) end, -- w
  [120] = function(c) return is_digit(c) or between(c, 97, 102) or between(c, 65, 70) end, -- x
  [122] = function(c) return c == 0 end, -- z (deprecated, still in 5.4)
}

local function match_class(c, cl)
  local test = CLASSES[cl]
  if test == nil then
    local lower = is_upper(cl) and cl + 32 or cl
    test = CLASSES[lower]
    if test == nil then return cl == c end
    return not test(c)
  end
  return test(c)
end

-- The state of one match: subject, pattern and captures.
local function new_state(s, p)
  return { s = s, p = p, s_end = #s + 1, p_end = #p + 1, level = 0, depth = MAXCCALLS,
           init = {}, len = {} }
end

local function class_end(ms, p)
  local c = byte(ms.p, p)
  p = p + 1
  if c == ESC then
    if p >= ms.p_end then fail("malformed pattern (ends with '%')") end
    return p + 1
  elseif c == LBRACKET then
    if byte(ms.p, p) == CARET then p = p + 1 end
    repeat
      if p >= ms.p_end then fail("malformed pattern (missing ']')") end
      local d = byte(ms.p, p)
      p = p + 1
      if d == ESC and p < ms.p_end then p = p + 1 end
    until byte(ms.p, p) == RBRACKET
    return p + 1
  end
  return p
end

-- `p` is the '[' and `ec` the ']' of a bracket class.
local function match_bracket(ms, c, p, ec)
  local pat = ms.p
  local sig = true
  if byte(pat, p + 1) == CARET then
    sig = false
    p = p + 1
  end
  p = p + 1
  while p < ec do
    local d = byte(pat, p)
    if d == ESC then
      p = p + 1
      if match_class(c, byte(pat, p)) then return sig end
    elseif byte(pat, p + 1) == DASH and p + 2 < ec then
      if d <= c and c <= byte(pat, p + 2) then return sig end
      p = p + 2
    elseif d == c then
      return sig
    end
    p = p + 1
  end
  return not sig
end

local function single_match(ms, s, p, ep)
  if s >= ms.s_end then return false end
  local c = byte(ms.s, s)
  local d = byte(ms.p, p)
  if d == 46 then return true -- '.'
  elseif d == ESC then return match_class(c, byte(ms.p, p + 1))
  elseif d == LBRACKET then return match_bracket(ms, c, p, ep - 1)
  end
  return d == c
end

local do_match

local function match_balance(ms, s, p)
  if p >= ms.p_end - 1 then fail("malformed pattern (missing arguments to '%b')") end
  local b, e = byte(ms.p, p), byte(ms.p, p + 1)
  if byte(ms.s, s) ~= b then return nil end
  local cont = 1
  s = s + 1
  while s < ms.s_end do
    local c = byte(ms.s, s)
    if c == e then
      cont = cont - 1
      if cont == 0 then return s + 1 end
    elseif c == b then
      cont = cont + 1
    end
    s = s + 1
  end
  return nil
end

local function max_expand(ms, s, p, ep)
  local i = 0
  while single_match(ms, s + i, p, ep) do i = i + 1 end
  while i >= 0 do
    local res = do_match(ms, s + i, ep + 1)
    if res ~= nil then return res end
    i = i - 1
  end
  return nil
end

local function min_expand(ms, s, p, ep)
  while true do
    local res = do_match(ms, s, ep + 1)
    if res ~= nil then return res end
    if single_match(ms, s, p, ep) then s = s + 1 else return nil end
  end
end

local function start_capture(ms, s, p, what)
  local level = ms.level + 1
  if level > MAXCAPTURES then fail("too many captures") end
  ms.init[level] = s
  ms.len[level] = what
  ms.level = level
  local res = do_match(ms, s, p)
  if res == nil then ms.level = ms.level - 1 end
  return res
end

local function end_capture(ms, s, p)
  local l = ms.level
  while l >= 1 and ms.len[l] ~= CAP_UNFINISHED do l = l - 1 end
  if l < 1 then fail("invalid pattern capture") end
  ms.len[l] = s - ms.init[l]
  local res = do_match(ms, s, p)
  if res == nil then ms.len[l] = CAP_UNFINISHED end
  return res
end

local function check_capture(ms, d)
  local l = d - 48 -- '1' is capture 1
  if l < 1 or l > ms.level or ms.len[l] == CAP_UNFINISHED then
    fail(format("invalid capture index %%%d", l))
  end
  return l
end

local function match_capture(ms, s, d)
  local l = check_capture(ms, d)
  local len = ms.len[l]
  if len >= 32 then charge(len // 32) end -- the comparison copies both
  if ms.s_end - s >= len and sub(ms.s, ms.init[l], ms.init[l] + len - 1) == sub(ms.s, s, s + len - 1) then
    return s + len
  end
  return nil
end

do_match = function(ms, s, p)
  ms.depth = ms.depth - 1
  if ms.depth < 0 then fail("pattern too complex") end
  local pat = ms.p
  while p ~= ms.p_end do
    local c = byte(pat, p)
    local default = false
    if c == 40 then -- '('
      if byte(pat, p + 1) == 41 then s = start_capture(ms, s, p + 2, CAP_POSITION)
      else s = start_capture(ms, s, p + 1, CAP_UNFINISHED) end
      break
    elseif c == 41 then -- ')'
      s = end_capture(ms, s, p + 1)
      break
    elseif c == 36 and p + 1 == ms.p_end then -- '$' at the end
      if s ~= ms.s_end then s = nil end
      break
    elseif c == ESC then
      local d = byte(pat, p + 1)
      if d == 98 then -- %b
        s = match_balance(ms, s, p + 2)
        if s == nil then break end
        p = p + 4
      elseif d == 102 then -- %f
        p = p + 2
        if byte(pat, p) ~= LBRACKET then fail("missing '[' after '%f' in pattern") end
        local ep = class_end(ms, p)
        local previous = s == 1 and 0 or byte(ms.s, s - 1)
        local current = byte(ms.s, s) or 0
        if not match_bracket(ms, previous, p, ep - 1) and match_bracket(ms, current, p, ep - 1) then
          p = ep
        else
          s = nil
          break
        end
      elseif d ~= nil and d >= 48 and d <= 57 then -- %0-%9
        s = match_capture(ms, s, d)
        if s == nil then break end
        p = p + 2
      else
        default = true
      end
    else
      default = true
    end
    if default then
      local ep = class_end(ms, p)
      local q = byte(pat, ep)
      if not single_match(ms, s, p, ep) then
        if q == 42 or q == 63 or q == DASH then -- '*', '?', '-' accept zero
          p = ep + 1
        else
          s = nil
          break
        end
      elseif q == 63 then -- '?'
        local res = do_match(ms, s + 1, ep + 1)
        if res ~= nil then
          s = res
          break
        end
        p = ep + 1
      elseif q == 43 then -- '+'
        s = max_expand(ms, s + 1, p, ep)
        break
      elseif q == 42 then -- '*'
        s = max_expand(ms, s, p, ep)
        break
      elseif q == DASH then
        s = min_expand(ms, s, p, ep)
        break
      else
        s = s + 1
        p = ep
      end
    end
  end
  ms.depth = ms.depth + 1
  return s
end

-- Capture `l` (1-based) of a match from `s` to `e` (exclusive).
local function get_capture(ms, l, s, e)
  if l > ms.level then
    if l ~= 1 then fail(format("invalid capture index %%%d", l)) end
    return sub(ms.s, s, e - 1)
  end
  local len = ms.len[l]
  if len == CAP_UNFINISHED then fail("unfinished capture") end
  if len == CAP_POSITION then return ms.init[l] end
  return sub(ms.s, ms.init[l], ms.init[l] + len - 1)
end

local function captures(ms, s, e)
  local n = (ms.level == 0 and s ~= nil) and 1 or ms.level
  local out = {}
  for l = 1, n do out[l] = get_capture(ms, l, s, e) end
  return unpack(out, 1, n)
end

local function reset(ms)
  ms.level = 0
  ms.depth = MAXCCALLS
end

local function no_specials(p)
  return raw_find(p, "[%^%$%*%+%?%.%(%[%%%-]") == nil
end

local function find_aux(find, fname, s, p, init, plain)
  s = check_string(s, 1, fname)
  p = check_string(p, 2, fname)
  local ls = #s
  local start = posrelat(opt_integer(init, 3, fname, 1), ls)
  if start > ls + 1 then return nil end
  if find and (plain or no_specials(p)) then
    -- C's search compares at most the needle at every start.
    local lp = #p
    if lp > 0 and lp <= ls - start + 1 then charge(((ls - start + 2 - lp) * lp) // 32) end
    return raw_find(s, p, start, true)
  end
  local ms = new_state(s, p)
  local first = 1
  local anchor = byte(p, 1) == CARET
  if anchor then first = 2 end
  local s1 = start
  repeat
    reset(ms)
    local e = do_match(ms, s1, first)
    if e ~= nil then
      if find then return s1, e - 1, captures(ms, nil, 0) end
      return captures(ms, s1, e)
    end
    s1 = s1 + 1
  until anchor or s1 > ms.s_end
  return nil
end

string.find = function(s, p, init, plain)
  return protect(raw_pcall(find_aux, true, "find", s, p, init, plain))
end

string.match = function(s, p, init)
  return protect(raw_pcall(find_aux, false, "match", s, p, init))
end

local function gmatch_step(state)
  local ms = state.ms
  local src = state.src
  while src <= ms.s_end do
    reset(ms)
    local e = do_match(ms, src, 1)
    if e ~= nil and e ~= state.last then
      state.src, state.last = e, e
      return captures(ms, src, e)
    end
    src = src + 1
  end
  state.src = src
  return nil
end

local function gmatch_start(s, p, init)
  s = check_string(s, 1, "gmatch")
  p = check_string(p, 2, "gmatch")
  local ls = #s
  local start = posrelat(opt_integer(init, 3, "gmatch", 1), ls)
  if start > ls + 1 then start = ls + 2 end
  return { ms = new_state(s, p), src = start, last = nil }
end

string.gmatch = function(s, p, init)
  local state = protect(raw_pcall(gmatch_start, s, p, init))
  return function()
    return protect(raw_pcall(gmatch_step, state))
  end
end

-- The replacement of one match from `s` to `e` (exclusive) into `out`.
local function add_value(ms, out, n, s, e, repl, kind)
  local value
  if kind == "string" then
    local i = 1
    local len = #repl
    while i <= len do
      local j = raw_find(repl, "%", i, true)
      if j == nil then
        n = n + 1
        out[n] = sub(repl, i)
        break
      end
      if j > i then
        n = n + 1
        out[n] = sub(repl, i, j - 1)
      end
      local d = byte(repl, j + 1)
      n = n + 1
      if d == ESC then
        out[n] = "%"
      elseif d == 48 then
        out[n] = sub(ms.s, s, e - 1)
      elseif d ~= nil and d > 48 and d <= 57 then
        out[n] = tostring(get_capture(ms, d - 48, s, e))
      else
        fail("invalid use of '%' in replacement string")
      end
      i = j + 2
    end
    return n
  elseif kind == "table" then
    value = repl[get_capture(ms, 1, s, e)]
  else
    value = repl(captures(ms, s, e))
  end
  n = n + 1
  if not value then
    out[n] = sub(ms.s, s, e - 1)
  elseif type(value) == "string" or type(value) == "number" then
    out[n] = tostring(value)
  else
    fail("invalid replacement value (a " .. type(value) .. ")")
  end
  return n
end

local function gsub_aux(s, p, repl, max_n)
  s = check_string(s, 1, "gsub")
  p = check_string(p, 2, "gsub")
  local kind = type(repl)
  if kind == "number" then
    repl, kind = tostring(repl), "string"
  elseif kind ~= "string" and kind ~= "table" and kind ~= "function" then
    fail("bad argument #3 to 'gsub' (string/function/table expected, got " .. kind .. ")")
  end
  local ms = new_state(s, p)
  max_n = opt_integer(max_n, 4, "gsub", ms.s_end)
  local first = 1
  local anchor = byte(p, 1) == CARET
  if anchor then first = 2 end
  local out, parts, count = {}, 0, 0
  local src, last = 1, nil
  while count < max_n do
    reset(ms)
    local e = do_match(ms, src, first)
    if e ~= nil and e ~= last then
      count = count + 1
      parts = add_value(ms, out, parts, src, e, repl, kind)
      src, last = e, e
    elseif src < ms.s_end then
      parts = parts + 1
      out[parts] = sub(s, src, src)
      src = src + 1
    else
      break
    end
    if anchor then break end
  end
  parts = parts + 1
  out[parts] = sub(s, src)
  return raw_concat(out, "", 1, parts), count
end

string.gsub = function(s, p, repl, n)
  return protect(raw_pcall(gsub_aux, s, p, repl, n))
end

-- string.rep copies its pieces in a C loop, which an empty piece repeated
-- 1e15 times would never leave.
string.rep = function(s, n, sep)
  local kind = type(s)
  if kind ~= "string" and kind ~= "number" then
    error("bad argument #1 to 'rep' (string expected, got " .. kind .. ")", 2)
  end
  local count = tonumber(n)
  if count ~= nil then count = tointeger(count) end
  if count == nil then
    if tonumber(n) ~= nil then error("bad argument #2 to 'rep' (number has no integer representation)", 2) end
    error("bad argument #2 to 'rep' (number expected, got " .. type(n) .. ")", 2)
  end
  kind = type(sep)
  if kind ~= "nil" and kind ~= "string" and kind ~= "number" then
    error("bad argument #3 to 'rep' (string expected, got " .. kind .. ")", 2)
  end
  -- Each copy of a non-empty piece takes memory, which the cap bounds.
  if s == "" and (sep == nil or sep == "") then return "" end
  return raw_rep(s, count, sep)
end

local function length(t)
  local n = tointeger(#t)
  if n == nil then fail("object length is not an integer") end
  return n
end

-- table.concat reads through metamethods in C: read in Lua, join raw.
local function concat_aux(list, sep, i, j)
  if type(list) ~= "table" then
    fail("bad argument #1 to 'concat' (table expected, got " .. type(list) .. ")")
  end
  if sep == nil then sep = "" end
  if type(sep) ~= "string" and type(sep) ~= "number" then
    fail("bad argument #2 to 'concat' (string expected, got " .. type(sep) .. ")")
  end
  i = opt_integer(i, 3, "concat", 1)
  if j == nil then j = length(list) else j = opt_integer(j, 4, "concat", 1) end
  local copy, n = {}, 0
  for k = i, j do
    local v = list[k]
    if type(v) ~= "string" and type(v) ~= "number" then
      fail(format("invalid value (%s) at index %d in table for 'concat'", type(v), k))
    end
    n = n + 1
    copy[n] = v
  end
  return raw_concat(copy, sep, 1, n)
end

table.concat = function(list, sep, i, j)
  return protect(raw_pcall(concat_aux, list, sep, i, j))
end

-- table.sort reads and writes through metamethods in C: sort a raw copy
-- (its comparisons are counted when they are Lua), then write it back.
local function sort_aux(list, less)
  if type(list) ~= "table" then
    fail("bad argument #1 to 'sort' (table expected, got " .. type(list) .. ")")
  end
  if less ~= nil and type(less) ~= "function" then
    fail("bad argument #2 to 'sort' (function expected, got " .. type(less) .. ")")
  end
  local n = length(list)
  if n >= 0x7fffffff then fail("bad argument #1 to 'sort' (array too big)") end
  local copy = {}
  for k = 1, n do copy[k] = list[k] end
  charge(n)
  raw_sort(copy, less)
  for k = 1, n do list[k] = copy[k] end
end

table.sort = function(list, less)
  return protect(raw_pcall(sort_aux, list, less))
end
