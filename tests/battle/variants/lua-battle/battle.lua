-- Battle hooks of the lua-battle test variant. See docs/scripting.md,
-- "Hook points", for what each receives and returns.

-- Ability: a brute striking a target of skill 2 or less needs one less.
titan.hook("brute", function(is_striker, ranged, strike_number, dice, sp, ss, tp, ts)
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
titan.hook("frostbite", function(power, skill, damage, native)
  if native then return 0 end
  if damage == 0 then return 2 end
  return 1
end)

-- Range strength: a boulder throws half the power, plus one.
titan.hook("boulder", function(power, skill)
  return lib.half_down(power) + 1
end)
