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

> [!errata] "梯度检查点能省一半显存，只慢几个百分点"
> 这两半都取决于模式。完全重计算要给每个块多做一次前向——计算量约多三分之一，而不是"几个百分点"；它能达到的峰值由它丢不掉的部分决定：模型状态（每参数 16 B），以及 LM head 的 logits 和它们的 fp32 梯度。讲义建议显存不够时优先用梯度检查点而不是和内存交换，这个建议是对的（4.5 节会说明原因），但要测一测它让每步慢了多少。
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

> [!source] Sources
> T. Chen, B. Xu, C. Zhang, C. Guestrin, "Training Deep Nets with Sublinear Memory Cost",
> arXiv:1604.06174, 2016, abstract and sec. 4 (√n segments, one extra forward; 48 GB → 7 GB). V. Korthikanti et al.,
> "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023, sec. 5 (selective
> recomputation) and abstract (5×, over 90 %). J. Kaplan et al., "Scaling Laws for Neural
> Language Models", 2020, sec. 2.1 (C ≈ 6N FLOPs per token). PyTorch `torch/utils/checkpoint.py`.
> FLOP/s: the GPU's datasheet, `vram.gpu_specs()` (`docs/vram-train.md`).
]], zh = [[
## 怎么读这些面板
- 不用检查点时，曲线一路爬升，在反向开始时达到峰值；完全检查点时前向几乎是平的（每个块只保留输入），反向则呈锯齿状：重算一个块，做它的反向，释放它。
- 选择性重计算去掉了注意力分数——这里每层 114 sbh 中的 5as/h = 80——计算约 +5%；完全重计算和 √n 几乎去掉了所有块的激活，计算约 +28%（不是 +33%：嵌入层和 LM head 不重算，而 6Ψ 也把它们的参数算了进去）。
- 已预留峰值的下降比存活峰值少：剩下的是模型状态、16 位和 fp32 的 logits 及其梯度，以及分配器缓存的块。在这里，下一步的节省不是更多的检查点，而是不完整生成 fp32 logits 的损失函数（分块或融合的交叉熵）。

> [!pitfall] `use_reentrant` 以及 `torch.utils.checkpoint` 实际保留了什么
> PyTorch 的 checkpoint 保留被包裹函数的输入，在反向时重算其前向；它只对你包裹的部分做检查点。把每个 Transformer 块包起来，就是这里的 `full`；Megatron-LM 的 `--recompute-granularity selective` 就是 `selective`。PyTorch 推荐 `use_reentrant=False`。

> [!source] 出处
> T. Chen, B. Xu, C. Zhang, C. Guestrin, "Training Deep Nets with Sublinear Memory Cost", arXiv:1604.06174, 2016，摘要和第 4 节（√n 分段，多一次前向；48 GB → 7 GB）。V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023，第 5 节（选择性重计算）和摘要（5 倍，90% 以上）。J. Kaplan et al., "Scaling Laws for Neural Language Models", 2020，第 2.1 节（每个 token 约 6N FLOPs）。PyTorch `torch/utils/checkpoint.py`。FLOP/s：GPU 数据手册，`vram.gpu_specs()`（`docs/vram-train.md`）。
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

}
