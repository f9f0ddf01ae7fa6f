/* tui_hash.c - see tui_hash.h. */
#include "tui_hash.h"

#include <stdlib.h>

static size_t slot(const struct tui_map *m, uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (m->cap - 1);
}

static bool grow(struct tui_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct tui_map nm = {malloc(cap * sizeof *nm.k), calloc(cap, sizeof *nm.v), cap, m->n};
    if (!nm.k || !nm.v) {
        free(nm.k);
        free(nm.v);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->v[i]) continue;
        size_t j = slot(&nm, m->k[i]);
        while (nm.v[j]) j = (j + 1) & (cap - 1);
        nm.k[j] = m->k[i];
        nm.v[j] = m->v[i];
    }
    tui_map_free(m);
    *m = nm;
    return true;
}

bool tui_map_put(struct tui_map *m, uint64_t k, uint32_t v)
{
    if ((m->n + 1) * 2 > m->cap && !grow(m)) return false;
    size_t i = slot(m, k);
    while (m->v[i] && m->k[i] != k) i = (i + 1) & (m->cap - 1);
    if (!m->v[i]) m->n++;
    m->k[i] = k;
    m->v[i] = v + 1;
    return true;
}

bool tui_map_get(const struct tui_map *m, uint64_t k, uint32_t *v)
{
    if (!m->cap) return false;
    for (size_t i = slot(m, k); m->v[i]; i = (i + 1) & (m->cap - 1))
        if (m->k[i] == k) {
            *v = m->v[i] - 1;
            return true;
        }
    return false;
}

void tui_map_free(struct tui_map *m)
{
    free(m->k);
    free(m->v);
    m->k = NULL, m->v = NULL, m->cap = m->n = 0;
}

uint64_t tui_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}
