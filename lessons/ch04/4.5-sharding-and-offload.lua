-- Lesson 4.5: sharding the model states (ZeRO stages 1-3 / FSDP, Rajbhandari et al. 2020),
-- tensor and pipeline parallelism in a paragraph each, and CPU offload: PCIe time per step at
-- this machine's measured H2D/D2H bandwidth (gpu.copy; SIMULATED on the simulator) against the
-- step's compute at the GPU profile's published FLOP/s (vram.offload, a model).
local GB, MiB = units.GB, units.MiB

local OFF = { params = 1.3e9, tokens = 4096 } -- the offload example: a 1.3B model, 4096 tokens a step

-- The GPU whose published FLOP/s time the step: this device's, else the A100.
local function gpu_id() return (vram.device_spec(gpu.info()) or vram.gpu_spec("a100-80gb")).id end

-- This machine's pinned H2D and D2H bandwidth (n/t, bytes/s) over 64 MiB, and the options that
-- label figures derived from them (from = the H2D result: measured on a GPU, SIMULATED on the
-- simulator). When the device has no memory to copy through, or a copy fails, the link's
-- theoretical rate (gpu.info().pcie_bytes_per_s) instead, labelled theoretical, with the reason.
local function pcie()
  local n = math.min(64 * MiB, gpu.budget())
  local h, d, err
  if n >= MiB then
    h, err = gpu.copy { dir = "h2d", bytes = n, pinned = true, trials = 5 }
    if h then d, err = gpu.copy { dir = "d2h", bytes = n, pinned = true, trials = 5 } end
  else
    err = "no device memory free to copy through"
  end
  if h and d then return h.bytes_per_s, d.bytes_per_s, { from = h } end
  local link = gpu.info().pcie_bytes_per_s
  if not link then return nil, nil, nil, err end
  return link, link, { style = "theoretical" }, err
end

-- Data parallelism's transients (vram_dist.lua, through the planner): the 4.6 problem with
-- micro-batch 3, which fits on one RTX 3090 and not as one of eight DDP ranks.
local DP = { layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 3, gpu = "rtx3090" }
local DP_RUNS = {
  { en = "1 GPU", zh = "1 张 GPU", gpus = 1, stage = 0 },
  { en = "8, DDP", zh = "8 张，DDP", gpus = 8, stage = 0 },
  { en = "8, DDP, bucket views", zh = "8 张，DDP，桶视图", gpus = 8, stage = 0, view = true },
  { en = "8, ZeRO-1", zh = "8 张，ZeRO-1", gpus = 8, stage = 1 },
  { en = "8, ZeRO-2", zh = "8 张，ZeRO-2", gpus = 8, stage = 2 },
  { en = "8, FSDP (ZeRO-3)", zh = "8 张，FSDP（ZeRO-3）", gpus = 8, stage = 3 },
}
local function dp_problem(gpus, view)
  local t = {}
  for k, v in pairs(DP) do t[k] = v end
  t.gpus, t.bucket_view = gpus, view or nil
  return t
end

