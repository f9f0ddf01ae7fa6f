-- Chapter 5: every figure the lessons' texts, tables and exercise answers state, recomputed from
-- the estimators (vram_infer, vram_serve) and the allocator model on the simulator's default
-- profile (RTX 3090, 24 GiB), so that a change to an estimator that moves a figure fails here
-- instead of leaving a lesson that contradicts its own experiment. (Grading of every exercise,
-- right and wrong: tests/cli/grade.sh; headless runs of every lesson: tests/cli/lessons.sh.)
local GiB, MiB, KiB = units.GiB, units.MiB, units.KiB
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end

-- 5.1 weights by precision ------------------------------------------------------------------
local m = vram.model("llama-2-7b")
assert(m.params == 6738415616, "Llama-2-7B parameters")
local W = {}
for _, s in ipairs { "fp32", "fp16", "fp8", "int8", "gptq", "nf4" } do W[s] = vram.quantized { model = "llama-2-7b", scheme = s } end
near(W.fp32.total / 1e9, 26.95, 0.0005, "5.1 fp32 GB"); near(W.fp32.total / GiB, 25.10, 0.0005, "5.1 fp32 GiB")
near(W.fp16.total / 1e9, 13.48, 0.0005, "5.1 fp16 GB"); near(W.fp16.total / GiB, 12.55, 0.0005, "5.1 fp16 GiB")
near(W.fp8.total / 1e9, 7.00, 0.001, "5.1 fp8 GB"); near(W.int8.total / 1e9, 7.01, 0.001, "5.1 int8 GB")
near(W.gptq.total / 1e9, 3.89, 0.001, "5.1 gptq GB"); near(W.gptq.total / GiB, 3.63, 0.002, "5.1 gptq GiB")
near(W.nf4.total / 1e9, 4.17, 0.001, "5.1 nf4 GB"); near(W.nf4.bits_per_weight, 4.5, 1e-5, "5.1 nf4 bits")
-- kept: bytes of what stays in 16 bits (embedding and LM head 32000 x 4096 each, 65 norms of 4096)
assert(W.gptq.kept == 524820480 and W.gptq.kept == 2 * (2 * 32000 * 4096 + 65 * 4096), "5.1 16-bit embeddings + head + norms: " .. W.gptq.kept)
near(W.gptq.kept / 1e9, 0.52, 0.01, "5.1 kept GB")
near(W.gptq.bits_per_weight, 4.16, 0.001, "5.1 gptq bits incl. g_idx")
near(4 + 16 / 128 + 4 / 128, 4.156, 0.005 / 4.156, "5.1 bits exercise answer")
assert(math.abs(4 - 4.156) > 0.005 * 4.156, "5.1 bits: 'half a byte' is graded wrong")
local function im(s, cap) return vram.inference_memory { model = "llama-2-7b", scheme = s, context = 4096, capacity = cap } end
local t4 = vram.gpu_specs()[1]
assert(t4.id == "t4", "T4 first in gpu_specs")
near(t4.capacity / GiB, 14.75, 0.001, "5.1 T4 GiB")
local fp16 = im("fp16", t4.capacity)
near(fp16.total / GiB, 15.29, 0.001, "5.1 fp16 at 4096 tokens"); assert(not fp16.fits, "5.1 fp16 does not fit a T4")
near(fp16.activations / MiB, 322, 0.001, "5.1 forward MiB"); near(fp16.cuda_context / MiB, 426, 1e-9, "5.1 context")
near(im("gptq").total / GiB, 6.4, 0.01, "5.1 'about 6.4 GiB' for int4 at 4096")
for _, s in ipairs { "int8", "gptq", "nf4" } do assert(im(s, t4.capacity).fits, "5.1 " .. s .. " fits a T4") end
assert(im("fp32", gpu.mem()).fits == false, "5.1 fp32 never fits 24 GiB")
near(m.params * 16 / 1e9, 108, 0.005, "5.1 Adam 16 B/param")
near(m.params * 4 / GiB, 25.1, 0.001, "5.1 load exercise: fp32 load")

-- 5.2 the KV cache ---------------------------------------------------------------------------
local function pt(id) return vram.kv { model = id }.per_token end
assert(pt("llama-2-7b") == 512 * KiB and pt("llama-3-8b") == 128 * KiB and pt("mistral-7b") == 128 * KiB, "5.2 per token 7B/8B")
assert(pt("llama-2-70b") == 320 * KiB and pt("deepseek-v2") == 69120, "5.2 per token 70B, DeepSeek-V2")
assert(vram.kv { model = "llama-2-7b", tokens = 4096 }.total == 2 * GiB, "5.2 2 GiB exactly")
assert(vram.kv { model = "mistral-7b", tokens = 32768 }.total == 512 * MiB, "5.2 Mistral's window")
assert(vram.kv { model = "deepseek-v2", tokens = 4096 }.total == 270 * MiB, "5.2 DeepSeek-V2 at 4096")
near(69120 / (2 * 60 * 128 * 128 * 2), 0.0176, 0.01, "5.2 MLA share of MHA")
assert(vram.kv { model = "llama-2-7b", tokens = 4096, batch = 8 }.total == 16 * GiB, "5.2 batch 8")
local function replay(prompt, new, mode)
  local g = vram.kv_growth { model = "llama-2-7b", prompt = prompt, new_tokens = new, mode = mode }
  local a <close> = alloc.caching {}
  local live = {}
  for _, e in ipairs(g.events) do
    if e.op == "alloc" then live[e.id] = assert(a:malloc(e.bytes)) else a:free(live[e.id]) end
  end
  return a:stats()
