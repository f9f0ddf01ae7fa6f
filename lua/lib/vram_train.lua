-- vram_train.lua - chapter 4, the memory of a training step. A GPT-2-style transformer counted
-- tensor by tensor (vram.transformer), the activation memory of Korthikanti et al. 2022
-- (vram.activations), the bytes per parameter of each precision and optimizer
-- (vram.bytes_per_param), the whole step as an event list a lesson replays through a caching
-- allocator with its peak found and explained (vram.train_step, vram.trace_events), the price of
-- checkpointing (vram.checkpoint_cost), ZeRO/tensor/pipeline sharding (vram.sharding), CPU offload
-- over PCIe (vram.offload, vram.pcie) and a few GPUs' published figures (vram.gpu_specs).
-- Adds its functions to the vram module while it loads; like vram.lua it only computes.
local E = require "estimate"
local units = require "units"
local M = require "vram"

local fmt, floor, ceil, sqrt, max, min = string.format, math.floor, math.ceil, math.sqrt, math.max, math.min
local type, pairs, ipairs, error, tostring, concat, sort = type, pairs, ipairs, error, tostring, table.concat, table.sort
local opts, known, set, whole, count, nonneg, fraction, bool, choice =
  E.opts, E.known, E.set, E.whole, E.count, E.nonneg, E.fraction, E.bool, E.choice
local raise = E.raise
local gpu_of, flops_of -- defined with the GPU table below

-- ---------------------------------------------------------------------------------------
-- precision and optimizer: bytes per parameter

