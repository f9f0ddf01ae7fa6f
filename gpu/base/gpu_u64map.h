/* gpu_u64map.h - a map from 64-bit keys (device addresses) to 64-bit values: open addressing
 * with linear probing and backward-shift deletion, grown at half full, so a trace of millions of
 * alloc/free pairs is replayed in linear time. Pure: heap only, no globals. */
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
/* Room for `want` keys without growing. false when out of memory (the map is then empty). */
bool gpu_u64map_init(struct gpu_u64map *m, size_t want);
void gpu_u64map_free(struct gpu_u64map *m);
/* The slot holding k, or SIZE_MAX. */
size_t gpu_u64map_find(const struct gpu_u64map *m, uint64_t k);
/* Sets k to v (replacing an old value); false when growing ran out of memory (the map is kept). */
bool gpu_u64map_put(struct gpu_u64map *m, uint64_t k, uint64_t v);
/* Removes the key in slot i (from gpu_u64map_find). */
void gpu_u64map_del_at(struct gpu_u64map *m, size_t i);

#endif
