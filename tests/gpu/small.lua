-- small.lua: small transfers are measured as transfers (needs a GPU). Every timed batch is held by
-- the spin kernel until queued, at every size and rep count (batches of at most 256 ops), so a
-- 4 KiB copy's time is the copy's, not the host's enqueue rate; a hold that timed out would be
-- flagged in the result's warnings. The copies are validated like large ones.
local KiB = 1024
local fmt = string.format
for _, q in ipairs({
  { dir = "d2d", method = "ce", bytes = 4 * KiB },
  { dir = "d2d", method = "sm", bytes = 4 * KiB },
  { dir = "h2d", pinned = true, bytes = 4 * KiB },
  { dir = "d2h", pinned = true, bytes = 64 * KiB },
}) do
  q.trials = 5
  q.reps = 1000 -- four held batches per trial
  local r, err = gpu.copy(q)
  assert(r, fmt("gpu.copy %s %s failed: %s", q.dir, q.method or "ce", tostring(err)))
  assert(r.validated, "not validated")
  for _, w in ipairs(r.warnings) do
    assert(not w:match("hold"), q.dir .. ": " .. w)
  end
  local us = r.seconds * 1e6
  print(fmt("%s %s %s: %.2f us per copy, %.2f GB/s (n/t)", q.dir, q.method or "ce",
    units.bytes(q.bytes), us, r.bytes_per_s / 1e9))
  assert(us > 0.05 and us < 100, fmt("%.2f us per %s copy: implausible", us, units.bytes(q.bytes)))
end
