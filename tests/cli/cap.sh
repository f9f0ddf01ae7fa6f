#!/bin/sh
# --cap bounds what a lesson holds on the device in all, not each allocation: with 0.9, three
# buffers of 40 % of the memory free at the start do not all fit (each alone would: 40 % < 90 % of
# what is free then); with a size (--cap 1GiB, VRAMLAB_CAP), the total is bounded by it, said
# with its own words in en and zh; freeing gives the room back; a bad --cap is a usage error.
# A teacher's course.lua `cap` is tested with the course (tests/cli/course.sh).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/three.lua" <<'L'
local share = gpu.budget() * 0.4 // 1
local held = {}
for i = 1, 3 do
  local buf, err = gpu.alloc(share)
  print(i, buf ~= nil, err or "")
  held[i] = buf
end
held[1]:free()
print("again", gpu.alloc(share) ~= nil)
L
out=$("$b" --backend sim eval "$d/three.lua" 2>&1) || fail "eval: $out"
printf '%s\n' "$out" | grep -q "^1	true" || fail "first 40 %: $out"
printf '%s\n' "$out" | grep -q "^2	true" || fail "second 40 %: $out"
printf '%s\n' "$out" | grep -q "^3	false	.* requested, but experiments may take at most 90% of free memory in all, what they hold included" ||
    fail "third 40 % (120 % of the cap's base) was not refused: $out"
printf '%s\n' "$out" | grep -q "^again	true" || fail "a freed buffer's room did not come back: $out"
# a size: two 600 MiB buffers under 1 GiB
cat > "$d/size.lua" <<'L'
local a = assert(gpu.alloc("600MiB"))
local b, err = gpu.alloc("600MiB")
print(b ~= nil, err)
L
out=$("$b" --backend sim --cap 1GiB eval "$d/size.lua" 2>&1) || fail "eval --cap 1GiB: $out"
case $out in "false	600 MiB requested, but experiments may hold at most 1 GiB of device memory in all (--cap; 424 MiB left)") ;;
*) fail "--cap 1GiB: $out" ;; esac
out=$(VRAMLAB_CAP=1GiB "$b" --backend sim --lang zh eval "$d/size.lua" 2>&1) || fail "VRAMLAB_CAP=1GiB: $out"
case $out in "false	申请 600 MiB，但实验总共最多只能占用 1 GiB 显存（--cap；还剩 424 MiB）") ;; *) fail "zh: $out" ;; esac
out=$("$b" --backend sim --cap 1GiB info 2>&1) || fail "info: $out"
printf '%s\n' "$out" | grep -q "Experiment cap *90% of the device memory free to a lesson, at most 1 GiB, in all (--cap)" || fail "info: $out"
# usage errors
for bad in 0 1.5 10KiB 1.3B abc; do
    out=$("$b" --backend sim --cap "$bad" info 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "--cap $bad: exit $rc: $out"
    case $out in *"--cap (what a lesson may hold in all"*) ;; *) fail "--cap $bad: $out" ;; esac
done
echo ok
