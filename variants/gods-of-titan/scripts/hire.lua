-- Spending Lifegems (20.2, EN 440, DE 1297: "With them Humans can be hired
-- or Demilords can be revived or summoned"). Lifegems are earned in
-- scripts/economy.lua and kept in the player variable `lifegems`.
--
-- * hire (22.4, EN 472-474, DE 1408-1418): in his Mustering Phase a player
--   hires a Human from the caretaker into his legion standing in the City
--   or the Dungeon, paying its price of 16.5 in Lifegems (EN 989-1005,
--   DE 2431-2461). "A Legion doesn't have to move prior to mustering in the
--   City or Dungeon" (EN 472): nothing asks how far it moved.
-- * summon_demilord (22.4, EN 476, DE 1419-1421): "Slain Demilords can be
--   summoned from the Personal Pool into a Legion in the City or Dungeon by
--   sacrificing 200 Lifegems"; the Locker 400 (16.5, EN 1021). Our reading:
--   the platform has one caretaker and no Personal Pools, and no Demilord is
--   in play at the start (the neutral legions are part two): any Demilord
--   the caretaker holds may be summoned, but the Immortal, which never
--   leaves its Ruin (16.5, EN 1017), and an Executer by a player who has one
--   ("Each player may use only the Executer of its color", EN 1013).
-- * Both are "mustering" there: "Only one character may be mustered there
--   per Game-Turn" (EN 472; DE 1412-1413: "nur eine Figur pro
--   Rekrutierungsphase der Armee": one per legion). The two actions share
--   the limit `city_musters`, one per player and turn: the same as one per
--   legion, since a player has at most one legion in the City and the
--   Dungeon together (8.6, EN 217; rules.ron `shared_limit`).
-- * 22.2 and 4.3 (EN 470, 107): a full legion musters nothing (the
--   uncounted Masters and Pegasus aside, 4.2), and a legion holds at most
--   one of each Human and Demilord (`per_legion` in rules.ron).
-- * revive_demilord, revive_demilord_later (19.1, EN 430, DE 1265-1275):
--   "They can be revived at the end of an Engagement by the winning player.
--   For each slain Demilord to be revived, 50 Lifegems must be paid"; the
--   Locker 100 (EN 1021); "brought back completely healed into the winning
--   Legion. The maximum Legion size may not be exceeded"; none after a draw.
--   The Demilords slain in the engagement (fate "slain", or "conceded": a
--   concession counts as one during the battle, as for the Lifegems) are
--   kept on the winning legion (`revivable`). The platform offers a
--   masterplay action only to the player whose turn it is
--   (docs/scripting.md, "Actions"; so is `ctx:choose`), and the engine goes
--   on to the Mustering Phase as the last engagement ends: an attacker who
--   wins revives in the Mustering Phase of that turn (revive_demilord); a
--   defender who wins, in the Split phase of his next turn
--   (revive_demilord_later). The chance lapses when that phase ends. The
--   Immortal comes back by its own rule (16.5, EN 1017; part two), not by
--   this one.

local CITY, DUNGEON = 1, 2 -- masterboard.ron: the City is land 1, the Dungeon land 2

-- 16.5 (EN 989-1005; DE 2431-2461): "Novice (free)", "Knight (50
-- Lifegems)", "Amazon (50 Lifegems)", "Pixie (75 Lifegems)", "Aquarian (75
-- Lifegems)", "Priestess (100 Lifegems)", "Warlord (100 Lifegems)", "Priest
-- (150 Lifegems)".
local HUMANS = { "Novice", "Knight", "Amazon", "Pixie", "Aquarian", "Priestess", "Warlord", "Priest" }
local HIRE = { Novice = 0, Knight = 50, Amazon = 50, Pixie = 75, Aquarian = 75, Priestess = 100, Warlord = 100, Priest = 150 }

-- 3.5 (EN 80): the ten Demilords but the Immortal (see above).
local DEMILORDS = { "Chimera", "Executer", "Guardian", "Jabberwok", "Locker", "Pegasus", "Siren", "Sunray", "Warlock" }
local function summon_price(name) return name == "Locker" and 400 or 200 end
local function revive_price(name) return name == "Locker" and 100 or 50 end

local function holds(l, name)
  for _, c in ipairs(l.characters) do
    if c == name then return true end
  end
  return false
end

-- Whether `name` may join legion `l` from the caretaker: one left, the
-- legion not full (22.2; uncounted characters aside, 4.2), none of it there
-- yet (4.3).
local function may_join(ctx, l, name)
  if ctx:caretaker(name) == 0 or holds(l, name) then return false end
  local n = 0
  for _, c in ipairs(l.characters) do
    if not ctx:get_character(c).uncounted then n = n + 1 end
  end
  return n < ctx:max_legion_size()
end

