-- Chapter 3: the figures the lessons state, recomputed from the arithmetic, the profiles and the
-- rules behind them, so a changed figure fails here.
local MiB = units.MiB
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end

-- 3.1 -------------------------------------------------------------------------------------
-- n-half = t0 x B: the text's 5 us at 450 GB/s (n/t) is 2.25 MB; the exercise's 10 us at 25 GB/s
near(5e-6 * 450e9 / 1e6, 2.25, 1e-12, "3.1 n-half example")
near(10e-6 * 25e9 / 1e3, 250, 1e-12, "3.1 nhalf exercise")
-- 450 GB/s n/t is about half the RTX 3090's 936 GB/s counted read + written
local p3090 = assert(gpu.profile("rtx3090"))
near(p3090.published_bytes_per_s / 2 / 1e9, 468, 1e-9, "3.1 RTX 3090 peak counted n/t")
-- the Hopper copy-engine figure quoted: 1116 GB/s n/t is 46 % of 4.8 TB/s counted 2n
near(2 * 1116 / 4800, 0.465, 0.01, "3.1 H20-3e copy engine share")
-- the L2 sizes quoted (RTX 4090 72 MB, H100 50 MB) are the profiles'
near(assert(gpu.profile("rtx4090")).l2_bytes / MiB, 72, 0, "3.1 RTX 4090 L2")
near(assert(gpu.profile("h100-sxm")).l2_bytes / MiB, 50, 0, "3.1 H100 L2")

-- 3.2 -------------------------------------------------------------------------------------
-- STREAM's byte counts per element, and the exercise: 24 B x 1e7 in 10 ms
local counts = { copy = 16, scale = 16, add = 24, triad = 24 }
for k, b in pairs(counts) do
  local r = assert(host.stream { kernel = k, bytes = 4 * MiB, trials = 2 })
  near(r.moved_bytes / (r.bytes / 8), b, 0, "3.2 bytes counted per 8-byte element by " .. k)
  assert(r.validated, "3.2 " .. k .. " checked its arrays")
end
near(24 * 1e7 / 0.01 / 1e9, 24, 1e-12, "3.2 bytes exercise")

-- 3.3 -------------------------------------------------------------------------------------
-- Little's law: the exercise (2 TB/s x 500 ns = 1 MB) and the text's H100 example, which uses
-- the latency the H100 profile models (470 ns, assets/gpus/h100-sxm.txt): 3.35 TB/s x 470 ns = 1.6 MB
near(2e12 * 500e-9 / 1e6, 1, 1e-12, "3.3 little exercise")
near(3.35e12 * 470e-9 / 1e6, 1.6, 0.02, "3.3 H100 bytes in flight")

print("lessons_ch03: all checks passed")
