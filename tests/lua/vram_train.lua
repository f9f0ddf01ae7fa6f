-- The chapter 4 estimators against published worked examples and independent arithmetic:
-- Korthikanti et al. 2022's activation equations at GPT-3 175B's shape, the ZeRO paper's
-- figure 1, GPT-2 small's parameter count, PCIe rates; the training-step event list replayed
-- through the caching allocator model (its peak must equal the one computed from the events),
-- checked for leaks and against the activation equations; the planner and its grading helper.
local fmt = string.format
local GiB = 2^30
local function eq(a, b, what) assert(a == b, fmt("%s: got %s, want %s", what, tostring(a), tostring(b))) end
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), fmt("%s: got %.6g, want %.6g", what, a, b))
end
local function raises(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching '" .. pattern .. "'")
  assert(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) .. "' does not contain '" .. pattern .. "'")
end

-- bytes per parameter: ZeRO's mixed-precision Adam is 2 + 2 + K with K = 12
local function bpp(p, o) return vram.bytes_per_param { precision = p, optimizer = o } end
eq(bpp("fp32", "adam").total, 16, "fp32 Adam 4 + 4 + 8")
local amp = bpp("amp_fp16", "adam")
eq(amp.weights + amp.gradients, 4, "amp 16-bit weights and gradients"); eq(amp.master + amp.optimizer, 12, "K = 12")
eq(amp.total, 16, "amp Adam 16 B/param"); eq(amp.activation_bytes, 2, "amp activations 2 B")
eq(bpp("bf16", "adamw").total, 8, "pure bf16 AdamW 2 + 2 + 4")
eq(bpp("amp_bf16", "adam8bit").optimizer, 2 + 2 * 4 / 256, "8-bit Adam: two bytes + an fp32 absmax per 256")
eq(bpp("fp32", "sgd").total, 8, "fp32 SGD"); eq(bpp("fp32", "sgd_momentum").total, 12, "fp32 momentum")
eq(bpp("fp32", "adam").activation_bytes, 4, "fp32 activations")
raises("'optimizer' must be one of adam, adamw, sgd, sgd_momentum, adam8bit (got lamb)", vram.bytes_per_param, { optimizer = "lamb" })
raises("'precision' must be one of fp32, amp_fp16, amp_bf16, bf16", vram.bytes_per_param, { precision = "fp8" })

-- GPT-2 small: 124,439,808 parameters (Hugging Face gpt2)
local g2 = vram.transformer { layers = 12, hidden = 768, heads = 12, positions = 1024 }
eq(g2.total, 124439808, "GPT-2 small parameters")
eq(g2.per_layer.total, 12 * 768 * 768 + 13 * 768, "12h^2 + 13h per block")
local n = 0
for _, t in ipairs(g2.tensors) do n = n + t.numel end
eq(n, g2.total, "parameter tensors add up")
raises("'hidden' (100) must be a multiple of 'heads' (3)", vram.transformer, { layers = 1, hidden = 100, heads = 3 })

