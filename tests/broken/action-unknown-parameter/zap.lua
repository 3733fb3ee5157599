titan.action("zap", {
  legal = function(ctx) return {} end,
  apply = function(ctx, args) end,
})
