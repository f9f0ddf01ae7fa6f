-- Lesson 5.4: decode is bandwidth-bound. tokens/s <= bandwidth / bytes read per step, with this
-- device's measured read bandwidth (BabelStream's dot); prefill and decode on a roofline from
-- the device's published peak FLOP/s and the measured bandwidth (vram.decode, vram.prefill);
-- batching helps until the KV cache fills memory.
local GB = 1e9

-- read bandwidth of this device: BabelStream's dot (reads two arrays, writes nothing), like a
-- decode step that streams the weights and the cache
local function read_bw()
  local n = math.max(16 * units.MiB, math.min(256 * units.MiB, gpu.budget() // 3))
  return gpu.stream { kernel = "dot", bytes = n }
end

-- this device's dense 16-bit tensor FLOP/s from its published figures, or nil
local function peak_flops()
  local g = vram.device_spec(gpu.info())
  if g then return g.flops, g end
end

-- gpt-fast's measured decode of Llama-2-7B in fp16 at batch 1 (pytorch-labs/gpt-fast README,
-- 8x A100-80GB at 330 W): tokens/s alone and with tensor parallelism over 2, 4 and 8 GPUs
-- and the bandwidth per GPU it reports for each (GB/s), which over the datasheet's 2,039 GB/s is
-- the fraction of the ceiling each run reached
local GPTFAST = { { tp = 1, tok = 104.9, gbs = 1397.31 }, { tp = 2, tok = 168.84, gbs = 1181.99 },
                  { tp = 4, tok = 254.02, gbs = 955.83 }, { tp = 8, tok = 328.43, gbs = 704.10 } }

local CTX = 1024

return lesson {
  id = "5.4",
  chapter = 5,
  chapter_title = { en = "Memory at inference", zh = "推理时的显存" },
  title = { en = "Decode is bandwidth-bound", zh = "解码受限于带宽" },
  requires = { "gpu" },

  text { en = [[
# Decode is bandwidth-bound

Generating one token (a **decode** step) runs the whole model for one position: every weight
matrix is read from VRAM once, multiplied by one vector, and the KV cache of the sequence is
read by attention. Two FLOPs per weight for about two bytes per weight (fp16): about **1 FLOP
per byte**. No GPU computes that slowly; every GPU reads that slowly. So:

```
tokens/s (batch 1)  <=  memory bandwidth / bytes read per token
                     =  bandwidth / (weights + KV cache of the sequence)
```

Llama-2-7B in fp16 is 13.48 GB of weights. An H100 SXM (3.35 TB/s) can at best read it 248
times a second: **248 tokens/s**, whatever its 989 TFLOP/s. An RTX 3090 (936 GB/s): 69. In
4-bit GPTQ (3.89 GB) the ceiling is 3.5x higher: quantisation speeds decode up because it
shrinks the bytes, not the math.

## The roofline
Williams, Waterman and Patterson's roofline (2009) puts it on one picture: attainable FLOP/s =
min(peak FLOP/s, intensity x bandwidth), where the **arithmetic intensity** is FLOPs per byte
moved. The two meet at the **ridge point**, peak / bandwidth: 989.4e12 / 3.35e12 = **295 FLOP/B**
on an H100 SXM, 76 on an RTX 3090. Below the ridge a kernel is memory-bound.

- **Decode**, batch 1: ~1 FLOP/B, far below any ridge: memory-bound.
- **Prefill** of a prompt of n tokens reads each weight once for n tokens: ~n FLOP/B. A prompt of
  512 tokens is past the ridge: compute-bound. That is why the first token (time to first
  token) scales with the prompt's length and FLOP/s, and every later token with bandwidth.
- **Batching** decode: b sequences share each weight read, so the intensity rises towards b
  FLOP/B and tokens/s almost b-fold, **until** the KV reads (which grow with b) dominate the
  bytes, or the KV caches of b sequences no longer fit in memory (lesson 5.5).

> [!errata] "A GPU with more TFLOPS generates text faster"
> At batch 1 a decode step uses well under 1 % of an H100's tensor FLOP/s: its speed follows the
> memory bandwidth. An H200 has the same 989 TFLOP/s as an H100 and 4.8 instead of 3.35 TB/s:
> 1.43x faster decode for the same compute. The FLOP/s matter for prefill and large batches.
> Source: NVIDIA H100 and H200 datasheets (989.4 TFLOP/s dense fp16, 3.35 and 4.8 TB/s);
> Williams et al. 2009 (roofline); the experiments below, on this device.
]], zh = [[
# 解码受限于带宽

生成一个 token（一个**解码**步）要把整个模型对一个位置运行一遍：每个权重矩阵都要从显存读一次，乘以一个向量，注意力还要读这个序列的 KV 缓存。每个权重 2 次浮点运算，读约 2 字节（fp16）：大约**每字节 1 次浮点运算**。没有哪块 GPU 算得这么慢；但每块 GPU 都读得这么慢。所以：

```
每秒 token 数（batch 1） <= 显存带宽 / 每个 token 读取的字节数
                         =  带宽 / （权重 + 该序列的 KV 缓存）
```

Llama-2-7B 的 fp16 权重是 13.48 GB。H100 SXM（3.35 TB/s）每秒最多把它读 248 遍：**每秒 248 个 token**，不管它有多少 989 TFLOP/s。RTX 3090（936 GB/s）：69 个。用 4 位 GPTQ（3.89 GB）时上限高 3.5 倍：量化让解码变快，是因为它减少了字节，而不是减少了计算。

## Roofline 模型
Williams、Waterman 和 Patterson 的 roofline 模型（2009）把这件事画在一张图上：可达 FLOP/s = min(峰值 FLOP/s，强度 × 带宽)，其中**算术强度**是每搬运一个字节做的浮点运算次数。两条线在**脊点**相交，即峰值 / 带宽：H100 SXM 上 989.4e12 / 3.35e12 = **295 FLOP/B**，RTX 3090 上 76。低于脊点，核函数就受限于内存。

- **解码**，batch 1：约 1 FLOP/B，远低于任何脊点：受限于内存。
- **预填充（prefill）**一个 n 个 token 的提示，每个权重读一次、用于 n 个 token：约 n FLOP/B。512 个 token 的提示就越过了脊点：受限于计算。所以第一个 token 的延迟（首 token 时间）随提示长度和 FLOP/s 变化，后面的每个 token 则随带宽变化。
- **批处理**解码：b 个序列共享每一次权重读取，强度升向 b FLOP/B，每秒 token 数几乎涨 b 倍，**直到** KV 读取（随 b 增长）在字节数中占了主导，或者 b 个序列的 KV 缓存装不下了（第 5.5 节）。

> [!errata] “TFLOPS 越高的 GPU 生成文本越快”
> batch 1 时，一个解码步用到的 H100 张量算力远不到 1 %：它的速度跟着显存带宽走。H200 和 H100 的算力同为 989 TFLOP/s，带宽则是 4.8 对 3.35 TB/s：同样的算力，解码快 1.43 倍。FLOP/s 只在预填充和大 batch 时才重要。
> 出处：NVIDIA H100 和 H200 数据手册（稠密 fp16 989.4 TFLOP/s，3.35 和 4.8 TB/s）；Williams 等 2009（roofline）；下面在本设备上的实验。
]] },

  exercise {
    id = "predict-decode",
    kind = "predict",
    prompt = { en = "Predict: the decode ceiling of Llama-2-7B fp16, batch 1, 1024 tokens of context, on this device (tokens/s), from its read bandwidth.",
               zh = "预测：由本设备的读带宽计算，Llama-2-7B fp16、batch 1、1024 个 token 上下文的解码上限（每秒 token 数）。" },
    unit = "tok/s", tolerance = 0.2,
    measure = function()
      local r = assert(read_bw())
      local d = vram.decode { model = "llama-2-7b", context = CTX, bandwidth = r.bytes_per_s, flops = peak_flops() or 1e15 }
      return d.tokens_per_s_memory, r
    end,
    hints = { { en = "Bandwidth divided by 13.48 GB of weights plus 0.54 GB of cache (1024 x 512 KiB).", zh = "带宽除以 13.48 GB 权重加 0.54 GB 缓存（1024 × 512 KiB）。" } },
    explain = { en = "tokens/s <= read bandwidth / (weights + KV cache) per step. Compare the spec sheet's bandwidth: measured bandwidth is what a real decoder can approach.",
                zh = "每秒 token 数 <= 读带宽 / 每步（权重 + KV 缓存）。和规格上的带宽比一比：真实的解码器能接近的是实测带宽。" },
  },

  experiment {
    id = "ceiling",
    key = "tok",
    title = { en = "Decode ceiling from this device's bandwidth", zh = "由本设备带宽得出的解码上限" },
    intro = { en = [[
Measures this device's read bandwidth with BabelStream's `dot` (read-only, like a decode step;
real on a GPU, SIMULATED on the simulator), then divides it by the bytes one decode step of
Llama-2-7B reads at 1024 tokens of context, for each precision: the most tokens/s the card
can give one sequence.
]], zh = [[
用 BabelStream 的 `dot`（只读，和解码步一样；有 GPU 时为真实测量，模拟器上为模拟值）测量本设备的读带宽，再除以 Llama-2-7B 在 1024 个 token 上下文时一个解码步读取的字节数，对每种精度各算一次：这块卡能给一个序列的每秒 token 数上限。
]] },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Read bandwidth", zh = "读带宽" }, unit = "GB/s" },
      { id = "t", kind = "table", title = { en = "Ceiling per precision (batch 1)", zh = "各精度的上限（batch 1）" } },
      { id = "tok", kind = "bars", title = { en = "Decode ceiling, batch 1", zh = "解码上限，batch 1" }, unit = "tok/s" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:status(T("measuring read bandwidth (dot)", "测量读带宽（dot）"))
      local r, err = read_bw()
      if not r then ex:note("bw", err); ex:status(T("failed", "失败")); return end
      local info = gpu.info()
      ex:bar("bw", T("dot, measured", "dot 实测"), r.bytes_per_s / GB, { from = r })
      if info.published_bytes_per_s then
        ex:bar("bw", T("spec sheet", "规格"), info.published_bytes_per_s / GB, { style = "reference" })
      end
      for _, w in ipairs(r.warnings) do ex:note("bw", w) end
      ex:row("t", { T("precision", "精度"), T("bytes / step", "每步字节"), T("tok/s ceiling", "每秒 token 上限") })
      local fp16
      for _, s in ipairs { "fp16", "int8", "gptq" } do
        local d = vram.decode { model = "llama-2-7b", scheme = s, context = CTX, bandwidth = r.bytes_per_s, flops = peak_flops() or 1e15 }
        ex:row("t", { s, units.si(d.bytes), string.format("%.0f", d.tokens_per_s_memory) })
        if s == "fp16" then fp16 = d end
      end
      ex:note("t", T(string.format("bytes / step = weights + the KV cache of %d tokens (512 KiB each). A real decoder stays below it: kernels, sampling and launches take time too.", CTX),
                     string.format("每步字节 = 权重 + %d 个 token 的 KV 缓存（每个 512 KiB）。真实的解码器达不到这个上限：核函数、采样和启动也要时间。", CTX)))
      ex:bar("tok", "Llama-2-7B fp16", fp16.tokens_per_s_memory, { from = r, unit = "tok/s" })
      ex:status(T("done", "完成"))
    end,
  },

  experiment {
    id = "roofline",
    title = { en = "Prefill and decode on this device's roofline", zh = "本设备 roofline 上的预填充与解码" },
    intro = { en = [[
The roof: this device's published dense fp16 tensor FLOP/s and its measured read bandwidth.
Decode of Llama-2-7B fp16 at 1024 tokens of context for batches of 1 to 256, and prefills of 16
to 4096 tokens, placed by their arithmetic intensity (`vram.decode`, `vram.prefill`: models).
The table follows decode's tokens/s as the batch grows, until the weights and the batch's KV
caches no longer fit in the free memory.
]], zh = [[
屋顶：本设备公布的稠密 fp16 张量算力和实测读带宽。Llama-2-7B fp16 在 1024 个 token 上下文时 batch 1 到 256 的解码，以及 16 到 4096 个 token 的预填充，按算术强度标在图上（`vram.decode`、`vram.prefill`：模型估算）。表格跟踪解码的每秒 token 数随 batch 增大的变化，直到权重加上这批序列的 KV 缓存装不进空闲显存为止。
]] },
    panels = {
      { id = "r", kind = "curve", title = { en = "Roofline (TFLOP/s vs FLOP/B)", zh = "Roofline（TFLOP/s 对 FLOP/B）" }, x = "FLOP/B", y = "TFLOP/s", logx = true },
      { id = "t", kind = "table", title = { en = "Decode by batch", zh = "各 batch 的解码" } },
      { id = "b", kind = "bars", title = { en = "Largest batch that fits, decode", zh = "装得下的最大 batch，解码" }, unit = "tok/s" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local fl, spec = peak_flops()
      local r, err = read_bw()
      if not r then ex:note("r", err); ex:status(T("failed", "失败")); return end
      if not fl then
        ex:note("r", T("No published FLOP/s for this GPU in vram.gpu_specs(): the roofline needs one.", "vram.gpu_specs() 中没有这块 GPU 的公布算力：roofline 需要它。"))
        ex:status(T("done", "完成"))
        return
      end
      local bw = r.bytes_per_s
      for e = -1, 13 do
        local i = 2 ^ e
        ex:point("r", T("roof", "屋顶"), i, math.min(fl, i * bw) / 1e12)
      end
      for _, b in ipairs { 1, 4, 16, 64, 256 } do
        local d = vram.decode { model = "llama-2-7b", context = CTX, batch = b, bandwidth = bw, flops = fl }
        ex:point("r", T("decode b=1..256", "解码 b=1..256"), d.intensity, d.flops / d.step_seconds / 1e12)
      end
      for _, n in ipairs { 16, 128, 512, 4096 } do
        local p = vram.prefill { model = "llama-2-7b", tokens = n, bandwidth = bw, flops = fl }
        ex:point("r", T("prefill 16..4096", "预填充 16..4096"), p.intensity, p.flops / p.step_seconds / 1e12)
      end
      ex:note("r", T(string.format("%s: %.0f TFLOP/s (spec) / %s (measured) = ridge at %.0f FLOP/B.", spec.name, fl / 1e12, units.rate(bw), fl / bw),
                     string.format("%s：%.0f TFLOP/s（规格）/ %s（实测）= 脊点 %.0f FLOP/B。", spec.name, fl / 1e12, units.rate(bw), fl / bw)))
      local free = gpu.mem()
      local room = free - vram.inference_memory { model = "llama-2-7b", context = 1 }.cuda_context
      ex:row("t", { "batch", T("KV + weights", "KV + 权重"), "FLOP/B", "tok/s", T("fits", "装得下") })
      local best
      for _, b in ipairs { 1, 2, 4, 8, 16, 32, 64, 128, 256 } do
        local d = vram.decode { model = "llama-2-7b", context = CTX, batch = b, bandwidth = bw, flops = fl }
        local fits = d.bytes <= room
        ex:row("t", { tostring(b), units.bytes(d.bytes), string.format("%.1f", d.intensity), string.format("%.0f", d.tokens_per_s),
                      fits and T("yes", "是") or T("no", "否") })
        if fits then best = d end
        if not fits then break end
      end
      ex:note("t", T(string.format("Free memory here: %s, less a CUDA context of 426 MiB (estimate).", units.bytes(free)),
                     string.format("本机空闲显存：%s，再减去 426 MiB 的 CUDA 上下文（估计值）。", units.bytes(free))))
      if best then
        ex:bar("b", string.format("batch %d", best.batch), best.tokens_per_s, { from = r, unit = "tok/s" })
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "h100",
    kind = "number",
    prompt = { en = "Llama-2-7B in fp16 is 13.48 GB of weights. At most how many tokens/s can one sequence get on an H100 SXM (3.35 TB/s), ignoring the KV cache?",
               zh = "Llama-2-7B 的 fp16 权重是 13.48 GB。忽略 KV 缓存，一个序列在 H100 SXM（3.35 TB/s）上每秒最多能得到多少个 token？" },
    answer = 248.5, unit = "tok/s", tolerance = 0.03,
    hints = { { en = "Each token reads every weight once. How many times a second can the card read 13.48 GB?", zh = "每个 token 都要把所有权重读一遍。这块卡每秒能读几遍 13.48 GB？" } },
    explain = { en = "3.35e12 B/s / 13.48e9 B = 248.5 tokens/s. Its 989 TFLOP/s would allow over 70,000.",
                zh = "3.35e12 B/s / 13.48e9 B = 248.5 个 token/秒。按它 989 TFLOP/s 的算力则可以超过 70,000 个。" },
  },

  exercise {
    id = "ridge",
    kind = "number",
    prompt = { en = "The ridge point of an H100 SXM: 989.4 dense fp16 TFLOP/s, 3.35 TB/s. In FLOP per byte?",
               zh = "H100 SXM 的脊点：稠密 fp16 989.4 TFLOP/s，带宽 3.35 TB/s。单位 FLOP/B 是多少？" },
    answer = 295, unit = "FLOP/B", tolerance = 0.02,
    hints = { { en = "Where min(peak, intensity x bandwidth) switches: intensity = peak / bandwidth.", zh = "min(峰值，强度 × 带宽) 切换的地方：强度 = 峰值 / 带宽。" } },
    explain = { en = "989.4e12 / 3.35e12 = 295 FLOP/B. Decode at batch 1 does about 1 FLOP/B. Batching does not carry it to the ridge: every sequence also reads its own KV cache, about 1 FLOP per byte of cache, so Llama-2-7B at 1024 tokens of context reaches only 23 FLOP/B at batch 256.",
                zh = "989.4e12 / 3.35e12 = 295 FLOP/B。batch 1 的解码约为 1 FLOP/B。批处理也到不了脊点：每个序列还要读它自己的 KV 缓存，每字节缓存约 1 次浮点运算，所以 Llama-2-7B 在 1024 个 token 上下文、batch 256 时也只有 23 FLOP/B。" },
  },

  exercise {
    id = "batch",
    kind = "choice",
    prompt = { en = "Why does decoding 16 sequences together give almost 10x the tokens/s of one, on the same GPU?",
               zh = "为什么在同一块 GPU 上一起解码 16 个序列，每秒 token 数几乎是单个序列的 10 倍？" },
    choices = {
      { en = "The GPU raises its clock under load", zh = "负载高时 GPU 提高了频率" },
      { en = "Each weight read from VRAM serves 16 tokens instead of one; only the KV reads grow with the batch", zh = "每次从显存读出的权重服务 16 个 token 而不是一个；只有 KV 读取随 batch 增长" },
      { en = "16 sequences use 16 times the FLOP/s, which decode was short of", zh = "16 个序列用了 16 倍的 FLOP/s，而解码原本缺的就是算力" },
    },
    answer = 2,
    hints = { { en = "What dominates the bytes of a decode step, and is it shared between sequences?", zh = "解码步的字节主要是什么？它能在序列之间共享吗？" } },
    explain = { en = "A step reads the weights once for the whole batch. Its bytes grow only by each sequence's KV cache, so tokens/s grows nearly with the batch until the caches dominate or stop fitting.",
                zh = "一个步骤对整个 batch 只读一次权重。字节数只随每个序列的 KV 缓存增长，所以每秒 token 数几乎随 batch 线性增长，直到缓存占了主导或者装不下。" },
  },

  text { en = [[
## A ceiling, not a forecast
bandwidth ÷ bytes per step is the most a decoder can reach: it assumes every byte streams at
the full rate and nothing else takes time. Real engines reach a fraction of it — kernels that
do not saturate the memory, launch gaps between them, sampling, and with tensor parallelism two
all-reduces per layer. gpt-fast (PyTorch, `torch.compile`, batch 1) publishes its measured
tokens/s beside the bandwidth they imply, on an A100 80GB limited to 330 W (2,039 GB/s on the
datasheet; the authors measured about 1,700 GB/s at best):

| Llama-2 | GPUs | tok/s measured | GB/s per GPU | of 2,039 GB/s |
|---|---|---|---|---|
| 7B fp16 | 1 | 104.9 | 1,397 | 69 % |
| 7B int8 | 1 | 155.6 | 1,069 | 52 % |
| 7B int4 (group 32) | 1 | 196.8 | 863 | 42 % |
| 7B fp16 | 2 / 4 / 8 | 168.8 / 254.0 / 328.4 | 1,182 / 956 / 704 | 58 / 47 / 35 % |
| 70B fp16 | 8 | 62.5 | 1,135 | 56 % |

Two lessons in the table. Quantisation shrinks the bytes more than it raises tokens/s: int4
reads a quarter of the bytes for 1.9× the speed, because dequantising costs time too. And
**tensor parallelism** splits the weights over GPUs — each reads weights/tp and its share of the
KV heads, so the ceiling grows tp-fold (`vram.decode{tp = }`) — but every layer now waits for two
all-reduces of a few KiB, whose microseconds do not shrink with the shard: a small model on 8
GPUs reaches a third of its ceiling, a 70B one more than half. Quote a decoder as "x % of its
bandwidth ceiling", and measure the ceiling on your card (the experiment above).
]], zh = [[
## 这是上限，不是预测
带宽 ÷ 每步字节数是解码器所能达到的最大值：它假设每个字节都以满速流过、别的事情都不花时间。真实的引擎只能达到它的一部分——核函数用不满显存带宽，核函数之间有启动间隙，还有采样；用张量并行时，每层还要做两次 all-reduce。gpt-fast（PyTorch，`torch.compile`，batch 1）公布了实测的每秒 token 数以及由此推出的带宽，测试平台是功耗限制在 330 W 的 A100 80GB（数据手册 2,039 GB/s；作者实测最高约 1,700 GB/s）：

| Llama-2 | GPU 数 | 实测 tok/s | 每张 GPU 的 GB/s | 占 2,039 GB/s |
|---|---|---|---|---|
| 7B fp16 | 1 | 104.9 | 1,397 | 69 % |
| 7B int8 | 1 | 155.6 | 1,069 | 52 % |
| 7B int4（组 32） | 1 | 196.8 | 863 | 42 % |
| 7B fp16 | 2 / 4 / 8 | 168.8 / 254.0 / 328.4 | 1,182 / 956 / 704 | 58 / 47 / 35 % |
| 70B fp16 | 8 | 62.5 | 1,135 | 56 % |

这张表有两个教训。量化减少的字节比提高的速度多：int4 只读四分之一的字节，速度却只快 1.9 倍，因为反量化也要花时间。**张量并行**把权重分到多张 GPU 上——每张读 weights/tp 以及它那份 KV 头，所以上限提高 tp 倍（`vram.decode{tp = }`）——但每层都要等两次只有几 KiB 的 all-reduce，它们的微秒级延迟不会随分片变小：小模型在 8 张 GPU 上只达到上限的三分之一，70B 的模型能达到一半以上。描述一个解码器时，说“达到带宽上限的百分之几”，并在你的卡上实测上限（上面的实验）。
]] },

  experiment {
    id = "fraction",
    key = "tok",
    title = { en = "This device's ceiling beside measured fractions", zh = "本设备的上限与实测比例" },
    intro = { en = [[
This device's read bandwidth (`dot`, as above: measured on a GPU, SIMULATED on the simulator)
gives Llama-2-7B's decode ceiling at batch 1, alone and split over 2, 4 and 8 such GPUs
(`vram.decode{tp = }`: bytes per GPU, a model); beside each, what it would give at the fraction
gpt-fast measured on A100s (its README), labelled as such: an expectation, not a measurement of
this machine.
]], zh = [[
本设备的读带宽（`dot`，同上：有 GPU 时实测，模拟器上为 SIMULATED）给出 Llama-2-7B 在 batch 1 时的解码上限，单卡以及分到 2、4、8 张这样的 GPU 上（`vram.decode{tp = }`：每张 GPU 的字节数，模型）；旁边是按 gpt-fast 在 A100 上实测的比例（其 README）会得到的值，明确标注：这是预期，不是本机的测量。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "Llama-2-7B fp16, batch 1, 1024 tokens of context", zh = "Llama-2-7B fp16，batch 1，1024 个 token 上下文" } },
      { id = "tok", kind = "bars", title = { en = "One GPU: ceiling and at gpt-fast's measured fraction", zh = "单卡：上限，以及按 gpt-fast 实测比例" }, unit = "tok/s" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:status(T("measuring read bandwidth (dot)", "测量读带宽（dot）"))
      local r, err = read_bw()
      if not r then ex:note("t", err); ex:status(T("failed", "失败")); return end
      ex:row("t", { "tp", T("bytes per GPU", "每卡字节"), T("ceiling tok/s", "上限 tok/s"), T("gpt-fast's fraction", "gpt-fast 的比例"), T("expected tok/s", "预期 tok/s") })
      local one
      for _, row in ipairs(GPTFAST) do
        local d = vram.decode { model = "llama-2-7b", context = CTX, bandwidth = r.bytes_per_s, flops = peak_flops() or 1e15, tp = row.tp }
        local frac = row.gbs / 2039
        ex:row("t", { tostring(row.tp), units.si(d.bytes), string.format("%.0f", d.tokens_per_s_memory), string.format("%.0f %%", 100 * frac),
                      string.format("%.0f", frac * d.tokens_per_s_memory) })
        if row.tp == 1 then one = { d = d, frac = frac } end
      end
      ex:bar("tok", T("ceiling, this device", "上限，本设备"), one.d.tokens_per_s_memory, { from = r, unit = "tok/s" })
      ex:bar("tok", T("at gpt-fast's 69 % (expected)", "按 gpt-fast 的 69 %（预期）"), one.frac * one.d.tokens_per_s_memory, { style = "reference", unit = "tok/s" })
      ex:note("t", T(string.format("Read bandwidth %s (%s). gpt-fast's fraction: the bandwidth per GPU its README reports for each run over the A100's 2,039 GB/s; the all-reduces are not in the ceiling.",
                                   units.rate(r.bytes_per_s), r.simulated and "SIMULATED" or "measured"),
                     string.format("读带宽 %s（%s）。gpt-fast 的比例：其 README 为每次运行给出的每卡带宽除以 A100 的 2,039 GB/s；上限里没有计入 all-reduce。",
                                   units.rate(r.bytes_per_s), r.simulated and "模拟" or "实测")))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "fraction-a100",
    kind = "number",
    prompt = { en = "gpt-fast measured 104.9 tokens/s for Llama-2-7B in fp16 (13.48 GB of weights) at batch 1 on an A100 80GB (2,039 GB/s). What percent of the bandwidth ceiling is that?",
               zh = "gpt-fast 在 A100 80GB（2,039 GB/s）上实测 fp16 的 Llama-2-7B（13.48 GB 权重）batch 1 时为每秒 104.9 个 token。这占带宽上限的百分之几？" },
    answer = 104.9 / (2039e9 / 13.48e9) * 100, unit = "%", tolerance = 0.02,
    mistakes = { { value = 104.9 / (1700e9 / 13.48e9) * 100, say = { en = "That divides by the 1,700 GB/s the authors measured at best; the question asks against the datasheet's 2,039 GB/s.", zh = "那是按作者实测的最高 1,700 GB/s 算的；题目问的是相对数据手册的 2,039 GB/s。" } } },
    hints = { { en = "The ceiling is bandwidth / bytes per token; then measured / ceiling.", zh = "上限 = 带宽 / 每个 token 的字节数；然后用实测除以上限。" } },
    explain = { en = "2039e9 / 13.48e9 = 151.3 tok/s at most; 104.9 / 151.3 = 69 %. The README's own figure, 1,397 GB/s, is the same 69 % of 2,039.",
                zh = "2039e9 / 13.48e9 = 最多每秒 151.3 个 token；104.9 / 151.3 = 69 %。README 自己给出的 1,397 GB/s 也正是 2,039 的 69 %。" },
  },

  exercise {
    id = "tp-weights",
    kind = "number",
    prompt = { en = "Llama-2-70B in fp16 (68,976,648,192 parameters) with tensor parallelism over 4 GPUs: how many GiB (2^30 B) of weights does each GPU hold?",
               zh = "fp16 的 Llama-2-70B（68,976,648,192 个参数）做 4 路张量并行：每张 GPU 持有多少 GiB（2^30 B）的权重？" },
    answer = 68976648192 * 2 / 4 / 2^30, unit = "GiB", tolerance = 0.02,
    mistakes = { { value = 68976648192 * 2 / 2^30, say = { en = "That is the whole model: tensor parallelism splits every weight matrix (and the embedding and head) over the 4 GPUs.", zh = "那是整个模型：张量并行把每个权重矩阵（以及嵌入层和输出头）分到 4 张 GPU 上。" } } },
    hints = { { en = "2 bytes a parameter, divided among the GPUs; then 2^30.", zh = "每参数 2 字节，分到各张 GPU 上；再除以 2^30。" } },
    explain = { en = "68.98e9 x 2 B / 4 = 34.5 GB = 32.12 GiB a GPU; its decode ceiling is bandwidth / (32.12 GiB + its KV heads), four times one GPU's before the all-reduces.",
                zh = "68.98e9 × 2 B / 4 = 34.5 GB = 每张 GPU 32.12 GiB；它的解码上限是带宽 / (32.12 GiB + 它那份 KV 头)，在不计 all-reduce 时是单卡的四倍。" },
  },

  exercise {
    id = "tp-fraction",
    kind = "choice",
    prompt = { en = "gpt-fast's Llama-2-7B reaches 69 % of its bandwidth ceiling on one A100 and 35 % on eight. Why does the fraction fall?",
               zh = "gpt-fast 的 Llama-2-7B 在一张 A100 上达到带宽上限的 69 %，在八张上只有 35 %。比例为什么下降？" },
    choices = {
      { en = "Each GPU reads the whole model anyway", zh = "每张 GPU 反正都要读整个模型" },
      { en = "Each layer waits for two all-reduces whose latency does not shrink with the shard, while each GPU's reads do", zh = "每层都要等两次 all-reduce，其延迟不随分片变小，而每张 GPU 的读取时间变小了" },
      { en = "NVLink is slower than HBM, so the weights are read over NVLink", zh = "NVLink 比 HBM 慢，而权重是经 NVLink 读取的" },
    },
    answer = 2,
    hints = { { en = "What does a tensor-parallel layer do that a single-GPU layer does not, and does it get shorter with more GPUs?", zh = "张量并行的一层比单卡多做了什么？它会随 GPU 增多而变短吗？" } },
    explain = { en = "With 8 GPUs each reads 1/8 of the weights (0.83 ms a token at 2,039 GB/s), while the 64 all-reduces of a token each cost microseconds regardless: fixed time that the shrinking reads no longer hide.",
                zh = "8 张 GPU 时每张只读 1/8 的权重（按 2,039 GB/s 每个 token 0.83 ms），而一个 token 的 64 次 all-reduce 每次都要几微秒，不随分片变小：读取时间缩短后，这段固定时间就藏不住了。" },
  },

  text { en = [[
> [!source] Sources
> Williams, Waterman, Patterson 2009, "Roofline: An Insightful Visual Performance Model for
> Multicore Architectures", CACM 52(4). Peak figures: NVIDIA H100 and H200 datasheets (dense
> fp16 989.4 TFLOP/s, 3.35 and 4.8 TB/s), Ampere GA102 whitepaper (RTX 3090: 71 TFLOP/s dense
> fp16 tensor with fp32 accumulate, 936 GB/s); vramlab's `vram.gpu_specs()` lists each with its
> source. BabelStream's dot: Deakin et al., University of Bristol (lesson 3.2). Llama-2-7B:
> `meta-llama/Llama-2-7b-hf` config.json. The FLOP and byte counts: `docs/vram-infer.md`.
> Measured decode: pytorch-labs/gpt-fast, README, "Benchmarks" and "Tensor Parallelism" (8x
> A100-80GB power-limited to 330 W, batch 1, a 5-token prompt; "peak bandwidth is about 1700
> GB/s"); NVIDIA A100 datasheet (2,039 GB/s); tensor parallelism: Shoeybi et al., "Megatron-LM",
> 2019 (column and row splits, two all-reduces per layer); vLLM's attention layers
> (num_kv_heads = max(1, total_num_kv_heads // tp_size)).
]], zh = [[
> [!source] 出处
> Williams、Waterman、Patterson 2009，“Roofline: An Insightful Visual Performance Model for Multicore Architectures”，CACM 52(4)。峰值：NVIDIA H100 和 H200 数据手册（稠密 fp16 989.4 TFLOP/s，3.35 和 4.8 TB/s），Ampere GA102 白皮书（RTX 3090：fp32 累加的 fp16 张量算力稠密 71 TFLOP/s，936 GB/s）；vramlab 的 `vram.gpu_specs()` 列出了每一项及其出处。BabelStream 的 dot：Deakin 等，布里斯托大学（第 3.2 节）。Llama-2-7B：`meta-llama/Llama-2-7b-hf` 的 config.json。浮点运算和字节的计数方法见 `docs/vram-infer.md`。实测解码：pytorch-labs/gpt-fast 的 README，“Benchmarks” 和 “Tensor Parallelism”（8 张功耗限制在 330 W 的 A100-80GB，batch 1，5 个 token 的提示；“peak bandwidth is about 1700 GB/s”）；NVIDIA A100 数据手册（2,039 GB/s）；张量并行：Shoeybi 等，“Megatron-LM”，2019（按列和按行切分，每层两次 all-reduce）；vLLM 的注意力层（num_kv_heads = max(1, total_num_kv_heads // tp_size)）。
]] },
}
