/* bench_alloc.c - `make bench`: replaying allocator traces through the caching-allocator model,
 * against references measured in the same run (never asserted: a benchmark, not a test).
 *   parse + replay 1,000,000 events           goal: under 1 s (PyTorch's memory_viz stalls near
 *                                             600k events; vramlab should not)
 *   replay vs glibc malloc/free of the same    a ratio: what the model's bookkeeping costs over
 *   event stream (the cheapest possible        a general-purpose heap doing the same calls
 *   allocator in this process)
 *   fill, free every other, empty_cache, then  time at 4x the events / time at 1x: 4 when the
 *   larger requests (each misses every hole)   replay is linear, 16 when quadratic
 *   10,000,000 events of such rounds (32768    replay / parse of the same text (parsing is one
 *   holes each) on a 4 TiB model device        linear pass: the reference for "linear")
 *   traces of several shapes, generated here   time(4N) / time(N) for each (goal <= 5), and the
 *   (gen_mix, gen_split, gen_holes, the mix    same trace with OOMs / without (goal <= 5): an
 *   under expandable segments)                 OOM's release costs what it releases
 * Usage: bench_alloc [--quick] */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "gpu_caching.h"
#include "gpu_model_dev.h"
#include "gpu_trace.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static uint64_t rnd(uint64_t *s)
{
    return gpu_rand(s);
}

/* A training-like mix: many small tensors, some mid-size, a few large; ~48 % frees, rare
 * empty_cache; at most `live` blocks alive. */
static char *make_trace(size_t events, size_t live, size_t *len)
{
    size_t cap = events * 32 + 64;
    char *text = malloc(cap);
    uint64_t *ids = malloc(live * sizeof *ids);
    if (!text || !ids) {
        fprintf(stderr, "bench_alloc: out of memory\n");
        exit(1);
    }
    uint64_t next = 1, seed = 2024;
    size_t n = 0, l = 0;
    for (size_t i = 0; i < events; i++) {
        uint64_t p = rnd(&seed) % 1000;
        if ((p < 480 && n) || n == live) {
            size_t j = rnd(&seed) % n;
            l += (size_t)snprintf(text + l, cap - l, "f %llu\n", (unsigned long long)ids[j]);
            ids[j] = ids[--n];
        } else if (p == 999) {
            l += (size_t)snprintf(text + l, cap - l, "e\n");
        } else {
            uint64_t k = rnd(&seed) % 100, sz;
            if (k < 70) sz = 1 + rnd(&seed) % (1 * MiB);             /* small pool */
            else if (k < 95) sz = 1 * MiB + rnd(&seed) % (9 * MiB);  /* 20 MiB segments */
            else sz = 10 * MiB + rnd(&seed) % (246 * MiB);           /* own segments */
            ids[n++] = next;
            l += (size_t)snprintf(text + l, cap - l, "a %llu %llu\n", (unsigned long long)next++,
                                  (unsigned long long)sz);
        }
    }
    free(ids);
    *len = l;
    return text;
}

/* The same events through glibc: malloc of 64 bytes stands for each block (touching no memory
 * beyond the header), so the reference measures event dispatch plus a fast allocator. */
static double ref_glibc(const struct gpu_trace *t)
{
    void **slot = calloc(t->nslots ? t->nslots : 1, sizeof *slot);
    double t0 = gpu_now();
    for (size_t i = 0; i < t->n; i++) {
        const struct gpu_trace_ev *e = &t->ev[i];
        if (e->op == GPU_TRACE_ALLOC) slot[e->slot] = malloc(64);
        else if (e->op == GPU_TRACE_FREE) {
            free(slot[e->slot]);
            slot[e->slot] = NULL;
        }
    }
    double dt = gpu_now() - t0;
    for (size_t i = 0; i < t->nslots; i++) free(slot[i]);
    free(slot);
    return dt;
}

/* Growing text buffer for the trace generators. */
struct text {
    char *s;
    size_t len, cap, lines;
};

