#!/bin/sh
# run.sh BUILD [--no-tui] [--asan ASAN_BUILD [--asan-build CMD]] [--fuzz FUZZ_BUILD|-] [-j N] [--times] - run every
# test that works on a CPU-only machine and print one summary line "N passed, M failed, K
# skipped". Unit tests (cmocka) count per test case; Lua, CLI, TUI and fuzz tests per file. A
# script that exits 77 is skipped (it says why).
# With --asan, the unit, Lua and CLI tests run a second time against the AddressSanitizer + UBSan
# build, but for the CLI scripts that say "# Not in the ASan pass: why". With --fuzz, each
# libFuzzer target runs a fixed number of inputs (FUZZ_RUNS, default 5000; fewer for the slow
# targets, see fuzz_runs below) from its seed corpus with seed 1.
# --fuzz -: clang has no libFuzzer (one skip). --asan-build CMD: CMD builds ASAN_BUILD (and the fuzz
# targets) in the background while the normal build's jobs run, the TUI tests' waits among them;
# the sanitizer jobs come after those and each waits for the build (make test does this).
# Every test is one job; N jobs (default: the number of CPUs, VRAMLAB_TEST_JOBS) run at once,
# the longest of the last run first. Each job has its own state folder (XDG_STATE_HOME) and its
# output in BUILD/test-logs/ID.log; a failing job's output is shown after the others finish,
# with its time. Host measurements are capped (VRAMLAB_HOST_MAX, docs/reliability.md): a test
# checks what the code does with the numbers, and real sizes are for make bench.
# One job: run.sh --job LOGDIR ID KIND WHAT TAG (xargs calls it): WHAT is a unit test or fuzz
# binary, or BUILD|PATH for a Lua test or a script; TAG is asan or -.
# CPU time: every job records the user + sys seconds of all it ran (the shell's `times` of its
# waited-for children, plus what a TUI test's tmux server and panes used, which tmux.lib adds to
# $VRAMLAB_TEST_CPU as the server is daemonized out of that count); --times prints them sorted,
# with the builds' (run.sh --cpu FILE COMMAND... records one command, as make test does).

# cpu_secs: cpu= user + sys seconds of this shell's finished children, from `times` (never call
# it in a $(...) subshell, which would see only its own children)
cpu_secs() {
    times >"$state/.times"
    cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } }
               END { printf "%.1f", s }' "$state/.times")
}

