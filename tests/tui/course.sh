#!/bin/sh
# course.sh BUILD - a teacher's course.lua (tests/cli/data/teacher) in the tutor: the menu shows
# the course's title and exactly its sections, in its order (9.1, 1.1, 9.2, 9.3: chapter 9, then
# the built-in chapter 1, then chapter 9 again), none of the others; the presenter steps from one
# section to the next in that order (N), and refuses a section the course leaves out.
. tests/tui/tmux.lib "$@"
C="$PWD/tests/cli/data/teacher"

start 100 30 "$APP --lessons $C"
wait_for 'Course: GPU memory in four sections' 5
wait_for '9\.3 +A KV cache' 5
order=$(screen | grep -oE '^ +. ?[0-9]+\.[0-9]+ ' | grep -oE '[0-9]+\.[0-9]+' | tr '\n' ' ')
[ "$order" = "9.1 1.1 9.2 9.3 " ] || fail "the menu is not the course's sections in its order: $order"
screen | grep -qE '1\.2 |3\.1 ' && fail "a section outside the course is on the menu"
screen | grep -q 'Chapter 1 · VRAM basics' || fail "the built-in section's chapter heading"
keys q
wait_exit 5

fresh present
start 100 30 "$APP --lessons $C present"
wait_for '^ +Bytes of a model *$' 5
keys N
wait_for '^ +What VRAM is *$' 5
keys N
wait_for '^ +Device copies *$' 5
keys q
wait_exit 5

fresh hidden
start 100 30 "$APP --lessons $C present 3.1"
wait_exit 5
[ "$RC" = 2 ] || fail "present 3.1 outside the course: exit $RC"
echo "ok: the course's menu and presenter"
