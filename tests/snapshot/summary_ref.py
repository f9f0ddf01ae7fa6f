#!/usr/bin/env python3
"""summary_ref.py - the reference for `vramlab snapshot FILE --json`: reads the same pickle with
Python's own unpickler and computes every number of the summary independently, from PyTorch's
own rules rather than vramlab's code: what empty_cache() gives back follows
c10/cuda/CUDACachingAllocator.cpp (release_blocks, ExpandableSegment::unmap), the frame filter
torch/utils/viz/MemoryViz.js and torch/cuda/_memory_viz.py (frameFilter, _frame_filter), the
snapshot's shape torch/csrc/cuda/memory_snapshot.cpp; the definitions are written out in
docs/snapshot.md. tests/cli/snapshot.sh runs both and compares the JSON; the numbers must
agree exactly.

    python3 tests/snapshot/summary_ref.py SNAPSHOT.pickle [--top N] [--segments]
    python3 tests/snapshot/summary_ref.py diff A.pickle B.pickle [--top N]
    python3 tests/snapshot/summary_ref.py collapsed SNAPSHOT.pickle [--at peak|end] [--device N]

The second and third are the references for `vramlab snapshot diff A B --json` and `vramlab
snapshot FILE --collapsed`.

Standard library only. The unpickler refuses every global (find_class), so no code from the
file runs. Exit status 1 with a message when the file is not a snapshot vramlab reads.
"""
import json
import pickle
import sys

LIMIT = 1 << 62          # sizes in one device may add up to this many bytes
ACTIONS = ("alloc", "free_requested", "free_completed", "segment_alloc", "segment_free",
           "segment_map", "segment_unmap", "snapshot", "oom")
STATES = ("active_allocated", "active_pending_free", "inactive")
OMIT_FUNCTIONS = ("unwind::unwind", "CapturedTraceback::gather", "gather_with_cpp", "_start",
                  "__libc_start_main", "PyEval_", "PyObject_", "PyFunction_")
OMIT_FILENAMES = ("core/boxing", "/Register", "/Redispatch", "pythonrun.c", "Modules/main.c",
                  "Objects/call.c", "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
                  "cpython/abstract.h")


class Bad(Exception):
    pass


class SafeUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        raise Bad("opcode GLOBAL is not allowed in a memory snapshot")


def is_int(v):
    return type(v) is int and -(1 << 63) <= v < (1 << 63)


def size_of(d, key, where, default=None):
    """A size: a whole number >= 0; a missing key (or None) takes default, if there is one."""
    v = d.get(key)
    if v is None:
        if default is None:
            raise Bad("%s has no '%s'" % (where, key))
        v = default
    if not is_int(v) or v < 0:
        raise Bad("%s.%s is not a size (a whole number of bytes)" % (where, key))
    return v


def frame_filter(name, filename):
    """memory_viz's frameFilter (torch/utils/viz/MemoryViz.js, _memory_viz._frame_filter),
    with a Windows path's '\\' read as '/' (the patterns name POSIX paths)."""
    filename = filename.replace("\\", "/")
    return not any(o in name for o in OMIT_FUNCTIONS) and \
        not any(o in filename for o in OMIT_FILENAMES)


def good_frame(f):
    """A frame dict with a str filename and name and an int line; others are skipped."""
    return type(f) is dict and type(f.get("filename")) is str and \
        type(f.get("name")) is str and is_int(f.get("line"))


def is_user(f):
    """The user's own Python code: past the filter, a .py file, not <frozen ...>, not inside
    torch, not Python's standard library (lib/pythonX.Y/, or Lib\\ in a Windows path) unless
    installed into site-packages or dist-packages (libraries such as transformers count)."""
    fn, name = f["filename"], f["name"]
    if not frame_filter(name, fn) or not fn.endswith(".py") or fn.startswith("<"):
        return False
    p = fn.replace("\\", "/")
    if "/torch/" in p or p.startswith("torch/"):
        return False
    windows = "\\" in fn
    stdlib = "/lib/python" in p or (windows and "/lib/" in p.lower())
    if stdlib and "-packages/" not in p:
        return False
    return True


def user_frame(frames):
    """The first frame, innermost first, that is the user's Python code (docs/snapshot.md)."""
    if type(frames) is not list or not frames:
        return ("<no frames recorded>", "")
    for f in frames:
        if good_frame(f) and is_user(f):
            return ("%s:%d" % (f["filename"], f["line"]), f["name"])
    return ("<torch or Python internals only>", "")


