-- latency.lua: the device pointer chase sees the memory hierarchy and names it by size (needs a
-- GPU). Three groups of working sets: inside L1, inside L2, and 16x the L2 or more (no warm touch,
-- so the DRAM step is not served from L2). Each chase ran on several SMs and says which, with
-- clock64 cycles beside the nanoseconds; the plateaus are L1, L2 (near/far if split), DRAM -
-- never "L3" on a GPU. Bounds are loose on purpose: they catch a broken chase, not a slow GPU.
-- Under make gpu-report, the report's own ladder (4 KiB to 32 x L2, FIGURES).
local KiB, MiB, GiB = 1024, 1024 * 1024, 1024 * 1024 * 1024
local fmt = string.format
local i = gpu.info()
assert(i.l2_bytes and i.l1_bytes, "L1 or L2 size unknown for compute capability " .. tostring(i.compute_capability))
local dram = math.max(16 * i.l2_bytes, 256 * MiB)
dram = 2 ^ math.ceil(math.log(dram, 2))
assert(dram <= gpu.budget(), fmt("a %s DRAM working set does not fit the experiment cap", units.bytes(dram)))

local sizes = { 8 * KiB, 16 * KiB, 32 * KiB, i.l2_bytes // 16, i.l2_bytes // 8, i.l2_bytes // 4, dram, 2 * dram }
local ladder = figure_ladder and figure_ladder()
if ladder then
  sizes = {}
  for _, p in ipairs(ladder) do sizes[#sizes + 1] = p.bytes end
  assert(sizes[#sizes] >= dram, fmt("the report's ladder ends at %s, short of the DRAM size %s",
    units.bytes(sizes[#sizes]), units.bytes(dram)))
end
local pts = {}
for k, n in ipairs(sizes) do
  if n > gpu.budget() and not ladder then break end
  local r, err
  if ladder then r = ladder[k] else r, err = gpu.latency({ bytes = n }) end
  assert(r, fmt("gpu.latency of %s failed: %s", units.bytes(n), tostring(err)))
  assert(r.simulated == false, "a real measurement must not be simulated")
  assert(r.sms and #r.sms >= 2, "the chase did not run on several SMs")
  assert(r.min_ns_per_load <= r.median_ns_per_load and r.median_ns_per_load <= r.max_ns_per_load,
    "min/median/max across SMs out of order")
  assert(r.cycles_per_load and r.cycles_per_load > 0, "no clock64 cycles per load")
  assert(r.sm_clock_mhz and r.sm_clock_mhz > 100 and r.sm_clock_mhz < 5000,
    fmt("SM clock %s MHz during the chase: implausible", tostring(r.sm_clock_mhz)))
  if r.low_clock then
    print(fmt("WARNING: %s chased at %.0f MHz, below 90 %% of the SM clock's maximum (%s MHz): its "
      .. "ns read slow, its cycles do not", units.bytes(n), r.sm_clock_mhz,
      tostring(i.sm_clock_mhz and math.floor(i.sm_clock_mhz))))
  end
  print(fmt("%10s: %7.1f ns (SMs %s: min %.1f, median %.1f, max %.1f ns), %.0f cycles at %.0f MHz",
    units.bytes(n), r.ns_per_load, table.concat(r.sms, ","), r.min_ns_per_load,
    r.median_ns_per_load, r.max_ns_per_load, r.cycles_per_load, r.sm_clock_mhz))
  pts[#pts + 1] = { bytes = n, ns = r.ns_per_load }
end
local l1, far = pts[1].ns, pts[#pts].ns
assert(l1 >= 3 and l1 <= 200, fmt("L1-sized chase: %.1f ns per load, outside 3..200 ns", l1))
assert(far >= 150 and far <= 5000, fmt("DRAM-sized chase: %.1f ns per load, outside 150..5000 ns", far))
assert(far >= 3 * l1, "the DRAM-sized set is not clearly slower than the L1-sized one")
local names = {}
for _, p in ipairs(gpu.plateaus(pts)) do
  names[#names + 1] = p.label
  print(fmt("plateau %-8s %s - %s: %.1f ns", p.label, units.bytes(p.from), units.bytes(p.to), p.ns))
  assert(not p.label:match("L3"), "a GPU plateau named " .. p.label .. ": GPUs have no L3")
end
assert(names[1] == "L1", "the first plateau is " .. tostring(names[1]) .. ", not L1")
assert(names[#names]:match("^DRAM"), "the last plateau is " .. tostring(names[#names]) .. ", not DRAM")
