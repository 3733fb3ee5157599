-- House rule: a Troll heals 1 hit at the end of its side's strike phase
-- (a slain Troll stays slain: only the living on the battleland heal).
titan.on("battle_phase_end", function(ctx)
  if ctx.phase ~= "strike" then return end
  for _, u in ipairs(ctx:units()) do
    if u.character == "Troll" and u.side == ctx.side and u.alive and u.hex and u.damage > 0 then
      ctx:heal(u.id, 1)
    end
  end
end)
