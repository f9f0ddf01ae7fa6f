#!/bin/sh
# timeline.sh BUILD - the timeline panel through the lesson API: ex:span's spans reach plain
# output (lane, kind, chunk, start and finish in ms, SIMULATED), --json (typed: label, text, x, y,
# value, max, style) and a recording that plays back the same lines in the other language;
# a span of no length declares a lane and prints nothing; the limits and mistakes are errors at
# the lesson's own line: 17 lanes, 17 kinds, a finish before the start, a time that is not a
# number, n that is not whole, a span on a panel that is not a timeline, an unknown option
# (with its likely name); ex:clear starts the count again; docs/lua-api.md's example runs and
# prints the spans it says.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/ch09"
lesson() { # ID BODY: a lesson whose experiment runs BODY with `ex`
    cat > "$T/ch09/$1-tl.lua" <<LUA
return lesson {
  id = "$1", chapter = 9, chapter_title = { en = "Timeline", zh = "时间线" },
  title = { en = "Spans", zh = "时间段" },
  experiment {
    id = "spans", title = { en = "Spans", zh = "时间段" },
    panels = { { id = "tl", kind = "timeline", title = { en = "Timeline", zh = "时间线" } },
               { id = "b", kind = "bars", title = { en = "B", zh = "条" }, unit = "x" } },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
$2
    end,
  },
}
LUA
}
app="$b --backend sim --deterministic --lessons $T"

lesson 9.1 '      ex:span("tl", T("H2D copy", "H2D 拷贝"), 0, 0, { kind = T("copy in", "拷入") })
      for i = 0, 2 do
        ex:span("tl", T("H2D copy", "H2D 拷贝"), i * 0.001, (i + 1) * 0.001, { kind = T("copy in", "拷入"), n = i, total = 0.005 })
        ex:span("tl", "SM", (i + 1) * 0.001, (i + 2) * 0.001, { kind = T("kernel", "核函数"), n = i, total = 0.005, style = "simulated" })
      end'
out=$($app run 9.1 2>&1) || fail "run 9.1: exit $?: $out"
n=$(printf '%s\n' "$out" | grep -c '^  \[tl\] ')
[ "$n" -eq 6 ] || fail "6 spans printed (the lane declared by a span of no length prints nothing), got $n: $out"
printf '%s\n' "$out" | grep -qx '  \[tl\] H2D copy: copy in #1, 1 to 2 ms (SIMULATED)' || fail "span line: $out"
printf '%s\n' "$out" | grep -qx '  \[tl\] SM: kernel #2, 3 to 4 ms (SIMULATED)' || fail "SM span line: $out"
zh=$($app --lang zh run 9.1 2>&1) || fail "run 9.1 --lang zh: exit $?"
printf '%s\n' "$zh" | grep -qx '  \[tl\] H2D 拷贝：拷入 #1，1 到 2 ms（SIMULATED）' || fail "zh span line: $zh"
$app run 9.1 --json > "$T/j" || fail "--json exit $?"
python3 - "$T/j" <<'PY' || fail "--json spans"
import json, sys
ev = [d for d in map(json.loads, open(sys.argv[1])) if d["type"] == "span"]
assert len(ev) == 7, ev
d = ev[2]
assert d["panel"] == "tl" and d["label"] == "SM" and d["text"] == "kernel", d
assert abs(d["x"] - 0.001) < 1e-12 and abs(d["y"] - 0.002) < 1e-12, d
assert d["value"] == 0 and abs(d["max"] - 0.005) < 1e-12 and d["style"] == "SIMULATED" and d["simulated"] is True, d
assert ev[0]["x"] == ev[0]["y"] == 0 and ev[0]["value"] == -1, ev[0]
PY
# recorded in English, played back in Chinese: the same spans, in the other language
$app --record "$T/r.jsonl" run 9.1 >/dev/null 2>&1 || fail "--record"
grep -q '"span"' "$T/r.jsonl" || fail "the recording has no span: $(head -c 600 "$T/r.jsonl")"
rp=$($app --lang zh --replay "$T/r.jsonl" run 9.1 2>&1) || fail "--replay exit $?: $rp"
printf '%s\n' "$rp" | grep -q '^  \[tl\] H2D 拷贝：拷入 #1，1 到 2 ms（SIMULATED' || fail "replayed span: $rp"
[ "$(printf '%s\n' "$rp" | grep -c '^  \[tl\] ')" -eq 6 ] || fail "replay lost spans: $rp"

