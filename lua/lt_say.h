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
    X(WARN_LOW_CLOCK,                                                                             \
      "the SM clock was below 90 %% of its maximum: the ns read slow, the cycles do not",         \
      "SM 频率低于其上限的 90%%：纳秒数偏慢，周期数不受影响")                                        \
    /* the device layer's refusals: one row per keyed GPU_WHY_LIST entry (%s per number) */       \
    X(WHY_ZERO, "cannot allocate 0 bytes", "不能分配 0 字节")                                     \
    X(WHY_INJECTED, "out of memory (injected fault: allocation #%s)",                             \
      "显存不足（注入的故障：第 %s 次分配）")                                                       \
    X(WHY_NO_FREE, "%s requested, but the GPU has no free memory: other processes (or this one) " \
                   "hold all of it",                                                             \
      "申请 %s，但 GPU 已没有空闲显存：其他进程（或本进程）占满了它")                              \
    X(WHY_CAP, "%s requested, but experiments may take at most %s%% of free memory in all, what " \
               "they hold included (%s left)",                                                   \
      "申请 %s，但实验总共最多只能用空闲显存的 %s%%（已占用的也算在内；还剩 %s）")                 \
    X(WHY_CAP_BYTES, "%s requested, but experiments may hold at most %s of device memory in all " \
                     "(--cap; %s left)",                                                         \
      "申请 %s，但实验总共最多只能占用 %s 显存（--cap；还剩 %s）")                                 \
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
    X(WHY_FEED_WRONG, "validation failed: operation %s (a read of buffer %s) found %s of %s words " \
                      "not what the program put there; the timeline is not reported",            \
      "校验失败：第 %s 个操作（读取缓冲区 %s）发现 %s / %s 个字不是程序写入的内容；不报告时间线") \
    X(WHY_FEED_WRONG_END, "validation failed: after the program, buffer %s held %s of %s words "  \
                          "not what the program put there; the timeline is not reported",        \
      "校验失败：程序结束后，缓冲区 %s 有 %s / %s 个字不是程序写入的内容；不报告时间线")          \
    X(WHY_FEED_RACE, "validation failed: operations %s and %s used the same bytes at the same "   \
                     "time (no stream order or event between them), so what they left is "       \
                     "undefined; the timeline is not reported",                                  \
      "校验失败：第 %s 和第 %s 个操作同时使用了同一段内存（它们之间既没有同一流的先后顺序，也没有" \
      "事件），留下的内容是未定义的；不报告时间线")                                                 \
    X(WHY_FEED_HOST_CAP, "the program's host and managed buffers take %s; this run allows %s "    \
                         "(host.budget())",                                                      \
      "程序的主机缓冲区和托管缓冲区共需 %s；本次运行最多允许 %s（host.budget()）")                 \
    X(WHY_FEED_MANAGED, "managed memory needs a GPU that takes page faults "                      \
                        "(cudaDevAttrConcurrentManagedAccess: Linux, Pascal or newer)",          \
      "托管内存需要能处理缺页的 GPU（cudaDevAttrConcurrentManagedAccess：Linux，Pascal 或更新的架构）") \
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
    /* what NVML's figures are worth, by gpu_ledger.nvml_state (NONE: %s is NVML's reason) */    \
    X(LEDGER_NVML_NONE, "not available (%s)", "不可用（%s）")                                     \
    X(LEDGER_NVML_NOT_REAL, "no other processes on this device", "这个设备上没有其他进程")        \
    X(LEDGER_NVML_PER_PROCESS, "per-process figures from NVML "                                  \
      "(nvmlDeviceGetComputeRunningProcesses), as nvidia-smi shows them",                        \
      "每个进程的数字来自 NVML（nvmlDeviceGetComputeRunningProcesses），与 nvidia-smi 显示的相同")  \
    X(LEDGER_NVML_HIDDEN, "NVML hides some processes' memory (no permission)",                   \
      "NVML 隐藏了部分进程的显存（没有权限）")                                                     \
    X(LEDGER_NVML_NAMESPACE, "this process is not in NVML's list (a PID namespace?): other "     \
      "processes cannot be told apart", "本进程不在 NVML 的列表里（PID 命名空间？）：无法区分其他进程") \
    X(LEDGER_NVML_WHOLE_GPU, "processes of the WHOLE GPU (every MIG instance: this slice was not " \
      "identified in NVML), not counted here",                                                   \
      "整块 GPU 的进程（所有 MIG 实例：NVML 里认不出这个切片），这里不计入")                          \
    X(LEDGER_DRIVER_RESERVED, "  reserved by the driver: %s (nvidia-smi's Reserved row, NVML v2)",  \
      "  驱动保留：%s（nvidia-smi 的 Reserved 一行，NVML v2）")                                     \
    /* what the snapshot replay found (gpu_snap_replay.h): one row per finding kind, in its   \
     * order; %s per number, in the order of v[] (x for the threshold) */                      \
    X(SNAP_NOTE_NO_SETTINGS, "no allocator_settings in the snapshot (PyTorch before 2.2): the "    \
      "recorded options are taken as the defaults",                                              \
      "快照里没有 allocator_settings（PyTorch 2.2 之前）：原设置按默认值算")                        \
    X(SNAP_NOTE_ROUNDUP_INTERVALS, "roundup_power2_divisions differs by size interval; the model " \
      "uses one value for all (%s)",                                                             \
      "roundup_power2_divisions 随大小区间而不同；模型对所有区间用同一个值（%s）")                  \
    X(SNAP_NOTE_GC_THRESHOLD, "garbage_collection_threshold %s is not modelled: the model never "  \
      "frees cached blocks on its own",                                                          \
      "garbage_collection_threshold %s 没有建模：模型不会自己释放缓存的块")                         \
    X(SNAP_NOTE_PRE_TRACE, "the model starts from the cache before the trace's first entry (%s "   \
      "segments, %s; %s blocks live, %s requested)",                                             \
      "模型从记录第一条之前的缓存开始（%s 个段，%s；存活的块 %s 个，申请了 %s）")                    \
    X(SNAP_NOTE_OVERFLOWED, "the trace ring buffer overflowed: its oldest entries are gone",       \
      "记录的环形缓冲区溢出了：最早的记录已经丢失")                                                 \
    X(SNAP_NOTE_STREAMS, "more than one stream (%s): the model has one, so blocks freed on one "   \
      "stream are reused by another at once (PyTorch keeps each stream's free blocks apart)",     \
      "不止一个流（%s）：模型只有一个流，所以一个流释放的块会立刻被另一个流重用（PyTorch 把每个流的空闲块分开）") \
    X(SNAP_NOTE_EXPANDABLE, "expandable segments were on: recorded device calls are "              \
      "segment_map/segment_unmap entries, the model's are its page maps",                        \
      "可扩展段是开着的：记录里的设备调用是 segment_map/segment_unmap，模型的是它的页映射")          \
    X(SNAP_NOTE_NO_CAPACITY, "no --capacity: the model device is unlimited, so no OOM is judged",  \
      "没给 --capacity：模型设备不限容量，所以不判断 OOM")                                         \
    X(SNAP_NOTE_EMPTY_CACHE, "%s empty_cache() calls read from segment_free runs",                 \
      "从连续的 segment_free 记录读出 %s 次 empty_cache() 调用")                                    \
    X(SNAP_NOTE_PRIVATE_POOLS, "%s segments of private pools (CUDA graphs, MemPool) are replayed " \
      "as the default pool",                                                                     \
      "私有内存池（CUDA graph、MemPool）的 %s 个段按默认池回放")                                    \
    X(SNAP_NOTE_PRE_TRACE_UNPLACED, "%s blocks live before the trace lie in no segment the "       \
      "snapshot accounts for: the model placed them itself",                                      \
      "记录开始前存活的 %s 个块不在快照能对上的段里：模型自己安放了它们")                            \
    X(SNAP_DIFF_OOM, "out of memory on %s: the model failed %s traced allocations the recorded "   \
      "run served, and could serve %s of the %s requests the recorded run refused",               \
      "容量 %s 下内存不够：记录里成功的分配有 %s 次在模型里失败；模型能满足 %s 次记录里被拒绝的申请（共 %s 次）") \
    X(SNAP_DIFF_PEAK_RESERVED, "peak reserved: recorded %s, model %s", "已预留峰值：记录 %s，模型 %s") \
    X(SNAP_DIFF_DEVICE_CALLS, "device calls: recorded %s allocs / %s frees, model %s / %s",        \
      "设备调用：记录 %s 次分配 / %s 次释放，模型 %s / %s")                                         \
    X(SNAP_DIFF_END_SEGMENTS, "at the end: recorded %s segments holding %s, model %s holding %s", \
      "结束时：记录 %s 个段共 %s，模型 %s 个段共 %s")                                               \
    X(SNAP_DIFF_END_SIZES, "at the end: %s segments holding %s on both sides, but of other sizes", \
      "结束时：两边都是 %s 个段共 %s，但段的大小不同")                                              \
    X(SNAP_DIFF_NON_RELEASABLE, "non-releasable at the end: recorded %s, model %s",               \
      "结束时不可释放：记录 %s，模型 %s")                                                           \
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
