titan.action("levy", {
  legal = function(ctx) return true end,
  apply = function(ctx, args) end,
})
