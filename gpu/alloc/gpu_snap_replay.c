/* gpu_snap_replay.c - "what if": a snapshot's trace replayed through the caching-allocator
 * model (gpu_snap_replay.h). The model starts from the cache before the trace: the segments then
 * (the final ones with the trace's segment_* entries undone), at PyTorch's own addresses, and
 * the blocks live in them. Segments the model asks for during the trace take PyTorch's
 * addresses where a recorded segment_alloc of the same size is near (best fit breaks ties by
 * address, so equal addresses keep equal placements). docs/snapshot.md says what is replayed
 * and what is approximated; differences under the recorded options are findings about the
 * model and are listed, never hidden. Linear in the entries: every index is a map or a treap. */
#include "gpu_snap_replay.h"
#include "gpu_snap_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_model_dev.h"
#include "gpu_snap_summary.h"
#include "gpu_u64map.h"

#define UNLIMITED (1ull << 42) /* the model device's largest capacity: 4 TiB */
#define MATCH_WINDOW 16        /* recorded segment_allocs looked ahead for an address */
#define FAILED UINT64_MAX      /* a traced allocation the model could not serve */

#define GPU_SNAP_X_NAME(k) #k,
const char *const gpu_snap_finding_names[GPU_SNAP_NFINDING_KINDS] = {GPU_SNAP_FINDINGS(GPU_SNAP_X_NAME)};
#undef GPU_SNAP_X_NAME

static void add(struct gpu_snap_finding *list, size_t *n, int kind, uint64_t a, uint64_t b,
                uint64_t c, uint64_t d, double x)
{
    if (*n >= GPU_SNAP_MAX_FINDINGS) return;
    list[(*n)++] = (struct gpu_snap_finding){(uint8_t)kind, {a, b, c, d}, x};
}

static gpu_status fail(gpu_status st, char *err, size_t n)
{
    if (err && n) gpu_errf(err, n, "%s", gpu_status_str(st));
    return st;
}

void gpu_snapshot_recorded_opts(const struct gpu_snapshot *s, struct gpu_caching_opts *o)
{
    gpu_caching_opts_default(o);
    const struct gpu_snap_settings *st = gpu_snapshot_settings(s);
    if (st->max_split_size >= GPU_CACHE_LARGE_BUFFER && st->max_split_size < (1ull << 62))
        o->max_split_size = st->max_split_size;
    o->expandable_segments = st->expandable == 1;
    for (size_t i = 0; st->expandable < 0 && i < gpu_snapshot_nsegs(s); i++)
        o->expandable_segments |= gpu_snapshot_seg(s, i)->expandable;
    int64_t most = 0;
    for (size_t i = 0; i < st->nroundup; i++)
        if (st->roundup[i] > most) most = st->roundup[i];
    if (most > 1 && most <= 1024 && !(most & (most - 1))) o->roundup_power2_divisions = (unsigned)most;
}

void gpu_snap_conf_text(const struct gpu_caching_opts *o, char *b, size_t n)
{
    size_t k = 0;
    b[0] = 0;
    if (o->max_split_size != GPU_CACHE_NO_SPLIT_LIMIT)
        k += (size_t)snprintf(b + k, n - k, "max_split_size_mb:%llu,",
                              (unsigned long long)(o->max_split_size >> 20));
    if (o->roundup_power2_divisions > 1 && k < n)
        k += (size_t)snprintf(b + k, n - k, "roundup_power2_divisions:%u,", o->roundup_power2_divisions);
    if (k < n) snprintf(b + k, n - k, "expandable_segments:%s", o->expandable_segments ? "True" : "False");
}

/* ---- the replay device: the model device, with PyTorch's own addresses where they fit ------- */

struct rseg {
    uint64_t addr, size;
};

struct rdev {
    struct gpu_model_dev *inner;
    const struct rseg *rec;         /* the trace's segment_alloc entries, in order */
    size_t nrec, cursor;
    bool *taken;
    bool matching;
};

