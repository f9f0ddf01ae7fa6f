#!/bin/sh
# notices.sh BUILD - the status line shows an error or a warning in the error style and
# information in the status line's own style: a damaged progress file (a warning) differs from
# the plain status line; "step by step" (information) looks like it. Compared by the SGR codes
# tmux reports for the status line, so it holds in any theme.
. tests/tui/tmux.lib "$@"
mkdir -p "$XDG_STATE_HOME/vramlab"
printf 'not a progress file\n' > "$XDG_STATE_HOME/vramlab/progress"

# the escape sequences before the status line's first character (resets left out)
sgr() { tmux -L "$SOCK" capture-pane -e -p | grep -a -- "$1" | tail -n 1 | sed -E 's/^((\x1b\[[0-9;:]*m)*).*/\1/; s/\x1b\[0?m//g' | od -c | tr -s ' '; }

start 100 30 "TERM=xterm-256color $APP"
wait_for 'progress file is damaged at line' 5
bad=$(sgr 'progress file is damaged')
keys j
wait_gone 'progress file is damaged' 3
plain=$(sgr 'profile (rtx3090)') # the status line: the last line that says it
[ -n "$plain" ] || fail "no status line"
[ "$bad" != "$plain" ] || fail "the warning is not shown in the error style"
keys Enter
wait_for 'vramlab · 1\.2' 5
keys s
wait_for 'Step by step: experiments' 3
info=$(sgr 'Step by step: experiments')
[ "$info" = "$plain" ] || fail "information shown unlike the status line: $info vs $plain"
[ "$info" != "$bad" ] || fail "information shown in the error style"
keys s
keys q
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
echo "ok: errors and warnings in the error style, information plain"