__attribute__((format(printf, 2, 3)))
static void put(struct text *t, const char *fmt, ...)
{
    if (t->cap - t->len < 64) {
        t->cap = t->cap ? t->cap * 2 : 1 << 20;
        if (!(t->s = realloc(t->s, t->cap))) {
            fprintf(stderr, "bench_alloc: out of memory\n");
            exit(1);
        }
    }
    va_list ap;
    va_start(ap, fmt);
    t->len += (size_t)vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->lines++;
}

/* One round of fragmentation, from id `first`: 2n blocks of 10 MiB, every other one freed and
 * given back by empty_cache (the model device then holds n separate free ranges), then 2n
 * requests of 12 MiB that fit none of them. With `clean`, everything is freed again and the
 * device is whole for the next round. Returns the next free id. */
static uint64_t fragment_round(struct text *t, uint64_t first, size_t n, bool clean)
{
    typedef unsigned long long ull;
    for (uint64_t i = first; i < first + 2 * n; i++) put(t, "a %llu %llu\n", (ull)i, 10 * MiB);
    for (uint64_t i = first; i < first + 2 * n; i += 2) put(t, "f %llu\n", (ull)i);
    put(t, "e\n");
    for (uint64_t i = first + 2 * n; i < first + 4 * n; i++) put(t, "a %llu %llu\n", (ull)i, 12 * MiB);
    if (clean) {
        for (uint64_t i = first + 1; i < first + 2 * n; i += 2) put(t, "f %llu\n", (ull)i);
        for (uint64_t i = first + 2 * n; i < first + 4 * n; i++) put(t, "f %llu\n", (ull)i);
        put(t, "e\n");
    }
    return first + 4 * n;
}

static double parse_replay(const struct text *tx, uint64_t capacity, double *parse_s, size_t *nev)
{
    char err[512];
    struct gpu_trace t;
    struct gpu_replay_result *r = calloc(1, sizeof *r);
    double t0 = gpu_now();
    if (!r || gpu_trace_parse(tx->s, tx->len, &t, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "bench_alloc: %s\n", r ? err : "out of memory");
        exit(1);
    }
    double t1 = gpu_now();
    struct gpu_caching *c;
    if (gpu_caching_new_model(NULL, capacity, &c, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "bench_alloc: %s\n", err);
        exit(1);
    }
    double t2 = gpu_now();
    gpu_trace_replay(&t, c, r, NULL, err, sizeof err);
    double t3 = gpu_now();
    *parse_s = t1 - t0;
    *nev = t.n;
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
    free(r);
    return t3 - t2;
}

/* A long trace of fragmentation rounds (32768 holes each) on a 4 TiB model device: replay time
 * against parse time of the same text. */
static void run_long(size_t events)
{
    struct text tx = {0};
    for (uint64_t id = 1; tx.lines < events;) id = fragment_round(&tx, id, 32768, true);
    double parse_s, replay_s;
    size_t nev;
    replay_s = parse_replay(&tx, 4ull << 40, &parse_s, &nev);
    printf("alloc replay %8zu events in rounds of 32768 holes then larger requests, 4 TiB model: "
           "parse %.0f ms, replay %.0f ms, replay / parse %.2fx (parse is one linear pass)\n",
           nev, parse_s * 1e3, replay_s * 1e3, replay_s / parse_s);
    free(tx.s);
}

/* One round at n and at 4n holes: the time ratio says linear (4) or quadratic (16). */
static double one_round(size_t n, size_t *nev)
{
    struct text tx = {0};
    fragment_round(&tx, 1, n, false);
    double parse_s, replay_s = parse_replay(&tx, 4ull << 40, &parse_s, nev);
    free(tx.s);
    return replay_s;
}

