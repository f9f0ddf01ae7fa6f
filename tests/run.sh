#!/bin/sh
# run.sh BUILD [--no-tui] [--asan ASAN_BUILD] [--fuzz FUZZ_BUILD] - run every test that works on
# a CPU-only machine and print one summary line "N passed, M failed". Unit tests (cmocka) count
# per test case; Lua, CLI and TUI tests per file. A script that exits 77 is skipped (it says why).
# With --asan, the unit, Lua and CLI tests run a second time against the AddressSanitizer + UBSan
# build. With --fuzz, each libFuzzer target runs FUZZ_RUNS inputs (default 5000; a fifth for the
# panel and recording pipelines) from its seed corpus with a fixed seed: a short, repeatable pass
# (make fuzz runs them for minutes).
build=${1:-build}
skip_tui=0 asan="" fuzz=""
shift
while [ $# -gt 0 ]; do
    case $1 in
    --no-tui) skip_tui=1 ;;
    --asan) asan=$2; shift ;;
    --fuzz) fuzz=$2; shift ;;
    esac
    shift
done
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -rf "$log" "$state"' EXIT
export VRAMLAB_DATADIR="$(pwd)" LC_ALL=C.UTF-8
# saved progress and REPL history of every test go to a scratch folder, never the real home
state=$(mktemp -d)
export XDG_STATE_HOME="$state"

note() { printf '%s\n' "$*"; }

suite() {
build=$1 tag=$2
bin="$build/vramlab"
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    "$t" >"$log" 2>&1
    rc=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$log" | tail -n 1)
    p=${p:-0} f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi # crashed before its summary
    pass=$((pass + p)) fail=$((fail + f))
    if [ "$f" -ne 0 ]; then note "FAIL unit$tag $(basename "$t")"; sed -n '1,80p' "$log"; else note "ok   unit$tag $(basename "$t") ($p)"; fi
done

for t in tests/lua/*.lua; do
    [ -f "$t" ] || continue
    if "$bin" --backend sim --deterministic --seed 1 --lang en eval "$t" >"$log" 2>&1; then
        pass=$((pass + 1)); note "ok   lua$tag  $t"
    else
        fail=$((fail + 1)); note "FAIL lua$tag  $t"; sed -n '1,40p' "$log"
    fi
done

run_scripts() {
    kind=$1; shift
    for t in "$@"; do
        [ -f "$t" ] || continue
        sh "$t" "$build" >"$log" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then pass=$((pass + 1)); note "ok   $kind $t"
        elif [ $rc -eq 77 ]; then skip=$((skip + 1)); note "skip $kind $t: $(grep -m1 SKIP "$log")"
        else fail=$((fail + 1)); note "FAIL $kind $t (exit $rc)"; sed -n '1,60p' "$log"; fi
    done
}
run_scripts "cli$tag" tests/cli/*.sh
}

suite "$build" ""
[ $skip_tui -eq 0 ] && run_scripts tui tests/tui/*.sh
if [ -n "$asan" ]; then
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    suite "$asan" " [asan]"
fi
if [ -n "$fuzz" ]; then
    if [ ! -d "$fuzz/fuzz" ]; then
        skip=$((skip + 1)); note "skip fuzz: no fuzz targets in $fuzz (clang without libFuzzer)"
    fi
    for f in "$fuzz"/fuzz/fuzz_*; do
        [ -x "$f" ] || continue
        name=$(basename "$f")
        work="$state/fuzz-$name" # new inputs go here, never into the seed corpus
        mkdir -p "$work" "$fuzz/crashes"
        extra="" dict=""
        [ "$name" = fuzz_lesson ] && extra=lessons
        [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
        runs=${FUZZ_RUNS:-5000}
        # each input of these runs a whole pipeline (apply and render, or load, play, report):
        # a fifth of the inputs keeps their share of the pass near the others' (make fuzz: minutes)
        case $name in fuzz_panel|fuzz_record) runs=$((runs / 5)) ;; esac
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
            "$f" -runs="$runs" -seed=1 -timeout=15 -rss_limit_mb=2560 \
            -print_final_stats=1 -artifact_prefix="$fuzz/crashes/" $dict "$work" "tests/fuzz/corpus/$name" $extra \
            >"$log" 2>&1
        rc=$?
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        if [ $rc -eq 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
            pass=$((pass + 1)); note "ok   fuzz $name (${n:-?} inputs, seed 1)"
        else
            fail=$((fail + 1)); note "FAIL fuzz $name"
            grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$log" | head -n 20
            ls -t "$fuzz/crashes" | head -n 3 | sed "s|^|  reproducer: $fuzz/crashes/|; s|\$| (replay: $f FILE)|"
        fi
    done
fi

echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
