/* gpu_plateau.c - finds the plateaus of a latency ladder (ns per load against working-set size)
 * from the measurement alone, and names them by order: L1, L2, ... and DRAM for the last one when
 * the ladder went far past the caches. No lscpu, no profile: what the chase saw.
 *
 * A cache level ends where latency jumps: consecutive sizes (x2 apart) whose latencies differ by
 * more than STEP. Inside a level latency may drift (TLB reach, partial hits), which is why a level
 * is a run between jumps, reported by its median, not a run of equal values. */
#include "gpu.h"

#include <stdio.h>
#include <string.h>

#define STEP 1.40

int gpu_plateaus(const uint64_t *bytes, const double *ns, int n, bool dram_last,
                 struct gpu_plateau *out, int max)
{
    int np = 0, start = 0;
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
    for (int k = 0; k < np; k++) {
        if (dram_last && k == np - 1 && np > 1) snprintf(out[k].label, sizeof out[k].label, "DRAM");
        else snprintf(out[k].label, sizeof out[k].label, "L%d", k + 1);
    }
    return np;
}
