-- Gods of Titan: the rules the current hook API can run (docs/scripting.md),
-- and the markers the data names for what it cannot run yet (README.md,
-- "Needs from the platform").

local MIN_SN, MAX_SN = 1, 6 -- rules.ron strike_chart

local function bound(n)
  if n < MIN_SN then return MIN_SN end
  if n > MAX_SN then return MAX_SN end
  return n
end

-- 24.2 and 16.5, Titan: "The Titan's Power-factor is one percent of the
-- player's score rounded down, but at least 6."
titan.hook("titan_power", function(score, base)
  local p = score // 100
  if p < base then return base end
  return p
end)

-- 16.5 (EN 1055, 1057, 1060): "The Phantom's Power-factor is one percent of the
-- player's score rounded down, but at least 6", the Dark-Titan's the same;
-- "The life energy of the God character is 100 minus the Powerfactors of
-- each remaining Titan (including the Dark-Titan)": the Titans of the
-- players still in the game, each by the rule above. Their power in battle
-- (the platform's `character_power` hook).
local function titan_like(score)
  return math.max(6, score // 100)
end
-- 16.5 Knight (EN 991): "In any Battle against black and Neutral (grey)
-- Legions the Knight increases his Power-factor by 2." A legion's colour is
-- its player's `legion_colour` (variables.ron): "titan" for the Titan-players
-- of this provisional game; part two's Darklord is "black" and the neutral
-- legions' holder "neutral".
local function against_black_or_neutral(seat, ctx)
  local e = ctx:engagement()
  if e == nil then return false end
  local enemy = e.attacker_player
  if enemy == seat then enemy = e.defender_player end
  local colour = ctx:get("legion_colour", enemy)
  return colour == "black" or colour == "neutral"
end

titan.hook("character_power", function(character, base, score, seat, ctx)
  if character == "Phantom" or character == "Dark-Titan" then return titan_like(score) end
  -- 16.5 Executer (EN 1013): "For every enemy Lord or Master the Executer's
  -- Legion has slain, it's Power-factor increases by 1" (the trophies kept
  -- below).
  if character == "Executer" then return base + ctx:get("executer_trophies", seat) end
  if character == "Knight" and against_black_or_neutral(seat, ctx) then return base + 2 end
  if character == "God" then
    local life = 100
    for _, p in ipairs(ctx:players()) do
      if p.alive then life = life - titan_like(p.score) end
    end
    return math.max(1, life)
  end
  return nil
end)

-- 16.5 Executer (EN 1013): "The Executer receives additional Power-factors
-- and trophies after scoring a Battle and only when he has survived. If the
-- Executer is slain ... He then starts with his initial Power-factor of 8 and
-- all collected trophies go back to their owners." Each player has one
-- Executer (his colour's), so his trophies are a player variable: one more
-- for each enemy Lord or Master slain in a battle his legion won with him
-- alive (a legion that conceded in the battle counts: it is scored; a flight
-- before the battle does not), none once he is slain. The trophies' counters
-- in the Personal Pools are part two's.
local LORD_OR_MASTER = {
  ["Titan"] = true, ["Phantom"] = true, ["Dark-Titan"] = true, ["God"] = true,
  ["Angel"] = true, ["Archangel"] = true, ["Necromancer"] = true,
}
titan.on("character_slain", function(ctx)
  if ctx.character == "Executer" then
    ctx:set("executer_trophies", ctx.player, 0)
    return
  end
  if not ctx.battle or ctx.by == nil or not LORD_OR_MASTER[ctx.character] then return end
  for _, l in ipairs(ctx:legions()) do
    if l.marker == ctx.by then
      for _, c in ipairs(l.characters) do
        if c == "Executer" then
          ctx:set("executer_trophies", ctx.by_player, ctx:get("executer_trophies", ctx.by_player) + 1)
        end
      end
    end
  end
end)

-- 16.5 Pixie (EN 995; DE 2438: "Er kann als heimischer Verteidiger immer
-- anstelle einer normalen Nachrekrutierung in der 4. Kampfrunde die stärkste
-- Kreatur der eigenen Armee nachrekrutieren, auch wenn diese Kreatur auf dem
-- Schlachtfeld nicht heimisch sein sollte"): a defending legion with a Pixie
-- (native everywhere) may reinforce with another of its strongest Creature
-- (the highest Power-factor of its Creatures, Sea- and Dark-Creatures; all of
-- them on a tie), besides what its land offers (the platform's
-- `reinforcements` hook; the engine keeps those the caretaker has).
local CREATURE_POWER = {
  ["Basilisk"] = 10, ["Behemoth"] = 7, ["Centaur"] = 3, ["Colossus"] = 10, ["Cyclops"] = 8, ["Dragon"] = 9,
  ["Gargoyle"] = 4, ["Giant"] = 7, ["Gorgon"] = 8, ["Griffon"] = 5, ["Hydra"] = 10, ["Lion"] = 5,
  ["Minotaur"] = 4, ["Ogre"] = 6, ["Phoenix"] = 9, ["Ranger"] = 4, ["Serpent"] = 16, ["Troll"] = 8,
  ["Unicorn"] = 4, ["Warbear"] = 6, ["Wyvern"] = 7, ["Dolphin"] = 4, ["Manta"] = 9, ["Octopus"] = 15,
  ["Seaserpent"] = 15, ["Whale"] = 7, ["Balrog"] = 8, ["Cerberus"] = 8, ["Deathbringer"] = 12, ["Demon"] = 9,
  ["Headcracker"] = 6, ["Helldancer"] = 5, ["Lich"] = 5, ["Nightmare"] = 9, ["Plaque"] = 5, ["Shadow"] = 6,
  ["Tombdigger"] = 7, ["Wraith"] = 10,
}
titan.hook("reinforcements", function(legion, offered, ctx)
  for _, l in ipairs(ctx:legions()) do
    if l.marker == legion then
      local pixie, best = false, 0
      for _, c in ipairs(l.characters) do
        if c == "Pixie" then pixie = true end
        if (CREATURE_POWER[c] or 0) > best then best = CREATURE_POWER[c] end
      end
      if pixie and best > 0 then
        for _, c in ipairs(l.characters) do
          if CREATURE_POWER[c] == best then offered[#offered + 1] = c end
        end
      end
    end
  end
  return offered
end)

-- 16.5, Chimera: "always strikes with the same Skill-factor as its
-- opponent(s). Thus it hits each enemy character with a Strike-number of 4.
-- Influences by hazards are considered afterwards." The hook sees the strike
-- number after the chart and the hazards: keep the hazards' share, replace
-- the chart's by 4 (13.4: 4 + skill - skill).
titan.hook("chimera_skill", function(is_striker, ranged, sn, dice, sp, ss, tp, ts)
  if not is_striker then return sn, dice end
  local chart = bound(4 + ts - ss)
  return bound(4 + (sn - chart)), dice
end)

-- 3.2: "Masters are immune to any form of magic and rangestrikes"; 14.6:
-- "Masters are immune to all rangestrikes". The class refuses non-magic
-- rangestrikes at a Master; a magic one rolls no dice.
titan.hook("master_immunity", function(is_striker, ranged, sn, dice)
  if ranged and not is_striker then return sn, 0 end
  return sn, dice
end)

-- 27.5: "All attacks and Strikebacks against the God are considered
-- automatic hits": every die hits. 16.5: "It possesses no Skill-factor, thus
-- it can neither attack nor move": its strikes roll no dice.
titan.hook("god_auto_hit", function(is_striker, ranged, sn, dice)
  if is_striker then return sn, 0 end
  return MIN_SN, dice
end)

-- Markers. A `flag:` ability is a symbol of the character chart (3.10) the
-- format has no field for; a `pending:` ability is a special ability of 16.5
-- that needs the platform. Neither changes a strike: the spell and ability
-- scripts read them (spells.lua, abilities.lua: README, "Spells and
-- abilities").
local markers = {
  "flag:caster", "flag:single_use", "flag:swimmer", "flag:sea_only", "flag:landable", "flag:end_creature",
  "pending:immortal_rejoins",
}
local function unchanged(is_striker, ranged, sn, dice)
  return sn, dice
end
for _, name in ipairs(markers) do
  titan.hook(name, unchanged)
end
