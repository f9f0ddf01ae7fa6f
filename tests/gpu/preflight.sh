#!/bin/sh
# preflight.sh BUILD FIGURES - the first seconds of make gpu-report: what the machine is before
# anything is measured. Prints ldd of the binary (a build carried from elsewhere: does it load
# here?), its version and backends, nvidia-smi -q (clocks, PCIe, memory, ECC, persistence) and
# the tools the report uses, and appends preflight_* and smi_before_* "key<TAB>value" lines to
# FIGURES. Bounded by the report's step limit (10 s).
build=${1:?usage: preflight.sh BUILD FIGURES} figs=${2:?usage: preflight.sh BUILD FIGURES}
bin="$build/vramlab"
kv() { printf '%s\t%s\n' "$1" "$(printf '%s' "$2" | tr '\t\n' '  ')" >>"$figs"; }
echo "== ldd $bin"
ldd "$bin" 2>&1
missing=$(ldd "$bin" 2>&1 | grep -c 'not found')
kv preflight_ldd_missing "$missing"
echo "== $bin --version"
"$bin" --version 2>&1
kv preflight_backends "$("$bin" --version 2>/dev/null | sed -n 's/^backends: //p')"
kv preflight_nproc "$(nproc 2>/dev/null || echo 0)"
kv preflight_kernel "$(uname -r)"
kv preflight_mem_total_kib "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)"
kv preflight_glibc "$(ldd --version 2>/dev/null | head -n 1 | awk '{ print $NF }')"
tools=""
for t in nvcc numactl timeout python3 tar gzip pkg-config; do
    command -v "$t" >/dev/null 2>&1 && tools="$tools $t"
done
kv preflight_tools "${tools# }"
echo "== tools: ${tools# }"
pkg-config --exists lua5.4 ncursesw 2>/dev/null && kv preflight_build_deps yes || kv preflight_build_deps no
echo "== nvidia-smi -q"
nvidia-smi -q 2>&1 | head -n 400
sh "$(dirname "$0")/smi.sh" smi_before "${GPU_REPORT_SMI_ID:-0}" >>"$figs"
exit 0
