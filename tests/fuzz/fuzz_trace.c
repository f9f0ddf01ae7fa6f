/* fuzz_trace.c - libFuzzer target for the allocation-trace parser (gpu_trace_parse) and its
 * replay into the caching-allocator model over model devices of 1 GiB, 24 GiB, 141 GB and 4 TiB,
 * each with expandable segments on and off (a 1 GiB device reaches OOMs and the retry ladder
 * quickly; the large ones reach requests past an expandable segment's address range). An optional first line
 * "#conf <PYTORCH_CUDA_ALLOC_CONF text>" also fuzzes the option parser. Properties: a bad trace
 * fails with "line N:" for a line that exists and leaves the trace empty; a good one has every
 * event on an existing line with a slot below nslots; the replay accounts for every event
 * (allocs + ooms, frees + skipped frees), allocated <= reserved <= capacity, and destroying the
 * allocator gives every byte back to the device. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_caching.h"
#include "gpu_model_dev.h"
#include "gpu_trace.h"

#define CHECK(c)                                                                                  \
    do {                                                                                          \
        if (!(c)) {                                                                               \
            fprintf(stderr, "fuzz_trace: %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);     \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

static const uint64_t capacities[] = {1ull << 30, 24ull << 30, 141000000000ull, 4ull << 40};

static void replay_on(const struct gpu_trace *t, const struct gpu_caching_opts *o, uint64_t capacity,
                      size_t want_allocs, size_t want_frees, size_t want_empties);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    uint32_t nlines = 0;
    for (size_t i = 0; i < size; i++) nlines += text[i] == '\n';
    if (size && text[size - 1] != '\n') nlines++;

    struct gpu_caching_opts o;
    gpu_caching_opts_default(&o);
    char err[512];
    if (size > 5 && !memcmp(text, "#conf ", 6)) {
        const char *eol = memchr(text, '\n', size);
        size_t cl = (size_t)((eol ? eol : text + size) - text) - 6;
        char conf[256];
        snprintf(conf, sizeof conf, "%.*s", (int)(cl < 255 ? cl : 255), text + 6);
        if (gpu_caching_parse_conf(conf, &o, err, sizeof err) != GPU_OK) {
            CHECK(err[0]); /* a refusal says why */
            gpu_caching_opts_default(&o);
        }
    }

    struct gpu_trace t;
    gpu_status st = gpu_trace_parse(text, size, &t, err, sizeof err);
    if (st != GPU_OK) {
        unsigned line = 0;
        CHECK(sscanf(err, "line %u:", &line) == 1);
        CHECK(line >= 1 && line <= nlines);
        CHECK(t.n == 0 && t.ev == NULL);
        return 0;
    }
    size_t want_allocs = 0, want_frees = 0, want_empties = 0;
    for (size_t i = 0; i < t.n; i++) {
        const struct gpu_trace_ev *e = &t.ev[i];
        CHECK(e->line >= 1 && e->line <= nlines);
        CHECK(i == 0 || e->line > t.ev[i - 1].line);
        if (e->op != GPU_TRACE_EMPTY) CHECK(e->slot < t.nslots); /* slots of alloc/free only */
        CHECK(e->op <= GPU_TRACE_EMPTY);
        if (e->op == GPU_TRACE_ALLOC) {
            CHECK(e->bytes > 0);
            want_allocs++;
        }
        if (e->op == GPU_TRACE_FREE) want_frees++;
        if (e->op == GPU_TRACE_EMPTY) want_empties++;
    }

    for (size_t i = 0; i < sizeof capacities / sizeof capacities[0]; i++)
        for (int flip = 0; flip < 2; flip++) {
            struct gpu_caching_opts oo = o;
            if (flip) oo.expandable_segments = !oo.expandable_segments;
            replay_on(&t, &oo, capacities[i], want_allocs, want_frees, want_empties);
        }
    gpu_trace_free(&t);
    return 0;
}

static void replay_on(const struct gpu_trace *t, const struct gpu_caching_opts *o, uint64_t capacity,
                      size_t want_allocs, size_t want_frees, size_t want_empties)
{
    char err[512];
    struct gpu_model_dev *d;
    CHECK(gpu_model_dev_new(capacity, &d) == GPU_OK);
    struct gpu_caching *c;
    gpu_status st = gpu_caching_new(o, &gpu_model_dev_ops, d, &c, err, sizeof err);
    if (st != GPU_OK) { /* options the device cannot honour: refused with a reason */
        CHECK(err[0]);
        gpu_model_dev_free(d);
        return;
    }
    struct gpu_replay_result *r = calloc(1, sizeof *r);
    CHECK(r);
    gpu_status st2 = gpu_trace_replay(t, c, r, NULL, err, sizeof err);
    CHECK(st2 == GPU_OK);
    CHECK(r->allocs + r->ooms == want_allocs);
    CHECK(r->frees + r->skipped_frees == want_frees);
    CHECK(r->empties == want_empties);
    CHECK(r->noom_list <= GPU_REPLAY_OOM_LIST && r->noom_list <= r->ooms);
    const struct gpu_caching_stats *s = &r->stats;
    for (int p = 0; p < GPU_CACHE_NPOOL; p++) {
        CHECK(s->allocated_bytes[p].current <= s->reserved_bytes[p].current);
        CHECK(s->allocated_bytes[p].current <= s->allocated_bytes[p].peak);
        CHECK(s->reserved_bytes[p].current <= s->reserved_bytes[p].peak);
    }
    CHECK(s->reserved_bytes[GPU_CACHE_ALL].current <= capacity);
    CHECK(s->reserved_bytes[GPU_CACHE_ALL].current ==
          s->reserved_bytes[GPU_CACHE_SMALL].current + s->reserved_bytes[GPU_CACHE_LARGE].current);
    if (!o->expandable_segments) CHECK(gpu_model_dev_used(d) == s->reserved_bytes[GPU_CACHE_ALL].current);
    /* the memory map agrees with the statistics */
    struct gpu_cache_map m;
    if (gpu_caching_segments(c, &m) == GPU_OK) {
        uint64_t seg_total = 0;
        for (size_t i = 0; i < m.nsegs; i++) {
            CHECK(m.segs[i].first_block + m.segs[i].nblocks <= m.nblocks);
            seg_total += m.segs[i].size;
        }
        CHECK(seg_total == s->reserved_bytes[GPU_CACHE_ALL].current);
        gpu_cache_map_free(&m);
    }
    /* the summary renders, whatever the state */
    size_t need = gpu_caching_summary(c, NULL, 0);
    char *buf = malloc(need + 1);
    CHECK(buf);
    CHECK(gpu_caching_summary(c, buf, need + 1) == need && strlen(buf) == need);
    free(buf);
    gpu_caching_destroy(c);
    CHECK(gpu_model_dev_used(d) == 0); /* every segment went back */
    gpu_model_dev_free(d);
    free(r);
}
