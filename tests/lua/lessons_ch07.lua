-- Chapter 7: every figure the lessons' texts, tables and exercise answers state, recomputed from
-- the device layer's counts (gpu.sectors, gpu.bank_ways), the profiles and the access-pattern
-- experiments on the simulator's default profile (RTX 3090), so that a change that moves a
-- figure fails here instead of leaving a lesson that contradicts its own experiment. (Grading of
-- every exercise: vramlab check --answers; headless runs of every lesson: tests/cli/lessons.sh;
-- other profiles and small caps: tests/cli/access_lessons.sh.)
local MiB, GiB = units.MiB, units.GiB
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end

-- 7.1 coalescing -----------------------------------------------------------------------------
-- the table: sectors per request and bytes moved per byte used
for s, want in pairs { [1] = 4, [2] = 8, [4] = 16, [8] = 32, [16] = 32, [32] = 32 } do
  assert(gpu.sectors(4 * s) == want, "7.1 stride " .. s)
  near(want * 32 / 128, math.min(s, 8), 1e-12, "7.1 bytes moved per byte used, stride " .. s)
end
assert(gpu.sectors(4, 4, 4) == 5 and 5 * 32 / 128 == 1.25, "7.1 offset 1: 5 sectors, 1.25")
assert(gpu.sectors(16, 8) == 16, "7.1 exercise: doubles at stride 2")
near(128 / (gpu.sectors(16) * 32) * 100, 25, 1e-12, "7.1 exercise: stride 4 uses 25 %")
for s = 1, 64 do assert(gpu.sectors(4 * s) == math.min(4 * s, 32), "7.1 code exercise's answer at " .. s) end
-- the particles: 36 vs 16 bytes of sectors, 2.25x; 16-byte structs 16 B, 64-byte ones 32 B
local function layout(l, f) return assert(gpu.layout { layout = l, particles = 2^22, fields = f }) end
local aos, soa = layout("aos", 8), layout("soa")
assert(aos.sector_bytes == 36 * 2^22 and soa.sector_bytes == 16 * 2^22, "7.1 36 and 16 bytes per particle")
assert(layout("aos", 4).sector_bytes == 20 * 2^22 and layout("aos", 16).sector_bytes == 36 * 2^22, "7.1 16- and 64-byte structs")
near(36 / 16, 2.25, 1e-12, "7.1 2.25x")
near(soa.bytes_per_s / aos.bytes_per_s, 2.25, 0.1, "7.1 the simulated ratio is the bytes'")

