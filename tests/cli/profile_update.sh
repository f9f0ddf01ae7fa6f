#!/bin/sh
# profile_update.sh BUILD - tests/gpu/profile_update.py turns a gpu-report's .json into the GPU's
# profile recalibrated: on a synthetic H200 report (figures made up here, the shape
# tests/gpu/report.lua writes), every number the report settles is replaced and tagged [run],
# ce/sm_source say what was measured, one source.run line names the GPU, driver and date, the
# sources no number names any more are gone, and `vramlab check` accepts the result; a number
# the report confirms keeps its old source beside [run]; a report missing a section leaves those
# numbers alone; a simulated report is refused.
build=${1:-build}
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/d/assets/gpus"
cat >"$T/report.json" <<'JSON'
{"gpu": "NVIDIA H200", "date": "2026-12-20", "steps": [], "lessons": {}, "checks": [], "bench": [],
 "figures": {"name": "NVIDIA H200", "driver": "driver 13.0 / runtime 13.0 (kernel module 580.159.04)",
  "simulated": false, "total_bytes": 150109945856, "bus_width_bits": 6144, "mem_clock_khz": 3201000,
  "l2_bytes": 62914560, "sm_count": 132, "compute_capability": "9.0", "smi_before_memory_total": 143771,
  "pcie_gen": 5, "pcie_width": 16, "pcie_source": "nvml", "context_bytes": 536870912,
  "peak_bytes_per_s": 4917.1e9,
  "d2d_ce_rw_bytes_per_s": 4.31e12, "d2d_ce_bytes_per_s": 2.155e12, "d2d_ce_median_bytes_per_s": 2.15e12,
  "d2d_sm_rw_bytes_per_s": 4.35e12, "d2d_sm_bytes_per_s": 2.175e12, "d2d_sm_median_bytes_per_s": 2.17e12,
  "d2d_ce_overlaps_sm_kernel": true,
  "d2d_ce_16mib_rw_bytes_per_s": 5.9e12, "d2d_ce_16mib_l2_resident": true,
  "d2d_sm_16mib_rw_bytes_per_s": 6.5e12, "d2d_sm_16mib_l2_resident": true,
  "h2d_pinned_bytes_per_s": 53.6e9, "h2d_pinned_median_bytes_per_s": 53.4e9,
  "d2h_pinned_bytes_per_s": 54.0e9, "d2h_pinned_median_bytes_per_s": 53.9e9,
  "h2d_pageable_bytes_per_s": 19.0e9, "d2h_pageable_bytes_per_s": 16.0e9,
  "small_d2d_ce_held_us": 2.1, "small_d2d_sm_held_us": 1.9, "small_h2d_pinned_held_us": 2.5,
  "small_d2h_pinned_held_us": 2.7, "small_d2d_ce_single_us": 9.5,
  "stream_triad_bytes_per_s": 4.3e12, "stream_triad_median_bytes_per_s": 4.28e12,
  "plateau_1": "L1 4096 131072 21.30", "plateau_2": "L2-near 262144 16777216 180.40",
  "plateau_3": "L2-far 33554432 67108864 260.60", "plateau_4": "DRAM 134217728 1073741824 612.00",
  "feed_async_engines": 3, "feed_pin_pinned_alloc_s_per_gib": 0.3125, "feed_pin_registered_alloc_s_per_gib": 0.0875,
  "feed_copy_bytes": 67108864, "feed_h2d_pinned_seconds": 0.00125, "feed_mapped_read_seconds": 0.0015,
  "feed_um_bytes": 536870912, "feed_um_first_seconds": 0.05, "feed_um_prefetch_seconds": 0.0125}}
JSON
cp assets/gpus/h200.txt "$T/d/assets/gpus/h200.txt"
python3 tests/gpu/profile_update.py "$T/report.json" assets/gpus/h200.txt -o "$T/d/assets/gpus/h200.txt" 2>"$T/changes" ||
    fail "profile_update.py: $(cat "$T/changes")"
