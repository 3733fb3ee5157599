-- House rule: a Troll heals 1 hit at the end of its side's strike phase
-- (a slain Troll stays slain: only the living on the battleland heal).
-- The filter is checked by the engine before anything crosses into Lua:
-- the handler runs only at the end of a strike phase, and only when the
-- side whose phase it was has a damaged, living Troll on the battleland
-- (`side = "event"`: the side the event names). The units' filter then
-- picks those Trolls before any unit's table is made.
titan.on("battle_phase_end", {
  phase = "strike",
  unit = { character = "Troll", side = "event", status = "on_board", alive = true, damaged = true },
}, function(ctx)
  for _, u in ipairs(ctx:units{ character = "Troll", side = ctx.side, status = "on_board", alive = true }) do
    if u.damage > 0 then
      ctx:heal(u.id, 1)
    end
  end
end)
