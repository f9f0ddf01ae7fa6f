#!/bin/sh
# editor.sh BUILD - a code exercise answered in $EDITOR: `e` hands the terminal to the editor
# (here a script, given with an option, as EDITOR often is) on a file begun from the starter and
# kept in the state folder; the answer is graded when the editor exits 0, several lines and
# all; a failing editor grades nothing; the tutor draws again afterwards.
. tests/tui/tmux.lib "$@"
test_datadir
export VRAMLAB_DATADIR="$T/data"
A="$XDG_STATE_HOME/vramlab/answers/9.1-double.lua"
# the "editor": records what it was given, then writes the answer named in $T/next
cat > "$T/ed.sh" <<'SH'
[ "$1" = --wait ] || exit 9
cp "$2" "$(dirname "$0")/seen.lua"
[ -f "$(dirname "$0")/fail" ] && exit 3
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
cp "$T/wrong.lua" "$T/next.lua"
keys e
wait_for 'double\(21\) should be 42, got 22' 5
grep -q -- '-- your code' "$T/seen.lua" || fail "the editor did not get the starter: $(cat "$T/seen.lua")"
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
cmp -s "$T/seen.lua" "$T/wrong.lua" || fail "the editor did not get the kept answer back"
wait_for 'write Lua code +✓ solved|✓ solved' 3
alive
check_width 100 49
keys q
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: a code exercise answered in \$EDITOR"
