#!/bin/sh
# bench_tui.sh BUILD - the tutor itself, driven in tmux on the simulator:
#   time to first frame   vs a reference: the same tmux start running `printf` of one line
#   lesson-view redraw    keypress (PgDn) to changed screen, vs the same round trip through `cat`
#   idle CPU              CPU time used over 5 s of idling in the lesson view (goal ~0)
#   peak RSS              VmHWM of the process after opening and running lesson 1.3
#   key while Lua runs    F1 to the help overlay while a sandbox entry computes (a loop of ~190 M
#                         VM instructions), vs the same key when idle
BUILD=${1:-build}
BIN="$BUILD/vramlab"
export LC_ALL=C.UTF-8 VRAMLAB_DATADIR="$(pwd)" XDG_STATE_HOME="$(mktemp -d)"
command -v tmux >/dev/null || { echo "# tmux not installed: TUI benchmarks skipped"; exit 0; }
bench_cleanup_more() { rm -rf "$XDG_STATE_HOME"; }
BENCH_TAG=tui
. tests/bench/tmux_bench.lib
first_frame() {
    t0=$(now)
    start "$1"
    wait_for "$2" && calc "$(now) - $t0"
}
best() { sort -g | head -n 1; }
redraw() {
    before=$(screen | md5sum)
    t0=$(now)
    tmux -L "$S" send-keys "$1"
    end=$(($(date +%s) + 5))
    while [ "$(screen | md5sum)" = "$before" ] && [ "$(date +%s)" -lt $end ]; do :; done
    calc "$(now) - $t0"
}

ours=$(for i in 1 2 3 4 5; do first_frame "$BIN --backend sim --deterministic" "vramlab · lessons"; done | best)
ref=$(for i in 1 2 3 4 5; do first_frame "printf 'reference frame\n'" "reference frame"; done | best)
[ -n "$ours" ] && [ -n "$ref" ] || { echo "# TUI did not start: benchmarks skipped"; exit 1; }
printf "tui first frame          %7.1f ms vs tmux+printf %7.1f ms  ratio %.2f  (lower is better)\n" \
    "$(calc "$ours * 1000")" "$(calc "$ref * 1000")" "$(calc "$ours / $ref")"

start "$BIN --backend sim --deterministic 1.3"
wait_for "VRAM vs system RAM" || exit 1
ours=$(for k in NPage PPage NPage PPage NPage; do redraw $k; done | best)
app=$(pgrep -P "$(tmux -L "$S" list-panes -F '#{pane_pid}')" vramlab | head -n 1)
rss0=$(awk '/VmRSS/ {print $2}' "/proc/$app/status")
tmux -L "$S" send-keys r
wait_for "done" || true
rss=$(awk '/VmHWM/ {print $2}' "/proc/$app/status")
t1=$(awk '{print $14 + $15}' "/proc/$app/stat")
sleep 5
t2=$(awk '{print $14 + $15}' "/proc/$app/stat")
hz=$(getconf CLK_TCK)
start "cat"
sleep 0.3
refr=$(for k in a b c d e; do redraw $k; done | best)
printf "tui lesson redraw (PgDn) %7.1f ms vs tmux echo via cat %5.1f ms  ratio %.2f\n" \
    "$(calc "$ours * 1000")" "$(calc "$refr * 1000")" "$(calc "$ours / $refr")"
printf "tui idle CPU             %7.2f %% of one core over 5 s, lesson view (goal ~0)\n" "$(calc "($t2 - $t1) * 100 / $hz / 5")"
printf "tui RSS                  %7.1f MiB in the lesson view; peak %.1f MiB while lesson 1.3 ran\n" \
    "$(calc "$rss0 / 1024")" "$(calc "$rss / 1024")"
echo "# (the peak holds the host STREAM arrays: 3 x 64 MiB, freed before the 128 MiB chase)"

# A key while the sandbox computes: Lua yields to the screen every 20 ms, so F1 should not wait
# for the loop (about a second of pure Lua here) to end. Each try in a fresh tutor.
# help KEY: seconds from KEY to the help overlay on screen
help() {
    t0=$(now)
    tmux -L "$S" send-keys "$1"
    wait_for "Keys (Esc closes)" && calc "$(now) - $t0"
}
sandbox() {
    start "$BIN --backend sim --deterministic"
    wait_for "vramlab · lessons" && tmux -L "$S" send-keys : && wait_for "sandbox (Lua)"
}
key_idle=$(for i in 1 2 3 4 5; do sandbox && help F1; tmux -L "$S" kill-server; done | best)
key_busy=$(for i in 1 2 3 4 5; do
    sandbox || continue
    tmux -L "$S" send-keys -l 'for i = 1, 1.9e8 do end'
    tmux -L "$S" send-keys Enter
    sleep 0.1 # the loop is under way
    help F1
    tmux -L "$S" kill-server
done | sort -g | sed -n 3p)
printf "tui key while Lua runs   %7.1f ms (median of 5) vs idle %5.1f ms  ratio %.2f  (F1 -> help overlay)\n" \
    "$(calc "$key_busy * 1000")" "$(calc "$key_idle * 1000")" "$(calc "$key_busy / $key_idle")"
