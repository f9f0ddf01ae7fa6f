/* gpu_mempool.c - the stream-ordered allocator MODEL (see gpu_mempool.h). A pool holds chunks
 * of "physical" memory from a model device; each chunk is a list of blocks in address order.
 * A free block remembers the stream it was freed on and when (a sequence number), which is all
 * the reuse rules need. Sizes are small (lessons), so the searches are linear. */
#include "gpu_mempool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_model_dev.h" /* the model device hands out chunk addresses */

struct mblk {
    uint64_t addr, size;
    bool allocated;
    int stream;    /* allocated on, or freed on */
    uint64_t seq;  /* free's sequence number */
    struct mblk *next;
};

struct mchunk {
    uint64_t addr, size;
    struct mblk *head;
    struct mchunk *next; /* address order */
};

struct gpu_mempool {
    struct gpu_mempool_opts o;
    struct gpu_model_dev *dev;
    struct mchunk *chunks;
    uint64_t seq;
    uint64_t done[GPU_MEMPOOL_STREAMS];  /* frees up to this seq have completed (synchronised) */
    uint64_t dep[GPU_MEMPOOL_STREAMS][GPU_MEMPOOL_STREAMS]; /* dst waited for src's frees to seq */
    struct gpu_mempool_stats st;
};

void gpu_mempool_opts_default(struct gpu_mempool_opts *o, uint64_t capacity)
{
    memset(o, 0, sizeof *o);
    o->capacity = capacity;
    o->release_threshold = 0;
    o->reuse_follow_event_dependencies = true;
    o->reuse_allow_opportunistic = true;
    o->reuse_allow_internal_dependencies = true;
}

gpu_status gpu_mempool_new(const struct gpu_mempool_opts *o, struct gpu_mempool **out)
{
    *out = NULL;
    if (!o || !o->capacity) return GPU_ERR_ARG;
    struct gpu_mempool *p = calloc(1, sizeof *p);
    if (!p) return GPU_ERR_HOST_NOMEM;
    p->o = *o;
    gpu_status st = gpu_model_dev_new(o->capacity, &p->dev);
    if (st != GPU_OK) {
        free(p);
        return st;
    }
    p->st.release_threshold = o->release_threshold;
    *out = p;
    return GPU_OK;
}

static void chunk_drop(struct gpu_mempool *p, struct mchunk *c)
{
    for (struct mblk *b = c->head, *nx; b; b = nx) {
        nx = b->next;
        free(b);
    }
    gpu_model_dev_ops.seg_free(p->dev, c->addr, c->size);
    free(c);
}

void gpu_mempool_destroy(struct gpu_mempool *p)
{
    if (!p) return;
    for (struct mchunk *c = p->chunks, *nx; c; c = nx) {
        nx = c->next;
        chunk_drop(p, c);
    }
    gpu_model_dev_free(p->dev);
    free(p);
}

static bool completed(const struct gpu_mempool *p, const struct mblk *b)
{
    return b->seq <= p->done[b->stream];
}

/* 0: not reusable by `stream`; 1: reusable as it is; 2: only by making `stream` wait for the
 * freeing stream (cudaMemPoolReuseAllowInternalDependencies). */
static int reusable(const struct gpu_mempool *p, const struct mblk *b, int stream)
{
    if (b->allocated) return 0;
    if (b->stream == stream) return 1; /* stream order makes it safe at once */
    if (p->o.reuse_follow_event_dependencies && b->seq <= p->dep[stream][b->stream]) return 1;
    if (p->o.reuse_allow_opportunistic && completed(p, b)) return 1;
    return p->o.reuse_allow_internal_dependencies ? 2 : 0;
}

/* Merge free neighbours that are interchangeable: both completed, or freed on one stream. */
static void coalesce(struct gpu_mempool *p, struct mchunk *c)
{
    for (struct mblk *b = c->head; b && b->next;) {
        struct mblk *n = b->next;
        bool same = !b->allocated && !n->allocated &&
                    ((completed(p, b) && completed(p, n)) || b->stream == n->stream);
        if (same) {
            b->size += n->size;
            if (n->seq > b->seq) b->seq = n->seq, b->stream = n->stream;
            b->next = n->next;
            free(n);
        } else {
            b = n;
        }
    }
}

