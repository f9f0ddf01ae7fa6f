#!/bin/sh
# feed_lessons.sh BUILD - chapter 6's experiments where the default run does not take them: a GPU
# on PCIe 3.0 with three copy engines (T4) and one on PCIe 5.0 (H100), a device with 100 MiB free
# (every size comes down to fit: 6.3's ballast leaves a few MiB and still oversubscribes) and
# copies and kernels that spoil their output (VRAMLAB_FAULT_CORRUPT: every figure but pinning's
# cost is refused with "validation failed", the lesson goes on). Every run exits 0. (lessons.sh
# runs them on the default profile in both languages; tests/lua/lessons_ch06.lua checks the
# figures the texts state.)
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
vl() { "$b" --backend sim --deterministic --seed 1 "$@" </dev/null; }
ids="6.1 6.2 6.3 6.4"
for p in t4 h100-sxm; do
    for id in $ids; do
        vl --profile $p --lang en run "$id" >"$d/$p-$id" 2>&1 || fail "run $id --profile $p exited $?: $(tail -n 5 "$d/$p-$id")"
    done
done
# the link: PCIe 3.0 x16 and 5.0 x16 after encoding; pageable below pinned
grep -q 'the link: 15.75 GB/s per direction' "$d/t4-6.1" || fail "T4, 6.1: the link: $(grep 'the link' "$d/t4-6.1")"
grep -q 'the link: 63.02 GB/s per direction' "$d/h100-sxm-6.1" || fail "H100, 6.1: the link: $(grep 'the link' "$d/h100-sxm-6.1")"
# three streams near the estimate's 2.4x on either link; pageable never overlaps
for p in t4 h100-sxm; do
    s=$(sed -n 's/^  \[t\] 3 streams | [^|]* | \([0-9.]*\)x |.*/\1/p' "$d/$p-6.2")
    case $s in 2.3[0-9] | 2.40) ;; *) fail "$p, 6.2: three streams at ${s:-nothing}x: $(grep streams "$d/$p-6.2" | tail -n 4)" ;; esac
    grep -q '^  \[t\] 2 streams, pageable | [^|]* | 0\.[0-9]*x | no$' "$d/$p-6.2" || fail "$p, 6.2: pageable: $(grep pageable "$d/$p-6.2")"
    grep -q 'no event | validation failed: operations .* used the same bytes at the same time' "$d/$p-6.2" || fail "$p, 6.2: the race not caught"
done
grep -q 'ballast .* leaves 7.87 GiB; managed 11.81 GiB (1.50x the room)' "$d/h100-sxm-6.3" || fail "H100, 6.3: $(grep ballast "$d/h100-sxm-6.3")"
grep -q 'breaks even at 1\.[0-9]* passes' "$d/t4-6.4" || fail "T4, 6.4: $(grep 'breaks even' "$d/t4-6.4")"
# 100 MiB free: every experiment sizes itself to fit
free=$(vl info --json | sed -n 's/.*"free_bytes": *\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$free" ] || fail "no free_bytes in info --json"
other=$((free - 100 * 1024 * 1024))
for id in $ids; do
    VRAMLAB_SIM_OTHER_BYTES=$other vl --lang en run "$id" >"$d/small-$id" 2>&1 ||
        fail "run $id with 100 MiB free exited $?: $(tail -n 5 "$d/small-$id")"
    # (6.2's program without its event fails on purpose: the race is caught)
    ! grep -v '^  \[t\] no event | ' "$d/small-$id" | grep -q 'needs .* of device memory\|validation failed\|failed$' ||
        fail "$id with 100 MiB free: $(grep 'needs\|failed' "$d/small-$id")"
done
grep -q 'MiB per copy; the link' "$d/small-6.1" || fail "6.1 with 100 MiB free: $(grep 'per copy' "$d/small-6.1")"
grep -q 'managed 15 MiB (1.50x the room)' "$d/small-6.3" || fail "6.3 with 100 MiB free: $(grep ballast "$d/small-6.3")"
# copies that move nothing and kernels that spoil their output: no figure, the reason beside the
# panel, every lesson goes on
for id in $ids; do
    VRAMLAB_FAULT_CORRUPT=1 vl --lang en run "$id" >"$d/corrupt-$id" 2>&1 || fail "$id with corrupting kernels exited $?: $(tail -n 5 "$d/corrupt-$id")"
    grep -q 'validation failed' "$d/corrupt-$id" || fail "$id, corrupt: no validation failure: $(grep note "$d/corrupt-$id")"
    ! grep -v '^  \[cost\] ' "$d/corrupt-$id" | grep -q '(SIMULATED)$' || fail "$id, corrupt: a figure was reported: $(grep SIMULATED "$d/corrupt-$id" | head -n 3)"
done
grep -q '^  \[even\] note: validation failed' "$d/corrupt-6.1" || fail "6.1, corrupt: the break-even's copies not refused"
grep -q 'record + wait | validation failed' "$d/corrupt-6.2" || fail "6.2, corrupt: the event's program not refused"
grep -q 'operation 2 (a read of buffer m) found' "$d/corrupt-6.3" || fail "6.3, corrupt: $(grep note "$d/corrupt-6.3")"
grep -q '^  \[gain\] note: validation failed' "$d/corrupt-6.4" || fail "6.4, corrupt: the loop not refused"
echo "ok: chapter 6 on a T4 and an H100, with 100 MiB free, and with corrupting copies and kernels"
