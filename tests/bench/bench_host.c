/* bench_host.c - `make bench`: vramlab's measurements against references measured in the same
 * run, interleaved, best of N, printed as ratios (never asserted: benchmarks, not tests).
 *   host memcpy     vs glibc memcpy timed directly on equal buffers      goal >= 0.95
 *   host triad      vs an OpenMP triad loop alone, same compiler flags  goal >= 0.95 (STREAM's
 *                   own kernels and order: bench_stream.c)
 *   latency chase   vs an lmbench-style pointer chase, at each plateau   goal within +-10 %
 *   simulator       modelled large-copy bandwidth vs each profile's published peak (<= 1)
 * Usage: bench_host [--quick] */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu_sim.h"

static int rounds = 5;

static double *array(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes)) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    memset(p, 1, bytes);
    return p;
}

/* glibc memcpy, timed the way gpu_host_bench times it: best of 10 after one warm-up. */
static double ref_memcpy(size_t bytes)
{
    double *a = array(bytes), *b = array(bytes), best = 1e9;
    memcpy(a, b, bytes);
    for (int i = 0; i < 10; i++) {
        double t0 = gpu_now();
        memcpy(a, b, bytes);
        double dt = gpu_now() - t0;
        if (dt < best) best = dt;
    }
    free(a), free(b);
    return bytes / best;
}

/* A triad alone in the manner of STREAM's: OpenMP static schedule over all threads, a = b + s*c
 * (STREAM itself, its four kernels in their order and layout: bench_stream.c). */
static double ref_triad(size_t bytes, int threads)
{
    size_t n = bytes / sizeof(double);
    double *a = array(bytes), *b = array(bytes), *c = array(bytes), best = 1e9, s = 3.0;
    omp_set_num_threads(threads);
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < n; j++) a[j] = 1.0, b[j] = 2.0, c[j] = 0.0;
    for (int k = 0; k < 11; k++) {
        double t0 = gpu_now();
#pragma omp parallel for schedule(static)
        for (size_t j = 0; j < n; j++) a[j] = b[j] + s * c[j];
        double dt = gpu_now() - t0;
        if (k && dt < best) best = dt;
    }
    volatile double sink = a[n / 2];
    (void)sink;
    free(a), free(b), free(c);
    return 3.0 * bytes / best;
}

/* lmbench-style chase: an array of pointers, one per 64-byte line, in a random single cycle. */
static double ref_chase(size_t bytes)
{
    size_t lines = bytes / 64, steps = 1u << 20;
    char *mem = (char *)array(bytes);
    size_t *order = malloc(lines * sizeof *order);
    uint64_t seed = 12345;
    for (size_t i = 0; i < lines; i++) order[i] = i;
    for (size_t i = lines - 1; i > 0; i--) {
        size_t k = gpu_rand(&seed) % i, x = order[i];
        order[i] = order[k], order[k] = x;
    }
    for (size_t i = 0; i < lines; i++) *(void **)(void *)(mem + i * 64) = mem + order[i] * 64;
    free(order);
    void **p = (void **)(void *)mem;
    for (size_t i = 0; i < lines; i++) p = *p;
    double best = 1e9;
    for (int k = 0; k < 5; k++) {
        double t0 = gpu_now();
        for (size_t i = 0; i < steps; i++) p = *p;
        __asm__ volatile("" : "+r"(p)::"memory"); /* the chase must finish before the clock */
        double dt = (gpu_now() - t0) / steps;
        if (dt < best) best = dt;
    }
    volatile void *sink = p;
    (void)sink;
    free(mem);
    return best * 1e9;
}

static double best_of(double a, double b) { return a > b ? a : b; }

