#!/bin/sh
# `vramlab eval`: errors come back as file:line: message with exit 1; runaway code is stopped.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf 'print("hi")\nlocal x = nil\nprint(x.y)\n' > "$d/err.lua"
out=$("$b" --backend sim eval "$d/err.lua" 2>&1); [ $? -eq 1 ] || fail "error exit"
echo "$out" | grep -q "^hi$" || fail "print output lost"
echo "$out" | grep -q "$d/err.lua:3: attempt to index" || fail "message: $out"
printf 'pcall(function() while true do end end)\nprint("escaped")\n' > "$d/loop.lua"
# at 20 million instructions, a tenth of the default: the same stop, without 1 CPU s of looping
out=$(VRAMLAB_LIMITS=seconds=60,instructions=20000000 "$b" --backend sim eval "$d/loop.lua" 2>&1); [ $? -eq 1 ] || fail "loop exit"
echo "$out" | grep -q "sandbox limit" || fail "loop message: $out"
echo "$out" | grep -q escaped && fail "pcall swallowed the limit"
"$b" eval /nonexistent.lua 2>&1 | grep -q "cannot open" || fail "missing file"
exit 0
