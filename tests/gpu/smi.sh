#!/bin/sh
# smi.sh PREFIX [ID] - nvidia-smi's view of GPU ID (default 0) as "PREFIX_field<TAB>value" lines
# (field with its dots as underscores: smi_before_memory_total), for the report's figures: the
# clocks and their maxima, memory as nvidia-smi counts it (total, reserved, used, free),
# persistence, ECC, MIG, the PCIe link's maximum and state now, the reasons the clocks are held
# down. Asked in small groups: a field an older driver does not know fails its whole query, and
# only that group is then missing (said as PREFIX_error lines).
prefix=${1:?usage: smi.sh PREFIX [ID]} id=${2:-0}
ask() { # FIELDS...: one query; each field with its value, or the error
    fields=$1
    if out=$(nvidia-smi --id="$id" --query-gpu="$fields" --format=csv,noheader,nounits 2>&1); then
        printf '%s\n' "$out" | head -n 1 | awk -F', *' -v f="$fields" -v p="$prefix" '
            { n = split(f, k, ","); for (i = 1; i <= n; i++) { gsub(/\./, "_", k[i]); v = $i; gsub(/\t/, " ", v); if (v != "" && v != "[N/A]" && v != "N/A") printf "%s_%s\t%s\n", p, k[i], v } }'
        return 0
    fi
    printf '%s_error\t%s: %s\n' "$prefix" "$fields" "$(printf '%s' "$out" | head -n 1 | tr '\t' ' ')"
    return 1
}
ask name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.memory,memory.total,memory.used,memory.free,temperature.gpu,power.draw,power.limit
ask persistence_mode,ecc.mode.current,mig.mode.current
ask memory.reserved
ask pcie.link.gen.max,pcie.link.gen.gpucurrent,pcie.link.width.max,pcie.link.width.current
# the name since driver 535; the older one where it is not known
r=$(ask clocks_event_reasons.active) || r=$(ask clocks_throttle_reasons.active)
printf '%s\n' "$r"
exit 0
