-- Lesson 5.5: serving within a budget. vLLM V1's accounting of a GPU (vram.serving): the KV pool
-- left in 90 % of the memory after weights and one profiled forward, and how many sequences fit; at the
-- limit, preemption by recompute vs swap at this device's measured PCIe bandwidth
-- (vram.preemption, vram.serve_sim); sizing a deployment for a given traffic.
local GiB = units.GiB

local CONFIGS = {
  { model = "llama-2-7b", scheme = "fp16", context = 4096 },
  { model = "llama-2-7b", scheme = "gptq", context = 4096 },
  { model = "llama-3-8b", scheme = "fp16", context = 8192 },
  { model = "mistral-7b", scheme = "fp16", context = 32768 },
  { model = "llama-2-70b", scheme = "gptq", context = 4096 },
}

-- host <-> device bandwidth of this device, pinned, by the copy engine: out (D2H) and back (H2D)
local function pcie()
  local n = 64 * units.MiB
  local out, e1 = gpu.copy { dir = "d2h", bytes = n, pinned = true }
  if not out then return nil, e1 end
  local back, e2 = gpu.copy { dir = "h2d", bytes = n, pinned = true }
  if not back then return nil, e2 end
  return out, back
end

-- seconds to swap `bytes` of KV cache out to host memory and back in
local function swap_seconds(bytes, out, back) return bytes / out.bytes_per_s + bytes / back.bytes_per_s end

local function peak_flops()
  local g = vram.device_spec(gpu.info())
  if g then return g.flops, g end
end

-- vLLM's start-up for Llama-2-7B fp16 at 4096 tokens under `vllm serve` on a device of `total`
-- bytes named `name` (vram.vllm_startup), with options on top
local function startup(total, name, extra)
  local t = { model = "llama-2-7b", capacity = total, name = name, context = 4096 }
  for k, v in pairs(extra) do t[k] = v end
  return vram.vllm_startup(t)
end
local STEP = {
  context = { en = "context (init_device)", zh = "上下文（init_device）" },
  weights = { en = "weights (load_model)", zh = "权重（load_model）" },
  profile = { en = "profile run", zh = "剖析运行" },
  graph_estimate = { en = "graph estimate", zh = "估算 CUDA 图" },
  kv_pool = { en = "KV pool", zh = "KV 缓存池" },
  capture = { en = "CUDA graphs (capture_model)", zh = "CUDA 图（capture_model）" },
  sampler = { en = "sampler warm-up", zh = "采样器预热" },
}
local VARIANTS = {
  { en = "defaults", zh = "默认", opts = {} },
  { en = "enforce_eager", zh = "enforce_eager", opts = { enforce_eager = true } },
  { en = "kv_cache_dtype fp8", zh = "kv_cache_dtype fp8", opts = { kv_cache_dtype = "fp8" } },
  { en = "before v0.21", zh = "v0.21 之前", opts = { estimate_graphs = false } },
}

