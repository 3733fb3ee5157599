-- scripts may not load bytecode
local chunk = string.char(27) .. "LuaT" .. string.rep("\0", 40)
local f = load(chunk)
f()
