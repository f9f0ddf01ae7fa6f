-- Lesson 1.4: how VRAM evolved. Source: the lecture's section 1.4, with the memory generations
-- from vram.memory_types() (each row sourced), the peak formula and the "doubled" clock explained,
-- and the learner's GPU placed on the table with its measured share of peak.
local MiB = units.MiB

local function copy_size()
  -- a copy needs a source and a destination; far larger than any L2 (H100: 50 MB, RTX 4090: 72 MB)
  return math.max(MiB, math.min(512 * MiB, gpu.budget() // 2))
end

local function gbs(bps) return string.format("%.0f GB/s", bps / 1e9) end

return lesson {
  id = "1.4",
  chapter = 1,
  chapter_title = { en = "VRAM basics", zh = "显存基础概念" },
  title = { en = "How VRAM evolved", zh = "显存的技术演进" },
  requires = { "gpu" },

  text { en = [[
# How VRAM evolved

VRAM has not stood still. "When I started out, GDDR5 was mainstream, at a bit over 200 GB/s.
Today HBM (high-bandwidth memory) is past 2 TB/s. Why so many generations? Because AI models keep
growing, and memory has to keep up."

> [!errata] The generations were driven by graphics first
> GDDR3 to GDDR6 (2004-2018) were made for games: higher resolutions, textures and frame rates set the pace, long before neural networks ran on GPUs (AlexNet, 2012, trained on two GTX 580s with 3 GB of GDDR5 each). HBM appeared in 2015 on a gaming card (AMD's R9 Fury X) to save power and board area. Only the recent push, HBM2e to HBM3e and their capacity per stack, is driven mainly by AI accelerators.
> Source: JEDEC JESD212 (GDDR5, 2009), JESD250 (GDDR6, 2017), JESD235 (HBM, 2013); AMD Radeon R9 Fury X specifications (2015); Krizhevsky, Sutskever and Hinton, "ImageNet Classification with Deep Convolutional Neural Networks", NeurIPS 2012, sec. 3.2.

## One formula for every generation
**Peak bandwidth = bus width / 8 x per-pin data rate.** An RTX 4090 has 384 data wires, each
carrying 21 Gbit/s: 384 / 8 x 21e9 = 48 B x 21e9 /s = **1008 GB/s**. There are only two knobs: how
many wires, and how fast each one runs. GDDR turns the second knob; HBM turns the first.

## Why the reported memory clock looks "doubled" (or halved)
CUDA reports the memory clock as `cudaDevAttrMemoryClockRate` (deviceQuery prints it): 9751 MHz on
an RTX 3090 whose pins run at 19.5 Gbit/s. The reason is DDR, double data rate: a bit on each edge
of the clock, so **per-pin rate = 2 x reported clock** and **peak = 2 x clock x bus / 8**.
Inside the chips it is more involved:

| Generation | Standard | How bits are sent |
|---|---|---|
| GDDR5 | JEDEC JESD212 | DDR on a write clock (WCK) running at 2x the command clock: 4 bits per command-clock cycle |
| GDDR5X | JEDEC JESD232 | QDR on WCK: 4 bits per WCK cycle |
| GDDR6 | JEDEC JESD250 | DDR or QDR on WCK; two independent 16-bit channels per chip |
| GDDR6X | Micron (not JEDEC) | PAM4: four voltage levels, 2 bits per symbol |
| GDDR7 | JEDEC JESD239 | PAM3: three levels, 3 bits per 2 symbols |
| HBM ... HBM3e | JEDEC JESD235, JESD238 | plain DDR, 1024 data bits per stack |
| LPDDR5 / 5X | JEDEC JESD209-5 / -5B | DDR on WCK, 16-bit channels |

Whatever the signalling, CUDA reports a clock with **2 x clock = per-pin data rate**, so one formula
covers all of them. Treat that clock as a convention, not as a frequency you could probe on a pin.

> [!pitfall] Ask which clock a number is
> Overclocking tools and some monitors print the command clock instead (a GTX 1080 with 10 Gbit/s GDDR5X shows 1251 MHz in some tools, 5005 MHz in deviceQuery), and marketing prints "effective" MT/s. Before you compute a bandwidth from a clock, find out which clock it is; the per-pin rate on the vendor's spec page is the safe starting point.
]], zh = [[
# 显存的技术演进

显存不是一成不变的。“我入行那会儿，主流还是 GDDR5，带宽也就 200GB/s 出头。现在 HBM（高带宽显存）已经干到 2TB/s 以上了。为什么要有这么多代？因为 AI 模型越来越大，显存必须跟上。”

> [!errata] 推动历代显存的首先是图形
> GDDR3 到 GDDR6（2004–2018）是为游戏做的：分辨率、纹理和帧率决定了节奏，那时神经网络还没上 GPU（AlexNet 在 2012 年用两张各带 3 GB GDDR5 的 GTX 580 训练）。HBM 在 2015 年首次出现在一张游戏卡上（AMD R9 Fury X），为的是省电、省板面积。只有最近这一波，从 HBM2e 到 HBM3e 以及单堆栈容量的增长，主要是 AI 加速器在推动。
> 出处：JEDEC JESD212（GDDR5，2009）、JESD250（GDDR6，2017）、JESD235（HBM，2013）；AMD Radeon R9 Fury X 规格（2015）；Krizhevsky、Sutskever、Hinton，《ImageNet Classification with Deep Convolutional Neural Networks》，NeurIPS 2012，第 3.2 节。

## 每一代都适用的一个公式
**峰值带宽 = 位宽 / 8 × 每针脚数据速率。** RTX 4090 有 384 根数据线，每根跑 21 Gbit/s：384 / 8 × 21e9 = 48 B × 21e9 /s = **1008 GB/s**。能调的只有两个旋钮：线有多少根、每根跑多快。GDDR 拧的是第二个，HBM 拧的是第一个。

## 驱动报告的显存频率为什么像是“翻了倍”（或者减了半）
CUDA 用 `cudaDevAttrMemoryClockRate` 报告显存频率（deviceQuery 打印的就是它）：RTX 3090 报告 9751 MHz，而它每根针脚跑 19.5 Gbit/s。原因在于 DDR（双倍数据速率）：时钟的上升沿和下降沿各传一位，所以**每针脚速率 = 2 × 报告的频率**，**峰值 = 2 × 频率 × 位宽 / 8**。芯片内部其实更复杂：

| 代际 | 标准 | 怎么传数据 |
|---|---|---|
| GDDR5 | JEDEC JESD212 | 在写时钟（WCK）上做 DDR，WCK 是命令时钟的 2 倍：每个命令时钟周期 4 位 |
| GDDR5X | JEDEC JESD232 | 在 WCK 上做 QDR：每个 WCK 周期 4 位 |
| GDDR6 | JEDEC JESD250 | WCK 上的 DDR 或 QDR；每颗芯片两个独立的 16 位通道 |
| GDDR6X | 美光（非 JEDEC 标准） | PAM4：四个电平，每个符号 2 位 |
| GDDR7 | JEDEC JESD239 | PAM3：三个电平，每 2 个符号 3 位 |
| HBM … HBM3e | JEDEC JESD235、JESD238 | 普通 DDR，每个堆栈 1024 位数据 |
| LPDDR5 / 5X | JEDEC JESD209-5 / -5B | WCK 上的 DDR，16 位通道 |

不管信号怎么编码，CUDA 报告的频率都满足 **2 × 频率 = 每针脚数据速率**，一个公式就能通吃。把这个频率当成一种约定，而不是能在针脚上测到的真实频率。

> [!pitfall] 先问清楚是哪个频率
> 超频工具和一些监控软件显示的是命令时钟（一块 10 Gbit/s GDDR5X 的 GTX 1080，有的工具显示 1251 MHz，deviceQuery 显示 5005 MHz），厂商宣传里又常写“等效”MT/s。拿频率算带宽之前，先弄清楚它是哪个频率；厂商规格页上的每针脚速率才是最稳妥的起点。
]] },

  experiment {
    id = "table",
    title = { en = "The generations, one example card each", zh = "历代显存，各举一张卡" },
    intro = { en = [[
Rows from `vram.memory_types()`: each gives the per-pin rate and bus width its maker publishes; the
peak is computed with the formula and set beside the published figure. Sources are listed under
the table. Then the simulator's GPU profiles, checked the same way.
]], zh = [[
数据来自 `vram.memory_types()`：每行是厂商公布的每针脚速率和位宽；峰值用公式算出，并和官方标称值并列。出处列在表格下方。随后用同样的方法核对模拟器里的各个 GPU 配置。
]] },
    panels = {
      { id = "gen", kind = "table", title = { en = "Memory generations", zh = "显存代际" } },
      { id = "bw", kind = "bars", title = { en = "Peak = bus/8 x per-pin rate", zh = "峰值 = 位宽/8 × 每针脚速率" }, unit = "GB/s" },
      { id = "prof", kind = "table", title = { en = "Simulator profiles: 2 x clock x bus/8 vs published", zh = "模拟器配置：2 × 频率 × 位宽/8 vs 官方" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("gen", { T("Type", "类型"), T("Year", "年份"), T("Example", "代表产品"), T("Bus", "位宽"), T("Gbit/s per pin", "每针脚 Gbit/s"),
                      T("Peak (computed)", "峰值（计算）"), T("Published", "官方"), T("Capacity", "容量") })
      for _, m in ipairs(vram.memory_types()) do
        ex:row("gen", { m.name, tostring(m.year), m.card, m.bus_bits .. "-bit",
                        string.format("%.2f%s", m.gbps, m.derived and "*" or ""), gbs(m.peak_bytes_per_s),
                        string.format("%g GB/s", m.published_gbs), ex.lang == "zh" and m.capacity_zh or m.capacity })
        ex:bar("bw", m.name .. " · " .. m.card, m.peak_bytes_per_s / 1e9, { style = "reference" })
      end
      ex:note("gen", T("* per-pin rate derived from the published total: published / (bus / 8).", "* 每针脚速率由官方总带宽反推：官方值 / (位宽 / 8)。"))
      for _, m in ipairs(vram.memory_types()) do
        ex:note("gen", T("Source", "出处") .. " (" .. m.card .. "): " .. m.source .. "; " .. m.standard)
      end

      ex:row("prof", { T("Profile", "配置"), T("GPU", "GPU"), T("Type", "类型"), T("Clock", "频率"), T("Per pin", "每针脚"),
                       T("Computed", "计算值"), T("Published", "官方") })
      for _, id in ipairs(gpu.profiles()) do
        local p = gpu.profile(id)
        if p then
          ex:row("prof", { id, p.name or "n/a", p.memory_type or "n/a",
                           p.mem_clock_khz and string.format("%.0f MHz", p.mem_clock_khz / 1e3) or "n/a",
                           p.mem_clock_khz and string.format("%.2f Gbit/s", 2 * p.mem_clock_khz / 1e6) or "n/a",
                           p.peak_bytes_per_s and gbs(p.peak_bytes_per_s) or "n/a",
                           p.published_bytes_per_s and gbs(p.published_bytes_per_s) or "n/a" })
        end
      end
      ex:note("prof", T("Published figures and clocks from each profile's sources (vramlab profiles): the clock is the maximum memory clock the card reports (cudaDevAttrMemoryClockRate, which nvidia-smi's max memory clock matches). Where the computed peak differs from the published one (H200: the 3201 MHz it reports gives 4.92 TB/s; NVIDIA publishes 4.8 TB/s), plan with the published figure and a measured copy.",
                        "官方数据和频率取自各配置文件注明的出处（vramlab profiles）：频率是该卡报告的最高显存频率（cudaDevAttrMemoryClockRate，与 nvidia-smi 的最高显存频率一致）。计算峰值与官方值不同时（H200 报告 3201 MHz，算出 4.92 TB/s；NVIDIA 公布的是 4.8 TB/s），做规划时以官方值和实测拷贝为准。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
> [!note] Checking the lecture's figures
> - "GDDR5, a bit over 200 GB/s": right for its time. A GTX 980 (2014) had 224 GB/s; the fastest GeForce GDDR5 cards reached 336 GB/s (GTX 980 Ti, NVIDIA specifications); AMD's R9 390X, 512 bits at 6 Gbit/s, 384 GB/s.
> - "RTX 4090 uses GDDR6X, about 1 TB/s": right, 1008 GB/s.
> - "HBM is past 2 TB/s": true, and by now far past it: H100 SXM 3.35 TB/s, H200 4.8 TB/s, B200 up to 8 TB/s.

> [!errata] "HBM2e/HBM3 in A100 and H100, 2 TB/s and more" mixes up cards
> - The A100 40GB uses **HBM2** at 1555 GB/s, below 2 TB/s. Only the A100 80GB has HBM2e: 2039 GB/s (SXM), 1935 GB/s (PCIe).
> - The H100 SXM uses HBM3 at 3.35 TB/s; the H100 PCIe uses HBM2e at 2.0 TB/s (NVIDIA A100 and H100 datasheets). The memory type is a property of the card, not of the GPU chip.
> - Source: NVIDIA A100 Tensor Core GPU datasheet (40GB: 1555 GB/s; 80GB: 1935 GB/s PCIe, 2039 GB/s SXM); NVIDIA H100 Tensor Core GPU datasheet (SXM 3.35 TB/s, PCIe 2.0 TB/s) and the Hopper whitepaper (HBM3 on SXM5, HBM2e on PCIe).

## Why HBM is fast: wide, slow and next door
The lecture: "HBM stacks the memory right next to the GPU and connects it through a silicon
interposer: short wires, many channels. GDDR6 runs over PCB traces: long distance, few channels.
That is the physical gap."

- **Stacked**: an HBM stack is typically 4 to 12 DRAM dies (JEDEC allows up to 16) on top of a base die, joined vertically by
  through-silicon vias (TSVs).
- **Next door, on silicon**: the stacks sit in the same package as the GPU on a silicon interposer
  (TSMC's CoWoS for NVIDIA's data-centre GPUs). Interposer wires are micrometres wide and millimetres
  long, so thousands of them fit: each stack has a **1024-bit** interface (8 channels of 128 bits in
  HBM/HBM2, 16 of 64 in HBM3). A GDDR chip has 32.
- **Wide beats fast**: an H100 SXM has 5 active stacks, 5120 bits at 5.2 Gbit/s; an RTX 4090 has
  12 GDDR6X chips, 384 bits at 21 Gbit/s. Each HBM pin is 4x slower, but there are 13x more:
  3.35 TB/s against 1.0 TB/s. Slow, short wires also take less energy per bit.
- **The price**: interposers, stacking and their yield make HBM expensive and its supply tight, and
  capacity per stack is limited (24 GB for the 8-high HBM3e on an H200: 6 x 24 = 144 GB, 141 GB
  exposed). The next standard, HBM4 (JEDEC JESD270-4, 2025), doubles the interface to 2048 bits per stack.

GDDR chips sit around the GPU on the board, a few centimetres away over PCB traces. With few wires,
GDDR has had to push each one harder: PAM4 in GDDR6X, PAM3 in GDDR7.

> [!errata] LPDDR: modest bandwidth, but not small capacity
> The lecture says LPDDR is used in low-power devices, "with limited bandwidth and capacity". The bandwidth is indeed modest (204.8 GB/s on a Jetson AGX Orin, 273 GB/s on a DGX Spark), but capacity is where LPDDR shines: 64 GB on the Orin, 128 GB of unified memory on the DGX Spark, more than any single GeForce card. That is why unified-memory machines use it: the whole model fits, at a lower speed.
> Source: NVIDIA Jetson AGX Orin series datasheet (64 GB LPDDR5, 204.8 GB/s); NVIDIA DGX Spark specifications (128 GB LPDDR5X, 273 GB/s); JEDEC JESD209-5 (LPDDR5).
]], zh = [[
> [!note] 核对讲义的数字
> - “GDDR5，带宽也就 200GB/s 出头”：就当时而言没错。GTX 980（2014 年）是 224 GB/s；GeForce 系列里 GDDR5 最快的卡做到了 336 GB/s（GTX 980 Ti，NVIDIA 官方规格）；AMD 的 R9 390X 是 512 位 × 6 Gbit/s = 384 GB/s。
> - “RTX 4090 就用 GDDR6X，带宽约 1TB/s”：没错，1008 GB/s。
> - “HBM 已经干到 2TB/s 以上”：没错，而且现在已经远远超过：H100 SXM 3.35 TB/s，H200 4.8 TB/s，B200 最高 8 TB/s。

> [!errata] “HBM2e/HBM3：A100、H100，带宽可达 2TB/s 以上”把型号混在了一起
> - A100 40GB 用的是 **HBM2**，1555 GB/s，不到 2 TB/s。只有 A100 80GB 用 HBM2e：2039 GB/s（SXM）、1935 GB/s（PCIe）。
> - H100 SXM 用 HBM3，3.35 TB/s；H100 PCIe 用的却是 HBM2e，2.0 TB/s（NVIDIA A100、H100 数据表）。显存类型属于具体的卡，而不是 GPU 芯片本身。
> - 出处：NVIDIA A100 Tensor Core GPU 数据表（40GB：1555 GB/s；80GB：PCIe 1935 GB/s、SXM 2039 GB/s）；NVIDIA H100 Tensor Core GPU 数据表（SXM 3.35 TB/s，PCIe 2.0 TB/s）与 Hopper 白皮书（SXM5 用 HBM3，PCIe 版用 HBM2e）。

## HBM 为什么快：又宽又慢，就在隔壁
讲义说：“HBM 为什么快？因为它把显存堆叠在 GPU 核心旁边，通过硅中介层连接，走线短、通道多。GDDR6 是走 PCB 走线的，距离长、通道少。这就是物理差距。”

- **堆叠**：一个 HBM 堆栈通常是叠在一块基础裸片上的 4 到 12 层 DRAM 裸片（JEDEC 最多允许 16 层），靠硅通孔（TSV）垂直连接。
- **就在隔壁，走硅片**：堆栈和 GPU 封装在一起，共同放在硅中介层上（NVIDIA 数据中心 GPU 用的是台积电 CoWoS）。中介层上的走线只有微米宽、毫米长，能布下几千根：每个堆栈的接口是 **1024 位**（HBM/HBM2 为 8 个 128 位通道，HBM3 为 16 个 64 位通道）。一颗 GDDR 芯片只有 32 位。
- **宽胜于快**：H100 SXM 有 5 个启用的堆栈，5120 位，每针脚 5.2 Gbit/s；RTX 4090 有 12 颗 GDDR6X，384 位，每针脚 21 Gbit/s。HBM 每根针脚慢 4 倍，但针脚多 13 倍：3.35 TB/s 对 1.0 TB/s。又慢又短的走线，每比特的能耗也更低。
- **代价**：中介层、堆叠工艺和良率让 HBM 很贵、供货也紧，单个堆栈的容量也有限（H200 用的 8 层 HBM3e 每堆栈 24 GB：6 × 24 = 144 GB，开放 141 GB）。下一代标准 HBM4（JEDEC JESD270-4，2025 年）把每个堆栈的接口加宽到 2048 位。

GDDR 芯片则分布在 GPU 周围的电路板上，隔着几厘米的 PCB 走线。线少，就只能让每根线跑得更快：GDDR6X 上了 PAM4，GDDR7 上了 PAM3。

> [!errata] LPDDR：带宽一般，但容量并不小
> 讲义说 LPDDR 用在一些低功耗设备上，“带宽和容量都有限”。带宽确实一般（Jetson AGX Orin 204.8 GB/s，DGX Spark 273 GB/s），容量却恰恰是 LPDDR 的强项：Orin 有 64 GB，DGX Spark 有 128 GB 统一内存，比任何一张 GeForce 卡都大。统一内存的机器选它正是为此：整个模型装得下，只是跑得慢一些。
> 出处：NVIDIA Jetson AGX Orin 系列数据表（64 GB LPDDR5，204.8 GB/s）；NVIDIA DGX Spark 规格（128 GB LPDDR5X，273 GB/s）；JEDEC JESD209-5（LPDDR5）。
]] },

  exercise {
    id = "pct-peak",
    kind = "predict",
    prompt = { en = "Predict: what **percentage** of its theoretical peak does a large device-to-device copy (copy engine) reach on this GPU?",
               zh = "预测：在本机 GPU 上，大块的显存内拷贝（拷贝引擎）能达到理论峰值的**百分之多少**？" },
    unit = "%", tolerance = 0.1,
    measure = function()
      local i = gpu.info()
      local r = assert(gpu.copy { dir = "d2d", bytes = copy_size(), method = "ce", trials = 5 })
      return 100 * r.rw_bytes_per_s / assert(i.peak_bytes_per_s, "no theoretical peak on this backend"), r
    end,
    hints = { { en = "Refresh, row switches and read/write turnaround each take a few per cent; nobody gets 100. And a copy engine is not an SM kernel.",
                zh = "刷新、换行、读写切换各吃掉几个百分点；谁也跑不到 100。而且拷贝引擎不是 SM 核函数。" } },
    explain = { en = "The copy engine reaches about what an SM kernel does (85-90 % of peak) on most GPUs; on Hopper public reports give it 46-75 % and others near 90 % (disputed: lesson 3.1; the h100-sxm and h200 profiles take 75 % and 50 %). The rest goes to refresh, row and bank overheads, bus turnaround and the copier's own limits.",
                zh = "在大多数 GPU 上，拷贝引擎能达到与 SM 核函数差不多的水平（峰值的 85–90%）；在 Hopper 上，公开报告有 46–75% 的，也有接近 90% 的（有争议：第 3.1 节；h100-sxm 和 h200 配置分别取 75% 和 50%）。其余被刷新、行和 bank 开销、总线换向以及拷贝者自身的限制吃掉了。" },
  },

  experiment {
    id = "place",
    title = { en = "Place this GPU on the table", zh = "把本机 GPU 放到表里" },
    intro = { en = [[
Reads this GPU's memory type, bus width and clock, computes its theoretical peak, then measures a
large device-to-device copy twice: with the copy engine (`cudaMemcpyAsync`) and with an SM copy
kernel. Bandwidth counts bytes read + written (2n/t), the way the peak counts them.
]], zh = [[
读取本机 GPU 的显存类型、位宽和频率，算出理论峰值，然后测两次大块的显存内拷贝：一次用拷贝引擎（`cudaMemcpyAsync`），一次用 SM 上的拷贝核函数。带宽按读 + 写的字节数计（2n/t），与峰值的算法一致。
]] },
    key = "pct",
    panels = {
      { id = "pct", kind = "bars", title = { en = "Best copy, % of the theoretical peak", zh = "最快的拷贝占理论峰值的百分比" }, unit = "%" },
      { id = "bw", kind = "bars", title = { en = "This GPU vs its peak", zh = "本机 GPU vs 理论峰值" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "Where it sits", zh = "在表中的位置" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local i = gpu.info()
      local n = copy_size()
      ex:status(T("copy engine, ", "拷贝引擎，") .. units.bytes(n) .. "…")
      local ce = assert(gpu.copy { dir = "d2d", bytes = n, method = "ce" })
      ex:status(T("SM copy kernel, ", "SM 拷贝核函数，") .. units.bytes(n) .. "…")
      local sm = assert(gpu.copy { dir = "d2d", bytes = n, method = "sm" })
      local peak = i.peak_bytes_per_s
      -- the theoretical peak is the marker on each copy's bar
      if i.published_bytes_per_s then ex:bar("bw", T("published", "官方标称"), i.published_bytes_per_s / 1e9, { style = "reference" }) end
      ex:bar("bw", T("D2D copy engine", "D2D 拷贝引擎"), ce.rw_bytes_per_s / 1e9, { from = ce, peak = peak and peak / 1e9 })
      ex:bar("bw", T("D2D SM kernel", "D2D SM 核函数"), sm.rw_bytes_per_s / 1e9, { from = sm, peak = peak and peak / 1e9 })
      local best = sm.rw_bytes_per_s >= ce.rw_bytes_per_s and sm or ce
      if peak then ex:bar("pct", best == sm and T("D2D SM kernel", "D2D SM 核函数") or T("D2D copy engine", "D2D 拷贝引擎"),
                          100 * best.rw_bytes_per_s / peak, { from = best }) end

      ex:row("t", { T("Type", "类型"), T("Card", "卡"), T("Bus", "位宽"), T("Gbit/s per pin", "每针脚 Gbit/s"), T("Peak", "峰值"),
                    i.simulated and T("Copy (SIMULATED)", "拷贝（模拟）") or T("Copy (measured)", "拷贝（实测）") })
      local mine = i.memory_type
      for _, m in ipairs(vram.memory_types()) do
        if m.name == mine then
          ex:row("t", { m.name, m.card, m.bus_bits .. "-bit", string.format("%.2f", m.gbps), gbs(m.peak_bytes_per_s), "" })
        end
      end
      local pct = function(r) return peak and string.format(" (%.0f%%)", 100 * r.rw_bytes_per_s / peak) or "" end
      ex:row("t", { (mine or "n/a") .. T(" · this GPU", " · 本机"), i.name or "n/a",
                    i.bus_width_bits and (i.bus_width_bits .. "-bit") or "n/a",
                    i.mem_clock_khz and string.format("%.2f", 2 * i.mem_clock_khz / 1e6) or "n/a",
                    peak and gbs(peak) or "n/a", gbs(math.max(ce.rw_bytes_per_s, sm.rw_bytes_per_s)) .. pct(ce.rw_bytes_per_s >= sm.rw_bytes_per_s and ce or sm) })
      if peak then
        ex:note("t", (i.simulated and T("SIMULATED: ", "模拟：") or "") .. T(string.format("Copy engine %s = %.0f%% of the theoretical peak (the driver's clock and bus width); SM kernel %s = %.0f%%. Copy of %s (read %s + write %s per copy, counted as 2n/t), best of %d, spread %.1f%%.",
                                     units.rate(ce.rw_bytes_per_s), 100 * ce.rw_bytes_per_s / peak, units.rate(sm.rw_bytes_per_s),
                                     100 * sm.rw_bytes_per_s / peak, units.bytes(n), units.bytes(n), units.bytes(n), ce.samples, 100 * ce.spread),
                       string.format("拷贝引擎 %s = 理论峰值（驱动报告的频率和位宽）的 %.0f%%；SM 核函数 %s = %.0f%%。每次拷贝 %s（读 %s + 写 %s，按 2n/t 计），%d 次取最好，离散度 %.1f%%。",
                                     units.rate(ce.rw_bytes_per_s), 100 * ce.rw_bytes_per_s / peak, units.rate(sm.rw_bytes_per_s),
                                     100 * sm.rw_bytes_per_s / peak, units.bytes(n), units.bytes(n), units.bytes(n), ce.samples, 100 * ce.spread)))
        if i.published_bytes_per_s and not i.simulated then
          ex:note("t", T(string.format("Against the published %s: copy engine %.0f%%, SM kernel %.0f%%. The two peaks differ by %+.1f%%: where they differ, the driver reports a clock or bus width the spec sheet does not.",
                                       units.rate(i.published_bytes_per_s), 100 * ce.rw_bytes_per_s / i.published_bytes_per_s,
                                       100 * sm.rw_bytes_per_s / i.published_bytes_per_s, 100 * (peak / i.published_bytes_per_s - 1)),
                         string.format("对照官方标称 %s：拷贝引擎 %.0f%%，SM 核函数 %.0f%%。两个峰值相差 %+.1f%%：有差别时，是驱动报告的频率或位宽与规格表不同。",
                                       units.rate(i.published_bytes_per_s), 100 * ce.rw_bytes_per_s / i.published_bytes_per_s,
                                       100 * sm.rw_bytes_per_s / i.published_bytes_per_s, 100 * (peak / i.published_bytes_per_s - 1))))
        end
      else
        ex:note("t", T("This backend does not report the memory clock or bus width: no theoretical peak to compare with.",
                       "该后端没有报告显存频率或位宽：无法给出理论峰值来对比。"))
      end
      for _, r in ipairs { ce, sm } do
        for _, w in ipairs(r.warnings or {}) do ex:note("bw", w) end
      end
      if i.simulated then
        ex:note("bw", T("SIMULATED: the copies follow the profile's model (efficiency factors in docs/simulator.md), not a measurement.",
                        "模拟：拷贝结果来自配置中的模型（效率系数见 docs/simulator.md），不是实测。"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Why a copy never reaches the peak
The peak assumes every pin moves data on every clock. Real DRAM cannot:

- **Refresh**: every DRAM cell must be refreshed every few tens of milliseconds; while a bank
  refreshes it serves nothing (a few per cent of the time).
- **Rows and banks**: DRAM reads a whole row into a row buffer first. Opening a new row, or hitting
  a bank that is busy with another row (a bank conflict), costs tens of nanoseconds of dead bus time.
- **Read/write turnaround**: a copy is half reads, half writes, and the shared data bus needs idle
  cycles each time it changes direction.
- **ECC**: on HBM the check bits travel on extra side-band wires at no cost to bandwidth; on GDDR
  cards with ECC switched on (T4, A10, RTX A6000 ...) they are stored inline, costing capacity (a
  "16 GB" T4's nvidia-smi shows 15 GiB, CUDA 14.75 GiB) and some bandwidth.
- **The copier itself**: the copy engine or the kernel's loads and stores must keep enough requests
  in flight to cover the latency, and clocks may not boost fully.

A large device-to-device copy by an SM kernel typically reaches 85-90 % of the theoretical peak.
By the copy engine it reaches about as much on most GPUs; on Hopper that is disputed, 46-75 % in
some public reports and near 90 % in others (lesson 3.1). The % you measured above is the honest
number to plan with.

> [!source] Sources
> - NVIDIA datasheets and whitepapers for every card named (GTX 980 and 980 Ti specifications, GA102 and Ada whitepapers, V100, A100, H100, H200, B200 datasheets, Jetson AGX Orin and DGX Spark); each row of the generations table prints its own source and JEDEC standard. B200: NVIDIA DGX B200 datasheet (1,440 GB and 64 TB/s of HBM3e over 8 GPUs: up to 8 TB/s each).
> - JEDEC: JESD212 (GDDR5), JESD232 (GDDR5X), JESD250 (GDDR6), JESD239 (GDDR7), JESD235/235A/235D (HBM, HBM2, HBM2E), JESD238 (HBM3), JESD270-4 (HBM4), JESD209-5 (LPDDR5); Micron GDDR6X technical brief (PAM4).
> - CUDA Runtime API, `cudaDeviceGetAttribute` (`cudaDevAttrMemoryClockRate`, `cudaDevAttrGlobalMemoryBusWidth`); nvidia-smi and TensorRT-LLM logs of an H200 (3201 MHz maximum memory clock), cited in assets/gpus/h200.txt.
> - AMD Radeon R9 390X and R9 Fury X specifications.
> - Device-to-device copies by the copy engine, disputed on Hopper: NVIDIA nvbandwidth issue #48 (H20-3e: 1116 GB/s n/t, 46 % of the peak counted read + write), cuda-samples issue #366 (H20: 2.0 TB/s by the copy engine, 3.3 TB/s by a kernel), NCCL issue #1264 (HGX H100: about 75 %); the simulator's figures and their sources: `assets/gpus/*.txt`, `ce_efficiency` and `ce_source` (lesson 3.1).
]], zh = [[
## 为什么拷贝永远达不到峰值
峰值假设每根针脚在每个时钟都在传数据。真实的 DRAM 做不到：

- **刷新**：每个 DRAM 单元每隔几十毫秒就必须刷新一次；bank 在刷新时不能服务任何请求（占几个百分点的时间）。
- **行与 bank**：DRAM 要先把整行读进行缓冲区。打开新的一行，或者碰上正被另一行占着的 bank（bank 冲突），都会让总线空转几十纳秒。
- **读写切换**：拷贝一半是读、一半是写，共享的数据总线每次换方向都要空出几个周期。
- **ECC**：HBM 的校验位走额外的边带线，不占带宽；开启 ECC 的 GDDR 卡（T4、A10、RTX A6000……）把校验位和数据存在一起，既占容量（标称“16 GB”的 T4，nvidia-smi 显示 15 GiB，CUDA 报告 14.75 GiB），也吃掉一些带宽。
- **拷贝者本身**：拷贝引擎或核函数的读写必须挂起足够多的请求才能掩盖延迟，时钟也未必能升到最高。

大块的显存内拷贝用 SM 核函数一般能跑到理论峰值的 85–90%。用拷贝引擎在大多数 GPU 上差不多；在 Hopper 上有争议，有的公开报告只有 46–75%，也有接近 90% 的（第 3.1 节）。上面实测出的百分比，才是做规划时该用的数字。

> [!source] 出处
> - 文中每张卡的 NVIDIA 数据表与白皮书（GTX 980、980 Ti 规格，GA102、Ada 白皮书，V100、A100、H100、H200、B200 数据表，Jetson AGX Orin、DGX Spark）；代际表的每一行都打印了自己的出处和 JEDEC 标准。B200：NVIDIA DGX B200 数据表（8 块 GPU 共 1,440 GB、64 TB/s 的 HBM3e：每块最高 8 TB/s）。
> - JEDEC：JESD212（GDDR5）、JESD232（GDDR5X）、JESD250（GDDR6）、JESD239（GDDR7）、JESD235/235A/235D（HBM、HBM2、HBM2E）、JESD238（HBM3）、JESD270-4（HBM4）、JESD209-5（LPDDR5）；美光 GDDR6X 技术简介（PAM4）。
> - CUDA Runtime API `cudaDeviceGetAttribute`（`cudaDevAttrMemoryClockRate`、`cudaDevAttrGlobalMemoryBusWidth`）；H200 的 nvidia-smi 与 TensorRT-LLM 日志（最高显存频率 3201 MHz），见 assets/gpus/h200.txt。
> - AMD Radeon R9 390X、R9 Fury X 规格。
> - 拷贝引擎做的显存内拷贝（在 Hopper 上有争议）：NVIDIA nvbandwidth issue #48（H20-3e：1116 GB/s，n/t，按读 + 写计为峰值的 46%）、cuda-samples issue #366（H20：拷贝引擎 2.0 TB/s，核函数 3.3 TB/s）、NCCL issue #1264（HGX H100：约 75%）；模拟器的数字及其来源：`assets/gpus/*.txt` 的 `ce_efficiency` 和 `ce_source`（第 3.1 节）。
]] },

  exercise {
    id = "peak-from-clock",
    kind = "number",
    prompt = { en = "deviceQuery reports a 384-bit bus and a memory clock of 9501 MHz. What is the theoretical peak in **GB/s**?",
               zh = "deviceQuery 报告位宽 384 位、显存频率 9501 MHz。理论峰值是多少 **GB/s**？" },
    answer = 912.096, unit = "GB/s", tolerance = 0.01,
    mistakes = {
      { factor = 2, say = { en = "Off by 2: GDDR moves data on both clock edges (double data rate).", zh = "差了 2 倍：GDDR 在时钟的上升沿和下降沿都传数据（双倍数据率）。" } },
      "x8",
    },
    hints = {
      { en = "The reported clock is not the per-pin rate: what does \"double data rate\" mean?", zh = "报告的频率不是每针脚速率：“双倍数据速率”是什么意思？" },
      { en = "Bits per second on all pins, then divide by 8 for bytes.", zh = "先算所有针脚每秒传多少位，再除以 8 得到字节。" },
    },
    explain = { en = "Per pin 2 x 9501 MHz = 19.0 Gbit/s; 384 / 8 x 19.0e9 = 912 GB/s: an RTX 3080 Ti.",
                zh = "每针脚 2 × 9501 MHz = 19.0 Gbit/s；384 / 8 × 19.0e9 = 912 GB/s：这是 RTX 3080 Ti。" },
  },

  exercise {
    id = "why-hbm",
    kind = "choice",
    prompt = { en = "An H100 SXM's HBM3 pins run at about 5.2 Gbit/s, an RTX 4090's GDDR6X pins at 21 Gbit/s. Why does the H100 still have 3.3x the bandwidth?",
               zh = "H100 SXM 的 HBM3 每针脚约 5.2 Gbit/s，RTX 4090 的 GDDR6X 每针脚 21 Gbit/s。为什么 H100 的带宽反而是它的 3.3 倍？" },
    choices = {
      { en = "HBM has lower latency, so it moves more bytes per second", zh = "HBM 延迟更低，所以每秒能搬更多字节" },
      { en = "Its bus is 5120 bits wide against 384: 13x more wires", zh = "它的位宽是 5120 位，对方是 384 位：线多了 13 倍" },
      { en = "HBM3 uses PAM4 signalling", zh = "HBM3 用了 PAM4 信号" },
      { en = "The H100 has a larger L2 cache", zh = "H100 的 L2 缓存更大" },
    },
    answer = 2,
    hints = { { en = "Use the formula: peak = bus width / 8 x per-pin rate. Which factor differs more?", zh = "代入公式：峰值 = 位宽 / 8 × 每针脚速率。哪个因子差得更多？" } },
    explain = { en = "5120 / 8 x 5.24 Gbit/s = 3.35 TB/s; 384 / 8 x 21 Gbit/s = 1.01 TB/s. Five 1024-bit stacks on a silicon interposer give width that PCB traces cannot.",
                zh = "5120 / 8 × 5.24 Gbit/s = 3.35 TB/s；384 / 8 × 21 Gbit/s = 1.01 TB/s。硅中介层上的 5 个 1024 位堆栈提供了 PCB 走线做不到的宽度。" },
  },

  exercise {
    id = "lpddr",
    kind = "choice",
    prompt = { en = "A DGX Spark (128 GB LPDDR5X, 273 GB/s) against an RTX 5090 (32 GB GDDR7, 1792 GB/s): what does LPDDR buy?",
               zh = "DGX Spark（128 GB LPDDR5X，273 GB/s）对比 RTX 5090（32 GB GDDR7，1792 GB/s）：LPDDR 换来了什么？" },
    choices = {
      { en = "Higher bandwidth per watt and per pin", zh = "每瓦、每针脚带宽更高" },
      { en = "Capacity: a model four times larger fits, read about 6.6x more slowly", zh = "容量：能装下大四倍的模型，只是读取速度慢约 6.6 倍" },
      { en = "Lower latency for the GPU", zh = "GPU 访问延迟更低" },
    },
    answer = 2,
    hints = { { en = "Compare the two figures each machine gives, capacity and bandwidth, as ratios.", zh = "把两台机器的容量和带宽分别做个比值。" } },
    explain = { en = "128 / 32 = 4x the capacity; 1792 / 273 = 6.6x less bandwidth. Token generation reads every weight once per token, so it runs about 6.6x slower, but a 70B model in 8 bits fits at all.",
                zh = "容量 128 / 32 = 4 倍；带宽 1792 / 273，低 6.6 倍。生成每个 token 都要把权重读一遍，所以速度慢约 6.6 倍，但 8 位的 70B 模型至少装得下。" },
  },

  exercise {
    id = "peak-code",
    kind = "code",
    prompt = { en = [[
Write `peak_gbs(bus_bits, clock_mhz)` returning the theoretical peak in GB/s (1 GB/s = 1e9 B/s)
from the bus width and the memory clock as CUDA reports it. One line is enough:
`function peak_gbs(bus_bits, clock_mhz) return ... end`
]], zh = [[
写一个函数 `peak_gbs(bus_bits, clock_mhz)`，根据位宽和 CUDA 报告的显存频率，返回理论峰值，单位 GB/s（1 GB/s = 1e9 B/s）。一行就够：`function peak_gbs(bus_bits, clock_mhz) return ... end`
]] },
    entry = "peak_gbs",
    starter = [[
function peak_gbs(bus_bits, clock_mhz)
  return 0
end
]],
    check = function(fn)
      local cases = { { 384, 9751, 936.096 }, { 5120, 2619, 3352.32 }, { 256, 3505, 224.32 }, { 4096, 877, 898.048 } }
      for _, c in ipairs(cases) do
        local got = fn(c[1], c[2])
        if type(got) ~= "number" or math.abs(got - c[3]) > 1e-6 * c[3] then
          return false, { en = string.format("peak_gbs(%d, %d) returned %s.", c[1], c[2], tostring(got)),
                           zh = string.format("peak_gbs(%d, %d) 返回了 %s。", c[1], c[2], tostring(got)) }
        end
      end
      return true
    end,
    hints = {
      { en = "Turn the clock into a per-pin data rate first: how many bits per clock cycle on a DDR pin?", zh = "先把频率换成每针脚数据速率：DDR 针脚每个时钟周期传几位？" },
      { en = "MHz is 1e6 cycles per second; the bus moves bus_bits / 8 bytes per transfer.", zh = "MHz 是每秒 1e6 个周期；总线每次传输 bus_bits / 8 个字节。" },
    },
    explain = { en = "peak_gbs = 2 * clock_mhz * 1e6 * bus_bits / 8 / 1e9. RTX 3090: 2 x 9751 MHz x 48 B = 936 GB/s; V100: 2 x 877 MHz x 512 B = 898 GB/s (published: 900).",
                zh = "peak_gbs = 2 * clock_mhz * 1e6 * bus_bits / 8 / 1e9。RTX 3090：2 × 9751 MHz × 48 B = 936 GB/s；V100：2 × 877 MHz × 512 B = 898 GB/s（官方：900）。" },
  },
}
