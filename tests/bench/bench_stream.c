/* bench_stream.c - `make bench`: vramlab's host STREAM kernels (gpu_host_bench) against STREAM
 * itself, in the same process, interleaved round by round, best of the rounds on each side.
 *
 * The reference is a reimplementation of John D. McCalpin's STREAM, stream.c revision 5.10
 * (https://www.cs.virginia.edu/stream/FTP/Code/stream.c, Copyright 1991-2013 John D. McCalpin):
 * the same three static arrays, initialised in parallel to 1.0, 2.0, 0.0; the same timing check
 * (a = 2a); the same main loop, NTIMES = 10 iterations of Copy c=a, Scale b=3c, Add c=a+b,
 * Triad a=b+3c, each an OpenMP `parallel for` with the default schedule, timed with mysecond()
 * (gettimeofday); the best time of iterations 2..10; the same byte counts (Copy and Scale
 * 2 x 8 B per element, Add and Triad 3 x 8 B, no write-allocate traffic counted) and the same
 * validation of the arrays' final values (average relative error <= 1e-13). It is compiled with
 * the project's CFLAGS and -fopenmp, as vramlab's kernels are compiled with the project's
 * CFLAGS. One difference: stream.c fixes STREAM_ARRAY_SIZE at compile time and declares three
 * static arrays of STREAM_ARRAY_SIZE + OFFSET elements, which the linker lays out one after the
 * other; here they are carved the same way out of one static block at run time (a, then b
 * (n + OFFSET) elements further, then c), and reached through restrict pointers, so that one
 * binary follows each machine's cache size with stream.c's own layout. Its figures are "based on
 * a variant of the STREAM benchmark code", as STREAM's licence asks such results to be
 * labelled; they are not STREAM results.
 *
 * Array size: STREAM's rule, each array >= 4x the last-level caches the threads use (the
 * machine's figure as vramlab reads it), at least 10 million elements (stream.c's default).
 * Usage: bench_stream [--quick] [--rounds N] [--elements N] [--threads N] [--offset N]
 *   --threads: both sides (default: every online CPU); --offset: stream.c's OFFSET (0..4096);
 *   --paired N: N passes of each side back to back, the median of their ratios (a shared
 *   machine's figure: both sides of a pair meet the same neighbours) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/types.h>

#include "gpu.h"

#define STREAM_MAX (64L << 20) /* elements one array may have: 512 MiB, up to a 128 MiB LLC */
#define NTIMES 10
#define STREAM_TYPE double

static int OFFSET = 0; /* stream.c's OFFSET (a compile-time constant there; --offset here) */
static STREAM_TYPE pool[3 * (STREAM_MAX + 4096)] __attribute__((aligned(64)));
static STREAM_TYPE *restrict a, *restrict b, *restrict c;

/* stream.c's timer: the wall clock through gettimeofday, in seconds. */
static double mysecond(void)
{
    struct timeval tp;
    gettimeofday(&tp, NULL);
    return (double)tp.tv_sec + (double)tp.tv_usec * 1.e-6;
}

/* stream.c's checkSTREAMresults: the closed-form values after the timing check and NTIMES
 * iterations, against the average absolute error of each array. */
static int check_results(ssize_t n)
{
    STREAM_TYPE aj = 1.0, bj = 2.0, cj = 0.0, scalar = 3.0, err[3] = {0, 0, 0};
    aj = 2.0E0 * aj;
    for (int k = 0; k < NTIMES; k++) {
        cj = aj;
        bj = scalar * cj;
        cj = aj + bj;
        aj = bj + scalar * cj;
    }
    for (ssize_t j = 0; j < n; j++) {
        err[0] += fabs(a[j] - aj);
        err[1] += fabs(b[j] - bj);
        err[2] += fabs(c[j] - cj);
    }
    const STREAM_TYPE want[3] = {aj, bj, cj};
    for (int i = 0; i < 3; i++)
        if (fabs(err[i] / (STREAM_TYPE)n / want[i]) > 1.e-13) return 0;
    return 1;
}

/* One run of STREAM's main program over n elements: best rates (bytes/s) of Copy, Scale, Add
 * and Triad into rate[], as stream.c reports them. 0 when the results do not validate. */
