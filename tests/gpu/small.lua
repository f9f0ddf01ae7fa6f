-- small.lua: small transfers are measured as transfers (needs a GPU). Every timed batch is held by
-- the spin kernel until queued, at every size and rep count (batches of at most 256 ops), so a
-- 4 KiB copy's time is the copy's, not the host's enqueue rate; a hold that timed out would be
-- flagged in the result's warnings. The copies are validated like large ones. Under make
-- gpu-report, the report's own 4 KiB figures (FIGURES).
local KiB = 1024
local fmt = string.format
for _, q in ipairs({
  { dir = "d2d", method = "ce", bytes = 4 * KiB, key = "small_d2d_ce_held" },
  { dir = "d2d", method = "sm", bytes = 4 * KiB, key = "small_d2d_sm_held" },
  { dir = "h2d", pinned = true, bytes = 4 * KiB, key = "small_h2d_pinned_held" },
  { dir = "d2h", pinned = true, bytes = 4 * KiB, key = "small_d2h_pinned_held" },
}) do
  local F, key = FIGURES, q.key
  q.key, q.trials = nil, 5
  q.reps = 1000 -- four held batches per trial
  local r, err
  if F and F[key .. "_us"] then
    r = { seconds = F[key .. "_us"] / 1e6, bytes_per_s = q.bytes / (F[key .. "_us"] / 1e6),
          validated = F[key .. "_validated"] == true, warnings = { F[key .. "_warnings"] } }
  else
    r, err = gpu.copy(q)
  end
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
