#!/bin/sh
# summary.sh LOG BASE GPU DATE - the summary of a gpu-report (tests/gpu/report.sh): BASE.md, short
# enough to read in a terminal's scroll-back (the step logs are in the tarball), and BASE.json
# with every figure of LOG/figures.tsv ("key<TAB>value": tests/gpu/report.lua's, the reference's
# as ref_*, nvidia-smi's as smi_*, the preflight's and the run's own), every step of
# LOG/steps.tsv, the lessons asked for and recorded, the checks' results (LOG/test-gpu.log) and
# the benchmark ratios (LOG/bench.log). Separate so that its rendering is tested without a GPU
# (tests/cli/gpu_report.sh); a summary of simulated figures says SIMULATED at the top.
log=$1 base=$2 gpu=$3 date=$4
awk -F'\t' -v gpu="$gpu" -v date="$date" -v steps="$log/steps.tsv" -v testgpu="$log/test-gpu.log" \
    -v bench="$log/bench.log" -v md="$base.md" -v js="$base.json" '
function has(k) { return (k in f) && f[k] != "" }
function num(k) { return (k in f) ? f[k] + 0 : 0 }
function pct(v, d) { return d > 0 && v > 0 ? sprintf("%.1f %%", 100 * v / d) : "n/a" }
function gbs(v) { return v > 0 ? sprintf("%.1f", v / 1e9) : "n/a" }
function mhz(k) { return has(k) ? sprintf("%.0f", num(k)) : "-" }
function val(k) { return has(k) ? f[k] : "?" }
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }
function jval(v) { return (v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || v == "true" || v == "false") ? v : jstr(v) }
function jlist(s,    n, a, i, o) { n = split(s, a, " "); o = "["; for (i = 1; i <= n; i++) o = o (i > 1 ? "," : "") jstr(a[i]); return o "]" }
function err(k) { return has(k "_error") ? "failed: " f[k "_error"] : "" }
function row(label, key, counted,    v, e) {
    e = err(key)
    if (e != "") { printf "| %s | | %s | | | | | | | |\n", label, e > md; return }
    if (!has(key "_bytes_per_s")) { printf "| %s | not measured | | | | | | | | |\n", label > md; return }
    v = num(key (counted == "2n" ? "_rw_bytes_per_s" : "_bytes_per_s"))
    m = num(key "_median_bytes_per_s") * (counted == "2n" ? 2 : 1)
    printf "| %s | %.0f MiB | %s | %s | %s | %s | %s | %s x %s | %s / %s | %s |\n", label,
        num(key "_bytes") / 1048576, gbs(v), gbs(m), counted, pct(v, peak), pct(v, pub),
        has(key "_reps") ? f[key "_reps"] : "-", has(key "_samples") ? f[key "_samples"] : "-",
        mhz(key "_run_sm_mhz"), mhz(key "_run_mem_mhz"), f[key "_validated"] == "true" ? "yes" : "NO" > md
}
NF >= 2 && $1 ~ /^[a-z][a-z0-9_]*$/ { if (!($1 in f)) keys[++n] = $1; f[$1] = $2 }
END {
    peak = num("peak_bytes_per_s"); pub = num("published_bytes_per_s")
    while ((getline line < steps) > 0) { st[++ns] = line; split(line, s, "\t"); if (s[2] != "ok" && s[2] !~ /^skipped: GPU_REPORT_PREBUILT/) bad++ }
    close(steps)
    printf "# vramlab GPU report: %s, %s\n\n", gpu, date > md
    if (f["simulated"] == "true" || f["report_simulated"] == "true")
        printf "**SIMULATED: these figures come from the simulator, not from a GPU. Never publish them as measurements.**\n\n" > md
    if (f["report_stopped"] != "" && f["report_stopped"] != "no")
        printf "**Stopped (%s) after %s s: the figures below are what was measured until then.**\n\n", f["report_stopped"], f["report_seconds"] > md
    printf "Made by `make gpu-report` in %s s (deadline %s s). GB/s = 1e9 B/s; MiB = 2^20 B. D2D copies are counted read + written (2n/t), host copies n/t, STREAM by its own rule (copy, scale, dot 16 B per element, add, triad 24). Best of the trials, median beside it; \"reps x trials\": copies per timed trial x trials. Shares of the **attribute peak** (2 x cudaDevAttrMemoryClockRate x bus width / 8: %s GB/s) and of the **published figure** (%s GB/s, profile %s). Every bandwidth figure was validated after its trials. The step logs, the dmon log and a recalibrated profile are in the logs tarball.\n\n", f["report_seconds"], f["report_deadline_seconds"], gbs(peak), gbs(pub), has("published_profile") ? f["published_profile"] : "none" > md

    printf "| device | |\n|---|---|\n" > md
    printf "| GPU | %s: device %s, compute capability %s, %s SMs, L2 %.0f MiB, L1 + shared %.0f KiB per SM, MIG %s, NUMA node %s |\n", f["name"], f["device"], f["compute_capability"], f["sm_count"], num("l2_bytes") / 1048576, num("l1_bytes") / 1024, f["mig"], has("numa_node") ? f["numa_node"] : "unknown" > md
    printf "| driver | %s; persistence mode %s |\n", f["driver"], has("smi_before_persistence_mode") ? f["smi_before_persistence_mode"] : "unknown" > md
    printf "| memory | CUDA total %.0f MiB; nvidia-smi total %s MiB, reserved %s MiB; NVML total %.0f MiB, reserved %.0f MiB; context %.0f MiB; %s-bit bus at %.0f MHz |\n", num("total_bytes") / 1048576, has("smi_before_memory_total") ? f["smi_before_memory_total"] : "?", has("smi_before_memory_reserved") ? f["smi_before_memory_reserved"] : "?", num("nvml_total_bytes") / 1048576, num("nvml_reserved_bytes") / 1048576, num("context_bytes") / 1048576, f["bus_width_bits"], num("mem_clock_khz") / 1000 > md
    printf "| PCIe | gen %s x%s maximum (from %s), gen %s x%s when vramlab opened it; nvidia-smi after the copies: maximum gen %s x%s, now gen %s x%s |\n", val("pcie_gen"), val("pcie_width"), val("pcie_source"), val("pcie_gen_current"), val("pcie_width_current"), val("smi_loaded_pcie_link_gen_max"), val("smi_loaded_pcie_link_width_max"), val("smi_loaded_pcie_link_gen_gpucurrent"), val("smi_loaded_pcie_link_width_current") > md
    printf "| clocks | SM maximum %s MHz (attribute); idle SM %s / memory %s MHz (NVML); after the copies SM %s / memory %s MHz (nvidia-smi; reasons held down %s); first start of vramlab %s s |\n\n", has("sm_clock_mhz") ? sprintf("%.0f", num("sm_clock_mhz")) : "?", mhz("clocks_idle_sm_mhz"), mhz("clocks_idle_mem_mhz"), mhz("smi_loaded_clocks_sm"), mhz("smi_loaded_clocks_mem"), has("smi_loaded_clocks_event_reasons_active") ? f["smi_loaded_clocks_event_reasons_active"] : val("smi_loaded_clocks_throttle_reasons_active"), val("first_start_seconds") > md

    printf "## Steps\n\n| step | status | seconds |\n|---|---|---|\n" > md
    for (j = 1; j <= ns; j++) { split(st[j], s, "\t"); printf "| %s | %s | %s |\n", s[1], s[2], s[3] > md }

    printf "\n## Bandwidth\n\n| path | size | GB/s | median | counted | %% of attribute peak | %% of published | reps x trials | SM / mem MHz during | validated |\n|---|---|---|---|---|---|---|---|---|---|\n" > md
    row("D2D copy engine (cudaMemcpyAsync)", "d2d_ce", "2n"); row("D2D SM copy kernel", "d2d_sm", "2n")
    row("H2D pinned", "h2d_pinned", "n"); row("D2H pinned", "d2h_pinned", "n")
    row("H2D pageable", "h2d_pageable", "n"); row("D2H pageable", "d2h_pageable", "n")
    split("copy scale add triad dot", K, " ")
    for (i = 1; i <= 5; i++) row("STREAM " K[i], "stream_" K[i], "STREAM")
    for (j = 1; j <= n; j++) if (keys[j] ~ /_warnings$/) printf "\n- %s: %s\n", keys[j], f[keys[j]] > md

    printf "\n## Does a same-device cudaMemcpyAsync need the SMs?\n\n" > md
    if (has("overlap_error")) printf "Not settled: %s\n", f["overlap_error"] > md
    else if (has("d2d_ce_overlaps_sm_kernel")) {
        v = f["d2d_ce_overlaps_sm_kernel"]
        printf "%s (`d2d_ce_overlaps_sm_kernel = %s`). A kernel held every SM (%s of %s blocks resident) for %.1f ms; a %.0f MiB copy issued %.2f ms in ended at %.2f ms (%s GB/s, 2n/t). The same copy by the SM kernel ended at %.2f ms, %s.\n", v == "true" ? "**No: a copy engine ran it** while every SM was busy" : v == "false" ? "**Yes: it waited for the SMs**" : "**Unsettled**: the control (the SM copy must wait) did not hold", v, f["overlap_resident_blocks"], f["overlap_busy_blocks"], 1e3 * num("overlap_busy_seconds"), num("overlap_bytes") / 1048576, 1e3 * num("overlap_copy_start_seconds"), 1e3 * num("overlap_copy_end_seconds"), gbs(num("overlap_copy_rw_bytes_per_s")), 1e3 * num("overlap_sm_copy_end_seconds"), f["overlap_sm_waited"] == "true" ? "after the busy kernel, as it must" : "BEFORE the busy kernel ended (the SMs were not all held)" > md
    } else printf "not measured\n" > md

    printf "\n## Copies in L2 (2n <= L2) and small copies\n\n| size | copy engine GB/s (2n) | SM kernel GB/s (2n) | in L2 |\n|---|---|---|---|\n" > md
    split("4 16", S, " ")
    for (i = 1; i <= 2; i++) printf "| %s MiB | %s | %s | %s |\n", S[i], has("d2d_ce_" S[i] "mib_error") ? "failed" : gbs(num("d2d_ce_" S[i] "mib_rw_bytes_per_s")), has("d2d_sm_" S[i] "mib_error") ? "failed" : gbs(num("d2d_sm_" S[i] "mib_rw_bytes_per_s")), f["d2d_ce_" S[i] "mib_l2_resident"] > md
    printf "\n4 KiB copies, microseconds per copy: **held** = the GPU'"'"'s time per copy in back-to-back batches (what the simulator'"'"'s copy_overhead_us models), **single** = one call issued alone and waited for, host-timed.\n\n| path | held us | single us |\n|---|---|---|\n" > md
    split("d2d_ce d2d_sm h2d_pinned d2h_pinned h2d_pageable d2h_pageable", P, " ")
    for (i = 1; i <= 6; i++) printf "| %s | %s | %s |\n", P[i], has("small_" P[i] "_held_us") ? sprintf("%.2f", num("small_" P[i] "_held_us")) : has("small_" P[i] "_held_error") ? "failed" : "-", has("small_" P[i] "_single_us") ? sprintf("%.2f", num("small_" P[i] "_single_us")) : has("small_" P[i] "_single_error") ? "n/a" : "-" > md

    printf "\n## Latency\n\nOne chase on each of 5 SMs after every SM was busy for 30 ms; ns from %%globaltimer, cycles from clock64 on the fastest SM; loads `%s`. min / median / max across the SMs.\n\n| working set | min ns | median ns | max ns | cycles | SM MHz | SMs | clock |\n|---|---|---|---|---|---|---|---|\n", has("latency_load") ? f["latency_load"] : "ld.global.ca" > md
    for (j = 1; j <= n; j++) if (keys[j] ~ /^lat_/) { split(f[keys[j]], L, " "); printf "| %.0f KiB | %s | %s | %s | %s | %s | %s | %s |\n", L[1] / 1024, L[2], L[3], L[4], L[5], L[6], L[7], L[8] > md }
    if (has("latency_error")) printf "\nthe ladder failed: %s\n", f["latency_error"] > md
    if (f["latency_low_clock"] == "true") printf "\n**WARNING: some chases ran below 90 %% of the SM clock'"'"'s maximum (%s MHz): their ns read slow; their cycles do not.**\n", f["latency_sm_clock_max_mhz"] > md
    printf "\nPlateaus, named by size against the L1 and L2:\n\n" > md
    for (j = 1; j <= n; j++) if (keys[j] ~ /^plateau_/) { split(f[keys[j]], Q, " "); printf "- %s: %.0f KiB to %.0f KiB, %s ns\n", Q[1], Q[2] / 1024, Q[3] / 1024, Q[4] > md }
    printf "\nThe generic load (what C++ compiles `p = *p` to; nvbandwidth'"'"'s chase) at three sizes:\n\n" > md
    for (j = 1; j <= n; j++) if (keys[j] ~ /^latgen_/) { split(f[keys[j]], L, " "); printf "- %.0f KiB: %s ns (median %s), %s cycles at %s MHz\n", L[1] / 1024, L[2], L[3], L[5], L[6] > md }
    if (has("latency_generic_error")) printf "- failed: %s\n", f["latency_generic_error"] > md

    printf "\n## cudaMalloc / cudaFree (host clock around each call)\n\n| size | calls | malloc first us | malloc median us | free first us | free median us |\n|---|---|---|---|---|---|\n" > md
    split("4 MiB|1 GiB|16 GiB", MN, "|")
    for (i = 1; i <= 3; i++) {
        k = i == 1 ? "" : (i == 2 ? "_1gib" : "_16gib"); e = i == 1 ? "malloc_4mib" : "malloc" k
        if (has(e "_error")) { printf "| %s | failed: %s | | | | |\n", MN[i], f[e "_error"] > md; continue }
        printf "| %s | %s | %s | %s | %s | %s |\n", MN[i], has("malloc" k "_calls") ? f["malloc" k "_calls"] : "-", has("malloc" k "_first_seconds") ? sprintf("%.1f", 1e6 * num("malloc" k "_first_seconds")) : "-", has("malloc" k "_median_seconds") ? sprintf("%.1f", 1e6 * num("malloc" k "_median_seconds")) : "-", has("free" k "_first_seconds") ? sprintf("%.1f", 1e6 * num("free" k "_first_seconds")) : "-", has("free" k "_median_seconds") ? sprintf("%.1f", 1e6 * num("free" k "_median_seconds")) : "-" > md
    }
    printf "\nFree memory dropped by (one allocation; bytes) and was off by after its free:\n\n| size | drop | after free |\n|---|---|---|\n" > md
    split("1 256 102400 1048576 2097153 3145728", G, " ")
    for (i = 1; i <= 6; i++) printf "| %s B | %s | %s |\n", G[i], f["granularity_" G[i]], f["granularity_" G[i] "_after_free"] > md
    if (has("free_drift_bytes")) printf "\nAfter %.1f GiB allocated and freed, free memory was %s bytes off its start.\n", num("free_drift_allocated_bytes") / 1073741824, f["free_drift_bytes"] > md

    printf "\n## Feeding the GPU (chapter 6: tests/gpu/report.lua section 12)\n\n" > md
    if (has("feed_error")) printf "failed: %s\n", f["feed_error"] > md
    else if (has("feed_mapped_read_seconds")) {
        fb = num("feed_copy_bytes"); ub = num("feed_um_bytes"); s1 = num("feed_streams_1_seconds")
        printf "| what | figure |\n|---|---|\n| copy engines | %s |\n", f["feed_async_engines"] > md
        printf "| pinning %.0f MiB, s per GiB | cudaHostAlloc %.3f, cudaHostRegister %.3f, mapped %.3f |\n", num("feed_pin_bytes") / 1048576, num("feed_pin_pinned_alloc_s_per_gib"), num("feed_pin_registered_alloc_s_per_gib"), num("feed_pin_mapped_alloc_s_per_gib") > md
        printf "| %.0f MiB, GB/s (n/t) | H2D pinned %s, pageable %s; D2H pinned %s, pageable %s |\n", fb / 1048576, gbs(fb / num("feed_h2d_pinned_seconds")), gbs(fb / num("feed_h2d_pageable_seconds")), gbs(fb / num("feed_d2h_pinned_seconds")), gbs(fb / num("feed_d2h_pageable_seconds")) > md
        printf "| 8 x %.0f MiB in, kernel, out | 1 stream %.2f ms; 2 streams %.2fx; 3 streams %.2fx |\n", num("feed_streams_chunk_bytes") / 1048576, 1e3 * s1, s1 / num("feed_streams_2_seconds"), s1 / num("feed_streams_3_seconds") > md
        printf "| a kernel not waiting for its copy | %s |\n", f["feed_race_caught"] == "true" ? "caught by the check" : "not caught (the data came out right)" > md
        printf "| managed %.0f MiB, GB/s | first pass (faults) %s, resident %s, prefetch %s, read in place %s |\n", ub / 1048576, gbs(ub / num("feed_um_first_seconds")), gbs(ub / num("feed_um_second_seconds")), gbs(ub / num("feed_um_prefetch_seconds")), gbs(ub / num("feed_um_in_place_seconds")) > md
        printf "| a kernel reading %.0f MiB of mapped host memory | %s GB/s |\n", fb / 1048576, gbs(fb / num("feed_mapped_read_seconds")) > md
    } else printf "not measured\n" > md

    printf "\n## Benchmarks against the reference (same run)\n\n```\n" > md
    nb = 0
    while ((getline line < bench) > 0) if (line ~ /^gpu / || line ~ /^FAIL/ || line ~ /^SKIP/) { print line > md; bl[++nb] = line }
    if (!nb) print "(none)" > md
    close(bench)
    printf "```\n\n## make test-gpu (its output is in the tarball)\n\n```\n" > md
    np = 0
    while ((getline line < testgpu) > 0) if (line ~ /^(PASS|FAIL|SKIP)/ || line ~ / passed, [0-9]+ failed$/) { print line > md; tl[++np] = line }
    if (!np) print "(did not run)" > md
    close(testgpu)
    printf "```\n\n## Lessons\n\n" > md
    na = split(f["lessons_asked"], LA, " ")
    for (i = 1; i <= split(f["lessons_recorded"], LR, " "); i++) rec[LR[i]] = 1
    miss = ""
    for (i = 1; i <= na; i++) if (!(LA[i] in rec)) miss = miss (miss == "" ? "" : " ") LA[i]
    printf "Recorded (in the .jsonl): %s.\n\nNot reached or not recorded: %s.\n", f["lessons_recorded"] != "" ? f["lessons_recorded"] : "none", miss != "" ? miss : "none" > md

    printf "{\"gpu\":%s,\"date\":%s,\"steps\":[", jstr(gpu), jstr(date) > js
    for (j = 1; j <= ns; j++) { split(st[j], s, "\t"); printf "%s{\"step\":%s,\"status\":%s,\"seconds\":%d}", (j > 1 ? "," : ""), jstr(s[1]), jstr(s[2]), s[3] > js }
    printf "],\"lessons\":{\"asked\":%s,\"recorded\":%s,\"missing\":%s},", jlist(f["lessons_asked"]), jlist(f["lessons_recorded"]), jlist(miss) > js
    printf "\"checks\":[" > js
    for (j = 1; j <= np; j++) printf "%s%s", (j > 1 ? "," : ""), jstr(tl[j]) > js
    printf "],\"bench\":[" > js
    for (j = 1; j <= nb; j++) printf "%s%s", (j > 1 ? "," : ""), jstr(bl[j]) > js
    printf "],\"figures\":{" > js
    for (j = 1; j <= n; j++) printf "%s%s:%s", (j > 1 ? "," : ""), jstr(keys[j]), jval(f[keys[j]]) > js
    printf "}}\n" > js
}' "$log/figures.tsv"
