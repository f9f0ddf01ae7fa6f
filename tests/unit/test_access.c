/* test_access.c - the access-pattern experiments (gpu_access.h) without a GPU: what the device
 * layer counts from the addresses (sectors per request, sector bytes per particle, bank-conflict
 * ways) against hand counts, the closed-form sums against brute force, the random order as a
 * bijection, the profiles' chapter-7 keys, and the bench on the simulator: every experiment runs
 * and is validated, its modelled figures order as the model says (docs/simulator.md, "Access
 * patterns"), a corrupting kernel is caught, a request past the cap refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu_access.h"
#include "gpu_access_mix.h"
#include "gpu_sim.h"

static struct gpu_dev *open_sim(const char *profile, bool corrupt)
{
    struct gpu_config c = {.profile = profile, .datadir = ".", .seed = 1, .deterministic = true,
                           .cap_fraction = 0.9, .fault_corrupt = corrupt};
    struct gpu_dev *dev = NULL;
    char why[512];
    assert_int_equal(gpu_open("sim", &c, &dev, why, sizeof why), GPU_OK);
    return dev;
}

static void test_sectors(void **s)
{
    /* 4-byte words: stride 1 packs a warp's 128 bytes in 4 sectors; every doubling of the stride
     * doubles them until each lane has a sector of its own */
    assert_true(gpu_sectors_per_request(4, 4, 0) == 4);
    assert_true(gpu_sectors_per_request(8, 4, 0) == 8);
    assert_true(gpu_sectors_per_request(16, 4, 0) == 16);
    assert_true(gpu_sectors_per_request(32, 4, 0) == 32);
    assert_true(gpu_sectors_per_request(128, 4, 0) == 32);
    assert_true(gpu_sectors_per_request(4, 4, 4) == 5);  /* one word off: a fifth sector */
    assert_true(gpu_sectors_per_request(16, 16, 0) == 16); /* 16-byte loads: 512 bytes */
    assert_true(gpu_sectors_per_request(0, 4, 0) == 1);  /* a broadcast */
    /* the random order touches a sector per lane, or all but a collision now and then */
    const double r = gpu_random_sectors(20);
    assert_true(r > 31 && r <= 32);
    /* particles: x, y, z are the first 12 bytes of each struct */
    assert_true(gpu_aos_sector_bytes(3) == 12);
    assert_true(gpu_aos_sector_bytes(4) == 16);
    assert_true(gpu_aos_sector_bytes(8) == 32);
    assert_true(gpu_aos_sector_bytes(16) == 32);
    assert_true(gpu_aos_sector_bytes(10) > 32); /* 40-byte structs: some straddle two sectors */
    /* banks: gcd(stride, 32) */
    assert_int_equal(gpu_bank_ways(1), 1);
    assert_int_equal(gpu_bank_ways(2), 2);
    assert_int_equal(gpu_bank_ways(6), 2);
    assert_int_equal(gpu_bank_ways(16), 16);
    assert_int_equal(gpu_bank_ways(32), 32);
    assert_int_equal(gpu_bank_ways(33), 1);
    assert_int_equal(gpu_bank_ways(34), 2);
    assert_int_equal(gpu_bank_ways(0), 1);
}

static void test_mix_bijection(void **s)
{
    for (unsigned m = 10; m <= 16; m++) {
        const uint64_t n = 1ull << m;
        unsigned char *seen = calloc(n, 1);
        assert_non_null(seen);
        for (uint64_t i = 0; i < n; i++) {
            const uint64_t x = gpu_access_mix(i, m);
            assert_true(x < n);
            assert_int_equal(seen[x], 0);
            seen[x] = 1;
        }
        free(seen);
    }
}

static void test_sums(void **s)
{
    struct gpu_access a = {.kind = GPU_ACC_STRIDE, .n = 1000, .stride = 3, .offset = 5};
    uint64_t want = 0;
    for (uint64_t i = 0; i < a.n; i++) want += i * a.stride + a.offset;
    assert_true(gpu_access_expect_sum(&a) == want);
    a = (struct gpu_access){.kind = GPU_ACC_HOTCOLD, .n = 1000, .hot_n = 300};
    want = 0;
    for (uint64_t j = 0; j < a.n; j++)
        for (uint64_t w = 0; w < 4; w++) want += 4 * j + w + 4 * (j % a.hot_n) + w;
    assert_true(gpu_access_expect_sum(&a) == want);
    a = (struct gpu_access){.kind = GPU_ACC_REREAD, .n = 100, .passes = 7};
    assert_true(gpu_access_expect_sum(&a) == 7ull * 400 * 399 / 2);
    for (uint32_t st = 0; st <= 40; st += 5) { /* n past the array: the words wrap around */
        a = (struct gpu_access){.kind = GPU_ACC_BANKS, .n = 9000, .stride = st, .threads = 64};
        want = 0;
        for (uint64_t t = 0; t < a.threads; t++)
            for (uint64_t j = 0; j < a.n; j++) want += ((t % 32) * st + j) % GPU_BANKS_WORDS;
        assert_true(gpu_access_expect_sum(&a) == want);
    }
    a = (struct gpu_access){.kind = GPU_ACC_AOS, .n = 1000, .fields = 8};
    assert_true(gpu_access_expect_sum(&a) == 0); /* checked by its output instead */
    uint32_t next[] = {2, 0, 3, 1}; /* 0 -> 2 -> 3 -> 1 -> 0 */
    assert_true(gpu_access_chase_end(next, 0, 3) == 1);
    assert_true(gpu_access_chase_end(next, 2, 4) == 2);
}

