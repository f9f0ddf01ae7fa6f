#!/bin/sh
# broken_exercise.sh BUILD - the teacher's mistakes are the teacher's, on the screen: a predict
# exercise whose own measure() raises tells the learner "This exercise is broken, tell your
# teacher: FILE:LINE: error" (and in 中文 once L switches the language), gives no hint, and the
# try is not counted: not in the section's summary, not in the saved progress. The learner's
# own tries at the exercise after it still count. In watch mode the same: a code exercise whose
# check raises shows the message marked !, no "Not passing yet", and no try is saved.
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
    id = "f", kind = "code", entry = "double",
    prompt = { en = "Write double(x) returning twice x.", zh = "写 double(x)，返回 x 的两倍。" },
    starter = "function double(x)\n  return x\nend\n",
    check = function(fn)
      local want = nil
      return fn(21) == want.value
    end,
    hints = { { en = "Multiply by two.", zh = "乘以二。" } },
    explain = { en = "2 * x.", zh = "2 * x。" },
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

# the next exercises: the code one is left for watch below; one wrong try at the number and one
# right: the summary counts 2 tries, not 3
keys ']'
wait_for 'Write double'
keys ']'
wait_for 'Six times seven'
keys Enter
keys 4 1 Enter
wait_for 'Count by sevens' 5
keys Enter
keys BSpace 2 Enter
wait_for '6 x 7 = 42' 5
wait_for 'End of the section: 1/3 exercises solved' 5
text | grep -qF '1/3exercisessolved,2triesthistime' || fail "the summary counts another number of tries"
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
# the saved progress (the state module's file): no try at the broken exercise, two at the other
p="$XDG_STATE_HOME/vramlab/progress"
grep -q '^ex 9\.1 p ' "$p" && fail "a try at the broken exercise was saved: $(cat "$p")"
grep -q '^ex 9\.1 n 2 1 ' "$p" || fail "the other exercise's two tries were not saved: $(cat "$p")"

# watch mode: a check that raises is the teacher's there too: "!", the message, no try saved
WS="$T/ws"
VRAMLAB_DATADIR=$d "$BIN" --backend sim exercises "$WS" >/dev/null 2>&1 || fail "exercises"
fresh watch
start 100 30 "VRAMLAB_DATADIR=$d $APP watch $WS"
wait_for 'Not started' 5
# the learner's edit, saved whole by rename as editors do
sed 's/return x$/return 2 * x/' "$WS/9.1-f.lua" > "$WS/new" && mv "$WS/new" "$WS/9.1-f.lua"
wait_for '! This exercise is broken, tell your teacher:' 10
screen | grep -q 'Not passing yet' && fail "watch counted the broken check as a failing try"
line2=$(grep -n 'want.value' "$f" | cut -d: -f1)
text | grep -qF "9.1-broken.lua:$line2:attempttoindexanilvalue(local'want')" || fail "watch: not file:$line2"
keys q
wait_exit 5
grep -q '^ex 9\.1 f ' "$p" && fail "watch saved a try at the broken exercise: $(cat "$p")"
echo "ok: a broken exercise is the teacher's (file:line, en and zh, marked !), no hint, not a try"
