-- vram_plan.lua - the chapter 4 planner: for a model shape, a sequence and batch, and a GPU,
-- every combination of precision, checkpointing, ZeRO stage (over N GPUs) and CPU offload that
-- fits, with its memory at the peak and its cost per step, sorted by cost (vram.plan); and the
-- grading helper that says whether a learner's plan fits and why not (vram.plan_check).
-- Memory comes from vram.train_step's event list: each combination scales what is live at every
-- event by what it shards or moves, and takes the largest sum. Adds its functions to vram.
local E = require "estimate"
local units = require "units"
local M = require "vram"

local fmt, floor, max, min = string.format, math.floor, math.max, math.min
local type, pairs, ipairs, tostring, concat, sort = type, pairs, ipairs, tostring, table.concat, table.sort
local collectgarbage = collectgarbage
local opts, known, set, whole, nonneg, fraction, bool, choice, raise =
  E.opts, E.known, E.set, E.whole, E.nonneg, E.fraction, E.bool, E.choice, E.raise

local CKPTS = { "none", "selective", "full", "sqrt" }
local PLAN_KEYS = set { "layers", "hidden", "heads", "seq", "batch", "vocab", "ffn", "positions", "gpu", "gpus", "mfu",
                        "optimizer", "optimizer_impl", "flash", "reserve", "link", "precisions", "tf32",
                        "accum", "bucket_view", "nccl", "prefetch" }

