/* tui_snapshot.c - see tui_snapshot.h. Text for people (sizes in GiB/MiB = 2^30/2^20 B, times
 * relative to the first trace entry) and JSON for tools (every size in bytes, names as in the
 * docs). Strings from the file (frame file names, function names, the recorded options) are
 * written through put_safe/put_json, never raw: a snapshot is untrusted input. */
#include "tui_snapshot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_snapshot.h"

#define DEFAULT_TOP 10
#define MAX_CAPACITY (1ull << 42)

/* ---- output helpers --------------------------------------------------------------------- */

static void fmt_bytes(uint64_t b, char *o, size_t n)
{
    if (b < 1024) snprintf(o, n, "%llu B", (unsigned long long)b);
    else if (b < (1ull << 20)) snprintf(o, n, "%.2f KiB", b / 1024.0);
    else if (b < (1ull << 30)) snprintf(o, n, "%.2f MiB", b / 1048576.0);
    else snprintf(o, n, "%.2f GiB", b / 1073741824.0);
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

/* Text from the file for a terminal: control characters (C0, DEL, C1) become \xNN, and very
 * long text is cut at a character boundary. The bytes are valid UTF-8 (the reader checks). */
static void put_safe(FILE *f, const char *s, size_t n, size_t max)
{
    size_t i = 0;
    while (i < n) {
        if (i >= max) {
            fputs("...", f);
            return;
        }
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\x%02x", c);
            i++;
        } else if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
                   (unsigned char)s[i + 1] <= 0x9f) {
            fprintf(f, "\\u%04x", (unsigned char)s[i + 1]);
            i += 2;
        } else {
            size_t k = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
            if (i + k > n) k = n - i;
            fwrite(s + i, 1, k, f);
            i += k;
        }
    }
}

/* A JSON string, ASCII only (as Python's json.dumps writes them): everything beyond ASCII is a
 * \u escape, lone surrogates included, so the output is valid whatever the file held. */
static void put_json(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
            else if (c < 0x20 || c == 0x7f) fprintf(f, "\\u%04x", c);
            else fputc(c, f);
            i++;
            continue;
        }
        int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
        uint32_t cp = c & (k == 3 ? 0x07 : k == 2 ? 0x0f : 0x1f);
        for (int j = 1; j <= k && i + (size_t)j < n; j++) cp = cp << 6 | ((unsigned char)s[i + (size_t)j] & 0x3f);
        i += (size_t)k + 1;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            fprintf(f, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
        } else {
            fprintf(f, "\\u%04x", cp);
        }
    }
    fputc('"', f);
}

static void put_jstr(FILE *f, const char *s) { put_json(f, s, strlen(s)); }

static void put_i64(FILE *f, bool known, int64_t v)
{
    if (known) fprintf(f, "%lld", (long long)v);
    else fputs("null", f);
}

/* "/home/a/proj/model.py:12" -> "proj/model.py:12" (the text view; JSON keeps the path) */
static void short_where(const struct gpu_snap_group *g, const char **s, size_t *n)
{
    *s = g->where;
    *n = g->where_len;
    if (!g->where_len || g->where[0] == '<') return;
    int slashes = 0;
    for (size_t i = g->where_len; i-- > 0;)
        if (g->where[i] == '/' && ++slashes == 2) {
            *s = g->where + i + 1;
            *n = g->where_len - i - 1;
            return;
        }
}

static void put_rel_time(FILE *f, const struct gpu_snap_device *d, bool has, int64_t t)
{
    if (!has || !d->has_times) {
        fputs("(no time)", f);
        return;
    }
    double ms = (double)(t - d->first_time) / 1e3;
    if (fabs(ms) < 1e4) fprintf(f, "%.1f ms after the first entry", ms);
    else fprintf(f, "%.2f s after the first entry", ms / 1e3);
}

/* ---- the summary as text ------------------------------------------------------------------- */

