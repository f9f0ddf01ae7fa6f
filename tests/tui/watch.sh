#!/bin/sh
# watch.sh BUILD - the exercise workspace: `vramlab exercises` creates the files once and never
# overwrites them; `vramlab watch` re-checks the current exercise when its file changes: a wrong
# solution fails with the lesson's message, a runaway loop is stopped by the sandbox, a right
# one passes; h shows a hint, l lists, n moves on; the attempts land in the saved progress.
. tests/tui/tmux.lib "$@"
# the runaway answer stops at 20 million instructions, a tenth of the default: the same stop
export VRAMLAB_LIMITS="seconds=60,instructions=20000000"
test_datadir
export VRAMLAB_DATADIR="$T/data"
WS="$T/ws"
F="$WS/9.1-double.lua"

out=$("$BIN" --backend sim exercises "$WS") || fail "exercises exit: $out"
echo "$out" | grep -q "created  *$F" || fail "no file for 9.1/double: $out"
head -n 1 "$F" | grep -q '^-- vramlab exercise 9\.1/double' || fail "header: $(head -n 3 "$F")"
grep -q '^-- Write double(x) returning twice x\.' "$F" || fail "prompt in the header: $(cat "$F")"
grep -q '^function double(x)$' "$F" || fail "starter: $(cat "$F")"
echo "-- mine" >> "$F"
out=$("$BIN" --backend sim exercises "$WS") || fail "second exercises exit"
echo "$out" | grep -q "kept  *$F" || fail "second run: $out"
tail -n 1 "$F" | grep -q '^-- mine$' || fail "the learner's file was overwritten"

start 100 30 "$APP watch $WS"
wait_for 'vramlab watch · 1/1 · 9\.1 double'
wait_for 'Not passing yet' 5 # the starter returns nil
wait_for 'double\(21\) should be 42, got nil' 3
# SIMULATED once, in the header strip, as on the tutor's screens; the status line names the GPU
screen | head -n 1 | grep -q 'SIMULATED' || fail "the header strip does not say SIMULATED"
screen | tail -n 1 | grep -q 'SIMULATED' && fail "the status line says SIMULATED again"
screen | tail -n 1 | grep -q 'RTX 3090' || fail "the status line lost the GPU"

# wrong, then a runaway loop, then right: each save is checked at once. Saved whole, by rename
# (as editors do): `> "$F"` empties the file before writing it, and a busy machine can let the
# watcher check the empty file in between, one try more than the learner made.
save() { printf "$1" > "$F.new" && mv "$F.new" "$F"; }
save 'function double(x)\n  return x + 2\nend\n'
wait_for 'got 23' 5
keys h # the failing tries' feedback already gave the one hint: h says there is no other
wait_for 'No more hints' 3
wait_for 'Hint 1/1: Multiply by two\.' 3
save 'function double(x)\n  while true do end\nend\n'
wait_for 'stopped' 20
alive
save 'function double(x)\n  return 2 * x\nend\n'
wait_for '✓ Passed!' 5
wait_for '2 \* x does it' 3
wait_for 'solved 1/1' 3
keys l
wait_for 'Exercises \(Enter opens' 3
wait_for '→ ✓ 9\.1 +double' 3
keys Escape
keys n
wait_for 'last exercise' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
# four tries: the edited starter, the wrong one, the runaway loop, the right one
grep -q '^ex 9\.1 double 4 1 ' "$XDG_STATE_HOME/vramlab/progress" ||
    fail "progress: $(cat "$XDG_STATE_HOME/vramlab/progress")"
echo "ok: exercises workspace and watch mode"
