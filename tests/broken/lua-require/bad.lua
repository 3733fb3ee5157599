-- scripts may not load modules
local socket = require("socket")
