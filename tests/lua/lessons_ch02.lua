-- Chapter 2: the figures the lessons state, recomputed from the allocator model and the
-- arithmetic behind them, so a changed figure (or a changed rule) fails here.
local MiB, GiB = units.MiB, units.GiB
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end

-- 2.1 -------------------------------------------------------------------------------------
near(1304 - 512 - 256, 536, 0, "2.1 context")
-- the published times the lesson shows without a GPU: 100M ints in 0.000432 s (kokkos #317)
near(0.000432 * 1e6, 432, 1e-12, "2.1 published cudaMalloc 400 MB")
near(100e6 * 4 / 1e6, 400, 0, "2.1 100M ints are 400 MB")

-- 2.2 -------------------------------------------------------------------------------------
local size, pool = alloc.round_size(1000)
assert(size == 1024 and pool == "small", "2.2 round: 1000 B -> a 1024 B block in the small pool")

-- 2.3 -------------------------------------------------------------------------------------
-- order matters: 8 x 16 MiB then 4 x 32 MiB reserves 256 MiB; the other way round 128 MiB
local function order(first, n1, second, n2)
  local m <close> = alloc.model { capacity = "1GiB" }
  local bs = {}
  for k = 1, n1 do bs[k] = assert(m:malloc(first * MiB)) end
  for k = 1, n1 do m:free(bs[k]) end
  for _ = 1, n2 do assert(m:malloc(second * MiB)) end
  return m:stats().reserved / MiB
end
assert(order(16, 8, 32, 4) == 256, "2.3 16 then 32 reserves 256 MiB")
assert(order(32, 4, 16, 8) == 128, "2.3 32 then 16 reserves 128 MiB")
-- internal fragmentation, as the text defines it: a 1.5 MiB request cut from a fresh 20 MiB
-- segment wastes nothing; one that finds a cached 2 MiB block takes all of it (0.5 MiB)
do
  local m <close> = alloc.model { capacity = "1GiB" }
  local b = assert(m:malloc(1.5 * MiB))
  assert(b:size() == 1.5 * MiB and b:requested() == 1.5 * MiB, "2.3 1.5 MiB from a fresh segment: 0 B wasted")
end
do
  local m <close> = alloc.model { capacity = "1GiB" }
  local a, pin = assert(m:malloc(2 * MiB)), assert(m:malloc(18 * MiB)) -- fill the 20 MiB segment
  m:free(a)                                                           -- a cached 2 MiB block
  local b = assert(m:malloc(1.5 * MiB))
  assert(b:size() == 2 * MiB, "2.3 1.5 MiB takes the whole cached 2 MiB block: " .. b:size())
  local s = m:stats()
  near(s.allocated - s.requested, 0.5 * MiB, 0, "2.3 internal fragmentation is allocated - requested")
  m:free(pin)
end
-- a lone 3 MiB tensor: the other 17 MiB of its segment are cached, counted reserved - allocated
do
  local m <close> = alloc.model { capacity = "1GiB" }
  assert(m:malloc(3 * MiB))
  local s = m:stats()
  assert(s.reserved == 20 * MiB and s.allocated == 3 * MiB and s.requested == 3 * MiB,
         "2.3 lone 3 MiB: reserved 20, allocated 3, requested 3")
end

-- the cures experiment's workload (as in the lesson): the pitfall's sentence says emptying the
-- cache every step lowered the peak reserved and ended the OOM on 640 MiB, at more cudaMalloc calls
local function workload(empty_each_step)
  local ev, id, kept = {}, 0, {}
  for _, L in ipairs { 7, 3, 9, 5, 8, 2, 10, 4, 6, 9, 3, 7, 5, 10, 2, 8 } do
    local acts = {}
    for j = 1, 4 do id = id + 1; ev[#ev + 1] = { "a", id, L * 12 * MiB + j * 4096 }; acts[j] = id end
    id = id + 1; ev[#ev + 1] = { "a", id, 20 * MiB }; kept[#kept + 1] = id
    for j = 1, 4 do ev[#ev + 1] = { "f", acts[j] } end
    if #kept > 4 then ev[#ev + 1] = { "f", table.remove(kept, 1) } end
    if empty_each_step then ev[#ev + 1] = { "e" } end
  end
  return ev
end
local function replay(empty, cap) return assert(alloc.trace_replay(workload(empty), { capacity = cap })) end
local d8, e8 = replay(false, "8GiB"), replay(true, "8GiB")
local d640, e640 = replay(false, "640MiB"), replay(true, "640MiB")
assert(e8.stats.peak_reserved < d8.stats.peak_reserved, "2.3 empty_cache lowers the peak reserved")
assert(d640.ooms > 0 and e640.ooms == 0, "2.3 empty_cache ends the OOM on 640 MiB")
assert(e8.stats.num_device_alloc > 3 * d8.stats.num_device_alloc, "2.3 empty_cache costs several times the cudaMalloc calls")
assert(d8.stats.num_device_alloc == 13, "2.3 the 'empty' exercise's prompt: the default makes 13")

-- 2.4 -------------------------------------------------------------------------------------
-- the A100 message: used = 79.15 GiB - 11.62 MiB, PyTorch 78.20 + 0.41 GiB: 0.53 GiB elsewhere
near((79.15 - 11.62 / 1024) - (78.20 + 420 / 1024), 0.53, 0.01, "2.4 elsewhere")

-- 2.5 -------------------------------------------------------------------------------------
do
  local p <close> = alloc.async_pool { capacity = "4GiB" }
  for _ = 1, 100 do
    local b = assert(p:malloc(GiB))
    p:free(b)
    p:synchronize()
  end
  local s = p:stats()
  assert(s.chunk_maps == 100, "2.5 maps: threshold 0 maps every iteration: " .. tostring(s.chunk_maps))
end

-- 2.4 the share outside PyTorch, itemized
local o24 = vram.outside_torch {}
assert(math.abs(o24.context_lazy / 2^20 - 254) < 0.5 and math.abs(o24.context_eager / 2^20 - 616) < 0.5, "2.4 table: about 254 and 616 MiB")
assert(vram.cublas_workspace().per_pair == 2 * 4096 * 1024 + 8 * 16 * 1024, "2.4 text: :4096:2:16:8")
assert(math.abs(vram.cublas_workspace().per_pair / 2^20 - 8.13) <= 0.006, "2.4 text: 8.13 MiB (8.125)")
assert(vram.cublas_workspace { config = ":4096:8", streams = 4 }.total == 128 * 2^20, "2.4 cublas-streams: 128 MiB")
assert(math.abs((0.89 * 1024 - 688e6 / 2^20) - 255.3) < 0.1, "2.4 context-left: 255 MiB")
do
  local m <close> = alloc.model { capacity = "80GiB" }
  for _ = 1, 2 do assert(m:malloc(vram.cublas_workspace().per_pair)) end
  assert(m:stats().reserved == 20 * 2^20, "2.4 experiment: two 8.13 MiB workspaces share a 20 MiB segment")
end
print("lessons_ch02: all checks passed")
