-- Who may not be targeted (the platform's `may_target` event: a handler
-- returning false takes the target out of the striker's legal actions, a
-- refusal, not a spent strike) and which strikes cannot carry over. The
-- rules of 3.2, 12.7 and 16.5 that say "can only be the target of", "may not
-- enter", "can't carry over".

-- Natives of the hex hazards these rules name (characters.ron), and whether
-- `u` is native to `hazard` there (Homeland makes everyone native).
local function set(list)
  local s = {}
  for _, n in ipairs(list) do s[n] = true end
  return s
end
-- 12.7 (EN 839, 851; DE 2097, 2104): the Manta and the Seaserpent are
-- natives of the Water, not of the Beach.
local NATIVES = {
  Beach = set({ "Siren", "Aquarian", "Pixie", "Dolphin", "Octopus", "Whale" }),
  Water = set({ "Siren", "Aquarian", "Pixie", "Dolphin", "Manta", "Octopus", "Seaserpent", "Whale" }),
}

local function native(ctx, u, hazard)
  if ctx:get("homeland", u.id) then return true end
  local list = NATIVES[hazard]
  if list then return list[u.character] == true end
  return got.may_stand_native(u.character, hazard)
end

-- Each handler answers for the strikes its filter picks (the engine asks
-- only those), so a strike where none of these rules can apply costs
-- nothing: the answer is every handler's answer together.

