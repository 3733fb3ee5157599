-- The Lua side of the context API (core/src/script/mod.rs): ctx tables and
-- units' tables are made here, by the VM, from plain values (no protected
-- set per field from Rust, no packing of the values into a table first).
local compile, methods, raw_units, raw_count, raw_get_unit, raw_field, setmetatable, raw_next, names,
  max_pairs, pristine = ...
-- (`compile(source)` compiles the engine's generated chunks, or loads them
-- as an earlier VM of the variant compiled them: lua/chunks.rs.)
-- The library as it was before any script ran (a script may replace its
-- own globals and `string`'s functions, never the engine's).
local concat, error, type, tostring, sort, ipairs, format, byte =
  pristine.concat, pristine.error, pristine.type, pristine.tostring,
  pristine.sort, pristine.ipairs, pristine.format, pristine.byte
local characters, classes, hexes = names.characters, names.classes, names.hexes
local SIDES = { [0] = "attacker", "defender" }
local STATUSES = { [0] = "waiting", "on_board", "slain", "not_entered", "removed", "riding", "withdrawn" }

-- Names to codes (the reverse of the tables above).
local function codes(by_code)
  local t, i = {}, 0
  while by_code[i] ~= nil do
    t[by_code[i]] = i
    i = i + 1
  end
  return t
end
local CHARACTER_CODES, CLASS_CODES = codes(characters), codes(classes)
local SIDE_CODES, STATUS_CODES = codes(SIDES), codes(STATUSES)
-- A unit's field by name: its index in the raw values, and the names of
-- its codes (nil: the value as it is).
local FIELD_CODES, FIELD_NAMES = {}, {}
for i, key in ipairs(names.unit_keys) do
  FIELD_CODES[key] = i - 1
end
FIELD_NAMES[FIELD_CODES.character] = characters
FIELD_NAMES[FIELD_CODES.class] = classes
FIELD_NAMES[FIELD_CODES.side] = SIDES
FIELD_NAMES[FIELD_CODES.hex] = hexes
FIELD_NAMES[FIELD_CODES.status] = STATUSES

