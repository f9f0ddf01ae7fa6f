#!/bin/sh
# gpu_report.sh BUILD - `make gpu-report` without a GPU says so in one line, exits 0 and writes
# nothing (no figure is made up, no build stamp touched). And its packaging, against a stand-in
# device: an nvidia-smi on the PATH that lists one H200 and answers queries as an older driver
# would (one field unknown), with the simulator in place of the cuda backend
# (GPU_REPORT_SIMULATE): exactly four files come back (summary .md, the .json of every figure,
# the lesson recordings .jsonl, one tarball of the logs), the summary says SIMULATED and is
# printed last; a step that hangs is cut at the report's deadline and the steps after it are
# skipped, yet the four files are written; a TERM in the middle of a step still writes them.
# No timed assertion: states and files only. Runs the same on a GPU machine.
build=${1:-build}
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin" "$T/gpu" "$T/tmp"
export TMPDIR="$T/tmp"
unset OUT GPU_REPORT_STEPS GPU_REPORT_LESSONS GPU_REPORT_FAULT_HANG GPU_REPORT_DEADLINE \
    GPU_REPORT_RESERVE GPU_REPORT_PREBUILT GPU_REPORT_SIMULATE GPU_FIGURES MAKEFLAGS MFLAGS MAKELEVEL

# ---- no GPU: one line, exit 0, nothing written --------------------------------------------
grep -A3 '^gpu-report:' Makefile | grep -q 'sh tests/gpu/report.sh \$(BUILD)' ||
    fail "make gpu-report does not run tests/gpu/report.sh"
for how in "exit 6" "exit 0"; do # nvidia-smi failing, and nvidia-smi listing nothing
    printf '#!/bin/sh\necho "No devices were found"\n%s\n' "$how" >"$T/bin/nvidia-smi"
    chmod +x "$T/bin/nvidia-smi"
    out=$(PATH="$T/bin:$PATH" OUT="$T/out" sh tests/gpu/report.sh "$build" 2>&1) ||
        fail "make gpu-report without a GPU exited non-zero: $out"
    [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "more than one line without a GPU: $out"
    echo "$out" | grep -q "no NVIDIA GPU on this machine" || fail "no message: $out"
    echo "$out" | grep -q "no report was written" || fail "does not say nothing was written: $out"
    [ ! -e "$T/out" ] || fail "wrote $(ls -R "$T/out" | head -n 5) without a GPU"
done
# through make: no toolkit probe, no build folder or stamp written
out=$(PATH="$T/bin:$PATH" make --no-print-directory gpu-report BUILD="$T/nobuild" 2>&1) ||
    fail "make gpu-report exited non-zero: $out"
echo "$out" | grep -q "no NVIDIA GPU on this machine" || fail "make gpu-report: $out"
[ ! -e "$T/nobuild" ] || fail "make gpu-report wrote $(ls -a "$T/nobuild")"

# ---- the stand-in device ------------------------------------------------------------------
cat >"$T/gpu/nvidia-smi" <<'SH'
#!/bin/sh
case " $* " in
*" -L "*) echo "GPU 0: NVIDIA H200 (UUID: GPU-00000000-1111-2222-3333-444444444444)" ;;
*" dmon "*) printf '#Date       Time        gpu   pwr  gtemp  mtemp     sm    mem    enc    dec  mclk  pclk    fb  bar1\n'
    printf '20261201   12:00:00      0   120     30     35      0      0      0      0  3201  1980   500     2\n'
    exec sleep 120 ;;
*" -q "*) printf '==============NVSMI LOG==============\nPersistence Mode : Enabled\n' ;;
*--query-gpu=*clocks_event_reasons*) echo 'Field "clocks_event_reasons.active" is not a valid field to query.'; exit 2 ;;
*--query-gpu=*)
    fields=$(printf '%s\n' "$@" | sed -n 's/^--query-gpu=//p')
    printf '%s\n' "$fields" | tr ',' '\n' | while read -r f; do
        case $f in name) v="NVIDIA H200" ;; memory.total) v=143771 ;; memory.reserved) v=646 ;;
        clocks.max.sm) v=1980 ;; *) v=1 ;; esac
        printf '%s, ' "$v"
    done | sed 's/, $/\n/' ;;
