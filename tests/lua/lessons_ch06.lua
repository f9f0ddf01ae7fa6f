-- Chapter 6: every figure the lessons' texts, tables and exercise answers state, recomputed from
-- the estimators (vram_feed) and gpu.program on the simulator's default profile (RTX 3090), so
-- that a change to an estimator or to the simulator's model that moves a figure fails here
-- instead of leaving a lesson that contradicts its own experiment. (Grading of every exercise,
-- right and wrong: tests/cli/grade.sh and `vramlab check --answers`; headless runs of every
-- lesson: tests/cli/lessons.sh.)
local GiB, MiB = units.GiB, units.MiB
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end
local function span(o) return o.finish - o.start end
assert(gpu.info().simulated and gpu.info().name:find("3090"), "run on the simulator's default profile")

-- 6.1 pinned vs pageable ----------------------------------------------------------------------
near(2.8 / 8, 0.35, 1e-12, "6.1 pin-rate: 2.8 s / 8 GiB")
near(2.8 / (8 * GiB / 1e9), 0.326, 0.001, "6.1 pin-rate: the GB mistake is distinct")
assert(math.abs(2.8 / (8 * GiB / 1e9) - 0.35) > 0.02 * 0.35, "6.1 the GB mistake falls outside the tolerance")
near(gpu.profile("rtx3090").model.pin_alloc_s_per_gib, 0.35, 1e-12, "6.1 the profile's pin cost is the report's")
local b = vram.pin_breakeven { bytes = GiB, pinned_bps = 25e9, pageable_bps = 10e9, pin_s_per_gib = 0.35 }
assert(b.copies == 6, "6.1 break-even: 6 copies")
near(GiB / 10e9 * 1e3, 107.4, 0.001, "6.1 pageable copy ms"); near(GiB / 25e9 * 1e3, 42.9, 0.002, "6.1 pinned copy ms")
near(b.staging_seconds * 1e3, 64.4, 0.001, "6.1 saved per copy")
near(5 * b.staging_seconds * 1e3, 322, 0.001, "6.1 five copies save 322 ms")
near(0.35 / (GiB / 25e9), 8.2, 0.01, "6.1 the 'whole pinned copy' mistake: 8.2, rounded up to 9")
near(512e9 / GiB * 0.35 / 60, 2.8, 0.01, "6.1 pinning 512 GB: about three minutes")
near(31.5, 16 * 16 * 128 / 130 / 8, 0.001, "6.1 errata: PCIe 4.0 x16 after encoding, GB/s")
-- the experiment: pinned faster than pageable both ways; pinning per GiB as the profile says
local function copy(dir, pinned) return assert(gpu.copy { dir = dir, bytes = 64 * MiB, pinned = pinned, trials = 3 }) end
for _, dir in ipairs { "h2d", "d2h" } do
  local p, g = copy(dir, true), copy(dir, false)
  assert(g.seconds > p.seconds, "6.1 pageable " .. dir .. " slower")
  near(p.bytes_per_s / 1e9, 26, 0.05, "6.1 about 26 GB/s pinned (hint)")
  local share = g.bytes_per_s / p.bytes_per_s
  assert(share > 1 / 3 and share < 1 / 2 * 1.01, "6.1 'a third to a half of the pinned rate': " .. share)
end
local pin = assert(gpu.pin { bytes = GiB, kind = "pinned" })
near(pin.alloc_seconds_per_gib, 0.35, 0.05, "6.1 simulated cudaHostAlloc per GiB")
local reg = assert(gpu.pin { bytes = GiB, kind = "registered" })
assert(reg.alloc_seconds_per_gib < pin.alloc_seconds_per_gib, "6.1 registering touched memory is cheaper")

-- 6.2 streams and overlap ---------------------------------------------------------------------
local o = vram.overlap { h2d = 8, kernel = 8, d2h = 8, chunks = 8 }
near(o.speedup, 2.4, 1e-12, "6.2 predict explain: 24 / 10 periods"); assert(o.bound == 3, "6.2 bound 3")
near(vram.overlap { h2d = 0.008, kernel = 0.012, chunks = 4 }.overlapped * 1e3, 14, 1e-9, "6.2 bpg: 14 ms")
near(0.012 / 4 + 0.008, 0.011, 1e-12, "6.2 bpg mistake 11 ms")
near(vram.overlap { h2d = 0.005, kernel = 0.004, d2h = 0.005, chunks = 1000, engines = 1 }.bound, 1.4, 1e-12, "6.2 one engine: 1.4")
near(vram.overlap { h2d = 0.005, kernel = 0.004, d2h = 0.005, chunks = 1000, engines = 2 }.bound, 2.8, 1e-12, "6.2 two engines: 2.8")
for id, n in pairs { rtx3090 = 2, rtx4090 = 2, ["a100-80gb"] = 3, ["h100-sxm"] = 3, t4 = 3, h200 = 3 } do
  assert(gpu.profile(id).async_engines == n, "6.2 the copy-engine table: " .. id)
end
-- the experiment's shape: 8 chunks of 16 MiB, a kernel as long as a copy, 1 / 2 / 3 streams
local C, N = 16 * MiB, 8
local k = span(assert(gpu.program { buffers = { h = { "pinned", C }, d = { "device", C } },
                                    ops = { { "host_fill", "h" }, { "copy", "d", "h" } } }).ops[2])
