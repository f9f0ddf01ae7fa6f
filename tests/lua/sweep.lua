-- A size sweep on the simulator: deterministic, bandwidth rising with size up to the L2 boundary
-- (the model says so), and at the largest sizes within the profile's published peak.
local i = gpu.info()
local function sweep()
  local out = {}
  local n = 4096
  while n <= 512 * 2^20 do
    local r = assert(gpu.copy { dir = "d2d", bytes = n, trials = 3 })
    out[#out + 1] = { n = n, bw = r.rw_bytes_per_s }
    n = n * 4
  end
  return out
end
local a, b = sweep(), sweep()
for k = 1, #a do assert(a[k].bw == b[k].bw, "deterministic at " .. a[k].n) end
for k = 2, #a do
  if 2 * a[k].n <= i.l2_bytes then assert(a[k].bw > a[k - 1].bw, "monotone below L2 at " .. a[k].n) end
end
local last = a[#a].bw
assert(last < i.peak_bytes_per_s and last > 0.7 * i.peak_bytes_per_s, "large copies near peak: " .. last)
-- H2D: pinned beats pageable at every size
for _, n in ipairs { 65536, 2^20, 64 * 2^20 } do
  local p = gpu.copy { dir = "h2d", bytes = n, pinned = true, trials = 3 }
  local q = gpu.copy { dir = "h2d", bytes = n, pinned = false, trials = 3 }
  assert(p.bytes_per_s > q.bytes_per_s, "pinned > pageable at " .. n)
  assert(p.bytes_per_s < i.pcie_bytes_per_s, "below the PCIe link")
end
