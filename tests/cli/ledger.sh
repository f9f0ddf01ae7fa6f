#!/bin/sh
# `vramlab ledger` and `vramlab trace replay`: the ledger's parts add up to the total, the
# simulator says SIMULATED and takes the context from its profile; a replay reports the
# fragmentation OOM, which expandable segments avoid; bad input is a clear error.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$b" --backend sim --deterministic ledger) || fail "ledger exit $?"
echo "$out" | grep -q "SIMULATED" || fail "no SIMULATED label: $out"
echo "$out" | grep -q "CUDA context (this process) *300.00 MiB *0.29 GiB" || fail "context row: $out"
echo "$out" | grep -q "MiB = 2^20 B" || fail "unit convention"
zh=$("$b" --backend sim --lang zh ledger) || fail "zh ledger"
echo "$zh" | grep -q "显存去哪儿了" || fail "zh title: $zh"
j=$("$b" --backend sim --profile h200 ledger --json) || fail "ledger --json exit $?"
printf '%s\n' "$j" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["backend"] == "sim" and d["simulated"] is True, d
assert d["unit"] == "bytes"
assert sum(p["bytes"] for p in d["parts"]) == d["total"], d["parts"]
keys = [p["key"] for p in d["parts"]]
assert keys == ["other_processes", "context", "unaccounted", "other_allocations", "requested",
                "rounding", "cached", "free"], keys
assert d["allocator"] is None and d["free"] < d["total"]
' || fail "ledger --json"

d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/frag.trace" <<'T'
# vramlab allocator trace v1
a 1 40MiB
a 2 40MiB
f 1
f 2
a 3 30MiB
a 4 30MiB
a 5 30MiB
T
out=$("$b" --backend sim trace replay "$d/frag.trace" 100MiB) || fail "replay exit $?"
echo "$out" | grep -q "OOMs      1 at line 8" || fail "OOM line: $out"
echo "$out" | grep -q "Tried to allocate 30.00 MiB" || fail "OOM message: $out"
echo "$out" | grep -q "SIMULATED" || fail "replay not labelled"
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "$b" --backend sim trace replay "$d/frag.trace" 100MiB --json |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["ooms"] == 0 and d["allocs"] == 5 and d["conf"] == "expandable_segments:True", d
' || fail "expandable replay"
printf 'a 1 10\nf 2\n' > "$d/bad.trace"
out=$("$b" --backend sim trace replay "$d/bad.trace" 2>&1); [ $? -eq 1 ] || fail "bad trace exit"
echo "$out" | grep -q "bad.trace:2: free of id 2, which is not live" || fail "bad trace message: $out"
"$b" --backend sim trace replay "$d/frag.trace" 80gb >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad capacity accepted (80gb: bits or bytes?)"
"$b" --backend sim trace >/dev/null 2>&1; [ $? -eq 2 ] || fail "trace without replay accepted"
exit 0
