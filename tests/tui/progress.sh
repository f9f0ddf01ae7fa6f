#!/bin/sh
# progress.sh BUILD - saved progress through the real tutor: answers in a lesson are saved, and
# after a restart the menu shows the marks (◐ started, ✓ every exercise solved) and the lesson
# shows its solved exercises; `vramlab progress` lists them; a damaged progress file is kept
# aside and reported once on the status line.
. tests/tui/tmux.lib "$@"
test_datadir
export VRAMLAB_DATADIR="$T/data"
P="$XDG_STATE_HOME/vramlab/progress"

start 100 30 "$APP"
wait_for '9\.1 +Test lesson'
keys Enter
wait_for 'vramlab · 9\.1 Test lesson' 5
wait_for 'Answer \(1-2\)'
keys 2 # the first exercise has the selection
wait_for 'choose one +✓ solved' 5
keys q
wait_for '◐ 9\.1 +Test lesson' 5
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
grep -q '^visit 9\.1 ' "$P" || fail "no visit saved: $(cat "$P")"
grep -q '^ex 9\.1 pick 1 1 ' "$P" || fail "no attempt saved: $(cat "$P")"

# after a restart: the mark and the solved exercise are back; solve the code one -> done
fresh two
start 100 30 "$APP"
wait_for '◐ 9\.1 +Test lesson'
keys Enter
wait_for 'choose one +✓ solved' 5
keys ']'
wait_for 'write Lua code'
keys Enter
keys -l 'function double(x) return x + 1 end'
keys Enter
wait_for 'double\(21\) should be 42, got 22' 5
keys Enter # grading left the field: Enter edits it again
keys C-u
keys -l 'function double(x) return 2 * x end'
keys Enter
wait_for 'write Lua code +✓ solved' 5
keys Escape q
wait_for '✓ 9\.1 +Test lesson' 5
keys q
wait_exit 5
grep -q '^ex 9\.1 double 2 1 ' "$P" || fail "two tries, solved: $(cat "$P")"
out=$("$BIN" progress) || fail "vramlab progress exit"
echo "$out" | grep -Eq '^  9\.1 +double +solved +2  ' || fail "progress listing: $out"
echo "$out" | tail -n 1 | grep -qx '2/2 exercises solved, 1/1 sections visited' || fail "progress totals: $out"

# a damaged file: kept aside, reported once, and the tutor starts afresh
echo "garbage" >> "$P"
fresh three
start 100 30 "$APP"
wait_for 'progress file is damaged at line' 5
ls "$XDG_STATE_HOME/vramlab/" | grep -q '^progress\.corrupt-' || fail "not kept aside"
wait_for '   9\.1 +Test lesson'
keys j
wait_gone 'progress file is damaged' 3
keys q
wait_exit 5
echo "ok: progress saved, restored in the menu and the lesson, damaged file kept aside"
