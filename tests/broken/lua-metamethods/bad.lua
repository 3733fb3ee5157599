-- table.sort and table.concat once looped in C through C metamethods,
-- where no instruction was counted
local huge = setmetatable({}, {
    __len = function() return 2 ^ 31 - 2 end,
    __index = rawlen,
    __newindex = rawlen,
})
table.concat(huge, "", 1, 1e15)
