/* bench_snapshot.c - PyTorch memory snapshot speed: read + parse the pickle, build the model,
 * summarise, and replay the trace through the caching-allocator model, best of N runs each
 * (wall clock, one thread). tests/bench/bench_snapshot.sh generates the 1,000,000-entry file
 * and measures Python's pickle.load of the same file in the same run for the ratio.
 *   bench_snapshot FILE [RUNS]
 * prints one line per phase: "snapshot <phase> <seconds>". */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_snapshot.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_snapshot FILE [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    if (runs < 1) runs = 1;
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    size_t events = 0;
    char err[1024];
    for (int r = 0; r < runs; r++) {
        double t0 = gpu_now();
        struct gpu_pk_doc *doc;
        if (gpu_pk_load(argv[1], NULL, &doc, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        double t1 = gpu_now();
        struct gpu_snapshot *s;
        if (gpu_snapshot_from_doc(doc, &s, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s: %s\n", argv[1], err);
            return 1;
        }
        struct gpu_snap_summary sum;
        if (gpu_snapshot_summarize(s, 10, &sum, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s: %s\n", argv[1], err);
            return 1;
        }
        double t2 = gpu_now();
        struct gpu_snap_replay *rp = calloc(1, sizeof *rp);
        struct gpu_caching_opts o;
        gpu_caching_opts_default(&o);
        o.expandable_segments = true;
        if (!rp || gpu_snapshot_replay(s, 0, 0, &o, rp, err, sizeof err) != GPU_OK) {
            fprintf(stderr, "%s: %s\n", argv[1], rp ? err : "out of memory");
            return 1;
        }
        double t3 = gpu_now();
        events = sum.ndev ? sum.dev[0].events : 0;
        free(rp);
        gpu_snap_summary_free(&sum);
        gpu_snapshot_free(s);
        double t4 = gpu_now();
        double d[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
        for (int i = 0; i < 4; i++)
            if (d[i] < best[i]) best[i] = d[i];
    }
    printf("snapshot events %zu\n", events);
    printf("snapshot parse %.6f\n", best[0]);
    printf("snapshot summary %.6f\n", best[1]);
    printf("snapshot replay %.6f\n", best[2]);
    printf("snapshot free %.6f\n", best[3]);
    return 0;
}
