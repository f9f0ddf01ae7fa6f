#!/bin/sh
# make_cuda.sh BUILD - the Makefile finds the CUDA toolkit the way nvcc reports it: through a
# wrapper script named nvcc (as CI machines have in /usr/local/bin, exec'ing the real one); an
# nvcc whose toolkit has no headers or static runtime, or that cannot compile (a host compiler it
# rejects), gives a build without the CUDA backend and a warning, never a failed build. The
# native architectures are those this nvcc knows, from the wanted list, plus PTX of the newest.
# (The first was the cause of a CI failure.)
# Not in the ASan pass: the Makefile's toolkit detection; no vramlab code runs.
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The Makefile's own detection, not settings inherited from an outer make (make test CUDA=0).
unset MAKEFLAGS MFLAGS MAKELEVEL CUDA NVCC CUDA_HOME
mkdir -p "$T/bin" "$T/broken" "$T/none"
vars() { # PATH-PREFIX: NVCC and CUDA_HOME as the Makefile sets them
    env PATH="$1:/usr/bin:/bin" make --no-print-directory BUILD="$T/build" print-NVCC print-CUDA_HOME 2>"$T/err"
}

# an nvcc whose toolkit is missing: no CUDA backend, a warning that says why
cat > "$T/broken/nvcc" <<'SH'
#!/bin/sh
case "$*" in *--dryrun*) echo '#$ TOP=/nonexistent-cuda/bin/..' >&2 ;; esac
exit 0
SH
chmod +x "$T/broken/nvcc"
out=$(vars "$T/broken") || fail "make failed with a broken nvcc: $(cat "$T/err")"
echo "$out" | grep -qx 'NVCC=' || fail "a toolkit without headers still builds CUDA: $out"
grep -q "building without the CUDA backend" "$T/err" || fail "no warning: $(cat "$T/err")"

# no nvcc anywhere on the PATH (nor under /usr/local/cuda): no CUDA, no warning needed
if [ ! -e /usr/local/cuda/bin/nvcc ]; then
    out=$(vars "$T/none") || fail "make failed without nvcc"
    echo "$out" | grep -qx 'NVCC=' || fail "no nvcc, yet CUDA is built: $out"
fi

# a wrapper script, as /usr/local/bin/nvcc on CI: the toolkit is where the real nvcc lives
real=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -z "$real" ]; then
    echo "ok: broken toolkit handled (no real nvcc here: the wrapper case is skipped)"
    exit 0
fi
# a toolkit that is installed but cannot compile (nvcc rejecting the host gcc): no CUDA, and why
top=$("$real" --dryrun -c -x cu /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p')
mkdir -p "$T/nocc"
cat > "$T/nocc/nvcc" <<SH
#!/bin/sh
case "\$*" in
*--dryrun*) echo '#\$ TOP=$top' >&2; exit 0 ;;
*--list-gpu-code*) printf 'sm_75\\nsm_90\\n'; exit 0 ;;
*--version*) echo 'Cuda compilation tools, fake'; exit 0 ;;
esac
echo 'error -- unsupported GNU version! gcc versions later than 4 are not supported!' >&2
exit 1
SH
chmod +x "$T/nocc/nvcc"
out=$(vars "$T/nocc") || fail "make failed with an nvcc that cannot compile: $(cat "$T/err")"
echo "$out" | grep -qx 'NVCC=' || fail "an nvcc that cannot compile still builds CUDA: $out"
grep -q "cannot build the CUDA backend (error -- unsupported GNU version" "$T/err" ||
    fail "no warning with nvcc's reason: $(cat "$T/err")"

printf '#!/bin/sh\nexec %s "$@"\n' "$real" > "$T/bin/nvcc"
chmod +x "$T/bin/nvcc"
out=$(vars "$T/bin") || fail "make failed with a wrapper nvcc: $(cat "$T/err")"
echo "$out" | grep -qx "NVCC=$T/bin/nvcc" || fail "the wrapper was not used: $out"
home=$(echo "$out" | sed -n 's/^CUDA_HOME=//p')
[ -f "$home/include/cuda_runtime_api.h" ] && [ -f "$home/lib64/libcudart_static.a" ] ||
    fail "CUDA_HOME '$home' has no headers or static runtime"
