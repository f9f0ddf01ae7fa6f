-- Lesson 3.2: STREAM on the host and on the device, with McCalpin's rules and byte counts.
local MiB = units.MiB

local KERNELS = {
  { k = "copy", f = "c[i] = a[i]", b = 16 },
  { k = "scale", f = "b[i] = s*c[i]", b = 16 },
  { k = "add", f = "c[i] = a[i] + b[i]", b = 24 },
  { k = "triad", f = "a[i] = b[i] + s*c[i]", b = 24 },
  { k = "dot", f = "sum += a[i]*b[i]", b = 16 },
}

return lesson {
  id = "3.2",
  chapter = 3,
  chapter_title = { en = "Measuring memory", zh = "测量显存" },
  title = { en = "STREAM: sustainable memory bandwidth", zh = "STREAM：可持续内存带宽" },
  requires = { "host" },

  text { en = [[
# STREAM: sustainable memory bandwidth

John McCalpin's STREAM benchmark (written at the University of Delaware in 1991; its home page is now at the University of Virginia) is how the HPC world measures
the memory bandwidth a program can actually sustain. Four loops over arrays of 8-byte doubles:

| kernel | loop | bytes counted per element |
|---|---|---|
| copy | c[i] = a[i] | 16 (read 8, write 8) |
| scale | b[i] = s*c[i] | 16 |
| add | c[i] = a[i] + b[i] | 24 (read 16, write 8) |
| triad | a[i] = b[i] + s*c[i] | 24 |
| dot | sum += a[i] * b[i] | 16 (read 16) |

The fifth, **dot**, comes from BabelStream (University of Bristol), STREAM's GPU descendant: a
reduction, so it also tests how well the machine adds up partial sums from many threads.

## The rules that make the number honest
- **Each array at least 4x the last-level cache**, so the loops stream from DRAM, not from cache.
  vramlab reads the LLC size from sysfs, else from CPUID's cache leaves, else from `sysconf`, judges
  whether the figure is one core's share or a whole package's (a VM may pass the host's total
  through), and warns beside any result that breaks the rule.
- **Each timed run at least 20 clock ticks**, so timer resolution does not distort it.
- **Best of 10 runs** after a warm-up, the spread reported beside it.
- **All cores**: one thread cannot keep enough cache misses in flight to saturate DRAM. vramlab runs
  the host kernels on every online CPU and warns when it was told to use fewer.
- **The result is checked**: the arrays start at a = 0.1, b = 0.2 (BabelStream's values) and
  c = 0.05 (BabelStream starts c at 0; non-zero here so that a kernel writing zeros cannot pass) and s = 3. After the timed runs every
  element of every array is compared with what the kernel must have left (triad: a = 0.2 + 3 x
  0.05 = 0.35, within 100 x the double's epsilon) and dot with n x 0.1 x 0.2. A run that fails the
  check is an error, never a bandwidth figure.

> [!note] Write-allocate traffic is not counted
> A store to a line not in cache first reads that line (write-allocate), so copy really moves 24
> bytes per element on most CPUs, not 16. STREAM counts 16 by definition; remember the real
> traffic is higher when you compare with a DRAM spec.

On a GPU the same kernels run as grid-stride CUDA kernels over device arrays; the counting is the
same, so host and device numbers compare directly. Each GPU thread loads 64 bytes before it
stores (vramlab's kernels batch their loads because Little's law wants many bytes in flight,
lesson 3.3), so copy and scale reach the rate of an SM copy kernel. They are not a `cudaMemcpy`, which is the copy engine's job: about
as fast on most GPUs, and on Hopper disputed, 46-75 % of the peak in some public reports and near
90 % in others (lesson 3.1).

> [!source] Sources
> - J. D. McCalpin, "Memory Bandwidth and Machine Balance in Current High Performance Computers", IEEE TCCA Newsletter, 1995; the STREAM home page (www.cs.virginia.edu/stream) and its run rules (arrays at least 4x the caches, 20 clock ticks, best of 10, byte counts).
> - Deakin et al., "GPU-STREAM v2.0: Benchmarking the Achievable Memory Bandwidth of Many-Core Processors Across Diverse Parallel Programming Models", 2016 (GPU-STREAM, renamed BabelStream in 2017); the BabelStream repository (github.com/UoB-HPC/BabelStream): the dot kernel, added in v3.0 (2017), and the initial values 0.1, 0.2, 0.0 with the scalar 0.4 (`Stream.h`; vramlab uses c = 0.05 and s = 3 so a kernel writing zeros fails).
> - Linux sysfs `/sys/devices/system/cpu/cpu0/cache/`; Intel SDM and AMD APM, CPUID leaf 4 / 0x8000001D (cache parameters).
> - Device-to-device copies by the copy engine, disputed on Hopper: NVIDIA nvbandwidth issue #48 (H20-3e: 1116 GB/s n/t, 46 % of the peak counted read + write), cuda-samples issue #366 (H20: 2.0 TB/s by the copy engine, 3.3 TB/s by a kernel), NCCL issue #1264 (HGX H100: about 75 %); the simulator's figures and their sources: `assets/gpus/*.txt`, `ce_efficiency` and `ce_source` (lesson 3.1).
]], zh = [[
# STREAM：可持续内存带宽

John McCalpin 的 STREAM（1991 年写于特拉华大学，主页如今在弗吉尼亚大学）是高性能计算领域衡量 “程序实际能持续获得多少内存带宽” 的标准方法。四个循环，数组元素是 8 字节 double：

| 核函数 | 循环 | 每个元素计入的字节 |
|---|---|---|
| copy | c[i] = a[i] | 16（读 8，写 8） |
| scale | b[i] = s*c[i] | 16 |
| add | c[i] = a[i] + b[i] | 24（读 16，写 8） |
| triad | a[i] = b[i] + s*c[i] | 24 |
| dot | sum += a[i] * b[i] | 16（读 16） |

第五个核函数 **dot** 来自 BabelStream（布里斯托大学），STREAM 在 GPU 上的后继：它是一个归约，所以还考验机器把许多线程的部分和加起来的能力。

## 让数字可信的规则
- **每个数组至少是末级缓存的 4 倍**，保证循环从内存而不是缓存读数据。vramlab 依次从 sysfs、CPUID 的缓存叶、`sysconf` 读取末级缓存大小，并判断这个数字是单个核心能用的那份还是整个封装的总量（虚拟机可能把宿主机的总量直接透传进来），违反规则的结果旁边会给出警告。
- **每次计时至少 20 个时钟刻度**，避免计时器精度扭曲结果。
- **预热后跑 10 次取最好值**，同时给出离散度。
- **用满所有核**：单线程无法同时挂起足够多的缓存缺失来喂饱内存。vramlab 在主机上用全部在线 CPU 跑这些核函数，被要求少用线程时会给出警告。
- **结果要核对**：数组初值为 a = 0.1、b = 0.2（BabelStream 的取值），c = 0.05（BabelStream 的 c 从 0 开始；这里不为零，写零的核函数就过不了关），s = 3。计时结束后，每个数组的每个元素都要与核函数应留下的值比对（triad：a = 0.2 + 3 × 0.05 = 0.35，误差在 double 机器精度的 100 倍以内），dot 要等于 n × 0.1 × 0.2。核对不通过的运行报错，绝不给出带宽数字。

> [!note] 写分配流量不计入
> 向不在缓存中的行写数据时，CPU 会先把这一行读进来（写分配），所以在大多数 CPU 上 copy 实际每个元素搬运 24 字节，而不是 16。STREAM 按定义只计 16；和内存规格比较时要记得真实流量更高。

在 GPU 上，这些核函数以 grid-stride 方式的 CUDA 核函数在显存数组上运行；计数方法相同，所以主机和设备的数字可以直接比较。每个 GPU 线程先发出 64 字节的加载再写回（vramlab 的核函数把加载成批发出，因为 Little 定律要求大量字节同时在途，见第 3.3 节），所以 copy 和 scale 能达到 SM 拷贝核函数的速率。它们不是 `cudaMemcpy`：后者由拷贝引擎完成，在大多数 GPU 上差不多一样快；在 Hopper 上有争议，有的公开报告只有峰值的 46–75%，也有接近 90% 的（第 3.1 节）。

> [!source] 出处
> - J. D. McCalpin，《Memory Bandwidth and Machine Balance in Current High Performance Computers》，IEEE TCCA Newsletter，1995；STREAM 主页（www.cs.virginia.edu/stream）及其运行规则（数组至少为缓存的 4 倍、20 个时钟滴答、10 次取最好、字节计数）。
> - Deakin 等，《GPU-STREAM v2.0: Benchmarking the Achievable Memory Bandwidth of Many-Core Processors Across Diverse Parallel Programming Models》，2016（GPU-STREAM，2017 年更名为 BabelStream）；BabelStream 代码库（github.com/UoB-HPC/BabelStream）：dot 核函数（v3.0，2017 年加入），初值 0.1、0.2、0.0 与标量 0.4（`Stream.h`；vramlab 用 c = 0.05、s = 3，写零的核函数过不了检查）。
> - Linux sysfs `/sys/devices/system/cpu/cpu0/cache/`；Intel SDM 与 AMD APM 中的 CPUID 叶 4 / 0x8000001D（缓存参数）。
> - 拷贝引擎做的显存内拷贝（在 Hopper 上有争议）：NVIDIA nvbandwidth issue #48（H20-3e：1116 GB/s，n/t，按读 + 写计为峰值的 46%）、cuda-samples issue #366（H20：拷贝引擎 2.0 TB/s，核函数 3.3 TB/s）、NCCL issue #1264（HGX H100：约 75%）；模拟器的数字及其来源：`assets/gpus/*.txt` 的 `ce_efficiency` 和 `ce_source`（第 3.1 节）。
]] },

  experiment {
    id = "stream",
    title = { en = "Run STREAM on host and device", zh = "在主机和设备上运行 STREAM" },
    key = "triad",
    panels = {
      { id = "triad", kind = "bars", title = { en = "Device triad (STREAM counting)", zh = "设备 triad（STREAM 计数）" }, unit = "GB/s" },
      { id = "bw", kind = "bars", title = { en = "STREAM bandwidth (GB/s, STREAM counting)", zh = "STREAM 带宽（GB/s，STREAM 计数）" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "Results", zh = "结果" } },
    },
    run = function(ex)
      local hi = host.info()
      -- STREAM's rule (4x the LLC): 64 MiB a array, 192 MiB in all, keeps the lesson under
      -- 256 MiB of memory (a larger cache gets a note), within what a host experiment may take.
      -- The five kernels run in the same arrays: allocated and first touched once.
      local llc = hi.llc_total_bytes or hi.llc_bytes
      local arr = math.min(64 * MiB, host.budget() // 3 // 4096 * 4096)
      ex:row("t", { ex:t { en = "kernel", zh = "核函数" }, ex:t { en = "host", zh = "主机" }, ex:t { en = "spread", zh = "离散度" },
                    ex:t { en = "device", zh = "设备" } })
      local dev_arr = math.min(256 * MiB, gpu.budget() // 3)
      local checked = true
      for _, k in ipairs(KERNELS) do
        ex:status(ex:t { en = "host " .. k.k, zh = "主机 " .. k.k })
        local h = assert(host.stream { kernel = k.k, bytes = arr })
        ex:bar("bw", ex:t { en = "host ", zh = "主机 " } .. k.k, h.bytes_per_s / 1e9, { from = h })
        for _, w in ipairs(h.warnings) do ex:note("bw", ex:t { en = "host ", zh = "主机 " } .. k.k .. ": " .. w) end
        ex:status(ex:t { en = "device " .. k.k, zh = "设备 " .. k.k })
        local d, err = gpu.stream { kernel = k.k, bytes = dev_arr }
        if d then ex:bar("bw", ex:t { en = "GPU ", zh = "GPU " } .. k.k, d.bytes_per_s / 1e9, { from = d }) else ex:note("bw", err) end
        if d and k.k == "triad" then ex:bar("triad", ex:t { en = "GPU triad", zh = "GPU triad" }, d.bytes_per_s / 1e9, { from = d }) end
        ex:row("t", { k.k, units.rate(h.bytes_per_s), string.format("%.1f%%", 100 * h.spread),
                      d and (units.rate(d.bytes_per_s) .. (d.simulated and " SIM" or "")) or "n/a" })
        checked = checked and h.validated and (not d or d.validated)
      end
      if checked then
        ex:note("t", ex:t { en = "Every array of every run was checked against the kernel's closed form after the timed runs.",
                            zh = "每次运行结束后，每个数组都已按核函数的解析结果核对过。" })
      end
      ex:note("t", string.format(ex:t { en = "host: %d threads, arrays %s each (LLC %s); device arrays %s each",
                                        zh = "主机：%d 线程，每个数组 %s（末级缓存 %s）；设备每个数组 %s" },
                                 hi.threads, units.bytes(arr), hi.llc_bytes and units.bytes(hi.llc_bytes) or "n/a", units.bytes(dev_arr)))
      if llc and 4 * llc > arr then -- the host warning's why
        ex:note("t", string.format(ex:t { en = "STREAM asks for arrays of 4x the last-level cache (%s each here); this lesson keeps to %s each (under 256 MiB of memory), so part of each pass may come from the cache and the host figures may read high.",
                                          zh = "STREAM 要求数组为末级缓存的 4 倍（本机每个 %s）；本课每个数组只用 %s（内存不超过 256 MiB），每遍可能有一部分从缓存读，主机数字可能偏高。" },
                                   units.bytes(4 * llc), units.bytes(arr)))
      end
      ex:status(ex:t { en = "done", zh = "完成" })
    end,
  },

  exercise {
    id = "bytes",
    kind = "number",
    prompt = { en = "A triad over arrays of 10 million doubles takes 10 ms. What bandwidth does STREAM report, in GB/s?",
               zh = "对 1000 万个 double 的数组做 triad，耗时 10 毫秒。STREAM 报告的带宽是多少 GB/s？" },
    answer = 24, unit = "GB/s", tolerance = 0.02,
    mistakes = {
      { value = 16, say = { en = "16 GB/s counts two arrays; the triad a = b + s*c reads b and c and writes a: 3 x 8 B per element.",
                            zh = "16 GB/s 只算了两个数组；triad a = b + s*c 读 b 和 c、写 a：每个元素 3 × 8 B。" } },
      { value = 32, say = { en = "32 GB/s counts the write-allocate read of a; STREAM counts only the bytes the loop names: 3 x 8 B per element.",
                            zh = "32 GB/s 把写分配对 a 的读取也算上了；STREAM 只算循环里写明的字节：每个元素 3 × 8 B。" } },
    },
    hints = { { en = "Count the bytes per element STREAM assigns to triad (three arrays of 8-byte doubles), then divide by the time.",
                zh = "先数 STREAM 给 triad 每个元素计多少字节（三个 8 字节 double 数组），再除以时间。" } },
    explain = { en = "24 B × 1e7 = 240 MB moved in 0.01 s = 24 GB/s.", zh = "24 B × 1e7 = 240 MB，0.01 秒搬完，即 24 GB/s。" },
  },

  exercise {
    id = "llc",
    kind = "choice",
    prompt = { en = "Why must each STREAM array be at least 4x the last-level cache?",
               zh = "为什么 STREAM 的每个数组至少要是末级缓存的 4 倍？" },
    choices = {
      { en = "So the timer has enough ticks", zh = "为了让计时器有足够的刻度" },
      { en = "So the data cannot stay in cache between runs and the loops stream from DRAM", zh = "为了让数据无法在两次运行之间留在缓存里，循环只能从内存读取" },
      { en = "So all threads get the same amount of work", zh = "为了让所有线程分到同样多的工作" },
    },
    answer = 2,
    hints = { { en = "What would a second run of the loop find in the cache if the arrays were small?", zh = "如果数组很小，第二次运行循环时缓存里会有什么？" } },
    explain = { en = "Small arrays stay cached from one run to the next, and the benchmark would report cache bandwidth, several times DRAM's.",
                zh = "数组小了就会在两次运行之间留在缓存里，测出来的是缓存带宽，比内存带宽高好几倍。" },
  },

  exercise {
    id = "scale-fn",
    kind = "code",
    prompt = { en = "Write `stream_bytes(kernel, n)` returning the bytes STREAM counts for one pass of `kernel` (\"copy\", \"scale\", \"add\" or \"triad\") over arrays of n doubles.",
               zh = "写一个函数 `stream_bytes(kernel, n)`，返回 STREAM 对 `kernel`（“copy”、“scale”、“add” 或 “triad”）在 n 个 double 的数组上跑一遍所计的字节数。" },
    entry = "stream_bytes",
    starter = "function stream_bytes(kernel, n)\n  -- your code\nend\n",
    check = function(fn)
      local want = { copy = 16, scale = 16, add = 24, triad = 24 }
      for k, b in pairs(want) do
        for _, n in ipairs { 1, 1000, 12345 } do
          local got = fn(k, n)
          if got ~= b * n then
            return false, { en = string.format("%s over %d doubles: got %s, expected %d", k, n, tostring(got), b * n),
                            zh = string.format("%s，%d 个 double：得到 %s，应为 %d", k, n, tostring(got), b * n) }
          end
        end
      end
      return true
    end,
    hints = { { en = "Count 8 bytes for every array a kernel reads or writes.", zh = "核函数每读或写一个数组，就计 8 字节。" } },
    explain = { en = "copy and scale touch two arrays (16 B per element), add and triad three (24 B).",
                zh = "copy 和 scale 涉及两个数组（每元素 16 B），add 和 triad 涉及三个（24 B）。" },
  },
}
