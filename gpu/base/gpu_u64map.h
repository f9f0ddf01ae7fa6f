/* gpu_u64map.h - the one map from 64-bit keys (device addresses, trace ids, pointers, hashes)
 * to 64-bit values: open addressing with linear probing and backward-shift deletion, grown at
 * half full, so a trace of millions of alloc/free pairs is replayed in linear time and a hostile
 * file cannot make a reader quadratic. Every keyed table of the program is one of these or a
 * gpu_strtab (strings); docs/styleguide.md, "The base toolkit". A zeroed struct is an empty map.
 * Pure: heap only, no globals. Tested by tests/unit/test_gpu_u64map.c. */
#ifndef GPU_U64MAP_H
#define GPU_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_u64map {
    uint64_t *key, *val;
    bool *used;
    size_t cap, n; /* cap: a power of two */
};

/* The 64-bit finaliser of MurmurHash3: addresses differ in their low bits only. */
size_t gpu_u64_mix(uint64_t k);
/* Room for `want` keys without growing (optional: put grows a zeroed map). false when out of
 * memory (the map is then empty). */
bool gpu_u64map_init(struct gpu_u64map *m, size_t want);
void gpu_u64map_free(struct gpu_u64map *m);
/* The slot holding k, or SIZE_MAX. */
size_t gpu_u64map_find(const struct gpu_u64map *m, uint64_t k);
/* Room for `extra` more keys: a put of that many new keys then cannot fail (the caching
 * allocator reserves before it changes anything). false when out of memory (the map is kept). */
bool gpu_u64map_reserve(struct gpu_u64map *m, size_t extra);
/* true with *v set when k is in the map. */
bool gpu_u64map_get(const struct gpu_u64map *m, uint64_t k, uint64_t *v);
/* Sets k to v (replacing an old value); false when growing ran out of memory (the map is kept). */
bool gpu_u64map_put(struct gpu_u64map *m, uint64_t k, uint64_t v);
/* Removes the key in slot i (from gpu_u64map_find). Every slot i < cap with used[i] holds a
 * key[i] and its val[i]: a walk over all of them is a loop over the slots. */
void gpu_u64map_del_at(struct gpu_u64map *m, size_t i);

#endif
