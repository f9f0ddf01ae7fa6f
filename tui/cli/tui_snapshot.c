/* tui_snapshot.c - see tui_snapshot.h. Text for people (sizes in GiB/MiB = 2^30/2^20 B, times
 * relative to the first trace entry) and JSON for tools (every size in bytes, names as in the
 * docs). Strings from the file (frame file names, function names, the recorded options) are
 * written through put_safe or the JSON writer, never raw: a snapshot is untrusted input. */
#include "tui_snapshot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_esc.h"
#include "gpu_fmt.h"
#include "gpu_parse.h"
#include "gpu_snap_diff.h"
#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snap_walk.h"
#include "gpu_snapshot.h"
#include "lt_snap_words.h"
#include "tui_json.h"
#include "tui_plain.h"
#include "tui_wrap.h"

#define DEFAULT_TOP 10
#define MAX_CAPACITY (1ull << 42)

/* ---- output helpers --------------------------------------------------------------------- */

/* bytes with two decimals once scaled ("512 B", "1.50 GiB"), as memory_viz writes them */
static void fmt_bytes(uint64_t b, char *o, size_t n)
{
    gpu_fmt_bytes((double)b, GPU_FMT_BIN | GPU_FMT_DIGITS(2), o, n);
}

static const char *B(uint64_t b, char *buf, size_t n)
{
    fmt_bytes(b, buf, n);
    return buf;
}

static const char *SB(int64_t b, char *buf, size_t n)
{
    if (b >= 0) return B((uint64_t)b, buf, n);
    buf[0] = '-';
    fmt_bytes((uint64_t)(-(b + 1)) + 1, buf + 1, n - 1);
    return buf;
}

static bool g_zh; /* the text report in Chinese (tui_snapshot_cmd sets it) */
static bool g_segments; /* --segments: every segment listed (text and JSON) */
#define T(en, zh) (g_zh ? (zh) : (en))

static void put_safe(FILE *f, const char *s, size_t n, size_t max);
static void json_annotations(struct tui_json *j, const struct gpu_snapshot *s, int device);
static void json_segments(struct tui_json *j, const struct gpu_snapshot *s, int device);
static void text_segments(FILE *f, const struct gpu_snapshot *s, int device);

/* A group's place: FILE:LINE, or the placeholder of a stack without user code, said in Chinese. */
static void put_where(FILE *f, const struct gpu_snap_group *g, const char *w, size_t wn, size_t max)
{
    if (g_zh && g->where_len == strlen(GPU_SNAP_NO_USER_FRAME) &&
        !memcmp(g->where, GPU_SNAP_NO_USER_FRAME, g->where_len))
        fputs("<只有 torch 或 Python 内部的帧>", f);
    else if (g_zh && g->where_len == strlen(GPU_SNAP_NO_FRAMES) &&
             !memcmp(g->where, GPU_SNAP_NO_FRAMES, g->where_len))
        fputs("<没有记录调用栈>", f);
    else put_safe(f, w, wn, max);
}

static void put_safe(FILE *f, const char *s, size_t n, size_t max)
{
    /* the one escaper (gpu_esc_field: controls, bidi overrides, bad UTF-8), cut to about max
     * bytes with "…"; text from a pickle is counted, not NUL-terminated */
    char raw[1024], out[1024 + 8];
    size_t k = n < sizeof raw - 1 ? n : sizeof raw - 1;
    memcpy(raw, s, k);
    raw[k] = 0;
    size_t cap = max + 4 < sizeof out ? max + 4 : sizeof out;
    fputs(gpu_esc_field(out, cap, raw), f);
}

/* A whole number, or null when the file does not say (ASCII JSON, as Python's json.dumps). */
static void jmaybe(struct tui_json *j, const char *k, bool known, int64_t v)
{
    tui_json_key(j, k);
    if (known) tui_json_int(j, v);
    else tui_json_null(j);
}

/* "/home/a/proj/model.py:12" -> "proj/model.py:12", "C:\\a\\proj\\m.py:3" -> "proj\\m.py:3"
 * (the text view; JSON keeps the path) */
static void short_where(const struct gpu_snap_group *g, const char **s, size_t *n)
{
    gpu_snap_short_path(g->where, g->where_len, 2, s, n);
}

/* The group's stack as memory_viz filters it, Python frames only when it has any (the C++
 * frames under them are the allocator's own), innermost first, one per line. */
#define STACK_LINES 12
static void text_stack(FILE *f, const struct gpu_snapshot *s, uint32_t stack, const char *indent)
{
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, stack);
    bool py = false;
    for (uint32_t k = 0; k < st->n && !py; k++) {
        const struct gpu_snap_frame *fr = gpu_snapshot_stack_frame(s, stack, k);
        py = fr->kind == GPU_SNAP_FRAME_USER || (fr->kind == GPU_SNAP_FRAME_LIB && fr->file_len > 3 &&
                                                 !memcmp(fr->file + fr->file_len - 3, ".py", 3));
    }
    int shown = 0, left = 0;
    for (uint32_t k = 0; k < st->n; k++) {
        const struct gpu_snap_frame *fr = gpu_snapshot_stack_frame(s, stack, k);
        if (fr->kind == GPU_SNAP_FRAME_BAD || fr->kind == GPU_SNAP_FRAME_HIDDEN) continue;
        if (py && !(fr->file_len > 3 && !memcmp(fr->file + fr->file_len - 3, ".py", 3))) continue;
        if (shown == STACK_LINES) {
            left++;
            continue;
        }
        const char *p;
        size_t pn;
        gpu_snap_short_path(fr->file, fr->file_len, 3, &p, &pn);
        fputs(indent, f);
        fputs(fr->kind == GPU_SNAP_FRAME_USER ? "> " : "  ", f);
        put_safe(f, p, pn, 160);
        fprintf(f, ":%lld ", (long long)fr->line);
        put_safe(f, fr->name, fr->name_len, 80);
        fputc('\n', f);
        shown++;
    }
    if (left) fprintf(f, T("%s  ... %d more frames\n", "%s  ……还有 %d 帧\n"), indent, left);
}

/* The same stack for JSON: every frame memory_viz's filter keeps, "file:line:name", innermost
 * first, paths whole. */
static void json_stack(struct tui_json *j, const struct gpu_snapshot *s, uint32_t stack)
{
    tui_json_key(j, "stack");
    tui_json_arr(j);
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, stack);
    for (uint32_t k = 0; k < st->n; k++) {
        const struct gpu_snap_frame *fr = gpu_snapshot_stack_frame(s, stack, k);
        if (fr->kind == GPU_SNAP_FRAME_BAD || fr->kind == GPU_SNAP_FRAME_HIDDEN) continue;
        char num[32];
        int nl = snprintf(num, sizeof num, ":%lld:", (long long)fr->line);
        size_t len = fr->file_len + (size_t)nl + fr->name_len;
        char *t = malloc(len + 1);
        if (!t) continue;
        memcpy(t, fr->file, fr->file_len);
        memcpy(t + fr->file_len, num, (size_t)nl);
        memcpy(t + fr->file_len + (size_t)nl, fr->name, fr->name_len);
        tui_json_strn(j, t, len);
        free(t);
    }
    tui_json_end(j);
}

/* "  label       " in the report's label column: 12 display columns, Chinese labels too. */
static void label(FILE *f, const char *en, const char *zh)
{
    const char *l = T(en, zh);
    fprintf(f, "  %s", l);
    for (int k = tui_width(l, strlen(l)); k < 12; k++) fputc(' ', f);
}

