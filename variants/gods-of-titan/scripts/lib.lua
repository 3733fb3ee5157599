-- Helpers shared by the spell and ability scripts of Gods of Titan: units,
-- sides, phase keys, rolls and where a character may stand.
got = {}

local MIN_SN, MAX_SN = 1, 6 -- rules.ron strike_chart

-- The side that is not `side`.
function got.enemy_of(side)
  if side == "attacker" then return "defender" end
  return "attacker"
end

-- Living units of `side` (nil: both) on a hex of their own, in id order:
-- a Pegasus's rider (status "riding", 16.5) is no target and is left out.
function got.on_board(ctx, side)
  return ctx:units({ alive = true, status = "on_board", side = side })
end

-- Living units on the battleland, riders too.
function got.on_field(ctx)
  if ctx:count_units({ alive = true, status = "riding" }) == 0 then
    return ctx:units({ alive = true, status = "on_board" })
  end
  local out = {}
  for _, u in ipairs(ctx:units()) do
    if u.alive and u.hex then out[#out + 1] = u end
  end
  return out
end

-- The units of `side` still in its legion (waiting, on the battleland or
-- not yet entered), for "in its Legion" rules (16.4).
function got.in_legion(ctx, side)
  local out = {}
  for _, u in ipairs(ctx:units()) do
    if u.side == side and u.status ~= "slain" and u.status ~= "removed" then out[#out + 1] = u end
  end
  return out
end

-- 3.5-3.7: Creatures, Sea-Creatures and Dark-Creatures are all Creatures.
local CREATURE = { creature = true, sea_creature = true, dark_creature = true }
function got.is_creature(u) return CREATURE[u.class] == true end

-- The strike phase of a round, as one number: 2 x round, + 1 for the
-- defender's (unit variables keep these to say "this phase").
function got.phase_key(ctx)
  if ctx.moving == "attacker" then return 2 * ctx.round end
  return 2 * ctx.round + 1
end

-- 13.1: only the side whose maneuver phase preceded the strike phase uses
-- spells and special abilities; the other side only strikes back. And the
-- battle begins with the attacker's entry (11.1, DE 768-770: "In der
-- ersten Kampfrunde kann nur der Angreifer attackieren, da erst mit seinem
-- Einzug auf das Schlachtfeld die Schlacht beginnt"): "he possesses the
-- privilege of the first spell" (15.2, EN 385, DE 1118-1119) and "of the
-- first use of a single-use Special Ability" (16.2, EN 398, DE 1166-1168),
-- so the defender's strike phase of the first round, while the attacker's
-- whole army is still to enter, has neither (`spell-first-round.ron`).
function got.own_strike_phase(ctx)
  if ctx.side ~= ctx.moving then return false end
  if ctx.moving == "defender" and ctx.round == 1 then
    -- (After a Timewarp back to round 1 the attacker stands on the
    -- battleland: only an army still wholly to enter counts.)
    local waiting = ctx:count_units({ side = "attacker", status = "waiting" })
    if waiting > 0 and waiting == ctx:count_units({ side = "attacker" }) then return false end
  end
  return true
end

-- 13.4: the strike number of skill `s` against skill `t`, on the chart.
function got.strike_number(s, t)
  local n = 4 + t - s
  if n < MIN_SN then return MIN_SN end
  if n > MAX_SN then return MAX_SN end
  return n
end

-- Rolls `dice` dice (from the game's generator) and counts those at or
-- above `sn`.
function got.roll_hits(dice, sn)
  local hits = 0
  for _ = 1, dice do
    if math.random(6) >= sn then hits = hits + 1 end
  end
  return hits
end

-- Hits a unit still takes before it is slain.
function got.life_left(u) return u.power - u.damage end

-- Deadlock (15.6): the most hexes a deadlocked character may enter, a hit
-- each, stopping with one point left; nil when it is not deadlocked.
function got.deadlock_cap(ctx, u)
  if not ctx:get("deadlocked", u.id) then return nil end
  return math.max(got.life_left(u) - 1, 0)
end

-- Hex hazards that only their natives may enter (hazards.ron `Block`), with
-- those natives (characters.ron); every other hex hazard takes anyone.
local function set(list)
  local s = {}
  for _, n in ipairs(list) do s[n] = true end
  return s
end
local ONLY_NATIVES = {
  Volcano = set({ "Dragon" }),
  Tree = set({ "Pixie" }),
  Bog = set({ "Pixie", "Basilisk", "Ogre", "Troll", "Warbear", "Wyvern" }),
  Darkness = set({ "Dark-Titan", "Jabberwok", "Pixie", "Balrog", "Cerberus", "Deathbringer", "Demon",
    "Headcracker", "Helldancer", "Lich", "Nightmare", "Plaque", "Shadow", "Tombdigger", "Wraith" }),
  Cloud = set({ "God", "Phantom", "Titan", "Angel", "Archangel", "Necromancer", "Asher", "Golem", "Zephyra",
    "Chimera", "Executer", "Guardian", "Immortal", "Locker", "Pegasus", "Siren", "Sunray", "Warlock",
    "Amazon", "Aquarian", "Knight", "Novice", "Pixie", "Priest", "Priestess", "Warlord", "Basilisk",
    "Behemoth", "Centaur", "Colossus", "Cyclops", "Dragon", "Gargoyle", "Giant", "Gorgon", "Griffon",
    "Hydra", "Lion", "Minotaur", "Ogre", "Phoenix", "Ranger", "Serpent", "Troll", "Unicorn", "Warbear",
    "Wyvern", "Dolphin", "Manta", "Octopus", "Seaserpent", "Whale" }),
}

-- Every hex label of a battleland (columns A-F of 3, 4, 5, 6, 5, 4 hexes).
got.HEXES = {}
for i, height in ipairs({ 3, 4, 5, 6, 5, 4 }) do
  local col = string.sub("ABCDEF", i, i)
  for row = 1, height do got.HEXES[#got.HEXES + 1] = col .. row end
end

-- Whether `character` may stand on hex `h` (a table of ctx:get_hex).
function got.may_stand(character, h)
  local only = ONLY_NATIVES[h.hazard]
  return only == nil or only[character] == true
end

-- Characters whose rangestrikes are magic (characters.ron `magic: true`).
got.MAGIC = set({ "Warlock", "Priestess" })

-- 15.3: the grade of each spell of 15.6; the caster's skill must reach it.
got.GRADE = {
  create_hazard = 2, shield = 2, shockwave = 2, wimps_vacation = 2,
  footsore = 3, quake = 3, teleport = 3, timewarp = 3,
  chaos = 4, homeland = 4, inferno = 4, summon = 4,
  deadlock = 5, landscaping = 5, painchain = 5, slavery = 5,
}

-- 3.2: Masters are immune to every form of magic, so no spell touches one.
function got.spell_target(u)
  return u.class ~= "master"
end

-- 15.2-15.5: whether the acting caster may cast `spell` now. Each spell's
-- `requires` in actions.ron has the engine check the rest before it asks
-- `legal` (so that it is not asked when it could offer nothing): 15.3,
-- grade at most the caster's skill (`min_skill`); 15.4, one spell per
-- legion per battle: no character of the side marked (`spell_cast`, so
-- that a Caster that joins later, a summoned Necromancer or an enslaved
-- Caster, casts no second one); 15.5, no Master of either side on the
-- battleland, riding a Pegasus too.
function got.may_cast(ctx, spell)
  if not got.own_strike_phase(ctx) then return false end
  -- 5.1, 15.2: each player's one counter of each spell, gone once cast.
  return not got.spell_gone(ctx, spell)
end

-- The seat of the player `side` fights for: the engagement's (a game's
-- battle), else, in a battle fought alone (`titan simulate battles`), 0 for
-- the attacker and 1 for the defender (as the platform counts an action's
-- limit per game there).
function got.seat_of(ctx, side)
  local e = ctx:engagement()
  if e then
    if side == "attacker" then return e.attacker_player end
    return e.defender_player
  end
  if side == "attacker" then return 0 end
  return 1
end

-- 5.1 (EN 136: "All players receive a complete set of spells. Thus each
-- player has 16 different spells available"; DE 313-314), 15.2 (EN 385: "Spells
-- that are cast are taken from the player's Personal Pool and removed from
-- the game"; DE 1120-1121): a player casts each spell once a game, over
-- all his battles. The spells he has cast are his player variable
-- `spells_cast` (the game's, kept from battle to battle).
function got.spell_gone(ctx, spell)
  for _, name in ipairs(ctx:get("spells_cast", got.seat_of(ctx, ctx.side))) do
    if name == spell then return true end
  end
  return false
end

-- 15.4: the caster's whole legion has cast its spell (every unit of its
-- side, so that another caster of the legion is refused too); 15.2: the
-- player's counter of `spell` is removed from the game.
function got.spend_spell(ctx, spell)
  for _, u in ipairs(ctx:units()) do
    if u.side == ctx.side then ctx:set("spell_cast", u.id, 1) end
  end
  local seat = got.seat_of(ctx, ctx.side)
  local cast = ctx:get("spells_cast", seat)
  cast[#cast + 1] = spell
  ctx:set("spells_cast", seat, cast)
end

-- The enemy characters on the battleland a spell reaches, in id order.
function got.enemy_targets(ctx)
  local out = {}
  for _, u in ipairs(got.on_board(ctx, got.enemy_of(ctx.side))) do
    if got.spell_target(u) then out[#out + 1] = u end
  end
  return out
end

-- The unoccupied hexes of the battleland where `character` may stand.
function got.free_hexes_for(ctx, character)
  local out = {}
  for _, label in ipairs(got.HEXES) do
    local h = ctx:get_hex(label)
    if h and h.unit == nil and got.may_stand(character, h) then out[#out + 1] = h end
  end
  return out
end

-- Whether `character` is native to a hazard that only its natives may enter
-- (the lists above), for the rules that ask it of such a hazard.
function got.may_stand_native(character, hazard)
  local only = ONLY_NATIVES[hazard]
  return only ~= nil and only[character] == true
end
