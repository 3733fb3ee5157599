-- House rule: a Troll heals 1 hit at the end of its side's strike phase
-- (a slain Troll stays slain: only the living on the battleland heal).
-- The event's filter leaves the maneuver phases out before anything
-- crosses into Lua; the units' filter picks the Trolls before any unit's
-- table is made.
titan.on("battle_phase_end", { phase = "strike" }, function(ctx)
  for _, u in ipairs(ctx:units{ character = "Troll", side = ctx.side, status = "on_board", alive = true }) do
    if u.damage > 0 then
      ctx:heal(u.id, 1)
    end
  end
end)
