#!/bin/sh
# The catalog reads each lesson's header without running the file, and reading a course has a
# budget. Checked by driving the real program on a teacher's folder:
# - a lesson whose header is plain but whose body does not load is listed by `list` (no body is
#   compiled to list it), and run, check and grade report it with its file:line;
# - a plain lesson, then lessons whose header must be run to be read (a computed title) and whose
#   top level computes for a while: with a course budget (VRAMLAB_LIMITS=course=S) `list` lists
#   the first, says of the others "not loaded: the course took too long to load" (the one
#   running when the budget ends is cut), and ends (exit 1);
# - a folder of more lessons than VRAMLAB_LIMITS=lessons=N allows: the first N by file name are
#   listed, the others are not loaded; `check` of the folder reads them all.
# No timing is asserted: the budget is made far smaller than what the lessons take.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export VRAMLAB_DATADIR="$(pwd)"
unset VRAMLAB_LIMITS VRAMLAB_LESSONS
vl() { "$b" --backend sim --lang en "$@" </dev/null; }

# one plain lesson: HEADER_ID FILE TITLE BODY
lesson() {
    cat > "$2" <<L
return lesson {
  id = "$1", chapter = 9,
  chapter_title = { en = "Labs", zh = "实验" },
  title = { en = "$3", zh = "$3" },
$4
  exercise { id = "q", kind = "number", answer = 2, unit = "GB", prompt = { en = "p", zh = "p" },
             hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } },
}
L
}

# --- a body that does not load: listed, then reported with its line when used
mkdir -p "$d/broken/ch09"
lesson 9.1 "$d/broken/ch09/9.1-broken.lua" "Broken body" '  text { en = "only English" },'
out=$(vl --lessons "$d/broken" list 2>&1) || fail "list with a broken body: exit $?: $out"
echo "$out" | grep -q '^  9\.1   Broken body$' || fail "list: the lesson is not listed by its header: $out"
for args in "run 9.1" "check 9.1" "grade 9.1 q 2"; do
    out=$(vl --lessons "$d/broken" $args 2>&1); rc=$?
    [ $rc -ne 0 ] || fail "$args: a lesson that does not load gave exit 0: $out"
    echo "$out" | grep -q "$d/broken/ch09/9.1-broken.lua:5: text has no zh text" || fail "$args: $out"
done

# --- a course that takes too long: a plain lesson first, then headers that must be run, each
# top level computing for a while (2e7 loop turns: more than a tenth of a second anywhere). Only
# the teacher's folder is read (a data folder with the assets and no course), so that the
# budget's start is the first lesson's.
mkdir -p "$d/data" "$d/slow/ch09" && ln -s "$(pwd)/assets" "$d/data/assets"
lesson 9.0 "$d/slow/ch09/9.0-first.lua" "First" '  text { en = "# A", zh = "# 甲" },'
for i in 1 2 3 4 5 6 7 8; do
    cat > "$d/slow/ch09/9.$i-slow.lua" <<L
local n = 0
for k = 1, 20000000 do n = n + k end -- a top level that computes
return lesson {
  id = "9.$i", chapter = 9,
  chapter_title = { en = "Labs", zh = "实验" },
  title = { en = "Slow " .. "$i", zh = "慢 $i" },
  text { en = "# Slow", zh = "# 慢" },
}
L
done
out=$(VRAMLAB_LIMITS=course=0.3 timeout 60 "$b" --backend sim --datadir "$d/data" --lessons "$d/slow" list 2>&1); rc=$?
[ $rc -eq 1 ] || fail "slow course: exit $rc (want 1: lessons not loaded): $out"
echo "$out" | grep -q '^  9\.0   First$' || fail "slow course: the first lesson is not listed: $out"
n=$(echo "$out" | grep -c "9\.[0-9]-slow.lua: not loaded: the course took too long to load (0.3 s in all")
[ "$n" -ge 7 ] || fail "slow course: $n lesson(s) said not loaded (want 7 or 8): $out"

# --- more lessons in a folder than the budget allows
mkdir -p "$d/many/ch09"
for i in 1 2 3 4 5; do lesson "9.$i" "$d/many/ch09/9.$i-l.lua" "Lesson $i" '  text { en = "# A", zh = "# 甲" },'; done
out=$(VRAMLAB_LIMITS=lessons=3 vl --lessons "$d/many" list 2>&1); rc=$?
[ $rc -eq 1 ] || fail "lessons=3: exit $rc: $out"
for i in 1 2 3; do echo "$out" | grep -q "^  9\.$i   Lesson $i$" || fail "lessons=3: 9.$i not listed: $out"; done
for i in 4 5; do
    echo "$out" | grep -q "9\.$i-l.lua: not loaded: the course took too long to load (a folder of more than 3 lessons" ||
        fail "lessons=3: 9.$i not said to be not loaded: $out"
done
out=$(vl --lessons "$d/many" list 2>&1) || fail "5 lessons within the default budget: $out"
[ "$(echo "$out" | grep -c '^  9\.[1-5]   Lesson')" -eq 5 ] || fail "default budget: $out"
# (these lessons lack the course's Sources callout: check reads all five and says so of each)
out=$(VRAMLAB_LIMITS=lessons=3 vl --lessons "$d/many" check "$d/many" 2>&1)
echo "$out" | grep -q "^5 file(s) checked" || fail "check of the folder: $out"
echo "$out" | grep -q "not loaded" && fail "check applied the budget: $out"
[ "$(echo "$out" | grep -c 'does not end with its Sources')" -eq 5 ] || fail "check did not read all five: $out"
# a bad budget is a usage error, naming the keys
out=$(VRAMLAB_LIMITS=course=0 vl --lessons "$d/many" list 2>&1); [ $? -eq 2 ] || fail "course=0 accepted: $out"
echo "$out" | grep -q "course must be a number" || fail "course=0: $out"
echo "  a broken body listed and reported, a slow course cut at its budget, a folder at its count"
