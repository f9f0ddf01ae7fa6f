/* gpu_snap_timeline.c - live and reserved bytes over a snapshot's trace, per column (see
 * gpu_snap_timeline.h). The counting is the summary's (gpu_snapshot.c): alloc adds its size,
 * free_completed takes it away; segment_alloc/map add to reserved, segment_free/unmap take away. */
#include "gpu_snap_timeline.h"

static void step(const struct gpu_snap_event *e, int64_t *live, int64_t *res)
{
    switch (e->action) {
    case GPU_SNAP_ALLOC: *live += (int64_t)e->size; break;
    case GPU_SNAP_FREE_COMPLETED: *live -= (int64_t)e->size; break;
    case GPU_SNAP_SEGMENT_ALLOC:
    case GPU_SNAP_SEGMENT_MAP: *res += (int64_t)e->size; break;
    case GPU_SNAP_SEGMENT_FREE:
    case GPU_SNAP_SEGMENT_UNMAP: *res -= (int64_t)e->size; break;
    }
}

static const struct gpu_snap_trace *trace_of(const struct gpu_snapshot *s, int d)
{
    static const struct gpu_snap_trace none = {NULL, 0};
    return d >= 0 && (size_t)d < s->ntraces ? &s->traces[d] : &none;
}

void gpu_snap_timeline(const struct gpu_snapshot *s, int d, int64_t start_live,
                       int64_t start_reserved, size_t from, size_t to, size_t ncols,
                       struct gpu_snap_column *out)
{
    const struct gpu_snap_trace *tr = trace_of(s, d);
    if (to > tr->n) to = tr->n;
    if (from > to) from = to;
    for (size_t c = 0; c < ncols; c++) out[c] = (struct gpu_snap_column){.first = 0, .last = -1};
    int64_t live = start_live, res = start_reserved;
    for (size_t i = 0; i < from; i++) step(&tr->ev[i], &live, &res);
    size_t span = to - from;
    for (size_t i = from; i < to; i++) {
        step(&tr->ev[i], &live, &res);
        /* event i goes to column floor((i - from) * ncols / span): every column of a window
         * wider than the screen gets events, and a narrow window spreads them out */
        size_t c = (size_t)((unsigned __int128)(i - from) * ncols / span);
        struct gpu_snap_column *k = &out[c];
        if (k->first > k->last) {
            k->first = (int64_t)i;
            k->live_max = live, k->reserved_max = res;
        }
        k->last = (int64_t)i;
        if (live > k->live_max) k->live_max = live;
        if (res > k->reserved_max) k->reserved_max = res;
        k->live_end = live, k->reserved_end = res;
    }
}

void gpu_snap_level_at(const struct gpu_snapshot *s, int d, int64_t start_live,
                       int64_t start_reserved, int64_t i, int64_t *live, int64_t *reserved)
{
    const struct gpu_snap_trace *tr = trace_of(s, d);
    int64_t l = start_live, r = start_reserved;
    for (int64_t k = 0; k <= i && (size_t)k < tr->n; k++) step(&tr->ev[k], &l, &r);
    *live = l, *reserved = r;
}
