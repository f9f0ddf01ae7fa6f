#!/bin/sh
# deps.sh build|test|hint - install the Debian packages vramlab needs when they are missing.
# As root it runs apt-get itself; otherwise it prints the exact command and fails. hint prints
# one line saying what to install and installs nothing (the Makefile's message when pkg-config
# finds no ncursesw or lua5.4).
set -e
need="gcc make pkg-config libncurses-dev liblua5.4-dev"
if [ "$1" = hint ]; then
    missing=""
    if command -v dpkg-query >/dev/null 2>&1; then
        for p in $need; do
            dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
        done
    fi
    if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
        echo "vramlab needs ncursesw and Lua 5.4 to build. Run: sudo apt-get install -y$missing"
    else
        echo "vramlab needs ncursesw and Lua 5.4 with their pkg-config files (pkg-config ncursesw lua5.4)." \
             "On Debian or Ubuntu: sudo apt-get install -y $need; elsewhere give PKG_CFLAGS= and PKG_LIBS= to make"
    fi
    exit 0
fi
[ "$1" = test ] && need="$need libcmocka-dev tmux python3 clang libclang-rt-14-dev"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "vramlab: missing packages:$missing (no apt-get here: install them with your package manager)" >&2
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "vramlab: missing packages. Run:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "vramlab: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends $missing >/dev/null
