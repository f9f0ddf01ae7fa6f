-- Lesson 5.1: the weights of a model by precision, every quantisation constant counted
-- (vram.quantized), what a runtime adds (vram.inference_memory), and the "7B on a 16 GB card"
-- question answered on this device's free memory.
local GiB = units.GiB

local SCHEMES = {
  { s = "fp32", en = "fp32", zh = "fp32" },
  { s = "fp16", en = "fp16 / bf16", zh = "fp16 / bf16" },
  { s = "fp8", en = "fp8", zh = "fp8" },
  { s = "int8", en = "int8 (LLM.int8)", zh = "int8（LLM.int8）" },
  { s = "gptq", en = "int4 GPTQ g128", zh = "int4 GPTQ g128" },
  { s = "nf4", en = "NF4", zh = "NF4" },
}

-- the longest context (tokens, batch 1) whose weights + KV + forward + runtime fit in `cap` bytes
local function max_context(scheme, cap)
  local cc = gpu.info().compute_capability -- its cuBLAS workspace: 32 MiB on Hopper and later
  local function fits(n)
    return vram.inference_memory { model = "llama-2-7b", scheme = scheme, context = n, capacity = cap, cc = cc }.fits
  end
  if not fits(1) then return 0 end
  local lo, hi = 1, 2
  while fits(hi) and hi < 2^24 do lo, hi = hi, hi * 2 end
  while hi - lo > 1 do
    local mid = (lo + hi) // 2
    if fits(mid) then lo = mid else hi = mid end
  end
  return lo
end

