-- Chapter 4 (the memory of a training step): every figure the lessons' texts and exercises state,
-- recomputed from the `vram` estimators and the allocator model, so that a change to an
-- estimator that would make a lesson say something false fails here. (Grading right and wrong
-- answers is tests/cli/grade.sh; headless runs in both languages are tests/cli/lessons.sh.)
local GB, GiB, MB, MiB = units.GB, units.GiB, units.MB, units.MiB
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end
local function eq(a, b, what) assert(a == b, what .. ": got " .. tostring(a) .. ", want " .. tostring(b)) end
local function with(base, extra)
  local t = {}
  for k, v in pairs(base) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end
-- peak_reserved of a step's events through the caching-allocator model
local function reserved(r)
  local al <close> = alloc.model { capacity = "80GiB" }
  local live = {}
  for _, e in ipairs(r.events) do
    if e.op == "alloc" then live[e.id] = assert(al:malloc(e.bytes, e.name)) else al:free(live[e.id]) end
  end
  assert(al:stats().peak_requested == r.peak.bytes, "the allocator's requested peak is the estimator's")
  return al:stats().peak_reserved
end

-- 4.1 -------------------------------------------------------------------------------------
local SMALL = { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4 }
local r41 = vram.train_step(SMALL)
near(r41.params / 1e6, 38.6, 0.002, "4.1 text: 38.6 M parameters")
near(50257 * 512 / 1e6, 25.7, 0.002, "4.1 text: 25.7 M in the tied embedding")
assert((50257 + 512) * 512 / r41.params > 0.66, "4.1 text: the embedding holds two thirds")
near(r41.peak.bytes / 1e6, 2100, 0.001, "4.1 predict: the model's live peak is 2,100 MB")
assert(r41.peak.phase == "backward" and r41.peak.name == "grad logits.float()", "4.1: the peak is early in backward, at the logits' fp32 gradient")
assert(r41.peak.bytes > r41.phase_peaks.forward and r41.peak.bytes > r41.phase_peaks.optimizer, "4.1 where-peak: backward above forward and optimizer")
near(vram.bytes_per_param { precision = "amp_bf16", optimizer = "adamw" }.total * 1.3e9 / GB, 20.8, 1e-9, "4.1 states")
local head, block = 0, 0
for _, e in ipairs(r41.events) do
  if e.op == "alloc" and e.kind == "activations" and e.phase == "forward" then
    if e.layer == SMALL.layers + 1 then head = head + e.bytes elseif e.layer == 1 then block = block + e.bytes end
  end
end
near(block, vram.activations(SMALL).per_layer.total, 1e-12, "4.1 table: a block saves sbh(34 + 5as/h)")
assert(head > SMALL.layers * block, "4.1 text: the head saves more than all four blocks")
local res41 = reserved(r41)
assert(res41 > r41.peak.bytes and res41 < 1.2 * r41.peak.bytes, "4.1 predict-reserved: a few % to 20 % above the live peak")
assert(res41 < 4200 * MB / 1.15, "4.1 predict-reserved: the wrong answer (twice the peak) stays wrong")

-- 4.2 -------------------------------------------------------------------------------------
local g3 = vram.activations { seq = 2048, hidden = 12288, heads = 96 }
near(g3.per_layer.total / GB, 2.869, 0.001, "4.2 gpt3-layer")
near(g3.coefficient, 114, 1e-12, "4.2: 34 + 80")
near(g3.per_layer.total * 96 / GB, 275.4, 0.002, "4.2 text: 275 GB for 96 layers")
near(34 * 4096 / (5 * 32), 870.4, 1e-12, "4.2 crossover")
local function layer(s, fl) return vram.activations { seq = s, hidden = 4096, heads = 32, flash = fl }.per_layer.total end
near(layer(8192, false) / layer(4096, false), 3.65, 0.01, "4.2 errata: x3.6 from 4096 to 8192")
near(layer(32768, false) / layer(32768, true), 38.6, 0.01, "4.2 text: 39x at 32K")
near(layer(2048, true) * 2, layer(4096, true), 0.001, "4.2: FlashAttention is linear in s")
near(g3.flash_removes / GB, 2.01, 0.005, "4.2 text: FlashAttention removes 2.01 GB")
local function small(s, fl) return vram.train_step(with(SMALL, { batch = 1, seq = s, flash = fl })) end
local ratio = reserved(small(4096, false)) / reserved(small(2048, false))
assert(ratio > 2 * 1.08 and ratio < 4 / 1.08, "4.2 predict-double: between linear and quadratic, neither within tolerance: " .. ratio)

