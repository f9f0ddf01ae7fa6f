#!/bin/sh
# `vramlab snapshot`: its JSON agrees exactly with the Python reference (summary_ref.py, which
# reads the same pickle with Python's own unpickler) on the shipped examples and on variants
# written with every pickle protocol: several devices, a trace that begins after allocations
# existed, the older 'history' block format, no allocator_settings, hostile frame names. The
# text names its units and keeps control characters from the file off the terminal; the
# what-if replay agrees with the recorded run under the recorded options and says what
# expandable segments change; bad files and bad options give a clear error and exit code.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed for the reference"; exit 77; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
ex=assets/snapshots/gpt-train.pickle oom=assets/snapshots/gpt-train-oom.pickle

# the variants, each in another pickle protocol; then vramlab against the reference on each
# and on the fuzz target's seeds
python3 - "$b" "$ex" "$oom" "$d" <<'PY' || fail "vramlab and the reference disagree"
import copy, importlib.util, json, pickle, subprocess, sys
b, ex, oom, out = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("ref", "tests/snapshot/summary_ref.py")
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
s = pickle.load(open(ex, "rb"))
o = pickle.load(open(oom, "rb"))
def dump(name, snap, proto):
    with open("%s/%s.pickle" % (out, name), "wb") as f:
        pickle.dump(snap, f, protocol=proto)
# a ring buffer that dropped its first 700 entries: blocks live before the trace
v = copy.deepcopy(s); v["device_traces"][0] = v["device_traces"][0][700:]; dump("dropped", v, 2)
# two devices: the OOM run's state as device 1, and an empty trace for device 2
v = copy.deepcopy(s)
for seg in o["segments"]:
    seg = copy.deepcopy(seg); seg["device"] = 1; v["segments"].append(seg)
v["device_traces"] = [v["device_traces"][0], o["device_traces"][0], []]; dump("devices", v, 5)
# PyTorch 2.0: blocks with 'history', no 'frames', no allocator_settings, no time_us
v = copy.deepcopy(s); del v["allocator_settings"]; del v["external_annotations"]
for seg in v["segments"]:
    for blk in seg["blocks"]:
        fr = blk.pop("frames"); req = blk.pop("requested_size")
        if blk["state"] != "inactive":
            blk["history"] = [{"addr": blk["address"], "real_size": req, "frames": fr}]
for e in v["device_traces"][0]:
    e.pop("time_us")
dump("legacy", v, 3)
# hostile and odd text in frames; an action this reader does not know; a second stream
v = copy.deepcopy(o)
evil = {"filename": "/home/x/\x1b[31mred\x1b[0m \u4e2d\u202eyp.py", "line": 1, "name": "f\x07\x00n\ud800"}
for e in v["device_traces"][0][300:900]:
    if e["action"] == "alloc":
        e["frames"] = [evil] + e["frames"]
        e["stream"] = 77
v["device_traces"][0].insert(5, {"action": "annotate", "addr": 0, "size": 0, "stream": 0,
                                 "time_us": 1, "user_metadata": "step 1"})
dump("hostile", v, 1)
dump("proto0", s, 0)

diff = ref.report_diff

refs = {}
for f in [ex, oom] + ["%s/%s.pickle" % (out, n) for n in
                      ("dropped", "devices", "legacy", "hostile", "proto0")]:
    c = json.loads(subprocess.run([b, "snapshot", f, "--json"], capture_output=True, text=True,
                                  check=True).stdout)
    with open(f, "rb") as fh:
        p = ref.summarize(ref.SafeUnpickler(fh).load(), 10)
    p["file"] = f
    p = json.loads(json.dumps(p))             # as the reference prints it
    assert set(c) - set(p) == {"pickle", "source"}, set(c) - set(p)
    c = {k: c[k] for k in p}
    if c != p:
        print("FAIL: %s:" % f)
        diff(c, p)
        sys.exit(1)
    refs[f.rsplit("/", 1)[-1]] = p