static void put_rel_time(FILE *f, const struct gpu_snap_device *d, bool has, int64_t t)
{
    if (!has || !d->has_times) {
        fputs(T("(no time)", "（无时间）"), f);
        return;
    }
    double ms = (double)(t - d->first_time) / 1e3;
    if (fabs(ms) < 1e4) fprintf(f, T("%.1f ms after the first entry", "第一条记录之后 %.1f ms"), ms);
    else fprintf(f, T("%.2f s after the first entry", "第一条记录之后 %.2f s"), ms / 1e3);
}

/* ---- the summary as text ------------------------------------------------------------------- */

static void text_settings(FILE *f, const struct gpu_snapshot *s)
{
    const struct gpu_snap_settings *st = gpu_snapshot_settings(s);
    char b[32];
    label(f, "options", "设置");
    if (!st->present) {
        fputs(T("not recorded (no allocator_settings: PyTorch before 2.2)\n",
                "没有记录（没有 allocator_settings：PyTorch 2.2 之前）\n"), f);
        return;
    }
    fputs("PYTORCH_CUDA_ALLOC_CONF=\"", f);
    if (st->conf) put_safe(f, st->conf, st->conf_len, 200);
    fprintf(f, "\"; expandable_segments %s, max_split_size %s",
            st->expandable < 0 ? "n/a" : st->expandable ? "True" : "False",
            st->max_split_size ? B(st->max_split_size, b, sizeof b) : T("unlimited", "不限"));
    if (st->has_gc) fprintf(f, ", garbage_collection_threshold %g", st->gc_threshold);
    fputc('\n', f);
}

static void text_device(FILE *f, const struct gpu_snapshot *s, const struct gpu_snap_device *d,
                        bool stacks)
{
    char b1[32], b2[32], b3[32], b4[32];
    fprintf(f, T("Device %d\n", "设备 %d\n"), d->device);
    label(f, "reserved", "已预留");
    fprintf(f, T("%s in %llu segments (%llu large, %llu small", "%s，%llu 个段（大 %llu，小 %llu"),
            B(d->reserved, b1, sizeof b1), (unsigned long long)d->nsegs,
            (unsigned long long)d->nlarge, (unsigned long long)d->nsmall);
    if (d->nexpandable) fprintf(f, T("; %llu expandable", "；可扩展 %llu"), (unsigned long long)d->nexpandable);
    fputs(T(")\n", "）\n"), f);
    label(f, "blocks", "块");
    for (int i = 0; i < GPU_SNAP_NSTATES; i++)
        fprintf(f, "%s%s %llu = %s", i ? ", " : "", gpu_snap_state_names[i],
                (unsigned long long)d->blocks[i].count, B(d->blocks[i].bytes, b1, sizeof b1));
    fputc('\n', f);
    const struct gpu_snap_count *a = &d->blocks[GPU_SNAP_ACTIVE_ALLOCATED];
    label(f, "allocated", "已分配");
    fprintf(f, T("%s in blocks for %s requested: %s lost to rounding (internal fragmentation)\n",
                 "块里 %s，申请的是 %s：%s 因取整而浪费（内部碎片）\n"),
            B(a->bytes, b1, sizeof b1), B(a->requested, b2, sizeof b2),
            SB((int64_t)a->bytes - (int64_t)a->requested, b3, sizeof b3));
    label(f, "cached", "缓存");
    fprintf(f, T("%s free in segments: %s releasable by empty_cache, %s not (beside live blocks: "
                 "external fragmentation); largest free block %s\n",
                 "段里空闲 %s：empty_cache 能释放 %s，%s 不能（夹在存活的块旁边：外部碎片）；"
                 "最大的空闲块 %s\n"),
            B(d->blocks[GPU_SNAP_INACTIVE].bytes, b1, sizeof b1), B(d->releasable, b2, sizeof b2),
            B(d->non_releasable, b3, sizeof b3), B(d->largest_free, b4, sizeof b4));
    if (!d->events) {
        label(f, "trace", "记录");
        fputs(T("none (record with torch.cuda.memory._record_memory_history())\n",
                "没有（用 torch.cuda.memory._record_memory_history() 记录）\n"), f);
        return;
    }
    label(f, "trace", "记录");
    fprintf(f, T("%zu entries", "%zu 条"), d->events);
    if (d->has_times) {
        double span = (double)(d->last_time - d->first_time) / 1e3;
        if (span < 1e4) fprintf(f, T(" over %.1f ms", "，历时 %.1f ms"), span);
        else fprintf(f, T(" over %.2f s", "，历时 %.2f s"), span / 1e3);
    }
    if (g_zh) fprintf(f, "，%zu 个流：", d->streams);
    else fprintf(f, " on %zu stream%s:", d->streams, d->streams == 1 ? "" : "s");
    bool first = true;
    for (int i = 0; i < GPU_SNAP_NACTIONS; i++)
        if (d->actions[i]) {
            fprintf(f, "%s%s %zu", first ? (g_zh ? "" : " ") : ", ", gpu_snap_action_names[i], d->actions[i]);
            first = false;
        }
    fputc('\n', f);
    label(f, "peak", "峰值");
    fprintf(f, T("%s live (requested bytes) ", "存活 %s（申请的字节）"), SB(d->peak_bytes, b1, sizeof b1));
    if (d->peak_event < 0) fputs(T("before the first entry", "，在第一条记录之前"), f);
    else {
        int64_t t = 0;
        bool has = gpu_snapshot_event_time(s, d->device, d->peak_event, &t);
        fprintf(f, T("after entry %lld, ", "，第 %lld 条记录之后，"), (long long)d->peak_event);
        put_rel_time(f, d, has, t);
    }
    fprintf(f, T("; %s live before the trace (%zu blocks), %s at its end\n",
                 "；记录开始前存活 %s（%zu 个块），结束时 %s\n"),
            SB(d->start_bytes, b1, sizeof b1), d->pre_trace_blocks, SB(d->end_bytes, b2, sizeof b2));
    if ((uint64_t)d->end_bytes != d->snapshot_active_requested || d->end_bytes < 0)
        fprintf(f, T("              (the trace ends with %s live but the segments hold %s active: "
                     "the two disagree)\n",
                     "              （记录结束时存活 %s，但段里活跃的是 %s：两者不一致）\n"),
                SB(d->end_bytes, b1, sizeof b1), B(d->snapshot_active_requested, b2, sizeof b2));
    label(f, "reserved", "已预留");
    fprintf(f, T("peak %s ", "峰值 %s"), SB(d->reserved_peak, b1, sizeof b1));
    if (d->reserved_peak_event < 0) fputs(T("before the first entry", "，在第一条记录之前"), f);
    else {
        int64_t t = 0;
        bool has = gpu_snapshot_event_time(s, d->device, d->reserved_peak_event, &t);
        fprintf(f, T("after entry %lld, ", "，第 %lld 条记录之后，"), (long long)d->reserved_peak_event);
        put_rel_time(f, d, has, t);
    }
    fprintf(f, T("; %s before the trace (the final segments, back through segment_* entries)\n",
                 "；记录开始前 %s（从最后的段沿 segment_* 记录倒推）\n"),
            SB(d->reserved_start, b2, sizeof b2));
    for (size_t i = 0; i < d->npools; i++) {
        const struct gpu_snap_pool *p = &d->pools[i];
        label(f, "pool", "私有池");
        fprintf(f, T("(%lld, %lld): %llu segments holding %s, %s allocated, %s cached (a private "
                     "pool: CUDA graphs or MemPool; counted in the figures above too)\n",
                     "(%lld, %lld)：%llu 个段共 %s，已分配 %s，缓存 %s（私有池：CUDA graph 或 MemPool；"
                     "也算在上面的数里）\n"),
                (long long)p->id[0], (long long)p->id[1], (unsigned long long)p->nsegs,
                B(p->reserved, b1, sizeof b1), B(p->allocated, b2, sizeof b2), B(p->cached, b3, sizeof b3));
    }
    if (d->ntop)
        fputs(T(stacks ? "  live at the peak, by first user frame (largest first), each with the stack "
                         "of its largest (> marks the user frame):\n"
                       : "  live at the peak, by first user frame (largest first):\n",
                stacks ? "  峰值时存活的张量，按第一个用户代码帧分组（从大到小），附最大那个的调用栈（> 是用户代码帧）：\n"
                       : "  峰值时存活的张量，按第一个用户代码帧分组（从大到小）：\n"), f);
    for (size_t i = 0; i < d->ntop; i++) {
        const struct gpu_snap_group *g = &d->top[i];
        const char *w;
        size_t wn;
        short_where(g, &w, &wn);
        fprintf(f, "    %11s %6llu  ", B(g->bytes, b1, sizeof b1), (unsigned long long)g->count);
        put_where(f, g, w, wn, 120);
        if (g->function_len) fputc(' ', f), put_safe(f, g->function, g->function_len, 80);
        fputc('\n', f);
        if (stacks) text_stack(f, s, g->stack, "                         ");
    }
    for (size_t i = 0; i < d->nooms && i < 10; i++) {
        const struct gpu_snap_oom *m = &d->ooms[i];
        label(f, "OOM", "OOM");
        fprintf(f, T("entry %zu, ", "第 %zu 条记录，"), m->event);
        put_rel_time(f, d, m->has_time, m->time_us);
        fprintf(f, T(": asked for %s (rounded); CUDA reported %s free; the allocator held %s "
                     "reserved, %s of it requested by live tensors\n",
                     "：申请 %s（取整后）；CUDA 报告空闲 %s；分配器已预留 %s，其中存活的张量申请了 %s\n"),
                B(m->size, b1, sizeof b1), m->has_free ? B(m->device_free, b2, sizeof b2) : "n/a",
                SB(m->reserved, b3, sizeof b3), SB(m->live_requested, b4, sizeof b4));
        fputs(T("              at ", "              位置 "), f);
        put_where(f, &m->where, m->where.where, m->where.where_len, 160);
        if (m->where.function_len) fputc(' ', f), put_safe(f, m->where.function, m->where.function_len, 80);
        fputc('\n', f);
        if (stacks) text_stack(f, s, m->where.stack, "              ");
        if (m->has_free && m->reserved >= 0)
            fprintf(f, T("              reserved + free = %s: what this process could have held "
                         "(try --capacity with it)\n",
                         "              已预留 + 空闲 = %s：这个进程最多能拿到的量（可用 --capacity 试试）\n"),
                    B((uint64_t)m->reserved + m->device_free, b1, sizeof b1));
    }
    if (d->nooms > 10) fprintf(f, T("  OOM         ... %zu in all\n", "  OOM         …共 %zu 次\n"), d->nooms);
    if (g_segments) text_segments(f, s, d->device);
}

