-- The spells of 15.6 that change the battleland, the time or who fights
-- (Create hazard, Footsore, Timewarp, Homeland, Summon, Deadlock, Slavery),
-- on the platform's set_hazard, set_unit, set_round, add_unit and
-- change_side effects. README.md, "Spells", gives each reading.

local may_cast, spend_spell = got.may_cast, got.spend_spell

-- A spell with no parameter, cast as `spell` (its grade and counter) under
-- the action `name`.
local function plain_spell(name, spell, apply)
  titan.action(name, {
    legal = function(ctx) return may_cast(ctx, spell) end,
    apply = function(ctx)
      spend_spell(ctx, spell)
      apply(ctx)
    end,
  })
end

-- Create hazard: "A hazard will emerge in an unoccupied hex on the
-- Battleland, replace an already existing hazard or remove one. This refers
-- only to hexes, not to hexsides." The hazard is chosen by number from the
-- hex hazards of hazards.ron (0 = Plain, the removal), for the rest of the
-- battle (the chart gives no end).
got.HEX_HAZARDS = {
  [0] = "Plain", "Tree", "Sand", "Bog", "Bramble", "Fog", "Hedge", "Drift", "Volcano", "Beach",
  "Water", "Darkness", "Cloud",
}

titan.action("create_hazard", {
  legal = function(ctx)
    if not may_cast(ctx, "create_hazard") then return {} end
    local out = {}
    for _, label in ipairs(got.HEXES) do
      local h = ctx:get_hex(label)
      if h and h.unit == nil then
        for n = 0, #got.HEX_HAZARDS do
          if got.HEX_HAZARDS[n] ~= h.hazard then out[#out + 1] = { label, n } end
        end
      end
    end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "create_hazard")
    local name = got.HEX_HAZARDS[args.hazard]
    if name == "Plain" then name = nil end
    ctx:set_hazard(args.hex, name, nil)
  end,
})

-- Whether `ctx:set_unit` reaches `u` now: alive on the battleland (riding
-- too) or still to enter, which then holds for its entering move.
local function settable(u)
  return u.alive and (u.hex ~= nil or u.status == "waiting")
end

-- Footsore: "All characters of the Caster's Legion gain flying ability for
-- the rest of the Battle" (EN 939; DE 2321-2322: "Alle Figuren der eigenen
-- Armee"): every character of the legion, on the battleland or still to
-- enter (it flies in: `spell-footsore-enter.ron`).
plain_spell("footsore", "footsore", function(ctx)
  for _, u in ipairs(got.in_legion(ctx, ctx.side)) do
    ctx:set("footsore", u.id, true)
    if settable(u) then ctx:set_unit(u.id, "flies", true) end
  end
end)

-- Homeland: "All characters in the Caster's Legion become native to all
-- hazards in the Battleland for the rest of the Battle" (EN 949, DE
-- 2341-2342), those still to enter too (`spell-homeland-enter.ron`).
plain_spell("homeland", "homeland", function(ctx)
  for _, u in ipairs(got.in_legion(ctx, ctx.side)) do
    ctx:set("homeland", u.id, true)
    if settable(u) then ctx:set_unit(u.id, "natives", "all") end
  end
end)

-- Timewarp: "The Battle-Round Marker may be moved either a place forward or
-- a place back" (two actions, one spell), within the rounds of the battle
-- (rules.ron: 7). The defender's one reinforcement is the engine's
-- bookkeeping (set_round keeps it). "If it is skipped, the defender may take
-- his reinforcement in the fifth Battle-Round" (EN 945): a spell is cast in
-- a strike phase, after the defender's maneuver of this round, so the
-- defender's maneuver of the round moved to is never played; when it is the
-- reinforcement's, the reinforcement comes a round later.
local LAST_ROUND = 7
titan.action("timewarp_forward", {
  legal = function(ctx) return may_cast(ctx, "timewarp") and ctx.round < LAST_ROUND end,
  apply = function(ctx)
    spend_spell(ctx, "timewarp")
    local skipped = ctx.round + 1
    ctx:set_round(skipped)
    if ctx:reinforcement_round() == skipped and skipped < LAST_ROUND then
      ctx:set_reinforcement_round(skipped + 1)
    end
  end,
})
titan.action("timewarp_back", {
  legal = function(ctx) return may_cast(ctx, "timewarp") and ctx.round > 1 end,
  apply = function(ctx)
    spend_spell(ctx, "timewarp")
    ctx:set_round(ctx.round - 1)
  end,
})

