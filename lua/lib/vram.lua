-- vram.lua - memory estimators for the lessons: bytes per data type, weights, training state
-- (weights, gradients, optimizer, fp32 master copy), the KV cache of a transformer, ResNet-50
-- counted from its architecture, activation checkpointing, ZeRO sharding, and the table of
-- memory generations (GDDR, HBM, LPDDR) with per-pin rate, bus width and the resulting peak.
-- The transformer estimators extend this table as they load: vram_train.lua (chapter 4, the
-- memory of a training step), vram_infer.lua (chapter 5, memory at inference), vram_serve.lua
-- (paged-attention serving) and vram_plan.lua (the planner).
-- Preloaded into every sandbox as `vram`. Trusted code, but it only computes: it reaches no
-- file, no OS call and hands out fresh tables, never its own data. All sizes are in bytes;
-- all bandwidths in bytes/s (GB/s = 1e9 B/s). Each formula states its assumptions below.
local units = require "units"

local M = {}
local fmt, floor, sqrt = string.format, math.floor, math.sqrt
local type, pairs, ipairs, error, tostring, concat = type, pairs, ipairs, error, tostring, table.concat
local lower = string.lower

local E = require "estimate"
local DTYPES, DTYPE_LIST, raise = E.DTYPES, E.DTYPE_LIST, E.raise

-- ---------------------------------------------------------------------------------------
-- data types

--- vram.dtype_bytes(name) -> bytes per stored value.
-- fp64 8, fp32/float32 4, fp16/bf16 2, fp8 1, int8/uint8 1, int4/fp4/nf4 0.5 (two values per
-- byte). The quantisation constants that a packed format needs (a scale per group, zero points,
-- absmax values) are not in this figure: vram.quantized counts them (int4 with GPTQ's layout and
-- groups of 128 is 0.52 B per weight, not 0.5). Case-insensitive; an unknown name raises an error
-- that lists the valid ones.
--   vram.dtype_bytes("bf16") --> 2
function M.dtype_bytes(name)
  if type(name) ~= "string" then
    raise(fmt("vram.dtype_bytes: expected a type name such as \"fp16\", got %s", type(name)))
  end
  local b = DTYPES[lower(name)]
  if not b then
    raise(fmt("vram.dtype_bytes: unknown data type '%s' (valid: %s)", name, concat(DTYPE_LIST, ", ")))
  end
  return b
end

--- vram.dtypes() -> list of the canonical type names, widest first.
function M.dtypes()
  local out = {}
  for i, n in ipairs(DTYPE_LIST) do out[i] = n end
  return out
end

-- argument helpers: misuse raises with the function's name (estimate.lua)
local opts_of, count, whole, known, set = E.opts, E.count, E.whole, E.known, E.set
local function dtype_of(fn, t, default) return E.dtype(fn, t, "dtype", default) end

-- ---------------------------------------------------------------------------------------
-- weights and training state

--- vram.weights{params=, dtype="fp16"} -> bytes of the weights alone: params x bytes(dtype).
--   vram.weights{ params = 7e9, dtype = "fp16" } --> 14e9 (14 GB = 13.04 GiB)
function M.weights(t)
  opts_of("weights", t)
  known("weights", t, set { "params", "dtype" })
  local p = count("weights", t, "params")
  local _, b = dtype_of("weights", t, "fp16")
  return p * b
end

local OPTIMIZERS = { adam = 2, adamw = 2, sgd_momentum = 1, sgd = 0 } -- fp32 state tensors per param

