-- feed.lua: chapter 6's programs on a real GPU (make test-gpu; under make gpu-report it judges the
-- report's feed_* figures, tests/gpu/report.lua section 12, measured once): pinning's cost,
-- pinned against pageable copies, copies and kernels overlapped on streams, a missing wait caught
-- by the check, unified memory's faults against a prefetch and reading in place, and a kernel
-- reading mapped host memory. Every program checks what it read and left (gpu.program's
-- validation: a wrong one never becomes a figure); the bounds are loose on purpose: they catch a
-- broken program or a lost overlap, not a slow machine. The figures are printed.
local MiB = 2^20
local fmt = string.format
local i = gpu.info()
assert(not i.simulated or ALLOW_SIMULATED, "needs the cuda backend (a GPU)")
local function span(o) return o.finish - o.start end

-- the same programs as the report's section 12, with the same keys (kept in step with it)
local function measure()
  local F = { feed_async_engines = i.async_engines }
  local pb = math.min(256 * MiB, host.budget() // 2)
  F.feed_pin_bytes = pb
  for _, kind in ipairs { "pinned", "registered", "mapped", "managed" } do
    local p = assert(gpu.pin { bytes = pb, kind = kind, trials = 2 })
    F["feed_pin_" .. kind .. "_alloc_s_per_gib"], F["feed_pin_" .. kind .. "_free_seconds"] = p.alloc_seconds_per_gib, p.free_seconds
  end
  local n = 64 * MiB
  F.feed_copy_bytes = n
  for _, kind in ipairs { "pinned", "pageable" } do
    local r = assert(gpu.program { buffers = { h = { kind, n }, d = { "device", n } },
      ops = { { "host_fill", "h" }, { "copy", "d", "h" }, { "copy", "h", "d" }, { "read", "d" } } })
    F["feed_h2d_" .. kind .. "_seconds"], F["feed_d2h_" .. kind .. "_seconds"] = span(r.ops[2]), span(r.ops[3])
  end
  local c, chunks = 16 * MiB, 8
  local one = assert(gpu.program { buffers = { h = { "pinned", c }, d = { "device", c } },
                                   ops = { { "host_fill", "h" }, { "copy", "d", "h" } } })
  local k = span(one.ops[2])
  F.feed_streams_chunk_bytes, F.feed_streams_kernel_seconds = c, k
  for _, streams in ipairs { 1, 2, 3 } do
    local ops = { { "host_fill", "hin" } }
    for j = 0, chunks - 1 do
      local st, d = j % streams + 1, "d" .. j % streams
      ops[#ops + 1] = { "copy", d, "hin", src_off = j * c, bytes = c, stream = st }
      ops[#ops + 1] = { "kernel", d, seconds = k, stream = st }
      ops[#ops + 1] = { "copy", "hout", d, off = j * c, bytes = c, stream = st }
    end
    local bufs = { hin = { "pinned", chunks * c }, hout = { "pinned", chunks * c } }
    for j = 0, streams - 1 do bufs["d" .. j] = { "device", c } end
    local r = assert(gpu.program { buffers = bufs, ops = ops })
    local key = fmt("feed_streams_%d_", streams)
    F[key .. "seconds"], F[key .. "held"] = r.seconds, r.held
    for _, lane in ipairs { "h2d", "sm", "d2h" } do F[key .. "busy_" .. lane] = r.busy[lane] end
    if streams == 1 then F.feed_streams_kernel_rounds = r.ops[3].rounds end
  end
  local race, why = gpu.program { buffers = { h = { "pinned", 64 * MiB }, d = { "device", 64 * MiB } },
    ops = { { "host_fill", "h" }, { "copy", "d", "h", stream = 1 }, { "kernel", "d", stream = 2, seconds = 1e-4 },
            { "copy", "h", "d", stream = 2 } } }
  F.feed_race_caught, F.feed_race_why = not race, not race and why or nil
  local um = math.min(512 * MiB, host.budget() // 2, gpu.budget() // 2)
  um = um - um % 4096
  F.feed_um_bytes = um
  local f = assert(gpu.program { buffers = { m = { "managed", um } },
    ops = { { "host_fill", "m" }, { "read", "m" }, { "read", "m" } } })
  F.feed_um_first_seconds, F.feed_um_second_seconds = span(f.ops[2]), span(f.ops[3])
  local p = assert(gpu.program { buffers = { m = { "managed", um } }, ops = { { "host_fill", "m" }, { "prefetch", "m" }, { "read", "m" } } })
  F.feed_um_prefetch_seconds = span(p.ops[2])
  local h = assert(gpu.program { buffers = { m = { "managed", um } }, ops = { { "host_fill", "m" },
    { "advise", "m", "prefer_host" }, { "advise", "m", "accessed_by" }, { "read", "m" } } })
  F.feed_um_in_place_seconds = span(h.ops[4])
  local z = assert(gpu.program { buffers = { z = { "mapped", n } }, ops = { { "host_fill", "z" }, { "read", "z" } } })
  F.feed_mapped_read_seconds = span(z.ops[2])
  return F
end
local from_report = FIGURES ~= nil and FIGURES.feed_mapped_read_seconds ~= nil
if FIGURES and FIGURES.feed_error then error("the report's section 12 failed: " .. tostring(FIGURES.feed_error)) end
local F = from_report and FIGURES or measure()

local function ms(t) return fmt("%.3f ms", t * 1e3) end
local function gbs(bytes, t) return bytes / t / 1e9 end
print(fmt("device %s: %s copy engine(s), PCIe gen %s x%s%s", i.name, tostring(F.feed_async_engines),
          tostring(i.pcie_gen), tostring(i.pcie_width), from_report and " (the report's figures)" or ""))
assert(F.feed_async_engines and F.feed_async_engines >= 1, "asyncEngineCount")

-- the cost of pinning, per GiB (host work: cudaHostAlloc, cudaHostRegister)
for _, kind in ipairs { "pinned", "registered", "mapped", "managed" } do
  local per, free = F["feed_pin_" .. kind .. "_alloc_s_per_gib"], F["feed_pin_" .. kind .. "_free_seconds"]
  print(fmt("%-10s %s: %.3f s/GiB to allocate, %s to free", kind, units.bytes(F.feed_pin_bytes), per, ms(free)))
  assert(per > 0 and free >= 0, kind .. ": a cost")
end

-- pinned against pageable: the same 64 MiB, in and out
local n = F.feed_copy_bytes
print(fmt("%s H2D pinned %.1f GB/s, pageable %.1f GB/s; D2H pinned %.1f GB/s, pageable %.1f GB/s", units.bytes(n),
          gbs(n, F.feed_h2d_pinned_seconds), gbs(n, F.feed_h2d_pageable_seconds),
          gbs(n, F.feed_d2h_pinned_seconds), gbs(n, F.feed_d2h_pageable_seconds)))
assert(gbs(n, F.feed_h2d_pinned_seconds) > 1 and gbs(n, F.feed_d2h_pinned_seconds) > 1, "pinned copies over 1 GB/s")

-- overlap: 8 chunks of 16 MiB in, a kernel as long as a copy, out; 1, 2 and 3 streams
local s1, s2, s3 = F.feed_streams_1_seconds, F.feed_streams_2_seconds, F.feed_streams_3_seconds
print(fmt("8 x %s in, kernel (%s, %d rounds), out: one stream %s, two %s (%.2fx), three %s (%.2fx)",
          units.bytes(F.feed_streams_chunk_bytes), ms(F.feed_streams_kernel_seconds), F.feed_streams_kernel_rounds,
          ms(s1), ms(s2), s1 / s2, ms(s3), s1 / s3))
print(fmt("  three streams: h2d busy %s, sm busy %s, d2h busy %s", ms(F.feed_streams_3_busy_h2d),
          ms(F.feed_streams_3_busy_sm), ms(F.feed_streams_3_busy_d2h)))
if F.feed_async_engines >= 2 then assert(s3 < 0.8 * s1, "copies and kernels overlap") end

-- a kernel on stream 2 that does not wait for the copy on stream 1: the check catches the race
print("no wait: " .. (F.feed_race_caught and tostring(F.feed_race_why) or "the data came out right this time"))

-- unified memory: the first pass faults, the second finds the pages; a prefetch first; in place
local um = F.feed_um_bytes
local first, second = F.feed_um_first_seconds, F.feed_um_second_seconds
print(fmt("managed %s: first pass %s (%.1f GB/s, faults), second %s, prefetch %s (%.1f GB/s), read in place %s (%.1f GB/s)",
          units.bytes(um), ms(first), gbs(um, first), ms(second), ms(F.feed_um_prefetch_seconds),
          gbs(um, F.feed_um_prefetch_seconds), ms(F.feed_um_in_place_seconds), gbs(um, F.feed_um_in_place_seconds)))
assert(first > 2 * second, "a faulting pass is slower than a resident one")

-- zero-copy: a kernel reads mapped host memory over the link
local zt = F.feed_mapped_read_seconds
print(fmt("zero-copy read of %s: %s, %.1f GB/s", units.bytes(n), ms(zt), gbs(n, zt)))
assert(gbs(n, zt) > 0.5 and gbs(n, zt) < 200, "a mapped read runs at the link's rate")
print("feed ok")
