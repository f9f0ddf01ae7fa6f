#!/bin/sh
# run.sh FUZZ_BUILD SECONDS - run every libFuzzer target in FUZZ_BUILD/fuzz for SECONDS each,
# starting from its seed corpus (tests/fuzz/corpus/<name>, never written to; new inputs go to
# FUZZ_BUILD/corpus/<name>), and print how many inputs each one tried. Counts also go to
# FUZZ_BUILD/fuzz-counts.txt. A crash, leak, UB report or timeout fails the run and leaves the
# reproducer in FUZZ_BUILD/crashes/<name>/ (replay: FUZZ_BUILD/fuzz/<name> FILE).
build=${1:-build/fuzz}
secs=${2:-60}
export VRAMLAB_DATADIR="$(pwd)" LC_ALL=C.UTF-8
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
counts="$build/fuzz-counts.txt"
: > "$counts"
fail=0 total=0
for bin in "$build"/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    seeds="tests/fuzz/corpus/$name" work="$build/corpus/$name" crashes="$build/crashes/$name"
    mkdir -p "$work" "$crashes"
    extra=""
    # the shipped lessons are seeds too, read where they live rather than copied in
    [ "$name" = fuzz_lesson ] && extra=lessons
    dict=""
    [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
    log="$build/$name.log"
    "$bin" -max_total_time="$secs" -timeout=15 -rss_limit_mb=2560 \
        -print_final_stats=1 -artifact_prefix="$crashes/" $dict "$work" "$seeds" $extra >"$log" 2>&1
    rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    files=$(ls "$work" | wc -l)
    n=${n:-0}
    total=$((total + n))
    if [ $rc -eq 0 ]; then
        printf '%-14s %9s inputs in %ss, coverage %s edges, corpus %s files\n' "$name" "$n" "$secs" "${cov:-?}" "$files" | tee -a "$counts"
    else
        fail=$((fail + 1))
        printf '%-14s FAILED after %s inputs (exit %s); log: %s\n' "$name" "$n" "$rc" "$log" | tee -a "$counts"
        grep -E 'ERROR|SUMMARY|check failed|runtime error|==[0-9]+==' "$log" | head -n 20
        ls "$crashes" | head -n 5 | sed "s|^|  reproducer: $crashes/|"
    fi
done
echo "fuzz: $total inputs in all, $fail target(s) failed" | tee -a "$counts"
[ $fail -eq 0 ]
