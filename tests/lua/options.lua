-- Option tables reject misspelt keys: every public function of gpu, host and alloc either takes
-- no option table or rejects an unknown key with the list of valid ones, before it measures
-- anything (a misspelt key must not silently measure the default). Enum options name the valid
-- values; sizes are accepted as strings wherever sizes are taken.

local function rejects(what, f, bad, valid, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, what .. ": a misspelt '" .. bad .. "' was accepted")
  err = tostring(err)
  assert(err:find("unknown option '" .. bad .. "'", 1, true), what .. ": " .. err)
  for _, k in ipairs(valid) do
    assert(err:find(k, 1, true), what .. ": the message does not list '" .. k .. "': " .. err)
  end
  assert(not err:find("#-1", 1, true), what .. ": " .. err)
end

local points = { { bytes = 4096, ns = 1 }, { bytes = 8192, ns = 2 } }
local a = alloc.model { capacity = "1GiB" }
local pool = alloc.async_pool { capacity = "1GiB" }

-- Every public function, by module: the misspelt call, or false for one that takes no option table.
local cases = {
  gpu = {
    copy = function() rejects("gpu.copy", gpu.copy, "byts", { "dir", "bytes", "trials", "reps", "single" }, { dir = "d2d", byts = "1MiB" }) end,
    latency = function() rejects("gpu.latency", gpu.latency, "byts", { "bytes", "load" }, { byts = "1MiB" }) end,
    overlap = function() rejects("gpu.overlap", gpu.overlap, "busy", { "bytes", "busy_ms" }, { busy = 50 }) end,
    stream = function() rejects("gpu.stream", gpu.stream, "kernal", { "kernel", "bytes", "trials" }, { bytes = "1MiB", kernal = "add" }) end,
    plateaus = function()
      rejects("gpu.plateaus", gpu.plateaus, "wher", { "where", "levels" }, points, { wher = "host" })
      rejects("gpu.plateaus points", gpu.plateaus, "nss", { "bytes", "ns" }, { { bytes = 4096, nss = 1 } })
      rejects("gpu.plateaus levels", gpu.plateaus, "byts", { "name", "bytes" }, points, { levels = { { name = "L1", byts = 1 } } })
    end,
    strided = function() rejects("gpu.strided", gpu.strided, "strid", { "stride", "offset", "bytes", "trials" }, { strid = 2, bytes = "1MiB" }) end,
    random = function() rejects("gpu.random", gpu.random, "byte", { "bytes", "trials" }, { byte = "1MiB" }) end,
    layout = function() rejects("gpu.layout", gpu.layout, "particle", { "layout", "particles", "fields" }, { layout = "aos", particle = 4096 }) end,
    reread = function() rejects("gpu.reread", gpu.reread, "byts", { "bytes", "trials" }, { byts = "1MiB" }) end,
    persist = function() rejects("gpu.persist", gpu.persist, "hitratio", { "hot", "cold", "window", "hit_ratio" }, { hot = "1MiB", cold = "4MiB", hitratio = 1 }) end,
    transpose = function() rejects("gpu.transpose", gpu.transpose, "size", { "kernel", "n", "trials" }, { kernel = "naive", size = 64 }) end,
    banks = function() rejects("gpu.banks", gpu.banks, "strides", { "stride", "loads", "trials" }, { strides = 2 }) end,
    fma = function() rejects("gpu.fma", gpu.fma, "fma", { "fmas", "bytes", "trials" }, { fma = 2, bytes = "1MiB" }) end,
    pages = function() rejects("gpu.pages", gpu.pages, "stride", { "bytes", "step", "trials" }, { bytes = "64MiB", stride = "2MiB" }) end,
    program = function()
      rejects("gpu.program", gpu.program, "op", { "buffers", "ops" }, { buffers = { d = { "device", 4 } }, op = {} })
      rejects("gpu.program ops", gpu.program, "strem", { "stream", "bytes", "seconds", "label" },
              { buffers = { d = { "device", 4 } }, ops = { { "fill", "d", strem = 2 } } })
    end,
    pin = function() rejects("gpu.pin", gpu.pin, "byts", { "kind", "bytes", "trials" }, { byts = "1MiB" }) end,
    alloc = false, backend = false, info = false, mem = false, budget = false, peak = false,
    profiles = false, profile = false, sectors = false, bank_ways = false, clocks = false,
    free_tolerance = false,
  },
  host = {
    copy = function() rejects("host.copy", host.copy, "byts", { "method", "bytes", "trials", "threads" }, { byts = "1MiB" }) end,
    stream = function() rejects("host.stream", host.stream, "kernal", { "kernel", "bytes" }, { kernal = "add" }) end,
    triad = function() rejects("host.triad", host.triad, "threds", { "bytes", "trials", "threads" }, { threds = 2 }) end,
    latency = function() rejects("host.latency", host.latency, "byts", { "bytes" }, { byts = "1MiB" }) end,
    info = false, caches = false, budget = false,
  },
  alloc = {
    caching = function() rejects("alloc.caching", alloc.caching, "max_split_size", { "max_split_size_mb", "capacity" }, { max_split_size = 64 }) end,
    model = function() rejects("alloc.model", alloc.model, "capcity", { "capacity", "conf" }, { capcity = "1GiB" }) end,
    raw = function() rejects("alloc.raw", alloc.raw, "capcity", { "capacity" }, { capcity = "1GiB" }) end,
    async_pool = function() rejects("alloc.async_pool", alloc.async_pool, "release_treshold", { "capacity", "release_threshold" }, { capacity = "1GiB", release_treshold = 0 }) end,
    trace_replay = function() rejects("alloc.trace_replay", alloc.trace_replay, "capcity", { "capacity" }, "", { capcity = "1GiB" }) end,
    round_size = function() rejects("alloc.round_size", alloc.round_size, "roundup_power2_division", { "roundup_power2_divisions" }, 1000, { roundup_power2_division = 4 }) end,
    snapshot = function() rejects("alloc.snapshot", alloc.snapshot, "colums", { "device", "top", "columns", "replay", "capacity", "diff" }, "assets/snapshots/gpt-train.pickle", { colums = 10 }) end,
    ledger = false, format_size = false,
  },
}
for mod, fns in pairs(cases) do
  for name, v in pairs(_G[mod]) do
    if type(v) == "function" then
      local case = fns[name]
      assert(case ~= nil, mod .. "." .. name .. " is not covered here: add its misspelt-key case")
      if case then case() end
    end
  end
  for name in pairs(fns) do assert(type(_G[mod][name]) == "function", mod .. "." .. name .. " is gone") end
