/* test_host_arena.c - host measurements that keep their arrays (gpu_host_arena): the five
 * STREAM kernels one after the other in the same arrays each start from STREAM's values and
 * validate (a kernel that found the last one's values would fail its closed-form check); a
 * smaller request reuses what the arena holds, a larger one frees it before allocating (never
 * two measurements' arrays at once); a chase takes the first array; release empties it; a NULL
 * arena allocates and frees per call. And the chase's time-based trials: every size reports a
 * finite latency with its trials' spread, at least 20 timer ticks, in the quick mode the tests
 * run. What the figures are is make bench's business, never a test's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "gpu.h"

static const struct gpu_dev quick = {.host_quick = true};

static void test_stream_kernels_share_arrays(void **s)
{
    (void)s;
    struct gpu_host_arena *ar = gpu_host_arena_new();
    struct gpu_result r;
    assert_non_null(ar);
    assert_int_equal(gpu_host_arena_held(ar), 0);
    static const enum gpu_host_kind kinds[] = {GPU_HOST_COPY, GPU_HOST_SCALE, GPU_HOST_ADD,
                                               GPU_HOST_TRIAD, GPU_HOST_DOT, GPU_HOST_TRIAD};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        assert_int_equal(gpu_host_bench_in(ar, &quick, kinds[i], 1u << 20, 2, 3, &r, NULL), GPU_OK);
        assert_true(r.validated);
        assert_int_equal(gpu_host_arena_held(ar), 3u << 20); /* the same three arrays */
    }
    /* a smaller request: the same arrays; memcpy uses two of them */
    assert_int_equal(gpu_host_bench_in(ar, &quick, GPU_HOST_TRIAD, 256u << 10, 1, 3, &r, NULL), GPU_OK);
    assert_true(r.validated);
    assert_int_equal(gpu_host_arena_held(ar), 3u << 20);
    assert_int_equal(gpu_host_bench_in(ar, &quick, GPU_HOST_MEMCPY, 1u << 20, 1, 3, &r, NULL), GPU_OK);
    assert_true(r.validated);
    assert_int_equal(gpu_host_arena_held(ar), 3u << 20);
    /* a chase within the first array keeps them; a larger one replaces them all */
    assert_int_equal(gpu_host_latency_in(ar, &quick, 512u << 10, &r, NULL), GPU_OK);
    assert_int_equal(gpu_host_arena_held(ar), 3u << 20);
    assert_int_equal(gpu_host_latency_in(ar, &quick, 2u << 20, &r, NULL), GPU_OK);
    assert_int_equal(gpu_host_arena_held(ar), 2u << 20);
    /* STREAM after the chase: new arrays, written again, still right */
    assert_int_equal(gpu_host_bench_in(ar, &quick, GPU_HOST_ADD, 1u << 20, 2, 3, &r, NULL), GPU_OK);
    assert_true(r.validated);
    assert_int_equal(gpu_host_arena_held(ar), 3u << 20);
    /* a corrupted result is caught on reused arrays too */
    struct gpu_dev corrupt = {.host_quick = true, .fault_corrupt = true};
    assert_int_equal(gpu_host_bench_in(ar, &corrupt, GPU_HOST_TRIAD, 1u << 20, 2, 3, &r, NULL),
                     GPU_ERR_VALIDATION);
    assert_int_equal(gpu_host_bench_in(ar, &quick, GPU_HOST_TRIAD, 1u << 20, 2, 3, &r, NULL), GPU_OK);
    gpu_cancel_flag cancel = 1;
    assert_int_equal(gpu_host_latency_in(ar, &quick, 1u << 20, &r, &cancel), GPU_ERR_CANCELLED);
    gpu_host_arena_release(ar);
    assert_int_equal(gpu_host_arena_held(ar), 0);
    gpu_host_arena_free(ar);
    /* no arena: each call its own arrays */
    assert_int_equal(gpu_host_bench_in(NULL, &quick, GPU_HOST_SCALE, 1u << 20, 1, 3, &r, NULL), GPU_OK);
    assert_int_equal(gpu_host_arena_held(NULL), 0);
    gpu_host_arena_free(NULL);
}

static void test_chase_trials_by_time(void **s)
{
    (void)s;
    struct gpu_result r;
    for (uint64_t b = 4096; b <= (4u << 20); b *= 4) {
        assert_int_equal(gpu_host_latency_in(NULL, &quick, b, &r, NULL), GPU_OK);
        assert_true(r.ns_per_load > 0 && isfinite(r.ns_per_load));
        assert_int_equal(r.samples, 5);
        assert_true(r.best_s <= r.median_s && r.median_s <= r.worst_s);
        assert_true(r.ticks >= 20); /* each trial at least 1024 loads, timed in ns */
        assert_int_equal(r.bytes, b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_kernels_share_arrays),
        cmocka_unit_test(test_chase_trials_by_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
