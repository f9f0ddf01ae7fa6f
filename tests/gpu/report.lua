-- report.lua - the figures of `make gpu-report` (tests/gpu/report.sh), one "key<TAB>value" line
-- each, measured through the lesson API on the cuda backend: the device facts, D2D by the copy
-- engine and by the SM kernel, H2D/D2H pinned and pageable, STREAM's five kernels, the latency
-- ladder with its named plateaus and per-SM spread, and cudaMalloc's first and median cost. A
-- measurement that fails (validation included) is reported as <key>_error, never as a figure.
local KiB, MiB, GiB = 1024, 2^20, 2^30
local i = gpu.info()
-- (a test of the summary's rendering sets ALLOW_SIMULATED: the summary then says SIMULATED)
assert(not i.simulated or ALLOW_SIMULATED, "the report needs the cuda backend (a GPU)")
local function out(k, v) print(k .. "\t" .. tostring(v)) end
local function try(key, f)
  local ok, err = pcall(f)
  if not ok then out(key .. "_error", tostring(err):gsub("[\t\n]", " ")) end
end

for _, k in ipairs({ "name", "driver", "compute_capability", "memory_type", "published_profile" }) do
  out(k, i[k] or "")
end
for _, k in ipairs({ "device", "total_bytes", "free_bytes", "bus_width_bits", "mem_clock_khz",
                     "peak_bytes_per_s", "published_bytes_per_s", "l1_bytes", "l2_bytes", "sm_count",
                     "pcie_gen", "pcie_width", "pcie_bytes_per_s", "numa_node", "mig_instance" }) do
  out(k, i[k] or "")
end
out("mig", i.mig)
out("simulated", i.simulated)

local budget = gpu.budget()
local big = math.min(GiB, budget // 2)
local function copy(key, q)
  try(key, function()
    q.trials = 10
    local r, err = gpu.copy(q)
    assert(r, err)
    out(key .. "_bytes", r.bytes)
    out(key .. "_bytes_per_s", r.bytes_per_s)
    out(key .. "_rw_bytes_per_s", r.rw_bytes_per_s or 0)
    out(key .. "_spread", r.spread)
    out(key .. "_validated", r.validated)
    if r.numa_node then out(key .. "_numa_node", r.numa_node) end
    if #r.warnings > 0 then out(key .. "_warnings", table.concat(r.warnings, "; ")) end
  end)
end
copy("d2d_ce", { dir = "d2d", method = "ce", bytes = big })
copy("d2d_sm", { dir = "d2d", method = "sm", bytes = big })
copy("h2d_pinned", { dir = "h2d", pinned = true, bytes = 256 * MiB })
copy("h2d_pageable", { dir = "h2d", pinned = false, bytes = 256 * MiB })
copy("d2h_pinned", { dir = "d2h", pinned = true, bytes = 256 * MiB })
copy("d2h_pageable", { dir = "d2h", pinned = false, bytes = 256 * MiB })

local arr = math.min(GiB, budget // 3)
for _, k in ipairs({ "copy", "scale", "add", "triad", "dot" }) do
  try("stream_" .. k, function()
    local r, err = gpu.stream { kernel = k, bytes = arr, trials = 10 }
    assert(r, err)
    out("stream_" .. k .. "_bytes", arr)
    out("stream_" .. k .. "_bytes_per_s", r.bytes_per_s)
    out("stream_" .. k .. "_spread", r.spread)
    out("stream_" .. k .. "_validated", r.validated)
  end)
end

-- the ladder: 4 KiB up by x2 to 32x the L2 (DRAM without L2 help), within the cap
try("latency", function()
  local top = math.min(32 * (i.l2_bytes or 64 * MiB), budget)
  local pts, n, k = {}, 4 * KiB, 0
  while n <= top do
    local r, err = gpu.latency { bytes = n }
    assert(r, err)
    k = k + 1
    out(string.format("lat_%02d", k), string.format("%d %.2f %.2f %.2f %.1f %.0f %s", n,
      r.min_ns_per_load, r.median_ns_per_load, r.max_ns_per_load, r.cycles_per_load or 0,
      r.sm_clock_mhz or 0, table.concat(r.sms or {}, ",")))
    pts[#pts + 1] = { bytes = n, ns = r.ns_per_load }
    n = n * 2
  end
  for j, p in ipairs(gpu.plateaus(pts)) do
    out(string.format("plateau_%d", j), string.format("%s %d %d %.2f", p.label:gsub(" ", "-"), p.from, p.to, p.ns))
  end
end)

try("malloc", function()
  local raw <close> = alloc.raw {}
  for _ = 1, 100 do raw:free(assert(raw:malloc(4 * MiB))) end
  local s = raw:stats()
  out("malloc_first_seconds", s.device_alloc_first_seconds)
  out("malloc_median_seconds", s.device_alloc_median_seconds)
  out("free_first_seconds", s.device_free_first_seconds)
  out("free_median_seconds", s.device_free_median_seconds)
end)