static gpu_status rdev_alloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
    struct rdev *d = ctx;
    for (size_t i = d->cursor; d->matching && i < d->nrec && i < d->cursor + MATCH_WINDOW; i++) {
        const struct rseg *r = &d->rec[i];
        if (d->taken[i] || r->size != bytes) continue;
        gpu_status st = gpu_model_dev_take(d->inner, r->addr, bytes);
        if (st == GPU_ERR_NOMEM) return st;
        if (st != GPU_OK) continue; /* held: the model's own or another recorded one */
        d->taken[i] = true;
        while (d->cursor < d->nrec && d->taken[d->cursor]) d->cursor++;
        *addr = r->addr;
        return GPU_OK;
    }
    return gpu_model_dev_ops.seg_alloc(d->inner, bytes, addr);
}

static void rdev_free(void *ctx, uint64_t addr, uint64_t bytes)
{
    gpu_model_dev_ops.seg_free(((struct rdev *)ctx)->inner, addr, bytes);
}

static gpu_status rdev_info(void *ctx, uint64_t *free_b, uint64_t *total_b)
{
    return gpu_model_dev_ops.mem_info(((struct rdev *)ctx)->inner, free_b, total_b);
}

static gpu_status rdev_take(void *ctx, uint64_t addr, uint64_t bytes)
{
    return gpu_model_dev_take(((struct rdev *)ctx)->inner, addr, bytes);
}

static const struct gpu_seg_ops rdev_ops = {rdev_alloc, rdev_free, rdev_info, rdev_take};

/* ---- what both runs share -------------------------------------------------------------------- */

struct start_seg {
    uint64_t addr, size;
    bool small;
};

struct plan {
    const struct gpu_snapshot *s;
    int dev;
    const struct gpu_snap_event *ev;
    size_t n;
    const struct gpu_snap_pre *pre;  /* live before the trace, in address order */
    size_t npre;
    bool *empty_after;               /* per entry: an empty_cache() happens after it */
    struct rseg *rec;
    size_t nrec;
    struct start_seg *segs;          /* segments held before the trace (not expandable) */
    size_t nsegs;
    struct gpu_snap_range *ranges;   /* mapped ranges before the trace (expandable) */
    size_t nranges;
};

static int start_cmp(const void *a, const void *b)
{
    const struct start_seg *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The segments before entry 0: the final ones, then back through the trace, a segment_alloc
 * removing its segment and a segment_free bringing one back. */
static gpu_status start_segments(struct plan *pl)
{
    const struct gpu_snapshot *s = pl->s;
    size_t cap = 0;
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) cap += gpu_snapshot_seg(s, i)->device == pl->dev;
    for (size_t i = 0; i < pl->n; i++) cap += pl->ev[i].action == GPU_SNAP_SEGMENT_FREE;
    pl->segs = malloc((cap + 1) * sizeof *pl->segs);
    struct gpu_u64map at = {0};
    if (!pl->segs || !gpu_u64map_init(&at, cap + 1)) {
        gpu_u64map_free(&at);
        return GPU_ERR_HOST_NOMEM;
    }
    /* a slot per address; a removed one is marked by size 0 */
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(s, i);
        if (g->device != pl->dev || g->expandable) continue;
        pl->segs[pl->nsegs] = (struct start_seg){g->addr, g->size, g->small};
        gpu_u64map_put(&at, g->addr, pl->nsegs++); /* room reserved above: cannot fail */
    }
    for (size_t i = pl->n; i-- > 0;) {
        const struct gpu_snap_event *e = &pl->ev[i];
        size_t k = gpu_u64map_find(&at, e->addr);
        if (e->action == GPU_SNAP_SEGMENT_ALLOC && k != SIZE_MAX) {
            pl->segs[at.val[k]].size = 0;
            gpu_u64map_del_at(&at, k);
        } else if (e->action == GPU_SNAP_SEGMENT_FREE && e->size) {
            if (k != SIZE_MAX) pl->segs[at.val[k]].size = 0; /* freed twice: the older one */
            pl->segs[pl->nsegs] = (struct start_seg){e->addr, e->size, e->size <= GPU_CACHE_SMALL_BUFFER};
            gpu_u64map_put(&at, e->addr, pl->nsegs++);
        }
    }
    gpu_u64map_free(&at);
    size_t w = 0;
    for (size_t i = 0; i < pl->nsegs; i++)
        if (pl->segs[i].size) pl->segs[w++] = pl->segs[i];
    pl->nsegs = w;
    qsort(pl->segs, pl->nsegs, sizeof *pl->segs, start_cmp);
    return GPU_OK;
}

