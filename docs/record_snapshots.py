#!/usr/bin/env python3
"""record_snapshots.py - record, on a real GPU with PyTorch, the memory snapshots and figures that
vramlab's lessons show from synthetic examples, so a teacher can replace them with their own.

    python3 docs/record_snapshots.py --out my-snapshots            # everything below
    python3 docs/record_snapshots.py --out my-snapshots --only leak,phases

What it writes into --out (the names the lessons use; copy the .pickle files into a teacher's
lessons folder as assets/snapshots/NAME.pickle, under a name of your own, and point the lessons
there: alloc.snapshot and `vramlab snapshot` read them as they read the shipped ones):

  gpt-train.pickle        lesson 2.6: three training steps that fit (the first creates AdamW's
                          state; torch.cuda.empty_cache() after it), the history of every
                          allocation with Python and C++ stacks
  gpt-train-oom.pickle    lesson 2.6: the same job on a card capped at CAP_GIB
                          (torch.cuda.set_per_process_memory_fraction), the third step at
                          OOM_BATCH; the snapshot is dumped by an out-of-memory observer
  gpt-leak-step2.pickle,  lesson 2.6: a loop that keeps every step's logits for a metric
  gpt-leak-step5.pickle   (preds.append(logits.detach())), snapshots after steps 2 and 5 of one
                          run: `vramlab snapshot diff` shows the leak
  phases.json             lessons 2.6 and 4.1: max_memory_allocated(), memory_allocated(),
                          memory_reserved() and mem_get_info() at the end of each phase of steps 1
                          and 2, with the peaks reset between phases
  ddp.json                lessons 4.5 and 4.6: a one-process DDP job (NCCL, world size 1) with and
                          without gradient_as_bucket_view: the peaks, and the bytes the buckets add
  context.json            lesson 2.4: the CUDA context measured with mem_get_info in two fresh
                          processes, CUDA_MODULE_LOADING=LAZY and EAGER

The settings are the SETTINGS table below, named so a figure in a lesson can be traced to them;
they match tests/snapshot/make_example.py's synthetic job (a GPT-2-like model of 4 layers, d = 768,
12 heads, vocabulary 50 304, sequence 512, micro-batch 4, fp32 AdamW) and 4.1's small model
(4 layers, d = 512, 8 heads, sequence 512, micro-batch 4) for the phases. What a real GPU records
differs from the synthetic files in its addresses, timings, stacks and the kernels' workspaces:
that is the point of recording.

Needs Python 3.8+, PyTorch with CUDA and one GPU. The pure helpers (parameter counts, the memory
fraction, the file names, the settings) import nothing and are tested without torch by
tests/cli/record_script.sh; torch is imported only when recording.
"""
import argparse
import json
import os
import subprocess
import sys

GiB = 1 << 30

SETTINGS = {
    # the synthetic example's job (tests/snapshot/make_example.py)
    "train": {"layers": 4, "d": 768, "heads": 12, "vocab": 50304, "seq": 512, "positions": 1024,
              "batch": 4, "steps": 3, "lr": 3e-4, "dtype": "float32", "seed": 1},
    # the OOM variant: a card capped to CAP_GIB, the third step's batch
    "oom": {"cap_gib": 8, "oom_batch": 16},
    # the leak: snapshots after these steps of one run
    "leak": {"steps": (2, 5)},
    # 4.1's small model for the phase peaks, bf16 autocast over fp32 parameters
    "phases": {"layers": 4, "d": 512, "heads": 8, "vocab": 50257, "seq": 512, "positions": 512,
               "batch": 4, "steps": 2, "autocast": "bfloat16"},
    # DDP's buckets: torch's default bucket_cap_mb
    "ddp": {"bucket_cap_mb": 25},
    "history": {"max_entries": 100_000, "stacks": "all"},
}

OUTPUTS = {
    "train": ["gpt-train.pickle"],
    "oom": ["gpt-train-oom.pickle"],
    "leak": ["gpt-leak-step2.pickle", "gpt-leak-step5.pickle"],
    "phases": ["phases.json"],
    "ddp": ["ddp.json"],
    "context": ["context.json"],
}
PHASES = ("forward", "backward", "optimizer")


# ---- pure helpers (no torch) ------------------------------------------------------------------

def param_count(layers, d, vocab, positions, ffn=None):
    """Parameters of the GPT-2-like model below: token and position embeddings, per block two
    LayerNorms (2d each), fused QKV (3d^2 + 3d), projection (d^2 + d), MLP (2 d ffn + ffn + d),
    a final LayerNorm (2d) and an LM head tied to the token embedding. vramlab's
    vram.transformer counts the same (12d^2 + 13d per block with ffn = 4d)."""
    ffn = 4 * d if ffn is None else ffn
    block = 4 * d + 3 * d * d + 3 * d + d * d + d + 2 * d * ffn + ffn + d
    return vocab * d + positions * d + layers * block + 2 * d


