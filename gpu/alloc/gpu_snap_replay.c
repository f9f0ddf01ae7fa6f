/* gpu_snap_replay.c - "what if": a snapshot's trace replayed through the caching-allocator
 * model (gpu_caching.c), under the options the snapshot recorded and under others, side by
 * side with what PyTorch did (its segment events and final segments). docs/snapshot.md says
 * what is replayed and what is approximated; differences under the recorded options are
 * findings about the model and are listed, never hidden. */
#include "gpu_snapshot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_u64map.h"

#define UNLIMITED (1ull << 42)      /* the model device's largest capacity: 4 TiB */
#define MODEL_ADDR_END (1ull << 43) /* the model device hands out addresses below this */
#define MATCH_WINDOW 16             /* recorded segment_allocs looked ahead for an address */
#define FAILED UINT64_MAX           /* a traced allocation the model could not serve */

static void add_line(char (*lines)[256], size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_line(char (*lines)[256], size_t *n, const char *fmt, ...)
{
    if (*n >= 8) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lines[(*n)++], 256, fmt, ap);
    va_end(ap);
}

void gpu_snapshot_recorded_opts(const struct gpu_snapshot *s, struct gpu_caching_opts *o,
                                char *note, size_t n)
{
    gpu_caching_opts_default(o);
    if (note && n) note[0] = 0;
    const struct gpu_snap_settings *st = &s->settings;
    if (st->max_split_size >= GPU_CACHE_LARGE_BUFFER && st->max_split_size < (1ull << 62))
        o->max_split_size = st->max_split_size;
    o->expandable_segments = st->expandable == 1;
    for (size_t i = 0; st->expandable < 0 && i < s->nsegs; i++)
        o->expandable_segments |= s->segs[i].expandable;
    int64_t most = 0;
    bool differ = false;
    for (size_t i = 0; i < st->nroundup; i++) {
        if (st->roundup[i] != st->roundup[0]) differ = true;
        if (st->roundup[i] > most) most = st->roundup[i];
    }
    if (most > 1 && most <= 1024 && !(most & (most - 1))) o->roundup_power2_divisions = (unsigned)most;
    if (note && n) {
        size_t k = 0;
        if (differ)
            k += (size_t)snprintf(note + k, n - k, "roundup_power2_divisions differs by size "
                                  "interval; the model uses one value for all (%lld). ",
                                  (long long)most);
        if (st->has_gc && st->gc_threshold > 0 && k < n)
            snprintf(note + k, n - k, "garbage_collection_threshold %g is not modelled: the model "
                     "never frees cached blocks on its own.", st->gc_threshold);
    }
}

/* ---- the replay device: PyTorch's own segment addresses where they fit ---------------------- */

struct rseg {
    uint64_t addr, size;
};

struct rdev {
    uint64_t capacity, used;
    struct gpu_model_dev *inner;    /* addresses when no recorded one fits */
    struct rseg *rec;               /* the trace's segment_alloc entries, in order */
    size_t nrec, cursor;
    bool *taken;
    struct rseg *live;              /* recorded addresses the model holds now */
    size_t nlive, cap;
    bool matching;
};

static bool overlaps(const struct rdev *d, uint64_t a, uint64_t n)
{
    for (size_t i = 0; i < d->nlive; i++)
        if (a < d->live[i].addr + d->live[i].size && d->live[i].addr < a + n) return true;
    return false;
}

static gpu_status rdev_alloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
    struct rdev *d = ctx;
    if (bytes > d->capacity - d->used) return GPU_ERR_NOMEM;
    for (size_t i = d->cursor; d->matching && i < d->nrec && i < d->cursor + MATCH_WINDOW; i++) {
        const struct rseg *r = &d->rec[i];
        if (d->taken[i] || r->size != bytes || r->addr < MODEL_ADDR_END ||
            r->addr + bytes < r->addr || overlaps(d, r->addr, bytes))
            continue;
        if (d->nlive == d->cap) {
            size_t cap = d->cap ? d->cap * 2 : 64;
            struct rseg *l = realloc(d->live, cap * sizeof *l);
            if (!l) break;
            d->live = l;
            d->cap = cap;
        }
        d->taken[i] = true;
        while (d->cursor < d->nrec && d->taken[d->cursor]) d->cursor++;
        d->live[d->nlive++] = *r;
        d->used += bytes;
        *addr = r->addr;
        return GPU_OK;
    }
    gpu_status st = gpu_model_dev_ops.seg_alloc(d->inner, bytes, addr);
    if (st == GPU_OK) d->used += bytes;
    return st;
}

