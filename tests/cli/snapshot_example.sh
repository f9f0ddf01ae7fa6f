#!/bin/sh
# The shipped example snapshots are exactly what tests/snapshot/make_example.py writes, so the
# script and the files never drift: regenerate every variant (and the leak's two steps) and compare bytes.
# Not in the ASan pass: Python alone (the example files against their generator); no vramlab
# code runs.
fail() { echo "FAIL: $*"; exit 1; }
case "$1" in */asan*) echo "SKIP: the examples do not depend on the build (checked in the normal pass)"; exit 77 ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to regenerate the examples"; exit 77; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
for v in train oom leak2 leak5; do
    f=assets/snapshots/gpt-train.pickle args="--variant $v"
    [ $v = oom ] && f=assets/snapshots/gpt-train-oom.pickle
    [ $v = leak2 ] && f=assets/snapshots/gpt-leak-step2.pickle args="--variant leak --steps 2"
    [ $v = leak5 ] && f=assets/snapshots/gpt-leak-step5.pickle args="--variant leak --steps 5"
    python3 tests/snapshot/make_example.py $args -o "$d/$v.pickle" || fail "make_example.py $args"
    cmp "$d/$v.pickle" "$f" || fail "$f differs from what make_example.py $args writes"
    n=$(wc -c < "$f")
    [ "$n" -lt 400000 ] || fail "$f is $n bytes: the example should stay small"
done
exit 0
