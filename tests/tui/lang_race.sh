#!/bin/sh
# lang_race.sh BUILD - L pressed ten times while a host STREAM run is in flight (lesson 3.2): the
# language is read only on the UI's thread (the worker keeps keys and numbers; the screen says
# them), so each press switches the screen and the run ends with its figures in the language
# shown last. Debug builds assert the thread on every read of the language; under `make tsan`
# this is the test that would show a data race on it.
. tests/tui/tmux.lib "$@"

# a run long enough for ten presses to land inside it: the host arrays this test lifts the
# suite's 4 MiB cap for, with full-length passes (tests/run.sh sets short ones)
export VRAMLAB_HOST_MAX=128MiB
unset VRAMLAB_HOST_QUICK
start 100 30 "$APP 3.2"
wait_for 'vramlab · 3\.2 STREAM'
keys r
wait_for 'running' 10
i=0
while [ $i -lt 10 ]; do
    if [ $((i % 2)) = 0 ]; then sync L '3\.2 STREAM：可持续内存带宽'; else sync L '3\.2 STREAM: sustainable'; fi
    # the first press lands inside the run: the status still says it runs, in Chinese
    [ $i = 0 ] && { screen | grep -q '运行中' || fail "the run was over before the first L"; }
    i=$((i + 1))
done
wait_for 'done' 120 # ten presses: English again
screen | grep -q 'STREAM: sustainable memory bandwidth' || fail "not English after ten presses"
screen | grep -Eq '[0-9.]+ GB/s' || fail "no bandwidth figure after the run"
keys q
wait_for 'vramlab · lessons' 5
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: ten language switches during a host STREAM run"