def memory_fraction(cap_bytes, total_bytes):
    """The fraction for torch.cuda.set_per_process_memory_fraction that lets the caching
    allocator hold cap_bytes of a device of total_bytes (at most 1)."""
    if total_bytes <= 0 or cap_bytes <= 0:
        raise ValueError("cap and total must be positive byte counts")
    return min(1.0, cap_bytes / total_bytes)


def outputs(only=None):
    """The files a run writes, in order: every kind, or those named in `only`."""
    kinds = list(OUTPUTS) if not only else list(only)
    for k in kinds:
        if k not in OUTPUTS:
            raise ValueError(f"unknown kind {k!r} (kinds: {', '.join(OUTPUTS)})")
    return [name for k in kinds for name in OUTPUTS[k]]


def parse_only(text):
    """'leak,phases' -> ['leak', 'phases'] (checked); '' or None -> None (everything)."""
    if not text:
        return None
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    outputs(kinds)  # raises on an unknown kind
    return kinds


def phase_row(step, phase, peak, allocated, reserved, free):
    """One row of phases.json: what PyTorch's counters read at the end of a phase."""
    return {"step": step, "phase": phase, "max_memory_allocated": int(peak),
            "memory_allocated": int(allocated), "memory_reserved": int(reserved),
            "mem_get_info_free": int(free)}


def bucket_bytes(peak_without_view, peak_with_view):
    """What gradient_as_bucket_view saved: the difference of the two peaks (DDP's buckets are a
    second copy of the gradients only where the peak holds both)."""
    return int(peak_without_view) - int(peak_with_view)


# ---- recording (torch from here on) -----------------------------------------------------------

def gpt(torch, s):
    """A GPT-2-like decoder: learned embeddings, pre-LayerNorm blocks with biases, a tied head."""
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            d = s["d"]
            self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.c_attn, self.c_proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.c_fc, self.mlp_proj = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            B, T, d = x.shape
            q, k, v = self.c_attn(self.ln_1(x)).split(d, dim=2)
            h = s["heads"]
            q, k, v = (t.view(B, T, h, d // h).transpose(1, 2) for t in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (d // h) ** -0.5
            att = att.masked_fill(torch.ones(T, T, device=x.device).tril() == 0, float("-inf"))
            y = (F.softmax(att, dim=-1) @ v).transpose(1, 2).contiguous().view(B, T, d)
            x = x + self.c_proj(y)
            return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(s["vocab"], s["d"])
            self.wpe = nn.Embedding(s["positions"], s["d"])
            self.h = nn.ModuleList(Block() for _ in range(s["layers"]))
            self.ln_f = nn.LayerNorm(s["d"])

        def forward(self, idx, targets):
            pos = torch.arange(idx.shape[1], device=idx.device)
            x = self.wte(idx) + self.wpe(pos)
            for b in self.h:
                x = b(x)
            logits = self.ln_f(x) @ self.wte.weight.t()
            return logits, F.cross_entropy(logits.view(-1, logits.shape[-1]).float(), targets.view(-1))

    return GPT()


def batch(torch, s, b=None):
    b = b or s["batch"]
    idx = torch.randint(s["vocab"], (b, s["seq"]), device="cuda")
    return idx, torch.randint(s["vocab"], (b, s["seq"]), device="cuda")


def start_history(torch):
    h = SETTINGS["history"]
    torch.cuda.memory._record_memory_history(max_entries=h["max_entries"], stacks=h["stacks"])


def record_train(torch, out, oom=False):
    s = SETTINGS["train"]
    torch.manual_seed(s["seed"])
    name = OUTPUTS["oom" if oom else "train"][0]
    if oom:
        cap = SETTINGS["oom"]["cap_gib"] * GiB
        torch.cuda.set_per_process_memory_fraction(memory_fraction(cap, torch.cuda.mem_get_info()[1]))

        def observer(device, alloc, device_alloc, device_free):
            torch.cuda.memory._dump_snapshot(os.path.join(out, name))
        torch._C._cuda_attach_out_of_memory_observer(observer)
    start_history(torch)
    model = gpt(torch, s).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=s["lr"])
    try:
        for step in range(s["steps"]):
            b = SETTINGS["oom"]["oom_batch"] if oom and step == 2 else None
            logits, loss = model(*batch(torch, s, b))
            del logits
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            if step == 0:
                torch.cuda.empty_cache()
    except torch.cuda.OutOfMemoryError:
        pass  # the observer wrote the snapshot at the failure
    if not oom:
        torch.cuda.memory._dump_snapshot(os.path.join(out, name))
    torch.cuda.memory._record_memory_history(enabled=None)


def record_leak(torch, out):
    s = SETTINGS["train"]
    torch.manual_seed(s["seed"])
    start_history(torch)
    model = gpt(torch, s).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=s["lr"])
    preds = []
    names = dict(zip(SETTINGS["leak"]["steps"], OUTPUTS["leak"]))
    for step in range(1, max(names) + 1):
        logits, loss = model(*batch(torch, s))
        preds.append(logits.detach())  # the leak: detach() keeps the logits' storage alive
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        if step in names:
            torch.cuda.memory._dump_snapshot(os.path.join(out, names[step]))
    torch.cuda.memory._record_memory_history(enabled=None)


