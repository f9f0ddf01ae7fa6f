-- Lesson 7.3: shared memory and bank conflicts. Shared-memory reads at strides 1..33 (gpu.banks),
-- the ways each is split counted as gcd(stride, 32); then a matrix transpose naive, through a
-- 32 x 32 shared tile and through a padded 32 x 33 one, against a copy of the same matrix
-- (gpu.transpose), every output checked element by element.
local GB = 1e9

-- the matrix side: 8192 (256 MiB per matrix), halved until both matrices fit the cap
local function side()
  local n = 8192
  while n > 64 and 2 * n * n * 4 > gpu.budget() do n = n // 2 end
  return n
end

return lesson {
  id = "7.3",
  chapter = 7,
  chapter_title = { en = "Inside the memory system", zh = "深入内存系统" },
  title = { en = "Shared memory and bank conflicts", zh = "共享内存与存储体冲突" },
  requires = { "gpu" },

  text { en = [[
# Shared memory and bank conflicts

Each SM has a small, fast, programmer-managed memory: **shared memory**, the threads of a block
writing and reading it at will (up to 228 KiB per SM on an H100, NVIDIA's "228 KB", carved out of the same storage as
L1). It is how a kernel turns an access pattern DRAM hates into two it likes: read coalesced
into shared memory, then read shared memory in whatever order the computation needs.

Shared memory is divided into **32 banks**, each 4 bytes wide: the 4-byte word at address a lives
in bank (a / 4) mod 32, and each bank serves one word per clock. A warp's shared-memory load is
served in one pass when its 32 threads hit 32 different banks (or the same word: that is a
broadcast). When n threads ask one bank for n different words, the load is split into n passes:
an **n-way bank conflict**.

For thread k reading word k x s (a stride of s words), the banks hit are (k x s) mod 32, and the
load is split **gcd(s, 32)** ways: every odd stride is free, stride 2 costs 2 passes, stride 32
costs 32: all 32 threads in one bank.

## A transpose, three ways
Transposing a matrix is the textbook case. The **naive** kernel reads a row (coalesced) and
writes a column: each warp's store touches 32 rows, 32 sectors for 128 bytes. The **tiled**
kernel lets a block read a 32 x 32 tile into shared memory by rows, then write it out by rows of
the transposed matrix: both global accesses coalesced. But writing the transpose means reading
the tile by **columns**: the 32 words of a column are 32 words apart, `tile[k][c]` for k = 0..31,
all in bank c: a 32-way conflict. Declaring the tile `[32][33]` (one word of padding per row)
shifts each row by one bank: the column's words land in 32 different banks, and the conflict is
gone. Nothing else changes.

```
__shared__ float tile[32][33];           /* [32][32]: each column in one bank */
tile[ty + j][tx] = in[(y + j) * n + x];  /* rows in, coalesced */
__syncthreads();
out[(y2 + j) * n + x2] = tile[tx][ty + j];   /* columns out: rows of the transpose */
```

> [!note] The profiler's name for it
> Nsight Compute counts `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum` (and `_st`
> for stores); `gpu.bank_ways(stride)` gives the ways a given stride costs.
]], zh = [[
# 共享内存与存储体冲突

每个 SM 都有一块小而快、由程序员管理的存储器：**共享内存**，一个线程块的线程可以随意读写它（H100 上每个 SM 最多 228 KiB，即 NVIDIA 写的“228 KB”，和 L1 共用同一块存储）。核函数用它把显存讨厌的访问方式变成两个它喜欢的：先合并地读进共享内存，再按计算需要的任意顺序读共享内存。

共享内存分成 **32 个存储体**（bank），每个宽 4 字节：地址 a 处的 4 字节字位于第 (a / 4) mod 32 个存储体，每个存储体每个时钟服务一个字。一个线程束对共享内存的加载，如果 32 个线程落在 32 个不同的存储体上（或者读同一个字：那是广播），一次就能完成。当 n 个线程向同一个存储体要 n 个不同的字，这次加载就被拆成 n 次：**n 路存储体冲突**。

第 k 个线程读第 k × s 个字（步长 s 个字）时，落到的存储体是 (k × s) mod 32，加载被拆成 **gcd(s, 32)** 路：奇数步长都不冲突，步长 2 要 2 次，步长 32 要 32 次：32 个线程全在一个存储体里。

## 转置的三种写法
矩阵转置是教科书式的例子。**朴素**核函数按行读（合并），按列写：每个线程束的一次存储碰到 32 行，128 字节要 32 个扇区。**分块**（tiled）核函数让一个线程块按行把 32 × 32 的块读进共享内存，再按转置后矩阵的行写出去：两边的全局访问都是合并的。但要写出转置，就得按**列**读这个块：一列的 32 个字彼此相隔 32 个字，即 k = 0..31 时的 `tile[k][c]`，全在第 c 个存储体里：32 路冲突。把块声明成 `[32][33]`（每行补一个字）让每一行错开一个存储体：一列的字落到 32 个不同的存储体上，冲突消失。别的什么都不用改。

```
__shared__ float tile[32][33];           /* [32][32]：每一列都在同一个存储体 */
tile[ty + j][tx] = in[(y + j) * n + x];  /* 按行读入，合并 */
__syncthreads();
out[(y2 + j) * n + x2] = tile[tx][ty + j];   /* 按列读出：转置矩阵的行 */
```

> [!note] 分析器里的名字
> Nsight Compute 统计 `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`（存储是 `_st`）；`gpu.bank_ways(stride)` 给出某个步长要拆成几路。
]] },

  experiment {
    id = "banks",
    key = "bw",
    title = { en = "Shared-memory bandwidth vs stride", zh = "共享内存带宽 vs 步长" },
    intro = { en = [[
Every thread of 1024 per SM reads shared memory 65536 times, thread k of each warp at word
k x stride; the sum of what was read is checked. Strides 1 to 32, and 33.
]], zh = [[
每个 SM 上 1024 个线程各读共享内存 65536 次，每个线程束中第 k 个线程读第 k × 步长 个字；核对读到的总和。步长从 1 到 32，再加 33。
]] },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Shared-memory bandwidth", zh = "共享内存带宽" }, unit = "GB/s" },
      { id = "curve", kind = "curve", title = { en = "GB/s vs stride (words)", zh = "GB/s vs 步长（字）" }, x = "stride", y = "GB/s" },
      { id = "t", kind = "table", title = { en = "Ways and bandwidth", zh = "拆分路数与带宽" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("stride", "步长"), T("ways", "路数"), T("bandwidth", "带宽") })
      local one, worst
      for _, s in ipairs { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 33 } do
        ex:status(T("stride ", "步长 ") .. s)
        local r, err = gpu.banks { stride = s }
        if not r then ex:note("t", err); break end
        ex:point("curve", T("this device", "本设备"), s, r.bytes_per_s / GB, { from = r })
        ex:row("t", { tostring(s), tostring(r.bank_ways), units.rate(r.bytes_per_s) })
        if s == 1 then one = r end
        if s == 32 then worst = r end
      end
      if one and worst then
        ex:bar("bw", T("stride 1 (no conflict)", "步长 1（无冲突）"), one.bytes_per_s / GB, { from = one })
        ex:bar("bw", T("stride 32 (32 ways)", "步长 32（32 路）"), worst.bytes_per_s / GB, { from = worst })
        ex:note("bw", string.format(T("Stride 1 / stride 32: %.1fx.", "步长 1 / 步长 32：%.1f 倍。"), one.bytes_per_s / worst.bytes_per_s))
      end
      ex:note("t", T("Ways: gcd(stride, 32), counted from the addresses.", "路数：gcd(步长, 32)，由地址算出。"))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "predict-padded",
    kind = "predict",
    prompt = { en = "Predict the padded transpose's effective bandwidth on this device (GB/s).",
               zh = "预测补齐转置在本设备上的有效带宽（GB/s）。" },
    unit = "GB/s", tolerance = 0.3,
    measure = function()
      local r = assert(gpu.transpose { kernel = "padded", n = side() })
      return r.bytes_per_s / GB, r
    end,
    hints = { { en = "Without conflicts and with both sides coalesced, it is as close to a copy as a transpose gets.", zh = "没有冲突、两边都合并，它就是最接近拷贝的转置。" } },
    explain = { en = "Close to the copy of the same matrix: the padded tile leaves a transpose only the copy's bytes to move.",
                zh = "接近同一矩阵的拷贝：补齐的块让转置只剩下和拷贝一样多的字节要搬。" },
  },

  experiment {
    id = "transpose",
    key = "bw",
    title = { en = "Transpose: naive, tiled, padded", zh = "转置：朴素、分块、补齐" },
    intro = { en = [[
An 8192 x 8192 matrix of 4-byte words (smaller where two would not fit) copied, then transposed
by the three kernels; each output is checked element by element. Effective bandwidth: the matrix
read and the matrix written, 2 x n² x 4 bytes, over the time.
]], zh = [[
一个 8192 × 8192 的 4 字节字矩阵（两个放不下时更小）先拷贝，再用三个核函数转置；每个输出都逐元素核对。有效带宽：读一个矩阵加写一个矩阵，2 × n² × 4 字节，除以时间。
]] },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Effective bandwidth", zh = "有效带宽" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "What each kernel asks of the memory", zh = "各核函数对内存的要求" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local n = side()
      ex:row("t", { T("kernel", "核函数"), T("sectors per store", "每次存储的扇区"), T("bank ways", "存储体路数"),
                    T("effective", "有效带宽"), T("of the copy", "占拷贝的比例") })
      local names = {
        copy = { en = "copy (reference)", zh = "拷贝（参照）" }, naive = { en = "naive", zh = "朴素" },
        tiled = { en = "tiled 32 x 32", zh = "分块 32 × 32" }, padded = { en = "padded 32 x 33", zh = "补齐 32 × 33" },
      }
      local copy
      for _, k in ipairs { "copy", "naive", "tiled", "padded" } do
        local name = T(names[k].en, names[k].zh)
        ex:status(name)
        local r, err = gpu.transpose { kernel = k, n = n }
        if not r then ex:note("t", err); break end
        copy = copy or r
        ex:bar("bw", name, r.bytes_per_s / GB, { from = r })
        ex:row("t", { name, string.format("%.0f", r.sectors_per_request), r.bank_ways and tostring(r.bank_ways) or "–",
                      units.rate(r.bytes_per_s), string.format("%.0f %%", 100 * r.bytes_per_s / copy.bytes_per_s) })
      end
      ex:note("t", string.format(T("%d x %d matrix, %s each way.", "%d × %d 的矩阵，每个方向 %s。"), n, n, units.bytes(n * n * 4)))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## When a conflict costs
A bank conflict only costs time when shared memory is what the kernel waits for. The tiled
transpose moves 8 KiB of DRAM traffic per tile and spends 32 passes on each of its 32 column
reads: 1056 shared-memory passes per tile instead of 64. On a GPU whose SMs are fast next to
its DRAM, those passes take longer than the bytes, and the padded tile wins by a wide margin; on
one whose DRAM is the slower part, the passes hide partly behind the bytes. Either way the
padding is free: one extra word per row of the tile, 128 bytes per block.

The simulator combines the three pipes a transpose uses (DRAM, L2, shared memory) rather than
simulating them (docs/simulator.md, "Access patterns"); on a GPU the figures are measured.
]], zh = [[
## 冲突什么时候花时间
只有当核函数在等共享内存时，存储体冲突才花时间。分块转置每个块产生 8 KiB 的显存流量，而它的 32 次按列读取每次都要 32 趟：每个块 1056 趟共享内存访问，而不是 64 趟。在 SM 比显存快得多的 GPU 上，这些趟次比搬字节还费时间，补齐的块遥遥领先；在显存更慢的 GPU 上，这些趟次有一部分藏在搬字节的时间后面。无论哪种情况，补齐都几乎不花代价：块的每行多一个字，每个线程块 128 字节。

模拟器是把转置用到的三条流水线（显存、L2、共享内存）组合起来估算的，而不是逐周期模拟（见 docs/simulator.md 的“Access patterns”一节）；在 GPU 上这些数字是实测的。
]] },

  exercise {
    id = "ways-34",
    kind = "number",
    prompt = { en = "A tile is declared `float tile[32][34]` and a warp reads one column of it, `tile[k][c]` for k = 0..31. How many ways is the load split?",
               zh = "一个 float 类型的块声明为 `tile[32][34]`，一个线程束读它的一列，即 k = 0..31 时的 `tile[k][c]`。这次加载被拆成几路？" },
    answer = 2, unit = "ways", tolerance = 0.01,
    mistakes = {
      { value = 1, say = { en = "Padding by two words shifts each row by two banks: rows 0 and 16 land in the same bank.",
                           zh = "补两个字让每行错开两个存储体：第 0 行和第 16 行落在同一个存储体。" } },
      { value = 32, say = { en = "That is the unpadded [32][32] tile; here each row is 34 words long.", zh = "那是没有补齐的 [32][32] 块；这里每行长 34 个字。" } },
      { value = 16, say = { en = "16 is how many banks the column's words land in; the ways are how many words share a bank: 32 / 16.",
                            zh = "16 是这一列的字落到的存储体个数；路数是同一个存储体里有几个字：32 / 16。" } },
    },
    hints = { { en = "The words of a column are 34 words apart: gcd(34, 32).", zh = "一列的字彼此相隔 34 个字：gcd(34, 32)。" } },
    explain = { en = "Word k x 34 + c is in bank (2k + c) mod 32: 16 banks, 2 words each: a 2-way conflict. Any odd row length (33, 35) avoids it.",
                zh = "第 k × 34 + c 个字在第 (2k + c) mod 32 个存储体：16 个存储体，每个 2 个字：2 路冲突。任何奇数的行长（33、35）都能避免它。" },
  },

  exercise {
    id = "ways-12",
    kind = "number",
    prompt = { en = "Thread k of a warp reads shared word k x 12. How many ways is the load split?",
               zh = "线程束中第 k 个线程读共享内存的第 k × 12 个字。这次加载被拆成几路？" },
    answer = 4, unit = "ways", tolerance = 0.01,
    mistakes = {
      { value = 12, say = { en = "Not the stride itself: the banks repeat every 32 words, so only gcd(12, 32) threads meet in a bank.",
                            zh = "不是步长本身：存储体每 32 个字重复一次，所以同一存储体里只会碰到 gcd(12, 32) 个线程。" } },
      { value = 8, say = { en = "8 is how many banks the warp's words land in; the ways are how many threads share a bank: 32 / 8.",
                           zh = "8 是线程束的字落到的存储体个数；路数是同一个存储体里有几个线程：32 / 8。" } },
    },
    hints = { { en = "Which banks do threads 0, 8, 16, 24 hit?", zh = "第 0、8、16、24 个线程落在哪些存储体？" } },
    explain = { en = "12k mod 32 takes 8 values (0, 12, 24, 4, 16, 28, 8, 20), each 4 times: gcd(12, 32) = 4 ways.",
                zh = "12k mod 32 只取 8 个值（0、12、24、4、16、28、8、20），每个出现 4 次：gcd(12, 32) = 4 路。" },
  },

  exercise {
    id = "naive-slow",
    kind = "choice",
    prompt = { en = "Why is the naive transpose slower than a copy of the same matrix?",
               zh = "为什么朴素转置比拷贝同一个矩阵慢？" },
    choices = {
      { en = "Its stores go down a column: each warp's store touches 32 sectors for 128 bytes", zh = "它按列存储：每个线程束的一次存储为 128 字节碰到 32 个扇区" },
      { en = "It has bank conflicts in shared memory", zh = "它在共享内存里有存储体冲突" },
      { en = "It does more arithmetic to compute the indices", zh = "它算下标要做更多运算" },
    },
    answer = 1,
    why = {
      [2] = { en = "The naive kernel uses no shared memory at all; the tiled one does.", zh = "朴素核函数根本不用共享内存；用的是分块的那个。" },
      [3] = { en = "A multiply and an add per element are nothing next to the memory traffic.", zh = "每个元素一次乘法一次加法，和内存流量比起来微不足道。" },
    },
    hints = { { en = "Look at the sectors per store in the table.", zh = "看表里每次存储的扇区数。" } },
    explain = { en = "Reading rows is coalesced, writing columns is not: 32 sectors per warp store instead of 4, 8 times the traffic between the SMs and the L2. The L2 merges the partial sectors of a block's warps before they reach DRAM, so the loss is smaller than 8x: compare the naive kernel with the copy in the table above.",
                zh = "按行读是合并的，按列写不是：每次线程束存储 32 个扇区而不是 4 个，SM 与 L2 之间的流量多了 8 倍。L2 会在写回显存之前把同一线程块各线程束零散的扇区合并起来，所以损失小于 8 倍：看上面表里朴素核函数和拷贝的对比。" },
  },

  text { en = [[
> [!source] Sources
> - NVIDIA, CUDA C++ Programming Guide, "Shared Memory" (32 banks of 4 bytes, broadcast,
>   conflicts) and the technical specifications table (shared memory per SM by compute capability).
> - NVIDIA, CUDA C++ Best Practices Guide, "Shared Memory and Memory Banks".
> - Harris, "An Efficient Matrix Transpose in CUDA C/C++", NVIDIA Technical Blog, 2013 (the naive,
>   coalesced and conflict-free kernels, TILE_DIM 32 and BLOCK_ROWS 8, as in these experiments),
>   and the CUDA samples' transpose (the same kernels with BLOCK_ROWS 16).
> - NVIDIA H100 Tensor Core GPU Architecture whitepaper (228 KB of shared memory per SM).
> - NVIDIA, Nsight Compute Kernel Profiling Guide, metric
>   `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld`.
> - The figures above: this device, measured (or SIMULATED from its profile, docs/simulator.md).
]], zh = [[
> [!source] 出处
> - NVIDIA，《CUDA C++ Programming Guide》“Shared Memory”（32 个 4 字节宽的存储体、广播、冲突）与技术规格表（各计算能力每个 SM 的共享内存）。
> - NVIDIA，《CUDA C++ Best Practices Guide》"Shared Memory and Memory Banks"。
> - Harris，“An Efficient Matrix Transpose in CUDA C/C++”，NVIDIA 技术博客，2013（朴素、合并、无冲突三个核函数，TILE_DIM 32、BLOCK_ROWS 8，与这里的实验相同），以及 CUDA 示例中的 transpose（同样的核函数，BLOCK_ROWS 16）。
> - NVIDIA H100 Tensor Core GPU 架构白皮书（每个 SM 228 KB 共享内存）。
> - NVIDIA，《Nsight Compute Kernel Profiling Guide》，指标 `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld`。
> - 上面的数字：本设备实测（或按其配置模拟，见 docs/simulator.md）。
]] },
}
