-- a handler must be a function
local handler = 42
titan.on("unit_slain", handler)