def stack_of(frames):
    """The whole stack as memory_viz shows it: every frame its filter keeps, innermost first,
    as "file:line:name" (_memory_viz._frame_fmt with the full file name)."""
    if type(frames) is not list:
        return []
    return ["%s:%d:%s" % (f["filename"], f["line"], f["name"]) for f in frames
            if good_frame(f) and frame_filter(f["name"], f["filename"])]


def pool_id(seg):
    """segment_pool_id as a pair of whole numbers; (0, 0), the default pool, when it is not one."""
    pool = seg.get("segment_pool_id")
    if type(pool) in (tuple, list) and len(pool) == 2:
        return tuple(v if is_int(v) else 0 for v in pool)
    return (0, 0)


def releasable(seg, blocks_info):
    """What empty_cache() gives back from one segment of the snapshot (release_cached_blocks ->
    release_blocks in c10/cuda/CUDACachingAllocator.cpp): a segment that is not expandable is
    cudaFree'd when its one block is free, i.e. nothing in it is active; an expandable segment
    (each snapshot segment is one mapped range of it, starting on a page) gives back, for every
    free block, the pages lying wholly inside it (ExpandableSegment::unmap: segmentRight of the
    start to segmentLeft of the end), pages of 2 MiB in the small pool and 20 MiB in the large."""
    free = [(a, size) for a, size, state in blocks_info if state == "inactive"]
    if pool_id(seg) != (0, 0):
        return 0        # a private pool: released only once no graph or MemPool uses it
    if seg.get("is_expandable") is not True:
        busy = any(state != "inactive" for _, _, state in blocks_info)
        return 0 if busy else sum(size for _, size in free)
    page = (2 if seg.get("segment_type") == "small" else 20) << 20
    base, out = seg["address"], 0
    for a, size in free:
        if a < base:
            continue
        first = (a - base + page - 1) // page
        last = (a - base + size) // page
        out += max(0, last - first) * page
    return out


