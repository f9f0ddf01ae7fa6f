-- Lesson 2.1: what one cudaMalloc costs and how coarse it is. Chapter 2 is the allocation
-- mechanism the lecture announces at the end of chapter 1. Device calls run on the current
-- backend through `alloc.raw` (a cudaMalloc per request) and `alloc.caching` (PyTorch's rules);
-- times are host-measured around each call, real only on a GPU.
local MiB, GiB, KiB = units.MiB, units.GiB, units.KiB

-- the largest power of two (up to 2 MiB) that divides an address
local function alignment(addr)
  local a = 1
  while a < 2 * MiB and addr % (a * 2) == 0 do a = a * 2 end
  return a
end

local function us(seconds) return string.format("%.2f us", seconds * 1e6) end

-- Published device-call times, shown (labelled) when there is no GPU to time: each with its source.
local PUBLISHED = {
  { en = "cudaMalloc, 4 KB to 512 KB (~2009 GPU)", zh = "cudaMalloc，4 KB 到 512 KB（约 2009 年的 GPU）", us = 50 },
  { en = "cudaMalloc, 400 MB (2016)", zh = "cudaMalloc，400 MB（2016 年）", us = 432 },
  { en = "cudaFree behind a 2 ms kernel (RTX 2080 Ti class, 2026)", zh = "排在 2 毫秒核函数之后的 cudaFree（RTX 2080 Ti 一级，2026 年）", us = 1650.5 },
}
local PUBLISHED_SOURCES = {
  en = "M. Boyer, \"Memory allocation overhead\", University of Virginia CUDA support pages (cudaMalloc about 50 us per call from 4 KB to 512 KB, under 1 us below 256 B); kokkos/kokkos issue #317 (cudaMalloc of 100M ints: 0.000432 s); Cytnx-dev/Cytnx pull request #850 (a direct cudaFree: 14.0 us with no kernel pending, 1650.5 us behind a 2000 us kernel, because it waits for the device).",
  zh = "M. Boyer，《Memory allocation overhead》，弗吉尼亚大学 CUDA 支持页面（4 KB 到 512 KB 时每次 cudaMalloc 约 50 微秒，256 B 以下不到 1 微秒）；kokkos/kokkos issue #317（cudaMalloc 1 亿个 int：0.000432 秒）；Cytnx-dev/Cytnx pull request #850（直接 cudaFree：没有待执行的核函数时 14.0 微秒，排在 2000 微秒的核函数之后要 1650.5 微秒，因为它要等设备）。",
}

return lesson {
  id = "2.1",
  chapter = 2,
  chapter_title = { en = "How VRAM is allocated", zh = "显存分配机制" },
  title = { en = "cudaMalloc: cost and granularity", zh = "cudaMalloc：开销与粒度" },
  requires = { "gpu" },

  text { en = [[
# cudaMalloc: cost and granularity

Chapter 1 ended with a promise: "next we go into the allocation mechanism, and see how the GPU
manages this golden warehouse." This chapter keeps it, one layer at a time.

> [!errata] It is not the GPU that manages VRAM
> The GPU executes; it does not decide where a tensor goes. Three layers of software do: the
> **driver** (behind `cudaMalloc`: physical pages, the GPU's page tables), a **framework
> allocator** (PyTorch's caching allocator, or CUDA's own stream-ordered pool) that carves
> tensors out of what the driver gave it, and **your program**, which decides what stays alive.
> This lesson is about the bottom layer; 2.2 and 2.3 about the middle one.
> Source: CUDA C++ Programming Guide, "Virtual Memory Management" (the driver maps physical memory into the GPU's address space); PyTorch `c10/cuda/CUDACachingAllocator.cpp`; CUDA Runtime API, "Stream Ordered Memory Allocator".

## What one call does
`cudaMalloc(&p, n)` asks the driver for `n` bytes of device memory. The driver finds physical
memory, maps it into the GPU's virtual address space and returns a pointer. Three facts follow:

- **It is slow compared with a cached allocation.** The CUDA C++ Best Practices Guide calls
  `cudaMalloc()` and `cudaFree()` "expensive operations" and asks programs to reuse or
  sub-allocate device memory. The Programming Guide lists "a device memory allocation" among the
  operations that stop work in different streams from overlapping (section "Implicit
  Synchronization").
- **It is aligned.** "Any address of a variable residing in global memory or returned by one of
  the memory allocation routines from the driver or runtime API is always aligned to at least 256
  bytes" (CUDA C++ Programming Guide, "Device Memory Accesses").
- **It is coarse.** Physical memory is handed out in pages; on current GPUs the free memory that
  `cudaMemGetInfo` reports moves in **2 MiB** steps. The driver may place several small
  allocations in one page, so a 1-byte `cudaMalloc` costs between 0 and 2 MiB of free memory.

## Before the first allocation
The first CUDA call of a process creates its **context**: the GPU's page tables for the process,
the loaded kernels, `printf` and local-memory (stack) buffers. It takes device memory before your
program allocates a single byte, which is why `nvidia-smi` shows a few hundred MiB for a process
that "did nothing". Since CUDA 12.2 on Linux (12.3 on Windows) kernels load lazily by default
(`CUDA_MODULE_LOADING=LAZY`; PyTorch sets it itself since 1.13, which cut one process's measured
use after creating one tensor from 636 MiB to 274 MiB, that tensor's 20 MiB segment included), so
the context also grows the first time each library kernel runs. Creating a
cuBLAS or cuDNN handle takes a little more outside any allocator; their workspaces, in PyTorch,
come from the caching allocator of the next lesson.
]], zh = [[
# cudaMalloc：开销与粒度

第 1 章结尾留了个预告：“下一章我们会深入显存的分配机制，看看 GPU 到底是怎么管理这块‘黄金仓库’的。”这一章就来兑现，一层一层往下拆。

> [!errata] 管理显存的不是 GPU 本身
> GPU 只负责执行，张量放在哪儿不归它决定。真正管事的是三层软件：**驱动**（`cudaMalloc` 的背后：物理页、GPU 的页表）；**框架的分配器**（PyTorch 的缓存分配器，或者 CUDA 自带的流有序内存池），它从驱动给的大块里切出张量；还有**你的程序**，它决定哪些东西存活。本节讲最底层，2.2 和 2.3 讲中间那层。
> 出处：CUDA C++ Programming Guide“Virtual Memory Management”（驱动把物理内存映射进 GPU 的地址空间）；PyTorch `c10/cuda/CUDACachingAllocator.cpp`；CUDA Runtime API“Stream Ordered Memory Allocator”。

## 一次调用做了什么
`cudaMalloc(&p, n)` 向驱动申请 `n` 字节显存。驱动找到物理内存，映射进 GPU 的虚拟地址空间，再返回一个指针。由此有三个事实：

- **和缓存里的分配比，它很慢。** CUDA C++ Best Practices Guide 直接说 `cudaMalloc()` 和 `cudaFree()` 是“开销很大的操作”，建议程序复用或自行切分显存。Programming Guide 的“Implicit Synchronization”一节也把“一次显存分配”列为会让不同流之间的工作无法重叠的操作之一。
- **它是对齐的。** “全局内存中的变量地址，以及驱动或运行时 API 的内存分配函数返回的地址，总是至少 256 字节对齐”（CUDA C++ Programming Guide，“Device Memory Accesses”）。
- **它的粒度很粗。** 物理内存按页分配；在当前的 GPU 上，`cudaMemGetInfo` 报告的空闲显存以 **2 MiB** 为单位变化。驱动可能把几个小分配放进同一页，所以一次 1 字节的 `cudaMalloc` 会让空闲显存减少 0 到 2 MiB 不等。

## 第一次分配之前
进程的第一个 CUDA 调用会创建它的**上下文**（context）：这个进程在 GPU 上的页表、加载的核函数、`printf` 缓冲区和局部内存（栈）缓冲区。你的程序还没分配一个字节，它就已经占了显存。这就是为什么一个“什么都没干”的进程在 `nvidia-smi` 里也显示占用几百 MiB。从 CUDA 12.2 起（Linux；Windows 是 12.3），核函数默认按需加载（`CUDA_MODULE_LOADING=LAZY`；PyTorch 从 1.13 起自己设置它，实测把一个进程创建一个张量后的占用从 636 MiB 降到了 274 MiB，含那个张量的 20 MiB 段），所以每个库的核函数第一次运行时，上下文还会再涨一点。创建 cuBLAS、cuDNN 句柄还会在任何分配器之外再占一点；它们的工作区在 PyTorch 里则是从下一节的缓存分配器申请的。
]] },

  exercise {
    id = "segments",
    kind = "predict",
    prompt = { en = "A fresh caching allocator receives 200 requests of 100 KiB each and frees none. How many `cudaMalloc` calls (segments) does it make? Predict, then it runs on this machine.",
               zh = "一个全新的缓存分配器收到 200 个 100 KiB 的请求，一个都不释放。它会调用多少次 `cudaMalloc`（申请多少个段）？先预测，再在本机上运行。" },
    unit = "calls", tolerance = 0.05,
    measure = function()
      local a <close> = alloc.caching {}
      for _ = 1, 200 do assert(a:malloc(100 * KiB)) end
      return a:stats().num_device_alloc
    end,
    hints = { { en = "Requests up to 1 MiB share 2 MiB segments. How many 100 KiB blocks (102,400 B, already a multiple of 512) fit in 2 MiB?",
                zh = "不超过 1 MiB 的请求共用 2 MiB 的段。2 MiB 里能放几个 100 KiB 的块（102,400 B，已经是 512 的倍数）？" } },
    explain = { en = "2 MiB / 102,400 B = 20.48, so 20 blocks per segment and 200 / 20 = 10 segments: 10 cudaMalloc calls instead of 200, and 10 x 2 MiB = 20 MiB reserved for 19.5 MiB requested.",
                zh = "2 MiB / 102,400 B = 20.48，每段放 20 块，200 / 20 = 10 个段：10 次 cudaMalloc 而不是 200 次，预留 10 × 2 MiB = 20 MiB，请求的是 19.5 MiB。" },
  },

  experiment {
    id = "cost",
    title = { en = "A cudaMalloc per tensor vs a cached block", zh = "每个张量一次 cudaMalloc vs 缓存里的块" },
    intro = { en = [[
200 times: allocate a 4 MiB tensor and free it. `alloc.raw{}` calls the backend's `cudaMalloc`
and `cudaFree` each time; `alloc.caching{}` (PyTorch's rules) asks for one 20 MiB segment and then
serves every request from its cache. Times are measured on the host around each call. The first
`cudaMalloc` is shown apart from the median of the rest: a first call may grow the driver's own
state and is not a typical one. On the simulator the device calls are not timed (n/a), only
counted.
]], zh = [[
重复 200 次：分配一个 4 MiB 的张量再释放。`alloc.raw{}` 每次都调用后端的 `cudaMalloc` 和 `cudaFree`；`alloc.caching{}`（PyTorch 的规则）只申请一个 20 MiB 的段，之后所有请求都从缓存里拿。时间在主机端围绕每次调用测量。第一次 `cudaMalloc` 与其余调用的中位数分开显示：第一次调用可能还要扩充驱动自身的状态，并不典型。在模拟器上，设备调用不计时（记为 n/a），只计次数。
]] },
    key = "fewer",
    panels = {
      { id = "fewer", kind = "bars", title = { en = "Device calls: raw / caching", zh = "设备调用次数：raw / caching" }, unit = "x" },
      { id = "t", kind = "table", title = { en = "200 x (malloc 4 MiB, free)", zh = "200 次（分配 4 MiB，释放）" } },
      { id = "calls", kind = "bars", title = { en = "Device calls (cudaMalloc + cudaFree)", zh = "设备调用次数（cudaMalloc + cudaFree）" }, unit = "calls" },
      { id = "time", kind = "bars", title = { en = "Time per malloc", zh = "每次分配耗时" }, unit = "us" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local N, size = 200, 4 * MiB
      ex:status(T("raw: 200 x cudaMalloc + cudaFree…", "raw：200 次 cudaMalloc + cudaFree…"))
      local raw <close> = alloc.raw {}
      for _ = 1, N do raw:free(assert(raw:malloc(size))) end
      local rs = raw:stats()
      ex:status(T("caching: 200 x malloc + free…", "caching：200 次 malloc + free…"))
      local c <close> = alloc.caching {}
      c:free(assert(c:malloc(size))) -- the first request creates the segment
      local c0 = c:stats()
      for _ = 1, N do c:free(assert(c:malloc(size))) end
      local cs = c:stats()
      local sim = rs.simulated
      local raw_calls = rs.num_device_alloc + rs.num_device_free
      local c_calls = cs.num_device_alloc + cs.num_device_free
      local raw_t = rs.malloc_seconds / N
      local c_t = (cs.malloc_seconds - c0.malloc_seconds) / N
      local function first_median(st)
        if not st.device_alloc_median_seconds then return "n/a" end
        return us(st.device_alloc_first_seconds) .. " / " .. us(st.device_alloc_median_seconds)
      end
      ex:row("t", { T("allocator", "分配器"), "cudaMalloc", "cudaFree", T("host time / malloc", "主机耗时 / 次分配"),
                    T("host time / free", "主机耗时 / 次释放"), T("cudaMalloc: first / median", "cudaMalloc：第一次 / 中位数") })
      ex:row("t", { "alloc.raw", rs.num_device_alloc, rs.num_device_free, us(raw_t), us(rs.free_seconds / N), first_median(rs) })
      ex:row("t", { "alloc.caching", cs.num_device_alloc, cs.num_device_free, us(c_t),
                    us((cs.free_seconds - c0.free_seconds) / N), first_median(cs) })
      ex:bar("calls", "alloc.raw", raw_calls)
      ex:bar("calls", "alloc.caching", c_calls)
      ex:bar("fewer", T("fewer device calls", "设备调用减少"), raw_calls / math.max(c_calls, 1))
      if sim then
        -- no GPU: show what others measured, labelled as published (bars in microseconds)
        for _, p in ipairs(PUBLISHED) do
          ex:bar("time", T("published: ", "公开数据：") .. T(p.en, p.zh), p.us, { style = "reference" })
        end
        ex:note("time", T("SIMULATED backend: the simulator counts cudaMalloc calls but does not time them. The bars are PUBLISHED measurements by others, not this machine's: " .. PUBLISHED_SOURCES.en .. " Run this lesson on a GPU to time your own; the call counts above hold everywhere.",
                          "模拟后端：模拟器只统计 cudaMalloc 的次数，不计时。这几根柱子是别人公开发表的实测，不是本机的：" .. PUBLISHED_SOURCES.zh .. "在有 GPU 的机器上运行本节可测出你自己的耗时；上面的调用次数在哪里都成立。"))
      else
        ex:bar("time", T("raw malloc (cudaMalloc)", "raw 分配（cudaMalloc）"), raw_t * 1e6, { style = "measured" })
        ex:bar("time", T("cached malloc", "缓存分配"), c_t * 1e6, { style = "measured" })
        ex:note("time", T(string.format("A cached allocation is %.0fx faster here. The caching allocator's time is its own bookkeeping (host CPU only).", raw_t / math.max(c_t, 1e-9)),
                          string.format("本机上缓存分配快 %.0f 倍。缓存分配器的耗时只是它自己的记账（只用主机 CPU）。", raw_t / math.max(c_t, 1e-9))))
      end
      ex:note("t", T(string.format("The caching allocator made %d device call(s) for %d tensors; the raw one %d.", c_calls, N + 1, raw_calls),
                     string.format("缓存分配器为 %d 个张量调用设备 %d 次；raw 分配器调用了 %d 次。", N + 1, c_calls, raw_calls)))
      ex:status(T("done", "完成"))
    end,
  },

  experiment {
    id = "granularity",
    key = "ctx",
    title = { en = "Alignment, pages and the context", zh = "对齐、页与上下文" },
    intro = { en = [[
Six raw `cudaMalloc` calls of growing size, all kept alive: for each, the drop in free memory
(`cudaMemGetInfo`) and the alignment of the returned address. Then everything is freed and free
memory must be back where it started. Last, the ledger's view of the context.
]], zh = [[
六次逐渐变大的 `cudaMalloc`，全部保持存活：记录每次之后空闲显存（`cudaMemGetInfo`）的减少量，以及返回地址的对齐。然后全部释放，空闲显存必须回到起点。最后看账本里的上下文占用。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Request vs what the device gives", zh = "请求大小 vs 设备实际给出" } },
      { id = "ctx", kind = "gauge", title = { en = "CUDA context before any allocation", zh = "分配之前上下文已占用" }, unit = "MiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local free0, total = gpu.mem()
      local raw <close> = alloc.raw {}
      local sizes = { 1, 256, 100 * KiB, MiB, 2 * MiB + 1, 3 * MiB }
      local blocks = {}
      ex:row("t", { T("request", "请求"), T("free memory drop", "空闲显存减少"), T("address alignment", "地址对齐"), "256 B" })
      local before = free0
      local min_align = 2 * MiB
      for i, n in ipairs(sizes) do
        blocks[i] = assert(raw:malloc(n))
        local now = gpu.mem()
        local al = alignment(blocks[i]:address())
        if al < min_align then min_align = al end
        ex:row("t", { units.bytes(n), units.bytes(before - now), units.bytes(al), al >= 256 and "ok" or "NO" })
        before = now
      end
      for _, b in ipairs(blocks) do raw:free(b) end
      local back = gpu.mem()
      -- the driver may keep a page it took for small allocations (2 MiB) after they are freed:
      -- within gpu.free_tolerance of the start is back, not a leak
      local asked = 0
      for _, n in ipairs(sizes) do asked = asked + n end
      local off, tol = math.abs(back - free0), gpu.free_tolerance(asked)
      local verdict_en = off == 0 and "nothing leaked"
        or off <= tol and string.format("back within %s: the driver may keep the page it took for small allocations; not a leak", units.bytes(tol))
        or "NOT back to the start"
      local verdict_zh = off == 0 and "没有泄漏"
        or off <= tol and string.format("在 %s 之内回到起点：驱动可能留着它为小分配取的那一页；不是泄漏", units.bytes(tol))
        or "没有回到起点"
      ex:note("t", T(string.format("Every address is aligned to at least %s. After freeing all six, free memory is %s (start: %s): %s.",
                                   units.bytes(min_align), units.bytes(back), units.bytes(free0), verdict_en),
                     string.format("所有地址至少 %s 对齐。六块全部释放后，空闲显存为 %s（起点 %s）：%s。",
                                   units.bytes(min_align), units.bytes(back), units.bytes(free0), verdict_zh)))
      if gpu.info().simulated then
        ex:note("t", T("SIMULATED: the simulator charges every cudaMalloc whole 2 MiB pages of its own; a real driver may pack several small allocations into one page, so on a GPU the small requests can show a 0 B drop.",
                       "模拟：模拟器给每次 cudaMalloc 单独分配整 2 MiB 页；真实驱动可能把几个小分配放进同一页，所以在 GPU 上小请求可能显示减少 0 B。"))
      end
      local l = alloc.ledger()
      if l.context then
        ex:gauge("ctx", T("context", "上下文"), l.context / MiB, total / MiB, { unit = "MiB" })
        local how = l.simulated and T("from the GPU profile (SIMULATED)", "来自 GPU 配置（模拟）")
                    or T("measured: NVML free memory before vs after creating the context", "实测：NVML 报告的上下文创建前后空闲显存之差")
        ex:note("ctx", T(string.format("%s of %s (%.1f%%), %s.", units.bytes(l.context), units.bytes(total), 100 * l.context / total, how),
                         string.format("%s / %s（%.1f%%），%s。", units.bytes(l.context), units.bytes(total), 100 * l.context / total, how)))
      else
        ex:note("ctx", T("Unknown here: measuring the context needs NVML (libnvidia-ml.so.1), which this machine lacks. " .. l.nvml_note,
                         "此处未知：测量上下文需要 NVML（libnvidia-ml.so.1），本机没有。" .. l.nvml_note))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## What this means for a framework
A training step creates and destroys thousands of tensors. Paying a `cudaMalloc` and a `cudaFree`
for each, and stalling other streams every time, would dominate the step. That is the whole
reason the caching allocator of the next lesson exists: it calls `cudaMalloc` rarely, for large
segments, and keeps freed blocks for the next tensor.

> [!tip] Measure it on your GPU
> On a GPU the first experiment times real `cudaMalloc`/`cudaFree` calls. The cost grows with the
> size (more pages to map) and with how busy the device is; `cudaFree` also waits for work that may
> still use the memory.

> [!source] Sources
> CUDA C++ Best Practices Guide, "Memory Allocation"; CUDA C++ Programming Guide, "Device Memory
> Accesses" (256-byte alignment), "Implicit Synchronization", "Lazy Loading" and its change history
> (`CUDA_MODULE_LOADING`, default since 12.2 on Linux, 12.3 on Windows); pytorch/pytorch pull
> request #86509 (PyTorch sets lazy loading; 274 MiB instead of 636 MiB after one tensor: 287,047,680 B and 666,632,192 B, the second with `DEFAULT`, eager on that CUDA); NVML,
> `nvmlDeviceGetMemoryInfo` (free memory before the context exists). Published call times: M. Boyer,
> University of Virginia CUDA support pages, "Memory allocation overhead"; kokkos/kokkos issue #317;
> Cytnx-dev/Cytnx pull request #850. PyTorch `aten/src/ATen/cuda/CublasHandlePool.cpp` (cuBLAS
> workspaces from the caching allocator).
]], zh = [[
## 这对框架意味着什么
一个训练步会创建、销毁成千上万个张量。如果每个都付一次 `cudaMalloc` 和 `cudaFree`，还每次都卡住其他流，这部分开销就会压过计算本身。下一节的缓存分配器正是为此而生：它很少调用 `cudaMalloc`，每次申请一大段，释放的块留给下一个张量。

> [!tip] 在你的 GPU 上实测
> 有 GPU 时，第一个实验测的是真实的 `cudaMalloc`/`cudaFree`。分配越大（要映射的页越多）、设备越忙，开销越大；`cudaFree` 还要等可能仍在使用这块内存的工作完成。

> [!source] 出处
> CUDA C++ Best Practices Guide，“Memory Allocation”；CUDA C++ Programming Guide，“Device Memory Accesses”（256 字节对齐）、“Implicit Synchronization”、“Lazy Loading”及其修订记录（`CUDA_MODULE_LOADING`，Linux 上 12.2 起、Windows 上 12.3 起为默认）；pytorch/pytorch pull request #86509（PyTorch 自己设置按需加载；创建一个张量后 274 MiB 而不是 636 MiB：287,047,680 B 与 666,632,192 B，后者用的是 `DEFAULT`，在那个 CUDA 上即立即加载）；NVML 的 `nvmlDeviceGetMemoryInfo`（上下文创建之前的空闲显存）。公开的调用耗时：M. Boyer，弗吉尼亚大学 CUDA 支持页面《Memory allocation overhead》；kokkos/kokkos issue #317；Cytnx-dev/Cytnx pull request #850。PyTorch `aten/src/ATen/cuda/CublasHandlePool.cpp`（cuBLAS 工作区来自缓存分配器）。
]] },

  exercise {
    id = "align",
    kind = "choice",
    prompt = { en = "What alignment does the CUDA Programming Guide guarantee for a pointer returned by `cudaMalloc`?",
               zh = "CUDA Programming Guide 保证 `cudaMalloc` 返回的指针至少按多少字节对齐？" },
    choices = {
      { en = "4 bytes (one float)", zh = "4 字节（一个 float）" },
      { en = "at least 256 bytes", zh = "至少 256 字节" },
      { en = "4 KiB (a host page)", zh = "4 KiB（主机的一页）" },
      { en = "exactly 2 MiB (a large page)", zh = "正好 2 MiB（一个大页）" },
    },
    answer = 2,
    hints = { { en = "Look at the alignment column of the second experiment, and the quote in the text.", zh = "看第二个实验的对齐那一列，以及正文里的引文。" } },
    explain = { en = "\"Always aligned to at least 256 bytes\" (Programming Guide, Device Memory Accesses). Addresses are often aligned more, but 256 B is the guarantee; 2 MiB is the page size that free memory moves by, not an alignment promise.",
                zh = "“总是至少 256 字节对齐”（Programming Guide，Device Memory Accesses）。实际地址往往对齐得更多，但保证的只有 256 B；2 MiB 是空闲显存变化的页大小，不是对齐承诺。" },
  },

  exercise {
    id = "context",
    kind = "number",
    prompt = { en = "`nvidia-smi` shows your process using 1,304 MiB. Through plain `cudaMalloc` it holds one 512 MiB and one 256 MiB buffer, nothing else. How much is the CUDA context and its libraries, in MiB?",
               zh = "`nvidia-smi` 显示你的进程占用 1,304 MiB。它只通过 `cudaMalloc` 持有一个 512 MiB 和一个 256 MiB 的缓冲区，别无其他。CUDA 上下文及其库占了多少 MiB？" },
    answer = 536, unit = "MiB", tolerance = 0.01,
    mistakes = {
      { value = 792, say = { en = "792 MiB still holds the 256 MiB buffer: subtract both allocations.", zh = "792 MiB 里还含着那块 256 MiB 的缓冲区：两次分配都要减掉。" } },
      { value = 1048, say = { en = "1048 MiB still holds the 512 MiB buffer: subtract both allocations.", zh = "1048 MiB 里还含着那块 512 MiB 的缓冲区：两次分配都要减掉。" } },
    },
    hints = { { en = "nvidia-smi counts everything the process has on the device; subtract what you allocated.", zh = "nvidia-smi 统计的是进程在设备上的全部占用；减去你自己分配的部分。" } },
    explain = { en = "1,304 - 512 - 256 = 536 MiB: the context (page tables, kernels, stack and printf buffers) plus what its libraries loaded and allocated themselves. The ledger in lesson 2.4 makes this split for you.",
                zh = "1,304 − 512 − 256 = 536 MiB：上下文（页表、核函数、栈和 printf 缓冲区）加上各个库自己加载和申请的部分。第 2.4 节的账本会自动替你拆分。" },
  },
}
