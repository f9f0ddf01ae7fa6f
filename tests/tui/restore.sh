#!/bin/sh
# restore.sh BUILD - the terminal is restored (`stty -a` inside the pane identical before and
# after) when the tutor quits with q, is interrupted with Ctrl-C, gets SIGTERM, SIGHUP or
# SIGQUIT, and even when it dies of a fatal signal (SIGSEGV: restored, then re-raised).
. tests/tui/tmux.lib "$@"

# run_case NAME ACTION: ACTION is "q", "C-c" or a signal name sent to the tutor's pid
run_case() {
    name=$1 action=$2
    rm -f "$T/before" "$T/after" "$T/pid"
    fresh "$name"
    start 100 30 "ulimit -c 0; stty -a > $T/before; sh -c 'echo \$\$ > $T/pid; exec $APP 1.3'; code=\$?; stty -a > $T/after; (exit \$code)"
    wait_for 'vramlab · 1\.3'
    keys r
    wait_for 'running|Running|done' 5
    case $action in
    # q during a run asks first: cancel it (or let it end), then q leaves the lesson and the menu
    q) keys Escape; wait_for 'cancelled|Run again' 10; keys q; wait_for 'vramlab · lessons' 5; keys q ;;
    C-c) keys C-c ;;
    *) kill -s "$action" "$(cat "$T/pid")" || fail "$name: kill -s $action" ;;
    esac
    wait_exit 10; rc=$RC
    [ -s "$T/after" ] || fail "$name: no stty capture after the exit"
    if ! cmp -s "$T/before" "$T/after"; then
        diff "$T/before" "$T/after"
        fail "$name: stty -a differs after the tutor exited (code $rc)"
    fi
    # the alternate screen is gone and typing echoes again
    screen | grep -q 'vramlab · 1\.3' && fail "$name: the tutor's screen is still up after exit"
    keys "typed-after-$name"
    wait_for "typed-after-$name" 3
    echo "  $name: exit $rc, terminal restored"
}

run_case quit q
run_case ctrl-c C-c
run_case sigterm TERM
run_case sighup HUP
run_case sigquit QUIT
run_case sigsegv SEGV
run_case sigabrt ABRT
echo "ok: terminal restored in every case"
