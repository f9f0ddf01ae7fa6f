#!/bin/sh
# exam.sh BUILD - `vramlab exam` on a terminal, as a student takes it (tests/cli/data/teacher's
# quiz): the start page says the number of questions and the time limit and starts nothing until
# Enter; a question shows its prompt and an answer field, the timer counts down in the title bar,
# each answer is saved as it is typed; Tab lists the questions with the answered ones marked; the
# tutor killed in the middle (a crash) and started again resumes with the answers and the clock;
# F10 asks before it submits; the results are graded and written; an exam already submitted is
# not taken again; and when the time runs out on screen, the answers are submitted as they are.
. tests/tui/tmux.lib "$@"
C="$PWD/tests/cli/data/teacher"
R="$T/results"
mkdir -p "$R"
EX="$APP --lessons $C exam quiz --results $R --student"
# wait_saved REGEX [SECONDS]: until the state folder's exams file has a line matching
wait_saved() {
    n=$(( ${2:-5} * 10 ))
    while [ $n -gt 0 ]; do
        grep -Eq -- "$1" "$XDG_STATE_HOME/vramlab/exams" 2>/dev/null && return 0
        sleep 0.1
        n=$((n - 1))
    done
    fail "waited ${2:-5} s for /$1/ in the saved answers: $(cat "$XDG_STATE_HOME/vramlab/exams")"
}

start 100 30 "$EX carol"
wait_for '7 questions · 20:00 to answer them · student carol' 5
screen | grep -q 'left' && fail "the clock runs before Enter"
[ -e "$XDG_STATE_HOME/vramlab/exams" ] && grep -q carol "$XDG_STATE_HOME/vramlab/exams" && fail "started before Enter"
keys Enter
wait_for 'Question 1 of 7 · 9\.1 Bytes of a model' 5
wait_for '[0-9]+:[0-9]{2} left' 3
# SIMULATED once, in the header strip, as on the tutor's screens; the status line names the GPU
screen | head -n 1 | grep -q 'SIMULATED' || fail "the header strip does not say SIMULATED"
screen | tail -n 1 | grep -q 'SIMULATED' && fail "the status line says SIMULATED again"
screen | tail -n 1 | grep -q 'RTX 3090' || fail "the status line lost the GPU"
screen | grep -q 'Your answer (GiB) >' || fail "no answer field with its unit"
# on a narrow terminal the key bar still offers submitting (hints go from the right)
resize 60 30
wait_for 'F10 submit' 3
resize 100 30
keys -l '5.588'
wait_for 'saved' 3
wait_saved '^ans quiz carol 9.1:weights-gib [0-9]+ 5.588$'
keys Enter
wait_for 'Question 2 of 7' 3
keys 2
wait_saved '^ans quiz carol 9.1:dtype [0-9]+ 2$'
keys Tab
wait_for 'Questions: 2 of 7 answered' 3
# answered is not right: a filled dot, never the check mark of a right answer
screen | grep -qE '● +1 9\.1 ' || fail "question 1 is not marked answered"
screen | grep -q '✓' && fail "a check mark in an exam before it is graded"
keys Escape
wait_for 'Question 2 of 7' 3
# a crash: the tutor killed, then started again
fresh again
start 100 30 "$EX carol"
wait_for 'Resumed: [0-9]+:[0-9]{2} left' 5
wait_for 'Question 1 of 7' 3
screen | grep -q '5\.588' || fail "the saved answer is not back in its field"
# at 80 columns the question wraps: its keys are never cut off past the edge
resize 80 24
keys F10
wait_for 'Submit\? 2 of 7 answered, 5 blank' 3
wait_for 'n: go back' 3
screen | grep -q 'y: submit' || fail "the submit question lost its keys"
keys n
wait_for 'Question 1 of 7' 3
resize 100 30
keys F10
wait_for 'Submit\?' 3
keys y
wait_for 'Submitted\.' 10
wait_for '2 of 7 right' 10
wait_exit 10
[ "$RC" = 0 ] || fail "exit $RC after submitting"
[ -s "$R/quiz-carol.jsonl" ] && [ -s "$R/quiz-carol.csv" ] || fail "no results written: $(ls "$R")"
# submitted: not taken again
fresh twice
start 100 30 "$EX carol"
wait_for 'carol submitted exam quiz already' 10
wait_exit 10
# the time runs out on screen: 6 seconds left, then submitted as it is
fresh late
start 100 30 "$EX dave"
wait_for 'student dave' 5
keys Enter
wait_for 'Question 1 of 7' 5
keys -l '6'
wait_saved '^ans quiz dave 9.1:weights-gib [0-9]+ 6$'
keys Escape
wait_for 'Leave\?' 3
keys y
wait_exit 5
now=$(date +%s)
sed -i "s/^start quiz dave [0-9]* 1200$/start quiz dave $((now - 1194)) 1200/" "$XDG_STATE_HOME/vramlab/exams"
fresh late2
start 100 30 "$EX dave"
wait_for 'Resumed: 00:0[0-9] left|Time is up' 10
wait_for 'Time is up: your answers were submitted as they were' 15
wait_exit 10
grep -q '"timed_out":true' "$R/quiz-dave.jsonl" || fail "not recorded as timed out: $(head -1 "$R/quiz-dave.jsonl")"
# in 中文: the start page, a question, the list
fresh zh
start 100 30 "$APP --lang zh --lessons $C exam quiz --results $R --student erin"
wait_for '7 道题 · 限时 20:00 · 考生 erin' 5
keys Enter
wait_for '第 1 题，共 7 题' 5
wait_for '剩余 [0-9]+:[0-9]{2}' 3
keys Tab
wait_for '题目：已答 0 / 7' 3
keys Escape
wait_for '第 1 题' 3
keys Escape
wait_for '离开吗？' 3
keys y
wait_exit 5
echo "ok: an exam on a terminal: start, save as typed, resume, submit, time out"
