/* gpu_snap_summary.c - the summary of gpu_snap_summary.h. The definitions follow
 * docs/snapshot.md; tests/snapshot/summary_ref.py computes the same numbers in Python, and the
 * two must agree exactly, so the order of every walk here is the reference's: allocations live
 * before the trace in address order, then the trace's in entry order. Each stack's group is
 * found once (by stack id), so many entries sharing one long stack cost one look at it. */
#include "gpu_snap_summary.h"
#include "gpu_snap_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_strtab.h"
#include "gpu_u64map.h"

static gpu_status nomem(char *err, size_t n)
{
    if (err && n) gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
    return GPU_ERR_HOST_NOMEM;
}

/* ---- groups ----------------------------------------------------------------------------------- */

static bool set_text(char **dst, size_t *len, const char *s, size_t n)
{
    *dst = malloc(n + 1);
    if (!*dst) return false;
    memcpy(*dst, s, n);
    (*dst)[n] = 0;
    *len = n;
    return true;
}

bool gpu_snap_group_of(const struct gpu_snapshot *s, uint32_t stack, struct gpu_snap_group *g)
{
    memset(g, 0, sizeof *g);
    g->stack = stack;
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, stack);
    const struct gpu_snap_frame *fr = gpu_snap_user_frame(s, stack);
    if (!fr) {
        const char *l = st->n ? GPU_SNAP_NO_USER_FRAME : GPU_SNAP_NO_FRAMES;
        return set_text(&g->where, &g->where_len, l, strlen(l)) &&
               set_text(&g->function, &g->function_len, "", 0);
    }
    char num[32];
    int k = snprintf(num, sizeof num, ":%lld", (long long)fr->line);
    g->where = malloc(fr->file_len + (size_t)k + 1);
    if (!g->where) return false;
    memcpy(g->where, fr->file, fr->file_len);
    memcpy(g->where + fr->file_len, num, (size_t)k + 1);
    g->where_len = fr->file_len + (size_t)k;
    return set_text(&g->function, &g->function_len, fr->name, fr->name_len);
}

void gpu_snap_group_free(struct gpu_snap_group *g)
{
    free(g->where);
    free(g->function);
    g->where = g->function = NULL;
}

/* Python's str order: UTF-8 bytes compare like code points */
static int text_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c) return c;
    return an < bn ? -1 : an > bn;
}

static int group_rank(const void *pa, const void *pb)
{
    const struct gpu_snap_group *a = pa, *b = pb;
    if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    int c = text_cmp(a->where, a->where_len, b->where, b->where_len);
    return c ? c : text_cmp(a->function, a->function_len, b->function, b->function_len);
}

/* The group index of a stack: found by id, else by text, else a new group. */
static bool gtab_group(struct gpu_snap_gtab *t, const struct gpu_snapshot *s, uint32_t stack,
                       size_t *out)
{
    size_t at = gpu_u64map_find(&t->by_stack, stack);
    if (at != SIZE_MAX) {
        *out = (size_t)t->by_stack.val[at];
        return true;
    }
    struct gpu_snap_group k;
    bool ok = gpu_snap_group_of(s, stack, &k);
    /* the key: where's length, where, function (either may hold any byte) */
    size_t kn = sizeof(uint64_t) + k.where_len + k.function_len;
    char *key = ok ? malloc(kn) : NULL;
    uint32_t id = GPU_STRTAB_NONE;
    if (key) {
        uint64_t wl = k.where_len;
        memcpy(key, &wl, sizeof wl);
        memcpy(key + sizeof wl, k.where, k.where_len);
        memcpy(key + sizeof wl + k.where_len, k.function, k.function_len);
        id = gpu_strtab_intern(&t->text, key, kn);
        free(key);
    }
    if (id == GPU_STRTAB_NONE) {
        gpu_snap_group_free(&k);
        return false;
    }
    if (id < t->n) { /* a group of that text exists */
        gpu_snap_group_free(&k);
    } else {
        if (t->n == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 32;
            struct gpu_snap_group *g = realloc(t->g, cap * sizeof *g);
            if (!g) {
                gpu_snap_group_free(&k);
                return false;
            }
            t->g = g;
            t->cap = cap;
        }
        t->g[t->n++] = k;
    }
    *out = id;
    return gpu_u64map_put(&t->by_stack, stack, *out);
}

