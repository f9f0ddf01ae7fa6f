#!/usr/bin/env python3
"""make_example.py - write a SYNTHETIC PyTorch memory snapshot of a small GPT training job.

How it was made: no GPU and no torch were involved. A simulated training loop (a GPT-2-like
decoder: token and position embeddings, N transformer blocks with attention and MLP, a tied
language-model head, cross-entropy, AdamW) issues the CUDA tensor allocations and frees such a
job makes, in the order autograd makes them: weights at model.to("cuda"), activations per layer
in forward (the ones autograd saves stay alive), gradients in backward (the peak is at the start
of backward, when every saved activation and the logits' gradient are alive together), Adam's
two moment buffers at the first optimizer step, gradients freed by zero_grad(set_to_none=True).
Those requests go through a re-implementation of PyTorch's CUDA caching allocator under its
default settings (round_size, small/large pools, best fit, splitting, coalescing, the OOM
ladder, empty_cache; the rules and sources are in docs/allocator.md), on a simulated GPU whose
cudaMalloc hands out addresses the way the driver does. Everything that allocator does is
recorded as trace entries, and the final state as segments and blocks, exactly as
torch/csrc/cuda/Module.cpp (THCPModule_memorySnapshot) builds the _snapshot() dictionary:

  {"segments": [{"device", "address", "total_size", "allocated_size", "active_size",
                 "requested_size", "stream", "segment_type", "segment_pool_id",
                 "is_expandable", "blocks": [{"address", "size", "requested_size", "state",
                 "frames"}], "frames"}],
   "device_traces": [[{"action", "addr" (or "device_free" for oom), "size", "stream",
                       "time_us", "frames"}]],
   "allocator_settings": {...}, "external_annotations": []}

Frames are dicts {"name", "filename", "line"}, innermost first, C++ frames included as
_record_memory_history(stacks="all") records them (the unwinder's own frames first, C++ frames
often without a file, the interpreter's frames last); backward runs on autograd's device
thread, so its allocations carry no Python frame. The layout was checked against real
snapshots written by PyTorch 2.x. Timestamps come from a made-up clock. The pickle is
written with protocol 4, as pickle.dump writes a snapshot. The output is deterministic: the
same arguments give the same bytes (tests/cli/snapshot_example.sh checks the shipped files).

    python3 tests/snapshot/make_example.py -o assets/snapshots/gpt-train.pickle
    python3 tests/snapshot/make_example.py --variant oom -o assets/snapshots/gpt-train-oom.pickle
    python3 tests/snapshot/make_example.py --variant leak --steps 2 -o assets/snapshots/gpt-leak-step2.pickle
    python3 tests/snapshot/make_example.py --variant leak --steps 5 -o assets/snapshots/gpt-leak-step5.pickle
    python3 tests/snapshot/make_example.py --events 1000000 -o build/snap-1m.pickle  (benchmark)

Variants: "train" (three steps that fit), "oom" (the third step doubles the batch on purpose
and runs out of memory on an 8 GiB GPU; the snapshot is taken at the OOM, as an
out-of-memory observer does), "tiny" (one small step: a seed for the fuzz target), "leak" (the
training loop keeps every step's logits for a metric, `preds.append(logits.detach())`, which
holds their storage: --steps N steps, so two snapshots of one run diff to the leak).
Only the standard library is needed.
"""
import argparse
import bisect
import pickle
import sys

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
T0_US = 1733011200000000          # 2024-12-01 00:00:00 UTC, in microseconds
VA_BASE = 0x7F3A00000000          # where the simulated driver starts handing out addresses


class OutOfMemory(Exception):
    pass


# ---- frames ---------------------------------------------------------------------------------

TORCH = "/usr/local/lib/python3.11/site-packages/torch"
USER = "/home/alice/nanogpt"
_frames = {}


def fr(filename, line, name):
    """One frame dict, shared like PyTorch's symbolizer shares equal frames."""
    key = (filename, line, name)
    if key not in _frames:
        _frames[key] = {"name": name, "filename": filename, "line": line}  # symbolize's order
    return _frames[key]


