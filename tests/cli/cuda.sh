#!/bin/sh
# The CUDA backend is compiled in whenever nvcc exists, and without a driver or device it says
# why and vramlab falls back to the simulator.
# Not in the ASan pass: the CUDA backend, which the ASan build (CUDA=0) does not have.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -z "$nvcc" ]; then
    v=$("$b" --version) || fail "--version exit $?"
    echo "$v" | grep -q "backends: sim" || fail "no nvcc, yet not sim-only"
    echo "SKIP: nvcc not installed: the CUDA backend is not built here"; exit 77
fi
grep -q nvcc "$1/.config" 2>/dev/null || { echo "SKIP: this build was made with CUDA=0"; exit 77; }
v=$("$b" --version) || fail "--version exit $?"
echo "$v" | grep -q "backends: cuda sim" || fail "nvcc present but cuda not compiled in"
if nvidia-smi -L >/dev/null 2>&1; then echo "SKIP: a GPU is present; tests/gpu covers it"; exit 77; fi
out=$("$b" --backend cuda info 2>&1); [ $? -eq 3 ] || fail "forced cuda without a GPU: exit"
echo "$out" | grep -Eq "cuda: .*(error [0-9]+|driver)" || fail "no reason: $out"
out=$("$b" info 2>&1) || fail "auto did not fall back"
echo "$out" | grep -q "SIMULATED" || fail "fallback not labelled SIMULATED"
echo "$out" | grep -Eq "no GPU found: cuda: " || fail "fallback reason not shown: $out"
exit 0
