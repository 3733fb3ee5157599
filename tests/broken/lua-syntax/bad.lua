-- a hook with a missing "end"
titan.hook("broken", function(x)
    if x then return 1
end)
