-- Lesson 1.1: what VRAM is. Source: the lecture's opening and section 1.1, with the GPU queried
-- live, the 7B-on-16-GB anecdote computed by the `vram` estimators, and the fit checked with real
-- allocations scaled to this GPU.
local GiB, MiB = units.GiB, units.MiB
local P7B = 7e9           -- the lecture's round figure
local CARD = 16 * GiB     -- a "16 GB" card: GPU memory is sold in binary units

local function na(v, f) if v == nil then return "n/a" end return f and f(v) or tostring(v) end

local DTYPES = {
  { "fp32", { en = "fp32 (4 B)", zh = "fp32（4 B）" } },
  { "fp16", { en = "fp16 / bf16 (2 B)", zh = "fp16 / bf16（2 B）" } },
  { "int8", { en = "int8 (1 B)", zh = "int8（1 B）" } },
  { "int4", { en = "int4 (0.5 B)", zh = "int4（0.5 B）" } },
}

return lesson {
  id = "1.1",
  chapter = 1,
  chapter_title = { en = "VRAM basics", zh = "显存基础概念" },
  title = { en = "What VRAM is", zh = "显存到底是什么" },
  requires = { "gpu" },

  text { en = [[
# What VRAM is

Many students open with: "Isn't VRAM just the memory on the graphics card?" That is half right.
Anyone doing AI who stops at that half will step into a hole sooner or later; the lecturer did,
which is why this chapter pins the idea down.

**VRAM** (video RAM) is the memory on the graphics card that the GPU chip reads and writes
directly: its own fast warehouse for the data it is working on.

> [!note] Core definition
> VRAM is the high-speed memory the GPU accesses directly. It holds the data being processed: images, model parameters, intermediate results.

> [!note] Where the name comes from
> In the 1980s and 90s "VRAM" was one kind of chip: dual-ported DRAM that let the display read the frame buffer while the processor wrote it. Today's cards use GDDR or HBM (lesson 1.4) and the word simply means "the GPU's memory". Integrated GPUs and unified-memory chips (Jetson, Apple's M series, DGX Spark) have no separate VRAM: the GPU uses a share of system memory.

## Why a GPU needs its own memory
A CPU runs general-purpose work: little data, complicated logic. A GPU runs the same simple
operation on enormous amounts of data with tens of thousands of threads. If it had to queue for
system RAM, the queue would set its speed.

Put numbers on it. An RTX 4090 can do 82.6 TFLOPS of FP32 arithmetic and read its GDDR6X at
1008 GB/s (NVIDIA Ada whitepaper). To keep its units busy on data read once from VRAM, a kernel must
do 82.6e12 / 1008e9 ≈ 82 operations per byte. Fed over PCIe 4.0 x16 (31.5 GB/s per direction)
instead, it would need ≈ 2600 operations per byte; almost no real kernel does that much work.

Such bandwidth takes physics that a motherboard cannot offer: memory chips soldered a few
centimetres from the GPU, a wide bus (384 wires for data on an RTX 4090) and point-to-point traces
short enough to run 21 Gbit/s on every wire. A DDR5 DIMM has 64 data wires, split into two
independent 32-bit subchannels, at 3.2 to 8.8 Gbit/s each (JEDEC's DDR5 speed bins; 4.8 on most
modules sold). So VRAM is the
GPU's **dedicated warehouse**; lessons 1.3 and 1.4 measure the difference.

## Units used in this course
- **GB = 10^9 bytes, GiB = 2^30 bytes** (7.4 % larger). Bandwidth is always decimal: 1 GB/s = 10^9 B/s.
- On GDDR cards capacity is built from power-of-two chips, so a "16 GB" card carries 16 GiB =
  17.18 GB of chips. HBM cards sell what is enabled: an H200's "141 GB" is six 24 GB stacks with
  some held back. What software sees is less again, and three figures get confused (shown for an
  RTX 3090, "24 GB" on the box):

| Who says it | What it counts | RTX 3090 |
|---|---|---|
| the box, the datasheet | the chips, in the maker's "GB" | 24 GB |
| `nvidia-smi` (FB Memory Total) | the memory the driver manages | 24576 MiB = 24.00 GiB |
| CUDA (`cudaMemGetInfo`'s total), PyTorch (`total_memory`, OOM messages) | what the driver can hand out | 24268 MiB = 23.70 GiB |

- vramlab prints capacity as CUDA reports it, in GiB, and model sizes in both units.
]], zh = [[
# 显存到底是什么

很多同学一上来就问我：“老师，显存是不是就是显卡上的内存？”嗯，这个说法对了一半。但搞 AI 的人，如果只理解到这一层，后面踩坑是迟早的事。讲师自己就吃过这个亏，所以这一章把显存这个概念彻底掰扯清楚。

**显存**，全名叫“视频随机存取存储器”（VRAM，Video Random Access Memory）。说白了，它就是显卡上专门用来存数据的高速仓库，GPU 芯片可以直接读写。

> [!note] 核心定义
> 显存是 GPU 芯片直接访问的高速存储区域，用于暂存待处理的图像数据、模型参数、中间计算结果等。

> [!note] 名字的由来
> 上世纪八九十年代，“VRAM”特指一种芯片：双端口 DRAM，显示电路读帧缓冲的同时处理器还能往里写。今天的显卡用的是 GDDR 或 HBM（见第 1.4 节），“显存”泛指 GPU 自己的内存。集成显卡和统一内存芯片（Jetson、苹果 M 系列、DGX Spark）没有独立显存，GPU 直接使用系统内存的一部分。

## GPU 凭什么要有自己的存储
CPU 有内存，GPU 凭什么不能有自己的专用存储？因为两者的工作模式完全不同。CPU 处理的是通用任务，数据量小但逻辑复杂；GPU 用成千上万个线程对海量数据做同样的简单运算。如果让 GPU 去跟 CPU 抢内存里的数据，光排队就能把性能拖垮。

用数字说话。RTX 4090 的 FP32 算力是 82.6 TFLOPS，显存（GDDR6X）带宽 1008 GB/s（NVIDIA Ada 架构白皮书）。要让计算单元不闲着，从显存读进来的每个字节得做 82.6e12 / 1008e9 ≈ 82 次运算。如果改从 PCIe 4.0 x16（每个方向 31.5 GB/s）喂数据，每个字节就得做约 2600 次运算，现实中几乎没有哪个算子有这么大的计算量。

这样的带宽靠的是主板给不了的物理条件：显存颗粒焊在离 GPU 只有几厘米的地方，总线很宽（RTX 4090 有 384 根数据线），点对点走线短到每根线能跑 21 Gbit/s。一根 DDR5 内存条只有 64 根数据线，分成两个各 32 位、彼此独立的子通道，每根 3.2–8.8 Gbit/s（JEDEC 的 DDR5 速度档；市面上的内存条大多是 4.8）。所以说，显存就是给 GPU 量身定做的**专属仓库**；第 1.3、1.4 节会实测两者的差距。

## 本课程的单位
- **GB = 10^9 字节，GiB = 2^30 字节**（大 7.4%）。带宽一律用十进制：1 GB/s = 10^9 B/s。
- GDDR 显卡的容量由 2 的幂容量的颗粒拼成，所以标称“16 GB”的卡上的颗粒实际是 16 GiB = 17.18 GB。HBM 卡卖的是启用的那部分：H200 的“141 GB”来自六个 24 GB 的堆栈，留了一部分不开放。软件看到的还要再少一些，有三个数字常被混为一谈（以标称“24 GB”的 RTX 3090 为例）：

| 谁说的 | 统计的是什么 | RTX 3090 |
|---|---|---|
| 包装盒、数据表 | 颗粒容量，按厂商的“GB” | 24 GB |
| `nvidia-smi`（FB Memory Total） | 驱动管理的显存 | 24576 MiB = 24.00 GiB |
| CUDA（`cudaMemGetInfo` 的总量）、PyTorch（`total_memory`、OOM 报错） | 驱动能分配出去的显存 | 24268 MiB = 23.70 GiB |

- vramlab 显示的容量是 CUDA 报告的值，单位 GiB；模型大小两种单位都给。
]] },

  exercise {
    id = "capacity",
    kind = "predict",
    prompt = { en = "Predict: how many GiB of memory does CUDA report in total on this GPU? (Then the tutor asks the backend.)",
               zh = "预测：在本机 GPU 上，CUDA 报告的显存总量是多少 GiB？（答完后由后端给出实际值。）" },
    unit = "GiB", tolerance = 0.05, mistakes = { "gib_gb" },
    measure = function() local i = gpu.info() return i.total_bytes / GiB, i.simulated end,
    hints = { { en = "Start from the box's GB, then ask what the driver keeps for itself, and what ECC takes on a GDDR card.",
                zh = "从包装盒上的 GB 出发，再想想驱动自己留了多少、GDDR 卡开启 ECC 又占掉多少。" } },
    explain = { en = "CUDA reports less than the box and less than nvidia-smi: a \"24 GB\" RTX 3090 reports 23.70 GiB (nvidia-smi: 24576 MiB); a \"16 GB\" T4 with ECC on about 14.7 GiB (nvidia-smi: 15360 MiB); an \"80 GB\" H100 79.2 GiB (nvidia-smi: 81559 MiB). Public deviceQuery, PyTorch and nvidia-smi logs; the profiles cite each.",
                zh = "CUDA 报告的比包装盒上的少，也比 nvidia-smi 的少：标称“24 GB”的 RTX 3090 报告 23.70 GiB（nvidia-smi：24576 MiB）；“16 GB”的 T4 开启 ECC 后约 14.7 GiB（nvidia-smi：15360 MiB）；“80 GB”的 H100 是 79.2 GiB（nvidia-smi：81559 MiB）。数据来自公开的 deviceQuery、PyTorch 和 nvidia-smi 日志，各配置文件逐项注明。" },
  },

  experiment {
    id = "query",
    key = "cap",
    title = { en = "Ask this GPU what it has", zh = "查询本机 GPU 的显存" },
    intro = { en = [[
Reads the device's properties (cudaGetDeviceProperties / cudaDeviceGetAttribute on a real GPU; on
the simulator, the profile's figures, each with its source in assets/gpus). A field the backend
cannot know shows n/a.
]], zh = [[
读取设备属性（真实 GPU 上调用 cudaGetDeviceProperties / cudaDeviceGetAttribute；模拟器上是配置文件里的数字，每个都在 assets/gpus 里注明出处）。后端无法得知的字段显示 n/a。
]] },
    panels = {
      { id = "dev", kind = "table", title = { en = "Device query", zh = "设备查询" } },
      { id = "cap", kind = "gauge", title = { en = "Memory in use", zh = "显存占用" }, unit = "GiB" },
    },
    run = function(ex)
      local i = gpu.info()
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("dev", { T("Property", "属性"), T("Value", "数值") })
      ex:row("dev", { T("Device", "设备"), na(i.name) })
      ex:row("dev", { T("Backend", "后端"), i.simulated and T("SIMULATED (profile " .. na(i.profile) .. ")", "模拟（配置 " .. na(i.profile) .. "）")
                                                   or T("CUDA, measured", "CUDA，实测") })
      ex:row("dev", { T("Capacity (as CUDA reports it)", "容量（CUDA 报告的值）"), na(i.total_bytes, function(v) return units.bytes(v) .. " = " .. units.si(v) end) })
      if i.smi_total_bytes then
        ex:row("dev", { T("nvidia-smi shows", "nvidia-smi 显示"), units.bytes(i.smi_total_bytes) .. string.format(" (%.0f MiB)", i.smi_total_bytes / MiB) })
      end
      if i.marketed_gb then ex:row("dev", { T("Sold as", "标称"), string.format("%g GB", i.marketed_gb) }) end
      ex:row("dev", { T("Free now", "当前空闲"), na(i.free_bytes, units.bytes) })
      ex:row("dev", { T("Memory type", "显存类型"), na(i.memory_type) })
      ex:row("dev", { T("Bus width", "位宽"), na(i.bus_width_bits, function(v) return v .. "-bit" end) })
      ex:row("dev", { T("Memory clock (reported)", "显存频率（驱动报告）"),
                      na(i.mem_clock_khz, function(v) return string.format("%.0f MHz", v / 1e3) end) })
      ex:row("dev", { T("Per-pin data rate = 2 x clock", "每针脚速率 = 2 × 频率"),
                      na(i.mem_clock_khz, function(v) return string.format("%.2f Gbit/s", 2 * v / 1e6) end) })
      ex:row("dev", { T("Theoretical peak = rate x bus/8", "理论峰值 = 速率 × 位宽/8"), na(i.peak_bytes_per_s, units.rate) })
      ex:row("dev", { T("Published peak", "官方标称带宽"), na(i.published_bytes_per_s, units.rate) })
      ex:row("dev", { T("SMs / L2 cache", "SM 数 / L2 缓存"),
                      na(i.sm_count) .. " / " .. na(i.l2_bytes, units.bytes) })
      ex:row("dev", { T("PCIe link", "PCIe 链路"),
                      (i.pcie_gen and ("gen" .. i.pcie_gen .. " x" .. na(i.pcie_width)) or "n/a") ..
                      (i.pcie_bytes_per_s and (", " .. units.rate(i.pcie_bytes_per_s) .. T(" per direction", " 每方向")) or "") })
      ex:row("dev", { T("Compute capability", "计算能力"), na(i.compute_capability) })
      ex:row("dev", { T("Driver", "驱动"), na(i.driver) })
      if i.total_bytes and i.free_bytes then
        ex:gauge("cap", T("used (context + others)", "已用（上下文 + 其他）"), (i.total_bytes - i.free_bytes) / GiB, i.total_bytes / GiB,
                 { unit = "GiB" })
        ex:note("cap", T(string.format("Before we allocate anything, %s is already in use: the CUDA context (code, stacks, driver heaps) and any other process.",
                                       units.bytes(i.total_bytes - i.free_bytes)),
                         string.format("我们还没分配任何东西，就已经用掉了 %s：CUDA 上下文（代码、栈、驱动内部堆）以及其他进程。",
                                       units.bytes(i.total_bytes - i.free_bytes))))
      end
      if i.simulated then
        ex:note("dev", T("SIMULATED: these are the " .. na(i.name) .. " profile's figures, not a measurement. Source: " .. na(i.source),
                         "模拟：以上是 " .. na(i.name) .. " 配置里的数字，不是实测。出处：" .. na(i.source)))
        if i.sources and i.sources.total_bytes then
          ex:note("dev", T("Capacity: ", "容量出处：") .. i.sources.total_bytes)
        end
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## A 7B model on a 16 GB card
The lecturer's story: "Once I trained a 7B-parameter LLM on a card with only 16 GB. The model simply
would not load. When I checked, the parameters alone took 14 GB; add optimizer states and gradients
and VRAM blew up." A warehouse too small for the goods.

The first rule of VRAM arithmetic: **weights = parameters x bytes per parameter**, and the bytes
depend on the data type: fp32 4, fp16 and bf16 2, int8 1, int4 half a byte (plus a small
quantisation scale per group of weights, not counted here).

Training needs far more than the weights. For every parameter, mixed-precision training with Adam
keeps:

| Tensor | dtype | bytes / param | 7B model |
|---|---|---|---|
| weights | fp16 | 2 | 14 GB |
| gradients | fp16 | 2 | 14 GB |
| master copy of the weights | fp32 | 4 | 28 GB |
| Adam first moment m | fp32 | 4 | 28 GB |
| Adam second moment v | fp32 | 4 | 28 GB |
| total | | 16 | 112 GB = 104.3 GiB |

> [!source] 16 bytes per parameter
> Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models" (SC 2020), section 3.1: mixed-precision Adam holds 2Ψ + 2Ψ + 12Ψ = 16Ψ bytes for Ψ parameters. Plain fp32 Adam is also 16 (4 + 4 + 8).

> [!errata] "The parameters alone took 14 GB" is the fp16 weights, and they alone would fit
> - 7e9 x 2 B = 14e9 B = **14 GB = 13.04 GiB**. A "16 GB" card holds 16 GiB = 17.18 GB, so fp16 weights fit with about 3 GiB to spare for the CUDA context and the working buffers of inference.
> - What fails is training, and not by a little: "add optimizer states and gradients" means 16 bytes/param = **112 GB**, eight times the weights and seven times the card, **before** any activation (lesson 1.2). Even plain SGD with fp16 weights and gradients needs 28 GB.
> - The real Llama-2-7B has 6,738,415,616 parameters (from its published configuration): 13.48 GB = 12.55 GiB in fp16.
> - Why the load itself may have failed: Hugging Face Transformers' `from_pretrained` long loaded weights in fp32 unless `torch_dtype` was given, and fp32 is 7e9 x 4 B = 28 GB.
> - Source: the experiment below (`vram.weights`, `vram.training`); Llama-2-7B's config.json (Hugging Face); the Transformers docs of `from_pretrained` (`torch_dtype`).

## And inference: weights plus the KV cache
To generate text, a transformer keeps the keys and values of every past token in every layer:

**KV cache = 2 (K and V) x layers x KV heads x head_dim x tokens x batch x bytes**

With grouped-query attention (GQA) several query heads share one K/V head, so count **KV heads**,
not attention heads. Llama-2-7B (32 layers, 32 KV heads of 128) at 4096 tokens in fp16:
2 x 32 x 32 x 128 x 4096 x 2 B = 2 GiB. Llama-3-8B has 8 KV heads: a quarter, 512 MiB.
The experiment below tabulates both.

> [!tip] How people do fine-tune 7B on 16 GB
> Keep the frozen weights in 4 bits (3.5 GB) and train small low-rank adapters (LoRA) whose optimizer state covers a few million parameters, not seven billion. The QLoRA paper (Dettmers et al., 2023) fine-tuned a 65B model on one 48 GB GPU this way.

> [!source] Sources
> - NVIDIA Ada GPU Architecture whitepaper v2.1 (RTX 4090: 82.6 TFLOPS FP32, 1008 GB/s, 384-bit, 21 Gbps); NVIDIA Ampere GA102 whitepaper, table 1 (RTX 3090: 24 GB GDDR6X).
> - PCI-SIG PCIe 4.0 base specification: 16 GT/s per lane, 128b/130b encoding, so x16 carries 31.5 GB/s per direction.
> - JEDEC JESD79-5 (DDR5: two 32-bit subchannels per DIMM; speed bins from 3200 MT/s) and JESD79-5C (speed bins to 8800 MT/s).
> - RTX 3090 capacities: deviceQuery and PyTorch logs (24268 MiB), nvidia-smi logs (24576 MiB); the profile assets/gpus/rtx3090.txt cites each.
> - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", SC 2020, section 3.1 (16 bytes per parameter).
> - Llama-2-7B and Llama-3-8B config.json (Meta, Hugging Face): layers, KV heads, head dimension, parameter counts.
> - Ainslie et al., "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints", 2023 (grouped-query attention).
> - Dettmers et al., "QLoRA: Efficient Finetuning of Quantized LLMs", 2023 (65B on one 48 GB GPU).
]], zh = [[
## 16 GB 显存装 7B 模型
讲师在项目中遇到过一件事：有次训练一个 7B 参数的 LLM，显存只有 16GB，结果模型死活加载不进去。后来一查，光是模型参数就占了 14GB，加上优化器状态和梯度，直接爆显存。嗯，这就是典型的“仓库不够大，货进不去”。

显存账的第一条规则：**权重 = 参数量 × 每个参数的字节数**，字节数取决于数据类型：fp32 是 4，fp16 和 bf16 是 2，int8 是 1，int4 是半个字节（每组权重另有一个很小的量化缩放系数，这里不计）。

训练要的远不止权重。用 Adam 做混合精度训练，每个参数要存：

| 张量 | 类型 | 字节/参数 | 7B 模型 |
|---|---|---|---|
| 权重 | fp16 | 2 | 14 GB |
| 梯度 | fp16 | 2 | 14 GB |
| 权重的 fp32 主副本 | fp32 | 4 | 28 GB |
| Adam 一阶矩 m | fp32 | 4 | 28 GB |
| Adam 二阶矩 v | fp32 | 4 | 28 GB |
| 合计 | | 16 | 112 GB = 104.3 GiB |

> [!source] 每个参数 16 字节
> Rajbhandari 等，《ZeRO: Memory Optimizations Toward Training Trillion Parameter Models》（SC 2020）第 3.1 节：Ψ 个参数的混合精度 Adam 训练要占 2Ψ + 2Ψ + 12Ψ = 16Ψ 字节。纯 fp32 的 Adam 同样是 16（4 + 4 + 8）。

> [!errata] “光是模型参数就占了 14GB”说的是 fp16 权重，单放权重其实装得下
> - 7e9 × 2 B = 14e9 B = **14 GB = 13.04 GiB**。标称“16 GB”的卡有 16 GiB = 17.18 GB，fp16 权重放得进去，还剩约 3 GiB 给 CUDA 上下文和推理用的临时缓冲。
> - 真正装不下的是训练，而且差得远：“加上优化器状态和梯度”就是每参数 16 字节 = **112 GB**，是权重的 8 倍、显卡容量的 7 倍，这还**没算**激活值（见第 1.2 节）。就算用最朴素的 SGD、权重和梯度都用 fp16，也要 28 GB。
> - 真实的 Llama-2-7B 有 6,738,415,616 个参数（按其公开配置计算）：fp16 下是 13.48 GB = 12.55 GiB。
> - “死活加载不进去”的一个可能原因：Hugging Face Transformers 的 `from_pretrained` 长期默认按 fp32 加载权重（除非指定 `torch_dtype`），而 fp32 是 7e9 × 4 B = 28 GB。
> - 出处：下面的实验（`vram.weights`、`vram.training`）；Llama-2-7B 的 config.json（Hugging Face）；Transformers 文档中 `from_pretrained` 的 `torch_dtype` 参数。

## 推理呢：权重加 KV cache
Transformer 生成文本时，要把每一层里每个历史 token 的 K 和 V 都存下来：

**KV cache = 2（K 和 V）× 层数 × KV 头数 × head_dim × token 数 × batch × 字节数**

用了分组查询注意力（GQA）时，多个查询头共用一组 K/V，所以要数 **KV 头数**，而不是注意力头数。Llama-2-7B（32 层，32 个 128 维的 KV 头）在 4096 个 token、fp16 下：2 × 32 × 32 × 128 × 4096 × 2 B = 2 GiB。Llama-3-8B 只有 8 个 KV 头：四分之一，512 MiB。下面的实验把两者都列了出来。

> [!tip] 那 16 GB 上到底怎么微调 7B
> 把冻结的权重压到 4 位（3.5 GB），只训练很小的低秩适配器（LoRA），优化器状态只覆盖几百万个参数，而不是七十亿个。QLoRA 论文（Dettmers 等，2023）就用这种办法在一张 48 GB 的 GPU 上微调了 65B 模型。

> [!source] 出处
> - NVIDIA Ada 架构白皮书 v2.1（RTX 4090：FP32 82.6 TFLOPS、1008 GB/s、384 位、21 Gbps）；NVIDIA Ampere GA102 白皮书表 1（RTX 3090：24 GB GDDR6X）。
> - PCI-SIG PCIe 4.0 基础规范：每通道 16 GT/s，128b/130b 编码，所以 x16 每方向 31.5 GB/s。
> - JEDEC JESD79-5（DDR5：每根内存条两个 32 位子通道；速度档从 3200 MT/s 起）与 JESD79-5C（速度档到 8800 MT/s）。
> - RTX 3090 的容量：deviceQuery 与 PyTorch 日志（24268 MiB）、nvidia-smi 日志（24576 MiB）；配置文件 assets/gpus/rtx3090.txt 逐项注明。
> - Rajbhandari 等，《ZeRO: Memory Optimizations Toward Training Trillion Parameter Models》，SC 2020，第 3.1 节（每参数 16 字节）。
> - Llama-2-7B、Llama-3-8B 的 config.json（Meta，Hugging Face）：层数、KV 头数、头维度、参数量。
> - Ainslie 等，《GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints》，2023（分组查询注意力）。
> - Dettmers 等，《QLoRA: Efficient Finetuning of Quantized LLMs》，2023（一张 48 GB GPU 上微调 65B）。
]] },

  experiment {
    id = "seven-b",
    title = { en = "7B on a 16 GiB card: estimate, then allocate", zh = "16 GiB 卡装 7B：先估算，再实际分配" },
    intro = { en = [[
Computes each footprint with the `vram` estimators, then checks the fit with real allocations: this
GPU's current allocation budget stands in for the 16 GiB card, so every footprint is scaled by
budget / 16 GiB and requested from the backend in one piece. It fits exactly when the real footprint
fits in 16 GiB (a single buffer: fragmentation and the context are left out).
]], zh = [[
先用 `vram` 估算器算出每种情况的占用，再用真实分配检验能否装下：用本机 GPU 当前可分配的额度代表那张 16 GiB 的卡，每种占用都按“额度 / 16 GiB”缩放后向后端一次性申请。当且仅当真实占用不超过 16 GiB 时，申请才会成功（按单块缓冲计算，不计碎片和上下文）。
]] },
    panels = {
      { id = "bars", kind = "bars", title = { en = "7B model: footprint vs a 16 GiB card", zh = "7B 模型：占用 vs 16 GiB 显卡" }, unit = "GiB" },
      { id = "t", kind = "table", title = { en = "Scaled stand-ins on this GPU", zh = "本机上的等比例替身" } },
      { id = "kv", kind = "table", title = { en = "Inference: weights + KV cache (fp16)", zh = "推理：权重 + KV cache（fp16）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local cases = {}
      for _, d in ipairs(DTYPES) do
        cases[#cases + 1] = { label = T("weights ", "权重 ") .. ex:t(d[2]), bytes = vram.weights { params = P7B, dtype = d[1] } }
      end
      local sgd = vram.training { params = P7B, dtype = "fp16", optimizer = "sgd" }
      local adam = vram.training { params = P7B, mixed_precision = true, optimizer = "adam" }
      cases[#cases + 1] = { label = T("train: fp16 SGD (w + g)", "训练：fp16 SGD（权重 + 梯度）"), bytes = sgd.total }
      cases[#cases + 1] = { label = T("train: mixed-precision Adam", "训练：混合精度 Adam"), bytes = adam.total }
      ex:bar("bars", T("16 GiB card", "16 GiB 显卡"), CARD / GiB, { style = "reference" })
      for _, c in ipairs(cases) do ex:bar("bars", c.label, c.bytes / GiB, { style = "theoretical" }) end
      ex:note("bars", T(string.format("Mixed-precision Adam: w %s + g %s + fp32 master %s + m,v %s = %s (16 B/param).",
                                      units.si(adam.weights), units.si(adam.gradients), units.si(adam.master_weights),
                                      units.si(adam.optimizer), vram.both(adam.total)),
                        string.format("混合精度 Adam：权重 %s + 梯度 %s + fp32 主副本 %s + m、v %s = %s（每参数 16 B）。",
                                      units.si(adam.weights), units.si(adam.gradients), units.si(adam.master_weights),
                                      units.si(adam.optimizer), vram.both(adam.total))))

      local budget = gpu.budget()
      local scale = budget / CARD
      ex:row("t", { T("Case", "情况"), T("Needs", "需要"), T("x 16 GiB", "× 16 GiB"), T("Stand-in", "替身"), T("Backend says", "后端结果") })
      for _, c in ipairs(cases) do
        local want = math.floor(c.bytes * scale)
        local free0 = gpu.mem()
        ex:status(T("allocating ", "正在分配 ") .. units.bytes(want) .. "…")
        local buf, err = gpu.alloc(want)
        local result
        if buf then
          local drop = free0 - gpu.mem()
          buf:free()
          result = T("fits (free fell by ", "装得下（空闲减少 ") .. units.bytes(drop) .. T(")", "）")
        else
          result = T("OOM", "OOM（显存不足）")
          c.err = err
        end
        ex:row("t", { c.label, vram.both(c.bytes), string.format("%.2f", c.bytes / CARD), units.bytes(want), result })
      end
      ex:note("t", T(string.format("Scale: this GPU's budget now, %s, plays the 16 GiB card (x %.3f). %s",
                                   units.bytes(budget), scale, gpu.info().simulated and "SIMULATED backend: capacity is enforced, nothing is backed by memory." or "Real allocations on this GPU, freed at once."),
                     string.format("缩放：本机当前可分配额度 %s 代表那张 16 GiB 的卡（× %.3f）。%s",
                                   units.bytes(budget), scale, gpu.info().simulated and "模拟后端：容量照样强制检查，但不占真实内存。" or "在本机 GPU 上真实分配，随即释放。")))
      for _, c in ipairs(cases) do
        if c.err then ex:note("t", c.label .. T(": the backend's message: ", "：后端原文：") .. c.err) break end
      end

      -- inference: weights + KV cache, the two models' published configurations
      local models = {
        { name = "Llama-2-7B", params = 6738415616, kv_heads = 32 },
        { name = "Llama-3-8B", params = 8030261248, kv_heads = 8 },
      }
      ex:row("kv", { T("Model", "模型"), T("Weights fp16", "fp16 权重"), T("Tokens x batch", "token × batch"), T("KV cache", "KV cache"),
                     T("Total", "合计"), T("On 16 GiB", "16 GiB 上") })
      for _, m in ipairs(models) do
        local w = vram.weights { params = m.params, dtype = "fp16" }
        for _, tb in ipairs { { 4096, 1 }, { 32768, 1 }, { 4096, 8 } } do
          local kv = vram.kv_cache { layers = 32, kv_heads = m.kv_heads, head_dim = 128, tokens = tb[1], batch = tb[2], dtype = "fp16" }
          local verdict = (w + kv <= CARD - GiB) and T("fits*", "装得下*")
                          or (w + kv <= CARD) and T("tight*", "勉强*") or T("no", "装不下")
          ex:row("kv", { m.name, units.bytes(w), tb[1] .. " x " .. tb[2], units.bytes(kv), units.bytes(w + kv), verdict })
        end
      end
      ex:note("kv", T("32 layers, head_dim 128; KV heads: 32 (Llama-2-7B, full multi-head) and 8 (Llama-3-8B, GQA). *before the CUDA context (0.3-0.5 GiB) and activation buffers; \"tight\" leaves less than 1 GiB for them.",
                      "32 层，head_dim 128；KV 头数：32（Llama-2-7B，标准多头）与 8（Llama-3-8B，GQA）。*未计 CUDA 上下文（0.3–0.5 GiB）和激活缓冲；“勉强”表示留给它们的不到 1 GiB。"))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "fp16-gib",
    kind = "number",
    prompt = { en = "How many **GiB** do the fp16 weights of a 7e9-parameter model take?",
               zh = "70 亿（7e9）参数模型的 fp16 权重占多少 **GiB**？" },
    answer = 14e9 / GiB, unit = "GiB", tolerance = 0.01,
    mistakes = {
      { value = 14, say = { en = "14 is the decimal figure, 14e9 B / 10^9 = 14 GB; a GiB is 2^30 B, so divide by 1,073,741,824.",
                            zh = "14 是十进制的数字：14e9 B / 10^9 = 14 GB；1 GiB 是 2^30 B，要除以 1,073,741,824。" } },
      { value = 7e9 * 4 / GiB, say = { en = "That counts 4 bytes per value, fp32; fp16 is 2 bytes.", zh = "这是按每个数值 4 字节（fp32）算的；fp16 是 2 字节。" } },
      "x1000",
    },
    hints = {
      { en = "Start from bytes: how many bytes does one fp16 value occupy?", zh = "先算字节数：一个 fp16 数值占几个字节？" },
      { en = "1 GiB is 2^30 = 1,073,741,824 bytes, not 10^9.", zh = "1 GiB 是 2^30 = 1,073,741,824 字节，不是 10^9。" },
    },
    explain = { en = "7e9 x 2 B = 14e9 B = 14 GB = 14e9 / 2^30 = 13.04 GiB. The lecture's \"14GB\" is the decimal figure.",
                zh = "7e9 × 2 B = 14e9 B = 14 GB = 14e9 / 2^30 = 13.04 GiB。讲义里的“14GB”是十进制的数字。" },
  },

  exercise {
    id = "adam-gb",
    kind = "number",
    prompt = { en = "Training the same 7e9-parameter model with mixed-precision Adam: how many **GB** do weights, gradients, the fp32 master copy and Adam's two moments take together (no activations)?",
               zh = "用混合精度 Adam 训练这个 7e9 参数的模型：权重、梯度、fp32 主副本和 Adam 的两个矩加起来占多少 **GB**（不算激活值）？" },
    answer = 112, unit = "GB", tolerance = 0.02,
    mistakes = {
      { value = 84, say = { en = "84 GB is 12 B/param: the fp32 master copy of the weights (4 B/param) is missing.",
                            zh = "84 GB 是每参数 12 B：漏了权重的 fp32 主副本（每参数 4 B）。" } },
      "gib_gb",
    },
    hints = {
      { en = "List the tensors kept per parameter and the dtype of each: the working copy and its gradient are 16-bit, everything the optimizer owns is 32-bit.",
        zh = "列出每个参数要存的张量及其类型：参与计算的权重和梯度是 16 位，优化器持有的东西都是 32 位。" },
      { en = "Adam keeps two running statistics per parameter, and the optimizer updates an fp32 copy of the weights.",
        zh = "Adam 对每个参数维护两个滑动统计量，优化器更新的是权重的 fp32 副本。" },
    },
    explain = { en = "2 (fp16 w) + 2 (fp16 g) + 4 (fp32 master) + 4 (m) + 4 (v) = 16 B/param; 7e9 x 16 = 112e9 B = 112 GB = 104.3 GiB (ZeRO paper, sec. 3.1).",
                zh = "2（fp16 权重）+ 2（fp16 梯度）+ 4（fp32 主副本）+ 4（m）+ 4（v）= 每参数 16 B；7e9 × 16 = 112e9 B = 112 GB = 104.3 GiB（ZeRO 论文第 3.1 节）。" },
  },

  exercise {
    id = "fits",
    kind = "choice",
    prompt = { en = "Which of these fits on a 16 GiB card (ignoring the CUDA context)?", zh = "下面哪一种能装进 16 GiB 的显卡（不计 CUDA 上下文）？" },
    choices = {
      { en = "Training the 7B model with plain SGD, fp16 weights and gradients", zh = "用朴素 SGD 训练 7B 模型，权重和梯度都是 fp16" },
      { en = "Inference of the 7B model with fp16 weights, short prompts", zh = "7B 模型 fp16 权重推理，提示词很短" },
      { en = "Inference of the 7B model with fp32 weights", zh = "7B 模型 fp32 权重推理" },
      { en = "Mixed-precision Adam training with batch size 1", zh = "batch size 为 1 的混合精度 Adam 训练" },
    },
    answer = 2,
    why = {
      [1] = { en = "Weights and gradients at 2 B each are 4 B/param: 26.1 GiB before any optimizer state.", zh = "权重和梯度各 2 B，每参数 4 B：还没算优化器状态就已经 26.1 GiB。" },
      [3] = { en = "fp32 is 4 B/param: 28e9 B = 26.1 GiB of weights alone.", zh = "fp32 每参数 4 B：光权重就是 28e9 B = 26.1 GiB。" },
      [4] = { en = "The batch size shrinks only the activations; Adam's 16 B/param (104.3 GiB) stay.", zh = "batch 大小只影响激活值；混合精度 Adam 的每参数 16 B（104.3 GiB）不会变。" },
    },
    hints = {
      { en = "Count bytes per parameter for each case; a smaller batch shrinks only the activations.", zh = "逐个算每个参数占几个字节；batch 变小只会减少激活值。" },
    },
    explain = { en = "fp16 inference: 13.04 GiB of weights plus a small KV cache. SGD training needs 2 + 2 B/param = 26.1 GiB, fp32 inference 26.1 GiB, Adam 104.3 GiB, whatever the batch size.",
                zh = "fp16 推理：13.04 GiB 权重加一点 KV cache。SGD 训练每参数 2 + 2 B = 26.1 GiB，fp32 推理 26.1 GiB，Adam 104.3 GiB，与 batch 大小无关。" },
  },

  exercise {
    id = "kv-gqa",
    kind = "number",
    prompt = { en = "Llama-3-8B has 32 layers and 8 KV heads of dimension 128. How many **GiB** does its fp16 KV cache (K and V together, all layers) take for batch 4 at 8192 tokens each?",
               zh = "Llama-3-8B 有 32 层、8 个维度为 128 的 KV 头。batch 为 4、每条 8192 个 token 时，fp16 的 KV cache（K 和 V 合计，所有层）占多少 **GiB**？" },
    answer = 4, unit = "GiB", tolerance = 0.02,
    mistakes = {
      { value = 16, say = { en = "16 GiB counts the 32 query heads; only the 8 KV heads are cached (grouped-query attention).",
                            zh = "16 GiB 是按 32 个查询头算的；缓存的只有 8 个 KV 头（分组查询注意力）。" } },
      { factor = 2, say = { en = "Off by 2: cache both K and V, at 2 B per fp16 value.", zh = "差了 2 倍：K 和 V 都要缓存，fp16 每个数值 2 B。" } },
      "gib_gb",
    },
    hints = {
      { en = "Both K and V are cached, for every layer, KV head, token and sequence in the batch.", zh = "K 和 V 都要缓存，每一层、每个 KV 头、每个 token、batch 里的每条序列都有。" },
      { en = "Grouped-query attention: use the number of KV heads, not of query heads.", zh = "分组查询注意力：用 KV 头的个数，不是查询头的个数。" },
    },
    explain = { en = "2 x 32 x 8 x 128 x 8192 x 4 x 2 B = 4,294,967,296 B = 4 GiB. With 32 KV heads (no GQA) it would be 16 GiB.",
                zh = "2 × 32 × 8 × 128 × 8192 × 4 × 2 B = 4,294,967,296 B = 4 GiB。如果有 32 个 KV 头（不用 GQA），就是 16 GiB。" },
  },

}
