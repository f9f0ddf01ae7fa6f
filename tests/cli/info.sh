#!/bin/sh
# `vramlab info`: the simulator is labelled SIMULATED, numbers carry units, JSON parses and
# unknown fields are null (never a made-up number).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$b" --backend sim --profile rtx4090 info) || fail "info exit $?"
echo "$out" | grep -q "SIMULATED" || fail "no SIMULATED label"
echo "$out" | grep -q "Theoretical peak *1008.1 GB/s = 2 x 10501 MHz x 384 bit / 8" || fail "peak line: $out"
echo "$out" | grep -q "GiB = 2^30 B" || fail "capacity unit convention missing"
json=$("$b" --backend sim --profile h200 info --json) || fail "info --json exit"
printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["backend"] == "sim" and d["simulated"] is True, d
assert abs(d["peak_bytes_per_s"] / 4.8e12 - 1) < 0.01, d["peak_bytes_per_s"]
assert d["total_bytes"] == 150754820096
assert d["free_bytes"] < d["total_bytes"]
assert d["host"]["threads"] >= 1
' || fail "JSON: $json"
exit 0