def summarize(snap, top):
    if type(snap) is not dict:
        raise Bad("not a PyTorch memory snapshot (the pickle holds a %s, not a dict)"
                  % type(snap).__name__)
    if "segments" not in snap:
        raise Bad("not a PyTorch memory snapshot (no 'segments' key)")
    segs = snap["segments"]
    if type(segs) is not list:
        raise Bad("not a PyTorch memory snapshot ('segments' is not a list)")
    traces = snap.get("device_traces", [])
    if traces is None:
        traces = []
    if type(traces) is not list:
        raise Bad("not a PyTorch memory snapshot ('device_traces' is not a list)")

    # settings
    st = snap.get("allocator_settings")
    settings = None
    if type(st) is dict:
        conf = st.get("PYTORCH_CUDA_ALLOC_CONF")
        msplit = st.get("max_split_size")
        exp = st.get("expandable_segments")
        gc = st.get("garbage_collection_threshold")
        rd = st.get("roundup_power2_divisions")
        settings = {
            "PYTORCH_CUDA_ALLOC_CONF": conf if type(conf) is str else None,
            "max_split_size": msplit if is_int(msplit) and 0 < msplit else None,
            "expandable_segments": exp if type(exp) is bool else None,
            "garbage_collection_threshold": gc if type(gc) is float else None,
            "roundup_power2_divisions": [v if is_int(v) else None for v in rd.values()][:64]
            if type(rd) is dict else None,
        }

    # segments and blocks, per device
    dev = {}
    legacy = 0
    for i, s in enumerate(segs):
        w = "segments[%d]" % i
        if type(s) is not dict:
            raise Bad("not a PyTorch memory snapshot (%s is not a dict)" % w)
        d = s.get("device", 0)
        if not is_int(d) or d < 0 or d > 4095:
            raise Bad("not a PyTorch memory snapshot (%s.device is not a device index)" % w)
        addr = size_of(s, "address", w)
        total = size_of(s, "total_size", w)
        blocks = s.get("blocks")
        if type(blocks) is not list:
            raise Bad("not a PyTorch memory snapshot (%s has no 'blocks' list)" % w)
        D = dev.setdefault(d, new_device())
        D["segments"]["count"] += 1
        kind = "small" if s.get("segment_type") == "small" else "large"
        D["segments"][kind] += 1
        if s.get("is_expandable") is True:
            D["segments"]["expandable"] += 1
        D["segments"]["reserved_bytes"] += total
        pid = pool_id(s)
        P = None
        if pid != (0, 0):
            P = D["_pools"].setdefault(pid, {"segment_pool_id": list(pid), "segments": 0,
                                             "reserved_bytes": 0, "allocated_bytes": 0,
                                             "cached_bytes": 0})
            P["segments"] += 1
            P["reserved_bytes"] += total
        free_here = 0
        info = []
        for j, b in enumerate(blocks):
            bw = "%s.blocks[%d]" % (w, j)
            if type(b) is not dict:
                raise Bad("not a PyTorch memory snapshot (%s is not a dict)" % bw)
            size = size_of(b, "size", bw)
            state = b.get("state")
            if state not in STATES:
                raise Bad("not a PyTorch memory snapshot (%s.state is not one of %s)"
                          % (bw, ", ".join(STATES)))
            if "frames" in b:
                frames = b["frames"]
                req = size_of(b, "requested_size", bw, size)
            else:       # the older format: the allocation's history
                h = b.get("history")
                legacy += 1 if h is not None else 0
                if type(h) is list and h and type(h[0]) is dict:
                    frames = h[0].get("frames", [])
                    req = size_of(h[0], "real_size", bw + ".history[0]")
                else:
                    frames = []
                    req = size_of(b, "requested_size", bw, size)
            baddr = b.get("address", None)
            if baddr is not None and (not is_int(baddr) or baddr < 0):
                raise Bad("not a PyTorch memory snapshot (%s.address is not an address)" % bw)
            D["_magnitude"] += size
            c = D["blocks"][state]
            c["count"] += 1
            c["bytes"] += size
            at = baddr if baddr is not None else addr
            info.append((at, size, state))
            if P is not None and state in ("active_allocated", "inactive"):
                P["allocated_bytes" if state == "active_allocated" else "cached_bytes"] += size
            if state != "inactive":
                c["requested_bytes"] += req
                D["_magnitude"] += req
                D["_active"].append((at, req, frames))
            else:
                free_here += size
                D["largest_free_block_bytes"] = max(D["largest_free_block_bytes"], size)
            addr += size
        rel = releasable(s, info)
        D["releasable_bytes"] += rel
        D["non_releasable_bytes"] += free_here - rel
    for d, tr in enumerate(traces):
        if type(tr) is not list:
            raise Bad("not a PyTorch memory snapshot (device_traces[%d] is not a list)" % d)
        if tr:
            dev.setdefault(d, new_device())

    out_devices = []
    for d in sorted(dev):
        D = dev[d]
        tr = traces[d] if d < len(traces) else []
        out_devices.append(device_summary(d, D, tr, top))
        out_devices[-1]["annotations"] = annotations_of(snap, d)
    return {"units": "bytes", "allocator_settings": settings, "legacy_history_blocks": legacy,
            "devices": out_devices}


def new_device():
    return {"segments": {"count": 0, "large": 0, "small": 0, "expandable": 0, "reserved_bytes": 0},
            "blocks": {"active_allocated": {"count": 0, "bytes": 0, "requested_bytes": 0},
                       "active_pending_free": {"count": 0, "bytes": 0, "requested_bytes": 0},
                       "inactive": {"count": 0, "bytes": 0, "requested_bytes": 0}},
            "releasable_bytes": 0, "non_releasable_bytes": 0, "largest_free_block_bytes": 0,
            "_active": [], "_magnitude": 0, "_pools": {}}


