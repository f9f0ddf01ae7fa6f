#!/bin/sh
# Plain output is safe and output errors are errors. Text from a lesson, a script, a recording, a
# progress file or an error message reaches stdout/stderr with its control characters shown
# (ESC as \x1b, BEL \x07, CR \x0d, DEL \x7f, C1 and bidi controls as \u0085, \u202e) and invalid
# UTF-8 replaced: list, run, check, eval's print, results, compare, progress and the errors of
# each (cat -v shows no ^[ and the bytes are valid UTF-8). --json output is valid UTF-8 JSON,
# CSV cells a spreadsheet would run as formulas start with '. Output that cannot be written
# (/dev/full, a closed stdout, a broken pipe when SIGPIPE is ignored) exits 5 with a message;
# by default a closed pipe ends vramlab by SIGPIPE (exit 141 in a shell), as it ends cat.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
app="$b --backend sim --deterministic --datadir $t"
mkdir -p "$t/lessons/ch09" "$t/state"
ln -s "$(pwd)/assets" "$t/assets"
export XDG_STATE_HOME="$t/state"
cat > "$t/lessons/ch09/9.1-esc.lua" <<'LUA'
local E, RLO = "\27", "\226\128\174"
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Chap" .. E .. "]52;c;ZWNobyBwd25lZA==\7", zh = "章" },
  title = { en = "Title" .. E .. "]0;TITLE-HIJACK\7" .. RLO .. "evil", zh = "标题" },
  text { en = "Text " .. E .. "[2J" .. E .. "[H bad\255byte \194\133 nel \r cr \127", zh = "文" },
  experiment { id = "x", title = { en = "Exp" .. E .. "c", zh = "实验" },
    panels = { { id = "bw", kind = "bars", title = { en = "B" .. E .. "[31m", zh = "柱" }, unit = "GB/s" },
               { id = "m", kind = "map", title = { en = "Map", zh = "图" } } },
    run = function(ex)
      ex:bar("bw", "=HYPERLINK(\"http://x\")" .. E .. "]0;BAR\7", 1.5, { unit = "u" .. E .. "[5m" })
      ex:bar("bw", "@SUM(1)", 2.5)
      ex:bar("bw", "-2+3", 3.5)
      ex:note("bw", "note" .. E .. "[2J")
      ex:status("status" .. E .. "c")
      ex:map("m", { { owner = "o" .. E .. "[1m", state = "allocated", bytes = 100 } }, 200)
      print("print" .. E .. "]0;PRINT\7" .. RLO .. "\226\129\166")
    end },
  exercise { id = "q", kind = "choice", prompt = { en = "Pick" .. E .. "[8m", zh = "选" },
    choices = { { en = "one" .. RLO, zh = "一" }, { en = "two", zh = "二" } }, answer = 1,
    hints = { { en = "h", zh = "h" } }, explain = { en = "e", zh = "e" } },
}
LUA
cat > "$t/lessons/ch09/9.2-err.lua" <<'LUA'
error("load failed" .. "\27]0;ERR\7" .. "\226\128\174")
LUA
printf 'print("eval\\27]0;X\\7 \\226\\128\\174 \\255")\nerror("bad\\27[2J")\n' > "$t/s.lua"
printf 'vramlab-progress 1\nex 9.1 q 1 0 12 \033]0;ANSWER\007\342\200\256\n' > "$t/state/progress" 2>/dev/null ||
    { mkdir -p "$t/state/vramlab"; }
mkdir -p "$t/state/vramlab" && mv "$t/state/progress" "$t/state/vramlab/progress"