static bool chunk_idle(const struct gpu_mempool *p, const struct mchunk *c)
{
    for (const struct mblk *b = c->head; b; b = b->next)
        if (b->allocated || !completed(p, b)) return false;
    return true;
}

/* Give idle chunks back, largest first, until reserved <= keep. */
static void release_to(struct gpu_mempool *p, uint64_t keep)
{
    while (p->st.reserved > keep) {
        struct mchunk **best = NULL;
        for (struct mchunk **c = &p->chunks; *c; c = &(*c)->next)
            if (chunk_idle(p, *c) && (!best || (*c)->size > (*best)->size)) best = c;
        if (!best) return;
        struct mchunk *c = *best;
        *best = c->next;
        p->st.reserved -= c->size;
        p->st.chunks--;
        p->st.chunk_unmaps++;
        chunk_drop(p, c);
    }
}

static gpu_status map_chunk(struct gpu_mempool *p, uint64_t size, struct mchunk **out)
{
    uint64_t addr;
    gpu_status st = gpu_model_dev_ops.seg_alloc(p->dev, size, &addr);
    if (st != GPU_OK) return st;
    struct mchunk *c = calloc(1, sizeof *c);
    struct mblk *b = calloc(1, sizeof *b);
    if (!c || !b) {
        free(c);
        free(b);
        gpu_model_dev_ops.seg_free(p->dev, addr, size);
        return GPU_ERR_HOST_NOMEM;
    }
    c->addr = b->addr = addr;
    c->size = b->size = size;
    c->head = b;
    struct mchunk **at = &p->chunks;
    while (*at && (*at)->addr < addr) at = &(*at)->next;
    c->next = *at;
    *at = c;
    p->st.reserved += size;
    if (p->st.reserved > p->st.reserved_high) p->st.reserved_high = p->st.reserved;
    p->st.chunks++;
    p->st.chunk_maps++;
    *out = c;
    return GPU_OK;
}

gpu_status gpu_mempool_malloc(struct gpu_mempool *p, uint64_t bytes, int stream, uint64_t *addr,
                              char *err, size_t n)
{
    if (err && n) err[0] = 0;
    if (!p || !addr || stream < 0 || stream >= GPU_MEMPOOL_STREAMS || bytes == 0 ||
        bytes > (1ull << 50)) {
        if (err && n) gpu_errf(err, n, "cudaMallocAsync: invalid argument (cudaErrorInvalidValue)");
        return GPU_ERR_ARG;
    }
    uint64_t size = (bytes + GPU_MEMPOOL_ALIGN - 1) / GPU_MEMPOOL_ALIGN * GPU_MEMPOOL_ALIGN;
    /* best fit among blocks reusable as they are; else among those needing a wait */
    struct mblk *best[3] = {NULL, NULL, NULL};
    for (struct mchunk *c = p->chunks; c; c = c->next)
        for (struct mblk *b = c->head; b; b = b->next) {
            int r = reusable(p, b, stream);
            if (r && b->size >= size && (!best[r] || b->size < best[r]->size)) best[r] = b;
        }
    struct mblk *b = best[1] ? best[1] : best[2];
    if (b && b == best[2]) {
        /* the driver makes this stream wait for the freeing one: reuse, at the cost of
         * serialising the two streams from here */
        p->dep[stream][b->stream] = p->seq;
        p->st.internal_deps++;
    }
    if (!b) {
        uint64_t chunk = (size + GPU_MEMPOOL_CHUNK - 1) / GPU_MEMPOOL_CHUNK * GPU_MEMPOOL_CHUNK;
        struct mchunk *c = NULL;
        gpu_status st = map_chunk(p, chunk, &c);
        if (st == GPU_ERR_NOMEM) { /* give back what the pool holds idle, then try once more */
            release_to(p, 0);
            st = map_chunk(p, chunk, &c);
        }
        if (st != GPU_OK) {
            if (st == GPU_ERR_NOMEM) {
                p->st.ooms++;
                if (err && n)
                    gpu_errf(err, n, "cudaMallocAsync(%llu bytes): out of memory "
                             "(cudaErrorMemoryAllocation; MODEL: %.2f MiB of %.2f MiB in use)",
                             (unsigned long long)bytes,
                             gpu_model_dev_used(p->dev) / 1048576.0, p->o.capacity / 1048576.0);
            }
            return st;
        }
        b = c->head;
    } else {
        p->st.reused++;
    }
    if (b->size > size) { /* split: the rest stays free, with the history it had */
        struct mblk *rest = calloc(1, sizeof *rest);
        if (!rest) return GPU_ERR_HOST_NOMEM;
        *rest = *b;
        rest->addr = b->addr + size;
        rest->size = b->size - size;
        b->size = size;
        b->next = rest;
    }
    b->allocated = true;
    b->stream = stream;
    p->st.used += size;
    if (p->st.used > p->st.used_high) p->st.used_high = p->st.used;
    p->st.allocs++;
    *addr = b->addr;
    return GPU_OK;
}

