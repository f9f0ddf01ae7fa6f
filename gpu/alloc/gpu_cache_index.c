/* gpu_cache_index.c - the caching-allocator model's two indexes: a treap per pool holding free
 * blocks by (size, address), so best fit is O(log n) as with PyTorch's std::set, and an open
 * addressing hash from address to live block, PyTorch's allocated_blocks map. */
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

/* ---- address -> live block (open addressing, backward-shift deletion) --------------------- */

static size_t am_slot(const struct amap *m, uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (m->cap - 1);
}

bool gpu_cache_amap_reserve(struct amap *m)
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

void gpu_cache_amap_put(struct amap *m, uint64_t k, struct blk *v) /* after gpu_cache_amap_reserve */
{
    size_t i = am_slot(m, k);
    while (m->vals[i]) i = (i + 1) & (m->cap - 1);
    m->keys[i] = k;
    m->vals[i] = v;
    m->n++;
}

size_t gpu_cache_amap_find(const struct amap *m, uint64_t k)
{
    if (!m->cap) return SIZE_MAX;
    for (size_t i = am_slot(m, k); m->vals[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == k) return i;
    return SIZE_MAX;
}

void gpu_cache_amap_del_at(struct amap *m, size_t i)
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
