/* gpu_host.c - host-memory experiments, real on every backend: memcpy, a plain-loop copy, the
 * STREAM kernels (and BabelStream's dot) over all online CPUs, and a pointer chase over a random
 * cyclic permutation. STREAM's rules apply: each array >= 4x the last-level cache, >= 20 timer
 * ticks per trial, every page first touched by the thread that will use it; and every result is
 * checked after the trials, as BabelStream checks its own. An arena keeps the arrays from one
 * measurement to the next (gpu.h). */
#include "gpu.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_file.h"

static const char *const kind_names[] = {"memcpy", "loop", "copy", "scale", "add", "triad", "dot"};

const char *gpu_host_kind_name(enum gpu_host_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "?";
}

int gpu_host_kind_parse(const char *name)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (!strcmp(kind_names[i], name)) return (int)i;
    return -1;
}

void gpu_host_info(struct gpu_host_info *h)
{
    char line[256];
    memset(h, 0, sizeof *h);
    snprintf(h->cpu, sizeof h->cpu, "unknown CPU");
    FILE *f = gpu_file_open("/proc/cpuinfo", 64u << 20, 0, NULL, 0);
    while (f && fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':');
        if (c && !strncmp(line, "model name", 10)) {
            c += 1 + (c[1] == ' ');
            c[strcspn(c, "\n")] = 0;
            snprintf(h->cpu, sizeof h->cpu, "%s", c);
            break;
        }
    }
    if (f) fclose(f);
    h->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    h->page_bytes = (uint64_t)sysconf(_SC_PAGESIZE);
    h->ram_bytes = (uint64_t)sysconf(_SC_PHYS_PAGES) * h->page_bytes;
    struct gpu_cache_info ci; /* gpu_hostcache.c: where the figure comes from, and whether it is one core's */
    gpu_cache_detect(NULL, &ci);
    gpu_cache_llc(&ci, h);
}

/* ---- bandwidth kernels ------------------------------------------------------------------- */

struct job {
    enum gpu_host_kind kind;
    double *a, *b, *c; /* STREAM: a = b + s*c etc.; memcpy/loop: a <- b */
    size_t n;          /* doubles per array */
    int nthreads, reps;
    bool init;         /* this pass writes STREAM's starting values, each thread its own chunk */
    double sum[256];   /* dot: each thread's part */
};

struct worker {
    struct job *j;
    int id;
    pthread_t th;
};

/* The measured kernels touch only their own thread's slice of private arrays: ThreadSanitizer
 * has nothing to check there, and instrumenting every load would make a host experiment run
 * for minutes under `make tsan`. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KERNEL __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef KERNEL
#define KERNEL
#endif

/* A plain loop, kept a loop: both compilers would otherwise turn it into a call to memcpy. (The
 * STREAM copy kernel below is left to the compiler, as stream.c's is: gcc -O2 makes both a call
 * to memcpy/memmove, whose large copies write around the caches, docs/benchmarks.md.) */
