/* gpu_caching.h - a model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp)
 * as a plain C library: block rounding, small/large pools, best-fit reuse, splitting, coalescing,
 * the OOM retry ladder, empty_cache, the PYTORCH_CUDA_ALLOC_CONF options that shape memory, the
 * statistics of torch.cuda.memory_stats(), a memory map and memory_summary().
 * Segments come through gpu_seg_ops (the model device of gpu_model_dev.h, a GPU backend, a
 * replay's device); traces of its calls are gpu_trace.h.
 * The rules and their sources are in docs/allocator.md. Not thread-safe: serialise calls. */
#ifndef GPU_CACHING_H
#define GPU_CACHING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

/* PyTorch's constants, same names without the k. */
#define GPU_CACHE_MIN_BLOCK_SIZE 512ull               /* every size rounds up to this */
#define GPU_CACHE_SMALL_SIZE (1ull << 20)             /* largest "small" request: 1 MiB */
#define GPU_CACHE_SMALL_BUFFER (2ull << 20)           /* small-pool segment: 2 MiB */
#define GPU_CACHE_LARGE_BUFFER (20ull << 20)          /* segment for 1-10 MiB requests: 20 MiB */
#define GPU_CACHE_MIN_LARGE_ALLOC (10ull << 20)       /* from here a request gets its own segment */
#define GPU_CACHE_ROUND_LARGE (2ull << 20)            /* own segments round up to 2 MiB */
#define GPU_CACHE_NO_SPLIT_LIMIT UINT64_MAX           /* max_split_size default: unlimited */

/* Expandable segments live in a reserved virtual range, not in memory the backend hands out:
 * small pool at GPU_CACHE_EXP_BASE_SMALL, large pool at GPU_CACHE_EXP_BASE_LARGE, each further
 * segment of a pool GPU_CACHE_EXP_STRIDE above the previous one. */
#define GPU_CACHE_EXP_BASE_SMALL (1ull << 44)
#define GPU_CACHE_EXP_BASE_LARGE (2ull << 44)
#define GPU_CACHE_EXP_STRIDE (1ull << 40)

/* Where segments come from. Addresses are opaque numbers (on a real GPU the caller casts device
 * pointers). seg_alloc returns GPU_ERR_NOMEM when the device is full: the allocator then frees
 * its cache and retries; any other status is passed straight back to the caller.
 * mem_info may be NULL (then the OOM message says "unknown" and memory_fraction is refused). */
struct gpu_seg_ops {
    gpu_status (*seg_alloc)(void *ctx, uint64_t bytes, uint64_t *addr);
    void (*seg_free)(void *ctx, uint64_t addr, uint64_t bytes);
    gpu_status (*mem_info)(void *ctx, uint64_t *free_b, uint64_t *total_b);
    /* Optional: hold [addr, addr + bytes) exactly (seeding from a recorded state); GPU_ERR_ARG
     * when that range cannot be had. NULL: seeding refused. */
    gpu_status (*seg_take)(void *ctx, uint64_t addr, uint64_t bytes);
};

/* The options of PYTORCH_CUDA_ALLOC_CONF that change where memory goes, plus
 * torch.cuda.set_per_process_memory_fraction. Start from gpu_caching_opts_default(). */
struct gpu_caching_opts {
    uint64_t max_split_size;       /* bytes; UINT64_MAX = unlimited, else >= 20 MiB (as PyTorch) */
    unsigned roundup_power2_divisions; /* 0 or 1 = off, else a power of two */
    bool expandable_segments;      /* one growing segment per pool, mapped in 2 MiB / 20 MiB pages */
    double memory_fraction;        /* 0 = no cap, else (0, 1]: reserved <= fraction x capacity */
};
void gpu_caching_opts_default(struct gpu_caching_opts *o);
/* Parse PYTORCH_CUDA_ALLOC_CONF text ("max_split_size_mb:128,expandable_segments:True") on top of
 * *o. Options that do not change the model (backend:native, release_lock_on_cudamalloc, pinned_*)
 * are accepted and ignored; garbage_collection_threshold and per-interval roundup lists are
 * refused as not modelled. */
gpu_status gpu_caching_parse_conf(const char *conf, struct gpu_caching_opts *o, char *err, size_t n);

struct gpu_caching;

/* The allocator does not own ctx. On failure *out is NULL and err says why. */
gpu_status gpu_caching_new(const struct gpu_caching_opts *o, const struct gpu_seg_ops *ops,
                           void *ctx, struct gpu_caching **out, char *err, size_t n);
/* The same over a model device of `capacity` bytes that the allocator owns. */
gpu_status gpu_caching_new_model(const struct gpu_caching_opts *o, uint64_t capacity,
                                 struct gpu_caching **out, char *err, size_t n);
/* Returns every segment to the backend, also those with live blocks. NULL is fine. */
void gpu_caching_destroy(struct gpu_caching *c);
void gpu_caching_get_opts(const struct gpu_caching *c, struct gpu_caching_opts *o);

/* Allocate `bytes` (> 0). On GPU_ERR_NOMEM, err holds PyTorch's message ("CUDA out of memory.
 * Tried to allocate 20.00 MiB. GPU 0 has a total capacity of ..."). */
gpu_status gpu_caching_malloc(struct gpu_caching *c, uint64_t bytes, uint64_t *addr, char *err,
                              size_t n);
/* GPU_ERR_ARG for an address that is not a live allocation. */
gpu_status gpu_caching_free(struct gpu_caching *c, uint64_t addr);
/* torch.cuda.empty_cache(): release every cached segment that is completely free. */
void gpu_caching_empty_cache(struct gpu_caching *c);
/* torch.cuda.reset_peak_memory_stats(): every peak becomes its current value. */
void gpu_caching_reset_peak(struct gpu_caching *c);

