#!/bin/sh
# exam_files.sh BUILD - the class's results folder is written by every student: `vramlab results`
# and `compare` read it as files from outside. An exam, student or question id that is not an id
# (a newline or an escape in it: it forged lines of the teacher's report) makes the file's error,
# at its line; a FIFO or a folder named *.jsonl is not listed (the reader would refuse it); a
# chosen answer's text is escaped like every other answer. And the exam sheet in the state folder
# at its limit: an answer that would pass it is refused in words, the sheet stays readable.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
c="$PWD/tests/cli/data/teacher" R="$d/results"
mkdir -p "$R" "$d/bad"
export XDG_STATE_HOME="$d/state"
v() { "$b" --backend sim --deterministic --lessons "$c" "$@"; }
printf '9.1:weights-gib 5.588\n9.1:dtype 3\n' >"$d/answers"
v exam quiz --results "$R" --student kim --answers "$d/answers" >/dev/null 2>&1
f="$R/quiz-kim.jsonl"
[ -s "$f" ] || fail "no results written: $(ls "$R")"
grep -q '"q":"9.1:dtype"' "$f" || fail "no dtype question in $f"
# a FIFO and a folder named as results: not listed, the report as before
mkfifo "$R/fifo.jsonl"
mkdir "$R/folder.jsonl"
out=$(timeout 10 "$b" --lessons "$c" results "$R" 2>&1) || fail "results beside a FIFO and a folder: $out"
printf '%s\n' "$out" | grep -q '^  kim ' || fail "kim not in the report: $out"
# ids with a newline and an escape: refused at their line, nothing forged
esc='\\u001b]52;c;UFdORUQ=\\u0007\\nFORGED'
for what in "exam:1" "student:1" "q:3"; do
    k=${what%%:*} ln=${what#*:}
    case $k in
    q) sed "s/\"q\":\"9.1:dtype\"/\"q\":\"9.1:dtype$esc\"/" "$f" >"$d/bad/x.jsonl" ;;
    *) sed "1s/\"$k\":\"\\([a-z]*\\)\"/\"$k\":\"\\1$esc\"/" "$f" >"$d/bad/x.jsonl" ;;
    esac
    grep -q FORGED "$d/bad/x.jsonl" || fail "the $k was not changed"
    for cmd in results compare; do
        out=$("$b" --lessons "$c" $cmd "$d/bad/x.jsonl" "$f" 2>&1) && fail "$cmd took a $k with a newline: $out"
        printf '%s\n' "$out" | grep -q "^FORGED" && fail "$cmd: a line forged by the $k: $out"
        printf '%s\n' "$out" | grep -q "x.jsonl:$ln: " || fail "$cmd: no error at x.jsonl:$ln: $out"
    done
done
# a chosen answer's mistake word from the file: escaped
sed 's/"mistake":"[^"]*"/"mistake":"choice 9\\u001b[2J\\nFORGED"/; s/"status":"[a-z]*"/"status":"wrong"/' \
    "$f" >"$d/bad/y.jsonl"
out=$("$b" --lessons "$c" results "$d/bad/y.jsonl" 2>&1) || fail "results of a chosen answer: $out"
printf '%s\n' "$out" | grep -q "^FORGED" && fail "a line forged by a mistake word: $out"
printf '%s\n' "$out" | grep -qF 'chose 9\x1b[2J\x0aFORGED' || fail "the chosen answer not escaped: $out"
# the sheet at its limit (16 MiB, many students on one account): an answer that would pass it is
# not saved, in words, and the sheet stays one the next student can read (written, it was the
# next reader's "too large": kept aside with every student's answers in it)
S="$XDG_STATE_HOME/vramlab/exams"
now=$(date +%s)
awk -v now="$now" -v big="$(head -c 4000 /dev/zero | tr '\0' y)" 'BEGIN {
    for (i = 0; i < 4140; i++) printf "ans quiz s%d 9.1:bytes-fn %d %s\n", i, now, big }' >>"$S"
# and one more that leaves 1000 bytes below the limit
head="ans quiz s9999 9.1:bytes-fn $now "
fill=$((16777216 - 1000 - $(wc -c <"$S") - ${#head} - 1))
printf '%s%s\n' "$head" "$(head -c "$fill" /dev/zero | tr '\0' y)" >>"$S"
[ "$(wc -c <"$S")" = 16776216 ] || fail "the sheet is $(wc -c <"$S") bytes"
printf '9.1:bytes-fn %s\n' "$(head -c 4000 /dev/zero | tr '\0' z)" >"$d/big"
out=$(v exam quiz --results "$R" --student lee --answers "$d/big" --no-submit 2>&1) &&
    fail "an answer past the sheet's limit was taken: $out"
printf '%s\n' "$out" | grep -q "not saved: .*exams would be 16.00 MiB, over its limit of 16 MiB" ||
    fail "no word of the limit: $out"
printf '9.1:dtype 2\n' >"$d/small"
out=$(v exam quiz --results "$R" --student ann --answers "$d/small" --no-submit 2>&1) ||
    fail "the next student could not use the sheet: $out"
ls "$XDG_STATE_HOME/vramlab" | grep -q 'exams\.corrupt' && fail "the sheet was kept aside: $out"
grep -q '^ans quiz s9999 ' "$S" || fail "the other students' answers are gone"
echo "ok: results files from outside: ids checked, listings as the reader, texts escaped"
