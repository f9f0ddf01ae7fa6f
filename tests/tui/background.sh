#!/bin/sh
# background.sh BUILD - the theme follows the terminal's background: the tutor asks with OSC 11
# (then DA1, which every terminal answers, so a terminal without OSC 11 costs no wait) and takes
# the light theme on a light background, the dark one on a dark background; with no answer it
# falls back to COLORFGBG, then dark; --theme and VRAMLAB_THEME still win, NO_COLOR asks nothing.
# Two fake terminals: tmux (which answers OSC 11 with the pane's window-style background, and
# only DA1 when none is set) and tests/tui/fake_term.py on a pty (a terminal that answers in
# pieces, one that answers nothing at all, keys typed while the tutor starts).
. tests/tui/tmux.lib "$@"

colours() { tmux -L "$SOCK" capture-pane -p -e; }
# on_bg STYLE COMMAND: a new tmux server whose panes have background STYLE, running COMMAND
on_bg() {
    fresh "bg$(printf %s "$1$2" | cksum | cut -d' ' -f1)"
    rm -f "$T/rc"
    tmux -L "$SOCK" -f /dev/null new-session -d -x 100 -y 30 "sleep 600" \; \
        set -g window-style "$1" \; \
        respawn-pane -k "$2; echo \$? > $T/rc; sleep 600" || fail "tmux did not start"
    wait_for 'vramlab · lessons'
}
# theme_is dark|light WHY [REGEX]: the title bar's colours, and the help overlay's line on
# colours (which says REGEX too, when given)
theme_is() {
    case $1 in
        dark) want='38;5;252' ;;
        light) want='38;5;235' ;;
    esac
    colours | head -n 1 | grep -q "$want" || fail "$2: not the $1 theme: $(colours | head -n 1 | od -c | head -2)"
    keys '?'
    wait_for 'Keys \(Esc closes\)'
    keys G
    wait_for "colours +$1 theme" 5
    [ -z "$3" ] || wait_for "$3" 5
    keys Escape
    wait_gone 'Keys \(Esc closes\)'
}

on_bg 'bg=#ffffff' "$APP"
theme_is light "a white terminal" "background is #ffffff"
on_bg 'bg=#fdf6e3' "env COLORFGBG='15;0' $APP" # OSC 11 over a stale COLORFGBG
theme_is light "Solarized light"
on_bg 'bg=#1e1e1e' "env COLORFGBG='0;15' $APP"
theme_is dark "a dark grey terminal" "background is #1e1e1e"
on_bg 'default' "env COLORFGBG='0;15' $APP" # tmux answers DA1 only: COLORFGBG decides
theme_is light "no answer, COLORFGBG=0;15" "COLORFGBG=0;15"
on_bg 'default' "$APP"
theme_is dark "no answer, no COLORFGBG"
on_bg 'bg=#ffffff' "$APP --theme dark"
theme_is dark "--theme dark on a white terminal" "set by --theme"
on_bg 'bg=#000000' "env VRAMLAB_THEME=light $APP"
theme_is light "VRAMLAB_THEME=light on a black terminal"
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# a terminal on a pty that answers in pieces, one that answers nothing, typeahead kept
ft() { python3 tests/tui/fake_term.py "$@"; }
r=$(ft light $APP) || fail "fake_term: $r"
[ "$r" = "theme=light asked=yes help=no rc=0" ] || fail "light: $r"
r=$(ft dark env COLORFGBG='0;15' $APP) || fail "fake_term: $r"
[ "$r" = "theme=dark asked=yes help=no rc=0" ] || fail "dark over COLORFGBG: $r"
r=$(ft pieces $APP) || fail "fake_term: $r"
[ "$r" = "theme=light asked=yes help=no rc=0" ] || fail "an answer in pieces: $r"
r=$(ft silent env COLORFGBG='0;15' $APP) || fail "fake_term: $r"
[ "$r" = "theme=light asked=yes help=no rc=0" ] || fail "a silent terminal, COLORFGBG=0;15: $r"
r=$(ft silent $APP) || fail "fake_term: $r"
[ "$r" = "theme=dark asked=yes help=no rc=0" ] || fail "a silent terminal: $r"
r=$(ft typeahead $APP) || fail "fake_term: $r"
[ "$r" = "theme=dark asked=yes help=yes rc=0" ] || fail "a key typed while asking: $r"
r=$(ft light env NO_COLOR=1 $APP) || fail "fake_term: $r"
[ "$r" = "theme=none asked=no help=no rc=0" ] || fail "NO_COLOR asks nothing: $r"
r=$(ft light $APP --theme dark) || fail "fake_term: $r"
[ "$r" = "theme=dark asked=no help=no rc=0" ] || fail "--theme asks nothing: $r"
echo "PASS background"
