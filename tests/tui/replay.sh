#!/bin/sh
# replay.sh BUILD - record and replay: a headless run recorded on one simulated GPU profile
# (H100) is played back in the tutor started on another (RTX 3090) with every allocation made
# to fail, so any live measurement would show as an error: the panel shows the recorded
# values, tagged REPLAY, the status line says "REPLAY · <GPU> · <date>"; `run` replays headless
# too; and a run in the tutor with --record lands in the recording.
. tests/tui/tmux.lib "$@"
A="$T/h100.jsonl"
"$BIN" --backend sim --profile h100-sxm --seed 1 --deterministic --record "$A" run 1.3 >/dev/null ||
    fail "record exit"
head -n 1 "$A" | grep -q '"type":"header","format":"vramlab-record"' || fail "header: $(head -n 1 "$A")"
head -n 1 "$A" | grep -q '"gpu":"NVIDIA H100' || fail "gpu in the header"
head -n 1 "$A" | grep -q '"host_cpu":' || fail "host cpu in the header"
grep -q '"type":"event".*"ev":"bar".*"series":"VRAM (D2D copy)"' "$A" || fail "no D2D bar recorded"
# the recorded value, as the panel prints it (four significant digits)
# (the columns by the header's names: results' CSV gains columns)
d2d() { "$BIN" results "$A" --csv | awk -F, -v fmt="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["label"] == "VRAM (D2D copy)" { printf fmt, $c["value"], $c["value"] }'; }
v=$(d2d "%.0f")
[ -n "$v" ] || fail "no D2D value in the results"

# headless replay
out=$("$BIN" --backend sim --replay "$A" run 1.3) || fail "replay run exit"
echo "$out" | grep -q '^\[REPLAY · NVIDIA H100 80GB HBM3 (SIMULATED) · ' || fail "replay header: $out"
echo "$out" | grep -q "VRAM (D2D copy): $v GB/s (SIMULATED, REPLAY)" || fail "replayed bar: $out"

# in the tutor, on another profile, with every allocation failing
start 100 30 "VRAMLAB_FAULT_ALLOC=1 $APP --profile rtx3090 --replay $A 1.3"
wait_for 'vramlab · 1\.3 ' 5
wait_for 'REPLAY · NVIDIA H100 80GB HBM3 · 20[0-9-]+ [0-9:]+' 3 # SIMULATED is the header strip's
screen | head -n 1 | grep -q SIMULATED || fail "the header strip does not say SIMULATED"
to_run
wait_for 'Run: Measure'
keys Enter
# the panel's one precision: one decimal, two when a value of the panel is below 10
v1=$(d2d "%.1f|%.2f")
wait_for "VRAM \(D2D copy\) .* ($v1) GB/s SIM" 10
wait_for '┌ Bandwidth.* REPLAY \+ measured ─' 3
wait_for 'REPLAY panel' 3
wait_for '✓ done' 5
screen | grep -q '✗ failed' && fail "a live measurement was attempted"
keys q q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# --record in the tutor: the run is in the file, with its machine
B="$T/tui.jsonl"
fresh two
start 100 30 "$APP --record $B 1.3"
wait_for 'vramlab · 1\.3 ' 5
to_run
wait_for 'Run: Measure'
keys Enter
wait_for '✓ done' 20
keys q q
wait_exit 5
grep -q '"gpu":"NVIDIA GeForce RTX 3090"' "$B" || fail "tui recording header"
grep -q '"type":"end","run":1,.*"state":"done"' "$B" || fail "tui recording end: $(tail -n 2 "$B")"
out=$("$BIN" results "$B") || fail "results of the tui recording"
echo "$out" | grep -q 'VRAM (D2D copy)' || fail "results: $out"
echo "ok: record, replay in the tutor and headless"