# safe: no ESC byte, no raw C1/bidi control, valid UTF-8
safe() {
    what=$1 file=$2
    if grep -q "$(printf '\033')" "$file"; then fail "$what: raw ESC: $(cat -v "$file" | head -5)"; fi
    if grep -q "$(printf '\342\200\256')\|$(printf '\302\205')\|$(printf '\r')\|$(printf '\177')\|$(printf '\a')" "$file"; then
        fail "$what: raw control: $(cat -v "$file" | head -5)"
    fi
    iconv -f UTF-8 -t UTF-8 "$file" >/dev/null 2>&1 || fail "$what: not UTF-8"
}
$app list >"$t/o" 2>&1; safe list "$t/o"
grep -qF 'Title\x1b]0;TITLE-HIJACK\x07\u202eevil' "$t/o" || fail "list: not shown escaped: $(cat "$t/o")"
grep -qF '9.2-err.lua:1: load failed\x1b]0;ERR\x07\u202e' "$t/o" || fail "list error: $(cat "$t/o")"
$app --record "$t/rec.jsonl" run 9.1 >"$t/o" 2>&1; safe run "$t/o"
grep -qF 'bad'"$(printf '\357\277\275')"'byte \u0085 nel \x0d cr \x7f' "$t/o" || fail "run text: $(cat -v "$t/o")"
grep -qF 'print\x1b]0;PRINT\x07\u202e\u2066' "$t/o" || fail "run print: $(cat -v "$t/o")"
$app check >"$t/o" 2>&1; safe check "$t/o"
$app check "$t/lessons/ch09/9.2-err.lua" >"$t/o" 2>&1; safe "check FILE" "$t/o"
$app eval "$t/s.lua" >"$t/o" 2>&1; safe eval "$t/o"
grep -qF 'bad\x1b[2J' "$t/o" || fail "eval error: $(cat -v "$t/o")"
$app results "$t/rec.jsonl" >"$t/o" 2>&1; safe results "$t/o"
$app compare "$t/rec.jsonl" "$t/rec.jsonl" >"$t/o" 2>&1; safe compare "$t/o"
$app progress >"$t/o" 2>&1; safe progress "$t/o"
grep -qF ' \x1b]0;ANSWER\x07\u202e' "$t/o" || fail "progress: $(cat -v "$t/o")"

# JSON: every line parses, and is valid UTF-8 even for invalid input bytes
n=0
for cmd in "run 9.1 --json" "list --json" "results $t/rec.jsonl --json" "eval $t/s.lua --json"; do
    n=$((n + 1))
    $app $cmd >"$t/j$n" 2>/dev/null
    safe "$cmd" "$t/j$n"
done
python3 -c '
import json, sys
for name in sys.argv[1:]:
    for line in open(name, "rb").read().decode("utf-8").splitlines():
        json.loads(line)
' "$t/j1" "$t/j2" "$t/j3" "$t/j4" || fail "--json: not UTF-8 JSON lines: $(cat -v "$t"/j? | head -5)"

# CSV: formulas neutralised, numbers left alone
$app results "$t/rec.jsonl" --csv >"$t/o" || fail "csv exit"
safe csv "$t/o"
grep -q "^.*,\"'=HYPERLINK(\"\"http://x\"\")" "$t/o" || fail "csv: =HYPERLINK not neutralised: $(cat -v "$t/o")"
grep -q ",'@SUM(1)," "$t/o" || fail "csv: @ not neutralised: $(cat "$t/o")"
grep -q ",'-2+3," "$t/o" || fail "csv: - not neutralised: $(cat "$t/o")"
grep -q ",3.5,," "$t/o" || fail "csv: numbers changed: $(cat "$t/o")"

# write errors
for cmd in "list" "run 9.1" "results $t/rec.jsonl --csv" "eval $t/s.lua" "progress" "info"; do
    $app $cmd >/dev/full 2>"$t/e"; rc=$?
    [ $rc -eq 5 ] || [ $rc -eq 1 ] && grep -q "cannot write the output: No space left on device" "$t/e" ||
        fail "$cmd > /dev/full: exit $rc: $(cat "$t/e")"
    $app $cmd >&- 2>"$t/e"; rc=$?
    grep -q "cannot write the output: Bad file descriptor" "$t/e" || fail "$cmd >&-: exit $rc: $(cat "$t/e")"
done
"$b" --backend sim list >/dev/full 2>/dev/null; [ $? -eq 5 ] || fail "list > /dev/full: not exit 5"
"$b" --backend sim run 1.1 >&- 2>/dev/null; [ $? -eq 5 ] || fail "run >&-: not exit 5"
printf 'for i = 1, 20000 do print(("x"):rep(60)) end\n' > "$t/big.lua"
{ $app eval "$t/big.lua" 2>/dev/null; echo $? > "$t/rc"; } | head -c 1 >/dev/null
rc=$(cat "$t/rc")
[ "$rc" = 141 ] || fail "broken pipe: exit $rc, want 141 (SIGPIPE)"
{ trap '' PIPE; $app eval "$t/big.lua" 2>"$t/e"; echo $? > "$t/rc"; } | head -c 1 >/dev/null
rc=$(cat "$t/rc")
[ "$rc" = 5 ] && grep -q "Broken pipe" "$t/e" || fail "broken pipe, SIGPIPE ignored: exit $rc: $(cat "$t/e")"
exit 0