-- Korthikanti et al. 2022 at GPT-3 175B's shape: s = 2048, h = 12288, a = 96, b = 1 (16-bit)
local s, h, a, b = 2048, 12288, 96, 1
local sbh = s * b * h
local c = 5 * a * s / h
eq(c, 80, "5as/h = 80 for GPT-3")
local function act(t) t.seq, t.batch, t.hidden, t.heads = s, b, h, a; return vram.activations(t) end
local base = act {}
eq(base.per_layer.total, sbh * (34 + c), "eq. 1: sbh(34 + 5as/h)")
eq(base.per_layer.total, 2868903936, "2.87 GB per layer")
eq(base.coefficient, 114, "34 + 80")
eq(base.formula, "sbh(34 + 5as/h)", "formula")
eq(base.per_layer.layernorm + base.per_layer.attention + base.per_layer.mlp, 34 * sbh, "the sbh parts: 4 + 11 + 19")
eq(base.per_layer.scores, 5 * a * s * s * b, "5as^2b")
eq(act { layers = 96 }.total, 96 * sbh * (34 + c), "96 layers")
eq(act { tp = 8 }.per_layer.total, sbh * (10 + 24 / 8 + c / 8), "eq. 2: sbh(10 + 24/t + 5as/(ht))")
eq(act { tp = 8, sp = true }.per_layer.total, sbh / 8 * (34 + c), "eq. 3: sbh/t (34 + 5as/h)")
eq(act { tp = 8, recompute = "selective" }.per_layer.total, sbh * (10 + 24 / 8), "TP + selective: sbh(10 + 24/t)")
eq(act { tp = 8, sp = true, recompute = "selective" }.per_layer.total, 34 * sbh / 8, "TP + SP + selective: 34sbh/t")
eq(act { recompute = "full" }.per_layer.total, 2 * sbh, "full recomputation: 2sbh")
near(1 - act { recompute = "selective" }.per_layer.total / base.per_layer.total, 80 / 114, 1e-12, "selective saves 80/114 = 70 %")
local fl = act { flash = true }
eq(fl.per_layer.total, 34 * sbh + 4 * a * s * b, "FlashAttention: 34sbh + an fp32 logsumexp per head and token")
eq(fl.flash_removes, 5 * a * s * s * b, "what FlashAttention removes: the 5as^2b part")
eq(act { dtype = "fp32" }.per_layer.total, sbh * 66 + 9 * a * s * s * b, "fp32 activations, 1-byte masks")
eq(act { dropout = false }.per_layer.total, sbh * 32 + 4 * a * s * s * b, "no dropout: no masks, no dropout outputs")
eq(act { layers = 96, pp = 8 }.total, act { layers = 96 }.total, "1F1B first stage: pp micro-batches of layers/pp")
raises("'recompute' must be one of none, selective, full", act, { recompute = "half" })
raises("'layers' (10) must be a multiple of 'pp' (4)", act, { layers = 10, pp = 4 })

-- the training step: replayed through the caching allocator, the peak of requested bytes is the
-- peak computed from the events; nothing but the model, its states and the workspace outlives it;
-- what is kept for backward matches the activation equations
local small = { layers = 4, hidden = 256, heads = 4, seq = 256, batch = 2, vocab = 1000 }
local function step(over)
  local t = {}
  for k, v in pairs(small) do t[k] = v end
  for k, v in pairs(over or {}) do t[k] = v end
  return vram.train_step(t), t
end
local function replay(events)
  local al <close> = alloc.model { capacity = "64GiB" }
  local blocks = {}
  for _, e in ipairs(events) do
    if e.op == "alloc" then blocks[e.id] = assert(al:malloc(e.bytes)) else al:free(blocks[e.id]); blocks[e.id] = nil end
  end
  return al:stats()
end
local SBH = small.seq * small.batch * small.hidden
for _, prec in ipairs { "fp32", "amp_bf16", "bf16" } do
  for _, ck in ipairs { "none", "selective", "full", "sqrt" } do
    for _, flash in ipairs { false, true } do
      local r = step { precision = prec, checkpointing = ck, flash = flash }
      local what = fmt("%s/%s/flash=%s", prec, ck, tostring(flash))
      local st = replay(r.events)
      eq(st.peak_requested, r.peak.bytes, what .. ": replayed peak = computed peak")
      assert(st.peak_reserved >= st.peak_allocated and st.peak_allocated >= st.peak_requested, what .. ": reserved >= allocated >= requested")
      -- every free matches a live alloc of the same size; the survivors are the persistent state
      local live, leftover = {}, 0
      for _, e in ipairs(r.events) do
        if e.op == "alloc" then assert(not live[e.id], what .. ": id reused"); live[e.id] = e
        else assert(live[e.id] and live[e.id].bytes == e.bytes, what .. ": free of a live block"); live[e.id] = nil end
      end
      for _, e in pairs(live) do
        assert(e.kind == "weights" or e.kind == "master" or e.kind == "optimizer" or e.kind == "workspace",
               what .. ": " .. e.name .. " outlives the step")
        leftover = leftover + e.bytes
      end
      eq(leftover, r.live_at_end, what .. ": live at end")
      local p = r.persistent
      eq(p.weights + p.master + p.optimizer, r.params * (r.bytes_per_param.weights + r.bytes_per_param.master + r.bytes_per_param.optimizer),
         what .. ": model states = params x bytes per param")
      -- kept for backward after the last block: per-layer activations (or checkpoint inputs), the
      -- last block's output and the embedding dropout mask
      local e = vram.bytes_per_param { precision = prec }.activation_bytes
      local want
      if ck == "full" then want = small.layers * SBH * e
      elseif ck == "sqrt" then want = r.segments * SBH * e
      else
        want = small.layers * vram.activations { seq = small.seq, batch = small.batch, hidden = small.hidden, heads = small.heads,
                                                 dtype = prec == "fp32" and "fp32" or "bf16", flash = flash,
                                                 recompute = ck == "selective" and "selective" or "none" }.per_layer.total
      end
      eq(r.saved_activations, want + SBH * e + SBH, what .. ": kept for backward")
      assert(r.peak.why:find(r.peak.phase, 1, true), what .. ": the peak says where")
    end
  end
