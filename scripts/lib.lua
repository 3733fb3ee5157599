-- Helpers shared by variants. A variant lists "shared:lib.lua" among its
-- files.scripts to have the `lib` table; scripts listed after it can use it.

lib = {}

--- `n` halved, rounded down (how Titan halves values: fleeing, range strength).
function lib.half_down(n)
  return n // 2
end

--- `x` bounded to `low..high`.
function lib.clamp(x, low, high)
  if x < low then return low end
  if x > high then return high end
  return x
end

--- How many elements of the list `list` equal `value`.
function lib.count(list, value)
  local n = 0
  for _, v in ipairs(list) do
    if v == value then n = n + 1 end
  end
  return n
end

--- A die roll from 1 to `sides` (6 when left out), from the game's generator.
function lib.roll(sides)
  return math.random(sides or 6)
end