--- vram.training{params=, dtype=, optimizer="adam", mixed_precision=false} -> table of bytes:
-- `weights`, `gradients`, `master_weights`, `optimizer`, `total`, and `bytes_per_param`.
-- Model states only: activations, the input batch, workspaces and the CUDA context are extra.
-- - Plain training in one dtype (PyTorch's default: optimizer state has the parameters' dtype):
--   weights b + gradients b + optimizer state (Adam/AdamW: m and v = 2b; SGD with momentum: b;
--   plain SGD: 0). fp32 Adam = 4 + 4 + 8 = 16 B/param.
-- - mixed_precision = true (dtype fp16 or bf16, the default fp16): fp16/bf16 weights (2) and
--   gradients (2), an fp32 master copy of the weights (4) and fp32 optimizer state (Adam 8,
--   momentum 4). Adam: 2 + 2 + 4 + 8 = 16 B/param, the 16Ψ of the ZeRO paper (Rajbhandari et al.
--   2020, sec. 3.1). torch.autocast keeps fp32 weights and gradients instead (model it as
--   dtype = "fp32"): also 16 B/param, plus fp16 copies of the weights cast during the forward pass.
--   vram.training{ params = 7e9, mixed_precision = true }.total --> 112e9
function M.training(t)
  opts_of("training", t)
  known("training", t, set { "params", "dtype", "optimizer", "mixed_precision" })
  local p = count("training", t, "params")
  local mp = t.mixed_precision
  if mp ~= nil and type(mp) ~= "boolean" then raise("vram.training: 'mixed_precision' must be true or false") end
  local dname, b = dtype_of("training", t, mp and "fp16" or "fp32")
  local opt = t.optimizer == nil and "adam" or t.optimizer
  local nstate = type(opt) == "string" and OPTIMIZERS[lower(opt)]
  if not nstate then
    raise(fmt("vram.training: unknown optimizer '%s' (adam, adamw, sgd_momentum, sgd)", tostring(opt)))
  end
  local r = { params = p, dtype = dname, optimizer_name = lower(opt), mixed_precision = mp and true or false }
  if mp then
    if b ~= 2 or not (dname == "fp16" or dname == "float16" or dname == "half" or dname == "bf16" or dname == "bfloat16") then
      raise(fmt("vram.training: mixed_precision needs dtype fp16 or bf16 (got %s)", dname))
    end
    r.weights, r.gradients, r.master_weights, r.optimizer = 2 * p, 2 * p, 4 * p, 4 * nstate * p
  else
    r.weights, r.gradients, r.master_weights, r.optimizer = b * p, b * p, 0, b * nstate * p
  end
  r.total = r.weights + r.gradients + r.master_weights + r.optimizer
  r.bytes_per_param = r.total / p
  return r
end

--- vram.zero{params=, gpus=, stage=0..3} -> per-GPU bytes of model states for mixed-precision
-- Adam (K = 12: fp32 master, m, v) sharded as in ZeRO (Rajbhandari et al. 2020, fig. 1):
-- stage 0 (plain data parallel) 16Ψ; stage 1 shards the optimizer state 4Ψ + 12Ψ/N; stage 2 also
-- the gradients 2Ψ + 14Ψ/N; stage 3 also the weights 16Ψ/N. The paper's example, Ψ = 7.5e9 and
-- N = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB.
function M.zero(t)
  opts_of("zero", t)
  known("zero", t, set { "params", "gpus", "stage" })
  local p = count("zero", t, "params")
  local n = whole("zero", t, "gpus", 1)
  local s = t.stage == nil and 3 or t.stage
  if s ~= 0 and s ~= 1 and s ~= 2 and s ~= 3 then raise("vram.zero: 'stage' must be 0, 1, 2 or 3") end
  if s == 0 then return 16 * p end
  if s == 1 then return 4 * p + 12 * p / n end
  if s == 2 then return 2 * p + 14 * p / n end
  return 16 * p / n
end

