#!/bin/sh
# report.sh BUILD [OUTDIR] - `make gpu-report`: every piece of GPU evidence in one run on one GPU,
# under one deadline, returned as exactly four files. Without a GPU it says so in one line,
# writes nothing and exits 0: no figure is ever made up.
#
# Steps, in order of their value to the GPU profile (a run cut at its deadline loses the least):
#   build        make all gpu-tests (skipped with GPU_REPORT_PREBUILT=1: BUILD as it is, e.g.
#                make portable's build/portable carried to a machine without Lua's packages)
#   preflight    ldd, versions, nvidia-smi -q, the tools there (tests/gpu/preflight.sh)
#   info         the device as vramlab opens it (and how long its first start took)
#   figures      every calibration figure, each measured once (tests/gpu/report.lua)
#   reference    the bandwidthTest-style reference (tests/gpu/ref_bandwidth.cu), as ref_*
#   smi-loaded   nvidia-smi's clocks and PCIe link right after the measurements
#   test-gpu     make test-gpu's checks, judging the figures above (no second measurement)
#   bench        the benchmark ratios against the reference, from the same figures
#   ledger       where the device memory goes
#   lessons      every lesson, recorded, in one process: the measuring ones first
# Add a step with one `step NAME SECONDS COMMAND...` line at the place its value puts it; a
# figure that belongs to the profile goes into report.lua instead. `nvidia-smi dmon` logs clocks,
# power and memory every second for the whole run.
#
# One deadline for all (GPU_REPORT_DEADLINE, seconds from start, default 480): a step gets at
# most what is left of it less GPU_REPORT_RESERVE (20 s) for the summary and the packing, a step
# that would start past it is skipped, and a trap writes the summary from what was measured
# when a step is cut, the run is stopped (TERM, INT, HUP) or the deadline passes.
# At the end OUTDIR (else $OUT, else BUILD/gpu-report) holds four files, nothing else of ours:
#   <gpu>-<date>.md          the summary (also printed last on stdout)
#   <gpu>-<date>.json        every figure, step and lesson status
#   <gpu>-<date>.jsonl       the lesson recordings (what assets/recordings/ ships)
#   <gpu>-<date>-logs.tar.gz every step's log, steps.tsv, the dmon log, the raw figures and a
#                            recalibrated profile (tests/gpu/profile_update.py)
# Exit 0 when every step ran and passed, 1 when one failed, was cut or skipped (the four files are
# written either way).
#
# Test set-ups (tests/cli/gpu_report.sh, docs/benchmarks.md): GPU_REPORT_SIMULATE=PROFILE runs
# vramlab on the simulator in place of the cuda backend (everything then says SIMULATED);
# GPU_REPORT_STEPS="a b" runs those steps alone; GPU_REPORT_LESSONS="1.1 2.1" those lessons;
# GPU_REPORT_FAULT_HANG=STEP makes that step hang (as a hung driver call would).
build=${1:-build}
out=${2:-${OUT:-$build/gpu-report}}
deadline=${GPU_REPORT_DEADLINE:-480}
reserve=${GPU_REPORT_RESERVE:-20}
bin="$build/vramlab"
here=$(dirname "$0")

nogpu() {
    echo "gpu-report: no NVIDIA GPU on this machine ($1): nothing was measured and no report was written"
    exit 0
}
command -v nvidia-smi >/dev/null 2>&1 || nogpu "nvidia-smi not found"
list=$(nvidia-smi -L 2>&1) || nogpu "nvidia-smi -L: $(printf '%s\n' "$list" | head -n 1)"
printf '%s\n' "$list" | grep -q '^GPU [0-9]' || nogpu "nvidia-smi -L lists no GPU"

t0=$(date +%s)
opts="--backend cuda"
[ -n "$GPU_REPORT_SIMULATE" ] && opts="--backend sim --profile $GPU_REPORT_SIMULATE --deterministic"
work=$(mktemp -d "${TMPDIR:-/tmp}/vramlab-gpu-report.XXXXXX") || exit 1
log="$work/logs"
figs="$log/figures.tsv"
steps="$log/steps.tsv"
mkdir -p "$log" || exit 1
: >"$figs"
: >"$steps"
# the data folder is this tree (a carried build/portable/vramlab has no ../lessons beside it)
VRAMLAB_DATADIR=${VRAMLAB_DATADIR:-$(pwd)}
export VRAMLAB_DATADIR
kv() { printf '%s\t%s\n' "$1" "$2" >>"$figs"; }
elapsed() { echo $(($(date +%s) - t0)); }
have_timeout=0
command -v timeout >/dev/null 2>&1 && have_timeout=1

