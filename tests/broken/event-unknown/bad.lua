-- a misspelt event is an error where it is registered
titan.on("unit_kiled", function(ctx) end)