-- The player's legions in the City or the Dungeon.
local function in_city(ctx)
  local out = {}
  for _, l in ipairs(ctx:legions()) do
    if l.owner == ctx.player and (l.land == CITY or l.land == DUNGEON) then out[#out + 1] = l end
  end
  return out
end

local function pay(ctx, gems)
  if gems > 0 then ctx:set("lifegems", ctx.player, ctx:get("lifegems", ctx.player) - gems) end
end

-- The (legion, character) pairs of `names` the player can pay by `price`
-- into his legion in the City or the Dungeon, those `allowed` (if given)
-- lets through.
local function offers(ctx, names, price, allowed)
  local gems = ctx:get("lifegems", ctx.player)
  local out = {}
  for _, l in ipairs(in_city(ctx)) do
    for _, n in ipairs(names) do
      if price(n) <= gems and may_join(ctx, l, n) and (allowed == nil or allowed(n)) then
        out[#out + 1] = { l.marker, n }
      end
    end
  end
  return out
end

titan.action("hire", {
  legal = function(ctx)
    return offers(ctx, HUMANS, function(h) return HIRE[h] end)
  end,
  apply = function(ctx, args)
    pay(ctx, HIRE[args.character])
    ctx:add_character(args.legion, args.character)
  end,
})

local function has_executer(ctx)
  for _, l in ipairs(ctx:legions()) do
    if l.owner == ctx.player and holds(l, "Executer") then return true end
  end
  return false
end

titan.action("summon_demilord", {
  legal = function(ctx)
    return offers(ctx, DEMILORDS, summon_price, function(d)
      return not (d == "Executer" and has_executer(ctx))
    end)
  end,
  apply = function(ctx, args)
    pay(ctx, summon_price(args.character))
    ctx:add_character(args.legion, args.character)
  end,
})

-- Reviving (19.1). The Demilords slain in the engagement being resolved.
titan.on("engagement_start", function(ctx)
  ctx:set("revive_slain", nil, {})
end)

titan.on("character_slain", function(ctx)
  if ctx.by == nil or (ctx.fate ~= "slain" and ctx.fate ~= "conceded") then return end
  local c = ctx:get_character(ctx.character)
  if c.class ~= "demilord" or ctx.character == "Immortal" then return end
  local slain = ctx:get("revive_slain")
  slain[#slain + 1] = ctx.character
  ctx:set("revive_slain", nil, slain)
end)

titan.on("engagement_end", function(ctx)
  local slain = ctx:get("revive_slain")
  if #slain == 0 then return end
  ctx:set("revive_slain", nil, {})
  -- "If an Engagement ended in a Draw, the Demilords remain in the
  -- possession of their original owners": no revival.
  local marker = (ctx.winner == "attacker" and ctx.attacker) or (ctx.winner == "defender" and ctx.defender) or nil
  if marker == nil then return end
  for _, l in ipairs(ctx:legions()) do
    if l.marker == marker then
      -- A defender's earlier win not yet revived (his turn has not come)
      -- stays beside this one.
      local list = ctx:get("revivable", marker)
      for _, d in ipairs(slain) do list[#list + 1] = d end
      ctx:set("revivable", marker, list)
    end
  end
end)

-- The revivals lapse with the phase they are offered in: the attacker's
-- Mustering Phase (his turn's end) or the defender's next Split phase.
local function lapse(ctx, seat)
  for _, l in ipairs(ctx:legions()) do
    if l.owner == seat and #ctx:get("revivable", l.marker) > 0 then ctx:set("revivable", l.marker, {}) end
  end
end
titan.on("turn_end", function(ctx) lapse(ctx, ctx.player) end)
titan.on("phase_end", { phase = "split" }, function(ctx) lapse(ctx, ctx.active) end)

local revive = {
  legal = function(ctx)
    local gems = ctx:get("lifegems", ctx.player)
    local out = {}
    for _, l in ipairs(ctx:legions()) do
      if l.owner == ctx.player then
        local seen = {}
        for _, d in ipairs(ctx:get("revivable", l.marker)) do
          if not seen[d] and revive_price(d) <= gems and may_join(ctx, l, d) then
            out[#out + 1] = { l.marker, d }
          end
          seen[d] = true
        end
      end
    end
    return out
  end,
  apply = function(ctx, args)
    pay(ctx, revive_price(args.character))
    ctx:add_character(args.legion, args.character)
    local left, taken = {}, false
    for _, d in ipairs(ctx:get("revivable", args.legion)) do
      if d == args.character and not taken then
        taken = true
      else
        left[#left + 1] = d
      end
    end
    ctx:set("revivable", args.legion, left)
  end,
}
titan.action("revive_demilord", revive)
titan.action("revive_demilord_later", revive)

-- 22.4: City and Dungeon muster nothing from a table (mustering.ron): the
-- engine needs a row for a terrain on the board, and this need holds for
-- nobody.
titan.hook("lifegems_only", function() return false end)