-- Rangestrikes.
titan.on("may_target", { rangestrike = true }, function(ctx)
  local s, t = ctx:get_unit(ctx.striker), ctx:get_unit(ctx.target)
  local magic = got.MAGIC[s.character] == true
  -- 14.1 (EN 361; DE 1011 "gegen eine gegnerische, nicht benachbarte
  -- Figur"): a rangestrike is directed at a nonadjacent enemy, so not at
  -- one beside the striker that is out of contact (across a cliff, a
  -- native in fog), magic or not.
  if s.hex and t.hex and ctx:distance(s.id, t.id) == 1 then return false end
  -- 3.2: Masters are immune to magic too (the class refuses the others).
  if magic and t.class == "master" then return false end
  -- 16.5 Golem: "immune to non-magic rangestrikes".
  if not magic and t.character == "Golem" then return false end
  -- 16.5 Basilisk, Stone Cold: "vulnerable only by magic".
  if not magic and ctx:get("stone", t.id) then return false end
  return true
end)

-- Rangestrikes where the battleland has beaches, water or darkness.
titan.on("may_target", { rangestrike = true, hazard = { "Beach", "Water", "Darkness" } }, function(ctx)
  local s, t = ctx:get_unit(ctx.striker), ctx:get_unit(ctx.target)
  if got.MAGIC[s.character] or not t.hex then return true end
  local h = ctx:get_hex(t.hex)
  -- 12.7 Beach, Water (DE 2100, 2109): "Eine heimische Figur ... kann nur
  -- Ziel eines magischen Fernschusses sein."
  if (h.hazard == "Beach" or h.hazard == "Water") and native(ctx, t, h.hazard) then return false end
  -- 12.7 Darkness (DE 2116): "Ein fremder, nicht-magischer Fernschuss darf
  -- weder in noch durch die Dunkelheit."
  if h.hazard == "Darkness" and not native(ctx, s, "Darkness") then return false end
  return true
end)

-- Strikes at a Basilisk turned to stone (16.5 Stone Cold): a strike is
-- never magic.
titan.on("may_target", { rangestrike = false, unit = { set = "stone" } }, function(ctx)
  return not ctx:get("stone", ctx.target)
end)

-- 12.7 Dune (DE 2129: "Ein Übertrag eine Düne hinauf ist nur möglich,
-- wenn der Schlag über andere Dünen hinauf ausgeführt wurde"; EN 893):
-- hits carry over up across a dune only from a strike that went up across
-- one.
titan.on("may_target", { carry = true, hazard = "Dune" }, function(ctx)
  local s, t = ctx:get_unit(ctx.striker), ctx:get_unit(ctx.target)
  if s.hex and t.hex then
    local to = ctx:hexside(s.id, t.id)
    if to and to.hazard == "Dune" and to.up then
      local f = ctx:get_unit(ctx.carry_from)
      local first = f.hex and ctx:hexside(s.id, f.hex)
      if not (first and first.hazard == "Dune" and first.up) then return false end
    end
  end
  return true
end)

-- 12.7 Darkness (DE 2115: "Ein Übertrag über die Dunkelheit ist nicht
-- möglich"; EN 865: "A strike made in a Darkness hex can't carry-over"): no
-- carry-over from a strike at or from a character in darkness. 16.5 Demon:
-- "A strike used for a Final Blow can't carry over."
titan.on("before_strike", { ranged = false, unit = { set = "final_blow_armed" } }, function(ctx)
  if not ctx.cancel and ctx:get("final_blow_armed", ctx.unit) then ctx.carry_over = false end
end)
titan.on("before_strike", { hazard = "Darkness" }, function(ctx)
  if ctx.cancel then return end
  local s, t = ctx:get_unit(ctx.unit), ctx:get_unit(ctx.target)
  if (s.hex and ctx:get_hex(s.hex).hazard == "Darkness") or (t.hex and ctx:get_hex(t.hex).hazard == "Darkness") then
    ctx.carry_over = false
  end
end)

-- 12.7 Darkness (DE 2114: "Jeder Schaden, der auf eine Figur in der
-- Dunkelheit verursacht wurde, wird um 1 reduziert"; EN 865 "The damage done
-- by a character is reduced by 1"): each strike, carry-over and non-magic
-- rangestrike (a native's) at a character in darkness deals one hit less. A
-- magic rangestrike is "never blocked or affected by the presence of
-- hazards" (14.5, EN 379): all its hits. Damage by the terrain or a spell is
-- not "done by a character" (and no damaging hazard is in darkness).
titan.on("before_damage", { hazard = "Darkness" }, function(ctx)
  if ctx.source == "hazard" then return end
  if ctx.source == "rangestrike" and got.MAGIC[ctx:unit_field(ctx.striker, "character")] then return end
  local t = ctx:get_unit(ctx.unit)
  if t.hex and ctx:get_hex(t.hex).hazard == "Darkness" and ctx.hits > 0 then
    ctx.hits = ctx.hits - 1
  end
end)

-- 12.7 Cloud (EN 881: "A character standing on a Cloud hex strikes with 50%
-- additional dice (rounded down)"; DE 2121): a strike (the Striking row, not
-- a rangestrike) from a cloud has half its Power-factor more dice, rounded
-- down, striking or striking back.
titan.on("before_strike", { ranged = false, hazard = "Cloud" }, function(ctx)
  if ctx.cancel then return end
  local s = ctx:get_unit(ctx.unit)
  if s.hex and ctx:get_hex(s.hex).hazard == "Cloud" then
    ctx.dice = ctx.dice + s.power // 2
  end
end)

-- 12.7 Cloud (EN 883: "A character standing on a Cloud hex can begin its
-- rangestrike from another not occupied Cloud hex"; DE 2122): when its
-- side's strike phase begins (only the moving side rangestrikes), a
-- rangestriker on a cloud may begin its rangestrikes from every other cloud
-- (the engine takes the unoccupied one that strikes best:
-- `set_unit(rangestrike_from)`).
titan.on("battle_phase_start", { phase = "strike", hazard = "Cloud" }, function(ctx)
  if ctx.side ~= ctx.moving then return end
  local clouds
  for _, u in ipairs(got.on_board(ctx, ctx.side)) do
    if u.rangestrikes and ctx:get_hex(u.hex).hazard == "Cloud" then
      if not clouds then
        clouds = {}
        for _, label in ipairs(got.HEXES) do
          if ctx:get_hex(label).hazard == "Cloud" then clouds[#clouds + 1] = label end
        end
      end
      local others = {}
      for _, label in ipairs(clouds) do
        if label ~= u.hex then others[#others + 1] = label end
      end
      ctx:set_unit(u.id, "rangestrike_from", others)
    end
  end
end)