[ "$home" != "$T" ] || fail "CUDA_HOME taken from the wrapper's folder"
# CUDA_ARCHS=all: native code for what this nvcc knows of the wanted list, PTX of the newest
archs=$(env PATH="$T/bin:/usr/bin:/bin" make --no-print-directory BUILD="$T/build" CUDA_ARCHS=all print-CU_ARCHS print-NVFLAGS)
known=$("$real" --list-gpu-code | sed -n 's/^sm_//p' | tr '\n' ' ')
for a in $(echo "$archs" | sed -n 's/^CU_ARCHS=//p'); do
    case " $known " in *" $a "*) ;; *) fail "sm_$a is built but $real does not know it" ;; esac
done
newest=$(echo "$archs" | sed -n 's/^CU_ARCHS=.* //p')
echo "$archs" | grep -q "arch=compute_$newest,code=compute_$newest" || fail "no PTX of sm_$newest: $archs"
case " $known " in *" 100 "*) echo "$archs" | grep -q "code=sm_100" || fail "no native sm_100" ;; esac
case " $known " in *" 120 "*) echo "$archs" | grep -q "code=sm_120" || fail "no native sm_120" ;; esac
# the default, auto: without a GPU one architecture (the oldest) and its PTX, a quick first build
oldest=$(echo "$archs" | sed -n 's/^CU_ARCHS=\([0-9]*\).*/\1/p')
gencodes() { printf '%s\n' "$1" | grep -o 'code=[a-z_]*[0-9]*' | sort -u | tr '\n' ' '; }
quick=$(env PATH="$T/bin:/usr/bin:/bin" make --no-print-directory BUILD="$T/build" print-CU_ARCHS print-NVFLAGS)
echo "$quick" | grep -qx "CU_ARCHS=$oldest" || fail "without a GPU, not sm_$oldest alone: $quick"
[ "$(gencodes "$quick")" = "code=compute_$oldest code=sm_$oldest " ] ||
    fail "without a GPU: $(gencodes "$quick"), want sm_$oldest and compute_$oldest"
# where nvidia-smi lists a GPU, and for make install: all of them
printf '#!/bin/sh\necho "GPU 0: NVIDIA H200 (UUID: GPU-00000000-0000-0000-0000-000000000000)"\n' >"$T/bin/nvidia-smi"
chmod +x "$T/bin/nvidia-smi"
withgpu=$(env PATH="$T/bin:/usr/bin:/bin" make --no-print-directory BUILD="$T/build" print-CU_ARCHS)
rm "$T/bin/nvidia-smi"
[ "$withgpu" = "$(echo "$archs" | grep '^CU_ARCHS=')" ] || fail "with a GPU: $withgpu, want every one"
inst=$(env PATH="$T/bin:/usr/bin:/bin" make -n --no-print-directory BUILD="$T/build" PREFIX="$T/inst" install print-CU_ARCHS | grep "CU_ARCHS=")
echo "$inst" | grep -q "$(echo "$archs" | grep '^CU_ARCHS=')" || fail "make install does not build every architecture: $inst"
# a list: native code for each, PTX of the last (make portable's sm_90); one it does not know: an error
case " $known " in *" 90 "*)
    one=$(env PATH="$T/bin:/usr/bin:/bin" make --no-print-directory BUILD="$T/build" CUDA_ARCHS=90 print-NVFLAGS)
    [ "$(gencodes "$one")" = "code=compute_90 code=sm_90 " ] || fail "CUDA_ARCHS=90: $(gencodes "$one")" ;;
esac
env PATH="$T/bin:/usr/bin:/bin" make --no-print-directory BUILD="$T/build" CUDA_ARCHS=12 print-CU_ARCHS >/dev/null 2>"$T/err" &&
    fail "CUDA_ARCHS=12 accepted"
grep -q "does not know sm_12" "$T/err" || fail "CUDA_ARCHS=12: $(cat "$T/err")"
echo "ok: toolkit found through a wrapper nvcc ($home); a broken toolkit builds without CUDA; sm_$oldest + PTX without a GPU, every architecture with one"
