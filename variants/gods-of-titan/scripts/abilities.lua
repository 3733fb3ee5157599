-- The special abilities of 16.5 the platform can run: the single-use
-- abilities of Creatures as variant actions (actions.ron, once per battle by
-- their `limit`), the Necromancer's drain, and the permanent abilities that
-- change strikes as before_strike / after_strike handlers. README.md,
-- "Special abilities", lists every ability and what the others still need.

-- The enemies a single-use ability reaches: a stone Basilisk "is
-- vulnerable only by magic" (16.5 Stone Cold), and these abilities are none.
local function ability_targets(ctx, id)
  local out = {}
  for _, u in ipairs(got.on_board(ctx, got.enemy_of(ctx:get_unit(id).side))) do
    if not ctx:get("stone", u.id) then out[#out + 1] = u end
  end
  return out
end

-- An ability's hits at a unit: 12.7 Darkness (DE 2114: "Jeder Schaden, der
-- auf eine Figur in der Dunkelheit verursacht wurde, wird um 1 reduziert"):
-- one less at a character in darkness, as a strike's (targets.lua), unless
-- `magic` (the Necromancer's drain, "like a magic rangestrike": 14.5, EN
-- 379, magic is never affected by hazards); the platform does not filter
-- script damage.
local function ability_hits(ctx, id, hits, magic)
  local u = ctx:get_unit(id)
  if not magic and u.hex and ctx:get_hex(u.hex).hazard == "Darkness" then hits = hits - 1 end
  if hits > 0 then ctx:damage(id, hits) end
end

-- The adjacent enemies of a unit, on the battleland ("adjacent" counts
-- across cliffs: Flameburst says so, and distance ignores hexsides).
local function adjacent_enemies(ctx, id)
  local out = {}
  for _, u in ipairs(ability_targets(ctx, id)) do
    if ctx:distance(id, u.id) == 1 then out[#out + 1] = u end
  end
  return out
end

-- The enemies in contact with a unit (12.7 Cliff: "Adjacent characters are
-- not in contact with each other" across a cliff): Final Blow, Fear, Cuff.
local function contact_enemies(ctx, id)
  local out = {}
  for _, u in ipairs(ability_targets(ctx, id)) do
    if ctx:in_contact(id, u.id) then out[#out + 1] = u end
  end
  return out
end

-- Reaper's Call: "Any enemy character is slain by the Deathbringer. The
-- Deathbringer takes twice as many points of damage as it needs to slay the
-- character" and "must survive" them: offered only for a target whose
-- remaining life, doubled, is less than the Deathbringer's own.
titan.action("reapers_call", {
  legal = function(ctx)
    if not got.own_strike_phase(ctx) then return {} end
    local me = ctx:get_unit(ctx.unit)
    local out = {}
    for _, u in ipairs(ability_targets(ctx, ctx.unit)) do
      if 2 * got.life_left(u) < got.life_left(me) then out[#out + 1] = u.id end
    end
    return out
  end,
  apply = function(ctx, args)
    local cost = 2 * got.life_left(ctx:get_unit(args.target))
    ctx:kill(args.target)
    ctx:damage(ctx.unit, cost)
  end,
})

-- Final Blow: "When the Demon announces the use of the Final Blow, strikes a
-- character and slays it, it is itself cured for the same amount of damage
-- as it caused in its attack ... If the Demon fails to slay its opponent the
-- Final Blow is wasted" (EN 975); DE 2403-2404: "Der Demon regeneriert
-- durch das Schlagen eines Gegners die Anzahl der noch zu setzenden Treffer
-- in Lebenspunkten": cured by the hits still to place once the target is
-- slain (those a carry-over would have taken), not by every hit. Declared by
-- the action, spent by the Demon's next strike (after_strike), or at the end
-- of the phase if it does not strike.
titan.action("final_blow", {
  legal = function(ctx)
    return got.own_strike_phase(ctx) and #contact_enemies(ctx, ctx.unit) > 0
      and ctx:get_unit(ctx.unit).strikes_left > 0
  end,
  apply = function(ctx)
    ctx:set("final_blow_armed", ctx.unit, true)
  end,
})

-- Fear (DE 2409): "dürfen alle angrenzenden gegnerischen Figuren ihren
-- nächsten Rückschlag nur mit der Hälfte ihrer Stärke (abgerundet)
-- ausführen": every adjacent enemy's next strike at half power.
titan.action("fear", {
  legal = function(ctx)
    return got.own_strike_phase(ctx) and #contact_enemies(ctx, ctx.unit) > 0
  end,
  apply = function(ctx)
    for _, u in ipairs(contact_enemies(ctx, ctx.unit)) do ctx:set("feared", u.id, true) end
  end,
})

-- Flameburst: "All adjacent enemy characters suffer an additional point of
-- damage ... also ... separated from the Phoenix by a cliff."
titan.action("flameburst", {
  legal = function(ctx)
    return got.own_strike_phase(ctx) and #adjacent_enemies(ctx, ctx.unit) > 0
  end,
  apply = function(ctx)
    for _, u in ipairs(adjacent_enemies(ctx, ctx.unit)) do ability_hits(ctx, u.id, 1) end
  end,
})

-- Cuff: "one point of extra damage in addition to the normal attack":
-- 1 hit to an enemy the Plaque is in contact with, its strike kept.
titan.action("cuff", {
  legal = function(ctx)
    if not got.own_strike_phase(ctx) then return {} end
    local out = {}
    for _, u in ipairs(contact_enemies(ctx, ctx.unit)) do out[#out + 1] = u.id end
    return out
  end,
  apply = function(ctx, args)
    ability_hits(ctx, args.target, 1)
  end,
})

-- Necromancer: "At the start of its own Strike Phase the Necromancer causes
-- one of the enemy characters one point of damage in addition to its normal
-- attack. Simultaneously his Power-factor increases by 1 ... he starts each
-- Battle with his initial Power-factor of 6. This ability is considered like
-- a magic rangestrike without restrictions in distance." Once per own strike
-- phase, before any of its side has struck in it; not at a Master (3.2:
-- immune to magic). The power gained is its power (set_unit).
titan.action("drain", {
  legal = function(ctx)
    if not got.own_strike_phase(ctx) then return {} end
    local key = got.phase_key(ctx)
    if ctx:get("drain_key", ctx.unit) == key or ctx:get("side_struck", ctx.unit) == key then return {} end
    local out = {}
    for _, u in ipairs(got.on_board(ctx, got.enemy_of(ctx.side))) do
      if u.class ~= "master" then out[#out + 1] = u.id end
    end
    return out
  end,
  apply = function(ctx, args)
    ctx:set("drain_key", ctx.unit, got.phase_key(ctx))
    -- Its Power-factor itself (dice, views, the hits it takes to slay).
    ctx:set_unit(ctx.unit, "power", ctx:get_unit(ctx.unit).power + 1)
    ability_hits(ctx, args.target, 1, true)
  end,
})

-- The class bonuses of the Guardian (16.5): "Humans +1, Demigods +2,
-- Elementals +3, Lords +4, Masters +5. Only the highest bonus counts."
local GUARDIAN = { human = 1, demilord = 2, elemental = 3, lord = 4, master = 5 }

-- The Guardian's bonus from the characters of its side now but itself.
local function guardian_best(ctx, s)
  local best = 0
  for _, u in ipairs(ctx:units()) do
    if u.side == s.side and u.id ~= s.id and u.status ~= "removed" and (GUARDIAN[u.class] or 0) > best then
      best = GUARDIAN[u.class]
    end
  end
  return best
end

-- Guardian (EN 1015, DE 2497-2501) and Jabberwok (EN 1019, DE 2509-2512):
-- their Power-factor grows, so their dice (13.2), half of it as
-- rangestrike dice (14.1) and their life (3.9, EN 87: "the number of hits
-- it must receive before it is slain") grow with it: the power itself
-- (`set_unit(power)`, from the chart's), set once for the battle when its
-- first phase begins (a unit still to enter takes it too), or, for a
-- Jabberwok summoned later (16.5: "in place of a Lord"), when the next
-- phase begins. The Guardian's bonus is its legion's "at the beginning of
-- the Battle" (those slain since still count), so a Lord summoned (18.1)
-- or a character enslaved later adds nothing
-- (`ability-guardian-beginning.ron`); the Jabberwok's is the enemy
-- legion's: "In a Battle against a Legion containing an Elemental its
-- Power-factor is doubled to 8" (`ability-guardian-jabberwok-life.ron`).
local function grown_power(ctx, u)
  local base = ctx:get_character(u.character).power
  if u.character == "Guardian" then return base + guardian_best(ctx, u) end
  if ctx:count_units({ side = got.enemy_of(u.side), class = "elemental" }) > 0 then return 2 * base end
  return base
end

titan.on("battle_phase_start", { unit = { character = { "Guardian", "Jabberwok" }, alive = true } }, function(ctx)
  for _, u in ipairs(ctx:units({ alive = true })) do
    if (u.character == "Guardian" or u.character == "Jabberwok") and not ctx:get("grown", u.id)
        and (u.hex or u.status == "waiting") then
      local power = grown_power(ctx, u)
      if power ~= u.power then ctx:set_unit(u.id, "power", power) end
      ctx:set("grown", u.id, true)
    end
  end
end)

-- Stone Cold (EN 971): a Basilisk stone when a strike phase begins takes
-- no Drift hit for it (12.7, EN 817: "at the start of each Strike Phase";
-- the engine deals it at the phase's end): "vulnerable only by magic".
titan.on("battle_phase_start", { phase = "strike", unit = { set = "stone" } }, function(ctx)
  -- (The strikeback's start is not the strike phase's.)
  if ctx.side ~= ctx.moving then return end
  for _, u in ipairs(ctx:units()) do
    if ctx:get("stone", u.id) then ctx:set("stone_phase", u.id, got.phase_key(ctx)) end
  end
end)

titan.on("before_damage", { source = "hazard", unit = { set = "stone_phase" } }, function(ctx)
  if ctx:get("stone_phase", ctx.unit) == got.phase_key(ctx) then
    ctx.hits = 0
  end
end)

-- 16.4: a Human's ability in the striker's legion (Priest: +1 die to its
-- Creatures' strikes; Priestess: +1 die to their rangestrikes).
local function legion_has(ctx, side, character)
  for _, u in ipairs(ctx:units({ side = side, character = character })) do
    if u.status ~= "slain" and u.status ~= "removed" then return true end
  end
  return false
end

-- (Called only where one of these characters, or a feared one, is in the
-- battle.)
titan.on("before_strike", {
  unit = { { character = { "Priest", "Priestess" } }, { set = "feared" } },
}, function(ctx)
  if ctx.cancel then return end
  local s = ctx:get_unit(ctx.unit)
  if got.is_creature(s) then
    if not ctx.ranged and legion_has(ctx, s.side, "Priest") then ctx.dice = ctx.dice + 1 end
    if ctx.ranged and legion_has(ctx, s.side, "Priestess") then ctx.dice = ctx.dice + 1 end
  end
  -- Fear: this strike is at half power (its dice less the other half).
  if ctx:get("feared", s.id) then
    ctx:set("feared", s.id, false)
    ctx.dice = math.max(0, ctx.dice - (s.power - s.power // 2))
  end
end)

titan.on("after_strike", {
  unit = { { character = { "Basilisk", "Necromancer" } }, { set = "final_blow_armed" } },
}, function(ctx)
  local s = ctx:get_unit(ctx.unit)
  -- Stone Cold: the Basilisk's last strike, which it may take back.
  if s.character == "Basilisk" then
    ctx:set("last_strike", s.id, got.phase_key(ctx))
    ctx:set("last_target", s.id, ctx.target)
    ctx:set("last_hits", s.id, ctx.hits - ctx.carry)
  end
  -- Necromancer: its side has struck in this phase, so no drain now.
  local key = got.phase_key(ctx)
  for _, u in ipairs(ctx:units({ side = s.side, character = "Necromancer", alive = true })) do
    ctx:set("side_struck", u.id, key)
  end
  -- Final Blow, spent by this strike: the hits still to place once the
  -- target was slain (its strike carries nothing over) cure the Demon.
  if ctx:get("final_blow_armed", s.id) then
    ctx:set("final_blow_armed", s.id, false)
    local t = ctx:get_unit(ctx.target)
    if not ctx.ranged and not t.alive and s.damage > 0 then
      local dealt = ctx.hits
      -- (12.7 Darkness: a strike at a character in darkness deals one less.)
      if t.hex and ctx:get_hex(t.hex).hazard == "Darkness" and dealt > 0 then dealt = dealt - 1 end
      local spare = dealt - ctx:get("final_blow_need", s.id)
      if spare > 0 then ctx:heal(s.id, math.min(spare, s.damage)) end
    end
  end
end)

-- Final Blow: the life its target has left when the strike rolls, so that
-- the hits to spare are known after it.
titan.on("before_strike", { ranged = false, unit = { set = "final_blow_armed" } }, function(ctx)
  if ctx:get("final_blow_armed", ctx.unit) then
    ctx:set("final_blow_need", ctx.unit, got.life_left(ctx:get_unit(ctx.target)))
  end
end)

-- A declared Final Blow the Demon did not strike with is wasted at the end
-- of the phase.
titan.on("battle_phase_end", { phase = "strike", unit = { set = "final_blow_armed" } }, function(ctx)
  for _, u in ipairs(ctx:units({ character = "Demon" })) do
    if ctx:get("final_blow_armed", u.id) then ctx:set("final_blow_armed", u.id, false) end
  end
end)

-- Decoy: "Creates a Tree hazard in an adjacent, unoccupied hex for one
-- Battle-Round. The tree lasts until the Unicorn's next Maneuver Phase
-- starts." The hex's hazard before is kept and put back then.
titan.action("decoy", {
  legal = function(ctx)
    if not got.own_strike_phase(ctx) then return {} end
    local out = {}
    for _, label in ipairs(got.HEXES) do
      local h = ctx:get_hex(label)
      if h and h.unit == nil and h.hazard ~= "Tree" and ctx:distance(ctx.unit, label) == 1 then
        out[#out + 1] = label
      end
    end
    return out
  end,
  apply = function(ctx, args)
    ctx:set("decoy_was", ctx.unit, ctx:get_hex(args.hex).hazard)
    ctx:set("decoy_hex", ctx.unit, args.hex)
    ctx:set_hazard(args.hex, "Tree", nil)
  end,
})

-- Stone Cold (DE 2395: "Nach jeder Attacke kann sich der Basilisk
-- entscheiden, ob er den Würfelwurf akzeptiert oder ihn komplett verwirft
-- und sich versteinert"): after its own strike the Basilisk takes back the
-- hits it dealt and turns to stone until its next maneuver phase: it
-- neither moves nor strikes, and only magic (magic rangestrikes, spells)
-- hurts it. Offered only while the target of that strike lives (a slain
-- character is not brought back).
titan.action("stone_cold", {
  legal = function(ctx)
    if not got.own_strike_phase(ctx) then return false end
    if ctx:get("last_strike", ctx.unit) ~= got.phase_key(ctx) then return false end
    local t = ctx:get_unit(ctx:get("last_target", ctx.unit))
    return t ~= nil and t.alive
  end,
  apply = function(ctx)
    local hits = ctx:get("last_hits", ctx.unit)
    local t = ctx:get_unit(ctx:get("last_target", ctx.unit))
    if hits > 0 and t.hex then ctx:heal(t.id, math.min(hits, t.damage)) end
    ctx:set("stone", ctx.unit, true)
    ctx:set_unit(ctx.unit, "may_move", false)
    ctx:set_unit(ctx.unit, "may_strike", false)
  end,
})

-- A stone Basilisk is hurt by magic only: targets.lua refuses the rest.

-- Warlord (16.5, EN 1003, DE 2458): "increases the Movement-factor of any
-- Creature in his Legion by 1 (12.3)"; 12.3 (EN 304, DE 859-864): characters
-- of skill 5 and Creatures of skill 4 in a Warlord's legion "may move only
-- a maximum of 4 hexes. Nevertheless they possess a movement allowance of
-- 5", so a hazard that slows them once still lets them enter 4 hexes. Set
-- when the side's maneuver phase starts, for every character of the legion
-- (those still to enter too), while a Warlord of it lives; the strike skill
-- is not changed (`movement` is apart from it).
local WARLORD_CAP = 4
local function warlord_march(ctx, units)
  local warlord = false
  for _, u in ipairs(units) do
    if u.side == ctx.side and u.character == "Warlord" and u.alive
      and (u.status == "waiting" or u.status == "on_board" or u.status == "riding") then
      warlord = true
    end
  end
  for _, u in ipairs(units) do
    if u.side == ctx.side and u.alive and (u.status == "waiting" or u.status == "on_board") then
      local creature = got.is_creature(u)
      local capped = u.skill == 5 or (creature and u.skill == 4)
      -- Deadlock's cap (field.lua, set before) stands where it is lower.
      local deadlock = got.deadlock_cap(ctx, u)
      if warlord and (creature or capped) then
        ctx:set_unit(u.id, "movement", creature and u.skill + 1 or u.skill)
        if capped then ctx:set_unit(u.id, "max_steps", math.min(WARLORD_CAP, deadlock or WARLORD_CAP)) end
        ctx:set("warlord_march", u.id, true)
      elseif not warlord and ctx:get("warlord_march", u.id) then
        -- The Warlord is gone: their own skill again, no cap.
        ctx:set_unit(u.id, "movement", u.skill)
        ctx:set_unit(u.id, "max_steps", deadlock or 255)
        ctx:set("warlord_march", u.id, false)
      end
    end
  end
end

titan.on("battle_phase_start", {
  phase = "maneuver", unit = { { character = "Warlord" }, { set = "warlord_march" } },
}, function(ctx)
  warlord_march(ctx, ctx:units())
end)

titan.on("battle_phase_start", {
  phase = "maneuver", unit = { { set = "decoy_hex", side = "event" }, { set = "stone", side = "event" } },
}, function(ctx)
  for _, u in ipairs(ctx:units({ side = ctx.side })) do
    -- Decoy: the tree is gone when the Unicorn's maneuver phase starts.
    local hex = ctx:get("decoy_hex", u.id)
    if hex ~= "" then
      local was = ctx:get("decoy_was", u.id)
      if was == "Plain" then was = nil end
      if ctx:get_hex(hex).hazard == "Tree" then ctx:set_hazard(hex, was, nil) end
      ctx:set("decoy_hex", u.id, "")
    end
    -- Stone Cold ends.
    if ctx:get("stone", u.id) then
      ctx:set("stone", u.id, false)
      if u.alive and u.hex then
        ctx:set_unit(u.id, "may_move", true)
        ctx:set_unit(u.id, "may_strike", true)
      end
    end
  end
end)

-- 16.5 God: "it can neither attack nor move" (its strikes roll no dice,
-- god_auto_hit); once on the battleland it stays where it is.
titan.on("battle_phase_start", { phase = "maneuver", unit = { character = "God", alive = true } }, function(ctx)
  for _, u in ipairs(ctx:units({ character = "God", alive = true })) do
    if u.hex then ctx:set_unit(u.id, "may_move", false) end
  end
end)

-- 12.7 Tree (EN 749, 751; DE 2040-2041: "Pixies auf einem Baum müssen
-- zweimal pro eigener Schlagphase attackieren (nicht im Rückschlag)"): a
-- Pixie standing on a Tree when its side's own strike phase begins strikes
-- (or rangestrikes) twice in it; both are obliged while in contact.
titan.on("battle_phase_start", {
  phase = "strike", unit = { character = "Pixie", status = "on_board", side = "event" }, hazard = "Tree",
}, function(ctx)
  if ctx.side ~= ctx.moving then return end
  for _, u in ipairs(got.on_board(ctx, ctx.side)) do
    if u.character == "Pixie" and ctx:get_hex(u.hex).hazard == "Tree" then
      ctx:set_unit(u.id, "strikes", 2)
    end
  end
end)

-- Pegasus, 16.5 (EN 1025, DE 2523-2531): "Every character except Creatures
-- may ride the Pegasus. When a character is riding the Pegasus both it and
-- the Pegasus is placed on the same hex on the Battleland, and both
-- characters are moved together with the Movement-factor of the Pegasus.
-- Nevertheless both strike separately with their own Battle-factors. The
-- rider may be attacked only after the Pegasus is slain. The Pegasus and its
-- rider are never locked in melee combat and may always move." The
-- platform's rider relation (ctx:mount, docs/scripting.md "Riders and
-- mounts") carries the rider, lets it strike from the Pegasus's hex and
-- keeps it out of every strike, rangestrike and spell until the Pegasus
-- leaves. Our reading (README, "Special abilities"): the Pegasus's side
-- chooses the rider in its maneuver phase, any non-Creature of its legion
-- (not an enslaved one, not the God, who may not move) that is still to
-- enter when the Pegasus has entered (it enters on the Pegasus), or stands
-- next to it and has not moved nor is held by contact.
local function may_ride(ctx, u)
  return not got.is_creature(u) and u.character ~= "God" and not ctx:get("enslaved", u.id)
end

titan.action("pegasus_ride", {
  legal = function(ctx)
    if ctx:get("enslaved", ctx.unit) then return {} end
    local out = {}
    for _, u in ipairs(ctx:units()) do
      if u.side == ctx.side and may_ride(ctx, u) and ctx:may_mount(u.id, ctx.unit) then
        out[#out + 1] = u.id
      end
    end
    return out
  end,
  apply = function(ctx, args) ctx:mount(args.rider, ctx.unit) end,
})

-- "Never locked in melee combat": each Pegasus of the side to maneuver is
-- freed of contact for the rest of the battle (its rider goes with it).
titan.on("battle_phase_start", {
  phase = "maneuver", unit = { character = "Pegasus", status = "on_board", side = "event" },
}, function(ctx)
  for _, u in ipairs(got.on_board(ctx, ctx.side)) do
    if u.character == "Pegasus" and not ctx:get("pegasus_free", u.id) then
      ctx:set_unit(u.id, "locked", false)
      ctx:set("pegasus_free", u.id, true)
    end
  end
end)
