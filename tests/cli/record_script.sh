#!/bin/sh
# record_script.sh BUILD - docs/record_snapshots.py, the teacher's recording script, compiles and
# its pure helpers hold without torch: the parameter count equals vram.transformer's, the file
# names are the shipped examples', the --only parser refuses an unknown kind
# (tests/snapshot/test_record_snapshots.py). Recording itself needs a GPU and PyTorch.
# Not in the ASan pass: Python alone, but for one vramlab eval the normal pass already runs.
fail() { echo "FAIL: $*"; exit 1; }
case "$1" in */asan*) echo "SKIP: Python alone (checked in the normal pass)"; exit 77 ;; esac
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed"; exit 77; }
b="$1/vramlab"
[ -x "$b" ] || fail "no $b"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export PYTHONDONTWRITEBYTECODE=1
python3 -c "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)" \
    docs/record_snapshots.py "$d/r.pyc" || fail "docs/record_snapshots.py does not compile"
python3 tests/snapshot/test_record_snapshots.py "$b" >"$d/out" 2>&1 || { cat "$d/out"; fail "the helpers' tests"; }
grep -q '^OK' "$d/out" || { cat "$d/out"; fail "no OK from unittest"; }
python3 docs/record_snapshots.py --help >/dev/null || fail "--help"
exit 0
