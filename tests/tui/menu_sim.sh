#!/bin/sh
# menu_sim.sh BUILD - on the simulator the menu says in plain words how to simulate another GPU
# (--profile, and the command that lists the profiles).
. tests/tui/tmux.lib "$@"

start 100 30 "$APP"
wait_for 'vramlab · lessons'
wait_for 'Another GPU to simulate: vramlab --profile NAME' 5
wait_for 'vramlab profiles lists them'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
echo "ok: the simulator menu names --profile"
