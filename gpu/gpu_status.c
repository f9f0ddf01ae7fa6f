/* gpu_status.c - the message table of the status X-macro, the warnings' keys, and the peak
 * formula. */
#include "gpu.h"

const char *gpu_status_str(gpu_status s)
{
#define GPU_X_MSG(name, msg) msg,
    static const char *const msgs[] = {GPU_STATUS_LIST(GPU_X_MSG)};
#undef GPU_X_MSG
    return (unsigned)s < GPU_STATUS_COUNT ? msgs[s] : "unknown status";
}

const char *gpu_warn_key(unsigned bit)
{
#define GPU_X_WARN(name, key) key,
    static const char *const keys[] = {GPU_WARN_LIST(GPU_X_WARN)};
#undef GPU_X_WARN
    for (int i = 0; i < GPU_WARN_COUNT; i++)
        if (bit == 1u << i) return keys[i];
    return "";
}

double gpu_fp32_flops(int sms, int lanes, int sm_clock_khz)
{
    return sms > 0 && lanes > 0 && sm_clock_khz > 0 ? 2.0 * sms * lanes * sm_clock_khz * 1e3 : 0;
}

int gpu_fp32_lanes(int cc_major, int cc_minor)
{
    if (cc_major == 7 || (cc_major == 8 && cc_minor == 0)) return 64;
    if (cc_major >= 8) return 128;
    return 0;
}

double gpu_peak_bytes_per_s(int mem_clock_khz, int bus_width_bits)
{
    if (mem_clock_khz <= 0 || bus_width_bits <= 0) return 0;
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0);
}
