#!/usr/bin/env python3
"""lesson_options.py DOC LESSON.lua... - every field and option the lessons use is documented in
DOC (docs/writing-lessons.md), as `name` in its reference tables. The lessons are read as Lua
tokens (strings, long strings and comments skipped, nothing run): the fields of each lesson{},
text{}, experiment{} and exercise{} table, of each panel, of each declared mistake, the options
of each ex:bar/point/gauge call and the fields of each ex:map block, and an answers file's fields.
Prints "FILE:LINE: option 'x' (of WHAT) is not documented in DOC" for each, exits 1 if any."""
import re
import sys

TOKEN = re.compile(r"""
    (?P<comment>--\[(?P<ceq>=*)\[.*?\](?P=ceq)\]|--[^\n]*)
  | (?P<long>\[(?P<leq>=*)\[.*?\](?P=leq)\])
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
  | (?P<punct>\.\.\.|\.\.|==|~=|<=|>=|//|::|<<|>>|[-+*/%^#&~|<>=(){}\[\];:,.])
  | (?P<space>\s+)
""", re.S | re.X)


def tokens(src):
    pos, line, out = 0, 1, []
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            pos += 1
            continue
        kind = m.lastgroup
        text = m.group(0)
        if kind in ("name", "num", "punct", "str", "long"):
            out.append((kind if kind != "long" else "str", text, line))
        line += text.count("\n")
        pos = m.end()
    return out


OPEN, CLOSE = {"(": ")", "[": "]", "{": "}"}, {")", "]", "}"}


def table_keys(toks, i):
    """toks[i] is '{': yield (key, line, value index) of the table's `name =` fields and of its
    positional items (key None); returns via generator, then the index past the '}'."""
    assert toks[i][1] == "{"
    i += 1
    while i < len(toks) and toks[i][1] != "}":
        start = i
        key = None
        if toks[i][0] == "name" and i + 1 < len(toks) and toks[i + 1][1] == "=":
            key, i = toks[i][1], i + 2
        yield key, toks[start][2], i
        depth = 0
        while i < len(toks):  # past the value
            t = toks[i][1]
            if depth == 0 and t in (",", ";", "}"):
                break
            if t in OPEN or t in ("function", "do", "if", "repeat"):
                depth += 1
            elif t in CLOSE or t in ("end", "until"):
                depth -= 1
            i += 1
        if i < len(toks) and toks[i][1] in (",", ";"):
            i += 1


def closing(toks, i):
    """The index of the bracket that closes toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j][1]
        if t in OPEN or t in ("function", "do", "if", "repeat"):
            depth += 1
        elif t in CLOSE or t in ("end", "until"):
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def uses(path):
    """(what, key, line) for every field and option the file uses."""
    src = open(path, encoding="utf-8").read()
    toks = tokens(src)
    found = []

    def fields(i, what, nested):
        for key, line, v in table_keys(toks, i):
            if key is None:
                continue
            found.append((what, key, line))
            if key in nested and v < len(toks) and toks[v][1] == "{":
                sub_what, sub_of_items = nested[key]
                if sub_of_items:  # a list of tables: each item's fields
                    for k2, l2, v2 in table_keys(toks, v):
                        if k2 is None and v2 < len(toks) and toks[v2][1] == "{":
                            fields(v2, sub_what, {})
                else:
                    fields(v, sub_what, {})

    answers = path.endswith(".answers.lua")

    def last_arg(j):
        k = closing(toks, j)
        return k + 1 < len(toks) and toks[k + 1][1] == ")"

    for i, (kind, text, line) in enumerate(toks):
        nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
        if kind == "name" and nxt == "{" and (i == 0 or toks[i - 1][1] not in (".", ":")):
            if text == "lesson":
                fields(i + 1, "lesson{}", {})
            elif text == "text":
                fields(i + 1, "text{}", {})
            elif text == "experiment":
                fields(i + 1, "experiment{}", {"panels": ("a panel", True)})
            elif text == "exercise":
                fields(i + 1, "exercise{}", {"mistakes": ("a mistake", True)})
        if answers and kind == "str" and nxt == "{" and i > 0 and toks[i - 1][1] == "answer":
            for key, l2, v in table_keys(toks, i + 1):
                if key:
                    found.append(("answer", key, l2))
                if v < len(toks) and toks[v][1] == "{":  # { "x", says = "..." } items
                    for k2, l3, v2 in table_keys(toks, v):
                        if k2:
                            found.append(("a wrong answer", k2, l3))
                        elif v2 < len(toks) and toks[v2][1] == "{":
                            for k3, l4, _ in table_keys(toks, v2):
                                if k3:
                                    found.append(("a wrong answer", k3, l4))
        # ex:bar(...), ex:point(...), ex:gauge(...): a table literal among the arguments;
        # ex:map(panel, { {owner=...}, ... }, total): its blocks' fields
        if kind == "name" and text in ("bar", "point", "gauge", "map") and i > 0 and toks[i - 1][1] == ":" \
                and nxt == "(":
            j, depth = i + 2, 0
            while j < len(toks):
                t = toks[j][1]
                if depth == 0 and t == ")":
                    break
                # the last argument, a table literal: the options (a label may be a table too)
                if depth == 0 and t == "{" and toks[j - 1][1] == "," and last_arg(j):
                    if text == "map":
                        for k2, l2, v2 in table_keys(toks, j):
                            if k2 is None and v2 < len(toks) and toks[v2][1] == "{":
                                for k3, l3, _ in table_keys(toks, v2):
                                    if k3:
                                        found.append(("an ex:map block", k3, l3))
                    else:
                        for k2, l2, _ in table_keys(toks, j):
                            if k2:
                                found.append(("ex:" + text + " options", k2, l2))
                if t in OPEN or t in ("function", "do", "if", "repeat"):
                    depth += 1
                elif t in CLOSE or t in ("end", "until"):
                    depth -= 1
                j += 1
    return found


def main():
    doc_path, files = sys.argv[1], sys.argv[2:]
    doc = open(doc_path, encoding="utf-8").read()
    documented = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", doc))
    bad, seen = 0, set()
    for f in files:
        for what, key, line in uses(f):
            if key not in documented and (f, key) not in seen:
                seen.add((f, key))
                print(f"{f}:{line}: option '{key}' (of {what}) is not documented in {doc_path}")
                bad += 1
    count = sum(len(uses(f)) for f in files)
    if count == 0:
        print("no fields found: the reader is broken")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
