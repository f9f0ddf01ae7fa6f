#!/bin/sh
# live.sh BUILD - the screen stays live while code runs outside a lesson's experiments: a REPL
# entry that measures shows "running", answers keys (the help overlay opens) and Esc cancels it,
# freeing what it allocated; a "predict" exercise measures while the lesson stays usable, Esc
# cancels the grading without counting a try, and the next answer is graded against the
# measurement, and its feedback is scrolled into view. A measurement to cancel is a loop of host
# pointer chases that only a cancel ends (however fast or busy the machine, it is still running
# when the keys come); the one graded after the cancel only has to finish (32 MiB), and is not
# waited for while it runs (on a fast machine it is over before the screen is read).
. tests/tui/tmux.lib "$@"
# the chase must outlast the keys sent while it runs: no test-run host cap or short passes here
unset VRAMLAB_HOST_MAX VRAMLAB_HOST_QUICK
test_datadir
export VRAMLAB_DATADIR="$T/data"
P="$XDG_STATE_HOME/vramlab/progress"
cat > "$T/data/lessons/ch09/9.2-predict.lua" <<'LUA'
return lesson {
  id = "9.2", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Slow prediction", zh = "慢预测" },
  -- a long text first: the exercise sits low on the screen, so its feedback must be scrolled in
  text { en = ("One slow measurement.\n\n"):rep(40), zh = ("一次慢测量。\n\n"):rep(40) },
  exercise {
    id = "guess", kind = "predict", unit = "ns",
    prompt = { en = "Predict the latency of a 1 GiB chase.", zh = "预测 1 GiB 追踪的延迟。" },
    measure = function()
      local b = gpu.alloc(64 * 1024 * 1024) -- freed by a cancel, like an experiment's
      measured = (measured or 0) + 1 -- the first is cancelled; a later one only has to finish
      while measured == 1 do host.latency { bytes = "32MiB" } end -- until Esc cancels it
      local r = host.latency { bytes = "32MiB" }
      b:free()
      return r.ns_per_load, r -- a host figure: real on the simulator too
    end,
    tolerance = 0.99,
    hints = { { en = "DRAM is ~100 ns.", zh = "DRAM 约 100 ns。" } },
    explain = { en = "A chase pays the full DRAM latency.", zh = "追踪付出完整的 DRAM 延迟。" },
  },
}
LUA
type_line() { keys -l "$1"; keys Enter; }

start 100 30 "$APP"
wait_for '9\.2 +Slow prediction'

# the REPL: a measuring entry keeps the screen live and Esc cancels it
keys :
wait_for 'vramlab · sandbox \(Lua\)' 3
type_line 'keep = gpu.alloc(32 * 1024 * 1024); while true do host.latency{bytes = "32MiB"} end'
wait_for 'running… \(Esc cancels\)' 3
keys F1
wait_for 'Keys \(Esc closes\)' 2 # a key answered while the chase runs
keys Escape
wait_gone 'Keys \(Esc closes\)' 2
wait_for 'running… \(Esc cancels\)' 1
keys Escape
wait_for 'cancelled: what the entry allocated was freed' 5
# the session goes on, and the entry's buffer was freed with it
type_line 'keep:size()'
wait_for 'buffer used after :free\(\)' 3
type_line '6 * 7'
wait_for '^ 42 ' 3
alive
keys Escape
wait_for 'vramlab · lessons' 3

# a predict exercise: the grading measures while the lesson stays usable
y=$(row_of '9\.2 +Slow prediction')
mouse 0 10 "$y"
wait_for 'vramlab · 9\.2 Slow prediction' 3
keys ']'
wait_for 'Answer \(ns\) > \(Enter to answer\)' 3
keys Enter
keys 1 0 0 Enter
wait_for 'Measuring on this machine' 3
keys F1
wait_for 'Keys \(Esc closes\)' 2
keys Escape
wait_gone 'Keys \(Esc closes\)' 2
keys Escape
wait_for 'Cancelled: not graded, not counted as a' 5
keys Enter
wait_for 'Measured on this machine: [0-9.]+ ns' 30
wait_for '\(measured\)\. Your prediction: 100 ns' 1
alive
keys Escape q
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
# one try saved: the cancelled grading did not count
grep -q '^ex 9\.2 guess 1 ' "$P" || fail "tries saved: $(grep '^ex 9\.2' "$P")"
echo "ok: REPL and predict measurements live and cancellable"
