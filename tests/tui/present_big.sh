#!/bin/sh
# present_big.sh BUILD - the presenter on a projector: at 80x24, 120x40, 200x50 and 300x80 the
# key figure is drawn in the block font as large as the screen allows (5 rows at 80x24, most of
# the screen from 200x50 on) and the text takes the width (not a 76-column strip); the figure is
# the measured one, not the theoretical peak beside it; Space holds a run and goes on with it
# (nothing dropped, the run finishes); a key that would leave a running step asks first; Enter
# on a step with results asks, another key keeps them; a step left and come back to shows its
# results as they were; in 中文 at 200x50 the same, nothing past the width; a curve key's
# chart on the page after the figure as tall as a 200x50 screen allows.
. tests/tui/tmux.lib "$@"

# big_rows: the longest run of consecutive screen rows holding block-font ink (██)
big_rows() { screen | awk '/██/ { n++; if (n > m) m = n; next } { n = 0 } END { print m + 0 }'; }
# ink_cols: the widest stretch of columns from the first to the last ink cell on any row
ink_cols() {
    screen | python3 -c '
import sys
w = 0
for l in sys.stdin:
    if "█" in l: w = max(w, l.rindex("█") - l.index("█") + 1)
print(w)'
}

for size in 80x24 120x40 200x50 300x80; do
    W=${size%x*} H=${size#*x}
    fresh "s$size"
    start "$W" "$H" "$APP present 1.3"
    wait_for '1 / [0-9]+' 10
    # the text takes the width beyond 84 columns: a line of a text step longer than 76 columns
    if [ "$W" -ge 200 ]; then
        sync Space
        longest=$(screen | sed -n '2,$p' | python3 -c 'import sys; print(max(len(l.strip()) for l in sys.stdin))')
        [ "$longest" -gt 120 ] || fail "$size: the text stays in a narrow strip (longest line $longest)"
    fi
    present_to_run
    keys Enter
    wait_for '^ +done' 30
    wait_for 'VRAM / RAM · SIMULATED' 5
    rows=$(big_rows) cols=$(ink_cols)
    case $size in
    80x24) [ "$rows" -ge 5 ] || fail "$size: the key figure is $rows rows" ;;
    *) [ $((rows * 10)) -ge $((H * 5)) ] || fail "$size: the key figure is $rows of $H rows"
       [ $((cols * 10)) -ge $((W * 4)) ] || fail "$size: the key figure is $cols of $W columns" ;;
    esac
    check_width "$W"
    keys q
    wait_exit 5
    [ "$RC" = 0 ] || fail "$size: exit code $RC"
done

# 中文 on a projector: the figure as large, its label in Chinese, nothing past the width
fresh zh
start 200 50 "$APP --lang zh present 1.3"
wait_for '1 / [0-9]+' 10
present_to_run 'Enter 运行'
keys Enter
wait_for '显存 / 内存 · SIMULATED 模拟' 30
[ $(($(big_rows) * 2)) -ge 50 ] || fail "zh 200x50: the key figure is $(big_rows) rows"
check_width 200
keys q
wait_exit 5

# ---- a run held and gone on with; keys that would lose it ask -------------------------------
test_course
cat > "$d/lessons/ch09/9.1-slow.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Slow", zh = "慢" },
  text { en = "# Slow\nFour steps.", zh = "# 慢\n四步。" },
  experiment {
    id = "slow", key = "b", title = { en = "Four steps", zh = "四步" },
    panels = { { id = "b", kind = "bars", title = { en = "Copy", zh = "拷贝" }, unit = "GB/s" } },
    run = function(ex)
      ex:bar("b", "theoretical peak", 936, { style = "theoretical" })
      for i = 1, 4 do
        ex:bar("b", "copy", 100 * i, { style = "measured" })
        ex:status("step " .. i)
        ex:pause(2)
      end
      ex:status("done")
    end,
  },
}
LUA
fresh hold
start 120 40 "VRAMLAB_DATADIR=$d $APP present 9.1"
wait_for '1 / [0-9]+' 10
present_to_run
steps=$(screen | grep -oE '[0-9]+ / [0-9]+' | head -n 1)
keys Enter
wait_for '^ +step 1' 10
# the big figure is the measured bar's, not the theoretical peak first in its panel
wait_for 'copy · measured' 5
screen | grep -q 'theoretical peak · theoretical' && fail "the key figure is the theoretical peak"
screen | tail -n 1 | grep -q 'Space pause' || fail "the footer does not say Space pauses the run"
keys Space
wait_for 'PAUSED' 5
screen | tail -n 1 | grep -q 'Space go on' || fail "the footer does not say Space goes on"
at=$(screen | grep -oE '^ +step [1-4]' | tr -d ' ')
# held: for longer than two of its pauses, the run stays where it was
n=50
while [ $n -gt 0 ]; do
    screen | grep -q 'PAUSED' || fail "the hold ended by itself"
    [ "$(screen | grep -oE '^ +step [1-4]' | tr -d ' ')" = "$at" ] || fail "the run went on while held ($at)"
    sleep 0.1
    n=$((n - 1))
done
screen | grep -q "$steps" || fail "Space left the step during a run"
# Space again: the same run goes on to its end
keys Space
wait_gone 'PAUSED' 5
wait_for '^ +step 4' 20
wait_for '^ +done' 20
# Enter on a step with results asks; another key keeps them (the help, opened and closed)
sync Enter 'It has results: Enter again runs it anew'
settle
screen | grep -q 'It has results' && fail "the question outlived another key"
sync Enter 'It has results: Enter again runs it anew'
screen | grep -qE '^ +step 1' && fail "one Enter ran a step with results anew"
screen | grep -q '^ \+done' || screen | grep -qE '^ +done' || fail "the results went at one Enter"
# the step left and come back to: its run as it was, nothing run again
sync Left
wait_gone 'Enter run' 5
sync Right 'Enter run'
wait_for '^ +done' 5
wait_for 'copy · measured' 5
# Enter twice runs it anew; a key that would leave the running step asks, Esc cancels
keys Enter
sync Enter '^ +step 1'
sync Left 'An experiment is running: the same key again stops it'
screen | grep -q "$steps" || fail "one ← left a running step"
sync Escape 'cancel'
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# a curve on a projector: on the page after the figure, drawn as tall as the screen allows
cat > "$d/lessons/ch09/9.2-curve.lua" <<'LUA'
return lesson {
  id = "9.2", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Curve", zh = "曲线" },
  text { en = "# Curve\nA sweep.", zh = "# 曲线\n一次扫描。" },
  experiment {
    id = "sweep", key = "c", title = { en = "Sweep", zh = "扫描" },
    panels = { { id = "c", kind = "curve", title = { en = "Rate", zh = "速率" }, x = "bytes", y = "GB/s", logx = true } },
    run = function(ex)
      for k = 10, 30 do ex:point("c", "copy", 2 ^ k, 25 * 2 ^ k / (2 ^ k + 2e5), { style = "measured" }) end
      ex:status("done")
    end,
  },
}
LUA
fresh curve
start 200 50 "VRAMLAB_DATADIR=$d $APP present 9.2"
wait_for '1 / [0-9]+' 10
present_to_run
keys Enter
wait_for '^ +done' 10
wait_for 'page 1/[2-9]' 5
sync Space 'page 2/'
plot=$(screen | grep -cE '^ +[0-9.]* *│')
[ "$plot" -ge 18 ] || fail "200x50: the curve is $plot rows on the presenter's page"
check_width 200
keys q
wait_exit 5
echo "PASS present_big"
