/* gpu_u64map.c - see gpu_u64map.h. */
#include "gpu_u64map.h"

#include <stdlib.h>
#include <string.h>

size_t gpu_u64_mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k;
}

void gpu_u64map_free(struct gpu_u64map *m)
{
    free(m->key);
    free(m->val);
    free(m->used);
    memset(m, 0, sizeof *m);
}

bool gpu_u64map_init(struct gpu_u64map *m, size_t want)
{
    size_t cap = 64;
    while (cap < want * 2) cap *= 2;
    m->cap = cap;
    m->n = 0;
    m->key = malloc(cap * sizeof *m->key);
    m->val = malloc(cap * sizeof *m->val);
    m->used = calloc(cap, 1);
    if (m->key && m->val && m->used) return true;
    gpu_u64map_free(m);
    return false;
}

size_t gpu_u64map_find(const struct gpu_u64map *m, uint64_t k)
{
    if (!m->cap) return SIZE_MAX;
    for (size_t i = gpu_u64_mix(k) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
        if (m->key[i] == k) return i;
    return SIZE_MAX;
}

bool gpu_u64map_get(const struct gpu_u64map *m, uint64_t k, uint64_t *v)
{
    size_t i = gpu_u64map_find(m, k);
    if (i == SIZE_MAX) return false;
    *v = m->val[i];
    return true;
}

bool gpu_u64map_reserve(struct gpu_u64map *m, size_t extra)
{
    if ((m->n + extra) * 2 <= m->cap) return true;
    struct gpu_u64map g;
    /* at least twice the room (cap >= 2 x want), so growing one key at a time stays linear */
    if (!gpu_u64map_init(&g, m->cap > m->n + extra ? m->cap : m->n + extra)) return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) gpu_u64map_put(&g, m->key[i], m->val[i]);
    gpu_u64map_free(m);
    *m = g;
    return true;
}

bool gpu_u64map_put(struct gpu_u64map *m, uint64_t k, uint64_t v)
{
    if (!gpu_u64map_reserve(m, 1)) return false;
    size_t i = gpu_u64_mix(k) & (m->cap - 1);
    while (m->used[i] && m->key[i] != k) i = (i + 1) & (m->cap - 1);
    if (!m->used[i]) m->n++;
    m->used[i] = true;
    m->key[i] = k;
    m->val[i] = v;
    return true;
}

void gpu_u64map_del_at(struct gpu_u64map *m, size_t i)
{
    size_t mask = m->cap - 1;
    m->used[i] = false;
    m->n--;
    for (size_t j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
        size_t h = gpu_u64_mix(m->key[j]) & mask;
        if (i <= j ? (h > i && h <= j) : (h > i || h <= j)) continue; /* its run still reaches it */
        m->key[i] = m->key[j];
        m->val[i] = m->val[j];
        m->used[i] = true;
        m->used[j] = false;
        i = j;
    }
}
