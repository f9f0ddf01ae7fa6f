-- The documented API shapes on the simulator: fields present, units consistent, unknown = nil.
local i = gpu.info()
assert(i.backend == "sim" and i.simulated == true, "backend")
assert(i.peak_bytes_per_s == gpu.peak(i.mem_clock_khz, i.bus_width_bits), "peak formula")
assert(i.free_bytes < i.total_bytes, "free < total")
assert(i.compute_capability == "8.6", "cc " .. tostring(i.compute_capability))
local free0 = gpu.mem()
local b = assert(gpu.alloc(100 * 2^20))
assert(b:size() == 100 * 2^20)
assert(gpu.mem() == free0 - 100 * 2^20, "simulated free memory drops by the 2 MiB-rounded size")
b:free()
assert(gpu.mem() == free0, "freed")
local r = assert(gpu.copy { dir = "d2d", bytes = "32MiB", trials = 5 })
for _, k in ipairs { "bytes", "seconds", "median_seconds", "bytes_per_s", "rw_bytes_per_s", "samples", "spread", "convention" } do
  assert(r[k] ~= nil, "copy result lacks " .. k)
end
assert(r.samples == 5 and r.bytes == 32 * 2^20)
assert(math.abs(r.bytes_per_s * r.seconds - r.bytes) < 1, "bytes_per_s = n/t")
local l = assert(gpu.latency { bytes = "64MiB" })
assert(l.ns_per_load > 0 and l.bytes_per_s == nil, "latency shape")
-- host arrays within a test run's host budget (VRAMLAB_HOST_MAX in tests/run.sh: 4 MiB in all)
local h = assert(host.copy { bytes = "1MiB", method = "loop", trials = 3 })
assert(h.kernel == "loop" and h.bytes_per_s > 0 and h.backend == "host" and h.simulated == false)
local s = assert(host.stream { kernel = "add", bytes = "1MiB", trials = 3 })
assert(s.moved_bytes == 3 * 1 * 2^20, "add moves 24 B per element")
local hl = assert(host.latency { bytes = "1MiB" })
assert(hl.ns_per_load > 0)
local hi = host.info()
assert(hi.threads >= 1 and hi.ram_bytes > 0 and hi.cpu)
-- misuse raises; run-time failures return nil, message
assert(not pcall(gpu.copy, { dir = "d2d", bytes = "32MiB", trials = 0 }))
assert(not pcall(host.copy, { method = "dma" }))
local none, why = gpu.copy { dir = "d2d", bytes = i.total_bytes }
assert(none == nil and why:find("at most 90%%"), why)
local profs = gpu.profiles()
assert(#profs >= 6)
local h200 = assert(gpu.profile("h200"))
assert(h200.memory_type == "HBM3e" and math.abs(h200.published_bytes_per_s / 4.8e12 - 1) < 1e-9)
-- the clock the card reports (3201 MHz) gives 2.4 % more than the published figure
assert(math.abs(h200.peak_bytes_per_s / h200.published_bytes_per_s - 1.0243) < 0.001, h200.peak_bytes_per_s)
-- capacities three ways, and every figure with its source
assert(h200.total_bytes == 143156 * 2^20 and h200.smi_total_bytes == 143771 * 2^20 and h200.marketed_gb == 141)
assert(h200.sources.total_bytes:find("PyTorch") and h200.sources.mem_clock_khz:find("3201 MHz"))
for _, k in ipairs { "bus_width_bits", "l2_bytes", "dram_ns", "ce_efficiency", "noise" } do
  assert(type(h200.sources[k]) == "string" and #h200.sources[k] >= 10, k)
end
assert(gpu.profile("nope") == nil)
-- validation, dot, the device's facts, the copy paths' model with its sources
assert(r.validated == true, "a copy's data is checked after the trials")
assert(l.validated == nil and l.sms and l.min_ns_per_load <= l.max_ns_per_load, "latency: per-SM fields")
local d = assert(gpu.stream { kernel = "dot", bytes = "8MiB", trials = 2 })
assert(d.validated and d.moved_bytes == 2 * 8 * 2^20, "dot reads two arrays")
assert(math.abs(d.dot - 2^20 * 0.1 * 0.2) < 1e-6, "dot = n x 0.1 x 0.2: " .. d.dot)
local hd = assert(host.stream { kernel = "dot", bytes = "1MiB", trials = 2 })
assert(hd.validated and math.abs(hd.dot - 2^17 * 0.1 * 0.2) < 1e-6, "host dot") -- 1 MiB = 2^17 doubles
assert(i.device == 0 and i.mig == false and i.l1_bytes > 0 and i.published_profile == "rtx3090")
assert(i.model and i.model.ce_source and i.model.sm_efficiency >= i.model.ce_efficiency, "the simulator's model")
assert(h200.model.ce_efficiency < h200.model.sm_efficiency and h200.model.ce_source:find("DISPUTED"))
-- plateaus named by size; caches listed smallest first
local pts = {}
for k = 0, 11 do
  local n = 4096 * 2^k
  pts[#pts + 1] = { bytes = n, ns = n <= 64 * 1024 and 30 or n <= 2^20 and 200 or 600 }
end
local named = gpu.plateaus(pts, { levels = { { name = "L1", bytes = "64KiB" }, { name = "L2", bytes = "1MiB" } } })
assert(#named == 3 and named[1].label == "L1" and named[2].label == "L2" and named[3].label == "DRAM")
assert(gpu.plateaus(pts, { levels = {} })[3].label == "level 3", "no sizes: numbered")
assert(not pcall(gpu.plateaus, pts, { where = "moon" }))
assert(not pcall(gpu.plateaus, pts, { levels = { { name = "L2", bytes = "1MiB" }, { name = "L1", bytes = "64KiB" } } }))
local hc = host.caches()
assert(hc.source == "sysfs" or hc.source == "cpuid" or hc.source == "sysconf" or (hc.source == "none" and #hc == 0))
-- the last-level cache: what was read, where from, and whether it is one core's
local hi = host.info()
assert(hi.llc_source == hc.source, "host.info and host.caches read the same source")
if hi.llc_read_bytes then
  assert(type(hi.llc_plausible) == "boolean")
  -- judged one core's: it sizes STREAM's arrays; judged a package total: it sizes nothing
  assert((hi.llc_bytes ~= nil) == hi.llc_plausible and (hi.llc_total_bytes ~= nil) == hi.llc_plausible)
  if hi.llc_plausible then assert(hi.llc_total_bytes >= hi.llc_bytes) end
end
for k = 2, #hc do assert(hc[k].bytes > hc[k - 1].bytes) end
