/* gpu_snap_summary.h - what `vramlab snapshot` prints about one snapshot, per device: the final
 * state (segments, blocks by state, fragmentation, what empty_cache() would return), the
 * trace (entries, streams, times), the live and reserved peaks, who held the memory at the peak
 * (grouped by the first user frame, with the whole stack), the recorded OOMs, private pools.
 * Every number is defined in docs/snapshot.md, and tests/snapshot/summary_ref.py computes the
 * same in Python from PyTorch's own rules. Linear in the file: each stack is looked at once. */
#ifndef GPU_SNAP_SUMMARY_H
#define GPU_SNAP_SUMMARY_H

#include "gpu_snapshot.h"

struct gpu_snap_count {
    uint64_t count, bytes, requested;
};

/* The `where` of a group whose stack has no frame of the user's code (a caller may say it in
 * another language by comparing with these). */
#define GPU_SNAP_NO_USER_FRAME "<torch or Python internals only>"
#define GPU_SNAP_NO_FRAMES "<no frames recorded>"

/* One group of live allocations: where = "FILE:LINE" of the first user frame, or a label in <>;
 * function = that frame's name; stack = the stack of its largest allocation (the first of
 * equal ones), shown whole. */
struct gpu_snap_group {
    char *where, *function;
    size_t where_len, function_len; /* they may hold NUL bytes */
    uint32_t stack;
    uint64_t bytes, count, largest;
};

struct gpu_snap_oom {
    size_t event;
    bool has_time, has_free;
    int64_t time_us, stream;
    uint64_t size, device_free;
    int64_t live_requested, reserved;
    struct gpu_snap_group where; /* bytes/count unused */
};

/* Segments of one private pool (segment_pool_id other than (0, 0): CUDA graphs, MemPool). */
struct gpu_snap_pool {
    int64_t id[2];
    uint64_t nsegs, reserved, allocated, cached;
};

struct gpu_snap_device {
    int device;
    uint64_t nsegs, nlarge, nsmall, nexpandable, reserved;
    struct gpu_snap_count blocks[GPU_SNAP_NSTATES];
    uint64_t releasable, non_releasable, largest_free;
    size_t events, actions[GPU_SNAP_NACTIONS], streams;
    bool has_times;
    int64_t first_time, last_time;
    /* live requested bytes over the trace */
    int64_t start_bytes, end_bytes, peak_bytes;
    size_t pre_trace_blocks;
    uint64_t snapshot_active_requested;
    int64_t peak_event;                       /* -1: before the first event */
    /* reserved bytes over the trace, back from the final segments */
    int64_t reserved_start, reserved_end, reserved_peak;
    int64_t reserved_peak_event;
    struct gpu_snap_group *top;               /* largest first */
    size_t ntop;
    struct gpu_snap_oom *ooms;
    size_t nooms;
    struct gpu_snap_pool *pools;              /* private pools, by id */
    size_t npools;
};

struct gpu_snap_summary {
    struct gpu_snap_device *dev;
    size_t ndev;
};

/* Up to `top` groups at each device's peak. cancel may be NULL. */
gpu_status gpu_snapshot_summarize(const struct gpu_snapshot *s, size_t top,
                                  const gpu_cancel_flag *cancel, struct gpu_snap_summary *out,
                                  char *err, size_t n);
void gpu_snap_summary_free(struct gpu_snap_summary *sum);

/* What empty_cache() would give back from one segment of the final state (release_blocks):
 * a segment that is not expandable, all of it when no block in it is active; an expandable
 * segment's mapped range, every whole page (2 MiB small, 20 MiB large) inside its free blocks,
 * busy or not. */
uint64_t gpu_snap_seg_releasable(const struct gpu_snapshot *s, size_t seg);

/* The group an allocation of `stack` counts under (where, function; bytes/count left 0). */
bool gpu_snap_group_of(const struct gpu_snapshot *s, uint32_t stack, struct gpu_snap_group *g);
void gpu_snap_group_free(struct gpu_snap_group *g);

#endif
