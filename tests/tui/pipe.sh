#!/bin/sh
# pipe.sh BUILD - not a terminal: plain text with no escape codes (stdout a pipe, with and
# without a terminal on stdin).
. tests/tui/tmux.lib "$@"

esc=$(printf '\033')
"$BIN" --backend sim --seed 1 --deterministic < /dev/null | cat > "$T/out" 2>&1
grep -q '1\.3' "$T/out" || fail "the plain lesson list does not name 1.3: $(head -5 "$T/out")"
grep -q "$esc" "$T/out" && fail "escape codes in piped output"
# stdin a terminal, stdout a pipe (inside tmux)
start 100 30 "$APP | cat > $T/tty-out"
wait_exit 20; rc=$RC
[ "$rc" = 0 ] || fail "exit code $rc with stdout piped"
grep -q '1\.3' "$T/tty-out" || fail "no lesson list with stdout piped"
grep -q "$esc" "$T/tty-out" && fail "escape codes with stdout piped"
echo "ok: plain output when piped"
