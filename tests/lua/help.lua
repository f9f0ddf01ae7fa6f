-- help() in the sandbox: the modules, a module's functions, and for every public function of
-- gpu, host, alloc, units and vram its doc line and an example (a function missing from help's
-- table fails). help prints a line at a time: got collects them.
local saved, got = print, nil
print = function(s) got = got and got .. "\n" .. s or s end
got = nil
help()
assert(got:find("gpu", 1, true) and got:find("alloc", 1, true) and got:find("units", 1, true), got)
got = nil
help(gpu)
assert(got:find("gpu.copy", 1, true) and got:find("gpu.alloc", 1, true), got)
for _, mod in ipairs { "gpu", "host", "alloc", "units", "vram" } do
  for name, f in pairs(_G[mod]) do
    if type(f) == "function" then
      got = nil
      help(f)
      assert(got and got:find("^" .. mod .. "%." .. name .. ": ") and got:find("e.g. ", 1, true),
             mod .. "." .. name .. " has no help: " .. tostring(got))
    end
  end
end
got = nil
help(42)
assert(got:find("no help for that", 1, true), got)
-- a mistyped name: by its text, the one it meant; by its value (nil), said so
got = nil
help("vram.kv_cahce")
assert(got == "no help for that; did you mean vram.kv_cache?", got)
got = nil
help(vram.kv_cahce)
assert(got:find("^that name is nil: mistyped%?"), got)
got = nil
help()
assert(got:find("^modules: "), got)
print = saved
print("help ok")
