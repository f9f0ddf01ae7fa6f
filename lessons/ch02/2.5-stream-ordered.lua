-- Lesson 2.5: stream-ordered allocation (cudaMallocAsync / cudaFreeAsync, memory pools, the
-- release threshold). vramlab runs it on a MODEL of the pool (`alloc.async_pool`,
-- gpu/alloc/gpu_mempool.c): every figure here is SIMULATED, on any backend, and says so.
local MiB, GiB = units.MiB, units.GiB

local function mib(n) return string.format("%.0f MiB", n / MiB) end

return lesson {
  id = "2.5",
  chapter = 2,
  chapter_title = { en = "How VRAM is allocated", zh = "显存分配机制" },
  title = { en = "Stream-ordered allocation", zh = "流有序内存分配" },

  text { en = [[
# Stream-ordered allocation

PyTorch's caching allocator (lessons 2.2-2.4) is one answer to "cudaMalloc is slow". Since CUDA
11.2 the driver offers its own: **`cudaMallocAsync(&p, n, stream)`** and
**`cudaFreeAsync(p, stream)`**. Both are operations *in a stream*: the memory is usable by work
queued after the allocation in that stream, and returns to a **memory pool** (`cudaMemPool_t`;
each device has a default one) at the point of the stream where the free was queued. No device-wide
synchronisation, and the pool keeps memory for reuse, like a caching allocator built into the driver.
PyTorch can use it instead of its own: `PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync`.

## Reuse follows stream order
- A block freed in stream s can be reused **at once by the next allocation in s**: stream order
  guarantees the old work is done before the new work starts.
- Another stream may reuse it when it **depends on the free** (it waited on an event recorded
  after the free: `cudaMemPoolReuseFollowEventDependencies`), or when the free has **already
  completed** (`cudaMemPoolReuseAllowOpportunistic`), or by letting the driver **insert a
  dependency** between the streams (`cudaMemPoolReuseAllowInternalDependencies`, which can
  serialise work you meant to overlap). All three are on by default.

## The release threshold
How much the pool keeps is set by **`cudaMemPoolAttrReleaseThreshold`**: "Amount of reserved
memory in bytes to hold onto before trying to release memory back to the OS. When more than the
release threshold bytes of memory are held by the memory pool, the allocator will try to release
memory back to the OS on the next call to stream, event or context synchronize. (default 0)"
(CUDA Runtime API, `cudaMemPoolSetAttribute`).

Default 0 means: **at every synchronisation the pool gives everything unused back**, and the next
`cudaMallocAsync` maps memory again. A loop that synchronises each iteration pays for fresh
physical memory every time. The fix is one line:

```
uint64_t keep = UINT64_MAX;   // or a budget in bytes
cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
```

`cudaMemPoolTrimTo(pool, bytes)` gives memory back explicitly, and the attributes
`cudaMemPoolAttrReservedMemCurrent`/`High` and `UsedMemCurrent`/`High` are the pool's
`memory_reserved()` and `memory_allocated()`.

> [!note] What is simulated here
> vramlab's CUDA backend does not call `cudaMallocAsync`; the experiments run `alloc.async_pool`,
> a model that follows the documented rules above. What the documentation leaves open is an
> assumption of the model, stated in `docs/allocator.md`: physical memory is mapped in 2 MiB
> chunks, allocations are 256-byte aligned, best fit among reusable blocks, and whole idle chunks
> are released largest first.
]], zh = [[
# 流有序内存分配

PyTorch 的缓存分配器（第 2.2–2.4 节）是对“cudaMalloc 太慢”的一种回答。从 CUDA 11.2 起，驱动自己也给出了答案：**`cudaMallocAsync(&p, n, stream)`** 和 **`cudaFreeAsync(p, stream)`**。两者都是*流里的*操作：分配出来的内存，可以被这个流里排在分配之后的工作使用；释放则在流中排到的那个位置，把内存还给**内存池**（`cudaMemPool_t`；每个设备都有一个默认池）。不需要整卡同步，池还会把内存留着复用，相当于把缓存分配器做进了驱动。PyTorch 也可以用它来替代自己的分配器：`PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync`。

## 复用遵循流的顺序
- 在流 s 中释放的块，**s 中的下一次分配可以立即复用**：流的顺序保证旧工作先做完，新工作才开始。
- 另一个流要复用它，有三种途径：它**依赖于这次释放**（等待过一个在释放之后记录的事件：`cudaMemPoolReuseFollowEventDependencies`）；这次释放**已经完成**（`cudaMemPoolReuseAllowOpportunistic`）；或者让驱动在两个流之间**插入依赖**（`cudaMemPoolReuseAllowInternalDependencies`，这可能把你本想并行的工作串行化）。三者默认都是打开的。

## 释放阈值
池留多少内存，由 **`cudaMemPoolAttrReleaseThreshold`** 决定：“池在尝试把内存还给操作系统之前所保留的内存字节数。当内存池持有的内存超过释放阈值时，分配器会在下一次流、事件或上下文同步时，尝试把内存还给操作系统。（默认 0）”（CUDA Runtime API，`cudaMemPoolSetAttribute`）。

默认值 0 的意思是：**每次同步，池都把用不着的内存全部还回去**，下一次 `cudaMallocAsync` 再重新映射。一个每轮迭代都同步的循环，每次都要为新的物理内存买单。解决办法只要一行：

```
uint64_t keep = UINT64_MAX;   // 或者一个以字节计的预算
cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
```

`cudaMemPoolTrimTo(pool, bytes)` 可以显式归还内存；属性 `cudaMemPoolAttrReservedMemCurrent`/`High` 和 `UsedMemCurrent`/`High` 相当于池的 `memory_reserved()` 和 `memory_allocated()`。

> [!note] 这里哪些是模拟的
> vramlab 的 CUDA 后端并不调用 `cudaMallocAsync`；实验运行的是 `alloc.async_pool`，一个按上述文档规则建立的模型。文档没有规定的细节是模型的假设，写在 `docs/allocator.md` 里：物理内存按 2 MiB 的块映射，分配按 256 字节对齐，在可复用的块中做最佳适配，空闲的整块按从大到小的顺序释放。
]] },

  experiment {
    id = "threshold",
    title = { en = "Release threshold: 0, 256 MiB, UINT64_MAX", zh = "释放阈值：0、256 MiB、UINT64_MAX" },
    intro = { en = [[
Ten iterations on stream 1: allocate 192 MiB of activations and a 64 MiB workspace, free them,
synchronise. Three pools differ only in the release threshold. Counted: how often the pool had to
map physical memory from the device, and what it holds at the end. MODEL (SIMULATED).
]], zh = [[
在流 1 上迭代十次：分配 192 MiB 的激活值和 64 MiB 的工作区，释放，同步。三个池只有释放阈值不同。统计：池向设备映射物理内存的次数，以及最后还持有多少内存。模型（模拟）。
]] },
    panels = {
      { id = "maps", kind = "bars", title = { en = "Physical maps in 10 iterations", zh = "10 次迭代中的物理映射次数" }, unit = "maps" },
      { id = "t", kind = "table", title = { en = "Pool statistics", zh = "池的统计" } },
      { id = "c", kind = "curve", title = { en = "Reserved after each sync", zh = "每次同步后的已预留" }, x = "iteration", y = "MiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { "release_threshold", T("maps", "映射"), T("reused", "复用"), T("peak reserved", "已预留峰值"), T("reserved at the end", "最终已预留") })
      for _, th in ipairs { { 0, "0" }, { 256 * MiB, "256 MiB" }, { "max", "UINT64_MAX" } } do
        local p <close> = alloc.async_pool { capacity = "24GiB", release_threshold = th[1] }
        for it = 1, 10 do
          local act = assert(p:malloc(192 * MiB, 1))
          local ws = assert(p:malloc(64 * MiB, 1))
          p:free(ws, 1)
          p:free(act, 1)
          p:synchronize(1)
          ex:point("c", th[2], it, p:stats().reserved / MiB, { style = "simulated" })
        end
        local s = p:stats()
        ex:bar("maps", th[2], s.chunk_maps, { style = "simulated" })
        ex:row("t", { th[2], s.chunk_maps, s.reused, mib(s.peak_reserved), mib(s.reserved) })
        ex:pause(1.2) -- one threshold at a time in the tutor
      end
      ex:note("maps", T("Threshold 0: every iteration maps its two blocks' memory again. 256 MiB: the pool keeps exactly what one iteration needs, so only the first iteration maps. UINT64_MAX: the same here, and it would keep any peak. MODEL, SIMULATED.",
                        "阈值 0：每轮迭代都要为两个块重新映射内存。256 MiB：池正好留住一轮所需，所以只有第一轮需要映射。UINT64_MAX：这里效果相同，而且无论峰值多高都会留住。模型，模拟。"))
      ex:status(T("done", "完成"))
    end,
  },

  experiment {
    id = "streams",
    title = { en = "Reuse across streams", zh = "跨流复用" },
    intro = { en = [[
Stream 1 frees a 64 MiB block; stream 2 then asks for 64 MiB. Four pools, four policies: no
cross-stream reuse without a dependency; an event dependency (`cudaStreamWaitEvent`); a
synchronisation first (the free has completed); and the defaults, where the driver may insert a
dependency. MODEL (SIMULATED).
]], zh = [[
流 1 释放一个 64 MiB 的块，随后流 2 申请 64 MiB。四个池，四种情形：没有依赖就不跨流复用；有事件依赖（`cudaStreamWaitEvent`）；先同步（释放已完成）；以及默认设置，驱动可以自己插入依赖。模型（模拟）。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Does stream 2 reuse stream 1's free?", zh = "流 2 能复用流 1 释放的块吗？" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("case", "情形"), T("reused", "复用"), T("reserved", "已预留"), T("streams serialised", "流被串行化") })
      local cases = {
        { T("no dependency, internal deps off", "无依赖，关闭内部依赖"), { reuse_allow_internal_dependencies = false }, nil },
        { T("stream 2 waits on an event after the free", "流 2 等待释放之后的事件"), { reuse_allow_internal_dependencies = false }, "wait" },
        { T("synchronise, then allocate", "先同步，再分配"), { reuse_allow_internal_dependencies = false }, "sync" },
        { T("defaults (driver may insert a dependency)", "默认设置（驱动可插入依赖）"), {}, nil },
      }
      for _, c in ipairs(cases) do
        local o = c[2]
        o.capacity, o.release_threshold = "24GiB", "max"
        local p <close> = alloc.async_pool(o)
        local b = assert(p:malloc(64 * MiB, 1))
        p:free(b, 1)
        if c[3] == "wait" then p:wait(2, 1) elseif c[3] == "sync" then p:synchronize() end
        assert(p:malloc(64 * MiB, 2))
        local s = p:stats()
        ex:row("t", { c[1], s.reused > 0 and T("yes", "是") or T("no: new memory", "否：新内存"), mib(s.reserved),
                      s.internal_deps > 0 and T("yes", "是") or T("no", "否") })
      end
      ex:note("t", T("Reuse without any dependency would be a race: stream 2 could write the block while stream 1's kernels still read it. The pool therefore reuses only what stream order, an event, a completed free or an inserted dependency makes safe. MODEL, SIMULATED.",
                     "没有任何依赖的复用就是数据竞争：流 1 的核函数可能还在读这个块，流 2 就开始写了。所以池只复用那些由流的顺序、事件、已完成的释放或插入的依赖保证安全的块。模型，模拟。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Caching allocator or stream-ordered pool?
Both cache memory to avoid `cudaMalloc`. PyTorch's native allocator keeps blocks per stream and
gives them back only on `empty_cache()` or an allocation that would fail; the driver's pool is
shared by everything in the process that uses it (libraries included), can be shared between
processes (IPC pools), and gives memory back at synchronisation above its threshold. Neither
removes fragmentation; both are measured the same way: reserved vs used.

> [!pitfall] The default threshold of 0
> Code that switches to `cudaMallocAsync` and synchronises every iteration often gets *slower*,
> because every iteration maps fresh memory. Set the release threshold on the device's default
> pool (`cudaDeviceGetDefaultMemPool`) once at start-up. PyTorch's `backend:cudaMallocAsync` does
> this for you: it sets the default pool's threshold to `UINT64_MAX` when it first allocates on a
> device (`c10/cuda/CUDAMallocAsyncAllocator.cpp`, `lazy_init_device`).

> [!source] Sources
> CUDA C++ Programming Guide, "Stream Ordered Memory Allocator" (reuse policies, physical page
> caching behavior, `cudaMemPoolTrimTo`); CUDA Runtime API, `cudaMemPoolSetAttribute` (the
> threshold's definition, quoted above); NVIDIA Technical Blog, "Using the NVIDIA CUDA
> Stream-Ordered Memory Allocator" parts 1 and 2 (2021); PyTorch docs, "CUDA semantics → Using
> custom memory allocators for CUDA" (`backend:cudaMallocAsync`) and
> `c10/cuda/CUDAMallocAsyncAllocator.cpp` (`lazy_init_device`: threshold `UINT64_MAX`).
]], zh = [[
## 缓存分配器还是流有序内存池？
两者都靠缓存内存来避开 `cudaMalloc`。PyTorch 自带的分配器按流保存块，只有在 `empty_cache()` 或者某次分配眼看要失败时才归还；驱动的内存池则由进程里所有用它的代码共享（包括各种库），还能在进程之间共享（IPC 池），并且在同步时把超出阈值的部分还回去。两者都消除不了碎片；衡量方法也一样：已预留 vs 已使用。

> [!pitfall] 默认阈值 0
> 把代码改成 `cudaMallocAsync`、每轮迭代都同步，结果常常反而*更慢*，因为每轮都要重新映射内存。应该在启动时就给设备的默认池（`cudaDeviceGetDefaultMemPool`）设好释放阈值。PyTorch 的 `backend:cudaMallocAsync` 已经替你做了：它第一次在某个设备上分配时就把默认池的阈值设为 `UINT64_MAX`（`c10/cuda/CUDAMallocAsyncAllocator.cpp`，`lazy_init_device`）。

> [!source] 出处
> CUDA C++ Programming Guide，“Stream Ordered Memory Allocator”（复用策略、物理页缓存行为、`cudaMemPoolTrimTo`）；CUDA Runtime API，`cudaMemPoolSetAttribute`（上文引用的阈值定义）；NVIDIA 技术博客“Using the NVIDIA CUDA Stream-Ordered Memory Allocator”第 1、2 部分（2021）；PyTorch 文档“CUDA semantics → Using custom memory allocators for CUDA”（`backend:cudaMallocAsync`）以及 `c10/cuda/CUDAMallocAsyncAllocator.cpp`（`lazy_init_device`：阈值设为 `UINT64_MAX`）。
]] },

  exercise {
    id = "default",
    kind = "choice",
    prompt = { en = "With the default release threshold, what happens to a pool's unused memory at `cudaStreamSynchronize`?",
               zh = "在默认的释放阈值下，`cudaStreamSynchronize` 时池里用不着的内存会怎样？" },
    choices = {
      { en = "Nothing: the pool keeps it until the process exits", zh = "什么也不发生：池一直留着，直到进程退出" },
      { en = "The pool tries to release it all back to the OS (threshold 0)", zh = "池会尝试把它全部还给操作系统（阈值为 0）" },
      { en = "It is moved to host memory", zh = "它被挪到主机内存里" },
      { en = "It is zeroed but kept", zh = "被清零，但仍然保留" },
    },
    answer = 2,
    hints = { { en = "Read the quoted definition: what is the default value, and when does the pool act?", zh = "读一下引用的定义：默认值是多少？池在什么时候动手？" } },
    explain = { en = "The default threshold is 0 bytes: above it (always, when anything is unused) the pool tries to release memory at the next stream, event or context synchronisation.",
                zh = "默认阈值是 0 字节：只要有用不着的内存就超过了阈值，池会在下一次流、事件或上下文同步时尝试把它还回去。" },
  },

  exercise {
    id = "maps",
    kind = "number",
    prompt = { en = "A loop of 100 iterations allocates and frees 1 GiB with `cudaMallocAsync` on one stream and synchronises at the end of each iteration. With the default threshold, how many times does the pool map 1 GiB of physical memory?",
               zh = "一个 100 次的循环，每次在同一个流上用 `cudaMallocAsync` 分配并释放 1 GiB，每轮结束时同步。默认阈值下，池一共映射了多少次 1 GiB 的物理内存？" },
    answer = 100, unit = "maps", tolerance = 0.01,
    hints = { { en = "What does the pool hold after each synchronisation with threshold 0?", zh = "阈值为 0 时，每次同步之后池里还剩多少内存？" } },
    explain = { en = "Every synchronisation releases the idle 1 GiB, so every iteration maps it again: 100 times. With the threshold at UINT64_MAX (or 1 GiB), once.",
                zh = "每次同步都把空闲的 1 GiB 还回去，所以每轮迭代都要重新映射：100 次。把阈值设为 UINT64_MAX（或 1 GiB），只需一次。" },
  },

  exercise {
    id = "keep",
    kind = "code",
    prompt = { en = [[
Write `keep_memory(pool)` so that the pool never gives memory back at synchronisation (the
`cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX)` of the model). It is
checked by running the threshold experiment's loop on a fresh `alloc.async_pool`: after your call,
ten iterations must map memory only once.
]], zh = [[
写一个函数 `keep_memory(pool)`，让池在同步时永不归还内存（相当于模型里的 `cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, UINT64_MAX)`）。检查方法：在一个新的 `alloc.async_pool` 上调用你的函数，再运行阈值实验里的循环，十轮迭代只能映射一次内存。
]] },
    entry = "keep_memory",
    starter = "function keep_memory(pool)\n  -- pool:set_release_threshold(...)\nend\n",
    check = function(fn)
      local p <close> = alloc.async_pool { capacity = "4GiB" }
      local ok, err = pcall(fn, p)
      if not ok then return false, { en = "your function raised: " .. tostring(err), zh = "你的函数报错：" .. tostring(err) } end
      for _ = 1, 10 do
        local b = assert(p:malloc(256 * MiB, 1))
        p:free(b, 1)
        p:synchronize(1)
      end
      local maps = p:stats().chunk_maps
      if maps ~= 1 then
        return false, { en = string.format("the pool mapped memory %d times in 10 iterations", maps),
                        zh = string.format("10 轮迭代中池映射了 %d 次内存", maps) }
      end
      return true
    end,
    hints = { { en = "pool:set_release_threshold takes a size in bytes, or \"max\" for UINT64_MAX.", zh = "pool:set_release_threshold 接受以字节计的大小，或者用 “max” 表示 UINT64_MAX。" } },
    explain = { en = "function keep_memory(pool) pool:set_release_threshold(\"max\") end. In CUDA: cuuint64_t v = UINT64_MAX; cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v);",
                zh = "function keep_memory(pool) pool:set_release_threshold(\"max\") end。CUDA 中的写法：cuuint64_t v = UINT64_MAX; cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v);" },
  },
}
