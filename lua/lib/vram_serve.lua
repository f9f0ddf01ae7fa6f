-- vram_serve.lua - a serving simulation for chapter 5: requests with random prompt and output
-- lengths share a fixed KV-cache pool, held either as one contiguous reservation per request
-- (Orca's three variants in Kwon et al. 2023) or as block tables of fixed-size blocks
-- (PagedAttention, vLLM), with FCFS scheduling and preemption by recomputation or swapping.
-- vram.serve_sim counts what fits at once, what the pool holds (token states, reservations,
-- fragmentation) over time, and what preemption costs. Event-driven: a step is one iteration of
-- the batch; quiet stretches between events are added up in closed form, so a thousand
-- requests take under a tenth of a second (make bench). Deterministic for a seed. Adds its
-- function to vram.
local E = require "estimate"
local M = require "vram"

local fmt, floor, ceil, log, max, min = string.format, math.floor, math.ceil, math.log, math.max, math.min
local type, pairs, ipairs, sort = type, pairs, ipairs, table.sort
local opts, known, set, whole, count, nonneg, choice, raise =
  E.opts, E.known, E.set, E.whole, E.count, E.nonneg, E.choice, E.raise

-- mean prompt and output lengths in tokens of the paper's two traces (Kwon et al. 2023, fig. 11)
local WORKLOADS = { sharegpt = { 161.31, 337.99 }, alpaca = { 19.31, 58.45 } }

-- a binary min-heap of distinct numeric keys, each with a payload; inlined comparisons (the
-- simulation pushes one entry per admission and preemption)
local function heap()
  local K, P, n = {}, {}, 0
  local H = {}
  function H.push(key, payload)
    n = n + 1
    local i = n
    while i > 1 do
      local q = i // 2
      local kq = K[q]
      if key >= kq then break end
      K[i], P[i] = kq, P[q]
      i = q
    end
    K[i], P[i] = key, payload
  end
  function H.size() return n end
  function H.key() return K[1] end
  function H.peek() return P[1] end
  function H.pop()
    local top = P[1]
    local key, pay = K[n], P[n]
    K[n], P[n] = nil, nil
    n = n - 1
    if n > 0 then
      local i = 1
      while true do
        local l = 2 * i
        if l > n then break end
        local kl = K[l]
        if l < n and K[l + 1] < kl then l = l + 1; kl = K[l] end
        if key <= kl then break end
        K[i], P[i] = kl, P[l]
        i = l
      end
      K[i], P[i] = key, pay
    end
    return top
  end
  return H
end

-- first-fit allocation of contiguous token slots in [0, size): a sorted list of free extents
local function extents(size)
  local free = { { 0, size } } -- {start, length}
  local X = {}
  function X.alloc(len)
    for i, e in ipairs(free) do
      if e[2] >= len then
        local start = e[1]
        if e[2] == len then table.remove(free, i) else e[1], e[2] = e[1] + len, e[2] - len end
        return start
      end
    end
  end
  function X.free(start, len)
    local i = 1
    while i <= #free and free[i][1] < start do i = i + 1 end
    table.insert(free, i, { start, len })
    if i < #free and free[i][1] + free[i][2] == free[i + 1][1] then
      free[i][2] = free[i][2] + free[i + 1][2]; table.remove(free, i + 1)
    end
    if i > 1 and free[i - 1][1] + free[i - 1][2] == free[i][1] then
      free[i - 1][2] = free[i - 1][2] + free[i][2]; table.remove(free, i)
    end
  end
  function X.largest()
    local m = 0
    for _, e in ipairs(free) do if e[2] > m then m = e[2] end end
    return m
  end
  return X
end

local function lengths(fn, t, key, default_mean, rand, maxv)
  local v = t[key]
  if v == nil then v = { mean = default_mean } end
  if type(v) == "number" then
    if v < 1 or v % 1 ~= 0 then raise(fmt("vram.%s: '%s' must be a whole number of tokens or {mean=, min=, max=}", fn, key)) end
    return function() return min(v, maxv) end, v
  end
  if type(v) ~= "table" then raise(fmt("vram.%s: '%s' must be a whole number of tokens or {mean=, min=, max=}", fn, key)) end
  known(fn, v, set { "mean", "min", "max" })
  local mean = count(fn, v, "mean")
  local lo = whole(fn, v, "min", 1)
  local hi = min(whole(fn, v, "max", maxv), maxv)
  -- exponential with the given mean (the traces' shape is not published as a formula), rounded
  -- up, then clipped to [min, max]
  return function() return max(lo, min(hi, ceil(-mean * log(1 - rand())))) end, mean
end

--- vram.serve_sim{requests=1000, seed=1, workload="sharegpt"|"alpaca", prompt=, output=,
-- tokens= (the pool in token slots) or kv_bytes= with per_token= or model= (and kv_dtype=),
-- policy="paged"|"max"|"pow2"|"oracle", block=16, max_len=2048, max_seqs=256,
-- preempt="recompute"|"swap", rate= (arrivals per step; default all at step 0), pcie=,
-- samples=100} -> table (below).
-- Requests: prompt and output lengths drawn from an exponential with the workload's mean (the
-- paper's means: ShareGPT 161.31 in / 337.99 out, Alpaca 19.31 / 58.45; prompt= and output= take
-- a fixed length or {mean=, min=, max=}), clipped so prompt + output <= max_len.
-- One step is one batch iteration: a newly admitted request stores its prompt's KV and emits its
-- first token; every running request then appends one token per step until it has emitted its
-- output. policy:
--   paged  block tables (Kwon et al. 2023, sec. 4): blocks of `block` tokens allocated as the
--          sequence grows; a request is admitted when its prompt's blocks are free; when a
--          running sequence needs a block and none is free, the latest-arrived running sequence
--          is preempted (recompute: its blocks freed, it waits again and re-prefills prompt +
--          output so far; swap: its blocks copied to host memory and back when room returns,
--          no new request admitted meanwhile, as the paper's vLLM does).
--   max    contiguous reservation of max_len slots per request (Orca (Max) in the paper);
--   pow2   prompt + output rounded up to a power of two (Orca (Pow2): at most 2x over);
--   oracle prompt + the true output length (Orca (Oracle): knows the future).
--          Contiguous reservations are placed first-fit in the pool, so external fragmentation
--          can block a request while enough slots are free in pieces.
-- FCFS throughout: the oldest waiting request goes first, and nobody overtakes it. block defaults
-- to vLLM's block_size 16; max_seqs to 256, vLLM's max_num_seqs on GPUs under 70 GiB and A100s
-- (1024 on larger ones: vram.serving's max_num_seqs gives the device's, from
-- EngineArgs.get_batch_defaults in vllm/engine/arg_utils.py).
-- Result: policy, pool_tokens, block, requests, finished, rejected (requests larger than the
-- pool), steps, generated (output tokens), throughput (generated / steps), concurrency = {mean,
-- max} (running requests per step), shares = {token_states, reserved, internal, free}: time
-- averages of the pool's slots holding KV, reserved for tokens not generated yet, never to be
-- used (internal fragmentation: the rest of a block or of a reservation), and not allocated;
-- token_share (token states / allocated slots: the paper's fig. 2 measure, 20.4-38.2 % for the
-- Orca variants and 96.3 % for vLLM in its experiments), blocked_by_fragmentation (steps the
-- head request waited although enough slots were free, in pieces), preemptions, recomputed_tokens,
-- swapped_bytes (out and in, with kv_bytes/per_token known), swap_seconds (with pcie=),
-- mean_latency (steps from arrival to last token), samples ({step, running, tokens, allocated}).
function M.serve_sim(t)
  opts("serve_sim", t)
  known("serve_sim", t, set { "requests", "seed", "workload", "prompt", "output", "tokens", "kv_bytes", "per_token", "model",
                              "kv_dtype", "policy", "block", "max_len", "max_seqs", "preempt", "rate", "pcie", "samples" })
  local fn = "serve_sim"
  local N = whole(fn, t, "requests", 1000, 200000) -- a lesson's run; each request is a table
  local seed = t.seed == nil and 1 or t.seed
  if type(seed) ~= "number" or seed % 1 ~= 0 then raise("vram.serve_sim: 'seed' must be a whole number") end
  local wl = choice(fn, t, "workload", "sharegpt", { "sharegpt", "alpaca" })
  local policy = choice(fn, t, "policy", "paged", { "paged", "max", "pow2", "oracle" })
  local B = policy == "paged" and whole(fn, t, "block", 16) or 1
  local maxlen = whole(fn, t, "max_len", 2048)
  local maxseqs = whole(fn, t, "max_seqs", 256)
  local pre = choice(fn, t, "preempt", "recompute", { "recompute", "swap" })
  local nsamp = whole(fn, t, "samples", 100)
  -- the pool
  local per_token = t.per_token
  if per_token == nil and t.model ~= nil then per_token = M.kv { model = t.model, tokens = 1, dtype = t.kv_dtype }.per_token end
  local pool
  if t.tokens ~= nil then
    if t.kv_bytes ~= nil then raise("vram.serve_sim: give 'tokens' or 'kv_bytes', not both") end
    pool = whole(fn, t, "tokens")
  else
    if t.kv_bytes == nil then raise("vram.serve_sim: give the pool: 'tokens' (slots) or 'kv_bytes' with 'per_token' or 'model'") end
    local kvb = count(fn, t, "kv_bytes")
    per_token = count(fn, { per_token = per_token }, "per_token")
    pool = floor(kvb / per_token)
  end
  local nblocks = floor(pool / B)
  local pcie = t.pcie ~= nil and count(fn, t, "pcie") or nil
  local rate = t.rate ~= nil and count(fn, t, "rate") or nil

  -- the requests, drawn once for the seed
  local rand = E.rng(seed)
  local pdraw = lengths(fn, t, "prompt", WORKLOADS[wl][1], rand, maxlen - 1)
  local reqs, arrival = {}, 0
  for i = 1, N do
    if rate then arrival = arrival - log(1 - rand()) / rate end
    local p = pdraw()
    local odraw = lengths(fn, t, "output", WORKLOADS[wl][2], rand, maxlen - p)
    reqs[i] = { id = i, arrive = floor(arrival), p = p, o = odraw(), gen = 0, len = 0, t0 = 0, ver = 0, state = "new" }
  end

  -- dues: buckets[step] = {r1, ver1, r2, ver2, ...}; the next one is found by walking forward
  -- from the last step (cheaper than a heap: there are about as many steps as events)
  local buckets, scan, maxdue = {}, 1, -1
  local X = policy ~= "paged" and extents(pool) or nil
  local free_blocks = nblocks
  -- running: a set; waiting and swapped: heaps on arrival (id), oldest first. A running request
  -- r stores r.len (its cached tokens during step r.t0) and grows by one token a step after, so its
  -- length at step T is r.len + T - r.t0, and the sum over running requests is A + nrun x T with
  -- A = sum of (r.len - r.t0). C sums min(slots held, final length): the slots a request will
  -- ever fill, so reserved-for-later = C - sum of lengths and internal = allocated - C.
  local running, waiting, swapped = {}, heap(), heap()
  local newest = heap() -- running requests by arrival, latest on top (key -id; stale entries checked)
  local nrun, A, allocated, C = 0, 0, 0, 0
  local next_arrival, finished, rejected = 1, 0, 0
  local st = { preemptions = 0, recomputed = 0, swapped_blocks = 0, blocked = 0, generated = 0, latency = 0,
               max_run = 0, run = 0, tok = 0, alloc = 0, future = 0, internal = 0 }
  local samples, every = {}, 1

  local function final_len(r) return r.p + r.o - 1 end
  local function reservation(r)
    if policy == "max" then return maxlen end
    if policy == "oracle" then return r.p + r.o end
    local o = 1
    while o < r.o do o = o * 2 end
    return min(maxlen, r.p + o)
  end
  local function held(r) return policy == "paged" and r.blocks * B or r.res end
  local function cap(r) return min(held(r), final_len(r)) end

  local function add_running(r)
    running[r.id] = r; nrun = nrun + 1
    r.run = (r.run or 0) + 1
    newest.push(-r.id - r.run / 1e6, r) -- distinct keys; the latest id first
    A = A + r.len - r.t0; allocated = allocated + held(r); C = C + cap(r)
    if nrun > st.max_run then st.max_run = nrun end
  end
  local function remove_running(r)
    running[r.id] = nil; nrun = nrun - 1; r.ver = r.ver + 1
    A = A - (r.len - r.t0); allocated = allocated - held(r); C = C - cap(r)
  end
  -- the head of the queue waits for room: nothing to try until blocks or slots are released
  local blocked, by_frag = false, false -- by_frag: enough slots are free, but not in one piece
  local function release(r)
    if policy == "paged" then free_blocks = free_blocks + r.blocks; r.blocks = 0 else X.free(r.at, r.res) end
    blocked, by_frag = false, false
  end
  local function sync(r, T) local d = T - r.t0; r.len, r.gen, r.t0 = r.len + d, r.gen + d, T end
  local function schedule(r, T)
    local due = T + (r.o - r.gen) -- its last token
    if policy == "paged" then due = min(due, T + r.blocks * B - r.len + 1) end -- its next block
    r.ver = r.ver + 1
    local bk = buckets[due]
    if not bk then bk = {}; buckets[due] = bk end
    bk[#bk + 1] = r; bk[#bk + 1] = r.ver
    if due > maxdue then maxdue = due end
    if due < scan then scan = due end
  end
  -- waiting and swapped are min-heaps on arrival order: the head is the oldest
  local function insert(q, r) q.push(r.id, r) end

  -- the pool's state summed over steps a..b, with nothing but one token per running request a step
  local function account(a, b)
    if b < a then return end
    local n = b - a + 1
    local tok = n * A + nrun * (a + b) * n / 2
    st.run = st.run + n * nrun
    st.tok = st.tok + tok
    st.alloc = st.alloc + n * allocated
    st.future = st.future + n * C - tok
    st.internal = st.internal + n * (allocated - C)
    if by_frag then st.blocked = st.blocked + n end
    local sx = ceil(a / every) * every
    while sx <= b do
      samples[#samples + 1] = { step = sx, running = nrun, tokens = A + nrun * sx, allocated = allocated }
      if #samples >= 2 * nsamp then -- keep every other sample and halve the rate
        local kept = {}
        for i = 1, #samples, 2 do kept[#kept + 1] = samples[i] end
        samples, every = kept, every * 2
        sx = ceil((sx + 1) / every) * every
      else
        sx = sx + every
      end
    end
  end

  -- the latest-arrived running request: the one preempted first (vLLM's FCFS priority)
  local function latest_running()
    while newest.size() > 0 do
      local r, key = newest.peek(), newest.key()
      if running[r.id] == r and key == -r.id - r.run / 1e6 and not r.finishing then return r end
      newest.pop()
    end
  end
  local freed = false
  local function preempt(v, T)
    sync(v, T)
    remove_running(v)
    v.len, v.gen = v.len - 1, v.gen - 1 -- it does not run step T
    st.preemptions = st.preemptions + 1
    if pre == "swap" then
      v.out_blocks = v.blocks
      st.swapped_blocks = st.swapped_blocks + v.blocks
      release(v); v.state = "swapped"; insert(swapped, v)
    else
      release(v); v.state = "waiting"; v.recompute = true; insert(waiting, v)
    end
    freed = true
  end

  -- reused every step (a step allocates no table)
  local due, finishing, nfin = {}, {}, 0
  local function by_id(u, v) return u.id < v.id end
  local function started(r, T)
    add_running(r)
    if r.gen >= r.o then r.finishing = true; nfin = nfin + 1; finishing[nfin] = r else schedule(r, T) end
  end

  -- admissions at step T: swapped requests first, and no new request while any is swapped out
  local function admit(T)
    if blocked then return end
    if nrun >= maxseqs then blocked = true return end
    if swapped.size() > 0 then
      while swapped.size() > 0 and nrun < maxseqs do
        local r = swapped.peek()
        local nb = ceil((r.len + 1) / B)
        if nb > free_blocks then blocked = true break end
        swapped.pop()
        st.swapped_blocks = st.swapped_blocks + r.out_blocks
        free_blocks = free_blocks - nb; r.blocks = nb
        r.len, r.gen, r.t0, r.state = r.len + 1, r.gen + 1, T, "running"
        started(r, T)
      end
      return
    end
    while waiting.size() > 0 and nrun < maxseqs do
      local r = waiting.peek()
      local len = r.recompute and r.p + r.gen or r.p
      if policy == "paged" then
        local nb = ceil(len / B)
        if nb > nblocks then
          waiting.pop(); rejected = rejected + 1; r.state = "rejected"
        elseif nb > free_blocks then
          blocked = true
          break
        else
          free_blocks = free_blocks - nb; r.blocks = nb
        end
      else
        local res = reservation(r)
        if res > pool then
          waiting.pop(); rejected = rejected + 1; r.state = "rejected"
        else
          local at = X.alloc(res)
          if not at then
            by_frag = pool - allocated >= res
            blocked = true
            break
          end
          r.at, r.res = at, res
        end
      end
      if r.state ~= "rejected" then
        waiting.pop()
        if r.recompute then st.recomputed = st.recomputed + len end
        r.len, r.gen, r.t0, r.state = len, r.gen + 1, T, "running"
        started(r, T)
      end
    end
  end

  local T, last = 0, -1
  while finished + rejected < N do
    account(last + 1, T - 1) -- the quiet steps before T
    while next_arrival <= N and reqs[next_arrival].arrive <= T do
      local r = reqs[next_arrival]; r.state = "waiting"; insert(waiting, r); next_arrival = next_arrival + 1
    end
    freed = false
    nfin = 0
    -- running requests due at T (a block to allocate or their last token), oldest first
    local nd = 0
    local bk = buckets[T]
    if bk then
      buckets[T] = nil
      for i = 1, #bk, 2 do
        local r = bk[i]
        if r.ver == bk[i + 1] and running[r.id] then nd = nd + 1; due[nd] = r end
      end
    end
    for i = nd + 1, #due do due[i] = nil end
    if nd > 1 then sort(due, by_id) end
    for i = 1, nd do
      local r = due[i]
      if running[r.id] then
        sync(r, T)
        if policy == "paged" and r.len > r.blocks * B then
          while free_blocks == 0 do
            local v = latest_running() -- r itself at the latest
            preempt(v, T)
            if v == r then break end
          end
          if running[r.id] then
            C = C - cap(r)
            free_blocks = free_blocks - 1; r.blocks = r.blocks + 1; allocated = allocated + B
            C = C + cap(r)
          end
        end
        if running[r.id] then
          if r.gen >= r.o then r.finishing = true; nfin = nfin + 1; finishing[nfin] = r else schedule(r, T) end
        end
      end
    end
    local before = nrun
    admit(T)
    account(T, T)
    last = T
    for i = 1, nfin do
      local r = finishing[i]
      finishing[i] = nil
      sync(r, T)
      remove_running(r)
      release(r)
      r.state = "done"; finished = finished + 1
      st.generated = st.generated + r.o
      st.latency = st.latency + (T - r.arrive + 1)
      freed = true
    end
    -- the next step with something to do
    local nt = math.huge
    if scan <= T then scan = T + 1 end
    while scan <= maxdue and not buckets[scan] do scan = scan + 1 end
    if scan <= maxdue then nt = scan end
    if next_arrival <= N then nt = min(nt, reqs[next_arrival].arrive) end
    if (waiting.size() > 0 or swapped.size() > 0) and (freed or nrun == 0) then
      if nrun == 0 and before == 0 and not freed and next_arrival > N then
        raise("vram.serve_sim: a waiting request can never be admitted (internal error)")
      end
      nt = min(nt, T + 1)
    end
    if nt == math.huge then break end
    T = max(T + 1, nt)
  end
  local steps = last + 1
  local denom = steps * pool
  local r = {
    policy = policy, pool_tokens = pool, block = B, blocks = policy == "paged" and nblocks or nil,
    requests = N, finished = finished, rejected = rejected, steps = steps,
    generated = st.generated, throughput = st.generated / steps,
    concurrency = { mean = st.run / steps, max = st.max_run },
    shares = { token_states = st.tok / denom, reserved = st.future / denom,
               internal = st.internal / denom, free = 1 - st.alloc / denom },
    token_share = st.alloc > 0 and st.tok / st.alloc or 0,
    blocked_by_fragmentation = st.blocked, preemptions = st.preemptions, preempt = pre,
    recomputed_tokens = st.recomputed, mean_latency = finished > 0 and st.latency / finished or 0,
    workload = wl, seed = seed, max_seqs = maxseqs, max_len = maxlen,
  }
  if per_token then
    r.per_token = per_token
    r.swapped_bytes = st.swapped_blocks * B * per_token
    if pcie then r.swap_seconds = r.swapped_bytes / pcie end
  end
  -- thin the samples to at most nsamp, evenly
  local out = {}
  local stride = max(1, ceil(#samples / nsamp))
  for i = 1, #samples, stride do out[#out + 1] = samples[i] end
  r.samples = out
  return r
end

return M
