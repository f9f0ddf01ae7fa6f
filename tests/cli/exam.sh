#!/bin/sh
# A teacher's course end to end (tests/cli/data/teacher: course.lua, three lessons, quiz.exam.lua):
# check passes it (lessons, course, exam) and refuses an exam's mistakes each at its line; the
# lessons run; two students take the exam at once on one account (one state folder, one results
# folder), headless with --answers, and the state module keeps both sheets; one leaves and comes
# back (--no-submit, then the rest: the clock and the answers kept); one whose time ran out is
# submitted as it is; a submitted exam is not taken again, nor from another account that shares
# the results folder; the class's results are summed up
# (text, CSV, JSON, zh) with the wrong answers grouped by the mistake they match, held to a class
# list (--roster: who has no results, whose are not on it), and compared
# side by side; a class of a hundred stays readable (wider counts, compare in blocks that fit
# 100 columns); a broken exercise is "broken" in the results, not a wrong answer; an answer
# that loops over measurements is stopped at the exam's answer_seconds.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cp -r tests/cli/data/teacher "$d/course"
c="$d/course" R="$d/results"
mkdir -p "$R"
export XDG_STATE_HOME="$d/state"
v() { "$b" --backend sim --deterministic --lessons "$c" "$@"; }

# --- check and run
out=$(v check --strict --run --answers "$c" 2>&1) || fail "check of the teacher's folder: $out"
printf '%s\n' "$out" | grep -q "^ok    exam $c/quiz.exam.lua (7 questions, 20 minutes)" || fail "exam not checked: $out"
out=$(v run 9.1 9.2 9.3 2>&1) || fail "run: $out"
printf '%s\n' "$out" | grep -q "SIMULATED" || fail "run: $out"
# an exam's mistakes, each at its line
exam() { printf 'return {\n  title = { en = "Q", zh = "问" },\n  minutes = 10,\n%s\n}\n' "$1" > "$c/bad.exam.lua"; }
bad() { # LINE WHAT BODY
    exam "$3"
    out=$(v check "$c/bad.exam.lua" 2>&1) && fail "check passed: $3"
    printf '%s\n' "$out" | grep -qF "$c/bad.exam.lua:$1: $2" || fail "want '$c/bad.exam.lua:$1: $2' in: $out"
}
bad 5 "section 3.1 is not a lesson of the course" '  questions = { "9.1:dtype",
    "3.1:predict-h2d" },'
bad 5 "lesson 9.1 has no exercise 'dtyp'; did you mean 'dtype'? (its exercises: weights-gib, dtype, bytes-fn)" '  questions = { "9.1:dtype",
    "9.1:dtyp" },'
bad 6 "question 9.1:dtype is asked twice (first at line 5)" '  questions = {
    "9.1:dtype",
    "9.1" },'
bad 4 "'9:1' is not a question" '  questions = { "9:1" },'
bad 5 "unknown field 'shufle'" '  questions = { "9.1" },
  shufle = true,'
bad 1 "questions must list them" ''
bad 5 "answer_seconds must be how long one answer's grading may take, 1 to 300 s" '  questions = { "9.1" },
  answer_seconds = 0,'
rm "$c/bad.exam.lua"
# an answer that loops over measurements is stopped at the exam's answer_seconds (the limit the
# sandbox names), and the grading ends; the process's 300 s limit of a run would not be met here
exam '  answer_seconds = 1,
  questions = { "9.1:bytes-fn" },'
mv "$c/bad.exam.lua" "$c/loop.exam.lua"
printf '9.1:bytes-fn function weight_bytes(p, b)\\n  while true do host.copy{bytes = "1MiB"} end\\nend\n' >"$d/loop"
out=$(v exam loop --student x --results "$R" --answers "$d/loop" 2>&1) || fail "loop: $out"
grep '"q":"9.1:bytes-fn"' "$R/loop-x.jsonl" | grep -qF 'the sandbox limit of 1 s of wall time' ||
    fail "answer_seconds not applied: $(cat "$R/loop-x.jsonl")"
