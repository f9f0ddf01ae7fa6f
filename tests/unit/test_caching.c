/* test_caching.c - unit tests of the caching-allocator model (gpu_caching.c, gpu_trace.c,
 * gpu_cache_text.c): PyTorch's size rules, pools, splitting, coalescing, empty_cache, the OOM
 * ladder and message, the PYTORCH_CUDA_ALLOC_CONF options, traces, and a randomized comparison
 * against a brute-force reference model written here from the same rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_caching.h"
#include "gpu_model_dev.h"
#include "gpu_trace.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* ---- helpers ---------------------------------------------------------------------------------- */

struct fixture {
    struct gpu_model_dev *dev;
    struct gpu_caching *c;
};

static void fx_open(struct fixture *f, uint64_t capacity, const struct gpu_caching_opts *o)
{
    char err[256];
    assert_int_equal(gpu_model_dev_new(capacity, &f->dev), GPU_OK);
    assert_int_equal(gpu_caching_new(o, &gpu_model_dev_ops, f->dev, &f->c, err, sizeof err),
                     GPU_OK);
}

/* Destroying returns every segment: nothing may stay taken on the device. */
static void fx_close(struct fixture *f)
{
    gpu_caching_destroy(f->c);
    assert_int_equal(gpu_model_dev_used(f->dev), 0);
    gpu_model_dev_free(f->dev);
}

static uint64_t must_alloc(struct gpu_caching *c, uint64_t bytes)
{
    uint64_t a = 0;
    char err[512];
    gpu_status st = gpu_caching_malloc(c, bytes, &a, err, sizeof err);
    if (st != GPU_OK) fail_msg("malloc(%llu): %s", (unsigned long long)bytes, err);
    return a;
}

static struct gpu_caching_stats stats_of(const struct gpu_caching *c)
{
    struct gpu_caching_stats s;
    gpu_caching_stats(c, &s);
    return s;
}

static uint64_t reserved(const struct gpu_caching *c)
{
    return stats_of(c).reserved_bytes[GPU_CACHE_ALL].current;
}

static uint64_t allocated(const struct gpu_caching *c)
{
    return stats_of(c).allocated_bytes[GPU_CACHE_ALL].current;
}

static struct gpu_caching_opts opts(uint64_t max_split, unsigned div, bool exp, double frac)
{
    struct gpu_caching_opts o;
    gpu_caching_opts_default(&o);
    o.max_split_size = max_split;
    o.roundup_power2_divisions = div;
    o.expandable_segments = exp;
    o.memory_fraction = frac;
    return o;
}

/* ---- the brute-force reference model ---------------------------------------------------------- */
/* Same rules as PyTorch, written the slow obvious way: blocks and segments in flat arrays, every
 * search a linear scan, neighbours found by address. */

#define RB_MAX 8192
#define RS_MAX 2048
#define R_NO_PAGE UINT64_MAX

struct rblk {
    uint64_t addr, size, req;
    int seg;
    bool used, alloc, mapped;
};
struct rseg {
    uint64_t addr, size, page;
    uint64_t *phys;
    size_t npages;
    unsigned slot;
    int pool; /* 0 small, 1 large */
    bool used, exp;
};
struct rrange {
    uint64_t a, s;
};
struct ref {
    struct gpu_caching_opts o;
    uint64_t cap, allowed;
    bool frac;
    struct rblk b[RB_MAX];
    struct rseg s[RS_MAX];
    int nb, ns;
    struct rrange *dev; /* taken device ranges, sorted by address */
    size_t ndev, devcap;
    uint64_t dev_used;
    uint64_t res[2], peak_res, alloc, peak_alloc, req;
    int nsegs;
    uint64_t ooms, retries;
};

static bool r_dev_alloc(struct ref *r, uint64_t bytes, uint64_t *addr)
{
    uint64_t b = (bytes + 511) / 512 * 512;
    if (r->dev_used + b > r->cap) return false;
    uint64_t at = 0;
    size_t i = 0;
    for (; i < r->ndev; i++) {
        if (r->dev[i].a - at >= b) break;
        at = r->dev[i].a + r->dev[i].s;
    }
    if (r->ndev == r->devcap) {
        r->devcap = r->devcap ? r->devcap * 2 : 256;
        r->dev = realloc(r->dev, r->devcap * sizeof *r->dev);
        assert_non_null(r->dev);
    }
    memmove(&r->dev[i + 1], &r->dev[i], (r->ndev - i) * sizeof *r->dev);
    r->dev[i] = (struct rrange){at, b};
    r->ndev++;
    r->dev_used += b;
    *addr = at;
    return true;
}

static void r_dev_free(struct ref *r, uint64_t addr)
{
    for (size_t i = 0; i < r->ndev; i++)
        if (r->dev[i].a == addr) {
            r->dev_used -= r->dev[i].s;
            memmove(&r->dev[i], &r->dev[i + 1], (r->ndev - i - 1) * sizeof *r->dev);
            r->ndev--;
            return;
        }
    fail_msg("reference: device free of unknown 0x%llx", (unsigned long long)addr);
}

static void r_init(struct ref *r, uint64_t cap, const struct gpu_caching_opts *o)
{
    memset(r, 0, sizeof *r);
    r->o = *o;
    r->cap = cap;
    if (o->memory_fraction > 0) {
        r->frac = true;
        r->allowed = (uint64_t)(o->memory_fraction * (double)cap);
    }
}

static void r_fini(struct ref *r)
{
    for (int i = 0; i < r->ns; i++) free(r->s[i].phys);
    free(r->dev);
}

static int r_newb(struct ref *r, int seg, uint64_t addr, uint64_t size, bool mapped)
{
    int i = 0;
    while (i < r->nb && r->b[i].used) i++;
    assert_true(i < RB_MAX);
    if (i == r->nb) r->nb++;
    r->b[i] = (struct rblk){.addr = addr, .size = size, .seg = seg, .used = true, .mapped = mapped};
    return i;
}

static int r_news(struct ref *r)
{
    int i = 0;
    while (i < r->ns && r->s[i].used) i++;
    assert_true(i < RS_MAX);
    if (i == r->ns) r->ns++;
    free(r->s[i].phys);
    memset(&r->s[i], 0, sizeof r->s[i]);
    r->s[i].used = true;
    return i;
}

static int r_prev(const struct ref *r, int i)
{
    for (int j = 0; j < r->nb; j++)
        if (r->b[j].used && r->b[j].seg == r->b[i].seg && r->b[j].addr + r->b[j].size == r->b[i].addr)
            return j;
    return -1;
}

static int r_next(const struct ref *r, int i)
{
    for (int j = 0; j < r->nb; j++)
        if (r->b[j].used && r->b[j].seg == r->b[i].seg && r->b[j].addr == r->b[i].addr + r->b[i].size)
            return j;
    return -1;
}

static bool r_split(const struct ref *r, int i) { return r_prev(r, i) >= 0 || r_next(r, i) >= 0; }

static void r_res(struct ref *r, int pool, int64_t d)
{
    r->res[pool] += (uint64_t)d;
    uint64_t t = r->res[0] + r->res[1];
    if (t > r->peak_res) r->peak_res = t;
}

static bool r_free_in(const struct ref *r, int i, int pool)
{
    const struct rblk *b = &r->b[i];
    return b->used && !b->alloc && b->mapped && r->s[b->seg].pool == pool;
}

static bool r_key_ge(const struct rblk *b, uint64_t size, uint64_t addr)
{
    return b->size > size || (b->size == size && b->addr >= addr);
}

static bool r_key_lt2(const struct rblk *x, const struct rblk *y)
{
    return x->size < y->size || (x->size == y->size && x->addr < y->addr);
}

static int r_lower(const struct ref *r, int pool, uint64_t size, uint64_t addr)
{
    int best = -1;
    for (int i = 0; i < r->nb; i++)
        if (r_free_in(r, i, pool) && r_key_ge(&r->b[i], size, addr) &&
            (best < 0 || r_key_lt2(&r->b[i], &r->b[best])))
            best = i;
    return best;
}

static int r_max(const struct ref *r, int pool)
{
    int best = -1;
    for (int i = 0; i < r->nb; i++)
        if (r_free_in(r, i, pool) && (best < 0 || r_key_lt2(&r->b[best], &r->b[i]))) best = i;
    return best;
}

static uint64_t r_round(const struct ref *r, uint64_t size)
{
    if (size < 512) return 512;
    uint64_t d = r->o.roundup_power2_divisions;
    if (d > 1 && size > 512 * d) {
        if (!(size & (size - 1))) return size;
        uint64_t p = 1;
        while (p * 2 <= size) p *= 2;
        uint64_t step = p / d; /* d is a power of two */
        if (!step) return 2 * p;
        return (size + step - 1) / step * step;
    }
    return (size + 511) / 512 * 512;
}

