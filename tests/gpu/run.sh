#!/bin/sh
# tests/gpu/run.sh BUILD - checks that need a real NVIDIA GPU (make test-gpu): the cuda backend's
# device facts and --device, the kernels byte for byte (copy_offsets), the copy engine against a
# bandwidthTest-style reference measured in the same run, and the Lua checks beside this file
# (bandwidth, STREAM, latency, small transfers, allocation), all through the vramlab CLI. Without
# a GPU it prints SKIP and succeeds. Ends with "N passed, M failed", like tests/run.sh.
# GPU_FIGURES=FILE (make gpu-report): the report's figures (tests/gpu/report.lua's lines, with the
# reference's as ref_*): the checks judge those instead of measuring the same things again.
build=${1:-build}
[ -f "$build" ] && build=$(dirname "$build") # the old form: the binary's path
bin="$build/vramlab"
here=$(dirname "$0")

skip() {
    echo "SKIP: no NVIDIA GPU present ($1)"
    exit 0
}
command -v nvidia-smi >/dev/null 2>&1 || skip "nvidia-smi not found"
list=$(nvidia-smi -L 2>&1) || skip "nvidia-smi -L failed: $(printf '%s\n' "$list" | head -n 1)"
printf '%s\n' "$list" | grep -q '^GPU [0-9]' || skip "nvidia-smi -L lists no GPU"
case "${CUDA_VISIBLE_DEVICES-unset}" in
"" | -1 | none | NoDevFiles) skip "CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' hides every GPU" ;;
esac
if [ ! -x "$bin" ]; then
    echo "FAIL: $bin is not built (run make)"
    echo "0 passed, 1 failed"
    exit 1
fi
printf '%s\n' "$list" | sed 's/^/# /'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The figures as a Lua table and tests/gpu/figures.lua's readers, on one line (ahead of each
# check's first line, a comment, so its line numbers stay); empty without GPU_FIGURES.
: >"$tmp/prelude"
if [ -n "$GPU_FIGURES" ] && [ -s "$GPU_FIGURES" ]; then
    {
        awk -F'\t' 'BEGIN { printf "FIGURES = { " }
            NF >= 2 && $1 ~ /^[a-z][a-z0-9_]*$/ {
                v = $2
                if (v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || v == "true" || v == "false") printf "%s = %s, ", $1, v
                else { gsub(/\\/, "\\\\", v); gsub(/"/, "\\\"", v); printf "%s = \"%s\", ", $1, v }
            }
            END { printf "} " }' "$GPU_FIGURES"
        grep -v '^--' "$here/figures.lua" | tr '\n' ' '
    } >"$tmp/prelude"
fi

pass=0
fail=0
indent() { printf '%s\n' "$1" | sed 's/^/    /'; }
ok() {
    pass=$((pass + 1))
    echo "PASS: $1"
    [ -n "$2" ] && indent "$2"
}
ko() {
    fail=$((fail + 1))
    echo "FAIL: $1"
    [ -n "$2" ] && indent "$2"
}

# Device facts as JSON: the real backend opened, nothing labelled SIMULATED.
if out=$("$bin" --backend cuda info --json 2>&1); then
    bad=""
    has() { printf '%s' "$out" | grep -Eq "$1"; }
    has '"backend"[[:space:]]*:[[:space:]]*"cuda"' || bad="$bad; \"backend\" is not \"cuda\""
    has '"simulated"[[:space:]]*:[[:space:]]*false' || bad="$bad; \"simulated\" is not false"
    has '"device"[[:space:]]*:[[:space:]]*0' || bad="$bad; \"device\" is not 0"
    for k in name total_bytes free_bytes peak_bytes_per_s published_bytes_per_s sm_count driver mig l1_bytes; do
        has "\"$k\"[[:space:]]*:" || bad="$bad; no \"$k\""
    done
    if command -v python3 >/dev/null 2>&1 &&
        ! printf '%s' "$out" | python3 -c 'import json, sys; json.load(sys.stdin)' 2>/dev/null; then
        bad="$bad; not one valid JSON object"
    fi
    if [ -z "$bad" ]; then ok "info --json" "$out"; else ko "info --json:${bad#;}" "$out"; fi
else
    ko "info --json exited with status $?" "$out"
fi

