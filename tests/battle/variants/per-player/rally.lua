titan.action("rally", {
  legal = function(ctx) return true end,
  apply = function(ctx) ctx:heal(ctx.unit, 1) end,
})
