#!/bin/sh
# The tolerance audit `vramlab check --answers` runs over every number exercise, a teacher's as
# well as the course's (lua/lib/grading.lua): the answer and its roundings to 3 and 2
# significant figures graded right, in its unit and in the other units of its kind; the typical
# wrong answers (GB for GiB, bits for bytes, the fraction for a percentage, x2, every declared
# mistake) graded wrong, each naming its mistake in both languages. A tolerance that cannot tell
# a named wrong answer from the right one fails at the exercise's line.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
mkdir -p "$d/t/ch09"
# lesson EXERCISE-FIELDS...: a lesson 9.1 with one number exercise 'n', and its reference answers
lesson() {
    {
        echo 'return lesson {'
        echo '  id = "9.1", chapter = 9, title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },'
        echo '  exercise { id = "n", kind = "number", prompt = { en = "How many?", zh = "多少？" },'
        echo "    $1,"
        echo '    hints = { { en = "Count.", zh = "数。" } }, explain = { en = "E.", zh = "解。" } },'
        printf '%s\n' '  text { en = "> [!source] Sources\n> - none", zh = "> [!source] 出处\n> - 无" },'
        echo '}'
    } >"$d/t/ch09/9.1-t.lua"
    printf 'answer "n" { right = %s, wrong = "0.001" }\n' "$2" >"$d/t/ch09/9.1-t.answers.lua"
}
check() { out=$("$b" --backend sim --lessons "$d/t" check --answers "$d/t" 2>&1); rc=$?; }

# a tolerance of 10 % on a GiB answer cannot tell the answer worked in GB from the right one
lesson 'answer = 0.5285, unit = "GiB", tolerance = 0.1' '"0.53"'
check
[ $rc -eq 1 ] || fail "a 10 % tolerance on GiB passed the audit: $out"
case $out in *"9.1-t.lua:3: exercise 'n': audit: the number in GB typed bare (0.567472554): graded right"*) ;;
*) fail "the GB answer is not named: $out" ;; esac
case $out in *"audit: the answer's number with GB (0.5285 GB): graded right"*) ;;
*) fail "0.5285 GB is not named: $out" ;; esac
# a tolerance too tight for a normal rounding of a percentage
lesson 'answer = (161 + 338) / 2048 * 100, unit = "%", tolerance = 0.01' '"24.37"'
check
[ $rc -eq 1 ] || fail "a 1 % tolerance passed 24 for 24.37: $out"
case $out in *"audit: the answer to 2 significant figures (24): graded wrong"*) ;; *) fail "24: $out" ;; esac
# a declared mistake the grader never names: an earlier one matches the same answer first
lesson 'answer = 14, unit = "GB", tolerance = 0.02, mistakes = { "x2", { factor = 2, say = { en = "K and V.", zh = "K 和 V。" } } }' '"14"'
check
[ $rc -eq 1 ] || fail "a shadowed mistake passed: $out"
case $out in *"audit: mistake 2 (x2) (28): its feedback does not say what \`says\` expects, expected: K and V."*) ;;
*) fail "the shadowed mistake: $out" ;; esac
# a sound exercise passes, with what the audit graded counted
lesson 'answer = 0.5285, unit = "GiB", tolerance = 0.03, mistakes = { { value = 0.94, say = { en = "The cache is PyTorch'"'"'s.", zh = "缓存属于 PyTorch。" } } }' '"0.53"'
check
[ $rc -eq 0 ] || fail "a sound exercise failed the audit: $out"
case $out in *"(2 answers, 19 audited)"*) ;; *) fail "the audit count: $out" ;; esac
case $out in *"19 answer(s) of the tolerance audit graded (every number exercise)"*) ;; *) fail "the total: $out" ;; esac
# in Chinese the audit reports in the same words, and checks the Chinese feedback too
lesson 'answer = 85, unit = "%", tolerance = 0.02' '"85"'
out=$("$b" --backend sim --lang zh check --answers "$d/t" 2>&1) || fail "zh: $out"
case $out in *"容差审查批改了 5 个答案（每道数值题）"*) ;; *) fail "zh total: $out" ;; esac
echo ok
