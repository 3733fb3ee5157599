-- The attacker charges: in the first round it may not end its maneuver
-- while a unit of its side could still move.
titan.on("may_end_battle_phase", { phase = "maneuver", side = "attacker" }, function(ctx)
  if ctx.round == 1 then
    ctx.reason = "the attacker charges in the first round: move every unit that can"
    return false
  end
end)
