-- bench.lua - vramlab's side of the GPU benchmarks (tests/gpu/bench.sh): the figures that
-- ref_bandwidth.cu measures too, and the SM copy and STREAM against the peaks, one "name value"
-- line each. Every figure was validated (a wrong copy fails here instead of printing a number).
local GiB, MiB = 2^30, 2^20
local i = gpu.info()
assert(not i.simulated, "the GPU benchmarks need the cuda backend")
local d2d = assert(gpu.copy { dir = "d2d", bytes = GiB, method = "ce", trials = 10 })
local sm = assert(gpu.copy { dir = "d2d", bytes = GiB, method = "sm", trials = 10 })
local h2d = assert(gpu.copy { dir = "h2d", bytes = 256 * MiB, pinned = true, trials = 10 })
local d2h = assert(gpu.copy { dir = "d2h", bytes = 256 * MiB, pinned = true, trials = 10 })
print(string.format("peak_bytes_per_s %.6e", i.peak_bytes_per_s or 0))
print(string.format("published_bytes_per_s %.6e", i.published_bytes_per_s or 0))
print(string.format("d2d_rw_bytes_per_s %.6e", d2d.rw_bytes_per_s))
print(string.format("sm_rw_bytes_per_s %.6e", sm.rw_bytes_per_s))
print(string.format("h2d_bytes_per_s %.6e", h2d.bytes_per_s))
print(string.format("d2h_bytes_per_s %.6e", d2h.bytes_per_s))
local n = math.min(GiB, gpu.budget() // 3)
for _, k in ipairs({ "copy", "scale", "add", "triad", "dot" }) do
  local r = assert(gpu.stream { kernel = k, bytes = n, trials = 10 })
  print(string.format("%s_bytes_per_s %.6e", k, r.bytes_per_s))
end
