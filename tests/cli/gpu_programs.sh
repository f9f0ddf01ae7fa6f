#!/bin/sh
# gpu_programs.sh BUILD - the GPU checks' own programs (tests/gpu/copy_offsets.cu against the
# kernels' object, the bandwidthTest-style reference) compile wherever the CUDA backend does, so
# make test-gpu on a GPU machine never meets a build error first.
# Not in the ASan pass: nvcc builds the GPU test programs; the ASan build has no CUDA backend.
build=${1:-build}
grep -q nvcc "$build/.config" 2>/dev/null || { echo "SKIP: this build has no CUDA backend"; exit 77; }
out=$(make --no-print-directory BUILD="$build" gpu-tests 2>&1) || { echo "FAIL: make gpu-tests: $out"; exit 1; }
for p in gpu_copy_offsets ref_bandwidth; do
    [ -x "$build/tests/$p" ] || { echo "FAIL: $build/tests/$p was not built"; exit 1; }
done
echo "ok: the GPU test programs build"
