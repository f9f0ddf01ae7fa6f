-- Lesson 4.6: will it fit? The planner (vram.plan) tries every precision, checkpointing mode,
-- ZeRO stage and offload for a model, sequence, batch and GPU and ranks what fits by step time;
-- the best plan's step is replayed through the caching allocator; the exercises grade the
-- learner's own plan with vram.plan_check.
local GiB = units.GiB

-- The problem: a 1.3B GPT-style model (24 layers, h = 2048, 16 heads), s = 2048, micro-batch 2,
-- AdamW (PyTorch's default foreach implementation) on a 24 GB RTX 3090.
local PROBLEM = { layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 2, gpu = "rtx3090" }
local OTHERS = { "t4", "rtx3090", "rtx4090", "a100-80gb", "h100-sxm", "h200" }

local function problem(extra)
  local t = {}
  for k, v in pairs(PROBLEM) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

-- One step's events through the caching allocator (vram.replay: this backend's, or a model
-- device of `capacity` when `model` is set or the device runs short midway; SIMULATED then).
local function replay(r, model, on_event, capacity)
  return vram.replay(r.events, { model = model, on_event = on_event, capacity = capacity })
end

-- The best plan's step without offload through the caching allocator: on this backend when it fits
-- the budget, else on a model device of the planned GPU's capacity less the CUDA context. Returns
-- the stats (or nil and the message), the plan entry, and the plan result.
local function replay_best()
  local p = vram.plan(PROBLEM)
  local best
  for _, e in ipairs(p.plans) do if not e.offload then best = e; break end end
  local t = problem { precision = best.precision, checkpointing = best.checkpointing }
  t.gpu = nil
  local r = vram.train_step(t)
  local s, err = replay(r, gpu.budget() < 1.3 * r.peak.bytes, nil, p.capacity - best.memory.reserve)
  if not s then return nil, err end
  return s, best, p
end

-- The same model on eight RTX 3090s with micro-batch `mb` and `k` accumulation steps, the
-- gradients over PCIe 4.0 x16 (vram.pcie(4) per GPU, theoretical).
local function eight(mb, k)
  return problem { gpus = 8, batch = mb, accum = k, link = vram.pcie(4) }
end

