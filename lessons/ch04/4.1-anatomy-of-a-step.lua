-- Lesson 4.1: what one training step keeps in VRAM, by kind and by layer, and where its peak
-- falls: vram.train_step's events (docs/vram-train.md) replayed through the caching allocator of
-- this machine's backend (real segments on a GPU, the simulator otherwise).
local MB = units.MB

-- The chapter's small transformer: GPT-2's block and vocabulary, 4 layers of width 512.
local SHAPE = { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4 }

local KINDS = { "weights", "gradients", "master", "optimizer", "activations", "temporaries", "workspace", "input" }
local KIND_ZH = { weights = "权重", gradients = "梯度", master = "fp32 主副本", optimizer = "优化器状态",
                  activations = "保存的激活", temporaries = "临时张量", workspace = "工作区", input = "输入" }

local function mb(n) return string.format("%.1f MB", n / MB) end

-- The step's events through the caching allocator (vram.replay): this backend's when the step
-- fits the experiment's budget with room to spare, else, or when the device runs short midway,
-- an 80 GiB model device (SIMULATED by its stats).
local function replay(r, on_event, on_start)
  return vram.replay(r.events, { model = gpu.budget() <= 1.5 * r.peak.bytes, on_event = on_event, on_start = on_start })
end

return lesson {
  id = "4.1",
  chapter = 4,
  chapter_title = { en = "The memory of a training step", zh = "训练一步的显存" },
  title = { en = "Anatomy of a step", zh = "一步训练的解剖" },
  requires = { "gpu" },

  text { en = [[
# Anatomy of a step

One training step of a transformer — forward, backward, optimizer update — touches six kinds of
device memory. With Ψ parameters, mixed precision (16-bit weights, fp32 master copy) and Adam:

| kind | size | lives |
|---|---|---|
| weights | 2Ψ B (16-bit) | the whole run |
| fp32 master copy | 4Ψ B | the whole run (mixed precision only) |
| optimizer state | 8Ψ B (Adam's m and v in fp32) | the whole run, from the first `step()` |
| gradients | 2Ψ B | from backward until `zero_grad()` |
| saved activations | grows with layers × sequence × batch | from forward until backward has used them |
| temporaries and workspace | intermediate results, activation gradients, cuBLAS workspace | short (workspace: stays cached) |

The first four are the **model states**: 2 + 2 + 4 + 8 = **16 bytes per parameter**
(Rajbhandari et al. 2020, sec. 3.1), whatever the batch. The last two scale with the **tokens**
in the step (sequence × micro-batch) and are what batch size and checkpointing change.

## The shape of a step
- **Setup**: weights, master copy and optimizer state are already there (from the second step on).
- **Forward**: each layer stores what its backward will need; the saved activations climb layer
  by layer. At the end the LM head writes the **logits**, seq × batch × vocab values, and the loss
  converts them to fp32: with GPT-2's 50,257-word vocabulary that is the largest single tensor of
  a small model.
- **Backward** walks the layers in reverse. Each op allocates the gradient of its input and frees
  its saved tensors, so the activations **fall** while the weight gradients **appear**.
- **Optimizer**: PyTorch's default `foreach` Adam allocates a temporary the size of all parameters
  (`sqrt(v)`), then `zero_grad(set_to_none=True)` frees the gradients.

The peak is therefore not at the end of forward but **early in backward**: all the activations are
still saved, and the first gradients (the logits' gradient, in fp32) are added on top.

> [!errata] "Backward stores the gradients, so memory doubles again"
> The lecture says activations fill memory in forward and “反向传播时还要存梯度，又翻一倍”
> (backward stores gradients, doubling it again). Weight gradients are the size of the **weights**
> (2Ψ bytes in 16-bit), not of the activations; and backward **frees** each saved activation as
> soon as its op's gradient is computed. What backward adds on top of forward is the gradients
> in flight (a layer or two at a time; in this small model mostly the fp32 gradient of the
> logits) and the weight gradients: the curve below jumps at the start of backward, then falls.
> Source: Rajbhandari et al. 2020, sec. 3.1 (gradients: 2Ψ B); the experiment below
> (`vram.train_step`: the curve and the live bytes by kind at the peak).

The experiment builds every allocation and free of one step of a 4-layer GPT-2-style model
(hidden 512, 8 heads, sequence 512, micro-batch 4, bf16 mixed precision, AdamW; 38.6 M
parameters, 25.7 M of them in the tied embedding) with `vram.train_step`, and replays them through
PyTorch's caching-allocator rules (`alloc`): on a GPU the segments are real `cudaMalloc` calls,
on the simulator they are counted against the simulated card and labelled SIMULATED.
]], zh = [[
# 一步训练的解剖

Transformer 的一个训练步——前向、反向、优化器更新——会用到六类显存。设参数量为 Ψ，采用混合精度（16 位权重加 fp32 主副本）和 Adam：

| 类别 | 大小 | 存活时间 |
|---|---|---|
| 权重 | 2Ψ B（16 位） | 整个训练过程 |
| fp32 主副本 | 4Ψ B | 整个训练过程（仅混合精度） |
| 优化器状态 | 8Ψ B（Adam 的 m 和 v，fp32） | 整个训练过程，从第一次 `step()` 起 |
| 梯度 | 2Ψ B | 从反向传播到 `zero_grad()` |
| 保存的激活 | 随层数 × 序列长度 × batch 增长 | 从前向传播到反向传播用完为止 |
| 临时张量和工作区 | 中间结果、激活梯度、cuBLAS 工作区 | 很短（工作区会一直留在缓存里） |

前四类是**模型状态**：2 + 2 + 4 + 8 = **每个参数 16 字节**（Rajbhandari et al. 2020，第 3.1 节），与 batch 大小无关。后两类随一步中的 **token 数**（序列长度 × micro-batch）增长，batch 大小和检查点技术改变的正是它们。

## 一步的形状
- **准备**：权重、主副本和优化器状态已经在显存里（从第二步起）。
- **前向**：每一层都把反向传播要用的张量存下来，保存的激活逐层上升。最后 LM head 输出 **logits**，共 序列 × batch × 词表 个值，损失函数再把它转成 fp32：GPT-2 的词表有 50,257 个词，对小模型来说这是最大的单个张量。
- **反向**按层倒序进行。每个算子分配其输入的梯度，并释放自己保存的张量，所以激活**下降**，权重梯度**出现**。
- **优化器**：PyTorch 默认的 `foreach` Adam 会分配一个和全部参数一样大的临时张量（`sqrt(v)`），然后 `zero_grad(set_to_none=True)` 释放梯度。

所以峰值不在前向结束时，而在**反向传播刚开始**：所有激活都还保存着，最早的梯度（logits 的 fp32 梯度）又叠加上去。

> [!errata] “反向传播时还要存梯度，又翻一倍”
> 讲义说前向传播时激活占满显存，“反向传播时还要存梯度，又翻一倍”。权重梯度的大小等于**权重**（16 位下 2Ψ 字节），而不是激活的大小；而且反向传播每算完一个算子的梯度，就**释放**它保存的激活。反向传播在前向之上额外增加的，只是正在传递的梯度（一次一两层；在这个小模型里主要是 logits 的 fp32 梯度）和权重梯度：下面的曲线在反向开始时跳高，随后下降。
> 出处：Rajbhandari et al. 2020，第 3.1 节（梯度：2Ψ B）；下面的实验（`vram.train_step`：曲线和峰值时刻各类别的存活字节）。

实验用 `vram.train_step` 生成一个 4 层 GPT-2 式模型（hidden 512，8 个头，序列 512，micro-batch 4，bf16 混合精度，AdamW；3860 万参数，其中 2570 万在共享的词嵌入里）一个训练步的全部分配和释放，再按 PyTorch 缓存分配器的规则（`alloc`）回放：有 GPU 时每个段都是真实的 `cudaMalloc`；在模拟器上则按模拟显卡记账，并标注为 SIMULATED。
]] },

  exercise {
    id = "predict-reserved",
    kind = "predict",
    prompt = { en = [[
Before the experiment below runs: predict the **peak reserved** memory (MB, 1e6 B) of its step
through the caching allocator. The model's peak of live bytes is 2,100 MB (the experiment's first
bar in "Allocator peaks"); think about what the allocator adds.
]], zh = [[
在下面的实验运行之前，预测这一步经过缓存分配器后的**已预留峰值**（MB，1e6 B）。模型的存活字节峰值是 2,100 MB（实验“分配器峰值”里的第一根柱子）；想想分配器会额外加上什么。
]] },
    unit = "MB", tolerance = 0.15,
    measure = function()
      local r = vram.train_step(SHAPE)
      local s, err = replay(r)
      if not s then error(err) end
      return s.peak_reserved / MB, s
    end,
    hints = { { en = "Every block is rounded up to 512 B, blocks of 1-10 MiB share 20 MiB segments, and freed blocks stay cached: reserved is a little above the live peak, not twice it.",
                zh = "每个块向上取整到 512 B，1–10 MiB 的块共用 20 MiB 的段，释放的块留在缓存里：已预留比存活峰值高一些，但不会翻倍。" } },
    explain = { en = "The allocator holds the live peak plus rounding, the unused tails of shared segments and cached blocks that a later, larger request could not reuse: here a few percent to ~20 % above the model's live bytes.",
                zh = "分配器持有的是存活峰值，加上取整、共用段中没用到的尾部，以及后来更大的请求无法复用的缓存块：这里比模型的存活字节高几个百分点到约 20%。" },
  },

  experiment {
    id = "step",
    title = { en = "One step through the caching allocator", zh = "一步训练经过缓存分配器" },
    intro = { en = [[
Allocated and reserved over the step's events (MB = 1e6 B), the live bytes by kind at the
estimator's peak, every layer's share, and the allocator's peaks.
]], zh = [[
一步中各事件处的已分配与已预留（MB = 1e6 B）、估算器峰值时刻各类别的存活字节、每一层的份额，以及分配器的峰值。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "allocated vs reserved over the step", zh = "一步中的已分配 vs 已预留" }, x = "event", y = "MB" },
      { id = "kind", kind = "bars", title = { en = "Live at the peak, by kind (model)", zh = "峰值时刻各类别的存活量（模型）" }, unit = "MB" },
      { id = "layer", kind = "table", title = { en = "Per layer (model)", zh = "逐层（模型）" } },
      { id = "peak", kind = "bars", title = { en = "Allocator peaks", zh = "分配器峰值" }, unit = "MB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local r = vram.train_step(SHAPE)
      local ev = r.events

      -- the model's view: live bytes by kind at the peak, and every layer's tensors
      for _, k in ipairs(KINDS) do
        local v = r.peak.live[k]
        if v > 0 then ex:bar("kind", ex.lang == "zh" and KIND_ZH[k] or k, v / MB, { style = "theoretical", unit = "MB" }) end
      end
      ex:note("kind", T("Where: " .. r.peak.why, "位置：" .. r.peak.why_zh))
      local per = {}
      for _, e in ipairs(ev) do
        if e.op == "alloc" and e.layer then
          local p = per[e.layer] or { weights = 0, gradients = 0, states = 0, saved = 0 }
          per[e.layer] = p
          if e.kind == "weights" then p.weights = p.weights + e.bytes
          elseif e.kind == "gradients" then p.gradients = p.gradients + e.bytes
          elseif e.kind == "master" or e.kind == "optimizer" then p.states = p.states + e.bytes
          elseif e.kind == "activations" and e.phase == "forward" then p.saved = p.saved + e.bytes end
        end
      end
      ex:row("layer", { T("layer", "层"), T("weights", "权重"), T("grads", "梯度"), T("master+Adam", "主副本+Adam"), T("saved act.", "保存的激活") })
      for l = 0, SHAPE.layers + 1 do
        local p = per[l]
        local name = l == 0 and T("embedding", "嵌入") or l == SHAPE.layers + 1 and T("LN + head", "LN + head") or T("block ", "块 ") .. l
        ex:row("layer", { name, mb(p.weights), mb(p.gradients), mb(p.states), mb(p.saved) })
      end
      local a = vram.activations(SHAPE)
      ex:note("layer", T(string.format("A block saves %s = sbh(34 + 5as/h) with s=%d b=%d h=%d a=%d: %d x sbh. The head saves the logits (%d x %d x 50257).",
                                       mb(a.per_layer.total), SHAPE.seq, SHAPE.batch, SHAPE.hidden, SHAPE.heads, a.coefficient, SHAPE.seq, SHAPE.batch),
                         string.format("每个块保存 %s = sbh(34 + 5as/h)，s=%d b=%d h=%d a=%d：%d × sbh。head 保存 logits（%d × %d × 50257）。",
                                       mb(a.per_layer.total), SHAPE.seq, SHAPE.batch, SHAPE.hidden, SHAPE.heads, a.coefficient, SHAPE.seq, SHAPE.batch)))

      -- the allocator's view: replay every event, drawing about 250 points per series
      local every = math.max(1, #ev // 250)
      local last_phase, at_peak
      local s, err = replay(r, function(i, A)
        local e = ev[i]
        if i % every == 0 or i == r.peak.event or e.phase ~= last_phase or i == #ev then
          local st = A:stats()
          ex:point("c", T("allocated", "已分配"), i, st.allocated / MB, { from = st })
          ex:point("c", T("reserved", "已预留"), i, st.reserved / MB, { from = st })
          if i == r.peak.event then at_peak = st end
        end
        last_phase = e.phase
      end, function() ex:clear("c"); last_phase, at_peak = nil, nil end)
      if not s then
        ex:note("peak", T("The allocator ran out of memory: " .. err, "分配器显存不足：" .. err))
        ex:status(T("out of memory", "显存不足"))
        return
      end
      local model = s.backend == "model"
      local starts, prev = {}, nil
      for i, e in ipairs(ev) do
        if e.phase ~= prev then starts[#starts + 1] = string.format("%s %d", e.phase, i) end
        prev = e.phase
      end
      -- on the curve: the phases of the step as bands over their events, and the peak
      local PHASE = { forward = T("forward", "前向"), backward = T("backward", "反向"), optimizer = T("optimizer", "优化器") }
      local from, cur = 1, ev[1] and ev[1].phase
      for i = 2, #ev + 1 do
        local ph = ev[i] and ev[i].phase
        if ph ~= cur then
          if PHASE[cur] then ex:band("c", PHASE[cur], from, i - 1) end
          from, cur = i, ph
        end
      end
      if at_peak then
        ex:mark("c", T("peak allocated", "已分配峰值"), r.peak.event, at_peak.allocated / MB, { from = at_peak })
      end
      ex:note("c", T("Phases start at events: " .. table.concat(starts, ", ") .. ". Peak at event " .. r.peak.event .. ".",
                     "各阶段的起始事件：" .. table.concat(starts, "，") .. "。峰值在第 " .. r.peak.event .. " 个事件。"))
      ex:bar("peak", T("model peak (live bytes)", "模型峰值（存活字节）"), r.peak.bytes / MB, { style = "theoretical", unit = "MB" })
      ex:bar("peak", T("peak allocated", "已分配峰值"), s.peak_allocated / MB, { from = s, unit = "MB" })
      ex:bar("peak", T("peak reserved", "已预留峰值"), s.peak_reserved / MB, { from = s, unit = "MB" })
      ex:note("peak", T(string.format("%d tensors, %d cudaMalloc calls. Reserved - allocated at the peak = rounding and cached blocks.%s",
                                      s.alloc_count, s.num_device_alloc, model and " The step did not fit this experiment's budget on the device: replayed on an 80 GiB model device (SIMULATED)." or ""),
                        string.format("%d 个张量，%d 次 cudaMalloc。峰值处已预留 − 已分配 = 取整和缓存的块。%s",
                                      s.alloc_count, s.num_device_alloc, model and "本机实验预算装不下这一步：改在 80 GiB 的模型设备上回放（SIMULATED）。" or "")))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the panels
- The **curve** climbs through forward in equal steps (one block's saved activations each), jumps
  at the LM head (the logits in 16-bit, then in fp32 for the loss), peaks at the start of backward
  and falls back towards the model states as the blocks' activations are freed. The optimizer
  phase adds a short bump (`foreach` Adam's temporary).
- The **table** shows why the tiny model is dominated by its ends: the tied 50,257 × 512 embedding
  holds two thirds of the parameters, and the head saves more than all four blocks together. For
  a large model (GPT-3: h = 12,288) the blocks dominate instead, and sbh(34 + 5as/h) per layer is
  the number to know (4.2).
- **Reserved** sits above **allocated** by the allocator's rounding and cached free blocks
  (chapter 2): the card must hold the reserved peak, plus the CUDA context (not counted here).

> [!pitfall] The model states do not depend on the batch
> Halving the batch halves the activations and temporaries, never the 16 B/param of model states.
> If weights + gradients + master + Adam alone exceed the card, no batch size fits: you need fewer
> bytes per parameter (4.4) or to shard them (4.5).

> [!tip] Measure your own step, from the second one
> This step is the steady state: the optimizer state already exists. Your job's first step has no
> Adam state until `optimizer.step()` creates it, and its allocator is still growing its cache:
> step 1 reads 1.79 GB at this model's backward peak, step 2 2.11 GB. Put
> `torch.cuda.reset_peak_memory_stats()` and `torch.cuda.max_memory_allocated()` around each phase
> of step 2 or later (lesson 2.6 does it through the allocator, phase by phase).

> [!source] Sources
> S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory Optimizations Toward Training Trillion
> Parameter Models", SC 2020, sec. 3.1 (model states 16Ψ for mixed-precision Adam). V. Korthikanti
> et al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023
> (arXiv:2205.05198), sec. 4, eq. 1. PyTorch `torch/optim/adam.py` (`_multi_tensor_adam`),
> `aten/src/ATen/cuda/CublasHandlePool.cpp` (workspace size), `c10/cuda/CUDACachingAllocator.cpp`.
> The event list and what it leaves out: `docs/vram-train.md`. Measuring phases:
> `torch.cuda.reset_peak_memory_stats`, `max_memory_allocated` (`torch/cuda/memory.py`).
]], zh = [[
## 怎么读这些面板
- **曲线**在前向过程中等距上升（每次一个块保存的激活），在 LM head 处跳高（先是 16 位的 logits，再是为损失函数转换的 fp32 版本），在反向开始时到达峰值，然后随着各块的激活被释放，回落到模型状态附近。优化器阶段有一个短暂的鼓包（`foreach` Adam 的临时张量）。
- **表格**说明这个小模型为什么由两端主导：共享的 50,257 × 512 词嵌入占了三分之二的参数，head 保存的激活比四个块加起来还多。对大模型（GPT-3：h = 12,288）则是各个块占主导，这时每层 sbh(34 + 5as/h) 才是要记住的数字（4.2 节）。
- **已预留**比**已分配**高出的部分是分配器的取整和缓存的空闲块（第 2 章）：显卡必须装下已预留的峰值，再加上 CUDA 上下文（这里没有计入）。

> [!pitfall] 模型状态与 batch 无关
> batch 减半，激活和临时张量减半，但每个参数 16 字节的模型状态一点不少。如果权重 + 梯度 + 主副本 + Adam 本身就超过显卡容量，任何 batch 都装不下：要么减少每个参数的字节数（4.4 节），要么把它们切分到多张卡上（4.5 节）。

> [!tip] 测量你自己的训练步，从第二步开始
> 这里的一步是稳态：优化器状态已经存在。你的任务的第一步在 `optimizer.step()` 创建之前没有 Adam 状态，分配器也还在扩充缓存：这个模型反向峰值在第 1 步读到 1.79 GB，第 2 步 2.11 GB。在第 2 步或之后的每个阶段前后放上 `torch.cuda.reset_peak_memory_stats()` 和 `torch.cuda.max_memory_allocated()`（第 2.6 节经分配器逐个阶段这样做）。

> [!source] 出处
> S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC 2020，第 3.1 节（混合精度 Adam 的模型状态为 16Ψ）。V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023（arXiv:2205.05198），第 4 节，式 1。PyTorch `torch/optim/adam.py`（`_multi_tensor_adam`）、`aten/src/ATen/cuda/CublasHandlePool.cpp`（工作区大小）、`c10/cuda/CUDACachingAllocator.cpp`。事件列表以及它没有建模的部分：`docs/vram-train.md`。测量各阶段：`torch.cuda.reset_peak_memory_stats`、`max_memory_allocated`（`torch/cuda/memory.py`）。
]] },

  exercise {
    id = "states",
    kind = "number",
    prompt = { en = "A 1.3B-parameter model trained with bf16 mixed precision and AdamW: how many GB (1e9 B) do its model states (weights, gradients, fp32 master copy, Adam's m and v) take, before any activation?",
               zh = "一个 13 亿参数的模型，用 bf16 混合精度和 AdamW 训练：在任何激活之前，它的模型状态（权重、梯度、fp32 主副本、Adam 的 m 和 v）占多少 GB（1e9 B）？" },
    answer = 20.8, unit = "GB", tolerance = 0.02,
    hints = { { en = "Count the bytes per parameter of each: 16-bit weights, 16-bit gradients, an fp32 master copy, and Adam's two fp32 moments.", zh = "逐项数每个参数的字节数：16 位权重、16 位梯度、fp32 主副本，以及 Adam 的两个 fp32 矩。" } },
    explain = { en = "16 B/param x 1.3e9 = 20.8 GB (19.4 GiB): 2 (bf16 weights) + 2 (bf16 gradients) + 4 (fp32 master) + 8 (m and v in fp32).",
                zh = "每参数 16 B × 1.3e9 = 20.8 GB（19.4 GiB）：2（bf16 权重）+ 2（bf16 梯度）+ 4（fp32 主副本）+ 8（fp32 的 m 和 v）。" },
  },

  exercise {
    id = "where-peak",
    kind = "choice",
    prompt = { en = "Without checkpointing, where does a training step's memory peak fall?", zh = "不用检查点时，一个训练步的显存峰值出现在哪里？" },
    choices = {
      { en = "In the optimizer step, when Adam updates every parameter", zh = "优化器更新时，Adam 更新每一个参数" },
      { en = "At the end of backward, when all the gradients exist", zh = "反向传播结束时，所有梯度都已生成" },
      { en = "Early in backward: all saved activations are still live and the first gradients are added", zh = "反向传播刚开始：所有保存的激活都还在，又加上了最早的梯度" },
      { en = "In the middle of forward", zh = "前向传播进行到一半时" },
    },
    answer = 3,
    hints = { { en = "Backward frees each saved activation after using it. When are the most of them still live?", zh = "反向传播用完一个保存的激活就释放它。什么时候还存活的激活最多？" } },
    explain = { en = "Forward ends with every layer's activations saved; backward starts by adding the loss's and the logits' gradients on top, then frees activations faster than weight gradients (2 B/param) appear. The optimizer phase has only model states, gradients and a temporary.",
                zh = "前向结束时每一层的激活都保存着；反向一开始又叠加上损失和 logits 的梯度，之后释放激活的速度快于权重梯度（每参数 2 B）出现的速度。优化器阶段只有模型状态、梯度和一个临时张量。" },
  },

}