/* ---- the summary as JSON (the keys of tests/snapshot/summary_ref.py) ------------------------ */

static void json_count(struct tui_json *j, const char *k, const struct gpu_snap_count *c)
{
    tui_json_key(j, k);
    tui_json_obj(j);
    tui_json_kuint(j, "count", c->count);
    tui_json_kuint(j, "bytes", c->bytes);
    tui_json_kuint(j, "requested_bytes", c->requested);
    tui_json_end(j);
}

static void json_settings(struct tui_json *j, const struct gpu_snapshot *s)
{
    const struct gpu_snap_settings *st = gpu_snapshot_settings(s);
    tui_json_key(j, "allocator_settings");
    if (!st->present) {
        tui_json_null(j);
        return;
    }
    tui_json_obj(j);
    tui_json_key(j, "PYTORCH_CUDA_ALLOC_CONF");
    if (st->conf) tui_json_strn(j, st->conf, st->conf_len);
    else tui_json_null(j);
    jmaybe(j, "max_split_size", st->max_split_size > 0, (int64_t)st->max_split_size);
    tui_json_key(j, "expandable_segments");
    if (st->expandable < 0) tui_json_null(j);
    else tui_json_bool(j, st->expandable);
    tui_json_key(j, "garbage_collection_threshold");
    if (st->has_gc) tui_json_real(j, st->gc_threshold); /* a float stays a float: 0.0, not 0 */
    else tui_json_null(j);
    tui_json_key(j, "roundup_power2_divisions");
    if (!st->has_roundup) tui_json_null(j);
    else {
        tui_json_arr(j);
        for (size_t i = 0; i < st->nroundup; i++) {
            if (st->roundup_ok[i]) tui_json_int(j, st->roundup[i]);
            else tui_json_null(j);
        }
        tui_json_end(j);
    }
    tui_json_end(j);
}

static void json_group(struct tui_json *j, const struct gpu_snap_group *g)
{
    tui_json_key(j, "where");
    tui_json_strn(j, g->where, g->where_len);
    tui_json_key(j, "function");
    tui_json_strn(j, g->function, g->function_len);
}

static void json_trace(struct tui_json *j, const struct gpu_snap_device *d)
{
    tui_json_key(j, "trace");
    tui_json_obj(j);
    tui_json_kuint(j, "events", d->events);
    tui_json_key(j, "actions");
    tui_json_obj(j);
    for (int i = 0; i < GPU_SNAP_NACTIONS; i++)
        tui_json_kuint(j, gpu_snap_action_names[i], d->actions[i]);
    tui_json_end(j);
    tui_json_kuint(j, "streams", d->streams);
    jmaybe(j, "first_time_us", d->has_times, d->first_time);
    jmaybe(j, "last_time_us", d->has_times, d->last_time);
    tui_json_end(j);
}

static void json_timeline(struct tui_json *j, const struct gpu_snapshot *s,
                          const struct gpu_snap_device *d)
{
    int64_t t;
    bool has;
    tui_json_key(j, "timeline");
    tui_json_obj(j);
    tui_json_kint(j, "start_bytes", d->start_bytes);
    tui_json_kuint(j, "pre_trace_blocks", d->pre_trace_blocks);
    tui_json_kint(j, "end_bytes", d->end_bytes);
    tui_json_kuint(j, "snapshot_active_requested_bytes", d->snapshot_active_requested);
    tui_json_kint(j, "peak_bytes", d->peak_bytes);
    jmaybe(j, "peak_event", d->peak_event >= 0, d->peak_event);
    has = gpu_snapshot_event_time(s, d->device, d->peak_event, &t);
    jmaybe(j, "peak_time_us", has, t);
    tui_json_kint(j, "reserved_start_bytes", d->reserved_start);
    tui_json_kint(j, "reserved_end_bytes", d->reserved_end);
    tui_json_kint(j, "reserved_peak_bytes", d->reserved_peak);
    jmaybe(j, "reserved_peak_event", d->reserved_peak_event >= 0, d->reserved_peak_event);
    has = gpu_snapshot_event_time(s, d->device, d->reserved_peak_event, &t);
    jmaybe(j, "reserved_peak_time_us", has, t);
    tui_json_end(j);
}