bool gpu_snap_gtab_init(struct gpu_snap_gtab *t)
{
    memset(t, 0, sizeof *t);
    return gpu_u64map_init(&t->by_stack, 64);
}

void gpu_snap_gtab_free(struct gpu_snap_gtab *t, size_t keep)
{
    for (size_t i = keep; i < t->n; i++) gpu_snap_group_free(&t->g[i]);
    if (!keep) free(t->g), t->g = NULL;
    gpu_strtab_free(&t->text);
    gpu_u64map_free(&t->by_stack);
}

size_t gpu_snap_gtab_rank(struct gpu_snap_gtab *t, size_t top)
{
    if (t->n) qsort(t->g, t->n, sizeof *t->g, group_rank);
    return t->n < top ? t->n : top;
}

bool gpu_snap_gtab_count(struct gpu_snap_gtab *t, const struct gpu_snapshot *s, uint32_t stack,
                         uint64_t bytes)
{
    size_t gi;
    if (!gtab_group(t, s, stack, &gi)) return false;
    struct gpu_snap_group *g = &t->g[gi];
    if (!g->count || bytes > g->largest) g->largest = bytes, g->stack = stack;
    g->bytes += bytes;
    g->count++;
    return true;
}

/* ---- the final state -------------------------------------------------------------------------- */

uint64_t gpu_snap_seg_releasable(const struct gpu_snapshot *s, size_t i)
{
    const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, i);
    /* a private pool's segments go back only once no CUDA graph or MemPool uses the pool
     * (release_cached_blocks walks graph_pools_freeable), which a snapshot does not record:
     * while its owner lives, nothing */
    if (!sg || sg->pool[0] || sg->pool[1]) return 0;
    uint64_t rel = 0, free_bytes = 0;
    bool busy = false;
    uint64_t page = sg->small ? (2ull << 20) : (20ull << 20);
    for (size_t j = 0; j < sg->nblocks; j++) {
        const struct gpu_snap_block *b = gpu_snapshot_block(s, sg->first_block + j);
        if (b->state != GPU_SNAP_INACTIVE) {
            busy = true;
            continue;
        }
        free_bytes += b->size;
        if (sg->expandable && b->addr >= sg->addr) {
            /* ExpandableSegment::unmap: the pages lying wholly inside the block */
            uint64_t rel_a = b->addr - sg->addr, rel_b = rel_a + b->size;
            uint64_t first = (rel_a + page - 1) / page, last = rel_b / page;
            if (last > first) rel += (last - first) * page;
        }
    }
    return sg->expandable ? rel : busy ? 0 : free_bytes;
}

static void final_state(const struct gpu_snapshot *s, int d, struct gpu_snap_device *o)
{
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, i);
        if (sg->device != d) continue;
        o->nsegs++;
        if (sg->small) o->nsmall++;
        else o->nlarge++;
        o->nexpandable += sg->expandable;
        o->reserved += sg->size;
        uint64_t free_here = 0;
        for (size_t j = 0; j < sg->nblocks; j++) {
            const struct gpu_snap_block *b = gpu_snapshot_block(s, sg->first_block + j);
            struct gpu_snap_count *c = &o->blocks[b->state];
            c->count++;
            c->bytes += b->size;
            if (b->state != GPU_SNAP_INACTIVE) {
                c->requested += b->requested;
                o->snapshot_active_requested += b->requested;
            } else {
                free_here += b->size;
                if (b->size > o->largest_free) o->largest_free = b->size;
            }
        }
        uint64_t rel = gpu_snap_seg_releasable(s, i);
        o->releasable += rel;
        o->non_releasable += free_here - rel;
    }
}

