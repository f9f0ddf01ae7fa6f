-- pcie.lua: pinned host-to-device and device-to-host copies by the copy engine run and reach a
-- sensible share of the PCIe link that gpu.info() reports (needs a GPU; under make gpu-report the
-- report's own figures, FIGURES). The link is its maximum (NVML's, else sysfs'), not the
-- state an idle GPU drops it to; both are printed.
-- A rate above the reported link's raw rate is printed, not failed: inside a VM the link seen in
-- sysfs is the hypervisor's emulated port, which need not match the physical link.
local MiB = 1024 * 1024
local fmt = string.format
local i = gpu.info()

for _, dir in ipairs({ "h2d", "d2h" }) do
    local r, err = figure and figure(dir .. "_pinned")
    if not r then r, err = gpu.copy({ dir = dir, bytes = 256 * MiB, method = "ce", pinned = true }) end
    assert(r, fmt("gpu.copy %s of 256 MiB failed: %s", dir, tostring(err)))
    assert(r.simulated == false, "a real measurement must not be labelled simulated")
    assert(r.validated == true, dir .. ": the copy was not validated")
    if r.numa_node then print(fmt("%s: host buffer on NUMA node %d, next to the GPU", dir, r.numa_node)) end
    assert(r.bytes_per_s >= 1e9, fmt("%s pinned copy at %.2f GB/s: slower than any PCIe x16 link",
        dir, r.bytes_per_s / 1e9))
    if i.pcie_bytes_per_s then
        local frac = r.bytes_per_s / i.pcie_bytes_per_s
        print(fmt("%s pinned 256 MiB: %.1f GB/s = %.0f %% of PCIe gen %d x%d (%.1f GB/s after "
            .. "encoding; the maximum, from %s; now gen %s x%s)", dir, r.bytes_per_s / 1e9, 100 * frac,
            i.pcie_gen, i.pcie_width, i.pcie_bytes_per_s / 1e9, tostring(i.pcie_source),
            tostring(i.pcie_gen_current), tostring(i.pcie_width_current)))
        assert(frac >= 0.5, fmt("%s reached only %.0f %% of the reported PCIe link", dir, 100 * frac))
        if frac > 1.02 then
            print("NOTE: faster than the reported link: the real link is faster than sysfs says")
        end
    else
        print(fmt("%s pinned 256 MiB: %.1f GB/s (PCIe link not reported here)", dir,
            r.bytes_per_s / 1e9))
    end
end
