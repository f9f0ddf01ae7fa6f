#!/usr/bin/env python3
"""snapshot_to_trace.py - turn a PyTorch memory snapshot into a vramlab allocator trace.

Record the snapshot in your PyTorch program:

    torch.cuda.memory._record_memory_history(max_entries=1_000_000)
    ...  # the workload
    torch.cuda.memory._dump_snapshot("snapshot.pickle")

vramlab reads the pickle itself (no Python needed) and replays it beside what PyTorch did:

    vramlab snapshot snapshot.pickle --replay expandable_segments:True --capacity 24GiB

(docs/snapshot.md). To get the text trace format instead, convert it:

    python3 docs/snapshot_to_trace.py snapshot.pickle > run.trace
    python3 docs/snapshot_to_trace.py snapshot.pickle --device 1 -o run.trace

The trace format is described in docs/allocator.md ("Trace format"). Only the standard library
is needed: the pickle holds plain dicts and lists, so torch need not be installed. The file is
unpickled with every global refused (find_class), so no code in it runs: a pickle that names a
class or function is not a memory snapshot and is refused with a message.

What maps to what (device_traces entries, by "action"):
  alloc            -> "a <id> <size>"   (size is the size the program asked for)
  free_completed   -> "f <id>"          (free_requested is skipped: with record_stream the
                                         memory comes back later, at free_completed)
  segment_free / segment_unmap runs that no allocation follows -> "e" (empty_cache);
                      runs followed by segment_alloc/segment_map or an oom belong to the
                      allocator's own OOM retry, which the replay redoes by itself
  oom              -> a comment; the failed request is not in the trace (PyTorch records no
                      alloc for it), so the replay only fails there if it runs short as well
  everything else  -> ignored
The history is a ring buffer, and recording may have started late: blocks allocated before its
first entry are allocated first, in address order ("a" lines before the history's), with the
size the program asked for: those the history frees (their free_completed's size) and those
still live in the snapshot's segments (requested_size). The model places them itself, so the
cache before the history is not the recorded one (`vramlab snapshot FILE --replay` starts from
the recorded segments exactly). Ids are numbered from 1.
"""
import argparse
import pickle
import sys

SEG_RELEASE = ("segment_free", "segment_unmap")
SEG_GROW = ("segment_alloc", "segment_map")


class Refused(Exception):
    pass


class PlainUnpickler(pickle.Unpickler):
    """A snapshot is dicts, lists, tuples, str, int, float, bool and None: no global is needed,
    so none is imported (and no code from the file runs)."""

    def find_class(self, module, name):
        raise Refused("the pickle names %s.%s: not a memory snapshot (it would run code; refused)"
                      % (module, name))


def pre_trace(snapshot, device, events):
    """The blocks live before the history's first entry, as (address, requested size) by
    address: each free_completed of an address no open alloc entry holds, and each active block
    of the final segments that no alloc entry still open at the end accounts for."""
    open_, pre = set(), {}
    for e in events:
        act = e.get("action")
        if act == "alloc":
            open_.add(e["addr"])
        elif act == "free_completed":
            if e["addr"] in open_:
                open_.discard(e["addr"])
            elif e["addr"] not in pre:
                pre[e["addr"]] = e["size"]
    for seg in snapshot["segments"]:
        if seg.get("device", 0) != device:
            continue
        addr = seg["address"]
        for b in seg.get("blocks") or []:
            at = b.get("address", addr)
            if b.get("state") in ("active_allocated", "active_pending_free") and \
                    at not in open_ and at not in pre:
                pre[at] = b.get("requested_size", b["size"])
            addr += b["size"]
    return sorted(pre.items())


def convert(snapshot, device, out):
    if type(snapshot) is not dict or type(snapshot.get("segments")) is not list:
        raise Refused("not a PyTorch memory snapshot (a dict with a 'segments' list)")
    traces = snapshot.get("device_traces") or []
    if device >= len(traces):
        raise Refused("no device_traces for device %d (have %d)" % (device, len(traces)))
    events = traces[device]
    out.write("# vramlab allocator trace v1\n")
    out.write("# from a torch.cuda.memory._snapshot(), device %d, %d history entries\n"
              % (device, len(events)))
    streams = {e.get("stream", 0) for e in events}
    if len(streams) > 1:
        out.write("# note: %d streams in the history; the model has one stream, so blocks are "
                  "shared across them\n" % len(streams))
    live = {}        # address -> id
    next_id = 1
    pre = pre_trace(snapshot, device, events)
    if pre:
        out.write("# %d blocks live before the history starts (%d bytes asked for), allocated "
                  "first\n" % (len(pre), sum(size for _, size in pre)))
    for addr, size in pre:
        if size > 0:
            live[addr] = next_id
            out.write("a %d %d\n" % (next_id, size))
            next_id += 1
    if pre:
        out.write("# the history\n")
    unknown_frees = 0
    i, n = 0, len(events)
    while i < n:
        e = events[i]
        action = e.get("action")
        if action == "alloc":
            live[e["addr"]] = next_id
            out.write("a %d %d\n" % (next_id, e["size"]))
            next_id += 1
        elif action == "free_completed":
            ident = live.pop(e["addr"], None)
            if ident is None:
                unknown_frees += 1
                out.write("# free of 0x%x, which no entry allocated\n" % e["addr"])
            else:
                out.write("f %d\n" % ident)
        elif action in SEG_RELEASE:
            j = i
            while j < n and events[j].get("action") in SEG_RELEASE:
                j += 1
            follower = events[j].get("action") if j < n else None
            if follower not in SEG_GROW and follower != "oom":
                out.write("e\n")
            i = j
            continue
        elif action == "oom":
            out.write("# oom here in the recorded run (device_free %s)\n" % e.get("device_free", "?"))
        i += 1
    out.write("# %d allocations still live at the end, %d frees of unknown blocks\n"
              % (len(live), unknown_frees))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("snapshot", help="pickle written by torch.cuda.memory._dump_snapshot()")
    ap.add_argument("--device", type=int, default=0, help="which device's history (default 0)")
    ap.add_argument("-o", "--output", help="trace file to write (default: standard output)")
    args = ap.parse_args()
    try:
        with open(args.snapshot, "rb") as f:
            snapshot = PlainUnpickler(f).load()
        if args.output:
            with open(args.output, "w") as out:
                convert(snapshot, args.device, out)
        else:
            convert(snapshot, args.device, sys.stdout)
    except (Refused, pickle.UnpicklingError, EOFError, KeyError, TypeError) as e:
        sys.exit("snapshot_to_trace: %s: %s" % (args.snapshot, e))


if __name__ == "__main__":
    main()
