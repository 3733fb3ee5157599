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
  "pending:executer_trophies", "pending:immortal_rejoins", "pending:pegasus_rider",
  "pending:knight_crusade", "pending:pixie_reinforcement",
}
local function unchanged(is_striker, ranged, sn, dice)
  return sn, dice
end
for _, name in ipairs(markers) do
  titan.hook(name, unchanged)
end
