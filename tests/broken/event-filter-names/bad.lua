-- a filter naming a hazard or a unit variable the variant does not have
-- would never pass: titan check says so at the handler's line
titan.on("before_strike", { hazard = { "Tree", "Lava" },
  unit = { { character = { "Ogre", "Trol" } }, { set = "markd" } } }, function(ctx) end)
