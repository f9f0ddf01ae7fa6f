-- Lesson 3.3: the latency ladder. A pointer chase over growing working sets on the host and the
-- device; the plateaus are found in the measurement and named by size against the caches of the
-- machine (L1, L2, L3, DRAM; on a GPU an L2 near/far, on a host a +TLB step), never by order.
local KiB, MiB, GiB = units.KiB, units.MiB, units.GiB

local function ladder(ex, name, measure, top)
  local pts, warnings, n, last = {}, {}, 4 * KiB, nil
  while n <= top do
    ex:status(string.format("%s %s", name, units.bytes(n)))
    local r, err = measure { bytes = n }
    if not r then ex:note("curve", name .. ": " .. err) break end
    pts[#pts + 1] = { bytes = n, ns = r.ns_per_load }
    warnings[#warnings + 1] = r.warnings
    ex:point("curve", name, n, r.ns_per_load, { from = r })
    last = r
    n = n * 2
  end
  -- a noisy or capped run says so beside the curve (each warning once, in the learner's language)
  local seen = {}
  for _, ws in ipairs(warnings) do
    for _, w in ipairs(ws) do
      if not seen[w] then seen[w] = true; ex:note("curve", name .. ": " .. w) end
    end
  end
  return pts, last
end

local function show(ex, name, pts, where)
  for _, p in ipairs(gpu.plateaus(pts, { where = where })) do
    ex:row("t", { name, p.label, units.bytes(p.from) .. " – " .. units.bytes(p.to), string.format("%.1f ns", p.ns) })
  end
end

local function sizes(levels)
  local t = {}
  for _, l in ipairs(levels) do t[#t + 1] = l.name .. " " .. units.bytes(l.bytes) end
  return #t > 0 and table.concat(t, ", ") or "unknown"
end

return lesson {
  id = "3.3",
  chapter = 3,
  chapter_title = { en = "Measuring memory", zh = "测量显存" },
  title = { en = "The latency ladder", zh = "延迟阶梯" },
  requires = { "host" },

  text { en = [[
# The latency ladder

Bandwidth says how many bytes per second arrive when many requests are in flight. **Latency** says
how long one request takes when the next one depends on it. To measure it, make every load depend
on the previous one: a **pointer chase**. Each 64-byte line (128 on the GPU) holds the address of
the next; the order is a random permutation with a single cycle (Sattolo's algorithm), so no
prefetcher can guess the next address and every line is visited.

Grow the working set from 4 KiB (to 8x the last-level cache on the host, to 1 GiB on the device)
and the time per load climbs in steps: each step is a
level of the memory hierarchy that no longer holds the whole set. The plateaus below are found in
the measurement itself (a jump of more than 40 % between two sizes ends a level), then named by
**size**: a plateau that ends within the L1's size is L1, within the L2's is L2, past the last
cache it is DRAM (one x2 step of slack: a random chase still mostly hits a cache just past its
size). The sizes are the host's caches (from sysfs, else CPUID, else `sysconf`: the note under the table
says which, and a host whose caches cannot be read gets numbered levels, not names) and the GPU's L1
and L2. Named by size, a step that
is not a cache is not called one. A GPU whose L2 shows a near and a far part (the A100's L2 is two
partitions, NVIDIA's whitepaper says; the H100's shows two in a public measurement) gets "L2
near" and "L2 far", not an "L3". A host has no near and far cache: a
second step inside one cache level, or a jump with the working set at most half a cache, is its
TLB's reach running out (a 64-entry L1 DTLB x 4 KiB pages covers 256 KiB, a second-level TLB of
1.5-3 K entries 6-12 MiB), so it is named "L2+TLB", "L3+TLB" or "DRAM+TLB" (in a virtual machine
each TLB miss walks two page tables, and the step is larger).

On the GPU, each line holds the address of the next (`p = *p`: no index arithmetic between the
loads), the chase runs on five SMs in turn and the figure is the fastest, with the slowest beside
it (an L2 hit costs more for an SM far from the L2 half that holds the line), and the SM clock
cycles per load are counted too (`clock64`), the unit the microbenchmark papers use. Sets larger
than 4x the L2 are not read beforehand, so the DRAM step is not partly served from L2.

> [!note] Why DRAM latency keeps rising
> Past the caches the curve still creeps up: with 4 KiB pages the TLB covers only a few MiB, and
> every load also walks the page table. Huge pages flatten it.
]], zh = [[
# 延迟阶梯

带宽说的是大量请求同时在途时每秒能到多少字节。**延迟**说的是当下一次访存依赖这一次时，单次请求要多久。要测它，就让每次加载都依赖上一次：**指针追逐**。每个 64 字节的缓存行（GPU 上是 128 字节）存着下一行的地址；顺序是只有一个环的随机排列（Sattolo 算法），预取器猜不到下一个地址，而且每一行都会被访问到。

把工作集从 4 KiB 增大（主机到末级缓存的 8 倍，设备到 1 GiB），每次加载的时间会一级一级地上台阶：每一级台阶都意味着某一层存储已经装不下整个工作集。下面的平台是从测量结果本身找出来的（相邻两个大小之间跳升超过 40% 就算新的一级），再按**大小**命名：结束于 L1 容量以内的平台叫 L1，结束于 L2 容量以内的叫 L2，超出最后一级缓存的叫 DRAM（允许多一个 2 倍的台阶：随机追逐在刚超过缓存容量时仍大多命中）。容量取自主机的缓存（依次来自 sysfs、CPUID、`sysconf`：表下的注释写明来源；读不到缓存的主机，平台只编号、不命名）和 GPU 的 L1、L2。按大小命名，不是缓存的台阶就不会被叫作缓存。L2 分成近、远两部分的 GPU（据 NVIDIA 白皮书，A100 的 L2 是两个分区；H100 的 L2 在一份公开测量中也显出两个）得到“L2 near”和“L2 far”，而不是“L3”。主机没有近、远之分的缓存：同一级缓存里的第二个台阶，或者工作集不超过某级缓存一半时出现的跳升，都是 TLB 覆盖范围到头了（64 项的一级 DTLB × 4 KiB 页覆盖 256 KiB，1.5–3 K 项的二级 TLB 覆盖 6–12 MiB），所以叫“L2+TLB”、“L3+TLB”或“DRAM+TLB”（在虚拟机里每次 TLB 未命中要走两套页表，台阶更高）。

在 GPU 上，每一行存着下一行的地址（`p = *p`：两次加载之间没有下标运算），追逐依次在五个 SM 上运行，取最快的结果并给出最慢的（离存有该行的那半个 L2 较远的 SM，命中 L2 的代价更高），同时还统计每次加载的 SM 时钟周期数（`clock64`），这是微基准论文使用的单位。大于 L2 四倍的工作集事先不读，DRAM 那一级就不会部分由 L2 提供。

> [!note] 为什么 DRAM 延迟还在上升
> 越过缓存以后曲线仍在缓慢上爬：4 KiB 页面时 TLB 只能覆盖几 MiB，每次加载还要查页表。用大页可以把它压平。
]] },

  exercise {
    id = "predict-dram",
    kind = "predict",
    prompt = { en = "Predict this host's latency per dependent load over a 128 MiB working set, in ns.",
               zh = "预测本机在 128 MiB 工作集上每次依赖加载的延迟，单位纳秒。" },
    unit = "ns", tolerance = 0.4,
    measure = function()
      local r = assert(host.latency { bytes = math.min(128 * MiB, host.budget()) })
      return r.ns_per_load, r
    end,
    hints = { { en = "DRAM on a desktop is about 70-100 ns; add TLB misses at this size, and more on a server or a virtual machine.",
                zh = "桌面机内存约 70–100 纳秒；这个大小还要加上 TLB 缺失，服务器和虚拟机会更高。" } },
    explain = { en = "The chase at 128 MiB misses the caches of most machines (at 4x a last-level cache and beyond, nearly every load) and most TLB entries: DRAM latency plus a page walk.",
                zh = "128 MiB 的追逐在大多数机器上会穿透所有缓存层（达到末级缓存的 4 倍及以上时，几乎每次加载都不命中），也错过大多数 TLB 项：内存延迟再加一次页表遍历。" },
  },

  experiment {
    id = "ladder",
    key = "curve",
    title = { en = "Chase from 4 KiB up on host and device", zh = "在主机和设备上从 4 KiB 起追逐" },
    panels = {
      { id = "curve", kind = "curve", title = { en = "ns per dependent load vs working set", zh = "每次依赖加载的纳秒数 vs 工作集" },
        x = "bytes", y = "ns", logx = true },
      { id = "t", kind = "table", title = { en = "Plateaus found", zh = "找到的平台" } },
    },
    run = function(ex)
      ex:row("t", { ex:t { en = "where", zh = "位置" }, ex:t { en = "level", zh = "层级" }, ex:t { en = "working set", zh = "工作集" },
                    ex:t { en = "latency", zh = "延迟" } })
      local gi = gpu.info()
      local hname = ex:t { en = "host", zh = "主机" }
      local gname = gi.simulated and ex:t { en = "GPU (SIMULATED)", zh = "GPU（模拟）" } or "GPU"
      -- The host's ladder ends at 8x its last-level cache, where nearly every load misses it
      -- (a set past that adds TLB misses and seconds, not a level): at most 128 MiB, which
      -- keeps the lesson under 3 s and 256 MiB of memory.
      local hi = host.info()
      local want = math.max(8 * (hi.llc_bytes or 16 * MiB), 64 * MiB)
      local top = math.min(want, 128 * MiB, host.budget())
      local h = ladder(ex, hname, host.latency, top)
      local why
      if not hi.llc_bytes then
        why = ex:t { en = "%s: the chase stops at %s: this host does not report its last-level cache, and %s is past most.",
                     zh = "%s：追逐到 %s 为止：本机没有报告末级缓存容量，而 %s 已超过大多数机器的末级缓存。" }
        why = string.format(why, hname, units.bytes(top), units.bytes(top))
      elseif want > top then
        why = string.format(ex:t { en = "%s: the chase stops at %s, the lesson's memory cap, under 8x this host's last-level cache (%s): its last sizes may still hit that cache.",
                                   zh = "%s：追逐到 %s 为止（本课的内存上限），不到本机末级缓存（%s）的 8 倍：最后几个大小可能仍命中该缓存。" },
                            hname, units.bytes(top), units.bytes(hi.llc_bytes))
      else
        why = string.format(ex:t { en = "%s: the chase stops at %s, 8x the last-level cache (%s), where nearly every load misses it; a larger set adds only TLB misses (the lesson keeps under 3 s and 256 MiB).",
                                   zh = "%s：追逐到 %s 为止，即末级缓存（%s）的 8 倍，几乎每次加载都不命中；更大的工作集只会多出 TLB 缺失（本课控制在 3 秒、256 MiB 以内）。" },
                            hname, units.bytes(top), units.bytes(hi.llc_bytes))
      end
      ex:note("curve", why)
      show(ex, hname, h, "host")
      local d, last = ladder(ex, gname, gpu.latency, math.min(GiB, gpu.budget()))
      show(ex, gname, d, "gpu")
      local hc = host.caches()
      local gl = {}
      if gi.l1_bytes then gl[#gl + 1] = { name = "L1", bytes = gi.l1_bytes } end
      if gi.l2_bytes then gl[#gl + 1] = { name = "L2", bytes = gi.l2_bytes } end
      ex:note("t", string.format(ex:t { en = "Named by size: host %s (%s); GPU %s (L1 per SM).",
                                        zh = "按大小命名：主机 %s（%s）；GPU %s（L1 为每个 SM）。" },
                                 sizes(hc), hc.source, sizes(gl)))
      if #hc == 0 then
        ex:note("t", ex:t { en = "This host does not list its cache sizes (no sysfs cache information, as in some VMs): its plateaus are numbered, not named.",
                            zh = "本机没有列出缓存容量（没有 sysfs 缓存信息，某些虚拟机如此）：主机的平台只编号，不命名。" })
      end
      if last and last.sms and #last.sms > 0 then
        ex:note("t", string.format(ex:t { en = "GPU at %s: %.0f ns on the fastest of SMs %s, %.0f ns on the slowest; %.0f cycles per load at %.0f MHz.",
                                          zh = "GPU 在 %s：SM %s 中最快的 %.0f 纳秒，最慢的 %.0f 纳秒；每次加载 %.0f 个周期，时钟 %.0f MHz。" },
                                   units.bytes(last.bytes), last.min_ns_per_load, table.concat(last.sms, ","),
                                   last.max_ns_per_load, last.cycles_per_load or 0, last.sm_clock_mhz or 0))
      end
      if #h > 0 and #d > 0 then
        -- the conclusion is computed from the two figures: a busy or virtualised host can be slower
        local g, hn = d[#d].ns, h[#h].ns
        local what = gi.simulated and ex:t { en = "GPU (SIMULATED, the profile's model)", zh = "GPU（模拟，配置文件的模型）" } or "GPU"
        local verdict
        if g >= 1.15 * hn then
          verdict = ex:t { en = "the GPU's dependent load is the slower one, as on an idle machine.", zh = "GPU 的依赖访存更慢，和空闲机器上一样。" }
        elseif hn >= 1.15 * g then
          verdict = ex:t { en = "here the host was the slower one: an idle desktop's DRAM takes about 80-120 ns, and this host's figure includes TLB misses at this size and whatever load or virtualisation it runs under (see the spread).",
                           zh = "本机反而是主机更慢：空闲台式机的内存延迟约 80–120 纳秒，而本机的数字包含了这个大小下的 TLB 缺失，以及机器负载或虚拟化带来的开销（看离散度）。" }
        else
          verdict = ex:t { en = "about the same here.", zh = "本机上两者差不多。" }
        end
        ex:note("t", string.format(ex:t { en = "At %s: %s %.0f ns vs host %.0f ns per load: %s", zh = "在 %s：%s 每次加载 %.0f 纳秒，主机 %.0f 纳秒：%s" },
                                   units.bytes(h[#h].bytes), what, g, hn, verdict))
      end
      ex:status(ex:t { en = "done", zh = "完成" })
    end,
  },

  text { en = [[
## What the GPU does about it
A GPU's DRAM latency is several hundred ns; an idle CPU's is about 80-120 ns (a busy or virtual
host, as the note above may show, can read much more). The GPU does not wait: each SM keeps dozens
of warps resident and switches to another warp while one waits on memory. By Little's law, bytes in
flight = bandwidth × latency: to sustain 3.35 TB/s at the 470 ns this course's H100 profile models
(a teaching value, labelled so in assets/gpus/h100-sxm.txt), an H100 needs about 1.6 MB in flight
across the chip. That is why a GPU kernel needs many threads and independent loads, and why
one thread chasing pointers, as here, uses a tiny fraction of the GPU.

> [!source] Sources
> - Sattolo, "An algorithm to generate a random cyclic permutation", Information Processing Letters, 1986.
> - Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018, and "Dissecting the NVIDIA Turing T4 GPU via Microbenchmarking", 2019 (pointer chases in SM cycles); NVIDIA A100 Tensor Core GPU architecture whitepaper (the L2 in two partitions); Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of Bandwidth", 2023 (the H100's two L2 partitions seen by latency; one public measurement).
> - Little, "A Proof for the Queuing Formula L = λW", Operations Research, 1961.
> - Intel Memory Latency Checker and Intel 64 and IA-32 Optimization Reference Manual (client DRAM latency; TLB sizes: a 64-entry L1 DTLB, a 1.5-2 K-entry STLB); AMD Software Optimization Guide for Zen 4 (a 3072-entry L2 DTLB); Linux sysfs cache topology; CPUID leaf 4.
]], zh = [[
## GPU 如何应对延迟
GPU 的显存延迟有几百纳秒；空闲 CPU 的内存延迟约 80–120 纳秒（繁忙的主机或虚拟机可能高得多，上面的注释可能就是这样）。GPU 的办法是不等待：每个 SM 同时驻留几十个 warp，一个 warp 等内存时就切换到另一个。根据 Little 定律，在途字节数 = 带宽 × 延迟：按本课程 H100 配置文件建模的 470 纳秒（教学用的典型值，assets/gpus/h100-sxm.txt 里如此标注），H100 要维持 3.35 TB/s，全芯片需要约 1.6 MB 的数据同时在途。这就是 GPU 核函数需要大量线程和相互独立的访存的原因，也说明了像这里这样单线程追指针，只用到了 GPU 极小的一部分。

> [!source] 出处
> - Sattolo，《An algorithm to generate a random cyclic permutation》，Information Processing Letters，1986。
> - Jia 等，《Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking》，2018；《Dissecting the NVIDIA Turing T4 GPU via Microbenchmarking》，2019（以 SM 周期计的指针追逐）；NVIDIA A100 Tensor Core GPU 架构白皮书（L2 分为两个分区）；《Chips and Cheese》网站，《Nvidia's H100: Funny L2, and Tons of Bandwidth》，2023（从延迟上看 H100 的 L2 有两个分区；一份公开测量）。
> - Little，《A Proof for the Queuing Formula L = λW》，Operations Research，1961。
> - Intel Memory Latency Checker 与《Intel 64 and IA-32 Architectures Optimization Reference Manual》（客户端内存延迟；TLB 大小：64 项的一级 DTLB、1.5–2 K 项的 STLB）；AMD《Software Optimization Guide for Zen 4》（3072 项的二级 DTLB）；Linux sysfs 缓存拓扑；CPUID 叶 4。
]] },

  exercise {
    id = "little",
    kind = "number",
    prompt = { en = "Little's law: how many bytes must be in flight to sustain 2 TB/s with a 500 ns memory latency? Answer in MB (1 MB = 1e6 B).",
               zh = "Little 定律：在 500 纳秒的访存延迟下要维持 2 TB/s，需要多少字节同时在途？单位 MB（1 MB = 1e6 B）。" },
    answer = 1, unit = "MB", tolerance = 0.02,
    mistakes = { "x1000" },
    hints = { { en = "In flight = rate × time; keep the units: bytes/s × s.", zh = "在途量 = 速率 × 时间；注意单位：字节/秒 × 秒。" } },
    explain = { en = "2e12 B/s × 500e-9 s = 1e6 B = 1 MB in flight, spread over every SM.", zh = "2e12 B/s × 500e-9 s = 1e6 B = 1 MB 在途，分布在所有 SM 上。" },
  },

  exercise {
    id = "why-random",
    kind = "choice",
    prompt = { en = "Why does the chase follow a random single-cycle permutation instead of walking the lines in order?",
               zh = "为什么指针追逐要按只有一个环的随机排列走，而不是按顺序遍历缓存行？" },
    choices = {
      { en = "In order, the hardware prefetcher would fetch the next lines early and hide the latency", zh = "按顺序走时，硬件预取器会提前取下一行，把延迟掩盖掉" },
      { en = "Random addresses are faster to compute", zh = "随机地址计算更快" },
      { en = "A single cycle uses less memory", zh = "单个环占用内存更少" },
    },
    answer = 1,
    hints = { { en = "What does a CPU or GPU do when it sees addresses increasing by 64 each time?", zh = "CPU 或 GPU 看到地址每次增加 64 时会做什么？" } },
    explain = { en = "A sequential walk is exactly what prefetchers detect; the measured time would be the prefetched rate, not latency. A single cycle also guarantees every line of the working set is visited.",
                zh = "顺序访问正是预取器最擅长识别的模式，测到的会是预取后的速度，而不是延迟。单个环还保证工作集中的每一行都会被访问到。" },
  },

}