# every seed of the fuzz target too: both accept it with the same numbers, or both refuse it
import glob
for f in sorted(glob.glob("tests/fuzz/corpus/fuzz_pickle/*")):
    c = subprocess.run([b, "snapshot", f, "--json"], capture_output=True, text=True)
    try:
        with open(f, "rb") as fh:
            p = ref.summarize(ref.SafeUnpickler(fh).load(), 10)
        p["file"] = f
        p = json.loads(json.dumps(p))
    except Exception as e:           # the reference refuses it (any error)
        p = None
    if (c.returncode == 0) != (p is not None):
        print("FAIL: %s: vramlab %s, the reference %s" % (f, "accepts" if c.returncode == 0 else
              "refuses", "accepts" if p else "refuses"))
        sys.exit(1)
    if p is not None:
        cj = json.loads(c.stdout)
        if {k: cj[k] for k in p} != p:
            print("FAIL: %s:" % f)
            diff({k: cj[k] for k in p}, p)
            sys.exit(1)
# the reference's own command line prints the same
cli = json.loads(subprocess.run(["python3", "tests/snapshot/summary_ref.py", ex],
                                capture_output=True, text=True, check=True).stdout)
assert cli == refs[ex.rsplit("/", 1)[-1]], "summary_ref.py's output differs from its summarize()"
# the variants are what they claim to be
t = refs["dropped.pickle"]["devices"][0]["timeline"]
assert t["pre_trace_blocks"] > 0 and t["start_bytes"] > 0, t
assert [x["device"] for x in refs["devices.pickle"]["devices"]] == [0, 1]
v = refs["legacy.pickle"]
assert v["legacy_history_blocks"] > 0 and v["allocator_settings"] is None
assert v["devices"][0]["trace"]["first_time_us"] is None
v = refs["hostile.pickle"]["devices"][0]
assert v["trace"]["actions"]["other"] == 1 and v["trace"]["streams"] == 2, v["trace"]
assert any("red" in g["where"] for g in v["top_at_peak"]), v["top_at_peak"]
PY

# text: units, the numbers, no control characters from the file
out=$("$b" snapshot "$ex") || fail "text exit $?"
echo "$out" | grep -q "GiB = 2^30 B" || fail "no unit convention: $out"
echo "$out" | grep -q "recorded by PyTorch, not measured by vramlab" || fail "source not said"
echo "$out" | grep -q "reserved    2.92 GiB in 26 segments (25 large, 1 small)" || fail "reserved line"
echo "$out" | grep -q "peak        2.87 GiB live (requested bytes) after entry 972" || fail "peak line"
echo "$out" | grep -q "nanogpt/model.py:178 forward" || fail "no grouping by user frame"
"$b" snapshot "$d/hostile.pickle" > "$d/h.txt" || fail "hostile exit"
if LC_ALL=C grep -q "$(printf '\033')" "$d/h.txt" || LC_ALL=C grep -q "$(printf '\007')" "$d/h.txt"; then
    fail "control characters from the file reached the terminal"
fi
grep -q '\\x1b\[31mred' "$d/h.txt" || fail "the hostile name is not shown escaped"
# a bidi override (U+202E) would show the name reversed: it is written as \u202e, as every name is
LC_ALL=C grep -q "$(printf '\342\200\256')" "$d/h.txt" && fail "a bidi override from the file reached the terminal"
grep -q '\\u202eyp.py' "$d/h.txt" || fail "the bidi override is not shown escaped"
out=$("$b" snapshot "$oom") || fail "oom text exit"
echo "$out" | grep -q "OOM         entry 1633" || fail "no OOM line: $out"
echo "$out" | grep -q "reserved + free = 7.61 GiB" || fail "no capacity hint: $out"

# what if: the recorded options agree with the recorded run; expandable segments change it
out=$("$b" snapshot "$oom" --capacity 7792MiB --replay expandable_segments:True) || fail "replay exit $?"
echo "$out" | grep -q "SIMULATED" || fail "replay not labelled SIMULATED"
echo "$out" | grep -q "The model agrees with the recorded run under the recorded options" ||
    fail "model and recording disagree: $out"
j=$("$b" snapshot "$oom" --capacity 7792MiB --replay expandable_segments:True --json) || fail "replay --json exit $?"
printf '%s\n' "$j" | python3 -c '
import json, sys
r = json.load(sys.stdin)["replay"]
rec, mod, wif = r["columns"]
assert r["capacity_bytes"] == 7792 << 20 and not r["differences"], r
for k in ("peak_reserved_bytes", "device_allocs", "device_frees", "end_segments", "end_reserved_bytes"):
    assert rec[k] == mod[k], (k, rec, mod)