end
-- GPT-2 small at batch 8, seq 1024: 12 x sbh(34 + 5as/h) kept, plus the last output and a mask
local gs = vram.train_step { layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 8, positions = 1024 }
local sbh2 = 1024 * 8 * 768
eq(gs.saved_activations, 12 * sbh2 * (34 + 5 * 12 * 1024 / 768) + 2 * sbh2 + sbh2, "GPT-2 small kept for backward")
eq(gs.params, 124439808, "GPT-2 small in the step")
-- checkpointing lowers the peak; FlashAttention removes the s^2 part
local none, sel, full = step {}, step { checkpointing = "selective" }, step { checkpointing = "full" }
assert(full.peak.bytes < sel.peak.bytes and sel.peak.bytes < none.peak.bytes, "full < selective < none")
assert(step { flash = true }.peak.bytes < none.peak.bytes, "flash < none")
-- the optimizer state exists from the first step on: first_step = true shows it being created
local fs = step { first_step = true }
eq(fs.persistent.optimizer, 0, "no optimizer state before the first step")
eq(fs.live_at_end_by_kind.optimizer, none.persistent.optimizer, "created by the first step")
-- 8-bit Adam: tensors under 4096 elements keep fp32 states (bitsandbytes min_8bit_size)
local a8 = step { optimizer = "adam8bit" }
local want8 = 0
for _, t in ipairs(vram.transformer { layers = 4, hidden = 256, heads = 4, vocab = 1000, positions = 256 }.tensors) do
  want8 = want8 + (t.numel < 4096 and 8 * t.numel or 2 * t.numel + 8 * math.ceil(t.numel / 256))
end
eq(a8.persistent.optimizer, want8, "8-bit Adam state, tensor by tensor")
-- fused Adam has no sqrt(exp_avg_sq) temporaries
assert(step { optimizer_impl = "fused" }.phase_peaks.optimizer < none.phase_peaks.optimizer, "foreach temporaries")
-- the same events through alloc.trace_replay
local rep = assert(alloc.trace_replay(vram.trace_events(none.events), { capacity = "64GiB" }))
eq(rep.stats.peak_requested, none.peak.bytes, "trace_replay peak")
eq(rep.allocs, none.allocs, "trace_replay allocs")
raises("vram.trace_events: event 1 is not", vram.trace_events, { { op = "x" } })
raises("'segments' must be a whole number from 1 to 4", vram.train_step, { layers = 4, hidden = 64, heads = 4, seq = 8, checkpointing = "sqrt", segments = 5 })
raises("'positions' (8) must be at least 'seq' (16)", vram.train_step, { layers = 1, hidden = 64, heads = 4, seq = 16, positions = 8 })
raises("'checkpointing' must be one of none, selective, full, sqrt (got half)", vram.train_step, { layers = 1, hidden = 64, heads = 4, seq = 8, checkpointing = "half" })
raises("unknown option 'layer'", vram.train_step, { layer = 1 })