-- the problem, checked once: shape, GPU figures, options
local function problem_of(fn, t)
  opts(fn, t)
  known(fn, t, PLAN_KEYS)
  local P = {}
  for _, k in ipairs { "layers", "hidden", "heads", "seq", "batch", "vocab", "ffn", "positions" } do P[k] = t[k] end
  P.optimizer, P.optimizer_impl, P.flash = t.optimizer, t.optimizer_impl, t.flash
  E.train.step_options(fn, P) -- raises on a bad shape or option
  if t.gpu == nil then raise(fmt("vram.%s: 'gpu' is required: an id (vram.gpu_specs()) or {capacity=, flops=, pcie=}", fn)) end
  local g = E.train.gpu_of(fn, t.gpu)
  local cap = g.capacity
  if type(cap) ~= "number" or cap <= 0 then raise(fmt("vram.%s: the gpu needs a 'capacity' in bytes", fn)) end
  if type(g.flops) ~= "number" or g.flops <= 0 then raise(fmt("vram.%s: the gpu needs 'flops' (FLOP/s)", fn)) end
  local given = t.precisions or E.train.PRECISIONS
  if type(given) ~= "table" or #given == 0 then raise(fmt("vram.%s: 'precisions' must list precisions", fn)) end
  local pr = {}
  for _, p in ipairs(given) do
    local q = choice(fn, { precision = p }, "precision", nil, E.train.PRECISIONS)
    -- no bf16 tensor cores (T4): bf16 plans are left out unless asked for by name
    if not (g.bf16 == false and t.precisions == nil and (q == "bf16" or q == "amp_bf16")) then pr[#pr + 1] = q end
  end
  local tf32 = bool(fn, t, "tf32", false)
  local f32 = tf32 and g.flops_tf32 or g.flops_fp32
  if type(f32) ~= "number" or f32 <= 0 then f32 = g.flops end
  local gpus = whole(fn, t, "gpus", 1)
  local pf = t.prefetch == nil and 1 or t.prefetch
  if type(pf) ~= "number" or pf < 0 or pf % 1 ~= 0 or pf > 64 then
    raise(fmt("vram.%s: 'prefetch' must be a whole number of layers from 0 to 64", fn))
  end
  return { shape = P, gpu = g, capacity = cap, gpus = gpus, mfu = fraction(fn, t, "mfu", 0.4),
           flops_fp32 = f32,
           reserve = nonneg(fn, t, "reserve", E.infer.CONTEXT), link = t.link ~= nil and nonneg(fn, t, "link") or nil,
           precisions = pr, accum = whole(fn, t, "accum", 1, 4096), bucket_view = bool(fn, t, "bucket_view", false),
           -- NCCL: a recorded whole-process figure unless given (vram_dist.lua: NVIDIA/nccl issue 964)
           nccl = gpus > 1 and nonneg(fn, t, "nccl", E.dist.NCCL_RECORDED) or 0, prefetch = pf }
end

-- the combinations a precision allows: ZeRO stages over N GPUs (only 0 on one GPU), and offload
-- of the fp32 master copy and optimizer state (ZeRO-Offload: mixed precision only)
local function combos(prec, gpus)
  local out = {}
  for st = 0, gpus > 1 and 3 or 0 do
    out[#out + 1] = { stage = st, offload = false }
    if prec == "amp_fp16" or prec == "amp_bf16" then out[#out + 1] = { stage = st, offload = true } end
  end
  return out
end

-- what a combination keeps of each kind: sharded over N (ZeRO) or moved to the host (offload:
-- ZeRO-Offload streams the 16-bit gradients to the host bucket by bucket during backward, Ren et
-- al. 2021, sec. 4.2, so only DeepSpeed's buffers stay; they are added in entry())
local function scales(c, n)
  return { weights = c.stage >= 3 and 1 / n or 1, gradients = c.offload and 0 or (c.stage >= 2 and 1 / n or 1),
           master = c.offload and 0 or (c.stage >= 1 and 1 / n or 1),
           optimizer = c.offload and 0 or (c.stage >= 1 and 1 / n or 1),
           activations = 1, temporaries = 1, workspace = 1, input = 1 }
end

-- Whether a combination's gradients exist for the whole step: a micro-step after the first of
-- gradient accumulation keeps them from the last one, and DDP's gradient_as_bucket_view makes them
-- views into the buckets, which live as long as DDP does (stages 0 and 1, which reduce through
-- DDP's buckets)
local function persists(pb, c)
  return pb.accum > 1 or (pb.bucket_view and pb.gpus > 1 and c.stage <= 1 and not c.offload)
end

-- one schedule (precision x checkpointing), measured for each combination in one pass
local function evaluate(pb, prec, ckpt, list, persist)
  local q = {}
  for k, v in pairs(pb.shape) do q[k] = v end
  q.precision, q.checkpointing = prec, ckpt
  q.accumulate = persist
  local o = E.train.step_options("plan", q)
  local tp, nparams = E.train.build_step(o)
  local KINDS = E.train.KINDS
  -- live bytes in four classes, which the combinations scale differently: weights, gradients,
  -- master + optimizer state, and the rest (activations, temporaries, workspace, input)
  local W, G, S, R = 0, 0, 0, 0
  local class = { weights = 1, gradients = 2, master = 3, optimizer = 3 }
  local by = {}
  for _, k in ipairs(KINDS) do by[k] = 0 end
  local nc = #list
  local sw, sg, ss, bestb, snap, at = {}, {}, {}, {}, {}, {}
  for i, cb in ipairs(list) do
    local sc = scales(cb, pb.gpus)
    sw[i], sg[i], ss[i], bestb[i], snap[i], at[i] = sc.weights, sc.gradients, sc.optimizer, -1, {}, nil
  end
  for _, x in ipairs(tp.ev) do
    local cl, d = class[x.kind] or 4, x.bytes
    if x.op == "alloc" then
      by[x.kind] = by[x.kind] + d
      if cl == 1 then W = W + d elseif cl == 2 then G = G + d elseif cl == 3 then S = S + d else R = R + d end
      for i = 1, nc do
        local tot = W * sw[i] + G * sg[i] + S * ss[i] + R
        if tot > bestb[i] then
          bestb[i], at[i] = tot, x
          local sn = snap[i]
          for _, k in ipairs(KINDS) do sn[k] = by[k] end
        end
      end
    else
      by[x.kind] = by[x.kind] - d
      if cl == 1 then W = W - d elseif cl == 2 then G = G - d elseif cl == 3 then S = S - d else R = R - d end
    end
  end
  local best = {}
  for i, cb in ipairs(list) do
    local sc, parts = scales(cb, pb.gpus), {}
    for _, k in ipairs(KINDS) do parts[k] = snap[i][k] * sc[k] end
    best[i] = { bytes = bestb[i], parts = parts, phase = at[i].phase, name = at[i].name, layer = at[i].layer }
  end
  -- a block's parameters: ZeRO-3/FSDP gathers them (16-bit) before using them, prefetching the
  -- next; ZeRO-2/3 hold one block's gradients unsharded until their reduce-scatter
  local layer_p = 4 * o.hidden * o.hidden + 4 * o.hidden + 2 * o.hidden * o.ffn + o.ffn + 5 * o.hidden
  return best, nparams, o, layer_p
end

local function cost(pb, o, nparams, c)
  local T = o.seq * o.batch
  local base = 6 * nparams * T
  local core = 4 * o.batch * o.seq * o.seq * o.hidden * o.layers
  local block = (4 * o.hidden * o.hidden + 4 * o.hidden + 2 * o.hidden * o.ffn + o.ffn + 5 * o.hidden) * o.layers
  local re = 0
  if o.ckpt == "selective" and not o.flash then re = core
  elseif o.ckpt == "full" or o.ckpt == "sqrt" then re = 2 * block * T + core end
  -- fp32 runs on the CUDA cores (or TF32 tensor cores with tf32 = true), the rest on 16-bit ones
  local rate = (o.precision == "fp32" and pb.flops_fp32 or pb.gpu.flops) * pb.mfu
  local r = { compute_seconds = base / rate, recompute_seconds = re / rate, transfer_seconds = 0, comm_seconds = 0,
              flops = base + re }
  local p = E.train.PREC[o.precision]
  local shard = c.stage >= 1 and pb.gpus or 1
  local k = pb.accum -- micro-steps per optimizer step: compute k times, the update once
  r.compute_seconds, r.recompute_seconds, r.flops = k * r.compute_seconds, k * r.recompute_seconds, k * r.flops
  if c.offload then
    local link = pb.gpu.pcie
    if type(link) ~= "number" or link <= 0 then raise("vram.plan: offload needs the gpu's 'pcie' (bytes/s)") end
    -- ZeRO-Offload: 16-bit gradients down every micro-step (accumulated on the host), updated
    -- 16-bit weights up once, one shard per GPU
    r.transfer_seconds = (k * p.grad + p.weight) * nparams / shard / link
  end
  if pb.link and pb.gpus > 1 then
    -- data-parallel traffic per GPU (Rajbhandari et al. 2020, sec. 7): 2 x params elements of
    -- gradients (reduce-scatter + all-gather) at stages 0-2, 3 x params at stage 3; once per
    -- optimizer step (DDP's no_sync() between micro-steps)
    r.comm_seconds = (c.stage == 3 and 3 or 2) * nparams * p.grad / pb.link
  end
  r.step_seconds = r.compute_seconds + r.recompute_seconds + r.transfer_seconds + r.comm_seconds
  r.tokens_per_s = pb.gpus * k * T / r.step_seconds
  return r
end

local CKPT_ZH = { none = "不做检查点", selective = "选择性检查点", full = "完全检查点", sqrt = "√n 分段检查点" }

-- A plan's name in English and in Chinese (name, name_zh).
local function name_of(prec, ckpt, c, gpus)
  local z = gpus > 1 and fmt(", ZeRO-%d over %d GPUs", c.stage, gpus) or ""
  local zz = gpus > 1 and fmt("，ZeRO-%d，%d 张 GPU", c.stage, gpus) or ""
  return fmt("%s, checkpointing %s%s%s", prec, ckpt, z, c.offload and ", CPU offload" or ""),
         fmt("%s，%s%s%s", prec, CKPT_ZH[ckpt] or ckpt, zz, c.offload and "，卸载到 CPU" or "")
end

local function entry(pb, prec, ckpt, c, b, o, nparams, layer_p)
  local mem = E.copy(b.parts)
  local P = E.train.PREC[prec]
  local multi = pb.gpus > 1
  -- the transients of data parallelism (vram_dist.lua): DDP's buckets beside the gradients
  -- (stages 0 and 1 reduce through them) unless the gradients are views into them; FSDP's
  -- gathered blocks (the one computing and `prefetch` ahead) and one block's unsharded gradients
  -- before their reduce-scatter; NCCL's buffers; DeepSpeed's reduce bucket and largest-parameter
  -- buffer under ZeRO-Offload
  mem.buckets = multi and c.stage <= 1 and not c.offload and not pb.bucket_view and nparams * P.grad or 0
  mem.gather = multi and c.stage == 3 and (1 + pb.prefetch) * layer_p * P.weight or 0
  mem.unsharded_grads = multi and c.stage >= 2 and not c.offload and layer_p * P.grad or 0
  mem.nccl = pb.nccl
  mem.offload_buffers = c.offload and M.deepspeed_buffers { offload = true, dtype = "bf16",
                                                            largest_param = o.vocab * o.hidden }.total or 0
  mem.reserve = pb.reserve
  mem.total = b.bytes + mem.buckets + mem.gather + mem.unsharded_grads + mem.nccl + mem.offload_buffers + mem.reserve
  for k, v in pairs(mem) do mem[k] = E.int(floor(v + 0.5)) end
  local cs = cost(pb, o, nparams, c)
  local name, name_zh = name_of(prec, ckpt, c, pb.gpus)
  return { name = name, name_zh = name_zh, precision = prec, checkpointing = ckpt, stage = c.stage,
           offload = c.offload, memory = mem, peak_phase = b.phase, peak_at = b.name, fits = mem.total <= pb.capacity,
           cost = cs, tokens_per_s = cs.tokens_per_s }
end

local function order(a, b)
  if a.cost.step_seconds ~= b.cost.step_seconds then return a.cost.step_seconds < b.cost.step_seconds end
  if a.memory.total ~= b.memory.total then return a.memory.total < b.memory.total end
  return a.name < b.name
end

-- evaluate()'s results depend on the shape and options, the precision, the checkpointing and the
-- GPU count, not on which GPU: a lesson that plans one model on six GPUs builds each schedule's
-- events once. Read only by entry(); the cache starts again past 64 schedules (a sandbox that
-- plans many shapes).
local EVALUATED, NEVALUATED = {}, 0
local SHAPE_KEYS = { "layers", "hidden", "heads", "seq", "batch", "vocab", "ffn", "positions", "optimizer",
                     "optimizer_impl", "flash" }

local function evaluated(pb, prec, ckpt, list, persist)
  local key = { prec, ckpt, pb.gpus, tostring(persist) }
  for _, k in ipairs(SHAPE_KEYS) do key[#key + 1] = tostring(pb.shape[k]) end
  key = concat(key, " ")
  local r = EVALUATED[key]
  if not r then
    if NEVALUATED >= 64 then EVALUATED, NEVALUATED = {}, 0 end
    r = { evaluate(pb, prec, ckpt, list, persist) }
    EVALUATED[key], NEVALUATED = r, NEVALUATED + 1
    collectgarbage() -- the schedule's events are garbage now; 16 of them would not fit the heap cap
  end
  return r[1], r[2], r[3], r[4]
end

local function all_entries(pb)
  local out = {}
  for _, prec in ipairs(pb.precisions) do
    -- the combinations in two groups: gradients made in backward, or there all step long
    local groups = { [false] = {}, [true] = {} }
    for _, c in ipairs(combos(prec, pb.gpus)) do local g = groups[persists(pb, c)]; g[#g + 1] = c end
    for _, ckpt in ipairs(CKPTS) do
      for _, persist in ipairs { false, true } do
        local list = groups[persist]
        if #list > 0 then
          local best, nparams, o, layer_p = evaluated(pb, prec, ckpt, list, persist)
          for i, c in ipairs(list) do out[#out + 1] = entry(pb, prec, ckpt, c, best[i], o, nparams, layer_p) end
        end
      end
    end
  end
  return out
end

--- vram.plan{layers=, hidden=, heads=, seq=, batch=1, vocab=, ffn=, positions=, gpu= (id or
-- {capacity=, flops=, pcie=}), gpus=1, mfu=0.4, optimizer="adamw", optimizer_impl="foreach",
-- flash=false, reserve=446693376, link=, precisions={...}} -> table: plans (every combination that
-- fits, cheapest first), rejected (those that do not, also by cost), capacity, params, tokens
-- (seq x batch per GPU).
-- A combination is a precision (fp32, amp_fp16, amp_bf16, bf16), a checkpointing mode (none,
-- selective, full, sqrt), a ZeRO stage 0-3 over `gpus` data-parallel GPUs (stage 0 only on one
-- GPU), and CPU offload of the master copy and optimizer state (amp precisions only). Each entry:
-- name, precision, checkpointing, stage, offload, memory = {total, weights, master, optimizer,
-- gradients, activations, temporaries, workspace, input, gather (ZeRO-3's two gathered layers),
-- reserve (the CUDA context: 426 MiB unless given)}, peak_phase, peak_at, fits, cost =
-- {step_seconds, compute_seconds (6 x params x tokens at the gpu's 16-bit tensor rate; fp32 at its
-- fp32 rate, or TF32 with tf32 = true), recompute_seconds, transfer_seconds
-- (offload over the gpu's PCIe, not overlapped), comm_seconds (with link=, the data-parallel
-- gradient traffic), flops, tokens_per_s}, tokens_per_s. Sorted by step_seconds, then memory,
-- then name: the same answer on every machine. A model, not a measurement: compute at
-- flops x mfu, transfers at the link's theoretical rate.
local function plan_of(pb, t)
  local plans, rejected = {}, {}
  for _, e in ipairs(all_entries(pb)) do
    if e.fits then plans[#plans + 1] = e else rejected[#rejected + 1] = e end
  end
  sort(plans, order)
  sort(rejected, order)
  local tr = M.transformer { layers = t.layers, hidden = t.hidden, heads = t.heads, vocab = t.vocab, ffn = t.ffn,
                             positions = t.positions or t.seq }
  return { plans = plans, rejected = rejected, capacity = pb.capacity, gpus = pb.gpus, params = tr.total,
           tokens = t.seq * (t.batch or 1) * pb.accum, accum = pb.accum, mfu = pb.mfu }
end

function M.plan(t) return plan_of(problem_of("plan", t), t) end

-- why a plan does not fit, in the learner's terms
local function reasons_for(pb, e, cap)
  local m, out = e.memory, {}
  local states = m.weights + m.master + m.optimizer + m.gradients
  out[#out + 1] = fmt("the peak (%s, at '%s') is %s but the GPU holds %s: %s over", e.peak_phase, e.peak_at,
                      units.bytes(m.total), units.bytes(cap), units.bytes(m.total - cap))
  local parts = {}
  for _, k in ipairs { "weights", "master", "optimizer", "gradients", "activations", "temporaries", "workspace", "input",
                       "buckets", "gather", "unsharded_grads", "nccl", "offload_buffers", "reserve" } do
    if m[k] > 0 then parts[#parts + 1] = { k, m[k] } end
  end
  sort(parts, function(a, b) return a[2] > b[2] end)
  local txt = {}
  for i = 1, min(4, #parts) do txt[i] = fmt("%s %s", parts[i][1], units.bytes(parts[i][2])) end
  out[#out + 1] = "largest parts: " .. concat(txt, ", ")
  if states + m.reserve > cap then
    out[#out + 1] = fmt("the model states alone (weights, master copy, optimizer state, gradients: %s) do not fit: shard them (ZeRO-3 over more GPUs) or offload the optimizer state",
                        units.bytes(states))
  end
  local top = parts[1] and parts[1][1]
  if top == "activations" and e.checkpointing == "none" then
    out[#out + 1] = "activations dominate: checkpointing 'selective' drops the attention scores, 'full' keeps only each layer's input"
  elseif top == "activations" then
    out[#out + 1] = "activations dominate even with checkpointing: a smaller batch or sequence"
  elseif top == "temporaries" then
    out[#out + 1] = "temporaries dominate (the fp32 logits and their gradient: seq x batch x vocab x 4 B each): a smaller batch"
  elseif top == "optimizer" or top == "master" then
    out[#out + 1] = "the optimizer state dominates: ZeRO-1 shards it, offload moves it to the host, adam8bit shrinks it"
  elseif top == "weights" or top == "gradients" then
    out[#out + 1] = "the weights and gradients dominate: ZeRO-2/3 shard them, a 16-bit precision halves them"
  end
  local dp = m.buckets + m.gather + m.unsharded_grads + m.nccl
  if dp > 0 and m.total - dp <= cap then
    out[#out + 1] = fmt("on one GPU it would fit: data parallelism adds %s (DDP's gradient buckets %s, FSDP's gathered blocks %s, unsharded gradients %s, NCCL %s); gradient_as_bucket_view=True drops the buckets where the peak holds the gradients too, ZeRO-1 shards the optimizer state",
                        units.bytes(dp), units.bytes(m.buckets), units.bytes(m.gather), units.bytes(m.unsharded_grads), units.bytes(m.nccl))
  end
  return out
end

--- vram.plan_check(problem, plan) -> table: fits, memory (as in vram.plan), capacity, over (bytes
-- over capacity, 0 when it fits), reasons (sentences: the peak against the capacity, the largest
-- parts, what would shrink them; empty when it fits), cost, name, rank (its place among the
-- plans that fit, by cost; nil when it does not fit), best (the cheapest plan that fits, or nil),
-- slowdown (its step time / the best's). problem is vram.plan's table; plan is {precision=,
-- checkpointing=, stage=0, offload=false}. Misuse (an unknown precision, offload with fp32 or
-- bf16, a stage above 0 on one GPU) raises an error that says what is valid.
function M.plan_check(t, p)
  local pb = problem_of("plan_check", t)
  opts("plan_check", p)
  known("plan_check", p, set { "precision", "checkpointing", "stage", "offload" })
  local prec = choice("plan_check", p, "precision", nil, E.train.PRECISIONS)
  local ckpt = choice("plan_check", p, "checkpointing", "none", CKPTS)
  local st = p.stage == nil and 0 or p.stage
  if st ~= 0 and st ~= 1 and st ~= 2 and st ~= 3 then raise("vram.plan_check: 'stage' must be 0, 1, 2 or 3") end
  if st > 0 and pb.gpus == 1 then raise("vram.plan_check: a ZeRO stage above 0 needs gpus > 1 in the problem") end
  local off = bool("plan_check", p, "offload", false)
  if off and not (prec == "amp_fp16" or prec == "amp_bf16") then
    raise(fmt("vram.plan_check: offload moves the fp32 master copy and optimizer state of a mixed-precision run: use amp_fp16 or amp_bf16 (got %s)", prec))
  end
  -- every combination once: the learner's is among them (its precision added if the problem
  -- leaves it out)
  local listed = false
  for _, q in ipairs(pb.precisions) do if q == prec then listed = true end end
  if not listed then pb.precisions[#pb.precisions + 1] = prec end
  local all = plan_of(pb, t)
  local e
  for _, lst in ipairs { all.plans, all.rejected } do
    for i, q in ipairs(lst) do
      if q.precision == prec and q.checkpointing == ckpt and q.stage == st and q.offload == off then
        e = q
        if lst == all.plans then e.rank = i end
      end
    end
  end
  local r = { fits = e.fits, memory = e.memory, capacity = pb.capacity, over = max(0, e.memory.total - pb.capacity),
              cost = e.cost, name = e.name, peak_phase = e.peak_phase, peak_at = e.peak_at, rank = e.rank,
              reasons = e.fits and {} or reasons_for(pb, e, pb.capacity) }
  r.best = all.plans[1]
  if r.best then r.slowdown = e.cost.step_seconds / r.best.cost.step_seconds end
  return r
end

return M
