#!/bin/sh
# validation.sh BUILD - a measurement whose data is wrong is an error, never a figure: with every
# simulated copy and kernel leaving its output as it was (VRAMLAB_FAULT_CORRUPT), gpu.copy,
# gpu.stream and host.stream return nil and say what differs, and a lesson that measures fails
# with that message; without the fault every result says validated = true.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/v.lua" <<'LUA'
local want_ok = ...
local function expect(name, r, err)
  if CORRUPT then
    assert(r == nil, name .. ": a figure came back from wrong data")
    assert(err:match("validation failed"), name .. ": " .. tostring(err))
    print(name .. ": " .. err)
  else
    assert(r and r.validated == true, name .. ": not validated: " .. tostring(err))
  end
end
expect("d2d ce", gpu.copy { dir = "d2d", bytes = "8MiB", trials = 2 })
expect("d2h sm", gpu.copy { dir = "d2h", method = "sm", bytes = "8MiB", trials = 2 })
expect("stream triad", gpu.stream { kernel = "triad", bytes = "8MiB", trials = 2 })
expect("stream dot", gpu.stream { kernel = "dot", bytes = "8MiB", trials = 2 })
expect("host dot", host.stream { kernel = "dot", bytes = "1MiB", trials = 2 })
expect("host memcpy", host.copy { bytes = "1MiB", trials = 2 })
LUA
"$b" --backend sim -d eval "$T/v.lua" >"$T/ok.txt" 2>&1 || fail "without a fault: $(cat "$T/ok.txt")"
{ echo "CORRUPT = true"; cat "$T/v.lua"; } >"$T/c.lua"
out=$(VRAMLAB_FAULT_CORRUPT=1 "$b" --backend sim -d eval "$T/c.lua" 2>&1) || fail "with the fault: $out"
echo "$out" | grep -q "d2d ce: validation failed: the copy's destination: 8388608 of 8388608 bytes differ" ||
    fail "the copy's message: $out"
echo "$out" | grep -q "stream dot: validation failed: dot product" || fail "dot's message: $out"
# a lesson that measures stops on it, with the message
out=$(VRAMLAB_FAULT_CORRUPT=1 "$b" --backend sim -d run 1.4 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "lesson 1.4 on wrong data: exit $rc"
echo "$out" | grep -q "validation failed" || fail "lesson 1.4 does not say why: $out"
echo "ok: wrong data is an error with its reason, everywhere"
