-- an endless loop is stopped by the instruction budget
local n = 0
while true do
    n = n + 1
end