static gpu_status make_plan(const struct gpu_snapshot *s, int dev, struct plan *pl,
                            struct gpu_snap_replay *r)
{
    memset(pl, 0, sizeof *pl);
    pl->s = s;
    pl->dev = dev;
    pl->ev = gpu_snapshot_trace(s, dev, &pl->n);
    pl->pre = gpu_snap_pre_trace(s, dev, &pl->npre);
    pl->empty_after = calloc(pl->n + 1, 1);
    pl->rec = malloc((pl->n + 1) * sizeof *pl->rec);
    if (!pl->empty_after || !pl->rec) return GPU_ERR_HOST_NOMEM;
    struct gpu_snap_side *rec = &r->recorded;
    for (size_t i = 0; i < pl->n; i++) {
        const struct gpu_snap_event *e = &pl->ev[i];
        switch (e->action) {
        case GPU_SNAP_SEGMENT_ALLOC:
            pl->rec[pl->nrec++] = (struct rseg){e->addr, e->size};
            /* fall through */
        case GPU_SNAP_SEGMENT_MAP: rec->device_allocs++; break;
        case GPU_SNAP_SEGMENT_FREE:
        case GPU_SNAP_SEGMENT_UNMAP: {
            rec->device_frees++;
            /* a run of releases an allocation does not follow is empty_cache(); one followed
             * by a new segment or an OOM is the allocator's own retry, which the model redoes */
            uint8_t next = i + 1 < pl->n ? pl->ev[i + 1].action : GPU_SNAP_OTHER;
            bool in_run = next == GPU_SNAP_SEGMENT_FREE || next == GPU_SNAP_SEGMENT_UNMAP;
            if (!in_run && next != GPU_SNAP_SEGMENT_ALLOC && next != GPU_SNAP_SEGMENT_MAP &&
                next != GPU_SNAP_OOM) {
                pl->empty_after[i] = true;
                r->empty_caches++;
            }
            break;
        }
        case GPU_SNAP_OOM:
            if (!rec->ooms++) rec->first_oom_event = (int64_t)i, rec->first_oom_bytes = e->size;
            break;
        }
    }
    gpu_status st = start_segments(pl);
    if (st == GPU_OK) {
        st = gpu_snap_mapped_at(s, dev, -1, &pl->ranges, &pl->nranges);
        if (st == GPU_ERR_ARG) st = GPU_OK, pl->nranges = 0; /* too tangled: start unmapped */
    }
    return st;
}

static void plan_free(struct plan *pl)
{
    free(pl->empty_after);
    free(pl->rec);
    free(pl->segs);
    free(pl->ranges);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Two runs ended with the same segment sizes when these agree (sizes sorted, then hashed). */
static uint64_t sizes_sig(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ v[i]) * 1099511628211ull;
    return h;
}

