#!/usr/bin/env python3
"""zh_english.py [--strict] [--ids A,B,...] FILE... - English left in 中文 output.

Reads what vramlab printed with --lang zh and prints each line that still carries English, as
FILE:LINE: WORDS | the line. Exit 1 when there is any, 0 when none. --ids: identifiers the
caller knows the output shows as they are (a recording's experiment and panel ids).

What is not English prose, and so is taken out before looking:
  - names, units and code: identifiers (snake_case, camelCase, a.b, f(x)), paths, command
    options, words with digits (fp16, RTX 3090, 4K), acronyms (OOM, GPU, STREAM), `code`,
    Lua tables ({dir = h2d, bytes}), code blocks (indented four spaces by the plain renderer);
  - quotations and titles: "...", “...”, 《...》, and a short English gloss (five words at
    most) in full-width brackets after its Chinese term (小池（small pool）), as Chinese
    technical writing does;
  - citations and verbatim quotes of data: a line from 出处/来源/原文 on, a 出处/参考 section
    up to the next heading, "et al", "issue #N", "pull request #N";
  - PyTorch's own messages (the OOM message, memory_summary's rows), quoted verbatim so the
    learner recognises them in their own logs;
  - the short ALLOW list below, each with its reason.

A lesson's prose may use a single English term (batch, token, stage), so prose fails on a run of
two or more English words. The program's own labels are checked word by word: --strict checks
every line so (the CLI commands, whose output is all the program's), and in any case the
labels vramlab puts around lesson content in `run` (>> experiment, ?? exercise, a panel's note,
a value's style tag, a memory map) are checked word by word.
"""
import re
import sys

# Kept in English on purpose: product, vendor and model names and title-case multi-word names
# (matched below), the SIMULATED/REPLAY labels (one word everywhere, so they are recognised),
# key names, the names of the languages on the L key, "vs" (used as is in Chinese technical
# writing), Lua keywords and Python's del and literals (lessons show code to type, snapshots
# PyTorch's settings), the backends' and STREAM's kernels' names (what --backend and
# gpu.stream take), the sandbox's modules; and three terms Chinese ML writing keeps in English
# (the lecture itself writes "batch size"), BatchNorm's buffers, and vLLM's server command as a
# learner types it ("vllm serve").
ALLOW = r"""vs EN English SIMULATED REPLAY SIM NVIDIA GeForce Tesla Radeon Jetson Orin Spark
Hopper Ampere Ada Turing Volta Blackwell Micron Intel AMD EPYC Xeon Ryzen Linux PyTorch Lua
Adam AdamW SGD Llama Mistral DeepSeek Transformer Transformers Hugging Face Orca Esc Enter Tab
Ctrl Shift PgUp PgDn Home End for do end local function return in pairs ipairs if then else
and or not nil true false del True False None vramlab sim cuda copy scale add triad dot
gpu host alloc vram units plot""".split() + ["batch size", "running mean", "running var", "vllm serve"]
# units, and the count abbreviations panels use beside a number (8 seqs, 2048 tok)
UNITS = r"(?:[KMGTP]i?B(?:/s)?|B/s|ns|us|µs|ms|bit|bits|GHz|MHz|Gbps|GT/s|tok/s|tokens/s|seqs|tok)"

PYTORCH = [  # the OOM message and memory_summary, word for word
    r"CUDA out of memory\.?", r"Tried to allocate", r"GPU \d+ has a total capacity of",
    r"total capacity of", r"of which", r"is free\.?", r"Of the allocated memory",
    r"is allocated by PyTorch", r"allocated by PyTorch", r"is reserved by PyTorch",
    r"reserved by PyTorch", r"but unallocated", r"reserved but unallocated", r"allowed",
    r"If reserved but unallocated memory is large", r"try setting", r"to avoid fragmentation",
    r"See documentation for Memory Management", r"Including non-PyTorch memory, this process has",
    r"memory in use", r"Process \d+ has", r"this process has",
    r"PyTorch CUDA memory summary, device ID \d+", r"CUDA OOMs", r"cudaMalloc retries",
    r"Metric", r"Cur Usage", r"Peak Usage", r"Tot Alloc", r"Tot Freed",
    r"(?:GPU reserved|Non-releasable|Allocated|Active|Requested) (?:memory|allocs|segments)",
    r"Allocations", r"Oversize (?:allocations|GPU segments)", r"from (?:large|small) pool",
]

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
WORD = r"[A-Za-z][A-Za-z'’-]*[A-Za-z]"


