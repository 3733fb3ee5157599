-- The Lua side of the context API (core/src/script/mod.rs): ctx tables and
-- units' tables are made here, by the VM, from plain values (no protected
-- set per field from Rust, no packing of the values into a table first).
local methods, raw_units, raw_get_unit, setmetatable, names, max_pairs = ...
local load, concat = load, table.concat
local characters, classes, hexes = names.characters, names.classes, names.hexes
local SIDES = { [0] = "attacker", "defender" }
local STATUSES = { [0] = "waiting", "on_board", "slain", "not_entered", "removed", "riding" }

-- ctx constructors by number of fields: ctors[n](meta, k1, v1, ..., kn, vn)
-- builds the table in one constructor (sized at once) and sets its
-- metatable with the raw setmetatable (one C call).
local ctors = {}
for n = 0, max_pairs do
  local params, fields = { "meta" }, {}
  for i = 1, n do
    params[#params + 1] = "k" .. i
    params[#params + 1] = "v" .. i
    fields[#fields + 1] = "[k" .. i .. "] = v" .. i
  end
  local source = "local setmetatable = ...\nreturn function(" .. concat(params, ", ")
    .. ") return setmetatable({" .. concat(fields, ", ") .. "}, meta) end"
  ctors[n] = load(source, "=[titan sandbox]", "t")(setmetatable)
end

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
methods.units = function(ctx)
  return build({}, 0, raw_units(ctx))
end
methods.get_unit = function(ctx, id)
  local i, ch, cl, sd, hx, dm, pw, sk, fl, rs, st, sl, al = raw_get_unit(ctx, id)
  if i == nil then return nil end
  return unit(i, ch, cl, sd, hx, dm, pw, sk, fl, rs, st, sl, al)
end
return ctors
