-- feed.lua: chapter 6's programs on a real GPU (make test-gpu; make gpu-report keeps this output):
-- pinning's cost, pinned against pageable copies, copies and kernels overlapped on streams, a
-- missing wait caught by the check, unified memory's faults against a prefetch, and a kernel
-- reading mapped host memory. Every program checks what it read and left (gpu.program's
-- validation); the bounds are loose on purpose: they catch a broken program or a lost overlap,
-- not a slow machine. The figures are printed for the report.
local MiB, GiB = 2^20, 2^30
local fmt = string.format
local i = gpu.info()
assert(not i.simulated or ALLOW_SIMULATED, "needs the cuda backend (a GPU)")
local function ms(t) return fmt("%.3f ms", t * 1e3) end
print(fmt("device %s: %s copy engine(s), PCIe gen %s x%s", i.name, tostring(i.async_engines),
          tostring(i.pcie_gen), tostring(i.pcie_width)))
assert(i.async_engines and i.async_engines >= 1, "asyncEngineCount")

-- the cost of pinning, per GiB (host work: cudaHostAlloc, cudaHostRegister)
local pin_bytes = math.min(256 * MiB, host.budget() // 2)
for _, kind in ipairs { "pinned", "registered", "mapped", "managed" } do
  local p = assert(gpu.pin { bytes = pin_bytes, kind = kind, trials = 2 })
  print(fmt("%-10s %s: alloc %s (%.3f s/GiB), free %s", kind, units.bytes(pin_bytes), ms(p.alloc_seconds),
            p.alloc_seconds_per_gib, ms(p.free_seconds)))
  assert(p.alloc_seconds > 0 and p.free_seconds >= 0)
end

-- pinned against pageable: the same 64 MiB, in and out
local n = 64 * MiB
local function copies(kind)
  local r = assert(gpu.program { buffers = { h = { kind, n }, d = { "device", n } },
    ops = { { "host_fill", "h" }, { "copy", "d", "h" }, { "copy", "h", "d" }, { "read", "d" } } })
  assert(r.validated)
  return r.ops[2].finish - r.ops[2].start, r.ops[3].finish - r.ops[3].start
end
local pin_in, pin_out = copies("pinned")
local page_in, page_out = copies("pageable")
print(fmt("64 MiB H2D pinned %.1f GB/s, pageable %.1f GB/s; D2H pinned %.1f GB/s, pageable %.1f GB/s",
          n / pin_in / 1e9, n / page_in / 1e9, n / pin_out / 1e9, n / page_out / 1e9))
assert(n / pin_in > 1e9 and n / pin_out > 1e9, "pinned copies over 1 GB/s")

-- overlap: 8 chunks of 16 MiB in, a kernel as long as a copy, out; 1 stream against 3
local c, chunks = 16 * MiB, 8
local function run(streams)
  local ops = { { "host_fill", "hin" } }
  for k = 0, chunks - 1 do
    local s, d = k % streams + 1, "d" .. k % streams
    ops[#ops + 1] = { "copy", d, "hin", src_off = k * c, bytes = c, stream = s }
    ops[#ops + 1] = { "kernel", d, seconds = pin_in / 4, stream = s }
    ops[#ops + 1] = { "copy", "hout", d, off = k * c, bytes = c, stream = s }
  end
  local bufs = { hin = { "pinned", chunks * c }, hout = { "pinned", chunks * c } }
  for k = 0, streams - 1 do bufs["d" .. k] = { "device", c } end
  local r = assert(gpu.program { buffers = bufs, ops = ops })
  assert(r.validated and r.held ~= nil)
  return r
end
local one, three = run(1), run(3)
print(fmt("8 x 16 MiB in, kernel, out: one stream %s, three streams %s (%.2fx); kernel rounds %d",
          ms(one.seconds), ms(three.seconds), one.seconds / three.seconds, one.ops[3].rounds))
print(fmt("  three streams: h2d busy %s, sm busy %s, d2h busy %s", ms(three.busy.h2d), ms(three.busy.sm), ms(three.busy.d2h)))
if i.async_engines >= 2 then assert(three.seconds < 0.8 * one.seconds, "copies and kernels overlap") end

-- a kernel on stream 2 that does not wait for the copy on stream 1: the check catches the race
local race, why = gpu.program { buffers = { h = { "pinned", 64 * MiB }, d = { "device", 64 * MiB } },
  ops = { { "host_fill", "h" }, { "copy", "d", "h", stream = 1 }, { "kernel", "d", stream = 2, seconds = 1e-4 },
          { "copy", "h", "d", stream = 2 } } }
print("no wait: " .. (race and "the data came out right this time" or why))

-- unified memory: the first pass faults, the second finds the pages; a prefetch first
local um = math.min(512 * MiB, host.budget() // 2, gpu.budget() // 2)
um = um - um % 4096
local f = assert(gpu.program { buffers = { m = { "managed", um } },
  ops = { { "host_fill", "m" }, { "read", "m" }, { "read", "m" } } })
local p = assert(gpu.program { buffers = { m = { "managed", um } },
  ops = { { "host_fill", "m" }, { "prefetch", "m" }, { "read", "m" } } })
local first, second = f.ops[2].finish - f.ops[2].start, f.ops[3].finish - f.ops[3].start
local pre = p.ops[2].finish - p.ops[2].start
print(fmt("managed %s: first pass %s (%.1f GB/s, faults), second %s, prefetch %s (%.1f GB/s)",
          units.bytes(um), ms(first), um / first / 1e9, ms(second), ms(pre), um / pre / 1e9))
assert(first > 2 * second, "a faulting pass is slower than a resident one")

-- zero-copy: a kernel reads mapped host memory over the link
local z = assert(gpu.program { buffers = { z = { "mapped", 64 * MiB } }, ops = { { "host_fill", "z" }, { "read", "z" } } })
local zt = z.ops[2].finish - z.ops[2].start
print(fmt("zero-copy read of 64 MiB: %s, %.1f GB/s", ms(zt), n / zt / 1e9))
assert(n / zt > 0.5e9 and n / zt < 200e9, "a mapped read runs at the link's rate")
print("feed ok")