cur="" cur_name="" failed=0 stopped=""
# step NAME SECONDS CMD...: run with a limit (never past the deadline), output to logs/NAME.log,
# status to steps.tsv; in the background and waited for, so that a signal is handled at once
step() {
    name=$1 want=$2
    shift 2
    case " ${GPU_REPORT_STEPS:-$name} " in *" $name "*) ;; *) return 3 ;; esac # not asked for
    avail=$((deadline - $(elapsed) - reserve))
    if [ "$avail" -lt 2 ]; then
        printf '%s\t%s\t0\n' "$name" "skipped: past the report's deadline" >>"$steps"
        echo "gpu-report: $name: skipped (past the report's deadline of $deadline s)"
        failed=1
        return 1
    fi
    secs=$want cut=""
    [ "$avail" -lt "$secs" ] && secs=$avail cut=1
    [ "$GPU_REPORT_FAULT_HANG" = "$name" ] && set -- sleep 100000
    s=$(date +%s)
    if [ $have_timeout = 1 ]; then
        timeout -k 5 "$secs" "$@" >"$log/$name.log" 2>&1 </dev/null &
    else
        "$@" >"$log/$name.log" 2>&1 </dev/null &
    fi
    cur=$! cur_name=$name
    wait "$cur"
    rc=$?
    cur="" cur_name=""
    case $rc in
    0) st=ok ;;
    124 | 137) if [ -n "$cut" ]; then st="cut at the report's deadline after $secs s"; else st="timed out after $secs s"; fi ;;
    *) st="failed (exit $rc)" ;;
    esac
    [ $rc = 0 ] || failed=1
    printf '%s\t%s\t%s\n' "$name" "$st" "$(($(date +%s) - s))" >>"$steps"
    echo "gpu-report: $name: $st ($(($(date +%s) - s)) s)"
    return $rc
}

