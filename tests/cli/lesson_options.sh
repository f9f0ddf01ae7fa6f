#!/bin/sh
# docs/writing-lessons.md covers every field and option the built-in lessons use: each lesson and
# answers file is read as Lua tokens (tests/cli/lesson_options.py, nothing run) and every field of
# its lesson/text/experiment/exercise tables, panels and mistakes, every ex:bar/point/gauge option
# and ex:map block field, and every answers-file field must be named in the doc. So must every
# name the validator accepts (lua/lib/lesson.lua's field lists and EX_OPTS), so that a field added
# to the code is documented before a lesson uses it. The reader itself is checked: a doc without
# `peak` fails, naming the lesson's line.
# Not in the ASan pass: Python and grep over text files only, no C code.
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
doc=docs/writing-lessons.md
out=$(python3 tests/cli/lesson_options.py "$doc" lessons/*/*.lua 2>&1) || fail "$out"
# the validator's names: set { "a", "b", ... } lists and the ex: options
names=$(grep -oE 'set \{ "[a-z_]+"[^}]*\}' lua/lib/lesson.lua | grep -oE '"[a-z_]+"' | tr -d '"' | sort -u)
[ -n "$names" ] || fail "no field lists found in lua/lib/lesson.lua"
for n in $names; do
    grep -qE "\`\"?$n\"?\`" "$doc" || fail "lua/lib/lesson.lua accepts '$n', which $doc does not list"
done
# a doc that lacks a name a lesson uses fails at that lesson's line
sed 's/`peak`/peak/g' "$doc" > "$d/doc.md"
out=$(python3 tests/cli/lesson_options.py "$d/doc.md" lessons/*/*.lua 2>&1) && fail "an undocumented option passed"
first=$(printf '%s\n' "$out" | head -1)
case $first in lessons/*.lua:[0-9]*": option 'peak' (of ex:bar options) is not documented in $d/doc.md") ;;
*) fail "undocumented peak: $out" ;; esac
f=${first%%:*} rest=${first#*:} n=${rest%%:*}
sed -n "${n}p" "$f" | grep -q 'peak = ' || fail "$f:$n is not where peak is used: $(sed -n "${n}p" "$f")"
echo ok
