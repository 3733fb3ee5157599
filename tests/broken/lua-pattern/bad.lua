-- a backtracking pattern once ran for minutes inside one library call;
-- patterns now count against the instruction budget
local s = string.rep("a", 100000)
local found = string.find(s, ".-.-.-.-b")
