-- a filter's word must be one the field takes
titan.on("before_damage", { source = "melee" }, function(ctx) end)