rm -f "$c/loop.exam.lua" "$R"/loop-x.*
out=$(v exam 9.1:dtype,3.1 --student x --results "$R" --answers /dev/null 2>&1) && fail "a list with a section outside the course"
printf '%s\n' "$out" | grep -qF "exam: section 3.1 is not a lesson of the course" || fail "list: $out"
# did you mean: a mistyped section, exercise or exam name
out=$(v exam 9.11:dtype --student x --results "$R" --answers /dev/null 2>&1) && fail "a mistyped section"
printf '%s\n' "$out" | grep -qF "exam: section 9.11 is not a lesson of the course; did you mean 9.1? (vramlab list)" || fail "9.11: $out"
out=$(v exam quzi --student x --results "$R" --answers /dev/null 2>&1) && fail "a mistyped exam"
printf '%s\n' "$out" | grep -qF "vramlab: exam: no exam 'quzi'; did you mean 'quiz'? (NAME.exam.lua" || fail "quzi: $out"
# nothing close: the sentence reads on without a dangling "; "
out=$(v exam zzzzzz --student x --results "$R" --answers /dev/null 2>&1) && fail "an unknown exam"
printf '%s\n' "$out" | grep -qF "vramlab: exam: no exam 'zzzzzz' (NAME.exam.lua" || fail "zzzzzz: $out"

# a results folder the exam cannot write to is said before the first question, with why
out=$(v exam quiz --student x --results "$d/none" --answers /dev/null 2>&1) && fail "a missing results folder"
printf '%s\n' "$out" | grep -qxF "vramlab: exam: the results folder $d/none does not exist: ask your teacher (--results DIR)" || fail "missing folder: $out"
out=$(v --lang zh exam quiz --student x --results "$c/course.lua" --answers /dev/null 2>&1) && fail "a file as the results folder"
printf '%s\n' "$out" | grep -qxF "vramlab: exam: 结果文件夹 $c/course.lua 不是文件夹：请询问老师（--results DIR）" || fail "a file (zh): $out"

# --- two students at once, one state folder, one results folder
cat > "$d/alice" <<'A'
# alice: 5 of 7
9.1:weights-gib 6
9.1:dtype 2
1.1:fp16-gib 13.04
9.2:predict-bw 400
9.2:copy-ms 2
9.3:kv-mib 0.5
9.1:bytes-fn function weight_bytes(p, b)\n  return p * b\nend
A
cat > "$d/bob" <<'A'
9.1:weights-gib 6 GB
9.1:dtype 1
1.1:fp16-gib 14
9.2:copy-ms 2.147
9.3:kv-mib 1
9.1:bytes-fn function weight_bytes(p, b) return p + b end
A
v exam quiz --student alice --results "$R" --answers "$d/alice" >"$d/alice.out" 2>&1 &
pa=$!
v exam quiz --student bob --results "$R" --answers "$d/bob" >"$d/bob.out" 2>&1 &
pb=$!
wait $pa || fail "alice: $(cat "$d/alice.out")"
wait $pb || fail "bob: $(cat "$d/bob.out")"
grep -q "^5 of 7 right (71 %)\.$" "$d/alice.out" || fail "alice's score: $(cat "$d/alice.out")"
grep -q "^2 of 7 right (29 %)\.$" "$d/bob.out" || fail "bob's score: $(cat "$d/bob.out")"
# the state module kept both sheets, whole
st="$XDG_STATE_HOME/vramlab/exams"
[ "$(grep -c '^ans quiz alice ' "$st")" = 7 ] || fail "alice's answers lost: $(cat "$st")"
[ "$(grep -c '^ans quiz bob ' "$st")" = 6 ] || fail "bob's answers lost: $(cat "$st")"
grep -q '^submit quiz alice ' "$st" && grep -q '^submit quiz bob ' "$st" || fail "a submission lost: $(cat "$st")"
for s in alice bob; do [ -s "$R/quiz-$s.jsonl" ] && [ -s "$R/quiz-$s.csv" ] || fail "no results of $s"; done
head -1 "$R/quiz-alice.jsonl" | grep -q '"type":"exam","format":"vramlab-exam","version":1' || fail "results header: $(head -1 "$R/quiz-alice.jsonl")"
# the predict question: graded against this machine's figure, which the results keep
grep '"q":"9.2:predict-bw"' "$R/quiz-alice.jsonl" | grep -q '"status":"right",.*"figure":[0-9.]*,"figure_how":"simulated"' ||
    fail "predict figure: $(grep predict-bw "$R/quiz-alice.jsonl")"
