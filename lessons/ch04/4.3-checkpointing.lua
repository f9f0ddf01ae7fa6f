-- Lesson 4.3: activation checkpointing - none, selective (Korthikanti et al. 2022), full and
-- sqrt(n) (Chen et al. 2016) on the same step: the peak through the caching allocator against
-- the extra forward compute (vram.checkpoint_cost: FLOPs at the GPU profile's published rate,
-- a model).
local GB = units.GB

-- GPT-2 small (124 M parameters) at sequence 1024, micro-batch 8, bf16 mixed precision, AdamW.
local SHAPE = { layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 8, positions = 1024 }
local MODES = { "none", "selective", "full", "sqrt" }
local MODE_ZH = { none = "无", selective = "选择性", full = "完全", sqrt = "√n" }

local function shape(mode)
  local t = { checkpointing = mode }
  for k, v in pairs(SHAPE) do t[k] = v end
  return t
end

-- The GPU whose published FLOP/s time the step: this device's, else the A100.
local function gpu_id() return (vram.device_spec(gpu.info()) or vram.gpu_spec("a100-80gb")).id end

-- One step's events through the caching allocator (vram.replay: this backend's, or a model
-- device of `capacity` when `model` is set or the device runs short midway; SIMULATED then).
local function replay(r, model, on_event, capacity)
  return vram.replay(r.events, { model = model, on_event = on_event, capacity = capacity })
end

local function use_model(peak) return gpu.budget() < 1.3 * peak end

-- This machine's pinned D2H and H2D (n/t, bytes/s, 64 MiB, best of 5) and the options that label
-- what comes from them (from = the D2H result: measured on a GPU, SIMULATED on the simulator); the
-- link's theoretical rate when there is no device memory to copy through (labelled so).
local function pcie()
  local n = math.min(64 * units.MiB, gpu.budget())
  local h, d, err
  if n >= units.MiB then
    d, err = gpu.copy { dir = "d2h", bytes = n, pinned = true, trials = 5 }
    if d then h, err = gpu.copy { dir = "h2d", bytes = n, pinned = true, trials = 5 } end
  else
    err = "no device memory free to copy through"
  end
  if h and d then return h.bytes_per_s, d.bytes_per_s, { from = d } end
  local link = gpu.info().pcie_bytes_per_s
  if not link then return nil, nil, nil, err end
  return link, link, { style = "theoretical" }, err
end

