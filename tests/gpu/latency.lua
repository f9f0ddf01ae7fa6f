-- latency.lua: the device pointer chase sees the memory hierarchy: a 16 KiB working set (L1) is
-- far faster per dependent load than 256 MiB (beyond every L2: DRAM), and both are in the range
-- GPUs have (needs a GPU). Bounds are loose on purpose: they catch a broken chase, not a slow GPU.
local KiB, MiB = 1024, 1024 * 1024
local fmt = string.format

local small, err = gpu.latency({ bytes = 16 * KiB })
assert(small, "gpu.latency of 16 KiB failed: " .. tostring(err))
local big, err2 = gpu.latency({ bytes = 256 * MiB })
assert(big, "gpu.latency of 256 MiB failed: " .. tostring(err2))
assert(small.simulated == false and big.simulated == false, "a real measurement must not be simulated")
print(fmt("dependent load: %.1f ns over 16 KiB, %.1f ns over 256 MiB", small.ns_per_load,
    big.ns_per_load))
assert(small.ns_per_load >= 3 and small.ns_per_load <= 200,
    fmt("16 KiB chase: %.1f ns per load, outside 3..200 ns (an L1 hit is ~20-40 ns)",
        small.ns_per_load))
assert(big.ns_per_load >= 150 and big.ns_per_load <= 5000,
    fmt("256 MiB chase: %.1f ns per load, outside 150..5000 ns (a DRAM access is ~400-800 ns)",
        big.ns_per_load))
assert(big.ns_per_load >= 3 * small.ns_per_load,
    "the DRAM-sized working set is not clearly slower than the L1-sized one: the chase is not "
    .. "walking dependent loads over the whole set")