grep -q '^quiz,bob,4,9.2:predict-bw,9.2,predict-bw,predict,GB/s,,blank,' "$R/quiz-bob.csv" || fail "bob's blank: $(cat "$R/quiz-bob.csv")"
# not taken twice
out=$(v exam quiz --student alice --results "$R" --answers "$d/bob" 2>&1) || fail "again: $out"
case $out in *"alice submitted exam quiz already: it is not taken twice."*"5 of 7 right"*) ;; *) fail "taken twice: $out" ;; esac

# handed in from another machine or account sharing the results folder (another state folder):
# refused before the first question, the results kept as they were
sum=$(cksum < "$R/quiz-alice.jsonl")
out=$(XDG_STATE_HOME="$d/other-state" v exam quiz --student alice --results "$R" --answers "$d/bob" 2>&1) &&
    fail "taken again from another account: $out"
printf '%s\n' "$out" | grep -qF "vramlab: exam: alice handed in exam quiz already ($R/quiz-alice.jsonl, from another machine or account): it is not taken twice" ||
    fail "handed in elsewhere: $out"
[ "$(cksum < "$R/quiz-alice.jsonl")" = "$sum" ] || fail "alice's results were overwritten"
out=$(XDG_STATE_HOME="$d/other-state" v --lang zh exam quiz --student alice --results "$R" --answers "$d/bob" 2>&1) &&
    fail "taken again (zh)"
printf '%s\n' "$out" | grep -qF "alice 已经交过考试 quiz" || fail "handed in elsewhere (zh): $out"

# --- leave and come back: the answers and the clock kept
printf '9.1:dtype 2\n' > "$d/c1"
out=$(v exam quiz --student carol --results "$R" --answers "$d/c1" --no-submit 2>&1) || fail "carol 1: $out"
case $out in *"Saved: 1 of 7 answered; the exam goes on"*) ;; *) fail "carol 1: $out" ;; esac
started=$(grep '^start quiz carol ' "$st")
printf '9.3:kv-mib 0.5\n' > "$d/c2"
out=$(v exam quiz --student carol --results "$R" --answers "$d/c2" 2>&1) || fail "carol 2: $out"
case $out in *"2 of 7 right"*) ;; *) fail "carol 2: $out" ;; esac
[ "$(grep '^start quiz carol ' "$st")" = "$started" ] || fail "the clock restarted"
# the time ran out: what was saved is submitted, a late answer is not saved
printf '9.1:dtype 2\n' > "$d/d1"
v exam quiz --student dave --results "$R" --answers "$d/d1" --no-submit >/dev/null 2>&1 || fail "dave 1"
now=$(date +%s)
sed -i "s/^start quiz dave [0-9]* 1200$/start quiz dave $((now - 1300)) 1200/" "$st"
printf '9.3:kv-mib 0.5\n' > "$d/d2"
out=$(v exam quiz --student dave --results "$R" --answers "$d/d2" 2>&1) || fail "dave 2: $out"
case $out in *"Time is up: your answers were submitted as they were."*"1 of 7 right"*) ;; *) fail "dave late: $out" ;; esac
grep -q '^ans quiz dave 9.3:kv-mib' "$st" && fail "an answer after the time was saved"

