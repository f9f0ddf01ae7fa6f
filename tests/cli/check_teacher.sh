#!/bin/sh
# `vramlab check` catches what a teacher gets wrong, each at the line of the field that is wrong:
# one failing fixture per rule, with its exact file:line. A lesson id that clashes with a built-in
# one (checked as a file, a folder or an id); an exercise id used twice; a predict exercise whose
# measure() returns its figure in another scale or of another kind than its unit (--run; the
# result returned beside the figure, or any its gpu.*/host.* calls returned); a zh
# text that is the en text (a warning, an error with --strict) or missing; an ex:bar/point/gauge
# option or map field that does not exist (--run); an unknown panel field; a wrong field deep in
# a block (tolerance, a hint's language, a mistake's value). And the teacher's mistakes are the
# teacher's: an exercise whose own check raises is "broken" to the learner (en and zh), not a try,
# and check --answers reports it.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export VRAMLAB_BACKEND=sim
mkdir -p "$d/course/ch09"

# a lesson written from a template: NAME, then the blocks (lines 6 on), ending with its Sources
lesson() { # FILE ID BLOCKS
    cat > "$1" <<L
return lesson {
  id = "$2", chapter = ${2%%.*},
  title = { en = "A test", zh = "测试" },
  chapter_title = { en = "Tests", zh = "测试" },
  text { en = "Intro.", zh = "引言。" },
$3
  text { en = "> [!source] Sources\n> None.", zh = "> [!source] 出处\n> 无。" },
}
L
}
# one line of output must be there: "FILE:LINE: WHAT"
want() { # OUT FILE LINE WHAT
    printf '%s\n' "$1" | grep -qF "$2:$3: $4" || fail "want '$2:$3: $4' in: $1"
}

# --- a lesson id used by a built-in lesson: the teacher's file at its `id =` line, however it
# is checked (the file, its folder, or by id with --lessons)
lesson "$d/course/ch09/1.3-mine.lua" 1.3 ""
sed -i 's/chapter = 1,/chapter = 1,/' "$d/course/ch09/1.3-mine.lua"
builtin=$(ls "$PWD"/lessons/ch01/1.3-*.lua)
for args in "check $d/course/ch09/1.3-mine.lua" "check $d/course"; do
    out=$("$b" $args 2>&1) && fail "$args: a clash with a built-in id passed"
    want "$out" "$d/course/ch09/1.3-mine.lua" 2 "lesson id 1.3 is also used by $builtin"
done
out=$("$b" --lessons "$d/course" check 2>&1) && fail "the course with a clash passed"
want "$out" "$d/course/ch09/1.3-mine.lua" 2 "lesson id 1.3 is also used by $builtin"
# the built-in lesson itself is not blamed
printf '%s\n' "$out" | grep -q "^$builtin:" && fail "the built-in 1.3 blamed: $out"
rm "$d/course/ch09/1.3-mine.lua"

# --- an exercise id used twice in a lesson: at the second `id =`, naming the first
ex() { printf '  exercise { id = "%s", kind = "number", unit = "GB",\n    prompt = { en = "How many?", zh = "多少？" }, answer = %s,\n    hints = { { en = "Count.", zh = "数一数。" } }, explain = { en = "So.", zh = "就这样。" } },\n' "$1" "$2"; }
lesson "$d/t.lua" 9.1 "$(ex q 4; ex q 5)"
out=$("$b" check "$d/t.lua" 2>&1) && fail "an exercise id used twice passed"
want "$out" "$d/t.lua" 9 "exercise id 'q' is used twice in this lesson (the exercise at line 6 has it)"

# --- a wrong field is reported at its own line, deep in a block
lesson "$d/t.lua" 9.1 '  exercise { id = "q", kind = "number", unit = "GB",
    prompt = { en = "How many?", zh = "多少？" }, answer = 4,
    tolerance = -1,
    hints = { { en = "Count.", zh = "数一数。" } }, explain = { en = "So.", zh = "就这样。" } },'
