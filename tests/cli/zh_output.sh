#!/bin/sh
# zh_output.sh BUILD - in 中文 the command line's own output carries no English: info, list,
# profiles, progress, exercises (--list and a new workspace), check, results and compare of a recording, an
# exam taken headless and a class's exam results summed up and compared, ledger, a
# graded answer, the sandbox's help(), a snapshot's report and what-if replay, a trace replay,
# and the device's refusals as a script sees them (an
# impossible allocation, an allocator over its cap, a copy and a latency run over the
# experiment cap). Every word is checked
# (tests/cli/zh_english.py --strict): all of it is the program's text, so a single English word
# left is a failure unless it is a name, unit, identifier or on the checker's short allow list.
# Lessons' headless runs in 中文 are checked by tests/cli/lessons.sh.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export XDG_STATE_HOME="$T/state" VRAMLAB_HOST_MAX=4MiB
app="$b --lang zh --backend sim --deterministic --seed 1"
out() { # NAME ARGS...: the command's stdout and stderr into $T/NAME
    name=$1; shift
    $app "$@" > "$T/$name" 2>&1
}
out info info || fail "info: $(cat "$T/info")"
out list list || fail "list: $(cat "$T/list")"
out profiles profiles || fail "profiles: $(cat "$T/profiles")"
out progress progress || fail "progress: $(cat "$T/progress")"
out exercises exercises --list || fail "exercises --list: $(cat "$T/exercises")"
out workspace exercises "$T/ws" || fail "exercises DIR: $(cat "$T/workspace")"
out check check lessons/ch01/1.1-what-is-vram.lua || fail "check: $(cat "$T/check")"
out ledger ledger || fail "ledger: $(cat "$T/ledger")"
out grade grade 1.1 adam-gb 16; [ $? = 1 ] || fail "a wrong answer graded as right: $(cat "$T/grade")"
$app --record "$T/rec.jsonl" run 1.3 > /dev/null 2>&1 || fail "run 1.3 --record"
out results results "$T/rec.jsonl" || fail "results: $(cat "$T/results")"
out compare compare "$T/rec.jsonl" "$T/rec.jsonl" || fail "compare: $(cat "$T/compare")"
# an exam taken, and the class's results summed up and compared (the exam's id "list" and the
# exercises' ids are names)
mkdir -p "$T/class"
printf '1.1:fp16-gib 14\n1.1:fits 2\n' > "$T/ans"
out exam exam 1.1:fp16-gib,1.1:fits,1.1:adam-gb --student s1 --results "$T/class" --answers "$T/ans" ||
    fail "exam: $(cat "$T/exam")"
out examres results "$T/class" || fail "results of a class: $(cat "$T/examres")"
grep -q '14 是十进制的数字' "$T/examres" || fail "the mistake is not said in Chinese: $(cat "$T/examres")"
out examcmp compare "$T/class" || fail "compare of a class: $(cat "$T/examcmp")"
# the device layer's refusals, as a script reads them
cat > "$T/refuse.lua" <<'EOF'
print(select(2, gpu.alloc("40GiB")))
local a = alloc.raw{}
print(select(2, a:malloc(30 * 2^30)))
print(select(2, gpu.copy{ dir = "d2d", bytes = 16 * 2^30 }))
print(select(2, gpu.latency{ bytes = 2^40 }))
EOF
out refuse eval "$T/refuse.lua" || fail "the refusals script: $(cat "$T/refuse")"
printf 'help()\nhelp(gpu)\nhelp(host)\nhelp(alloc)\nhelp(gpu.copy)\nhelp(1)\n' > "$T/help.lua"
out help eval "$T/help.lua" || fail "help: $(cat "$T/help")"
# a snapshot's report and its what-if replay, the model's findings on a mismatch included; the
# frames it lists (FILE.py:LINE function) are the snapshot's data
$app snapshot assets/snapshots/gpt-train-oom.pickle --capacity 24GiB > "$T/snap.all" 2>&1 ||
    fail "snapshot: $(cat "$T/snap.all")"
grep -q '^    - ' "$T/snap.all" || fail "the replay's findings are not in the report: $(tail -n 5 "$T/snap.all")"
grep -vE '\.py:[0-9]+ ' "$T/snap.all" > "$T/snapshot"
# a trace replayed into the allocator model, to an OOM (PyTorch's message and memory_summary)
printf '# vramlab allocator trace v1\na 1 40MiB\na 2 40MiB\nf 1\nf 2\na 3 30MiB\na 4 30MiB\na 5 30MiB\n' > "$T/frag.trace"
out trace trace replay "$T/frag.trace" 100MiB || fail "trace replay: $(cat "$T/trace")"
grep -q 'OOM 次数  1' "$T/trace" || fail "trace replay: no OOM: $(cat "$T/trace")"
grep -q '申请 40 GiB' "$T/refuse" || fail "the allocation cap is not said in Chinese: $(cat "$T/refuse")"
for f in info list profiles progress exercises check ledger grade results compare refuse help snapshot trace workspace exam examres examcmp; do
    [ -s "$T/$f" ] || fail "$f printed nothing"
done
# the recording's experiment and panel ids are shown as they are (results' columns, compare's
# headings)
res=$($app results --json "$T/rec.jsonl") || fail "results --json exited $?"
ids=$(printf '%s\n' "$res" | python3 -c '
import json, sys
print(",".join(sorted({v for l in sys.stdin for k, v in json.loads(l).items() if k in ("experiment", "panel")})))')
# and the names of the data: PyTorch's block states and trace actions, Python's pickle format,
# the allocator calls a trace counts
ids="$ids,inactive,snapshot,oom,pickle,malloc,free,list,fits,adam"
left=$(cd "$T" && python3 "$OLDPWD/tests/cli/zh_english.py" --strict --ids "$ids" info list profiles \
       progress exercises workspace check ledger grade results compare refuse help snapshot trace exam examres \
       examcmp) || fail "English left in 中文:
$left"
# the checker itself finds what it is for: English labels in a copy of the output
printf '设备：模拟\n  Backend  sim\n' > "$T/bad"
python3 tests/cli/zh_english.py --strict "$T/bad" > /dev/null && fail "the checker let 'Backend' through"
printf '  [m] 注：已用 3 GiB\n  [m] note: used 3 GiB\n' > "$T/bad"
python3 tests/cli/zh_english.py "$T/bad" > /dev/null && fail "the checker let a note label through"
printf '  [bars] 权重: 3 GiB (theoretical)\n' > "$T/bad"
python3 tests/cli/zh_english.py "$T/bad" > /dev/null && fail "the checker let a style tag through"
echo "ok: 15 commands' output in 中文 without English"