static uint64_t r_alloc_size(uint64_t size)
{
    if (size <= MiB) return 2 * MiB;
    if (size < 10 * MiB) return 20 * MiB;
    return (size + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
}

static uint64_t r_expsize(const struct ref *r, int i)
{
    int nx = r_next(r, i);
    return r->b[i].size + (nx >= 0 && !r->b[nx].mapped ? r->b[nx].size : 0);
}

static int r_get_free(struct ref *r, int pool, uint64_t size)
{
    int i = r_lower(r, pool, size, 0);
    if (i < 0) return -1;
    if (r->s[r->b[i].seg].exp) {
        int nx = r_lower(r, pool, r->b[i].size, r->b[i].addr + 1);
        while (r->s[r->b[i].seg].exp && nx >= 0 && r_expsize(r, nx) < r_expsize(r, i)) {
            i = nx;
            nx = r_lower(r, pool, r->b[i].size, r->b[i].addr + 1);
        }
    }
    uint64_t ms = r->o.max_split_size;
    if (size < ms && r->b[i].size >= ms) return -1;
    if (size >= ms && r->b[i].size >= size + 20 * MiB) return -1;
    return i;
}

/* dst absorbs src if both are free and equally mapped */
static void r_merge(struct ref *r, int dst, int src)
{
    if (src < 0 || r->b[src].alloc || r->b[src].mapped != r->b[dst].mapped) return;
    if (r->b[src].addr < r->b[dst].addr) r->b[dst].addr = r->b[src].addr;
    r->b[dst].size += r->b[src].size;
    r->b[src].used = false;
}

static void r_release_seg(struct ref *r, int bi)
{
    struct rseg *s = &r->s[r->b[bi].seg];
    r_dev_free(r, s->addr);
    r_res(r, s->pool, -(int64_t)s->size);
    r->nsegs--;
    s->used = false;
    r->b[bi].used = false;
}

static bool r_map(struct ref *r, int i, uint64_t size)
{
    struct rseg *s = &r->s[r->b[i].seg];
    uint64_t begin = (r->b[i].addr - s->addr) / s->page;
    uint64_t end = (r->b[i].addr - s->addr + size + s->page - 1) / s->page;
    assert_true(end <= s->npages);
    for (uint64_t p = begin; p < end; p++)
        if (!r_dev_alloc(r, s->page, &s->phys[p])) {
            while (p-- > begin) {
                r_dev_free(r, s->phys[p]);
                s->phys[p] = R_NO_PAGE;
            }
            return false;
        }
    uint64_t mapped = (end - begin) * s->page;
    r->b[i].mapped = true;
    if (mapped < r->b[i].size) {
        r_newb(r, r->b[i].seg, r->b[i].addr + mapped, r->b[i].size - mapped, false);
        r->b[i].size = mapped;
    }
    r_merge(r, i, r_prev(r, i));
    r_merge(r, i, r_next(r, i));
    r_res(r, s->pool, (int64_t)mapped);
    return true;
}

static bool r_unmap(struct ref *r, int i)
{
    int si = r->b[i].seg;
    struct rseg *s = &r->s[si];
    uint64_t rel = r->b[i].addr - s->addr;
    uint64_t begin = (rel + s->page - 1) / s->page, end = (rel + r->b[i].size) / s->page;
    if (begin >= end) return false;
    uint64_t us = s->addr + begin * s->page, uz = (end - begin) * s->page;
    uint64_t before = us - r->b[i].addr, after = r->b[i].size - before - uz;
    if (before) r_newb(r, si, r->b[i].addr, before, true);
    if (after) r_newb(r, si, us + uz, after, true);
    r->b[i].addr = us;
    r->b[i].size = uz;
    r->b[i].mapped = false;
    r_merge(r, i, r_prev(r, i));
    r_merge(r, i, r_next(r, i));
    for (uint64_t p = begin; p < end; p++) {
        r_dev_free(r, s->phys[p]);
        s->phys[p] = R_NO_PAGE;
    }
    r_res(r, s->pool, -(int64_t)uz);
    return true;
}

static int r_find_exp(struct ref *r, int pool, uint64_t size)
{
    uint64_t from = 0;
    for (;;) {
        int u = -1;
        for (int i = 0; i < r->nb; i++)
            if (r->b[i].used && !r->b[i].mapped && r->s[r->b[i].seg].pool == pool &&
                r->b[i].addr >= from && (u < 0 || r->b[i].addr < r->b[u].addr))
                u = i;
        if (u < 0) break;
        from = r->b[u].addr + 1;
        int p = r_prev(r, u), cand = (p >= 0 && !r->b[p].alloc) ? p : u;
        uint64_t bytes = 0;
        for (int k = cand; bytes < size && k >= 0 && !r->b[k].alloc; k = r_next(r, k))
            bytes += r->b[k].size;
        if (bytes >= size) return cand;
    }
    unsigned slot = 0;
    for (bool taken = true; taken;) {
        taken = false;
        for (int i = 0; i < r->ns; i++)
            if (r->s[i].used && r->s[i].exp && r->s[i].pool == pool && r->s[i].slot == slot) taken = true;
        if (taken) slot++;
    }
    int si = r_news(r);
    struct rseg *s = &r->s[si];
    s->exp = true;
    s->pool = pool;
    s->slot = slot;
    s->page = pool == 0 ? 2 * MiB : 20 * MiB;
    s->addr = (pool == 0 ? GPU_CACHE_EXP_BASE_SMALL : GPU_CACHE_EXP_BASE_LARGE) +
              slot * GPU_CACHE_EXP_STRIDE;
    uint64_t va = r->cap + r->cap / 8;
    s->size = (va + s->page - 1) / s->page * s->page;
    s->npages = s->size / s->page;
    s->phys = malloc(s->npages * sizeof *s->phys);
    assert_non_null(s->phys);
    for (size_t k = 0; k < s->npages; k++) s->phys[k] = R_NO_PAGE;
    return r_newb(r, si, s->addr, s->size, false);
}

static int r_alloc_block(struct ref *r, int pool, uint64_t size, uint64_t asz, bool retry)
{
    if (retry) r->retries++;
    if (r->frac && r->res[0] + r->res[1] + asz > r->allowed) return -1;
    if (r->o.expandable_segments) {
        int c = r_find_exp(r, pool, size);
        if (!r->b[c].mapped && !r_map(r, c, r->b[c].size < size ? r->b[c].size : size)) return -1;
        while (r->b[c].size < size) {
            int nx = r_next(r, c);
            uint64_t want = size - r->b[c].size;
            if (!r_map(r, nx, want < r->b[nx].size ? want : r->b[nx].size)) return -1;
            c = nx;
        }
        return c;
    }
    uint64_t a;
    if (!r_dev_alloc(r, asz, &a)) return -1;
    int si = r_news(r);
    r->s[si].addr = a;
    r->s[si].size = asz;
    r->s[si].pool = pool;
    r->nsegs++;
    r_res(r, pool, (int64_t)asz);
    return r_newb(r, si, a, asz, true);
}

static bool r_release_available(struct ref *r, int pool, uint64_t size)
{
    uint64_t ms = r->o.max_split_size;
    if (ms == UINT64_MAX || r->o.expandable_segments) return false;
    uint64_t key = size < ms ? ms : size;
    int i = r_lower(r, pool, key, 0);
    if (i >= 0) {
        if (r_split(r, i)) return false;
        r_release_seg(r, i);
        return true;
    }
    uint64_t rel = 0;
    for (i = r_max(r, pool); i >= 0 && rel < key && r->b[i].size >= ms && !r_split(r, i);
         i = r_max(r, pool)) {
        rel += r->b[i].size;
        r_release_seg(r, i);
    }
    return rel >= key;
}

static void r_release_cached(struct ref *r)
{
    for (int pool = 1; pool >= 0; pool--)
        for (int si = 0; si < r->ns; si++) {
            struct rseg *s = &r->s[si];
            if (!s->used || s->pool != pool) continue;
            if (!s->exp) {
                for (int i = 0; i < r->nb; i++)
                    if (r->b[i].used && r->b[i].seg == si && !r->b[i].alloc &&
                        r->b[i].size == s->size) {
                        r_release_seg(r, i);
                        break;
                    }
                continue;
            }
            /* release_blocks walks the pool's free blocks: a segment with none mapped (a
             * fresh one whose mapping failed) is left for the next request to use */
            bool unmapped = false;
            for (int i = 0; i < r->nb; i++)
                if (r->b[i].used && r->b[i].seg == si && !r->b[i].alloc && r->b[i].mapped)
                    unmapped |= r_unmap(r, i);
            for (int i = 0; unmapped && i < r->nb; i++)
                if (r->b[i].used && r->b[i].seg == si && !r->b[i].mapped && r->b[i].size == s->size) {
                    r->b[i].used = false;
                    s->used = false;
                }
        }
}

/* Returns true and the address, or false on OOM. */
static bool r_malloc(struct ref *r, uint64_t orig, uint64_t *addr)
{
    uint64_t size = r_round(r, orig);
    int pool = size <= MiB ? 0 : 1;
    uint64_t asz = r_alloc_size(size);
    int i = r_get_free(r, pool, size);
    if (i < 0) {
        i = r_alloc_block(r, pool, size, asz, false);
        if (i < 0 && r_release_available(r, pool, size)) i = r_alloc_block(r, pool, size, asz, false);
        if (i < 0) {
            r_release_cached(r);
            i = r_alloc_block(r, pool, size, asz, true);
        }
    }
    if (i < 0) {
        r->ooms++;
        return false;
    }
    uint64_t rem = r->b[i].size - size;
    bool split = (pool == 0 || r->o.expandable_segments) ? rem >= 512
                                                          : size < r->o.max_split_size && rem > MiB;
    if (split) {
        int j = r_newb(r, r->b[i].seg, r->b[i].addr, size, true);
        r->b[i].addr += size;
        r->b[i].size -= size;
        i = j;
    }
    r->b[i].alloc = true;
    r->b[i].req = orig;
    r->alloc += r->b[i].size;
    r->req += orig;
    if (r->alloc > r->peak_alloc) r->peak_alloc = r->alloc;
    *addr = r->b[i].addr;
    return true;
}

static void r_free(struct ref *r, uint64_t addr)
{
    for (int i = 0; i < r->nb; i++)
        if (r->b[i].used && r->b[i].alloc && r->b[i].addr == addr) {
            r->b[i].alloc = false;
            r->alloc -= r->b[i].size;
            r->req -= r->b[i].req;
            r_merge(r, i, r_prev(r, i));
            r_merge(r, i, r_next(r, i));
            return;
        }
    fail_msg("reference: free of unknown 0x%llx", (unsigned long long)addr);
}

/* The allocator's visible state must match the reference's, number for number. */
static void r_compare(const struct ref *r, const struct gpu_caching *c, long op)
{
    struct gpu_caching_stats s;
    gpu_caching_stats(c, &s);
    uint64_t isplit = 0, nisplit = 0, largest = 0, nalloc = 0;
    for (int i = 0; i < r->nb; i++) {
        const struct rblk *b = &r->b[i];
        if (!b->used) continue;
        if (b->alloc) nalloc++;
        if (!b->alloc && b->mapped && b->size > largest) largest = b->size;
        if (!b->alloc && b->mapped && !r->s[b->seg].exp && r_split(r, i)) {
            isplit += b->size;
            nisplit++;
        }
    }
#define EQ(a, b)                                                                                   \
    do {                                                                                           \
        if ((uint64_t)(a) != (uint64_t)(b))                                                        \
            fail_msg("op %ld: %s = %llu, reference %llu", op, #a, (unsigned long long)(a),       \
                     (unsigned long long)(b));                                                     \
    } while (0)
    EQ(s.allocated_bytes[GPU_CACHE_ALL].current, r->alloc);
    EQ(s.allocated_bytes[GPU_CACHE_ALL].peak, r->peak_alloc);
    EQ(s.requested_bytes[GPU_CACHE_ALL].current, r->req);
    EQ(s.reserved_bytes[GPU_CACHE_ALL].current, r->res[0] + r->res[1]);
    EQ(s.reserved_bytes[GPU_CACHE_SMALL].current, r->res[0]);
    EQ(s.reserved_bytes[GPU_CACHE_LARGE].current, r->res[1]);
    EQ(s.reserved_bytes[GPU_CACHE_ALL].peak, r->peak_res);
    EQ(s.segment[GPU_CACHE_ALL].current, r->nsegs);
    EQ(s.allocation[GPU_CACHE_ALL].current, nalloc);
    EQ(s.inactive_split_bytes[GPU_CACHE_ALL].current, isplit);
    EQ(s.inactive_split[GPU_CACHE_ALL].current, nisplit);
    EQ(s.largest_free[GPU_CACHE_ALL], largest);
    EQ(s.num_ooms, r->ooms);
    EQ(s.num_alloc_retries, r->retries);
}

static int addr_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The memory map: same segments (mapped ranges), same blocks, in address order. */
static void r_compare_map(const struct ref *r, const struct gpu_caching *c, long op)
{
    struct gpu_cache_map m;
    assert_int_equal(gpu_caching_segments(c, &m), GPU_OK);
    uint64_t *starts = malloc((size_t)(r->nb + 1) * sizeof *starts);
    size_t nst = 0, nblk = 0;
    for (int i = 0; i < r->nb; i++) {
        if (!r->b[i].used || !r->b[i].mapped) continue;
        nblk++;
        int p = r_prev(r, i);
        if (p < 0 || !r->b[p].mapped) starts[nst++] = r->b[i].addr;
    }
    qsort(starts, nst, sizeof *starts, addr_cmp);
    if (m.nsegs != nst || m.nblocks != nblk)
        fail_msg("op %ld: map has %zu segments/%zu blocks, reference %zu/%zu", op, m.nsegs,
                 m.nblocks, nst, nblk);
    for (size_t k = 0; k < nst; k++) {
        const struct gpu_cache_seg_info *si = &m.segs[k];
        EQ(si->addr, starts[k]);
        uint64_t at = si->addr, total = 0;
        for (size_t j = 0; j < si->nblocks; j++) {
            const struct gpu_cache_block_info *bi = &m.blocks[si->first_block + j];
            int rb = -1;
            for (int i = 0; i < r->nb; i++)
                if (r->b[i].used && r->b[i].mapped && r->b[i].addr == at) rb = i;
            if (rb < 0) fail_msg("op %ld: block at 0x%llx not in the reference", op,
                                 (unsigned long long)at);
            EQ(bi->addr, at);
            EQ(bi->size, r->b[rb].size);
            EQ(bi->allocated, r->b[rb].alloc);
            EQ(bi->requested, r->b[rb].alloc ? r->b[rb].req : 0);
            EQ(si->pool, (uint64_t)(1 + r->s[r->b[rb].seg].pool));
            at += bi->size;
            total += bi->size;
        }
        EQ(si->size, total);
    }
    free(starts);
    gpu_cache_map_free(&m);
}

/* ---- size rules and pools ------------------------------------------------------------------- */

static void test_sixteens_then_thirtytwos(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, 4 * GiB, NULL);
    uint64_t a[8];
    for (int i = 0; i < 8; i++) a[i] = must_alloc(f.c, 16 * MiB);
    assert_int_equal(reserved(f.c), 128 * MiB);
    for (int i = 0; i < 8; i++) assert_int_equal(gpu_caching_free(f.c, a[i]), GPU_OK);
    /* a cached 16 MiB block cannot hold 32 MiB: four new segments */
    for (int i = 0; i < 4; i++) a[i] = must_alloc(f.c, 32 * MiB);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 256 * MiB);
    assert_int_equal(s.segment[GPU_CACHE_ALL].current, 12);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 128 * MiB);
    fx_close(&f);
}