static void json_device(struct tui_json *j, const struct gpu_snapshot *s,
                        const struct gpu_snap_device *d)
{
    tui_json_obj(j);
    tui_json_kint(j, "device", d->device);
    tui_json_key(j, "segments");
    tui_json_obj(j);
    tui_json_kuint(j, "count", d->nsegs);
    tui_json_kuint(j, "large", d->nlarge);
    tui_json_kuint(j, "small", d->nsmall);
    tui_json_kuint(j, "expandable", d->nexpandable);
    tui_json_kuint(j, "reserved_bytes", d->reserved);
    tui_json_end(j);
    tui_json_key(j, "blocks");
    tui_json_obj(j);
    for (int i = 0; i < GPU_SNAP_NSTATES; i++) json_count(j, gpu_snap_state_names[i], &d->blocks[i]);
    tui_json_end(j);
    const struct gpu_snap_count *a = &d->blocks[GPU_SNAP_ACTIVE_ALLOCATED];
    tui_json_kuint(j, "allocated_bytes", a->bytes);
    tui_json_kuint(j, "requested_bytes", a->requested);
    /* < 0 if the file says so */
    tui_json_kint(j, "internal_fragmentation_bytes", (int64_t)a->bytes - (int64_t)a->requested);
    tui_json_kuint(j, "cached_bytes", d->blocks[GPU_SNAP_INACTIVE].bytes);
    tui_json_kuint(j, "releasable_bytes", d->releasable);
    tui_json_kuint(j, "non_releasable_bytes", d->non_releasable);
    tui_json_kuint(j, "largest_free_block_bytes", d->largest_free);
    tui_json_key(j, "private_pools");
    tui_json_arr(j);
    for (size_t i = 0; i < d->npools; i++) {
        const struct gpu_snap_pool *p = &d->pools[i];
        tui_json_obj(j);
        tui_json_key(j, "segment_pool_id");
        tui_json_arr(j);
        tui_json_int(j, p->id[0]);
        tui_json_int(j, p->id[1]);
        tui_json_end(j);
        tui_json_kuint(j, "segments", p->nsegs);
        tui_json_kuint(j, "reserved_bytes", p->reserved);
        tui_json_kuint(j, "allocated_bytes", p->allocated);
        tui_json_kuint(j, "cached_bytes", p->cached);
        tui_json_end(j);
    }
    tui_json_end(j);
    json_trace(j, d);
    json_timeline(j, s, d);
    tui_json_key(j, "top_at_peak");
    tui_json_arr(j);
    for (size_t i = 0; i < d->ntop; i++) {
        tui_json_obj(j);
        json_group(j, &d->top[i]);
        tui_json_kuint(j, "bytes", d->top[i].bytes);
        tui_json_kuint(j, "count", d->top[i].count);
        json_stack(j, s, d->top[i].stack);
        tui_json_end(j);
    }
    tui_json_end(j);
    tui_json_key(j, "ooms");
    tui_json_arr(j);
    for (size_t i = 0; i < d->nooms; i++) {
        const struct gpu_snap_oom *m = &d->ooms[i];
        tui_json_obj(j);
        tui_json_kuint(j, "event", m->event);
        jmaybe(j, "time_us", m->has_time, m->time_us);
        tui_json_kuint(j, "size", m->size);
        jmaybe(j, "device_free", m->has_free, (int64_t)m->device_free);
        tui_json_kint(j, "stream", m->stream);
        tui_json_kint(j, "live_requested_bytes", m->live_requested);
        tui_json_kint(j, "reserved_bytes", m->reserved);
        json_group(j, &m->where);
        json_stack(j, s, m->where.stack);
        tui_json_end(j);
    }
    tui_json_end(j);
    json_annotations(j, s, d->device);
    if (g_segments) json_segments(j, s, d->device);
    tui_json_end(j);
}

/* ---- the replay ------------------------------------------------------------------------------ */

static void json_side(struct tui_json *j, const char *name, const char *conf,
                      const struct gpu_snap_side *s, bool model)
{
    tui_json_obj(j);
    tui_json_kstr(j, "name", name);
    tui_json_kstr(j, "options", conf);
    tui_json_kuint(j, "peak_reserved_bytes", s->peak_reserved);
    tui_json_kuint(j, "peak_requested_bytes", s->peak_requested);
    tui_json_kuint(j, "device_allocs", s->device_allocs);
    tui_json_kuint(j, "device_frees", s->device_frees);
    tui_json_kuint(j, "end_reserved_bytes", s->end_reserved);
    tui_json_kuint(j, "end_active_bytes", s->end_active);
    tui_json_kuint(j, "end_non_releasable_bytes", s->end_non_releasable);
    tui_json_kuint(j, "end_segments", s->end_segments);
    tui_json_kuint(j, "ooms", s->ooms);
    jmaybe(j, "first_oom_event", s->ooms && s->first_oom_event >= 0, s->first_oom_event);
    if (model) {
        tui_json_kuint(j, "recorded_ooms_that_fit", s->recorded_ooms_fit);
        tui_json_kstr(j, "first_oom_message", s->ooms ? s->first_oom : NULL);
    }
    tui_json_end(j);
}

/* findings: their kind, numbers and the English words */
static void json_findings(struct tui_json *j, const char *key, const struct gpu_snap_finding *v,
                          size_t n)
{
    tui_json_key(j, key);
    tui_json_arr(j);
    for (size_t i = 0; i < n; i++) {
        char t[512];
        tui_json_obj(j);
        tui_json_kstr(j, "kind", gpu_snap_finding_names[v[i].kind]);
        tui_json_key(j, "values");
        tui_json_arr(j);
        for (int k = 0; k < 4; k++) tui_json_uint(j, v[i].v[k]);
        tui_json_end(j);
        tui_json_kstr(j, "text", lt_snap_finding_text(&v[i], false, t, sizeof t));
        tui_json_end(j);
    }
    tui_json_end(j);
}

static void json_replay(struct tui_json *j, const struct gpu_snap_replay *r)
{
    char rc[256], wc[256];
    gpu_snap_conf_text(&r->recorded_opts, rc, sizeof rc);
    gpu_snap_conf_text(&r->whatif_opts, wc, sizeof wc);
    tui_json_key(j, "replay");
    tui_json_obj(j);
    tui_json_kstr(j, "model", "SIMULATED: vramlab's model of PyTorch's caching allocator");
    tui_json_kint(j, "device", r->device);
    jmaybe(j, "capacity_bytes", r->capacity > 0, (int64_t)r->capacity);
    tui_json_kuint(j, "pre_trace_blocks", r->seeds);
    tui_json_kuint(j, "pre_trace_bytes", r->seed_bytes);
    tui_json_kuint(j, "pre_trace_segments", r->seed_segments);
    tui_json_kuint(j, "pre_trace_reserved_bytes", r->seed_reserved);
    tui_json_kuint(j, "empty_cache_calls", r->empty_caches);
    tui_json_key(j, "columns");
    tui_json_arr(j);
    json_side(j, "recorded", rc, &r->recorded, false);
    json_side(j, "model_recorded_options", rc, &r->model_recorded, true);
    if (r->have_whatif) json_side(j, "model_what_if", wc, &r->model_whatif, true);
    tui_json_end(j);
    json_findings(j, "differences", r->diffs, r->ndiffs);
    json_findings(j, "notes", r->notes, r->nnotes);
    tui_json_end(j);
}

/* s padded to w display columns */
static void padw(FILE *f, const char *s, int w)
{
    fputs(s, f);
    for (int k = tui_width(s, strlen(s)); k < w; k++) fputc(' ', f);
}

static void row(FILE *f, const char *lab, const char *a, const char *b, const char *c,
                bool three)
{
    fputs("  ", f), padw(f, lab, 24), fputc(' ', f), padw(f, a, 18), fputc(' ', f), padw(f, b, 18);
    if (three) fprintf(f, " %s", c);
    fputc('\n', f);
}

