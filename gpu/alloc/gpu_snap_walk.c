/* gpu_snap_walk.c - the one walk over a snapshot's trace (gpu_snap_walk.h). The pairs, the
 * allocations live before the trace and the levels before entry 0 are made once, at load; the
 * rest walks the compact entries on demand, linear in the entries it covers. */
#include "gpu_snap_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_u64map.h"

#define SEG_WORK_LIMIT 50000000ull /* interval steps one segment_at may spend */

void gpu_snap_step(const struct gpu_snap_event *e, int64_t *live, int64_t *res)
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

static const struct gpu_snap_dev *dev_of(const struct gpu_snapshot *s, int d)
{
    static const struct gpu_snap_dev none = {NULL, 0, NULL, NULL, 0, 0, 0};
    return d >= 0 && (size_t)d < s->ntraces ? &s->dev[d] : &none;
}

/* ---- made at load ------------------------------------------------------------------------- */

void gpu_snap_walk_free(struct gpu_snap_dev *d)
{
    free(d->ev);
    free(d->pair);
    free(d->pre);
    memset(d, 0, sizeof *d);
}

static int pre_cmp(const void *a, const void *b)
{
    const struct gpu_snap_pre *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->freed_at < y->freed_at ? -1 : x->freed_at > y->freed_at;
}

static gpu_status prepare_dev(struct gpu_snapshot *s, int d, const gpu_cancel_flag *cancel,
                              char *err, size_t n)
{
    struct gpu_snap_dev *dv = &s->dev[d];
    size_t nactive = 0, ev_free = 0;
    gpu_status st = gpu_snapshot_check_sizes(s, d, &nactive, err, n);
    if (st != GPU_OK) return st;
    for (size_t i = 0; i < dv->n; i++) ev_free += dv->ev[i].action == GPU_SNAP_FREE_COMPLETED;
    dv->pair = malloc((dv->n ? dv->n : 1) * sizeof *dv->pair);
    dv->pre = malloc((ev_free + nactive + 1) * sizeof *dv->pre);
    struct gpu_u64map live = {0};
    if (!dv->pair || !dv->pre || !gpu_u64map_init(&live, 1024)) {
        gpu_u64map_free(&live);
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    bool ok = true;
    for (size_t i = 0; i < dv->n && ok; i++) {
        if ((i & (GPU_SNAP_CHECK_EVERY - 1)) == 0 && gpu_cancelled(cancel)) {
            gpu_u64map_free(&live);
            gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_CANCELLED));
            return GPU_ERR_CANCELLED;
        }
        const struct gpu_snap_event *e = &dv->ev[i];
        dv->pair[i] = GPU_SNAP_NONE;
        if (e->action == GPU_SNAP_ALLOC) {
            /* a second alloc at a live address: the first stays live for good, as memory_viz
             * shows it; the next free there ends the second */
            ok = gpu_u64map_put(&live, e->addr, i);
        } else if (e->action == GPU_SNAP_FREE_COMPLETED) {
            size_t at = gpu_u64map_find(&live, e->addr);
            if (at == SIZE_MAX) {
                dv->pre[dv->npre++] = (struct gpu_snap_pre){e->addr, e->size, (int64_t)i, e->stack, -1};
            } else {
                size_t a = (size_t)live.val[at];
                dv->pair[a] = (uint32_t)i;
                dv->pair[i] = (uint32_t)a;
                gpu_u64map_del_at(&live, at);
            }
        }
    }
    int64_t reserved = 0;
    for (size_t i = 0; i < s->nsegs && ok; i++) {
        const struct gpu_snap_segment *sg = &s->segs[i];
        if (sg->device != d) continue;
        reserved += (int64_t)sg->size;
        for (size_t j = 0; j < sg->nblocks; j++) {
            size_t bi = sg->first_block + j;
            const struct gpu_snap_block *b = &s->blocks[bi];
            if (b->state != GPU_SNAP_INACTIVE && gpu_u64map_find(&live, b->addr) == SIZE_MAX)
                dv->pre[dv->npre++] = (struct gpu_snap_pre){b->addr, b->requested, -1, b->stack,
                                                           (int32_t)bi};
        }
    }
    gpu_u64map_free(&live);
    if (!ok) {
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    qsort(dv->pre, dv->npre, sizeof *dv->pre, pre_cmp);
    for (size_t i = 0; i < dv->npre; i++) dv->start_live += (int64_t)dv->pre[i].size;
    int64_t delta = 0, unused = 0;
    for (size_t i = 0; i < dv->n; i++) gpu_snap_step(&dv->ev[i], &unused, &delta);
    dv->start_reserved = reserved - delta;
    return GPU_OK;
}

