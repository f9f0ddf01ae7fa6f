#!/bin/sh
# The tutorial docs/writing-lessons.md, as a teacher follows it: every `$ vramlab ...` line of it
# runs in order, with HOME a temp folder outside the repository (its ~/course), and each step is
# checked: the scaffold's files, the course listed with the teacher's section beside the built-in
# ones, check --run --answers passing as generated, the run in both languages, grading from the
# shell. `present` needs a terminal (tests/tui covers it): its line is only checked to parse.
# Then what the tutorial promises around the commands: an edit that breaks a reference answer is
# caught at its line, a draft is a warning and an error under --strict, an id used twice is
# refused, VRAMLAB_LESSONS adds the folder as --lessons does, and a profile in the folder's
# assets/gpus is one the simulator can use.
b=$(cd "$1" && pwd)/vramlab
doc=docs/writing-lessons.md
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export HOME="$d" XDG_STATE_HOME="$d/state" VRAMLAB_BACKEND=sim VRAMLAB_LANG=en
vramlab() { "$b" --deterministic --seed 1 "$@" </dev/null; }

grep '^\$ vramlab ' "$doc" | sed 's/^\$ //' >"$d/steps"
[ "$(wc -l <"$d/steps")" -ge 7 ] || fail "$doc: too few commands: $(cat "$d/steps")"
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    case $cmd in
    *" run "*) # under ASan the runs are lessons.sh's: each process here loads the whole catalog
        [ "$VRAMLAB_TEST_TAG" = asan ] && continue ;;
    esac
    case $cmd in
    *" present "*) # a terminal command: it must parse and find the lesson
        out=$(eval "$(echo "$cmd" | sed 's/ present / run /')" 2>&1) || fail "step $n ($cmd, as run): $out"
        continue ;;
    esac
    out=$(eval "$cmd" 2>&1); rc=$?
    case $cmd in
    *new-lesson*)
        [ $rc -eq 0 ] || fail "step $n ($cmd): exit $rc: $out"
        lf=$(ls "$d"/course/ch09/9.1-*.lua | grep -v answers) af=$(ls "$d"/course/ch09/9.1-*.answers.lua)
        [ -s "$lf" ] && [ -s "$af" ] || fail "step $n: no lesson and answers file in ~/course/ch09: $out" ;;
    *" list"*)
        [ $rc -eq 0 ] || fail "step $n ($cmd): exit $rc: $out"
        printf '%s\n' "$out" | grep -q '^  1\.1 ' || fail "step $n: the built-in lessons are not listed: $out"
        printf '%s\n' "$out" | grep -q '^  9\.1 *Pinned vs pageable memory$' || fail "step $n: 9.1 is not listed: $out" ;;
    *" check "*)
        [ $rc -eq 0 ] || fail "step $n ($cmd): exit $rc: $out"
        # the one warning: the Chinese title is the English one until the teacher translates it
        case $out in *"lesson title: the zh text is the en text (\"Pinned vs pageable memory\"): translate it"*"run on the simulator, 0 failed"*"reference answer(s) graded, 0 not as expected"*) ;;
        *) fail "step $n ($cmd): $out" ;; esac ;;
    *"--lang zh run"*)
        [ $rc -eq 0 ] || fail "step $n ($cmd): exit $rc: $out"
        case $out in *"按大小的主机到设备拷贝"*SIMULATED*) ;; *) fail "step $n: not the Chinese run: $out" ;; esac ;;
    *" run "*)
        [ $rc -eq 0 ] || fail "step $n ($cmd): exit $rc: $out"
        case $out in "9.1 Pinned vs pageable memory"*"h2d: x=67,108,864"*SIMULATED*) ;; *) fail "step $n: $out" ;; esac ;;
    *"--try 3"*)
        [ $rc -eq 1 ] || fail "step $n ($cmd): exit $rc: $out"
        case $out in *"GB/GiB ratio"*"The answer: 42.95 ms. "*) ;; *) fail "step $n: $out" ;; esac ;;
    *"grade 9.1 time 40")
        [ $rc -eq 1 ] || fail "step $n ($cmd): exit $rc: $out"
        case $out in "Not quite. That is off by the GB/GiB ratio"*"Time = bytes"*) ;; *) fail "step $n: $out" ;; esac ;;
    *" grade "*)
        [ $rc -eq 0 ] || fail "step $n ($cmd): exit $rc: $out"
        case $out in Right.*) ;; *) fail "step $n: $out" ;; esac ;;
    *) fail "step $n ($cmd): this test does not know what to expect of it" ;;
    esac
done <"$d/steps"
echo "  $n tutorial commands"