out=$("$b" check "$d/t.lua" 2>&1) && fail "a negative tolerance passed"
want "$out" "$d/t.lua" 8 "exercise 'q': tolerance is a relative error such as 0.05"
lesson "$d/t.lua" 9.1 '  exercise { id = "q", kind = "number", unit = "GB",
    prompt = { en = "How many?", zh = "多少？" }, answer = 4,
    hints = { { en = "Count.", zh = "数一数。" },
              { en = "Again." } },
    explain = { en = "So.", zh = "就这样。" } },'
out=$("$b" check "$d/t.lua" 2>&1) && fail "a hint without zh passed"
want "$out" "$d/t.lua" 9 "exercise 'q' hint 2 has no zh text"
lesson "$d/t.lua" 9.1 '  exercise { id = "q", kind = "number", unit = "GB",
    prompt = { en = "How many?", zh = "多少？" }, answer = 4,
    mistakes = {
      { value = "3", say = { en = "No.", zh = "不。" } },
    },
    hints = { { en = "Count.", zh = "数一数。" } }, explain = { en = "So.", zh = "就这样。" } },'
out=$("$b" check "$d/t.lua" 2>&1) && fail "a mistake value that is a string passed"
want "$out" "$d/t.lua" 9 "exercise 'q' mistake 1: 'value' must be a number"

# --- a panel field that does not exist: at the panel's field
lesson "$d/t.lua" 9.1 '  experiment { id = "e", title = { en = "Run it", zh = "运行" },
    panels = {
      { id = "bw", kind = "bars", title = { en = "Bandwidth", zh = "带宽" },
        colour = "red" },
    },
    run = function(ex) ex:bar("bw", "x", 1) end },'
out=$("$b" check "$d/t.lua" 2>&1) && fail "a panel field that does not exist passed"
want "$out" "$d/t.lua" 9 "panel 1: unknown field 'colour' (fields:"

# --- an ex: option that does not exist (check --run), at the call's line; a map block's field
lesson "$d/t.lua" 9.1 '  experiment { id = "e", title = { en = "Run it", zh = "运行" },
    panels = { { id = "bw", kind = "bars", title = { en = "Bandwidth", zh = "带宽" }, unit = "GB/s" },
               { id = "m", kind = "map", title = { en = "Map", zh = "布局" } } },
    run = function(ex)
      ex:bar("bw", "x", 1, { style = "measured" })
      ex:bar("bw", "y", 2, { stlye = "measured" })
    end },'
out=$("$b" check "$d/t.lua" 2>&1) || fail "plain check runs no experiment: $out"
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "a misspelt ex:bar option passed --run"
want "$out" "$d/t.lua" 11 "ex:bar: unknown option 'stlye'; did you mean 'style'? (options: from, peak, style, unit)"
sed -i 's/{ stlye = "measured" }/{ style = "measured" }/; s/ex:bar("bw", "x", 1, { style = "measured" })/ex:map("m", { { owner = "w", size = 4 } }, 8)/' "$d/t.lua"
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "a map block field that does not exist passed --run"
want "$out" "$d/t.lua" 10 "ex:map: unknown field of a block 'size' (fields: bytes, owner, seg, state)"

