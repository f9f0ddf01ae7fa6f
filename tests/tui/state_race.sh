#!/bin/sh
# state_race.sh BUILD - learner state shared by processes that run at the same time, each step
# driven through the real programs and waited for (never a fixed sleep): a tutor that opened a
# lesson keeps the solve that `vramlab watch` recorded meanwhile and does not bring back what
# `vramlab reset` removed; two tutors answering different exercises keep each other's tries;
# two tutors' REPL entries all land in the one history.
. tests/tui/tmux.lib "$@"
test_datadir
export VRAMLAB_DATADIR="$T/data"
cat > "$T/data/lessons/ch09/9.2-more.lua" <<'LUA'
return lesson {
  id = "9.2", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Second lesson", zh = "第二课" },
  text { en = "Nothing to do.", zh = "无事可做。" },
}
LUA
P="$XDG_STATE_HOME/vramlab/progress"
H="$XDG_STATE_HOME/vramlab/history"
WS="$T/ws"
A=$SOCK B="$SOCK-b"
SOCKS="$SOCKS $B"

# on S CMD...: run a tmux.lib step against server S
on() { SOCK=$1; shift; "$@"; }
# start_b CMD: a fresh server B running CMD (its exit code in $T/rc_b, the tutor's stays in $T/rc)
start_b() {
    tmux -L "$B" kill-server >/dev/null 2>&1
    rm -f "$T/rc_b"
    new_server "$B" 100 30 "$*; echo \$? > $T/rc_b; sleep 600"
}
# file_has REGEX FILE [SECONDS]: wait until FILE has a line matching REGEX
file_has() {
    n=$(( ${3:-10} * 10 ))
    while [ $n -gt 0 ]; do
        grep -Eq -- "$1" "$2" 2>/dev/null && return 0
        sleep 0.1
        n=$((n - 1))
    done
    fail "waited ${3:-10} s for /$1/ in $2: $(cat "$2" 2>&1)"
}
# b_exited: B's program ended, with exit code 0
b_exited() {
    n=50
    while [ ! -s "$T/rc_b" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
    [ "$(cat "$T/rc_b" 2>/dev/null)" = 0 ] || fail "B exited with '$(cat "$T/rc_b" 2>/dev/null)'"
}
file_lacks() { ! grep -Eq -- "$1" "$2" || fail "/$1/ in $2: $(cat "$2")"; }

# 1. the tutor opens 9.1; meanwhile watch solves 9.1's code exercise; the tutor opens 9.2
out=$("$BIN" --backend sim exercises "$WS") || fail "exercises: $out"
on "$A" start 100 30 "$APP"
on "$A" wait_for '9\.1 +Test lesson'
on "$A" keys Enter
on "$A" wait_for 'vramlab · 9\.1 Test lesson' 5
file_has '^visit 9\.1 ' "$P"
on "$B" start_b "$APP watch $WS"
on "$B" wait_for 'vramlab watch · 1/1 · 9\.1 double' 5
printf 'function double(x)\n  return 2 * x\nend\n' > "$WS/new" && mv "$WS/new" "$WS/9.1-double.lua"
on "$B" wait_for '✓ Passed!' 10
file_has '^ex 9\.1 double 1 1 ' "$P"
on "$B" keys q
b_exited
on "$A" keys q
on "$A" wait_for 'vramlab · lessons' 5
on "$A" keys Down Enter
on "$A" wait_for 'vramlab · 9\.2 Second lesson' 5
file_has '^visit 9\.2 ' "$P"
file_has '^ex 9\.1 double 1 1 ' "$P" 1 # the tutor's save kept watch's solve

# 2. reset while the tutor runs; the tutor opens 9.1 again: what reset removed stays removed
out=$("$BIN" reset --yes) || fail "reset: $out"
file_lacks '^visit' "$P"
on "$A" keys q
on "$A" wait_for 'vramlab · lessons' 5
on "$A" keys Up Enter
on "$A" wait_for 'vramlab · 9\.1 Test lesson' 5
file_has '^visit 9\.1 ' "$P"
file_lacks '^visit 9\.2 ' "$P"
file_lacks '^ex 9\.1 double' "$P"

# 3. a second tutor answers the choice while the first answers the code exercise
on "$B" start_b "$APP"
on "$B" wait_for '9\.1 +Test lesson'
on "$B" keys Enter
on "$B" wait_for 'Answer \(1-2\)' 5
on "$B" keys 2
on "$B" wait_for 'choose one +✓ solved' 5
file_has '^ex 9\.1 pick 1 1 ' "$P"
on "$A" keys ']'
on "$A" wait_for 'write Lua code' 3
on "$A" keys Enter
on "$A" keys -l 'function double(x) return 2 * x end'
on "$A" keys Enter
on "$A" wait_for 'write Lua code +✓ solved' 5
file_has '^ex 9\.1 double 1 1 ' "$P"
file_has '^ex 9\.1 pick 1 1 ' "$P" 1

# 4. both tutors in the REPL: every entry of each lands in the history
for s in "$A" "$B"; do
    on "$s" keys Escape q
    on "$s" wait_for 'vramlab · lessons' 5
    on "$s" keys :
    on "$s" wait_for 'vramlab · sandbox \(Lua\)' 3
done
on "$A" keys -l 'from_a = 1' && on "$A" keys Enter
file_has '^from_a = 1$' "$H"
on "$B" keys -l 'from_b = 2' && on "$B" keys Enter
file_has '^from_b = 2$' "$H"
on "$A" keys -l 'again_a = 3' && on "$A" keys Enter
file_has '^again_a = 3$' "$H"
file_has '^from_b = 2$' "$H" 1
[ "$(wc -l < "$H")" -eq 3 ] || fail "history: $(cat "$H")"
for s in "$A" "$B"; do on "$s" keys Escape q; done
b_exited
SOCK=$A
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: tutors, watch and reset at once keep each other's records"