static void run_scaling(size_t n)
{
    size_t e1, e4;
    double a = 1e9, b = 1e9;
    for (int k = 0; k < 3; k++) { /* best of 3: the ratio, not the noise */
        double x = one_round(n, &e1), y = one_round(4 * n, &e4);
        if (x < a) a = x;
        if (y < b) b = y;
    }
    printf("alloc replay  holes then larger requests: %zu events %.1f ms, %zu events %.1f ms: "
           "ratio %.1fx for 4x the events (linear 4, quadratic 16)\n", e1, a * 1e3, e4, b * 1e3,
           b / a);
}

static void run(size_t events, size_t live, uint64_t capacity, const char *conf, int rounds)
{
    size_t len;
    char *text = make_trace(events, live, &len);
    char err[512];
    double best_parse = 1e9, best_replay = 1e9, best_ref = 1e9;
    struct gpu_replay_result r;
    struct gpu_caching_opts o;
    gpu_caching_opts_default(&o);
    if (gpu_caching_parse_conf(conf, &o, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "bench_alloc: %s\n", err);
        exit(1);
    }
    for (int k = 0; k < rounds; k++) {
        struct gpu_trace t;
        double t0 = gpu_now();
        if (gpu_trace_parse(text, len, &t, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "bench_alloc: %s\n", err);
            exit(1);
        }
        double t1 = gpu_now();
        struct gpu_caching *c;
        if (gpu_caching_new_model(&o, capacity, &c, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "bench_alloc: %s\n", err);
            exit(1);
        }
        double t2 = gpu_now();
        gpu_trace_replay(&t, c, &r, NULL, err, sizeof err);
        double t3 = gpu_now();
        double ref = ref_glibc(&t);
        gpu_caching_destroy(c);
        gpu_trace_free(&t);
        if (t1 - t0 < best_parse) best_parse = t1 - t0;
        if (t3 - t2 < best_replay) best_replay = t3 - t2;
        if (ref < best_ref) best_ref = ref;
    }
    double total = best_parse + best_replay;
    printf("alloc replay  %7zu events %-28s parse %6.1f ms  replay %6.1f ms  total %6.1f ms "
           "(goal < 1000 ms: %s)  replay / glibc %.1fx  [%zu OOMs, peak reserved %.2f GiB]\n",
           events, conf[0] ? conf : "(defaults)", best_parse * 1e3, best_replay * 1e3, total * 1e3,
           total < 1.0 ? "met" : "MISSED", best_replay / best_ref, r.ooms,
           (double)r.stats.reserved_bytes[0].peak / (double)GiB);
    free(text);
}

/* ---- shapes: each replay linear in its events, OOMs or not ------------------------------------ */

/* A training-like mix (make_trace) as text. */
static void gen_mix(struct text *t, size_t n)
{
    size_t len;
    free(t->s);
    t->s = make_trace(n, 4096, &len);
    t->len = len, t->cap = len + 1, t->lines = n;
}

/* Blocks of 6 MiB, three to a 20 MiB segment (2 MiB of it left free, split, never releasable),
 * then large requests, each freed at once: on a small device every one of them runs the OOM
 * ladder with every split remainder cached. */
static void gen_split(struct text *t, size_t n)
{
    typedef unsigned long long ull;
    uint64_t id = 1;
    size_t k = n / 2;
    for (size_t i = 0; i < k; i++) put(t, "a %llu %llu\n", (ull)id++, 6 * MiB);
    while (t->lines < n) {
        put(t, "a %llu %llu\n", (ull)id, 200 * MiB);
        put(t, "f %llu\n", (ull)id++);
    }
}

/* Rounds of holes (fragment_round) that are not cleaned up: the device fills with segments. */
static void gen_holes(struct text *t, size_t n)
{
    for (uint64_t id = 1; t->lines < n;) id = fragment_round(t, id, 256, false);
}

struct shape {
    const char *name, *conf;
    void (*gen)(struct text *t, size_t n);
    uint64_t oom_capacity; /* a device on which this trace runs out, again and again */
};