def device_summary(d, D, tr, top):
    events = []
    magnitude = D["segments"]["reserved_bytes"] + D["_magnitude"]
    for i, e in enumerate(tr):
        w = "device_traces[%d][%d]" % (d, i)
        if type(e) is not dict:
            raise Bad("not a PyTorch memory snapshot (%s is not a dict)" % w)
        act = e.get("action")
        if type(act) is not str:
            raise Bad("not a PyTorch memory snapshot (%s has no 'action')" % w)
        size = size_of(e, "size", w, None if act in ACTIONS else 0)
        if act == "oom":
            addr = e.get("device_free")
            if addr is not None and (not is_int(addr) or addr < 0):
                raise Bad("not a PyTorch memory snapshot (%s.device_free is not a size)" % w)
        elif act in ACTIONS:
            addr = size_of(e, "addr", w)
        else:
            addr = None
        stream = e.get("stream", 0)
        if not is_int(stream):
            raise Bad("not a PyTorch memory snapshot (%s.stream is not a whole number)" % w)
        t = e.get("time_us")
        if t is not None and not is_int(t):
            raise Bad("not a PyTorch memory snapshot (%s.time_us is not a whole number)" % w)
        magnitude += size
        events.append((act, addr, size, stream, t, e.get("frames")))
    if magnitude > LIMIT:
        raise Bad("sizes on device %d add up past 2^62 bytes: not a real snapshot" % d)

    b = D["blocks"]
    alloc_b, alloc_r = b["active_allocated"]["bytes"], b["active_allocated"]["requested_bytes"]
    actions = {a: 0 for a in ACTIONS}
    actions["other"] = 0
    streams = set()
    for act, _, _, stream, _, _ in events:
        actions[act if act in actions else "other"] += 1
        streams.add(stream)
    times = [t for _, _, _, _, t, _ in events if t is not None]

    # Every allocation the summary knows, with the event that made it (-1: before the trace)
    # and the one that freed it (None: still live at the end).
    entries = []                            # [size, frames, birth, death, addr]
    by_addr = {}
    for i, (act, addr, size, _, _, frames) in enumerate(events):
        if act == "alloc":
            # a second alloc at a live address: the first stays live (as memory_viz does)
            by_addr[addr] = len(entries)
            entries.append([size, frames, i, None, addr])
        elif act == "free_completed":
            k = by_addr.pop(addr, None)
            if k is None:                   # allocated before the trace began
                entries.append([size, frames, -1, i, addr])
            else:
                entries[k][3] = i
    for addr, req, frames in D["_active"]:
        if addr not in by_addr:
            entries.append([req, frames, -1, None, addr])
    pre = [e for e in entries if e[2] < 0]
    # the order groups meet their allocations in (the first of equal largest gives the stack):
    # those live before the trace by address (a block still live at the end before one freed
    # in the trace), then the trace's by entry
    entries.sort(key=lambda e: (0, e[4], -1 if e[3] is None else e[3]) if e[2] < 0 else (1, e[2]))
    start = sum(e[0] for e in pre)
    deltas = []
    for act, _, size, _, _, _ in events:
        deltas.append(size if act in ("segment_alloc", "segment_map") else
                      -size if act in ("segment_free", "segment_unmap") else 0)
    rstart = D["segments"]["reserved_bytes"] - sum(deltas)
    cur, peak, peak_at = start, start, None
    rcur, rpeak, rpeak_at = rstart, rstart, None
    ooms = []
    for i, (act, addr, size, stream, t, frames) in enumerate(events):
        if act == "alloc":
            cur += size
        elif act == "free_completed":
            cur -= size
        rcur += deltas[i]
        if cur > peak:
            peak, peak_at = cur, i
        if rcur > rpeak:
            rpeak, rpeak_at = rcur, i
        if act == "oom":
            w, fn = user_frame(frames)
            ooms.append({"event": i, "time_us": t, "size": size, "device_free": addr,
                         "stream": stream, "live_requested_bytes": cur, "reserved_bytes": rcur,
                         "where": w, "function": fn, "stack": stack_of(frames)})

    # the live set at the peak, grouped by the first user frame
    p = -1 if peak_at is None else peak_at
    lv = [e for e in entries if e[2] <= p and (e[3] is None or e[3] > p)]
    groups = {}
    for size, frames, _, _, _ in lv:
        key = user_frame(frames)
        g = groups.setdefault(key, [0, 0, -1, None])
        g[0] += size
        g[1] += 1
        if size > g[2]:                      # the largest, the first of equal ones
            g[2], g[3] = size, frames
    ranked = sorted(groups.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0][0], kv[0][1]))
    top_list = [{"where": k[0], "function": k[1], "bytes": v[0], "count": v[1],
                 "stack": stack_of(v[3])} for k, v in ranked[:top]]
    t_of = lambda i: events[i][4] if i is not None else None
    return {
        "device": d,
        "segments": D["segments"],
        "blocks": b,
        "allocated_bytes": alloc_b,
        "requested_bytes": alloc_r,
        "internal_fragmentation_bytes": alloc_b - alloc_r,
        "cached_bytes": b["inactive"]["bytes"],
        "releasable_bytes": D["releasable_bytes"],
        "non_releasable_bytes": D["non_releasable_bytes"],
        "largest_free_block_bytes": D["largest_free_block_bytes"],
        "private_pools": [D["_pools"][k] for k in sorted(D["_pools"])],
        "trace": {"events": len(events), "actions": actions, "streams": len(streams),
                  "first_time_us": times[0] if times else None,
                  "last_time_us": times[-1] if times else None},
        "timeline": {"start_bytes": start, "pre_trace_blocks": len(pre), "end_bytes": cur,
                     "snapshot_active_requested_bytes": sum(r for _, r, _ in D["_active"]),
                     "peak_bytes": peak, "peak_event": peak_at, "peak_time_us": t_of(peak_at),
                     "reserved_start_bytes": rstart, "reserved_end_bytes": rcur,
                     "reserved_peak_bytes": rpeak, "reserved_peak_event": rpeak_at,
                     "reserved_peak_time_us": t_of(rpeak_at)},
        "top_at_peak": top_list,
        "ooms": ooms,
    }


