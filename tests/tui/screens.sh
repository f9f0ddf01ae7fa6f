#!/bin/sh
# screens.sh BUILD - the screen suite's sample in make test (tests/tui/screens.py; `make screens`
# runs all of it): every lesson in English and Chinese, each at one of 80x24, 120x40 and 200x50
# in turn, from its first screen to its first experiment run from the recording, that
# experiment's live panel page by page and zoomed (z), each screen checked by tests/tui/screencheck.py: no line wider than
# the terminal, every frame closed, table columns and the divider in their columns (CJK by
# display width), no number apart from its unit across a line break, SIMULATED once, in the
# header strip. Polls each screen with a deadline, never a fixed sleep.
command -v tmux >/dev/null 2>&1 || { echo "SKIP: no tmux"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
VRAMLAB_SCREENS_QUICK=1 VRAMLAB_SCREENS_SAMPLE=1 VRAMLAB_SCREENS_PRESENT=0 exec python3 tests/tui/screens.py "${1:-build}" 1/1
