#!/bin/sh
# escape.sh BUILD - text from file names, lessons and the command line reaches the terminal as one
# field, escaped by one function (gpu/base/gpu_esc.c): a newline in a lesson file name or a
# lesson's error cannot forge a line of `list` or `check`; new-lesson refuses a title or an id
# holding any control character (a CR ended the template's comment and ran what followed) and
# writes the title only inside strings; the watchdog's label is escaped when it is made, and a
# file name with an OSC 52 sequence never reaches the terminal raw; names holding a control
# character are refused by every reader and on the command line (options, operands, VRAMLAB_*),
# each said escaped. Every command runs under a timeout.
b="$(cd "$1" && pwd)/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export XDG_STATE_HOME="$t/state" VRAMLAB_DATADIR="$(pwd)"
unset VRAMLAB_LESSONS VRAMLAB_LANG
app() { timeout 20 "$b" --backend sim --deterministic "$@"; }
NL='
'
ESC=$(printf '\033') BEL=$(printf '\007') CR=$(printf '\r')
# clean NAME OUT: no line of OUT starts with FORGED, and no raw ESC, BEL or CR in it
clean() {
    printf '%s\n' "$2" | grep -q '^FORGED' && fail "$1: a forged line: $2"
    case $2 in *"$ESC"* | *"$BEL"* | *"$CR"*) fail "$1: a raw control character: $(printf '%s' "$2" | cat -v)" ;; esac
    return 0
}

# F17: a newline in a lesson file name, and in a lesson's error
mkdir -p "$t/L/ch09"
cat > "$t/L/ch09/9.1-a${NL}FORGED-LINE all lessons ok.lua" <<'LUA'
return lesson { id = "9.1" }
LUA
cat > "$t/L/ch09/9.2-b.lua" <<'LUA'
error("broken\nFORGED-LINE 0 with errors\r\27]0;TITLE\7")
LUA
out=$(app --lessons "$t/L" list 2>&1); [ $? -eq 1 ] || fail "list of broken lessons: $out"
clean list "$out"
echo "$out" | grep -qF '9.1-a\x0aFORGED-LINE all lessons ok.lua' || fail "list does not show the name escaped: $out"
out=$(app --lessons "$t/L" check 2>&1)
clean check "$out"
echo "$out" | grep -qF 'the file name holds a control character' || fail "check: $out"
echo "$out" | grep -qF 'broken\x0aFORGED-LINE 0 with errors\x0d\x1b]0;TITLE\x07' || fail "check: the error is not one record: $out"
out=$(app --lessons "$t/L" list --json 2>&1); [ $? -eq 1 ] || fail "list --json: $out"
clean "list --json" "$out"

