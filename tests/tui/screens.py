"""screens.py BUILD [PART/PARTS] - every lesson's screens, as a learner and a teacher see them,
checked by tests/tui/screencheck.py (no line wider than the terminal, frames closed, table columns
and the divider in their columns by display width, no number apart from its unit across a line
break) and for SIMULATED said once, in the header strip: each lesson of this part (the course's
lessons dealt round-robin to PARTS jobs) at 80x24, 120x40 and 200x50 in English and Chinese, from
its first screen (the help overlay over it and the screen it leaves; L to the other language and
back), through every experiment (run, its panel page by page, zoomed with z page by page) and
exercise (] from one to the next), to every page of its text (Space to the end); and in the
presenter at 80x24, 120x40, 200x50 and 300x80, every step and page, each experiment run.

make screens runs all of it; tests/tui/screens.sh (make test) a sample, through the environment:
VRAMLAB_SCREENS_QUICK=1 (up to each lesson's first experiment), VRAMLAB_SCREENS_SAMPLE=1 (each
lesson at one size, the sizes in turn), VRAMLAB_SCREENS_PRESENT=0 (no presenter),
VRAMLAB_SCREENS_LESSONS=0 (the presenter alone), VRAMLAB_SCREENS_TEXT (none, or the sizes
whose text is paged: 120x40), and VRAMLAB_SCREENS_KEEP_GOING=1 (every failing visit reported,
not only the first).

The experiments run once, headless, recorded (run --record); the tutor and the presenter play
the recordings back, so what is drawn is the same data in both languages. One tmux server, driven
in control mode (one client for every command, no process per key or capture), runs a session per
screen being visited, several at once: a visit waits for its screen without a fixed sleep, by
polling it with a deadline, reads a screen only once two captures in a row agree (never between
two writes of one redraw), and a key whose effect may be nothing (Space at the end of the text)
is followed by the help overlay opened and closed, after which every key before it has been read.

Prints the totals (visits, screens, seconds, CPU); fails with the screen and what is wrong.
Standard library only."""
import os
import re
import select
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import screencheck  # noqa: E402

BUILD = sys.argv[1]
PART, PARTS = (int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "1/1").split("/"))
BIN = os.path.join(BUILD, "vramlab")
SIZES = [(80, 24), (120, 40), (200, 50)]
PRESENT_SIZES = [(80, 24), (120, 40), (200, 50), (300, 80)]
LANGS = ["en", "zh"]
AT_ONCE = int(os.environ.get("VRAMLAB_SCREENS_AT_ONCE", "6"))
DEADLINE = 30.0  # seconds a visit may wait for one thing (a loaded machine is slow, never stuck)
RULES = tuple(os.environ.get("VRAMLAB_SCREENS_RULES", "width,frames,columns,divider,units").split(","))
ZOOMED = tuple(r for r in RULES if r != "divider")  # the panel on the whole screen: no divider
QUICK = os.environ.get("VRAMLAB_SCREENS_QUICK") == "1"  # make test: each lesson's first experiment
SAMPLE = os.environ.get("VRAMLAB_SCREENS_SAMPLE") == "1"  # make test: each lesson at one size
KEEP_GOING = os.environ.get("VRAMLAB_SCREENS_KEEP_GOING") == "1"  # report every visit that fails
FAILED = []
HELP_OPEN = re.compile(r"Keys \(Esc closes\)|按键（Esc 关闭）")