*) exit 2 ;;
esac
SH
chmod +x "$T/gpu/nvidia-smi"
report() { # OUTDIR: the report on the stand-in; its output in $T/report.out, its status in rc
    PATH="$T/gpu:$PATH" GPU_REPORT_SIMULATE=h200 GPU_REPORT_PREBUILT=1 GPU_REPORT_LESSONS="1.1 2.1" \
        VRAMLAB_HOST_QUICK=1 VRAMLAB_HOST_MAX=64MiB sh tests/gpu/report.sh "$build" "$1" >"$T/report.out" 2>&1
    rc=$?
}
four() { # OUTDIR: exactly the four files, and BASE set to their common name
    files=$(ls "$1" | sort | tr '\n' ' ')
    base=$(ls "$1" | sed -n 's/\.md$//p')
    [ -n "$base" ] || fail "no summary in $1: $files"
    [ "$files" = "$base-logs.tar.gz $base.json $base.jsonl $base.md " ] ||
        fail "not exactly the four files in $1: $files"
    BASE="$1/$base"
    tail -n 1 "$T/report.out" | grep -qxF -- "$(tail -n 1 "$BASE.md")" ||
        fail "the summary is not printed last: $(tail -n 3 "$T/report.out")"
    tar -tzf "$BASE-logs.tar.gz" >"$T/tar.list" || fail "the tarball does not read"
    for f in logs/steps.tsv logs/figures.tsv logs/dmon.log; do
        grep -qx "$f" "$T/tar.list" || fail "$f not in the tarball: $(tr '\n' ' ' <"$T/tar.list")"
    done
    ! ls "$T/tmp" | grep -q . || fail "the scratch folder was left: $(ls "$T/tmp")"
}
json() { # FILE PYTHON-ASSERTIONS: d is the summary JSON
    command -v python3 >/dev/null 2>&1 || return 0
    python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
steps = {s['step']: s['status'] for s in d['steps']}
$2" "$1" || fail "summary JSON: $(head -c 300 "$1")"
}

# the whole report: every step, two lessons
report "$T/full"
four "$T/full"
head -n 3 "$BASE.md" | grep -q '^\*\*SIMULATED' || fail "a simulated summary without its banner: $(head -n 3 "$BASE.md")"
for want in '^| D2D copy engine (cudaMemcpyAsync) | 1024 MiB | .* | 2n | .* | yes |$' \
    '^| D2D SM copy kernel | 1024 MiB |' '^| STREAM dot | 1024 MiB | .* | STREAM |' \
    '^| preflight | ok |' '^| figures | ok |' '^| lessons | ok |' '^| build | skipped: GPU_REPORT_PREBUILT=1' \
    '^- L1: 4 KiB to ' '^- DRAM: ' 'Recorded (in the .jsonl): 1.1 2.1\.' '^| d2d_ce | 7.00 | n/a |$' \
    '^Not settled: .*sim backend' 'published figure.*profile h200' '^| 16 GiB | 4 |' \
    '^- 16 KiB: 22.00 ns' '^gpu SM copy kernel (2n/t) .* ratio 0.909' '^| copy engines | 3 |$' \
    '^| a kernel not waiting for its copy | caught by the check |$' '^| managed 32 MiB, GB/s | first pass (faults) [0-9.]*, '; do
    grep -q -- "$want" "$BASE.md" || fail "summary lacks /$want/"
