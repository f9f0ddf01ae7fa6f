-- The `alloc` module through the sandbox: the classic sequences, stats invariants, PyTorch's OOM
-- message, misuse errors, and that nothing leaks on the simulated device.
local MiB, GiB = 2^20, 2^30
local fmt = string.format
local function eq(a, b, what) assert(a == b, fmt("%s: expected %s, got %s", what, tostring(b), tostring(a))) end

-- 8 x 16 MiB, freed, then 4 x 32 MiB: the 16 MiB segments cannot serve 32 MiB -> 256 MiB
local a = alloc.model { capacity = "1GiB" }
local t = {}
for i = 1, 8 do t[i] = assert(a:malloc(16 * MiB)) end
for i = 1, 8 do a:free(t[i]) end
for i = 1, 4 do t[i] = assert(a:malloc(32 * MiB)) end
eq(a:stats().reserved, 256 * MiB, "16s then 32s reserved")
eq(a:stats().allocated, 128 * MiB, "16s then 32s allocated")
-- the reverse order splits the 32 MiB segments: 128 MiB
local b = alloc.model { capacity = "1GiB" }
for i = 1, 4 do t[i] = assert(b:malloc(32 * MiB)) end
for i = 1, 4 do b:free(t[i]) end
for i = 1, 8 do t[i] = assert(b:malloc(16 * MiB, "t" .. i)) end
eq(b:stats().reserved, 128 * MiB, "32s then 16s reserved")
local segs = b:segments()
eq(#segs, 4, "segments")
eq(#segs[1].blocks, 2, "a 32 MiB segment split in two")
eq(segs[1].pool, "large", "pool")
eq(segs[1].blocks[1].tag, "t1", "tag")

-- small requests share one 2 MiB segment; rounding to 512 B
local s = alloc.model { capacity = "64MiB" }
local x1 = assert(s:malloc(1))
local x2 = assert(s:malloc(1000))
eq(x1:size(), 512, "1 B -> 512 B")
eq(x2:size(), 1024, "1000 B -> 1024 B")
eq(x2:requested(), 1000, "requested")
local st = s:stats()
eq(st.small.segments, 1, "one small segment")
eq(st.reserved, 2 * MiB, "2 MiB reserved")
eq(st.requested, 1001, "requested bytes")
assert(st.requested <= st.allocated and st.allocated <= st.reserved, "requested <= allocated <= reserved")

-- memory only grows: free keeps the segment; empty_cache gives back exactly the free ones
local g = alloc.model { capacity = "1GiB" }
local big = assert(g:malloc(100 * MiB))
local keep = assert(g:malloc(1.5 * MiB))
g:free(big)
eq(g:stats().reserved, 120 * MiB, "after del: 100 MiB segment + 20 MiB segment stay")
eq(g:stats().allocated, 1.5 * MiB, "1.5 MiB is split off a 20 MiB segment")
g:empty_cache()
eq(g:stats().reserved, 20 * MiB, "empty_cache returns the free 100 MiB segment only")
g:free(keep)
g:empty_cache()
local e = g:stats()
eq(e.reserved, 0, "everything returned")
eq(e.allocated, 0, "allocated = 0 after freeing all")
eq(e.peak_reserved, 120 * MiB, "peak reserved")
eq(e.alloc_count, 2, "alloc_count")
eq(e.free_count, 2, "free_count")
g:reset_peak()
eq(g:stats().peak_reserved, 0, "reset_peak")

-- randomized invariants on the simulated device, and nothing leaks
local free0 = gpu.mem()
local c = alloc.caching {}
local live, seed, peak_prev = {}, 7, 0
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
for i = 1, 3000 do
  if #live > 0 and rnd(100) < 45 then
    local k = rnd(#live) + 1
    c:free(live[k]); live[k] = live[#live]; live[#live] = nil
  else
    local sz = rnd(4) == 0 and (rnd(40) + 1) * MiB or rnd(300000) + 1
    live[#live + 1] = assert(c:malloc(sz))
  end
  if i % 500 == 0 then c:empty_cache() end
  local q = c:stats()
  assert(q.requested <= q.allocated and q.allocated <= q.reserved, "invariant at op " .. i)
  assert(q.peak_reserved >= peak_prev and q.peak_reserved >= q.reserved, "peak monotone")
  peak_prev = q.peak_reserved
  assert(q.small.reserved + q.large.reserved == q.reserved, "pools add up")
end
local q = c:stats()
eq(free0 - gpu.mem(), q.reserved, "the device sees exactly the reserved bytes")
local l = alloc.ledger(c)
local sum = 0
for _, p in ipairs(l.parts) do sum = sum + p.bytes end
eq(sum, l.total, "ledger parts add up to the total")
eq(l.requested + l.rounding + l.cached, q.reserved, "ledger allocator parts")
assert(l.context and l.context > 0, "sim context from the profile")
for _, blk in ipairs(live) do c:free(blk) end
eq(c:stats().allocated, 0, "allocated 0 after freeing all")
c:close()
eq(gpu.mem(), free0, "nothing leaked after :close()")
assert(not pcall(c.stats, c), "use after close raises")

-- OOM under the experiment cap, PyTorch-shaped, then recover
local free1, total = gpu.mem()
local d = alloc.caching {}
local n, blocks = 0, {}
while true do
  local blk, err = d:malloc(1 * GiB)
  if not blk then
    assert(err:find("^CUDA out of memory%. Tried to allocate 1024%.00 MiB%. GPU 0 has a total capacity of 23%.70 GiB of which"), err)
    assert(err:find("allowed; Of the allocated memory") and err:find("experiment cap"), err)
    break
  end
  n = n + 1; blocks[n] = blk
end
local cap = d:stats().cap_bytes
assert(n * GiB <= cap and (n + 1) * GiB > cap, "stopped at the cap")
eq(d:stats().num_ooms, 1, "num_ooms")
for _, blk in ipairs(blocks) do d:free(blk) end
d:empty_cache()
eq(gpu.mem(), free1, "recovered: free memory back to the start value")
assert(d:malloc(1 * GiB), "works again after recovery")
d:close()
eq(gpu.mem(), free1, "closed")

-- the fragmentation OOM on a 100 MiB model device, and expandable segments curing it
local function frag(conf)
  local f = alloc.model { capacity = "100MiB", conf = conf }
  local p, q2 = assert(f:malloc(40 * MiB)), assert(f:malloc(40 * MiB))
  f:free(p); f:free(q2)
  assert(f:malloc(30 * MiB)); assert(f:malloc(30 * MiB))
  return f, f:malloc(30 * MiB)
end
local f1, ok1, msg = frag(nil)
assert(not ok1 and msg:find("Tried to allocate 30%.00 MiB") and msg:find("of which 20%.00 MiB is free"), msg)
assert(msg:find("20%.00 MiB is reserved by PyTorch but unallocated"), msg)
eq(f1:stats().largest_free, 10 * MiB, "largest free block after the OOM")
local _, ok2 = frag("expandable_segments:True")
assert(ok2, "expandable segments succeed")

-- raw allocator: one device call per malloc; model raw
local r = alloc.raw { capacity = "64MiB" }
local rb = assert(r:malloc(3 * MiB))
eq(r:stats().segments, 1, "raw: one segment per malloc")
eq(r:stats().num_device_alloc, 1, "raw device call")
r:free(rb)
local none, why = r:malloc(65 * MiB)
assert(none == nil and why:find("out of memory"), why)

-- trace replay: text and event tables, OOM list
local rep = assert(alloc.trace_replay("a 1 40MiB\na 2 40MiB\nf 1\nf 2\na 3 30MiB\na 4 30MiB\na 5 30MiB\n",
                                      { capacity = "100MiB" }))
eq(rep.ooms, 1, "replay ooms"); eq(rep.oom_list[1].line, 7, "oom line"); eq(rep.events, 7, "events")
assert(rep.first_oom.message:find("CUDA out of memory"))
local rep2 = assert(alloc.trace_replay({ { "a", 1, 40 * MiB }, { "a", 2, 40 * MiB }, { "f", 1 }, { "f", 2 },
                                        { "a", 3, 30 * MiB }, { "a", 4, 30 * MiB }, { "a", 5, 30 * MiB } },
                                      { capacity = "100MiB", expandable_segments = true }))
eq(rep2.ooms, 0, "expandable replay")
local bad, berr = alloc.trace_replay("a 1 10\nf 2\n", { capacity = "1GiB" })
assert(bad == nil and berr:find("line 2"), berr)
local _, eerr = alloc.trace_replay({ { "a", 1, 10 }, { "f", 1 }, { "f", 1 } }, { capacity = "1GiB" })
assert(eerr:find("event 3"), eerr)

-- recording a run and replaying it elsewhere
local rec = alloc.model { capacity = "1GiB" }
rec:record()
local r1 = rec:malloc(5 * MiB); rec:free(r1); rec:empty_cache()
local text = rec:trace()
assert(text:find("# conf:") and text:find("a 1 5242880") and text:find("\ne\n"), text)

-- stream-ordered pool model: release threshold
local pool = alloc.async_pool { capacity = "1GiB" }
for _ = 1, 3 do
  local pb = assert(pool:malloc(64 * MiB, 1)); pool:free(pb); pool:synchronize()
end
local ps = pool:stats()
eq(ps.chunk_maps, 3, "threshold 0: every sync gives memory back, every malloc maps again")
eq(ps.reserved, 0, "nothing kept")
pool:set_release_threshold("max")
for _ = 1, 3 do
  local pb = assert(pool:malloc(64 * MiB, 1)); pool:free(pb); pool:synchronize()
end
ps = pool:stats()
eq(ps.chunk_maps, 4, "threshold max: one more map, then reuse")
eq(ps.reserved, 64 * MiB, "kept")
-- another stream reuses only after a dependency or a sync
local p2 = alloc.async_pool { capacity = "1GiB", release_threshold = "max", reuse_allow_opportunistic = true }
local u = assert(p2:malloc(32 * MiB, 1)); p2:free(u, 1)
local v = assert(p2:malloc(32 * MiB, 1)); eq(p2:stats().reused, 1, "same stream reuses at once")
p2:free(v, 1)

-- misuse raises
assert(not pcall(alloc.model, {}), "capacity required")
assert(not pcall(alloc.model, { capacity = "1GiB", max_split_size_mb = 4 }), "max_split >= 20")
assert(not pcall(alloc.model, { capacity = "1GiB", colour = 1 }), "unknown option")
assert(not pcall(alloc.model, { capacity = "1GiB", conf = "garbage_collection_threshold:0.5" }), "not modelled")
local m2 = alloc.model { capacity = "1GiB" }
assert(not pcall(m2.malloc, m2, 0), "0 bytes")
assert(not pcall(m2.malloc, m2, -5), "negative")
local blk = assert(m2:malloc(10))
assert(not pcall(a.free, a, blk), "another allocator's block")
m2:free(blk)
local okf, ferr = pcall(m2.free, m2, blk)
assert(not okf and ferr:find("double free"), ferr)
assert(not pcall(m2.summary, alloc.raw { capacity = "8MiB" }), "summary is caching-only")
eq(alloc.format_size(1024), "1024 bytes", "format_size")
eq(alloc.format_size(1048576), "1024.00 KiB", "format_size MiB edge")
eq(alloc.format_size(30 * MiB), "30.00 MiB", "format_size")
print("alloc: ok")