static int pool_cmp(const void *a, const void *b)
{
    const struct gpu_snap_pool *x = a, *y = b;
    for (int i = 0; i < 2; i++)
        if (x->id[i] != y->id[i]) return x->id[i] < y->id[i] ? -1 : 1;
    return 0;
}

static bool private_pools(const struct gpu_snapshot *s, int d, struct gpu_snap_device *o)
{
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *sg = gpu_snapshot_seg(s, i);
        if (sg->device != d || (!sg->pool[0] && !sg->pool[1])) continue;
        struct gpu_snap_pool *p = NULL;
        for (size_t k = 0; k < o->npools && !p; k++)
            if (o->pools[k].id[0] == sg->pool[0] && o->pools[k].id[1] == sg->pool[1]) p = &o->pools[k];
        if (!p) {
            struct gpu_snap_pool *np = realloc(o->pools, (o->npools + 1) * sizeof *np);
            if (!np) return false;
            o->pools = np;
            p = &o->pools[o->npools++];
            *p = (struct gpu_snap_pool){{sg->pool[0], sg->pool[1]}, 0, 0, 0, 0};
        }
        p->nsegs++;
        p->reserved += sg->size;
        for (size_t j = 0; j < sg->nblocks; j++) {
            const struct gpu_snap_block *b = gpu_snapshot_block(s, sg->first_block + j);
            if (b->state == GPU_SNAP_ACTIVE_ALLOCATED) p->allocated += b->size;
            else if (b->state == GPU_SNAP_INACTIVE) p->cached += b->size;
        }
    }
    if (o->npools > 1) qsort(o->pools, o->npools, sizeof *o->pools, pool_cmp);
    return true;
}

static int walk_order(const void *a, const void *b)
{
    const struct gpu_snap_live *x = a, *y = b;
    if ((x->event < 0) != (y->event < 0)) return x->event < 0 ? -1 : 1;
    int64_t p = x->event < 0 ? x->pre : x->event, q = y->event < 0 ? y->pre : y->event;
    return p < q ? -1 : p > q;
}

/* ---- one device ------------------------------------------------------------------------------- */

