-- The access-pattern API (docs/lua-api.md, "How a kernel touches memory") on the simulator's
-- RTX 3090 profile, deterministic: every function's result shape, the counts it carries beside
-- the figure against hand counts, the model's figures in the order the lessons teach, misuse
-- raising (one option per function at least), a run-time failure returning nil, message.
local MiB, GiB = units.MiB, units.GiB
local function near(a, b, rel, what) assert(math.abs(a - b) <= rel * math.abs(b), ("%s: %s, want %s"):format(what, a, b)) end
local i = gpu.info()
assert(i.fp32_lanes_per_sm == 128 and math.abs(i.sm_clock_mhz - 1695.9) < 0.1, "3090 clock from 35.6 TFLOP/s")
near(i.fp32_flops, 35.6e12, 1e-6, "fp32 peak")
assert(i.l2_persist_max_bytes == 4718592 and i.l2_window_max_bytes == 134213632, "persistence limits")
assert(gpu.profile("t4").l2_persist_max_bytes == nil, "no persistence on compute capability 7.5")

-- the counts: pure, the same on every backend
assert(gpu.sectors(4) == 4 and gpu.sectors(8) == 8 and gpu.sectors(32) == 32 and gpu.sectors(4096) == 32)
assert(gpu.sectors(4, 4, 4) == 5, "one word off: five sectors")
assert(gpu.sectors("16", 16) == 16 and gpu.sectors(0) == 1)
assert(gpu.bank_ways(1) == 1 and gpu.bank_ways(2) == 2 and gpu.bank_ways(32) == 32 and gpu.bank_ways(33) == 1)
assert(gpu.bank_ways(34) == 2 and gpu.bank_ways(0) == 1)

-- strided reads: the effective bandwidth falls with the sectors
local base
for _, s in ipairs { 1, 2, 4, 8, 32 } do
  local r = assert(gpu.strided { stride = s, bytes = "128MiB", trials = 3 })
  assert(r.kernel == "stride" and r.simulated and r.validated and r.samples == 3, "strided shape")
  assert(r.bytes == 128 * MiB and r.sectors_per_request == gpu.sectors(4 * s), "strided counts")
  assert(r.sector_bytes == r.bytes * math.min(s, 8) and r.moved_bytes == r.sector_bytes, "sector bytes")
  assert(r.footprint_bytes == ((128 * MiB / 4 - 1) * s + 1) * 4, "footprint " .. r.footprint_bytes)
  near(r.bytes_per_s * r.seconds, r.bytes, 1e-9, "bytes_per_s = n/t")
  assert(r.convention:find("effective bandwidth"), "convention")
  base = base or r.bytes_per_s
  near(base / r.bytes_per_s, math.min(s, 8), 0.05, "stride " .. s)
end
local off = assert(gpu.strided { stride = 1, offset = 1, bytes = "32MiB" })
assert(off.sectors_per_request == 5, "misaligned by one word")
local rnd = assert(gpu.random { bytes = "300MiB" })
assert(rnd.bytes == 256 * MiB and rnd.sectors_per_request > 31, "random: a power of two, a sector a lane")

-- layout: 32-byte structs read 32 bytes per particle for 12 used
local aos = assert(gpu.layout { layout = "aos", particles = 2^22 })
local soa = assert(gpu.layout { layout = "soa", particles = 2^22 })
assert(aos.kernel == "aos" and soa.kernel == "soa" and aos.bytes == soa.bytes and aos.bytes == 16 * 2^22)
assert(aos.sector_bytes == 36 * 2^22 and soa.sector_bytes == 16 * 2^22 and aos.flops == 5 * 2^22)
near(soa.intensity, 5 / 16, 1e-12, "SoA intensity")
near(soa.bytes_per_s / aos.bytes_per_s, 36 / 16, 0.1, "SoA vs AoS")
assert(assert(gpu.layout { layout = "aos", particles = 2^22, fields = 4 }).sector_bytes == 20 * 2^22)

