#!/bin/sh
# exercise.sh BUILD - mouse and exercises: a click on a menu entry opens it, the wheel scrolls,
# Esc cancels a running experiment, a number exercise gives a hint when wrong and the
# explanation when right, a choice exercise takes 1..N.
. tests/tui/tmux.lib "$@"

start 100 30 "$APP"
wait_for '1\.3 +VRAM vs system RAM'
y=$(row_of '1\.3 +VRAM vs system RAM')
mouse 0 10 "$y"
wait_for 'vramlab · 1\.3 VRAM vs system RAM' 3
# the wheel scrolls the text pane
first=$(screen | sed -n 2p)
mouse 65 5 10
mouse 65 5 10
n=0
while [ "$(screen | sed -n 2p)" = "$first" ]; do # poll: the wheel scrolls the text
    n=$((n + 1))
    [ $n -lt 100 ] || fail "the mouse wheel did not scroll the text"
    sleep 0.1
done
mouse 64 5 10
mouse 64 5 10
# run, then cancel with Esc
to_run
wait_for 'Run: Measure'
keys Enter
wait_for 'Running:' 5
keys Escape
wait_for 'cancelled' 10
wait_gone 'Running:' 5
# the number exercise: wrong, then right
keys ']'
wait_for 'Answer > \(Enter to answer\)'
keys Enter
keys 3 0 Enter
wait_for 'Not quite' 5
keys Enter # grading left the field: Enter edits it again, with the answer kept
keys BSpace BSpace 3 7 . 4 Enter
wait_for 'Right\. 936 / 25' 5
wait_for 'a number +✓ solved'
# the choice exercise: press its number
keys ']'
wait_for 'Answer \(1-3\)'
keys 2
wait_for 'choose one +✓ solved' 5
# n / p: the next and previous sections in catalog order
next=$("$BIN" --backend sim list 2>/dev/null | grep -E '^  [0-9]' | awk '{print $1}' | grep -A1 -x '1\.3' | sed -n 2p)
keys n
if [ -n "$next" ]; then
    wait_for "vramlab · $(echo "$next" | sed 's/\./\\./g') " 5
    keys p
    wait_for 'vramlab · 1\.3 ' 5
else
    wait_for 'last section' 5
fi
keys q
wait_for 'vramlab · lessons'
wait_for '◐ 1\.3'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
echo "ok: mouse, cancel, exercises"
