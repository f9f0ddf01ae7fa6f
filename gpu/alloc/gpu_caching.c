/* gpu_caching.c - the caching-allocator model: PyTorch's DeviceCachingAllocator rules
 * (c10/cuda/CUDACachingAllocator.cpp) over segments obtained through gpu_seg_ops.
 * The indexes that keep malloc and free O(log n) are in gpu_cache_index.c, statistics and text
 * in gpu_cache_report.c. Function names follow PyTorch's so the two can be read side by side;
 * docs/allocator.md lists each rule with its source. */
#include "gpu_caching.h"
#include "gpu_cache_int.h"
#include "gpu_err.h"
#include "gpu_model_dev.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ONE_EB (1ull << 60)

/* ---- blocks, segments, stats ------------------------------------------------------------ */

/* Each step that carves new blocks reserves them first, so a host OOM never strikes half-way
 * through a split or a merge and leaves a segment's block list torn. */
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

/* What empty_cache would act on: a free block that is a whole segment, or a free block of an
 * expandable segment with a whole page inside it (release_blocks). Its neighbours change only
 * while it is out of the free tree, so this is decided as it goes in. */
static bool is_releasable(const struct blk *b)
{
    const struct seg *s = b->seg;
    if (!s->expandable) return !b->prev && !b->next;
    uint64_t rel = b->addr - s->addr;
    return (rel + s->page - 1) / s->page < (rel + b->size) / s->page;
}

static void free_insert(struct gpu_caching *c, struct blk *b)
{
    struct pool *p = &c->pools[b->seg->pool];
    b->key = b->size;
    gpu_cache_tree_insert(&p->free, b);
    isplit_track(c, b, +1);
    b->releasable = is_releasable(b);
    if (b->releasable) {
        b->rel_prev = NULL;
        b->rel_next = p->releasable;
        if (p->releasable) p->releasable->rel_prev = b;
        p->releasable = b;
    }
}

static void free_erase(struct gpu_caching *c, struct blk *b)
{
    struct pool *p = &c->pools[b->seg->pool];
    gpu_cache_tree_erase(&p->free, b);
    isplit_track(c, b, -1);
    if (b->releasable) {
        if (b->rel_prev) b->rel_prev->rel_next = b->rel_next;
        else p->releasable = b->rel_next;
        if (b->rel_next) b->rel_next->rel_prev = b->rel_prev;
        b->releasable = false;
    }
}

static void unmapped_insert(struct gpu_caching *c, struct blk *b)
{
    b->key = 0;
    gpu_cache_tree_insert(&c->pools[b->seg->pool].unmapped, b);
}