# C++ frames as the unwinder reports them: often no file ("??" or "") and line 0
GATHER = [fr("??", 0, "torch::unwind::unwind()"),
          fr("??", 0, "torch::CapturedTraceback::gather(bool, bool, bool)"),
          fr("memory_snapshot.cpp", 0, "torch::cuda::(anonymous namespace)::gather_with_cpp()")]
CPP_MALLOC = GATHER + [
    fr("CUDACachingAllocator.cpp", 0, "c10::cuda::CUDACachingAllocator::Native::"
       "DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)"),
    fr("", 0, "c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::"
       "allocate(unsigned long)"),
    fr("??", 0, "at::detail::empty_cuda(c10::ArrayRef<long>, c10::ScalarType, "
       "std::optional<c10::Device>, std::optional<c10::MemoryFormat>)"),
]
CPP_FREE = GATHER + [
    fr("CUDACachingAllocator.cpp", 0, "c10::cuda::CUDACachingAllocator::Native::"
       "DeviceCachingAllocator::free(c10::cuda::CUDACachingAllocator::Native::Block*)"),
    fr("??", 0, "c10::StorageImpl::~StorageImpl()"),
]
PYEVAL = fr("Python/ceval.c", 4748, "_PyEval_EvalFrameDefault")
CALL = fr(TORCH + "/nn/modules/module.py", 1747, "_call_impl")
TRAIN = {
    "to": fr(USER + "/train.py", 112, "<module>"),
    "forward": fr(USER + "/train.py", 131, "<module>"),
    "backward": fr(USER + "/train.py", 135, "<module>"),
    "step": fr(USER + "/train.py", 139, "<module>"),
    "zero_grad": fr(USER + "/train.py", 140, "<module>"),
    "data": fr(USER + "/train.py", 127, "<module>"),
    "empty_cache": fr(USER + "/train.py", 143, "<module>"),
}
# the interpreter's own frames, outermost last
RUNPY = [fr("/usr/local/src/conda/python-3.11.7/Python/pythonrun.c", 1744, "_PyRun_SimpleFileObject"),
         fr("/usr/local/src/conda/python-3.11.7/Modules/main.c", 723, "Py_RunMain"),
         fr("./csu/../csu/libc-start.c", 392, "__libc_start_main_impl"),
         fr("??", 0, "_start")]


def stack(*inner, top="forward"):
    return CPP_MALLOC + [PYEVAL] + list(inner) + [TRAIN[top]] + RUNPY


def model_site(torch_file, torch_line, torch_name, user_line, user_name, block=True):
    """A forward allocation: torch's op inside the user's module, inside GPT.forward."""
    inner = [fr(TORCH + torch_file, torch_line, torch_name), CALL,
             fr(USER + "/model.py", user_line, user_name), CALL]
    if block:
        inner += [fr(USER + "/model.py", 104, "forward"), CALL]
    inner += [fr(USER + "/model.py", 171, "forward"), CALL]
    return stack(*inner)


