/* lt_snap_words.h - the words for what the snapshot replay found (gpu_snap_replay.h keeps kinds
 * and numbers; the device layer says nothing): one table, a row per finding kind with its
 * English and Chinese text, shaped as rows of the project's message table so it can move there.
 * Used by alloc.snapshot, `vramlab snapshot` and the snapshot screen. */
#ifndef LT_SNAP_WORDS_H
#define LT_SNAP_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_snap_replay.h"

/* The finding in words, in Chinese when zh; sizes as "2.92 GiB (3139436544 B)". Returns buf. */
const char *lt_snap_finding_text(const struct gpu_snap_finding *f, bool zh, char *buf, size_t n);

#endif