gpu_status gpu_snap_walk_prepare(struct gpu_snapshot *s, const gpu_cancel_flag *cancel, char *err,
                                 size_t n)
{
    /* one entry per device up to the highest with a segment or a trace */
    size_t nd = s->ntraces;
    for (size_t i = 0; i < s->nsegs; i++)
        if ((size_t)s->segs[i].device + 1 > nd) nd = (size_t)s->segs[i].device + 1;
    if (nd > s->ntraces) {
        struct gpu_snap_dev *dv = realloc(s->dev, nd * sizeof *dv);
        if (!dv) {
            gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
            return GPU_ERR_HOST_NOMEM;
        }
        memset(dv + s->ntraces, 0, (nd - s->ntraces) * sizeof *dv);
        s->dev = dv;
        s->ntraces = nd;
    }
    for (size_t d = 0; d < nd; d++) {
        gpu_status st = prepare_dev(s, (int)d, cancel, err, n);
        if (st != GPU_OK) return st;
    }
    return GPU_OK;
}

uint32_t gpu_snap_pair(const struct gpu_snapshot *s, int d, size_t i)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    return i < dv->n ? dv->pair[i] : GPU_SNAP_NONE;
}

const struct gpu_snap_pre *gpu_snap_pre_trace(const struct gpu_snapshot *s, int d, size_t *n)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    *n = dv->npre;
    return dv->pre;
}

void gpu_snap_start(const struct gpu_snapshot *s, int d, int64_t *live, int64_t *reserved)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    *live = dv->start_live;
    *reserved = dv->start_reserved;
}

/* ---- levels and the timeline -------------------------------------------------------------- */

void gpu_snap_level_at(const struct gpu_snapshot *s, int d, int64_t i, int64_t *live,
                       int64_t *reserved)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    int64_t l = dv->start_live, r = dv->start_reserved;
    for (int64_t k = 0; k <= i && (size_t)k < dv->n; k++) gpu_snap_step(&dv->ev[k], &l, &r);
    *live = l, *reserved = r;
}

gpu_status gpu_snap_timeline(const struct gpu_snapshot *s, int d, size_t from, size_t to,
                             size_t ncols, struct gpu_snap_column *out, const gpu_cancel_flag *cancel)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    if (to > dv->n) to = dv->n;
    if (from > to) from = to;
    for (size_t c = 0; c < ncols; c++) out[c] = (struct gpu_snap_column){.first = 0, .last = -1};
    int64_t live = dv->start_live, res = dv->start_reserved;
    size_t span = to - from;
    for (size_t i = 0; i < to; i++) {
        if ((i & (GPU_SNAP_CHECK_EVERY - 1)) == 0 && gpu_cancelled(cancel)) return GPU_ERR_CANCELLED;
        gpu_snap_step(&dv->ev[i], &live, &res);
        if (i < from) continue;
        /* entry i goes to column floor((i - from) * ncols / span): every column of a window
         * wider than the screen gets entries, and a narrow window spreads them out */
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
    return GPU_OK;
}

/* ---- what is live at a cursor --------------------------------------------------------------- */

static bool live_after(uint32_t partner, int64_t cursor)
{
    return partner == GPU_SNAP_NONE || (int64_t)partner > cursor;
}

/* Visit every allocation live just after the cursor: pre-trace ones, then the trace's. */
typedef void (*live_fn)(void *ud, const struct gpu_snap_live *l);

