-- access.lua: chapter 7's kernels on a real GPU (make test-gpu; under make gpu-report it judges the
-- report's acc_* figures, tests/gpu/report.lua section 11, measured once): every experiment of
-- docs/lua-api.md, "How a kernel touches memory", ran, was validated (its sum or every output
-- element checked) and landed where the memory system's rules put it. Bounds are loose on
-- purpose: they catch a broken kernel or a wrong count, not a slow GPU. The figures are printed.
local MiB, GiB = 2^20, 2^30
local fmt = string.format
local i = gpu.info()
assert(not i.simulated or ALLOW_SIMULATED, "needs the cuda backend (a GPU)")
local budget = gpu.budget()
-- the report's result for this experiment, else a measurement of it with the same request
local function get(name, f, q)
  local r = figure_access and figure_access("acc_" .. name)
  if not r then
    local err
    q.trials = 5
    r, err = f(q)
    assert(r, name .. ": " .. tostring(err))
  end
  assert(r.validated == true, name .. ": not validated")
  assert(r.simulated == i.simulated, name .. ": labelled the wrong way")
  return r
end
local function gbs(r) return r.bytes_per_s / 1e9 end
print(fmt("device %s, cc %s, %d SMs at %.0f MHz, FP32 %.1f TFLOP/s, L2 %s, set-aside %s, window %s%s",
  i.name, i.compute_capability, i.sm_count, i.sm_clock_mhz or 0, (i.fp32_flops or 0) / 1e12, units.bytes(i.l2_bytes),
  i.l2_persist_max_bytes and units.bytes(i.l2_persist_max_bytes) or "none",
  i.l2_window_max_bytes and units.bytes(i.l2_window_max_bytes) or "none", FIGURES and " (the report's figures)" or ""))
assert(i.fp32_flops and i.fp32_flops > 1e12 and i.sm_clock_mhz > 300, "FP32 peak and clock from the attributes")

-- coalescing: the effective bandwidth falls with the sectors
local useful = math.min(256 * MiB, budget // 40)
useful = useful - useful % 4096
local s = {}
for _, st in ipairs { 1, 2, 4, 8, 16, 32 } do
  s[st] = get("stride_" .. st, gpu.strided, { stride = st, bytes = useful })
  print(fmt("stride %2d: %8.1f GB/s effective, %2.0f sectors/request", st, gbs(s[st]), s[st].sectors_per_request))
  assert(s[st].sectors_per_request == gpu.sectors(4 * st), "stride " .. st .. ": sectors per request")
end
assert(gbs(s[1]) > 1.6 * gbs(s[2]) and gbs(s[1]) > 4 * gbs(s[32]), "coalescing: stride 1 not clearly faster")
local rnd = get("random", gpu.random, { bytes = math.min(GiB, budget // 2) })
print(fmt("random:    %8.1f GB/s effective, %.1f sectors/request", gbs(rnd), rnd.sectors_per_request))
assert(gbs(rnd) < gbs(s[1]) / 3, "random reads as fast as coalesced ones")
local n = math.min(2^24, budget // 80)
n = n - n % 1024
local aos = get("aos", gpu.layout, { layout = "aos", particles = n })
local soa = get("soa", gpu.layout, { layout = "soa", particles = n })
print(fmt("particles: AoS %.1f GB/s, SoA %.1f GB/s (%.2fx)", gbs(aos), gbs(soa), gbs(soa) / gbs(aos)))
assert(gbs(soa) > 1.4 * gbs(aos), "the struct of arrays is not faster")

-- the L2: inside it faster than far outside; a window where the device has a set-aside
local small = get("reread_small", gpu.reread, { bytes = i.l2_bytes // 4 })
local big = get("reread_big", gpu.reread, { bytes = math.min(8 * i.l2_bytes, GiB, budget) })
print(fmt("re-read: %s %.1f GB/s, %s %.1f GB/s", units.bytes(small.footprint_bytes), gbs(small),
  units.bytes(big.footprint_bytes), gbs(big)))
assert(gbs(small) > 1.3 * gbs(big), "no L2 step")
local hot = i.l2_persist_max_bytes or i.l2_bytes * 3 // 4
hot = hot - hot % 4096
local cold = math.min(GiB, (budget - hot) // 2)
cold = cold - cold % 16
local plain = get("persist_plain", gpu.persist, { hot = hot, cold = cold, window = false })
local win = get("persist_window", gpu.persist, { hot = hot, cold = cold })
print(fmt("persist: hot %s, no window %.1f GB/s, window %s %.1f GB/s (set-aside %s)", units.bytes(hot), gbs(plain),
  tostring(win.window), gbs(win), units.bytes(win.setaside_bytes)))
assert(win.window == (i.l2_persist_max_bytes ~= nil and not i.mig), "the window set where the device has a set-aside")
assert(gbs(win) > 0.95 * gbs(plain), "the window made the hot array slower")

-- shared memory and transposes
local b1, b32 = get("banks_1", gpu.banks, { stride = 1 }), get("banks_32", gpu.banks, { stride = 32 })
print(fmt("banks: stride 1 %.0f GB/s, stride 32 %.0f GB/s (%.1fx)", gbs(b1), gbs(b32), gbs(b1) / gbs(b32)))
assert(b32.bank_ways == 32 and gbs(b1) > 8 * gbs(b32), "a 32-way conflict is not clearly slower")
local side = 8192
while side > 64 and 2 * side * side * 4 > budget do side = side // 2 end
local t = {}
for _, k in ipairs { "copy", "naive", "tiled", "padded" } do
  t[k] = get("t_" .. k, gpu.transpose, { kernel = k, n = side })
  print(fmt("transpose %-6s %d x %d: %.1f GB/s", k, side, side, gbs(t[k])))
end
assert(gbs(t.padded) > 1.2 * gbs(t.naive) and gbs(t.padded) >= 0.9 * gbs(t.tiled), "the padded tile is not the best transpose")

-- intensity: both sides of the ridge
local fb = math.min(256 * MiB, budget // 3)
fb = fb - fb % 4096
local f1, fk = get("fma_1", gpu.fma, { fmas = 1, bytes = fb }), get("fma_4096", gpu.fma, { fmas = 4096, bytes = fb })
print(fmt("fma: 1 FMA %.0f GFLOP/s (%.1f GB/s), 4096 FMAs %.0f GFLOP/s = %.0f %% of the FP32 peak", f1.flops_per_s / 1e9,
  gbs(f1), fk.flops_per_s / 1e9, 100 * fk.flops_per_s / i.fp32_flops))
assert(f1.flops_per_s < 0.1 * i.fp32_flops and fk.flops_per_s > 0.4 * i.fp32_flops, "the roofline's two sides")

-- pages: the translation, one line per 2 MiB page, loads through L2 only
local prev
for _, b in ipairs { 16 * MiB, 256 * MiB, 4 * GiB, 16 * GiB } do
  if b > budget then break end
  local r = get(fmt("pages_%d", b // MiB), gpu.pages, { bytes = b, step = 2 * MiB })
  assert(i.simulated or (#r.sms >= 2 and r.cycles_per_load > 0), "pages: several SMs, cycles")
  print(fmt("pages %8s: %.0f ns (SMs %s), %.0f cycles", units.bytes(b), r.ns_per_load, table.concat(r.sms, ","), r.cycles_per_load or 0))
  assert(r.ns_per_load > 20 and r.ns_per_load < 5000, "pages: implausible latency")
  if prev then assert(r.ns_per_load > 0.9 * prev, "pages: latency fell as the footprint grew") end
  prev = r.ns_per_load
end
print("access kernels ok")
