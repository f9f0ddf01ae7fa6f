-- Lesson 7.2: the L2 cache. Bandwidth vs working set re-read through L2 (gpu.reread, L1
-- bypassed), from 256 KiB past the L2's size as the device reports it, the steps found and named
-- by size (gpu.plateaus); then an L2 persistence window (cudaAccessPolicyWindow) on a hot array
-- re-read beside a streamed one (gpu.persist), where the device has persistence.
local KiB, MiB = units.KiB, units.MiB
local GB = 1e9

-- the sweep's sizes: 256 KiB to 16 x the L2 (at most 4 GiB), within the cap
local function sizes()
  local l2 = gpu.info().l2_bytes or 4 * MiB
  local top = math.min(16 * l2, 4 * 1024 * MiB, gpu.budget())
  local t, n = {}, 256 * KiB
  while n <= top do t[#t + 1] = n; n = n * 2 end
  return t, l2
end

-- the hot array: the set-aside where there is one (else 3/4 of the L2), never below 64 KiB
local function hot_bytes()
  local i = gpu.info()
  local h = i.l2_persist_max_bytes or (i.l2_bytes or 4 * MiB) * 3 // 4
  return math.max(64 * KiB, h - h % 4096)
end

return lesson {
  id = "7.2",
  chapter = 7,
  chapter_title = { en = "Inside the memory system", zh = "深入内存系统" },
  title = { en = "The L2 cache", zh = "L2 缓存" },
  requires = { "gpu" },

  text { en = [[
# The L2 cache

Every load and store of every SM goes through the **L2**: one cache shared by the whole GPU,
between the SMs and DRAM. Its size is a device attribute (`cudaDevAttrL2CacheSize`,
`gpu.info().l2_bytes`): 4 MiB on a T4, 6 MiB on an RTX 3090, 40 MiB on an A100, 50 MiB on an
H100 SXM, 72 MiB on an RTX 4090 (NVIDIA's "40 MB" and the rest are these binary sizes). Data the
L2 holds comes back faster than DRAM delivers it, by a factor NVIDIA seldom publishes (an A100's
L2 has 2.3 times the read bandwidth of a V100's; this course's profiles assume 2 to 3 times
DRAM's), so the same kernel runs at two speeds: one while its working set fits in the L2, another
once it does not.

The experiment re-reads one working set again and again and grows it from 256 KiB to 16 times
the L2. Its loads skip the per-SM L1 (PTX `ld.global.cg`, "cache at global level"), so what it
shows is the L2 alone: a plateau at the L2's bandwidth, a step down where the set outgrows it, a
plateau at DRAM's. A set read in the same order every time is the worst case for a cache that
evicts the least recently used line: past the L2's size, each line is gone by the time it is
wanted again. A real L2 keeps some (its replacement is not plain LRU), so the step is not a cliff;
the simulator spreads it over a factor of two.

On the A100 and the Hopper GPUs the L2 is built as two partitions, each caching data for the
SMs nearest to it; an SM reading a line the far partition holds pays a longer trip (NVIDIA's A100
whitepaper; for the H100, one public measurement, Chips and Cheese's). Their step is therefore
often two steps (lesson 3.3 saw the same in latency: "L2 near", "L2 far").

## What the L2 means for "memory-bound"
A kernel is memory-bound when moving its bytes takes longer than its arithmetic. Which bytes?
Where they come from decides the bandwidth: a kernel that re-reads a working set smaller than
the L2 is bounded by the L2's bandwidth, not DRAM's, and can run well past the DRAM figure of
the spec sheet. Nsight Compute draws this as a **hierarchical roofline**, one roof per level
(L1, L2, DRAM). Lesson 7.5 places kernels under the DRAM roof; keep in mind that a kernel which
fits in the L2 is under a higher one.
]], zh = [[
# L2 缓存

每个 SM 的每次加载和存储都要经过 **L2**：整块 GPU 共用的一个缓存，位于 SM 和显存之间。它的大小是一个设备属性（`cudaDevAttrL2CacheSize`，`gpu.info().l2_bytes`）：T4 4 MiB，RTX 3090 6 MiB，A100 40 MiB，H100 SXM 50 MiB，RTX 4090 72 MiB（NVIDIA 写的“40 MB”等指的都是这些二进制大小）。L2 里的数据读回来比显存快，快多少 NVIDIA 很少公布（A100 的 L2 读带宽是 V100 的 2.3 倍；本课程的配置文件假设为显存的 2 到 3 倍），所以同一个核函数有两种速度：工作集装得进 L2 时一种，装不下以后另一种。

实验反复读同一个工作集，把它从 256 KiB 增大到 L2 的 16 倍。它的加载绕过每个 SM 的 L1（PTX `ld.global.cg`，在全局层级缓存），所以看到的只有 L2：L2 带宽处一个平台，工作集超出 L2 的地方往下一级台阶，显存带宽处又一个平台。每次按同样顺序读一个工作集，对淘汰最久未用行的缓存是最坏情况：超过 L2 的大小以后，每一行在再次被用到之前都已经被淘汰了。真实的 L2 会留下一部分（它的替换策略不是单纯的 LRU），所以这级台阶不是悬崖；模拟器把它摊在两倍的范围上。

A100 和 Hopper 系列 GPU 的 L2 分成两个分区，各自为离它近的 SM 缓存数据；SM 读取存放在远端分区的行，要多走一段路（A100 见 NVIDIA 的白皮书；H100 只有一份公开测量，来自《Chips and Cheese》网站）。所以它们的台阶常常是两级（第 3.3 节在延迟上看到了同样的现象：“L2 near”、“L2 far”）。

## L2 对“受限于内存”意味着什么
当搬运字节比算术运算更费时间，核函数就受限于内存。是哪里的字节？数据从哪里来决定了带宽：反复读一个比 L2 小的工作集的核函数，受限的是 L2 的带宽而不是显存的，可以远远超过规格表上的显存带宽。Nsight Compute 把它画成**分层 roofline**，每一级存储（L1、L2、显存）各一个屋顶。第 7.5 节把核函数放在显存屋顶之下；要记住，装得进 L2 的核函数头上是一个更高的屋顶。
]] },

  exercise {
    id = "predict-l2",
    kind = "predict",
    prompt = { en = "Predict the bandwidth of re-reading a working set of half this device's L2 (GB/s).",
               zh = "预测在本设备上反复读一个 L2 一半大小的工作集时的带宽（GB/s）。" },
    unit = "GB/s", tolerance = 0.4,
    measure = function()
      local r = assert(gpu.reread { bytes = math.max(4096, (gpu.info().l2_bytes or 4 * MiB) // 2) })
      return r.bytes_per_s / GB, r
    end,
    hints = { { en = "It fits in the L2: the sweep below will show it on its first plateau, 2 to 3 times the DRAM figure in this course's profiles.", zh = "它装得进 L2：下面的扫描会把它画在第一个平台上，在本课程的配置文件里是显存带宽的 2 到 3 倍。" } },
    explain = { en = "Half the L2 is read from the L2 on every pass after the first: the L2's bandwidth, 2 to 3 times DRAM's in this course's profiles (a real GPU's ratio is its own), as the sweep's first plateau shows.",
                zh = "L2 一半大小的工作集在第一遍之后每一遍都从 L2 读：是 L2 的带宽，在本课程的配置文件里是显存的 2 到 3 倍（真实 GPU 的比值各不相同），就是扫描的第一个平台。" },
  },

  experiment {
    id = "sweep",
    key = "curve",
    title = { en = "Bandwidth vs working set, through L2", zh = "带宽 vs 工作集（经由 L2）" },
    intro = { en = [[
Re-reads a working set of 256 KiB, 512 KiB, ... up to 16 times the L2 (the device's own
attribute), at least 1 GiB per launch, with loads that skip L1; the sum of what was read is
checked each time. The steps are found in the curve (a change of more than 40 % between two
sizes) and named by where they end against the L2's size.
]], zh = [[
反复读 256 KiB、512 KiB……直到 L2 的 16 倍（设备自己报告的属性）大小的工作集，每次启动至少读 1 GiB，加载绕过 L1；每次都核对读到的总和。台阶从曲线里找出（相邻两个大小之间变化超过 40 %），再按它结束的位置与 L2 大小比较来命名。
]] },
    panels = {
      { id = "curve", kind = "curve", title = { en = "GB/s re-reading a working set", zh = "反复读一个工作集的 GB/s" },
        x = "bytes", y = "GB/s", logx = true },
      { id = "t", kind = "table", title = { en = "Plateaus found", zh = "找到的平台" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local list, l2 = sizes()
      local pts = {}
      for _, n in ipairs(list) do
        ex:status(units.bytes(n))
        local r, err = gpu.reread { bytes = n }
        if not r then ex:note("curve", err); break end
        ex:point("curve", T("re-read", "反复读"), n, r.bytes_per_s / GB, { from = r })
        pts[#pts + 1] = { bytes = n, ns = 1e12 / r.bytes_per_s } -- time per byte: a step is a jump in it
      end
      ex:row("t", { T("level", "层级"), T("working set", "工作集"), T("bandwidth", "带宽") })
      for _, p in ipairs(gpu.plateaus(pts, { levels = { { name = "L2", bytes = l2 } } })) do
        ex:row("t", { p.label, units.bytes(p.from) .. " – " .. units.bytes(p.to), units.rate(1e12 / p.ns) })
      end
      ex:note("t", string.format(T("L2 of this device: %s (cudaDevAttrL2CacheSize); each level's bandwidth is the median of its run.",
                                   "本设备的 L2：%s（cudaDevAttrL2CacheSize）；每一级的带宽是这一段的中位数。"), units.bytes(l2)))
      if #pts >= 2 then
        ex:note("curve", string.format(T("Smallest set / largest: %.1fx the bandwidth.", "最小工作集 / 最大工作集：带宽的 %.1f 倍。"),
                                       pts[#pts].ns / pts[1].ns))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Persistence: asking the L2 to keep something
Since compute capability 8.0 (Ampere) a program can set aside part of the L2 for data it marks
**persisting**, so that a stream of data read once cannot evict it. Two steps, from the CUDA C++
Programming Guide:

```
cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, setaside);   /* at most persistingL2CacheMaxSize */
cudaStreamAttrValue a = {};
a.accessPolicyWindow.base_ptr  = hot;             /* the data to keep */
a.accessPolicyWindow.num_bytes = hot_bytes;       /* at most accessPolicyMaxWindowSize */
a.accessPolicyWindow.hitRatio  = 1.0;             /* the share of the window treated as persisting */
a.accessPolicyWindow.hitProp   = cudaAccessPropertyPersisting;
a.accessPolicyWindow.missProp  = cudaAccessPropertyStreaming;
cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &a);
```

Kernels launched on that stream then keep the window's lines in the set-aside. The limits are
device attributes: an A100 reports a set-aside of at most 30 MiB of its 40 MiB
(`cudaDevAttrMaxPersistingL2CacheSize`) and a window of at most 134,213,632 bytes, 4 KiB short
of 128 MiB (`accessPolicyMaxWindowSize`). Three things the guide
warns about: lines stay persisting after the kernels end until `cudaCtxResetPersistingL2Cache()`
(or the window is removed and the lines age out), so reset when the phase is over; the set-aside
is not available in MIG mode; under MPS only the server sets it
(`CUDA_DEVICE_DEFAULT_PERSISTING_L2_CACHE_PERCENTAGE_LIMIT`).

**The hit ratio.** When the window is larger than the set-aside, persisting lines evict each
other and the window thrashes. The Best Practices Guide's remedy: set `hitRatio` to set-aside /
window bytes, so that the part of the window marked persisting fits and the rest is streamed.
]], zh = [[
## 持久化：请 L2 留住一些数据
从计算能力 8.0（Ampere）开始，程序可以把 L2 的一部分留给它标为**持久**（persisting）的数据，这样只读一遍的数据流就不能把它挤出去。按《CUDA C++ 编程指南》分两步：

```
cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, setaside);   /* 最多 persistingL2CacheMaxSize */
cudaStreamAttrValue a = {};
a.accessPolicyWindow.base_ptr  = hot;             /* 要留住的数据 */
a.accessPolicyWindow.num_bytes = hot_bytes;       /* 最多 accessPolicyMaxWindowSize */
a.accessPolicyWindow.hitRatio  = 1.0;             /* 窗口中按持久处理的比例 */
a.accessPolicyWindow.hitProp   = cudaAccessPropertyPersisting;
a.accessPolicyWindow.missProp  = cudaAccessPropertyStreaming;
cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &a);
```

此后在这个流上启动的核函数会把窗口里的行留在预留区里。上限是设备属性：A100 报告最多能从 40 MiB 的 L2 里预留 30 MiB（`cudaDevAttrMaxPersistingL2CacheSize`），窗口最大 134,213,632 字节，比 128 MiB 少 4 KiB（`accessPolicyMaxWindowSize`）。指南提醒了三件事：核函数结束后这些行仍是持久的，直到调用 `cudaCtxResetPersistingL2Cache()`（或者去掉窗口，让它们慢慢老化），所以一个阶段结束时要重置；MIG 模式下没有预留区；在 MPS 下只有服务器能设定它（`CUDA_DEVICE_DEFAULT_PERSISTING_L2_CACHE_PERCENTAGE_LIMIT`）。

**命中比例**（hitRatio）。窗口比预留区大时，持久的行会互相挤占，窗口就会颠簸。《最佳实践指南》的办法：把 `hitRatio` 设为预留区 / 窗口字节数，让标为持久的那部分窗口正好装得下，其余按流式处理。
]] },

  experiment {
    id = "window",
    key = "bw",
    title = { en = "A hot array beside a stream, with and without a window", zh = "数据流旁的热数组：有窗口与没有窗口" },
    intro = { en = [[
Streams a cold array of 256 MiB (less where it would not fit) once per launch and, beside every
16 bytes of it, re-reads 16 bytes of a hot array the size of the L2's set-aside (3/4 of the L2
where the device has none): between two reads of the same hot line, as many cold bytes pass.
Without a window the stream evicts the hot array; with one on it (hitRatio 1) the hot array stays.
The window is set for the timed launches only and reset afterwards.
]], zh = [[
每次启动把 256 MiB（放不下就少一些）的冷数组流式读一遍，并在它的每 16 字节旁边读 16 字节热数组；热数组和 L2 的预留区一样大（设备没有预留区时取 L2 的 3/4）：同一热行的两次读取之间，会流过同样多的冷字节。没有窗口时数据流会把热数组挤出去；加上窗口（hitRatio 为 1）热数组就留下了。窗口只在计时的那几次启动期间设置，之后就重置。
]] },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Effective bandwidth, hot + cold", zh = "有效带宽（热 + 冷）" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "The window", zh = "窗口" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local hot = hot_bytes()
      local cold = math.max(hot, math.min(256 * MiB, (gpu.budget() - hot) // 2))
      cold = cold - cold % 16
      ex:row("t", { T("case", "情形"), T("window set", "设置了窗口"), T("set-aside", "预留区"), T("effective", "有效带宽") })
      local plain, win
      for _, w in ipairs { false, true } do
        local name = w and T("window on the hot array", "热数组上有窗口") or T("no window", "没有窗口")
        ex:status(name)
        local r, err = gpu.persist { hot = hot, cold = cold, window = w }
        if not r then ex:note("t", err); break end
        ex:bar("bw", name, r.bytes_per_s / GB, { from = r })
        ex:row("t", { name, r.window and T("yes", "是") or T("no", "否"), units.bytes(r.setaside_bytes), units.rate(r.bytes_per_s) })
        if w then win = r else plain = r end
      end
      ex:note("t", string.format(T("Hot array %s, cold %s.", "热数组 %s，冷数组 %s。"), units.bytes(hot), units.bytes(cold)))
      if win and not win.window then
        ex:note("bw", T("This device has no L2 set-aside (compute capability below 8.0, or MIG): the window was not set, both runs are alike.",
                        "本设备没有 L2 预留区（计算能力低于 8.0，或处于 MIG 模式）：窗口没有设上，两次运行一样。"))
      elseif plain and win then
        ex:note("bw", string.format(T("With the window: %.2fx.", "有窗口时：%.2f 倍。"), win.bytes_per_s / plain.bytes_per_s))
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "reuse-fit",
    kind = "number",
    prompt = { en = "A kernel streams a large array once and, beside every byte of it, re-reads a byte of a lookup table in order, so between two reads of the same table byte as many stream bytes pass through the L2 as the table holds. With an L2 of 50 MiB that evicts the least recently used line, how large can the table be and still be found in the L2? Answer in MiB.",
               zh = "一个核函数把一个大数组流式读一遍，并在它的每个字节旁边按顺序读查找表的一个字节；于是同一表字节的两次读取之间，流过 L2 的数据流字节和表一样多。L2 为 50 MiB，淘汰最久未用的行，表最大多大还能在 L2 里找到？单位 MiB。" },
    answer = 25, unit = "MiB", tolerance = 0.02,
    mistakes = {
      { value = 50, say = { en = "The table alone fits, but between two uses of a line the stream brings as many bytes again: the reuse distance is twice the table.",
                            zh = "单看表是装得下，但一行的两次使用之间，数据流又带进同样多的字节：重用距离是表的两倍。" } },
    },
    hints = { { en = "What has the L2 seen between two reads of the same table byte?", zh = "同一个表字节的两次读取之间，L2 里进出了什么？" } },
    explain = { en = "Between two reads of a table byte the L2 sees the whole table and as many stream bytes: 2 x table <= 50 MiB, so 25 MiB. A persistence window lifts the limit to the set-aside: the stream can no longer evict the table.",
                zh = "同一表字节的两次读取之间，L2 见过整张表和同样多的数据流字节：2 × 表 <= 50 MiB，所以是 25 MiB。持久化窗口把上限提高到预留区的大小：数据流再也挤不掉这张表。" },
  },

  exercise {
    id = "hit-ratio",
    kind = "number",
    prompt = { en = "An A100 sets aside 30 MiB of its L2 for persisting accesses, and a kernel's access policy window covers 48 MiB. Which hitRatio does the Best Practices Guide's rule give (a number between 0 and 1)?",
               zh = "一块 A100 把 L2 中的 30 MiB 预留给持久访问，一个核函数的访问策略窗口覆盖 48 MiB。按《最佳实践指南》的规则，hitRatio 应设为多少（0 到 1 之间的数）？" },
    answer = 30 / 48, unit = "", tolerance = 0.02,
    mistakes = {
      { value = 48 / 30, say = { en = "That is window / set-aside; the ratio is the share of the window that fits: set-aside / window.",
                                 zh = "这是窗口 / 预留区；这个比例是窗口中装得下的部分：预留区 / 窗口。" } },
    },
    hints = { { en = "The persisting part of the window must fit in the set-aside.", zh = "窗口中标为持久的部分必须装得进预留区。" } },
    explain = { en = "30 / 48 = 0.625: 62.5 % of the window's accesses are persisting (30 MiB worth, what the set-aside holds), the rest streaming. With hitRatio 1 the 48 MiB would evict each other inside 30 MiB.",
                zh = "30 / 48 = 0.625：窗口中 62.5 % 的访问按持久处理（相当于 30 MiB，正好是预留区的大小），其余按流式处理。hitRatio 为 1 时，48 MiB 会在 30 MiB 里互相挤占。" },
  },

  exercise {
    id = "memory-bound",
    kind = "choice",
    prompt = { en = "On an A100 (2.0 TB/s DRAM, 40 MB L2) a kernel that re-reads a 20 MB table runs at an effective 4 TB/s. What does that say?",
               zh = "在 A100（显存 2.0 TB/s，L2 40 MB）上，一个反复读 20 MB 表的核函数有效带宽达到 4 TB/s。这说明什么？" },
    choices = {
      { en = "The measurement is wrong: nothing beats the DRAM bandwidth", zh = "测量有误：什么都不可能超过显存带宽" },
      { en = "Its bytes come from the L2: its bound is the L2's bandwidth, not DRAM's", zh = "它的字节来自 L2：它受限于 L2 的带宽，而不是显存的" },
      { en = "It is compute-bound", zh = "它受限于计算" },
    },
    answer = 2,
    why = {
      [1] = { en = "DRAM's bandwidth bounds only the bytes that come from DRAM; a table in the L2 is read faster.", zh = "显存带宽只限制来自显存的字节；在 L2 里的表读得更快。" },
      [3] = { en = "A kernel that reads at 4 TB/s is moving bytes as fast as it can; nothing says its arithmetic is the limit.", zh = "以 4 TB/s 读数据的核函数正在尽可能快地搬字节；没有迹象表明算术是瓶颈。" },
    },
    hints = { { en = "Where does a 20 MB working set live on a GPU with 40 MB of L2?", zh = "在有 40 MB L2 的 GPU 上，20 MB 的工作集待在哪里？" } },
    explain = { en = "Memory-bound, but by the L2: a hierarchical roofline has one roof per level, and this kernel sits under the L2's. Grow the table past the L2 and it drops to DRAM's roof.",
                zh = "受限于内存，但受限于的是 L2：分层 roofline 每一级各有一个屋顶，这个核函数在 L2 的屋顶之下。把表增大到超过 L2，它就降到显存的屋顶下。" },
  },

  text { en = [[
> [!source] Sources
> - NVIDIA, CUDA C++ Programming Guide, "L2 Cache Control" (set-aside, access policy window,
>   hitRatio, cudaCtxResetPersistingL2Cache, MIG and MPS), and "Device Memory L2 Access
>   Management".
> - NVIDIA, CUDA C++ Best Practices Guide, "L2 Cache", "L2 Cache Access Window" and "Tuning the
>   Access Window Hit-Ratio".
> - NVIDIA Developer Forums, thread 275542: an A100 reports l2CacheSize 41943040,
>   persistingL2CacheMaxSize 31457280, accessPolicyMaxWindowSize 134213632.
> - L2 sizes: deviceQuery on a T4 (4194304 bytes; assets/gpus/t4.txt); Ampere GA102 whitepaper
>   (RTX 3090, 6144 KB); A100 Tensor Core GPU architecture whitepaper (40 MB in two partitions,
>   each caching for the SMs nearest to it) and NVIDIA, "NVIDIA Ampere Architecture In-Depth",
>   2020 (2.3x the L2 read bandwidth of V100); H100 Tensor Core GPU architecture whitepaper
>   (50 MB); Ada whitepaper (RTX 4090, 72 MB).
> - Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of Bandwidth", 2023: the H100's L2 seen
>   as two partitions by latency (one public measurement).
> - NVIDIA, PTX ISA, "Cache Operators" (`.cg`: cache at global level, bypassing L1).
> - NVIDIA, Nsight Compute Kernel Profiling Guide, "Roofline Charts" (hierarchical roofline).
> - The figures above: this device, measured (or SIMULATED from its profile, docs/simulator.md).
]], zh = [[
> [!source] 出处
> - NVIDIA，《CUDA C++ Programming Guide》“L2 Cache Control”（预留区、访问策略窗口、hitRatio、cudaCtxResetPersistingL2Cache、MIG 与 MPS）与“Device Memory L2 Access Management”。
> - NVIDIA，《CUDA C++ Best Practices Guide》"L2 Cache"、"L2 Cache Access Window"、"Tuning the Access Window Hit-Ratio"。
> - NVIDIA 开发者论坛 275542 号帖：A100 报告 l2CacheSize 41943040、persistingL2CacheMaxSize 31457280、accessPolicyMaxWindowSize 134213632。
> - L2 大小：T4 上的 deviceQuery（4194304 字节；assets/gpus/t4.txt）；Ampere GA102 白皮书（RTX 3090，6144 KB）；A100 Tensor Core GPU 架构白皮书（40 MB，分两个分区，各自为离它近的 SM 缓存）与 NVIDIA《NVIDIA Ampere Architecture In-Depth》，2020（L2 读带宽是 V100 的 2.3 倍）；H100 Tensor Core GPU 架构白皮书（50 MB）；Ada 白皮书（RTX 4090，72 MB）。
> - 《Chips and Cheese》网站，《Nvidia's H100: Funny L2, and Tons of Bandwidth》，2023：从延迟上看 H100 的 L2 分为两个分区（一份公开测量）。
> - NVIDIA，《PTX ISA》“Cache Operators”（`.cg`：在全局层级缓存，绕过 L1）。
> - NVIDIA，《Nsight Compute Kernel Profiling Guide》“Roofline Charts”（分层 roofline）。
> - 上面的数字：本设备实测（或按其配置模拟，见 docs/simulator.md）。
]] },
}
