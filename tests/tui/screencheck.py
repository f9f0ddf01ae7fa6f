"""screencheck.py - what every captured screen of the tutor must hold, in display columns (a CJK
glyph takes two, as wcwidth says in C.UTF-8): used by tests/tui/screens.py on every screen it
captures, and runnable alone on capture files (python3 screencheck.py W FILE...).

  width    no line wider than the terminal
  frames   every box closed: a top-left corner has its top-right on the same row, and the
           columns under them hold a vertical line (or a T) down to the bottom corners on one
           row; a box cut by the edge of its pane (scrolled) or of its page runs to that edge;
           a chart axis's corner (└┴──┴) is no box
  columns  a table's column separators stay under the T's of its top border on every row (a
           CJK cell one column too wide pushes them)
  divider  side by side (100 columns and up), the divider between the text and the live panel
           runs down every body row in its one column
  units    no number at the end of a line with its unit at the start of the next one in the
           same column (a table cell or a wrapped paragraph): "16.49" / "GiB"

Standard library only. check() returns a list of "rule: row R: what" strings, empty when fine."""
import functools
import re
import sys
import unicodedata

VERT = set("│├┤┼┃║╟╢")
SIDE_COLS = 100  # tui_layout.h: from this width up the text and the panel sit side by side
LEFT_EDGE = set("│├└┃║╟")
RIGHT_EDGE = set("│┤┘┃║╢")
UNITS = (r"(?:[KMGTPE]i?B(?:/s)?|B(?:/s)?|[KMGT]?bit/s|Gb/s|[kMGT]?FLOP/s|TFLOPS|GFLOPS|ns|µs|us|ms|s"
         r"|%|×|MHz|GHz|W|B/param|B/token|tokens?/s|tokens?|bytes?|cycles?|GT/s)")
NUM_END = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?$")
UNIT_START = re.compile(r"^" + UNITS + r"(?=$|[\s,.;:)\]）、，。；：])(?!\s*=)")


@functools.lru_cache(maxsize=None)  # a few hundred distinct characters, millions of lookups
def cw(ch):
    """Columns a character takes, as glibc's wcwidth in C.UTF-8 does for what the tutor draws."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(line):
    """The line as a list of columns: each holds its character, a wide glyph's right half "\\0"."""
    if line.isascii():  # one column a character (cw of every ASCII character is 1)
        return list(line)
    out = []
    for ch in line:
        w = cw(ch)
        if w == 0:
            continue
        out.append(ch)
        if w == 2:
            out.append("\0")
    return out


def grid(lines):
    return [cells(l.rstrip("\n")) for l in lines]


def at(g, r, c):
    return g[r][c] if 0 <= r < len(g) and 0 <= c < len(g[r]) else " "


def boundary_rows(g, W):
    """Rows that end a pane: the bars on top and at the bottom, and a full-width rule (the stacked
    layout's divider between text and panel)."""
    rows = {0, len(g) - 1}
    for r, row in enumerate(g):
        text = "".join(row).replace("\0", "")
        if len(row) >= W - 1 and text.strip() and set(text.strip()) <= set("─━"):
            rows.add(r)
    return rows


def blank(g, r):
    """Row r holds nothing: above a page's first line or below its last (a box that goes on from
    the page before or to the next is cut there)."""
    return not "".join(g[r]).replace("\0", "").strip() if 0 <= r < len(g) else True


def marked(g, r, c, marks):
    """Row r has a scroll mark right of column c: its pane is scrolled there."""
    return 0 <= r < len(g) and any(ch in marks for ch in g[r][c + 1:])


def check_width(g, W, out):
    for r, row in enumerate(g):
        if len(row) > W:
            out.append("width: row %d is %d columns (terminal %d)" % (r, len(row), W))