gpu_status gpu_mempool_free(struct gpu_mempool *p, uint64_t addr, int stream)
{
    if (!p || stream < 0 || stream >= GPU_MEMPOOL_STREAMS) return GPU_ERR_ARG;
    for (struct mchunk *c = p->chunks; c; c = c->next) {
        if (addr < c->addr || addr >= c->addr + c->size) continue;
        for (struct mblk *b = c->head; b; b = b->next) {
            if (b->addr != addr || !b->allocated) continue;
            b->allocated = false;
            b->stream = stream;
            b->seq = ++p->seq;
            p->st.used -= b->size;
            p->st.frees++;
            coalesce(p, c);
            return GPU_OK;
        }
    }
    return GPU_ERR_ARG;
}

void gpu_mempool_synchronize(struct gpu_mempool *p, int stream)
{
    if (!p) return;
    for (int s = 0; s < GPU_MEMPOOL_STREAMS; s++)
        if (stream < 0 || s == stream) p->done[s] = p->seq;
    for (struct mchunk *c = p->chunks; c; c = c->next) coalesce(p, c);
    /* "the allocator will try to release memory back to the OS on the next call to stream,
     * event or context synchronize" when it holds more than the threshold */
    if (p->st.reserved > p->o.release_threshold) release_to(p, p->o.release_threshold);
}

void gpu_mempool_wait(struct gpu_mempool *p, int dst, int src)
{
    if (!p || dst < 0 || src < 0 || dst >= GPU_MEMPOOL_STREAMS || src >= GPU_MEMPOOL_STREAMS)
        return;
    p->dep[dst][src] = p->seq;
}

void gpu_mempool_trim_to(struct gpu_mempool *p, uint64_t keep)
{
    if (p) release_to(p, keep);
}

void gpu_mempool_set_release_threshold(struct gpu_mempool *p, uint64_t bytes)
{
    if (!p) return;
    p->o.release_threshold = bytes;
    p->st.release_threshold = bytes;
}

void gpu_mempool_stats(const struct gpu_mempool *p, struct gpu_mempool_stats *s)
{
    *s = p->st;
}

void gpu_mempool_reset_high(struct gpu_mempool *p)
{
    p->st.reserved_high = p->st.reserved;
    p->st.used_high = p->st.used;
}

gpu_status gpu_mempool_segments(const struct gpu_mempool *p, struct gpu_mempool_map *m)
{
    memset(m, 0, sizeof *m);
    size_t nc = 0, nb = 0;
    for (const struct mchunk *c = p->chunks; c; c = c->next, nc++)
        for (const struct mblk *b = c->head; b; b = b->next) nb++;
    m->chunks = calloc(nc ? nc : 1, sizeof *m->chunks);
    m->blocks = calloc(nb ? nb : 1, sizeof *m->blocks);
    if (!m->chunks || !m->blocks) {
        gpu_mempool_map_free(m);
        return GPU_ERR_HOST_NOMEM;
    }
    for (const struct mchunk *c = p->chunks; c; c = c->next) {
        struct gpu_mempool_chunk *k = &m->chunks[m->nchunks++];
        k->addr = c->addr;
        k->size = c->size;
        k->first_block = m->nblocks;
        for (const struct mblk *b = c->head; b; b = b->next) {
            m->blocks[m->nblocks++] = (struct gpu_mempool_block){
                b->addr, b->size, b->allocated, !b->allocated && !completed(p, b), b->stream};
            k->nblocks++;
        }
    }
    return GPU_OK;
}

void gpu_mempool_map_free(struct gpu_mempool_map *m)
{
    free(m->chunks);
    free(m->blocks);
    memset(m, 0, sizeof *m);
}
