#!/bin/sh
# Units by kind in answers: a size, rate, time or plain count is read and converted to the
# exercise's unit when it is of the same kind; an answer of another kind is refused with a message
# naming the expected kind (exit 2, on stderr: not graded, not a try), in English and Chinese;
# the exercise's own unit word ("3 x", "120 tok/s") is read; the "e.g." uses the exercise's unit.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
ex() { printf '  exercise { id = "%s", kind = "number", prompt = { en = "p", zh = "p" }, answer = %s, unit = "%s",\n    hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } },\n' "$@"; }
{ printf 'return lesson { id = "9.1", chapter = 9, title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },\n  text { en = "t", zh = "t" },\n'
  ex ms 2 ms; ex us 3 us; ex gbs 900 GB/s; ex gib 13.04 GiB; ex x 3 x; ex tok 120 tok/s
  printf '  exercise { id = "n", kind = "number", prompt = { en = "p", zh = "p" }, answer = 7,\n    hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } },\n}\n'
} > "$d/k.lua"
g() { "$b" --backend sim --deterministic --seed 1 --lang "$1" grade "$d/k.lua" "$2" "$3"; }
right() { out=$(g en "$1" "$2" 2>&1) || fail "$1 '$2' not right: $out"; }
refused() { # LANG EX ANSWER EXPECTED
    out=$(g "$1" "$2" "$3" 2>"$d/err"); rc=$?
    [ $rc -eq 2 ] || fail "$2 '$3': exit $rc, want 2 (refused): $out $(cat "$d/err")"
    grep -qF "$4" "$d/err" || fail "$2 '$3' ($1): want '$4' in: $(cat "$d/err")"
}
right ms 2; right ms "2 ms"; right ms "0.002 s"; right ms "2000 us"; right ms "2000000ns"
right us "3 µs"; right us "3 μs"; right us "3000 ns"
right gbs "900 GB/s"; right gbs "0.9 TB/s"; right gbs "838.2 GiB/s"
right gib "14 GB"; right gib "13.04 GiB"; right x "3 x"; right x 3; right tok "120 tok/s"; right n 7
refused en ms "85.9 GB" "This answer is a time (ms); 85.9 GB is a size."
refused zh ms "85.9 GB" "这道题的答案是时间（ms）；85.9 GB 是大小。"
refused en gib "936 GB/s" "This answer is a size (GiB); 936 GB/s is a rate."
refused en gbs "3 ms" "This answer is a rate (GB/s); 3 ms is a time."
refused en x "3 GiB" "This answer is a plain number (x); 3 GiB is a size."
refused en n "7 ms" "This answer is a plain number; 7 ms is a time."
refused en ms "soon" "Type a number (ms), e.g. 12 or 12 ms."
refused zh gbs "快" "请输入一个数字（GB/s），例如 12 或 12 GB/s。"
refused en n "lots" "Type a number, e.g. 12."
# a wrong answer of the right kind is graded (a try), not refused
out=$(g en ms "3 ms" 2>&1); [ $? -eq 1 ] || fail "3 ms for 2 ms: $out"
echo ok
