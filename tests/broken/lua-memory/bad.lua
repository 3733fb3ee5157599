-- a memory bomb is stopped by the memory cap
local parts = {}
local s = string.rep("x", 1 << 30)
