-- vram_infer.lua - chapter 5, memory at inference: published model shapes (vram.models), the KV
-- cache per token for MHA, GQA, MQA and MLA (vram.kv), weights by precision with every
-- quantisation constant counted (vram.quantized), what a runtime adds and whether a model fits
-- (vram.inference_memory), the KV cache grown by reallocation or preallocated, as allocator events
-- (vram.kv_growth), decode and prefill against the roofline (vram.roofline, vram.decode,
-- vram.prefill), and serving within a budget (vram.serving, vram.preemption).
-- Adds its functions to the vram module while it loads; like vram.lua it only computes.
local E = require "estimate"
local M = require "vram"

local fmt, floor, ceil, max, min = string.format, math.floor, math.ceil, math.max, math.min
local type, pairs, ipairs, tostring, concat, lower = type, pairs, ipairs, tostring, table.concat, string.lower
local opts, known, set, whole, count, nonneg, fraction, bool, choice, raise =
  E.opts, E.known, E.set, E.whole, E.count, E.nonneg, E.fraction, E.bool, E.choice, E.raise
-- E.train (gpu_of) is filled by vram_train.lua, which loads after this file: look it up when called

-- ---------------------------------------------------------------------------------------
-- model shapes, from each model's published config.json (Hugging Face model repositories)

-- mlp: "gated" (SwiGLU: gate, up, down; no biases) or "gelu" (fc1, fc2 with biases, learned
-- positions: OPT). params are computed from the shape unless the model card publishes them.
local MODELS = {
  { id = "llama-2-7b", name = "Llama-2-7B", layers = 32, hidden = 4096, heads = 32, kv_heads = 32, head_dim = 128,
    ffn = 11008, vocab = 32000, max_context = 4096, mlp = "gated",
    source = "meta-llama/Llama-2-7b-hf config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32, num_key_value_heads 32, intermediate_size 11008, vocab_size 32000, max_position_embeddings 4096" },
  { id = "llama-2-70b", name = "Llama-2-70B", layers = 80, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128,
    ffn = 28672, vocab = 32000, max_context = 4096, mlp = "gated",
    source = "meta-llama/Llama-2-70b-hf config.json: num_hidden_layers 80, hidden_size 8192, num_attention_heads 64, num_key_value_heads 8, intermediate_size 28672, vocab_size 32000, max_position_embeddings 4096" },
  { id = "llama-3-8b", name = "Llama-3-8B", layers = 32, hidden = 4096, heads = 32, kv_heads = 8, head_dim = 128,
    ffn = 14336, vocab = 128256, max_context = 8192, mlp = "gated",
    source = "meta-llama/Meta-Llama-3-8B config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32, num_key_value_heads 8, intermediate_size 14336, vocab_size 128256, max_position_embeddings 8192" },
  { id = "llama-3-70b", name = "Llama-3-70B", layers = 80, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128,
    ffn = 28672, vocab = 128256, max_context = 8192, mlp = "gated",
    source = "meta-llama/Meta-Llama-3-70B config.json: num_hidden_layers 80, hidden_size 8192, num_attention_heads 64, num_key_value_heads 8, intermediate_size 28672, vocab_size 128256, max_position_embeddings 8192" },
  { id = "mistral-7b", name = "Mistral-7B-v0.1", layers = 32, hidden = 4096, heads = 32, kv_heads = 8, head_dim = 128,
    ffn = 14336, vocab = 32000, max_context = 32768, sliding_window = 4096, mlp = "gated",
    source = "mistralai/Mistral-7B-v0.1 config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32, num_key_value_heads 8, intermediate_size 14336, vocab_size 32000, max_position_embeddings 32768, sliding_window 4096 (Jiang et al. 2023, table 1: window 4096, context 8192)" },
  -- MLA: the cache holds a compressed latent c_KV (kv_lora_rank = d_c = 512) and the decoupled
  -- RoPE key (qk_rope_head_dim = d_h^R = 64) per token per layer, (d_c + d_h^R) l elements
  -- (DeepSeek-AI 2024, "DeepSeek-V2", sec. 2.1 and table 1). A mixture of experts: 236B
  -- parameters in all, 21B active per token (the model card), not computed here.
  { id = "deepseek-v2", name = "DeepSeek-V2", layers = 60, hidden = 5120, heads = 128, kv_heads = 128, head_dim = 128,
    kv_lora_rank = 512, rope_head_dim = 64, ffn = 12288, vocab = 102400, max_context = 163840, mlp = "moe",
    params = 236e9, active_params = 21e9,
    source = "deepseek-ai/DeepSeek-V2 config.json: num_hidden_layers 60, hidden_size 5120, num_attention_heads 128, kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128, vocab_size 102400, max_position_embeddings 163840 (README: 128K context, 236B total / 21B activated parameters)" },
  -- the vLLM paper's model (Kwon et al. 2023, table 1: 13B on one A100 40GB, 26 GB of
  -- parameters, 12 GB for the KV cache, 15.7K token slots)
  { id = "opt-13b", name = "OPT-13B", layers = 40, hidden = 5120, heads = 40, kv_heads = 40, head_dim = 128,
    ffn = 20480, vocab = 50272, max_context = 2048, mlp = "gelu", positions = 2050,
    source = "facebook/opt-13b config.json: num_hidden_layers 40, hidden_size 5120, num_attention_heads 40, ffn_dim 20480, vocab_size 50272, max_position_embeddings 2048 (2 offset positions)" },
}

-- parameters: linear layers of each block as {name, in, out} (biases listed separately), and
-- the rest (embeddings, norms) that quantisation leaves in 16 bits
local function linears(m)
  local h, a, kv, d, f = m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn
  if m.mlp == "gated" then
    return { { "q_proj", h, a * d }, { "k_proj", h, kv * d }, { "v_proj", h, kv * d }, { "o_proj", a * d, h },
             { "gate_proj", h, f }, { "up_proj", h, f }, { "down_proj", f, h } }, 0
  elseif m.mlp == "gelu" then
    return { { "q_proj", h, a * d }, { "k_proj", h, kv * d }, { "v_proj", h, kv * d }, { "out_proj", a * d, h },
             { "fc1", h, f }, { "fc2", f, h } }, a * d + 2 * kv * d + h + f + h -- biases
  end
  return nil
end

local function model_params(m)
  if m.params then return m.params end
  local ls, biases = linears(m)
  local per = biases
  for _, l in ipairs(ls) do per = per + l[2] * l[3] end
  local h = m.hidden
  if m.mlp == "gated" then
    -- RMSNorm weight x2 per layer and final; untied LM head
    return m.vocab * h * 2 + m.layers * (per + 2 * h) + h
  end
  -- OPT: LayerNorm weight and bias x2 per layer and final; learned positions; tied LM head
  return m.vocab * h + m.positions * h + m.layers * (per + 4 * h) + 2 * h
