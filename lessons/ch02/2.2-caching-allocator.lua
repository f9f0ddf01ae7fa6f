-- Lesson 2.2: PyTorch's caching allocator, rule by rule (c10/cuda/CUDACachingAllocator.cpp),
-- on vramlab's model of it (`alloc`, docs/allocator.md): rounding, the two pools, segment sizes,
-- best fit, splitting, and why reserved memory "only grows".
local MiB, KiB = units.MiB, units.KiB

local function mib(n) return string.format("%.1f MiB", n / MiB) end

return lesson {
  id = "2.2",
  chapter = 2,
  chapter_title = { en = "How VRAM is allocated", zh = "显存分配机制" },
  title = { en = "The caching allocator", zh = "缓存分配器" },
  requires = { "gpu" },

  text { en = [[
# The caching allocator

By default PyTorch never calls `cudaMalloc` for a tensor directly (with
`PYTORCH_NO_CUDA_MEMORY_CACHING=1` it does, once per tensor; with `backend:cudaMallocAsync` it uses
CUDA's pool of lesson 2.5). Its **caching allocator** (C++ class
`DeviceCachingAllocator` in `c10/cuda/CUDACachingAllocator.cpp`) asks the driver for large
**segments**, cuts tensors out of them as **blocks**, and when a tensor dies keeps its block for
the next one. Five rules decide where every byte goes; vramlab's `alloc` module follows them line
by line (the function names below are PyTorch's).

## 1. Rounding (`round_size`)
Every request is rounded up to a multiple of **512 bytes** (at least 512). A 1-byte tensor counts
512 bytes as *allocated*; the 1 byte is its *requested* size. The option
`roundup_power2_divisions` rounds larger requests more coarsely, to one of N steps between powers
of two, so that odd sizes land in fewer distinct block sizes.

## 2. Two pools (`get_pool`)
Blocks of at most **1 MiB** live in the **small pool**, everything else in the **large pool**. A
free block of one pool is never lent to the other.

## 3. Segment sizes (`get_allocation_size`)
When nothing in the cache fits, the allocator calls `cudaMalloc` for a new segment:

| rounded request | segment it gets |
|---|---|
| up to 1 MiB | 2 MiB, shared by many small blocks |
| 1 MiB to 10 MiB | 20 MiB, shared by several blocks |
| 10 MiB and more | its own, rounded up to 2 MiB |

## 4. Best fit, then split (`get_free_block`, `should_split`)
A request takes the **smallest** cached free block that is large enough. If that block is bigger,
it is split and the rest stays cached, when the rest is at least 512 B (small pool) or more than
1 MiB (large pool); otherwise the request receives the whole block.

## 5. Free, merge, keep (`free_block`, `try_merge_blocks`)
A freed block merges with free neighbours **in the same segment** and goes back to the cache.
The segment itself stays reserved. It returns to the driver through `empty_cache()`; when an
allocation would fail and the allocator frees every **completely free** segment before trying
once more; and, with the options of lesson 2.3 (`PYTORCH_CUDA_ALLOC_CONF`), when `max_split_size_mb` frees oversize blocks
(`release_available_cached_blocks`) or `garbage_collection_threshold` reclaims old cached blocks
(`garbage_collect_cached_blocks`).

> [!errata] "PyTorch caches the allocator"
> The lecture says PyTorch “默认会缓存显存分配器” (caches the memory allocator by default). What is
> cached are the **allocations**: freed blocks, inside segments the process keeps. And VRAM does
> not "only grow" everywhere: `memory_allocated()` falls at every `del`; it is
> `memory_reserved()` and what `nvidia-smi` shows that stay up, until `empty_cache()` or an
> allocation that would otherwise fail.
> Source: PyTorch `c10/cuda/CUDACachingAllocator.cpp` (`free_block` keeps the block cached; `release_cached_blocks`); PyTorch docs, "CUDA semantics: Memory management".
]], zh = [[
# 缓存分配器

默认情况下，PyTorch 从不直接为某个张量调用 `cudaMalloc`（设置 `PYTORCH_NO_CUDA_MEMORY_CACHING=1` 时才会每个张量调用一次；用 `backend:cudaMallocAsync` 时则改用第 2.5 节讲的 CUDA 内存池）。它的**缓存分配器**（C++ 类 `DeviceCachingAllocator`，位于 `c10/cuda/CUDACachingAllocator.cpp`）向驱动申请大块的**段**（segment），从段里切出一个个**块**（block）给张量用；张量销毁后，块留下来给下一个张量。决定每个字节去向的规则有五条；vramlab 的 `alloc` 模块逐行照搬了它们（下面括号里是 PyTorch 源码中的函数名）。

## 1. 取整（`round_size`）
每个请求向上取整到 **512 字节**的倍数（至少 512）。1 字节的张量按 512 字节计入*已分配*（allocated），那 1 字节是它的*请求大小*（requested）。选项 `roundup_power2_divisions` 对较大的请求取整得更粗：取到相邻两个 2 的幂之间 N 等分的某一档，让五花八门的尺寸落到更少的几种块大小上。

## 2. 两个池（`get_pool`）
不超过 **1 MiB** 的块属于**小池**（small pool），其余属于**大池**（large pool）。一个池里的空闲块绝不借给另一个池。

## 3. 段的大小（`get_allocation_size`）
缓存里没有合适的块时，分配器调用 `cudaMalloc` 申请一个新段：

| 取整后的请求 | 分到的段 |
|---|---|
| 不超过 1 MiB | 2 MiB，许多小块共用 |
| 1 MiB 到 10 MiB | 20 MiB，几个块共用 |
| 10 MiB 及以上 | 独占一个段，向上取整到 2 MiB |

## 4. 最佳适配，然后切分（`get_free_block`、`should_split`）
请求会拿缓存中**最小**的、装得下它的空闲块。如果这个块更大，就把它切开，剩下的部分留在缓存里：前提是剩余部分在小池中至少 512 B，在大池中大于 1 MiB；否则整个块都给这个请求。

## 5. 释放、合并、保留（`free_block`、`try_merge_blocks`）
释放的块会和**同一个段内**相邻的空闲块合并，然后回到缓存。段本身仍然保留着。它回到驱动的途径有：调用 `empty_cache()`；某次分配眼看要失败时，分配器先释放所有**完全空闲**的段，再重试一次；以及设置了第 2.3 节的选项时（`PYTORCH_CUDA_ALLOC_CONF`），`max_split_size_mb` 释放超大的块（`release_available_cached_blocks`），或 `garbage_collection_threshold` 回收久未使用的缓存块（`garbage_collect_cached_blocks`）。

> [!errata] “PyTorch 默认会缓存显存分配器”
> 讲义这句话不太准确：被缓存的是**分配出去的内存**，也就是释放后的块，它们所在的段仍被进程保留。显存也并非处处“只增不减”：每次 `del`，`memory_allocated()` 都会下降；一直不降的是 `memory_reserved()` 和 `nvidia-smi` 看到的数字，直到调用 `empty_cache()`，或者遇到一次不释放缓存就会失败的分配。
> 出处：PyTorch `c10/cuda/CUDACachingAllocator.cpp`（`free_block` 把块留在缓存里；`release_cached_blocks`）；PyTorch 文档“CUDA semantics：Memory management”。
]] },

  experiment {
    id = "rounding",
    title = { en = "From request to block to segment", zh = "从请求到块再到段" },
    intro = { en = [[
`alloc.round_size(n)` asks the model what a request of n bytes becomes: its block size, its pool,
and the segment a fresh allocator would reserve for it. The last column repeats the block size with
`roundup_power2_divisions:4`.
]], zh = [[
`alloc.round_size(n)` 问模型：一个 n 字节的请求会变成多大的块、进哪个池，以及一个全新的分配器要为它预留多大的段。最后一列是加上 `roundup_power2_divisions:4` 之后的块大小。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Request -> block -> segment", zh = "请求 → 块 → 段" } },
      { id = "waste", kind = "bars", title = { en = "Reserved per requested byte (fresh allocator)", zh = "每请求一字节所预留的字节（全新分配器）" }, unit = "x" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("request", "请求"), T("block", "块"), T("pool", "池"), T("segment", "段"), T("block, power2 /4", "块，2 的幂 /4") })
      local reqs = {
        { 1, "1 B" }, { 1000, "1000 B" }, { 100 * KiB, "100 KiB" }, { MiB, "1 MiB" }, { MiB + 1, "1 MiB + 1 B" },
        { 3 * MiB, "3 MiB" }, { 10 * MiB, "10 MiB" }, { 11 * MiB, "11 MiB" }, { 12 * MiB + 1, "12 MiB + 1 B" },
        { 100 * MiB + 1, "100 MiB + 1 B" },
      }
      for _, r in ipairs(reqs) do
        local n, label = r[1], r[2]
        local blk, pool, seg = alloc.round_size(n)
        local blk4 = alloc.round_size(n, { roundup_power2_divisions = 4 })
        ex:row("t", { label, alloc.format_size(blk), pool, alloc.format_size(seg), alloc.format_size(blk4) })
        if n == MiB + 1 or n == 3 * MiB or n == 12 * MiB + 1 or n == 100 * MiB + 1 then
          ex:bar("waste", label, seg / n, { style = "theoretical", unit = "x" })
        end
      end
      ex:note("t", T("Sizes in PyTorch's format_size: binary units (1 KiB = 1024 B); up to 1 MiB it prints KiB, so 1 MiB shows as 1024.00 KiB.",
                     "大小采用 PyTorch 的 format_size 格式：二进制单位（1 KiB = 1024 B）；不超过 1 MiB 时用 KiB 表示，所以 1 MiB 显示为 1024.00 KiB。"))
      ex:note("waste", T("A lone 3 MiB tensor reserves a 20 MiB segment (6.7x). The rest is not lost: the next 1-10 MiB tensors are cut from it.",
                         "单独一个 3 MiB 的张量会预留一个 20 MiB 的段（6.7 倍）。剩下的并没有浪费：后面 1–10 MiB 的张量都会从这里切。"))
      ex:status(T("done", "完成"))
    end,
  },

  experiment {
    id = "grows",
    key = "c",
    title = { en = "Variable batches: allocated goes up and down, reserved only up", zh = "变长 batch：已分配有涨有落，已预留只涨不落" },
    intro = { en = [[
A caching allocator on this machine's backend (segments are real `cudaMalloc` calls on a GPU)
runs eight training-like steps whose batches have different sequence lengths. Each step
allocates six activation tensors of L x 5 MiB and three 100 KiB tensors, then frees them all
(backward done). After the loop, `empty_cache()`.
]], zh = [[
在本机后端上运行一个缓存分配器（有 GPU 时，每个段都是真实的 `cudaMalloc`），模拟八个训练步，各步 batch 的序列长度不同。每一步分配六个 L × 5 MiB 的激活张量和三个 100 KiB 的张量，然后全部释放（反向传播结束）。循环结束后调用 `empty_cache()`。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "allocated vs reserved", zh = "已分配 vs 已预留" }, x = "event", y = "MiB" },
      { id = "m", kind = "map", title = { en = "Segments after the loop (all cached)", zh = "循环结束后的段（全部在缓存中）" } },
      { id = "t", kind = "table", title = { en = "Counters", zh = "计数" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local a <close> = alloc.caching {}
      local lens = { 4, 8, 3, 8, 12, 5, 12, 7 }
      local ev = 0
      local function point()
        local s = a:stats()
        ev = ev + 1
        ex:point("c", T("allocated", "已分配"), ev, s.allocated / MiB)
        ex:point("c", T("reserved", "已预留"), ev, s.reserved / MiB)
        ex:pause(0.4) -- the curves grow event by event in the tutor
        return s
      end
      point()
      for step, L in ipairs(lens) do
        local live = {}
        for i = 1, 6 do live[#live + 1] = assert(a:malloc(L * 5 * MiB + i * 1000, "act" .. step)) end
        for _ = 1, 3 do live[#live + 1] = assert(a:malloc(100 * KiB)) end
        point()
        for _, b in ipairs(live) do a:free(b) end
        point()
      end
      local s = a:stats()
      local blocks, total = a:map {}
      ex:map("m", blocks, total)
      a:empty_cache()
      local e = point()
      ex:row("t", { T("counter", "计数"), T("value", "数值") })
      ex:row("t", { T("peak allocated", "已分配峰值"), mib(s.peak_allocated) })
      ex:row("t", { T("peak reserved", "已预留峰值"), mib(s.peak_reserved) })
      ex:row("t", { T("reserved after the loop", "循环结束时的已预留"), mib(s.reserved) })
      ex:row("t", { T("cudaMalloc calls", "cudaMalloc 次数"), tostring(s.num_device_alloc) })
      ex:row("t", { T("tensors allocated", "分配的张量数"), tostring(s.alloc_count) })
      ex:row("t", { T("reserved after empty_cache()", "empty_cache() 之后的已预留"), mib(e.reserved) })
      ex:note("c", T(string.format("Allocated returns to 0 after every step; reserved climbs whenever a longer batch needs a bigger block than any cached one, and stays at %s until empty_cache().", mib(s.reserved)),
                     string.format("每一步结束后已分配都回到 0；每当更长的 batch 需要比缓存里任何块都大的块时，已预留就往上跳一级，并一直停在 %s，直到 empty_cache()。", mib(s.reserved))))
      ex:note("t", T(string.format("%d tensors, %d cudaMalloc calls: the cache served the rest.", s.alloc_count, s.num_device_alloc),
                     string.format("%d 个张量，只调用了 %d 次 cudaMalloc：其余都由缓存供给。", s.alloc_count, s.num_device_alloc)))
      if s.simulated then ex:note("m", T("SIMULATED backend: segments are counted against the profile's capacity.", "模拟后端：段按配置中的容量记账。")) end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the curve
Reserved moves in steps and only upwards during the loop: a step with a longer sequence needs
larger blocks than the cache holds, so the allocator reserves new segments; a shorter step reuses
(and splits) cached blocks. The peak of **reserved**, not of allocated, is what must fit on the
card, and what `nvidia-smi` reports (plus the context).

> [!errata] `memory_summary()` before training shows the weights, and never layers
> The lecturer's habit: "before training I look at `torch.cuda.memory_summary()` to see which
> layers are eating memory". Before the first step the summary shows what `model.cuda()` allocated
> (the weights and buffers: 97.49 MiB of parameters for ResNet-50, lesson 1.2, about 97.69 MiB with
> BatchNorm's running statistics), not the gradients, the optimizer
> state (created at the first `step()`) or the activations, which do not exist yet. And it never
> names layers: it counts bytes per pool (the table of `a:summary()`). To see which
> tensor took what, record a history and look at a snapshot:
> `torch.cuda.memory._record_memory_history()`, run a step, then
> `torch.cuda.memory._dump_snapshot("s.pickle")` and open it at pytorch.org/memory_viz (or convert
> it for vramlab with `docs/snapshot_to_trace.py`).
> Source: PyTorch docs, `torch.cuda.memory_summary` and "Understanding CUDA Memory Usage"; `torch/optim/adam.py` (state created at the first `step()`); lesson 1.2's replay (`vram.resnet50`).

> [!source] Sources
> PyTorch `c10/cuda/CUDACachingAllocator.cpp` (`round_size`, `get_pool`, `get_allocation_size`,
> `get_free_block`, `should_split`, `free_block`, `release_cached_blocks`); PyTorch docs, "CUDA
> semantics → Memory management"; `torch/cuda/memory.py` (`memory_stats`, `memory_summary`). Every
> rule with its line of reasoning: vramlab's `docs/allocator.md`.
]], zh = [[
## 怎么读这条曲线
循环过程中，已预留是一级一级往上走的，从不回落：序列更长的那一步需要比缓存里更大的块，分配器只好申请新段；更短的那一步则复用（并切分）缓存里的块。必须能装进显卡的，是**已预留**的峰值，而不是已分配的峰值；`nvidia-smi` 显示的也是它（再加上上下文）。

> [!errata] 训练前的 `memory_summary()` 只看得到权重，也从不列出层
> 讲师的个人经验是“训练前先用 `torch.cuda.memory_summary()` 看一眼，提前发现哪些层在‘偷吃’显存”。第一步之前，这张表里只有 `model.cuda()` 分配的东西（权重和 buffer：ResNet-50 的参数是 97.49 MiB，见第 1.2 节，加上 BatchNorm 的滑动统计量约 97.69 MiB），还没有梯度、优化器状态（第一次 `step()` 时才创建）和激活值；而且这张表从来不列出层，它只按池统计字节数（就是 `a:summary()` 那张表）。想知道哪个张量占了多少，应该记录分配历史、看快照：先调用 `torch.cuda.memory._record_memory_history()`，跑一步，再 `torch.cuda.memory._dump_snapshot("s.pickle")`，然后在 pytorch.org/memory_viz 打开（也可以用 `docs/snapshot_to_trace.py` 转换后交给 vramlab 回放）。
> 出处：PyTorch 文档 `torch.cuda.memory_summary` 与“Understanding CUDA Memory Usage”；`torch/optim/adam.py`（状态在第一次 `step()` 时创建）；第 1.2 节的重放（`vram.resnet50`）。

> [!source] 出处
> PyTorch `c10/cuda/CUDACachingAllocator.cpp`（`round_size`、`get_pool`、`get_allocation_size`、`get_free_block`、`should_split`、`free_block`、`release_cached_blocks`）；PyTorch 文档“CUDA semantics → Memory management”；`torch/cuda/memory.py`（`memory_stats`、`memory_summary`）。每条规则及其依据见 vramlab 的 `docs/allocator.md`。
]] },

  exercise {
    id = "round",
    kind = "number",
    prompt = { en = "A tensor of 1,000 bytes: how many bytes does it add to `memory_allocated()`?",
               zh = "一个 1,000 字节的张量，会让 `memory_allocated()` 增加多少字节？" },
    answer = 1024, unit = "B", tolerance = 0.001,
    mistakes = {
      { value = 1000, say = { en = "1000 B is the request; the allocator rounds every size up to a multiple of 512 B.", zh = "1000 B 是申请的大小；分配器会把每个大小向上取整到 512 B 的倍数。" } },
      { value = 2 * 2^20, say = { en = "2 MiB is the small segment reserved, not the block the tensor gets.", zh = "2 MiB 是保留的小段，不是张量拿到的块。" } },
    },
    hints = { { en = "Round up to the next multiple of 512.", zh = "向上取整到 512 的下一个倍数。" } },
    explain = { en = "ceil(1000 / 512) x 512 = 1024 B. The 24 B difference is rounding waste (allocated - requested); reserved grows by a whole 2 MiB small segment if none exists yet.",
                zh = "ceil(1000 / 512) × 512 = 1024 B。多出的 24 B 是取整浪费（已分配 − 请求）；如果还没有小池段，已预留会一下子增加整整一个 2 MiB 的段。" },
  },

  exercise {
    id = "segment",
    kind = "choice",
    prompt = { en = "On a fresh allocator you create one 3 MiB tensor. By how much does `memory_reserved()` grow?",
               zh = "在一个全新的分配器上创建一个 3 MiB 的张量。`memory_reserved()` 会增加多少？" },
    choices = {
      { en = "3 MiB", zh = "3 MiB" },
      { en = "4 MiB (rounded up to 2 MiB)", zh = "4 MiB（向上取整到 2 MiB）" },
      { en = "20 MiB", zh = "20 MiB" },
      { en = "2 MiB", zh = "2 MiB" },
    },
    answer = 3,
    hints = { { en = "Which row of the segment-size table does a 3 MiB request fall in?", zh = "3 MiB 的请求落在段大小表的哪一行？" } },
    explain = { en = "Requests between 1 MiB and 10 MiB share 20 MiB segments (kLargeBuffer). Only from 10 MiB does a request get its own segment rounded to 2 MiB.",
                zh = "1 MiB 到 10 MiB 之间的请求共用 20 MiB 的段（kLargeBuffer）。只有 10 MiB 及以上的请求才会独占一个按 2 MiB 取整的段。" },
  },

  exercise {
    id = "code",
    kind = "code",
    prompt = { en = [[
Write `block_size(n)`: the number of bytes PyTorch's caching allocator counts as allocated for a
request of `n` bytes (no `roundup_power2_divisions`). It is checked against the allocator model on
sizes from 1 B to 100 MiB.
]], zh = [[
写一个函数 `block_size(n)`：对于 `n` 字节的请求，PyTorch 缓存分配器计入已分配的字节数（不考虑 `roundup_power2_divisions`）。会在 1 B 到 100 MiB 的各种大小上和分配器模型比对。
]] },
    entry = "block_size",
    starter = "function block_size(n)\n  return n\nend\n",
    check = function(fn)
      for _, n in ipairs { 1, 511, 512, 513, 1000, 4096, 100 * 1024 + 1, 1048576, 1048577, 5000000, 104857601 } do
        local want = alloc.round_size(n)
        local ok, got = pcall(fn, n)
        if not ok then return false, { en = "error for n = " .. n .. ": " .. tostring(got), zh = "n = " .. n .. " 时出错：" .. tostring(got) } end
        if got ~= want then
          return false, { en = string.format("block_size(%d) returned %s; the allocator makes %d", n, tostring(got), want),
                          zh = string.format("block_size(%d) 返回 %s；分配器给出的是 %d", n, tostring(got), want) }
        end
      end
      return true
    end,
    hints = { { en = "At least 512, and a multiple of 512: math.max(512, ...) with an integer ceiling division.", zh = "至少 512，且是 512 的倍数：math.max(512, ...) 加上整数的向上取整除法。" } },
    explain = { en = "function block_size(n) return math.max(512, (n + 511) // 512 * 512) end -- round_size in CUDACachingAllocator.cpp.",
                zh = "function block_size(n) return math.max(512, (n + 511) // 512 * 512) end —— 即 CUDACachingAllocator.cpp 中的 round_size。" },
  },
}