-- Summon: "A red Demon is summoned to an unoccupied hex it is capable of
-- staying in ... During each Strike Phase it receives one point of damage.
-- If it's slain by this damage, it may still strike in that Strike Phase.
-- Even if the Demon survives the Battle, it is removed from the Caster's
-- Legion." A temporary unit (no counter from the caretaker, gone at the
-- battle's end); its hit comes at the end of every strike phase, after the
-- strikes (the same strikes, as Drift's hit).
titan.action("summon", {
  legal = function(ctx)
    if not may_cast(ctx, "summon") then return {} end
    local out = {}
    for _, h in ipairs(got.free_hexes_for(ctx, "Demon")) do out[#out + 1] = h.label end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "summon")
    local id = ctx:add_unit(ctx.side, "Demon", args.hex, true)
    if id == nil then id = ctx:get_hex(args.hex).unit end
    ctx:set("summoned", id, true)
  end,
})

-- Deadlock: "All enemy characters are bound to the ground (flying become
-- non-flying). For each hex they move they receive one point of damage. If
-- they have only one point left, they can't move on." Readings: a hit per
-- hex the move entered (`unit_moved`'s steps, the shortest legal path;
-- entering counts its hexes, 12.2), and a move may enter at most one hex
-- fewer than the character's life left (`max_steps`, set when its maneuver
-- phase starts), so it stops with one point left and, with one point left,
-- stays. Every enemy character: those still to enter too, which walk in
-- and pay for the hexes their entering move enters
-- (`spell-deadlock-enter.ron`).
plain_spell("deadlock", "deadlock", function(ctx)
  for _, u in ipairs(got.in_legion(ctx, got.enemy_of(ctx.side))) do
    if got.spell_target(u) then
      ctx:set("deadlocked", u.id, true)
      if settable(u) then ctx:set_unit(u.id, "flies", false) end
    end
  end
end)

titan.on("unit_moved", { unit = { set = "deadlocked" } }, function(ctx)
  if ctx.steps > 0 and ctx:get("deadlocked", ctx.unit) then ctx:damage(ctx.unit, ctx.steps) end
end)

-- Landscaping (EN 957, DE 2358-2365): "The entire Battleland is replaced by
-- another. The new Battleland is aligned as chosen by the Caster, however
-- all characters stay in their previous positions. All characters thus
-- placed on a hazard on which they normally can't stand lose a Skill-factor
-- and receives one point of damage each Strike Phase, as long as they stay
-- in that hazard." Readings: "another" is another terrain's battleland
-- (terrains.ron order), turned by thirds (the board maps onto itself so);
-- "can't stand" is a hex hazard that forbids them entry (got.may_stand,
-- Homeland's natives excepted); the hit comes once per strike phase (13.0:
-- the strikes and strikebacks), when it ends, as Summon's; the skill
-- factor comes back when the character leaves the hex.
got.TERRAINS = {
  "Brush", "Plains", "Marsh", "Valley", "Woods", "Hills", "Jungle", "Desert", "Swamp", "Highlands",
  "Tundra", "Mountains", "Tower", "Ruin", "Fort", "Citytower", "Darktower", "Coast", "Sea", "Darkland",
  "Wasteland", "City", "Dungeon",
}

titan.action("landscaping", {
  legal = function(ctx)
    if not may_cast(ctx, "landscaping") then return {} end
    local now = ctx:get_hex("A1").terrain
    local out = {}
    for n, name in ipairs(got.TERRAINS) do
      if name ~= now then
        for turns = 0, 2 do out[#out + 1] = { n, turns } end
      end
    end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "landscaping")
    ctx:set_battleland(got.TERRAINS[args.terrain], args.turns)
    for _, u in ipairs(got.on_board(ctx)) do
      local h = ctx:get_hex(u.hex)
      local stranded = not got.may_stand(u.character, h) and not ctx:get("homeland", u.id)
      local was = ctx:get("stranded", u.id)
      if stranded and was == "" then
        ctx:set_unit(u.id, "skill", math.max(u.skill - 1, 0))
        ctx:set("stranded", u.id, u.hex)
      elseif not stranded and was ~= "" then
        ctx:set_unit(u.id, "skill", u.skill + 1)
        ctx:set("stranded", u.id, "")
      end
    end
  end,
})