-- checkpointing's price: 6 x params x tokens, plus the forward it redoes
local rows = vram.checkpoint_cost { layers = 4, hidden = 256, heads = 4, seq = 256, batch = 2, vocab = 1000, flops = 100e12, mfu = 0.5 }
eq(rows[1].checkpointing, "none", "order"); eq(rows[1].recompute_flops, 0, "none recomputes nothing")
local T = 256 * 2
local P = vram.transformer { layers = 4, hidden = 256, heads = 4, vocab = 1000, positions = 256 }
eq(rows[1].base_flops, 6 * P.total * T, "6 x params x tokens")
local core = 4 * 2 * 256 * 256 * 256 * 4
eq(rows[2].recompute_flops, core, "selective: QK^T and attention x V, 4bs^2h per layer")
eq(rows[3].recompute_flops, 2 * P.layers_total * T + core, "full: every block's forward again")
eq(rows[4].recompute_flops, rows[3].recompute_flops, "sqrt recomputes as much as full")
near(rows[3].seconds, (6 * P.total * T + rows[3].recompute_flops) / (100e12 * 0.5), 1e-12, "seconds at flops x mfu")
assert(rows[3].peak < rows[1].peak, "full keeps less")

-- ZeRO, Rajbhandari et al. 2020, figure 1: 7.5B parameters, N_d = 64, K = 12 (GB = 1e9 B)
local Z = {}
for st = 0, 3 do Z[st] = vram.sharding { params = 7.5e9, gpus = 64, stage = st } end
eq(Z[0].total, 120e9, "baseline 120 GB"); eq(Z[0].k, 12, "K = 12")
eq(Z[1].total, 31.40625e9, "P_os 31.4 GB"); eq(Z[2].total, 16.640625e9, "P_os+g 16.6 GB"); eq(Z[3].total, 1.875e9, "P_os+g+p 1.9 GB")
eq(string.format("%.1f %.1f %.1f %.1f", Z[0].total / 1e9, Z[1].total / 1e9, Z[2].total / 1e9, Z[3].total / 1e9), "120.0 31.4 16.6 1.9", "as printed in the figure")
for st = 0, 3 do eq(vram.zero { params = 7.5e9, gpus = 64, stage = st }, Z[st].total, "vram.zero agrees, stage " .. st) end
eq(vram.sharding { params = 8e9, tp = 4, pp = 2 }.total, 16e9, "tensor x pipeline parallel: 16 psi / 8")
eq(vram.sharding { params = 1e9, precision = "fp32", optimizer = "adam" }.total, 16e9, "fp32 Adam: 4 + 4 + 8")
raises("'stage' must be 0, 1, 2 or 3", vram.sharding, { params = 1, stage = 4 })

-- PCIe: 128b/130b from gen 3 on
near(vram.pcie(3), 15.75e9, 0.001, "gen3 x16 15.75 GB/s"); near(vram.pcie(4), 31.5e9, 0.001, "gen4 x16 31.5 GB/s")
near(vram.pcie(5), 63.0e9, 0.001, "gen5 x16 63.0 GB/s"); eq(vram.pcie(2, 8), 4e9, "gen2 x8: 5 GT/s x 8 x 8/10 / 8")
raises("gen must be 1, 2, 3, 4 or 5", vram.pcie, 6); raises("lanes must be 1, 2, 4, 8 or 16", vram.pcie, 4, 3)

-- offload: a 7B model's state over PCIe gen 4 and 5, against an A100's step
local function off(mode, gen, tokens)
  return vram.offload { params = 7e9, tokens = tokens, mode = mode, pcie = vram.pcie(gen), gpu = "a100-80gb" }
