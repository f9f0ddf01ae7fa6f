-- Lesson 2.4: anatomy of an out-of-memory error, and the ledger that reconciles nvidia-smi with
-- memory_allocated(). The OOM lab runs on this machine's backend under the experiment cap and
-- proves that nothing leaked; the ledger is alloc.ledger (gpu/alloc/gpu_ledger.c).
local MiB, GiB, KiB = units.MiB, units.GiB, units.KiB

-- split PyTorch's message into its sentences (". " ends one; URLs keep their dots)
local function sentences(msg)
  local out, start = {}, 1
  for stop in msg:gmatch("%.()%s+") do
    out[#out + 1] = msg:sub(start, stop - 1)
    start = stop
    while msg:sub(start, start):match("%s") do start = start + 1 end
  end
  if start <= #msg then out[#out + 1] = msg:sub(start) end
  return out
end

-- the ledger's parts as memory-map cells (state by kind: what is ours vs not)
local STATE = { other_processes = "used", context = "used", unaccounted = "used", other_allocations = "allocated",
                requested = "allocated", rounding = "allocated", cached = "cached", free = "free" }
local function ledger_map(l)
  local cells = {}
  for _, p in ipairs(l.parts) do
    if p.bytes > 0 then cells[#cells + 1] = { owner = p.label, state = STATE[p.key], bytes = p.bytes } end
  end
  return cells
end

return lesson {
  id = "2.4",
  chapter = 2,
  chapter_title = { en = "How VRAM is allocated", zh = "显存分配机制" },
  title = { en = "Anatomy of an OOM", zh = "OOM 报错解剖" },
  requires = { "gpu" },

  text { en = [[
# Anatomy of an OOM

When PyTorch's caching allocator cannot find memory, even after freeing its whole cache and
trying again, it raises `torch.OutOfMemoryError` with a message like this one (from an 80 GB
card):

```
CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB of
which 11.62 MiB is free. Of the allocated memory 78.20 GiB is allocated by PyTorch, and
420.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large
try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.
```

Sentence by sentence:

| part | what it is |
|---|---|
| Tried to allocate 20.00 MiB | the **segment** the allocator asked `cudaMalloc` for, not your tensor: a 1.5 MiB tensor asks for a 20 MiB segment |
| total capacity of 79.15 GiB | `cudaMemGetInfo`'s total: the card's memory minus what the driver keeps for itself |
| of which 11.62 MiB is free | `cudaMemGetInfo`'s free, for the whole device: other processes' memory counts as not free |
| X allowed | only with `torch.cuda.set_per_process_memory_fraction`: the cap on reserved |
| 78.20 GiB is allocated by PyTorch | `memory_allocated()`: live tensors, rounded |
| 420.00 MiB reserved but unallocated | `memory_reserved() - memory_allocated()`: the cache that could not serve this request (fragmentation) |

Sizes use PyTorch's `format_size`: binary units with MiB/GiB labels. Recent PyTorch versions also
list each process using the GPU ("Process 1234 has 79.13 GiB memory in use"), from NVML.

## What the message does not say
Add up the parts: used = 79.15 GiB − 11.62 MiB ≈ 79.14 GiB, PyTorch holds 78.20 GiB + 0.41 GiB =
78.61 GiB. The other ≈ 0.53 GiB belong to **this process's CUDA context** (with the kernels of the
libraries it loaded, and the handles of cuBLAS and cuDNN; their workspaces, in PyTorch, come from
the caching allocator and count as allocated), to **other processes**, and to anything allocated outside PyTorch's allocator. The
**ledger** makes that split explicit: total capacity → other processes → this context → this
process's other allocations → reserved → allocated → requested, and the free rest.
]], zh = [[
# OOM 报错解剖

PyTorch 的缓存分配器找不到内存时，即使释放了整个缓存再试一次也不行，就会抛出 `torch.OutOfMemoryError`，报错信息大致如下（来自一张 80 GB 的卡）：

```
CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB of
which 11.62 MiB is free. Of the allocated memory 78.20 GiB is allocated by PyTorch, and
420.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large
try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.
```

逐句拆开看：

| 片段 | 含义 |
|---|---|
| Tried to allocate 20.00 MiB | 分配器向 `cudaMalloc` 申请的**段**的大小，不是你的张量：一个 1.5 MiB 的张量会申请 20 MiB 的段 |
| total capacity of 79.15 GiB | `cudaMemGetInfo` 给出的总量：显卡的显存减去驱动自留的部分 |
| of which 11.62 MiB is free | `cudaMemGetInfo` 给出的整卡空闲量：其他进程占的显存也算作不空闲 |
| X allowed | 只在调用了 `torch.cuda.set_per_process_memory_fraction` 时出现：已预留的上限 |
| 78.20 GiB is allocated by PyTorch | `memory_allocated()`：存活的张量，按取整后计 |
| 420.00 MiB reserved but unallocated | `memory_reserved() − memory_allocated()`：没能满足这次请求的缓存（碎片） |

大小采用 PyTorch 的 `format_size`：二进制单位，标注为 MiB/GiB。较新的 PyTorch 还会通过 NVML 列出每个使用这张 GPU 的进程（“Process 1234 has 79.13 GiB memory in use”）。

## 报错没说的部分
把各部分加起来：已用 = 79.15 GiB − 11.62 MiB ≈ 79.14 GiB，PyTorch 持有 78.20 GiB + 0.41 GiB = 78.61 GiB。剩下约 0.53 GiB 属于**本进程的 CUDA 上下文**（包括已加载的库的核函数，以及 cuBLAS、cuDNN 的句柄；它们的工作区在 PyTorch 里来自缓存分配器，算在已分配里）、**其他进程**，以及任何绕过 PyTorch 分配器申请的内存。**账本**把这笔账明明白白拆开：总容量 → 其他进程 → 本进程上下文 → 本进程的其他分配 → 已预留 → 已分配 → 请求，剩下的是空闲。
]] },

  exercise {
    id = "context",
    kind = "predict",
    prompt = { en = "Predict how much device memory this process's CUDA context takes on this machine, in MiB (the ledger's context row).",
               zh = "预测本机上这个进程的 CUDA 上下文占用多少显存，单位 MiB（账本中的上下文一行）。" },
    unit = "MiB", tolerance = 0.5,
    measure = function()
      local l = alloc.ledger()
      if l.context then return l.context / MiB end
      return l.used / MiB -- without NVML: everything used on the device before we allocate
    end,
    hints = { { en = "Typically a few hundred MiB: page tables, kernels of the CUDA runtime and of vramlab, stack and printf buffers; more on GPUs with many SMs.",
                zh = "通常是几百 MiB：页表、CUDA 运行时和 vramlab 的核函数、栈和 printf 缓冲区；SM 越多的 GPU 越大。" } },
    explain = { en = "The context is measured as NVML's free memory before vs after the backend opened (on the simulator: the profile's figure). It is memory nvidia-smi charges to your process that no allocator statistic shows.",
                zh = "上下文的测量方法是：后端打开前后 NVML 报告的空闲显存之差（模拟器上取配置中的数字）。nvidia-smi 把它算在你的进程头上，但任何分配器统计里都看不到它。" },
  },

  experiment {
    id = "lab",
    key = "g",
    title = { en = "OOM lab: fill, fail, read, recover", zh = "OOM 实验：填满、失败、解读、恢复" },
    intro = { en = [[
A caching allocator on this machine's backend allocates tensors of 1/8 of the experiment budget
(the cap: a share of free memory, `--cap`) until the allocator refuses. The cap acts like
`set_per_process_memory_fraction`, so the message carries an "allowed" figure. Then: the ledger at
the moment of failure, every tensor freed, the cache emptied, and free memory compared with its
starting value.
]], zh = [[
在本机后端上运行一个缓存分配器，每次分配实验预算（上限：空闲显存的一定比例，见 `--cap`）的 1/8，直到分配器拒绝为止。这个上限相当于 `set_per_process_memory_fraction`，所以报错里会带一个“allowed”数字。然后：查看失败那一刻的账本，释放所有张量，清空缓存，把空闲显存和起点比较。
]] },
    panels = {
      { id = "steps", kind = "table", title = { en = "Step by step", zh = "逐步记录" } },
      { id = "g", kind = "gauge", title = { en = "Reserved vs the cap", zh = "已预留 vs 上限" }, unit = "GiB" },
      { id = "msg", kind = "table", title = { en = "The OOM message, sentence by sentence", zh = "OOM 报错，逐句" } },
      { id = "ledger", kind = "map", title = { en = "The ledger at the failure", zh = "失败时的账本" } },
      { id = "leak", kind = "table", title = { en = "Recovery: nothing leaked?", zh = "恢复：有没有泄漏？" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local free0, total = gpu.mem()
      local a <close> = alloc.caching {}
      local cap = a:stats().cap_bytes
      local step = math.max(2 * MiB, cap // 8 // (2 * MiB) * (2 * MiB))
      local live, err = {}, nil
      ex:row("steps", { "#", T("tensor", "张量"), T("allocated", "已分配"), T("reserved", "已预留"), T("device free", "设备空闲") })
      for i = 1, 16 do
        local b, e = a:malloc(step, "t" .. i)
        if not b then err = e; break end
        live[#live + 1] = b
        local s = a:stats()
        ex:row("steps", { i, units.bytes(step), units.bytes(s.allocated), units.bytes(s.reserved), units.bytes((gpu.mem())) })
        ex:gauge("g", T("reserved", "已预留"), s.reserved / GiB, cap / GiB, { unit = "GiB" })
        ex:pause(0.5) -- the gauge fills step by step in the tutor, up to the failure
      end
      if err then
        ex:row("steps", { #live + 1, units.bytes(step), "OOM", "", "" })
        for _, sentence in ipairs(sentences(err)) do ex:row("msg", { sentence }) end
        local l = alloc.ledger(a)
        ex:map("ledger", ledger_map(l), l.total)
        local sum = 0
        for _, p in ipairs(l.parts) do sum = sum + p.bytes end
        ex:note("ledger", T(string.format("The parts add up to the total exactly (%s). Context: %s; other processes: %s.",
                                          units.bytes(sum), l.context and units.bytes(l.context) or "unknown",
                                          l.other_processes and units.bytes(l.other_processes) or "unknown (no NVML)"),
                            string.format("各部分加起来正好等于总量（%s）。上下文：%s；其他进程：%s。",
                                          units.bytes(sum), l.context and units.bytes(l.context) or "未知",
                                          l.other_processes and units.bytes(l.other_processes) or "未知（没有 NVML）")))
      else
        ex:note("msg", T("No OOM within 16 steps (the cap moved?).", "16 步之内没有 OOM（上限变了？）。"))
      end
      -- recover: free everything, give the cache back, compare with the start
      for _, b in ipairs(live) do a:free(b) end
      local s1 = a:stats()
      local free_cached = gpu.mem()
      a:empty_cache()
      local free_end = gpu.mem()
      ex:row("leak", { T("moment", "时刻"), T("device free", "设备空闲"), T("reserved", "已预留") })
      ex:row("leak", { T("start", "开始"), units.bytes(free0), "0 B" })
      ex:row("leak", { T("all tensors freed", "张量全部释放"), units.bytes(free_cached), units.bytes(s1.reserved) })
      ex:row("leak", { "empty_cache()", units.bytes(free_end), units.bytes(a:stats().reserved) })
      local same = free_end == free0
      ex:note("leak", T(same and "Free memory is back to its starting value, to the byte: nothing leaked."
                             or string.format("Free memory differs from the start by %s (another process on this GPU?).", units.bytes(math.abs(free_end - free0))),
                        same and "空闲显存精确回到了起点，一个字节都不差：没有泄漏。"
                             or string.format("空闲显存与起点相差 %s（这张 GPU 上还有别的进程？）。", units.bytes(math.abs(free_end - free0)))))
      ex:status(T("done", "完成"))
    end,
  },

  experiment {
    id = "views",
    title = { en = "nvidia-smi, memory_reserved, memory_allocated: three views", zh = "nvidia-smi、memory_reserved、memory_allocated：三种视角" },
    intro = { en = [[
A small mixed workload on this backend: 3,000 tensors of 1,000 B (rounding), 12 tensors of 1.5 MiB
sharing 20 MiB segments, two 64 MiB tensors of which one is freed (cache). Then each tool's
figure, and the ledger that connects them.
]], zh = [[
在本机后端上跑一个小的混合负载：3,000 个 1,000 B 的张量（取整）、12 个共用 20 MiB 段的 1.5 MiB 张量、两个 64 MiB 的张量并释放其中一个（缓存）。然后看每个工具报告的数字，以及把它们串起来的账本。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Who reports what", zh = "谁报告了什么" } },
      { id = "b", kind = "bars", title = { en = "This process's memory, by part", zh = "本进程的显存，按部分" }, unit = "MiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local a <close> = alloc.caching {}
      for _ = 1, 3000 do assert(a:malloc(1000)) end
      for _ = 1, 12 do assert(a:malloc(1.5 * MiB)) end
      local big = assert(a:malloc(64 * MiB)); assert(a:malloc(64 * MiB))
      a:free(big)
      local l = alloc.ledger(a)
      local s = a:stats()
      ex:row("t", { T("tool", "工具"), T("reports", "报告值"), T("counts", "统计的是") })
      local smi = l.self_nvml
      ex:row("t", { T("nvidia-smi (this process)", "nvidia-smi（本进程）"),
                    smi and units.bytes(smi) or (l.simulated and units.bytes(l.context + l.live_bytes) or "n/a"),
                    T("context + everything this process allocated", "上下文 + 本进程分配的一切") })
      ex:row("t", { T("total - free (cudaMemGetInfo)", "总量 − 空闲（cudaMemGetInfo）"), units.bytes(l.used), T("all processes, all contexts", "所有进程、所有上下文") })
      ex:row("t", { "memory_reserved()", units.bytes(s.reserved), T("segments the allocator holds", "分配器持有的段") })
      ex:row("t", { "memory_allocated()", units.bytes(s.allocated), T("live blocks, rounded", "存活的块，取整后") })
      ex:row("t", { T("requested", "请求"), units.bytes(s.requested), T("what the tensors asked for", "张量实际申请的") })
      if l.simulated then
        ex:note("t", T("SIMULATED: nvidia-smi's per-process figure is modelled as the profile's context plus this process's allocations.",
                       "模拟：nvidia-smi 的进程数字按配置中的上下文加本进程的分配来建模。"))
      elseif not smi then
        ex:note("t", T("n/a: " .. l.nvml_note, "n/a：" .. l.nvml_note))
      end
      for _, p in ipairs(l.parts) do
        if p.key ~= "free" and p.key ~= "other_processes" and p.bytes > 0 then ex:bar("b", p.label, p.bytes / MiB) end
      end
      ex:note("b", T(string.format("Rounding waste %s (3,000 x 24 B + the 1.5 MiB tensors' 0 B); cached free %s, largest free block %s.",
                                   units.bytes(l.rounding), units.bytes(l.cached), units.bytes(s.largest_free)),
                     string.format("取整浪费 %s（3,000 × 24 B，1.5 MiB 的张量没有浪费）；缓存空闲 %s，最大空闲块 %s。",
                                   units.bytes(l.rounding), units.bytes(l.cached), units.bytes(s.largest_free))))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading your own OOM
1. **"Tried to allocate" small, "free" tiny**: the card is full. Look at "allocated by PyTorch":
   if it is close to the total, you need less memory (smaller batch, checkpointing, sharding).
2. **"reserved but unallocated" large**: fragmentation. Try `expandable_segments:True` (lesson
   2.3).
3. **"reserved by PyTorch" far below the total, "free" tiny** (reserved already includes
   allocated): someone else has the memory: another process (check `nvidia-smi`), or this process
   outside PyTorch's allocator (another framework, NCCL's buffers, library handles, a leaked
   context).
4. **"X allowed"**: a memory fraction caps this process; the card itself may have room.

> [!pitfall] "CUDA error: out of memory" is a different error
> Without "Tried to allocate" it did not come from the caching allocator: creating the context,
> loading a library's kernels lazily on first use, creating a cuBLAS or cuDNN handle, NCCL
> allocating its communicator buffers, or third-party code calling `cudaMalloc` itself failed. (In
> PyTorch the cuBLAS and cuDNN *workspaces* come from the caching allocator, so running out there
> gives the normal "Tried to allocate" message.) The cache may
> be full of free blocks they cannot use; `torch.cuda.empty_cache()` before that call can help.
]], zh = [[
## 读懂你自己的 OOM
1. **“Tried to allocate”不大，“free”很小**：卡真的满了。看“allocated by PyTorch”：如果接近总量，就得少用显存（减小 batch、梯度检查点、切分模型）。
2. **“reserved but unallocated”很大**：碎片。试试 `expandable_segments:True`（第 2.3 节）。
3. **“reserved by PyTorch”远小于总量，“free”却很小**（reserved 已经包含了 allocated）：显存被别人占了：另一个进程（看 `nvidia-smi`），或者本进程绕过 PyTorch 分配器的部分（另一个框架、NCCL 的缓冲区、库的句柄、泄漏的上下文）。
4. **出现“X allowed”**：这个进程被设置了显存比例上限；卡上可能还有空间。

> [!pitfall] “CUDA error: out of memory”是另一种错误
> 没有“Tried to allocate”，说明它不是缓存分配器报的：是创建上下文、首次使用时按需加载库的核函数、创建 cuBLAS 或 cuDNN 句柄、NCCL 申请通信缓冲区，或者第三方代码自己调用 `cudaMalloc` 失败了。（在 PyTorch 里，cuBLAS 和 cuDNN 的*工作区*来自缓存分配器，在那里不够用时报的是普通的“Tried to allocate”。）此时缓存里可能满是它们用不上的空闲块；在那次调用之前执行 `torch.cuda.empty_cache()` 可能有帮助。
]] },

  exercise {
    id = "outside",
    kind = "number",
    prompt = { en = "In the message at the top of this lesson: how much device memory is used by something other than PyTorch's allocator (context, libraries, other processes), in GiB?",
               zh = "就本节开头那条报错而言：被 PyTorch 分配器以外的东西（上下文、库、其他进程）占用的显存有多少 GiB？" },
    -- the message's figures have two decimals: 0.5285 GiB to about +-0.01 (2 %)
    answer = 79.15 - 11.62 / 1024 - 78.20 - 420 / 1024, unit = "GiB", tolerance = 0.03,
    mistakes = { "gib_gb",
                 { value = 79.15 - 11.62 / 1024 - 78.20, say = { en = "The 420 MiB reserved but unallocated are PyTorch's too: its cache holds them.",
                                                                  zh = "那 420 MiB reserved but unallocated 也属于 PyTorch：在它的缓存里。" } } },
    hints = { { en = "used = total - free; PyTorch holds allocated + reserved-but-unallocated. Convert 11.62 MiB and 420 MiB to GiB (divide by 1024).",
                zh = "已用 = 总量 − 空闲；PyTorch 持有的是 allocated 加上 reserved-but-unallocated。把 11.62 MiB 和 420 MiB 换算成 GiB（除以 1024）。" } },
    explain = { en = "79.15 - 0.0113 = 79.139 GiB used; 78.20 + 0.410 = 78.610 GiB PyTorch: 0.53 GiB elsewhere, typically this process's context with its loaded library kernels and handles (cuBLAS/cuDNN workspaces are inside PyTorch's allocated bytes).",
                zh = "79.15 − 0.0113 = 79.139 GiB 已用；78.20 + 0.410 = 78.610 GiB 属于 PyTorch：其余 0.53 GiB 在别处，通常是本进程的上下文及其加载的库核函数和句柄（cuBLAS/cuDNN 的工作区算在 PyTorch 的已分配里）。" },
  },

  exercise {
    id = "tried",
    kind = "choice",
    prompt = { en = "Your failing tensor is 1.5 MiB, but the message says \"Tried to allocate 20.00 MiB\". Why?",
               zh = "出错的张量只有 1.5 MiB，报错却说“Tried to allocate 20.00 MiB”。为什么？" },
    choices = {
      { en = "PyTorch counts the tensor's gradient and optimizer state too", zh = "PyTorch 把张量的梯度和优化器状态也算进去了" },
      { en = "It is the size of the segment the allocator asked cudaMalloc for", zh = "这是分配器向 cudaMalloc 申请的段的大小" },
      { en = "The driver rounds every allocation up to 20 MiB", zh = "驱动把每次分配都向上取整到 20 MiB" },
    },
    answer = 2,
    hints = { { en = "Lesson 2.2, rule 3: which segment does a 1-10 MiB request get?", zh = "第 2.2 节规则 3：1–10 MiB 的请求分到多大的段？" } },
    explain = { en = "No cached block fit, so the allocator asked the device for a new segment: requests of 1-10 MiB get 20 MiB (kLargeBuffer). The message reports that request (alloc_size), not the tensor.",
                zh = "缓存里没有合适的块，分配器只好向设备申请新段：1–10 MiB 的请求分到 20 MiB（kLargeBuffer）。报错里报的是这次申请（alloc_size），不是张量本身。" },
  },

  text { en = [[
## nvidia-smi minus reserved, itemized
The ledger names the parts; here they are with sizes. What nvidia-smi shows for a PyTorch process
beyond `torch.cuda.memory_reserved()`:

| part | size | source |
|---|---|---|
| the **CUDA context**, lazy module loading | about 254 MiB | PyTorch PR 86509 (CUDA 11.7): 287,047,680 B with one tensor, its 20 MiB segment included |
| the same, **eager** loading (`CUDA_MODULE_LOADING=EAGER`) | about 616 MiB | the same PR: 666,632,192 B with `CUDA_MODULE_LOADING=DEFAULT`, which meant eager before CUDA 12.2: every kernel of every library loaded at start |
| **NCCL**, per communicator | 544–688 MB measured; 9.19 MiB per connection per channel | NVIDIA/nccl issue 964 (4 A100s); NCCL 2.30.7 `src/init.cc` (lesson 4.5) |
| **other processes** on the GPU | theirs | `nvidia-smi`, NVML |

Lazy loading loads a kernel the first time it runs, so the context grows during the first steps as
cuBLAS, cuDNN and PyTorch's own kernels are first used, and stays smaller. PyTorch sets
`CUDA_MODULE_LOADING=LAZY` unless you set it (`CUDAHooks::init`, since PyTorch 1.13); the driver
defaults to it too since CUDA 12.2 on Linux and 12.3 on Windows. A tool, container or older stack that sets `EAGER` pays hundreds of MiB per
process — on every GPU of every rank.

What people count outside PyTorch and is **inside** `memory_reserved()`, because PyTorch allocates
it through the caching allocator:

- **cuBLAS workspaces**, one per (handle, stream) pair (`CublasHandlePool.cpp`,
  `cublas_handle_stream_to_workspace`). `CUBLAS_WORKSPACE_CONFIG` is a list of `:KiB:count`:
  PyTorch's default `:4096:2:16:8` is 2 × 4 MiB + 8 × 16 KiB = 8.13 MiB, and 32 MiB (`:4096:8`) on
  Hopper (since PyTorch 2.0, PR 91564) and on Blackwell, compute capability 10.x to 12.x (PyTorch
  PRs 175344 and 189312, 2026; releases before them give Blackwell the 8.13 MiB). A job that runs matmuls on four streams holds four.
- **cuDNN workspaces** (`Conv_v7.cpp`): sized per convolution algorithm; `cudnn.benchmark = True`
  tries the algorithms, some of which ask for large ones.
- **cuFFT plans**: each cached plan's work area (`torch.backends.cuda.cufft_plan_cache`, up to
  4096 plans per device).
- **CUDA graphs' private pools** (lesson 5.5).

The experiment measures this process's context on this machine (real on a GPU: NVML's free memory
before and after the backend opened; the profile's figure on the simulator), puts it beside
PyTorch's published ones, and allocates cuBLAS workspaces for one to four streams through the
caching allocator on this backend, to show what they add to `memory_reserved()`.
]], zh = [[
## nvidia-smi 减去 reserved，逐项列出
账本给出了各个部分的名字；这里给出它们的大小。nvidia-smi 为一个 PyTorch 进程显示的、超出 `torch.cuda.memory_reserved()` 的部分：

| 部分 | 大小 | 出处 |
|---|---|---|
| **CUDA 上下文**，延迟加载模块 | 约 254 MiB | PyTorch PR 86509（CUDA 11.7）：创建一个张量后 287,047,680 B，含它的 20 MiB 段 |
| 同上，**立即**加载（`CUDA_MODULE_LOADING=EAGER`） | 约 616 MiB | 同一个 PR：`CUDA_MODULE_LOADING=DEFAULT` 时 666,632,192 B，CUDA 12.2 之前 DEFAULT 就是立即加载：启动时加载了每个库的每个核函数 |
| **NCCL**，每个通信器 | 实测 544–688 MB；每个通道每个连接 9.19 MiB | NVIDIA/nccl issue 964（4 张 A100）；NCCL 2.30.7 `src/init.cc`（第 4.5 节） |
| GPU 上的**其他进程** | 它们自己的 | `nvidia-smi`、NVML |

延迟加载在一个核函数第一次运行时才加载它，所以上下文会在最初几步里随着 cuBLAS、cuDNN 和 PyTorch 自己的核函数第一次被用到而增长，最终仍然更小。除非你自己设置，PyTorch 会设 `CUDA_MODULE_LOADING=LAZY`（`CUDAHooks::init`，从 PyTorch 1.13 起）；驱动也默认如此：Linux 上从 CUDA 12.2 起，Windows 上从 12.3 起。某个工具、容器或旧的软件栈如果设了 `EAGER`，每个进程要多付几百 MiB——每个 rank 的每张 GPU 都是如此。

大家常算在 PyTorch 之外、其实在 `memory_reserved()` **之内**的东西，因为 PyTorch 是经缓存分配器分配它们的：

- **cuBLAS 工作区**，每个（句柄，流）对一个（`CublasHandlePool.cpp`，`cublas_handle_stream_to_workspace`）。`CUBLAS_WORKSPACE_CONFIG` 是一串 `:KiB:个数`：PyTorch 默认的 `:4096:2:16:8` 是 2 × 4 MiB + 8 × 16 KiB = 8.13 MiB，在 Hopper 上是 32 MiB（`:4096:8`，自 PyTorch 2.0 起，PR 91564），在 Blackwell（计算能力 10.x 到 12.x）上也是（PyTorch PR 175344 和 189312，2026 年；更早的版本在 Blackwell 上仍是 8.13 MiB）。在四个流上跑矩阵乘的任务就持有四份。
- **cuDNN 工作区**（`Conv_v7.cpp`）：按卷积算法决定大小；`cudnn.benchmark = True` 会试各种算法，其中有的要很大的工作区。
- **cuFFT 计划**：每个缓存的计划的工作区（`torch.backends.cuda.cufft_plan_cache`，每台设备最多 4096 个计划）。
- **CUDA 图的私有内存池**（第 5.5 节）。

实验测量本机上这个进程的上下文（有 GPU 时为真实值：后端打开前后 NVML 报告的空闲显存之差；模拟器上为配置中的数字），把它放在 PyTorch 公布的数字旁边；然后经本机后端的缓存分配器为一到四个流分配 cuBLAS 工作区，看它们给 `memory_reserved()` 增加了多少。
]] },

  experiment {
    id = "non-torch",
    key = "ws",
    title = { en = "The share outside PyTorch, and what is inside it", zh = "PyTorch 之外的部分，以及其实在内的部分" },
    intro = { en = [[
This process's CUDA context from the ledger (measured on a GPU; SIMULATED: the profile's), beside
a PyTorch process's under lazy and eager loading (`vram.outside_torch`, published figures); then
one cuBLAS workspace per stream, at PyTorch's default size for this GPU's compute capability,
allocated through the caching allocator on this machine's backend.
]], zh = [[
从账本读出这个进程的 CUDA 上下文（有 GPU 时为实测；SIMULATED：配置中的数字），旁边是 PyTorch 进程在延迟加载和立即加载下的上下文（`vram.outside_torch`，公布的数字）；然后按本 GPU 计算能力下 PyTorch 的默认大小，经本机后端的缓存分配器为每个流分配一个 cuBLAS 工作区。
]] },
    panels = {
      { id = "ctx", kind = "bars", title = { en = "CUDA context", zh = "CUDA 上下文" }, unit = "MiB" },
      { id = "ws", kind = "bars", title = { en = "memory_reserved() with a cuBLAS workspace per stream", zh = "每个流一个 cuBLAS 工作区时的 memory_reserved()" }, unit = "MiB" },
      { id = "t", kind = "table", title = { en = "Workspaces through the caching allocator", zh = "经缓存分配器的工作区" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local MiB = units.MiB
      local l = alloc.ledger()
      local info = gpu.info()
      if l.context then ex:bar("ctx", T("this process (vramlab)", "本进程（vramlab）"), l.context / MiB, { style = l.simulated and "simulated" or "measured", unit = "MiB" }) end
      local o = vram.outside_torch {}
      ex:bar("ctx", T("PyTorch, lazy loading", "PyTorch，延迟加载"), o.context_lazy / MiB, { style = "reference", unit = "MiB" })
      ex:bar("ctx", T("PyTorch, eager loading", "PyTorch，立即加载"), o.context_eager / MiB, { style = "reference", unit = "MiB" })
      ex:note("ctx", T("vramlab loads only its own kernels: its context is what the driver and runtime take. PyTorch's figures: PR 86509, CUDA 11.7, one tensor created.",
                       "vramlab 只加载它自己的核函数：它的上下文就是驱动和运行时本身占的。PyTorch 的数字：PR 86509，CUDA 11.7，创建一个张量之后。"))
      local ws = vram.cublas_workspace { cc = info.compute_capability }
      local a <close> = alloc.caching {}
      ex:row("t", { T("streams", "流"), "memory_allocated", "memory_reserved", T("segments", "段") })
      for n = 1, 4 do
        local b, err = a:malloc(ws.per_pair, "cuBLAS workspace, stream " .. n)
        if not b then ex:note("t", tostring(err)); break end
        local st = a:stats()
        ex:row("t", { tostring(n), units.bytes(st.allocated), units.bytes(st.reserved), tostring(st.segments) })
        ex:bar("ws", string.format(T("%d stream(s)", "%d 个流"), n), st.reserved / MiB, { from = st, unit = "MiB" })
      end
      ex:note("t", T(string.format("Compute capability %s: PyTorch's default CUBLAS_WORKSPACE_CONFIG %s, %s per (handle, stream). Under 10 MiB a request shares 20 MiB segments; above, each gets its own.",
                                   tostring(info.compute_capability or "?"), ws.config, units.bytes(ws.per_pair)),
                     string.format("计算能力 %s：PyTorch 默认的 CUBLAS_WORKSPACE_CONFIG 为 %s，每个（句柄，流）%s。小于 10 MiB 的请求共用 20 MiB 的段；更大的各占一段。",
                                   tostring(info.compute_capability or "?"), ws.config, units.bytes(ws.per_pair))))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "cublas-streams",
    kind = "number",
    prompt = { en = "`CUBLAS_WORKSPACE_CONFIG=:4096:8` (8 buffers of 4096 KiB) and a job that runs matmuls on 4 CUDA streams through one cuBLAS handle. How many MiB (2^20 B) of cuBLAS workspace does PyTorch hold?",
               zh = "`CUBLAS_WORKSPACE_CONFIG=:4096:8`（8 个 4096 KiB 的缓冲区），一个任务经一个 cuBLAS 句柄在 4 个 CUDA 流上跑矩阵乘。PyTorch 持有多少 MiB（2^20 B）的 cuBLAS 工作区？" },
    answer = 128, unit = "MiB", tolerance = 0.01,
    mistakes = { { value = 32, say = { en = "That is one workspace: PyTorch keeps one per (handle, stream) pair, and there are four streams.", zh = "那是一个工作区：PyTorch 为每个（句柄，流）对各保留一个，这里有四个流。" } } },
    hints = { { en = "One workspace = 4096 KiB x 8; then one per stream.", zh = "一个工作区 = 4096 KiB × 8；然后每个流一个。" } },
    explain = { en = "4096 KiB x 8 = 32 MiB a pair, x 4 streams = 128 MiB — inside memory_reserved(), since the caching allocator holds them.",
                zh = "4096 KiB × 8 = 每对 32 MiB，× 4 个流 = 128 MiB——都在 memory_reserved() 之内，因为它们由缓存分配器持有。" },
  },

  exercise {
    id = "context-left",
    kind = "number",
    prompt = { en = "nvidia-smi shows 7.89 GiB for your process, `memory_reserved()` says 7.00 GiB, and the process has one NCCL communicator that takes 688 MB (1e6 B each). Nothing else allocates outside PyTorch. How many MiB (2^20 B) are left for the CUDA context?",
               zh = "nvidia-smi 显示你的进程占 7.89 GiB，`memory_reserved()` 是 7.00 GiB，这个进程有一个占 688 MB（每 MB 1e6 B）的 NCCL 通信器，此外没有别的东西在 PyTorch 之外分配。留给 CUDA 上下文的有多少 MiB（2^20 B）？" },
    answer = 0.89 * 1024 - 688e6 / 2^20, unit = "MiB", tolerance = 0.02,
    mistakes = { { value = 0.89 * 1024 - 688, say = { en = "688 MB are decimal: 688e6 B = 656.1 MiB.", zh = "688 MB 是十进制的：688e6 B = 656.1 MiB。" } },
                 { value = 0.89 * 1024, say = { en = "NCCL's buffers are outside PyTorch's allocator too: take them off.", zh = "NCCL 的缓冲区也在 PyTorch 的分配器之外：要减掉。" } } },
    hints = { { en = "Outside = nvidia-smi - reserved; then take NCCL off, converted to MiB.", zh = "之外的部分 = nvidia-smi − reserved；再减去 NCCL，换算成 MiB。" } },
    explain = { en = "0.89 GiB = 911.4 MiB; - 656.1 MiB of NCCL = 255 MiB: a context with lazy loading (PyTorch PR 86509: about 254 MiB). With eager loading it would be about 616 MiB.",
                zh = "0.89 GiB = 911.4 MiB；减去 NCCL 的 656.1 MiB = 255 MiB：这是延迟加载时的上下文（PyTorch PR 86509：约 254 MiB）。立即加载时会是约 616 MiB。" },
  },

  exercise {
    id = "inside-reserved",
    kind = "choice",
    prompt = { en = "Which of these counts in `torch.cuda.memory_reserved()`?",
               zh = "下面哪一项算在 `torch.cuda.memory_reserved()` 里？" },
    choices = {
      { en = "NCCL's communication buffers", zh = "NCCL 的通信缓冲区" },
      { en = "The CUDA context's loaded kernels", zh = "CUDA 上下文加载的核函数" },
      { en = "cuBLAS's workspace for a stream", zh = "某个流的 cuBLAS 工作区" },
    },
    answer = 3,
    why = { [1] = { en = "NCCL allocates its buffers itself (cudaMalloc or cuMem), outside PyTorch's allocator.", zh = "NCCL 自己分配缓冲区（cudaMalloc 或 cuMem），在 PyTorch 的分配器之外。" },
            [2] = { en = "The context is the driver's: no allocator sees it.", zh = "上下文是驱动的：任何分配器都看不到它。" } },
    hints = { { en = "Which of them does PyTorch allocate through its own caching allocator?", zh = "其中哪一个是 PyTorch 经它自己的缓存分配器分配的？" } },
    explain = { en = "PyTorch hands cuBLAS a workspace it allocated from the caching allocator (CublasHandlePool.cpp), so it is reserved and allocated memory; NCCL and the context are what nvidia-smi shows on top.",
                zh = "PyTorch 交给 cuBLAS 的工作区是它从缓存分配器分配的（CublasHandlePool.cpp），所以算在已预留和已分配里；NCCL 和上下文才是 nvidia-smi 额外显示的部分。" },
  },

  text { en = [[
> [!source] Sources
> PyTorch `c10/cuda/CUDACachingAllocator.cpp` (the message is built in `malloc` when
> `alloc_block` fails after `release_cached_blocks`); `torch.cuda.memory_stats`,
> `set_per_process_memory_fraction`; CUDA Runtime API `cudaMemGetInfo`; NVML
> `nvmlDeviceGetComputeRunningProcesses` (nvidia-smi's per-process figures); PyTorch
> `aten/src/ATen/cuda/CublasHandlePool.cpp` (cuBLAS workspaces held as `DataPtr`s from the caching
> allocator) and `aten/src/ATen/native/cudnn/Conv_v7.cpp` (cuDNN workspaces through the caching
> allocator); A100 80GB OOM messages in PyTorch issues ("79.15 GiB total capacity").
> The share outside PyTorch: PyTorch PR 86509 (CUDA 11.7: 287,047,680 B with lazy module loading,
> 666,632,192 B with `DEFAULT`, eager on that CUDA, one tensor created); `aten/src/ATen/cuda/detail/CUDAHooks.cpp`
> (`CUDAHooks::init` sets `CUDA_MODULE_LOADING=LAZY` unless set); CUDA C++ Programming Guide, "Lazy
> Loading" (the default from CUDA 12.2 on Linux, 12.3 on Windows); `CublasHandlePool.cpp` (`parseChosenWorkspaceSize`,
> `cublas_handle_stream_to_workspace`: one workspace per handle and stream) and PyTorch PRs 91564
> (32 MiB on Hopper), 175344 and 189312 (on Blackwell, SM 10.x to 12.x); PyTorch docs, "CUDA
> semantics" (cuBLAS workspaces, `CUBLAS_WORKSPACE_CONFIG`; the cuFFT plan cache,
> `cufft_plan_cache.max_size`); NCCL 2.30.7 `src/init.cc` and NVIDIA/nccl issue 964 (lesson 4.5).
> The estimators: `vram.outside_torch`, `vram.cublas_workspace` (`docs/vram-api.md`).
]], zh = [[
> [!source] 出处
> PyTorch `c10/cuda/CUDACachingAllocator.cpp`（`alloc_block` 在 `release_cached_blocks` 之后仍失败时，`malloc` 拼出这条报错）；`torch.cuda.memory_stats`、`set_per_process_memory_fraction`；CUDA Runtime API `cudaMemGetInfo`；NVML `nvmlDeviceGetComputeRunningProcesses`（nvidia-smi 的每进程数字）；PyTorch `aten/src/ATen/cuda/CublasHandlePool.cpp`（cuBLAS 工作区以来自缓存分配器的 `DataPtr` 持有）与 `aten/src/ATen/native/cudnn/Conv_v7.cpp`（cuDNN 工作区经缓存分配器申请）；PyTorch issue 中 A100 80GB 的 OOM 报错（“79.15 GiB total capacity”）。PyTorch 之外的部分：PyTorch PR 86509（CUDA 11.7：创建一个张量后，延迟加载 287,047,680 B，`DEFAULT`（在那个 CUDA 上即立即加载）时 666,632,192 B）；`aten/src/ATen/cuda/detail/CUDAHooks.cpp`（`CUDAHooks::init` 在未设置时把 `CUDA_MODULE_LOADING` 设为 `LAZY`）；CUDA C++ Programming Guide，“Lazy Loading”（Linux 上从 CUDA 12.2 起、Windows 上从 12.3 起为默认）；`CublasHandlePool.cpp`（`parseChosenWorkspaceSize`、`cublas_handle_stream_to_workspace`：每个句柄和流一个工作区）以及 PyTorch PR 91564（Hopper 上 32 MiB）、175344 和 189312（Blackwell，SM 10.x 到 12.x）；PyTorch 文档 “CUDA semantics”（cuBLAS 工作区、`CUBLAS_WORKSPACE_CONFIG`；cuFFT 计划缓存 `cufft_plan_cache.max_size`）；NCCL 2.30.7 `src/init.cc` 和 NVIDIA/nccl issue 964（第 4.5 节）。估算器：`vram.outside_torch`、`vram.cublas_workspace`（`docs/vram-api.md`）。
]] },
}