# --- the class: summed up, grouped by mistake
out=$(v results "$R" 2>&1) || fail "results: $out"
printf '%s\n' "$out" | grep -q "^Exam quiz · Quiz: bytes and bandwidth · 4 student(s)$" || fail "results head: $out"
printf '%s\n' "$out" | grep -q "^Graded on: SIMULATED" || fail "results machine: $out"
printf '%s\n' "$out" | grep -q "^Score: mean 36 %, median 29 %, lowest 14 %, highest 71 %; 1 timed out$" || fail "results score: $out"
printf '%s\n' "$out" | grep -q "^Students by score: 0-19 %: 1, 20-39 %: 2, 40-59 %: 0, 60-79 %: 1, 80-100 %: 0$" || fail "results spread: $out"
printf '%s\n' "$out" | grep -qE "^ +5  9\.2:copy-ms +1/4 +1 +2$" || fail "copy-ms counts: $out"
printf '%s\n' "$out" | grep -qF '1 x GB and GiB mixed up: "2"' || fail "copy-ms mistake: $out"
printf '%s\n' "$out" | grep -qF '1 x off by 2 (counted once or twice?): "1"' || fail "kv-mib mistake: $out"
printf '%s\n' "$out" | grep -qF '1 x chose 1: "1"' || fail "choice mistake: $out"
printf '%s\n' "$out" | grep -qF '1 x code that returns a wrong result' || fail "code mistake: $out"
printf '%s\n' "$out" | grep -qE "^  dave +1/7  14 %  \(timed out\)$" || fail "dave's row: $out"
out=$(v results --csv "$R" 2>&1) || fail "results --csv: $out"
printf '%s\n' "$out" | head -1 | grep -qx "row,exam,question,student,right,wrong,blank,unreadable,broken,score,mistake,count,answers" || fail "csv header: $out"
printf '%s\n' "$out" | grep -qx "mistake,quiz,9.2:copy-ms,,,,,,,,gib_gb,1,2" || fail "csv mistake row: $out"
printf '%s\n' "$out" | grep -qx "student,quiz,,alice,5,2,0,,0,0.7142857142857143,,," || fail "csv student row: $out"
out=$(v results --json "$R" 2>&1) || fail "results --json: $out"
printf '%s\n' "$out" | python3 -c 'import json, sys
rows = [json.loads(l) for l in sys.stdin]
q = [r for r in rows if r["row"] == "question" and r["question"] == "9.3:kv-mib"][0]
assert (q["right"], q["wrong"], q["blank"]) == (2, 1, 1), q
m = [r for r in rows if r["row"] == "mistake" and r["question"] == "9.3:kv-mib"][0]
assert m["mistake"] == "x2" and m["count"] == 1 and m["answers"] == "1", m' || fail "results --json: $out"
# the class list: who on it has no results, whose results are from a name not on it
# (a list exported from a spreadsheet: a byte order mark, CRLF, the name the first field)
printf '\357\273\277# class A\r\nalice,Alice A.\r\nbob  \r\n\r\ncarol;Carol C.\r\nfrank\tFrank F.\r\n' > "$d/roster"
out=$(v results --roster "$d/roster" "$R" 2>&1) || fail "results --roster: $out"
printf '%s\n' "$out" | grep -qx "No results from 1 of the 4 on the roster: frank" || fail "roster missing: $out"
printf '%s\n' "$out" | grep -qxF "Results from 1 not on the roster (a mistyped --student?): dave" || fail "roster unlisted: $out"
out=$(v results --csv --roster "$d/roster" "$R" 2>&1) || fail "results --csv --roster: $out"
printf '%s\n' "$out" | grep -qx "missing,quiz,,frank,,,,,,,,," || fail "csv missing row: $out"
printf '%s\n' "$out" | grep -qx "unlisted,quiz,,dave,,,,,,,,," || fail "csv unlisted row: $out"
out=$(v --lang zh results --roster "$d/roster" "$R" 2>&1) || fail "results zh --roster: $out"
printf '%s\n' "$out" | grep -qx "名单上的 4 人中有 1 人没有结果：frank" || fail "roster zh: $out"
printf 'alice\nbob\nal ice\n' > "$d/roster"
out=$(v results --roster "$d/roster" "$R" 2>&1) && fail "a roster with a wrong name passed"
printf '%s\n' "$out" | grep -qF "$d/roster:3: 'al ice' is not a student name" || fail "roster error: $out"
printf 'alice\nbob\nalice\n' > "$d/roster"
out=$(v results --roster "$d/roster" "$R" 2>&1) && fail "a roster with a name twice passed"
printf '%s\n' "$out" | grep -qF "$d/roster:3: alice is listed twice" || fail "roster twice: $out"
out=$(v --lang zh results "$R" 2>&1) || fail "results zh: $out"
printf '%s\n' "$out" | grep -q "^考试 quiz · 测验：字节与带宽 · 4 名学生$" || fail "results zh: $out"
printf '%s\n' "$out" | grep -qF '1 x GB 与 GiB 混淆: "2"' || fail "results zh mistake: $out"
printf '%s\n' "$out" | grep -q "^按得分的人数：0-19 %：1，20-39 %：2，40-59 %：0，60-79 %：1，80-100 %：0$" || fail "results zh spread: $out"
out=$(v compare "$R" 2>&1) || fail "compare: $out"
printf '%s\n' "$out" | grep -qE "^9\.1:dtype +✓ +✗ +✓ +✓ *$" || fail "compare dtype row: $out"
printf '%s\n' "$out" | grep -qE "^score +71% +29% +29% +14% *$" || fail "compare scores: $out"
# a file that is not an exam's results is said
printf '{"type":"header"}\n' > "$d/other.jsonl"
out=$(v results "$R/quiz-alice.jsonl" "$d/other.jsonl" 2>&1) && fail "a non-exam file summed up"
case $out in *"other.jsonl: not an exam's results"*) ;; *) fail "non-exam file: $out" ;; esac

