#!/bin/sh
# ascii.sh BUILD - a C (non-UTF-8) locale gets an ASCII screen: box drawing and marks in ASCII,
# English text, and a notice instead of Chinese; NO_COLOR and a monochrome terminal work.
. tests/tui/tmux.lib "$@"

start 100 30 "LC_ALL=C LANG=C $APP --lang zh 1.3"
wait_for 'vramlab . 1\.3 VRAM vs system RAM'
wait_for 'UTF-8'
screen > "$T/cap"
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$T/cap" && fail "non-ASCII on a C-locale screen"
keys r
wait_for 'done' 60
keys L
wait_for 'Chinese text needs a UTF-8'
screen > "$T/cap"
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$T/cap" && fail "non-ASCII after L on a C-locale screen"
grep -q 'GB/s' "$T/cap" || fail "no values on the ASCII screen"
to_menu
keys q
wait_exit 5
fresh mono
start 100 30 "NO_COLOR=1 TERM=xterm-mono $APP 1.3"
wait_for 'vramlab · 1\.3'
keys r
wait_for 'done' 60
grep -q 'SIM' "$T/cap" || screen | grep -q 'SIM' || fail "no SIM tag without colour"
to_menu
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc with NO_COLOR and xterm-mono"
# the snapshot screen in a C locale: its arrows and cut lines in ASCII, not '?'
fresh snap
start 80 24 "LC_ALL=C LANG=C $APP assets/snapshots/gpt-train-oom.pickle"
wait_for 'Largest live at the cursor \(\^/v selects\)' 10
screen | tail -n 1 | grep -q '<--> cursor .*q back' || fail "the snapshot footer's keys are not ASCII: $(screen | tail -n 1)"
screen | grep -q '?/?\|??' && fail "a glyph drawn as '?' on the snapshot screen"
screen | grep -q 'model\.py:176~' || fail "a cut line does not end in ~"
keys q
wait_exit 5
fresh dumb
start 100 30 "TERM=dumb $APP"
wait_exit 10; rc=$RC
[ "$rc" = 3 ] || [ "$rc" = 0 ] || fail "TERM=dumb: exit code $rc"
echo "ok: ASCII fallback, NO_COLOR, monochrome, dumb"
