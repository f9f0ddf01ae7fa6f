#!/bin/sh
# Grading that teaches: the exact feedback a learner sees, in English and in Chinese, through the
# real `vramlab grade`, for answers written the way engineers write them. A number with a unit
# is converted (bits are not bytes: 912 Gb/s is 114 GB/s, and 7296.768 Gb/s is 912 GB/s); a
# wrong one says what its unit or its bare number probably was (GB for GiB and by how much, bits
# for bytes, the answer in bytes, the fraction for a percentage and back); 37.44x, full-width
# digits, 1,024 and 1.5e9 are read; text that reads two ways (gb/s, 24G, 1,5) gets a one-line
# question and is not a try (exit 2).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/g.lua" <<'L'
return lesson {
  id = "9.1", chapter = 9,
  title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },
  exercise { id = "gib", kind = "number", prompt = { en = "p", zh = "p" }, answer = 24, unit = "GiB", tolerance = 0.02,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  exercise { id = "pct", kind = "number", prompt = { en = "p", zh = "p" }, answer = 85, unit = "%", tolerance = 0.02,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  exercise { id = "frac", kind = "number", prompt = { en = "p", zh = "p" }, answer = 0.85, tolerance = 0.02,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  exercise { id = "rate", kind = "number", prompt = { en = "p", zh = "p" }, answer = 912.096, unit = "GB/s", tolerance = 0.01,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  exercise { id = "ratio", kind = "number", prompt = { en = "p", zh = "p" }, answer = 37.44, tolerance = 0.03,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  exercise { id = "tok", kind = "number", prompt = { en = "p", zh = "p" }, answer = 1024, unit = "tokens", tolerance = 0.001,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  exercise { id = "size", kind = "number", prompt = { en = "p", zh = "p" }, answer = 0.5285, unit = "GiB", tolerance = 0.03,
    hints = { { en = "Hint.", zh = "提示。" } }, explain = { en = "E.", zh = "解。" } },
  text { en = "> [!source] Sources\n> - none", zh = "> [!source] 出处\n> - 无" },
}
L
# EXERCISE ANSWER RC EN ZH: the exit code and the whole feedback in each language
g() {
    for l in en zh; do
        want=$4; [ $l = zh ] && want=$5
        out=$("$b" --backend sim --deterministic --lang $l grade "$d/g.lua" "$1" "$2" 2>&1); rc=$?
        [ $rc -eq "$3" ] || fail "$1 '$2' ($l): exit $rc, want $3: $out"
        [ "$out" = "$want" ] || fail "$1 '$2' ($l):
  got:  $out
  want: $want"
    done
}
R="Right. E."; RZ="答对了。解。"
# a size: GB for GiB says by how much; bits are converted; bare bytes get a unit hint
g gib "24 GB" 1 "Not quite. 24 GB = 22.35 GiB: GB and GiB differ by 7.4 % (1 GB = 10^9 B, 1 GiB = 2^30 B). Hint." \
  "还不对。24 GB = 22.35 GiB：GB 与 GiB 相差 7.4 %（1 GB = 10^9 B，1 GiB = 2^30 B）。提示。"
g gib 25.77 1 "Not quite. That is off by the GB/GiB ratio (2^30/10^9 = 1.074): 1 GB is 10^9 bytes, 1 GiB is 2^30 bytes; the question asks in GiB. Hint." \
  "还不对。差了 GB 与 GiB 之比（2^30/10^9 = 1.074）：1 GB 是 10^9 字节，1 GiB 是 2^30 字节；题目要的单位是 GiB。提示。"
g gib "24 Gib" 1 "Not quite. 24 Gib counts bits, not bytes: 24 Gib = 3 GiB (1 byte = 8 bits). Hint." \
  "还不对。24 Gib 数的是位（bit），不是字节：24 Gib = 3 GiB（1 字节 = 8 位）。提示。"
g gib 192 1 "Not quite. That is off by a factor of 8: bits or bytes? 1 byte is 8 bits. Hint." \
  "还不对。差了 8 倍：是位还是字节？1 字节 = 8 位。提示。"
g gib 25769803776 1 "Not quite. A bare number is read in GiB: if 25769803776 is in bytes, type 25769803776 B. Hint." \
  "还不对。不带单位的数字按 GiB 计：如果 25769803776 是字节数，请写成 25769803776 B。提示。"
g gib "25769803776 B" 0 "$R" "$RZ"
g gib "25,769,803,776 bytes" 0 "$R" "$RZ"
g gib "２４" 0 "$R" "$RZ"
g gib "２４ ＧｉＢ" 0 "$R" "$RZ"
g gib "192 Gib" 0 "$R" "$RZ"
g gib "25.77 GB" 0 "$R" "$RZ"
g gib 24G 2 "'24G': decimal or binary? Type 24 GB (10^9 bytes) or 24 GiB (2^30 bytes)." \
  "“24G”是十进制还是二进制单位？请写 24 GB（10^9 字节）或 24 GiB（2^30 字节）。"
g gib "24 gib" 2 "'24 gib': bits or bytes? Type 24 GiB for bytes or 24 Gib for bits (B is a byte, b a bit)." \
  "“24 gib”是位还是字节？字节请写 24 GiB，位请写 24 Gib（B 是字节，b 是位）。"
g gib "24 ms" 2 "This answer is a size (GiB); 24 ms is a time." "这道题的答案是大小（GiB）；24 ms 是时间。"
g size 567474094 1 "Not quite. A bare number is read in GiB: if 567474094 is in bytes, type 567474094 B. Hint." \
  "还不对。不带单位的数字按 GiB 计：如果 567474094 是字节数，请写成 567474094 B。提示。"
g size "0.53 GB" 1 "Not quite. 0.53 GB = 0.4936 GiB: GB and GiB differ by 7.4 % (1 GB = 10^9 B, 1 GiB = 2^30 B). Hint." \
  "还不对。0.53 GB = 0.4936 GiB：GB 与 GiB 相差 7.4 %（1 GB = 10^9 B，1 GiB = 2^30 B）。提示。"
g size "541 MiB" 0 "$R" "$RZ"
# a percentage and a fraction are told apart
g pct 0.85 1 "Not quite. As a percentage: 85 %? Hint." "还不对。换成百分数：85 %？提示。"
g pct 85 0 "$R" "$RZ"
g pct "85 %" 0 "$R" "$RZ"
g pct "85％" 0 "$R" "$RZ"
g frac "85 %" 1 "Not quite. As a fraction: 0.85? Hint." "还不对。换成小数：0.85？提示。"
g frac 85 1 "Not quite. As a fraction: 0.85? Hint." "还不对。换成小数：0.85？提示。"
g frac 0.85 0 "$R" "$RZ"
# a rate: bits per second are not bytes per second, whichever way they are written
g rate "912 Gb/s" 1 "Not quite. 912 Gb/s counts bits, not bytes: 912 Gb/s = 114 GB/s (1 byte = 8 bits). Hint." \
  "还不对。912 Gb/s 数的是位（bit），不是字节：912 Gb/s = 114 GB/s（1 字节 = 8 位）。提示。"
g rate "912 Gbps" 1 "Not quite. 912 Gb/s counts bits, not bytes: 912 Gb/s = 114 GB/s (1 byte = 8 bits). Hint." \
  "还不对。912 Gb/s 数的是位（bit），不是字节：912 Gb/s = 114 GB/s（1 字节 = 8 位）。提示。"
g rate "912 Gbit/s" 1 "Not quite. 912 Gb/s counts bits, not bytes: 912 Gb/s = 114 GB/s (1 byte = 8 bits). Hint." \
  "还不对。912 Gb/s 数的是位（bit），不是字节：912 Gb/s = 114 GB/s（1 字节 = 8 位）。提示。"
g rate "912 GiB/s" 1 "Not quite. 912 GiB/s = 979.3 GB/s: GB and GiB differ by 7.4 % (1 GB = 10^9 B, 1 GiB = 2^30 B). Hint." \
  "还不对。912 GiB/s = 979.3 GB/s：GB 与 GiB 相差 7.4 %（1 GB = 10^9 B，1 GiB = 2^30 B）。提示。"
for a in "7296.768 Gb/s" "7296.77 Gbps" "7.297 Tbit/s" "912 GByte/s" "912 GBps" "849.5 GiB/s" "9.12e2" "9.12x10^2 GB/s" "912 GB/秒"; do
    g rate "$a" 0 "$R" "$RZ"
done
g rate "912 gb/s" 2 "'912 gb/s': bits or bytes? Type 912 GB/s for bytes or 912 Gb/s for bits (B is a byte, b a bit)." \
  "“912 gb/s”是位还是字节？字节请写 912 GB/s，位请写 912 Gb/s（B 是字节，b 是位）。"
# numbers as people type them
for a in 37.44x "37.44 ×" "３７．４４" "37.44 倍" 3.744e1; do g ratio "$a" 0 "$R" "$RZ"; done
g ratio 37,44 2 "'37,44': is the comma a decimal point? Type 37.44, or 3744 (a comma groups thousands: 1,024)." \
  "“37,44”里的逗号是小数点吗？请写 37.44 或 3744（逗号只用来分隔千位：1,024）。"
for a in 1,024 "1,024 tokens" "1024 tok" 1.024e3 1.024e+03 1.024E3 "１０２４" "１，０２４" "1,024.0" "1 024" "1.024×10³"; do g tok "$a" 0 "$R" "$RZ"; done
g tok "1024 GB" 2 "This answer is a plain number (tokens); 1024 GB is a size." "这道题的答案是纯数字（tokens）；1024 GB 是大小。"
g tok lots 2 "Type a number (tokens), e.g. 12 or 12 tokens." "请输入一个数字（tokens），例如 12 或 12 tokens。"
echo ok
