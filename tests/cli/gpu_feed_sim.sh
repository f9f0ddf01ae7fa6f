#!/bin/sh
# gpu_feed_sim.sh BUILD - chapter 6's GPU checks (tests/gpu/feed.lua, run by make test-gpu and
# make gpu-report on a GPU) run to the end on the simulator, so the first GPU that sees them
# meets no Lua mistake: every program they build passes its own check here, labelled SIMULATED.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp) && trap 'rm -f "$t"' EXIT
{ echo 'ALLOW_SIMULATED = true'; cat tests/gpu/feed.lua; } >"$t"
out=$("$b" --backend sim --deterministic --seed 1 eval "$t" 2>&1) || fail "tests/gpu/feed.lua on the simulator: $out"
case $out in *"feed ok"*) ;; *) fail "tests/gpu/feed.lua did not finish: $out" ;; esac
echo "ok: tests/gpu/feed.lua runs on the simulator ($(printf '%s\n' "$out" | wc -l) lines)"
