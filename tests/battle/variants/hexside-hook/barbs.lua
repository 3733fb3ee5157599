-- One hit to a character below a wall (not on its top side) at the end of
-- each strike phase.
titan.hook("barbs", function(power, skill, damage, native, top, ctx)
  assert(ctx:get_unit(ctx.unit).hex == ctx.hex)
  if top then return 0 end
  return 1
end)
