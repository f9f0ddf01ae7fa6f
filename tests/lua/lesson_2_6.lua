-- Every figure lesson 2.6 states about the shipped example snapshot, recomputed through
-- alloc.snapshot: the prose and the answers stay true if the example or the model changes.
local GiB, MiB = 2^30, 2^20
local fmt = string.format
local function near(a, b, tol, what) assert(math.abs(a - b) <= tol, fmt("%s: the lesson says %s, it is %s", what, b, a)) end
local P = "assets/snapshots/gpt-train-oom.pickle"
local s = assert(alloc.snapshot(P, { top = 10 }))

near(s.peak / GiB, 6.125, 0.0005, "peak requested (exercise 'peak')")
near(s.reserved_peak / GiB, 6.28, 0.005, "peak reserved")
assert(s.peak_entry == 1631 and s.entries == 1635, "peak after entry 1631 of 1635")
local o = s.ooms[1]
near(o.size / GiB, 1.54, 0.005, "the OOM request")
near((o.live + o.size) / GiB, 7.66, 0.005, "live + request")
near((o.reserved + o.device_free) / GiB, 7.61, 0.005, "reserved + CUDA free")
near((o.reserved + o.device_free) / MiB, 7792, 0.5, "7792 MiB for the process")
near(16 * 512 * 50304 * 4 / GiB, 1.54, 0.005, "one fp32 logits tensor at batch 16")

-- exercise 'dominant': the logits (176) and the loss (178) are the two largest groups, 3.07 GiB
local by = {}
for _, g in ipairs(s.top) do by[g.where:gsub("^.*/", "")] = g.bytes end
assert(s.top[1].where:find("model.py:17[68]$") and s.top[2].where:find("model.py:17[68]$"), "the two largest are lines 176 and 178")
near((by["model.py:176"] + by["model.py:178"]) / GiB, 3.07, 0.005, "logits + loss")
near((by["train.py:112"] + by["train.py:139"]) / GiB, 0.76, 0.005, "weights + AdamW state")
assert(by["model.py:57"] < by["model.py:176"], "attention softmax smaller than the logits")

-- exercise 'setting' and the replay table: no setting serves the OOM request on 7792 MiB, every
-- setting does on 16 GiB; the defaults' model peak there is 7.81 GiB
for _, conf in ipairs { "expandable_segments:False", "expandable_segments:True", "max_split_size_mb:128" } do
  local small = assert(alloc.snapshot(P, { replay = conf, capacity = "7792MiB" })).replay.whatif
  local big = assert(alloc.snapshot(P, { replay = conf, capacity = "16GiB" })).replay.whatif
  assert(small.recorded_ooms_fit == 0, conf .. ": served on 7792 MiB")
  assert(big.recorded_ooms_fit == 1, conf .. ": not served on 16 GiB")
  if conf == "expandable_segments:False" then near(big.peak_reserved / GiB, 7.81, 0.005, "16 GiB defaults peak reserved") end
end

-- exercise 'predict-expandable' and its explanation: 6.15 GiB, 2 segments at the end instead of 29
local r = assert(alloc.snapshot(P, { replay = "expandable_segments:True" })).replay
near(r.whatif.peak_reserved / GiB, 6.15, 0.005, "expandable peak reserved")
assert(r.whatif.segments == 2 and r.recorded.segments == 29, "segments at the end: 2 vs the recorded 29")
near((r.whatif.peak_reserved - s.peak) / GiB, 0.03, 0.005, "expandable overhead above requested")
near((s.reserved_peak - s.peak) / GiB, 0.15, 0.005, "default overhead above requested")
-- measuring a peak yourself: the two steps' phase peaks through the allocator model
local SMALL = { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4 }
local f1 = vram.train_step { layers = 4, hidden = 512, heads = 8, seq = 512, batch = 4, first_step = true }
local f2 = vram.train_step(SMALL)
near(f1.phase_peaks.backward / 1e9, 1.79, 0.005, "predict-step2's prompt: step 1's backward peaks at 1.79 GB")
near(f2.phase_peaks.backward / 1e9, 2.11, 0.012, "predict-step2's explanation: 2.11 GB in step 2 (allocated: the live 2.10 GB rounded by the allocator)")
near((f2.phase_peaks.backward - f1.phase_peaks.backward) / 1e9, 8 * f2.params / 1e9, 0.001, "the difference is Adam's m and v")
near(8 * f2.params / 1e9, 0.31, 0.005, "38.6 M x 8 B = 0.31 GB")
assert(math.abs(1.79 - 2.11) / 2.11 > 0.08, "predict-step2: step 1's figure stays a wrong answer at the tolerance")
-- the leak: 393 MiB a step, one fp32 logits tensor
local d = assert(alloc.snapshot("assets/snapshots/gpt-leak-step2.pickle", { diff = "assets/snapshots/gpt-leak-step5.pickle" })).diff
near(d.grown_bytes / 3 / MiB, 393, 0.5, "leak-step: 393 MiB a step")
near(d.grown_bytes / GiB, 1.15, 0.005, "leak: 1.15 GiB over three steps")
assert(d.grown_bytes == 3 * 4 * 4 * 512 * 50304 and d.gone_bytes == 0, "three fp32 logits of 4 x 512 x 50304, nothing freed")
assert(d.grown[1].where:find("model.py:176", 1, true), "leak-line: allocated at model.py:176")
print("ok: lesson 2.6's figures")
