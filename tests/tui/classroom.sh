#!/bin/sh
# classroom.sh BUILD - recordings as the classroom default: on a machine without a GPU, a
# recording in DATADIR/assets/recordings is offered above the lessons (r) before the simulator,
# labelled with its own machine and date; taken, every experiment plays it back (REPLAY, nothing
# measured: every allocation is made to fail here); r again returns to the simulator. The
# recording is made here by the simulator, so its own header labels it SIMULATED: the offer and
# the status line must say so.
. tests/tui/tmux.lib "$@"
D="$T/data"
mkdir -p "$D/assets/recordings"
ln -s "$VRAMLAB_DATADIR/lessons" "$D/lessons"
ln -s "$VRAMLAB_DATADIR/assets/gpus" "$D/assets/gpus"
R="$D/assets/recordings/rtx3090.jsonl"
"$BIN" --backend sim --profile rtx3090 --seed 1 --deterministic --record "$R" run 1.1 >/dev/null ||
    fail "record exit"

# the tutor on another profile, every allocation failing: a live measurement would show
start 120 34 "VRAMLAB_DATADIR=$D VRAMLAB_FAULT_ALLOC=1 $APP --profile h100-sxm"
wait_for 'r: replay the measurements of NVIDIA GeForce RTX 3090 \(SIMULATED\), recorded 20[0-9-]+ [0-9:]+ ' 5
wait_for 'SIMULATED · NVIDIA H100 80GB HBM3 profile' 3
keys r
wait_for 'r: back to the simulator' 3
wait_for 'Backend: REPLAY · NVIDIA GeForce RTX 3090 \(SIMULATED\) · ' 3
screen | tail -n 1 | grep -q 'REPLAY · NVIDIA GeForce RTX 3090 · ' || fail "status line: $(screen | tail -n 1)"
screen | head -n 1 | grep -q 'SIMULATED' || fail "header strip: $(screen | head -n 1)"
keys Enter
wait_for 'vramlab · 1\.1 ' 5
to_run
wait_for 'Run: ' 3
keys Enter
wait_for 'REPLAY panel' 5
wait_for '✓ done' 5
wait_for 'GeForce RTX 3090' 3
screen | grep -q 'H100' && fail "the replay shows this machine's (simulated) GPU"
screen | grep -q '✗ failed' && fail "a live measurement was attempted"
keys q
wait_for 'r: back to the simulator' 3
keys r
wait_for 'r: replay the measurements of NVIDIA GeForce RTX 3090' 3
wait_for 'Backend: SIMULATED · NVIDIA H100 80GB HBM3 profile' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# --replay given: that recording plays, nothing else is offered; no recordings: no offer either
fresh two
start 120 34 "VRAMLAB_DATADIR=$D $APP --replay $R"
wait_for 'Backend: REPLAY · ' 5
screen | grep -q 'r: replay' && fail "an offer beside --replay"
keys q
wait_exit 5
fresh three
start 120 34 "$APP"
wait_for 'Backend: SIMULATED' 5
screen | grep -q 'r: replay' && fail "an offer without recordings"
keys q
wait_exit 5
echo "ok: the shipped recording offered first, labelled by its own header; r toggles it"
