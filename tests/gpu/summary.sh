#!/bin/sh
# summary.sh LOG BASE GPU DATE - the summary of a gpu-report (tests/gpu/report.sh): BASE.md and
# BASE.json from LOG/figures.log (tests/gpu/report.lua's "key<TAB>value" lines), LOG/steps.tsv and
# the other steps' logs. Separate so that its rendering is tested without a GPU
# (tests/cli/gpu_report.sh); a summary of simulated figures says SIMULATED at the top.
log=$1 base=$2 gpu=$3 date=$4
awk -F'\t' -v gpu="$gpu" -v date="$date" -v steps="$log/steps.tsv" -v smi_before="$log/smi-before.log" \
    -v smi_after="$log/smi-after.log" -v testgpu="$log/test-gpu.log" -v bench="$log/bench.log" \
    -v ledger="$log/ledger.log" -v md="$base.md" -v js="$base.json" '
function num(k) { return (k in f) ? f[k] + 0 : 0 }
function pct(v, d) { return d > 0 && v > 0 ? sprintf("%.1f %%", 100 * v / d) : "n/a" }
function gbs(v) { return v > 0 ? sprintf("%.1f", v / 1e9) : "n/a" }
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
function row(label, key, counted,    v) {
    if ((key "_error") in f) { printf "| %s | | failed: %s | | | | |\n", label, f[key "_error"] > md; return }
    v = num(key (counted == "2n" ? "_rw_bytes_per_s" : "_bytes_per_s"))
    printf "| %s | %.0f MiB | %s | %s | %s | %s | %s |\n", label, num(key "_bytes") / 1048576, gbs(v),
        counted, pct(v, peak), pct(v, pub), f[key "_validated"] == "true" ? "yes" : "NO" > md
}
function verbatim(file, title,    line, any) {
    printf "\n## %s\n\n```\n", title > md
    while ((getline line < file) > 0) { print line > md; any = 1 }
    if (!any) print "(no output)" > md
    printf "```\n" > md
    close(file)
}
NF >= 2 && $1 ~ /^[a-z0-9_]+$/ { if (!($1 in f)) keys[++n] = $1; f[$1] = $2 }
END {
    peak = num("peak_bytes_per_s"); pub = num("published_bytes_per_s")
    printf "# vramlab GPU report: %s, %s\n\n", gpu, date > md
    if (f["simulated"] == "true")
        printf "**SIMULATED: these figures come from the simulator, not from a GPU. Never publish them as measurements.**\n\n" > md
    printf "Made by `make gpu-report`. GB/s = 1e9 B/s. D2D copies are counted read + written (2n/t), host copies n/t, STREAM by its own rule (copy, scale and dot 16 bytes per element, add and triad 24). Percentages are given against both denominators: the **attribute peak**, 2 x cudaDevAttrMemoryClockRate x bus width / 8 as the driver reports them (%s GB/s), and the **published figure** from the vendor spec sheet (%s GB/s, profile %s). Every figure was validated after its timed trials; a failed check is reported as a failure, not as a figure.\n\n", gbs(peak), gbs(pub), f["published_profile"] != "" ? f["published_profile"] : "none" > md
    printf "| | |\n|---|---|\n" > md
    printf "| device | %s: device %s, compute capability %s, %s SMs, L2 %.0f MiB, L1 + shared %.0f KiB per SM, MIG %s, NUMA node %s |\n", f["name"], f["device"], f["compute_capability"], f["sm_count"], num("l2_bytes") / 1048576, num("l1_bytes") / 1024, f["mig"], f["numa_node"] != "" ? f["numa_node"] : "unknown" > md
    printf "| driver | %s |\n| memory | %.1f GiB (GiB = 2^30 B), %s-bit bus at %.0f MHz as reported |\n\n", f["driver"], num("total_bytes") / 1073741824, f["bus_width_bits"], num("mem_clock_khz") / 1000 > md
    printf "## Steps\n\n| step | status | seconds |\n|---|---|---|\n" > md
    while ((getline line < steps) > 0) { split(line, s, "\t"); printf "| %s | %s | %s |\n", s[1], s[2], s[3] > md; st[++ns] = line }
    close(steps)
    printf "\n## Bandwidth\n\n| path | size | GB/s | counted | %% of attribute peak | %% of published | validated |\n|---|---|---|---|---|---|---|\n" > md
    row("D2D copy engine (cudaMemcpy)", "d2d_ce", "2n"); row("D2D SM copy kernel", "d2d_sm", "2n")
    row("H2D pinned", "h2d_pinned", "n"); row("H2D pageable", "h2d_pageable", "n")
    row("D2H pinned", "d2h_pinned", "n"); row("D2H pageable", "d2h_pageable", "n")
    split("copy scale add triad dot", K, " ")
    for (i = 1; i <= 5; i++) row("STREAM " K[i], "stream_" K[i], "STREAM")
    for (j = 1; j <= n; j++) if (keys[j] ~ /_warnings$/) printf "\n- %s: %s\n", keys[j], f[keys[j]] > md
    printf "\n## Latency ladder\n\nOne chase per SM (nanoseconds from %%globaltimer, cycles from clock64 on the chasing SM); min, median and max across the SMs.\n\n| working set | min ns | median ns | max ns | cycles/load | SM MHz | SMs |\n|---|---|---|---|---|---|---|\n" > md
    for (j = 1; j <= n; j++) if (keys[j] ~ /^lat_/) { split(f[keys[j]], L, " "); printf "| %.0f KiB | %s | %s | %s | %s | %s | %s |\n", L[1] / 1024, L[2], L[3], L[4], L[5], L[6], L[7] > md }
    printf "\nPlateaus, named by size against the L1 and L2 of the device (beyond the L2: DRAM):\n\n" > md
    for (j = 1; j <= n; j++) if (keys[j] ~ /^plateau_/) { split(f[keys[j]], P, " "); printf "- %s: %.0f KiB to %.0f KiB, %s ns\n", P[1], P[2] / 1024, P[3] / 1024, P[4] > md }
    if ("latency_error" in f) printf "- the ladder failed: %s\n", f["latency_error"] > md
    printf "\n## cudaMalloc / cudaFree (4 MiB, 100 calls, host clock around each call)\n\n" > md
    if ("malloc_error" in f) printf "failed: %s\n", f["malloc_error"] > md
    else if (num("malloc_median_seconds") > 0) printf "cudaMalloc: first %.1f us, median %.1f us. cudaFree: first %.1f us, median %.1f us.\n", num("malloc_first_seconds") * 1e6, num("malloc_median_seconds") * 1e6, num("free_first_seconds") * 1e6, num("free_median_seconds") * 1e6 > md
    else printf "not timed (no device calls were timed)\n" > md
    verbatim(testgpu, "make test-gpu"); verbatim(bench, "GPU benchmarks (ratios against the reference)")
    verbatim(ledger, "Ledger"); verbatim(smi_before, "nvidia-smi before (clocks, throttle reasons)")
    verbatim(smi_after, "nvidia-smi after")
    printf "{\"gpu\":%s,\"date\":%s,\"steps\":[", jstr(gpu), jstr(date) > js
    for (j = 1; j <= ns; j++) { split(st[j], s, "\t"); printf "%s{\"step\":%s,\"status\":%s,\"seconds\":%d}", (j > 1 ? "," : ""), jstr(s[1]), jstr(s[2]), s[3] > js }
    printf "],\"figures\":{" > js
    for (j = 1; j <= n; j++) {
        v = f[keys[j]]
        printf "%s%s:%s", (j > 1 ? "," : ""), jstr(keys[j]), (v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || v == "true" || v == "false") ? v : jstr(v) > js
    }
    printf "}}\n" > js
}' "$log/figures.log"
