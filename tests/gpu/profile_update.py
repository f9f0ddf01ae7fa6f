#!/usr/bin/env python3
"""profile_update.py REPORT.json PROFILE.txt [-o OUT] [--in-place] - a GPU profile
(assets/gpus/<id>.txt, docs/simulator.md) recalibrated from what `make gpu-report` measured on that
GPU (its .json). Every number the report settles is replaced and tagged [run]; one
`source.run = ...` line says which GPU, driver, date and report it came from; a number the report
confirms keeps its published source beside [run] (never [model]: the measurement replaces the
model's guess); a source no number names any more is dropped (the profile reader refuses it). Comments and order stay. Prints what changed on stderr.

What comes from which figure (docs/benchmarks.md, "Recalibrating a profile"):
  total_bytes, bus_width_bits, mem_clock_khz, l2_bytes, sm_count, compute_capability: the device
      as CUDA reports it; smi_total_mib: nvidia-smi's memory.total
  pcie_gen, pcie_width: the link's maximum (NVML's, or sysfs' with the port or device maximum;
      never the idle state)
  context_bytes: NVML's free memory before and after the context was created
  ce_efficiency, sm_efficiency: the 1 GiB device copy by cudaMemcpyAsync / by the SM kernel,
      counted 2n, over the attribute peak (2 x mem clock x bus / 8, what the model multiplies)
  copy_overhead_us: the median of the held 4 KiB copies' time per copy (device and pinned host
      paths): what the simulator adds to every copy, t = overhead + n / bandwidth
  l2_speedup: the 16 MiB device copies (2n in L2), overhead taken off, over the DRAM rate
  pcie_efficiency: pinned 256 MiB H2D and D2H (mean) over the link's payload rate
  pageable_factor: pageable over pinned, both directions (mean)
  l1_ns, l2_ns, dram_ns: the latency ladder's plateaus (L2 near/far: their mean; DRAM, not
      DRAM+TLB)
  noise: the median over the large copies and STREAM of (median / best - 1) / 0.75 (the model
      slows a run by 3 x noise x u^2, u uniform: its median is 0.75 x noise)
  async_engines, pin_alloc_s_per_gib, pin_register_s_per_gib: the report's section 12 (feed_*):
      cudaDevAttrAsyncEngineCount, gpu.pin's pinned and registered seconds per GiB
  zerocopy_efficiency, um_fault_efficiency, um_prefetch_efficiency: a kernel's read of mapped
      memory, a first pass faulting managed memory in, a prefetch of it, each over the same
      program's pinned 64 MiB host-to-device copy (the link rate the model multiplies)
      (launch_us and um_evict_efficiency: no figure yet, they stay)
A simulated report is refused (never publish the simulator's figures as measurements).
"""
import json
import re
import sys

GTS = {1: 2.5, 2: 5, 3: 8, 4: 16, 5: 32, 6: 64}