static void each_live(const struct gpu_snapshot *s, int d, int64_t cursor, live_fn fn, void *ud)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    for (size_t i = 0; i < dv->npre; i++) {
        const struct gpu_snap_pre *p = &dv->pre[i];
        if (p->freed_at >= 0 && p->freed_at <= cursor) continue;
        struct gpu_snap_live l = {p->addr, p->size, -1, (int64_t)i, p->stack};
        fn(ud, &l);
    }
    for (int64_t i = 0; i <= cursor && (size_t)i < dv->n; i++) {
        const struct gpu_snap_event *e = &dv->ev[i];
        if (e->action != GPU_SNAP_ALLOC || !live_after(dv->pair[i], cursor)) continue;
        struct gpu_snap_live l = {e->addr, e->size, i, -1, e->stack};
        fn(ud, &l);
    }
}

struct top_ctx {
    struct gpu_snap_live *out;
    size_t n, max;
};

static void top_add(void *ud, const struct gpu_snap_live *l)
{
    struct top_ctx *t = ud;
    if (!t->max) return;
    size_t at = t->n < t->max ? t->n++ : t->max;
    if (at == t->max && l->size <= t->out[t->max - 1].size) return;
    if (at == t->max) at = t->max - 1;
    while (at > 0 && t->out[at - 1].size < l->size) {
        t->out[at] = t->out[at - 1];
        at--;
    }
    t->out[at] = *l;
}

size_t gpu_snap_live_top(const struct gpu_snapshot *s, int d, int64_t cursor,
                         struct gpu_snap_live *out, size_t max)
{
    struct top_ctx t = {out, 0, max};
    each_live(s, d, cursor, top_add, &t);
    return t.n;
}

struct in_ctx {
    uint64_t lo, hi;
    struct gpu_snap_live *v;
    size_t n, cap;
    bool failed;
};

static void in_add(void *ud, const struct gpu_snap_live *l)
{
    struct in_ctx *c = ud;
    if (c->failed || l->addr < c->lo || l->addr >= c->hi) return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        struct gpu_snap_live *v = realloc(c->v, cap * sizeof *v);
        if (!v) {
            c->failed = true;
            return;
        }
        c->v = v, c->cap = cap;
    }
    c->v[c->n++] = *l;
}

static int live_cmp(const void *a, const void *b)
{
    const struct gpu_snap_live *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

gpu_status gpu_snap_live_in(const struct gpu_snapshot *s, int d, int64_t cursor, uint64_t lo,
                            uint64_t hi, struct gpu_snap_live **out, size_t *n)
{
    struct in_ctx c = {.lo = lo, .hi = hi};
    each_live(s, d, cursor, in_add, &c);
    if (c.failed) {
        free(c.v);
        *out = NULL, *n = 0;
        return GPU_ERR_HOST_NOMEM;
    }
    if (c.n) qsort(c.v, c.n, sizeof *c.v, live_cmp);
    *out = c.v, *n = c.n;
    return GPU_OK;
}

/* ---- the segment around an address at a cursor ---------------------------------------------- */

static bool is_seg_action(uint8_t a)
{
    return a == GPU_SNAP_SEGMENT_ALLOC || a == GPU_SNAP_SEGMENT_FREE || a == GPU_SNAP_SEGMENT_MAP ||
           a == GPU_SNAP_SEGMENT_UNMAP;
}

static bool holds(uint64_t a, uint64_t n, uint64_t x) { return a <= x && x - a < n; }

/* A set of address ranges, sorted and never touching: the mapped memory near the address. */
struct ranges {
    uint64_t (*r)[2]; /* [begin, end) */
    size_t n, cap;
};

static bool ranges_add(struct ranges *s, uint64_t a, uint64_t b)
{
    if (a >= b) return true;
    size_t i = 0;
    while (i < s->n && s->r[i][1] < a) i++;
    size_t j = i;
    while (j < s->n && s->r[j][0] <= b) { /* overlapping or touching: merge */
        if (s->r[j][0] < a) a = s->r[j][0];
        if (s->r[j][1] > b) b = s->r[j][1];
        j++;
    }
    if (i == j) { /* insert at i */
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 16;
            uint64_t(*r)[2] = realloc(s->r, cap * sizeof *r);
            if (!r) return false;
            s->r = r, s->cap = cap;
        }
        memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof *s->r);
        s->n++;
    } else { /* [i, j) become one */
        memmove(&s->r[i + 1], &s->r[j], (s->n - j) * sizeof *s->r);
        s->n -= j - i - 1;
    }
    s->r[i][0] = a, s->r[i][1] = b;
    return true;
}

