#!/usr/bin/env python3
"""make_fixtures.py - write real-world-shaped SYNTHETIC PyTorch memory snapshots for the tests.

Each fixture is what torch.cuda.memory._snapshot() returns in a situation real snapshots come
from, built the way make_example.py builds its example (a simulated GPT training job, no GPU, no
torch) but through an allocator written here from c10/cuda/CUDACachingAllocator.cpp that also
knows expandable segments (ExpandableSegment, find_expandable_block, map_block, unmap_block,
release_blocks), several devices (one DeviceCachingAllocator each), private pools (CUDA graph
capture: beginAllocateToPool, a separate BlockPool pair, segment_pool_id) and history recorded
from some point on (_record_memory_history after the cache is warm: the blocks and segments of
before have no frames and no trace entries). The dictionary is laid out as
torch/csrc/cuda/Module.cpp lays it out (external_annotations as the profiler's record_function
ranges). tests/cli/snapshot_fixtures.sh reads every fixture with vramlab and with the reference
reader tests/snapshot/summary_ref.py and compares; and replays each trace through vramlab's
allocator model under the recorded options, which should make the same device calls and end
with the same segments as this allocator did.

    python3 tests/snapshot/make_fixtures.py -o DIR

writes into DIR:
  expandable.pickle   expandable_segments:True; history recorded after the first step (a warm
                      cache of mapped pages and live weights before the trace); empty_cache() in
                      the trace (pages unmapped); profiler steps as external_annotations
  two-devices.pickle  two GPUs, each its own allocator and trace; history recorded after the
                      first step; empty_cache() in the trace (both devices); a CUDA graph
                      captured on device 0 on a side stream into a private pool (1, 0), alive
                      at the snapshot; annotations on both devices
  windows.pickle      frames as PyTorch records them on Windows (C:\\ paths, no C++ frames, the
                      standard library under Lib\\); the third step doubles the batch and runs out
                      of memory on a 2 GiB card: the snapshot is taken at the OOM
  grow-a.pickle, grow-b.pickle
                      one run snapshotted after step 1 (A) and after step 4 (B); the script keeps
                      every step's output in a list, so B holds what grew (for `snapshot diff`)
  capacity.txt        the bytes each fixture's allocator could hold per device (for --capacity)

Deterministic: the same command writes the same bytes. Standard library only.
"""
import argparse
import bisect
import os
import pickle
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_example as ex  # noqa: E402  (frames, the training job, the clock)

KiB, MiB, GiB = ex.KiB, ex.MiB, ex.GiB
kMinBlockSize, kSmallSize, kSmallBuffer = 512, MiB, 2 * MiB
kLargeBuffer, kMinLargeAlloc, kRoundLarge = 20 * MiB, 10 * MiB, 2 * MiB
CAPTURE_STREAM = 0x55D2C8A0F3E0     # a side stream's cudaStream_t, as an int (torch.cuda.graph)


class OutOfMemory(ex.OutOfMemory):
    pass


class Block:
    __slots__ = ("addr", "size", "req", "alloc", "mapped", "prev", "next", "pool", "es",
                 "frames", "seg_frames", "stream")

    def __init__(self, addr, size, pool, stream, es=None):
        self.addr, self.size, self.pool, self.stream, self.es = addr, size, pool, stream, es
        self.req, self.alloc, self.mapped = 0, False, True
        self.prev = self.next = None
        self.frames, self.seg_frames = None, None


class BlockPool:
    """One BlockPool: free mapped blocks by (stream, size, addr), unmapped ones by (stream, addr)."""

    def __init__(self, small, pool_id):
        self.small, self.pool_id = small, pool_id
        self.blocks = []        # sorted (stream, size, addr)
        self.unmapped = []      # sorted (stream, addr)
        self.by_key = {}

    def insert(self, b):
        k = (b.stream, b.size, b.addr) if b.mapped else (b.stream, b.addr)
        bisect.insort(self.blocks if b.mapped else self.unmapped, k)
        self.by_key[(b.mapped,) + k] = b

    def erase(self, b):
        k = (b.stream, b.size, b.addr) if b.mapped else (b.stream, b.addr)
        lst = self.blocks if b.mapped else self.unmapped
        i = bisect.bisect_left(lst, k)
        assert lst[i] == k
        del lst[i]
        del self.by_key[(b.mapped,) + k]

    def block(self, mapped, k):
        return self.by_key[(mapped,) + k]


