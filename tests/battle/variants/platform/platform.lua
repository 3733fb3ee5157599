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