static void test_thirtytwos_then_sixteens(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, 4 * GiB, NULL);
    uint64_t a[8];
    for (int i = 0; i < 4; i++) a[i] = must_alloc(f.c, 32 * MiB);
    for (int i = 0; i < 4; i++) gpu_caching_free(f.c, a[i]);
    /* each cached 32 MiB segment splits into two 16 MiB blocks */
    for (int i = 0; i < 8; i++) a[i] = must_alloc(f.c, 16 * MiB);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 128 * MiB);
    assert_int_equal(s.segment[GPU_CACHE_ALL].current, 4);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 128 * MiB);
    assert_int_equal(s.inactive_split_bytes[GPU_CACHE_ALL].current, 0);
    fx_close(&f);
}

static void test_small_pool_and_rounding(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    uint64_t a = must_alloc(f.c, 1);
    uint64_t b = must_alloc(f.c, 513);
    uint64_t c = must_alloc(f.c, 1000);
    uint64_t d = must_alloc(f.c, MiB); /* exactly 1 MiB is still small */
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_SMALL].current, 2 * MiB);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_LARGE].current, 0);
    assert_int_equal(s.segment[GPU_CACHE_SMALL].current, 1);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_SMALL].current, 512 + 1024 + 1024 + MiB);
    assert_int_equal(s.requested_bytes[GPU_CACHE_SMALL].current, 1 + 513 + 1000 + MiB);
    /* one segment, handed out front to back */
    assert_int_equal(b, a + 512);
    assert_int_equal(c, b + 1024);
    assert_int_equal(d, c + 1024);
    /* the remainder (2 MiB - 1 MiB - 2.5 KiB) stays free in the same segment */
    assert_int_equal(s.largest_free[GPU_CACHE_SMALL], MiB - 2560);
    /* one byte more than 1 MiB goes to the large pool, in a 20 MiB segment */
    must_alloc(f.c, MiB + 1);
    s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_LARGE].current, 20 * MiB);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_LARGE].current, MiB + 512);
    fx_close(&f);
}

static void test_large_segment_sizes(void **state)
{
    (void)state;
    static const struct {
        uint64_t req, seg;
    } cases[] = {
        {MiB + MiB / 2, 20 * MiB}, /* (1, 10) MiB share a 20 MiB segment */
        {9 * MiB + 900 * KiB, 20 * MiB},
        {10 * MiB, 10 * MiB},      /* >= 10 MiB: own segment, rounded to 2 MiB */
        {11 * MiB, 12 * MiB},
        {12 * MiB, 12 * MiB},
        {12 * MiB + 1, 14 * MiB},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fixture f;
        fx_open(&f, GiB, NULL);
        must_alloc(f.c, cases[i].req);
        struct gpu_caching_stats s = stats_of(f.c);
        assert_int_equal(s.reserved_bytes[GPU_CACHE_LARGE].current, cases[i].seg);
        assert_int_equal(s.segment[GPU_CACHE_LARGE].current, 1);
        fx_close(&f);
    }
}

static void test_large_split_threshold(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    uint64_t a = must_alloc(f.c, 9 * MiB);   /* 20 MiB segment: 9 used, 11 free */
    uint64_t b = must_alloc(f.c, 9 * MiB);   /* 2 MiB left: more than 1 MiB, so split */
    assert_int_equal(b, a + 9 * MiB);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 20 * MiB);
    assert_int_equal(s.inactive_split_bytes[GPU_CACHE_ALL].current, 2 * MiB);
    /* 1.5 MiB in the 2 MiB block leaves 0.5 MiB, not more than 1 MiB: the whole block goes */
    uint64_t c = must_alloc(f.c, MiB + MiB / 2);
    assert_int_equal(c, b + 9 * MiB);
    s = stats_of(f.c);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 20 * MiB);
    assert_int_equal(s.requested_bytes[GPU_CACHE_ALL].current, 18 * MiB + MiB + MiB / 2);
    assert_int_equal(s.inactive_split_bytes[GPU_CACHE_ALL].current, 0);
    assert_int_equal(s.segment[GPU_CACHE_ALL].current, 1);
    fx_close(&f);
}