-- the L2: inside it faster than far outside; a window helps the hot array where it exists
local l2 = i.l2_bytes
assert(gpu.reread { bytes = l2 // 2 }.bytes_per_s > 1.5 * gpu.reread { bytes = 16 * l2 }.bytes_per_s)
local plain = assert(gpu.persist { hot = "4MiB", cold = "256MiB", window = false })
local win = assert(gpu.persist { hot = "4MiB", cold = "256MiB" })
assert(plain.window == false and win.window == true and win.setaside_bytes == i.l2_persist_max_bytes)
assert(win.bytes_per_s > plain.bytes_per_s, "the window keeps the hot array")

-- transposes and banks
local bw = {}
for _, k in ipairs { "copy", "naive", "tiled", "padded" } do
  local r = assert(gpu.transpose { kernel = k, n = 4096 })
  assert(r.kernel == k and r.bytes == 2 * 4096 * 4096 * 4)
  bw[k] = r.bytes_per_s
end
assert(bw.naive < bw.tiled and bw.tiled < bw.padded and bw.padded <= bw.copy, "transposes in order")
assert(gpu.transpose { kernel = "tiled", n = 4096 }.bank_ways == 32 and gpu.transpose { kernel = "padded", n = 4096 }.bank_ways == 1)
local b1, b32 = assert(gpu.banks { stride = 1 }), assert(gpu.banks {})
assert(b32.bank_ways == 1 and b1.bytes == i.sm_count * 1024 * 65536 * 4, "banks: bytes of shared memory read")
near(b1.bytes_per_s / assert(gpu.banks { stride = 32 }).bytes_per_s, 32, 0.02, "32 ways")

-- intensity: the roofline's two sides
local low, high = assert(gpu.fma { fmas = 1, bytes = "64MiB" }), assert(gpu.fma { fmas = 2048, bytes = "64MiB" })
near(low.intensity, 0.25, 1e-12, "1 FMA per 8 bytes")
assert(low.flops_per_s < 0.01 * i.fp32_flops and high.flops_per_s > 0.95 * i.fp32_flops, "memory- then compute-bound")

-- pages: TLB reach in the latency
local in1 = assert(gpu.pages { bytes = "16MiB" })
local past1 = assert(gpu.pages { bytes = "1GiB" })
local past2 = assert(gpu.pages { bytes = 16 * GiB, step = "2MiB" })
assert(in1.lines == 8 and in1.step == 2 * MiB and in1.validated and #in1.sms == 0 and in1.ns_per_load)
assert(in1.ns_per_load < past1.ns_per_load and past1.ns_per_load < past2.ns_per_load, "TLB steps")
assert(in1.convention:find("through L2 only"))
local dense = assert(gpu.pages { bytes = "64MiB", step = 128 })
assert(dense.lines == 2^19, "128-byte lines")

-- misuse raises, naming the function; run-time failures return nil, message
local function raises(f, t, want)
  local ok, err = pcall(f, t)
  assert(not ok and tostring(err):find(want, 1, true), ("%s: %s"):format(want, tostring(err)))
end
raises(gpu.strided, { stride = 0, bytes = "1MiB" }, "gpu.strided: stride must be 1..1024")
raises(gpu.strided, { stride = 2, byts = "1MiB" }, "unknown option 'byts'")
raises(gpu.strided, { stride = 2 }, "gpu.strided: 'bytes' must be given")
raises(gpu.random, { bytes = 10 }, "gpu.random: 'bytes' must be given")
raises(gpu.layout, { layout = "aoss", particles = 4096 }, "layout must be one of aos, soa")
raises(gpu.layout, { layout = "aos", particles = 10 }, "gpu.layout: 'particles'")
raises(gpu.reread, {}, "gpu.reread: 'bytes' must be given")
raises(gpu.persist, { hot = "8MiB", cold = "4MiB" }, "'cold' must be at least 'hot'")
raises(gpu.persist, { hot = "1MiB", cold = "4MiB", hit_ratio = 1.5 }, "'hit_ratio' must be in (0, 1]")
raises(gpu.transpose, { kernel = "naive", n = 100 }, "a multiple of 32")
raises(gpu.transpose, { kernel = "diagonal", n = 64 }, "kernel must be one of copy, naive, tiled, padded")
raises(gpu.banks, { stride = 2000 }, "gpu.banks: stride must be 0..1024")
raises(gpu.fma, { fmas = 0, bytes = "1MiB" }, "gpu.fma: fmas must be 1..65536")
raises(gpu.pages, { bytes = "1MiB", step = 100 }, "multiple of 128")
raises(gpu.pages, { bytes = "64GiB", step = 128 }, "2 to 4194304 lines")
assert(not pcall(gpu.sectors, 4, 64) and not pcall(gpu.bank_ways, -1))
local none, why = gpu.transpose { kernel = "copy", n = 65536 }
assert(none == nil and why:find("this access pattern needs"), tostring(why))
print("access API ok")
