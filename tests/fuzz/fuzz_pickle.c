/* fuzz_pickle.c - libFuzzer target for the pickle reader (gpu_pickle.c), the snapshot model
 * and summary (gpu_snapshot.c) and the what-if replay (gpu_snap_replay.c). Properties: a
 * refused input says "offset N: ..." with N inside the input and leaves no document; an
 * accepted one is a finite tree (each container visited once) of well-formed values (strings
 * valid UTF-8, NUL-terminated, no container nested deeper than the limit); a snapshot's
 * summary is consistent (blocks add up, the peak is at least the start and the end, groups
 * sorted largest first) and its replay on a small model device never holds more than the
 * device has. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snapshot.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_pickle: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);    \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

#define DEPTH 32
#define CAPACITY (256ull << 20)

struct seen { /* containers visited, by identity (open addressing) */
    const void **k;
    size_t n, cap;
};

static size_t slot_of(const struct seen *s, const void *id)
{
    size_t h = (size_t)((uintptr_t)id >> 3) * 0x9e3779b97f4a7c15ull;
    size_t i = h & (s->cap - 1);
    while (s->k[i] && s->k[i] != id) i = (i + 1) & (s->cap - 1);
    return i;
}

static bool visit_once(struct seen *s, const void *id)
{
    if ((s->n + 1) * 2 > s->cap) {
        struct seen g = {calloc(s->cap ? s->cap * 2 : 256, sizeof *g.k), s->n,
                         s->cap ? s->cap * 2 : 256};
        CHECK(g.k);
        for (size_t i = 0; i < s->cap; i++)
            if (s->k[i]) g.k[slot_of(&g, s->k[i])] = s->k[i];
        free(s->k);
        *s = g;
    }
    size_t i = slot_of(s, id);
    if (s->k[i]) return false;
    s->k[i] = id;
    s->n++;
    return true;
}

static bool utf8_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k = c < 0x80 ? 0 : c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 9;
        if (k == 9 || i + k >= n + (k == 0)) return false;
        for (size_t j = 1; j <= k; j++)
            if ((p[i + j] & 0xc0) != 0x80) return false;
        i += k + 1;
    }
    return true;
}

static size_t walk(const struct gpu_pk *v, struct seen *s, int depth)
{
    CHECK(depth <= DEPTH + 1);
    size_t n;
    enum gpu_pk_type t = gpu_pk_type(v);
    CHECK(t <= GPU_PK_DICT);
    if (t == GPU_PK_STR) {
        const char *str = gpu_pk_str(v, &n);
        CHECK(str && str[n] == 0 && utf8_ok((const unsigned char *)str, n));
        return 1;
    }
    if (t == GPU_PK_BYTES || t == GPU_PK_BIGINT) {
        CHECK(gpu_pk_bytes(v, &n) != NULL);
        return 1;
    }
    if (t < GPU_PK_LIST) return 1;
    if (!visit_once(s, gpu_pk_identity(v))) return 1;
    size_t len = gpu_pk_len(v), total = 1;
    CHECK(gpu_pk_at(v, len) == NULL);
    for (size_t i = 0; i < len; i++) {
        total += walk(gpu_pk_at(v, i), s, depth + 1);
        if (t == GPU_PK_DICT) total += walk(gpu_pk_dict_value(v, i), s, depth + 1);
    }
    return total;
}

static void check_summary(const struct gpu_snapshot *s, const struct gpu_snap_summary *sum)
{
    for (size_t i = 0; i < sum->ndev; i++) {
        const struct gpu_snap_device *d = &sum->dev[i];
        CHECK(i == 0 || d->device > sum->dev[i - 1].device);
        uint64_t bytes = 0, blocks = 0;
        for (int k = 0; k < GPU_SNAP_NSTATES; k++) bytes += d->blocks[k].bytes, blocks += d->blocks[k].count;
        CHECK(d->releasable + d->non_releasable == d->blocks[GPU_SNAP_INACTIVE].bytes);
        CHECK(d->largest_free <= d->blocks[GPU_SNAP_INACTIVE].bytes);
        CHECK(d->peak_bytes >= d->start_bytes && d->peak_bytes >= d->end_bytes);
        CHECK(d->reserved_peak >= d->reserved_start && d->reserved_peak >= d->reserved_end);
        CHECK(d->reserved_end == (int64_t)d->reserved);
        CHECK(d->peak_event >= -1 && d->peak_event < (int64_t)d->events);
        size_t acts = 0;
        for (int k = 0; k < GPU_SNAP_NACTIONS; k++) acts += d->actions[k];
        CHECK(acts == d->events && d->nooms == d->actions[GPU_SNAP_OOM]);
        CHECK(d->streams <= d->events && (d->events == 0) == (d->streams == 0));
        for (size_t k = 0; k < d->ntop; k++) {
            CHECK(d->top[k].count > 0 && d->top[k].where && d->top[k].function);
            CHECK(k == 0 || d->top[k].bytes <= d->top[k - 1].bytes);
        }
        /* every block of the device's segments is counted once */
        uint64_t want = 0;
        for (size_t k = 0; k < gpu_snapshot_nsegs(s); k++)
            if (gpu_snapshot_seg(s, k)->device == d->device) want += gpu_snapshot_seg(s, k)->nblocks;
        CHECK(blocks == want);
        (void)bytes;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gpu_pk_limits lim = {.max_objects = 1u << 20, .max_depth = DEPTH,
                                .max_string = 1u << 20};
    struct gpu_pk_doc *doc = (void *)1;
    char err[1024] = "";
    if (gpu_pk_parse(data, size, &lim, &doc, err, sizeof err) != GPU_OK) {
        unsigned long off = ~0ul;
        CHECK(doc == NULL);
        CHECK(sscanf(err, "offset %lu:", &off) == 1 && off <= size);
        return 0;
    }
    struct seen seen = {0};
    walk(gpu_pk_root(doc), &seen, 0);
    free(seen.k);

    struct gpu_snapshot *s;
    if (gpu_snapshot_from_doc(doc, NULL, &s, err, sizeof err) != GPU_OK) { /* doc freed with it */
        CHECK(!strncmp(err, "not a PyTorch memory snapshot (", 31) || strstr(err, "2^62"));
        return 0;
    }
    struct gpu_snap_summary sum;
    CHECK(gpu_snapshot_summarize(s, 5, NULL, &sum, err, sizeof err) == GPU_OK);
    check_summary(s, &sum);
    gpu_snap_summary_free(&sum);
    struct gpu_snap_replay *r = calloc(1, sizeof *r);
    CHECK(r);
    struct gpu_caching_opts o;
    gpu_snapshot_recorded_opts(s, &o);
    o.expandable_segments = !o.expandable_segments;
    for (size_t d = 0; d < 2; d++)
        if (gpu_snapshot_replay(s, (int)d, CAPACITY, &o, NULL, NULL, r, err, sizeof err) == GPU_OK) {
            CHECK(r->model_recorded.end_reserved <= CAPACITY);
            CHECK(r->model_recorded.peak_reserved <= CAPACITY);
            CHECK(r->model_whatif.peak_reserved <= CAPACITY);
            CHECK(r->ndiffs <= GPU_SNAP_MAX_FINDINGS && r->nnotes <= GPU_SNAP_MAX_FINDINGS);
        }
    free(r);
    gpu_snapshot_free(s);
    return 0;
}
