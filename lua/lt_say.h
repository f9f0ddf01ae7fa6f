/* lt_say.h - the one table of what the program says to a learner on behalf of the layers below
 * it, in English and 中文: the device layer hands up keys and numbers (gpu_status, GPU_WHY_LIST,
 * GPU_WARN_LIST, the ledger's parts), and this says them in the language the learner chose. The
 * command line, the screens and the lessons' modules all say things through it, so a sentence
 * exists once and its two languages stay side by side.
 *
 * Each row: an id, the English and the Chinese format. Both formats take the same conversions
 * in the same order (tests/unit/test_lt_say.c checks every row), so a caller passes one set of
 * arguments whatever the language. Adding a message: one row here, then lt_say(..., LT_SAY_ID).
 * Pure: no Lua state, no globals but the table; safe on any thread (it reads only its
 * arguments; the caller passes the language it read on the Lua thread). */
#ifndef LT_SAY_H
#define LT_SAY_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu.h"

#define LT_SAY_LIST(X)                                                                            \
    /* warnings beside a measured figure: one row per GPU_WARN_LIST bit, in its order */          \
    X(WARN_FEW_TICKS, "fewer than 20 timer ticks per trial", "每次计时不足 20 个时钟刻度")        \
    X(WARN_SPREAD, "spread above 10 %% (noisy machine?)", "离散度超过 10%%（机器忙？）")        \
    X(WARN_SMALL_ARRAY, "array smaller than 4x the last-level cache", "数组小于末级缓存的 4 倍")  \
    X(WARN_SHARED_GPU, "other processes are using the GPU", "还有其他进程在用这张 GPU")           \
    X(WARN_CLAMPED, "size reduced to fit the memory cap", "大小已缩小以符合显存上限")             \
    X(WARN_THREADS, "ran on fewer threads than online CPUs: not the machine's bandwidth",         \
      "运行的线程数少于在线 CPU 数：不是整机带宽")                                                 \
    X(WARN_HOLD_TIMEOUT,                                                                          \
      "the stream hold timed out before the batch was queued: host enqueue time is in it",        \
      "流挡板在整批排队完成前超时：结果包含主机排队时间")                                        \
    X(WARN_MIG, "a MIG slice: the peak figures are the whole GPU's, not the slice's",             \
      "MIG 分片：峰值数字是整张 GPU 的，不是分片的")                                               \
    X(WARN_LLC_UNKNOWN,                                                                           \
      "last-level cache size unknown (or not one core's): the arrays may partly stay in cache",  \
      "末级缓存大小未知（或读到的不是单核可用的值）：数组可能部分留在缓存里")                      \
    /* the device layer's refusals: one row per keyed GPU_WHY_LIST entry (%s per number) */       \
    X(WHY_ZERO, "cannot allocate 0 bytes", "不能分配 0 字节")                                     \
    X(WHY_INJECTED, "out of memory (injected fault: allocation #%s)",                             \
      "显存不足（注入的故障：第 %s 次分配）")                                                       \
    X(WHY_NO_FREE, "%s requested, but the GPU has no free memory: other processes (or this one) " \
                   "hold all of it",                                                             \
      "申请 %s，但 GPU 已没有空闲显存：其他进程（或本进程）占满了它")                              \
    X(WHY_CAP, "%s requested, but experiments may take at most %s%% of free memory (%s now)",     \
      "申请 %s，但实验最多只能用空闲显存的 %s%%（现在是 %s）")                                     \
    X(WHY_SIM_OOM, "cudaMalloc(%s): out of memory (SIMULATED, %s free)",                          \
      "cudaMalloc(%s)：显存不足（SIMULATED，空闲 %s）")                                            \
    X(WHY_COPY_CAP, "copy of %s needs %s of device memory; experiments may take at most %s%% of " \
                    "free memory (%s)",                                                          \
      "拷贝 %s 需要 %s 显存；实验最多只能用空闲显存的 %s%%（%s）")                                 \
    X(WHY_LATENCY_CAP, "latency working set of %s exceeds the experiment cap (%s)",               \
      "延迟测量的工作集 %s 超过了实验上限（%s）")                                                  \
    X(WHY_STREAM_CAP, "STREAM needs 3 x %s of device memory; experiments may take at most %s",    \
      "STREAM 需要 3 x %s 显存；实验最多只能用 %s")                                                \
    X(WHY_ACCESS_CAP, "this access pattern needs %s of device memory; experiments may take at "  \
                      "most %s",                                                                 \
      "这个访问模式需要 %s 显存；实验最多只能用 %s")                                               \
    X(HOST_NOMEM, "cannot allocate %s of host memory", "无法分配 %s 主机内存")                   \
    X(CUDA_MALLOC_FAILED, "cudaMalloc failed: %s", "cudaMalloc 失败：%s")                         \
    /* the ledger ("where did my VRAM go"): one row per gpu_ledger_part, then the report's words */ \
    X(LEDGER_OTHER_PROCS, "other processes", "其他进程")                                          \
    X(LEDGER_CONTEXT, "CUDA context (this process)", "CUDA 上下文（本进程）")                     \
    X(LEDGER_UNACCOUNTED, "unaccounted (driver, unknown)", "未归属（驱动或未知）")                \
    X(LEDGER_OTHER_ALLOCS, "other allocations (this process)", "本进程的其他分配")                \
    X(LEDGER_REQUESTED, "requested by the program", "程序实际请求")                               \
    X(LEDGER_ROUNDING, "rounding waste", "取整浪费")                                              \
    X(LEDGER_CACHED, "cached free (reserved - allocated)", "缓存但空闲（保留 - 已分配）")         \
    X(LEDGER_FREE, "free", "空闲")                                                                \
    X(LEDGER_TITLE, "Where the VRAM goes - %s (%s%s; MiB = 2^20 B, GiB = 2^30 B)",                \
      "显存去哪儿了 - %s（%s%s；MiB = 2^20 B，GiB = 2^30 B）")                                     \
    X(LEDGER_SIMULATED, ", SIMULATED", "，SIMULATED")                                             \
    X(LEDGER_UNKNOWN, "unknown", "未知")                                                          \
    X(LEDGER_TOTAL, "total capacity", "总容量")                                                   \
    X(LEDGER_MODEL_DEVICE, "model device", "模型设备")                                            \
    X(LEDGER_MODEL_NONE, "model: none", "模型：无")                                               \
    X(LEDGER_SIM_NONE, "SIMULATED: none", "模拟：无")                                             \
    X(LEDGER_SIM_PROFILE, "SIMULATED: GPU profile", "模拟：GPU 配置")                             \
    X(LEDGER_NVML_SELF, "NVML this process - allocations", "NVML 本进程 - 分配")                  \
    X(LEDGER_MEASURED, "measured: free before/after creation", "实测：创建前后空闲之差")          \
    X(LEDGER_USED_LESS, "used - the parts above", "已用 - 以上各项")                              \
    X(LEDGER_ALLOC_LESS_REQ, "allocated - requested", "已分配 - 请求")                            \
    X(LEDGER_FRAGMENTATION, "fragmentation", "碎片")                                              \
    X(LEDGER_ALLOCATOR, "caching allocator", "缓存分配器")                                        \
    X(LEDGER_NO_ALLOCATOR_HERE, "none in this process", "本进程没有")                             \
    X(LEDGER_RESERVED, "caching allocator: reserved", "缓存分配器：保留 (reserved)")              \
    X(LEDGER_ALLOCATED, "allocated", "已分配 (allocated)")                                        \
    X(LEDGER_LARGEST_FREE, "largest free block", "最大空闲块")                                    \
    X(LEDGER_NON_RELEASABLE, "non-releasable (split segments)", "不可释放（分裂段中）")          \
    X(LEDGER_NVML, "As nvidia-smi sees it (NVML): %s", "nvidia-smi 的视角（NVML）：%s")          \
    X(LEDGER_THIS_PROCESS, "  <- this process", "  ← 本进程")

enum lt_say_id {
#define LT_X_SAY_ID(id, en, zh) LT_SAY_##id,
    LT_SAY_LIST(LT_X_SAY_ID)
#undef LT_X_SAY_ID
    LT_SAY_COUNT
};

/* The language code a caller holds ("en", "zh"; NULL or anything else is English) as a flag. */
bool lt_say_zh(const char *lang);
/* The row's format in lang (never NULL; "?" for an id out of range). */
const char *lt_say_fmt(enum lt_say_id id, const char *lang);
/* printf the row's format in lang into buf (n bytes, always terminated); returns buf. */
const char *lt_say(char *buf, size_t n, const char *lang, enum lt_say_id id, ...);
/* A GPU_WARN_* bit's sentence into buf (the empty string for a value that is not one bit);
 * returns buf. */
const char *lt_say_warn(unsigned bit, const char *lang, char *buf, size_t n);
/* A device refusal as the device layer handed it up (its key, numbers and English text) in
 * lang: the English text when there is no key or lang is English; returns buf. */
const char *lt_say_why(enum gpu_why_key key, const double arg[4], const char *en,
                       const char *lang, char *buf, size_t n);

#endif