# everything below ends in finish(): the summary from whatever was measured, and the packing
finished=""
finish() {
    [ -n "$finished" ] && return
    finished=1
    trap '' TERM INT HUP
    trap - EXIT
    if [ -n "$cur" ]; then # a step still running: stop it and everything it started
        kill -TERM -"$cur" 2>/dev/null || kill -TERM "$cur" 2>/dev/null
        wait "$cur" 2>/dev/null
        printf '%s\t%s\t%s\n' "$cur_name" "cut: the report was stopped ($stopped)" "$(($(date +%s) - s))" >>"$steps"
        echo "gpu-report: $cur_name: cut: the report was stopped ($stopped)"
        failed=1
    fi
    [ -n "$watchdog" ] && kill -TERM "$watchdog" 2>/dev/null
    [ -n "$dmon" ] && kill -TERM "$dmon" 2>/dev/null
    if [ $have_timeout = 1 ]; then timeout -k 2 5 sh "$here/smi.sh" smi_after "${GPU_REPORT_SMI_ID:-0}" >>"$figs" 2>/dev/null
    else sh "$here/smi.sh" smi_after "${GPU_REPORT_SMI_ID:-0}" >>"$figs" 2>/dev/null; fi
    kv report_seconds "$(elapsed)"
    kv report_deadline_seconds "$deadline"
    kv report_stopped "${stopped:-no}"
    kv report_prebuilt "$([ "$GPU_REPORT_PREBUILT" = 1 ] && echo true || echo false)"
    kv report_simulated "$([ -n "$GPU_REPORT_SIMULATE" ] && echo true || echo false)"
    # the lessons recorded, and those the run did not reach. --record renames its file into place
    # when vramlab ends; a lessons step cut at the deadline leaves it under its temporary name
    # (.lessons.jsonl.PID.N.tmp), every event flushed: the runs done until the cut
    if [ ! -f "$log/lessons.jsonl" ]; then
        part=$(ls -t "$log"/.lessons.jsonl.*.tmp 2>/dev/null | head -n 1)
        if [ -n "$part" ]; then mv "$part" "$log/lessons.jsonl"; else : >"$log/lessons.jsonl"; fi
    fi
    kv lessons_asked "$lessons"
    kv lessons_recorded "$(sed -n 's/^{"type":"run","run":[0-9]*,"lesson":"\([^"]*\)".*/\1/p' "$log/lessons.jsonl" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')"

    gpu=$(awk -F'\t' '$1 == "name" { print $2; exit }' "$figs")
    [ -n "$gpu" ] || gpu=$(printf '%s\n' "$list" | sed -n '1s/^GPU [0-9]*: \(.*\) (UUID.*/\1/p')
    slug=$(printf '%s' "$gpu" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
    date=$(date +%Y-%m-%d)
    base="${slug:-gpu}-$date"
    sh "$here/summary.sh" "$log" "$work/$base" "$gpu" "$date" >"$log/summary.log" 2>&1 ||
        echo "gpu-report: the summary failed: $(tail -n 3 "$log/summary.log")"
    # the profile of this GPU, recalibrated from the figures (for review, never applied here)
    prof=$(awk -F'\t' '$1 == "published_profile" { print $2; exit }' "$figs")
    if [ -n "$prof" ] && [ -f "assets/gpus/$prof.txt" ] && command -v python3 >/dev/null 2>&1; then
        python3 "$here/profile_update.py" "$work/$base.json" "assets/gpus/$prof.txt" \
            >"$log/profile-$prof.txt" 2>"$log/profile-$prof.err" || true
    fi
    cp "$log/lessons.jsonl" "$work/$base.jsonl"
    tar -czf "$work/$base-logs.tar.gz" -C "$work" logs 2>/dev/null ||
        tar -cf - -C "$work" logs | gzip >"$work/$base-logs.tar.gz"
    mkdir -p "$out" || exit 1
    rc=0
    for f in "$base.md" "$base.json" "$base.jsonl" "$base-logs.tar.gz"; do
        [ -f "$work/$f" ] || : >"$work/$f"
        cp "$work/$f" "$out/$f" || rc=1
    done
    echo "gpu-report: $out/: $base.md, $base.json, $base.jsonl, $base-logs.tar.gz ($(elapsed) s of a $deadline s deadline)"
    echo
    cat "$work/$base.md"
    rm -rf "$work"
    [ $rc = 0 ] && [ $failed = 0 ] && exit 0
    exit 1
}
trap finish EXIT
trap 'stopped=${stopped:-a signal}; exit 1' TERM INT HUP

# the deadline holds even outside a step (a hung nvidia-smi, say): the watchdog stops the run
sh -c 'sleep "$1" & s=$!; trap "kill \$s 2>/dev/null; exit 0" TERM; wait $s; kill -TERM "$2"' \
    watchdog "$deadline" "$$" &
watchdog=$!
# clocks, power, utilisation and memory every second, the whole run (an NVML client also keeps
# the driver initialised between the steps' processes)
nvidia-smi dmon -s pucm -o DT >"$log/dmon.log" 2>&1 </dev/null &
dmon=$!

if [ "$GPU_REPORT_PREBUILT" = 1 ]; then
    printf '%s\t%s\t0\n' build "skipped: GPU_REPORT_PREBUILT=1 ($build as it is)" >>"$steps"
    "$bin" --version >/dev/null 2>&1 || echo "gpu-report: $bin does not run here (see the preflight's ldd)"
else
    step build 300 make --no-print-directory -j"$(nproc 2>/dev/null || echo 4)" BUILD="$build" all gpu-tests
fi
step preflight 10 sh "$here/preflight.sh" "$build" "$figs"
s0=$(date +%s.%N 2>/dev/null)
step info 30 "$bin" $opts info --json &&
    kv first_start_seconds "$(awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')"

# the calibration figures: everything later reads them
report_lua="$here/report.lua"
if [ -n "$GPU_REPORT_SIMULATE" ]; then
    { echo 'ALLOW_SIMULATED = true'; cat "$here/report.lua"; } >"$work/report.lua"
    report_lua="$work/report.lua"
fi
step figures 200 "$bin" $opts eval "$report_lua"
grep -E '^[a-z][a-z0-9_]*	' "$log/figures.log" >>"$figs" 2>/dev/null
step reference 60 sh "$here/bench.sh" "$build" --reference
awk 'NF == 2 && $1 ~ /^[a-z][a-z0-9_]*$/ { printf "ref_%s\t%s\n", $1, $2 }' "$log/reference.log" >>"$figs" 2>/dev/null
step smi-loaded 10 sh "$here/smi.sh" smi_loaded "${GPU_REPORT_SMI_ID:-0}"
cat "$log/smi-loaded.log" >>"$figs" 2>/dev/null

# the checks and the benchmark ratios, judging the figures above
GPU_FIGURES=$figs
export GPU_FIGURES
step test-gpu 180 sh "$here/run.sh" "$build"
step bench 20 sh "$here/bench.sh" "$build"
step ledger 20 "$bin" $opts ledger

# every lesson, recorded, in one process: the ones that measure first
all=$("$bin" list --json 2>/dev/null | sed -n 's/^{"id":"\([^"]*\)".*/\1/p' | tr '\n' ' ')
lessons=${GPU_REPORT_LESSONS:-}
if [ -z "$lessons" ]; then
    for id in 3.1 3.3 3.2 1.3 1.4 2.1 1.1 2.4 4.5 5.4 5.5 $all; do
        case " $all " in *" $id "*) ;; *) continue ;; esac
        case " $lessons " in *" $id "*) ;; *) lessons="$lessons $id" ;; esac
    done
fi
lessons=$(echo $lessons)
[ -n "$lessons" ] && step lessons 400 "$bin" $opts --record "$log/lessons.jsonl" run $lessons
exit 0
