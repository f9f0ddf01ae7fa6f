-- Lesson 6.4: zero-copy and the data loader. A kernel reading mapped host memory against copying
-- first (gpu.program with a mapped buffer; vram.zerocopy), then a PyTorch-style data loader as a
-- pipeline of stages, with this machine's own pin copy (host.copy, always real) and host-to-device
-- copy (gpu.copy) and assumed decode and compute times (vram.loader), and the training loop's
-- host work overlapped with the GPU's on this device (gpu.program with cpu operations).
local MiB = units.MiB

-- the lecture's batch: 64 RGB images of 224 x 224, one byte per value
local BATCH = 64 * 224 * 224 * 3
-- assumed, for the experiments (change them to your own job's): decode and augment of one image
-- on one CPU core, and the GPU's compute per batch
local DECODE_PER_IMAGE = 0.002
local COMPUTE = 0.030

local function zc_bytes()
  local n = math.min(64 * MiB, gpu.budget() // 2)
  if not gpu.info().simulated then n = math.min(n, host.budget() // 2) end
  return math.max(4096, n - n % 4096)
end

-- a kernel over mapped memory, against a copy to device memory and the same kernel there;
-- `seconds` 0: a read (memory-bound), else a kernel that computes that long
local function zc_vs_copy(n, passes, seconds)
  local zo, co = { { "host_fill", "z" } }, { { "host_fill", "h" }, { "copy", "d", "h" } }
  for _ = 1, passes do
    zo[#zo + 1] = seconds > 0 and { "kernel", "z", seconds = seconds } or { "read", "z" }
    co[#co + 1] = seconds > 0 and { "kernel", "d", seconds = seconds } or { "read", "d" }
  end
  local z, err = gpu.program { buffers = { z = { "mapped", n } }, ops = zo }
  if not z then return nil, err end
  local c, err2 = gpu.program { buffers = { h = { "pinned", n }, d = { "device", n } }, ops = co }
  if not c then return nil, err2 end
  return z, c
end

-- the stages of one batch on this machine: the pin thread's copy (a host memcpy: real) and the
-- copy to the device (pinned)
local function stage_times()
  local hb = math.min(BATCH, host.budget() // 2)
  hb = hb - hb % 4096
  local h, err = host.copy { bytes = hb, trials = 3 }
  if not h then return nil, err end
  local g, err2 = gpu.copy { dir = "h2d", bytes = math.min(BATCH, gpu.budget()), pinned = true, trials = 3 }
  if not g then return nil, err2 end
  return { pin = BATCH / h.bytes_per_s, h2d = BATCH / g.bytes_per_s, host = h, gpu = g }
end

return lesson {
  id = "6.4",
  chapter = 6,
  chapter_title = { en = "Feeding the GPU", zh = "给 GPU 喂数据" },
  title = { en = "Zero-copy and the data loader", zh = "零拷贝与数据加载器" },
  requires = { "gpu" },

  text { en = [[
# Zero-copy and the data loader

## Zero-copy: the kernel reads host memory
Pinned memory allocated with `cudaHostAlloc(.., cudaHostAllocMapped)` (with unified virtual
addressing, any `cudaHostAlloc`) is **mapped** into the GPU's address space: a kernel can read
and write it directly, with no copy in the program. Every access crosses PCIe, and nothing is
kept on the GPU for the next one. The Best Practices Guide's advice follows: on a discrete GPU,
mapped memory is worth it "only in certain cases": data read or written **once**, by coalesced
accesses; then "kernel-originated data transfers automatically overlap kernel execution", with no
streams to set up. Read twice, it crosses twice. (On an integrated GPU, such as a Jetson, host
and device memory are the same chips, and mapped memory always pays.)

The experiment below reads the same bytes both ways, with a kernel that only reads
(memory-bound) and with one that computes while it reads.
]], zh = [[
# 零拷贝与数据加载器

## 零拷贝：核函数直接读主机内存
用 `cudaHostAlloc(.., cudaHostAllocMapped)` 分配的锁页内存（有统一虚拟地址时，任何 `cudaHostAlloc` 都是）**映射**进了 GPU 的地址空间：核函数可以直接读写它，程序里没有拷贝。每次访问都要经过 PCIe，GPU 上也不会为下一次访问留下任何东西。《最佳实践指南》的建议由此而来：在独立 GPU 上，映射内存“只在某些情况下”划算：数据只读或只写**一次**，而且是合并访问；这时“由核函数发起的数据传输会自动与核函数的执行重叠”，不需要设置流。读两遍，就要过两遍链路。（在集成 GPU 上，例如 Jetson，主机内存和设备内存是同一组芯片，映射内存总是划算的。）

下面的实验用两种方式读同样的字节：一个只读的核函数（受内存限制），和一个边读边算的核函数。
]] },

  exercise {
    id = "predict-zerocopy",
    kind = "predict",
    prompt = { en = "Before the experiment below: predict the rate at which a kernel reads 64 MiB of mapped host memory on this device, in GB/s.",
               zh = "在下面的实验之前：预测本设备上核函数读取 64 MiB 映射主机内存的速率，单位 GB/s。" },
    unit = "GB/s", tolerance = 0.4,
    measure = function()
      local n = zc_bytes()
      local z = assert(gpu.program { buffers = { z = { "mapped", n } }, ops = { { "host_fill", "z" }, { "read", "z" } } })
      return n / (z.ops[2].finish - z.ops[2].start) / 1e9, z
    end,
    hints = { { en = "Every byte crosses the link: about what a pinned copy reaches (lesson 3.1), not device memory's rate.", zh = "每个字节都要过链路：大约是锁页拷贝的速率（第 3.1 节），而不是显存的速率。" } },
    explain = { en = "Close to the pinned copy's rate over PCIe: a coalesced kernel with enough loads in flight keeps the link busy (Min et al., EMOGI, VLDB 2020: coalesced, aligned cache-line reads nearly fill the PCIe link). Device memory is tens of times faster (about 31 times on the simulator's RTX 3090), for data already there.",
                zh = "接近经 PCIe 锁页拷贝的速率：合并访问、同时在途的加载足够多的核函数能让链路保持繁忙（Min 等，EMOGI，VLDB 2020：合并、对齐的整缓存行读取几乎能占满 PCIe 链路）。对于已经在显存里的数据，显存要快几十倍（模拟器的 RTX 3090 上约为 31 倍）。" },
  },

  experiment {
    id = "zerocopy",
    key = "win",
    title = { en = "Read in place, or copy first?", zh = "就地读取，还是先拷贝？" },
    intro = { en = [[
64 MiB (less where the cap or the host is smaller) read 1, 2 and 4 times by a kernel, from mapped
host memory, and copied once to device memory and read there; then the same with a kernel that
computes for as long as the bytes take to cross the link. Every pass checks what it reads (a
computing kernel's output is checked at the end).
]], zh = [[
64 MiB（实验上限或主机更小时少一些）由核函数读 1、2、4 遍，一种是从映射主机内存读，另一种是先拷到显存一次再在那里读；然后用一个计算时间与这些字节过链路时间相当的核函数再做一遍。每遍都核对读到的内容（计算型核函数的输出在最后核对）。
]] },
    panels = {
      { id = "win", kind = "bars", title = { en = "Copy first / zero-copy (above 1: zero-copy wins)", zh = "先拷贝 / 零拷贝（大于 1：零拷贝更快）" }, unit = "x" },
      { id = "curve", kind = "curve", title = { en = "Time vs passes", zh = "时间随遍数变化" }, x = "passes", y = "ms" },
      { id = "t", kind = "table", title = { en = "Zero-copy vs copy first", zh = "零拷贝 vs 先拷贝" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local n = zc_bytes()
      ex:row("t", { T("kernel", "核函数"), T("passes", "遍数"), T("zero-copy", "零拷贝"), T("copy first", "先拷贝") })
      local link
      for _, p in ipairs { 1, 2, 4 } do
        ex:status(string.format(T("reads, %d pass(es)", "只读，%d 遍"), p))
        local z, c = zc_vs_copy(n, p, 0)
        if not z then ex:note("t", c); ex:status(T("failed", "失败")); return end
        link = link or n / (z.ops[2].finish - z.ops[2].start)
        ex:row("t", { T("read", "只读"), tostring(p), units.time(z.seconds), units.time(c.seconds) })
        ex:point("curve", T("zero-copy, read", "零拷贝，只读"), p, z.seconds * 1e3, { from = z })
        ex:point("curve", T("copy first, read", "先拷贝，只读"), p, c.seconds * 1e3, { from = c })
        if p == 1 then ex:bar("win", T("read once", "只读一遍"), c.seconds / z.seconds, { from = z }) end
        if p == 4 then ex:bar("win", T("read 4 times", "读 4 遍"), c.seconds / z.seconds, { from = z }) end
      end
      local k = n / link
      for _, p in ipairs { 1, 2 } do
        ex:status(string.format(T("computes, %d pass(es)", "计算，%d 遍"), p))
        local z, c = zc_vs_copy(n, p, k)
        if not z then ex:note("t", c); ex:status(T("failed", "失败")); return end
        ex:row("t", { T("computes", "计算"), tostring(p), units.time(z.seconds), units.time(c.seconds) })
        ex:point("curve", T("zero-copy, computes", "零拷贝，计算"), p, z.seconds * 1e3, { from = z })
        ex:point("curve", T("copy first, computes", "先拷贝，计算"), p, c.seconds * 1e3, { from = c })
        if p == 1 then ex:bar("win", T("computes, once", "计算，一遍"), c.seconds / z.seconds, { from = z }) end
      end
      local info, m = gpu.info(), gpu.info().simulated and gpu.profile(gpu.info().profile).model
      local dev = (info.peak_bytes_per_s or 1e12) * (m and m.sm_efficiency or 0.9)
      local e = vram.zerocopy { bytes = n, passes = 1, link_bps = link, device_bps = dev }
      ex:note("t", string.format(T("%s; the kernel reads mapped memory at %s. A memory-bound kernel breaks even at %.2f passes (vram.zerocopy); a kernel with work to do hides the link behind it.",
                                   "%s；核函数读映射内存的速率为 %s。受内存限制的核函数在 %.2f 遍时持平（vram.zerocopy）；有活要干的核函数能把链路时间藏在后面。"),
                                 units.bytes(n), units.rate(link), e.breakeven))
      if info.simulated then
        ex:note("win", T("SIMULATED: a kernel on mapped memory reads over the link at the profile's zerocopy_efficiency (docs/simulator.md)",
                         "模拟：映射内存上的核函数以配置文件的 zerocopy_efficiency 经链路读取（docs/simulator.md）"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "mapped-read",
    kind = "number",
    prompt = { en = "A kernel reads 256 MiB of mapped host memory once, at 24 GB/s. How many ms does the read take?",
               zh = "核函数以 24 GB/s 把 256 MiB 的映射主机内存读一遍。这次读取要多少毫秒？" },
    answer = 256 * MiB / 24e9 * 1e3, unit = "ms", tolerance = 0.02,
    mistakes = { "mib_mb", "x1000" },
    hints = { { en = "256 MiB is 256 x 2^20 bytes; GB/s is 10^9 bytes a second.", zh = "256 MiB 是 256 × 2^20 字节；GB/s 是每秒 10^9 字节。" } },
    explain = { en = "256 x 1,048,576 B = 268.4 MB; / 24 GB/s = 11.18 ms, every time the kernel reads it. From device memory at 900 GB/s the same read takes 0.3 ms, once the bytes are there.",
                zh = "256 × 1,048,576 B = 268.4 MB；/ 24 GB/s = 11.18 毫秒，核函数每读一次都是这么久。数据到了显存以后，以 900 GB/s 读同样的字节只要 0.3 毫秒。" },
  },

  text { en = [[
## The data loader: what "prepared in advance" means
A training step needs a batch on the GPU. In PyTorch a `DataLoader` prepares it in stages, each
a different part of the machine:

1. **workers** (`num_workers` processes) each read, decode, augment and collate a whole batch,
   and pass it through shared memory (`/dev/shm`: a container needs `--shm-size` or
   `--ipc=host`, PyTorch's README warns);
2. with `pin_memory=True`, one **pin thread** copies each batch into pinned memory;
3. the loop sends it with `.to("cuda", non_blocking=True)`: a **copy engine**;
4. the **GPU** computes.

The workers run ahead by up to `prefetch_factor` batches each (2 by default with workers,
PyTorch 2.x documentation), so while the GPU computes batch i, batch i+1 is waiting in
pinned memory and batches i+2... are being decoded. The copy in step 3 is queued on the current
stream, behind batch i's kernels: the host does not wait for it, but the GPU runs it after them.
To have batch i+1's copy run *during* batch i's compute, the loop issues it on a side stream with
an event or `wait_stream` before the compute (6.2), as the last experiment here does. Then a step takes
as long as the **slowest stage** per batch, not their sum; the workers count as one stage of
(time per batch / number of workers). The GPU is busy compute / step of the time; the rest it
waits for data. That is the lecture's "prepared in advance", in numbers: enough workers that the
GPU never waits, and copies on a side stream that overlap compute (6.2).

The experiment below takes the stages this machine can measure, the pin thread's copy (a host
memcpy, always a real measurement) and the copy to the device, and two it cannot: decoding (2 ms
an image on one core) and the compute (30 ms a batch), assumed for the example. Change them to
your own job's.
]], zh = [[
## 数据加载器：“提前准备好”到底是什么意思
训练的每一步都需要 GPU 上有一个 batch。在 PyTorch 里，`DataLoader` 分几个阶段准备它，每个阶段由机器的不同部分完成：

1. **worker**（`num_workers` 个进程）各自读取、解码、增强并拼装一整个 batch，经共享内存传出（`/dev/shm`：PyTorch 的 README 提醒，容器需要 `--shm-size` 或 `--ipc=host`）；
2. 设置 `pin_memory=True` 时，一个**锁页线程**把每个 batch 拷进锁页内存；
3. 训练循环用 `.to("cuda", non_blocking=True)` 把它送出去：由**拷贝引擎**完成；
4. **GPU** 计算。

worker 最多各自领先 `prefetch_factor` 个 batch（PyTorch 2.x 文档：`num_workers` > 0 时默认 2），所以 GPU 计算第 i 个 batch 时，第 i+1 个已在锁页内存里等着，第 i+2 个……正在解码。第 3 步的拷贝排在当前流上、第 i 个 batch 的核函数后面：主机不用等它，但 GPU 要在那些核函数之后才执行它。要让第 i+1 个 batch 的拷贝在第 i 个 batch 计算*期间*进行，训练循环得把它放到一个旁路流上发出，并在计算之前用事件或 `wait_stream` 等它（6.2），本节最后一个实验就是这样做的。于是每一步花的时间等于每个 batch **最慢的那一级**，而不是各级之和；worker 算作一级，时长为（每个 batch 的时间 / worker 数）。GPU 忙碌的比例是“计算 / 每步”，其余时间它都在等数据。这就是讲义说的“提前准备好”，用数字表示：worker 足够多，让 GPU 从不等待；拷贝放在旁路流上，与计算重叠（6.2）。

下面的实验用本机能测的几级：锁页线程的拷贝（一次主机内存拷贝，总是真实测量）和拷到设备的拷贝；再加上两级它测不了的：解码（每张图在一个核上 2 毫秒）和计算（每个 batch 30 毫秒），这两个是为举例而假设的。可以改成你自己任务的数值。
]] },

  experiment {
    id = "loader",
    key = "busy",
    title = { en = "A data loader, stage by stage", zh = "数据加载器，逐级分析" },
    intro = { en = [[
The lecture's batch (64 RGB images of 224 x 224, one byte a value: 9.63 MB): the pin copy timed
on this host, the host-to-device copy on this device, decoding and compute assumed; then the
loader with 1, 2, 4 and 8 workers (`vram.loader`, prefetch factor 2), and the timeline of 2
workers, revealed step by step.
]], zh = [[
讲义里的 batch（64 张 224 × 224 的 RGB 图像，每个值一个字节：9.63 MB）：锁页拷贝在本机上计时，主机到设备的拷贝在本设备上计时，解码和计算为假设值；然后分别用 1、2、4、8 个 worker 运行加载器（`vram.loader`，prefetch_factor 为 2），并逐步展示 2 个 worker 时的时间线。
]] },
    panels = {
      { id = "busy", kind = "bars", title = { en = "GPU busy (compute / step)", zh = "GPU 忙碌比例（计算 / 每步）" }, unit = "%" },
      { id = "tl", kind = "timeline", title = { en = "2 workers: each batch by its number", zh = "2 个 worker：每个 batch 用它的编号表示" } },
      { id = "t", kind = "table", title = { en = "Stages of one batch", zh = "一个 batch 的各级" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:status(T("timing the copies", "测拷贝时间"))
      local s, err = stage_times()
      if not s then ex:note("t", err); ex:status(T("failed", "失败")); return end
      local decode = 64 * DECODE_PER_IMAGE
      ex:row("t", { T("stage", "阶段"), T("time per batch", "每个 batch 的时间"), T("from", "来源") })
      ex:row("t", { T("decode + augment (one worker)", "解码 + 增强（一个 worker）"), units.time(decode), T("assumed: 2 ms an image", "假设：每张图 2 毫秒") })
      ex:row("t", { T("pin copy", "锁页拷贝"), units.time(s.pin), T("host memcpy, measured", "主机内存拷贝，实测") })
      ex:row("t", { T("host to device", "主机到设备"), units.time(s.h2d), s.gpu.simulated and T("pinned copy, SIMULATED", "锁页拷贝，模拟") or T("pinned copy, measured", "锁页拷贝，实测") })
      ex:row("t", { T("compute", "计算"), units.time(COMPUTE), T("assumed", "假设") })
      for _, w in ipairs { 1, 2, 4, 8 } do
        local l = vram.loader { workers = w, worker_seconds = decode, pin_seconds = s.pin, h2d_seconds = s.h2d, compute_seconds = COMPUTE }
        ex:bar("busy", string.format(T("%d worker(s)", "%d 个 worker"), w), 100 * l.gpu_busy, { style = "theoretical", unit = "%" })
        ex:row("t", { string.format(T("step, %d worker(s)", "每步，%d 个 worker"), w), units.time(l.step_seconds), string.format(T("bottleneck: %s", "瓶颈：%s"), l.bottleneck) })
      end
      local two = vram.loader { workers = 2, worker_seconds = decode, pin_seconds = s.pin, h2d_seconds = s.h2d, compute_seconds = COMPUTE, steps = 8 }
      -- the timeline, a lane per worker and one per stage after them, revealed in four steps:
      -- what started in each quarter (decoding and compute assumed, the copies timed)
      local kind = { worker = T("decode (assumed)", "解码（假设）"), pin = T("pin copy", "锁页拷贝"),
                     h2d = T("H2D copy", "H2D 拷贝"), compute = T("compute (assumed)", "计算（假设）") }
      local lane = { pin = T("pin", "锁页"), h2d = "H2D", compute = "GPU" }
      local function lane_of(e) return e.stage == "worker" and string.format(T("worker %d", "worker %d"), e.worker) or lane[e.stage] end
      local total = two.total_seconds
      for step = 1, 4 do
        local from, upto = total * (step - 1) / 4, step == 4 and math.huge or total * step / 4
        if step == 1 then
          ex:clear("tl")
          for w = 1, 2 do ex:span("tl", lane_of { stage = "worker", worker = w }, 0, 0, { kind = kind.worker, total = total, style = "theoretical" }) end
          for _, st in ipairs { "pin", "h2d", "compute" } do ex:span("tl", lane[st], 0, 0, { kind = kind[st], total = total, style = "theoretical" }) end
        end
        for _, e in ipairs(two.timeline) do
          if e.start >= from and e.start < upto then
            ex:span("tl", lane_of(e), e.start, e.finish, { kind = kind[e.stage], n = e.batch, total = total, style = "theoretical" })
          end
        end
        ex:pause(0.4)
      end
      ex:note("tl", string.format(T("vram.loader's model of 8 batches, %s, from the stage times above; the workers run ahead of the GPU by up to 2 batches each (prefetch factor 2).",
                                    "vram.loader 按上表各级时间算出的 8 个 batch 的模型，共 %s；每个 worker 最多领先 GPU 2 个 batch（prefetch_factor 为 2）。"), units.time(total)))
      ex:note("busy", string.format(T("Workers needed so the GPU never waits: %d (decode %s per batch / compute %s).",
                                      "让 GPU 从不等待所需的 worker 数：%d（每个 batch 解码 %s / 计算 %s）。"),
                                    math.ceil(decode / COMPUTE - 1e-9), units.time(decode), units.time(COMPUTE)))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "busy-share",
    kind = "number",
    prompt = { en = "Each worker needs 128 ms to prepare a batch, the GPU computes one in 30 ms, and pinning and copying are shorter still. With 2 workers, what share of the time does the GPU compute, in percent?",
               zh = "每个 worker 准备一个 batch 要 128 毫秒，GPU 计算一个要 30 毫秒，锁页和拷贝都更短。用 2 个 worker 时，GPU 有百分之多少的时间在计算？" },
    answer = 100 * 0.030 / 0.064, unit = "%", tolerance = 0.02,
    mistakes = {
      { value = 100 * 0.030 / 0.128, say = { en = "That gives one worker all the batches: two workers prepare two batches per 128 ms, one every 64 ms.",
                                              zh = "这是让一个 worker 包揽了所有 batch：两个 worker 每 128 毫秒准备两个 batch，每 64 毫秒一个。" } },
      { value = 100 * 0.030 / 0.158, say = { en = "That adds the stages up as if nothing overlapped; the workers run ahead of the GPU, so a step takes as long as the slowest stage.",
                                              zh = "这是把各级加了起来，好像什么都不重叠；worker 领先于 GPU 工作，所以每一步只取决于最慢的一级。" } },
    },
    hints = { { en = "How often do two workers deliver a batch? The GPU takes 30 ms of each such period.", zh = "两个 worker 多久交出一个 batch？每个这样的周期里 GPU 用掉 30 毫秒。" } },
    explain = { en = "Two workers deliver a batch every 128 / 2 = 64 ms; the GPU computes 30 ms of each 64: 46.9 %. The step is set by the slowest stage, here the workers.",
                zh = "两个 worker 每 128 / 2 = 64 毫秒交出一个 batch；每 64 毫秒里 GPU 计算 30 毫秒：46.9 %。每一步由最慢的一级决定，这里是 worker。" },
  },

  exercise {
    id = "workers-needed",
    kind = "number",
    prompt = { en = "Same batches: 128 ms for a worker to prepare one, 30 ms for the GPU to compute one. At least how many workers keep the GPU from ever waiting for data?",
               zh = "同样的 batch：一个 worker 准备一个要 128 毫秒，GPU 计算一个要 30 毫秒。至少要多少个 worker，GPU 才永远不用等数据？" },
    answer = 5, unit = "workers", tolerance = 0.001,
    mistakes = {
      { value = 4, say = { en = "4 workers deliver a batch every 32 ms, still slower than the GPU's 30 ms: round up.",
                           zh = "4 个 worker 每 32 毫秒交出一个 batch，仍比 GPU 的 30 毫秒慢：要向上取整。" } },
    },
    hints = { { en = "n workers deliver a batch every 128 / n ms; that must be at most 30 ms.", zh = "n 个 worker 每 128 / n 毫秒交出一个 batch；这个数不能超过 30 毫秒。" } },
    explain = { en = "128 / n <= 30 gives n >= 4.27: 5 workers (one every 25.6 ms). More than that only uses CPUs and shared memory for batches that wait.",
                zh = "128 / n ≤ 30 得 n ≥ 4.27：5 个 worker（每 25.6 毫秒一个）。再多只会用掉 CPU 和共享内存，让 batch 白白排队。" },
  },

  text { en = [[
## The loop on this device
The last experiment runs a training loop's shape as a program on this device: for each of 6
steps the host thread works on the next batch (20 ms, assumed: the loop's own Python and the pin
copy), the batch goes over the link, and a kernel computes on it (30 ms). One after the other,
the host waits for each step (a `sync`); overlapped, the host prepares batch i+1 while the GPU
computes batch i, with two device buffers and events between the copy stream and the compute
stream.
]], zh = [[
## 本设备上的训练循环
最后一个实验把训练循环的形状作为一个程序在本设备上运行：6 步中的每一步，主机线程为下一个 batch 做准备（20 毫秒，假设值：循环自身的 Python 代码和锁页拷贝），batch 经链路送出，核函数在它上面计算（30 毫秒）。依次执行时，主机每一步都等 GPU 做完（`sync`）；重叠执行时，GPU 计算第 i 个 batch 的同时，主机准备第 i+1 个，使用两块设备缓冲区，并在拷贝流和计算流之间用事件衔接。
]] },

  experiment {
    id = "loop",
    key = "gain",
    title = { en = "The host prepares the next batch while the GPU computes", zh = "GPU 计算时，主机准备下一个 batch" },
    intro = { en = [[
6 steps, each: host work (20 ms, assumed), a 9.63 MB batch copied in, a 30 ms kernel on it.
Run one after the other, then overlapped (copies on stream 2, kernels on stream 1, two device
buffers, events both ways). The host's work is real work on this machine's CPU on a GPU; the
timelines show the host, the copy engine and the SMs.
]], zh = [[
6 步，每步：主机工作（20 毫秒，假设值），拷入一个 9.63 MB 的 batch，在它上面运行 30 毫秒的核函数。先依次执行，再重叠执行（拷贝在流 2 上，核函数在流 1 上，两块设备缓冲区，双向用事件衔接）。在 GPU 上，主机工作是本机 CPU 上真实的工作；时间线显示主机、拷贝引擎和 SM。
]] },
    panels = {
      { id = "gain", kind = "bars", title = { en = "Time for 6 steps", zh = "6 步的时间" }, unit = "ms" },
      { id = "tl", kind = "timeline", title = { en = "Timeline: each step by its number", zh = "时间线：每步用它的编号表示" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local steps, prep, b = 6, 0.020, math.min(BATCH, gpu.budget() // 4) // 4 * 4
      local bufs = { h = { "pinned", steps * b }, d0 = { "device", b }, d1 = { "device", b } }
      local serial = { { "host_fill", "h" } }
      local over = { { "host_fill", "h" } }
      for i = 0, steps - 1 do
        local d, l = "d" .. i % 2, tostring(i)
        serial[#serial + 1] = { "cpu", seconds = prep, label = l }
        serial[#serial + 1] = { "copy", d, "h", src_off = i * b, bytes = b, label = l }
        serial[#serial + 1] = { "kernel", d, seconds = COMPUTE, label = l }
        serial[#serial + 1] = { "sync" }
        over[#over + 1] = { "cpu", seconds = prep, label = l }
        if i >= 2 then over[#over + 1] = { "wait", event = "done" .. (i - 2), stream = 2 } end
        over[#over + 1] = { "copy", d, "h", src_off = i * b, bytes = b, stream = 2, label = l }
        over[#over + 1] = { "record", event = "in" .. i, stream = 2 }
        over[#over + 1] = { "wait", event = "in" .. i, stream = 1 }
        over[#over + 1] = { "kernel", d, seconds = COMPUTE, stream = 1, label = l }
        over[#over + 1] = { "record", event = "done" .. i, stream = 1 }
      end
      over[#over + 1] = { "sync" }
      local names = { host = T("host", "主机"), h2d = T("H2D copy", "H2D 拷贝"), sm = T("SMs", "SM") }
      local kind = { cpu = T("host work (assumed)", "主机工作（假设）"), sync = T("host waits (sync)", "主机等待（sync）"),
                     copy = T("copy in", "拷入"), kernel = T("kernel", "核函数") }
      local results = {}
      for _, run in ipairs { { serial, T("one after the other", "依次执行") }, { over, T("overlapped", "重叠执行") } } do
        ex:status(run[2])
        local r, err = gpu.program { buffers = bufs, ops = run[1] }
        if not r then ex:note("gain", err); ex:status(T("failed", "失败")); return end
        results[#results + 1] = r
        -- the host's work and its waits (sync), the copy engine, the SMs; revealed in three steps
        local total = r.seconds
        for step = 1, 3 do
          local from, upto = total * (step - 1) / 3, step == 3 and math.huge or total * step / 3
          if step == 1 then
            ex:clear("tl")
            ex:span("tl", names.host, 0, 0, { kind = kind.cpu, total = total, from = r })
            ex:span("tl", names.h2d, 0, 0, { kind = kind.copy, total = total, from = r })
            ex:span("tl", names.sm, 0, 0, { kind = kind.kernel, total = total, from = r })
            ex:note("tl", string.format(T("shown: %s, %s", "显示的是：%s，%s"), run[2], units.time(total)))
          end
          for _, o in ipairs(r.ops) do
            local t0, t1 = o.start, o.finish
            if o.kind == "sync" then t0, t1 = o.issued, o.returned end
            if kind[o.kind] and t0 >= from and t0 < upto and t1 > t0 then
              ex:span("tl", names[o.kind == "copy" and "h2d" or o.lane], t0, t1, { kind = kind[o.kind], n = tonumber(o.label), total = total, from = r })
            end
          end
          ex:pause(0.4)
        end
        ex:bar("gain", run[2], r.seconds * 1e3, { from = r, unit = "ms" })
      end
      ex:note("gain", string.format(T("overlap saves %s of %s: the host's %s a step hides behind the GPU's %s.",
                                      "重叠省下 %s（共 %s）：每步主机的 %s 藏在了 GPU 的 %s 后面。"),
                                    units.time(results[1].seconds - results[2].seconds), units.time(results[1].seconds),
                                    units.time(prep), units.time(COMPUTE)))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
> [!errata] “一张224x224的RGB图像是150KB，64张就是9.6MB” (the lecture's batch of 9.6 MB)
> 224 x 224 x 3 = 150,528 bytes is the image as **one byte a value** (uint8): 64 of them are
> 9.63 MB. The tensor a model reads is float32 after `ToTensor()` and normalization, four bytes a
> value: 38.5 MB a batch, and that is what crosses PCIe if the conversion is done by the CPU
> workers. Sending uint8 and converting on the GPU moves a quarter of the bytes.
> Source: torchvision, `transforms.ToTensor` (uint8 [0, 255] to float [0, 1]); 224 x 224 x 3 x 4
> bytes x 64.

> [!source] Sources
> - CUDA C++ Best Practices Guide, "Zero Copy" ("advantageous only in certain cases", "read or written only once", "kernel-originated data transfers automatically overlap kernel execution", integrated GPUs) and "Unified Virtual Addressing"; CUDA Runtime API, cudaHostAlloc (cudaHostAllocMapped), cudaHostGetDevicePointer.
> - PyTorch, `torch.utils.data.DataLoader` (num_workers, pin_memory, prefetch_factor: "number of batches loaded in advance by each worker", default 2 when num_workers > 0, None when 0); PyTorch README, "Using pre-built images" (shared memory: `--ipc=host` or `--shm-size`).
> - PyTorch tutorial "A guide on good usage of non_blocking and pin_memory() in PyTorch"; PyTorch "CUDA semantics", CUDA streams (a copy is queued on the current stream; a side stream and `wait_stream` to overlap it).
> - Min et al., "EMOGI: Efficient Memory-access for Out-of-memory Graph-traversal in GPUs", PVLDB 14(2), 2020 (zero-copy reads of whole, aligned cache lines nearly use the PCIe link's full bandwidth).
> - torchvision, `transforms.ToTensor`.
> - The decode time (2 ms an image on one core), the host's work per step (20 ms) and the compute (30 ms a batch) are assumptions for the examples, not measurements.
]], zh = [[
> [!errata] “一张224x224的RGB图像是150KB，64张就是9.6MB”
> 224 × 224 × 3 = 150,528 字节是**每个值一个字节**（uint8）的图像：64 张是 9.63 MB。模型读取的张量在 `ToTensor()` 和归一化之后是 float32，每个值 4 字节：每个 batch 38.5 MB；如果转换由 CPU 上的 worker 完成，经过 PCIe 的就是这么多。送 uint8 过去、在 GPU 上转换，搬运的字节只有四分之一。
> 出处：torchvision 的 `transforms.ToTensor`（把 uint8 [0, 255] 转为 float [0, 1]）；224 × 224 × 3 × 4 字节 × 64。

> [!source] 出处
> - 《CUDA C++ 最佳实践指南》“Zero Copy”（“只在某些情况下划算”、“只读或只写一次”、“由核函数发起的数据传输会自动与核函数执行重叠”、集成 GPU）与“Unified Virtual Addressing”；《CUDA Runtime API》的 cudaHostAlloc（cudaHostAllocMapped）、cudaHostGetDevicePointer。
> - PyTorch 的 `torch.utils.data.DataLoader`（num_workers、pin_memory、prefetch_factor：“每个 worker 预先加载的 batch 数”，`num_workers` > 0 时默认 2，为 0 时为 None）；PyTorch README“Using pre-built images”（共享内存：`--ipc=host` 或 `--shm-size`）。
> - PyTorch 教程《A guide on good usage of non_blocking and pin_memory() in PyTorch》；PyTorch 文档“CUDA semantics”中的 CUDA 流（拷贝排在当前流上；要重叠就用旁路流和 `wait_stream`）。
> - Min 等，《EMOGI: Efficient Memory-access for Out-of-memory Graph-traversal in GPUs》，PVLDB 14(2)，2020（零拷贝按对齐的整缓存行读取，几乎能用满 PCIe 链路的带宽）。
> - torchvision 的 `transforms.ToTensor`。
> - 解码时间（每张图在一个核上 2 毫秒）、每步主机工作（20 毫秒）和计算时间（每个 batch 30 毫秒）是为举例而作的假设，不是测量值。
]] },

  exercise {
    id = "zerocopy-when",
    kind = "choice",
    prompt = { en = "On a discrete GPU, when is reading mapped (zero-copy) host memory the right choice?",
               zh = "在独立 GPU 上，什么时候直接读映射（零拷贝）主机内存是正确的选择？" },
    choices = {
      { en = "For weights that every step reads again", zh = "用于每一步都要重新读一遍的权重" },
      { en = "For data a kernel reads once, with coalesced accesses, and has work to do meanwhile", zh = "用于核函数只读一次、访问是合并的、而且读的同时有活可干的数据" },
      { en = "Whenever the data is larger than device memory", zh = "只要数据比显存大就用" },
    },
    answer = 2,
    why = {
      [1] = { en = "Each read crosses PCIe again: a copy to device memory once, then reads at the device's rate, wins from the second pass.", zh = "每次读都要再过一遍 PCIe：先拷到显存一次，之后以显存的速率读，从第二遍起就更快。" },
      [3] = { en = "Then each pass crosses the link too; stream it in chunks (6.2) unless it is read once.", zh = "那样每一遍也都要过链路；除非只读一次，否则应当分块流式送入（6.2）。" },
    },
    hints = { { en = "What does a second read of mapped memory cost?", zh = "第二次读映射内存要花多少？" } },
    explain = { en = "Zero-copy pays the link on every access and keeps nothing on the GPU; it wins when the data is used once, so there is no copy to amortize, and the kernel's work overlaps the transfer without streams.",
                zh = "零拷贝每次访问都要付链路的代价，GPU 上也不留任何东西；当数据只用一次、没有需要分摊的拷贝、并且核函数的计算能与传输重叠（不需要流）时，它才更快。" },
  },
}
