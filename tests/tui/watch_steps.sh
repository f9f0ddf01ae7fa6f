#!/bin/sh
# watch_steps.sh BUILD - an experiment that shows its steps (ex:pause): in step mode (s, named
# in the footer) it waits at each step until Space or → and the panel header counts the steps;
# q during a run asks first, a second q cancels it and says so; what it showed is kept when the
# lesson is left and shown again when it is opened again (the state says "cancelled"). Polls
# only: every pause waits for a key, so nothing depends on this machine's speed.
. tests/tui/tmux.lib "$@"

test_course
cat > "$d/lessons/ch09/9.1-steps.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Steps", zh = "分步" },
  text { en = "# Steps\nThree steps.", zh = "# 分步\n三步。" },
  experiment {
    id = "three", title = { en = "Three steps", zh = "三步" },
    panels = { { id = "t", kind = "table", title = { en = "Log", zh = "记录" } } },
    run = function(ex)
      ex:row("t", { "what" })
      for i = 1, 3 do
        ex:row("t", { "row-" .. i })
        ex:pause(5)
      end
      ex:note("t", ex:t { en = "all three", zh = "三步都完成" })
    end,
  },
}
LUA

start 120 30 "VRAMLAB_DATADIR=$d $APP 9.1"
wait_for 'vramlab · 9\.1'
keys s
wait_for 'Step by step: experiments'
keys r # runs the experiment the panel shows
wait_for 'step 1 · Space: next' 5
screen | grep -q 'row-1' || fail "the first step's row is not shown"
screen | grep -q 'row-2' && fail "the second step showed before Space"
screen | grep -q 'Space/→ next step  s auto play' || fail "the footer does not name Space and the mode s switches to"
keys Space
wait_for 'step 2 · Space: next' 5
screen | grep -q 'row-2' || fail "Space did not show the second step"
keys Right
wait_for 'step 3 · Space: next' 5
screen | grep -q 'row-3' || fail "→ did not show the third step"
keys Space
wait_for 'all three' 5
wait_for 'done' 5

# a finished run is not replaced by one key: r (or Enter on its Run line) asks first, any other
# key keeps the results, and the same key again runs it anew
keys r
wait_for 'It has results: press again to run it anew' 5
screen | grep -q 'row-3' || fail "asking replaced the results"
screen | grep -q 'done' || fail "asking started a run"
keys j
wait_gone 'It has results' 5
keys r
wait_for 'It has results' 5
keys Escape # a stray key: still done, nothing replaced
wait_gone 'It has results' 5
screen | grep -q 'row-3' || fail "a stray key after asking replaced the results"
keys Home
wait_for '\[ Enter ▶ Run again: Three steps \]' 5
keys Enter
wait_for 'It has results' 5
screen | grep -q 'row-3' || fail "Enter on the Run line replaced the results"

# q during a run asks; any other key keeps it running; q twice cancels and leaves
keys Enter
wait_for 'step 1 · Space: next' 5
keys q
wait_for 'q again cancels it and leaves' 5
screen | grep -q 'vramlab · 9\.1' || fail "the first q left the lesson"
keys Space
wait_for 'step 2 · Space: next' 5
keys q
wait_for 'q again cancels it' 5
keys q
wait_for 'Cancelled the experiment; its results so far are kept' 5
wait_for 'Chapter 9' 5

# back in the lesson: the panel shows what the run showed, marked cancelled
keys Enter
wait_for 'vramlab · 9\.1' 5
wait_for 'row-2' 5
screen | grep -q 'Not run yet' && fail "the kept results were not shown again"
screen | grep -q 'cancelled' || fail "the kept run is not marked cancelled"
# auto mode again (s): each pause (5 s here) ends by itself, or at once with Space; the footer
# offers the step mode
keys s
wait_for 'Auto: each step' 5
keys r r # it has results (cancelled, two rows): the second r runs it
wait_for 'step 1$' 5
screen | grep -q 'Space/→ next step  s step mode' || fail "the footer does not offer the step mode"
keys Space
wait_for 'step 2$' 3 # sooner than the pause's 5 s
keys Escape
wait_for 'Cancelled: what it showed so far stays' 5
keys q
wait_for 'Chapter 9' 5
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: stepping through an experiment, q asks during a run, results kept across visits"