-- The micro-batch-3 step (pure bf16, selective) through the caching-allocator model on a device of
-- the RTX 3090's capacity less the CUDA context; as a DDP rank, less NCCL's 688 MB too, with the
-- buckets (one bf16 copy of the gradients) allocated first, as DDP's constructor does. Returns the
-- stats or nil and PyTorch's message, and the room given.
local function replay_dp(gpus)
  local p = vram.plan_check(dp_problem(gpus), { precision = "bf16", checkpointing = "selective" })
  local room = p.capacity - p.memory.reserve - p.memory.nccl
  local r = vram.train_step { layers = DP.layers, hidden = DP.hidden, heads = DP.heads, seq = DP.seq, batch = DP.batch,
                              precision = "bf16", checkpointing = "selective" }
  local ev = r.events
  if p.memory.buckets > 0 then
    ev = { { op = "alloc", id = 0, name = "DDP buckets", bytes = p.memory.buckets, kind = "gradients" } }
    for _, e in ipairs(r.events) do ev[#ev + 1] = e end
  end
  local s, err = vram.replay(ev, { model = true, capacity = room })
  return s, err, room
end

return lesson {
  id = "4.5",
  chapter = 4,
  chapter_title = { en = "The memory of a training step", zh = "训练一步的显存" },
  title = { en = "Sharding and offload", zh = "切分与卸载" },
  requires = { "gpu" },

  text { en = [[
# Sharding and offload

Plain data parallelism (DDP) keeps a full copy of the model states on every GPU: with mixed
precision and Adam, (2 + 2 + K)Ψ bytes with K = 12. **ZeRO** (Rajbhandari et al. 2020) removes the
redundancy in three stages over N_d data-parallel GPUs:

| stage | shards | per-GPU bytes | Ψ = 7.5B, N_d = 64 (fig. 1) |
|---|---|---|---|
| 0 (DDP) | nothing | (2 + 2 + K)Ψ | 120 GB |
| 1 (P_os) | optimizer state and master copy | 2Ψ + 2Ψ + KΨ/N_d | 31.4 GB |
| 2 (P_os+g) | + gradients | 2Ψ + (2 + K)Ψ/N_d | 16.6 GB |
| 3 (P_os+g+p) | + weights | (2 + 2 + K)Ψ/N_d | 1.9 GB |

(GB = 1e9 B, as the paper prints them.) Stages 1 and 2 cost no extra communication: a
reduce-scatter of the gradients plus an all-gather of the updated weights moves the same 2Ψ
elements per GPU as DDP's all-reduce. Stage 3 gathers each layer's weights again for forward and
for backward: 3Ψ, **1.5×** DDP (sec. 7). PyTorch's **FSDP** is stage 3 (`FULL_SHARD`) or stage 2
(`SHARD_GRAD_OP`). ZeRO shards model states only: each GPU still holds the activations of its own
micro-batch.

**Tensor parallelism** (Megatron-LM, Shoeybi et al. 2019) splits each layer's weight matrices
across t GPUs — attention by heads, the MLP's first matrix by columns and its second by rows — so
weights, gradients and optimizer state are divided by t, and the activations of 4.2 become
sbh(10 + 24/t + 5as/(ht)) (÷t entirely with sequence parallelism). It all-reduces activations
twice per layer in forward and twice in backward, so it stays inside a node, over NVLink.

**Pipeline parallelism** (GPipe, Huang et al. 2019; 1F1B, Narayanan et al. 2021) gives each of p
GPUs L/p consecutive layers: model states ÷p. Under the 1F1B schedule the first stage holds the
activations of p micro-batches in flight, L/p layers each — as much as the whole model's for one
micro-batch — and the pipeline idles a fraction (p − 1)/m of the time with m micro-batches.

## CPU offload
**ZeRO-Offload** (Ren et al. 2021) keeps the fp32 master copy and Adam's state in host memory
and runs the update on the CPU. The GPU keeps the **fp16 parameters, 2Ψ bytes** (sec. 4.1), and
no full set of gradients: backward hands each gradient to the host as soon as it is made, a
bucket at a time (sec. 4.2), so only a small buffer waits on the GPU. DeepSpeed's implementation
names that buffer: a reduce bucket of `reduce_bucket_size` = 5e8 elements (1 GB in 16 bits, two
with `overlap_comm`) and a 16-bit buffer the size of the largest parameter (DeepSpeed 0.19.6; up
to 0.16, a copy in its stages 1 and 2 kept about 3× the fp16 parameters on the GPU, fixed in
0.17.0 by PR 7309). For a 1.3B model: 2.6 GB of parameters + 1.2 GB of buffers = **3.8 GB**, not
the 5.3 GB that "16-bit weights and gradients" would say. Every step sends the gradients down
(2Ψ B, D2H) and the updated weights up (2Ψ B, H2D). It pays when the GPU's compute for the step,
6Ψ × tokens FLOPs, takes longer than those 4Ψ bytes over PCIe:

```
6Ψ·T / (F·MFU)  ≥  2Ψ/B_d2h + 2Ψ/B_h2d    →    T ≥ 2·F·MFU / (3·B)   (B_d2h = B_h2d = B)
```

Ψ cancels: the break-even tokens per step depend only on the GPU's FLOP/s and the link. A naive
**optimizer swap** moves the K = 12 B/param of state both ways every step instead: 6× the bytes.

> [!errata] "When VRAM runs out, use host memory to make up for it"
> The lecture learned the hard way that swapping to host memory made training crawl, and
> concluded: prefer checkpointing or model parallelism. Both are right for naive swapping —
> moving state the size of the optimizer over a 31.5 GB/s link (PCIe 4.0 x16, per direction) each step — but ZeRO-Offload moves
> only 16-bit gradients and weights, and pays once a step has more than some hundreds to a few
> thousand tokens, depending on the GPU and the link. Compute the break-even before deciding; the experiment does it with this machine's link.
> Source: Ren et al. 2021, "ZeRO-Offload" (16-bit gradients down, weights up); PCI-SIG
> (PCIe 4.0 x16, `vram.pcie`); the experiment below (break-even at this machine's `gpu.copy`).
]], zh = [[
# 切分与卸载

普通的数据并行（DDP）在每张 GPU 上都保留一份完整的模型状态：混合精度加 Adam 时是 (2 + 2 + K)Ψ 字节，K = 12。**ZeRO**（Rajbhandari et al. 2020）在 N_d 张数据并行的 GPU 上分三个阶段去掉这份冗余：

| 阶段 | 切分的内容 | 每张 GPU 的字节数 | Ψ = 7.5B，N_d = 64（图 1） |
|---|---|---|---|
| 0（DDP） | 无 | (2 + 2 + K)Ψ | 120 GB |
| 1（P_os） | 优化器状态和主副本 | 2Ψ + 2Ψ + KΨ/N_d | 31.4 GB |
| 2（P_os+g） | + 梯度 | 2Ψ + (2 + K)Ψ/N_d | 16.6 GB |
| 3（P_os+g+p） | + 权重 | (2 + 2 + K)Ψ/N_d | 1.9 GB |

（GB = 1e9 B，与论文一致。）阶段 1 和 2 不增加通信量：梯度的 reduce-scatter 加上更新后权重的 all-gather，每张 GPU 传输的仍是 2Ψ 个元素，与 DDP 的 all-reduce 相同。阶段 3 在前向和反向时都要重新收集每层的权重：3Ψ，是 DDP 的 **1.5 倍**（第 7 节）。PyTorch 的 **FSDP** 就是阶段 3（`FULL_SHARD`）或阶段 2（`SHARD_GRAD_OP`）。ZeRO 只切分模型状态：每张 GPU 仍保存自己那份 micro-batch 的激活。

**张量并行**（Megatron-LM，Shoeybi et al. 2019）把每层的权重矩阵切到 t 张 GPU 上——注意力按头切，MLP 的第一个矩阵按列、第二个按行切——于是权重、梯度和优化器状态都除以 t，4.2 节的激活变为 sbh(10 + 24/t + 5as/(ht))（加上序列并行则整体除以 t）。它在每层的前向中做两次激活的 all-reduce，反向中再做两次，所以只在节点内部、通过 NVLink 使用。

**流水线并行**（GPipe，Huang et al. 2019；1F1B，Narayanan et al. 2021）给 p 张 GPU 各分 L/p 个连续的层：模型状态除以 p。在 1F1B 调度下，第一个阶段要保存 p 个在途 micro-batch 的激活，每个 L/p 层——与整个模型一个 micro-batch 的激活一样多——而且在 m 个 micro-batch 时，流水线有 (p − 1)/m 的时间是空闲的。

## CPU 卸载
**ZeRO-Offload**（Ren et al. 2021）把 fp32 主副本和 Adam 的状态放在主机内存里，由 CPU 执行更新。GPU 上保留的是 **fp16 参数，2Ψ 字节**（第 4.1 节），而不保留一整套梯度：反向传播每算出一个梯度就马上交给主机，一次一个桶（第 4.2 节），所以 GPU 上只有一个小缓冲区在等待。DeepSpeed 的实现给出了这个缓冲区的大小：一个 `reduce_bucket_size` = 5e8 个元素的归约桶（16 位时 1 GB，开了 `overlap_comm` 则是两个），外加一个与最大参数同样大小的 16 位缓冲区（DeepSpeed 0.19.6；到 0.16 为止，它的阶段 1 和 2 里有一份拷贝让 GPU 上保留了约 3 倍的 fp16 参数，0.17.0 由 PR 7309 修复）。对一个 13 亿参数的模型：2.6 GB 参数 + 1.2 GB 缓冲区 = **3.8 GB**，而不是“16 位权重加梯度”所说的 5.3 GB。每一步把梯度送下去（2Ψ B，D2H），再把更新后的权重送上来（2Ψ B，H2D）。当 GPU 这一步的计算（6Ψ × token 数 FLOPs）比这 4Ψ 字节经 PCIe 传输的时间更长时，它就划算：

```
6Ψ·T / (F·MFU)  ≥  2Ψ/B_d2h + 2Ψ/B_h2d    →    T ≥ 2·F·MFU / (3·B)   （B_d2h = B_h2d = B）
```

Ψ 消掉了：盈亏平衡的每步 token 数只取决于 GPU 的 FLOP/s 和链路。朴素的**优化器交换**则是每步把 K = 12 B/参数的状态来回搬一遍：字节数是前者的 6 倍。

> [!errata] “显存不够时，用内存来凑”
> 讲义的作者吃过亏：和内存交换让训练速度暴跌，于是得出结论——优先用梯度检查点或模型并行。对朴素交换而言这没错：每步把优化器那么大的状态经 31.5 GB/s 的链路（PCIe 4.0 x16，单向）搬来搬去。但 ZeRO-Offload 只搬 16 位的梯度和权重，一步超过几百到几千个 token（取决于 GPU 和链路）就划算。下结论之前先算一算盈亏平衡点；实验用本机的链路算给你看。
> 出处：Ren et al. 2021，“ZeRO-Offload”（16 位梯度下行、权重上行）；PCI-SIG（PCIe 4.0 x16，`vram.pcie`）；下面的实验（按本机 `gpu.copy` 带宽算出的盈亏平衡点）。
]] },

  exercise {
    id = "predict-pcie",
    kind = "predict",
    prompt = { en = [[
Predict the PCIe time per step (seconds) of ZeRO-Offload for a **1.3B** model on this machine:
2 B/param of gradients down, then 2 B/param of weights up, at this machine's pinned H2D and D2H
bandwidth (measured after you answer; lesson 3.1 measured it too).
]], zh = [[
预测本机上一个 **13 亿**参数模型做 ZeRO-Offload 时每步的 PCIe 时间（秒）：每参数 2 B 的梯度送下去，再把每参数 2 B 的权重送上来，按本机锁页内存的 H2D 和 D2H 带宽计算（你回答之后测量；3.1 节也测过）。
]] },
    unit = "s", tolerance = 0.25,
    measure = function()
      local h, d, lab, why = pcie()
      if not h then error(why) end
      local o = vram.offload { params = OFF.params, tokens = OFF.tokens, h2d = h, d2h = d, gpu = gpu_id() }
      return o.transfer_seconds, lab.from or true -- a theoretical rate is never labelled measured
    end,
    hints = { { en = "Count the bytes each way (2 B per parameter), then divide by what a pinned copy reaches over this machine's link: a PCIe link's rate per direction, less packet overhead (lesson 3.1).", zh = "先算每个方向的字节数（每参数 2 B），再除以本机链路上锁页内存拷贝能达到的速率：PCIe 每方向的速率，减去包开销（3.1 节）。" } },
    explain = { en = "2.6 GB / B_d2h + 2.6 GB / B_h2d: about 0.2 s at 26 GB/s, 0.1 s on gen 5. Against the compute of 4096 tokens (6 x 1.3e9 x 4096 FLOPs) the transfer is small on most GPUs.",
                zh = "2.6 GB / B_d2h + 2.6 GB / B_h2d：26 GB/s 时约 0.2 s，PCIe 5.0 上约 0.1 s。与 4096 个 token 的计算量（6 × 1.3e9 × 4096 FLOPs）相比，在大多数 GPU 上传输时间都很小。" },
  },

  experiment {
    id = "shard-offload",
    title = { en = "ZeRO's stages, and offload over this machine's PCIe", zh = "ZeRO 的各阶段，以及经本机 PCIe 的卸载" },
    intro = { en = [[
The ZeRO bars reproduce the paper's figure 1 (a model). Then `gpu.copy` measures this machine's
pinned H2D and D2H bandwidth (64 MiB, best of 5; SIMULATED on the simulator), and `vram.offload`
times a 1.3B model's offload traffic at that bandwidth against its compute at 40 % of this GPU
profile's published 16-bit FLOP/s.
]], zh = [[
ZeRO 柱状图复现论文图 1（模型计算）。然后 `gpu.copy` 测量本机锁页内存的 H2D 和 D2H 带宽（64 MiB，5 次取最好；模拟器上为 SIMULATED），`vram.offload` 按这个带宽计算一个 13 亿参数模型的卸载传输时间，对比它在本 GPU 配置公布的 16 位 FLOP/s 的 40% 下的计算时间。
]] },
    panels = {
      { id = "zero", kind = "bars", title = { en = "Per-GPU model states, Ψ = 7.5B, N_d = 64 (model)", zh = "每张 GPU 的模型状态，Ψ = 7.5B，N_d = 64（模型）" }, unit = "GB" },
      { id = "c", kind = "curve", title = { en = "Seconds per step vs tokens per step, 1.3B model", zh = "每步秒数 vs 每步 token 数，13 亿参数模型" }, x = "tokens", y = "s", logx = true },
      { id = "off", kind = "bars", title = { en = "1.3B model, 4096 tokens a step", zh = "13 亿参数模型，每步 4096 个 token" }, unit = "s" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local paper = { 120, 31.4, 16.6, 1.9 }
      for st = 0, 3 do
        local z = vram.sharding { params = 7.5e9, gpus = 64, stage = st }
        ex:bar("zero", T("stage ", "阶段 ") .. st, z.total / GB, { style = "theoretical", unit = "GB" })
      end
      ex:note("zero", T(string.format("The paper's figure 1: %g, %g, %g, %g GB.", table.unpack(paper)),
                        string.format("论文图 1：%g、%g、%g、%g GB。", table.unpack(paper))))
      ex:status(T("measuring H2D and D2H", "正在测量 H2D 和 D2H"))
      local h, d, lab, why = pcie()
      if not h then
        ex:note("off", T("No bandwidth to work with: " .. why, "没有可用的带宽数据：" .. why))
        ex:status(T("failed", "失败"))
        return
      end
      local how = lab.from and (lab.from.simulated and T("SIMULATED", "模拟") or T("measured", "实测"))
                  or T("the link's theoretical rate: " .. why, "链路的理论速率：" .. why)
      local id = gpu_id()
      local spec = vram.gpu_spec(id)
      local tok = 128
      while tok <= 16384 do
        local o = vram.offload { params = OFF.params, tokens = tok, h2d = h, d2h = d, gpu = id }
        local sw = vram.offload { params = OFF.params, tokens = tok, h2d = h, d2h = d, gpu = id, mode = "optimizer_swap" }
        ex:point("c", T("compute", "计算"), tok, o.compute_seconds, { style = "theoretical" })
        ex:point("c", "ZeRO-Offload PCIe", tok, o.transfer_seconds, lab)
        ex:point("c", T("optimizer swap PCIe", "优化器交换 PCIe"), tok, sw.transfer_seconds, lab)
        tok = tok * 2
      end
      local o = vram.offload { params = OFF.params, tokens = OFF.tokens, h2d = h, d2h = d, gpu = id }
      ex:note("c", T(string.format("Link: H2D %s, D2H %s (%s). Compute: %s at %.1f TFLOP/s x 40 %% (a model). Offload breaks even at %.0f tokens a step.",
                                   units.rate(h), units.rate(d), how,
                                   spec.name, spec.flops / 1e12, o.breakeven_tokens),
                     string.format("链路：H2D %s，D2H %s（%s）。计算：%s，%.1f TFLOP/s × 40%%（模型）。卸载在每步 %.0f 个 token 时盈亏平衡。",
                                   units.rate(h), units.rate(d), how,
                                   spec.name, spec.flops / 1e12, o.breakeven_tokens)))
      ex:bar("off", T("compute (model)", "计算（模型）"), o.compute_seconds, { style = "theoretical", unit = "s" })
      ex:bar("off", T("PCIe, ZeRO-Offload", "PCIe，ZeRO-Offload"), o.transfer_seconds, { from = lab.from, style = lab.style, unit = "s" })
      ex:note("off", T(string.format("GPU keeps %s, the host %s. Offload %s at this size (compute / transfer = %.1f). The CPU's Adam update is not modelled.",
                                     units.si(o.gpu_bytes), units.si(o.host_bytes), o.pays and "pays" or "does not pay", o.compute_seconds / o.transfer_seconds),
                       string.format("GPU 保留 %s，主机保留 %s。此规模下卸载%s（计算 / 传输 = %.1f）。CPU 上 Adam 更新的时间没有建模。",
                                     units.si(o.gpu_bytes), units.si(o.host_bytes), o.pays and "划算" or "不划算", o.compute_seconds / o.transfer_seconds)))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the panels
ZeRO's bars fall by the factors of the table: stage 1 already takes 120 GB to 31 GB, because 12 of
the 16 B/param are optimizer state. On the curve, compute grows with the tokens while the offload
traffic does not: the lines cross at the break-even. Below it, the GPU waits for PCIe (unless the
transfers overlap the next step's compute, as DeepSpeed's "delayed parameter update" does);
above it, offload is nearly free. The naive swap's line sits 6× higher and crosses 6× further
right.

> [!pitfall] Host memory and the CPU are part of the budget
> ZeRO-Offload's host side holds 14 B/param (16-bit gradients, fp32 master copy, m and v: 1.3B →
> 18.2 GB, pinned for fast copies, plus buffers), and
> the CPU must run Adam over all Ψ parameters every step: on a few cores that can take longer
> than the PCIe transfer. vramlab's model leaves the CPU time out; measure it.
]], zh = [[
## 怎么读这些面板
ZeRO 的柱子按表中的比例下降：阶段 1 就把 120 GB 降到了 31 GB，因为每参数 16 B 中有 12 B 是优化器状态。曲线上，计算时间随 token 数增长，而卸载的传输量不变：两条线交于盈亏平衡点。低于它，GPU 要等 PCIe（除非像 DeepSpeed 的“延迟参数更新”那样，让传输与下一步的计算重叠）；高于它，卸载几乎没有代价。朴素交换的线高出 6 倍，交点也右移 6 倍。

> [!pitfall] 主机内存和 CPU 也在预算之内
> ZeRO-Offload 在主机侧保存每参数 14 B（16 位梯度、fp32 主副本、m 和 v：13 亿参数 → 18.2 GB，为了拷贝快要用锁页内存，外加缓冲区），而且 CPU 每一步都要对全部 Ψ 个参数运行 Adam：只有几个核心时，这可能比 PCIe 传输还慢。vramlab 的模型没有计入 CPU 时间；请实测。
]] },

  exercise {
    id = "zero2",
    kind = "number",
    prompt = { en = "ZeRO stage 2, Ψ = 7.5B parameters, N_d = 64 GPUs, mixed precision with Adam (K = 12): how many GB (1e9 B) of model states per GPU?",
               zh = "ZeRO 阶段 2，Ψ = 75 亿参数，N_d = 64 张 GPU，混合精度加 Adam（K = 12）：每张 GPU 有多少 GB（1e9 B）的模型状态？" },
    answer = 16.64, unit = "GB", tolerance = 0.03,
    mistakes = {
      { value = 4 * 7.5 + 12 * 7.5 / 64, say = { en = "That is stage 1: stage 2 shards the gradients too.", zh = "那是阶段 1：阶段 2 连梯度也切分了。" } },
      { value = 16 * 7.5 / 64, say = { en = "That is stage 3: in stage 2 every GPU still holds all the 16-bit weights.", zh = "那是阶段 3：阶段 2 里每张 GPU 仍持有完整的 16 位权重。" } },
    },
    hints = { { en = "Stage 2 shards the optimizer state and the gradients; the 16-bit weights stay whole on every GPU.", zh = "阶段 2 切分优化器状态和梯度；16 位权重在每张 GPU 上仍是完整的。" } },
    explain = { en = "2Ψ + (2 + 12)Ψ/64 = 15 GB + 1.64 GB = 16.64 GB (the paper's 16.6).",
                zh = "2Ψ + (2 + 12)Ψ/64 = 15 GB + 1.64 GB = 16.64 GB（论文中的 16.6）。" },
  },

  exercise {
    id = "zero3-comm",
    kind = "choice",
    prompt = { en = "Compared with plain data parallelism, how much communication per step does ZeRO stage 3 add?",
               zh = "与普通的数据并行相比，ZeRO 阶段 3 每步增加多少通信量？" },
    choices = {
      { en = "None: sharding only changes where the state lives", zh = "不增加：切分只改变状态存放的位置" },
      { en = "N_d times as much: every GPU sends its shard to every other", zh = "N_d 倍：每张 GPU 都把自己的分片发给其他所有 GPU" },
      { en = "1.5×: the weights are all-gathered for forward and again for backward", zh = "1.5 倍：前向时 all-gather 一次权重，反向时再 all-gather 一次" },
      { en = "2×: gradients and weights both travel twice", zh = "2 倍：梯度和权重都要传两次" },
    },
    answer = 3,
    hints = { { en = "DDP's all-reduce moves 2Ψ per GPU (reduce-scatter + all-gather). What does stage 3 need that stage 2 does not?", zh = "DDP 的 all-reduce 每张 GPU 传输 2Ψ（reduce-scatter + all-gather）。阶段 3 比阶段 2 多需要什么？" } },
    explain = { en = "Stage 3 all-gathers each layer's weights before forward and before backward (2 × Ψ) and reduce-scatters the gradients (Ψ): 3Ψ against DDP's 2Ψ (sec. 7 of the paper). Stages 1 and 2 stay at 2Ψ.",
                zh = "阶段 3 在前向前和反向前各 all-gather 一次每层的权重（2 × Ψ），再 reduce-scatter 梯度（Ψ）：3Ψ，而 DDP 是 2Ψ（论文第 7 节）。阶段 1 和 2 仍是 2Ψ。" },
  },

  exercise {
    id = "breakeven",
    kind = "number",
    prompt = { en = "ZeRO-Offload on an H100 SXM (989.4 TFLOP/s dense 16-bit) at 40 % MFU over PCIe gen 5 x16 (63.0 GB/s each way, transfers one after the other): above how many tokens per step does compute take longer than the offload traffic?",
               zh = "在 H100 SXM（16 位稠密 989.4 TFLOP/s）上做 ZeRO-Offload，MFU 40%，经 PCIe 5.0 x16（每方向 63.0 GB/s，两个方向先后传输）：每步超过多少个 token 时，计算时间会长于卸载的传输时间？" },
    answer = 4187, unit = "", tolerance = 0.02,
    hints = { { en = "Set 6Ψ·T / (F·MFU) equal to 4Ψ / B: Ψ cancels.", zh = "令 6Ψ·T / (F·MFU) 等于 4Ψ / B：Ψ 会消掉。" } },
    explain = { en = "T = 4·F·MFU / (6·B) = 4 x 989.4e12 x 0.4 / (6 x 63.0e9) = 4187 tokens, for any model size: about two 2048-token sequences per step.",
                zh = "T = 4·F·MFU / (6·B) = 4 × 989.4e12 × 0.4 / (6 × 63.0e9) = 4187 个 token，与模型大小无关：大约每步两条 2048 token 的序列。" },
  },

  text { en = [[
## What data parallelism adds: the transients
ZeRO's table counts model states. Go from one GPU to eight and three kinds of memory appear that
the table leaves out — the reason a job that fits on one GPU can run out on eight:

- **DDP's gradient buckets.** `DistributedDataParallel` groups the gradients into buckets of
  `bucket_cap_mb` = 25 MiB (the first one 1 MiB) and all-reduces a bucket as soon as backward has
  filled it. Each bucket is a flat tensor of its own, allocated when DDP is constructed
  (`reducer.cpp`, `Reducer::initialize_buckets`), so the buckets are **one more copy of every
  gradient, for the life of the job**. `gradient_as_bucket_view=True` makes the gradients views
  into the buckets: then only one copy exists. PyTorch's documentation says the saving "will be
  equal to the total gradients size"; PR 41954 measured it: a ResNet's peak 3089 → 2988 MB, roberta_base's 8250 → 7183 MB. But
  mind *where* the peak is: early in backward the buckets exist and the gradients do not yet, so
  views change nothing there; they lower a peak that holds both (late in backward, the optimizer
  step).
- **FSDP's unsharded blocks.** FSDP (ZeRO-3) all-gathers a block's parameters just before its
  forward and its backward and frees them after; by default it prefetches the next block while
  this one computes (FSDP2's `set_modules_to_forward_prefetch`: "a list with at least length two
  ... will use more reserved memory"). So **two blocks of 16-bit weights** are whole at a time,
  and in backward **one block's gradients** wait whole for their reduce-scatter (ZeRO-2 too).
- **NCCL's buffers**, outside PyTorch's allocator. For every channel (a ring through all GPUs;
  NCCL opens from a few to dozens of them, at most 64, depending on the links) each connection's receiver holds a buffer per
  protocol: LL 512 KiB + LL128 4.69 MiB + Simple 4 MiB (`NCCL_BUFFSIZE`) = **9.19 MiB** (NCCL
  2.30.7, `src/init.cc`). Measured per process after one all-reduce on 4 A100s: 544 MB for a
  group of 2 GPUs, 688 MB for 3 or 4 (NVIDIA/nccl issue 964); every extra process group adds its
  own. Since 2.22.3 NCCL connects only the algorithms a job uses (`NCCL_RUNTIME_CONNECT`).

The worked problem of 4.6 one micro-batch bigger: the 1.3B model in pure bf16, selective
recomputation, s = 2048, micro-batch 3 on RTX 3090s (23.70 GiB as CUDA reports it):

| run | peak per GPU | what it adds |
|---|---|---|
| 1 GPU | 20.85 GiB | — |
| 8 GPUs, DDP | **23.94 GiB: out of memory** | buckets 2.45 GiB + NCCL 688 MB |
| 8, DDP, `gradient_as_bucket_view` | 23.94 GiB | the same: the peak is early in backward |
| 8, ZeRO-1 | 19.65 GiB | the optimizer state sharded outweighs the buckets |
| 8, FSDP (ZeRO-3) | 15.34 GiB | two gathered blocks 192 MiB + one block's gradients 96 MiB |

> [!pitfall] "It ran on one GPU, so it runs on eight"
> Data parallelism divides the batch, not the memory: every GPU still holds the whole model, and
> now the buckets and NCCL's buffers besides. Budget them, or shard: ZeRO-1 costs no extra
> communication (section above).
]], zh = [[
## 数据并行额外带来的：临时内存
ZeRO 的表格只算模型状态。从一张 GPU 到八张，会冒出三类表格没算的内存——这就是在一张 GPU 上装得下的任务在八张上反而 OOM 的原因：

- **DDP 的梯度桶。** `DistributedDataParallel` 把梯度分进大小为 `bucket_cap_mb` = 25 MiB 的桶（第一个桶 1 MiB），反向传播一填满一个桶就对它做 all-reduce。每个桶是一个单独的扁平张量，在构造 DDP 时就分配好（`reducer.cpp`，`Reducer::initialize_buckets`），所以这些桶就是**每个梯度的又一份拷贝，在整个任务期间一直存在**。`gradient_as_bucket_view=True` 让梯度成为桶的视图：这样只存在一份。PyTorch 文档说省下的内存“等于全部梯度的大小”；PR 41954 实测过：一个 ResNet 的峰值从 3089 MB 降到 2988 MB，roberta_base 从 8250 MB 降到 7183 MB。但要看峰值*在哪里*：反向刚开始时桶已存在而梯度还没有，视图在那里什么也改变不了；它降低的是两者同时存在的峰值（反向末尾、优化器步骤）。
- **FSDP 中未切分的块。** FSDP（ZeRO-3）在一个块的前向和反向之前把它的参数 all-gather 完整，用完就释放；默认还会在这个块计算时预取下一个块（FSDP2 的 `set_modules_to_forward_prefetch`：“长度至少为二的列表……会使用更多的预留内存”）。所以同时有**两个块的 16 位权重**是完整的；反向时还有**一个块的梯度**完整地等待 reduce-scatter（ZeRO-2 也一样）。
- **NCCL 的缓冲区**，在 PyTorch 的分配器之外。每个通道（一个穿过所有 GPU 的环；NCCL 视链路开几个到几十个，最多 64 个）上，每个连接的接收方为每种协议各保留一块缓冲区：LL 512 KiB + LL128 4.69 MiB + Simple 4 MiB（`NCCL_BUFFSIZE`）= **9.19 MiB**（NCCL 2.30.7，`src/init.cc`）。在 4 张 A100 上做一次 all-reduce 后每个进程实测：2 张 GPU 的组 544 MB，3 或 4 张 688 MB（NVIDIA/nccl issue 964）；每多一个进程组就再加一份。从 2.22.3 起，NCCL 只连接任务用到的算法（`NCCL_RUNTIME_CONNECT`）。

把 4.6 节的算例的 micro-batch 加大一点：13 亿参数模型，纯 bf16，选择性重计算，s = 2048，micro-batch 3，RTX 3090（CUDA 报告 23.70 GiB）：

| 运行方式 | 每张 GPU 的峰值 | 额外带来的 |
|---|---|---|
| 1 张 GPU | 20.85 GiB | — |
| 8 张 GPU，DDP | **23.94 GiB：OOM** | 梯度桶 2.45 GiB + NCCL 688 MB |
| 8 张，DDP，`gradient_as_bucket_view` | 23.94 GiB | 一样：峰值在反向刚开始时 |
| 8 张，ZeRO-1 | 19.65 GiB | 切分优化器状态省下的多于梯度桶 |
| 8 张，FSDP（ZeRO-3） | 15.34 GiB | 两个收集完整的块 192 MiB + 一个块的梯度 96 MiB |

> [!pitfall] “一张 GPU 上能跑，八张上也能跑”
> 数据并行切分的是批，不是内存：每张 GPU 仍然持有整个模型，现在还要再加上梯度桶和 NCCL 的缓冲区。要么把它们算进预算，要么切分：ZeRO-1 不增加通信量（见上文）。
]] },

  exercise {
    id = "predict-ddp",
    kind = "predict",
    prompt = { en = [[
The experiment below replays the micro-batch-3 step through the caching allocator on a model
RTX 3090 (its 23.70 GiB less the 426 MiB CUDA context) on one GPU, then as one of eight DDP ranks
(the 2.45 GiB of buckets allocated first, and 688 MB left to NCCL). On one GPU the step's live
peak is 20.43 GiB. Predict the **peak reserved** (GiB) of the one-GPU replay.
]], zh = [[
下面的实验把 micro-batch 3 的一步经缓存分配器回放到一张模型 RTX 3090 上（23.70 GiB 减去 426 MiB 的 CUDA 上下文）：先是单卡，再作为八个 DDP 进程之一（先分配 2.45 GiB 的梯度桶，再给 NCCL 留出 688 MB）。单卡时这一步的存活峰值是 20.43 GiB。预测单卡回放的**已预留峰值**（GiB）。
]] },
    unit = "GiB", tolerance = 0.05,
    measure = function()
      local s = replay_dp(1)
      return s.peak_reserved / units.GiB, "model"
    end,
    hints = { { en = "Reserved = live bytes + the allocator's rounding and the cached blocks later requests could not reuse: a few percent more (4.1).", zh = "已预留 = 存活字节 + 分配器的取整和后来的请求无法复用的缓存块：多几个百分点（4.1 节）。" } },
    explain = { en = "A few percent above 20.43 GiB, within the 23.28 GiB the process may hold: one GPU fits. The same replay as a DDP rank starts 2.45 GiB higher and has 0.64 GiB less room.",
                zh = "比 20.43 GiB 高几个百分点，仍在进程可用的 23.28 GiB 之内：单卡装得下。同样的回放作为 DDP 进程时，起点高出 2.45 GiB，可用空间又少了 0.64 GiB。" },
  },

  experiment {
    id = "dp",
    key = "peak",
    title = { en = "Fits on one GPU, runs out on eight", zh = "一张 GPU 装得下，八张装不下" },
    intro = { en = [[
`vram.plan_check` for the micro-batch-3 problem on one RTX 3090 and as one of eight (a model):
DDP, DDP with bucket views, ZeRO-1, ZeRO-2, FSDP. Then the step replayed through vramlab's model of
PyTorch's caching allocator on a device of the RTX 3090's capacity, less the CUDA context (and, for
the DDP rank, NCCL's 688 MB), with DDP's buckets allocated before the step, as DDP's constructor
does: what PyTorch would say. MODEL, SIMULATED on every backend: one GPU cannot measure eight.
]], zh = [[
用 `vram.plan_check` 为 micro-batch 3 的问题分别计算单张 RTX 3090 和八张之一（模型）：DDP、带桶视图的 DDP、ZeRO-1、ZeRO-2、FSDP。然后把这一步经 vramlab 的 PyTorch 缓存分配器模型回放到一台容量为 RTX 3090 减去 CUDA 上下文（DDP 进程再减去 NCCL 的 688 MB）的设备上，并像 DDP 的构造函数那样先分配梯度桶：看 PyTorch 会说什么。模型，在任何后端上都是 SIMULATED：一张 GPU 测不了八张。
]] },
    panels = {
      { id = "peak", kind = "bars", title = { en = "Peak per GPU, 1.3B model, micro-batch 3 (model)", zh = "每张 GPU 的峰值，13 亿参数，micro-batch 3（模型）" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "What each run adds (model)", zh = "每种运行方式额外带来的（模型）" } },
      { id = "replay", kind = "table", title = { en = "Through the caching allocator (SIMULATED)", zh = "经缓存分配器（SIMULATED）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local GiB = units.GiB
      local cap
      ex:row("t", { T("run", "运行方式"), T("peak", "峰值"), T("buckets", "梯度桶"), T("gathered", "收集的块"), T("unsharded grads", "未切分梯度"), "NCCL", T("fits", "装得下") })
      for _, r in ipairs(DP_RUNS) do
        local c = vram.plan_check(dp_problem(r.gpus, r.view), { precision = "bf16", checkpointing = "selective", stage = r.stage })
        cap = c.capacity
        ex:bar("peak", T(r.en, r.zh), c.memory.total / GiB, { style = "theoretical", unit = "GiB" })
        ex:row("t", { T(r.en, r.zh), units.bytes(c.memory.total), units.bytes(c.memory.buckets), units.bytes(c.memory.gather),
                      units.bytes(c.memory.unsharded_grads), units.bytes(c.memory.nccl), c.fits and T("yes", "是") or T("no", "否") })
      end
      ex:note("peak", T(string.format("The RTX 3090 holds %s (CUDA's total); each bar includes the 426 MiB context.", units.bytes(cap)),
                        string.format("RTX 3090 可用 %s（CUDA 报告的总量）；每根柱子都含 426 MiB 的上下文。", units.bytes(cap))))
      ex:status(T("replaying through the allocator", "经分配器回放"))
      ex:row("replay", { T("run", "运行方式"), T("room", "可用"), T("peak reserved", "已预留峰值"), T("result", "结果") })
      for _, n in ipairs { 1, 8 } do
        local s, err, room = replay_dp(n)
        local name = n == 1 and T("1 GPU", "1 张 GPU") or T("rank of 8, DDP", "8 张之一，DDP")
        if s then
          ex:row("replay", { name, units.bytes(room), units.bytes(s.peak_reserved), T("fits", "装得下") })
        else
          ex:row("replay", { name, units.bytes(room), "-", T("out of memory", "显存不足") })
          ex:note("replay", T("PyTorch's message (model): ", "PyTorch 的报错（模型）：") .. tostring(err))
        end
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "ddp-buckets",
    kind = "number",
    prompt = { en = "The 1.3B model (1,315,723,264 parameters) trains in pure bf16 under DDP with the default `gradient_as_bucket_view=False`. How many GiB (2^30 B) do DDP's buckets add on every GPU?",
               zh = "这个 13 亿参数的模型（1,315,723,264 个参数）用纯 bf16 在 DDP 下训练，`gradient_as_bucket_view=False`（默认）。DDP 的梯度桶在每张 GPU 上增加多少 GiB（2^30 B）？" },
    answer = 2 * 1315723264 / 2^30, unit = "GiB", tolerance = 0.03,
    mistakes = { { value = 2 * 1315723264 / 2^30 / 8, say = { en = "DDP does not shard anything: every rank's buckets hold every gradient, not an eighth.", zh = "DDP 什么都不切分：每个进程的梯度桶都装着全部梯度，而不是八分之一。" } },
                 { value = 25 / 1024, say = { en = "25 MiB is one bucket; there is a bucket for every 25 MiB of gradients.", zh = "25 MiB 是一个桶的大小；每 25 MiB 梯度就有一个桶。" } } },
    hints = { { en = "One bucket element per gradient element, in the gradients' dtype; then divide by 2^30.", zh = "每个梯度元素对应桶里的一个元素，类型与梯度相同；然后除以 2^30。" } },
    explain = { en = "1,315,723,264 x 2 B = 2.63e9 B = 2.45 GiB on every GPU, held from DDP's construction on. With gradient_as_bucket_view=True the gradients live in those buckets instead.",
                zh = "1,315,723,264 × 2 B = 2.63e9 B = 2.45 GiB，每张 GPU 都有，从构造 DDP 起就一直占着。用 gradient_as_bucket_view=True 时，梯度就直接放在这些桶里。" },
  },

  exercise {
    id = "bucket-view",
    kind = "choice",
    prompt = { en = "Your DDP job's peak is early in backward (the logits' gradient, every activation still saved). Does `gradient_as_bucket_view=True` lower it?",
               zh = "你的 DDP 任务的峰值在反向刚开始时（logits 的梯度，所有激活都还保存着）。`gradient_as_bucket_view=True` 能降低它吗？" },
    choices = {
      { en = "Yes, by the gradients' size: the buckets are no longer a second copy", zh = "能，降低一份梯度的大小：桶不再是第二份拷贝" },
      { en = "No: there the buckets exist and the gradients not yet, so there is no second copy to remove", zh = "不能：那时桶已存在而梯度还没有，根本没有第二份拷贝可省" },
      { en = "Yes, by half the gradients: views share half the storage", zh = "能，降低一半梯度：视图共享一半存储" },
    },
    answer = 2,
    why = { [1] = { en = "That saving is real where the peak holds both gradients and buckets: late in backward, or the optimizer step.", zh = "这份节省只出现在峰值同时包含梯度和桶的时候：反向末尾，或者优化器步骤。" } },
    hints = { { en = "When are the buckets allocated, and when do the gradients appear?", zh = "桶是什么时候分配的？梯度又是什么时候出现的？" } },
    explain = { en = "The buckets are allocated at DDP's construction; the gradients appear during backward. Early in backward only the buckets exist: views change nothing there. ZeRO-1 (or a smaller micro-batch) does.",
                zh = "桶在构造 DDP 时就分配了；梯度在反向时才出现。反向刚开始时只有桶：视图在那里不起作用。ZeRO-1（或更小的 micro-batch）才有用。" },
  },

  exercise {
    id = "nccl-ring",
    kind = "number",
    prompt = { en = "NCCL 2.30 with its default buffers (LL 512 KiB, LL128 4,915,200 B, Simple 4 MiB per connection) runs a ring all-reduce on 16 channels. How many MiB (2^20 B) of receive buffers does each GPU hold?",
               zh = "NCCL 2.30 使用默认缓冲区（每个连接 LL 512 KiB、LL128 4,915,200 B、Simple 4 MiB），在 16 个通道上做环形 all-reduce。每张 GPU 持有多少 MiB（2^20 B）的接收缓冲区？" },
    answer = 16 * 9633792 / 2^20, unit = "MiB", tolerance = 0.02,
    mistakes = { { value = 16 * 4, say = { en = "Only the Simple protocol's 4 MiB: NCCL keeps a buffer for LL and LL128 too.", zh = "只算了 Simple 协议的 4 MiB：NCCL 还为 LL 和 LL128 各留一块缓冲区。" } },
                 { value = 9633792 / 2^20, say = { en = "That is one connection: a ring has one receiving connection per channel, 16 channels.", zh = "那是一个连接：环在每个通道上有一个接收连接，共 16 个通道。" } } },
    hints = { { en = "Add the three protocols' buffers for one connection, then multiply by the connections: one per channel in a ring.", zh = "先把一个连接上三种协议的缓冲区加起来，再乘以连接数：环形算法每个通道一个。" } },
    explain = { en = "524,288 + 4,915,200 + 4,194,304 = 9,633,792 B = 9.19 MiB a connection; x 16 = 147 MiB. Tree algorithms, several process groups and NCCL's own kernels add more: 544-688 MB were measured per process on A100s.",
                zh = "524,288 + 4,915,200 + 4,194,304 = 9,633,792 B = 每个连接 9.19 MiB；× 16 = 147 MiB。树形算法、多个进程组和 NCCL 自己的核函数还会再加：在 A100 上每个进程实测 544–688 MB。" },
  },

  exercise {
    id = "offload-gpu",
    kind = "number",
    prompt = { en = "ZeRO-Offload as the paper and DeepSpeed 0.19.6 do it, for the 1.3B model (1,315,723,264 parameters): fp16 parameters on the GPU, gradients streamed to the host, one reduce bucket of 5e8 bf16 elements and a buffer for the largest parameter (50,257 x 2,048 bf16). How many GB (1e9 B) stay on the GPU?",
               zh = "按论文和 DeepSpeed 0.19.6 的做法对这个 13 亿参数模型（1,315,723,264 个参数）做 ZeRO-Offload：fp16 参数留在 GPU 上，梯度流式送到主机，一个 5e8 个 bf16 元素的归约桶，外加一个最大参数大小的缓冲区（50,257 × 2,048 个 bf16）。GPU 上留下多少 GB（1e9 B）？" },
    answer = (2 * 1315723264 + 1e9 + 2 * 50257 * 2048) / 1e9, unit = "GB", tolerance = 0.02,
    mistakes = { { value = 4 * 1315723264 / 1e9, say = { en = "That keeps the 16-bit gradients on the GPU too: ZeRO-Offload streams them to the host bucket by bucket.", zh = "那把 16 位梯度也留在了 GPU 上：ZeRO-Offload 把它们一桶一桶地送到主机。" } },
                 { value = 2 * 1315723264 / 1e9, say = { en = "The parameters alone: DeepSpeed's reduce bucket and largest-parameter buffer stay on the GPU too.", zh = "只算了参数：DeepSpeed 的归约桶和最大参数缓冲区也留在 GPU 上。" } } },
    hints = { { en = "2 bytes per parameter, plus 5e8 x 2 B, plus the largest parameter's elements x 2 B.", zh = "每参数 2 字节，加上 5e8 × 2 B，再加上最大参数的元素数 × 2 B。" } },
    explain = { en = "2.63 GB + 1.00 GB + 0.21 GB = 3.84 GB (vram.offload's gpu_parts), where counting 16-bit weights and gradients would say 5.26 GB.",
                zh = "2.63 GB + 1.00 GB + 0.21 GB = 3.84 GB（vram.offload 的 gpu_parts）；若按 16 位权重加梯度算，会得出 5.26 GB。" },
  },

  text { en = [[
> [!source] Sources
> S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory Optimizations Toward Training Trillion
> Parameter Models", SC 2020, fig. 1, sec. 5 and 7. J. Ren et al., "ZeRO-Offload: Democratizing
> Billion-Scale Model Training", USENIX ATC 2021, sec. 4.1 (fp16 parameters on the GPU, 2M) and
> 4.2 (gradients to the host as backward makes them). DeepSpeed 0.19.6,
> `deepspeed/runtime/zero/config.py` (`reduce_bucket_size` 5e8, `allgather_bucket_size` 5e8,
> `overlap_comm` on at stage 3 only) and `stage_1_and_2.py` (`setup_buckets`, the offload
> buffers); DeepSpeed PR 7309 (0.17.0: ZeRO-Offload's GPU memory from about 3x to 1x the fp16
> parameters). M. Shoeybi et al., "Megatron-LM", arXiv:1909.08053, 2019. Y. Huang et al., "GPipe",
> NeurIPS 2019. D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
> Clusters Using Megatron-LM", SC 2021 (1F1B, bubble (p − 1)/m). PyTorch FSDP docs
> (`ShardingStrategy`) and FSDP2 (`torch/distributed/fsdp/_fully_shard/_fully_shard.py`,
> `set_modules_to_forward_prefetch`). PyTorch DDP: `torch/nn/parallel/distributed.py`
> (`bucket_cap_mb`, `gradient_as_bucket_view`'s docstring), `torch/csrc/distributed/c10d/reducer.cpp`
> (`Reducer::initialize_buckets`), PR 41954 (grads as bucket views: a ResNet 3089 → 2988 MB,
> roberta_base 8250 → 7183 MB) and PR 71483 (check the saving after the first iteration). NCCL
> 2.30.7, `src/init.cc` (`DEFAULT_LL_BUFFSIZE`, `DEFAULT_LL128_BUFFSIZE`, `DEFAULT_BUFFSIZE`) and
> `src/transport/p2p.cc` (the receiver's buffers); NVIDIA/nccl issue 964 (544 and 688 MB per
> process on 4 A100s) and issue 986 (memory linear in channels; a ring has two connections).
> PCIe rates: PCI-SIG (`vram.pcie`); the bandwidth: this machine, `gpu.copy` (lesson 3.1). The
> estimators: `docs/vram-train.md` (`vram.ddp_buckets`, `vram.fsdp_transient`, `vram.nccl`,
> `vram.deepspeed_buffers`, `vram.offload`).
]], zh = [[
> [!source] 出处
> S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC 2020，图 1、第 5 节和第 7 节。J. Ren et al., "ZeRO-Offload: Democratizing Billion-Scale Model Training", USENIX ATC 2021，第 4.1 节（fp16 参数在 GPU 上，2M）和第 4.2 节（反向每算出梯度就送往主机）。DeepSpeed 0.19.6，`deepspeed/runtime/zero/config.py`（`reduce_bucket_size` 5e8、`allgather_bucket_size` 5e8、`overlap_comm` 只在阶段 3 默认开启）和 `stage_1_and_2.py`（`setup_buckets`、卸载用的缓冲区）；DeepSpeed PR 7309（0.17.0：ZeRO-Offload 的 GPU 内存从约 3 倍 fp16 参数降到 1 倍）。M. Shoeybi et al., "Megatron-LM", arXiv:1909.08053, 2019。Y. Huang et al., "GPipe", NeurIPS 2019。D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC 2021（1F1B，气泡 (p − 1)/m）。PyTorch FSDP 文档（`ShardingStrategy`）和 FSDP2（`torch/distributed/fsdp/_fully_shard/_fully_shard.py`，`set_modules_to_forward_prefetch`）。PyTorch DDP：`torch/nn/parallel/distributed.py`（`bucket_cap_mb`、`gradient_as_bucket_view` 的文档字符串）、`torch/csrc/distributed/c10d/reducer.cpp`（`Reducer::initialize_buckets`）、PR 41954（梯度作为桶的视图：一个 ResNet 3089 → 2988 MB，roberta_base 8250 → 7183 MB）和 PR 71483（节省要在第一次迭代之后检查）。NCCL 2.30.7，`src/init.cc`（`DEFAULT_LL_BUFFSIZE`、`DEFAULT_LL128_BUFFSIZE`、`DEFAULT_BUFFSIZE`）和 `src/transport/p2p.cc`（接收方的缓冲区）；NVIDIA/nccl issue 964（4 张 A100 上每进程 544 和 688 MB）和 issue 986（内存与通道数成正比；环只有两个连接）。PCIe 速率：PCI-SIG（`vram.pcie`）；带宽：本机 `gpu.copy`（3.1 节）。估算器见 `docs/vram-train.md`（`vram.ddp_buckets`、`vram.fsdp_transient`、`vram.nccl`、`vram.deepspeed_buffers`、`vram.offload`）。
]] },
}
