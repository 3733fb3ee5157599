-- The spells of house-spells (README.md): actions declared in actions.ron,
-- mana earned by handling battle_end.

-- Living units of `side` on the battleland.
local function on_board(ctx, side)
  local out = {}
  for _, u in ipairs(ctx:units()) do
    if u.alive and u.hex and (side == nil or u.side == side) then out[#out + 1] = u end
  end
  return out
end

local function enemy_of(side)
  if side == "attacker" then return "defender" end
  return "attacker"
end

-- Fireball: instead of striking, 2 hits on an enemy within 3 hexes.
titan.action("fireball", {
  legal = function(ctx)
    local me = ctx:get_unit(ctx.unit)
    if me.strikes_left == 0 then return {} end
    local targets = {}
    for _, u in ipairs(on_board(ctx, enemy_of(ctx.side))) do
      if ctx:distance(ctx.unit, u.id) <= 3 then targets[#targets + 1] = u.id end
    end
    return targets
  end,
  apply = function(ctx, args)
    ctx:use_strike(ctx.unit)
    ctx:damage(args.target, 2)
  end,
})

-- Heal: 2 hits of an adjacent wounded ally.
titan.action("heal", {
  legal = function(ctx)
    local allies = {}
    for _, u in ipairs(on_board(ctx, ctx.side)) do
      if u.id ~= ctx.unit and u.damage > 0 and ctx:distance(ctx.unit, u.id) == 1 then
        allies[#allies + 1] = u.id
      end
    end
    return allies
  end,
  apply = function(ctx, args)
    ctx:heal(args.ally, 2)
  end,
})

-- Re-roll the movement die, before any legion has moved on this roll.
titan.action("reroll", {
  legal = function(ctx)
    if ctx.roll == nil then return false end
    for _, l in ipairs(ctx:legions()) do
      if l.owner == ctx.player and l.moved then return false end
    end
    return true
  end,
  apply = function(ctx)
    ctx:roll_again()
  end,
})

-- 10 mana for each battle won.
titan.on("battle_end", function(ctx)
  local p = ctx.winner_player
  if p ~= nil then ctx:set("mana", p, ctx:get("mana", p) + 10) end
end)
