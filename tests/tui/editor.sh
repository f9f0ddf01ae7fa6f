#!/bin/sh
# editor.sh BUILD - a code exercise answered in $EDITOR: `e` hands the terminal to the editor
# (here a script, given with an option, as EDITOR often is) on a file begun from the starter and
# kept in the state folder, under a comment header with the question, the hints seen so far and
# how to submit (taken off before grading); the answer is graded when the editor exits 0, several
# lines and all; the starter left unchanged or a failing editor grades nothing; the tutor draws
# again afterwards.
. tests/tui/tmux.lib "$@"
test_datadir
export VRAMLAB_DATADIR="$T/data"
A="$XDG_STATE_HOME/vramlab/answers/9.1-double.lua"
# the "editor": records what it was given, then writes the answer named in $T/next
cat > "$T/ed.sh" <<'SH'
[ "$1" = --wait ] || exit 9
cp "$2" "$(dirname "$0")/seen.lua"
[ -f "$(dirname "$0")/fail" ] && exit 3
[ -f "$(dirname "$0")/keep" ] && exit 0
cp "$(dirname "$0")/next.lua" "$2"
SH
printf 'function double(x)\n  local y = x\n  return y + 1\nend\n' > "$T/wrong.lua"
printf 'function double(x)\n  local y = x\n  return 2 * y\nend\n' > "$T/right.lua"
export EDITOR="sh $T/ed.sh --wait"
unset VISUAL

start 100 30 "$APP"
wait_for '9\.1 +Test lesson'
keys Enter
wait_for 'vramlab · 9\.1 Test lesson' 5
keys ']'
wait_for 'Enter: one line · e: editor' 3
# opened and left as it was: the starter is not an answer
touch "$T/keep"
keys e
wait_for 'The starter unchanged: not graded' 5
rm -f "$T/keep"
for want in '-- vramlab: exercise 9.1/double' 'double(x)' 'returning twice x' 'To submit: define the function' \
    'your answer below this line' '-- your code'; do
    grep -qF -- "$want" "$T/seen.lua" || fail "the editor's file lacks '$want': $(cat "$T/seen.lua")"
done
grep -q 'Hints so far' "$T/seen.lua" && fail "hints listed before any try"
cp "$T/wrong.lua" "$T/next.lua"
keys e
wait_for 'double\(21\) should be 42, got 22' 5
cmp -s "$A" "$T/wrong.lua" || fail "the answer file is not kept at $A"
wait_for '\(4 lines from the editor · e\)' 3
# a failing editor: nothing graded, the file as it was
touch "$T/fail"
keys e
wait_for 'exited with status 3: not graded' 5
rm -f "$T/fail"
# again: the editor gets the last answer back, and the right one is graded right
cp "$T/right.lua" "$T/next.lua"
keys e
wait_for 'Right\.' 5
sed '1,/your answer below this line/d' "$T/seen.lua" | cmp -s - "$T/wrong.lua" ||
    fail "the editor did not get the kept answer back under the header: $(cat "$T/seen.lua")"
grep -A1 'Hints so far' "$T/seen.lua" | grep -q 'Multiply by two' || fail "the hint seen is not in the header"
wait_for 'write Lua code +✓ solved|✓ solved' 3
alive
check_width 100 49
keys q
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: a code exercise answered in \$EDITOR"
