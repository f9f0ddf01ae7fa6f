#!/bin/sh
# menu_counts.sh BUILD - the menu shows solved/total exercises per section and per chapter, and
# they follow a solved exercise; a list longer than the screen says "more below" / "more above";
# the first Enter in a lesson reads on (the footer says so) instead of jumping past the
# introduction to an experiment.
. tests/tui/tmux.lib "$@"
test_datadir

start 100 30 "VRAMLAB_DATADIR=$T/data $APP"
wait_for '9\.1 +Test lesson · 0/2' 5
screen | grep -Eq 'Chapter 9 · Test chapter +0/2 exercises solved' || fail "no chapter count"
screen | grep -q 'more below' && fail "\"more below\" on a list that fits"
keys Enter
wait_for 'vramlab · 9\.1' 5
wait_for 'Answer \(1-2\)' 3 # the first exercise, selected
keys 2
wait_for 'Right\.' 5
keys q
wait_for '9\.1 +Test lesson · 1/2' 5
screen | grep -Eq 'Chapter 9 · Test chapter +1/2 exercises solved' || fail "the chapter count did not follow"
keys q
wait_exit 5

# the real catalog on a short screen: more below, then more above
fresh short
start 100 14 "$APP"
wait_for 'more below \(PgDn\)' 5
screen | grep -q 'more above' && fail "\"more above\" at the top"
keys End
wait_for 'more above' 3
screen | grep -q 'more below' && fail "\"more below\" at the end"
keys q
wait_exit 5

# 1.1 starts with text: Enter reads on a page, nothing runs
fresh reading
start 100 30 "$APP 1.1"
wait_for 'vramlab · 1\.1' 5
wait_for 'Enter read on' 3
top=$(screen | sed -n 3p)
moved Enter || fail "Enter did not read on"
[ "$(screen | sed -n 3p)" != "$top" ] || fail "Enter did not read on"
screen | grep -q 'Running:' && fail "the first Enter ran an experiment"
n=0
# read on until a Run line or an answer field shows (1.1 offers its predict exercise before the
# experiment that measures it); past the predict with ], then Enter runs
while ! screen | grep -Eq 'Enter run|Enter answer'; do
    sync Enter
    n=$((n + 1))
    [ $n -lt 30 ] || fail "no Run line came into view"
done
if screen | grep -q 'Enter answer'; then
    keys ']'
    wait_for 'Enter run' 5
fi
keys Enter
wait_for 'Run again:|Running:' 10
keys q
wait_for 'vramlab · lessons' 5
keys q
wait_exit 5
echo "ok: menu counts, more below/above, Enter reads on before it runs"