def pcie_payload(gen, width):
    """Bytes per second per direction after line encoding (gpu_pcie_bytes_per_s)."""
    if gen not in GTS or width <= 0:
        return 0
    enc = 0.8 if gen <= 2 else (128 / 130 if gen <= 5 else 242 / 256)
    return GTS[gen] * 1e9 * width * enc / 8


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if not n:
        return None
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def num(f, k):
    v = f.get(k)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def calibrate(d):
    """{key: (value as text, note)} from the report's figures; what is not measured is left out."""
    f = d["figures"]
    out = {}

    def put(key, value, note=""):
        out[key] = (value, note)

    for k in ("total_bytes", "bus_width_bits", "mem_clock_khz", "l2_bytes", "sm_count"):
        if num(f, k):
            put(k, str(int(num(f, k))))
    if isinstance(f.get("compute_capability"), str) and re.fullmatch(r"\d+\.\d+", f["compute_capability"]):
        put("compute_capability", f["compute_capability"])
    smi = num(f, "smi_before_memory_total")
    if smi:
        put("smi_total_mib", str(int(smi)))
    if f.get("pcie_source") in ("nvml", "sysfs-port", "sysfs-device") and num(f, "pcie_gen"):
        put("pcie_gen", str(int(num(f, "pcie_gen"))))
        if num(f, "pcie_width"):
            put("pcie_width", str(int(num(f, "pcie_width"))))
    if num(f, "context_bytes"):
        put("context_bytes", str(int(num(f, "context_bytes"))))

    peak = num(f, "peak_bytes_per_s")
    ce, sm = num(f, "d2d_ce_rw_bytes_per_s"), num(f, "d2d_sm_rw_bytes_per_s")
    if peak and ce:
        put("ce_efficiency", "%.2f" % min(1.0, ce / peak))
    if peak and sm:
        put("sm_efficiency", "%.2f" % min(1.0, sm / peak))

    held = [num(f, "small_%s_held_us" % p) for p in ("d2d_ce", "d2d_sm", "h2d_pinned", "d2h_pinned")]
    held = [h for h in held if h]
    overhead = median(held)
    if overhead:
        put("copy_overhead_us", "%.2f" % overhead)

    ups = []
    for m, eff in (("ce", ce), ("sm", sm)):
        rw = num(f, "d2d_%s_16mib_rw_bytes_per_s" % m)
        if rw and eff and peak and f.get("d2d_%s_16mib_l2_resident" % m) is True:
            n2 = 2 * 16 * 2**20
            t = n2 / rw - (overhead or 0) * 1e-6
            if t > 0:
                ups.append((n2 / t) / eff)
    if ups:
        put("l2_speedup", "%.2f" % (sum(ups) / len(ups)))

    link = pcie_payload(int(num(f, "pcie_gen") or 0), int(num(f, "pcie_width") or 0))
    pinned = [num(f, "h2d_pinned_bytes_per_s"), num(f, "d2h_pinned_bytes_per_s")]
    if link and all(pinned) and "pcie_gen" in out:
        put("pcie_efficiency", "%.2f" % min(1.0, sum(pinned) / 2 / link))
    pages = [num(f, "%s_pageable_bytes_per_s" % d_) for d_ in ("h2d", "d2h")]
    if all(pinned) and all(pages):
        put("pageable_factor", "%.2f" % min(1.0, (pages[0] / pinned[0] + pages[1] / pinned[1]) / 2))

    plateaus = {}
    for k, v in f.items():
        if re.fullmatch(r"plateau_\d+", k) and isinstance(v, str):
            parts = v.split()
            if len(parts) == 4:
                plateaus.setdefault(parts[0], []).append(float(parts[3]))
    low = " (some chases below 90 % of the SM clock's maximum)" if f.get("latency_low_clock") is True else ""
    for label, key in (("L1", "l1_ns"), ("DRAM", "dram_ns")):
        if label in plateaus:
            put(key, "%.0f" % plateaus[label][0], low)
    l2 = plateaus.get("L2", []) + plateaus.get("L2-near", []) + plateaus.get("L2-far", [])
    if l2:
        put("l2_ns", "%.0f" % (sum(l2) / len(l2)), low)

    # chapter 6's programs (tests/gpu/report.lua section 12)
    if num(f, "feed_async_engines") and 1 <= num(f, "feed_async_engines") <= 8:
        put("async_engines", str(int(num(f, "feed_async_engines"))))
    for kind, key in (("pinned", "pin_alloc_s_per_gib"), ("registered", "pin_register_s_per_gib")):
        v = num(f, "feed_pin_%s_alloc_s_per_gib" % kind)
        if v and v > 0:
            put(key, "%.3g" % v)
    fb, h2d = num(f, "feed_copy_bytes"), num(f, "feed_h2d_pinned_seconds")
    if fb and h2d:
        linkr = fb / h2d
        ub = num(f, "feed_um_bytes")
        for key, size, t in (("zerocopy_efficiency", fb, num(f, "feed_mapped_read_seconds")),
                             ("um_fault_efficiency", ub, num(f, "feed_um_first_seconds")),
                             ("um_prefetch_efficiency", ub, num(f, "feed_um_prefetch_seconds"))):
            if size and t:
                put(key, "%.2f" % min(1.0, max(0.01, size / t / linkr)))

    slow = []
    for k in ("d2d_ce", "d2d_sm", "h2d_pinned", "d2h_pinned", "stream_copy", "stream_scale",
              "stream_add", "stream_triad", "stream_dot"):
        best, med = num(f, k + "_bytes_per_s"), num(f, k + "_median_bytes_per_s")
        if best and med:
            slow.append(max(0.0, best / med - 1) / 0.75)
    if slow:
        put("noise", "%.3f" % min(0.5, max(0.001, median(slow))))
    return out


def source_line(d, f):
    what = "vramlab make gpu-report on %s (%s), %s" % (f.get("name", d.get("gpu", "?")),
                                                      f.get("driver", "driver ?"), d.get("date", "?"))
    return what[:390]