static void text_replay(FILE *f, const struct gpu_snap_replay *r)
{
    const struct gpu_snap_side *s[3] = {&r->recorded, &r->model_recorded, &r->model_whatif};
    bool three = r->have_whatif;
    char v[3][48], rc[256], wc[256];
    gpu_snap_conf_text(&r->recorded_opts, rc, sizeof rc);
    gpu_snap_conf_text(&r->whatif_opts, wc, sizeof wc);
    fprintf(f, T("\nWhat if - SIMULATED: the trace of device %d replayed through vramlab's model of "
                 "PyTorch's caching allocator (no GPU involved)\n",
                 "\n假如换一种设置（SIMULATED）：设备 %d 的记录在 vramlab 的 PyTorch 缓存分配器模型里"
                 "回放（不用 GPU）\n"), r->device);
    if (r->capacity)
        fprintf(f, T("  capacity: %s the allocator may hold\n", "  容量：分配器最多可持有 %s\n"),
                B(r->capacity, v[0], 48));
    row(f, "", T("recorded run", "记录里的运行"), T("model, recorded", "模型，原设置"),
        T("model, what if", "模型，新设置"), three);
    fputs("  ", f), padw(f, T("options", "设置"), 24), fputc(' ', f), padw(f, rc, 37);
    fprintf(f, "%s%s\n", three ? " " : "", three ? wc : "");
#define ROW(label, expr)                                                                           \
    do {                                                                                           \
        for (int i = 0; i < 3; i++) B(s[i]->expr, v[i], 48);                                       \
        row(f, label, v[0], v[1], v[2], three);                                                    \
    } while (0)
#define NROW(label, expr)                                                                          \
    do {                                                                                           \
        for (int i = 0; i < 3; i++) snprintf(v[i], 48, "%llu", (unsigned long long)s[i]->expr);   \
        row(f, label, v[0], v[1], v[2], three);                                                    \
    } while (0)
    ROW(T("peak reserved", "已预留峰值"), peak_reserved);
    ROW(T("peak requested (live)", "已申请峰值（存活）"), peak_requested);
    NROW(T("cudaMalloc + maps", "cudaMalloc + 映射"), device_allocs);
    NROW(T("cudaFree + unmaps", "cudaFree + 解除映射"), device_frees);
    ROW(T("reserved at the end", "结束时已预留"), end_reserved);
    ROW(T("allocated at the end", "结束时已分配"), end_active);
    ROW(T("non-releasable at end", "结束时不可释放"), end_non_releasable);
    NROW(T("segments at the end", "结束时的段数"), end_segments);
#undef ROW
#undef NROW
    snprintf(v[0], 48, "%zu", s[0]->ooms);
    for (int i = 1; i < 3; i++)
        if (r->capacity) snprintf(v[i], 48, "%zu", s[i]->ooms);
        else snprintf(v[i], 48, "%s", T("n/a (no capacity)", "n/a（没给容量）"));
    row(f, T("OOMs", "OOM 次数"), v[0], v[1], v[2], three);
    for (int i = 1; i < 3; i++) {
        if (i == 2 && !three) break;
        if (!r->capacity) continue;
        if (s[i]->ooms) {
            const char *side = i == 1 ? T("model, recorded", "模型，原设置") : T("model, what if", "模型，新设置");
            fprintf(f, T("  %s: first OOM at ", "  %s：第一次 OOM 在"), side);
            if (s[i]->first_oom_event < 0) fputs(T("the blocks live before the trace", "记录开始前就存活的块"), f);
            else fprintf(f, T("entry %lld", "第 %lld 条记录"), (long long)s[i]->first_oom_event);
            fprintf(f, T(": %s\n", "：%s\n"), s[i]->first_oom);
        }
        if (r->recorded.ooms)
            fprintf(f, T("  %s: %zu of the %zu requests PyTorch refused would fit\n",
                         "  %s：PyTorch 拒绝的申请里，有 %zu 次放得下（共 %zu 次）\n"),
                    i == 1 ? T("model, recorded", "模型，原设置") : T("model, what if", "模型，新设置"),
                    s[i]->recorded_ooms_fit, r->recorded.ooms);
    }
    char t[512];
    if (r->ndiffs) {
        fputs(T("  The model differs from the recorded run under the recorded options:\n",
                "  在原设置下，模型与记录里的运行不一致：\n"), f);
        for (size_t i = 0; i < r->ndiffs; i++)
            fprintf(f, "    - %s\n", lt_snap_finding_text(&r->diffs[i], g_zh, t, sizeof t));
    } else {
        fputs(T("  The model agrees with the recorded run under the recorded options.\n",
                "  在原设置下，模型与记录里的运行一致。\n"), f);
    }
    for (size_t i = 0; i < r->nnotes; i++)
        fprintf(f, T("  note: %s\n", "  注：%s\n"), lt_snap_finding_text(&r->notes[i], g_zh, t, sizeof t));
}

/* ---- collapsed stacks (flamegraph.pl, speedscope) ------------------------------------------ */

/* One frame as _memory_viz._frame_fmt writes it, "file.py:12:name" with the file's last path
 * component ('\' or '/'); ';', CR and LF, which the format uses, become ',' and ' '. */
static void collapsed_frame(FILE *f, const struct gpu_snap_frame *fr)
{
    const char *p;
    size_t pn;
    gpu_snap_short_path(fr->file, fr->file_len, 1, &p, &pn);
    char num[32];
    snprintf(num, sizeof num, ":%lld:", (long long)fr->line);
    for (int part = 0; part < 3; part++) {
        const char *t = part == 0 ? p : part == 1 ? num : fr->name;
        size_t n = part == 0 ? pn : part == 1 ? strlen(num) : fr->name_len;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)t[i];
            fputc(c == ';' ? ',' : c == '\n' || c == '\r' || c == 0 ? ' ' : c, f);
        }
    }
}

/* The stack, outermost first, as memory_viz's filter keeps it; "<non-python>" when it has no
 * frames (as _memory_viz does). */
static void collapsed_stack(FILE *f, const struct gpu_snapshot *s, uint32_t stack)
{
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, stack);
    if (!st->n) {
        fputs("<non-python>", f);
        return;
    }
    bool first = true;
    for (uint32_t k = st->n; k-- > 0;) {
        const struct gpu_snap_frame *fr = gpu_snapshot_stack_frame(s, stack, k);
        if (fr->kind == GPU_SNAP_FRAME_BAD || fr->kind == GPU_SNAP_FRAME_HIDDEN) continue;
        if (!first) fputc(';', f);
        collapsed_frame(f, fr);
        first = false;
    }
}

/* --collapsed: at the end, every active_allocated block of the final state as _memory_viz.memory
 * writes it (stream_S;active_allocated;STACK requested, then ;<gaps> size - requested), so the
 * bytes add up to the allocated bytes; at the peak, every allocation live after the device's
 * peak entry (stream_S;STACK requested), adding up to the peak's live bytes. */