static void text_settings(FILE *f, const struct gpu_snapshot *s)
{
    const struct gpu_snap_settings *st = &s->settings;
    char b[32];
    fputs("  options     ", f);
    if (!st->present) {
        fputs("not recorded (no allocator_settings: PyTorch before 2.2)\n", f);
        return;
    }
    fputs("PYTORCH_CUDA_ALLOC_CONF=\"", f);
    if (st->conf) put_safe(f, st->conf, st->conf_len, 200);
    fprintf(f, "\"; expandable_segments %s, max_split_size %s",
            st->expandable < 0 ? "n/a" : st->expandable ? "True" : "False",
            st->max_split_size ? B(st->max_split_size, b, sizeof b) : "unlimited");
    if (st->has_gc) fprintf(f, ", garbage_collection_threshold %g", st->gc_threshold);
    fputc('\n', f);
}

static void text_device(FILE *f, const struct gpu_snapshot *s, const struct gpu_snap_device *d)
{
    char b1[32], b2[32], b3[32], b4[32];
    fprintf(f, "Device %d\n", d->device);
    fprintf(f, "  reserved    %s in %llu segments (%llu large, %llu small", B(d->reserved, b1, sizeof b1),
            (unsigned long long)d->nsegs, (unsigned long long)d->nlarge,
            (unsigned long long)d->nsmall);
    if (d->nexpandable) fprintf(f, "; %llu expandable", (unsigned long long)d->nexpandable);
    fputs(")\n", f);
    fputs("  blocks     ", f);
    for (int i = 0; i < GPU_SNAP_NSTATES; i++)
        fprintf(f, "%s %s %llu = %s", i ? "," : "", gpu_snap_state_names[i],
                (unsigned long long)d->blocks[i].count, B(d->blocks[i].bytes, b1, sizeof b1));
    fputc('\n', f);
    const struct gpu_snap_count *a = &d->blocks[GPU_SNAP_ACTIVE_ALLOCATED];
    fprintf(f, "  allocated   %s in blocks for %s requested: %s lost to rounding (internal "
               "fragmentation)\n", B(a->bytes, b1, sizeof b1), B(a->requested, b2, sizeof b2),
            SB((int64_t)a->bytes - (int64_t)a->requested, b3, sizeof b3));
    fprintf(f, "  cached      %s free in segments: %s releasable by empty_cache, %s not (beside "
               "live blocks: external fragmentation); largest free block %s\n",
            B(d->blocks[GPU_SNAP_INACTIVE].bytes, b1, sizeof b1), B(d->releasable, b2, sizeof b2),
            B(d->non_releasable, b3, sizeof b3), B(d->largest_free, b4, sizeof b4));
    if (!d->events) {
        fputs("  trace       none (record with torch.cuda.memory._record_memory_history())\n", f);
        return;
    }
    fprintf(f, "  trace       %zu entries", d->events);
    if (d->has_times) {
        double span = (double)(d->last_time - d->first_time) / 1e3;
        if (span < 1e4) fprintf(f, " over %.1f ms", span);
        else fprintf(f, " over %.2f s", span / 1e3);
    }
    fprintf(f, " on %zu stream%s:", d->streams, d->streams == 1 ? "" : "s");
    bool first = true;
    for (int i = 0; i < GPU_SNAP_NACTIONS; i++)
        if (d->actions[i]) {
            fprintf(f, "%s %s %zu", first ? "" : ",", gpu_snap_action_names[i], d->actions[i]);
            first = false;
        }
    fputc('\n', f);
    fprintf(f, "  peak        %s live (requested bytes) ", SB(d->peak_bytes, b1, sizeof b1));
    if (d->peak_event < 0) fputs("before the first entry", f);
    else {
        int64_t t = 0;
        bool has = gpu_snapshot_event_time(s, d->device, d->peak_event, &t);
        fprintf(f, "after entry %lld, ", (long long)d->peak_event);
        put_rel_time(f, d, has, t);
    }
    fprintf(f, "; %s live before the trace (%zu blocks), %s at its end\n",
            SB(d->start_bytes, b1, sizeof b1), d->pre_trace_blocks, SB(d->end_bytes, b2, sizeof b2));
    if ((uint64_t)d->end_bytes != d->snapshot_active_requested || d->end_bytes < 0)
        fprintf(f, "              (the trace ends with %s live but the segments hold %s active: "
                   "the two disagree)\n", SB(d->end_bytes, b1, sizeof b1),
                B(d->snapshot_active_requested, b2, sizeof b2));
    fprintf(f, "  reserved    peak %s ", SB(d->reserved_peak, b1, sizeof b1));
    if (d->reserved_peak_event < 0) fputs("before the first entry", f);
    else {
        int64_t t = 0;
        bool has = gpu_snapshot_event_time(s, d->device, d->reserved_peak_event, &t);
        fprintf(f, "after entry %lld, ", (long long)d->reserved_peak_event);
        put_rel_time(f, d, has, t);
    }
    fprintf(f, "; %s before the trace (the final segments, back through segment_* entries)\n",
            SB(d->reserved_start, b2, sizeof b2));
    if (d->ntop) fputs("  live at the peak, by first user frame (largest first):\n", f);
    for (size_t i = 0; i < d->ntop; i++) {
        const struct gpu_snap_group *g = &d->top[i];
        const char *w;
        size_t wn;
        short_where(g, &w, &wn);
        fprintf(f, "    %11s %6llu  ", B(g->bytes, b1, sizeof b1), (unsigned long long)g->count);
        put_safe(f, w, wn, 120);
        if (g->function_len) fputc(' ', f), put_safe(f, g->function, g->function_len, 80);
        fputc('\n', f);
    }
    for (size_t i = 0; i < d->nooms && i < 10; i++) {
        const struct gpu_snap_oom *m = &d->ooms[i];
        fprintf(f, "  OOM         entry %zu, ", m->event);
        put_rel_time(f, d, m->has_time, m->time_us);
        fprintf(f, ": asked for %s (rounded); CUDA reported %s free; the allocator held %s "
                   "reserved, %s of it requested by live tensors\n",
                B(m->size, b1, sizeof b1), m->has_free ? B(m->device_free, b2, sizeof b2) : "n/a",
                SB(m->reserved, b3, sizeof b3), SB(m->live_requested, b4, sizeof b4));
        fputs("              at ", f);
        put_safe(f, m->where.where, m->where.where_len, 160);
        if (m->where.function_len) fputc(' ', f), put_safe(f, m->where.function, m->where.function_len, 80);
        fputc('\n', f);
        if (m->has_free && m->reserved >= 0)
            fprintf(f, "              reserved + free = %s: what this process could have held "
                       "(try --capacity with it)\n",
                    B((uint64_t)m->reserved + m->device_free, b1, sizeof b1));
    }
    if (d->nooms > 10) fprintf(f, "  OOM         ... %zu in all\n", d->nooms);
}

