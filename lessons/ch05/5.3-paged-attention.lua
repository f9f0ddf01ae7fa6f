-- Lesson 5.3: paged attention (Kwon et al. 2023): a stream of requests served from the KV pool
-- this device would have for Llama-2-7B, with one contiguous reservation per request (Orca's
-- three policies) and with block tables (vLLM), by vram.serve_sim; the block size as a knob.

local POLICIES = {
  { p = "max", en = "Orca (Max)", zh = "Orca (Max)", paper = 20.4 },
  { p = "pow2", en = "Orca (Pow2)", zh = "Orca (Pow2)", paper = 26.8 },
  { p = "oracle", en = "Orca (Oracle)", zh = "Orca (Oracle)", paper = 38.2 },
  { p = "paged", en = "vLLM (paged)", zh = "vLLM（分页）", paper = 96.3 },
}

-- the KV pool, in token slots, that vLLM's accounting leaves for Llama-2-7B in fp16 on this
-- device (vram.serving: vLLM V1 under vllm serve, 90 % of the total minus weights and one profiled
-- forward; the CUDA context is outside that budget), and its max_num_seqs for this device
local function pool()
  local _, total = gpu.mem()
  local s = vram.serving { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 2048 }
  return s.max_tokens, s
end

local function sim(policy, tokens, block, max_seqs)
  return vram.serve_sim { requests = 1000, seed = 1, workload = "sharegpt", tokens = tokens, policy = policy,
                          block = block or 16, max_len = 2048, max_seqs = max_seqs }
end

