-- The Reckoning (Law of Titan 1980, 19): when it comes. The battle itself
-- is the platform's showdown (rules.ron, `battle.showdown`): the Beckoner
-- with all his legions against one legion at a time of every other player,
-- on the Reckoningboard.

-- The Creatures of the Characters Chart (characters.ron's class
-- "creature"): their stacks running out brings the Reckoning (19.C).
local CREATURES = {
  "Centaur", "Gargoyle", "Ogre", "Lion", "Troll", "Cyclops",
  "Minotaur", "Warbear", "Wyvern", "Behemoth", "Dragon", "Giant",
}

-- 19.B: "in which he has won at least one Engagement".
titan.on("turn_start", function(ctx)
  ctx:set("reckoning_won", ctx.player, false)
end)

titan.on("engagement_end", function(ctx)
  local p = ctx.winner_player
  if p ~= nil and p == ctx.active then
    ctx:set("reckoning_won", p, true)
  end
end)

-- 19.B: any player who has 400 points may beckon at the end of a Gameturn
-- of his in which he won an engagement.
local function score(ctx, seat)
  for _, p in ipairs(ctx:players()) do
    if p.seat == seat then return p.score end
  end
  return 0
end

titan.action("beckon", {
  legal = function(ctx)
    return ctx:option("reckoning")
      and ctx:get("reckoning_won", ctx.player)
      and score(ctx, ctx.player) >= 400
  end,
  apply = function(ctx)
    ctx:begin_showdown(ctx.player)
  end,
})

-- 19.C: the player who musters the last Creature of the fourth type to run
-- out must beckon at the end of the Gameturn; each further type brings
-- another Reckoning.
titan.on("muster", function(ctx)
  local out = 0
  for _, name in ipairs(CREATURES) do
    if ctx:caretaker(name) == 0 then out = out + 1 end
  end
  if out >= ctx:get("reckoning_next") then
    ctx:set("reckoning_next", nil, out + 1)
    for _, l in ipairs(ctx:legions()) do
      if l.marker == ctx.legion then
        ctx:set("reckoning_due", nil, l.owner)
      end
    end
  end
end)

-- Whether the seat holds a legion (a player in the game always does).
local function holds(ctx, seat)
  for _, l in ipairs(ctx:legions()) do
    if l.owner == seat then return true end
  end
  return false
end

titan.on("turn_end", function(ctx)
  local due = ctx:get("reckoning_due")
  if due < 0 or not ctx:option("reckoning") then return end
  ctx:set("reckoning_due", nil, -1)
  local others = false
  for _, p in ipairs(ctx:players()) do
    if p.seat ~= due and p.alive and holds(ctx, p.seat) then others = true end
  end
  if others and holds(ctx, due) then
    ctx:begin_showdown(due)
  end
end)