def annotations_of(snap, d):
    """external_annotations of device d as recorded (the profiler's record_function ranges):
    entries that are dicts with a str name and a str stage; device absent is 0; a device that is
    not a whole number 0..4095 leaves the entry out; stage START, anything else END."""
    v = snap.get("external_annotations")
    out = []
    if type(v) is not list:
        return out
    for e in v:
        if type(e) is not dict:
            continue
        name, stage = e.get("name"), e.get("stage")
        if type(name) is not str or type(stage) is not str:
            continue
        dev = e.get("device", 0) if "device" in e else 0
        if not is_int(dev) or not 0 <= dev <= 4095:
            continue
        if dev != d:
            continue
        t = e.get("time_us")
        out.append({"name": name, "stage": "START" if stage == "START" else "END",
                    "time_us": t if is_int(t) else None})
    return out


def blocks_of(snap):
    """Every segment, in the file's order, with its blocks as (address, size, state, requested,
    frames), read by the same rules as summarize() (which has checked the shape)."""
    out = []
    for s in snap["segments"]:
        addr, blocks = s["address"], []
        for b in s["blocks"]:
            size = b["size"]
            if "frames" in b:
                frames = b["frames"]
                req = size_of(b, "requested_size", "", size)
            else:
                h = b.get("history")
                if type(h) is list and h and type(h[0]) is dict:
                    frames, req = h[0].get("frames", []), h[0]["real_size"]
                else:
                    frames, req = [], size_of(b, "requested_size", "", size)
            at = b.get("address")
            at = addr if at is None else at
            blocks.append((at, size, b["state"], req, frames))
            addr += size
        out.append((s.get("device", 0), s, blocks))
    return out