return lesson {
  id = "5.3",
  chapter = 5,
  chapter_title = { en = "Memory at inference", zh = "推理时的显存" },
  title = { en = "Paged attention", zh = "分页注意力（PagedAttention）" },
  requires = { "gpu" },

  text { en = [[
# Paged attention

A server runs many sequences at once, and each needs its own KV cache (lesson 5.2). How long a
sequence will get is unknown when it arrives: the model stops when it emits its end token. A
system that stores each sequence's cache **contiguously** must reserve its space up front, and
Kwon et al. (2023, "Efficient Memory Management for Large Language Model Serving with
PagedAttention", SOSP) counted what that costs. Three kinds of waste:

- **reserved**: slots set aside for tokens not generated yet (they will be used, but not now);
- **internal fragmentation**: slots reserved beyond the length the sequence actually reaches;
- **external fragmentation**: free slots in pieces too small for the next reservation.

They measured the share of the KV memory that holds actual token states (sec. 1, fig. 2): in
Orca with a reservation of the maximum length, **20.4 %**; rounded up to a power of two,
**26.8 %**; even knowing every output length in advance, **38.2 %**. Hence the vLLM
announcement's "existing systems waste 60 % - 80 % of memory".

## Pages for the KV cache
vLLM cuts the pool into **blocks** of a fixed number of tokens (16 by default) and gives each
sequence a **block table**, as an operating system gives a process a page table: logical blocks
in order, physical blocks anywhere. A block is allocated only when the sequence's previous block
is full, so a sequence wastes at most the unfilled rest of its last block, and no free block is
ever too small. vLLM kept **96.3 %** of the KV memory holding token states (fig. 2); its
announcement puts the waste "under 4 %". The attention kernel reads K and V through the block
table (PagedAttention), so the blocks need not be adjacent.

When the pool runs out while running sequences still grow, vLLM **preempts** the latest-arrived
sequence: it frees its blocks and later recomputes its cache (the paper's vLLM could also swap
the blocks to host memory; the current engine, V1, only recomputes: lesson 5.5). Contiguous
reservations never preempt: they refuse to start a request instead.

> [!errata] "Paging adds overhead, so it serves fewer requests"
> The block-table indirection costs the attention kernel some time (the paper measures 20-26 %
> more kernel latency than FasterTransformer's kernel, sec. 7.1), but end to end vLLM served
> 2-4x the requests per second of Orca and FasterTransformer at the same latency (abstract, sec. 6):
> decode is limited by how many sequences fit (lesson 5.4), and paging fits 2-4x more.
> Source: Kwon et al. 2023, "PagedAttention", SOSP '23: abstract, sec. 6 (throughput) and
> sec. 7.1 (kernel overhead).
]], zh = [[
# 分页注意力（PagedAttention）

推理服务同时运行许多序列，每个都需要自己的 KV 缓存（第 5.2 节）。一个序列到来时并不知道它会生成多长：模型输出结束符才停。把每个序列的缓存**连续**存放的系统，必须事先为它预留空间。Kwon 等（2023，“Efficient Memory Management for Large Language Model Serving with PagedAttention”，SOSP）统计了这样做的代价。浪费有三种：

- **预留**：为还没生成的 token 预留的位置（以后会用到，但现在空着）；
- **内部碎片**：预留得比序列最终长度还多的位置；
- **外部碎片**：零散的空闲位置，小到放不下下一次预留。

他们测得 KV 显存中真正存放 token 状态的比例（第 1 节，图 2）：Orca 按最大长度预留时 **20.4 %**；向上取整到 2 的幂时 **26.8 %**；即使事先知道每个输出的长度，也只有 **38.2 %**。所以 vLLM 发布时说“现有系统浪费了 60 %–80 % 的显存”。

## 给 KV 缓存分页
vLLM 把缓存池切成固定 token 数的**块**（默认 16 个），给每个序列一张**块表**，就像操作系统给进程一张页表：逻辑块按顺序排列，物理块可以在任何地方。只有序列的上一个块写满时才分配新块，所以一个序列最多浪费它最后一个块中没填满的部分，也不存在“太小而放不下”的空闲块。vLLM 中 **96.3 %** 的 KV 显存都存着 token 状态（图 2）；发布文章说浪费“低于 4 %”。注意力核函数通过块表读取 K 和 V（PagedAttention），所以块不必相邻。

当正在运行的序列还在增长而缓存池用完时，vLLM 会**抢占**最晚到达的序列：释放它的块，之后重算它的缓存（论文里的 vLLM 也可以把块换出到主机内存；现在的引擎 V1 只做重算：第 5.5 节）。连续预留的方式从不抢占：它直接拒绝启动新请求。

> [!errata] “分页有开销，所以能服务的请求更少”
> 块表这层间接寻址确实让注意力核函数变慢一些（论文测得比 FasterTransformer 的核函数延迟高 20–26 %，第 7.1 节），但端到端来看，在相同延迟下 vLLM 每秒服务的请求数是 Orca 和 FasterTransformer 的 2–4 倍（摘要、第 6 节）：解码受限于能同时装下多少个序列（第 5.4 节），而分页能多装 2–4 倍。
> 出处：Kwon 等 2023，“PagedAttention”，SOSP '23：摘要、第 6 节（吞吐）和第 7.1 节（核函数开销）。
]] },

  exercise {
    id = "concurrency",
    kind = "predict",
    prompt = { en = "Predict, before the experiment below: it serves 1000 ShareGPT-like requests (161 prompt and 338 output tokens on average, at most 2048) from this device's KV pool for Llama-2-7B. With a 2048-slot reservation per request, Orca (Max) batches about 8 sequences at once on the simulated RTX 3090 (23.7 GiB as CUDA reports it). How many does paging batch on average, on this device?",
               zh = "在运行下面的实验之前先预测：它用本设备为 Llama-2-7B 留下的 KV 缓存池服务 1000 个类似 ShareGPT 的请求（平均提示 161、输出 338 个 token，最多 2048）。每个请求预留 2048 个位置时，模拟的 RTX 3090（CUDA 报告 23.7 GiB）上 Orca (Max) 平均同时批处理约 8 个序列。在本设备上，分页平均能同时批处理多少个？" },
    unit = "seqs", tolerance = 0.3,
    measure = function()
      local slots, sv = pool()
      return sim("paged", slots, nil, sv.max_num_seqs).concurrency.mean, true
    end,
    hints = { { en = "A reservation of 2048 slots holds about 500 tokens on average; paging gives a sequence only what it holds, plus part of one block.",
                zh = "2048 个位置的预留平均只存约 500 个 token；分页只给序列它实际存放的量，外加一个块的一部分。" } },
    explain = { en = "About 4x: each sequence takes only the slots its tokens fill, against 2048 reserved per sequence under Orca (Max), so the gain is near the ratio of 2048 to the ~500 tokens an average sequence holds; caches that grow until the sequence ends and preemptions that hand slots back and forth move it a little either way.",
                zh = "约 4 倍：每个序列只占它的 token 填满的位置，而 Orca (Max) 为每个序列预留 2048 个，所以提升接近 2048 与平均每序列约 500 个 token 之比；运行中序列的缓存一直增长到结束、抢占让位置来回转手，会让它上下略有偏离。" },
  },

  experiment {
    id = "serve",
    title = { en = "Serve 1000 requests: contiguous vs paged", zh = "服务 1000 个请求：连续 vs 分页" },
    intro = { en = [[
The KV pool is what vLLM's accounting leaves for Llama-2-7B in fp16 on **this device** (90 % of
its memory, minus weights and one profiled forward; the CUDA context sits outside that budget;
`vram.serving`), with vLLM's `max_num_seqs` for this device as the cap on a batch. 1000
requests with ShareGPT's mean lengths (161 prompt, 338 output tokens; exponential, at most
2048) all wait at step 0 and are served first come, first served, under each policy
(`vram.serve_sim`, a SIMULATION: nothing runs on the GPU).
]], zh = [[
KV 缓存池是 vLLM 的记账方式在**本设备**上为 fp16 的 Llama-2-7B 留下的空间（显存的 90 %，减去权重和一次剖析前向；CUDA 上下文在这个预算之外；`vram.serving`），并以 vLLM 在本设备上的 `max_num_seqs` 作为一批的上限。1000 个请求采用 ShareGPT 的平均长度（提示 161、输出 338 个 token；指数分布，最多 2048），全部在第 0 步排队，按先来先服务，在每种策略下各跑一遍（`vram.serve_sim`，是模拟：GPU 上什么也不运行）。
]] },
    panels = {
      { id = "c", kind = "bars", title = { en = "Sequences batched at once (mean)", zh = "同时批处理的序列数（平均）" }, unit = "seqs" },
      { id = "s", kind = "bars", title = { en = "KV memory holding token states", zh = "存放 token 状态的 KV 显存占比" }, unit = "%" },
      { id = "t", kind = "table", title = { en = "Per policy", zh = "各策略" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local slots, sv = pool()
      ex:row("t", { T("policy", "策略"), T("mean seqs", "平均序列数"), T("KV used", "KV 利用"), T("blocked", "碎片阻塞"),
                    T("preempted", "抢占"), T("steps", "步数") })
      local res = {}
      for _, p in ipairs(POLICIES) do
        ex:status(ex:t(p))
        local x = sim(p.p, slots, nil, sv.max_num_seqs)
        res[p.p] = x
        ex:row("t", { ex:t(p), string.format("%.1f", x.concurrency.mean), string.format("%.1f %%", 100 * x.token_share),
                      tostring(x.blocked_by_fragmentation), tostring(x.preemptions), tostring(x.steps) })
        ex:bar("s", ex:t(p), 100 * x.token_share, { style = "simulated", unit = "%" })
        ex:bar("s", ex:t(p) .. T(", paper", "，论文"), p.paper, { style = "reference", unit = "%" })
      end
      ex:note("t", T(string.format("Pool: %d token slots (%s) for Llama-2-7B fp16 on %s%s. 'blocked': steps in which the first waiting request had enough free slots in all, but not in one piece.",
                                   slots, units.bytes(sv.kv_pool), gpu.info().name or "this device", gpu.info().simulated and " (SIMULATED profile)" or ""),
                     string.format("缓存池：%d 个 token 位置（%s），fp16 的 Llama-2-7B，设备 %s%s。“碎片阻塞”：排在最前的请求所需的空闲位置总数够、却不连成一片的步数。",
                                   slots, units.bytes(sv.kv_pool), gpu.info().name or "本设备", gpu.info().simulated and "（模拟配置）" or "")))
      ex:note("s", T("Paper: Kwon et al. 2023, fig. 2 (OPT-13B on an A100 40GB, real traces); the simulation's lengths are synthetic, so compare the order and the gap, not the decimals.",
                     "论文：Kwon 等 2023 图 2（OPT-13B、A100 40GB、真实请求轨迹）；模拟的长度是合成的，比较的是排序和差距，不是小数位。"))
      if res.paged.concurrency.max >= sv.max_num_seqs then
        ex:note("c", T(string.format("This pool is large: paging reaches vLLM's max_num_seqs on this device (%d at once), which caps it before memory does.", sv.max_num_seqs),
                       string.format("这个缓存池很大：分页达到了 vLLM 在本设备上的 max_num_seqs（同时 %d 个），先于显存成为上限。", sv.max_num_seqs)))
      end
      for _, p in ipairs(POLICIES) do
        ex:bar("c", ex:t(p), res[p.p].concurrency.mean, { style = "simulated", unit = "seqs" })
      end
      ex:status(T("done", "完成"))
    end,
  },

  experiment {
    id = "block",
    title = { en = "Block size as a knob", zh = "块大小这个旋钮" },
    intro = { en = [[
The same pool and requests under paging, with blocks of 1 to 256 tokens. A larger block wastes
more of each sequence's last block; a smaller one means longer block tables and smaller reads
for the attention kernel (the paper settles on 16, sec. 7.2).
]], zh = [[
同样的缓存池和请求，采用分页，块大小从 1 到 256 个 token。块越大，每个序列最后一个块浪费得越多；块越小，块表越长，注意力核函数每次读取的数据越少（论文选择 16，第 7.2 节）。
]] },
    panels = {
      { id = "u", kind = "curve", title = { en = "KV memory holding token states", zh = "存放 token 状态的 KV 显存占比" }, x = "block (tokens)", y = "%", logx = true },
      { id = "t", kind = "table", title = { en = "Per block size", zh = "各块大小" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local slots, sv = pool()
      ex:row("t", { T("block", "块"), T("blocks", "块数"), T("mean seqs", "平均序列数"), T("KV used", "KV 利用"), T("preempted", "抢占") })
      -- largest blocks first: each is quicker to simulate than the next (block 1 takes about a
      -- second), so the first point comes at once and the table reads from coarse to fine
      for _, b in ipairs { 256, 64, 16, 4, 1 } do
        local x = sim("paged", slots, b, sv.max_num_seqs)
        ex:point("u", T("paged", "分页"), b, 100 * x.token_share)
        ex:row("t", { tostring(b), tostring(x.blocks), string.format("%.1f", x.concurrency.mean),
                      string.format("%.1f %%", 100 * x.token_share), tostring(x.preemptions) })
      end
      ex:note("t", T("SIMULATED (vram.serve_sim). The cost of tiny blocks is in the kernel, which this model does not time.",
                     "模拟（vram.serve_sim）。小块的代价在核函数里，这个模型不计时间。"))
      ex:status(T("done", "完成"))
    end,
  },

  exercise {
    id = "reserve",
    kind = "number",
    prompt = { en = "Orca (Max) reserves 2048 slots for a request. The request has 161 prompt tokens and ends after 338 output tokens. What percentage of its reservation ever holds a token?",
               zh = "Orca (Max) 为一个请求预留 2048 个位置。这个请求有 161 个提示 token，输出 338 个 token 后结束。它的预留中最终有百分之几存放过 token？" },
    answer = (161 + 338) / 2048 * 100, unit = "%", tolerance = 0.03,
    mistakes = { { value = 338 / 2048 * 100, say = { en = "The prompt's 161 tokens sit in the reservation too.", zh = "提示的 161 个 token 也放在预留空间里。" } } },
    hints = { { en = "Prompt plus output, over the reservation.", zh = "提示加输出，除以预留量。" } },
    explain = { en = "(161 + 338) / 2048 = 24.4 %; the other 75.6 % is internal fragmentation, and before the end most of the used part is only reserved.",
                zh = "(161 + 338) / 2048 = 24.4 %；其余 75.6 % 是内部碎片；而且在结束之前，已用部分的大多数也只是预留着。" },
  },

  exercise {
    id = "last-block",
    kind = "number",
    prompt = { en = "With blocks of 16 tokens, how many slots does a finished sequence of 1000 tokens leave unused?",
               zh = "块大小为 16 个 token 时，一个 1000 个 token 的已完成序列会留下多少个未使用的位置？" },
    answer = 8, unit = "slots", tolerance = 0.001,
    hints = { { en = "Only its last block can be partly empty. How many blocks does it need?", zh = "只有最后一个块可能没填满。它需要多少个块？" } },
    explain = { en = "ceil(1000 / 16) = 63 blocks = 1008 slots; 8 unused, 0.8 %. Paging bounds the waste by one block per sequence.",
                zh = "ceil(1000 / 16) = 63 个块 = 1008 个位置；8 个未使用，0.8 %。分页把浪费限制在每个序列一个块以内。" },
  },

  exercise {
    id = "why-block",
    kind = "choice",
    prompt = { en = "Why does vLLM not use blocks of one token, which would waste nothing?", zh = "为什么 vLLM 不用一个 token 一块，那样就完全不浪费了？" },
    choices = {
      { en = "cudaMalloc cannot allocate less than 16 tokens", zh = "cudaMalloc 分配不了少于 16 个 token 的空间" },
      { en = "Tiny blocks make block tables long and the attention kernel's reads small and scattered, which is slower", zh = "块太小会让块表变长，注意力核函数的读取又小又分散，更慢" },
      { en = "The model's heads need 16 tokens at a time", zh = "模型的头一次需要 16 个 token" },
    },
    answer = 2,
    hints = { { en = "Nothing is allocated per block with cudaMalloc: the pool is allocated once. What reads the blocks?", zh = "块并不是用 cudaMalloc 逐个分配的：缓存池一次性分配好。是谁在读这些块？" } },
    explain = { en = "The pool is one allocation; blocks are indices into it. Small blocks underuse the GPU's parallelism when the kernel reads them (Kwon et al. sec. 7.2); 16 balances that against the waste in the last block.",
                zh = "缓存池是一次分配的；块只是其中的下标。块太小，核函数读取时用不满 GPU 的并行度（Kwon 等第 7.2 节）；16 是在这一点和最后一个块的浪费之间取的平衡。" },
  },

  text { en = [[
> [!source] Sources
> Kwon, Li, Zhuang, Sheng, Zheng, Yu, Gonzalez, Zhang, Stoica 2023, "Efficient Memory Management
> for Large Language Model Serving with PagedAttention", SOSP '23: fig. 2 (20.4 / 26.8 / 38.2 /
> 96.3 %), sec. 4 (block tables, preemption), sec. 6 (throughput), sec. 7.1 (kernel overhead), 7.2
> (block size), fig. 11 (ShareGPT and Alpaca lengths). The vLLM announcement, "vLLM: Easy, Fast,
> and Cheap LLM Serving with PagedAttention" (vLLM blog, June 2023): "waste 60 % - 80 %", "under
> 4 %". vLLM's defaults (`block_size` 16, `gpu_memory_utilization` 0.90; `max_num_seqs` 1024 on a
> GPU with at least 70 GiB that is not an A100, 256 on the others, `EngineArgs.get_batch_defaults`):
> `vllm/engine/arg_utils.py`; V1's preemption frees the blocks and recomputes
> (`vllm/v1/core/sched/scheduler.py`). The simulation and its limits: `docs/vram-infer.md`.
]], zh = [[
> [!source] 出处
> Kwon、Li、Zhuang、Sheng、Zheng、Yu、Gonzalez、Zhang、Stoica 2023，“Efficient Memory Management for Large Language Model Serving with PagedAttention”，SOSP '23：图 2（20.4 / 26.8 / 38.2 / 96.3 %），第 4 节（块表、抢占），第 6 节（吞吐），第 7.1 节（核函数开销）、第 7.2 节（块大小），图 11（ShareGPT 和 Alpaca 的长度）。vLLM 发布文章 “vLLM: Easy, Fast, and Cheap LLM Serving with PagedAttention”（vLLM 博客，2023 年 6 月）：“浪费 60 %–80 %”、“低于 4 %”。vLLM 的默认值（`block_size` 16、`gpu_memory_utilization` 0.90；`max_num_seqs` 在至少 70 GiB 且不是 A100 的 GPU 上为 1024，其他为 256，见 `EngineArgs.get_batch_defaults`）：`vllm/engine/arg_utils.py`；V1 的抢占释放块并重算（`vllm/v1/core/sched/scheduler.py`）。模拟及其局限见 `docs/vram-infer.md`。
]] },
}
