#!/bin/sh
# `vramlab check`: the shipped lessons and GPU profiles pass; a broken one is reported as
# file:line: what, exit 1. Beyond the loader, check holds the course to its sources: an errata
# callout without a "Source:" line, a lesson whose last text does not end with a [!source]
# callout, and a profile number without a [source] are each refused, with the line.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
"$b" check >/dev/null || fail "shipped lessons do not pass check"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/bad.lua" <<'L'
return lesson {
  id = "1.9", chapter = 1,
  title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },
  text { en = "fine", zh = "好" },
  exercise { id = "q", kind = "number", prompt = { en = "p", zh = "p" },
             hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } },
}
L
out=$("$b" check "$d/bad.lua" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "exit $rc"
echo "$out" | grep -q "$d/bad.lua:5: exercise 'q': answer must be a number" || fail "message: $out"
printf 'return lesson {\n  id = "1.9",\n' > "$d/trunc.lua"
out=$("$b" check "$d/trunc.lua" 2>&1); [ $? -eq 1 ] || fail "truncated file accepted"
echo "$out" | grep -q "$d/trunc.lua:3:" || fail "truncated: $out"
# the same file in a teacher's folder, named by its id: every command that takes the id says it
# does not load, with its file:line, not that there is no such lesson
mkdir -p "$d/course/ch09" && cp "$d/trunc.lua" "$d/course/ch09/9.4-broken.lua"
for args in "check 9.4" "check --answers 9.4" "run 9.4" "grade 9.4 q 1"; do
    out=$("$b" --backend sim --lessons "$d/course" $args 2>&1); rc=$?
    [ $rc -ne 0 ] || fail "$args: a lesson that does not load gave exit 0"
    echo "$out" | grep -q "^vramlab: lesson 9.4 does not load: $d/course/ch09/9.4-broken.lua:3: " ||
        fail "$args: $out"
done

# --- sources: a lesson that ends with its Sources and sources its errata passes
ok_lesson() { # FILE ERRATA_BODY_EN ERRATA_BODY_ZH LAST_EN LAST_ZH
    cat > "$1" <<L
return lesson {
  id = "1.9", chapter = 1,
  title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },
  text { en = [[
# T

> [!errata] The lecture's figure
> It is 2 x 2 = 4.
$2
]], zh = [[
# T

> [!errata] 讲义的数字
> 是 2 × 2 = 4。
$3
]] },
  text { en = [[
$4
]], zh = [[
$5
]] },
}
L
}
good_en='> [!source] Sources
> Arithmetic.' good_zh='> [!source] 出处
> 算术。'
ok_lesson "$d/src.lua" "> Source: arithmetic." "> 出处：算术。" "$good_en" "$good_zh"
out=$("$b" check "$d/src.lua" 2>&1) || fail "a sourced lesson refused: $out"
# an errata callout with no Source line: the callout's own line. The Sources are a house rule of
# the course: an error for the built-in lessons and under --strict, a warning for a teacher's
ok_lesson "$d/src.lua" "> No reference given." "> 出处：算术。" "$good_en" "$good_zh"
out=$("$b" check --strict "$d/src.lua" 2>&1); [ $? -eq 1 ] || fail "errata without a source accepted: $out"
echo "$out" | grep -q "$d/src.lua:7: errata callout 'The lecture's figure' (en) has no source" || fail "errata (en): $out"
out=$("$b" check "$d/src.lua" 2>&1) || fail "a teacher's lesson without a source refused without --strict: $out"
echo "$out" | grep -q "^warning: $d/src.lua:7: errata callout 'The lecture's figure' (en) has no source" || fail "errata (en) warning: $out"
echo "$out" | grep -q "^1 warning(s): errors with --strict" || fail "warning count: $out"
mkdir -p "$d/data2/lessons" "$d/data2/assets/gpus" && cp "$d/src.lua" "$d/data2/lessons/" && cp assets/gpus/*.txt "$d/data2/assets/gpus/"
out=$("$b" --backend sim --datadir "$d/data2" check 2>&1); [ $? -eq 1 ] || fail "a built-in lesson without a source accepted: $out"
echo "$out" | grep -q "^$d/data2/lessons/src.lua:7: errata callout" || fail "built-in errata: $out"
ok_lesson "$d/src.lua" "> Source: arithmetic." "> 没有出处。" "$good_en" "$good_zh"
out=$("$b" check --strict "$d/src.lua" 2>&1); [ $? -eq 1 ] || fail "zh errata without a source accepted: $out"
echo "$out" | grep -q "$d/src.lua:13: errata callout '讲义的数字' (zh) has no source" || fail "errata (zh): $out"
# a lesson whose last text does not end with Sources (in either language): the text's line
ok_lesson "$d/src.lua" "> Source: arithmetic." "> 出处：算术。" "Some closing words." "$good_zh"
out=$("$b" check --strict "$d/src.lua" 2>&1); [ $? -eq 1 ] || fail "a lesson without Sources accepted: $out"
echo "$out" | grep -q "$d/src.lua:17: the lesson does not end with its Sources.*(en)" || fail "no Sources (en): $out"
ok_lesson "$d/src.lua" "> Source: arithmetic." "> 出处：算术。" "$good_en" "> [!source] 出处
> 算术。

结束语。"
out=$("$b" check --strict "$d/src.lua" 2>&1); [ $? -eq 1 ] || fail "Sources not last accepted: $out"
echo "$out" | grep -q "the lesson does not end with its Sources.*(zh)" || fail "Sources not last (zh): $out"
# the loader itself still opens such a lesson: the rule is the course's, held by check
out=$("$b" --backend sim --deterministic run "$d/src.lua" 2>&1) || fail "run refused a lesson check refuses: $out"

# --- a predict exercise is offered before the experiment that shows its figure: one after every
# experiment is refused at its line (moving it before the experiment passes)
cp lessons/ch03/3.1-bandwidth-vs-size.lua "$d/pred.lua"
python3 - "$d/pred.lua" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
m = re.search(r'\n  exercise \{\n    id = "predict-h2d",', s); a = m.start() + 1
b = s.index('\n  },\n', a) + 5; block = s[a:b]; s = s[:a] + s[b:]
e = s.rindex('\n  text {') + 1
open(p, 'w').write(s[:e] + block + s[e:])
PY
line=$(grep -n 'id = "predict-h2d"' "$d/pred.lua" | cut -d: -f1); line=$((line - 1))
out=$("$b" check "$d/pred.lua" 2>&1); [ $? -eq 1 ] || fail "a predict after every experiment accepted: $out"
echo "$out" | grep -q "pred.lua:$line: predict exercise 'predict-h2d' comes after every experiment of the lesson" || fail "predict order: $out"
"$b" check lessons/ch03/3.1-bandwidth-vs-size.lua >/dev/null 2>&1 || fail "the shipped 3.1 (predict first) refused"

# --- profiles: every number names a source that exists, and every source is named
mkdir -p "$d/data/assets/gpus" "$d/data/lessons"
cp lessons/ch01/1.1-what-is-vram.lua "$d/data/lessons/"
cp assets/gpus/rtx3090.txt "$d/data/assets/gpus/"
out=$("$b" --backend sim --datadir "$d/data" check 2>&1) || fail "a copy of the shipped tree refused: $out"
echo "$out" | grep -q "^ok    profile rtx3090" || fail "profile not checked: $out"
sed 's/^\(l2_bytes = [0-9]*\) *\[.*\]$/\1/' assets/gpus/rtx3090.txt > "$d/data/assets/gpus/zz.txt"
line=$(grep -n '^l2_bytes' "$d/data/assets/gpus/zz.txt" | cut -d: -f1)
out=$("$b" --backend sim --datadir "$d/data" check 2>&1); [ $? -eq 1 ] || fail "a number without a source accepted: $out"
echo "$out" | grep -q "zz.txt:$line: 'l2_bytes' has no source" || fail "unsourced field: $out"
out=$("$b" check "$d/data/assets/gpus/zz.txt" 2>&1); [ $? -eq 1 ] || fail "check FILE.txt accepted it: $out"
echo "$out" | grep -q "zz.txt:$line: 'l2_bytes' has no source" || fail "check FILE.txt: $out"
sed 's/\[wp\]$/[whitepaper]/' assets/gpus/rtx3090.txt > "$d/data/assets/gpus/zz.txt"
out=$("$b" --backend sim --datadir "$d/data" check 2>&1); [ $? -eq 1 ] || fail "an unknown source accepted: $out"
echo "$out" | grep -q "names an unknown source \[whitepaper\]" || fail "unknown source: $out"

# lesson 3.3's Little's-law example quotes the H100 profile's modelled DRAM latency
grep -q '^dram_ns = 470 ' assets/gpus/h100-sxm.txt || fail "3.3 quotes 470 ns; the H100 profile changed"
grep -q 'at the 470 ns this course' lessons/ch03/3.3-latency-ladder.lua || fail "3.3 no longer quotes the profile's figure"
# --- a code exercise's starter compiles and defines its entry (the grader looks that name up); the
# error is at the line of `starter =`, not the exercise's first line
starter() { # STARTER-LUA EXPECTED
    printf 'return lesson { id = "1.9", chapter = 1, title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },\n  text { en = "t", zh = "t" },\n  exercise { id = "f", kind = "code", prompt = { en = "p", zh = "p" }, entry = "double",\n    check = function(fn) return fn(2) == 4 end, starter = %s,\n    hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } } }\n' "$1" > "$d/st.lua"
    out=$("$b" check "$d/st.lua" 2>&1) && fail "starter accepted: $1"
    case "$out" in *"st.lua:4: exercise 'f': $2"*) ;; *) fail "starter $1: want '$2' in: $out" ;; esac
}
starter '"function double(x)\n  return x *\nend"' "the starter does not compile: starter:3:"
starter '"function twice(x)\n  return x\nend"' "the starter does not define the entry 'double'"
starter '"local function double(x) return x end"' "the starter does not define the entry 'double'"
starter '"error(\"boom\")"' "the starter does not define the entry 'double'"
exit 0