--- vram.kv_cache{layers=, kv_heads=, head_dim=, tokens=, batch=1, dtype="fp16"} -> bytes:
-- 2 (K and V) x layers x kv_heads x head_dim x tokens x batch x bytes(dtype). kv_heads is the
-- number of key/value heads: with grouped-query attention it is smaller than the number of
-- attention heads (Llama-3-8B: 32 query heads, 8 KV heads), and the cache shrinks with it.
--   Llama-2-7B, 4096 tokens, fp16: vram.kv_cache{ layers = 32, kv_heads = 32, head_dim = 128,
--   tokens = 4096 } --> 2147483648 (2 GiB)
function M.kv_cache(t)
  opts_of("kv_cache", t)
  known("kv_cache", t, set { "layers", "kv_heads", "head_dim", "tokens", "batch", "dtype" })
  local l = whole("kv_cache", t, "layers")
  local h = whole("kv_cache", t, "kv_heads")
  local d = whole("kv_cache", t, "head_dim")
  local n = whole("kv_cache", t, "tokens")
  local bs = whole("kv_cache", t, "batch", 1)
  local _, b = dtype_of("kv_cache", t, "fp16")
  return 2 * l * h * d * n * bs * b
end

-- ---------------------------------------------------------------------------------------
-- ResNet-50, counted from its architecture (torchvision resnet50, "v1.5": stride 2 in the 3x3
-- conv of a bottleneck). Convolutions have no bias; each BatchNorm has gamma and beta
-- (parameters) and running mean/var (buffers, not parameters); fc 2048 -> 1000 has a bias.