return lesson {
  id = "5.1",
  chapter = 5,
  chapter_title = { en = "Memory at inference", zh = "推理时的显存" },
  title = { en = "Weights by precision", zh = "不同精度下的权重" },
  requires = { "gpu" },

  text { en = [[
# Weights by precision

At inference nothing is trained: no gradients, no optimizer states, no activations kept for a
backward pass. What must sit in VRAM is the **weights**, the **KV cache** (lesson 5.2), **one
forward pass's activations**, and what the runtime itself takes. The weights come first, and
their size is parameters x bytes per parameter, *plus the constants that quantised formats
store beside the numbers*.

| format | bytes per weight | Llama-2-7B (6,738,415,616 params) |
|---|---|---|
| fp32 | 4 | 26.95 GB (25.10 GiB) |
| fp16 / bf16 | 2 | 13.48 GB (12.55 GiB) |
| fp8, one fp32 scale per tensor | 1 + negligible | 7.00 GB (6.52 GiB) |
| int8, LLM.int8(): one fp32 scale per output row | 1 + 4/in | 7.01 GB (6.53 GiB) |
| int4 GPTQ, group 128 | 0.5 + constants (below) | 3.89 GB (3.63 GiB) |
| NF4: one fp32 absmax per 64 weights | 0.5 + 4/64 | 4.17 GB (3.88 GiB) |

The 8- and 4-bit rows quantise only the blocks' linear layers. The token embedding (32000 x
4096), the LM head (another 32000 x 4096) and the norms stay in 16 bits, as GPTQ, AWQ,
bitsandbytes and vLLM leave them: 262,410,240 parameters, 0.52 GB in every row but fp32 (in = the
layer's inputs, 4096 or 11008).

## What "4-bit" stores
A GPTQ layer with `in` inputs and `out` outputs keeps (AutoGPTQ's `QuantLinear`):

- `qweight`: the 4-bit codes packed in int32, in x out / 2 bytes;
- `scales`: one **fp16 scale per group of 128 inputs** per output, 16/128 = 0.125 bit per weight;
- `qzeros`: one **4-bit zero point per group**, 4/128 = 0.031 bit per weight;
- `g_idx`: an int32 per input row (the group of each row), negligible.

That is **4.16 bits per quantised weight**, not 4, and the untouched embeddings and head add
another 0.52 GB. NF4 stores an fp32 absmax for every 64 weights: 4.5 bits; with QLoRA's double
quantisation (`bnb_4bit_use_double_quant`) the constants shrink to 0.127 bit (4.127 in all).

> [!errata] "int4 makes a 7B model 3.5 GB in memory"
> 7e9 x 0.5 B = 3.5 GB counts neither the group scales and zero points nor the 16-bit embeddings
> and head: Llama-2-7B in GPTQ 4-bit, group 128, is **3.89 GB** of weights. And weights are not
> the memory a running model takes: add the CUDA context (about 0.4 GiB), the KV cache (2 GiB
> at 4096 tokens for this model, lesson 5.2) and one forward's activations. At 4096 tokens it
> takes about **6.4 GiB**, almost twice the "3.5 GB".
> Source: `meta-llama/Llama-2-7b-hf` config.json; Frantar et al. 2023, "GPTQ", and AutoGPTQ
> `QuantLinear` (the group constants); the 6.4 GiB: the experiment below (`docs/vram-infer.md`).

## What the runtime adds
- **The CUDA context**: driver and runtime state and the loaded kernels, before any tensor.
  vramlab's estimate is 426 MiB (PyTorch PR 86509 measured 274 MiB after one small tensor with lazy
  module loading, 636 MiB without; unsloth-zoo PR 1053, 426 MiB with CUDA 13). Lesson 2.1 measures yours.
- **The cuBLAS workspace**: PyTorch's default is 8.1 MiB (8,519,680 B) before Hopper and 32 MiB
  on Hopper and Blackwell (compute capability 9.x to 12.x; Blackwell's since PyTorch PRs 175344 and
  189312, 2026, before them 8.1 MiB).
- **One forward pass**: the residual stream and its normed copy, q/k/v and the attention output
  (FlashAttention never stores the score matrix), the MLP's gate, up and product, the logits of
  the last token. Llama-2-7B over 4096 tokens: 322 MiB at its peak (about 80 KiB per token, most of
it the MLP's three 11008-wide tensors), freed layer by layer.

## "7B on a 16 GB card", revisited
The lecture's story: a 7B model "would not load" on 16 GB, because "the parameters alone take
14 GB, and with optimizer states and gradients the memory blows up".

> [!errata] Loading a model allocates no optimizer state
> Gradients and optimizer states appear only when training starts (`loss.backward()`,
> `optimizer.step()`). A model that fails *to load* ran out on the weights: 7e9 x 2 B = 14 GB is
> 13.04 GiB, and Llama-2-7B is 13.48 GB = 12.55 GiB in fp16. A "16 GB" T4 shows CUDA **14.75 GiB**
> (15,102 to 15,109 MiB by driver, with ECC on). The usual culprit is precision: in Transformers 4.x,
> `from_pretrained` without `torch_dtype` loads **fp32**, 25.10 GiB, which no 16 GB card holds.
> In fp16 the weights and context load; at 4096 tokens the KV cache and one forward bring it to
> 15.29 GiB, over the T4's 14.75. Training it is another matter: Adam in mixed precision keeps
> 16 B per parameter, about 108 GB (chapter 4).
> Source: Transformers 4.x `PreTrainedModel.from_pretrained` (`torch_dtype`; fp32 by default);
> T4: 15,102 MiB in deviceQuery (`assets/gpus/t4.txt`), 15,109 MiB as PyTorch reports it on Colab; Llama-2-7B: its config.json; the sums: the experiment below.

The experiment below does this sum for every precision on **this** device's free memory.
]], zh = [[
# 不同精度下的权重

推理时不训练任何东西：没有梯度，没有优化器状态，也不必为反向传播保留激活值。必须放在显存里的是**权重**、**KV 缓存**（第 5.2 节）、**一次前向传播的激活值**，以及运行时本身占用的部分。先说权重：它的大小等于参数个数 × 每个参数的字节数，*再加上量化格式存在数值旁边的那些常数*。

| 格式 | 每个权重的字节数 | Llama-2-7B（6,738,415,616 个参数） |
|---|---|---|
| fp32 | 4 | 26.95 GB（25.10 GiB） |
| fp16 / bf16 | 2 | 13.48 GB（12.55 GiB） |
| fp8，每个张量一个 fp32 缩放 | 1 + 可忽略 | 7.00 GB（6.52 GiB） |
| int8，LLM.int8()：每个输出行一个 fp32 缩放 | 1 + 4/in | 7.01 GB（6.53 GiB） |
| int4 GPTQ，组大小 128 | 0.5 + 常数（见下） | 3.89 GB（3.63 GiB） |
| NF4：每 64 个权重一个 fp32 absmax | 0.5 + 4/64 | 4.17 GB（3.88 GiB） |

8 位和 4 位这几行只量化各个块里的线性层。词嵌入（32000 × 4096）、LM head（又一个 32000 × 4096）和各个 norm 仍保持 16 位，GPTQ、AWQ、bitsandbytes 和 vLLM 都是这么做的：262,410,240 个参数，除 fp32 那一行外每一行都有这 0.52 GB（in 是该层的输入数，4096 或 11008）。

## “4 位” 到底存了什么
一个有 `in` 个输入、`out` 个输出的 GPTQ 线性层保存（AutoGPTQ 的 `QuantLinear`）：

- `qweight`：打包在 int32 里的 4 位编码，in × out / 2 字节；
- `scales`：每个输出、**每 128 个输入一组，一个 fp16 缩放**，每个权重摊到 16/128 = 0.125 位；
- `qzeros`：**每组一个 4 位零点**，每个权重摊到 4/128 = 0.031 位；
- `g_idx`：每个输入行一个 int32（该行属于哪一组），可忽略。

合计**每个量化权重 4.16 位**，不是 4 位；没被量化的嵌入和 head 还要再加 0.52 GB。NF4 每 64 个权重存一个 fp32 absmax：4.5 位；用 QLoRA 的双重量化（`bnb_4bit_use_double_quant`），常数缩到 0.127 位（合计 4.127 位）。

> [!errata] “int4 量化后 7B 模型只占 3.5 GB 显存”
> 7e9 × 0.5 B = 3.5 GB 既没算每组的缩放和零点，也没算保持 16 位的嵌入和 head：Llama-2-7B 用 GPTQ 4 位、组大小 128，权重就是 **3.89 GB**。而且权重并不是运行中模型占用的全部显存：还要加上 CUDA 上下文（约 0.4 GiB）、KV 缓存（这个模型 4096 个 token 时为 2 GiB，见第 5.2 节）和一次前向的激活值。4096 个 token 时合计约 **6.4 GiB**，几乎是 “3.5 GB” 的两倍。
> 出处：`meta-llama/Llama-2-7b-hf` 的 config.json；Frantar 等 2023，“GPTQ”，以及 AutoGPTQ 的 `QuantLinear`（每组的常数）；6.4 GiB：下面的实验（`docs/vram-infer.md`）。

## 运行时还要加什么
- **CUDA 上下文**：驱动和运行时的状态以及加载的核函数，在任何张量之前就已占用。vramlab 的估计值是 426 MiB（PyTorch PR 86509 测得开启延迟加载、创建一个小张量后为 274 MiB，关闭延迟加载时 636 MiB；unsloth-zoo PR 1053 在 CUDA 13 下测得 426 MiB）。第 2.1 节会测出你机器上的数值。
- **cuBLAS 工作区**：PyTorch 的默认值在 Hopper 之前是 8.1 MiB（8,519,680 B），在 Hopper 和 Blackwell（计算能力 9.x 到 12.x；Blackwell 的 32 MiB 始于 2026 年的 PyTorch PR 175344 和 189312，之前是 8.1 MiB）上是 32 MiB。
- **一次前向传播**：残差流及其归一化后的副本，q/k/v 和注意力输出（FlashAttention 从不保存分数矩阵），MLP 的 gate、up 和它们的乘积，最后一个 token 的 logits。Llama-2-7B 处理 4096 个 token 时峰值为 322 MiB（每个 token 约 80 KiB，大部分是 MLP 里三个 11008 宽的张量），并逐层释放。

## 重新审视“16 GB 显卡跑 7B”
讲义里的故事：一个 7B 模型在 16 GB 显卡上“死活加载不进去”，因为“光是模型参数就占了 14GB，加上优化器状态和梯度，直接爆显存”。

> [!errata] 加载模型不会分配优化器状态
> 梯度和优化器状态要到开始训练时（`loss.backward()`、`optimizer.step()`）才出现。*加载*就失败的模型，是被权重本身撑爆的：7e9 × 2 B = 14 GB 即 13.04 GiB，而 Llama-2-7B 的 fp16 权重是 13.48 GB = 12.55 GiB。一块“16 GB”的 T4，CUDA 看到的只有 **14.75 GiB**（因驱动而异，15,102 到 15,109 MiB，开启 ECC）。最常见的原因是精度：在 Transformers 4.x 中，`from_pretrained` 不指定 `torch_dtype` 时按 **fp32** 加载，25.10 GiB，任何 16 GB 的卡都装不下。用 fp16 时权重和上下文装得下；但到 4096 个 token 时，KV 缓存和一次前向把总量推到 15.29 GiB，超过 T4 的 14.75 GiB。训练就是另一回事了：混合精度下的 Adam 每个参数要 16 B，约 108 GB（第 4 章）。
> 出处：Transformers 4.x `PreTrainedModel.from_pretrained`（`torch_dtype`，默认 fp32）；T4：deviceQuery 报告 15,102 MiB（`assets/gpus/t4.txt`），Colab 上 PyTorch 报告 15,109 MiB；Llama-2-7B：它的 config.json；各项合计：下面的实验。

下面的实验在**本机**设备的空闲显存上，对每种精度都做一遍这个加法。
]] },

  exercise {
    id = "context",
    kind = "predict",
    prompt = { en = "Predict: with Llama-2-7B in fp16 (batch 1), how many tokens of context fit in this device's free memory, counting KV cache, one forward, the CUDA context and the workspace?",
               zh = "预测：Llama-2-7B 用 fp16（batch 1），算上 KV 缓存、一次前向、CUDA 上下文和工作区，本设备的空闲显存能装下多少个 token 的上下文？" },
    unit = "tokens", tolerance = 0.25,
    measure = function()
      local free = gpu.mem()
      return max_context("fp16", free)
    end,
    hints = { { en = "Free memory minus the 12.55 GiB of weights and 0.43 GiB of runtime, divided by 512 KiB of KV cache per token (plus about 80 KiB of activations per token).",
                zh = "空闲显存减去 12.55 GiB 权重和 0.43 GiB 运行时，再除以每个 token 512 KiB 的 KV 缓存（外加每个 token 约 80 KiB 的激活值）。" } },
    explain = { en = "Each token costs 2 x 32 layers x 32 heads x 128 x 2 B = 512 KiB of cache, and about 80 KiB of forward activations at its peak (322 MiB over 4096 tokens). What the weights leave over, divided by that, is the context.",
                zh = "每个 token 要 2 × 32 层 × 32 头 × 128 × 2 B = 512 KiB 的缓存，外加峰值时约 80 KiB 的前向激活（4096 个 token 共 322 MiB）。权重剩下的空间除以它，就是能装下的上下文。" },
  },

  experiment {
    id = "fit",
    key = "g",
    title = { en = "Llama-2-7B at every precision, on this device", zh = "Llama-2-7B 各种精度，放在本机设备上" },
    intro = { en = [[
For each precision: the weights (every constant counted), then weights + KV cache (4096 tokens,
fp16) + one forward + CUDA context + cuBLAS workspace, against this device's **free** memory now
(`gpu.mem()`, real on a GPU; the profile's on the simulator) and against a T4's 14.75 GiB. The
last column is the longest context that fits here. Estimates: `vram.quantized`,
`vram.inference_memory`.
]], zh = [[
对每种精度：先算权重（所有常数都计入），再算权重 + KV 缓存（4096 个 token，fp16）+ 一次前向 + CUDA 上下文 + cuBLAS 工作区，与本设备**当前空闲**显存（`gpu.mem()`；有 GPU 时为真实值，模拟器上为配置的值）以及 T4 的 14.75 GiB 比较。最后一列是在本机能装下的最长上下文。估算来自 `vram.quantized`、`vram.inference_memory`。
]] },
    panels = {
      { id = "w", kind = "bars", title = { en = "Total at 4096 tokens (estimate)", zh = "4096 个 token 时的总量（估算）" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "Per precision", zh = "各精度" } },
      { id = "g", kind = "gauge", title = { en = "fp16 at 4096 tokens vs free memory here", zh = "fp16、4096 个 token 对比本机空闲显存" }, unit = "GiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local free, total = gpu.mem()
      local info = gpu.info()
      ex:row("t", { T("precision", "精度"), T("bits/w", "位/权重"), T("weights", "权重"), T("total", "合计"),
                    T("fits here", "本机"), "T4", T("max context", "最长上下文") })
      for _, p in ipairs(SCHEMES) do
        local q = vram.quantized { model = "llama-2-7b", scheme = p.s }
        local r = vram.inference_memory { model = "llama-2-7b", scheme = p.s, context = 4096, capacity = free, cc = info.compute_capability }
        local t4 = vram.inference_memory { model = "llama-2-7b", scheme = p.s, context = 4096, gpu = "t4" }
        ex:bar("w", ex:t(p), r.total / GiB, { style = "theoretical" })
        ex:row("t", { ex:t(p), string.format("%.2f", q.bits_per_weight), units.si(q.total), units.bytes(r.total),
                      r.fits and T("yes", "是") or T("no", "否"), t4.fits and T("yes", "是") or T("no", "否"),
                      tostring(max_context(p.s, free)) })
      end
      local r16 = vram.inference_memory { model = "llama-2-7b", scheme = "fp16", context = 4096, capacity = free, cc = info.compute_capability }
      ex:note("w", T(string.format("fp16 at 4096 tokens: weights %s + KV %s + forward %s + context %s + workspace %s.",
                                   units.bytes(r16.weights), units.bytes(r16.kv), units.bytes(r16.activations),
                                   units.bytes(r16.cuda_context), units.bytes(r16.workspace)),
                     string.format("fp16、4096 个 token：权重 %s + KV %s + 前向 %s + 上下文 %s + 工作区 %s。",
                                   units.bytes(r16.weights), units.bytes(r16.kv), units.bytes(r16.activations),
                                   units.bytes(r16.cuda_context), units.bytes(r16.workspace))))
      ex:note("t", T(string.format("%s: %s free of %s%s. vramlab's own CUDA context is already out of the free figure and a PyTorch process would add its own (counted): the estimate errs on the safe side.",
                                   info.name or "device", units.bytes(free), units.bytes(total), info.simulated and " (SIMULATED profile)" or ""),
                     string.format("%s：空闲 %s，共 %s%s。vramlab 自己的 CUDA 上下文已不在空闲量之内，而 PyTorch 进程还会有它自己的上下文（已计入）：估算偏保守。",
                                   info.name or "设备", units.bytes(free), units.bytes(total), info.simulated and "（模拟配置）" or "")))
      ex:note("t", T("Max context: batch 1, fp16 KV cache, FlashAttention-style forward; Llama-2 itself was trained to 4096.",
                     "最长上下文：batch 1，fp16 KV 缓存，FlashAttention 式前向；Llama-2 本身训练到 4096。"))
      ex:gauge("g", T("fp16 7B, 4096 tokens", "fp16 7B，4096 token"), r16.total / GiB, free / GiB, { unit = "GiB" })
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "bits",
    kind = "number",
    prompt = { en = "A 4-bit GPTQ layer stores, per group of 128 weights, one fp16 scale and one 4-bit zero point. How many bits of these constants does each quantised weight carry on top of its 4-bit code?",
               zh = "GPTQ 4 位线性层每 128 个权重为一组，每组存一个 fp16 缩放和一个 4 位零点。除了 4 位编码本身，每个量化权重还要分摊多少位的这些常数？" },
    answer = 20 / 128, unit = "bit", tolerance = 0.04,
    mistakes = {
      { value = 16 / 128, say = { en = "That is the scale alone: the 4-bit zero point is stored per group too.", zh = "那只算了缩放：每组还存了一个 4 位零点。" } },
      { value = 20, say = { en = "That is per group: spread it over the group's 128 weights.", zh = "那是每组的位数：要摊到组内 128 个权重上。" } },
    },
    hints = { { en = "Spread the 16-bit scale and the 4-bit zero over the 128 weights of their group.",
                zh = "把 16 位的缩放和 4 位的零点摊到组内 128 个权重上。" } },
    explain = { en = "16/128 + 4/128 = 0.156 bits on top of the 4: 4.156 bits per weight (4.16 with g_idx). Over Llama-2-7B's linear layers plus its 16-bit embeddings and head: 3.89 GB, not 3.5.",
                zh = "16/128 + 4/128 = 在 4 位之外再加 0.156 位：每个权重 4.156 位（算上 g_idx 为 4.16）。再加上 Llama-2-7B 保持 16 位的嵌入和 head：3.89 GB，不是 3.5。" },
  },

  exercise {
    id = "load",
    kind = "choice",
    prompt = { en = "`AutoModelForCausalLM.from_pretrained(\"meta-llama/Llama-2-7b-hf\").to(\"cuda\")` fails with CUDA out of memory on a 16 GB T4 (Transformers 4.x). What is the cause?",
               zh = "在 16 GB 的 T4 上（Transformers 4.x），`AutoModelForCausalLM.from_pretrained(\"meta-llama/Llama-2-7b-hf\").to(\"cuda\")` 报 CUDA out of memory。原因是什么？" },
    choices = {
      { en = "The optimizer states and gradients do not fit next to the 14 GB of weights", zh = "优化器状态和梯度放不下，再加上 14 GB 的权重" },
      { en = "Without torch_dtype the weights load in fp32: 25.1 GiB", zh = "没有指定 torch_dtype，权重按 fp32 加载：25.1 GiB" },
      { en = "The KV cache of 4096 tokens is allocated at load time", zh = "加载时就分配了 4096 个 token 的 KV 缓存" },
      { en = "The CUDA context takes 2 GiB", zh = "CUDA 上下文占了 2 GiB" },
    },
    answer = 2,
    hints = { { en = "Nothing is trained when a model loads. What dtype does from_pretrained choose when you do not give one?",
                zh = "加载模型时什么都没训练。不指定时，from_pretrained 会选什么数据类型？" } },
    explain = { en = "Transformers 4.x loads torch.float32 unless torch_dtype is given: 6.74e9 x 4 B = 26.95 GB = 25.10 GiB. With torch_dtype=torch.float16 the weights are 12.55 GiB and load; optimizer states exist only once training starts.",
                zh = "Transformers 4.x 不指定 torch_dtype 时按 torch.float32 加载：6.74e9 × 4 B = 26.95 GB = 25.10 GiB。指定 torch_dtype=torch.float16 后权重为 12.55 GiB，能加载；优化器状态只在开始训练后才存在。" },
  },

  text { en = [[
> [!source] Sources
> Llama-2-7B shape: `meta-llama/Llama-2-7b-hf` config.json (32 layers, hidden 4096, 32 heads,
> intermediate 11008, vocab 32000). GPTQ: Frantar et al. 2023, "GPTQ" (ICLR), and AutoGPTQ
> `QuantLinear` (`qweight`, `qzeros`, `scales`, `g_idx`). LLM.int8(): Dettmers et al. 2022;
> NF4 and double quantisation: Dettmers et al. 2023, "QLoRA", sec. 3. `from_pretrained`'s
> default dtype: the `torch_dtype` argument in Transformers 4.x `PreTrainedModel.from_pretrained`.
> T4 capacity: 15,102 MiB in deviceQuery (`assets/gpus/t4.txt`), 15,109 MiB as PyTorch reports it
> on Colab. CUDA context: PyTorch PR 86509, unsloth-zoo PR 1053. cuBLAS workspace: PyTorch
> `aten/src/ATen/cuda/CublasHandlePool.cpp`, `parseChosenWorkspaceSize` ("32MiB for Hopper and
> Blackwell"; PRs 91564, 175344, 189312). Every formula: vramlab's `docs/vram-infer.md`.
]], zh = [[
> [!source] 出处
> Llama-2-7B 的结构：`meta-llama/Llama-2-7b-hf` 的 config.json（32 层，hidden 4096，32 个头，intermediate 11008，词表 32000）。GPTQ：Frantar 等 2023，“GPTQ”（ICLR），以及 AutoGPTQ 的 `QuantLinear`（`qweight`、`qzeros`、`scales`、`g_idx`）。LLM.int8()：Dettmers 等 2022；NF4 和双重量化：Dettmers 等 2023，“QLoRA” 第 3 节。`from_pretrained` 的默认数据类型：Transformers 4.x `PreTrainedModel.from_pretrained` 的 `torch_dtype` 参数说明。T4 容量：deviceQuery 报告 15,102 MiB（`assets/gpus/t4.txt`），Colab 上 PyTorch 报告 15,109 MiB。CUDA 上下文：PyTorch PR 86509、unsloth-zoo PR 1053。cuBLAS 工作区：PyTorch `aten/src/ATen/cuda/CublasHandlePool.cpp` 的 `parseChosenWorkspaceSize`（“32MiB for Hopper and Blackwell”；PR 91564、175344、189312）。全部公式见 vramlab 的 `docs/vram-infer.md`。
]] },
}
