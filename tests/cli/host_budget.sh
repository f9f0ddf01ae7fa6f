#!/bin/sh
# host_budget.sh BUILD - the host budget (host.budget()): half of the RAM, or the run's cap
# (VRAMLAB_HOST_MAX, read strictly); a default size fits it, a size past it is refused with a
# message naming the cap, and a bad cap is a usage error naming the variable.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
app="$b --backend sim --deterministic"
cat >"$T/b.lua" <<'LUA'
local hb = host.budget()
if CAP then
  assert(hb == CAP, "budget " .. hb .. " is not the cap " .. CAP)
  local r = assert(host.copy { trials = 1 }) -- the default size: whole pages, two arrays
  assert(r.bytes == CAP // 2 // 4096 * 4096, "default size " .. r.bytes)
  local none, why = host.copy { bytes = CAP, trials = 1 }
  assert(none == nil and why:find("host budget") and why:find("VRAMLAB_HOST_MAX"), tostring(why))
else
  assert(hb == host.info().ram_bytes // 2, "budget " .. hb .. " is not half of the RAM")
end
print("budget ok", hb)
LUA
out=$(env -u VRAMLAB_HOST_MAX $app eval "$T/b.lua" 2>&1) || fail "no cap: $out"
{ echo "CAP = 8 * 1024 * 1024"; cat "$T/b.lua"; } >"$T/c.lua"
out=$(VRAMLAB_HOST_MAX=8MiB $app eval "$T/c.lua" 2>&1) || fail "8 MiB cap: $out"
for bad in 12abc -1 0 1KiB 2TiB x; do
    out=$(VRAMLAB_HOST_MAX="$bad" $app info 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "VRAMLAB_HOST_MAX='$bad': exit $rc, expected 2: $out"
    echo "$out" | grep -q "VRAMLAB_HOST_MAX: " || fail "VRAMLAB_HOST_MAX='$bad': no reason: $out"
done
# the short passes' switch is read as strictly: 0 or 1
for bad in 2 yes x; do
    out=$(VRAMLAB_HOST_QUICK="$bad" $app info 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "VRAMLAB_HOST_QUICK='$bad': exit $rc, expected 2: $out"
    [ "$out" = "vramlab: VRAMLAB_HOST_QUICK: '$bad' is not 0 or 1" ] ||
        fail "VRAMLAB_HOST_QUICK='$bad': $out"
done
for ok in 0 1; do
    out=$(VRAMLAB_HOST_MAX=8MiB VRAMLAB_HOST_QUICK=$ok $app eval "$T/c.lua" 2>&1) || fail "VRAMLAB_HOST_QUICK=$ok: $out"
done
echo "ok: host.budget() is half of the RAM or the cap; past it, a refusal naming the cap"
