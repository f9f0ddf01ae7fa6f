#!/bin/sh
# kv_growth.sh BUILD - at 80x24, open lesson 5.2 (the KV cache), run its experiment and see the
# allocator's figures appear: the concat vs prealloc table with cudaMalloc counts and GiB, the
# reserved bars labelled SIM; the screen stays within 80 columns.
. tests/tui/tmux.lib "$@"

idx=$(menu_index 5.2)
[ -n "$idx" ] || fail "lesson 5.2 is not in 'vramlab list'"
start 80 24 "$APP"
wait_for 'vramlab · lessons'
wait_for 'SIMULATED'
i=1
while [ "$i" -lt "$idx" ]; do keys Down; i=$((i + 1)); done
keys Enter
wait_for 'vramlab · 5\.2 The KV cache'
# ] moves to the next experiment or exercise: the predict comes first, then the experiment
keys ']'
wait_for 'Exercise: predict, then measure'
keys ']'
wait_for 'Run: Grow a KV cache'
keys Enter
wait_for 'done' 60
settle
check_width 80
# the live panel is below the text at 80x24: focus it and page through, keeping every screen
keys Tab # no visible change of its own: the first NPage below waits for its effect
n=0
screen >> "$T/panel"
while [ $n -lt 8 ] && moved NPage; do screen >> "$T/panel"; n=$((n + 1)); done
grep -q '┌ Reserved and allocated by decode step ─' "$T/panel" || fail "the curve's title is not in its frame"
screen | head -n 1 | grep -q 'SIMULATED' || fail "the header strip does not say SIMULATED"
grep -Eq 'concat reserved +[0-9]+ MiB' "$T/panel" || fail "no concat reserved figure under the curve"
grep -Eq 'cudaMalloc calls +│ +[0-9]+ │ +[0-9]+ +│' "$T/panel" || fail "no cudaMalloc counts in the table"
grep -Eq 'peak reserved +│ +[0-9.]+ GiB │ +[0-9.]+ GiB +│' "$T/panel" || fail "no peak reserved in GiB in the table"
grep -Eq 'bytes copied +│ +[0-9.]+ GB +│' "$T/panel" || fail "no bytes copied in the table"
check_width 80
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC after q"
echo "ok: lesson 5.2's KV growth ran in the TUI at 80x24"
