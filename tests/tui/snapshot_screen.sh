#!/bin/sh
# snapshot_screen.sh BUILD - the snapshot screen in tmux: opened by a bare FILE.pickle argument
# and by `snapshot FILE --tui`; the cursor moves with ←/→/Home/End and the entry, the largest
# live allocations, the segment map and the stack follow it; +/- zoom the view; ↓ selects
# another allocation (its stack and map change); w turns the what-if replay on (SIMULATED, the
# model's peak drawn as a line) and c changes the capacity; resize down to "too small" and back,
# 80x24 within its width; Esc leaves with 0; from the tutor's menu (o: the shipped examples, a
# typed path completed with Tab; the files opened before, kept through the state module, listed
# first by a new tutor and offered on ↑ at B's prompt); leaving while the loader or a what-if replay runs cancels it
# and returns at once; the sandbox's :open names the learner's own file for alloc.snapshot();
# a second snapshot (b) is compared beside the first; a file that is not a snapshot says so and
# exits 1.
. tests/tui/tmux.lib "$@"
F=assets/snapshots/gpt-train-oom.pickle

entry() { screen | sed -n 's/^entry \([0-9]*\) \/ .*/\1/p'; }
view() { screen | sed -n 's/.*view \([0-9]*-[0-9]*\).*/\1/p'; }
stack_of() { screen | sed -n 's/.*stack of entry \([0-9]*\):.*/\1/p'; }

