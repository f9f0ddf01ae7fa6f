#!/bin/sh
# sandbox.sh BUILD - the sandbox's limits from the command line, with small limits
# (VRAMLAB_LIMITS) so that each case ends in about a second:
# - C-library loops, memory bombs and measurement loops end with "file:line: stopped: ..." and
#   exit 1 in eval, in a lesson under check/list/run, and as a graded answer;
# - code answers cannot cheat their grade (an answer that rewrites _G.math, and variants that rewrite the
#   checker's libraries or return values with metamethods are graded wrong; the right answer
#   after them is right);
# - a lesson that rewrites itself after validation is refused by check (file:line, exit 1), and
#   `exercises` writes nothing outside its folder;
# - a device call that never returns (VRAMLAB_FAULT_HANG) is ended by the watchdog: exit 6 and
#   a message naming what ran; a bad VRAMLAB_LIMITS is a usage error.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export VRAMLAB_LIMITS="seconds=0.5,instructions=5000000,memory=16MiB,wall=0.5"
l14=lessons/ch01/1.4-how-vram-evolved.lua # by path: no catalog scan per grading
vl() { "$b" --backend sim --deterministic --seed 1 --lang en "$@" </dev/null; }

# --- bombs: each line is a payload; each must stop with a message that says where and why
cat > "$d/bombs" <<'EOF'
table.move({}, 1, math.maxinteger, 1)
table.move({}, 1, math.maxinteger, 1, {})
for i = 1, math.huge do string.rep("", math.maxinteger) end
for i = 1, math.huge do string.rep("", math.maxinteger, "") end
table.insert(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1, 0)
table.remove(setmetatable({}, {__len = function() return math.maxinteger - 1 end}), 1)
table.sort(setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, __newindex = rawequal}))
local t = {} for i = 1, 1e5 do t[i] = 65 end for i = 1, math.huge do utf8.char(table.unpack(t)) end
local s = string.rep("x", 2^40)
while true do host.copy{bytes = "1MiB", trials = 2} end
coroutine.wrap(function() while true do host.copy{bytes = "1MiB", trials = 2} end end)()
for i = 1, 1e9 do alloc.trace_replay(("a 1 1MiB\nf 1\n"):rep(2000)) end
local a = alloc.model{capacity = "4TiB"} for i = 1, 1e9 do a:malloc(512) end
local a = alloc.raw{capacity = "4TiB"} for i = 1, 1e9 do a:malloc(512) end
local a = alloc.model{capacity = "4TiB"} a:record() for i = 1, 1e9 do a:free(a:malloc(512)) end
EOF
stop='stopped: \(the code ran past the sandbox limit\|the run went past the sandbox limit\|memory limit\)'
n=0
while IFS= read -r bomb; do
    n=$((n + 1))
    printf '%s\nprint("escaped")\n' "$bomb" > "$d/bomb$n.lua"
    t0=$(date +%s.%N)
    # wall=0.2: the measurement and allocator loops end at the wall, the others sooner (a
    # limit of 0.5 s, the rest of the file's, took 2 s of CPU over four loops, to the same stop)
    out=$(VRAMLAB_LIMITS="${VRAMLAB_LIMITS%,wall=*},wall=0.2" timeout 60 "$b" --backend sim eval "$d/bomb$n.lua" 2>&1); rc=$?
    [ -n "$VERBOSE" ] && echo "bomb $n: $(echo "$(date +%s.%N) - $t0" | bc) s"
    [ $rc -eq 1 ] || fail "eval bomb $n exited $rc (want 1): $bomb: $out"
    echo "$out" | grep -q "bomb$n.lua:[0-9]*: $stop" || fail "eval bomb $n: $bomb: $out"
    echo "$out" | grep -q escaped && fail "bomb $n went on: $bomb"
done < "$d/bombs"
echo "  $n bombs stopped in eval"

