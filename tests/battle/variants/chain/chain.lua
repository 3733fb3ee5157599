-- Enemies alive on the battleland the chain has not struck yet.
local function unstruck(ctx)
  local out = {}
  for _, u in ipairs(ctx:units{ status = "on_board", alive = true }) do
    if u.side ~= ctx.side and not ctx:get("struck_by_chain", u.id) then out[#out + 1] = u.id end
  end
  return out
end

local function strike(ctx, target)
  ctx:use_strike(ctx.unit)
  ctx:damage(target, 1)
  ctx:set("struck_by_chain", target, true)
  -- The chain jumps on while an enemy is left: the caster chooses where.
  if #unstruck(ctx) > 0 then ctx:choose("chain_next", ctx.unit) end
end

titan.action("chain", {
  legal = function(ctx)
    if ctx:unit_field(ctx.unit, "strikes_left") == 0 then return {} end
    return unstruck(ctx)
  end,
  apply = function(ctx, args) strike(ctx, args.target) end,
})

-- Offered only as the chain's further choice (its phase's listing never
-- has it otherwise: nobody is left with a strike).
titan.action("chain_next", {
  legal = function(ctx) return unstruck(ctx) end,
  apply = function(ctx, args)
    ctx:damage(args.target, 1)
    ctx:set("struck_by_chain", args.target, true)
    if #unstruck(ctx) > 0 then ctx:choose("chain_next", ctx.unit) end
  end,
})