static int write_collapsed(FILE *out, const struct gpu_snapshot *s, const struct gpu_snap_summary *sum,
                           bool peak, long device)
{
    for (size_t i = 0; i < sum->ndev; i++) {
        const struct gpu_snap_device *d = &sum->dev[i];
        if (device >= 0 && d->device != device) continue;
        if (peak) {
            if (device < 0 && !d->events) continue; /* the devices with a trace */
            struct gpu_snap_live *lv;
            size_t n;
            if (gpu_snap_live_in(s, d->device, d->peak_event, 0, UINT64_MAX, &lv, &n) != GPU_OK) return 1;
            size_t ne, np;
            const struct gpu_snap_event *ev = gpu_snapshot_trace(s, d->device, &ne);
            const struct gpu_snap_pre *pre = gpu_snap_pre_trace(s, d->device, &np);
            /* the stream: the alloc entry's; for a block live before the trace, the entry that
             * freed it, or its segment's when it is still live */
            size_t nb = 0;
            for (size_t g = 0; g < gpu_snapshot_nsegs(s); g++)
                nb = gpu_snapshot_seg(s, g)->first_block + gpu_snapshot_seg(s, g)->nblocks;
            int64_t *seg_stream = calloc(nb + 1, sizeof *seg_stream);
            if (!seg_stream) {
                free(lv);
                return 1;
            }
            for (size_t g = 0; g < gpu_snapshot_nsegs(s); g++) {
                const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, g);
                for (size_t k = 0; k < sg->nblocks; k++) seg_stream[sg->first_block + k] = sg->stream;
            }
            for (size_t k = 0; k < n; k++) {
                int64_t stream = 0;
                if (lv[k].event >= 0) stream = gpu_snapshot_stream(s, ev[lv[k].event].stream);
                else if (pre[lv[k].pre].block >= 0) stream = seg_stream[pre[lv[k].pre].block];
                else if (pre[lv[k].pre].freed_at >= 0)
                    stream = gpu_snapshot_stream(s, ev[pre[lv[k].pre].freed_at].stream);
                fprintf(out, "stream_%lld;", (long long)stream);
                collapsed_stack(out, s, lv[k].stack);
                fprintf(out, " %llu\n", (unsigned long long)lv[k].size);
            }
            free(seg_stream);
            free(lv);
            continue;
        }
        for (size_t g = 0; g < gpu_snapshot_nsegs(s); g++) {
            const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, g);
            if (sg->device != d->device) continue;
            for (size_t k = 0; k < sg->nblocks; k++) {
                const struct gpu_snap_block *b = gpu_snapshot_block(s, sg->first_block + k);
                if (b->state != GPU_SNAP_ACTIVE_ALLOCATED) continue;
                uint64_t req = b->requested < b->size ? b->requested : b->size;
                fprintf(out, "stream_%lld;active_allocated;", (long long)sg->stream);
                collapsed_stack(out, s, b->stack);
                fprintf(out, " %llu\n", (unsigned long long)req);
                if (b->size > req)
                    fprintf(out, "stream_%lld;active_allocated;<gaps> %llu\n", (long long)sg->stream,
                            (unsigned long long)(b->size - req));
            }
        }
    }
    return 0;
}

/* ---- segments one by one (_memory_viz.segsum) ------------------------------------------------ */

#define SEGSUM_PAGE (20ull << 20)
#define SEGSUM_MAP_MAX 200 /* pages drawn; a longer segment ends in "..." */

struct segsum {
    uint64_t allocated, internal, external; /* requested bytes of active_allocated blocks; their
                                               rounding; free (inactive and pending) */
    char map[SEGSUM_MAP_MAX + 4];
};

/* _memory_viz.segsum's picture of one segment, one character per 20 MiB page: a-z a page filled
 * by one block's allocation, 0-9 and * a page shared by several (tenths full), ' ' empty. */
static void segsum_of(const struct gpu_snapshot *s, const struct gpu_snap_segment *sg, struct segsum *o)
{
    memset(o, 0, sizeof *o);
    size_t np = (size_t)((sg->size + SEGSUM_PAGE - 1) / SEGSUM_PAGE), shown = np;
    if (shown > SEGSUM_MAP_MAX) shown = SEGSUM_MAP_MAX;
    double frac[SEGSUM_MAP_MAX] = {0};
    for (size_t p = 0; p < shown; p++) o->map[p] = ' ';
    uint64_t off = 0;
    int nth = 0;
    for (size_t k = 0; k < sg->nblocks; k++) {
        const struct gpu_snap_block *b = gpu_snapshot_block(s, sg->first_block + k);
        if (b->state == GPU_SNAP_ACTIVE_ALLOCATED) {
            uint64_t req = b->requested < b->size ? b->requested : b->size;
            o->allocated += req;
            o->internal += b->size - req;
            char m = (char)('a' + nth++ % 26);
            /* pages floor(off / P) .. ceil((off + req) / P): an empty allocation inside a page
             * marks it, as in segsum */
            for (uint64_t p = off / SEGSUM_PAGE; p < (off + req + SEGSUM_PAGE - 1) / SEGSUM_PAGE && p < shown; p++) {
                uint64_t a = off > p * SEGSUM_PAGE ? off : p * SEGSUM_PAGE;
                uint64_t e = off + req < (p + 1) * SEGSUM_PAGE ? off + req : (p + 1) * SEGSUM_PAGE;
                frac[p] += (double)(e - a) / (double)SEGSUM_PAGE;
                if (o->map[p] != ' ') o->map[p] = "0123456789*"[(int)(frac[p] * 10) > 10 ? 10 : (int)(frac[p] * 10)];
                else o->map[p] = m;
            }
        } else {
            o->external += b->size;
        }
        off += b->size;
    }
    if (np > shown) strcpy(o->map + shown, "...");
}

static void text_segments(FILE *f, const struct gpu_snapshot *s, int device)
{
    char b1[32], b2[32], b3[32];
    fprintf(f, T("  segments one by one (each character a 20 MiB page: a-z one allocation, 0-9 "
                 "and * several (tenths full), space free):\n",
                 "  逐个段（每个字符一页 20 MiB：a-z 一个分配，0-9 和 * 几个分配（满了几成），空格是空闲）：\n"));
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, i);
        if (sg->device != device) continue;
        struct segsum m;
        segsum_of(s, sg, &m);
        uint64_t fr = m.internal + m.external;
        fprintf(f, "    0x%llx %s %10s [%s] ", (unsigned long long)sg->addr,
                sg->small ? T("small", "小") : T("large", "大"), B(sg->size, b1, sizeof b1), m.map);
        fprintf(f, T("%s allocated, %s free", "已分配 %s，空闲 %s"), B(m.allocated, b2, sizeof b2),
                B(fr, b3, sizeof b3));
        if (fr) fprintf(f, T(" (%.1f%% internal)", "（%.1f%% 内部）"), 100.0 * (double)m.internal / (double)fr);
        if (sg->expandable) fputs(T(", expandable", "，可扩展"), f);
        if (sg->pool[0] || sg->pool[1])
            fprintf(f, T(", pool (%lld, %lld)", "，私有池 (%lld, %lld)"), (long long)sg->pool[0], (long long)sg->pool[1]);
        if (sg->stream) fprintf(f, ", stream_%lld", (long long)sg->stream);
        fputc('\n', f);
    }
}

static void json_segments(struct tui_json *j, const struct gpu_snapshot *s, int device)
{
    tui_json_key(j, "segment_list");
    tui_json_arr(j);
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, i);
        if (sg->device != device) continue;
        struct segsum m;
        segsum_of(s, sg, &m);
        tui_json_obj(j);
        tui_json_kuint(j, "address", sg->addr);
        tui_json_kuint(j, "total_size", sg->size);
        tui_json_kstr(j, "segment_type", sg->small ? "small" : "large");
        tui_json_kbool(j, "is_expandable", sg->expandable);
        tui_json_kint(j, "stream", sg->stream);
        tui_json_key(j, "segment_pool_id");
        tui_json_arr(j);
        tui_json_int(j, sg->pool[0]);
        tui_json_int(j, sg->pool[1]);
        tui_json_end(j);
        tui_json_kuint(j, "blocks", sg->nblocks);
        tui_json_kuint(j, "allocated_bytes", m.allocated);
        tui_json_kuint(j, "free_internal_bytes", m.internal);
        tui_json_kuint(j, "free_external_bytes", m.external);
        tui_json_kuint(j, "releasable_bytes", gpu_snap_seg_releasable(s, i));
        tui_json_kstr(j, "pages", m.map);
        tui_json_end(j);
    }
    tui_json_end(j);
}

