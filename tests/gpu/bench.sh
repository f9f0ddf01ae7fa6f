#!/bin/sh
# bench.sh BUILD - GPU benchmarks (needs an NVIDIA GPU; well under 5 minutes): vramlab against a
# bandwidthTest-style reference (tests/gpu/ref_bandwidth.cu, built by make gpu-tests), measured
# in the same run, and the SM copy kernel and STREAM against the two peaks:
#   D2D cudaMemcpy (copy engine) vs reference   goal >= 0.95 (its share of the DRAM peak is
#                                               printed, not judged: see docs/benchmarks.md)
#   SM copy kernel vs published figure          goal >= 0.90 (counted 2n; the profile of this
#                                               GPU's name; H200: >= 4.32 TB/s)
#   pinned H2D / D2H vs reference               goal >= 0.95
#   STREAM copy/scale/add/triad/dot             information: % of the attribute peak and of the
#                                               published figure
# The attribute peak is 2 x cudaDevAttrMemoryClockRate x bus width / 8, as the driver reports them;
# the published figure is the vendor's spec sheet. Both are printed, so a driver that misreports
# its clock or bus shows.
build=${1:-build}
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no NVIDIA GPU present"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
make --no-print-directory BUILD="$build" gpu-tests >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; echo "FAIL: make gpu-tests"; exit 1; }
# host buffers next to the GPU, for the reference as vramlab does for itself
numa=""
node=$("$build/vramlab" --backend cuda info --json 2>/dev/null | sed -n 's/.*"numa_node":\([0-9][0-9]*\).*/\1/p')
[ -n "$node" ] && command -v numactl >/dev/null 2>&1 && numa="numactl --cpunodebind=$node --preferred=$node"
"$build/vramlab" --backend cuda eval tests/gpu/bench.lua > "$tmp/ours" || { echo "FAIL: vramlab bench"; exit 1; }
$numa "$build/tests/ref_bandwidth" > "$tmp/ref.txt" || { echo "FAIL: reference"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv,noheader | sed 's/^/# GPU: /'
awk 'FNR == NR { ref[$1] = $2; next } { ours[$1] = $2 }
function ratio(a, b) { return b ? a / b : 0 }
END {
    peak = ours["peak_bytes_per_s"]; pub = ours["published_bytes_per_s"]; goal = pub ? pub : peak
    printf "gpu D2D cudaMemcpy (2n/t)  %9.1f GB/s vs reference %9.1f GB/s  ratio %.3f  (goal >= 0.95; %.1f %% of the attribute peak)\n", ours["d2d_rw_bytes_per_s"]/1e9, ref["d2d_rw_bytes_per_s"]/1e9, ratio(ours["d2d_rw_bytes_per_s"], ref["d2d_rw_bytes_per_s"]), 100 * ratio(ours["d2d_rw_bytes_per_s"], peak)
    printf "gpu SM copy kernel (2n/t)  %9.1f GB/s vs %s %9.1f GB/s  ratio %.3f  (goal >= 0.90; vs attribute peak %.3f)\n", ours["sm_rw_bytes_per_s"]/1e9, pub ? "published" : "attribute", goal/1e9, ratio(ours["sm_rw_bytes_per_s"], goal), ratio(ours["sm_rw_bytes_per_s"], peak)
    printf "gpu pinned H2D (n/t)       %9.2f GB/s vs reference %9.2f GB/s  ratio %.3f  (goal >= 0.95)\n", ours["h2d_bytes_per_s"]/1e9, ref["h2d_bytes_per_s"]/1e9, ratio(ours["h2d_bytes_per_s"], ref["h2d_bytes_per_s"])
    printf "gpu pinned D2H (n/t)       %9.2f GB/s vs reference %9.2f GB/s  ratio %.3f  (goal >= 0.95)\n", ours["d2h_bytes_per_s"]/1e9, ref["d2h_bytes_per_s"]/1e9, ratio(ours["d2h_bytes_per_s"], ref["d2h_bytes_per_s"])
    split("copy scale add triad dot", k, " ")
    for (i = 1; i <= 5; i++)
        printf "gpu STREAM %-5s           %9.1f GB/s = %.3f of the attribute peak, %.3f of the published figure  (information)\n", k[i], ours[k[i] "_bytes_per_s"]/1e9, ratio(ours[k[i] "_bytes_per_s"], peak), ratio(ours[k[i] "_bytes_per_s"], pub)
}' "$tmp/ref.txt" "$tmp/ours"
