#!/bin/sh
# broken_exercise.sh BUILD - the teacher's mistakes are the teacher's, on the screen: a predict
# exercise whose own measure() raises tells the learner "This exercise is broken, tell your
# teacher: FILE:LINE: error" (and in 中文 once L switches the language), gives no hint, and the
# try is not counted: not in the section's summary, not in the saved progress. The learner's
# own tries at the exercise after it still count.
. tests/tui/tmux.lib "$@"

test_course
f="$d/lessons/ch09/9.1-broken.lua"
cat > "$f" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "A broken exercise", zh = "有错误的练习" },
  text { en = "# Broken\nThe first question's measure is wrong.", zh = "# 有错误\n第一题的测量代码有错。" },
  exercise {
    id = "p", kind = "predict", unit = "GB/s",
    prompt = { en = "Predict the copy's bandwidth.", zh = "预测这次拷贝的带宽。" },
    measure = function()
      local r = assert(gpu.copy { dir = "h2d", bytes = "4MiB" })
      return r.bandwith / 1e9, r
    end,
    hints = { { en = "Think of PCIe.", zh = "想想 PCIe。" } },
    explain = { en = "The link.", zh = "链路。" },
  },
  exercise {
    id = "n", kind = "number",
    prompt = { en = "Six times seven?", zh = "六乘七？" },
    answer = 42, tolerance = 0.001,
    hints = { { en = "Count by sevens.", zh = "七个七个地数。" } },
    explain = { en = "6 x 7 = 42.", zh = "6 × 7 = 42。" },
  },
}
LUA
# the line of the wrong field, found in the file rather than counted by hand
line=$(grep -n 'r.bandwith' "$f" | cut -d: -f1)

start 100 30 "VRAMLAB_DATADIR=$d $APP"
wait_for 'A broken exercise'
keys Enter
wait_for 'vramlab · 9\.1'
wait_for 'Answer \(GB/s\).*\(Enter to answer\)' # the first exercise is selected
keys Enter
keys 2 0 Enter
# the message names the file and the line of the teacher's code, marked "!" (not the cross of a
# wrong answer); the text column is read without its spaces: a long path wraps anywhere
text() { screen | sed 's/│.*//' | tr -d ' \n'; }
wait_for '! This exercise is broken, tell your teacher:' 10
text > "$T/text"
grep -qF "$(printf '%s' "9.1-broken.lua:$line: attempt to perform arithmetic on a nil value (field 'bandwith') (this try does not count)" | tr -d ' ')" "$T/text" ||
    fail "the message does not say file:$line and the error"
screen | grep -q 'Think of PCIe' && fail "a broken exercise gave a hint, as for a wrong try"
# 中文: the same feedback in the other language
keys L
wait_for '这道练习本身有错误，请告诉老师' 5
keys L
wait_for 'This exercise is broken' 5

# the next exercise: one wrong try, one right: the summary counts 2 tries, not 3
keys ']'
wait_for 'Six times seven'
keys Enter
keys 4 1 Enter
wait_for 'Count by sevens' 5
keys Enter
keys BSpace 2 Enter
wait_for '6 x 7 = 42' 5
wait_for 'End of the section: 1/2 exercises solved' 5
text | grep -qF '1/2exercisessolved,2triesthistime' || fail "the summary counts another number of tries"
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
# the saved progress (the state module's file): no try at the broken exercise, two at the other
p="$XDG_STATE_HOME/vramlab/progress"
grep -q '^ex 9\.1 p ' "$p" && fail "a try at the broken exercise was saved: $(cat "$p")"
grep -q '^ex 9\.1 n 2 1 ' "$p" || fail "the other exercise's two tries were not saved: $(cat "$p")"
echo "ok: a broken exercise is the teacher's (file:line, en and zh, marked !), no hint, not a try"
