#!/bin/sh
# lang_results.sh BUILD - L shows what is already on screen in the other language without
# running anything again: an experiment's panels (table cells, bar labels, notes, texts built as
# a known start plus a name) and an exercise's feedback; L again gives the first language back;
# a run left in one language and opened again after L shows in the new one.
. tests/tui/tmux.lib "$@"

test_course
cat > "$d/lessons/ch09/9.1-lang.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Languages", zh = "语言" },
  text { en = "# Languages\nOne run.", zh = "# 语言\n运行一次。" },
  experiment {
    id = "one", title = { en = "One run", zh = "运行一次" },
    panels = { { id = "t", kind = "table", title = { en = "Table", zh = "表格" } },
               { id = "b", kind = "bars", title = { en = "Bars", zh = "条形" }, unit = "GB" } },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      ex:row("t", { T("Stage", "阶段"), T("Bytes", "字节") })
      ex:row("t", { T("forward ", "前向 ") .. "layer7", "42" })
      ex:bar("b", T("weights", "权重"), 3, { style = "simulated" })
      ex:note("t", T(string.format("Peak after %d steps.", 7), string.format("%d 步之后达到峰值。", 7)))
    end,
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

start 120 30 "VRAMLAB_DATADIR=$d $APP 9.1"
wait_for 'vramlab · 9\.1'
keys r
wait_for 'Peak after 7 steps' 5
keys ']'
wait_for 'Answer.*\(Enter to answer\)' 5
keys Enter
keys 4 0 Enter
wait_for 'Count by sevens' 5
keys L
wait_for '七个七个地数' 5
for zh in '阶段' '前向 layer7' '权重' '7 步之后达到峰值' '还不对'; do
    screen | grep -q "$zh" || fail "not shown in Chinese after L: $zh"
done
for en in 'Stage' 'forward layer7' 'weights' 'Peak after' 'Count by sevens' 'Not quite'; do
    screen | grep -q "$en" && fail "still in English after L: $en"
done
keys L
wait_for 'Count by sevens' 5
screen | grep -q 'forward layer7' || fail "the panel did not come back in English"
screen | grep -q '阶段' && fail "Chinese left in the panel after the second L"
# leave in English, switch in the menu, come back: the kept run shows in Chinese
keys q
wait_for 'Chapter 9' 5
keys L
wait_for '第 9 章' 5
keys Enter
wait_for '7 步之后达到峰值' 5
screen | grep -q 'Peak after' && fail "the kept run came back in English"
keys q
wait_for '第 9 章' 5
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: L shows panels and feedback in the other language, kept runs too"
