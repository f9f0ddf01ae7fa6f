-- Every kind of device work once, small: run by tests/cli/faults.sh with an injected OOM at each
-- allocation in turn. Failures must come back as nil, message (never a crash or a leak).
local function try(what, r, err)
  if not r then print(what .. ": " .. err) end
end
try("h2d", gpu.copy { dir = "h2d", bytes = "1MiB", trials = 2 })
try("d2h pageable", gpu.copy { dir = "d2h", bytes = "1MiB", pinned = false, trials = 2 })
try("d2d", gpu.copy { dir = "d2d", bytes = "1MiB", trials = 2 })
try("d2d sm", gpu.copy { dir = "d2d", bytes = "1MiB", method = "sm", trials = 2 })
try("stream", gpu.stream { kernel = "triad", bytes = "1MiB", trials = 2 })
try("latency", gpu.latency { bytes = "1MiB" })
local b, err = gpu.alloc(4096)
try("alloc", b, err)
if b then b:free() end
do local c <close> = gpu.alloc(8192) end
