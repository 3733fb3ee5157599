-- The actions do nothing but cost: the engine checks and pays.
for _, name in ipairs({ "charge", "inspire", "tithe", "levy" }) do
  titan.action(name, { legal = function(ctx) return true end, apply = function(ctx) end })
end
