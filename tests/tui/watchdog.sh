#!/bin/sh
# watchdog.sh BUILD - the tutor is never left frozen and the terminal never left raw:
# - a REPL bomb (a C-library loop the sandbox charges) ends with the stop message, then Esc and
#   q work and `stty -a` is what it was;
# - a device call that never returns (VRAMLAB_FAULT_HANG, a hung driver call: it ignores Esc and
#   the limits) is ended by the watchdog once the run is past its limit: exit 6, the message on
#   the restored terminal;
# - Ctrl-C while the loop is stuck: the watchdog acts ~2 s later (exit 130; SIGTERM and SIGHUP
#   take the same path); a second Ctrl-C exits at once. In every case `stty -a` before and after
#   are identical.
# Small limits (VRAMLAB_LIMITS) keep each case to a few seconds.
. tests/tui/tmux.lib "$@"

# run_case NAME ENV: the tutor in a fresh server with ENV, its stty captured before and after;
# opens the REPL.
run_case() {
    rm -f "$T/before" "$T/after" "$T/pid"
    fresh "$1"
    start 100 30 "ulimit -c 0; stty -a > $T/before; env $2 sh -c 'echo \$\$ > $T/pid; exec $APP 2>&1'; code=\$?; stty -a > $T/after; (exit \$code)"
    wait_for 'vramlab · lessons'
    keys :
    wait_for 'vramlab · sandbox \(Lua\)' 3
}

restored() { # NAME: the terminal is back as it was, and typing echoes again
    [ -s "$T/after" ] || fail "$1: no stty capture after the exit"
    if ! cmp -s "$T/before" "$T/after"; then
        diff "$T/before" "$T/after"
        fail "$1: stty -a differs after the exit"
    fi
    keys "typed-after-$1"
    wait_for "typed-after-$1" 3
}

# the REPL bomb: stopped by the charged budget; the session goes on
run_case bomb "VRAMLAB_LIMITS=instructions=5000000"
keys -l 'table.move({}, 1, math.maxinteger, 1)'
keys Enter
wait_for 'stopped: the code ran past the' 10
keys -l 'string.rep("", math.maxinteger) == ""'
keys Enter
wait_for '^ true ' 5
keys Escape
wait_for 'vramlab · lessons' 3
keys q
wait_exit 6
[ "$RC" = 0 ] || fail "bomb: exit $RC"
restored bomb
echo "  REPL bomb: stopped, Esc and q work, terminal restored"

# a hung device call on the UI thread: the watchdog, once the run is past its limit
run_case hang "VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS=seconds=1,wall=2"
keys -l 'gpu.alloc(2^20)'
keys Enter
wait_exit 15
[ "$RC" = 6 ] || fail "hang: exit $RC (want 6)"
restored hang
screen | grep -q "watchdog: the REPL entry \`gpu.alloc(2^20)\` ran" || fail "hang: no watchdog message"
echo "  hung call: watchdog, exit 6, terminal restored"

[ -r /proc/self/wchan ] || skip "no /proc/PID/wchan to see a hung call in"
# stuck: the app's main thread sleeps in the simulator's hung device call (its wchan says
# nanosleep; idle, it waits in poll for input), polled with a deadline
stuck() {
    n=100
    until grep -q nanosleep "/proc/$(cat "$T/pid")/wchan" 2>/dev/null; do
        n=$((n - 1))
        [ $n -gt 0 ] || fail "the entry did not reach the hung device call"
        sleep 0.1
    done
}

# a quit signal the stuck loop cannot read: the watchdog answers it
for sig in INT; do
    run_case "sig$sig" "VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS=seconds=60,wall=120"
    keys -l 'gpu.alloc(2^20)'
    keys Enter
    stuck # in the device call: the loop cannot read the signal
    if [ $sig = INT ]; then keys C-c; else kill -s TERM "$(cat "$T/pid")"; fi
    wait_exit 10
    if [ $sig = INT ]; then want=130; else want=143; fi
    [ "$RC" = "$want" ] || fail "$sig while stuck: exit $RC (want $want)"
    restored "sig$sig"
    screen | grep -q "watchdog: .* came .* ago" || fail "$sig: no watchdog message"
    echo "  $sig while stuck: watchdog, exit $RC, terminal restored"
done

# a second Ctrl-C does not wait for anything: the handler ends the program itself, before the
# watchdog's grace for the first is over (it would have said so on the screen); the deadline
# is only against a hang, however busy the machine
run_case twice "VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS=seconds=60,wall=120"
keys -l 'gpu.alloc(2^20)'
keys Enter
stuck
keys C-c
keys C-c
wait_exit 10
[ "$RC" = 130 ] || fail "second Ctrl-C: exit $RC (want 130)"
! screen | grep -q "watchdog: .* came .* ago" || fail "second Ctrl-C: the watchdog ended it, not the handler"
restored twice
echo "  a second Ctrl-C: exit 130 at once, terminal restored"
echo "ok: watchdog"
