#!/bin/sh
# Real-world-shaped snapshots (tests/snapshot/make_fixtures.py: expandable segments, a cache
# warm before the trace, empty_cache() in the trace, two devices, a private pool on a side
# stream, profiler annotations, Windows paths, an OOM, two snapshots of one run): every number
# of `vramlab snapshot --json --segments`, every line of --collapsed (at the end and at the peak)
# and `snapshot diff --json` agree exactly with the reference reader
# (tests/snapshot/summary_ref.py, from PyTorch's sources); the collapsed bytes add up to the
# allocated (end) and peak bytes; the what-if replay under the recorded options repeats the
# recorded device calls and final segments, or names the reason it cannot (private pools,
# streams); standard input reads as the file does; the generator is deterministic.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed for the fixtures"; exit 77; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
python3 tests/snapshot/make_fixtures.py -o "$d/a" || fail "make_fixtures.py"
python3 tests/snapshot/make_fixtures.py -o "$d/b" || fail "make_fixtures.py (again)"
for f in "$d"/a/*; do
    cmp "$f" "$d/b/${f##*/}" || fail "make_fixtures.py is not deterministic: ${f##*/}"
done

python3 - "$b" "$d/a" <<'PY' || fail "vramlab and the reference disagree"
import json, subprocess, sys
sys.path.insert(0, "tests/snapshot")
import summary_ref as ref
b, d = sys.argv[1:3]
cap = dict(line.split() for line in open(d + "/capacity.txt"))

def run(*args, stdin=None):
    p = subprocess.run([b] + list(args), capture_output=True, text=True, stdin=stdin)
    if p.returncode != 0:
        print("FAIL: vramlab %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
        sys.exit(1)
    return p.stdout

diff = ref.report_diff

def same(what, c, p):
    p = json.loads(json.dumps(p))                 # as the reference prints it
    c = {k: c.get(k) for k in p}
    if c != p:
        print("FAIL: %s:" % what)
        diff(c, p)
        sys.exit(1)

names = ("expandable", "two-devices", "windows", "grow-a", "grow-b")
refs = {}
for n in names:
    f = "%s/%s.pickle" % (d, n)
    snap = ref.load(f)
    p = ref.summarize(snap, 10)
    for D in p["devices"]:
        D["segment_list"] = ref.segment_list(snap, D["device"])
    p["file"] = f
    same(n + " --json --segments", json.loads(run("snapshot", f, "--json", "--segments")), p)
    refs[n] = p
    for at in ("end", "peak"):
        c = run("snapshot", f, "--collapsed", "--at", at).splitlines()
        r = ref.collapsed(snap, at)
        if c != r:
            bad = next(i for i in range(max(len(c), len(r))) if i >= min(len(c), len(r)) or c[i] != r[i])
            print("FAIL: %s --collapsed --at %s, line %d:\n  vramlab   %r\n  reference %r"
                  % (n, at, bad, c[bad] if bad < len(c) else None, r[bad] if bad < len(r) else None))
            sys.exit(1)
        total = sum(int(line.rsplit(" ", 1)[1]) for line in c)
        if at == "end":
            want = sum(D["allocated_bytes"] for D in p["devices"])
        else:
            want = sum(D["timeline"]["peak_bytes"] for D in p["devices"] if D["trace"]["events"])
        assert total == want, (n, at, total, want)

# the fixtures are what they claim to be
e = refs["expandable"]["devices"][0]
assert e["segments"]["expandable"] == e["segments"]["count"] > 0, e["segments"]
assert e["trace"]["actions"]["segment_map"] and e["trace"]["actions"]["segment_unmap"], e["trace"]
assert e["timeline"]["pre_trace_blocks"] > 0 and e["annotations"], e["timeline"]
assert 0 < e["releasable_bytes"] < e["cached_bytes"], e
t = refs["two-devices"]["devices"]
assert [x["device"] for x in t] == [0, 1] and t[0]["private_pools"] and not t[1]["private_pools"]
assert t[0]["trace"]["streams"] == 2 and all(x["annotations"] for x in t)
assert all(x["trace"]["actions"]["segment_free"] for x in t), "no empty_cache() in the trace"
w = refs["windows"]["devices"][0]
assert w["ooms"] and "\\" in w["ooms"][0]["where"] and w["ooms"][0]["where"].startswith("C:\\"), w["ooms"]
assert all(not g["where"].endswith("contextlib.py:81") for g in w["top_at_peak"]), w["top_at_peak"]

# snapshot diff: what grew between two snapshots of one run
a, bb = d + "/grow-a.pickle", d + "/grow-b.pickle"
p = ref.diff(ref.load(a), ref.load(bb), 10)
p["a"], p["b"] = a, bb
same("snapshot diff --json", json.loads(run("snapshot", "diff", a, bb, "--json")), p)
g = p["devices"][0]
assert g["live_only_in_b"][0]["where"].endswith("train.py:146") and not g["live_only_in_a"], g
c = json.loads(run("snapshot", "diff", a, a, "--json"))["devices"][0]
assert not c["segments_only_in_a"] and not c["live_only_in_b"] and c["reserved_bytes"]["delta"] == 0, c

# the replay under the recorded options repeats what PyTorch did, or says why it cannot
for n, dev, exact in (("expandable", 0, True), ("two-devices", 1, True), ("windows", 0, True),
                      ("grow-b", 0, True), ("two-devices", 0, False)):
    c = cap["grow" if n.startswith("grow") else n]
    r = json.loads(run("snapshot", "%s/%s.pickle" % (d, n), "--json", "--device", str(dev),
                       "--capacity", c))["replay"]
    rec, mod = r["columns"][0], r["columns"][1]
    notes = {x["kind"] for x in r["notes"]}
    if exact:
        assert not r["differences"], (n, dev, r["differences"])
        for k in ("device_allocs", "device_frees", "end_segments", "end_reserved_bytes",
                  "peak_reserved_bytes"):
            assert rec[k] == mod[k], (n, dev, k, rec[k], mod[k])
    else:
        assert {"NOTE_PRIVATE_POOLS", "NOTE_STREAMS"} <= notes, (n, dev, notes)
    if refs[n]["devices"][0]["timeline"]["pre_trace_blocks"]:
        assert "NOTE_PRE_TRACE" in notes, (n, notes)

# standard input reads as the file does
f = d + "/two-devices.pickle"
with open(f, "rb") as fh:
    c = json.loads(run("snapshot", "-", "--json", "--segments", stdin=fh))
refs["two-devices"]["file"] = "-"
same("snapshot - --json", c, refs["two-devices"])
with open(bb, "rb") as fh:
    c = json.loads(run("snapshot", "diff", a, "-", "--json", stdin=fh))
p["b"] = "-"
same("snapshot diff A - --json", c, p)
PY

# docs/snapshot_to_trace.py: the blocks live before the history come first, so every free has
# its allocation and the trace replays; a pickle that names a global is refused, nothing runs
for n in expandable two-devices; do
    python3 docs/snapshot_to_trace.py "$d/a/$n.pickle" -o "$d/$n.trace" || fail "snapshot_to_trace $n"
    pre=$(python3 tests/snapshot/summary_ref.py "$d/a/$n.pickle" | python3 -c \
        'import json, sys; print(json.load(sys.stdin)["devices"][0]["timeline"]["pre_trace_blocks"])')
    grep -q "^# $pre blocks live before the history starts" "$d/$n.trace" || fail "$n: not $pre blocks before the history"
    grep -q "which no entry allocated" "$d/$n.trace" && fail "$n: a free without its allocation"
    out=$("$b" trace replay "$d/$n.trace" 16GiB) || fail "trace replay $n: $out"
    echo "$out" | grep -q " 0 skipped frees" || fail "trace replay $n: $out"
done
python3 -c 'import os, pickle, sys; pickle.dump({"segments": [], "x": os.system}, open(sys.argv[1], "wb"), protocol=4)' "$d/evil.pickle"
out=$(python3 docs/snapshot_to_trace.py "$d/evil.pickle" 2>&1); [ $? -eq 1 ] || fail "snapshot_to_trace ran a global: $out"
echo "$out" | grep -q "names posix.system: not a memory snapshot" || fail "snapshot_to_trace message: $out"

# the text of diff and --segments, and --collapsed's refusals
out=$("$b" snapshot diff "$d/a/grow-a.pickle" "$d/a/grow-b.pickle") || fail "diff exit $?"
echo "$out" | grep -q "live only in B (what grew): 18.19 MiB" || fail "diff text: $out"
echo "$out" | grep -q "nanogpt/train.py:146 <module>" || fail "diff text groups: $out"
out=$("$b" snapshot "$d/a/two-devices.pickle" --segments) || fail "--segments exit $?"
echo "$out" | grep -q "pool (1, 0), stream_94363797484512" || fail "--segments text: $out"
out=$("$b" snapshot "$d/a/windows.pickle" --collapsed --json 2>&1); [ $? -eq 2 ] || fail "--collapsed --json taken: $out"
out=$("$b" snapshot "$d/a/windows.pickle" --at peak 2>&1); [ $? -eq 2 ] || fail "--at without --collapsed taken: $out"
out=$("$b" snapshot "$d/a/windows.pickle" --collapsed --at middle 2>&1); [ $? -eq 2 ] || fail "--at middle taken: $out"
out=$("$b" snapshot diff - - < "$d/a/windows.pickle" 2>&1); [ $? -eq 2 ] || fail "diff - - taken: $out"
out=$("$b" snapshot diff "$d/a/windows.pickle" 2>&1); [ $? -eq 2 ] || fail "diff with one file taken: $out"
exit 0
