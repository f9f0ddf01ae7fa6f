#!/bin/sh
# tests/gpu/run.sh BIN - checks that need a real NVIDIA GPU (make test-gpu): the cuda backend's
# device facts, allocation accounting and bandwidth against the theoretical peak, through the
# vramlab CLI (`info --json`, `eval FILE.lua` with the lesson API). Without a GPU it prints SKIP
# and succeeds. Ends with "N passed, M failed", like tests/run.sh.
bin=${1:-build/vramlab}
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
    for k in name total_bytes free_bytes peak_bytes_per_s sm_count driver; do
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

# Lua checks, one file each, through the documented lesson API; a failed assert fails eval.
for f in "$here"/*.lua; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .lua)
    if out=$("$bin" --backend cuda eval "$f" 2>&1); then
        ok "$name" "$out"
    else
        ko "$name (exit status $?)" "$out"
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