static void test_best_fit_and_coalescing(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    uint64_t a = must_alloc(f.c, 4 * MiB), b = must_alloc(f.c, 4 * MiB);
    uint64_t c = must_alloc(f.c, 4 * MiB), d = must_alloc(f.c, 2 * MiB);
    /* segment: a b c d [6 MiB free] */
    gpu_caching_free(f.c, b);   /* hole of 4 MiB */
    /* best fit: a 3 MiB request takes the 4 MiB hole, not the 6 MiB tail; the 1 MiB rest is
     * not split off (large pool needs more than 1 MiB) */
    uint64_t e = must_alloc(f.c, 3 * MiB);
    assert_int_equal(e, b);
    assert_int_equal(allocated(f.c), 14 * MiB); /* 4 + 4 (the whole hole) + 4 + 2 */
    gpu_caching_free(f.c, e);
    gpu_caching_free(f.c, c);   /* b and c merge: 8 MiB */
    struct gpu_cache_map m;
    assert_int_equal(gpu_caching_segments(f.c, &m), GPU_OK);
    assert_int_equal(m.nsegs, 1);
    assert_int_equal(m.segs[0].size, 20 * MiB);
    assert_int_equal(m.segs[0].nblocks, 4);
    uint64_t want[][3] = {{0, 4 * MiB, 1}, {4 * MiB, 8 * MiB, 0}, {12 * MiB, 2 * MiB, 1},
                          {14 * MiB, 6 * MiB, 0}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(m.blocks[i].offset, want[i][0]);
        assert_int_equal(m.blocks[i].size, want[i][1]);
        assert_int_equal(m.blocks[i].allocated, want[i][2]);
    }
    gpu_cache_map_free(&m);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.inactive_split_bytes[GPU_CACHE_ALL].current, 14 * MiB);
    assert_int_equal(s.inactive_split[GPU_CACHE_ALL].current, 2);
    gpu_caching_free(f.c, d);   /* the tail joins too */
    gpu_caching_free(f.c, a);   /* whole segment free again: one block, nothing non-releasable */
    s = stats_of(f.c);
    assert_int_equal(s.inactive_split_bytes[GPU_CACHE_ALL].current, 0);
    assert_int_equal(s.inactive_split[GPU_CACHE_ALL].current, 0);
    assert_int_equal(s.largest_free[GPU_CACHE_LARGE], 20 * MiB);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 0);
    fx_close(&f);
}

static void test_empty_cache_exactly_free_segments(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    uint64_t a = must_alloc(f.c, 16 * MiB);        /* segment A, will be free */
    must_alloc(f.c, 16 * MiB);                     /* segment B, stays in use */
    uint64_t c1 = must_alloc(f.c, 3 * MiB);        /* segment C (20 MiB), half freed */
    must_alloc(f.c, 3 * MiB);
    uint64_t d = must_alloc(f.c, 4 * KiB);         /* segment D (small), will be free */
    gpu_caching_free(f.c, a);
    gpu_caching_free(f.c, c1);
    gpu_caching_free(f.c, d);
    struct gpu_caching_stats before = stats_of(f.c);
    assert_int_equal(before.reserved_bytes[GPU_CACHE_ALL].current, (16 + 16 + 20 + 2) * MiB);
    gpu_caching_empty_cache(f.c);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, (16 + 20) * MiB);
    assert_int_equal(s.segment[GPU_CACHE_ALL].current, 2);
    assert_int_equal(s.num_device_free - before.num_device_free, 2);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_SMALL].current, 0);
    assert_int_equal(gpu_model_dev_used(f.dev), 36 * MiB);
    /* nothing more to give back */
    gpu_caching_empty_cache(f.c);
    assert_int_equal(reserved(f.c), 36 * MiB);
    fx_close(&f);
}

/* ---- OOM ------------------------------------------------------------------------------------- */

static void test_oom_message_and_no_leak(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, 64 * MiB, NULL);
    uint64_t a = must_alloc(f.c, 40 * MiB), x = 123;
    char err[1024];
    struct gpu_caching_stats before = stats_of(f.c);
    assert_int_equal(gpu_caching_malloc(f.c, 30 * MiB, &x, err, sizeof err), GPU_ERR_NOMEM);
    assert_int_equal(x, 123);
    const char *want = "CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total "
                       "capacity of 64.00 MiB of which 24.00 MiB is free. Of the allocated memory "
                       "40.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but "
                       "unallocated.";
    assert_int_equal(strncmp(err, want, strlen(want)), 0);
    assert_non_null(strstr(err, "expandable_segments:True"));
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.num_ooms, 1);
    assert_int_equal(s.num_alloc_retries, 1);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 40 * MiB);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 40 * MiB);
    assert_int_equal(s.allocation[GPU_CACHE_ALL].current, before.allocation[GPU_CACHE_ALL].current);
    assert_int_equal(gpu_model_dev_used(f.dev), 40 * MiB);
    gpu_caching_free(f.c, a);
    gpu_caching_empty_cache(f.c);
    assert_int_equal(gpu_model_dev_used(f.dev), 0);
    fx_close(&f);
}

static void test_oom_retry_frees_cache(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, 64 * MiB, NULL);
    gpu_caching_free(f.c, must_alloc(f.c, 20 * MiB)); /* cached, unsplit */
    gpu_caching_free(f.c, must_alloc(f.c, 3 * MiB));  /* splits that block, then merges back */
    assert_int_equal(reserved(f.c), 20 * MiB);
    must_alloc(f.c, 50 * MiB); /* 20 cached + 50 > 64: release the cache, retry, succeed */
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.num_alloc_retries, 1);
    assert_int_equal(s.num_ooms, 0);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 50 * MiB);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].peak, 50 * MiB);
    fx_close(&f);
}

/* 40+40 reserved, then 30+30 used from them: 2 x 10 MiB slivers that cannot be released. */
static void fragmenting_sequence(struct gpu_caching *c, uint64_t *b1, uint64_t *b2)
{
    uint64_t a1 = must_alloc(c, 40 * MiB), a2 = must_alloc(c, 40 * MiB);
    gpu_caching_free(c, a1);
    gpu_caching_free(c, a2);
    *b1 = must_alloc(c, 30 * MiB);
    *b2 = must_alloc(c, 30 * MiB);
}

static void test_fragmentation_oom(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, 100 * MiB, NULL);
    uint64_t b1, b2, x;
    fragmenting_sequence(f.c, &b1, &b2);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.inactive_split_bytes[GPU_CACHE_ALL].current, 20 * MiB);
    uint64_t dev_free = 100 * MiB - gpu_model_dev_used(f.dev);
    uint64_t cached = s.reserved_bytes[0].current - s.allocated_bytes[0].current;
    assert_true(dev_free + cached > 30 * MiB); /* enough bytes in total ... */
    char err[1024];
    assert_int_equal(gpu_caching_malloc(f.c, 30 * MiB, &x, err, sizeof err), GPU_ERR_NOMEM);
    const char *want = "CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total "
                       "capacity of 100.00 MiB of which 20.00 MiB is free. Of the allocated memory "
                       "60.00 MiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch "
                       "but unallocated.";
    assert_int_equal(strncmp(err, want, strlen(want)), 0);
    fx_close(&f);

    /* the same program with expandable segments: one growing segment, no slivers */
    struct gpu_caching_opts o = opts(UINT64_MAX, 0, true, 0);
    fx_open(&f, 100 * MiB, &o);
    fragmenting_sequence(f.c, &b1, &b2);
    uint64_t c = must_alloc(f.c, 30 * MiB);
    assert_int_equal(b2, b1 + 30 * MiB);
    assert_int_equal(c, b2 + 30 * MiB);
    s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 100 * MiB);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 90 * MiB);
    assert_int_equal(s.num_ooms, 0);
    struct gpu_cache_map m;
    assert_int_equal(gpu_caching_segments(f.c, &m), GPU_OK);
    assert_int_equal(m.nsegs, 1);
    assert_true(m.segs[0].expandable);
    assert_int_equal(m.segs[0].addr, GPU_CACHE_EXP_BASE_LARGE);
    assert_int_equal(m.segs[0].size, 100 * MiB);
    gpu_cache_map_free(&m);
    fx_close(&f);
}

static void test_expandable_pages_and_empty_cache(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(UINT64_MAX, 0, true, 0);
    struct fixture f;
    fx_open(&f, GiB, &o);
    uint64_t a = must_alloc(f.c, 4 * KiB);
    assert_int_equal(a, GPU_CACHE_EXP_BASE_SMALL);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_SMALL].current, 2 * MiB); /* one 2 MiB page */
    assert_int_equal(s.segment[GPU_CACHE_ALL].current, 0); /* as PyTorch: maps are not segments */
    uint64_t b = must_alloc(f.c, 25 * MiB);
    assert_int_equal(b, GPU_CACHE_EXP_BASE_LARGE);
    assert_int_equal(reserved(f.c), 2 * MiB + 40 * MiB); /* two 20 MiB pages */
    uint64_t c = must_alloc(f.c, 10 * MiB);                /* fits the 15 MiB left: no map */
    assert_int_equal(c, b + 25 * MiB);
    assert_int_equal(reserved(f.c), 42 * MiB);
    gpu_caching_free(f.c, b);                              /* page 0 now wholly free */
    gpu_caching_empty_cache(f.c);
    assert_int_equal(reserved(f.c), 2 * MiB + 20 * MiB);
    gpu_caching_free(f.c, a);
    gpu_caching_free(f.c, c);
    gpu_caching_empty_cache(f.c);
    s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 0);
    assert_int_equal(gpu_model_dev_used(f.dev), 0);
    struct gpu_cache_map m;
    assert_int_equal(gpu_caching_segments(f.c, &m), GPU_OK);
    assert_int_equal(m.nsegs, 0);
    gpu_cache_map_free(&m);
    fx_close(&f);
}

