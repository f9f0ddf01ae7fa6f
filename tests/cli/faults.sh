#!/bin/sh
# Out-of-memory injected at every allocation in turn (VRAMLAB_FAULT_ALLOC=N), through a script that
# does every kind of device work and through lesson 1.3: each run finishes or reports the failure
# clearly, and nothing stays allocated (vramlab exits 4 if anything does).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
script=tests/cli/data/faults.lua
n=1
while [ $n -le 14 ]; do
    out=$(VRAMLAB_FAULT_ALLOC=$n "$b" --backend sim --deterministic eval "$script" 2>&1); rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "script, fault at allocation $n: exit $rc: $out"
    if [ $n -le 12 ]; then echo "$out" | grep -q "injected fault: allocation #$n" || fail "fault $n not reported: $out"; fi
    n=$((n + 1))
done
for n in 1 2 3 4 5 6; do
    out=$(VRAMLAB_FAULT_ALLOC=$n "$b" --backend sim --deterministic run 1.3 2>&1 >/dev/null); rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "lesson 1.3, fault at allocation $n: exit $rc: $out"
    [ $rc -eq 0 ] || echo "$out" | grep -q "injected fault" || fail "lesson 1.3, fault $n: unclear error: $out"
done
exit 0
