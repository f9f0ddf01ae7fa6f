/* gpu_mempool.h - a MODEL of CUDA's stream-ordered allocator (cudaMallocAsync / cudaFreeAsync
 * with a cudaMemPool_t): physical chunks the pool keeps, reuse rules by stream, and the release
 * threshold that decides what a synchronisation gives back. It runs on no device: it exists to
 * show the rules (CUDA Programming Guide, "Stream Ordered Memory Allocator"). What the guide
 * does not specify (chunk sizes, placement, alignment) is a stated assumption; see
 * docs/allocator.md, "Stream-ordered allocation (model)". Not thread-safe. */
#ifndef GPU_MEMPOOL_H
#define GPU_MEMPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

#define GPU_MEMPOOL_STREAMS 16         /* streams 0..15 */
#define GPU_MEMPOOL_ALIGN 256ull        /* assumption: cudaMalloc's documented alignment */
#define GPU_MEMPOOL_CHUNK (2ull << 20)  /* assumption: physical memory mapped in 2 MiB units */
#define GPU_MEMPOOL_NO_RELEASE UINT64_MAX

struct gpu_mempool_opts {
    uint64_t capacity;          /* bytes of the model device */
    uint64_t release_threshold; /* cudaMemPoolAttrReleaseThreshold; default 0 */
    bool reuse_follow_event_dependencies; /* cudaMemPoolReuseFollowEventDependencies (default on) */
    bool reuse_allow_opportunistic;       /* cudaMemPoolReuseAllowOpportunistic (default on) */
    bool reuse_allow_internal_dependencies; /* cudaMemPoolReuseAllowInternalDependencies (on) */
};
void gpu_mempool_opts_default(struct gpu_mempool_opts *o, uint64_t capacity);

struct gpu_mempool_stats {
    uint64_t reserved, reserved_high; /* cudaMemPoolAttrReservedMemCurrent / High */
    uint64_t used, used_high;         /* cudaMemPoolAttrUsedMemCurrent / High */
    uint64_t allocs, frees;           /* cudaMallocAsync / cudaFreeAsync calls */
    uint64_t chunk_maps, chunk_unmaps;/* physical memory taken from / given back to the device */
    uint64_t reused;                  /* allocations served from memory the pool already held */
    uint64_t internal_deps;           /* of those, how many made a stream wait for another */
    uint64_t ooms;
    uint64_t chunks;
    uint64_t release_threshold;
};

struct gpu_mempool;
gpu_status gpu_mempool_new(const struct gpu_mempool_opts *o, struct gpu_mempool **out);
void gpu_mempool_destroy(struct gpu_mempool *p);
/* cudaMallocAsync(ptr, bytes, stream). GPU_ERR_NOMEM when the device is full (after giving back
 * what the pool may release), with err = cudaErrorMemoryAllocation's text. */
gpu_status gpu_mempool_malloc(struct gpu_mempool *p, uint64_t bytes, int stream, uint64_t *addr,
                              char *err, size_t n);
/* cudaFreeAsync(ptr, stream): the block returns to the pool at this point of `stream`'s order.
 * GPU_ERR_ARG when addr is not a live allocation. */
gpu_status gpu_mempool_free(struct gpu_mempool *p, uint64_t addr, int stream);
/* cudaStreamSynchronize(stream), or cudaDeviceSynchronize() with stream < 0: frees made on it
 * have completed; then the pool releases free chunks until it holds <= release_threshold. */
void gpu_mempool_synchronize(struct gpu_mempool *p, int stream);
/* cudaEventRecord(e, src); cudaStreamWaitEvent(dst, e): dst's later work follows src's frees so
 * far, so with reuse_follow_event_dependencies dst may reuse them. */
void gpu_mempool_wait(struct gpu_mempool *p, int dst, int src);
/* cudaMemPoolTrimTo(pool, keep): release completed free chunks until reserved <= keep. */
void gpu_mempool_trim_to(struct gpu_mempool *p, uint64_t keep);
void gpu_mempool_set_release_threshold(struct gpu_mempool *p, uint64_t bytes);
void gpu_mempool_stats(const struct gpu_mempool *p, struct gpu_mempool_stats *s);
void gpu_mempool_reset_high(struct gpu_mempool *p);

/* The pool's chunks and blocks (address order), for a memory map. */
struct gpu_mempool_block {
    uint64_t addr, size;
    bool allocated;
    bool pending;  /* freed, but the free has not completed (no sync since) */
    int stream;    /* allocated on / freed on */
};
struct gpu_mempool_chunk {
    uint64_t addr, size;
    size_t first_block, nblocks;
};
struct gpu_mempool_map {
    struct gpu_mempool_chunk *chunks;
    size_t nchunks;
    struct gpu_mempool_block *blocks;
    size_t nblocks;
};
gpu_status gpu_mempool_segments(const struct gpu_mempool *p, struct gpu_mempool_map *m);
void gpu_mempool_map_free(struct gpu_mempool_map *m);

#endif
