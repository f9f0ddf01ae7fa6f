/* gpu_trace.h - allocation traces for the caching-allocator model: the text format
 * (docs/allocator.md), parsing, replaying into an allocator, and recording one's calls. */
#ifndef GPU_TRACE_H
#define GPU_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"
#include "gpu_caching.h"

/* ---- traces (gpu_trace.c; format in docs/allocator.md) ------------------------------------ */
/*   a <id> <bytes>   allocate (bytes may end in KiB, MiB or GiB)
 *   f <id>           free the allocation made under <id>
 *   e                empty_cache
 *   # ...            comment (also blank lines) */
enum gpu_trace_op { GPU_TRACE_ALLOC, GPU_TRACE_FREE, GPU_TRACE_EMPTY };
struct gpu_trace_ev {
    uint64_t id, bytes;
    uint32_t line;
    uint32_t slot;  /* dense index of the id among live ids: what the replayer indexes */
    uint8_t op;     /* enum gpu_trace_op */
};
struct gpu_trace {
    struct gpu_trace_ev *ev;
    size_t n, cap;
    size_t nslots;  /* most ids live at once */
};
/* Errors read "line N: what". A bad trace leaves *t empty. At most GPU_TRACE_MAX_EVENTS events
 * (32 bytes each once parsed). */
#define GPU_TRACE_MAX_EVENTS (1u << 24)
gpu_status gpu_trace_parse(const char *text, size_t len, struct gpu_trace *t, char *err, size_t n);
/* A trace file (a regular file of at most GPU_TRACE_MAX_FILE bytes; "-" is standard input):
 * errors read "path:N: what". conf (may be NULL) gets the recorder's "# conf:" line, "" if none. */
#define GPU_TRACE_MAX_FILE (256u << 20)
gpu_status gpu_trace_load(const char *path, struct gpu_trace *t, char *conf, size_t conf_n,
                          char *err, size_t n);
void gpu_trace_free(struct gpu_trace *t);

#define GPU_REPLAY_OOM_LIST 64
struct gpu_replay_result {
    size_t allocs, frees, empties;
    size_t ooms;            /* allocations that failed; their later frees are skipped */
    size_t skipped_frees;
    uint32_t first_oom_line;
    char first_oom[512];    /* PyTorch's message for the first OOM */
    size_t noom_list;       /* the first GPU_REPLAY_OOM_LIST OOMs: trace line and bytes asked */
    struct { uint32_t line; uint64_t bytes; } oom_list[GPU_REPLAY_OOM_LIST];
    struct gpu_caching_stats stats; /* after the last event */
};
/* Replays into c. OOMs are results, not errors: the call still returns GPU_OK. Every 4096
 * events it looks at *cancel (NULL: never cancelled) and stops with GPU_ERR_CANCELLED, err "line
 * N: cancelled", r holding the counts so far. Time is linear in the events: the model device
 * and the allocator index their free ranges. */
gpu_status gpu_trace_replay(const struct gpu_trace *t, struct gpu_caching *c,
                            struct gpu_replay_result *r, const gpu_cancel_flag *cancel, char *err,
                            size_t n);

/* Sinks for gpu_caching_record (gpu_caching.h). */
void gpu_trace_sink_file(void *ud, const char *line, size_t len); /* ud = FILE * */
struct gpu_trace_buf {
    char *data;   /* NUL-terminated */
    size_t len, cap;
    bool failed;  /* ran out of host memory; data holds what fitted */
};
void gpu_trace_sink_buf(void *ud, const char *line, size_t len); /* ud = struct gpu_trace_buf * */
void gpu_trace_buf_free(struct gpu_trace_buf *b);

#endif
