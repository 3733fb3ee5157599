-- scripts may not touch files
local f = io.open("/etc/passwd")
