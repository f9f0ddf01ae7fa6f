/* gpu_snap_replay.h - "what if": a snapshot's trace replayed through the caching-allocator model
 * (gpu_caching.h), under the options the snapshot recorded and under others, side by side with
 * what PyTorch did. The model starts from the cache as it was before the trace's first entry
 * (the segments then, at their addresses, and the blocks live in them), so under the recorded
 * options it should repeat PyTorch's cudaMalloc/cudaFree counts and final segments; where it
 * does not, a finding says so. Findings are kinds and numbers: the words are said above gpu/
 * (docs/snapshot.md lists them). */
#ifndef GPU_SNAP_REPLAY_H
#define GPU_SNAP_REPLAY_H

#include "gpu_caching.h"
#include "gpu_snapshot.h"

/* What happened on one side of the comparison over the trace window. */
struct gpu_snap_side {
    uint64_t peak_reserved, end_reserved, end_active, end_non_releasable;
    uint64_t peak_requested;       /* live requested bytes (model: requested_bytes.peak) */
    uint64_t device_allocs, device_frees; /* cudaMalloc + cuMemMap / cudaFree + cuMemUnmap */
    uint64_t end_segments;
    uint64_t end_sizes_sig;        /* a hash of the sorted segment sizes at the end */
    size_t ooms;                   /* recorded: oom entries; model: requests that failed */
    int64_t first_oom_event;       /* -1: none (or, model, a block live before the trace) */
    uint64_t first_oom_bytes;
    char first_oom[512];           /* model: PyTorch's message (the allocator's own text) */
    size_t recorded_ooms_fit;      /* model: recorded OOM requests the model could serve */
};

/* Notes (approximations that apply) and differences (where the model under the recorded options
 * did not do what PyTorch did). v[] holds the numbers each kind names; x a real number. */
#define GPU_SNAP_FINDINGS(X)                                                                       \
    X(NOTE_NO_SETTINGS)      /* v0: 1 when expandable segments were inferred from segments */      \
    X(NOTE_ROUNDUP_INTERVALS)/* v0: the one value the model uses */                                \
    X(NOTE_GC_THRESHOLD)     /* x: the threshold */                                                \
    X(NOTE_PRE_TRACE)        /* v0 segments, v1 bytes reserved, v2 blocks, v3 bytes requested */   \
    X(NOTE_OVERFLOWED)       /* the ring buffer dropped its oldest entries */                      \
    X(NOTE_STREAMS)          /* v0: streams in the trace */                                        \
    X(NOTE_EXPANDABLE)       /* recorded device calls are maps/unmaps */                           \
    X(NOTE_NO_CAPACITY)      /* no capacity: no OOM judged */                                      \
    X(NOTE_EMPTY_CACHE)      /* v0: empty_cache() calls read from segment_free runs */             \
    X(NOTE_PRIVATE_POOLS)    /* v0: segments of private pools replayed as the default pool */      \
    X(NOTE_PRE_TRACE_UNPLACED) /* v0 blocks the model placed itself (address not in a segment) */ \
    X(DIFF_OOM)              /* v0 capacity, v1 model OOMs, v2 recorded that fit, v3 recorded */   \
    X(DIFF_PEAK_RESERVED)    /* v0 recorded, v1 model */                                           \
    X(DIFF_DEVICE_CALLS)     /* v0 rec allocs, v1 rec frees, v2 model allocs, v3 model frees */    \
    X(DIFF_END_SEGMENTS)     /* v0 rec count, v1 rec bytes, v2 model count, v3 model bytes */      \
    X(DIFF_END_SIZES)        /* v0 count, v1 bytes: same count and total, other sizes */           \
    X(DIFF_NON_RELEASABLE)   /* v0 recorded, v1 model */
#define GPU_SNAP_X_KIND(k) GPU_SNAP_##k,
enum gpu_snap_finding_kind { GPU_SNAP_FINDINGS(GPU_SNAP_X_KIND) GPU_SNAP_NFINDING_KINDS };
#undef GPU_SNAP_X_KIND
extern const char *const gpu_snap_finding_names[GPU_SNAP_NFINDING_KINDS]; /* "NOTE_STREAMS" */

struct gpu_snap_finding {
    uint8_t kind;                  /* enum gpu_snap_finding_kind */
    uint64_t v[4];
    double x;
};

#define GPU_SNAP_MAX_FINDINGS 16
struct gpu_snap_replay {
    int device;
    uint64_t capacity;             /* 0: unlimited (OOMs not judged) */
    struct gpu_caching_opts recorded_opts, whatif_opts;
    bool have_whatif;
    struct gpu_snap_side recorded, model_recorded, model_whatif;
    size_t seeds;                  /* blocks live before the trace */
    uint64_t seed_bytes;
    size_t seed_segments;          /* segments held before the trace */
    uint64_t seed_reserved;
    size_t empty_caches;           /* segment_free/unmap runs read as empty_cache() */
    size_t streams;
    struct gpu_snap_finding notes[GPU_SNAP_MAX_FINDINGS], diffs[GPU_SNAP_MAX_FINDINGS];
    size_t nnotes, ndiffs;
};

/* The allocator options the snapshot recorded, as gpu_caching_opts (defaults where it has no
 * allocator_settings; expandable when a segment says so). */
void gpu_snapshot_recorded_opts(const struct gpu_snapshot *s, struct gpu_caching_opts *o);
/* Options as PYTORCH_CUDA_ALLOC_CONF text ("max_split_size_mb:128,expandable_segments:False"). */
void gpu_snap_conf_text(const struct gpu_caching_opts *o, char *buf, size_t n);

/* Replay device `device`'s trace under the recorded options and, when whatif is not NULL, under
 * those. capacity 0 = unlimited. reserved (may be NULL): the model's reserved bytes after each
 * entry (the what-if model's when whatif is given), for a timeline beside the recorded ones.
 * Every GPU_SNAP_CHECK_EVERY entries it looks at *cancel (may be NULL): GPU_ERR_CANCELLED. */
gpu_status gpu_snapshot_replay(const struct gpu_snapshot *s, int device, uint64_t capacity,
                               const struct gpu_caching_opts *whatif, uint64_t *reserved,
                               const gpu_cancel_flag *cancel, struct gpu_snap_replay *r,
                               char *err, size_t n);

#endif
