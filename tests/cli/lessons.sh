#!/bin/sh
# Every lesson that `vramlab list --json` knows runs headless on the simulator in both languages
# and exits 0 (its experiments finish, nothing leaks at exit). A lesson the catalog cannot load
# fails here too, with its error.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
. tests/cli/catalog.lib
ids=$(lesson_ids "$b" 2>&1) || fail "catalog (a lesson does not load?): $ids"
[ -n "$ids" ] || fail "no lessons listed"
n=0
for id in $ids; do
    for lang in en zh; do
        out=$("$b" --backend sim --deterministic --seed 1 --lang $lang run "$id" 2>&1) ||
            fail "run $id --lang $lang exited $?: $(printf '%s\n' "$out" | tail -n 15)"
        n=$((n + 1))
    done
done
echo "$n lesson runs (en + zh) ok"
exit 0
