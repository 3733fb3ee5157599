-- The spells of the spell chart (15.6) the platform can run, as variant
-- actions (actions.ron), with the casting rules of 15.1-15.5 and the
-- Shield's protection (a before_strike handler). README.md, "Spells",
-- lists every spell, its reading and what the others still need.

local may_cast, spend_spell, spell_target, enemy_targets =
  got.may_cast, got.spend_spell, got.spell_target, got.enemy_targets

-- 15.6 Wimps Vacation, "Creatures of the lowest mustering level": a
-- Creature that is the first row of some terrain's table (mustering.ron,
-- 22.3). The Sea- and Dark-Creatures' tables are not in our sources.
local LOWEST = {
  Gargoyle = true, Centaur = true, Ogre = true, Lion = true, Troll = true, Cyclops = true,
}

-- A spell with no parameter: legal is a yes or no.
local function whole_battle_spell(name, apply)
  titan.action(name, {
    legal = function(ctx) return may_cast(ctx, name) end,
    apply = function(ctx)
      spend_spell(ctx, name)
      apply(ctx)
    end,
  })
end

-- Shockwave, Quake, Inferno: "All enemy characters receive 3 dice of
-- damage, rolled with a Skill-factor of" 2, 3, 4. The strike number is the
-- chart's for that skill against the target's (13.4); "Hazards do not affect
-- the Caster when casting a spell" (15.3), so no hazard changes it.
local function damage_spell(name, skill)
  whole_battle_spell(name, function(ctx)
    for _, u in ipairs(enemy_targets(ctx)) do
      local hits = got.roll_hits(3, got.strike_number(skill, u.skill))
      if hits > 0 then ctx:damage(u.id, hits) end
    end
  end)
end
damage_spell("shockwave", 2)
damage_spell("quake", 3)
damage_spell("inferno", 4)

-- Wimps Vacation: "All enemy Creatures of the lowest mustering level are
-- immediately considered slain" (scored as slain in battle).
whole_battle_spell("wimps_vacation", function(ctx)
  for _, u in ipairs(enemy_targets(ctx)) do
    if u.class == "creature" and LOWEST[u.character] then ctx:kill(u.id) end
  end
end)