-- 4.3 -------------------------------------------------------------------------------------
local GPT2 = { layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 8, positions = 1024 }
local rows = vram.checkpoint_cost(with(GPT2, { gpu = "rtx3090" }))
near(rows[2].extra, 0.051, 0.05, "4.3 text: selective about +5 %")
near(rows[3].extra, 0.278, 0.01, "4.3 text: full about +28 %")
assert(rows[4].extra == rows[3].extra, "4.3: sqrt recomputes as much as full")
local emb = (50257 + 1024) * 768
near(emb / vram.transformer { layers = 12, hidden = 768, heads = 12, positions = 1024 }.total, 0.32, 0.02, "4.3 full-cost: embedding and head are 32 % of the parameters")
for _, m in ipairs { "none", "selective", "full", "sqrt" } do
  local r = vram.train_step(with(GPT2, { checkpointing = m }))
  assert(r.peak.name == "grad logits.float()", "4.3 note: every mode peaks at the logits' fp32 gradient (" .. m .. ")")
end
local full = reserved(vram.train_step(with(GPT2, { checkpointing = "full" })))
assert(math.abs(full / GB - 2) > 0.2 * full / GB, "4.3 predict-full: the model states alone are graded wrong")
assert(math.floor(math.sqrt(64)) == 8, "4.3 sqrt-k")

-- 4.4 -------------------------------------------------------------------------------------
local function bpp(p, o) return vram.bytes_per_param { precision = p, optimizer = o }.total end
assert(bpp("fp32", "adamw") == 16 and bpp("amp_bf16", "adamw") == 16 and bpp("amp_fp16", "adam") == 16, "4.4 amp-states: 16 = 16")
assert(bpp("bf16", "adamw") == 8, "4.4 table: pure bf16 8 B/param")
near(bpp("amp_bf16", "adam8bit"), 10.03125, 1e-12, "4.4 table: 8-bit Adam 10.03")
near(bpp("amp_bf16", "adam8bit") * 7e9 / GB, 70.22, 0.001, "4.4 adam8bit-7b")
local G4 = with(GPT2, { batch = 4 })
local amp = reserved(vram.train_step(with(G4, { precision = "amp_bf16" })))
local f32 = reserved(vram.train_step(with(G4, { precision = "fp32" })))
local r44 = f32 / amp
assert(r44 > 1 and r44 < 2 / 1.08, "4.4 predict-amp: well under 2: " .. r44)
local bf = reserved(vram.train_step(with(G4, { precision = "bf16" })))
assert(f32 - amp > amp - bf, "4.4 text: AMP saves the most")

-- 4.3 offload or recompute: h = 4096, s = 2048, FlashAttention, an A100 at 40 % MFU
local off43 = vram.offload_activations { layers = 1, hidden = 4096, heads = 32, seq = 2048, flash = true, gpu = "a100-80gb", d2h = 25e9, h2d = 25e9 }
near(off43.saved / MB, 285, 0.002, "4.3 text: A = 285 MB"); near(off43.forward_seconds * 1e3, 7.16, 0.002, "4.3 text: F = 7.2 ms")
near(off43.extra.offload_sync * 1e3, 22.8, 0.002, "4.3 save-on-cpu-ms: 22.8 ms")
near(off43.breakeven_sync / GB, 79.7, 0.002, "4.3 breakeven-link: 80 GB/s"); near(off43.breakeven_overlap / GB, 39.9, 0.002, "4.3 text: 40 GB/s overlapped")
assert(off43.breakeven_sync > vram.pcie(5) and off43.breakeven_sync < 450e9, "4.3 text: above PCIe 5.0 x16, below NVLink-C2C")