def gloss(m):
    inner = m.group(1)
    short = len(re.findall(r"[A-Za-z]+", inner)) <= 5
    return " " if short and not CJK.search(inner) else m.group(0)


def scrub(s):
    for p in sorted(PYTORCH, key=len, reverse=True):  # the longest phrase first
        s = re.sub(r"(?<![A-Za-z])" + p + r"(?![A-Za-z])", " ", s)
    s = re.sub(r"`[^`]*`", " ", s)
    for _ in range(2):  # a Lua table, nested once: code
        s = re.sub(r"\{[^{}]*\}", " ", s)
    s = re.sub(r'"[^"\n]*"|“[^”]*”|《[^》]*》|「[^」]*」', " ", s)
    s = re.sub(r"（([^（）]*)）", gloss, s)
    s = re.sub(r"\bvramlab [a-z]+", " ", s)  # commands
    s = re.sub(r"\bet al\b\.?|\b(?:issue|pull request|PR) #\d+", " ", s)
    s = re.sub(r"\S*/\S*", " ", s)  # paths, URLs, n/t
    s = re.sub(r"--?[A-Za-z][\w-]*", " ", s)
    s = re.sub(r"[\w.]+\([^()]*\)", " ", s)  # calls
    s = re.sub(r"\b\w+(?:\.\w+)+\b", " ", s)  # a.b
    s = re.sub(r"\b\w*_\w*\b", " ", s)  # snake_case
    s = re.sub(r"\b[a-z]+[A-Z]\w*\b", " ", s)  # camelCase
    s = re.sub(r"\b[A-Z][A-Za-z]*[A-Z0-9]\w*\b", " ", s)  # acronyms, GeForce, DataLoader
    s = re.sub(r"[A-Za-z0-9_.-]*\d[A-Za-z0-9_.-]*", " ", s)  # with digits: fp16, llama-2-7b, 4K
    s = re.sub(r"\b(?:" + "|".join(a.replace(" ", r"\s+") for a in ALLOW) + r")\b", " ", s)
    s = re.sub(r"(?<![A-Za-z])" + UNITS + r"(?![A-Za-z])", " ", s)
    # title-case runs are names (Best Practices Guide, Programming Guide, Tensor Core)
    s = re.sub(r"\b[A-Z][a-z]+(?:[ -](?:of|for|and|the|to|on|in|with|[A-Z][a-z]+))*[ -][A-Z][a-z]+\b",
               " ", s)
    return s


# The labels `vramlab run` puts around lesson content: each must have no English word at all
# (after the scrub above), though it is a single word.
FRAME = [
    re.compile(r"^(?:>>|\?\?) ?([^:：(（]*)"),           # >> 实验：  ?? 练习（数值题）
    re.compile(r"^\?\? .*[(（]([^)）]*)[)）]$"),          # the exercise's kind
    re.compile(r"^  \[[^\]]*\] (note): "),               # a panel's note label
    re.compile(r"^  \[[^\]]*\] .*: .* \(([^()]*)\)$"),  # a value's style tag
    re.compile(r"^  \[[^\]]*\] .*: \S+ ([a-z]+) \S+ "),  # a gauge's "x of y"
]


def check(fn, strict, out):
    bad = 0
    cite = False
    lines = open(fn, encoding="utf-8", errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if re.fullmatch(r"[=-]{3,}", nxt.strip()):  # a heading
            cite = bool(re.search(r"出处|参考|来源|文献", line))
        if cite or line.startswith("    ") and not line.lstrip().startswith("- "):
            continue  # a citation section, a code block
        line = re.sub(r"(出处|来源|原文)[\s:：(（].*", "", line)
        s = scrub(line)
        words = re.findall(WORD, s)
        if strict:
            found = words
        else:
            found = [m.group(0) for m in re.finditer(WORD + r"(?:[\s,;:.!?·]+" + WORD + ")+", s)]
            for f in FRAME:
                m = f.search(line)
                if m and not found:
                    found = re.findall(WORD, scrub(m.group(1)))
                    if found:
                        break
        if found:
            out.write("%s:%d: %s | %s\n" % (fn, i + 1, " ".join(found), line.strip()[:160]))
            bad += 1
    return bad


def main():
    args = sys.argv[1:]
    strict = bool(args) and args[0] == "--strict"
    if strict:
        args = args[1:]
    if len(args) > 1 and args[0] == "--ids":
        ALLOW.extend(w for w in args[1].split(",") if re.fullmatch(r"[\w.-]+", w))
        args = args[2:]
    bad = sum(check(fn, strict, sys.stdout) for fn in args)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
