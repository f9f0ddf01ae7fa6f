#!/bin/sh
# access_lessons.sh BUILD - chapter 7's experiments where the default run does not take them: a
# GPU without an L2 set-aside (T4: 7.2's window is not set, and the lesson says so, in both
# languages), a GPU whose TLB and L2 figures differ (H100), a device with 100 MiB free (every
# size comes down to fit, the transpose to 2048 x 2048) and kernels that spoil their output
# (VRAMLAB_FAULT_CORRUPT: the figure is refused with "validation failed", the lesson goes on).
# Every run exits 0. (lessons.sh runs them on the default profile in both languages,
# gpu_failed.sh with the GPU full.)
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
vl() { "$b" --backend sim --deterministic --seed 1 "$@" </dev/null; }
ids="7.1 7.2 7.3 7.4 7.5"
for p in t4 h100-sxm; do
    for id in $ids; do
        vl --profile $p --lang en run "$id" >"$d/$p-$id" 2>&1 || fail "run $id --profile $p exited $?: $(tail -n 5 "$d/$p-$id")"
    done
done
grep -q 'no L2 set-aside .*the window was not set' "$d/t4-7.2" || fail "T4, 7.2: no note that the window was not set: $(grep note "$d/t4-7.2")"
grep -q '^  \[t\] window on the hot array | no | 0 B |' "$d/t4-7.2" || fail "T4, 7.2: the window's row: $(grep window "$d/t4-7.2")"
grep -q '^  \[bw\] note: With the window: [0-9.]*x\.$' "$d/h100-sxm-7.2" || fail "H100, 7.2: $(grep note "$d/h100-sxm-7.2")"
grep -q 'The next follows 8 GiB' "$d/h100-sxm-7.4" || fail "H100 (80 GiB), 7.4: the second TLB level not found: $(grep note "$d/h100-sxm-7.4")"
grep -q 'No second step up to 8 GiB' "$d/t4-7.4" || fail "T4 (15 GiB), 7.4: $(grep note "$d/t4-7.4")"
grep -q 'lanes x 2 x 1582 MHz' "$d/t4-7.5" || fail "T4, 7.5: the clock its FP32 figure implies: $(grep note "$d/t4-7.5")"
# an L2 as large as the reads (RTX 4090: 72 MB; H100: 50 MB): every stride and the particles'
# arrays still read from DRAM (spans of at least 4x the L2), so stride 1 / stride 32 is the
# sectors' 8x, stride 1 stays under the DRAM peak, and the arrays under the roof
for id in 7.1 7.5; do
    vl --profile rtx4090 --lang en run "$id" >"$d/rtx4090-$id" 2>&1 || fail "run $id --profile rtx4090 exited $?"
done
for f in "$d/rtx4090-7.1" "$d/h100-sxm-7.1"; do
    r=$(sed -n 's/.*Stride 1 \/ stride 32: \([0-9.]*\)x.*/\1/p' "$f")
    awk -v r="$r" 'BEGIN { exit !(r >= 7 && r <= 8.5) }' || fail "$f: stride 1 / stride 32 = ${r}x, not the sectors' 8x"
done
grep -q '^  \[t\] stride 1 | 4 | 1.00 B | 9[0-9][0-9].[0-9] GB/s$' "$d/rtx4090-7.1" || fail "RTX 4090, 7.1: stride 1 past the 1008 GB/s DRAM peak: $(grep 'stride 1 ' "$d/rtx4090-7.1")"
grep -q '^  \[t\] stride 1 | 4 | 1.00 B | 2.[0-9]* TB/s$' "$d/h100-sxm-7.1" || fail "H100, 7.1: stride 1 past the 3.35 TB/s DRAM peak: $(grep 'stride 1 ' "$d/h100-sxm-7.1")"
pct=$(sed -n 's/^  \[t\] particles, arrays | .* | \([0-9]*\) % | memory$/\1/p' "$d/rtx4090-7.5")
[ -n "$pct" ] && [ "$pct" -le 100 ] || fail "RTX 4090, 7.5: the arrays at ${pct} % of the DRAM roof"
# the L2's plateau is the profile's 2.5x DRAM, not halved by each launch's fixed cost
r=$(sed -n 's/.*Smallest set \/ largest: \([0-9.]*\)x.*/\1/p' "$d/h100-sxm-7.2")
awk -v r="$r" 'BEGIN { exit !(r >= 2) }' || fail "H100, 7.2: the L2 plateau only ${r}x DRAM's"
if [ "$VRAMLAB_TEST_TAG" != asan ]; then # the Chinese text only: the same C paths as the English run
    vl --profile t4 --lang zh run 7.2 >"$d/t4-7.2.zh" 2>&1 || fail "run 7.2 --profile t4 --lang zh exited $?"
    grep -q '窗口没有设上' "$d/t4-7.2.zh" || fail "T4, 7.2, zh: $(grep 注 "$d/t4-7.2.zh")"
    left=$(python3 tests/cli/zh_english.py "$d/t4-7.2.zh") || fail "English left in 中文: $left"
fi
# 100 MiB free: every experiment sizes itself to fit
free=$(vl info --json | sed -n 's/.*"free_bytes": *\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$free" ] || fail "no free_bytes in info --json"
other=$((free - 100 * 1024 * 1024))
for id in $ids; do
    VRAMLAB_SIM_OTHER_BYTES=$other vl --lang en run "$id" >"$d/small-$id" 2>&1 ||
        fail "run $id with 100 MiB free exited $?: $(tail -n 5 "$d/small-$id")"
    ! grep -q 'needs .* of device memory' "$d/small-$id" || fail "$id with 100 MiB free: a size past the cap: $(grep needs "$d/small-$id")"
done
grep -q '2048 x 2048 matrix, 16 MiB each way' "$d/small-7.3" || fail "7.3 with 100 MiB free: $(grep matrix "$d/small-7.3")"
grep -q '2.25 MiB read per stride' "$d/small-7.1" || fail "7.1 with 100 MiB free: $(grep 'per stride' "$d/small-7.1")"
# a kernel that spoils its output: no figure, the reason beside the panel, the lesson goes on
VRAMLAB_FAULT_CORRUPT=1 vl --lang en run 7.1 >"$d/corrupt" 2>&1 || fail "7.1 with corrupting kernels exited $?: $(tail -n 5 "$d/corrupt")"
grep -q 'validation failed: the kernel read a sum of' "$d/corrupt" || fail "7.1, corrupt: no validation failure: $(grep note "$d/corrupt")"
grep -q 'validation failed: .* elements of the aos kernel' "$d/corrupt" || fail "7.1, corrupt: the layout's output not checked: $(grep note "$d/corrupt")"
! grep -q '(SIMULATED)$' "$d/corrupt" || fail "7.1, corrupt: a figure was reported: $(grep SIMULATED "$d/corrupt" | head -n 3)"
echo "ok: chapter 7 on a T4 and an H100, with 100 MiB free, and with corrupting kernels"
