-- Lesson 3.1: bandwidth against transfer size. Why a small copy never reaches the spec sheet, and
-- where the curve saturates: measured on the learner's GPU (or SIMULATED), one point at a time.
local KiB, MiB, GiB = units.KiB, units.MiB, units.GiB

local function sizes(limit)
  local out, n = {}, KiB
  while n <= limit do out[#out + 1] = n; n = n * 4 end
  return out
end

-- The smallest size whose bandwidth reaches `frac` of the sustained rate: Hockney's n½ at 0.5,
-- the knee (where the curve flattens out) at 0.9. The rate is the best of the sizes that stream
-- from DRAM (p.dram: for a device copy, source and destination 4x past the L2, STREAM's rule); a
-- copy that stays in L2 runs faster than the path can sustain. Without such a size, the best of
-- those not in L2, else of all. Returns the size, the sustained rate and the size's own rate.
local function half_point(points, frac)
  local best = 0
  for _, want in ipairs { "dram", "past_l2", "any" } do
    for _, p in ipairs(points) do
      if want == "any" or p[want] then best = math.max(best, p.bw) end
    end
    if best > 0 then break end
  end
  for _, p in ipairs(points) do if p.bw >= best * (frac or 0.5) then return p.n, best, p.bw end end
end

return lesson {
  id = "3.1",
  chapter = 3,
  chapter_title = { en = "Measuring memory", zh = "测量显存" },
  title = { en = "Bandwidth vs transfer size", zh = "带宽与传输大小" },
  requires = { "gpu" },

  text { en = [[
# Bandwidth vs transfer size

A spec sheet gives one number: 936 GB/s for an RTX 3090, 31.5 GB/s for a PCIe 4.0 x16 link. A real
copy of n bytes takes

`t(n) = t0 + n / B`

where `t0` is the fixed cost of starting it (a driver call, a DMA descriptor, a kernel launch: a few
microseconds) and `B` the bandwidth the path sustains. The achieved bandwidth `n / t(n)` is tiny for
small n and only approaches B when n is large enough that `t0` no longer matters. The size at which
half of B is reached is Hockney's **n½ = t0 × B**: for a 5 us overhead on a device copy that sustains
450 GB/s counted n/t, as this sweep counts (an RTX 3090's 936 GB/s peak counts read + write), n½ is
2.25 MB. Every copy smaller than that runs at less than half speed.

## What the sweep measures
- **H2D / D2H**: host to device and back over PCIe, from **pinned** (page-locked) and **pageable**
  host memory. A pageable copy is staged through a driver-owned pinned buffer, one chunk at a time.
- **D2D**: a copy inside VRAM, by the **copy engine** (`cudaMemcpy`) and by an **SM kernel**.
- Sizes from 1 KiB up by x4, as far as the experiment cap allows. Each point is the best of 5
  timed trials after a warm-up; a trial repeats the copy back to back for about 20 ms.
- The GPU starts a timed batch (at most 256 copies) only once all of it is queued: a spin kernel
  holds the stream meanwhile (nvbandwidth's method). Without it, a 4 KiB copy would be timed at
  the rate the host can queue copies, a few microseconds each, not at the rate the GPU moves them.
  A pageable copy cannot be held (the call waits for the copy), so its small end includes the call.
- After the trials every destination is compared with the source's pattern: a copy that moved the
  wrong bytes is an error, not a number.
- Bandwidth here is **n/t**, the bytes of one transfer per second (nvbandwidth's convention). For a
  device copy, VRAM moves twice that: n read + n written (bandwidthTest reports 2n/t).
]], zh = [[
# 带宽与传输大小

规格表只给一个数：RTX 3090 是 936 GB/s，PCIe 4.0 x16 是 31.5 GB/s。而一次 n 字节的真实拷贝耗时为

`t(n) = t0 + n / B`

其中 `t0` 是启动一次拷贝的固定开销（一次驱动调用、一个 DMA 描述符或一次核函数启动：几微秒），`B` 是这条路径能持续的带宽。实际带宽 `n / t(n)` 在 n 很小时非常低，只有当 n 大到 `t0` 可以忽略时才接近 B。达到 B 一半所需的大小就是 Hockney 的 **n½ = t0 × B**：5 微秒开销、按 n/t 计（本扫描的计法）持续 450 GB/s 的显存内拷贝（RTX 3090 的 936 GB/s 峰值按读 + 写计），n½ 是 2.25 MB。比它小的拷贝，速度都不到一半。

## 扫描测什么
- **H2D / D2H**：主机到设备和反方向，经过 PCIe，分别用**锁页**（pinned）内存和**可分页**（pageable）内存。可分页内存的拷贝要经过驱动自己的锁页缓冲区，一段一段地中转。
- **D2D**：显存内拷贝，分别由**拷贝引擎**（`cudaMemcpy`）和 **SM 核函数**完成。
- 大小从 1 KiB 起按 4 倍递增，直到实验上限。每个点是预热后 5 次计时中的最好值；每次计时把同一拷贝背靠背重复约 20 毫秒。
- 每批计时（最多 256 次拷贝）要等全部排入队列后 GPU 才开始：其间由一个自旋核函数挡住流（nvbandwidth 的方法）。否则 4 KiB 的拷贝测到的是主机排队的速度（每次几微秒），而不是 GPU 搬数据的速度。可分页拷贝无法这样挡住（调用要等拷贝完成），所以它的小尺寸端包含调用本身的开销。
- 计时结束后，每个目标缓冲区都会与源数据的模式逐字节比对：拷错了就报错，不给数字。
- 这里的带宽是 **n/t**，即每秒完成的单次传输字节数（nvbandwidth 的算法）。显存内拷贝时显存实际搬运两倍：读 n、写 n（bandwidthTest 报告 2n/t）。
]] },

  exercise {
    id = "predict-h2d",
    kind = "predict",
    prompt = { en = "Predict the pinned host-to-device bandwidth of this machine for a 64 MiB transfer, in GB/s (n/t).",
               zh = "预测本机 64 MiB 锁页内存主机到设备传输的带宽，单位 GB/s（n/t）。" },
    unit = "GB/s", tolerance = 0.3,
    measure = function()
      local r = assert(gpu.copy { dir = "h2d", bytes = math.min(64 * MiB, gpu.budget()), pinned = true, trials = 5 })
      return r.bytes_per_s / 1e9, r
    end,
    hints = { { en = "Start from the link: PCIe gen3 x16 is 15.8 GB/s, gen4 31.5 GB/s, gen5 63 GB/s per direction; DMA reaches about 80-85% of it.",
                zh = "从链路算起：PCIe 3.0 x16 每方向 15.8 GB/s，4.0 是 31.5 GB/s，5.0 是 63 GB/s；DMA 能跑到约 80–85%。" } },
    explain = { en = "Payload rate = GT/s × lanes × 128/130 / 8; packet headers and flow control leave about 80-85% of that for data.",
                zh = "有效速率 = GT/s × 通道数 × 128/130 / 8；包头和流控开销之后，数据大约能用到其中的 80–85%。" },
  },

  experiment {
    id = "sweep",
    key = "curve",
    title = { en = "Sweep 1 KiB → 1 GiB", zh = "扫描 1 KiB → 1 GiB" },
    panels = {
      { id = "curve", kind = "curve", title = { en = "Bandwidth vs size (n/t)", zh = "带宽随大小变化（n/t）" },
        x = "bytes", y = "GB/s", logx = true },
      { id = "t", kind = "table", title = { en = "Half-bandwidth size n½", zh = "半带宽点 n½" } },
    },
    run = function(ex)
      local budget = gpu.budget()
      local paths = {
        { name = "H2D pinned", label = ex:t { en = "H2D pinned", zh = "H2D 锁页" }, q = { dir = "h2d", pinned = true }, cap = budget, short = "H2D" },
        { name = "H2D pageable", label = ex:t { en = "H2D pageable", zh = "H2D 可分页" }, q = { dir = "h2d", pinned = false }, cap = budget },
        { name = "D2H pinned", label = ex:t { en = "D2H pinned", zh = "D2H 锁页" }, q = { dir = "d2h", pinned = true }, cap = budget },
        { name = "D2D copy engine", label = ex:t { en = "D2D copy engine", zh = "D2D 拷贝引擎" }, q = { dir = "d2d", method = "ce" }, cap = budget // 2, short = "D2D",
          l2label = ex:t { en = "D2D copy engine, in L2", zh = "D2D 拷贝引擎，在 L2 中" } },
        { name = "D2D SM kernel", label = ex:t { en = "D2D SM kernel", zh = "D2D SM 核函数" }, q = { dir = "d2d", method = "sm" }, cap = budget // 2,
          l2label = ex:t { en = "D2D SM kernel, in L2", zh = "D2D SM 核函数，在 L2 中" } },
      }
      -- a device copy whose source and destination (2n) fit in L2 is served from L2: drawn as a
      -- series of its own and left out of the sustained rate
      local l2 = gpu.info().l2_bytes
      local bests = {}
      ex:row("t", { ex:t { en = "path", zh = "路径" }, ex:t { en = "best (n/t)", zh = "最高（n/t）" }, "n½",
                    ex:t { en = "at 64 KiB", zh = "64 KiB 时" } })
      for _, p in ipairs(paths) do
        local pts, at64 = {}, nil
        for _, n in ipairs(sizes(math.min(GiB, p.cap))) do
          ex:status(string.format("%s %s", p.label, units.bytes(n)))
          local q = { bytes = n, trials = 5 }
          for k, v in pairs(p.q) do q[k] = v end
          local r, err = gpu.copy(q)
          if not r then ex:note("curve", p.label .. ": " .. err) break end
          local in_l2 = p.l2label and l2 and 2 * n <= l2
          pts[#pts + 1] = { n = n, bw = r.bytes_per_s, past_l2 = not (p.l2label and l2) or 2 * n > l2,
                            dram = not (p.l2label and l2) or 2 * n >= 4 * l2 }
          if n == 64 * KiB then at64 = r.bytes_per_s end
          ex:point("curve", in_l2 and p.l2label or p.label, n, r.bytes_per_s / 1e9, { from = r })
        end
        local nh, best, at_nh = half_point(pts)
        bests[p.name] = best
        -- on the curve, for one path over PCIe and one inside VRAM: where half the rate is
        -- reached, and the knee past which a larger copy gains little
        if nh and p.short then
          ex:mark("curve", ex:t { en = "n½ " .. p.short, zh = "n½ " .. p.short }, nh, at_nh / 1e9)
          local nk, _, at_nk = half_point(pts, 0.9)
          if nk and nk ~= nh then
            ex:mark("curve", ex:t { en = "knee " .. p.short, zh = "拐点 " .. p.short }, nk, at_nk / 1e9)
          end
        end
        if nh then
          ex:row("t", { p.label, units.rate(best), units.bytes(nh),
                        at64 and string.format("%.0f%%", 100 * at64 / best) or "n/a" })
        end
      end
      local i = gpu.info()
      if l2 then
        ex:note("t", ex:t { en = string.format("D2D: best and n½ from copies with source and destination at least 4x the %s L2 (STREAM's rule); the smaller ones in L2 are their own series on the curve.", units.bytes(l2)),
                            zh = string.format("D2D：最高值和 n½ 取自源加目标至少是 %s L2 四倍的拷贝（STREAM 的规则）；能放进 L2 的较小拷贝在曲线上单列一条。", units.bytes(l2)) })
      end
      if i.pcie_bytes_per_s then
        ex:note("t", ex:t { en = "PCIe link: " .. units.rate(i.pcie_bytes_per_s) .. " per direction after encoding",
                            zh = "PCIe 链路：扣除编码后每方向 " .. units.rate(i.pcie_bytes_per_s) })
      end
      local ce, sm, peak = bests["D2D copy engine"], bests["D2D SM kernel"], i.peak_bytes_per_s
      if ce and sm and peak and not i.simulated then
        ex:note("t", ex:t { en = string.format("This GPU: copy engine %.0f%% of the theoretical peak, SM kernel %.0f%% (best sizes past the L2, counted 2n/t); the copy engine moves %.2fx what the SM kernel does.",
                                               200 * ce / peak, 200 * sm / peak, ce / sm),
                            zh = string.format("本机：拷贝引擎为理论峰值的 %.0f%%，SM 核函数 %.0f%%（各自在 L2 之外最好的大小，按 2n/t 计）；拷贝引擎的速率是 SM 核函数的 %.2f 倍。",
                                               200 * ce / peak, 200 * sm / peak, ce / sm) })
      end
      if i.simulated then
        ex:note("curve", ex:t { en = "SIMULATED: the curve is the simulator's model (docs/simulator.md)",
                                zh = "模拟：曲线来自模拟器的模型（docs/simulator.md）" })
        local m = i.model
        if m then
          ex:note("t", ex:t { en = string.format("Model of large D2D copies: copy engine %.0f%% of peak (%s); SM kernel %.0f%% (%s).",
                                                 100 * m.ce_efficiency, m.ce_source, 100 * m.sm_efficiency, m.sm_source),
                              zh = string.format("大块 D2D 拷贝的模型：拷贝引擎为峰值的 %.0f%%（配置文件原文：%s）；SM 核函数 %.0f%%（配置文件原文：%s）。",
                                                 100 * m.ce_efficiency, m.ce_source, 100 * m.sm_efficiency, m.sm_source) })
        end
      end
      ex:status(ex:t { en = "done", zh = "完成" })
    end,
  },

  text { en = [[
## Reading the curve
- **Left of n½ latency rules.** Batching many small copies into one large one is worth more than any
  tuning of the copy itself. This is why frameworks pack parameters into flat buffers before an
  all-reduce.
- **Pinned beats pageable** for anything but tiny copies: a pageable copy pays for an extra host
  memcpy into the staging buffer and cannot overlap with compute. Below a few hundred KB a pageable
  `cudaMemcpy` can be as fast as a pinned one (the driver stages it with a CPU copy), and the
  simulator's constant factor does not model that. `pin_memory=True` in a PyTorch DataLoader exists
  for exactly this.
- **The D2D curve can bump near the L2 size**: while source and destination both fit in L2, the
  copy is served from cache. On a GPU with a large L2 (RTX 4090: 72 MB, H100: 50 MB) that region
  runs well above the DRAM rate (try `--profile rtx4090`); a benchmark that only copies buffers
  of a few MB measures the cache, not VRAM.
- **Copy engine vs SM kernel**: `cudaMemcpy` between two device buffers is the copy engine's job,
  a DMA unit that leaves the SMs free for compute; an SM copy kernel uses the SMs and gets close to
  the DRAM peak (a good one ~90 %). On most GPUs the two are close. On Hopper the gap can be large:
  NVIDIA's
  nvbandwidth on an H20-3e (the H200's 4.8 TB/s HBM3e) measured its copy-engine device-local copy
  at 1116 GB/s n/t, 46 % of the peak counted read + written (nvbandwidth issue #48); on an H20,
  2.0 TB/s by the copy engine against 3.3 TB/s by a copy kernel (cuda-samples issue #366); on HGX
  H100 SXM, p2pBandwidthLatencyTest's local copies reach about 2.5 TB/s counted 2n, 75 % of
  3.35 TB/s (NCCL issue #1264). How limited every Hopper copy engine is, and whether a same-device
  `cudaMemcpy` runs on one at all, remains **disputed**: other reports of H200 device copies come
  near 90 %, as an SM kernel would. The simulator takes the nearest public report for each profile,
  marked DISPUTED: h100-sxm 75 % (NCCL #1264), h200 50 % (from the H20-3e, the same HBM3e); the
  other profiles assume 80-90 %, unverified. On a GPU this sweep measures both paths; on the
  simulator the two figures are the profile's, with their sources (`gpu.profile(id).model`).

> [!pitfall] Benchmarking with one small tensor
> Timing `x.to("cuda")` on a 1 MB tensor and dividing gives a few GB/s, and the conclusion "PCIe is
> slow". It is the fixed cost you measured, not the link. Measure above n½, or report the curve.

> [!source] Sources
> - Hockney, "The Parallel Computer and Its Performance", and Hockney and Jesshope, "Parallel Computers 2" (n½ and r∞).
> - CUDA Runtime API, "API synchronization behavior" (pageable host-to-device copies are staged); CUDA C++ Best Practices Guide, "Pinned Memory".
> - NVIDIA nvbandwidth issue #48 (H20-3e copy-engine device-local copy, 1116 GB/s n/t); NVIDIA cuda-samples issue #366 (H20, copy engine vs copy kernel); NVIDIA NCCL issue #1264 (HGX H100 p2pBandwidthLatencyTest local copies).
> - NVIDIA Ada whitepaper (RTX 4090: 72 MB L2) and Hopper whitepaper (H100: 50 MB L2); NVIDIA GA102 whitepaper (RTX 3090: 936 GB/s); PCI-SIG base specifications.
]], zh = [[
## 如何读这条曲线
- **n½ 左边是延迟的天下。** 把许多小拷贝合并成一次大拷贝，比怎么优化单次拷贝都更有用。这就是框架在 all-reduce 前把参数打包成扁平缓冲区的原因。
- **除了很小的拷贝，锁页内存都快于可分页内存**：可分页拷贝多付出一次到中转缓冲区的主机内存拷贝，而且不能与计算重叠。几百 KB 以下，可分页的 `cudaMemcpy` 可能和锁页的一样快（驱动用一次 CPU 拷贝完成中转），模拟器用的固定系数没有模拟这一点。PyTorch DataLoader 里的 `pin_memory=True` 正是为此而设。
- **D2D 曲线在 L2 大小附近可能鼓起一块**：源和目标都能放进 L2 时，拷贝由缓存提供。L2 很大的 GPU（RTX 4090 有 72 MB，H100 有 50 MB）在这一段会明显高于显存速率（可以试试 `--profile rtx4090`）；只拷贝几 MB 缓冲区的测试测到的是缓存，不是显存。
- **拷贝引擎 vs SM 核函数**：两块显存之间的 `cudaMemcpy` 由拷贝引擎完成，它是独立的 DMA 单元，不占用 SM 做计算；SM 拷贝核函数要占用 SM，但能接近显存峰值（写得好的约 90%）。在大多数 GPU 上两者接近。在 Hopper 上差距可能很大：NVIDIA 的 nvbandwidth 在 H20-3e（与 H200 相同的 4.8 TB/s HBM3e）上测得拷贝引擎的设备内拷贝为 1116 GB/s（n/t），按读 + 写计只有峰值的 46%（nvbandwidth issue #48）；在 H20 上，拷贝引擎 2.0 TB/s，拷贝核函数 3.3 TB/s（cuda-samples issue #366）；在 HGX H100 SXM 上，p2pBandwidthLatencyTest 的本地拷贝按 2n 计约 2.5 TB/s，即 3.35 TB/s 的 75%（NCCL issue #1264）。所有 Hopper 拷贝引擎是否都受这么大的限制，以及同一设备内的 `cudaMemcpy` 是否真的走拷贝引擎，**仍有争议**：也有 H200 设备内拷贝接近 90% 的报告，和 SM 核函数差不多。模拟器为每个配置取最接近的公开报告，并标明有争议：h100-sxm 取 75%（NCCL #1264），h200 取 50%（来自 H20-3e，同样的 HBM3e）；其他配置假设 80–90%，未经核实。有 GPU 时本扫描会实测两条路径；在模拟器上，这两个数字来自配置文件，并附来源（`gpu.profile(id).model`）。

> [!pitfall] 用一个小张量做测速
> 给一个 1 MB 的张量计时 `x.to("cuda")` 再做除法，会得到几 GB/s，进而得出 “PCIe 很慢” 的结论。你测到的是固定开销，不是链路。要在 n½ 以上测，或者直接给出整条曲线。

> [!source] 出处
> - Hockney，《The Parallel Computer and Its Performance》；Hockney、Jesshope，《Parallel Computers 2》（n½ 与 r∞）。
> - CUDA Runtime API“API synchronization behavior”（可分页的主机到设备拷贝要经中转）；CUDA C++ Best Practices Guide“Pinned Memory”。
> - NVIDIA nvbandwidth issue #48（H20-3e 拷贝引擎的设备内拷贝，1116 GB/s，n/t）；NVIDIA cuda-samples issue #366（H20，拷贝引擎 vs 拷贝核函数）；NVIDIA NCCL issue #1264（HGX H100 上 p2pBandwidthLatencyTest 的本地拷贝）。
> - NVIDIA Ada 白皮书（RTX 4090：72 MB L2）与 Hopper 白皮书（H100：50 MB L2）；NVIDIA GA102 白皮书（RTX 3090：936 GB/s）；PCI-SIG 基础规范。
]] },

  exercise {
    id = "nhalf",
    kind = "number",
    prompt = { en = "A copy path has a fixed cost t0 = 10 us and a sustained bandwidth B = 25 GB/s. What is its half-bandwidth size n½, in KB (1 KB = 1000 B)?",
               zh = "某条拷贝路径固定开销 t0 = 10 微秒，持续带宽 B = 25 GB/s。它的半带宽点 n½ 是多少 KB（1 KB = 1000 B）？" },
    answer = 250, unit = "KB", tolerance = 0.02,
    mistakes = { "x1000" },
    hints = { { en = "At n½ the fixed cost and the streaming time are equal: t0 = n / B.", zh = "在 n½ 处，固定开销与传输时间相等：t0 = n / B。" } },
    explain = { en = "n½ = t0 × B = 10e-6 s × 25e9 B/s = 250,000 B = 250 KB: a 250 KB copy runs at half speed, 12.5 GB/s.",
                zh = "n½ = t0 × B = 10e-6 秒 × 25e9 B/s = 250,000 B = 250 KB：250 KB 的拷贝只能跑到一半速度，即 12.5 GB/s。" },
  },

  exercise {
    id = "pinned",
    kind = "choice",
    prompt = { en = "Why is a host-to-device copy from pageable memory slower than from pinned memory?",
               zh = "为什么从可分页内存做主机到设备的拷贝，比从锁页内存慢？" },
    choices = {
      { en = "Pageable memory is on a slower DIMM", zh = "可分页内存在更慢的内存条上" },
      { en = "The driver must first copy it into a pinned staging buffer, because the DMA engine needs pages that cannot move", zh = "驱动必须先把数据拷到一个锁页中转缓冲区，因为 DMA 引擎需要不会被换出的页面" },
      { en = "The GPU reads pageable memory through its L2 cache", zh = "GPU 通过 L2 缓存读取可分页内存" },
    },
    answer = 2,
    hints = { { en = "What could the operating system do to a page while a DMA transfer is reading it?", zh = "DMA 正在读取某个页面时，操作系统可能对这个页面做什么？" } },
    explain = { en = "The OS may swap or move a pageable page at any time, so the copy engine can only DMA from page-locked memory. The driver copies pageable data into its own pinned buffer first: an extra memcpy on the CPU, and no overlap with compute.",
                zh = "操作系统随时可能换出或移动可分页页面，所以拷贝引擎只能对锁页内存做 DMA。驱动要先把可分页数据拷进自己的锁页缓冲区：CPU 多一次内存拷贝，也无法与计算重叠。" },
  },

}
