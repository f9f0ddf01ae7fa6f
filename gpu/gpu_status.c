/* gpu_status.c - the message table of the status X-macro, warnings, and the peak formula. */
#include "gpu.h"

const char *gpu_status_str(gpu_status s)
{
#define GPU_X_MSG(name, msg) msg,
    static const char *const msgs[] = {GPU_STATUS_LIST(GPU_X_MSG)};
#undef GPU_X_MSG
    return (unsigned)s < GPU_STATUS_COUNT ? msgs[s] : "unknown status";
}

const char *gpu_warn_str(unsigned bit) { return gpu_warn_text(bit, false); }

/* English and Chinese: a warning shows beside a figure in the learner's language. */
const char *gpu_warn_text(unsigned bit, bool zh)
{
    switch (bit) {
    case GPU_WARN_FEW_TICKS: return zh ? "每次计时不足 20 个时钟刻度" : "fewer than 20 timer ticks per trial";
    case GPU_WARN_SPREAD:
        return zh ? "离散度超过 10%（机器忙？）" : "spread above 10 % (noisy machine?)";
    case GPU_WARN_SMALL_ARRAY:
        return zh ? "数组小于末级缓存的 4 倍" : "array smaller than 4x the last-level cache";
    case GPU_WARN_SHARED_GPU: return zh ? "还有其他进程在用这张 GPU" : "other processes are using the GPU";
    case GPU_WARN_CLAMPED: return zh ? "大小已缩小以符合显存上限" : "size reduced to fit the memory cap";
    case GPU_WARN_THREADS:
        return zh ? "运行的线程数少于在线 CPU 数：不是整机带宽"
                  : "ran on fewer threads than online CPUs: not the machine's bandwidth";
    case GPU_WARN_HOLD_TIMEOUT:
        return zh ? "流挡板在整批排队完成前超时：结果包含主机排队时间"
                  : "the stream hold timed out before the batch was queued: host enqueue time is in it";
    case GPU_WARN_MIG:
        return zh ? "MIG 分片：峰值数字是整张 GPU 的，不是分片的"
                  : "a MIG slice: the peak figures are the whole GPU's, not the slice's";
    case GPU_WARN_LLC_UNKNOWN:
        return zh ? "末级缓存大小未知（或读到的不是单核可用的值）：数组可能部分留在缓存里"
                  : "last-level cache size unknown (or not one core's): the arrays may partly stay in cache";
    }
    return "";
}

double gpu_peak_bytes_per_s(int mem_clock_khz, int bus_width_bits)
{
    if (mem_clock_khz <= 0 || bus_width_bits <= 0) return 0;
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0);
}
