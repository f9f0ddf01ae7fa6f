/* gpu_snap_int.h - private to the snapshot files (gpu_snapshot.c, gpu_snap_data.c,
 * gpu_snap_walk.c, gpu_snap_summary.c, gpu_snap_replay.c): the model's struct and the
 * per-device walk state. */
#ifndef GPU_SNAP_INT_H
#define GPU_SNAP_INT_H

#include "gpu_snap_summary.h"
#include "gpu_snap_walk.h"
#include "gpu_snapshot.h"
#include "gpu_strtab.h"
#include "gpu_u64map.h"

#define GPU_SNAP_MAX_DEVICE 4095 /* the highest device number read */
#define GPU_SNAP_MAGNITUDE_LIMIT (1ull << 62) /* bytes one device's sizes may add up to */

struct gpu_snap_chunk; /* string storage: chunks that never move */

struct gpu_snap_dev {      /* one device's trace and what the walk made of it at load */
    struct gpu_snap_event *ev;
    size_t n;
    uint32_t *pair;        /* per entry: gpu_snap_pair */
    struct gpu_snap_pre *pre;
    size_t npre;
    int64_t start_live, start_reserved;
};

struct gpu_snapshot {
    size_t file_bytes;
    int protocol;
    size_t legacy_blocks;
    struct gpu_snap_settings settings;
    struct gpu_snap_segment *segs;
    size_t nsegs;
    struct gpu_snap_block *blocks;
    size_t nblocks;
    struct gpu_snap_dev *dev;  /* index = device (device_traces order) */
    size_t ntraces;
    int64_t *streams;
    size_t nstreams;
    struct gpu_snap_annotation *ann;
    size_t nann;
    struct gpu_snap_frame *frames;
    size_t nframes;
    struct gpu_snap_stack *stacks; /* stacks[0]: no frames */
    size_t nstacks;
    uint32_t *stack_frames;
    size_t nstack_frames;
    struct gpu_snap_chunk *text;
};

/* Groups of allocations by (where, function) text (gpu_snap_summary.c): a string table whose ids
 * are the groups' indexes, and each stack's group remembered by the stack id. count adds an
 * allocation (the group's stack is its largest, the first of equal ones); rank sorts largest
 * first and returns how many of top there are; free keeps the first `keep` groups' texts (the
 * caller owns t->g then; keep 0 frees it too). */
struct gpu_snap_gtab {
    struct gpu_snap_group *g;
    size_t n, cap;
    struct gpu_strtab text;
    struct gpu_u64map by_stack;
};
bool gpu_snap_gtab_init(struct gpu_snap_gtab *t);
bool gpu_snap_gtab_count(struct gpu_snap_gtab *t, const struct gpu_snapshot *s, uint32_t stack,
                         uint64_t bytes);
size_t gpu_snap_gtab_rank(struct gpu_snap_gtab *t, size_t top);
void gpu_snap_gtab_free(struct gpu_snap_gtab *t, size_t keep);

/* The walk's part of loading (gpu_snap_walk.c): pairs, pre-trace allocations, start levels. */
gpu_status gpu_snap_walk_prepare(struct gpu_snapshot *s, const gpu_cancel_flag *cancel, char *err,
                                 size_t n);
void gpu_snap_walk_free(struct gpu_snap_dev *d);

#endif
