-- Lesson 7.1: coalescing. A warp's load is served in 32-byte sectors: reads at a stride of 1 to
-- 32 words and in a random order measured on this device (gpu.strided, gpu.random), beside the
-- sectors each request touches, counted from the addresses; then the same particles as an array
-- of structs and as a struct of arrays (gpu.layout).
local MiB = units.MiB
local GB = 1e9

-- the L2 as the device reports it (4 MiB where it does not)
local function l2() return gpu.info().l2_bytes or 4 * MiB end

-- bytes of 4-byte words read at every stride: 64 MiB, or 4x the L2 if that is more, so that
-- even the stride-1 span is past the L2 (STREAM's rule: a span the L2 could hold would be read
-- from it on every trial after the first); less where the widest stride's 32x span would not fit
-- the experiment cap
local function useful()
  local b = math.min(math.max(64 * MiB, 4 * l2()), gpu.budget() // 40)
  return b - b % 4096
end

-- the particles: 8 Mi, more where their arrays (16 bytes each) would span under 4x the L2, fewer
-- where the widest structs would not fit
local function particles()
  local n = math.min(math.max(2^23, 4 * l2() // 16), gpu.budget() // 80)
  return math.max(1024, n - n % 1024)
end

return lesson {
  id = "7.1",
  chapter = 7,
  chapter_title = { en = "Inside the memory system", zh = "深入内存系统" },
  title = { en = "Coalescing", zh = "合并访问" },
  requires = { "gpu" },

  text { en = [[
# Coalescing

Chapter 3 measured bandwidth with the best access pattern there is: every thread reading the
next bytes after its neighbour's. Real kernels do not always read that way, and the memory
system charges for it.

A **warp** is 32 threads that execute one instruction together. When a warp executes a load,
each of its 32 threads gives an address, and the load/store unit gathers them into requests for
**32-byte sectors** (a 128-byte cache line holds 4). Memory moves whole sectors, whether the
warp uses 4 bytes of one or all 32. The CUDA C++ Best Practices Guide states the rule: the
accesses of a warp "coalesce into a number of transactions equal to the number of 32-byte
transactions necessary to service all of the threads of the warp".

So what counts is **how many sectors one warp request touches** for the bytes it uses:

| pattern (4-byte words) | sectors per request | bytes moved per byte used |
|---|---|---|
| stride 1: thread k reads word k | 4 | 1 |
| stride 2: every other word | 8 | 2 |
| stride 4 | 16 | 4 |
| stride 8 or more, or random | 32 | 8 |
| stride 1, one word off (offset 1) | 5 | 1.25 |

Past a stride of 8 words every thread has a sector of its own, so it stops getting worse in
sectors: each 32-byte sector brings 4 useful bytes. The **effective bandwidth** (the bytes the
kernel asked for, divided by the time) is then at most 1/8 of what the same kernel reaches at
stride 1. A real GPU can fall further still: on a miss its L2 may fetch more than the one sector
asked for (CUDA's `cudaLimitMaxL2FetchGranularity` is a hint of up to 128 bytes), and DRAM serves
scattered sectors less well than neighbouring ones; the simulator counts sectors only.

> [!note] The same number in a profiler
> Nsight Compute reports it as sectors per request:
> `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum` divided by
> `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`. The experiments below count it from the
> kernel's addresses (`r.sectors_per_request`, `gpu.sectors`), which is what the profiler would
> show for these kernels when nothing else shares the line.

> [!errata] "An uncoalesced access is 16 or 32 times slower"
> That was true of the first CUDA GPUs (compute capability 1.0 and 1.1), where a half-warp that
> was not coalesced issued one transaction per thread. On the GPUs the Best Practices Guide works
> its examples on (compute capability 6.0 and later), loads are served in 32-byte sectors and the
> worst case is every thread in its own sector: 8 times the bytes for 4-byte words, 4 times for
> 8-byte ones. A stride is expensive, but it is a bandwidth bill, not a cliff.
> Source: CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory" and "Strided
> Accesses"; the experiment below on this device.
]], zh = [[
# 合并访问

第 3 章测带宽时用的是最理想的访问方式：每个线程都读紧挨着邻居的下一段字节。真实的核函数并不总是这样读，而内存系统会为此收费。

**线程束**（warp）是一起执行同一条指令的 32 个线程。线程束执行一次加载时，32 个线程各给出一个地址，加载/存储单元把它们归并成对 **32 字节扇区**（sector）的请求（一条 128 字节的缓存行有 4 个扇区）。内存搬运的是整个扇区，不管线程束用了其中的 4 字节还是全部 32 字节。《CUDA C++ 最佳实践指南》这样说：一个线程束的访问会合并成若干次传输，次数等于服务这个线程束所有线程所需的 32 字节传输的次数。

所以关键在于：**一次线程束请求碰到多少个扇区**，相对于它用到的字节：

| 访问方式（4 字节的字） | 每次请求的扇区数 | 每用 1 字节搬运的字节 |
|---|---|---|
| 步长 1：第 k 个线程读第 k 个字 | 4 | 1 |
| 步长 2：隔一个读一个 | 8 | 2 |
| 步长 4 | 16 | 4 |
| 步长 8 或更大，或随机 | 32 | 8 |
| 步长 1，错开一个字（偏移 1） | 5 | 1.25 |

步长超过 8 个字以后，每个线程都独占一个扇区，按扇区算就不会更糟了：每个 32 字节的扇区只带来 4 个有用字节。**有效带宽**（核函数要的字节数除以时间）最多只有同一核函数在步长 1 时的 1/8。真实 GPU 还可能更低：未命中时它的 L2 可能取回比所要的一个扇区更多的字节（CUDA 的 `cudaLimitMaxL2FetchGranularity` 是一个最多 128 字节的提示），显存服务零散扇区也不如服务相邻扇区高效；模拟器只数扇区。

> [!note] 分析器里的同一个数字
> Nsight Compute 把它报告为每次请求的扇区数：`l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum` 除以 `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`。下面的实验从核函数的地址算出它（`r.sectors_per_request`、`gpu.sectors`），在没有别的访问共用这些缓存行时，就是分析器对这些核函数会显示的值。

> [!errata] “非合并访问要慢 16 倍或 32 倍”
> 这在最早的 CUDA GPU（计算能力 1.0 和 1.1）上是对的：没有合并的半个线程束会为每个线程发一次传输。在《最佳实践指南》举例所用的 GPU（计算能力 6.0 及以后）上，加载按 32 字节扇区服务，最坏情况是每个线程各占一个扇区：4 字节的字是 8 倍的字节量，8 字节的是 4 倍。步长很贵，但它是一笔带宽账，不是悬崖。
> 出处：《CUDA C++ 最佳实践指南》“Coalesced Access to Global Memory”与“Strided Accesses”两节；下面在本设备上的实验。
]] },

  exercise {
    id = "predict-stride8",
    kind = "predict",
    prompt = { en = "Before the experiment below: predict this device's effective bandwidth at a stride of 8 words (GB/s). Its DRAM bandwidth and the sector table above are enough.",
               zh = "在下面的实验之前：预测本设备在 8 个字的步长下的有效带宽（GB/s）。它的显存带宽加上面的扇区表就够了。" },
    unit = "GB/s", tolerance = 0.3,
    measure = function()
      local r = assert(gpu.strided { stride = 8, bytes = useful() })
      return r.bytes_per_s / GB, r
    end,
    hints = { { en = "At stride 8 every lane has a sector of its own: 32 bytes moved for 4 used.", zh = "步长 8 时每个线程独占一个扇区：搬 32 字节，用 4 字节。" } },
    explain = { en = "About 1/8 of the stride-1 figure: the sectors carry 8 bytes for every byte the kernel uses. A real GPU may fall a little further (its L2 may fetch more than a sector per miss).",
                zh = "约为步长 1 的 1/8：核函数每用 1 字节，扇区就要搬 8 字节。真实 GPU 可能再低一些（它的 L2 每次未命中可能取回不止一个扇区）。" },
  },

  experiment {
    id = "strides",
    key = "key",
    title = { en = "Effective bandwidth vs stride", zh = "有效带宽 vs 步长" },
    intro = { en = [[
Reads the same number of useful bytes at a stride of 1, 2, 4, 8, 16 and 32 words: 64 MiB of
4-byte words, or 4 times the L2 if that is more, so that even stride 1 reads from DRAM and not
from the L2 (STREAM's rule, lesson 3.2); less where the widest stride would not fit. Then every
word of an array of 256 MiB, or 16 times the L2 if that is more, once in a random order; the sum
of what was read is checked each time. Beside each measurement, the sectors per
request from the addresses, and what the sector count alone predicts from the stride-1 figure.
]], zh = [[
以 1、2、4、8、16、32 个字的步长读同样多的有用字节：64 MiB 的 4 字节字，L2 的 4 倍更大时取 4 倍，让步长 1 也从显存而不是从 L2 读（STREAM 的规则，第 3.2 节）；步长最大时放不下就少一些。再以随机顺序把一个 256 MiB（L2 的 16 倍更大时取 16 倍）数组的每个字各读一遍；每次都核对读到的总和。每个测量旁边给出从地址算出的每次请求扇区数，以及只按扇区数从步长 1 的结果推算出的值。
]] },
    panels = {
      { id = "key", kind = "bars", title = { en = "Effective bandwidth", zh = "有效带宽" }, unit = "GB/s" },
      { id = "curve", kind = "curve", title = { en = "Effective GB/s vs stride (words)", zh = "有效 GB/s vs 步长（字）" },
        x = "stride", y = "GB/s", logx = true },
      { id = "t", kind = "table", title = { en = "Sectors and bandwidth", zh = "扇区与带宽" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("access", "访问方式"), T("sectors/request", "扇区/请求"), T("moved per used byte", "每用 1 字节搬运"),
                    T("effective", "有效带宽") })
      local n, first, last = useful(), nil, nil
      for _, s in ipairs { 1, 2, 4, 8, 16, 32 } do
        ex:status(T("stride ", "步长 ") .. s)
        local r, err = gpu.strided { stride = s, bytes = n }
        if not r then ex:note("t", err); break end
        first = first or r
        last = r
        ex:point("curve", T("this device", "本设备"), s, r.bytes_per_s / GB, { from = r })
        ex:point("curve", T("sector model", "扇区模型"), s, first.bytes_per_s / GB * 4 / r.sectors_per_request, { style = "theoretical" })
        ex:row("t", { T("stride ", "步长 ") .. s, string.format("%.0f", r.sectors_per_request),
                      string.format("%.2f B", r.sector_bytes / r.bytes), units.rate(r.bytes_per_s) })
      end
      local rnd, err = gpu.random { bytes = math.min(math.max(256 * MiB, 16 * l2()), gpu.budget() // 2) }
      if rnd then
        ex:row("t", { T("random", "随机"), string.format("%.1f", rnd.sectors_per_request),
                      string.format("%.2f B", rnd.sector_bytes / rnd.bytes), units.rate(rnd.bytes_per_s) })
      else
        ex:note("t", err)
      end
      if first then
        ex:bar("key", T("stride 1", "步长 1"), first.bytes_per_s / GB, { from = first })
        ex:bar("key", T("stride 32", "步长 32"), last.bytes_per_s / GB, { from = last })
        if rnd then ex:bar("key", T("random", "随机"), rnd.bytes_per_s / GB, { from = rnd }) end
        ex:note("curve", string.format(T("%s read per stride; sector model: the stride-1 figure x 4 / sectors per request.",
                                         "每个步长读 %s；扇区模型：步长 1 的结果 × 4 / 每次请求的扇区数。"), units.bytes(n)))
        if first.footprint_bytes < 4 * l2() then
          ex:note("curve", string.format(T("The cap keeps the span at stride 1 to %s, under 4 x this device's %s L2: part of it may be read from the L2, and reads this small pay the launch's fixed cost too, so the figures are not the sectors' alone.",
                                           "上限让步长 1 的跨度只有 %s，不到本设备 %s L2 的 4 倍：其中一部分可能从 L2 读，这么小的读取还要付启动的固定开销，所以这些数字不只是扇区决定的。"),
                                         units.bytes(first.footprint_bytes), units.bytes(l2())))
        end
        ex:note("key", string.format(T("Stride 1 / stride 32: %.1fx; the sectors alone say %.0fx.",
                                       "步长 1 / 步长 32：%.1f 倍；只按扇区算是 %.0f 倍。"),
                                     first.bytes_per_s / last.bytes_per_s, last.sectors_per_request / 4))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Structs of arrays
The commonest stride in real code is not a loop index times a constant, it is a **struct**.
Particles stored as an array of structs (AoS), `struct { float x, y, z, vx, vy, vz, m, q; }`,
put each particle's `x` 32 bytes after the previous one's: a kernel that reads `x, y, z` reads
them at a stride of 8 words, and each particle costs a whole 32-byte sector for its 12 useful
bytes. Stored as a struct of arrays (SoA), `x[]`, `y[]`, `z[]`, the same kernel reads three
coalesced streams and moves only the bytes it uses.

The kernel below computes r² = x² + y² + z² per particle and writes it to an array of its own:
12 bytes read and 4 written. With 32-byte structs the sectors carry 32 + 4 = 36 bytes per
particle; as arrays, 12 + 4 = 16. The rewrite changes no arithmetic and no result, only the
addresses, and is worth 36 / 16 = 2.25x on a kernel that waits on memory.

A struct smaller than a sector shares sectors between neighbours: 16-byte structs
(`x, y, z, w`) cost 16 bytes of sectors per particle; structs of 64 bytes or more, one whole
sector each, 32 bytes for the 12 used.

> [!pitfall] Padding a struct to "align" it
> Making a 20-byte struct 32 bytes aligns each one to a sector, and so guarantees that every
> particle costs a whole sector. Alignment matters for vector loads (16-byte `float4` needs 16-byte
> addresses); for bandwidth, what matters is how many of the bytes moved are used.
]], zh = [[
## 数组结构体
真实代码里最常见的步长不是“循环下标乘一个常数”，而是**结构体**。按结构体数组（AoS）存放的粒子 `struct { float x, y, z, vx, vy, vz, m, q; }`，每个粒子的 `x` 与上一个相隔 32 字节：读 `x, y, z` 的核函数其实是以 8 个字的步长在读，每个粒子为 12 个有用字节花掉一整个 32 字节扇区。按数组结构体（SoA）存放成 `x[]`、`y[]`、`z[]`，同一个核函数读的是三条合并的数据流，只搬用得到的字节。

下面的核函数为每个粒子算 r² = x² + y² + z²，写到单独的数组里：读 12 字节，写 4 字节。32 字节的结构体时，扇区为每个粒子搬 32 + 4 = 36 字节；数组存放时是 12 + 4 = 16 字节。这样改写不改变任何运算和结果，只改了地址，对一个在等内存的核函数值 36 / 16 = 2.25 倍。

比扇区小的结构体会和邻居共用扇区：16 字节的结构体（`x, y, z, w`）每个粒子花 16 字节的扇区；64 字节或更大的结构体每个粒子一整个扇区，为 12 个有用字节搬 32 字节。

> [!pitfall] 为了“对齐”给结构体补齐
> 把 20 字节的结构体补到 32 字节，确实让每个结构体都对齐到一个扇区，也就保证了每个粒子都要花一整个扇区。对齐对向量加载有意义（16 字节的 `float4` 需要 16 字节对齐的地址）；对带宽来说，要看的是搬来的字节里有多少被用上。
]] },

  experiment {
    id = "layout",
    key = "bw",
    title = { en = "Array of structs vs struct of arrays", zh = "结构体数组 vs 数组结构体" },
    intro = { en = [[
The r² kernel over the same particles (8 Mi; more where their arrays would span under 4 times the
L2, fewer where they would not fit) stored as structs of 4, 8 and 16 floats and as three arrays;
every r² is checked afterwards. The bytes the sectors carry per particle are counted from the
addresses.
]], zh = [[
同一批粒子（8 Mi 个；数组跨度不到 L2 的 4 倍时更多，放不下时更少）分别按 4、8、16 个 float 的结构体和三个数组存放，跑同一个 r² 核函数；事后逐个核对 r²。每个粒子的扇区字节数从地址算出。
]] },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Effective bandwidth of the r² kernel", zh = "r² 核函数的有效带宽" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "Bytes per particle", zh = "每个粒子的字节" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("layout", "存放方式"), T("used", "用到"), T("sectors carry", "扇区搬运"), T("effective", "有效带宽") })
      local n = particles()
      local cases = {
        { layout = "aos", fields = 4, en = "AoS, 16-byte structs", zh = "AoS，16 字节结构体" },
        { layout = "aos", fields = 8, en = "AoS, 32-byte structs", zh = "AoS，32 字节结构体" },
        { layout = "aos", fields = 16, en = "AoS, 64-byte structs", zh = "AoS，64 字节结构体" },
        { layout = "soa", fields = 8, en = "SoA, three arrays", zh = "SoA，三个数组" },
      }
      local aos8, soa
      for _, c in ipairs(cases) do
        ex:status(T(c.en, c.zh))
        local r, err = gpu.layout { layout = c.layout, particles = n, fields = c.fields }
        if not r then ex:note("t", err); break end
        ex:bar("bw", T(c.en, c.zh), r.bytes_per_s / GB, { from = r })
        ex:row("t", { T(c.en, c.zh), "16 B", string.format("%.0f B", r.sector_bytes / n), units.rate(r.bytes_per_s) })
        if c.layout == "aos" and c.fields == 8 then aos8 = r end
        if c.layout == "soa" then soa = r end
      end
      if aos8 and soa then
        ex:note("bw", string.format(T("SoA / AoS (32-byte structs): %.2fx; the bytes say 36 / 16 = 2.25x.",
                                      "SoA / AoS（32 字节结构体）：%.2f 倍；按字节算是 36 / 16 = 2.25 倍。"),
                                    soa.bytes_per_s / aos8.bytes_per_s))
      end
      ex:note("t", string.format(T("%d particles; used: x, y, z read and r² written, 16 B each.",
                                   "%d 个粒子；用到：读 x、y、z，写 r²，每个 16 B。"), n))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "sectors-double",
    kind = "number",
    prompt = { en = "A warp reads 8-byte doubles at a stride of 2 elements (thread k reads element 2k). How many 32-byte sectors does one warp request touch?",
               zh = "一个线程束以 2 个元素的步长读 8 字节的 double（第 k 个线程读第 2k 个元素）。一次线程束请求碰到多少个 32 字节扇区？" },
    answer = 16, unit = "sectors", tolerance = 0.01,
    mistakes = {
      { value = 8, say = { en = "That counts 4-byte words. A double is 8 bytes: lane k's bytes start at 16k, so the 32 lanes span 512 bytes.",
                           zh = "这是按 4 字节的字算的。double 是 8 字节：第 k 个线程的字节从 16k 开始，32 个线程跨越 512 字节。" } },
      { value = 32, say = { en = "Two neighbouring lanes share a sector here: lanes 2j and 2j + 1 read bytes 32j and 32j + 16.",
                            zh = "这里相邻两个线程共用一个扇区：第 2j 和 2j + 1 个线程读的是第 32j 和 32j + 16 字节。" } },
      { value = 512, say = { en = "512 is the bytes the warp spans; the question counts 32-byte sectors.",
                             zh = "512 是线程束跨越的字节数；题目数的是 32 字节的扇区。" } },
      { value = 4, say = { en = "4 is the 128-byte cache lines the warp spans; the question counts 32-byte sectors, 4 to a line.",
                           zh = "4 是线程束跨越的 128 字节缓存行数；题目数的是 32 字节的扇区，每行 4 个。" } },
    },
    hints = { { en = "Find the span of addresses the 32 lanes cover, then divide by 32 bytes.", zh = "先算出 32 个线程覆盖的地址跨度，再除以 32 字节。" } },
    explain = { en = "Lane k reads bytes 16k to 16k + 7: the warp spans 32 x 16 = 512 bytes, 16 sectors, for 256 bytes used. gpu.sectors(16, 8) gives the same.",
                zh = "第 k 个线程读第 16k 到 16k + 7 字节：线程束跨越 32 × 16 = 512 字节，16 个扇区，用到 256 字节。gpu.sectors(16, 8) 给出同样的结果。" },
  },

  exercise {
    id = "efficiency-stride4",
    kind = "number",
    prompt = { en = "A kernel reads 4-byte words at a stride of 4. What share of the bytes the sectors move does it use? Answer in %.",
               zh = "一个核函数以 4 的步长读 4 字节的字。扇区搬来的字节里它用到了百分之几？单位 %。" },
    answer = 25, unit = "%", tolerance = 0.02,
    mistakes = {
      { value = 75, say = { en = "75 % is the share wasted; the question asks for the share used.", zh = "75 % 是浪费掉的比例；题目问的是用到的比例。" } },
    },
    hints = { { en = "How many sectors does one warp touch at stride 4, and how many bytes does it use?", zh = "步长 4 时一个线程束碰到几个扇区？它用到多少字节？" } },
    explain = { en = "32 lanes x 4 bytes = 128 bytes used, spread over 32 x 16 = 512 bytes: 16 sectors, 512 bytes moved. 128 / 512 = 25 %, the Best Practices Guide's 'load efficiency'.",
                zh = "32 个线程 × 4 字节 = 用到 128 字节，分布在 32 × 16 = 512 字节里：16 个扇区，搬 512 字节。128 / 512 = 25 %，即《最佳实践指南》所说的加载效率。" },
  },

  exercise {
    id = "fix-aos",
    kind = "choice",
    prompt = { en = "A kernel updates only the `x` field of particles stored as `struct { float x, y, z, vx, vy, vz, m, q; }`. What speeds it up the most?",
               zh = "一个核函数只更新按 `struct { float x, y, z, vx, vy, vz, m, q; }` 存放的粒子的 `x` 字段。怎样改最能提速？" },
    choices = {
      { en = "Store the fields as separate arrays (struct of arrays)", zh = "把各字段存成单独的数组（数组结构体）" },
      { en = "Pad the struct to 64 bytes so each one is aligned", zh = "把结构体补齐到 64 字节，让每个都对齐" },
      { en = "Add __restrict__ to the pointer", zh = "给指针加上 __restrict__" },
    },
    answer = 1,
    why = {
      [2] = { en = "A 64-byte struct still costs a whole sector per particle for the 4 bytes of x.", zh = "64 字节的结构体每个粒子照样花一整个扇区，只为了 4 字节的 x。" },
      [3] = { en = "__restrict__ helps the compiler reorder loads; the sectors moved stay the same.", zh = "__restrict__ 帮助编译器重排加载；搬运的扇区数不变。" },
    },
    hints = { { en = "Count the bytes of sectors moved per particle in each case.", zh = "数一数每种情况下每个粒子要搬多少字节的扇区。" } },
    explain = { en = "As a struct of arrays, x[] is one coalesced stream: 4 bytes read and written per particle instead of a 32-byte sector each way, 8x fewer bytes.",
                zh = "按数组结构体存放，x[] 是一条合并的数据流：每个粒子读写各 4 字节，而不是各一个 32 字节扇区，字节少 8 倍。" },
  },

  exercise {
    id = "sectors-fn",
    kind = "code",
    prompt = { en = [[
Score a kernel's loads the way GPU Puzzles scores its puzzles: write `sectors(stride)` returning
how many 32-byte sectors one warp's load touches when thread k reads the 4-byte word
k x `stride` (stride >= 1, the array starts on a sector). One line works:
`function sectors(stride) return ... end`
]], zh = [[
像 GPU Puzzles 给谜题打分那样给核函数的加载打分：写一个函数 `sectors(stride)`，返回第 k 个线程读第 k × `stride` 个 4 字节字时（stride >= 1，数组从扇区边界开始），一个线程束的一次加载碰到的 32 字节扇区数。一行就够：`function sectors(stride) return ... end`
]] },
    entry = "sectors",
    starter = [[
function sectors(stride)
  -- 32 lanes, 4 bytes each, stride words apart; a sector holds 8 words
  return 0
end
]],
    check = function(fn)
      for s = 1, 64 do
        local got, want = fn(s), gpu.sectors(4 * s)
        if got ~= want then
          return false, { en = string.format("sectors(%d) returned %s, the warp touches %d.", s, tostring(got), want),
                          zh = string.format("sectors(%d) 返回了 %s，线程束实际碰到 %d 个。", s, tostring(got), want) }
        end
      end
      return true
    end,
    hints = { { en = "Up to a stride of 8, lanes share sectors: 32 lanes span 32 x stride words, 8 words to a sector. Past it, one sector per lane.",
                zh = "步长不超过 8 时线程共用扇区：32 个线程跨越 32 × stride 个字，每个扇区 8 个字。超过以后每个线程一个扇区。" } },
    explain = { en = "math.min(4 * stride, 32): the warp spans 128 x stride bytes, so 4 x stride sectors, at most one per lane. gpu.sectors counts any pattern, offsets and element sizes included.",
                zh = "math.min(4 * stride, 32)：线程束跨越 128 × stride 字节，也就是 4 × stride 个扇区，最多每个线程一个。gpu.sectors 能算任意访问方式，包括偏移和元素大小。" },
  },

  text { en = [[
> [!source] Sources
> - NVIDIA, CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory", "A Simple Access
>   Pattern", "A Sequential but Misaligned Access Pattern", "Strided Accesses" (32-byte
>   transactions, load efficiency at a stride of 2).
> - NVIDIA, CUDA C++ Programming Guide, "Device Memory Accesses" (warps, 32-, 64- and 128-byte
>   transactions, alignment of vector types).
> - NVIDIA, CUDA Runtime API, `cudaDeviceSetLimit` (`cudaLimitMaxL2FetchGranularity`: "a value
>   between 0 and 128 that indicates the maximum fetch granularity of L2 (in Bytes). This is a
>   hint").
> - NVIDIA, Nsight Compute Kernel Profiling Guide, "Memory Tables" and the metrics
>   `l1tex__t_sectors_pipe_lsu_mem_global_op_ld` and `l1tex__t_requests_pipe_lsu_mem_global_op_ld`.
> - Harris, "How to Access Global Memory Efficiently in CUDA C/C++ Kernels", NVIDIA Technical Blog,
>   2013 (the offset and stride kernels these experiments follow).
> - Rush, GPU Puzzles (github.com/srush/GPU-Puzzles): kernels scored by their memory reads.
> - The figures above: this device, measured (or SIMULATED from its profile, docs/simulator.md).
]], zh = [[
> [!source] 出处
> - NVIDIA，《CUDA C++ Best Practices Guide》“Coalesced Access to Global Memory”、“A Simple Access Pattern”、“A Sequential but Misaligned Access Pattern”、“Strided Accesses”（32 字节传输，步长 2 时的加载效率）。
> - NVIDIA，《CUDA C++ Programming Guide》“Device Memory Accesses”（线程束，32、64、128 字节的传输，向量类型的对齐）。
> - NVIDIA，CUDA Runtime API `cudaDeviceSetLimit`（`cudaLimitMaxL2FetchGranularity`：L2 取数粒度的上限，0 到 128 字节，只是一个提示）。
> - NVIDIA，《Nsight Compute Kernel Profiling Guide》“Memory Tables”，以及指标 `l1tex__t_sectors_pipe_lsu_mem_global_op_ld` 与 `l1tex__t_requests_pipe_lsu_mem_global_op_ld`。
> - Harris，“How to Access Global Memory Efficiently in CUDA C/C++ Kernels”，NVIDIA 技术博客，2013（这里的偏移与步长核函数照它而写）。
> - Rush，GPU Puzzles（github.com/srush/GPU-Puzzles）：按内存读取次数给核函数打分。
> - 上面的数字：本设备实测（或按其配置模拟，见 docs/simulator.md）。
]] },
}