/* Expandable segments reserve a bounded address range (9/8 of the device, at most 1 TiB in the
 * model): a request larger than that range is an OOM, never a walk off the segment's block list,
 * on any device size, and the allocator works on afterwards. */
static void test_expandable_request_past_address_space(void **state)
{
    (void)state;
    const uint64_t TiB = 1024 * GiB;
    const uint64_t caps[] = {GiB, 24 * GiB, 141000000000ull, TiB, 2 * TiB, 4 * TiB};
    const uint64_t asks[] = {1100 * GiB, 2 * TiB, 4 * TiB, 4 * TiB + 1, (1ull << 59)};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        for (int exp = 0; exp < 2; exp++) {
            struct gpu_caching_opts o = opts(UINT64_MAX, 0, exp, 0);
            struct fixture f;
            fx_open(&f, caps[i], &o);
            uint64_t small = must_alloc(f.c, 4 * KiB);
            for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
                uint64_t a = 0;
                char err[512];
                /* every ask is past 1 TiB: only a plain segment on a device that big fits */
                bool fits = !exp && asks[k] + 64 * MiB <= caps[i];
                gpu_status st = gpu_caching_malloc(f.c, asks[k], &a, err, sizeof err);
                if (fits) {
                    assert_int_equal(st, GPU_OK);
                    assert_int_equal(gpu_caching_free(f.c, a), GPU_OK);
                } else {
                    assert_int_equal(st, GPU_ERR_NOMEM);
                    assert_non_null(strstr(err, "out of memory"));
                }
            }
            /* the space a failed walk mapped is cache, not lost: empty_cache returns it */
            uint64_t b = must_alloc(f.c, 30 * MiB);
            gpu_caching_free(f.c, b);
            gpu_caching_free(f.c, small);
            gpu_caching_empty_cache(f.c);
            assert_int_equal(reserved(f.c), 0);
            fx_close(&f);
        }
}

/* ---- options ---------------------------------------------------------------------------------- */

static void test_max_split_size(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(32 * MiB, 0, false, 0);
    struct fixture f;
    fx_open(&f, GiB, &o);
    uint64_t big = must_alloc(f.c, 64 * MiB);
    gpu_caching_free(f.c, big);
    /* a request under max_split_size never uses an oversize block */
    uint64_t small = must_alloc(f.c, 16 * MiB);
    assert_true(small != big);
    assert_int_equal(reserved(f.c), 80 * MiB);
    /* an oversize request may take it whole, within 20 MiB of its size, without a split */
    uint64_t x = must_alloc(f.c, 50 * MiB);
    assert_int_equal(x, big);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, 80 * MiB);
    assert_int_equal(s.oversize_allocations.current, 1);
    assert_int_equal(s.oversize_segments.current, 1);
    gpu_caching_free(f.c, x);
    /* ... but not when the block is 20 MiB or more too big */
    uint64_t y = must_alloc(f.c, 40 * MiB);
    assert_true(y != big);
    assert_int_equal(reserved(f.c), 120 * MiB);
    fx_close(&f);

    /* on OOM the oversize cache goes first, only as much as needed */
    fx_open(&f, 128 * MiB, &o);
    gpu_caching_free(f.c, must_alloc(f.c, 100 * MiB));
    must_alloc(f.c, 40 * MiB);
    s = stats_of(f.c);
    assert_int_equal(s.reserved_bytes[GPU_CACHE_ALL].current, 40 * MiB);
    assert_int_equal(s.num_alloc_retries, 0); /* freed by release_available_cached_blocks */
    assert_int_equal(s.num_ooms, 0);
    fx_close(&f);

    struct gpu_caching *c;
    char err[256];
    o.max_split_size = 19 * MiB;
    assert_int_equal(gpu_caching_new_model(&o, GiB, &c, err, sizeof err), GPU_ERR_ARG);
    assert_null(c);
    assert_non_null(strstr(err, "20 MiB"));
}

static void test_memory_fraction(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(UINT64_MAX, 0, false, 0.5);
    struct fixture f;
    fx_open(&f, 100 * MiB, &o);
    uint64_t a = must_alloc(f.c, 30 * MiB), x;
    char err[1024];
    assert_int_equal(gpu_caching_malloc(f.c, 30 * MiB, &x, err, sizeof err), GPU_ERR_NOMEM);
    assert_non_null(strstr(err, "of which 70.00 MiB is free. 50.00 MiB allowed; Of the allocated"));
    gpu_caching_free(f.c, a);
    assert_int_equal(gpu_caching_malloc(f.c, 30 * MiB, &x, err, sizeof err), GPU_OK);
    assert_int_equal(x, a); /* the cached block */
    gpu_caching_free(f.c, x);
    /* 50 MiB exactly is allowed once the cache is released by the retry */
    assert_int_equal(gpu_caching_malloc(f.c, 50 * MiB, &x, err, sizeof err), GPU_OK);
    assert_int_equal(reserved(f.c), 50 * MiB);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.num_ooms, 1);
    fx_close(&f);
}

static void test_roundup_power2_divisions(void **state)
{
    (void)state;
    static const struct {
        uint64_t req, rounded;
    } cases[] = {
        {1200, 1536},              /* not above 512 x 4: plain 512 rounding */
        {2048, 2048},
        {2049, 2560},              /* 2048..4096 in 4 steps of 512 */
        {5000, 5120},              /* 4096..8192 in steps of 1024 */
        {MiB + 1, MiB + 256 * KiB},
        {1280 * KiB + 1, 1536 * KiB},
        {24 * MiB, 24 * MiB},
        {33 * MiB, 40 * MiB},      /* 32..64 MiB in steps of 8 MiB */
    };
    struct gpu_caching_opts o = opts(UINT64_MAX, 4, false, 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fixture f;
        fx_open(&f, GiB, &o);
        must_alloc(f.c, cases[i].req);
        struct gpu_caching_stats s = stats_of(f.c);
        assert_int_equal(s.allocated_bytes[GPU_CACHE_ALL].current, cases[i].rounded);
        assert_int_equal(s.requested_bytes[GPU_CACHE_ALL].current, cases[i].req);
        fx_close(&f);
    }
}

static void test_parse_conf(void **state)
{
    (void)state;
    struct gpu_caching_opts o;
    char err[256];
    gpu_caching_opts_default(&o);
    assert_int_equal(gpu_caching_parse_conf("max_split_size_mb:128, roundup_power2_divisions:4,"
                                            "expandable_segments:True,backend:native", &o, err,
                                            sizeof err), GPU_OK);
    assert_int_equal(o.max_split_size, 128 * MiB);
    assert_int_equal(o.roundup_power2_divisions, 4);
    assert_true(o.expandable_segments);
    struct gpu_caching_opts keep = o;
    assert_int_equal(gpu_caching_parse_conf("max_split_size_mb:10", &o, err, sizeof err),
                     GPU_ERR_ARG);
    assert_non_null(strstr(err, "out of range [20, "));
    assert_memory_equal(&o, &keep, sizeof o);
    /* strict numbers: trailing text, overflow past 2^64 and past what fits in bytes, signs */
    static const char *const bad[] = {"max_split_size_mb:99999999999999999999",
                                      "max_split_size_mb:17592186044416", "max_split_size_mb:128abc",
                                      "max_split_size_mb:0x80", "max_split_size_mb:-128",
                                      "max_split_size_mb:1e3", "roundup_power2_divisions:4x",
                                      "roundup_power2_divisions:99999999999999999999",
                                      "roundup_power2_divisions:0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(gpu_caching_parse_conf(bad[i], &o, err, sizeof err), GPU_ERR_ARG);
        assert_memory_equal(&o, &keep, sizeof o);
    }
    assert_int_equal(gpu_caching_parse_conf("max_split_size_mb:17592186044415", &o, err, sizeof err),
                     GPU_OK);
    assert_int_equal(o.max_split_size, 17592186044415ull << 20);
    o = keep;
    assert_int_equal(gpu_caching_parse_conf("roundup_power2_divisions:3", &o, err, sizeof err),
                     GPU_ERR_ARG);
    assert_int_equal(gpu_caching_parse_conf("expandable_segments:yes", &o, err, sizeof err),
                     GPU_ERR_ARG);
    assert_int_equal(gpu_caching_parse_conf("garbage_collection_threshold:0.6", &o, err, sizeof err),
                     GPU_ERR_ARG);
    assert_non_null(strstr(err, "not modelled"));
    assert_int_equal(gpu_caching_parse_conf("frobnicate:1", &o, err, sizeof err), GPU_ERR_ARG);
    assert_string_equal(err, "Unrecognized CachingAllocator option: frobnicate");
}

