-- alloc.snapshot through the sandbox: the figures agree with themselves and with the replay (the
-- timeline's columns cover every entry once and keep the peaks at any width, the model agrees
-- with the recorded run under the recorded options), and a lesson cannot read a file outside
-- assets/snapshots/ and lessons/assets/ (absolute paths, "..", other folders). Links that lead
-- out are tried by tests/cli/snapshot_api.sh, which can make them.
local fmt = string.format
local function eq(a, b, what) assert(a == b, fmt("%s: expected %s, got %s", what, tostring(b), tostring(a))) end

local P = "assets/snapshots/gpt-train-oom.pickle"
local s = assert(alloc.snapshot(P, { columns = 7, top = 3 }))
eq(s.path, P, "path")
eq(s.simulated, false, "a recorded snapshot is not SIMULATED")
eq(#s.top, 3, "top groups")
for i = 2, #s.top do assert(s.top[i].bytes <= s.top[i - 1].bytes, "top sorted, largest first") end
assert(s.top[1].bytes <= s.peak, "a group is part of the peak")
assert(s.peak_entry < s.entries and s.reserved_peak_entry < s.entries, "peak entries in the trace")
assert(s.requested <= s.allocated and s.allocated <= s.reserved, "requested <= allocated <= reserved")
eq(s.reserved - s.allocated, s.cached, "reserved = allocated + cached (no pending frees here)")
eq(#s.ooms, 1, "one recorded OOM")
assert(s.ooms[1].entry > s.peak_entry, "the OOM comes after the peak")

-- the columns tile the trace in order, and their highest values are the summary's peaks
local function check_timeline(t, n, what)
  assert(#t >= 1 and #t <= n, what .. ": column count")
  eq(t[1].first, 0, what .. ": first entry")
  eq(t[#t].last, s.entries - 1, what .. ": last entry")
  local live, res = 0, 0
  for i, c in ipairs(t) do
    if i > 1 then eq(c.first, t[i - 1].last + 1, what .. ": columns contiguous") end
    live, res = math.max(live, c.live), math.max(res, c.reserved)
  end
  eq(live, s.peak, what .. ": highest live column = the peak")
  eq(res, s.reserved_peak, what .. ": highest reserved column = the reserved peak")
end
check_timeline(s.timeline, 7, "7 columns")
check_timeline(assert(alloc.snapshot(P, { columns = 1 })).timeline, 1, "1 column")
-- more columns than entries: one entry per column, none empty
local wide = assert(alloc.snapshot(P, { columns = 2000 }))
eq(#wide.timeline, s.entries, "2000 columns over fewer entries: one each")
check_timeline(wide.timeline, 2000, "2000 columns")
eq(wide.timeline[s.peak_entry + 1].live, s.peak, "the peak's own column")

-- the what-if replay: the model agrees with the record, expandable segments need fewer segments
local r = assert(alloc.snapshot(P, { replay = "expandable_segments:True", capacity = "7792MiB" })).replay
eq(r.simulated, true, "the replay is SIMULATED")
eq(r.capacity, 7792 * 2^20, "capacity")
eq(r.model.peak_reserved, r.recorded.peak_reserved, "model = record under the recorded options")
eq(r.recorded.peak_reserved, s.reserved_peak, "recorded side = the summary")
eq(r.whatif.conf, "expandable_segments:True", "what-if options")
assert(r.whatif.segments < r.model.segments, "expandable: fewer segments")
assert(r.whatif.peak_reserved <= r.model.peak_reserved, "expandable: no more reserved")
eq(alloc.snapshot(P).replay, nil, "no replay unless asked")

-- refused paths: each raises, naming the rule
local function refused(path, pat)
  local ok, err = pcall(alloc.snapshot, path)
  assert(not ok, path .. ": not refused")
  assert(tostring(err):find(pat, 1, true), fmt("%s: message %q lacks %q", path, tostring(err), pat))
end
refused("/etc/passwd", "is absolute")
refused("assets/snapshots/../../lessons/ch02/2.5-stream-ordered.lua", "has '..'")
refused("assets/snapshots/..", "has '..'")
refused("lessons/assets/../../README.md", "has '..'")
refused("assets/gpus/rtx3090.txt", "outside the allowed folders")
refused("lessons/ch02/2.5-stream-ordered.lua", "outside the allowed folders")
refused("assets/snapshotsX/a.pickle", "outside the allowed folders")
refused("assets/snapshots", "outside the allowed folders")
refused("assets/snapshots/missing.pickle", "No such file")
refused("assets/snapshots/a\0b", "not a usable path")
local ok, err = pcall(alloc.snapshot, P, { colums = 3 })
assert(not ok and err:find("unknown option 'colums'", 1, true), "an unknown option: " .. tostring(err))
ok, err = pcall(alloc.snapshot, P, { columns = 0 })
assert(not ok and err:find("columns must be", 1, true), "columns 0: " .. tostring(err))
local v, why = alloc.snapshot(P, { replay = "expandable_segments:Maybe" })
assert(v == nil and why:find("replay", 1, true), "bad replay options: " .. tostring(why))
-- diff: the shipped leak, two snapshots of one run (steps 2 and 5), against the CLI's figures
local L2, L5 = "assets/snapshots/gpt-leak-step2.pickle", "assets/snapshots/gpt-leak-step5.pickle"
local dd = assert(alloc.snapshot(L2, { diff = L5, top = 3 })).diff
local s2, s5 = assert(alloc.snapshot(L2)), assert(alloc.snapshot(L5))
assert(dd.path == L5 and dd.simulated == false, "the diff names B and is recorded, not simulated")
assert(dd.reserved.a == s2.reserved and dd.reserved.b == s5.reserved and dd.reserved.delta == s5.reserved - s2.reserved, "reserved a, b, delta")
assert(dd.requested.delta == s5.end_live - s2.end_live, "the requested bytes grew by the live bytes' growth")
assert(#dd.grown == 1 and dd.grown[1].count == 3 and dd.grown_bytes == dd.grown[1].bytes, "three leaked logits, one group")
assert(dd.grown[1].where:find("model.py:176", 1, true) and dd.grown[1].func == "forward", "allocated at model.py:176")
assert(dd.grown[1].bytes == 3 * 4 * 4 * 512 * 50304, "three fp32 logits of 4 x 512 x 50304")
assert(dd.gone_bytes == 0 and #dd.gone == 0, "nothing went")
local self_diff = assert(alloc.snapshot(P, { diff = P })).diff
assert(self_diff.grown_bytes == 0 and self_diff.gone_bytes == 0 and self_diff.reserved.delta == 0, "a file against itself: nothing")
ok, err = pcall(alloc.snapshot, P, { diff = "/etc/passwd" })
assert(not ok and err:find("is absolute", 1, true), "diff's path follows the same rules: " .. tostring(err))
ok, err = pcall(alloc.snapshot, P, { diff = 3 })
assert(not ok and err:find("diff must be the path", 1, true), "diff takes a path: " .. tostring(err))
print("ok: alloc.snapshot")
