-- Sand, as Colossus's hazard chart has it, written for titan by the
-- importer (`titan import colossus`, import/lua/sand.lua): a water-dweller
-- (a character native to Lake) standing in Sand takes a hit at the end of
-- each strike phase. hazards.ron gives Sand the effect
-- `Hook("sand_dries_water_dwellers")`, called for each living character in
-- a Sand hex.
titan.hook("sand_dries_water_dwellers", function(power, skill, damage, native, ctx)
  local u = ctx:get_unit(ctx.unit)
  for _, hazard in ipairs(ctx:get_character(u.character).natives) do
    if hazard == "Lake" then
      return 1
    end
  end
  return 0
end)
