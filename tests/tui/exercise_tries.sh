#!/bin/sh
# exercise_tries.sh BUILD - a graded answer leaves the field (a second Enter does not resubmit),
# the same answer again is not graded and not counted as a try, and the last exercise of a
# section ends with a summary (solved/total, tries) and "n: next section", which n follows.
. tests/tui/tmux.lib "$@"

test_course
cat > "$d/lessons/ch09/9.1-tries.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Two exercises", zh = "两道练习" },
  text { en = "# Tries\nTwo questions.", zh = "# 尝试\n两道题。" },
  exercise {
    id = "n", kind = "number",
    prompt = { en = "Six times seven?", zh = "六乘七？" },
    answer = 42, tolerance = 0.001,
    hints = { { en = "Count by sevens.", zh = "七个七个地数。" } },
    explain = { en = "6 x 7 = 42.", zh = "6 × 7 = 42。" },
  },
  exercise {
    id = "c", kind = "choice",
    prompt = { en = "Pick the second.", zh = "选第二个。" },
    choices = { { en = "first", zh = "第一" }, { en = "second", zh = "第二" } },
    answer = 2,
    hints = { { en = "Not the first.", zh = "不是第一个。" } },
    explain = { en = "The second.", zh = "第二个。" },
  },
}
LUA
cat > "$d/lessons/ch09/9.2-after.lua" <<'LUA'
return lesson {
  id = "9.2", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "The section after", zh = "后一节" },
  text { en = "# After\nNothing here.", zh = "# 之后\n这里没有内容。" },
}
LUA

start 100 30 "VRAMLAB_DATADIR=$d $APP"
wait_for 'Two exercises'
idx=$(VRAMLAB_DATADIR=$d menu_index 9.1)
[ -n "$idx" ] || fail "9.1 is not listed"
i=1
while [ "$i" -lt "$idx" ]; do keys Down; i=$((i + 1)); done
keys Enter
wait_for 'vramlab · 9\.1'
wait_for 'Answer.*\(Enter to answer\)' # the first exercise is the one on screen: selected
keys Enter
keys 4 1 Enter
wait_for 'Count by sevens' 5
# graded: the field is no longer being edited, so a typed digit does not reach it
keys 9
settle # the 9 was read: the help overlay's round trip came after it
screen | grep -q 'Answer.*419' && fail "the field still took keys after grading"
screen | grep -q 'Answer.*41' || fail "the graded answer 41 is not shown"
# Enter edits again with the answer kept; Enter on the unchanged answer is no try
keys Enter
keys Enter
wait_for 'Same answer as before' 5
keys Enter
keys BSpace 2 Enter
wait_for '6 x 7 = 42' 5
keys ']'
wait_for 'Answer \(1-2\)'
keys 2
# three tries counted: 41, 42 and the choice; the unchanged 41 was not one
wait_for 'End of the section: 2/2 exercises solved, 3 ' 5
wait_for 'n: next section'
keys n
wait_for 'vramlab · 9\.2' 5
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
echo "ok: graded answers leave the field, same answer is no try, section summary"