/* What PyTorch did, from the trace and the final state. */
static gpu_status recorded_side(const struct plan *pl, struct gpu_snap_replay *r)
{
    const struct gpu_snapshot *s = pl->s;
    struct gpu_snap_side *rec = &r->recorded;
    uint64_t *sz = malloc((gpu_snapshot_nsegs(s) + 1) * sizeof *sz);
    if (!sz) return GPU_ERR_HOST_NOMEM;
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(s, i);
        if (g->device != pl->dev) continue;
        sz[rec->end_segments++] = g->size;
        rec->end_reserved += g->size;
        uint64_t fr = 0;
        for (size_t j = 0; j < g->nblocks; j++) {
            const struct gpu_snap_block *b = gpu_snapshot_block(s, g->first_block + j);
            if (b->state == GPU_SNAP_INACTIVE) fr += b->size;
            else rec->end_active += b->size;
        }
        rec->end_non_releasable += fr - gpu_snap_seg_releasable(s, i);
    }
    rec->end_sizes_sig = sizes_sig(sz, rec->end_segments);
    free(sz);
    int64_t cur, rcur;
    gpu_snap_start(s, pl->dev, &cur, &rcur);
    int64_t peak = cur, rpeak = rcur;
    for (size_t i = 0; i < pl->n; i++) {
        gpu_snap_step(&pl->ev[i], &cur, &rcur);
        if (cur > peak) peak = cur;
        if (rcur > rpeak) rpeak = rcur;
    }
    rec->peak_requested = peak > 0 ? (uint64_t)peak : 0;
    rec->peak_reserved = rpeak > 0 ? (uint64_t)rpeak : 0;
    return GPU_OK;
}

/* ---- one run ---------------------------------------------------------------------------------- */

static uint64_t model_releasable(const struct gpu_cache_map *m, size_t i)
{
    const struct gpu_cache_seg_info *g = &m->segs[i];
    uint64_t page = g->pool == GPU_CACHE_SMALL ? GPU_CACHE_SMALL_BUFFER : GPU_CACHE_LARGE_BUFFER;
    uint64_t rel = 0, fr = 0;
    bool busy = false;
    for (size_t j = 0; j < g->nblocks; j++) {
        const struct gpu_cache_block_info *b = &m->blocks[g->first_block + j];
        if (b->allocated) {
            busy = true;
            continue;
        }
        fr += b->size;
        uint64_t ra = b->addr - g->addr, rb = ra + b->size, first = (ra + page - 1) / page;
        if (rb / page > first) rel += (rb / page - first) * page;
    }
    return g->expandable ? rel : busy ? 0 : fr;
}

static void side_from_model(struct gpu_caching *c, const struct gpu_caching_stats *base,
                            struct gpu_snap_side *o)
{
    struct gpu_caching_stats st;
    gpu_caching_stats(c, &st);
    o->peak_reserved = st.reserved_bytes[GPU_CACHE_ALL].peak;
    o->end_reserved = st.reserved_bytes[GPU_CACHE_ALL].current;
    o->end_active = st.allocated_bytes[GPU_CACHE_ALL].current;
    o->peak_requested = st.requested_bytes[GPU_CACHE_ALL].peak;
    o->device_allocs = st.num_device_alloc - base->num_device_alloc;
    o->device_frees = st.num_device_free - base->num_device_free;
    struct gpu_cache_map m;
    if (gpu_caching_segments(c, &m) != GPU_OK) return;
    o->end_segments = m.nsegs;
    uint64_t *sz = malloc((m.nsegs + 1) * sizeof *sz);
    for (size_t i = 0; sz && i < m.nsegs; i++) sz[i] = m.segs[i].size;
    if (sz) o->end_sizes_sig = sizes_sig(sz, m.nsegs);
    free(sz);
    for (size_t i = 0; i < m.nsegs; i++) {
        uint64_t fr = 0;
        for (size_t j = 0; j < m.segs[i].nblocks; j++) {
            const struct gpu_cache_block_info *b = &m.blocks[m.segs[i].first_block + j];
            if (!b->allocated) fr += b->size;
        }
        o->end_non_releasable += fr - model_releasable(&m, i);
    }
    gpu_cache_map_free(&m);
}

struct seeded {
    uint64_t *addr;     /* per pre-trace allocation: its model address, FAILED if none */
    size_t unplaced;    /* placed by the model itself */
};

/* The block size a pre-trace allocation had: the final state's when it lives on, else its
 * request rounded, taking the rest up to `room` when PyTorch would not have split it off. */
