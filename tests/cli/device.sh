#!/bin/sh
# device.sh BUILD - --device N and VRAMLAB_DEVICE choose the GPU: a malformed number is a usage
# error (exit 2, saying what is wrong), a device that does not exist a set-up error (exit 3,
# saying how many there are), and info reports the ordinal it opened. The simulator has device 0
# only; on a machine without a GPU, auto then has no backend to fall back to.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
h=$("$b" --help) || fail "--help exit $?"
echo "$h" | grep -q -- "--device N" || fail "--device missing from the usage"
for bad in x -1 1024 1.5 "" 0x1 " 1"; do
    out=$("$b" --backend sim --device "$bad" info 2>&1)
    [ $? -eq 2 ] || fail "--device '$bad': exit not 2: $out"
    echo "$out" | grep -q "device number 0..1023, not '$bad'" || fail "--device '$bad': $out"
    out=$(VRAMLAB_DEVICE="$bad" "$b" --backend sim info 2>&1)
    rc=$?
    if [ -n "$bad" ]; then
        [ $rc -eq 2 ] || fail "VRAMLAB_DEVICE='$bad': exit $rc: $out"
        echo "$out" | grep -q "VRAMLAB_DEVICE must be a device number 0..1023, not '$bad'" || fail "VRAMLAB_DEVICE='$bad': $out"
    else
        [ $rc -eq 0 ] || fail "an empty VRAMLAB_DEVICE is the default: exit $rc: $out"
    fi
done
out=$("$b" --backend sim --device 1 info 2>&1)
[ $? -eq 3 ] || fail "the simulator's device 1: exit not 3: $out"
echo "$out" | grep -q "the simulator has one device, 0 (device 1 was asked for)" || fail "device 1: $out"
out=$(VRAMLAB_DEVICE=2 "$b" --backend sim info 2>&1)
[ $? -eq 3 ] || fail "VRAMLAB_DEVICE=2 on the simulator: $out"
# the option wins over the environment, as every other option does
out=$(VRAMLAB_DEVICE=2 "$b" --backend sim --device 0 info --json) || fail "--device 0 over VRAMLAB_DEVICE=2"
echo "$out" | grep -q '"device":0' || fail "info --json has no device: $out"
out=$("$b" --backend sim --device 0 info) || fail "--device 0"
echo "$out" | grep -q "^Device: SIMULATED" || fail "info: $out"
if ! nvidia-smi -L >/dev/null 2>&1; then
    out=$("$b" --device 3 info 2>&1)
    [ $? -eq 3 ] || fail "auto with --device 3 and no GPU: $out"
    echo "$out" | grep -q "sim: the simulator has one device" || fail "auto: $out"
fi
echo "ok: --device and VRAMLAB_DEVICE parsed strictly, refused with the reason"