-- weight, gradient, fp32 master copy, optimizer-state element and activation element, in bytes.
-- amp_* is mixed precision as the ZeRO paper counts it (Rajbhandari et al. 2020, sec. 3.1): 16-bit
-- weights and gradients used by the forward and backward passes, an fp32 master copy and fp32
-- optimizer state updated by the step (K = 12 for Adam: master 4 + m 4 + v 4). bf16 is pure bf16
-- training: the optimizer state takes the parameters' dtype, as PyTorch's optimizers do.
local PRECISIONS = { "fp32", "amp_fp16", "amp_bf16", "bf16" }
local PREC = {
  fp32 = { weight = 4, grad = 4, master = 0, state = 4, act = 4 },
  amp_fp16 = { weight = 2, grad = 2, master = 4, state = 4, act = 2 },
  amp_bf16 = { weight = 2, grad = 2, master = 4, state = 4, act = 2 },
  bf16 = { weight = 2, grad = 2, master = 0, state = 2, act = 2 },
}
local OPTIMIZERS = { "adam", "adamw", "sgd", "sgd_momentum", "adam8bit" }
local NSTATE = { adam = 2, adamw = 2, sgd = 0, sgd_momentum = 1, adam8bit = 2 }
-- bitsandbytes 8-bit Adam (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization"):
-- two uint8 states, one fp32 absmax per block of 256 values per state (bitsandbytes/optim/
-- optimizer.py, Optimizer2State.init_state; the paper and releases before 0.45 used blocks of
-- 2048), and tensors under min_8bit_size = 4096 elements keep two fp32 states.
local BNB_BLOCK, BNB_MIN = 256, 4096

-- optimizer-state bytes of one tensor of n elements
local function state_bytes(opt, prec, n)
  if opt == "adam8bit" then
    if n < BNB_MIN then return 8 * n end
    return 2 * n + 2 * 4 * ceil(n / BNB_BLOCK)
  end
  return NSTATE[opt] * PREC[prec].state * n
end

--- vram.bytes_per_param{precision="amp_bf16", optimizer="adamw"} -> table: weights, gradients,
-- master, optimizer, total (bytes per parameter), activation_bytes (per activation element).
-- Large tensors: adam8bit's fp32 fallback for tensors under 4096 elements is left out here.
function M.bytes_per_param(t)
  t = t or {}
  opts("bytes_per_param", t)
  known("bytes_per_param", t, set { "precision", "optimizer" })
  local prec = choice("bytes_per_param", t, "precision", "amp_bf16", PRECISIONS)
  local opt = choice("bytes_per_param", t, "optimizer", "adamw", OPTIMIZERS)
  local p = PREC[prec]
  local o = opt == "adam8bit" and 2 + 2 * 4 / BNB_BLOCK or NSTATE[opt] * p.state
  local r = { precision = prec, optimizer_name = opt, weights = p.weight, gradients = p.grad,
              master = p.master, optimizer = o, activation_bytes = p.act }
  r.total = r.weights + r.gradients + r.master + r.optimizer
  return r
end

-- ---------------------------------------------------------------------------------------
-- the model: GPT-2's layout (Radford et al. 2019; Hugging Face GPT2LMHeadModel): learned token
-- and position embeddings, pre-LayerNorm blocks with biases, a GELU MLP of width ffn, a final
-- LayerNorm, and an LM head tied to the token embedding (no parameters of its own).

local SHAPE_KEYS = { "layers", "hidden", "heads", "vocab", "ffn", "positions" }

local function shape_of(fn, t, need_seq)
  -- 256 layers is past every published dense model (Llama 3.1 405B has 126); a step's events grow
  -- with the layers (about 160 a layer) and the sandbox's heap is capped at 64 MiB
  local s = { layers = whole(fn, t, "layers", nil, 256), hidden = whole(fn, t, "hidden"), heads = whole(fn, t, "heads") }
  if s.hidden % s.heads ~= 0 then
    raise(fmt("vram.%s: 'hidden' (%d) must be a multiple of 'heads' (%d)", fn, s.hidden, s.heads))
  end
  s.vocab = whole(fn, t, "vocab", 50257) -- GPT-2's tokenizer
  s.ffn = whole(fn, t, "ffn", 4 * s.hidden)
  if need_seq then
    s.seq = whole(fn, t, "seq")
    s.batch = whole(fn, t, "batch", 1)
  end
  s.positions = whole(fn, t, "positions", s.seq or 1024)
  if s.seq and s.positions < s.seq then
    raise(fmt("vram.%s: 'positions' (%d) must be at least 'seq' (%d)", fn, s.positions, s.seq))
  end
  return s
end

-- parameter tensors in model order: {name=, layer=, numel=}
local function param_tensors(s)
  local h, f, out = s.hidden, s.ffn, {}
  local function p(name, layer, n) out[#out + 1] = { name = name, layer = layer, numel = n } end
  p("wte", 0, s.vocab * h); p("wpe", 0, s.positions * h)
  for i = 1, s.layers do
    local pre = "h" .. i .. "."
    p(pre .. "ln_1.weight", i, h); p(pre .. "ln_1.bias", i, h)
    p(pre .. "attn.c_attn.weight", i, 3 * h * h); p(pre .. "attn.c_attn.bias", i, 3 * h)
    p(pre .. "attn.c_proj.weight", i, h * h); p(pre .. "attn.c_proj.bias", i, h)
    p(pre .. "ln_2.weight", i, h); p(pre .. "ln_2.bias", i, h)
    p(pre .. "mlp.c_fc.weight", i, h * f); p(pre .. "mlp.c_fc.bias", i, f)
    p(pre .. "mlp.c_proj.weight", i, f * h); p(pre .. "mlp.c_proj.bias", i, h)
  end
  p("ln_f.weight", s.layers + 1, h); p("ln_f.bias", s.layers + 1, h)
  return out
end

--- vram.transformer{layers=, hidden=, heads=, vocab=50257, ffn=4*hidden, positions=1024} -> table:
-- the parameter count of a GPT-2-style model by part: embedding (vocab x hidden), positions
-- (positions x hidden), per_layer = {attention = 4h^2 + 4h, mlp = 2h*ffn + ffn + h, layernorm = 4h,
-- total}, layers_total, final_norm (2h), head (0: tied to the embedding), total; and tensors, the
-- parameter tensors in order ({name, layer, numel}). GPT-2 small (12, 768, 12, positions 1024):
-- 124,439,808.
function M.transformer(t)
  opts("transformer", t)
  known("transformer", t, set(SHAPE_KEYS))
  local s = shape_of("transformer", t, false)
  local h, f = s.hidden, s.ffn
  local per = { attention = 4 * h * h + 4 * h, mlp = 2 * h * f + f + h, layernorm = 4 * h }
  per.total = per.attention + per.mlp + per.layernorm
  local r = { layers = s.layers, hidden = h, heads = s.heads, head_dim = h // s.heads, ffn = f,
              vocab = s.vocab, positions_count = s.positions,
              embedding = s.vocab * h, positions = s.positions * h, per_layer = per,
              layers_total = per.total * s.layers, final_norm = 2 * h, head = 0 }
  r.total = r.embedding + r.positions + r.layers_total + r.final_norm
  r.tensors = param_tensors(s)
  return r
end

-- ---------------------------------------------------------------------------------------
-- activation memory per layer: Korthikanti et al. 2022, "Reducing Activation Recomputation in
-- Large Transformer Models", sec. 4 and table 2. With s sequence, b micro-batch, h hidden, a heads,
-- t tensor-parallel size, 16-bit activations and 1-byte dropout masks, one layer keeps
--   attention 11sbh + 5as^2b: QKV input 2sbh, Q and K 4sbh, V 2sbh, softmax output 2as^2b, its
--             dropout mask as^2b, dropout output 2as^2b, projection input 2sbh, dropout mask sbh
--   MLP       19sbh: fc1 input 2sbh, GeLU input 8sbh, fc2 input 8sbh, dropout mask sbh (ffn = 4h)
--   LayerNorm 4sbh: both inputs
-- = sbh(34 + 5as/h) (eq. 1). Tensor parallelism splits all but 10sbh (both LayerNorm inputs, the
-- QKV and fc1 inputs, both dropout masks): sbh(10 + 24/t + 5as/(ht)) (eq. 2); sequence
-- parallelism splits those too: sbh/t (34 + 5as/h) (eq. 3); selective recomputation drops the
-- 5as^2b part (recomputed in backward): 34sbh/t with sequence parallelism; full recomputation
-- keeps only the layer input, 2sbh (table 2).
-- Generalised here to an activation element of e bytes (fp32 training: e = 4; masks stay 1 byte)
-- and any ffn. FlashAttention (Dao et al. 2022; FlashAttention-2 2023) never stores the s^2
-- scores: FlashAttention-2 keeps the softmax's logsumexp, 4 bytes (fp32) per head and token (the
-- first version kept the row max and sum, 8 bytes), and recomputes the rest in backward.

local function act_parts(s, b, h, a, f, e, tp, sp, recompute, flash, dropout)
  local sbh = s * b * h
  local mask = dropout and 1 or 0
  local rep = sp and tp or 1 -- what sequence parallelism splits
  local p = {
    layernorm = 2 * sbh * e / rep,
    attention = (sbh * e + sbh * mask) / rep + 4 * sbh * e / tp, -- QKV input + proj mask | Q, K, V, proj input
    scores = (flash or recompute == "selective") and 0 or (2 * e + mask) * a * s * s * b / tp,
    softmax_stats = flash and 4 * a * s * b / tp or 0,
    mlp = (sbh * e + sbh * mask) / rep + 2 * f * s * b * e / tp, -- fc1 input + mask | GeLU in, fc2 in
    input = 0,
  }
  if recompute == "full" then
    p = { layernorm = 0, attention = 0, scores = 0, softmax_stats = 0, mlp = 0, input = sbh * e / rep }
  end
  p.total = p.layernorm + p.attention + p.scores + p.softmax_stats + p.mlp + p.input
  for k, v in pairs(p) do p[k] = E.int(v) end
  return p
end

--- vram.activations{seq=, batch=1, hidden=, heads=, layers=1, ffn=4*hidden, dtype="bf16", tp=1,
-- sp=false, recompute="none"|"selective"|"full", flash=false, dropout=true, pp=1} -> table:
-- per_layer = {layernorm, attention, scores, softmax_stats, mlp, input, total} in bytes, total
-- (per_layer.total x layers; with pp pipeline stages the first stage's 1F1B figure, which holds
-- pp micro-batches of layers/pp layers: the same), sbh, coefficient (per_layer.total / sbh: 114
-- for GPT-3 175B), flash_removes (the scores part FlashAttention does not store), formula (the
-- paper's expression for this case, 16-bit only).
function M.activations(t)
  opts("activations", t)
  known("activations", t, set { "seq", "batch", "hidden", "heads", "layers", "ffn", "dtype", "tp", "sp",
                                "recompute", "flash", "dropout", "pp" })
  local s, b = whole("activations", t, "seq"), whole("activations", t, "batch", 1)
  local h, a = whole("activations", t, "hidden"), whole("activations", t, "heads")
  local L = whole("activations", t, "layers", 1)
  local f = whole("activations", t, "ffn", 4 * h)
  local _, e = E.dtype("activations", t, "dtype", "bf16")
  local tp, pp = whole("activations", t, "tp", 1), whole("activations", t, "pp", 1)
  local sp = bool("activations", t, "sp", false)
  local rc = choice("activations", t, "recompute", "none", { "none", "selective", "full" })
  local flash = bool("activations", t, "flash", false)
  local dropout = bool("activations", t, "dropout", true)
  if L % pp ~= 0 then raise(fmt("vram.activations: 'layers' (%d) must be a multiple of 'pp' (%d)", L, pp)) end
  local per = act_parts(s, b, h, a, f, e, tp, sp, rc, flash, dropout)
  local sbh = s * b * h
  local full_scores = (2 * e + (dropout and 1 or 0)) * a * s * s * b / tp
  local formula
  if e == 2 and f == 4 * h and dropout and not flash then
    if rc == "full" then formula = sp and tp > 1 and "2sbh/t" or "2sbh"
    elseif rc == "selective" then formula = sp and "34sbh/t" or "sbh(10 + 24/t)"
    elseif tp == 1 then formula = "sbh(34 + 5as/h)"
    else formula = sp and "sbh/t (34 + 5as/h)" or "sbh(10 + 24/t + 5as/(ht))" end
  end
  return { per_layer = per, layers = L, total = E.int(per.total * L), sbh = sbh, coefficient = E.int(per.total / sbh),
           flash_removes = E.int((flash or rc ~= "none") and full_scores or per.scores), formula = formula,
           recompute = rc, tp = tp, sp = sp, pp = pp, flash = flash, bytes = e }
end

-- ---------------------------------------------------------------------------------------
-- the training step as events

-- PyTorch's default cuBLAS workspace, allocated through the caching allocator the first time a
-- handle runs a matmul on a stream and kept: 4096 KiB x 2 + 16 KiB x 8 = 8,519,680 B before
-- Hopper; 32 MiB on Hopper and Blackwell (compute capability 9.x to 12.x).
-- aten/src/ATen/cuda/CublasHandlePool.cpp, parseChosenWorkspaceSize.
local CUBLAS_WORKSPACE = 4096 * 1024 * 2 + 16 * 1024 * 8
local function cublas_workspace(cc)
  local major = tonumber(string.match(tostring(cc or ""), "^(%d+)"))
  if major and major >= 9 and major <= 12 then return 4096 * 8 * 1024 end
  return CUBLAS_WORKSPACE
end

local KINDS = { "weights", "master", "optimizer", "gradients", "activations", "temporaries", "workspace", "input" }

local TRAIN_KEYS = set { "layers", "hidden", "heads", "seq", "batch", "vocab", "ffn", "positions", "precision",
                         "optimizer", "optimizer_impl", "checkpointing", "segments", "flash", "dropout",
                         "workspace", "first_step", "accumulate" }

local function step_options(fn, t)
  local o = shape_of(fn, t, true)
  o.precision = choice(fn, t, "precision", "amp_bf16", PRECISIONS)
  o.optimizer = choice(fn, t, "optimizer", "adamw", OPTIMIZERS)
  o.impl = choice(fn, t, "optimizer_impl", "foreach", { "foreach", "fused" })
  o.ckpt = choice(fn, t, "checkpointing", "none", { "none", "selective", "full", "sqrt" })
  o.flash = bool(fn, t, "flash", false)
  o.dropout = bool(fn, t, "dropout", true)
  o.workspace = floor(nonneg(fn, t, "workspace", CUBLAS_WORKSPACE))
  o.first_step = bool(fn, t, "first_step", false)
  o.accumulate = bool(fn, t, "accumulate", false)
  local k = t.segments
  if k == nil then k = max(1, floor(sqrt(o.layers) + 0.5)) end
  if type(k) ~= "number" or k < 1 or k % 1 ~= 0 or k > o.layers then
    raise(fmt("vram.%s: 'segments' must be a whole number from 1 to %d", fn, o.layers))
  end
  o.segments = o.ckpt == "full" and o.layers or floor(k)
  return o
end

-- The event tape: alloc returns an id, free takes it; sizes are whole bytes.
local function new_tape()
  local tp = { ev = {}, live = {}, id = 0, phase = "setup", layer = nil }
  function tp.alloc(name, bytes, kind)
    bytes = ceil(bytes)
    if bytes <= 0 then return nil end
    tp.id = tp.id + 1
    local e = { op = "alloc", id = tp.id, name = name, bytes = bytes, kind = kind, phase = tp.phase, layer = tp.layer }
    tp.ev[#tp.ev + 1] = e
    tp.live[tp.id] = e
    return tp.id
  end
  function tp.free(id)
    local a = id and tp.live[id]
    if not a then return end
    tp.live[id] = nil
    tp.ev[#tp.ev + 1] = { op = "free", id = id, name = a.name, bytes = a.bytes, kind = a.kind,
                          phase = tp.phase, layer = tp.layer }
  end
  return tp
end

local function build_step(o)
  local tp = new_tape()
  local alloc, free = tp.alloc, tp.free
  local p = PREC[o.precision]
  local s, b, h, a, f, V = o.seq, o.batch, o.hidden, o.heads, o.ffn, o.vocab
  local e, gb = p.act, p.grad
  local sbh, sb = s * b * h, s * b
  local mask = o.dropout and 1 or 0
  local tensors = param_tensors(o)
  local by_name, grads, nparams = {}, {}, 0
  for _, pt in ipairs(tensors) do by_name[pt.name] = pt; nparams = nparams + pt.numel end

  -- setup: model.to(device), master copies, optimizer state (steady state: it exists from the
  -- first optimizer.step() on; first_step = true shows that step, which creates it)
  local function states(pt)
    if o.optimizer == "adam8bit" then
      if pt.numel < BNB_MIN then
        alloc(pt.name .. ".state1", 4 * pt.numel, "optimizer"); alloc(pt.name .. ".state2", 4 * pt.numel, "optimizer")
      else
        alloc(pt.name .. ".state1", pt.numel, "optimizer"); alloc(pt.name .. ".state2", pt.numel, "optimizer")
        local blocks = ceil(pt.numel / BNB_BLOCK)
        alloc(pt.name .. ".absmax1", 4 * blocks, "optimizer"); alloc(pt.name .. ".absmax2", 4 * blocks, "optimizer")
      end
    elseif NSTATE[o.optimizer] == 2 then
      alloc(pt.name .. ".exp_avg", p.state * pt.numel, "optimizer")
      alloc(pt.name .. ".exp_avg_sq", p.state * pt.numel, "optimizer")
    elseif NSTATE[o.optimizer] == 1 then
      alloc(pt.name .. ".momentum_buffer", p.state * pt.numel, "optimizer")
    end
  end
  for _, pt in ipairs(tensors) do tp.layer = pt.layer; alloc(pt.name, p.weight * pt.numel, "weights") end
  if p.master > 0 then
    for _, pt in ipairs(tensors) do tp.layer = pt.layer; alloc(pt.name .. " (fp32 master)", p.master * pt.numel, "master") end
  end
  if not o.first_step then for _, pt in ipairs(tensors) do tp.layer = pt.layer; states(pt) end end
  -- accumulate: the gradients already exist when the step starts (a micro-step after the first
  -- of gradient accumulation, or DDP's gradient_as_bucket_view, whose buckets hold them for good)
  if o.accumulate then
    for _, pt in ipairs(tensors) do tp.layer = pt.layer; grads[pt.name] = alloc(pt.name .. ".grad", gb * pt.numel, "gradients") end
  end

  -- weight gradients: the first gradient of a parameter becomes its .grad (AccumulateGrad steals
  -- it); a later one (the tied embedding) is a temporary added in place
  local function wgrad(name)
    local pt = by_name[name]
    if not grads[name] then
      grads[name] = alloc(name .. ".grad", gb * pt.numel, "gradients")
    else
      free(alloc(name .. " (grad to accumulate)", gb * pt.numel, "temporaries"))
    end
  end
  local function wgrads(pre, ...)
    for _, n in ipairs { ... } do wgrad(pre .. n) end
  end

  -- forward of the input batch and the embedding
  tp.phase, tp.layer = "forward", 0
  local ids = alloc("input_ids", 8 * sb, "input")
  local targets = alloc("labels", 8 * sb, "input")
  local tok = alloc("wte(input_ids)", sbh * e, "temporaries")
  local pos = alloc("wpe(positions)", s * h * e, "temporaries")
  -- without dropout the sum itself is the first block's input
  local emb = alloc(o.dropout and "embedding sum" or "h1 input", sbh * e, o.dropout and "temporaries" or "activations")
  free(tok); free(pos)
  local mask0, x = nil, emb
  if o.dropout then
    mask0 = alloc("embedding dropout mask", sbh, "activations")
    x = alloc("h1 input", sbh * e, "activations")
    free(emb)
  end
  local ws_done = o.workspace == 0

  -- one layer forward. save: keep what backward needs; else free everything after its last
  -- forward use except the layer input when keep_in (a checkpoint's segment input), and mark the
  -- output kept when keep_out (the next segment's input). early: stop after the last tensor
  -- backward needs (a recomputation does not redo the final residual add).
  local function fwd_layer(i, xin, save, keep_in, early, keep_out)
    tp.layer = i
    local pre = "h" .. i .. "."
    local S = { x_in = xin }
    local function out(name, bytes, saved) return alloc(pre .. name, bytes, (save and saved) and "activations" or "temporaries") end
    local function done(id, saved) if not (save and saved) then free(id) end end
    local core_saved = o.ckpt ~= "selective"
    S.ln1 = out("ln_1 out", sbh * e, true)
    if not ws_done then alloc("cuBLAS workspace", o.workspace, "workspace"); ws_done = true end
    S.qkv = out("attn qkv", 3 * sbh * e, true)
    done(S.ln1, true)
    if o.flash then
      S.ctx = out("attn out (flash)", sbh * e, true)
      S.lse = out("attn logsumexp (fp32)", 4 * a * s * b, true)
      done(S.lse, true) -- only backward reads it
    else
      local sc = alloc(pre .. "attn scores", a * s * s * b * e, "temporaries")
      S.probs = out("attn softmax", a * s * s * b * e, core_saved)
      free(sc)
      if o.dropout then
        S.amask = out("attn dropout mask", a * s * s * b, core_saved)
        S.dprobs = out("attn dropout", a * s * s * b * e, core_saved)
        done(S.probs, core_saved); done(S.amask, core_saved)
      else
        S.dprobs = S.probs
      end
      S.ctx = out("attn context", sbh * e, true)
      done(S.dprobs, core_saved)
      if not (save and core_saved) then S.probs, S.amask, S.dprobs = nil, nil, nil end
    end
    done(S.qkv, true)
    local proj = alloc(pre .. "attn c_proj out", sbh * e, "temporaries")
    done(S.ctx, true)
    local pd = proj
    if o.dropout then
      S.pmask = out("attn resid dropout mask", sbh * mask, true)
      done(S.pmask, true)
      pd = alloc(pre .. "attn resid dropout", sbh * e, "temporaries")
      free(proj)
    end
    S.x_mid = out("residual 1", sbh * e, true)
    free(pd)
    if not (save or keep_in) then free(xin) end
    S.ln2 = out("ln_2 out", sbh * e, true)
    S.h1 = out("mlp c_fc out", f * sb * e, true)
    done(S.ln2, true)
    S.h2 = out("mlp gelu out", f * sb * e, true)
    done(S.h1, true)
    local h3 = alloc(pre .. "mlp c_proj out", sbh * e, "temporaries")
    done(S.h2, true)
    local md = h3
    if o.dropout then
      S.mmask = out("mlp dropout mask", sbh * mask, true)
      done(S.mmask, true)
      md = alloc(pre .. "mlp dropout", sbh * e, "temporaries")
      free(h3)
    end
    if early then free(md); return nil, S end
    local xout = alloc(i < o.layers and ("h" .. (i + 1) .. " input") or "ln_f input", sbh * e,
                       (save or keep_out) and "activations" or "temporaries")
    done(S.x_mid, true)
    free(md)
    return xout, S
  end

  -- selective recomputation: the attention core again, just before its backward
  local function recompute_core(i, S)
    local pre = "h" .. i .. "."
    local sc = alloc(pre .. "attn scores (recompute)", a * s * s * b * e, "temporaries")
    S.probs = alloc(pre .. "attn softmax (recompute)", a * s * s * b * e, "activations")
    free(sc)
    if o.dropout then
      S.amask = alloc(pre .. "attn dropout mask (recompute)", a * s * s * b, "activations")
      S.dprobs = alloc(pre .. "attn dropout (recompute)", a * s * s * b * e, "activations")
    else
      S.dprobs = S.probs
    end
  end

  -- one layer backward: g is the gradient of the layer output; returns the gradient of its input
  -- (the same storage: residual gradients accumulate in place)
  local function bwd_layer(i, S, g)
    tp.layer = i
    local pre = "h" .. i .. "."
    local function tmp(name, bytes) return alloc(pre .. "grad " .. name, bytes, "temporaries") end
    local gh3 = g
    if o.dropout then gh3 = tmp("mlp c_proj out", sbh * e); free(S.mmask) end
    local gh2 = tmp("mlp gelu out", f * sb * e)
    wgrads(pre, "mlp.c_proj.weight", "mlp.c_proj.bias"); free(S.h2)
    if gh3 ~= g then free(gh3) end
    local gh1 = tmp("mlp c_fc out", f * sb * e); free(S.h1); free(gh2)
    local gln2 = tmp("ln_2 out", sbh * e)
    wgrads(pre, "mlp.c_fc.weight", "mlp.c_fc.bias"); free(S.ln2); free(gh1)
    local part = tmp("residual 1 (ln_2 branch)", sbh * e)
    wgrads(pre, "ln_2.weight", "ln_2.bias"); free(S.x_mid); free(gln2)
    free(part) -- added in place into g
    local gproj = g
    if o.dropout then gproj = tmp("attn c_proj out", sbh * e); free(S.pmask) end
    local gctx = tmp("attn context", sbh * e)
    -- c_proj's input is also FlashAttention's saved output: it lives until the attention backward
    wgrads(pre, "attn.c_proj.weight", "attn.c_proj.bias")
    if not o.flash then free(S.ctx) end
    if gproj ~= g then free(gproj) end
    local gqkv
    if o.flash then
      gqkv = tmp("attn qkv", 3 * sbh * e)
      free(tmp("flash dq accumulator (fp32)", 4 * sbh))
      free(S.lse); free(S.ctx); free(gctx)
    else
      if not S.probs then recompute_core(i, S) end
      gqkv = tmp("attn qkv", 3 * sbh * e)
      local gd = tmp("attn dropout", a * s * s * b * e) -- attention x V backward
      if o.dropout then free(S.dprobs) end
      free(gctx)
      local gp = gd
      if o.dropout then gp = tmp("attn softmax out", a * s * s * b * e); free(S.amask); free(gd) end
      local gs = tmp("attn scores", a * s * s * b * e) -- softmax backward needs its output
      free(S.probs); free(gp)
      free(gs) -- QK^T backward writes into the qkv gradient
    end
    free(S.qkv)
    local gln1 = tmp("ln_1 out", sbh * e)
    wgrads(pre, "attn.c_attn.weight", "attn.c_attn.bias"); free(S.ln1); free(gqkv)
    part = tmp("layer input (ln_1 branch)", sbh * e)
    wgrads(pre, "ln_1.weight", "ln_1.bias"); free(S.x_in); free(gln1)
    free(part)
    return g
  end

  -- segments of layers; each segment's input is kept, its inside recomputed in backward
  local segs = {}
  if o.ckpt == "full" or o.ckpt == "sqrt" then
    local k = o.segments
    for j = 0, k - 1 do segs[#segs + 1] = { first = floor(j * o.layers / k) + 1, last = floor((j + 1) * o.layers / k) } end
  end
  local saved = {}
  if #segs == 0 then
    for i = 1, o.layers do x, saved[i] = fwd_layer(i, x, true) end
  else
    for _, sg in ipairs(segs) do
      sg.input = x
      for i = sg.first, sg.last do x = fwd_layer(i, x, false, i == sg.first, false, i == sg.last) end
    end
  end
  -- what is kept for backward once the last block has run (the head's tensors come next)
  local kept_after_layers = 0
  for _, ev in pairs(tp.live) do if ev.kind == "activations" then kept_after_layers = kept_after_layers + ev.bytes end end

  -- final LayerNorm, LM head (tied), cross-entropy in fp32 over the whole vocabulary
  tp.layer = o.layers + 1
  local xL = x
  local lnf = alloc("ln_f out", sbh * e, "activations")
  local logits = alloc("lm_head logits", sb * V * e, "temporaries")
  local l32 = logits
  if e ~= 4 then l32 = alloc("logits.float()", sb * V * 4, "temporaries"); free(logits) end
  local logp = alloc("log_softmax (fp32)", sb * V * 4, "activations")
  free(l32)
  local loss = alloc("loss", 4, "temporaries")

  -- backward
  tp.phase = "backward"
  local gl = alloc("grad loss", 4, "temporaries")
  local glp = alloc("grad log_softmax", sb * V * 4, "temporaries"); free(gl)
  local gl32 = alloc("grad logits.float()", sb * V * 4, "temporaries"); free(logp); free(glp)
  local glog = gl32
  if e ~= 4 then glog = alloc("grad lm_head logits", sb * V * e, "temporaries"); free(gl32) end
  local glnf = alloc("grad ln_f out", sbh * e, "temporaries")
  wgrad("wte"); free(lnf); free(glog)
  local g = alloc("grad ln_f input", sbh * e, "temporaries")
  wgrads("", "ln_f.weight", "ln_f.bias"); free(xL); free(glnf)
  if #segs == 0 then
    for i = o.layers, 1, -1 do g = bwd_layer(i, saved[i], g) end
  else
    for j = #segs, 1, -1 do
      local sg = segs[j]
      local xi, S = sg.input, {}
      for i = sg.first, sg.last do xi, S[i] = fwd_layer(i, xi, true, false, i == sg.last) end
      for i = sg.last, sg.first, -1 do g = bwd_layer(i, S[i], g) end
    end
  end
  tp.layer = 0
  local ge = g
  if o.dropout then ge = alloc("grad embedding sum", sbh * e, "temporaries"); free(mask0); free(g) end
  free(alloc("wte dense grad (embedding backward)", V * h * gb, "temporaries")) -- added into wte.grad
  wgrad("wpe")
  free(ge)
  free(loss); free(ids); free(targets)

  -- optimizer.step(), then zero_grad(set_to_none=True)
  tp.phase, tp.layer = "optimizer", nil
  if o.first_step then for _, pt in ipairs(tensors) do tp.layer = pt.layer; states(pt) end end
  tp.layer = nil
  if o.impl == "foreach" and NSTATE[o.optimizer] == 2 and o.optimizer ~= "adam8bit" then
    -- torch/optim/adam.py _multi_tensor_adam: exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs),
    -- one new tensor per parameter, all alive until the update is applied
    local tmp = {}
    for _, pt in ipairs(tensors) do tmp[#tmp + 1] = alloc(pt.name .. " sqrt(exp_avg_sq)", p.state * pt.numel, "optimizer") end
    for _, id in ipairs(tmp) do free(id) end
  end
  for _, pt in ipairs(tensors) do free(grads[pt.name]) end
  return tp, nparams, kept_after_layers
end

-- peak and per-kind live bytes, scanning the events
local function scan(ev)
  local live, by = 0, {}
  for _, k in ipairs(KINDS) do by[k] = 0 end
  local peak = { bytes = 0, event = 0 }
  local phase_peak = { setup = 0, forward = 0, backward = 0, optimizer = 0 }
  for i, x in ipairs(ev) do
    local d = x.op == "alloc" and x.bytes or -x.bytes
    live = live + d
    by[x.kind] = by[x.kind] + d
    if live > peak.bytes then
      peak = { bytes = live, event = i, live = {} }
      for _, k in ipairs(KINDS) do peak.live[k] = by[k] end
    end
    if live > phase_peak[x.phase] then phase_peak[x.phase] = live end
  end
  return peak, phase_peak, live, by
end

-- The peak's place and what is live there, in English (why) and in Chinese (why_zh).
local KIND_ZH = { weights = "权重", gradients = "梯度", master = "fp32 主副本", optimizer = "优化器状态",
                  activations = "保存的激活", temporaries = "临时张量", workspace = "工作区", input = "输入" }
local PHASE_ZH = { setup = "准备", forward = "前向", backward = "反向", optimizer = "优化器更新" }

local function why(peak, ev)
  local x = ev[peak.event]
  local parts = {}
  for _, k in ipairs(KINDS) do
    if peak.live[k] > 0 then parts[#parts + 1] = { k, peak.live[k] } end
  end
  sort(parts, function(u, v) return u[2] > v[2] end)
  local txt, zh = {}, {}
  for _, pv in ipairs(parts) do
    txt[#txt + 1] = fmt("%s %s", pv[1], units.si(pv[2]))
    zh[#zh + 1] = fmt("%s %s", KIND_ZH[pv[1]], units.si(pv[2]))
  end
  local where = x.layer and (x.layer == 0 and "embedding" or fmt("layer %d", x.layer)) or "all layers"
  local where_zh = x.layer and (x.layer == 0 and "嵌入层" or fmt("第 %d 层", x.layer)) or "所有层"
  return fmt("%s, %s, allocating '%s' (%s): %s", x.phase, where, x.name, units.si(x.bytes), concat(txt, " + ")),
         fmt("%s，%s，分配“%s”（%s）时：%s", PHASE_ZH[x.phase] or x.phase, where_zh, x.name, units.si(x.bytes),
             concat(zh, " + "))
end

--- vram.train_step{layers=, hidden=, heads=, seq=, batch=1, vocab=50257, ffn=4*hidden,
-- positions=seq, precision="amp_bf16", optimizer="adamw", optimizer_impl="foreach",
-- checkpointing="none", segments=round(sqrt(layers)), flash=false, dropout=true,
-- workspace=8519680, first_step=false} -> table:
-- events: every tensor allocated and freed over one training step of a GPT-2-style model, in
--   order, each {op="alloc"|"free", id=, name=, bytes=, kind=, phase=, layer=}. kind is one of
--   weights, master, optimizer, gradients, activations (kept for backward), temporaries
--   (intermediate results and activation gradients, freed soon after), workspace, input;
--   phase is setup, forward, backward or optimizer; layer is 0 (embedding), 1..layers, layers+1
--   (final LayerNorm and LM head) or nil (the whole model).
-- peak = {bytes, event (index into events), phase, layer, name, live = bytes by kind, why, why_zh}: the
--   largest sum of live bytes, where it falls and what is live then.
-- phase_peaks, persistent (live bytes by kind after setup), saved_activations (kept for backward
--   after the last block's forward), live_at_end (the model, master copy, optimizer state and
--   workspace stay), params, bytes_per_param, allocs, frees.
-- The model, stated so it can be checked: tensors as in vram.activations (GPT-2 blocks: LayerNorm,
-- fused QKV, softmax and dropout, c_proj, dropout, residual, LayerNorm, c_fc, GeLU, c_proj,
-- dropout, residual), the cross-entropy computed in fp32 over the whole vocabulary, the first
-- cuBLAS matmul allocating its workspace. Backward frees each saved tensor after the op that used
-- it, allocates an activation gradient per op and a weight gradient when first produced.
-- checkpointing: "selective" recomputes the attention core (softmax, dropout) before its backward;
-- "full" keeps each layer's input and recomputes the layer; "sqrt" keeps the input of each of
-- `segments` segments (Chen et al. 2016) and recomputes a whole segment before its backward.
-- optimizer_impl "foreach" (PyTorch's default on CUDA) adds Adam's sqrt(exp_avg_sq) temporaries;
-- "fused" (fused=True, apex/DeepSpeed fused Adam) none. Not modelled: allocator rounding and
-- caching (replay the events through alloc.model for that), the CUDA context, communication
-- buffers, autocast's cast cache (amp_* keeps 16-bit weights instead, as apex O2 and Megatron do).
function M.train_step(t)
  opts("train_step", t)
  known("train_step", t, TRAIN_KEYS)
  local o = step_options("train_step", t)
  local tp, nparams, kept = build_step(o)
  local ev = tp.ev
  local peak, phase_peak, _, by_end = scan(ev)
  local x = ev[peak.event]
  peak.phase, peak.layer, peak.name = x.phase, x.layer, x.name
  peak.why, peak.why_zh = why(peak, ev)
  local persistent = {}
  do
    local by = {}
    for _, k in ipairs(KINDS) do by[k] = 0 end
    for _, y in ipairs(ev) do
      if y.phase ~= "setup" then break end
      by[y.kind] = by[y.kind] + y.bytes
    end
    persistent = by
  end
  local allocs, frees = 0, 0
  for _, y in ipairs(ev) do if y.op == "alloc" then allocs = allocs + 1 else frees = frees + 1 end end
  local live_end = 0
  for _, k in ipairs(KINDS) do live_end = live_end + by_end[k] end
  return { events = ev, peak = peak, phase_peaks = phase_peak, persistent = persistent,
           saved_activations = kept, live_at_end = live_end, live_at_end_by_kind = by_end,
           params = nparams, allocs = allocs, frees = frees,
           bytes_per_param = M.bytes_per_param { precision = o.precision, optimizer = o.optimizer },
           precision = o.precision, optimizer = o.optimizer, checkpointing = o.ckpt, segments = o.segments,
           flash = o.flash, seq = o.seq, batch = o.batch, layers = o.layers, hidden = o.hidden, heads = o.heads,
           vocab = o.vocab, ffn = o.ffn }
end

--- vram.trace_events(events) -> the same events as alloc.trace_replay reads them:
-- {{"a", id, bytes}, {"f", id}, ...}.
function M.trace_events(ev)
  if type(ev) ~= "table" then raise("vram.trace_events: expected the events list of vram.train_step or vram.kv_growth") end
  local out = {}
  for i, x in ipairs(ev) do
    if type(x) ~= "table" or (x.op ~= "alloc" and x.op ~= "free") or type(x.id) ~= "number" then
      raise(fmt("vram.trace_events: event %d is not {op=\"alloc\"|\"free\", id=, bytes=}", i))
    end
    out[i] = x.op == "alloc" and { "a", x.id, x.bytes } or { "f", x.id }
  end
  return out
end

--- vram.replay(events, {model=false, capacity="80GiB", on_event=, on_start=}) -> stats | nil, msg
-- Replays an event list (vram.train_step's or vram.kv_growth's) through a caching allocator, as a
-- training or serving loop would call it: this backend's (real cudaMalloc segments on a GPU)
-- unless `model` is set or the device runs short midway, then the same allocator on a model
-- device of `capacity` (SIMULATED by its stats, as alloc.model's are). on_start() before each
-- attempt, on_event(i, allocator) after each event. Returns the allocator's stats after the last
-- event, or nil and its message; every block is freed before it returns, either way.
function M.replay(ev, t)
  if type(ev) ~= "table" then raise("vram.replay: expected the events list of vram.train_step or vram.kv_growth") end
  t = t or {}
  if type(t) ~= "table" then raise("vram.replay: options must be a table {model=, capacity=, on_event=, on_start=}") end
  for k in pairs(t) do
    if k ~= "model" and k ~= "capacity" and k ~= "on_event" and k ~= "on_start" then
      raise(fmt("vram.replay: unknown option '%s' (valid: model, capacity, on_event, on_start)", tostring(k)))
    end
  end
  local alloc = require "alloc"
  local err
  for _, model in ipairs(t.model and { true } or { false, true }) do
    if t.on_start then t.on_start() end
    local al <close> = model and alloc.model { capacity = t.capacity or "80GiB" } or alloc.caching {}
    local live, ok = {}, true
    for i, e in ipairs(ev) do
      if e.op == "alloc" then
        local b, msg = al:malloc(e.bytes, e.name)
        if not b then ok, err = false, msg; break end
        live[e.id] = b
      elseif e.op == "free" then
        al:free(live[e.id]); live[e.id] = nil
      else
        raise(fmt("vram.replay: event %d is not {op=\"alloc\"|\"free\", id=, bytes=}", i))
      end
      if t.on_event then t.on_event(i, al) end
    end
    if ok then return al:stats() end
  end
  return nil, err
end

-- ---------------------------------------------------------------------------------------
-- checkpointing: memory against extra compute

--- vram.checkpoint_cost{<shape as vram.train_step>, precision=, optimizer=, flash=, gpu= or
-- flops=, mfu=0.4} -> list of {checkpointing, peak, saved_activations, flops, recompute_flops,
-- seconds, extra} for none, selective, full and sqrt, in that order. A model, not a measurement:
-- training FLOPs = 6 x params x tokens (Kaplan et al. 2020; tokens = seq x batch); recomputation
-- adds the forward FLOPs it redoes: selective the attention core, QK^T and attention x V, 4bs^2h
-- per layer (Korthikanti et al. 2022, sec. 5); full and sqrt every block's forward again, 2 x
-- block params x tokens + 4bs^2h per layer (the embedding and head are not in a checkpoint).
-- seconds = FLOPs / (flops x mfu); extra = recompute / base. mfu (model FLOPs utilisation) is an
-- assumption to state: Korthikanti et al. report 54.2 % for a 530B model on 2240 A100s.
function M.checkpoint_cost(t)
  opts("checkpoint_cost", t)
  local keys = {}
  for k in pairs(TRAIN_KEYS) do keys[k] = true end
  keys.checkpointing, keys.flops, keys.mfu, keys.gpu = nil, true, true, true
  known("checkpoint_cost", t, keys)
  local flops = flops_of("checkpoint_cost", t)
  local mfu = fraction("checkpoint_cost", t, "mfu", 0.4)
  local rows = {}
  for _, mode in ipairs { "none", "selective", "full", "sqrt" } do
    local q = {}
    for k, v in pairs(t) do if k ~= "flops" and k ~= "mfu" and k ~= "gpu" then q[k] = v end end
    q.checkpointing = mode
    local r = M.train_step(q)
    local tokens = r.seq * r.batch
    local base = 6 * r.params * tokens
    local core = 4 * r.batch * r.seq * r.seq * r.hidden * r.layers
    local block_params = (4 * r.hidden * r.hidden + 4 * r.hidden + 2 * r.hidden * r.ffn + r.ffn + r.hidden + 4 * r.hidden) * r.layers
    local re = 0
    if mode == "selective" and not r.flash then re = core
    elseif mode == "full" or mode == "sqrt" then re = 2 * block_params * tokens + core end
    rows[#rows + 1] = { checkpointing = mode, peak = r.peak.bytes, peak_phase = r.peak.phase,
                        saved_activations = r.saved_activations, flops = base + re, base_flops = base,
                        recompute_flops = re, seconds = (base + re) / (flops * mfu), extra = re / base,
                        segments = r.segments }
  end
  return rows
end

-- ---------------------------------------------------------------------------------------
-- sharding: ZeRO (Rajbhandari et al. 2020, sec. 5 and fig. 1), tensor and pipeline parallelism

--- vram.sharding{params=, gpus=1, stage=0..3, precision="amp_bf16", optimizer="adamw", tp=1, pp=1}
-- -> table: weights, gradients, optimizer (master copy + optimizer state: K bytes per param),
-- total (bytes per GPU), k, psi (params per model-parallel rank = params / (tp x pp)), formula.
-- ZeRO over gpus = N_d data-parallel ranks: stage 0 (plain data parallel) (2 + 2 + K)psi; stage 1
-- (P_os) 2psi + 2psi + K psi/N_d; stage 2 (P_os+g) 2psi + (2 + K)psi/N_d; stage 3 (P_os+g+p)
-- (2 + 2 + K)psi/N_d; the paper's example, 7.5B params, N_d = 64, K = 12: 120, 31.4, 16.6 and
-- 1.9 GB (GB = 1e9 B). Tensor (tp) and pipeline (pp) parallelism in their simplest form divide
-- the model states by tp x pp (each rank holds 1/tp of every layer's weights, or layers/pp layers).
function M.sharding(t)
  opts("sharding", t)
  known("sharding", t, set { "params", "gpus", "stage", "precision", "optimizer", "tp", "pp" })
  local P = count("sharding", t, "params")
  local n = whole("sharding", t, "gpus", 1)
  local st = t.stage == nil and 0 or t.stage
  if st ~= 0 and st ~= 1 and st ~= 2 and st ~= 3 then raise("vram.sharding: 'stage' must be 0, 1, 2 or 3") end
  local bp = M.bytes_per_param { precision = choice("sharding", t, "precision", "amp_bf16", PRECISIONS),
                                 optimizer = choice("sharding", t, "optimizer", "adamw", OPTIMIZERS) }
  local tpn, ppn = whole("sharding", t, "tp", 1), whole("sharding", t, "pp", 1)
  local psi = P / (tpn * ppn)
  local K = bp.master + bp.optimizer
  local r = { k = K, psi = psi, stage = st, gpus = n, tp = tpn, pp = ppn,
              weights = bp.weights * psi / (st >= 3 and n or 1),
              gradients = bp.gradients * psi / (st >= 2 and n or 1),
              optimizer = K * psi / (st >= 1 and n or 1) }
  r.total = r.weights + r.gradients + r.optimizer
  r.formula = ({ [0] = "(2 + 2 + K)psi", "2psi + 2psi + K psi/N_d", "2psi + (2 + K)psi/N_d", "(2 + 2 + K)psi/N_d" })[st]
  return r
end

-- ---------------------------------------------------------------------------------------
-- PCIe and offload

--- vram.pcie(gen, lanes=16) -> bytes/s per direction, theoretical: transfer rate x lanes x
-- encoding / 8. Gen 1 and 2: 2.5 and 5 GT/s, 8b/10b; gen 3, 4, 5: 8, 16, 32 GT/s, 128b/130b
-- (PCI-SIG base specifications). Gen 4 x16 = 31.5 GB/s, gen 5 x16 = 63.0 GB/s. Measured
-- host-device copies reach about 80-90 % of it (run gpu.copy to see yours).
function M.pcie(gen, lanes)
  local rate = ({ 2.5e9, 5e9, 8e9, 16e9, 32e9 })[gen]
  if type(gen) ~= "number" or not rate or gen % 1 ~= 0 then raise("vram.pcie(gen, lanes): gen must be 1, 2, 3, 4 or 5") end
  lanes = lanes == nil and 16 or lanes
  if lanes ~= 1 and lanes ~= 2 and lanes ~= 4 and lanes ~= 8 and lanes ~= 16 then
    raise("vram.pcie(gen, lanes): lanes must be 1, 2, 4, 8 or 16")
  end
  local enc = gen <= 2 and 8 / 10 or 128 / 130
  return rate * lanes * enc / 8
end

--- vram.offload{params=, tokens=, mode="zero_offload"|"optimizer_swap", pcie= (or h2d=, d2h=),
-- gpu= or flops=, mfu=0.4, precision="amp_bf16", optimizer="adamw", largest_param=0,
-- reduce_bucket_size=5e8, overlap_comm=false} -> table: gpu_bytes, gpu_parts,
-- host_bytes, d2h_bytes, h2d_bytes (per step), d2h_seconds, h2d_seconds, transfer_seconds (one
-- after the other), overlap_seconds (both directions at once: PCIe is full duplex),
-- compute_seconds (6 x params x tokens / (flops x mfu)), pays (compute >= transfer), ratio
-- (transfer / compute), breakeven_tokens (tokens per step at which compute = transfer).
-- zero_offload (Ren et al. 2021, "ZeRO-Offload", sec. 4): the fp32 master copy and optimizer state
-- live in host memory and the CPU runs the update; the GPU keeps the 16-bit parameters (2 x
-- params) and sends each gradient to the host as soon as backward makes it, in small groups
-- (sec. 4.2), so no full set of gradients stays on the GPU; each step sends the 16-bit gradients
-- down (2 x params) and the updated 16-bit weights up (2 x params). gpu_parts = {weights,
-- buffers}: DeepSpeed's buffers (vram.deepspeed_buffers: the reduce bucket of reduce_bucket_size
-- elements, two with overlap_comm, and a 16-bit buffer of the largest parameter; DeepSpeed
-- 0.19.6's defaults; before 0.17.0, PR 7309, its stages 1-2 kept about 3x the 16-bit parameters
-- on the GPU). optimizer_swap: the optimizer state
-- (and master copy) stays on the host and crosses the bus both ways every step, K x params each
-- way, as a naive swap (or a paged optimizer under pressure) does. Not modelled: the CPU's own
-- update time, which ZeRO-Offload overlaps with the next step.
function M.offload(t)
  opts("offload", t)
  known("offload", t, set { "params", "tokens", "mode", "pcie", "h2d", "d2h", "gpu", "flops", "mfu", "precision", "optimizer",
                            "largest_param", "reduce_bucket_size", "overlap_comm" })
  local P = count("offload", t, "params")
  local T = count("offload", t, "tokens")
  local mode = choice("offload", t, "mode", "zero_offload", { "zero_offload", "optimizer_swap" })
  local gpu = t.gpu and gpu_of("offload", t.gpu)
  local link = t.pcie or (gpu and gpu.pcie)
  if t.h2d == nil and link == nil then
    raise("vram.offload: give the bus: 'pcie' (bytes/s per direction, e.g. vram.pcie(4)), 'h2d' and 'd2h', or 'gpu'")
  end
  local h2d = count("offload", { h2d = t.h2d or link }, "h2d")
  local d2h = count("offload", { d2h = t.d2h or h2d }, "d2h")
  local flops = flops_of("offload", t)
  local mfu = fraction("offload", t, "mfu", 0.4)
  local bp = M.bytes_per_param { precision = choice("offload", t, "precision", "amp_bf16", PRECISIONS),
                                 optimizer = choice("offload", t, "optimizer", "adamw", OPTIMIZERS) }
  local K = bp.master + bp.optimizer
  local r = { mode = mode, params = P, tokens = T, k = K }
  if mode == "zero_offload" then
    local buf = M.deepspeed_buffers { offload = true, dtype = bp.gradients == 4 and "fp32" or "bf16",
                                      largest_param = nonneg("offload", t, "largest_param", 0),
                                      reduce_bucket_size = t.reduce_bucket_size, overlap_comm = t.overlap_comm }
    r.gpu_parts = { weights = bp.weights * P, buffers = buf.total }
    r.gpu_bytes = r.gpu_parts.weights + r.gpu_parts.buffers
    r.host_bytes = (K + bp.gradients) * P
    r.d2h_bytes, r.h2d_bytes = bp.gradients * P, bp.weights * P
  else
    r.gpu_bytes = (bp.weights + bp.gradients + K) * P -- the state is on the GPU while it updates
    r.gpu_parts = { weights = bp.weights * P, gradients = bp.gradients * P, state = K * P }
    r.host_bytes = K * P
    r.d2h_bytes, r.h2d_bytes = K * P, K * P
  end
  r.d2h_seconds, r.h2d_seconds = r.d2h_bytes / d2h, r.h2d_bytes / h2d
  r.transfer_seconds = r.d2h_seconds + r.h2d_seconds
  r.overlap_seconds = max(r.d2h_seconds, r.h2d_seconds)
  r.compute_seconds = 6 * P * T / (flops * mfu)
  r.pays = r.compute_seconds >= r.transfer_seconds
  r.ratio = r.transfer_seconds / r.compute_seconds
  r.breakeven_tokens = r.transfer_seconds * flops * mfu / (6 * P)
  return r
end

--- vram.offload_activations{layers=, hidden=, heads=, seq=, batch=1, ffn=4*hidden, flash=false,
-- dropout=true, d2h= and h2d= (or pcie=, or gpu=), flops= or gpu=, mfu=0.4} -> table, per layer
-- and for the whole model, of the two ways to keep activations off the GPU between forward and
-- backward:
--   saved (bytes a layer saves for backward, vram.activations), kept (bytes the GPU keeps per layer
--   under full recomputation: the layer input), forward_seconds (one layer's forward at flops x
--   mfu: 2 x block params x tokens + 4bs^2h FLOPs, as vram.checkpoint_cost counts a recomputed
--   forward), d2h_seconds, h2d_seconds (the saved bytes over the link each way);
--   extra = {recompute, offload_sync, offload_overlap}: the step time each adds per layer.
--   recompute: one more forward of the layer. offload_sync: torch.autograd.graph.save_on_cpu,
--   whose pack hook copies each saved tensor to the host in the forward and whose unpack hook
--   copies it back before its backward, on the compute stream (the copy to the host does not
--   return until done; pinned memory only makes the copy back asynchronous): d2h + h2d.
--   offload_overlap: the copies on a stream of their own, as TransformerEngine's CPU offloading
--   does, hidden while the layer computes: max(0, d2h - forward) + max(0, h2d - backward), backward
--   taking 2 x forward.
--   cheaper ("recompute" or "offload"), for both offload modes (cheaper_sync, cheaper_overlap);
--   breakeven_sync (bytes/s each way at which save_on_cpu costs what recomputing costs:
--   saved x 2 / forward) and breakeven_overlap (the link that hides the copy to the host behind the
--   forward: saved / forward); gpu_saved (bytes of activations the GPU no longer holds at the end
--   of forward, all layers: offloading keeps none, recomputation keeps the inputs), total_saved.
-- A model: kernels at a fixed mfu, the link at the bandwidth given (measure it: gpu.copy).
function M.offload_activations(t)
  opts("offload_activations", t)
  known("offload_activations", t, set { "layers", "hidden", "heads", "seq", "batch", "ffn", "flash", "dropout", "d2h", "h2d",
                                        "pcie", "gpu", "flops", "mfu" })
  local L = whole("offload_activations", t, "layers", nil, 256)
  local s, b = whole("offload_activations", t, "seq"), whole("offload_activations", t, "batch", 1)
  local h, a = whole("offload_activations", t, "hidden"), whole("offload_activations", t, "heads")
  local f = whole("offload_activations", t, "ffn", 4 * h)
  local flash = bool("offload_activations", t, "flash", false)
  local dropout = bool("offload_activations", t, "dropout", true)
  local gpu = t.gpu ~= nil and gpu_of("offload_activations", t.gpu) or nil
  local link = t.pcie or (gpu and gpu.pcie)
  if t.d2h == nil and link == nil then
    raise("vram.offload_activations: give the link: 'd2h' and 'h2d' (bytes/s, e.g. gpu.copy's), 'pcie', or 'gpu'")
  end
  local d2h = count("offload_activations", { d2h = t.d2h or link }, "d2h")
  local h2d = count("offload_activations", { h2d = t.h2d or t.d2h or link }, "h2d")
  local flops = flops_of("offload_activations", t)
  local mfu = fraction("offload_activations", t, "mfu", 0.4)
  local act = M.activations { seq = s, batch = b, hidden = h, heads = a, ffn = f, flash = flash, dropout = dropout }
  local saved = act.per_layer.total
  local block = 4 * h * h + 4 * h + 2 * h * f + f + h + 4 * h
  local fwd = (2 * block * s * b + 4 * b * s * s * h) / (flops * mfu)
  local r = { saved = saved, kept = s * b * h * 2, forward_seconds = fwd, backward_seconds = 2 * fwd,
              d2h_seconds = saved / d2h, h2d_seconds = saved / h2d, layers = L, d2h = d2h, h2d = h2d }
  r.extra = { recompute = fwd, offload_sync = r.d2h_seconds + r.h2d_seconds,
              offload_overlap = max(0, r.d2h_seconds - fwd) + max(0, r.h2d_seconds - 2 * fwd) }
  r.total_extra = { recompute = L * r.extra.recompute, offload_sync = L * r.extra.offload_sync,
                    offload_overlap = L * r.extra.offload_overlap }
  r.cheaper_sync = r.extra.offload_sync < r.extra.recompute and "offload" or "recompute"
  r.cheaper_overlap = r.extra.offload_overlap < r.extra.recompute and "offload" or "recompute"
  r.cheaper = r.cheaper_overlap
  r.breakeven_sync = 2 * saved / fwd
  r.breakeven_overlap = saved / fwd
  r.total_saved = L * saved
  r.gpu_saved = { offload = L * saved, recompute = L * (saved - r.kept) }
  r.step_seconds = 3 * L * fwd
  return r
end

-- ---------------------------------------------------------------------------------------
-- published figures of a few GPUs (ids as the simulator's profiles)

-- capacity: the total CUDA reports (cudaMemGetInfo / totalGlobalMem, as PyTorch prints it), which
-- is below the marketed figure and below nvidia-smi's "FB Memory Total". flops: dense 16-bit
-- tensor-core math with fp32 accumulation (the datasheets' "with sparsity" figures halved);
-- flops_tf32 dense TF32 tensor math; flops_fp32 plain fp32 on the CUDA cores, which is what an
-- fp32 matmul gets in PyTorch unless TF32 is allowed (torch.backends.cuda.matmul.allow_tf32 is
-- False by default since PyTorch 1.12). bf16 = false: no bf16 tensor cores (Turing).
local GPUS = {
  { id = "t4", cc = "7.5", name = "NVIDIA T4", memory = "16 GB GDDR6", capacity = 15109 * 2^20, flops = 65e12,
    flops_fp32 = 8.1e12, bf16 = false, bandwidth = 320e9, pcie_gen = 3,
    source = "T4 datasheet: 65 TFLOPS mixed precision (FP16/FP32), 8.1 TFLOPS FP32, 320 GB/s, PCIe Gen3 x16; capacity: PyTorch total_memory=15109MB on Colab (ECC on)" },
  { id = "rtx3090", cc = "8.6", name = "GeForce RTX 3090", memory = "24 GB GDDR6X", capacity = 24268 * 2^20, flops = 71e12,
    flops_tf32 = 35.6e12, flops_fp32 = 35.6e12, bandwidth = 936e9, pcie_gen = 4,
    source = "NVIDIA Ampere GA102 whitepaper: 71 TFLOPS FP16 tensor with FP32 accumulate (142 sparse), 35.6 TF32 tensor (71 sparse), 35.6 FP32, 936 GB/s; capacity: PyTorch total_memory=24268MB (Hugging Face docs)" },
  { id = "rtx4090", cc = "8.9", name = "GeForce RTX 4090", memory = "24 GB GDDR6X", capacity = 24563 * 2^20, flops = 165.2e12,
    flops_tf32 = 82.6e12, flops_fp32 = 82.6e12, bandwidth = 1008e9, pcie_gen = 4,
    source = "NVIDIA Ada whitepaper: 165.2 TFLOPS FP16/BF16 tensor with FP32 accumulate (330.3 sparse), 82.6 TF32 tensor (165.2 sparse), 82.6 FP32, 1008 GB/s; capacity: PyTorch total_memory=24563MB" },
  { id = "a100-80gb", cc = "8.0", name = "A100 80GB SXM", memory = "80 GB HBM2e", capacity = floor(79.15 * 2^30), flops = 312e12,
    flops_tf32 = 156e12, flops_fp32 = 19.5e12, bandwidth = 2039e9, pcie_gen = 4,
    source = "A100 datasheet: 312 TFLOPS BF16/FP16 tensor (624 sparse), 156 TF32 (312 sparse), 19.5 FP32, 2,039 GB/s; capacity: 'total capacity of 79.15 GiB' in PyTorch's OOM messages (2 decimals)" },
  { id = "h100-sxm", cc = "9.0", name = "H100 SXM5 80GB", memory = "80 GB HBM3", capacity = 81089 * 2^20, flops = 989.4e12,
    flops_fp8 = 1978.9e12, flops_tf32 = 494.7e12, flops_fp32 = 66.9e12, bandwidth = 3.35e12, pcie_gen = 5,
    source = "H100 datasheet: BF16/FP16 tensor 1,979 TFLOPS with sparsity (989.4 dense), FP8 3,958 (1,978.9 dense), TF32 989 (494.7 dense), FP32 67, 3.35 TB/s; capacity: PyTorch total_memory=81089MB (81082-81090 by driver)" },
  { id = "h200", cc = "9.0", name = "H200 SXM 141GB", memory = "141 GB HBM3e", capacity = 143156 * 2^20, flops = 989.4e12,
    flops_fp8 = 1978.9e12, flops_tf32 = 494.7e12, flops_fp32 = 66.9e12, bandwidth = 4.8e12, pcie_gen = 5,
    source = "H200 datasheet: BF16/FP16 tensor 1,979 TFLOPS with sparsity (989.4 dense), TF32 989 (494.7 dense), FP32 67, 4.8 TB/s; capacity: PyTorch total_memory=143156MB" },
}
local GPU_IDS = {}
for i, g in ipairs(GPUS) do GPU_IDS[i] = g.id end

--- vram.gpu_specs() -> a fresh list of {id, name, memory (as marketed), capacity (bytes CUDA
-- reports), flops (dense 16-bit tensor FLOP/s), flops_fp8, flops_tf32, flops_fp32, bf16 (false
-- where there are no bf16 tensor cores), bandwidth (bytes/s), pcie_gen, pcie (bytes/s per
-- direction, theoretical x16), cc (compute capability, "9.0"), source}.
function M.gpu_specs()
  local out = {}
  for i, g in ipairs(GPUS) do out[i] = E.copy(g); out[i].pcie = M.pcie(g.pcie_gen, 16) end
  return out
end

-- a GPU given by id or as a table of its figures; errors name the calling function
function gpu_of(fn, v)
  if type(v) == "table" then return E.copy(v) end
  for _, g in ipairs(GPUS) do
    if g.id == v then local c = E.copy(g); c.pcie = M.pcie(g.pcie_gen, 16); return c end
  end
  raise(fmt("vram.%s: unknown gpu '%s' (gpus: %s; or a table {capacity=, flops=, bandwidth=, pcie=})",
            fn, tostring(v), concat(GPU_IDS, ", ")))
end

--- vram.gpu_spec(id) -> one row of vram.gpu_specs() ("h100-sxm"). Wherever an estimator takes
-- gpu=, an id or a table with those fields ({capacity=, flops=, bandwidth=, pcie=}) works.
function M.gpu_spec(id) return gpu_of("gpu_spec", id) end

--- vram.device_spec(info) -> the row of vram.gpu_specs() for the device a gpu.info() table
-- describes (its simulator profile, or on a real GPU the profile of the same name,
-- published_profile), or nil when neither is one of the GPUs listed. Pure: the caller hands in
-- gpu.info() (`vram.device_spec(gpu.info()) or vram.gpu_spec("a100-80gb")`).
function M.device_spec(info)
  if type(info) ~= "table" then raise("vram.device_spec: expects the table of gpu.info()") end
  for _, id in ipairs { info.profile or "", info.published_profile or "" } do
    for _, g in ipairs(GPUS) do
      if g.id == id then return gpu_of("device_spec", id) end
    end
  end
  return nil
end

-- flops from t.flops, else from t.gpu
function flops_of(fn, t)
  if t.flops == nil and t.gpu ~= nil then
    local g = gpu_of(fn, t.gpu)
    if type(g.flops) ~= "number" or g.flops <= 0 then raise(fmt("vram.%s: the gpu table has no 'flops'", fn)) end
    return g.flops
  end
  return count(fn, t, "flops")
end

-- shared with vram_plan.lua and vram_infer.lua through the private estimate module
E.train = { PRECISIONS = PRECISIONS, OPTIMIZERS = OPTIMIZERS, PREC = PREC, build_step = build_step,
            step_options = step_options, KINDS = KINDS, TRAIN_KEYS = TRAIN_KEYS, shape_of = shape_of,
            gpu_of = gpu_of, flops_of = flops_of, state_bytes = state_bytes, cublas_workspace = cublas_workspace }

return M
