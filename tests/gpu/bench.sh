#!/bin/sh
# bench.sh BUILD - GPU benchmarks (needs an NVIDIA GPU; well under 5 minutes): vramlab against a
# bandwidthTest-style reference compiled here, measured in the same run.
#   D2D cudaMemcpy vs reference          goal >= 0.95
#   SM copy kernel vs theoretical peak   goal >= 0.85 (counted 2n: H200 >= 4.08 TB/s)
#   pinned H2D / D2H vs reference        goal >= 0.95
build=${1:-build}
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no NVIDIA GPU present"; exit 0; }
nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$build/vramlab" --backend cuda eval tests/gpu/bench.lua > "$tmp/ours" || { echo "FAIL: vramlab bench"; exit 1; }
if [ -n "$nvcc" ]; then
    "$nvcc" -O2 -o "$tmp/ref" tests/gpu/ref_bandwidth.cu && "$tmp/ref" > "$tmp/ref.txt" || { echo "FAIL: reference"; exit 1; }
else
    echo "# nvcc not found: no reference program; ratios against the reference are skipped"; : > "$tmp/ref.txt"
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/# GPU: /'
awk 'FNR == NR { ref[$1] = $2; next } { ours[$1] = $2 }
END {
    peak = ours["peak_bytes_per_s"]
    printf "gpu D2D cudaMemcpy (2n/t)  %9.1f GB/s vs reference %9.1f GB/s  ratio %.3f  (goal >= 0.95)\n", ours["d2d_rw_bytes_per_s"]/1e9, ref["d2d_rw_bytes_per_s"]/1e9, (ref["d2d_rw_bytes_per_s"] ? ours["d2d_rw_bytes_per_s"]/ref["d2d_rw_bytes_per_s"] : 0)
    printf "gpu SM copy kernel (2n/t)  %9.1f GB/s vs peak      %9.1f GB/s  ratio %.3f  (goal >= 0.85)\n", ours["sm_rw_bytes_per_s"]/1e9, peak/1e9, (peak ? ours["sm_rw_bytes_per_s"]/peak : 0)
    printf "gpu pinned H2D (n/t)       %9.2f GB/s vs reference %9.2f GB/s  ratio %.3f  (goal >= 0.95)\n", ours["h2d_bytes_per_s"]/1e9, ref["h2d_bytes_per_s"]/1e9, (ref["h2d_bytes_per_s"] ? ours["h2d_bytes_per_s"]/ref["h2d_bytes_per_s"] : 0)
    printf "gpu pinned D2H (n/t)       %9.2f GB/s vs reference %9.2f GB/s  ratio %.3f  (goal >= 0.95)\n", ours["d2h_bytes_per_s"]/1e9, ref["d2h_bytes_per_s"]/1e9, (ref["d2h_bytes_per_s"] ? ours["d2h_bytes_per_s"]/ref["d2h_bytes_per_s"] : 0)
    printf "gpu STREAM triad (24 B/el) %9.1f GB/s vs peak      %9.1f GB/s  ratio %.3f  (information)\n", ours["triad_bytes_per_s"]/1e9, peak/1e9, (peak ? ours["triad_bytes_per_s"]/peak : 0)
}' "$tmp/ref.txt" "$tmp/ours"
