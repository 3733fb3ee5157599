-- an error object whose __tostring is a pattern bomb
local bomb = setmetatable({}, { __tostring = function()
    return string.match(string.rep("a", 100000), ".-.-.-.-b")
end })
error(bomb)