#if defined(__clang__)
#define PLAIN_LOOP __attribute__((no_builtin("memcpy")))
#else
#define PLAIN_LOOP __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
PLAIN_LOOP KERNEL static void loop_copy(double *restrict dst, const double *restrict src, size_t n)
{
    for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

/* Four accumulators (four independent add chains keep up with memory) summed per block of 1024
 * elements, so rounding stays far inside BabelStream's tolerance for any array size. */
KERNEL static double dot(const double *restrict a, const double *restrict b, size_t n)
{
    double total = 0;
    for (size_t lo = 0; lo < n; lo += 1024) {
        size_t hi = lo + 1024 < n ? lo + 1024 : n, i = lo;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (; i + 4 <= hi; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < hi; i++) s0 += a[i] * b[i];
        total += (s0 + s1) + (s2 + s3);
    }
    return total;
}

KERNEL static double run_kernel(enum gpu_host_kind k, double *restrict a, double *restrict b,
                                double *restrict c, size_t n)
{
    const double s = GPU_STREAM_S;
    switch (k) {
    case GPU_HOST_MEMCPY: memcpy(a, b, n * sizeof *a); break;
    case GPU_HOST_LOOP: loop_copy(a, b, n); break;
    case GPU_HOST_COPY:
        for (size_t i = 0; i < n; i++) c[i] = a[i];
        break;
    case GPU_HOST_SCALE:
        for (size_t i = 0; i < n; i++) b[i] = s * c[i];
        break;
    case GPU_HOST_ADD:
        for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
        break;
    case GPU_HOST_TRIAD:
        for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        break;
    case GPU_HOST_DOT: return dot(a, b, n);
    }
    return 0;
}

/* STREAM's starting values over one thread's chunk: the first touch of a fresh page happens on
 * the thread whose kernel reads it (on a NUMA machine, its node's memory), as in STREAM. */
KERNEL static void init_chunk(double *restrict a, double *restrict b, double *restrict c, size_t n)
{
    for (size_t i = 0; i < n; i++) a[i] = GPU_STREAM_A, b[i] = GPU_STREAM_B, c[i] = GPU_STREAM_C;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct job *j = w->j;
    size_t chunk = (j->n + j->nthreads - 1) / j->nthreads;
    size_t lo = chunk * w->id, hi = lo + chunk > j->n ? j->n : lo + chunk;
    if (lo > hi) lo = hi;
    if (j->init) {
        init_chunk(j->a + lo, j->b + lo, j->c + lo, hi - lo);
        return NULL;
    }
    for (int r = 0; r < j->reps; r++)
        j->sum[w->id] = run_kernel(j->kind, j->a + lo, j->b + lo, j->c ? j->c + lo : NULL, hi - lo);
    return NULL;
}

/* One timed pass: like an OpenMP parallel loop, the calling thread does chunk 0 while the others
 * do theirs, and the pass ends when the last joins. A thread that cannot be started has its chunk
 * done by the caller: slower, never wrong. */
static double run_pass(struct job *j, struct worker *w)
{
    double t0 = gpu_now();
    for (int i = 1; i < j->nthreads; i++) {
        w[i] = (struct worker){j, i, 0};
        if (pthread_create(&w[i].th, NULL, worker_main, &w[i])) w[i].id = -i;
    }
    w[0] = (struct worker){j, 0, 0};
    worker_main(&w[0]);
    for (int i = 1; i < j->nthreads; i++) {
        if (w[i].id > 0) pthread_join(w[i].th, NULL);
        else {
            w[i].id = i;
            worker_main(&w[i]);
        }
    }
    return (gpu_now() - t0) / j->reps;
}

static double *alloc_array(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 64)) return NULL;
    return p;
}

struct gpu_host_arena {
    void *buf[3];
    size_t bytes[3];
};

struct gpu_host_arena *gpu_host_arena_new(void) { return calloc(1, sizeof(struct gpu_host_arena)); }

void gpu_host_arena_release(struct gpu_host_arena *ar)
{
    if (!ar) return;
    for (int i = 0; i < 3; i++) free(ar->buf[i]), ar->buf[i] = NULL, ar->bytes[i] = 0;
}

size_t gpu_host_arena_held(const struct gpu_host_arena *ar)
{
    size_t n = 0;
    for (int i = 0; ar && i < 3; i++) n += ar->bytes[i];
    return n;
}

void gpu_host_arena_free(struct gpu_host_arena *ar)
{
    gpu_host_arena_release(ar);
    free(ar);
}

/* `count` arrays of at least `bytes`: the arena's when it holds them (*fresh false: their pages
 * are already touched), else new ones, the arena's old arrays freed first. Without an arena the
 * caller frees them (give_back). False when memory runs out (nothing held then). */
