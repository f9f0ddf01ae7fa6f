#!/bin/sh
# state.sh BUILD - learner state and the files vramlab writes for a user go through one state
# module (tui/store/tui_state.c): a failed `--record` run leaves the previous recording as it was
# (it is written beside it and renamed at the end); --record refuses a FIFO (at once, never
# waited on), a link (its target untouched) and a folder; `reset` applies to the file as it is
# and never writes through a link; a progress file that cannot be used is kept aside, never
# replaced; with HOME and XDG_STATE_HOME unset state goes to the account's own home, or is
# refused in one line, never to a shared /tmp folder; a state folder owned by another user or
# writable by others is refused, read or write. Every command runs under a timeout, so a
# regression fails instead of hanging.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d)
trap 'chmod -R u+rwx "$t"; rm -rf "$t"' EXIT
export XDG_STATE_HOME="$t/state" VRAMLAB_DATADIR="$(pwd)"
unset VRAMLAB_LESSONS VRAMLAB_LANG
S="$XDG_STATE_HOME/vramlab"
app() { timeout 20 "$b" --backend sim --seed 1 --deterministic "$@"; }

# --record: a failed run leaves the recording it would replace (F14)
app --record "$t/a.jsonl" run 1.1 >/dev/null 2>&1 || fail "record run 1.1"
cp "$t/a.jsonl" "$t/a.orig"
[ "$(wc -c < "$t/a.orig")" -gt 2000 ] || fail "recording too short: $(wc -c < "$t/a.orig") bytes"
out=$(app --record "$t/a.jsonl" run 99.99 2>&1); rc=$?
[ $rc -eq 2 ] || fail "run 99.99 exit $rc: $out"
cmp -s "$t/a.jsonl" "$t/a.orig" || fail "a failed run changed the recording ($(wc -c < "$t/a.jsonl") bytes)"
app --record "$t/a.jsonl" --lang zh run 1.1 >/dev/null 2>&1 || fail "record again"
grep -q '"lang":"zh"' "$t/a.jsonl" || fail "a successful run did not replace the recording"
ls -a "$t" | grep -q '^\.a\.jsonl' && fail "a temporary file was left: $(ls -a "$t")"
# ... and one ended by a signal (SIGTERM, SIGHUP; the watchdog's exit) leaves no temporary file
# beside it either (a hidden file of any size, left for every interrupted run)
mkdir -p "$t/busy/ch09"
cat > "$t/busy/ch09/9.1-busy.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Chapter 9", zh = "第 9 章" },
  title = { en = "Busy", zh = "Busy" },
  text { en = "x", zh = "x" },
  experiment {
    id = "busy", title = { en = "Busy", zh = "Busy" },
    panels = { { id = "t", kind = "table", title = { en = "t", zh = "t" } } },
    run = function(ex) ex:row("t", { "started" }) while true do gpu.copy { dir = "h2d", bytes = "1MiB" } end end,
  },
}
LUA
for sig in TERM HUP watchdog; do
    hang= # the watchdog: the first copy never returns, past a wall limit of 1 s
    [ $sig = watchdog ] && hang="VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS=seconds=60,wall=1"
    # shellcheck disable=SC2086
    env $hang "$b" --backend sim --lessons "$t/busy" --record "$t/a.jsonl" run 9.1 >/dev/null 2>&1 &
    pid=$!
    n=0
    until ls -a "$t" | grep -q '^\.a\.jsonl\..*\.tmp$'; do
        n=$((n + 1)); [ $n -lt 200 ] || { kill -9 $pid; fail "$sig: no temporary file while recording"; }
        sleep 0.05
    done
    [ $sig = watchdog ] || kill -$sig $pid
    wait $pid
    rc=$?
    [ $rc -gt 1 ] || fail "$sig: exit $rc"
    ls -a "$t" | grep -q '^\.a\.jsonl' && fail "$sig (exit $rc) left a temporary file: $(ls -a "$t")"
    grep -q '"lang":"zh"' "$t/a.jsonl" || fail "$sig changed the recording"
done

