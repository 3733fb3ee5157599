-- string.dump is gone with bytecode
local bytes = string.dump(function() return 1 end)
