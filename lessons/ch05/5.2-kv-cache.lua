-- Lesson 5.2: the KV cache per token for MHA, GQA, MQA and MLA from published configs (vram.kv),
-- and the cache grown token by token through the caching allocator, by torch.cat-style
-- reallocation and preallocated (vram.kv_growth replayed into alloc.caching).
local MiB = units.MiB
local PROMPT, NEW = 1536, 512

-- replay the growth of Llama-2-7B's cache in `mode` into a caching allocator on this backend;
-- every: called as every(step, stats) after each decode step. Returns the stats at the end and
-- the allocator's map (the allocator is closed before returning).
local function grow(mode, every)
  local g = vram.kv_growth { model = "llama-2-7b", prompt = PROMPT, new_tokens = NEW, mode = mode }
  local a <close> = alloc.caching {}
  local live, step = {}, -1
  for _, e in ipairs(g.events) do
    if e.step ~= step and every then every(step, a:stats()) end
    step = e.step
    if e.op == "alloc" then
      local b, err = a:malloc(e.bytes, e.name)
      if not b then return nil, err end
      live[e.id] = b
    else
      a:free(live[e.id]); live[e.id] = nil
    end
  end
  if every then every(step, a:stats()) end
  local blocks, total = a:map { max = 16 }
  return a:stats(), blocks, total, g
end