static bool ranges_sub(struct ranges *s, uint64_t a, uint64_t b)
{
    for (size_t i = 0; i < s->n && a < b; i++) {
        uint64_t x = s->r[i][0], y = s->r[i][1];
        if (y <= a || x >= b) continue;
        if (x < a && y > b) { /* a hole in the middle: split */
            s->r[i][1] = a;
            return ranges_add(s, b, y);
        }
        if (x < a) s->r[i][1] = a;
        else if (y > b) s->r[i][0] = b;
        else { /* wholly inside: remove */
            memmove(&s->r[i], &s->r[i + 1], (s->n - i - 1) * sizeof *s->r);
            s->n--;
            i--;
        }
    }
    return true;
}

bool gpu_snap_segment_at(const struct gpu_snapshot *s, int d, int64_t cursor, uint64_t addr,
                         struct gpu_snap_seg_at *out)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    size_t from = cursor < 0 ? 0 : (size_t)cursor + 1;
    /* the first segment entry after the cursor that covers addr decides, else the final state */
    const struct gpu_snap_event *first = NULL;
    bool expandable = false;
    for (size_t i = from; i < dv->n; i++) {
        const struct gpu_snap_event *e = &dv->ev[i];
        if (!is_seg_action(e->action) || !holds(e->addr, e->size, addr)) continue;
        if (!first) first = e;
        if (e->action == GPU_SNAP_SEGMENT_MAP || e->action == GPU_SNAP_SEGMENT_UNMAP) expandable = true;
    }
    const struct gpu_snap_segment *fin = NULL;
    for (size_t i = 0; i < s->nsegs; i++)
        if (s->segs[i].device == d && holds(s->segs[i].addr, s->segs[i].size, addr)) fin = &s->segs[i];
    if (fin && fin->expandable) expandable = true;
    if (!expandable) {
        if (first) {
            if (first->action != GPU_SNAP_SEGMENT_FREE) return false; /* allocated after it */
            *out = (struct gpu_snap_seg_at){first->addr, first->size, false, first->size <= (2u << 20)};
            return true;
        }
        if (!fin) return false;
        *out = (struct gpu_snap_seg_at){fin->addr, fin->size, false, fin->small};
        return true;
    }
    struct gpu_snap_range *m = NULL;
    size_t nm = 0;
    bool found = false;
    if (gpu_snap_mapped_at(s, d, cursor, &m, &nm) != GPU_OK) return false;
    for (size_t i = 0; i < nm && !found; i++)
        if (holds(m[i].addr, m[i].size, addr)) {
            *out = (struct gpu_snap_seg_at){m[i].addr, m[i].size, true, fin ? fin->small : m[i].small};
            found = true;
        }
    free(m);
    return found;
}

/* The mapped ranges of expandable segments at the end, each map/unmap after the cursor undone
 * from the last back (bounded work: a hostile trace gets no answer). */
gpu_status gpu_snap_mapped_at(const struct gpu_snapshot *s, int d, int64_t cursor,
                              struct gpu_snap_range **out, size_t *nout)
{
    const struct gpu_snap_dev *dv = dev_of(s, d);
    size_t from = cursor < 0 ? 0 : (size_t)cursor + 1;
    struct ranges m = {0};
    bool ok = true;
    uint64_t work = 0;
    *out = NULL, *nout = 0;
    for (size_t i = 0; i < s->nsegs && ok; i++)
        if (s->segs[i].device == d && s->segs[i].expandable)
            ok = ranges_add(&m, s->segs[i].addr, s->segs[i].addr + s->segs[i].size);
    for (size_t i = dv->n; ok && i-- > from;) {
        const struct gpu_snap_event *e = &dv->ev[i];
        if (e->action != GPU_SNAP_SEGMENT_MAP && e->action != GPU_SNAP_SEGMENT_UNMAP) continue;
        if ((work += m.n + 1) > SEG_WORK_LIMIT) ok = false;
        else if (e->action == GPU_SNAP_SEGMENT_MAP) ok = ranges_sub(&m, e->addr, e->addr + e->size);
        else ok = ranges_add(&m, e->addr, e->addr + e->size);
    }
    struct gpu_snap_range *r = ok ? malloc((m.n ? m.n : 1) * sizeof *r) : NULL;
    for (size_t i = 0; r && i < m.n; i++) {
        /* the pool of the nearest final expandable segment; without one, a size that is not
         * a whole number of 20 MiB pages is the small pool's */
        uint64_t a = m.r[i][0], best = UINT64_MAX;
        bool small = (m.r[i][1] - a) % (20ull << 20) != 0;
        for (size_t k = 0; k < s->nsegs; k++) {
            const struct gpu_snap_segment *g = &s->segs[k];
            if (g->device != d || !g->expandable) continue;
            uint64_t dist = g->addr > a ? g->addr - a : a - g->addr;
            if (dist < best) best = dist, small = g->small;
        }
        r[i] = (struct gpu_snap_range){a, m.r[i][1] - a, small};
    }
    free(m.r);
    if (!r) return ok ? GPU_ERR_HOST_NOMEM : GPU_ERR_ARG;
    *out = r, *nout = m.n;
    return GPU_OK;
}

