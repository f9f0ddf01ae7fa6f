#!/bin/sh
# terminfo.sh BUILD - the tutor opens with TERM=xterm-256color from the machine's terminfo, and a
# build carried to a machine without an entry for its TERM (make portable puts compiled entries
# in terminfo/ beside the binary) opens from the entries beside it: a TERM that no system
# folder has, given only there, draws the menu; without that folder it is refused with a reason.
. tests/tui/tmux.lib "$@"
command -v infocmp >/dev/null 2>&1 && command -v tic >/dev/null 2>&1 || skip "infocmp/tic not installed"

start 100 30 "TERM=xterm-256color $APP"
wait_for 'Bandwidth vs transfer size'
keys q
wait_exit
[ "$RC" = 0 ] || fail "quit with exit $RC"

# a copy of the binary with a terminfo/ folder beside it holding the only entry of a made-up TERM
name=vramlab-test-term
infocmp "$name" >/dev/null 2>&1 && skip "this machine has a terminfo entry named $name"
mkdir -p "$T/app/terminfo"
cp "$BIN" "$T/app/vramlab" || fail "cannot copy $BIN"
infocmp -x xterm-256color | sed "s/^xterm-256color|[^,]*,/$name|test entry,/" >"$T/term.src"
tic -x -o "$T/app/terminfo" "$T/term.src" || fail "tic failed"
[ -f "$T/app/terminfo/v/$name" ] || fail "tic wrote no $name entry"

fresh fallback
start 100 30 "TERM=$name $T/app/vramlab --backend sim --seed 1 --deterministic"
wait_for 'Bandwidth vs transfer size'
keys q
wait_exit
[ "$RC" = 0 ] || fail "with the entry beside the binary: exit $RC"

# without it, the terminal is refused and says which TERM
rm -rf "$T/app/terminfo"
fresh none
start 100 30 "TERM=$name $T/app/vramlab --backend sim --seed 1 --deterministic 2>$T/err"
wait_exit
[ "$RC" != 0 ] || fail "an unknown TERM opened the tutor"
grep -q "TERM=$name" "$T/err" || fail "no reason naming TERM: $(cat "$T/err")"
echo "ok: TERM=xterm-256color, and a TERM known only to the entries beside the binary"
