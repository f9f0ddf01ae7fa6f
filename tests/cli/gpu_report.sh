#!/bin/sh
# gpu_report.sh BUILD - `make gpu-report` on a machine without a GPU says so, exits 0 and writes
# nothing (no figure is made up); and the report's summary renders every section, as Markdown and
# as valid JSON, from figures made here by the simulator (a summary of simulated figures must say
# SIMULATED at its top). Runs the same on a GPU machine: nvidia-smi is replaced by one that finds
# no GPU.
build=${1:-build}
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin"

# make gpu-report is this script (not run through make here: make would rewrite BUILD's stamp)
grep -A1 '^gpu-report:' Makefile | grep -q 'sh tests/gpu/report.sh \$(BUILD)' ||
    fail "make gpu-report does not run tests/gpu/report.sh"
for how in "exit 6" "exit 0"; do # nvidia-smi failing, and nvidia-smi listing nothing
    printf '#!/bin/sh\necho "No devices were found"\n%s\n' "$how" >"$T/bin/nvidia-smi"
    chmod +x "$T/bin/nvidia-smi"
    out=$(PATH="$T/bin:$PATH" OUT="$T/out" sh tests/gpu/report.sh "$build" 2>&1) ||
        fail "make gpu-report without a GPU exited non-zero: $out"
    echo "$out" | grep -q "no NVIDIA GPU on this machine" || fail "no message: $out"
    echo "$out" | grep -q "no report was written" || fail "does not say nothing was written: $out"
    [ ! -e "$T/out" ] || fail "wrote $(ls -R "$T/out" | head -n 5) without a GPU"
done

# the summary, from simulated figures
mkdir -p "$T/logs"
{ echo 'ALLOW_SIMULATED = true'; cat tests/gpu/report.lua; } >"$T/r.lua"
"$build/vramlab" --backend sim --profile h200 --deterministic eval "$T/r.lua" >"$T/logs/figures.log" 2>&1 ||
    fail "report.lua on the simulator: $(tail -n 3 "$T/logs/figures.log")"
printf 'build\tok\t1\nfigures\tok\t2\nlesson-3.3\ttimed out after 60 s\t60\n' >"$T/logs/steps.tsv"
echo "12 passed, 0 failed" >"$T/logs/test-gpu.log"
sh tests/gpu/summary.sh "$T/logs" "$T/x" "NVIDIA H200" 2026-01-01 || fail "summary.sh exited $?"
md="$T/x.md"
head -n 3 "$md" | grep -q "^\*\*SIMULATED" || fail "a simulated summary without its banner: $(head -n 3 "$md")"
for want in '^| D2D copy engine (cudaMemcpy) | 1024 MiB | .* | 2n | .* | yes |$' \
    '^| D2D SM copy kernel | 1024 MiB | .* | 2n |' '^| H2D pageable | 256 MiB |' \
    '^| STREAM dot | 1024 MiB | .* | STREAM |' '^| lesson-3.3 | timed out after 60 s | 60 |$' \
    '^- L1: 4 KiB to ' '^- L2: ' '^- DRAM: ' '^12 passed, 0 failed$' 'published figure.*profile h200'; do
    grep -q -- "$want" "$md" || fail "summary lacks /$want/"
done
grep -q 'L3' "$md" && fail "a GPU plateau named L3"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = d["figures"]
assert f["simulated"] is True and f["d2d_ce_validated"] is True, "flags are JSON booleans"
assert isinstance(f["d2d_sm_rw_bytes_per_s"], float), "figures are JSON numbers"
assert d["steps"][2]["status"] == "timed out after 60 s"' "$T/x.json" || fail "summary JSON"
fi
echo "ok: no GPU, no report; the summary renders every section"