end
local c, p = replay(1536, 512, "concat"), replay(1536, 512, "prealloc")
assert(c.alloc_count == 32832 and p.alloc_count == 64, "5.2 tensor allocations")
assert(c.num_device_alloc == 194 and p.num_device_alloc == 64, "5.2 cudaMalloc calls: " .. c.num_device_alloc)
near(c.peak_reserved / GiB, 2.65, 0.002, "5.2 concat peak reserved")
assert(c.allocated == GiB and p.allocated == GiB and p.reserved == GiB, "5.2 both hold 1 GiB, prealloc exactly")
local copied = 0
for s = 1, 512 do copied = copied + (1536 + s - 1) * 512 * KiB end
near(copied / 1e9, 481, 0.001, "5.2 bytes copied")
local small = replay(512, 512, "prealloc")
assert(small.reserved == 640 * MiB and small.allocated == 512 * MiB, "5.2 pitfall: 8 MiB tensors in 20 MiB segments")

-- 5.3 paged attention ------------------------------------------------------------------------
near((161 + 338) / 2048 * 100, 24.37, 0.001, "5.3 reserve")
assert(math.ceil(1000 / 16) * 16 - 1000 == 8, "5.3 last block")
local _, total = gpu.mem()
local sv = vram.serving { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 2048 }
assert(sv.max_tokens == 17584, "5.3 pool on the RTX 3090 profile (23.70 GiB as CUDA reports it): " .. sv.max_tokens)
assert(sv.max_num_seqs == 256 and sv.batched_tokens == 2048, "5.3 vLLM's defaults on an RTX 3090 (vllm serve)")
local function sim(pol) return vram.serve_sim { requests = 1000, seed = 1, tokens = sv.max_tokens, policy = pol, max_len = 2048,
                                                 max_seqs = sv.max_num_seqs } end
local mx, pg = sim("max"), sim("paged")
near(mx.concurrency.mean, 8, 0.05, "5.3 'about 8' under Orca (Max)")
local ratio = pg.concurrency.mean / mx.concurrency.mean
assert(ratio > 3.5 and ratio < 4.5, "5.3 'about 4x': " .. ratio)
assert(pg.token_share > 0.96 and mx.token_share < 0.4, "5.3 paged under 4 % waste, contiguous over 60 %")

-- 5.4 decode is bandwidth-bound ----------------------------------------------------------------
near(3.35e12 / W.fp16.total, 248.5, 0.003, "5.4 h100")
near(936e9 / W.fp16.total, 69, 0.01, "5.4 RTX 3090 ceiling")
near(W.fp16.total / W.gptq.total, 3.5, 0.02, "5.4 4-bit ceiling 3.5x")
local h = vram.roofline { intensity = 1, gpu = "h100-sxm" }
near(h.ridge, 295, 0.002, "5.4 ridge"); near(71e12 / 936e9, 76, 0.005, "5.4 3090 ridge")
near(4.8 / 3.35, 1.43, 0.002, "5.4 H200 vs H100")
local d1 = vram.decode { model = "llama-2-7b", context = 1024, gpu = "h100-sxm" }
assert(d1.bound == "memory" and d1.flops / d1.step_seconds < 0.01 * 989.4e12, "5.4 batch 1 uses under 1 % of the FLOP/s")
near(vram.decode { model = "llama-2-7b", context = 1024, batch = 256, gpu = "h100-sxm" }.intensity, 23, 0.02, "5.4 batch 256 intensity")
assert(vram.prefill { model = "llama-2-7b", tokens = 512, gpu = "h100-sxm" }.intensity > 295, "5.4 a 512-token prefill is past the ridge")
near(1024 * 512 * KiB / 1e9, 0.54, 0.01, "5.4 predict hint: 0.54 GB of cache")

