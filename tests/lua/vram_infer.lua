-- The chapter 5 estimators against published figures and independent arithmetic: model shapes
-- and parameter counts from config.json, the KV cache per token (MHA, GQA, sliding window, MLA,
-- the vLLM paper's OPT-13B), quantised weights counted from the GPTQ/AWQ/bitsandbytes layouts,
-- "7B on 16 GB", KV growth replayed through the caching allocator, the roofline, serving within a
-- budget, and the paged-attention simulation (determinism, conservation, the paper's ordering).
local fmt = string.format
local GiB, MiB = 2^30, 2^20
local function eq(a, b, what) assert(a == b, fmt("%s: got %s, want %s", what, tostring(a), tostring(b))) end
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), fmt("%s: got %.6g, want %.6g", what, a, b))
end
local function raises(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching '" .. pattern .. "'")
  assert(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) .. "' does not contain '" .. pattern .. "'")
end

-- model shapes: every one cites its config.json; parameter counts as published
local models = vram.models()
assert(#models >= 7, "model table")
for _, m in ipairs(models) do
  assert(m.source:find("config.json", 1, true), m.id .. " cites its config.json")
  assert(m.hidden % m.head_dim == 0 or m.attention == "mla", m.id .. " head_dim")
end
eq(vram.model("llama-2-7b").params, 6738415616, "Llama-2-7B parameters")
eq(vram.model("Llama-3-8B").params, 8030261248, "Llama-3-8B parameters (case-insensitive id)")
near(vram.model("mistral-7b").params, 7.24e9, 0.001, "Mistral-7B 7.24B")
near(vram.model("llama-2-70b").params, 68.98e9, 0.001, "Llama-2-70B 68.98B")
near(vram.model("llama-3-70b").params, 70.55e9, 0.001, "Llama-3-70B 70.55B")
eq(vram.model("deepseek-v2").params, 236e9, "DeepSeek-V2 236B (model card)")
eq(vram.model("llama-2-7b").attention, "mha", "MHA"); eq(vram.model("llama-3-8b").attention, "gqa", "GQA")
eq(vram.model("deepseek-v2").attention, "mla", "MLA")
models[1].layers = 1
eq(vram.model("llama-2-7b").layers, 32, "models() hands out copies")
raises("unknown model 'llama-9' (models: llama-2-7b, llama-2-70b", vram.model, "llama-9")

-- the KV cache: Llama-2-7B at 4096 tokens in fp16 = 2 GiB exactly
local kv7 = vram.kv { model = "llama-2-7b", tokens = 4096 }
eq(kv7.total, 32 * 32 * 128 * 2 * 2 * 4096, "32 layers x 32 heads x 128 x 2 (K, V) x 2 B x 4096")
eq(kv7.total, 2 * GiB, "2 GiB"); eq(kv7.per_token, 512 * 1024, "512 KiB per token"); eq(kv7.kind, "mha", "kind")
eq(vram.kv_cache { layers = 32, kv_heads = 32, head_dim = 128, tokens = 4096 }, kv7.total, "vram.kv_cache agrees")
eq(vram.kv { model = "llama-3-8b", tokens = 4096 }.total, GiB / 2, "Llama-3-8B: GQA, 8 KV heads of 32: a quarter")
eq(vram.kv { model = "llama-2-70b" }.per_token, 2 * 80 * 8 * 128 * 2, "Llama-2-70B per token")
eq(vram.kv { layers = 32, kv_heads = 1, head_dim = 128, heads = 32 }.kind, "mqa", "one KV head: MQA")
eq(vram.kv { model = "llama-2-7b", tokens = 10, batch = 3, dtype = "fp8" }.total, 10 * 3 * 256 * 1024, "batch x fp8")
-- Mistral's rolling buffer keeps the last 4096 tokens
eq(vram.kv { model = "mistral-7b", tokens = 32768 }.total, 4096 * 131072, "sliding window")
eq(vram.kv { model = "mistral-7b", tokens = 32768, window = false }.total, 32768 * 131072, "window = false keeps all")
-- MLA (DeepSeek-V2, sec. 2.1): (d_c + d_h^R) x layers elements per token = (512 + 64) x 60
local mla = vram.kv { model = "deepseek-v2" }
eq(mla.per_token, (512 + 64) * 60 * 2, "69,120 B per token"); eq(mla.kind, "mla", "kind")
local mha_equiv = 2 * 128 * 128 * 60 * 2
near(mla.per_token / mha_equiv, 576 / 32768, 1e-12, "1.76 % of MHA with 128 heads of 128")
eq(vram.kv { layers = 60, kv_lora_rank = 512, rope_head_dim = 64 }.per_token, mla.per_token, "MLA by shape")
-- the vLLM paper (Kwon et al. 2023, sec. 3): OPT-13B needs 800 KB per token, 2 x 5120 x 40 x 2;
-- table 1: 12 GB (GiB) of KV cache on a 40 GB A100 holds 15.7K token slots
local opt = vram.kv { model = "opt-13b" }
eq(opt.per_token, 2 * 5120 * 40 * 2, "OPT-13B 819,200 B per token")
eq(math.floor(12 * GiB / opt.per_token), 15728, "15.7K slots")
raises("'tokens' must be a whole number", vram.kv, { model = "llama-2-7b", tokens = 1.5 })
raises("unknown dtype 'fp3'", vram.kv, { model = "llama-2-7b", dtype = "fp3" })

-- quantised weights, counted from the formats' own tensors
local fp16 = vram.quantized { model = "llama-2-7b" }
eq(fp16.total, 2 * 6738415616, "fp16: 13.48 GB"); eq(fp16.kept + fp16.packed, fp16.total, "fp16 parts")
-- GPTQ (AutoGPTQ QuantLinear): qweight in*out*bits/8, qzeros and scales per group of 128 input
-- rows, an int32 g_idx per input row; embeddings, LM head and norms stay fp16
local lin = { { 4096, 4096 }, { 4096, 4096 }, { 4096, 4096 }, { 4096, 4096 }, { 4096, 11008 }, { 4096, 11008 }, { 11008, 4096 } }
local packed, scales, zeros, gidx, qp = 0, 0, 0, 0, 0
for _, l in ipairs(lin) do
  local i, o = l[1], l[2]
  local groups = math.ceil(i / 128)
  packed = packed + i * o / 2; scales = scales + groups * o * 2; zeros = zeros + groups * o / 2; gidx = gidx + 4 * i
  qp = qp + i * o
end
local gq = vram.quantized { model = "llama-2-7b", scheme = "gptq", bits = 4, group = 128 }
eq(gq.packed, 32 * packed, "GPTQ packed"); eq(gq.scales, 32 * scales, "GPTQ scales"); eq(gq.zeros, 32 * zeros, "GPTQ zeros")
eq(gq.g_idx, 32 * gidx, "GPTQ g_idx"); eq(gq.kept, 2 * (6738415616 - 32 * qp), "GPTQ keeps embeddings and norms in fp16")
eq(gq.total, 3893862400, "Llama-2-7B GPTQ 4-bit g128: 3.89 GB")
assert(gq.total > 6738415616 * vram.dtype_bytes("int4"), "more than 'half a byte per weight'")
near(gq.bits_per_weight, 4 + 16 / 128 + 4 / 128 + 32 * (6 * 4096 + 11008) / qp, 1e-12, "4.16 bits per quantised weight")
local aw = vram.quantized { model = "llama-2-7b", scheme = "awq" }
eq(aw.total, gq.total - gq.g_idx, "AWQ: GPTQ's layout without g_idx")
-- bitsandbytes NF4: fp32 absmax per 64 -> 4.5 bits; QLoRA double quantisation: 4 + 0.127
near(vram.quantized { model = "llama-2-7b", scheme = "nf4" }.bits_per_weight, 4.5, 1e-4, "NF4 4.5 bits")
near(vram.quantized { model = "llama-2-7b", scheme = "nf4_dq" }.bits_per_weight, 4.127, 1e-3, "NF4 + DQ 4.127 bits")
near(vram.quantized { params = 1e9, scheme = "int8", hidden = 4096 }.bits_per_weight, 8 + 32 / 4096, 1e-12, "int8: fp32 scale per row")
eq(vram.quantized { params = 4096 * 4096, scheme = "fp8" }.total, 4096 * 4096 + 4, "fp8: one fp32 scale per tensor")
raises("awq 'bits' must be 4", vram.quantized, { params = 1, scheme = "awq", bits = 3 })
raises("'scheme' must be one of fp32, fp16, bf16, int8", vram.quantized, { params = 1, scheme = "int3" })
raises("give 'model' or 'params', not both", vram.quantized, { model = "llama-2-7b", params = 1 })
raises("mixture of experts", vram.quantized, { model = "deepseek-v2", scheme = "gptq" })

-- "7B on 16 GB": fp16 weights, a 4096-token cache, one forward and the runtime
local im = vram.inference_memory { model = "llama-2-7b", context = 4096, capacity = 16 * GiB }
local n, h = 4096, 4096
local act = 2 * n * h * 2 + 3 * n * 11008 * 2 + 32000 * 2 -- residual + MLP (larger than attention) + last logits
eq(im.activations, act, "one forward's peak")
eq(im.total, fp16.total + 2 * GiB + act + 426 * MiB + 8519680, "weights + KV + activations + context + workspace")
eq(vram.inference_memory { model = "llama-2-7b", gpu = "h100-sxm" }.workspace, 32 * MiB, "cuBLAS workspace: 32 MiB on Hopper (CublasHandlePool.cpp)")
eq(vram.inference_memory { model = "llama-2-7b", cc = "12.0" }.workspace, 32 * MiB, "and on Blackwell (12.x)")
eq(vram.inference_memory { model = "llama-2-7b", gpu = "a100-80gb" }.workspace, 8519680, "8,519,680 B on Ampere")
assert(im.fits, "fits a card with 16 GiB")
assert(not vram.inference_memory { model = "llama-2-7b", context = 4096, gpu = "t4" }.fits, "not a T4 (14.75 GiB as CUDA reports it)")
assert(vram.inference_memory { model = "llama-2-7b", context = 4096, gpu = "t4", scheme = "gptq" }.fits, "GPTQ 4-bit fits a T4")
assert(vram.inference_memory { model = "llama-2-7b", context = 4096, capacity = 16 * GiB, flash = false }.activations > act,
       "eager attention stores the s^2 scores")

-- the KV cache grown by torch.cat vs preallocated, replayed through the caching allocator
local L, unit = 2, 4 * 64 * 2
local g = vram.kv_growth { layers = L, kv_heads = 4, head_dim = 64, prompt = 10, new_tokens = 5 }
eq(g.allocs, 2 * L + 2 * L * 5, "prefill + every layer's K and V every step"); eq(g.frees, 2 * L * 5, "the old ones freed")
eq(g.final, 2 * L * 15 * unit, "15 tokens in the end"); eq(g.peak, g.final + 14 * unit, "one old tensor alive with its successor")
local function replay(events)
  local al <close> = alloc.model { capacity = "16GiB" }
  local blocks = {}
  for _, e in ipairs(events) do
    if e.op == "alloc" then blocks[e.id] = assert(al:malloc(e.bytes)) else al:free(blocks[e.id]); blocks[e.id] = nil end
  end
  return al:stats()
end
local big = vram.kv_growth { model = "llama-2-7b", prompt = 512, new_tokens = 128 }
local pre = vram.kv_growth { model = "llama-2-7b", prompt = 512, new_tokens = 128, mode = "prealloc" }
local sb, sp = replay(big.events), replay(pre.events)
eq(sb.peak_requested, big.peak, "replayed peak = computed peak (concat)")
eq(sp.peak_requested, pre.peak, "replayed peak = computed peak (prealloc)")
eq(pre.peak, vram.kv { model = "llama-2-7b", tokens = 640 }.total, "prealloc: the whole cache at once")
eq(sb.alloc_count, big.allocs, "every torch.cat is an allocator call"); eq(sp.alloc_count, 64, "prealloc: one per K and V")
assert(sb.alloc_count > 100 * sp.alloc_count, "concat calls the allocator over a hundred times more")
raises("'max_tokens' (10) is less than prompt + new_tokens (15)", vram.kv_growth, { layers = 1, kv_heads = 1, head_dim = 8, prompt = 10, new_tokens = 5, max_tokens = 10 })

-- the roofline; decode is bandwidth-bound
local rf = vram.roofline { intensity = 10, gpu = "h100-sxm" }
near(rf.ridge, 989.4e12 / 3.35e12, 1e-12, "H100 ridge, 295 FLOP/B"); eq(rf.bound, "memory", "10 FLOP/B")
eq(rf.attainable, 10 * 3.35e12, "attainable = AI x bandwidth")
eq(vram.roofline { intensity = 1000, flops = 1e15, bandwidth = 1e12 }.attainable, 1e15, "compute roof")
local d1 = vram.decode { model = "llama-2-7b", context = 4096, gpu = "h100-sxm" }
eq(d1.bytes, fp16.total + 2 * GiB, "weights + the cache read each step")
near(d1.tokens_per_s, 3.35e12 / d1.bytes, 1e-12, "tokens/s <= bandwidth / bytes per token")
eq(d1.bound, "memory", "batch 1 decode is bandwidth-bound"); assert(d1.intensity < 2, "about 1 FLOP per byte")
local prev = d1
for _, bs in ipairs { 8, 64 } do
  local d = vram.decode { model = "llama-2-7b", context = 4096, batch = bs, gpu = "h100-sxm" }
  assert(d.intensity > prev.intensity and d.tokens_per_s > prev.tokens_per_s, "batching raises intensity and throughput")
  prev = d
end
local dq = vram.decode { model = "llama-2-7b", context = 1, scheme = "gptq", gpu = "h100-sxm" }
near(dq.tokens_per_s / vram.decode { model = "llama-2-7b", context = 1, gpu = "h100-sxm" }.tokens_per_s,
     fp16.total / gq.total, 0.001, "4-bit weights: fewer bytes, faster decode")
local pf = vram.prefill { model = "llama-2-7b", tokens = 2048, gpu = "h100-sxm" }
eq(pf.bound, "compute", "prefill of 2048 tokens is compute-bound"); assert(pf.intensity > 1000, "about 'tokens' FLOP per byte")

-- serving within a budget (vLLM V1: gpu_memory_utilization 0.9; the context is in the start-up
-- baseline, outside the budget; what grows outside PyTorch and the CUDA graphs' pool come off)
local sv = vram.serving { model = "llama-2-7b", gpu = "a100-80gb", context = 4096 }
local budget = math.floor(79.15 * GiB) * 0.9
local pool = budget - fp16.total - sv.activations
eq(sv.kv_pool, pool, "KV pool = budget - weights - activations")
eq(sv.cuda_context, 426 * MiB, "the context is reported, not subtracted")
assert(sv.startup_ok, "free memory at start-up covers the budget")
local sv2 = vram.serving { model = "llama-2-7b", gpu = "a100-80gb", context = 4096, non_torch = 100 * MiB, cuda_graphs = 500 * MiB }
eq(sv2.kv_pool, pool - 600 * MiB, "non-torch growth and the graphs' pool come off the budget")
assert(not vram.serving { model = "llama-2-7b", capacity = 24 * GiB, cuda_context = 3 * GiB, context = 4096 }.startup_ok,
       "a context over 10 % of the device: vLLM refuses to start")
-- vLLM's scheduler defaults by device (EngineArgs.get_batch_defaults)
eq(sv.max_num_seqs, 256, "A100: 256"); eq(sv.batched_tokens, 2048, "A100, vllm serve: 2048")
eq(vram.serving { model = "llama-2-7b", gpu = "a100-80gb", usage = "llm" }.batched_tokens, 8192, "A100, LLM class: 8192")
eq(vram.serving { model = "llama-2-7b", gpu = "h100-sxm" }.max_num_seqs, 1024, "H100: 1024")
eq(vram.serving { model = "llama-2-7b", gpu = "h100-sxm", usage = "llm" }.batched_tokens, 16384, "H100, LLM class: 16384")
eq(vram.serving { model = "llama-2-7b", capacity = 80 * GiB, name = "NVIDIA A100-SXM4-80GB" }.max_num_seqs, 256, "an A100 by name: 256")
eq(vram.serving { model = "llama-2-7b", capacity = 80 * GiB }.max_num_seqs, 1024, "80 GiB, no name: 1024")
eq(sv.blocks, math.floor(pool / (16 * 524288)), "16-token blocks")
eq(sv.max_seqs, math.floor(sv.blocks * 16 / 4096), "full-context sequences at once")
assert(not vram.serving { model = "llama-2-70b", gpu = "a100-80gb" }.fits, "70B in fp16 does not fit one A100")
local pe = vram.preemption { model = "llama-2-7b", tokens = 2048, gpu = "a100-80gb" }
eq(pe.kv_bytes, GiB, "2048 tokens = 1 GiB"); near(pe.swap_seconds, 2 * GiB / vram.pcie(4), 1e-12, "out and back in over gen 4")
eq(pe.cheaper, pe.swap_seconds <= pe.recompute_seconds and "swap" or "recompute", "cheaper")

-- the paged-attention simulation: OPT-13B's pool from the paper's table 1 (15,728 slots)
local base = { requests = 300, tokens = 15728, per_token = 819200, seed = 3 }
local function sim(over)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(over or {}) do t[k] = v end
  return vram.serve_sim(t)
end
local R = {}
for _, pol in ipairs { "paged", "oracle", "pow2", "max" } do
  local r = sim { policy = pol }
  R[pol] = r
  local sh = r.shares
  near(sh.token_states + sh.reserved + sh.internal + sh.free, 1, 1e-9, pol .. ": the pool's shares add up")
  eq(r.finished + r.rejected, 300, pol .. ": every request accounted for")
  assert(r.token_share > 0 and r.token_share <= 1, pol .. ": token share")
end
eq(R.paged.generated, R.max.generated, "the same requests under every policy")
eq(R.max.concurrency.max, math.floor(15728 / 2048), "Orca (Max): 7 requests of 2048 slots (the paper's fig. 13a: 7.00)")
assert(R.paged.concurrency.mean > R.oracle.concurrency.mean and R.oracle.concurrency.mean > R.pow2.concurrency.mean
       and R.pow2.concurrency.mean > R.max.concurrency.mean, "paged > oracle > pow2 > max, as in the paper's fig. 13")
assert(R.paged.token_share > 0.9 and R.max.token_share < 0.3, "token states: paged > 90 %, max < 30 % (fig. 2)")
assert(R.paged.steps < R.max.steps, "more at once, done sooner")
eq(R.max.preemptions, 0, "a reservation never preempts")
eq(R.paged.blocked_by_fragmentation, 0, "blocks need no contiguity")
assert(R.oracle.blocked_by_fragmentation > 0 and R.oracle.blocked_by_fragmentation <= R.oracle.steps,
       "first-fit reservations: the head waits while enough slots are free in pieces")
assert(R.paged.preemptions > 0 and R.paged.recomputed_tokens > 0, "a full paged pool preempts and recomputes")
local sw = sim { preempt = "swap", pcie = vram.pcie(4) }
assert(sw.preemptions > 0 and sw.recomputed_tokens == 0 and sw.swapped_bytes > 0, "swap moves blocks instead")
near(sw.swap_seconds, sw.swapped_bytes / vram.pcie(4), 1e-12, "swap time over PCIe")
eq(sw.swapped_bytes % (16 * 819200), 0, "whole blocks")
-- deterministic for a seed
local a1, a2, a3 = sim {}, sim {}, sim { seed = 4 }
eq(a1.steps, a2.steps, "same seed, same run"); eq(a1.generated, a2.generated, "same tokens")
eq(#a1.samples, #a2.samples, "same samples"); eq(a1.samples[5].tokens, a2.samples[5].tokens, "same sample")
assert(a1.generated ~= a3.generated, "another seed, other requests")
-- one request by hand: prompt 10, output 5 -> admitted at step 0, last token at step 4
local one = vram.serve_sim { requests = 1, tokens = 64, prompt = 10, output = 5, block = 4 }
eq(one.steps, 5, "five steps"); eq(one.generated, 5, "five tokens"); eq(one.concurrency.max, 1, "alone")
near(one.shares.token_states, (10 + 11 + 12 + 13 + 14) / (5 * 64), 1e-12, "its cache grows a token a step")
-- two requests that cannot share an oracle reservation run one after the other
local two = vram.serve_sim { requests = 2, tokens = 30, prompt = 10, output = 10, policy = "oracle" }
eq(two.steps, 20, "one after the other"); eq(two.concurrency.max, 1, "never together")
-- with arrivals spread out, requests wait less
assert(sim { rate = 0.01 }.mean_latency < a1.mean_latency, "a light load waits less")
raises("'policy' must be one of paged, max, pow2, oracle (got buddy)", vram.serve_sim, { tokens = 10, policy = "buddy" })
raises("give the pool", vram.serve_sim, { requests = 1 })
raises("'prompt' must be a whole number of tokens or {mean=, min=, max=}", vram.serve_sim, { tokens = 10, prompt = 1.5 })

for k, v in pairs(vram) do assert(type(v) == "function", "vram." .. k .. " is a " .. type(v)) end
print("vram_infer: all checks passed")