# --- the same at the top of a lesson file: check, list and run end, naming the file
mkdir -p "$d/data/lessons/ch09"
ln -s "$(pwd)/assets" "$d/data/assets"
head -n 1 "$d/bombs" > "$d/data/lessons/ch09/9.1-hang.lua"
for cmd in check list "run 9.1"; do
    out=$(timeout 60 "$b" --backend sim --datadir "$d/data" $cmd 2>&1 </dev/null); rc=$?
    [ $rc -ne 0 ] && [ $rc -lt 124 ] || fail "$cmd with a looping lesson exited $rc"
    echo "$out" | grep -q "9.1-hang.lua:1: $stop" || [ "$cmd" = "run 9.1" ] ||
        fail "$cmd with a looping lesson: $out"
done
rm "$d/data/lessons/ch09/9.1-hang.lua"

# --- grading: a looping answer is a wrong answer with a message; cheats are graded wrong
printf 'function peak_gbs(a, b) table.move({}, 1, math.maxinteger, 1) end\n' > "$d/hang.lua"
out=$(timeout 60 "$b" --backend sim --lang en grade $l14 peak-code "@$d/hang.lua" 2>&1); rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "looping answer: exit $rc: $out" # wrong, or not a try
echo "$out" | grep -q "sandbox limit" || fail "looping answer: $out"
cheat() { # NAME SOURCE
    printf '%s\n' "$2" > "$d/$1.lua"
    out=$(vl grade $l14 peak-code "@$d/$1.lua" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "cheat $1 exited $rc (want 1: wrong): $out"
    case $out in Right*) fail "cheat $1 graded right: $out" ;; esac
}
cheat cheat 'function peak_gbs() return 0 end
_G.math = { abs = function() return 0 end }'
cheat math 'function peak_gbs() return 0 end math.abs = function() return 0 end'
cheat type 'type = function() return "number" end
function peak_gbs() return setmetatable({}, {__sub = function() return 0 end}) end'
cheat string 'string.format = function() return "" end tostring = function() return "" end
function peak_gbs() return 0 end'
cheat table 'table.concat = nil pairs = nil ipairs = nil function peak_gbs() return 0 end'
cheat env '_ENV = setmetatable({}, {__index = _G}) function peak_gbs() return 0 end'
cheat gmeta 'setmetatable(_G, {__index = function() return function() return 0 end end})
function peak_gbs() return 0 end'
cheat load 'load("math.abs = function() return 0 end")() function peak_gbs() return 0 end'
cheat eq 'function peak_gbs() return setmetatable({}, {__eq = function() return true end,
  __lt = function() return false end, __le = function() return true end,
  __sub = function() return 0 end, __tostring = function() return "Right." end}) end'
cheat err 'function peak_gbs() error(setmetatable({}, {__tostring = function() return "Right." end})) end'
out=$(vl grade $l14 peak-code 'function peak_gbs(bus_bits, clock_mhz)
  return 2 * clock_mhz * 1e6 * bus_bits / 8 / 1e9
end' 2>&1) ||
    fail "the right answer after the cheats: $out"
case $out in Right*) ;; *) fail "the right answer after the cheats: $out" ;; esac
echo "  10 cheats graded wrong"