def segment_list(snap, d):
    """--segments: each segment of device d in the file's order, as _memory_viz.segsum reads it:
    the requested bytes of its active_allocated blocks (at most their size), the rest of those
    blocks (internal), every other block (external), and one character per 20 MiB page: a-z the
    n-th allocation alone on it, 0-9 and * the page's fill in tenths when several share it."""
    page = 20 << 20
    out = []
    for dev, s, blocks in blocks_of(snap):
        if dev != d:
            continue
        total = s["total_size"]
        npages = (total + page - 1) // page
        shown = min(npages, 200)
        occ, frac = [" "] * shown, [0.0] * shown
        alloc = internal = external = off = nth = 0
        for at, size, state, req, _ in blocks:
            if state == "active_allocated":
                req = min(req, size)
                alloc += req
                internal += size - req
                m = chr(ord("a") + nth % 26)
                nth += 1
                fin = off + req
                for j in range(off // page, min(-(-fin // page), shown)):
                    frac[j] += (min(fin, (j + 1) * page) - max(off, j * page)) / page
                    occ[j] = "0123456789*"[min(int(frac[j] * 10), 10)] if occ[j] != " " else m
            else:
                external += size
            off += size
        info = [(at, size, state) for at, size, state, _, _ in blocks]
        out.append({"address": s["address"], "total_size": total,
                    "segment_type": "small" if s.get("segment_type") == "small" else "large",
                    "is_expandable": s.get("is_expandable") is True,
                    "stream": s.get("stream", 0), "segment_pool_id": list(pool_id(s)),
                    "blocks": len(blocks), "allocated_bytes": alloc,
                    "free_internal_bytes": internal, "free_external_bytes": external,
                    "releasable_bytes": releasable(s, info),
                    "pages": "".join(occ) + ("..." if npages > shown else "")})
    return out


def short_file(fn):
    """_memory_viz._frame_fmt's file: the last path component ('/' or, Windows, '\\');
    a name such as <frozen ...> whole."""
    if not fn or fn.startswith("<"):
        return fn
    return fn.replace("\\", "/").rsplit("/", 1)[-1]


def collapsed_stack(frames):
    """The stack outermost first as flamegraph.pl reads it: memory_viz's filter, "file:line:name"
    with ';' made ',' and CR, LF, NUL made ' '; <non-python> for no frames at all."""
    if type(frames) is not list or not frames:
        return "<non-python>"
    parts = []
    for f in reversed(frames):
        if not good_frame(f) or not frame_filter(f["name"], f["filename"]):
            continue
        t = "%s:%d:%s" % (short_file(f["filename"]), f["line"], f["name"])
        parts.append(t.replace(";", ",").replace("\r", " ").replace("\n", " ").replace("\0", " "))
    return ";".join(parts)


def collapsed(snap, at="end", device=None):
    """--collapsed lines. end: each active_allocated block of the final state as
    _memory_viz.memory writes it (stream_S;active_allocated;STACK requested, and ;<gaps> the
    rest), summing to allocated_bytes; peak: each allocation live just after the device's peak
    entry, stream_S;STACK requested, summing to the peak's live bytes."""
    summ = summarize(snap, 0)
    traces = snap.get("device_traces") or []
    lines = []
    segs = blocks_of(snap)
    for D in summ["devices"]:
        d = D["device"]
        if device is not None and d != device:
            continue
        if at == "end":
            for dev, s, blocks in segs:
                if dev != d:
                    continue
                st = s.get("stream", 0)
                for _, size, state, req, frames in blocks:
                    if state != "active_allocated":
                        continue
                    req = min(req, size)
                    lines.append("stream_%d;active_allocated;%s %d" % (st, collapsed_stack(frames), req))
                    if size > req:
                        lines.append("stream_%d;active_allocated;<gaps> %d" % (st, size - req))
            continue
        if device is None and not D["trace"]["events"]:
            continue
        tr = traces[d] if d < len(traces) else []
        live = {}                         # addr -> [(birth, size, frames, stream)]
        pre_end = {}                      # allocations live before the trace and at its end
        for dev, s, blocks in segs:
            if dev == d:
                for baddr, size, state, req, frames in blocks:
                    if state != "inactive":
                        pre_end.setdefault(baddr, []).append((req, frames, s.get("stream", 0)))
        events = []                       # (birth, death, addr, size, frames, stream)
        open_ = {}
        for i, e in enumerate(tr):
            act = e.get("action")
            if act == "alloc":
                open_[e["addr"]] = len(events)
                events.append([i, None, e["addr"], e["size"], e.get("frames"), e.get("stream", 0)])
            elif act == "free_completed":
                k = open_.pop(e["addr"], None)
                if k is None:
                    events.append([-1, i, e["addr"], e["size"], e.get("frames"), e.get("stream", 0)])
                else:
                    events[k][1] = i
        for addr, lst in pre_end.items():
            if addr not in open_:
                for req, frames, st in lst:
                    events.append([-1, None, addr, req, frames, st])
        p = D["timeline"]["peak_event"]
        p = -1 if p is None else p
        lv = [e for e in events if e[0] <= p and (e[1] is None or e[1] > p)]
        lv.sort(key=lambda e: (e[2], e[0]))
        for _, _, _, size, frames, st in lv:
            lines.append("stream_%d;%s %d" % (st, collapsed_stack(frames), size))
    return lines


def diff(sa, sb, top):
    """`vramlab snapshot diff A B --json`: per device of either, the totals of both, the
    segments only in one (by address and total_size), and the active_allocated blocks only in
    one (B's is A's too when A holds an active_allocated block at that address, of that size,
    with the same first user frame), grouped by first user frame as top_at_peak is."""
    ua, ub = summarize(sa, 0), summarize(sb, 0)
    devs = sorted({D["device"] for D in ua["devices"]} | {D["device"] for D in ub["devices"]})
    ba, bb = blocks_of(sa), blocks_of(sb)

    def totals(segs, d):
        n = res = alloc = req = cached = 0
        for dev, s, blocks in segs:
            if dev != d:
                continue
            n += 1
            res += s["total_size"]
            for _, size, state, r, _ in blocks:
                if state == "active_allocated":
                    alloc += size
                    req += r
                elif state == "inactive":
                    cached += size
        return n, res, alloc, req, cached

    def only_segs(x, y, d):
        at = {}
        for dev, s, _ in y:
            if dev == d:
                at[s["address"]] = s["total_size"]
        out = sorted((s["address"], s["total_size"]) for dev, s, _ in x
                     if dev == d and at.get(s["address"]) != s["total_size"])
        return [{"address": a, "total_size": n} for a, n in out]

    def only_live(x, y, d):
        at = {}
        for dev, s, blocks in y:
            if dev == d:
                for a, size, state, _, frames in blocks:
                    if state == "active_allocated":
                        at[a] = (size, frames)
        groups, total = {}, 0
        order = sorted((s["address"], k) for k, (dev, s, _) in enumerate(x) if dev == d)
        for _, k in order:
            for a, size, state, req, frames in x[k][2]:
                if state != "active_allocated":
                    continue
                o = at.get(a)
                if o is not None and o[0] == size and user_frame(o[1]) == user_frame(frames):
                    continue
                total += req
                g = groups.setdefault(user_frame(frames), [0, 0, -1, None])
                g[0] += req
                g[1] += 1
                if req > g[2]:
                    g[2], g[3] = req, frames
        ranked = sorted(groups.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0][0], kv[0][1]))
        return total, [{"where": k[0], "function": k[1], "bytes": v[0], "count": v[1],
                        "stack": stack_of(v[3])} for k, v in ranked[:top]]

    out = []
    for d in devs:
        ta, tb = totals(ba, d), totals(bb, d)
        o = {"device": d}
        for i, key in enumerate(("segments", "reserved_bytes", "allocated_bytes",
                                 "requested_bytes", "cached_bytes")):
            o[key] = {"a": ta[i], "b": tb[i], "delta": tb[i] - ta[i]}
        o["segments_only_in_a"] = only_segs(ba, bb, d)
        o["segments_only_in_b"] = only_segs(bb, ba, d)
        o["only_in_a_bytes"] = sum(x["total_size"] for x in o["segments_only_in_a"])
        o["only_in_b_bytes"] = sum(x["total_size"] for x in o["segments_only_in_b"])
        o["live_only_in_a_bytes"], o["live_only_in_a"] = only_live(ba, bb, d)
        o["live_only_in_b_bytes"], o["live_only_in_b"] = only_live(bb, ba, d)
        out.append(o)
    return {"units": "bytes", "devices": out}


