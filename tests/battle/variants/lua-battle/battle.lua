-- Battle hooks of the lua-battle test variant. See docs/scripting.md,
-- "Hook points", for what each receives and returns.

-- Ability: a brute striking a target of skill 2 or less needs one less.
-- The ctx (last argument) reads the battle: the striker and the target.
titan.hook("brute", function(is_striker, ranged, strike_number, dice, sp, ss, tp, ts, ctx)
  assert(ctx.event == "brute" and ctx:get_unit(ctx.target).skill == ts)
  assert(ctx:get_unit(ctx.striker).skill == ss and ctx.round >= 1)
  if is_striker and not ranged and ts <= 2 then
    return strike_number - 1, dice
  end
  return strike_number, dice
end)

-- Ability: a thick hide makes strikes at it roll one die fewer (not below one).
titan.hook("thick_hide", function(is_striker, ranged, strike_number, dice, sp, ss, tp, ts)
  if not is_striker then
    return strike_number, lib.clamp(dice - 1, 1, 99)
  end
  return strike_number, dice
end)

-- Ability that fails: the engine must refuse the strike and change nothing.
titan.hook("cursed", function(is_striker)
  error("the curse strikes back")
end)

-- Hazard: frostbite hurts non-natives two hits while healthy, one once damaged.
-- Its ctx names the unit and the hex.
titan.hook("frostbite", function(power, skill, damage, native, ctx)
  assert(ctx:get_unit(ctx.unit).hex == ctx.hex and ctx:get_hex(ctx.hex).hazard ~= nil)
  if native then return 0 end
  if damage == 0 then return 2 end
  return 1
end)

-- Range strength: a boulder throws half the power, plus one.
titan.hook("boulder", function(power, skill, ctx)
  assert(ctx:get_unit(ctx.unit).power == power and ctx:get_unit(ctx.target).alive)
  return lib.half_down(power) + 1
end)
