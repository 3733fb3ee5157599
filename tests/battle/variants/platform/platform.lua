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

-- Offered while the acting unit may stand on C2 (ctx:may_stand;
-- tests/battle/platform-stand.ron).
titan.action("c2_standable", {
  legal = function(ctx)
    if ctx:may_stand(ctx.unit, "C2") then return true end
    return {}
  end,
  apply = function() end,
})

-- ctx:set_unit strikes and rangestrike_from (tests/battle/platform-strikes.ron,
-- platform-origin.ron).
titan.action("twice", set("strikes", 2))
titan.action("from_d2", set("rangestrike_from", { "D2" }))

-- A carry-over knows the strike's first target (tests/battle/platform-carry.ron).
titan.on("may_target", function(ctx)
  if ctx.carry_from and ctx:get_unit(ctx.carry_from).character == "Gargoyle"
      and ctx:get_unit(ctx.target).character == "Ogre" then
    return false
  end
end)

-- ctx:hexside and ctx:in_contact on the Desert
-- (tests/battle/platform-hexside.ron): A2 is atop dunes on its N (A3) and NE
-- (B3) sides; B2 atop a cliff on its S (B1) side.
titan.action("hexside_probe", {
  legal = always,
  apply = function(ctx)
    local up = ctx:hexside("A3", "A2")
    assert(up.hazard == "Dune" and up.up == true)
    local down = ctx:hexside("A2", "B3")
    assert(down.hazard == "Dune" and down.up == false)
    local plain = ctx:hexside("A1", "A2")
    assert(plain.hazard == nil and plain.up == false)
    assert(ctx:hexside("A1", "A3") == nil)
    -- ctx:in_contact: a dune keeps contact, a cliff (B2 over B1) breaks it.
    assert(ctx:in_contact("A3", "A2") == true)
    assert(ctx:in_contact("B2", "B1") == false)
    assert(ctx:in_contact("A1", "A3") == false)
  end,
})

-- Damage filter (tests/battle/platform-damage.ron): a Ranger takes one hit
-- less of every strike, rangestrike, carry-over and hazard; a Behemoth none
-- of the hazards'.
titan.on("before_damage", function(ctx)
  local c = ctx:get_unit(ctx.unit).character
  if c == "Ranger" then
    ctx.hits = ctx.hits - 1
  elseif c == "Behemoth" and ctx.source == "hazard" then
    assert(ctx.striker == nil)
    ctx.hits = 0
  end
end)

-- (Below the failing helpers above, whose lines tests/scripting.rs names.)

-- ctx:set_unit movement and max_steps, on the battleland or waiting.
local function set_field(field, value)
  return { legal = everyone, apply = function(ctx, args) ctx:set_unit(args.target, field, value) end }
end
titan.action("stride", set_field("movement", 6))
titan.action("short_steps", set_field("max_steps", 2))
titan.action("bad_movement", { legal = always, apply = function(ctx) ctx:set_unit(ctx.unit, "movement", -1) end })
-- A waiting unit (not yet entered) takes a change too.
titan.action("stride_waiting", {
  legal = always,
  apply = function(ctx)
    for _, u in ipairs(ctx:units()) do
      if u.status == "waiting" then ctx:set_unit(u.id, "movement", 6) end
    end
  end,
})

-- unit_moved: a Cyclops takes a hit per hex its move entered (the path's
-- length, not the distance).
titan.on("unit_moved", function(ctx)
  local u = ctx:get_unit(ctx.unit)
  assert(u.hex == ctx.to and u.side == ctx.side)
  if u.character == "Cyclops" then ctx:damage(ctx.unit, ctx.steps) end
end)

-- ctx:set_battleland: the Desert in place of the battleland, as drawn or
-- turned a third of a turn (its A1 then shows at D6); later reads see it.
titan.action("landscape", {
  legal = always,
  apply = function(ctx)
    assert(ctx:get_hex("D4").terrain == "Plains")
    ctx:set_battleland("Desert")
    assert(ctx:get_hex("D4").hazard == "Sand" and ctx:get_hex("D3").hazard == "Plains")
    assert(ctx:get_hex("D4").terrain == "Desert")
  end,
})
titan.action("landscape_turned", {
  legal = always,
  apply = function(ctx)
    ctx:set_battleland("Desert", 1)
    assert(ctx:get_hex("D6").hazard == "Sand" and ctx:get_hex("D3").hazard == "Sand")
  end,
})
titan.action("bad_terrain", { legal = always, apply = function(ctx) ctx:set_battleland("Nowhere") end })
titan.action("bad_turns", { legal = always, apply = function(ctx) ctx:set_battleland("Desert", 3) end })

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

-- After `landscape` (the Desert as drawn), the queries read the new
-- battleland: D4 stands atop cliffs on its D3 side (tests/battle/platform-battleland.ron).
titan.action("landscape_probe", {
  legal = always,
  apply = function(ctx)
    local side = ctx:hexside("D3", "D4")
    assert(side.hazard == "Cliff" and side.up == true, "a cliff up from D3 to D4")
    assert(ctx:in_contact("D3", "D4") == false, "the cliff breaks contact")
    assert(ctx:in_contact("D3", "C3") == true)
  end,
})

