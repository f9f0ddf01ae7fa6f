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
# the clock an H200 reports (3201 MHz) gives 4.92 TB/s; NVIDIA publishes 4.8
assert abs(d["peak_bytes_per_s"] / 4.917e12 - 1) < 0.001, d["peak_bytes_per_s"]
assert abs(d["published_bytes_per_s"] / 4.8e12 - 1) < 1e-9, d["published_bytes_per_s"]
assert d["total_bytes"] == 143156 * 2**20  # what CUDA reports, not the 143771 MiB of nvidia-smi
assert d["free_bytes"] < d["total_bytes"]
assert d["host"]["threads"] >= 1
' || fail "JSON: $json"
exit 0
