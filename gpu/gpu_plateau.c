/* gpu_plateau.c - finds the plateaus of a latency ladder (ns per load against working-set size)
 * from the measurement alone, then names each by where it ends against the machine's cache
 * sizes: a run that ends within L1 is L1, within L2 is L2, past the last cache is DRAM (one
 * ladder step of slack, see level_of). Named by size, not by order. A step inside one cache
 * level is a different thing on each side: a GPU whose L2 shows a near and a far step (Hopper's
 * L2 has two partitions) has no L3, so its runs are "L2 near" and "L2 far"; a host has no near
 * and far cache, and a step inside a level (or a second one past the last) is its TLB's reach
 * running out (a 64-entry L1 DTLB x 4 KiB = 256 KiB, an STLB of 1.5-3 K entries = 6-12 MiB):
 * "L2+TLB", "L3+TLB", "DRAM+TLB".
 *
 * A level ends where latency jumps: consecutive sizes (x2 apart) whose latencies differ by more
 * than STEP. Inside a level latency may drift (TLB reach, partial hits), which is why a level is
 * a run between jumps, reported by its median, not a run of equal values. */
#include "gpu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STEP 1.40

/* The level a run belongs to: the first that holds where it ends; index into lv, or nlv for
 * beyond them all. A random chase still hits a cache often at the first size past it, so a run
 * may end one ladder step (x2) past its level when most of it, its geometric middle, is inside. */
static int level_of(const struct gpu_plateau *p, const struct gpu_level *lv, int nlv)
{
    const double mid = sqrt((double)p->from_bytes * (double)p->to_bytes);
    int i = 0;
    while (i < nlv && p->to_bytes > lv[i].bytes &&
           !(p->to_bytes <= 2 * lv[i].bytes && mid <= (double)lv[i].bytes))
        i++;
    return i;
}

static void name_runs(struct gpu_plateau *out, int np, const struct gpu_level *lv, int nlv,
                      bool host)
{
    int lvl[64];
    for (int k = 0; k < np; k++) lvl[k] = nlv ? level_of(&out[k], lv, nlv) : k;
    for (int k = 0; k < np; k++) {
        int first = k, last = k; /* the runs that share this one's level */
        while (first > 0 && lvl[first - 1] == lvl[k]) first--;
        while (last < np - 1 && lvl[last + 1] == lvl[k]) last++;
        char *l = out[k].label;
        size_t n = sizeof out[k].label;
        const char *name = nlv && lvl[k] < nlv ? lv[lvl[k]].name : "DRAM";
        if (!nlv) snprintf(l, n, "level %d", k + 1);
        else if (host) /* a second step in a level, or a jump taken with the working set at most
                          half the previous run's cache (which a random chase still fits): the
                          TLB's reach, not a cache */
            snprintf(l, n, k != first || (k > 0 && lvl[k - 1] < nlv &&
                                          2 * out[k].from_bytes <= lv[lvl[k - 1]].bytes) ? "%s+TLB" : "%s", name);
        else if (lvl[k] == nlv) snprintf(l, n, k == first ? "DRAM" : "DRAM+TLB");
        else if (first == last) snprintf(l, n, "%s", name);
        else snprintf(l, n, "%s %s", name, k == first ? "near" : k == last ? "far" : "mid");
    }
}

int gpu_plateaus(const uint64_t *bytes, const double *ns, int n, const struct gpu_level *lv,
                 int nlv, bool host, struct gpu_plateau *out, int max)
{
    int np = 0, start = 0;
    if (max > 64) max = 64;
    for (int i = 1; i <= n; i++) {
        if (i < n && ns[i] <= ns[i - 1] * STEP) continue;
        int len = i - start;
        if (len >= 2 && np < max) { /* a lone point between two jumps is a transition */
            double s[GPU_MAX_SAMPLES];
            int m = len < GPU_MAX_SAMPLES ? len : GPU_MAX_SAMPLES;
            memcpy(s, ns + start, (size_t)m * sizeof *s);
            out[np++] = (struct gpu_plateau){.from_bytes = bytes[start],
                                             .to_bytes = bytes[i - 1],
                                             .ns = gpu_median(s, m)};
        }
        start = i;
    }
    name_runs(out, np, lv, nlv < 0 ? 0 : nlv, host);
    return np;
}

int gpu_dev_caches(const struct gpu_info *i, struct gpu_level *out, int max)
{
    /* Both or neither: with L1 unknown, a run inside L1 would be taken for L2. */
    if (!i->l1_bytes || !i->l2_bytes || max < 2) return 0;
    out[0] = (struct gpu_level){"L1", i->l1_bytes};
    out[1] = (struct gpu_level){"L2", i->l2_bytes};
    return 2;
}