end
local z4 = off("zero_offload", 4, 2048)
eq(z4.d2h_bytes, 14e9, "16-bit gradients down"); eq(z4.h2d_bytes, 14e9, "16-bit weights up")
near(z4.transfer_seconds, 28e9 / vram.pcie(4), 1e-12, "28 GB over gen 4")
near(z4.compute_seconds, 6 * 7e9 * 2048 / (312e12 * 0.4), 1e-12, "6 x params x tokens at 40 % of 312 TFLOP/s")
assert(not z4.pays, "2048 tokens a step: the bus is slower than the compute")
assert(off("zero_offload", 4, 8 * 2048).pays, "16K tokens a step: offload pays")
near(off("zero_offload", 5, 2048).transfer_seconds, z4.transfer_seconds / 2, 1e-12, "gen 5 halves it")
local sw = off("optimizer_swap", 4, 4 * 2048)
eq(sw.d2h_bytes, 12 * 7e9, "K x params down"); eq(sw.h2d_bytes, 12 * 7e9, "and up")
assert(not sw.pays, "swapping the whole state both ways does not pay at 8K tokens")
near(z4.breakeven_tokens, z4.transfer_seconds * 312e12 * 0.4 / (6 * 7e9), 1e-12, "break-even tokens")
raises("give the bus", vram.offload, { params = 1, tokens = 1, flops = 1 })
raises("unknown gpu 'x100' (gpus: t4, rtx3090", vram.offload, { params = 1, tokens = 1, gpu = "x100" })

