#!/bin/sh
# repl.sh BUILD - the sandbox REPL in the real tutor: expressions and their pretty-printed
# values, multi-line input, print(), plot.* in the panel, errors, a runaway loop stopped by the
# sandbox limit (even inside pcall) with the session going on, "did you mean" for a mistyped
# name or command, help typed as a command (help, help NAME), and the history saved and
# recalled after a restart; Tab completes module and function names (the learner's own too) and
# lists the candidates, and indents at the start of a line; the sandbox left and come back to
# shows what it showed (a stray Esc loses nothing).
. tests/tui/tmux.lib "$@"
# the runaway loops stop at 20 million instructions, a tenth of the default: the same stop and
# message, without 2 CPU s of looping to it
export VRAMLAB_LIMITS="seconds=60,instructions=20000000"
H="$XDG_STATE_HOME/vramlab/history"

# type LINE: literal text, then Enter
type_line() { keys -l "$1"; keys Enter; }

start 100 30 "$APP"
wait_for 'vramlab · lessons'
keys :
wait_for 'vramlab · sandbox \(Lua\)' 3
type_line '6 * 7'
wait_for '^ 42 ' 3
type_line 'function twice(x)'
wait_for '^ >> +│' 3
type_line '  return 2 * x'
type_line 'end'
type_line 'twice(21), {b = 2, a = 1, "x"}'
wait_for '42 +\{ "x", a = 1, b = 2 \}' 3
type_line 'print("hello from print")'
wait_for 'hello from print' 3
type_line 'plot.bar("my bar", 123.5, "GB/s")'
wait_for 'my bar .*123\.5 GB/s' 3
type_line 'for k = 10, 20 do plot.point("chase", 2^k, k, {x = "bytes", y = "ns"}) end'
wait_for 'x: bytes \(log\) +y: ns' 3
type_line 'nosuch.field'
wait_for "✗ repl:1: attempt to index a nil value" 3
# did you mean: a mistyped field, global or command of the sandbox
type_line 'vram.kv_cahce{layers = 1}'
wait_for "did you mean vram\\.kv_cache\\?" 3
type_line 'hepl(vram)'
wait_for "did you mean help\\?" 3
type_line ':opne x.pickle'
wait_for "✗ no command ':opne'; did you mean ':open'\\?" 3
# help typed as a command, as in a shell: help, help NAME
type_line 'help vram.kv_cache'
wait_for '^ vram\.kv_cache: KV cache bytes' 3
type_line 'help'
wait_for '^ modules: gpu \(the device\)' 3
type_line 'while true do end'
wait_for 'stopped: the code ran past the' 15
type_line 'pcall(function() while true do end end)'
# a pcall that catches the stop only buys one more instruction: a second stop message
n=150
while [ "$(screen | grep -c 'stopped: the code ran past')" -lt 2 ]; do
    n=$((n - 1))
    [ $n -gt 0 ] || fail "the loop inside pcall was not stopped"
    sleep 0.1
done
type_line 'twice(50)'
wait_for '^ 100 ' 3
keys -l 'gpu.'
keys Tab
wait_for 'gpu\.alloc gpu\.backend gpu\.bank_ways gpu\.banks' 3
keys -l 'co'
keys Tab
wait_for '> gpu\.copy *│' 3
keys C-u
keys -l 'x = twi'
keys Tab
wait_for '> x = twice *│' 3
keys C-u
keys Tab
keys -l 'zz'
wait_for '>   zz *│' 3
keys C-u
alive
check_width 100 49

# history: saved with the multi-line entry in one record, recalled after a restart
grep -q '^function twice(x)\\n  return 2 \* x\\nend$' "$H" || fail "multi-line history entry: $(cat "$H")"
keys Escape
wait_for 'vramlab · lessons' 3
# left and come back to: what the session showed is still there (nothing is run again)
keys :
wait_for 'vramlab · sandbox \(Lua\)' 3
wait_for 'my bar .*123\.5 GB/s' 3
screen | grep -q '^ 100 ' || fail "the transcript went when the sandbox was left"
keys Escape
wait_for 'vramlab · lessons' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
fresh two
start 100 30 "$APP"
wait_for 'vramlab · lessons'
keys F2
wait_for 'vramlab · sandbox' 3
keys Up
wait_for '^ > twice\(50\)' 3
# twelve more: the multi-line definition, recalled whole (its line breaks shown as ↵)
keys Up Up Up Up Up Up Up Up Up Up Up Up
wait_for '^ > function twice\(x\)↵' 3
keys Enter
type_line 'twice(8)'
wait_for '^ 16 ' 3
keys Escape q
wait_exit 5
echo "ok: REPL evaluation, multi-line, limits, history"