/* external_annotations of one device, as recorded */
static void json_annotations(struct tui_json *j, const struct gpu_snapshot *s, int device)
{
    tui_json_key(j, "annotations");
    tui_json_arr(j);
    for (size_t i = 0; i < gpu_snapshot_nannotations(s); i++) {
        const struct gpu_snap_annotation *a = gpu_snapshot_annotation(s, i);
        if (a->device != device) continue;
        tui_json_obj(j);
        tui_json_key(j, "name");
        tui_json_strn(j, a->name, a->name_len);
        tui_json_kstr(j, "stage", a->start ? "START" : "END");
        jmaybe(j, "time_us", a->has_time, a->time_us);
        tui_json_end(j);
    }
    tui_json_end(j);
}

/* ---- the command ------------------------------------------------------------------------------ */

/* A whole number in [0, max] for an option: false after saying so on errf. */
static bool whole(const char *opt, const char *v, long max, long *out, FILE *errf)
{
    uint64_t u;
    char err[160];
    if (gpu_parse_u64(v, 0, (uint64_t)max, &u, err, sizeof err)) {
        *out = (long)u;
        return true;
    }
    fprintf(errf, "vramlab: snapshot: --%s needs a whole number 0..%ld, not '%s'\n", opt, max, v);
    return false;
}

int tui_snapshot_cmd(const struct tui_snapshot_args *a, FILE *out, FILE *errf)
{
    const char *file = a->file, *conf = a->conf;
    uint64_t capacity = 0;
    g_zh = a->zh;
    g_segments = a->segments;
    bool peak = a->at && !strcmp(a->at, "peak");
    if (a->at && !peak && strcmp(a->at, "end")) {
        fprintf(errf, "vramlab: snapshot: --at is peak or end, not '%s'\n", a->at);
        return 2;
    }
    if ((a->at && !a->collapsed) || (a->collapsed && (a->json || a->conf || a->capacity || a->segments))) {
        fprintf(errf, "vramlab: snapshot: --collapsed writes stacks alone (with --at and --device); "
                      "--at goes with it\n");
        return 2;
    }
    long device = -1, top = DEFAULT_TOP;
    /* any of the what-if options asks for the replay */
    bool replay = a->conf || a->capacity || a->device, json = a->json;
    char perr[256];
    if (a->capacity && !gpu_parse_size(a->capacity, 1, MAX_CAPACITY, &capacity, perr, sizeof perr)) {
        fprintf(errf, "vramlab: snapshot: --capacity: %s\n", perr);
        return 2;
    }
    if (a->device && !whole("device", a->device, 4095, &device, errf)) return 2;
    if (a->top && !whole("top", a->top, 100000, &top, errf)) return 2;
    struct gpu_caching_opts whatif;
    char err[1024];
    struct gpu_snapshot *s;
    double t0 = gpu_now();
    if (gpu_snapshot_load(file, NULL, &s, err, sizeof err) != GPU_OK) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    if (conf) { /* the options named change; the others stay as recorded */
        gpu_snapshot_recorded_opts(s, &whatif);
        if (gpu_caching_parse_conf(conf, &whatif, err, sizeof err) != GPU_OK) {
            fprintf(errf, "vramlab: snapshot: --replay '%s': %s\n", conf, err);
            gpu_snapshot_free(s);
            return 2;
        }
    }
    struct gpu_snap_summary sum;
    if (gpu_snapshot_summarize(s, (size_t)top, NULL, &sum, err, sizeof err) != GPU_OK) {
        fprintf(errf, "%s: %s\n", file, err);
        gpu_snapshot_free(s);
        return 1;
    }
    double t1 = gpu_now();
    struct gpu_snap_replay *r = NULL;
    int rc = 0;
    if (a->collapsed) {
        rc = write_collapsed(out, s, &sum, peak, device);
        if (rc) fprintf(errf, "%s: %s\n", file, gpu_status_str(GPU_ERR_HOST_NOMEM));
        gpu_snap_summary_free(&sum);
        gpu_snapshot_free(s);
        return rc;
    }
    if (replay) {
        if (device < 0) /* the first device with a trace */
            for (size_t i = 0; i < sum.ndev && device < 0; i++)
                if (sum.dev[i].events) device = sum.dev[i].device;
        if (device < 0) device = sum.ndev ? sum.dev[0].device : 0;
        r = calloc(1, sizeof *r);
        if (!r || gpu_snapshot_replay(s, (int)device, capacity, conf ? &whatif : NULL, NULL, NULL, r,
                                      err, sizeof err) != GPU_OK) {
            fprintf(errf, "%s: %s\n", file, r ? err : "out of host memory");
            free(r);
            r = NULL;
            rc = 1;
        }
    }
    double t2 = gpu_now();
    if (rc == 0 && json) {
        struct tui_json j;
        tui_json_init_ascii(&j, out); /* as Python's json.dumps writes it */
        tui_json_obj(&j);
        tui_json_kstr(&j, "file", file);
        tui_json_kstr(&j, "units", "bytes");
        tui_json_kstr(&j, "source", "recorded by PyTorch (not measured by vramlab)");
        tui_json_key(&j, "pickle");
        tui_json_obj(&j);
        tui_json_kuint(&j, "bytes", gpu_snapshot_file_bytes(s));
        tui_json_kint(&j, "protocol", gpu_snapshot_protocol(s));
        tui_json_end(&j);
        json_settings(&j, s);
        tui_json_kuint(&j, "legacy_history_blocks", gpu_snapshot_legacy_blocks(s));
        tui_json_key(&j, "devices");
        tui_json_arr(&j);
        for (size_t i = 0; i < sum.ndev; i++) json_device(&j, s, &sum.dev[i]);
        tui_json_end(&j);
        if (r) json_replay(&j, r);
        tui_json_end(&j);
    } else if (rc == 0) {
        fputs(T("PyTorch memory snapshot ", "PyTorch 显存快照 "), out);
        put_safe(out, file, strlen(file), 300);
        fputs(T(" (recorded by PyTorch, not measured by vramlab; GiB = 2^30 B, MiB = 2^20 B)\n",
                "（由 PyTorch 记录，不是 vramlab 测的；GiB = 2^30 B，MiB = 2^20 B）\n"), out);
        label(out, "file", "文件");
        fprintf(out, T("%zu bytes, pickle protocol %d; read and summarised in %.1f ms",
                       "%zu 字节，pickle 协议 %d；读取并汇总用了 %.1f ms"),
                gpu_snapshot_file_bytes(s), gpu_snapshot_protocol(s), (t1 - t0) * 1e3);
        if (r) fprintf(out, T(", replayed in %.1f ms", "，回放用了 %.1f ms"), (t2 - t1) * 1e3);
        fputc('\n', out);
        text_settings(out, s);
        if (gpu_snapshot_legacy_blocks(s)) {
            label(out, "format", "格式");
            fprintf(out, T("%zu blocks in the older format (history, no frames)\n",
                           "%zu 个块是旧格式（history，没有调用栈）\n"), gpu_snapshot_legacy_blocks(s));
        }
        if (!sum.ndev) fputs(T("No segments and no trace: nothing was allocated.\n", "没有段也没有记录：什么都没分配。\n"), out);
        for (size_t i = 0; i < sum.ndev; i++) text_device(out, s, &sum.dev[i], true);
        if (r) text_replay(out, r);
    }
    free(r);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
    return rc;
}

/* ---- two snapshots ---------------------------------------------------------------------------- */

