-- report.lua - the figures of `make gpu-report` (tests/gpu/report.sh), one "key<TAB>value" line
-- each, measured once through the lesson API on the cuda backend and reused by every later step
-- (make test-gpu's checks and the benchmarks read them: no figure is measured twice). Sections
-- run in order of what the GPU profile needs most (a run cut at its deadline loses the least);
-- a section that fails is reported as <section>_error and the next one runs. Each figure says
-- how it was counted in docs/benchmarks.md; the keys are what tests/gpu/profile_update.py reads
-- to recalibrate assets/gpus/<id>.txt. To add figures (a new chapter's kernels, say), add a
-- section at the place its value puts it.
local KiB, MiB, GiB = 1024, 2^20, 2^30
local i = gpu.info()
-- (the packaging test runs this on the simulator with ALLOW_SIMULATED: the summary then says
-- SIMULATED at its top, and the figures no GPU backend has are reported as errors)
assert(not i.simulated or ALLOW_SIMULATED, "the report needs the cuda backend (a GPU)")
local fmt = string.format
local function out(k, v)
  if v == nil then return end
  if math.type(v) == "float" and v == math.floor(v) and math.abs(v) < 2^53 then v = math.tointeger(v) end
  print(k .. "\t" .. tostring(v):gsub("[\t\n]", " "))
end
local function section(name, f)
  local ok, err = pcall(f)
  if not ok then out(name .. "_error", tostring(err)) end
end
local budget = gpu.budget()

-- 1. the device as the driver reports it (free of cost: no measurement)
section("device", function()
  for _, k in ipairs { "name", "driver", "compute_capability", "memory_type", "published_profile",
                       "device", "total_bytes", "free_bytes", "bus_width_bits", "mem_clock_khz",
                       "peak_bytes_per_s", "published_bytes_per_s", "l1_bytes", "l2_bytes", "sm_count",
                       "sm_clock_mhz", "pcie_gen", "pcie_width", "pcie_gen_current",
                       "pcie_width_current", "pcie_source", "pcie_bytes_per_s", "numa_node",
                       "mig_instance", "nvml_total_bytes", "nvml_reserved_bytes", "context_bytes" } do
    out(k, i[k])
  end
  out("mig", i.mig)
  out("simulated", i.simulated)
  out("budget_bytes", budget)
end)

local function clocks(prefix)
  local c, err = gpu.clocks()
  if not c then return out(prefix .. "_error", err) end
  for _, k in ipairs { "sm_mhz", "mem_mhz", "sm_max_mhz", "mem_max_mhz", "reasons" } do
    out(prefix .. "_" .. k, c[k])
  end
end
section("clocks_idle", function() clocks("clocks_idle") end)

-- a copy's figures: best and median, reps and trials, spread, the clocks during it, validated
local function copy(key, q)
  section(key, function()
    q.trials = q.trials or 10
    local r, err = gpu.copy(q)
    assert(r, err)
    out(key .. "_bytes", r.bytes)
    out(key .. "_bytes_per_s", r.bytes_per_s)
    out(key .. "_rw_bytes_per_s", r.rw_bytes_per_s)
    out(key .. "_median_bytes_per_s", r.median_bytes_per_s)
    out(key .. "_seconds", r.seconds)
    out(key .. "_median_seconds", r.median_seconds)
    out(key .. "_samples", r.samples)
    out(key .. "_reps", r.reps)
    out(key .. "_spread", r.spread)
    out(key .. "_validated", r.validated)
    out(key .. "_run_sm_mhz", r.run_sm_mhz)
    out(key .. "_run_mem_mhz", r.run_mem_mhz)
    out(key .. "_numa_node", r.numa_node)
    if #r.warnings > 0 then out(key .. "_warnings", table.concat(r.warnings, "; ")) end
    return r
  end)
end

-- 2. the large copies: DRAM by both paths (sm_efficiency, ce_efficiency), the link (pcie_efficiency,
-- pageable_factor)
local big = math.min(GiB, budget // 2)
copy("d2d_ce", { dir = "d2d", method = "ce", bytes = big })
copy("d2d_sm", { dir = "d2d", method = "sm", bytes = big })
copy("h2d_pinned", { dir = "h2d", pinned = true, bytes = 256 * MiB })
copy("d2h_pinned", { dir = "d2h", pinned = true, bytes = 256 * MiB })
copy("h2d_pageable", { dir = "h2d", pinned = false, bytes = 256 * MiB })
copy("d2h_pageable", { dir = "d2h", pinned = false, bytes = 256 * MiB })

-- 3. does a same-device cudaMemcpyAsync run on a copy engine? (the disputed ce_efficiency)
section("overlap", function()
  local o, err = gpu.overlap { bytes = math.min(256 * MiB, budget // 2), busy_ms = 50 }
  assert(o, err)
  out("overlap_bytes", o.bytes)
  out("overlap_busy_seconds", o.busy_seconds)
  out("overlap_copy_start_seconds", o.copy_start_seconds)
  out("overlap_copy_end_seconds", o.copy_end_seconds)
  out("overlap_copy_rw_bytes_per_s", o.copy_rw_bytes_per_s)
  out("overlap_sm_busy_seconds", o.sm_busy_seconds)
  out("overlap_sm_copy_end_seconds", o.sm_copy_end_seconds)
  out("overlap_busy_blocks", o.busy_blocks)
  out("overlap_resident_blocks", o.resident_blocks)
  out("overlap_sm_waited", o.sm_waited)
  -- settled only when the control held: the SM copy had to wait, with every block resident
  local settled = o.sm_waited and o.resident_blocks == o.busy_blocks
  out("d2d_ce_overlaps_sm_kernel", settled and o.ce_overlapped or "unsettled")
end)

-- 4. copies that stay in L2 (2n <= L2: l2_speedup), 4 and 16 MiB, both paths
for _, n in ipairs { 4 * MiB, 16 * MiB } do
  for _, m in ipairs { "ce", "sm" } do
    local key = fmt("d2d_%s_%dmib", m, n // MiB)
    copy(key, { dir = "d2d", method = m, bytes = n })
    if i.l2_bytes then out(key .. "_l2_resident", 2 * n <= i.l2_bytes) end
  end
end

-- 5. small copies, 4 KiB: the GPU's time per copy in held back-to-back batches (what the
-- simulator's copy_overhead_us models) and the round trip one call costs (issued alone, waited for)
local small = {
  { "d2d_ce", { dir = "d2d", method = "ce" } }, { "d2d_sm", { dir = "d2d", method = "sm" } },
  { "h2d_pinned", { dir = "h2d", pinned = true } }, { "d2h_pinned", { dir = "d2h", pinned = true } },
  { "h2d_pageable", { dir = "h2d", pinned = false } }, { "d2h_pageable", { dir = "d2h", pinned = false } },
}
for _, how in ipairs { "held", "single" } do
  for _, p in ipairs(small) do
    section(fmt("small_%s_%s", p[1], how), function()
      local q = { bytes = 4 * KiB, trials = 5, reps = how == "held" and 1000 or 200, single = how == "single" }
      for k, v in pairs(p[2]) do q[k] = v end
      local r, err = gpu.copy(q)
      assert(r, err)
      out(fmt("small_%s_%s_us", p[1], how), r.seconds * 1e6)
      out(fmt("small_%s_%s_median_us", p[1], how), r.median_seconds * 1e6)
      out(fmt("small_%s_%s_reps", p[1], how), r.reps)
      out(fmt("small_%s_%s_validated", p[1], how), r.validated)
      for _, w in ipairs(r.warnings) do
        if w:match("hold") then out(fmt("small_%s_%s_warnings", p[1], how), w) end
      end
    end)
  end
end

-- 6. STREAM's five kernels on arrays far past the L2
local arr = math.min(GiB, budget // 3)
for _, k in ipairs { "copy", "scale", "add", "triad", "dot" } do
  section("stream_" .. k, function()
    local r, err = gpu.stream { kernel = k, bytes = arr, trials = 10 }
    assert(r, err)
    local key = "stream_" .. k
    out(key .. "_bytes", arr)
    out(key .. "_bytes_per_s", r.bytes_per_s)
    out(key .. "_median_bytes_per_s", r.median_bytes_per_s)
    out(key .. "_moved_bytes", r.moved_bytes)
    out(key .. "_reps", r.reps)
    out(key .. "_samples", r.samples)
    out(key .. "_spread", r.spread)
    out(key .. "_validated", r.validated)
    out(key .. "_dot", r.dot)
    out(key .. "_run_sm_mhz", r.run_sm_mhz)
    out(key .. "_run_mem_mhz", r.run_mem_mhz)
  end)
end

-- 7. latency: the ladder (ld.global.ca) from 4 KiB by x2 to 32 x the L2, at the SM clock's
-- maximum (each chase after a warm-up; low_clock when it was not), named plateaus; then the
-- generic load at three sizes, to settle what the load variant costs
local function chase_line(r, n)
  return fmt("%d %.2f %.2f %.2f %.1f %.0f %s %s", n, r.min_ns_per_load, r.median_ns_per_load,
    r.max_ns_per_load, r.cycles_per_load or 0, r.sm_clock_mhz or 0,
    #(r.sms or {}) > 0 and table.concat(r.sms, ",") or "-", r.low_clock and "low" or "ok")
end
section("latency", function()
  local top = math.min(32 * (i.l2_bytes or 64 * MiB), budget)
  local pts, n, k = {}, 4 * KiB, 0
  while n <= top do
    local r, err = gpu.latency { bytes = n }
    assert(r, err)
    k = k + 1
    out(fmt("lat_%02d", k), chase_line(r, n))
    if r.low_clock then out("latency_low_clock", true) end
    pts[#pts + 1] = { bytes = n, ns = r.ns_per_load }
    n = n * 2
  end
  out("latency_load", "global")
  out("latency_sm_clock_max_mhz", i.sm_clock_mhz)
  for j, p in ipairs(gpu.plateaus(pts)) do
    out(fmt("plateau_%d", j), fmt("%s %d %d %.2f", p.label:gsub(" ", "-"), p.from, p.to, p.ns))
  end
end)
section("latency_generic", function()
  for _, n in ipairs { 16 * KiB, 16 * MiB, GiB } do
    if n <= budget then
      local r, err = gpu.latency { bytes = n, load = "generic" }
      assert(r, err)
      out(fmt("latgen_%dkib", n // KiB), chase_line(r, n))
    end
  end
end)

-- 8. cudaMalloc / cudaFree: first call and median per size (4 MiB, 1 GiB, 16 GiB)
for _, m in ipairs { { "4mib", 4 * MiB, 100 }, { "1gib", GiB, 10 }, { "16gib", 16 * GiB, 4 } } do
  section("malloc_" .. m[1], function()
    if m[2] > budget then return out("malloc_" .. m[1] .. "_skipped", "over the budget") end
    local raw <close> = alloc.raw {}
    for _ = 1, m[3] do raw:free(assert(raw:malloc(m[2]))) end
    local s = raw:stats()
    local key = m[1] == "4mib" and "" or "_" .. m[1]
    out("malloc" .. key .. "_first_seconds", s.device_alloc_first_seconds)
    out("malloc" .. key .. "_median_seconds", s.device_alloc_median_seconds)
    out("free" .. key .. "_first_seconds", s.device_free_first_seconds)
    out("free" .. key .. "_median_seconds", s.device_free_median_seconds)
    out("malloc" .. key .. "_calls", m[3])
  end)
end

-- 9. allocation granularity: what free memory drops by for one allocation of each size, and
-- what it is off by once that is freed (the simulator rounds to 2 MiB pages)
section("granularity", function()
  for _, n in ipairs { 1, 256, 100 * KiB, MiB, 2 * MiB + 1, 3 * MiB } do
    local f0 = gpu.mem()
    local b = assert(gpu.alloc(n))
    local f1 = gpu.mem()
    b:free()
    local f2 = gpu.mem()
    out(fmt("granularity_%d", n), f0 - f1)
    out(fmt("granularity_%d_after_free", n), f0 - f2)
  end
end)

-- 10. free memory after tens of GB allocated and freed: how far off it comes back (the checks'
-- tolerance, gpu_free_tolerance, and lesson 2.1 depend on it)
section("free_drift", function()
  local f0 = gpu.mem()
  local step = math.min(16 * GiB, budget // 4)
  local bufs, total = {}, 0
  while total + step <= budget * 0.8 and #bufs < 8 do
    bufs[#bufs + 1] = assert(gpu.alloc(step))
    total = total + step
  end
  for _, b in ipairs(bufs) do b:free() end
  out("free_drift_allocated_bytes", total)
  out("free_drift_bytes", f0 - gpu.mem())
end)

-- 11. chapter 7's access patterns (docs/lua-api.md, "How a kernel touches memory"), each once,
-- every field of its result as acc_<name>_<field>; tests/gpu/access.lua judges them
-- (figure_access in tests/gpu/figures.lua) and measures them itself under make test-gpu alone
local function access(name, f, q)
  section("acc_" .. name, function()
    q.trials = q.trials or 5
    local r, err = f(q)
    assert(r, err)
    for k, v in pairs(r) do
      if type(v) == "number" or type(v) == "boolean" then out("acc_" .. name .. "_" .. k, v)
      elseif k == "sms" then out("acc_" .. name .. "_sms", table.concat(v, ",")) end
    end
  end)
end
local useful = math.min(256 * MiB, budget // 40)
useful = useful - useful % 4096
for _, st in ipairs { 1, 2, 4, 8, 16, 32 } do access("stride_" .. st, gpu.strided, { stride = st, bytes = useful }) end
access("random", gpu.random, { bytes = math.min(GiB, budget // 2) })
local particles = math.min(2^24, budget // 80)
particles = particles - particles % 1024
access("aos", gpu.layout, { layout = "aos", particles = particles })
access("soa", gpu.layout, { layout = "soa", particles = particles })
access("reread_small", gpu.reread, { bytes = i.l2_bytes // 4 })
access("reread_big", gpu.reread, { bytes = math.min(8 * i.l2_bytes, GiB, budget) })
local hot = i.l2_persist_max_bytes or i.l2_bytes * 3 // 4
hot = hot - hot % 4096
local cold = math.min(GiB, (budget - hot) // 2)
cold = cold - cold % 16
access("persist_plain", gpu.persist, { hot = hot, cold = cold, window = false })
access("persist_window", gpu.persist, { hot = hot, cold = cold })
access("banks_1", gpu.banks, { stride = 1 })
access("banks_32", gpu.banks, { stride = 32 })
local side = 8192
while side > 64 and 2 * side * side * 4 > budget do side = side // 2 end
for _, k in ipairs { "copy", "naive", "tiled", "padded" } do access("t_" .. k, gpu.transpose, { kernel = k, n = side }) end
local fb = math.min(256 * MiB, budget // 3)
fb = fb - fb % 4096
access("fma_1", gpu.fma, { fmas = 1, bytes = fb })
access("fma_4096", gpu.fma, { fmas = 4096, bytes = fb })
for _, b in ipairs { 16 * MiB, 256 * MiB, 4 * GiB, 16 * GiB } do
  if b <= budget then access(fmt("pages_%d", b // MiB), gpu.pages, { bytes = b, step = 2 * MiB }) end
end

-- 12. chapter 6's programs (docs/lua-api.md, "Feeding the GPU"), each once: pinning's cost per
-- GiB, pinned and pageable copies, 8 chunks on 1, 2 and 3 streams, a missing wait, unified
-- memory's faults against a prefetch and reading in place, a kernel reading mapped host memory.
-- Keys feed_*; tests/gpu/feed.lua judges them (and measures them itself under make test-gpu
-- alone). Every program checks what it read and left.
local function span(o) return o.finish - o.start end
section("feed", function()
  out("feed_async_engines", i.async_engines)
  local pb = math.min(256 * MiB, host.budget() // 2)
  out("feed_pin_bytes", pb)
  for _, kind in ipairs { "pinned", "registered", "mapped", "managed" } do
    local p = assert(gpu.pin { bytes = pb, kind = kind, trials = 2 })
    out("feed_pin_" .. kind .. "_alloc_s_per_gib", p.alloc_seconds_per_gib)
    out("feed_pin_" .. kind .. "_free_seconds", p.free_seconds)
  end
  local n = 64 * MiB
  out("feed_copy_bytes", n)
  for _, kind in ipairs { "pinned", "pageable" } do
    local r = assert(gpu.program { buffers = { h = { kind, n }, d = { "device", n } },
      ops = { { "host_fill", "h" }, { "copy", "d", "h" }, { "copy", "h", "d" }, { "read", "d" } } })
    out("feed_h2d_" .. kind .. "_seconds", span(r.ops[2]))
    out("feed_d2h_" .. kind .. "_seconds", span(r.ops[3]))
  end
  local c, chunks = 16 * MiB, 8
  local one = assert(gpu.program { buffers = { h = { "pinned", c }, d = { "device", c } },
                                   ops = { { "host_fill", "h" }, { "copy", "d", "h" } } })
  local k = span(one.ops[2]) -- the kernel takes as long as a chunk's copy
  out("feed_streams_chunk_bytes", c)
  out("feed_streams_kernel_seconds", k)
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
    out(key .. "seconds", r.seconds)
    out(key .. "held", r.held)
    for _, lane in ipairs { "h2d", "sm", "d2h" } do out(key .. "busy_" .. lane, r.busy[lane]) end
    if streams == 1 then out("feed_streams_kernel_rounds", r.ops[3].rounds) end
  end
  local race, why = gpu.program { buffers = { h = { "pinned", 64 * MiB }, d = { "device", 64 * MiB } },
    ops = { { "host_fill", "h" }, { "copy", "d", "h", stream = 1 }, { "kernel", "d", stream = 2, seconds = 1e-4 },
            { "copy", "h", "d", stream = 2 } } }
  out("feed_race_caught", not race)
  if not race then out("feed_race_why", why) end
  local um = math.min(512 * MiB, host.budget() // 2, budget // 2)
  um = um - um % 4096
  out("feed_um_bytes", um)
  local f = assert(gpu.program { buffers = { m = { "managed", um } },
    ops = { { "host_fill", "m" }, { "read", "m" }, { "read", "m" } } })
  out("feed_um_first_seconds", span(f.ops[2]))
  out("feed_um_second_seconds", span(f.ops[3]))
  local p = assert(gpu.program { buffers = { m = { "managed", um } }, ops = { { "host_fill", "m" }, { "prefetch", "m" }, { "read", "m" } } })
  out("feed_um_prefetch_seconds", span(p.ops[2]))
  local h = assert(gpu.program { buffers = { m = { "managed", um } }, ops = { { "host_fill", "m" },
    { "advise", "m", "prefer_host" }, { "advise", "m", "accessed_by" }, { "read", "m" } } })
  out("feed_um_in_place_seconds", span(h.ops[4]))
  local z = assert(gpu.program { buffers = { z = { "mapped", n } }, ops = { { "host_fill", "z" }, { "read", "z" } } })
  out("feed_mapped_read_seconds", span(z.ops[2]))
end)

section("clocks_after", function() clocks("clocks_after") end)