/* Seeding from a recorded state (a snapshot taken mid-run: the cache as it was before its
 * trace). Counted like the allocator's own segments and allocations; a caller compares device
 * calls and peaks from after the seeding (gpu_caching_reset_peak, a stats baseline).
 * A segment held at `addr` (the backend's seg_take places it; not with expandable segments): */
gpu_status gpu_caching_seed_segment(struct gpu_caching *c, uint64_t addr, uint64_t size, bool small);
/* Expandable segments: map [offset, offset + size) (whole pages) of the pool's first segment,
 * made if needed; *base is that segment's address, so a recorded offset becomes an address. */
gpu_status gpu_caching_seed_expandable(struct gpu_caching *c, bool small, uint64_t offset,
                                       uint64_t size, uint64_t *base);
/* A block of `size` bytes (already rounded) allocated at `addr`, inside a free block of a
 * segment; requested: what the program asked for. GPU_ERR_ARG when no free block holds it. */
gpu_status gpu_caching_seed_block(struct gpu_caching *c, uint64_t addr, uint64_t size,
                                  uint64_t requested);
/* The rounded size and the segment size PyTorch gives a request of `bytes` under c's options
 * (round_size, get_allocation_size). */
void gpu_caching_sizes(const struct gpu_caching *c, uint64_t bytes, uint64_t *rounded,
                       uint64_t *segment);

/* ---- statistics: torch.cuda.memory_stats(), key for key ---------------------------------- */
/* "<stat>.<pool>.<field>": pool index GPU_CACHE_ALL/SMALL/LARGE = all/small_pool/large_pool. */
enum { GPU_CACHE_ALL, GPU_CACHE_SMALL, GPU_CACHE_LARGE, GPU_CACHE_NPOOL };
struct gpu_cache_stat {
    uint64_t current, peak;
    uint64_t allocated, freed; /* cumulative increases / decreases */
};
struct gpu_caching_stats {
    struct gpu_cache_stat allocation[GPU_CACHE_NPOOL];      /* live allocations (count) */
    struct gpu_cache_stat segment[GPU_CACHE_NPOOL];         /* cudaMalloc'ed segments (count) */
    struct gpu_cache_stat active[GPU_CACHE_NPOOL];
    struct gpu_cache_stat inactive_split[GPU_CACHE_NPOOL];  /* free blocks in split segments */
    struct gpu_cache_stat allocated_bytes[GPU_CACHE_NPOOL]; /* rounded block sizes */
    struct gpu_cache_stat reserved_bytes[GPU_CACHE_NPOOL];  /* held from the device */
    struct gpu_cache_stat active_bytes[GPU_CACHE_NPOOL];
    struct gpu_cache_stat inactive_split_bytes[GPU_CACHE_NPOOL]; /* "non-releasable memory" */
    struct gpu_cache_stat requested_bytes[GPU_CACHE_NPOOL]; /* sizes as asked, before rounding */
    struct gpu_cache_stat oversize_allocations, oversize_segments; /* >= max_split_size */
    uint64_t num_alloc_retries;  /* allocations that needed the free-everything retry */
    uint64_t num_ooms;
    uint64_t num_device_alloc, num_device_free; /* segment allocs / frees (maps / unmaps) */
    uint64_t largest_free[GPU_CACHE_NPOOL];     /* biggest cached free block (cacheInfo) */
    uint64_t max_split_size;
};
void gpu_caching_stats(const struct gpu_caching *c, struct gpu_caching_stats *s);

/* torch.cuda.memory_summary() text (75-column table). Returns the length it needs, like
 * snprintf; buf is always terminated when n > 0. */
size_t gpu_caching_summary(const struct gpu_caching *c, char *buf, size_t n);
/* PyTorch's format_size: "512 bytes", "1.50 KiB", "20.00 MiB", "1.50 GiB". */
void gpu_cache_format_size(uint64_t bytes, char *buf, size_t n);

/* Recording: every malloc/free/empty_cache of c is written as a trace line to the sink (NULL
 * stops). Ids are numbered from 1 in allocation order. Start on a fresh allocator for an exact
 * round trip: frees of blocks allocated before recording started become comments. */
typedef void (*gpu_trace_sink)(void *ud, const char *line, size_t len);
void gpu_caching_record(struct gpu_caching *c, gpu_trace_sink sink, void *ud);

/* ---- memory map (the segments of torch.cuda.memory_snapshot()) ---------------------------- */
struct gpu_cache_block_info {
    uint64_t addr, offset, size;
    uint64_t requested;  /* 0 for a free block */
    bool allocated;
};
struct gpu_cache_seg_info {
    uint64_t addr, size;
    uint64_t allocated, requested;   /* sums over its allocated blocks */
    int pool;                        /* GPU_CACHE_SMALL or GPU_CACHE_LARGE */
    bool expandable;                 /* one mapped range of an expandable segment */
    size_t first_block, nblocks;     /* into gpu_cache_map.blocks */
};
struct gpu_cache_map {
    struct gpu_cache_seg_info *segs;
    size_t nsegs;
    struct gpu_cache_block_info *blocks;
    size_t nblocks;
};
/* Segments in address order, each with its blocks in address order. Free with
 * gpu_cache_map_free. */
gpu_status gpu_caching_segments(const struct gpu_caching *c, struct gpu_cache_map *m);
void gpu_cache_map_free(struct gpu_cache_map *m);

#endif
