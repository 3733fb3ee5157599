-- a misspelt filter field is an error where the handler is registered
titan.on("battle_phase_end",
  { phse = "strike" }, function(ctx) end)
