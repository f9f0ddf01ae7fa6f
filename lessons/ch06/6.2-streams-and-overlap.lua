-- Lesson 6.2: streams and overlap. Chunks copied in, computed on and copied out on one, two and
-- three streams (gpu.program), drawn on a timeline lane by lane as they ran and checked word
-- for word; the speed-up against the Best Practices Guide's estimate (vram.overlap); pageable
-- memory breaking the overlap; and a missing event caught as the race it is.
local MiB = units.MiB
local CHUNKS = 8

-- 16 MiB chunks, less where the experiment cap (3 device buffers) or the host budget is smaller
local function chunk_bytes()
  local c = math.min(16 * MiB, gpu.budget() // 4)
  if not gpu.info().simulated then c = math.min(c, host.budget() // (2 * CHUNKS + 2)) end
  return math.max(4096, c - c % 4096)
end

-- the time one chunk takes to copy in, pinned: the kernel is asked to take as long
local function copy_seconds(c)
  local r, err = gpu.copy { dir = "h2d", bytes = c, pinned = true, trials = 3 }
  return r and r.seconds, r or err
end

-- A run on the timeline panel, the operations that started from `from` up to `upto` seconds
-- (the axis is the whole run): a lane for the host thread (how long each call held it), one per
-- engine (the copy engines and the SMs) and one per stream; a span's kind is its colour and its
-- chunk its number. On the first step the panel is cleared and the lanes declared (a span of no
-- length), so they keep their rows while the run is revealed.
local function draw(ex, T, r, streams, from, upto)
  local kind = { h2d = T("copy in", "拷入"), sm = T("kernel", "核函数"), d2h = T("copy out", "拷出") }
  local host, call = T("host", "主机"), T("host call", "主机调用")
  local engine = { h2d = T("H2D copy", "H2D 拷贝"), sm = T("SMs", "SM"), d2h = T("D2H copy", "D2H 拷贝") }
  local function stream(s) return string.format(T("stream %d", "流 %d"), s) end
  local total = r.seconds
  if from == 0 then
    ex:clear("tl")
    ex:span("tl", host, 0, 0, { kind = call, total = total, from = r })
    for _, l in ipairs { "h2d", "sm", "d2h" } do ex:span("tl", engine[l], 0, 0, { kind = kind[l], total = total, from = r }) end
    for s = 1, streams do ex:span("tl", stream(s), 0, 0, { kind = kind.sm, total = total, from = r }) end
  end
  for _, o in ipairs(r.ops) do
    local n = tonumber(o.label)
    if kind[o.lane] and o.issued >= from and o.issued < upto then
      ex:span("tl", host, o.issued, o.returned, { kind = call, n = n, total = total, from = r })
    end
    if kind[o.lane] and o.start >= from and o.start < upto then
      ex:span("tl", engine[o.lane], o.start, o.finish, { kind = kind[o.lane], n = n, total = total, from = r })
      ex:span("tl", stream(o.stream), o.start, o.finish, { kind = kind[o.lane], n = n, total = total, from = r })
    end
  end
end

-- CHUNKS chunks of c bytes: chunk i in, a kernel of k seconds on it, out; on stream i % streams
-- through device buffer i % streams (one buffer per stream)
local function pipeline(c, k, streams, kind)
  local ops = { { "host_fill", "hin", seed = 6 } }
  for i = 0, CHUNKS - 1 do
    local s, d, l = i % streams + 1, "d" .. i % streams, tostring(i)
    ops[#ops + 1] = { "copy", d, "hin", src_off = i * c, bytes = c, stream = s, label = l }
    ops[#ops + 1] = { "kernel", d, seconds = k, stream = s, label = l }
    ops[#ops + 1] = { "copy", "hout", d, off = i * c, bytes = c, stream = s, label = l }
  end
  local bufs = { hin = { kind, CHUNKS * c }, hout = { kind, CHUNKS * c } }
  for j = 0, streams - 1 do bufs["d" .. j] = { "device", c } end
  return gpu.program { buffers = bufs, ops = ops }
end

return lesson {
  id = "6.2",
  chapter = 6,
  chapter_title = { en = "Feeding the GPU", zh = "给 GPU 喂数据" },
  title = { en = "Streams and overlap", zh = "流与重叠" },
  requires = { "gpu" },

  text { en = [[
# Streams and overlap

A GPU has separate engines that can work at the same time: the **SMs** run kernels, and one or
more **copy engines** move data over PCIe. A copy of chunk 2 can run while a kernel computes on
chunk 1 and another copy brings chunk 0's result back. What lets them run together is a
**stream**: a queue of work that the GPU runs **in order**. Work in one stream never overlaps;
work in different streams may.

| device | copy engines (`asyncEngineCount`) | what runs at once |
|---|---|---|
| one copy engine | 1 | a copy (either direction) + kernels |
| RTX 3090, RTX 4090 | 2 | host-to-device + device-to-host + kernels |
| A100, H100, T4 | 3 | the same (see below) |

(deviceQuery prints the count as "Concurrent copy and kernel execution: Yes with N copy
engine(s)"; `gpu.info().async_engines` here.) The Programming Guide documents what a count of
at least 1 allows (copies overlap kernels) and what 2 allows (copies in both directions at once);
it does not say what a third engine adds. This course's simulator gives it the copies inside the
device, an assumption. Copies in one direction queue behind each other
even on a GPU with several engines: two public reports found same-direction copies from
different streams serialized (in one, a 51 KB host-to-device copy waited 12 ms behind a 200 MB
one on another stream).

## Chunks on streams
The Best Practices Guide's recipe, "staged concurrent copy and execute": cut the data into
chunks, and give each chunk's copy and kernel to a stream of its own. With a transfer time tT and
a kernel time tE for the whole data, cut into n chunks, the rough overall time is
**tE + tT/n** when the kernel takes longer, **tT + tE/n** when the copy does, against **tE + tT**
one after the other. With a copy back as well, and a copy engine for each direction, a pipeline
of three stages runs each chunk through in, compute, out; after the first chunk's trip, one chunk
finishes per period of the slowest stage. The best it can do is the slowest stage alone: a
speed-up of at most 3 when all three take as long (`vram.overlap`).

A stream also needs a **buffer** of its own on the device: the chunk it works on. Two streams and
two buffers are **double buffering**: while one buffer is computed on, the other is refilled. The
experiment below shows why three stages want three: on two streams, a chunk's copy in waits on
its stream for the copy out of the chunk two places before it.
]], zh = [[
# 流与重叠

GPU 上有几个能同时工作的引擎：**SM** 运行核函数，一个或多个**拷贝引擎**经 PCIe 搬运数据。拷贝第 2 块数据的同时，核函数可以在第 1 块上计算，另一个拷贝把第 0 块的结果送回去。让它们能一起运行的是**流**（stream）：一条工作队列，GPU **按顺序**执行它。同一个流里的工作从不重叠；不同流里的工作可以重叠。

| 设备 | 拷贝引擎数（`asyncEngineCount`） | 能同时进行的 |
|---|---|---|
| 只有一个拷贝引擎 | 1 | 一次拷贝（任一方向）+ 核函数 |
| RTX 3090、RTX 4090 | 2 | 主机到设备 + 设备到主机 + 核函数 |
| A100、H100、T4 | 3 | 同上（见下文） |

（deviceQuery 把这个数打印为“Concurrent copy and kernel execution: Yes with N copy engine(s)”；这里是 `gpu.info().async_engines`。）《CUDA C++ 编程指南》写明了这个数至少为 1 时能做什么（拷贝与核函数重叠），为 2 时能做什么（两个方向的拷贝同时进行）；第三个引擎多出什么，它没有说。本课程的模拟器让它承担设备内部的拷贝，这是一个假设。即使 GPU 有几个拷贝引擎，同一方向的拷贝也是排队进行的：两份公开报告发现，来自不同流的同方向拷贝是串行的（其中一份里，一个 51 KB 的主机到设备拷贝排在另一个流上 200 MB 的拷贝后面，等了 12 毫秒）。

## 分块放到流上
《CUDA C++ 最佳实践指南》的做法叫“staged concurrent copy and execute”（分阶段并发拷贝与执行）：把数据切成块，每块的拷贝和核函数交给它自己的流。设全部数据的传输时间为 tT、核函数时间为 tE，切成 n 块，核函数更长时总时间约为 **tE + tT/n**，拷贝更长时约为 **tT + tE/n**，而依次执行是 **tE + tT**。如果还要拷回来，并且每个方向各有一个拷贝引擎，就成了三级流水线：每块依次经过拷入、计算、拷出；第一块走完全程之后，每过最慢那一级的一个周期就完成一块。最好的情况是只剩最慢的一级：三级一样长时最多加速 3 倍（`vram.overlap`）。

每个流在设备上还需要一块自己的**缓冲区**：它正在处理的那一块。两个流、两块缓冲区就是**双缓冲**：一块在算的时候，另一块在重新装数据。下面的实验说明为什么三级流水要三块：只有两个流时，一块的拷入要在自己的流里等前面隔一块的那块拷出完成。
]] },

  exercise {
    id = "predict-speedup",
    kind = "predict",
    prompt = { en = "Before the experiment below: 8 chunks, each copied in, computed on for as long as its copy takes, and copied out. Predict the speed-up of three streams (three buffers) over one stream on this device (x).",
               zh = "在下面的实验之前：8 块数据，每块拷入、计算（时间与它的拷贝一样长）、拷出。预测本设备上三个流（三块缓冲区）比一个流快多少倍（x）。" },
    unit = "x", tolerance = 0.3,
    measure = function()
      local c = chunk_bytes()
      local k, r = copy_seconds(c)
      assert(k, r)
      local one, three = assert(pipeline(c, k, 1, "pinned")), assert(pipeline(c, k, 3, "pinned"))
      return one.seconds / three.seconds, three
    end,
    hints = { { en = "Three stages of equal length: one after the other they take 3 periods a chunk; overlapped, about one period a chunk once the pipeline is full.",
                zh = "三级一样长：依次执行每块要 3 个周期；重叠起来，流水线满了以后约每块一个周期。" } },
    explain = { en = "With 8 chunks: serial 8 x 3 = 24 periods; pipelined 3 + 7 = 10 periods, a speed-up of 2.4 (vram.overlap), a little less with each operation's fixed start-up cost. The bound, with endless chunks, is 3.",
                zh = "8 块时：依次执行 8 × 3 = 24 个周期；流水 3 + 7 = 10 个周期，加速 2.4 倍（vram.overlap），算上每个操作的固定启动开销会略少一点。块数无限多时上限是 3 倍。" },
  },

  experiment {
    id = "overlap",
    key = "pipeline",
    title = { en = "One, two and three streams", zh = "一个、两个、三个流" },
    intro = { en = [[
Measures how long one 16 MiB chunk takes to copy in (pinned), then runs 8 chunks of it in, a
kernel asked to take as long, and out: on one stream, on two streams from pageable memory, on two
streams through two device buffers (double buffering) and on three streams through three.
Each run is drawn on a timeline as it ran, as a profiler draws it: a row for the host thread, one
per engine and one per stream, each operation a bar in the colour of its kind with its chunk's
number; the last run, three streams, stays on it. Every chunk that comes back is checked
word for word against what the kernels should have made of it.
]], zh = [[
先测一块 16 MiB 的数据拷入（锁页）要多久，再让 8 块这样的数据拷入、运行一个要求同样时长的核函数、拷出：在一个流上；在两个流上从可分页内存拷贝；在两个流上，经过两块设备缓冲区（双缓冲）；以及在三个流上，经过三块。每次运行都像性能分析器那样画在时间线上，按实际过程展开：主机线程一行，每个引擎一行，每个流一行，每个操作是一根条，颜色表示它的种类，条上是块的编号；最后留在时间线上的是三个流的那次运行。拷回来的每块都逐字核对，看是否是核函数应当算出的结果。
]] },
    panels = {
      { id = "pipeline", kind = "bars", title = { en = "The pipeline: three streams over one", zh = "流水线：三个流相对一个流" }, unit = "x" },
      { id = "speedup", kind = "bars", title = { en = "Speed-up over one stream", zh = "相对一个流的加速" }, unit = "x" },
      { id = "tl", kind = "timeline", title = { en = "Timeline: the host, each engine, each stream", zh = "时间线：主机、各引擎、各流" } },
      { id = "t", kind = "table", title = { en = "Measured vs the estimate", zh = "实测 vs 估算" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local c = chunk_bytes()
      ex:status(T("timing one chunk's copy", "测一块的拷贝时间"))
      local k, cr = copy_seconds(c)
      if not k then ex:note("t", cr); ex:status(T("failed", "失败")); return end
      local est = vram.overlap { h2d = CHUNKS * k, kernel = CHUNKS * k, d2h = CHUNKS * k, chunks = CHUNKS, engines = gpu.info().async_engines or 2 }
      ex:row("t", { T("run", "运行"), T("time", "时间"), T("speed-up", "加速"), T("held", "整批排队") })
      local runs = {
        { 1, "pinned", T("1 stream", "1 个流") },
        { 2, "pageable", T("2 streams, pageable", "2 个流，可分页") },
        { 2, "pinned", T("2 streams (double buffering)", "2 个流（双缓冲）") },
        { 3, "pinned", T("3 streams", "3 个流") },
      }
      local base
      for _, run in ipairs(runs) do
        ex:status(run[3])
        local r, err = pipeline(c, k, run[1], run[2])
        if not r then ex:note("t", run[3] .. ": " .. err); ex:status(T("failed", "失败")); return end
        base = base or r
        -- the timeline, revealed in four steps: what started in each quarter of the run
        for step = 1, 4 do
          draw(ex, T, r, run[1], r.seconds * (step - 1) / 4, step == 4 and math.huge or r.seconds * step / 4)
          if step == 1 then ex:note("tl", string.format(T("shown: %s, %s", "显示的是：%s，%s"), run[3], units.time(r.seconds))) end
          ex:pause(0.4)
        end
        ex:row("t", { run[3], units.time(r.seconds), string.format("%.2fx", base.seconds / r.seconds), r.held and T("yes", "是") or T("no", "否") })
        ex:bar("speedup", run[3], base.seconds / r.seconds, { from = r })
        if run[1] == 3 then ex:bar("pipeline", T("3 streams / 1 stream", "3 个流 / 1 个流"), base.seconds / r.seconds, { from = r }) end
      end
      ex:row("t", { T("estimate (vram.overlap)", "估算（vram.overlap）"), units.time(est.overlapped), string.format("%.2fx", est.speedup), "-" })
      ex:note("t", string.format(T("%d chunks of %s; one chunk's copy (and kernel): %s; the estimate leaves out each operation's fixed start-up cost.",
                                   "%d 块，每块 %s；一块的拷贝（和核函数）：%s；估算不计每个操作的固定启动开销。"),
                                 CHUNKS, units.bytes(c), units.time(k)))
      ex:note("tl", T("Time runs left to right on one axis for every lane: bars in the same columns ran at the same time. The host lane is how long each call held the host thread: empty when every call returned at once (pinned), full when each copy held it (pageable). A bar's number is its chunk.",
                      "时间从左到右，所有行共用一条时间轴：落在同一列的条是同时运行的。主机一行是每次调用占住主机线程多久：每次调用都立即返回时（锁页）是空的，每次拷贝都占住它时（可分页）是满的。条上的数字是块的编号。"))
      if base.simulated then
        ex:note("speedup", T("SIMULATED: copy engines, the link and the kernel are the simulator's model (docs/simulator.md)",
                             "模拟：拷贝引擎、链路和核函数都来自模拟器的模型（docs/simulator.md）"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## What the timelines show
- **One stream**: in, compute, out, chunk after chunk; each engine idle two thirds of the time.
- **Two streams, two buffers**: copies overlap kernels, but chunk 2's copy in is queued on stream
  1 behind chunk 0's copy out, so the copy engine waits for the kernel: gaps every other chunk.
- **Three streams, three buffers**: each engine busy almost all the time; the estimate's
  pipeline.
- **Pageable memory**: every copy blocks the host thread until it is done, so the next call (the
  kernel on the other stream) is not even issued: no overlap at all, and each copy slower. The
  Best Practices Guide: the overlap "requires pinned host memory".

Two more rules of the guide: the copies must use `cudaMemcpyAsync` on **non-default** streams
(the legacy default stream waits for every other blocking stream, one created without
`cudaStreamNonBlocking`, and makes them wait for it), and nothing
else may force a synchronization in between (`cudaMemcpy`, `cudaDeviceSynchronize`).

## Events: when one stream must wait for another
Streams run independently, so when a kernel on stream 2 needs data a copy on stream 1 brings,
something must make it wait: an **event** recorded on stream 1 after the copy
(`cudaEventRecord`) and waited for by stream 2 (`cudaStreamWaitEvent`). Without it the kernel
may start before the copy ends and compute on bytes that are not there yet. Nothing reports
this; the result is simply wrong, sometimes. The experiment below runs the same program with and
without the event; `gpu.program` checks every word, so the race is caught.

In PyTorch the same rule appears as `non_blocking=True`: `x.to("cuda", non_blocking=True)` from
pinned memory returns at once, and work on the current stream is ordered after it; but
`y.to("cpu", non_blocking=True)` returns before the bytes have arrived, and reading `y` before a
`torch.cuda.synchronize()` (or an event) may read what was there before. `non_blocking` frees the
**host**, not the GPU: the copy is queued on the current stream, behind the kernels already
there, so it overlaps computation only when it is issued on a side stream
(`with torch.cuda.stream(s):`) that the computing stream then waits for
(`torch.cuda.current_stream().wait_stream(s)`, and `x.record_stream(...)` so that the allocator
does not reuse `x`'s memory too early): the events of the experiment below.

> [!errata] “显存必须提前把数据准备好，GPU伸手就能拿到” (the data must be in VRAM before the GPU reaches for it)
> Not all of it, and not all before: a program that streams its data keeps only a few chunks in
> VRAM and computes on one while the copy engines bring the next and take the last one back.
> "Prepared in advance" is done *during* the computation, by engines that are not the SMs; what
> must be prepared before a kernel starts is only the chunk it works on, which an event (or its
> stream's order) guarantees.
> Source: CUDA C++ Best Practices Guide, "Asynchronous and Overlapping Transfers with
> Computation"; the experiments of this section.
]], zh = [[
## 时间线说明了什么
- **一个流**：拷入、计算、拷出，一块接一块；每个引擎三分之二的时间都闲着。
- **两个流、两块缓冲区**：拷贝和核函数重叠了，但第 2 块的拷入排在流 1 上、第 0 块的拷出后面，于是拷贝引擎要等核函数：每隔一块就有空档。
- **三个流、三块缓冲区**：每个引擎几乎一直在忙；这就是估算假设的流水线。
- **可分页内存**：每次拷贝都把主机线程挡住，直到拷完，于是下一个调用（另一个流上的核函数）根本还没发出：完全没有重叠，每次拷贝还更慢。《最佳实践指南》说：重叠“需要锁页的主机内存”。

指南还有两条规则：拷贝要在**非默认**流上用 `cudaMemcpyAsync`（旧的默认流要等所有其他阻塞流，即创建时没有带 `cudaStreamNonBlocking` 的流，也让它们等它），中间也不能有别的东西强制同步（`cudaMemcpy`、`cudaDeviceSynchronize`）。

## 事件：一个流必须等另一个流的时候
流是各自独立运行的，所以当流 2 上的核函数需要流 1 上的拷贝送来的数据时，必须有东西让它等：在流 1 上、拷贝之后记录一个**事件**（`cudaEventRecord`），再让流 2 等这个事件（`cudaStreamWaitEvent`）。没有它，核函数可能在拷贝完成前就开始，在还没到的字节上计算。没有任何东西会报告这件事；结果只是有时候是错的。下面的实验分别带事件和不带事件运行同一个程序；`gpu.program` 会核对每个字，所以能抓住这个竞争。

PyTorch 里同样的规则表现为 `non_blocking=True`：从锁页内存执行 `x.to("cuda", non_blocking=True)` 会立即返回，当前流上的后续工作排在它之后；但 `y.to("cpu", non_blocking=True)` 在字节到达之前就返回了，在 `torch.cuda.synchronize()`（或一个事件）之前读 `y`，可能读到的是原来的内容。`non_blocking` 解放的是**主机**，不是 GPU：拷贝排在当前流上、已经在那里的核函数后面，所以只有放到一个旁路流上发出（`with torch.cuda.stream(s):`），再让做计算的流等它（`torch.cuda.current_stream().wait_stream(s)`，并用 `x.record_stream(...)` 防止分配器过早复用 `x` 的内存），拷贝才会与计算重叠：也就是下面实验里的事件。

> [!errata] “显存必须提前把数据准备好，GPU伸手就能拿到”
> 不是全部，也不必全部事先：把数据流式送入的程序只在显存里放几块，在一块上计算的同时，拷贝引擎送来下一块、把上一块送回去。“提前准备”是在计算*进行中*由 SM 以外的引擎完成的；核函数开始前必须准备好的只是它要处理的那一块，这由事件（或它所在流的顺序）保证。
> 出处：《CUDA C++ 最佳实践指南》“Asynchronous and Overlapping Transfers with Computation”；本节的实验。
]] },

  experiment {
    id = "events",
    title = { en = "A missing event", zh = "少了一个事件" },
    intro = { en = [[
A 16 MiB chunk is copied in on stream 1 and computed on by a kernel on stream 2, then copied
back. First without an event between the two streams, then with one recorded after the copy and
waited for before the kernel. Every word is checked.
]], zh = [[
一块 16 MiB 的数据在流 1 上拷入，由流 2 上的核函数计算，再拷回。先在两个流之间不加事件，再在拷贝之后记录一个事件、在核函数之前等待它。每个字都会核对。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "With and without the event", zh = "有事件与没有事件" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local c = chunk_bytes()
      local bufs = { h = { "pinned", c }, d = { "device", c } }
      local without = { { "host_fill", "h" }, { "copy", "d", "h", stream = 1 },
                        { "kernel", "d", stream = 2, seconds = 0.001 }, { "copy", "h", "d", stream = 2 } }
      local with = { { "host_fill", "h" }, { "copy", "d", "h", stream = 1 }, { "record", event = "in", stream = 1 },
                     { "wait", event = "in", stream = 2 }, { "kernel", "d", stream = 2, seconds = 0.001 },
                     { "copy", "h", "d", stream = 2 } }
      ex:row("t", { T("program", "程序"), T("result", "结果") })
      local a, aerr = gpu.program { buffers = bufs, ops = without }
      ex:row("t", { T("no event", "没有事件"), a and string.format(T("right this time (%s)", "这次碰巧对了（%s）"), units.time(a.seconds)) or aerr })
      local b, berr = gpu.program { buffers = bufs, ops = with }
      ex:row("t", { T("record + wait", "记录 + 等待"), b and string.format(T("checked, %s", "已核对，%s"), units.time(b.seconds)) or berr })
      if b and b.simulated then
        ex:note("t", T("SIMULATED: the simulator reports two operations that touched the same bytes at once; on a GPU the check finds the wrong words",
                       "模拟：模拟器报告同时访问同一段内存的两个操作；在 GPU 上，核对会找出错误的字"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "bpg",
    kind = "number",
    prompt = { en = "Copying the data takes tT = 8 ms and the kernel tE = 12 ms. Staged on 4 streams (4 chunks), roughly how many ms does it take (the Best Practices Guide's estimate)?",
               zh = "拷贝数据要 tT = 8 毫秒，核函数要 tE = 12 毫秒。分成 4 块放到 4 个流上，大约要多少毫秒（《最佳实践指南》的估算）？" },
    answer = 14, unit = "ms", tolerance = 0.02,
    mistakes = {
      { value = 20, say = { en = "That is the sequential version, tE + tT: nothing overlaps.", zh = "这是依次执行的版本 tE + tT：什么都没有重叠。" } },
      { value = 11, say = { en = "That divides the longer stage by the streams: it is the shorter one that hides, the longer one is paid in full (tE + tT/n when tE > tT).",
                            zh = "这是把较长的一级除以了流数：被藏起来的是较短的一级，较长的一级要全额付出（tE > tT 时为 tE + tT/n）。" } },
    },
    hints = { { en = "Which stage is longer? It runs from the first chunk to the last; of the other only one chunk's worth is not hidden.",
                zh = "哪一级更长？它从第一块一直跑到最后一块；另一级只有一块的时间藏不住。" } },
    explain = { en = "tE > tT, so about tE + tT/n = 12 + 8/4 = 14 ms, against 20 ms one after the other. The first chunk's copy (2 ms) cannot overlap anything; after it the kernels run back to back.",
                zh = "tE > tT，所以约为 tE + tT/n = 12 + 8/4 = 14 毫秒，依次执行则是 20 毫秒。第一块的拷贝（2 毫秒）无法与任何东西重叠；之后核函数一个接一个地运行。" },
  },

  exercise {
    id = "one-engine",
    kind = "number",
    prompt = { en = "In, compute, out take 5, 4 and 5 ms for the whole data. On a GPU with **one** copy engine, what is the largest speed-up overlap can give over doing them one after the other, however many chunks (x)?",
               zh = "全部数据的拷入、计算、拷出分别要 5、4、5 毫秒。在只有**一个**拷贝引擎的 GPU 上，不管分多少块，重叠最多能比依次执行快多少倍（x）？" },
    answer = 1.4, unit = "x", tolerance = 0.02,
    mistakes = {
      { value = 2.8, say = { en = "That is with two copy engines (14 / 5). With one, the copy in and the copy out take turns on it: 10 ms of copies can never overlap each other.",
                             zh = "这是有两个拷贝引擎的情况（14 / 5）。只有一个时，拷入和拷出轮流使用它：10 毫秒的拷贝彼此永远无法重叠。" } },
      { value = 3, say = { en = "3 is the bound when three stages of equal length each have an engine of their own; here the copies share one.",
                           zh = "3 倍是三级一样长、并且各有自己引擎时的上限；这里两次拷贝共用一个引擎。" } },
    },
    hints = { { en = "With endless chunks only the busiest engine counts. Which engine is busiest, and for how long?", zh = "块数无限多时，只有最忙的那个引擎要紧。哪个引擎最忙，忙多久？" } },
    explain = { en = "Serial: 5 + 4 + 5 = 14 ms. The one copy engine must do 5 + 5 = 10 ms whatever happens, the SMs only 4: the bound is 14 / 10 = 1.4. With two engines the slowest engine has 5 ms: 2.8 (vram.overlap).",
                zh = "依次执行：5 + 4 + 5 = 14 毫秒。唯一的拷贝引擎无论如何都要干 5 + 5 = 10 毫秒，SM 只有 4 毫秒：上限是 14 / 10 = 1.4 倍。有两个引擎时最慢的引擎是 5 毫秒：2.8 倍（vram.overlap）。" },
  },

  exercise {
    id = "pageable-overlap",
    kind = "choice",
    prompt = { en = "Why does a `cudaMemcpyAsync` from pageable memory not overlap with a kernel launched right after it on another stream?",
               zh = "为什么从可分页内存发起的 `cudaMemcpyAsync` 不会与紧接着在另一个流上启动的核函数重叠？" },
    choices = {
      { en = "The copy engine cannot run while a kernel runs", zh = "核函数运行时拷贝引擎不能工作" },
      { en = "The call does not return until the driver has staged (or, to the host, finished) the copy, so the kernel is launched only afterwards", zh = "驱动完成中转（拷到主机时则是拷完）之前调用不会返回，所以核函数要等到那之后才启动" },
      { en = "Pageable memory is always copied on the default stream", zh = "可分页内存总是在默认流上拷贝" },
    },
    answer = 2,
    why = {
      [1] = { en = "Copy engines are separate from the SMs: with pinned memory the same copy does overlap the kernel.", zh = "拷贝引擎与 SM 是分开的：用锁页内存时，同样的拷贝就会与核函数重叠。" },
      [3] = { en = "It is copied on the stream given; the stream does not matter when the host thread is held in the call.", zh = "它在给定的流上拷贝；主机线程被挡在调用里时，用哪个流都无关紧要。" },
    },
    hints = { { en = "Look at the host's side: when does the call return? (CUDA's \"API synchronization behavior\".)", zh = "看主机这一侧：调用什么时候返回？（CUDA 的“API synchronization behavior”。）" } },
    explain = { en = "The host thread is busy copying into the staging buffer (host to device) or waiting for the copy (device to host), so it issues nothing else meanwhile; the kernel starts after the copy. Pinned memory makes the call return at once.",
                zh = "主机线程要么在往中转缓冲区里拷（主机到设备），要么在等拷贝结束（设备到主机），期间什么也发不出去；核函数在拷贝之后才开始。锁页内存让调用立即返回。" },
  },

  text { en = [[
> [!source] Sources
> - CUDA C++ Best Practices Guide, "Asynchronous and Overlapping Transfers with Computation" (staged concurrent copy and execute; tE + tT/nStreams and tT + tE/nStreams; asyncEngineCount; pinned memory and non-default streams required); CUDA C++ Programming Guide, "Overlap of Data Transfer and Kernel Execution" and "Concurrent Data Transfers" (asyncEngineCount greater than zero; equal to 2 for copies in both directions at once).
> - CUDA Runtime API, "API synchronization behavior" and "Stream synchronization behavior" (the legacy default stream); cudaEventRecord, cudaStreamWaitEvent.
> - Public deviceQuery logs: RTX 3090 and RTX 4090 "Yes with 2 copy engine(s)"; A100 80GB, H100 80GB HBM3 and T4 "Yes with 3 copy engine(s)" (the H200 profile assumes the H100's).
> - meta-pytorch/torchrec pull request #4303, "CUDA Copy Engine Contention Study" (same-direction copies from different streams serialize; stream priority does not change the order); NVIDIA/cudf issue #15620 (a 51 KB pinned H2D copy waited 12 ms behind a ~200 MB H2D copy on another stream). Two reports.
> - PyTorch tutorial "A guide on good usage of non_blocking and pin_memory() in PyTorch"; PyTorch "CUDA semantics", asynchronous execution and CUDA streams (work is queued on the current stream); `torch.cuda.Stream.wait_stream`, `torch.Tensor.record_stream`.
]], zh = [[
> [!source] 出处
> - 《CUDA C++ 最佳实践指南》“Asynchronous and Overlapping Transfers with Computation”（分阶段并发拷贝与执行；tE + tT/nStreams 与 tT + tE/nStreams；asyncEngineCount；需要锁页内存与非默认流）；《CUDA C++ 编程指南》“Overlap of Data Transfer and Kernel Execution”与“Concurrent Data Transfers”（asyncEngineCount 大于零；等于 2 时两个方向的拷贝可以同时进行）。
> - 《CUDA Runtime API》“API synchronization behavior”与“Stream synchronization behavior”（旧的默认流）；cudaEventRecord、cudaStreamWaitEvent。
> - 公开的 deviceQuery 日志：RTX 3090 和 RTX 4090 为“Yes with 2 copy engine(s)”；A100 80GB、H100 80GB HBM3 和 T4 为“Yes with 3 copy engine(s)”（H200 的配置沿用 H100 的）。
> - meta-pytorch/torchrec pull request #4303，“CUDA Copy Engine Contention Study”（来自不同流的同方向拷贝是串行的；流优先级不改变顺序）；NVIDIA/cudf issue #15620（一个 51 KB 的锁页 H2D 拷贝排在另一个流上约 200 MB 的 H2D 拷贝后面，等了 12 毫秒）。两份报告。
> - PyTorch 教程《A guide on good usage of non_blocking and pin_memory() in PyTorch》；PyTorch 文档“CUDA semantics”中的异步执行与 CUDA 流（工作排在当前流上）；`torch.cuda.Stream.wait_stream`、`torch.Tensor.record_stream`。
]] },

  exercise {
    id = "event-order",
    kind = "choice",
    prompt = { en = "A kernel on stream 2 reads a buffer that a copy on stream 1 fills. What makes the kernel wait for the copy, and nothing else?",
               zh = "流 2 上的核函数要读一块缓冲区，这块缓冲区由流 1 上的拷贝填充。用什么让核函数等这个拷贝，且只等它？" },
    choices = {
      { en = "cudaDeviceSynchronize() between the copy and the launch", zh = "在拷贝和启动之间调用 cudaDeviceSynchronize()" },
      { en = "Launching the kernel on the default stream", zh = "把核函数放到默认流上启动" },
      { en = "cudaEventRecord(e, stream1) after the copy, cudaStreamWaitEvent(stream2, e) before the kernel", zh = "拷贝之后 cudaEventRecord(e, stream1)，核函数之前 cudaStreamWaitEvent(stream2, e)" },
    },
    answer = 3,
    why = {
      [1] = { en = "That works, but it stops the host and waits for everything on the device: every other stream's overlap is lost.", zh = "这样能行，但它让主机停下来等设备上所有的工作：其他流的重叠全都没了。" },
      [2] = { en = "The legacy default stream waits for every stream, and every stream for it: correct, and nothing overlaps any more.", zh = "旧的默认流要等所有流，所有流也要等它：结果对了，但什么都不再重叠。" },
    },
    hints = { { en = "You want an order between two streams, not a stop for the whole device.", zh = "你要的是两个流之间的先后顺序，而不是让整个设备停下来。" } },
    explain = { en = "An event records a point in stream 1; stream 2 waits for that point on the device, without blocking the host or any other stream. gpu.program's record and wait do exactly this.",
                zh = "事件在流 1 中记录下一个点；流 2 在设备上等待这个点，既不阻塞主机，也不影响其他流。gpu.program 的 record 和 wait 做的正是这件事。" },
  },
}
