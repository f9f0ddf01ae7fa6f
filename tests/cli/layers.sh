#!/bin/sh
# layers.sh BUILD - the code keeps its floors (docs/architecture.md, "Three layers, one direction"): a file includes
# and names only what sits on its own floor or below, and no files call each other in a circle.
# (tests/cli/floors.lib: 0 gpu/base, 1 gpu, 2 the lua core, 3 lua/mod, 4 tui/render, 5 tui/store,
# 6 tui/screen, 7 tui/cli, 8 tui/main.c).
# Includes are read from the source; what a file names (calls, tables of functions, data) from
# the objects of BUILD's normal tree (nm: each undefined symbol and the file that defines it).
# The circles are the loops of the call graph between files (tsort): a function named in another
# file. Data are left out of it: a table of objects (the views, the widgets, the backends, the
# commands) names its members, which call helpers beside the table (tig's view_ops, nvtop's
# gpu_vendor). No C code of its own: normal pass only.
# Not in the ASan pass: it reads the source and the normal tree's objects, and runs nothing.
build=${1:-build}
fail() { echo "FAIL: $*"; exit 1; }
[ -d "$build/lua" ] || fail "no objects under $build (build first)"
command -v nm >/dev/null 2>&1 || fail "nm (binutils) is needed"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

. tests/cli/floors.lib

# ---- includes ------------------------------------------------------------------------------
floor_includes "$t/climbs"
[ "$nfiles" -gt 100 ] || fail "only $nfiles source files found (run from the repository root)"
[ -s "$t/climbs" ] && { echo "FAIL: an include climbs a floor:"; cat "$t/climbs"; exit 1; }

# ---- what each file names, from the normal tree's objects --------------------------------
objs=$(find "$build/gpu" "$build/lua" "$build/tui" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || fail "no objects under $build/{gpu,lua,tui}"
# one nm over every object, each line prefixed "OBJECT: " (-A), and one awk (a pair of processes
# per object took two seconds of their starts)
# shellcheck disable=SC2086 # the paths have no blanks (find above)
nm -A $objs | awk -v b="$build/" '
    { i = index($0, ":"); o = substr($0, 1, i - 1); n = split(substr($0, i + 1), a, " ")
      if (!(o in src)) { s = substr(o, length(b) + 1); sub(/\.o$/, ".c", s)
          src[o] = s; ok[o] = (getline line < s) >= 0; close(s) } # an object of a file since removed: skipped
      if (!ok[o]) next }
    a[1] == "U" { print "U", src[o], a[2] } n == 3 && a[2] ~ /^[TDRB]$/ { print a[2], src[o], a[3] }' >"$t/syms"
awk "$FLOORS"'
    $1 != "U" { def[$3] = $2; fn[$3] = $1 == "T"; next }
    { use[NR] = $2 " " $3 }
    END {
        for (i in use) {
            split(use[i], u, " ")
            if (!(u[2] in def) || def[u[2]] == u[1]) continue
            d = def[u[2]]
            if (fn[u[2]]) print u[1], d > "'"$t/edges"'" # calls: a table of objects may name its members
            if (floor(d) > floor(u[1]))
                printf "%s (floor %d) names %s of %s (floor %d)\n", u[1], floor(u[1]), u[2], d, floor(d)
        }
    }' "$t/syms" | sort >"$t/up"
[ -s "$t/up" ] && { echo "FAIL: a file names what sits on a higher floor:"; cat "$t/up"; exit 1; }
[ -s "$t/edges" ] || fail "no references between files found in $build's objects"

# ---- circles -----------------------------------------------------------------------------
sort -u "$t/edges" >"$t/graph"
if ! tsort "$t/graph" >/dev/null 2>"$t/loops"; then
    echo "FAIL: files call each other in a circle (tsort lists one loop at a time):"
    sed 's/^tsort: //; s/^.*: input contains a loop:$/a loop:/' "$t/loops"
    exit 1
fi
echo "ok: $nfiles files, $(wc -l <"$t/graph") file-to-file references, every one down or across a floor, no circle"
