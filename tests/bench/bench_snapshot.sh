#!/bin/sh
# bench_snapshot.sh BUILD - reading a PyTorch memory snapshot of 1,000,000 trace entries
# (tests/snapshot/make_example.py --events 1000000, written once into BUILD) with vramlab's
# reader, summary and replay, against Python's own pickle.load of the same file measured in
# the same run (best of 3 each).
build=${1:-build}
f="$build/snap-1m.pickle"
command -v python3 >/dev/null 2>&1 || { echo "# python3 not installed: snapshot benchmark skipped"; exit 0; }
if [ ! -f "$f" ] || [ tests/snapshot/make_example.py -nt "$f" ]; then
    echo "# writing $f (1,000,000 trace entries, once)"
    python3 tests/snapshot/make_example.py --events 1000000 -o "$f" || exit 1
fi
py=$(python3 - "$f" <<'PY'
import pickle, sys, time
best = 1e9
for _ in range(3):
    t = time.perf_counter()
    with open(sys.argv[1], "rb") as fh:
        pickle.load(fh)
    best = min(best, time.perf_counter() - t)
print("%.6f" % best)
PY
) || exit 1
echo "# bench_snapshot: parse + model + summary of a PyTorch memory snapshot, best of 3, one core"
"$build/tests/bench_snapshot" "$f" 3 "$py"
