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

-- Measuring a peak yourself: 4.1's small model, two training steps (the first creates Adam's
-- state) replayed through the caching allocator with the peaks reset at every phase.
local SMALL = { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4 }
local PHASE_ZH = { setup = "准备", forward = "前向", backward = "反向", optimizer = "优化器" }
local LEAK_A, LEAK_B = "assets/snapshots/gpt-leak-step2.pickle", "assets/snapshots/gpt-leak-step5.pickle"

-- The profiler's memory-timeline categories (torch/profiler/_memory_profiler.py, Category) and the
-- kinds of vram.train_step that land in each; what the profiler cannot attribute shows as unknown.
local CATEGORIES = {
  { name = "PARAMETER", kinds = { "weights" }, en = "the model's parameters", zh = "模型参数" },
  { name = "OPTIMIZER_STATE", kinds = { "optimizer" }, en = "Adam's m and v", zh = "Adam 的 m 和 v" },
  { name = "GRADIENT", kinds = { "gradients" }, en = "the parameters' .grad", zh = "参数的 .grad" },
  { name = "ACTIVATION", kinds = { "activations" }, en = "saved for backward", zh = "为反向保存的" },
  { name = "TEMPORARY / AUTOGRAD_DETAIL", kinds = { "temporaries" }, en = "intermediates and activation gradients", zh = "中间结果和激活的梯度" },
  { name = "INPUT", kinds = { "input" }, en = "the batch", zh = "输入批" },
  { name = "unknown", kinds = { "master", "workspace" }, en = "fp32 master copy, cuBLAS workspace", zh = "fp32 主副本、cuBLAS 工作区" },
}