static uint64_t pre_size(struct gpu_caching *c, const struct plan *pl, const struct gpu_snap_pre *p,
                         uint64_t room, bool small, bool expandable)
{
    uint64_t size;
    if (p->block >= 0) return gpu_snapshot_block(pl->s, (size_t)p->block)->size;
    gpu_caching_sizes(c, p->size ? p->size : 1, &size, NULL);
    if (size >= room) return room;
    uint64_t rest = room - size;
    struct gpu_caching_opts o;
    gpu_caching_get_opts(c, &o);
    bool split = small || expandable ? rest >= GPU_CACHE_MIN_BLOCK_SIZE
                                     : size < o.max_split_size && rest > GPU_CACHE_SMALL_SIZE;
    return split ? size : room;
}

/* The cache before the trace, into c: its segments (or mapped ranges) where PyTorch had them,
 * the blocks live then at their addresses. Allocations no recorded segment holds are placed by
 * the model (counted). */
static gpu_status seed(struct gpu_caching *c, const struct plan *pl, bool recorded_cache,
                       struct seeded *sd, char *err, size_t n)
{
    struct gpu_caching_opts o;
    gpu_caching_get_opts(c, &o);
    sd->addr = malloc((pl->npre + 1) * sizeof *sd->addr);
    if (!sd->addr) return fail(GPU_ERR_HOST_NOMEM, err, n);
    for (size_t i = 0; i < pl->npre; i++) sd->addr[i] = FAILED;
    if (recorded_cache && !o.expandable_segments) {
        /* a segment that cannot be had (out of capacity) stays out: its blocks go below */
        for (size_t i = 0; i < pl->nsegs; i++)
            (void)gpu_caching_seed_segment(c, pl->segs[i].addr, pl->segs[i].size, pl->segs[i].small);
        size_t k = 0;
        for (size_t si = 0; si < pl->nsegs; si++) {
            const struct start_seg *g = &pl->segs[si];
            while (k < pl->npre && pl->pre[k].addr < g->addr) k++;
            for (; k < pl->npre && pl->pre[k].addr < g->addr + g->size; k++) {
                const struct gpu_snap_pre *p = &pl->pre[k];
                uint64_t end = k + 1 < pl->npre && pl->pre[k + 1].addr < g->addr + g->size
                                   ? pl->pre[k + 1].addr : g->addr + g->size;
                if (end <= p->addr) continue; /* two at one address: the later is placed below */
                uint64_t sz = pre_size(c, pl, p, end - p->addr, g->small, false);
                if (gpu_caching_seed_block(c, p->addr, sz, p->size) == GPU_OK) sd->addr[k] = p->addr;
            }
        }
    } else if (recorded_cache) {
        uint64_t base_rec[2] = {UINT64_MAX, UINT64_MAX}, base[2] = {0, 0};
        for (size_t i = 0; i < pl->nranges; i++)
            if (pl->ranges[i].addr < base_rec[pl->ranges[i].small])
                base_rec[pl->ranges[i].small] = pl->ranges[i].addr;
        for (size_t i = 0; i < pl->nranges; i++) {
            const struct gpu_snap_range *g = &pl->ranges[i];
            if (gpu_caching_seed_expandable(c, g->small, g->addr - base_rec[g->small], g->size,
                                            &base[g->small]) != GPU_OK)
                continue;
            for (size_t k = 0; k < pl->npre; k++) {
                const struct gpu_snap_pre *p = &pl->pre[k];
                if (p->addr < g->addr || p->addr >= g->addr + g->size) continue;
                uint64_t end = k + 1 < pl->npre && pl->pre[k + 1].addr < g->addr + g->size
                                   ? pl->pre[k + 1].addr : g->addr + g->size;
                if (end <= p->addr) continue;
                uint64_t at = base[g->small] + (p->addr - base_rec[g->small]);
                uint64_t sz = pre_size(c, pl, p, end - p->addr, g->small, true);
                if (gpu_caching_seed_block(c, at, sz, p->size) == GPU_OK) sd->addr[k] = at;
            }
        }
    }
    /* the rest: the model places them, in address order */
    char msg[512];
    for (size_t i = 0; i < pl->npre; i++) {
        if (sd->addr[i] != FAILED || !pl->pre[i].size) continue;
        gpu_status a = gpu_caching_malloc(c, pl->pre[i].size, &sd->addr[i], msg, sizeof msg);
        if (a == GPU_ERR_NOMEM) sd->addr[i] = FAILED;
        else if (a != GPU_OK) {
            gpu_errf(err, n, "%s", msg);
            return a;
        }
        if (recorded_cache) sd->unplaced++;
    }
    return GPU_OK;
}

