-- Lesson 1.5: why memory management matters. Source: the lecture's section 1.5 and its closing
-- summary; the caching allocator is vramlab's model of PyTorch's (module `alloc`, rules in
-- docs/allocator.md) running on the current backend, and the remedies are quantified with `vram`.
local MiB, GiB = units.MiB, units.GiB
-- captured at load: an answer to the code exercise runs in this VM and could replace vram.training
local training = vram.training

-- per-block saved activations and outputs of ResNet-50 (stem, 16 bottlenecks, head)
local function resnet_blocks(r)
  local acts, outs, names, cur = {}, {}, {}, nil
  for _, l in ipairs(r.layers) do
    local key = l.name:match("^(layer%d%.%d+)%.") or l.stage
    if key ~= cur then acts[#acts + 1], outs[#outs + 1], names[#names + 1], cur = 0, 0, key, key end
    acts[#acts] = acts[#acts] + l.saved_bytes
    outs[#outs] = l.out_bytes
  end
  return acts, outs, names
end

-- what an allocator and the driver say, as one table row
local function snapshot(a)
  local s = a:stats()
  local free, total = gpu.mem()
  return s, total - free
end

-- the segments of the allocator as memory-map blocks (two per segment: allocated and cached)
local function map_blocks(a, T, context)
  local blocks = { { owner = T("CUDA context + others", "CUDA 上下文 + 其他"), state = "used", bytes = context } }
  for i, seg in ipairs(a:segments()) do
    local used = 0
    for _, b in ipairs(seg.blocks) do if b.allocated then used = used + b.size end end
    local name = T("segment ", "段 ") .. i .. " (" .. seg.pool .. ")"
    if #blocks < 14 then
      if used > 0 then blocks[#blocks + 1] = { owner = name, state = "allocated", bytes = used } end
      if seg.size > used then blocks[#blocks + 1] = { owner = name, state = "cached", bytes = seg.size - used } end
    end
  end
  local free = gpu.mem()
  blocks[#blocks + 1] = { owner = T("free (driver)", "空闲（驱动）"), state = "free", bytes = free }
  return blocks
end

return lesson {
  id = "1.5",
  chapter = 1,
  chapter_title = { en = "VRAM basics", zh = "显存基础概念" },
  title = { en = "Why memory management matters", zh = "显存管理为什么重要" },
  requires = { "gpu" },

  text { en = [[
# Why memory management matters

Everyone doing AI hits the VRAM wall sooner or later. The lecturer has seen it too many times: the
model is written, the first run dies with **OOM** (out of memory), and then come the rituals:
smaller batch, smaller model, even a new card. Quite often the real problem is how memory is
managed.

## PyTorch's caching allocator
`cudaMalloc` and `cudaFree` are slow (hundreds of microseconds for a large block, and `cudaFree`
waits for the whole device to finish its work). So PyTorch does not call them for every tensor. Its
**caching allocator** asks the driver for large *segments*, cuts tensors out of them, and when a
tensor dies keeps its block in a cache for the next tensor of a similar size. In short:

- a request is rounded up to a multiple of 512 bytes;
- requests up to 1 MiB share 2 MiB segments (the small pool), requests of 1-10 MiB share 20 MiB
  segments, larger ones get a segment of their own rounded up to 2 MiB;
- a request takes the smallest cached free block that is large enough (best fit), split if much
  larger.

The lecture: "PyTorch caches the memory allocator by default: after you `del` a tensor, the memory
is not handed back to the system at once; it stays in the cache. That is for speed, but if you don't
know it, VRAM seems to only ever go up." (Precisely: PyTorch uses a **caching allocator** by default,
and what it caches are blocks of memory, not the allocator itself.) Three numbers tell the story:

| What you ask | What it counts |
|---|---|
| `torch.cuda.memory_allocated()` | bytes in live tensors (rounded blocks) |
| `torch.cuda.memory_reserved()` | bytes the allocator holds from the driver: allocated + cached |
| `nvidia-smi` "Memory-Usage" | reserved + the CUDA context (hundreds of MiB: kernels, cuBLAS/cuDNN state) + other processes |

`del x` lowers the first, not the second or the third. The cached bytes are still yours: the next
tensor of that size reuses them without a `cudaMalloc`. Other processes cannot use them, and
`nvidia-smi` keeps showing them as used. `torch.cuda.empty_cache()` gives back the segments that are
**completely** free; a segment with one live block in it stays.
]], zh = [[
# 显存管理为什么重要

搞 AI 的人，迟早会遇到显存瓶颈。讲师见过太多人，模型写好了，一跑就 **OOM**（Out of Memory）。然后开始调 batch size、换小模型、甚至换显卡。其实很多时候，问题出在显存管理上。

## PyTorch 的缓存分配器
`cudaMalloc` 和 `cudaFree` 很慢（大块分配要几百微秒，`cudaFree` 还要等整个设备把手头的活干完）。所以 PyTorch 不会为每个张量都去调用它们。它的**缓存分配器**先向驱动要大块的*段*（segment），再从段里切出张量；张量销毁后，它占的块留在缓存里，给下一个大小相近的张量用。简单说：

- 请求大小向上取整到 512 字节的倍数；
- 不超过 1 MiB 的请求共用 2 MiB 的段（小池），1–10 MiB 的请求共用 20 MiB 的段，更大的请求单独占一个段，大小向上取整到 2 MiB；
- 请求优先取能装下它的最小的缓存空闲块（best fit），块大得多时会被切分。

讲义说：“PyTorch 默认会缓存显存分配器，你 del tensor 之后，显存不会立刻释放给系统，而是留在缓存里。这本身是为了加速，但如果你不注意，就会觉得显存‘只增不减’。”（准确地说：PyTorch 默认用的是一个**缓存分配器**，被缓存的是显存块，而不是分配器本身。）三个数字说明一切：

| 你查的是 | 它统计的是 |
|---|---|
| `torch.cuda.memory_allocated()` | 存活的张量占的字节（按取整后的块计） |
| `torch.cuda.memory_reserved()` | 分配器从驱动拿到的字节：已分配 + 缓存 |
| `nvidia-smi` 的 Memory-Usage | reserved + CUDA 上下文（几百 MiB：核函数、cuBLAS/cuDNN 的状态）+ 其他进程 |

`del x` 只会让第一个数变小，后两个不变。缓存的字节仍归你所有：下一个同样大小的张量直接复用，不用再调 `cudaMalloc`。但别的进程用不了，`nvidia-smi` 也一直显示它们被占着。`torch.cuda.empty_cache()` 只归还**完全**空闲的段；段里只要还有一个存活的块，整个段就留着。
]] },

  exercise {
    id = "reserved",
    kind = "predict",
    prompt = { en = "Predict, then measure on this GPU's backend: a caching allocator serves one 1000 MiB tensor, which is then freed (`del`). How many **MiB** does the allocator still reserve?",
               zh = "先预测，再在本机 GPU 后端上实测：缓存分配器分配一个 1000 MiB 的张量，随后释放（`del`）。分配器还预留着多少 **MiB**？" },
    unit = "MiB", tolerance = 0.05,
    measure = function()
      local a <close> = assert(alloc, "this build has no alloc module").caching {}
      local b = assert(a:malloc(math.min(1000 * MiB, gpu.budget() // 2)))
      a:free(b)
      return a:stats().reserved / MiB
    end,
    hints = { { en = "Freeing a tensor returns its block to whom? Large requests get their own segment, rounded up to 2 MiB.",
                zh = "释放张量后，块还给了谁？大请求单独占一个段，大小向上取整到 2 MiB。" } },
    explain = { en = "1000 MiB is already a multiple of 2 MiB, so the segment is exactly 1000 MiB, and after del it stays reserved (cached) until empty_cache().",
                zh = "1000 MiB 本来就是 2 MiB 的倍数，所以段正好 1000 MiB；del 之后它仍被预留（缓存着），直到调用 empty_cache()。" },
  },

  experiment {
    id = "cache",
    title = { en = "del, the cache and empty_cache, step by step", zh = "逐步观察 del、缓存与 empty_cache" },
    intro = { en = [[
A caching allocator (`alloc.caching{}`, vramlab's model of PyTorch's, segments taken from this
GPU's backend) runs a short script. After each line: allocated, reserved, what the driver reports
as used (total - free), and the number of `cudaMalloc` calls so far.

```
# PyTorch-like pseudo-code, sizes in bytes
x = torch.empty(N)            # one large tensor
ys = [torch.empty(100 KiB) for _ in range(40)]; z = torch.empty(3 MiB)
del x                         # allocated drops, reserved does not
x2 = torch.empty(N)           # served from the cache: no cudaMalloc
del x2, ys, z
torch.cuda.empty_cache()      # reserved drops, the driver sees it
```
]], zh = [[
用一个缓存分配器（`alloc.caching{}`，vramlab 对 PyTorch 分配器的建模，段从本机 GPU 后端申请）运行一段小脚本。每执行一行，记录：已分配、已预留、驱动报告的已用量（总量 − 空闲），以及到目前为止调用 `cudaMalloc` 的次数。

```
# 类 PyTorch 伪代码，大小以字节计
x = torch.empty(N)            # 一个大张量
ys = [torch.empty(100 KiB) for _ in range(40)]; z = torch.empty(3 MiB)
del x                         # allocated 下降，reserved 不变
x2 = torch.empty(N)           # 从缓存取：不调用 cudaMalloc
del x2, ys, z
torch.cuda.empty_cache()      # reserved 下降，驱动看得到
```
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "allocated / reserved / driver", zh = "已分配 / 已预留 / 驱动" } },
      { id = "m", kind = "map", title = { en = "Segments: allocated vs cached", zh = "各个段：已分配 vs 缓存" } },
      { id = "sum", kind = "table", title = { en = "memory_summary() after del x", zh = "del x 之后的 memory_summary()" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      if not alloc then
        ex:note("t", T("This build has no `alloc` module.", "此版本没有 `alloc` 模块。"))
        return
      end
      local free0, total = gpu.mem()
      local context = total - free0
      local N = math.max(64 * MiB, math.min(GiB, gpu.budget() // 4))
      local a <close> = alloc.caching {}
      ex:row("t", { T("Line", "语句"), T("allocated", "已分配"), T("reserved", "已预留"), T("driver: used", "驱动：已用"), "cudaMalloc" })
      local kept -- the map right after `del x`, shown again at the end
      local function step(label)
        local s, used = snapshot(a)
        ex:row("t", { label, units.bytes(s.allocated), units.bytes(s.reserved), units.bytes(used), tostring(s.num_device_alloc) })
        local blocks = map_blocks(a, T, context)
        ex:map("m", blocks, total)
        if label == "del x" then kept = blocks end
        ex:pause(1.2) -- one line of the script at a time in the tutor
        return s, used
      end
      step(T("(start)", "（开始）"))
      local x = assert(a:malloc(N))
      step("x = empty(" .. units.bytes(N) .. ")")
      local ys = {}
      for i = 1, 40 do ys[i] = assert(a:malloc(100 * 1024)) end
      local z = assert(a:malloc(3 * MiB))
      local s_small = step("ys = 40 x 100 KiB; z = 3 MiB")
      local a_segs_after_small = a:segments()
      a:free(x)
      local s_del, used_del = step("del x")
      -- memory_summary() is a 75-column text table: its rows go into a table panel, which wraps
      for line in a:summary():gmatch("[^\n]+") do
        local cells = {}
        for c in line:gmatch("|([^|]*)") do cells[#cells + 1] = c:match("^%s*(.-)%s*$") end
        if #cells == 6 and cells[6] == "" then cells[6] = nil end
        if #cells == 5 and cells[1] ~= "" then
          if cells[1]:find("^from ") then cells[1] = "· " .. cells[1] end
          ex:row("sum", cells)
        elseif #cells >= 2 and line:find("OOMs") then ex:note("sum", cells[1] .. ", " .. cells[2]) end
      end
      ex:note("sum", T("Non-releasable memory: free blocks inside segments that still hold a live tensor (most of it is the rest of z's 20 MiB segment). empty_cache() cannot return them.",
                       "Non-releasable memory（不可释放）：仍有存活张量的段里的空闲块（大部分是 z 所在 20 MiB 段的剩余部分）。empty_cache() 还不回去。"))
      local x2 = assert(a:malloc(N))
      local s_re = step("x2 = empty(" .. units.bytes(N) .. ")")
      a:free(x2)
      for i = 1, #ys do a:free(ys[i]) end
      a:free(z)
      step("del x2, ys, z")
      a:empty_cache()
      local s_end, used_end = step("empty_cache()")
      ex:note("t", T(string.format("After del x: allocated fell by %s, reserved and the driver's figure did not move. x2 reused the cached block: still %d cudaMalloc calls. empty_cache() returned %s to the driver; what remains used (%s) is the context and other processes.",
                                   units.bytes(N), s_re.num_device_alloc, units.bytes(s_del.reserved), units.bytes(used_end)),
                     string.format("del x 之后：已分配减少了 %s，已预留和驱动看到的数字都没变。x2 复用了缓存的块：cudaMalloc 仍是 %d 次。empty_cache() 把 %s 还给了驱动；剩下的已用量（%s）是上下文和其他进程。",
                                   units.bytes(N), s_re.num_device_alloc, units.bytes(s_del.reserved), units.bytes(used_end))))
      local small, large = 0, 0
      for _, seg in ipairs(a_segs_after_small) do if seg.pool == "small" then small = small + 1 else large = large + 1 end end
      ex:note("t", T(string.format("Rounding at work: each 100 KiB tensor is a 102,400 B block; 20 fit in a 2 MiB small-pool segment, so the 40 took %d small segments; the 3 MiB tensor took a 20 MiB segment of its own. Already before del, reserved - allocated = %s.",
                                   small, units.bytes(s_small.reserved - s_small.allocated)),
                     string.format("取整的效果：每个 100 KiB 的张量是一个 102,400 B 的块，一个 2 MiB 的小池段装 20 个，所以 40 个用了 %d 个小段；3 MiB 的张量单独占了一个 20 MiB 的段。还没 del，reserved − allocated 就已经是 %s。",
                                   small, units.bytes(s_small.reserved - s_small.allocated))))
      if kept then
        ex:map("m", kept, total)
        ex:note("m", T("The map shows the moment after `del x`: x's " .. units.bytes(N) .. " block is cached, not free; the driver still counts it as used.",
                       "布局图停在 `del x` 之后：x 的 " .. units.bytes(N) .. " 块处于缓存状态，而不是空闲；驱动仍把它算作已用。"))
      end
      if s_end.simulated then
        ex:note("m", T("SIMULATED backend: segments are tracked against the profile's capacity. The allocator's rules are PyTorch's (docs/allocator.md).",
                       "模拟后端：段按配置容量记账。分配器的规则与 PyTorch 一致（见 docs/allocator.md）。"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
> [!pitfall] `del` drops a name, not necessarily the tensor
> Memory returns to the cache only when the **last** reference dies. Classic leaks: `total_loss += loss` keeps every iteration's autograd graph alive (use `loss.item()`); a list of outputs kept "for later"; in Jupyter, the `Out[...]` history and a stored exception traceback holding a frame full of tensors.

> [!pitfall] `empty_cache()` right before a failing allocation gains nothing
> Before it reports out of memory, the allocator already frees every fully free cached segment and retries (`num_alloc_retries` counts it), so `empty_cache()` just before the allocation that fails changes nothing. Called every step, it has a price: each step gives its segments back and pays `cudaMalloc` for them again, and `cudaFree` waits for the device. It can still help against fragmentation, because it changes where the next long-lived tensors land; lesson 2.3 measures both sides. Its plain uses: handing memory to another process, and reading `nvidia-smi` honestly.

## Reading an OOM message
An OOM message says more than "buy a bigger card". The next experiment runs the allocator on a
**model device** of 100 MiB (not this GPU) through a textbook case of fragmentation: two 40 MiB
tensors are freed, two 30 MiB tensors reuse their segments and leave a 10 MiB sliver in each, and a
third 30 MiB tensor fails with 40 MiB free in total. Read the message: "Tried to allocate" is the
segment the allocator asked the device for; "reserved by PyTorch but unallocated" is the cache
(here the slivers, which cannot be returned while their segments are in use). The same script with
`expandable_segments:True` succeeds; chapter 2 explains why.
]], zh = [[
> [!pitfall] `del` 删掉的是名字，不一定是张量
> 只有**最后一个**引用消失，显存才会回到缓存。经典的泄漏：`total_loss += loss` 会让每次迭代的计算图都存活（应该用 `loss.item()`）；为了“以后用”而存起来的输出列表；Jupyter 里 `Out[...]` 的历史记录，以及保存下来的异常 traceback（它引用的栈帧里全是张量）。

> [!pitfall] 在失败的分配之前调 `empty_cache()` 没有用
> 分配器在报告显存不足之前，已经自己把所有完全空闲的缓存段释放掉并重试过了（`num_alloc_retries` 记录的就是这个），所以在那次失败的分配之前调用 `empty_cache()` 什么也改变不了。每一步都调用则有代价：每一步都把段还回去、再付一次 `cudaMalloc`，而 `cudaFree` 还要等设备把活干完。不过它仍可能缓解碎片，因为它改变了后面那些长期存活的张量落在哪里；第 2.3 节把两方面都测了出来。它的本职用途是把显存让给别的进程，以及让 `nvidia-smi` 的读数如实。

## 读懂 OOM 报错
OOM 报错说的不只是“该换大卡了”。下一个实验在一块 100 MiB 的**模型设备**上（不是本机 GPU）运行分配器，演示一个教科书式的碎片化场景：释放两个 40 MiB 的张量，两个 30 MiB 的张量复用它们的段，各留下一条 10 MiB 的缝隙；第三个 30 MiB 的张量申请失败，而此时空闲总量有 40 MiB。仔细读报错：“Tried to allocate”是分配器向设备申请的段大小；“reserved by PyTorch but unallocated”就是缓存（这里就是那两条缝隙，它们所在的段还在用，所以还不回去）。同样的脚本加上 `expandable_segments:True` 就能成功；原因留到第 2 章讲。
]] },

  experiment {
    id = "oom",
    title = { en = "An OOM with 40 MiB free", zh = "空闲 40 MiB 却报 OOM" },
    intro = { en = [[
`alloc.model{capacity = "100MiB"}`: the allocator on a model device, the same on every machine.
]], zh = [[
`alloc.model{capacity = "100MiB"}`：分配器运行在一块模型设备上，在任何机器上结果都一样。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "The script", zh = "脚本" } },
      { id = "msg", kind = "table", title = { en = "PyTorch-shaped OOM message", zh = "PyTorch 格式的 OOM 报错" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      if not alloc then
        ex:note("t", T("This build has no `alloc` module.", "此版本没有 `alloc` 模块。"))
        return
      end
      local function play(opts, label)
        local a <close> = alloc.model(opts)
        local p = assert(a:malloc(40 * MiB)); local q = assert(a:malloc(40 * MiB))
        a:free(p); a:free(q)
        local r1 = assert(a:malloc(30 * MiB)); local r2 = assert(a:malloc(30 * MiB))
        local r3, err = a:malloc(30 * MiB)
        local s = a:stats()
        ex:row("t", { label, units.bytes(s.allocated), units.bytes(s.reserved), units.bytes(s.capacity - s.reserved),
                      r3 and T("third 30 MiB: ok", "第三个 30 MiB：成功") or T("third 30 MiB: OOM", "第三个 30 MiB：OOM") })
        if r3 then a:free(r3) end
        a:free(r1); a:free(r2)
        return err
      end
      ex:row("t", { T("Allocator", "分配器"), T("allocated", "已分配"), T("reserved", "已预留"), T("device free", "设备空闲"), T("result", "结果") })
      local err = play({ capacity = "100MiB" }, T("default", "默认"))
      play({ capacity = "100MiB", expandable_segments = true }, "expandable_segments")
      if err then
        local rest = err
        for sentence, tail in err:gmatch("(.-%.)%s+()") do
          ex:row("msg", { sentence })
          rest = err:sub(tail)
        end
        if rest:find("%S") then ex:row("msg", { rest }) end
      end
      ex:note("msg", T("Free in total: 20 MiB on the device + two 10 MiB slivers in the cache = 40 MiB, but no 30 MiB in one piece.",
                       "空闲总量：设备上 20 MiB + 缓存里两条 10 MiB 的缝隙 = 40 MiB，但没有一块连续的 30 MiB。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Remedies, with numbers
The lecture's advice from lesson 1.3: when VRAM runs short, reach first for **gradient
checkpointing** or **model parallelism**, not for swapping to system RAM. Lesson 1.3's errata showed
that mixed precision was not what swapped, and that offloading done right is a remedy too. What does
each buy? It depends on **which owner dominates**: for a CNN at a decent
batch size, the activations; for an LLM, the model states.

- **Smaller batch**: activations shrink in proportion; weights, gradients and optimizer state do not.
- **Gradient checkpointing** (Chen et al., 2016, "Training Deep Nets with Sublinear Memory Cost";
  `torch.utils.checkpoint`): keep only the input of each segment during the forward pass, and
  recompute one segment at a time during backward. With L equal layers in √L segments the peak is
  about 2√L layers' worth instead of L, for one extra forward pass (about +33 % compute when the
  backward costs twice the forward). It does nothing for the model states.
- **Model parallelism and sharding**: split the model states over N GPUs. ZeRO (Rajbhandari et al.,
  2020; DeepSpeed, PyTorch FSDP) shards the optimizer state (stage 1), then the gradients (stage 2),
  then the weights (stage 3): per GPU 16Ψ becomes 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N. Tensor and
  pipeline parallelism also split the activations, at the cost of communication.
- **CPU offload** (ZeRO-Offload, Ren et al. 2021; FSDP `CPUOffload`): the fp32 master copy and the
  optimizer state (12 B per parameter with Adam) live in host RAM and the CPU runs the update; each
  step sends the 16-bit gradients down and the 16-bit weights up over PCIe. It frees VRAM for the
  price of PCIe time, which pays only when a step computes for longer than the copies take. A naive
  swap that moves the optimizer state both ways every step costs six times as much traffic. The
  experiment below puts both on a 7B model.
- **Mixed precision**: the part the lecture leaves loose.

> [!errata] What mixed precision really saves
> With Adam, **nothing on the parameter side**: fp16 weights 2 + fp16 gradients 2 + fp32 master copy 4 + fp32 Adam m and v 8 = **16 bytes/param**, exactly what fp32 Adam takes (4 + 4 + 8). That is the ZeRO paper's 16Ψ (sec. 3.1). PyTorch's `torch.autocast` keeps the model in fp32 (4 + 4 + 8 = 16) and, during the forward pass, also caches fp16 copies of the weights (+2). What mixed precision does save is **activation memory, roughly half** (most ops run in fp16; a few, like softmax and losses, stay in fp32), and it makes the math much faster on tensor cores. Training purely in bf16 without a master copy (2 + 2 + 4 = 8) does halve the model states, but updates smaller than bf16's precision (8 significant bits, about 2-3 decimal digits) are rounded away. Under `autocast` the input batch also stays fp32; the table below counts it in fp16 (19 MB instead of 38.5 MB), which changes no conclusion.
> Source: Rajbhandari et al., "ZeRO", SC 2020, sec. 3.1; Micikevicius et al., "Mixed Precision Training", ICLR 2018; PyTorch docs "torch.amp" (autocast op lists, the fp16 weight cast cache); the experiment below (`vram.resnet50`, `vram.training`).
]], zh = [[
## 对症下药，用数字说话
第 1.3 节讲师的避坑经验：显存不够时，优先考虑**梯度检查点**或**模型并行**，而不是依赖内存交换。第 1.3 节的勘误已经说明：搬数据的不是混合精度，而做对了的卸载同样是一种办法。这几种办法各能省多少？要看**谁是大头**：batch 不算小的 CNN，大头是激活值；LLM 的大头是模型状态。

- **减小 batch**：激活值按比例减少；权重、梯度、优化器状态纹丝不动。
- **梯度检查点**（Chen 等，2016，《Training Deep Nets with Sublinear Memory Cost》；`torch.utils.checkpoint`）：前向传播时只保留每段的输入，反向传播时一段一段地重算。L 个相同的层分成 √L 段，峰值从 L 层降到约 2√L 层，代价是多做一次前向（反向按前向的两倍计，计算量约 +33%）。它对模型状态毫无帮助。
- **模型并行与切分**：把模型状态分到 N 张卡上。ZeRO（Rajbhandari 等，2020；DeepSpeed、PyTorch FSDP）先切优化器状态（stage 1），再切梯度（stage 2），最后切权重（stage 3）：每张卡的 16Ψ 依次变成 4Ψ + 12Ψ/N、2Ψ + 14Ψ/N、16Ψ/N。张量并行和流水线并行还能把激活值也分开，代价是通信。
- **卸载到 CPU**（ZeRO-Offload，Ren 等 2021；FSDP `CPUOffload`）：fp32 主副本和优化器状态（Adam 下每参数 12 B）放在主机内存里，由 CPU 做参数更新；每一步经 PCIe 把 16 位梯度传下去、16 位权重传上来。它用 PCIe 时间换显存，只有当一步的计算时间比这些拷贝更长时才划算。每一步把优化器状态来回搬一遍的天真交换，流量是它的六倍。下面的实验给 7B 模型算了这两笔账。
- **混合精度**：讲义在这里说得不够准确。

> [!errata] 混合精度到底省了什么
> 用 Adam 时，**参数这一侧一点都没省**：fp16 权重 2 + fp16 梯度 2 + fp32 主副本 4 + fp32 的 Adam m 和 v 共 8 = **每参数 16 字节**，和 fp32 Adam（4 + 4 + 8）完全一样。这就是 ZeRO 论文里的 16Ψ（第 3.1 节）。PyTorch 的 `torch.autocast` 让模型保持 fp32（4 + 4 + 8 = 16），前向传播时还会缓存权重的 fp16 副本（+2）。混合精度真正省下的是**激活值，大约一半**（大多数算子用 fp16 跑，softmax、损失函数等少数仍用 fp32），同时让 Tensor Core 上的计算快得多。完全用 bf16 训练、不留主副本（2 + 2 + 4 = 8）确实能把模型状态减半，但 bf16 只有 8 位有效数字（约 2–3 位十进制精度），比这更小的更新量会被直接舍掉。在 `autocast` 下输入 batch 也仍是 fp32；下表按 fp16 计（19 MB 而不是 38.5 MB），不影响结论。
> 出处：Rajbhandari 等，《ZeRO》，SC 2020，第 3.1 节；Micikevicius 等，《Mixed Precision Training》，ICLR 2018；PyTorch 文档“torch.amp”（autocast 的算子清单、fp16 权重的缓存）；下面的实验（`vram.resnet50`、`vram.training`）。
]] },

  experiment {
    id = "remedies",
    title = { en = "Remedies quantified", zh = "各种办法的量化对比" },
    intro = { en = [[
Estimates with `vram`: ResNet-50 at batch 64 with Adam (activations dominate), then the 7B model
with mixed-precision Adam (model states dominate). Checkpointing is per bottleneck block (18
pieces: stem, 16 blocks, head) and in √18 ≈ 4 equal-count segments.
]], zh = [[
用 `vram` 估算：先是 batch 64、Adam 训练的 ResNet-50（激活值是大头），再是混合精度 Adam 训练的 7B 模型（模型状态是大头）。检查点按 bottleneck 块划分（18 段：stem、16 个块、head），以及按个数均分成 √18 ≈ 4 段。
]] },
    panels = {
      { id = "cnn", kind = "table", title = { en = "ResNet-50, batch 64, Adam", zh = "ResNet-50，batch 64，Adam" } },
      { id = "bars", kind = "bars", title = { en = "ResNet-50 footprint", zh = "ResNet-50 占用" }, unit = "GB" },
      { id = "llm", kind = "table", title = { en = "7B model, mixed-precision Adam, per GPU", zh = "7B 模型，混合精度 Adam，每张卡" } },
      { id = "off", kind = "table", title = { en = "7B model: CPU offload over PCIe, per step (A100 80GB, 2048 tokens)", zh = "7B 模型：经 PCIe 卸载到 CPU，每一步（A100 80GB，2048 个 token）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local base = vram.resnet50 { batch = 64, dtype = "fp32", optimizer = "adam" }
      local half = vram.resnet50 { batch = 32, dtype = "fp32", optimizer = "adam" }
      local amp = vram.resnet50 { batch = 64, dtype = "fp16", optimizer = "adam" }
      local states = base.param_bytes + base.gradient_bytes + base.master_bytes + base.optimizer_bytes
      local acts, outs = resnet_blocks(base)
      local ck_block = vram.checkpointing { activations = acts, outputs = outs, segments = #acts }
      local ck_sqrt = vram.checkpointing { activations = acts, outputs = outs }
      local rows = {
        { T("baseline fp32", "基线 fp32"), states, base.input_bytes, base.activation_bytes, T("-", "-") },
        { T("batch 32", "batch 32"), states, half.input_bytes, half.activation_bytes, T("half the images per step", "每步图片减半") },
        { T("checkpoint every block", "每个块做检查点"), states, base.input_bytes, ck_block.peak, T("+1 forward (~+33% compute)", "多一次前向（计算约 +33%）") },
        { T("checkpoint, 4 segments", "检查点，4 段"), states, base.input_bytes, ck_sqrt.peak, T("+1 forward; segments uneven", "多一次前向；各段不均") },
        { T("mixed precision (fp16)", "混合精度（fp16）"), amp.param_bytes + amp.gradient_bytes + amp.master_bytes + amp.optimizer_bytes,
          amp.input_bytes, amp.activation_bytes, T("model states unchanged", "模型状态不变") },
      }
      ex:row("cnn", { T("Remedy", "办法"), T("Model states", "模型状态"), T("Input", "输入"), T("Activations", "激活值"), T("Total", "合计"), T("Cost", "代价") })
      for _, r in ipairs(rows) do
        local total = r[2] + r[3] + r[4]
        ex:row("cnn", { r[1], units.si(r[2]), units.si(r[3]), units.si(r[4]), units.si(total), r[5] })
        ex:bar("bars", r[1], total / 1e9, { style = "theoretical" })
      end
      ex:note("cnn", T(string.format("Model states = weights + grads (+ fp32 master) + Adam m, v = 16 B/param either way: %s fp32, %s mixed. Checkpointing keeps the block outputs (%s) plus one block recomputed (largest %s).",
                                     units.si(states), units.si(amp.param_bytes + amp.gradient_bytes + amp.master_bytes + amp.optimizer_bytes),
                                     units.si(ck_block.kept), units.si(ck_block.recompute)),
                       string.format("模型状态 = 权重 + 梯度（+ fp32 主副本）+ Adam m、v，两种情况都是每参数 16 B：fp32 %s，混合精度 %s。检查点保留各块的输出（%s），外加重算的一个块（最大 %s）。",
                                     units.si(states), units.si(amp.param_bytes + amp.gradient_bytes + amp.master_bytes + amp.optimizer_bytes),
                                     units.si(ck_block.kept), units.si(ck_block.recompute))))

      local P = 7e9
      ex:row("llm", { T("Layout", "方式"), T("GPUs", "卡数"), T("Per GPU", "每张卡"), T("On 16 GiB cards", "16 GiB 卡上") })
      local cases = {
        { T("one GPU", "单卡"), 1, vram.training { params = P, mixed_precision = true }.total },
        { "ZeRO-1 (optimizer)", 8, vram.zero { params = P, gpus = 8, stage = 1 } },
        { "ZeRO-2 (+ gradients)", 8, vram.zero { params = P, gpus = 8, stage = 2 } },
        { "ZeRO-3 / FSDP (+ weights)", 8, vram.zero { params = P, gpus = 8, stage = 3 } },
        { "ZeRO-3 / FSDP", 16, vram.zero { params = P, gpus = 16, stage = 3 } },
      }
      for _, c in ipairs(cases) do
        ex:row("llm", { c[1], tostring(c[2]), vram.both(c[3]), c[3] <= 16 * GiB and T("fits, before activations", "装得下（未计激活值）") or T("no", "装不下") })
      end
      ex:note("llm", T("ZeRO, Rajbhandari et al. 2020, fig. 1: per-GPU model states 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N. Sharding adds communication: each step gathers what it needs.",
                       "ZeRO，Rajbhandari 等 2020，图 1：每张卡的模型状态为 16Ψ、4Ψ + 12Ψ/N、2Ψ + 14Ψ/N、16Ψ/N。切分会带来通信：每一步都要把需要的部分收集过来。"))

      -- offload: bytes per step over PCIe against the step's compute (vram.offload, docs/vram-train.md)
      ex:row("off", { T("Offload", "卸载方式"), T("PCIe", "PCIe"), T("On the GPU", "GPU 上"), T("Each way", "每个方向"),
                      T("PCIe time", "PCIe 时间"), T("Compute", "计算"), T("Pays from", "划算的起点") })
      local TOKENS = 2048
      for _, c in ipairs { { "zero_offload", 4 }, { "zero_offload", 5 }, { "optimizer_swap", 4 }, { "optimizer_swap", 5 } } do
        local o = vram.offload { params = P, tokens = TOKENS, mode = c[1], pcie = vram.pcie(c[2]), gpu = "a100-80gb" }
        ex:row("off", { c[1] == "zero_offload" and T("ZeRO-Offload", "ZeRO-Offload") or T("naive swap of the state", "天真地交换状态"),
                        T("gen ", "第 ") .. c[2] .. T(" x16", " 代 x16"), units.si(o.gpu_bytes), units.si(o.h2d_bytes),
                        string.format("%.2f s", o.transfer_seconds), string.format("%.2f s", o.compute_seconds),
                        string.format(T("%.0f tokens/step", "每步 %.0f 个 token"), o.breakeven_tokens) })
      end
      local z = vram.offload { params = P, tokens = TOKENS, pcie = vram.pcie(4), gpu = "a100-80gb" }
      ex:note("off", T(string.format("PCIe time counts the two directions one after the other at the link's theoretical rate (gen 4 x16: %s per direction); measured copies reach 80-90 %% of it, and overlapping both directions halves it. Compute = 6 x params x tokens at 40 %% of the A100's %.0f TFLOPS. ZeRO-Offload at %d tokens: %.2f s of PCIe against %.2f s of compute, so it pays from %.0f tokens a step. The CPU's own Adam update is not counted.",
                                     units.rate(vram.pcie(4)), vram.gpu_spec("a100-80gb").flops / 1e12, TOKENS, z.transfer_seconds, z.compute_seconds, z.breakeven_tokens),
                       string.format("PCIe 时间按链路理论速率、两个方向先后进行计算（第 4 代 x16：每方向 %s）；实测拷贝能达到它的 80–90%%，两个方向同时传则减半。计算 = 6 × 参数量 × token 数，按 A100 %.0f TFLOPS 的 40%% 计。ZeRO-Offload 在 %d 个 token 时：PCIe %.2f 秒对计算 %.2f 秒，所以每步 %.0f 个 token 起才划算。CPU 自己做 Adam 更新的时间没有计入。",
                                     units.rate(vram.pcie(4)), vram.gpu_spec("a100-80gb").flops / 1e12, TOKENS, z.transfer_seconds, z.compute_seconds, z.breakeven_tokens)))
      ex:note("off", T("Sources: Ren et al., \"ZeRO-Offload\", USENIX ATC 2021 (16-bit gradients down, 16-bit weights up); PCI-SIG base specifications (rates, 128b/130b); NVIDIA A100 datasheet (312 TFLOPS dense BF16).",
                       "出处：Ren 等，《ZeRO-Offload》，USENIX ATC 2021（16 位梯度下行、16 位权重上行）；PCI-SIG 基础规范（速率、128b/130b）；NVIDIA A100 数据表（稠密 BF16 312 TFLOPS）。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## In one sentence
VRAM is the lifeline of AI computing: if you do not understand it, you cannot really control the
performance of training or inference. This chapter covered what VRAM is, what it holds, how it
differs from system RAM, how it evolved and why managing it matters. Chapter 2 goes into the
allocation mechanism: how the GPU, the driver and PyTorch actually manage this "golden warehouse".

> [!source] Sources
> - PyTorch `c10/cuda/CUDACachingAllocator.cpp` (the header comment: "the smallest cached block that will fit"; `round_size`, `get_free_block`, `release_cached_blocks`, the OOM message in `malloc`); PyTorch docs, "CUDA semantics: Memory management"; vramlab's docs/allocator.md maps each rule to its line.
> - CUDA C++ Best Practices Guide, "Memory Allocation" (cudaMalloc and cudaFree are expensive).
> - Chen et al., "Training Deep Nets with Sublinear Memory Cost", 2016; PyTorch docs, `torch.utils.checkpoint`.
> - Rajbhandari et al., "ZeRO", SC 2020 (sec. 3.1 and fig. 1); Ren et al., "ZeRO-Offload", USENIX ATC 2021; PyTorch FSDP docs (`CPUOffload`).
> - Micikevicius et al., "Mixed Precision Training", ICLR 2018; PyTorch docs "torch.amp".
> - NVIDIA A100 datasheet (312 TFLOPS dense BF16, PCIe gen 4); PCI-SIG base specifications.
]], zh = [[
## 一句话总结
显存是 AI 计算的“命门”。不理解显存，你就无法真正掌控模型训练和推理的性能。这一章把显存的基础概念讲清楚了：它是什么、干什么用、跟内存有什么区别、怎么一代代演进、为什么要管好它。下一章我们深入显存的分配机制，看看 GPU、驱动和 PyTorch 到底是怎么管理这块“黄金仓库”的。

> [!source] 出处
> - PyTorch `c10/cuda/CUDACachingAllocator.cpp`（文件头注释“the smallest cached block that will fit”；`round_size`、`get_free_block`、`release_cached_blocks`、`malloc` 里的 OOM 报错）；PyTorch 文档“CUDA semantics：Memory management”；vramlab 的 docs/allocator.md 把每条规则对应到源码行。
> - CUDA C++ Best Practices Guide“Memory Allocation”（cudaMalloc 和 cudaFree 开销很大）。
> - Chen 等，《Training Deep Nets with Sublinear Memory Cost》，2016；PyTorch 文档 `torch.utils.checkpoint`。
> - Rajbhandari 等，《ZeRO》，SC 2020（第 3.1 节与图 1）；Ren 等，《ZeRO-Offload》，USENIX ATC 2021；PyTorch FSDP 文档（`CPUOffload`）。
> - Micikevicius 等，《Mixed Precision Training》，ICLR 2018；PyTorch 文档“torch.amp”。
> - NVIDIA A100 数据表（稠密 BF16 312 TFLOPS，PCIe 第 4 代）；PCI-SIG 基础规范。
]] },

  exercise {
    id = "del",
    kind = "choice",
    prompt = { en = "A 1 GiB tensor `x` is the only tensor a PyTorch process has. After `del x`, what happens?",
               zh = "某个 PyTorch 进程里只有一个 1 GiB 的张量 `x`。执行 `del x` 之后会怎样？" },
    choices = {
      { en = "memory_allocated, memory_reserved and nvidia-smi all drop by 1 GiB", zh = "memory_allocated、memory_reserved 和 nvidia-smi 都减少 1 GiB" },
      { en = "memory_allocated drops by 1 GiB; memory_reserved and nvidia-smi do not change", zh = "memory_allocated 减少 1 GiB；memory_reserved 和 nvidia-smi 不变" },
      { en = "Nothing changes until the Python garbage collector runs", zh = "在 Python 垃圾回收运行之前什么都不变" },
      { en = "nvidia-smi drops, but memory_reserved does not", zh = "nvidia-smi 减少，但 memory_reserved 不变" },
    },
    answer = 2,
    hints = { { en = "Who owns the block after the tensor dies: the driver, or the allocator's cache?", zh = "张量销毁之后，这块显存归谁：驱动，还是分配器的缓存？" } },
    explain = { en = "The block goes back to the caching allocator, not to the driver: allocated drops, reserved stays, and nvidia-smi (reserved + context) stays. torch.cuda.empty_cache() would return it. (CPython frees x at once when its reference count reaches zero.)",
                zh = "这块显存回到缓存分配器，而不是驱动：allocated 下降，reserved 不变，nvidia-smi（reserved + 上下文）也不变。调用 torch.cuda.empty_cache() 才会还回去。（CPython 在引用计数归零时立刻释放 x。）" },
  },

  exercise {
    id = "adam-code",
    kind = "code",
    prompt = { en = [[
Write `adam_bytes(params)` returning the bytes of model states for **mixed-precision Adam**
training of a model with `params` parameters: fp16 weights and gradients, an fp32 master copy, and
Adam's two fp32 moments (no activations). One line is enough:
`function adam_bytes(params) return ... end`
]], zh = [[
写一个函数 `adam_bytes(params)`，返回 `params` 个参数的模型用**混合精度 Adam** 训练时模型状态占的字节数：fp16 的权重和梯度、fp32 主副本，以及 Adam 的两个 fp32 矩（不含激活值）。一行就够：`function adam_bytes(params) return ... end`
]] },
    entry = "adam_bytes",
    starter = [[
function adam_bytes(params)
  return 0
end
]],
    check = function(fn)
      for _, p in ipairs { 1, 1000, 7e9, 25557032 } do
        local want = training { params = p, mixed_precision = true, optimizer = "adam" }.total
        local got = fn(p)
        if got ~= want then
          local ratio = type(got) == "number" and got / p or nil
          return false, { en = string.format("adam_bytes(%.0f) returned %s%s.", p, tostring(got), ratio and string.format(" (%.4g bytes/param)", ratio) or ""),
                          zh = string.format("adam_bytes(%.0f) 返回了 %s%s。", p, tostring(got), ratio and string.format("（每参数 %.4g 字节）", ratio) or "") }
        end
      end
      return true
    end,
    hints = {
      { en = "Count bytes per parameter, tensor by tensor: which tensors does mixed-precision Adam keep, and in which precision is each?", zh = "按张量逐个数每个参数的字节：混合精度 Adam 要保留哪些张量，各自是什么精度？" },
      { en = "Did you count the fp32 master copy of the weights? The optimizer updates it, not the fp16 weights.", zh = "fp32 的权重主副本算进去了吗？优化器更新的是它，而不是 fp16 权重。" },
    },
    explain = { en = "adam_bytes = 16 * params: 2 + 2 + 4 + 4 + 4 (ZeRO's 16Ψ). 7B parameters: 112 GB.",
                zh = "adam_bytes = 16 * params：2 + 2 + 4 + 4 + 4（ZeRO 的 16Ψ）。7B 参数：112 GB。" },
  },

  exercise {
    id = "amp",
    kind = "choice",
    prompt = { en = "You switch a model trained with fp32 Adam to mixed precision (fp16 weights and gradients, fp32 master copy and Adam). What shrinks?",
               zh = "把一个用 fp32 Adam 训练的模型改成混合精度（fp16 权重和梯度，fp32 主副本和 Adam）。什么变小了？" },
    choices = {
      { en = "Everything by half", zh = "全部减半" },
      { en = "The model states (weights, gradients, optimizer) by half", zh = "模型状态（权重、梯度、优化器）减半" },
      { en = "Mostly the activations (about half); the model states stay at 16 bytes/param", zh = "主要是激活值（约一半）；模型状态仍是每参数 16 字节" },
      { en = "Nothing; mixed precision only makes training faster", zh = "什么都没变小；混合精度只是让训练更快" },
    },
    answer = 3,
    hints = { { en = "Count bytes per parameter before and after: which tensors become 16-bit, and which new one appears?", zh = "分别算前后每个参数的字节数：哪些张量变成了 16 位，又多出了哪个新的？" } },
    explain = { en = "fp32 Adam: 4 + 4 + 8 = 16 B/param. Mixed: 2 + 2 + 4 (master) + 8 = 16 B/param. The saving is in the activations, which are stored in fp16.",
                zh = "fp32 Adam：4 + 4 + 8 = 每参数 16 B。混合精度：2 + 2 + 4（主副本）+ 8 = 每参数 16 B。省下来的是以 fp16 存储的激活值。" },
  },

  exercise {
    id = "checkpoint",
    kind = "number",
    prompt = { en = "A network has 100 equal layers, each saving 50 MB of activations. With gradient checkpointing in 10 equal segments, the forward pass keeps the input of every segment (50 MB each, the first segment's included) and the backward pass recomputes one segment at a time. What is the peak activation memory in **MB**?",
               zh = "某网络有 100 个相同的层，每层保留 50 MB 激活值。分成 10 个相等的段做梯度检查点：前向传播保留每一段的输入（每个 50 MB，第一段的输入也算），反向传播一次重算一段。激活值峰值是多少 **MB**？" },
    answer = 1000, unit = "MB", tolerance = 0.02,
    mistakes = {
      { value = 950, say = { en = "That leaves out the first segment's input; this question counts it, as lesson 4.3 keeps k segment inputs.",
                             zh = "那没算第一段的输入；这道题要算它，就像第 4.3 节保留 k 个段输入那样。" } },
      { value = 500, say = { en = "At the peak both are held: the 10 segment inputs and the 10 layers of the segment being recomputed.",
                             zh = "峰值时两样都在：10 个段输入，加上正在重算的那一段的 10 层。" } },
    },
    hints = {
      { en = "During the forward pass, what is kept for each segment?", zh = "前向传播时，每一段保留了什么？" },
      { en = "During backward, how many layers' activations exist at once while one segment is recomputed?", zh = "反向传播重算某一段时，同时存在多少层的激活值？" },
    },
    explain = { en = "10 segment inputs x 50 MB = 500 MB kept, plus one segment of 10 layers recomputed = 500 MB: 1000 MB, the 2√L = 20 layers' worth of the text, instead of 5000 MB, for one extra forward pass. (A framework that does not keep the first segment's input, the batch itself, would count 950 MB.)",
                zh = "保留 10 个段输入 × 50 MB = 500 MB，再加重算的一段 10 层 = 500 MB：共 1000 MB，即正文说的 2√L = 20 层，而不是 5000 MB，代价是多一次前向。（不保留第一段输入——也就是批数据本身——的框架会算成 950 MB。）" },
  },

  exercise {
    id = "zero3",
    kind = "number",
    prompt = { en = "The 7e9-parameter model, mixed-precision Adam, fully sharded (ZeRO-3 / FSDP) over 8 GPUs: how many **GB** of model states per GPU?",
               zh = "7e9 参数的模型，混合精度 Adam，在 8 张卡上完全切分（ZeRO-3 / FSDP）：每张卡的模型状态是多少 **GB**？" },
    answer = 14, unit = "GB", tolerance = 0.02,
    hints = { { en = "Start from the total bytes per parameter, then ask which of those tensors stage 3 splits.", zh = "先算每个参数的总字节数，再想 stage 3 切分了其中哪些张量。" } },
    explain = { en = "16 B/param x 7e9 = 112 GB, all of it sharded: 112 / 8 = 14 GB per GPU (13.04 GiB), before activations and communication buffers.",
                zh = "每参数 16 B × 7e9 = 112 GB，全部切分：112 / 8 = 每张卡 14 GB（13.04 GiB），还没算激活值和通信缓冲。" },
  },
}
