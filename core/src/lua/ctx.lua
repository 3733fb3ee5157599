-- The Lua side of the context API (core/src/script.rs): ctx tables and
-- units' tables are made here, by the VM.
local methods, raw_units, raw_get_unit = ...
local setmetatable, select, rawset, pack = setmetatable, select, rawset, table.pack
local function new_ctx(meta, ...)
  local t = {}
  for i = 1, select("#", ...), 2 do
    local k, v = select(i, ...)
    rawset(t, k, v)
  end
  return setmetatable(t, meta)
end
local function unit(v, b)
  return {
    id = v[b + 1], character = v[b + 2], class = v[b + 3], side = v[b + 4],
    hex = v[b + 5], damage = v[b + 6], power = v[b + 7], skill = v[b + 8],
    flies = v[b + 9], rangestrikes = v[b + 10], status = v[b + 11],
    strikes_left = v[b + 12], alive = v[b + 13],
  }
end
methods.units = function(ctx)
  local v = pack(raw_units(ctx))
  local out = {}
  for i = 0, v.n // 13 - 1 do out[i + 1] = unit(v, i * 13) end
  return out
end
methods.get_unit = function(ctx, id)
  local v = pack(raw_get_unit(ctx, id))
  if v.n == 0 then return nil end
  return unit(v, 0)
end
return new_ctx
