-- bench_models.lua - speed of the chapter 4 and 5 estimators, run by tests/bench.sh through
-- `vramlab eval` (the sandbox a lesson runs in, instruction hook included). Best of 3, each
-- against a reference measured in the same run:
--   serve_sim   the paged simulation (ShareGPT lengths, OPT-13B's pool of 15,728 slots), vs a
--               loop that writes one table slot per generated token: the least a step-by-step
--               simulation would do. Below 1, the event-driven simulation beats touching each token.
--   train_step  a 7B-shaped step (32 layers, hidden 4096, seq 2048), vs building as many small
--               tables as it has events
--   plan        the planner for that shape on 8 A100s (16 schedules x 8 combinations)
local clock, fmt = os.clock, string.format
local function best(f)
  local b = math.huge
  for _ = 1, 3 do
    local t0 = clock(); f(); local d = clock() - t0
    if d < b then b = d end
  end
  return b
end
local function line(what, t, ref, note)
  print(fmt("models %-34s %8.1f ms  reference %8.1f ms  ratio %5.2f  %s", what, 1000 * t, 1000 * ref, t / ref, note))
end

for _, n in ipairs { 1000, 5000 } do
  local r
  local t = best(function() r = vram.serve_sim { requests = n, tokens = 15728 } end)
  local ref = best(function()
    local x = {}
    for i = 1, r.generated do x[i % 512] = i end
  end)
  -- what was timed must be right: every request served, tokens generated, slots within the pool
  assert(r.finished == n and r.rejected == 0 and r.generated > n, fmt("serve_sim %d: %d finished, %d rejected", n, r.finished, r.rejected))
  assert(r.blocks * r.block <= 15728 + r.block, "serve_sim: more blocks than the pool holds")
  line(fmt("serve_sim %d requests", n), t, ref, fmt("(%d tokens, %d steps, %d preemptions)", r.generated, r.steps, r.preemptions))
end

local shape = { layers = 32, hidden = 4096, heads = 32, seq = 2048, batch = 1, vocab = 32000 }
local r
local t = best(function() r = vram.train_step(shape) end)
local ref = best(function()
  local x = {}
  for i = 1, #r.events do x[i] = { op = "alloc", id = i, bytes = i } end
end)
-- every event is an alloc or a free, each free of a block allocated before it
local live = {}
for i, e in ipairs(r.events) do
  if e.op == "alloc" then live[e.id] = true
  else assert(e.op == "free" and live[e.id], "train_step event " .. i .. " frees what is not live"); live[e.id] = nil end
end
assert(r.peak.bytes > 0 and #r.events == r.allocs + r.frees, "train_step: events and counts disagree")
line("train_step 7B shape", t, ref, fmt("(%d events)", #r.events))

local p
shape.gpu, shape.gpus = "a100-80gb", 8
t = best(function() p = vram.plan(shape) end)
assert(#p.plans > 0, "plan: a 7B model on 8 A100 80GB found no plan that fits")
line("plan 7B shape on 8 GPUs", t, 16 * ref, fmt("(reference: 16 x the table loop; %d plans fit)", #p.plans))
