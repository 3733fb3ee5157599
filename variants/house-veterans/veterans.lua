-- House rule: veterans (README.md). Legions that win battles become
-- veterans; veterans strike better and may pass a character to a legion
-- beside them, chosen in two steps.

local MAX_VETERANCY = 3

-- Battle: a veteran legion's characters strike with one more skill (at
-- most 4). The battle reads the legion's veterancy, a game variable.
titan.on("battle_phase_start", { phase = "strike" }, function(ctx)
  local e = ctx:engagement()
  if not e then return end
  for _, side in ipairs({ "attacker", "defender" }) do
    local legion = side == "attacker" and e.attacker or e.defender
    if ctx:get("veterancy", legion) >= 2 then
      for _, u in ipairs(ctx:units{ side = side, status = "on_board", alive = true }) do
        local base = ctx:get_character(u.character).skill
        if u.skill == base and base < 4 then ctx:set_unit(u.id, "skill", base + 1) end
      end
    end
  end
end)

-- Battle: each enemy slain counts for the legion of the side that slew it
-- (a game variable set from the battle).
titan.on("unit_slain", function(ctx)
  local e = ctx:engagement()
  if not e then return end
  local legion = ctx.side == "attacker" and e.defender or e.attacker
  ctx:set("kills", legion, ctx:get("kills", legion) + 1)
end)

-- Masterplay: a legion that wins a battle gains one veterancy, two when it
-- slew 3 or more; the count of kills starts afresh for the next battle.
titan.on("battle_end", function(ctx)
  for _, legion in ipairs({ ctx.attacker, ctx.defender }) do
    local kills = ctx:get("kills", legion)
    local won = (legion == ctx.attacker and ctx.winner == "attacker")
      or (legion == ctx.defender and ctx.winner == "defender")
    local alive = false
    for _, l in ipairs(ctx:legions()) do if l.marker == legion then alive = true end end
    if alive then
      if won then
        local gain = kills >= 3 and 2 or 1
        ctx:set("veterancy", legion, math.min(MAX_VETERANCY, ctx:get("veterancy", legion) + gain))
      end
      ctx:set("kills", legion, 0)
    end
  end
end)

local function legion_of(ctx, marker)
  for _, l in ipairs(ctx:legions()) do if l.marker == marker then return l end end
end

-- The characters `from` may pass to `to`: not its Titan, not its last one,
-- and only while `to` has room.
local function passable(ctx, from, to)
  local out, seen = {}, {}
  if #from.characters < 2 or #to.characters >= ctx:max_legion_size() then return out end
  for _, name in ipairs(from.characters) do
    if not seen[name] and not ctx:get_character(name).titan then
      seen[name] = true
      out[#out + 1] = name
    end
  end
  return out
end

titan.action("transfer", {
  legal = function(ctx)
    local out = {}
    for _, a in ipairs(ctx:legions()) do
      if a.owner == ctx.player and ctx:get("veterancy", a.marker) >= 1 then
        for _, b in ipairs(ctx:legions()) do
          if b.owner == ctx.player and b.marker ~= a.marker and b.land == a.land
              and #passable(ctx, a, b) > 0 then
            out[#out + 1] = { a.marker, b.marker }
          end
        end
      end
    end
    return out
  end,
  -- Which character goes is the player's next choice.
  apply = function(ctx, args)
    ctx:set("transfer_from", ctx.player, args.from)
    ctx:set("transfer_to", ctx.player, args.to)
    ctx:choose("transfer_pick")
  end,
})

titan.action("transfer_pick", {
  legal = function(ctx)
    local from = legion_of(ctx, ctx:get("transfer_from", ctx.player))
    local to = legion_of(ctx, ctx:get("transfer_to", ctx.player))
    if not from or not to then return {} end
    return passable(ctx, from, to)
  end,
  apply = function(ctx, args)
    ctx:move_character(ctx:get("transfer_from", ctx.player), ctx:get("transfer_to", ctx.player), args.character)
    ctx:set("transfer_from", ctx.player, "")
    ctx:set("transfer_to", ctx.player, "")
  end,
})
