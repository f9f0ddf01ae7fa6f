#!/bin/sh
# portable.sh OBJ OUT - the last step of `make portable`: put what a GPU machine needs from the
# build in OBJ into OUT, laid out as a build folder (OUT/vramlab, OUT/tests/gpu_copy_offsets,
# OUT/tests/ref_bandwidth), so that `GPU_REPORT_PREBUILT=1 make gpu-report BUILD=OUT` runs it
# there; compile terminfo entries of common terminals into OUT/terminfo, which the tutor reads
# when the machine it runs on has no entry for its TERM; and check with ldd that nothing but
# glibc, libstdc++ and libgcc is linked dynamically (a machine without Lua's and ncurses'
# packages runs it). Fails, saying which, when a library would be needed there.
obj=${1:?usage: portable.sh OBJ OUT} out=${2:?usage: portable.sh OBJ OUT}
fail() { echo "make portable: $*" >&2; exit 1; }
[ -x "$obj/vramlab" ] || fail "$obj/vramlab was not built"
rm -rf "$out"
mkdir -p "$out/tests" "$out/terminfo" || exit 1
cp "$obj/vramlab" "$out/vramlab" || exit 1
for t in gpu_copy_offsets ref_bandwidth; do
    [ -x "$obj/tests/$t" ] && { cp "$obj/tests/$t" "$out/tests/$t" || exit 1; }
done

# terminfo: the build machine's entries, compiled again into OUT/terminfo (tic -x keeps the
# extended capabilities tmux and xterm use); the ones this machine lacks are left out
n=0
if command -v infocmp >/dev/null 2>&1 && command -v tic >/dev/null 2>&1; then
    for t in xterm xterm-256color xterm-color screen screen-256color tmux tmux-256color linux \
        vt100 vt220 rxvt-unicode-256color alacritty foot kitty dumb; do
        infocmp -x "$t" >"$out/terminfo/.src" 2>/dev/null || continue
        tic -x -o "$out/terminfo" "$out/terminfo/.src" 2>/dev/null && n=$((n + 1))
    done
    rm -f "$out/terminfo/.src"
fi
[ "$n" -gt 0 ] || echo "make portable: no terminfo entry compiled (infocmp/tic missing): the target's own are used" >&2

# only glibc (libc, libm, libdl, libpthread, librt, the loader), libstdc++ and libgcc
bad=""
for f in "$out/vramlab" "$out"/tests/*; do
    [ -x "$f" ] || continue
    libs=$(ldd "$f" 2>&1) || fail "ldd $f: $libs"
    extra=$(printf '%s\n' "$libs" | awk '{ print $1 }' | grep -Ev \
        '^(linux-vdso\.so\.1|/lib(64)?/ld-linux[-a-z0-9_.]*\.so\.[0-9]+|ld-linux[-a-z0-9_.]*\.so\.[0-9]+|lib(c|m|dl|pthread|rt)\.so\.[0-9]+|libstdc\+\+\.so\.6|libgcc_s\.so\.1|statically)$')
    [ -z "$extra" ] || bad="$bad $(basename "$f"):$(printf '%s' "$extra" | tr '\n' ',')"
done
[ -z "$bad" ] || fail "linked dynamically against more than glibc, libstdc++ and libgcc:$bad"
glibc=$(objdump -T "$out/vramlab" 2>/dev/null | sed -n 's/.*GLIBC_\([0-9][0-9.]*\).*/\1/p' | sort -t. -k1,1n -k2,2n -u | tail -n 1)
backends=$("$out/vramlab" --version 2>/dev/null | sed -n 's/^backends: //p')
echo "make portable: $out/vramlab ($(du -k "$out/vramlab" | cut -f1) KiB; backends: ${backends:-?}; needs glibc >= ${glibc:-?}), $(ls "$out/tests" | wc -l) GPU check program(s), $n terminfo entries"
case " $backends " in *" cuda "*) ;; *) echo "make portable: WARNING: no CUDA backend in this build (no usable nvcc here): it cannot measure a GPU" >&2 ;; esac