def record_phases(torch, out):
    s = SETTINGS["phases"]
    model = gpt(torch, s).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    rows = []

    def row(step, phase):
        torch.cuda.synchronize()
        rows.append(phase_row(step, phase, torch.cuda.max_memory_allocated(), torch.cuda.memory_allocated(),
                              torch.cuda.memory_reserved(), torch.cuda.mem_get_info()[0]))
        torch.cuda.reset_peak_memory_stats()

    for step in range(1, s["steps"] + 1):
        torch.cuda.reset_peak_memory_stats()
        idx, tgt = batch(torch, s)
        with torch.autocast("cuda", dtype=getattr(torch, s["autocast"])):
            logits, loss = model(idx, tgt)
        row(step, "forward")
        loss.backward()
        del logits, loss
        row(step, "backward")
        opt.step()
        opt.zero_grad(set_to_none=True)
        row(step, "optimizer")
    with open(os.path.join(out, OUTPUTS["phases"][0]), "w") as f:
        json.dump({"settings": s, "device": torch.cuda.get_device_name(), "torch": torch.__version__,
                   "params": param_count(s["layers"], s["d"], s["vocab"], s["positions"]), "rows": rows}, f, indent=1)


def record_ddp(torch, out):
    import torch.distributed as dist
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("nccl", rank=0, world_size=1)
    s = SETTINGS["train"]
    v = torch.cuda.nccl.version()
    result = {"settings": s, "bucket_cap_mb": SETTINGS["ddp"]["bucket_cap_mb"],
              "nccl": ".".join(map(str, v)) if isinstance(v, tuple) else str(v)}
    for view in (False, True):
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        model = torch.nn.parallel.DistributedDataParallel(
            gpt(torch, s).cuda(), gradient_as_bucket_view=view, bucket_cap_mb=SETTINGS["ddp"]["bucket_cap_mb"])
        opt = torch.optim.AdamW(model.parameters(), lr=s["lr"])
        for _ in range(2):  # the second step: the buckets are rebuilt after the first
            torch.cuda.reset_peak_memory_stats()
            logits, loss = model(*batch(torch, s))
            del logits
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        result["view" if view else "no_view"] = {"peak": torch.cuda.max_memory_allocated() - base}
        del model, opt
    result["buckets_saved"] = bucket_bytes(result["no_view"]["peak"], result["view"]["peak"])
    result["params"] = param_count(s["layers"], s["d"], s["vocab"], s["positions"])
    with open(os.path.join(out, OUTPUTS["ddp"][0]), "w") as f:
        json.dump(result, f, indent=1)
    dist.destroy_process_group()


def record_context(out):
    # A fresh process per loading mode: its first mem_get_info() creates the context, so it reads
    # the device's used memory with the context up, then again after one tensor (PyTorch PR
    # 86509's measurement). The context is what is used then less what PyTorch reserved: on an
    # idle GPU, where no other process holds memory.
    probe = ("import torch; f0, t = torch.cuda.mem_get_info(); x = torch.zeros(1, device='cuda'); "
             "torch.cuda.synchronize(); f1, _ = torch.cuda.mem_get_info(); "
             "print(t - f0, t - f1, torch.cuda.memory_reserved())")
    result = {}
    for mode in ("LAZY", "EAGER"):
        env = dict(os.environ, CUDA_MODULE_LOADING=mode)
        used0, used1, reserved = map(int, subprocess.check_output([sys.executable, "-c", probe], env=env).split())
        result[mode.lower()] = {"used_at_start": used0, "used_after_one_tensor": used1, "reserved": reserved,
                                "context": used1 - reserved}
    with open(os.path.join(out, OUTPUTS["context"][0]), "w") as f:
        json.dump(result, f, indent=1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the folder to write into (created)")
    ap.add_argument("--only", default="", help="comma-separated kinds: " + ", ".join(OUTPUTS))
    args = ap.parse_args(argv)
    kinds = parse_only(args.only) or list(OUTPUTS)
    os.makedirs(args.out, exist_ok=True)
    if "context" in kinds:  # fresh processes, before this one creates a context
        record_context(args.out)
    import torch
    if not torch.cuda.is_available():
        sys.exit("record_snapshots.py: no CUDA device (torch.cuda.is_available() is False)")
    for kind, fn in (("train", lambda: record_train(torch, args.out)),
                     ("oom", lambda: record_train(torch, args.out, oom=True)),
                     ("leak", lambda: record_leak(torch, args.out)),
                     ("phases", lambda: record_phases(torch, args.out)),
                     ("ddp", lambda: record_ddp(torch, args.out))):
        if kind in kinds:
            torch.cuda.empty_cache()
            fn()
            torch.cuda.set_per_process_memory_fraction(1.0)
            print("wrote", ", ".join(OUTPUTS[kind]))


if __name__ == "__main__":
    main()
