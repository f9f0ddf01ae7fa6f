/* test_feed.c - programs that feed the GPU (gpu_feed.c, gpu_sim_feed.c): the content a buffer
 * holds as closed-form pieces against a word-by-word replay, a program's checks, and runs on the
 * simulator against the model's closed forms: a serial chain, streams that overlap, a pageable
 * copy that blocks the host, a race and its fix, unified memory's faults, prefetch and
 * oversubscription, pinning's cost, and every allocation freed on every path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu_feed.h"
#include "gpu_pattern.h"
#include "gpu_sim.h"

#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

static struct gpu_dev *open_sim(const char *profile, int fail_alloc)
{
    struct gpu_config c = {.profile = profile, .datadir = ".", .seed = 1, .deterministic = true,
                           .cap_fraction = 0.9, .fail_alloc = fail_alloc};
    struct gpu_dev *dev = NULL;
    char why[512];
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_OK);
    return dev;
}

static bool near(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

/* ---- content ------------------------------------------------------------------------------ */

static void test_rounds_closed_form(void **s)
{
    for (uint64_t r = 0; r < 300; r += 37) {
        uint32_t a, c, x = 12345, y = 12345;
        gpu_feed_rounds(r, &a, &c);
        for (uint64_t k = 0; k < r; k++) x = GPU_FEED_A * x + GPU_FEED_C;
        assert_int_equal(a * y + c, x);
    }
}

/* The pieces against a plain array of words that the same operations change one by one. */
static void test_content_replay(void **s)
{
    enum { W = 256 };
    static uint32_t a[W], b[W];
    struct gpu_feed_content ca, cb;
    gpu_feed_content_init(&ca, W * 4);
    gpu_feed_content_init(&cb, W * 4);
    for (int w = 0; w < W; w++) a[w] = (uint32_t)gpu_pattern_word(7, (uint64_t)w);
    gpu_feed_content_fill(&ca, 0, W * 4, 7);
    for (int w = 64; w < 128; w++) a[w] = (uint32_t)gpu_pattern_word(9, (uint64_t)w);
    gpu_feed_content_fill(&ca, 256, 256, 9);
    uint32_t ra, rc;
    gpu_feed_rounds(5, &ra, &rc);
    for (int w = 32; w < 96; w++) a[w] = ra * a[w] + rc;
    gpu_feed_content_rounds(&ca, 128, 256, 5);
    memcpy(&b[10], &a[40], 100 * 4); /* b holds nothing known elsewhere */
    gpu_feed_content_copy(&cb, 40, &ca, 160, 400);
    for (int w = 10; w < 110; w++) {
        const struct gpu_content_seg *g = NULL;
        for (int k = 0; k < cb.n; k++)
            if (cb.s[k].off <= (uint64_t)w * 4 && (uint64_t)w * 4 < cb.s[k].end) g = &cb.s[k];
        assert_non_null(g);
        assert_true(g->known);
        assert_int_equal(gpu_feed_expect(g, (uint64_t)w * 4), b[w]);
    }
    assert_false(cb.s[0].known); /* bytes 0..40 were never written */
    /* a copy within one buffer, then the diff: all equal to itself, the moved range differs */
    struct gpu_feed_content cc = ca;
    assert_int_equal(gpu_feed_content_diff(&cc, &ca, 0, W * 4), 0);
    gpu_feed_content_copy(&cc, 0, &ca, 512, 64);
    assert_int_equal(gpu_feed_content_diff(&cc, &ca, 0, W * 4), 16);
    gpu_feed_content_forget(&cc, 0, W * 4);
    assert_int_equal(gpu_feed_content_diff(&cc, &ca, 0, W * 4), W);
    /* past GPU_PROG_MAX_SEGS pieces the smallest become unknown, never more pieces */
    struct gpu_feed_content many;
    gpu_feed_content_init(&many, 4096 * 4);
    for (int k = 0; k < 200; k++) gpu_feed_content_fill(&many, (uint64_t)k * 80, 40, (uint32_t)k);
    assert_true(many.n <= GPU_PROG_MAX_SEGS);
    uint64_t covered = 0;
    for (int k = 0; k < many.n; k++) covered += many.s[k].end - many.s[k].off;
    assert_int_equal(covered, 4096 * 4);
}

/* ---- programs ----------------------------------------------------------------------------- */

static struct gpu_prog *prog(void)
{
    struct gpu_prog *p = calloc(1, sizeof *p);
    assert_non_null(p);
    return p;
}

static int buf(struct gpu_prog *p, enum gpu_mem kind, uint64_t bytes)
{
    p->buf[p->nbuf] = (struct gpu_prog_buf){.kind = kind, .bytes = bytes};
    return p->nbuf++;
}

