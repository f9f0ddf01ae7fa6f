#!/bin/sh
# timeline.sh BUILD - lesson 6.2's timeline panel at 80x24: run the overlap experiment, focus
# the live panel and scroll to the timeline; a row per lane (host, H2D copy, SMs, D2H copy,
# stream 1..3), the three engines busy in the same columns (the overlap of three streams), the
# axis in ms, the legend, the panel's title in its frame and SIMULATED in the header strip; every
# line within 80 columns. Then at 120x40 beside the text, the same lanes; then in the presenter,
# whose key figure is the pipeline's speed-up.
. tests/tui/tmux.lib "$@"
# the live panel's rows without the frame around them
panel() { screen | sed 's/^│ //; s/^[^│]*│ *│ //'; }

start 80 24 "$APP 6.2"
wait_for 'vramlab · 6\.2 Streams and overlap'
to_run
wait_for 'Run: One, two and three streams'
keys Enter
wait_for 'done: results in the live panel' 120
check_width 80
# the live panel is below the text at 80x24: focus it and scroll a line at a time until the
# timeline's lanes are all on screen
keys Tab
n=0
until panel | grep -q '^H2D copy ' && panel | grep -q '^stream 3 '; do
    moved Down || fail "the panel stopped scrolling before the timeline's lanes were all on screen"
    n=$((n + 1))
    [ $n -lt 60 ] || fail "60 lines down and no timeline"
done
panel > "$T/tl"
for lane in 'SMs' 'D2H copy' 'stream 1' 'stream 2'; do
    grep -q "^$lane " "$T/tl" || fail "no lane '$lane' on screen"
done
# the overlap: columns where the copy in, the kernel and the copy out are all busy
python3 - "$T/tl" <<'PY' || fail "the engines do not overlap on screen"
import sys
rows = {}
for line in open(sys.argv[1], encoding="utf-8"):
    for lane in ("H2D copy", "SMs", "D2H copy", "stream 1", "stream 2", "stream 3"):
        if line.startswith(lane + " "):
            rows[lane] = line.rstrip("\n")[9:]
busy = lambda lane: [c not in " ↑↓│" for c in rows[lane]]
h, s, d = busy("H2D copy"), busy("SMs"), busy("D2H copy")
n = min(len(h), len(s), len(d))
all3 = sum(1 for x in range(n) if h[x] and s[x] and d[x])
assert all3 >= 10, "columns with all three engines busy: %d" % all3
# each stream ran its own chunks: stream 1's bars carry 0, 3, 6 and stream 2's 1, 4, 7
assert all(c in rows["stream 1"] for c in "036"), rows["stream 1"]
assert all(c in rows["stream 2"] for c in "147"), rows["stream 2"]
# and the streams overlap one another
s1, s2 = busy("stream 1"), busy("stream 2")
assert sum(1 for x in range(min(len(s1), len(s2))) if s1[x] and s2[x]) >= 10
PY
# the axis, its unit, the legend, the label
until panel | grep -q 'copy in.*kernel.*copy out'; do
    moved Down || fail "no legend under the timeline"
done
panel | grep -Eq '^ +0 +[0-9] .* ms *[│↑↓ ]*$' || fail "no axis in ms under the lanes"
screen | head -n 1 | grep -q 'SIMULATED' || fail "no SIMULATED in the header strip"
screen > "$T/legend"
until grep -q 'Timeline: the host, each engine, each stream' "$T/legend"; do
    moved Up || fail "no title on the timeline's frame"
    screen >> "$T/legend"
done
check_width 80
# beside the text at 120x40: the lanes all on one screen
resize 120 40
wait_for '│ stream 3 '
wait_for '│ H2D copy .*0'
screen | grep -q '│ stream 3 ' || fail "the lanes are not all on one screen at 120x40"
check_width 120
# a small terminal: everything still within its width, the app alive and the lanes' names there
resize 40 14
wait_for '^ *vramlab|Streams'
keys z
n=0
until screen | grep -q 'stream 3'; do
    moved Down || fail "no timeline at 40x14"
    n=$((n + 1))
    [ $n -lt 80 ] || fail "80 lines down and no timeline at 40x14"
done
check_width 40
alive
keys z
resize 120 40
to_menu
keys q
wait_exit 10
[ "$RC" = 0 ] || fail "exit code $RC after q"
# the presenter at 120x45: the experiment's key figure is the pipeline's speed-up, and its
# panels' page has the timeline's lanes
fresh present
start 120 45 "$APP present 6.2"
wait_for '1 / [0-9]+' 10
present_to_run
keys Enter
wait_for '^ +done' 120
screen | grep -q '3 streams / 1 stream · SIMULATED' || fail "the presenter's key figure is not the pipeline's speed-up"
n=0
until screen | grep -q '^ *stream 3 '; do
    sync Space
    n=$((n + 1))
    [ $n -lt 4 ] || fail "no timeline on the experiment's pages in the presenter"
done
screen | grep -Eq '^ *H2D copy .*▓' || fail "no H2D lane in the presenter"
screen | grep -Eq '^ +0 +1 .* ms *$' || fail "no axis in ms in the presenter"
check_width 120
keys q
wait_exit 10
[ "$RC" = 0 ] || fail "exit code $RC after q in the presenter"
echo "ok: lesson 6.2's timeline: lanes, overlap, axis in ms, legend, SIMULATED at 80x24 and 120x40, and in the presenter"