/* ---- frames --------------------------------------------------------------------------------- */

/* s[0..n) contains pat, '\\' and '/' alike; with nocase, ASCII letters in any case too */
static bool contains(const char *s, size_t n, const char *pat, bool nocase)
{
    size_t k = strlen(pat);
    for (size_t i = 0; k <= n && i <= n - k; i++) {
        size_t j = 0;
        for (; j < k; j++) {
            char c = s[i + j] == '\\' ? '/' : s[i + j];
            if (nocase && c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            if (c != pat[j]) break;
        }
        if (j == k) return true;
    }
    return false;
}

static bool has(const char *s, size_t n, const char *pat) { return contains(s, n, pat, false); }

/* memory_viz's frameFilter (torch/utils/viz/MemoryViz.js, torch/cuda/_memory_viz.py):
 * interpreter and dispatcher noise */
static bool frame_filter(const char *name, size_t nn, const char *file, size_t fn)
{
    static const char *const funcs[] = {"unwind::unwind", "CapturedTraceback::gather",
                                        "gather_with_cpp", "_start", "__libc_start_main",
                                        "PyEval_", "PyObject_", "PyFunction_"};
    static const char *const files[] = {"core/boxing", "/Register", "/Redispatch", "pythonrun.c",
                                        "Modules/main.c", "Objects/call.c",
                                        "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
                                        "cpython/abstract.h"};
    for (size_t i = 0; i < sizeof funcs / sizeof *funcs; i++)
        if (has(name, nn, funcs[i])) return false;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (has(file, fn, files[i])) return false;
    return true;
}

int gpu_snap_frame_classify(const char *name, size_t nn, const char *f, size_t n)
{
    if (!frame_filter(name, nn, f, n)) return GPU_SNAP_FRAME_HIDDEN;
    if (n < 3 || memcmp(f + n - 3, ".py", 3) || f[0] == '<') return GPU_SNAP_FRAME_LIB;
    if (has(f, n, "/torch/") || (n >= 6 && has(f, 6, "torch/"))) return GPU_SNAP_FRAME_LIB;
    /* Python's own library: lib/pythonX.Y/ (POSIX), Lib\ (Windows: a path with a backslash);
     * packages installed into it (site-packages, dist-packages) are the user's libraries */
    bool windows = memchr(f, '\\', n) != NULL;
    bool stdlib = has(f, n, "/lib/python") || (windows && contains(f, n, "/lib/", true));
    if (stdlib && !has(f, n, "-packages/")) return GPU_SNAP_FRAME_LIB;
    return GPU_SNAP_FRAME_USER;
}

const struct gpu_snap_frame *gpu_snap_user_frame(const struct gpu_snapshot *s, uint32_t stack)
{
    const struct gpu_snap_stack *st = gpu_snapshot_stack(s, stack);
    return st->user < 0 ? NULL : gpu_snapshot_stack_frame(s, stack, (uint32_t)st->user);
}

void gpu_snap_short_path(const char *path, size_t n, int parts, const char **out, size_t *outn)
{
    *out = path, *outn = n;
    if (!n || path[0] == '<') return;
    int seen = 0;
    for (size_t i = n; i-- > 0;)
        if ((path[i] == '/' || path[i] == '\\') && ++seen == parts) {
            *out = path + i + 1;
            *outn = n - i - 1;
            return;
        }
}
