#!/bin/sh
# resize.sh BUILD - resizing at any moment never kills the tutor: during an experiment and with
# the help overlay open, down to 20x6 ("too small") and 1x1, then back, and it redraws.
. tests/tui/tmux.lib "$@"

start 100 30 "$APP 1.3"
wait_for 'vramlab · 1\.3'
keys r
wait_for 'running|Running' 5
for s in "20 6" "1 1" "40 12" "2 10" "10 38" "300 100" "39 11" "100 30"; do
    resize $s # a storm: each SIGWINCH may land in the middle of a draw
    alive
done
resize 20 6
wait_for 'too small' 3
resize 1 1
alive # nothing to see at 1x1: the redraw at 100x30 below shows it lived through it
resize 100 30
wait_for 'vramlab · 1\.3' 3
wait_for 'done' 60
wait_for '[0-9] GB/s'
# the help overlay through the same sizes
keys '?'
wait_for 'Keys \(Esc closes\)'
resize 20 6
wait_for 'too small' 3
resize 1 1
alive
resize 100 30
wait_for 'Keys \(Esc closes\)' 3
resize 45 14
wait_for 'Keys' 3
check_width 45
resize 100 30
wait_for 'Keys \(Esc closes\)' 3
keys Escape
wait_gone 'Keys \(Esc closes\)'
# rapid resizes while a second run streams (r asks first: it has results)
keys r
wait_for 'It has results' 5
keys r
wait_for 'running' 5
i=0
while [ $i -lt 30 ]; do
    resize $((20 + (i * 37) % 200)) $((5 + (i * 13) % 60))
    i=$((i + 1))
done
resize 100 30
alive
wait_for 'vramlab · 1\.3' 3
wait_for 'done' 60
to_menu
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
echo "ok: resizes survived"
