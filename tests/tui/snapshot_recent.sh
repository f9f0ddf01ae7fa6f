#!/bin/sh
# snapshot_recent.sh BUILD - the snapshot picker lists only what the safe reader would open, the
# files opened before too (the state folder's recent-snapshots): a snapshot opened, then replaced by a FIFO, is no longer
# offered (it was, and picking it only then said why it could not be read).
. tests/tui/tmux.lib "$@"
cp assets/snapshots/gpt-train-oom.pickle "$T/mine.pickle"
start 100 30 "$APP"
wait_for 'o: your own program' 5
keys o
wait_for 'Shipped examples' 3
keys -l "$T/mine.pickle"
keys Enter
wait_for 'Largest live at the cursor' 10
keys Escape
wait_for 'Shipped examples' 3
keys Escape
wait_for 'o: your own program' 3
keys o
wait_for 'Files opened before' 3
screen | grep -q '^ *[^>]*/mine\.pickle' || fail "the file opened is not offered again"
keys Escape
wait_for 'o: your own program' 3
rm "$T/mine.pickle"
mkfifo "$T/mine.pickle"
keys o
wait_for '[Ss]hipped examples' 3
screen | grep -q 'mine\.pickle' && fail "a FIFO is offered where the file opened before was"
keys Escape
wait_for 'o: your own program' 3
keys q
wait_exit 5
[ "$RC" = 0 ] || fail "exit code $RC"
echo "ok: the picker offers only what the reader would open, files opened before too"