-- 5.5 serving within a budget ------------------------------------------------------------------
-- the exercise: the A100 with the LLM class (8192 tokens profiled, 256 sequences' logits)
local a = vram.serving { model = "llama-2-7b", gpu = "a100-80gb", context = 4096, usage = "llm" }
near(a.budget / GiB, 71.23, 0.0005, "5.5 budget"); near(a.activations / GiB, 0.66, 0.003, "5.5 forward")
near(a.kv_pool / GiB, 58.02, 0.0005, "5.5 KV pool"); assert(a.max_seqs == 29, "5.5 a100")
assert(a.max_num_seqs == 256 and a.batched_tokens == 8192, "5.5 vLLM's A100 defaults for the LLM class")
assert(math.floor((0.9 * 79.15 - 12.55 - 0.66) / 2) == 29, "5.5 a100 by hand")
assert(math.floor((0.9 * 79.15 - 12.55 - 0.66 - 0.42) / 2) == 28, "5.5 a100: the context subtracted gives the named mistake")
-- the text: the H100 under vllm serve (8192 tokens, 1024 sequences)
local h = vram.serving { model = "llama-2-7b", gpu = "h100-sxm", context = 4096 }
assert(h.max_num_seqs == 1024 and h.batched_tokens == 8192, "5.5 vLLM's H100 defaults for vllm serve")
near(h.budget / GiB, 71.27, 0.0005, "5.5 H100 budget"); near(h.activations / GiB, 0.75, 0.003, "5.5 H100 forward")
near(h.kv_pool / GiB, 57.97, 0.0005, "5.5 H100 KV pool"); assert(h.max_seqs == 28 and h.concurrent == 28, "5.5 H100: 28")
assert(vram.serving { model = "llama-2-7b", gpu = "h200", context = 4096 }.max_num_seqs == 1024, "5.5 H200: 1024")
assert(vram.serving { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 4096 }.max_seqs == 4,
       "5.5 four on the RTX 3090 profile")
assert(math.ceil(4 * (500 / 25) / 28) == 3, "5.5 gpus")
near(2 * 2048 * 512 * KiB / 25e9 * 1e3, 86, 0.01, "5.5 swap: tens of ms at 25 GB/s")
-- 5.4: a ceiling, not a forecast (gpt-fast's README, A100-80GB at 2,039 GB/s)
local c1 = vram.decode { model = "llama-2-7b", context = 1, bandwidth = 2039e9, flops = 312e12 }.tokens_per_s_memory
near(104.9 / c1 * 100, 69.3, 0.005, "5.4 fraction-a100: 69 %")
for _, w in ipairs { { 1397.31, 69 }, { 1069.20, 52 }, { 862.69, 42 }, { 1181.99, 58 }, { 955.83, 47 }, { 704.10, 35 }, { 1135.29, 56 } } do
  near(100 * w[1] / 2039, w[2], 0.015, "5.4 table: " .. w[2] .. " %")
end
near(196.80 / 104.9, 1.9, 0.02, "5.4 text: int4 1.9x the speed")
near(68976648192 * 2 / 4 / GiB, 32.12, 0.001, "5.4 tp-weights: 32.12 GiB")
near(vram.inference_memory { model = "llama-2-70b", tp = 4 }.weights / GiB, 32.12, 0.001, "5.4 tp-weights through the estimator")
near(13.48e9 / 8 / 2039e9 * 1e3, 0.83, 0.01, "5.4 tp-fraction: 0.83 ms a token"); assert(2 * 32 == 64, "5.4: 64 all-reduces a token")

-- the start-up ledger on the RTX 3090 profile (the text's table)
local su = vram.vllm_startup { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 4096 }
local want = { { "context", 426 * MiB }, { "weights", 12.55 * GiB }, { "profile", 192.2 * MiB }, { "graph_estimate", 1.52 * GiB },
               { "kv_pool", 7.07 * GiB }, { "capture", 1.52 * GiB }, { "sampler", 31.25 * MiB } }
for i, w in ipairs(want) do
  assert(su.steps[i].key == w[1], "5.5 ledger: step " .. i .. " is " .. w[1])
  near(su.steps[i].bytes, w[2], 0.004, "5.5 ledger: " .. w[1])
end
near(su.steps[2].used / GiB, 12.97, 0.001, "5.5 ledger: 12.97 GiB after the weights"); near(su.steps[5].used / GiB, 20.04, 0.001, "5.5 ledger: 20.04 GiB")
assert(su.serving.max_seqs == 3 and su.serving.batched_tokens == 2048, "5.5 ledger: 3 sequences, 2048 tokens profiled")
assert(su.graphs.piecewise == 51 and su.graphs.full == 35, "5.5 graphs: 51 + 35 = 86")
near(su.smi_idle / GiB, 21.59, 0.001, "5.5 text: 21.59 GiB idle"); near(su.smi_idle / total, 0.91, 0.01, "5.5 text: 91 %")
near(su.smi_busy / GiB, 21.78, 0.001, "5.5 text: 21.78 GiB after a full batch")
local eager = vram.vllm_startup { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 4096, enforce_eager = true, kv_cache_dtype = "fp8" }
near(eager.kv_pool / GiB, 8.59, 0.001, "5.5 fp8-seqs: 8.59 GiB"); assert(eager.serving.max_seqs == 8, "5.5 fp8-seqs: 8")
assert(vram.vllm_startup { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 4096, enforce_eager = true }.serving.max_seqs == 4, "5.5 fp8-seqs: 4 in fp16")
near(vram.vllm_startup { model = "llama-2-7b", capacity = total, name = gpu.info().name, context = 4096, estimate_graphs = false }.smi_idle / total, 0.97, 0.01, "5.5 variants: 97 % before v0.21")
print("chapter 5 figures ok")
