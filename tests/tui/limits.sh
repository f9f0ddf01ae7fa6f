#!/bin/sh
# limits.sh BUILD - one definition per limit, kept by every layer: an experiment that sends a
# table of 1000 rows of 16 references to one 64 KiB string is cut at the source (256 bytes a
# cell, 4 MiB of text a run), so the tutor's peak memory stays small and the cells end with
# "…"; a recording played back (--replay) is held to the same limits as it is read, so a
# recording of 16 rows of 16 cells of 64 KiB each shows cells cut at 256 bytes, and the tutor
# stays small and answers keys (it built a line list of every wrapped cell at each frame, GBs
# for a recording of 235 MB); an exercise id of LT_ID_MAX (64) bytes is accepted by the validator, named as a
# workspace file and saved in the progress when `watch` grades it, and one byte more is refused
# by `check`.
. tests/tui/tmux.lib "$@"
test_course
export VRAMLAB_DATADIR="$T/data"
L="$T/data/lessons/ch09"
id64=$(printf 'e%.0s' $(seq 1 64))
cat > "$L/9.1-rows.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Big rows", zh = "大行" },
  text { en = "Rows.", zh = "行。" },
  experiment { id = "rows", title = { en = "Many rows", zh = "很多行" },
    panels = { { id = "t", kind = "table", title = { en = "Table", zh = "表" } } },
    run = function(ex)
      local s = ("x"):rep(65536) -- one string, held once by Lua
      local cells = {}
      for i = 1, 16 do cells[i] = s end
      for i = 1, 1000 do ex:row("t", cells) end
    end },
}
LUA
cat > "$L/9.2-long-id.lua" <<LUA
return lesson {
  id = "9.2", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Long id", zh = "长 id" },
  text { en = "One exercise.\n\n> [!source] Sources\n> A test lesson.", zh = "一道练习。\n\n> [!source] 出处\n> 测试用的课。" },
  exercise {
    id = "$id64", kind = "code",
    prompt = { en = "Write \`one()\` returning 1.", zh = "写 \`one()\`，返回 1。" },
    entry = "one",
    starter = "function one()\n  return 0\nend\n",
    check = function(fn) return fn() == 1, { en = "not 1", zh = "不是 1" } end,
    hints = { { en = "Return 1.", zh = "返回 1。" } },
    explain = { en = "return 1", zh = "return 1" },
  },
}
LUA

# peak_under_256m WHAT: the tutor in the pane has never held 256 MiB or more (a sanitizer's shadow
# and quarantine are memory of its own: the figure is the normal build's)
peak_under_256m() {
    pane=$(tmux -L "$SOCK" display-message -p '#{pane_pid}')
    pid=$(pgrep -P "$pane" -f vramlab | head -n 1)
    [ -n "$pid" ] || fail "no tutor process under the pane"
    hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
    [ -n "$VRAMLAB_TEST_TAG" ] || [ "$hwm" -lt 262144 ] ||
        fail "the tutor's peak resident memory is $hwm KiB for $1"
}
# leave: from a lesson back to the menu, and out
leave() {
    wait_for 'vramlab · lessons' 5
    keys q
    wait_exit 5
    [ "$RC" = 0 ] || fail "exit code $RC"
}

# the table: cut at the source, the tutor's peak resident memory well under what 1000 x 16 x 64 KiB
# of copies would take (1 GiB)
start 120 40 "$APP"
wait_for '9\.1 +Big rows'
keys Enter
wait_for 'vramlab · 9\.1 Big rows' 5
keys ']'
wait_for 'Run: Many rows' 3
keys Enter
wait_for 'Run again' 60
wait_for 'xxxxxxx…' 3
peak_under_256m "a 1 MiB lesson string"
keys q
leave

# a recording played back: its text cut as it is read, at the limits a live run has
# (the run itself stops at its 4 MiB of text: only its header and run line are taken)
"$BIN" --backend sim --record "$T/small.jsonl" run 9.1 >/dev/null 2>&1
[ "$(head -n 2 "$T/small.jsonl" | grep -c '"type":"\(header\|run\)"')" = 2 ] ||
    fail "no recording of 9.1: $(head -c 300 "$T/small.jsonl")"
big=$(head -c 65536 /dev/zero | tr '\0' y)
{
    head -n 2 "$T/small.jsonl" # the header and the run line
    row="{\"type\":\"event\",\"run\":1,\"t\":0,\"ev\":\"row\",\"panel\":\"t\",\"cells\":[\"$big\""
    i=1
    while [ $i -lt 16 ]; do row="$row,\"$big\""; i=$((i + 1)); done
    row="$row]}"
    i=0
    while [ $i -lt 16 ]; do printf '%s\n' "$row"; i=$((i + 1)); done
    printf '{"type":"end","run":1,"t":0,"state":"done","error":""}\n'
} > "$T/big.jsonl"
[ "$(wc -c < "$T/big.jsonl")" -gt 16000000 ] || fail "the recording is $(wc -c < "$T/big.jsonl") bytes"
fresh replay
start 120 40 "$APP --replay $T/big.jsonl 9.1"
wait_for 'vramlab · 9\.1 Big rows' 10
keys ']'
wait_for 'Run: Many rows' 3
keys Enter
wait_for 'Run again' 30
wait_for 'yyyyyyy…' 10
sync '?' 'Keys \(Esc closes\)' 10
peak_under_256m "a 17 MB recording"
keys Escape q
leave

# an id of 64 bytes: a workspace file, graded by watch, saved in the progress
out=$("$BIN" --backend sim check 9.2 2>&1) || fail "check of a 64-byte id: $out"
out=$("$BIN" --backend sim exercises "$T/ws") || fail "exercises: $out"
F="$T/ws/9.2-$id64.lua"
[ -f "$F" ] || fail "no workspace file for the 64-byte id: $(ls "$T/ws")"
fresh watch
start 120 40 "$APP watch $T/ws"
wait_for 'vramlab watch' 5
printf 'function one()\n  return 1\nend\n' > "$F.new" && mv "$F.new" "$F"
wait_for '✓ Passed!' 10
keys q
wait_exit 5
grep -q "^ex 9\.2 $id64 1 1 " "$XDG_STATE_HOME/vramlab/progress" ||
    fail "the solve of a 64-byte id was not saved: $(cat "$XDG_STATE_HOME/vramlab/progress")"
sed -i "s/id = \"$id64\"/id = \"${id64}e\"/" "$L/9.2-long-id.lua"
out=$("$BIN" --backend sim check 9.2 2>&1) && fail "check accepted a 65-byte id"
echo "$out" | grep -q "at most 64" || fail "check of a 65-byte id: $out"
echo "ok: panel text cut at the source and in a replay, one id length for validator, files and progress"
