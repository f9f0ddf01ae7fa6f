#!/bin/sh
# bench_snapview.sh BUILD - the snapshot screen on a snapshot of 1,000,000 trace entries (written
# by tests/bench/bench_snapshot.sh, or here, into BUILD), driven in tmux:
#   key while loading   ? to the key overlay on screen while the worker still reads the file,
#                       vs the same key once loaded (goal: both within 50 ms; the ratio near 1)
#   load                start to the first frame with the timeline (the whole trace, decimated)
#   zoomed-out key      → (cursor move over the whole trace) to changed screen, vs tmux+cat
BUILD=${1:-build}
BIN="$BUILD/vramlab"
f="$BUILD/snap-1m.pickle"
export LC_ALL=C.UTF-8
command -v tmux >/dev/null || { echo "# tmux not installed: snapshot screen benchmark skipped"; exit 0; }
command -v python3 >/dev/null || { echo "# python3 not installed: snapshot screen benchmark skipped"; exit 0; }
if [ ! -f "$f" ] || [ tests/snapshot/make_example.py -nt "$f" ]; then
    echo "# writing $f (1,000,000 trace entries, once)"
    python3 tests/snapshot/make_example.py --events 1000000 -o "$f" || exit 1
fi
BENCH_TAG=sv BENCH_WAIT=20
. tests/bench/tmux_bench.lib
changed() { # KEY: seconds from KEY to a changed screen
    before=$(screen | md5sum)
    t0=$(now)
    tmux -L "$S" send-keys "$1"
    end=$(($(date +%s) + 5))
    while [ "$(screen | md5sum)" = "$before" ] && [ "$(date +%s)" -lt $end ]; do :; done
    calc "$(now) - $t0"
}
best() { sort -g | head -n 1; }

loading="" idle="" load=""
for i in 1 2 3; do
    t0=$(now)
    start "$BIN $f"
    wait_for "Loading the snapshot" || exit 1
    t1=$(now)
    tmux -L "$S" send-keys "?"
    wait_for "Keys (? or Esc closes)" || exit 1
    t2=$(now)
    # counted only when the file was still loading after the overlay showed
    if screen | grep -q "Loading the snapshot"; then loading="$loading $(calc "$t2 - $t1")"; fi
    wait_for "requested (live)" || exit 1
    load="$load $(calc "$(now) - $t0")"
    tmux -L "$S" send-keys "?"
    sleep 0.2
    t1=$(now)
    tmux -L "$S" send-keys "?"
    wait_for "Keys (? or Esc closes)" || exit 1
    idle="$idle $(calc "$(now) - $t1")"
    tmux -L "$S" send-keys Escape
    sleep 0.1
    move=$(for k in Right Left Right Left Right; do changed $k; done | best)
    tmux -L "$S" kill-server >/dev/null 2>&1
done
start "cat"
sleep 0.3
ref=$(for k in a b c d e; do changed $k; done | best)
l=$(echo $loading | tr ' ' '\n' | best) i=$(echo $idle | tr ' ' '\n' | best) ld=$(echo $load | tr ' ' '\n' | best)
if [ -n "$l" ]; then
    printf "snapshot screen: key while loading 1M entries %6.1f ms vs loaded %6.1f ms  ratio %.2f  (goal < 50 ms)\n" \
        "$(calc "$l * 1000")" "$(calc "$i * 1000")" "$(calc "$l / $i")"
else
    echo "# snapshot screen: the file loaded before a key could be sent (nothing to measure while loading)"
fi
printf "snapshot screen: load to the first timeline   %6.1f ms (1M entries, %s bytes)\n" "$(calc "$ld * 1000")" "$(wc -c < "$f")"
printf "snapshot screen: cursor key, whole trace      %6.1f ms vs tmux echo via cat %5.1f ms  ratio %.2f\n" \
    "$(calc "$move * 1000")" "$(calc "$ref * 1000")" "$(calc "$move / $ref")"
