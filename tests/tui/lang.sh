#!/bin/sh
# lang.sh BUILD - L switches English/中文 live: a Chinese line appears, every captured line fits
# the pane by display width and the divider stays in its column (no CJK overflow), in a wide
# side-by-side layout and a narrow stacked one; L again gives English back.
. tests/tui/tmux.lib "$@"

start 120 40 "$APP 1.3"
wait_for 'vramlab · 1\.3 VRAM vs system RAM'
keys L
wait_for '显存 vs 内存'
wait_for '实时面板'
check_width 120 59
# scroll through the whole lesson, checking every screen
n=0
while [ $n -lt 12 ] && moved NPage; do
    check_width 120 59
    n=$((n + 1))
done
# narrow: stacked, CJK wrapped to 60 columns
resize 60 30
wait_gone '│实时面板' # the stacked layout drawn: the panel no longer beside the text
wait_for '实时面板'
check_width 60
keys Home
settle
check_width 60
# a CJK table fits too
screen | grep -q '┌' || keys NPage
check_width 60
resize 120 40
wait_for '│实时面板' # side by side again before the next key
keys L
wait_for 'VRAM vs system RAM'
screen | grep -q '实时面板' && fail "still Chinese after the second L"
check_width 120 59
keys q
wait_for 'vramlab · lessons'
keys q
wait_exit 5
echo "ok: language switch"
