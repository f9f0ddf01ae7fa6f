-- vram_feed.lua - estimators for chapter 6, feeding the GPU: the time of chunked copies and
-- kernels overlapped on streams against doing them one after the other (the CUDA C++ Best
-- Practices Guide's "staged concurrent copy and execute", extended to a third stage and to one
-- copy engine), when pinning a buffer pays for itself, zero-copy against copy-then-compute, and a
-- PyTorch-style data loader as a pipeline of stages. Closed forms, no device: the lessons feed
-- them this machine's measured (or SIMULATED) figures. Times in seconds, sizes in bytes, rates in
-- bytes/s. Adds its functions to vram.
local E = require "estimate"
local M = require "vram"

local fmt, ceil, max, min, huge = string.format, math.ceil, math.max, math.min, math.huge
local ipairs, type = ipairs, type
local opts, known, set, whole, count, nonneg, raise = E.opts, E.known, E.set, E.whole, E.count, E.nonneg, E.raise

--- vram.overlap{h2d=, kernel=, d2h=0, chunks=1, engines=2} -> serial against overlapped time.
-- h2d, kernel, d2h: seconds for the whole data (all chunks). Cut into n chunks whose copies and
-- kernels overlap on streams, each chunk's stages take a = h2d/n, b = kernel/n, c = d2h/n, and
-- a pipeline of three stages takes a + b + c + (n - 1) x max(a, b, c): the first chunk's trip,
-- then one chunk per period of the slowest stage. With one copy engine (engines = 1) the two
-- copies take turns on it, so the period is max(a + c, b). Two stages (d2h = 0) give the Best
-- Practices Guide's rough estimate: tE + tT/n when the kernel takes longer, tT + tE/n when the
-- copy does. Returns {serial, overlapped, speedup, bound (the speed-up as n grows without end:
-- at most 3 with two engines, 2 with one), bottleneck = "h2d"|"kernel"|"d2h"|"copies",
-- chunk = {h2d, kernel, d2h}}. Assumes no chunk waits for another's stage: streams and
-- buffers enough for every stage at once (three for in, compute, out; with two, a chunk's copy in
-- waits for the copy out two chunks before it). Ignores each operation's fixed start-up cost (a
-- few us): keep chunks above Hockney's n_1/2 (lesson 3.1).
--   vram.overlap{ h2d = 0.005, kernel = 0.004, d2h = 0.005, chunks = 8 }.overlapped --> 0.006125
function M.overlap(t)
  opts("overlap", t)
  known("overlap", t, set { "h2d", "kernel", "d2h", "chunks", "engines" })
  local h, k, d = nonneg("overlap", t, "h2d", nil), nonneg("overlap", t, "kernel", nil), nonneg("overlap", t, "d2h", 0)
  local n, engines = whole("overlap", t, "chunks", 1, 65536), whole("overlap", t, "engines", 2, 16)
  if h + k + d <= 0 then raise("vram.overlap: give the seconds of at least one stage") end
  local a, b, c = h / n, k / n, d / n
  local period, bottleneck
  if engines == 1 then
    period = max(a + c, b)
    bottleneck = a + c >= b and "copies" or "kernel"
  else
    period = max(a, b, c)
    bottleneck = period == a and "h2d" or period == b and "kernel" or "d2h"
  end
  local overlapped = a + b + c + (n - 1) * period
  local serial = h + k + d
  local limit = engines == 1 and max(h + d, k) or max(h, k, d)
  return { serial = serial, overlapped = overlapped, speedup = serial / overlapped, bound = serial / limit,
           bottleneck = bottleneck, chunk = { h2d = a, kernel = b, d2h = c }, chunks = n, engines = engines }
end

--- vram.pin_breakeven{bytes=, pinned_bps=, pageable_bps=, pin_s_per_gib=} -> when pinning pays.
-- A buffer copied over and over: from pageable memory each copy takes bytes/pageable_bps (the
-- driver stages it through its own pinned buffer: the staging cost is the difference); pinned
-- once, bytes/pinned_bps, after paying bytes/2^30 x pin_s_per_gib for cudaHostAlloc. Returns
-- {pin_seconds, pinned_seconds, pageable_seconds, staging_seconds (per copy), copies (to break
-- even: pinning is paid back by this many copies, rounded up)}.
--   vram.pin_breakeven{ bytes = 2^30, pinned_bps = 25e9, pageable_bps = 10e9, pin_s_per_gib = 0.35 }.copies --> 6
function M.pin_breakeven(t)
  opts("pin_breakeven", t)
  known("pin_breakeven", t, set { "bytes", "pinned_bps", "pageable_bps", "pin_s_per_gib" })
  local n = count("pin_breakeven", t, "bytes", nil)
  local pin, page = count("pin_breakeven", t, "pinned_bps", nil), count("pin_breakeven", t, "pageable_bps", nil)
  local per = nonneg("pin_breakeven", t, "pin_s_per_gib", nil)
  local cost = n / 2 ^ 30 * per
  local staging = n / page - n / pin
  return { pin_seconds = cost, pinned_seconds = n / pin, pageable_seconds = n / page, staging_seconds = staging,
           copies = staging > 0 and ceil(cost / staging - 1e-12) or huge }
