/* gpu_snapshot.h - a PyTorch memory snapshot (torch.cuda.memory._snapshot(), pickled by
 * _dump_snapshot) read into a compact model: segments and their blocks, each device's trace as
 * an array of 32-byte entries, the allocator settings, profiler annotations, and every stack
 * once (frames and frame lists are shared in the file and stay shared here). The pickle is
 * parsed (gpu_pickle.h), copied into this model and freed, so what stays in memory is the model,
 * not the document. Reading goes through the safe file reader (regular files, "-", a size limit),
 * is budgeted by the file's size and can be cancelled. The struct is opaque; callers read it
 * through the accessors below. The walk over a trace is gpu_snap_walk.h, the summary
 * gpu_snap_summary.h, the what-if replay gpu_snap_replay.h; docs/snapshot.md defines every
 * number. */
#ifndef GPU_SNAPSHOT_H
#define GPU_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"
#include "gpu_pickle.h"

/* The largest snapshot file read: real training snapshots run to hundreds of MB. */
#define GPU_SNAPSHOT_MAX_FILE (2ull << 30)

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

/* What a frame is to the reader (gpu_snap_walk.c decides, once per frame). */
enum gpu_snap_frame_kind {
    GPU_SNAP_FRAME_BAD,    /* not a dict with a str filename and name and an int line: skipped */
    GPU_SNAP_FRAME_HIDDEN, /* dropped by memory_viz's frame filter (interpreter, dispatcher) */
    GPU_SNAP_FRAME_LIB,    /* shown, but torch's, Python's own, or C++ */
    GPU_SNAP_FRAME_USER,   /* the user's own Python code */
};

struct gpu_snap_frame {
    const char *file, *name;       /* NUL-terminated (they may hold other NULs: the lengths) */
    uint32_t file_len, name_len;
    int64_t line;
    uint8_t kind;                  /* enum gpu_snap_frame_kind */
};

/* A stack: frame ids, innermost first. Stack 0 is "no frames recorded". */
struct gpu_snap_stack {
    uint32_t first, n;             /* into the stack frame array (gpu_snapshot_stack_frames) */
    int32_t user;                  /* position of the first user frame, -1: none */
};

struct gpu_snap_block {
    uint64_t addr, size, requested; /* requested: the size asked for (active blocks) */
    uint32_t stack;
    uint8_t state;                 /* enum gpu_snap_state */
};

struct gpu_snap_segment {
    uint64_t addr, size;           /* address, total_size */
    int64_t stream;
    int64_t pool[2];               /* segment_pool_id; (0, 0): the default pool */
    int device;
    bool small, expandable;
    uint32_t stack;                /* where the segment was allocated */
    size_t first_block, nblocks;   /* into the block array, in address order */
};

enum { GPU_SNAP_HAS_ADDR = 1, GPU_SNAP_HAS_TIME = 2 };
struct gpu_snap_event {            /* 32 bytes: a million entries take 32 MB */
    uint64_t addr;                 /* oom: device_free (GPU_SNAP_HAS_ADDR when present) */
    uint64_t size;                 /* alloc, free_*: bytes asked for; segment_*: segment or
                                      mapping size; oom: the rounded request */
    int64_t time_us;
    uint32_t stack;
    uint16_t stream;               /* index: gpu_snapshot_stream() gives the value */
    uint8_t action;                /* enum gpu_snap_action */
    uint8_t flags;                 /* GPU_SNAP_HAS_* */
};

/* external_annotations: profiler record_function ranges (PyTorch 2.5 and later). */
struct gpu_snap_annotation {
    const char *name;
    uint32_t name_len;
    int device;
    bool start;                    /* stage "START"; else "END" */
    bool has_time;
    int64_t time_us;
};

/* allocator_settings (PyTorch 2.2 and later); present false for older snapshots. */
struct gpu_snap_settings {
    bool present;
    const char *conf;              /* PYTORCH_CUDA_ALLOC_CONF as recorded, or NULL */
    size_t conf_len;               /* its bytes (it may hold a NUL) */
    uint64_t max_split_size;       /* 0: unlimited or not recorded */
    int expandable;                /* -1 not recorded, else 0 / 1 */
    bool has_gc;
    double gc_threshold;
    bool has_roundup;
    size_t nroundup;               /* roundup_power2_divisions, one per size interval */
    int64_t roundup[64];
    bool roundup_ok[64];           /* that value was a whole number */
    bool trace_overflowed;         /* trace_alloc_overflowed, where recorded */
};

