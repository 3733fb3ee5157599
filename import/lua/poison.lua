-- Poison, as Colossus has it, written for titan by the importer (`titan
-- import colossus`, import/lua/poison.lua); `POISON` above names the
-- variant's poisonous characters and their poison. A strike of a
-- poisonous character that deals hits poisons its target by that much
-- more; at the beginning of each strike phase every poisoned character on
-- the battleland takes its poison in hits (Colossus's pre-strike effects).
-- The Unit variable "poisoned" (variables.ron) keeps it for the battle.

local poisonous = {}
for name in pairs(POISON) do
  poisonous[#poisonous + 1] = name
end
table.sort(poisonous)

titan.on("after_strike", { unit = { character = poisonous } }, function(ctx)
  if ctx.hits > 0 then
    local p = POISON[ctx:get_unit(ctx.unit).character]
    if p then
      ctx:set("poisoned", ctx.target, ctx:get("poisoned", ctx.target) + p)
    end
  end
end)

titan.on("battle_phase_start", { phase = "strike", unit = { set = "poisoned" } }, function(ctx)
  for _, u in ipairs(ctx:units{ status = "on_board", alive = true }) do
    local p = ctx:get("poisoned", u.id)
    if p > 0 then
      ctx:damage(u.id, math.min(p, u.power - u.damage))
    end
  end
end)
