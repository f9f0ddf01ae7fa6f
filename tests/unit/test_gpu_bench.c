/* test_gpu_bench.c - the backend-neutral parts of the GPU calibration figures, against a
 * scripted backend (a table of functions whose answers the test sets): a chase below 90 % of
 * the SM clock's maximum is run once more and flagged low_clock when still slow, the fastest
 * of the two runs kept; the load asked for reaches the backend; single copies go to the
 * backend's copy_single, clocks are read between the trials, reps are reported; the overlap
 * test gets two device buffers within the cap and frees them; backends without these hooks say
 * so; and the free-memory tolerance scales with what was allocated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gpu.h"

static struct {
    double mhz[4];   /* SM clock of each latency call, in order (cycles / ns) */
    int calls, copy_calls, single_calls, clock_calls, overlap_calls;
    enum gpu_chase_load load;
    int allocs;
} F;

static gpu_status f_mem(struct gpu_dev *dev, uint64_t *fr, uint64_t *tot)
{
    if (fr) *fr = 1ull << 34;
    if (tot) *tot = 1ull << 35;
    return GPU_OK;
}
static char arena[1 << 16];
static gpu_status f_alloc(struct gpu_dev *dev, uint64_t bytes, void **p)
{
    F.allocs++;
    *p = arena + F.allocs % 16;
    return GPU_OK;
}
static gpu_status f_free(struct gpu_dev *dev, void *p)
{
    F.allocs--;
    return GPU_OK;
}
static gpu_status f_latency(struct gpu_dev *dev, struct gpu_chase *c)
{
    const double mhz = F.mhz[F.calls < 4 ? F.calls : 3];
    F.calls++;
    F.load = c->load;
    for (int i = 0; i < c->n; i++) {
        c->ns[i] = 100.0 * 1980 / mhz + i; /* slower at a lower clock */
        c->cycles[i] = c->ns[i] * mhz / 1e3;
        c->sm[i] = i;
    }
    return GPU_OK;
}
static gpu_status f_copy(struct gpu_dev *dev, enum gpu_dir d, enum gpu_method m, void *dst,
                         const void *src, uint64_t bytes, int reps, double *s)
{
    F.copy_calls++;
    *s = 1e-3;
    return GPU_OK;
}
static gpu_status f_single(struct gpu_dev *dev, enum gpu_dir d, enum gpu_method m, void *dst,
                           const void *src, uint64_t bytes, int reps, double *s)
{
    F.single_calls++;
    *s = 1e-5;
    return GPU_OK;
}
static gpu_status f_clocks(struct gpu_dev *dev, struct gpu_clocks *c)
{
    F.clock_calls++;
    *c = (struct gpu_clocks){.sm_mhz = 1980, .mem_mhz = 2619};
    return GPU_OK;
}
static gpu_status f_overlap(struct gpu_dev *dev, void *dst, const void *src, uint64_t bytes,
                            double busy_s, struct gpu_overlap *o)
{
    F.overlap_calls++;
    assert_int_equal(F.allocs, 2); /* both buffers live while it runs */
    *o = (struct gpu_overlap){.busy_s = busy_s, .copy_end_s = busy_s / 10, .ce_overlapped = true};
    return GPU_OK;
}

static const struct gpu_backend full = {
    .name = "scripted", .caps = GPU_CAP_REAL | GPU_CAP_LATENCY | GPU_CAP_SM_COPY | GPU_CAP_PINNED,
    .mem_info = f_mem, .alloc = f_alloc, .free = f_free, .latency = f_latency, .copy = f_copy,
    .copy_single = f_single, .clocks = f_clocks, .overlap = f_overlap};
static const struct gpu_backend bare = {
    .name = "bare", .caps = GPU_CAP_REAL | GPU_CAP_LATENCY, .mem_info = f_mem, .alloc = f_alloc,
    .free = f_free, .latency = f_latency, .copy = f_copy};

static struct gpu_dev *dev_of(const struct gpu_backend *be, int sm_max_khz)
{
    static struct gpu_dev d;
    memset(&d, 0, sizeof d);
    memset(&F, 0, sizeof F);
    d.be = be;
    d.cap_fraction = 0.9;
    d.info.sm_clock_khz = sm_max_khz;
    return &d;
}

static void test_latency_at_speed(void **s)
{
    struct gpu_result r;
    struct gpu_dev *dev = dev_of(&full, 1980000);
    F.mhz[0] = 1980;
    assert_int_equal(gpu_bench_latency(dev, 1 << 20, &r, NULL), GPU_OK);
    assert_int_equal(F.calls, 1);
    assert_false(r.low_clock);
    assert_int_equal(F.load, GPU_LOAD_GLOBAL);
    assert_true(r.sm_clock_max_mhz == 1980.0);
    assert_true(r.sm_clock_mhz > 1979 && r.sm_clock_mhz < 1981);
}

