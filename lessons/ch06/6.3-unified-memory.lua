-- Lesson 6.3: unified memory. cudaMallocManaged's pages migrate on demand: a first pass that
-- faults them in, against a prefetch and against reading them where they lie (gpu.program with
-- managed buffers, prefetch and advice); then oversubscription: a managed buffer larger than what
-- a ballast leaves of device memory, faulting all of itself in on every pass.
local MiB, GiB = units.MiB, units.GiB

-- the managed buffer of the first experiment: 1 GiB, less where the cap or the host is smaller
local function um_bytes()
  local n = math.min(GiB, gpu.budget() // 2)
  if not gpu.info().simulated then n = math.min(n, host.budget() // 2) end
  return math.max(4096, n - n % 4096)
end

-- rate of one operation of a program: bytes over its time
local function rate(o, n) return n / (o.finish - o.start) end

-- the passes of a managed buffer first touched by the CPU, after `prep` operations
local function passes(n, prep, count)
  local ops = { { "host_fill", "m", seed = 3 } }
  for _, p in ipairs(prep) do ops[#ops + 1] = p end
  for k = 1, count do ops[#ops + 1] = { "read", "m", label = "pass " .. k } end
  return gpu.program { buffers = { m = { "managed", n } }, ops = ops }
end

return lesson {
  id = "6.3",
  chapter = 6,
  chapter_title = { en = "Feeding the GPU", zh = "给 GPU 喂数据" },
  title = { en = "Unified memory", zh = "统一内存" },
  requires = { "gpu" },

  text { en = [[
# Unified memory

`cudaMallocManaged` returns one pointer that the CPU and the GPU both use, with no
`cudaMemcpy` in the program. The bytes still have to cross the link; the difference is who moves
them and when. A managed page lives in one place at a time. When the GPU touches a page that is in
host memory, the access **faults**; the driver moves the page (and, guessing ahead, its
neighbours) to device memory and lets the access go on. Pages are created where they are first
touched: a buffer the CPU filled starts in host memory.

Faults are expensive. The GPU writes them to a fault buffer; the driver on the CPU fetches them
in batches (up to 256 by default in NVIDIA's open-source driver), groups them by 2 MiB block of
addresses, migrates the pages, updates the GPU's page tables and lets the accesses replay (a
report on Pascal: more than 10 µs a fault); while it does, the warps that faulted wait.
So migration on demand runs well below what a copy of the same bytes reaches. Three tools
replace it where the program knows better:

| call | what it does |
|---|---|
| `cudaMemPrefetchAsync(p, n, device)` (CUDA 13: a `cudaMemLocation` and flags) | moves the pages in bulk, on a stream, at close to copy speed |
| `cudaMemAdvise(.., SetReadMostly)` | reads make copies instead of moves: both sides keep one |
| `cudaMemAdvise(.., SetPreferredLocation / SetAccessedBy)` | the pages stay where they are preferred, and the GPU reads them there, over the link, without faulting |

It needs a GPU that takes page faults and a system that lets it: Pascal or newer, on Linux
(`cudaDevAttrConcurrentManagedAccess`); elsewhere managed memory moves whole buffers at each
kernel launch.
]], zh = [[
# 统一内存

`cudaMallocManaged` 返回一个 CPU 和 GPU 都能用的指针，程序里不需要 `cudaMemcpy`。字节仍然要经过链路；不同的是由谁、在什么时候搬运。托管的页一次只在一个地方。GPU 访问到一个位于主机内存的页时，这次访问会**缺页**（fault）；驱动把这一页（并预判着把相邻的页）搬到显存，然后让访问继续。页在首次被访问的地方创建：由 CPU 填写的缓冲区一开始就在主机内存里。

缺页很贵。GPU 把缺页写进一个缺页缓冲区；CPU 上的驱动成批取出（NVIDIA 开源驱动默认每批最多 256 个），按 2 MiB 的地址块归组，迁移这些页，更新 GPU 的页表，再让访问重放（一份关于 Pascal 的报告：每次缺页超过 10 微秒）；处理期间，缺页的线程束都在等待。所以按需迁移的速度远低于同样字节的一次拷贝。程序知道得更多时，有三种工具可以代替它：

| 调用 | 作用 |
|---|---|
| `cudaMemPrefetchAsync(p, n, device)`（CUDA 13：改为 `cudaMemLocation` 加 flags） | 在一个流上批量搬运这些页，速度接近拷贝 |
| `cudaMemAdvise(.., SetReadMostly)` | 读取时复制而不是搬走：两边各留一份 |
| `cudaMemAdvise(.., SetPreferredLocation / SetAccessedBy)` | 页留在首选的位置，GPU 经链路就地读取，不缺页 |

这需要能处理缺页的 GPU，以及允许它这样做的系统：Pascal 或更新的架构、Linux（`cudaDevAttrConcurrentManagedAccess`）；其他情况下，托管内存在每次启动核函数时整块搬运。
]] },

  exercise {
    id = "predict-fault-rate",
    kind = "predict",
    prompt = { en = "Before the experiment below: a kernel reads, for the first time, 1 GiB of managed memory the CPU filled. Predict the rate of that first pass on this device, in GB/s.",
               zh = "在下面的实验之前：核函数第一次读取 1 GiB 由 CPU 填写的托管内存。预测本设备上第一遍读取的速率，单位 GB/s。" },
    unit = "GB/s", tolerance = 0.5,
    measure = function()
      local n = um_bytes()
      local r = assert(passes(n, {}, 1))
      return rate(r.ops[2], n) / 1e9, r
    end,
    hints = { { en = "The pages cross the link, so the link's pinned rate (about 26 GB/s on PCIe 4.0 x16) is a ceiling; faults handled in batches reach a fraction of it.",
                zh = "页要经过链路，所以链路的锁页速率（PCIe 4.0 x16 上约 26 GB/s）是上限；按批处理的缺页只能达到它的一部分。" } },
    explain = { en = "A fraction of the link, far from device memory's hundreds of GB/s. On the simulator the profile's um_fault_efficiency sets the fraction, a teaching value: on a GPU the experiment measures it.",
                zh = "只有链路速率的一部分，离显存的几百 GB/s 很远。模拟器上这个比例由配置文件的 um_fault_efficiency 决定，是教学用的值；在 GPU 上由实验测出。" },
  },

  experiment {
    id = "first-touch",
    key = "bw",
    title = { en = "Faults, a prefetch, and reading in place", zh = "缺页、预取，以及就地读取" },
    intro = { en = [[
1 GiB of managed memory (less where the cap or the host is smaller), filled by the CPU, then read
by a kernel in three programs: two passes as it is (the first faults, the second finds the pages
in device memory); a prefetch to the device, then a pass; and the pages advised to stay in host
memory and be read there (prefer host, accessed by), then two passes. Every pass checks every
word it reads.
]], zh = [[
1 GiB 托管内存（实验上限或主机更小时少一些），由 CPU 填写，然后在三个程序里由核函数读取：照原样读两遍（第一遍缺页，第二遍发现页已在显存里）；先预取到设备，再读一遍；以及建议这些页留在主机内存、在那里读（prefer host、accessed by），然后读两遍。每遍都核对读到的每个字。
]] },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Rate of each pass", zh = "每遍的速率" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "Passes over managed memory", zh = "托管内存的各遍读取" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local n = um_bytes()
      ex:row("t", { T("program", "程序"), T("step", "步骤"), T("time", "时间"), T("rate", "速率"), T("faulted in", "缺页迁入") })
      local function show(name, r, label_of)
        for i = 2, #r.ops do
          local o = r.ops[i]
          if o.kind == "read" or o.kind == "prefetch" then
            ex:row("t", { name, label_of(o), units.time(o.finish - o.start), units.rate(rate(o, n)),
                          o.faulted and units.bytes(o.faulted) or T("n/a (not counted on a GPU)", "无（GPU 上不计数）") })
          end
        end
      end
      local function step(o) return o.kind == "prefetch" and T("prefetch", "预取") or (o.label == "pass 1" and T("pass 1", "第 1 遍") or T("pass 2", "第 2 遍")) end
      ex:status(T("faults", "缺页"))
      local a, err = passes(n, {}, 2)
      if not a then ex:note("t", err); ex:status(T("failed", "失败")); return end
      show(T("as it is", "照原样"), a, step)
      ex:bar("bw", T("first pass (faults)", "第一遍（缺页）"), rate(a.ops[2], n) / 1e9, { from = a })
      ex:status(T("prefetch", "预取"))
      local b, err2 = passes(n, { { "prefetch", "m", to = "device" } }, 1)
      if not b then ex:note("t", err2); ex:status(T("failed", "失败")); return end
      show(T("prefetch first", "先预取"), b, step)
      ex:bar("bw", T("prefetch", "预取"), rate(b.ops[2], n) / 1e9, { from = b })
      ex:bar("bw", T("second pass (resident)", "第二遍（已驻留）"), rate(a.ops[3], n) / 1e9, { from = a })
      ex:status(T("read in place", "就地读取"))
      local c, err3 = passes(n, { { "advise", "m", "prefer_host" }, { "advise", "m", "accessed_by" } }, 2)
      if not c then ex:note("t", err3); ex:status(T("failed", "失败")); return end
      show(T("read in place", "就地读取"), c, step)
      ex:bar("bw", T("read in place (each pass)", "就地读取（每遍）"), rate(c.ops[4], n) / 1e9, { from = c })
      ex:note("t", string.format(T("%s managed; faulting is %.0fx slower than a resident pass, a prefetch %.1fx faster than faulting.",
                                   "托管 %s；缺页比已驻留的一遍慢 %.0f 倍，预取比缺页快 %.1f 倍。"),
                                 units.bytes(n), (a.ops[2].finish - a.ops[2].start) / (a.ops[3].finish - a.ops[3].start),
                                 (a.ops[2].finish - a.ops[2].start) / (b.ops[2].finish - b.ops[2].start)))
      if a.simulated then
        ex:note("bw", T("SIMULATED: the profile's um_fault_efficiency and um_prefetch_efficiency are teaching values (docs/simulator.md); on a GPU this measures",
                        "模拟：配置文件的 um_fault_efficiency 和 um_prefetch_efficiency 是教学用的值（docs/simulator.md）；在 GPU 上由本实验实测"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "prefetch-saves",
    kind = "number",
    prompt = { en = "A kernel streams once through 3 GiB of managed memory the CPU filled. Faults migrate at 6 GB/s, a prefetch at 22 GB/s. How many ms does prefetching first save?",
               zh = "核函数把 3 GiB 由 CPU 填写的托管内存顺序读一遍。缺页迁移的速率是 6 GB/s，预取是 22 GB/s。先预取能省多少毫秒？" },
    answer = 3 * GiB * (1 / 6e9 - 1 / 22e9) * 1e3, unit = "ms", tolerance = 0.02,
    mistakes = {
      { value = 3 * GiB / 22e9 * 1e3, say = { en = "That is how long the prefetch takes; what it saves is the faulting time minus that.",
                                              zh = "这是预取本身要花的时间；省下的是缺页的时间减去它。" } },
      "gib_gb",
    },
    hints = { { en = "Time each way: bytes / rate, with 3 GiB = 3 x 2^30 bytes. The saving is the difference.", zh = "分别算两种方式的时间：字节 / 速率，3 GiB = 3 × 2^30 字节。省下的是两者之差。" } },
    explain = { en = "3 GiB = 3.22 GB: 537 ms by faults, 146 ms by prefetch: 390 ms saved, before the kernel even counts. And the prefetch runs on a stream, so it can overlap other work.",
                zh = "3 GiB = 3.22 GB：缺页 537 毫秒，预取 146 毫秒：省下 390 毫秒，这还没算核函数本身。而且预取在一个流上进行，能与其他工作重叠。" },
  },

  text { en = [[
## Past the device's capacity: oversubscription
A managed allocation may be larger than device memory. The driver then **evicts** pages, writing
them back to host memory, to make room for the ones a kernel faults in. NVIDIA's driver evicts
whole 2 MiB chunks, the one made resident longest ago first: it does not see the GPU's
individual accesses, so its "least recently used" means least recently migrated in. For a kernel
that sweeps the whole buffer in order the two agree, and the chunk evicted is always the one the
next pass will need soonest: once the buffer is larger than what the device can hold, **every pass faults all of
it in again**, and from the second pass on evicts as much: the second pass is slower than the
first. NVIDIA's study of a micro-benchmark found oversubscribed performance varying "up to 100x
depending on the platform, oversubscription factor, and memory hints". Reading the data where it
lies (prefer host, accessed by) moves nothing and runs at the link's rate: for a stream that does
not fit, that is usually the better deal.

The experiment below makes a small device of this one: a ballast of device memory takes what the
experiment cap allows, and a managed buffer 1.5 times what is left is swept twice, as it is and
read in place.
]], zh = [[
## 超出设备容量：超额分配（oversubscription）
托管分配可以比显存还大。这时驱动会**驱逐**一些页，把它们写回主机内存，为核函数缺页要迁入的页腾出地方。NVIDIA 的驱动按 2 MiB 的块驱逐，最早迁入的块先被驱逐：它看不到 GPU 的每一次访问，所以它的“最近最少使用”指的是最近最少迁入。对于按顺序扫过整个缓冲区的核函数，两者是一回事，被驱逐的块恰恰总是下一遍最先要用的：一旦缓冲区比设备装得下的更大，**每一遍都要把它全部重新缺页迁入**，从第二遍起还要驱逐同样多：第二遍比第一遍更慢。NVIDIA 对一个微基准的研究发现，超额分配时的性能“随平台、超额倍数和内存建议不同，相差可达 100 倍”。就地读取数据（prefer host、accessed by）什么也不搬，以链路的速率运行：对于装不下的数据流，这通常更划算。

下面的实验把本设备变成一块小设备：一块“压舱”显存占去实验上限允许的部分，再把一块为剩余空间 1.5 倍的托管缓冲区读两遍，分别照原样读和就地读。
]] },

  experiment {
    id = "oversubscribe",
    key = "slow",
    title = { en = "A managed buffer 1.5x the room left", zh = "比剩余空间大 1.5 倍的托管缓冲区" },
    intro = { en = [[
A ballast of device memory as large as the experiment cap allows leaves `room` free; a managed
buffer of 1.5 x room (less where the host cannot hold it) is filled by the CPU, then read twice
as it is, and twice with the pages advised to stay in host memory. Then the same bytes read from
device memory, for scale.
]], zh = [[
一块实验上限允许的最大“压舱”显存，剩下 `room` 的空闲；一块 1.5 × room 的托管缓冲区（主机装不下时少一些）由 CPU 填写，然后照原样读两遍，再在建议页留在主机内存的情况下读两遍。最后从显存读同样多的字节，作为对比。
]] },
    panels = {
      { id = "slow", kind = "bars", title = { en = "Slower than reading device memory", zh = "比读显存慢多少倍" }, unit = "x" },
      { id = "t", kind = "table", title = { en = "Oversubscribed passes", zh = "超额分配时的各遍读取" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local free = gpu.mem()
      local ballast = gpu.budget() // (2 * MiB) * (2 * MiB)
      local room = free - ballast
      local n = room * 3 // 2
      if not gpu.info().simulated then n = math.min(n, host.budget() // 2) end
      n = n - n % 4096
      if n <= room then
        ex:note("t", string.format(T("This run's host budget (%s) cannot hold a buffer larger than the %s the ballast leaves: no oversubscription here.",
                                     "本次运行的主机预算（%s）放不下比压舱后剩余的 %s 更大的缓冲区：这里无法超额分配。"),
                                   units.bytes(host.budget()), units.bytes(room)))
        ex:status(T("skipped", "已跳过"))
        return
      end
      local function over(prep)
        local ops = { { "host_fill", "m", seed = 4 } }
        for _, p in ipairs(prep) do ops[#ops + 1] = p end
        ops[#ops + 1] = { "read", "m", label = "1" }
        ops[#ops + 1] = { "read", "m", label = "2" }
        return gpu.program { buffers = { ballast = { "device", ballast }, m = { "managed", n } }, ops = ops }
      end
      ex:status(T("as it is", "照原样"))
      local a, err = over {}
      if not a then ex:note("t", err); ex:status(T("failed", "失败")); return end
      ex:status(T("read in place", "就地读取"))
      local b, err2 = over { { "advise", "m", "prefer_host" }, { "advise", "m", "accessed_by" } }
      if not b then ex:note("t", err2); ex:status(T("failed", "失败")); return end
      local d, err3 = gpu.program { buffers = { d = { "device", math.min(n, gpu.budget()) // 4 * 4 } }, ops = { { "fill", "d" }, { "read", "d" } } }
      if not d then ex:note("t", err3); ex:status(T("failed", "失败")); return end
      local base = (d.ops[2].finish - d.ops[2].start) * n / d.ops[2].bytes
      ex:row("t", { T("program", "程序"), T("pass", "遍"), T("time", "时间"), T("rate", "速率"), T("faulted in", "缺页迁入"), T("evicted", "驱逐") })
      for _, run in ipairs { { T("as it is", "照原样"), a, 2 }, { T("read in place", "就地读取"), b, 4 } } do
        for k = 0, 1 do
          local o = run[2].ops[run[3] + k]
          ex:row("t", { run[1], tostring(k + 1), units.time(o.finish - o.start), units.rate(rate(o, n)),
                        o.faulted and units.bytes(o.faulted) or "n/a", o.evicted and units.bytes(o.evicted) or "n/a" })
        end
      end
      local ao, bo = a.ops[3], b.ops[5]
      ex:bar("slow", T("second pass, as it is", "第二遍，照原样"), (ao.finish - ao.start) / base, { from = a })
      ex:bar("slow", T("second pass, read in place", "第二遍，就地读取"), (bo.finish - bo.start) / base, { from = b })
      ex:note("t", string.format(T("ballast %s leaves %s; managed %s (%.2fx the room); reading %s of device memory: %s.",
                                   "压舱 %s，剩 %s；托管 %s（剩余空间的 %.2f 倍）；从显存读 %s：%s。"),
                                 units.bytes(ballast), units.bytes(room), units.bytes(n), n / room, units.bytes(n), units.time(base)))
      if a.simulated then
        ex:note("slow", T("SIMULATED: faults, evictions and link reads are the simulator's model (docs/simulator.md)",
                          "模拟：缺页、驱逐和链路读取都来自模拟器的模型（docs/simulator.md）"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## "It does not fit" (chapter 1), again
Unified memory turns an out-of-memory error into a program that runs, at the link's speed. A 7B
model's fp16 weights (14 GB) on a card with 12 GB free: a forward pass reads every weight once;
under oversubscription each pass faults all of them in again, 14 GB at a few GB/s, seconds per
token instead of milliseconds. What unified memory is good for is memory that overflows **rarely
and a little**: QLoRA's paged optimizers put optimizer states in managed memory so that a spike
is paged out instead of crashing the step. For data that never fits, stream it (6.2) or read it
in place (6.4), on purpose.

> [!errata] “用torch.cuda.amp做混合精度训练时……频繁的CPU-GPU数据交换导致训练速度暴跌” (mixed precision and CPU-GPU exchange)
> Mixed precision (`torch.autocast`, `torch.cuda.amp`) keeps everything on the GPU: it casts
> tensors there, and moves nothing to the CPU. What makes a training step slow by moving data
> between host and device is offloading (optimizer or activations on the CPU), memory that
> oversubscribes the GPU (unified memory, above), or a `.item()`/`.cpu()` in the loop that
> waits for the GPU. The lecture's lesson stands: memory borrowed from the host costs the link's
> bandwidth on every access, measured here.
> Source: PyTorch, "Automatic Mixed Precision package - torch.amp" (autocast runs ops in lower
> precision on the device); the experiments of this section.

> [!source] Sources
> - CUDA C++ Programming Guide, "Unified Memory Programming" (page migration on demand, cudaMemPrefetchAsync, cudaMemAdvise: SetReadMostly, SetPreferredLocation, SetAccessedBy; cudaDevAttrConcurrentManagedAccess); CUDA Runtime API, cudaMallocManaged.
> - NVIDIA developer blog, "Maximizing Unified Memory Performance in CUDA" (2017: fault batches, on-demand migration against prefetching); "Improving GPU Memory Oversubscription Performance" (2021: "up to 100x depending on the platform, oversubscription factor, and memory hints"; zero-copy and access hints under oversubscription).
> - NVIDIA open-gpu-kernel-modules, `kernel-open/nvidia-uvm/uvm_pmm_gpu.c` (`pick_root_chunk_to_evict`: the first 2 MiB root chunk of the used list, chunks moved to its tail when pages are made resident, "TODO: ... whenever they get mapped"), `uvm_gpu_replayable_faults.c` (faults fetched from the GPU's buffer and serviced in batches: `uvm_perf_fault_batch_count`, default 256) and `uvm_va_block_types.h` (`UVM_VA_BLOCK_SIZE` = 2^21 B: managed memory tracked in 2 MiB blocks).
> - GTC Japan 2016 report on Pascal unified memory (a page fault costs more than 10 µs; one report).
> - CUDA Runtime API, cudaMemPrefetchAsync and cudaMemAdvise (CUDA 13.0: the destination is a cudaMemLocation).
> - Dettmers et al. 2023, "QLoRA: Efficient Finetuning of Quantized LLMs" (paged optimizers on unified memory).
> - PyTorch, "Automatic Mixed Precision package - torch.amp".
]], zh = [[
## 再谈“装不下”（第 1 章）
统一内存能把一个显存不足的错误变成一个能运行的程序，只是以链路的速度运行。7B 模型的 fp16 权重（14 GB）放到只剩 12 GB 空闲的卡上：一次前向要把每个权重读一遍；超额分配时每一遍都要把它们全部重新缺页迁入，14 GB 以每秒几 GB 的速度，每个 token 要几秒而不是几毫秒。统一内存适合的是**偶尔、少量**溢出的内存：QLoRA 的分页优化器把优化器状态放在托管内存里，这样一次峰值会被换页出去，而不是让这一步崩溃。对于永远装不下的数据，应当有意地把它流式送入（6.2）或就地读取（6.4）。

> [!errata] “用torch.cuda.amp做混合精度训练时……频繁的CPU-GPU数据交换导致训练速度暴跌”
> 混合精度（`torch.autocast`、`torch.cuda.amp`）把一切都留在 GPU 上：它在那里转换张量的精度，不往 CPU 搬任何东西。让训练步因为在主机和设备之间搬数据而变慢的，是卸载（优化器或激活放在 CPU 上）、超出 GPU 容量的内存（统一内存，见上文），或者循环里等待 GPU 的 `.item()`/`.cpu()`。讲义的结论仍然成立：从主机借来的内存，每次访问都要付链路带宽的代价，这里已经测出来了。
> 出处：PyTorch 文档《Automatic Mixed Precision package - torch.amp》（autocast 在设备上以较低精度运行算子）；本节的实验。

> [!source] 出处
> - 《CUDA C++ 编程指南》“Unified Memory Programming”（按需页迁移、cudaMemPrefetchAsync、cudaMemAdvise：SetReadMostly、SetPreferredLocation、SetAccessedBy；cudaDevAttrConcurrentManagedAccess）；《CUDA Runtime API》的 cudaMallocManaged。
> - NVIDIA 开发者博客《Maximizing Unified Memory Performance in CUDA》（2017：缺页按批处理，按需迁移与预取的对比）；《Improving GPU Memory Oversubscription Performance》（2021：“随平台、超额倍数和内存建议不同，相差可达 100 倍”；超额分配时的零拷贝与访问建议）。
> - NVIDIA open-gpu-kernel-modules：`kernel-open/nvidia-uvm/uvm_pmm_gpu.c`（`pick_root_chunk_to_evict`：取已用链表的第一个 2 MiB 根块，页驻留时块被移到链表尾部，“TODO: ... whenever they get mapped”）、`uvm_gpu_replayable_faults.c`（从 GPU 的缓冲区取出缺页、成批处理：`uvm_perf_fault_batch_count`，默认 256）与 `uvm_va_block_types.h`（`UVM_VA_BLOCK_SIZE` = 2^21 B：托管内存按 2 MiB 的块管理）。
> - GTC Japan 2016 关于 Pascal 统一内存的报道（每次缺页超过 10 微秒；单一报告）。
> - 《CUDA Runtime API》的 cudaMemPrefetchAsync 与 cudaMemAdvise（CUDA 13.0：目标改为 cudaMemLocation）。
> - Dettmers 等 2023，《QLoRA: Efficient Finetuning of Quantized LLMs》（基于统一内存的分页优化器）。
> - PyTorch 文档《Automatic Mixed Precision package - torch.amp》。
]] },

  exercise {
    id = "weights-fault",
    kind = "number",
    prompt = { en = "A 7B model's 14 GB of fp16 weights sit in managed memory on a card with 12 GB free. Each forward pass reads every weight once, in order, and faults migrate at 6 GB/s. How many seconds does one forward pass spend faulting, once the first pass has filled the device?",
               zh = "7B 模型的 14 GB fp16 权重放在托管内存里，卡上只剩 12 GB 空闲。每次前向按顺序把每个权重读一遍，缺页迁移速率 6 GB/s。第一遍把设备填满以后，每次前向要花多少秒在缺页上？" },
    answer = 14 / 6, unit = "s", tolerance = 0.02,
    mistakes = {
      { value = 2 / 6, say = { en = "That faults only the 2 GB that do not fit. Reading in order under least-recently-used eviction, each page needed next is the one evicted longest ago: all 14 GB fault in again.",
                               zh = "这是只让装不下的 2 GB 缺页。按顺序读、按最近最少使用驱逐时，接下来要用的页恰恰是最早被驱逐的：全部 14 GB 都要重新缺页迁入。" } },
      "x1000",
    },
    hints = { { en = "Which pages does the driver evict to make room, and which does the next part of the pass need?", zh = "驱动驱逐哪些页来腾地方？这一遍接下来要用的又是哪些页？" } },
    explain = { en = "14 GB / 6 GB/s = 2.33 s per pass, against 14 GB / 360 GB/s = 39 ms from device memory on a 12 GB GDDR6 card: 60 times slower. Reading the weights in place over the link (prefer host) would move nothing and run at the link's rate.",
                zh = "14 GB / 6 GB/s = 每遍 2.33 秒；而在一块 12 GB GDDR6 的卡上从显存读是 14 GB / 360 GB/s = 39 毫秒：慢 60 倍。经链路就地读取权重（prefer host）什么也不搬，以链路的速率运行。" },
  },

  exercise {
    id = "lru",
    kind = "choice",
    prompt = { en = "A 30 GiB managed buffer is read in order, twice, on a 24 GiB GPU. Why is the second pass no faster than the first (slower, in fact)?",
               zh = "在一块 24 GiB 的 GPU 上，按顺序把一块 30 GiB 的托管缓冲区读两遍。为什么第二遍一点也不比第一遍快（实际上更慢）？" },
    choices = {
      { en = "Managed memory is never cached on the device", zh = "托管内存从来不会缓存在设备上" },
      { en = "Making room for the end of the first pass evicted its beginning, which the second pass needs first; so it faults everything in again", zh = "为第一遍的结尾腾地方时驱逐了它的开头，而第二遍首先要用的正是开头；所以又得全部重新缺页迁入" },
      { en = "The second pass must wait for the first pass's pages to be written back to disk", zh = "第二遍必须等第一遍的页写回磁盘" },
    },
    answer = 2,
    why = {
      [1] = { en = "It is: a buffer that fits is fast from the second pass on (the first experiment).", zh = "会缓存：装得下的缓冲区从第二遍起就很快（第一个实验）。" },
      [3] = { en = "Evicted pages go back to host memory, not to disk; the problem is which pages are evicted.", zh = "被驱逐的页回到主机内存，不是磁盘；问题在于驱逐了哪些页。" },
    },
    hints = { { en = "At the end of pass one, which 24 GiB are on the device? Which bytes does pass two want first?", zh = "第一遍结束时，设备上是哪 24 GiB？第二遍最先要的是哪些字节？" } },
    explain = { en = "Least-recently-used eviction keeps the last 24 GiB read; pass two starts at the beginning, long evicted, and evicts each page just before it would be needed. A sweep larger than memory gets no reuse at all: stream it or read it in place.",
                zh = "最近最少使用的驱逐策略留下的是最后读到的 24 GiB；第二遍从开头开始，而开头早已被驱逐，并且每一页都在快要用到之前被驱逐。比内存大的顺序扫描完全得不到复用：应当流式送入或就地读取。" },
  },
}
