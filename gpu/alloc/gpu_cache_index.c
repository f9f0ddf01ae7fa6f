/* gpu_cache_index.c - the caching-allocator model's free-block index: a treap per pool holding
 * free blocks by (size, address), so best fit is O(log n) as with PyTorch's std::set. Live
 * blocks by address (PyTorch's allocated_blocks) are a gpu_u64map in struct gpu_caching. */
#include "gpu_cache_int.h"

#include <stdlib.h>

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

void gpu_cache_tree_insert(struct blk **root, struct blk *x)
{
    struct blk **p = root;
    while (*p && (*p)->prio >= x->prio) p = blk_lt(*p, x->key, x->addr) ? &(*p)->r : &(*p)->l;
    t_split(*p, x->key, x->addr, &x->l, &x->r);
    *p = x;
}

void gpu_cache_tree_erase(struct blk **root, struct blk *x)
{
    struct blk **p = root;
    while (*p != x) p = blk_lt(*p, x->key, x->addr) ? &(*p)->r : &(*p)->l;
    *p = t_merge(x->l, x->r);
}

/* Smallest node >= (key, addr): std::set::lower_bound. */
struct blk *gpu_cache_tree_lower(struct blk *t, uint64_t key, uint64_t addr)
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

struct blk *gpu_cache_tree_next(struct blk *root, const struct blk *x)
{
    return gpu_cache_tree_lower(root, x->key, x->addr + 1);
}

/* Largest node < (key, addr). */
struct blk *gpu_cache_tree_prev(struct blk *t, uint64_t key, uint64_t addr)
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

struct blk *gpu_cache_tree_max(struct blk *t)
{
    while (t && t->r) t = t->r;
    return t;
}