-- ctx:reinforcement_round and ctx:set_reinforcement_round
titan.action("reinforce_later", {
  legal = always,
  apply = function(ctx)
    assert(ctx:reinforcement_round() == 4, "the rules' round first")
    ctx:set_reinforcement_round(5)
    -- An effect: the handler still reads the round it began with.
    assert(ctx:reinforcement_round() == 4)
  end,
})
titan.action("reinforcement_round_is_5", {
  legal = always,
  apply = function(ctx) assert(ctx:reinforcement_round() == 5, "moved to 5") end,
})
titan.action("bad_reinforcement_round", {
  legal = always,
  apply = function(ctx) ctx:set_reinforcement_round(0) end,
})

-- ctx:change_side with ctx:set_unit(unit, "bound", true): the unit fights for
-- the other side but belongs to its own legion.
titan.action("bind", {
  legal = enemies,
  apply = function(ctx, args)
    ctx:change_side(args.target)
    ctx:set_unit(args.target, "bound", true)
  end,
})

-- ctx:units{filter}, ctx:count_units{filter}, ctx:unit_field(id, field)
-- (tests/battle/platform-query.ron): units 0 and 1 are the attacker's Troll
-- and Ogre, 2 and 3 the defender's Troll and Angel.
titan.action("query_probe", {
  legal = always,
  apply = function(ctx)
    local trolls = ctx:units{ character = "Troll" }
    assert(#trolls == 2 and trolls[1].id == 0 and trolls[2].id == 2)
    assert(trolls[2].side == "defender" and trolls[2].hex == "F1")
    local mine = ctx:units{ character = "Troll", side = "attacker", status = "on_board", alive = true }
    assert(#mine == 1 and mine[1].id == 0 and mine[1].character == "Troll")
    assert(#ctx:units{ class = "lord" } == 1)
    assert(#ctx:units() == 4 and #ctx:units{} == 4)
    assert(ctx:count_units{ side = "defender" } == 2)
    assert(ctx:count_units{ character = "Ogre", side = "defender" } == 0)
    assert(ctx:count_units{ alive = false } == 0)
    assert(ctx:unit_field(1, "character") == "Ogre")
    assert(ctx:unit_field(2, "side") == "defender")
    assert(ctx:unit_field(3, "class") == "lord")
    assert(ctx:unit_field(0, "hex") == "A1")
    assert(ctx:unit_field(0, "status") == "on_board")
    assert(ctx:unit_field(0, "damage") == 0 and ctx:unit_field(0, "alive") == true)
    assert(ctx:unit_field(3, "flies") == true and ctx:unit_field(9, "damage") == nil)
    -- Reads see the handler's own effects.
    ctx:damage(1, 2)
    assert(ctx:unit_field(1, "damage") == 2 and ctx:units{ character = "Ogre" }[1].damage == 2)
  end,
})
titan.action("bad_filter_field", {
  legal = always, apply = function(ctx) ctx:units{ charcter = "Troll", sides = 1 } end,
})
titan.action("bad_filter_name", {
  legal = always, apply = function(ctx) ctx:count_units{ character = "Trol" } end,
})
titan.action("bad_filter", { legal = always, apply = function(ctx) ctx:units("Troll") end })
titan.action("bad_unit_field", { legal = always, apply = function(ctx) ctx:unit_field(0, "hp") end })

-- Wrong return values (tests/battle/platform-answers.ron): each is reported
-- at the line of the `return` that gave it, or at the function's line when
-- two could have.
titan.action("legal_number", {
  legal = function(ctx)
    if ctx.round > 7 then return {} end
    return 3
  end,
  apply = function(ctx) end,
})
titan.action("apply_value", {
  legal = always,
  apply = function(ctx)
    if ctx.round > 7 then return end
    local answer = ctx.round == 1
    return answer
  end,
})
titan.action("apply_either", {
  legal = always,
  apply = function(ctx)
    if ctx.round == 1 then return "no" end
    return "never"
  end,
})

-- ctx:withdraw and ctx:rejoin (tests/battle/platform-withdraw*.ron).
titan.action("withdraw", {
  legal = everyone,
  apply = function(ctx, args)
    ctx:withdraw(args.target)
    local u = ctx:get_unit(args.target)
    assert(u.status == "withdrawn" and u.hex == nil and not u.alive)
  end,
})
titan.action("rejoin_c4", {
  legal = function(ctx) return ctx:count_units{ side = ctx.side, status = "withdrawn" } > 0 end,
  apply = function(ctx)
    local u = ctx:units{ side = ctx.side, status = "withdrawn" }[1]
    ctx:rejoin(u.id, "C4")
    assert(ctx:get_unit(u.id).hex == "C4" and ctx:get_unit(u.id).status == "on_board")
  end,
})
titan.action("bad_withdraw", {
  legal = always,
  apply = function(ctx)
    -- Each of these is refused with its reason; the last one raises.
    local function fails(f, text)
      local ok, e = pcall(f)
      assert(not ok and tostring(e):find(text, 1, true), tostring(e))
    end
    fails(function() ctx:withdraw(99) end, "unit 99 is not in the battle, alive")
    fails(function() ctx:rejoin(ctx.unit, "C4") end, "is no unit withdrawn from this battle")
    ctx:withdraw(ctx.unit)
    fails(function() ctx:rejoin(ctx.unit, "Z9") end, 'no hex "Z9"')
    ctx:rejoin(ctx.unit, ctx:get_unit(0).hex)
  end,
})
