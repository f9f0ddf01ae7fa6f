-- The chapter 6 estimators (lua/lib/vram_feed.lua) against worked figures: the Best Practices
-- Guide's staged-copy estimate, the three-stage pipeline with two and one copy engines, pinning's
-- break-even, zero-copy's, a data loader's steady step; then vram.overlap against the
-- simulator's own timeline of the same chunks (gpu.program), and misuse raising.
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end
local function raises(f, want)
  local ok, err = pcall(f)
  assert(not ok and tostring(err):find(want, 1, true), "expected '" .. want .. "', got " .. tostring(err))
end

-- the Best Practices Guide: tE + tT/nStreams when the kernel takes longer, tT + tE/nStreams else
local tT, tE = 0.008, 0.012
near(vram.overlap { h2d = tT, kernel = tE, chunks = 4 }.overlapped, tE + tT / 4, 1e-12, "tE > tT")
near(vram.overlap { h2d = tE, kernel = tT, chunks = 4 }.overlapped, tE + tT / 4, 1e-12, "tT > tE")
near(vram.overlap { h2d = tT, kernel = tE, chunks = 1 }.overlapped, tT + tE, 1e-12, "one chunk: serial")
-- three stages, 8 chunks: 5 + 4 + 5 ms in all: 0.625 + 0.5 + 0.625 + 7 x 0.625 = 6.125 ms
local o = vram.overlap { h2d = 0.005, kernel = 0.004, d2h = 0.005, chunks = 8 }
near(o.overlapped, 0.006125, 1e-12, "three stages")
assert(o.bottleneck == "h2d" and math.abs(o.bound - 2.8) < 1e-12 and math.abs(o.speedup - 0.014 / 0.006125) < 1e-12)
-- one engine: the copies take turns, period 1.25 ms: 1.75 + 7 x 1.25 = 10.5 ms; bound 14/10
local one = vram.overlap { h2d = 0.005, kernel = 0.004, d2h = 0.005, chunks = 8, engines = 1 }
near(one.overlapped, 0.0105, 1e-12, "one engine")
assert(one.bottleneck == "copies" and math.abs(one.bound - 1.4) < 1e-12)
assert(vram.overlap { h2d = 1, kernel = 1, d2h = 1, chunks = 1000 }.bound == 3, "at most 3 with two engines")

-- pinning: 1 GiB, 0.35 s to pin; 25 vs 10 GB/s: 0.0644 s saved a copy, 5.43 copies -> 6
local b = vram.pin_breakeven { bytes = 2^30, pinned_bps = 25e9, pageable_bps = 10e9, pin_s_per_gib = 0.35 }
near(b.pin_seconds, 0.35, 1e-12, "pin cost")
near(b.staging_seconds, 2^30 / 10e9 - 2^30 / 25e9, 1e-12, "staging cost")
assert(b.copies == 6, "break-even copies " .. b.copies)
assert(vram.pin_breakeven { bytes = 2^30, pinned_bps = 10e9, pageable_bps = 10e9, pin_s_per_gib = 0.35 }.copies == math.huge)

-- zero-copy: one pass over 1 GiB at 25 GB/s beats a copy at 25 GB/s + a read at 900 GB/s
local z = vram.zerocopy { bytes = 2^30, passes = 1, link_bps = 25e9, device_bps = 900e9 }
assert(z.winner == "zerocopy")
near(z.breakeven, (1 / 25e9) / (1 / 25e9 - 1 / 900e9), 1e-12, "zero-copy break-even")
assert(vram.zerocopy { bytes = 2^30, passes = 2, link_bps = 25e9, device_bps = 900e9 }.winner == "copy")

-- the loader: 4 workers x 200 ms = 50 ms a batch; compute 60 ms is the step; 2 workers: 100 ms
local l4 = vram.loader { workers = 4, worker_seconds = 0.2, pin_seconds = 0.01, h2d_seconds = 0.02, compute_seconds = 0.06 }
assert(l4.bottleneck == "compute" and l4.step_seconds == 0.06 and l4.gpu_busy == 1)
local l2 = vram.loader { workers = 2, worker_seconds = 0.2, pin_seconds = 0.01, h2d_seconds = 0.02, compute_seconds = 0.06, steps = 32 }
assert(l2.bottleneck == "workers" and l2.step_seconds == 0.1)
near(l2.gpu_busy, 0.6, 1e-12, "2 workers: 60 % busy")
-- the simulated timeline reaches the steady step: the last 8 batches end 0.1 s apart
local ends = {}
for _, e in ipairs(l2.timeline) do if e.stage == "compute" then ends[e.batch] = e.finish end end
near((ends[32] - ends[24]) / 8, 0.1, 1e-9, "steady step in the timeline")
for _, e in ipairs(l2.timeline) do assert(e.finish >= e.start) end
-- each batch's worker (the one that frees first): two workers of equal speed take turns, and one
-- worker never prepares two batches at once (a timeline panel draws a lane per worker)
local busy_until = {}
for _, e in ipairs(l2.timeline) do
  if e.stage == "worker" then
    assert(e.worker == (e.batch - 1) % 2 + 1, "batch " .. e.batch .. " on worker " .. tostring(e.worker))
    assert(e.start >= (busy_until[e.worker] or 0) - 1e-12, "worker " .. e.worker .. " overlaps itself")
    busy_until[e.worker] = e.finish
  else
    assert(e.worker == nil, "only the worker stage names a worker")
  end