# --record never opens a FIFO, never writes through a link, never into a folder (N01)
mkfifo "$t/fifo"
out=$(app --record "$t/fifo" run 1.1 2>&1); rc=$?
[ $rc -eq 124 ] && fail "--record FIFO hung"
[ $rc -eq 3 ] || fail "--record FIFO exit $rc: $out"
echo "$out" | grep -qF "$t/fifo: not a regular file (a FIFO)" || fail "--record FIFO: $out"
echo precious > "$t/victim"
ln -s "$t/victim" "$t/r.jsonl"
for lesson in 99.99 1.1; do
    out=$(app --record "$t/r.jsonl" run $lesson 2>&1); rc=$?
    [ $rc -eq 3 ] || fail "--record link exit $rc: $out"
    echo "$out" | grep -qF "r.jsonl: not a regular file (a symbolic link)" || fail "--record link: $out"
    [ "$(cat "$t/victim")" = precious ] || fail "--record wrote through a link ($lesson)"
done
out=$(app --record "$t" run 1.1 2>&1); [ $? -eq 3 ] || fail "--record a folder: $out"

# progress that cannot be used is kept aside, never replaced; reset never writes through a link
mkdir -p "$S"
printf 'vramlab-progress 1\nvisit 1.1 12\nvisit 1.2 13\n' > "$t/theirs"
ln -s "$t/theirs" "$S/progress"
out=$(app reset --yes 2>&1) || fail "reset with a linked progress file: $out"
echo "$out" | grep -q "symbolic link; kept it as" || fail "reset did not say the link was kept aside: $out"
[ "$(wc -l < "$t/theirs")" -eq 3 ] || fail "reset wrote through the link: $(cat "$t/theirs")"
[ -L "$(ls -d "$S"/progress.corrupt-* | head -n 1)" ] || fail "the link was not kept aside: $(ls -la "$S")"
rm -f "$S"/progress*
printf 'vramlab-progress 1\nvisit 1.1 12\nvisit 1.2 13\n' > "$S/progress"
out=$(app reset 1.1 --yes 2>&1) || fail "reset 1.1: $out"
echo "$out" | grep -q "forgot 1 record" || fail "reset 1.1: $out"
[ "$(cat "$S/progress")" = "$(printf 'vramlab-progress 1\nvisit 1.2 13')" ] || fail "reset 1.1 left: $(cat "$S/progress")"
if [ "$(id -u)" != 0 ]; then # root reads every file: an unreadable one cannot be staged
    chmod 000 "$S/progress"
    out=$(app reset --yes 2>&1); [ $? -eq 1 ] || fail "reset of an unreadable file: $out"
    chmod 600 "$S/progress"
    grep -q 'visit 1.2' "$S/progress" || fail "an unreadable progress file was replaced"
fi

# a state folder others may write to, or another user's, is neither read nor written (F20)
chmod 777 "$S"
out=$(app progress 2>&1); [ $? -eq 1 ] && echo "$out" | grep -q "other users may write to it" ||
    fail "progress in a folder writable by all: $out"
out=$(app reset --yes 2>&1); [ $? -eq 1 ] || fail "reset in a folder writable by all: $out"
grep -q 'visit 1.2' "$S/progress" || fail "reset wrote in a folder writable by all"
chmod 700 "$S"
# (the accounts are staged as root; another user runs what is left, the caller's home untouched)
if [ "$(id -u)" = 0 ]; then
    chown 65534 "$S"
    out=$(app progress 2>&1); echo "$out" | grep -q "owned by another user" || fail "another user's folder: $out"
    chown 0 "$S"
    # HOME and XDG_STATE_HOME unset: the account's home from the password database, never /tmp;
    # an account without one: refused in one line (nobody's home is /nonexistent: nothing made)
    nobody=$(getent passwd 65534 | cut -d: -f6)
    out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env -u HOME -u XDG_STATE_HOME \
          timeout 20 "$b" --backend sim progress 2>&1) || fail "progress as uid 65534: $out"
    echo "$out" | head -n 1 | grep -qxF "Progress ($nobody/.local/state/vramlab/progress)" ||
        fail "HOME unset: $out"
    out=$(setpriv --reuid=54321 --regid=54321 --clear-groups env -u HOME -u XDG_STATE_HOME \
          timeout 20 "$b" --backend sim progress 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "no home at all: exit $rc: $out"
    [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q "no private folder for learner state" ||
        fail "no home at all: $out"
fi
echo "ok: recordings written whole or not at all, progress never replaced unread, private state folder"