int main(int argc, char **argv)
{
    struct gpu_host_info h;
    gpu_host_info(&h);
    if (argc > 1 && !strcmp(argv[1], "--quick")) rounds = 2;
    uint64_t arr = 4 * (h.llc_bytes ? h.llc_bytes : (32u << 20));
    if (arr < (64u << 20)) arr = 64u << 20;
    printf("# host: %s, %d threads, LLC %.0f MiB; arrays %.0f MiB (>= 4x LLC); best of %d "
           "interleaved rounds\n", h.cpu, h.threads, h.llc_bytes / 1048576.0, arr / 1048576.0,
           rounds);

    double ours = 0, ref = 0;
    for (int r = 0; r < rounds; r++) {
        struct gpu_result res;
        if (gpu_host_bench(NULL, GPU_HOST_MEMCPY, arr, 1, 10, &res, NULL) == GPU_OK)
            ours = best_of(ours, res.bytes_per_s);
        ref = best_of(ref, ref_memcpy(arr));
    }
    printf("host memcpy (n/t)       %8.2f GB/s vs glibc memcpy %8.2f GB/s  ratio %.3f  (goal >= 0.95)\n",
           ours / 1e9, ref / 1e9, ours / ref);

    ours = ref = 0;
    for (int r = 0; r < rounds; r++) {
        struct gpu_result res;
        if (gpu_host_bench(NULL, GPU_HOST_TRIAD, arr, h.threads, 10, &res, NULL) == GPU_OK)
            ours = best_of(ours, res.bytes_per_s);
        ref = best_of(ref, ref_triad(arr, h.threads));
    }
    printf("host triad (24 B/elem)  %8.2f GB/s vs OpenMP triad  %8.2f GB/s  ratio %.3f  (goal >= 0.95)\n",
           ours / 1e9, ref / 1e9, ours / ref);

    double loop = 0, mc = 0;
    for (int r = 0; r < rounds; r++) {
        struct gpu_result res;
        if (gpu_host_bench(NULL, GPU_HOST_LOOP, arr, 1, 10, &res, NULL) == GPU_OK)
            loop = best_of(loop, res.bytes_per_s);
        if (gpu_host_bench(NULL, GPU_HOST_MEMCPY, arr, 1, 10, &res, NULL) == GPU_OK)
            mc = best_of(mc, res.bytes_per_s);
    }
    printf("host plain loop copy    %8.2f GB/s vs memcpy         %8.2f GB/s  ratio %.3f  (information)\n",
           loop / 1e9, mc / 1e9, loop / mc);

    static const uint64_t sizes[] = {16u << 10, 256u << 10, 2u << 20, 256u << 20};
    double lat[4];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double o = 1e9, rf = 1e9;
        for (int r = 0; r < rounds; r++) {
            struct gpu_result res;
            if (gpu_host_latency(NULL, sizes[i], &res, NULL) == GPU_OK) o = fmin(o, res.ns_per_load);
            rf = fmin(rf, ref_chase(sizes[i]));
        }
        printf("latency chase %7.0f KiB %7.2f ns   vs lmbench-style %7.2f ns      ratio %.3f  (goal 0.90..1.10)\n",
               sizes[i] / 1024.0, o, rf, o / rf);
        lat[i] = o;
    }
    /* the ladder itself: 16 KiB stays in L1 (a few ns), 256 MiB misses every cache and most
     * TLB entries (a machine-dependent figure: a benchmark, never a test) */
    printf("latency ladder 256 MiB vs 16 KiB    %7.2f ns vs %7.2f ns              ratio %.1f  (goal > 3; 16 KiB < 20 ns)\n",
           lat[3], lat[0], lat[3] / lat[0]);

    printf("# simulator: modelled 1 GiB D2D copy (2n/t) and pinned H2D vs published figures\n");
    static const char *const ids[] = {"rtx3090", "rtx4090", "a100-80gb", "h100-sxm", "h200", "t4"};
    for (size_t i = 0; i < 6; i++) {
        struct gpu_profile p;
        char err[256];
        if (gpu_profile_load(".", ids[i], &p, err, sizeof err) != GPU_OK) {
            printf("sim %-10s %s\n", ids[i], err);
            continue;
        }
        double d2d = 2.0 * (1 << 30) / gpu_sim_copy_seconds(&p, GPU_D2D, GPU_CE, true, 1u << 30);
        double h2d = (256 << 20) / gpu_sim_copy_seconds(&p, GPU_H2D, GPU_CE, true, 256u << 20);
        double link = gpu_pcie_bytes_per_s(p.info.pcie_gen, p.info.pcie_width);
        printf("sim %-10s D2D %7.1f GB/s of published %6.0f GB/s = %.3f (<= 1); "
               "H2D %5.1f GB/s of PCIe gen%d link %5.1f GB/s = %.3f (<= 1)\n",
               ids[i], d2d / 1e9, p.info.published_bytes_per_s / 1e9,
               d2d / p.info.published_bytes_per_s, h2d / 1e9, p.info.pcie_gen, link / 1e9,
               h2d / link);
    }
    return 0;
}
