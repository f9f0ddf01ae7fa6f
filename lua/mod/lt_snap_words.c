/* lt_snap_words.c - see lt_snap_words.h. Each row: the kind, how its numbers are written (one
 * letter per v[i]: B bytes, N a count; X the real number x), and the text in English and
 * Chinese with {0}..{3} (and {x}) where the numbers go. */
#include "lt_snap_words.h"

#include <stdio.h>
#include <string.h>

static const struct {
    int kind;
    const char *args, *en, *zh;
} rows[] = {
    {GPU_SNAP_NOTE_NO_SETTINGS, "N",
     "no allocator_settings in the snapshot (PyTorch before 2.2): the recorded options are taken as the defaults",
     "快照里没有 allocator_settings（PyTorch 2.2 之前）：原设置按默认值算"},
    {GPU_SNAP_NOTE_ROUNDUP_INTERVALS, "N",
     "roundup_power2_divisions differs by size interval; the model uses one value for all ({0})",
     "roundup_power2_divisions 随大小区间而不同；模型对所有区间用同一个值（{0}）"},
    {GPU_SNAP_NOTE_GC_THRESHOLD, "",
     "garbage_collection_threshold {x} is not modelled: the model never frees cached blocks on its own",
     "garbage_collection_threshold {x} 没有建模：模型不会自己释放缓存的块"},
    {GPU_SNAP_NOTE_PRE_TRACE, "NBNB",
     "the cache before the trace's first entry ({0} segments, {1}; {2} blocks live, {3} requested) is where the model starts",
     "模型从记录第一条之前的缓存开始（{0} 个段，{1}；活着的块 {2} 个，申请了 {3}）"},
    {GPU_SNAP_NOTE_OVERFLOWED, "",
     "the trace ring buffer overflowed: its oldest entries are gone",
     "记录的环形缓冲区溢出了：最早的记录已经丢失"},
    {GPU_SNAP_NOTE_STREAMS, "N",
     "more than one stream: the model has one, so blocks freed on one stream are reused by another at once (PyTorch keeps each stream's free blocks apart)",
     "不止一个流：模型只有一个流，所以一个流释放的块会立刻被另一个流重用（PyTorch 把每个流的空闲块分开）"},
    {GPU_SNAP_NOTE_EXPANDABLE, "",
     "expandable segments were on: recorded device calls are segment_map/segment_unmap entries, the model's are its page maps",
     "可扩展段是开着的：记录里的设备调用是 segment_map/segment_unmap，模型的是它的页映射"},
    {GPU_SNAP_NOTE_NO_CAPACITY, "",
     "no --capacity: the model device is unlimited, so no OOM is judged",
     "没给 --capacity：模型设备不限容量，所以不判断 OOM"},
    {GPU_SNAP_NOTE_EMPTY_CACHE, "N",
     "{0} empty_cache() calls read from segment_free runs",
     "从连续的 segment_free 记录读出 {0} 次 empty_cache() 调用"},
    {GPU_SNAP_NOTE_PRIVATE_POOLS, "N",
     "{0} segments of private pools (CUDA graphs, MemPool) are replayed as the default pool",
     "私有内存池（CUDA graph、MemPool）的 {0} 个段按默认池回放"},
    {GPU_SNAP_NOTE_PRE_TRACE_UNPLACED, "N",
     "{0} blocks live before the trace lie in no segment the snapshot accounts for: the model placed them itself",
     "记录开始前活着的 {0} 个块不在快照能对上的段里：模型自己安放了它们"},
    {GPU_SNAP_DIFF_OOM, "BNNN",
     "out of memory on {0}: the model failed {1} traced allocations the recorded run served, and could serve {2} of the {3} requests the recorded run refused",
     "容量 {0} 下内存不够：记录里成功的分配有 {1} 次在模型里失败；记录里被拒绝的 {3} 次申请，模型能满足 {2} 次"},
    {GPU_SNAP_DIFF_PEAK_RESERVED, "BB",
     "peak reserved: recorded {0}, model {1}",
     "已预留峰值：记录 {0}，模型 {1}"},
    {GPU_SNAP_DIFF_DEVICE_CALLS, "NNNN",
     "device calls: recorded {0} allocs / {1} frees, model {2} / {3}",
     "设备调用：记录 {0} 次分配 / {1} 次释放，模型 {2} / {3}"},
    {GPU_SNAP_DIFF_END_SEGMENTS, "NBNB",
     "at the end: recorded {0} segments holding {1}, model {2} holding {3}",
     "结束时：记录 {0} 个段共 {1}，模型 {2} 个段共 {3}"},
    {GPU_SNAP_DIFF_END_SIZES, "NB",
     "at the end: {0} segments holding {1} on both sides, but of other sizes",
     "结束时：两边都是 {0} 个段共 {1}，但段的大小不同"},
    {GPU_SNAP_DIFF_NON_RELEASABLE, "BB",
     "non-releasable at the end: recorded {0}, model {1}",
     "结束时不可释放：记录 {0}，模型 {1}"},
};

static void value(char kind, uint64_t v, char *b, size_t n)
{
    if (kind == 'B') {
        char h[32];
        gpu_cache_format_size(v, h, sizeof h);
        snprintf(b, n, "%s (%llu B)", h, (unsigned long long)v);
    } else {
        snprintf(b, n, "%llu", (unsigned long long)v);
    }
}

const char *lt_snap_finding_text(const struct gpu_snap_finding *f, bool zh, char *buf, size_t n)
{
    if (!n) return buf;
    buf[0] = 0;
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        if (rows[r].kind != f->kind) continue;
        size_t k = 0;
        for (const char *t = zh ? rows[r].zh : rows[r].en; *t && k + 1 < n;) {
            char v[64];
            if (t[0] == '{' && t[1] == 'x' && t[2] == '}') {
                snprintf(v, sizeof v, "%g", f->x);
                t += 3;
            } else if (t[0] == '{' && t[1] >= '0' && t[1] <= '3' && t[2] == '}') {
                int i = t[1] - '0';
                value((size_t)i < strlen(rows[r].args) ? rows[r].args[i] : 'N', f->v[i], v, sizeof v);
                t += 3;
            } else {
                buf[k++] = *t++;
                continue;
            }
            size_t l = strlen(v);
            if (k + l >= n) l = n - 1 - k;
            memcpy(buf + k, v, l);
            k += l;
        }
        buf[k] = 0;
        return buf;
    }
    snprintf(buf, n, "%s", f->kind < GPU_SNAP_NFINDING_KINDS ? gpu_snap_finding_names[f->kind] : "?");
    return buf;
}
