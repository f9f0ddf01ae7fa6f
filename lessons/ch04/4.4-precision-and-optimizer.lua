-- Lesson 4.4: precision and optimizer state - fp32, mixed precision (fp16/bf16 with an fp32
-- master copy), pure bf16 and 8-bit Adam: bytes per parameter (vram.bytes_per_param) and one
-- step of each through the caching allocator: what mixed precision saves and what it does not.
local GB = units.GB

-- GPT-2 small at s = 1024, micro-batch 4, no checkpointing.
local SHAPE = { layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 4, positions = 1024 }
local CONFIGS = {
  { "fp32", "adamw", "fp32 + AdamW", "fp32 + AdamW" },
  { "amp_bf16", "adamw", "AMP bf16 + AdamW", "AMP bf16 + AdamW" },
  { "bf16", "adamw", "pure bf16 + AdamW", "纯 bf16 + AdamW" },
  { "amp_bf16", "adam8bit", "AMP bf16 + 8-bit Adam", "AMP bf16 + 8 位 Adam" },
}

local function step(prec, opt)
  local t = { precision = prec, optimizer = opt }
  for k, v in pairs(SHAPE) do t[k] = v end
  return vram.train_step(t)
end

-- One step's events through the caching allocator (vram.replay: this backend's, or a model
-- device of `capacity` when `model` is set or the device runs short midway; SIMULATED then).
local function replay(r, model, on_event, capacity)
  return vram.replay(r.events, { model = model, on_event = on_event, capacity = capacity })
end

local function use_model() return gpu.budget() < 1.3 * step("fp32", "adamw").peak.bytes end