class ExpandableSegment:
    def __init__(self, base, page, npages):
        self.base, self.page, self.npages = base, page, npages
        self.handles = set()

    def size(self):
        return self.page * self.npages


class DeviceAllocator:
    """One DeviceCachingAllocator (PyTorch's default settings but for expandable_segments)."""

    def __init__(self, device, capacity, context_bytes, clock, expandable, frame_map=None):
        self.device, self.capacity, self.context = device, capacity, context_bytes
        self.clock, self.expandable, self.frame_map = clock, expandable, frame_map
        self.used = 0                                  # physical bytes held (cudaMalloc, pages)
        self.va = [(ex.VA_BASE + device * (1 << 44), 1 << 40)]
        self.exp_va = ex.VA_BASE + device * (1 << 44) + (1 << 42)
        self.pools = {}                                # (pool_id, small) -> BlockPool
        self.active = {}                               # addr -> Block
        self.segments = []                             # ExpandableSegments
        self.capture = None                            # (pool_id, stream) while capturing
        self.recording = False
        self.trace = []
        self.device_calls = [0, 0]                     # cudaMalloc+map, cudaFree+unmap

    # ---- history --------------------------------------------------------------------------
    def frames_of(self, frames):
        return self.frame_map(frames) if self.frame_map and frames else frames

    def record(self, action, addr, size, stream, frames, oom=False):
        if not self.recording:
            return
        e = {"action": action, "device_free" if oom else "addr": addr, "size": size,
             "stream": stream, "time_us": self.clock.now()}
        if frames is not None:
            e["frames"] = list(self.frames_of(frames))
        self.trace.append(e)

    def ctx(self, frames):
        """What a block remembers: its frames while history is recorded, else nothing."""
        return frames if self.recording else None

    # ---- the simulated driver -------------------------------------------------------------
    def room(self, size):
        return self.used + size <= self.capacity - self.context

    # cudaMalloc / cudaFree: make_example's first-fit driver
    cuda_malloc = ex.Allocator.cuda_malloc
    cuda_free = ex.Allocator.cuda_free

    # ---- sizes and pools ------------------------------------------------------------------
    @staticmethod
    def round_size(size):
        return kMinBlockSize if size < kMinBlockSize else \
            kMinBlockSize * ((size + kMinBlockSize - 1) // kMinBlockSize)

    @staticmethod
    def allocation_size(size):
        if size <= kSmallSize:
            return kSmallBuffer
        if size < kMinLargeAlloc:
            return kLargeBuffer
        return kRoundLarge * ((size + kRoundLarge - 1) // kRoundLarge)

    def get_pool(self, size):
        pid = self.capture[0] if self.capture else (0, 0)
        small = size <= kSmallSize
        key = (pid, small)
        if key not in self.pools:
            self.pools[key] = BlockPool(small, pid)
        return self.pools[key]

    def should_split(self, b, size):
        remaining = b.size - size
        if b.pool.small or self.expandable:
            return remaining >= kMinBlockSize
        return remaining > kSmallSize

    def get_free_block(self, pool, stream, size):
        i = bisect.bisect_left(pool.blocks, (stream, size, 0))
        if i == len(pool.blocks) or pool.blocks[i][0] != stream:
            return None
        b = pool.block(True, pool.blocks[i])
        if b.es is not None:
            def exp_size(x):
                return x.size + (x.next.size if x.next is not None and not x.next.mapped else 0)
            j = i + 1
            while b.es is not None and j < len(pool.blocks) and pool.blocks[j][0] == stream:
                nb = pool.block(True, pool.blocks[j])
                if exp_size(nb) >= exp_size(b):
                    break
                b = nb
                j += 1
        pool.erase(b)
        return b

    # ---- expandable segments --------------------------------------------------------------
    def find_expandable_block(self, pool, stream, size):
        def allocatable(b):
            return b is not None and not b.alloc

        def has_room(b):
            n = 0
            while n < size and allocatable(b):
                n += b.size
                b = b.next
            return n >= size
        i = bisect.bisect_left(pool.unmapped, (stream, 0))
        while i < len(pool.unmapped) and pool.unmapped[i][0] == stream:
            c = pool.block(False, pool.unmapped[i])
            if allocatable(c.prev):
                c = c.prev
            if has_room(c):
                return c
            i += 1
        page = kSmallBuffer if pool.small else kLargeBuffer
        total = self.capacity + self.capacity // 8
        es = ExpandableSegment(self.exp_va, page, (total + page - 1) // page)
        self.exp_va += (es.size() + GiB - 1) // GiB * GiB
        self.segments.append(es)
        c = Block(es.base, es.size(), pool, stream, es)
        c.mapped = False
        pool.insert(c)
        return c

    def map_block(self, b, size, frames):
        es = b.es
        begin = (b.addr - es.base) // es.page
        end = (b.addr + size - es.base + es.page - 1) // es.page
        if begin == end or not self.room((end - begin) * es.page):
            return False
        es.handles.update(range(begin, end))
        mapped = (end - begin) * es.page
        self.used += mapped
        at = b.addr
        pool = b.pool
        pool.erase(b)
        b.mapped = True
        if mapped < b.size:
            rest = Block(b.addr + mapped, b.size - mapped, pool, b.stream, es)
            rest.mapped = False
            rest.prev, rest.next = b, b.next
            if b.next is not None:
                b.next.prev = rest
            b.next = rest
            pool.insert(rest)
            b.size = mapped
        self.try_merge(b, b.prev, pool)
        self.try_merge(b, b.next, pool)
        pool.insert(b)
        self.device_calls[0] += 1
        self.record("segment_map", at, mapped, b.stream, frames)
        if b.prev is None and b.seg_frames is None:
            b.seg_frames = self.ctx(frames)
        return True

    def try_allocate_expandable_block(self, pool, stream, size, frames):
        c = self.find_expandable_block(pool, stream, size)
        if not c.mapped and not self.map_block(c, min(c.size, size), frames):
            return None
        while c.size < size:
            nxt = c.next
            if not self.map_block(nxt, min(size - c.size, nxt.size), frames):
                return None
            c = nxt
        pool.erase(c)
        return c

    def try_merge(self, dst, src, pool):
        if src is None or src.alloc or src.mapped != dst.mapped:
            return 0
        if dst.prev is src:
            dst.addr = src.addr
            dst.prev = src.prev
            if dst.prev is not None:
                dst.prev.next = dst
            dst.seg_frames = src.seg_frames
        else:
            dst.next = src.next
            if dst.next is not None:
                dst.next.prev = dst
        dst.size += src.size
        pool.erase(src)
        return src.size

    def unmap_block(self, b, frames):
        es = b.es
        begin = (b.addr - es.base + es.page - 1) // es.page
        end = (b.addr + b.size - es.base) // es.page
        if begin >= end:
            return
        pool = b.pool
        pool.erase(b)
        ustart, usize = es.base + begin * es.page, (end - begin) * es.page
        before = ustart - b.addr
        if before > 0:
            bf = Block(b.addr, before, pool, b.stream, es)
            bf.prev, bf.next = b.prev, b
            if b.prev is not None:
                b.prev.next = bf
            b.prev = bf
            pool.insert(bf)
        after = b.size - before - usize
        if after > 0:
            af = Block(ustart + usize, after, pool, b.stream, es)
            af.prev, af.next = b, b.next
            if b.next is not None:
                b.next.prev = af
            b.next = af
            pool.insert(af)
        b.addr, b.size, b.mapped = ustart, usize, False
        self.try_merge(b, b.prev, pool)
        self.try_merge(b, b.next, pool)
        pool.insert(b)
        es.handles.difference_update(range(begin, end))
        self.used -= usize
        self.device_calls[1] += 1
        self.record("segment_unmap", ustart, usize, b.stream, frames)

    # ---- segments -------------------------------------------------------------------------
    def alloc_block(self, pool, stream, size, alloc_size, frames):
        if self.expandable:
            return self.try_allocate_expandable_block(pool, stream, size, frames)
        addr = self.cuda_malloc(alloc_size)
        if addr is None:
            return None
        b = Block(addr, alloc_size, pool, stream)
        b.seg_frames = self.ctx(frames)
        self.device_calls[0] += 1
        self.record("segment_alloc", addr, alloc_size, stream, frames)
        return b

    def release_blocks(self, pool, frames):
        to_unmap = []
        for k in list(pool.blocks):
            b = pool.block(True, k)
            if b.es is not None:
                to_unmap.append(b)
            elif b.prev is None and b.next is None:
                pool.erase(b)
                self.device_calls[1] += 1
                self.record("segment_free", b.addr, b.size, b.stream, frames)
                self.cuda_free(b.addr, b.size)
        for b in to_unmap:
            self.unmap_block(b, frames)
            if b.prev is None and b.next is None:
                pool.erase(b)
                self.segments.remove(b.es)

    def empty_cache(self, frames):
        """release_cached_blocks: the default pools (large, then small); private pools only once
        no graph uses them (the fixtures keep their graph alive)."""
        for small in (False, True):
            pool = self.pools.get(((0, 0), small))
            if pool is not None:
                self.release_blocks(pool, frames)

    # ---- malloc and free --------------------------------------------------------------------
    def malloc(self, req, frames, stream=0):
        if self.capture:
            stream = self.capture[1]
        size = self.round_size(req)
        pool = self.get_pool(size)
        b = self.get_free_block(pool, stream, size)
        if b is None:
            alloc_size = self.allocation_size(size)
            b = self.alloc_block(pool, stream, size, alloc_size, frames)
            if b is None and not self.capture:
                self.empty_cache(frames)
                b = self.alloc_block(pool, stream, size, alloc_size, frames)
            if b is None:
                self.record("oom", self.capacity - self.context - self.used, size, stream,
                            frames, oom=True)
                raise OutOfMemory(size)
        if self.should_split(b, size):
            rest = b
            b = Block(rest.addr, size, pool, stream, rest.es)
            b.prev, b.next = rest.prev, rest
            if rest.prev is not None:
                rest.prev.next = b
            rest.prev = b
            b.seg_frames, rest.seg_frames = rest.seg_frames, None
            rest.addr += size
            rest.size -= size
            pool.insert(rest)
        b.alloc, b.req, b.frames = True, req, self.ctx(frames)
        self.active[b.addr] = b
        self.record("alloc", b.addr, req, stream, frames)
        return b.addr

    def release(self, addr, frames):
        b = self.active.pop(addr)
        self.record("free_requested", addr, b.req, b.stream, frames)
        self.record("free_completed", addr, b.req, b.stream, frames)
        b.alloc, b.frames = False, None
        for other in (b.prev, b.next):
            self.try_merge(b, other, b.pool)
        b.pool.insert(b)

    # ---- the snapshot -----------------------------------------------------------------------
    def segments_info(self):
        """DeviceCachingAllocator::snapshot(): one segment per cudaMalloc, one per mapped range
        of an expandable segment, by address."""
        blocks = [b for p in self.pools.values() for k in p.blocks for b in [p.block(True, k)]]
        blocks += list(self.active.values())
        out, total_active = [], 0
        for h in blocks:
            if h.prev is not None and h.prev.mapped:
                continue
            seg = {"device": self.device, "address": h.addr, "total_size": 0,
                   "allocated_size": 0, "active_size": 0, "requested_size": 0,
                   "stream": h.stream, "segment_type": "small" if h.pool.small else "large",
                   "segment_pool_id": h.pool.pool_id, "is_expandable": h.es is not None,
                   "frames": list(self.frames_of(h.seg_frames or [])), "blocks": []}
            b, addr = h, h.addr
            while b is not None and b.mapped:
                seg["blocks"].append({"address": addr, "size": b.size, "requested_size": b.req,
                                      "state": "active_allocated" if b.alloc else "inactive",
                                      "frames": list(self.frames_of(b.frames or []))})
                seg["total_size"] += b.size
                if b.alloc:
                    seg["allocated_size"] += b.size
                    seg["active_size"] += b.size
                    seg["requested_size"] += b.req
                addr += b.size
                b = b.next
            total_active += seg["active_size"]
            out.append(seg)
        out.sort(key=lambda s: s["address"])
        if self.recording:
            self.trace.append({"action": "snapshot", "addr": 0, "size": total_active,
                               "stream": 0, "time_us": self.clock.now()})
        return out


class Process:
    """One Python process: a NativeCachingAllocator over its devices, the profiler's
    annotations, one clock."""

    def __init__(self, caps, expandable=False, frame_map=None):
        self.clock = ex.Clock()
        self.devs = [DeviceAllocator(i, cap, ctx, self.clock, expandable, frame_map)
                     for i, (cap, ctx) in enumerate(caps)]
        self.expandable = expandable
        self.annotations = []

    def record_history(self):
        for d in self.devs:
            d.recording = True

    def empty_cache(self):
        for d in self.devs:
            d.empty_cache(ex.FREE_SITES["empty_cache"])

    def annotate(self, device, name, stage):
        if self.devs[device].recording:
            self.annotations.append({"stage": stage, "name": name, "device": device,
                                     "time_us": self.clock.now()})

    def snapshot(self):
        segs = []
        for d in self.devs:
            segs += d.segments_info()
        conf = "expandable_segments:True" if self.expandable else ""
        settings = {"PYTORCH_CUDA_ALLOC_CONF": conf, "max_split_size": -1,
                    "garbage_collection_threshold": 0.0, "expandable_segments": self.expandable,
                    "pinned_num_register_threads": 1, "release_lock_on_cudamalloc": False,
                    "pinned_use_cuda_host_register": False,
                    "roundup_power2_divisions": {str(1 << i): 0 for i in range(16)}}
        return {"segments": segs, "device_traces": [list(d.trace) for d in self.devs],
                "allocator_settings": settings,
                "external_annotations": list(self.annotations)}


def small_job(a, **kw):
    dims = dict(batch=2, seq=256, d=256, layers=2, vocab=8192, heads=4)
    dims.update(kw)
    return ex.Job(a, **dims)


def profiled_step(p, job, dev, n, first, **kw):
    name = "ProfilerStep#%d" % n
    p.annotate(dev, name, "START")
    job.step(first, **kw)
    p.annotate(dev, name, "END")


# ---- the fixtures ----------------------------------------------------------------------------

def expandable():
    p = Process([(8 * GiB, 400 * MiB)], expandable=True)
    job = small_job(p.devs[0])
    job.build()
    job.step(True)
    p.record_history()                      # torch.cuda.memory._record_memory_history()
    for n in (2, 3):
        profiled_step(p, job, 0, n, False)
        if n == 2:
            p.empty_cache()
    profiled_step(p, job, 0, 4, False, B=3)  # a longer batch: the segment grows at its end
    return p.snapshot()


GRAPH_SITE = ex.stack(ex.fr(ex.TORCH + "/cuda/graphs.py", 186, "capture_begin"),
                      ex.fr(ex.TORCH + "/cuda/graphs.py", 221, "__enter__"),
                      ex.fr(ex.USER + "/serve.py", 88, "capture"), top="forward")


def graph_capture(a, job):
    """torch.cuda.graph(g) around one forward of a small head: its activations are allocated in
    the graph's private pool on the capture stream; the static output stays alive."""
    a.capture = ((1, 0), CAPTURE_STREAM)
    x = a.malloc(4 * 64 * 1024, GRAPH_SITE)
    hs = [a.malloc(4 * 64 * 4096, ex.SITES["fc"]) for _ in range(3)]
    out = a.malloc(4 * 64 * 1024, ex.SITES["mlp_proj"])
    for h in hs:
        a.release(h, ex.FREE_SITES["forward"])
    a.capture = None
    return x, out


def two_devices():
    p = Process([(16 * GiB, 500 * MiB), (16 * GiB, 500 * MiB)])
    jobs = [small_job(p.devs[0]), small_job(p.devs[1], layers=1, d=128)]
    for j in jobs:
        j.build()
    for j in jobs:
        j.step(True)
    p.record_history()
    graph_capture(p.devs[0], jobs[0])
    for n in (2, 3):
        for dev, j in enumerate(jobs):
            profiled_step(p, j, dev, n, False)
        if n == 2:
            p.empty_cache()
    return p.snapshot()


WIN_USER = "C:\\Users\\alice\\nanogpt"
WIN_TORCH = "C:\\Users\\alice\\miniconda3\\Lib\\site-packages\\torch"
WIN_STDLIB = ex.fr("C:\\Users\\alice\\miniconda3\\Lib\\contextlib.py", 81, "inner")
_win = {}


def windows_frames(frames):
    """Frames as a Windows build records them: Python frames only, Windows paths; get_batch runs
    under a contextlib decorator (the standard library, not the user's code)."""
    key = id(frames)
    if key in _win:
        return _win[key][1]
    out = []
    for f in frames:
        fn = f["filename"]
        if not fn.endswith(".py"):
            continue
        if fn.startswith(ex.TORCH):
            fn = WIN_TORCH + fn[len(ex.TORCH):].replace("/", "\\")
        elif fn.startswith(ex.USER):
            fn = WIN_USER + fn[len(ex.USER):].replace("/", "\\")
        if f["name"] == "get_batch":
            out.append(WIN_STDLIB)
        out.append(ex.fr(fn, f["line"], f["name"]))
    _win[key] = (frames, out)          # keep frames alive: its id stays its own
    return out


def windows():
    p = Process([(1 * GiB, 300 * MiB)], frame_map=windows_frames)
    p.record_history()
    job = small_job(p.devs[0], batch=4)
    job.build()
    try:
        for n in range(3):
            job.step(n == 0, B=8 * job.B if n == 2 else None)
    except OutOfMemory:
        pass                                # the OOM observer dumps the snapshot here
    return p.snapshot()


HISTORY = ex.CPP_MALLOC + [ex.PYEVAL, ex.fr(ex.USER + "/train.py", 146, "<module>")] + ex.RUNPY


def grow():
    p = Process([(8 * GiB, 400 * MiB)])
    p.record_history()
    a = p.devs[0]
    job = small_job(a)
    job.build()
    kept, snaps = [], []
    for n in range(4):
        job.step(n == 0)
        # history.append(logits[:, -1].detach().clone()), a size that is not a multiple of 512
        kept.append(a.malloc(4 * 2 * 8192 * 97 + 68, HISTORY))
        if n in (0, 3):
            snaps.append(p.snapshot())
    return snaps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True, help="the folder to write into")
    args = ap.parse_args()
    os.makedirs(args.output, exist_ok=True)
    out = {"expandable": expandable(), "two-devices": two_devices(), "windows": windows()}
    out["grow-a"], out["grow-b"] = grow()
    for name, snap in out.items():
        with open(os.path.join(args.output, name + ".pickle"), "wb") as f:
            pickle.dump(snap, f, protocol=4)
    with open(os.path.join(args.output, "capacity.txt"), "w") as f:
        f.write("expandable %d\ntwo-devices %d\nwindows %d\ngrow %d\n"
                % (8 * GiB - 400 * MiB, 16 * GiB - 500 * MiB, 1 * GiB - 300 * MiB,
                   8 * GiB - 400 * MiB))


if __name__ == "__main__":
    main()
