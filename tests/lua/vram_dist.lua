-- The memory besides a job's tensors (lua/lib/vram_dist.lua) and the terms the planner, the
-- serving ledger and the inference estimators gained from it, each against a published or
-- recorded figure: DDP's buckets against PyTorch PR 41954's measurement, NCCL's per-connection
-- buffers against NCCL 2.30.7's source and a public trace, DeepSpeed's defaults, PyTorch's cuBLAS
-- workspace default, the CUDA context under lazy and eager loading (PyTorch PR 86509), vLLM's
-- CUDA-graph capture sizes against a vLLM log, gpt-fast's measured decode against the ceiling,
-- and the planner's "fits on 1 GPU, runs out on 8".
local fmt = string.format
local GiB, MiB, MB = 2^30, 2^20, 1e6
local function eq(a, b, what) assert(a == b, fmt("%s: got %s, want %s", what, tostring(a), tostring(b))) end
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), fmt("%s: got %.6g, want %.6g", what, a, b))
end
local function raises(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching '" .. pattern .. "'")
  assert(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) .. "' does not contain '" .. pattern .. "'")
end

-- DDP: the buckets are one more copy of the gradients unless the gradients are views into them.
-- PyTorch PR 41954 (gradient_as_bucket_view): a "resnet model with ~97M parameters" (read as
-- ResNet-50's 97.5 MiB of fp32 parameters; the PR names no depth) fell from 3089 to 2988 MB, its
-- fp32 gradients' size (25,557,032 parameters x 4 B = 102.2 MB).
local rn = vram.resnet50 { batch = 64 }
local b = vram.ddp_buckets { params = rn.params, precision = "fp32" }
near(b.extra / MB, 3089 - 2988, 0.02, "PR 41954: the ResNet's peak fell by its gradients' size")
eq(b.extra, rn.params * 4, "the buckets hold every gradient element")
eq(vram.ddp_buckets { params = rn.params, precision = "fp32", bucket_view = true }.extra, 0, "views: no copy")
eq(vram.ddp_buckets { grad_bytes = 2e9 }.count, 1 + math.ceil((2e9 - MiB) / (25 * MiB)), "a 1 MiB first bucket, then 25 MiB ones")
eq(vram.ddp_buckets { grad_bytes = 1000 }.count, 1, "a small model fits the first bucket")
raises("give 'params' or 'grad_bytes', not both", vram.ddp_buckets, { params = 1, grad_bytes = 1 })

-- FSDP2: the default overlap gathers one module ahead (set_modules_to_forward_prefetch's
-- docstring): the computing block and the next, plus one block's gradients before their
-- reduce-scatter
local f = vram.fsdp_transient { layer_params = 1e8 }
eq(f.layers, 2, "FSDP2's default: the block computing and one prefetched")
eq(f.params, 2 * 1e8 * 2, "two blocks of bf16 weights"); eq(f.grads, 1e8 * 2, "one block's bf16 gradients")
eq(vram.fsdp_transient { layer_params = 1e8, prefetch = 2 }.params, 3 * 2e8, "prefetching two uses more")
eq(vram.fsdp_transient { layer_params = 1e8, stage = 2 }.params, 0, "ZeRO-2 keeps weights whole: nothing gathered")
eq(vram.fsdp_transient { layer_params = 1e8, reduce_dtype = "fp32" }.grads, 4e8, "an fp32 reduce dtype doubles the gradients")

-- DeepSpeed 0.19.6's defaults: reduce_bucket_size 5e8 elements (1 GB in bf16), two buckets with
-- overlap_comm; ZeRO-Offload adds the largest parameter's 16-bit buffer
eq(vram.deepspeed_buffers().total, 1e9, "reduce bucket: 5e8 x 2 B")
eq(vram.deepspeed_buffers { overlap_comm = true }.total, 2e9, "double-buffered with overlap_comm")
eq(vram.deepspeed_buffers { offload = true, largest_param = 50257 * 2048 }.offload_temp, 50257 * 2048 * 2, "the largest parameter's buffer")

-- ZeRO-Offload as the paper counts it: 2 bytes a parameter on the GPU plus DeepSpeed's buffers,
-- not 4 (the gradients leave for the host as backward makes them)
local zo = vram.offload { params = 1.3e9, tokens = 4096, pcie = 26e9, gpu = "rtx3090" }
eq(zo.gpu_parts.weights, 2 * 1.3e9, "ZeRO-Offload keeps the fp16 parameters, 2 psi")
eq(zo.gpu_parts.buffers, 1e9, "and DeepSpeed's reduce bucket")
eq(zo.gpu_bytes, 2 * 1.3e9 + 1e9, "no full set of gradients on the GPU")

-- NCCL 2.30.7 (src/init.cc): LL 8 x 512 x 8 x 16 B, LL128 120 x 640 x 8 x 8 B, Simple 4 MiB per
-- connection; a public bpftrace of NCCL's proxy found 9,641,984-byte pinned buffers per
-- connection (this plus page-rounded bookkeeping: tonyd2wild/DeepSeek-V4.1-Flash-vLLM-DGX-Spark
-- issue 8)
local n = vram.nccl { channels = 16 }
eq(n.per_connection, 524288 + 4915200 + 4194304, "LL + LL128 + Simple")
eq(n.per_connection, 9633792, "9.19 MiB a connection")
near(n.per_connection, 9641984, 0.001, "the traced buffer")
eq(n.buffers, 16 * 9633792, "a ring receives once per channel")
eq(vram.nccl { channels = 16, algorithm = "ring+tree" }.buffers, 4 * 16 * 9633792, "ring + tree: four receives a channel")
eq(vram.nccl { channels = 8, protocols = "simple", buffsize = 2 * MiB }.per_connection, 2 * MiB, "NCCL_PROTO=Simple, NCCL_BUFFSIZE")
eq(vram.nccl { channels = 2, communicators = 3, fixed = 100 }.total, 3 * 2 * 9633792 + 300, "per communicator")
eq(vram.nccl { channels = 1 }.version, "2.30.7", "the version the sizes come from")
raises("'channels' must be a positive number", vram.nccl, {})

-- cuBLAS: PyTorch's default CUBLAS_WORKSPACE_CONFIG :4096:2:16:8 = 8 MiB + 128 KiB, 32 MiB on
-- Hopper; one per (handle, stream)
eq(vram.cublas_workspace().per_pair, 8519680, ":4096:2:16:8")
eq(vram.cublas_workspace { cc = "9.0" }.per_pair, 32 * MiB, "Hopper: 32 MiB")
eq(vram.cublas_workspace { config = ":4096:8", streams = 4 }.total, 4 * 32 * MiB, "four streams, four workspaces")
eq(vram.cublas_workspace { config = ":16:8" }.per_pair, 128 * 1024, "the deterministic setting :16:8")
assert(vram.cublas_workspace().inside_torch, "the caching allocator holds them")
raises("':SIZE:COUNT' pairs", vram.cublas_workspace, { config = ":4096" })
raises("CUBLAS_WORKSPACE_CONFIG text", vram.cublas_workspace, { config = "4096:8" })

-- the context: PyTorch PR 86509, 287,047,680 B (lazy) and 666,632,192 B (eager) with the
-- allocator's 20 MiB segment in each
local o = vram.outside_torch {}
eq(o.context, 287047680 - 20 * MiB, "lazy loading"); eq(o.context_eager, 666632192 - 20 * MiB, "eager loading")
eq(vram.outside_torch { loading = "eager", nccl = 688e6 }.total, 666632192 - 20 * MiB + 688e6, "context + NCCL")
eq(vram.outside_torch { context = 5e8 }.parts[1].source, "given (measured)", "a measured context is named so")

-- gradient accumulation: a micro-step after the first has last micro-step's gradients from its
-- start; where the peak is early in backward it rises by the gradients
local SMALL = { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4 }
local r1, r2 = vram.train_step(SMALL), vram.train_step { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4, accumulate = true }
eq(r2.peak.bytes - r1.peak.bytes, 2 * r1.params, "the bf16 gradients, there from the start")
eq(r2.live_at_end, r1.live_at_end, "zero_grad frees them after the update either way")
local r4 = vram.train_step { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 16 }
assert(r2.peak.bytes < 0.5 * r4.peak.bytes, "four micro-batches of 4 need far less than one batch of 16")

-- the planner: the same plan fits on 1 GPU and runs out on 8 (DDP's buckets + NCCL); views into the
-- buckets do not help when the peak is at the start of backward; ZeRO-1 does
local PROB = { layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 3, gpu = "rtx3090" }
local function with(extra) local t = {} for k, v in pairs(PROB) do t[k] = v end for k, v in pairs(extra) do t[k] = v end return t end
local plan = { precision = "bf16", checkpointing = "selective" }
local one = vram.plan_check(PROB, plan)
local eight = vram.plan_check(with { gpus = 8 }, plan)
assert(one.fits and not eight.fits, "fits on 1 GPU, not on 8")
eq(eight.memory.buckets, one.memory.weights, "the buckets: one bf16 copy of the gradients")
eq(eight.memory.nccl, 688e6, "NCCL: the recorded 688 MB (NVIDIA/nccl issue 964) unless given")
near(eight.memory.total - one.memory.total, eight.memory.buckets + 688e6, 1e-9, "the difference is the two terms")
assert(eight.reasons[#eight.reasons]:find("gradient_as_bucket_view", 1, true), "the reasons name the buckets")
local view = vram.plan_check(with { gpus = 8, bucket_view = true }, plan)
assert(not view.fits and view.memory.buckets == 0 and view.memory.gradients == eight.memory.buckets,
       "bucket views: the gradients are there all step instead, the peak does not move")
local z1 = vram.plan_check(with { gpus = 8 }, { precision = "bf16", checkpointing = "selective", stage = 1 })
assert(z1.fits, "ZeRO-1 shards the optimizer state and fits")
local z3 = vram.plan_check(with { gpus = 8 }, { precision = "bf16", checkpointing = "selective", stage = 3 })
assert(z3.memory.gather > 0 and z3.memory.unsharded_grads > 0 and z3.memory.buckets == 0, "FSDP: gathered blocks, no buckets")
-- gradient accumulation in the planner: 4 micro-steps of 1 sequence fit where a batch of 4 does not
local acc = vram.plan_check(with { batch = 1, accum = 4 }, plan)
local big = vram.plan_check(with { batch = 4 }, plan)
assert(acc.fits and not big.fits, "accumulation keeps the micro-batch's memory")
near(vram.plan(with { batch = 1, accum = 4 }).tokens, 4 * 2048, 1e-12, "tokens per optimizer step")
-- offload: the paper's accounting on the GPU (no gradients) with DeepSpeed's buffers
local off = vram.plan_check(PROB, { precision = "amp_bf16", checkpointing = "selective", offload = true })
eq(off.memory.gradients, 0, "ZeRO-Offload: no gradients kept on the GPU")
eq(off.memory.offload_buffers, 1e9 + 50257 * 2048 * 2, "DeepSpeed's reduce bucket and largest-parameter buffer")

-- vLLM's start-up: the capture sizes a vLLM log names (PR 39559: "PIECEWISE=51 (largest=512),
-- FULL=35 (largest=256)" at max_num_seqs 256), the order of the steps, eager mode
local a100 = vram.vllm_startup { model = "llama-2-7b", gpu = "a100-80gb", usage = "llm", context = 4096 }
eq(a100.graphs.piecewise, 51, "51 piecewise sizes"); eq(a100.graphs.full, 35, "35 full decode sizes")
eq(a100.capture_sizes[#a100.capture_sizes], 512, "the largest: min(max_num_seqs x 2, 512)")
local keys = {}
for _, st in ipairs(a100.steps) do keys[#keys + 1] = st.key end
eq(table.concat(keys, " "), "context weights profile graph_estimate kv_pool capture sampler", "vLLM's order")
local eager = vram.vllm_startup { model = "llama-2-7b", gpu = "a100-80gb", usage = "llm", context = 4096, enforce_eager = true }
eq(eager.cuda_graphs, 0, "enforce_eager captures nothing")
eq(eager.kv_pool, vram.serving { model = "llama-2-7b", gpu = "a100-80gb", usage = "llm", context = 4096 }.kv_pool, "and the pool is the plain budget's")
near(a100.kv_pool, eager.kv_pool - a100.cuda_graphs, 1e-9, "v0.21+: the graph estimate comes off the pool")
local old = vram.vllm_startup { model = "llama-2-7b", gpu = "a100-80gb", usage = "llm", context = 4096, estimate_graphs = false }
eq(old.kv_pool, eager.kv_pool, "before v0.21 the pool ignores the graphs")
assert(old.smi_idle > a100.smi_idle, "and nvidia-smi shows them on top")
-- a public vLLM log on an H100 80GB (kubernetes-sigs/gateway-api-inference-extension PR 550):
-- 79.19 GiB x 0.90 = 71.27 GiB, model weights take 12.55 GiB (Llama-2-7B in fp16)
local h = vram.vllm_startup { model = "llama-2-7b", gpu = "h100-sxm", context = 4096 }
near(h.budget / GiB, 71.27, 0.0005, "the budget the log prints"); near(h.steps[2].bytes / GiB, 12.55, 0.001, "the weights the log prints")
eq(vram.vllm_startup { model = "llama-2-7b", gpu = "h100-sxm", kv_cache_dtype = "fp8" }.serving.per_token, 256 * 1024, "fp8 KV: 1 byte")

-- tensor parallelism: per GPU, and gpt-fast's measured decode (8x A100-80GB at 330 W, batch 1,
-- README) beside the ceiling at the datasheet's 2,039 GB/s
local function ceil_tp(tp) return vram.decode { model = "llama-2-7b", context = 1, bandwidth = 2039e9, flops = 312e12, tp = tp } end
near(ceil_tp(1).tokens_per_s_memory, 2039e9 / 13.48e9, 0.002, "Llama-2-7B fp16: 151 tok/s at most on an A100")
near(104.9 / ceil_tp(1).tokens_per_s_memory, 0.69, 0.01, "gpt-fast: 104.9 tok/s, 69 % of it")
near(1397.31 / 2039, 0.685, 0.001, "gpt-fast's own bandwidth figure: 68.5 % of the datasheet")
near(ceil_tp(8).tokens_per_s_memory, 8 * ceil_tp(1).tokens_per_s_memory, 0.01, "TP 8: eight times the ceiling")
near(328.43 / ceil_tp(8).tokens_per_s_memory, 0.27, 0.02, "gpt-fast at TP 8: 27 % of it in tokens (two all-reduces a layer)")
near(704.10 / 2039, 0.345, 0.01, "gpt-fast's own per-GPU bandwidth at TP 8: 35 % of the datasheet")
eq(vram.kv { model = "llama-3-70b", tp = 4 }.kv_heads_per_gpu, 2, "8 KV heads over 4 GPUs")
eq(vram.kv { model = "llama-3-70b", tp = 16 }.kv_heads_per_gpu, 1, "replicated past 8 GPUs")
eq(vram.kv { model = "deepseek-v2", tp = 8 }.per_token, vram.kv { model = "deepseek-v2" }.per_token, "MLA's latent is not split")
near(vram.inference_memory { model = "llama-2-70b", tp = 4 }.weights, vram.inference_memory { model = "llama-2-70b" }.weights / 4, 1e-9, "weights / tp")
local s4 = vram.serving { model = "llama-2-70b", gpu = "h100-sxm", tp = 4, context = 4096 }
eq(s4.nccl, 688e6, "NCCL's buffers outside the budget"); assert(s4.startup_ok, "and it still starts")

-- activation offload against recomputation: the break-even links
local ao = vram.offload_activations { layers = 1, hidden = 4096, heads = 32, seq = 2048, flash = true, gpu = "a100-80gb", d2h = 25e9, h2d = 25e9 }
near(ao.breakeven_sync, 2 * ao.saved / ao.forward_seconds, 1e-12, "save_on_cpu costs a recompute at 2 x saved / forward")
near(ao.extra.offload_sync, 2 * ao.saved / 25e9, 1e-12, "save_on_cpu: both copies on the compute stream")
eq(ao.cheaper_sync, "recompute", "on PCIe 4.0, save_on_cpu loses to recomputation"); eq(ao.cheaper_overlap, "offload", "overlapped it wins at h = 4096")
eq(ao.kept, 2048 * 4096 * 2, "recomputation keeps the layer input")
print("vram_dist: all checks passed")
