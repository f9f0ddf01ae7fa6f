-- Lesson 7.5: the roofline of a kernel. This device's FP32 roof: its FP32 peak (SMs x FP32 lanes
-- x 2 x clock, gpu.info().fp32_flops) and the bandwidth a streaming kernel measures; under it,
-- three kernels of the chapter measured and placed by their arithmetic intensity (FLOPs per byte
-- the sectors carry): the particle kernel of 7.1 as structs and as arrays, and a Horner
-- polynomial swept from 1 to 4096 FMAs per element across the ridge (gpu.fma); decode (5.4) as
-- the reference it is.
local MiB = units.MiB
local GB = 1e9

local function fma_bytes()
  local b = math.min(256 * MiB, gpu.budget() // 3)
  return b - b % 4096
end

-- the particles of 7.1: 8 Mi, more where their arrays would span under 4x the L2 (then read
-- from DRAM, under the roof drawn here), fewer where the widest structs would not fit
local function particles()
  local l2 = gpu.info().l2_bytes or 4 * MiB
  local n = math.min(math.max(2^23, 4 * l2 // 16), gpu.budget() // 80)
  return math.max(1024, n - n % 1024)
end

return lesson {
  id = "7.5",
  chapter = 7,
  chapter_title = { en = "Inside the memory system", zh = "深入内存系统" },
  title = { en = "The roofline of a kernel", zh = "核函数的屋顶线（roofline）" },
  requires = { "gpu" },

  text { en = [[
# The roofline of a kernel

Lesson 5.4 placed decode and prefill on a roofline (Williams, Waterman and Patterson, 2009):
attainable FLOP/s = min(peak FLOP/s, intensity x bandwidth), where the **arithmetic intensity**
is the FLOPs a kernel does per byte it moves, and the two roofs meet at the **ridge point**,
peak / bandwidth. This lesson does the same for kernels, measured.

**Which bytes?** The bytes the memory system moves, not the bytes the program uses. The particle
kernel of lesson 7.1 does 5 FLOPs per particle (three multiplications, two additions) whatever its
layout, but as 32-byte structs its sectors carry 36 bytes per particle and as arrays 16: an
intensity of 5 / 36 = 0.14 or 5 / 16 = 0.31 FLOP/B. A bad access pattern moves a kernel **left**
on the roofline, under a lower roof, without changing a line of its arithmetic.

**This device's roof.** FP32 peak = SMs x FP32 lanes per SM x 2 (an FMA is two FLOPs) x the
clock: an RTX 3090, 82 x 128 x 2 x 1.70 GHz = 35.6 TFLOP/s; divided by its 936 GB/s, a ridge at
38 FLOP/B. An H100 SXM: 66.9 TFLOP/s over 3.35 TB/s, 20 FLOP/B. Kernels below the ridge wait on
memory, kernels above it on arithmetic. (The tensor cores have their own, much higher roof: 5.4's
295 FLOP/B on an H100 is the FP16 tensor ridge.)

The experiment sweeps the third kernel across the ridge: y = p(x) with p a polynomial of degree k
by Horner's rule, k FMAs per element, 4 bytes read and 4 written: an intensity of 2k / 8 = k / 4
FLOP/B. At k = 1 it is a copy that does a little arithmetic; at k = 4096 it never waits for memory.

A transpose does no arithmetic at all (intensity 0): it has no place on a logarithmic axis, and no
roof but the bandwidth, which is why lesson 7.3 measures it in GB/s.
]], zh = [[
# 核函数的屋顶线（roofline）

第 5.4 节把解码和预填充放到了 roofline 上（Williams、Waterman、Patterson，2009）：可达 FLOP/s = min(峰值 FLOP/s，强度 × 带宽)，其中**算术强度**是核函数每搬运一个字节做的浮点运算次数，两条屋顶线相交于**脊点**：峰值 / 带宽。这一节对核函数做同样的事，而且是实测的。

**哪些字节？**是内存系统搬运的字节，而不是程序用到的字节。第 7.1 节的粒子核函数不管怎样存放，每个粒子都做 5 次浮点运算（三次乘法、两次加法）；但按 32 字节的结构体存放时，扇区为每个粒子搬 36 字节，按数组存放时是 16 字节：强度分别为 5 / 36 = 0.14 和 5 / 16 = 0.31 FLOP/B。糟糕的访问方式会把核函数在 roofline 上**往左**推，推到更低的屋顶下，而它的算术一行也没变。

**本设备的屋顶。**FP32 峰值 = SM 数 × 每个 SM 的 FP32 单元数 × 2（一次 FMA 是两次浮点运算）× 频率：RTX 3090 是 82 × 128 × 2 × 1.70 GHz = 35.6 TFLOP/s；除以它的 936 GB/s，脊点在 38 FLOP/B。H100 SXM：66.9 TFLOP/s 除以 3.35 TB/s，20 FLOP/B。脊点左边的核函数在等内存，右边的在等算术。（张量核心另有一个高得多的屋顶：第 5.4 节 H100 的 295 FLOP/B 是 FP16 张量的脊点。）

实验让第三个核函数横跨脊点：y = p(x)，p 是用 Horner 法则计算的 k 次多项式，每个元素 k 次 FMA，读 4 字节、写 4 字节：强度为 2k / 8 = k / 4 FLOP/B。k = 1 时它就是一个顺便做点算术的拷贝；k = 4096 时它从不等内存。

转置根本不做算术（强度为 0）：它在对数坐标轴上没有位置，除了带宽也没有别的屋顶，所以第 7.3 节用 GB/s 来衡量它。
]] },

  exercise {
    id = "predict-soa",
    kind = "predict",
    prompt = { en = "Predict the GFLOP/s the particle kernel reaches as arrays on this device (intensity 0.31 FLOP/B).",
               zh = "预测按数组存放的粒子核函数在本设备上能达到多少 GFLOP/s（强度 0.31 FLOP/B）。" },
    unit = "GFLOP/s", tolerance = 0.3,
    measure = function()
      local r = assert(gpu.layout { layout = "soa", particles = particles() })
      return r.flops_per_s / GB, r
    end,
    hints = { { en = "Below the ridge: intensity x bandwidth.", zh = "在脊点左边：强度 × 带宽。" } },
    explain = { en = "About 0.31 FLOP/B x this device's bandwidth: about 0.1 TFLOP/s on a T4 (320 GB/s), 1 TFLOP/s on an H100 SXM (3.35 TB/s), 1-2 % of the FP32 peak either way. The roofline says so before the kernel runs.",
                zh = "约为 0.31 FLOP/B × 本设备的带宽：T4（320 GB/s）上约 0.1 TFLOP/s，H100 SXM（3.35 TB/s）上约 1 TFLOP/s，无论哪种都只有 FP32 峰值的 1–2 %。核函数还没跑，roofline 就已经告诉你了。" },
  },

  experiment {
    id = "roofline",
    key = "r",
    title = { en = "Three kernels on this device's roofline", zh = "本设备 roofline 上的三个核函数" },
    intro = { en = [[
The roof: this device's FP32 peak (from its SM count, FP32 lanes and clock) and the bandwidth the
Horner kernel measures at one FMA per element. Under it, measured: the Horner kernel at 1 to 4096
FMAs per element, and the particle kernel as 32-byte structs and as arrays. Every output is
checked. Intensities count the bytes the sectors carry.
]], zh = [[
屋顶：本设备的 FP32 峰值（由 SM 数、FP32 单元数和频率算出）和 Horner 核函数在每个元素一次 FMA 时测得的带宽。屋顶之下是实测的：每个元素 1 到 4096 次 FMA 的 Horner 核函数，以及按 32 字节结构体和按数组存放的粒子核函数。每个输出都经过核对。强度按扇区搬运的字节计算。
]] },
    panels = {
      { id = "r", kind = "curve", title = { en = "Roofline (GFLOP/s vs FLOP/B)", zh = "Roofline（GFLOP/s 对 FLOP/B）" },
        x = "FLOP/B", y = "GFLOP/s", logx = true },
      { id = "t", kind = "table", title = { en = "Each kernel under its roof", zh = "各核函数与它的屋顶" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local info = gpu.info()
      local peak = info.fp32_flops
      if not peak then
        ex:note("r", T("This device's FP32 peak is unknown (SM count, lanes or clock): no roof to draw.",
                       "本设备的 FP32 峰值未知（SM 数、单元数或频率不明）：画不出屋顶。"))
        ex:status(T("done", "完成"))
        return
      end
      local bytes = fma_bytes()
      local base, err = gpu.fma { fmas = 1, bytes = bytes }
      if not base then ex:note("r", err); ex:status(T("failed", "失败")); return end
      local bw = base.bytes_per_s
      for e = -4, 13 do
        local i = 2 ^ e
        ex:point("r", T("roof", "屋顶"), i, math.min(peak, i * bw) / 1e9, { style = "theoretical" })
      end
      ex:row("t", { T("kernel", "核函数"), "FLOP/B", "GFLOP/s", T("roof there", "该处屋顶"), T("of the roof", "占屋顶"),
                    T("bound", "受限于") })
      local function place(name, series, r)
        local roof = math.min(peak, r.intensity * bw)
        ex:point("r", series, r.intensity, r.flops_per_s / 1e9, { from = r })
        ex:row("t", { name, string.format(r.intensity >= 100 and "%.0f" or "%.3g", r.intensity), string.format("%.0f", r.flops_per_s / 1e9),
                      string.format("%.0f", roof / 1e9), string.format("%.0f %%", 100 * r.flops_per_s / roof),
                      r.intensity * bw < peak and T("memory", "内存") or T("compute", "计算") })
      end
      for _, k in ipairs { 1, 4, 16, 64, 256, 1024, 4096 } do
        ex:status(string.format("%d FMA", k))
        local r, e2 = k == 1 and base or gpu.fma { fmas = k, bytes = bytes }
        if not r then ex:note("t", e2); break end
        place(string.format(T("Horner, %d FMA", "Horner，%d 次 FMA"), k), T("Horner kernel", "Horner 核函数"), r)
      end
      local n = particles()
      for _, c in ipairs { { "aos", "particles, 32-byte structs", "粒子，32 字节结构体" }, { "soa", "particles, arrays", "粒子，数组" } } do
        local r, e3 = gpu.layout { layout = c[1], particles = n }
        if not r then ex:note("t", e3); break end
        place(T(c[2], c[3]), T(c[2], c[3]), r)
      end
      ex:note("r", string.format(T("FP32 peak %.1f TFLOP/s (%d SMs x %d lanes x 2 x %.0f MHz) / %s measured = ridge at %.1f FLOP/B.",
                                   "FP32 峰值 %.1f TFLOP/s（%d 个 SM × %d 个单元 × 2 × %.0f MHz）/ 实测 %s = 脊点 %.1f FLOP/B。"),
                                 peak / 1e12, info.sm_count, info.fp32_lanes_per_sm, info.sm_clock_mhz, units.rate(bw), peak / bw))
      ex:note("t", T("Decode at batch 1 (lesson 5.4): about 1 FLOP/B, with the particle kernels on the memory side of any ridge.",
                     "batch 1 的解码（第 5.4 节）：约 1 FLOP/B，和粒子核函数一样在任何脊点的内存一侧。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the chart
- Left of the ridge, the measured points follow the sloped roof: each doubling of FMAs doubles
  the FLOP/s, for free, because the kernel was waiting on memory anyway. That is why fusing
  operations (doing more arithmetic per byte loaded) pays on a GPU.
- Right of the ridge the points flatten under the peak: the kernel now waits on its arithmetic,
  and more FMAs cost time in proportion.
- The particle kernels sit far left: memory-bound, whatever the layout; the layout decides how
  far left, and so how low their roof.
- Decode at batch 1 does about 1 FLOP per byte (lesson 5.4): it lives where the particle kernels
  live. Batching is to decode what more FMAs per element are to the Horner kernel: it raises the
  intensity, and the FLOP/s rise with it until the ridge.
- A kernel whose working set fits in the L2 (lesson 7.2) sits under a higher, L2 roof; the
  roofline drawn here is DRAM's.
]], zh = [[
## 怎样读这张图
- 脊点左边，实测的点沿着斜的屋顶走：FMA 次数每翻一倍，FLOP/s 也翻一倍，而且不花代价，因为核函数反正都在等内存。这就是在 GPU 上融合算子（每加载一个字节做更多算术）划算的原因。
- 脊点右边，点在峰值下方变平：核函数现在在等它的算术，FMA 再多，时间就按比例增加。
- 粒子核函数远在左边：不管怎样存放都受限于内存；存放方式决定它们有多靠左，也就决定了屋顶有多低。
- batch 1 的解码每字节约做 1 次浮点运算（第 5.4 节）：它和粒子核函数在同一个区域。批处理之于解码，正如增加每个元素的 FMA 次数之于 Horner 核函数：它提高强度，FLOP/s 随之上升，直到脊点。
- 工作集装得进 L2 的核函数（第 7.2 节）头上是更高的 L2 屋顶；这里画的是显存的 roofline。
]] },

  exercise {
    id = "soa-intensity",
    kind = "number",
    prompt = { en = "The particle kernel does 5 FLOPs per particle; as arrays it reads x, y, z (4 bytes each) and writes r² (4 bytes). Its arithmetic intensity, in FLOP/B?",
               zh = "粒子核函数每个粒子做 5 次浮点运算；按数组存放时它读 x、y、z（各 4 字节），写 r²（4 字节）。它的算术强度是多少 FLOP/B？" },
    answer = 5 / 16, unit = "FLOP/B", tolerance = 0.02,
    mistakes = {
      { value = 5 / 12, say = { en = "The bytes written count too: 12 read + 4 written = 16 bytes per particle.", zh = "写的字节也要算：读 12 + 写 4 = 每个粒子 16 字节。" } },
      { value = 5 / 36, say = { en = "36 bytes is the array-of-structs layout's sector traffic; as arrays the sectors carry only the 16 bytes used.",
                                zh = "36 字节是结构体数组存放时扇区的流量；按数组存放时扇区只搬用到的 16 字节。" } },
    },
    hints = { { en = "Intensity = FLOPs / bytes moved, reads and writes together.", zh = "强度 = 浮点运算次数 / 搬运的字节（读写都算）。" } },
    explain = { en = "5 / 16 = 0.31 FLOP/B, a hundred times left of the FP32 ridge: memory-bound. The AoS layout's 36 bytes make it 0.14.",
                zh = "5 / 16 = 0.31 FLOP/B，在 FP32 脊点左边一百倍远：受限于内存。结构体数组的 36 字节让它降到 0.14。" },
  },

  exercise {
    id = "ridge-3090",
    kind = "number",
    prompt = { en = "An RTX 3090: 35.6 TFLOP/s FP32, 936 GB/s. Where is its FP32 ridge point, in FLOP/B?",
               zh = "一块 RTX 3090：FP32 35.6 TFLOP/s，带宽 936 GB/s。它的 FP32 脊点在多少 FLOP/B？" },
    answer = 35.6e12 / 936e9, unit = "FLOP/B", tolerance = 0.03,
    mistakes = {
      { value = 71e12 / 936e9, say = { en = "That is the FP16 tensor-core ridge (71 TFLOP/s); the question asks for plain FP32.",
                                       zh = "那是 FP16 张量核心的脊点（71 TFLOP/s）；题目问的是普通 FP32。" } },
    },
    hints = { { en = "Ridge = peak FLOP/s / bandwidth in bytes/s.", zh = "脊点 = 峰值 FLOP/s / 带宽（字节/秒）。" } },
    explain = { en = "35.6e12 / 936e9 = 38 FLOP/B: a kernel needs 38 FLOPs per byte moved before the 3090's FP32 units, not its memory, set its pace.",
                zh = "35.6e12 / 936e9 = 38 FLOP/B：核函数每搬一个字节要做 38 次浮点运算，决定速度的才会是 3090 的 FP32 单元而不是显存。" },
  },

  exercise {
    id = "fmas-ridge",
    kind = "number",
    prompt = { en = "The Horner kernel reads 4 bytes and writes 4 bytes per element and does k FMAs on it. How many FMAs per element put it at a ridge of 38 FLOP/B?",
               zh = "Horner 核函数每个元素读 4 字节、写 4 字节，做 k 次 FMA。每个元素多少次 FMA 能让它正好到达 38 FLOP/B 的脊点？" },
    answer = 152, unit = "FMAs", tolerance = 0.02,
    mistakes = {
      { value = 304, say = { en = "An FMA is two FLOPs (a multiply and an add): the intensity is 2k / 8.", zh = "一次 FMA 是两次浮点运算（一次乘一次加）：强度是 2k / 8。" } },
      { value = 76, say = { en = "The 4 bytes written count too: 8 bytes per element.", zh = "写的 4 字节也要算：每个元素 8 字节。" } },
    },
    hints = { { en = "Intensity = 2k FLOPs / 8 bytes; set it equal to 38.", zh = "强度 = 2k 次浮点运算 / 8 字节；令它等于 38。" } },
    explain = { en = "2k / 8 = 38 gives k = 152. Below that the kernel's FLOP/s grow with k at no cost in time; above it, each FMA costs time.",
                zh = "2k / 8 = 38，得 k = 152。低于它，核函数的 FLOP/s 随 k 增长而不多花时间；高于它，每多一次 FMA 都要花时间。" },
  },

  exercise {
    id = "decode-side",
    kind = "choice",
    prompt = { en = "Decode at batch 1 does about 1 FLOP per byte (lesson 5.4). On an RTX 3090's FP32 roofline (ridge 38 FLOP/B), where does it sit?",
               zh = "batch 1 的解码每字节约做 1 次浮点运算（第 5.4 节）。在 RTX 3090 的 FP32 roofline（脊点 38 FLOP/B）上，它在哪里？" },
    choices = {
      { en = "Far left of the ridge, with the particle kernels: bound by memory bandwidth", zh = "远在脊点左边，和粒子核函数在一起：受限于显存带宽" },
      { en = "Right of the ridge: bound by the FP32 units", zh = "在脊点右边：受限于 FP32 单元" },
      { en = "At the ridge: both limits at once", zh = "正好在脊点：两个限制同时起作用" },
    },
    answer = 1,
    why = {
      [2] = { en = "1 FLOP/B is 38 times left of the ridge: the memory finishes last.", zh = "1 FLOP/B 在脊点左边 38 倍远：最后完成的是内存。" },
      [3] = { en = "The ridge is at 38 FLOP/B; decode does 1.", zh = "脊点在 38 FLOP/B；解码只有 1。" },
    },
    hints = { { en = "Compare 1 FLOP/B with 38 FLOP/B.", zh = "拿 1 FLOP/B 和 38 FLOP/B 比一比。" } },
    explain = { en = "1 FLOP/B is on the sloped roof, where attainable FLOP/s = intensity x bandwidth: decode's speed is set by the bytes, as 5.4 measured. Batching raises its intensity, as more FMAs raise the Horner kernel's.",
                zh = "1 FLOP/B 在斜的屋顶上，那里可达 FLOP/s = 强度 × 带宽：解码的速度由字节决定，和第 5.4 节测到的一样。批处理提高它的强度，就像增加 FMA 提高 Horner 核函数的强度。" },
  },

  text { en = [[
> [!source] Sources
> - Williams, Waterman, Patterson, "Roofline: An Insightful Visual Performance Model for
>   Multicore Architectures", Communications of the ACM 52(4), 2009.
> - Yang, Kurth, Williams, "Hierarchical Roofline analysis for GPUs", Concurrency and
>   Computation: Practice and Experience, 2020; NVIDIA Nsight Compute Kernel Profiling Guide,
>   "Roofline Charts".
> - FP32 peaks: NVIDIA Ampere GA102 whitepaper (RTX 3090: 35.6 TFLOPS, 82 SMs, 128 FP32 per SM;
>   71 TFLOPS FP16 tensor with FP32 accumulate; 936 GB/s); H100 Tensor Core GPU architecture
>   whitepaper and datasheet (H100 SXM: 66.9 TFLOPS FP32, 3.35 TB/s).
> - NVIDIA, CUDA C++ Programming Guide, "Arithmetic Instructions" throughput table (FP32 results
>   per clock per SM by compute capability).
> - Decode's intensity: lesson 5.4 and docs/vram-infer.md.
> - The figures above: this device, measured (or SIMULATED from its profile, docs/simulator.md).
]], zh = [[
> [!source] 出处
> - Williams、Waterman、Patterson，《Roofline: An Insightful Visual Performance Model for Multicore Architectures》，《Communications of the ACM》52(4)，2009。
> - Yang、Kurth、Williams，《Hierarchical Roofline analysis for GPUs》，《Concurrency and Computation: Practice and Experience》，2020；NVIDIA《Nsight Compute Kernel Profiling Guide》"Roofline Charts"。
> - FP32 峰值：NVIDIA Ampere GA102 白皮书（RTX 3090：35.6 TFLOPS，82 个 SM，每个 SM 128 个 FP32 单元；FP32 累加的 FP16 张量算力 71 TFLOPS；936 GB/s）；H100 Tensor Core GPU 架构白皮书与数据手册（H100 SXM：FP32 66.9 TFLOPS，3.35 TB/s）。
> - NVIDIA，《CUDA C++ Programming Guide》“Arithmetic Instructions”吞吐量表（各计算能力每个 SM 每个时钟的 FP32 结果数）。
> - 解码的强度：第 5.4 节与 docs/vram-infer.md。
> - 上面的数字：本设备实测（或按其配置模拟，见 docs/simulator.md）。
]] },
}
