#!/bin/sh
# watch_busy.sh BUILD - `vramlab watch` grades as the tutor does, as a task stepped from the
# loop: an answer that computes for a long time (here a Lua loop the limits let run for minutes)
# shows "checking… (Esc cancels)" while keys answer (the help opens and closes), Esc cancels it
# (not graded, not a try, nothing saved), and q quits during a check; the same for an answer
# already in the file when watch starts (the check at start). Each step waits for its effect.
. tests/tui/tmux.lib "$@"
test_datadir
export VRAMLAB_DATADIR="$T/data" VRAMLAB_LIMITS="seconds=600,instructions=1e15,wall=900"
WS="$T/ws"
F="$WS/9.1-double.lua"
out=$("$BIN" --backend sim exercises "$WS") || fail "exercises: $out"
slow='function double(x)\n  local t = 0\n  for i = 1, 1e13 do t = t + i end\n  return 2 * x\nend\n'
printf "$slow" > "$F"

# the check at start: the screen answers while it runs; Esc cancels it
start 100 30 "$APP watch $WS"
wait_for 'checking… \(Esc cancels\)' 10
keys '?'
wait_for 'Esc closes' 5
keys Escape
wait_gone 'Esc closes' 5
wait_for 'checking… \(Esc cancels\)' 3
keys Escape
wait_for 'Cancelled: not graded, not counted as a try' 5
[ -e "$XDG_STATE_HOME/vramlab/progress" ] && grep -q '^ex ' "$XDG_STATE_HOME/vramlab/progress" &&
    fail "a cancelled check was saved as a try: $(cat "$XDG_STATE_HOME/vramlab/progress")"

# a save: checked again; a right answer passes and is saved
printf 'function double(x)\n  return 2 * x\nend\n' > "$F.new" && mv "$F.new" "$F"
wait_for '✓ Passed!' 10
grep -q '^ex 9\.1 double 1 1 ' "$XDG_STATE_HOME/vramlab/progress" ||
    fail "progress: $(cat "$XDG_STATE_HOME/vramlab/progress")"

# a slow one again, then q during the check: watch ends
printf "$slow" > "$F.new" && mv "$F.new" "$F"
wait_for 'checking… \(Esc cancels\)' 10
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: watch checks in the loop: keys answer, Esc cancels, q quits"