# an edit the answers no longer match: check --answers says where
sed -i 's/answer = 2^30 \/ 25e9 \* 1e3/answer = 2^30 \/ 20e9 * 1e3/' "$lf"
out=$(vramlab --lessons ~/course check --answers 9.1 2>&1) && fail "a changed answer passed check --answers"
case $out in *"9.1-pinned-vs-pageable-memory.answers.lua:"*"right answer 1 (42.95): graded wrong"*) ;;
*) fail "a changed answer: $out" ;; esac
# check --run: a point sent to a panel the experiment does not declare, at the lesson's line
sed -i 's/answer = 2^30 \/ 20e9 \* 1e3/answer = 2^30 \/ 25e9 * 1e3/; s/ex:point("bw", "h2d"/ex:point("bandwidth", "h2d"/' "$lf"
line=$(grep -n 'ex:point("bandwidth"' "$lf" | cut -d: -f1)
out=$(vramlab --lessons ~/course check --run 9.1 2>&1) && fail "check --run passed an undeclared panel"
case $out in *"$lf:$line: no panel 'bandwidth' in experiment 'copy'"*) ;; *) fail "check --run, undeclared panel (line $line): $out" ;; esac
sed -i 's/ex:point("bandwidth", "h2d"/ex:point("bw", "h2d"/' "$lf"
vramlab --lessons ~/course check --run --answers 9.1 >/dev/null 2>&1 || fail "the lesson, repaired, does not pass"
# an id used twice: refused by new-lesson; a copied file is an error naming both
vramlab new-lesson 9.1 "Again" --dir ~/course >"$d/out" 2>&1 && fail "new-lesson wrote a second 9.1"
grep -q "section 9.1 exists already: .*9.1-pinned-vs-pageable-memory.lua" "$d/out" || fail "id clash: $(cat "$d/out")"
mkdir -p "$d/more" && cp "$lf" "$d/more/copy.lua"
out=$(vramlab --lessons ~/course --lessons "$d/more" list 2>&1) && fail "two lessons 9.1 listed without an error"
line=$(grep -n '^  id = "9.1"' "$lf" | cut -d: -f1) # at the id's line, not the file's first
case $out in *"more/copy.lua:$line: lesson id 9.1 is also used by $lf"*) ;; *) fail "id used twice: $out" ;; esac
# VRAMLAB_LESSONS adds the folder as --lessons does; a draft: a warning, an error with --strict
out=$(VRAMLAB_LESSONS="$d/course" vramlab new-lesson 9.2 "Draft" --lang en --dir ~/course 2>&1) || fail "draft: $out"
out=$(VRAMLAB_LESSONS="$d/course" vramlab check --answers 9.2 2>&1) || fail "a draft failed check: $out"
case $out in *"warning: "*"9.2-draft.lua:3: a draft in en: "*" not yet translated into zh"*) ;; *) fail "draft warning: $out" ;; esac
out=$(VRAMLAB_LESSONS="$d/course" vramlab check --strict 9.2 2>&1) && fail "check --strict passed a draft"
case $out in *"error: "*"not yet translated"*) ;; *) fail "--strict: $out" ;; esac
[ "$VRAMLAB_TEST_TAG" = asan ] ||
out=$(VRAMLAB_LESSONS="$d/course" vramlab --lang zh run 9.2 2>&1) || fail "draft run: $out"
[ "$VRAMLAB_TEST_TAG" = asan ] ||
case $out in "9.2 Draft（尚未翻译）"*) ;; *) fail "a draft's run in zh does not say it is not translated: $out" ;; esac
# a folder that does not exist is an error, not a course without it
out=$(vramlab --lessons ~/cuorse list 2>&1) && fail "--lessons with a missing folder passed"
case $out in *"cuorse: no such folder of lessons (--lessons)"*) ;; *) fail "--lessons ~/cuorse: $out" ;; esac
# a folder's own assets/gpus: a profile added beside the installation's, used by --profile
mkdir -p "$d/course/assets/gpus"
sed 's/^name = .*/name = Lab teaching GPU/' assets/gpus/t4.txt >"$d/course/assets/gpus/lab-gpu.txt"
out=$(vramlab --lessons ~/course profiles 2>&1) || fail "profiles with a folder's own: $out"
case $out in *"lab-gpu "*"Lab teaching GPU"*"rtx3090"*) ;; *) fail "the folder's profile is not listed beside the installation's: $out" ;; esac
out=$(vramlab --lessons ~/course --profile lab-gpu info 2>&1) || fail "--profile lab-gpu: $out"
case $out in *"Lab teaching GPU profile (lab-gpu)"*) ;; *) fail "--profile lab-gpu: $out" ;; esac
echo "  edits, id clashes, VRAMLAB_LESSONS, drafts and a folder's own profile"
exit 0