static gpu_status summarize_device(const struct gpu_snapshot *s, int d, size_t top,
                                   const gpu_cancel_flag *cancel, struct gpu_snap_device *o,
                                   char *err, size_t n)
{
    memset(o, 0, sizeof *o);
    o->device = d;
    o->peak_event = o->reserved_peak_event = -1;
    size_t ne;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, d, &ne);
    final_state(s, d, o);
    if (!private_pools(s, d, o)) return nomem(err, n);

    /* the trace: counts, streams, times */
    o->events = ne;
    size_t nstreams = 0;
    uint8_t *seen = calloc(65536, 1);
    if (!seen) return nomem(err, n);
    for (size_t i = 0; i < ne; i++) {
        const struct gpu_snap_event *e = &ev[i];
        o->actions[e->action]++;
        if (!seen[e->stream]) seen[e->stream] = 1, nstreams++;
        if (e->flags & GPU_SNAP_HAS_TIME) {
            if (!o->has_times) o->first_time = e->time_us;
            o->has_times = true;
            o->last_time = e->time_us;
        }
    }
    free(seen);
    o->streams = nstreams;

    /* live and reserved bytes over the trace */
    size_t npre;
    gpu_snap_pre_trace(s, d, &npre);
    o->pre_trace_blocks = npre;
    gpu_snap_start(s, d, &o->start_bytes, &o->reserved_start);
    int64_t cur = o->start_bytes, rcur = o->reserved_start;
    o->peak_bytes = cur;
    o->reserved_peak = rcur;
    if (o->actions[GPU_SNAP_OOM] && !(o->ooms = calloc(o->actions[GPU_SNAP_OOM], sizeof *o->ooms)))
        return nomem(err, n);
    for (size_t i = 0; i < ne; i++) {
        if ((i & (GPU_SNAP_CHECK_EVERY - 1)) == 0 && gpu_cancelled(cancel)) {
            gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_CANCELLED));
            return GPU_ERR_CANCELLED;
        }
        const struct gpu_snap_event *e = &ev[i];
        gpu_snap_step(e, &cur, &rcur);
        if (cur > o->peak_bytes) o->peak_bytes = cur, o->peak_event = (int64_t)i;
        if (rcur > o->reserved_peak) o->reserved_peak = rcur, o->reserved_peak_event = (int64_t)i;
        if (e->action == GPU_SNAP_OOM) {
            struct gpu_snap_oom *m = &o->ooms[o->nooms++];
            m->event = i;
            m->has_time = e->flags & GPU_SNAP_HAS_TIME;
            m->time_us = e->time_us;
            m->stream = gpu_snapshot_stream(s, e->stream);
            m->size = e->size;
            m->has_free = e->flags & GPU_SNAP_HAS_ADDR;
            m->device_free = e->addr;
            m->live_requested = cur;
            m->reserved = rcur;
            if (!gpu_snap_group_of(s, e->stack, &m->where)) return nomem(err, n);
        }
    }
    o->end_bytes = cur;
    o->reserved_end = rcur;

    /* what was live at the peak, grouped by the first user frame */
    struct gpu_snap_gtab t;
    if (!gpu_snap_gtab_init(&t)) {
        gpu_snap_gtab_free(&t, 0);
        return nomem(err, n);
    }
    struct gpu_snap_live *lv = NULL;
    size_t nl = 0;
    bool ok = gpu_snap_live_in(s, d, o->peak_event, 0, UINT64_MAX, &lv, &nl) == GPU_OK;
    /* the reference's order: pre-trace ones in address order, then the trace's by entry */
    if (ok && nl) qsort(lv, nl, sizeof *lv, walk_order);
    for (size_t i = 0; ok && i < nl; i++) ok = gpu_snap_gtab_count(&t, s, lv[i].stack, lv[i].size);
    free(lv);
    if (!ok) {
        gpu_snap_gtab_free(&t, 0);
        return nomem(err, n);
    }
    size_t keep = gpu_snap_gtab_rank(&t, top);
    gpu_snap_gtab_free(&t, keep);
    o->top = t.g;
    o->ntop = keep;
    return GPU_OK;
}

void gpu_snap_summary_free(struct gpu_snap_summary *sum)
{
    if (!sum) return;
    for (size_t i = 0; i < sum->ndev; i++) {
        struct gpu_snap_device *d = &sum->dev[i];
        for (size_t j = 0; j < d->ntop; j++) gpu_snap_group_free(&d->top[j]);
        free(d->top);
        for (size_t j = 0; j < d->nooms; j++) gpu_snap_group_free(&d->ooms[j].where);
        free(d->ooms);
        free(d->pools);
    }
    free(sum->dev);
    memset(sum, 0, sizeof *sum);
}

gpu_status gpu_snapshot_summarize(const struct gpu_snapshot *s, size_t top,
                                  const gpu_cancel_flag *cancel, struct gpu_snap_summary *out,
                                  char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!s || !out) return GPU_ERR_ARG;
    memset(out, 0, sizeof *out);
    int ids[4096];
    size_t nd = gpu_snapshot_devices(s, ids, sizeof ids / sizeof *ids);
    out->dev = calloc(nd ? nd : 1, sizeof *out->dev);
    if (!out->dev) return nomem(err, n);
    gpu_status st = GPU_OK;
    for (size_t i = 0; i < nd && st == GPU_OK; i++) {
        st = summarize_device(s, ids[i], top, cancel, &out->dev[i], err, n);
        out->ndev = i + 1;
    }
    if (st != GPU_OK) gpu_snap_summary_free(out);
    return st;
}
