-- Lesson 2.3: fragmentation and its cures. Everything runs on model devices (`alloc.model`,
-- `alloc.trace_replay`), so the numbers are the allocator's rules and the same on every machine.
local MiB = units.MiB

-- A training loop with variable sequence lengths: per step four activations of L x 12 MiB, and
-- one 20 MiB tensor that lives for four more steps (a logged output, a gradient bucket...).
local LENS = { 7, 3, 9, 5, 8, 2, 10, 4, 6, 9, 3, 7, 5, 10, 2, 8 }
-- the same steps with one longest batch moved to the front
local LONGEST_FIRST = { 10, 7, 3, 9, 5, 8, 2, 4, 6, 9, 3, 7, 5, 10, 2, 8 }
local function workload(empty_each_step, lens)
  local ev, id, kept = {}, 0, {}
  for _, L in ipairs(lens or LENS) do
    local acts = {}
    for j = 1, 4 do
      id = id + 1
      ev[#ev + 1] = { "a", id, L * 12 * MiB + j * 4096 }
      acts[j] = id
    end
    id = id + 1
    ev[#ev + 1] = { "a", id, 20 * MiB }
    kept[#kept + 1] = id
    for j = 1, 4 do ev[#ev + 1] = { "f", acts[j] } end
    if #kept > 4 then ev[#ev + 1] = { "f", table.remove(kept, 1) } end
    if empty_each_step then ev[#ev + 1] = { "e" } end
  end
  return ev
end

local function mib(n) return string.format("%.0f MiB", n / MiB) end

-- Published cudaMalloc times (lesson 2.1's sources): 50 us (4 KB-512 KB) to 432 us (400 MB).
local MALLOC_US_LO, MALLOC_US_HI = 50, 432

-- The conclusion under the cures table, computed from its rows (1 default, 3 empty_cache, 5
-- expandable): which setting reserved least, what emptying the cache bought and what it cost.
local function cures_verdict(T, res)
  local best = res[1]
  for _, r in ipairs(res) do if r.reserved < best.reserved then best = r end end
  local d, e, x = res[1], res[3], res[5]
  local extra = e.mallocs - d.mallocs
  local en = string.format("Lowest peak reserved: %s (%s). Emptying the cache every step: %s reserved and %d OOM(s) on 640 MiB against the default's %s and %d, bought with %d cudaMalloc calls against %d (and %d cudaFree calls, each waiting for the device): at the published %d-%d us per cudaMalloc (lesson 2.1), %.1f-%.0f ms more over these 16 steps on a real GPU. Expandable segments: %s reserved, %d OOM(s), %d cudaMalloc. Model device, SIMULATED.",
    best.name, mib(best.reserved), mib(e.reserved), e.ooms, mib(d.reserved), d.ooms, e.mallocs, d.mallocs, e.frees,
    MALLOC_US_LO, MALLOC_US_HI, extra * MALLOC_US_LO / 1e3, extra * MALLOC_US_HI / 1e3, mib(x.reserved), x.ooms, x.mallocs)
  local zh = string.format("已预留峰值最低的是：%s（%s）。每步清空缓存：已预留 %s，在 640 MiB 上 OOM %d 次；默认设置是 %s 和 %d 次。换来这些的代价是 %d 次 cudaMalloc（默认 %d 次），外加 %d 次 cudaFree（每次都要等设备）：按公开的每次 cudaMalloc %d–%d 微秒（第 2.1 节）计，真实 GPU 上这 16 步要多花 %.1f–%.0f 毫秒。可扩展段：已预留 %s，OOM %d 次，cudaMalloc %d 次。模型设备，模拟。",
    best.name, mib(best.reserved), mib(e.reserved), e.ooms, mib(d.reserved), d.ooms, e.mallocs, d.mallocs, e.frees,
    MALLOC_US_LO, MALLOC_US_HI, extra * MALLOC_US_LO / 1e3, extra * MALLOC_US_HI / 1e3, mib(x.reserved), x.ooms, x.mallocs)
  return T(en, zh)
end

return lesson {
  id = "2.3",
  chapter = 2,
  chapter_title = { en = "How VRAM is allocated", zh = "显存分配机制" },
  title = { en = "Fragmentation and its cures", zh = "碎片化及其对策" },

  text { en = [[
# Fragmentation and its cures

**Fragmentation** is memory that is free but not usable for the request at hand. Two kinds:

- **Internal**: inside a block, the bytes it holds beyond the request. Rounding up to 512 B (a
  1-byte tensor holds 512 B), and a request handed a whole cached block it does not fill: the large
  pool splits a block only when more than 1 MiB would remain, so a 1.5 MiB request that finds a
  cached 2 MiB block takes all of it (0.5 MiB wasted), while one cut from a fresh 20 MiB segment
  wastes nothing (lesson 2.4 shows its 0 B). The ledger counts it as *allocated − requested*.
- **External**: between blocks. Cached free blocks that are each too small, or sit in segments
  that still hold a live tensor, so they can neither serve a larger request nor go back to the
  driver: the 17 MiB beside a lone 3 MiB tensor in its 20 MiB segment is one. The ledger counts it
  as *reserved − allocated*; the largest free block says how bad it is.

## Order matters
Allocate eight 16 MiB tensors, free them, then allocate four 32 MiB tensors. Each 16 MiB tensor got
a 16 MiB segment of its own (10 MiB or more: own segment). A cached 16 MiB block cannot hold 32 MiB
and blocks never merge across segments, so the allocator reserves four **new** segments: 256 MiB
reserved for 128 MiB of tensors. The other way round, 32 MiB first, each cached 32 MiB block is
split into two 16 MiB blocks: 128 MiB reserved. Same tensors, half the memory.

## The cures
- **Allocation order.** Let the largest shapes come first: run the longest sequence (or the largest
  batch) in the first step, so the cache holds blocks big enough for every later step.
- **`torch.cuda.empty_cache()`** gives back every segment with nothing alive in it. It does not
  touch segments that hold even one live block, and every segment it frees costs a `cudaMalloc`
  again later.
- **`max_split_size_mb:N`** (`PYTORCH_CUDA_ALLOC_CONF`): blocks of N MiB or more are never split,
  and smaller requests never take them. Large cached blocks stay whole for large requests, at the
  price of more segments. PyTorch's docs: it "can reduce fragmentation and may allow some
  borderline workloads to complete without running out of memory".
- **`expandable_segments:True`**: one segment per pool (and stream) whose virtual range is reserved once and
  backed with physical pages on demand (CUDA's virtual memory management: `cuMemCreate`,
  `cuMemMap`). A request that fits no cached block maps more pages at the end, and pages freed in
  the middle can be unmapped and mapped again where they are needed. PyTorch's docs recommend it for
  jobs whose allocation sizes change often, such as a changing batch size.
]], zh = [[
# 碎片化及其对策

**碎片**指的是空着、却没法满足眼前这个请求的内存。分两种：

- **内部碎片**：在块的内部，即块里超出请求的那部分字节。取整到 512 B（1 字节的张量占 512 B），以及请求拿到一整个用不满的缓存块：大池只有在切完还剩 1 MiB 以上时才切分，所以 1.5 MiB 的请求若碰上一个缓存着的 2 MiB 块，就整块拿走（浪费 0.5 MiB），而从新的 20 MiB 段里切出来则一点不浪费（第 2.4 节显示的就是它的 0 B）。账本里记作*已分配 − 请求*。
- **外部碎片**：在块与块之间。缓存里的空闲块每个都太小，或者所在的段里还有存活的张量，于是它们既满足不了更大的请求，也还不回驱动：一个 3 MiB 的张量独占 20 MiB 的段时，旁边那 17 MiB 就是。账本里记作*已预留 − 已分配*；最大空闲块的大小说明情况有多糟。

## 顺序很重要
先分配八个 16 MiB 的张量，全部释放，再分配四个 32 MiB 的张量。每个 16 MiB 的张量都独占一个 16 MiB 的段（10 MiB 及以上就独占一段）。缓存里 16 MiB 的块装不下 32 MiB，而块从不跨段合并，所以分配器只好再申请四个**新**段：为 128 MiB 的张量预留了 256 MiB。反过来，先分配 32 MiB 的，缓存里每个 32 MiB 的块会被切成两个 16 MiB：只预留 128 MiB。同样的张量，显存省一半。

## 对策
- **分配顺序。** 让最大的形状先出现：第一步就跑最长的序列（或最大的 batch），缓存里就有足够大的块供之后每一步使用。
- **`torch.cuda.empty_cache()`** 归还所有没有存活块的段。只要段里还有一个存活的块，它就不动这个段；而且它释放的每个段，以后都要重新付一次 `cudaMalloc` 的代价。
- **`max_split_size_mb:N`**（`PYTORCH_CUDA_ALLOC_CONF`）：N MiB 及以上的块永远不切分，比它小的请求也不会去拿这些块。大的缓存块因此保持完整，留给大请求，代价是段更多。PyTorch 文档的说法是：它“可以减少碎片，可能让一些处于临界点的任务不再显存不足”。
- **`expandable_segments:True`**：每个池（每个流）只有一个段，它的虚拟地址范围一次性预留好，物理页按需映射（CUDA 的虚拟内存管理：`cuMemCreate`、`cuMemMap`）。缓存里没有合适的块时，就在末尾再映射几页；中间释放的页可以解除映射，再映射到需要的地方。PyTorch 文档推荐把它用在分配大小经常变化的任务上，比如 batch 大小会变的训练。
]] },

  experiment {
    id = "order",
    title = { en = "8 x 16 MiB then 4 x 32 MiB, and the other way round", zh = "先 8 × 16 MiB 再 4 × 32 MiB，以及反过来" },
    intro = { en = [[
Two allocators on 1 GiB model devices run the same tensors in opposite orders. The maps show each
allocator's segments at the end, on one scale: █ allocated, ░ cached, │ where a segment starts,
· never reserved.
]], zh = [[
两个分配器各自运行在 1 GiB 的模型设备上，以相反的顺序分配同样的张量。内存图以同一比例显示最后各自的段：█ 已分配，░ 缓存，│ 段的起点，· 从未预留。
]] },
    key = "ratio",
    panels = {
      { id = "ratio", kind = "bars", title = { en = "Reserved: 16 then 32 / 32 then 16", zh = "已预留：先 16 后 32 / 先 32 后 16" }, unit = "x" },
      { id = "bars", kind = "bars", title = { en = "Reserved at the end", zh = "最终已预留" }, unit = "MiB" },
      { id = "m1", kind = "map", title = { en = "16 MiB first, then 32 MiB", zh = "先 16 MiB，后 32 MiB" } },
      { id = "m2", kind = "map", title = { en = "32 MiB first, then 16 MiB", zh = "先 32 MiB，后 16 MiB" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local function play(first, n1, second, n2, panel, label)
        local a <close> = alloc.model { capacity = "1GiB" }
        local t = {}
        for i = 1, n1 do t[i] = assert(a:malloc(first * MiB)) end
        for i = 1, n1 do a:free(t[i]) end
        for i = 1, n2 do assert(a:malloc(second * MiB, second .. " MiB #" .. i)) end
        local blocks = a:map { free = false }
        local s = a:stats()
        ex:map(panel, blocks, s.reserved)
        ex:bar("bars", label, s.reserved / MiB, { style = "simulated" })
        ex:note(panel, T(string.format("%d segments, %s reserved, %s allocated", s.segments, mib(s.reserved), mib(s.allocated)),
                         string.format("%d 个段，已预留 %s，已分配 %s", s.segments, mib(s.reserved), mib(s.allocated))))
        ex:pause(1.5) -- one order, then the other
        return s
      end
      local s1 = play(16, 8, 32, 4, "m1", T("16 then 32", "先 16 后 32"))
      local s2 = play(32, 4, 16, 8, "m2", T("32 then 16", "先 32 后 16"))
      ex:bar("ratio", T("same tensors, reserved", "同样的张量，已预留"), s1.reserved / s2.reserved, { style = "simulated" })
      ex:note("bars", T(string.format("Same 128 MiB of live tensors: %s vs %s reserved (model device, SIMULATED).", mib(s1.reserved), mib(s2.reserved)),
                        string.format("存活的张量同样是 128 MiB：已预留 %s vs %s（模型设备，模拟）。", mib(s1.reserved), mib(s2.reserved))))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "empty",
    kind = "predict",
    prompt = { en = "The experiment below replays a training loop of 16 steps (sequence lengths 2 to 10; each step allocates four activations of L x 12 MiB and one 20 MiB tensor that lives four more steps) on a roomy 8 GiB model device; with the default settings the allocator makes 13 `cudaMalloc` calls. Predict: with `empty_cache()` after every step, how many does it make?",
               zh = "下面的实验在宽裕的 8 GiB 模型设备上回放一个 16 步的训练循环（序列长度 2 到 10；每一步分配四个 L × 12 MiB 的激活，外加一个多存活四步的 20 MiB 张量）；默认设置下分配器调用 13 次 `cudaMalloc`。预测：每一步之后都调用 `empty_cache()` 时，它会调用多少次？" },
    unit = "calls", tolerance = 0.25,
    measure = function()
      local r = assert(alloc.trace_replay(workload(true), { capacity = "8GiB" }))
      return r.stats.num_device_alloc, "model" -- a model device: the same figure on every machine
    end,
    hints = { { en = "After each step only the segments holding a live 20 MiB tensor survive; the four activations need new segments every step.", zh = "每一步之后，只有装着存活的 20 MiB 张量的段能留下；四个激活值每一步都要新段。" } },
    explain = { en = "Emptying the cache each step makes the allocator reserve the activations again every step: several times the default's cudaMalloc count, each one a slow, synchronising call on a real GPU.",
                zh = "每步都清空缓存，分配器每一步都得重新为激活值申请段：cudaMalloc 的次数是默认设置的好几倍，而在真实 GPU 上每一次都又慢又会同步。" },
  },

  experiment {
    id = "cures",
    key = "peak",
    title = { en = "One workload, five allocator settings", zh = "同一负载，五种分配器设置" },
    intro = { en = [[
A training loop of 16 steps with sequence lengths 2 to 10: each step allocates four activations of
L x 12 MiB and one 20 MiB tensor that lives four more steps. The same event list is replayed with
`alloc.trace_replay` under each setting, first on a roomy 8 GiB model device (how much does it
reserve?), then on a tight 640 MiB one (does it fit?). "Longest batch first" runs the same steps
with one length-10 step moved to the front.
]], zh = [[
一个 16 步的训练循环，序列长度在 2 到 10 之间变化：每一步分配四个 L × 12 MiB 的激活值，外加一个 20 MiB、会再存活四步的张量。同一份事件列表用 `alloc.trace_replay` 在每种设置下回放：先在宽裕的 8 GiB 模型设备上（它要预留多少？），再在紧张的 640 MiB 模型设备上（装得下吗？）。“最长的 batch 先跑”是把一个长度为 10 的步挪到最前面，其余不变。
]] },
    panels = {
      { id = "peak", kind = "bars", title = { en = "Peak reserved on 8 GiB", zh = "8 GiB 上的已预留峰值" }, unit = "MiB" },
      { id = "t", kind = "table", title = { en = "Replay results", zh = "回放结果" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local plain, emptying = workload(false), workload(true)
      local configs = {
        { T("default", "默认"), plain, {} },
        { T("longest batch first", "最长的 batch 先跑"), workload(false, LONGEST_FIRST), {} },
        { T("empty_cache() every step", "每步 empty_cache()"), emptying, {} },
        { "max_split_size_mb:64", plain, { max_split_size_mb = 64 } },
        { "expandable_segments", plain, { expandable_segments = true } },
      }
      ex:row("t", { T("setting", "设置"), T("peak allocated", "已分配峰值"), T("peak reserved (8 GiB)", "已预留峰值（8 GiB）"),
                    "cudaMalloc", T("OOMs on 640 MiB", "640 MiB 上的 OOM"), T("retries on 640 MiB", "640 MiB 上的重试") })
      local res = {}
      for k, c in ipairs(configs) do
        local o = c[3]
        o.capacity = "8GiB"
        local roomy = assert(alloc.trace_replay(c[2], o))
        o.capacity = "640MiB"
        local tight = assert(alloc.trace_replay(c[2], o))
        ex:bar("peak", c[1], roomy.stats.peak_reserved / MiB, { style = "simulated" })
        ex:row("t", { c[1], mib(roomy.stats.peak_allocated), mib(roomy.stats.peak_reserved), roomy.stats.num_device_alloc,
                      tight.ooms, tight.stats.num_alloc_retries })
        res[k] = { name = c[1], reserved = roomy.stats.peak_reserved, mallocs = roomy.stats.num_device_alloc,
                   frees = roomy.stats.num_device_free or 0, ooms = tight.ooms }
      end
      ex:note("t", T("cudaMalloc counts the segments (or expandable pages) taken from the device on 8 GiB. A retry is the allocator freeing all of its cached segments and trying once more before it reports an OOM; every segment it frees costs a cudaMalloc later.",
                     "cudaMalloc 一列是在 8 GiB 上向设备申请的段数（或可扩展段的页数）。重试是指分配器在报告 OOM 之前，先释放全部缓存段再试一次；每个被释放的段以后都要重新 cudaMalloc。"))
      ex:note("peak", cures_verdict(T, res))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Which cure when
Measure first: `memory_stats()` gives `reserved_bytes` and `allocated_bytes` (and
`inactive_split_bytes`, the cached bytes stuck in segments that are in use). If reserved is far
above allocated at the peak, fragmentation is your problem; if they are close, you simply need
more memory (lesson 1.5's remedies).

> [!pitfall] `empty_cache()` in the training loop: what it buys and what it costs
> It lowers what `nvidia-smi` shows, and in the table above it did more: with the cache emptied
> after every step, the long-lived 20 MiB tensors are cut from segments sized for that step instead
> of pinning large cached blocks, so the peak reserved fell and the tight device stopped running out.
> The price is in the cudaMalloc column: every step gives its segments back and reserves them again,
> and every `cudaFree` waits for the device (lesson 2.1); the experiment's note turns the extra
> calls into time with published figures. It helps when fragmentation comes from what the cache
> holds at the moment long-lived tensors are allocated; it never frees a segment that holds a live
> block. Try expandable segments first; if you empty the cache, do it where the cost is paid once
> (after evaluation, between epochs), not every step.

> [!experience] Expandable segments first
> For training with changing shapes (variable sequence length, dynamic batch), try
> `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` before anything else: PyTorch's own OOM
> message suggests it. Tune `max_split_size_mb` only with `memory_stats()` in hand, since it can
> cost memory as the table above shows.

> [!source] Sources
> PyTorch docs, "CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF"
> (`max_split_size_mb`, `expandable_segments`, `roundup_power2_divisions`,
> `garbage_collection_threshold`, which vramlab does not model); `CUDACachingAllocator.cpp`, note
> "Expandable Segments"; CUDA Driver API, "Virtual Memory Management".
]], zh = [[
## 什么情况用哪一招
先测量：`memory_stats()` 给出 `reserved_bytes` 和 `allocated_bytes`（还有 `inactive_split_bytes`，即卡在仍在使用的段里的缓存字节）。如果峰值时已预留远高于已分配，问题就是碎片；如果两者接近，那就是单纯显存不够（用第 1.5 节的办法）。

> [!pitfall] 在训练循环里调用 `empty_cache()`：得到什么，付出什么
> 它会让 `nvidia-smi` 的数字变小，而在上表里它做得更多：每步都清空缓存后，会存活很久的 20 MiB 张量是从按当步大小新申请的段里切出来的，不再钉住大的缓存块，所以已预留峰值下降了，紧张的设备也不再 OOM。代价在 cudaMalloc 那一列：每一步都把段还回去、再申请回来，而每次 `cudaFree` 都要等设备（第 2.1 节）；实验的注释用公开的数据把多出来的调用折算成时间。如果碎片来自长期存活的张量分配那一刻缓存里恰好有什么，它就有用；但段里只要有一个存活块，它就永远释放不了这个段。先试可扩展段；真要清空缓存，就放在只付一次代价的地方（评估之后、两个 epoch 之间），而不是每一步。

> [!experience] 先试可扩展段
> 训练时形状会变（变长序列、动态 batch）的话，第一个要试的就是 `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`：PyTorch 自己的 OOM 报错里也是这么建议的。`max_split_size_mb` 要拿着 `memory_stats()` 的数字来调，因为正如上表所示，它也可能更费显存。

> [!source] 出处
> PyTorch 文档“CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF”（`max_split_size_mb`、`expandable_segments`、`roundup_power2_divisions`，以及 vramlab 未建模的 `garbage_collection_threshold`）；`CUDACachingAllocator.cpp` 中的注释“Expandable Segments”；CUDA Driver API“Virtual Memory Management”。
]] },

  exercise {
    id = "reserved",
    kind = "number",
    prompt = { en = "Eight 16 MiB tensors are allocated and freed, then four 32 MiB tensors are allocated. How much does the allocator reserve in the end, in MiB?",
               zh = "先分配并释放八个 16 MiB 的张量，再分配四个 32 MiB 的张量。最后分配器一共预留了多少 MiB？" },
    answer = 256, unit = "MiB", tolerance = 0.01,
    hints = { { en = "Can a cached 16 MiB block, alone in its segment, hold a 32 MiB tensor? Do blocks merge across segments?", zh = "一个独占一段的 16 MiB 缓存块装得下 32 MiB 的张量吗？块会跨段合并吗？" } },
    explain = { en = "8 x 16 MiB segments stay cached (128 MiB) and 4 new 32 MiB segments are added (128 MiB): 256 MiB. In the opposite order: 128 MiB.",
                zh = "8 个 16 MiB 的段留在缓存里（128 MiB），再新增 4 个 32 MiB 的段（128 MiB）：共 256 MiB。顺序反过来只要 128 MiB。" },
  },

  exercise {
    id = "expandable",
    kind = "choice",
    prompt = { en = "Which setting lets memory freed in the middle of a segment serve a larger request later, by unmapping its pages and mapping them elsewhere?",
               zh = "哪个设置能让段中间释放出来的内存，通过解除页映射再映射到别处，满足之后更大的请求？" },
    choices = {
      { en = "max_split_size_mb", zh = "max_split_size_mb" },
      { en = "roundup_power2_divisions", zh = "roundup_power2_divisions" },
      { en = "expandable_segments:True", zh = "expandable_segments:True" },
      { en = "torch.cuda.empty_cache()", zh = "torch.cuda.empty_cache()" },
    },
    answer = 3,
    hints = { { en = "Which one uses CUDA's virtual memory management (cuMemMap)?", zh = "哪一个用到了 CUDA 的虚拟内存管理（cuMemMap）？" } },
    explain = { en = "Expandable segments map physical pages into one reserved virtual range on demand; pages of free blocks can be unmapped and mapped again at the end. max_split_size_mb only stops splitting; empty_cache frees whole free segments only.",
                zh = "可扩展段在一段预留好的虚拟地址范围里按需映射物理页；空闲块的页可以解除映射，再映射到末尾。max_split_size_mb 只是不切分大块；empty_cache 只释放完全空闲的整段。" },
  },

}