static struct gpu_prog_op *op(struct gpu_prog *p, enum gpu_op_kind kind, int b, int src,
                              int stream)
{
    struct gpu_prog_op *o = &p->op[p->nop++];
    memset(o, 0, sizeof *o);
    o->kind = kind, o->buf = b, o->src = src, o->stream = stream, o->seed = 3;
    return o;
}

static void test_checks(void **s)
{
    struct gpu_dev *dev = open_sim("rtx3090", 0);
    struct gpu_prog *p = prog();
    int h = buf(p, GPU_MEM_PINNED, MiB), d = buf(p, GPU_MEM_DEVICE, MiB);
    op(p, GPU_OP_COPY, h, h, 0)->src_off = 0;
    assert_int_equal(gpu_prog_check(dev, p), GPU_ERR_ARG);
    assert_non_null(strstr(gpu_why(dev), "operation 1: a copy between two host buffers"));
    p->nop = 0;
    op(p, GPU_OP_WAIT, -1, -1, 0)->event = 2;
    assert_int_equal(gpu_prog_check(dev, p), GPU_ERR_ARG);
    assert_non_null(strstr(gpu_why(dev), "no earlier operation records"));
    p->nop = 0;
    op(p, GPU_OP_KERNEL, h, -1, 0);
    assert_int_equal(gpu_prog_check(dev, p), GPU_ERR_ARG);
    assert_non_null(strstr(gpu_why(dev), "kernels reach device, mapped and managed"));
    p->nop = 0;
    op(p, GPU_OP_COPY, d, h, 9);
    assert_int_equal(gpu_prog_check(dev, p), GPU_ERR_ARG);
    p->nop = 0;
    op(p, GPU_OP_COPY, d, h, 0)->bytes = 2 * MiB;
    assert_int_equal(gpu_prog_check(dev, p), GPU_ERR_ARG);
    p->nop = 0;
    op(p, GPU_OP_READ, d, -1, 0); /* a read of bytes nothing wrote: refused by the plan */
    assert_int_equal(gpu_prog_run(dev, p, NULL), GPU_ERR_ARG);
    assert_non_null(strstr(gpu_why(dev), "reads bytes no operation wrote"));
    assert_int_equal(dev->live_allocs, 0);
    assert_int_equal(dev->live_host, 0);
    free(p);
    gpu_close(dev);
}

/* N chunks of C bytes: in, a kernel of `k` seconds, out; chunk i on stream i % streams, in
 * device buffer i % 2. */
static struct gpu_prog *chunks(int n, uint64_t c, double k, int streams, enum gpu_mem host)
{
    struct gpu_prog *p = prog();
    int in = buf(p, host, (uint64_t)n * c), out = buf(p, host, (uint64_t)n * c);
    int d[2] = {buf(p, GPU_MEM_DEVICE, c), buf(p, GPU_MEM_DEVICE, c)};
    op(p, GPU_OP_HOST_FILL, in, -1, 0)->seed = 11;
    for (int i = 0; i < n; i++) {
        struct gpu_prog_op *o = op(p, GPU_OP_COPY, d[i % 2], in, i % streams);
        o->src_off = (uint64_t)i * c, o->bytes = c;
        op(p, GPU_OP_KERNEL, d[i % 2], -1, i % streams)->seconds = k;
        o = op(p, GPU_OP_COPY, out, d[i % 2], i % streams);
        o->off = (uint64_t)i * c, o->bytes = c;
    }
    return p; /* `out` is checked after the run, word for word */
}

