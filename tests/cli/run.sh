#!/bin/sh
# `vramlab run 1.3` headless in both languages: text, measured host numbers, SIMULATED device
# numbers; --json gives one JSON object per line; a pipe gets no escape codes.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$b" --backend sim --deterministic run 1.3) || fail "run exit"
echo "$out" | grep -q "SIMULATED · NVIDIA GeForce RTX 3090" || fail "backend line"
echo "$out" | grep -q "RAM (triad): [0-9.]* GB/s (measured)" || fail "host triad bar: $out"
echo "$out" | grep -q "VRAM (D2D copy): [0-9.]* GB/s (SIMULATED)" || fail "device bar"
echo "$out" | grep -q "Lecture vs this machine\|Dimension | Lecture RAM" || fail "table"
printf '%s' "$out" | grep -q "$(printf '\033')" && fail "escape codes in plain output"
zh=$("$b" --backend sim --deterministic --lang zh run 1.3) || fail "zh run exit"
echo "$zh" | grep -q "显存 vs 内存" || fail "zh title"
echo "$zh" | grep -q "内存 (triad)" || fail "zh bar label"
j=$("$b" --backend sim --deterministic run 1.3 --json) || fail "run --json exit $?"
printf '%s\n' "$j" | python3 -c '
import json, sys
kinds = set()
for line in sys.stdin:
    d = json.loads(line)
    kinds.add(d["type"])
    if d["type"] == "bar" and d["label"] == "VRAM (D2D copy)":
        assert d["simulated"] is True and d["style"] == "SIMULATED", d
assert {"lesson", "text", "experiment", "bar", "row", "exercise"} <= kinds, kinds
' || fail "json"
exit 0
