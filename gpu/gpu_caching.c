/* gpu_caching.c - the caching-allocator model: PyTorch's DeviceCachingAllocator rules
 * (c10/cuda/CUDACachingAllocator.cpp) over segments obtained through gpu_seg_ops.
 * Free blocks sit in a treap per pool keyed by (size, address) - PyTorch's std::set with
 * BlockComparatorSize - and live blocks in an address hash, so malloc and free are O(log n)
 * and a million-event trace replays in well under a second. Function names follow PyTorch's so
 * the two can be read side by side; docs/allocator.md lists each rule with its source. */
#include "gpu_caching.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SMALL, LARGE }; /* pool index; its stat index is 1 + pool */

#define NO_PAGE UINT64_MAX
#define ONE_EB (1ull << 60)

struct seg;
struct blk {
    uint64_t addr, size, req;
    uint64_t key;             /* tree key: size in the free tree, 0 in the unmapped tree */
    struct blk *prev, *next;  /* neighbours in the segment, address order */
    struct blk *l, *r;        /* treap children; r also links the spare list */
    struct seg *seg;
    uint64_t trace_id;
    uint32_t prio;
    bool allocated, mapped;
};

struct seg {
    struct seg *prev, *next;
    uint64_t addr, size;  /* the cudaMalloc'ed range; expandable: the reserved virtual range */
    int pool;
    bool expandable;
    struct blk *head;
    uint64_t page;        /* expandable: 2 MiB small pool, 20 MiB large pool */
    uint64_t *phys;       /* expandable: backend address of page i, NO_PAGE when unmapped */
    size_t nphys;
    unsigned slot;
};

struct pool {
    struct blk *free;     /* mapped free blocks by (size, addr) */
    struct blk *unmapped; /* unmapped ranges of expandable segments by addr */
};

struct amap {
    uint64_t *keys;
    struct blk **vals;
    size_t cap, n;
};

struct slab {
    struct slab *next;
    struct blk b[255];
};

struct gpu_caching {
    struct gpu_caching_opts o;
    struct gpu_seg_ops ops;
    void *ctx;
    struct gpu_model_dev *own_dev;
    uint64_t total_mem;   /* capacity from mem_info at creation; 0 = unknown */
    uint64_t allowed;     /* memory_fraction x capacity */
    bool set_fraction;
    struct pool pools[2];
    struct seg *segs;
    struct amap live;
    struct gpu_caching_stats st;
    /* inactive_split changes of the current call: PyTorch applies the net change once */
    int64_t isplit_bytes[2], isplit_n[2];
    struct blk *spare;
    struct slab *slabs;
    uint32_t rng;
    gpu_trace_sink sink;
    void *sink_ud;
    uint64_t next_id;
};

static void set_err(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

/* ---- treap keyed by (key, addr) ---------------------------------------------------------- */

static bool blk_lt(const struct blk *b, uint64_t key, uint64_t addr)
{
    return b->key < key || (b->key == key && b->addr < addr);
}

static void t_split(struct blk *t, uint64_t key, uint64_t addr, struct blk **l, struct blk **r)
{
    if (!t) {
        *l = *r = NULL;
    } else if (blk_lt(t, key, addr)) {
        t_split(t->r, key, addr, &t->r, r);
        *l = t;
    } else {
        t_split(t->l, key, addr, l, &t->l);
        *r = t;
    }
}

static struct blk *t_merge(struct blk *a, struct blk *b)
{
    if (!a) return b;
    if (!b) return a;
    if (a->prio > b->prio) {
        a->r = t_merge(a->r, b);
        return a;
    }
    b->l = t_merge(a, b->l);
    return b;
}

static void t_insert(struct blk **root, struct blk *x)
{
    struct blk **p = root;
    while (*p && (*p)->prio >= x->prio) p = blk_lt(*p, x->key, x->addr) ? &(*p)->r : &(*p)->l;
    t_split(*p, x->key, x->addr, &x->l, &x->r);
    *p = x;
}

static void t_erase(struct blk **root, struct blk *x)
{
    struct blk **p = root;
    while (*p != x) p = blk_lt(*p, x->key, x->addr) ? &(*p)->r : &(*p)->l;
    *p = t_merge(x->l, x->r);
}

/* Smallest node >= (key, addr): std::set::lower_bound. */
static struct blk *t_lower(struct blk *t, uint64_t key, uint64_t addr)
{
    struct blk *best = NULL;
    while (t) {
        if (blk_lt(t, key, addr)) {
            t = t->r;
        } else {
            best = t;
            t = t->l;
        }
    }
    return best;
}

static struct blk *t_next(struct blk *root, const struct blk *x)
{
    return t_lower(root, x->key, x->addr + 1);
}

/* Largest node < (key, addr). */
static struct blk *t_prev(struct blk *t, uint64_t key, uint64_t addr)
{
    struct blk *best = NULL;
    while (t) {
        if (blk_lt(t, key, addr)) {
            best = t;
            t = t->r;
        } else {
            t = t->l;
        }
    }
    return best;
}

static struct blk *t_max(struct blk *t)
{
    while (t && t->r) t = t->r;
    return t;
}

/* ---- address -> live block (open addressing, backward-shift deletion) --------------------- */

static size_t am_slot(const struct amap *m, uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (m->cap - 1);
}

static bool am_reserve(struct amap *m)
{
    if ((m->n + 1) * 2 <= m->cap) return true;
    size_t cap = m->cap ? m->cap * 2 : 256;
    struct amap nm = {malloc(cap * sizeof *nm.keys), calloc(cap, sizeof *nm.vals), cap, 0};
    if (!nm.keys || !nm.vals) {
        free(nm.keys);
        free(nm.vals);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->vals[i]) continue;
        size_t j = am_slot(&nm, m->keys[i]);
        while (nm.vals[j]) j = (j + 1) & (cap - 1);
        nm.keys[j] = m->keys[i];
        nm.vals[j] = m->vals[i];
    }
    nm.n = m->n;
    free(m->keys);
    free(m->vals);
    *m = nm;
    return true;
}