-- 4.5 -------------------------------------------------------------------------------------
local paper = { 120, 31.4, 16.6, 1.9 }
for st = 0, 3 do
  near(vram.sharding { params = 7.5e9, gpus = 64, stage = st }.total / GB, paper[st + 1], 0.015, "4.5 ZeRO fig. 1 stage " .. st)
end
near(vram.sharding { params = 7.5e9, gpus = 64, stage = 2 }.total / GB, 16.64, 0.001, "4.5 zero2")
local o = vram.offload { params = 7e9, tokens = 2048, pcie = 63.0e9, gpu = "h100-sxm" }
near(o.breakeven_tokens, 4187, 0.001, "4.5 breakeven")
local o13 = vram.offload { params = 1.3e9, tokens = 4096, pcie = 26e9, gpu = "rtx3090" }
near(o13.host_bytes / GB, 18.2, 1e-9, "4.5 pitfall: 14 B/param on the host")
near(o13.transfer_seconds, 0.2, 0.01, "4.5 predict-pcie: 0.2 s at 26 GB/s")
local sw = vram.offload { params = 1.3e9, tokens = 4096, pcie = 26e9, gpu = "rtx3090", mode = "optimizer_swap" }
near(sw.transfer_seconds / o13.transfer_seconds, 6, 1e-9, "4.5 text: the naive swap moves 6x the bytes")
-- ZeRO-Offload as the paper counts it, with DeepSpeed's buffers
local zo = vram.offload { params = 1315723264, tokens = 4096, gpu = "rtx3090", largest_param = 50257 * 2048 }
near(zo.gpu_bytes / GB, 3.84, 0.002, "4.5 text and offload-gpu: 3.84 GB on the GPU")
near(zo.gpu_parts.buffers / GB, 1.21, 0.005, "4.5 text: 1.2 GB of buffers")
near(4 * 1315723264 / GB, 5.26, 0.002, "4.5 text: 5.3 GB with 16-bit gradients kept")
-- data parallelism's transients: the micro-batch-3 problem on one RTX 3090 and on eight
local DP = { layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 3, gpu = "rtx3090" }
local function dpc(gpus, stage, view)
  return vram.plan_check(with(DP, { gpus = gpus, bucket_view = view }), { precision = "bf16", checkpointing = "selective", stage = stage })
end
local want = { { 1, 0, nil, 20.85, true }, { 8, 0, nil, 23.94, false }, { 8, 0, true, 23.94, false },
               { 8, 1, nil, 19.65, true }, { 8, 2, nil, 17.29, true }, { 8, 3, nil, 15.34, true } }
for _, w in ipairs(want) do
  local c = dpc(w[1], w[2], w[3])
  near(c.memory.total / GiB, w[4], 0.001, "4.5 table: " .. w[1] .. " GPUs, stage " .. w[2])
  assert(c.fits == w[5], "4.5 table: fits or not")
end
local d8 = dpc(8, 0)
near(d8.memory.buckets / GiB, 2.45, 0.002, "4.5 ddp-buckets: 2.45 GiB"); eq(d8.memory.nccl, 688e6, "4.5 text: 688 MB of NCCL")
near(dpc(8, 3).memory.gather / MiB, 192, 0.001, "4.5 table: two gathered blocks"); near(dpc(8, 3).memory.unsharded_grads / MiB, 96, 0.001, "4.5 table: one block's gradients")
near(16 * vram.nccl { channels = 1 }.per_connection / MiB, 147, 0.002, "4.5 nccl-ring: 147 MiB")
local dp1 = vram.train_step { layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 3, precision = "bf16", checkpointing = "selective" }
near(dp1.peak.bytes / GiB, 20.43, 0.001, "4.5 predict-ddp: the live peak")

