#!/bin/sh
# make_deps.sh BUILD - a plain `make` on a machine without the development packages says which
# to install, in one line, and compiles nothing (it used to stop at "lauxlib.h: No such file"):
# the apt-get line with exactly the missing Debian packages where dpkg knows them, the
# pkg-config names and the Debian line elsewhere. Goals that compile nothing still work, and
# PKG_CFLAGS / PKG_LIBS on the command line skip the check.
# Not in the ASan pass: the Makefile's package check; no vramlab code runs.
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CFLAGS PKG_LIBS
mkdir -p "$T/bin"
# a pkg-config that finds nothing, a dpkg-query that knows every package but liblua5.4-dev
printf '#!/bin/sh\nexit 1\n' > "$T/bin/pkg-config"
cat > "$T/bin/dpkg-query" <<'SH'
#!/bin/sh
for a; do p=$a; done
[ "$p" = liblua5.4-dev ] && exit 1
printf 'install ok installed'
SH
printf '#!/bin/sh\nexit 0\n' > "$T/bin/apt-get"
chmod +x "$T/bin/"*
mk() { env PATH="$T/bin:$PATH" make --no-print-directory -n CUDA=0 BUILD="$T/build" "$@" 2>&1; }

out=$(mk) && fail "make without the packages went on: $out"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "not one line: $out"
printf '%s\n' "$out" | grep -q 'Run: sudo apt-get install -y liblua5.4-dev\.  Stop\.$' ||
    fail "not the apt-get line for the missing package: $out"
printf '%s\n' "$out" | grep -q 'lauxlib\|No such file' && fail "a compiler error: $out"
# no dpkg (another distribution): the pkg-config names and the Debian line
rm "$T/bin/dpkg-query"
out=$(mk all) && fail "make all without the packages went on: $out"
printf '%s\n' "$out" | grep -q 'pkg-config ncursesw lua5.4.*sudo apt-get install -y gcc make pkg-config libncurses-dev liblua5.4-dev' ||
    fail "no hint without dpkg: $out"
# the real pkg-config and dpkg, pointed at a package no machine has (PKGS, the Makefile's list):
# the one line, with the README's apt-get command, and nothing compiled
readme=$(grep -m1 '^sudo apt-get install' README.md) || fail "README.md has no apt-get line"
out=$(env -u MAKEFLAGS make --no-print-directory -n CUDA=0 BUILD="$T/build2" PKGS="ncursesw lua5.4-vramlab-absent" 2>&1) &&
    fail "make with an absent package went on: $out"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "absent package: not one line: $out"
printf '%s\n' "$out" | grep -qF "$readme" || fail "absent package: not the README's line ($readme): $out"
printf '%s\n' "$out" | grep -q 'lauxlib\|No such file\| -c -o ' && fail "absent package: a compiler ran: $out"
# what compiles nothing still works; flags given by hand build
mk clean >/dev/null || fail "make clean refused: $(mk clean)"
out=$(mk PKG_CFLAGS= PKG_LIBS='-lncursesw -llua5.4') || fail "PKG_LIBS given: $out"
printf '%s\n' "$out" | grep -q -- '-c -o .*tui/main.o' || fail "PKG_LIBS given: nothing compiled: $out"
echo "ok: a build without the packages names them in one line"