static void test_serial_and_overlap(void **s)
{
    struct gpu_dev *dev = open_sim("rtx3090", 0);
    const struct gpu_profile *pf = gpu_sim_profile(dev);
    const uint64_t c = 16 * MiB;
    const double k = 1e-3, lat = pf->copy_overhead_us * 1e-6;
    const double link = gpu_pcie_bytes_per_s(4, 16) * pf->pcie_efficiency;
    struct gpu_prog *one = chunks(4, c, k, 1, GPU_MEM_PINNED);
    assert_int_equal(gpu_prog_run(dev, one, NULL), GPU_OK);
    assert_true(one->validated && one->held);
    /* one stream: in, kernel, out, one after the other, each with its fixed start-up cost */
    double chain = 4 * (3 * lat + 2 * (double)c / link + k);
    assert_true(near(one->seconds, chain, 1e-9));
    assert_true(near(one->op[one->nop - 1].end, chain, 1e-9));
    free(one);
    struct gpu_prog *two = chunks(4, c, k, 2, GPU_MEM_PINNED);
    assert_int_equal(gpu_prog_run(dev, two, NULL), GPU_OK);
    double t2 = two->seconds;
    assert_true(t2 < 0.7 * chain);   /* copies hide behind kernels */
    assert_true(t2 > 4 * (k + lat)); /* the kernels alone, one at a time */
    /* the kernels never overlap; every stream keeps its order; H2D and D2H overlap somewhere */
    bool both = false;
    for (int i = 0; i < two->nop; i++)
        for (int j = 0; j < two->nop; j++) {
            const struct gpu_prog_op *a = &two->op[i], *b = &two->op[j];
            if (i == j || a->end <= a->start || b->end <= b->start) continue;
            bool meet = a->start < b->end - 1e-12 && b->start < a->end - 1e-12;
            if (a->lane == GPU_LANE_SM && b->lane == GPU_LANE_SM) assert_false(meet);
            if (a->lane == GPU_LANE_H2D && b->lane == GPU_LANE_D2H && meet) both = true;
            if (i < j && a->stream == b->stream && a->kind != GPU_OP_HOST_FILL &&
                b->kind != GPU_OP_HOST_FILL)
                assert_true(b->start >= a->end - 1e-12);
        }
    assert_true(both);
    free(two);
    /* pageable: every copy blocks the host, so nothing overlaps: slower than one stream */
    struct gpu_prog *pg = chunks(4, c, k, 2, GPU_MEM_PAGEABLE);
    assert_int_equal(gpu_prog_run(dev, pg, NULL), GPU_OK);
    assert_false(pg->held);
    double copy = lat + (double)c / (link * pf->pageable_factor);
    assert_true(near(pg->op[1].end - pg->op[1].start, copy, 1e-9));
    assert_true(pg->op[2].start >= pg->op[1].end - 1e-12); /* the kernel waited for the call */
    assert_true(pg->seconds > 4 * (2 * copy + k));
    free(pg);
    assert_int_equal(dev->live_allocs, 0);
    assert_int_equal(dev->live_host, 0);
    gpu_close(dev);
}

static void test_race_and_event(void **s)
{
    struct gpu_dev *dev = open_sim("rtx3090", 0);
    struct gpu_prog *p = prog();
    int h = buf(p, GPU_MEM_PINNED, 16 * MiB), d = buf(p, GPU_MEM_DEVICE, 16 * MiB);
    op(p, GPU_OP_HOST_FILL, h, -1, 0);
    op(p, GPU_OP_COPY, d, h, 0);
    op(p, GPU_OP_KERNEL, d, -1, 1)->seconds = 1e-3; /* stream 2 does not wait for the copy */
    op(p, GPU_OP_COPY, h, d, 1);
    assert_int_equal(gpu_prog_run(dev, p, NULL), GPU_ERR_VALIDATION);
    assert_int_equal(dev->why_key, GPU_WHY_FEED_RACE);
    assert_non_null(strstr(gpu_why(dev), "operations 2 and 3 used the same bytes"));
    /* the fix: an event recorded after the copy, waited for before the kernel */
    p->nop = 2;
    op(p, GPU_OP_RECORD, -1, -1, 0)->event = 5;
    op(p, GPU_OP_WAIT, -1, -1, 1)->event = 5;
    op(p, GPU_OP_KERNEL, d, -1, 1)->seconds = 1e-3;
    op(p, GPU_OP_COPY, h, d, 1);
    op(p, GPU_OP_READ, d, -1, 1);
    assert_int_equal(gpu_prog_run(dev, p, NULL), GPU_OK);
    assert_true(p->validated);
    assert_true(p->op[4].start >= p->op[1].end - 1e-12);
    assert_int_equal(p->op[6].wrong, 0);
    assert_int_equal(dev->live_allocs, 0);
    free(p);
    gpu_close(dev);
}

/* Unified memory: faults move pages at um_fault_efficiency of the link, a prefetch at
 * um_prefetch_efficiency; past the device's room every pass faults all of it in again. */
