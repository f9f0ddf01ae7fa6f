-- Lesson 1.3: VRAM vs system RAM. Source: the lecture's section 1.3, with its table measured on
-- the learner's machine and its loose figures corrected in errata callouts.
local GiB, MiB = units.GiB, units.MiB

local function measure_all(ex)
  local hi, gi = host.info(), gpu.info()
  local out = { hi = hi, gi = gi }
  -- STREAM's rule: each array at least 4x the last-level caches; 64 MiB each, 192 MiB in all,
  -- keeps the lesson under 256 MiB of memory (a larger cache gets a note), within what a host
  -- experiment may take (host.budget(): its three arrays together)
  local hb = host.budget()
  local llc = hi.llc_total_bytes or hi.llc_bytes
  local arr = math.min(64 * MiB, hb // 3 // 4096 * 4096)
  out.arr, out.short = arr, llc and 4 * llc > arr

  ex:status(ex:t { en = "Host: STREAM triad over all threads…", zh = "内存：STREAM triad（全部线程）…" })
  out.triad = assert(host.triad { bytes = arr })
  ex:bar("bw", ex:t { en = "RAM (triad)", zh = "内存 (triad)" }, out.triad.bytes_per_s / 1e9, { from = out.triad })

  -- a chase over 8x the last-level cache misses it on nearly every load (at most 128 MiB: the
  -- triad's arrays are given back first, so the lesson's memory peaks at theirs)
  local chase = math.min(math.max(8 * (hi.llc_bytes or 16 * MiB), 64 * MiB), 128 * MiB, hb)
  ex:status(string.format(ex:t { en = "Host: pointer chase over %s…", zh = "内存：%s 指针追逐…" }, units.bytes(chase)))
  out.hlat = assert(host.latency { bytes = chase })

  local budget = gpu.budget()
  local n = math.min(256 * MiB, budget // 2)
  -- an SM copy kernel: it reaches the DRAM rate; a copy engine may not (lesson 3.1)
  ex:status(ex:t { en = "Device: copy within VRAM (D2D, SM kernel)…", zh = "显存：显存内拷贝（D2D，SM 核函数）…" })
  out.d2d = assert(gpu.copy { dir = "d2d", bytes = n, method = "sm" })
  -- the theoretical peak as a marker on the VRAM bar, not a bar of its own
  ex:bar("bw", ex:t { en = "VRAM (D2D copy)", zh = "显存 (D2D 拷贝)" }, out.d2d.rw_bytes_per_s / 1e9,
         { from = out.d2d, peak = gi.peak_bytes_per_s and gi.peak_bytes_per_s / 1e9 })

  ex:status(ex:t { en = "Device: host→device over PCIe (pinned)…", zh = "主机→显存，经 PCIe（锁页内存）…" })
  out.h2d = assert(gpu.copy { dir = "h2d", bytes = math.min(64 * MiB, budget), pinned = true })
  ex:bar("bw", ex:t { en = "PCIe H2D (pinned)", zh = "PCIe H2D（锁页）" }, out.h2d.bytes_per_s / 1e9, { from = out.h2d })

  ex:status(ex:t { en = "Device: pointer chase over 1 GiB…", zh = "显存：1 GiB 指针追逐…" })
  out.dlat = assert(gpu.latency { bytes = math.min(GiB, budget) })
  return out
end

-- The latency sentence is computed from the run: on a loaded or virtualised host the pointer chase
-- can read slower than the (simulated or real) GPU's, and the text must not say the opposite.
local function latency_verdict(ex, m)
  local d, h = m.dlat.ns_per_load, m.hlat.ns_per_load
  local r = d / h
  local what = m.gi.simulated and ex:t { en = "the profile's modelled VRAM latency", zh = "配置文件里建模的显存延迟" }
                              or ex:t { en = "VRAM measured", zh = "显存实测" }
  if r >= 1.15 then
    return ex:t { en = string.format("Latency: VRAM/RAM = %.1fx (%s %.0f ns, host %.0f ns): a dependent load takes longer on the GPU, which wins on bandwidth, not latency.", r, what, d, h),
                  zh = string.format("延迟：显存/内存 = %.1f 倍（%s %.0f ns，主机 %.0f ns）：一次依赖访存在 GPU 上更慢，GPU 赢在带宽，不在延迟。", r, what, d, h) }
  elseif r <= 1 / 1.15 then
    return ex:t { en = string.format("Latency: VRAM/RAM = %.1fx (%s %.0f ns, host %.0f ns): here the host was the slower one. A host chase past the caches also pays TLB misses, and a busy or virtualised host adds more (see the spread); an idle desktop's DRAM takes about 80-120 ns.", r, what, d, h),
                  zh = string.format("延迟：显存/内存 = %.1f 倍（%s %.0f ns，主机 %.0f ns）：本机反而是主机更慢。越过缓存的主机指针追逐还要付 TLB 缺失的代价，机器繁忙或是虚拟机时还会更慢（看离散度）；空闲台式机的内存延迟约 80–120 ns。", r, what, d, h) }
  end
  return ex:t { en = string.format("Latency: VRAM/RAM = %.1fx (%s %.0f ns, host %.0f ns): about the same per dependent load here.", r, what, d, h),
                zh = string.format("延迟：显存/内存 = %.1f 倍（%s %.0f ns，主机 %.0f ns）：本机上两者单次依赖访存差不多。", r, what, d, h) }
end

return lesson {
  id = "1.3",
  chapter = 1,
  chapter_title = { en = "VRAM basics", zh = "显存基础概念" },
  title = { en = "VRAM vs system RAM", zh = "显存 vs 内存" },
  requires = { "host", "gpu" },

  text { en = [[
# VRAM vs system RAM

Many newcomers treat VRAM and system RAM as the same thing in two places. They differ in who reads
them, how fast, and how far away they sit. The lecture sums it up in a table:

| Dimension | System RAM | VRAM |
|---|---|---|
| Accessed by | CPU | GPU |
| Typical capacity | 8 GB ~ 128 GB | 4 GB ~ 80 GB |
| Bandwidth | ~50 GB/s (DDR5) | ~900 GB/s (HBM2e) |
| Latency | ~100 ns | ~200 ns (but high throughput) |
| Main use | OS, applications | graphics, AI compute |
| Location | motherboard, near the CPU | graphics card PCB, near the GPU |

The lecture's key point: "**VRAM bandwidth is 10-20x that of system RAM**", because a GPU must feed
thousands of threads at once. A table of typical figures is a start; the experiment below measures
your machine.

> [!errata] Six things in this table and its key point are loose
> - **~50 GB/s for DDR5** is one module's worth. Peak = channels x 64 bit / 8 x transfer rate: a
> desktop's two DDR5-4800 channels give 2 x 8 B x 4.8 GT/s = 76.8 GB/s; a 12-channel server, 460 GB/s.
> - **~900 GB/s is not HBM2e.** 900 GB/s is V100's HBM2 or RTX 3090's GDDR6X (936 GB/s). HBM2e on an
> A100 80GB gives 2039 GB/s; HBM3e on an H200, 4.8 TB/s (NVIDIA datasheets).
> - **~200 ns VRAM latency** is optimistic. A dependent load that misses every cache costs several
> hundred ns on a GPU, several times a CPU's ~80-120 ns. VRAM wins on bandwidth, not on latency: the
> GPU hides latency by keeping thousands of loads in flight.
> - **Capacity**: "4-80 GB" of VRAM has moved on (an H200 carries 141 GB, a B200 180 GB), and "8-128 GB" of RAM is a desktop's range: one AMD EPYC 9004 socket takes up to 6 TB over 12 DDR5 channels.
> - **"On the graphics card PCB"** holds for GDDR chips. HBM stacks are not on the board: they sit inside the GPU's package, on a silicon interposer beside the GPU die (lesson 1.4).
> - **"10-20x" is a pairing, not a constant.** It is one card's bandwidth over one machine's: a T4 (320 GB/s) against an 8-channel DDR4-3200 server (204.8 GB/s) is 1.6x; an RTX 3090 (936) against dual-channel DDR4-3200 (51.2) 18x; an H200 (4800) against dual-channel DDR5-4800 (76.8) 62x, against a 12-channel DDR5-4800 server (460.8) 10x. The experiment below prints this machine's pair.
> - Source: NVIDIA T4, A100, H200 and V100 datasheets and the GA102 whitepaper (bandwidths); JEDEC JESD79-4 and JESD79-5 (DDR4, DDR5 transfer rates: peak = channels x 8 B x MT/s); AMD EPYC 9004 series specifications (12 DDR5-4800 channels, up to 6 TB per socket); Intel Memory Latency Checker and the pointer chase of lesson 3.3 (CPU DRAM latency).

## How bandwidth is counted here
- A copy of n bytes reads n and writes n. The bars show **bytes read + written per second**, the
  way a spec-sheet peak and STREAM count, so RAM and VRAM are compared alike. (bandwidthTest counts a
  device copy as 2n/t; nvbandwidth counts n/t: same measurement, half the number.)
- The VRAM bar is a copy by an **SM kernel**, which gets close to the DRAM peak. A `cudaMemcpy`
  between two device buffers is the copy engine's job; on most GPUs it runs about as fast. On
  Hopper it is **disputed**: public reports put copy-engine device copies at 46-75 % of the peak,
  other reports of H200 device copies near 90 % (lesson 3.1 measures both paths and gives the
  sources).
- GB/s = 1e9 bytes/s; capacities in GiB = 2^30 bytes.
- Best of 10 timed trials after a warm-up; the spread is kept with each result. Every copy's data is
  checked afterwards, so a copy that went wrong is an error, not a fast number.
]], zh = [[
# 显存 vs 内存

很多新手把显存和内存混为一谈，其实它们差别大了去了：谁来访问、有多快、离处理器有多远，都不一样。讲义用一张表做了总结：

| 对比维度 | 系统内存 | 显存 |
|---|---|---|
| 访问者 | CPU | GPU |
| 典型容量 | 8GB ~ 128GB | 4GB ~ 80GB |
| 带宽 | ~50 GB/s (DDR5) | ~900 GB/s (HBM2e) |
| 延迟 | ~100ns | ~200ns（但吞吐量高） |
| 主要用途 | 操作系统、应用程序 | 图形渲染、AI计算 |
| 物理位置 | 主板上，靠近CPU | 显卡PCB上，靠近GPU核心 |

讲义说这里有个关键点：“**显存带宽是内存的 10 到 20 倍**”。因为 GPU 一次要喂几千个线程的数据，带宽不够的话，所有核心都得干等着。典型数字只是起点，下面的实验会在你的机器上实测。

> [!errata] 这张表和这个“关键点”有六处不够严谨
> - **DDR5 约 50 GB/s** 只相当于一根内存条。峰值 = 通道数 × 64 位 / 8 × 传输速率：桌面机双通道 DDR5-4800 为 2 × 8 B × 4.8 GT/s = 76.8 GB/s；12 通道服务器可达 460 GB/s。
> - **约 900 GB/s 并不是 HBM2e。** 900 GB/s 是 V100 的 HBM2，或 RTX 3090 的 GDDR6X（936 GB/s）。A100 80GB 的 HBM2e 是 2039 GB/s，H200 的 HBM3e 是 4.8 TB/s（NVIDIA 官方数据表）。
> - **显存延迟约 200 ns** 偏乐观。一次穿透所有缓存的依赖访存，在 GPU 上要几百纳秒，是 CPU（约 80–120 ns）的好几倍。显存赢在带宽，不在延迟：GPU 靠同时挂起成千上万个访存请求来掩盖延迟。
> - **容量**：显存“4–80 GB”早已过时（H200 有 141 GB，B200 有 180 GB）；内存“8–128 GB”只是台式机的范围，一颗 AMD EPYC 9004 处理器经 12 个 DDR5 通道最多可接 6 TB。
> - **“显卡 PCB 上”**只对 GDDR 颗粒成立。HBM 堆栈不在电路板上，而是封装在 GPU 里面，和 GPU 裸片一起放在硅中介层上（第 1.4 节）。
> - **“10 到 20 倍”取决于拿谁比，不是常数。** 它是某张卡的带宽除以某台机器的带宽：T4（320 GB/s）对 8 通道 DDR4-3200 服务器（204.8 GB/s）只有 1.6 倍；RTX 3090（936）对双通道 DDR4-3200（51.2）是 18 倍；H200（4800）对双通道 DDR5-4800（76.8）是 62 倍，对 12 通道 DDR5-4800 服务器（460.8）是 10 倍。下面的实验会给出本机这一对的比值。
> - 出处：NVIDIA T4、A100、H200、V100 数据表与 GA102 白皮书（带宽）；JEDEC JESD79-4、JESD79-5（DDR4、DDR5 的传输速率：峰值 = 通道数 × 8 B × MT/s）；AMD EPYC 9004 系列规格（12 个 DDR5-4800 通道，每颗最多 6 TB）；Intel Memory Latency Checker 与第 3.3 节的指针追逐（CPU 内存延迟）。

## 本课的带宽怎么算
- 拷贝 n 字节要读 n、写 n。柱状图显示的是**每秒读 + 写的字节数**，和规格表峰值、STREAM 的算法一致，内存和显存才能公平比较。（bandwidthTest 把显存内拷贝记为 2n/t，nvbandwidth 记为 n/t：同一次测量，数字差一半。）
- 显存那根柱子是 **SM 核函数**做的拷贝，它接近显存峰值。两块显存之间的 `cudaMemcpy` 由拷贝引擎完成；在大多数 GPU 上它差不多一样快。在 Hopper 上**有争议**：公开报告中拷贝引擎的显存内拷贝只有峰值的 46–75%，也有报告说 H200 的显存内拷贝接近 90%（第 3.1 节同时测两条路径并给出来源）。
- GB/s = 每秒 1e9 字节；容量用 GiB = 2^30 字节。
- 预热后计时 10 次取最好值，并保留离散度。每次拷贝后都会核对数据，拷错的结果报错，而不是给出一个“很快”的数字。
]] },

  exercise {
    id = "predict-ram",
    kind = "predict",
    prompt = { en = "Predict this machine's host memory bandwidth with STREAM triad over all threads, in GB/s (read+write).",
               zh = "预测本机用全部线程跑 STREAM triad 的内存带宽，单位 GB/s（读+写）。" },
    unit = "GB/s", tolerance = 0.5,
    measure = function()
      local hi = host.info()
      local r = assert(host.triad { bytes = math.min(math.max(4 * (hi.llc_bytes or 16 * MiB), 64 * MiB),
                                                    host.budget() // 3 // 4096 * 4096), trials = 5 })
      return r.bytes_per_s / 1e9, r
    end,
    hints = { { en = "Dual-channel DDR4-3200 peaks at 51.2 GB/s; STREAM usually reaches 60-80% of peak. Servers have many more channels.",
                zh = "双通道 DDR4-3200 峰值 51.2 GB/s；STREAM 一般能跑到峰值的 60–80%。服务器的通道数要多得多。" } },
    explain = { en = "Peak DRAM bandwidth = channels x 8 bytes x transfer rate; STREAM triad measures what the cores can actually pull, counting 24 bytes per element.",
                zh = "内存峰值带宽 = 通道数 × 8 字节 × 传输速率；STREAM triad 测的是 CPU 核心实际能拉动的带宽，每个元素计 24 字节。" },
  },

  experiment {
    id = "measure",
    title = { en = "Measure the table on this machine", zh = "在本机实测这张表" },
    intro = { en = [[
Runs STREAM triad and a pointer chase on the host (always real), then a device copy, a PCIe
transfer and a pointer chase on the GPU backend (real on a GPU, SIMULATED otherwise).
]], zh = [[
先在主机上运行 STREAM triad 和指针追逐（始终是真实测量），再在 GPU 后端上做显存内拷贝、PCIe 传输和指针追逐（有 GPU 时是真实测量，否则为模拟）。
]] },
    key = "ratio",
    panels = {
      { id = "ratio", kind = "bars", title = { en = "VRAM vs RAM bandwidth (lecture: 10-20x)", zh = "显存 vs 内存带宽（讲义：10–20 倍）" }, unit = "x" },
      { id = "bw", kind = "bars", title = { en = "Bandwidth (read+write, GB/s)", zh = "带宽（读+写，GB/s）" }, unit = "GB/s", scale = 1000 },
      { id = "t", kind = "table", title = { en = "Lecture vs this machine", zh = "讲义 vs 本机" } },
    },
    run = function(ex)
      local m = measure_all(ex)
      local sim = m.gi.simulated
      local dev = sim and ex:t { en = "VRAM (SIMULATED)", zh = "显存（模拟）" } or ex:t { en = "VRAM (measured)", zh = "显存（实测）" }
      ex:row("t", { ex:t { en = "Dimension", zh = "维度" }, ex:t { en = "Lecture RAM", zh = "讲义·内存" },
                    ex:t { en = "Lecture VRAM", zh = "讲义·显存" }, ex:t { en = "RAM (measured)", zh = "内存（实测）" }, dev })
      ex:row("t", { ex:t { en = "Capacity", zh = "容量" }, "8-128 GB", "4-80 GB",
                    units.bytes(m.hi.ram_bytes), m.gi.total_bytes and units.bytes(m.gi.total_bytes) or "n/a" })
      ex:row("t", { ex:t { en = "Bandwidth", zh = "带宽" }, "~50 GB/s", "~900 GB/s",
                    units.rate(m.triad.bytes_per_s), units.rate(m.d2d.rw_bytes_per_s) })
      ex:row("t", { ex:t { en = "Latency", zh = "延迟" }, "~100 ns", "~200 ns",
                    string.format("%.0f ns", m.hlat.ns_per_load), string.format("%.0f ns", m.dlat.ns_per_load) })
      local ratio = m.d2d.rw_bytes_per_s / m.triad.bytes_per_s
      ex:bar("ratio", ex:t { en = "VRAM / RAM", zh = "显存 / 内存" }, ratio, { from = m.d2d })
      ex:note("t", ex:t { en = string.format("VRAM/RAM bandwidth: %.1fx for this pair (lecture: 10-20x; it depends on the pair, see the errata). PCIe H2D: %s, %.0fx slower than VRAM.",
                                             ratio, units.rate(m.h2d.bytes_per_s), m.d2d.rw_bytes_per_s / m.h2d.bytes_per_s),
                          zh = string.format("显存/内存带宽比：本机这一对是 %.1f 倍（讲义：10–20 倍；取决于拿谁比，见勘误）。PCIe H2D：%s，比显存慢 %.0f 倍。",
                                             ratio, units.rate(m.h2d.bytes_per_s), m.d2d.rw_bytes_per_s / m.h2d.bytes_per_s) })
      ex:note("t", latency_verdict(ex, m))
      for _, r in ipairs { m.triad, m.hlat } do
        for _, w in ipairs(r.warnings) do ex:note("bw", ex:t { en = "host ", zh = "主机 " } .. (r.kernel or "") .. ": " .. w) end
      end
      if m.short then -- the warning's why
        ex:note("bw", string.format(ex:t { en = "The RAM bar's arrays are %s each, under STREAM's 4x this host's last-level cache: the lesson keeps to 3 arrays of at most 64 MiB (under 256 MiB of memory), so part of each pass may come from the cache and the figure may read high.",
                                           zh = "内存柱的数组每个 %s，小于 STREAM 要求的本机末级缓存的 4 倍：本课把三个数组都限制在 64 MiB 以内（内存不超过 256 MiB），每遍可能有一部分从缓存读，数字可能偏高。" },
                                    units.bytes(m.arr)))
      end
      if sim then ex:note("bw", ex:t { en = "VRAM and PCIe bars are SIMULATED (" .. m.gi.name .. " profile); RAM bars are measured.",
                                       zh = "显存与 PCIe 数据为模拟（" .. m.gi.name .. " 配置）；内存数据为实测。" }) end
      ex:status(ex:t { en = "done", zh = "完成" })
    end,
  },

  text { en = [[
## Is training "1/30 of the speed" without VRAM?
The lecture's example: an RTX 3090 has 936 GB/s; DDR4 has about 25 GB/s, so training "drops to
1/30". The ratio 936/25 = 37 is a **bandwidth** ratio, and it only bounds kernels whose speed is set
by memory traffic. Two corrections make it concrete:

- A GPU cannot read DDR at DDR speed. Data in system RAM reaches the GPU over PCIe: 31.5 GB/s per
  direction for gen4 x16 after encoding, about 26 GB/s in practice with pinned buffers, half that
  pageable. The bar "PCIe H2D" above is that path on this machine.
- Compute-bound work (large matrix multiplies) suffers far less than 37x; small memory-bound kernels
  suffer the full ratio or more, because PCIe latency is microseconds.

The lecture's pitfall: "I once thought system RAM could make up for missing VRAM. Training with
mixed precision (`torch.cuda.amp`) did save VRAM, but constant CPU-GPU swapping made it crawl. Since
then, when VRAM is short, I reach for gradient checkpointing or model parallelism, not for swapping."

> [!errata] Mixed precision does not swap; offloading does, and done right it is a standard remedy
> - `torch.autocast` (`torch.cuda.amp`) only picks the dtype of each op; every tensor stays on the GPU, and `GradScaler` scales the loss on the GPU. Nothing AMP does crosses PCIe. What swapped was something else in the setup: an offload (DeepSpeed ZeRO-Offload, FSDP's `CPUOffload`, Accelerate's `device_map="auto"` putting layers on the CPU) or unified memory oversubscribed.
> - Offloading is not a mistake in itself; a naive one is. ZeRO-Offload keeps the fp32 master copy and Adam's state (12 B per parameter) in host RAM, lets the CPU run the update, and sends only 16-bit gradients down and 16-bit weights up: 4 B per parameter a step instead of 24. QLoRA's paged optimizers move state pages only under memory pressure.
> - It has a price you can compute before you try: bytes per step over the PCIe link against the step's compute. Lesson 1.5's experiment does it for a 7B model: the naive swap costs seconds a step, ZeRO-Offload a fraction of a second, which pays once a step has enough tokens.
> - Source: PyTorch docs, "Automatic Mixed Precision package - torch.amp"; Ren et al., "ZeRO-Offload: Democratizing Billion-Scale Model Training", USENIX ATC 2021; PyTorch docs, `torch.distributed.fsdp.CPUOffload`; Dettmers et al., "QLoRA", 2023, "Paged Optimizers".

> [!source] Sources
> - NVIDIA datasheets: T4 (320 GB/s), V100 (900 GB/s HBM2), A100 80GB (2039 GB/s HBM2e), H200 (4.8 TB/s HBM3e, 141 GB); NVIDIA Ampere GA102 whitepaper, table 1 (RTX 3090: 936 GB/s).
> - JEDEC JESD79-4 (DDR4) and JESD79-5 (DDR5): transfer rates; a channel is 64 data bits.
> - PCI-SIG PCIe 4.0 base specification (16 GT/s, 128b/130b: 31.5 GB/s per direction at x16); NVIDIA nvbandwidth (host-device copy measurements).
> - McCalpin, STREAM benchmark (triad, 24 bytes per element); the pointer chase and its method in lesson 3.3.
> - AMD EPYC 9004 series product specifications (12 DDR5 channels, up to 6 TB per socket).
> - Device-to-device copies by the copy engine, disputed on Hopper: NVIDIA nvbandwidth issue #48 (H20-3e: 1116 GB/s n/t, 46 % of the peak counted read + write), cuda-samples issue #366 (H20: 2.0 TB/s by the copy engine, 3.3 TB/s by a kernel), NCCL issue #1264 (HGX H100: about 75 %); the simulator's figures and their sources: `assets/gpus/*.txt`, `ce_efficiency` and `ce_source` (lesson 3.1).
> - PyTorch docs "torch.amp"; Ren et al., "ZeRO-Offload", USENIX ATC 2021; PyTorch FSDP `CPUOffload`; Dettmers et al., "QLoRA", 2023.
]], zh = [[
## 没有显存，训练就只剩 “1/30 的速度”？
讲义的例子：RTX 3090 显存带宽 936 GB/s，DDR4 内存约 25 GB/s，于是训练速度 “直接掉到 1/30”。936/25 = 37 是**带宽**之比，它只约束那些速度由访存量决定的算子。有两点需要说清楚：

- GPU 不能以 DDR 的速度读内存。放在系统内存里的数据要经过 PCIe 才能到 GPU：PCIe 4.0 x16 扣除编码后每个方向 31.5 GB/s，用锁页内存实际约 26 GB/s，可分页内存只有一半左右。上面的 “PCIe H2D” 柱就是本机的这条路径。
- 计算密集的工作（大矩阵乘）受影响远小于 37 倍；访存密集的小算子则会吃满这个比例甚至更多，因为 PCIe 的延迟是微秒级。

讲义的避坑指南：“我曾经犯过一个错误——以为显存不够可以用内存来凑。结果用 torch.cuda.amp 做混合精度训练时，显存确实省了，但频繁的 CPU-GPU 数据交换导致训练速度暴跌。后来我学乖了：显存不够时，优先考虑梯度检查点或模型并行，而不是依赖内存交换。”

> [!errata] 混合精度不会搬数据；搬数据的是卸载，而做对了的卸载是标准手段
> - `torch.autocast`（`torch.cuda.amp`）只决定每个算子用什么精度；所有张量都留在 GPU 上，`GradScaler` 也是在 GPU 上缩放损失。AMP 做的任何事都不经过 PCIe。真正在搬数据的是配置里的别的东西：某种卸载（DeepSpeed ZeRO-Offload、FSDP 的 `CPUOffload`、Accelerate 的 `device_map="auto"` 把部分层放到 CPU），或者超额使用的统一内存。
> - 卸载本身不是错，天真的卸载才是。ZeRO-Offload 把 fp32 主副本和 Adam 状态（每参数 12 B）放在主机内存里，由 CPU 做参数更新，每一步只把 16 位梯度传下去、16 位权重传上来：每参数每步 4 B，而不是 24 B。QLoRA 的分页优化器只在显存紧张时才搬动状态页。
> - 它的代价在动手之前就能算出来：每步经 PCIe 的字节数对比每步的计算时间。第 1.5 节的实验给 7B 模型算了这笔账：天真的交换每步要好几秒，ZeRO-Offload 只要零点几秒，每步 token 够多时就划算。
> - 出处：PyTorch 文档“Automatic Mixed Precision package - torch.amp”；Ren 等，《ZeRO-Offload: Democratizing Billion-Scale Model Training》，USENIX ATC 2021；PyTorch 文档 `torch.distributed.fsdp.CPUOffload`；Dettmers 等，《QLoRA》，2023，“Paged Optimizers”一节。

> [!source] 出处
> - NVIDIA 数据表：T4（320 GB/s）、V100（900 GB/s HBM2）、A100 80GB（2039 GB/s HBM2e）、H200（4.8 TB/s HBM3e，141 GB）；NVIDIA Ampere GA102 白皮书表 1（RTX 3090：936 GB/s）。
> - JEDEC JESD79-4（DDR4）与 JESD79-5（DDR5）：传输速率；每个通道 64 位数据线。
> - PCI-SIG PCIe 4.0 基础规范（16 GT/s，128b/130b：x16 每方向 31.5 GB/s）；NVIDIA nvbandwidth（主机与设备间拷贝的实测）。
> - McCalpin，STREAM 基准（triad 每元素 24 字节）；指针追逐及其方法见第 3.3 节。
> - AMD EPYC 9004 系列产品规格（12 个 DDR5 通道，每颗最多 6 TB）。
> - 拷贝引擎做的显存内拷贝（在 Hopper 上有争议）：NVIDIA nvbandwidth issue #48（H20-3e：1116 GB/s，n/t，按读 + 写计为峰值的 46%）、cuda-samples issue #366（H20：拷贝引擎 2.0 TB/s，核函数 3.3 TB/s）、NCCL issue #1264（HGX H100：约 75%）；模拟器的数字及其来源：`assets/gpus/*.txt` 的 `ce_efficiency` 和 `ce_source`（第 3.1 节）。
> - PyTorch 文档“torch.amp”；Ren 等，《ZeRO-Offload》，USENIX ATC 2021；PyTorch FSDP `CPUOffload`；Dettmers 等，《QLoRA》，2023。
]] },

  exercise {
    id = "ratio",
    kind = "number",
    prompt = { en = "The lecture compares an RTX 3090 (936 GB/s) with DDR4 at 25 GB/s. By what factor is VRAM's bandwidth larger? (a plain number)",
               zh = "讲义拿 RTX 3090（936 GB/s）和 25 GB/s 的 DDR4 比较。显存带宽是内存的多少倍？（填一个数字）" },
    answer = 37.44, tolerance = 0.03,
    hints = { { en = "Divide one bandwidth by the other; both are in GB/s.", zh = "用一个带宽除以另一个；两者单位都是 GB/s。" } },
    explain = { en = "936 / 25 = 37.4. The lecture rounds this to \"1/30 of the speed\": a bandwidth ratio, which bounds only memory-bound work.",
                zh = "936 / 25 = 37.4。讲义把它说成 “速度掉到 1/30”：这是带宽之比，只约束访存密集的工作。" },
  },

  exercise {
    id = "path",
    kind = "choice",
    prompt = { en = "A GPU kernel needs data that sits in system RAM. What limits how fast it arrives?",
               zh = "某个 GPU 核函数需要的数据放在系统内存里。是什么限制了数据到达的速度？" },
    choices = {
      { en = "The DDR bandwidth (about 50-80 GB/s on a desktop)", zh = "DDR 带宽（桌面机约 50–80 GB/s）" },
      { en = "The PCIe link (about 26 GB/s pinned on gen4 x16)", zh = "PCIe 链路（PCIe 4.0 x16 锁页内存约 26 GB/s）" },
      { en = "The GPU's L2 cache size", zh = "GPU 的 L2 缓存大小" },
    },
    answer = 2,
    hints = { { en = "Which wire connects the graphics card to the motherboard?", zh = "显卡和主板之间靠哪条链路相连？" } },
    explain = { en = "Everything between system RAM and the GPU crosses PCIe (or NVLink-C2C on Grace Hopper). At ~26 GB/s pinned it is slower than the DDR behind it and ~35x slower than GDDR6X.",
                zh = "系统内存和 GPU 之间的一切数据都要经过 PCIe（Grace Hopper 上是 NVLink-C2C）。锁页内存约 26 GB/s，比背后的 DDR 还慢，比 GDDR6X 慢约 35 倍。" },
  },

}