static bool take_arrays(struct gpu_host_arena *ar, int count, size_t bytes, double *out[3],
                        bool *fresh)
{
    bool reuse = ar != NULL;
    for (int i = 0; reuse && i < count; i++) reuse = ar->buf[i] && ar->bytes[i] >= bytes;
    *fresh = !reuse;
    for (int i = 0; reuse && i < count; i++) out[i] = ar->buf[i];
    if (reuse) return true;
    gpu_host_arena_release(ar);
    for (int i = 0; i < count; i++) {
        if (!(out[i] = alloc_array(bytes))) {
            if (ar) gpu_host_arena_release(ar);
            else
                for (int k = 0; k < i; k++) free(out[k]);
            return false;
        }
        if (ar) ar->buf[i] = out[i], ar->bytes[i] = bytes;
    }
    return true;
}

static void give_back(const struct gpu_host_arena *ar, int count, double *arr[3])
{
    for (int i = 0; !ar && i < count; i++) free(arr[i]);
}

/* After the trials: memcpy/loop left the source pattern in a; a STREAM kernel left its closed-form
 * values in a, b and c; dot computed n x a x b. Testing: `corrupt` (gpu_config.fault_corrupt)
 * spoils one element first, as a kernel that missed it would. */
static bool host_valid(const struct job *j, double sum, bool corrupt)
{
    const double eps = 2.220446049250313e-16; /* DBL_EPSILON */
    struct gpu_mismatch m;
    if (corrupt) {
        if (j->kind == GPU_HOST_DOT) sum *= 1.0 + 1e-6;
        else ((unsigned char *)&j->a[j->n / 2])[6] ^= 0x10; /* an exponent bit of one element */
    }
    if (j->kind < GPU_HOST_COPY) {
        struct gpu_content src = {.kind = GPU_CONTENT_PATTERN, .seed = 1};
        gpu_content_check(j->a, j->n * sizeof(double), &src, &m);
        return m.count == 0;
    }
    if (j->kind == GPU_HOST_DOT) {
        double want = gpu_stream_dot_expect(j->n);
        if (!(fabs(sum - want) <= 1e7 * eps * fabs(want))) return false;
    }
    double abc[3];
    gpu_stream_expect(j->kind, abc);
    double *arr[3] = {j->a, j->b, j->c};
    for (int i = 0; i < 3; i++) {
        struct gpu_content want = {.kind = GPU_CONTENT_F64, .value = abc[i], .tol = 100 * eps};
        gpu_content_check(arr[i], j->n * sizeof(double), &want, &m);
        if (m.count) return false;
    }
    return true;
}

gpu_status gpu_host_bench(const struct gpu_dev *dev, enum gpu_host_kind k, uint64_t bytes,
                          int threads, int trials, struct gpu_result *r, gpu_cancel_flag *cancel)
{
    return gpu_host_bench_in(NULL, dev, k, bytes, threads, trials, r, cancel);
}

gpu_status gpu_host_bench_in(struct gpu_host_arena *ar, const struct gpu_dev *dev,
                             enum gpu_host_kind k, uint64_t bytes, int threads, int trials,
                             struct gpu_result *r, gpu_cancel_flag *cancel)
{
    struct gpu_host_info hi;
    struct job j = {.kind = k, .reps = 1};
    struct worker w[256];
    double t[GPU_MAX_SAMPLES];
    bool stream = k >= GPU_HOST_COPY;
    trials = trials ? trials : 10;
    *r = (struct gpu_result){.bytes = bytes, .numa_node = -1};
    if ((unsigned)k > GPU_HOST_DOT || bytes < 4096 || trials < 1 || trials > GPU_MAX_SAMPLES)
        return GPU_ERR_ARG;
    gpu_host_info(&hi);
    j.nthreads = threads > 0 ? threads : stream ? hi.threads : 1; /* memcpy/loop: one thread */
    if (j.nthreads > 256) j.nthreads = 256;
    j.n = bytes / sizeof(double);
    double *arr[3] = {NULL, NULL, NULL};
    bool fresh;
    int count = stream ? 3 : 2;
    if (!take_arrays(ar, count, j.n * sizeof(double), arr, &fresh)) return GPU_ERR_HOST_NOMEM;
    j.a = arr[0], j.b = arr[1], j.c = stream ? arr[2] : NULL;
    /* Every page written before the clock starts (first-touch faults are not timed), with the
     * starting values: STREAM's, by the threads that run the kernel (each its own chunk, as
     * STREAM's parallel initialisation does), or for a copy a source pattern and a destination
     * that differs from it. Arrays taken again from the arena are written again: the kernel is
     * checked against its closed form from these values. */
    if (stream) {
        j.init = true;
        run_pass(&j, w);
        j.init = false;
    } else {
        struct gpu_content src = {.kind = GPU_CONTENT_PATTERN, .seed = 1};
        struct gpu_content dst = {.kind = GPU_CONTENT_PATTERN, .seed = 2};
        gpu_content_fill(j.b, j.n * sizeof(double), &src);
        gpu_content_fill(j.a, j.n * sizeof(double), &dst);
    }