end

-- the weights of a model at a scheme (a mixture of experts counts as one pool of params)
local function weights_of(m, t)
  if m.mlp == "moe" then
    return M.quantized { params = m.params, scheme = t.scheme, bits = t.bits, group = t.group, hidden = m.hidden }
  end
  return M.quantized { model = m, scheme = t.scheme, bits = t.bits, group = t.group }
end

-- the tensor-parallel degree of an estimator's options (1 to 1024 GPUs)
local function tp_of(fn, t) return whole(fn, t, "tp", 1, 1024) end

local MODEL_IDS = {}
for i, m in ipairs(MODELS) do MODEL_IDS[i] = m.id end

local function fresh(m)
  local c = E.copy(m)
  c.params = E.int(model_params(m))
  c.attention = m.kv_lora_rank and "mla" or (m.kv_heads == m.heads and "mha" or (m.kv_heads == 1 and "mqa" or "gqa"))
  return c
end

--- vram.models() -> a fresh list of the model shapes: id, name, layers, hidden, heads, kv_heads,
-- head_dim, ffn, vocab, max_context, sliding_window (Mistral), kv_lora_rank and rope_head_dim
-- (MLA), attention ("mha", "gqa", "mqa", "mla"), params (computed from the shape, or published),
-- source (the config.json fields the figures come from).
function M.models()
  local out = {}
  for i, m in ipairs(MODELS) do out[i] = fresh(m) end
  return out
end

-- a model by id (case-insensitive) or a table of its shape; errors name the calling function
local function model_of(fn, v)
  if type(v) == "table" then
    local c = E.copy(v)
    for _, k in ipairs { "layers", "hidden", "heads", "kv_heads", "head_dim" } do
      if type(c[k]) ~= "number" or c[k] < 1 or c[k] % 1 ~= 0 then
        raise(fmt("vram.%s: the model table needs '%s' (a whole number)", fn, k))
      end
    end
    c.vocab = c.vocab or 32000
    c.ffn = c.ffn or 4 * c.hidden
    c.mlp = c.mlp or "gated"
    c.params = c.params or model_params(c)
    c.attention = c.kv_lora_rank and "mla" or (c.kv_heads == c.heads and "mha" or (c.kv_heads == 1 and "mqa" or "gqa"))
    return c
  end
  if type(v) == "string" then
    for _, m in ipairs(MODELS) do if m.id == lower(v) then return fresh(m) end end
  end
  raise(fmt("vram.%s: unknown model '%s' (models: %s; or a table {layers=, hidden=, heads=, kv_heads=, head_dim=})",
            fn, tostring(v), concat(MODEL_IDS, ", ")))
end

--- vram.model(id) -> one row of vram.models() ("llama-3-8b").
function M.model(id) return model_of("model", id) end

-- ---------------------------------------------------------------------------------------
-- the KV cache

