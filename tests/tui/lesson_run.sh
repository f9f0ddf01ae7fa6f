#!/bin/sh
# lesson_run.sh BUILD - from the menu, open lesson 1.3, run its experiment and see numbers in
# GB/s appear in the live panel while the screen stays responsive; the menu marks it started.
. tests/tui/tmux.lib "$@"

idx=$(menu_index 1.3)
[ -n "$idx" ] || fail "lesson 1.3 is not in 'vramlab list'"
start 120 40 "$APP"
wait_for 'vramlab · lessons'
wait_for '1\.3 +VRAM vs system RAM'
wait_for 'SIMULATED'
i=1
while [ "$i" -lt "$idx" ]; do keys Down; i=$((i + 1)); done
keys Enter
wait_for 'vramlab · 1\.3 VRAM vs system RAM'
wait_for 'Live panel'
# select the experiment's Run line and press Enter on it
to_run
wait_for 'Run: Measure'
keys Enter
wait_for 'running|Running' 5
# keys still answer while it runs: open and close the help overlay
keys '?'
wait_for 'Keys \(Esc closes\)' 3
keys Escape
wait_gone 'Keys \(Esc closes\)' 3
# numbers with their unit in the live panel (right of the divider at column 59)
wait_for 'done' 60
screen | cut -c61- > "$T/panel"
grep -Eq '[0-9]+(\.[0-9]+)? GB/s' "$T/panel" || fail "no GB/s value in the live panel"
grep -q 'SIM' "$T/panel" || fail "simulated bars are not labelled SIM"
grep -q 'VRAM (D2D copy)' "$T/panel" || fail "no VRAM bar"
grep -q 'Lecture vs this machine' "$T/panel" || fail "no table panel"
grep -q 'Run again' "$T/cap" 2>/dev/null || screen | grep -q 'Run again' || fail "button did not become 'Run again'"
check_width 120 59
# back to the menu: 1.3 is marked started (◐)
keys q
wait_for 'vramlab · lessons'
wait_for '◐ 1\.3'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc after q"
echo "ok: lesson 1.3 ran in the TUI"
