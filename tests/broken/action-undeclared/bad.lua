-- an action a script defines must be declared in actions.ron
titan.action("zap", {
  legal = function(ctx) return true end,
  apply = function(ctx, args) end,
})
