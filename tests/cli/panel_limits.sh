#!/bin/sh
# panel_limits.sh BUILD - a lesson's rows and maps reach the panels whole: 20 cells in a row and
# 20 blocks in a map print all 20 (the map's blocks add up to its stated total), 80 of either is
# an error at the lesson's own line naming the limit (never a silent cut), a block of an unknown
# state is an error there too, and --json carries the blocks typed (owner, state, bytes).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/ch09"
lesson() { # ID N STATE: a lesson whose experiment sends a row of N cells and a map of N blocks
    cat > "$T/ch09/$1-cells.lua" <<LUA
return lesson {
  id = "$1", chapter = 9, chapter_title = { en = "Limits", zh = "上限" },
  title = { en = "Cells", zh = "单元格" },
  experiment {
    id = "many", title = { en = "Many", zh = "很多" },
    panels = { { id = "t", kind = "table", title = { en = "T", zh = "表" } },
               { id = "m", kind = "map", title = { en = "M", zh = "图" } } },
    run = function(ex)
      local cells, blocks = {}, {}
      for i = 1, $2 do
        cells[i] = "c" .. i
        blocks[i] = { owner = "b" .. i, state = "$3", bytes = 1048576 }
      end
      ex:row("t", cells)
      ex:map("m", blocks, $2 * 1048576)
    end,
  },
}
LUA
}
lesson 9.1 20 allocated
out=$("$b" --backend sim --deterministic --lessons "$T" run 9.1 2>&1) || fail "20 cells: exit $?: $out"
row=$(printf '%s\n' "$out" | grep '^  \[t\] ') || fail "no row: $out"
[ "$(printf '%s\n' "$row" | tr '|' '\n' | wc -l)" -eq 20 ] || fail "the row lost cells: $row"
printf '%s\n' "$row" | grep -q 'c20$' || fail "the 20th cell is missing: $row"
map=$(printf '%s\n' "$out" | grep '^  \[m\] ') || fail "no map: $out"
printf '%s\n' "$map" | grep -q 'memory map (20 MiB in all)' || fail "map total: $map"
[ "$(printf '%s\n' "$map" | grep -o 'b[0-9]* 1 MiB' | wc -l)" -eq 20 ] || fail "the map lost blocks: $map"
j=$("$b" --backend sim --deterministic --lessons "$T" run 9.1 --json) || fail "--json exit $?"
printf '%s\n' "$j" | python3 -c '
import json, sys
maps = [d for d in map(json.loads, sys.stdin) if d["type"] == "map"]
assert len(maps) == 1, maps
b = maps[0]["blocks"]
assert len(b) == 20 and sum(x["bytes"] for x in b) == maps[0]["value"], b
assert b[19] == {"owner": "b20", "state": "allocated", "bytes": 1048576}, b[19]
' || fail "--json blocks"
# past the limit: an error at the lesson's line that names it, exit 1
lesson 9.2 80 allocated
out=$("$b" --backend sim --deterministic --lessons "$T" run 9.2 2>&1); rc=$?
[ $rc -eq 1 ] || fail "80 cells: exit $rc (want 1): $out"
printf '%s\n' "$out" | grep -q "9.2-cells.lua:[0-9]*: ex:row: 80 cells; at most 64" ||
    fail "no error naming the row limit at the lesson's line: $out"
printf '%s\n' "$out" | grep -q '^  \[t\] ' && fail "a cut row was printed: $out"
lesson 9.3 10 spilled
out=$("$b" --backend sim --deterministic --lessons "$T" run 9.3 2>&1); rc=$?
[ $rc -eq 1 ] || fail "unknown state: exit $rc (want 1): $out"
printf '%s\n' "$out" | grep -q "9.3-cells.lua:[0-9]*: ex:map: block 1: state 'spilled' (one of allocated" ||
    fail "no error naming the state at the lesson's line: $out"
echo "ok: 20 cells and 20 blocks whole; 80 and an unknown state are errors at the lesson's line"