def check_frames(g, W, out):
    bounds = boundary_rows(g, W)
    H = len(g)
    for r in range(H):
        for c, ch in enumerate(g[r]):
            if ch == "┌":
                c2 = next((k for k in range(c + 1, len(g[r])) if g[r][k] in "┐"), None)
                if c2 is None:
                    out.append("frames: row %d col %d: a box top with no top-right corner" % (r, c))
                    continue
                tees = [k for k in range(c + 1, c2) if g[r][k] == "┬"]
                closed = False
                for r2 in range(r + 1, H):
                    a, b = at(g, r2, c), at(g, r2, c2)
                    if a == "└":
                        if b != "┘":
                            out.append("frames: row %d: the box from row %d col %d-%d has its bottom-left "
                                       "corner but %r at its right edge" % (r2, r, c, c2, b))
                        closed = True
                        break
                    if a in LEFT_EDGE and b in RIGHT_EDGE:
                        sep = a == "├"
                        for k in tees:  # a table's column separators stay in their columns
                            want = "┼" if sep else "│"
                            if at(g, r2, k) != want:
                                out.append("columns: row %d: column separator of the table at row %d "
                                           "expected at col %d, found %r" % (r2, r, k, at(g, r2, k)))
                                break
                        continue
                    if r2 in bounds or r2 == H - 1 or marked(g, r2 - 1, c2, "↓v") or \
                            all(blank(g, k) for k in range(r2, H - 1)):
                        closed = True  # cut by the end of its pane: scrolled (the ↓ mark says so)
                        break
                    out.append("frames: row %d: the box from row %d (cols %d-%d) has %r and %r at its "
                               "edges" % (r2, r, c, c2, a, b))
                    closed = True
                    break
                if not closed and r < H - 1:
                    pass  # ran to the screen's end: scrolled
            elif ch == "└":
                # a chart's axis corner ("└┴───┴") is no box: a box's bottom ends in its ┘
                c2 = next((k for k in range(c + 1, len(g[r])) if g[r][k] not in "─┴"), None)
                if c2 is None or g[r][c2] != "┘":
                    continue
                # a box whose top is above the view: its left edge runs up to the pane's top
                r0 = r - 1
                while r0 >= 0 and at(g, r0, c) in LEFT_EDGE:
                    r0 -= 1
                if r0 >= 0 and at(g, r0, c) != "┌" and r0 not in bounds and r0 != 0 and \
                        not marked(g, r0 + 1, c, "↑^") and not all(blank(g, k) for k in range(1, r0 + 1)):
                    out.append("frames: row %d col %d: a bottom-left corner under %r at row %d, not a "
                               "box's top or its pane's top" % (r, c, at(g, r0, c), r0))


def check_divider(g, W, out):
    """Side by side (tui_layout.c), the divider between the text and the live panel runs down every
    body row in its one column: a glyph one column too wide left of it pushes it."""
    H = len(g)
    if W < SIDE_COLS or H < 6:
        return
    pw = min(max(W // 2, 44), 80)
    c = W - pw - 1
    if not any(at(g, r, c) in VERT for r in range(1, H - 1)):
        return  # no divider on this screen (the panel on the whole screen, a menu)
    missing = [r for r in range(1, H - 1) if at(g, r, c) not in VERT]
    if missing:
        out.append("columns: the divider at col %d is missing on rows %s" % (c, missing[:6]))


SEPARATOR = re.compile("[" + "".join(sorted(VERT)) + "┌┐└┘]")


def segments(row):
    """(start column, text) of each run between vertical lines (a row's cells are one character
    each, so a column is an index into the joined row)."""
    line, out, start = "".join(row), [], 0
    for m in SEPARATOR.finditer(line):
        out.append((start, line[start:m.start()].replace("\0", "")))
        start = m.start() + 1
    out.append((start, line[start:].replace("\0", "")))
    return out


def check_units(g, W, out):
    for r in range(1, len(g) - 2):
        nxt = dict(segments(g[r + 1]))
        for start, text in segments(g[r]):
            if start not in nxt:
                continue
            tail, head = text.rstrip(), nxt[start].lstrip()
            if not tail or not head or len(tail) != len(text.rstrip(" ")):
                continue
            m = NUM_END.search(tail)
            u = UNIT_START.match(head)
            if m and u:
                out.append("units: rows %d-%d col %d: '%s' / '%s' (a number apart from its unit)"
                           % (r, r + 1, start, tail[-24:], head[:24]))


def check(lines, W, rules=("width", "frames", "columns", "divider", "units")):
    lines = list(lines)
    while lines and lines[-1] == "":  # the newline after the last row
        lines.pop()
    g = grid(lines)
    out = []
    if "width" in rules:
        check_width(g, W, out)
    if "frames" in rules or "columns" in rules:
        check_frames(g, W, out)
    if "divider" in rules:
        check_divider(g, W, out)
    if "units" in rules:
        check_units(g, W, out)
    return out


if __name__ == "__main__":
    W = int(sys.argv[1])
    bad = 0
    for f in sys.argv[2:]:
        for p in check(open(f, encoding="utf-8").read().split("\n"), W):
            print("%s: %s" % (f, p))
            bad += 1
    sys.exit(1 if bad else 0)
