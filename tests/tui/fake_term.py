"""fake_term.py MODE COMMAND... - run COMMAND on a pseudo-terminal (80x24, TERM=xterm-256color)
and play a terminal that answers the background query (OSC 11) as MODE says:

  light / dark   the colour (ST-terminated), then the device attributes (DA1)
  pieces         white, its bytes in three writes 50 ms apart, BEL-terminated, then DA1
  none           DA1 only, as tmux, screen and the Linux console do
  silent         nothing at all: the program must give up on its own
  typeahead      DA1 only, with "?" right after it, as if typed while the program started

It waits (deadline 10 s) for the menu, then for the help overlay when MODE is typeahead, sends q
and waits for the exit. Prints "theme=dark|light|none asked=yes|no help=yes|no rc=N": the
theme from the title bar's background colour (the dark theme's grey 237, the light theme's
252), whether the query was sent, whether the help overlay came up. Standard library only."""
import os
import pty
import re
import select
import struct
import sys
import termios
import fcntl
import time

QUERY = b"\033]11;?"
ANSWERS = {
    "light": [b"\033]11;rgb:ffff/ffff/ffff\033\\\033[?64;1c"],
    "dark": [b"\033]11;rgb:0000/0000/0000\033\\\033[?64;1c"],
    "pieces": [b"\033]11;rgb:ff", b"ff/ffff/ff", b"ff\007\033[?1;2c"],
    "none": [b"\033[?1;2c"],
    "silent": [],
    "typeahead": [b"\033[?1;2c?"],
}


def main():
    mode, cmd = sys.argv[1], sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out, asked, answered, quit_sent = b"", False, False, False
    deadline = time.monotonic() + 10
    rc = None
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if not asked and QUERY in out:
            asked = True
        if asked and not answered:
            answered = True
            for i, piece in enumerate(ANSWERS[mode]):
                if i:
                    time.sleep(0.05)
                os.write(fd, piece)
        text = re.sub(rb"\033\[[0-9;?]*[A-Za-z]|\033[()][A-Z0-9]|\033[=>]", b"", out)
        ready = b"lessons" in text and (mode != "typeahead" or b"Keys (Esc closes)" in text)
        if ready and not quit_sent:  # q closes the help overlay, and q quits
            os.write(fd, b"qq" if mode == "typeahead" else b"q")
            quit_sent = True
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            rc = os.waitstatus_to_exitcode(status)
            break
    while rc is None and time.monotonic() < deadline:  # the pty closed: the program is ending
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            rc = os.waitstatus_to_exitcode(status)
        else:
            time.sleep(0.02)
    if rc is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        rc = "hung"
    text = re.sub(rb"\033\[[0-9;?]*[A-Za-z]|\033[()][A-Z0-9]|\033[=>]", b"", out)
    theme = "light" if b"48;5;252m" in out else "dark" if b"48;5;237m" in out else "none"
    print("theme=%s asked=%s help=%s rc=%s" % (theme, "yes" if asked else "no",
                                              "yes" if b"Keys (Esc closes)" in text else "no", rc))


main()
