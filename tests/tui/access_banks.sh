#!/bin/sh
# access_banks.sh BUILD - at 100x30, open lesson 7.3 (shared memory and bank conflicts), run its
# first experiment and see the chapter's figures appear in the live panels: the headline of
# the key panel (stride 1, no conflict), the curve over strides in its frame (SIMULATED once, in
# the header strip), and the table
# of ways counted from the addresses (32 ways at stride 32, 1 at 33); nothing past 100 columns.
. tests/tui/tmux.lib "$@"

idx=$(menu_index 7.3)
[ -n "$idx" ] || fail "lesson 7.3 is not in 'vramlab list'"
start 100 30 "$APP"
wait_for 'vramlab · lessons'
wait_for 'SIMULATED'
i=1
while [ "$i" -lt "$idx" ]; do keys Down; i=$((i + 1)); done
keys Enter
wait_for 'vramlab · 7\.3 Shared memory and bank conflicts'
to_run
keys Enter
wait_for 'done' 60
check_width 100
keys Tab
n=0
# page through the panels, each page captured once it is drawn (the last page: no change)
while [ $n -lt 8 ]; do screen >> "$T/panel"; moved NPage 3 || break; n=$((n + 1)); done
screen >> "$T/panel"
grep -Eq '▶ stride 1 \(no conflict\) +[0-9,.]+ GB/s' "$T/panel" || fail "no headline for stride 1"
grep -q '┌ GB/s vs stride (words) ─' "$T/panel" || fail "the curve's title is not in its frame"
screen | head -n 1 | grep -q 'SIMULATED' || fail "the header strip does not say SIMULATED"
grep -q '┌ .*SIMULATED' "$T/panel" && fail "SIMULATED on a panel: the header strip says it once"
grep -Eq '32 +│ +32 +│ +[0-9.]+ GB/s' "$T/panel" || fail "no 32-way row at stride 32"
grep -Eq '33 +│ +1 +│ +[0-9.]+ TB/s' "$T/panel" || fail "no conflict-free row at stride 33"
check_width 100
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC after q"
echo "ok: lesson 7.3's bank conflicts ran in the TUI at 100x30"
