-- Lesson 2.6: read your own program's memory - recording a PyTorch memory snapshot, reading its
-- timeline, peak and top allocations, and replaying it with other allocator settings. The
-- experiments open the shipped example (assets/snapshots/gpt-train-oom.pickle, SYNTHETIC: written
-- by tests/snapshot/make_example.py) through alloc.snapshot; the replay is vramlab's model of
-- PyTorch's caching allocator, SIMULATED on every backend.
local GiB, MiB = units.GiB, units.MiB
local SNAP = "assets/snapshots/gpt-train-oom.pickle"

local function gib(n) return string.format("%.2f GiB", n / GiB) end
local function size(n) return n >= GiB and gib(n) or string.format("%.1f MiB", n / MiB) end
-- "/home/alice/nanogpt/model.py:178" -> "model.py:178"
local function short(where) return (where:gsub("^.*/", "")) end

return lesson {
  id = "2.6",
  chapter = 2,
  chapter_title = { en = "How VRAM is allocated", zh = "显存分配机制" },
  title = { en = "Read your own snapshot", zh = "读懂你自己的显存快照" },

  text { en = [[
# Read your own snapshot

Lessons 2.2-2.5 ran allocators on workloads vramlab made up. Your own training job has a record
of its own: PyTorch can write down every segment its caching allocator took from CUDA, every
block in them, and every allocation and free with the Python stack that made it. That file is a
**memory snapshot**, and it answers the questions `nvidia-smi` cannot: *what* was alive at the
peak, *which line* made it, and whether the OOM was a lack of memory or of *contiguous* memory.

## Recording one
```
import torch
torch.cuda.memory._record_memory_history(max_entries=100_000)  # start recording
# ... run a few training steps ...
torch.cuda.memory._dump_snapshot("snapshot.pickle")            # state now + the history
torch.cuda.memory._record_memory_history(enabled=None)         # stop recording
```
- **`max_entries`** bounds the history: it is a ring buffer, and once it is full the oldest
  entries are dropped. 100 000 entries cover a few steps of a mid-size model; raise it if the
  snapshot starts after the part you care about.
- `stacks="python"` records Python frames only (smaller files); the default `"all"` adds C++
  frames.
- To catch an out-of-memory error, dump from an observer, which PyTorch calls before it raises:
  `torch._C._cuda_attach_out_of_memory_observer(fn)` with
  `fn(device, alloc, device_alloc, device_free)` calling `_dump_snapshot`.

Open the file with `vramlab snapshot FILE` (text, `--json`, a what-if replay; docs/snapshot.md)
or PyTorch's viewer at https://pytorch.org/memory_viz.

## The example in this lesson
`assets/snapshots/gpt-train-oom.pickle` is **synthetic**: no GPU and no torch made it. The script
`tests/snapshot/make_example.py` simulates a small GPT-2-like model (4 layers, d = 768,
vocabulary 50 304, sequence 512) training with AdamW on an 8 GiB card, sends its tensor
allocations through a re-implementation of the caching allocator, and writes what that allocator
did in the documented snapshot schema (`torch/csrc/cuda/Module.cpp`, `THCPModule_memorySnapshot`).
Two steps run at batch 4; the third quadruples the batch to 16 and runs out of memory. The
snapshot was taken at the OOM, as an observer would.

> [!note] What is recorded and what is simulated
> A snapshot's figures are what PyTorch recorded, not a vramlab measurement. The what-if
> replay further down is vramlab's model of the allocator (docs/allocator.md): SIMULATED, on
> any backend.
]], zh = [[
# 读懂你自己的显存快照

第 2.2–2.5 节里的分配器跑的都是 vramlab 编出来的负载。你自己的训练任务有它自己的记录：PyTorch 可以把缓存分配器从 CUDA 拿到的每个段、段里的每个块，以及每一次分配和释放连同发起它的 Python 调用栈都记下来。这个文件就是**显存快照**（memory snapshot），它能回答 `nvidia-smi` 回答不了的问题：峰值时*什么*还活着，*哪一行*代码创建了它，这次 OOM 是缺内存，还是缺*连续的*内存。

## 如何录制
```
import torch
torch.cuda.memory._record_memory_history(max_entries=100_000)  # 开始记录
# ……运行几个训练步……
torch.cuda.memory._dump_snapshot("snapshot.pickle")            # 当前状态 + 历史
torch.cuda.memory._record_memory_history(enabled=None)         # 停止记录
```
- **`max_entries`** 限制历史的长度：它是一个环形缓冲区，满了以后最早的记录会被丢掉。100 000 条足以覆盖一个中等模型的几个训练步；如果快照开始得比你关心的部分还晚，就调大它。
- `stacks="python"` 只记录 Python 帧（文件更小）；默认的 `"all"` 还会记录 C++ 帧。
- 想抓住显存不足的那一刻，就在观察者里导出快照，PyTorch 会在抛出异常之前调用它：`torch._C._cuda_attach_out_of_memory_observer(fn)`，其中 `fn(device, alloc, device_alloc, device_free)` 调用 `_dump_snapshot`。

用 `vramlab snapshot FILE` 打开这个文件（文本、`--json`、what-if 回放；见 docs/snapshot.md），或者用 PyTorch 的网页查看器 https://pytorch.org/memory_viz。

## 本节的示例
`assets/snapshots/gpt-train-oom.pickle` 是**合成的**：生成它没有用到 GPU，也没有用到 torch。脚本 `tests/snapshot/make_example.py` 模拟了一个类似 GPT-2 的小模型（4 层，d = 768，词表 50 304，序列长 512）在一张 8 GiB 的卡上用 AdamW 训练，把它的张量分配交给一个重新实现的缓存分配器，再按文档化的快照格式（`torch/csrc/cuda/Module.cpp`，`THCPModule_memorySnapshot`）写出分配器做过的事。前两步批大小为 4；第三步把批大小翻到 16，显存不足。快照是在 OOM 那一刻导出的，就像观察者会做的那样。

> [!note] 哪些是记录的，哪些是模拟的
> 快照里的数字是 PyTorch 记录下来的，不是 vramlab 测出来的。后面的 what-if 回放用的是 vramlab 的分配器模型（docs/allocator.md）：在任何后端上都是模拟（SIMULATED）的。
]] },

  experiment {
    id = "walk",
    title = { en = "Open the example snapshot", zh = "打开示例快照" },
    intro = { en = [[
Reads `assets/snapshots/gpt-train-oom.pickle` with `alloc.snapshot` and draws the trace: the
bytes live tensors asked for (requested) and what the allocator held from CUDA (reserved), after
each trace entry, 60 columns with each column's highest value. Then the largest groups alive at
the peak, by the first line of your code in their stack. Recorded by PyTorch (here: synthetic),
not measured.
]], zh = [[
用 `alloc.snapshot` 读取 `assets/snapshots/gpt-train-oom.pickle` 并画出整个记录：每条记录之后活着的张量申请的字节数（requested）和分配器从 CUDA 拿着的字节数（reserved），共 60 列，每列取其中的最大值。然后列出峰值时最大的几组分配，按调用栈里你自己代码的第一行分组。这些是 PyTorch 记录的（这里是合成的），不是测量值。
]] },
    panels = {
      { id = "g", kind = "gauge", title = { en = "Peak requested, of the peak reserved", zh = "已申请峰值占已预留峰值" }, unit = "GiB" },
      { id = "c", kind = "curve", title = { en = "Over the trace", zh = "整个记录" }, x = "entry", y = "GiB" },
      { id = "top", kind = "bars", title = { en = "Alive at the peak, by line", zh = "峰值时活着的分配（按代码行）" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "The snapshot", zh = "快照概要" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local s = assert(alloc.snapshot(SNAP, { columns = 60, top = 5 }))
      local live, res = T("requested (live)", "已申请（活着）"), T("reserved", "已预留")
      ex:gauge("g", T("peak requested", "已申请峰值"), s.peak / GiB, s.reserved_peak / GiB, { style = "reference" })
      for _, c in ipairs(s.timeline) do
        ex:point("c", res, c.last, c.reserved / GiB, { style = "reference" })
        ex:point("c", live, c.last, c.live / GiB, { style = "reference" })
      end
      for _, g in ipairs(s.top) do
        ex:bar("top", short(g.where) .. " " .. g.func, g.bytes / GiB, { style = "reference" })
      end
      ex:row("t", { T("figure", "指标"), T("value", "数值") })
      ex:row("t", { T("trace entries", "记录条数"), tostring(s.entries) })
      ex:row("t", { T("peak requested (live)", "已申请峰值（活着）"), T(string.format("%s (%d B) after entry %d", gib(s.peak), s.peak, s.peak_entry), string.format("%s（%d B），第 %d 条记录之后", gib(s.peak), s.peak, s.peak_entry)) })
      ex:row("t", { T("peak reserved", "已预留峰值"), T(string.format("%s after entry %d", gib(s.reserved_peak), s.reserved_peak_entry), string.format("%s，第 %d 条记录之后", gib(s.reserved_peak), s.reserved_peak_entry)) })
      local o = s.ooms[1]
      if o then
        ex:row("t", { T("OOM request", "OOM 时的申请"), T(string.format("%s at entry %d", size(o.size), o.entry), string.format("%s，第 %d 条记录", size(o.size), o.entry)) })
        ex:row("t", { T("live + request", "活着的 + 申请"), gib(o.live + o.size) })
        ex:row("t", { T("reserved + CUDA free", "已预留 + CUDA 空闲"), gib(o.reserved + (o.device_free or 0)) })
      end
      ex:note("c", T("GiB = 2^30 B. Recorded by PyTorch (this example: synthetic, tests/snapshot/make_example.py), not measured by vramlab.",
                     "GiB = 2^30 B。由 PyTorch 记录（本例是合成的，tests/snapshot/make_example.py），不是 vramlab 测量的。"))
      ex:note("top", T("Grouped by the first frame in your own code; the OOM request itself has no Python frame: backward runs on autograd's C++ thread.",
                       "按调用栈中你自己代码的第一帧分组；OOM 那次申请本身没有 Python 帧：反向传播在 autograd 的 C++ 线程上运行。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading it
- The **requested** line rises through forward (activations autograd saves), peaks where the
  backward pass begins (every saved activation and the first gradients alive at once) and falls
  as backward frees them. The **reserved** line only steps: it moves when the allocator calls
  `cudaMalloc`/`cudaFree` (`segment_alloc`/`segment_free` entries).
- The gap between the two lines is the cache: free blocks inside segments. Some of it
  `empty_cache()` could return; the rest sits beside live blocks (external fragmentation).
- The table's last two rows decide what kind of OOM this is. If *live + request* is larger than
  *reserved + CUDA free*, no allocator setting can help: the tensors alive at that moment plus the
  one asked for do not fit in what the process can hold. If it is smaller, the memory existed but
  not in one piece, and the allocator's settings matter.

## What if: replay under other settings
PyTorch reads its allocator settings from `PYTORCH_CUDA_ALLOC_CONF` (PyTorch docs, "CUDA
semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF"):
- `expandable_segments:True` grows one segment per stream and pool by mapping more pages into
  it, instead of a new `cudaMalloc` per segment: freed space at the end can be reused for a larger
  block, so reserved stays close to requested.
- `max_split_size_mb:N` never splits cached blocks larger than N MiB, so big blocks stay whole
  for big requests (and more segments are made).
- `garbage_collection_threshold:0.8` frees unused cached blocks when reserved passes 80 % of
  the memory allowed. vramlab's model does not follow this one, and says so.

The replay sends the snapshot's allocations and frees, in order, through vramlab's model of the
allocator on a model device of the capacity you give, and compares with what was recorded.
]], zh = [[
## 怎么读
- **已申请**那条线在前向时上升（autograd 保存的激活值），在反向开始的地方到达峰值（所有保存的激活值和最早的一批梯度同时活着），随后随着反向释放它们而下降。**已预留**那条线只会台阶式地变化：只有分配器调用 `cudaMalloc`/`cudaFree` 时它才动（即 `segment_alloc`/`segment_free` 记录）。
- 两条线之间的差是缓存：段里空闲的块。其中一部分 `empty_cache()` 能还回去；其余的夹在活着的块旁边（外部碎片）。
- 表格最后两行决定了这是哪一种 OOM。如果*活着的 + 申请*大于*已预留 + CUDA 空闲*，任何分配器设置都救不了：那一刻活着的张量加上要申请的这个，放不进进程能拿到的内存。如果小于，说明内存是有的，只是不连续，这时分配器设置才有用。

## 假如换一种设置：回放
PyTorch 从 `PYTORCH_CUDA_ALLOC_CONF` 读取分配器设置（PyTorch 文档，"CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF"）：
- `expandable_segments:True` 让每个流、每个池只有一个段，需要时往里映射更多的页，而不是每个段一次 `cudaMalloc`：段尾释放出来的空间可以给更大的块复用，所以已预留会贴近已申请。
- `max_split_size_mb:N` 不再切分大于 N MiB 的缓存块，让大块保持完整、留给大的申请（代价是段更多）。
- `garbage_collection_threshold:0.8` 在已预留超过允许内存的 80% 时释放没用的缓存块。vramlab 的模型不模拟这一项，并会明确说明。

回放把快照里的分配和释放按顺序送进 vramlab 的分配器模型，在你给定容量的模型设备上运行，再和记录下来的结果比较。
]] },

  exercise {
    id = "predict-expandable",
    kind = "predict",
    prompt = { en = "Predict, then replay: with `expandable_segments:True`, what would the example's peak reserved be, in GiB? (Recorded: 6.28 GiB reserved for 6.13 GiB requested.)",
               zh = "先预测，再回放：用 `expandable_segments:True` 时，示例的已预留峰值会是多少 GiB？（记录值：已申请 6.13 GiB 时已预留 6.28 GiB。）" },
    unit = "GiB", tolerance = 0.05,
    measure = function()
      local r = assert(alloc.snapshot(SNAP, { replay = "expandable_segments:True" })).replay
      return r.whatif.peak_reserved / GiB, r
    end,
    hints = { { en = "Expandable segments reuse freed space at a segment's end for larger blocks: reserved can get close to requested, never below it.", zh = "可扩展段可以把段尾释放出来的空间给更大的块复用：已预留可以接近已申请，但不会低于它。" } },
    explain = { en = "The model reserves 6.15 GiB at the peak: 0.03 GiB above the 6.13 GiB requested, against 0.15 GiB with the defaults. 2 segments at the end instead of the recorded 29. MODEL, SIMULATED.",
                zh = "模型在峰值时预留 6.15 GiB：比已申请的 6.13 GiB 只多 0.03 GiB，默认设置下多 0.15 GiB。最后的段数从记录中的 29 个变成 2 个。模型，模拟。" },
  },

  experiment {
    id = "whatif",
    title = { en = "Replay: three settings, 8 GiB and 16 GiB", zh = "回放：三种设置，8 GiB 与 16 GiB" },
    intro = { en = [[
The example's trace replayed under the recorded defaults, `expandable_segments:True` and
`max_split_size_mb:128`, on a model device of 7792 MiB (what this process could hold on the 8 GiB
card: reserved + CUDA free at the OOM) and of 16 GiB. "OOM request served" says whether the model
could serve the 1.54 GiB request the recorded run was refused. MODEL (SIMULATED).
]], zh = [[
把示例的记录在三种设置下回放：记录时的默认设置、`expandable_segments:True`、`max_split_size_mb:128`；模型设备的容量为 7792 MiB（这个进程在 8 GiB 卡上能拿到的内存：OOM 时的已预留 + CUDA 空闲）和 16 GiB。"OOM 的申请能否满足"表示模型能不能满足记录中被拒绝的那次 1.54 GiB 申请。模型（模拟）。
]] },
    panels = {
      { id = "pk", kind = "bars", title = { en = "Peak reserved", zh = "已预留峰值" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "Replay (SIMULATED)", zh = "回放（模拟）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("capacity", "容量"), T("options", "设置"), T("peak reserved", "已预留峰值"), T("segments", "段数"), T("OOM request served", "OOM 的申请能否满足") })
      local first = true
      for _, cap in ipairs { "7792MiB", "16GiB" } do
        for _, conf in ipairs { "expandable_segments:False", "expandable_segments:True", "max_split_size_mb:128" } do
          local r = assert(alloc.snapshot(SNAP, { replay = conf, capacity = cap })).replay
          if first then
            ex:bar("pk", T("recorded (8 GiB card)", "记录（8 GiB 卡）"), r.recorded.peak_reserved / GiB, { style = "reference" })
            first = false
          end
          local w = r.whatif
          ex:bar("pk", cap .. " " .. conf, w.peak_reserved / GiB, { style = "simulated" })
          ex:row("t", { cap, conf, gib(w.peak_reserved), tostring(w.segments),
                        w.recorded_ooms_fit > 0 and T("yes", "能") or T("no", "不能") })
        end
      end
      ex:note("t", T("On 7792 MiB no setting serves the request: live tensors plus the request need 7.66 GiB. On 16 GiB every setting does. garbage_collection_threshold is not modelled. MODEL, SIMULATED; GiB = 2^30 B.",
                     "在 7792 MiB 上没有任何设置能满足这次申请：活着的张量加上申请需要 7.66 GiB。在 16 GiB 上每种设置都能。garbage_collection_threshold 没有建模。模型，模拟；GiB = 2^30 B。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## What to change in your own job
When the tensors themselves do not fit (this example), change what is alive at the peak: a
smaller batch (or gradient accumulation to keep the effective batch), the loss computed in
chunks so the full fp32 logits never exist at once, bf16 logits, activation checkpointing. When
they fit but the reserved line runs far above the requested one, try `expandable_segments:True`
first; it is what PyTorch's own OOM message suggests "if reserved but unallocated memory is large".

> [!source] Sources
> PyTorch docs, "Understanding CUDA Memory Usage" (`_record_memory_history(max_entries=...)`,
> `_dump_snapshot`, `stacks`, the memory_viz viewer); `torch/cuda/memory.py`
> (`_record_memory_history`, `_snapshot`, `_dump_snapshot`); `torch/csrc/cuda/Module.cpp`
> (`THCPModule_memorySnapshot`: the snapshot's keys) and
> `c10/cuda/CUDACachingAllocator.cpp` (`TraceEntry` actions, the OOM observer, the OOM message); PyTorch docs,
> "CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF"
> (`expandable_segments`, `max_split_size_mb`, `garbage_collection_threshold`); vramlab
> docs/snapshot.md (every figure above defined) and tests/snapshot/make_example.py (how the
> example was made).
]], zh = [[
## 在你自己的任务里改什么
如果张量本身就放不下（比如这个例子），就改变峰值时活着的东西：更小的批（或者用梯度累积保持等效批大小），分块计算损失，让完整的 fp32 logits 不会同时存在，用 bf16 的 logits，激活检查点。如果放得下，但已预留的线远高于已申请的线，先试 `expandable_segments:True`；PyTorch 自己的 OOM 报错信息在"已预留但未分配的内存很多"时建议的就是它。

> [!source] 出处
> PyTorch 文档"Understanding CUDA Memory Usage"（`_record_memory_history(max_entries=...)`、`_dump_snapshot`、`stacks`、memory_viz 查看器）；`torch/cuda/memory.py`（`_record_memory_history`、`_snapshot`、`_dump_snapshot`）；`torch/csrc/cuda/Module.cpp`（`THCPModule_memorySnapshot`：快照的键）和 `c10/cuda/CUDACachingAllocator.cpp`（`TraceEntry` 的动作、OOM 观察者、OOM 报错信息）；PyTorch 文档"CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF"（`expandable_segments`、`max_split_size_mb`、`garbage_collection_threshold`）；vramlab 的 docs/snapshot.md（上面每个数字的定义）和 tests/snapshot/make_example.py（示例是怎么生成的）。
]] },

  exercise {
    id = "peak",
    kind = "number",
    prompt = { en = "Run the first experiment. What is the peak of the requested (live) bytes in the example snapshot, in GiB (2^30 B)?",
               zh = "运行第一个实验。示例快照里已申请（活着的）字节数的峰值是多少 GiB（2^30 B）？" },
    answer = 6.125, unit = "GiB", tolerance = 0.01,
    hints = { { en = "The table's 'peak requested (live)' row; the reserved peak is a different figure.", zh = "看表格里\"已申请峰值（活着）\"那一行；已预留峰值是另一个数。" } },
    explain = { en = "6 576 904 196 B = 6.125 GiB live after entry 1631, at the start of the batch-16 step's backward. The reserved peak (6.28 GiB) is higher: it includes the cache.",
                zh = "6 576 904 196 B = 6.125 GiB，在第 1631 条记录之后，也就是批大小为 16 的那一步开始反向时。已预留峰值（6.28 GiB）更高：它包含了缓存。" },
  },

  exercise {
    id = "dominant",
    kind = "choice",
    prompt = { en = "At the peak, which tensors take the most memory?",
               zh = "峰值时，哪些张量占的内存最多？" },
    choices = {
      { en = "The weights and AdamW's two moment buffers (train.py:112 and :139)", zh = "权重和 AdamW 的两个动量缓冲区（train.py:112 和 :139）" },
      { en = "The logits and the cross-entropy over them (model.py:176 and :178)", zh = "logits 以及在它上面计算的交叉熵（model.py:176 和 :178）" },
      { en = "Attention's softmax (model.py:57)", zh = "注意力的 softmax（model.py:57）" },
      { en = "The input batch (train.py:61)", zh = "输入的批数据（train.py:61）" },
    },
    answer = 2,
    hints = { { en = "Add up the bars by line. One tensor of batch × sequence × vocabulary fp32 values is 16 × 512 × 50 304 × 4 B.", zh = "把柱子按代码行加起来。一个 批 × 序列 × 词表 的 fp32 张量是 16 × 512 × 50 304 × 4 B。" } },
    explain = { en = "The logits (model.py:176) and cross_entropy's log-softmax of them (model.py:178, with the 4-byte loss) are each 16 × 512 × 50 304 × 4 B = 1.54 GiB: 3.07 of the 6.13 GiB. Weights and AdamW's state together are 0.76 GiB; in this small model the vocabulary, not the parameters, dominates.",
                zh = "logits（model.py:176）和 cross_entropy 对它做的 log-softmax（model.py:178，外加 4 字节的损失值）各是 16 × 512 × 50 304 × 4 B = 1.54 GiB：6.13 GiB 里占了 3.07 GiB。权重和 AdamW 状态加起来只有 0.76 GiB；在这个小模型里，主导显存的是词表，不是参数。" },
  },

  exercise {
    id = "setting",
    kind = "choice",
    prompt = { en = "Which allocator setting would have let the batch-16 step run on this 8 GiB card (7792 MiB for the process), and which does it need on a 16 GiB card?",
               zh = "哪种分配器设置能让批大小 16 的那一步在这张 8 GiB 的卡上（进程可用 7792 MiB）跑起来？换到 16 GiB 的卡上又需要哪种设置？" },
    choices = {
      { en = "expandable_segments:True on both", zh = "两张卡上都用 expandable_segments:True" },
      { en = "max_split_size_mb:128 on 8 GiB; none on 16 GiB", zh = "8 GiB 上用 max_split_size_mb:128；16 GiB 上不需要" },
      { en = "None fits it on 8 GiB (live + request > 7792 MiB); on 16 GiB the defaults fit", zh = "8 GiB 上什么设置都不行（活着的 + 申请 > 7792 MiB）；16 GiB 上默认设置就够" },
      { en = "garbage_collection_threshold:0.6 on both", zh = "两张卡上都用 garbage_collection_threshold:0.6" },
    },
    answer = 3,
    hints = { { en = "Compare 'live + request' with 'reserved + CUDA free' in the first experiment, then read the replay's last column.", zh = "在第一个实验里比较\"活着的 + 申请\"和\"已预留 + CUDA 空闲\"，再看回放表格的最后一列。" } },
    explain = { en = "Live tensors plus the 1.54 GiB request need 7.66 GiB; the process could hold 7.61 GiB. No packing makes that fit, so the replay serves it under no setting on 7792 MiB. On 16 GiB the recorded defaults serve it (peak reserved 7.81 GiB in the model).",
                zh = "活着的张量加上 1.54 GiB 的申请需要 7.66 GiB；进程最多能拿 7.61 GiB。怎么排布都放不下，所以在 7792 MiB 上任何设置的回放都满足不了它。在 16 GiB 上记录时的默认设置就能满足（模型中已预留峰值 7.81 GiB）。" },
  },

}
