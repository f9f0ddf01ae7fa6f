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
and runs the update on the CPU. The GPU keeps 16-bit weights and gradients (4 B/param); every step
sends the gradients down (2Ψ B, D2H) and the updated weights up (2Ψ B, H2D). It pays when the
GPU's compute for the step, 6Ψ × tokens FLOPs, takes longer than those 4Ψ bytes over PCIe:

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
**ZeRO-Offload**（Ren et al. 2021）把 fp32 主副本和 Adam 的状态放在主机内存里，由 CPU 执行更新。GPU 上保留 16 位的权重和梯度（每参数 4 B）；每一步把梯度送下去（2Ψ B，D2H），再把更新后的权重送上来（2Ψ B，H2D）。当 GPU 这一步的计算（6Ψ × token 数 FLOPs）比这 4Ψ 字节经 PCIe 传输的时间更长时，它就划算：

```
6Ψ·T / (F·MFU)  ≥  2Ψ/B_d2h + 2Ψ/B_h2d    →    T ≥ 2·F·MFU / (3·B)   （B_d2h = B_h2d = B）
```

Ψ 消掉了：盈亏平衡的每步 token 数只取决于 GPU 的 FLOP/s 和链路。朴素的**优化器交换**则是每步把 K = 12 B/参数的状态来回搬一遍：字节数是前者的 6 倍。

> [!errata] "显存不够时，用内存来凑"
> 讲义的作者吃过亏：和内存交换让训练速度暴跌，于是得出结论——优先用梯度检查点或模型并行。对朴素交换而言这没错：每步把优化器那么大的状态经 31.5 GB/s 的链路（PCIe 4.0 x16，单向）搬来搬去。但 ZeRO-Offload 只搬 16 位的梯度和权重，一步超过几百到几千个 token（取决于 GPU 和链路）就划算。下结论之前先算一算盈亏平衡点；实验用本机的链路算给你看。
> 出处：Ren et al. 2021，"ZeRO-Offload"（16 位梯度下行、权重上行）；PCI-SIG（PCIe 4.0 x16，`vram.pcie`）；下面的实验（按本机 `gpu.copy` 带宽算出的盈亏平衡点）。
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

> [!source] Sources
> S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory Optimizations Toward Training Trillion
> Parameter Models", SC 2020, fig. 1, sec. 5 and 7. J. Ren et al., "ZeRO-Offload: Democratizing
> Billion-Scale Model Training", USENIX ATC 2021. M. Shoeybi et al., "Megatron-LM", arXiv:1909.08053,
> 2019. Y. Huang et al., "GPipe", NeurIPS 2019. D. Narayanan et al., "Efficient Large-Scale
> Language Model Training on GPU Clusters Using Megatron-LM", SC 2021 (1F1B, bubble (p − 1)/m).
> PyTorch FSDP docs (`ShardingStrategy`). PCIe rates: PCI-SIG (`vram.pcie`); the bandwidth: this
> machine, `gpu.copy` (lesson 3.1).
]], zh = [[
## 怎么读这些面板
ZeRO 的柱子按表中的比例下降：阶段 1 就把 120 GB 降到了 31 GB，因为每参数 16 B 中有 12 B 是优化器状态。曲线上，计算时间随 token 数增长，而卸载的传输量不变：两条线交于盈亏平衡点。低于它，GPU 要等 PCIe（除非像 DeepSpeed 的"延迟参数更新"那样，让传输与下一步的计算重叠）；高于它，卸载几乎没有代价。朴素交换的线高出 6 倍，交点也右移 6 倍。

> [!pitfall] 主机内存和 CPU 也在预算之内
> ZeRO-Offload 在主机侧保存每参数 14 B（16 位梯度、fp32 主副本、m 和 v：13 亿参数 → 18.2 GB，为了拷贝快要用锁页内存，外加缓冲区），而且 CPU 每一步都要对全部 Ψ 个参数运行 Adam：只有几个核心时，这可能比 PCIe 传输还慢。vramlab 的模型没有计入 CPU 时间；请实测。

> [!source] 出处
> S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC 2020，图 1、第 5 节和第 7 节。J. Ren et al., "ZeRO-Offload: Democratizing Billion-Scale Model Training", USENIX ATC 2021。M. Shoeybi et al., "Megatron-LM", arXiv:1909.08053, 2019。Y. Huang et al., "GPipe", NeurIPS 2019。D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC 2021（1F1B，气泡 (p − 1)/m）。PyTorch FSDP 文档（`ShardingStrategy`）。PCIe 速率：PCI-SIG（`vram.pcie`）；带宽：本机 `gpu.copy`（3.1 节）。
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

}
