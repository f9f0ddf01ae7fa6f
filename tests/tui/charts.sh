#!/bin/sh
# charts.sh BUILD - the charts show the point of their section, at 120x40 (and 4.1 at 80x24):
# 3.1's every series visible on the plot (the copy engine's and the SM kernel's markers both,
# though their curves lie on top of each other on this profile), n½ and the knee marked under
# the axis and listed with their values and units; 4.1's phases as bands over the step and its
# peak marked with its value, the axes ticked at round values; 4.6's one bar per plan against
# the RTX 3090's capacity line, each saying whether it fits, with a blank line between bars.
. tests/tui/tmux.lib "$@"

# run_exp W H LESSON: on a tmux server of its own, open the lesson, run its first experiment,
# wait until it is done; the live panel beside the text goes to $T/panel
run_exp() {
    fresh "$3-$1x$2"
    start "$1" "$2" "$APP $3"
    wait_for "vramlab · $3 " 10
    to_run
    keys Enter
    wait_for 'Live panel: .* done *$' 120
    panel 60
}
# leave: back to the menu, then quit; the tutor ends cleanly
leave() {
    to_menu
    keys q
    wait_exit 10
    [ "$RC" = 0 ] || fail "exit code $RC"
}
# panel COL: the screen from display column COL (0-based) on: the live panel beside the text,
# inside its panels' frames ("│ " and " │" taken off)
panel() {
    screen | python3 -c '
import re, sys, unicodedata
for l in sys.stdin:
    col, out = 0, ""
    for ch in l.rstrip("\n"):
        if col >= int(sys.argv[1]): out += ch
        col += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    if out.startswith("│ "):
        out = re.sub(r" *│[↑↓ ]*$", "", out[2:])
    print(out)' "$1" > "$T/panel"
}

# ---- 3.1 ------------------------------------------------------------------------------------
run_exp 120 40 3.1
# the plot's rows: an axis label column, "│", then the plot
grep -E '^ *[0-9.K]*│' "$T/panel" > "$T/plot" || fail "3.1: no plot rows"
# every series' marker is on the plot (the legend pairs each marker with its series)
for s in 'H2D pinned' 'H2D pageable' 'D2H pinned' 'D2D copy engine ' 'D2D SM kernel '; do
    m=$(grep -E "^. $s" "$T/panel" | head -n 1 | cut -c1-3)
    [ -n "$m" ] || fail "3.1: no legend line for '$s'"
    # the marker's bytes: the first UTF-8 character of the legend line
    m=$(grep -E "^. $s" "$T/panel" | head -n 1 | awk '{print $1}')
    grep -qF -- "$m" "$T/plot" || fail "3.1: the marker $m of '$s' is not on the plot"
done
# n½ and the knee: under the axis at their column, and listed with value and unit
grep -q '▲ n½ H2D' "$T/panel" || fail "3.1: n½ of H2D not labelled under the axis"
grep -q '▲ knee D2D' "$T/panel" || fail "3.1: the D2D knee not labelled under the axis"
grep -Eq '^▼ n½ H2D: [0-9.]+ GB/s, [0-9]+ KiB' "$T/panel" || fail "3.1: n½ H2D without its values and units"
grep -Eq '^▼ n½ D2D: [0-9.]+ GB/s, [0-9]+ MiB' "$T/panel" || fail "3.1: n½ D2D without its values and units"
grep -Eq '^▼ knee H2D: [0-9.]+ GB/s, [0-9]+ MiB' "$T/panel" || fail "3.1: knee H2D without its values and units"
grep -Eq '^▼ knee D2D: [0-9.]+ GB/s, [0-9]+ MiB' "$T/panel" || fail "3.1: knee D2D without its values and units"
grep -q '▼' "$T/plot" || fail "3.1: no mark on the plot"
check_width 120 59
leave

# ---- 4.1 ------------------------------------------------------------------------------------
run_exp 120 40 4.1
grep -Eq '├ *forward *├.*backward.*├.*optimizer.*┤' "$T/panel" || fail "4.1: the phases are not bands over the step"
grep -Eq '^▼ peak allocated: [0-9,]+ MB, event [0-9]+' "$T/panel" || fail "4.1: the peak is not marked with its value"
grep -q '▲ peak allocated' "$T/panel" || fail "4.1: the peak is not labelled under the axis"
# round ticks: every y label a multiple of 500 MB, the x labels multiples of 100 events
sed -n '/^MB/,/^ *└/p' "$T/panel" | grep -oE '^ *[0-9,]+│' | tr -d ' ,│' > "$T/yt"
[ "$(wc -l < "$T/yt")" -ge 3 ] || fail "4.1: fewer than 3 y ticks: $(cat "$T/yt")"
while read -r v; do [ $((v % 500)) = 0 ] || fail "4.1: y tick $v MB is not a round value"; done < "$T/yt"
sed -n '/^ *└/{n;p;}' "$T/panel" | head -n 1 | tr -s ' ' '\n' | grep -E '^[0-9,]+$' | tr -d , > "$T/xt"
[ "$(wc -l < "$T/xt")" -ge 2 ] || fail "4.1: fewer than 2 x ticks"
while read -r v; do [ $((v % 100)) = 0 ] || fail "4.1: x tick $v is not a round value"; done < "$T/xt"
# bars with a blank line between them
grep -A1 -E '^weights +█' "$T/panel" | sed -n 2p | grep -q '^ *$' || fail "4.1: bars touch (no blank line between)"
check_width 120 59
leave
run_exp 80 24 4.1
wait_for '├.*forward.*backward.*optimizer.*┤' 5
check_width 80
leave

# ---- 4.6 ------------------------------------------------------------------------------------
run_exp 120 40 4.6
grep -q 'Every plan against the RTX 3090' "$T/panel" || fail "4.6: no bars of the plans"
grep -E '✓ fits|✗ over' "$T/panel" > "$T/bars"
[ "$(wc -l < "$T/bars")" -ge 8 ] || fail "4.6: fewer than 8 plans with a verdict on screen"
grep -q '✓ fits' "$T/bars" && grep -q '✗ over' "$T/bars" || fail "4.6: not both fitting and failing plans"
# every bar crosses the capacity line, and a plan over it says so
grep -v '┃' "$T/bars" && fail "4.6: a bar without the capacity line"
grep -Eq '^bf16 none +.*[0-9.]+ GiB .*✗ over' "$T/bars" || fail "4.6: bf16 without checkpointing is not over"
# smallest first: the first bar fits, the last does not
head -n 1 "$T/bars" | grep -q '✓ fits' || fail "4.6: the smallest plan does not fit"
tail -n 1 "$T/bars" | grep -q '✗ over' || fail "4.6: the largest plan on screen fits"
# the line is named with its value: page the panel down until it shows
keys Tab
n=0
until screen | grep -Eq '┃ RTX 3090 capacity 23\.70 GiB: [0-9]+ of [0-9]+ fit'; do
    n=$((n + 1))
    [ $n -le 10 ] || fail "4.6: the capacity line is not named with its value"
    moved NPage 5 || fail "4.6: paging the panel did not reach the capacity line"
done
check_width 120 59
leave
echo "PASS charts"
