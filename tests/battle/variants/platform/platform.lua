-- Test actions, each requesting one of the platform's effects.
local function everyone(ctx)
  local out = {}
  for _, u in ipairs(ctx:units()) do
    if u.alive and u.hex then out[#out + 1] = u.id end
  end
  return out
end

local function always() return true end

titan.action("bog", {
  legal = always,
  apply = function(ctx)
    ctx:set_hazard("C2", "Bog", 1)
    -- Later reads in the same handler see the change.
    assert(ctx:get_hex("C2").hazard == "Bog")
  end,
})

titan.action("tree", { legal = always, apply = function(ctx) ctx:set_hazard("C3", "Tree") end })
titan.action("clear", { legal = always, apply = function(ctx) ctx:set_hazard("C3", nil) end })

titan.action("bramble_under", {
  legal = everyone,
  apply = function(ctx, args) ctx:set_hazard(ctx:get_unit(args.target).hex, "Bramble") end,
})

titan.action("drift_under", {
  legal = everyone,
  apply = function(ctx, args) ctx:set_hazard(ctx:get_unit(args.target).hex, "Drift") end,
})

-- Offered only while the hex is plain: scenarios read a hex's hazard.
local function plain(label)
  return function(ctx)
    if ctx:get_hex(label).hazard == "Plains" then return true end
    return {}
  end
end
titan.action("c2_plain", { legal = plain("C2"), apply = function() end })
titan.action("c3_plain", { legal = plain("C3"), apply = function() end })

-- Misuse, each a script error that changes nothing.
titan.action("bad_hex", { legal = always, apply = function(ctx) ctx:set_hazard("Z9", "Bog") end })
titan.action("bad_hazard", { legal = always, apply = function(ctx) ctx:set_hazard("C2", "Nowhere") end })
titan.action("hexside_in_hex", { legal = always, apply = function(ctx) ctx:set_hazard("C2", "Slope") end })
titan.action("bad_rounds", { legal = always, apply = function(ctx) ctx:set_hazard("C2", "Bog", 0) end })

-- ctx:change_side and ctx:add_unit.
local function enemies(ctx)
  local out = {}
  for _, u in ipairs(ctx:units()) do
    if u.alive and u.hex and u.side ~= ctx.side then out[#out + 1] = u.id end
  end
  return out
end
titan.action("turn", { legal = enemies, apply = function(ctx, args) ctx:change_side(args.target) end })
titan.action("conjure", {
  legal = always,
  apply = function(ctx)
    ctx:add_unit(ctx.side, "Ogre", "C2", true)
    -- The new unit is the last one, seen at once.
    local units = ctx:units()
    assert(units[#units].hex == "C2" and units[#units].side == ctx.side)
  end,
})
titan.action("hire", { legal = always, apply = function(ctx) ctx:add_unit(ctx.side, "Ogre", "C3", false) end })
titan.action("add_bad_hex", { legal = always, apply = function(ctx) ctx:add_unit(ctx.side, "Ogre", "Z9", true) end })
titan.action("add_occupied", {
  legal = always,
  apply = function(ctx) ctx:add_unit(ctx.side, "Ogre", ctx:get_unit(ctx.unit).hex, true) end,
})
titan.action("add_unknown", { legal = always, apply = function(ctx) ctx:add_unit(ctx.side, "Nobody", "C2", true) end })
titan.action("turn_slain", {
  legal = enemies,
  apply = function(ctx, args)
    ctx:kill(args.target)
    ctx:change_side(args.target) -- slain by the line above: an error
  end,
})
titan.action("turn_nobody", { legal = always, apply = function(ctx) ctx:change_side(99) end })

-- ctx:set_unit: one field each.
local function set(field, value)
  return { legal = everyone, apply = function(ctx, args) ctx:set_unit(args.target, field, value) end }
end
titan.action("ground", set("flies", false))
titan.action("bog_native", set("natives", { "Bog" }))
titan.action("slow", set("skill", 1))
titan.action("root", set("may_move", false))
titan.action("pacify", set("may_strike", false))
titan.action("weaken", {
  legal = everyone,
  apply = function(ctx, args)
    ctx:set_unit(args.target, "power", 2)
    assert(ctx:get_unit(args.target).power == 2)
  end,
})
titan.action("bad_field", { legal = always, apply = function(ctx) ctx:set_unit(ctx.unit, "wings", true) end })
titan.action("bad_value", { legal = always, apply = function(ctx) ctx:set_unit(ctx.unit, "flies", 3) end })
titan.action("bad_native", { legal = always, apply = function(ctx) ctx:set_unit(ctx.unit, "natives", { "Nowhere" }) end })

-- ctx:set_round
titan.action("last_round", { legal = always, apply = function(ctx) ctx:set_round(7) end })
titan.action("bad_round", { legal = always, apply = function(ctx) ctx:set_round(8) end })

-- Strike controls: nobody may strike or rangestrike a Unicorn
-- (may_target), and a Cyclops's strikes never carry over (before_strike).
titan.on("may_target", function(ctx)
  if ctx:get_unit(ctx.target).character == "Unicorn" then return false end
end)
titan.on("before_strike", function(ctx)
  if ctx:get_unit(ctx.unit).character == "Cyclops" then ctx.carry_over = false end
end)

-- Fails two calls deep: the error names this line, the traceback the callers.
local function inner() error("deep failure") end
local function outer() inner() end
titan.action("deep_fail", { legal = always, apply = function(ctx) outer() end })

-- Bad answers (tests/battle/platform-answers.ron): a may_target handler
-- answering with a string, and a phase handler returning a value that
-- would be ignored, both while a Hydra is on the battleland.
local function hydra(ctx)
  for _, u in ipairs(ctx:units()) do
    if u.character == "Hydra" and u.alive then return true end
  end
  return false
end
titan.on("may_target", function(ctx)
  if ctx:get_unit(ctx.target).character == "Hydra" then return "never" end
end)
titan.on("battle_phase_end", function(ctx)
  if hydra(ctx) then return false end
end)