return lesson {
  id = "4.4",
  chapter = 4,
  chapter_title = { en = "The memory of a training step", zh = "训练一步的显存" },
  title = { en = "Precision and optimizer state", zh = "精度与优化器状态" },
  requires = { "gpu" },

  text { en = [[
# Precision and optimizer state

Bytes per parameter, by what the step keeps (`vram.bytes_per_param`):

| setup | weights | gradients | fp32 master | optimizer state | total |
|---|---|---|---|---|---|
| fp32 + Adam | 4 | 4 | — | 8 (m, v) | **16** |
| mixed precision (fp16 or bf16) + Adam | 2 | 2 | 4 | 8 | **16** |
| pure bf16 + Adam (bf16 m, v) | 2 | 2 | — | 4 | **8** |
| mixed precision + 8-bit Adam | 2 | 2 | 4 | 2.03 | **10.03** |
| fp32 + SGD with momentum | 4 | 4 | — | 4 | 12 |

## What mixed precision saves — and what it does not
Mixed precision (Micikevicius et al. 2018) runs the matmuls in 16 bits and keeps an **fp32 master
copy** of the weights for the update, because a small update added to a 16-bit weight rounds
away. Adam's m and v stay fp32. So the model states are **2 + 2 + 4 + 8 = 16 B/param**, exactly
fp32 Adam's 4 + 4 + 8 (ZeRO's K = 12 for "fp32 master, m, v": Rajbhandari et al. 2020, sec. 3.1).
What it halves is the **activations**: every saved tensor is 2 bytes instead of 4 (dropout masks
stay 1 byte). And it runs on tensor cores, several times faster.

PyTorch's `torch.autocast` (`torch.amp`) does it differently, with the same total: the weights
and gradients stay fp32 (4 + 4), Adam keeps m and v (8), and forward casts 16-bit copies of the
weights, which autocast caches until the forward ends (up to 2Ψ more). apex O2, Megatron-LM and
DeepSpeed keep 16-bit weights as the table does.

> [!errata] "Mixed precision halves training memory"
> It halves the activations, not the model states: with Adam both fp32 and mixed precision keep
> 16 bytes per parameter. A 7B model needs 112 GB of model states either way. The lecture's
> pitfall — “用 torch.cuda.amp 做混合精度训练时，显存确实省了” — is right about activations; when
> the weights and optimizer dominate (large models, small batches) AMP saves little memory.
> Source: Micikevicius et al. 2018 (fp32 master copy); Rajbhandari et al. 2020, sec. 3.1
> (2 + 2 + K with K = 12); the experiment below (model states and peaks, fp32 against AMP).

## Cutting the optimizer state
- **Pure bf16**: no master copy, m and v in bf16: 8 B/param. The price is precision: bf16 has
  8 significant bits, so an update smaller than half a unit in the weight's last place — between
  1/512 and 1/256 of its magnitude — is rounded away; stochastic rounding or Kahan summation of
  the updates recovers it (Zamirai et al. 2020).
- **8-bit Adam** (Dettmers et al. 2022): m and v as 8-bit codes with one fp32 scale (absmax) per
  block of values (2048 in the paper, 256 in current bitsandbytes): 2 × (1 + 4/256) = 2.03
  B/param instead of 8. Tensors under 4096 elements keep fp32 state.
- **SGD** keeps one state (momentum) or none; Adafactor factors v into row and column statistics.

The experiment takes GPT-2 small at s = 1024 and micro-batch 4 and replays one step of each
setup through the caching allocator.
]], zh = [[
# 精度与优化器状态

按一步训练保留的内容，每个参数的字节数（`vram.bytes_per_param`）：

| 配置 | 权重 | 梯度 | fp32 主副本 | 优化器状态 | 合计 |
|---|---|---|---|---|---|
| fp32 + Adam | 4 | 4 | — | 8（m、v） | **16** |
| 混合精度（fp16 或 bf16）+ Adam | 2 | 2 | 4 | 8 | **16** |
| 纯 bf16 + Adam（bf16 的 m、v） | 2 | 2 | — | 4 | **8** |
| 混合精度 + 8 位 Adam | 2 | 2 | 4 | 2.03 | **10.03** |
| fp32 + 带动量的 SGD | 4 | 4 | — | 4 | 12 |

## 混合精度省了什么，没省什么
混合精度（Micikevicius et al. 2018）用 16 位做矩阵乘法，另外保留一份权重的 **fp32 主副本**用于更新，因为把很小的更新量加到 16 位权重上会被舍入掉。Adam 的 m 和 v 仍然是 fp32。所以模型状态是 **2 + 2 + 4 + 8 = 每参数 16 B**，与 fp32 Adam 的 4 + 4 + 8 完全相同（ZeRO 中“fp32 主副本、m、v”的 K = 12：Rajbhandari et al. 2020，第 3.1 节）。它减半的是**激活**：每个保存的张量从 4 字节变为 2 字节（dropout 掩码仍是 1 字节）。另外它跑在 Tensor Core 上，快好几倍。

PyTorch 的 `torch.autocast`（`torch.amp`）做法不同，总量相同：权重和梯度保持 fp32（4 + 4），Adam 保留 m 和 v（8），前向时把权重转换成 16 位副本，autocast 会把这些副本缓存到前向结束（最多再多 2Ψ）。apex O2、Megatron-LM 和 DeepSpeed 则像上表那样保留 16 位权重。

> [!errata] “混合精度能让训练显存减半”
> 它减半的是激活，而不是模型状态：用 Adam 时，fp32 和混合精度都是每参数 16 字节。7B 模型无论哪种都需要 112 GB 的模型状态。讲义的避坑指南说“用 torch.cuda.amp 做混合精度训练时，显存确实省了”——就激活而言没错；但当权重和优化器占主导时（大模型、小 batch），AMP 省下的显存很少。
> 出处：Micikevicius et al. 2018（fp32 主副本）；Rajbhandari et al. 2020，第 3.1 节（2 + 2 + K，K = 12）；下面的实验（fp32 对比 AMP 的模型状态和峰值）。

## 削减优化器状态
- **纯 bf16**：没有主副本，m 和 v 用 bf16：每参数 8 B。代价是精度：bf16 只有 8 位有效数字，小于权重末位半个单位的更新——即权重大小的 1/512 到 1/256——会被舍入掉；对更新做随机舍入或 Kahan 求和可以找回它们（Zamirai et al. 2020）。
- **8 位 Adam**（Dettmers et al. 2022）：m 和 v 存成 8 位编码，每一块数值配一个 fp32 缩放因子（absmax）（论文中每块 2048 个，当前 bitsandbytes 是 256 个）：每参数 2 × (1 + 4/256) = 2.03 B，而不是 8 B。少于 4096 个元素的张量仍保留 fp32 状态。
- **SGD** 只保留一个状态（动量）或不保留；Adafactor 把 v 分解为行和列的统计量。

实验取 GPT-2 small，s = 1024，micro-batch 4，把每种配置的一步都经缓存分配器回放。
]] },

  exercise {
    id = "predict-amp",
    kind = "predict",
    prompt = { en = [[
GPT-2 small at s = 1024, micro-batch 4, AdamW: predict the ratio of the step's peak reserved in
**fp32** to its peak reserved with **bf16 mixed precision** (both through the caching allocator).
]], zh = [[
GPT-2 small，s = 1024，micro-batch 4，AdamW：预测该步在 **fp32** 下的已预留峰值与 **bf16 混合精度**下的已预留峰值之比（都经缓存分配器回放）。
]] },
    unit = "x", tolerance = 0.08,
    measure = function()
      local model = use_model()
      local a = assert(replay(step("fp32", "adamw"), model))
      local b = assert(replay(step("amp_bf16", "adamw"), model))
      return a.peak_reserved / b.peak_reserved, b
    end,
    hints = { { en = "Which parts of the peak are 4 bytes in fp32 and 2 in AMP, and which are the same in both (model states, the loss's fp32 logits)?",
                zh = "峰值中哪些部分在 fp32 下是 4 字节、在 AMP 下是 2 字节？哪些在两者中一样（模型状态、损失函数的 fp32 logits）？" } },
    explain = { en = "Well under 2: the activations halve, but the 16 B/param of model states, the fp32 logits and their gradient, and the allocator's cache do not.",
                zh = "远小于 2：激活减半了，但每参数 16 B 的模型状态、fp32 的 logits 及其梯度、分配器的缓存都没有减少。" },
  },

  experiment {
    id = "precisions",
    title = { en = "Four setups, one step each", zh = "四种配置，各跑一步" },
    intro = { en = [[
For each setup: bytes per parameter, the model states (weights, master copy, optimizer state) and
the saved activations from the estimator (GB = 1e9 B), and the step's peak reserved through the
caching allocator.
]], zh = [[
每种配置：每参数字节数、估算器给出的模型状态（权重、主副本、优化器状态）和保存的激活（GB = 1e9 B），以及经缓存分配器回放得到的该步已预留峰值。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Bytes per parameter and what they add up to (model)", zh = "每参数字节数及其总量（模型）" } },
      { id = "states", kind = "bars", title = { en = "Model states + gradients (model)", zh = "模型状态 + 梯度（模型）" }, unit = "GB" },
      { id = "peak", kind = "bars", title = { en = "Peak reserved of the step", zh = "该步的已预留峰值" }, unit = "GB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local model = use_model()
      ex:row("t", { T("setup", "配置"), "w+g+m+opt", T("B/param", "B/参数"), T("saved act.", "保存的激活"), T("peak (model)", "峰值（模型）") })
      local params
      for _, c in ipairs(CONFIGS) do
        local r = step(c[1], c[2])
        params = r.params
        local b = r.bytes_per_param
        local name = ex.lang == "zh" and c[4] or c[3]
        ex:row("t", { name, string.format("%.3g+%.3g+%.3g+%.3g", b.weights, b.gradients, b.master, b.optimizer), string.format("%.4g", b.total),
                      units.si(r.saved_activations), units.si(r.peak.bytes) })
        ex:bar("states", name, b.total * r.params / GB, { style = "theoretical", unit = "GB" })
        local s, err = replay(r, model)
        if s and s.backend == "model" then model = true end
        if s then ex:bar("peak", name, s.peak_reserved / GB, { from = s, unit = "GB" })
        else ex:note("peak", name .. ": " .. err) end
      end
      ex:note("states", T(string.format("%.1f M parameters x B/param. fp32 and AMP: the same 16 B.", params / 1e6),
                          string.format("%.1f M 参数 × 每参数字节数。fp32 与 AMP：同为 16 B。", params / 1e6)))
      ex:note("peak", T("AMP's saving is the activations (and the logits in 16-bit); the fp32 logits for the loss and the model states stay."
                        .. (model and " Steps that did not fit this experiment's budget on the device were replayed on an 80 GiB model device (bars labelled SIMULATED)." or ""),
                        "AMP 省下的是激活（以及 16 位的 logits）；给损失函数用的 fp32 logits 和模型状态都还在。"
                        .. (model and "本机实验预算装不下的步改在 80 GiB 的模型设备上回放（柱子标注为 SIMULATED）。" or "")))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the panels
The model-state bars of fp32 and AMP are equal; pure bf16 halves them and 8-bit Adam takes them
to 10/16. The peaks tell another story, because at micro-batch 4 this small model's step is
dominated by activations and logits: AMP saves the most, all of it in activations, while the
optimizer tricks save only their 6–8 B/param × 124 M (0.75–1 GB). Scale the model up and the balance turns: for a 7B
model at micro-batch 1 the 112 GB of model states dwarf a few GB of activations, and only fewer
bytes per parameter (or sharding them, 4.5) helps.

> [!source] Sources
> P. Micikevicius et al., "Mixed Precision Training", ICLR 2018 (fp32 master weights, loss
> scaling). S. Rajbhandari et al., "ZeRO", SC 2020, sec. 3.1 (2 + 2 + K with K = 12).
> T. Dettmers, M. Lewis, S. Shleifer, L. Zettlemoyer, "8-bit Optimizers via Block-wise
> Quantization", ICLR 2022; bitsandbytes `Optimizer2State.init_state` (block size, `min_8bit_size`).
> P. Zamirai, J. Zhang, C. Aberger, C. De Sa, "Revisiting BFloat16 Training", arXiv:2010.06192,
> 2020. PyTorch `torch/amp/autocast_mode.py` (the cast cache). N. Shazeer, M. Stern, "Adafactor",
> ICML 2018.
]], zh = [[
## 怎么读这些面板
fp32 和 AMP 的模型状态柱一样高；纯 bf16 把它减半，8 位 Adam 把它降到 10/16。峰值讲的是另一回事：在 micro-batch 4 下，这个小模型的一步主要由激活和 logits 决定：AMP 省得最多，而且全部来自激活；优化器上的技巧只省下每参数 6–8 B × 1.24 亿（0.75–1 GB）。把模型放大，天平就会倒向另一边：7B 模型在 micro-batch 1 时，112 GB 的模型状态远大于几 GB 的激活，只有减少每参数字节数（或把它们切分，4.5 节）才有用。

> [!source] 出处
> P. Micikevicius et al., "Mixed Precision Training", ICLR 2018（fp32 主权重、损失缩放）。S. Rajbhandari et al., "ZeRO", SC 2020，第 3.1 节（2 + 2 + K，K = 12）。T. Dettmers, M. Lewis, S. Shleifer, L. Zettlemoyer, "8-bit Optimizers via Block-wise Quantization", ICLR 2022；bitsandbytes `Optimizer2State.init_state`（块大小、`min_8bit_size`）。P. Zamirai, J. Zhang, C. Aberger, C. De Sa, "Revisiting BFloat16 Training", arXiv:2010.06192, 2020。PyTorch `torch/amp/autocast_mode.py`（转换缓存）。N. Shazeer, M. Stern, "Adafactor", ICML 2018。
]] },

  exercise {
    id = "amp-states",
    kind = "choice",
    prompt = { en = "You switch a model trained in fp32 with Adam to mixed precision (bf16 compute, fp32 master weights, Adam). What happens to its model states (weights, gradients, master copy, m, v)?",
               zh = "把一个用 fp32 + Adam 训练的模型改成混合精度（bf16 计算、fp32 主权重、Adam）。它的模型状态（权重、梯度、主副本、m、v）会怎样？" },
    choices = {
      { en = "They halve: everything is stored in 16 bits", zh = "减半：所有东西都用 16 位存储" },
      { en = "They stay at 16 bytes per parameter", zh = "保持每参数 16 字节不变" },
      { en = "They shrink by a quarter: only the weights are halved", zh = "减少四分之一：只有权重减半" },
      { en = "They double, because there are two copies of the weights", zh = "翻倍，因为权重有两份" },
    },
    answer = 2,
    hints = { { en = "Which of the states get smaller in mixed precision, and which one appears that fp32 training does not need?", zh = "混合精度下哪些状态变小了？又多出了哪一项 fp32 训练不需要的？" } },
    explain = { en = "16 = 16: the 16-bit weights and gradients save 4 B/param, the fp32 master copy takes 4 back. What AMP halves is the activations.",
                zh = "16 = 16：16 位的权重和梯度省下每参数 4 B，fp32 主副本又占回 4 B。AMP 减半的是激活。" },
  },

  exercise {
    id = "adam8bit-7b",
    kind = "number",
    prompt = { en = "A 7B-parameter model trained with 8-bit Adam as bitsandbytes stores it: m and v each as 8-bit codes, with one fp32 absmax per block of 256 values of each. How many MB (1e6 B) do the absmax scales take in all?",
               zh = "一个 70 亿参数的模型用 bitsandbytes 的 8 位 Adam 训练：m 和 v 各存成 8 位编码，各自每 256 个值一块、每块一个 fp32 absmax。这些 absmax 缩放因子一共占多少 MB（1e6 B）？" },
    answer = 218.75, unit = "MB", tolerance = 0.02,
    mistakes = {
      { value = 7e9 / 2048 * 2 * 4 / 1e6, say = { en = "That is with the paper's blocks of 2048 values; bitsandbytes today uses blocks of 256 (Optimizer2State.init_state).",
                                                  zh = "那是论文里每块 2048 个值的算法；如今的 bitsandbytes 每块 256 个值（Optimizer2State.init_state）。" } },
      { factor = 2, say = { en = "m and v each have their own scales: two sets of 7e9/256 blocks.",
                            zh = "m 和 v 各有自己的缩放因子：两组，每组 7e9/256 块。" } },
    },
    hints = { { en = "Blocks: 7e9 / 256 per state; one 4-byte absmax per block; two states.", zh = "每个状态有 7e9 / 256 块；每块一个 4 字节的 absmax；共两个状态。" } },
    explain = { en = "2 x 7e9 / 256 x 4 B = 218.75 MB, 0.03 B per parameter: 2 + 2 + 4 + 2 x (1 + 4/256) = 10.03 B/param x 7e9 = 70.2 GB of states and gradients, against 112 GB with 32-bit Adam. The scales are 0.3 % of it: a rounding of 70 GB would hide them, which is why this asks for them alone.",
                zh = "2 × 7e9 / 256 × 4 B = 218.75 MB，每参数 0.03 B：2 + 2 + 4 + 2 × (1 + 4/256) = 每参数 10.03 B × 7e9 = 70.2 GB 的模型状态加梯度，而 32 位 Adam 是 112 GB。缩放因子只占其中 0.3 %：把总量四舍五入成 70 GB 就看不见它们了，所以这里单独问它们。" },
  },

}