end
local serial = vram.loader { workers = 2, worker_seconds = 0.2, pin_seconds = 0.01, h2d_seconds = 0.02, compute_seconds = 0.06, overlap = false }
assert(serial.bottleneck == "serial"); near(serial.step_seconds, 0.29, 1e-12, "serial step")
near(serial.total_seconds, 8 * 0.29, 1e-12, "serial total")

-- vram.overlap against the simulator: 8 chunks of 16 MiB, each copied in, computed on for as
-- long as its copy takes, copied out, on three streams through three device buffers (a stage
-- each: the pipeline the formula assumes); the model's fixed costs (a few us each) are all the
-- two differ by. With two streams, a chunk's copy in waits for the copy out two chunks before it
-- on its stream: slower than the formula
local MiB = units.MiB
local n, c = 8, 16 * MiB
local m = gpu.profile(gpu.info().profile).model
local link = gpu.info().pcie_bytes_per_s * m.pcie_efficiency
local k = c / link
local ops = { { "host_fill", "hin" } }
for i = 0, n - 1 do
  local s, d = i % 3 + 1, "d" .. i % 3
  ops[#ops + 1] = { "copy", d, "hin", src_off = i * c, bytes = c, stream = s }
  ops[#ops + 1] = { "kernel", d, seconds = k, stream = s }
  ops[#ops + 1] = { "copy", "hout", d, off = i * c, bytes = c, stream = s }
end
local r = assert(gpu.program { buffers = { hin = { "pinned", n * c }, hout = { "pinned", n * c },
                                           d0 = { "device", c }, d1 = { "device", c }, d2 = { "device", c } }, ops = ops })
local est = vram.overlap { h2d = n * k, kernel = n * k, d2h = n * k, chunks = n }
local fixed = 3 * n * m.copy_overhead_us * 1e-6
assert(r.seconds >= est.overlapped and r.seconds <= est.overlapped + fixed,
       string.format("simulated %.6f s vs the estimate %.6f s (+%.6f s of fixed costs)", r.seconds, est.overlapped, fixed))

-- the timeline as text: a column shows the interval that covers most of it; upto reveals
local items = { { lane = "h2d", start = 0, finish = 1, mark = "0" }, { lane = "h2d", start = 1, finish = 2, mark = "1" },
                { lane = "sm", start = 1, finish = 2, mark = "0" }, { lane = "sm", start = 2, finish = 3, mark = "1" } }
local tl = vram.timeline(items, { width = 6 })
assert(tl.rows[1].lane == "h2d" and tl.rows[1].bar == "0011.." and tl.rows[2].bar == "..0011" and tl.total == 3)
local half = vram.timeline(items, { width = 6, upto = 1.5 }).rows
assert(half[1].bar == "001..." and half[2].bar == "..0...", "upto draws what happened before it")
assert(vram.timeline(items, { width = 3, lanes = { "sm" } }).rows[1].bar == ".01" and #vram.timeline(items, { lanes = { "sm" } }).rows == 1)
assert(vram.timeline({ { lane = "x", start = 0, finish = 1 } }, { width = 2, total = 2 }).rows[1].bar == "#.")
assert(vram.timeline({ { lane = "x", start = 0, finish = 1, label = "7 in" } }, { width = 1 }).rows[1].bar == "7", "a label's first character")
local r3 = vram.timeline(r.ops, { width = 30, lanes = { "h2d", "sm", "d2h" } })
assert(#r3.rows == 3 and not r3.rows[1].bar:find("^%."), "the simulator's timeline starts with a copy in")
raises(function() vram.timeline({ { lane = "x", start = 0 } }) end, "item 1 needs")
raises(function() vram.timeline({}, { widht = 3 }) end, "unknown option 'widht'")

-- misuse
raises(function() vram.overlap { h2d = 0.1 , kernal = 1 } end, "unknown option 'kernal'")
raises(function() vram.overlap { h2d = 0, kernel = 0 } end, "at least one stage")
raises(function() vram.overlap { h2d = 1, kernel = 1, chunks = 0 } end, "'chunks' must be")
raises(function() vram.pin_breakeven { bytes = 0, pinned_bps = 1, pageable_bps = 1, pin_s_per_gib = 1 } end, "'bytes'")
raises(function() vram.loader { workers = 2, worker_seconds = 1, h2d_seconds = 1, compute_seconds = 1, overlap = "yes" } end, "true or false")
print("vram_feed ok")