-- Shield. DE 2311: "Für den kompletten nächsten gegnerischen Rückschlag
-- wird eine eigene Figur gegen jeglichen Schaden immun" (EN: "a Creature",
-- "the next enemy Strike Phase"): one own character, the enemy's
-- strikebacks of this strike phase.
titan.action("shield", {
  legal = function(ctx)
    if not may_cast(ctx, "shield") then return {} end
    local out = {}
    for _, u in ipairs(got.on_board(ctx, ctx.side)) do out[#out + 1] = u.id end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "shield")
    ctx:set("shield", args.ally, got.phase_key(ctx))
  end,
})

-- A strike or rangestrike at a shielded character in its shield's phase,
-- by the enemy, is spent and rolls nothing.
titan.on("before_strike", { unit = { set = "shield" } }, function(ctx)
  local key = ctx:get("shield", ctx.target)
  if key ~= 0 and key == got.phase_key(ctx) then
    local s, t = ctx:get_unit(ctx.unit), ctx:get_unit(ctx.target)
    if s.side ~= t.side then ctx.cancel = true end
  end
end)

-- "gegen jeglichen Schaden immun" (DE 2311-2312; EN 933 "immune to any
-- damage"): every damage of that phase through the platform's damage
-- filter is none: hits carried over onto it from a strike at another
-- (`spell-shield-carry.ron`) and the hazards' at the phase's end.
titan.on("before_damage", { unit = { set = "shield" } }, function(ctx)
  local key = ctx:get("shield", ctx.unit)
  if key ~= 0 and key == got.phase_key(ctx) then ctx.hits = 0 end
end)

-- Teleport: "any character (including itself) to an unoccupied hex it's
-- capable of staying in": a hex whose hazard lets it in (the engine's
-- ctx:may_stand, by its flight and natives, Homeland's too), either side's
-- character but a Master (3.2).
titan.action("teleport", {
  legal = function(ctx)
    if not may_cast(ctx, "teleport") then return {} end
    local free = {}
    for _, label in ipairs(got.HEXES) do
      local h = ctx:get_hex(label)
      if h and h.unit == nil then free[#free + 1] = h end
    end
    local out = {}
    for _, u in ipairs(got.on_board(ctx)) do
      if spell_target(u) then
        for _, h in ipairs(free) do
          if ctx:may_stand(u.id, h.label) then out[#out + 1] = { u.id, h.label } end
        end
      end
    end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "teleport")
    ctx:move(args.who, args.to)
  end,
})

-- Chaos: "swap the locations of any two characters in the enemy Legion.
-- This may be done several times, but each character may be moved only
-- once", "even if they are already locked in melee combat". The cast is the
-- first pair; `chaos_swap` takes further pairs in the same strike phase.
local function chaos_pairs(ctx)
  local free = {}
  for _, u in ipairs(enemy_targets(ctx)) do
    if not ctx:get("chaos_moved", u.id) then free[#free + 1] = u.id end
  end
  local out = {}
  -- Both orders, so that the player may name the two in any order.
  for i = 1, #free do
    for j = 1, #free do
      if i ~= j then out[#out + 1] = { free[i], free[j] } end
    end
  end
  return out
end

local function chaos_swap(ctx, args)
  ctx:swap(args.a, args.b)
  ctx:set("chaos_moved", args.a, true)
  ctx:set("chaos_moved", args.b, true)
end

titan.action("chaos", {
  legal = function(ctx)
    if not may_cast(ctx, "chaos") then return {} end
    return chaos_pairs(ctx)
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "chaos")
    ctx:set("chaos_key", ctx.unit, got.phase_key(ctx))
    chaos_swap(ctx, args)
  end,
})

titan.action("chaos_swap", {
  legal = function(ctx)
    if not got.own_strike_phase(ctx) or ctx:get("chaos_key", ctx.unit) ~= got.phase_key(ctx) then
      return {}
    end
    return chaos_pairs(ctx)
  end,
  apply = chaos_swap,
})

-- Painchain: "The Caster chooses an enemy character and gives it as many
-- dice of damage with Skill-factor 5 as desired, in a single attack. The
-- spell ends if the character is slain, but if it survives then the same
-- amount of dice that hit are rolled again to an adjacent, enemy character,
-- and so on. Characters may be damaged only once" (EN 959; DE 2366-2370:
-- "auf eine angrenzende, gegnerische Figur weiter gegeben"). Readings: "as
-- desired" is 1 to 12 (a finite choice); "adjacent" is adjacent to the last
-- one hurt; the caster chooses each next link (`painchain_next`, asked with
-- the platform's `ctx:choose`, "Choices inside an action"), among the enemies
-- adjacent to the last one hurt and not hurt yet by the chain.
local PAINCHAIN_MAX = 12

-- The enemies the chain may go on to from `last`.
local function painchain_next_targets(ctx, last)
  local out = {}
  for _, u in ipairs(enemy_targets(ctx)) do
    if not ctx:get("painchain_hurt", u.id) and ctx:distance(u.id, last) == 1 then out[#out + 1] = u.id end
  end
  return out
end

-- One link: `dice` dice at `target`; the chain goes on (the caster to
-- choose the next) while the target survives a hit and an enemy is there
-- to take it.
local function painchain_link(ctx, target, dice)
  local hits = got.roll_hits(dice, got.strike_number(5, target.skill))
  ctx:set("painchain_hurt", target.id, true)
  if hits > 0 then ctx:damage(target.id, hits) end
  if hits == 0 or hits >= got.life_left(target) or #painchain_next_targets(ctx, target.id) == 0 then
    ctx:set("painchain_dice", ctx.unit, 0)
    return
  end
  ctx:set("painchain_dice", ctx.unit, hits)
  ctx:set("painchain_last", ctx.unit, target.id)
  ctx:choose("painchain_next", ctx.unit)
end

titan.action("painchain", {
  legal = function(ctx)
    if not may_cast(ctx, "painchain") then return {} end
    local out = {}
    for _, u in ipairs(enemy_targets(ctx)) do
      for n = 1, PAINCHAIN_MAX do out[#out + 1] = { u.id, n } end
    end
    return out
  end,
  apply = function(ctx, args)
    spend_spell(ctx, "painchain")
    painchain_link(ctx, ctx:get_unit(args.target), args.dice)
  end,
})

-- The next link, while a chain of this caster is pending (its dice kept in
-- `painchain_dice`); nobody left to take it, the choice lapses and the
-- spell ends.
titan.action("painchain_next", {
  legal = function(ctx)
    if ctx:get("painchain_dice", ctx.unit) == 0 then return {} end
    return painchain_next_targets(ctx, ctx:get("painchain_last", ctx.unit))
  end,
  apply = function(ctx, args)
    painchain_link(ctx, ctx:get_unit(args.target), ctx:get("painchain_dice", ctx.unit))
  end,
})
