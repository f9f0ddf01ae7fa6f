/* gpu_snapshot.h - PyTorch memory snapshots (torch.cuda.memory._snapshot(), pickled by
 * _dump_snapshot): the model read from the pickle (segments, blocks, per-device trace entries,
 * allocator settings), the analysis vramlab prints (states, fragmentation, the trace's peak and
 * what was live at it, OOMs), and the what-if replay of the trace through the caching-allocator
 * model (gpu_caching.h). Every number is defined in docs/snapshot.md; a stdlib-only Python
 * reference (tests/snapshot/summary_ref.py) computes the same summary. */
#ifndef GPU_SNAPSHOT_H
#define GPU_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"
#include "gpu_caching.h"
#include "gpu_pickle.h"

/* Trace actions, in PyTorch's TraceEntry::Action order; anything else is OTHER. */
#define GPU_SNAP_ACTIONS(X)                                                                        \
    X(ALLOC, "alloc")                                                                              \
    X(FREE_REQUESTED, "free_requested")                                                            \
    X(FREE_COMPLETED, "free_completed")                                                            \
    X(SEGMENT_ALLOC, "segment_alloc")                                                              \
    X(SEGMENT_FREE, "segment_free")                                                                \
    X(SEGMENT_MAP, "segment_map")                                                                  \
    X(SEGMENT_UNMAP, "segment_unmap")                                                              \
    X(SNAPSHOT, "snapshot")                                                                        \
    X(OOM, "oom")                                                                                  \
    X(OTHER, "other")
#define GPU_SNAP_X_ENUM(id, name) GPU_SNAP_##id,
enum gpu_snap_action { GPU_SNAP_ACTIONS(GPU_SNAP_X_ENUM) GPU_SNAP_NACTIONS };
#undef GPU_SNAP_X_ENUM
extern const char *const gpu_snap_action_names[GPU_SNAP_NACTIONS];

enum gpu_snap_state { GPU_SNAP_ACTIVE_ALLOCATED, GPU_SNAP_ACTIVE_PENDING_FREE, GPU_SNAP_INACTIVE,
                      GPU_SNAP_NSTATES };
extern const char *const gpu_snap_state_names[GPU_SNAP_NSTATES];

struct gpu_snap_block {
    uint64_t addr, size, requested; /* requested: the size asked for (active blocks) */
    const struct gpu_pk *frames;    /* a list of frame dicts, innermost first, or NULL */
    uint8_t state;                  /* enum gpu_snap_state */
};

struct gpu_snap_segment {
    uint64_t addr, size;            /* address, total_size */
    int64_t stream;
    int device;
    bool small, expandable;
    size_t first_block, nblocks;    /* into gpu_snapshot.blocks, in address order */
};

struct gpu_snap_event {
    uint64_t addr;                  /* oom: device_free (has_addr false when absent) */
    uint64_t size;                  /* alloc, free_*: bytes asked for; segment_*: segment or
                                       mapping size; oom: the rounded request */
    int64_t stream, time_us;
    const struct gpu_pk *frames;
    uint8_t action;                 /* enum gpu_snap_action */
    bool has_addr, has_time;
};

struct gpu_snap_trace {
    struct gpu_snap_event *ev;
    size_t n;
};

/* allocator_settings (PyTorch 2.2 and later); present false for older snapshots. */
struct gpu_snap_settings {
    bool present;
    const char *conf;               /* PYTORCH_CUDA_ALLOC_CONF as recorded, or NULL */
    size_t conf_len;                /* its bytes (it may hold a NUL) */
    uint64_t max_split_size;        /* 0: unlimited or not recorded */
    int expandable;                 /* -1 not recorded, else 0 / 1 */
    bool has_gc;
    double gc_threshold;
    bool has_roundup;
    size_t nroundup;                /* roundup_power2_divisions, one per size interval */
    int64_t roundup[64];
    bool roundup_ok[64];            /* that value was a whole number */
    bool trace_overflowed;          /* trace_alloc_overflowed, where recorded */
};

struct gpu_snapshot {
    struct gpu_pk_doc *doc;
    struct gpu_snap_segment *segs;
    size_t nsegs;
    struct gpu_snap_block *blocks;
    size_t nblocks;
    struct gpu_snap_trace *traces;  /* index = device */
    size_t ntraces;
    struct gpu_snap_settings settings;
    size_t legacy_history_blocks;   /* blocks in the older format (history, no frames) */
    const char *k_filename, *k_line, *k_name; /* interned frame keys (NULL: none in the file) */
};

/* Load and check a snapshot. Errors read "PATH: offset N: ..." (pickle) or "PATH: not a
 * PyTorch memory snapshot (no 'segments' key)" (shape). */
gpu_status gpu_snapshot_load(const char *path, const struct gpu_pk_limits *lim,
                             struct gpu_snapshot **out, char *err, size_t n);
/* From a parsed document, which the snapshot then owns (freed also on failure). Errors read
 * "not a PyTorch memory snapshot (...)". */