local function pipeline(streams, kind)
  local bufs, ops = { hin = { kind, N * C }, hout = { kind, N * C } }, { { "host_fill", "hin" } }
  for j = 0, streams - 1 do bufs["d" .. j] = { "device", C } end
  for i = 0, N - 1 do
    local s, d = i % streams + 1, "d" .. (i % streams)
    ops[#ops + 1] = { "copy", d, "hin", src_off = i * C, bytes = C, stream = s }
    ops[#ops + 1] = { "kernel", d, seconds = k, stream = s }
    ops[#ops + 1] = { "copy", "hout", d, off = i * C, bytes = C, stream = s }
  end
  return assert(gpu.program { buffers = bufs, ops = ops })
end
local one, two, three, pg = pipeline(1, "pinned"), pipeline(2, "pinned"), pipeline(3, "pinned"), pipeline(2, "pageable")
local s3 = one.seconds / three.seconds
assert(s3 > 2.2 and s3 < 2.4 + 1e-9, "6.2 three streams: a little under 2.4: " .. s3)
assert(one.seconds / two.seconds < s3 and one.seconds / two.seconds > 1.5, "6.2 two streams between")
assert(pg.seconds > one.seconds, "6.2 pageable on two streams: no overlap and slower copies")

-- 6.3 unified memory --------------------------------------------------------------------------
near(3 * GiB / 1e9, 3.22, 0.001, "6.3 3 GiB in GB")
near(3 * GiB / 6e9 * 1e3, 537, 0.001, "6.3 by faults"); near(3 * GiB / 22e9 * 1e3, 146, 0.005, "6.3 by prefetch")
near(3 * GiB * (1 / 6e9 - 1 / 22e9) * 1e3, 390.45, 0.0001, "6.3 saved")
near(14 / 6, 2.33, 0.002, "6.3 a pass faulting"); near(14 / 360 * 1e3, 39, 0.005, "6.3 from GDDR6")
near((14 / 6) / (14 / 360), 60, 1e-9, "6.3 60 times slower")
-- the experiment's shape: a first pass faulting, prefetched, from device memory; oversubscribed
local function managed(n, pre, passes)
  local ops = { { "host_fill", "m" } }
  if pre then ops[#ops + 1] = { "prefetch", "m" } end
  for _ = 1, passes do ops[#ops + 1] = { "read", "m" } end
  return assert(gpu.program { buffers = { m = { "managed", n } }, ops = ops })
end
local f, p = managed(GiB, false, 2), managed(GiB, true, 1)
local fault_bps = GiB / span(f.ops[2])
assert(fault_bps < 26e9 / 2, "6.3 faults reach a fraction of the link: " .. fault_bps)
assert(GiB / span(p.ops[2]) > 2 * fault_bps, "6.3 a prefetch moves it faster")
assert(span(f.ops[3]) < span(f.ops[2]) / 20, "6.3 the second pass reads device memory")
local room = gpu.budget()
local big = (room + room // 2) // 4096 * 4096
local ov = managed(big, false, 2)
assert(span(ov.ops[3]) > span(ov.ops[2]), "6.3 oversubscribed: the second pass slower than the first")

-- 6.4 zero-copy and the data loader ---------------------------------------------------------------
near(256 * MiB / 1e6, 268.4, 0.001, "6.4 256 MiB in MB")
near(256 * MiB / 24e9 * 1e3, 11.18, 0.0005, "6.4 mapped read ms"); near(256 * MiB / 900e9 * 1e3, 0.3, 0.01, "6.4 device read ms")
local zc = assert(gpu.program { buffers = { z = { "mapped", 64 * MiB }, d = { "device", 64 * MiB } },
                                ops = { { "host_fill", "z" }, { "read", "z" }, { "fill", "d" }, { "read", "d" } } })
near(span(zc.ops[2]) / span(zc.ops[4]), 31, 0.05, "6.4 device memory about 31 times faster than mapped")
near(64 * MiB / span(zc.ops[2]) / 1e9, 24.8, 0.05, "6.4 mapped read close to the pinned copy")
local z = vram.zerocopy { bytes = 64 * MiB, passes = 1, link_bps = 25e9, device_bps = 900e9 }
assert(z.winner == "zerocopy" and vram.zerocopy { bytes = 64 * MiB, passes = 2, link_bps = 25e9, device_bps = 900e9 }.winner == "copy",
       "6.4 read once: zero-copy wins; twice: copy")
local function loader(w) return vram.loader { workers = w, worker_seconds = 0.128, pin_seconds = 0.005, h2d_seconds = 0.004, compute_seconds = 0.030 } end
near(loader(2).gpu_busy * 100, 46.9, 0.001, "6.4 busy-share: 46.9 %")
assert(loader(2).step_seconds == 0.064 and loader(2).bottleneck == "workers", "6.4 a batch every 64 ms")
assert(loader(4).bottleneck == "workers" and loader(5).bottleneck == "compute", "6.4 5 workers, not 4")
near(0.128 / 5 * 1e3, 25.6, 1e-9, "6.4 one every 25.6 ms"); near(0.128 / 0.030, 4.27, 0.001, "6.4 n >= 4.27")
assert(64 * 224 * 224 * 3 == 9633792 and 224 * 224 * 3 == 150528, "6.4 the lecture's batch: 9.63 MB")
near(64 * 224 * 224 * 3 * 4 / 1e6, 38.5, 0.001, "6.4 errata: 38.5 MB as float32")
-- the loader experiment: 2 ms an image, 30 ms a batch: 128 ms a worker, 5 workers to keep up
assert(math.ceil(64 * 0.002 / 0.030 - 1e-9) == 5, "6.4 the experiment's workers needed")
print("chapter 6 figures ok")
