-- Balrogs, as Colossus's Balrog variant has them (its Java classes
-- BalrogRecruitment and CreatureBalrog), written for titan by the importer
-- (`titan import colossus`, import/lua/balrog.lua).
--
-- A player's home tower holds one Balrog for every 300 points the player
-- has scored. Any legion mustering in that tower, his or another player's,
-- may take one while the Balrogs mustered there so far are fewer than the
-- tower's player's score / 300. A Balrog once mustered stays counted, in
-- play or slain: a slain Balrog is out of the game (a demilord that is not
-- immortal), so it never comes back to the tower.
--
-- mustering.ron gives each Tower the row
--   (character: "Balrog", needs: [Hook("balrog_may_muster")], like: false, ladder: false)
-- and variables.ron the Player variable "balrogs_mustered": the Balrogs
-- mustered in that player's home tower.

local POINTS_PER_BALROG = 300

-- The player whose home tower is the land (a number), or nil.
local function tower_player(ctx, land)
  for _, p in ipairs(ctx:players()) do
    if p.tower == land then
      return p
    end
  end
  return nil
end

local function land_of(ctx, marker)
  for _, l in ipairs(ctx:legions()) do
    if l.marker == marker then
      return l.land
    end
  end
  return nil
end

-- May the legion asking muster a Balrog in its land? Outside a game (a
-- rules query of what a Tower musters) there is no score to ask: yes.
titan.hook("balrog_may_muster", function(recruit, ...)
  local ctx = titan.ctx()
  if not ctx then
    return true
  end
  local owner = tower_player(ctx, ctx.land)
  if not owner then
    return false
  end
  local mustered = ctx:get("balrogs_mustered", owner.seat)
  return mustered < owner.score // POINTS_PER_BALROG
end)

-- Count each Balrog against the tower it was mustered in.
titan.on("muster", function(ctx)
  if ctx.character ~= "Balrog" then
    return
  end
  local land = land_of(ctx, ctx.legion)
  local owner = land and tower_player(ctx, land)
  if owner then
    ctx:set("balrogs_mustered", owner.seat, ctx:get("balrogs_mustered", owner.seat) + 1)
  end
end)
