#!/bin/sh
# Bad input on the command line: usage on stderr, exit 2, nothing else happens.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$b" --no-such-flag 2>&1); rc=$?
[ $rc -eq 2 ] || fail "bad flag exit $rc"
[ "$out" = "vramlab: unknown option '--no-such-flag' (vramlab --help)" ] || fail "bad flag: $out"
"$b" --seed abc info >/dev/null 2>&1; [ $? -eq 2 ] || fail "--seed abc accepted"
"$b" --lang fr list >/dev/null 2>&1; [ $? -eq 2 ] || fail "--lang fr accepted"
"$b" --cap 1.5 list >/dev/null 2>&1; [ $? -eq 2 ] || fail "--cap 1.5 accepted"
out=$("$b" --backend tpu info 2>&1); [ $? -eq 2 ] || fail "--backend tpu accepted"
echo "$out" | grep -q "unknown backend 'tpu'" || fail "no reason for a bad backend: $out"
out=$("$b" --profile nosuchgpu --backend sim info 2>&1); [ $? -eq 3 ] || fail "bad profile exit"
known=$(ls assets/gpus | sed -n 's/\.txt$//p' | tr '\n' ' ' | sed 's/ $//')
echo "$out" | grep -qF "unknown profile 'nosuchgpu'; known: $known" || fail "bad profile: $out"
"$b" run >/dev/null 2>&1; [ $? -eq 2 ] || fail "run without a lesson"
out=$("$b" run 9.99 2>&1); [ $? -eq 2 ] || fail "run of a missing lesson"
echo "$out" | grep -q "no lesson '9.99'" || fail "missing lesson message: $out"
"$b" --help | grep -q "exit codes" || fail "--help"
"$b" --version | grep -q "backends:.*sim" || fail "--version"
exit 0
