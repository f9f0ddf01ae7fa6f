#!/bin/sh
# rules.sh BUILD - the source keeps the rules docs/styleguide.md writes down, so that what was
# made one does not become two again. It fails on, naming the file and line:
#   floor    an include that climbs a floor (tests/cli/floors.lib; calls: tests/cli/layers.sh)
#   words    words for the learner in gpu/: Chinese text, `bool zh`, a language argument, a
#            sentence buffer (the layer hands up keys and numbers; lua/lt_say.h has the words)
#   hash     an open-addressing table outside gpu/base (gpu_u64map, gpu_strtab are the ones)
#   utf8     a UTF-8 decoder or encoder outside gpu/base/gpu_utf8.c
#   bytes    bytes scaled to KiB/MiB/GiB by hand in tui/ or lua/ (gpu_fmt_bytes is the one)
#   size     a source file over 1500 lines
#   errf     an (err, n) buffer filled with snprintf (gpu_errf is the one: nothing for NULL, 0)
#   sleep    a fixed sleep in tests/tui/ outside a polling loop (tmux.lib's sync, moved, wait_for)
#   open     a file opened (fopen, open, openat, fdopen, freopen, creat, popen) outside the one
#            safe reader (gpu/base/gpu_file.c) and the one state module (tui/store/tui_state.c):
#            every outside file is read through the first, every learner file written by the second
# The allow list below is short, and each entry says why. No C code: normal pass only.
# Not in the ASan pass: it reads the source and runs nothing.
fail() { echo "FAIL: $*"; exit 1; }
[ -d gpu ] && [ -d tests/tui ] || fail "run from the repository root"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# RULE PATH (a shell pattern) REASON: a rule this file may break, and why.
ALLOW='
words gpu/base/gpu_units.[ch] the grammar reads the Chinese unit names a learner types (倍, 纳秒): input, not words shown
bytes lua/lt_ledger.c the ledger is a table that shows every part in MiB and GiB side by side, in fixed columns
sleep tests/tui/idle.sh the three seconds are the window whose CPU time it measures, not a wait for the screen
open lua/mod/lt_snapshot.c alloc.snapshot opens a descriptor to check which file it got (inside the allowed folders, through /proc/self/fd) and charge its size before the safe reader reads it (gpu_file_map_fd)
'
allowed() { # RULE FILE: true when the allow list lets FILE break RULE
    echo "$ALLOW" | while read -r r p _; do
        [ "$r" = "$1" ] || continue
        case $2 in $p) echo yes; break ;; esac
    done | grep -q yes
}
out="$t/found"
: >"$out"
# hit RULE: each "file:line:text" on stdin, unless the file is allowed to break RULE
hit() {
    while IFS= read -r l; do
        f=${l%%:*}
        allowed "$1" "$f" || printf '%s: %s\n' "$1" "$l" >>"$out"
    done
}
src() { find "$@" -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' | sort; }

# floor
. tests/cli/floors.lib
floor_includes "$t/climbs"
sed 's/^/floor: /' "$t/climbs" >>"$out"

# words: CJK (U+3000-U+9FFF, U+FF00-U+FFEF), a language flag or argument, sentence buffers
echo 中 | grep -qP '[\x{3000}-\x{9fff}]' 2>/dev/null || fail "grep -P (PCRE) is needed"
src gpu | xargs grep -nP '[\x{3000}-\x{9fff}\x{ff00}-\x{ffef}]' | hit words
src gpu | xargs grep -nE '\bbool zh\b|\bconst char \*lang\b|\bchar (diffs|notes|lines)\[' | hit words

# hash: a probe that wraps with "& (cap - 1)", outside the toolkit
src gpu lua tui | grep -v '^gpu/base/' | xargs grep -nE '&[[:space:]]*\(?[a-z_>.-]*cap[a-z_]*[[:space:]]*-[[:space:]]*1\)' | hit hash

# utf8: continuation-byte tests and lead-byte encoders, outside gpu_utf8.c
src gpu lua tui | grep -v '^gpu/base/gpu_utf8.c$' |
    xargs grep -niE '0xc0\)[[:space:]]*[!=]=[[:space:]]*0x80|0x(c0|e0|f0)[[:space:]]*\|[[:space:]]*\(?(cp|c|u|ch)\b' | hit utf8

# bytes: scaled by hand (tui/: a division by 2^20 or 2^30; tui/ and lua/: a "%.Nf MiB" format)
src tui | xargs grep -nE '/[[:space:]]*\(?(double\)[[:space:]]*)?(1073741824|1048576)(\.0)?\b|\(1ull << (20|30)\)[[:space:]]*\)?[[:space:]]*$' |
    grep -v '<[[:space:]]*(1ull << (20|30))' | hit bytes
src tui lua | xargs grep -nE '%[-0-9]*\.[0-9]+f[[:space:]]?[KMGTP]iB\b' | hit bytes

# size
for f in $(src gpu lua tui) $(find lua/lib -name '*.lua' | sort); do
    n=$(wc -l <"$f")
    [ "$n" -le 1500 ] || echo "$f:$n: $n lines (the limit is 1500)"
done | hit size

# errf: snprintf(err, n, ...) with a caller's size, not a buffer of this function's own
src gpu lua tui | grep -v '^gpu/base/gpu_err.c$' |
    xargs grep -nE '(^|[^a-z_])snprintf\((err|why), [a-z_]+[,)]' | grep -v 'snprintf([a-z]*, sizeof' | hit errf

# sleep: a `sleep N` command in tests/tui outside a while/until loop (nesting followed by
# do/done; a sleep inside a quoted string, such as the pane kept open with "...; sleep 600", is
# not a command here)
for f in tests/tui/*.sh tests/tui/tmux.lib; do
    awk -v f="$f" '
        { line = $0; sub(/#.*/, "", line) }
        line ~ /(^|[;&|[:space:]])(while|until)[[:space:]]/ { depth += gsub(/(^|[;&|[:space:]])(while|until)[[:space:]]/, "&", line) }
        line ~ /(^|[;&|[:space:]])sleep[[:space:]]+[0-9.]+[[:space:]]*($|;|&&|\|\|)/ && depth == 0 { print f ":" NR ":" $0 }
        { n = gsub(/(^|[;&|[:space:]])done([;[:space:]]|$)/, "&", line); depth -= n; if (depth < 0) depth = 0 }
    ' "$f"
done | hit sleep

# open: a call of an opening function in code (comment lines and the text after /* or // are not)
src gpu lua tui | grep -v -e '^gpu/base/gpu_file.c$' -e '^tui/store/tui_state.c$' |
    xargs awk '{ line = $0; sub(/\/[*\/].*/, "", line) }
        line !~ /^[[:space:]]*\*/ && line ~ /(^|[^A-Za-z0-9_>.])(fopen|open|openat|fdopen|freopen|creat|popen)[[:space:]]*\(/ {
            print FILENAME ":" FNR ":" $0 }' | hit open

if [ -s "$out" ]; then
    echo "FAIL: $(wc -l <"$out") place(s) break the rules (docs/styleguide.md):"
    cat "$out"
    exit 1
fi
echo "ok: floors, words, hash, utf8, bytes, size, errf, sleep and open hold ($(echo "$ALLOW" | grep -c .) allowed, each with its reason)"