job() {
    logs=$1 id=$2 kind=$3 bin=$4 tag=$5
    log="$logs/$id.log" res="$logs/$id.res"
    state=$(mktemp -d)
    export XDG_STATE_HOME="$state" VRAMLAB_TEST_CPU="$state/.cpu-extra"
    # The sandbox's time guard (10 s of Lua per run or resume) is wall time: a hang guard. A busy
    # machine (another make test beside this one: a load of 20 on 2 CPUs) stretches a 2 s lesson
    # past it, and ASan + UBSan or ThreadSanitizer run Lua several times slower; so every job gets
    # 60 s. The instruction limit, which does not depend on speed, stays; sandbox.sh sets its own.
    export VRAMLAB_LIMITS=seconds=60
    if [ "$tag" = asan ]; then
        export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
        export VRAMLAB_TEST_TAG=asan # scripts that split work between the builds read it
        label="$kind [asan]"
    else
        unset VRAMLAB_TEST_TAG
        label=$kind
    fi
    p=0 f=0 s=0 what=$bin
    if [ -n "$VRAMLAB_TEST_BUILT" ] && { [ "$tag" = asan ] || [ "$kind" = fuzz ]; }; then
        while [ ! -f "$VRAMLAB_TEST_BUILT" ]; do sleep 0.2; done
        if [ "$(cat "$VRAMLAB_TEST_BUILT")" != 0 ]; then # counted once, as the build's failure
            printf '0 0 0 0 0\nnot run %s %s: the sanitizer build failed\n' "$label" "$bin" >"$res"
            rm -rf "$state"
            return
        fi
    fi
    t0=$(date +%s.%N)
    case $kind in
    unit)
        timeout -k 10 "$limit" "$bin" >"$log" 2>&1
        rc=$?
        p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$log" | tail -n 1)
        f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$log" | tail -n 1)
        p=${p:-0} f=${f:-0}
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1 # crashed before its summary
        what="$(basename "$bin") ($p)"
        ;;
    lua)
        build=${bin%%|*} t=${bin#*|}
        what=$t
        timeout -k 10 "$limit" "$build/vramlab" --backend sim --deterministic --seed 1 --lang en \
            eval "$t" >"$log" 2>&1 && p=1 || f=1
        ;;
    fuzz)
        name=$(basename "$bin") fuzz=$(dirname "$(dirname "$bin")")
        work="$state/fuzz-$name" # new inputs go here, never into the seed corpus
        mkdir -p "$work" "$fuzz/crashes"
        extra="" dict=""
        [ "$name" = fuzz_lesson ] && extra=lessons
        [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
        runs=$(fuzz_runs "$name")
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
            timeout -k 10 "$limit" "$bin" -runs="$runs" -seed=1 -timeout=15 -rss_limit_mb=2560 \
            -print_final_stats=1 -artifact_prefix="$fuzz/crashes/" $dict "$work" \
            "tests/fuzz/corpus/$name" $extra >"$log" 2>&1
        rc=$?
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        if [ $rc -eq 0 ] && grep -q '^Done [0-9]* runs' "$log"; then p=1; else f=1; fi
        what="$name (${n:-?} inputs, seed 1)"
        ;;
    *) # cli, tui: a script given the build folder
        build=${bin%%|*} t=${bin#*|}
        what=$t
        timeout -k 10 "$limit" sh "$t" "$build" >"$log" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then p=1
        elif [ $rc -eq 77 ]; then s=1 what="$t: $(grep -m1 SKIP "$log")"
        else f=1 what="$t (exit $rc)"; fi
        ;;
    esac
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    cpu_secs
    [ -f "$VRAMLAB_TEST_CPU" ] &&
        cpu=$(awk -v c="$cpu" '{ c += $1 } END { printf "%.1f", c }' "$VRAMLAB_TEST_CPU")
    if [ "$f" -ne 0 ]; then word=FAIL; elif [ "$s" -ne 0 ]; then word=skip; else word="ok  "; fi
    line="$word $label $what [${secs}s, ${cpu} s CPU]"
    printf '%s %s %s %s %s\n%s\n' "$p" "$f" "$s" "$secs" "$cpu" "$line" >"$res"
    printf '%s\n' "$line"
    rm -rf "$state"
}

# Inputs per fuzz target in make test: each input of these runs a whole pipeline (apply and
# render, load and play and report), or a fresh VM (a lesson's load, validation and grading; a
# sandboxed chunk: about 10 inputs a second), so a fixed smaller count keeps each near the
# others' seconds (docs/reliability.md has each target's time; make fuzz runs them for minutes).
fuzz_runs() {
    runs=${FUZZ_RUNS:-5000}
    case $1 in
    fuzz_panel|fuzz_record) echo $((runs / 5)) ;;
    fuzz_lesson|fuzz_sandbox) echo $((runs / 10)) ;;
    *) echo "$runs" ;;
    esac
}

limit=${VRAMLAB_TEST_TIMEOUT:-900} # seconds a job may take before it counts as failed
# The suite's result does not depend on the caller's environment: every setting a learner may
# export (VRAMLAB_BACKEND=sim, VRAMLAB_LANG, NO_COLOR, LANG, ...) is cleared, the runner's own
# VRAMLAB_TEST_* kept; each test sets what it needs (tests/tui/tmux.lib, the scripts' options).
for v in $(env | sed -n 's/^\(VRAMLAB_[A-Za-z0-9_]*\)=.*/\1/p'); do
    case $v in VRAMLAB_TEST_*) ;; *) unset "$v" ;; esac
