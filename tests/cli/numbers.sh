#!/bin/sh
# Strict numbers from the command line, the environment and configuration text: trailing text,
# overflow, signs, hex, inf/nan and values out of range are refused with exit 2 and a message
# that names what was read and states the accepted range; nothing is clamped. Good values work.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# refused VAR=VALUE|- ARGS... WANT: exit 2 and WANT in the message
refused() {
    env=$1 want=$2; shift 2
    if [ "$env" = - ]; then out=$("$b" "$@" 2>&1); rc=$?
    else out=$(env "$env" "$b" "$@" 2>&1); rc=$?; fi
    [ $rc -eq 2 ] || fail "$env $* exit $rc: $out"
    echo "$out" | grep -qF -- "$want" || fail "$env $*: no '$want' in: $out"
}
for v in 0.9abc 0x10 inf nan " 0.5" "" 1e 0.5.1; do
    refused - "--cap" --cap "$v" profiles
    refused "VRAMLAB_CAP=$v" "VRAMLAB_CAP" profiles
done
refused - "out of range [0.01, 1]" --cap 1e-300 profiles
refused - "out of range [0.01, 1]" --cap 1.5 profiles
refused - "out of range [0.01, 1]" --cap -0.5 profiles
"$b" --cap 0.5 profiles >/dev/null || fail "--cap 0.5 refused"
VRAMLAB_CAP=1 "$b" profiles >/dev/null || fail "VRAMLAB_CAP=1 refused"
refused VRAMLAB_SEED=999999999999999999999 "out of range [0, 18446744073709551615]" profiles
refused VRAMLAB_SEED=12abc "VRAMLAB_SEED: '12abc' is not a whole number" profiles
refused VRAMLAB_SEED=-1 "VRAMLAB_SEED" profiles
refused - "--seed: '1.5' is not a whole number" --seed 1.5 profiles
"$b" --seed 18446744073709551615 profiles >/dev/null || fail "the largest seed refused"
for v in abc -1 1x 99999999999; do
    refused "VRAMLAB_FAULT_ALLOC=$v" "VRAMLAB_FAULT_ALLOC" --backend sim info
    refused "VRAMLAB_FAULT_STICKY=$v" "VRAMLAB_FAULT_STICKY" --backend sim info
done
for v in -1 1e30 12abc 99999999999999999999 25GiB; do
    refused "VRAMLAB_SIM_OTHER_BYTES=$v" "VRAMLAB_SIM_OTHER_BYTES" --backend sim --profile rtx3090 info
done
out=$(VRAMLAB_SIM_OTHER_BYTES=20GiB "$b" --backend sim --profile rtx3090 info) || fail "20GiB refused"
echo "$out" | grep -q "GiB free" || fail "info with other processes: $out"
# trace replay: the capacity is a size in the model device's range; the conf is strict too
printf 'a 1 1MiB\nf 1\n' > "$t/t.trace"
refused - "capacity: 1 is out of range [2 MiB, 4 TiB]" --backend sim trace replay "$t/t.trace" 1
refused - "out of range [2 MiB, 4 TiB]" --backend sim trace replay "$t/t.trace" 5TiB
# sizes are read by the one unit grammar: decimal and binary units, bits converted, whole bytes
refused - "capacity: '0x10GiB' is not a size" --backend sim trace replay "$t/t.trace" 0x10GiB
refused - "capacity: '3.3MBs' is not a size such as 80GiB" --backend sim trace replay "$t/t.trace" 3.3MBs
refused - "capacity: '80gb': bits or bytes? Write 80 GB for gigabytes or 80 Gb for gigabits" --backend sim trace replay "$t/t.trace" 80gb
refused - "capacity: '24G': decimal or binary? Write 24 GB for gigabytes or 24 GiB for gibibytes" --backend sim trace replay "$t/t.trace" 24G
refused - "capacity: '1,5GiB': is the comma a decimal point? Write 1.5GiB, or 15GiB" --backend sim trace replay "$t/t.trace" 1,5GiB
refused - "capacity: '2097152.5' is not a whole number of bytes" --backend sim trace replay "$t/t.trace" 2097152.5
for c in 80GB 1.5GiB 16Gb 1,073,741,824 "2 GiB" 2e9; do
    "$b" --backend sim trace replay "$t/t.trace" "$c" >/dev/null || fail "capacity $c refused"
done
"$b" --backend sim trace replay "$t/t.trace" 2MiB >/dev/null || fail "2MiB refused"
for c in max_split_size_mb:99999999999999999999 max_split_size_mb:128abc roundup_power2_divisions:4x; do
    refused "PYTORCH_CUDA_ALLOC_CONF=$c" "PYTORCH_CUDA_ALLOC_CONF" --backend sim trace replay "$t/t.trace" 1GiB
done
printf '# conf: max_split_size_mb:1e3\na 1 1MiB\n' > "$t/c.trace"
refused - "max_split_size_mb: '1e3' is not a whole number" --backend sim trace replay "$t/c.trace"
exit 0