-- Steps 1 and 2 as one event list (step 2 without its set-up: the weights and state are there),
-- replayed on this backend (a model device when the budget is smaller than the step); a row per
-- phase with what PyTorch's counters would read at its end. Returns rows and the stats.
local function phase_replay()
  local t1 = { first_step = true }
  for k, v in pairs(SMALL) do t1[k] = v end
  local s1, s2 = vram.train_step(t1), vram.train_step(SMALL)
  local ev = {}
  for _, e in ipairs(s1.events) do ev[#ev + 1] = { op = e.op, id = e.id, bytes = e.bytes, name = e.name, phase = e.phase, step = 1 } end
  for _, e in ipairs(s2.events) do
    if e.phase ~= "setup" then ev[#ev + 1] = { op = e.op, id = e.id + 1000000, bytes = e.bytes, name = e.name, phase = e.phase, step = 2 } end
  end
  local rows, model = {}, gpu.budget() < 1.3 * s2.peak.bytes
  local function on_event(i, a)
    local e, nx = ev[i], ev[i + 1]
    if not nx or nx.phase ~= e.phase or nx.step ~= e.step then
      local st = a:stats()
      rows[#rows + 1] = { step = e.step, phase = e.phase, peak = st.peak_allocated, allocated = st.allocated, reserved = st.reserved,
                          free = st.backend ~= "model" and (gpu.mem()) or nil }
      a:reset_peak()
    end
  end
  local s, err = vram.replay(ev, { model = model, capacity = "8GiB", on_event = on_event, on_start = function() rows = {} end })
  if not s then return nil, err end
  return rows, s
end

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
> any backend. With a GPU and PyTorch, `python3 docs/record_snapshots.py --out DIR` records real
> ones of the same jobs (its settings are named at its top) to put in their place.
]], zh = [[
# 读懂你自己的显存快照

第 2.2–2.5 节里的分配器跑的都是 vramlab 编出来的负载。你自己的训练任务有它自己的记录：PyTorch 可以把缓存分配器从 CUDA 拿到的每个段、段里的每个块，以及每一次分配和释放连同发起它的 Python 调用栈都记下来。这个文件就是**显存快照**（memory snapshot），它能回答 `nvidia-smi` 回答不了的问题：峰值时*什么*还存活，*哪一行*代码创建了它，这次 OOM 是缺内存，还是缺*连续的*内存。

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
> 快照里的数字是 PyTorch 记录下来的，不是 vramlab 测出来的。后面的 what-if 回放用的是 vramlab 的分配器模型（docs/allocator.md）：在任何后端上都是模拟（SIMULATED）的。有 GPU 和 PyTorch 时，`python3 docs/record_snapshots.py --out DIR` 会为同样的任务录制真实的快照（设置写在脚本开头），用来替换它们。
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
用 `alloc.snapshot` 读取 `assets/snapshots/gpt-train-oom.pickle` 并画出整个记录：每条记录之后存活的张量申请的字节数（requested）和分配器从 CUDA 拿着的字节数（reserved），共 60 列，每列取其中的最大值。然后列出峰值时最大的几组分配，按调用栈里你自己代码的第一行分组。这些是 PyTorch 记录的（这里是合成的），不是测量值。
]] },
    panels = {
      { id = "g", kind = "gauge", title = { en = "Peak requested, of the peak reserved", zh = "已申请峰值占已预留峰值" }, unit = "GiB" },
      { id = "c", kind = "curve", title = { en = "Over the trace", zh = "整个记录" }, x = "entry", y = "GiB" },
      { id = "top", kind = "bars", title = { en = "Alive at the peak, by line", zh = "峰值时存活的分配（按代码行）" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "The snapshot", zh = "快照概要" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local s = assert(alloc.snapshot(SNAP, { columns = 60, top = 5 }))
      local live, res = T("requested (live)", "已申请（存活）"), T("reserved", "已预留")
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
      ex:row("t", { T("peak requested (live)", "已申请峰值（存活）"), T(string.format("%s (%d B) after entry %d", gib(s.peak), s.peak, s.peak_entry), string.format("%s（%d B），第 %d 条记录之后", gib(s.peak), s.peak, s.peak_entry)) })
      ex:row("t", { T("peak reserved", "已预留峰值"), T(string.format("%s after entry %d", gib(s.reserved_peak), s.reserved_peak_entry), string.format("%s，第 %d 条记录之后", gib(s.reserved_peak), s.reserved_peak_entry)) })
      local o = s.ooms[1]
      if o then
        ex:row("t", { T("OOM request", "OOM 时的申请"), T(string.format("%s at entry %d", size(o.size), o.entry), string.format("%s，第 %d 条记录", size(o.size), o.entry)) })
        ex:row("t", { T("live + request", "存活的 + 申请"), gib(o.live + o.size) })
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
- **已申请**那条线在前向时上升（autograd 保存的激活值），在反向开始的地方到达峰值（所有保存的激活值和最早的一批梯度同时存活），随后随着反向释放它们而下降。**已预留**那条线只会台阶式地变化：只有分配器调用 `cudaMalloc`/`cudaFree` 时它才动（即 `segment_alloc`/`segment_free` 记录）。
- 两条线之间的差是缓存：段里空闲的块。其中一部分 `empty_cache()` 能还回去；其余的夹在存活的块旁边（外部碎片）。
- 表格最后两行决定了这是哪一种 OOM。如果*存活的 + 申请*大于*已预留 + CUDA 空闲*，任何分配器设置都救不了：那一刻存活的张量加上要申请的这个，放不进进程能拿到的内存。如果小于，说明内存是有的，只是不连续，这时分配器设置才有用。

## 假如换一种设置：回放
PyTorch 从 `PYTORCH_CUDA_ALLOC_CONF` 读取分配器设置（PyTorch 文档，“CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF”）：
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
把示例的记录在三种设置下回放：记录时的默认设置、`expandable_segments:True`、`max_split_size_mb:128`；模型设备的容量为 7792 MiB（这个进程在 8 GiB 卡上能拿到的内存：OOM 时的已预留 + CUDA 空闲）和 16 GiB。“OOM 的申请能否满足”表示模型能不能满足记录中被拒绝的那次 1.54 GiB 申请。模型（模拟）。
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
                     "在 7792 MiB 上没有任何设置能满足这次申请：存活的张量加上申请需要 7.66 GiB。在 16 GiB 上每种设置都能。garbage_collection_threshold 没有建模。模型，模拟；GiB = 2^30 B。"))
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
]], zh = [[
## 在你自己的任务里改什么
如果张量本身就放不下（比如这个例子），就改变峰值时存活的东西：更小的批（或者用梯度累积保持等效批大小），分块计算损失，让完整的 fp32 logits 不会同时存在，用 bf16 的 logits，激活检查点。如果放得下，但已预留的线远高于已申请的线，先试 `expandable_segments:True`；PyTorch 自己的 OOM 报错信息在“已预留但未分配的内存很多”时建议的就是它。
]] },

  exercise {
    id = "peak",
    kind = "number",
    prompt = { en = "Run the first experiment. What is the peak of the requested (live) bytes in the example snapshot, in GiB (2^30 B)?",
               zh = "运行第一个实验。示例快照里已申请（存活的）字节数的峰值是多少 GiB（2^30 B）？" },
    answer = 6.125, unit = "GiB", tolerance = 0.01,
    hints = { { en = "The table's 'peak requested (live)' row; the reserved peak is a different figure.", zh = "看表格里“已申请峰值（存活）”那一行；已预留峰值是另一个数。" } },
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
      { en = "None fits it on 8 GiB (live + request > 7792 MiB); on 16 GiB the defaults fit", zh = "8 GiB 上什么设置都不行（存活的 + 申请 > 7792 MiB）；16 GiB 上默认设置就够" },
      { en = "garbage_collection_threshold:0.6 on both", zh = "两张卡上都用 garbage_collection_threshold:0.6" },
    },
    answer = 3,
    hints = { { en = "Compare 'live + request' with 'reserved + CUDA free' in the first experiment, then read the replay's last column.", zh = "在第一个实验里比较“存活的 + 申请”和“已预留 + CUDA 空闲”，再看回放表格的最后一列。" } },
    explain = { en = "Live tensors plus the 1.54 GiB request need 7.66 GiB; the process could hold 7.61 GiB. No packing makes that fit, so the replay serves it under no setting on 7792 MiB. On 16 GiB the recorded defaults serve it (peak reserved 7.81 GiB in the model).",
                zh = "存活的张量加上 1.54 GiB 的申请需要 7.66 GiB；进程最多能拿 7.61 GiB。怎么排布都放不下，所以在 7792 MiB 上任何设置的回放都满足不了它。在 16 GiB 上记录时的默认设置就能满足（模型中已预留峰值 7.81 GiB）。" },
  },

  text { en = [[
## Measuring a peak yourself
A snapshot answers "what was alive". Four smaller tools answer "how much, when", and they are
the ones to put around your own code (CS336's memory-profiling exercises and the Ultra-Scale
Playbook use exactly these):

```
torch.cuda.reset_peak_memory_stats()          # the peaks start again from what is live now
loss = model(x).loss                          # ... one phase ...
fwd_peak = torch.cuda.max_memory_allocated()  # the most live (rounded) bytes since the reset
free, total = torch.cuda.mem_get_info()       # cudaMemGetInfo: the whole device, every process
```

- `max_memory_allocated()` is an **absolute** peak since the last reset, not what the phase
  added: everything live when the phase began is in it. Subtract `memory_allocated()` read at the
  reset for the phase's own growth. `max_memory_reserved()` is the same for the cache.
- `mem_get_info()` is what CUDA says is free on the device: the context, other processes and
  every allocator's cache are out of it. It is the number the next `cudaMalloc` meets.
- **The first step is not the steady state.** `optimizer.step()` creates Adam's two moments the
  first time it runs, and the caching allocator's reserved memory keeps growing while it learns
  the step's sizes. Measure from step 2 (PyTorch's DDP docs say the same of
  `gradient_as_bucket_view`'s saving), or better, record both.
- **The profiler's memory timeline** (`torch.profiler.profile(profile_memory=True,
  record_shapes=True, with_stack=True)`, then `prof.export_memory_timeline("mem.html")`) stacks
  the live bytes by category: `PARAMETER`, `OPTIMIZER_STATE`, `INPUT`, `TEMPORARY`,
  `ACTIVATION`, `GRADIENT`, `AUTOGRAD_DETAIL` (autograd's own intermediates), and unknown for what
  it cannot attribute (`torch/profiler/_memory_profiler.py`, `Category`).
- **A leak shows in a diff.** Dump a snapshot after step 2 and after step 5 of the same run;
  `vramlab snapshot diff A B` (or `alloc.snapshot(A, {diff = B})`) lists the allocations alive in
  B that A does not have, grouped by the line that allocated them. Memory that grows by the same
  amount every step is held by something that outlives the step.

The experiment replays two training steps of 4.1's small model through the caching allocator on
this machine's backend, calling `reset_peak()` (`reset_peak_memory_stats`) at every phase, as you
would around your own code.
]], zh = [[
## 自己测量峰值
快照回答的是“当时什么还存活”。另外四个小工具回答“有多少、在什么时候”，它们正是要放在你自己代码周围的（CS336 的显存剖析练习和《Ultra-Scale Playbook》用的正是这些）：

```
torch.cuda.reset_peak_memory_stats()          # 峰值从当前存活量重新开始计
loss = model(x).loss                          # ……某一个阶段……
fwd_peak = torch.cuda.max_memory_allocated()  # 重置以来存活（取整后）字节的最大值
free, total = torch.cuda.mem_get_info()       # cudaMemGetInfo：整张卡，所有进程
```

- `max_memory_allocated()` 是自上次重置以来的**绝对**峰值，不是这个阶段增加的量：阶段开始时已经存活的东西全都算在里面。减去重置时读到的 `memory_allocated()`，才是这个阶段自己的增长。`max_memory_reserved()` 对缓存也是一样。
- `mem_get_info()` 是 CUDA 报告的设备空闲量：上下文、其他进程和每个分配器的缓存都不在其中。下一次 `cudaMalloc` 面对的就是这个数。
- **第一步不是稳态。** `optimizer.step()` 第一次运行时才创建 Adam 的两个动量，而缓存分配器在摸清这一步的各种大小时，已预留的内存还会继续增长。从第 2 步开始测（PyTorch 的 DDP 文档对 `gradient_as_bucket_view` 省下的内存也是这么说的），更好的是两步都记下来。
- **剖析器的显存时间线**（`torch.profiler.profile(profile_memory=True, record_shapes=True, with_stack=True)`，然后 `prof.export_memory_timeline("mem.html")`）把存活字节按类别叠起来：`PARAMETER`、`OPTIMIZER_STATE`、`INPUT`、`TEMPORARY`、`ACTIVATION`、`GRADIENT`、`AUTOGRAD_DETAIL`（autograd 自己的中间结果），以及它无法归类的部分（`torch/profiler/_memory_profiler.py`，`Category`）。
- **泄漏会在差异里现形。** 在同一次运行的第 2 步和第 5 步之后各导出一个快照；`vramlab snapshot diff A B`（或 `alloc.snapshot(A, {diff = B})`）列出 B 中存活而 A 中没有的分配，按分配它们的代码行分组。每一步都增长同样多的内存，说明有东西把它们留到了这一步之后。

实验把 4.1 节小模型的两个训练步经本机后端上的缓存分配器回放，在每个阶段调用 `reset_peak()`（`reset_peak_memory_stats`），就像你在自己的代码周围做的那样。
]] },

  exercise {
    id = "predict-step2",
    kind = "predict",
    prompt = { en = [[
4.1's small model (38.6 M parameters, bf16 mixed precision, AdamW): in **step 1**,
`max_memory_allocated()` reset before backward reads 1.79 GB (1e9 B). Predict what it reads for
**step 2's** backward, in GB, through the caching allocator on this machine's backend.
]], zh = [[
4.1 节的小模型（3860 万参数，bf16 混合精度，AdamW）：**第 1 步**在反向前重置后，`max_memory_allocated()` 读到 1.79 GB（1e9 B）。预测**第 2 步**反向时它读到多少 GB，经本机后端上的缓存分配器。
]] },
    unit = "GB", tolerance = 0.08,
    measure = function()
      local rows, s = phase_replay()
      if not rows then error(s) end
      for _, r in ipairs(rows) do if r.step == 2 and r.phase == "backward" then return r.peak / 1e9, s end end
      error("no step 2 backward")
    end,
    hints = { { en = "What exists in step 2 that step 1's backward did not have yet? AdamW keeps two fp32 moments per parameter.", zh = "第 2 步里有什么是第 1 步反向时还没有的？AdamW 为每个参数保留两个 fp32 动量。" } },
    explain = { en = "2.11 GB: step 1's 1.79 GB plus Adam's m and v, 38.6 M x 8 B = 0.31 GB, created by the first optimizer.step(). Measure from step 2.",
                zh = "2.11 GB：第 1 步的 1.79 GB 加上 Adam 的 m 和 v，3860 万 × 8 B = 0.31 GB，由第一次 optimizer.step() 创建。要从第 2 步开始测。" },
  },

  experiment {
    id = "phases",
    key = "pk",
    title = { en = "reset_peak_memory_stats around each phase, steps 1 and 2", zh = "在每个阶段前后 reset_peak_memory_stats，第 1 和第 2 步" },
    intro = { en = [[
Two steps of 4.1's small model (`vram.train_step`, the first with `first_step = true`) replayed
through the caching allocator on this machine's backend (real `cudaMalloc` on a GPU, SIMULATED on
the simulator; a model device when the experiment's budget is too small), with the peaks reset at
every phase: each row is what `max_memory_allocated()`, `memory_allocated()`,
`memory_reserved()` and `mem_get_info()` would say at the end of that phase. Then step 2's peak by
the profiler's categories.
]], zh = [[
4.1 节小模型的两个训练步（`vram.train_step`，第一步用 `first_step = true`）经本机后端上的缓存分配器回放（有 GPU 时是真实的 `cudaMalloc`，模拟器上为 SIMULATED；实验预算太小时用模型设备），在每个阶段重置峰值：每一行是该阶段结束时 `max_memory_allocated()`、`memory_allocated()`、`memory_reserved()` 和 `mem_get_info()` 会报告的数。然后把第 2 步的峰值按剖析器的类别拆开。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Phase by phase", zh = "逐个阶段" } },
      { id = "pk", kind = "bars", title = { en = "max_memory_allocated() per phase", zh = "每个阶段的 max_memory_allocated()" }, unit = "GB" },
      { id = "cat", kind = "table", title = { en = "Step 2's peak by the profiler's categories (model)", zh = "第 2 步峰值按剖析器类别（模型）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local rows, s = phase_replay()
      if not rows then ex:note("t", tostring(s)); ex:status(T("failed", "失败")); return end
      ex:row("t", { T("step", "步"), T("phase", "阶段"), "max_memory_allocated", "memory_allocated", "memory_reserved", "mem_get_info free" })
      for _, r in ipairs(rows) do
        ex:row("t", { tostring(r.step), T(r.phase, PHASE_ZH[r.phase]), units.si(r.peak), units.si(r.allocated), units.si(r.reserved),
                      r.free and units.bytes(r.free) or "-" })
        if r.phase ~= "setup" then ex:bar("pk", T(string.format("step %d %s", r.step, r.phase), string.format("第 %d 步 %s", r.step, PHASE_ZH[r.phase])), r.peak / 1e9, { from = s, unit = "GB" }) end
      end
      ex:note("t", T(s.backend == "model" and "Replayed on a model device (the experiment's budget is smaller than the step): SIMULATED; no mem_get_info." or
                       "mem_get_info: this device's free memory after the phase: the allocator's segments came from this backend (real device memory on a GPU, SIMULATED on the simulator).",
                     s.backend == "model" and "在模型设备上回放（实验预算小于这一步）：SIMULATED；没有 mem_get_info。" or
                       "mem_get_info：该阶段之后本设备的空闲显存：分配器的段来自本机后端（有 GPU 时是真实显存，模拟器上为 SIMULATED）。"))
      local r2 = vram.train_step(SMALL)
      ex:row("cat", { T("category", "类别"), T("bytes at step 2's peak", "第 2 步峰值时的字节数"), T("what", "是什么") })
      for _, c in ipairs(CATEGORIES) do
        local b = 0
        for _, k in ipairs(c.kinds) do b = b + r2.peak.live[k] end
        ex:row("cat", { c.name, units.si(b), T(c.en, c.zh) })
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "max-since-reset",
    kind = "choice",
    prompt = { en = "You call `torch.cuda.reset_peak_memory_stats()` just before `loss.backward()` and read `torch.cuda.max_memory_allocated()` just after. What does it tell you?",
               zh = "你在 `loss.backward()` 之前调用 `torch.cuda.reset_peak_memory_stats()`，之后读取 `torch.cuda.max_memory_allocated()`。它告诉你什么？" },
    choices = {
      { en = "How many bytes backward allocated", zh = "反向传播分配了多少字节" },
      { en = "The most bytes live at once during backward, including the weights, optimizer state and saved activations live when it began", zh = "反向期间同时存活的最多字节数，包括开始时已存活的权重、优化器状态和保存的激活" },
      { en = "The most bytes the caching allocator held from CUDA during backward", zh = "反向期间缓存分配器从 CUDA 拿着的最多字节数" },
    },
    answer = 2,
    why = { [1] = { en = "The reset does not zero it: it restarts the peak at what is live now. Subtract memory_allocated() read at the reset.", zh = "重置并不清零：峰值从当前存活量重新开始。要减去重置时读到的 memory_allocated()。" },
            [3] = { en = "That is max_memory_reserved(): the cache, not the live tensors.", zh = "那是 max_memory_reserved()：缓存，而不是存活的张量。" } },
    hints = { { en = "After the reset, what is the peak equal to before backward allocates anything?", zh = "重置之后、反向还没分配任何东西时，峰值等于多少？" } },
    explain = { en = "The reset sets the peak to the bytes live now; the reading is the highest live total since, everything included. The step's own growth is that minus memory_allocated() at the reset.",
                zh = "重置把峰值设为当前存活的字节数；读到的是此后存活总量的最大值，所有东西都算在内。这一阶段自己的增长是它减去重置时的 memory_allocated()。" },
  },

  experiment {
    id = "leak",
    key = "grown",
    title = { en = "Diff two snapshots of one run: a leak", zh = "比较同一次运行的两个快照：一次泄漏" },
    intro = { en = [[
`assets/snapshots/gpt-leak-step2.pickle` and `gpt-leak-step5.pickle`: the example's training loop
after 2 and after 5 steps, with one line added to keep each step's predictions for a metric,
`preds.append(logits.detach())` (SYNTHETIC, `tests/snapshot/make_example.py --variant leak`).
`alloc.snapshot(A, {diff = B})` compares them as `vramlab snapshot diff A B` does. Recorded by
PyTorch (here: synthetic), not measured.
]], zh = [[
`assets/snapshots/gpt-leak-step2.pickle` 和 `assets/snapshots/gpt-leak-step5.pickle`：示例训练循环在第 2 步和第 5 步之后的快照，只多加了一行，为了算指标把每一步的预测保留下来：`preds.append(logits.detach())`（合成的，`tests/snapshot/make_example.py --variant leak`）。`alloc.snapshot(A, {diff = B})` 像 `vramlab snapshot diff A B` 那样比较它们。由 PyTorch 记录（这里是合成的），不是测量值。
]] },
    panels = {
      { id = "grown", kind = "bars", title = { en = "Live in B, not in A, by line", zh = "B 中存活而 A 中没有的，按代码行" }, unit = "MiB" },
      { id = "t", kind = "table", title = { en = "Step 2 against step 5", zh = "第 2 步对比第 5 步" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local s = assert(alloc.snapshot(LEAK_A, { diff = LEAK_B, top = 5 }))
      local d = s.diff
      for _, g in ipairs(d.grown) do
        ex:bar("grown", short(g.where) .. " " .. g.func .. " x" .. g.count, g.bytes / units.MiB, { style = "reference", unit = "MiB" })
      end
      ex:row("t", { T("figure", "指标"), "A", "B", T("change", "变化") })
      for _, k in ipairs { "reserved", "allocated", "requested", "cached" } do
        ex:row("t", { k, size(d[k].a), size(d[k].b), (d[k].delta >= 0 and "+" or "") .. size(math.abs(d[k].delta)) })
      end
      ex:row("t", { "segments", tostring(d.segments.a), tostring(d.segments.b), string.format("%+d", d.segments.delta) })
      ex:note("t", T(string.format("Grew %s over 3 steps, freed %s: %s a step. Recorded by PyTorch (synthetic here), MiB = 2^20 B.",
                                   size(d.grown_bytes), size(d.gone_bytes), size(d.grown_bytes // 3)),
                     string.format("3 步增长 %s，释放 %s：每步 %s。由 PyTorch 记录（这里是合成的），MiB = 2^20 B。",
                                   size(d.grown_bytes), size(d.gone_bytes), size(d.grown_bytes // 3))))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "leak-step",
    kind = "number",
    prompt = { en = "From the diff of the two leak snapshots (steps 2 and 5): by how many MiB (2^20 B) does the live memory grow each step?",
               zh = "根据两个泄漏快照（第 2 步和第 5 步）的差异：存活内存每一步增长多少 MiB（2^20 B）？" },
    answer = 3 * 4 * 4 * 512 * 50304 / 3 / 2^20, unit = "MiB", tolerance = 0.02,
    mistakes = { { value = 3 * 4 * 4 * 512 * 50304 / 2^20, say = { en = "That is the growth over three steps (2 to 5): divide by the steps between the snapshots.", zh = "那是三步（从 2 到 5）的增长：要除以两个快照之间的步数。" } } },
    hints = { { en = "The experiment's 'grew' figure, over the steps between the two snapshots.", zh = "实验里“增长”的数字，除以两个快照之间的步数。" } },
    explain = { en = "1.15 GiB over 3 steps = 393 MiB a step: one fp32 logits tensor, 4 x 512 x 50,304 x 4 B. At that rate the 8 GiB card runs out in about a dozen more steps.",
                zh = "3 步 1.15 GiB = 每步 393 MiB：正好一个 fp32 的 logits 张量，4 × 512 × 50,304 × 4 B。照这个速度，8 GiB 的卡大约再过十几步就会耗尽。" },
  },

  exercise {
    id = "leak-line",
    kind = "choice",
    prompt = { en = "The diff groups what grew at `nanogpt/model.py:176 forward`, the LM head. What does that line tell you about the leak?",
               zh = "差异把增长的部分归到 `nanogpt/model.py:176 forward`，也就是 LM head。这一行说明了泄漏的什么？" },
    choices = {
      { en = "The LM head allocates more every step: the model is at fault", zh = "LM head 每一步都分配得更多：问题出在模型" },
      { en = "Where the leaked tensors were allocated, not who keeps them: look for what outlives the step holding the logits (here preds.append(logits.detach()))", zh = "泄漏的张量是在哪里分配的，而不是谁留住了它们：去找留住 logits 并活过这一步的东西（这里是 preds.append(logits.detach())）" },
      { en = "A bug in the caching allocator, which does not free the logits", zh = "缓存分配器的 bug，它没有释放 logits" },
    },
    answer = 2,
    hints = { { en = "A snapshot records the stack at allocation. What keeps a tensor alive after the step?", zh = "快照记录的是分配时的调用栈。是什么让一个张量在这一步之后还存活？" } },
    explain = { en = "Snapshots record where memory was allocated. The logits are allocated by the head every step and freed when nothing refers to them; detach() shares their storage, so the list keeps every step's. Keep `logits.argmax(-1).cpu()` instead.",
                zh = "快照记录的是内存在哪里分配的。logits 每一步都由输出头分配，在没有引用时释放；detach() 共享它的存储，于是列表留住了每一步的 logits。改为保存 `logits.argmax(-1).cpu()`。" },
  },

  exercise {
    id = "leak-code",
    kind = "code",
    prompt = { en = [[
Write `leak(diff, steps)` for a diff table as `alloc.snapshot(A, {diff = B}).diff` returns it
(`grown = {{where=, func=, bytes=, count=}, ...}` largest first, `grown_bytes`, `gone_bytes`):
return the bytes the live memory grows per step (what grew minus what went, over `steps`) and
the `where` of the largest group that grew (nil when nothing did). Then run it on your own two
snapshots: `vramlab eval my.lua --snapshot step5.pickle`, where `my.lua` calls
`alloc.snapshot("assets/snapshots/gpt-leak-step2.pickle", {diff = "step5.pickle"})` — or simply
`vramlab snapshot diff step2.pickle step5.pickle`.
]], zh = [[
写一个函数 `leak(diff, steps)`，参数是 `alloc.snapshot(A, {diff = B}).diff` 返回的差异表（`grown = {{where=, func=, bytes=, count=}, ...}` 从大到小，`grown_bytes`、`gone_bytes`）：返回存活内存每一步增长的字节数（增长减去释放，除以 `steps`），以及增长最多的那一组的 `where`（没有增长时为 nil）。然后在你自己的两个快照上运行它：`vramlab eval my.lua --snapshot step5.pickle`，其中 `my.lua` 调用 `alloc.snapshot("assets/snapshots/gpt-leak-step2.pickle", {diff = "step5.pickle"})`——或者直接用 `vramlab snapshot diff step2.pickle step5.pickle`。
]] },
    entry = "leak",
    starter = "function leak(diff, steps)\n  return 0, nil\nend\n",
    check = function(fn)
      local cases = {
        { { grown = { { where = "a.py:1", func = "f", bytes = 3000, count = 3 } }, grown_bytes = 3000, gone_bytes = 0 }, 3, 1000, "a.py:1" },
        { { grown = { { where = "b.py:7", func = "g", bytes = 900, count = 1 }, { where = "c.py:2", func = "h", bytes = 100, count = 1 } },
            grown_bytes = 1000, gone_bytes = 400 }, 2, 300, "b.py:7" },
        { { grown = {}, grown_bytes = 0, gone_bytes = 0 }, 4, 0, nil },
      }
      for i, c in ipairs(cases) do
        local ok, per, where = pcall(fn, c[1], c[2])
        if not ok then return false, { en = "leak() raised: " .. tostring(per), zh = "leak() 出错：" .. tostring(per) } end
        if type(per) ~= "number" or math.abs(per - c[3]) > 1e-9 then
          return false, { en = string.format("case %d: %s per step, want %s (what grew minus what went, over the steps)", i, tostring(per), tostring(c[3])),
                          zh = string.format("第 %d 例：每步 %s，应为 %s（增长减去释放，再除以步数）", i, tostring(per), tostring(c[3])) }
        end
        if where ~= c[4] then
          return false, { en = string.format("case %d: where %s, want %s (the first group: they come largest first)", i, tostring(where), tostring(c[4])),
                          zh = string.format("第 %d 例：where 为 %s，应为 %s（第一组：按大小排序）", i, tostring(where), tostring(c[4])) }
        end
      end
      return true
    end,
    hints = { { en = "grown_bytes and gone_bytes count every block, not only the groups listed; the groups come largest first.", zh = "grown_bytes 和 gone_bytes 统计了所有块，不只是列出的组；各组按大小从大到小排列。" } },
    explain = { en = "function leak(d, steps) return (d.grown_bytes - d.gone_bytes) / steps, d.grown[1] and d.grown[1].where end. On the shipped pair: 393 MiB a step at model.py:176.",
                zh = "function leak(d, steps) return (d.grown_bytes - d.gone_bytes) / steps, d.grown[1] and d.grown[1].where end。在随附的这对快照上：每步 393 MiB，位于 model.py:176。" },
  },

  text { en = [[
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
> Measuring: PyTorch docs, `torch.cuda.reset_peak_memory_stats`, `max_memory_allocated`,
> `max_memory_reserved`, `mem_get_info` (`torch/cuda/memory.py`); the profiler's memory timeline:
> `torch.profiler.profile(profile_memory=True)`, `export_memory_timeline`, and
> `torch/profiler/_memory_profiler.py` (`Category`: INPUT, TEMPORARY, ACTIVATION, GRADIENT,
> AUTOGRAD_DETAIL, PARAMETER, OPTIMIZER_STATE); PyTorch PR 71483 (DDP docs: check a saving after
> the first iteration); Stanford CS336 assignment 2 (Spring 2025), "memory_profiling"; the
> Ultra-Scale Playbook (Hugging Face, 2025), "Memory usage in Transformers" (the first step differs
> from the next ones). The leak example: `tests/snapshot/make_example.py --variant leak`; recording
> your own snapshots: `docs/record_snapshots.py`; `vramlab snapshot diff` and `alloc.snapshot`'s
> `diff`: docs/snapshot.md.
]], zh = [[
> [!source] 出处
> PyTorch 文档“Understanding CUDA Memory Usage”（`_record_memory_history(max_entries=...)`、`_dump_snapshot`、`stacks`、memory_viz 查看器）；`torch/cuda/memory.py`（`_record_memory_history`、`_snapshot`、`_dump_snapshot`）；`torch/csrc/cuda/Module.cpp`（`THCPModule_memorySnapshot`：快照的键）和 `c10/cuda/CUDACachingAllocator.cpp`（`TraceEntry` 的动作、OOM 观察者、OOM 报错信息）；PyTorch 文档“CUDA semantics → Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF”（`expandable_segments`、`max_split_size_mb`、`garbage_collection_threshold`）；vramlab 的 docs/snapshot.md（上面每个数字的定义）和 tests/snapshot/make_example.py（示例是怎么生成的）。测量：PyTorch 文档 `torch.cuda.reset_peak_memory_stats`、`max_memory_allocated`、`max_memory_reserved`、`mem_get_info`（`torch/cuda/memory.py`）；剖析器的显存时间线：`torch.profiler.profile(profile_memory=True)`、`export_memory_timeline`，以及 `torch/profiler/_memory_profiler.py`（`Category`：INPUT、TEMPORARY、ACTIVATION、GRADIENT、AUTOGRAD_DETAIL、PARAMETER、OPTIMIZER_STATE）；PyTorch PR 71483（DDP 文档：节省要在第一次迭代之后检查）；斯坦福 CS336 作业 2（2025 春），“memory_profiling”；《Ultra-Scale Playbook》（Hugging Face，2025），“Memory usage in Transformers”（第一步与之后各步不同）。泄漏示例：`tests/snapshot/make_example.py --variant leak`；录制你自己的快照：`docs/record_snapshots.py`；`vramlab snapshot diff` 和 `alloc.snapshot` 的 `diff`：docs/snapshot.md。
]] },
}
