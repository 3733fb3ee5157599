-- Test actions over the rider relation (docs/scripting.md, "Riders and mounts").
local function everyone(ctx)
  local out = {}
  for _, u in ipairs(ctx:units()) do out[#out + 1] = u.id end
  return out
end
local function always() return true end

titan.action("carry", {
  legal = everyone,
  apply = function(ctx, args)
    -- ctx:may_mount says in advance what ctx:mount would refuse, and why.
    local ok, why = ctx:may_mount(args.rider, ctx.unit)
    assert(ok == (why == nil))
    ctx:mount(args.rider, ctx.unit)
    assert(ok)
    -- Seen at once: the rider is at its mount's hex, riding it.
    local r = ctx:get_unit(args.rider)
    assert(r.status == "riding" and r.hex == ctx:get_unit(ctx.unit).hex)
    assert(ctx:mount_of(args.rider) == ctx.unit and ctx:rider_of(ctx.unit) == args.rider)
    assert(ctx:get_hex(r.hex).unit == ctx.unit and ctx:get_hex(r.hex).rider == args.rider)
  end,
})

local function drop(label)
  return {
    legal = always,
    apply = function(ctx)
      local r = ctx:rider_of(ctx.unit)
      ctx:dismount(r, label)
      assert(ctx:get_unit(r).hex == label and ctx:mount_of(r) == nil and ctx:get_unit(r).status == "on_board")
    end,
  }
end
titan.action("drop_d2", drop("D2"))
titan.action("drop_a1", drop("A1"))

titan.action("move_rider", {
  legal = always,
  apply = function(ctx) ctx:move(ctx:rider_of(ctx.unit), "A1") end,
})
titan.action("turn_mount", { legal = always, apply = function(ctx) ctx:change_side(ctx.unit) end })
titan.action("drop_nobody", { legal = always, apply = function(ctx) ctx:dismount(ctx.unit, "A1") end })

titan.action("blast", {
  legal = everyone,
  apply = function(ctx, args)
    local hex = ctx:get_hex(ctx:get_unit(args.target).hex)
    ctx:damage(hex.unit, 2)
  end,
})
titan.action("remove", { legal = everyone, apply = function(ctx, args) ctx:remove(args.target) end })

titan.action("unlock", { legal = everyone, apply = function(ctx, args) ctx:set_unit(args.target, "locked", false) end })
titan.action("relock", { legal = everyone, apply = function(ctx, args) ctx:set_unit(args.target, "locked", true) end })
titan.action("bad_locked", { legal = always, apply = function(ctx) ctx:set_unit(ctx.unit, "locked", 3) end })