static void am_put(struct amap *m, uint64_t k, struct blk *v) /* after am_reserve */
{
    size_t i = am_slot(m, k);
    while (m->vals[i]) i = (i + 1) & (m->cap - 1);
    m->keys[i] = k;
    m->vals[i] = v;
    m->n++;
}

static size_t am_find(const struct amap *m, uint64_t k)
{
    if (!m->cap) return SIZE_MAX;
    for (size_t i = am_slot(m, k); m->vals[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == k) return i;
    return SIZE_MAX;
}

static void am_del_at(struct amap *m, size_t i)
{
    size_t mask = m->cap - 1;
    m->vals[i] = NULL;
    m->n--;
    for (size_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        size_t h = am_slot(m, m->keys[j]);
        /* move j back to the hole unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (stays) continue;
        m->keys[i] = m->keys[j];
        m->vals[i] = m->vals[j];
        m->vals[j] = NULL;
        i = j;
    }
}

/* ---- blocks, segments, stats ------------------------------------------------------------ */

/* Every call reserves the blocks it may need up front, so a host OOM never strikes half-way
 * through a split or a merge. */
static bool reserve_blks(struct gpu_caching *c, int k)
{
    int have = 0;
    for (struct blk *b = c->spare; b && have < k; b = b->r) have++;
    if (have >= k) return true;
    struct slab *s = malloc(sizeof *s);
    if (!s) return false;
    s->next = c->slabs;
    c->slabs = s;
    for (size_t i = 0; i < sizeof s->b / sizeof s->b[0]; i++) {
        s->b[i].r = c->spare;
        c->spare = &s->b[i];
    }
    return true;
}

static struct blk *new_blk(struct gpu_caching *c, struct seg *s, uint64_t addr, uint64_t size)
{
    struct blk *b = c->spare;
    c->spare = b->r;
    memset(b, 0, sizeof *b);
    b->addr = addr;
    b->size = size;
    b->seg = s;
    b->mapped = true;
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 17;
    c->rng ^= c->rng << 5;
    b->prio = c->rng;
    return b;
}

static void drop_blk(struct gpu_caching *c, struct blk *b)
{
    b->r = c->spare;
    c->spare = b;
}

static void stat_inc(struct gpu_cache_stat *s, uint64_t n)
{
    s->current += n;
    if (s->current > s->peak) s->peak = s->current;
    s->allocated += n;
}

static void stat_dec(struct gpu_cache_stat *s, uint64_t n)
{
    s->current -= n;
    s->freed += n;
}

/* The aggregate and the pool's entry together, like for_each_selected_stat_type. */
static void stats_inc(struct gpu_cache_stat *a, int pool, uint64_t n)
{
    stat_inc(&a[GPU_CACHE_ALL], n);
    stat_inc(&a[1 + pool], n);
}

static void stats_dec(struct gpu_cache_stat *a, int pool, uint64_t n)
{
    stat_dec(&a[GPU_CACHE_ALL], n);
    stat_dec(&a[1 + pool], n);
}

static bool is_split(const struct blk *b) { return b->prev || b->next; }

static void isplit_track(struct gpu_caching *c, const struct blk *b, int sign)
{
    /* expandable segments are left out of inactive_split, as in PyTorch's free_block */
    if (b->seg->expandable || !is_split(b)) return;
    c->isplit_bytes[b->seg->pool] += sign * (int64_t)b->size;
    c->isplit_n[b->seg->pool] += sign;
}

static void isplit_apply(struct gpu_caching *c)
{
    for (int p = 0; p < 2; p++) {
        int64_t db = c->isplit_bytes[p], dn = c->isplit_n[p];
        if (db > 0) stats_inc(c->st.inactive_split_bytes, p, (uint64_t)db);
        if (db < 0) stats_dec(c->st.inactive_split_bytes, p, (uint64_t)-db);
        if (dn > 0) stats_inc(c->st.inactive_split, p, (uint64_t)dn);
        if (dn < 0) stats_dec(c->st.inactive_split, p, (uint64_t)-dn);
        c->isplit_bytes[p] = c->isplit_n[p] = 0;
    }
}

static void free_insert(struct gpu_caching *c, struct blk *b)
{
    b->key = b->size;
    t_insert(&c->pools[b->seg->pool].free, b);
    isplit_track(c, b, +1);
}

static void free_erase(struct gpu_caching *c, struct blk *b)
{
    t_erase(&c->pools[b->seg->pool].free, b);
    isplit_track(c, b, -1);
}

static void unmapped_insert(struct gpu_caching *c, struct blk *b)
{
    b->key = 0;
    t_insert(&c->pools[b->seg->pool].unmapped, b);
}

static void unmapped_erase(struct gpu_caching *c, struct blk *b)
{
    t_erase(&c->pools[b->seg->pool].unmapped, b);
}

static void seg_link(struct gpu_caching *c, struct seg *s)
{
    s->prev = NULL;
    s->next = c->segs;
    if (c->segs) c->segs->prev = s;
    c->segs = s;
}

static void seg_unlink(struct gpu_caching *c, struct seg *s)
{
    if (s->prev) s->prev->next = s->next;
    else c->segs = s->next;
    if (s->next) s->next->prev = s->prev;
}

static void emit(struct gpu_caching *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct gpu_caching *c, const char *fmt, ...)
{
    char line[160];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k > 0) c->sink(c->sink_ud, line, (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
}

/* ---- size rules -------------------------------------------------------------------------- */

static int log2_floor(uint64_t x) { return 63 - __builtin_clzll(x); }

/* round_size's helper: round up to the next of `divisions` equal steps between powers of two. */
static uint64_t roundup_power2_next_division(uint64_t size, uint64_t divisions)
{
    if ((size & (size - 1)) == 0) return size;
    uint64_t floor2 = 1ull << log2_floor(size);
    uint64_t step = floor2 >> log2_floor(divisions);
    if (step == 0) return floor2 << 1;
    uint64_t down = size & ~(step - 1);
    return down == size ? size : down + step;
}

static uint64_t round_size(const struct gpu_caching *c, uint64_t size)
{
    if (size < GPU_CACHE_MIN_BLOCK_SIZE) return GPU_CACHE_MIN_BLOCK_SIZE;
    uint64_t div = c->o.roundup_power2_divisions;
    if (div > 1 && size > GPU_CACHE_MIN_BLOCK_SIZE * div)
        return roundup_power2_next_division(size, div);
    return (size + GPU_CACHE_MIN_BLOCK_SIZE - 1) / GPU_CACHE_MIN_BLOCK_SIZE *
           GPU_CACHE_MIN_BLOCK_SIZE;
}

static uint64_t get_allocation_size(uint64_t size)
{
    if (size <= GPU_CACHE_SMALL_SIZE) return GPU_CACHE_SMALL_BUFFER;
    if (size < GPU_CACHE_MIN_LARGE_ALLOC) return GPU_CACHE_LARGE_BUFFER;
    return (size + GPU_CACHE_ROUND_LARGE - 1) / GPU_CACHE_ROUND_LARGE * GPU_CACHE_ROUND_LARGE;
}

static bool should_split(const struct gpu_caching *c, const struct blk *b, uint64_t size)
{
    uint64_t remaining = b->size - size;
    if (b->seg->pool == SMALL || c->o.expandable_segments)
        return remaining >= GPU_CACHE_MIN_BLOCK_SIZE;
    return size < c->o.max_split_size && remaining > GPU_CACHE_SMALL_SIZE;
}

/* ---- the free-block search ----------------------------------------------------------------- */

static uint64_t expandable_size(const struct blk *b)
{
    return b->size + (b->next && !b->next->mapped ? b->next->size : 0);
}

static struct blk *get_free_block(struct gpu_caching *c, int pool, uint64_t size)
{
    struct blk *root = c->pools[pool].free;
    struct blk *b = t_lower(root, size, 0);
    if (!b) return NULL;
    if (b->seg->expandable) {
        /* best fit counts the unmapped room behind a block as part of it, so the block at the
         * growing end is taken only when nothing smaller fits */
        struct blk *nx = t_next(root, b);
        while (b->seg->expandable && nx && expandable_size(nx) < expandable_size(b)) {
            b = nx;
            nx = t_next(root, nx);
        }
    }
    uint64_t msplit = c->o.max_split_size;
    if (size < msplit && b->size >= msplit) return NULL; /* keep oversize blocks whole */
    if (size >= msplit && b->size >= size + GPU_CACHE_LARGE_BUFFER) return NULL;
    free_erase(c, b);
    return b;
}

/* ---- segments ---------------------------------------------------------------------------- */

static void release_block(struct gpu_caching *c, struct blk *b)
{
    struct seg *s = b->seg;
    c->ops.seg_free(c->ctx, s->addr, s->size);
    stats_dec(c->st.segment, s->pool, 1);
    stats_dec(c->st.reserved_bytes, s->pool, s->size);
    if (s->size >= c->o.max_split_size) stat_dec(&c->st.oversize_segments, 1);
    c->st.num_device_free++;
    free_erase(c, b);
    seg_unlink(c, s);
    free(s);
    drop_blk(c, b);
}

/* dst absorbs src when both are free and equally mapped; returns the bytes absorbed. */
static uint64_t try_merge_blocks(struct gpu_caching *c, struct blk *dst, struct blk *src)
{
    if (!src || src->allocated || src->mapped != dst->mapped) return 0;
    if (src->mapped) free_erase(c, src);
    else unmapped_erase(c, src);
    if (dst->prev == src) {
        dst->addr = src->addr;
        dst->prev = src->prev;
        if (dst->prev) dst->prev->next = dst;
        else dst->seg->head = dst;
    } else {
        dst->next = src->next;
        if (dst->next) dst->next->prev = dst;
    }
    uint64_t absorbed = src->size;
    dst->size += absorbed;
    drop_blk(c, src);
    return absorbed;
}

static void splice_after(struct blk *b, struct blk *after)
{
    b->prev = after;
    b->next = after->next;
    if (b->next) b->next->prev = b;
    after->next = b;
}

static void splice_before(struct gpu_caching *c, struct blk *b, struct blk *before)
{
    (void)c;
    b->next = before;
    b->prev = before->prev;
    if (b->prev) b->prev->next = b;
    else before->seg->head = b;
    before->prev = b;
}

/* Back physical pages [begin, end) of an expandable segment, all or nothing. */
static gpu_status map_pages(struct gpu_caching *c, struct seg *s, size_t begin, size_t end)
{
    if (end > s->nphys) {
        size_t cap = s->nphys ? s->nphys : 16;
        while (cap < end) cap *= 2;
        uint64_t *p = realloc(s->phys, cap * sizeof *p);
        if (!p) return GPU_ERR_HOST_NOMEM;
        for (size_t i = s->nphys; i < cap; i++) p[i] = NO_PAGE;
        s->phys = p;
        s->nphys = cap;
    }
    for (size_t i = begin; i < end; i++) {
        gpu_status st = c->ops.seg_alloc(c->ctx, s->page, &s->phys[i]);
        if (st != GPU_OK) {
            s->phys[i] = NO_PAGE;
            while (i-- > begin) {
                c->ops.seg_free(c->ctx, s->phys[i], s->page);
                s->phys[i] = NO_PAGE;
            }
            return st;
        }
    }
    return GPU_OK;
}

/* map_block: back the first `size` bytes (rounded up to pages) of an unmapped block. */
static gpu_status map_block(struct gpu_caching *c, struct blk *b, uint64_t size)
{
    struct seg *s = b->seg;
    if (!reserve_blks(c, 2)) return GPU_ERR_HOST_NOMEM;
    size_t begin = (size_t)((b->addr - s->addr) / s->page);
    size_t end = (size_t)((b->addr - s->addr + size + s->page - 1) / s->page);
    gpu_status st = map_pages(c, s, begin, end);
    if (st != GPU_OK) return st;
    uint64_t mapped = (uint64_t)(end - begin) * s->page;
    unmapped_erase(c, b);
    b->mapped = true;
    if (mapped < b->size) {
        struct blk *rest = new_blk(c, s, b->addr + mapped, b->size - mapped);
        rest->mapped = false;
        splice_after(rest, b);
        unmapped_insert(c, rest);
        b->size = mapped;
    }
    try_merge_blocks(c, b, b->prev);
    try_merge_blocks(c, b, b->next);
    free_insert(c, b);
    stats_inc(c->st.reserved_bytes, s->pool, mapped);
    c->st.num_device_alloc++;
    return GPU_OK;
}

/* unmap_block: return the pages lying wholly inside a free block to the backend. */
static gpu_status unmap_block(struct gpu_caching *c, struct blk *b)
{
    struct seg *s = b->seg;
    uint64_t rel = b->addr - s->addr;
    size_t begin = (size_t)((rel + s->page - 1) / s->page);
    size_t end = (size_t)((rel + b->size) / s->page);
    if (begin >= end) return GPU_OK;
    if (!reserve_blks(c, 2)) return GPU_ERR_HOST_NOMEM;
    free_erase(c, b);
    uint64_t ustart = s->addr + (uint64_t)begin * s->page;
    uint64_t usize = (uint64_t)(end - begin) * s->page;
    uint64_t before = ustart - b->addr;
    uint64_t after = b->size - before - usize;
    if (before) {
        struct blk *bf = new_blk(c, s, b->addr, before);
        splice_before(c, bf, b);
        free_insert(c, bf);
    }
    if (after) {
        struct blk *af = new_blk(c, s, ustart + usize, after);
        splice_after(af, b);
        free_insert(c, af);
    }
    b->addr = ustart;
    b->size = usize;
    b->mapped = false;
    try_merge_blocks(c, b, b->prev);
    try_merge_blocks(c, b, b->next);
    unmapped_insert(c, b);
    for (size_t i = begin; i < end; i++) {
        c->ops.seg_free(c->ctx, s->phys[i], s->page);
        s->phys[i] = NO_PAGE;
    }
    stats_dec(c->st.reserved_bytes, s->pool, usize);
    c->st.num_device_free++;
    return GPU_OK;
}

static void release_expandable_segment(struct gpu_caching *c, struct blk *b)
{
    struct seg *s = b->seg;
    unmapped_erase(c, b);
    seg_unlink(c, s);
    free(s->phys);
    free(s);
    drop_blk(c, b);
}

static uint64_t exp_va_size(const struct gpu_caching *c, uint64_t page)
{
    /* PyTorch reserves 1 1/8 of the device so pages unmapped mid-segment can move to the end */
    uint64_t va = c->total_mem ? c->total_mem + c->total_mem / 8 : GPU_CACHE_EXP_STRIDE;
    va = (va + page - 1) / page * page;
    uint64_t most = GPU_CACHE_EXP_STRIDE / page * page;
    return va < most ? va : most;
}

static bool allocatable(const struct blk *b) { return b && !b->allocated; }

static bool has_available_address_space(const struct blk *b, uint64_t size)
{
    uint64_t bytes = 0;
    while (bytes < size && allocatable(b)) {
        bytes += b->size;
        b = b->next;
    }
    return bytes >= size;
}

/* The lowest address where free and unmapped space together fit `size`; a new segment when
 * none does. */
static gpu_status find_expandable_block(struct gpu_caching *c, int pool, uint64_t size,
                                        struct blk **out)
{
    struct pool *p = &c->pools[pool];
    for (struct blk *u = t_lower(p->unmapped, 0, 0); u; u = t_next(p->unmapped, u)) {
        struct blk *cand = allocatable(u->prev) ? u->prev : u;
        if (has_available_address_space(cand, size)) {
            *out = cand;
            return GPU_OK;
        }
    }
    uint64_t page = pool == SMALL ? GPU_CACHE_SMALL_BUFFER : GPU_CACHE_LARGE_BUFFER;
    unsigned slot = 0;
    for (bool taken = true; taken; ) {
        taken = false;
        for (struct seg *s = c->segs; s; s = s->next)
            if (s->expandable && s->pool == pool && s->slot == slot) taken = true;
        if (taken) slot++;
    }
    if (slot >= 16 || !reserve_blks(c, 1)) return GPU_ERR_HOST_NOMEM;
    struct seg *s = calloc(1, sizeof *s);
    if (!s) return GPU_ERR_HOST_NOMEM;
    s->pool = pool;
    s->expandable = true;
    s->page = page;
    s->slot = slot;
    s->addr = (pool == SMALL ? GPU_CACHE_EXP_BASE_SMALL : GPU_CACHE_EXP_BASE_LARGE) +
              slot * GPU_CACHE_EXP_STRIDE;
    s->size = exp_va_size(c, page);
    struct blk *b = new_blk(c, s, s->addr, s->size);
    b->mapped = false;
    s->head = b;
    seg_link(c, s);
    unmapped_insert(c, b);
    *out = b;
    return GPU_OK;
}

static gpu_status try_allocate_expandable_block(struct gpu_caching *c, int pool, uint64_t size,
                                                struct blk **out)
{
    struct blk *cand;
    gpu_status st = find_expandable_block(c, pool, size, &cand);
    if (st != GPU_OK) return st;
    if (!cand->mapped) {
        st = map_block(c, cand, cand->size < size ? cand->size : size);
        if (st != GPU_OK) return st;
    }
    while (cand->size < size) {
        /* free -> unmapped: map part of the next range; it absorbs cand */
        struct blk *nx = cand->next;
        uint64_t want = size - cand->size;
        st = map_block(c, nx, want < nx->size ? want : nx->size);
        if (st != GPU_OK) return st;
        cand = nx;
    }
    free_erase(c, cand);
    *out = cand;
    return GPU_OK;
}

static gpu_status alloc_block(struct gpu_caching *c, int pool, uint64_t size, uint64_t alloc_size,
                              bool is_retry, struct blk **out)
{
    *out = NULL;
    if (is_retry) c->st.num_alloc_retries++;
    if (c->set_fraction && c->st.reserved_bytes[GPU_CACHE_ALL].current + alloc_size > c->allowed)
        return GPU_ERR_NOMEM;
    if (c->o.expandable_segments) return try_allocate_expandable_block(c, pool, size, out);
    struct seg *s = calloc(1, sizeof *s);
    if (!s) return GPU_ERR_HOST_NOMEM;
    uint64_t addr;
    gpu_status st = c->ops.seg_alloc(c->ctx, alloc_size, &addr);
    if (st != GPU_OK) {
        free(s);
        return st;
    }
    s->addr = addr;
    s->size = alloc_size;
    s->pool = pool;
    struct blk *b = new_blk(c, s, addr, alloc_size);
    s->head = b;
    seg_link(c, s);
    stats_inc(c->st.segment, pool, 1);
    stats_inc(c->st.reserved_bytes, pool, alloc_size);
    if (alloc_size >= c->o.max_split_size) stat_inc(&c->st.oversize_segments, 1);
    c->st.num_device_alloc++;
    *out = b;
    return GPU_OK;
}

/* With max_split_size set: free cached oversize blocks, only as many as the request needs. */
static bool release_available_cached_blocks(struct gpu_caching *c, int pool, uint64_t size)
{
    uint64_t msplit = c->o.max_split_size;
    if (msplit == GPU_CACHE_NO_SPLIT_LIMIT || c->o.expandable_segments) return false;
    struct pool *p = &c->pools[pool];
    uint64_t key = size < msplit ? msplit : size;
    struct blk *b = t_lower(p->free, key, 0);
    if (b) {
        if (is_split(b)) return false;
        release_block(c, b);
        return true;
    }
    /* no single block is large enough: free oversize blocks from the largest down */
    uint64_t released = 0;
    for (b = t_max(p->free); b && released < key && b->size >= msplit && !is_split(b);) {
        struct blk *below = t_prev(p->free, b->key, b->addr);
        released += b->size;
        release_block(c, b);
        b = below;
    }
    return released >= key;
}

/* release_blocks: free every segment nothing lives in; expandable segments give back the
 * pages lying wholly inside free blocks, and vanish once nothing is mapped. */
static void release_blocks(struct gpu_caching *c, int pool)
{
    struct seg *s = c->segs;
    while (s) {
        struct seg *nx = s->next;
        if (s->pool != pool) {
            s = nx;
            continue;
        }
        if (!s->expandable) {
            if (!s->head->allocated && !s->head->next) release_block(c, s->head);
            s = nx;
            continue;
        }
        /* unmap_block leaves b valid (it absorbs its unmapped neighbours), so b->next is
         * always the next range still to look at */
        for (struct blk *b = s->head; b; b = b->next)
            if (!b->allocated && b->mapped) unmap_block(c, b);
        if (!s->head->mapped && !s->head->next) release_expandable_segment(c, s->head);
        s = nx;
    }
}

static void release_cached_blocks(struct gpu_caching *c)
{
    release_blocks(c, LARGE);
    release_blocks(c, SMALL);
}

static struct blk *alloc_found_block(struct gpu_caching *c, struct blk *b, uint64_t size,
                                     uint64_t orig, bool split)
{
    int pool = b->seg->pool;
    if (split) {
        /* the request takes the front; the rest stays free (the same Block as before) */
        struct blk *rest = b;
        b = new_blk(c, rest->seg, rest->addr, size);
        splice_before(c, b, rest);
        rest->addr += size;
        rest->size -= size;
        free_insert(c, rest);
    }
    b->allocated = true;
    b->req = orig;
    am_put(&c->live, b->addr, b);
    stats_inc(c->st.allocation, pool, 1);
    stats_inc(c->st.allocated_bytes, pool, b->size);
    stats_inc(c->st.active, pool, 1);
    stats_inc(c->st.active_bytes, pool, b->size);
    stats_inc(c->st.requested_bytes, pool, orig);
    if (b->size >= c->o.max_split_size) stat_inc(&c->st.oversize_allocations, 1);
    return b;
}

static void oom_message(struct gpu_caching *c, uint64_t alloc_size, char *err, size_t n)
{
    char want[32], total[32], freeb[32], allowed[64] = "", alloc[32], cached[32];
    uint64_t fr = 0, tot = 0;
    bool known = c->ops.mem_info && c->ops.mem_info(c->ctx, &fr, &tot) == GPU_OK;
    uint64_t a = c->st.allocated_bytes[GPU_CACHE_ALL].current;
    uint64_t r = c->st.reserved_bytes[GPU_CACHE_ALL].current;
    gpu_cache_format_size(alloc_size, want, sizeof want);
    gpu_cache_format_size(a, alloc, sizeof alloc);
    gpu_cache_format_size(r - a, cached, sizeof cached);
    if (known) {
        gpu_cache_format_size(tot, total, sizeof total);
        gpu_cache_format_size(fr, freeb, sizeof freeb);
    } else {
        snprintf(total, sizeof total, "unknown");
        snprintf(freeb, sizeof freeb, "unknown");
    }
    if (c->set_fraction) {
        gpu_cache_format_size(c->allowed, allowed, sizeof allowed - 12);
        strcat(allowed, " allowed; ");
    }
    set_err(err, n,
            "CUDA out of memory. Tried to allocate %s. GPU 0 has a total capacity of %s of which "
            "%s is free. %sOf the allocated memory %s is allocated by PyTorch, and %s is reserved "
            "by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
            "documentation for Memory Management  "
            "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
            want, total, freeb, allowed, alloc, cached);
}

gpu_status gpu_caching_malloc(struct gpu_caching *c, uint64_t bytes, uint64_t *addr, char *err,
                              size_t n)
{
    if (err && n) err[0] = '\0';
    if (!c || !addr) return GPU_ERR_ARG;
    if (bytes == 0) {
        set_err(err, n, "cannot allocate 0 bytes (PyTorch hands out a null pointer instead)");
        return GPU_ERR_ARG;
    }
    if (bytes >= ONE_EB) {
        set_err(err, n, "CUDA out of memory. Tried to allocate more than 1EB memory.");
        return GPU_ERR_NOMEM;
    }
    if (!reserve_blks(c, 4) || !am_reserve(&c->live)) {
        set_err(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    uint64_t size = round_size(c, bytes);
    int pool = size <= GPU_CACHE_SMALL_SIZE ? SMALL : LARGE;
    uint64_t alloc_size = get_allocation_size(size);
    uint64_t id = c->sink ? c->next_id++ : 0;

    struct blk *b = get_free_block(c, pool, size);
    gpu_status st = GPU_OK;
    if (!b) {
        /* PyTorch's ladder: new segment; free oversize cached blocks and retry; free every
         * unsplit cached segment and retry once more */
        st = alloc_block(c, pool, size, alloc_size, false, &b);
        if (!b && st == GPU_ERR_NOMEM && release_available_cached_blocks(c, pool, size))
            st = alloc_block(c, pool, size, alloc_size, false, &b);
        if (!b && st == GPU_ERR_NOMEM) {
            release_cached_blocks(c);
            st = alloc_block(c, pool, size, alloc_size, true, &b);
        }
    }
    if (!b) {
        isplit_apply(c);
        if (c->sink) emit(c, "a %llu %llu\n# ^ out of memory\n", (unsigned long long)id,
                          (unsigned long long)bytes);
        if (st != GPU_ERR_NOMEM) {
            set_err(err, n, "getting a segment failed: %s", gpu_status_str(st));
            return st;
        }
        c->st.num_ooms++;
        oom_message(c, alloc_size, err, n);
        return GPU_ERR_NOMEM;
    }
    b = alloc_found_block(c, b, size, bytes, should_split(c, b, size));
    isplit_apply(c);
    b->trace_id = id;
    if (c->sink) emit(c, "a %llu %llu\n", (unsigned long long)id, (unsigned long long)bytes);
    *addr = b->addr;
    return GPU_OK;
}

gpu_status gpu_caching_free(struct gpu_caching *c, uint64_t addr)
{
    if (!c) return GPU_ERR_ARG;
    size_t at = am_find(&c->live, addr);
    if (at == SIZE_MAX) return GPU_ERR_ARG;
    struct blk *b = c->live.vals[at];
    am_del_at(&c->live, at);
    int pool = b->seg->pool;
    if (c->sink) {
        if (b->trace_id) emit(c, "f %llu\n", (unsigned long long)b->trace_id);
        else emit(c, "# free of 0x%llx, allocated before recording\n", (unsigned long long)addr);
    }
    b->allocated = false;
    uint64_t size = b->size;
    stats_dec(c->st.allocation, pool, 1);
    stats_dec(c->st.allocated_bytes, pool, size);
    if (size >= c->o.max_split_size) stat_dec(&c->st.oversize_allocations, 1);
    /* free_block */
    try_merge_blocks(c, b, b->prev);
    try_merge_blocks(c, b, b->next);
    free_insert(c, b);
    stats_dec(c->st.active, pool, 1);
    stats_dec(c->st.active_bytes, pool, size);
    stats_dec(c->st.requested_bytes, pool, b->req);
    b->req = 0;
    isplit_apply(c);
    return GPU_OK;
}

void gpu_caching_empty_cache(struct gpu_caching *c)
{
    if (!c) return;
    if (c->sink) emit(c, "e\n");
    release_cached_blocks(c);
    isplit_apply(c);
}

void gpu_caching_reset_peak(struct gpu_caching *c)
{
    if (!c) return;
    struct gpu_cache_stat *arrays[] = {c->st.allocation, c->st.segment, c->st.active,
                                       c->st.inactive_split, c->st.allocated_bytes,
                                       c->st.reserved_bytes, c->st.active_bytes,
                                       c->st.inactive_split_bytes, c->st.requested_bytes};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        for (int p = 0; p < GPU_CACHE_NPOOL; p++) arrays[i][p].peak = arrays[i][p].current;
    c->st.oversize_allocations.peak = c->st.oversize_allocations.current;
    c->st.oversize_segments.peak = c->st.oversize_segments.current;
}

void gpu_caching_stats(const struct gpu_caching *c, struct gpu_caching_stats *s)
{
    if (!c || !s) return;
    *s = c->st;
    for (int p = 0; p < 2; p++) {
        const struct blk *m = t_max(c->pools[p].free);
        s->largest_free[1 + p] = m ? m->size : 0;
    }
    s->largest_free[GPU_CACHE_ALL] = s->largest_free[1] > s->largest_free[2] ? s->largest_free[1]
                                                                              : s->largest_free[2];
    s->max_split_size = c->o.max_split_size;
}

void gpu_caching_get_opts(const struct gpu_caching *c, struct gpu_caching_opts *o)
{
    if (c && o) *o = c->o;
}

/* ---- lifecycle ------------------------------------------------------------------------------ */

static bool opts_valid(const struct gpu_caching_opts *o, char *err, size_t n)
{
    if (o->max_split_size != GPU_CACHE_NO_SPLIT_LIMIT && o->max_split_size < GPU_CACHE_LARGE_BUFFER) {
        set_err(err, n, "max_split_size too small, must be >= 20 MiB (as PyTorch's "
                        "max_split_size_mb >= 20)");
        return false;
    }
    unsigned d = o->roundup_power2_divisions;
    if (d & (d - 1)) {
        set_err(err, n, "roundup_power2_divisions must be a power of two (or 0 for off), not %u", d);
        return false;
    }
    if (!(o->memory_fraction >= 0 && o->memory_fraction <= 1)) {
        set_err(err, n, "memory_fraction must lie in [0, 1] (0 = no cap)");
        return false;
    }
    return true;
}

gpu_status gpu_caching_new(const struct gpu_caching_opts *o, const struct gpu_seg_ops *ops,
                           void *ctx, struct gpu_caching **out, char *err, size_t n)
{
    if (err && n) err[0] = '\0';
    if (!out) return GPU_ERR_ARG;
    *out = NULL;
    if (!ops || !ops->seg_alloc || !ops->seg_free) {
        set_err(err, n, "segment operations need seg_alloc and seg_free");
        return GPU_ERR_ARG;
    }
    struct gpu_caching_opts def;
    gpu_caching_opts_default(&def);
    if (!o) o = &def;
    if (!opts_valid(o, err, n)) return GPU_ERR_ARG;
    uint64_t fr = 0, tot = 0;
    bool known = ops->mem_info && ops->mem_info(ctx, &fr, &tot) == GPU_OK;
    if (o->memory_fraction > 0 && !known) {
        set_err(err, n, "memory_fraction needs the device capacity, and mem_info gave none");
        return GPU_ERR_ARG;
    }
    struct gpu_caching *c = calloc(1, sizeof *c);
    if (!c) {
        set_err(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    c->o = *o;
    c->ops = *ops;
    c->ctx = ctx;
    c->total_mem = known ? tot : 0;
    if (o->memory_fraction > 0) {
        c->set_fraction = true;
        c->allowed = (uint64_t)(o->memory_fraction * (double)tot);
    }
    c->rng = 0x9e3779b9u;
    c->st.max_split_size = o->max_split_size;
    *out = c;
    return GPU_OK;
}

gpu_status gpu_caching_new_model(const struct gpu_caching_opts *o, uint64_t capacity,
                                 struct gpu_caching **out, char *err, size_t n)
{
    if (out) *out = NULL;
    struct gpu_model_dev *d;
    gpu_status st = gpu_model_dev_new(capacity, &d);
    if (st != GPU_OK) {
        set_err(err, n, "model device: %s", gpu_status_str(st));
        return st;
    }
    st = gpu_caching_new(o, &gpu_model_dev_ops, d, out, err, n);
    if (st != GPU_OK) {
        gpu_model_dev_free(d);
        return st;
    }
    (*out)->own_dev = d;
    return GPU_OK;
}

void gpu_caching_destroy(struct gpu_caching *c)
{
    if (!c) return;
    struct seg *s = c->segs;
    while (s) {
        struct seg *nx = s->next;
        if (s->expandable) {
            for (size_t i = 0; i < s->nphys; i++)
                if (s->phys[i] != NO_PAGE) c->ops.seg_free(c->ctx, s->phys[i], s->page);
            free(s->phys);
        } else {
            c->ops.seg_free(c->ctx, s->addr, s->size);
        }
        free(s);
        s = nx;
    }
    while (c->slabs) {
        struct slab *nx = c->slabs->next;
        free(c->slabs);
        c->slabs = nx;
    }
    free(c->live.keys);
    free(c->live.vals);
    gpu_model_dev_free(c->own_dev);
    free(c);
}

void gpu_caching_record(struct gpu_caching *c, gpu_trace_sink sink, void *ud)
{
    if (!c) return;
    c->sink = sink;
    c->sink_ud = ud;
    c->next_id = 1;
    /* ids restart, so blocks from before must not be freed under an old id */
    for (size_t i = 0; i < c->live.cap; i++)
        if (c->live.vals[i]) c->live.vals[i]->trace_id = 0;
    if (!sink) return;
    char ms[32] = "unlimited";
    if (c->o.max_split_size != GPU_CACHE_NO_SPLIT_LIMIT)
        snprintf(ms, sizeof ms, "%llu", (unsigned long long)(c->o.max_split_size >> 20));
    emit(c, "# vramlab allocator trace v1\n");
    emit(c, "# conf: max_split_size_mb:%s,roundup_power2_divisions:%u,expandable_segments:%s\n",
         ms, c->o.roundup_power2_divisions, c->o.expandable_segments ? "True" : "False");
    if (c->set_fraction) emit(c, "# memory_fraction: %g\n", c->o.memory_fraction);
}

/* ---- memory map ------------------------------------------------------------------------------ */

struct run {
    const struct blk *first; /* a segment, or one mapped range of an expandable one */
    const struct seg *seg;
};

static int run_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct run *)a)->first->addr, y = ((const struct run *)b)->first->addr;
    return x < y ? -1 : x > y;
}

gpu_status gpu_caching_segments(const struct gpu_caching *c, struct gpu_cache_map *m)
{
    if (!m) return GPU_ERR_ARG;
    memset(m, 0, sizeof *m);
    if (!c) return GPU_ERR_ARG;
    size_t nruns = 0, nblocks = 0;
    for (const struct seg *s = c->segs; s; s = s->next)
        for (const struct blk *b = s->head; b; b = b->next) {
            if (!b->mapped) continue;
            nblocks++;
            if (!b->prev || !b->prev->mapped) nruns++;
        }
    struct run *runs = malloc((nruns ? nruns : 1) * sizeof *runs);
    m->segs = calloc(nruns ? nruns : 1, sizeof *m->segs);
    m->blocks = calloc(nblocks ? nblocks : 1, sizeof *m->blocks);
    if (!runs || !m->segs || !m->blocks) {
        free(runs);
        gpu_cache_map_free(m);
        return GPU_ERR_HOST_NOMEM;
    }
    size_t k = 0;
    for (const struct seg *s = c->segs; s; s = s->next)
        for (const struct blk *b = s->head; b; b = b->next)
            if (b->mapped && (!b->prev || !b->prev->mapped)) runs[k++] = (struct run){b, s};
    qsort(runs, nruns, sizeof *runs, run_cmp);
    for (size_t i = 0; i < nruns; i++) {
        struct gpu_cache_seg_info *si = &m->segs[m->nsegs++];
        si->addr = runs[i].first->addr;
        si->pool = 1 + runs[i].seg->pool;
        si->expandable = runs[i].seg->expandable;
        si->first_block = m->nblocks;
        for (const struct blk *b = runs[i].first; b && b->mapped; b = b->next) {
            struct gpu_cache_block_info *bi = &m->blocks[m->nblocks++];
            bi->addr = b->addr;
            bi->offset = b->addr - si->addr;
            bi->size = b->size;
            bi->allocated = b->allocated;
            bi->requested = b->allocated ? b->req : 0;
            si->size += b->size;
            if (b->allocated) {
                si->allocated += b->size;
                si->requested += b->req;
            }
            si->nblocks++;
        }
    }
    free(runs);
    return GPU_OK;
}

void gpu_cache_map_free(struct gpu_cache_map *m)
{
    if (!m) return;
    free(m->segs);
    free(m->blocks);
    memset(m, 0, sizeof *m);
}