/* ---- the summary as JSON (the keys of tests/snapshot/summary_ref.py) ------------------------ */

static void json_count(FILE *f, const char *k, const struct gpu_snap_count *c, bool comma)
{
    fprintf(f, "%s\"%s\":{\"count\":%llu,\"bytes\":%llu,\"requested_bytes\":%llu}", comma ? "," : "",
            k, (unsigned long long)c->count, (unsigned long long)c->bytes,
            (unsigned long long)c->requested);
}

static void json_settings(FILE *f, const struct gpu_snapshot *s)
{
    const struct gpu_snap_settings *st = &s->settings;
    fputs("\"allocator_settings\":", f);
    if (!st->present) {
        fputs("null", f);
        return;
    }
    fputs("{\"PYTORCH_CUDA_ALLOC_CONF\":", f);
    if (st->conf) put_json(f, st->conf, st->conf_len);
    else fputs("null", f);
    fputs(",\"max_split_size\":", f);
    put_i64(f, st->max_split_size > 0, (int64_t)st->max_split_size);
    fputs(",\"expandable_segments\":", f);
    fputs(st->expandable < 0 ? "null" : st->expandable ? "true" : "false", f);
    fputs(",\"garbage_collection_threshold\":", f);
    if (st->has_gc && isfinite(st->gc_threshold)) {
        char num[40]; /* a float stays a float: 0.0, not 0 */
        snprintf(num, sizeof num, "%.17g", st->gc_threshold);
        fputs(num, f);
        if (!strpbrk(num, ".e")) fputs(".0", f);
    }
    else fputs("null", f);
    fputs(",\"roundup_power2_divisions\":", f);
    if (!st->has_roundup) fputs("null", f);
    else {
        fputc('[', f);
        for (size_t i = 0; i < st->nroundup; i++) {
            if (i) fputc(',', f);
            put_i64(f, st->roundup_ok[i], st->roundup[i]);
        }
        fputc(']', f);
    }
    fputc('}', f);
}

