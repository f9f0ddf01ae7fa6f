#!/bin/sh
# A course of one's own: a teacher's folder with course.lua (tests/cli/data/teacher: sections
# 9.1, 1.1, 9.2, 9.3; 9.1-9.3 the teacher's, 1.1 built-in) is what the class sees, in that order:
# list (with the course's title, en and zh), completion, exercises --list and the workspace,
# progress; a section it leaves out is no lesson to run, grade or present. Without course.lua the
# folder adds to the built-in course. Its `cap` bounds what a lesson holds (the stricter of it and
# --cap). course.lua is data, read and checked like a lesson: each mistake at its line (an
# unknown field, a title without zh, a section that is no id, one listed twice, one no lesson has,
# a cap out of range, an expression, a second course.lua); a wrong one is the catalog's one
# error, never another course; a lesson of the folder it leaves out is a warning of check.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cp -r tests/cli/data/teacher "$d/course"
c="$d/course"
v() { "$b" --backend sim --lessons "$c" "$@"; }

# --- the class's view
out=$(v list 2>&1) || fail "list: $out"
[ "$(printf '%s\n' "$out" | head -1)" = "Course: GPU memory in four sections ($c/course.lua)" ] || fail "list title: $out"
[ "$(printf '%s\n' "$out" | grep -oE '^  [0-9]+\.[0-9]+' | tr -d ' ' | tr '\n' ' ')" = "9.1 1.1 9.2 9.3 " ] ||
    fail "list: not the course's sections in its order: $out"
out=$(v --lang zh list 2>&1) || fail "list zh: $out"
printf '%s\n' "$out" | head -1 | grep -q "^课程：四节课讲 GPU 显存（" || fail "list zh title: $out"
[ "$(v __complete -- run "" | tr '\n' ' ')" = "9.1 1.1 9.2 9.3 " ] || fail "completion: $(v __complete -- run "")"
[ "$(v __complete -- grade 9.1 "" | tr '\n' ' ')" = "weights-gib dtype bytes-fn " ] || fail "exercise completion: $(v __complete -- grade 9.1 "")"
out=$(v exercises --list 2>&1) || fail "exercises --list: $out"
[ "$(printf '%s\n' "$out" | grep -oE '^[0-9]+\.[0-9]+' | tr '\n' ' ')" = "9.1 1.1 9.2 9.3 " ] || fail "exercises --list: $out"
out=$(v exercises "$d/ws" 2>&1) || fail "exercises DIR: $out"
[ "$(ls "$d/ws")" = "9.1-bytes-fn.lua" ] || fail "workspace: not the course's code exercises: $(ls "$d/ws")"
out=$(XDG_STATE_HOME="$d/state" v progress 2>&1) || fail "progress: $out"
printf '%s\n' "$out" | grep -q "^Course: GPU memory in four sections" || fail "progress title: $out"
printf '%s\n' "$out" | grep -q "0/11 exercises solved, 0/4 sections visited" || fail "progress totals: $out"
# a section the course leaves out is not there to run, grade or present
for args in "run 3.1" "grade 3.1 predict-h2d 5" "check 3.1"; do
    out=$(v $args 2>&1) && fail "$args: a section outside the course ran"
    case $out in *"no lesson '3.1'"*"9.1 1.1 9.2 9.3"*) ;; *) fail "$args: $out" ;; esac
done
out=$(v grade 1.1 fp16-gib 13.04 2>&1) || fail "a built-in section of the course: $out"
# without course.lua the folder adds to the built-in course
mv "$c/course.lua" "$d/course.lua.off"
out=$(v list 2>&1) || fail "list without course.lua: $out"
printf '%s\n' "$out" | grep -q "^Course:" && fail "a course title without course.lua: $out"
printf '%s\n' "$out" | grep -qE '^  3\.1 ' || fail "the built-in course is not there without course.lua: $out"
printf '%s\n' "$out" | grep -qE '^  9\.3 ' || fail "the folder's lessons are not added: $out"
mv "$d/course.lua.off" "$c/course.lua"

# reading course.lua counts in the course's load budget (1 ms: far below what reading the course
# takes, as tests/cli/catalog_budget.sh does): past it, the one error, never the whole course
out=$(VRAMLAB_LIMITS=course=0.001 v list 2>&1) && fail "list passed a course past its budget"
printf '%s\n' "$out" | grep -qF "$c/course.lua: not loaded: the course took too long to load" || fail "budget: $out"
printf '%s\n' "$out" | grep -qE '^  [0-9]+\.[0-9]+ ' && fail "sections listed past the budget: $out"