SITES = {
    "param": stack(fr(TORCH + "/nn/modules/module.py", 1326, "convert"),
                   fr(TORCH + "/nn/modules/module.py", 942, "_apply"),
                   fr(TORCH + "/nn/modules/module.py", 1340, "to"), top="to"),
    "batch": stack(fr(USER + "/train.py", 61, "get_batch"), top="data"),
    "embed": model_site("/nn/modules/sparse.py", 190, "forward", 160, "forward", block=False),
    "ln": model_site("/nn/functional.py", 2900, "layer_norm", 98, "forward"),
    "qkv": model_site("/nn/modules/linear.py", 125, "forward", 52, "forward"),
    "scores": model_site("/functional.py", 402, "einsum", 55, "forward"),
    "softmax": model_site("/nn/functional.py", 2140, "softmax", 57, "forward"),
    "attn_out": model_site("/functional.py", 402, "einsum", 59, "forward"),
    "attn_proj": model_site("/nn/modules/linear.py", 125, "forward", 61, "forward"),
    "residual": stack(fr(USER + "/model.py", 101, "forward"), CALL,
                      fr(USER + "/model.py", 171, "forward"), CALL),
    "fc": model_site("/nn/modules/linear.py", 125, "forward", 80, "forward"),
    "gelu": model_site("/nn/functional.py", 1702, "gelu", 81, "forward"),
    "mlp_proj": model_site("/nn/modules/linear.py", 125, "forward", 82, "forward"),
    "logits": model_site("/nn/modules/linear.py", 125, "forward", 176, "forward", block=False),
    "loss": model_site("/nn/functional.py", 3479, "cross_entropy", 178, "forward", block=False),
    # backward runs on autograd's device thread: C++ frames only
    "grad": CPP_MALLOC + [fr("??", 0, "torch::autograd::Engine::evaluate_function("
                             "std::shared_ptr<torch::autograd::GraphTask>&, torch::autograd::Node*, "
                             "torch::autograd::InputBuffer&, std::shared_ptr<torch::autograd::"
                             "ReadyQueue> const&)"),
                          fr("??", 0, "torch::autograd::Engine::thread_main("
                             "std::shared_ptr<torch::autograd::GraphTask> const&)")],
    "adam_state": stack(fr(TORCH + "/optim/adamw.py", 163, "_init_group"),
                        fr(TORCH + "/optim/adamw.py", 209, "step"),
                        fr(TORCH + "/optim/optimizer.py", 487, "wrapper"), top="step"),
    "adam_tmp": stack(fr(TORCH + "/optim/adamw.py", 598, "_multi_tensor_adamw"),
                      fr(TORCH + "/optim/adamw.py", 209, "step"),
                      fr(TORCH + "/optim/optimizer.py", 487, "wrapper"), top="step"),
}
FREE_SITES = {
    "forward": CPP_FREE + [PYEVAL, TRAIN["forward"]] + RUNPY,
    "backward": CPP_FREE + [fr("??", 0, "torch::autograd::Engine::thread_main("
                               "std::shared_ptr<torch::autograd::GraphTask> const&)")],
    "step": CPP_FREE + [fr(TORCH + "/optim/adamw.py", 598, "_multi_tensor_adamw"), PYEVAL,
                        TRAIN["step"]] + RUNPY,
    "zero_grad": CPP_FREE + [fr(TORCH + "/optim/optimizer.py", 955, "zero_grad"), PYEVAL,
                             TRAIN["zero_grad"]] + RUNPY,
    "empty_cache": [fr(TORCH + "/cuda/memory.py", 192, "empty_cache"), TRAIN["empty_cache"]]
                   + RUNPY,
}


# ---- the caching allocator (PyTorch's default rules; docs/allocator.md) ----------------------

class Block:
    __slots__ = ("addr", "size", "req", "alloc", "seg", "prev", "next", "frames")

    def __init__(self, addr, size, seg):
        self.addr, self.size, self.seg = addr, size, seg
        self.req, self.alloc, self.prev, self.next, self.frames = 0, False, None, None, []


class Segment:
    __slots__ = ("addr", "size", "small", "head", "frames")