end
-- methods that take an option table
rejects("allocator:map", a.map, "maxx", { "max", "free" }, a, { maxx = 4 })
assert(pcall(a.map, a, { max = 4 }))

-- enums name the valid values
local function enum(what, f, opts, list)
  local ok, err = pcall(f, opts)
  assert(not ok, what)
  err = tostring(err)
  assert(err:find(list, 1, true) and not err:find("#-1", 1, true), what .. ": " .. err)
end
enum("gpu.copy dir", gpu.copy, { dir = "sideways", bytes = "1MiB" }, "h2d, d2h, d2d (got 'sideways')")
enum("gpu.copy dir missing", gpu.copy, { bytes = "1MiB" }, "h2d, d2h, d2d")
enum("gpu.copy method", gpu.copy, { dir = "d2d", bytes = "1MiB", method = "dma" }, "ce, sm")
enum("gpu.stream kernel", gpu.stream, { bytes = "1MiB", kernel = "fma" }, "copy, scale, add, triad, dot")
enum("host.copy method", host.copy, { method = "fast" }, "memcpy, loop")
enum("host.stream kernel", host.stream, { kernel = "fma" }, "copy, scale, add, triad, dot")
enum("gpu.pin kind", gpu.pin, { bytes = "1MiB", kind = "locked" }, "pinned, registered, mapped, managed, pageable")

-- sizes as strings wherever sizes are taken
local b = assert(gpu.alloc("4MiB"))
assert(b:size() == 4 * 2^20)
b:free()
assert(alloc.format_size("1MiB") == alloc.format_size(2^20))
assert(alloc.round_size("1000B") == alloc.round_size(1000))
local blk = assert(a:malloc("3MiB"))
assert(blk:size() >= 3 * 2^20)
local ok, err = pcall(gpu.alloc, "lots")
assert(not ok and tostring(err):find("lots", 1, true), tostring(err))
ok, err = pcall(gpu.alloc, {})
assert(not ok and tostring(err):find("size", 1, true), tostring(err))
pool:close()
a:close()
print("options ok")
