-- Lesson 7.4: pages and TLBs. The pointer chase of 3.3 extended (gpu.pages): one line per 2 MiB
-- page, loads through L2 only, so the data stays in one level and what rises with the footprint
-- is the address translation; beside it, lines 128 bytes apart, where caches and TLBs add up. The
-- steps are found in the measurement (gpu.plateaus, numbered: no attribute gives a TLB's reach).
local KiB, MiB, GiB = units.KiB, units.MiB, units.GiB

-- footprints: 4 MiB to 16 GiB one line per 2 MiB page; 256 KiB to 128 MiB one per 128 bytes
local function footprints(step, from, top)
  local t, n = {}, from
  top = math.min(top, gpu.budget())
  while n <= top do t[#t + 1] = n; n = n * 2 end
  return t
end

return lesson {
  id = "7.4",
  chapter = 7,
  chapter_title = { en = "Inside the memory system", zh = "深入内存系统" },
  title = { en = "Pages and TLBs", zh = "页与 TLB" },
  requires = { "gpu" },

  text { en = [[
# Pages and TLBs

A kernel's addresses are virtual: before the memory system can fetch a sector, the GPU's memory
management unit translates the address's **page** to a physical one. The translations in use
are cached in **TLBs** (translation lookaside buffers): a small one near each SM and a larger
one shared by the GPU. A load whose page is in neither waits for a **page-table walk**, reads of
the page table that come before the read it wanted.

A TLB's **reach** is its entries times the page size. Device memory from `cudaMalloc` is mapped
in 2 MiB pages, so a TLB of 16 entries reaches 32 MiB. Jia et al. measured the levels with
pointer chases on the V100 and the T4: an L1 TLB reaching 32 MiB (16 entries of 2 MiB pages) and
an L2 TLB reaching 8192 MiB. That is one research group's measurement of two older GPUs; NVIDIA does not
publish these figures, and no device attribute reports them, so the experiment below finds
them in the latency of this device.

## Finding the reach
The chase of lesson 3.3 visits every 128-byte line of its working set: past the L2 it pays DRAM
and translation at once, and the two steps blur. Here a second chase visits **one line per 2 MiB
page**: 16 GiB of footprint is 8192 lines, 1 MiB of data, and its loads go through L2 only
(`ld.global.cg`), so the data is always an L2 hit. What rises with the footprint is the
translation alone: a plateau while the pages fit the L1 TLB, a step where they outgrow it, another
past the L2 TLB's reach.

## Why huge allocations are cheap and scattered ones are not
A TLB entry covers a page, whatever is read in it. A kernel that streams a 1 GiB tensor uses 512
translations, each for 2 MiB of reads: 65536 sectors per walk at worst, nothing to measure. A
kernel that gathers small pieces at random from a footprint past the TLBs' reach (rows of a large
embedding table, blocks spread over many GiB) needs a different page on nearly every load, and
pays a walk on most of them, on top of its sectors (lesson 7.1). What decides is how many
distinct pages the loads touch in a short while, not how many bytes they move. The same holds
on the host, with 4 KiB pages where huge pages are not used (the ladder's last step in 3.3).
]], zh = [[
# 页与 TLB

核函数用的地址是虚拟地址：内存系统取扇区之前，GPU 的内存管理单元要先把地址所在的**页**翻译成物理页。正在使用的翻译缓存在 **TLB**（转换后备缓冲区）里：每个 SM 附近一个小的，整块 GPU 共用一个大一些的。页在两者中都找不到的加载，要等一次**页表遍历**：在读想读的数据之前，先读页表。

TLB 的**覆盖范围**（reach）是它的表项数乘页大小。`cudaMalloc` 分配的显存按 2 MiB 的页映射，所以 16 个表项的 TLB 覆盖 32 MiB。Jia 等人在 V100 和 T4 上用指针追逐测出了各级：L1 TLB 覆盖 32 MiB（16 个表项，每项一个 2 MiB 的页），L2 TLB 覆盖 8192 MiB。这是一个研究小组对两款较老 GPU 的测量；NVIDIA 不公布这些数字，也没有哪个设备属性报告它们，所以下面的实验从本设备的延迟里把它们找出来。

## 找出覆盖范围
第 3.3 节的追逐访问工作集里的每一条 128 字节的缓存行：越过 L2 以后，显存和地址翻译的代价同时出现，两级台阶糊在一起。这里的第二种追逐**每个 2 MiB 的页只访问一行**：16 GiB 的范围只有 8192 行、1 MiB 的数据，加载只经过 L2（`ld.global.cg`），所以数据总是命中 L2。随着范围增大而上升的只有地址翻译：页装得进 L1 TLB 时是一个平台，超出它的地方一级台阶，超过 L2 TLB 的覆盖范围又一级。

## 为什么大块分配寻址便宜，零散访问却不便宜
一个 TLB 表项覆盖一页，不管在里面读什么。流式读取 1 GiB 张量的核函数用 512 个翻译，每个管 2 MiB 的读取：最坏每 65536 个扇区一次页表遍历，根本测不出来。从超出 TLB 覆盖范围的区域里随机收集小块数据的核函数（大型嵌入表的行、散布在许多 GiB 上的块），几乎每次加载都要换一页，大多要付一次页表遍历，这还要加在它的扇区开销之上（第 7.1 节）。决定代价的是加载在短时间内碰到多少个不同的页，而不是搬了多少字节。主机上也一样，没有用大页时页是 4 KiB（第 3.3 节阶梯的最后一级）。
]] },

  exercise {
    id = "predict-1gib",
    kind = "predict",
    prompt = { en = "Predict this device's latency per load chasing one line per 2 MiB page over 1 GiB (ns).",
               zh = "预测本设备在 1 GiB 范围上每 2 MiB 页追逐一行时，每次加载的延迟（纳秒）。" },
    unit = "ns", tolerance = 0.4,
    measure = function()
      local r = assert(gpu.pages { bytes = math.min(GiB, gpu.budget() - gpu.budget() % (2 * MiB)), step = 2 * MiB })
      return r.ns_per_load, r
    end,
    hints = { { en = "1 GiB is past the L1 TLB's reach and within the L2 TLB's: an L2 hit for the data plus an L1 TLB miss.", zh = "1 GiB 超出了 L1 TLB 的覆盖范围，但在 L2 TLB 之内：数据命中 L2，再加一次 L1 TLB 缺失。" } },
    explain = { en = "The second plateau of the experiment below: the L2's latency for the data plus the cost of finding the translation in the second TLB level.",
                zh = "就是下面实验的第二个平台：数据的 L2 延迟，再加上在第二级 TLB 里找到翻译的代价。" },
  },

  experiment {
    id = "reach",
    key = "curve",
    title = { en = "Latency vs footprint: one line per page, and every line", zh = "延迟 vs 范围：每页一行，与每行都访问" },
    intro = { en = [[
Chases over footprints of 4 MiB to 16 GiB (within the cap) with one line every 2 MiB, then over
256 KiB to 128 MiB with one line every 128 bytes; five chases each, from five SMs, each stopping
where the cycle says it must. The steps of the first curve are found in the measurement (a jump
of more than 40 % ends a plateau).
]], zh = [[
先在 4 MiB 到 16 GiB（在上限以内）的范围上每 2 MiB 一行地追逐，再在 256 KiB 到 128 MiB 的范围上每 128 字节一行地追逐；每个都追五次，分别在五个 SM 上，每次都停在环上应该停的位置。第一条曲线的台阶从测量本身找出（跳升超过 40 % 就结束一个平台）。
]] },
    panels = {
      { id = "curve", kind = "curve", title = { en = "ns per dependent load vs footprint", zh = "每次依赖加载的纳秒数 vs 范围" },
        x = "bytes", y = "ns", logx = true },
      { id = "t", kind = "table", title = { en = "Plateaus, one line per 2 MiB page", zh = "平台（每 2 MiB 页一行）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local page, line = T("one line per 2 MiB page", "每 2 MiB 页一行"), T("every 128-byte line", "每 128 字节一行")
      local pts = {}
      for _, n in ipairs(footprints(2 * MiB, 4 * MiB, 16 * GiB)) do
        ex:status(page .. " " .. units.bytes(n))
        local r, err = gpu.pages { bytes = n, step = 2 * MiB }
        if not r then ex:note("curve", err); break end
        ex:point("curve", page, n, r.ns_per_load, { from = r })
        pts[#pts + 1] = { bytes = n, ns = r.ns_per_load }
      end
      for _, n in ipairs(footprints(128, 256 * KiB, 128 * MiB)) do
        ex:status(line .. " " .. units.bytes(n))
        local r, err = gpu.pages { bytes = n, step = 128 }
        if not r then ex:note("curve", err); break end
        ex:point("curve", line, n, r.ns_per_load, { from = r })
      end
      ex:row("t", { T("plateau", "平台"), T("footprint", "范围"), T("latency", "延迟"), T("pages", "页数") })
      local found = gpu.plateaus(pts, { levels = {} })
      for k, p in ipairs(found) do
        ex:row("t", { tostring(k), units.bytes(p.from) .. " – " .. units.bytes(p.to), string.format("%.0f ns", p.ns),
                      string.format("%d – %d", p.from // (2 * MiB), p.to // (2 * MiB)) })
      end
      -- where the latency steps up: after each plateau but the last, and after the last when the
      -- curve's final point (a lone point past a jump is no plateau) is above it
      local steps = {}
      for k = 1, #found - 1 do steps[#steps + 1] = found[k].to end
      local last = pts[#pts]
      if #found > 0 and last and last.bytes > found[#found].to and last.ns > 1.4 * found[#found].ns then
        steps[#steps + 1] = found[#found].to
      end
      if steps[1] then
        ex:note("t", string.format(T("The first step follows %s: this device's first TLB level reaches between %s and %s (%d to %d pages of 2 MiB).",
                                     "第一级台阶出现在 %s 之后：本设备第一级 TLB 的覆盖范围在 %s 到 %s 之间（%d 到 %d 个 2 MiB 的页）。"),
                                   units.bytes(steps[1]), units.bytes(steps[1]), units.bytes(2 * steps[1]),
                                   steps[1] // (2 * MiB), 2 * steps[1] // (2 * MiB)))
      end
      if not steps[1] and last then
        ex:note("t", string.format(T("No step up to %s: every page's translation was found in the first TLB level.",
                                     "到 %s 为止没有台阶：每一页的翻译都在第一级 TLB 里找到了。"), units.bytes(last.bytes)))
      elseif steps[2] then
        ex:note("t", string.format(T("The next follows %s: the second level reaches between %s and %s.",
                                     "下一级出现在 %s 之后：第二级的覆盖范围在 %s 到 %s 之间。"),
                                   units.bytes(steps[2]), units.bytes(steps[2]), units.bytes(2 * steps[2])))
      elseif last then
        ex:note("t", string.format(T("No second step up to %s: the second level reaches further than the experiment could go.",
                                     "到 %s 为止没有第二级台阶：第二级的覆盖范围超出了实验能到达的大小。"), units.bytes(last.bytes)))
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "tlb-reach",
    kind = "number",
    prompt = { en = "An L1 TLB has 16 entries, each mapping a 2 MiB page. What is its reach, in MiB?",
               zh = "一个 L1 TLB 有 16 个表项，每个映射一个 2 MiB 的页。它的覆盖范围是多少 MiB？" },
    answer = 32, unit = "MiB", tolerance = 0.01,
    mistakes = {
      { value = 16, say = { en = "16 is the number of entries; each maps 2 MiB.", zh = "16 是表项数；每个表项映射 2 MiB。" } },
    },
    hints = { { en = "Reach = entries x page size.", zh = "覆盖范围 = 表项数 × 页大小。" } },
    explain = { en = "16 x 2 MiB = 32 MiB: what Jia et al. measured on the V100 and the T4. Past it, a chase with one line per page misses the L1 TLB on most loads.",
                zh = "16 × 2 MiB = 32 MiB：就是 Jia 等人在 V100 和 T4 上测到的。超过它，每页一行的追逐大多数加载都会错过 L1 TLB。" },
  },

  exercise {
    id = "entries-4k",
    kind = "number",
    prompt = { en = "How many page translations does a 1 GiB buffer need with 4 KiB pages (as on a host without huge pages)?",
               zh = "用 4 KiB 的页（主机不用大页时就是这样），一个 1 GiB 的缓冲区需要多少个页翻译？" },
    answer = 262144, unit = "pages", tolerance = 0.01,
    mistakes = {
      { value = 512, say = { en = "512 is with 2 MiB pages, as cudaMalloc maps device memory; the question asks for 4 KiB pages.",
                             zh = "512 是 2 MiB 页的情况，也就是 cudaMalloc 映射显存的方式；题目问的是 4 KiB 的页。" } },
    },
    hints = { { en = "2^30 bytes / 2^12 bytes per page.", zh = "2^30 字节 / 每页 2^12 字节。" } },
    explain = { en = "2^30 / 2^12 = 262144 translations, 512 times as many as with 2 MiB pages: a TLB of a few thousand entries reaches a few MiB of 4 KiB pages but several GiB of 2 MiB ones.",
                zh = "2^30 / 2^12 = 262144 个翻译，是 2 MiB 页时的 512 倍：几千个表项的 TLB，对 4 KiB 的页只能覆盖几 MiB，对 2 MiB 的页却能覆盖好几 GiB。" },
  },

  exercise {
    id = "gather",
    kind = "choice",
    prompt = { en = "A kernel gathers 256-byte rows at random from a 40 GiB embedding table. Besides the sectors it reads, what makes its loads slow?",
               zh = "一个核函数从 40 GiB 的嵌入表里随机收集 256 字节的行。除了它读的扇区，还有什么让它的加载变慢？" },
    choices = {
      { en = "Most rows lie on a page no TLB holds: each waits for a page-table walk", zh = "大多数行所在的页不在任何 TLB 里：每次都要等一次页表遍历" },
      { en = "Shared-memory bank conflicts", zh = "共享内存的存储体冲突" },
      { en = "Nothing: 256-byte rows are coalesced, so it runs at full bandwidth", zh = "没有：256 字节的行是合并访问，所以能跑满带宽" },
    },
    answer = 1,
    why = {
      [2] = { en = "A gather from global memory does not touch shared memory.", zh = "从全局内存收集数据不涉及共享内存。" },
      [3] = { en = "The row is coalesced, but each row starts a new page: the translation comes first.", zh = "一行之内是合并的，但每一行都在新的一页上：先要做地址翻译。" },
    },
    hints = { { en = "How many 2 MiB pages does 40 GiB span, and how many does an 8 GiB TLB reach hold?", zh = "40 GiB 跨越多少个 2 MiB 的页？覆盖 8 GiB 的 TLB 能装下多少？" } },
    explain = { en = "40 GiB is 20480 pages of 2 MiB, more than the TLBs reach: about four gathers in five need a walk. Sorting or batching the lookups by page, or keeping the hot rows together, is what helps.",
                zh = "40 GiB 是 20480 个 2 MiB 的页，超出 TLB 的覆盖范围：大约每五次收集有四次需要页表遍历。按页排序或分批查找，或者把常用的行放在一起，才有帮助。" },
  },

  text { en = [[
> [!source] Sources
> - Jia, Maggioni, Staiger, Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via
>   Microbenchmarking", 2018, and Jia, Maggioni, Smith, Scarpazza, "Dissecting the NVidia Turing
>   T4 GPU via Microbenchmarking", 2019: the TLB levels' reach (32 MiB and 8192 MiB; the first
>   level's entries map 2 MiB) from pointer chases; one research group's report, on V100 and T4
>   only.
> - NVIDIA, PTX ISA, "Cache Operators" (`ld.global.cg`).
> - NVIDIA, CUDA C++ Programming Guide, "Virtual Memory Management" (the granularity device memory
>   is mapped with).
> - Sattolo, "An algorithm to generate a random cyclic permutation", Information Processing
>   Letters, 1986 (the chase's order, as in lesson 3.3).
> - The figures above: this device, measured (or SIMULATED from its profile: the TLB model's
>   parameters and where each comes from are in docs/simulator.md and assets/gpus/).
]], zh = [[
> [!source] 出处
> - Jia、Maggioni、Staiger、Scarpazza，《Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking》，2018；Jia、Maggioni、Smith、Scarpazza，《Dissecting the NVidia Turing T4 GPU via Microbenchmarking》，2019：用指针追逐测得的各级 TLB 覆盖范围（32 MiB 与 8192 MiB；第一级的表项映射 2 MiB）；一个研究小组的报告，只测了 V100 和 T4。
> - NVIDIA，《PTX ISA》"Cache Operators"（`ld.global.cg`）。
> - NVIDIA，《CUDA C++ Programming Guide》“Virtual Memory Management”（显存映射的粒度）。
> - Sattolo，《An algorithm to generate a random cyclic permutation》，Information Processing Letters，1986（追逐的顺序，与第 3.3 节相同）。
> - 上面的数字：本设备实测（或按其配置模拟：TLB 模型的参数及各自的出处见 docs/simulator.md 与 assets/gpus/）。
]] },
}
