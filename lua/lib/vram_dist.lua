-- vram_dist.lua - the memory a training or serving job holds besides its tensors: data
-- parallelism's transient buffers (DDP's gradient buckets, FSDP's unsharded layers,
-- DeepSpeed's reduce buckets), NCCL's communication buffers, and the share of nvidia-smi that
-- PyTorch's allocator never sees (the CUDA context under lazy and eager module loading), beside
-- what people count there by mistake (cuBLAS workspaces per handle and stream, which come from
-- the caching allocator). Chapters 2.4, 4.5 and 4.6 use them; the planner (vram_plan.lua) adds
-- their terms. Adds its functions to vram; like vram.lua it only computes, and every default is
-- a figure from a named source (a version, a file, an issue) so a lesson can quote it.
local E = require "estimate"
local M = require "vram"

local fmt, ceil = string.format, math.ceil
local type, pairs, ipairs, tostring, tonumber = type, pairs, ipairs, tostring, tonumber
local opts, known, set, whole, count, nonneg, bool, choice, raise =
  E.opts, E.known, E.set, E.whole, E.count, E.nonneg, E.bool, E.choice, E.raise

local MiB = 2^20

-- bytes per gradient element of a precision (the training precisions of vram_train.lua)
local GRAD = { fp32 = 4, amp_fp16 = 2, amp_bf16 = 2, bf16 = 2 }
local WEIGHT = { fp32 = 4, amp_fp16 = 2, amp_bf16 = 2, bf16 = 2 }
local PRECISIONS = { "fp32", "amp_fp16", "amp_bf16", "bf16" }

-- ---------------------------------------------------------------------------------------
-- DDP's gradient buckets