start 80 24 "$APP $F"
wait_for 'requested \(live\)' 5
wait_for '^entry 1631 / 1635' 3          # opens at the peak
screen | grep -q 'Largest live at the cursor' || fail "no live list"
screen | grep -q 'model.py:176 forward' || fail "the logits not among the largest at the peak"
screen | grep -q 'its segment at the cursor' || fail "no segment map"
screen | grep -q 'total 1.54 GiB' || fail "the selected block's segment is not its 1.54 GiB one"
check_width 80
s0=$(stack_of)
keys Down
n=0; while [ "$(stack_of)" = "$s0" ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "↓ did not select another"; sleep 0.1; done
keys Home
wait_for '^entry 0 / 1635' 3
screen | grep -q 'model.py:176' && fail "the live list did not follow the cursor"
keys Right
n=0; while [ "$(entry)" = 0 ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "→ did not move"; sleep 0.1; done
keys End
wait_for '^entry 1634 / 1635' 3
v0=$(view)
[ "$v0" = "0-1634" ] || fail "view at start: $v0"
keys +
n=0; while [ "$(view)" = "$v0" ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "+ did not zoom"; sleep 0.1; done
v1=$(view)
keys -
n=0; while [ "$(view)" = "$v1" ]; do n=$((n + 1)); [ $n -lt 100 ] || fail "- did not zoom out"; sleep 0.1; done
keys 0
wait_for 'view 0-1634' 3
# at 80 columns: the footer names help and the way back; the recorded OOM is read whole (wrapped,
# each number with its unit), and a line too wide ends in an ellipsis, never cut mid-word
screen | tail -n 1 | grep -q '? help  q back' || fail "the footer does not name ? help and q back"
screen | head -n 1 | grep -q 'Snapshot gpt-train-oom\.pickle' || fail "the title does not name the file: $(screen | head -n 1)"
keys o
wait_for '^OOM here: asked for 1\.54 GiB' 3
wait_for 'what was in the' 3
screen | grep -q '6\.26 GiB reserved, 6\.13 GiB live' || fail "the OOM's figures are cut"
screen | grep -E '[0-9] Gi$|[0-9] M$|forwar$|<modul$' && fail "a line cut mid-word, without an ellipsis"
screen | grep -q 'nanogpt/train\.py:[0-9]*…' || fail "a live row too wide has no ellipsis"
keys 0
wait_for 'view 0-1634' 3
# what if
screen | grep -q 'What if' && fail "what-if shown before it was asked for"
keys w
wait_for 'What if \(SIMULATED model\): expandable_segments:True' 10
wait_for 'peak reserved: model 6\.15 GiB' 10
screen | grep -q "── model reserved (SIMULATED)" || fail "no model line in the legend"
screen | sed -n 3,12p | grep -q "─" || fail "no model line on the timeline"
keys c
wait_for 'capacity 16 GiB' 10
line_a=$(screen | sed -n 3,12p)
keys w w w
wait_for 'What if \(SIMULATED model\): expandable_segments:False, capacity 16' 10
wait_for 'model reserved \(SIMULATED\)' 10
[ "$(screen | sed -n 3,12p)" != "$line_a" ] || fail "the model's reserved line did not change with the setting"
# resize, down to too small and back
resize 100 40
wait_for 'stack of entry' 3
resize 30 8
wait_for 'too small' 3
resize 80 24
wait_for 'Largest live' 3
check_width 80
keys Escape
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# by `snapshot FILE --tui`, in 中文
fresh two
start 80 24 "$APP --lang zh snapshot $F --tui"
wait_for '已申请（存活）' 5
check_width 80
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "zh: exit code $RC"

# from the tutor's menu: o, a shipped example with Enter, Esc back; then a typed path with Tab
fresh menu
start 80 24 "$APP"
wait_for 'o: your own program' 5
keys o
wait_for '[Ss]hipped examples' 3
screen | grep -q 'gpt-train-oom\.pickle' || fail "the shipped examples are not listed"
keys Enter
wait_for 'Largest live at the cursor' 10
keys Escape
wait_for '[Ss]hipped examples' 3
keys Up
keys a s s e t s / s n a p s h o t s / g p t - t r a i n - o
keys Tab
wait_for '> assets/snapshots/gpt-train-oom\.pickle' 3
keys Enter
wait_for '^entry 1631 / 1635' 10
# L switches the language here too (the segment map's words as well), and the tutor follows
keys L
wait_for '^记录 1631 / 1635' 3
wait_for '光标处选中块所在的段' 3
screen | grep -q 'its segment at the cursor' && fail "L left the segment map in English"
keys Escape
wait_for '示例' 3
keys Escape
wait_for '第 1 章' 3
keys L
wait_for 'Chapter 1' 3
alive
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "tutor: exit code $RC"

# the files opened before are kept in the state folder (recent-snapshots, by their full path,
# once each): a new tutor lists them above the shipped examples
grep -qx "$(pwd)/$F" "$XDG_STATE_HOME/vramlab/recent-snapshots" ||
    fail "recent-snapshots: $(cat "$XDG_STATE_HOME/vramlab/recent-snapshots")"
[ "$(grep -c . "$XDG_STATE_HOME/vramlab/recent-snapshots")" = 1 ] || fail "a file kept twice"
fresh recent
start 100 30 "$APP"
wait_for 'o: your own program' 5
keys o
wait_for 'Files opened before, then the shipped examples' 3
screen | grep -A1 'Files opened before' | tail -n 1 | grep -qF "$(pwd)/$F" ||
    fail "the file opened before is not listed first: $(screen)"
keys Escape
wait_for 'Chapter 1' 3
keys q
wait_exit 5

# a teacher's lessons folder with its own snapshots: listed with the shipped ones
mkdir -p "$T/course/assets/snapshots"
cp "$F" "$T/course/assets/snapshots/class-run.pickle"
fresh course
start 100 30 "$APP --lessons $T/course"
wait_for 'o: your own program' 5
keys o
wait_for '[Ss]hipped examples' 3
screen | grep -q 'class-run\.pickle' || fail "a teacher's snapshot is not listed: $(screen)"
screen | grep -q 'gpt-train-oom\.pickle' || fail "the shipped examples went with --lessons"
keys Escape
wait_for 'Chapter 1' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "tutor with --lessons: exit code $RC"

# the sandbox's :open names the learner's own snapshot for alloc.snapshot(); a FIFO is refused
fresh sandbox
mkfifo "$T/fifo.pickle"
start 100 30 "$APP"
wait_for 'vramlab · lessons' 5
keys :
wait_for 'vramlab · sandbox \(Lua\)' 3
keys -l ":open $T/fifo.pickle"
keys Enter
wait_for 'regular file \(a FIFO\)' 3
keys -l ":open $F"
keys Enter
wait_for 'alloc\.snapshot\(\) now reads' 3
keys -l 'print("ooms", #alloc.snapshot().ooms)'
keys Enter
wait_for '^ *ooms +1' 10
keys Escape
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "sandbox: exit code $RC"

# leaving cancels the workers, never waits on one: a loader and a what-if replay that would
# never end on their own (VRAMLAB_FAULT_SNAPSHOT) are left with Esc / q (that the program ends
# at all shows it did not wait; the deadline is only against a hang on a busy machine)
fresh hang-load
start 80 24 "env VRAMLAB_FAULT_SNAPSHOT=load $APP $F"
wait_for 'Loading the snapshot' 5
keys Escape
wait_exit 10
[ "$RC" = 0 ] || fail "leaving while loading: exit code $RC"
fresh hang-whatif
start 80 24 "env VRAMLAB_FAULT_SNAPSHOT=whatif $APP"
wait_for 'o: your own program' 5
keys o
wait_for '[Ss]hipped examples' 3
keys Enter
wait_for 'Largest live at the cursor' 10
keys w
wait_for 'What if: replaying' 5
keys w                                  # another setting: the running one is cancelled
keys Escape
wait_for '[Ss]hipped examples' 1           # back at the prompt within a second
alive
keys Escape
wait_for 'Chapter 1' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "leaving during a replay: exit code $RC"

# a second snapshot beside the first: b, its path (Tab completes), Enter: B's timeline under A's
# and the comparison in place of the live list; d switches back; a bad B says so and A stays;
# leaving while B loads returns at once
fresh second
start 100 32 "$APP $F"
wait_for 'Largest live at the cursor' 10
keys b
wait_for 'B \(compare with\):' 3
keys Up                                 # the files opened before: A, the newest
wait_for 'B \(compare with\): .*/assets/snapshots/gpt-train-oom\.pickle' 3
keys Down
wait_for 'B \(compare with\): *$' 3
keys a s s e t s / s n a p s h o t s / g p t - t r a i n . p
keys Tab
wait_for 'B \(compare with\): assets/snapshots/gpt-train\.pickle' 3
keys Enter
wait_for 'Live only in B \(what grew\)' 10
screen | grep -q '^B assets/snapshots/gpt-train\.pickle: device 0, [0-9]* entries' || fail "no B line: $(screen)"
screen | grep -q 'A -> B, device 0' || fail "no comparison"
screen | grep -q 'Live only in A (freed since)' || fail "no 'only in A'"
screen | grep -q '  nanogpt/model.py:178 forward' || fail "the groups: $(screen)"
screen | grep -q 'Largest live at the cursor' && fail "the live list is still shown"
check_width 100
keys d
wait_for 'Largest live at the cursor' 3
keys d
wait_for 'A -> B, device 0' 3
keys b
wait_for 'B \(compare with\):' 3
keys -l "$T/none.pickle"
keys Enter
wait_for 'B: .*none\.pickle' 5
screen | grep -q 'Largest live at the cursor' || fail "A's view went with a bad B"
keys Escape
wait_exit 5
[ "$RC" = 0 ] || fail "second: exit code $RC"
fresh hang-second
start 80 24 "env VRAMLAB_FAULT_SNAPSHOT=second $APP $F"
wait_for 'Largest live at the cursor' 10
keys b
wait_for 'B \(compare with\):' 3
keys -l "$F"
keys Enter
wait_for 'B: loading' 5
keys Escape
wait_exit 10
[ "$RC" = 0 ] || fail "leaving while B loads: exit code $RC"

# not a snapshot: the message, exit 1, terminal restored
fresh three
printf 'not a pickle' > "$T/bad.pickle"
start 80 24 "$APP $T/bad.pickle"
wait_for 'not a pickle' 5
keys q
wait_exit 5
[ "$RC" = 1 ] || fail "bad file: exit code $RC"
echo "ok: snapshot screen: cursor, zoom, live list, map, stack, what-if, resize, en and zh"