return lesson {
  id = "4.6",
  chapter = 4,
  chapter_title = { en = "The memory of a training step", zh = "训练一步的显存" },
  title = { en = "Will it fit? The planner", zh = "装得下吗？规划器" },
  requires = { "gpu" },

  text { en = [[
# Will it fit? The planner

Sections 4.1–4.5 each gave one lever. A real decision pulls several at once: for a model,
sequence, micro-batch and GPU, which combination of **precision** (fp32, AMP fp16/bf16, pure
bf16), **checkpointing** (none, selective, full, √n), **ZeRO stage** (over several GPUs) and
**CPU offload** fits — and which of those is fastest? `vram.plan` tries them all:

- **memory**: the step's events (`vram.train_step`), each kind scaled by what the combination
  shards or moves, the largest sum over the step, plus the CUDA context (426 MiB by default);
- **cost**: 6 × params × tokens FLOPs plus the recomputation, at the GPU's published 16-bit rate
  (fp32 at its fp32 rate) × MFU 0.4, plus offload transfers over the GPU's PCIe, not overlapped.

Both are models: the cost ranks plans, it does not predict your step time to the millisecond.

## A worked problem
A 1.3B-parameter GPT-style model (24 layers, h = 2048, 16 heads), s = 2048, micro-batch 2,
AdamW, on one 24 GB RTX 3090 (23.70 GiB as CUDA reports it):

- Model states with AMP: 16 B × 1.32 B = **21.1 GB (19.6 GiB)** before a single activation.
  PyTorch's default `foreach` AdamW adds a temporary of 4 B/param during the update, and the peak
  of the optimizer step (24.9 GiB) no longer fits — even with full checkpointing.
- Pure bf16 halves the states (8 B/param) and fits with selective recomputation: the planner's
  fastest plan, if you accept bf16's update rounding (4.4).
- Keeping the fp32 master copy needs it out of the GPU: **AMP + offload** fits with selective
  recomputation at about 1.14× the step time; or keep it on the GPU with a **fused** AdamW
  (`fused=True`, no foreach temporary) and full checkpointing.

> [!pitfall] The optimizer step has its own peak
> Checkpointing and smaller batches shrink forward and backward. They do nothing for the update,
> where the model states, the gradients and the optimizer's temporaries are live together. When
> `vram.plan_check` says the peak is in the optimizer phase, look at the optimizer.

> [!errata] "Just lower the batch size until it stops running out of memory"
> The lecture lists “调batch size、换小模型、甚至换显卡” as what people do after an OOM, and
> points at memory management instead. Lowering the batch only shrinks activations; here even
> micro-batch 1 does not fit with AMP, because the model states and the optimizer's update are
> the peak. Read where the peak falls first (4.1), then pick the lever that acts on it.
> Source: the experiment below (`vram.plan` for this model on the RTX 3090 profile); Rajbhandari
> et al. 2020, sec. 3.1 (16 B/param); PyTorch `torch/optim/adamw.py` (the `foreach` temporary).

The experiment runs the planner for this problem on the RTX 3090 and on five other GPU profiles,
and replays the best plan without offload through the caching allocator.
]], zh = [[
# 装得下吗？规划器

4.1–4.5 节各自给出了一个手段。真正做决定时要同时拉好几根杆：对给定的模型、序列长度、micro-batch 和 GPU，**精度**（fp32、AMP fp16/bf16、纯 bf16）、**检查点**（无、选择性、完全、√n）、**ZeRO 阶段**（多卡时）和 **CPU 卸载**的哪种组合装得下——其中又是哪种最快？`vram.plan` 把它们全部试一遍：

- **显存**：这一步的事件（`vram.train_step`），每一类按该组合切分或移走的比例缩放，取一步中的最大总和，再加上 CUDA 上下文（默认 426 MiB）；
- **代价**：6 × 参数 × token 数 FLOPs 加上重计算，按 GPU 公布的 16 位算力（fp32 按其 fp32 算力）× MFU 0.4 计时，再加上经 GPU 的 PCIe 卸载传输的时间（不重叠）。

两者都是模型：代价用来给方案排序，并不能把你的每步时间预测到毫秒。

## 一个算例
一个 13 亿参数的 GPT 式模型（24 层，h = 2048，16 个头），s = 2048，micro-batch 2，AdamW，一张 24 GB 的 RTX 3090（CUDA 报告 23.70 GiB）：

- AMP 下的模型状态：16 B × 13.2 亿 = **21.1 GB（19.6 GiB）**，还一个激活都没算。PyTorch 默认的 `foreach` AdamW 在更新时还要一个每参数 4 B 的临时张量，于是优化器步骤的峰值（24.9 GiB）装不下了——即使用了完全检查点。
- 纯 bf16 把状态减半（每参数 8 B），配合选择性重计算就装得下：这是规划器给出的最快方案，前提是你能接受 bf16 更新时的舍入（4.4 节）。
- 要保留 fp32 主副本，就得把它移出 GPU：**AMP + 卸载**配合选择性重计算装得下，每步时间约为 1.14 倍；或者把它留在 GPU 上，改用 **fused** AdamW（`fused=True`，没有 foreach 临时张量）并做完全检查点。

> [!pitfall] 优化器步骤有它自己的峰值
> 检查点和更小的 batch 只缩小前向和反向。它们对更新步骤毫无作用：那时模型状态、梯度和优化器的临时张量同时存活。当 `vram.plan_check` 说峰值在优化器阶段时，就去看优化器。

> [!errata] “OOM 了就把 batch size 往下调，调到不报错为止”
> 讲义里列举了大家遇到 OOM 后的做法——“调batch size、换小模型、甚至换显卡”，并指出问题常常出在显存管理上。降低 batch 只会缩小激活；在这个例子里，用 AMP 时就算 micro-batch 为 1 也装不下，因为峰值来自模型状态和优化器更新。先看峰值落在哪里（4.1 节），再选能作用于它的手段。
> 出处：下面的实验（`vram.plan` 在 RTX 3090 配置上为这个模型做的规划）；Rajbhandari et al. 2020，第 3.1 节（每参数 16 B）；PyTorch `torch/optim/adamw.py`（`foreach` 的临时张量）。

实验在 RTX 3090 和另外五种 GPU 配置上为这个问题运行规划器，并把不带卸载的最优方案经缓存分配器回放。
]] },

  exercise {
    id = "predict-reserved",
    kind = "predict",
    prompt = { en = [[
The planner's best plan without offload is pure bf16 with selective recomputation, 16.5 GiB with
the CUDA context (16.1 GiB without). Predict its step's **peak reserved** (GiB) through the caching
allocator.
]], zh = [[
不带卸载的最优方案是纯 bf16 加选择性重计算，含 CUDA 上下文 16.5 GiB（不含 16.1 GiB）。预测这一步经缓存分配器后的**已预留峰值**（GiB）。
]] },
    unit = "GiB", tolerance = 0.05,
    measure = function()
      local s, e = replay_best()
      if not s then error(e) end
      return s.peak_reserved / GiB, s
    end,
    hints = { { en = "Reserved = live bytes + rounding + cached blocks that later, larger requests could not reuse: a few percent more, as in 4.1.", zh = "已预留 = 存活字节 + 取整 + 后来更大的请求无法复用的缓存块：多出几个百分点，和 4.1 节一样。" } },
    explain = { en = "A few percent above the planned 16.1 GiB: that margin, plus the context, is what the card must hold. The planner counts live bytes; leave the allocator room.",
                zh = "比规划的 16.1 GiB 高几个百分点：显卡必须装下这部分余量再加上上下文。规划器计的是存活字节；要给分配器留出空间。" },
  },

  experiment {
    id = "plan",
    key = "g",
    title = { en = "Plan the 1.3B model", zh = "为 13 亿参数模型做规划" },
    intro = { en = [[
The plans that fit on an RTX 3090, fastest first (a model: memory in GiB = 2^30 B, step time at
40 % MFU); the best plan on six GPUs; and the best plan without offload replayed through the
caching allocator (on this machine's backend when it fits the experiment's budget, else on a
model device of the 3090's capacity).
]], zh = [[
在 RTX 3090 上装得下的方案，按速度排序（模型：显存单位 GiB = 2^30 B，每步时间按 40% MFU）；六种 GPU 上的最优方案；以及不带卸载的最优方案经缓存分配器回放（实验预算够时在本机后端上，否则在容量与 3090 相同的模型设备上）。
]] },
    panels = {
      { id = "fit", kind = "bars", title = { en = "Every plan against the RTX 3090 (model)", zh = "每个方案对比 RTX 3090 的容量（模型）" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "Plans that fit, RTX 3090 (model)", zh = "RTX 3090 上装得下的方案（模型）" } },
      { id = "gpus", kind = "table", title = { en = "Best plan by GPU (model)", zh = "各 GPU 的最优方案（模型）" } },
      { id = "g", kind = "gauge", title = { en = "Best plan's memory on the RTX 3090 (model)", zh = "最优方案在 RTX 3090 上的显存（模型）" }, unit = "GiB" },
      { id = "check", kind = "bars", title = { en = "Best plan without offload, through the allocator", zh = "不带卸载的最优方案，经分配器" }, unit = "GiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local p = vram.plan(PROBLEM)
      -- the picture of the section: one bar per plan, smallest first, against the capacity line;
      -- amp_fp16 needs what amp_bf16 needs, so it is left out of the bars (the table has it)
      local all = {}
      for _, lst in ipairs { p.plans, p.rejected } do
        for _, e in ipairs(lst) do if e.precision ~= "amp_fp16" then all[#all + 1] = e end end
      end
      table.sort(all, function(a, b)
        if a.memory.total ~= b.memory.total then return a.memory.total < b.memory.total end
        return a.name < b.name
      end)
      local CK = { none = { "none", "无" }, selective = { "sel", "选择" }, full = { "full", "完全" }, sqrt = { "√n", "√n" } }
      for _, e in ipairs(all) do
        local prec, ck = e.precision == "amp_bf16" and "amp" or e.precision, CK[e.checkpointing]
        ex:bar("fit", T(prec .. " " .. ck[1] .. (e.offload and " +off" or ""), prec .. " " .. ck[2] .. (e.offload and " +卸载" or "")),
               e.memory.total / GiB, { style = "theoretical", unit = "GiB" })
      end
      ex:limit("fit", T("RTX 3090 capacity", "RTX 3090 容量"), p.capacity / GiB, { style = "theoretical", unit = "GiB" })
      ex:note("fit", T("Each bar: precision (amp = amp_bf16; amp_fp16 needs the same), activation checkpointing (none, sel = selective, full, √n), +off = optimizer states offloaded to CPU memory.",
                       "每根柱：精度（amp = amp_bf16；amp_fp16 所需相同）、激活检查点（无、选择 = 选择性、完全、√n），+卸载 = 优化器状态卸载到 CPU 内存。"))
      ex:row("t", { T("plan", "方案"), T("memory", "显存"), T("step", "每步"), "tokens/s" })
      for i, e in ipairs(p.plans) do
        if i > 6 then break end
        ex:row("t", { T(e.name, e.name_zh), units.bytes(e.memory.total), units.time(e.cost.step_seconds), string.format("%.0f", e.tokens_per_s) })
      end
      ex:note("t", T(string.format("%d of %d combinations fit in %s; %.2f B parameters.", #p.plans, #p.plans + #p.rejected, units.bytes(p.capacity), p.params / 1e9),
                     string.format("%d 种组合中有 %d 种装得下 %s；%.2f B 参数。", #p.plans + #p.rejected, #p.plans, units.bytes(p.capacity), p.params / 1e9)))
      local best = p.plans[1]
      ex:gauge("g", T(best.name, best.name_zh), best.memory.total / GiB, p.capacity / GiB, { unit = "GiB", style = "theoretical" })
      ex:row("gpus", { "GPU", T("fit", "可行"), T("best plan", "最优方案"), "tokens/s" })
      for _, id in ipairs(OTHERS) do
        local q = vram.plan(problem { gpu = id })
        local b = q.plans[1]
        ex:row("gpus", { vram.gpu_spec(id).name, tostring(#q.plans), b and T(b.name, b.name_zh) or T("none", "无"), b and string.format("%.0f", b.tokens_per_s) or "-" })
      end
      local s, e = replay_best()
      if not s then
        ex:note("check", T("The replay ran out of memory: " .. e, "回放时显存不足：" .. e))
      else
        ex:bar("check", T("planned step (model)", "规划的一步（模型）"), (e.memory.total - e.memory.reserve) / GiB, { style = "theoretical", unit = "GiB" })
        ex:bar("check", T("peak allocated", "已分配峰值"), s.peak_allocated / GiB, { from = s, unit = "GiB" })
        ex:bar("check", T("peak reserved", "已预留峰值"), s.peak_reserved / GiB, { from = s, unit = "GiB" })
        local where = s.backend == "model" and T(" Replayed on a model device of the RTX 3090's capacity less the context (SIMULATED).", "在容量为 RTX 3090 减去上下文的模型设备上回放（SIMULATED）。") or ""
        ex:note("check", T(string.format("%s: the planner's memory less the %s of CUDA context; reserved adds the allocator's rounding and cache.", e.name, units.bytes(e.memory.reserve)),
                           string.format("%s：规划器的显存减去 %s 的 CUDA 上下文；已预留还包括分配器的取整和缓存。", e.name_zh, units.bytes(e.memory.reserve))) .. where)
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the panels
On 24 GB the fastest plans give up the fp32 master copy or move it to the host; on an 80 GB card
the same model trains without any checkpointing, and the H100's tokens/s come from its FLOP/s,
not its memory. The allocator's reserved peak sits above the planner's live bytes: leave the
allocator a margin (chapter 2), or set `expandable_segments:True` to cut fragmentation.
]], zh = [[
## 怎么读这些面板
在 24 GB 上，最快的方案要么放弃 fp32 主副本，要么把它移到主机上；在 80 GB 的卡上，同一个模型不做任何检查点就能训练，而 H100 的 tokens/s 来自它的 FLOP/s，而不是显存。分配器的已预留峰值高于规划器的存活字节：给分配器留出余量（第 2 章），或者设置 `expandable_segments:True` 以减少碎片。
]] },

  exercise {
    id = "states-gib",
    kind = "number",
    prompt = { en = "The 1.3B model has 1,315,723,264 parameters. With AMP and AdamW, how many GiB (2^30 B) do its model states and gradients take?",
               zh = "这个 13 亿参数的模型有 1,315,723,264 个参数。用 AMP 和 AdamW 时，它的模型状态加梯度占多少 GiB（2^30 B）？" },
    answer = 16 * 1315723264 / 2^30, unit = "GiB", tolerance = 0.03,
    mistakes = { { value = 14 * 1315723264 / 2^30, say = { en = "The gradients count too: 2 B per parameter in bf16.", zh = "梯度也要算：bf16 每参数 2 B。" } } },
    hints = { { en = "Bytes per parameter as in 4.4, then divide by 2^30, not 1e9.", zh = "每参数字节数按 4.4 节，然后除以 2^30，而不是 1e9。" } },
    explain = { en = "16 x 1,315,723,264 = 21.05e9 B = 19.61 GiB, of the 3090's 23.70 GiB: 4.1 GiB left for activations, the optimizer's temporaries and the context.",
                zh = "16 × 1,315,723,264 = 21.05e9 B = 19.61 GiB，而 3090 有 23.70 GiB：只剩 4.1 GiB 给激活、优化器临时张量和上下文。" },
  },

  exercise {
    id = "one-change",
    kind = "choice",
    prompt = { en = "AMP bf16 with full checkpointing does not fit on the RTX 3090: the peak (24.9 GiB) is in the optimizer step. Which **single** change makes it fit?",
               zh = "AMP bf16 加完全检查点在 RTX 3090 上装不下：峰值（24.9 GiB）在优化器步骤。哪**一项**改动能让它装下？" },
    choices = {
      { en = "Micro-batch 1 instead of 2", zh = "micro-batch 从 2 改成 1" },
      { en = "FlashAttention", zh = "FlashAttention" },
      { en = "√n checkpointing instead of full", zh = "用 √n 检查点代替完全检查点" },
      { en = "AdamW with fused=True instead of the default foreach implementation", zh = "用 fused=True 的 AdamW 代替默认的 foreach 实现" },
    },
    answer = 4,
    hints = { { en = "Three of these act on activations. What is live in the optimizer step?", zh = "其中三项作用于激活。优化器步骤时存活的是什么？" } },
    explain = { en = "The foreach implementation allocates sqrt(v) for every parameter at once (4 B/param = 4.9 GiB here); the fused kernel needs none, and the peak drops to 21.0 GiB. Batch, FlashAttention and checkpointing shrink activations, which are gone by then.",
                zh = "foreach 实现一次性为每个参数分配 sqrt(v)（每参数 4 B，这里是 4.9 GiB）；fused 内核不需要，峰值降到 21.0 GiB。batch、FlashAttention 和检查点缩小的是激活，而那时激活早已释放。" },
  },

  exercise {
    id = "keep-master",
    kind = "code",
    prompt = { en = [[
Write `plan()` returning a plan for the 1.3B model on the RTX 3090 (s = 2048, micro-batch 2,
AdamW foreach, one GPU) that **keeps an fp32 master copy** (an `amp_*` precision), **fits**, and
is at most **1.25×** the step time of the planner's best plan. A plan is
`{ precision = "amp_bf16", checkpointing = "none"|"selective"|"full"|"sqrt", stage = 0, offload = false|true }`.
It is graded by `vram.plan_check`, which tells you why a plan does not fit.
]], zh = [[
写一个函数 `plan()`，为 RTX 3090 上的 13 亿参数模型（s = 2048，micro-batch 2，foreach 版 AdamW，单卡）返回一个方案：**保留 fp32 主副本**（`amp_*` 精度）、**装得下**、每步时间不超过规划器最优方案的 **1.25 倍**。方案的形式是 `{ precision = "amp_bf16", checkpointing = "none"|"selective"|"full"|"sqrt", stage = 0, offload = false|true }`。用 `vram.plan_check` 评分，它会告诉你方案为什么装不下。
]] },
    entry = "plan",
    starter = "function plan()\n  return { precision = \"amp_bf16\", checkpointing = \"none\", stage = 0, offload = false }\nend\n",
    check = function(fn)
      local ok, p = pcall(fn)
      if not ok then return false, { en = "plan() raised: " .. tostring(p), zh = "plan() 出错：" .. tostring(p) } end
      if type(p) ~= "table" then return false, { en = "plan() must return a table", zh = "plan() 必须返回一个表" } end
      if p.precision ~= "amp_fp16" and p.precision ~= "amp_bf16" then
        return false, { en = "the plan must keep an fp32 master copy: precision amp_bf16 or amp_fp16", zh = "方案必须保留 fp32 主副本：精度为 amp_bf16 或 amp_fp16" }
      end
      local okc, c = pcall(vram.plan_check, PROBLEM, { precision = p.precision, checkpointing = p.checkpointing, stage = p.stage, offload = p.offload })
      if not okc then return false, { en = tostring(c), zh = tostring(c) } end
      if not c.fits then return false, { en = c.reasons[1] .. "; " .. (c.reasons[#c.reasons] or ""), zh = c.reasons[1] .. "；" .. (c.reasons[#c.reasons] or "") } end
      if c.slowdown > 1.25 then
        return false, { en = string.format("it fits, but its step takes %.2fx the best plan's: recompute less", c.slowdown),
                        zh = string.format("装得下，但每步时间是最优方案的 %.2f 倍：少重算一些", c.slowdown) }
      end
      return true
    end,
    hints = { { en = "The states alone (with the foreach temporary) exceed the card, so some of them must leave the GPU; then recompute no more than you need.",
                zh = "光是模型状态（加上 foreach 临时张量）就超过了显卡容量，所以其中一部分必须离开 GPU；然后只重算必要的部分。" } },
    explain = { en = "{ precision = \"amp_bf16\", checkpointing = \"selective\", offload = true }: 12.7 GiB (DeepSpeed's 1.1 GiB of buffers included), 1.14x the best plan (pure bf16 with selective recomputation). Full checkpointing with offload also fits, but at 1.43x; without offload no AMP plan fits.",
                zh = "{ precision = \"amp_bf16\", checkpointing = \"selective\", offload = true }：12.7 GiB（含 DeepSpeed 的 1.1 GiB 缓冲区），是最优方案（纯 bf16 加选择性重计算）的 1.14 倍。完全检查点加卸载也装得下，但要 1.43 倍；不卸载的话，任何 AMP 方案都装不下。" },
  },

  text { en = [[
## Eight GPUs, and gradient accumulation
`vram.plan{gpus = 8}` adds the ZeRO stages and, per GPU, what lesson 4.5 showed data parallelism
brings: DDP's gradient buckets at stages 0 and 1 (`bucket_view = true` for
`gradient_as_bucket_view`), FSDP's two gathered blocks and one block's unsharded gradients
(`prefetch = 1`), and NCCL's buffers (688 MB unless you give `nccl =` your measured figure). With
`link =` (bytes/s per GPU) it prices the gradient traffic too, 1.5× at stage 3.

**Gradient accumulation** (`accum = k`) runs k micro-batches before one optimizer step, so the
global batch is GPUs × micro-batch × k while memory stays one micro-batch's — almost: from the
second micro-step on, the gradients of the steps before are there from the start (PyTorch adds
each new gradient into `.grad`), so a peak early in backward rises by the gradients (2.45 GiB
here). DDP all-reduces once per optimizer step (`no_sync()` in between), so the communication
does not grow with k; the compute does.

A global batch of 48 sequences of 2048 tokens on eight RTX 3090s: micro-batch × accum = 6.
The experiment asks the planner for each split, with the gradients over PCIe 4.0 x16.

> [!pitfall] Accumulation is not free memory
> The usual advice "lower the batch and accumulate" keeps the global batch and the activations
> small, but the full gradients now live through every micro-step's forward. When the gradients
> are large next to the activations (a big model, a short sequence), shard them (ZeRO-2) instead.
]], zh = [[
## 八张 GPU，以及梯度累积
`vram.plan{gpus = 8}` 会加上 ZeRO 的各个阶段，并为每张 GPU 算上 4.5 节所示数据并行带来的内存：阶段 0 和 1 的 DDP 梯度桶（`bucket_view = true` 即 `gradient_as_bucket_view`），FSDP 的两个收集完整的块和一个块未切分的梯度（`prefetch = 1`），以及 NCCL 的缓冲区（默认 688 MB，除非用 `nccl =` 给出你实测的数字）。给出 `link =`（每张 GPU 的字节/秒）时，它还会为梯度通信计时，阶段 3 是 1.5 倍。

**梯度累积**（`accum = k`）在一次优化器更新之前跑 k 个 micro-batch，于是全局批大小 = GPU 数 × micro-batch × k，而显存仍只是一个 micro-batch 的——几乎如此：从第二个 micro-step 起，前几步的梯度一开始就在（PyTorch 把每个新梯度加进 `.grad`），所以落在反向刚开始处的峰值会多出一份梯度（这里 2.45 GiB）。DDP 每次优化器更新只做一次 all-reduce（中间用 `no_sync()`），所以通信不随 k 增长；计算量则随之增长。

在八张 RTX 3090 上跑全局批大小为 48 条 2048 token 的序列：micro-batch × accum = 6。实验让规划器为每种拆分给出方案，梯度经 PCIe 4.0 x16 传输。

> [!pitfall] 累积并不是免费的内存
> 常见的建议“调小批大小再累积”能保住全局批大小、让激活变小，但完整的梯度现在要在每个 micro-step 的前向中一直存在。当梯度相对激活很大（模型大、序列短）时，改为切分它们（ZeRO-2）。
]] },

  experiment {
    id = "eight",
    key = "mem",
    title = { en = "A global batch of 48 on eight GPUs", zh = "八张 GPU 上全局批大小 48" },
    intro = { en = [[
The planner for the 1.3B model on eight RTX 3090s (a model), one global batch of 48 sequences
split as micro-batch x accumulation steps = 6: the best plan of each split, its memory per GPU and
its tokens/s, with the gradient traffic over PCIe 4.0 x16 (31.5 GB/s per GPU, theoretical).
]], zh = [[
在八张 RTX 3090 上为这个 13 亿参数模型运行规划器（模型），一个全局批大小 48 条序列，拆成 micro-batch × 累积步数 = 6：每种拆分的最优方案、每张 GPU 的显存和 tokens/s，梯度经 PCIe 4.0 x16 传输（每张 GPU 31.5 GB/s，理论值）。
]] },
    panels = {
      { id = "mem", kind = "bars", title = { en = "Best plan's memory per GPU, by micro-batch (model)", zh = "各 micro-batch 下最优方案的每卡显存（模型）" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "Micro-batch x accumulation = 6, eight GPUs (model)", zh = "micro-batch × 累积步数 = 6，八张 GPU（模型）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { "micro", "accum", T("plans that fit", "可行方案"), T("best plan", "最优方案"), T("memory", "显存"), "tokens/s" })
      for _, mb in ipairs { 1, 2, 3, 6 } do
        local p = vram.plan(eight(mb, 6 // mb))
        local b = p.plans[1]
        ex:row("t", { tostring(mb), tostring(6 // mb), tostring(#p.plans), b and T(b.name, b.name_zh) or T("none", "无"),
                      b and units.bytes(b.memory.total) or "-", b and string.format("%.0f", b.tokens_per_s) or "-" })
        if b then ex:bar("mem", T("micro-batch ", "micro-batch ") .. mb, b.memory.total / units.GiB, { style = "theoretical", unit = "GiB" }) end
      end
      ex:note("t", T("Every split trains 48 x 2048 tokens per optimizer step. Memory includes NCCL's 688 MB and the 426 MiB context.",
                     "每种拆分每次优化器更新都训练 48 × 2048 个 token。显存含 NCCL 的 688 MB 和 426 MiB 的上下文。"))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "accum-steps",
    kind = "number",
    prompt = { en = "A global batch of 96 sequences on 8 GPUs, and micro-batch 2 is the largest that fits. How many gradient-accumulation steps per optimizer step?",
               zh = "全局批大小 96 条序列，8 张 GPU，能装下的最大 micro-batch 是 2。每次优化器更新要累积多少步梯度？" },
    answer = 6, unit = "steps", tolerance = 0.001,
    mistakes = { { value = 48, say = { en = "That forgets the eight GPUs: each runs its own micro-batches at the same time.", zh = "那忘了八张 GPU：每张同时跑自己的 micro-batch。" } },
                 { value = 12, say = { en = "12 would be the steps with a micro-batch of 1; here each micro-step takes 2 sequences.", zh = "12 是 micro-batch 为 1 时的步数；这里每个 micro-step 处理 2 条序列。" } } },
    hints = { { en = "global batch = GPUs x micro-batch x accumulation steps.", zh = "全局批大小 = GPU 数 × micro-batch × 累积步数。" } },
    explain = { en = "96 / (8 x 2) = 6 micro-steps per optimizer step; DDP all-reduces once, after the sixth.",
                zh = "96 / (8 × 2) = 每次优化器更新 6 个 micro-step；DDP 只在第六个之后 all-reduce 一次。" },
  },

  exercise {
    id = "accum-peak",
    kind = "choice",
    prompt = { en = "The 1.3B model's peak is early in backward. You switch from one micro-batch of 4 to four micro-batches of 1 with gradient accumulation. The peak:",
               zh = "这个 13 亿参数模型的峰值在反向刚开始时。你从一个 micro-batch 4 改成四个 micro-batch 1 加梯度累积。峰值会："},
    choices = {
      { en = "stays the same: the global batch is the same", zh = "不变：全局批大小没变" },
      { en = "falls to about a quarter: everything scales with the micro-batch", zh = "降到约四分之一：一切都随 micro-batch 缩放" },
      { en = "falls by most of the activations, but gains the gradients, there from the second micro-step's start", zh = "少了大部分激活，但多了一份梯度：从第二个 micro-step 开始时梯度就在" },
    },
    answer = 3,
    why = { [2] = { en = "The model states do not shrink with the batch, and the accumulated gradients are added.", zh = "模型状态不随批大小缩小，而且还多了累积的梯度。" } },
    hints = { { en = "What is live early in backward, and which of it depends on the micro-batch?", zh = "反向刚开始时哪些东西是存活的？其中哪些取决于 micro-batch？" } },
    explain = { en = "Activations scale with the micro-batch; weights and optimizer state do not; and from the second micro-step the gradients (2.45 GiB here) are live from the start.",
                zh = "激活随 micro-batch 缩放；权重和优化器状态不变；而且从第二个 micro-step 起，梯度（这里 2.45 GiB）一开始就是活的。" },
  },

  text { en = [[
> [!source] Sources
> The estimators and the planner's rules: `docs/vram-train.md` (`vram.plan`, `vram.plan_check`).
> Model states: Rajbhandari et al., "ZeRO", SC 2020. Activations and recomputation: Korthikanti et
> al., MLSys 2023. Offload: Ren et al., "ZeRO-Offload", USENIX ATC 2021, and DeepSpeed 0.19.6's
> buffers (lesson 4.5). Training FLOPs: Kaplan et al. 2020. PyTorch `torch/optim/adamw.py`
> (`foreach`, `fused`). Data parallelism's transients: lesson 4.5 and its sources (PyTorch
> `reducer.cpp`, PR 41954; FSDP2 `set_modules_to_forward_prefetch`; NCCL 2.30.7 `src/init.cc`,
> NVIDIA/nccl issue 964). Gradient accumulation: PyTorch `torch/csrc/autograd/functions/accumulate_grad.h`
> (a new gradient is added into `.grad`) and DDP's `no_sync()` (`torch/nn/parallel/distributed.py`);
> the Ultra-Scale Playbook (Hugging Face, 2025), "Gradient accumulation". GPU figures: the vendors'
> datasheets, `vram.gpu_specs()`; PCIe 4.0 x16: PCI-SIG (`vram.pcie`).
]], zh = [[
> [!source] 出处
> 估算器和规划器的规则：`docs/vram-train.md`（`vram.plan`、`vram.plan_check`）。模型状态：Rajbhandari et al., "ZeRO", SC 2020。激活与重计算：Korthikanti et al., MLSys 2023。卸载：Ren et al., "ZeRO-Offload", USENIX ATC 2021，以及 DeepSpeed 0.19.6 的缓冲区（4.5 节）。训练 FLOPs：Kaplan et al. 2020。PyTorch `torch/optim/adamw.py`（`foreach`、`fused`）。数据并行的临时内存：4.5 节及其出处（PyTorch `reducer.cpp`、PR 41954；FSDP2 `set_modules_to_forward_prefetch`；NCCL 2.30.7 `src/init.cc`，NVIDIA/nccl issue 964）。梯度累积：PyTorch `torch/csrc/autograd/functions/accumulate_grad.h`（新梯度加进 `.grad`）和 DDP 的 `no_sync()`（`torch/nn/parallel/distributed.py`）；《Ultra-Scale Playbook》（Hugging Face，2025），“Gradient accumulation”。GPU 数据：厂商数据手册，`vram.gpu_specs()`；PCIe 4.0 x16：PCI-SIG（`vram.pcie`）。
]] },
}