done
unset NO_COLOR LANG LANGUAGE LC_CTYPE LC_MESSAGES EDITOR VISUAL
export VRAMLAB_DATADIR="$(pwd)" LC_ALL=C.UTF-8
# Host experiments (host.*, the ladder and STREAM lessons) take at most this much in all
# (host.budget()): a test checks the code path, not this machine's memory system.
export VRAMLAB_HOST_MAX=4MiB
# and time short passes: 1 ms a bandwidth pass, 0.2 ms a chase trial (VRAMLAB_HOST_QUICK)
export VRAMLAB_HOST_QUICK=1

if [ "$1" = --job ]; then
    shift
    job "$@"
    exit 0
fi
if [ "$1" = --cpu ]; then # --cpu FILE COMMAND...: run COMMAND, write "CPU WALL" seconds to FILE
    out=$2 state=$(mktemp -d)
    shift 2
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    cpu_secs
    awk -v c="$cpu" -v a="$t0" -v b="$(date +%s.%N)" \
        'BEGIN { printf "%s %.1f\n", c, b - a }' >"$out"
    rm -rf "$state"
    exit $rc
fi

build=${1:-build}
skip_tui=0 asan="" asan_build="" fuzz="" show_times=0 jobs=${VRAMLAB_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
shift
while [ $# -gt 0 ]; do
    case $1 in
    --no-tui) skip_tui=1 ;;
    --asan) asan=$2; shift ;;
    --asan-build) asan_build=$2; shift ;;
    --fuzz) fuzz=$2; shift ;;
    -j) jobs=$2; shift ;;
    --times) show_times=1 ;;
    esac
    shift
done
logs="$build/test-logs"
mkdir -p "$logs"
# python3 found once: a version manager's shim (pyenv's) takes about 0.3 s of CPU a call, and the
# scripts call python3 a few hundred times; the interpreter it resolves to is linked in PATH
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -x "$py" ]; then
    mkdir -p "$logs/bin" && ln -sf "$py" "$logs/bin/python3" && PATH="$(cd "$logs/bin" && pwd):$PATH"
    export PATH
