#!/bin/sh
# bench_snapshot.sh BUILD - reading a PyTorch memory snapshot of 1,000,000 trace entries
# (tests/snapshot/make_example.py --events 1000000, written once into BUILD) with vramlab's
# reader, summary and replay, against Python's own pickle.load of the same file measured in
# the same run (best of 3 each; wall-clock and CPU time: on a shared machine the CPU time is
# what one core spent). The entries Python read are passed on: the reader must read as many.
build=${1:-build}
f="$build/snap-1m.pickle"
command -v python3 >/dev/null 2>&1 || { echo "# python3 not installed: snapshot benchmark skipped"; exit 0; }
if [ ! -f "$f" ] || [ tests/snapshot/make_example.py -nt "$f" ]; then
    echo "# writing $f (1,000,000 trace entries, once)"
    python3 tests/snapshot/make_example.py --events 1000000 -o "$f" || exit 1
fi
py=$(python3 - "$f" <<'PY'
import pickle, sys, time
wall = cpu = 1e9
for _ in range(3):
    t, c = time.perf_counter(), time.process_time()
    with open(sys.argv[1], "rb") as fh:
        d = pickle.load(fh)
    wall, cpu = min(wall, time.perf_counter() - t), min(cpu, time.process_time() - c)
# the entries of the first device's trace: the reader must find as many
print("%.6f %.6f %d" % (wall, cpu, len(d["device_traces"][0])))
PY
) || exit 1
echo "# bench_snapshot: parse + model + summary of a PyTorch memory snapshot, best of 3, one thread"
"$build/tests/bench_snapshot" "$f" 3 $py
