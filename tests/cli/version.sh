#!/bin/sh
# version.sh BUILD - one version string: the VERSION file's, in `vramlab --version` and in the
# man page the Makefile makes from docs/vramlab.1 (which says @VERSION@).
# Not in the ASan pass: --version prints a constant string, and make writes the man page.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
v=$(cat VERSION) || fail "no VERSION file"
echo "$v" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' || fail "VERSION is not N.N.N: $v"
out=$("$b" --version) || fail "--version exit $?"
[ "$(echo "$out" | head -n 1)" = "vramlab $v" ] || fail "--version says: $out"
grep -m 1 "^\.TH" docs/vramlab.1 | grep -q '"vramlab @VERSION@"' || fail "docs/vramlab.1 does not take @VERSION@"
make --no-print-directory -s BUILD="$T" CUDA=0 "$T/vramlab.1" >"$T/log" 2>&1 || fail "man page: $(cat "$T/log")"
grep -m 1 "^\.TH" "$T/vramlab.1" | grep -q "\"vramlab $v\"" || fail "man page: $(grep -m 1 "^\.TH" "$T/vramlab.1")"
grep -q '@VERSION@' "$T/vramlab.1" && fail "man page keeps @VERSION@"
echo "ok: version $v in the binary and the man page"
