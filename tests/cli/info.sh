#!/bin/sh
# `vramlab info`: the simulator is labelled SIMULATED, numbers carry units, JSON parses and
# unknown fields are null (never a made-up number); chapters 6 and 7's device fields (copy engines,
# L2 persistence, the FP32 peak) are printed with their units and counting conventions.
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
assert d["async_engines"] == 3, d.get("async_engines")
assert d["l2_persist_max_bytes"] == 47185920 and d["l2_window_max_bytes"] == 134213632, d
assert d["fp32_lanes_per_sm"] == 128 and abs(d["fp32_flops"] / 66.9e12 - 1) < 0.001, d
' || fail "JSON: $json"
# chapters 6 and 7's fields, each with its unit and counting convention (en and 中文)
out=$("$b" --backend sim --profile rtx3090 info) || fail "info rtx3090 exit $?"
echo "$out" | grep -q "Copy engines *2, as CUDA counts them (asyncEngineCount): copies both ways at once" ||
    fail "copy engines: $out"
echo "$out" | grep -q "L2 cache *6 MiB (6291456 B" || fail "L2 in bytes: $out"
echo "$out" | grep -q "L2 persisting *up to 4.50 MiB set aside, windows up to 134213632 B" || fail "L2 persisting: $out"
echo "$out" | grep -q "FP32 peak *35.6 TFLOP/s = 82 SMs x 128 lanes x 2 x 1695 MHz (an FMA counts 2 FLOP" ||
    fail "FP32 peak: $out"
out=$("$b" --backend sim --profile t4 info) || fail "info t4 exit $?"
echo "$out" | grep -q "L2 persisting *none (compute capability 8.0 on)" || fail "T4 has no L2 persistence: $out"
echo "$out" | grep -q "Copy engines *3," || fail "T4 copy engines: $out"
out=$("$b" --backend sim --profile t4 --lang zh info) || fail "info zh exit $?"
echo "$out" | grep -q "拷贝引擎 *3，按 CUDA 的计数（asyncEngineCount）：两个方向的拷贝可同时进行" || fail "zh copy engines: $out"
echo "$out" | grep -q "FP32 峰值 *8.1 TFLOP/s = 40 个 SM x 64 条通道 x 2 x 1582 MHz（一次 FMA 算 2 个 FLOP" ||
    fail "zh FP32 peak: $out"
exit 0