struct gpu_snapshot;

/* Read a snapshot file (through gpu_file: regular files only, "-" is standard input, at most
 * GPU_SNAPSHOT_MAX_FILE bytes). cancel may be NULL. Errors read "PATH: offset N: ..."
 * (pickle), "PATH: not a PyTorch memory snapshot (...)" (shape), "PATH: not a regular file (a
 * FIFO)", "PATH: too large (...)"; GPU_ERR_CANCELLED when *cancel was set. */
gpu_status gpu_snapshot_load(const char *path, const gpu_cancel_flag *cancel,
                             struct gpu_snapshot **out, char *err, size_t n);
/* The same from a descriptor the caller opened and checked (taken). */
gpu_status gpu_snapshot_load_fd(int fd, const char *path, uint64_t max, const gpu_cancel_flag *cancel,
                                struct gpu_snapshot **out, char *err, size_t n);
/* From bytes in memory (tests, fuzzing). Errors without a path. */
gpu_status gpu_snapshot_parse(const void *buf, size_t len, const struct gpu_pk_limits *lim,
                              const gpu_cancel_flag *cancel, struct gpu_snapshot **out, char *err,
                              size_t n);
/* From a parsed document, which is freed here whatever happens. */
gpu_status gpu_snapshot_from_doc(struct gpu_pk_doc *doc, const gpu_cancel_flag *cancel,
                                 struct gpu_snapshot **out, char *err, size_t n);
void gpu_snapshot_free(struct gpu_snapshot *s);

/* ---- what is in it ---------------------------------------------------------------------- */

size_t gpu_snapshot_file_bytes(const struct gpu_snapshot *s);
int gpu_snapshot_protocol(const struct gpu_snapshot *s);
size_t gpu_snapshot_legacy_blocks(const struct gpu_snapshot *s); /* blocks in the 'history' format */
const struct gpu_snap_settings *gpu_snapshot_settings(const struct gpu_snapshot *s);

size_t gpu_snapshot_nsegs(const struct gpu_snapshot *s);
const struct gpu_snap_segment *gpu_snapshot_seg(const struct gpu_snapshot *s, size_t i);
const struct gpu_snap_block *gpu_snapshot_block(const struct gpu_snapshot *s, size_t i);

/* Device d's trace (NULL and 0 when it has none), and how many device_traces lists there are. */
const struct gpu_snap_event *gpu_snapshot_trace(const struct gpu_snapshot *s, int d, size_t *n);
size_t gpu_snapshot_ntraces(const struct gpu_snapshot *s);
int64_t gpu_snapshot_stream(const struct gpu_snapshot *s, uint16_t idx);
/* The time of event i of device d's trace, if it has one. */
bool gpu_snapshot_event_time(const struct gpu_snapshot *s, int d, int64_t i, int64_t *t);
/* The devices with segments or a non-empty trace, ascending; returns how many (at most max). */
size_t gpu_snapshot_devices(const struct gpu_snapshot *s, int *out, size_t max);

size_t gpu_snapshot_nannotations(const struct gpu_snapshot *s);
const struct gpu_snap_annotation *gpu_snapshot_annotation(const struct gpu_snapshot *s, size_t i);

/* Stacks and frames: gpu_snapshot_stack(s, id) for ids from blocks, segments and events; its
 * frames are gpu_snapshot_frame(s, gpu_snapshot_stack_frames(s)[st->first + k]). */
const struct gpu_snap_stack *gpu_snapshot_stack(const struct gpu_snapshot *s, uint32_t id);
const uint32_t *gpu_snapshot_stack_frames(const struct gpu_snapshot *s);
const struct gpu_snap_frame *gpu_snapshot_frame(const struct gpu_snapshot *s, uint32_t id);
/* The k-th frame of a stack (innermost first), NULL past its end. */
const struct gpu_snap_frame *gpu_snapshot_stack_frame(const struct gpu_snapshot *s, uint32_t stack,
                                                      uint32_t k);

/* Every size of one device added up stays within 2^62 bytes (so no sum of them overflows);
 * else "sizes on device D add up past 2^62 bytes". nactive (may be NULL): active blocks. */
gpu_status gpu_snapshot_check_sizes(const struct gpu_snapshot *s, int device, size_t *nactive,
                                    char *err, size_t n);

#endif
