-- Lesson 4.2: the activation memory of a transformer layer, sbh(34 + 5as/h) (Korthikanti et al.
-- 2022), what FlashAttention removes, and how it grows with the context: vram.activations for the
-- formula, vram.train_step replayed through the caching allocator for a whole step.
local MB, GB = units.MB, units.GB

-- A layer of a 7B-class model (LLaMA-7B's width and heads, GPT-style block), micro-batch 1.
local WIDE = { hidden = 4096, heads = 32, batch = 1 }
-- The chapter's small model (4.1) at micro-batch 1, for whole steps through the allocator.
local SMALL = { layers = 4, hidden = 512, heads = 8, batch = 1 }

-- One step's events through the caching allocator (vram.replay: this backend's, or a model
-- device of `capacity` when `model` is set or the device runs short midway; SIMULATED then).
local function replay(r, model, on_event, capacity)
  return vram.replay(r.events, { model = model, on_event = on_event, capacity = capacity })
end

local function small(seq, flash)
  local t = { seq = seq, flash = flash }
  for k, v in pairs(SMALL) do t[k] = v end
  return vram.train_step(t)
end

-- The small model's whole step at seq through the allocator; the device's allocator only when the
-- largest step of the experiment (s = 4096, eager) fits the budget, so that all four compare alike.
local function step_reserved(seq, flash)
  return replay(small(seq, flash), gpu.budget() < 1.5 * small(4096, false).peak.bytes)
end