static void json_diff_groups(struct tui_json *j, const char *key, const struct gpu_snapshot *s,
                             const struct gpu_snap_group *g, size_t n)
{
    tui_json_key(j, key);
    tui_json_arr(j);
    for (size_t i = 0; i < n; i++) {
        tui_json_obj(j);
        json_group(j, &g[i]);
        tui_json_kuint(j, "bytes", g[i].bytes);
        tui_json_kuint(j, "count", g[i].count);
        json_stack(j, s, g[i].stack);
        tui_json_end(j);
    }
    tui_json_end(j);
}

static void json_pair(struct tui_json *j, const char *key, const uint64_t v[2])
{
    tui_json_key(j, key);
    tui_json_obj(j);
    tui_json_kuint(j, "a", v[0]);
    tui_json_kuint(j, "b", v[1]);
    tui_json_kint(j, "delta", (int64_t)v[1] - (int64_t)v[0]);
    tui_json_end(j);
}

static void json_only(struct tui_json *j, const char *key, const struct gpu_snap_seg_ref *v, size_t n)
{
    tui_json_key(j, key);
    tui_json_arr(j);
    for (size_t i = 0; i < n; i++) {
        tui_json_obj(j);
        tui_json_kuint(j, "address", v[i].addr);
        tui_json_kuint(j, "total_size", v[i].size);
        tui_json_end(j);
    }
    tui_json_end(j);
}

static void text_delta(FILE *f, const char *en, const char *zh, const uint64_t v[2])
{
    char x[32], y[32], z[32];
    label(f, en, zh);
    int64_t d = (int64_t)v[1] - (int64_t)v[0];
    fprintf(f, "%s -> %s (%s%s)\n", B(v[0], x, sizeof x), B(v[1], y, sizeof y), d >= 0 ? "+" : "",
            SB(d, z, sizeof z));
}

static void text_diff_groups(FILE *f, const struct gpu_snapshot *s, const struct gpu_snap_group *g,
                             size_t n)
{
    char b1[32];
    for (size_t i = 0; i < n; i++) {
        const char *w;
        size_t wn;
        short_where(&g[i], &w, &wn);
        fprintf(f, "    %11s %6llu  ", B(g[i].bytes, b1, sizeof b1), (unsigned long long)g[i].count);
        put_where(f, &g[i], w, wn, 120);
        if (g[i].function_len) fputc(' ', f), put_safe(f, g[i].function, g[i].function_len, 80);
        fputc('\n', f);
        text_stack(f, s, g[i].stack, "                         ");
    }
}

int tui_snapshot_diff_cmd(const struct tui_snapshot_args *a, FILE *out, FILE *errf)
{
    g_zh = a->zh;
    long top = DEFAULT_TOP;
    if (a->top && !whole("top", a->top, 100000, &top, errf)) return 2;
    if (!strcmp(a->file, "-") && !strcmp(a->other, "-")) {
        fprintf(errf, "vramlab: snapshot diff: standard input can be one of the two, not both\n");
        return 2;
    }
    char err[1024];
    struct gpu_snapshot *sa = NULL, *sb = NULL;
    if (gpu_snapshot_load(a->file, NULL, &sa, err, sizeof err) != GPU_OK ||
        gpu_snapshot_load(a->other, NULL, &sb, err, sizeof err) != GPU_OK) {
        fprintf(errf, "%s\n", err);
        gpu_snapshot_free(sa);
        return 1;
    }
    struct gpu_snap_diff d;
    if (gpu_snapshot_diff(sa, sb, (size_t)top, &d, err, sizeof err) != GPU_OK) {
        fprintf(errf, "vramlab: snapshot diff: %s\n", err);
        gpu_snapshot_free(sa);
        gpu_snapshot_free(sb);
        return 1;
    }
    if (a->json) {
        struct tui_json j;
        tui_json_init_ascii(&j, out);
        tui_json_obj(&j);
        tui_json_kstr(&j, "a", a->file);
        tui_json_kstr(&j, "b", a->other);
        tui_json_kstr(&j, "units", "bytes");
        tui_json_kstr(&j, "source", "recorded by PyTorch (not measured by vramlab)");
        tui_json_key(&j, "devices");
        tui_json_arr(&j);
        for (size_t i = 0; i < d.ndev; i++) {
            const struct gpu_snap_diff_dev *o = &d.dev[i];
            tui_json_obj(&j);
            tui_json_kint(&j, "device", o->device);
            json_pair(&j, "segments", o->nsegs);
            json_pair(&j, "reserved_bytes", o->reserved);
            json_pair(&j, "allocated_bytes", o->allocated);
            json_pair(&j, "requested_bytes", o->requested);
            json_pair(&j, "cached_bytes", o->cached);
            json_only(&j, "segments_only_in_a", o->only[0], o->nonly[0]);
            json_only(&j, "segments_only_in_b", o->only[1], o->nonly[1]);
            tui_json_kuint(&j, "only_in_a_bytes", o->only_bytes[0]);
            tui_json_kuint(&j, "only_in_b_bytes", o->only_bytes[1]);
            tui_json_kuint(&j, "live_only_in_a_bytes", o->gone_bytes);
            tui_json_kuint(&j, "live_only_in_b_bytes", o->grown_bytes);
            json_diff_groups(&j, "live_only_in_a", sa, o->gone, o->ngone);
            json_diff_groups(&j, "live_only_in_b", sb, o->grown, o->ngrown);
            tui_json_end(&j);
        }
        tui_json_end(&j);
        tui_json_end(&j);
    } else {
        fputs(T("PyTorch memory snapshots compared (recorded by PyTorch, not measured by vramlab; "
                "GiB = 2^30 B, MiB = 2^20 B)\n  A  ",
                "两个 PyTorch 显存快照的比较（由 PyTorch 记录，不是 vramlab 测的；GiB = 2^30 B，MiB = 2^20 B）\n  A  "),
              out);
        put_safe(out, a->file, strlen(a->file), 300);
        fputs("\n  B  ", out);
        put_safe(out, a->other, strlen(a->other), 300);
        fputc('\n', out);
        char b1[32], b2[32];
        for (size_t i = 0; i < d.ndev; i++) {
            const struct gpu_snap_diff_dev *o = &d.dev[i];
            fprintf(out, T("Device %d\n", "设备 %d\n"), o->device);
            text_delta(out, "reserved", "已预留", o->reserved);
            text_delta(out, "allocated", "已分配", o->allocated);
            text_delta(out, "requested", "已申请", o->requested);
            text_delta(out, "cached", "缓存", o->cached);
            label(out, "segments", "段");
            fprintf(out, T("%llu -> %llu: %zu only in A (%s), %zu only in B (%s)\n",
                           "%llu -> %llu：只在 A 里 %zu 个（%s），只在 B 里 %zu 个（%s）\n"),
                    (unsigned long long)o->nsegs[0], (unsigned long long)o->nsegs[1], o->nonly[0],
                    B(o->only_bytes[0], b1, sizeof b1), o->nonly[1], B(o->only_bytes[1], b2, sizeof b2));
            fprintf(out, T("  live only in B (what grew): %s, by first user frame, each with the "
                           "stack of its largest:\n",
                           "  只在 B 里存活的（增长的部分）：%s，按第一个用户代码帧分组，附最大那个的调用栈：\n"),
                    B(o->grown_bytes, b1, sizeof b1));
            text_diff_groups(out, sb, o->grown, o->ngrown);
            fprintf(out, T("  live only in A (freed since): %s\n", "  只在 A 里存活的（之后释放了）：%s\n"),
                    B(o->gone_bytes, b1, sizeof b1));
            text_diff_groups(out, sa, o->gone, o->ngone);
        }
    }
    gpu_snap_diff_free(&d);
    gpu_snapshot_free(sa);
    gpu_snapshot_free(sb);
    return 0;
}
