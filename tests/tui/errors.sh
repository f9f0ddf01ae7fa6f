#!/bin/sh
# errors.sh BUILD - a broken lesson shows in the menu with its file:line error and opens to an
# error page; an experiment that raises a Lua error shows the error in the panel, and the lesson
# stays usable (it can run again, q goes back).
. tests/tui/tmux.lib "$@"

test_course
cat > "$d/lessons/ch09/9.1-fails.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "An experiment that fails", zh = "会失败的实验" },
  text { en = [[
# Failing on purpose
This lesson's experiment raises an error after one bar.
]], zh = [[
# 故意失败
这个实验画出一根柱子后就报错。
]] },
  experiment {
    id = "boom",
    title = { en = "Boom", zh = "爆炸" },
    panels = { { id = "bw", kind = "bars", title = { en = "Bars", zh = "柱" }, unit = "GB/s" } },
    run = function(ex)
      ex:bar("bw", "one", 1.5, { style = "measured" })
      error("deliberate failure in the experiment")
    end,
  },
}
LUA
printf 'return lesson {\n  id = "9.2",\n  chapter = "nine",\n}\n' > "$d/lessons/ch09/9.2-broken.lua"

start 100 30 "VRAMLAB_DATADIR=$d $APP"
wait_for 'An experiment that fails'
wait_for '9\.2-broken\.lua:[0-9]+'
idx=$(VRAMLAB_DATADIR=$d menu_index 9.1)
[ -n "$idx" ] || fail "9.1 is not listed"
i=1
while [ "$i" -lt "$idx" ]; do keys Down; i=$((i + 1)); done
keys Enter
wait_for 'vramlab · 9\.1'
keys r
wait_for 'deliberate failure' 10
wait_for 'failed'
wait_for '1\.50 GB/s'
# still usable: run again, scroll, help
keys Enter
wait_for 'deliberate failure' 10
keys '?'
wait_for 'Keys'
keys Escape
keys q
wait_for 'vramlab · lessons'
# the broken lesson opens to an error page, not a crash
keys End
keys Enter
wait_for 'could not be loaded' 5
to_menu
keys q
wait_exit 5; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc"
echo "ok: errors shown, tutor alive"
