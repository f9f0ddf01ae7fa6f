#!/bin/sh
# bench.sh BUILD - the benchmarks: ratios against references measured in the same run. On a
# machine with an NVIDIA GPU the device benchmarks run too (tests/gpu/bench.sh).
build=${1:-build}
echo "# vramlab benchmarks, $(date -u +%Y-%m-%d), $(uname -m), $(nproc) CPUs"
"$build/tests/bench_host" "$2" || exit 1
# the host STREAM kernels against a reimplementation of McCalpin's stream.c (docs/benchmarks.md)
if [ -x "$build/tests/bench_stream" ]; then "$build/tests/bench_stream" --paired 100 "$2" || exit 1; fi
# vramlab list, and every lesson's wait for its first result, total and memory, on the real program
if [ -x "$build/tests/bench_lessons" ]; then sh tests/bench/bench_lessons.sh "$build" || exit 1; fi
# the allocator-trace replay (built by the Makefile's bench_alloc rule)
if [ -x "$build/tests/bench_alloc" ]; then "$build/tests/bench_alloc" "$2" || exit 1; fi
# reading a PyTorch memory snapshot of a million trace entries, against Python's pickle.load
if [ -x "$build/tests/bench_snapshot" ]; then sh tests/bench/bench_snapshot.sh "$build" || exit 1; fi
# the chapter 4 and 5 estimators, in the sandbox a lesson runs in (the whole file, best of 3 of
# each, is more work than the 200 million instructions one lesson call may take)
VRAMLAB_LIMITS=instructions=1e10,seconds=300 \
    "$build/vramlab" --backend sim --deterministic --seed 1 eval tests/bench/bench_models.lua || exit 1
sh tests/bench/bench_tui.sh "$build"
# the snapshot screen on a million trace entries: keys while the worker loads, cursor moves
sh tests/bench/bench_snapview.sh "$build"
if nvidia-smi -L >/dev/null 2>&1 && [ -f tests/gpu/bench.sh ]; then
    sh tests/gpu/bench.sh "$build"
else
    echo "# no NVIDIA GPU here: device benchmarks skipped (tests/gpu/bench.sh runs them on a GPU)"
fi
