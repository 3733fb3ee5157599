-- The probe keeps what ctx:reach and ctx:sight answer, in words:
-- "range open|blocked-by rangestrike strike_number dice|reason".
local function targets(ctx)
  local out = {}
  for _, u in ipairs(ctx:units{ status = "on_board" }) do out[#out + 1] = u.id end
  return out
end

local function probe(ctx, args)
  -- A unit or hex that is not there is an error, not an empty answer.
  local ok, e = pcall(ctx.reach, ctx, 99)
  assert(not ok and tostring(e):find("ctx:reach: no unit 99"), tostring(e))
  ok, e = pcall(ctx.sight, ctx, "Z9", ctx.unit)
  assert(not ok and tostring(e):find('ctx:sight: no hex "Z9"'), tostring(e))
  ctx:set("reach", args.target, ctx:reach(args.target))
  if args.target == ctx.unit then return end
  local s = ctx:sight(ctx.unit, args.target)
  assert(#s.path >= 1 and s.path[#s.path] == ctx:get_unit(args.target).hex)
  local line = s.open and "open" or ("blocked: " .. s.blocked_by)
  local strike
  if s.rangestrike then
    strike = "yes " .. s.strike_number .. " " .. s.dice
  else
    strike = "no: " .. s.reason
  end
  ctx:set("sight", args.target, s.range .. " | " .. line .. " | " .. strike)
  -- By hex labels, the same line.
  local h = ctx:sight(ctx:get_unit(ctx.unit).hex, ctx:get_unit(args.target).hex)
  assert(h.range == s.range and h.open == s.open and h.rangestrike == s.rangestrike)
end

titan.action("probe", { legal = targets, apply = probe })
titan.action("probe_strike", { legal = targets, apply = probe })

-- The handler's own effects count: a Tree on the first hex the unit
-- reaches takes that hex out of its reach, unless it may stand there.
titan.action("wall_probe", {
  legal = function(ctx) return #ctx:reach(ctx.unit) > 0 end,
  apply = function(ctx)
    local h = ctx:reach(ctx.unit)[1]
    ctx:set_hazard(h, "Tree", nil)
    if not ctx:may_stand(ctx.unit, h) then
      for _, x in ipairs(ctx:reach(ctx.unit)) do
        assert(x ~= h, "the reach sees the handler's own Tree on " .. h)
      end
    end
  end,
})