# F18: new-lesson titles and ids with control characters are refused; quotes and brackets are text
for title in "Title${CR}error(\"PWN\"..\"ED\"..6*7)--" "Title${NL}error('PWNED')" "Tab	title" "Esc${ESC}[2J"; do
    out=$(app new-lesson 9.3 "$title" --dir "$t/N" 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "new-lesson accepted a control character (exit $rc): $(printf '%s' "$out" | cat -v)"
    echo "$out" | grep -q "without control characters" || fail "new-lesson: $out"
    clean new-lesson "$out"
done
[ -e "$t/N" ] && fail "new-lesson wrote something: $(find "$t/N")"
out=$(app new-lesson "9.3${NL}x" "Title" --dir "$t/N" 2>&1); [ $? -eq 2 ] || fail "new-lesson id with a newline: $out"
clean "new-lesson id" "$out"
title='Quotes "q" and ]] brackets -- not a comment'
out=$(app new-lesson 9.3 "$title" --dir "$t/N" 2>&1) || fail "new-lesson: $out"
f=$(ls "$t"/N/ch09/9.3-*.lua | grep -v answers)
grep -n -- '^--' "$f" | grep -qF "$title" && fail "the title went into a comment: $(head -n 3 "$f")"
out=$(app --lessons "$t/N" check 9.3 2>&1) || fail "check of the new lesson: $out"
out=$(app --lessons "$t/N" list 2>&1) || fail "list: $out"
echo "$out" | grep -qF "9.3   $title" || fail "the title does not round-trip: $out"

# F12: the watchdog names what ran escaped; a file name with OSC 52 never reaches the terminal raw
name="run${ESC}]52;c;UFdORUQ=${BEL}.lua"
printf 'gpu.alloc(2^20)\n' > "$t/$name"
out=$(cd "$t" && VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS=seconds=1,wall=2 timeout 30 "$b" --backend sim eval "$name" 2>&1); rc=$?
[ $rc -eq 124 ] && fail "eval hung"
clean watchdog "$out"
echo "$out" | grep -qF 'run\x1b]52;c;UFdORUQ=\x07.lua' || fail "the name is not shown escaped: $out"

# the same class through other readers, the command line and the environment
for args in "trace replay $t/t${NL}FORGED.trace 1GiB" "results $t/r${NL}FORGED.jsonl" \
            "--profile x${NL}FORGED info" "run 1.1${NL}FORGED" "--record $t/r${NL}FORGED.jsonl run 1.1" \
            "lsit${NL}FORGED" "--replay $t/p${ESC}]0;X${BEL}.jsonl run 1.1"; do
    old_ifs=$IFS IFS=' '
    # shellcheck disable=SC2086
    out=$(app $args 2>&1); rc=$?
    IFS=$old_ifs
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "$args: exit $rc"
    clean "$args" "$out"
done
[ -e "$t/r${NL}FORGED.jsonl" ] && fail "--record wrote a file named with a newline"
out=$(VRAMLAB_LESSONS="$t/L${NL}FORGED" app list 2>&1); [ $? -eq 2 ] || fail "VRAMLAB_LESSONS: $out"
clean VRAMLAB_LESSONS "$out"
# generated code: a lesson's title, prompt and hint with a CR (Lua ends a comment there too) in
# the workspace file `exercises` writes: escaped, never code that runs as the learner's answer
mkdir -p "$t/W/ch09"
cat > "$t/W/ch09/9.1-w.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Chapter 9", zh = "第 9 章" },
  title = { en = "Title\rfunction add(a, b) return a + b end --", zh = "T" },
  text { en = "x", zh = "x" },
  exercise {
    id = "f", kind = "code",
    prompt = { en = "Prompt\rerror('FROM THE PROMPT') --", zh = "p" },
    entry = "add",
    starter = "function add(a, b)\n  return 0\nend\n",
    check = function(fn) if fn(1, 2) == 3 then return true end return false, { en = "no", zh = "no" } end,
    explain = { en = "a + b", zh = "a + b" },
    hints = { { en = "Hint\rerror('FROM THE HINT') --", zh = "h" } },
  },
}
LUA
out=$(app --lessons "$t/W" exercises "$t/ws" 2>&1) || fail "exercises: $out"
grep -q "$CR" "$t/ws/9.1-f.lua" && fail "a raw CR in the generated file: $(cat -v "$t/ws/9.1-f.lua")"
grep -qF -- '-- Prompt\x0derror(' "$t/ws/9.1-f.lua" || fail "the prompt is not escaped: $(cat -v "$t/ws/9.1-f.lua")"
grep -qF -- 'lesson Title\x0dfunction add' "$t/ws/9.1-f.lua" || fail "the title is not escaped: $(head -n 1 "$t/ws/9.1-f.lua")"
out=$(app --lessons "$t/W" grade 9.1 f "@$t/ws/9.1-f.lua" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "the starter was graded (exit $rc, want 1: a wrong answer): $out"
case $out in *"answer:"*FROM*) fail "text from the lesson ran as the answer's code: $out" ;; esac
# a recording's own strings (its machine, a run's title, a label): one line each in results and
# compare, as the loader makes them
app --record "$t/rec.jsonl" run 1.1 >/dev/null 2>&1 || fail "record 1.1"
sed -i '1s/"gpu":"[^"]*"/"gpu":"X\\nFORGED-GPU\\u001b]0;T\\u0007"/; s/"series":"\([^"]*\)"/"series":"\1\\nFORGED-LABEL"/' "$t/rec.jsonl"
grep -q 'FORGED-LABEL' "$t/rec.jsonl" || fail "no label changed in the recording"
for cmd in "results $t/rec.jsonl" "compare $t/rec.jsonl $t/rec.jsonl"; do
    out=$(app $cmd 2>&1) || fail "$cmd: $out"
    printf '%s\n' "$out" | grep -q '^FORGED' && fail "$cmd: a line forged by the recording: $out"
    printf '%s\n' "$out" | grep -qF 'X\x0aFORGED-GPU\x1b]0;T\x07' || fail "$cmd: the machine not escaped: $out"
done
out=$(app results "$t/rec.jsonl" 2>&1)
printf '%s\n' "$out" | grep -qF '\x0aFORGED-LABEL' || fail "results: a label not escaped: $out"
# and a live run's label, from the lesson: one line too (lt_vm_emit cuts and escapes it)
mkdir -p "$t/NL/ch09"
cat >"$t/NL/ch09/9.1-nl.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "T", zh = "T" },
  title = { en = "Labels", zh = "标签" },
  text { en = "Bars.", zh = "条。" },
  experiment { id = "b", title = { en = "A bar", zh = "一条" },
    panels = { { id = "b", kind = "bars", title = { en = "B", zh = "B" }, unit = "GB/s" } },
    run = function(ex) ex:bar("b", "lab\nFORGED-LIVE", 12) end },
}
LUA
out=$(app --lessons "$t/NL" run 9.1 2>&1) || fail "run of a label with a newline: $out"
printf '%s\n' "$out" | grep -q '^FORGED' && fail "run: a line forged by a label: $out"
printf '%s\n' "$out" | grep -qF 'lab\x0aFORGED-LIVE: 12 GB/s' || fail "run: the label not escaped: $out"
echo "ok: file names, lesson errors, titles and labels reach the terminal escaped"