--- vram.kv{model= or layers=, kv_heads=, head_dim=, (MLA: kv_lora_rank=, rope_head_dim=),
-- tokens=1, batch=1, dtype="fp16", window=, tp=1} -> table: per_token (bytes, all layers),
-- per_token_layer, k and v (bytes per token per layer; MLA: latent and rope), tokens (cached:
-- min(tokens, window) for a sliding window), total (per_token x tokens x batch), kind, formula.
-- MHA/GQA/MQA: 2 x layers x kv_heads x head_dim x bytes per token: Llama-2-7B (32 x 32 x 128)
-- in fp16 is 512 KiB per token, 2 GiB at 4096 tokens; GQA divides by heads/kv_heads, MQA keeps
-- one head. MLA (DeepSeek-V2): (kv_lora_rank + rope_head_dim) x layers x bytes = (512 + 64) x 60
-- x 2 = 69,120 B per token. A sliding window (Mistral's rolling buffer cache, Jiang et al. 2023,
-- sec. 2; Transformers' DynamicSlidingWindowLayer) caps the tokens kept at the window; window =
-- false keeps every token (a DynamicCache made without the model's config does).
-- tp: tensor parallelism over tp GPUs, every figure per GPU: each holds max(1, kv_heads // tp)
-- KV heads (vLLM's attention layers: num_kv_heads = max(1, total_num_kv_heads // tp_size), so
-- past kv_heads GPUs the heads are replicated); MLA's latent is not split by heads: every GPU
-- keeps all of it. kv_heads_per_gpu says how many.
function M.kv(t)
  opts("kv", t)
  known("kv", t, set { "model", "layers", "kv_heads", "head_dim", "kv_lora_rank", "rope_head_dim", "heads",
                       "tokens", "batch", "dtype", "window", "tp" })
  local m
  if t.model ~= nil then
    m = model_of("kv", t.model)
  else
    m = { layers = whole("kv", t, "layers"), kv_heads = t.kv_lora_rank and 1 or whole("kv", t, "kv_heads"),
          head_dim = t.kv_lora_rank and 1 or whole("kv", t, "head_dim") }
    if t.kv_lora_rank ~= nil then
      m.kv_lora_rank = whole("kv", t, "kv_lora_rank"); m.rope_head_dim = whole("kv", t, "rope_head_dim", 0)
    end
    m.heads = t.heads
  end
  local n = whole("kv", t, "tokens", 1)
  local bs = whole("kv", t, "batch", 1)
  local dname, b = E.dtype("kv", t, "dtype", "fp16")
  local win = m.sliding_window
  if t.window == false then win = nil elseif t.window ~= nil then win = whole("kv", t, "window") end
  local tp = whole("kv", t, "tp", 1, 1024)
  local r = { layers = m.layers, dtype = dname, batch = bs, tp = tp }
  if m.kv_lora_rank then
    r.kind = "mla"
    r.latent, r.rope = m.kv_lora_rank * b, (m.rope_head_dim or 0) * b
    r.per_token_layer = r.latent + r.rope
    r.formula = "(kv_lora_rank + rope_head_dim) x layers x bytes"
  else
    r.kind = m.heads and (m.kv_heads == m.heads and "mha" or (m.kv_heads == 1 and "mqa" or "gqa")) or
             (m.kv_heads == 1 and "mqa" or "gqa/mha")
    r.kv_heads_per_gpu = max(1, m.kv_heads // tp)
    r.k = r.kv_heads_per_gpu * m.head_dim * b
    r.v = r.k
    r.per_token_layer = r.k + r.v
    r.formula = "2 x layers x kv_heads x head_dim x bytes"
  end
  r.per_token = r.per_token_layer * m.layers
  r.tokens = win and min(n, win) or n
  r.window = win
  r.total = r.per_token * r.tokens * bs
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

-- ---------------------------------------------------------------------------------------
-- weights by precision, with the quantisation constants

local SCHEMES = { "fp32", "fp16", "bf16", "int8", "fp8", "fp8_channel", "gptq", "awq", "nf4", "nf4_dq" }

-- bytes of one quantised [in x out] linear layer: parts packed, scales, zeros, g_idx
local function qlinear(scheme, bits, g, nin, nout)
  local groups = ceil(nin / g)
  if scheme == "int8" then
    -- bitsandbytes LLM.int8() (Dettmers et al. 2022): int8 weight, one fp32 scale per output row (SCB)
    return nin * nout, 4 * nout, 0, 0
  elseif scheme == "fp8" then return nin * nout, 4, 0, 0 -- one fp32 scale per tensor
  elseif scheme == "fp8_channel" then return nin * nout, 4 * nout, 0, 0 -- one per output channel
  elseif scheme == "gptq" then
    -- AutoGPTQ QuantLinear buffers: qweight int32 [in*bits/32, out], qzeros int32 [ceil(in/g), out*bits/32],
    -- scales fp16 [ceil(in/g), out], g_idx int32 [in]
    return nin * nout * bits / 8, groups * nout * 2, groups * nout * bits / 8, 4 * nin
  elseif scheme == "awq" then
    -- AutoAWQ WQLinear_GEMM: qweight int32 [in, out*bits/32], qzeros int32 [ceil(in/g), out*bits/32],
    -- scales fp16 [ceil(in/g), out]; no g_idx
    return nin * nout * bits / 8, groups * nout * 2, groups * nout * bits / 8, 0
  elseif scheme == "nf4" then
    -- bitsandbytes Params4bit: 4-bit codes, an fp32 absmax per block of 64, a 16-entry fp32 code map
    local n = nin * nout
    return n / 2, 4 * ceil(n / 64) + 16 * 4, 0, 0
  elseif scheme == "nf4_dq" then
    -- QLoRA double quantisation (Dettmers et al. 2023, sec. 3): 8-bit absmax per block of 64, an fp32
    -- constant per 256 of those blocks, plus an fp32 offset and the two code maps
    local n = nin * nout
    local blocks = ceil(n / 64)
    return n / 2, blocks + 4 * ceil(blocks / 256) + 4 + 16 * 4 + 256 * 4, 0, 0
  end
end

--- vram.quantized{model= or params=, scheme="fp16", bits=4, group=128, hidden=4096} -> table:
-- packed (the weights' own bytes), scales, zeros, g_idx, kept (embeddings, LM head, norms and
-- biases, left in 16 bits as GPTQ, AWQ, bitsandbytes and vLLM leave them), total, params,
-- quantized_params, bytes_per_param (total / params), bits_per_weight (of the quantised layers,
-- constants included), layout. Schemes: fp32, fp16, bf16; int8 (bitsandbytes LLM.int8: fp32
-- scale per output row); fp8 (one fp32 scale per tensor), fp8_channel (per output channel); gptq
-- (bits 2, 3, 4 or 8; AutoGPTQ: fp16 scale and packed zero point per group of `group` input
-- rows, int32 g_idx per input row), awq (4-bit; no g_idx); nf4 (bitsandbytes, fp32 absmax per 64
-- weights), nf4_dq (QLoRA's double quantisation: 0.127 bits per weight of constants). group = -1
-- is one group per column. With params= instead of a model, every parameter counts as a linear
-- weight of `hidden` inputs and outputs (no kept parts).
--   Llama-2-7B, gptq 4-bit, group 128: 3.89 GB: 4.16 bits per quantised weight, 4.62 bits per
--   parameter with the 16-bit embeddings and LM head (fp16: 13.48 GB).
function M.quantized(t)
  opts("quantized", t)
  known("quantized", t, set { "model", "params", "scheme", "bits", "group", "hidden" })
  local scheme = choice("quantized", t, "scheme", "fp16", SCHEMES)
  local bits = 16
  if scheme == "gptq" then
    bits = t.bits == nil and 4 or t.bits
    if bits ~= 2 and bits ~= 3 and bits ~= 4 and bits ~= 8 then raise("vram.quantized: gptq 'bits' must be 2, 3, 4 or 8") end
  elseif scheme == "awq" then
    bits = t.bits == nil and 4 or t.bits
    if bits ~= 4 then raise("vram.quantized: awq 'bits' must be 4") end
  elseif t.bits ~= nil then
    raise(fmt("vram.quantized: 'bits' applies to gptq and awq only (scheme is %s)", scheme))
  end
  local g = t.group == nil and 128 or t.group
  if g ~= -1 and (type(g) ~= "number" or g < 1 or g % 1 ~= 0) then
    raise("vram.quantized: 'group' must be a whole number of input rows per group, or -1 (one group per column)")
  end
  local ls, extra, P, layers, kept
  if t.model ~= nil then
    if t.params ~= nil then raise("vram.quantized: give 'model' or 'params', not both") end
    local m = model_of("quantized", t.model)
    ls, extra = linears(m)
    if not ls then raise(fmt("vram.quantized: model '%s' is a mixture of experts; pass params= instead", m.id or "?")) end
    P, layers = m.params, m.layers
    local qp = 0
    for _, l in ipairs(ls) do qp = qp + l[2] * l[3] end
    kept = P - qp * layers -- embeddings, LM head, norms, biases
  else
    P = count("quantized", t, "params")
    local h = whole("quantized", t, "hidden", 4096)
    ls, extra, layers, kept = { { "all", h, P / h } }, 0, 1, 0
  end
  local r = { scheme = scheme, bits = bits, group = g, params = P, packed = 0, scales = 0, zeros = 0, g_idx = 0 }
  if scheme == "fp32" or scheme == "fp16" or scheme == "bf16" then
    local b = E.DTYPES[scheme]
    r.packed, r.kept, r.quantized_params = (P - kept) * b, kept * b, 0
    r.layout = fmt("%s: %d bytes per parameter", scheme, b)
  else
    for _, l in ipairs(ls) do
      local gg = g == -1 and l[2] or g
      local pk, sc, z, gi = qlinear(scheme, bits, gg, l[2], l[3])
      r.packed, r.scales, r.zeros, r.g_idx = r.packed + pk * layers, r.scales + sc * layers, r.zeros + z * layers, r.g_idx + gi * layers
    end
    r.kept = kept * 2
    r.quantized_params = P - kept
    r.layout = ({ int8 = "int8 weights, fp32 scale per output row", fp8 = "fp8 weights, one fp32 scale per tensor",
                  fp8_channel = "fp8 weights, fp32 scale per output channel",
                  gptq = fmt("%d-bit packed in int32, fp16 scale and %d-bit zero per group of %s, int32 g_idx per input row", bits, bits, g == -1 and "a column" or tostring(g)),
                  awq = fmt("4-bit packed in int32, fp16 scale and 4-bit zero per group of %s", g == -1 and "a column" or tostring(g)),
                  nf4 = "4-bit NormalFloat, fp32 absmax per 64", nf4_dq = "4-bit NormalFloat, 8-bit absmax per 64, fp32 per 256 blocks" })[scheme]
  end
  r.total = r.packed + r.scales + r.zeros + r.g_idx + r.kept
  r.bytes_per_param = r.total / P
  local qbytes = r.packed + r.scales + r.zeros + r.g_idx
  r.bits_per_weight = r.quantized_params > 0 and 8 * qbytes / r.quantized_params or 8 * r.bytes_per_param
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

-- ---------------------------------------------------------------------------------------
-- what a runtime adds, and whether a model fits

-- The CUDA context: what cudaMemGetInfo loses when the first CUDA call creates it, driver and
-- runtime state plus the kernels loaded. PyTorch PR 86509 (CUDA 11.7, lazy loading): 287,047,680 B
-- used after one small tensor (20 MiB of it the allocator's segment), 666,632,192 B with eager
-- loading; unsloth-zoo PR 1053 (RTX 6000 Ada, PyTorch 2.10, CUDA 13): 426 MiB in nvidia-smi after
-- torch.cuda.mem_get_info() alone. A default to replace with a measurement (alloc.ledger()).
local CONTEXT = 426 * 2^20

-- peak of one forward pass's activations over `tokens` tokens x batch, 16-bit: the residual
-- stream and its normed copy, then the larger of attention (q, k, v and the output; without
-- FlashAttention the scores and softmax, fp32 as Hugging Face's eager attention upcasts) and the
-- MLP (gate, up and their product, or fc1 and GELU), plus the logits of the last token (or of every
-- token with logits = "all", fp32, as Hugging Face's causal LMs return them)
local function forward_peak(m, tokens, batch, flash, all_logits, tp)
  tp = tp or 1
  local n = tokens * batch
  local h, a, kv, d, f = m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn
  local base = 2 * n * h * 2
  local attn = n * (a + 2 * kv) * d * 2 + n * a * d * 2
  if not flash then attn = attn + 2 * a * tokens * tokens * batch * 4 end
  local mlp = (m.mlp == "gated" and 3 or 2) * n * f * 2
  local logits = (all_logits and n or batch) * m.vocab * (all_logits and 4 or 2)
  -- tensor parallelism splits heads and the MLP's width; the residual stream stays whole
  attn, mlp = attn / tp, mlp / tp
  return { residual = base, attention = attn, mlp = mlp, logits = logits, total = base + max(attn, mlp) + logits }
end

--- vram.inference_memory{model=, scheme="fp16", bits=, group=, context=4096, batch=1,
-- kv_dtype="fp16", flash=true, logits="last", cuda_context=446693376, workspace=, cc=, tp=1,
-- capacity= or gpu=} -> table: weights (bytes), weight_parts (vram.quantized's table), kv
-- (context x batch tokens), activations (one forward over the whole context: its peak by part),
-- cuda_context, workspace, total, and with a capacity: capacity, fits, free (capacity - total).
-- cuda_context is 426 MiB by default, an estimate from published measurements (270-430 MiB with
-- lazy loading, 636 MiB without): measure yours with alloc.ledger(). workspace is PyTorch's
-- default cuBLAS workspace for the GPU's compute capability (cc=, or the gpu='s): 32 MiB on
-- Hopper and Blackwell (9.x-12.x), 8,519,680 B before (and when the capability is unknown).
-- tp: tensor parallelism over tp GPUs (Megatron-LM's column and row splits, vocabulary-parallel
-- embedding and head, as vLLM shards a model): every figure is one GPU's, the weights / tp
-- (the norms' few vectors split too, under 0.01 %), the KV cache of max(1, kv_heads // tp)
-- heads (vram.kv), the attention and MLP activations / tp (the residual stream stays whole).
function M.inference_memory(t)
  opts("inference_memory", t)
  known("inference_memory", t, set { "model", "scheme", "bits", "group", "context", "batch", "kv_dtype", "flash",
                                     "logits", "cuda_context", "workspace", "cc", "capacity", "gpu", "tp" })
  local m = model_of("inference_memory", t.model)
  if t.cc ~= nil and type(t.cc) ~= "string" and type(t.cc) ~= "number" then
    raise("vram.inference_memory: 'cc' is a compute capability such as \"9.0\" (gpu.info().compute_capability)")
  end
  local q = weights_of(m, t)
  local ctx = whole("inference_memory", t, "context", min(4096, m.max_context or 4096))
  local bs = whole("inference_memory", t, "batch", 1)
  local flash = bool("inference_memory", t, "flash", true)
  local lg = choice("inference_memory", t, "logits", "last", { "last", "all" })
  local tp = tp_of("inference_memory", t)
  local kv = M.kv { model = t.model, tokens = ctx, batch = bs, dtype = t.kv_dtype, tp = tp }
  local act = forward_peak(m, ctx, bs, flash, lg == "all", tp)
  local r = { model = m.name or m.id, scheme = q.scheme, weights = q.total / tp, weight_parts = q, kv = kv.total,
              activations = act.total, activation_parts = act, tp = tp,
              cuda_context = nonneg("inference_memory", t, "cuda_context", CONTEXT),
              workspace = nonneg("inference_memory", t, "workspace", E.train.cublas_workspace(t.cc or (t.gpu ~= nil and E.train.gpu_of("inference_memory", t.gpu).cc))),
              context = ctx, batch = bs }
  r.total = r.weights + r.kv + r.activations + r.cuda_context + r.workspace
  local cap = t.capacity
  if cap == nil and t.gpu ~= nil then cap = E.train.gpu_of("inference_memory", t.gpu).capacity end
  if cap ~= nil then
    r.capacity = count("inference_memory", { capacity = cap }, "capacity")
    r.fits = r.total <= r.capacity
    r.free = r.capacity - r.total
  end
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

-- ---------------------------------------------------------------------------------------
-- the KV cache growing, as allocator events

--- vram.kv_growth{model= or layers=, kv_heads=, head_dim=, prompt=, new_tokens=,
-- mode="concat"|"prealloc", max_tokens=prompt+new_tokens, batch=1, dtype="fp16"} -> table:
-- events ({op="alloc"|"free", id=, name=, bytes=, kind="kv", phase="prefill"|"decode", layer=,
-- step=}, for alloc.model or vram.trace_events), peak (the largest sum of live bytes), final
-- (live at the end), allocs, frees, per_token_layer (bytes of K or V for one token in one layer).
-- concat is Hugging Face's DynamicCache: each decode step, every layer's K and V become
-- torch.cat([past, new]): a tensor one token longer is allocated, then the old one freed, so a
-- cache of n tokens has been allocated n - prompt + 1 times. prealloc is a static cache
-- (StaticCache, or an engine's pool): K and V of max_tokens per layer, allocated once. The 1-token
-- K and V of each step are left out.
function M.kv_growth(t)
  opts("kv_growth", t)
  known("kv_growth", t, set { "model", "layers", "kv_heads", "head_dim", "prompt", "new_tokens", "mode",
                              "max_tokens", "batch", "dtype" })
  local kvt = { tokens = 1, dtype = t.dtype, batch = 1 }
  if t.model ~= nil then kvt.model = t.model else kvt.layers, kvt.kv_heads, kvt.head_dim = t.layers, t.kv_heads, t.head_dim end
  local per = M.kv(kvt)
  if per.kind == "mla" then raise("vram.kv_growth: MLA models cache one latent per token; give layers=, kv_heads=, head_dim=") end
  local L = per.layers
  local p = whole("kv_growth", t, "prompt")
  local nt = nonneg("kv_growth", t, "new_tokens", 0)
  if nt % 1 ~= 0 then raise("vram.kv_growth: 'new_tokens' must be a whole number") end
  local mode = choice("kv_growth", t, "mode", "concat", { "concat", "prealloc" })
  local maxt = whole("kv_growth", t, "max_tokens", p + nt)
  if maxt < p + nt then raise(fmt("vram.kv_growth: 'max_tokens' (%d) is less than prompt + new_tokens (%d)", maxt, p + nt)) end
  local bs = whole("kv_growth", t, "batch", 1)
  if mode == "concat" and 2 * L * (nt + 1) > 2e6 then
    raise(fmt("vram.kv_growth: %d layers x %d new tokens make %d events; keep it under 2 million", L, nt, 4 * L * nt))
  end
  local unit = per.k * bs -- bytes of K (or V) for one token of every sequence in one layer
  local ev, id, live, peak = {}, 0, 0, 0
  local function alloc(name, bytes, phase, layer, step)
    id = id + 1
    ev[#ev + 1] = { op = "alloc", id = id, name = name, bytes = bytes, kind = "kv", phase = phase, layer = layer, step = step }
    live = live + bytes
    if live > peak then peak = live end
    return id
  end
  local function free(i, name, bytes, phase, layer, step)
    ev[#ev + 1] = { op = "free", id = i, name = name, bytes = bytes, kind = "kv", phase = phase, layer = layer, step = step }
    live = live - bytes
  end
  local K, V = {}, {}
  local n0 = mode == "prealloc" and maxt or p
  for l = 1, L do
    K[l] = alloc(fmt("layer %d K", l), n0 * unit, "prefill", l, 0)
    V[l] = alloc(fmt("layer %d V", l), n0 * unit, "prefill", l, 0)
  end
  if mode == "concat" then
    for s = 1, nt do
      local n = p + s
      for l = 1, L do
        local k2 = alloc(fmt("layer %d K", l), n * unit, "decode", l, s)
        free(K[l], fmt("layer %d K", l), (n - 1) * unit, "decode", l, s)
        local v2 = alloc(fmt("layer %d V", l), n * unit, "decode", l, s)
        free(V[l], fmt("layer %d V", l), (n - 1) * unit, "decode", l, s)
        K[l], V[l] = k2, v2
      end
    end
  end
  local allocs = 0
  for _, x in ipairs(ev) do if x.op == "alloc" then allocs = allocs + 1 end end
  return { events = ev, peak = peak, final = live, allocs = allocs, frees = #ev - allocs, mode = mode,
           per_token_layer = E.int(per.k), layers = L, prompt = p, new_tokens = nt, max_tokens = maxt, batch = bs,
           used = (p + nt) * per.per_token * bs }
end

-- ---------------------------------------------------------------------------------------
-- the roofline: decode is bandwidth-bound

local function gpu_figures(fn, t)
  local g = t.gpu ~= nil and E.train.gpu_of(fn, t.gpu) or {}
  local bw = t.bandwidth or g.bandwidth
  local fl = t.flops or g.flops
  return count(fn, { bandwidth = bw }, "bandwidth"), count(fn, { flops = fl }, "flops")
end

--- vram.roofline{intensity=, flops= and bandwidth=, or gpu=} -> table: attainable (FLOP/s) =
-- min(flops, intensity x bandwidth), ridge (the intensity, FLOP per byte, where the two meet),
-- bound ("memory" below the ridge, "compute" at or above it), fraction (attainable / flops).
-- Williams, Waterman and Patterson 2009, "Roofline". H100 SXM: 989.4e12 / 3.35e12 = 295 FLOP/B.
function M.roofline(t)
  opts("roofline", t)
  known("roofline", t, set { "intensity", "flops", "bandwidth", "gpu" })
  local ai = count("roofline", t, "intensity")
  local bw, fl = gpu_figures("roofline", t)
  local att = min(fl, ai * bw)
  return { intensity = ai, attainable = att, ridge = fl / bw, bound = ai < fl / bw and "memory" or "compute",
           fraction = att / fl, flops = fl, bandwidth = bw }
end

-- FLOPs of one token through the model: 2 per weight it multiplies (the embedding table is looked
-- up, not multiplied), plus attention over `ctx` cached tokens: QK^T and attention x V,
-- 2 x 2 x ctx x heads x head_dim per layer
local function token_flops(m, ctx)
  local mm = (m.active_params or m.params) - m.vocab * m.hidden
  return 2 * mm + 4 * m.layers * ctx * m.heads * m.head_dim
end

-- One step on the roofline, its bytes and flops set: intensity, the time the memory and the
-- compute each need, the step (the longer), the bound, the ridge, and tokens/s for the `tokens`
-- the step makes.
local function roofline_step(r, bw, fl, tokens)
  r.intensity = r.flops / r.bytes
  r.memory_seconds, r.compute_seconds = r.bytes / bw, r.flops / fl
  r.step_seconds = max(r.memory_seconds, r.compute_seconds)
  r.tokens_per_s = tokens / r.step_seconds
  r.bound = r.memory_seconds >= r.compute_seconds and "memory" or "compute"
  r.ridge = fl / bw
end

--- vram.decode{model=, scheme="fp16", bits=, group=, context=, batch=1, kv_dtype="fp16", gpu= or
-- bandwidth= and flops=} -> table for one decode step of `batch` sequences at `context` cached
-- tokens: weight_bytes (read once per step), kv_bytes (every sequence's cache read), bytes (also
-- what must be resident: with gpu=, capacity and fits), flops (2 per multiplied weight per token
-- + attention), intensity (FLOP/B), tokens_per_s
-- (= batch / step time), step_seconds = max(bytes / bandwidth, flops / peak FLOP/s),
-- tokens_per_s_memory (batch x bandwidth / bytes: the bound decode meets), tokens_per_s_compute,
-- bound, ridge. Batching multiplies the FLOPs but reads the weights once: the intensity grows
-- with batch until the KV reads dominate or the cache fills memory (vram.serving).
-- tp: tensor parallelism over tp GPUs working on each token at once; the byte and FLOP figures
-- are one GPU's (weights / tp, its KV heads: vram.kv), bandwidth and flops one GPU's, so the
-- ceiling is tp times one GPU's while the shards shrink; the two all-reduces per layer (their
-- latency, microseconds each) are left out, which is where measured tensor-parallel decode falls
-- below it. total_weight_bytes and total_kv_bytes: all GPUs'.
function M.decode(t)
  opts("decode", t)
  known("decode", t, set { "model", "scheme", "bits", "group", "context", "batch", "kv_dtype", "gpu", "bandwidth", "flops", "tp" })
  local m = model_of("decode", t.model)
  local q = weights_of(m, t)
  local ctx = whole("decode", t, "context")
  local bs = whole("decode", t, "batch", 1)
  local tp = tp_of("decode", t)
  local bw, fl = gpu_figures("decode", t)
  local kv = M.kv { model = t.model, tokens = ctx, batch = bs, dtype = t.kv_dtype, tp = tp }
  local r = { weight_bytes = q.total / tp, kv_bytes = kv.total, batch = bs, context = ctx, tp = tp,
              total_weight_bytes = q.total, total_kv_bytes = tp == 1 and kv.total or
                M.kv { model = t.model, tokens = ctx, batch = bs, dtype = t.kv_dtype }.total }
  r.bytes = r.weight_bytes + r.kv_bytes
  local g = t.gpu ~= nil and E.train.gpu_of("decode", t.gpu) or {}
  if g.capacity then r.capacity = g.capacity; r.fits = r.bytes <= g.capacity end
  r.flops = bs * token_flops(m, ctx) / tp
  roofline_step(r, bw, fl, bs)
  r.tokens_per_s_memory = bs * bw / r.bytes
  r.tokens_per_s_compute = bs * fl / r.flops
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

--- vram.prefill{model=, scheme="fp16", tokens=, batch=1, kv_dtype="fp16", gpu= or bandwidth= and
-- flops=} -> the same fields as vram.decode for one prefill of `tokens` prompt tokens: FLOPs
-- 2 x weights x tokens + causal attention (2 x tokens^2 x heads x head_dim per layer), bytes the
-- weights read once plus the KV cache written. Its intensity is about `tokens` FLOP per byte of
-- 16-bit weights: prefill is compute-bound beyond the ridge.
function M.prefill(t)
  opts("prefill", t)
  known("prefill", t, set { "model", "scheme", "bits", "group", "tokens", "batch", "kv_dtype", "gpu", "bandwidth", "flops", "tp" })
  local m = model_of("prefill", t.model)
  local q = weights_of(m, t)
  local n = whole("prefill", t, "tokens")
  local bs = whole("prefill", t, "batch", 1)
  local tp = tp_of("prefill", t)
  local bw, fl = gpu_figures("prefill", t)
  local kv = M.kv { model = t.model, tokens = n, batch = bs, dtype = t.kv_dtype, tp = tp }
  local mm = (m.active_params or m.params) - m.vocab * m.hidden
  local r = { weight_bytes = q.total / tp, kv_bytes = kv.total, batch = bs, tokens = n, tp = tp }
  r.bytes = r.weight_bytes + r.kv_bytes
  r.flops = bs * (2 * mm * n + 2 * m.layers * n * n * m.heads * m.head_dim) / tp
  roofline_step(r, bw, fl, bs * n)
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

-- ---------------------------------------------------------------------------------------
-- serving within a budget

-- vLLM's scheduler defaults by device (EngineArgs.get_batch_defaults, vllm/engine/arg_utils.py):
-- on a GPU with at least 70 GiB whose name does not contain "a100" (H100, H200, B200, MI300X),
-- max_num_seqs 1024 and max_num_batched_tokens 16384 for the LLM class, 8192 for the API server
-- (`vllm serve`); elsewhere 256 and 8192 / 2048. usage: "server" (default) or "llm".
local function vllm_defaults(capacity, name, usage)
  local big = capacity >= 70 * 2^30 and not string.find(string.lower(name or ""), "a100", 1, true)
  local llm = usage == "llm"
  if big then return 1024, llm and 16384 or 8192 end
  return 256, llm and 8192 or 2048
end

--- vram.serving{model=, scheme="fp16", bits=, group=, capacity= or gpu=, name=, usage="server",
-- context=max_context, kv_dtype="fp16", utilization=0.9, batched_tokens=, max_num_seqs=,
-- non_torch=0, cuda_graphs=0, cuda_context=446693376, block=16, tp=1, nccl=} -> table. vLLM V1's accounting
-- (vllm/v1/worker/gpu_worker.py, determine_available_memory; vllm/utils/mem_utils.py,
-- memory_profiling): budget = capacity x utilization (requested_memory; gpu_memory_utilization
-- 0.90 by default); kv_pool = budget - weights - activations (the peak of one profiling forward
-- over batched_tokens tokens, plus the sampler's fp32 logits for max_num_seqs sequences) -
-- non_torch (memory outside PyTorch that grows during that forward) - cuda_graphs (their pool:
-- vLLM >= 0.21 estimates it and subtracts it, VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS; 0 for
-- enforce_eager, or an older vLLM, where it comes on top of the budget). The CUDA context is not
-- subtracted: it exists when vLLM takes its start-up snapshot, so it is in the baseline, inside
-- the 10 % outside the budget; startup_ok says whether capacity - cuda_context >= budget (else
-- vLLM refuses to start). batched_tokens and max_num_seqs default to vLLM's for the device
-- (capacity and name: the gpu's, or name=; usage "server" for `vllm serve`, "llm" for the LLM
-- class). Also: weights, cuda_context, per_token, per_seq (context tokens), blocks (kv_pool /
-- (block x per_token)), max_tokens (token slots), max_seqs (full-context sequences that fit),
-- concurrent (min(max_seqs, max_num_seqs)), fits (kv_pool holds at least one sequence).
-- tp: tensor parallelism over tp GPUs of this capacity; every byte figure is one GPU's (each
-- GPU's budget holds its shard of the weights and its KV heads for every token: vram.kv), so
-- max_tokens counts tokens of the whole model. NCCL's buffers (nccl=, a recorded 688 MB by
-- default when tp > 1: vram_dist.lua) are set up before the start-up snapshot, like the context:
-- not subtracted, but outside the budget (startup_ok).
function M.serving(t)
  opts("serving", t)
  known("serving", t, set { "model", "scheme", "bits", "group", "capacity", "gpu", "name", "usage", "context", "kv_dtype",
                            "utilization", "batched_tokens", "max_num_seqs", "non_torch", "cuda_graphs", "cuda_context", "block",
                            "tp", "nccl" })
  local m = model_of("serving", t.model)
  local cap, name = t.capacity, t.name
  if t.gpu ~= nil then
    local g = E.train.gpu_of("serving", t.gpu)
    if cap == nil then cap = g.capacity end
    if name == nil then name = g.name end
  end
  cap = count("serving", { capacity = cap }, "capacity")
  if name ~= nil and type(name) ~= "string" then raise("vram.serving: 'name' must be the device's name, a string") end
  local usage = t.usage == nil and "server" or t.usage
  if usage ~= "server" and usage ~= "llm" then raise("vram.serving: 'usage' must be \"server\" (vllm serve) or \"llm\" (the LLM class)") end
  local dseqs, dtok = vllm_defaults(cap, name, usage)
  local util = fraction("serving", t, "utilization", 0.9)
  local q = weights_of(m, t)
  local ctx = whole("serving", t, "context", m.max_context or 4096)
  local bt = whole("serving", t, "batched_tokens", dtok)
  local nseq = whole("serving", t, "max_num_seqs", dseqs)
  local blk = whole("serving", t, "block", 16)
  local tp = tp_of("serving", t)
  local per = M.kv { model = t.model, tokens = 1, dtype = t.kv_dtype, tp = tp }
  -- the profiling forward (its last-token logits replaced by the sampler's, fp32, per sequence)
  local fwd = m.mlp == "moe" and 0 or forward_peak(m, bt, 1, true, false, tp)
  local act = fwd == 0 and 0 or fwd.total - fwd.logits + min(nseq, bt) * m.vocab * 4
  local r = { capacity = cap, utilization = util, budget = cap * util, weights = q.total / tp, activations = act, tp = tp,
              nccl = tp > 1 and nonneg("serving", t, "nccl", E.dist.NCCL_RECORDED) or nonneg("serving", t, "nccl", 0),
              non_torch = nonneg("serving", t, "non_torch", 0), cuda_graphs = nonneg("serving", t, "cuda_graphs", 0),
              cuda_context = nonneg("serving", t, "cuda_context", CONTEXT), per_token = per.per_token, context = ctx,
              block = blk, batched_tokens = bt, max_num_seqs = nseq }
  r.kv_pool = max(0, r.budget - r.weights - r.activations - r.non_torch - r.cuda_graphs)
  r.startup_ok = cap - r.cuda_context - r.nccl >= r.budget
  r.per_seq = r.per_token * min(ctx, per.window or ctx)
  r.blocks = floor(r.kv_pool / (blk * r.per_token))
  r.max_tokens = r.blocks * blk
  r.max_seqs = floor(r.max_tokens / min(ctx, per.window or ctx))
  r.concurrent = min(r.max_seqs, nseq)
  r.fits = r.max_seqs >= 1
  for k, v in pairs(r) do if type(v) == "number" then r[k] = E.int(v) end end
  return r
end

-- ---------------------------------------------------------------------------------------
-- vLLM's start-up, step by step

-- vLLM's default CUDA-graph capture sizes (vllm/config/vllm.py, _set_cudagraph_sizes): up to
-- max_cudagraph_capture_size = min(max_num_seqs x 2, 512), at most max_num_batched_tokens:
-- [1, 2, 4] + range(8, min(max + 1, 256), 8) + range(256, max + 1, 16)
local function capture_sizes(max_num_seqs, batched)
  local top = min(min(max_num_seqs * 2, 512), batched)
  local out = {}
  for _, x in ipairs { 1, 2, 4 } do if x <= top then out[#out + 1] = x end end
  for x = 8, min(top, 255), 8 do out[#out + 1] = x end
  for x = 256, top, 16 do out[#out + 1] = x end
  return out
end

-- CUDA graphs' memory per graph after the first, from public vLLM logs ("Estimated CUDA graph
-- memory" over the graphs it names): 0.36 GiB for 16 (vLLM 0.27.1, gpustack/runner PR 251),
-- 1.62 GiB for 86 (vLLM PR 39559), 0.09 GiB for 5 (noonghunna/club-3090 issue 434): 18 to 23 MiB
-- a graph; a fourth (aivrar/vllm-windows-build issue 4) measured 0.11 GiB for 30, under 4 MiB.
local GRAPH_EACH = 18 * 2^20

--- vram.vllm_startup{model=, scheme="fp16", capacity= or gpu=, name=, usage="server", context=,
-- tp=1, utilization=0.9, kv_cache_dtype="auto", enforce_eager=false, capture_sizes=,
-- max_num_seqs=, batched_tokens=, graph_each=18 MiB, estimate_graphs=true, cuda_context=,
-- nccl=, non_torch=0, block=16} -> table: the start-up of one vLLM V1 GPU worker as it runs
-- (vllm/v1/worker/gpu_worker.py): steps, in order, each {key, bytes (what the step holds on the
-- GPU), used (device memory in use after it), transient (true: freed when the step ends)}:
--   context   CUDA context and, with tp > 1, NCCL's buffers (init_device), then the snapshot
--   weights   load_model
--   profile   profile_run: one forward over max_num_batched_tokens and the sampler; its peak
--             (torch_peak_increase) is subtracted, the memory then returns to the cache
--   graph_estimate  vLLM >= 0.21 (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS): a few graphs captured
--             in a scratch pool to estimate the rest (gpu_model_runner.py,
--             profile_cudagraph_memory: the largest graph's capture + (n - 1) x the next one's)
--   kv_pool   budget - weights - profile peak - non_torch - graph estimate, allocated whole
--   capture   capture_model: the graphs, largest first, into one shared pool (the real pool
--             here equals the estimate)
--   sampler   the sampler's warm-up buffers for max_num_seqs sequences, kept
-- capture_sizes (the list), graphs = {piecewise=, full=} (FULL_AND_PIECEWISE, vLLM's default
-- mode: piecewise graphs at every size, full decode graphs up to max_num_seqs), cuda_graphs
-- (bytes: largest graph's activations + (n - 1) x graph_each; 0 with enforce_eager),
-- serving (vram.serving's table with that graph pool), kv_pool, smi_idle (what nvidia-smi shows
-- right after start: every step's kept bytes), smi_busy (after a full batch: the profile's
-- activations cached again by PyTorch's allocator), budget, kv_dtype.
-- kv_cache_dtype: "auto" (the model's 16 bits) or "fp8", "fp8_e4m3", "fp8_e5m2" (1 byte; the
-- per-tensor scales are a few bytes a layer). enforce_eager captures nothing (and estimates
-- nothing); estimate_graphs = false is a vLLM before 0.21 (or the variable set to 0): the graphs
-- then come on top of the budget.
function M.vllm_startup(t)
  opts("vllm_startup", t)
  known("vllm_startup", t, set { "model", "scheme", "bits", "group", "capacity", "gpu", "name", "usage", "context", "tp",
                                 "utilization", "kv_cache_dtype", "enforce_eager", "capture_sizes", "max_num_seqs",
                                 "batched_tokens", "graph_each", "estimate_graphs", "cuda_context", "nccl", "non_torch", "block" })
  local m = model_of("vllm_startup", t.model)
  local kvd = choice("vllm_startup", t, "kv_cache_dtype", "auto", { "auto", "fp8", "fp8_e4m3", "fp8_e5m2" })
  local eager = bool("vllm_startup", t, "enforce_eager", false)
  local est = bool("vllm_startup", t, "estimate_graphs", true)
  local each = nonneg("vllm_startup", t, "graph_each", GRAPH_EACH)
  local base = {}
  for _, k in ipairs { "model", "scheme", "bits", "group", "capacity", "gpu", "name", "usage", "context", "tp", "utilization",
                       "max_num_seqs", "batched_tokens", "cuda_context", "nccl", "non_torch", "block" } do base[k] = t[k] end
  base.kv_dtype = kvd == "auto" and "fp16" or "fp8"
  local s0 = M.serving(base) -- the defaults for the device, before any graph
  local sizes = {}
  if not eager then
    if t.capture_sizes ~= nil then
      if type(t.capture_sizes) ~= "table" or #t.capture_sizes == 0 then
        raise("vram.vllm_startup: 'capture_sizes' must list batch sizes, e.g. {1, 2, 4, 8}")
      end
      for i, x in ipairs(t.capture_sizes) do sizes[i] = whole("vllm_startup", { size = x }, "size", nil, 65536) end
      table.sort(sizes)
    else
      sizes = capture_sizes(s0.max_num_seqs, s0.batched_tokens)
    end
  end
  local npw, nfull = #sizes, 0
  for _, x in ipairs(sizes) do if x <= s0.max_num_seqs then nfull = nfull + 1 end end
  local graphs = 0
  if npw > 0 then
    local fwd = forward_peak(m, sizes[#sizes], 1, true, false, s0.tp)
    graphs = fwd.total - fwd.logits + (npw - 1 + max(nfull - 1, 0)) * each
  end
  local withg = E.copy(base)
  withg.cuda_graphs = est and graphs or 0
  local sv = M.serving(withg)
  local sampler = min(sv.max_num_seqs, sv.batched_tokens) * m.vocab * 4
  local ctx = sv.cuda_context + sv.nccl
  local steps, used = {}, 0
  local function step(key, bytes, transient)
    bytes = E.int(bytes)
    if not transient then used = used + bytes end
    steps[#steps + 1] = { key = key, bytes = bytes, used = E.int(transient and used + bytes or used), transient = transient or false }
  end
  step("context", ctx)
  step("weights", sv.weights)
  step("profile", sv.activations + sv.non_torch, true)
  if est and npw > 0 then step("graph_estimate", graphs, true) end
  step("kv_pool", sv.kv_pool)
  if npw > 0 then step("capture", graphs) end
  step("sampler", sampler)
  local r = { steps = steps, capture_sizes = sizes, graphs = { piecewise = npw, full = nfull }, cuda_graphs = E.int(graphs),
              serving = sv, kv_pool = sv.kv_pool, budget = sv.budget, kv_dtype = base.kv_dtype, enforce_eager = eager,
              estimate_graphs = est, smi_idle = E.int(used), smi_busy = E.int(used + sv.activations), capacity = sv.capacity }
  return r
end

--- vram.preemption{model=, tokens=, kv_dtype="fp16", scheme="fp16", pcie= or gpu=, flops= or
-- gpu=, mfu=0.5} -> table: what evicting one sequence of `tokens` cached tokens costs.
-- kv_bytes; swap (vLLM's swapping, Kwon et al. 2023 sec. 4.5): out and back in over PCIe,
-- swap_seconds = 2 x kv_bytes / pcie; recompute: a prefill of the tokens when the sequence is
-- rescheduled, recompute_flops (as vram.prefill) and recompute_seconds at flops x mfu; cheaper.
-- The paper measured both close for blocks of 16 to 64 tokens and swapping slower for small
-- blocks (sec. 7.3: many small PCIe transfers); this model has no per-transfer overhead.
function M.preemption(t)
  opts("preemption", t)
  known("preemption", t, set { "model", "tokens", "kv_dtype", "scheme", "bits", "group", "pcie", "gpu", "flops", "mfu" })
  local m = model_of("preemption", t.model)
  local n = whole("preemption", t, "tokens")
  local g = t.gpu ~= nil and E.train.gpu_of("preemption", t.gpu) or {}
  local link = count("preemption", { pcie = t.pcie or g.pcie }, "pcie")
  local fl = count("preemption", { flops = t.flops or g.flops }, "flops")
  local mfu = fraction("preemption", t, "mfu", 0.5)
  local kv = M.kv { model = t.model, tokens = n, dtype = t.kv_dtype }
  local mm = (m.active_params or m.params) - m.vocab * m.hidden
  local r = { tokens = n, kv_bytes = kv.total }
  r.swap_seconds = 2 * kv.total / link
  r.recompute_flops = 2 * mm * n + 2 * m.layers * n * n * m.heads * m.head_dim
  r.recompute_seconds = r.recompute_flops / (fl * mfu)
  r.cheaper = r.swap_seconds <= r.recompute_seconds and "swap" or "recompute"
  for k, v in pairs(r) do r[k] = E.int(v) end
  return r
end

E.infer = { model_of = model_of, forward_peak = forward_peak, CONTEXT = CONTEXT, vllm_defaults = vllm_defaults }

return M
