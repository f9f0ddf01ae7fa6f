-- alloc_caching.lua: the caching allocator on a real GPU (needs one). Its segments are real
-- cudaMalloc calls, so the drop in free memory must match its reserved bytes; closing it gives
-- everything back; the ledger's parts add up; raw cudaMalloc pointers are 256-byte aligned; an
-- OOM under the experiment cap has PyTorch's shape and the allocator recovers from it.
-- Free memory is device-wide: another process allocating meanwhile also moves it. "Back" means
-- within gpu.free_tolerance of what was allocated: max(2 MiB, 0.01 %), so ~125 GB of segments
-- in the OOM part may leave the driver's few MiB of page tables without failing a correct GPU.
local MiB, GiB = 2^20, 2^30
local fmt = string.format
local tol = 2 * MiB

assert(gpu.backend() == "cuda", "run with --backend cuda")
local free0, total = gpu.mem()

local a = alloc.caching {}
local keep = {}
for i = 1, 50 do keep[#keep + 1] = assert(a:malloc(100 * 1024)) end   -- small pool, 3 segments
for i = 1, 4 do keep[#keep + 1] = assert(a:malloc(3 * MiB)) end      -- one 20 MiB segment
keep[#keep + 1] = assert(a:malloc(100 * MiB + 1))                      -- own 102 MiB segment
local s = a:stats()
local drop = free0 - gpu.mem()
assert(math.abs(drop - s.reserved) <= tol,
  fmt("free memory fell by %.1f MiB, the allocator reserved %.1f MiB", drop / MiB, s.reserved / MiB))
assert(s.num_device_alloc == s.segments, "one cudaMalloc per segment")
assert(s.device_alloc_seconds and s.device_alloc_seconds > 0, "device calls are timed on a GPU")
local segs = a:segments()
for _, g in ipairs(segs) do assert(g.address % 256 == 0, "segment address aligned") end

local l = alloc.ledger(a)
local sum = 0
for _, p in ipairs(l.parts) do sum = sum + p.bytes end
assert(sum == l.total, "ledger parts add up to the total")
assert(l.simulated == false and l.backend == "cuda")
assert(l.reserved == s.reserved and l.requested == s.requested)
print(l.text)
if l.nvml then
  print("NVML: " .. l.nvml_note)
  if l.self_nvml then
    assert(l.self_nvml >= s.reserved, "nvidia-smi counts at least the allocator's segments for this process")
  end
else
  print("no NVML: " .. l.nvml_note)
end

a:close()
assert(math.abs(gpu.mem() - free0) <= gpu.free_tolerance(s.reserved),
  fmt("after close, free memory is %+.1f MiB off its start", (gpu.mem() - free0) / MiB))

-- raw cudaMalloc: 256-byte alignment
local r = alloc.raw {}
for _, n in ipairs { 1, 255, 4097, MiB + 3 } do
  local b = assert(r:malloc(n))
  assert(b:address() % 256 == 0, fmt("cudaMalloc(%d) returned an address not 256-aligned", n))
  r:free(b)
end
r:close()

-- an OOM under the cap, and recovery
local d = alloc.caching {}
local cap = d:stats().cap_bytes
local step = math.max(2 * MiB, cap // 8 // (2 * MiB) * (2 * MiB))
local got, err = {}, nil
for i = 1, 16 do
  local b, e = d:malloc(step)
  if not b then err = e; break end
  got[#got + 1] = b
end
assert(err and err:find("^CUDA out of memory%. Tried to allocate") and err:find("allowed;"), tostring(err))
for _, b in ipairs(got) do d:free(b) end
d:empty_cache()
local back = gpu.mem() - free0
assert(math.abs(back) <= gpu.free_tolerance(#got * step), fmt("after the OOM and empty_cache, free "
  .. "memory is %+.1f MiB off its start (tolerance %.1f MiB for %.1f GiB allocated)", back / MiB,
  gpu.free_tolerance(#got * step) / MiB, #got * step / GiB))
d:close()
print(fmt("caching allocator on %s: segments match cudaMemGetInfo, OOM at %d x %.0f MiB under a %.1f GiB cap, nothing leaked",
          gpu.info().name, #got + 1, step / MiB, cap / GiB))