# --- a lesson that renames itself after validation: check refuses it, exercises skips it
cat > "$d/data/lessons/ch09/9.1-evil.lua" <<'EOF'
local ex = exercise {
  id = "e1", kind = "code",
  prompt = { en = "Write f.", zh = "写 f。" }, explain = { en = "ok", zh = "ok" },
  hints = { { en = "h", zh = "h" } }, entry = "f",
  check = function(fn) return true end,
  starter = "-- planted\nfunction f() end\n",
}
local L = lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Evil", zh = "Evil" }, title = { en = "Evil lesson", zh = "Evil lesson" },
  text { en = "hello", zh = "hello" }, ex,
}
local mutate <close> = setmetatable({}, { __close = function()
  L.id = "../../../rt-pwn/planted"
  ex.id = "x"
end })
return L
EOF
out=$(vl --datadir "$d/data" check "$d/data/lessons/ch09/9.1-evil.lua" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "check of a lesson that renames itself exited $rc: $out"
echo "$out" | grep -q "9.1-evil.lua:8: the lesson changed after lesson{} validated it" ||
    fail "check message: $out"
mkdir -p "$d/data/sub"
(cd "$d/data/sub" && vl --datadir "$d/data" exercises ws >/dev/null 2>&1)
find "$d" -name '*planted*' | grep -q . && fail "a file was planted: $(find "$d" -name '*planted*')"
[ -z "$(find "$d/data" -newer "$d/bombs" -name '*.lua' -not -path '*/lessons/*')" ] ||
    fail "exercises wrote: $(find "$d/data" -newer "$d/bombs" -name '*.lua' -not -path '*/lessons/*')"

# --- the watchdog ends a run stuck in a device call
printf 'print("start")\nlocal b = gpu.alloc(2^20)\nprint("never")\n' > "$d/stuck.lua"
out=$(VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS="seconds=0.5,wall=1" timeout 30 "$b" --backend sim eval "$d/stuck.lua" 2>&1); rc=$?
[ $rc -eq 6 ] || fail "stuck device call: exit $rc (want 6): $out"
echo "$out" | grep -q "watchdog: file $d/stuck.lua ran .* past the sandbox's limit" ||
    fail "watchdog message: $out"
echo "$out" | grep -q never && fail "the stuck run went on"
printf 'print(gpu.copy{dir = "h2d", bytes = 4096, trials = 1})\n' > "$d/stuck2.lua"
out=$(VRAMLAB_FAULT_HANG=1 VRAMLAB_LIMITS="seconds=0.5,wall=1" timeout 30 "$b" --backend sim eval "$d/stuck2.lua" 2>&1); rc=$?
[ $rc -eq 6 ] || fail "stuck measurement: exit $rc (want 6): $out"
echo "$out" | grep -q "wall time (measurements included)" || fail "watchdog message: $out"

# --- Lua's time limit is CPU time: a loop that computes is stopped by it, and a run that a busy
# machine slows down is not (a competitor on the same CPU leaves the run a tenth of it, so 0.25 s
# of computing takes seconds of wall time, past the 0.5 s limit)
printf 'while true do end\n' > "$d/spin.lua"
out=$(VRAMLAB_LIMITS="seconds=0.3,instructions=1e12,wall=30" timeout 30 "$b" --backend sim eval "$d/spin.lua" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "spin: exit $rc (want 1): $out"
echo "$out" | grep -q "spin.lua:1: stopped: the code ran past the sandbox limit (.* or 0.3 s)" ||
    fail "spin message: $out"
if command -v taskset >/dev/null 2>&1; then
    printf 'local t = os.clock()\nwhile os.clock() - t < 0.25 do end\nprint("done")\n' > "$d/slow.lua"
    taskset -c 0 sh -c 'while :; do :; done' & hog=$!
    out=$(VRAMLAB_LIMITS="seconds=0.5,instructions=1e12,wall=120" taskset -c 0 nice -n 10 \
          "$b" --backend sim eval "$d/slow.lua" 2>&1); rc=$?
    kill $hog
    [ $rc -eq 0 ] && [ "$out" = done ] || fail "a run slowed by a busy CPU was stopped: exit $rc: $out"
fi

# --- VRAMLAB_LIMITS is checked
for bad in "seconds=x" "seconds=0" "memory=1" "nope=1" "wall=-1" "instructions=1e30"; do
    out=$(VRAMLAB_LIMITS="$bad" "$b" --backend sim eval "$d/stuck.lua" 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "VRAMLAB_LIMITS=$bad: exit $rc"
    echo "$out" | grep -q "VRAMLAB_LIMITS" || fail "VRAMLAB_LIMITS=$bad: $out"
done
exit 0