-- GPU figures: copies, sources
local gs1 = vram.gpu_specs()
for _, g in ipairs(gs1) do
  assert(g.capacity > 0 and g.flops > 0 and g.bandwidth > 0 and #g.source > 40, g.id .. " figures")
  eq(g.pcie, vram.pcie(g.pcie_gen), g.id .. " pcie")
end
gs1[1].flops = 1
assert(vram.gpu_spec("t4").flops == 65e12, "gpu_specs hands out copies")
eq(vram.gpu_spec("h100-sxm").capacity, 81089 * 2^20, "H100 as CUDA reports it")
-- this device's row: from the simulator's profile, or a real GPU's published profile alone
-- (profile nil: a list { nil, id } would stop before the id), a copy; nil for an unlisted GPU
eq(vram.device_spec { profile = "t4", published_profile = nil }.id, "t4", "device_spec from the profile")
eq(vram.device_spec { profile = nil, published_profile = "h100-sxm" }.id, "h100-sxm", "from the published profile")
eq(vram.device_spec { name = "NVIDIA GeForce GTX 1080" }, nil, "an unlisted GPU")
eq(vram.device_spec(gpu.info()).id, gpu.info().profile, "the simulator's profile (rtx3090 in tests)")
vram.device_spec { profile = "t4" }.flops = 1
eq(vram.gpu_spec("t4").flops, 65e12, "device_spec hands out a copy")
raises("expects the table of gpu.info", vram.device_spec, "t4")

local function with_gpu(t, id, n)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  c.gpu, c.gpus = id, n
  return c
end

-- the planner: deterministic, sorted by cost, every plan fits; its memory is train_step's peak
local prob = { layers = 4, hidden = 256, heads = 4, seq = 256, batch = 8, vocab = 1000, gpu = "t4" }
local pl = vram.plan(prob)
local pl2 = vram.plan(prob)
assert(#pl.plans > 0, "some plans fit")
for i, p in ipairs(pl.plans) do
  eq(p.name, pl2.plans[i].name, "deterministic order")
  assert(p.fits and p.memory.total <= pl.capacity, p.name .. " fits")
  eq(p.stage, 0, "one GPU: stage 0 only")
  assert(p.precision ~= "bf16" and p.precision ~= "amp_bf16", "no bf16 on a T4")
  if i > 1 then assert(pl.plans[i - 1].cost.step_seconds <= p.cost.step_seconds, "sorted by cost") end
end
local one = vram.plan_check(prob, { precision = "amp_fp16", checkpointing = "full" })
local ts = vram.train_step { layers = 4, hidden = 256, heads = 4, seq = 256, batch = 8, vocab = 1000, precision = "amp_fp16", checkpointing = "full" }
eq(one.memory.total, ts.peak.bytes + 446693376, "plan memory = the step's peak + the CUDA context reserve")
assert(one.fits and one.rank and one.reasons[1] == nil, "a fitting plan has a rank and no reasons")
eq(vram.plan_check(prob, { precision = pl.plans[1].precision, checkpointing = pl.plans[1].checkpointing, offload = pl.plans[1].offload }).rank, 1, "the best plan ranks first")
-- the same shape on another GPU (its schedules come from the planner's cache): memory is still
-- the step's peak, capacity and cost are the new GPU's, and the GPU count is part of the key
local pa = vram.plan_check(with_gpu(prob, "a100-80gb"), { precision = "amp_fp16", checkpointing = "full" })
eq(pa.memory.total, ts.peak.bytes + 446693376, "the cached schedule's peak, on an A100")
near(pa.cost.compute_seconds / one.cost.compute_seconds, 65e12 / 312e12, 1e-9, "the A100's 16-bit rate")
local p8 = vram.plan_check(with_gpu(prob, "a100-80gb", 8), { precision = "amp_fp16", checkpointing = "full", stage = 3 })
assert(p8.memory.weights < pa.memory.weights, "8 GPUs at ZeRO-3 shard the weights")
-- fp32 runs at the T4's 8.1 TFLOP/s, 16-bit at 65
local f32 = vram.plan_check(prob, { precision = "fp32" })
near(f32.cost.compute_seconds / one.cost.compute_seconds, 65 / 8.1, 1e-9, "fp32 on CUDA cores")
-- a plan that does not fit says why
local big = { layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 8, positions = 1024, gpu = "t4" }
local bad = vram.plan_check(big, { precision = "fp32" })
assert(not bad.fits and bad.over > 0 and bad.rank == nil, "GPT-2 small in fp32 at batch 8 does not fit a T4")
assert(bad.reasons[1]:find("GPU holds 14.75 GiB", 1, true), bad.reasons[1])
assert(bad.reasons[3] and bad.reasons[3]:find("checkpointing", 1, true), "suggests checkpointing")
assert(bad.best and bad.best.fits, "and names a plan that does")
-- sharding over 8 GPUs: ZeRO-3 holds less than stage 0
local multi = { layers = 8, hidden = 512, heads = 8, seq = 512, batch = 2, vocab = 4000, gpu = "a100-80gb", gpus = 8 }
local s0 = vram.plan_check(multi, { precision = "amp_bf16", stage = 0 })
local s3 = vram.plan_check(multi, { precision = "amp_bf16", stage = 3 })
assert(s3.memory.weights < s0.memory.weights and s3.memory.optimizer < s0.memory.optimizer, "ZeRO-3 shards weights and state")
eq(s0.memory.optimizer, 8 * s3.memory.optimizer, "optimizer state / 8")
assert(vram.plan_check(multi, { precision = "amp_bf16", offload = true }).memory.optimizer == 0, "offload moves the state")
raises("offload moves the fp32 master copy", vram.plan_check, prob, { precision = "fp32", offload = true })
raises("a ZeRO stage above 0 needs gpus > 1", vram.plan_check, prob, { precision = "amp_fp16", stage = 2 })
raises("'gpu' is required", vram.plan, { layers = 1, hidden = 64, heads = 4, seq = 8 })
raises("'precision' must be one of fp32", vram.plan_check, prob, { precision = "fp16" })

for k, v in pairs(vram) do assert(type(v) == "function", "vram." .. k .. " is a " .. type(v)) end
-- vram.replay: the events through the allocator model; its peak of requested bytes is the
-- estimator's peak to the byte, a device too small gives nil and the allocator's message (and
-- frees what it held), a misspelt option is refused
do
  local r = vram.train_step { layers = 2, hidden = 256, heads = 4, seq = 128, batch = 2 }
  local n = 0
  local s = assert(vram.replay(r.events, { model = true, on_event = function() n = n + 1 end }))
  assert(s.simulated and s.peak_requested == r.peak.bytes, "replay peak " .. s.peak_requested .. " vs " .. r.peak.bytes)
  assert(n == #r.events, "on_event once per event")
  local none, msg = vram.replay(r.events, { model = true, capacity = "64MiB" })
  assert(none == nil and tostring(msg):find("out of memory"), "a 64 MiB device: " .. tostring(msg))
  local ok, err = pcall(vram.replay, r.events, { modle = true })
  assert(not ok and tostring(err):find("unknown option 'modle'", 1, true), tostring(err))
end

print("vram_train: all checks passed")
