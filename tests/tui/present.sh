#!/bin/sh
# present.sh BUILD - presenter mode at 80x24: a title slide with the lesson number in big type,
# step by step with space and ←, a long text step split into pages that fit (nothing scrolls), a
# question whose answer shows on `a`, an experiment run live with Enter, its key figure (the
# lesson's, VRAM / RAM) drawn in the 5-row block font with its SIMULATED label; nothing drawn past
# 80 columns; the same from a --replay.
. tests/tui/tmux.lib "$@"

# big_rows: the longest run of consecutive screen rows holding block-font ink (██)
big_rows() { screen | awk '/█.*█/ { n++; if (n > m) m = n; next } { n = 0 } END { print m + 0 }'; }

start 80 24 "$APP present 1.3"
wait_for '^ +VRAM vs system RAM *$' 5
wait_for '1 / [0-9]+' 3
[ "$(big_rows)" -ge 5 ] || fail "the title slide's lesson number is not in big type"
# a long text step is split into pages, each fits: nothing to scroll
keys Space
wait_for '2 / [0-9]+ +· +page 1/[2-9]' 3
screen | grep -q '↓' && fail "a text step scrolls at 80x24"
check_width 80
keys Space
wait_for 'page 2/' 3
keys Left
wait_for 'page 1/' 3
# a question step: the answer and its explanation on a key
keys End
wait_for 'a answer' 3
screen | grep -q 'Answer: 2' && fail "the explanation shows before it is asked for"
keys a
wait_for 'Answer: 2' 3
keys Home
wait_for '1 / [0-9]+' 3
# forward to the first experiment step (its footer offers Enter run)
present_to_run
keys Left
wait_gone 'Enter run' 3
keys Space
wait_for 'Enter: run it live' 3
keys Enter
wait_for ' · SIMULATED' 20
wait_for '^ +done' 20
[ "$(big_rows)" -ge 5 ] || fail "no big digits on screen"
screen | grep -q 'VRAM / RAM · SIMULATED' || fail "the key figure is not the lesson's (VRAM / RAM)"
check_width 80
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# from a recording: labelled REPLAY
A="$T/a.jsonl"
"$BIN" --backend sim --profile a100-80gb --seed 1 --deterministic --record "$A" run 1.3 >/dev/null ||
    fail "record"
fresh two
start 80 24 "$APP --replay $A present 1.3"
present_to_run
wait_for 'Enter: play the recorded run' 3
keys Enter
wait_for 'SIMULATED · REPLAY' 10
[ "$(big_rows)" -ge 5 ] || fail "no big digits from the replay"
wait_for 'REPLAY · NVIDIA A100' 3
keys q
wait_exit 5
echo "ok: presenter mode at 80x24, live and replayed"