def report_diff(a, b, path=""):
    """Print where two JSON values differ (for the tests: vramlab's output against this one's)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            report_diff(a.get(k), b.get(k), path + "." + k)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            report_diff(x, y, "%s[%d]" % (path, i))
    elif a != b or type(a) != type(b):
        print("  %s: vramlab %r, reference %r" % (path, a, b))


def load(path):
    with open(path, "rb") as f:
        return SafeUnpickler(f).load()


def main():
    args = sys.argv[1:]
    opts = {"--top": 10, "--at": "end", "--device": None}
    for k in list(opts):
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1] if k == "--at" else int(args[i + 1])
            del args[i:i + 2]
    segs = "--segments" in args
    if segs:
        args.remove("--segments")
    try:
        if args[:1] == ["diff"] and len(args) == 3:
            out = diff(load(args[1]), load(args[2]), opts["--top"])
            out["a"], out["b"] = args[1], args[2]
        elif args[:1] == ["collapsed"] and len(args) == 2:
            for line in collapsed(load(args[1]), opts["--at"], opts["--device"]):
                sys.stdout.write(line + "\n")
            return
        elif len(args) == 1:
            snap = load(args[0])
            out = summarize(snap, opts["--top"])
            if segs:
                for D in out["devices"]:
                    D["segment_list"] = segment_list(snap, D["device"])
            out["file"] = args[0]
        else:
            sys.exit("usage: summary_ref.py SNAPSHOT [--top N] [--segments] | diff A B [--top N] | "
                     "collapsed SNAPSHOT [--at peak|end] [--device N]")
    except Bad as e:
        sys.exit("%s: %s" % (args[-1], e))
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
