#!/bin/sh
# lesson_step.sh BUILD - at 80x24, open lesson 4.1 (a training step replayed through the caching
# allocator), run its experiment and see its figures appear in the live panel: the curve of
# allocated vs reserved in its frame (SIMULATED in the header strip), then (panel focused, scrolled to its end) the
# allocator's peaks in MB, the same figure the headless run prints; every line inside 80 columns.
# Then in presenter mode: the experiment's key figure is that peak, in the block font, SIMULATED.
. tests/tui/tmux.lib "$@"

idx=$(menu_index 4.1)
[ -n "$idx" ] || fail "lesson 4.1 is not in 'vramlab list'"
out=$($APP --lang en run 4.1 </dev/null 2>&1) || fail "the headless run of 4.1 exited $?: $out"
want=$(printf '%s\n' "$out" | sed -n 's/.*\[peak\] peak reserved: \([0-9.]*\) MB (SIMULATED).*/\1/p')
[ -n "$want" ] || fail "the headless run of 4.1 printed no simulated 'peak reserved' figure"
start 80 24 "$APP"
wait_for 'vramlab · lessons'
i=1
while [ "$i" -lt "$idx" ]; do keys Down; i=$((i + 1)); done
wait_for '4\.1 +Anatomy of a step'
keys Enter
wait_for 'vramlab · 4\.1 Anatomy of a step'
to_run
wait_for 'Run: One step through the caching allocator'
keys Enter
wait_for '┌ allocated vs reserved over the step ─' 30
screen | head -n 1 | grep -q SIMULATED || fail "the header strip does not say SIMULATED"
wait_for 'done: results in the live panel' 60
screen | grep -Eq '^(│ )? *[0-9]+│' || fail "the curve has no MB axis figures"
check_width 80
# focus the live panel and scroll to its end: the allocator's peaks
keys Tab
keys End
# the panel shows one decimal: 2325.7 is the headless 2326
lo=$((want - 1))
wait_for "peak reserved .* ($lo\.[5-9]|$want(\.[0-4])?) MB SIM" 10
wait_for 'peak allocated .* [0-9.]+ MB SIM' 5
wait_for 'model peak \(live bytes\) .* [0-9.]+ MB theory' 5
wait_for '[0-9]+ tensors, [0-9]+ cudaMalloc calls' 5
check_width 80
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc after q"

# presenter mode: step to the experiment, run it, its key figure in big type
big_rows() { screen | awk '/█.*█/ { n++; if (n > m) m = n; next } { n = 0 } END { print m + 0 }'; }
fresh present
start 80 24 "$APP present 4.1"
wait_for '4\.1 Anatomy of a step' 5
n=0
while ! screen | grep -q 'Enter run'; do
    sync Space
    n=$((n + 1))
    [ $n -lt 10 ] || fail "presenter: no experiment step in 4.1"
done
keys Enter
wait_for 'peak reserved · SIMULATED' 30
[ "$(big_rows)" -ge 5 ] || fail "presenter: no big digits for the key figure"
check_width 80
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "presenter: exit code $rc after q"
echo "ok: lesson 4.1 ran at 80x24 and showed its figures ($want MB reserved, SIMULATED), and in presenter mode"
