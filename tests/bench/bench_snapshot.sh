#!/bin/sh
# bench_snapshot.sh BUILD - reading a PyTorch memory snapshot of 1,000,000 trace entries
# (tests/snapshot/make_example.py --events 1000000, written once into BUILD) with vramlab's
# reader, summary and replay, against Python's own pickle.load of the same file measured in
# the same run (best of 3 each; wall-clock and CPU time: on a shared machine the CPU time is
# what one core spent). The entries Python read are passed on: the reader must read as many.
# Then the peak memory of both on a 4,000,000-entry snapshot (goal: vramlab at most half).
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
"$build/tests/bench_snapshot" "$f" 3 $py || exit 1

# Peak memory on a 4,000,000-entry snapshot (written once into BUILD): vramlab snapshot --json
# against Python's pickle.load of the same file, each the peak resident size of its own
# process (wait4's ru_maxrss: the mapped file's pages count while they are resident).
f4="$build/snap-4m.pickle"
if [ ! -f "$f4" ] || [ tests/snapshot/make_example.py -nt "$f4" ]; then
    echo "# writing $f4 (4,000,000 trace entries, once)"
    python3 tests/snapshot/make_example.py --events 4000000 -o "$f4" || exit 1
fi
python3 - "$build/vramlab" "$f4" <<'PY' || exit 1
import os, subprocess, sys
def peak(cmd):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit("bench_snapshot: %s failed (%d)" % (" ".join(cmd), status))
    return ru.ru_maxrss / 1024.0, ru.ru_utime + ru.ru_stime
vb, f = sys.argv[1], sys.argv[2]
v, vc = peak([vb, "snapshot", f, "--json"])
p, pc = peak([sys.executable, "-c", "import pickle, sys; pickle.load(open(sys.argv[1], 'rb'))", f])
r = v / p
print("snapshot      4M entries (%.0f MB): peak RSS vramlab snapshot --json %.0f MiB (%.1f s CPU), "
      "Python pickle.load alone %.0f MiB (%.1f s CPU): %.2fx (goal <= 0.5: %s)"
      % (os.path.getsize(f) / 1e6, v, vc, p, pc, r, "met" if r <= 0.5 else "MISSED"))
PY