static int stream_run(ssize_t n, double rate[4])
{
    double times[4][NTIMES], mintime[4] = {1e30, 1e30, 1e30, 1e30};
    const double bytes[4] = {2.0 * sizeof(STREAM_TYPE) * n, 2.0 * sizeof(STREAM_TYPE) * n,
                             3.0 * sizeof(STREAM_TYPE) * n, 3.0 * sizeof(STREAM_TYPE) * n};
    ssize_t j;
    STREAM_TYPE scalar;
    a = pool, b = pool + n + OFFSET, c = pool + 2 * (n + OFFSET); /* stream.c's layout */
#pragma omp parallel for
    for (j = 0; j < n; j++) {
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }
    double t = mysecond();
#pragma omp parallel for
    for (j = 0; j < n; j++) a[j] = 2.0E0 * a[j];
    (void)(mysecond() - t); /* stream.c prints this as its timer-granularity guide */

    scalar = 3.0;
    for (int k = 0; k < NTIMES; k++) {
        times[0][k] = mysecond();
#pragma omp parallel for
        for (j = 0; j < n; j++) c[j] = a[j];
        times[0][k] = mysecond() - times[0][k];

        times[1][k] = mysecond();
#pragma omp parallel for
        for (j = 0; j < n; j++) b[j] = scalar * c[j];
        times[1][k] = mysecond() - times[1][k];

        times[2][k] = mysecond();
#pragma omp parallel for
        for (j = 0; j < n; j++) c[j] = a[j] + b[j];
        times[2][k] = mysecond() - times[2][k];

        times[3][k] = mysecond();
#pragma omp parallel for
        for (j = 0; j < n; j++) a[j] = b[j] + scalar * c[j];
        times[3][k] = mysecond() - times[3][k];
    }
    for (int k = 1; k < NTIMES; k++) /* the first iteration is skipped, as in stream.c */
        for (int i = 0; i < 4; i++)
            if (times[i][k] < mintime[i]) mintime[i] = times[i][k];
    for (int i = 0; i < 4; i++) rate[i] = bytes[i] / mintime[i];
    return check_results(n);
}

/* One timed pass of STREAM kernel k (0 copy .. 3 triad) over the arrays stream_run laid out. */
static double stream_pass(int k, ssize_t n)
{
    ssize_t j;
    const STREAM_TYPE scalar = 3.0;
    double t = mysecond();
    switch (k) {
    case 0:
#pragma omp parallel for
        for (j = 0; j < n; j++) c[j] = a[j];
        break;
    case 1:
#pragma omp parallel for
        for (j = 0; j < n; j++) b[j] = scalar * c[j];
        break;
    case 2:
#pragma omp parallel for
        for (j = 0; j < n; j++) c[j] = a[j] + b[j];
        break;
    default:
#pragma omp parallel for
        for (j = 0; j < n; j++) a[j] = b[j] + scalar * c[j];
    }
    return mysecond() - t;
}

/* --paired N: on a shared machine, pass against pass: N pairs of one STREAM pass and one
 * vramlab trial of the same kernel, back to back, so that both meet the same neighbours; the
 * median of the pairs' time ratios per kernel. */
static void paired(int pairs, ssize_t n, int threads, struct gpu_host_arena *ar)
{
    static const enum gpu_host_kind kinds[4] = {GPU_HOST_COPY, GPU_HOST_SCALE, GPU_HOST_ADD,
                                                GPU_HOST_TRIAD};
    static const char *const names[4] = {"copy", "scale", "add", "triad"};
    static double q[4][512];
    int m[4] = {0, 0, 0, 0};
    double rate[4];
    stream_run(n, rate); /* lays out and fills the arrays */
    for (int p = 0; p < pairs && p < 4 * 512; p++) {
        int k = p % 4;
        struct gpu_result res;
        double ts = stream_pass(k, n);
        if (gpu_host_bench_in(ar, NULL, kinds[k], (uint64_t)n * 8, threads, 1, &res, NULL) != GPU_OK)
            continue;
        q[k][m[k]++] = ts / res.best_s; /* > 1: vramlab's pass was the quicker */
    }
    for (int k = 0; k < 4; k++) {
        if (!m[k]) continue;
        double med = gpu_median(q[k], m[k]);
        printf("paired %-5s  %3d pairs: vramlab / stream.c rate, median %.3f, middle half %.3f..%.3f\n",
               names[k], m[k], med, q[k][m[k] / 4], q[k][(3 * m[k]) / 4]);
    }
}

