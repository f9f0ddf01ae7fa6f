#!/bin/sh
# Per-mistake feedback: a wrong choice says why (`why`), a number off by a declared mistake says
# which (`mistakes`: a value, a factor either way, or a built-in such as "gib_gb"), in English and
# in Chinese, through the real `vramlab grade`; an answer that matches no mistake gets the hint;
# a mistake the grader cannot tell from the right answer, or an unknown name, is a load error.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/m.lua" <<'L'
return lesson {
  id = "9.1", chapter = 9,
  title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },
  text { en = "t", zh = "t" },
  exercise { id = "w", kind = "number", prompt = { en = "p", zh = "p" },
    answer = 14e9 / 2^30, unit = "GiB", tolerance = 0.01,
    mistakes = { { value = 28, say = { en = "That is fp32.", zh = "那是 fp32。" } },
                 { factor = 3, say = { en = "Off by three.", zh = "差了三倍。" } },
                 "gib_gb", "x1000", "x2", "x4", "x8", "mib_mb" },
    hints = { { en = "Count bytes.", zh = "数字节。" } }, explain = { en = "e", zh = "e" } },
  exercise { id = "c", kind = "choice", prompt = { en = "p", zh = "p" },
    choices = { { en = "a", zh = "a" }, { en = "b", zh = "b" }, { en = "c", zh = "c" } }, answer = 2,
    why = { [1] = { en = "A is the DDR figure.", zh = "A 是 DDR 的数字。" } },
    hints = { { en = "Think.", zh = "想想。" } }, explain = { en = "e", zh = "e" } },
}
L
# ANSWER LANG EXPECTED-TEXT: graded wrong (exit 1), the message names the mistake
wrong() {
    out=$("$b" --backend sim --deterministic --seed 1 --lang "$2" grade "$d/m.lua" "$4" "$1" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "$4 '$1' ($2): exit $rc: $out"
    case "$out" in *"$3"*) ;; *) fail "$4 '$1' ($2): want '$3' in: $out" ;; esac
}
r=$(awk 'BEGIN { printf "%.6f", 14e9 / 2^30 }')
wrong 28 en "That is fp32." w;                 wrong 28 zh "那是 fp32。" w
wrong "$(awk "BEGIN{print $r*3}")" en "Off by three." w;  wrong "$(awk "BEGIN{print $r/3}")" zh "差了三倍。" w
wrong 14 en "off by the GB/GiB ratio" w;       wrong 14 zh "差了 GB 与 GiB 之比" w
wrong "14 GiB" en "the question asks in GiB" w # the unit converted first: 14 GiB is not 14 GB
wrong 13040 en "off by a factor of 1000" w;    wrong 0.01304 zh "差了 1000 倍" w
wrong 6.52 en "off by a factor of 2" w;        wrong 26.08 zh "差了 2 倍" w
wrong 52.15 en "off by a factor of 4" w;       wrong 3.26 zh "差了 4 倍" w
wrong 104.3 en "1 byte is 8 bits" w;           wrong 1.63 zh "1 字节 = 8 位" w
wrong 12.44 en "off by the MB/MiB ratio" w;    wrong 12.44 zh "差了 MB 与 MiB 之比" w
wrong 7 en "Count bytes." w # no mistake matches: the hint, and no mistake's message
case "$out" in *"off by"*|*"fp32"*) fail "a mistake claimed for 7: $out" ;; esac
wrong 1 en "A is the DDR figure." c;           wrong 1 zh "A 是 DDR 的数字。" c
wrong 3 en "Think." c
"$b" --backend sim --deterministic --seed 1 grade "$d/m.lua" w 13.04 >/dev/null || fail "right answer refused"

# the shipped trap: 1.1's 14 (GB) for a GiB question
wrong_shipped() {
    out=$("$b" --backend sim --deterministic --seed 1 --lang "$2" grade 1.1 fp16-gib 14 2>&1)
    case "$out" in *"$1"*) ;; *) fail "1.1 fp16-gib 14 ($2): $out" ;; esac
}
wrong_shipped "a GiB is 2^30 B" en; wrong_shipped "1 GiB 是 2^30 B" zh
out=$("$b" --backend sim --deterministic --seed 1 --lang zh grade 3.2 bytes 16 2>&1)
case "$out" in *"16 GB/s 只算了两个数组"*) ;; *) fail "3.2 bytes 16 (zh): $out" ;; esac

# load errors, at the line of the field that is wrong (line 4), not the exercise's first line
bad() { # FIELD-TEXT EXPECTED
    printf 'return lesson { id = "9.1", chapter = 9, title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },\n  text { en = "t", zh = "t" },\n  exercise { id = "w", kind = "number", prompt = { en = "p", zh = "p" }, answer = 4, unit = "GiB",\n    %s,\n    hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } } }\n' "$1" > "$d/bad.lua"
    out=$("$b" check "$d/bad.lua" 2>&1) && fail "accepted: $1"
    case "$out" in *"bad.lua:4: "*"$2"*) ;; *) fail "$1: want '$2' in: $out" ;; esac
}
bad 'mistakes = { "gb_gib" }' "unknown mistake 'gb_gib' (built-in: gib_gb, kib_kb, mib_mb, tib_tb, x1000, x2, x4, x8)"
bad 'mistakes = { { value = 4.01, say = { en = "s", zh = "s" } } }' "matches the right answer"
bad 'mistakes = { { value = 3, factor = 2, say = { en = "s", zh = "s" } } }' "give 'factor' or 'value'"
bad 'mistakes = { { value = 3, say = { en = "s" } } }' "say has no zh text"
bad 'why = { [2] = { en = "s", zh = "s" } }' "'why' is for choice exercises"
echo ok