done
grep -q 'L3' "$BASE.md" && fail "a GPU plateau named L3"
[ "$(wc -c <"$BASE.md")" -lt 12000 ] || fail "the summary ($(wc -c <"$BASE.md") bytes) does not fit a 12,000-character output tail"
grep -q '^{"type":"header"' "$BASE.jsonl" || fail "the recordings have no header"
for id in 1.1 2.1; do grep -q "\"type\":\"run\",\"run\":[0-9]*,\"lesson\":\"$id\"" "$BASE.jsonl" || fail "no run of $id recorded"; done
json "$BASE.json" '
f = d["figures"]
assert f["simulated"] is True and f["d2d_ce_validated"] is True, "flags are JSON booleans"
assert isinstance(f["d2d_sm_rw_bytes_per_s"], float), "figures are JSON numbers"
assert f["smi_before_memory_total"] == 143771 and f["smi_before_memory_reserved"] == 646, "nvidia-smi figures"
assert f["smi_before_clocks_throttle_reasons_active"] == 1, "the older field name when the newer is unknown"
assert "lat_01" in f and "granularity_1" in f and "malloc_16gib_calls" in f, "calibration figures"
assert d["lessons"]["recorded"] == ["1.1", "2.1"] and d["lessons"]["missing"] == [], d["lessons"]
assert steps["figures"] == "ok" and steps["lessons"] == "ok", steps
assert any(c.startswith("FAIL") for c in d["checks"]), "the checks ran (and fail: no cuda backend here)"'
[ $rc = 1 ] || fail "a report with failed steps (test-gpu on the simulator) exited $rc"

# a step that hangs is cut at the deadline; what was left is skipped; the files are written
GPU_REPORT_STEPS="figures lessons" GPU_REPORT_FAULT_HANG=figures GPU_REPORT_DEADLINE=26 \
    GPU_REPORT_RESERVE=20 report "$T/cut"
four "$T/cut"
grep -q "^| figures | cut at the report's deadline after [0-9]* s |" "$BASE.md" ||
    fail "the hung step was not cut at the deadline: $(grep '^| figures' "$BASE.md")"
grep -q "^| lessons | skipped: past the report's deadline |" "$BASE.md" ||
    fail "the step past the deadline was not skipped: $(grep '^| lessons' "$BASE.md")"
grep -q 'Not reached or not recorded: 1.1 2.1\.' "$BASE.md" || fail "the lessons not reached are not named"
json "$BASE.json" 'assert steps["figures"].startswith("cut at the"), steps'
[ $rc = 1 ] || fail "a cut report exited $rc"

# TERM during a step: the step is stopped, the summary written from what there is
PATH="$T/gpu:$PATH" GPU_REPORT_SIMULATE=h200 GPU_REPORT_PREBUILT=1 GPU_REPORT_LESSONS="1.1" \
    GPU_REPORT_STEPS="preflight figures lessons" GPU_REPORT_FAULT_HANG=figures \
    sh tests/gpu/report.sh "$build" "$T/term" >"$T/report.out" 2>&1 &
pid=$!
n=300 # until the hung step runs (its log exists), 30 s at most
while [ $n -gt 0 ] && ! ls "$T"/tmp/vramlab-gpu-report.*/logs/figures.log >/dev/null 2>&1; do sleep 0.1; n=$((n - 1)); done
[ $n -gt 0 ] || fail "the hung step never started: $(cat "$T/report.out")"
kill -TERM "$pid" || fail "the report ended before it was stopped: $(cat "$T/report.out")"
wait "$pid"
rc=$?
four "$T/term"
grep -q '^\*\*Stopped (a signal)' "$BASE.md" || fail "a stopped report does not say so: $(head -n 5 "$BASE.md")"
grep -q "^| figures | cut: the report was stopped (a signal) |" "$BASE.md" || fail "the running step: $(grep '^| figures' "$BASE.md")"
grep -q "^| preflight | ok |" "$BASE.md" || fail "the step before: $(grep '^| preflight' "$BASE.md")"
[ $rc = 1 ] || fail "a stopped report exited $rc"
echo "ok: no GPU, one line; on a stand-in device four files, a hung step cut at the deadline, a TERM answered with the summary"