static void json_group(FILE *f, const struct gpu_snap_group *g)
{
    fputs("\"where\":", f);
    put_json(f, g->where, g->where_len);
    fputs(",\"function\":", f);
    put_json(f, g->function, g->function_len);
}

static void json_device(FILE *f, const struct gpu_snapshot *s, const struct gpu_snap_device *d)
{
    int64_t t;
    fprintf(f, "{\"device\":%d,\"segments\":{\"count\":%llu,\"large\":%llu,\"small\":%llu,"
               "\"expandable\":%llu,\"reserved_bytes\":%llu},\"blocks\":{",
            d->device, (unsigned long long)d->nsegs, (unsigned long long)d->nlarge,
            (unsigned long long)d->nsmall, (unsigned long long)d->nexpandable,
            (unsigned long long)d->reserved);
    for (int i = 0; i < GPU_SNAP_NSTATES; i++) json_count(f, gpu_snap_state_names[i], &d->blocks[i], i);
    const struct gpu_snap_count *a = &d->blocks[GPU_SNAP_ACTIVE_ALLOCATED];
    fprintf(f, "},\"allocated_bytes\":%llu,\"requested_bytes\":%llu,"
               "\"internal_fragmentation_bytes\":%lld,\"cached_bytes\":%llu,"
               "\"releasable_bytes\":%llu,\"non_releasable_bytes\":%llu,"
               "\"largest_free_block_bytes\":%llu,\"trace\":{\"events\":%zu,\"actions\":{",
            (unsigned long long)a->bytes, (unsigned long long)a->requested,
            (long long)((int64_t)a->bytes - (int64_t)a->requested), /* < 0 if the file says so */
            (unsigned long long)d->blocks[GPU_SNAP_INACTIVE].bytes,
            (unsigned long long)d->releasable, (unsigned long long)d->non_releasable,
            (unsigned long long)d->largest_free, d->events);
    for (int i = 0; i < GPU_SNAP_NACTIONS; i++)
        fprintf(f, "%s\"%s\":%zu", i ? "," : "", gpu_snap_action_names[i], d->actions[i]);
    fprintf(f, "},\"streams\":%zu,\"first_time_us\":", d->streams);
    put_i64(f, d->has_times, d->first_time);
    fputs(",\"last_time_us\":", f);
    put_i64(f, d->has_times, d->last_time);
    fprintf(f, "},\"timeline\":{\"start_bytes\":%lld,\"pre_trace_blocks\":%zu,\"end_bytes\":%lld,"
               "\"snapshot_active_requested_bytes\":%llu,\"peak_bytes\":%lld,\"peak_event\":",
            (long long)d->start_bytes, d->pre_trace_blocks, (long long)d->end_bytes,
            (unsigned long long)d->snapshot_active_requested, (long long)d->peak_bytes);
    put_i64(f, d->peak_event >= 0, d->peak_event);
    fputs(",\"peak_time_us\":", f);
    bool has = gpu_snapshot_event_time(s, d->device, d->peak_event, &t);
    put_i64(f, has, t);
    fprintf(f, ",\"reserved_start_bytes\":%lld,\"reserved_end_bytes\":%lld,"
               "\"reserved_peak_bytes\":%lld,\"reserved_peak_event\":",
            (long long)d->reserved_start, (long long)d->reserved_end, (long long)d->reserved_peak);
    put_i64(f, d->reserved_peak_event >= 0, d->reserved_peak_event);
    fputs(",\"reserved_peak_time_us\":", f);
    has = gpu_snapshot_event_time(s, d->device, d->reserved_peak_event, &t);
    put_i64(f, has, t);
    fputs("},\"top_at_peak\":[", f);
    for (size_t i = 0; i < d->ntop; i++) {
        fputs(i ? ",{" : "{", f);
        json_group(f, &d->top[i]);
        fprintf(f, ",\"bytes\":%llu,\"count\":%llu}", (unsigned long long)d->top[i].bytes,
                (unsigned long long)d->top[i].count);
    }
    fputs("],\"ooms\":[", f);
    for (size_t i = 0; i < d->nooms; i++) {
        const struct gpu_snap_oom *m = &d->ooms[i];
        fprintf(f, "%s{\"event\":%zu,\"time_us\":", i ? "," : "", m->event);
        put_i64(f, m->has_time, m->time_us);
        fprintf(f, ",\"size\":%llu,\"device_free\":", (unsigned long long)m->size);
        put_i64(f, m->has_free, (int64_t)m->device_free);
        fprintf(f, ",\"stream\":%lld,\"live_requested_bytes\":%lld,\"reserved_bytes\":%lld,",
                (long long)m->stream, (long long)m->live_requested, (long long)m->reserved);
        json_group(f, &m->where);
        fputc('}', f);
    }
    fputs("]}", f);
}

