-- The strength of a Giant's boulder: half its power, when the engine says
-- the shot is possible. Asking runs this hook again, inside the query.
titan.hook("aimed", function(power, skill, ctx)
  if ctx:sight(ctx.unit, ctx.target).rangestrike then return power // 2 end
  return 0
end)
