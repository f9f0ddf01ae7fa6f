/* bench_snapshot.c - PyTorch memory snapshot speed: read + parse the pickle, build the model
 * and summarise it (what `vramlab snapshot FILE` does), then replay the trace through the
 * caching-allocator model under the recorded options and with expandable segments, best of
 * RUNS each, in wall-clock time and in CPU time (user + system, one thread: on a shared
 * machine the CPU time is what one core spends, the wall time also counts waiting for one).
 * tests/bench/bench_snapshot.sh generates the 1,000,000-entry file and measures Python's
 * pickle.load of the same file in the same run; its wall and CPU times come in for the ratio,
 * and the number of trace entries Python read, which the reader must have read too.
 * The times are never asserted (a benchmark); what was timed is: a wrong result fails it.
 *   bench_snapshot FILE [RUNS [PY_WALL_SECONDS PY_CPU_SECONDS [PY_ENTRIES]]] */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "gpu_snap_replay.h"
#include "gpu_snap_summary.h"
#include "gpu_snapshot.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The result check: prints what is wrong and counts it (main exits 1 when any failed). */
static int failures;
static void expect(bool ok, const char *fmt, ...)
{
    if (ok) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL bench_snapshot: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_snapshot FILE [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    if (runs < 1) runs = 1;
    double py = argc > 3 ? atof(argv[3]) : 0, py_cpu = argc > 4 ? atof(argv[4]) : 0;
    size_t py_entries = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
    struct stat sb;
    double mb = stat(argv[1], &sb) == 0 ? sb.st_size / 1e6 : 0;
    double best[4] = {1e30, 1e30, 1e30, 1e30}, best_cpu = 1e30;
    size_t events = 0;
    char err[1024];
    for (int r = 0; r < runs; r++) {
        double c0 = cpu_now(), t0 = gpu_now();
        struct gpu_snapshot *s;
        if (gpu_snapshot_load(argv[1], NULL, &s, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        double t1 = gpu_now();
        struct gpu_snap_summary sum;
        if (gpu_snapshot_summarize(s, 10, NULL, &sum, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s: %s\n", argv[1], err);
            return 1;
        }
        double t2 = gpu_now(), c2 = cpu_now();
        if (c2 - c0 < best_cpu) best_cpu = c2 - c0;
        struct gpu_snap_replay *rp = calloc(1, sizeof *rp);
        struct gpu_caching_opts o;
        gpu_caching_opts_default(&o);
        o.expandable_segments = true;
        if (!rp || gpu_snapshot_replay(s, 0, 0, &o, NULL, NULL, rp, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s: %s\n", argv[1], rp ? err : "out of memory");
            return 1;
        }
        double t3 = gpu_now();
        events = sum.ndev ? sum.dev[0].events : 0;
        /* what was timed must be right: entries read, both replays run over the same requests
         * (options change what is reserved, never what is asked for), reserved covering them */
        const struct gpu_snap_side *a = &rp->model_recorded, *b = &rp->model_whatif;
        expect(events > 0, "%s: no trace entries read", argv[1]);
        expect(!py_entries || events == py_entries, "%s: %zu trace entries read, Python's pickle "
               "read %zu", argv[1], events, py_entries);
        expect(rp->have_whatif, "%s: the expandable-segments replay did not run", argv[1]);
        expect(a->peak_requested > 0 && a->peak_requested == b->peak_requested,
               "%s: peak requested %llu (recorded options) and %llu (expandable segments) differ",
               argv[1], (unsigned long long)a->peak_requested, (unsigned long long)b->peak_requested);
        expect(a->peak_reserved >= a->peak_requested && b->peak_reserved >= b->peak_requested,
               "%s: reserved %llu / %llu below requested %llu / %llu", argv[1],
               (unsigned long long)a->peak_reserved, (unsigned long long)b->peak_reserved,
               (unsigned long long)a->peak_requested, (unsigned long long)b->peak_requested);
        if (failures) return 1;
        free(rp);
        gpu_snap_summary_free(&sum);
        gpu_snapshot_free(s);
        double t4 = gpu_now();
        double d[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
        for (int i = 0; i < 4; i++)
            if (d[i] < best[i]) best[i] = d[i];
    }
    double ps = best[0] + best[1];
    printf("snapshot      %7zu entries %6.1f MB  read+parse+model %6.1f ms  summary %6.1f ms  "
           "total %6.1f ms wall, %6.1f ms CPU (goal < 1000 ms of one core: %s)\n", events, mb,
           best[0] * 1e3, best[1] * 1e3, ps * 1e3, best_cpu * 1e3,
           best_cpu < 1.0 ? "met" : "MISSED");
    if (py > 0)
        printf("snapshot      Python pickle.load alone (no summary): %6.1f ms wall, %6.1f ms CPU: "
               "vramlab %.1fx faster (CPU), %.1fx (wall)\n", py * 1e3, py_cpu * 1e3,
               best_cpu > 0 ? py_cpu / best_cpu : 0, py / ps);
    printf("snapshot      replay under the recorded options and with expandable segments: "
           "%6.1f ms wall (best of %d; MB = 1e6 B)\n", best[2] * 1e3, runs);
    return 0;
}