static void test_format_size(void **state)
{
    (void)state;
    static const struct {
        uint64_t n;
        const char *s;
    } cases[] = {
        {0, "0 bytes"}, {1024, "1024 bytes"}, {1025, "1.00 KiB"}, {1536, "1.50 KiB"},
        {MiB, "1024.00 KiB"}, {20 * MiB, "20.00 MiB"}, {GiB, "1024.00 MiB"},
        {GiB + GiB / 2, "1.50 GiB"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpu_cache_format_size(cases[i].n, buf, sizeof buf);
        assert_string_equal(buf, cases[i].s);
    }
}

static void test_bad_calls(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    uint64_t x;
    char err[256];
    assert_int_equal(gpu_caching_malloc(f.c, 0, &x, err, sizeof err), GPU_ERR_ARG);
    assert_int_equal(gpu_caching_malloc(f.c, 1ull << 61, &x, err, sizeof err), GPU_ERR_NOMEM);
    assert_string_equal(err, "CUDA out of memory. Tried to allocate more than 1EB memory.");
    uint64_t a = must_alloc(f.c, 4096);
    assert_int_equal(gpu_caching_free(f.c, a + 512), GPU_ERR_ARG);
    assert_int_equal(gpu_caching_free(f.c, a), GPU_OK);
    assert_int_equal(gpu_caching_free(f.c, a), GPU_ERR_ARG); /* double free */
    assert_int_equal(stats_of(f.c).num_ooms, 0);
    fx_close(&f);
    struct gpu_caching_opts o = opts(UINT64_MAX, 0, false, 1.5);
    struct gpu_caching *c;
    assert_int_equal(gpu_caching_new_model(&o, GiB, &c, err, sizeof err), GPU_ERR_ARG);
    gpu_caching_destroy(NULL);
}

static void test_peaks_and_reset(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    uint64_t a = must_alloc(f.c, 100 * MiB);
    gpu_caching_free(f.c, a);
    gpu_caching_empty_cache(f.c);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.allocated_bytes[0].peak, 100 * MiB);
    assert_int_equal(s.reserved_bytes[0].peak, 100 * MiB);
    assert_int_equal(s.reserved_bytes[0].current, 0);
    assert_int_equal(s.allocated_bytes[0].allocated, 100 * MiB);
    assert_int_equal(s.allocated_bytes[0].freed, 100 * MiB);
    gpu_caching_reset_peak(f.c);
    must_alloc(f.c, MiB); /* small pool: a 2 MiB segment */
    s = stats_of(f.c);
    assert_int_equal(s.allocated_bytes[0].peak, MiB);
    assert_int_equal(s.reserved_bytes[0].peak, 2 * MiB);
    assert_int_equal(s.allocation[0].allocated, 2); /* cumulative counts survive the reset */
    fx_close(&f);
}

static void test_summary(void **state)
{
    (void)state;
    struct fixture f;
    fx_open(&f, GiB, NULL);
    must_alloc(f.c, 512);
    must_alloc(f.c, 30 * MiB);
    size_t need = gpu_caching_summary(f.c, NULL, 0);
    char *buf = malloc(need + 1);
    assert_int_equal(gpu_caching_summary(f.c, buf, need + 1), need);
    assert_non_null(strstr(buf, "|                  PyTorch CUDA memory summary, device ID 0                 |\n"));
    assert_non_null(strstr(buf, "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"));
    assert_non_null(strstr(buf, "| Allocated memory      |  30720 KiB |  30720 KiB |  30720 KiB |      0 B   |\n"));
    assert_non_null(strstr(buf, "|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |\n"));
    assert_non_null(strstr(buf, "| GPU reserved segments |       2    |       2    |       2    |       0    |\n"));
    /* every line is the 75 columns of PyTorch's table plus its two borders */
    for (char *line = buf; *line;) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl);
        assert_int_equal(nl - line, 77);
        line = nl + 1;
    }
    free(buf);
    char small[16];
    gpu_caching_summary(f.c, small, sizeof small);
    assert_int_equal(strlen(small), 15);
    fx_close(&f);
}

/* ---- traces ------------------------------------------------------------------------------------- */

static void expect_parse_error(const char *text, const char *want)
{
    struct gpu_trace t;
    char err[256];
    assert_int_equal(gpu_trace_parse(text, strlen(text), &t, err, sizeof err), GPU_ERR_ARG);
    assert_string_equal(err, want);
    assert_null(t.ev);
    assert_int_equal(t.n, 0);
}

static void test_trace_parse(void **state)
{
    (void)state;
    const char *text = "# a comment\n"
                       "\n"
                       "a 1 4096\n"
                       "  a 0x10 2MiB   # trailing comment\r\n"
                       "f 1\n"
                       "a 1 1KiB\n"
                       "e\n"
                       "f 16\n";
    struct gpu_trace t;
    char err[256];
    assert_int_equal(gpu_trace_parse(text, strlen(text), &t, err, sizeof err), GPU_OK);
    assert_int_equal(t.n, 6);
    assert_int_equal(t.ev[0].op, GPU_TRACE_ALLOC);
    assert_int_equal(t.ev[0].bytes, 4096);
    assert_int_equal(t.ev[0].line, 3);
    assert_int_equal(t.ev[1].id, 16);
    assert_int_equal(t.ev[1].bytes, 2 * MiB);
    assert_int_equal(t.ev[2].op, GPU_TRACE_FREE);
    assert_int_equal(t.ev[2].slot, t.ev[0].slot);
    assert_int_equal(t.ev[3].bytes, 1024);
    assert_int_equal(t.ev[3].slot, t.ev[0].slot); /* freed slots are reused */
    assert_int_equal(t.ev[4].op, GPU_TRACE_EMPTY);
    assert_int_equal(t.nslots, 2);
    gpu_trace_free(&t);

    expect_parse_error("a 1 10\nx 2\n", "line 2: unknown event 'x' (expected a, f, e or #)");
    expect_parse_error("\n\na 1\n", "line 3: 'a' needs an id and a size");
    expect_parse_error("f\n", "line 1: 'f' needs an id");
    expect_parse_error("a 1 12x\n", "line 1: bad size '12x' (whole bytes > 0: 4096, 0x1000, 1536KiB, 1.5MiB, 2GB)");
    expect_parse_error("a 1 0\n", "line 1: bad size '0' (whole bytes > 0: 4096, 0x1000, 1536KiB, 1.5MiB, 2GB)");
    expect_parse_error("a one 5\n", "line 1: bad id 'one' (a decimal or 0x number)");
    expect_parse_error("a 1 5\na 1 6\n", "line 2: id 1 is already live (allocated on line 1)");
    expect_parse_error("a 1 5\nf 1\nf 1\n", "line 3: free of id 1, which is not live");
    expect_parse_error("e now\n", "line 1: unexpected 'now' after the event");
    expect_parse_error("a 1 99999999999999999999\n",
                       "line 1: bad size '99999999999999999999' (whole bytes > 0: 4096, 0x1000, 1536KiB, 1.5MiB, 2GB)");
}

