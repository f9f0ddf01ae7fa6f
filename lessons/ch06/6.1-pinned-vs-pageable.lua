-- Lesson 6.1: pinned vs pageable host memory. Why the copy engine needs page-locked memory, what
-- a copy from pageable memory costs in staging (both directions, measured on this device or
-- SIMULATED), what pinning itself costs per GiB (gpu.pin: cudaHostAlloc and cudaHostRegister),
-- and after how many copies pinning pays for itself (vram.pin_breakeven).
local MiB, GiB = units.MiB, units.GiB

-- 64 MiB copies, within the experiment cap
local function copy_bytes() return math.min(64 * MiB, gpu.budget() // 2) end

-- sizes to pin: up to 1 GiB, within half this run's host budget on a GPU
local function pin_sizes()
  local top = gpu.info().simulated and GiB or math.min(GiB, host.budget() // 2)
  local out, n = {}, 64 * MiB
  while n <= top do out[#out + 1] = n; n = n * 4 end
  if #out == 0 then out[1] = math.max(4 * MiB, top // 4096 * 4096) end
  return out
end

local function copy(dir, pinned, bytes)
  return gpu.copy { dir = dir, bytes = bytes or copy_bytes(), pinned = pinned, trials = 3 }
end

-- the sizes of the first experiment: 256 KiB to 64 MiB, x4
local function sizes()
  local out, n = {}, 256 * units.KiB
  while n < copy_bytes() do out[#out + 1] = n; n = n * 4 end
  out[#out + 1] = copy_bytes()
  return out
end

return lesson {
  id = "6.1",
  chapter = 6,
  chapter_title = { en = "Feeding the GPU", zh = "给 GPU 喂数据" },
  title = { en = "Pinned vs pageable memory", zh = "锁页内存 vs 可分页内存" },
  requires = { "gpu" },

  text { en = [[
# Pinned vs pageable memory

The lecture puts it in one line: the GPU computes too fast to wait for data to crawl over from
system memory, so the data must be **prepared in advance**. This chapter is about how real
programs do that: how bytes get from host memory onto the PCIe link (this section), how copies
hide behind computation (6.2), what unified memory does instead (6.3), and how a data loader
keeps a training step fed (6.4).

## Why the copy engine wants pinned memory
A copy between host and device is done by a **copy engine**, a DMA unit on the GPU that reads or
writes host memory by physical address while the SMs compute. Ordinary (**pageable**) host memory
gives it nothing to hold on to: the operating system may swap a page out or move it at any time.
So the driver copies pageable data through a **staging buffer** of its own, page-locked, one
chunk at a time: the CPU copies a chunk into the staging buffer, the copy engine sends it, and
so on. CUDA's "API synchronization behavior" spells out what that means for the program:

- host to device from pageable memory: the call returns once the data has been copied into the
  staging buffer (a stream synchronization happens before the copy starts);
- device to pageable host memory: the call returns only once the copy has completed;
- from and to **pinned** (page-locked) memory, `cudaMemcpyAsync` returns at once and the copy
  engine reads or writes the program's own buffer.

Pinned memory comes from `cudaHostAlloc` (or `cudaMallocHost`), or an existing allocation is
pinned in place with `cudaHostRegister`. In PyTorch, `tensor.pin_memory()` and
`DataLoader(pin_memory=True)` do this; the latter copies each batch into pinned memory in a
thread of its own (with `num_workers` > 0; without workers, in the main process), so that
`tensor.to("cuda", non_blocking=True)` can start a DMA at once.

## What pageable costs
The staging is paid on every copy: an extra memcpy by the CPU, and a pipeline of chunks instead
of one DMA stream. The experiment below measures both directions from both kinds of memory and
gives the difference per copy, the **staging cost**.
]], zh = [[
# 锁页内存 vs 可分页内存

讲义用一句话说清了：GPU 算得太快，不能等数据从内存慢慢搬过来，所以数据必须**提前准备好**。本章讲真实的程序怎么做到这一点：字节怎样从主机内存上到 PCIe 链路（本节），拷贝怎样藏到计算后面（6.2），统一内存用什么办法代替它（6.3），以及数据加载器怎样让训练的每一步都有数据可用（6.4）。

## 拷贝引擎为什么要锁页内存
主机和设备之间的拷贝由**拷贝引擎**完成，它是 GPU 上的 DMA 单元，按物理地址读写主机内存，同时 SM 照常计算。普通的（**可分页**）主机内存让它无处下手：操作系统随时可能把一页换出或挪走。所以驱动会经过自己的一块**中转缓冲区**（它是锁页的）来拷贝可分页数据，一次一段：CPU 把一段拷进中转缓冲区，拷贝引擎把它送出去，如此反复。CUDA 的“API synchronization behavior”写明了这对程序意味着什么：

- 从可分页内存拷到设备：数据拷进中转缓冲区后调用才返回（拷贝开始前还会先同步一次流）；
- 从设备拷到可分页内存：拷贝完成后调用才返回；
- 从**锁页**（page-locked）内存拷出或拷入，`cudaMemcpyAsync` 立即返回，拷贝引擎直接读写程序自己的缓冲区。

锁页内存来自 `cudaHostAlloc`（或 `cudaMallocHost`），也可以用 `cudaHostRegister` 把已有的一块内存就地锁页。在 PyTorch 里，`tensor.pin_memory()` 和 `DataLoader(pin_memory=True)` 做的就是这件事；后者用一个单独的线程把每个 batch 拷进锁页内存（`num_workers` > 0 时；没有 worker 时在主进程里拷），这样 `tensor.to("cuda", non_blocking=True)` 才能马上发起 DMA。

## 可分页内存的代价
中转的代价每次拷贝都要付：CPU 多做一次内存拷贝，而且是一段一段地流水，而不是一次连续的 DMA。下面的实验在两个方向上分别测两种内存，给出每次拷贝多花的时间，即**中转开销**。
]] },

  exercise {
    id = "predict-pageable",
    kind = "predict",
    prompt = { en = "Before the experiment below: predict this device's host-to-device bandwidth for a 64 MiB copy from **pageable** memory, in GB/s (n/t).",
               zh = "在下面的实验之前：预测本设备从**可分页**内存向设备拷贝 64 MiB 的带宽，单位 GB/s（n/t）。" },
    unit = "GB/s", tolerance = 0.5,
    measure = function()
      local r = assert(copy("h2d", false))
      return r.bytes_per_s / 1e9, r
    end,
    hints = { { en = "Start from the pinned rate (lesson 3.1: about 80-85% of the link, 26 GB/s on PCIe 4.0 x16) and take off the CPU's extra copy into the staging buffer.",
                zh = "从锁页内存的速率算起（第 3.1 节：约为链路的 80–85%，PCIe 4.0 x16 上约 26 GB/s），再扣掉 CPU 往中转缓冲区多拷的那一次。" } },
    explain = { en = "Below the pinned rate by what the CPU's extra copy costs: each chunk is first copied by the CPU into the driver's pinned buffer. How much depends on the host (its memory bandwidth, how busy it is) and on the driver's chunking: close to the pinned rate on a host with fast memory, half or less on a slow or busy one. The simulator's profiles assume 35-50 % (pageable_factor, a model value); on a GPU this measures it.",
                zh = "比锁页速率低，低多少取决于 CPU 多做的那次拷贝：每一段都要先由 CPU 拷进驱动的锁页缓冲区。具体多少取决于主机（它的内存带宽、忙不忙）和驱动的分段方式：内存快的主机上接近锁页速率，慢的或忙的主机上只有一半甚至更少。模拟器的配置文件假设为 35–50%（pageable_factor，模型值）；在 GPU 上由本题实测。" },
  },

  experiment {
    id = "staging",
    key = "bw",
    title = { en = "Pinned vs pageable, both directions", zh = "锁页 vs 可分页，两个方向" },
    intro = { en = [[
Copies 256 KiB to 64 MiB (less where the experiment cap is smaller) from host to device and
back, from pinned and from pageable memory, with `gpu.copy` (best of 3 timed trials, each
destination checked against its source). The host buffer is placed on the GPU's NUMA node where
the machine has more than one. The bars and the table are the largest size; the table gives the
staging cost: the time a copy from pageable memory takes beyond the same copy from pinned memory.
]], zh = [[
用 `gpu.copy` 在主机和设备之间来回拷贝 256 KiB 到 64 MiB（实验上限更小时少一些），分别从锁页内存和可分页内存（3 次计时取最好，每次都核对目标与源一致）。机器有多个 NUMA 节点时，主机缓冲区放在 GPU 所在的节点上。柱状图和表格取最大的大小；表格给出中转开销：从可分页内存拷贝比同样大小从锁页内存拷贝多花的时间。
]] },
    panels = {
      { id = "size", kind = "curve", title = { en = "Bandwidth vs size (n/t)", zh = "带宽随大小变化（n/t）" }, x = "bytes", y = "GB/s", logx = true },
      { id = "bw", kind = "bars", title = { en = "Bandwidth (n/t), the largest size", zh = "带宽（n/t），最大的大小" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "The staging cost of one copy", zh = "一次拷贝的中转开销" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local rs = {}
      for _, q in ipairs { { "h2d", true, T("H2D pinned", "H2D 锁页") }, { "h2d", false, T("H2D pageable", "H2D 可分页") },
                           { "d2h", true, T("D2H pinned", "D2H 锁页") }, { "d2h", false, T("D2H pageable", "D2H 可分页") } } do
        local r, err
        for _, n in ipairs(sizes()) do
          ex:status(q[3] .. " " .. units.bytes(n))
          r, err = copy(q[1], q[2], n)
          if not r then ex:note("bw", err); ex:status(T("failed", "失败")); return end
          ex:point("size", q[3], n, r.bytes_per_s / 1e9, { from = r })
        end
        rs[#rs + 1] = r
        ex:bar("bw", q[3], r.bytes_per_s / 1e9, { from = r })
      end
      ex:row("t", { T("direction", "方向"), T("pinned", "锁页"), T("pageable", "可分页"), T("staging cost", "中转开销"), T("pageable / pinned", "可分页 / 锁页") })
      for k, name in ipairs { "H2D", "D2H" } do
        local p, g = rs[2 * k - 1], rs[2 * k]
        ex:row("t", { name, units.time(p.seconds), units.time(g.seconds), units.time(g.seconds - p.seconds),
                      string.format("%.0f%%", 100 * p.seconds / g.seconds) })
      end
      local i = gpu.info()
      ex:note("t", string.format(T("%s per copy; the link: %s per direction after encoding%s.",
                                   "每次拷贝 %s；链路：扣除编码后每方向 %s%s。"),
                                 units.bytes(rs[1].bytes), i.pcie_bytes_per_s and units.rate(i.pcie_bytes_per_s) or "n/a",
                                 rs[1].numa_node and string.format(T("; host buffers on NUMA node %d", "；主机缓冲区在 NUMA 节点 %d"), rs[1].numa_node) or ""))
      if i.simulated then
        ex:note("bw", T("SIMULATED: pageable copies run at the profile's pageable_factor of the pinned rate (docs/simulator.md)",
                        "模拟：可分页拷贝的速率取锁页速率乘以配置文件中的 pageable_factor（docs/simulator.md）"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## What pinning costs
Pinning is not free either. To lock a buffer the driver makes every page of it resident (the
kernel zeroes and maps each one), locks it, and maps it for the GPU. The Best Practices Guide
calls it "a heavyweight operation compared to most normal system memory allocations". Public
reports put numbers on it: `cuMemHostAlloc` of 8 GiB took 2.74-2.84 s on an 8x H100 host, about
0.35 s per GiB, while `mmap` plus a first touch from 32 threads plus `cuMemHostRegister` took
0.92 s (ai-dynamo/dynamo issue 13710); a 16 GiB `cudaHostAlloc` pool took 8 s to create on an AWS
g6.4xlarge (rapidsai/rmm issue 2496). One thread touching every page is the slow part, which is
why PyTorch's host allocator can `malloc`, touch every page from several threads and then
register it (`pinned_use_cuda_host_register`, `pinned_num_register_threads` in
`PYTORCH_CUDA_ALLOC_CONF`; off and 1 by default).

So pin **once** and reuse: a buffer pinned for every batch costs more than the staging it saves.
PyTorch's own tutorial finds `tensor.pin_memory().to(device, non_blocking=True)` up to twice as
slow as a plain `tensor.to(device)`.
The experiment below times both ways of pinning and works out after how many copies a pinned
buffer has paid for itself.

## Why not pin everything
- **Pinned pages are taken from the operating system.** They cannot be swapped or moved, so
  every GiB pinned is a GiB the rest of the machine cannot use. "Pinned memory should not be
  overused ... how much is too much is difficult to know in advance" (Best Practices Guide).
- **Containers and limits.** Memory locked by other means (`mlock`, RDMA registration for
  InfiniBand) counts against `ulimit -l`; NCCL's troubleshooting guide has containers run with
  `--ulimit memlock=-1` for that reason.
- **NUMA.** On a machine with two CPU sockets, a pinned buffer on the socket far from the GPU
  crosses the inter-socket link on every copy. Pin on the GPU's node (the copies above do:
  `r.numa_node`).
]], zh = [[
## 锁页本身的代价
锁页也不是免费的。要锁住一块缓冲区，驱动得让它的每一页都驻留在内存里（内核要把每一页清零并映射），锁住，再为 GPU 建立映射。《CUDA C++ 最佳实践指南》称之为“与大多数普通系统内存分配相比是重量级的操作”。公开的报告给出了数字：在一台 8 卡 H100 主机上，`cuMemHostAlloc` 分配 8 GiB 用了 2.74–2.84 秒，约每 GiB 0.35 秒；而先 `mmap`、用 32 个线程做首次访问、再 `cuMemHostRegister`，一共 0.92 秒（ai-dynamo/dynamo issue 13710）；在 AWS g6.4xlarge 上创建 16 GiB 的 `cudaHostAlloc` 内存池用了 8 秒（rapidsai/rmm issue 2496）。慢在由一个线程逐页访问，所以 PyTorch 的主机分配器可以先 `malloc`，用多个线程把每一页访问一遍，再注册（`PYTORCH_CUDA_ALLOC_CONF` 里的 `pinned_use_cuda_host_register`、`pinned_num_register_threads`；默认分别为关闭和 1）。

所以要**锁一次、反复用**：每个 batch 都新锁一块缓冲区，花的比省下的中转开销还多。PyTorch 自己的教程发现，`tensor.pin_memory().to(device, non_blocking=True)` 最多能比直接 `tensor.to(device)` 慢一倍。下面的实验给两种锁页方式计时，并算出一块锁页缓冲区要拷贝多少次才能回本。

## 为什么不把内存全部锁页
- **锁页的页是从操作系统手里拿走的。**它们不能被换出或挪动，锁住 1 GiB，机器上其他东西就少 1 GiB 可用。《最佳实践指南》说：“锁页内存不应过度使用……多少算太多很难事先知道”。
- **容器和限制。**用其他方式锁住的内存（`mlock`、InfiniBand 的 RDMA 注册）计入 `ulimit -l`；NCCL 的故障排查指南因此要求容器以 `--ulimit memlock=-1` 运行。
- **NUMA。**在有两个 CPU 插槽的机器上，锁在远离 GPU 那个插槽上的缓冲区，每次拷贝都要经过插槽间的互连。要锁在 GPU 所在的节点上（上面的拷贝就是这么做的：`r.numa_node`）。
]] },

  exercise {
    id = "pin-rate",
    kind = "number",
    prompt = { en = "`cuMemHostAlloc` of 8 GiB took 2.8 s on an 8x H100 host. How many seconds does it take per GiB?",
               zh = "在一台 8 卡 H100 主机上，`cuMemHostAlloc` 分配 8 GiB 用了 2.8 秒。每 GiB 要多少秒？" },
    answer = 0.35, unit = "s", tolerance = 0.02,
    mistakes = {
      { value = 2.8 / (8 * GiB / 1e9), say = { en = "That divides by 8.59 GB: the buffer is 8 GiB (2^30 bytes each), and the question asks per GiB.",
                                                zh = "这是除以了 8.59 GB：缓冲区是 8 GiB（每 GiB 2^30 字节），题目问的是每 GiB。" } },
      "x1000",
    },
    hints = { { en = "Divide the time by the size, in the unit the question asks.", zh = "用时间除以大小，按题目要的单位。" } },
    explain = { en = "2.8 s / 8 GiB = 0.35 s per GiB: pinning a 64 GiB host buffer would take over 20 s. Pin once, at start-up, and reuse.",
                zh = "2.8 秒 / 8 GiB = 每 GiB 0.35 秒：锁住 64 GiB 的主机缓冲区要 20 多秒。应当在启动时锁一次，之后反复使用。" },
  },

  experiment {
    id = "pinning",
    key = "even",
    title = { en = "The cost of pinning, and when it pays", zh = "锁页的代价，以及何时回本" },
    intro = { en = [[
Allocates and frees host buffers of 64 MiB to 1 GiB (half this run's host budget at most on a
GPU) with `gpu.pin`: `cudaHostAlloc` (pinned), and `cudaHostRegister` of memory already touched
(registered); best of 3 each. Then, from the pinned and pageable rates of the first experiment's
kind (measured again here), the number of copies of one buffer after which pinning it has paid
for itself (`vram.pin_breakeven`).
]], zh = [[
用 `gpu.pin` 分配并释放 64 MiB 到 1 GiB 的主机缓冲区（在 GPU 上最多为本次运行主机预算的一半）：`cudaHostAlloc`（锁页）和对已经访问过的内存做 `cudaHostRegister`（注册）；各取 3 次中最好的。然后用第一个实验那样的锁页和可分页速率（这里重新测一次），算出一块缓冲区拷贝多少次后锁页就回本了（`vram.pin_breakeven`）。
]] },
    panels = {
      { id = "cost", kind = "curve", title = { en = "Time to pin vs size", zh = "锁页耗时随大小变化" }, x = "bytes", y = "ms", logx = true },
      { id = "even", kind = "bars", title = { en = "Copies of one buffer until pinning pays", zh = "一块缓冲区拷贝多少次后锁页回本" }, unit = "copies" },
      { id = "t", kind = "table", title = { en = "Per GiB", zh = "每 GiB" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local last = {}
      ex:row("t", { T("how", "方式"), T("seconds per GiB", "每 GiB 秒数"), T("release", "释放") })
      for _, k in ipairs { { "pinned", T("cudaHostAlloc", "cudaHostAlloc") }, { "registered", T("cudaHostRegister", "cudaHostRegister") } } do
        for _, n in ipairs(pin_sizes()) do
          ex:status(k[2] .. " " .. units.bytes(n))
          local p, err = gpu.pin { bytes = n, kind = k[1] }
          if not p then ex:note("cost", err); ex:status(T("failed", "失败")); return end
          ex:point("cost", k[2], n, p.alloc_seconds * 1e3, { style = p.simulated and "simulated" or "measured" })
          last[k[1]] = p
        end
        local p = last[k[1]]
        ex:row("t", { k[2], string.format("%.3f s", p.alloc_seconds_per_gib), units.time(p.free_seconds) })
      end
      local pin, e1 = copy("h2d", true)
      local page, e2 = copy("h2d", false)
      if not pin or not page then ex:note("even", e1 or e2); ex:status(T("failed", "失败")); return end
      local p = last.pinned
      local b = vram.pin_breakeven { bytes = p.bytes, pinned_bps = pin.bytes_per_s, pageable_bps = page.bytes_per_s,
                                     pin_s_per_gib = p.alloc_seconds_per_gib }
      ex:bar("even", string.format(T("%s buffer", "%s 缓冲区"), units.bytes(p.bytes)), b.copies, { from = pin, unit = "copies" })
      ex:note("even", string.format(T("pinning %s once: %s; each copy saves %s of staging (%s pinned vs %s pageable).",
                                      "锁页一次 %s：%s；每次拷贝省下 %s 的中转（锁页 %s 对可分页 %s）。"),
                                    units.bytes(p.bytes), units.time(b.pin_seconds), units.time(b.staging_seconds),
                                    units.rate(pin.bytes_per_s), units.rate(page.bytes_per_s)))
      if p.simulated then
        ex:note("t", T("SIMULATED: the profile's pin_alloc_s_per_gib and pin_register_s_per_gib, from public reports (docs/simulator.md)",
                       "模拟：取配置文件的 pin_alloc_s_per_gib 与 pin_register_s_per_gib，来自公开报告（docs/simulator.md）"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "breakeven",
    kind = "number",
    prompt = { en = "A 1 GiB batch buffer is copied to the GPU again and again. Pinned it copies at 25 GB/s, pageable at 10 GB/s, and pinning costs 0.35 s per GiB. After how many copies has pinning paid for itself?",
               zh = "一块 1 GiB 的 batch 缓冲区反复拷到 GPU 上。锁页时拷贝速率 25 GB/s，可分页时 10 GB/s，锁页每 GiB 花 0.35 秒。拷贝多少次以后锁页就回本了？" },
    answer = 6, unit = "copies", tolerance = 0.001,
    mistakes = {
      { value = 5, say = { en = "After 5 copies 5 x 64.4 ms = 322 ms of staging is saved, still less than the 350 ms spent pinning: round up.",
                           zh = "5 次拷贝省下 5 × 64.4 毫秒 = 322 毫秒的中转，仍少于锁页花掉的 350 毫秒：要向上取整。" } },
      { value = 9, say = { en = "That divides the pinning time by a pinned copy's whole time (42.9 ms); what a copy saves is the difference between pageable and pinned (64.4 ms).",
                           zh = "这是用锁页时间除以一次锁页拷贝的全部时间（42.9 毫秒）；每次拷贝省下的是可分页与锁页之差（64.4 毫秒）。" } },
    },
    hints = { { en = "One copy saves 1 GiB / 10 GB/s - 1 GiB / 25 GB/s. How many such savings make 0.35 s?",
                zh = "一次拷贝省下 1 GiB / 10 GB/s − 1 GiB / 25 GB/s。要多少次这样的节省才凑够 0.35 秒？" } },
    explain = { en = "Each copy: 107.4 ms pageable vs 42.9 ms pinned, 64.4 ms saved. 0.35 s / 64.4 ms = 5.4, so the 6th copy pays it back. A buffer used once is better left pageable; one used every step of training pays after a few steps.",
                zh = "每次拷贝：可分页 107.4 毫秒，锁页 42.9 毫秒，省 64.4 毫秒。0.35 秒 / 64.4 毫秒 = 5.4，所以第 6 次拷贝回本。只用一次的缓冲区不如保持可分页；训练中每一步都用的缓冲区几步之后就回本了。" },
  },

  text { en = [[
> [!errata] "~50 GB/s (DDR5)" as the speed of system memory next to VRAM
> The lecture's table compares VRAM with system memory's own bandwidth. What the GPU sees of
> system memory is neither: it is the PCIe link, 31.5 GB/s per direction for PCIe 4.0 x16 after
> encoding (about 26 GB/s from pinned memory), and from pageable memory less again, by what the
> CPU's staging copy of every chunk costs on that host. "Using RAM to make up for VRAM", the
> lecture's pitfall, runs at the link's speed, not at DDR5's.
> Source: PCI-SIG base specification (16 GT/s, 128b/130b); the experiments above on this device;
> CUDA Runtime API, "API synchronization behavior".

> [!source] Sources
> - CUDA Runtime API, "API synchronization behavior" (pageable copies staged; when each call returns); CUDA C++ Best Practices Guide, "Pinned Memory" ("a heavyweight operation", "should not be overused", cudaHostRegister) and "NUMA Best Practices".
> - ai-dynamo/dynamo issue 13710 (cuMemHostAlloc of 8 GiB: 2.74-2.84 s on an 8x H100 host; mmap + 32-thread first touch + cuMemHostRegister: 0.92 s); rapidsai/rmm issue 2496 (a 16 GiB cudaHostAlloc pool: 8 s on a g6.4xlarge). One report each.
> - PyTorch, "CUDA semantics": memory management (`pinned_use_cuda_host_register`, `pinned_num_register_threads`) and pinned memory buffers; `aten/src/ATen/cuda/CachingHostAllocator.cpp` (`allocWithCudaHostRegister`: malloc, pages touched by `pinned_num_register_threads` threads, then cudaHostRegister); `torch.utils.data.DataLoader` (`pin_memory`; the pin thread of `_MultiProcessingDataLoaderIter`); PyTorch tutorial "A guide on good usage of non_blocking and pin_memory() in PyTorch" (pinning then copying, up to twice as slow as a plain copy).
> - NVIDIA NCCL user guide, "Troubleshooting" (containers: `--ulimit memlock=-1`).
> - PCI-SIG PCI Express base specifications (transfer rates and encodings).
]], zh = [[
> [!errata] 把“~50 GB/s（DDR5）”当作与显存对比的系统内存速度
> 讲义的表格拿显存和系统内存自身的带宽比。可 GPU 看到的系统内存两者都不是：它看到的是 PCIe 链路，PCIe 4.0 x16 扣除编码后每方向 31.5 GB/s（从锁页内存约 26 GB/s），从可分页内存还要更低，低多少取决于 CPU 在那台主机上中转每一段的开销。讲义的避坑指南里“用内存来凑显存”，跑的是链路的速度，而不是 DDR5 的速度。
> 出处：PCI-SIG《PCI Express 基础规范》（16 GT/s，128b/130b）；上面在本设备上的实验；《CUDA Runtime API》“API synchronization behavior”。

> [!source] 出处
> - 《CUDA Runtime API》“API synchronization behavior”（可分页拷贝要中转；各调用何时返回）；《CUDA C++ 最佳实践指南》“Pinned Memory”（“重量级的操作”、“不应过度使用”、cudaHostRegister）与“NUMA Best Practices”。
> - ai-dynamo/dynamo issue 13710（在 8 卡 H100 主机上 cuMemHostAlloc 8 GiB：2.74–2.84 秒；mmap + 32 线程首次访问 + cuMemHostRegister：0.92 秒）；rapidsai/rmm issue 2496（在 g6.4xlarge 上创建 16 GiB 的 cudaHostAlloc 内存池：8 秒）。各为单一报告。
> - PyTorch 文档“CUDA semantics”：显存管理（`pinned_use_cuda_host_register`、`pinned_num_register_threads`）与锁页内存缓冲区；`aten/src/ATen/cuda/CachingHostAllocator.cpp`（`allocWithCudaHostRegister`：malloc，由 `pinned_num_register_threads` 个线程逐页访问，再 cudaHostRegister）；`torch.utils.data.DataLoader`（`pin_memory`；`_MultiProcessingDataLoaderIter` 的锁页线程）；PyTorch 教程《A guide on good usage of non_blocking and pin_memory() in PyTorch》（先锁页再拷贝，最多比直接拷贝慢一倍）。
> - 《NVIDIA NCCL 用户指南》“Troubleshooting”（容器：`--ulimit memlock=-1`）。
> - PCI-SIG《PCI Express 基础规范》（传输速率与编码）。
]] },

  exercise {
    id = "pin-everything",
    kind = "choice",
    prompt = { en = "A colleague proposes to pin all 512 GB of a server's RAM at start-up \"so every copy is fast\". What is the real problem?",
               zh = "同事提议在启动时把服务器 512 GB 内存全部锁页，“这样每次拷贝都快”。真正的问题是什么？" },
    choices = {
      { en = "Pinned memory is slower for the CPU to read and write", zh = "锁页内存的 CPU 读写更慢" },
      { en = "Pinned pages cannot be swapped or moved: the operating system and every other process lose that memory, and pinning it all takes minutes", zh = "锁页的页不能换出或挪动：操作系统和其他进程都失去了这些内存，而且全部锁页要花好几分钟" },
      { en = "The GPU can only address 64 GB of pinned memory", zh = "GPU 只能寻址 64 GB 的锁页内存" },
    },
    answer = 2,
    why = {
      [1] = { en = "The CPU reads and writes pinned memory like any other; locking changes whether a page may move, not how fast it is.",
              zh = "CPU 读写锁页内存和其他内存一样；锁页改变的是页能不能挪动，而不是它有多快。" },
      [3] = { en = "There is no such limit; the limits are the machine's RAM and what the operating system can spare.",
              zh = "没有这样的限制；限制是机器的内存以及操作系统能让出多少。" },
    },
    hints = { { en = "What can the operating system no longer do with a locked page?", zh = "页被锁住以后，操作系统就不能对它做什么了？" } },
    explain = { en = "At about 0.35 s per GiB, pinning 512 GB takes around three minutes, and none of it can be swapped or reclaimed afterwards: the machine can run out of memory for everything else. Pin the buffers that are copied again and again, once.",
                zh = "按每 GiB 约 0.35 秒算，锁住 512 GB 要三分钟左右，而且之后这些内存都不能被换出或回收：机器上其他东西可能因此没有内存可用。只把反复拷贝的缓冲区锁页，并且只锁一次。" },
  },
}