static void test_latency_retried_then_flagged(void **s)
{
    struct gpu_result r;
    struct gpu_dev *dev = dev_of(&full, 1980000);
    /* idle clock first, at speed on the retry: the retry's figures, not flagged */
    F.mhz[0] = 345, F.mhz[1] = 1980;
    assert_int_equal(gpu_bench_latency_load(dev, 1 << 20, GPU_LOAD_GENERIC, &r, NULL), GPU_OK);
    assert_int_equal(F.calls, 2);
    assert_int_equal(F.load, GPU_LOAD_GENERIC);
    assert_int_equal(r.load, GPU_LOAD_GENERIC);
    assert_false(r.low_clock);
    assert_true(r.ns_per_load < 101);
    /* slow both times: the faster of the two kept, and flagged */
    dev = dev_of(&full, 1980000);
    F.mhz[0] = 345, F.mhz[1] = 990;
    assert_int_equal(gpu_bench_latency(dev, 1 << 20, &r, NULL), GPU_OK);
    assert_int_equal(F.calls, 2);
    assert_true(r.low_clock);
    assert_true(r.warn & GPU_WARN_LOW_CLOCK);
    assert_string_equal(gpu_warn_key(GPU_WARN_LOW_CLOCK), "low_clock");
    assert_true(r.sm_clock_mhz > 989 && r.sm_clock_mhz < 991);
    /* no maximum known: nothing to compare with, no retry, no flag */
    dev = dev_of(&full, 0);
    F.mhz[0] = 345;
    assert_int_equal(gpu_bench_latency(dev, 1 << 20, &r, NULL), GPU_OK);
    assert_int_equal(F.calls, 1);
    assert_false(r.low_clock);
}

static void test_copy_single_and_clocks(void **s)
{
    struct gpu_result r;
    struct gpu_dev *dev = dev_of(&full, 0);
    struct gpu_copy_req q = {.dir = GPU_D2D, .bytes = 4096, .trials = 4, .reps = 7, .single = true};
    assert_int_equal(gpu_bench_copy(dev, &q, &r, NULL), GPU_OK);
    assert_int_equal(F.copy_calls, 0);
    assert_int_equal(F.single_calls, 2 + 4); /* warm-up 1 + one of reps, then the trials */
    assert_int_equal(F.clock_calls, 1);
    assert_int_equal(r.run_sm_mhz, 1980);
    assert_int_equal(r.run_mem_mhz, 2619);
    assert_int_equal(r.reps, 7);
    assert_true(r.single);
    assert_true(r.best_s == 1e-5);
    assert_int_equal(F.allocs, 0);
    q.single = false;
    assert_int_equal(gpu_bench_copy(dev, &q, &r, NULL), GPU_OK);
    assert_int_equal(F.copy_calls, 6);
    assert_false(r.single);
}

static void test_missing_hooks(void **s)
{
    struct gpu_result r;
    struct gpu_overlap o;
    struct gpu_clocks c;
    struct gpu_dev *dev = dev_of(&bare, 0);
    struct gpu_copy_req q = {.dir = GPU_D2D, .bytes = 4096, .trials = 2, .single = true};
    assert_int_equal(gpu_bench_copy(dev, &q, &r, NULL), GPU_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpu_why(dev), "single"));
    assert_int_equal(gpu_bench_overlap(dev, 1 << 20, 0.05, &o), GPU_ERR_UNSUPPORTED);
    assert_int_equal(gpu_bench_clocks(dev, &c), GPU_ERR_UNSUPPORTED);
    q.single = false; /* without clocks, a copy still measures; no clock figure */
    assert_int_equal(gpu_bench_copy(dev, &q, &r, NULL), GPU_OK);
    assert_int_equal(r.run_sm_mhz, 0);
    assert_int_equal(F.allocs, 0);
}

static void test_overlap(void **s)
{
    struct gpu_overlap o;
    struct gpu_dev *dev = dev_of(&full, 0);
    assert_int_equal(gpu_bench_overlap(dev, 256ull << 20, 0.05, &o), GPU_OK);
    assert_int_equal(F.overlap_calls, 1);
    assert_int_equal(F.allocs, 0);
    assert_true(o.ce_overlapped);
    assert_int_equal(o.bytes, 256ull << 20);
    assert_int_equal(gpu_bench_overlap(dev, 1024, 0.05, &o), GPU_ERR_ARG);
    assert_int_equal(gpu_bench_overlap(dev, 1 << 20, 5, &o), GPU_ERR_ARG);
    /* two buffers over the cap (0.9 x 16 GiB free): refused before anything is allocated */
    assert_int_equal(gpu_bench_overlap(dev, 8ull << 30, 0.05, &o), GPU_ERR_CAP);
    assert_int_equal(F.overlap_calls, 1);
    assert_int_equal(F.allocs, 0);
}

static void test_free_tolerance(void **s)
{
    assert_int_equal(gpu_free_tolerance(0), 2u << 20);
    assert_int_equal(gpu_free_tolerance(1ull << 30), 2u << 20); /* 107 KB < 2 MiB */
    assert_int_equal(gpu_free_tolerance(125000000000ull), 12500000ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_at_speed),     cmocka_unit_test(test_latency_retried_then_flagged),
        cmocka_unit_test(test_copy_single_and_clocks), cmocka_unit_test(test_missing_hooks),
        cmocka_unit_test(test_overlap),              cmocka_unit_test(test_free_tolerance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
