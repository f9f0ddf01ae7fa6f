-- alloc.lua: allocating and freeing 1 GiB shows in the device's free memory and returns it all
-- (needs a GPU). Free memory is device-wide: another process allocating meanwhile also moves it.
-- Back means within gpu.free_tolerance: max(2 MiB, 0.01 % of what was allocated).
local MiB, GiB = 1024 * 1024, 1024 * 1024 * 1024
local tol = gpu.free_tolerance(GiB)
local fmt = string.format

local free0, total = gpu.mem()
assert(free0, "gpu.mem() failed: " .. tostring(total))
assert(free0 >= 1.5 * GiB, fmt("only %.2f GiB free: this check needs 1.5 GiB", free0 / GiB))

for round = 1, 3 do
    local b, err = gpu.alloc(GiB)
    assert(b, fmt("round %d: gpu.alloc(1 GiB) failed: %s", round, tostring(err)))
    local free1 = gpu.mem()
    assert(free0 - free1 >= GiB - tol,
        fmt("round %d: free memory fell by only %.1f MiB after allocating 1 GiB",
            round, (free0 - free1) / MiB))
    b:free()
    local free2 = gpu.mem()
    assert(math.abs(free2 - free0) <= tol,
        fmt("round %d: after allocating and freeing 1 GiB, free memory is %+.1f MiB off its "
            .. "starting value (tolerance %.1f MiB; other processes on the GPU also move it)",
            round, (free2 - free0) / MiB, tol / MiB))
end
print(fmt("3 x alloc/free of 1 GiB: free memory back to %.1f MiB each time", free0 / MiB))
