/* tui_hash.h - one open-addressing hash map from 64-bit keys to 32-bit values, for the readers
 * of files a user is handed (recordings, results): lookups that would otherwise scan a list for
 * every line and go quadratic on a large or hostile file. No ncurses. */
#ifndef TUI_HASH_H
#define TUI_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tui_map {
    uint64_t *k;
    uint32_t *v; /* value + 1; 0 marks an empty slot */
    size_t cap, n;
};

/* Insert or replace (v < UINT32_MAX). False when memory ran out (the map is unchanged). */
bool tui_map_put(struct tui_map *m, uint64_t k, uint32_t v);
bool tui_map_get(const struct tui_map *m, uint64_t k, uint32_t *v);
void tui_map_free(struct tui_map *m);

/* FNV-1a over n bytes, continuing from h (start with TUI_HASH_INIT). */
#define TUI_HASH_INIT 0xcbf29ce484222325ull
uint64_t tui_hash(uint64_t h, const void *p, size_t n);

#endif