def path_note(f, key, eff):
    """ce_source / sm_source: the measured share with what it was measured as (<= 255 chars)."""
    rate = num(f, "d2d_%s_rw_bytes_per_s" % key) or 0
    peak = num(f, "peak_bytes_per_s") or 0
    text = "measured: 1 GiB D2D %s %.0f GB/s counted 2n = %s of the %.0f GB/s attribute peak" % (
        "cudaMemcpyAsync" if key == "ce" else "SM copy kernel", rate / 1e9, eff, peak / 1e9)
    if key == "ce":
        v = f.get("d2d_ce_overlaps_sm_kernel")
        text += {True: "; a copy engine: it ran while a kernel held every SM",
                 False: "; it waited for the SMs: not a copy engine"}.get(v, "; copy engine or SMs unsettled")
    return text


def rewrite(text, d, values):
    f = d["figures"]
    lines = text.split("\n")
    keyre = re.compile(r"^(\s*)([a-z0-9_.]+)(\s*=\s*)(.*?)(\s*)$")
    changed = []
    for i, line in enumerate(lines):
        m = keyre.match(line)
        if not m or line.lstrip().startswith("#"):
            continue
        key, value = m.group(2), m.group(4)
        if key in ("ce_source", "sm_source"):
            which = key[:2]
            if which + "_efficiency" in values:
                lines[i] = "%s%s%s%s" % (m.group(1), key, m.group(3),
                                         path_note(f, which, values[which + "_efficiency"][0])[:255])
            continue
        if key not in values:
            continue
        tm = re.match(r"^(.*?)(\s+)\[([^\]]*)\]\s*$", value)
        old, gap, tags = (tm.group(1), tm.group(2), tm.group(3)) if tm else (value, "   ", "")
        new = values[key][0]
        same = False
        try:
            same = abs(float(old) - float(new)) <= 1e-9 * max(1.0, abs(float(old)))
        except ValueError:
            same = old.strip() == new
        if key in ("ce_efficiency", "sm_efficiency"):
            lines[i] = "%s%s%s%s" % (m.group(1), key, m.group(3), new)
        else:
            # a published source the run confirms stays; the model's guess gives way to the run
            keep = [t.strip() for t in tags.split(",") if t.strip() not in ("", "run", "model")]
            newtags = (keep[:2] + ["run"]) if same and keep else ["run"]
            head = "%s%s%s%s" % (m.group(1), key, m.group(3), new)
            col = line.rfind("[") if tm else len(head) + 3  # the tags stay in their column
            lines[i] = "%s[%s]" % (head.ljust(max(col, len(head) + 1)), ", ".join(newtags))
        if not same:
            changed.append("%s: %s -> %s%s" % (key, old.strip(), new, values[key][1]))
    text = "\n".join(lines)
    # the run's source: replaced if there, else after the last source line
    run = "source.run = " + source_line(d, f)
    if re.search(r"(?m)^source\.run\s*=.*$", text):
        text = re.sub(r"(?m)^source\.run\s*=.*$", run.replace("\\", "\\\\"), text)
    else:
        lines = text.split("\n")
        last = max(i for i, l in enumerate(lines) if l.startswith("source."))
        lines.insert(last + 1, run)
        text = "\n".join(lines)
    # sources no number names any more go (the reader refuses them)
    named = set()
    for m in re.finditer(r"\[([^\]]*)\]\s*$", text, re.M):
        named.update(t.strip() for t in m.group(1).split(","))
    out = []
    for line in text.split("\n"):
        sm = re.match(r"^source\.([a-z0-9_-]+)\s*=", line)
        if sm and sm.group(1) not in named:
            changed.append("source.%s dropped: no number names it now" % sm.group(1))
            continue
        out.append(line)
    return "\n".join(out), changed


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("-")]
    out_path = None
    if "-o" in argv:
        out_path = argv[argv.index("-o") + 1]
        args = [a for a in args if a != out_path]
    if len(args) != 2:
        sys.stderr.write(__doc__.split("\n\n")[0] + "\n")
        return 2
    report, profile = args
    with open(report) as fh:
        d = json.load(fh)
    f = d.get("figures", {})
    if f.get("simulated") is not False or f.get("report_simulated") is True:
        sys.stderr.write("%s: a simulated report (or one without the device's figures): nothing "
                         "to calibrate a profile from\n" % report)
        return 1
    with open(profile) as fh:
        text = fh.read()
    values = calibrate(d)
    new, changed = rewrite(text, d, values)
    if "--in-place" in argv:
        out_path = profile
    if out_path:
        with open(out_path, "w") as fh:
            fh.write(new)
    else:
        sys.stdout.write(new)
    for c in changed:
        sys.stderr.write("%s: %s\n" % (profile, c))
    if not changed:
        sys.stderr.write("%s: every figure the report measured agrees with the profile\n" % profile)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