# --- a class of a hundred: the count columns widen ("100/100"), compare comes in blocks of
# students that fit 100 columns, each block with its questions and scores
C="$d/class"
mkdir -p "$C"
for i in $(seq 1 100); do
    n=$(printf 's%03d' "$i")
    if [ "$i" -le 60 ]; then src=alice; else src=bob; fi
    sed "s/\"student\":\"$src\"/\"student\":\"$n\"/" "$R/quiz-$src.jsonl" > "$C/quiz-$n.jsonl"
done
out=$(v results "$C" 2>&1) || fail "results of 100: $out"
printf '%s\n' "$out" | grep -q "^Exam quiz · Quiz: bytes and bandwidth · 100 student(s)$" || fail "100 students: $out"
printf '%s\n' "$out" | grep -qx "Score: mean 54 %, median 71 %, lowest 29 %, highest 71 %" || fail "scores of 100: $out"
printf '%s\n' "$out" | grep -qx "Students by score: 0-19 %: 0, 20-39 %: 40, 40-59 %: 0, 60-79 %: 60, 80-100 %: 0" || fail "spread of 100: $out"
printf '%s\n' "$out" | grep -qx "  #  question                   right   wrong  blank" || fail "header of 100: $out"
printf '%s\n' "$out" | grep -qx "  2  9.1:dtype                   60/100 40     0" || fail "dtype of 100: $out"
printf '%s\n' "$out" | grep -qx "  4  9.2:predict-bw              60/100 0      40" || fail "predict-bw of 100: $out"
# a lesson's own words for a mistake, its full stop dropped before the answers
printf '%s\n' "$out" | grep -qxF '       60 x 6 is the decimal figure, 6e9 B / 10^9 = 6 GB; a GiB is 2^30 B: "6" (60)' ||
    fail "a declared mistake's words: $out"
out=$(v compare "$C" 2>&1) || fail "compare 100: $out"
printf '%s\n' "$out" | awk '{ gsub(/[\200-\277]/, ""); if (length($0) > 100) { print "wide: " $0; bad = 1 } } END { exit bad }' ||
    fail "compare of 100 is wider than 100 columns"
[ "$(printf '%s\n' "$out" | grep -c '^question ')" = 8 ] || fail "compare of 100: not 8 blocks of 14: $out"
[ "$(printf '%s\n' "$out" | grep -c '^score ')" = 8 ] || fail "compare of 100: a block without its scores"
printf '%s\n' "$out" | grep -qE '^question +s099 s100$' || fail "the last block: $out"
printf '%s\n' "$out" | grep -qE '^score +71% +71% +71% +71% +29% +29%' || fail "the scores where alice's copies end: $out"
printf '%s\n' "$out" | grep -q ' $' && fail "compare ends a line with spaces"

# --- a broken exercise is the teacher's: not graded, said in the results
sed -i 's/if fn(3e9, 2) ~= 6e9 then/if fn(3e9, 2) ~= nil .. 6e9 then/' "$c/ch09/9.1-bytes-of-a-model.lua"
printf '9.1:bytes-fn function weight_bytes(p, b) return p * b end\n' > "$d/e1"
out=$(v exam 9.1:bytes-fn,9.1:dtype --student erin --results "$R" --answers "$d/e1" 2>&1) || fail "erin: $out"
case $out in *"0 of 1 right"*"1 question(s) could not be graded: the exercise is broken"*) ;; *) fail "erin: $out" ;; esac
grep -q '"status":"broken","mistake":"broken","detail":".*9.1-bytes-of-a-model.lua:[0-9]*: attempt to concatenate a nil value' "$R/list-erin.jsonl" ||
    fail "broken in the results: $(cat "$R/list-erin.jsonl")"
echo ok