-- A stranded character that left its hex has its skill factor back.
local function strand_check(ctx, units)
  for _, u in ipairs(units) do
    local at = ctx:get("stranded", u.id)
    if at ~= "" and u.alive and u.hex ~= at then
      if u.hex then ctx:set_unit(u.id, "skill", u.skill + 1) end
      ctx:set("stranded", u.id, "")
    end
  end
end

-- Footsore, Homeland and Deadlock hold for the rest of the battle: a
-- character of the legion that `set_unit` did not reach when the spell was
-- cast gets them when it enters.
titan.on("unit_entered", {
  unit = { { set = "footsore" }, { set = "homeland" }, { set = "deadlocked" } },
}, function(ctx)
  if ctx:get("footsore", ctx.unit) then ctx:set_unit(ctx.unit, "flies", true) end
  if ctx:get("homeland", ctx.unit) then ctx:set_unit(ctx.unit, "natives", "all") end
  if ctx:get("deadlocked", ctx.unit) then ctx:set_unit(ctx.unit, "flies", false) end
end)

-- Whether `side` has a living character that is not enslaved (in its
-- legion: waiting, entering or on the battleland), `but` not counted.
local function has_free_but(ctx, side, but)
  for _, u in ipairs(got.in_legion(ctx, side)) do
    if u.id ~= but and u.alive and not ctx:get("enslaved", u.id) then return true end
  end
  return false
end
local function has_free(ctx, side) return has_free_but(ctx, side, nil) end

-- Slavery: "the Caster takes control over an enemy character and uses it as
-- its own for the rest of the Battle. If the enemy Legion wins and the
-- enslaved character survives, it follows its original Legion again. If the
-- Caster's Legion wins the Battle the enslaved character is slain and
-- scored accordingly."
titan.action("slavery", {
  legal = function(ctx)
    if not may_cast(ctx, "slavery") then return {} end
    local out = {}
    for _, u in ipairs(got.enemy_targets(ctx)) do
      -- A Pegasus carrying a rider (16.5) takes it along: not one character.
      if ctx:rider_of(u.id) == nil then out[#out + 1] = u.id end
    end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "slavery")
    if has_free_but(ctx, got.enemy_of(ctx.side), args.target) then
      ctx:change_side(args.target)
      -- Still of its own legion: a concession or time loss of the caster's
      -- side spares it and sends it back; the caster's side winning slays it
      -- (the engine's `bound`, at any end of the battle).
      ctx:set_unit(args.target, "bound", true)
      ctx:set("enslaved", args.target, true)
    else
      -- The enemy's last character: the caster's legion wins at once, and
      -- the enslaved character is slain and scored.
      ctx:kill(args.target)
    end
  end,
})


-- Slavery's end, checked when a phase ends (before the slain are removed and
-- the engine sees a side with nobody left): an enslaved character whose
-- master side has nobody else goes back to its own legion (the enemy has
-- won); one whose own legion has nobody else is slain (the slain count for
-- the legion they came from, so the caster's side scores it).
local function slavery_end(ctx)
  for _, u in ipairs(ctx:units()) do
    if u.alive and ctx:get("enslaved", u.id) then
      local own = got.enemy_of(u.side)
      if not has_free(ctx, u.side) then
        ctx:change_side(u.id)
        ctx:set("enslaved", u.id, false)
      elseif not has_free(ctx, own) then
        ctx:kill(u.id)
      end
    end
  end
end

titan.on("battle_phase_start", { phase = "maneuver", unit = { set = "deadlocked" } }, function(ctx)
  for _, u in ipairs(got.in_legion(ctx, ctx.side)) do
    local cap = (u.status == "waiting" or u.status == "on_board") and got.deadlock_cap(ctx, u)
    if cap then ctx:set_unit(u.id, "max_steps", cap) end
  end
end)

titan.on("battle_phase_end", {
  unit = { { set = "stranded" }, { set = "summoned" }, { set = "enslaved" } },
}, function(ctx)
  local units = got.on_board(ctx)
  strand_check(ctx, units)
  if ctx.phase == "strike" and ctx.side ~= ctx.moving then
    -- Summon: the Demon's hit of this strike phase (the strikebacks end it);
    -- Landscaping: a stranded character's.
    for _, u in ipairs(units) do
      local hits = 0
      if ctx:get("summoned", u.id) then hits = hits + 1 end
      if ctx:get("stranded", u.id) == u.hex then hits = hits + 1 end
      if hits > 0 then ctx:damage(u.id, hits) end
    end
  end
  slavery_end(ctx)
end)
