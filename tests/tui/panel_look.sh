#!/bin/sh
# panel_look.sh BUILD - the sandbox panel at 80x24 as a learner sees it (each panel in its frame):
# a bar and a gauge keep their label apart from their unit, a curve spanning decades gets a log
# y axis with a marker glyph per series, and the colour theme follows --theme / VRAMLAB_THEME /
# COLORFGBG, with NO_COLOR and mono drawing no colour at all.
. tests/tui/tmux.lib "$@"

type_line() { keys -l "$1"; keys Enter; }
# colours NAME: the screen with its escape sequences
colours() { tmux -L "$SOCK" capture-pane -p -e; }

sandbox() {
    start 80 24 "$@"
    wait_for 'vramlab · lessons'
    keys :
    wait_for 'vramlab · sandbox \(Lua\)' 3
}

sandbox "$APP"
type_line 'plot.bar("a", 3) plot.gauge("used", 18, 24)'
wait_for '^│ a .* 3 theory *│' 3
wait_for '18 / 24 +75%( SIM| theory)? *│' 3
screen | grep -qE '3(\.00)? a *│' && fail "the bar's label shown as its unit"
screen | grep -qE '24 used' && fail "the gauge's label shown as its unit"
type_line 'plot.clear() for k = 0, 6 do plot.point("L1", 2^(k+10), 10^(k/2)) plot.point("DRAM", 2^(k+10), 100*10^(k/2)) end'
wait_for '^(│ )? *1K│' 3
wait_for '^(│ )? *100│' 3
wait_for '■' 3
wait_for '●' 3
check_width 80
# 256 colours in tmux: the dark theme's grey title bar
colours | head -n 1 | grep -q '38;5;252' || fail "dark theme: no grey title bar: $(colours | head -n 1 | od -c | head -3)"
keys Escape
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

fresh light
COLORFGBG='0;15' sandbox "env COLORFGBG='0;15' $APP"
colours | head -n 1 | grep -q '38;5;235' || fail "COLORFGBG=0;15 did not pick the light theme"
fresh flag
sandbox "env COLORFGBG='0;15' $APP --theme dark"
colours | head -n 1 | grep -q '38;5;252' || fail "--theme dark did not win over COLORFGBG"
for how in "env VRAMLAB_THEME=mono $APP" "env NO_COLOR=1 $APP --theme light"; do
    fresh "m$(printf %s "$how" | cksum | cut -d' ' -f1)"
    sandbox "$how"
    type_line 'plot.bar("a", 3)'
    wait_for '^│ a .* 3 theory *│' 3
    colours | grep -qE '\[([0-9;]*;)?(3[0-7]|38|4[0-7]|48)[;m]' && fail "$how: colour drawn"
    colours | grep -q '\[7m\|;7m' || fail "$how: the title bar lost its reverse video"
done
echo "PASS panel_look"