static void rdev_free(void *ctx, uint64_t addr, uint64_t bytes)
{
    struct rdev *d = ctx;
    d->used -= bytes;
    for (size_t i = 0; i < d->nlive; i++)
        if (d->live[i].addr == addr) {
            d->live[i] = d->live[--d->nlive];
            return;
        }
    gpu_model_dev_ops.seg_free(d->inner, addr, bytes);
}

static gpu_status rdev_info(void *ctx, uint64_t *free_b, uint64_t *total_b)
{
    const struct rdev *d = ctx;
    *free_b = d->capacity - d->used;
    *total_b = d->capacity;
    return GPU_OK;
}

static const struct gpu_seg_ops rdev_ops = {rdev_alloc, rdev_free, rdev_info};

/* ---- addresses -> model addresses ----------------------------------------------------------- */

/* ---- one replay ----------------------------------------------------------------------------- */

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

struct seed {
    uint64_t addr, size;
    int64_t freed_at; /* the trace event that frees it, -1: live at the end */
};

static int seed_cmp(const void *a, const void *b)
{
    const struct seed *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->freed_at < y->freed_at ? -1 : x->freed_at > y->freed_at;
}

struct plan { /* what both replays share */
    const struct gpu_snap_event *ev;
    size_t n;
    struct seed *seeds;
    size_t nseeds;
    int64_t *seed_of_free;   /* per event: the seed a free_completed frees, or -1 */
    bool *empty_after;       /* per event: an empty_cache() happens after it */
    struct rseg *rec;
    size_t nrec;
};

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
    if (gpu_caching_segments(c, &m) == GPU_OK) {
        o->end_segments = m.nsegs;
        uint64_t *sz = malloc((m.nsegs + 1) * sizeof *sz);
        for (size_t i = 0; sz && i < m.nsegs; i++) sz[i] = m.segs[i].size;
        if (sz) o->end_sizes_sig = sizes_sig(sz, m.nsegs);
        free(sz);
        for (size_t i = 0; i < m.nsegs; i++) {
            uint64_t fr = 0;
            bool busy = false;
            for (size_t j = 0; j < m.segs[i].nblocks; j++) {
                const struct gpu_cache_block_info *b = &m.blocks[m.segs[i].first_block + j];
                if (b->allocated) busy = true;
                else fr += b->size;
            }
            if (busy) o->end_non_releasable += fr;
        }
        gpu_cache_map_free(&m);
    }
}

