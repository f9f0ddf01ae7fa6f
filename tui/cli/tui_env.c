/* tui_env.c - see tui_env.h. */
#include "tui_env.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_err.h"
#include "gpu_parse.h"

/* A whole number in [0, INT_MAX] from `var`, when it is set. */
static bool env_count(const char *var, int *out, char *err, size_t n)
{
    const char *v = getenv(var);
    uint64_t x;
    char perr[200];
    if (!v) return true;
    if (!gpu_parse_u64(v, 0, INT_MAX, &x, perr, sizeof perr)) {
        gpu_errf(err, n, "%s: %s", var, perr);
        return false;
    }
    *out = (int)x;
    return true;
}

bool tui_env_config(struct gpu_config *cfg, char *err, size_t n)
{
    char perr[200];
    if (!env_count("VRAMLAB_FAULT_ALLOC", &cfg->fail_alloc, err, n) ||
        !env_count("VRAMLAB_FAULT_STICKY", &cfg->fault_sticky, err, n) ||
        !env_count("VRAMLAB_FAULT_HANG", &cfg->fault_hang, err, n))
        return false;
    cfg->fault_corrupt = getenv("VRAMLAB_FAULT_CORRUPT") != NULL;
    const char *off = getenv("VRAMLAB_NO_NVML");
    cfg->no_nvml = off && *off && strcmp(off, "0");
    const char *other = getenv("VRAMLAB_SIM_OTHER_BYTES");
    if (other && !strcmp(other, "all")) {
        cfg->sim_other_bytes = GPU_SIM_OTHER_ALL;
    } else if (other && !gpu_parse_size(other, 0, UINT64_MAX - 1, &cfg->sim_other_bytes, perr,
                                        sizeof perr)) {
        gpu_errf(err, n, "VRAMLAB_SIM_OTHER_BYTES: %s (or all)", perr);
        return false;
    }
    const char *q = getenv("VRAMLAB_HOST_QUICK");
    if (q && *q && strcmp(q, "0") && strcmp(q, "1")) {
        gpu_errf(err, n, "VRAMLAB_HOST_QUICK: '%.40s' is not 0 or 1", q);
        return false;
    }
    cfg->host_quick = q && !strcmp(q, "1");
    const char *hm = getenv("VRAMLAB_HOST_MAX");
    if (hm && *hm && !gpu_parse_size(hm, 64u << 10, 1ull << 40, &cfg->host_max, perr, sizeof perr)) {
        gpu_errf(err, n, "VRAMLAB_HOST_MAX: %s", perr);
        return false;
    }
    return true;
}

void tui_env_report(const struct gpu_dev *dev, FILE *f)
{
    if (!dev || !getenv("VRAMLAB_FAULT_REPORT")) return;
    fprintf(f, "vramlab: %ld allocation(s) attempted\n", dev->alloc_count);
    fprintf(f, "vramlab: allocation sites:");
    for (long k = 0; k < dev->alloc_count && k < GPU_FAULT_LOG; k++)
        fprintf(f, " %d", dev->site_of[k]);
    fprintf(f, "\n");
}