static void test_managed(void **s)
{
    struct gpu_dev *dev = open_sim("rtx3090", 0);
    const struct gpu_profile *pf = gpu_sim_profile(dev);
    const double link = gpu_pcie_bytes_per_s(4, 16) * pf->pcie_efficiency;
    const double hbm = pf->info.peak_bytes_per_s * pf->sm_efficiency, lat = pf->copy_overhead_us * 1e-6;
    const uint64_t n = GiB;
    struct gpu_prog *p = prog();
    int m = buf(p, GPU_MEM_MANAGED, n);
    op(p, GPU_OP_HOST_FILL, m, -1, 0);
    op(p, GPU_OP_READ, m, -1, 0);
    op(p, GPU_OP_READ, m, -1, 0);
    assert_int_equal(gpu_prog_run(dev, p, NULL), GPU_OK);
    assert_int_equal(p->op[1].faulted, n);
    assert_int_equal(p->op[2].faulted, 0);
    double first = p->op[1].end - p->op[1].start, second = p->op[2].end - p->op[2].start;
    assert_true(near(first, lat + (double)n / (link * pf->um_fault_efficiency), 1e-6));
    assert_true(near(second, lat + (double)n / hbm, 1e-6));
    /* a prefetch first: the pages move at the prefetch's rate, the read finds them */
    p->nop = 1;
    op(p, GPU_OP_PREFETCH, m, -1, 0)->advice = 0;
    op(p, GPU_OP_READ, m, -1, 0);
    assert_int_equal(gpu_prog_run(dev, p, NULL), GPU_OK);
    assert_true(near(p->op[1].end - p->op[1].start,
                     lat + (double)n / (link * pf->um_prefetch_efficiency), 1e-6));
    assert_int_equal(p->op[2].faulted, 0);
    /* oversubscribed: a ballast leaves `room`; a buffer of 1.5 x room faults all of itself on
     * every pass, and evicts as much once the device is full */
    uint64_t fr, tot;
    gpu_mem_info(dev, &fr, &tot);
    uint64_t ballast = (fr - 2 * GiB) / (2 * MiB) * (2 * MiB), room = fr - ballast, big = 3 * GiB;
    struct gpu_prog *q = prog();
    buf(q, GPU_MEM_DEVICE, ballast);
    int mb = buf(q, GPU_MEM_MANAGED, big);
    op(q, GPU_OP_HOST_FILL, mb, -1, 0);
    for (int k = 0; k < 3; k++) op(q, GPU_OP_READ, mb, -1, 0);
    struct gpu_config c = {.profile = "rtx3090", .datadir = ".", .deterministic = true,
                           .cap_fraction = 1.0};
    struct gpu_dev *all = NULL;
    char why[256];
    assert_int_equal(gpu_open("sim", &c, &all, why, sizeof why), GPU_OK);
    assert_int_equal(gpu_prog_run(all, q, NULL), GPU_OK);
    for (int k = 1; k <= 3; k++) assert_int_equal(q->op[k].faulted, big);
    assert_int_equal(q->op[1].evicted, big - room);
    assert_int_equal(q->op[2].evicted, big);
    double pass = q->op[2].end - q->op[2].start;
    assert_true(pass > 100 * ((double)big / hbm)); /* orders of magnitude: faults, not HBM */
    /* with the data left where it is and read over the link, no pass faults */
    q->nop = 1;
    op(q, GPU_OP_ADVISE, mb, -1, 0)->advice = GPU_ADVISE_PREFER_HOST;
    op(q, GPU_OP_READ, mb, -1, 0);
    op(q, GPU_OP_READ, mb, -1, 0);
    assert_int_equal(gpu_prog_run(all, q, NULL), GPU_OK);
    assert_int_equal(q->op[3].faulted, 0);
    assert_true(q->op[3].end - q->op[3].start < pass / 2);
    assert_int_equal(all->live_allocs, 0);
    gpu_close(all);
    free(q);
    free(p);
    gpu_close(dev);
}

static void test_pin_cost(void **s)
{
    struct gpu_dev *dev = open_sim("h100-sxm", 0);
    const struct gpu_profile *pf = gpu_sim_profile(dev);
    double a, f;
    assert_int_equal(gpu_feed_pin(dev, GPU_MEM_PINNED, 8 * GiB, 3, &a, &f, NULL), GPU_OK);
    assert_true(near(a, 20e-6 + 8 * pf->pin_alloc_s_per_gib, 1e-9));
    assert_true(near(f, 0.1 * a, 1e-9));
    double r;
    assert_int_equal(gpu_feed_pin(dev, GPU_MEM_REGISTERED, 8 * GiB, 1, &r, &f, NULL), GPU_OK);
    assert_true(r < a / 2); /* registering touched memory costs less than allocating pinned */
    assert_int_equal(gpu_feed_pin(dev, GPU_MEM_DEVICE, GiB, 1, &r, &f, NULL), GPU_ERR_ARG);
    assert_int_equal(dev->live_host, 0);
    gpu_close(dev);
}

/* Every allocation of a program failing in turn: an error, nothing left held. */
static void test_fault_injection(void **s)
{
    for (int n = 1; n <= 6; n++) {
        struct gpu_dev *dev = open_sim("rtx3090", n);
        struct gpu_prog *p = chunks(2, MiB, 1e-4, 2, GPU_MEM_PINNED);
        gpu_status st = gpu_prog_run(dev, p, NULL);
        assert_true(st == GPU_ERR_NOMEM || st == GPU_ERR_HOST_NOMEM || (n > 5 && st == GPU_OK));
        assert_int_equal(dev->live_allocs, 0);
        assert_int_equal(dev->live_host, 0);
        free(p);
        gpu_close(dev);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds_closed_form), cmocka_unit_test(test_content_replay),
        cmocka_unit_test(test_checks),             cmocka_unit_test(test_serial_and_overlap),
        cmocka_unit_test(test_race_and_event),     cmocka_unit_test(test_managed),
        cmocka_unit_test(test_pin_cost),           cmocka_unit_test(test_fault_injection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
