-- gpu.program and gpu.pin on the simulator (deterministic): the result's shape and conventions,
-- names for buffers and events, labels, misuse raising with the function's name, run-time
-- failures (a race, the cap) as nil, message, and nothing left allocated.
local MiB, GiB = units.MiB, units.GiB
local function raises(f, want)
  local ok, err = pcall(f)
  assert(not ok, "expected an error containing: " .. want)
  assert(tostring(err):find(want, 1, true), "error '" .. tostring(err) .. "' lacks '" .. want .. "'")
end

local free0 = gpu.mem()
-- double buffering on two streams; the result names every operation's lane and times
local ops = { { "host_fill", "hin", seed = 9 } }
for i = 0, 3 do
  local s, d = i % 2 + 1, "d" .. i % 2
  ops[#ops + 1] = { "copy", d, "hin", src_off = i * 4 * MiB, bytes = 4 * MiB, stream = s, label = "in " .. i }
  ops[#ops + 1] = { "kernel", d, seconds = 2e-4, stream = s }
  ops[#ops + 1] = { "copy", "hout", d, off = i * 4 * MiB, bytes = 4 * MiB, stream = s }
end
local r = assert(gpu.program { buffers = { hin = { "pinned", "16MiB" }, hout = { "pinned", "16MiB" },
                                           d0 = { "device", "4MiB" }, d1 = { "device", "4MiB" } }, ops = ops })
assert(r.simulated == true and r.validated == true and r.held == true and r.backend == "sim")
assert(r.engines == gpu.info().async_engines and r.engines == 2)
assert(#r.ops == #ops and r.ops[2].label == "in 0" and r.ops[3].label == nil)
assert(r.ops[2].lane == "h2d" and r.ops[3].lane == "sm" and r.ops[4].lane == "d2h")
assert(r.ops[2].kind == "copy" and r.ops[2].buffer == "d0" and r.ops[2].source == "hin" and r.ops[2].bytes == 4 * MiB)
assert(r.ops[3].rounds >= 1 and r.ops[5].stream == 2)
for _, o in ipairs(r.ops) do assert(o.finish >= o.start and o.finish <= r.seconds + 1e-12, "times within the run") end
assert(r.busy.sm <= r.seconds and r.busy.h2d > 0 and r.busy.d2h > 0)
assert(r.buffers.hin.kind == "pinned" and r.buffers.hin.bytes == 16 * MiB and r.buffers.hin.alloc_seconds > 0)
assert(type(r.convention) == "string" and #r.warnings == 0)
assert(gpu.mem() == free0, "every buffer freed")

-- events by name; a program without the wait races, and says which operations
local base = { buffers = { h = { "pinned", "1MiB" }, d = { "device", "1MiB" } } }
base.ops = { { "host_fill", "h" }, { "copy", "d", "h", stream = 1 }, { "kernel", "d", stream = 2, seconds = 1e-4 } }
local no, err = gpu.program(base)
assert(no == nil and err:find("operations 2 and 3 used the same bytes", 1, true), tostring(err))
table.insert(base.ops, 3, { "record", event = "copied", stream = 1 })
table.insert(base.ops, 4, { "wait", event = "copied", stream = 2 })
base.ops[#base.ops + 1] = { "read", "d", stream = 2 }
assert(gpu.program(base).validated)

-- managed memory: faults on the first pass, none on the second; a prefetch moves it first
local m = assert(gpu.program { buffers = { m = { "managed", "256MiB" } },
                               ops = { { "host_fill", "m" }, { "read", "m" }, { "read", "m" } } })
assert(m.ops[2].faulted == 256 * MiB and m.ops[3].faulted == 0)
assert(m.ops[2].finish - m.ops[2].start > 10 * (m.ops[3].finish - m.ops[3].start), "faulting is slow")
local pf = assert(gpu.program { buffers = { m = { "managed", "256MiB" } },
                                ops = { { "host_fill", "m" }, { "prefetch", "m", to = "device" }, { "read", "m" } } })
assert(pf.ops[2].lane == "h2d" and pf.ops[3].faulted == 0)

-- pinning's cost: the profile's seconds per GiB
local p = assert(gpu.pin { bytes = "1GiB" })
local prof = gpu.profile(gpu.info().profile).model
assert(p.kind == "pinned" and p.trials == 3 and p.simulated)
assert(math.abs(p.alloc_seconds - (20e-6 + prof.pin_alloc_s_per_gib)) < 1e-9, "model: 20 us + s/GiB x GiB")
assert(math.abs(p.alloc_seconds_per_gib - p.alloc_seconds) < 1e-12)
local reg = assert(gpu.pin { bytes = "1GiB", kind = "registered", trials = 1 })
assert(reg.alloc_seconds < p.alloc_seconds)

-- misuse raises, naming what is wrong
raises(function() gpu.program { buffers = {}, ops = {} } end, "give at least one buffer")
raises(function() gpu.program { buffers = { a = { "vram", 4 } }, ops = {} } end, "must be device, pageable")
raises(function() gpu.program { buffers = { a = { "device", 6 } }, ops = {} } end, "whole 4-byte words")
raises(function() gpu.program { buffers = { a = { "device", 4 } }, ops = { { "teleport", "a" } } } end, "ops[1][1] must be copy")
raises(function() gpu.program { buffers = { a = { "device", 4 } }, ops = { { "read", "b" } } } end, "no buffer named 'b'")
raises(function() gpu.program { buffers = { a = { "device", 4 } }, ops = { { "read", "a", strem = 2 } } } end, "unknown option 'strem'")
raises(function() gpu.program { buffers = { a = { "device", 4 } }, ops = { { "read", "a", stream = 9 } } } end, "stream must be 1..8")
raises(function() gpu.program { buffers = { a = { "pinned", 4 } }, ops = { { "kernel", "a" } } } end, "kernels reach device, mapped and managed memory only")
raises(function() gpu.program { buffers = { a = { "device", 4 } }, ops = { { "wait", event = 1 } } } end, "no earlier operation records")
raises(function() gpu.program { buffers = { a = { "managed", 4 } }, ops = { { "advise", "a", "often" } } } end, "read_mostly, prefer_host")
raises(function() gpu.program { buffers = { a = { "device", 4 } }, ops = {}, extra = 1 } end, "unknown option 'extra'")
raises(function() gpu.pin { bytes = "1MiB", kind = "device" } end, "kind must be one of")
raises(function() gpu.pin {} end, "'bytes' must be given")
-- a run-time refusal: more device memory than the cap allows
local big, why = gpu.program { buffers = { d = { "device", 64 * GiB } }, ops = {} }
assert(big == nil and why:find("experiments may take at most", 1, true), tostring(why))
assert(gpu.mem() == free0, "nothing held after the failures")

-- the figures docs/lua-api.md states (the simulated RTX 3090, deterministic)
local function chunks(streams, kind)
  local o = { { "host_fill", "hin" } }
  for i = 0, 7 do
    local s, d = i % streams + 1, "d" .. i % 2
    o[#o + 1] = { "copy", d, "hin", src_off = i * 16 * MiB, bytes = 16 * MiB, stream = s }
    o[#o + 1] = { "kernel", d, seconds = 0.0006, stream = s }
    o[#o + 1] = { "copy", "hout", d, off = i * 16 * MiB, bytes = 16 * MiB, stream = s }
  end
  return assert(gpu.program { buffers = { hin = { kind, 128 * MiB }, hout = { kind, 128 * MiB },
                                          d0 = { "device", 16 * MiB }, d1 = { "device", 16 * MiB } }, ops = o })
end
assert(units.time(chunks(1, "pinned").seconds) == "15.26 ms")
assert(units.time(chunks(2, "pinned").seconds) == "8.28 ms")
assert(units.time(chunks(2, "pageable").seconds) == "27.87 ms")
local pre = assert(gpu.program { buffers = { m = { "managed", "1GiB" } }, ops = { { "host_fill", "m" }, { "prefetch", "m" }, { "read", "m" } } })
assert(math.floor((pre.ops[2].finish - pre.ops[2].start) * 1e3 + 0.5) == 48, "the 48 ms prefetch")
print("gpu.program and gpu.pin ok")