    /* Warm-up; it also sizes reps so that a pass over tiny arrays lasts >= 20 ms (1 ms quick). */
    double dt = run_pass(&j, w), pass = dev && dev->host_quick ? 0.001 : 0.02;
    double reps = dt > 0 && dt < pass ? pass / dt + 1 : 1; /* in double: a tiny dt overflows int */
    j.reps = reps < 100000 ? (int)reps : 100000;
    gpu_status st = GPU_OK;
    for (int i = 0; i < trials; i++) {
        if (gpu_cancelled(cancel)) {
            st = GPU_ERR_CANCELLED;
            break;
        }
        t[i] = run_pass(&j, w);
    }
    double sum = 0;
    for (int i = 0; i < j.nthreads; i++) sum += j.sum[i];
    if (st == GPU_OK && !host_valid(&j, sum, dev && dev->fault_corrupt)) st = GPU_ERR_VALIDATION;
    give_back(ar, count, arr);
    (void)fresh;
    if (st != GPU_OK) return st;
    r->validated = true;
    r->dot = k == GPU_HOST_DOT ? sum : 0;
    double res = gpu_timer_resolution();

    gpu_stats(r, t, trials);
    /* Bytes per element: STREAM counts copy/scale 16, add/triad 24 (no write-allocate traffic);
     * BabelStream counts dot 16 (two arrays read). */
    int per = k == GPU_HOST_ADD || k == GPU_HOST_TRIAD ? 3 : 2;
    r->moved_bytes = (uint64_t)per * j.n * sizeof(double);
    r->bytes_per_s = stream ? r->moved_bytes / r->best_s : j.n * sizeof(double) / r->best_s;
    r->rw_bytes_per_s = r->moved_bytes / r->best_s;
    r->ticks = r->best_s * j.reps / res;
    if (r->ticks < 20) r->warn |= GPU_WARN_FEW_TICKS;
    /* STREAM's rule: each array at least 4x all the last-level caches the threads use */
    if (stream && hi.llc_total_bytes && bytes < 4 * hi.llc_total_bytes) r->warn |= GPU_WARN_SMALL_ARRAY;
    else if (!stream && hi.llc_bytes && bytes < 4 * hi.llc_bytes) r->warn |= GPU_WARN_SMALL_ARRAY;
    if (stream && !hi.llc_total_bytes) r->warn |= GPU_WARN_LLC_UNKNOWN;
    if (stream && j.nthreads < hi.threads) r->warn |= GPU_WARN_THREADS;
    return GPU_OK;
}

/* ---- latency ----------------------------------------------------------------------------- */

#define LINE 64 /* one dependent load per cache line */

/* Each line holds the address of the next: a load's result is the next load's address, with no
 * index arithmetic between them (that would add a cycle to every L1 hit). */
KERNEL static void **chase(void **p, uint64_t steps)
{
    while (steps--) p = (void **)*p;
    return p;
}

/* Lemire's multiply-shift: a value below `range` from 32 random bits, without a division (the
 * shuffle of a 2-million-line set made 2 million of them). */
static uint32_t below(uint64_t *seed, uint32_t range)
{
    return (uint32_t)(((gpu_rand(seed) & 0xffffffffu) * (uint64_t)range) >> 32);
}