end

--- vram.zerocopy{bytes=, passes=1, link_bps=, device_bps=} -> mapped host memory against a copy.
-- A kernel that reads mapped (zero-copy) host memory crosses the link on every pass:
-- passes x bytes/link_bps (link_bps: the rate a kernel reads over the link). Copying first costs
-- bytes/copy_bps once (the copy engine's rate; link_bps unless given) and then passes x
-- bytes/device_bps from device memory. Both take as long at breakeven = (1/copy_bps) /
-- (1/link_bps - 1/device_bps) passes; zero-copy wins below it. Returns {zerocopy_seconds,
-- copy_seconds, winner = "zerocopy"|"copy", breakeven}.
--   vram.zerocopy{ bytes = 2^30, passes = 1, link_bps = 25e9, device_bps = 900e9 }.winner --> "zerocopy"
function M.zerocopy(t)
  opts("zerocopy", t)
  known("zerocopy", t, set { "bytes", "passes", "link_bps", "copy_bps", "device_bps" })
  local n, passes = count("zerocopy", t, "bytes", nil), count("zerocopy", t, "passes", 1)
  local link, dev = count("zerocopy", t, "link_bps", nil), count("zerocopy", t, "device_bps", nil)
  local copy = count("zerocopy", t, "copy_bps", link)
  local zc, cp = passes * n / link, n / copy + passes * n / dev
  -- p n / link = n / copy + p n / dev  =>  p = (1/copy) / (1/link - 1/dev)
  local per = 1 / link - 1 / dev
  return { zerocopy_seconds = zc, copy_seconds = cp, winner = zc < cp and "zerocopy" or "copy",
           breakeven = per > 0 and (1 / copy) / per or huge }
end

--- vram.loader{workers=, worker_seconds=, pin_seconds=0, h2d_seconds=, compute_seconds=,
--- prefetch_factor=2, steps=8, overlap=true} -> a PyTorch-style data loader, step by step.
-- Each batch is prepared by one of `workers` processes (worker_seconds: decode, augment,
-- collate), copied into pinned memory by one pin thread (pin_seconds; 0 without pin_memory),
-- sent over a copy stream (h2d_seconds) and computed on (compute_seconds). The copy is a stage
-- of its own only on a side stream: `.to("cuda", non_blocking=True)` on the current stream waits
-- behind the previous batch's kernels (add h2d_seconds to compute_seconds for that loop).
-- Workers run ahead by at most prefetch_factor x workers batches (PyTorch's default
-- prefetch_factor is 2 when num_workers > 0). With
-- overlap = false every stage of a batch waits for the previous batch to be computed (no
-- workers ahead, a blocking copy). Returns {step_seconds (the steady step: the slowest stage per
-- batch, worker_seconds/workers for the workers), serial_seconds (the sum), total_seconds (for
-- `steps` batches), gpu_busy (compute's share of the steady step), bottleneck (the slowest
-- stage's name), timeline = {{batch=, stage=, start=, finish=, worker=}, ...} of the steps
-- simulated (worker: which of the workers, 1.., prepared the batch; stage "worker" only)}.
--   vram.loader{ workers = 4, worker_seconds = 0.2, pin_seconds = 0.01, h2d_seconds = 0.02, compute_seconds = 0.06 }.bottleneck --> "compute"
function M.loader(t)
  opts("loader", t)
  known("loader", t, set { "workers", "worker_seconds", "pin_seconds", "h2d_seconds", "compute_seconds",
                           "prefetch_factor", "steps", "overlap" })
  local w = whole("loader", t, "workers", 1, 256)
  local tw = nonneg("loader", t, "worker_seconds", nil)
  local tp = nonneg("loader", t, "pin_seconds", 0)
  local th, tc = nonneg("loader", t, "h2d_seconds", nil), nonneg("loader", t, "compute_seconds", nil)
  local pf = whole("loader", t, "prefetch_factor", 2, 64)
  local steps = whole("loader", t, "steps", 8, 4096)
  local overlap = E.bool("loader", t, "overlap", true)
  local stages = { { "workers", tw / w }, { "pin", tp }, { "h2d", th }, { "compute", tc } }
  local step, bottleneck = 0, "compute"
  for _, s in ipairs(stages) do if s[2] > step then step, bottleneck = s[2], s[1] end end
  local timeline, free_w = {}, {}
  for i = 1, w do free_w[i] = 0 end
  local pin_free, h2d_free, gpu_free, done = 0, 0, 0, {}
  local total = 0
  for b = 1, steps do
    local ready
    if overlap then
      -- the worker that frees first takes batch b, once the queue has room: batch b may start
      -- when batch b - pf x w has been consumed (computed)
      local k = 1
      for i = 2, w do if free_w[i] < free_w[k] then k = i end end
      local room = b - pf * w >= 1 and done[b - pf * w] or 0
      local s = max(free_w[k], room)
      free_w[k] = s + tw
      timeline[#timeline + 1] = { batch = b, stage = "worker", start = s, finish = s + tw, worker = k }
      ready = s + tw
    else
      local s = b > 1 and done[b - 1] or 0
      timeline[#timeline + 1] = { batch = b, stage = "worker", start = s, finish = s + tw, worker = 1 }
      ready = s + tw
    end
    local ps = max(ready, pin_free)
    pin_free = ps + tp
    if tp > 0 then timeline[#timeline + 1] = { batch = b, stage = "pin", start = ps, finish = ps + tp } end
    local hs = max(pin_free, h2d_free)
    h2d_free = hs + th
    timeline[#timeline + 1] = { batch = b, stage = "h2d", start = hs, finish = hs + th }
    local cs = max(h2d_free, gpu_free)
    gpu_free = cs + tc
    done[b] = gpu_free
    timeline[#timeline + 1] = { batch = b, stage = "compute", start = cs, finish = cs + tc }
    total = gpu_free
  end
  local serial = tw + tp + th + tc
  if not overlap then step, bottleneck = serial, "serial" end
  return { step_seconds = step, serial_seconds = serial, total_seconds = total,
           gpu_busy = step > 0 and tc / step or 0, bottleneck = bottleneck, timeline = timeline,
           workers = w, prefetch_factor = pf, steps = steps }
end

--- vram.timeline(items, {width=40, lanes=, upto=, total=}) -> a timeline drawn as text, a row a lane.
-- items: {{lane=, start=, finish=, mark=}, ...} (the ops of gpu.program, the timeline of
-- vram.loader with lane = its stage, or any list of intervals; mark: the one character drawn
-- for it, else the first of its label, else "#"). Each of `width` columns covers total/width seconds (total: the
-- latest finish unless given) and shows the mark of the item that covers most of it, if that
-- is at least half the column, else "."; only what happened before `upto` is drawn (a timeline
-- revealed step by step).
-- lanes: their order (default: as they first appear; items of other lanes are left out).
-- Returns {rows = {{lane=, bar=}, ...}, total=, per_column=}.
--   vram.timeline({ { lane = "h2d", start = 0, finish = 1, mark = "0" }, { lane = "sm", start = 1, finish = 2, mark = "0" } }, { width = 4 }).rows[2].bar --> "..00"
function M.timeline(items, t)
  if type(items) ~= "table" then raise("vram.timeline: expected a list of {lane=, start=, finish=}") end
  t = t or {}
  opts("timeline", t)
  known("timeline", t, set { "width", "lanes", "upto", "total" })
  local width = whole("timeline", t, "width", 40, 400)
  local upto = t.upto == nil and huge or nonneg("timeline", t, "upto", nil)
  local order, seen = {}, {}
  if t.lanes ~= nil then
    if type(t.lanes) ~= "table" then raise("vram.timeline: 'lanes' must be a list of names") end
    for _, l in ipairs(t.lanes) do order[#order + 1] = tostring(l); seen[tostring(l)] = true end
  end
  local total = 0
  for i, it in ipairs(items) do
    if type(it) ~= "table" or type(it.start) ~= "number" or type(it.finish) ~= "number" or it.lane == nil then
      raise(fmt("vram.timeline: item %d needs lane=, start= and finish=", i))
    end
    if it.finish > total then total = it.finish end
    local l = tostring(it.lane)
    if t.lanes == nil and not seen[l] then order[#order + 1] = l; seen[l] = true end
  end
  if t.total ~= nil then total = count("timeline", t, "total", nil) end
  local per = total > 0 and total / width or 1
  local rows = {}
  for r, lane in ipairs(order) do
    local cells = {}
    for c = 1, width do
      local lo, hi, best, mark = (c - 1) * per, c * per, per / 2, "."
      for _, it in ipairs(items) do
        if tostring(it.lane) == lane and it.start < upto then
          local cover = min(hi, it.finish, upto) - max(lo, it.start)
          if cover > best then
            local m = it.mark ~= nil and it.mark or it.label
            best, mark = cover, m ~= nil and tostring(m):sub(1, 1) or "#"
          end
        end
      end
      cells[c] = mark
    end
    rows[r] = { lane = lane, bar = table.concat(cells) }
  end
  return { rows = rows, total = total, per_column = per }
end

return M