fi
rm -f "$logs"/*.log "$logs"/*.res
list=$(mktemp)
trap 'rm -f "$list" "$list.order"' EXIT

# add ID KIND BIN [TAG]
add() { printf '%s %s %s %s\n' "$1" "$2" "$3" "${4:--}" >>"$list"; }
suite() { # BUILD TAG: unit, Lua and CLI tests of one build
    b=$1 tag=$2 pre=${2:+$2-}
    for t in tests/unit/test_*.c; do t=$(basename "$t" .c); add "${pre}unit-$t" unit "$b/tests/$t" "$tag"; done
    for t in tests/lua/*.lua; do add "${pre}lua-$(basename "$t" .lua)" lua "$b|$t" "$tag"; done
    for t in tests/cli/*.sh; do
        # a script that runs no C path the sanitizer pass does not already run says so and why
        # in a line "# Not in the ASan pass: ..." (docs/reliability.md lists them)
        [ -n "$tag" ] && grep -q '^# Not in the ASan pass: ' "$t" && continue
        add "${pre}cli-$(basename "$t" .sh)" cli "$b|$t" "$tag"
    done
}
suite "$build" ""
[ $skip_tui -eq 0 ] && for t in tests/tui/*.sh; do add "tui-$(basename "$t" .sh)" tui "$build|$t"; done
[ -n "$asan" ] && suite "$asan" asan
if [ -n "$fuzz" ] && [ "$fuzz" != - ]; then
    for f in tests/fuzz/fuzz_*.c; do f=$(basename "$f" .c); add "fuzz-$f" fuzz "$fuzz/fuzz/$f"; done
fi

# The longest of the last run first (new tests count as long), so the slowest job does not
# start last; the previous times are in $logs/times.
# A first run (a fresh clone) takes the order of tests/times.seed, measured on 2 idle CPUs.
# While the sanitizer tree builds in the background, the jobs that need it come last.
touch "$logs/times"
order=$logs/times
[ -s "$order" ] || order=tests/times.seed
while read -r id kind bin tag; do
    secs=$(awk -v id="$id" '$1 == id { print $2 }' "$order")
    late=0
    [ -n "$asan_build" ] && { [ "$tag" = asan ] || [ "$kind" = fuzz ]; } && late=1
    printf '%s %s %s %s %s %s\n' "$late" "${secs:-9999}" "$id" "$kind" "$bin" "$tag"
done <"$list" | sort -k1,1n -k2,2gr | cut -d' ' -f3- >"$list.order"
if [ -n "$asan_build" ]; then
    VRAMLAB_TEST_BUILT=$(cd "$logs" && pwd)/asan-build.rc
    rm -f "$VRAMLAB_TEST_BUILT"
    export VRAMLAB_TEST_BUILT
    # at a lower priority: the jobs go first, the build takes the CPU they leave (a TUI test's
    # waits); its jobs come last anyway
    { nice -n 10 sh "$0" --cpu "$logs/build-asan.cpu" sh -c "$asan_build" >"$logs/build-asan.log" 2>&1
      echo $? >"$VRAMLAB_TEST_BUILT.tmp" && mv "$VRAMLAB_TEST_BUILT.tmp" "$VRAMLAB_TEST_BUILT"; } &
fi
xargs -P "$jobs" -L 1 sh "$0" --job "$logs" <"$list.order"
wait

pass=0 fail=0 skip=0
if [ -n "$asan_build" ] && [ "$(cat "$VRAMLAB_TEST_BUILT")" != 0 ]; then
    fail=1
    echo "FAIL: the sanitizer build ($logs/build-asan.log), so its tests did not run:"
    tail -n 30 "$logs/build-asan.log"
fi
: >"$logs/times.new"
while read -r id kind bin tag; do
    if [ ! -f "$logs/$id.res" ]; then
        fail=$((fail + 1)); echo "FAIL $id: no result (the job did not finish)"; continue
    fi
    { read -r p f s secs cpu; read -r line; } <"$logs/$id.res"
    pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
    case $line in "not run "*) continue ;; esac
    echo "$id $secs $cpu" >>"$logs/times.new"
    if [ "$f" -ne 0 ]; then
        echo
        echo "$line  (output: $logs/$id.log)"
        case $kind in
        fuzz)
            grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$logs/$id.log" | head -n 20
            d=$(dirname "$(dirname "$bin")")/crashes
            ls -t "$d" 2>/dev/null | head -n 3 | sed "s|^|  reproducer: $d/|; s|\$| (replay: $bin FILE)|"
            ;;
        *) sed -n '1,60p' "$logs/$id.log" ;;
        esac
    fi
done <"$list"
mv "$logs/times.new" "$logs/times"
if [ "$fuzz" = - ]; then
    skip=$((skip + 1)); echo "skip fuzz: no fuzz targets (clang without libFuzzer)"
fi

# --times: CPU seconds (user + sys) per job, most first, then per part and in all, the builds
# included when make test recorded them ($logs/build-*.cpu)
if [ "$show_times" -eq 1 ]; then
    echo
    { cat "$logs/times"
      for f in "$logs"/build-*.cpu; do
          [ -f "$f" ] && read -r c w <"$f" && echo "$(basename "$f" .cpu) $w $c"
      done; } | sort -k3,3 -g -r | awk '
        { part = $1; sub(/-[^-]*$/, "", part); if (part ~ /^build/) part = "build"
          cpu[part] += $3; wall[part] += $2; n[part]++; tc += $3; tw += $2; tn++
          if (NR <= 25) printf "%8.1f s CPU %8.1f s wall  %s\n", $3, $2, $1 }
        END { print ""; printf "%-10s %5s %10s %10s\n", "part", "jobs", "CPU s", "wall s"
              srt = "sort -k3,3 -g -r"
              for (p in cpu) printf "%-10s %5d %10.1f %10.1f\n", p, n[p], cpu[p], wall[p] | srt
              close(srt)
              printf "%-10s %5d %10.1f %10.1f\n", "all", tn, tc, tw }'
fi

echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