class Tmux:
    """One tmux server and one control-mode client: cmd() sends a command and returns its output."""

    def __init__(self, tmp):
        self.sock = "vramlab-screens-%d" % os.getpid()
        self.p = subprocess.Popen(["tmux", "-L", self.sock, "-f", "/dev/null", "-C", "new-session", "-s",
                                   "ctl", "-x", "80", "-y", "24", "sleep 3600"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""
        self.read_block()  # the attach's own reply

    def line(self):
        while b"\n" not in self.buf:
            r, _, _ = select.select([self.p.stdout], [], [], DEADLINE)
            if not r:
                raise RuntimeError("tmux stopped answering")
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError("tmux exited")
            self.buf += chunk
        l, self.buf = self.buf.split(b"\n", 1)
        return l.decode("utf-8", "replace")

    def read_block(self):
        out, inside = [], False
        while True:
            l = self.line()
            if l.startswith("%begin"):
                inside, out = True, []
            elif inside and (l.startswith("%end") or l.startswith("%error")):
                if l.startswith("%error"):
                    raise RuntimeError("tmux: " + " ".join(out))
                return out
            elif inside:
                out.append(l)

    def cmd(self, c):
        self.p.stdin.write((c + "\n").encode())
        self.p.stdin.flush()
        return self.read_block()

    def server_pid(self):
        return int(self.cmd("display -p '#{pid}'")[0])

    def close(self):
        try:
            self.cmd("kill-server")
        except Exception:
            pass
        self.p.wait()


def q(s):
    return "'" + s.replace("'", "'\\''") + "'"


class Fail(Exception):
    pass


ESC = re.compile(r"\x1b\[[0-9;:]*m")


class Visit:
    """A screen being visited: a tmux session of its own running one command, and a generator
    (its script) that yields a predicate on the screen; the scheduler resumes it once the
    predicate holds, with the screen's lines (their attributes stripped: a selection in reverse
    video changes the raw capture, which is what tells that a key did something)."""
    n = 0

    def __init__(self, tm, what, W, H, command):
        Visit.n += 1
        self.tm, self.what, self.W, self.H = tm, what, W, H
        self.name = "v%d" % Visit.n
        self.screens = 0
        self.raw = None
        self.last = None
        self.tutor = " present " not in command  # the tutor's views have the header strip
        tm.cmd("new-session -d -s %s -x %d -y %d %s" % (self.name, W, H, q(command + "; sleep 3600")))

    def capture(self):
        raw = self.tm.cmd("capture-pane -p -e -t %s:" % self.name)
        self.raw = "\n".join(raw)
        return [ESC.sub("", l) for l in raw]

    def keys(self, *keys):
        self.tm.cmd("send-keys -t %s: %s" % (self.name, " ".join(q(k) for k in keys)))

    def check(self, lines, where, rules=None, part=False):
        """part: a part of the screen (the help overlay's box), not the whole of it."""
        self.screens += 1
        probs = screencheck.check(lines, self.W, rules or RULES)
        if self.tutor and not part:
            probs += sim_once(lines)
        if probs:
            raise Fail("%s, %s:\n  %s\n--- screen ---\n%s\n--------------" % (
                self.what, where, "\n  ".join(probs[:8]), "\n".join(lines)))

    def end(self):
        self.tm.cmd("kill-session -t %s" % self.name)


def overlay(lines, W, H):
    """The help overlay's rectangle of the screen (tui_layout.c: at most 72 x 30, centred), as
    lines of its own: its box must be whole, by display width."""
    hw, hh = min(W - 4, 72), min(H - 2, 30)
    y, x = (H - hh) // 2, (W - hw) // 2
    out = []
    for l in lines[y:y + hh]:
        c = screencheck.cells(l)[x:x + hw]
        out.append("".join(" " if ch == "\0" and i == 0 else ch for i, ch in enumerate(c)).replace("\0", ""))
    return out


def sim_once(lines):
    """The simulator is said once per screen, in the header strip (row 0), not on every panel
    nor on the status line."""
    out = []
    if "SIMULATED" not in lines[0]:
        out.append("label: the header strip does not say SIMULATED: %r" % lines[0].strip())
    if "SIMULATED" in lines[-1]:
        out.append("label: the status line says SIMULATED again: %r" % lines[-1].strip())
    for r, l in enumerate(lines[1:-1], 1):
        # a panel's tag, right in its top edge or in brackets (a lesson's own title may say it)
        if re.search(r"─ (REPLAY )?SIMULATED[^─]* ─┐|\[(REPLAY · )?SIMULATED", l):
            out.append("label: row %d: a panel says SIMULATED again: %r" % (r, l.strip()))
    return out


def text(lines):
    return "\n".join(lines)


def has(regex):
    r = re.compile(regex, re.M)
    return lambda lines: r.search(text(lines)) is not None


def lacks(regex):
    r = re.compile(regex, re.M)
    return lambda lines: r.search(text(lines)) is None


def settle(v):
    """After keys whose effect may be nothing: the help overlay opened and closed again, so every
    key sent before has been read. Evaluates (via yield from) to the screen after, and its raw
    form (with attributes) is v.raw."""
    v.keys("?")
    yield has(HELP_OPEN.pattern)
    v.keys("Escape")
    lines = yield lacks(HELP_OPEN.pattern)
    return lines


def footer(lines):
    return lines[-1] if lines else ""


PANEL_DONE = re.compile(r"(REPLAY panel|回放面板)\S*.*\s(done|完成|failed|失败)\s*(│|$)", re.M)


def text_pages(v):
    """Whether this visit pages through the lesson's text: VRAMLAB_SCREENS_TEXT is "all" (the
    default), "none", or the sizes that do ("120x40")."""
    want = os.environ.get("VRAMLAB_SCREENS_TEXT", "all")
    return want == "all" or "%dx%d" % (v.W, v.H) in want.split(",")


def pages(v, where, rules=None, most=300):
    """Space until it changes nothing, each page checked (its first is checked by the caller)."""
    for page in range(most):
        before = v.raw
        v.keys("Space")
        lines = yield from settle(v)
        if v.raw == before:
            return
        v.check(lines, "%s, page %d" % (where, page + 2), rules)


def leave(v):
    v.keys("q")
    yield has(r"vramlab · (lessons|课程目录)")
    v.keys("q")


def lesson_visit(v, lid, lang):
    lines = yield has(re.escape("vramlab · %s" % lid))
    v.check(lines, "its first screen")
    # the help overlay over it (its box aligned by display width, Chinese too), then the screen
    # it leaves after its partial redraw
    v.keys("?")
    lines = yield has(HELP_OPEN.pattern)
    v.check(lines, "the help overlay", ("width",))  # it covers other boxes in part
    v.check(overlay(lines, v.W, v.H), "the help overlay's box", ("width", "frames", "columns", "units"), True)
    v.keys("Escape")
    lines = yield lacks(HELP_OPEN.pattern)
    v.check(lines, "the help overlay closed")
    # L: the other language drawn over this one, and back
    other = "EN  L:中文" if lang == "zh" else "中文  L:EN"
    v.keys("L")
    lines = yield lambda l: other in l[0]
    v.check(lines, "in the other language")
    v.keys("L")
    lines = yield lambda l: other not in l[0]
    v.check(lines, "its language again")
    # every experiment and exercise: ] from one to the next, until ] changes nothing
    seen = 0
    while seen < 60:
        before = v.raw
        v.keys("]")
        lines = yield from settle(v)
        if v.raw == before:
            break
        seen += 1
        if re.search(r"Enter (run|运行)", footer(lines)):
            v.keys("Enter")
            lines = yield lambda l: PANEL_DONE.search(text(l)) is not None
            v.check(lines, "experiment %d, run" % seen)
            v.keys("Tab")  # the panel has the keys: page through it
            yield from settle(v)
            yield from pages(v, "experiment %d, its panel" % seen, most=40)
            v.keys("Tab")
            # z: the panel on the whole screen, its tables whole; z again: back beside the text
            v.keys("z")
            lines = yield from settle(v)
            v.check(lines, "experiment %d, zoomed" % seen, ZOOMED)
            yield from pages(v, "experiment %d, zoomed" % seen, ZOOMED, most=40)
            v.keys("z")
            yield from settle(v)
            if QUICK:
                break
        else:
            v.check(lines, "exercise or experiment %d" % seen)
    if not QUICK and text_pages(v):  # the text, page by page from the top
        v.keys("Home")
        lines = yield from settle(v)
        v.check(lines, "the top again")
        yield from pages(v, "its text")
    yield from leave(v)
    return v.screens


def present_visit(v, lid, lang):
    lines = yield has(re.escape(lid))
    v.check(lines, "the title slide", ZOOMED)  # the presenter has no divider
    for step in range(400):
        if re.search(r"Enter: play the recorded run|Enter：播放记录的运行", text(lines)):
            v.keys("Enter")
            yield lacks(r"Enter: play the recorded run|Enter：播放记录的运行")
            lines = yield lacks(r"running…|运行中…")
            lines = yield from settle(v)
            v.check(lines, "step %d, its run" % step, ZOOMED)
        before = v.raw
        v.keys("Space")
        lines = yield from settle(v)
        if v.raw == before:
            break
        v.check(lines, "step %d" % (step + 1), ZOOMED)
    v.keys("q")
    return v.screens


def run_all(specs):
    """Round-robin over up to AT_ONCE visits: capture each waiting one, resume it when its
    predicate holds, fail past the deadline. specs: (script, Visit arguments, script arguments)."""
    pending, active, screens, done = list(specs), [], 0, 0
    while pending or active:
        while pending and len(active) < AT_ONCE:
            script, vargs, sargs = pending.pop(0)
            v = Visit(*vargs)
            g = script(v, *sargs)
            active.append([v, g, next(g), time.monotonic() + DEADLINE])
        progressed = False
        for a in list(active):
            v, g, pred, deadline = a
            lines = v.capture()
            stable, v.last = v.raw == v.last, v.raw  # not caught between two writes of a redraw
            try:
                if stable and pred(lines):
                    progressed = True
                    try:
                        a[2], a[3] = g.send(lines), time.monotonic() + DEADLINE
                    except StopIteration as e:
                        screens += e.value or 0
                        done += 1
                        v.end()
                        active.remove(a)
                elif time.monotonic() > deadline:
                    raise Fail("%s: waited %d s for the screen:\n%s" % (v.what, DEADLINE, text(lines)))
            except Fail as e:
                if not KEEP_GOING:
                    raise
                FAILED.append(str(e))
                v.end()
                active.remove(a)
        if not progressed:
            time.sleep(0.04)
    return screens, done


def lesson_ids():
    out = subprocess.run([BIN, "--backend", "sim", "list"], capture_output=True, text=True, check=True).stdout
    return [l.split()[0] for l in out.splitlines() if re.match(r"^  \d", l)]


def main():
    t0, c0 = time.monotonic(), os.times()
    ids = lesson_ids()
    mine = [x for i, x in enumerate(ids) if i % PARTS == PART - 1]
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", XDG_STATE_HOME=os.path.join(tmp, "state"))
    # host experiments capped and short, as tests/run.sh sets them (docs/architecture.md, Tests)
    env.setdefault("VRAMLAB_HOST_MAX", "4MiB")
    env.setdefault("VRAMLAB_HOST_QUICK", "1")
    env.setdefault("VRAMLAB_DATADIR", os.getcwd())
    for k in ("NO_COLOR", "VRAMLAB_LANG", "VRAMLAB_BACKEND", "TMUX", "COLORFGBG"):
        env.pop(k, None)
    os.environ.clear()
    os.environ.update(env)
    recs = {}
    for lid in mine:
        rec = os.path.join(tmp, lid + ".jsonl")
        r = subprocess.run([BIN, "--backend", "sim", "--deterministic", "--seed", "1", "--lang", "en",
                            "--record", rec, "run", lid], capture_output=True, text=True)
        if r.returncode:
            print("FAIL: run %s --record: %s" % (lid, r.stdout[-2000:] + r.stderr[-2000:]))
            return 1
        recs[lid] = rec
    tm = Tmux(tmp)
    server_cpu = 0.0
    try:
        specs = []
        app = "%s --backend sim --seed 1 --deterministic" % BIN
        for i, lid in enumerate(mine):
            # the sample make test checks: each lesson at one size, the sizes in turn
            sizes = [SIZES[i % len(SIZES)]] if SAMPLE else SIZES
            if os.environ.get("VRAMLAB_SCREENS_LESSONS", "1") != "1":  # the presenter alone
                sizes = []
            for W, H in sizes:
                for lang in LANGS:
                    specs.append((lesson_visit, (tm, "lesson %s at %dx%d (%s)" % (lid, W, H, lang), W, H,
                                                 "%s --lang %s --replay %s %s" % (app, lang, recs[lid], lid)),
                                  (lid, lang)))
            if os.environ.get("VRAMLAB_SCREENS_PRESENT", "1") == "1":
                for W, H in PRESENT_SIZES:
                    for lang in LANGS:
                        specs.append((present_visit, (tm, "presenter %s at %dx%d (%s)" % (lid, W, H, lang), W, H,
                                                      "%s --lang %s --replay %s present %s" % (app, lang, recs[lid], lid)),
                                      (lid, lang)))
        screens, n = run_all(specs)
        server_cpu = proc_tree_cpu(tm.server_pid())
        if FAILED:
            raise Fail("%d visits failed:\n%s" % (len(FAILED), "\n\n".join(FAILED)))
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        tm.close()
    c1 = os.times()
    own = (c1.user - c0.user) + (c1.system - c0.system) + (c1.children_user - c0.children_user) + \
        (c1.children_system - c0.children_system)
    print("ok: lessons %s: %d visits, %d screens checked in %.1f s (CPU: %.1f s this script and its runs, "
          "%.1f s tmux and the tutor)" % (" ".join(mine), n, screens, time.monotonic() - t0, own, server_cpu))
    cpu_file = os.environ.get("VRAMLAB_TEST_CPU")
    if cpu_file:
        with open(cpu_file, "a") as f:
            f.write("%.2f\n" % server_cpu)
    return 0


def proc_tree_cpu(root):
    """CPU seconds of a process and everything under it, from /proc (tmux and the tutors in it)."""
    hz = os.sysconf("SC_CLK_TCK")
    parent, ticks = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            s = open("/proc/%s/stat" % d).read()
        except OSError:
            continue
        rest = s[s.rindex(")") + 2:].split()
        parent[int(d)] = int(rest[1])
        ticks[int(d)] = sum(int(x) for x in rest[11:15])
    total = 0
    for p, t in ticks.items():
        q_ = p
        while q_ and q_ != root and q_ > 1:
            q_ = parent.get(q_, 0)
        if q_ == root:
            total += t
    return total / hz


if __name__ == "__main__":
    sys.exit(main())