# --device: the ordinal opened is the one asked for; one past the last is refused, with the count.
n=$(printf '%s\n' "$list" | grep -c '^GPU [0-9]')
case "${CUDA_VISIBLE_DEVICES-unset}" in unset) ;; *) n=$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .) ;; esac
last=$((n - 1))
out=$("$bin" --backend cuda --device "$last" info 2>&1)
if printf '%s' "$out" | grep -q "^Device: CUDA device $last · "; then
    ok "--device $last opens device $last"
else
    ko "--device $last" "$out"
fi
out=$(VRAMLAB_DEVICE=$n "$bin" --backend cuda info 2>&1)
rc=$?
if [ $rc -eq 3 ] && printf '%s' "$out" | grep -q "CUDA device $n requested, but only $n visible"; then
    ok "VRAMLAB_DEVICE=$n (one past the last) refused"
else
    ko "VRAMLAB_DEVICE=$n: exit $rc" "$out"
fi

# The kernels byte for byte: every alignment of the SM copy, the validation kernels.
if [ -x "$build/tests/gpu_copy_offsets" ]; then
    if out=$("$build/tests/gpu_copy_offsets" 2>&1); then ok "kernels at every alignment" "$(printf '%s\n' "$out" | tail -n 2)"
    else ko "kernels at every alignment" "$out"; fi
else
    ko "$build/tests/gpu_copy_offsets is not built (make gpu-tests)"
fi

# The copy engine against the bandwidthTest-style reference (same recipe, separate process): the
# ratio, not the DRAM peak, is what a copy engine can be held to. Under make gpu-report both
# figures come from the report (ref_d2d_rw_bytes_per_s and d2d_ce), measured once there.
fig() { [ -n "$GPU_FIGURES" ] && awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$GPU_FIGURES"; }
r=$(fig ref_d2d_rw_bytes_per_s)
ours=$(fig d2d_ce_rw_bytes_per_s)
[ -n "$r" ] || ours=""
if [ -z "$r" ] && [ -x "$build/tests/ref_bandwidth" ] && ref=$("$build/tests/ref_bandwidth" 2>&1); then
    r=$(printf '%s\n' "$ref" | awk '$1 == "d2d_rw_bytes_per_s" { print $2 }')
fi
if [ -n "$r" ]; then
    if [ -n "$ours" ]; then
        measure="{ rw_bytes_per_s = $ours, validated = FIGURES.d2d_ce_validated == true }"
    else
        measure='assert(gpu.copy { dir = "d2d", method = "ce", bytes = 2^30, trials = 10 })'
    fi
    cat >"$tmp/ce.lua" <<EOF
local ref = $r
local i = gpu.info()
local r = $measure
assert(r.validated, "the copy was not validated")
local ratio = r.rw_bytes_per_s / ref
print(string.format("CE D2D 1 GiB: %.0f GB/s (2n/t) vs reference %.0f GB/s: ratio %.3f; "
  .. "%.1f %% of the attribute peak, %s of the published figure", r.rw_bytes_per_s / 1e9,
  ref / 1e9, ratio, 100 * r.rw_bytes_per_s / i.peak_bytes_per_s,
  i.published_bytes_per_s and string.format("%.1f %%", 100 * r.rw_bytes_per_s / i.published_bytes_per_s) or "n/a"))
assert(ratio >= 0.90, "the copy engine through vramlab is slower than the same copies in the reference")
EOF
    { cat "$tmp/prelude"; echo; cat "$tmp/ce.lua"; } >"$tmp/ce-ref.lua"
    if out=$("$bin" --backend cuda eval "$tmp/ce-ref.lua" 2>&1); then ok "ce-vs-reference" "$out"
    else ko "ce-vs-reference" "$out"; fi
else
    ko "the bandwidthTest-style reference did not run" "${ref:-$build/tests/ref_bandwidth is not built (make gpu-tests)}"
fi

# Lua checks, one file each, through the documented lesson API; a failed assert fails eval.
for f in "$here"/*.lua; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .lua)
    case $name in bench | report | figures) continue ;; esac # figures and their readers, not checks
    { cat "$tmp/prelude"; cat "$f"; } >"$tmp/$name.lua"
    if out=$("$bin" --backend cuda eval "$tmp/$name.lua" 2>&1); then
        ok "$name" "$out"
    else
        ko "$name (exit status $?)" "$out"
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
