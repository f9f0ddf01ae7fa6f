#!/bin/sh
# cuda_probe.sh STAMP NVCC ARCH CC INCLUDE - can this toolkit build the CUDA backend here? Compiles
# a one-kernel program with nvcc for sm_ARCH and includes the runtime header from C with CC, as
# the build will. Prints "ok", or the first line of what went wrong (a host compiler nvcc does
# not support, a broken install), for the Makefile to build without the backend and say why.
# The answer is kept in STAMP for the same nvcc, arch and host compiler: one compile, not one
# per make.
stamp=$1 nvcc=$2 arch=$3 cc=$4 inc=$5
key="$nvcc $("$nvcc" --version 2>/dev/null | tail -n 1) sm_$arch $cc $("$cc" --version 2>/dev/null | head -n 1)"
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$key" ]; then
    sed -n 2p "$stamp"
    exit 0
fi
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
printf '#include <cuda_runtime.h>\n__global__ void k(int *p) { *p = 1; }\nint probe(void) { k<<<1, 1>>>(0); return (int)cudaGetLastError(); }\n' >"$dir/p.cu"
printf '#include <cuda_runtime_api.h>\nint probe(void) { return CUDART_VERSION; }\n' >"$dir/p.c"
if [ -z "$arch" ]; then
    res="this nvcc knows none of the GPU architectures vramlab builds for"
elif ! out=$("$nvcc" -O1 -std=c++17 -gencode "arch=compute_$arch,code=sm_$arch" -c -o "$dir/p.o" "$dir/p.cu" 2>&1); then
    res=$(printf '%s\n' "$out" | grep -m 1 . | cut -c 1-200)
elif ! out=$("$cc" -std=c11 -Wall -Werror -I"$inc" -c -o "$dir/q.o" "$dir/p.c" 2>&1); then
    res="$cc cannot use the CUDA headers: $(printf '%s\n' "$out" | grep -m 1 . | cut -c 1-160)"
else
    res=ok
fi
mkdir -p "$(dirname "$stamp")" && printf '%s\n%s\n' "$key" "${res:-failed}" >"$stamp"
echo "${res:-failed}"
