#!/bin/sh
# present_snapshot.sh BUILD - lesson 2.6 in presenter mode at 80x24: its snapshot experiment runs
# live (alloc.snapshot on the worker) and its key figure, the peak requested bytes of the shipped
# example, is drawn in the block font with its unit; nothing drawn past 80 columns; the same in 中文.
. tests/tui/tmux.lib "$@"

big_rows() { screen | awk '/█.*█/ { n++; if (n > m) m = n; next } { n = 0 } END { print m + 0 }'; }

for lang in en zh; do
    [ "$lang" = zh ] && fresh zh
    start 80 24 "$APP --lang $lang present 2.6"
    wait_for '2\.6 ' 5
    n=0
    while ! screen | grep -q 'Enter'; do
        sync Space
        n=$((n + 1))
        [ $n -lt 15 ] || fail "$lang: no experiment step in 2.6"
    done
    # the snapshot experiment's step: its footer offers Enter (run), its intro names the file
    while ! { screen | grep -q 'gpt-train-oom' && screen | tail -n 1 | grep -q 'Enter'; }; do
        sync Space
        n=$((n + 1))
        [ $n -lt 30 ] || fail "$lang: the snapshot experiment's step not found"
    done
    keys Enter
    wait_for 'GiB' 20
    [ "$(big_rows)" -ge 5 ] || fail "$lang: no big digits"
    screen | grep -q '6\.1' || fail "$lang: the peak (6.125 GiB) not on screen"
    check_width 80
    keys q
    wait_exit 5
    [ "$RC" = 0 ] || fail "$lang: exit code $RC"
done
echo "ok: lesson 2.6 in presenter mode at 80x24, en and zh"