static void test_profile_keys(void **s)
{
    static const char *const ids[] = {"rtx3090", "rtx4090", "a100-80gb", "h100-sxm", "h200", "t4"};
    static const double tflops[] = {35.6, 82.6, 19.5, 66.9, 66.9, 8.1};
    static const double mhz[] = {1696, 2520, 1411, 1980, 1980, 1582};
    for (size_t i = 0; i < 6; i++) {
        struct gpu_profile p;
        char err[256];
        assert_int_equal(gpu_profile_load(".", ids[i], &p, err, sizeof err), GPU_OK);
        /* the published FP32 figure comes back from SMs x lanes x 2 x the clock it implies */
        assert_true(fabs(p.info.fp32_flops / (tflops[i] * 1e12) - 1) < 1e-5);
        assert_true(fabs(p.info.sm_clock_khz / 1e3 - mhz[i]) < 1);
        assert_int_equal(p.info.fp32_lanes_per_sm,
                         gpu_fp32_lanes(p.info.cc_major, p.info.cc_minor));
        /* persistence from compute capability 8.0 on, never more than the L2 */
        assert_int_equal(p.info.l2_persist_max_bytes > 0, p.info.cc_major >= 8);
        assert_true(p.info.l2_persist_max_bytes <= p.info.l2_bytes);
        assert_true(p.tlb_l1_reach == 32.0 * 1048576 && p.tlb_l2_reach == 8192.0 * 1048576);
    }
}

static struct gpu_access_result run(struct gpu_dev *dev, struct gpu_access_req q)
{
    struct gpu_access_result r;
    gpu_status st = gpu_bench_access(dev, &q, &r, NULL);
    if (st != GPU_OK) fail_msg("%s: %s", gpu_access_name(q.kind), gpu_why(dev));
    assert_true(r.r.validated);
    assert_true(r.r.simulated);
    assert_int_equal(dev->live_allocs, 0);
    return r;
}

static double stride_bw(struct gpu_dev *dev, uint32_t stride)
{
    return run(dev, (struct gpu_access_req){.kind = GPU_ACC_STRIDE, .bytes = 256 << 20,
                                            .stride = stride}).r.bytes_per_s;
}

