/* gpu_cache_int.h - private to the caching-allocator model (gpu_caching.c, gpu_cache_index.c,
 * gpu_cache_report.c): the block, segment and allocator structs and the two indexes. */
#ifndef GPU_CACHE_INT_H
#define GPU_CACHE_INT_H

#include "gpu_caching.h"
#include "gpu_u64map.h"

enum { SMALL, LARGE }; /* pool index; its stat index is 1 + pool */

#define NO_PAGE UINT64_MAX

struct seg;
struct blk {
    uint64_t addr, size, req;
    uint64_t key;             /* tree key: size in the free tree, 0 in the unmapped tree */
    struct blk *prev, *next;  /* neighbours in the segment, address order */
    struct blk *l, *r;        /* treap children; r also links the spare list */
    struct blk *rel_prev, *rel_next; /* the pool's releasable list (while on it) */
    struct seg *seg;
    uint64_t trace_id;
    uint32_t prio;
    bool allocated, mapped, releasable;
};

struct seg {
    struct seg *prev, *next;
    uint64_t addr, size;  /* the cudaMalloc'ed range; expandable: the reserved virtual range */
    int pool;
    bool expandable;
    struct blk *head;
    uint64_t page;        /* expandable: 2 MiB small pool, 20 MiB large pool */
    uint64_t *phys;       /* expandable: backend address of page i, NO_PAGE when unmapped */
    size_t nphys;
    unsigned slot;
};

struct pool {
    struct blk *free;     /* mapped free blocks by (size, addr) */
    struct blk *unmapped; /* unmapped ranges of expandable segments by addr */
    /* the free blocks empty_cache would act on: a whole segment, or an expandable segment's
     * block holding a whole page; kept as blocks enter and leave the free tree, so releasing
     * costs what is released, not what is cached */
    struct blk *releasable;
};

struct slab {
    struct slab *next;
    struct blk b[255];
};

struct gpu_caching {
    struct gpu_caching_opts o;
    struct gpu_seg_ops ops;
    void *ctx;
    struct gpu_model_dev *own_dev;
    uint64_t total_mem;   /* capacity from mem_info at creation; 0 = unknown */
    uint64_t allowed;     /* memory_fraction x capacity */
    bool set_fraction;
    struct pool pools[2];
    struct seg *segs;
    struct gpu_u64map live; /* live blocks: address -> struct blk * */
    struct gpu_caching_stats st;
    /* inactive_split changes of the current call: PyTorch applies the net change once */
    int64_t isplit_bytes[2], isplit_n[2];
    struct blk *spare;
    struct slab *slabs;
    uint32_t rng;
    gpu_trace_sink sink;
    void *sink_ud;
    uint64_t next_id;
};

/* Free blocks: a treap keyed by (key, addr) - PyTorch's std::set<Block*, BlockComparatorSize>.
 * The key is the size in a pool's free tree and 0 in its unmapped tree (address order). */
void gpu_cache_tree_insert(struct blk **root, struct blk *x);
void gpu_cache_tree_erase(struct blk **root, struct blk *x);
struct blk *gpu_cache_tree_lower(struct blk *t, uint64_t key, uint64_t addr); /* first >= */
struct blk *gpu_cache_tree_next(struct blk *root, const struct blk *x);
struct blk *gpu_cache_tree_prev(struct blk *t, uint64_t key, uint64_t addr);  /* last < */
struct blk *gpu_cache_tree_max(struct blk *t);


#endif
