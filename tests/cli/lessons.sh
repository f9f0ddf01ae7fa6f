#!/bin/sh
# Every lesson that `vramlab list --json` knows runs headless on the simulator in both languages
# and exits 0 (its experiments finish, nothing leaks at exit). A lesson the catalog cannot load
# fails here too, with its error. Each lesson's experiments run once, recorded (--record), in one
# language; the other language plays that recording back (--replay): its text and its replay
# are checked without measuring again. The normal build runs Chinese and replays English; the
# sanitizer build (VRAMLAB_TEST_TAG=asan, set by tests/run.sh) the other way round, so the code
# of both languages' experiments runs for real in one build or the other. Where Chinese runs for
# real, its whole output (text, panels, labels, exercises) must carry no English left
# (tests/cli/zh_english.py: names, units, code, citations and a short allow list pass).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
. tests/cli/catalog.lib
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ids=$(lesson_ids "$b" 2>&1) || fail "catalog (a lesson does not load?): $ids"
[ -n "$ids" ] || fail "no lessons listed"
real=zh replay=en
[ "$VRAMLAB_TEST_TAG" = asan ] && real=en replay=zh
app="$b --backend sim --deterministic --seed 1"
n=0
for id in $ids; do
    out=$($app --lang $real --record "$T/$id.jsonl" run "$id" 2>&1) ||
        fail "run $id --lang $real exited $?: $(printf '%s\n' "$out" | tail -n 15)"
    [ $real = zh ] && printf '%s\n' "$out" > "$T/$id.zh"
    out=$($app --lang $replay --replay "$T/$id.jsonl" run "$id" 2>&1) ||
        fail "run $id --lang $replay --replay exited $?: $(printf '%s\n' "$out" | tail -n 15)"
    n=$((n + 1))
done
# a recording's results give every number its unit: a bar's or gauge's own, a curve point's y
# and x from its panel's axis labels
for id in $ids; do
    "$b" results "$T/$id.jsonl" --json >> "$T/results.jsonl" || fail "results of $id's recording"
done
bad=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if not r["unit"] or (r["kind"] == "point" and not r.get("x_unit")):
        print("%s %s [%s] %s: %s" % (r["lesson"], r["experiment"], r["panel"], r["label"], l.strip()))
' "$T/results.jsonl" | head -n 5)
[ -z "$bad" ] || fail "results: a number without its unit:
$bad"
[ -s "$T/results.jsonl" ] || fail "no results in the recordings"
# every lesson's Chinese output at once (one interpreter): each line names its lesson, ID.zh:LINE
if [ $real = zh ]; then
    left=$(cd "$T" && python3 "$OLDPWD/tests/cli/zh_english.py" *.zh) || fail "English left in 中文:
$left"
fi
echo "$n lessons run ($real, recorded$([ $real = zh ] && echo ', no English left')) and replayed ($replay)"
exit 0
