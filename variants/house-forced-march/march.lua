-- House rule: forced march (README.md).

-- 1. Every legion that can move must: the move phase does not end while a
-- legion of the player's that has not moved could move by the signs.
titan.on("may_end_phase", { phase = "move" }, function(ctx)
  if not ctx.roll then return end
  for _, l in ipairs(ctx:legions()) do
    if l.owner == ctx.player and not l.moved and #ctx:moves(l.land, ctx.roll, ctx.player) > 0 then
      ctx.reason = "legion " .. l.marker .. " can still move: every legion that can move must (forced march)"
      return false
    end
  end
end)

-- 2. Desertion: the legions of the player that stood still this turn with
-- `desertion_size` characters or more (and at least two: a legion is never
-- emptied) and have lost no deserter this turn.
local function standing(ctx)
  local size = ctx:option("desertion_size")
  local out = {}
  if size == 0 then return out end
  for _, l in ipairs(ctx:legions()) do
    if l.owner == ctx.player and not l.moved and #l.characters >= math.max(size, 2)
        and ctx:get("deserted", l.marker) ~= ctx.turn then
      out[#out + 1] = l
    end
  end
  return out
end

-- The turn does not end while such a legion has not lost its deserter.
titan.on("may_end_phase", { phase = "muster" }, function(ctx)
  local l = standing(ctx)[1]
  if l then
    ctx.reason = "legion " .. l.marker .. " stood still: it loses a deserter first"
    return false
  end
end)

titan.action("desert", {
  legal = function(ctx)
    local out = {}
    for _, l in ipairs(standing(ctx)) do out[#out + 1] = l.marker end
    return out
  end,
  apply = function(ctx, args)
    ctx:set("deserting", ctx.player, args.legion)
    ctx:choose("deserter")
  end,
})

titan.action("deserter", {
  legal = function(ctx)
    local marker = ctx:get("deserting", ctx.player)
    local out, seen = {}, {}
    for _, l in ipairs(ctx:legions()) do
      if l.marker == marker then
        for _, name in ipairs(l.characters) do
          if not seen[name] and not ctx:get_character(name).titan then
            seen[name] = true
            out[#out + 1] = name
          end
        end
      end
    end
    return out
  end,
  apply = function(ctx, args)
    local marker = ctx:get("deserting", ctx.player)
    ctx:return_character(marker, args.character)
    ctx:set("deserted", marker, ctx.turn)
    ctx:set("deserting", ctx.player, "")
    ctx:lower_score(ctx.player, ctx:option("desertion_points"))
  end,
})
