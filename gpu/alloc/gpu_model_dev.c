/* gpu_model_dev.c - the model device (gpu_model_dev.h). */
#include "gpu_model_dev.h"

#include <stdlib.h>

/* ---- model device -------------------------------------------------------------------------- */

/* Addresses come from a virtual range far larger than the capacity: cudaMalloc maps physical
 * pages wherever they are, so running out of contiguous physical memory is not how a real
 * cudaMalloc fails. Only the byte count is limited. */
#define MODEL_VA_END (1ull << 63) /* first fit keeps what the model picks low; the rest is room
                                    for addresses a caller takes (gpu_model_dev_take) */
#define MODEL_ALIGN 512ull
#define MODEL_MAX_CAPACITY (1ull << 42)

/* Free address ranges, never adjacent, in a treap ordered by address; each node also holds the
 * largest size in its subtree, so first fit (the lowest address with room) is one walk down:
 * O(log n) per allocation and per free, whatever the fragmentation. */
struct ext {
    uint64_t addr, size, maxsz; /* maxsz: largest size in this subtree */
    struct ext *l, *r;
    uint32_t prio;
};

struct gpu_model_dev {
    uint64_t capacity, used;
    struct ext *root;
    struct ext *spare; /* freed nodes, linked through r */
    uint32_t rng;
};

static uint64_t ext_max(const struct ext *t) { return t ? t->maxsz : 0; }

static void pull(struct ext *t)
{
    uint64_t m = t->size, a = ext_max(t->l), b = ext_max(t->r);
    t->maxsz = m > a ? (m > b ? m : b) : (a > b ? a : b);
}

/* l: addresses < addr; r: the rest */
static void ext_split(struct ext *t, uint64_t addr, struct ext **l, struct ext **r)
{
    if (!t) {
        *l = *r = NULL;
    } else if (t->addr < addr) {
        ext_split(t->r, addr, &t->r, r);
        pull(t);
        *l = t;
    } else {
        ext_split(t->l, addr, l, &t->l);
        pull(t);
        *r = t;
    }
}

static struct ext *ext_merge(struct ext *a, struct ext *b)
{
    if (!a) return b;
    if (!b) return a;
    if (a->prio > b->prio) {
        a->r = ext_merge(a->r, b);
        pull(a);
        return a;
    }
    b->l = ext_merge(a, b->l);
    pull(b);
    return b;
}

static struct ext *ext_new(struct gpu_model_dev *d, uint64_t addr, uint64_t size)
{
    struct ext *e = d->spare;
    if (e) d->spare = e->r;
    else if (!(e = malloc(sizeof *e))) return NULL;
    d->rng ^= d->rng << 13, d->rng ^= d->rng >> 17, d->rng ^= d->rng << 5;
    *e = (struct ext){addr, size, size, NULL, NULL, d->rng};
    return e;
}

static void ext_drop(struct gpu_model_dev *d, struct ext *e)
{
    e->r = d->spare;
    d->spare = e;
}

static void ext_free_all(struct ext *t)
{
    while (t) { /* the left spine iteratively, the right subtrees recursively (depth O(log n)) */
        ext_free_all(t->r);
        struct ext *l = t->l;
        free(t);
        t = l;
    }
}

/* Take the node at exactly `addr` out of the tree (NULL when there is none). */
static struct ext *ext_take(struct gpu_model_dev *d, uint64_t addr)
{
    struct ext *l, *m, *r;
    ext_split(d->root, addr, &l, &r);
    ext_split(r, addr + 1, &m, &r);
    d->root = ext_merge(l, r);
    if (m) m->l = m->r = NULL, m->maxsz = m->size;
    return m;
}

static void ext_put(struct gpu_model_dev *d, struct ext *e)
{
    struct ext *l, *r;
    ext_split(d->root, e->addr, &l, &r);
    e->l = e->r = NULL;
    pull(e);
    d->root = ext_merge(ext_merge(l, e), r);
}

gpu_status gpu_model_dev_new(uint64_t capacity, struct gpu_model_dev **out)
{
    if (!out) return GPU_ERR_ARG;
    *out = NULL;
    if (capacity == 0 || capacity > MODEL_MAX_CAPACITY) return GPU_ERR_ARG;
    struct gpu_model_dev *d = calloc(1, sizeof *d);
    if (!d) return GPU_ERR_HOST_NOMEM;
    d->capacity = capacity;
    d->rng = 0x2545f491u;
    if (!(d->root = ext_new(d, 0, MODEL_VA_END))) {
        free(d);
        return GPU_ERR_HOST_NOMEM;
    }
    *out = d;
    return GPU_OK;
}