static gpu_status run(const struct plan *pl, const struct gpu_caching_opts *o, uint64_t capacity,
                      bool recorded_cache, struct gpu_snap_side *out, uint64_t *series,
                      const gpu_cancel_flag *cancel, size_t *unplaced, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    out->first_oom_event = -1;
    struct rdev d = {.rec = pl->rec, .nrec = pl->nrec};
    struct gpu_u64map m = {0};
    struct seeded sd = {0};
    d.taken = calloc(pl->nrec + 1, 1);
    struct gpu_caching *c = NULL;
    gpu_status st = GPU_OK;
    if (!d.taken || !gpu_u64map_init(&m, 1024) ||
        gpu_model_dev_new(capacity ? capacity : UNLIMITED, &d.inner) != GPU_OK)
        st = fail(GPU_ERR_HOST_NOMEM, err, n);
    else st = gpu_caching_new(o, &rdev_ops, &d, &c, err, n);
    if (st == GPU_OK) st = seed(c, pl, recorded_cache, &sd, err, n);
    if (unplaced) *unplaced = sd.unplaced;
    struct gpu_caching_stats base;
    if (st == GPU_OK) {
        gpu_caching_reset_peak(c);
        gpu_caching_stats(c, &base);
        d.matching = !o->expandable_segments;
        for (size_t i = 0; i < pl->npre; i++)
            if (sd.addr[i] == FAILED && pl->pre[i].size && !out->ooms++)
                out->first_oom_bytes = pl->pre[i].size; /* a pre-trace block did not fit */
    }
    char msg[512];
    struct gpu_u64map pre_of = {0}; /* entry that frees a pre-trace allocation -> its index */
    if (st == GPU_OK && !gpu_u64map_init(&pre_of, pl->npre + 1)) st = fail(GPU_ERR_HOST_NOMEM, err, n);
    for (size_t i = 0; st == GPU_OK && i < pl->npre; i++)
        if (pl->pre[i].freed_at >= 0 && !gpu_u64map_put(&pre_of, (uint64_t)pl->pre[i].freed_at, i))
            st = fail(GPU_ERR_HOST_NOMEM, err, n);
    for (size_t i = 0; st == GPU_OK && i < pl->n; i++) {
        if ((i & (GPU_SNAP_CHECK_EVERY - 1)) == 0 && gpu_cancelled(cancel)) {
            st = fail(GPU_ERR_CANCELLED, err, n);
            break;
        }
        const struct gpu_snap_event *e = &pl->ev[i];
        switch (e->action) {
        case GPU_SNAP_ALLOC: {
            uint64_t a = FAILED;
            gpu_status r = e->size ? gpu_caching_malloc(c, e->size, &a, msg, sizeof msg) : GPU_ERR_ARG;
            if (r == GPU_ERR_NOMEM) {
                if (!out->ooms++) {
                    out->first_oom_event = (int64_t)i;
                    out->first_oom_bytes = e->size;
                    snprintf(out->first_oom, sizeof out->first_oom, "%s", msg);
                }
            } else if (r != GPU_OK && r != GPU_ERR_ARG) {
                st = r;
                gpu_errf(err, n, "entry %zu: %s", i, msg);
                break;
            }
            /* a second alloc at a live address leaves the first one allocated */
            if (!gpu_u64map_put(&m, e->addr, r == GPU_OK ? a : FAILED)) st = fail(GPU_ERR_HOST_NOMEM, err, n);
            break;
        }
        case GPU_SNAP_FREE_COMPLETED: {
            size_t at = gpu_u64map_find(&m, e->addr);
            if (at != SIZE_MAX) {
                if (m.val[at] != FAILED) gpu_caching_free(c, m.val[at]);
                gpu_u64map_del_at(&m, at);
            } else if ((at = gpu_u64map_find(&pre_of, i)) != SIZE_MAX) {
                uint64_t a = sd.addr[pre_of.val[at]];
                if (a != FAILED) gpu_caching_free(c, a);
            }
            break;
        }
        case GPU_SNAP_OOM:
            if (capacity && e->size) { /* would the request PyTorch refused fit here? */
                uint64_t a;
                if (gpu_caching_malloc(c, e->size, &a, msg, sizeof msg) == GPU_OK) {
                    out->recorded_ooms_fit++;
                    gpu_caching_free(c, a);
                }
            }
            break;
        }
        if (pl->empty_after[i]) gpu_caching_empty_cache(c);
        if (series) { /* the model's reserved bytes after each entry, for a timeline */
            struct gpu_caching_stats now;
            gpu_caching_stats(c, &now);
            series[i] = now.reserved_bytes[GPU_CACHE_ALL].current;
        }
    }
    if (st == GPU_OK) side_from_model(c, &base, out);
    gpu_caching_destroy(c);
    gpu_model_dev_free(d.inner);
    free(d.taken);
    gpu_u64map_free(&m);
    gpu_u64map_free(&pre_of);
    free(sd.addr);
    return st;
}

