#!/bin/sh
# valgrind.sh BUILD - the unit tests, the Lua tests and headless runs of every lesson under
# valgrind's memcheck (a second opinion next to ASan: uninitialised reads, which ASan does not
# see, and leaks in the plain -O2 build). Any memcheck error or definite leak fails; prints one
# line per program and "N passed, M failed". Slow (tens of minutes): `make valgrind`, not CI.
build=${1:-build}
bin="$build/vramlab"
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind is not installed"; exit 77; }
export VRAMLAB_DATADIR="$(pwd)" LC_ALL=C.UTF-8
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
trap 'rm -rf "$state"' EXIT
pass=0 fail=0
vg() { # NAME COMMAND...: one program under memcheck
    name=$1; shift
    log="$state/vg.log"
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --track-origins=yes --log-file="$log" "$@" >"$state/out" 2>&1
    rc=$?
    if [ $rc -eq 99 ] || [ -s "$log" ]; then
        fail=$((fail + 1)); echo "FAIL $name"; head -n 40 "$log"
    elif [ $rc -ne 0 ]; then
        fail=$((fail + 1)); echo "FAIL $name (exit $rc)"; tail -n 20 "$state/out"
    else
        pass=$((pass + 1)); echo "ok   $name"
    fi
}
for t in "$build"/tests/test_*; do [ -x "$t" ] && vg "unit $(basename "$t")" "$t"; done
for t in tests/lua/*.lua; do
    vg "lua  $t" "$bin" --backend sim --deterministic --seed 1 eval "$t"
done
for id in $("$bin" --backend sim list | awk '/^  +[0-9]+\.[0-9]+ / {print $1}'); do
    vg "run  $id" "$bin" --backend sim --deterministic --seed 1 run "$id"
done
vg "check" "$bin" check
echo
echo "valgrind: $pass passed, $fail failed"
[ $fail -eq 0 ]
