-- Test actions, each requesting one effect.
local function others(ctx, same_side)
  local out = {}
  for _, u in ipairs(ctx:units()) do
    if u.id ~= ctx.unit and u.alive and u.hex and (u.side == ctx.side) == same_side then
      out[#out + 1] = u.id
    end
  end
  return out
end

titan.action("blink", {
  legal = function(ctx) return others(ctx, true) end,
  apply = function(ctx, args) ctx:swap(ctx.unit, args.ally) end,
})

titan.action("banish", {
  legal = function(ctx) return others(ctx, false) end,
  apply = function(ctx, args) ctx:remove(args.enemy) end,
})

titan.action("yield", {
  legal = function(ctx) return true end,
  apply = function(ctx)
    if ctx.side == "attacker" then ctx:end_battle("defender") else ctx:end_battle("attacker") end
  end,
})

-- Illegal on purpose: a battle ends once.
titan.action("yield_twice", {
  legal = function(ctx) return true end,
  apply = function(ctx)
    ctx:end_battle("defender")
    ctx:end_battle("attacker")
  end,
})

-- Illegal on purpose: moving onto an occupied hex is a script error.
titan.action("crowd", {
  legal = function(ctx) return others(ctx, true) end,
  apply = function(ctx, args)
    ctx:move(ctx.unit, ctx:get_unit(args.ally).hex)
  end,
})

-- Masterplay: show an enemy legion to everybody; leave the game.
titan.action("unmask", {
  legal = function(ctx)
    local out = {}
    for _, l in ipairs(ctx:legions()) do
      if l.owner ~= ctx.player then out[#out + 1] = l.marker end
    end
    return out
  end,
  apply = function(ctx, args) ctx:reveal(args.legion) end,
})

-- Masterplay: show an enemy legion to the acting player alone.
titan.action("spy", {
  legal = function(ctx)
    local out = {}
    for _, l in ipairs(ctx:legions()) do
      if l.owner ~= ctx.player then out[#out + 1] = l.marker end
    end
    return out
  end,
  apply = function(ctx, args) ctx:reveal(args.legion, ctx.player) end,
})

-- Masterplay: a character from the caretaker joins one of the player's
-- legions (hiring).
titan.action("hire", {
  legal = function(ctx)
    local out = {}
    for _, l in ipairs(ctx:legions()) do
      if l.owner == ctx.player then out[#out + 1] = { l.marker, "Centaur" } end
    end
    return out
  end,
  apply = function(ctx, args) ctx:add_character(args.legion, args.character) end,
})

titan.action("abdicate", {
  legal = function(ctx) return true end,
  apply = function(ctx) ctx:eliminate(ctx.player) end,
})