assert rec["ooms"] == 1 and mod["ooms"] == 0 and mod["recorded_ooms_that_fit"] == 0
assert wif["options"] == "expandable_segments:True" and wif["end_segments"] < mod["end_segments"]
assert wif["end_non_releasable_bytes"] < mod["end_non_releasable_bytes"]
' || fail "replay JSON"
# a budget too small for what PyTorch held: the model runs out where PyTorch did not
out=$("$b" snapshot "$ex" --capacity 2GiB) || fail "small capacity exit"
echo "$out" | grep -q "The model differs from the recorded run" || fail "no difference reported: $out"
out=$("$b" snapshot "$d/dropped.pickle" --replay max_split_size_mb:64) || fail "dropped.pickle exit $?"
echo "$out" | grep -q "live before the trace" || fail "pre-trace blocks not noted"

# bad input: clear errors, exit codes
"$b" snapshot >/dev/null 2>&1; [ $? -eq 2 ] || fail "no file accepted"
out=$("$b" snapshot --help) || fail "snapshot --help exit $?"
echo "$out" | grep -q "usage: vramlab snapshot FILE" || fail "snapshot --help"
# --capacity reads sizes as every option does (gpu_parse_size): decimal and binary units, no hex,
# and a unit that could be bits or bytes is asked about, not guessed
for c in 0x10GiB 80gb 1.3B 5TiB; do
    out=$("$b" snapshot "$ex" --capacity "$c" 2>&1); [ $? -eq 2 ] || fail "--capacity $c accepted"
    echo "$out" | grep -q "^vramlab: snapshot: --capacity: " || fail "--capacity $c: $out"
done
out=$("$b" snapshot "$ex" --capacity 80gb 2>&1)
echo "$out" | grep -qF "'80gb': bits or bytes? Write 80 GB for gigabytes or 80 Gb for gigabits" || fail "80gb: $out"
for c in 80GB 1e1GiB 16Gb; do
    "$b" snapshot "$ex" --capacity "$c" >/dev/null || fail "--capacity $c refused"
done
out=$("$b" snapshot "$ex" --replay nonsense:1 2>&1); [ $? -eq 2 ] || fail "bad conf exit"
echo "$out" | grep -q "nonsense" || fail "bad conf not named: $out"
out=$("$b" --replay expandable_segments:True snapshot "$ex" 2>&1); [ $? -eq 2 ] || fail "global --replay taken"
echo "$out" | grep -q "goes after the command" || fail "global --replay: $out"
"$b" snapshot "$ex" --frobnicate >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option accepted"
out=$("$b" snapshot "$d/nope.pickle" 2>&1); [ $? -eq 1 ] || fail "missing file exit"
echo "$out" | grep -q "nope.pickle: cannot open" || fail "missing file: $out"
head -c 5000 "$ex" > "$d/cut.pickle"
out=$("$b" snapshot "$d/cut.pickle" 2>&1); [ $? -eq 1 ] || fail "truncated file exit"
echo "$out" | grep -Eq "cut.pickle: offset [0-9]+: truncated" || fail "truncated: $out"
python3 -c 'import os, pickle, sys; pickle.dump({"segments": [], "x": os.system}, open(sys.argv[1], "wb"), protocol=4)' "$d/evil.pickle"
want=$(python3 -c '
import pickletools, sys
for op, arg, pos in pickletools.genops(open(sys.argv[1], "rb")):
    if op.name == "STACK_GLOBAL": print(pos); break' "$d/evil.pickle")
out=$("$b" snapshot "$d/evil.pickle" 2>&1); [ $? -eq 1 ] || fail "evil exit"
echo "$out" | grep -q "evil.pickle: offset $want: opcode STACK_GLOBAL is not allowed in a memory snapshot" ||
    fail "evil: $out"
python3 -c 'import pickle, sys; pickle.dump([1, 2], open(sys.argv[1], "wb"))' "$d/list.pickle"
"$b" snapshot "$d/list.pickle" 2>&1 | grep -q "not a PyTorch memory snapshot (the pickle holds a list, not a dict)" ||
    fail "a list accepted"
python3 -c 'import pickle, sys; pickle.dump({"device_traces": []}, open(sys.argv[1], "wb"))' "$d/nosegs.pickle"
"$b" snapshot "$d/nosegs.pickle" 2>&1 | grep -q "nosegs.pickle: not a PyTorch memory snapshot (no 'segments' key)" ||
    fail "no segments accepted"
echo "just text" > "$d/text.txt"
"$b" snapshot "$d/text.txt" 2>&1 | grep -q "start with byte 0x80; this file does not" || fail "text file"
exit 0