# limits and mistakes: exit 1, the lesson's file and line, the words
err() { # ID BODY REGEX
    lesson "$1" "$2"
    out=$($app run "$1" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc (want 1): $out"
    printf '%s\n' "$out" | grep -q "$1-tl.lua:[0-9]*: $3" || fail "$1: no error /$3/ at the lesson's line: $out"
}
err 9.2 '      for i = 1, 17 do ex:span("tl", "lane " .. i, 0, 1) end' "ex:span: 17 lanes in panel 'tl'; at most 16"
err 9.3 '      for i = 1, 17 do ex:span("tl", "SM", i, i + 1, { kind = "k" .. i }) end' "ex:span: 17 kinds in panel 'tl'; at most 16"
err 9.4 '      ex:span("tl", "SM", 2, 1)' 'ex:span: the finish (1 s) is before the start (2 s)'
err 9.5 '      ex:span("tl", "SM", 0 / 0, 1)' 'ex:span: the start must be a time in seconds, 0 or more'
err 9.6 '      ex:span("tl", "SM", 0, 1, { n = 1.5 })' 'ex:span: n (the chunk or batch) must be a whole number'
err 9.7 '      ex:span("b", "SM", 0, 1)' "ex:span: panel 'b' is a bars panel; a span goes on a timeline panel"
err 9.8 '      ex:span("tl", "SM", 0, 1, { knid = "k" })' "ex:span: unknown option 'knid'.*kind"
err 9.9 '      ex:span("tl", "SM", 0, 1, { total = -1 })' 'ex:span: total (the run.s length) must be a positive number'
# a clear starts the count again: 16 lanes, clear, 16 others
lesson 9.10 '      for i = 1, 16 do ex:span("tl", "a" .. i, 0, 1) end
      ex:clear("tl")
      for i = 1, 16 do ex:span("tl", "b" .. i, 0, 1) end'
out=$($app run 9.10 2>&1) || fail "16 lanes, clear, 16 lanes: exit $?: $out"
printf '%s\n' "$out" | grep -q '^  \[tl\] b16: b16, 0 to 1000 ms' || fail "after the clear: $out"
# the example of docs/lua-api.md ("A timeline of a program") runs as an experiment's body
body=$(awk '/^### A timeline of a program/ { on = 1 } on && /^```lua$/ { inb = 1; next } inb && /^```$/ { exit } inb' docs/lua-api.md)
[ -n "$body" ] || fail "no example under 'A timeline of a program' in docs/lua-api.md"
lesson 9.11 "$body"
out=$($app --seed 1 run 9.11 2>&1) || fail "the docs' example: exit $?: $out"
[ "$(printf '%s\n' "$out" | grep -c '^  \[tl\] ')" -eq 8 ] || fail "the docs' example: 8 spans: $out"
printf '%s\n' "$out" | grep -qx '  \[tl\] H2D copy: copy in #1, 0.650 to 1.30 ms (SIMULATED)' || fail "the docs' example: chunk 1's copy: $out"
printf '%s\n' "$out" | grep -qx '  \[tl\] SMs: kernel #0, 0.650 to 1.66 ms (SIMULATED)' || fail "the docs' example: chunk 0's kernel: $out"
echo "ok: spans in plain, JSON, zh and replay; 8 limits and mistakes are errors at the lesson's line"
