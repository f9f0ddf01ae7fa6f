#!/bin/sh
# Allocators belong to the run that made them: an experiment that leaves one open (even reachable
# from a global) has it closed when the experiment ends, so the next experiment sees all device
# memory back, and a script that never closes one leaks nothing at exit.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/leak.lua" <<'L'
local start
return lesson {
  id = "9.1", chapter = 9,
  title = { en = "T", zh = "T" }, chapter_title = { en = "C", zh = "C" },
  experiment { id = "one", title = { en = "one", zh = "one" },
    panels = { { id = "t", kind = "table", title = { en = "t", zh = "t" } } },
    run = function(ex)
      start = gpu.mem()
      KEEP = alloc.caching {}            -- a global: the GC will not take it
      KEEP_BLOCK = assert(KEEP:malloc(256 * 2^20))
      RAW = alloc.raw {}
      assert(RAW:malloc(3 * 2^20))
      assert(gpu.mem() < start)
    end },
  experiment { id = "two", title = { en = "two", zh = "two" },
    panels = { { id = "t", kind = "table", title = { en = "t", zh = "t" } } },
    run = function(ex)
      assert(gpu.mem() == start, "memory of the first experiment still held")
      assert(not pcall(KEEP.stats, KEEP), "allocator still usable after its experiment ended")
      assert(not KEEP_BLOCK:live(), "block of a closed allocator still live")
      ex:row("t", { "ok" })
    end },
}
L
out=$("$b" --backend sim --deterministic run "$d/leak.lua" 2>&1) || fail "run exit $?: $out"
echo "$out" | grep -q "\[t\] ok" || fail "second experiment: $out"
printf 'A = alloc.caching{}\nB = assert(A:malloc(64 * 2^20))\nC = alloc.raw{}\nassert(C:malloc(1))\n' > "$d/s.lua"
out=$("$b" --backend sim eval "$d/s.lua" 2>&1) || fail "eval leaving allocators open: exit $?: $out"
exit 0