-- The network as a list of ops over tensors. A tensor is {elems = per image, i64 = bool,
-- storage = id}; in-place ops (ReLU(inplace=True), out += identity) reuse their input's storage.
local function build_resnet50()
  local ops, storages = {}, {}
  local function storage(elems, i64, creator)
    storages[#storages + 1] = { elems = elems, i64 = i64, creator = creator, saved = false, first = #ops + 1, last = #ops + 1 }
    return #storages
  end
  local function tensor(c, h, w, sid) return { c = c, h = h, w = w, storage = sid } end
  local function op(t)
    ops[#ops + 1] = t
    for _, x in ipairs(t.inputs or {}) do
      local s = storages[x.storage]
      if s.last < #ops then s.last = #ops end
    end
    return t
  end
  local function new_out(name, c, h, w)
    local sid = storage(c * h * w, false, name)
    storages[sid].first = #ops + 1
    return tensor(c, h, w, sid)
  end

  local params = 0
  local stage = "stem"
  local function conv(name, x, cout, k, stride, pad)
    local h = floor((x.h + 2 * pad - k) / stride) + 1
    local w = floor((x.w + 2 * pad - k) / stride) + 1
    local y = new_out(name, cout, h, w)
    local p = x.c * cout * k * k
    params = params + p
    op { name = name, kind = "conv", stage = stage, inputs = { x }, out = y, saves = { x.storage }, params = p,
         desc = fmt("%dx%d/%d, %d->%d", k, k, stride, x.c, cout) }
    return y
  end
  local function bn(name, x)
    local y = new_out(name, x.c, x.h, x.w)
    params = params + 2 * x.c
    op { name = name, kind = "bn", stage = stage, inputs = { x }, out = y, saves = { x.storage }, params = 2 * x.c,
         buffers = 2 * x.c }
    return y
  end
  local function relu(name, x) -- in place: saves its output, which is its input's storage
    local y = tensor(x.c, x.h, x.w, x.storage)
    op { name = name, kind = "relu", stage = stage, inputs = { x }, out = y, saves = { x.storage }, params = 0, inplace = true }
    return y
  end

  local x = tensor(3, 224, 224, storage(3 * 224 * 224, false, "input"))
  storages[x.storage].first = 0
  local input_storage = x.storage
  x = relu("relu", bn("bn1", conv("conv1", x, 64, 7, 2, 3)))
  -- max pool 3x3/2: saves its input and the argmax indices (int64, one per output element)
  local mh = floor((x.h + 2 - 3) / 2) + 1
  local mp = new_out("maxpool", 64, mh, mh)
  local idx = storage(64 * mh * mh, true, "maxpool")
  op { name = "maxpool", kind = "maxpool", stage = stage, inputs = { x }, out = mp, saves = { x.storage, idx }, params = 0,
       extra = idx, desc = "3x3/2" }
  x = mp

  local cin = 64
  local widths, blocks = { 64, 128, 256, 512 }, { 3, 4, 6, 3 }
  for li = 1, 4 do
    stage = "layer" .. li
    local width = widths[li]
    for bi = 1, blocks[li] do
      local pre = fmt("layer%d.%d.", li, bi - 1)
      local stride = (bi == 1 and li > 1) and 2 or 1
      local identity = x
      local out = relu(pre .. "relu1", bn(pre .. "bn1", conv(pre .. "conv1", x, width, 1, 1, 0)))
      out = relu(pre .. "relu2", bn(pre .. "bn2", conv(pre .. "conv2", out, width, 3, stride, 1)))
      out = bn(pre .. "bn3", conv(pre .. "conv3", out, 4 * width, 1, 1, 0))
      if bi == 1 then -- downsample: 1x1 conv (stride s) + BN on the shortcut
        identity = bn(pre .. "downsample.1", conv(pre .. "downsample.0", x, 4 * width, 1, stride, 0))
      end
      -- out += identity (in place; an add saves nothing), then ReLU in place
      op { name = pre .. "add", kind = "add", stage = stage, inputs = { out, identity },
           out = tensor(out.c, out.h, out.w, out.storage), saves = {}, params = 0, inplace = true }
      local block_in = storages[x.storage]
      x = relu(pre .. "relu3", out)
      -- Bottleneck.forward(x) holds x until it returns, and nn.Sequential's loop variable
      -- until the next block starts: the block input lives to the block's last op
      if block_in.last < #ops then block_in.last = #ops end
      cin = 4 * width
    end
  end
  stage = "head"
  local pooled = new_out("avgpool", cin, 1, 1)
  op { name = "avgpool", kind = "avgpool", stage = stage, inputs = { x }, out = pooled, saves = { x.storage }, params = 0 }
  local logits = new_out("fc", 1000, 1, 1)
  params = params + cin * 1000 + 1000
  op { name = "fc", kind = "fc", stage = stage, inputs = { pooled }, out = logits, saves = { pooled.storage },
       params = cin * 1000 + 1000, desc = fmt("%d->1000", cin) }
  -- the loss (cross entropy = log_softmax + nll) keeps log_softmax's output for its backward
  local logp = new_out("loss", 1000, 1, 1)
  op { name = "loss", kind = "loss", stage = stage, inputs = { logits }, out = logp, saves = { logp.storage }, params = 0 }
  storages[logp.storage].last = #ops + 1 -- the result outlives the graph

  for _, o in ipairs(ops) do
    for _, sid in ipairs(o.saves) do storages[sid].saved = true end
  end
  return { ops = ops, storages = storages, params = params, input_storage = input_storage }
end

local RESNET -- built once, on first use; never handed out
local function resnet() RESNET = RESNET or build_resnet50() return RESNET end

--- vram.resnet50{batch=64, dtype="fp32", training=true, optimizer="sgd_momentum"} -> table:
-- `params` (25,557,032), `param_bytes` (weights in dtype), `buffers` (BatchNorm running mean and
-- variance, 53,120 values), `input_bytes` (batch x 3 x 224 x 224 x bytes), `activation_bytes`,
-- `gradient_bytes`, `optimizer_bytes`, `master_bytes`, `largest_bytes` (the largest activation
-- tensor), `total`, and `layers` (one entry per op: name, kind, stage, shape {c,h,w}, params,
-- out_bytes, saved_bytes).
-- Counting rules, stated so they can be checked:
-- - training = true: the tensors autograd keeps for the backward pass, each storage once: every
--   conv's input, every BatchNorm's input (the conv output), every ReLU's output (in place over
--   the BN output, shared with the next conv's input), the max pool's input and its int64 argmax
--   indices, the fc input and log_softmax's output. The network input is counted in input_bytes,
--   not here. Adds (out += identity) save nothing; the downsample BN output is not kept.
--   Parameter side = vram.training (mixed precision when dtype is fp16/bf16). `total` = weights +
--   gradients + master + optimizer + input + saved activations.
-- - training = false: no_grad inference; activation_bytes is the peak of the tensors alive at once
--   (the input held by the caller, counted in input_bytes), and total = weights + input + that
--   peak. A tensor dies after its last use, except a bottleneck block's input: torchvision's
--   Bottleneck.forward(x) keeps x referenced until it returns (and nn.Sequential's loop variable
--   until the next block), so it lives to the end of its block. The peak falls in layer1.0's
--   downsample: bn3 output, downsample conv and BN outputs (3 x 256 channels) and the block input
--   (64 channels) at 56 x 56: 668 MB at batch 64 in fp32.
-- Not included: the gradients of activations in the backward pass (transient: about two of the
-- largest tensor at a time), allocator rounding, the CUDA context. cuDNN and cuBLAS workspaces
-- are not included either; in PyTorch they are allocated through the caching allocator, so on a
-- real GPU they show up in memory_allocated(), not outside it.
function M.resnet50(t)
  t = t or {}
  opts_of("resnet50", t)
  known("resnet50", t, set { "batch", "dtype", "training", "optimizer" })
  local n = whole("resnet50", t, "batch", 64)
  local dname, b = dtype_of("resnet50", t, "fp32")
  local training = t.training
  if training == nil then training = true end
  if type(training) ~= "boolean" then raise("vram.resnet50: 'training' must be true or false") end
  local net = resnet()
  local function bytes_of(s) return s.elems * n * (s.i64 and 8 or b) end

  local r = { batch = n, dtype = dname, training = training, params = net.params,
              param_bytes = net.params * b, buffers = 0,
              input_bytes = bytes_of(net.storages[net.input_storage]) }
  local layers, largest = {}, 0
  for i, o in ipairs(net.ops) do
    local sb = 0
    if training then
      for sid, s in ipairs(net.storages) do
        if s.saved and s.creator == o.name and sid ~= net.input_storage then sb = sb + bytes_of(s) end
      end
    end
    local ob = o.out.c * o.out.h * o.out.w * n * b
    if ob > largest then largest = ob end
    r.buffers = r.buffers + (o.buffers or 0)
    layers[i] = { name = o.name, kind = o.kind, stage = o.stage, desc = o.desc, params = o.params,
                  shape = { o.out.c, o.out.h, o.out.w }, out_bytes = ob, saved_bytes = sb, inplace = o.inplace or false }
  end
  r.layers, r.largest_bytes = layers, largest

  if training then
    local act = 0
    for sid, s in ipairs(net.storages) do
      if s.saved and sid ~= net.input_storage then act = act + bytes_of(s) end
    end
    r.activation_bytes = act
    local mp = dname == "fp16" or dname == "float16" or dname == "half" or dname == "bf16" or dname == "bfloat16"
    local tr = M.training { params = net.params, dtype = dname,
                            optimizer = t.optimizer or "sgd_momentum", mixed_precision = mp }
    r.param_bytes, r.gradient_bytes, r.master_bytes, r.optimizer_bytes = tr.weights, tr.gradients, tr.master_weights, tr.optimizer
    r.total = tr.total + r.input_bytes + act
  else
    local peak = 0
    for i = 1, #net.ops do
      local live = 0
      for sid, s in ipairs(net.storages) do
        if sid ~= net.input_storage and s.first <= i and s.last >= i then live = live + bytes_of(s) end
      end
      if live > peak then peak = live end
    end
    r.activation_bytes = peak
    r.gradient_bytes, r.master_bytes, r.optimizer_bytes = 0, 0, 0
    r.total = r.param_bytes + r.input_bytes + peak
  end
  return r
end

--- vram.checkpointing{activations = {bytes, ...}, outputs = {bytes, ...}, segments = k} -> table:
-- gradient (activation) checkpointing as in Chen et al. 2016, "Training Deep Nets with Sublinear
-- Memory Cost": split the layers into k contiguous segments, keep only each segment's input
-- during the forward pass, and recompute one segment's activations at a time during backward.
-- `activations` lists each layer's saved bytes in order; `outputs` (optional, default the same
-- list) each layer's output tensor, which is what a segment starting after that layer keeps (the
-- network input, before the first segment, is not counted). Returns `kept`
-- (sum of the boundary tensors), `recompute` (the largest segment's activations), `peak` = kept +
-- recompute, `full` (no checkpointing), `segments`. With L equal layers and k = sqrt(L) the peak
-- is about 2 sqrt(L) layers' worth instead of L, for one extra forward pass (about +33 % compute
-- when backward costs twice the forward). Default k = round(sqrt(L)).
function M.checkpointing(t)
  opts_of("checkpointing", t)
  known("checkpointing", t, set { "activations", "outputs", "segments" })
  local a = t.activations
  if type(a) ~= "table" or #a == 0 then raise("vram.checkpointing: 'activations' must list bytes per layer") end
  local L, full = #a, 0
  for i = 1, L do
    if type(a[i]) ~= "number" or a[i] < 0 then raise(fmt("vram.checkpointing: activations[%d] must be a number of bytes", i)) end
    full = full + a[i]
  end
  local o = t.outputs == nil and a or t.outputs
  if type(o) ~= "table" or #o ~= L then raise("vram.checkpointing: 'outputs' must list one size per layer, like 'activations'") end
  for i = 1, L do
    if type(o[i]) ~= "number" or o[i] < 0 then raise(fmt("vram.checkpointing: outputs[%d] must be a number of bytes", i)) end
  end
  local k = t.segments == nil and math.max(1, floor(sqrt(L) + 0.5)) or t.segments
  if type(k) ~= "number" or k < 1 or k % 1 ~= 0 or k > L then
    raise(fmt("vram.checkpointing: 'segments' must be a whole number from 1 to %d", L))
  end
  local kept, worst = 0, 0
  for s = 0, k - 1 do
    local first, last = floor(s * L / k) + 1, floor((s + 1) * L / k)
    if first > 1 then kept = kept + o[first - 1] end
    local seg = 0
    for i = first, last do seg = seg + a[i] end
    if seg > worst then worst = seg end
  end
  return { kept = kept, recompute = worst, peak = kept + worst, full = full, segments = k, layers = L }