/* ---- the replay ------------------------------------------------------------------------------ */

static void json_side(FILE *f, const char *name, const char *conf, const struct gpu_snap_side *s,
                      bool model)
{
    fprintf(f, "{\"name\":\"%s\",\"options\":", name);
    put_jstr(f, conf);
    fprintf(f, ",\"peak_reserved_bytes\":%llu,\"peak_requested_bytes\":%llu,"
               "\"device_allocs\":%llu,\"device_frees\":%llu,\"end_reserved_bytes\":%llu,"
               "\"end_active_bytes\":%llu,\"end_non_releasable_bytes\":%llu,"
               "\"end_segments\":%llu,\"ooms\":%zu,\"first_oom_event\":",
            (unsigned long long)s->peak_reserved, (unsigned long long)s->peak_requested,
            (unsigned long long)s->device_allocs, (unsigned long long)s->device_frees,
            (unsigned long long)s->end_reserved, (unsigned long long)s->end_active,
            (unsigned long long)s->end_non_releasable, (unsigned long long)s->end_segments, s->ooms);
    put_i64(f, s->ooms && s->first_oom_event >= 0, s->first_oom_event);
    if (model) {
        fprintf(f, ",\"recorded_ooms_that_fit\":%zu,\"first_oom_message\":", s->recorded_ooms_fit);
        if (s->ooms) put_jstr(f, s->first_oom);
        else fputs("null", f);
    }
    fputc('}', f);
}

