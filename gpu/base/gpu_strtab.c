/* gpu_strtab.c - see gpu_strtab.h. */
#include "gpu_strtab.h"

#include <stdlib.h>
#include <string.h>

/* Copies are packed into blocks of at least BLK bytes; a longer string gets a block of its own.
 * Blocks never move, so the pointers handed out stay valid. */
#define BLK 65536

struct gpu_strtab_blk {
    struct gpu_strtab_blk *next;
    size_t used, cap;
    char b[];
};

uint64_t gpu_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

void gpu_strtab_free(struct gpu_strtab *t)
{
    for (struct gpu_strtab_blk *b = t->blk, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(t->ent);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static uint32_t hash32(const char *s, size_t n)
{
    uint64_t h = gpu_hash(GPU_HASH_INIT, s, n);
    return (uint32_t)(h ^ h >> 32);
}

/* The slot holding s, or the empty slot where it would go. */
static size_t probe(const struct gpu_strtab *t, const char *s, size_t n, uint32_t h)
{
    size_t mask = t->cap - 1, i = h & mask;
    for (; t->slot[i]; i = (i + 1) & mask) {
        const struct gpu_strtab_ent *e = &t->ent[t->slot[i] - 1];
        if (e->hash == h && e->n == n && !memcmp(e->s, s, n)) break;
    }
    return i;
}

uint32_t gpu_strtab_find(const struct gpu_strtab *t, const char *s, size_t n)
{
    if (!t->cap || n >= UINT32_MAX) return GPU_STRTAB_NONE;
    size_t i = probe(t, s, n, hash32(s, n));
    return t->slot[i] ? t->slot[i] - 1 : GPU_STRTAB_NONE;
}

static bool grow_slots(struct gpu_strtab *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return false;
    for (size_t id = 0; id < t->count; id++) {
        size_t i = t->ent[id].hash & (cap - 1);
        while (slot[i]) i = (i + 1) & (cap - 1);
        slot[i] = (uint32_t)id + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return true;
}

static char *copy(struct gpu_strtab *t, const char *s, size_t n)
{
    struct gpu_strtab_blk *b = t->blk;
    if (!b || b->cap - b->used < n + 1) {
        size_t cap = n + 1 > BLK ? n + 1 : BLK;
        struct gpu_strtab_blk *nb = malloc(sizeof *nb + cap);
        if (!nb) return NULL;
        nb->used = 0, nb->cap = cap;
        if (b && n + 1 > BLK) { /* a long one behind the current block, which keeps filling */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            t->blk = nb;
        }
        b = nb;
    }
    char *p = b->b + b->used;
    memcpy(p, s, n);
    p[n] = 0;
    b->used += n + 1;
    return p;
}

uint32_t gpu_strtab_intern(struct gpu_strtab *t, const char *s, size_t n)
{
    if (n >= UINT32_MAX || t->count >= UINT32_MAX - 1) return GPU_STRTAB_NONE;
    uint32_t h = hash32(s, n);
    if (t->cap) {
        size_t i = probe(t, s, n, h);
        if (t->slot[i]) return t->slot[i] - 1;
    }
    if ((t->count + 1) * 2 > t->cap && !grow_slots(t)) return GPU_STRTAB_NONE;
    if (t->count == t->ecap) {
        size_t ecap = t->ecap ? t->ecap * 2 : 32;
        struct gpu_strtab_ent *e = realloc(t->ent, ecap * sizeof *e);
        if (!e) return GPU_STRTAB_NONE;
        t->ent = e, t->ecap = ecap;
    }
    const char *p = copy(t, s, n);
    if (!p) return GPU_STRTAB_NONE;
    uint32_t id = (uint32_t)t->count++;
    t->ent[id] = (struct gpu_strtab_ent){p, (uint32_t)n, h};
    t->slot[probe(t, s, n, h)] = id + 1;
    return id;
}

const char *gpu_strtab_str(const struct gpu_strtab *t, uint32_t id, size_t *n)
{
    if (n) *n = t->ent[id].n;
    return t->ent[id].s;
}