/* CPU time of this thread: on a machine others share, what the replay itself spent. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double replay_text(const struct text *tx, const char *conf, uint64_t capacity, size_t *ooms)
{
    char err[512];
    struct gpu_trace t;
    struct gpu_replay_result *r = calloc(1, sizeof *r);
    struct gpu_caching_opts o;
    gpu_caching_opts_default(&o);
    struct gpu_caching *c;
    if (!r || gpu_trace_parse(tx->s, tx->len, &t, err, sizeof err) != GPU_OK ||
        gpu_caching_parse_conf(conf, &o, err, sizeof err) != GPU_OK ||
        gpu_caching_new_model(&o, capacity, &c, err, sizeof err) != GPU_OK) {
        fprintf(stderr, "bench_alloc: %s\n", r ? err : "out of memory");
        exit(1);
    }
    double t0 = cpu_now();
    gpu_trace_replay(&t, c, r, NULL, err, sizeof err);
    double dt = cpu_now() - t0;
    *ooms = r->ooms;
    gpu_caching_destroy(c);
    gpu_trace_free(&t);
    free(r);
    return dt;
}

static double best_replay(const struct shape *sh, size_t n, uint64_t capacity, size_t *ooms)
{
    struct text tx = {0};
    sh->gen(&tx, n);
    double best = 1e9;
    for (int k = 0; k < 3; k++) { /* best of 3: the ratio, not the noise */
        double d = replay_text(&tx, sh->conf, capacity, ooms);
        if (d < best) best = d;
    }
    free(tx.s);
    return best;
}

static void run_shapes(size_t n)
{
    static const struct shape shapes[] = {
        {"training mix", "", gen_mix, 8 * GiB},
        {"training mix, expandable", "expandable_segments:True", gen_mix, 8 * GiB},
        {"split remainders + large requests", "", gen_split, 0},
        {"holes then larger requests", "", gen_holes, 0},
    };
    printf("# replay by shape, CPU time, best of 3: time(4N) / time(N) (goal <= 5: linear is 4) "
           "and the same trace with OOMs / without (goal <= 5)\n");
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const struct shape *sh = &shapes[i];
        size_t o1, o4, oo;
        double a = best_replay(sh, n, 4ull << 40, &o1), b = best_replay(sh, 4 * n, 4ull << 40, &o4);
        /* the OOM device: the shape's own, or a quarter of what the trace reserves unlimited */
        uint64_t cap = sh->oom_capacity ? sh->oom_capacity : 3 * GiB;
        double c = best_replay(sh, 4 * n, cap, &oo);
        printf("alloc shape   %-36s N=%-8zu %7.1f ms, 4N %7.1f ms: %.1fx (goal <= 5: %s); "
               "with %zu OOMs %7.1f ms: %.1fx without (goal <= 5: %s)\n", sh->name, n, a * 1e3,
               b * 1e3, b / a, b / a <= 5 ? "met" : "MISSED", oo, c * 1e3, c / b,
               c / b <= 5 ? "met" : "MISSED");
        if (!oo) printf("alloc shape   %-36s (no OOM on the small device: the second ratio says "
                        "nothing)\n", sh->name);
    }
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && !strcmp(argv[1], "--quick");
    if (argc > 1 && !strcmp(argv[1], "--shapes")) { /* the shapes alone */
        run_shapes(argc > 2 ? (size_t)atol(argv[2]) : 200000);
        return 0;
    }
    int rounds = quick ? 1 : 3;
    printf("# bench_alloc: trace parse + replay through the caching-allocator model, best of %d; "
           "one core\n", rounds);
    run(600000, 4096, 80 * GiB, "", rounds);
    run(1000000, 4096, 80 * GiB, "", rounds);
    run(1000000, 4096, 80 * GiB, "max_split_size_mb:128", rounds);
    run(1000000, 4096, 80 * GiB, "expandable_segments:True", rounds);
    run(1000000, 4096, 24 * GiB, "", rounds); /* tighter: the OOM ladder runs */
    run_scaling(quick ? 8192 : 16384);
    run_shapes(quick ? 50000 : 200000);
    run_long(quick ? 2000000 : 10000000);
    return 0;
}