gpu_status gpu_host_latency(const struct gpu_dev *dev, uint64_t bytes, struct gpu_result *r,
                            gpu_cancel_flag *cancel)
{
    return gpu_host_latency_in(NULL, dev, bytes, r, cancel);
}

gpu_status gpu_host_latency_in(struct gpu_host_arena *ar, const struct gpu_dev *dev,
                               uint64_t bytes, struct gpu_result *r, gpu_cancel_flag *cancel)
{
    double t[GPU_MAX_SAMPLES];
    const int trials = 5;
    const bool quick = dev && dev->host_quick;
    /* each trial's length (its loads follow from the warm-up's rate), and the warm-up's */
    const double trial_s = quick ? 0.0002 : 0.005, warm_s = quick ? 0.0005 : 0.01;
    const uint64_t min_steps = quick ? 1024 : 4096, chunk = 4096;
    *r = (struct gpu_result){.bytes = bytes, .numa_node = -1};
    if (bytes < 4096 || bytes / LINE > UINT32_MAX) return GPU_ERR_ARG;
    size_t lines = bytes / LINE;
    double *arr[3];
    bool fresh;
    if (!take_arrays(ar, 1, lines * LINE, arr, &fresh)) return GPU_ERR_HOST_NOMEM;
    char *mem = (char *)arr[0];
    uint32_t *order = malloc(lines * sizeof *order);
    if (!order) {
        give_back(ar, 1, arr);
        return GPU_ERR_HOST_NOMEM;
    }
    /* Sattolo's algorithm: a random permutation that is one single cycle through every line, so
     * no prefetcher can guess the next address and every line is visited. */
    uint64_t seed = 0x5eed ^ bytes;
    for (size_t i = 0; i < lines; i++) order[i] = (uint32_t)i;
    for (size_t i = lines - 1; i > 0; i--) {
        if ((i & 0xfffff) == 0 && gpu_cancelled(cancel)) { /* a 1 GiB set takes a while to shuffle */
            free(order);
            give_back(ar, 1, arr);
            return GPU_ERR_CANCELLED;
        }
        size_t k = below(&seed, (uint32_t)i);
        uint32_t x = order[i];
        order[i] = order[k];
        order[k] = x;
    }
    for (size_t i = 0; i < lines; i++) *(void **)(void *)(mem + i * LINE) = mem + (size_t)order[i] * LINE;
    free(order);

    /* Warm-up, in chunks: the whole cycle when it takes under warm_s (a set that fits a cache is
     * then in it), else what warm_s allows; the last chunk's rate sizes the trials. */
    void **p = (void **)(void *)mem;
    double ns = 0, w0 = gpu_now();
    gpu_status st = GPU_OK;
    for (uint64_t done = 0;;) {
        double c0 = gpu_now();
        p = chase(p, chunk);
        __asm__ volatile("" : "+r"(p)::"memory");
        double c1 = gpu_now();
        ns = (c1 - c0) / chunk;
        done += chunk;
        if (done >= lines || c1 - w0 >= warm_s) break;
        if (gpu_cancelled(cancel)) {
            st = GPU_ERR_CANCELLED;
            break;
        }
    }
    double want = ns > 0 ? trial_s / ns : (double)min_steps;
    uint64_t steps = want < (double)min_steps ? min_steps : want > (double)(1u << 24) ? 1u << 24 : (uint64_t)want;
    for (int i = 0; st == GPU_OK && i < trials; i++) {
        if (gpu_cancelled(cancel)) {
            st = GPU_ERR_CANCELLED;
            break;
        }
        double t0 = gpu_now();
        p = chase(p, steps);
        __asm__ volatile("" : "+r"(p)::"memory"); /* the chase ends before the clock is read */
        t[i] = (gpu_now() - t0) / steps;
    }
    give_back(ar, 1, arr);
    (void)fresh;
    if (st != GPU_OK) return st;
    gpu_stats(r, t, trials);
    r->ns_per_load = r->best_s * 1e9;
    r->ticks = r->best_s * steps / gpu_timer_resolution();
    return GPU_OK;
}
