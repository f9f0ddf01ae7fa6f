#!/bin/sh
# faults_all.sh BUILD - out-of-memory injected into every experiment of every lesson. A clean run
# of each lesson (VRAMLAB_FAULT_REPORT) says how many device/host buffers it allocates; then each
# allocation in turn fails (VRAMLAB_FAULT_ALLOC=N): all of them for a lesson with up to 20, a
# fixed spread of 10 (the first three, every fifth of the way, the last two) for one with more.
# Under ASan (VRAMLAB_TEST_TAG=asan) the first and the last allocation of each place in the code
# that allocates (the report's sites): every C error path still fails under the sanitizer, and
# the normal build runs the whole list. The list depends on the counts only, never on how fast
# this machine runs a lesson. Lessons that
# allocate nothing on the device (no gpu.alloc/copy/stream, alloc.caching/raw/async_pool in the
# file) are skipped. Every run must end with 0 (done) or 1 (an experiment failed and said where:
# "file:line:" or the lesson's own note), never crash, and leave nothing allocated (vramlab exits
# 4 when something is). Prints the number of faults injected.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
. tests/cli/catalog.lib
app="$b --backend sim --deterministic"
list=$(lesson_paths "$b") || fail "catalog: $list"
[ -n "$list" ] || fail "no lessons from 'vramlab list --json'"
injected=0 lessons=0
printf '%s\n' "$list" >"${TMPDIR:-/tmp}/faults_all.$$"
while read -r id path; do
    grep -q 'gpu\.alloc\|gpu\.copy\|gpu\.stream\|alloc\.caching\|alloc\.raw\|alloc\.async_pool' "$path" || continue
    rep=$(VRAMLAB_FAULT_REPORT=1 $app run "$id" 2>&1 >/dev/null) || fail "$id: clean run exited $?: $rep"
    n=$(printf '%s\n' "$rep" | sed -n 's/^vramlab: \([0-9]*\) allocation(s) attempted$/\1/p')
    [ -n "$n" ] || fail "$id: no allocation count (VRAMLAB_FAULT_REPORT): $rep"
    lessons=$((lessons + 1))
    [ "$n" -eq 0 ] && continue
    if [ "$VRAMLAB_TEST_TAG" = asan ]; then
        pos=$(printf '%s\n' "$rep" | sed -n 's/^vramlab: allocation sites: //p' | tr ' ' '\n' |
              awk 'NF { if (!($1 in first)) first[$1] = NR; last[$1] = NR }
                   END { for (s in first) print first[s] "\n" last[s] }')
        [ -n "$pos" ] || fail "$id: no allocation sites (VRAMLAB_FAULT_REPORT): $rep"
    elif [ "$n" -le 20 ]; then
        pos=$(seq 1 "$n")
    else
        pos="1 2 3 $((n / 5)) $((2 * n / 5)) $((n / 2)) $((3 * n / 5)) $((4 * n / 5)) $((n - 1)) $n"
    fi
    last=0
    for k in $(printf '%s\n' $pos | sort -n | uniq); do
        [ "$k" -ge 1 ] && [ "$k" -ne "$last" ] || continue
        last=$k
        out=$(VRAMLAB_FAULT_ALLOC=$k $app run "$id" 2>&1 >/dev/null); rc=$?
        case $rc in
        0) ;;
        1) echo "$out" | grep -q '\.lua:[0-9]*:\|\.lua: \|injected fault' ||
               fail "$id, fault at allocation $k of $n: exit 1 without a message: $out" ;;
        4) fail "$id, fault at allocation $k of $n: memory left allocated: $out" ;;
        *) fail "$id, fault at allocation $k of $n: exit $rc: $out" ;;
        esac
        echo "$out" | grep -q 'AddressSanitizer\|runtime error:' && fail "$id, fault $k: $out"
        injected=$((injected + 1))
    done
done <"${TMPDIR:-/tmp}/faults_all.$$"
rm -f "${TMPDIR:-/tmp}/faults_all.$$"
echo "faults injected: $injected, in $lessons lessons"
exit 0
