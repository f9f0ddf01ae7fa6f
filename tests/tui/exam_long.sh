#!/bin/sh
# exam_long.sh BUILD - an exam's answer is never cut: the answer field holds what the sheet keeps
# (LT_TYPED_MAX bytes, one limit), so `--answers FILE` refuses a longer answer in its own words
# instead of saving a cut one, and an answer on the sheet the field cannot hold whole (one written
# by another program) is kept as it is while the student goes through the questions (it was
# cut to the field, then saved cut over the whole one).
. tests/tui/tmux.lib "$@"
C="$PWD/tests/cli/data/teacher"
R="$T/results"
mkdir -p "$R"
S="$XDG_STATE_HOME/vramlab/exams"
long=$(head -c 5000 /dev/zero | tr '\0' x)
printf '9.1:weights-gib 5.588\n9.1:bytes-fn -- %s\n' "$long" >"$T/answers"
out=$("$BIN" --backend sim --lessons "$C" exam quiz --results "$R" --student fay --answers "$T/answers" \
      --no-submit 2>&1) && fail "an answer of 5003 bytes was taken: $out"
echo "$out" | grep -q "9.1:bytes-fn: an answer of more than 4095 bytes is not saved" ||
    fail "no word of the answer that is too long: $out"
grep -q '^ans quiz fay 9.1:weights-gib [0-9]* 5.588$' "$S" || fail "the other answer was not saved: $(cat "$S")"
grep -q 'bytes-fn' "$S" && fail "a cut answer was saved: $(grep bytes-fn "$S" | head -c 200)"
# a sheet line longer than the field: the student goes through every question and leaves
printf 'ans quiz fay 9.1:bytes-fn %s -- %s\n' "$(date +%s)" "$long" >>"$S"
start 100 30 "$APP --lessons $C exam quiz --results $R --student fay"
wait_for 'Resumed: [0-9]+:[0-9]{2} left' 5
wait_for 'Question 1 of 7' 3
i=1
while [ $i -lt 7 ]; do
    keys Enter
    i=$((i + 1))
    wait_for "Question $i of 7" 3
done
keys Escape
wait_for 'Leave\?' 3
keys y
wait_exit 5
got=$(sed -n 's/^ans quiz fay 9\.1:bytes-fn [0-9]* //p' "$S")
[ "$got" = "-- $long" ] || fail "the long answer became ${#got} bytes"
echo "ok: exam answers: one limit for the field and the sheet, a longer one never cut"
