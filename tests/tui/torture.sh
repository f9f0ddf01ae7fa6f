#!/bin/sh
# torture.sh BUILD - what resize.sh, restore.sh and ascii.sh leave out: SIGINT, SIGTERM and SIGQUIT
# at the lesson menu, in an idle lesson view and with the help overlay open (`stty -a` identical
# before and after each); the extreme sizes at the menu; TERM=dumb says why it cannot start;
# NO_COLOR + xterm-mono + a C locale together through menu, lesson and help; and a GPU that
# fails (sticky error) or is full while the tutor runs: a clear message, and the tutor goes on.
. tests/tui/tmux.lib "$@"

# sig_case NAME SIGNAL WHERE: WHERE is menu, lesson or help
cases=0
sig_case() {
    name=$1 sig=$2 where=$3
    rm -f "$T/before" "$T/after" "$T/pid"
    fresh "$name"
    start 100 30 "ulimit -c 0; stty -a > $T/before; sh -c 'echo \$\$ > $T/pid; exec $APP'; code=\$?; stty -a > $T/after; (exit \$code)"
    wait_for 'vramlab · lessons'
    case $where in
    lesson|help)
        keys Enter
        wait_for 'vramlab · [0-9]+\.[0-9]+ '
        ;;
    esac
    if [ "$where" = help ]; then
        keys '?'
        wait_for 'Keys \(Esc closes\)'
    fi
    kill -s "$sig" "$(cat "$T/pid")" || fail "$name: kill -s $sig"
    wait_exit 10; rc=$RC
    [ -s "$T/after" ] || fail "$name: no stty capture after the exit"
    if ! cmp -s "$T/before" "$T/after"; then
        diff "$T/before" "$T/after"
        fail "$name: stty -a differs after $sig at the $where (exit $rc)"
    fi
    screen | grep -q 'vramlab · ' && fail "$name: the tutor's screen is still up after $sig"
    keys "typed-after-$name"
    wait_for "typed-after-$name" 3
    cases=$((cases + 1))
}
for where in menu lesson help; do
    for sig in INT TERM QUIT; do sig_case "$where-$sig" "$sig" "$where"; done
done
echo "  signals: $cases cases at the menu, in a lesson and over the help overlay, terminal restored"

# the extreme sizes at the menu, then back: alive and redrawn
fresh sizes
start 100 30 "$APP"
wait_for 'vramlab · lessons'
for s in "1 1" "2 10" "10 38" "300 100" "1 1" "300 100" "100 30"; do
    resize $s # a storm; the redraw at 100x30 below shows it lived through it
    alive
done
wait_for 'vramlab · lessons' 3
check_width 100
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc after the menu resizes"

# TERM=dumb: no screen, a clear reason, a set-up exit code
fresh dumb
start 100 30 "TERM=dumb $APP"
wait_exit 10; rc=$RC
[ "$rc" = 3 ] || fail "TERM=dumb: exit code $rc, expected 3"
screen | grep -q 'TERM=dumb' || fail "TERM=dumb: no message naming the terminal"

# monochrome, NO_COLOR and a C locale at once
fresh plain
start 100 30 "LC_ALL=C LANG=C NO_COLOR=1 TERM=xterm-mono $APP"
wait_for 'vramlab . lessons'
keys Enter
wait_for 'vramlab . [0-9]+\.[0-9]+ '
keys '?'
wait_for 'Keys'
resize 40 12
resize 100 30
wait_for 'Keys'
screen > "$T/cap"
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$T/cap" && fail "non-ASCII on a C-locale screen"
keys Escape
to_menu
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc with C locale, NO_COLOR and xterm-mono"

# a sticky GPU error during an experiment: said on screen, the tutor goes on
fresh sticky
start 120 40 "VRAMLAB_FAULT_STICKY=2 $APP 1.3"
wait_for 'vramlab · 1\.3'
keys r
wait_for 'illegal memory access|sticky error|GPU failed' 60
wait_for 'failed|done' 60
alive
keys '?'
wait_for 'Keys \(Esc closes\)'
keys Escape
keys r
wait_for 'failed state' 60 # the second run's refusal (the first run's message is still on screen)
wait_gone 'running: see the live panel' 60 # and that run has ended (its host part may be slow)
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc after a sticky GPU error"

# a GPU that other processes fill: a clear message, no hang
fresh full
start 120 40 "VRAMLAB_SIM_OTHER_BYTES=all $APP 1.1"
wait_for 'vramlab · 1\.1'
keys r
wait_for 'Free now +│ 0 B ' 30
# the next experiments allocate: each says the GPU has no free memory, none hangs
i=0
while [ $i -lt 6 ] && ! screen | grep -q 'no free memory'; do
    moved ']' 3 || true # the next item (the last one stays)
    keys Enter
    n=0
    while [ $n -lt 50 ] && ! screen | grep -q 'no free memory'; do sleep 0.1; n=$((n + 1)); done
    i=$((i + 1))
done
wait_for 'no free memory' 10
alive
to_menu
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc with a full GPU"
echo "ok: signals at every screen, sizes at the menu, dumb/mono/C terminals, GPU faults in the tutor"