-- 7.2 the L2 cache -----------------------------------------------------------------------------
local l2 = {}
for _, id in ipairs { "t4", "rtx3090", "a100-80gb", "h100-sxm", "rtx4090" } do l2[id] = gpu.profile(id).l2_bytes end
assert(l2.t4 == 4 * MiB and l2.rtx3090 == 6 * MiB, "7.2 T4 4 MiB, RTX 3090 6 MiB")
assert(l2["a100-80gb"] == 40 * MiB and l2["h100-sxm"] == 50 * MiB and l2.rtx4090 == 72 * MiB, "7.2 40, 50, 72 MB")
local a100 = gpu.profile("a100-80gb")
assert(a100.l2_persist_max_bytes == 30 * MiB and a100.l2_window_max_bytes == 134213632, "7.2 the A100's 30 MiB and 128 MiB")
assert(a100.sources.l2_persist_max_bytes:find("275542"), "7.2 the A100's figures name the forum thread")
assert(gpu.profile("t4").l2_persist_max_bytes == nil, "7.2 no set-aside before 8.0")
near(50 * MiB / 2, 25 * MiB, 1e-12, "7.2 exercise: 2 x table <= 50 MiB")
near(30 / 48, 0.625, 1e-12, "7.2 exercise: hitRatio")
-- the sweep steps down past the L2, and the plateaus are named L2 and DRAM
local pts = {}
for _, n in ipairs { 256 * 1024, 1 * MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB, 32 * MiB, 64 * MiB } do
  pts[#pts + 1] = { bytes = n, ns = 1e12 / assert(gpu.reread { bytes = n }).bytes_per_s }
end
local found = gpu.plateaus(pts, { levels = { { name = "L2", bytes = gpu.info().l2_bytes } } })
assert(#found == 2 and found[1].label == "L2" and found[2].label == "DRAM", "7.2 two plateaus, L2 then DRAM")
local plain = assert(gpu.persist { hot = gpu.info().l2_persist_max_bytes, cold = "256MiB", window = false })
local win = assert(gpu.persist { hot = gpu.info().l2_persist_max_bytes, cold = "256MiB" })
assert(win.window and not plain.window and win.bytes_per_s > 1.2 * plain.bytes_per_s, "7.2 the window helps")

-- 7.3 shared memory and bank conflicts ----------------------------------------------------------
for s, want in pairs { [1] = 1, [2] = 2, [3] = 1, [6] = 2, [12] = 4, [16] = 16, [32] = 32, [33] = 1, [34] = 2 } do
  assert(gpu.bank_ways(s) == want, "7.3 stride " .. s)
end
assert(32 + 32 * gpu.bank_ways(32) == 1056 and 32 + 32 * gpu.bank_ways(33) == 64, "7.3 1056 passes per tile, not 64")
assert(2 * 32 * 32 * 4 == 8192 and 32 * 4 == 128, "7.3 8 KiB per tile, 128 bytes of padding per block")
local t = {}
for _, k in ipairs { "copy", "naive", "tiled", "padded" } do t[k] = assert(gpu.transpose { kernel = k, n = 4096 }) end
assert(t.naive.sectors_per_request == 32 and t.copy.sectors_per_request == 4, "7.3 32 sectors per naive store")
assert(t.naive.bytes_per_s < t.tiled.bytes_per_s and t.tiled.bytes_per_s < t.padded.bytes_per_s, "7.3 the order")

-- 7.4 pages and TLBs ------------------------------------------------------------------------------
assert(16 * 2 * MiB == 32 * MiB and GiB // (4 * 1024) == 262144 and GiB // (2 * MiB) == 512, "7.4 reach and entries")
assert(16 * GiB // (2 * MiB) == 8192 and 40 * GiB // (2 * MiB) == 20480, "7.4 8192 lines, 20480 pages")
for _, id in ipairs(gpu.profiles()) do
  local src = gpu.profile(id).sources
  assert(src.tlb_l1_reach_bytes:find("Jia") and src.tlb_l1_reach_bytes:find("32 MiB"), "7.4 " .. id .. ": the TLB reach names Jia et al.")
end
local ns = {}
for _, b in ipairs { 16 * MiB, 32 * MiB, 64 * MiB, 8 * GiB, 16 * GiB } do ns[#ns + 1] = assert(gpu.pages { bytes = b }).ns_per_load end
assert(ns[1] == ns[2] and ns[3] > 1.4 * ns[2] and ns[5] > 1.4 * ns[4], "7.4 steps after 32 MiB and 8 GiB, each over 40 %")

-- 7.5 the roofline of a kernel --------------------------------------------------------------------
local i = gpu.info()
near(82 * 128 * 2 * 1.696e9, 35.6e12, 0.001, "7.5 82 x 128 x 2 x 1.70 GHz")
near(i.fp32_flops, 35.6e12, 1e-6, "7.5 the 3090 profile's peak")
near(35.6e12 / 936e9, 38, 0.002, "7.5 ridge 38"); near(66.9e12 / 3.35e12, 20, 0.002, "7.5 H100 ridge 20")
near(71e12 / 936e9, 75.9, 0.001, "7.5 the FP16 tensor ridge (a mistake)")
near(5 / 36, 0.14, 0.01, "7.5 AoS 0.14"); near(5 / 16, 0.31, 0.01, "7.5 SoA 0.31")
assert(2 * 152 / 8 == 38, "7.5 152 FMAs")
assert(soa.intensity == 5 / 16 and aos.intensity == 5 / 36, "7.5 the experiment's intensities")
local low = assert(gpu.fma { fmas = 1, bytes = "256MiB" })
assert(low.intensity == 0.25 and assert(gpu.fma { fmas = 4096, bytes = "256MiB" }).flops_per_s > 0.99 * i.fp32_flops, "7.5 both sides of the ridge")
near(soa.flops_per_s, soa.intensity * low.bytes_per_s, 0.1, "7.5 the SoA kernel on the sloped roof")
print("chapter 7 figures ok")