-- ctx constructors by number of fields: ctors[n](meta, k1, v1, ..., kn, vn)
-- builds the table in one constructor (sized at once) and sets its
-- metatable with the raw setmetatable (one C call). Each is made when first
-- asked for (most VMs use a few of them).
local ctors = setmetatable({}, { __index = function(t, n)
  if type(n) ~= "number" or n < 0 or n > max_pairs or n % 1 ~= 0 then return nil end
  local params, fields = { "meta" }, {}
  for i = 1, n do
    params[#params + 1] = "k" .. i
    params[#params + 1] = "v" .. i
    fields[#fields + 1] = "[k" .. i .. "] = v" .. i
  end
  local source = "local setmetatable = ...\nreturn function(" .. concat(params, ", ")
    .. ") return setmetatable({" .. concat(fields, ", ") .. "}, meta) end"
  local ctor = compile(source)(setmetatable)
  t[n] = ctor
  return ctor
end })

-- One unit's table from its 13 values (character, class, side, hex and
-- status as codes).
local function unit(id, ch, cl, sd, hx, dm, pw, sk, fl, rs, st, sl, al)
  return {
    id = id, character = characters[ch], class = classes[cl], side = SIDES[sd],
    hex = hexes[hx], damage = dm, power = pw, skill = sk, flies = fl,
    rangestrikes = rs, status = STATUSES[st], strikes_left = sl, alive = al,
  }
end
-- Each unit's table, then the rest's by tail call.
local function build(out, n, id, ch, cl, sd, hx, dm, pw, sk, fl, rs, st, sl, al, ...)
  if id == nil then return out end
  n = n + 1
  out[n] = { -- as unit() above, inline: a call per unit costs more
    id = id, character = characters[ch], class = classes[cl], side = SIDES[sd],
    hex = hexes[hx], damage = dm, power = pw, skill = sk, flies = fl,
    rangestrikes = rs, status = STATUSES[st], strikes_left = sl, alive = al,
  }
  return build(out, n, ...)
end

-- A filter's fields and what each takes, by name.
local FILTERS = {
  side = SIDE_CODES, character = CHARACTER_CODES, class = CLASS_CODES,
  status = STATUS_CODES, alive = { [true] = true, [false] = false },
}
local WANTS = {
  side = '"attacker" or "defender"', character = "a character's name",
  class = "a class's name",
  status = '"waiting", "on_board", "slain", "not_entered", "removed", "riding" or "withdrawn"',
  alive = "true or false",
}

-- The keys of `f` that are no filter field, sorted (for the message).
local function unknown_keys(f)
  local bad = {}
  for k in raw_next, f do
    if FILTERS[k] == nil then
      bad[#bad + 1] = type(k) == "string" and format("%q", k) or "a " .. type(k) .. " key"
    end
  end
  sort(bad)
  return concat(bad, ", ")
end

-- The codes of a filter table (`what` names the method in errors, which
-- point at the script's line).
local function filter(what, f)
  if f == nil then return end
  if type(f) ~= "table" then
    error("ctx:" .. what .. ": a filter is a table such as { side = \"attacker\" }, not a " .. type(f), 3)
  end
  for k in raw_next, f do
    if FILTERS[k] == nil then
      error("ctx:" .. what .. ": no filter field " .. unknown_keys(f)
        .. " (side, character, class, status, alive)", 3)
    end
  end
  local sd, ch, cl, st, al = f.side, f.character, f.class, f.status, f.alive
  if sd ~= nil then sd = SIDE_CODES[sd] end
  if ch ~= nil then ch = CHARACTER_CODES[ch] end
  if cl ~= nil then cl = CLASS_CODES[cl] end
  if st ~= nil then st = STATUS_CODES[st] end
  if (sd == nil and f.side ~= nil) or (ch == nil and f.character ~= nil)
    or (cl == nil and f.class ~= nil) or (st == nil and f.status ~= nil)
    or (al ~= nil and type(al) ~= "boolean") then
    for _, key in ipairs({ "side", "character", "class", "status", "alive" }) do
      local v = f[key]
      if v ~= nil and FILTERS[key][v] == nil then
        error("ctx:" .. what .. ": filter " .. key .. " is " .. WANTS[key] .. ", not "
          .. (type(v) == "string" and format("%q", v) or tostring(v)), 3)
      end
    end
  end
  return sd, ch, cl, st, al
end

methods.units = function(ctx, f)
  return build({}, 0, raw_units(ctx, filter("units", f)))
end
methods.count_units = function(ctx, f)
  return raw_count(ctx, filter("count_units", f))
end
methods.unit_field = function(ctx, id, key)
  local code = FIELD_CODES[key]
  if code == nil then
    error("ctx:unit_field: no unit field " .. (type(key) == "string" and format("%q", key) or tostring(key))
      .. " (" .. concat(names.unit_keys, ", ") .. ")", 2)
  end
  local v = raw_field(ctx, id, code)
  local by_code = FIELD_NAMES[code]
  if by_code ~= nil and v ~= nil then return by_code[v] end
  return v
end
-- A hex's table (script/methods.rs gives its values flat: the hazard and
-- terrain by code; nothing when there is no such hex).
local raw_get_hex, hazards, terrains = methods.get_hex, names.hazards, names.terrains
methods.get_hex = function(ctx, label)
  local hz, el, tr, unit, rider = raw_get_hex(ctx, label)
  if hz == nil then return nil end
  return { label = label, hazard = hazards[hz], elevation = el, terrain = terrains[tr], unit = unit, rider = rider }
end
methods.get_unit = function(ctx, id)
  local i, ch, cl, sd, hx, dm, pw, sk, fl, rs, st, sl, al = raw_get_unit(ctx, id)
  if i == nil then return nil end
  return unit(i, ch, cl, sd, hx, dm, pw, sk, fl, rs, st, sl, al)
end

-- An event's dispatcher (script/dispatch.rs), generated once per event
-- shape: `event` and the ctx's keys are constants, so only values cross
-- from Rust, in one call per event. `kinds` has a letter per key: "w" a
-- word's code (its string is `words[code]`), else the value as it is.
-- `handlers` are the event's handlers in load order; the call gives, after
-- the depth `d` of the event (`titan.ctx()` reads `current[d]`), when some
-- handler is `filtered`, one mask per 63 handlers (bit i-1: call handler
-- i), then the values. It returns
-- the ctx, and when a handler returned what the engine does not take (its
-- first result), the handler's index and that value; a question's third value is its answer
-- (nil: true). `state[1]` is the handler running, for errors with no line.
local function dispatcher(meta, event, keys, kinds, handlers, question, words, current, state, filtered)
  local n = #handlers
  local params, fields, body = { "d" }, { format("[%q] = %q", "event", event) }, {}
  if filtered then
    for j = 1, (n + 62) // 63 do params[#params + 1] = "m" .. j end
  end
  for i = 1, #keys do
    local v = "v" .. i
    params[#params + 1] = v
    if byte(kinds, i) == 119 then v = "W[" .. v .. "]" end
    fields[#fields + 1] = format("[%q] = %s", keys[i], v)
  end
  for i = 1, n do
    local test = format("if true then S[1] = %d; ", i)
    if filtered then
      test = format("if m%d & %d ~= 0 then S[1] = %d; ", (i - 1) // 63 + 1, 1 << ((i - 1) % 63), i)
    end
    if question then
      body[#body + 1] = test .. format("r = H[%d](ctx); if r == false then C[d] = nil; return ctx, nil, false "
        .. "elseif r ~= nil and r ~= true then return ctx, %d, r end end", i, i)
    else
      -- Only the first result is looked at: a vararg check of all of
      -- them costs more than the rest of a short handler's call.
      body[#body + 1] = test .. format("r = H[%d](ctx); if r ~= nil then return ctx, %d, r end end", i, i)
    end
  end
  local source = "local setmetatable, meta, W, H, C, S = ...\nreturn function("
    .. concat(params, ", ") .. ")\nlocal ctx = setmetatable({" .. concat(fields, ", ") .. "}, meta)\n"
    .. "C[d] = ctx\nlocal r\n" .. concat(body, "\n") .. "\nC[d] = nil\nreturn ctx\nend"
  return compile(source)(setmetatable, meta, words, handlers, current, state)
end

return ctors, dispatcher