return lesson {
  id = "4.2",
  chapter = 4,
  chapter_title = { en = "The memory of a training step", zh = "训练一步的显存" },
  title = { en = "Activation memory of a transformer", zh = "Transformer 的激活显存" },
  requires = { "gpu" },

  text { en = [[
# Activation memory of a transformer

Backward needs the inputs of (almost) every op of forward, so forward **saves** them. Korthikanti
et al. (2022, sec. 4.1) counted them for one GPT-style layer, with s the sequence length, b the
micro-batch, h the hidden size, a the attention heads, activations in 16 bits (2 B) and dropout
masks in 1 byte:

| part | bytes | what is saved |
|---|---|---|
| attention block | 11sbh | QKV input 2sbh, Q and K 4sbh, V 2sbh, projection input 2sbh, dropout mask sbh |
| attention scores | 5as²b | softmax output 2as²b, its dropout mask as²b, dropout output 2as²b |
| MLP | 19sbh | fc1 input 2sbh, GeLU input 8sbh, fc2 input 8sbh, dropout mask sbh |
| two LayerNorms | 4sbh | their inputs |

Together, per layer (eq. 1 of the paper):

```
activations per layer = sbh (34 + 5as/h)  bytes
```

Since h/a is the head dimension d, 5as/h = **5s/d**: the second term is the only one that grows
with s *per token*. It equals the first when s = 34d/5 = **6.8 d**: at s = 870 for d = 128, at
s = 435 for d = 64. Past that, the s×s attention scores hold most of the layer's activations.

## The paper's worked example
GPT-3 175B (s = 2048, h = 12,288, a = 96, b = 1): 5as/h = 80, so one layer saves
114 × sbh = 114 × 25,165,824 = **2.87 GB**, 80/114 = 70 % of it in the scores; 96 layers save
**275 GB** — more than three 80 GB GPUs, for a micro-batch of one sequence. Table 2 of the paper
shows how parallelism and recomputation divide it:

| technique | activations per layer |
|---|---|
| none | sbh(34 + 5as/h) |
| tensor parallel (t GPUs) | sbh(10 + 24/t + 5as/(ht)) |
| tensor + sequence parallel | sbh/t · (34 + 5as/h) |
| tensor parallel + selective recomputation | sbh(10 + 24/t) |
| tensor + sequence parallel + selective recomputation | 34sbh/t |
| full recomputation | 2sbh |

## What FlashAttention removes
FlashAttention (Dao et al. 2022) computes softmax(QKᵀ)V block by block in on-chip SRAM and
**never writes the s×s matrix to VRAM**. It saves, per head and token, the softmax's row
statistics in fp32 and the random generator's state, and recomputes the scores and the dropout
mask in backward: FlashAttention-1 (Dao et al. 2022, algorithm 2) keeps the row maximum m and the
sum ℓ, 8asb bytes; FlashAttention-2 (Dao 2023, algorithm 1) keeps only their log-sum-exp
L = m + log ℓ, 4asb bytes, which the estimator counts. So it removes exactly the **5as²b** term: 2.01 GB of GPT-3's
2.87 GB per layer. The 34sbh of the rest stays: FlashAttention makes activation memory
**linear** in s, it does not make it small.

> [!errata] "Activation memory grows linearly with the context"
> Only with a fused attention kernel. With eager attention (`softmax(q @ k.T) @ v` in PyTorch, or
> any implementation that materialises the scores) the 5as²b term is quadratic, and past s ≈ 6.8 d
> it dominates: doubling s from 4096 to 8192 for d = 128 multiplies the layer's activations by 3.6,
> not 2. Check which attention your model really runs (`F.scaled_dot_product_attention` picks a
> fused kernel only for supported dtypes, shapes and masks).
> Source: Korthikanti et al. 2022, sec. 4.1, eq. 1 (the 5as²b term); Dao et al. 2022, sec. 3.1
> (FlashAttention drops it); the experiment below (eager against FlashAttention up to s = 32,768).

> [!pitfall] The formula is GPT-3's layer
> 34 counts a GeLU MLP of width 4h with dropout. A LLaMA-style layer (SwiGLU MLP of width
> 8h/3 with three matrices, RMSNorm, no dropout) saves different amounts; `vram.activations`
> takes `ffn=` and `dropout=false` to recount. The method — list every tensor backward reads — is
> what carries over.
]], zh = [[
# Transformer 的激活显存

反向传播需要前向中（几乎）每个算子的输入，所以前向会把它们**保存**下来。Korthikanti et al.（2022，第 4.1 节）对一个 GPT 式的层做了清点，s 为序列长度，b 为 micro-batch，h 为隐藏维度，a 为注意力头数，激活为 16 位（2 B），dropout 掩码 1 字节：

| 部分 | 字节 | 保存的内容 |
|---|---|---|
| 注意力块 | 11sbh | QKV 输入 2sbh，Q 和 K 4sbh，V 2sbh，投影输入 2sbh，dropout 掩码 sbh |
| 注意力分数 | 5as²b | softmax 输出 2as²b，其 dropout 掩码 as²b，dropout 输出 2as²b |
| MLP | 19sbh | fc1 输入 2sbh，GeLU 输入 8sbh，fc2 输入 8sbh，dropout 掩码 sbh |
| 两个 LayerNorm | 4sbh | 它们的输入 |

合起来，每层（论文式 1）：

```
每层激活 = sbh (34 + 5as/h)  字节
```

由于 h/a 就是每个头的维度 d，5as/h = **5s/d**：只有第二项会*按每个 token* 随 s 增长。它在 s = 34d/5 = **6.8 d** 时与第一项相等：d = 128 时 s = 870，d = 64 时 s = 435。超过这个长度，s×s 的注意力分数就占了该层激活的大头。

## 论文中的算例
GPT-3 175B（s = 2048，h = 12,288，a = 96，b = 1）：5as/h = 80，所以每层保存 114 × sbh = 114 × 25,165,824 = **2.87 GB**，其中 80/114 = 70% 是注意力分数；96 层共保存 **275 GB**——比三张 80 GB 的 GPU 还多，而 micro-batch 只有一条序列。论文表 2 给出了并行和重计算如何把它分摊：

| 技术 | 每层激活 |
|---|---|
| 无 | sbh(34 + 5as/h) |
| 张量并行（t 张 GPU） | sbh(10 + 24/t + 5as/(ht)) |
| 张量并行 + 序列并行 | sbh/t · (34 + 5as/h) |
| 张量并行 + 选择性重计算 | sbh(10 + 24/t) |
| 张量并行 + 序列并行 + 选择性重计算 | 34sbh/t |
| 完全重计算 | 2sbh |

## FlashAttention 去掉了什么
FlashAttention（Dao et al. 2022）在片上 SRAM 中分块计算 softmax(QKᵀ)V，**从不把 s×s 矩阵写入显存**。它按每个头、每个 token 保存 softmax 的行统计量（fp32）和随机数生成器的状态，在反向中重新计算分数和 dropout 掩码：FlashAttention-1（Dao et al. 2022，算法 2）保存行最大值 m 和行和 ℓ，共 8asb 字节；FlashAttention-2（Dao 2023，算法 1）只保存二者合成的 log-sum-exp L = m + log ℓ，4asb 字节，估算器按后者计。所以它去掉的恰好是 **5as²b** 这一项：GPT-3 每层 2.87 GB 中的 2.01 GB。其余的 34sbh 仍然存在：FlashAttention 让激活显存随 s **线性**增长，并没有让它变小。

> [!errata] “激活显存随上下文长度线性增长”
> 只有用融合注意力内核时才成立。用朴素注意力（PyTorch 里的 `softmax(q @ k.T) @ v`，或任何把分数矩阵实际写出来的实现）时，5as²b 这一项是二次的，s 超过约 6.8 d 之后它占主导：d = 128 时把 s 从 4096 加倍到 8192，该层激活变为 3.6 倍，而不是 2 倍。要确认你的模型实际跑的是哪种注意力（`F.scaled_dot_product_attention` 只有在数据类型、形状和掩码都支持时才会选融合内核）。
> 出处：Korthikanti et al. 2022，第 4.1 节式 1（5as²b 项）；Dao et al. 2022，第 3.1 节（FlashAttention 去掉这一项）；下面的实验（朴素注意力对比 FlashAttention，s 直到 32,768）。

> [!pitfall] 这个公式描述的是 GPT-3 的层
> 34 这个系数对应宽度 4h、带 dropout 的 GeLU MLP。LLaMA 式的层（宽 8h/3、三个矩阵的 SwiGLU MLP，RMSNorm，无 dropout）保存的量不同；`vram.activations` 接受 `ffn=` 和 `dropout=false` 来重新清点。能迁移的是方法：把反向要读的每个张量列出来。
]] },

  exercise {
    id = "predict-double",
    kind = "predict",
    prompt = { en = [[
The small model of 4.1 at micro-batch 1, **eager** attention: by what factor does the whole
step's peak reserved memory grow when the sequence doubles from 2048 to 4096? (Linear would be
2, purely quadratic 4.) Measured by replaying both steps through the caching allocator.
]], zh = [[
4.1 节的小模型，micro-batch 1，**朴素**注意力：序列从 2048 加倍到 4096 时，整步的已预留峰值变为原来的几倍？（线性是 2，纯二次是 4。）通过分配器回放两个训练步来测量。
]] },
    unit = "x", tolerance = 0.08,
    measure = function()
      local a = assert(step_reserved(2048, false))
      local b = assert(step_reserved(4096, false))
      return b.peak_reserved / a.peak_reserved, b
    end,
    hints = { { en = "Split the peak into parts that do not grow (model states), grow like s (logits, 34sbh) and grow like s^2 (scores): which dominates at 2048 in this small, wide-vocabulary model?",
                zh = "把峰值拆成不增长的部分（模型状态）、随 s 增长的部分（logits、34sbh）和随 s² 增长的部分（分数）：在这个词表大、模型小的例子里，2048 时谁占主导？" } },
    explain = { en = "Neither 2 nor 4: 618 MB of model states stay, the fp32 logits and their gradient (about 0.4 GB each at s = 2048) double, and the 5as^2b scores of 4 layers quadruple. The sum grows by a factor in between, and it tends to 4 as s grows.",
                zh = "既不是 2 也不是 4：618 MB 的模型状态不变，fp32 logits 及其梯度（s = 2048 时各约 0.4 GB）翻倍，4 层的 5as²b 分数变为 4 倍。总和的倍数介于两者之间，并随 s 增大趋向 4。" },
  },

  experiment {
    id = "context",
    title = { en = "Activations against the context length", zh = "激活随上下文长度的变化" },
    intro = { en = [[
The curve: one layer of a 7B-class model (h = 4096, a = 32, d = 128, b = 1) from
`vram.activations`, eager attention against FlashAttention, s from 256 to 32,768 (a model, in GB
= 1e9 B). The bars: the parts of that layer at s = 2048, then whole training steps of the small
model of 4.1 (micro-batch 1) at s = 2048 and 4096 replayed through the caching allocator.
]], zh = [[
曲线：用 `vram.activations` 计算 7B 级模型的一层（h = 4096，a = 32，d = 128，b = 1），朴素注意力对比 FlashAttention，s 从 256 到 32,768（模型计算，GB = 1e9 B）。柱状图：该层在 s = 2048 时的各组成部分；然后是 4.1 节的小模型（micro-batch 1）在 s = 2048 和 4096 时完整的一步，经缓存分配器回放。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "One layer's activations (model)", zh = "一层的激活（模型）" }, x = "sequence", y = "GB", logx = true },
      { id = "parts", kind = "bars", title = { en = "Parts of one layer at s = 2048 (model)", zh = "s = 2048 时一层的组成（模型）" }, unit = "MB" },
      { id = "step", kind = "bars", title = { en = "Small model, whole step: peak reserved", zh = "小模型完整一步：已预留峰值" }, unit = "MB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local eager, flash = T("eager attention", "朴素注意力"), "FlashAttention"
      local s = 256
      while s <= 32768 do
        local q = { seq = s, flash = false }
        for k, v in pairs(WIDE) do q[k] = v end
        ex:point("c", eager, s, vram.activations(q).per_layer.total / GB, { style = "theoretical" })
        q.flash = true
        ex:point("c", flash, s, vram.activations(q).per_layer.total / GB, { style = "theoretical" })
        s = s * 2
      end
      ex:note("c", T("Eager: 34sbh + 5as^2b, quadratic past s = 6.8d = 870. FlashAttention-2: 34sbh + 4asb (fp32 log-sum-exp), linear.",
                     "朴素：34sbh + 5as²b，超过 s = 6.8d = 870 后呈二次增长。FlashAttention-2：34sbh + 4asb（fp32 log-sum-exp），线性。"))
      local q = { seq = 2048 }
      for k, v in pairs(WIDE) do q[k] = v end
      local a = vram.activations(q)
      local pl = a.per_layer
      local parts = { { "LayerNorm 4sbh", "LayerNorm 4sbh", pl.layernorm }, { "attention 11sbh", "注意力 11sbh", pl.attention },
                      { "scores 5as^2b", "分数 5as²b", pl.scores }, { "MLP 19sbh", "MLP 19sbh", pl.mlp } }
      for _, p in ipairs(parts) do ex:bar("parts", T(p[1], p[2]), p[3] / MB, { style = "theoretical", unit = "MB" }) end
      ex:note("parts", T(string.format("%s per layer = sbh x %g (%s); FlashAttention removes %s.", units.si(pl.total), a.coefficient, a.formula, units.si(a.flash_removes)),
                         string.format("每层 %s = sbh × %g（%s）；FlashAttention 去掉 %s。", units.si(pl.total), a.coefficient, a.formula, units.si(a.flash_removes))))
      ex:status(T("replaying four training steps through the allocator", "正在经分配器回放四个训练步"))
      local last
      for _, seq in ipairs { 2048, 4096 } do
        for _, fl in ipairs { true, false } do
          local st, err = step_reserved(seq, fl)
          if not st then
            ex:note("step", T("out of memory: " .. err, "显存不足：" .. err))
          else
            ex:bar("step", string.format("s=%d %s", seq, fl and "flash" or T("eager", "朴素")), st.peak_reserved / MB, { from = st, unit = "MB" })
            if st.backend == "model" then last = st end
          end
        end
      end
      if last and last.backend == "model" then
        ex:note("step", T("Steps that did not fit this experiment's budget on the device were replayed on an 80 GiB model device (bars labelled SIMULATED).",
                          "本机实验预算装不下的步改在 80 GiB 的模型设备上回放（柱子标注为 SIMULATED）。"))
      end
      ex:note("step", T("Model states (38.6 M params x 16 B = 618 MB) do not grow with s; the logits grow linearly; eager scores quadratically.",
                        "模型状态（3860 万参数 × 16 B = 618 MB）不随 s 增长；logits 线性增长；朴素注意力的分数二次增长。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the panels
On the log-scaled curve the FlashAttention line doubles with every doubling of s; the eager line
bends upward past s ≈ 870 and at 32K is 39× above it. In the bars, the scores are already the
largest part at s = 2048 (5s/d = 80 against 34). The small model's whole step grows less than
its activations: its model states and its 50,257-word logits do not depend on the scores, so
the step's peak is a sum of a constant, a linear and a quadratic term.

> [!source] Sources
> V. Korthikanti, J. Casper, S. Lym, L. McAfee, M. Andersch, M. Shoeybi, B. Catanzaro, "Reducing
> Activation Recomputation in Large Transformer Models", MLSys 2023 (arXiv:2205.05198), sec. 4.1
> eq. 1 and table 2. T. Dao, D. Fu, S. Ermon, A. Rudra, C. Ré, "FlashAttention: Fast and
> Memory-Efficient Exact Attention with IO-Awareness", NeurIPS 2022, sec. 3.1 and algorithm 2
> (the row statistics m and ℓ and the generator state saved: 8asb); T. Dao, "FlashAttention-2:
> Faster Attention with Better Parallelism and Work Partitioning", 2023, algorithm 1 (only the
> log-sum-exp L: 4asb). GPT-3's shape: Brown
> et al. 2020, table 2.1. The estimator and its checks: `docs/vram-train.md`,
> `tests/lua/vram_train.lua`.
]], zh = [[
## 怎么读这些面板
在对数坐标的曲线上，FlashAttention 那条线随 s 每翻一倍就翻一倍；朴素注意力那条在 s ≈ 870 之后向上弯，到 32K 时是前者的 39 倍。柱状图里，在 s = 2048 时分数已经是最大的部分（5s/d = 80，对比 34）。小模型整步的增长比它的激活慢：模型状态和 50,257 词的 logits 与分数无关，所以一步的峰值是常数项、线性项和二次项之和。

> [!source] 出处
> V. Korthikanti, J. Casper, S. Lym, L. McAfee, M. Andersch, M. Shoeybi, B. Catanzaro, "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023（arXiv:2205.05198），第 4.1 节式 1 和表 2。T. Dao, D. Fu, S. Ermon, A. Rudra, C. Ré, "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", NeurIPS 2022，第 3.1 节和算法 2（保存行统计量 m、ℓ 与随机数生成器状态：8asb）；T. Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning", 2023，算法 1（只保存 log-sum-exp L：4asb）。GPT-3 的形状：Brown et al. 2020，表 2.1。估算器及其检验：`docs/vram-train.md`、`tests/lua/vram_train.lua`。
]] },

  exercise {
    id = "gpt3-layer",
    kind = "number",
    prompt = { en = "GPT-3 175B: s = 2048, h = 12,288, a = 96, micro-batch 1, 16-bit activations, eager attention. How many GB (1e9 B) of activations does **one layer** save?",
               zh = "GPT-3 175B：s = 2048，h = 12,288，a = 96，micro-batch 1，16 位激活，朴素注意力。**一层**保存多少 GB（1e9 B）激活？" },
    answer = 2.869, unit = "GB", tolerance = 0.02,
    hints = { { en = "sbh(34 + 5as/h): compute sbh first, then the bracket; the second term is not small here.", zh = "sbh(34 + 5as/h)：先算 sbh，再算括号；这里第二项可不小。" } },
    explain = { en = "sbh = 2048 x 1 x 12288 = 25,165,824; 5as/h = 5 x 96 x 2048 / 12288 = 80; 25,165,824 x 114 = 2.87 GB. Without the scores (FlashAttention) it would be 34sbh = 0.86 GB.",
                zh = "sbh = 2048 × 1 × 12288 = 25,165,824；5as/h = 5 × 96 × 2048 / 12288 = 80；25,165,824 × 114 = 2.87 GB。去掉分数（FlashAttention）就只有 34sbh = 0.86 GB。" },
  },

  exercise {
    id = "crossover",
    kind = "number",
    prompt = { en = "A layer with h = 4096 and a = 32 heads, eager attention. At what sequence length s does the quadratic term 5as²b equal the linear 34sbh?",
               zh = "一个 h = 4096、a = 32 个头的层，朴素注意力。序列长度 s 为多少时，二次项 5as²b 等于线性项 34sbh？" },
    answer = 870.4, unit = "", tolerance = 0.01,
    hints = { { en = "Set 5as/h = 34 and solve for s; h/a is the head dimension.", zh = "令 5as/h = 34，解出 s；h/a 是每个头的维度。" } },
    explain = { en = "s = 34h / (5a) = 6.8 x d = 6.8 x 128 = 870.4 tokens. Beyond it the scores are the larger part of the layer's activations.",
                zh = "s = 34h / (5a) = 6.8 × d = 6.8 × 128 = 870.4 个 token。超过这个长度，分数就是该层激活中较大的部分。" },
  },

  exercise {
    id = "flash",
    kind = "choice",
    prompt = { en = "What does FlashAttention remove from a layer's saved activations?", zh = "FlashAttention 从一层保存的激活中去掉了什么？" },
    choices = {
      { en = "All of them: it recomputes the whole layer in backward", zh = "全部：它在反向时重新计算整层" },
      { en = "The s×s scores, softmax output and their dropout mask (5as²b); the 34sbh stays", zh = "s×s 的分数、softmax 输出及其 dropout 掩码（5as²b）；34sbh 仍在" },
      { en = "Q, K and V, because it recomputes them from the input", zh = "Q、K、V，因为它从输入重新计算它们" },
      { en = "Half of everything, because it stores in fp16", zh = "所有东西的一半，因为它用 fp16 存储" },
    },
    answer = 2,
    hints = { { en = "Which tensor does it never write to VRAM, and which of the four parts of the formula is it?", zh = "它从不写入显存的是哪个张量？对应公式四个部分中的哪一个？" } },
    explain = { en = "It tiles softmax(QK^T)V in SRAM and keeps only the softmax's row statistics per head and token (FlashAttention-2: one fp32 log-sum-exp, 4asb; version 1 kept m and ℓ, 8asb) plus the RNG state; backward recomputes the scores. Q, K, V, the MLP and LayerNorm inputs are still saved.",
                zh = "它在 SRAM 中分块计算 softmax(QKᵀ)V，每个头每个 token 只保留 softmax 的行统计量（FlashAttention-2：一个 fp32 log-sum-exp，4asb；第 1 版保存 m 和 ℓ，8asb）和随机数状态；反向时重算分数。Q、K、V 以及 MLP 和 LayerNorm 的输入仍然要保存。" },
  },

}