static gpu_status run(const struct plan *pl, const struct gpu_caching_opts *o, uint64_t capacity,
                      bool use_recorded_addrs, struct gpu_snap_side *out, uint64_t *series,
                      char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    out->first_oom_event = -1;
    struct rdev d = {.capacity = capacity ? capacity : UNLIMITED, .rec = pl->rec, .nrec = pl->nrec};
    struct gpu_u64map m = {0};
    bool mok = gpu_u64map_init(&m, 1024);
    uint64_t *seed_addr = malloc((pl->nseeds + 1) * sizeof *seed_addr);
    d.taken = calloc(pl->nrec + 1, 1);
    struct gpu_caching *c = NULL;
    gpu_status st = GPU_OK;
    if (!mok || !seed_addr || !d.taken ||
        gpu_model_dev_new(UNLIMITED, &d.inner) != GPU_OK) {
        st = GPU_ERR_HOST_NOMEM;
        snprintf(err, n, "%s", gpu_status_str(st));
    } else {
        st = gpu_caching_new(o, &rdev_ops, &d, &c, err, n);
    }
    char msg[512];
    if (st == GPU_OK) { /* the blocks that were live before the trace began */
        for (size_t i = 0; i < pl->nseeds; i++) {
            gpu_status a = pl->seeds[i].size
                               ? gpu_caching_malloc(c, pl->seeds[i].size, &seed_addr[i], msg, sizeof msg)
                               : GPU_ERR_ARG;
            if (a == GPU_ERR_NOMEM && !out->ooms++) {
                out->first_oom_event = -1;
                out->first_oom_bytes = pl->seeds[i].size;
                snprintf(out->first_oom, sizeof out->first_oom, "%s", msg);
            } else if (a != GPU_OK && a != GPU_ERR_NOMEM && a != GPU_ERR_ARG) {
                st = a;
                snprintf(err, n, "%s", msg);
                break;
            }
            if (a != GPU_OK) seed_addr[i] = FAILED;
        }
    }
    struct gpu_caching_stats base;
    if (st == GPU_OK) {
        gpu_caching_reset_peak(c);
        gpu_caching_stats(c, &base);
        d.matching = use_recorded_addrs;
    }
    for (size_t i = 0; st == GPU_OK && i < pl->n; i++) {
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
                snprintf(err, n, "event %zu: %s", i, msg);
                break;
            }
            /* a second alloc at a live address leaves the first one allocated */
            if (!gpu_u64map_put(&m, e->addr, r == GPU_OK ? a : FAILED)) {
                st = GPU_ERR_HOST_NOMEM;
                snprintf(err, n, "%s", gpu_status_str(st));
            }
            break;
        }
        case GPU_SNAP_FREE_COMPLETED: {
            size_t at = gpu_u64map_find(&m, e->addr);
            if (at != SIZE_MAX) {
                if (m.val[at] != FAILED) gpu_caching_free(c, m.val[at]);
                gpu_u64map_del_at(&m, at);
            } else if (pl->seed_of_free[i] >= 0) {
                uint64_t a = seed_addr[pl->seed_of_free[i]];
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
    free(d.live);
    free(d.taken);
    gpu_u64map_free(&m);
    free(seed_addr);
    return st;
}

/* ---- the plan, and what PyTorch did --------------------------------------------------------- */

static gpu_status make_plan(const struct gpu_snapshot *s, int dev, struct plan *pl,
                            struct gpu_snap_replay *r, char *err, size_t n)
{
    memset(pl, 0, sizeof *pl);
    const struct gpu_snap_trace *tr = (size_t)dev < s->ntraces ? &s->traces[dev] : NULL;
    pl->ev = tr ? tr->ev : NULL;
    pl->n = tr ? tr->n : 0;
    size_t nblk = 0;
    for (size_t i = 0; i < s->nsegs; i++)
        if (s->segs[i].device == dev) nblk += s->segs[i].nblocks;
    pl->seeds = malloc((pl->n + nblk + 1) * sizeof *pl->seeds);
    pl->seed_of_free = malloc((pl->n + 1) * sizeof *pl->seed_of_free);
    pl->empty_after = calloc(pl->n + 1, 1);
    pl->rec = malloc((pl->n + 1) * sizeof *pl->rec);
    struct gpu_u64map m = {0};
    if (!pl->seeds || !pl->seed_of_free || !pl->empty_after || !pl->rec || !gpu_u64map_init(&m, 1024)) {
        gpu_u64map_free(&m);
        snprintf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    struct gpu_snap_side *rec = &r->recorded;
    int64_t cur = 0, rcur = 0;
    for (size_t i = 0; i < pl->n; i++) {
        const struct gpu_snap_event *e = &pl->ev[i];
        pl->seed_of_free[i] = -1;
        switch (e->action) {
        case GPU_SNAP_ALLOC:
            if (!gpu_u64map_put(&m, e->addr, i)) {
                gpu_u64map_free(&m);
                snprintf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
                return GPU_ERR_HOST_NOMEM;
            }
            break;
        case GPU_SNAP_FREE_COMPLETED: {
            size_t at = gpu_u64map_find(&m, e->addr);
            if (at != SIZE_MAX) gpu_u64map_del_at(&m, at);
            else {
                pl->seed_of_free[i] = (int64_t)pl->nseeds;
                pl->seeds[pl->nseeds++] = (struct seed){e->addr, e->size, (int64_t)i};
            }
            break;
        }
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
    uint64_t *sz = malloc((s->nsegs + 1) * sizeof *sz);
    if (!sz) {
        gpu_u64map_free(&m);
        snprintf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    for (size_t i = 0; i < s->nsegs; i++) {
        const struct gpu_snap_segment *sg = &s->segs[i];
        if (sg->device != dev) continue;
        sz[rec->end_segments++] = sg->size;
        rec->end_reserved += sg->size;
        bool busy = false;
        uint64_t fr = 0;
        for (size_t j = 0; j < sg->nblocks; j++) {
            const struct gpu_snap_block *b = &s->blocks[sg->first_block + j];
            if (b->state == GPU_SNAP_INACTIVE) {
                fr += b->size;
                continue;
            }
            busy = true;
            rec->end_active += b->size;
            if (gpu_u64map_find(&m, b->addr) == SIZE_MAX)
                pl->seeds[pl->nseeds++] = (struct seed){b->addr, b->requested, -1};
        }
        if (busy) rec->end_non_releasable += fr;
    }
    rec->end_sizes_sig = sizes_sig(sz, rec->end_segments);
    free(sz);
    gpu_u64map_free(&m);
    /* seeds go in first, in address order; their frees keep pointing at them */
    qsort(pl->seeds, pl->nseeds, sizeof *pl->seeds, seed_cmp);
    for (size_t i = 0; i < pl->nseeds; i++) {
        r->seed_bytes += pl->seeds[i].size;
        if (pl->seeds[i].freed_at >= 0) pl->seed_of_free[pl->seeds[i].freed_at] = (int64_t)i;
    }
    r->seeds = pl->nseeds;
    /* recorded live requested and reserved bytes, as in the summary */
    for (size_t i = 0; i < pl->nseeds; i++) cur += (int64_t)pl->seeds[i].size;
    int64_t sum = 0;
    for (size_t i = 0; i < pl->n; i++) {
        uint8_t a = pl->ev[i].action;
        if (a == GPU_SNAP_SEGMENT_ALLOC || a == GPU_SNAP_SEGMENT_MAP) sum += (int64_t)pl->ev[i].size;
        if (a == GPU_SNAP_SEGMENT_FREE || a == GPU_SNAP_SEGMENT_UNMAP) sum -= (int64_t)pl->ev[i].size;
    }
    rcur = (int64_t)rec->end_reserved - sum;
    int64_t peak = cur, rpeak = rcur;
    for (size_t i = 0; i < pl->n; i++) {
        const struct gpu_snap_event *e = &pl->ev[i];
        if (e->action == GPU_SNAP_ALLOC) cur += (int64_t)e->size;
        if (e->action == GPU_SNAP_FREE_COMPLETED) cur -= (int64_t)e->size;
        if (e->action == GPU_SNAP_SEGMENT_ALLOC || e->action == GPU_SNAP_SEGMENT_MAP) rcur += (int64_t)e->size;
        if (e->action == GPU_SNAP_SEGMENT_FREE || e->action == GPU_SNAP_SEGMENT_UNMAP) rcur -= (int64_t)e->size;
        if (cur > peak) peak = cur;
        if (rcur > rpeak) rpeak = rcur;
    }
    rec->peak_requested = peak > 0 ? (uint64_t)peak : 0;
    rec->peak_reserved = rpeak > 0 ? (uint64_t)rpeak : 0;
    return GPU_OK;
}

static void plan_free(struct plan *pl)
{
    free(pl->seeds);
    free(pl->seed_of_free);
    free(pl->empty_after);
    free(pl->rec);
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

/* "2.92 GiB (3139436544 B)" */
static const char *both(uint64_t v, char *b, size_t n)
{
    char h[32];
    gpu_cache_format_size(v, h, sizeof h);
    snprintf(b, n, "%s (%llu B)", h, (unsigned long long)v);
    return b;
}

static void compare(struct gpu_snap_replay *r)
{
    const struct gpu_snap_side *a = &r->recorded, *b = &r->model_recorded;
    char x[64], y[64];
    /* an OOM first: what differs after it follows from it */
    if (r->capacity && (b->ooms || b->recorded_ooms_fit))
        add_line(r->diffs, &r->ndiffs,
                 "out of memory on %s: the model failed %zu traced allocations the recorded run "
                 "served, and could serve %zu of the %zu requests the recorded run refused",
                 both(r->capacity, x, sizeof x), b->ooms, b->recorded_ooms_fit, a->ooms);
    if (a->peak_reserved != b->peak_reserved)
        add_line(r->diffs, &r->ndiffs, "peak reserved: recorded %s, model %s",
                 both(a->peak_reserved, x, sizeof x), both(b->peak_reserved, y, sizeof y));
    if (a->device_allocs != b->device_allocs || a->device_frees != b->device_frees)
        add_line(r->diffs, &r->ndiffs,
                 "device calls: recorded %llu allocs / %llu frees, model %llu / %llu",
                 (unsigned long long)a->device_allocs, (unsigned long long)a->device_frees,
                 (unsigned long long)b->device_allocs, (unsigned long long)b->device_frees);
    if (a->end_reserved != b->end_reserved || a->end_segments != b->end_segments)
        add_line(r->diffs, &r->ndiffs,
                 "at the end: recorded %llu segments holding %s, model %llu holding %s",
                 (unsigned long long)a->end_segments, both(a->end_reserved, x, sizeof x),
                 (unsigned long long)b->end_segments, both(b->end_reserved, y, sizeof y));
    else if (a->end_sizes_sig != b->end_sizes_sig)
        add_line(r->diffs, &r->ndiffs, "at the end: %llu segments holding %s on both sides, "
                 "but of other sizes", (unsigned long long)a->end_segments,
                 both(a->end_reserved, x, sizeof x));
    if (a->end_non_releasable != b->end_non_releasable)
        add_line(r->diffs, &r->ndiffs, "non-releasable at the end: recorded %s, model %s",
                 both(a->end_non_releasable, x, sizeof x),
                 both(b->end_non_releasable, y, sizeof y));
}

gpu_status gpu_snapshot_replay(const struct gpu_snapshot *s, int device, uint64_t capacity,
                               const struct gpu_caching_opts *whatif, struct gpu_snap_replay *r,
                               char *err, size_t n)
{
    return gpu_snapshot_replay_series(s, device, capacity, whatif, r, NULL, err, n);
}

gpu_status gpu_snapshot_replay_series(const struct gpu_snapshot *s, int device, uint64_t capacity,
                                      const struct gpu_caching_opts *whatif,
                                      struct gpu_snap_replay *r, uint64_t *reserved, char *err,
                                      size_t n)
{
    if (err && n) err[0] = 0;
    if (!s || !r) return GPU_ERR_ARG;
    memset(r, 0, sizeof *r);
    r->device = device;
    r->capacity = capacity;
    r->recorded.first_oom_event = -1;
    char note[512];
    gpu_snapshot_recorded_opts(s, &r->recorded_opts, note, sizeof note);
    if (whatif) r->whatif_opts = *whatif, r->have_whatif = true;
    struct plan pl;
    gpu_status st = gpu_snapshot_check_sizes(s, device, NULL, err, n);
    if (st != GPU_OK) return st;
    st = make_plan(s, device, &pl, r, err, n);
    if (st != GPU_OK) {
        plan_free(&pl);
        return st;
    }
    /* the notes: every approximation that applies here */
    if (!s->settings.present)
        add_line(r->notes, &r->nnotes, "no allocator_settings in the snapshot (PyTorch before "
                 "2.2): the recorded options are taken as the defaults%s",
                 r->recorded_opts.expandable_segments ? " with expandable segments" : "");
    if (note[0]) add_line(r->notes, &r->nnotes, "%s", note);
    if (r->seeds)
        add_line(r->notes, &r->nnotes, "%zu blocks (%llu B requested) were live before the "
                 "trace's first entry (allocated earlier, or dropped from the ring buffer): the "
                 "model allocates them first, in address order", r->seeds,
                 (unsigned long long)r->seed_bytes);
    if (s->settings.trace_overflowed)
        add_line(r->notes, &r->nnotes, "the trace ring buffer overflowed: its oldest entries "
                 "are gone");
    {
        size_t ns = 0;
        const struct gpu_snap_trace *tr = (size_t)device < s->ntraces ? &s->traces[device] : NULL;
        int64_t first = 0;
        for (size_t i = 0; tr && i < tr->n; i++) {
            if (i == 0) first = tr->ev[i].stream, ns = 1;
            else if (tr->ev[i].stream != first) ns = 2;
        }
        r->streams = ns;
        if (ns > 1)
            add_line(r->notes, &r->nnotes, "more than one stream: the model has one, so blocks "
                     "freed on one stream are reused by another at once (PyTorch keeps each "
                     "stream's free blocks apart)");
    }
    if (r->recorded_opts.expandable_segments)
        add_line(r->notes, &r->nnotes, "expandable segments were on: recorded device calls are "
                 "segment_map/segment_unmap entries, the model's are its page maps");
    if (!capacity)
        add_line(r->notes, &r->nnotes, "no --capacity: the model device is unlimited, so no OOM "
                 "is judged");
    char why[512];
    st = run(&pl, &r->recorded_opts, capacity, !r->recorded_opts.expandable_segments,
             &r->model_recorded, whatif ? NULL : reserved, why, sizeof why);
    if (st == GPU_OK && whatif)
        st = run(&pl, whatif, capacity, !whatif->expandable_segments, &r->model_whatif, reserved,
                 why, sizeof why);
    if (st != GPU_OK) snprintf(err, n, "replay: %s", why);
    else compare(r);
    plan_free(&pl);
    return st;
}
