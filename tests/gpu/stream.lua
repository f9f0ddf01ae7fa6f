-- stream.lua: STREAM copy/scale/add/triad and BabelStream's dot on the device, each validated in
-- closed form after the trials (needs a GPU). Printed as % of the driver-attribute peak and of the
-- published figure; held only to bounds a broken kernel shape or byte count would miss. Under
-- make gpu-report, the report's own figures (FIGURES, tests/gpu/figures.lua).
local MiB = 1024 * 1024
local fmt = string.format
local i = gpu.info()
local attr, pub = i.peak_bytes_per_s, i.published_bytes_per_s
local top = math.max(attr or 0, pub or 0)
local n = math.min(1024 * MiB, gpu.budget() // 3)
assert(n >= 256 * MiB, "STREAM needs 3 x 256 MiB of free device memory")
for _, k in ipairs({ "copy", "scale", "add", "triad", "dot" }) do
  local r, err = figure and figure("stream_" .. k)
  if r then n = FIGURES["stream_" .. k .. "_bytes"] else r, err = gpu.stream({ kernel = k, bytes = n, trials = 10 }) end
  assert(r, fmt("gpu.stream %s failed: %s", k, tostring(err)))
  assert(r.validated == true, k .. ": not validated")
  if k == "dot" then
    local want = (n // 8) * 0.1 * 0.2
    assert(math.abs(r.dot - want) <= 1e-6 * want, fmt("dot = %.17g, want %.17g", r.dot, want))
  end
  print(fmt("STREAM %-5s %s arrays: %.0f GB/s (%d B/element) = %s of attribute peak, %s of published",
    k, units.bytes(n), r.bytes_per_s / 1e9, r.moved_bytes // (n // 8),
    attr and fmt("%.1f %%", 100 * r.bytes_per_s / attr) or "n/a",
    pub and fmt("%.1f %%", 100 * r.bytes_per_s / pub) or "n/a"))
  assert(r.bytes_per_s <= 1.05 * top, k .. ": faster than the hardware: the count or timing is wrong")
  if not i.mig then
    assert(r.bytes_per_s >= 0.5 * top, fmt("%s at %.1f %% of peak: the kernel does not keep enough "
      .. "loads in flight", k, 100 * r.bytes_per_s / top))
  end
end