-- The h = 4096 layer (s = 2048, FlashAttention) at this link, with its stand-in's size: the saved
-- bytes scaled to what the experiment may hold (four device buffers and a pinned host buffer of
-- four), the kernel's seconds scaled alike, so the bytes-to-time ratio stays the layer's.
local function layer4096(id, d2h, h2d)
  local o = vram.offload_activations { layers = 1, hidden = 4096, heads = 32, seq = 2048, flash = true, gpu = id, d2h = d2h, h2d = h2d }
  local room = gpu.budget() // 6
  if not gpu.info().simulated then room = math.min(room, host.budget() // 5) end
  local b = math.max(units.MiB, math.min(64 * units.MiB, room)) // 4 * 4
  o.stand_bytes, o.stand_seconds = b, o.forward_seconds * b / o.saved
  return o
end

-- Four layers on the device: a kernel of the layer's forward time on stream 1, then per mode a
-- second kernel (recompute), the saved bytes copied to pinned host memory on the same stream
-- (save_on_cpu), or that copy on stream 2 after an event (overlapped); "none": the kernels alone.
local function stand_in(mode, o)
  local b = o.stand_bytes
  local bufs, ops = { h = { "pinned", 4 * b } }, {}
  for i = 0, 3 do
    local d = "d" .. i
    bufs[d] = { "device", b }
    ops[#ops + 1] = { "kernel", d, seconds = o.stand_seconds, stream = 1 }
    if mode == "recompute" then
      ops[#ops + 1] = { "kernel", d, seconds = o.stand_seconds, stream = 1 }
    elseif mode == "sync" then
      ops[#ops + 1] = { "copy", "h", d, off = i * b, bytes = b, stream = 1 }
    elseif mode == "overlap" then
      ops[#ops + 1] = { "record", event = i, stream = 1 }
      ops[#ops + 1] = { "wait", event = i, stream = 2 }
      ops[#ops + 1] = { "copy", "h", d, off = i * b, bytes = b, stream = 2 }
    end
  end
  return gpu.program { buffers = bufs, ops = ops }
end

return lesson {
  id = "4.3",
  chapter = 4,
  chapter_title = { en = "The memory of a training step", zh = "训练一步的显存" },
  title = { en = "Checkpointing", zh = "激活检查点" },
  requires = { "gpu" },

  text { en = [[
# Checkpointing: memory for compute

Saved activations exist only so that backward need not recompute them. **Checkpointing**
(activation recomputation, `torch.utils.checkpoint`) saves less in forward and recomputes the rest
in backward. The choice is which tensors to drop:

| mode | what forward keeps per layer | what backward recomputes | extra compute |
|---|---|---|---|
| none | sbh(34 + 5as/h) | nothing | 0 |
| selective | sbh·34: all but the attention core | QKᵀ, softmax, dropout, attention×V | 4bs²h FLOPs per layer: a few % |
| full | the layer's input, 2sbh | the whole layer's forward | one more forward of every block |
| √n | the input of each of √n segments | a whole segment before its backward | one more forward of every block |

## √n checkpointing (Chen et al. 2016)
A chain of n layers split into k segments keeps k segment inputs, and during backward one
recomputed segment of n/k layers: memory ∝ k + n/k, smallest at k = √n. Chen et al. cut a
1,000-layer ResNet's memory from 48 GB to 7 GB for 30 % more running time — O(√n) activation
memory for the price of **one extra forward pass**:
forward ≈ 1/3 of a step's FLOPs (2Ψ of 6Ψ per token: Kaplan et al. 2020), so about **+33 %**
compute. `full` is the case k = n. For a transformer the layer's input (2sbh) is already small
beside its 34sbh, so √n's gain over full is small; it matters for deep nets with few big layers.

## Selective recomputation (Korthikanti et al. 2022)
The attention core (the 5as²b part of 4.2) is most of a layer's activations at long contexts,
but little of its FLOPs: QKᵀ and attention×V are 4bs²h against the layer's 24bsh² of
matmuls, i.e. s/(6h) of them. Recomputing only that part removes the quadratic term for a few
percent of compute. With sequence parallelism it brought activations to 34sbh/t and, in the
paper's words, reduced activation memory by 5× and the execution-time overhead of
recomputation by over 90 %. FlashAttention (4.2) already does this inside its kernel, which is
why selective recomputation costs nothing more with it.

> [!errata] "Gradient checkpointing halves memory for a few percent of speed"
> Both halves depend on the mode. Full recomputation costs one extra forward of every block —
> about a third more compute, not "a few percent" — and the peak it reaches is set by what it
> cannot drop: the model states (16 B/param) and the LM head's logits and their fp32 gradient.
> The lecture's advice to prefer checkpointing over swapping to host memory is sound (4.5 shows
> why), but measure the step time it costs.
> Source: Chen et al. 2016, sec. 4 (one extra forward); Kaplan et al. 2020, sec. 2.1 (6N FLOPs
> per token, 2N of them forward); the experiment below (+28 % for full, every mode's peak).
]], zh = [[
# 检查点：用计算换显存

保存激活只是为了让反向传播不必重算。**检查点**（激活重计算，`torch.utils.checkpoint`）在前向时少存一些，在反向时把其余的重新算出来。区别在于丢掉哪些张量：

| 模式 | 前向中每层保留 | 反向时重算 | 额外计算 |
|---|---|---|---|
| 无 | sbh(34 + 5as/h) | 无 | 0 |
| 选择性 | sbh·34：除注意力核心外的全部 | QKᵀ、softmax、dropout、注意力×V | 每层 4bs²h FLOPs：几个百分点 |
| 完全 | 该层的输入，2sbh | 整层的前向 | 每个块多做一次前向 |
| √n | √n 个分段各自的输入 | 在每段的反向之前重算整段 | 每个块多做一次前向 |

## √n 检查点（Chen et al. 2016）
把 n 层的链分成 k 段，保留 k 个分段输入，反向时只有一段（n/k 层）被重算出来：显存 ∝ k + n/k，在 k = √n 时最小。Chen 等人把 1,000 层 ResNet 的显存从 48 GB 降到 7 GB，运行时间只多 30%——用 O(√n) 的激活显存，代价是**多一次前向**：前向约占一步 FLOPs 的 1/3（每个 token 6Ψ 中的 2Ψ：Kaplan et al. 2020），所以计算量约 **+33%**。`full` 就是 k = n 的情形。对 Transformer 而言，一层的输入（2sbh）相对其 34sbh 已经很小，所以 √n 相比完全重计算的收益不大；它对层数多、每层激活大的网络才重要。

## 选择性重计算（Korthikanti et al. 2022）
在长上下文下，注意力核心（4.2 节的 5as²b 部分）占一层激活的大头，但只占很少的 FLOPs：QKᵀ 和注意力×V 是 4bs²h，而该层矩阵乘法共 24bsh²，即只占 s/(6h)。只重算这一部分，用几个百分点的计算就去掉了二次项。与序列并行结合后，激活降到 34sbh/t；用论文的话说，激活显存减少了 5 倍，重计算带来的执行时间开销减少了 90% 以上。FlashAttention（4.2 节）已经在内核里做了这件事，所以配合它时选择性重计算不再有额外代价。

> [!errata] “梯度检查点能省一半显存，只慢几个百分点”
> 这两半都取决于模式。完全重计算要给每个块多做一次前向——计算量约多三分之一，而不是“几个百分点”；它能达到的峰值由它丢不掉的部分决定：模型状态（每参数 16 B），以及 LM head 的 logits 和它们的 fp32 梯度。讲义建议显存不够时优先用梯度检查点而不是和内存交换，这个建议是对的（4.5 节会说明原因），但要测一测它让每步慢了多少。
> 出处：Chen et al. 2016，第 4 节（多一次前向）；Kaplan et al. 2020，第 2.1 节（每个 token 6N FLOPs，其中前向 2N）；下面的实验（完全重计算 +28%，各模式的峰值）。
]] },

  exercise {
    id = "predict-full",
    kind = "predict",
    prompt = { en = [[
Before running the experiment: predict the **peak reserved** memory (GB, 1e9 B) of GPT-2 small's
step (s = 1024, micro-batch 8, bf16 AMP, AdamW) with **full** checkpointing. Its 124 M parameters
take 16 B each; the fp32 logits are 8192 × 50,257 × 4 B = 1.65 GB.
]], zh = [[
运行实验之前先预测：GPT-2 small 的一步（s = 1024，micro-batch 8，bf16 AMP，AdamW）在**完全**检查点下的**已预留峰值**（GB，1e9 B）。它的 1.24 亿参数每个占 16 B；fp32 logits 为 8192 × 50,257 × 4 B = 1.65 GB。
]] },
    unit = "GB", tolerance = 0.2,
    measure = function()
      local r = vram.train_step(shape("full"))
      local none = vram.train_step(shape("none"))
      local s = assert(replay(r, use_model(none.peak.bytes)))
      return s.peak_reserved / GB, s
    end,
    hints = { { en = "Add the model states, the logits in 16-bit and fp32, their gradient in fp32, the blocks' inputs (2sbh each), then the allocator's rounding and cache.",
                zh = "把模型状态、16 位和 fp32 的 logits、它们的 fp32 梯度、各块的输入（每个 2sbh）加起来，再加上分配器的取整和缓存。" } },
    explain = { en = "About 2 GB of model states, 0.8 + 1.65 + 1.65 GB of logits and their gradient, a few hundred MB of block inputs and a recomputed block, plus cached blocks: checkpointing cannot go below the head and the model states.",
                zh = "约 2 GB 模型状态，0.8 + 1.65 + 1.65 GB 的 logits 及其梯度，几百 MB 的块输入和一个重算中的块，再加上缓存的块：检查点无法低于 head 和模型状态所占的量。" },
  },

  experiment {
    id = "modes",
    title = { en = "Four checkpointing modes on one step", zh = "同一步上的四种检查点模式" },
    intro = { en = [[
GPT-2 small (124 M parameters, 12 layers, h = 768) at s = 1024, micro-batch 8, bf16 mixed
precision, AdamW. Each mode's step is replayed through the caching allocator; its compute is
`vram.checkpoint_cost`: 6 × params × tokens plus the recomputed forward, at 40 % of this GPU
profile's published 16-bit FLOP/s (a model, not a measured time).
]], zh = [[
GPT-2 small（1.24 亿参数，12 层，h = 768），s = 1024，micro-batch 8，bf16 混合精度，AdamW。每种模式的一步都经缓存分配器回放；计算量来自 `vram.checkpoint_cost`：6 × 参数 × token 数加上重算的前向，按本 GPU 配置公布的 16 位 FLOP/s 的 40% 计时（模型，不是实测时间）。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "allocated over the step (% of its events)", zh = "一步中的已分配（按事件百分比）" }, x = "% of step", y = "GB" },
      { id = "t", kind = "table", title = { en = "Peak against compute", zh = "峰值与计算量" } },
      { id = "peak", kind = "bars", title = { en = "Peak reserved by mode", zh = "各模式的已预留峰值" }, unit = "GB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local id = gpu_id()
      local spec = vram.gpu_spec(id)
      local q = shape(nil)
      q.gpu = id
      local cost = vram.checkpoint_cost(q)
      local none = vram.train_step(shape("none"))
      local model = use_model(none.peak.bytes)
      ex:row("t", { T("mode", "模式"), T("peak (model)", "峰值（模型）"), T("saved act.", "保存的激活"), T("+compute", "+计算"), T("step (model)", "每步（模型）") })
      for i, mode in ipairs(MODES) do
        local row = cost[i]
        local r = mode == "none" and none or vram.train_step(shape(mode))
        local name = ex.lang == "zh" and MODE_ZH[mode] or mode
        local n = #r.events
        local s, err = replay(r, model, (mode == "none" or mode == "full") and function(k, al)
          if k % 8 == 0 or k == n then ex:point("c", name, 100 * k / n, al:stats().allocated / GB, { from = al:stats() }) end
        end or nil)
        if s and s.backend == "model" then model = true end
        if not s then
          ex:note("peak", T(mode .. ": out of memory: " .. err, mode .. "：显存不足：" .. err))
        else
          ex:row("t", { name, units.si(row.peak), units.si(row.saved_activations), string.format("+%.1f%%", 100 * row.extra), units.time(row.seconds) })
          ex:bar("peak", name, s.peak_reserved / GB, { from = s, unit = "GB" })
        end
      end
      ex:note("t", T(string.format("Step time: FLOPs / (%.1f TFLOP/s x 40 %%), %s's published dense 16-bit rate: a model, not a measurement. sqrt: %d segments.",
                                   spec.flops / 1e12, spec.name, cost[4].segments),
                     string.format("每步时间：FLOPs / (%.1f TFLOP/s × 40%%)，%s 公布的 16 位稠密算力：模型，不是实测。√n：%d 段。",
                                   spec.flops / 1e12, spec.name, cost[4].segments)))
      ex:note("peak", T("Every mode peaks at the fp32 gradient of the logits (8192 x 50257 x 4 B = 1.65 GB): checkpointing never drops the head's tensors or the 16 B/param of model states."
                        .. (model and " Steps that did not fit this experiment's budget on the device were replayed on an 80 GiB model device (bars labelled SIMULATED)." or ""),
                        "每种模式的峰值都出现在 logits 的 fp32 梯度处（8192 × 50257 × 4 B = 1.65 GB）：检查点从不丢弃 head 的张量，也不动每参数 16 B 的模型状态。"
                        .. (model and "本机实验预算装不下的步改在 80 GiB 的模型设备上回放（柱子标注为 SIMULATED）。" or "")))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the panels
- Without checkpointing the curve climbs to its peak at the start of backward; with full
  checkpointing forward stays almost flat (each block keeps only its input) and backward shows a
  sawtooth: recompute a block, run its backward, free it.
- Selective removes the attention scores — here 5as/h = 80 of every layer's 114 sbh — for about
  +5 % compute; full and √n remove nearly all the blocks' activations for about +28 % (not +33 %:
  the embedding and LM head are not recomputed, and 6Ψ counts their parameters too).
- The reserved peaks fall less than the live ones: what remains is the model states, the logits
  in 16-bit and fp32 and their gradient, and the allocator's cached blocks. The next saving here
  is not more checkpointing but a loss that never materialises the full fp32 logits (a chunked or
  fused cross-entropy).

> [!pitfall] `use_reentrant` and what `torch.utils.checkpoint` really keeps
> PyTorch's checkpoint keeps the inputs of the wrapped function and recomputes its forward
> during backward; it checkpoints only what you wrap. Wrapping each transformer block is `full`
> here; Megatron-LM's `--recompute-granularity selective` is `selective`. PyTorch recommends
> `use_reentrant=False`.
]], zh = [[
## 怎么读这些面板
- 不用检查点时，曲线一路爬升，在反向开始时达到峰值；完全检查点时前向几乎是平的（每个块只保留输入），反向则呈锯齿状：重算一个块，做它的反向，释放它。
- 选择性重计算去掉了注意力分数——这里每层 114 sbh 中的 5as/h = 80——计算约 +5%；完全重计算和 √n 几乎去掉了所有块的激活，计算约 +28%（不是 +33%：嵌入层和 LM head 不重算，而 6Ψ 也把它们的参数算了进去）。
- 已预留峰值的下降比存活峰值少：剩下的是模型状态、16 位和 fp32 的 logits 及其梯度，以及分配器缓存的块。在这里，下一步的节省不是更多的检查点，而是不完整生成 fp32 logits 的损失函数（分块或融合的交叉熵）。

> [!pitfall] `use_reentrant` 以及 `torch.utils.checkpoint` 实际保留了什么
> PyTorch 的 checkpoint 保留被包裹函数的输入，在反向时重算其前向；它只对你包裹的部分做检查点。把每个 Transformer 块包起来，就是这里的 `full`；Megatron-LM 的 `--recompute-granularity selective` 就是 `selective`。PyTorch 推荐 `use_reentrant=False`。
]] },

  exercise {
    id = "full-cost",
    kind = "number",
    prompt = { en = "A training step costs about 6Ψ FLOPs per token: 2Ψ forward, 4Ψ backward. Full recomputation runs every layer's forward once more. By how many percent does it raise the step's compute (all parameters in recomputed layers)?",
               zh = "一个训练步每个 token 约 6Ψ FLOPs：前向 2Ψ，反向 4Ψ。完全重计算让每一层的前向再跑一次。它让每步计算量增加百分之几（假设所有参数都在被重算的层中）？" },
    answer = 33.3, unit = "%", tolerance = 0.02,
    hints = { { en = "Extra over base: one more forward against forward + backward.", zh = "额外量除以基准：多出的一次前向，对比前向 + 反向。" } },
    explain = { en = "2Ψ / 6Ψ = 1/3 = +33 %. The experiment shows +28 % for GPT-2 small because its embedding and head (32 % of the parameters) are not recomputed.",
                zh = "2Ψ / 6Ψ = 1/3 = +33%。实验中 GPT-2 small 是 +28%，因为它的嵌入层和 head（占参数的 32%）不重算。" },
  },

  exercise {
    id = "sqrt-k",
    kind = "number",
    prompt = { en = "√n checkpointing of a chain of n = 64 equal layers: the activation memory is about k segment inputs plus one recomputed segment of n/k layers. How many segments k minimise it?",
               zh = "对 n = 64 个相同层组成的链做 √n 检查点：激活显存约为 k 个分段输入加上一个被重算的、含 n/k 层的分段。分几段 k 时它最小？" },
    answer = 8, unit = "", tolerance = 0.001,
    hints = { { en = "Minimise k + n/k (take a segment input and a layer's activations as one unit each).", zh = "最小化 k + n/k（把一个分段输入和一层的激活各算作一个单位）。" } },
    explain = { en = "d/dk (k + n/k) = 1 - n/k^2 = 0 at k = √64 = 8: 8 inputs plus 8 layers' activations, against 64 layers' without checkpointing.",
                zh = "d/dk (k + n/k) = 1 − n/k² = 0，得 k = √64 = 8：8 个输入加 8 层的激活，而不做检查点时是 64 层的激活。" },
  },

  exercise {
    id = "selective-why",
    kind = "choice",
    prompt = { en = "Why does selective recomputation recompute exactly the attention core (QKᵀ, softmax, dropout, attention×V)?",
               zh = "为什么选择性重计算恰好重算注意力核心（QKᵀ、softmax、dropout、注意力×V）？" },
    choices = {
      { en = "Those ops have no weights, so they need no gradient", zh = "这些算子没有权重，所以不需要梯度" },
      { en = "It holds most of the activations at long contexts but only about s/(6h) of the layer's matmul FLOPs", zh = "在长上下文下它占了大部分激活，却只占该层矩阵乘法 FLOPs 的约 s/(6h)" },
      { en = "The softmax is not differentiable, so it must be recomputed", zh = "softmax 不可微，所以必须重算" },
      { en = "It is the first part of the layer, so it is recomputed first", zh = "它是层中的第一部分，所以先重算" },
    },
    answer = 2,
    hints = { { en = "Compare its share of memory (5as/h of 34 + 5as/h) with its share of compute (4bs²h of 24bsh²).", zh = "比较它在显存中的份额（34 + 5as/h 中的 5as/h）和在计算中的份额（24bsh² 中的 4bs²h）。" } },
    explain = { en = "At GPT-3's s = 2048 the core is 80/114 = 70 % of a layer's activations and 2048/(6 x 12288) = 2.8 % of its matmul FLOPs: the best memory per FLOP to give back.",
                zh = "在 GPT-3 的 s = 2048 时，核心占一层激活的 80/114 = 70%，却只占其矩阵乘法 FLOPs 的 2048/(6 × 12288) = 2.8%：用最少的计算换回最多的显存。" },
  },

  text { en = [[
## Or move them: activation offloading
Recomputation trades memory for FLOPs. **Offloading** trades it for the host link: keep every
activation, but on the host between forward and backward. PyTorch has it in one line,
`torch.autograd.graph.save_on_cpu(pin_memory=True)`: its pack hook copies each tensor autograd
saves to host memory, its unpack hook copies it back before the backward that needs it. Read the
hooks and you see the catch: the copy to the host is an ordinary `copy_` on the compute stream —
it does not return before it is done — and pinning only makes the copy back asynchronous. The
transfers add to the step. TransformerEngine's CPU offloading instead copies on streams of their
own while the next layer computes, so only what the compute cannot cover is paid.

Per layer, with A the bytes a layer saves (4.2), F its forward time and B the link each way:

| remedy | time it adds per layer | memory it leaves on the GPU |
|---|---|---|
| full recomputation | F (one more forward) | the layer's input, 2sbh |
| `save_on_cpu` (copies on the compute stream) | A/B + A/B | none |
| offload overlapped with compute | max(0, A/B − F) + max(0, A/B − 2F) | none (a layer or two in flight) |

A grows with h (34sbh with FlashAttention), F with h² (24sbh² of matmuls), so offloading wins
for wide layers on fast links. `save_on_cpu` matches recomputation at **B = 2A/F**: for h = 4096,
s = 2048 and FlashAttention on an A100 at 40 % MFU, A = 285 MB, F = 7.2 ms, B = 80 GB/s each way —
more than PCIe 5.0 x16's 63 GB/s. Overlapped, the copy to the host hides once B ≥ A/F = 40 GB/s.
On PCIe, **recompute, unless the copies overlap the compute and the layers are wide**; over
NVLink-C2C (a Grace Hopper, 450 GB/s each way) offloading is nearly free. The experiment puts
this machine's measured link into the formulas, then runs the three schedules on the device.
]], zh = [[
## 或者把它们挪走：激活卸载
重计算是用 FLOPs 换显存。**卸载**则是用主机链路换：每个激活都保留，但在前向和反向之间放在主机上。PyTorch 一行就能做到：`torch.autograd.graph.save_on_cpu(pin_memory=True)`：它的 pack 钩子把 autograd 保存的每个张量拷到主机内存，unpack 钩子在需要它的反向之前再拷回来。读一读这两个钩子就会发现问题：拷到主机的那一步是计算流上一次普通的 `copy_`——不完成就不返回——锁页内存只让拷回来的那一步变成异步。传输时间会加到每一步上。TransformerEngine 的 CPU 卸载则在自己的流上拷贝，同时下一层在计算，只有计算掩盖不住的部分才需要付出。

对每一层，设 A 为一层保存的字节数（4.2 节），F 为它的前向时间，B 为每个方向的链路带宽：

| 方法 | 每层增加的时间 | 留在 GPU 上的内存 |
|---|---|---|
| 完全重计算 | F（多一次前向） | 该层的输入，2sbh |
| `save_on_cpu`（在计算流上拷贝） | A/B + A/B | 无 |
| 与计算重叠的卸载 | max(0, A/B − F) + max(0, A/B − 2F) | 无（在途的一两层） |

A 随 h 增长（用 FlashAttention 时为 34sbh），F 随 h² 增长（24sbh² 的矩阵乘），所以层越宽、链路越快，卸载越划算。`save_on_cpu` 在 **B = 2A/F** 时与重计算打平：h = 4096、s = 2048、用 FlashAttention、A100 上 40% MFU 时，A = 285 MB，F = 7.2 ms，B = 每方向 80 GB/s——比 PCIe 5.0 x16 的 63 GB/s 还高。重叠时，B ≥ A/F = 40 GB/s 就能把拷到主机的那一步藏住。在 PCIe 上：**重计算，除非拷贝与计算重叠且层足够宽**；经 NVLink-C2C（Grace Hopper，每方向 450 GB/s）卸载几乎不花时间。实验把本机实测的链路代入公式，再在设备上把三种调度各跑一遍。
]] },

  experiment {
    id = "offload",
    key = "extra",
    title = { en = "Offload or recompute, at this machine's link", zh = "卸载还是重计算，按本机的链路" },
    intro = { en = [[
Measures this machine's pinned D2H and H2D (64 MiB, best of 5: `gpu.copy`; SIMULATED on the
simulator), then prices one layer of width h = 1024 to 16384 (s = 2048, FlashAttention, this GPU
profile's published FLOP/s at 40 % MFU; `vram.offload_activations`, a model) three ways. Then it
runs a four-layer stand-in on the device with `gpu.program`: each layer a kernel of the h = 4096
layer's forward time and its saved bytes copied to pinned host memory, on the compute stream
(`save_on_cpu`) or on a second stream after an event (overlapped), against a second kernel
(recompute) — scaled down to fit the experiment's memory, keeping the bytes-to-time ratio.
]], zh = [[
测量本机锁页内存的 D2H 和 H2D（64 MiB，5 次取最好：`gpu.copy`；模拟器上为 SIMULATED），然后对宽度 h = 1024 到 16384 的一层（s = 2048，FlashAttention，按本 GPU 配置公布算力的 40% MFU；`vram.offload_activations`，模型）用三种方式定价。接着用 `gpu.program` 在设备上跑一个四层的替身：每层一个核函数，时长等于 h = 4096 那一层的前向时间，再把它保存的字节拷到锁页主机内存——在计算流上（`save_on_cpu`），或在事件之后的第二个流上（重叠）——对照再跑一次核函数（重计算）；为装进实验的内存而按比例缩小，保持字节与时间之比不变。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "Time added per layer vs hidden size (model, this link)", zh = "每层增加的时间 vs 隐藏维度（模型，本机链路）" }, x = "hidden", y = "ms", logx = true },
      { id = "t", kind = "table", title = { en = "h = 4096, s = 2048: the three remedies", zh = "h = 4096，s = 2048：三种方法" } },
      { id = "extra", kind = "bars", title = { en = "Four-layer stand-in on this device: time added per layer", zh = "本设备上的四层替身：每层增加的时间" }, unit = "ms" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:status(T("measuring H2D and D2H", "正在测量 H2D 和 D2H"))
      local h2d, d2h, lab, why = pcie()
      if not h2d then ex:note("c", T("No bandwidth to work with: ", "没有可用的带宽数据：") .. why); ex:status(T("failed", "失败")); return end
      local id = gpu_id()
      for _, h in ipairs { 1024, 2048, 4096, 8192, 16384 } do
        local o = vram.offload_activations { layers = 1, hidden = h, heads = h // 128, seq = 2048, flash = true, gpu = id, d2h = d2h, h2d = h2d }
        ex:point("c", T("recompute", "重计算"), h, 1e3 * o.extra.recompute, { style = "theoretical" })
        ex:point("c", "save_on_cpu", h, 1e3 * o.extra.offload_sync, lab)
        ex:point("c", T("overlapped offload", "重叠卸载"), h, 1e3 * o.extra.offload_overlap, lab)
      end
      local o = layer4096(id, d2h, h2d)
      ex:note("c", T(string.format("Link: D2H %s, H2D %s (%s). save_on_cpu equals recomputation at %s each way at h = 4096; overlapped offload hides the copy out from %s.",
                                   units.rate(d2h), units.rate(h2d), lab.from and (lab.from.simulated and "SIMULATED" or "measured") or "theoretical",
                                   units.rate(o.breakeven_sync), units.rate(o.breakeven_overlap)),
                     string.format("链路：D2H %s，H2D %s（%s）。h = 4096 时 save_on_cpu 在每方向 %s 时与重计算打平；重叠卸载从 %s 起就能藏住拷出。",
                                   units.rate(d2h), units.rate(h2d), lab.from and (lab.from.simulated and "模拟" or "实测") or "理论值",
                                   units.rate(o.breakeven_sync), units.rate(o.breakeven_overlap))))
      ex:row("t", { T("remedy", "方法"), T("added per layer", "每层增加"), T("GPU keeps per layer", "GPU 每层保留") })
      ex:row("t", { T("recompute", "重计算"), units.time(o.extra.recompute), units.bytes(o.kept) })
      ex:row("t", { "save_on_cpu", units.time(o.extra.offload_sync), "0 B" })
      ex:row("t", { T("overlapped offload", "重叠卸载"), units.time(o.extra.offload_overlap), "0 B" })
      ex:note("t", T(string.format("A layer saves %s and computes its forward in %s (model). Cheaper here: %s with save_on_cpu, %s overlapped.",
                                   units.bytes(o.saved), units.time(o.forward_seconds), o.cheaper_sync, o.cheaper_overlap),
                     string.format("一层保存 %s，前向计算 %s（模型）。这里更便宜的：用 save_on_cpu 时是 %s，重叠时是 %s。",
                                   units.bytes(o.saved), units.time(o.forward_seconds), o.cheaper_sync == "offload" and "卸载" or "重计算",
                                   o.cheaper_overlap == "offload" and "卸载" or "重计算")))
      ex:status(T("running the stand-in on the device", "在设备上运行替身"))
      local base, err = stand_in("none", o)
      if not base then ex:note("extra", T("gpu.program failed: ", "gpu.program 失败：") .. tostring(err)); ex:status(T("failed", "失败")); return end
      for _, m in ipairs { { "recompute", T("recompute", "重计算") }, { "sync", "save_on_cpu" }, { "overlap", T("overlapped offload", "重叠卸载") } } do
        local r, e = stand_in(m[1], o)
        if r then ex:bar("extra", m[2], 1e3 * (r.seconds - base.seconds) / 4, { from = r, unit = "ms" })
        else ex:note("extra", m[2] .. ": " .. tostring(e)) end
      end
      ex:note("extra", T(string.format("Stand-in: %s per layer and a kernel of %s, the h = 4096 layer's ratio; four layers, against the kernels alone (%s).",
                                       units.bytes(o.stand_bytes), units.time(o.stand_seconds), units.time(base.seconds)),
                         string.format("替身：每层 %s，核函数 %s，保持 h = 4096 那一层的比例；四层，对照只跑核函数（%s）。",
                                       units.bytes(o.stand_bytes), units.time(o.stand_seconds), units.time(base.seconds))))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "save-on-cpu-ms",
    kind = "number",
    prompt = { en = "A layer saves 285 MB (h = 4096, s = 2048, FlashAttention, bf16). With `save_on_cpu` over a link of 25 GB/s each way, how many ms does it add per layer, counting the copy out in forward and the copy back in backward?",
               zh = "一层保存 285 MB（h = 4096，s = 2048，FlashAttention，bf16）。用 `save_on_cpu`、链路每方向 25 GB/s，每层增加多少 ms（算上前向时拷出和反向时拷回）？" },
    answer = 2 * 285474816 / 25e9 * 1e3, unit = "ms", tolerance = 0.03,
    mistakes = { { value = 285474816 / 25e9 * 1e3, say = { en = "That is one direction: the bytes come back for backward too.", zh = "那只是一个方向：反向时这些字节还要拷回来。" } } },
    hints = { { en = "Bytes over the link, out and back, each at 25e9 B/s.", zh = "字节经链路出去再回来，每个方向 25e9 B/s。" } },
    explain = { en = "2 x 285 MB / 25 GB/s = 22.8 ms, on the compute stream, against 7.2 ms to recompute the layer's forward on an A100 at 40 % MFU: recomputation is three times cheaper here.",
                zh = "2 × 285 MB / 25 GB/s = 22.8 ms，在计算流上；而在 A100 上以 40% MFU 重算这一层的前向只要 7.2 ms：这里重计算便宜三倍。" },
  },

  exercise {
    id = "breakeven-link",
    kind = "number",
    prompt = { en = "The same layer recomputes its forward in 7.16 ms. At what bandwidth each way (GB/s) does `save_on_cpu` cost exactly as much as recomputing?",
               zh = "同一层重算前向要 7.16 ms。链路每方向带宽为多少（GB/s）时，`save_on_cpu` 的代价正好等于重计算？" },
    answer = 2 * 285474816 / 7.16e-3 / 1e9, unit = "GB/s", tolerance = 0.02,
    mistakes = { { value = 285474816 / 7.16e-3 / 1e9, say = { en = "That is the overlapped break-even (copy out hidden by the forward); save_on_cpu pays both copies in full.", zh = "那是重叠卸载的平衡点（拷出被前向掩盖）；save_on_cpu 两次拷贝都要全额付出。" } } },
    hints = { { en = "Set 2A/B equal to F and solve for B.", zh = "令 2A/B 等于 F，解出 B。" } },
    explain = { en = "B = 2A/F = 2 x 285 MB / 7.16 ms = 79.7 GB/s each way, above PCIe 5.0 x16 (63 GB/s): on PCIe, recompute; on NVLink-C2C (450 GB/s) offload.",
                zh = "B = 2A/F = 2 × 285 MB / 7.16 ms = 每方向 79.7 GB/s，高于 PCIe 5.0 x16（63 GB/s）：在 PCIe 上重计算；在 NVLink-C2C（450 GB/s）上卸载。" },
  },

  exercise {
    id = "wide-layers",
    kind = "choice",
    prompt = { en = "Why does offloading pay for wide layers and not for narrow ones, on the same link?",
               zh = "同一条链路上，为什么层宽时卸载划算、层窄时不划算？" },
    choices = {
      { en = "Wide layers save fewer bytes per token", zh = "宽的层每个 token 保存的字节更少" },
      { en = "The bytes a layer saves grow with h, its forward FLOPs with h²: the copy shrinks relative to the compute it hides behind", zh = "一层保存的字节随 h 增长，前向 FLOPs 随 h² 增长：相对于能掩盖它的计算，拷贝变小了" },
      { en = "PCIe runs faster for large copies", zh = "PCIe 拷大块时更快" },
    },
    answer = 2,
    hints = { { en = "Write A and F as functions of h.", zh = "把 A 和 F 写成 h 的函数。" } },
    explain = { en = "A ≈ 34sbh bytes, F ≈ 24sbh² FLOPs (plus attention): A/F ∝ 1/h. Doubling h halves the link needed to hide the copy.",
                zh = "A ≈ 34sbh 字节，F ≈ 24sbh² FLOPs（再加注意力）：A/F ∝ 1/h。h 翻倍，藏住拷贝所需的链路带宽减半。" },
  },

  text { en = [[
> [!source] Sources
> T. Chen, B. Xu, C. Zhang, C. Guestrin, "Training Deep Nets with Sublinear Memory Cost",
> arXiv:1604.06174, 2016, abstract and sec. 4 (√n segments, one extra forward; 48 GB → 7 GB). V. Korthikanti et al.,
> "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023, sec. 5 (selective
> recomputation) and abstract (5×, over 90 %). J. Kaplan et al., "Scaling Laws for Neural
> Language Models", 2020, sec. 2.1 (C ≈ 6N FLOPs per token). PyTorch `torch/utils/checkpoint.py`.
> FLOP/s: the GPU's datasheet, `vram.gpu_specs()` (`docs/vram-train.md`). Offloading: PyTorch
> `torch/autograd/graph.py` (`save_on_cpu`: the pack hook's `copy_`, the unpack hook's
> `non_blocking=pin_memory`); NVIDIA TransformerEngine docs, "CPU offloading"; NVIDIA Grace
> Hopper Superchip datasheet (NVLink-C2C, 900 GB/s total, 450 GB/s each way); PCI-SIG (`vram.pcie`);
> the link: this machine, `gpu.copy` (lesson 3.1); the stand-in: `gpu.program` (docs/lua-api.md).
> The estimator: `vram.offload_activations` (`docs/vram-train.md`).
]], zh = [[
> [!source] 出处
> T. Chen, B. Xu, C. Zhang, C. Guestrin, "Training Deep Nets with Sublinear Memory Cost", arXiv:1604.06174, 2016，摘要和第 4 节（√n 分段，多一次前向；48 GB → 7 GB）。V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023，第 5 节（选择性重计算）和摘要（5 倍，90% 以上）。J. Kaplan et al., "Scaling Laws for Neural Language Models", 2020，第 2.1 节（每个 token 约 6N FLOPs）。PyTorch `torch/utils/checkpoint.py`。FLOP/s：GPU 数据手册，`vram.gpu_specs()`（`docs/vram-train.md`）。卸载：PyTorch `torch/autograd/graph.py`（`save_on_cpu`：pack 钩子的 `copy_`，unpack 钩子的 `non_blocking=pin_memory`）；NVIDIA TransformerEngine 文档 “CPU offloading”；NVIDIA Grace Hopper 超级芯片数据手册（NVLink-C2C，共 900 GB/s，每方向 450 GB/s）；PCI-SIG（`vram.pcie`）；链路：本机 `gpu.copy`（3.1 节）；替身：`gpu.program`（docs/lua-api.md）。估算器：`vram.offload_activations`（`docs/vram-train.md`）。
]] },
}
