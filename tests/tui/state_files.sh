#!/bin/sh
# state_files.sh BUILD - a learner's file that cannot be used is never replaced: `e` on a code
# exercise keeps an answer of any size the reader accepts (72 KB here) under a fresh header and
# refuses, touching nothing, one over the limit or a link (its target untouched); a REPL history
# too large to read is kept aside whole, with a note, before the next entry is saved. The header `e`
# writes holds the lesson's text only escaped: a CR in a prompt cannot end its comment and run
# what follows as the learner's code.
. tests/tui/tmux.lib "$@"
test_datadir
cat > "$T/data/lessons/ch09/9.2-cr.lua" <<'LUA'
return lesson {
  id = "9.2", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "CR lesson", zh = "CR 课" },
  text { en = "One exercise.", zh = "一道练习。" },
  exercise {
    id = "f", kind = "code",
    prompt = { en = "Prompt\rerror('FROM THE PROMPT') --", zh = "p\rerror('FROM THE PROMPT') --" },
    entry = "f",
    starter = "function f()\n  return 0\nend\n",
    check = function(fn) return fn() == 1, { en = "no", zh = "no" } end,
    hints = { { en = "h", zh = "h" } },
    explain = { en = "1", zh = "1" },
  },
}
LUA
export VRAMLAB_DATADIR="$T/data"
S="$XDG_STATE_HOME/vramlab"
AF="$S/answers/9.1-double.lua"
export EDITOR=true
unset VISUAL
mkdir -p "$S/answers"
chmod 700 "$S" "$S/answers"

# an answer of 72 KB: graded, and kept whole under the header
{
    printf 'function double(x)\n  return 2 * x\nend\n'
    i=0
    while [ $i -lt 1100 ]; do
        echo "-- line $i of a long answer: the learner's own notes, kept as they are"
        i=$((i + 1))
    done
} > "$T/big.lua"
[ "$(wc -c < "$T/big.lua")" -gt 70000 ] || fail "the answer is $(wc -c < "$T/big.lua") bytes"
cp "$T/big.lua" "$AF"
start 150 30 "$APP"
wait_for '9\.1 +Test lesson'
keys Enter
wait_for 'vramlab · 9\.1 Test lesson' 5
keys ']'
wait_for 'Enter: one line · e: editor' 3
keys e
wait_for 'Right\.' 10
sed '1,/your answer below this line/d' "$AF" | cmp -s - "$T/big.lua" ||
    fail "the 72 KB answer was not kept: $(head -c 300 "$AF")"

# over the reader's limit, or a link: refused, nothing touched
head -c 5000000 /dev/zero | tr '\0' '-' > "$AF"
cp "$AF" "$T/huge.lua"
keys e
wait_for 'Not edited, 9\.1-double\.lua left as it is: too large' 5
cmp -s "$AF" "$T/huge.lua" || fail "an answer over the limit was changed"
echo precious > "$T/victim"
rm "$AF" && ln -s "$T/victim" "$AF"
keys e
wait_for 'Not edited, 9\.1-double\.lua left as it is: not a regular file \(a symbolic link\)' 5
[ "$(cat "$T/victim")" = precious ] || fail "e wrote through a link: $(cat "$T/victim")"
[ -L "$AF" ] || fail "the link was replaced"

# a history too large to read: kept aside whole when the next entry is saved
keys Escape q
wait_for 'vramlab · lessons' 5
i=0
while [ $i -lt 100 ]; do echo "x = 1 -- one of many entries of a long-lived history, all kept"; i=$((i + 1)); done > "$T/h100"
for k in 1 2 3 4 5 6 7 8; do cat "$T/h100" "$T/h100" "$T/h100" "$T/h100" "$T/h100" "$T/h100" "$T/h100" "$T/h100"; done > "$T/h6400"
for k in 1 2 3 4 5 6 7 8 9 10 11; do cat "$T/h6400"; done > "$S/history"
cp "$S/history" "$T/history.orig"
[ "$(wc -c < "$T/history.orig")" -gt 4300000 ] || fail "history is $(wc -c < "$T/history.orig") bytes"
keys :
wait_for 'vramlab · sandbox \(Lua\)' 3
keys -l 'print(6*7)'
keys Enter
wait_for '^ 42 ' 5
wait_for 'history file cannot be used \(too large' 5
n=50
while ! grep -qx 'print(6\*7)' "$S/history" 2>/dev/null; do
    n=$((n - 1)); [ $n -gt 0 ] || fail "the entry was not saved: $(head -c 200 "$S/history")"
    sleep 0.1
done
cmp -s "$(ls "$S"/history.corrupt-* | head -n 1)" "$T/history.orig" || fail "the large history was not kept aside whole"
keys Escape q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"

# the header of `e`: the prompt's CR escaped
fresh cr
start 150 30 "$APP 9.2"
wait_for 'vramlab · 9\.2 CR lesson' 10
keys ']'
wait_for 'Enter: one line · e: editor' 5
keys e
wait_for 'The starter unchanged' 10
CRC=$(printf '\r')
[ -f "$S/answers/9.2-f.lua" ] || fail "no answer file"
grep -q "$CRC" "$S/answers/9.2-f.lua" && fail "a raw CR in the header: $(cat -v "$S/answers/9.2-f.lua")"
grep -qF -- '-- Prompt\x0derror(' "$S/answers/9.2-f.lua" || fail "the prompt is not escaped: $(cat -v "$S/answers/9.2-f.lua")"
echo "ok: answers and history never replaced unread"