static void json_replay(FILE *f, const struct gpu_snap_replay *r)
{
    char rc[256], wc[256];
    gpu_snap_conf_text(&r->recorded_opts, rc, sizeof rc);
    gpu_snap_conf_text(&r->whatif_opts, wc, sizeof wc);
    fprintf(f, "\"replay\":{\"model\":\"SIMULATED: vramlab's model of PyTorch's caching "
               "allocator\",\"device\":%d,\"capacity_bytes\":", r->device);
    put_i64(f, r->capacity > 0, (int64_t)r->capacity);
    fprintf(f, ",\"pre_trace_blocks\":%zu,\"pre_trace_bytes\":%llu,\"empty_cache_calls\":%zu,"
               "\"columns\":[", r->seeds, (unsigned long long)r->seed_bytes, r->empty_caches);
    json_side(f, "recorded", rc, &r->recorded, false);
    fputc(',', f);
    json_side(f, "model_recorded_options", rc, &r->model_recorded, true);
    if (r->have_whatif) {
        fputc(',', f);
        json_side(f, "model_what_if", wc, &r->model_whatif, true);
    }
    fputs("],\"differences\":[", f);
    for (size_t i = 0; i < r->ndiffs; i++) {
        if (i) fputc(',', f);
        put_jstr(f, r->diffs[i]);
    }
    fputs("],\"notes\":[", f);
    for (size_t i = 0; i < r->nnotes; i++) {
        if (i) fputc(',', f);
        put_jstr(f, r->notes[i]);
    }
    fputs("]}", f);
}

static void row(FILE *f, const char *label, const char *a, const char *b, const char *c,
                bool three)
{
    fprintf(f, "  %-24s %-18s %-18s", label, a, b);
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
    fprintf(f, "\nWhat if - SIMULATED: the trace of device %d replayed through vramlab's model of "
               "PyTorch's caching allocator (no GPU involved)\n", r->device);
    if (r->capacity) fprintf(f, "  capacity: %s the allocator may hold\n", B(r->capacity, v[0], 48));
    fprintf(f, "  %-24s %-18s %-18s%s\n", "", "recorded run", "model, recorded", three ? " model, what if" : "");
    fprintf(f, "  %-24s %-37s%s%s\n", "options", rc, three ? " " : "", three ? wc : "");
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
    ROW("peak reserved", peak_reserved);
    ROW("peak requested (live)", peak_requested);
    NROW("cudaMalloc + maps", device_allocs);
    NROW("cudaFree + unmaps", device_frees);
    ROW("reserved at the end", end_reserved);
    ROW("allocated at the end", end_active);
    ROW("non-releasable at end", end_non_releasable);
    NROW("segments at the end", end_segments);
#undef ROW
#undef NROW
    snprintf(v[0], 48, "%zu", s[0]->ooms);
    for (int i = 1; i < 3; i++)
        if (r->capacity) snprintf(v[i], 48, "%zu", s[i]->ooms);
        else snprintf(v[i], 48, "n/a (no capacity)");
    row(f, "OOMs", v[0], v[1], v[2], three);
    for (int i = 1; i < 3; i++) {
        if (i == 2 && !three) break;
        if (!r->capacity) continue;
        if (s[i]->ooms) {
            fprintf(f, "  %s: first OOM at ", i == 1 ? "model, recorded" : "model, what if");
            if (s[i]->first_oom_event < 0) fputs("the blocks live before the trace", f);
            else fprintf(f, "entry %lld", (long long)s[i]->first_oom_event);
            fprintf(f, ": %s\n", s[i]->first_oom);
        }
        if (r->recorded.ooms)
            fprintf(f, "  %s: %zu of the %zu requests PyTorch refused would fit\n",
                    i == 1 ? "model, recorded" : "model, what if", s[i]->recorded_ooms_fit,
                    r->recorded.ooms);
    }
    if (r->ndiffs) {
        fputs("  The model differs from the recorded run under the recorded options:\n", f);
        for (size_t i = 0; i < r->ndiffs; i++) fprintf(f, "    - %s\n", r->diffs[i]);
    } else {
        fputs("  The model agrees with the recorded run under the recorded options.\n", f);
    }
    for (size_t i = 0; i < r->nnotes; i++) fprintf(f, "  note: %s\n", r->notes[i]);
    if (r->empty_caches)
        fprintf(f, "  note: %zu empty_cache() calls read from segment_free runs\n", r->empty_caches);
}