return lesson {
  id = "5.2",
  chapter = 5,
  chapter_title = { en = "Memory at inference", zh = "推理时的显存" },
  title = { en = "The KV cache", zh = "KV 缓存" },
  requires = { "gpu" },

  text { en = [[
# The KV cache

A transformer generating text attends, at every new token, to the keys and values of all the
tokens before it. Recomputing them each step would cost a full prefill per token, so they are
kept: the **KV cache**. For every token, every layer stores a key and a value vector per KV head:

```
bytes per token = 2 (K and V) x layers x kv_heads x head_dim x bytes per element
```

It grows with every token of every sequence, and unlike the weights it is paid **per
sequence**: batch 8 means eight caches.

## MHA, GQA, MQA, MLA
- **MHA** (multi-head attention): one KV head per query head.
- **GQA** (grouped-query, Ainslie et al. 2023): groups of query heads share a KV head; the cache
  shrinks by heads / kv_heads. **MQA** (Shazeer 2019) is the extreme, one KV head.
- **MLA** (multi-head latent attention, DeepSeek-V2): each layer caches one compressed latent
  c_KV of kv_lora_rank = 512 and a decoupled RoPE key of 64 per token, and rebuilds K and V from
  the latent: (512 + 64) x layers x bytes.

| model (config.json) | attention | layers x kv heads x head dim | per token, fp16 | 4096 tokens |
|---|---|---|---|---|
| Llama-2-7B | MHA | 32 x 32 x 128 | 512 KiB | 2.00 GiB |
| Llama-3-8B | GQA 32/8 | 32 x 8 x 128 | 128 KiB | 512 MiB |
| Mistral-7B-v0.1 | GQA 32/8, window 4096 | 32 x 8 x 128 | 128 KiB | 512 MiB (never more) |
| Llama-2-70B | GQA 64/8 | 80 x 8 x 128 | 320 KiB | 1.25 GiB |
| DeepSeek-V2 (236B) | MLA | 60 x (512 + 64) | 67.5 KiB | 270 MiB |

Llama-2-7B: 2 x 32 x 32 x 128 x 2 B = 524,288 B per token; x 4096 tokens = **2 GiB exactly**.
Llama-2-70B is ten times larger than Llama-2-7B but its cache per token is smaller (320 vs 512
KiB): GQA with 8 KV heads for 64 query heads. Mistral attends to the last 4096 tokens only (its
sliding window), so a rolling-buffer cache (the paper's, vLLM's) stops growing there. So does
Hugging Face's `DynamicCache` when it is built from the model's config, as `generate()` builds it
in current Transformers: a config with `sliding_window` gets a `DynamicSlidingWindowLayer` per
layer, which keeps the last 4095 tokens after each step (it still grows by `torch.cat` up to
there). An older Transformers, or a `DynamicCache()` made without the config, keeps every token.
DeepSeek-V2's MLA cache is 1.76 %
of what MHA with its 128 heads of 128 would store (3.75 MiB per token).

> [!errata] "GQA makes the model smaller" and "the KV cache is small next to the weights"
> GQA shrinks the KV projections and the cache, not the model's size class: Llama-3-8B has more
> parameters than Llama-2-7B, and a quarter of its cache per token. And the cache is not small:
> Llama-2-7B at batch 8 and 4096 tokens holds 16 GiB of cache, more than its 12.55 GiB of fp16
> weights.
> Source: config.json of `meta-llama/Llama-2-7b-hf` and `meta-llama/Meta-Llama-3-8B` (the shapes
> that give their parameters and KV bytes per token); Ainslie et al. 2023 (GQA).

## How the cache is allocated
Hugging Face's `DynamicCache` grows by **concatenation**: every decode step, every layer's K and
V become `torch.cat([past, new])`, a tensor one token longer, allocated before the old one is
freed. The whole cache is copied once per token, and the caching allocator sees ever-larger
requests. A **static** cache (`StaticCache`, or a serving engine's pool) allocates K and V for
the maximum length once. The experiment replays both, for Llama-2-7B growing from a 1536-token
prompt by 512 tokens, through vramlab's model of PyTorch's caching allocator (real `cudaMalloc`
segments on a GPU).
]], zh = [[
# KV 缓存

Transformer 生成文本时，每个新 token 都要对之前所有 token 的键（key）和值（value）做注意力。每一步都重算它们等于每个 token 做一次完整的 prefill，所以要把它们存下来：这就是 **KV 缓存**。每个 token 在每一层、每个 KV 头都要存一个键向量和一个值向量：

```
每个 token 的字节数 = 2（K 和 V）× 层数 × KV 头数 × 头维度 × 每个元素的字节数
```

它随每个序列的每个 token 增长；而且和权重不同，它是**按序列**付费的：batch 8 就是八份缓存。

## MHA、GQA、MQA、MLA
- **MHA**（多头注意力）：每个查询头对应一个 KV 头。
- **GQA**（分组查询注意力，Ainslie 等 2023）：一组查询头共享一个 KV 头；缓存缩小为原来的 kv_heads / heads。**MQA**（Shazeer 2019）是极端情况，只有一个 KV 头。
- **MLA**（多头潜在注意力，DeepSeek-V2）：每层每个 token 只缓存一个 kv_lora_rank = 512 的压缩潜向量 c_KV 和一个 64 维的解耦 RoPE 键，K 和 V 从潜向量重建：(512 + 64) × 层数 × 字节数。

| 模型（config.json） | 注意力 | 层 × KV 头 × 头维度 | 每 token，fp16 | 4096 个 token |
|---|---|---|---|---|
| Llama-2-7B | MHA | 32 × 32 × 128 | 512 KiB | 2.00 GiB |
| Llama-3-8B | GQA 32/8 | 32 × 8 × 128 | 128 KiB | 512 MiB |
| Mistral-7B-v0.1 | GQA 32/8，窗口 4096 | 32 × 8 × 128 | 128 KiB | 512 MiB（不再增长） |
| Llama-2-70B | GQA 64/8 | 80 × 8 × 128 | 320 KiB | 1.25 GiB |
| DeepSeek-V2（236B） | MLA | 60 × (512 + 64) | 67.5 KiB | 270 MiB |

Llama-2-7B：2 × 32 × 32 × 128 × 2 B = 524,288 B 每 token；× 4096 个 token = **正好 2 GiB**。Llama-2-70B 比 Llama-2-7B 大十倍，每 token 的缓存却更小（320 vs 512 KiB）：64 个查询头配 8 个 KV 头的 GQA。Mistral 只对最近 4096 个 token 做注意力（它的滑动窗口），所以滚动缓冲区式的缓存（论文和 vLLM 的做法）到那里就不再增长。Hugging Face 的 `DynamicCache` 按模型配置构建时也是如此（当前 Transformers 的 `generate()` 就这样构建）：配置里有 `sliding_window` 的模型每层得到一个 `DynamicSlidingWindowLayer`，每步之后只保留最近 4095 个 token（在那之前仍靠 `torch.cat` 增长）。旧版 Transformers，或不带配置创建的 `DynamicCache()`，才会保留每一个 token。DeepSeek-V2 的 MLA 缓存只有同样 128 个 128 维头的 MHA 的 1.76 %（后者每 token 3.75 MiB）。

> [!errata] “GQA 让模型变小了”和“KV 缓存比起权重来很小”
> GQA 缩小的是 KV 投影和缓存，不是模型的规模：Llama-3-8B 的参数比 Llama-2-7B 多，每 token 的缓存却只有它的四分之一。缓存也并不小：Llama-2-7B 在 batch 8、4096 个 token 时缓存有 16 GiB，比它 12.55 GiB 的 fp16 权重还多。
> 出处：`meta-llama/Llama-2-7b-hf` 和 `meta-llama/Meta-Llama-3-8B` 的 config.json（由其结构得出参数量和每 token 的 KV 字节数）；Ainslie 等 2023（GQA）。

## 缓存是怎么分配的
Hugging Face 的 `DynamicCache` 靠**拼接**增长：每个解码步，每一层的 K 和 V 都变成 `torch.cat([past, new])`，一个长一个 token 的新张量，先分配新的再释放旧的。每个 token 都要把整个缓存复制一遍，缓存分配器看到的请求越来越大。**静态**缓存（`StaticCache`，或推理服务引擎的缓存池）一次性按最大长度分配 K 和 V。实验把两种方式都回放一遍：Llama-2-7B 从 1536 个 token 的提示开始再增长 512 个 token，经过 vramlab 的 PyTorch 缓存分配器模型（有 GPU 时段是真实的 `cudaMalloc`）。
]] },

  exercise {
    id = "segments",
    kind = "predict",
    prompt = { en = "Predict: growing Llama-2-7B's cache from 1536 to 2048 tokens by torch.cat makes 32,832 tensor allocations. How many cudaMalloc calls does the caching allocator make?",
               zh = "预测：用 torch.cat 把 Llama-2-7B 的缓存从 1536 个 token 增长到 2048 个，共 32,832 次张量分配。缓存分配器会调用多少次 cudaMalloc？" },
    unit = "calls", tolerance = 0.3,
    measure = function()
      local s = assert(grow("concat"))
      return s.num_device_alloc, s
    end,
    hints = { { en = "A request larger than every cached free block needs a new segment; a shorter freed tensor can be reused only by a request that fits in it.",
                zh = "比所有缓存空闲块都大的请求需要一个新段；释放掉的较短张量只能给装得下的请求复用。" } },
    explain = { en = "A few hundred, not tens of thousands: the cache serves most requests, but a freed K or V is always one token short of the next request, so as the cache grows the allocator keeps reserving segments (194 with PyTorch's rules) and holds 2.65 GiB for 1 GiB of cache.",
                zh = "是几百次，而不是几万次：大多数请求由缓存供给，但释放的 K 或 V 对下一个请求总是短一个 token，所以缓存增长时分配器不断预留新段（按 PyTorch 的规则为 194 次），为 1 GiB 的缓存占着 2.65 GiB。" },
  },

  experiment {
    id = "growth",
    title = { en = "Grow a KV cache: torch.cat vs preallocated", zh = "让 KV 缓存增长：torch.cat vs 预分配" },
    intro = { en = [[
Llama-2-7B, fp16, batch 1: a 1536-token prompt, then 512 decode steps. **concat**: each step
every layer's K and V are reallocated one token longer (`DynamicCache`); **prealloc**: K and V
of 2048 tokens per layer, allocated once (`StaticCache`). Both run through a caching allocator
on this backend; the curve samples every 16 steps.
]], zh = [[
Llama-2-7B，fp16，batch 1：1536 个 token 的提示，然后 512 个解码步。**concat**：每一步每一层的 K 和 V 都重新分配成长一个 token 的张量（`DynamicCache`）；**prealloc**：每层一次性分配 2048 个 token 的 K 和 V（`StaticCache`）。两者都经过本后端上的缓存分配器；曲线每 16 步取一个点。
]] },
    panels = {
      { id = "c", kind = "curve", title = { en = "Reserved and allocated by decode step", zh = "各解码步的已预留与已分配" }, x = "step", y = "MiB" },
      { id = "t", kind = "table", title = { en = "concat vs prealloc", zh = "concat 对比 prealloc" } },
      { id = "m", kind = "map", title = { en = "concat: segments at the end", zh = "concat：结束时的段" } },
      { id = "r", kind = "bars", title = { en = "Peak reserved", zh = "已预留峰值" }, unit = "MiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local res = {}
      for _, mode in ipairs { "concat", "prealloc" } do
        ex:status(T("replaying " .. mode, "回放 " .. mode))
        local s, blocks, total, g = grow(mode, function(step, st)
          if step >= 0 and step % 16 == 0 then
            ex:point("c", mode .. T(" reserved", " 已预留"), step, st.reserved / MiB)
            if mode == "concat" then ex:point("c", mode .. T(" allocated", " 已分配"), step, st.allocated / MiB) end
          end
        end)
        if not s then ex:note("t", blocks); ex:status(T("failed", "失败")); return end
        res[mode] = { s = s, g = g }
        if mode == "concat" then ex:map("m", blocks, total) end
        -- a static cache is written in place while decoding: its allocator state stays as it is
        if mode == "prealloc" then
          for step = 16, NEW, 16 do ex:point("c", mode .. T(" reserved", " 已预留"), step, s.reserved / MiB) end
        end
      end
      local c, p = res.concat, res.prealloc
      local per = vram.kv { model = "llama-2-7b", tokens = 1 }.per_token
      -- concat copies the old cache into the new tensor each step: prompt + s - 1 tokens at step s
      local copied = 0
      for s = 1, NEW do copied = copied + (PROMPT + s - 1) * per end
      ex:row("t", { "", "concat", "prealloc" })
      ex:row("t", { T("tensor allocations", "张量分配次数"), tostring(c.s.alloc_count), tostring(p.s.alloc_count) })
      ex:row("t", { T("cudaMalloc calls", "cudaMalloc 次数"), tostring(c.s.num_device_alloc), tostring(p.s.num_device_alloc) })
      ex:row("t", { T("peak reserved", "已预留峰值"), units.bytes(c.s.peak_reserved), units.bytes(p.s.peak_reserved) })
      ex:row("t", { T("allocated at the end", "结束时已分配"), units.bytes(c.s.allocated), units.bytes(p.s.allocated) })
      ex:row("t", { T("reserved - allocated", "已预留 − 已分配"), units.bytes(c.s.reserved - c.s.allocated), units.bytes(p.s.reserved - p.s.allocated) })
      ex:row("t", { T("bytes copied", "复制的字节"), units.si(copied), "0 B" })
      ex:note("t", T(string.format("The cache holds %s at the end either way (%d tokens x 512 KiB). concat reallocated it %d times and copied %s to do so.",
                                   units.bytes(p.g.used), PROMPT + NEW, c.s.alloc_count, units.si(copied)),
                     string.format("两种方式最后缓存都是 %s（%d 个 token × 512 KiB）。concat 为此重新分配了 %d 次，复制了 %s。",
                                   units.bytes(p.g.used), PROMPT + NEW, c.s.alloc_count, units.si(copied))))
      ex:note("m", T("Cached free blocks beside live ones: the old, shorter K and V tensors that no longer fit a longer request.",
                     "活跃块旁边的缓存空闲块：旧的、较短的 K、V 张量，已装不下更长的请求。"))
      if c.s.simulated then ex:note("r", T("SIMULATED backend: the segments are the simulator's.", "模拟后端：段由模拟器提供。")) end
      ex:bar("r", T("prealloc, peak reserved", "prealloc 已预留峰值"), p.s.peak_reserved / MiB, { from = p.s })
      ex:bar("r", T("concat, peak reserved", "concat 已预留峰值"), c.s.peak_reserved / MiB, { from = c.s })
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
## Reading the result
Both caches end holding the same 1 GiB. Preallocation makes 64 tensors of 16 MiB (K and V for 32
layers), each in its own `cudaMalloc` segment (10 MiB and more: one segment, rounded to 2 MiB),
and reserves exactly what it holds. The concatenating cache made 32,832 tensor allocations. Each
K or V is over 10 MiB, so it gets a segment of its own, and the tensor it replaces, freed a
moment later, is always one token (8 KiB: 32 KV heads x 128 x 2 B, for K or V alone) too short
for the next request: the cache fills with
free blocks that no later request fits. The allocator reserves **2.65 GiB for a 1 GiB cache**,
and that is what `nvidia-smi` shows until `empty_cache()`. It also copied the whole cache at
every token: 481 GB copied for 512 tokens, each byte read once and written once. This is why generation with a static
cache, and engines with a block pool (lesson 5.3), use less memory and run faster.

> [!pitfall] Sizes near the segment classes
> Preallocated is not automatically exact. With 1024 tokens each K or V is 8 MiB, in the 1-10 MiB
> class that shares 20 MiB segments: two tensors per segment and 4 MiB left over in each, 640 MiB
> reserved for 512 MiB. Check `memory_reserved()`, not only `memory_allocated()`.
]], zh = [[
## 怎么读结果
两种缓存最后都装着同样的 1 GiB。预分配只做了 64 个 16 MiB 的张量（32 层的 K 和 V），每个占一个独立的 `cudaMalloc` 段（10 MiB 及以上：独占一个段，按 2 MiB 取整），预留的正好等于实际占用。拼接式缓存做了 32,832 次张量分配。每个 K 或 V 都超过 10 MiB，各占一个独立的段；而它所替换的、稍后被释放的旧张量，对下一个请求来说永远短了一个 token（8 KiB：32 个 KV 头 × 128 × 2 B，K 或 V 单独一个）：缓存里堆满了后续请求都装不进去的空闲块。分配器为 1 GiB 的缓存**预留了 2.65 GiB**，在 `empty_cache()` 之前 `nvidia-smi` 显示的就是它。而且每个 token 都把整个缓存复制一遍：512 个 token 共复制 481 GB，每个字节读一次、写一次。这就是为什么用静态缓存的生成，以及使用块池的推理引擎（第 5.3 节），显存更省、速度更快。

> [!pitfall] 尺寸靠近段的分级边界
> 预分配并不自动等于精确。1024 个 token 时每个 K 或 V 是 8 MiB，落在 1–10 MiB 这一级，共用 20 MiB 的段：每段放两个张量，各剩 4 MiB，为 512 MiB 预留了 640 MiB。要看 `memory_reserved()`，而不只是 `memory_allocated()`。
]] },

  exercise {
    id = "kv-7b",
    kind = "number",
    prompt = { en = "Llama-2-7B (32 layers, 32 KV heads of 128, fp16): how many GiB of KV cache (K and V together, all layers) does one sequence of 4096 tokens hold?",
               zh = "Llama-2-7B（32 层，32 个 128 维 KV 头，fp16）：一个 4096 个 token 的序列有多少 GiB 的 KV 缓存（K 和 V 合计，所有层）？" },
    answer = 2, unit = "GiB", tolerance = 0.01,
    mistakes = { { factor = 2, say = { en = "Check what is counted twice: a key AND a value per KV head, per layer (and fp16 is 2 bytes).",
                                       zh = "检查哪些要算两次：每层每个 KV 头既有键也有值（而且 fp16 是 2 字节）。" } } },
    hints = { { en = "Every layer stores a key AND a value vector for each KV head.", zh = "每一层为每个 KV 头既存键向量也存值向量。" } },
    explain = { en = "2 x 32 x 32 x 128 x 2 B = 524,288 B per token; x 4096 = 2,147,483,648 B = 2 GiB.",
                zh = "2 × 32 × 32 × 128 × 2 B = 524,288 B 每 token；× 4096 = 2,147,483,648 B = 2 GiB。" },
  },

  exercise {
    id = "kv-gqa",
    kind = "number",
    prompt = { en = "Llama-3-8B has 32 layers, 32 query heads but 8 KV heads, head dim 128. KV cache per token in fp16 (K and V together, all layers), in KiB?",
               zh = "Llama-3-8B 有 32 层、32 个查询头但只有 8 个 KV 头，头维度 128。fp16 下每 token 的 KV 缓存（K 和 V 合计，所有层）是多少 KiB？" },
    answer = 128, unit = "KiB", tolerance = 0.01,
    mistakes = { { value = 512, say = { en = "That counts the 32 query heads: only the 8 KV heads are cached.", zh = "那是按 32 个查询头算的：只有 8 个 KV 头被缓存。" } },
                 { factor = 2, say = { en = "Check what is counted twice: K and V, 2 bytes each in fp16.", zh = "检查哪些要算两次：K 和 V，fp16 每个 2 字节。" } } },
    hints = { { en = "Only the KV heads are cached; the query heads are not.", zh = "缓存的只有 KV 头，查询头不缓存。" } },
    explain = { en = "2 x 32 x 8 x 128 x 2 B = 131,072 B = 128 KiB, a quarter of Llama-2-7B's 512 KiB.",
                zh = "2 × 32 × 8 × 128 × 2 B = 131,072 B = 128 KiB，是 Llama-2-7B 512 KiB 的四分之一。" },
  },

  exercise {
    id = "mla",
    kind = "choice",
    prompt = { en = "What does DeepSeek-V2's MLA cache per token per layer?", zh = "DeepSeek-V2 的 MLA 每层每个 token 缓存什么？" },
    choices = {
      { en = "K and V for each of its 128 heads, in fp8", zh = "128 个头各自的 K 和 V，用 fp8 存" },
      { en = "One K and V head shared by all query heads (MQA)", zh = "所有查询头共享的一个 K 头和一个 V 头（MQA）" },
      { en = "A 512-dim compressed latent and a 64-dim RoPE key; K and V are rebuilt from the latent", zh = "一个 512 维压缩潜向量和一个 64 维 RoPE 键；K 和 V 由潜向量重建" },
      { en = "Nothing: it recomputes attention from the tokens", zh = "什么也不存：从 token 重新计算注意力" },
    },
    answer = 3,
    hints = { { en = "The L in MLA is for latent; the positional part cannot be compressed with it.", zh = "MLA 里的 L 是 latent（潜在）；位置编码的那部分无法一起压缩。" } },
    explain = { en = "(512 + 64) x 60 layers x 2 B = 69,120 B per token: 1.76 % of MHA with 128 heads of 128 (DeepSeek-V2 paper, sec. 2.1, table 1).",
                zh = "(512 + 64) × 60 层 × 2 B = 69,120 B 每 token：是 128 个 128 维头的 MHA 的 1.76 %（DeepSeek-V2 论文第 2.1 节、表 1）。" },
  },

  exercise {
    id = "from-config",
    kind = "code",
    prompt = { en = [[
Write `kv_per_token(cfg, bytes)`: the KV-cache bytes per token of a model, from the fields of
its Hugging Face `config.json` (`num_hidden_layers`, `hidden_size`, `num_attention_heads`, and
`num_key_value_heads`, which older configs leave out) and the bytes per element. Checked on
Llama-2-7B, Llama-3-8B, Mistral-7B, Llama-2-70B and OPT-13B against `vram.kv`.
]], zh = [[
写一个函数 `kv_per_token(cfg, bytes)`：根据 Hugging Face `config.json` 的字段（`num_hidden_layers`、`hidden_size`、`num_attention_heads`，以及较老的配置里没有的 `num_key_value_heads`）和每个元素的字节数，算出模型每个 token 的 KV 缓存字节数。会在 Llama-2-7B、Llama-3-8B、Mistral-7B、Llama-2-70B 和 OPT-13B 上与 `vram.kv` 比对。
]] },
    entry = "kv_per_token",
    starter = "function kv_per_token(cfg, bytes)\n  return 0\nend\n",
    check = function(fn)
      for _, id in ipairs { "llama-2-7b", "llama-3-8b", "mistral-7b", "llama-2-70b", "opt-13b" } do
        local m = vram.model(id)
        -- the config as published: OPT's has no num_key_value_heads
        local cfg = { num_hidden_layers = m.layers, hidden_size = m.hidden, num_attention_heads = m.heads }
        if id ~= "opt-13b" then cfg.num_key_value_heads = m.kv_heads end
        for _, dt in ipairs { { "fp16", 2 }, { "fp8", 1 } } do
          local want = vram.kv { model = id, dtype = dt[1] }.per_token
          local ok, got = pcall(fn, cfg, dt[2])
          if not ok then return false, { en = id .. ": error: " .. tostring(got), zh = id .. "：出错：" .. tostring(got) } end
          if got ~= want then
            return false, { en = string.format("%s, %d B per element: got %s, want %d", id, dt[2], tostring(got), want),
                            zh = string.format("%s，每元素 %d B：得到 %s，应为 %d", id, dt[2], tostring(got), want) }
          end
        end
      end
      return true
    end,
    hints = { { en = "head_dim = hidden_size / num_attention_heads; without num_key_value_heads every query head has its own KV head (MHA).",
                zh = "head_dim = hidden_size / num_attention_heads；没有 num_key_value_heads 时每个查询头都有自己的 KV 头（MHA）。" } },
    explain = { en = "function kv_per_token(c, b) local kv = c.num_key_value_heads or c.num_attention_heads; return 2 * c.num_hidden_layers * kv * (c.hidden_size // c.num_attention_heads) * b end -- as Transformers reads the config.",
                zh = "function kv_per_token(c, b) local kv = c.num_key_value_heads or c.num_attention_heads; return 2 * c.num_hidden_layers * kv * (c.hidden_size // c.num_attention_heads) * b end —— 和 Transformers 读取配置的方式相同。" },
  },

  text { en = [[
> [!source] Sources
> config.json of `meta-llama/Llama-2-7b-hf`, `meta-llama/Meta-Llama-3-8B`,
> `mistralai/Mistral-7B-v0.1`, `meta-llama/Llama-2-70b-hf`, `deepseek-ai/DeepSeek-V2`
> (`num_hidden_layers`, `num_key_value_heads`, `kv_lora_rank`, `qk_rope_head_dim`). GQA: Ainslie
> et al. 2023; MQA: Shazeer 2019; MLA: DeepSeek-AI 2024, "DeepSeek-V2", sec. 2.1; Mistral's
> rolling buffer: Jiang et al. 2023, sec. 2. `DynamicCache` (built from the config:
> `DynamicSlidingWindowLayer` for sliding layers, which keeps `sliding_window - 1` tokens),
> `StaticCache`: Hugging Face Transformers `src/transformers/cache_utils.py`; `generate()` builds
> it with the config (`generation/utils.py`, `_prepare_cache_for_generation`). The allocator's rules: lesson 2.2 and `docs/allocator.md`.
]], zh = [[
> [!source] 出处
> `meta-llama/Llama-2-7b-hf`、`meta-llama/Meta-Llama-3-8B`、`mistralai/Mistral-7B-v0.1`、`meta-llama/Llama-2-70b-hf`、`deepseek-ai/DeepSeek-V2` 的 config.json（`num_hidden_layers`、`num_key_value_heads`、`kv_lora_rank`、`qk_rope_head_dim`）。GQA：Ainslie 等 2023；MQA：Shazeer 2019；MLA：DeepSeek-AI 2024，“DeepSeek-V2” 第 2.1 节；Mistral 的滚动缓冲区：Jiang 等 2023 第 2 节。`DynamicCache`（按配置构建：滑动窗口层用 `DynamicSlidingWindowLayer`，保留 `sliding_window - 1` 个 token）和 `StaticCache`：Hugging Face Transformers 的 `src/transformers/cache_utils.py`；`generate()` 用配置构建它（`generation/utils.py`，`_prepare_cache_for_generation`）。分配器规则：第 2.2 节和 `docs/allocator.md`。
]] },
}
