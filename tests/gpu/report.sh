#!/bin/sh
# report.sh BUILD - `make gpu-report`: every piece of GPU evidence in one run, on one GPU, in well
# under 8 minutes: build, make test-gpu's checks, the GPU benchmarks (ratios against the
# bandwidthTest-style reference), the report figures (tests/gpu/report.lua) and every lesson run
# headless with --record, plus nvidia-smi's clocks and throttle reasons before and after. Each step
# has its own time limit and a failed step does not stop the next. Writes to $OUT if set, else
# BUILD/gpu-report/:
#   <gpu>-<date>.md     the summary (what docs/gpu-results/ keeps)
#   <gpu>-<date>.json   the same figures, machine-readable
#   <gpu>-<date>.jsonl  one recording of every lesson (what assets/recordings/ ships)
#   logs/               each step's full output
# Without a GPU it says so, writes nothing, and exits 0: no figure is ever made up.
build=${1:-build}
out=${OUT:-$build/gpu-report}
bin="$build/vramlab"
budget=${GPU_REPORT_SECONDS:-450} # stop starting lessons past this: the whole run stays < 8 min

nogpu() {
    echo "gpu-report: no NVIDIA GPU on this machine ($1): nothing was measured and no report was written"
    exit 0
}
command -v nvidia-smi >/dev/null 2>&1 || nogpu "nvidia-smi not found"
list=$(nvidia-smi -L 2>&1) || nogpu "nvidia-smi -L: $(printf '%s\n' "$list" | head -n 1)"
printf '%s\n' "$list" | grep -q '^GPU [0-9]' || nogpu "nvidia-smi -L lists no GPU"

t0=$(date +%s)
mkdir -p "$out/logs" || exit 1
log="$out/logs"
steps="$log/steps.tsv"
: >"$steps"
lim() { if command -v timeout >/dev/null 2>&1; then timeout -k 5 "$@"; else shift; "$@"; fi; }
# step NAME SECONDS CMD...: run with a limit, output to logs/NAME.log, status to steps.tsv
step() {
    name=$1 secs=$2
    shift 2
    s=$(date +%s)
    lim "$secs" "$@" >"$log/$name.log" 2>&1
    rc=$?
    case $rc in 0) st=ok ;; 124 | 137) st="timed out after ${secs} s" ;; *) st="failed (exit $rc)" ;; esac
    printf '%s\t%s\t%s\n' "$name" "$st" "$(($(date +%s) - s))" >>"$steps"
    echo "gpu-report: $name: $st ($(($(date +%s) - s)) s)"
    return $rc
}
smi() {
    nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.memory,clocks_event_reasons.active,temperature.gpu,power.draw,power.limit,mig.mode.current,ecc.mode.current --format=csv 2>/dev/null ||
        nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.memory,clocks_throttle_reasons.active,temperature.gpu,power.draw,power.limit --format=csv
}

step build 300 make --no-print-directory -j"$(nproc 2>/dev/null || echo 4)" BUILD="$build" all gpu-tests
step smi-before 30 smi
step info 30 "$bin" --backend cuda info
step test-gpu 200 sh tests/gpu/run.sh "$build"
step bench 150 sh tests/gpu/bench.sh "$build"
step figures 200 "$bin" --backend cuda eval tests/gpu/report.lua
step ledger 30 "$bin" --backend cuda ledger

# every lesson, recorded, into one recording of this machine
mkdir -p "$log/lessons"
for id in $("$bin" list --json 2>/dev/null | sed -n 's/^{"id":"\([^"]*\)".*/\1/p'); do
    if [ $(($(date +%s) - t0)) -gt "$budget" ]; then
        printf '%s\t%s\t0\n' "lesson-$id" "skipped: the report's time budget is spent" >>"$steps"
        continue
    fi
    step "lesson-$id" 60 "$bin" --backend cuda --record "$log/lessons/$id.jsonl" run "$id"
done
step smi-after 30 smi

# ---- the summary ---------------------------------------------------------------------------
gpu=$(sed -n 's/^name\t//p' "$log/figures.log" | head -n 1)
[ -n "$gpu" ] || gpu=$(printf '%s\n' "$list" | sed -n '1s/^GPU [0-9]*: \(.*\) (UUID.*/\1/p')
slug=$(printf '%s' "$gpu" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
date=$(date +%Y-%m-%d)
base="$out/${slug:-gpu}-$date"
first=1
: >"$base.jsonl"
for f in "$log"/lessons/*.jsonl; do # one header (they all name this machine), then every run
    [ -f "$f" ] || continue
    if [ $first = 1 ]; then cat "$f" >>"$base.jsonl"; first=0; else sed 1d "$f" >>"$base.jsonl"; fi
done

sh tests/gpu/summary.sh "$log" "$base" "$gpu" "$date"
echo "gpu-report: $base.md, $base.json, $base.jsonl ($(($(date +%s) - t0)) s)"