void gpu_model_dev_free(struct gpu_model_dev *d)
{
    if (!d) return;
    ext_free_all(d->root);
    while (d->spare) {
        struct ext *nx = d->spare->r;
        free(d->spare);
        d->spare = nx;
    }
    free(d);
}

uint64_t gpu_model_dev_used(const struct gpu_model_dev *d) { return d ? d->used : 0; }

static gpu_status model_alloc(void *ctx, uint64_t bytes, uint64_t *addr)
{
    struct gpu_model_dev *d = ctx;
    if (bytes == 0 || bytes > d->capacity) return GPU_ERR_NOMEM;
    uint64_t b = (bytes + MODEL_ALIGN - 1) / MODEL_ALIGN * MODEL_ALIGN;
    if (d->used + b > d->capacity || ext_max(d->root) < b) return GPU_ERR_NOMEM;
    /* first fit: the leftmost node whose own size fits */
    struct ext *t = d->root;
    for (;;) {
        if (ext_max(t->l) >= b) t = t->l;
        else if (t->size >= b) break;
        else t = t->r;
    }
    struct ext *e = ext_take(d, t->addr);
    *addr = e->addr;
    e->addr += b;
    e->size -= b;
    if (e->size) ext_put(d, e);
    else ext_drop(d, e);
    d->used += b;
    return GPU_OK;
}

static void model_free(void *ctx, uint64_t addr, uint64_t bytes)
{
    struct gpu_model_dev *d = ctx;
    uint64_t b = (bytes + MODEL_ALIGN - 1) / MODEL_ALIGN * MODEL_ALIGN;
    d->used -= b;
    /* the free neighbours: the last range below addr and the first at or above it */
    struct ext *prev = NULL, *next = NULL;
    for (struct ext *t = d->root; t;) {
        if (t->addr < addr) prev = t, t = t->r;
        else next = t, t = t->l;
    }
    bool join_prev = prev && prev->addr + prev->size == addr;
    bool join_next = next && addr + b == next->addr;
    if (join_prev && join_next) {
        struct ext *p = ext_take(d, prev->addr), *nx = ext_take(d, next->addr);
        p->size += b + nx->size;
        ext_drop(d, nx);
        ext_put(d, p);
    } else if (join_prev) {
        struct ext *p = ext_take(d, prev->addr);
        p->size += b;
        ext_put(d, p);
    } else if (join_next) {
        struct ext *nx = ext_take(d, next->addr);
        nx->addr = addr;
        nx->size += b;
        ext_put(d, nx);
    } else {
        struct ext *e = ext_new(d, addr, b);
        if (e) ext_put(d, e); /* else the range's address space leaks, never its byte count */
    }
}

static gpu_status model_info(void *ctx, uint64_t *free_b, uint64_t *total_b)
{
    const struct gpu_model_dev *d = ctx;
    *free_b = d->capacity - d->used;
    *total_b = d->capacity;
    return GPU_OK;
}

gpu_status gpu_model_dev_take(struct gpu_model_dev *d, uint64_t addr, uint64_t bytes)
{
    uint64_t b = (bytes + MODEL_ALIGN - 1) / MODEL_ALIGN * MODEL_ALIGN;
    if (!d || bytes == 0 || addr % MODEL_ALIGN || addr >= MODEL_VA_END || b > MODEL_VA_END - addr)
        return GPU_ERR_ARG;
    if (d->used + b > d->capacity) return GPU_ERR_NOMEM;
    /* the free range holding addr: the last one starting at or below it */
    struct ext *at = NULL;
    for (struct ext *t = d->root; t;) {
        if (t->addr <= addr) at = t, t = t->r;
        else t = t->l;
    }
    if (!at || at->addr + at->size < addr + b) return GPU_ERR_ARG; /* not all free */
    struct ext *e = ext_take(d, at->addr);
    uint64_t end = e->addr + e->size;
    struct ext *after = addr + b < end ? ext_new(d, addr + b, end - addr - b) : NULL;
    if (addr + b < end && !after) {
        ext_put(d, e);
        return GPU_ERR_HOST_NOMEM;
    }
    if (addr > e->addr) {
        e->size = addr - e->addr;
        ext_put(d, e);
    } else {
        ext_drop(d, e);
    }
    if (after) ext_put(d, after);
    d->used += b;
    return GPU_OK;
}

static gpu_status model_take(void *ctx, uint64_t addr, uint64_t bytes)
{
    return gpu_model_dev_take(ctx, addr, bytes);
}

const struct gpu_seg_ops gpu_model_dev_ops = {model_alloc, model_free, model_info, model_take};