/* ---- the command ------------------------------------------------------------------------------ */

static bool parse_size(const char *s, uint64_t *v)
{
    char *end;
    if (!s || *s < '0' || *s > '9') return false;
    double n = strtod(s, &end);
    static const struct {
        const char *suf;
        unsigned shift;
    } u[] = {{"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (!strcmp(end, u[i].suf)) {
            double b = ldexp(n, (int)u[i].shift);
            if (!(b >= 1 && b <= (double)MAX_CAPACITY)) return false;
            *v = (uint64_t)b;
            return true;
        }
    return false;
}

static void usage(FILE *f)
{
    fputs("usage: vramlab snapshot FILE [--json] [--device N] [--top N]\n"
          "                             [--replay PYTORCH_CUDA_ALLOC_CONF] [--capacity SIZE]\n"
          "  FILE            a pickle from torch.cuda.memory._dump_snapshot()\n"
          "  --replay CONF   replay the trace through the caching-allocator model with these\n"
          "                  options (on top of the recorded ones), beside what PyTorch did\n"
          "  --capacity SIZE what the allocator may hold, e.g. 24GiB (judges OOMs; binary units)\n"
          "  --device N      the device to replay (default: the first with a trace)\n"
          "  --top N         groups listed at the peak (default 10)\n"
          "  --tui           the snapshot screen instead (vramlab snapshot FILE --tui, or\n"
          "                  vramlab FILE.pickle): timeline, cursor, map, stack, what-if\n",
          f);
}

int tui_snapshot_cmd(int argc, char **argv, bool json, FILE *out, FILE *errf)
{
    const char *file = NULL, *conf = NULL;
    uint64_t capacity = 0;
    long device = -1, top = DEFAULT_TOP;
    bool replay = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        char *end;
        bool takes = !strcmp(a, "--replay") || !strcmp(a, "--capacity") || !strcmp(a, "--device") ||
                     !strcmp(a, "--top");
        if (takes) {
            if (i + 1 >= argc) {
                fprintf(errf, "vramlab: snapshot: %s needs a value\n", a);
                usage(errf);
                return 2;
            }
            val = argv[++i];
        } else if (!strncmp(a, "--replay=", 9) || !strncmp(a, "--capacity=", 11) ||
                   !strncmp(a, "--device=", 9) || !strncmp(a, "--top=", 6)) {
            val = strchr(a, '=') + 1;
            takes = true;
        }
        if (!strcmp(a, "--json") || !strcmp(a, "-j")) json = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(out);
            return 0;
        } else if (takes && !strncmp(a, "--replay", 8)) conf = val, replay = true;
        else if (takes && !strncmp(a, "--capacity", 10)) {
            if (!parse_size(val, &capacity)) {
                fprintf(errf, "vramlab: snapshot: capacity '%s' is not a size such as 24GiB "
                              "(binary units: KiB, MiB, GiB, TiB; at most 4 TiB)\n", val);
                return 2;
            }
            replay = true;
        } else if (takes && !strncmp(a, "--device", 8)) {
            device = strtol(val, &end, 10);
            if (!*val || *end || device < 0 || device > 4095) {
                fprintf(errf, "vramlab: snapshot: --device needs a device index, not '%s'\n", val);
                return 2;
            }
            replay = true;
        } else if (takes && !strncmp(a, "--top", 5)) {
            top = strtol(val, &end, 10);
            if (!*val || *end || top < 0 || top > 100000) {
                fprintf(errf, "vramlab: snapshot: --top needs a whole number, not '%s'\n", val);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(errf, "vramlab: snapshot: unknown option %s\n", a);
            usage(errf);
            return 2;
        } else if (!file) file = a;
        else {
            fprintf(errf, "vramlab: snapshot: one file at a time ('%s' and '%s')\n", file, a);
            return 2;
        }
    }
    if (!file) {
        fprintf(errf, "vramlab: snapshot needs a file (from torch.cuda.memory._dump_snapshot)\n");
        usage(errf);
        return 2;
    }
    struct gpu_caching_opts whatif;
    char err[1024];
    struct gpu_snapshot *s;
    double t0 = gpu_now();
    if (gpu_snapshot_load(file, NULL, &s, err, sizeof err) != GPU_OK) {
        fprintf(errf, "%s\n", err);
        return 1;
    }
    if (conf) { /* the options named change; the others stay as recorded */
        gpu_snapshot_recorded_opts(s, &whatif, NULL, 0);
        if (gpu_caching_parse_conf(conf, &whatif, err, sizeof err) != GPU_OK) {
            fprintf(errf, "vramlab: snapshot: --replay '%s': %s\n", conf, err);
            gpu_snapshot_free(s);
            return 2;
        }
    }
    struct gpu_snap_summary sum;
    if (gpu_snapshot_summarize(s, (size_t)top, &sum, err, sizeof err) != GPU_OK) {
        fprintf(errf, "%s: %s\n", file, err);
        gpu_snapshot_free(s);
        return 1;
    }
    double t1 = gpu_now();
    struct gpu_snap_replay *r = NULL;
    int rc = 0;
    if (replay) {
        if (device < 0) /* the first device with a trace */
            for (size_t i = 0; i < sum.ndev && device < 0; i++)
                if (sum.dev[i].events) device = sum.dev[i].device;
        if (device < 0) device = sum.ndev ? sum.dev[0].device : 0;
        r = calloc(1, sizeof *r);
        if (!r || gpu_snapshot_replay(s, (int)device, capacity, conf ? &whatif : NULL, r, err,
                                      sizeof err) != GPU_OK) {
            fprintf(errf, "%s: %s\n", file, r ? err : "out of host memory");
            free(r);
            r = NULL;
            rc = 1;
        }
    }
    double t2 = gpu_now();
    if (rc == 0 && json) {
        fputs("{\"file\":", out);
        put_jstr(out, file);
        fprintf(out, ",\"units\":\"bytes\",\"source\":\"recorded by PyTorch (not measured by "
                     "vramlab)\",\"pickle\":{\"bytes\":%zu,\"protocol\":%d},",
                gpu_pk_file_bytes(s->doc), gpu_pk_protocol(s->doc));
        json_settings(out, s);
        fprintf(out, ",\"legacy_history_blocks\":%zu,\"devices\":[", s->legacy_history_blocks);
        for (size_t i = 0; i < sum.ndev; i++) {
            if (i) fputc(',', out);
            json_device(out, s, &sum.dev[i]);
        }
        fputc(']', out);
        if (r) fputc(',', out), json_replay(out, r);
        fputs("}\n", out);
    } else if (rc == 0) {
        fprintf(out, "PyTorch memory snapshot ");
        put_safe(out, file, strlen(file), 300);
        fprintf(out, " (recorded by PyTorch, not measured by vramlab; GiB = 2^30 B, MiB = 2^20 B)\n");
        fprintf(out, "  file        %zu bytes, pickle protocol %d; read and summarised in %.1f ms",
                gpu_pk_file_bytes(s->doc), gpu_pk_protocol(s->doc), (t1 - t0) * 1e3);
        if (r) fprintf(out, ", replayed in %.1f ms", (t2 - t1) * 1e3);
        fputc('\n', out);
        text_settings(out, s);
        if (s->legacy_history_blocks)
            fprintf(out, "  format      %zu blocks in the older format (history, no frames)\n",
                    s->legacy_history_blocks);
        if (!sum.ndev) fputs("No segments and no trace: nothing was allocated.\n", out);
        for (size_t i = 0; i < sum.ndev; i++) text_device(out, s, &sum.dev[i]);
        if (r) text_replay(out, r);
    }
    free(r);
    gpu_snap_summary_free(&sum);
    gpu_snapshot_free(s);
    return rc;
}
