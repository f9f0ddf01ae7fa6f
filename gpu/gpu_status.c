/* gpu_status.c - the message table of the status X-macro, warnings, and the peak formula. */
#include "gpu.h"

const char *gpu_status_str(gpu_status s)
{
#define GPU_X_MSG(name, msg) msg,
    static const char *const msgs[] = {GPU_STATUS_LIST(GPU_X_MSG)};
#undef GPU_X_MSG
    return (unsigned)s < GPU_STATUS_COUNT ? msgs[s] : "unknown status";
}

const char *gpu_warn_str(unsigned bit)
{
    switch (bit) {
    case GPU_WARN_FEW_TICKS: return "fewer than 20 timer ticks per trial";
    case GPU_WARN_SPREAD: return "spread above 10 % (noisy machine?)";
    case GPU_WARN_SMALL_ARRAY: return "array smaller than 4x the last-level cache";
    case GPU_WARN_SHARED_GPU: return "other processes are using the GPU";
    case GPU_WARN_CLAMPED: return "size reduced to fit the memory cap";
    case GPU_WARN_THREADS: return "ran on fewer threads than online CPUs: not the machine's bandwidth";
    case GPU_WARN_HOLD_TIMEOUT:
        return "the stream hold timed out before the batch was queued: host enqueue time is in it";
    case GPU_WARN_MIG: return "a MIG slice: the peak figures are the whole GPU's, not the slice's";
    }
    return "";
}

double gpu_peak_bytes_per_s(int mem_clock_khz, int bus_width_bits)
{
    if (mem_clock_khz <= 0 || bus_width_bits <= 0) return 0;
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0);
}
