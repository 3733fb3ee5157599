-- Springs, as Colossus's hazard chart has them, written for titan by the
-- importer (`titan import colossus`, import/lua/spring.lua): every
-- character standing in a Spring heals one hit at the end of each strike
-- phase, the moment a Drift hurts those in it. hazards.ron gives Spring the
-- effect `Hook("spring_heals")`; a hazard hook's answer below 0 heals.
titan.hook("spring_heals", function(power, skill, damage, native, ctx)
  return -1
end)