-- 4.6 -------------------------------------------------------------------------------------
local P = { layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 2, gpu = "rtx3090" }
local p = vram.plan(P)
assert(p.params == 1315723264, "4.6 states-gib: parameter count")
near(16 * p.params / GiB, 19.61, 0.001, "4.6 states-gib")
near(p.capacity / GiB, 23.70, 0.001, "4.6 text: 23.70 GiB")
assert(p.plans[1].precision == "bf16" and p.plans[1].checkpointing == "selective" and not p.plans[1].offload, "4.6 text: the best plan is pure bf16, selective")
local best_plan = p.plans[1]
local function check(extra, plan) return vram.plan_check(with(P, extra), plan) end
local ampfull = { precision = "amp_bf16", checkpointing = "full" }
local c = check({}, ampfull)
assert(not c.fits and c.peak_phase == "optimizer", "4.6 one-change: AMP + full peaks in the optimizer")
near(c.memory.total / GiB, 24.93, 0.001, "4.6 text: 24.9 GiB")
assert(not check({ batch = 1 }, ampfull).fits, "4.6 one-change: micro-batch 1 does not fit")
assert(not check({ flash = true }, ampfull).fits, "4.6 one-change: FlashAttention does not fit")
assert(not check({}, { precision = "amp_bf16", checkpointing = "sqrt" }).fits, "4.6 one-change: sqrt does not fit")
local fused = check({ optimizer_impl = "fused" }, ampfull)
assert(fused.fits, "4.6 one-change: fused AdamW fits")
near(fused.memory.total / GiB, 21.04, 0.001, "4.6 explain: 21.0 GiB")
-- keep-master: among AMP plans, only selective + offload fits within 1.25x of the best
local good = {}
for _, e in ipairs(p.plans) do
  local slow = e.cost.step_seconds / best_plan.cost.step_seconds
  if e.precision:sub(1, 4) == "amp_" and slow <= 1.25 then good[#good + 1] = e.name end
  if e.precision:sub(1, 4) == "amp_" and e.checkpointing == "full" then near(slow, 1.43, 0.005, "4.6 explain: full + offload 1.43x") end
end
for _, e in ipairs(p.plans) do
  assert(not (e.precision:sub(1, 4) == "amp_" and not e.offload), "4.6 explain: no AMP plan fits without offload (" .. e.name .. ")")
end
table.sort(good)
assert(#good == 2 and good[1] == "amp_bf16, checkpointing selective, CPU offload" and good[2] == "amp_fp16, checkpointing selective, CPU offload",
       "4.6 keep-master: the right plans are AMP + selective + offload: " .. table.concat(good, "; "))
near(check({}, { precision = "amp_bf16", checkpointing = "selective", offload = true }).slowdown, 1.14, 0.005, "4.6 text: 1.14x")
near(check({}, { precision = "amp_bf16", checkpointing = "selective", offload = true }).memory.total / GiB, 12.7, 0.005, "4.6 keep-master: 12.7 GiB")
near(check({}, { precision = "amp_bf16", checkpointing = "selective", offload = true }).memory.offload_buffers / GiB, 1.1, 0.03, "4.6 keep-master: 1.1 GiB of DeepSpeed's buffers")
-- 4.6 accumulation: from the second micro-step the gradients are there from the start
local acc1 = check({ batch = 2 }, { precision = "bf16", checkpointing = "selective" })
local acc4 = check({ batch = 2, accum = 4 }, { precision = "bf16", checkpointing = "selective" })
near((acc4.memory.total - acc1.memory.total) / GiB, 2.45, 0.002, "4.6 text: a peak early in backward rises by the gradients")
for _, mb in ipairs { 1, 2, 3, 6 } do
  local q = vram.plan(with(P, { gpus = 8, batch = mb, accum = 6 // mb, link = vram.pcie(4) }))
  assert(#q.plans > 0 and q.tokens == 6 * 2048, "4.6 eight: every split of 48 fits, 48 x 2048 tokens a step over 8 GPUs")
end
local best = p.plans[1]
local shape = with(P, { precision = best.precision, checkpointing = best.checkpointing })
shape.gpu = nil
local pr = reserved(vram.train_step(shape))
local planned = best.memory.total - best.memory.reserve
assert(pr > planned * 1.05 and pr < planned * 1.15, "4.6 predict-reserved: the planner's live bytes graded wrong, a few % above")

print("lessons_ch04: all checks passed")
