#!/bin/sh
# compare.sh BUILD - recordings of two machines (two simulator profiles): `results` as text,
# CSV and JSON lines (one row per bar/point/gauge, with lesson, experiment, panel, label,
# value, unit, style, machine; a curve point's x and y with their axes' units), and `compare`
# showing both side by side (table and bars).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$b" --backend sim --profile rtx3090 --seed 1 --deterministic --record "$T/a.jsonl" run 1.3 >/dev/null ||
    fail "record a"
"$b" --backend sim --profile h200 --seed 1 --deterministic --record "$T/b.jsonl" run 1.3 >/dev/null ||
    fail "record b"

out=$("$b" results "$T/a.jsonl") || fail "results exit"
echo "$out" | grep -q 'NVIDIA GeForce RTX 3090 (SIMULATED)' || fail "results machine: $out"
echo "$out" | grep -q '1\.3 .*measure .*bw .*bar .*VRAM (D2D copy) .*GB/s .*simulated' || fail "results row: $out"

csv=$("$b" results "$T/a.jsonl" --csv) || fail "csv exit"
echo "$csv" | head -n 1 | grep -qx 'machine,backend,simulated,date,lesson,experiment,run,panel,kind,label,x,x_unit,value,max,unit,style' ||
    fail "csv header: $(echo "$csv" | head -n 1)"
echo "$csv" | grep -q '^NVIDIA GeForce RTX 3090,sim,true,.*,1\.3,measure,1,bw,bar,RAM (triad),,,[0-9.]*,,GB/s,measured$' ||
    fail "csv row: $csv"

# a curve's points: x and y with their units (the panel's axis labels), in text, CSV and JSON
"$b" --backend sim --seed 1 --deterministic --record "$T/c.jsonl" run 3.1 >/dev/null || fail "record c"
out=$("$b" results "$T/c.jsonl") || fail "results of 3.1"
echo "$out" | grep -Eq '^  3\.1 +sweep +1 +curve +point H2D pinned @ 1 MiB +[0-9.]+  GB/s +simulated$' ||
    fail "a point's x and y units: $out"
echo "$out" | grep -Eq '  point .* [0-9.]+  {8} ' && fail "a point without its unit: $out"
out=$("$b" results "$T/c.jsonl" --csv) || fail "csv of 3.1"
echo "$out" | grep -q ',3\.1,sweep,1,curve,point,H2D pinned,1048576,bytes,[0-9.]*,,GB/s,simulated$' ||
    fail "csv point: $out"
out=$("$b" --lang zh results "$T/c.jsonl") || fail "results of 3.1 in 中文"
echo "$out" | grep -Eq '曲线 +H2D 锁页 @ 1 MiB +[0-9.]+  GB/s' || fail "a point's units in 中文: $out"
echo "$out" | grep -Eq '曲线 +D2D 拷贝引擎，在 L2…? @ 1 MiB +[0-9.]+  GB/s' || fail "a long series is cut, not its x: $out"
out=$("$b" compare "$T/c.jsonl" "$T/c.jsonl") || fail "compare of 3.1"
echo "$out" | grep -Eq '^  H2D pinned \(peak\) +[0-9.]+ SIM +[0-9.]+ SIM +GB/s$' || fail "compare: a point's unit: $out"
out=$("$b" --backend sim --seed 1 --deterministic --replay "$T/c.jsonl" run 3.1) || fail "replay of 3.1"
echo "$out" | grep -Eq '\[curve\] H2D pinned: x=1,048,576 B y=[0-9.]+ GB/s \(SIMULATED' || fail "run: a point's units: $out"

j=$("$b" results "$T/b.jsonl" --json) || fail "results --json exit $?"
printf '%s\n' "$j" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert rows, "no rows"
keys = {"machine", "lesson", "experiment", "panel", "label", "value", "unit", "style", "kind"}
for r in rows:
    assert keys <= set(r), r
d2d = [r for r in rows if r["label"] == "VRAM (D2D copy)"]
assert d2d and d2d[0]["machine"] == "NVIDIA H200" and d2d[0]["style"] == "simulated", d2d
' || fail "json"

out=$("$b" compare "$T/a.jsonl" "$T/b.jsonl") || fail "compare exit"
echo "$out" | grep -q 'A  NVIDIA GeForce RTX 3090 (SIMULATED)' || fail "compare legend A: $out"
echo "$out" | grep -q 'B  NVIDIA H200 (SIMULATED)' || fail "compare legend B: $out"
echo "$out" | grep -Eq '^  VRAM \(D2D copy\) +[0-9.]+ SIM +[0-9.]+ SIM +GB/s$' || fail "compare row: $out"
echo "$out" | grep -Eq '^    A █+ +[0-9.]+ GB/s SIM$' || fail "compare bars: $out"
# H200 has the faster memory: its D2D bar is the full one
echo "$out" | grep -A2 'measure · VRAM (D2D copy)' | grep -Eq '^    B █{40} ' || fail "scale: $out"

# errors: not a recording, a missing file
echo '{"type":"lesson"}' > "$T/bad.jsonl"
"$b" compare "$T/a.jsonl" "$T/bad.jsonl" 2>"$T/err" && fail "compare accepted a non-recording"
grep -q 'not a vramlab recording' "$T/err" || fail "error message: $(cat "$T/err")"
"$b" results "$T/missing.jsonl" 2>/dev/null && fail "results of a missing file"
"$b" --record "$T/x" --replay "$T/a.jsonl" run 1.3 2>/dev/null; [ $? = 2 ] || fail "--record with --replay"
exit 0
