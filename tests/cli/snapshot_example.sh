#!/bin/sh
# The shipped example snapshots are exactly what tests/snapshot/make_example.py writes, so the
# script and the files never drift: regenerate both variants and compare bytes.
# Not in the ASan pass: Python alone (the example files against their generator); no vramlab
# code runs.
fail() { echo "FAIL: $*"; exit 1; }
case "$1" in */asan*) echo "SKIP: the examples do not depend on the build (checked in the normal pass)"; exit 77 ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to regenerate the examples"; exit 77; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
for v in train oom; do
    f=assets/snapshots/gpt-train.pickle
    [ $v = oom ] && f=assets/snapshots/gpt-train-oom.pickle
    python3 tests/snapshot/make_example.py --variant $v -o "$d/$v.pickle" || fail "make_example.py --variant $v"
    cmp "$d/$v.pickle" "$f" || fail "$f differs from what make_example.py --variant $v writes"
    n=$(wc -c < "$f")
    [ "$n" -lt 400000 ] || fail "$f is $n bytes: the example should stay small"
done
exit 0
