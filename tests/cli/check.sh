#!/bin/sh
# `vramlab check`: the shipped lessons pass; a broken one is reported as file:line: what, exit 1.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
"$b" check >/dev/null || fail "shipped lessons do not pass check"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/bad.lua" <<'L'
return lesson {
  id = "1.9", chapter = 1,
  title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },
  text { en = "fine", zh = "好" },
  exercise { id = "q", kind = "number", prompt = { en = "p", zh = "p" },
             hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } },
}
L
out=$("$b" check "$d/bad.lua" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "exit $rc"
echo "$out" | grep -q "$d/bad.lua:5: exercise 'q': answer must be a number" || fail "message: $out"
printf 'return lesson {\n  id = "1.9",\n' > "$d/trunc.lua"
out=$("$b" check "$d/trunc.lua" 2>&1); [ $? -eq 1 ] || fail "truncated file accepted"
echo "$out" | grep -q "$d/trunc.lua:3:" || fail "truncated: $out"
exit 0
