#!/bin/sh
# recordings.sh BUILD - the recordings shipped in assets/recordings (offered by the tutor on a
# machine without a GPU) are real GPU measurements: each file is a vramlab recording whose header
# says backend cuda and simulated false. A simulated recording must never ship as a real one.
build=${1:-build}
fail() { echo "FAIL: $*"; exit 1; }
n=0
for f in assets/recordings/*.jsonl; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    h=$(head -n 1 "$f")
    echo "$h" | grep -q '"format":"vramlab-record"' || fail "$f: not a vramlab recording"
    echo "$h" | grep -q '"backend":"cuda"' || fail "$f: not recorded on the cuda backend"
    echo "$h" | grep -q '"simulated":false' || fail "$f: a SIMULATED recording in assets/recordings"
    "$build/vramlab" results "$f" >/dev/null || fail "$f: vramlab results cannot read it"
done
echo "ok: $n shipped recording(s), all of real GPUs"