/* ---- the comparison --------------------------------------------------------------------------- */

static void compare(struct gpu_snap_replay *r)
{
    const struct gpu_snap_side *a = &r->recorded, *b = &r->model_recorded;
    /* an OOM first: what differs after it follows from it */
    if (r->capacity && (b->ooms || b->recorded_ooms_fit))
        add(r->diffs, &r->ndiffs, GPU_SNAP_DIFF_OOM, r->capacity, b->ooms, b->recorded_ooms_fit,
            a->ooms, 0);
    if (a->peak_reserved != b->peak_reserved)
        add(r->diffs, &r->ndiffs, GPU_SNAP_DIFF_PEAK_RESERVED, a->peak_reserved, b->peak_reserved, 0, 0, 0);
    if (a->device_allocs != b->device_allocs || a->device_frees != b->device_frees)
        add(r->diffs, &r->ndiffs, GPU_SNAP_DIFF_DEVICE_CALLS, a->device_allocs, a->device_frees,
            b->device_allocs, b->device_frees, 0);
    if (a->end_reserved != b->end_reserved || a->end_segments != b->end_segments)
        add(r->diffs, &r->ndiffs, GPU_SNAP_DIFF_END_SEGMENTS, a->end_segments, a->end_reserved,
            b->end_segments, b->end_reserved, 0);
    else if (a->end_sizes_sig != b->end_sizes_sig)
        add(r->diffs, &r->ndiffs, GPU_SNAP_DIFF_END_SIZES, a->end_segments, a->end_reserved, 0, 0, 0);
    if (a->end_non_releasable != b->end_non_releasable)
        add(r->diffs, &r->ndiffs, GPU_SNAP_DIFF_NON_RELEASABLE, a->end_non_releasable,
            b->end_non_releasable, 0, 0, 0);
}