# --- its cap: what a lesson holds in all; the stricter of course.lua's and --cap
printf 'local a = assert(gpu.alloc("1536MiB"))\nlocal b, err = gpu.alloc("1GiB")\nprint(b ~= nil, err)\n' > "$d/hold.lua"
out=$(v eval "$d/hold.lua" 2>&1) || fail "eval: $out"
case $out in "false	1 GiB requested, but experiments may hold at most 2 GiB of device memory in all (--cap; 512 MiB left)") ;;
*) fail "course.lua's cap: $out" ;; esac
out=$(v --cap 1GiB eval "$d/hold.lua" 2>&1); case $out in *"at most 1 GiB"*) ;; *) fail "--cap 1GiB is stricter: $out" ;; esac
out=$(v --cap 0.9 info 2>&1); case $out in *"at most 2 GiB, in all"*) ;; *) fail "info: $out" ;; esac

# --- course.lua is checked like a lesson: each mistake at its line
out=$(v check "$c" 2>&1) || fail "check of the course folder: $out"
printf '%s\n' "$out" | grep -q "^ok    course $c/course.lua (4 sections)" || fail "course not checked: $out"
course() { # BODY: a course.lua, line 1 "return {", BODY from line 2
    printf 'return {\n%s\n}\n' "$1" > "$c/course.lua"
}
bad() { # LINE WHAT BODY
    course "$3"
    out=$(v check "$c" 2>&1) && fail "check passed: $3"
    printf '%s\n' "$out" | grep -qF "$c/course.lua:$1: $2" || fail "want '$c/course.lua:$1: $2' in: $out"
    out=$(v list 2>&1) && fail "list passed a wrong course.lua: $out"
    printf '%s\n' "$out" | grep -qF "$c/course.lua:$1: $2" || fail "list: want the error: $out"
    printf '%s\n' "$out" | grep -qE '^  [0-9]+\.[0-9]+ ' && fail "list shows sections beside a wrong course.lua: $out"
}
T='  title = { en = "A", zh = "甲" },'
bad 3 "unknown field 'section'" "$T
  section = { \"9.1\" },"
bad 2 "title must be { en = \"...\", zh = \"...\" }, both languages" '  title = { en = "A" },
  sections = { "9.1" },'
bad 4 'section 2 must be a section id such as "1.3"' "$T
  sections = { \"9.1\",
    \"9\" },"
bad 5 "section 9.1 is listed twice (first at line 4)" "$T
  sections = {
    \"9.1\",
    \"9.1\" },"
bad 4 "cap = 2: a share of the device memory is 0.01 to 1" "$T
  sections = { \"9.1\" },
  cap = 2,"
bad 3 "not a literal value (only \"text\", numbers, true, false and { ... }: the file is read, never run)" "$T
  sections = os.exit(),"
bad 3 "a ',' or '}' is missing" "$T
  sections = { \"9.\" .. \"1\" },"
# a section no lesson has: the list's entry and check, at its line; the others listed
course "$T
  sections = { \"9.1\",
               \"9.9\" },"
out=$(v list 2>&1) && fail "list passed an unknown section"
printf '%s\n' "$out" | grep -qF "$c/course.lua:4: section 9.9 is not a lesson of the course" || fail "unknown section (list): $out"
printf '%s\n' "$out" | grep -qE '^  9\.1 ' || fail "the known section is not listed: $out"
out=$(v check "$c" 2>&1) && fail "check passed an unknown section"
printf '%s\n' "$out" | grep -qF "$c/course.lua:4: section 9.9 is not a lesson of the course" || fail "unknown section (check): $out"
# lessons of the folder it leaves out: a warning (an error with --strict), at their id's line
printf '%s\n' "$out" | grep -qF "warning: $c/ch09/9.2-device-copies.lua:3: lesson 9.2 is not in $c/course.lua's sections: the class does not see it" ||
    fail "a left-out lesson: $out"
# a second course.lua in a second folder
cp -r tests/cli/data/teacher "$d/other"
out=$(v --lessons "$d/other" list 2>&1) && fail "two course.lua passed"
printf '%s\n' "$out" | grep -qF "$d/other/course.lua:1: a second course file: the course is $c/course.lua's" || fail "second course.lua: $out"
echo ok
