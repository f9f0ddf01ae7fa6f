#!/bin/sh
# gpu_failed.sh BUILD - a GPU that fails or is full. A sticky error at the Nth device operation
# (VRAMLAB_FAULT_STICKY=N, the simulator's stand-in for an illegal address or a kernel fault)
# marks the backend failed: `vramlab run` says so and exits 1, later device calls refuse with
# the same state, host experiments and text still run, nothing stays allocated. A GPU that other
# processes fill (VRAMLAB_SIM_OTHER_BYTES=all) gives a clear "no free memory" message at once.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
app="$b --backend sim --deterministic"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/lessons/ch09"
ln -s "$(pwd)/assets" "$t/assets"
cat > "$t/lessons/ch09/9.1-gpu-fails.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Faults", zh = "故障" },
  title = { en = "A GPU that fails", zh = "出故障的 GPU" },
  text { en = "Text before the experiments.", zh = "实验前的文字。" },
  experiment { id = "dev", title = { en = "Device copy", zh = "设备拷贝" },
    panels = { { id = "bw", kind = "bars", title = { en = "Bars", zh = "柱" }, unit = "GB/s" } },
    run = function(ex)
      local r, err = gpu.copy { dir = "d2d", bytes = "16MiB", trials = 2 }
      if not r then ex:note("bw", "device: " .. err) return end
      ex:bar("bw", "d2d", r.bytes_per_s / 1e9, { from = r })
    end },
  experiment { id = "host", title = { en = "Host copy", zh = "主机拷贝" },
    panels = { { id = "bw", kind = "bars", title = { en = "Bars", zh = "柱" }, unit = "GB/s" } },
    run = function(ex)
      local r = assert(host.copy { bytes = "1MiB", trials = 2 })
      ex:bar("bw", "host memcpy", r.bytes_per_s / 1e9, { from = r })
      local b, err = gpu.alloc(4096)
      ex:note("bw", "after the fault, gpu.alloc says: " .. tostring(err))
      if b then b:free() end
    end },
  text { en = "Text after the experiments.", zh = "实验后的文字。" },
}
LUA
# the shipped lessons that allocate on the device
list=$($app list --json)
gpu_ids=$(echo "$list" | while read -r l; do
    p=$(echo "$l" | sed -n 's/.*"path":"\([^"]*\)".*/\1/p')
    [ -n "$p" ] && grep -q 'gpu\.alloc\|gpu\.copy\|gpu\.stream\|alloc\.caching\|alloc\.raw\|alloc\.async_pool' "$p" && echo "$l" | sed -n 's/.*"id":"\([0-9][0-9.]*\)".*/\1/p'
done)
[ -n "$gpu_ids" ] || fail "no lesson uses the device"
ops=0
for n in 1 2 3 5 8; do
    out=$(VRAMLAB_DATADIR=$t VRAMLAB_FAULT_STICKY=$n $app run 9.1 2>"$t/err"); rc=$?
    ops=$((ops + 1))
    err=$(cat "$t/err")
    if echo "$out" | grep -q "host memcpy"; then :; else fail "sticky at op $n: the host experiment did not run: $out $err"; fi
    echo "$out" | grep -q "Text after the experiments" || fail "sticky at op $n: text after the fault missing"
    if echo "$out$err" | grep -q "SIMULATED sticky error injected at device operation #$n"; then
        [ $rc -eq 1 ] || fail "sticky at op $n: exit $rc, expected 1"
        echo "$err" | grep -q "the GPU failed during this experiment\|illegal memory access" ||
            fail "sticky at op $n: run does not report the failed GPU: $err"
        echo "$out" | grep -q "gpu.alloc says: .*failed state\|gpu.alloc says: .*sticky" ||
            fail "sticky at op $n: later device calls do not name the failed state: $out"
    else
        [ $rc -eq 0 ] || fail "sticky at op $n past the last operation: exit $rc: $err"
    fi
    echo "$err" | grep -q "internal error" && fail "sticky at op $n: memory left allocated: $err"
done
# the lessons shipped: a sticky error at the first device operation never crashes or hangs one
for id in $gpu_ids; do
    VRAMLAB_FAULT_STICKY=1 timeout 120 $app run "$id" >/dev/null 2>"$t/err"; rc=$?
    case $rc in 0|1) ;; *) fail "lesson $id with a sticky error: exit $rc: $(cat "$t/err")" ;; esac
    ops=$((ops + 1))
done
# a GPU that other processes fill: clear messages, no hang
info=$(VRAMLAB_SIM_OTHER_BYTES=all timeout 20 $app info) || fail "info with a full GPU"
echo "$info" | grep -q " 0 B free" || fail "info does not show the full GPU: $info"
out=$(VRAMLAB_SIM_OTHER_BYTES=all timeout 20 $app eval - 2>&1 <<'LUA'
local b, err = gpu.alloc(4096)
print(b, err)
print(pcall(gpu.alloc, 0))
print(gpu.copy { dir = "d2d", bytes = "1MiB" })
print(host.copy { bytes = "1MiB", trials = 1 } ~= nil)
LUA
) || fail "eval with a full GPU: $out"
echo "$out" | grep -q "nil.*the GPU has no free memory" || fail "full GPU: gpu.alloc message: $out"
echo "$out" | grep -q "size 0 - the GPU has no free memory" || fail "full GPU: size 0 message: $out"
echo "$out" | grep -q "^true$" || fail "full GPU: host experiment: $out"
for id in $gpu_ids; do
    VRAMLAB_SIM_OTHER_BYTES=all timeout 120 $app run "$id" >/dev/null 2>"$t/err"; rc=$?
    case $rc in 0|1) ;; *) fail "lesson $id on a full GPU: exit $rc: $(cat "$t/err")" ;; esac
    ops=$((ops + 1))
done
echo "sticky/full-GPU runs: $ops"
exit 0