p="$T/d/assets/gpus/h200.txt"
"$build/vramlab" check "$p" >"$T/check" 2>&1 || fail "vramlab check refuses the recalibrated profile: $(cat "$T/check")"
want() { grep -Eq -- "$1" "$p" || fail "the profile lacks /$1/: $(grep -E "^${1%%[ =]*}" "$p")"; }
want '^ce_efficiency = 0\.88$'               # 4.31 / 4.9171 TB/s
want '^sm_efficiency = 0\.88$'
want '^ce_source = measured: 1 GiB D2D cudaMemcpyAsync 4310 GB/s counted 2n = 0\.88 .*a copy engine'
want '^context_bytes = 536870912 +\[run\]$'
want '^copy_overhead_us = 2\.30 +\[run\]$'   # median of 1.9, 2.1, 2.5, 2.7
want '^pcie_efficiency = 0\.85 +\[run\]$'     # 53.8 of 63.0 GB/s (gen5 x16 after encoding)
want '^pageable_factor = 0\.33 +\[run\]$'
want '^l1_ns = 21 +\[run\]$'
want '^l2_ns = 220 +\[run\]$'                # near and far: their mean
want '^dram_ns = 612 +\[run\]$'
want '^l2_speedup = 2\.50 +\[run\]$' # 16 MiB in L2, 2.3 us off: 2.3x and 2.7x the DRAM rate
want '^noise = 0\.0[0-9]+ +\[run\]$'
want '^async_engines = 3 +\[engines, run\]$'  # confirmed: the assumption's source stays beside it
want '^pin_alloc_s_per_gib = 0\.312 +\[run\]$'  # not confirmed: the reports' source goes
want '^pin_register_s_per_gib = 0\.0875 +\[run\]$'
! grep -q '^source\.pin ' "$p" || fail "source.pin stays though no number names it"
want '^zerocopy_efficiency = 0\.83 +\[run\]$'     # 64 MiB in 1.5 ms over the same in 1.25 ms
want '^um_fault_efficiency = 0\.20 +\[run\]$'     # 512 MiB in 50 ms over 53.7 GB/s
want '^um_prefetch_efficiency = 0\.80 +\[run\]$'
want '^um_evict_efficiency = 0\.5 +\[evict, um\]$' # no figure: it stays
want '^total_bytes = 150109945856 +\[cuda, run\]$' # confirmed: its source stays
want '^smi_total_mib = 143771 +\[smi, run\]$'
want '^source\.run = vramlab make gpu-report on NVIDIA H200 \(driver 13\.0 .*580\.159\.04\)\), 2026-12-20$'
# the model's guesses the run replaced name the model no more; source.model stays while a
# number the report does not measure (the feeding model's, say) still names it, and goes when none does
grep -E '^(context_bytes|l2_speedup|pcie_efficiency|pageable_factor|copy_overhead_us|l1_ns|l2_ns|dram_ns|noise) .*model' "$p" &&
    fail "a measured number still names the model"
if grep -q '^source\.model' "$p"; then
    grep -Eq '^[a-z0-9_]+ *= .*\[(.*, )?model(, .*)?\]$' "$p" || fail "source.model stays though no number names it"
else
    ! grep -Eq '\[(.*, )?model(, .*)?\]$' "$p" || fail "source.model dropped while a number names it"
fi
grep -q 'ce_efficiency: 0.5 -> 0.88' "$T/changes" || fail "changes not said: $(cat "$T/changes")"

# a report without the latency section: the latencies and their source stay
python3 - "$T/report.json" "$T/partial.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["figures"] = {k: v for k, v in d["figures"].items() if not k.startswith("plateau_")}
json.dump(d, open(sys.argv[2], "w"))
PY
mkdir -p "$T/e/assets/gpus"
python3 tests/gpu/profile_update.py "$T/partial.json" assets/gpus/h200.txt >"$T/e/assets/gpus/h200.txt" 2>/dev/null ||
    fail "a partial report"
grep -q '^l1_ns = 22 .*\[model\]$' "$T/e/assets/gpus/h200.txt" || fail "an unmeasured latency changed: $(grep '^l1_ns' "$T/e/assets/gpus/h200.txt")"
grep -q '^source\.model' "$T/e/assets/gpus/h200.txt" || fail "source.model dropped while l1_ns names it"
"$build/vramlab" check "$T/e/assets/gpus/h200.txt" >"$T/check" 2>&1 || fail "check: $(cat "$T/check")"

# a simulated report is refused
sed 's/"simulated": false/"simulated": true/' "$T/report.json" >"$T/sim.json"
python3 tests/gpu/profile_update.py "$T/sim.json" assets/gpus/h200.txt >/dev/null 2>"$T/err" && fail "a simulated report was used"
grep -q "simulated report" "$T/err" || fail "no reason: $(cat "$T/err")"
echo "ok: a report recalibrates the h200 profile, check accepts it; partial and simulated reports handled"
