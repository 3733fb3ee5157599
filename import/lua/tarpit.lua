-- TarPits, as Colossus has them, written for titan by the importer (`titan
-- import colossus`, import/lua/tarpit.lua): at the beginning of each strike
-- phase a character not native to TarPit standing in one is slowed by one
-- more for the rest of the battle, and one standing in a Spring is slowed
-- by one less (the Spring washes the tar off). A slowed character's
-- movement points are its skill less its slowing (the Unit variable
-- "slowed", variables.ron; `ctx:set_unit(.., "movement", ..)`).

local function native(ctx, u, hazard)
  for _, n in ipairs(ctx:get_character(u.character).natives) do
    if n == hazard then
      return true
    end
  end
  return false
end

titan.on("battle_phase_start", { phase = "strike", hazard = "TarPit" }, function(ctx)
  for _, u in ipairs(ctx:units{ status = "on_board", alive = true }) do
    local hazard = u.hex and ctx:get_hex(u.hex).hazard
    local slowed = ctx:get("slowed", u.id)
    local now = slowed
    if hazard == "TarPit" and not native(ctx, u, "TarPit") then
      now = slowed + 1
    elseif hazard == "Spring" and slowed > 0 then
      now = slowed - 1
    end
    if now ~= slowed then
      ctx:set("slowed", u.id, now)
      ctx:set_unit(u.id, "movement", math.max(0, u.skill - now))
    end
  end
end)
