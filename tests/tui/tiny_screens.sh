#!/bin/sh
# tiny_screens.sh BUILD - the exam screen and the snapshot screen (and its file prompt) at 10x3,
# at 1x1 and through storms of resizes (each SIGWINCH may land in the middle of a draw, of a
# load, of a what-if replay): never a crash; back at 100x30 each draws itself whole; and Ctrl-C
# then ends the program with the terminal as it was (stty -g before and after the same).
. tests/tui/tmux.lib "$@"
C="$PWD/tests/cli/data/teacher"
mkdir -p "$T/results"
storm() {
    i=0
    while [ $i -lt 40 ]; do resize $((1 + (i * 37) % 120)) $((1 + (i * 13) % 40)); i=$((i + 1)); done
}
# run_case NAME COMMAND: started at 10x3 inside a shell that saves the terminal's settings
run_case() {
    rm -f "$T/before" "$T/after"
    fresh "$1"
    start 10 3 "stty -g > $T/before; $2; code=\$?; stty -g > $T/after; (exit \$code)"
    n=0
    until [ -s "$T/before" ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "$1: did not start"; sleep 0.1; done
}
# interrupt NAME: Ctrl-C, then the exit and the terminal as it was
interrupt() {
    keys C-c
    wait_exit 10
    [ "$RC" = 130 ] || fail "$1: exit $RC after Ctrl-C, want 130"
    cmp -s "$T/before" "$T/after" || fail "$1: the terminal's settings differ after Ctrl-C"
}

# the exam: its start page, a question, the list, the submit question, each through storms (a
# screen too small to be read takes no key but Esc and Ctrl-C: keys are typed once it is drawn
# at 100x30 again)
run_case exam "$APP --lessons $C exam quiz --results $T/results --student tiny"
storm
resize 100 30
wait_for '7 questions' 5
keys Enter
wait_for 'Question 1 of 7' 5
storm
resize 100 30
wait_for 'Question 1 of 7' 5
keys 5
wait_for 'Your answer \(GiB\) > 5' 5
keys Tab
wait_for 'Questions: 1 of 7 answered' 5
resize 10 3
storm
resize 1 1
resize 100 30
wait_for 'Questions: 1 of 7 answered' 5
keys Escape
wait_for 'Question 1 of 7' 5
keys F10
wait_for 'Submit\?' 5
storm
resize 100 30
wait_for 'Submit\?' 5
keys n
wait_for 'Question 1 of 7' 5
interrupt exam
grep -q '^ans quiz tiny 9.1:weights-gib [0-9]* 5$' "$XDG_STATE_HOME/vramlab/exams" ||
    fail "the answer was not saved: $(cat "$XDG_STATE_HOME/vramlab/exams")"

# the snapshot screen: resized while it loads, with the what-if replay running, at 1x1
run_case snapshot "$APP assets/snapshots/gpt-train-oom.pickle"
storm
resize 100 30
wait_for 'Largest live at the cursor' 10
keys w
storm
resize 1 1
storm
resize 100 30
wait_for 'What if' 10
interrupt snapshot

# the file prompt of the tutor's menu, and a snapshot opened from it
run_case picker "$APP"
storm
resize 100 30
wait_for 'o: your own program' 5
keys o
wait_for '[Ss]hipped examples' 5
storm
resize 100 30
wait_for '[Ss]hipped examples' 5
keys Down Enter
storm
resize 100 30
wait_for 'Largest live at the cursor' 10
interrupt picker
echo "ok: exam and snapshot screens at 10x3, 1x1 and through resize storms; Ctrl-C restores"