class Allocator:
    def __init__(self, capacity, context_bytes, clock):
        self.capacity, self.context = capacity, context_bytes
        self.clock = clock
        self.used = 0                      # bytes cudaMalloc'ed
        self.free = {True: [], False: []}  # per pool (small?): sorted (size, addr)
        self.free_blk = {}                 # addr -> free Block
        self.live = {}                     # addr -> allocated Block
        self.segs = {}                     # addr -> Segment
        self.va = [(VA_BASE, 1 << 40)]     # the driver's free address ranges
        self.trace = []

    # trace entries, keys in Module.cpp's order
    def record(self, action, addr, size, frames, oom=False):
        e = {"action": action, "device_free" if oom else "addr": addr, "size": size,
             "stream": 0, "time_us": self.clock.now()}
        if frames is not None:
            e["frames"] = list(frames)     # one list per entry, of shared frame dicts
        self.trace.append(e)

    # the simulated driver: first fit, 2 MiB aligned
    def cuda_malloc(self, size):
        if self.used + size > self.capacity - self.context:
            return None
        for i, (a, n) in enumerate(self.va):
            if n >= size:
                self.va[i] = (a + size, n - size)
                self.used += size
                return a
        return None

    def cuda_free(self, addr, size):
        self.used -= size
        self.va.append((addr, size))
        self.va.sort()
        merged = []
        for a, n in self.va:
            if merged and merged[-1][0] + merged[-1][1] == a:
                merged[-1] = (merged[-1][0], merged[-1][1] + n)
            else:
                merged.append((a, n))
        self.va = [(a, n) for a, n in merged if n]

    def insert_free(self, b):
        bisect.insort(self.free[b.seg.small], (b.size, b.addr))
        self.free_blk[b.addr] = b

    def erase_free(self, b):
        lst = self.free[b.seg.small]
        del lst[bisect.bisect_left(lst, (b.size, b.addr))]
        del self.free_blk[b.addr]

    def alloc_block(self, small, alloc_size, frames):
        addr = self.cuda_malloc(alloc_size)
        if addr is None:
            return None
        s = Segment()
        s.addr, s.size, s.small, s.frames = addr, alloc_size, small, frames
        b = Block(addr, alloc_size, s)
        s.head = b
        self.segs[addr] = s
        self.record("segment_alloc", addr, alloc_size, frames)
        return b

    def release_cached(self, frames):
        """release_cached_blocks: large pool, then small, each in (size, addr) order."""
        for small in (False, True):
            for size, addr in list(self.free[small]):
                b = self.free_blk[addr]
                if b.prev is None and b.next is None:
                    self.erase_free(b)
                    del self.segs[b.seg.addr]
                    self.record("segment_free", addr, size, frames)
                    self.cuda_free(addr, size)

    def malloc(self, req, frames):
        size = max(512, (req + 511) // 512 * 512)
        small = size <= MiB
        if small:
            alloc_size = 2 * MiB
        elif size < 10 * MiB:
            alloc_size = 20 * MiB
        else:
            alloc_size = (size + 2 * MiB - 1) // (2 * MiB) * (2 * MiB)
        lst = self.free[small]
        i = bisect.bisect_left(lst, (size, 0))
        if i < len(lst):
            b = self.free_blk[lst[i][1]]
            self.erase_free(b)
        else:
            b = self.alloc_block(small, alloc_size, frames)
            if b is None:
                self.release_cached(frames)
                b = self.alloc_block(small, alloc_size, frames)
            if b is None:
                device_free = self.capacity - self.context - self.used
                self.record("oom", device_free, size, frames, oom=True)
                raise OutOfMemory(size)
        remaining = b.size - size
        if remaining >= 512 if small else remaining > MiB:
            rest = b
            b = Block(rest.addr, size, rest.seg)
            b.prev, b.next = rest.prev, rest
            if rest.prev:
                rest.prev.next = b
            else:
                rest.seg.head = b
            rest.prev = b
            rest.addr += size
            rest.size -= size
            self.insert_free(rest)
        b.alloc, b.req, b.frames = True, req, frames
        self.live[b.addr] = b
        self.record("alloc", b.addr, req, frames)
        return b.addr

    def release(self, addr, frames):
        b = self.live.pop(addr)
        self.record("free_requested", addr, b.req, frames)
        self.record("free_completed", addr, b.req, frames)
        b.alloc, b.frames = False, []
        for other in (b.prev, b.next):
            if other is None or other.alloc:
                continue
            self.erase_free(other)
            if other is b.prev:
                b.addr = other.addr
                b.prev = other.prev
                if b.prev:
                    b.prev.next = b
                else:
                    b.seg.head = b
            else:
                b.next = other.next
                if b.next:
                    b.next.prev = b
            b.size += other.size
        self.insert_free(b)

    def snapshot(self):
        segments, total_active = [], 0
        for addr in sorted(self.segs):
            s = self.segs[addr]
            blocks, allocated, active, requested = [], 0, 0, 0
            b = s.head
            while b:
                blocks.append({"address": b.addr, "size": b.size, "requested_size": b.req,
                               "state": "active_allocated" if b.alloc else "inactive",
                               "frames": list(b.frames)})
                if b.alloc:
                    allocated += b.size
                    active += b.size
                    requested += b.req
                b = b.next
            total_active += active
            segments.append({"device": 0, "address": s.addr, "total_size": s.size,
                             "allocated_size": allocated, "active_size": active,
                             "requested_size": requested, "stream": 0,
                             "segment_type": "small" if s.small else "large",
                             "segment_pool_id": (0, 0), "is_expandable": False,
                             "frames": list(s.frames), "blocks": blocks})
        self.record("snapshot", 0, total_active, None)
        settings = {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
                    "garbage_collection_threshold": 0.0, "expandable_segments": False,
                    "pinned_num_register_threads": 1, "release_lock_on_cudamalloc": False,
                    "pinned_use_cuda_host_register": False,
                    "roundup_power2_divisions": {str(1 << i): 0 for i in range(16)}}
        return {"segments": segments, "device_traces": [self.trace],
                "allocator_settings": settings, "external_annotations": []}


class Clock:
    """Deterministic made-up time: each call advances, kernels take time by size."""

    def __init__(self):
        self.t = T0_US

    def now(self):
        self.t += 3
        return self.t

    def work(self, nbytes):
        self.t += 5 + nbytes // 400000   # ~400 GB/s of made-up kernel time


# ---- the training job ---------------------------------------------------------------------------

class Job:
    def __init__(self, a, batch, seq, d, layers, vocab, heads):
        self.a, self.B, self.T, self.d, self.L, self.V, self.H = a, batch, seq, d, layers, vocab, heads
        self.params = []    # (name, bytes, addr)
        self.grads = {}     # name -> addr
        self.adam = []
        self.kept = []      # logits a leaky loop keeps

    def alloc(self, nbytes, site):
        self.a.clock.work(nbytes)
        return self.a.malloc(nbytes, SITES[site])

    def free(self, addr, site):
        self.a.release(addr, FREE_SITES[site])

    def build(self):
        d, V = self.d, self.V
        shapes = [("wte", V * d), ("wpe", 1024 * d)]
        for i in range(self.L):
            shapes += [(f"h{i}.ln_1.w", d), (f"h{i}.ln_1.b", d),
                       (f"h{i}.attn.c_attn.w", 3 * d * d), (f"h{i}.attn.c_attn.b", 3 * d),
                       (f"h{i}.attn.c_proj.w", d * d), (f"h{i}.attn.c_proj.b", d),
                       (f"h{i}.ln_2.w", d), (f"h{i}.ln_2.b", d),
                       (f"h{i}.mlp.c_fc.w", 4 * d * d), (f"h{i}.mlp.c_fc.b", 4 * d),
                       (f"h{i}.mlp.c_proj.w", 4 * d * d), (f"h{i}.mlp.c_proj.b", d)]
        shapes += [("ln_f.w", d), ("ln_f.b", d)]
        for name, n in shapes:
            self.params.append((name, 4 * n, self.alloc(4 * n, "param")))

    def step(self, first_step, B=None, keep_logits=False):
        B = B or self.B
        T, d, V, H = self.T, self.d, self.V, self.H
        btd, f4 = 4 * B * T * d, 4
        idx = self.alloc(8 * B * T, "batch")
        tgt = self.alloc(8 * B * T, "batch")
        saved = []                          # what autograd keeps for backward, in order

        def keep(n, site):
            a = self.alloc(n, site)
            saved.append((a, n))
            return a

        keep(btd, "embed")                  # tok_emb + pos_emb
        tmp = self.alloc(btd, "embed")
        self.free(tmp, "forward")
        for _ in range(self.L):
            keep(btd, "ln")                 # ln_1 output
            keep(f4 * B * T, "ln")          # mean
            keep(f4 * B * T, "ln")          # rstd
            keep(3 * btd, "qkv")
            s = self.alloc(f4 * B * H * T * T, "scores")
            keep(f4 * B * H * T * T, "softmax")
            self.free(s, "forward")
            y = self.alloc(btd, "attn_out")
            keep(btd, "attn_out")           # contiguous copy for c_proj
            self.free(y, "forward")
            p = self.alloc(btd, "attn_proj")
            keep(btd, "residual")           # x + attn
            self.free(p, "forward")
            keep(btd, "ln")                 # ln_2 output
            keep(f4 * B * T, "ln")
            keep(f4 * B * T, "ln")
            keep(4 * btd, "fc")
            keep(4 * btd, "gelu")
            m = self.alloc(btd, "mlp_proj")
            keep(btd, "residual")           # x + mlp
            self.free(m, "forward")
        keep(btd, "ln")                     # ln_f
        logits = self.alloc(4 * B * T * V, "logits")
        logp = keep(4 * B * T * V, "loss")  # log_softmax, saved by nll_loss
        loss = self.alloc(4, "loss")
        self.a.clock.work(4 * B * T * V)

        # backward: the logits' gradient, then each layer in reverse; saved tensors go as
        # their nodes finish, parameter gradients appear (set_to_none left them unallocated)
        g = self.alloc(4 * B * T * V, "grad")         # d loss / d log_softmax
        gl = self.alloc(4 * B * T * V, "grad")        # d loss / d logits
        self.free(g, "backward")
        a, _ = saved.pop()
        self.free(a, "backward")                      # log_softmax output
        gx = self.alloc(btd, "grad")
        self.free(gl, "backward")
        pi = len(self.params) - 1

        def param_grad():
            nonlocal pi
            name, n, _ = self.params[pi]
            pi -= 1
            if name not in self.grads:
                self.grads[name] = self.alloc(n, "grad")
            else:                                     # tied weight: accumulate
                t = self.alloc(n, "grad")
                self.free(t, "backward")

        param_grad(); param_grad()                    # ln_f
        a, _ = saved.pop()
        self.free(a, "backward")
        for _ in range(self.L):
            for _k in range(12):
                param_grad()
            for _k in range(13):                      # this block's saved tensors
                a, n = saved.pop()
                if n >= btd:                          # the gradient of a full activation
                    gnew = self.alloc(n, "grad")
                    self.free(gx, "backward")
                    gx = gnew
                self.free(a, "backward")
        param_grad(); param_grad()                    # wpe, wte (tied with the head)
        a, _ = saved.pop()
        self.free(a, "backward")                      # embedding output
        self.free(gx, "backward")
        assert not saved
        self.free(loss, "forward")
        if keep_logits:                               # preds.append(logits.detach()): a leak
            self.kept.append(logits)
        else:
            self.free(logits, "forward")
        self.free(idx, "forward")
        self.free(tgt, "forward")

        # optimizer.step(): Adam's moments at the first step, foreach temporaries each step
        if first_step:
            for name, n, _ in self.params:
                self.adam.append(self.alloc(n, "adam_state"))
                self.adam.append(self.alloc(n, "adam_state"))
        tmps = [self.alloc(n, "adam_tmp") for _, n, _ in self.params]
        for t in tmps:
            self.free(t, "step")
        # optimizer.zero_grad(set_to_none=True)
        for name, _, _ in self.params:
            self.free(self.grads.pop(name), "zero_grad")


def make(variant, events, steps_wanted=2):
    clock = Clock()
    if variant == "tiny":
        a = Allocator(1 * GiB, 0, clock)
        job = Job(a, batch=2, seq=16, d=64, layers=1, vocab=256, heads=2)
    else:
        a = Allocator(8 * GiB, 400 * MiB, clock)   # an 8 GiB card; the CUDA context takes 400 MiB
        job = Job(a, batch=4, seq=512, d=768, layers=4, vocab=50304, heads=12)
    job.build()
    steps = 1 if variant == "tiny" else (steps_wanted if variant == "leak" else 3)
    s = 0
    while True:
        try:
            if variant == "oom" and s == 2:
                job.step(False, B=4 * job.B)        # "let's try a bigger batch"
            else:
                job.step(s == 0, keep_logits=variant == "leak")
        except OutOfMemory:
            break                                   # an OOM observer dumps the snapshot here
        s += 1
        if s == 1 and variant != "tiny":
            a.release_cached(FREE_SITES["empty_cache"])   # torch.cuda.empty_cache()
        if s >= steps and len(a.trace) >= events:
            break
    return a.snapshot()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=("train", "oom", "tiny", "leak"), default="train")
    ap.add_argument("--steps", type=int, default=2, help="leak: how many training steps before the snapshot")
    ap.add_argument("--events", type=int, default=0,
                    help="repeat training steps until the trace has at least this many entries")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    snap = make(args.variant, args.events, args.steps)
    with open(args.output, "wb") as f:
        pickle.dump(snap, f, protocol=4)


if __name__ == "__main__":
    main()