static void test_trace_replay_oom(void **state)
{
    (void)state;
    const char *text = "a 1 60MiB\n"
                       "a 2 60MiB\n"  /* does not fit in 100 MiB */
                       "f 2\n"        /* skipped: never allocated */
                       "f 1\n"
                       "e\n"
                       "a 3 60MiB\n";
    struct gpu_trace t;
    char err[256];
    assert_int_equal(gpu_trace_parse(text, strlen(text), &t, err, sizeof err), GPU_OK);
    struct gpu_caching *c;
    assert_int_equal(gpu_caching_new_model(NULL, 100 * MiB, &c, err, sizeof err), GPU_OK);
    struct gpu_replay_result r;
    assert_int_equal(gpu_trace_replay(&t, c, &r, NULL, err, sizeof err), GPU_OK);
    assert_int_equal(r.allocs, 2);
    assert_int_equal(r.ooms, 1);
    assert_int_equal(r.first_oom_line, 2);
    assert_int_equal(strncmp(r.first_oom, "CUDA out of memory. Tried to allocate 60.00 MiB.", 48), 0);
    assert_int_equal(r.frees, 1);
    assert_int_equal(r.skipped_frees, 1);
    assert_int_equal(r.empties, 1);
    assert_int_equal(r.stats.allocated_bytes[0].current, 60 * MiB);
    assert_int_equal(r.stats.reserved_bytes[0].current, 60 * MiB);
    assert_int_equal(r.stats.num_ooms, 1);
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Request sizes with PyTorch-like variety: many small tensors, fewer big ones. */
static uint64_t rnd_size(uint64_t *s, uint64_t big)
{
    uint64_t k = rnd(s) % 100;
    if (k < 50) return 1 + rnd(s) % (1ull << (1 + rnd(s) % 20));      /* up to 1 MiB */
    if (k < 80) return MiB + 1 + rnd(s) % (9 * MiB);                  /* (1, 10] MiB */
    return 10 * MiB + rnd(s) % big;                                   /* own segments */
}

static void test_trace_recording(void **state)
{
    (void)state;
    struct gpu_caching *c;
    char err[512];
    assert_int_equal(gpu_caching_new_model(NULL, 64 * MiB, &c, err, sizeof err), GPU_OK);
    uint64_t early = must_alloc(c, 4096); /* from before recording */
    struct gpu_trace_buf buf = {0};
    gpu_caching_record(c, gpu_trace_sink_buf, &buf);
    uint64_t a = must_alloc(c, MiB), x;
    assert_int_equal(gpu_caching_malloc(c, 100 * MiB, &x, err, sizeof err), GPU_ERR_NOMEM);
    gpu_caching_free(c, early);
    gpu_caching_empty_cache(c);
    gpu_caching_free(c, a);
    gpu_caching_record(c, NULL, NULL);
    must_alloc(c, 512); /* not recorded */
    assert_false(buf.failed);
    assert_string_equal(buf.data,
                        "# vramlab allocator trace v1\n"
                        "# conf: expandable_segments:False\n"
                        "a 1 1048576\n"
                        "a 2 104857600\n"
                        "# ^ out of memory\n"
                        "# free of 0x0, allocated before recording\n"
                        "e\n"
                        "f 1\n");
    struct gpu_trace t;
    assert_int_equal(gpu_trace_parse(buf.data, buf.len, &t, err, sizeof err), GPU_OK);
    assert_int_equal(t.n, 4);
    gpu_trace_free(&t);
    gpu_trace_buf_free(&buf);

    /* the FILE sink writes the same lines */
    FILE *f = tmpfile();
    assert_non_null(f);
    gpu_caching_record(c, gpu_trace_sink_file, f);
    must_alloc(c, 3000);
    gpu_caching_record(c, NULL, NULL);
    rewind(f);
    char line[128] = "";
    while (fgets(line, sizeof line, f) && line[0] == '#') {}
    assert_string_equal(line, "a 1 3000\n");
    fclose(f);
    gpu_caching_destroy(c);
}

static void test_trace_exact_round_trip(void **state)
{
    (void)state;
    struct gpu_caching_opts cfgs[] = {opts(UINT64_MAX, 0, false, 0), opts(48 * MiB, 4, false, 0.9),
                                      opts(UINT64_MAX, 0, true, 0)};
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        struct gpu_caching *c;
        char err[512];
        assert_int_equal(gpu_caching_new_model(&cfgs[k], 768 * MiB, &c, err, sizeof err), GPU_OK);
        struct gpu_trace_buf buf = {0};
        gpu_caching_record(c, gpu_trace_sink_buf, &buf);
        uint64_t live[300], seed = 7 + k;
        size_t nlive = 0;
        for (int i = 0; i < 30000; i++) {
            uint64_t p = rnd(&seed) % 1000;
            if (p < 450 && nlive) {
                size_t j = rnd(&seed) % nlive;
                gpu_caching_free(c, live[j]);
                live[j] = live[--nlive];
            } else if (p < 453) {
                gpu_caching_empty_cache(c);
            } else if (nlive < 300) {
                uint64_t a;
                if (gpu_caching_malloc(c, rnd_size(&seed, 80 * MiB), &a, err, sizeof err) == GPU_OK)
                    live[nlive++] = a;
            }
        }
        struct gpu_caching_stats orig = stats_of(c);
        /* the header's conf line gives back the options */
        const char *conf = strstr(buf.data, "# conf: ");
        assert_non_null(conf);
        char line[128];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(conf + 8, "\n"), conf + 8);
        struct gpu_caching_opts back;
        gpu_caching_opts_default(&back);
        assert_int_equal(gpu_caching_parse_conf(line, &back, err, sizeof err), GPU_OK);
        assert_int_equal(back.max_split_size, cfgs[k].max_split_size);
        assert_int_equal(back.roundup_power2_divisions, cfgs[k].roundup_power2_divisions);
        assert_int_equal(back.expandable_segments, cfgs[k].expandable_segments);
        struct gpu_trace t;
        assert_int_equal(gpu_trace_parse(buf.data, buf.len, &t, err, sizeof err), GPU_OK);
        struct gpu_caching *c2;
        assert_int_equal(gpu_caching_new_model(&cfgs[k], 768 * MiB, &c2, err, sizeof err), GPU_OK);
        struct gpu_replay_result r;
        assert_int_equal(gpu_trace_replay(&t, c2, &r, NULL, err, sizeof err), GPU_OK);
        assert_memory_equal(&r.stats, &orig, sizeof orig);
        assert_int_equal(r.ooms, orig.num_ooms);
        gpu_caching_destroy(c2);
        gpu_trace_free(&t);
        gpu_trace_buf_free(&buf);
        gpu_caching_destroy(c);
    }
}

static void test_trace_load(void **state)
{
    (void)state;
    char path[] = "/tmp/vramlab_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("a 1 100\n\nbogus\n", f);
    fclose(f);
    struct gpu_trace t;
    char err[512], want[600];
    assert_int_equal(gpu_trace_load(path, &t, NULL, 0, err, sizeof err), GPU_ERR_ARG);
    snprintf(want, sizeof want, "%s:3: unknown event 'bogus' (expected a, f, e or #)", path);
    assert_string_equal(err, want);
    remove(path);
    assert_int_equal(gpu_trace_load("/nonexistent/trace", &t, NULL, 0, err, sizeof err), GPU_ERR_ARG);
}

/* ---- randomized comparison with the reference ------------------------------------------------ */

static void run_against_reference(const struct gpu_caching_opts *o, uint64_t cap, long ops,
                                  uint64_t seed)
{
    struct ref *r = malloc(sizeof *r);
    assert_non_null(r);
    r_init(r, cap, o);
    struct fixture f;
    fx_open(&f, cap, o);
    enum { MAXLIVE = 400 };
    uint64_t live[MAXLIVE];
    size_t nlive = 0;
    uint64_t prev_peak_a = 0, prev_peak_r = 0;
    char err[1024];
    for (long op = 0; op < ops; op++) {
        /* alternate growing and draining phases: memory pressure and OOMs, then reuse of a
         * cache full of holes, then empty_cache on mostly free segments */
        uint64_t p = rnd(&seed) % 1000, pfree = (op / 1500) % 2 ? 600 : 400;
        bool do_free = nlive && (p < pfree || nlive == MAXLIVE);
        if (do_free) {
            size_t j = rnd(&seed) % nlive;
            assert_int_equal(gpu_caching_free(f.c, live[j]), GPU_OK);
            r_free(r, live[j]);
            live[j] = live[--nlive];
        } else if (p >= 996) {
            gpu_caching_empty_cache(f.c);
            r_release_cached(r);
        } else {
            uint64_t bytes = rnd_size(&seed, cap / 10), a = 0, ra = 0;
            gpu_status st = gpu_caching_malloc(f.c, bytes, &a, err, sizeof err);
            bool rok = r_malloc(r, bytes, &ra);
            if ((st == GPU_OK) != rok)
                fail_msg("op %ld: malloc(%llu) %s, reference %s", op, (unsigned long long)bytes,
                         gpu_status_str(st), rok ? "ok" : "OOM");
            if (rok) {
                if (a != ra)
                    fail_msg("op %ld: malloc(%llu) at 0x%llx, reference 0x%llx", op,
                             (unsigned long long)bytes, (unsigned long long)a,
                             (unsigned long long)ra);
                live[nlive++] = a;
            } else {
                assert_int_equal(st, GPU_ERR_NOMEM);
                assert_int_equal(strncmp(err, "CUDA out of memory. Tried to allocate ", 38), 0);
            }
        }
        r_compare(r, f.c, op);
        if (op % 997 == 0) r_compare_map(r, f.c, op);
        struct gpu_caching_stats s = stats_of(f.c);
        assert_true(s.requested_bytes[0].current <= s.allocated_bytes[0].current);
        assert_true(s.allocated_bytes[0].current <= s.reserved_bytes[0].current);
        assert_true(s.allocated_bytes[0].peak >= prev_peak_a);
        assert_true(s.reserved_bytes[0].peak >= prev_peak_r);
        assert_true(s.reserved_bytes[0].current <= cap);
        prev_peak_a = s.allocated_bytes[0].peak;
        prev_peak_r = s.reserved_bytes[0].peak;
    }
    if (getenv("CACHING_TEST_VERBOSE")) {
        struct gpu_caching_stats v = stats_of(f.c);
        printf("# ops %ld: ooms %llu retries %llu dev allocs %llu frees %llu peak reserved %llu MiB "
               "isplit peak %llu MiB oversize segs %llu\n", ops, (unsigned long long)v.num_ooms,
               (unsigned long long)v.num_alloc_retries, (unsigned long long)v.num_device_alloc,
               (unsigned long long)v.num_device_free,
               (unsigned long long)(v.reserved_bytes[0].peak >> 20),
               (unsigned long long)(v.inactive_split_bytes[0].peak >> 20),
               (unsigned long long)v.oversize_segments.allocated);
    }
    while (nlive) {
        nlive--;
        assert_int_equal(gpu_caching_free(f.c, live[nlive]), GPU_OK);
        r_free(r, live[nlive]);
    }
    r_compare(r, f.c, ops);
    r_compare_map(r, f.c, ops);
    struct gpu_caching_stats s = stats_of(f.c);
    assert_int_equal(s.allocated_bytes[0].current, 0);
    assert_int_equal(s.requested_bytes[0].current, 0);
    assert_int_equal(s.allocation[0].current, 0);
    assert_int_equal(s.inactive_split_bytes[0].current, 0);
    gpu_caching_empty_cache(f.c);
    r_release_cached(r);
    r_compare(r, f.c, ops + 1);
    assert_int_equal(reserved(f.c), 0);
    assert_int_equal(gpu_model_dev_used(f.dev), 0);
    fx_close(&f);
    r_fini(r);
    free(r);
}

static void test_random_default(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(UINT64_MAX, 0, false, 0);
    run_against_reference(&o, GiB, 100000, 1);
}

static void test_random_max_split(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(40 * MiB, 0, false, 0);
    run_against_reference(&o, GiB, 50000, 2);
}

static void test_random_roundup_fraction(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(UINT64_MAX, 8, false, 0.7);
    run_against_reference(&o, GiB, 50000, 3);
}

static void test_random_expandable(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(UINT64_MAX, 0, true, 0);
    run_against_reference(&o, GiB, 50000, 4);
}