int main(int argc, char **argv)
{
    int rounds = 5, nthreads = 0, pairs = 0;
    long elements = 0;
    for (int i = 1; i < argc; i++) {
        if (!argv[i][0]) continue; /* bench.sh passes its own second word on, maybe empty */
        if (!strcmp(argv[i], "--quick")) rounds = 2;
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--elements") && i + 1 < argc) elements = atol(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) nthreads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--offset") && i + 1 < argc) OFFSET = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--paired") && i + 1 < argc) pairs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_stream [--quick] [--rounds N] [--elements N] [--threads N] [--offset N] [--paired N]\n");
            return 2;
        }
    }
    if (rounds < 1) rounds = 1;
    if (OFFSET < 0 || OFFSET > 4096) OFFSET = 0;
    struct gpu_host_info h;
    gpu_host_info(&h);
    uint64_t llc = h.llc_total_bytes ? h.llc_total_bytes : h.llc_bytes;
    if (!elements) {
        elements = (long)(4 * llc / sizeof(STREAM_TYPE));
        if (elements < 10000000) elements = 10000000; /* stream.c's default size */
    }
    if (elements > STREAM_MAX) {
        printf("# STREAM reference: %ld elements asked for, %ld reserved: using %ld (under 4x "
               "the LLC: cache hits may inflate both sides)\n", elements, STREAM_MAX, STREAM_MAX);
        elements = STREAM_MAX;
    }
    if (nthreads < 1 || nthreads > h.threads) nthreads = h.threads;
    omp_set_num_threads(nthreads);
    int threads = omp_get_max_threads();
    printf("# STREAM kernels: vramlab (gpu_host_bench, %d threads) vs a reimplementation of "
           "McCalpin's stream.c 5.10 (OpenMP, %d threads), same CFLAGS\n", nthreads, threads);
    printf("# arrays %ld elements = %.1f MiB each, OFFSET %d (LLC %.0f MiB in all, %s: %.1fx); "
           "best of %d interleaved rounds, each side best of its own trials\n", elements,
           elements * 8.0 / 1048576, OFFSET, llc / 1048576.0, h.llc_source ? h.llc_source : "none",
           elements * 8.0 / (llc ? (double)llc : 1.0), rounds);

    static const char *const names[4] = {"copy", "scale", "add", "triad"};
    static const enum gpu_host_kind kinds[4] = {GPU_HOST_COPY, GPU_HOST_SCALE, GPU_HOST_ADD,
                                                GPU_HOST_TRIAD};
    double ours[4] = {0}, ref[4] = {0}, q[4][64];
    int bad = 0;
    if (rounds > 64) rounds = 64;
    for (int r = 0; r < rounds; r++) {
        double rate[4], o[4] = {0};
        if (!stream_run(elements, rate)) bad++;
        for (int i = 0; i < 4; i++) {
            struct gpu_result res;
            if (gpu_host_bench(NULL, kinds[i], (uint64_t)elements * 8, nthreads, NTIMES, &res,
                               NULL) == GPU_OK)
                o[i] = res.bytes_per_s;
            ours[i] = fmax(ours[i], o[i]);
            ref[i] = fmax(ref[i], rate[i]);
            q[i][r] = o[i] / rate[i]; /* this round's ratio: on a busy machine, its spread */
        }
    }
    /* Best against best is STREAM's own way; the median of the rounds' ratios is the steadier
     * figure when the machine is shared (both sides of a round meet the same neighbours). */
    for (int i = 0; i < 4; i++) {
        double med = gpu_median(q[i], rounds); /* sorts them */
        printf("STREAM %-5s (%d B/elem)   %8.2f GB/s vs stream.c %8.2f GB/s  ratio %.3f  "
               "(median of rounds %.3f, %.2f..%.2f; goal 0.95..1.05)\n", names[i], i < 2 ? 16 : 24,
               ours[i] / 1e9, ref[i] / 1e9, ours[i] / ref[i], med, q[i][0],
               q[i][rounds - 1]);
    }
    if (bad) printf("# STREAM reference: %d round(s) did not validate\n", bad);
    if (pairs > 0) {
        struct gpu_host_arena *ar = gpu_host_arena_new();
        paired(pairs, elements, nthreads, ar);
        gpu_host_arena_free(ar);
    }
    return bad ? 1 : 0;
}
