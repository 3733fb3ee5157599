-- a unit filter naming a character the variant does not have would never
-- pass: titan check says so at the handler's line
titan.on("battle_phase_end", { phase = "strike",
  unit = { character = "Trol", damaged = true } }, function(ctx) end)
