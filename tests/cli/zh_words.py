#!/usr/bin/env python3
"""zh_words.py FILE... - the words of vramlab's 中文, kept one way.

Reads the Chinese text in lessons (Lua) and in the program's message tables (C) and prints, as
FILE:LINE: what, each place that strays from the terms the Chinese text agreed on. Exit 1 when
there is any, 0 when none.

The Chinese text of a file is each line with a CJK ideograph of a string literal: Lua's "...",
'...' and [[...]] / [==[...]==] (comments skipped), C's "..." (a literal each piece). Code is
left out: `code` spans, ``` blocks and lines indented four spaces (lesson markup), and a pair of
ASCII quotes that reads as code (see code_pair).

  - live objects (tensors, blocks, allocations a program still holds) are 存活 (存活的张量,
    存活块, 峰值时存活的分配), never 活着 / 活块 / 活张量;
  - the sandbox is 沙箱, never 沙盒;
  - the tutor (the program's full-screen interface) is 教学界面, never 导师 (a person);
  - quotation marks in Chinese text are “” (and ‘’ inside them), never ASCII "..." or '...'
    around Chinese words or a %s.
"""
import re
import sys

CJK = re.compile(r"[\u4e00-\u9fff]")
TERMS = [
    (re.compile(r"活着|(?<![存激灵复])活(块|张量|的(块|张量|分配))"), "live objects are 存活 (存活的张量, 存活块), not 活着"),
    (re.compile(r"沙盒"), "the sandbox is 沙箱, not 沙盒"),
    (re.compile(r"导师"), "the tutor is 教学界面, not 导师"),
]


def quoted(src, i, esc):
    """The literal opened by the quote at src[i]: (index after it, its text, line breaks in it);
    esc(c) is what a backslash and c stand for."""
    j, buf, lines = i + 1, [], 0
    while j < len(src) and src[j] != src[i] and src[j] != "\n":
        if src[j] == "\\" and j + 1 < len(src):
            buf.append(esc(src[j + 1]))
            lines += src[j + 1] == "\n"
            j += 2
        else:
            buf.append(src[j])
            j += 1
    return j + 1, "".join(buf), lines


def skip_to(src, i, mark):
    """The index after `mark` from i on (the end of src without one), and the line breaks before."""
    end = src.find(mark, i)
    end = len(src) if end < 0 else end + len(mark)
    return end, src.count("\n", i, end)


def lua_strings(src):
    """(line, text) of each string literal of a Lua source, comments skipped."""
    i, line = 0, 1
    while i < len(src):
        long = re.match(r"(--)?\[(=*)\[", src[i:i + 64])
        if src[i] == "\n":
            line, i = line + 1, i + 1
        elif long:  # a long string, or a long comment
            start = i + len(long.group(0))
            i, lines = skip_to(src, start, "]" + long.group(2) + "]")
            if not long.group(1):
                yield line, src[start:i - len(long.group(2)) - 2]
            line += lines
        elif src.startswith("--", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src[i] in "\"'":
            i, text, lines = quoted(src, i, lambda c: {"n": "\n", "t": "\t"}.get(c, c))
            yield line, text
            line += lines
        else:
            i += 1


def c_strings(src):
    """(line, text) of each string literal of a C source, comments and char constants skipped."""
    i, line = 0, 1
    while i < len(src):
        if src[i] == "\n":
            line, i = line + 1, i + 1
        elif src.startswith("/*", i):
            i, lines = skip_to(src, i, "*/")
            line += lines
        elif src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src[i] == "'":
            m = re.match(r"'(\\.|[^'\\])*'", src[i:i + 16])
            i += len(m.group(0)) if m else 1
        elif src[i] == '"':
            i, text, lines = quoted(src, i, lambda c: c if c in "\"\\'" else "\\" + c)
            yield line, text
            line += lines
        else:
            i += 1


def code_mask(text):
    """Which characters of text are code: ``` blocks, lines indented four spaces, `code` spans."""
    mask, pos, fence = [False] * len(text), 0, False
    for ln in text.split("\n"):
        if ln.lstrip().startswith("```"):
            fence = not fence
            code = True
        else:
            code = fence or ln.startswith("    ")
        for k in range(len(ln)):
            mask[pos + k] = code
        if not code:
            for m in re.finditer(r"`[^`]*`", ln):
                for k in range(m.start(), m.end()):
                    mask[pos + k] = True
        pos += len(ln) + 1
    return mask


# A pair of ASCII quotes right after ( = [ { , : or right before ) ] } , : is code or an English
# citation's punctuation (plot.point("2^k", ...), {precision = "amp_bf16"}, "Title", SC 2020), not
# a Chinese quotation.
CODE_BEFORE, CODE_AFTER = set("(=[{,:"), set(")]},:")


def code_pair(ln, a, b):
    p, q = a - 1, b + 1
    while p >= 0 and ln[p] == " ":
        p -= 1
    while q < len(ln) and ln[q] == " ":
        q += 1
    return (p >= 0 and ln[p] in CODE_BEFORE) or (q < len(ln) and ln[q] in CODE_AFTER)


def check(path):
    src = open(path, encoding="utf-8").read()
    strings = lua_strings(src) if path.endswith(".lua") else c_strings(src)
    bad = []
    for line, text in strings:
        if not CJK.search(text):
            continue
        mask, pos = code_mask(text), 0
        for k, ln in enumerate(text.split("\n")):
            prose = "".join(" " if mask[pos + i] else ch for i, ch in enumerate(ln))
            pos += len(ln) + 1
            if not CJK.search(prose):
                continue
            where = "%s:%d" % (path, line + k)
            for rx, why in TERMS:
                if rx.search(prose):
                    bad.append("%s: %s: %s" % (where, why, ln.strip()[:120]))
            if re.search(r"'([^'\s]*[\u4e00-\u9fff][^']*|%s)'", prose):  # '黄金仓库', '%s'
                bad.append("%s: ASCII quotes in Chinese text (“” or, inside them, ‘’ instead): %s"
                           % (where, ln.strip()[:120]))
            qs = [i for i, ch in enumerate(prose) if ch == '"']
            if len(qs) % 2 or any(not code_pair(prose, a, b) for a, b in zip(qs[0::2], qs[1::2])):
                bad.append("%s: ASCII quotes in Chinese text (“” instead): %s" % (where, ln.strip()[:120]))
    return bad


def main(argv):
    bad = [b for p in argv[1:] for b in check(p)]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
