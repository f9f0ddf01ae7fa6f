#!/bin/sh
# The command line is one table: every command `vramlab --help` lists answers `COMMAND --help`
# with its own usage (exit 0); an unknown or inapplicable option after any command is one line
# naming the command and its help, exit 2; global options work after the command; the man
# page's SYNOPSIS, COMMANDS and OPTIONS headers and the bash completion agree with the table;
# wrong profile, section, lesson and exercise names list the valid ones; progress is sorted by
# section with totals; no cap on the number of operands.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export XDG_STATE_HOME="$d/state"
vl() { "$b" --backend sim --deterministic --seed 1 --lang en "$@" </dev/null; }

# --- every command in the usage, each with its own --help
usage=$("$b" --help) || fail "vramlab --help exited $?"
cmds=$(printf '%s\n' "$usage" | sed -n '/^commands:/,/^options/{/^  [a-z]/s/^  \([a-z-]*\).*/\1/p}')
[ "$(echo "$cmds" | wc -l)" -ge 17 ] || fail "usage lists too few commands: $cmds"
[ "$(printf '%s\n' "$usage" | wc -l)" -le 45 ] || fail "vramlab --help is long: $(printf '%s\n' "$usage" | wc -l) lines"
printf '%s\n' "$usage" | grep -q "^vramlab COMMAND --help" || fail "usage does not point at COMMAND --help"
for c in $cmds; do
    out=$("$b" "$c" --help 2>"$d/err"); rc=$?
    [ $rc -eq 0 ] || fail "$c --help exited $rc"
    [ -s "$d/err" ] && fail "$c --help wrote to stderr: $(cat "$d/err")"
    first=$(echo "$out" | head -n 1)
    case $first in "usage: vramlab $c"|"usage: vramlab $c "*) ;; *) fail "$c --help: $first" ;; esac
    [ "$("$b" "$c" -h)" = "$out" ] || fail "$c -h differs from $c --help"
    # the same command, unknown option: one line, exit 2, nothing on stdout
    "$b" "$c" --no-such-option >"$d/out" 2>"$d/err"; rc=$?
    [ $rc -eq 2 ] || fail "$c --no-such-option exited $rc"
    [ -s "$d/out" ] && fail "$c --no-such-option wrote to stdout"
    [ "$(cat "$d/err")" = "vramlab: $c: unknown option '--no-such-option' (vramlab $c --help)" ] ||
        fail "$c --no-such-option: $(cat "$d/err")"
