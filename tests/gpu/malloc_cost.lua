-- malloc_cost.lua: cudaMalloc/cudaFree are timed per call, the first call apart from the median of
-- the rest (needs a GPU): the first call of a size may grow the driver's own state.
local MiB = 1024 * 1024
local fmt = string.format
local s
if FIGURES and FIGURES.malloc_median_seconds then
  s = { device_alloc_first_seconds = FIGURES.malloc_first_seconds, device_alloc_median_seconds = FIGURES.malloc_median_seconds,
        device_free_first_seconds = FIGURES.free_first_seconds, device_free_median_seconds = FIGURES.free_median_seconds }
else
  local raw <close> = alloc.raw {}
  for _ = 1, 50 do raw:free(assert(raw:malloc(4 * MiB))) end
  s = raw:stats()
  assert(s.num_device_alloc == 50, "50 cudaMalloc calls expected, got " .. tostring(s.num_device_alloc))
end
assert(s.device_alloc_first_seconds and s.device_alloc_median_seconds, "no first/median cudaMalloc time")
assert(s.device_free_first_seconds and s.device_free_median_seconds, "no first/median cudaFree time")
assert(s.device_alloc_median_seconds > 0 and s.device_alloc_median_seconds < 0.1, "median cudaMalloc implausible")
print(fmt("cudaMalloc 4 MiB: first %.1f us, median %.1f us; cudaFree: first %.1f us, median %.1f us",
  s.device_alloc_first_seconds * 1e6, s.device_alloc_median_seconds * 1e6,
  s.device_free_first_seconds * 1e6, s.device_free_median_seconds * 1e6))