return lesson {
  id = "5.5",
  chapter = 5,
  chapter_title = { en = "Memory at inference", zh = "推理时的显存" },
  title = { en = "Serving within a budget", zh = "在预算内提供推理服务" },
  requires = { "gpu" },

  text { en = [[
# Serving within a budget

A serving engine sizes its KV pool once, at start-up. vLLM's accounting (its current engine, V1):

1. **Budget** = total memory x `gpu_memory_utilization` (0.90 by default). At start-up the free
   memory must be at least that much, or vLLM refuses to start: the CUDA context, NCCL's buffers
   and other processes have to fit in the other 10 %.
2. Minus the **weights** (lesson 5.1), the **peak of one profiling forward** over
   `max_num_batched_tokens` tokens (vLLM runs a dummy batch at start-up and measures it, the
   sampler over `max_num_seqs` sequences included), and the memory **outside PyTorch that grew**
   during it. vLLM compares against a snapshot taken once the context and NCCL exist, so the
   context is in that baseline and is not subtracted again. Since v0.21 vLLM also estimates the
   **CUDA graphs'** memory pool and subtracts it (`VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS`, on
   by default); before, the graphs were captured after the pool was sized, on top of the budget.
3. What is left is the **KV pool**, cut into blocks of 16 tokens (lesson 5.3). It is allocated
   whole: `nvidia-smi` shows it taken from the first second, busy or idle, and shows **more than
   90 %** used, because the context, NCCL and the graphs' pool are outside the budget.

The scheduler's limits depend on the device too. On a GPU with at least 70 GiB whose name is not
an A100 (H100, H200, B200, MI300X), `max_num_seqs` is **1024** and `max_num_batched_tokens` 8192
for `vllm serve` (16384 for the `LLM` class); on the others 256, and 2048 (8192).

How many sequences run at once is then pool / (context x KV bytes per token), capped at
`max_num_seqs`. On an H100 80GB (79.19 GiB as CUDA reports it) with Llama-2-7B in fp16 under
`vllm serve`: 71.27 GiB budget - 12.55 GiB weights - 0.75 GiB for the profiling forward over 8192
tokens = **57.97 GiB of KV**, 28 sequences of 4096 tokens (2 GiB each). Quantising the weights
frees memory for the cache; GQA shrinks what each sequence needs. (Around v0.9, V1 subtracted all
memory outside PyTorch on the device instead, the context and other processes' included: a few
hundred MiB less for the pool.)

## At the limit: preemption
Paging admits sequences by their prompt, not their final length, so a pool can run out while
sequences are still growing. vLLM then **preempts** the latest-arrived sequence (Kwon et al.
2023, sec. 4.5), in one of two ways:

- **swap**: copy its KV blocks to host memory over PCIe, and back when room returns: 2 x its
  KV bytes over the link;
- **recompute**: drop its blocks; when it is rescheduled, run one prefill over its prompt and the
  tokens it had generated, which rebuilds the whole cache in one pass.

Per token, swapping costs 2 x KV bytes / PCIe bandwidth and recomputing about 2 x parameters
FLOPs / achieved FLOP/s. Priced alone, as the experiment below does, swapping looks several
times cheaper. End to end the paper measured the two close for blocks of 16-64 tokens, and
swapping worse for small blocks, whose many small transfers underuse PCIe (sec. 7.3), and a
swapped sequence holds host memory set aside for it (vLLM's `swap_space`).
vLLM's current engine (V1) recomputes preempted requests.

> [!errata] "Once the model loads, the server can take any number of users"
> Loading proves only that the weights fit. Every running sequence needs its own KV cache, so
> the number of concurrent users is set by the memory left after the weights: 28 full-length
> Llama-2-7B conversations on an H100 80GB, 4 on an RTX 3090 (23.7 GiB as CUDA reports it). Past
> that, requests wait in the queue or are preempted, and latency, not an OOM, is how you notice.
> Source: the accounting above, with vLLM's defaults (`vllm/engine/arg_utils.py`), and the
> experiment below (`vram.serving`); preemption: Kwon et al. 2023, sec. 4.5.

## Sizing a deployment
Little's law: sequences in flight = arrival rate x time each one stays. 4 requests/s that each
stream 500 tokens at 25 tokens/s stay 20 s: 80 sequences at once. At 28 per GPU, that is 3 GPUs
(and more for the prompts' prefill time and bursts).
]], zh = [[
# 在预算内提供推理服务

推理服务引擎在启动时一次性确定 KV 缓存池的大小。vLLM 的记账方式：

1. **预算** = 总显存 × `gpu_memory_utilization`（默认 0.90）。启动时空闲显存必须至少这么多，否则 vLLM 拒绝启动：CUDA 上下文、NCCL 的缓冲区和其他进程都得装在另外那 10 % 里。
2. 减去**权重**（第 5.1 节）、对 `max_num_batched_tokens` 个 token 做的**一次剖析前向的峰值**（vLLM 启动时跑一个假的批次并测量它，包括对 `max_num_seqs` 个序列的采样），以及这期间**在 PyTorch 之外增长**的显存。vLLM 是和上下文与 NCCL 建好之后拍下的快照比较的，所以上下文已在基准里，不会再减一次。从 v0.21 起，vLLM 还会估算 **CUDA 图**的显存池并减去它（`VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS`，默认开启）；在那之前，CUDA 图在缓存池定好大小之后才捕获，占在预算之外。
3. 剩下的就是 **KV 缓存池**，切成 16 个 token 一块（第 5.3 节）。它是整块分配的：从第一秒起 `nvidia-smi` 就显示它已被占用，无论忙闲；而且显示的已用量**超过 90 %**，因为上下文、NCCL 和 CUDA 图的显存池都在预算之外。

调度器的上限也取决于设备。显存至少 70 GiB 且名字不是 A100 的 GPU（H100、H200、B200、MI300X）上，`max_num_seqs` 是 **1024**，`max_num_batched_tokens` 在 `vllm serve` 下是 8192（`LLM` 类是 16384）；其他 GPU 上是 256，以及 2048（8192）。

同时能跑多少个序列 = 缓存池 / (上下文长度 × 每 token 的 KV 字节数)，上限是 `max_num_seqs`。在 H100 80GB（CUDA 报告 79.19 GiB）上用 `vllm serve` 跑 fp16 的 Llama-2-7B：预算 71.27 GiB − 权重 12.55 GiB − 对 8192 个 token 做剖析前向的 0.75 GiB = **57.97 GiB 的 KV**，可容纳 28 个 4096 token 的序列（每个 2 GiB）。量化权重能为缓存腾出显存；GQA 则缩小每个序列的需求。（在 v0.9 前后，V1 减去的是设备上 PyTorch 之外的全部显存，上下文和其他进程的也算在内：缓存池会少几百 MiB。）

## 到了极限：抢占
分页按提示长度而不是最终长度接纳序列，所以序列还在增长时缓存池就可能用完。这时 vLLM 会**抢占**最晚到达的序列（Kwon 等 2023 第 4.5 节），有两种方式：

- **换出（swap）**：把它的 KV 块经 PCIe 复制到主机内存，有空间时再复制回来：链路上走 2 倍的 KV 字节；
- **重算（recompute）**：丢掉它的块；重新调度时，对它的提示加上已生成的 token 做一次预填充，一遍就重建整个缓存。

按每个 token 计，换出的代价是 2 × KV 字节 / PCIe 带宽，重算约为 2 × 参数量次浮点运算 / 实际达到的 FLOP/s。像下面的实验那样单独定价，换出看起来要便宜好几倍。但论文端到端测得，块大小 16–64 个 token 时两者接近，块小时换出更差，因为大量小传输用不满 PCIe（第 7.3 节）；而且被换出的序列要占用专门留出的主机内存（vLLM 的 `swap_space`）。vLLM 现在的引擎（V1）对被抢占的请求采用重算。

> [!errata] “模型加载成功了，服务器就能接待任意多的用户”
> 加载成功只说明权重装得下。每个运行中的序列都需要自己的 KV 缓存，所以并发用户数取决于权重之外剩下的显存：H100 80GB 上 28 个满长度的 Llama-2-7B 对话，RTX 3090（CUDA 报告 23.7 GiB）上 4 个。超过这个数，请求就在队列里等待或被抢占，你察觉到的是延迟，而不是 OOM。
> 出处：上面的记账，按 vLLM 的默认值（`vllm/engine/arg_utils.py`），以及下面的实验（`vram.serving`）；抢占：Kwon 等 2023 第 4.5 节。

## 为部署估算规模
Little 定律：同时在途的序列数 = 到达率 × 每个序列停留的时间。每秒 4 个请求，每个以每秒 25 个 token 流式输出 500 个 token，停留 20 秒：同时有 80 个序列。每块 GPU 容纳 28 个，就需要 3 块 GPU（还要为提示的预填充时间和突发流量留余量）。
]] },

  experiment {
    id = "budget",
    key = "g",
    title = { en = "What fits on this device", zh = "本设备能装下什么" },
    intro = { en = [[
vLLM's accounting (`vram.serving`) on this device's total memory (real on a GPU, the
profile's on the simulator): for each model, precision and context, the KV pool left and how
many full-length sequences run at once.
]], zh = [[
在本设备的总显存上（有 GPU 时为真实值，模拟器上为配置的值）按 vLLM 的方式记账（`vram.serving`）：对每个模型、精度和上下文长度，算出剩下的 KV 缓存池，以及能同时运行多少个满长度的序列。
]] },
    panels = {
      { id = "t", kind = "table", title = { en = "KV pool and sequences at once", zh = "KV 缓存池与并发序列数" } },
      { id = "n", kind = "bars", title = { en = "Full-length sequences at once (estimate)", zh = "同时运行的满长度序列数（估算）" }, unit = "seqs" },
      { id = "g", kind = "gauge", title = { en = "Llama-2-7B fp16: KV pool within the budget", zh = "Llama-2-7B fp16：预算中的 KV 缓存池" }, unit = "GiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local _, total = gpu.mem()
      local info = gpu.info()
      ex:row("t", { T("model", "模型"), T("prec.", "精度"), T("ctx", "上下文"), T("weights", "权重"), T("KV pool", "KV 池"), T("seqs", "序列") })
      local first
      for _, c in ipairs(CONFIGS) do
        local s = vram.serving { model = c.model, scheme = c.scheme, capacity = total, name = info.name, context = c.context }
        first = first or s
        ex:row("t", { c.model, c.scheme, tostring(c.context), units.bytes(s.weights), units.bytes(s.kv_pool), tostring(s.max_seqs) })
        ex:bar("n", string.format("%s %s %dK", c.model, c.scheme, c.context // 1024), s.max_seqs, { style = "theoretical", unit = "seqs" })
      end
      ex:note("t", T(string.format("%s, %s in all%s; vLLM V1 under vllm serve: budget 90 %%; forward profiled over %d tokens, max_num_seqs %d (its defaults for this device); the CUDA context (426 MiB, estimate) is in the 10 %% outside the budget; no CUDA graphs counted. Mistral keeps a 4096-token window.",
                                   info.name or "device", units.bytes(total), info.simulated and " (SIMULATED profile)" or "", first.batched_tokens, first.max_num_seqs),
                     string.format("%s，共 %s%s；vLLM V1，vllm serve：预算 90 %%；前向按 %d 个 token 剖析，max_num_seqs %d（它对本设备的默认值）；CUDA 上下文（426 MiB，估计值）在预算之外的 10 %% 里；未计 CUDA 图。Mistral 只保留 4096 个 token 的窗口。",
                                   info.name or "设备", units.bytes(total), info.simulated and "（模拟配置）" or "", first.batched_tokens, first.max_num_seqs)))
      ex:gauge("g", T("KV pool", "KV 池"), first.kv_pool / GiB, first.budget / GiB, { unit = "GiB" })
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "swap",
    kind = "predict",
    prompt = { en = "Predict: how many milliseconds does it take to swap the 1 GiB KV cache of a 2048-token Llama-2-7B sequence out to host memory and back, on this device's PCIe link?",
               zh = "预测：在本设备的 PCIe 链路上，把一个 2048 token 的 Llama-2-7B 序列的 1 GiB KV 缓存换出到主机内存再换回来，需要多少毫秒？" },
    unit = "ms", tolerance = 0.3,
    measure = function()
      local out, back = assert(pcie())
      return 1e3 * swap_seconds(vram.kv { model = "llama-2-7b", tokens = 2048 }.total, out, back), out
    end,
    hints = { { en = "PCIe 4.0 x16 is 31.5 GB/s per direction in theory, about 25 in practice; the bytes cross twice.", zh = "PCIe 4.0 x16 理论上每个方向 31.5 GB/s，实际约 25；这些字节要过两次链路。" } },
    explain = { en = "2 x 1.07 GB / the measured bandwidth: tens of milliseconds, the time of several decode steps for the whole batch.",
                zh = "2 × 1.07 GB / 实测带宽：几十毫秒，相当于整个 batch 的好几个解码步。" },
  },

  experiment {
    id = "preempt",
    title = { en = "Preemption: swap vs recompute, at this device's PCIe bandwidth", zh = "抢占：换出 vs 重算，按本设备的 PCIe 带宽" },
    intro = { en = [[
Measures pinned copies of 64 MiB out of (D2H) and into (H2D) the device, then prices evicting
one Llama-2-7B sequence both ways: swap = KV bytes / D2H + KV bytes / H2D; recompute = one
prefill at half of this device's published fp16 tensor FLOP/s (an assumed 50 % utilisation).
Then the serving simulation of lesson 5.3 runs on this device's pool with each policy.
]], zh = [[
测量 64 MiB 锁页内存的拷出（D2H）和拷入（H2D），然后对驱逐一个 Llama-2-7B 序列的两种方式定价：换出 = KV 字节 / D2H + KV 字节 / H2D；重算 = 以本设备公布的 fp16 张量算力的一半（假设利用率 50 %）做一次预填充。随后在本设备的缓存池上，按两种策略各跑一遍第 5.3 节的服务模拟。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "Cost of evicting one sequence", zh = "驱逐一个序列的代价" }, x = "tokens", y = "ms", logx = true },
      { id = "t", kind = "table", title = { en = "Serving 1000 requests", zh = "服务 1000 个请求" } },
      { id = "b", kind = "bars", title = { en = "Swap a 2048-token sequence out and in", zh = "换出并换回一个 2048 token 的序列" }, unit = "ms" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:status(T("measuring PCIe", "测量 PCIe"))
      local out, back = pcie()
      if not out then ex:note("c", back); ex:status(T("failed", "失败")); return end
      local fl, spec = peak_flops()
      for _, n in ipairs { 128, 256, 512, 1024, 2048, 4096 } do
        local kv = vram.kv { model = "llama-2-7b", tokens = n }.total
        ex:point("c", T("swap", "换出"), n, 1e3 * swap_seconds(kv, out, back))
        if fl then
          local p = vram.preemption { model = "llama-2-7b", tokens = n, pcie = back.bytes_per_s, flops = fl, mfu = 0.5 }
          ex:point("c", T("recompute", "重算"), n, 1e3 * p.recompute_seconds)
        end
      end
      ex:note("c", T(string.format("D2H %s, H2D %s (pinned, copy engine%s); %s", units.rate(out.bytes_per_s), units.rate(back.bytes_per_s),
                                   out.simulated and ", SIMULATED" or "", fl and string.format("%s %.0f TFLOP/s x 0.5", spec.name, fl / 1e12) or "no published FLOP/s: recompute not priced"),
                     string.format("D2H %s，H2D %s（锁页内存，拷贝引擎%s）；%s", units.rate(out.bytes_per_s), units.rate(back.bytes_per_s),
                                   out.simulated and "，模拟" or "", fl and string.format("%s %.0f TFLOP/s × 0.5", spec.name, fl / 1e12) or "没有公布的算力：不计算重算代价")))
      ex:status(T("simulating", "模拟中"))
      local _, total = gpu.mem()
      local sv = vram.serving { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 2048 }
      local slots = sv.max_tokens
      ex:row("t", { T("policy", "策略"), T("preempted", "抢占"), T("recomputed tok", "重算 token"), T("swapped", "换出"), T("link time", "链路时间"), T("steps", "步数") })
      local preempted = 0
      for _, mode in ipairs { "recompute", "swap" } do
        local x = vram.serve_sim { requests = 1000, seed = 1, tokens = slots, policy = "paged", preempt = mode, model = "llama-2-7b",
                                   max_seqs = sv.max_num_seqs, pcie = math.min(out.bytes_per_s, back.bytes_per_s) }
        ex:row("t", { mode, tostring(x.preemptions), tostring(x.recomputed_tokens), units.si(x.swapped_bytes or 0),
                      (x.swapped_bytes or 0) > 0 and units.time(x.swap_seconds) or "-", tostring(x.steps) })
        preempted = preempted + x.preemptions
      end
      if preempted == 0 then
        ex:note("t", T(string.format("No preemption: this pool holds every sequence the scheduler admits (at most %d at once, vLLM's max_num_seqs on this device).", sv.max_num_seqs),
                       string.format("没有抢占：这个缓存池装得下调度器接纳的所有序列（同时最多 %d 个，即 vLLM 在本设备上的 max_num_seqs）。", sv.max_num_seqs)))
      end
      ex:note("t", T(string.format("SIMULATED scheduling (vram.serve_sim) on a pool of %d token slots; link time at the slower measured direction.", slots),
                     string.format("模拟的调度（vram.serve_sim），缓存池 %d 个 token 位置；链路时间按实测较慢的方向计。", slots)))
      local kv2k = vram.kv { model = "llama-2-7b", tokens = 2048 }.total
      ex:bar("b", "Llama-2-7B, 2048 tok (1 GiB)", 1e3 * swap_seconds(kv2k, out, back), { from = out, unit = "ms" })
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "a100",
    kind = "number",
    prompt = { en = "vLLM V1 (accounting as in the text) with the LLM class on an A100 80GB (79.15 GiB), Llama-2-7B fp16: budget 90 %, weights 12.55 GiB, profiling forward over 8192 tokens 0.66 GiB, CUDA context 0.42 GiB, no CUDA graphs. Each 4096-token sequence needs 2 GiB of KV cache. How many full-length sequences run at once?",
               zh = "vLLM V1（按正文的记账方式），用 LLM 类，A100 80GB（79.15 GiB），Llama-2-7B fp16：预算 90 %，权重 12.55 GiB，对 8192 个 token 的剖析前向 0.66 GiB，CUDA 上下文 0.42 GiB，不计 CUDA 图。每个 4096 token 的序列需要 2 GiB 的 KV 缓存。能同时运行多少个满长度的序列？" },
    answer = 29, unit = "seqs", tolerance = 0.001,
    mistakes = {
      { value = 28, say = { en = "That subtracts the CUDA context: it exists before vLLM's start-up snapshot, so it sits in the 10 % outside the budget (vLLM around v0.9 did subtract it).",
                            zh = "那减去了 CUDA 上下文：它在 vLLM 启动快照之前就已存在，所以在预算之外的那 10 % 里（v0.9 前后的 vLLM 确实会减去它）。" } },
      { value = 32, say = { en = "Start from the budget, 90 % of 79.15 GiB, not from all of it.", zh = "要从预算算起，即 79.15 GiB 的 90 %，而不是全部显存。" } },
    },
    hints = { { en = "Start from 90 % of 79.15 GiB, not from 80 GB; what is subtracted is what vLLM measures after its start-up snapshot; a sequence that does not fit whole does not count.",
                zh = "从 79.15 GiB 的 90 % 算起，而不是 80 GB；减去的是 vLLM 在启动快照之后测得的东西；装不下一整个的序列不算。" } },
    explain = { en = "0.9 x 79.15 = 71.23 GiB; - 12.55 - 0.66 = 58.02 GiB; / 2 GiB = 29.01, so 29. The 0.42 GiB context is in the start-up baseline; nvidia-smi will show about 72 GiB used (budget plus context), more than 90 %.",
                zh = "0.9 × 79.15 = 71.23 GiB；− 12.55 − 0.66 = 58.02 GiB；/ 2 GiB = 29.01，所以是 29。0.42 GiB 的上下文在启动基准里；nvidia-smi 会显示约 72 GiB 已用（预算加上下文），超过 90 %。" },
  },

  exercise {
    id = "gpus",
    kind = "number",
    prompt = { en = "Traffic: 4 requests/s, each streaming 500 output tokens at 25 tokens/s. One GPU holds 28 such sequences at once (the H100 of the text). How many GPUs do you need, at least?",
               zh = "流量：每秒 4 个请求，每个以每秒 25 个 token 流式输出 500 个 token。一块 GPU 能同时容纳 28 个这样的序列（正文里的 H100）。至少需要几块 GPU？" },
    answer = 3, unit = "GPUs", tolerance = 0.001,
    hints = { { en = "Little's law: in flight = arrival rate x time in the system. Then round up.", zh = "Little 定律：在途数 = 到达率 × 在系统中停留的时间。然后向上取整。" } },
    explain = { en = "Each request stays 500 / 25 = 20 s; 4/s x 20 s = 80 in flight; 80 / 28 = 2.86, so 3 GPUs, before any headroom for prefill and bursts.",
                zh = "每个请求停留 500 / 25 = 20 秒；4/秒 × 20 秒 = 80 个在途；80 / 28 = 2.86，所以需要 3 块 GPU，这还没留预填充和突发的余量。" },
  },

  exercise {
    id = "recompute",
    kind = "choice",
    prompt = { en = "A sequence preempted by recompute is rescheduled. What does the engine run to continue it?", zh = "一个以重算方式被抢占的序列被重新调度。引擎要运行什么才能继续它？" },
    choices = {
      { en = "Every decode step again, one token at a time, up to where it stopped", zh = "把所有解码步再跑一遍，一次一个 token，直到它停下的地方" },
      { en = "One prefill over its prompt and the tokens it had generated", zh = "对它的提示加上已经生成的 token 做一次预填充" },
      { en = "Nothing: its KV cache was kept in host memory", zh = "什么也不用：它的 KV 缓存保存在主机内存里" },
    },
    answer = 2,
    hints = { { en = "The tokens it generated are known; only their keys and values are gone.", zh = "它生成的 token 是已知的；丢掉的只是它们的键和值。" } },
    explain = { en = "The generated tokens are appended to the prompt and the whole cache is rebuilt in one compute-bound prefill (Kwon et al. 2023, sec. 4.5), much faster than replaying the decode steps.",
                zh = "已生成的 token 拼到提示后面，一次受限于计算的预填充就重建了整个缓存（Kwon 等 2023 第 4.5 节），比重放解码步快得多。" },
  },

  text { en = [[
## Start-up, step by step
What `vllm serve` does to the GPU before the first request, in the order vLLM V1's worker runs it
(`vllm/v1/worker/gpu_worker.py`), for Llama-2-7B in fp16 at 4096 tokens on an RTX 3090
(23.70 GiB as CUDA reports it; `vram.vllm_startup`):

| step | what happens | memory | in use after |
|---|---|---|---|
| 1. `init_device` | CUDA context (and NCCL with tensor parallelism); then the **snapshot**, and the check that free ≥ 90 % | 426 MiB | 0.42 GiB |
| 2. `load_model` | the weights | 12.55 GiB | 12.97 GiB |
| 3. `profile_run` | one dummy forward over `max_num_batched_tokens` (2048 here) and the sampler; its peak is noted, then freed | 192 MiB, briefly | |
| 4. graph estimate | since v0.21: a few CUDA graphs captured in a scratch pool, to size the rest | 1.52 GiB, briefly | |
| 5. KV pool | 90 % budget − weights − profiled peak − graph estimate, allocated whole | 7.07 GiB: 3 sequences | 20.04 GiB |
| 6. `capture_model` | the CUDA graphs, largest batch first, into one shared pool | 1.52 GiB | 21.56 GiB |
| 7. sampler warm-up | logits buffers for `max_num_seqs` sequences, kept | 31 MiB | 21.59 GiB |

**CUDA graphs.** To cut launch overhead in decode, vLLM records the whole forward as CUDA graphs,
one per batch size in `cudagraph_capture_sizes`: by default 1, 2, 4, then every 8 up to 248 and
every 16 from 256 to `max_cudagraph_capture_size` = min(2 × `max_num_seqs`, 512): 51 sizes,
each captured piecewise, and the sizes up to `max_num_seqs` once more as full decode graphs (35
with `max_num_seqs` = 256). Each graph keeps its own buffers in the shared pool: public vLLM logs
show 18–23 MiB a graph, 0.1–1.6 GiB in all. `enforce_eager=True` captures none (slower decode,
memory back); a shorter `cudagraph_capture_sizes` list or a smaller `max_num_seqs` captures
fewer. Before v0.21 the graphs were captured after the pool was sized, on top of the budget.

**`kv_cache_dtype="fp8"`** stores K and V in one byte instead of two: twice the tokens in the same
pool (with a per-tensor scale, or scales calibrated per head).

**What `nvidia-smi` then shows.** Right after start: everything kept — context, weights, KV pool,
graphs, sampler buffers — **21.59 GiB, 91 % of the card, idle**. After the first full batch,
PyTorch's cache holds the profiled activations again: 21.78 GiB. The KV pool is reserved whole
whether one user is connected or none; a memory graph that never moves is a healthy vLLM.
]], zh = [[
## 启动过程，一步一步
在第一个请求到来之前，`vllm serve` 对 GPU 做了什么，按 vLLM V1 worker 的执行顺序（`vllm/v1/worker/gpu_worker.py`），以 fp16 的 Llama-2-7B、4096 个 token、RTX 3090（CUDA 报告 23.70 GiB；`vram.vllm_startup`）为例：

| 步骤 | 做了什么 | 显存 | 之后占用 |
|---|---|---|---|
| 1. `init_device` | CUDA 上下文（张量并行时还有 NCCL）；然后拍下**快照**，检查空闲 ≥ 90 % | 426 MiB | 0.42 GiB |
| 2. `load_model` | 权重 | 12.55 GiB | 12.97 GiB |
| 3. `profile_run` | 对 `max_num_batched_tokens`（这里是 2048）个 token 跑一次假的前向和采样；记下它的峰值，然后释放 | 192 MiB，短暂 | |
| 4. 估算 CUDA 图 | 从 v0.21 起：在临时内存池里捕获几个 CUDA 图，估算其余的大小 | 1.52 GiB，短暂 | |
| 5. KV 缓存池 | 90 % 预算 − 权重 − 剖析峰值 − CUDA 图估算，整块分配 | 7.07 GiB：3 个序列 | 20.04 GiB |
| 6. `capture_model` | 捕获 CUDA 图，从最大的批开始，放进同一个共享池 | 1.52 GiB | 21.56 GiB |
| 7. 采样器预热 | 为 `max_num_seqs` 个序列准备的 logits 缓冲区，保留 | 31 MiB | 21.59 GiB |

**CUDA 图。** 为了减少解码时的启动开销，vLLM 把整个前向录制成 CUDA 图，`cudagraph_capture_sizes` 里每个批大小一个：默认是 1、2、4，然后每隔 8 直到 248，再从 256 起每隔 16 直到 `max_cudagraph_capture_size` = min(2 × `max_num_seqs`, 512)：共 51 个大小，每个按分段方式捕获；不超过 `max_num_seqs` 的大小还会再捕获一次完整的解码图（`max_num_seqs` = 256 时 35 个）。每个图在共享池里保留自己的缓冲区：公开的 vLLM 日志显示每个图 18–23 MiB，总共 0.1–1.6 GiB。`enforce_eager=True` 一个也不捕获（解码变慢，显存省回来）；缩短 `cudagraph_capture_sizes` 列表或减小 `max_num_seqs` 就捕获得少。v0.21 之前，CUDA 图在缓存池定好大小之后才捕获，占在预算之外。

**`kv_cache_dtype="fp8"`** 用一个字节而不是两个存 K 和 V：同样的缓存池装下两倍的 token（带一个按张量的缩放因子，或按头校准的缩放因子）。

**之后 `nvidia-smi` 显示什么。** 刚启动完：所有保留的东西——上下文、权重、KV 缓存池、CUDA 图、采样器缓冲区——**21.59 GiB，整卡的 91 %，空闲时也是如此**。第一个满批之后，PyTorch 的缓存又会留住剖析时的激活：21.78 GiB。KV 缓存池整块保留，不管连着一个用户还是一个都没有；显存曲线纹丝不动，正说明 vLLM 运行正常。
]] },

  experiment {
    id = "ledger",
    key = "used",
    title = { en = "vLLM's start-up on this device", zh = "本设备上 vLLM 的启动过程" },
    intro = { en = [[
`vram.vllm_startup` on this device's total memory and name (real on a GPU, the profile's on the
simulator): Llama-2-7B in fp16 at 4096 tokens under `vllm serve` with vLLM's defaults for this
device, step by step; then the same start-up eager, with an fp8 KV cache, and as a vLLM before
0.21 (graphs on top). A model of vLLM's accounting, not a run of vLLM.
]], zh = [[
在本设备的总显存和名称上（有 GPU 时为真实值，模拟器上为配置的值）运行 `vram.vllm_startup`：fp16 的 Llama-2-7B、4096 个 token、`vllm serve`、vLLM 对本设备的默认值，一步一步；然后同样的启动分别用 eager 模式、fp8 KV 缓存，以及 v0.21 之前的 vLLM（CUDA 图在预算之外）。这是 vLLM 记账方式的模型，不是运行 vLLM。
]] },
    panels = {
      { id = "used", kind = "curve", title = { en = "Device memory in use, step by step (model)", zh = "逐步的显存占用（模型）" }, x = "step", y = "GiB" },
      { id = "t", kind = "table", title = { en = "The steps (model)", zh = "各个步骤（模型）" } },
      { id = "v", kind = "table", title = { en = "Variants (model)", zh = "不同设置（模型）" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local _, total = gpu.mem()
      local info = gpu.info()
      local r = startup(total, info.name, {})
      ex:row("t", { "#", T("step", "步骤"), T("memory", "显存"), T("in use", "占用") })
      ex:point("used", T("in use", "占用"), 0, 0, { style = "theoretical" })
      for i, st in ipairs(r.steps) do
        ex:row("t", { tostring(i), T(STEP[st.key].en, STEP[st.key].zh), units.bytes(st.bytes) .. (st.transient and T(", briefly", "，短暂") or ""),
                      units.bytes(st.used) })
        ex:point("used", T("in use", "占用"), i, st.used / units.GiB, { style = "theoretical" })
        ex:point("used", T("budget", "预算"), i, r.budget / units.GiB, { style = "reference" })
        ex:point("used", T("capacity", "容量"), i, total / units.GiB, { style = "reference" })
      end
      ex:note("t", T(string.format("%s, %s (%s). Graphs: %d piecewise + %d full, %s; %d sequences of 4096 tokens. nvidia-smi: %s idle (%.0f %%), %s after a full batch.",
                                   info.name or "device", units.bytes(total), info.simulated and "SIMULATED profile" or "measured total",
                                   r.graphs.piecewise, r.graphs.full, units.bytes(r.cuda_graphs), r.serving.max_seqs,
                                   units.bytes(r.smi_idle), 100 * r.smi_idle / total, units.bytes(r.smi_busy)),
                     string.format("%s，%s（%s）。CUDA 图：%d 个分段 + %d 个完整，%s；%d 个 4096 token 的序列。nvidia-smi：空闲时 %s（%.0f %%），满批之后 %s。",
                                   info.name or "设备", units.bytes(total), info.simulated and "模拟配置" or "实测总量",
                                   r.graphs.piecewise, r.graphs.full, units.bytes(r.cuda_graphs), r.serving.max_seqs,
                                   units.bytes(r.smi_idle), 100 * r.smi_idle / total, units.bytes(r.smi_busy))))
      ex:row("v", { T("start-up", "启动方式"), T("graphs", "CUDA 图"), T("KV pool", "KV 池"), T("sequences", "序列"), "nvidia-smi" })
      for _, v in ipairs(VARIANTS) do
        local q = startup(total, info.name, v.opts)
        ex:row("v", { T(v.en, v.zh), units.bytes(q.cuda_graphs), units.bytes(q.kv_pool), tostring(q.serving.max_seqs),
                      string.format("%s (%.0f %%)", units.bytes(q.smi_idle), 100 * q.smi_idle / total) })
      end
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "graphs",
    kind = "number",
    prompt = { en = "vLLM's defaults with `max_num_seqs` = 256 (so `max_cudagraph_capture_size` = 512) in FULL_AND_PIECEWISE mode: a piecewise graph for each of the capture sizes 1, 2, 4, 8, 16, ..., 248, 256, 272, ..., 512, and a full decode graph for each size up to 256. How many CUDA graphs does it capture?",
               zh = "vLLM 的默认设置，`max_num_seqs` = 256（于是 `max_cudagraph_capture_size` = 512），FULL_AND_PIECEWISE 模式：捕获大小 1、2、4、8、16、……、248、256、272、……、512 各一个分段图，不超过 256 的大小各一个完整解码图。一共捕获多少个 CUDA 图？" },
    answer = 86, unit = "graphs", tolerance = 0.001,
    mistakes = { { value = 51, say = { en = "Those are the piecewise ones: the sizes up to 256 also get a full decode graph.", zh = "那只是分段图：不超过 256 的大小还各有一个完整解码图。" } },
                 { value = 35, say = { en = "Those are the full decode graphs only: every size also gets a piecewise one.", zh = "那只是完整解码图：每个大小还各有一个分段图。" } } },
    hints = { { en = "Count the sizes: 3 below 8, every 8 from 8 to 248, every 16 from 256 to 512; then those up to 256 once more.", zh = "数一数大小：8 以下 3 个，8 到 248 每隔 8 一个，256 到 512 每隔 16 一个；不超过 256 的再数一遍。" } },
    explain = { en = "3 + 31 + 17 = 51 piecewise sizes; 3 + 31 + 1 = 35 up to 256: 86 graphs, as vLLM logs it (\"PIECEWISE=51 (largest=512), FULL=35 (largest=256)\").",
                zh = "3 + 31 + 17 = 51 个分段大小；不超过 256 的有 3 + 31 + 1 = 35 个：共 86 个图，与 vLLM 日志一致（“PIECEWISE=51 (largest=512), FULL=35 (largest=256)”）。" },
  },

  exercise {
    id = "fp8-seqs",
    kind = "number",
    prompt = { en = "The RTX 3090's KV pool above is 7.07 GiB. With `kv_cache_dtype=\"fp8\"` and enforce_eager (no graphs), vLLM's pool is 8.59 GiB. How many full 4096-token Llama-2-7B sequences fit in it? (fp16 K and V: 512 KiB a token.)",
               zh = "上面 RTX 3090 的 KV 缓存池是 7.07 GiB。用 `kv_cache_dtype=\"fp8\"` 且 enforce_eager（没有 CUDA 图）时，vLLM 的缓存池是 8.59 GiB。能放下多少个完整的 4096 token 的 Llama-2-7B 序列？（fp16 的 K 和 V：每个 token 512 KiB。）" },
    answer = 8, unit = "seqs", tolerance = 0.001,
    mistakes = { { value = 4, say = { en = "That is fp16's 2 GiB a sequence: fp8 stores K and V in one byte, 1 GiB a sequence.", zh = "那是 fp16 每个序列 2 GiB 的结果：fp8 用一个字节存 K 和 V，每个序列 1 GiB。" } },
                 { value = 9, say = { en = "A sequence that does not fit whole does not run: round down.", zh = "放不下一整个的序列跑不起来：向下取整。" } } },
    hints = { { en = "Bytes a token in fp8 = half of 512 KiB; a sequence is 4096 of them; then round down.", zh = "fp8 下每个 token 的字节数是 512 KiB 的一半；一个序列 4096 个 token；然后向下取整。" } },
    explain = { en = "256 KiB x 4096 = 1 GiB a sequence; 8.59 GiB / 1 GiB = 8.6, so 8 — twice the 4 of fp16 in the same pool.",
                zh = "256 KiB × 4096 = 每个序列 1 GiB；8.59 GiB / 1 GiB = 8.6，所以是 8——同样的缓存池里是 fp16 时 4 个的两倍。" },
  },

  exercise {
    id = "smi-full",
    kind = "choice",
    prompt = { en = "vLLM starts with `gpu_memory_utilization` 0.9 and nvidia-smi shows 91 % used on an idle server. What is that?",
               zh = "vLLM 以 `gpu_memory_utilization` 0.9 启动，空闲的服务器上 nvidia-smi 显示已用 91 %。这是怎么回事？" },
    choices = {
      { en = "A leak: an idle server should show the weights only", zh = "泄漏：空闲的服务器应该只显示权重" },
      { en = "The KV pool is allocated whole at start-up, and the context (and NCCL) sit outside the 90 % budget", zh = "KV 缓存池在启动时就整块分配，而上下文（和 NCCL）在 90 % 的预算之外" },
      { en = "vLLM ignores gpu_memory_utilization after start", zh = "vLLM 启动后就不管 gpu_memory_utilization 了" },
    },
    answer = 2,
    why = { [1] = { en = "vLLM reserves the whole KV pool up front; the memory graph of a healthy vLLM is flat.", zh = "vLLM 一开始就保留整个 KV 缓存池；健康的 vLLM 的显存曲线是平的。" } },
    hints = { { en = "Which of the start-up steps happen before the snapshot?", zh = "启动的哪些步骤发生在快照之前？" } },
    explain = { en = "The budget (90 %) holds weights, the profiled peak, graphs and the KV pool, allocated at start; the context and NCCL existed before the snapshot, outside it. Idle or busy, nvidia-smi shows a little more than 90 %.",
                zh = "预算（90 %）装着权重、剖析峰值、CUDA 图和 KV 缓存池，都在启动时分配；上下文和 NCCL 在快照之前就存在，在预算之外。不论忙闲，nvidia-smi 都显示略多于 90 %。" },
  },

  text { en = [[
> [!source] Sources
> vLLM's defaults (`gpu_memory_utilization` 0.90, `block_size` 16; `max_num_seqs` and
> `max_num_batched_tokens` by device: `EngineArgs.get_batch_defaults`): `vllm/engine/arg_utils.py`.
> The accounting: `vllm/v1/worker/gpu_worker.py` (`init_device`: the start-up snapshot and the
> free-memory check; `determine_available_memory`: requested memory minus weights, the profiled
> peak and the non-torch increase) and `vllm/utils/mem_utils.py` (`memory_profiling`); CUDA graphs:
> `vllm/envs.py`, `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS` ("enabled by default as of v0.21.0");
> preemption: the vLLM docs, "Optimization and Tuning". The start-up ledger: `gpu_worker.py`
> (`init_device`, `load_model`, `determine_available_memory`, `initialize_from_config`,
> `compile_or_warm_up_model`), `vllm/v1/worker/gpu_model_runner.py` (`profile_cudagraph_memory`:
> the largest graph's capture plus the next one's times the rest; `capture_model`: largest first,
> one shared pool) and `vllm/config/vllm.py` (`_set_cudagraph_sizes`: the default capture sizes,
> `max_cudagraph_capture_size` = min(2 x `max_num_seqs`, 512)); the vLLM docs, "Conserving
> Memory" (`enforce_eager`, `cudagraph_capture_sizes`) and "Quantized KV Cache" (fp8). Graph memory
> in public vLLM logs: vLLM PR 39559 ("PIECEWISE=51 (largest=512), FULL=35 (largest=256)", 1.62
> GiB), gpustack/runner PR 251 (vLLM 0.27.1: 16 graphs, 0.36 GiB), noonghunna/club-3090 issue 434
> (5 graphs, 0.09 GiB). Kwon et al. 2023,
> "Efficient Memory Management for Large Language Model Serving with PagedAttention", SOSP '23,
> sec. 4.5 (swapping, recomputation) and 7.3. A100 80GB capacity: 79.15 GiB as PyTorch reports
> it; H100 SXM 80GB: 85,028,896,768 B = 79.19 GiB as CUDA reports it (`assets/gpus/h100-sxm.txt`). Little's law: Little 1961, Operations Research 9(3). PCIe 4.0 x16: 16 GT/s x 16 lanes,
> 128b/130b, 31.5 GB/s per direction. The estimators: `docs/vram-infer.md`.
]], zh = [[
> [!source] 出处
> vLLM 的默认值（`gpu_memory_utilization` 0.90、`block_size` 16；按设备而定的 `max_num_seqs` 和 `max_num_batched_tokens`：`EngineArgs.get_batch_defaults`）：`vllm/engine/arg_utils.py`。记账方式：`vllm/v1/worker/gpu_worker.py`（`init_device`：启动快照与空闲显存检查；`determine_available_memory`：请求的显存减去权重、剖析到的峰值和非 torch 增量）和 `vllm/utils/mem_utils.py`（`memory_profiling`）；CUDA 图：`vllm/envs.py` 的 `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS`（“enabled by default as of v0.21.0”）；抢占：vLLM 文档 “Optimization and Tuning”。启动账本：`gpu_worker.py`（`init_device`、`load_model`、`determine_available_memory`、`initialize_from_config`、`compile_or_warm_up_model`）、`vllm/v1/worker/gpu_model_runner.py`（`profile_cudagraph_memory`：最大那个图的捕获量加上其余各图按第二个图计；`capture_model`：从大到小，共用一个池）和 `vllm/config/vllm.py`（`_set_cudagraph_sizes`：默认捕获大小，`max_cudagraph_capture_size` = min(2 × `max_num_seqs`, 512)）；vLLM 文档 “Conserving Memory”（`enforce_eager`、`cudagraph_capture_sizes`）和 “Quantized KV Cache”（fp8）。公开 vLLM 日志中的 CUDA 图内存：vLLM PR 39559（“PIECEWISE=51 (largest=512), FULL=35 (largest=256)”，1.62 GiB）、gpustack/runner PR 251（vLLM 0.27.1：16 个图，0.36 GiB）、noonghunna/club-3090 issue 434（5 个图，0.09 GiB）。Kwon 等 2023，“Efficient Memory Management for Large Language Model Serving with PagedAttention”，SOSP '23，第 4.5 节（换出、重算）和第 7.3 节。A100 80GB 容量：PyTorch 报告的 79.15 GiB；H100 SXM 80GB：CUDA 报告 85,028,896,768 B = 79.19 GiB（`assets/gpus/h100-sxm.txt`）。Little 定律：Little 1961，Operations Research 9(3)。PCIe 4.0 x16：16 GT/s × 16 条通道，128b/130b 编码，每个方向 31.5 GB/s。估算器见 `docs/vram-infer.md`。
]] },
}