end

-- ---------------------------------------------------------------------------------------
-- memory generations

--- vram.peak(bus_width_bits, gbps_per_pin) -> theoretical peak in bytes/s = bus/8 x per-pin rate.
--   vram.peak(384, 21) --> 1.008e12 (RTX 4090, 1008 GB/s)
function M.peak(bus_bits, gbps)
  if type(bus_bits) ~= "number" or bus_bits <= 0 or type(gbps) ~= "number" or gbps <= 0 then
    raise("vram.peak(bus_width_bits, gbps_per_pin): two positive numbers")
  end
  return bus_bits / 8 * gbps * 1e9
end

-- One example card per generation, with the figures its maker publishes. gbps is the per-pin
-- data rate; where the maker gives only the total, it is derived (published / (bus/8)) and
-- marked so. Capacity as printed by the maker. On GDDR cards it is a power of two built from
-- power-of-two chips, so their "GB" are GiB; HBM parts expose what is enabled, which need not be:
-- H200 141 GB of 6 x 24 GB stacks, B200 180 GB of 8 x 24 GB stacks.
local MEMORY_TYPES = {
  { family = "GDDR", name = "GDDR5", year = 2014, card = "GeForce GTX 980", bus_bits = 256, gbps = 7.0, published_gbs = 224,
    capacity = "4 GB", signalling = "NRZ, double data rate on a write clock at 2x the command clock",
    standard = "JEDEC JESD212",
    source = "NVIDIA GeForce GTX 980 specifications: 7.0 Gbps memory speed, 256-bit, 224 GB/s" },
  { family = "GDDR", name = "GDDR5X", year = 2016, card = "GeForce GTX 1080", bus_bits = 256, gbps = 10.0, published_gbs = 320,
    capacity = "8 GB", signalling = "NRZ, quad data rate on the write clock",
    standard = "JEDEC JESD232",
    source = "NVIDIA GeForce GTX 1080 whitepaper (GP104): 10 Gbps GDDR5X, 256-bit, 320 GB/s" },
  { family = "GDDR", name = "GDDR6", year = 2018, card = "GeForce RTX 2080 Ti", bus_bits = 352, gbps = 14.0, published_gbs = 616,
    capacity = "11 GB", signalling = "NRZ, two 16-bit channels per chip",
    standard = "JEDEC JESD250",
    source = "NVIDIA Turing GPU architecture whitepaper: 14 Gbps GDDR6, 352-bit, 616 GB/s" },
  { family = "GDDR", name = "GDDR6X", year = 2020, card = "GeForce RTX 3090", bus_bits = 384, gbps = 19.5, published_gbs = 936,
    capacity = "24 GB", signalling = "PAM4: 2 bits per symbol",
    standard = "Micron, not a JEDEC standard",
    source = "NVIDIA Ampere GA102 GPU architecture whitepaper, table 1: 19.5 Gbps GDDR6X, 384-bit, 936 GB/s" },
  { family = "GDDR", name = "GDDR6X", year = 2022, card = "GeForce RTX 4090", bus_bits = 384, gbps = 21.0, published_gbs = 1008,
    capacity = "24 GB", signalling = "PAM4: 2 bits per symbol",
    standard = "Micron, not a JEDEC standard",
    source = "NVIDIA Ada GPU architecture whitepaper, appendix table: 21 Gbps GDDR6X, 384-bit, 1008 GB/s" },
  { family = "GDDR", name = "GDDR7", year = 2025, card = "GeForce RTX 5090", bus_bits = 512, gbps = 28.0, published_gbs = 1792,
    capacity = "32 GB", signalling = "PAM3: 3 bits per 2 symbols",
    standard = "JEDEC JESD239",
    source = "NVIDIA GeForce RTX 5090 specifications: 28 Gbps GDDR7, 512-bit, 1792 GB/s" },
  { family = "HBM", name = "HBM", year = 2015, card = "AMD Radeon R9 Fury X", bus_bits = 4096, gbps = 1.0, published_gbs = 512,
    capacity = "4 GB", signalling = "NRZ DDR; 4 stacks x 1024 bits (8 channels x 128)",
    standard = "JEDEC JESD235",
    source = "AMD Radeon R9 Fury X specifications: 4 GB HBM, 4096-bit, 512 GB/s" },
  { family = "HBM", name = "HBM2", year = 2017, card = "Tesla V100 (SXM2)", bus_bits = 4096, gbps = 1.75, published_gbs = 900,
    capacity = "16/32 GB", signalling = "NRZ DDR; 4 stacks x 1024 bits",
    standard = "JEDEC JESD235A",
    source = "NVIDIA Tesla V100 datasheet: 900 GB/s HBM2; Volta whitepaper: 4096-bit, 877 MHz (1.75 Gbps)" },
  { family = "HBM", name = "HBM2", year = 2020, card = "A100 40GB (SXM)", bus_bits = 5120, gbps = 2.43, published_gbs = 1555,
    capacity = "40 GB", signalling = "NRZ DDR; 5 stacks x 1024 bits",
    standard = "JEDEC JESD235",
    source = "NVIDIA A100 datasheet: 40 GB HBM2, 1,555 GB/s; A100 whitepaper: 5120-bit, 1215 MHz (2.43 Gbps)" },
  { family = "HBM", name = "HBM2e", year = 2020, card = "A100 80GB (SXM)", bus_bits = 5120, gbps = 3.186, published_gbs = 2039,
    capacity = "80 GB", signalling = "NRZ DDR; 5 stacks x 1024 bits",
    standard = "JEDEC JESD235 (HBM2 extended speed)", derived = true,
    source = "NVIDIA A100 datasheet: 80 GB HBM2e, 2,039 GB/s over 5120 bits" },
  { family = "HBM", name = "HBM3", year = 2022, card = "H100 SXM5", bus_bits = 5120, gbps = 5.238, published_gbs = 3350,
    capacity = "80 GB", signalling = "NRZ DDR; 5 stacks x 1024 bits (16 channels x 64)",
    standard = "JEDEC JESD238",
    source = "NVIDIA H100 datasheet: 80 GB HBM3, 3.35 TB/s; 5120-bit, 2619 MHz (5.24 Gbps)" },
  { family = "HBM", name = "HBM3e", year = 2024, card = "H200 (SXM)", bus_bits = 6144, gbps = 6.25, published_gbs = 4800,
    capacity = "141 GB", signalling = "NRZ DDR; 6 stacks x 1024 bits",
    standard = "vendor extension of JESD238", derived = true,
    source = "NVIDIA H200 datasheet: 141 GB HBM3e, 4.8 TB/s over 6 stacks (6144 bits)" },
  -- B200: the bus and clock are what the CUDA driver reports (7680 of the 8 stacks' 8192 bits
  -- enabled, 3996 MHz), not derived from the first datasheets' 8 TB/s, which no enabled bus x
  -- reported clock reproduces; NVIDIA's later Blackwell datasheet says 7.7 TB/s.
  { family = "HBM", name = "HBM3e", year = 2024, card = "B200 (SXM)", bus_bits = 7680, gbps = 7.992, published_gbs = 7700,
    capacity = "180 GB (of 8 x 24 GB stacks)", capacity_zh = "180 GB（8 个 24 GB 堆栈中的）", signalling = "NRZ DDR; 8 stacks, 7680 of 8192 bits enabled",
    standard = "vendor extension of JESD238",
    source = "NVIDIA Blackwell datasheet: B200 SXM 180 GB HBM3e, 7.7 TB/s; CUDA device query on a B200: 7680-bit bus, 3996 MHz memory clock (pytorch/ao PR 4002)" },
  { family = "LPDDR", name = "LPDDR5", year = 2022, card = "Jetson AGX Orin 64GB", bus_bits = 256, gbps = 6.4, published_gbs = 204.8,
    capacity = "64 GB (shared with the CPU)", capacity_zh = "64 GB（与 CPU 共用）", signalling = "NRZ; 16-bit channels",
    standard = "JEDEC JESD209-5",
    source = "NVIDIA Jetson AGX Orin series datasheet: 64 GB 256-bit LPDDR5, 204.8 GB/s" },
  { family = "LPDDR", name = "LPDDR5X", year = 2025, card = "DGX Spark (GB10)", bus_bits = 256, gbps = 8.533, published_gbs = 273,
    capacity = "128 GB (unified)", capacity_zh = "128 GB（统一内存）", signalling = "NRZ; 16-bit channels",
    standard = "JEDEC JESD209-5B",
    source = "NVIDIA DGX Spark specifications: 128 GB LPDDR5X, 256-bit, 273 GB/s" },
}

--- vram.memory_types() -> a fresh list, one row per example card, oldest first within each family
-- (GDDR, HBM, LPDDR). Fields: family, name (GDDR6X, HBM3e ...), year, card, bus_bits, gbps (per
-- pin), peak_bytes_per_s (= bus_bits/8 x gbps x 1e9, computed), published_gbs (the maker's figure),
-- capacity (text; capacity_zh the same in Chinese), signalling, standard, derived (true when gbps was derived from the published
-- total), source (document the figures come from).
function M.memory_types()
  local out = {}
  for i, row in ipairs(MEMORY_TYPES) do
    local c = {}
    for k, v in pairs(row) do c[k] = v end
    c.derived = row.derived or false
    c.capacity_zh = row.capacity_zh or row.capacity
    c.peak_bytes_per_s = M.peak(row.bus_bits, row.gbps)
    out[i] = c
  end
  return out
end

--- vram.both(bytes) -> a size printed both ways, SI first: vram.both(14e9) --> "14 GB (13.04 GiB)".
function M.both(n)
  return fmt("%s (%s)", units.si(n), units.bytes(n))
end

return M