--- vram.ddp_buckets{params= or grad_bytes=, precision="amp_bf16", bucket_view=false,
-- bucket_mb=25, first_bucket_mb=1} -> table: grads (bytes of the gradients), buckets (bytes of
-- the flat bucket buffers: one element per parameter, as the gradients), count (how many buckets
-- at bucket_mb each after a first of first_bucket_mb), extra (bytes beyond the gradients:
-- buckets when gradients and buckets are separate, 0 with bucket_view), persistent (true: the
-- buckets exist from DDP's construction on, through forward too).
-- PyTorch's Reducer allocates each bucket's flat `gradients` tensor when it builds the buckets
-- (torch/csrc/distributed/c10d/reducer.cpp, Reducer::initialize_buckets: at::empty of the
-- bucket's elements), at DDP's construction; backward copies each ready gradient into it and
-- all-reduces it. DDP's docstring: gradient_as_bucket_view=True makes the gradients views into
-- the buckets, which "can reduce peak memory usage, where the saved memory size will be equal to
-- the total gradients size". PR 41954 measured it: "resnet model with ~97M parameters" peak
-- 3089 -> 2988 MB, roberta_base 8250 -> 7183 MB. Defaults: bucket_cap_mb 25 and a first bucket
-- of 1 MiB (dist._DEFAULT_FIRST_BUCKET_BYTES).
function M.ddp_buckets(t)
  opts("ddp_buckets", t)
  known("ddp_buckets", t, set { "params", "grad_bytes", "precision", "bucket_view", "bucket_mb", "first_bucket_mb" })
  local prec = choice("ddp_buckets", t, "precision", "amp_bf16", PRECISIONS)
  local g
  if t.grad_bytes ~= nil then
    if t.params ~= nil then raise("vram.ddp_buckets: give 'params' or 'grad_bytes', not both") end
    g = count("ddp_buckets", t, "grad_bytes")
  else
    g = count("ddp_buckets", t, "params") * GRAD[prec]
  end
  local view = bool("ddp_buckets", t, "bucket_view", false)
  local cap = count("ddp_buckets", t, "bucket_mb", 25) * MiB
  local first = count("ddp_buckets", t, "first_bucket_mb", 1) * MiB
  local n = g <= first and 1 or 1 + ceil((g - first) / cap)
  return { grads = E.int(g), buckets = E.int(g), count = n, extra = E.int(view and 0 or g), bucket_view = view,
           persistent = true, bucket_bytes = E.int(cap), first_bucket_bytes = E.int(first) }
end

-- ---------------------------------------------------------------------------------------
-- FSDP (ZeRO-3) and ZeRO-2: what is unsharded at a time

--- vram.fsdp_transient{layer_params=, precision="amp_bf16", prefetch=1, stage=3,
-- reduce_dtype=} -> table: params (the unsharded 16-bit weights of the layer computing now and
-- of the `prefetch` layers gathered ahead: (1 + prefetch) x layer_params x weight bytes; 0 at
-- stage 2), grads (one layer's unsharded gradients in the reduce dtype, waiting for their
-- reduce-scatter), total, layers (1 + prefetch).
-- FSDP2 (torch.distributed.fsdp.fully_shard): before a module's forward and backward its
-- parameters are all-gathered, after them freed (reshard); the default overlap prefetches one
-- module ahead, and FSDPModule.set_modules_to_forward_prefetch's docstring says a list of two or
-- more "will use more reserved memory". In backward each module's gradients exist unsharded
-- until reduce-scattered. ZeRO-2 (stage 2, FSDP's SHARD_GRAD_OP) keeps the weights whole and
-- shards gradients the same way. A lower bound: the all-gather and reduce-scatter staging copies
-- of FSDP1's flat parameters and the caching allocator's blocks per stream come on top.
function M.fsdp_transient(t)
  opts("fsdp_transient", t)
  known("fsdp_transient", t, set { "layer_params", "precision", "prefetch", "stage", "reduce_dtype" })
  local lp = count("fsdp_transient", t, "layer_params")
  local prec = choice("fsdp_transient", t, "precision", "amp_bf16", PRECISIONS)
  local pf = t.prefetch == nil and 1 or t.prefetch
  if type(pf) ~= "number" or pf < 0 or pf % 1 ~= 0 or pf > 64 then
    raise("vram.fsdp_transient: 'prefetch' must be a whole number of layers from 0 to 64")
  end
  local st = t.stage == nil and 3 or t.stage
  if st ~= 2 and st ~= 3 then raise("vram.fsdp_transient: 'stage' must be 2 or 3") end
  local gb = GRAD[prec]
  if t.reduce_dtype ~= nil then local _; _, gb = E.dtype("fsdp_transient", t, "reduce_dtype") end
  local r = { layers = st == 3 and 1 + pf or 0, params = st == 3 and (1 + pf) * lp * WEIGHT[prec] or 0, grads = lp * gb,
              stage = st, prefetch = pf }
  r.total = r.params + r.grads
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

-- DeepSpeed's ZeRO stage 1/2 defaults (deepspeed/runtime/zero/config.py, DeepSpeed 0.19.6):
-- reduce_bucket_size and allgather_bucket_size 5e8 elements; overlap_comm defaults to true at
-- stage 3 only; stage_1_and_2.py setup_buckets allocates one reduce buffer of reduce_bucket_size
-- elements in the optimizer's dtype, two with overlap_comm. ZeRO-Offload (offload_optimizer) forces
-- contiguous_gradients and adds a GPU buffer of the largest parameter's elements.
local DS_BUCKET = 5e8

--- vram.deepspeed_buffers{reduce_bucket_size=5e8, overlap_comm=false, dtype="bf16",
-- largest_param=0, offload=false} -> table: reduce (the reduce buckets' bytes), offload_temp
-- (the largest parameter's 16-bit buffer ZeRO-Offload keeps on the GPU), total. Defaults as
-- DeepSpeed 0.19.6 sets them.
function M.deepspeed_buffers(t)
  t = t or {}
  opts("deepspeed_buffers", t)
  known("deepspeed_buffers", t, set { "reduce_bucket_size", "overlap_comm", "dtype", "largest_param", "offload" })
  local n = count("deepspeed_buffers", t, "reduce_bucket_size", DS_BUCKET)
  local _, b = E.dtype("deepspeed_buffers", t, "dtype", "bf16")
  local ov = bool("deepspeed_buffers", t, "overlap_comm", false)
  local lp = nonneg("deepspeed_buffers", t, "largest_param", 0)
  local off = bool("deepspeed_buffers", t, "offload", false)
  local r = { reduce = n * b * (ov and 2 or 1), offload_temp = off and lp * b or 0, buffers = ov and 2 or 1 }
  r.total = r.reduce + r.offload_temp
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

-- ---------------------------------------------------------------------------------------
-- NCCL's buffers

-- NCCL 2.30.7 (src/init.cc): DEFAULT_LL_BUFFSIZE = NCCL_LL_LINES_PER_THREAD (8) x
-- NCCL_LL_MAX_NTHREADS (512) x NCCL_STEPS (8) x sizeof(ncclLLFifoLine) (16) = 524,288 B;
-- DEFAULT_LL128_BUFFSIZE = NCCL_LL128_ELEMS_PER_THREAD (120) x NCCL_LL128_MAX_NTHREADS (640) x
-- NCCL_STEPS x 8 = 4,915,200 B; DEFAULT_BUFFSIZE (Simple) 1 << 22 = 4 MiB, NCCL_BUFFSIZE
-- overrides it. The receiving side of each connection allocates one buffer per protocol
-- (src/transport/p2p.cc: recvSize += buffSizes[p]); one connection per peer per channel.
local LL, LL128, SIMPLE = 524288, 4915200, 4194304
-- recv connections per channel of a rank: a ring receives from its predecessor; a tree from its
-- parent and its children (src/graph/connect.cc): inside a node the tree is a chain (a parent
-- and one child: 2), and the rank that joins its node to the inter-node double binary tree takes
-- up to two more children (NCCL_MAX_TREE_ARITY 3 children: up to 4). The default 3 lies between.
local CONNS = { ring = 1, tree = 3, ["ring+tree"] = 4 }

--- vram.nccl{channels=, algorithm="ring", connections=, protocols="all", buffsize=4194304,
-- communicators=1, fixed=0} -> table: per_connection (bytes: LL + LL128 + Simple), connections
-- (per channel), buffers (communicators x channels x connections x per_connection), fixed
-- (communicators x fixed), total, version ("2.30.7"). protocols: "all" or "simple" (NCCL_PROTO
-- restricting to Simple). An estimate with its source, not a law: the channels NCCL opens
-- depend on the topology (NCCL_DEBUG=INFO prints "Channel 00/NN"), NCCL_RUNTIME_CONNECT (on by
-- default since 2.22.3) connects only the algorithms a job uses, and NVLS, CollNet, proxies and
-- the library's own kernels add memory of their own, which `fixed` stands for.
function M.nccl(t)
  opts("nccl", t)
  known("nccl", t, set { "channels", "algorithm", "connections", "protocols", "buffsize", "communicators", "fixed" })
  local ch = whole("nccl", t, "channels", nil, 64)
  local alg = choice("nccl", t, "algorithm", "ring", { "ring", "tree", "ring+tree" })
  local conns = t.connections == nil and CONNS[alg] or whole("nccl", t, "connections", nil, 64)
  local pr = choice("nccl", t, "protocols", "all", { "all", "simple" })
  local bs = count("nccl", t, "buffsize", SIMPLE)
  local comms = whole("nccl", t, "communicators", 1, 1024)
  local fixed = nonneg("nccl", t, "fixed", 0)
  local per = pr == "all" and LL + LL128 + bs or bs
  local r = { per_connection = per, connections = conns, channels = ch, communicators = comms,
              ll = pr == "all" and LL or 0, ll128 = pr == "all" and LL128 or 0, simple = bs, version = "2.30.7" }
  r.buffers = comms * ch * conns * per
  r.fixed = comms * fixed
  r.total = r.buffers + r.fixed
  for k, v in pairs(r) do if type(v) == "number" then r[k] = E.int(v) end end
  return r
end

-- Recorded figures of NCCL's whole footprint per process, for a default where none is measured:
-- NVIDIA/nccl issue 964 (PyTorch, 4x A100 with NVLink, a 4 MB all-reduce per group): 544 MB for
-- a group of 2 GPUs, 688 MB for 3 or 4.
E.dist = { NCCL_RECORDED = 688e6, GRAD = GRAD, WEIGHT = WEIGHT }

-- ---------------------------------------------------------------------------------------
-- cuBLAS workspaces

-- PyTorch's default CUBLAS_WORKSPACE_CONFIG (aten/src/ATen/cuda/CublasHandlePool.cpp,
-- parseChosenWorkspaceSize): ":4096:2:16:8" (2 x 4096 KiB + 8 x 16 KiB) before Hopper, 32 MiB
-- (":4096:8") on compute capability 9.x to 12.x: Hopper's since PyTorch 2.0 (PR 91564), 10.x and
-- 12.x since PR 175344 and 11.x since PR 189312 (2026); older releases give Blackwell the former
local function default_config(cc)
  local major = tonumber(string.match(tostring(cc or ""), "^(%d+)"))
  if major and major >= 9 and major <= 12 then return ":4096:8" end
  return ":4096:2:16:8"
end

--- vram.cublas_workspace{config=, cc=, handles=1, streams=1} -> table: per_pair (bytes one
-- (handle, stream) pair's workspace takes: the sum of SIZE KiB x COUNT over the config's
-- ":SIZE:COUNT" pairs), pairs (handles x streams), total, config (the string read), inside_torch
-- (true: PyTorch allocates it through its caching allocator, so it counts in memory_reserved(),
-- not in the share outside PyTorch).
-- CUBLAS_WORKSPACE_CONFIG is a list of ":SIZE:COUNT" (SIZE in KiB); PyTorch keeps one workspace
-- per (handle, stream) pair (CublasHandlePool.cpp, cublas_handle_stream_to_workspace: a map
-- keyed by both), so a job that runs matmuls on four streams holds four. Without config, the
-- default for the compute capability cc (unknown: the pre-Hopper default).
function M.cublas_workspace(t)
  t = t or {}
  opts("cublas_workspace", t)
  known("cublas_workspace", t, set { "config", "cc", "handles", "streams" })
  local cfg = t.config
  if cfg == nil then cfg = default_config(t.cc) end
  if type(cfg) ~= "string" or not cfg:match("^:") then
    raise("vram.cublas_workspace: 'config' is CUBLAS_WORKSPACE_CONFIG text such as \":4096:8\" (KiB:count pairs)")
  end
  local kib, nums = 0, {}
  for n in cfg:gmatch(":([^:]*)") do
    if not n:match("^%d+$") then raise(fmt("vram.cublas_workspace: '%s' is not ':SIZE:COUNT' pairs of whole numbers", cfg)) end
    nums[#nums + 1] = tonumber(n)
  end
  if #nums == 0 or #nums % 2 ~= 0 then raise(fmt("vram.cublas_workspace: '%s' must hold ':SIZE:COUNT' pairs", cfg)) end
  for i = 1, #nums, 2 do kib = kib + nums[i] * nums[i + 1] end
  local h = whole("cublas_workspace", t, "handles", 1, 1024)
  local s = whole("cublas_workspace", t, "streams", 1, 1024)
  return { per_pair = E.int(kib * 1024), pairs = h * s, total = E.int(kib * 1024 * h * s), config = cfg, inside_torch = true }
end

-- ---------------------------------------------------------------------------------------
-- the CUDA context and the share outside PyTorch

-- PyTorch PR 86509 (CUDA 11.7, one small tensor created): 287,047,680 B used with lazy module
-- loading, 666,632,192 B with eager loading; 20 MiB of each is the caching allocator's first
-- segment, the rest the context with the kernels loaded. PyTorch sets CUDA_MODULE_LOADING=LAZY
-- unless the user set it (aten/src/ATen/cuda/detail/CUDAHooks.cpp, CUDAHooks::init); CUDA 12.2
-- made lazy loading the driver's default too.
local CTX = { lazy = 287047680 - 20 * MiB, eager = 666632192 - 20 * MiB }

--- vram.outside_torch{loading="lazy", context=, nccl=0, other_processes=0, graphs_driver=0}
-- -> table: parts (a list {key, bytes, source} in the order nvidia-smi stacks them: context,
-- nccl, other_processes, graphs_driver), total (what nvidia-smi shows for the device beyond
-- PyTorch's memory_reserved()), context (the figure used: `context` when given, a measured one,
-- else the published one for `loading`). Inside memory_reserved(), not here: cuBLAS and cuDNN
-- workspaces, cuFFT plans' work areas and CUDA graphs' private pools, all allocated through the
-- caching allocator.
function M.outside_torch(t)
  t = t or {}
  opts("outside_torch", t)
  known("outside_torch", t, set { "loading", "context", "nccl", "other_processes", "graphs_driver" })
  local ld = choice("outside_torch", t, "loading", "lazy", { "lazy", "eager" })
  local ctx = t.context ~= nil and nonneg("outside_torch", t, "context") or CTX[ld]
  local parts = {
    { key = "context", bytes = ctx, source = t.context ~= nil and "given (measured)" or
        fmt("PyTorch PR 86509, CUDA 11.7, %s module loading, less the allocator's 20 MiB segment", ld) },
    { key = "nccl", bytes = nonneg("outside_torch", t, "nccl", 0), source = "NCCL communicators (vram.nccl)" },
    { key = "other_processes", bytes = nonneg("outside_torch", t, "other_processes", 0), source = "other processes on the GPU" },
    { key = "graphs_driver", bytes = nonneg("outside_torch", t, "graphs_driver", 0), source = "CUDA graphs' driver state (not their pools)" },
  }
  local tot = 0
  for _, p in ipairs(parts) do p.bytes = E.int(p.bytes); tot = tot + p.bytes end
  return { parts = parts, total = E.int(tot), context = E.int(ctx), loading = ld,
           context_lazy = E.int(CTX.lazy), context_eager = E.int(CTX.eager) }
end

return M