# --- a predict exercise whose measure() returns its figure in another scale, or another kind,
# than its unit: check --run, at `measure =`; the right scale passes
predict() { # UNIT EXPR
    lesson "$d/t.lua" 9.1 "  exercise { id = \"p\", kind = \"predict\", unit = \"$1\",
    prompt = { en = \"Predict the copy.\", zh = \"预测这次拷贝。\" },
    measure = function()
      local r = assert(gpu.copy { dir = \"h2d\", bytes = \"4MiB\" })
      return $2, r
    end,
    hints = { { en = \"PCIe.\", zh = \"PCIe。\" } }, explain = { en = \"So.\", zh = \"就这样。\" } },
  experiment { id = \"e\", title = { en = \"Run it\", zh = \"运行\" },
    panels = { { id = \"bw\", kind = \"bars\", title = { en = \"Bandwidth\", zh = \"带宽\" }, unit = \"GB/s\" } },
    run = function(ex) ex:bar(\"bw\", \"x\", 1) end },"
}
predict "GB/s" "r.bytes_per_s / 1e6"
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "a predict in MB/s for a GB/s question passed --run"
want "$out" "$d/t.lua" 8 "exercise 'p': measure() returns r.bytes_per_s in MB/s (r.bytes_per_s / 1e+06), but the exercise's unit is GB/s: a right prediction would be graded 1000x off"
# the same when measure() does not return the result beside its figure: the results of the
# gpu.* and host.* calls it made are held to the unit
sed -i 's|return r.bytes_per_s / 1e6, r|return r.bytes_per_s / 1e6|' "$d/t.lua"
grep -q 'return r.bytes_per_s / 1e6$' "$d/t.lua" || fail "the fixture still returns its result"
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "a predict in MB/s without its result passed --run"
want "$out" "$d/t.lua" 8 "exercise 'p': measure() returns r.bytes_per_s in MB/s (r.bytes_per_s / 1e+06), but the exercise's unit is GB/s"
lesson "$d/t.lua" 9.1 '  exercise { id = "mem", kind = "predict", unit = "GB",
    prompt = { en = "How much memory does this card have?", zh = "这张卡有多少显存？" },
    measure = function() return gpu.info().total_bytes / 2^30 end,
    hints = { { en = "Look at the box.", zh = "看看包装盒。" } }, explain = { en = "So.", zh = "就这样。" } },
  experiment { id = "e", title = { en = "Run it", zh = "运行" },
    panels = { { id = "bw", kind = "bars", title = { en = "Bandwidth", zh = "带宽" }, unit = "GB/s" } },
    run = function(ex) ex:bar("bw", "x", 1) end },'
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "a GiB figure for a GB question passed --run"
want "$out" "$d/t.lua" 8 "exercise 'mem': measure() returns r.total_bytes in GiB (r.total_bytes / 1.07374e+09), but the exercise's unit is GB"
sed -i 's|total_bytes / 2^30 end|total_bytes / 1e9 end|' "$d/t.lua"
out=$("$b" check --run "$d/t.lua" 2>&1) || fail "a sound size predict refused: $out"
predict "ms" "r.bytes_per_s / 1e9"
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "a rate for a time question passed --run"
want "$out" "$d/t.lua" 8 "exercise 'p': measure() returns r.bytes_per_s (a rate, in GB/s) for a question in ms (a time)"
predict "Gb/s" "r.bytes_per_s / 1e9"
out=$("$b" check --run "$d/t.lua" 2>&1) && fail "bytes for a bits question passed --run"
want "$out" "$d/t.lua" 8 "exercise 'p': measure() returns r.bytes_per_s in GB/s"
predict "GB/s" "r.bytes_per_s / 1e9"
out=$("$b" check --run "$d/t.lua" 2>&1) || fail "a sound predict refused: $out"
predict "ms" "r.seconds * 1e3"
out=$("$b" check --run "$d/t.lua" 2>&1) || fail "a sound time predict refused: $out"

# --- a zh text that is the en text: a warning at the zh's line, an error with --strict
lesson "$d/t.lua" 9.1 '  exercise { id = "c", kind = "choice",
    prompt = { en = "Which one?", zh = "哪一个？" },
    choices = { { en = "The first one here", zh = "第一个" },
                { en = "The second one here",
                  zh = "The second one here" },
                { en = "torch.cuda.empty_cache()", zh = "torch.cuda.empty_cache()" } },
    answer = 1,
    hints = { { en = "Count.", zh = "数一数。" } }, explain = { en = "So.", zh = "就这样。" } },'
out=$("$b" check "$d/t.lua" 2>&1) || fail "an untranslated text is an error without --strict: $out"
want "$out" "$d/t.lua" 10 "exercise 'c' choices.2: the zh text is the en text (\"The second one here\"): translate it"
printf '%s\n' "$out" | grep -q "^warning: " || fail "not a warning: $out"
printf '%s\n' "$out" | grep -q "choices.3" && fail "an identifier counted as untranslated words: $out"
out=$("$b" check --strict "$d/t.lua" 2>&1) && fail "--strict passed an untranslated text"
printf '%s\n' "$out" | grep -qF "error: $d/t.lua:10: exercise 'c' choices.2" || fail "--strict: $out"
# missing (not a draft): a load error at the text's line
sed -i 's/^                  zh = "The second one here" },/                  },/' "$d/t.lua"
out=$("$b" check "$d/t.lua" 2>&1) && fail "a choice without zh passed"
want "$out" "$d/t.lua" 9 "exercise 'c' choice 2 has no zh text"

# --- the teacher's mistake is the teacher's: a check that raises is "broken", not a try
lesson "$d/course/ch09/9.1-b.lua" 9.1 '  exercise { id = "code", kind = "code", entry = "f",
    prompt = { en = "Write f.", zh = "写 f。" },
    check = function(fn)
      local want = nil
      return fn(2) == want.value
    end,
    hints = { { en = "Return 4.", zh = "返回 4。" } }, explain = { en = "So.", zh = "就这样。" } },
  exercise { id = "guess", kind = "predict", unit = "GB/s",
    prompt = { en = "Predict.", zh = "预测。" },
    measure = function() return nil end,
    hints = { { en = "PCIe.", zh = "PCIe。" } }, explain = { en = "So.", zh = "就这样。" } },'
cat > "$d/course/ch09/9.1-b.answers.lua" <<'A'
answer "code" { right = "function f(x) return 4 end", wrong = "function f(x) return 5 end" }
answer "guess" { figure = "simulated", wrong = "1e-6" }
A
f="$d/course/ch09/9.1-b.lua"
out=$("$b" --lessons "$d/course" grade 9.1 code "function f(x) return 4 end" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "a broken check: exit $rc (want 2, not a try): $out"
case $out in *"This exercise is broken, tell your teacher: $f:10: attempt to index a nil value (local 'want')"*"(this try does not count)"*) ;;
*) fail "broken check (en): $out" ;; esac
out=$("$b" --lessons "$d/course" --lang zh grade 9.1 code "function f(x) return 4 end" 2>&1)
case $out in *"这道练习本身有错误，请告诉老师：$f:10: "*"（这次不算作答）"*) ;; *) fail "broken check (zh): $out" ;; esac
# the learner's own error is still the learner's (a try, "your code has an error")
out=$("$b" --lessons "$d/course" grade 9.1 code "function f(x) error('mine') end" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "the learner's error: exit $rc: $out"
case $out in *"Your code has an error: "*"mine"*) ;; *) fail "the learner's error: $out" ;; esac
# a measure that returns no number: broken too, at the exercise
out=$("$b" --lessons "$d/course" grade 9.1 guess 10 2>&1); rc=$?
[ $rc -eq 2 ] || fail "a broken measure: exit $rc: $out"
case $out in *"tell your teacher: $f:15: exercise 'guess': measure() must return a number, not nil"*) ;; *) fail "broken measure: $out" ;; esac
out=$("$b" --lessons "$d/course" check --answers 9.1 2>&1) && fail "check --answers passed a broken check"
want "$out" "$f" 10 "attempt to index a nil value (local 'want'): the exercise's own checking code raised an error grading"
want "$out" "$f" 15 "exercise 'guess': measure() must return a number, not nil: the exercise's own checking code raised an error"
echo ok