static void test_bench_sim(void **s)
{
    struct gpu_dev *dev = open_sim("rtx3090", false);
    const double dram = dev->info.peak_bytes_per_s * gpu_sim_profile(dev)->sm_efficiency;
    /* coalescing: the effective bandwidth falls with the sectors a request touches */
    const double b1 = stride_bw(dev, 1), b2 = stride_bw(dev, 2), b8 = stride_bw(dev, 8);
    assert_true(fabs(b1 / dram - 1) < 0.03); /* less the launch overhead */
    assert_true(fabs(b1 / b2 - 2) < 0.05 && fabs(b1 / b8 - 8) < 0.3);
    assert_true(fabs(stride_bw(dev, 32) / b8 - 1) < 0.03); /* a sector per lane either way */
    struct gpu_access_result r = run(dev, (struct gpu_access_req){.kind = GPU_ACC_RANDOM,
                                                                  .bytes = 256 << 20});
    assert_true(r.r.bytes == 256u << 20 && r.sectors_per_request > 31);
    assert_true(r.r.bytes_per_s < 1.1 * b8);
    /* layout: the struct of arrays reads 12 bytes per particle, the array of structs 32 */
    struct gpu_access_req lq = {.kind = GPU_ACC_AOS, .count = 1 << 24, .fields = 8};
    const double aos = run(dev, lq).r.bytes_per_s;
    lq.kind = GPU_ACC_SOA;
    const double soa = run(dev, lq).r.bytes_per_s;
    assert_true(fabs(soa / aos - 36.0 / 16) < 0.15);
    /* the L2: a set that fits is re-read faster than one four times its size */
    const uint64_t l2 = dev->info.l2_bytes;
    const double in = run(dev, (struct gpu_access_req){.kind = GPU_ACC_REREAD, .bytes = l2 / 2}).r.bytes_per_s;
    const double out = run(dev, (struct gpu_access_req){.kind = GPU_ACC_REREAD, .bytes = 16 * l2}).r.bytes_per_s;
    assert_true(in > 1.5 * out); /* l2_speedup: 2 on this profile */
    /* a persistence window keeps the hot array in the set-aside */
    struct gpu_access_req hq = {.kind = GPU_ACC_HOTCOLD, .hot_bytes = 4 << 20, .bytes = 256 << 20,
                                .hit_ratio = 1};
    const struct gpu_access_result plain = run(dev, hq);
    hq.window = true;
    const struct gpu_access_result win = run(dev, hq);
    assert_false(plain.window_set);
    assert_true(win.window_set && win.setaside == dev->info.l2_persist_max_bytes);
    assert_true(win.r.bytes_per_s > 1.1 * plain.r.bytes_per_s);
    /* transposes: the naive one below the tiled one, below the padded one, below the copy */
    double bw[4];
    for (int k = 0; k < 4; k++)
        bw[k] = run(dev, (struct gpu_access_req){.kind = GPU_ACC_TCOPY + k, .count = 4096}).r.bytes_per_s;
    assert_true(bw[1] < bw[2] && bw[2] < bw[3] && bw[3] <= bw[0]);
    /* banks: 32 ways take 32 times as long as none */
    struct gpu_access_req bq = {.kind = GPU_ACC_BANKS, .count = 65536, .stride = 1};
    const double one = run(dev, bq).r.bytes_per_s;
    bq.stride = 32;
    r = run(dev, bq);
    assert_int_equal(r.bank_ways, 32);
    assert_true(fabs(one / r.r.bytes_per_s - 32) < 0.5);
    /* arithmetic intensity: few FMAs ride the bandwidth, many reach the FP32 peak */
    struct gpu_access_req fq = {.kind = GPU_ACC_FMA, .bytes = 64 << 20, .fmas = 1};
    r = run(dev, fq);
    assert_true(r.r.bytes_per_s > 0.9 * dram);
    fq.fmas = 4096;
    r = run(dev, fq);
    assert_true(fabs(r.flops / r.r.best_s / dev->info.fp32_flops - 1) < 0.01);
    /* pages: inside the L1 TLB's reach, past it, past the L2 TLB's */
    double ns[3];
    const uint64_t foot[3] = {16ull << 20, 256ull << 20, 16ull << 30};
    for (int k = 0; k < 3; k++) {
        r = run(dev, (struct gpu_access_req){.kind = GPU_ACC_PAGES, .bytes = foot[k], .step = 2 << 20});
        ns[k] = r.r.ns_per_load;
        assert_true(r.lines == foot[k] / (2 << 20) && r.r.nsm == 5);
    }
    assert_true(ns[0] < ns[1] && ns[1] < ns[2]);
    gpu_close(dev);
}

static void test_bench_refusals(void **s)
{
    struct gpu_dev *dev = open_sim("t4", false);
    struct gpu_access_result r;
    /* no persistence before compute capability 8.0: the window is not set, and says so */
    struct gpu_access_req q = {.kind = GPU_ACC_HOTCOLD, .hot_bytes = 1 << 20, .bytes = 64 << 20,
                               .hit_ratio = 1, .window = true};
    assert_int_equal(gpu_bench_access(dev, &q, &r, NULL), GPU_OK);
    assert_false(r.window_set);
    /* past the cap: refused with its numbers, nothing left allocated */
    q = (struct gpu_access_req){.kind = GPU_ACC_TCOPY, .count = 65536};
    assert_int_equal(gpu_bench_access(dev, &q, &r, NULL), GPU_ERR_CAP);
    assert_int_equal(dev->why_key, GPU_WHY_ACCESS_CAP);
    assert_int_equal(dev->live_allocs, 0);
    q = (struct gpu_access_req){.kind = GPU_ACC_STRIDE, .bytes = 1 << 20, .stride = 0};
    assert_int_equal(gpu_bench_access(dev, &q, &r, NULL), GPU_ERR_ARG);
    q = (struct gpu_access_req){.kind = GPU_ACC_TNAIVE, .count = 100};
    assert_int_equal(gpu_bench_access(dev, &q, &r, NULL), GPU_ERR_ARG);
    gpu_close(dev);
    /* a kernel that spoils its output, or reads nothing, is a failed run, never a figure */
    dev = open_sim("rtx3090", true);
    for (int k = 0; k < GPU_ACC_KINDS; k++) {
        q = (struct gpu_access_req){.kind = k, .bytes = 1 << 20, .count = 4096, .stride = 1,
                                    .fields = 8, .fmas = 4, .hot_bytes = 1 << 16, .hit_ratio = 1,
                                    .step = 1 << 16};
        gpu_status st = gpu_bench_access(dev, &q, &r, NULL);
        if (st != GPU_ERR_VALIDATION)
            fail_msg("%s: status %d (%s)", gpu_access_name(k), st, gpu_why(dev));
        assert_non_null(strstr(gpu_why(dev), "validation failed"));
        assert_int_equal(dev->live_allocs, 0);
    }
    gpu_close(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sectors),       cmocka_unit_test(test_mix_bijection),
        cmocka_unit_test(test_sums),          cmocka_unit_test(test_profile_keys),
        cmocka_unit_test(test_bench_sim),     cmocka_unit_test(test_bench_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
