-- info.lua: the cuda backend reports a real device whose facts hang together (needs a GPU).
local KiB, GiB = 1024, 1024 * 1024 * 1024
local fmt = string.format
local i = gpu.info()

assert(i.backend == "cuda", "backend is " .. tostring(i.backend) .. ", expected cuda")
assert(i.simulated == false, "a real device must not be labelled simulated")
assert(type(i.name) == "string" and #i.name > 0, "device name missing")
assert(i.total_bytes and i.total_bytes >= GiB,
    fmt("total memory %s bytes: implausible for a CUDA GPU", tostring(i.total_bytes)))

local free, total = gpu.mem()
assert(free, "gpu.mem() failed: " .. tostring(total))
assert(total == i.total_bytes,
    fmt("gpu.mem() total %d differs from gpu.info().total_bytes %d", total, i.total_bytes))
assert(free > 0 and free <= total, fmt("free memory %d outside 0..total (%d)", free, total))

assert(i.sm_count and i.sm_count >= 1 and i.sm_count <= 1024,
    "SM count implausible: " .. tostring(i.sm_count))
local major = i.cc_major
if not major and i.compute_capability then
    major = tonumber(i.compute_capability:match("^(%d+)"))
end
assert(major and major >= 7,
    "compute capability " .. tostring(i.compute_capability or major) ..
    ": the binary carries code for 7.5 and newer only")

assert(i.bus_width_bits and i.bus_width_bits >= 32 and i.bus_width_bits <= 16384,
    "memory bus width implausible: " .. tostring(i.bus_width_bits))
assert(i.mem_clock_khz and i.mem_clock_khz >= 100000 and i.mem_clock_khz <= 20000000,
    "memory clock implausible (kHz): " .. tostring(i.mem_clock_khz))
local peak = 2 * i.mem_clock_khz * 1e3 * i.bus_width_bits / 8
assert(i.peak_bytes_per_s and math.abs(i.peak_bytes_per_s - peak) <= 1e-9 * peak,
    fmt("peak %s B/s is not 2 x %d kHz x %d bits / 8 = %.0f B/s",
        tostring(i.peak_bytes_per_s), i.mem_clock_khz, i.bus_width_bits, peak))
assert(peak >= 50e9 and peak <= 20e12, fmt("theoretical peak %.0f GB/s implausible", peak / 1e9))

assert(i.l2_bytes and i.l2_bytes >= 256 * KiB and i.l2_bytes <= GiB,
    "L2 size implausible: " .. tostring(i.l2_bytes))
if i.pcie_gen ~= nil then
    assert(i.pcie_gen >= 1 and i.pcie_gen <= 6, "PCIe generation implausible: " .. i.pcie_gen)
end
if i.pcie_width ~= nil then
    local w = i.pcie_width
    assert(w == 1 or w == 2 or w == 4 or w == 8 or w == 16 or w == 32,
        "PCIe link width implausible: x" .. w)
end
if i.memory_type ~= nil then
    assert(i.memory_type:match("^HBM") or i.memory_type:match("^GDDR"),
        "memory type not an HBM or GDDR name: " .. i.memory_type)
end
assert(i.driver and i.driver:match("^driver %d+%.%d+ / runtime %d+%.%d+"),
    "driver text unexpected: " .. tostring(i.driver))

assert(i.device == 0, "device " .. tostring(i.device) .. " opened; run.sh asks for the default, 0")
assert(type(i.mig) == "boolean", "MIG state missing")
assert(i.l1_bytes, "L1 size unknown for compute capability " .. tostring(i.compute_capability))
-- the published figure beside the computed peak, when a profile of this name exists
if i.published_bytes_per_s then
  assert(i.published_profile, "a published figure without the profile it came from")
  print(fmt("published %.0f GB/s (profile %s) vs attribute peak %.0f GB/s: %+.1f %%%s",
    i.published_bytes_per_s / 1e9, i.published_profile, peak / 1e9,
    100 * (peak / i.published_bytes_per_s - 1),
    math.abs(peak / i.published_bytes_per_s - 1) > 0.03 and " (the driver's attributes and the spec sheet disagree)" or ""))
else
  print("no profile named '" .. i.name .. "' in assets/gpus: no published figure")
end
if i.mig then print("MIG slice: memory is the slice's; peak and published figure are the whole GPU's") end
if i.numa_node then print("NUMA node of the GPU: " .. i.numa_node) end

print(fmt("%s, cc %s, %d SMs, %.1f GiB (%.1f GiB free), %d-bit bus at %.0f MHz: peak %.0f GB/s, "
    .. "L2 %.0f MiB, PCIe %s x%s, memory %s; %s",
    i.name, tostring(i.compute_capability or major), i.sm_count, i.total_bytes / GiB, free / GiB,
    i.bus_width_bits, i.mem_clock_khz / 1e3, peak / 1e9, i.l2_bytes / 1048576,
    tostring(i.pcie_gen or "n/a"), tostring(i.pcie_width or "n/a"),
    tostring(i.memory_type or "n/a"), i.driver))
