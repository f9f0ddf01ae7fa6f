-- d2d.lua: device-to-device copies of 1 GiB by the copy engine and by the SM kernel reach at least
-- 70 % of the theoretical peak, counting read + written bytes (2n/t), and never exceed it
-- (needs a GPU).
local GiB = 1024 * 1024 * 1024
local fmt = string.format
local info = gpu.info()
local peak = info.peak_bytes_per_s
assert(peak and peak > 0, "theoretical peak unknown: bus width or memory clock not reported")

for _, method in ipairs({ "sm", "ce" }) do
    local r, err = gpu.copy({ dir = "d2d", bytes = GiB, method = method, reps = 20 })
    assert(r, fmt("gpu.copy d2d %s of 1 GiB failed: %s", method, tostring(err)))
    assert(r.simulated == false, "a real measurement must not be labelled simulated")
    assert(r.bytes == GiB, fmt("result counts %s bytes, expected %d", tostring(r.bytes), GiB))
    assert(r.samples and r.samples >= 1, "no timed samples")
    assert(r.seconds and r.seconds > 0, "no time")
    local nt = GiB / r.seconds
    assert(math.abs(r.bytes_per_s - nt) <= 1e-6 * nt, "bytes_per_s is not n/t")
    assert(math.abs(r.rw_bytes_per_s - 2 * nt) <= 2e-6 * nt, "rw_bytes_per_s is not 2n/t")
    local frac = r.rw_bytes_per_s / peak
    print(fmt("D2D %s 1 GiB: %.0f GB/s read+written (2n/t) = %.1f %% of the %.0f GB/s peak; "
        .. "n/t %.0f GB/s; %d samples, spread %.1f %%",
        method, r.rw_bytes_per_s / 1e9, 100 * frac, peak / 1e9, r.bytes_per_s / 1e9, r.samples,
        100 * (r.spread or 0)))
    assert(frac >= 0.70, fmt("D2D %s copy reached only %.1f %% of the theoretical peak (want >= 70 %%)",
        method, 100 * frac))
    assert(frac <= 1.05, fmt("D2D %s copy measured %.1f %% of the theoretical peak: faster than the "
        .. "hardware can go, so the timing or the byte count is wrong", method, 100 * frac))
end