static void test_random_everything(void **state)
{
    (void)state;
    struct gpu_caching_opts o = opts(24 * MiB, 2, true, 0.8);
    run_against_reference(&o, 768 * MiB, 50000, 5);
    o.expandable_segments = false;
    run_against_reference(&o, 768 * MiB, 50000, 6);
}

/* ---- a million events: prints the time, asserts only on results ------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The model device's indexed first fit hands out exactly the addresses a plain sorted list of
 * free ranges scanned from the lowest address would (its earlier, quadratic form), through heavy
 * fragmentation, OOMs and coalescing on both sides. */
struct ref_ext {
    uint64_t addr, size;
};

static bool ref_alloc(struct ref_ext *f, size_t *n, uint64_t b, uint64_t *addr)
{
    for (size_t i = 0; i < *n; i++) {
        if (f[i].size < b) continue;
        *addr = f[i].addr;
        f[i].addr += b, f[i].size -= b;
        if (!f[i].size) memmove(&f[i], &f[i + 1], (--*n - i) * sizeof *f);
        return true;
    }
    return false;
}

static void ref_free(struct ref_ext *f, size_t *n, uint64_t addr, uint64_t b)
{
    size_t lo = 0;
    while (lo < *n && f[lo].addr <= addr) lo++;
    bool jp = lo > 0 && f[lo - 1].addr + f[lo - 1].size == addr;
    bool jn = lo < *n && addr + b == f[lo].addr;
    if (jp && jn) {
        f[lo - 1].size += b + f[lo].size;
        memmove(&f[lo], &f[lo + 1], (--*n - lo) * sizeof *f);
    } else if (jp) {
        f[lo - 1].size += b;
    } else if (jn) {
        f[lo].addr = addr, f[lo].size += b;
    } else {
        memmove(&f[lo + 1], &f[lo], (*n - lo) * sizeof *f);
        f[lo] = (struct ref_ext){addr, b};
        ++*n;
    }
}

static void test_model_device_first_fit(void **state)
{
    (void)state;
    enum { OPS = 40000, LIVE = 2000 };
    const uint64_t cap = 64 * GiB;
    struct gpu_model_dev *d;
    assert_int_equal(gpu_model_dev_new(cap, &d), GPU_OK);
    struct ref_ext *f = malloc((LIVE + 2) * sizeof *f);
    assert_non_null(f);
    size_t nf = 1;
    f[0] = (struct ref_ext){0, 1ull << 43};
    uint64_t used = 0, seed = 7, live_a[LIVE], live_b[LIVE];
    size_t nlive = 0, ooms = 0;
    for (int i = 0; i < OPS; i++) {
        if ((rnd(&seed) % 100 < 45 && nlive) || nlive == LIVE) {
            size_t j = rnd(&seed) % nlive;
            gpu_model_dev_ops.seg_free(d, live_a[j], live_b[j]);
            ref_free(f, &nf, live_a[j], (live_b[j] + 511) / 512 * 512);
            used -= (live_b[j] + 511) / 512 * 512;
            live_a[j] = live_a[--nlive], live_b[j] = live_b[nlive];
        } else {
            uint64_t bytes = 1 + rnd(&seed) % (rnd(&seed) % 4 ? 64 * MiB : 2 * GiB), a = 0, ra = 0;
            uint64_t b = (bytes + 511) / 512 * 512;
            gpu_status st = gpu_model_dev_ops.seg_alloc(d, bytes, &a);
            bool ok = used + b <= cap && ref_alloc(f, &nf, b, &ra);
            assert_int_equal(st, ok ? GPU_OK : GPU_ERR_NOMEM);
            if (!ok) {
                ooms++;
                continue;
            }
            assert_int_equal(a, ra);
            used += b;
            live_a[nlive] = a, live_b[nlive++] = bytes;
        }
        assert_int_equal(gpu_model_dev_used(d), used);
    }
    assert_true(ooms > 0 && nf > 100); /* the run did reach a full, fragmented device */
    while (nlive--) gpu_model_dev_ops.seg_free(d, live_a[nlive], live_b[nlive]);
    assert_int_equal(gpu_model_dev_used(d), 0);
    uint64_t a;
    assert_int_equal(gpu_model_dev_ops.seg_alloc(d, cap, &a), GPU_OK); /* all coalesced again */
    assert_int_equal(a, 0);
    gpu_model_dev_free(d);
    free(f);
}

/* A replay stops at the caller's cancel flag, with the counts so far. */
static void test_replay_cancel(void **state)
{
    (void)state;
    char text[64 * 20000], err[256];
    size_t len = 0;
    for (int i = 1; i <= 10000; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "a %d 4096\nf %d\n", i, i);
    struct gpu_trace t;
    assert_int_equal(gpu_trace_parse(text, len, &t, err, sizeof err), GPU_OK);
    struct gpu_caching *c;
    assert_int_equal(gpu_caching_new_model(NULL, GiB, &c, err, sizeof err), GPU_OK);
    struct gpu_replay_result r;
    gpu_cancel_flag stop = 1;
    assert_int_equal(gpu_trace_replay(&t, c, &r, &stop, err, sizeof err), GPU_ERR_CANCELLED);
    assert_string_equal(err, "line 1: cancelled");
    assert_int_equal(r.allocs, 0);
    stop = 0;
    assert_int_equal(gpu_trace_replay(&t, c, &r, &stop, err, sizeof err), GPU_OK);
    assert_int_equal(r.allocs, 10000);
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
}

static void test_replay_million_events(void **state)
{
    (void)state;
    enum { EVENTS = 1000000, LIVE = 4096 };
    size_t cap = (size_t)EVENTS * 32;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = 0;
    uint64_t ids[LIVE], next_id = 1, seed = 99;
    size_t nlive = 0;
    for (int i = 0; i < EVENTS; i++) {
        uint64_t p = rnd(&seed) % 1000;
        if ((p < 480 && nlive) || nlive == LIVE) {
            size_t j = rnd(&seed) % nlive;
            len += (size_t)snprintf(text + len, cap - len, "f %llu\n", (unsigned long long)ids[j]);
            ids[j] = ids[--nlive];
        } else if (p == 999) {
            len += (size_t)snprintf(text + len, cap - len, "e\n");
        } else {
            ids[nlive] = next_id++;
            len += (size_t)snprintf(text + len, cap - len, "a %llu %llu\n",
                                    (unsigned long long)ids[nlive],
                                    (unsigned long long)rnd_size(&seed, 64 * MiB));
            nlive++;
        }
    }
    struct gpu_trace t;
    char err[256];
    double t0 = now_s();
    assert_int_equal(gpu_trace_parse(text, len, &t, err, sizeof err), GPU_OK);
    double t1 = now_s();
    struct gpu_caching *c;
    assert_int_equal(gpu_caching_new_model(NULL, 80 * GiB, &c, err, sizeof err), GPU_OK);
    struct gpu_replay_result r;
    double t2 = now_s();
    assert_int_equal(gpu_trace_replay(&t, c, &r, NULL, err, sizeof err), GPU_OK);
    double t3 = now_s();
    assert_int_equal(t.n, EVENTS);
    assert_int_equal(r.allocs + r.ooms + r.frees + r.skipped_frees + r.empties, EVENTS);
    assert_int_equal(r.stats.allocation[0].current, r.allocs - r.frees);
    printf("# 1M-event trace: parse %.0f ms, replay %.0f ms (%zu allocs, %zu frees, %zu "
           "empty_cache, %zu OOMs, peak reserved %.2f GiB)\n",
           (t1 - t0) * 1e3, (t3 - t2) * 1e3, r.allocs, r.frees, r.empties, r.ooms,
           (double)r.stats.reserved_bytes[0].peak / (double)GiB);
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sixteens_then_thirtytwos),
        cmocka_unit_test(test_thirtytwos_then_sixteens),
        cmocka_unit_test(test_small_pool_and_rounding),
        cmocka_unit_test(test_large_segment_sizes),
        cmocka_unit_test(test_large_split_threshold),
        cmocka_unit_test(test_best_fit_and_coalescing),
        cmocka_unit_test(test_empty_cache_exactly_free_segments),
        cmocka_unit_test(test_oom_message_and_no_leak),
        cmocka_unit_test(test_oom_retry_frees_cache),
        cmocka_unit_test(test_fragmentation_oom),
        cmocka_unit_test(test_expandable_pages_and_empty_cache),
        cmocka_unit_test(test_expandable_request_past_address_space),
        cmocka_unit_test(test_max_split_size),
        cmocka_unit_test(test_memory_fraction),
        cmocka_unit_test(test_roundup_power2_divisions),
        cmocka_unit_test(test_parse_conf),
        cmocka_unit_test(test_format_size),
        cmocka_unit_test(test_bad_calls),
        cmocka_unit_test(test_peaks_and_reset),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_trace_parse),
        cmocka_unit_test(test_trace_replay_oom),
        cmocka_unit_test(test_trace_recording),
        cmocka_unit_test(test_trace_exact_round_trip),
        cmocka_unit_test(test_trace_load),
        cmocka_unit_test(test_random_default),
        cmocka_unit_test(test_random_max_split),
        cmocka_unit_test(test_random_roundup_fraction),
        cmocka_unit_test(test_random_expandable),
        cmocka_unit_test(test_random_everything),
        cmocka_unit_test(test_model_device_first_fit),
        cmocka_unit_test(test_replay_cancel),
        cmocka_unit_test(test_replay_million_events),
    };
    return cmocka_run_group_tests_name("caching allocator", tests, NULL, NULL);
}
