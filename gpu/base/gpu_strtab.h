/* gpu_strtab.h - the one string table: each distinct byte string is stored once and numbered
 * 0, 1, 2, ... in the order it was first seen (interning: a recording's repeated labels, a
 * pickle's repeated keys, a snapshot's (file, function) groups). Lookup is by hash with open
 * addressing, grown at half full, so n strings cost O(n) and a hostile file cannot make it go
 * quadratic. Copies live in blocks that never move: a pointer from gpu_strtab_str stays valid
 * until gpu_strtab_free. Pure: heap only, no globals. Tested by tests/unit/test_gpu_u64map.c. */
#ifndef GPU_STRTAB_H
#define GPU_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_strtab_ent {
    const char *s; /* NUL-terminated copy (it may hold other NULs: n is its length) */
    uint32_t n, hash;
};

struct gpu_strtab {
    struct gpu_strtab_ent *ent; /* by id */
    uint32_t *slot;             /* id + 1; 0 marks an empty slot */
    size_t count, ecap, cap;    /* cap: slots, a power of two */
    struct gpu_strtab_blk *blk; /* the copies */
};

#define GPU_STRTAB_NONE UINT32_MAX

/* A zeroed struct is an empty table; gpu_strtab_free returns it to that. */
void gpu_strtab_free(struct gpu_strtab *t);
/* The id of s[0..n), stored when new. GPU_STRTAB_NONE when memory ran out or n is 4 GiB or
 * more (the table is unchanged). */
uint32_t gpu_strtab_intern(struct gpu_strtab *t, const char *s, size_t n);
/* The id of s[0..n) if it was interned, else GPU_STRTAB_NONE (adds nothing). */
uint32_t gpu_strtab_find(const struct gpu_strtab *t, const char *s, size_t n);
/* The stored copy of an id (< count); *n gets its length when n is not NULL. */
const char *gpu_strtab_str(const struct gpu_strtab *t, uint32_t id, size_t *n);
/* FNV-1a over n bytes, continuing from h (start with GPU_HASH_INIT): for keys made of several
 * parts and for fingerprints of a file's content. */
#define GPU_HASH_INIT 0xcbf29ce484222325ull
uint64_t gpu_hash(uint64_t h, const void *p, size_t n);

#endif
