-- Lifegems (20.2-20.5, EN 440-452; DE): "the currency in the realm of Gods
-- of Titan". Each player begins with 0 (20.2) and earns them after each
-- engagement (20.3, 20.4), kept in the player variable `lifegems`, open to
-- all (20.5: the scorekeeper's column):
--
-- * a victory in battle, or a concession: the winner 10 for each enemy
--   character slain ("the number of all slain enemy characters by 10";
--   "Characters lost by the winning Legion are ignored"), the loser none;
-- * fleeing: the defender 5 for each of his characters, the attacker the
--   same number;
-- * an agreement: the loser 5 for each of his characters, the winner 10 for
--   each enemy character;
-- * a draw (both legions gone, or neither) and a battle lost on time (the
--   end of the 7th round): nobody any.
--
-- Readings: a concession before the battle counts as one during it (20.4
-- names only "Concession during Battle"); a Titan's fall (24.8) counts the
-- characters slain up to it, and the legion-mates set aside ("removed")
-- none. Spending them (hiring 22.4, reviving 19, the Darklord's teleport
-- 9.5) and trading them (7.2) are not yet here (README.md, "Masterplay").

titan.on("engagement_start", function(ctx)
  local e = ctx:engagement()
  ctx:set("gems_attacker", nil, ctx.attacker)
  ctx:set("gems_seats", nil, e and (e.attacker_player * 16 + e.defender_player) or 0)
  ctx:set("gems_lost_attacker", nil, 0)
  ctx:set("gems_lost_defender", nil, 0)
  ctx:set("gems_fled", nil, 0)
  ctx:set("gems_agreed", nil, false)
  ctx:set("gems_time_loss", nil, false)
end)

titan.on("character_slain", function(ctx)
  -- Only the engagement being resolved counts (`by` is its other legion).
  if ctx.by == nil then return end
  local of_attacker = ctx.legion == ctx:get("gems_attacker")
  if ctx.fate == "fled" then
    ctx:set("gems_fled", nil, ctx:get("gems_fled") + 1)
  elseif ctx.fate == "slain" or ctx.fate == "conceded" then
    local key = of_attacker and "gems_lost_attacker" or "gems_lost_defender"
    ctx:set(key, nil, ctx:get(key) + 1)
    -- Given up with no battle and no concession: an agreement.
    if ctx.fate == "slain" and not ctx.battle then ctx:set("gems_agreed", nil, true) end
  end
end)

titan.on("battle_end", function(ctx)
  if ctx.time_loss then ctx:set("gems_time_loss", nil, true) end
end)

local function add(ctx, seat, gems)
  if gems > 0 then ctx:set("lifegems", seat, ctx:get("lifegems", seat) + gems) end
end

titan.on("engagement_end", function(ctx)
  local winner = ctx.winner
  if (winner ~= "attacker" and winner ~= "defender") or ctx:get("gems_time_loss") then
    return
  end
  -- The engagement's seats, kept when it began (a marker may be another
  -- player's, taken from a slain Titan: the seat is who holds the legion).
  local seats = ctx:get("gems_seats")
  local attacker, defender = seats // 16, seats % 16
  local fled = ctx:get("gems_fled")
  if fled > 0 then
    add(ctx, defender, 5 * fled)
    add(ctx, attacker, 5 * fled)
    return
  end
  local won, lost = attacker, defender
  local enemy = ctx:get("gems_lost_defender")
  if winner == "defender" then
    won, lost = defender, attacker
    enemy = ctx:get("gems_lost_attacker")
  end
  add(ctx, won, 10 * enemy)
  if ctx:get("gems_agreed") then add(ctx, lost, 5 * enemy) end
end)