gpu_status gpu_snapshot_from_doc(struct gpu_pk_doc *doc, struct gpu_snapshot **out, char *err,
                                 size_t n);
void gpu_snapshot_free(struct gpu_snapshot *s);

/* ---- the summary (docs/snapshot.md defines each number) --------------------------------- */

struct gpu_snap_count {
    uint64_t count, bytes, requested;
};

/* The `where` of a group whose stack has no frame of the user's code (a caller may say it in
 * another language by comparing with this). */
#define GPU_SNAP_NO_USER_FRAME "<torch or Python internals only>"

/* One group of live allocations at the peak: where = "FILE:LINE" of the first user frame, or
 * a label in <>; function = that frame's name. */
struct gpu_snap_group {
    char *where, *function;
    size_t where_len, function_len; /* they may hold NUL bytes */
    uint64_t bytes, count;
};

struct gpu_snap_oom {
    size_t event;
    bool has_time, has_free;
    int64_t time_us, stream;
    uint64_t size, device_free;
    int64_t live_requested, reserved;
    struct gpu_snap_group where; /* bytes/count unused */
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
};

struct gpu_snap_summary {
    struct gpu_snap_device *dev;
    size_t ndev;
};

/* Up to `top` groups at each device's peak. */
gpu_status gpu_snapshot_summarize(const struct gpu_snapshot *s, size_t top,
                                  struct gpu_snap_summary *out, char *err, size_t n);
void gpu_snap_summary_free(struct gpu_snap_summary *sum);
/* Every size of one device added up stays within 2^62 bytes (so no sum of them overflows);
 * else "sizes on device D add up past 2^62 bytes". nactive (may be NULL): active blocks. */
gpu_status gpu_snapshot_check_sizes(const struct gpu_snapshot *s, int device, size_t *nactive,
                                    char *err, size_t n);
/* The time of event i of a device's trace, if it has one. */
bool gpu_snapshot_event_time(const struct gpu_snapshot *s, int device, int64_t i, int64_t *t);

/* ---- what if: the trace through the caching-allocator model (gpu_snap_replay.c) --------- */

/* What happened on one side of the comparison over the trace window. */
struct gpu_snap_side {
    uint64_t peak_reserved, end_reserved, end_active, end_non_releasable;
    uint64_t peak_requested;       /* live requested bytes (model: requested_bytes.peak) */
    uint64_t device_allocs, device_frees; /* cudaMalloc + cuMemMap / cudaFree + cuMemUnmap */
    uint64_t end_segments;
    uint64_t end_sizes_sig;        /* a hash of the sorted segment sizes at the end */
    size_t ooms;                   /* recorded: oom entries; model: requests that failed */
    int64_t first_oom_event;       /* -1: none */
    uint64_t first_oom_bytes;
    char first_oom[512];           /* model: PyTorch's message */
    size_t recorded_ooms_fit;      /* model: recorded OOM requests the model could serve */
};

struct gpu_snap_replay {
    int device;
    uint64_t capacity;             /* 0: unlimited (OOMs not judged) */
    struct gpu_caching_opts recorded_opts, whatif_opts;
    bool have_whatif;
    struct gpu_snap_side recorded, model_recorded, model_whatif;
    size_t seeds;                  /* blocks live before the trace, allocated first */
    uint64_t seed_bytes;
    size_t empty_caches;           /* segment_free/unmap runs read as empty_cache() */
    size_t streams;
    char notes[8][256];            /* approximations that apply to this snapshot */
    size_t nnotes;
    char diffs[8][256];            /* where the model disagrees with the recorded run */
    size_t ndiffs;
};

/* The allocator options the snapshot recorded, as gpu_caching_opts (defaults where it has no
 * allocator_settings; expandable when a segment says so). Options the model cannot follow
 * (per-interval roundup, garbage_collection_threshold) are named in note (may be NULL). */
void gpu_snapshot_recorded_opts(const struct gpu_snapshot *s, struct gpu_caching_opts *o,
                                char *note, size_t n);
/* Options as PYTORCH_CUDA_ALLOC_CONF text ("max_split_size_mb:128,expandable_segments:False"). */
void gpu_snap_conf_text(const struct gpu_caching_opts *o, char *buf, size_t n);
/* Replay device `device`'s alloc/free_completed stream under the recorded options and, when
 * whatif is not NULL, under those. capacity 0 = unlimited. */
gpu_status gpu_snapshot_replay(const struct gpu_snapshot *s, int device, uint64_t capacity,
                               const struct gpu_caching_opts *whatif, struct gpu_snap_replay *r,
                               char *err, size_t n);
/* The same, and the model's reserved bytes after each entry of the device's trace into
 * reserved[0 .. trace length) (the what-if model when whatif is given, else the one under the
 * recorded options); reserved may be NULL. For a timeline beside the recorded reserved bytes. */
gpu_status gpu_snapshot_replay_series(const struct gpu_snapshot *s, int device, uint64_t capacity,
                                      const struct gpu_caching_opts *whatif,
                                      struct gpu_snap_replay *r, uint64_t *reserved, char *err,
                                      size_t n);

#endif