gpu_status gpu_snapshot_replay(const struct gpu_snapshot *s, int device, uint64_t capacity,
                               const struct gpu_caching_opts *whatif, uint64_t *reserved,
                               const gpu_cancel_flag *cancel, struct gpu_snap_replay *r,
                               char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!s || !r) return GPU_ERR_ARG;
    memset(r, 0, sizeof *r);
    r->device = device;
    r->capacity = capacity;
    r->recorded.first_oom_event = -1;
    gpu_snapshot_recorded_opts(s, &r->recorded_opts);
    if (whatif) r->whatif_opts = *whatif, r->have_whatif = true;
    gpu_status st = gpu_snapshot_check_sizes(s, device, NULL, err, n);
    if (st != GPU_OK) return st;
    struct plan pl;
    st = make_plan(s, device, &pl, r);
    if (st == GPU_OK) st = recorded_side(&pl, r);
    if (st != GPU_OK) {
        plan_free(&pl);
        return fail(st, err, n);
    }
    r->seeds = pl.npre;
    for (size_t i = 0; i < pl.npre; i++) r->seed_bytes += pl.pre[i].size;
    bool exp = r->recorded_opts.expandable_segments;
    r->seed_segments = exp ? pl.nranges : pl.nsegs;
    for (size_t i = 0; i < (exp ? pl.nranges : pl.nsegs); i++)
        r->seed_reserved += exp ? pl.ranges[i].size : pl.segs[i].size;
    /* the notes: every approximation that applies here */
    const struct gpu_snap_settings *set = gpu_snapshot_settings(s);
    if (!set->present)
        add(r->notes, &r->nnotes, GPU_SNAP_NOTE_NO_SETTINGS, exp, 0, 0, 0, 0);
    bool differ = false;
    for (size_t i = 1; i < set->nroundup; i++) differ |= set->roundup[i] != set->roundup[0];
    if (differ)
        add(r->notes, &r->nnotes, GPU_SNAP_NOTE_ROUNDUP_INTERVALS,
            r->recorded_opts.roundup_power2_divisions, 0, 0, 0, 0);
    if (set->has_gc && set->gc_threshold > 0)
        add(r->notes, &r->nnotes, GPU_SNAP_NOTE_GC_THRESHOLD, 0, 0, 0, 0, set->gc_threshold);
    if (r->seeds || r->seed_segments)
        add(r->notes, &r->nnotes, GPU_SNAP_NOTE_PRE_TRACE, r->seed_segments, r->seed_reserved,
            r->seeds, r->seed_bytes, 0);
    if (set->trace_overflowed) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_OVERFLOWED, 0, 0, 0, 0, 0);
    size_t nev;
    const struct gpu_snap_event *ev = gpu_snapshot_trace(s, device, &nev);
    uint64_t seen[65536 / 64] = {0}; /* stream indexes are 16 bits */
    for (size_t i = 0; i < nev; i++)
        if (!(seen[ev[i].stream / 64] >> (ev[i].stream % 64) & 1)) {
            seen[ev[i].stream / 64] |= 1ull << (ev[i].stream % 64);
            r->streams++;
        }
    if (r->streams > 1) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_STREAMS, r->streams, 0, 0, 0, 0);
    if (exp) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_EXPANDABLE, 0, 0, 0, 0, 0);
    size_t priv = 0;
    for (size_t i = 0; i < gpu_snapshot_nsegs(s); i++) {
        const struct gpu_snap_segment *g = gpu_snapshot_seg(s, i);
        priv += g->device == device && (g->pool[0] || g->pool[1]);
    }
    if (priv) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_PRIVATE_POOLS, priv, 0, 0, 0, 0);
    if (!capacity) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_NO_CAPACITY, 0, 0, 0, 0, 0);
    if (r->empty_caches) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_EMPTY_CACHE, r->empty_caches, 0, 0, 0, 0);
    char why[512];
    size_t unplaced = 0;
    st = run(&pl, &r->recorded_opts, capacity, true, &r->model_recorded, whatif ? NULL : reserved,
             cancel, &unplaced, why, sizeof why);
    if (unplaced) add(r->notes, &r->nnotes, GPU_SNAP_NOTE_PRE_TRACE_UNPLACED, unplaced, 0, 0, 0, 0);
    /* under other options the cache before the trace would have been another: the same one
     * where the segment kind is the same, else the live blocks placed by the model */
    if (st == GPU_OK && whatif)
        st = run(&pl, whatif, capacity, whatif->expandable_segments == exp, &r->model_whatif,
                 reserved, cancel, NULL, why, sizeof why);
    if (st == GPU_ERR_CANCELLED) gpu_errf(err, n, "%s", why);
    else if (st != GPU_OK) gpu_errf(err, n, "replay: %s", why);
    else compare(r);
    plan_free(&pl);
    return st;
}