static void unmapped_erase(struct gpu_caching *c, struct blk *b)
{
    gpu_cache_tree_erase(&c->pools[b->seg->pool].unmapped, b);
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

void gpu_caching_sizes(const struct gpu_caching *c, uint64_t bytes, uint64_t *rounded,
                       uint64_t *segment)
{
    uint64_t r = round_size(c, bytes);
    if (rounded) *rounded = r;
    if (segment) *segment = get_allocation_size(r);
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
    struct blk *b = gpu_cache_tree_lower(root, size, 0);
    if (!b) return NULL;
    if (b->seg->expandable) {
        /* best fit counts the unmapped room behind a block as part of it, so the block at the
         * growing end is taken only when nothing smaller fits */
        struct blk *nx = gpu_cache_tree_next(root, b);
        while (b->seg->expandable && nx && expandable_size(nx) < expandable_size(b)) {
            b = nx;
            nx = gpu_cache_tree_next(root, nx);
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

/* dst absorbs src when both are free and equally mapped. */
static void try_merge_blocks(struct gpu_caching *c, struct blk *dst, struct blk *src)
{
    if (!src || src->allocated || src->mapped != dst->mapped) return;
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
    dst->size += src->size;
    drop_blk(c, src);
}

static void splice_after(struct blk *b, struct blk *after)
{
    b->prev = after;
    b->next = after->next;
    if (b->next) b->next->prev = b;
    after->next = b;
}

static void splice_before(struct blk *b, struct blk *before)
{
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
        splice_before(bf, b);
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

/* A new expandable segment of the pool, all of it unmapped: *out is its one block. */
static gpu_status new_expandable_seg(struct gpu_caching *c, int pool, struct blk **out)
{
    uint64_t page = pool == SMALL ? GPU_CACHE_SMALL_BUFFER : GPU_CACHE_LARGE_BUFFER;
    unsigned slot = 0;
    for (bool taken = true; taken; ) {
        taken = false;
        for (struct seg *s = c->segs; s; s = s->next)
            if (s->expandable && s->pool == pool && s->slot == slot) taken = true;
        if (taken) slot++;
    }
    if (slot >= GPU_CACHE_EXP_BASE_SMALL / GPU_CACHE_EXP_STRIDE)
        return GPU_ERR_NOMEM; /* out of reserved address space */
    if (!reserve_blks(c, 1)) return GPU_ERR_HOST_NOMEM;
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

/* The lowest address where free and unmapped space together fit `size`; a new segment when
 * none does. */
static gpu_status find_expandable_block(struct gpu_caching *c, int pool, uint64_t size,
                                        struct blk **out)
{
    struct pool *p = &c->pools[pool];
    for (struct blk *u = gpu_cache_tree_lower(p->unmapped, 0, 0); u; u = gpu_cache_tree_next(p->unmapped, u)) {
        struct blk *cand = allocatable(u->prev) ? u->prev : u;
        if (has_available_address_space(cand, size)) {
            *out = cand;
            return GPU_OK;
        }
    }
    uint64_t page = pool == SMALL ? GPU_CACHE_SMALL_BUFFER : GPU_CACHE_LARGE_BUFFER;
    /* a request larger than a whole segment's address space can never be mapped in one: an
     * OOM, as in PyTorch when the reserved range runs out (the model reserves at most 1 TiB) */
    if (size > exp_va_size(c, page)) return GPU_ERR_NOMEM;
    return new_expandable_seg(c, pool, out);
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
        /* free -> unmapped: map part of the next range; it absorbs cand. The segment's end or
         * a live block there means the space find_expandable_block promised is not there:
         * never walk off the list, answer OOM */
        struct blk *nx = cand->next;
        if (!allocatable(nx)) return GPU_ERR_NOMEM;
        uint64_t want = size - cand->size;
        st = map_block(c, nx, want < nx->size ? want : nx->size);
        if (st != GPU_OK) return st;
        cand = nx;
    }
    free_erase(c, cand);
    *out = cand;
    return GPU_OK;
}

/* A cudaMalloc'ed range becomes segment s with one block over it (counted, not yet free). */
static struct blk *add_segment(struct gpu_caching *c, struct seg *s, uint64_t addr, uint64_t size,
                               int pool)
{
    s->addr = addr;
    s->size = size;
    s->pool = pool;
    struct blk *b = new_blk(c, s, addr, size);
    s->head = b;
    seg_link(c, s);
    stats_inc(c->st.segment, pool, 1);
    stats_inc(c->st.reserved_bytes, pool, size);
    if (size >= c->o.max_split_size) stat_inc(&c->st.oversize_segments, 1);
    c->st.num_device_alloc++;
    return b;
}

static gpu_status alloc_block(struct gpu_caching *c, int pool, uint64_t size, uint64_t alloc_size,
                              bool is_retry, struct blk **out)
{
    *out = NULL;
    if (is_retry) c->st.num_alloc_retries++;
    if (c->set_fraction && c->st.reserved_bytes[GPU_CACHE_ALL].current + alloc_size > c->allowed)
        return GPU_ERR_NOMEM;
    if (c->o.expandable_segments) return try_allocate_expandable_block(c, pool, size, out);
    struct seg *s = reserve_blks(c, 1) ? calloc(1, sizeof *s) : NULL;
    if (!s) return GPU_ERR_HOST_NOMEM;
    uint64_t addr;
    gpu_status st = c->ops.seg_alloc(c->ctx, alloc_size, &addr);
    if (st != GPU_OK) {
        free(s);
        return st;
    }
    *out = add_segment(c, s, addr, alloc_size, pool);
    return GPU_OK;
}

/* With max_split_size set: free cached oversize blocks, only as many as the request needs. */
static bool release_available_cached_blocks(struct gpu_caching *c, int pool, uint64_t size)
{
    uint64_t msplit = c->o.max_split_size;
    if (msplit == GPU_CACHE_NO_SPLIT_LIMIT || c->o.expandable_segments) return false;
    struct pool *p = &c->pools[pool];
    uint64_t key = size < msplit ? msplit : size;
    struct blk *b = gpu_cache_tree_lower(p->free, key, 0);
    if (b) {
        if (is_split(b)) return false;
        release_block(c, b);
        return true;
    }
    /* no single block is large enough: free oversize blocks from the largest down */
    uint64_t released = 0;
    for (b = gpu_cache_tree_max(p->free); b && released < key && b->size >= msplit && !is_split(b);) {
        struct blk *below = gpu_cache_tree_prev(p->free, b->key, b->addr);
        released += b->size;
        release_block(c, b);
        b = below;
    }
    return released >= key;
}

/* release_blocks: free every segment nothing lives in; expandable segments give back the
 * pages lying wholly inside free blocks, and vanish once nothing is mapped. It walks the pool's
 * releasable list only (each block leaves it as it is released or unmapped, and what unmapping
 * leaves behind holds no whole page), so it costs what it releases. */
static void release_blocks(struct gpu_caching *c, int pool)
{
    struct blk *b;
    while ((b = c->pools[pool].releasable)) {
        struct seg *s = b->seg;
        if (!s->expandable) {
            release_block(c, b);
            continue;
        }
        if (unmap_block(c, b) != GPU_OK) { /* host memory: leave it cached, off the list */
            free_erase(c, b);
            b->key = b->size;
            gpu_cache_tree_insert(&c->pools[pool].free, b);
            isplit_track(c, b, +1);
            continue;
        }
        if (!s->head->mapped && !s->head->next) release_expandable_segment(c, s->head);
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
        splice_before(b, rest);
        rest->addr += size;
        rest->size -= size;
        free_insert(c, rest);
    }
    b->allocated = true;
    b->req = orig;
    (void)gpu_u64map_put(&c->live, b->addr, (uint64_t)(uintptr_t)b); /* reserved */
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
    if (!err || !n) return; /* nobody reads it: a replay of a million OOMs asks for the first */
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
    gpu_errf(err, n,
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
        gpu_errf(err, n, "cannot allocate 0 bytes (PyTorch hands out a null pointer instead)");
        return GPU_ERR_ARG;
    }
    if (bytes >= ONE_EB) {
        gpu_errf(err, n, "CUDA out of memory. Tried to allocate more than 1EB memory.");
        return GPU_ERR_NOMEM;
    }
    if (!reserve_blks(c, 4) || !gpu_u64map_reserve(&c->live, 1)) {
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
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
        if (st != GPU_ERR_NOMEM) {
            /* not an OOM a replay could reproduce: the backend itself failed */
            if (c->sink) emit(c, "# malloc of %llu failed: %s\n", (unsigned long long)bytes,
                              gpu_status_str(st));
            gpu_errf(err, n, "getting a segment failed: %s", gpu_status_str(st));
            return st;
        }
        if (c->sink) emit(c, "a %llu %llu\n# ^ out of memory\n", (unsigned long long)id,
                          (unsigned long long)bytes);
        c->st.num_ooms++;
        oom_message(c, alloc_size, err, n);
        return GPU_ERR_NOMEM;
    }
    bool split = should_split(c, b, size);
    if (split && !reserve_blks(c, 1)) {
        free_insert(c, b); /* back to the cache, whole */
        isplit_apply(c);
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
        return GPU_ERR_HOST_NOMEM;
    }
    b = alloc_found_block(c, b, size, bytes, split);
    isplit_apply(c);
    b->trace_id = id;
    if (c->sink) emit(c, "a %llu %llu\n", (unsigned long long)id, (unsigned long long)bytes);
    *addr = b->addr;
    return GPU_OK;
}

gpu_status gpu_caching_free(struct gpu_caching *c, uint64_t addr)
{
    if (!c) return GPU_ERR_ARG;
    size_t at = gpu_u64map_find(&c->live, addr);
    if (at == SIZE_MAX) return GPU_ERR_ARG;
    struct blk *b = (struct blk *)(uintptr_t)c->live.val[at];
    gpu_u64map_del_at(&c->live, at);
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

/* ---- seeding from a recorded state ------------------------------------------------------------ */

gpu_status gpu_caching_seed_segment(struct gpu_caching *c, uint64_t addr, uint64_t size, bool small)
{
    if (!c || !size || !c->ops.seg_take || c->o.expandable_segments) return GPU_ERR_ARG;
    if (!reserve_blks(c, 1)) return GPU_ERR_HOST_NOMEM;
    struct seg *s = calloc(1, sizeof *s);
    if (!s) return GPU_ERR_HOST_NOMEM;
    gpu_status st = c->ops.seg_take(c->ctx, addr, size);
    if (st != GPU_OK) {
        free(s);
        return st;
    }
    free_insert(c, add_segment(c, s, addr, size, small ? SMALL : LARGE));
    isplit_apply(c);
    return GPU_OK;
}

gpu_status gpu_caching_seed_expandable(struct gpu_caching *c, bool small, uint64_t offset,
                                       uint64_t size, uint64_t *base)
{
    if (!c || !c->o.expandable_segments) return GPU_ERR_ARG;
    int pool = small ? SMALL : LARGE;
    struct seg *s = c->segs;
    while (s && !(s->expandable && s->pool == pool && s->slot == 0)) s = s->next;
    struct blk *u;
    gpu_status st;
    if (!s) {
        if ((st = new_expandable_seg(c, pool, &u)) != GPU_OK) return st;
        s = u->seg;
    }
    *base = s->addr;
    if (!size) return GPU_OK;
    if (offset % s->page || size % s->page || offset >= s->size || size > s->size - offset)
        return GPU_ERR_ARG;
    uint64_t a = s->addr + offset;
    for (u = s->head; u && !(u->addr <= a && a - u->addr < u->size); u = u->next) {}
    if (!u || u->mapped || u->addr + u->size < a + size) return GPU_ERR_ARG; /* mapped already */
    if (!reserve_blks(c, 3)) return GPU_ERR_HOST_NOMEM;
    if (u->addr < a) { /* the part before stays unmapped */
        struct blk *before = new_blk(c, s, u->addr, a - u->addr);
        before->mapped = false;
        unmapped_erase(c, u);
        splice_before(before, u);
        u->addr = a;
        u->size -= before->size;
        unmapped_insert(c, before);
        unmapped_insert(c, u);
    }
    st = map_block(c, u, size);
    isplit_apply(c);
    return st;
}

gpu_status gpu_caching_seed_block(struct gpu_caching *c, uint64_t addr, uint64_t size,
                                  uint64_t requested)
{
    if (!c || !size) return GPU_ERR_ARG;
    struct seg *s = c->segs;
    while (s && !(s->addr <= addr && addr - s->addr < s->size)) s = s->next;
    if (!s) return GPU_ERR_ARG;
    struct blk *b = s->head;
    while (b && !(b->addr <= addr && addr - b->addr < b->size)) b = b->next;
    if (!b || b->allocated || !b->mapped || b->addr + b->size - addr < size) return GPU_ERR_ARG;
    if (!reserve_blks(c, 2) || !gpu_u64map_reserve(&c->live, 1)) return GPU_ERR_HOST_NOMEM;
    free_erase(c, b);
    if (b->addr < addr) {
        struct blk *before = new_blk(c, s, b->addr, addr - b->addr);
        splice_before(before, b);
        b->size -= before->size;
        b->addr = addr;
        free_insert(c, before);
    }
    if (b->size > size) {
        struct blk *after = new_blk(c, s, addr + size, b->size - size);
        splice_after(after, b);
        b->size = size;
        free_insert(c, after);
    }
    alloc_found_block(c, b, size, requested ? requested : size, false);
    isplit_apply(c);
    return GPU_OK;
}

/* ---- lifecycle ------------------------------------------------------------------------------ */

static bool opts_valid(const struct gpu_caching_opts *o, char *err, size_t n)
{
    if (o->max_split_size != GPU_CACHE_NO_SPLIT_LIMIT && o->max_split_size < GPU_CACHE_LARGE_BUFFER) {
        gpu_errf(err, n, "max_split_size too small, must be >= 20 MiB (as PyTorch's "
                        "max_split_size_mb >= 20)");
        return false;
    }
    unsigned d = o->roundup_power2_divisions;
    if (d & (d - 1)) {
        gpu_errf(err, n, "roundup_power2_divisions must be a power of two (or 0 for off), not %u", d);
        return false;
    }
    if (!(o->memory_fraction >= 0 && o->memory_fraction <= 1)) {
        gpu_errf(err, n, "memory_fraction must lie in [0, 1] (0 = no cap)");
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
        gpu_errf(err, n, "segment operations need seg_alloc and seg_free");
        return GPU_ERR_ARG;
    }
    struct gpu_caching_opts def;
    gpu_caching_opts_default(&def);
    if (!o) o = &def;
    if (!opts_valid(o, err, n)) return GPU_ERR_ARG;
    uint64_t fr = 0, tot = 0;
    bool known = ops->mem_info && ops->mem_info(ctx, &fr, &tot) == GPU_OK;
    if (o->memory_fraction > 0 && !known) {
        gpu_errf(err, n, "memory_fraction needs the device capacity, and mem_info gave none");
        return GPU_ERR_ARG;
    }
    struct gpu_caching *c = calloc(1, sizeof *c);
    if (!c) {
        gpu_errf(err, n, "%s", gpu_status_str(GPU_ERR_HOST_NOMEM));
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
        gpu_errf(err, n, "model device: %s", gpu_status_str(st));
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
    gpu_u64map_free(&c->live);
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
        if (c->live.used[i]) ((struct blk *)(uintptr_t)c->live.val[i])->trace_id = 0;
    if (!sink) return;
    /* the options as a PYTORCH_CUDA_ALLOC_CONF string gpu_caching_parse_conf takes back */
    char conf[128] = "";
    if (c->o.max_split_size != GPU_CACHE_NO_SPLIT_LIMIT)
        snprintf(conf, sizeof conf, "max_split_size_mb:%llu,",
                 (unsigned long long)(c->o.max_split_size >> 20));
    if (c->o.roundup_power2_divisions > 1)
        snprintf(conf + strlen(conf), sizeof conf - strlen(conf), "roundup_power2_divisions:%u,",
                 c->o.roundup_power2_divisions);
    emit(c, "# vramlab allocator trace v1\n");
    emit(c, "# conf: %sexpandable_segments:%s\n", conf,
         c->o.expandable_segments ? "True" : "False");
    if (c->set_fraction) emit(c, "# memory_fraction: %g\n", c->o.memory_fraction);
}