done
# options that exist elsewhere but not here
for args in "list --csv" "info --yes" "check --json" "progress --list" "profiles --top 3"; do
    c=${args%% *} o=${args#* }; o=${o%% *}
    "$b" $args >"$d/out" 2>"$d/err"; rc=$?
    [ $rc -eq 2 ] || fail "$args exited $rc"
    [ "$(cat "$d/err")" = "vramlab: $c: unknown option '$o' (vramlab $c --help)" ] ||
        fail "$args: $(cat "$d/err")"
done
out=$("$b" --json check 2>&1); [ $? -eq 2 ] || fail "--json check accepted"
[ "$(echo "$out" | wc -l)" -eq 1 ] || fail "--json check: $out"
out=$("$b" list --lang 2>&1); [ $? -eq 2 ] || fail "list --lang without a value"
[ "$out" = "vramlab: list: --lang needs a value (vramlab list --help)" ] || fail "list --lang: $out"
out=$("$b" info extra 2>&1); [ $? -eq 2 ] || fail "info extra accepted"
[ "$(echo "$out" | wc -l)" -eq 1 ] || fail "info extra: $out"

# --- global options before or after the command, --opt=value too
vl list >"$d/en" || fail "list"
"$b" --lang zh list >"$d/zh1" 2>&1 || fail "--lang zh list"
"$b" list --lang zh >"$d/zh2" 2>&1 || fail "list --lang zh"
"$b" list --lang=zh >"$d/zh3" 2>&1 || fail "list --lang=zh"
cmp -s "$d/zh1" "$d/zh2" && cmp -s "$d/zh1" "$d/zh3" || fail "--lang after list differs"
cmp -s "$d/zh1" "$d/en" && fail "--lang zh changed nothing"
"$b" --backend sim --profile t4 --deterministic info >"$d/i1" || fail "info before"
"$b" info --backend=sim -p t4 -d >"$d/i2" || fail "info after"
cmp -s "$d/i1" "$d/i2" || fail "options after info differ"
grep -q "T4" "$d/i2" || fail "--profile t4 after info: $(head -n 3 "$d/i2")"

# --- the man page's generated headers are the table's
hdr() { awk '/^\.SH/ { s = $2; t = 0; if (s == "SYNOPSIS" || s == "COMMANDS" || s == "OPTIONS") print; next }
    s == "SYNOPSIS" { print; next }
    (s == "COMMANDS" || s == "OPTIONS") && /^\.TP$/ { t = 1; print; next }
    t { print; t = 0 }' "$1"; }
"$b" --help-man >"$d/man" || fail "--help-man"
hdr docs/vramlab.1 >"$d/m1"; hdr "$d/man" >"$d/m2"
diff "$d/m1" "$d/m2" >"$d/diff" || fail "docs/vramlab.1 drifted from the command table (vramlab --help-man):
$(cat "$d/diff")"
for c in $cmds; do grep -q "^\\\\fB$c\\\\fR" "$d/m1" || fail "man COMMANDS lacks $c"; done

# --- completion from the binary
comp() { "$b" __complete -- "$@" </dev/null; }
[ "$(comp r | tr '\n' ' ')" = "run reset results " ] || fail "complete r: $(comp r)"
[ "$(comp "" | grep -v '^[0-9]' | sort)" = "$(echo "$cmds" | sort)" ] || fail "complete: commands differ from the usage"
. tests/cli/catalog.lib
ids=$(lesson_ids "$b") || fail "catalog: $ids"
[ "$(comp run "")" = "$ids" ] || fail "complete run: $(comp run "")"
[ "$(comp reset 1.)" = "$(echo "$ids" | grep '^1\.')" ] || fail "complete reset 1."
profiles=$(ls assets/gpus | sed -n 's/\.txt$//p')
[ "$(comp --profile "")" = "$profiles" ] || fail "complete --profile: $(comp --profile "")"
[ "$(comp info -p h)" = "$(echo "$profiles" | grep '^h')" ] || fail "complete info -p h"
[ "$(comp list --lang=z)" = "zh" ] || fail "complete --lang=z: $(comp list --lang=z)"
[ "$(comp eval x)" = "@file" ] || fail "complete eval FILE: $(comp eval x)"
comp run --j | grep -qx -- "--json" || fail "complete run --j"
comp list --c | grep -q . && fail "complete offers an option list does not take: $(comp list --c)"
exs=$("$b" exercises --list </dev/null | awk '$1 == "1.1" { l = 1; next } /^[0-9]/ { l = 0 } l { print $1 }')
[ -n "$exs" ] || fail "exercises --list shows nothing for 1.1"
[ "$(comp grade 1.1 "")" = "$exs" ] || fail "complete grade 1.1: $(comp grade 1.1 "")"
# a teacher's folder named in the words (--lessons, -L, --lessons=) or by VRAMLAB_LESSONS adds its
# lessons and their exercises
"$b" new-lesson 9.1 "Teacher's lesson" --dir "$d/course" >/dev/null || fail "new-lesson for completion"
for w in "--lessons $d/course run" "-L $d/course run" "run --lessons=$d/course"; do
    [ "$(comp $w 9)" = "9.1" ] || fail "complete $w 9: $(comp $w 9)"
done
[ "$(VRAMLAB_LESSONS="$d/course" comp run 9)" = "9.1" ] || fail "complete run 9 with VRAMLAB_LESSONS"
[ "$(comp run 9)" = "" ] || fail "complete run 9 without the folder: $(comp run 9)"
comp -L "$d/course" grade 9.1 "" | grep -qx predict || fail "complete -L DIR grade 9.1: $(comp -L "$d/course" grade 9.1 "")"
# the bash script passes the line to the binary and keeps --opt=value one word
if command -v bash >/dev/null; then
    out=$(PATH="$(cd "$(dirname "$b")" && pwd):$PATH" bash -c '. tui/cli/vramlab.bash
        try() { COMP_LINE=$1; COMP_POINT=${#1}; read -ra COMP_WORDS <<<"$1"
            case $1 in *" ") COMP_WORDS+=("") ;; esac
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _vramlab; echo "${COMPREPLY[*]}"; }
        try "vramlab r"; try "vramlab --profile t"; try "vramlab grade 1.1 fp"' 2>&1)
    [ "$out" = "run reset results
t4
fp16-gib" ] || fail "bash completion: $out"
fi

# --- wrong names list the right ones
known=$(echo "$profiles" | tr '\n' ' ' | sed 's/ $//')
out=$("$b" --backend sim --profile nope info 2>&1); [ $? -ne 0 ] || fail "--profile nope accepted"
echo "$out" | grep -qF "unknown profile 'nope'; known: $known" || fail "--profile nope: $out"
out=$("$b" --backend sim --profile h100 info 2>&1); [ $? -ne 0 ] || fail "--profile h100 accepted"
echo "$out" | grep -qF "unknown profile 'h100'; known: $known; did you mean h100-sxm?" || fail "--profile h100: $out"
grep -rn -e "--list-profiles" tui gpu lua docs README.md && fail "a message points at --list-profiles"
idl=$(echo "$ids" | tr '\n' ' ' | sed 's/ $//')
out=$("$b" reset 9.9 --yes 2>&1); [ $? -eq 2 ] || fail "reset 9.9 exit"
echo "$out" | grep -qF "vramlab: reset: no lesson '9.9'; known: $idl" || fail "reset 9.9: $out"
# no answer to the question (stdin at its end): the question's line ends before "nothing changed"
out=$("$b" --lang en reset 1.1 </dev/null 2>&1) || fail "reset with no answer: $out"
[ "$(printf '%s\n' "$out" | tail -n 1)" = "nothing changed" ] || fail "reset with no answer, one line: $out"
out=$(vl grade 9.9 x 1 2>&1); [ $? -eq 2 ] || fail "grade 9.9 exit"
echo "$out" | grep -qF "no lesson '9.9'; known: $idl" || fail "grade 9.9: $out"
out=$(vl grade 1.1 nope 1 2>&1); [ $? -eq 2 ] || fail "grade 1.1 nope exit"
echo "$out" | grep -qF "has no exercise 'nope'; its exercises: $(echo "$exs" | tr '\n' ' ' | sed 's/ $//')" ||
    fail "grade 1.1 nope: $out"
out=$(vl grade 1.1 fp16-gib -3.5 2>&1); [ $? -eq 2 ] || fail "grade with a negative answer before --"
[ "$out" = "vramlab: grade: unknown option '-3.5'; a negative number goes after --, as in grade -- -3.5 (vramlab grade --help)" ] ||
    fail "negative answer: $out"
out=$(vl grade 1.1 fp16-gib -- -3.5 2>&1); [ $? -eq 1 ] || fail "grade -- -3.5: $out"
out=$("$b" lsit </dev/null 2>&1); [ $? -eq 2 ] || fail "vramlab lsit exit"
[ "$out" = "vramlab: 'lsit' is neither a command nor a lesson; did you mean \`vramlab list\`? lessons: $idl (vramlab --help)" ] ||
    fail "vramlab lsit: $out"
# did you mean: a command, a lesson, an exercise, an option, in the learner's language
out=$("$b" presnt x 2>&1); [ $? -eq 2 ] || fail "vramlab presnt x exit"
[ "$out" = "vramlab: unknown command 'presnt'; did you mean 'present'? (vramlab --help)" ] || fail "presnt: $out"
out=$(vl run 2.33 2>&1); [ $? -eq 2 ] || fail "run 2.33 exit"
echo "$out" | grep -qF "vramlab: run: no lesson '2.33'; did you mean 2.3? known: $idl" || fail "run 2.33: $out"
out=$(vl --lang zh run 2.33 2>&1)
echo "$out" | grep -qF "vramlab：run：没有课程“2.33”；是不是 2.3？现有：" || fail "run 2.33 in 中文: $out"
out=$("$b" --lang zh reset 2.33 --yes 2>&1); [ $? -eq 2 ] || fail "reset 2.33 exit"
echo "$out" | grep -qF "vramlab：reset：没有课程“2.33”；是不是 2.3？现有：" || fail "reset 2.33 in 中文: $out"
out=$(vl present 3.11 </dev/null 2>&1); [ $? -eq 2 ] || fail "present 3.11 exit (before it asks for a terminal)"
echo "$out" | grep -qF "vramlab: present: no lesson '3.11'; did you mean 3.1? known: $idl" || fail "present 3.11: $out"
out=$(vl grade 1.1 fp16-gi 1 2>&1)
echo "$out" | grep -qF "has no exercise 'fp16-gi'; did you mean 'fp16-gib'? its exercises:" || fail "grade fp16-gi: $out"
out=$("$b" --thme dark list 2>&1); [ $? -eq 2 ] || fail "--thme exit"
[ "$out" = "vramlab: unknown option '--thme'; did you mean --theme? (vramlab --help)" ] || fail "--thme: $out"
out=$(vl list --jsn 2>&1); [ $? -eq 2 ] || fail "list --jsn exit"
echo "$out" | grep -qF "unknown option '--jsn'; did you mean --json?" || fail "list --jsn: $out"
printf 'local t = vram.kv_cahce{layers = 1}\n' > "$d/typo.lua"
out=$(vl eval "$d/typo.lua" 2>&1); [ $? -eq 1 ] || fail "eval of a typo: exit"
[ "$out" = "$d/typo.lua:1: attempt to call a nil value (field 'kv_cahce'); did you mean vram.kv_cache?" ] ||
    fail "eval typo: $out"
sed 's/^  exercise {/  exercize {/' lessons/ch01/1.1-what-is-vram.lua > "$d/9.9-typo.lua"
out=$(vl check "$d/9.9-typo.lua" 2>&1) && fail "check of a lesson with a typo passed"
echo "$out" | grep -qE "9\.9-typo\.lua:[0-9]+: attempt to call a nil value \(global 'exercize'\); did you mean exercise\?$" ||
    fail "check typo: $out"
out=$("$b" xyzzy </dev/null 2>&1)
echo "$out" | grep -q "did you mean" && fail "a suggestion for a word like nothing: $out"
out=$("$b" eval "$d/nonexistent.lua" 2>&1); [ $? -eq 1 ] || fail "eval of a missing file: exit $?"
echo "$out" | grep -q "nonexistent.lua: cannot open" || fail "eval of a missing file: $out"

# --- progress: sorted by section in the lessons' order, aligned, one line per answer, totals
mkdir -p "$d/state/vramlab"
printf 'vramlab-progress 1\nvisit 2.1 1700000000\nex 1.2 bottleneck 2 0 1700000100 function f(a)\\n  return 1\\nend\nex 1.1 kv-gqa 1 1 1700000200 4\nex 1.1 fp16-gib 12 1 1700000300 13.04\nvisit 1.1 1700000000\n' >"$d/state/vramlab/progress"
"$b" progress >"$d/p" 2>&1 || fail "progress exited $?"
[ "$(awk 'NR > 2 && /^  [0-9]/ { print $1 "/" $2 }' "$d/p" | tr '\n' ' ')" = "1.1/- 1.1/fp16-gib 1.1/kv-gqa 1.2/bottleneck 2.1/- " ] ||
    fail "progress order: $(cat "$d/p")"
grep -qF 'function f(a)\n  return 1\nend' "$d/p" || fail "progress: multi-line answer: $(cat "$d/p")"
nex=$("$b" exercises --list </dev/null | grep -c '^      ')
tail -n 1 "$d/p" | grep -qx "2/$nex exercises solved, 3/$(echo "$ids" | wc -l) sections visited" ||
    fail "progress totals: $(tail -n 1 "$d/p")"
# the tries and state columns line up whatever the counts
[ "$(grep -E ' (solved|open) ' "$d/p" | awk '{ print index($0, " solved") + index($0, " open ") }' | sort -u | wc -l)" -eq 1 ] ||
    fail "progress columns: $(cat "$d/p")"

# --- paths print normalised: the data folder found beside the binary, or given with ..
out=$(env -u VRAMLAB_DATADIR "$b" profiles 2>&1 | head -n 1)
case $out in *"/../"*|*"/./"*|"") fail "data folder beside the binary not normalised: $out" ;; esac
out=$("$b" --datadir tests/../tests/.. check 2>&1) || fail "check --datadir with ..: $out"
echo "$out" | grep -qF "ok    1.1  $(pwd)/lessons/" || fail "check paths: $(echo "$out" | head -n 2)"
echo "$out" | grep -q '/\.\./' && fail "check prints .. paths: $(echo "$out" | head -n 2)"

# --- no cap on operands: 300 files to check
printf 'return lesson { id = "9.9", chapter = 9, title = { en = "T", zh = "T" },\n  chapter_title = { en = "C", zh = "C" },\n  text { en = "t\\n\\n> [!source] Sources\\n> - s", zh = "t\\n\\n> [!source] Sources\\n> - s" } }\n' >"$d/l.lua"
set --; i=0; while [ $i -lt 300 ]; do set -- "$@" "$d/l.lua"; i=$((i + 1)); done
"$b" check "$@" >"$d/out" 2>&1 || fail "check with 300 files: $(tail -n 3 "$d/out")"
exit 0
