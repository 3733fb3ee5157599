-- legal and apply must be functions
titan.action("pray", {
  legal = true,
  apply = function(ctx, args) end,
})
