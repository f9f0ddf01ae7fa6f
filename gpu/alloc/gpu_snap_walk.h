/* gpu_snap_walk.h - the one walk over a snapshot's trace, which the summary, the timeline, the
 * what-if replay, the diff, the collapsed stacks and the snapshot screen all use:
 *   - the step: alloc adds its size to live bytes, free_completed takes it away; segment_alloc
 *     and segment_map add to reserved bytes, segment_free and segment_unmap take away;
 *   - alloc <-> free_completed pairs, made once at load (an address map, linear);
 *   - the allocations live before the trace (freed in it without an alloc, or still active at
 *     the end without one), and live and reserved bytes before entry 0;
 *   - the largest allocations live at a cursor, and the segment that held an address at a
 *     cursor (mapped ranges of expandable segments undone back to it);
 *   - the one "user frame" rule (memory_viz's frame filter, then the user's own Python code).
 * Long walks take a cancel flag they look at every few thousand entries. */
#ifndef GPU_SNAP_WALK_H
#define GPU_SNAP_WALK_H

#include "gpu_snapshot.h"

#define GPU_SNAP_NONE UINT32_MAX
#define GPU_SNAP_CHECK_EVERY 4096 /* entries between looks at a cancel flag */

void gpu_snap_step(const struct gpu_snap_event *e, int64_t *live, int64_t *reserved);

/* The partner of entry i of device d: an alloc's free_completed, a free_completed's alloc
 * (GPU_SNAP_NONE: none; a second alloc at a live address stays unpaired, as memory_viz shows
 * it). */
uint32_t gpu_snap_pair(const struct gpu_snapshot *s, int d, size_t i);

/* An allocation live before the trace began: freed by entry freed_at without an alloc in the
 * trace (the ring buffer dropped it, or recording started later), or an active block of the
 * final state no alloc of the trace accounts for (freed_at -1). In address order. */
struct gpu_snap_pre {
    uint64_t addr, size;       /* size: requested bytes */
    int64_t freed_at;
    uint32_t stack;
    int32_t block;             /* the final state's block (freed_at -1), else -1 */
};
const struct gpu_snap_pre *gpu_snap_pre_trace(const struct gpu_snapshot *s, int d, size_t *n);
/* Live requested bytes and reserved bytes before entry 0 of device d (the final segments walked
 * back through the segment_* entries). */
void gpu_snap_start(const struct gpu_snapshot *s, int d, int64_t *live, int64_t *reserved);

/* Live requested and reserved bytes just after entry i (i = -1: before the trace). */
void gpu_snap_level_at(const struct gpu_snapshot *s, int d, int64_t i, int64_t *live,
                       int64_t *reserved);

/* A timeline column: the highest live and reserved bytes after any of its entries. */
struct gpu_snap_column {
    int64_t first, last;            /* the entries it covers, inclusive (first > last: none) */
    int64_t live_max, reserved_max;
    int64_t live_end, reserved_end; /* after its last entry */
};
/* Columns for entries [from, to) of device d (to clamped to the trace's length), decimated so
 * that a peak survives any width; one pass over entries 0..to. GPU_ERR_CANCELLED when *cancel
 * is set (may be NULL). */
gpu_status gpu_snap_timeline(const struct gpu_snapshot *s, int d, size_t from, size_t to,
                             size_t ncols, struct gpu_snap_column *out, const gpu_cancel_flag *cancel);

/* The largest allocations live just after entry `cursor` (cursor -1: before the trace), largest
 * first (ties: the earlier one): trace allocations (event = its entry) and those live before the
 * trace (event -1, pre = its index). Returns how many (at most max). */
struct gpu_snap_live {
    uint64_t addr, size;
    int64_t event;
    int64_t pre;
    uint32_t stack;
};
size_t gpu_snap_live_top(const struct gpu_snapshot *s, int d, int64_t cursor,
                         struct gpu_snap_live *out, size_t max);
/* Every allocation live just after entry `cursor` whose address lies in [lo, hi), in address
 * order, into *out (malloc'd; free it). */
gpu_status gpu_snap_live_in(const struct gpu_snapshot *s, int d, int64_t cursor, uint64_t lo,
                            uint64_t hi, struct gpu_snap_live **out, size_t *n);

/* The segment that held `addr` just after entry `cursor`: the final segments with the
 * segment_* entries after the cursor undone. For an expandable segment, the contiguous mapped
 * range around addr then (its pages mapped and unmapped after the cursor undone). */
struct gpu_snap_seg_at {
    uint64_t addr, size;
    bool expandable, small;
};
bool gpu_snap_segment_at(const struct gpu_snapshot *s, int d, int64_t cursor, uint64_t addr,
                         struct gpu_snap_seg_at *out);

/* The mapped ranges of expandable segments just after entry `cursor` (-1: before the trace),
 * in address order, each with its pool (that of the nearest expandable segment of the final
 * state). *out is malloc'd. GPU_ERR_ARG when the trace is too tangled to undo. */
struct gpu_snap_range {
    uint64_t addr, size;
    bool small;
};
gpu_status gpu_snap_mapped_at(const struct gpu_snapshot *s, int d, int64_t cursor,
                              struct gpu_snap_range **out, size_t *n);

/* ---- frames --------------------------------------------------------------------------------- */

/* What a frame is (enum gpu_snap_frame_kind), from its file and function names: memory_viz's
 * frameFilter, then the user's own code (a .py file, not <...>, not inside torch, not Python's
 * standard library unless in site-/dist-packages; '\' and '/' alike, so Windows paths too). */
int gpu_snap_frame_classify(const char *name, size_t nn, const char *file, size_t fn);
/* The first user frame of a stack, or NULL. */
const struct gpu_snap_frame *gpu_snap_user_frame(const struct gpu_snapshot *s, uint32_t stack);
/* "dir/file.py" from "/home/a/dir/file.py" or "C:\\a\\dir\\file.py": the last `parts` path
 * components, either separator. */
void gpu_snap_short_path(const char *path, size_t n, int parts, const char **out, size_t *outn);

#endif
