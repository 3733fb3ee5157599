-- a misspelt field of a unit filter is an error where the handler is registered
titan.on("battle_phase_end",
  { unit = { charcter = "Troll" } }, function(ctx) end)
